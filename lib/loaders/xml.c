/* expat -> a small element tree with line numbers, and attribute helpers
 * whose errors name the element path. */
#include "config.h"

#include <expat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/xml.h"

enum { MAX_DEPTH = 256, MAX_TEXT = 1 << 20 };

struct builder {
	XML_Parser p;
	bb__xnode *root, *cur;
	size_t nodes, max_nodes;
	int depth;
	const char *fail;          /* why the builder stopped the parser */
};

static void node_free(bb__xnode *n)
{
	char **a;

	for (a = n->attrs; a && *a; a++)
		free(*a);
	free(n->attrs);
	free(n->name);
	free(n->text);
	free(n);
}

void bb__xml_free(bb__xnode *root)
{
	bb__xnode *n = root, *next;

	/* iterative post-order walk: no recursion on hostile nesting */
	while (n) {
		if (n->first) {
			next = n->first;
			n->first = NULL;
			n = next;
			continue;
		}
		next = n->next ? n->next : n->parent;
		if (n == root)
			next = NULL;
		node_free(n);
		n = next;
	}
}

static void stop(struct builder *b, const char *why)
{
	if (!b->fail)
		b->fail = why;
	XML_StopParser(b->p, XML_FALSE);
}

static bb__xnode *new_node(struct builder *b, const char *name,
                           const char **attrs)
{
	bb__xnode *n = calloc(1, sizeof *n);
	size_t na = 0, i;

	if (!n)
		return NULL;
	while (attrs[na])
		na++;
	n->name = bb__strdup(name);
	n->attrs = bb__calloc(na + 1, sizeof *n->attrs);
	if (!n->name || !n->attrs) {
		node_free(n);
		return NULL;
	}
	for (i = 0; i < na; i++)
		if (!(n->attrs[i] = bb__strdup(attrs[i]))) {
			node_free(n);
			return NULL;
		}
	n->line = (int)XML_GetCurrentLineNumber(b->p);
	return n;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **attrs)
{
	struct builder *b = ud;
	bb__xnode *n;

	if (++b->nodes > b->max_nodes) {
		stop(b, "too many elements");
		return;
	}
	if (++b->depth > MAX_DEPTH) {
		stop(b, "elements nested too deep");
		return;
	}
	if (!(n = new_node(b, name, attrs))) {
		stop(b, "out of memory");
		return;
	}
	n->parent = b->cur;
	if (!b->cur) {
		b->root = n;
	} else if (b->cur->last) {
		b->cur->last->next = n;
		b->cur->last = n;
	} else {
		b->cur->first = b->cur->last = n;
	}
	b->cur = n;
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct builder *b = ud;

	(void)name;
	b->depth--;
	if (b->cur)
		b->cur = b->cur->parent;
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
	struct builder *b = ud;
	bb__xnode *n = b->cur;
	char *t;

	if (!n || len <= 0)
		return;
	if (n->ntext + (size_t)len > MAX_TEXT) {
		stop(b, "text too long");
		return;
	}
	t = realloc(n->text, n->ntext + (size_t)len + 1);
	if (!t) {
		stop(b, "out of memory");
		return;
	}
	memcpy(t + n->ntext, s, (size_t)len);
	n->ntext += (size_t)len;
	t[n->ntext] = '\0';
	n->text = t;
}

bb_status bb__xml_parse(const char *data, size_t size, const char *file,
                        size_t max_nodes, bb__xnode **root, bb_error *err)
{
	struct builder b;
	enum XML_Status st;
	bb_status s = BB_OK;

	*root = NULL;
	memset(&b, 0, sizeof b);
	b.max_nodes = max_nodes;
	if (size > (size_t)0x7fffffff)
		return bb_error_set(err, BB_ERR_LIMIT, file, NULL, "document too large");
	if (!(b.p = XML_ParserCreate("UTF-8")))
		return bb_error_set(err, BB_ERR_NOMEM, file, NULL, "out of memory");
	XML_SetUserData(b.p, &b);
	XML_SetElementHandler(b.p, on_start, on_end);
	XML_SetCharacterDataHandler(b.p, on_text);
	st = XML_Parse(b.p, data, (int)size, XML_TRUE);
	if (b.fail) {
		s = bb_error_set(err, strcmp(b.fail, "out of memory") == 0 ? BB_ERR_NOMEM
		                 : BB_ERR_LIMIT, file, NULL, "XML: %s", b.fail);
	} else if (st != XML_STATUS_OK || !b.root) {
		s = bb_error_set(err, BB_ERR_INPUT, file, NULL, "invalid XML: %s",
		                 b.root ? XML_ErrorString(XML_GetErrorCode(b.p))
		                        : "no root element");
		if (err) {
			err->line = (int)XML_GetCurrentLineNumber(b.p);
			err->column = (int)XML_GetCurrentColumnNumber(b.p) + 1;
		}
	}
	XML_ParserFree(b.p);
	if (s != BB_OK) {
		bb__xml_free(b.root);
		return s;
	}
	*root = b.root;
	return BB_OK;
}

const char *bb__xattr(const bb__xnode *n, const char *name)
{
	char **a;

	for (a = n->attrs; a && a[0] && a[1]; a += 2)
		if (strcmp(a[0], name) == 0)
			return a[1];
	return NULL;
}

static bb__xnode *match(bb__xnode *n, const char *name)
{
	while (n && name && strcmp(n->name, name) != 0)
		n = n->next;
	return n;
}

bb__xnode *bb__xchild(const bb__xnode *n, const char *name)
{
	return n ? match(n->first, name) : NULL;
}

bb__xnode *bb__xnext(const bb__xnode *n, const char *name)
{
	return n ? match(n->next, name) : NULL;
}

int bb__xindex(const bb__xnode *n)
{
	const bb__xnode *s;
	int i = 0;

	if (!n->parent)
		return 0;
	for (s = n->parent->first; s && s != n; s = s->next)
		if (strcmp(s->name, n->name) == 0)
			i++;
	return i;
}

/* "a.b[2].c" for node n: an index where n has same-named siblings. */
static void node_path(const bb__xnode *n, char *buf, size_t size)
{
	const bb__xnode *chain[64];
	int depth = 0, i;
	size_t len = 0;

	for (; n && depth < 64; n = n->parent)
		chain[depth++] = n;
	buf[0] = '\0';
	for (i = depth - 1; i >= 0 && len + 1 < size; i--) {
		const bb__xnode *e = chain[i];
		int many = e->parent && (bb__xindex(e) > 0 || bb__xnext(e, e->name));

		len += (size_t)snprintf(buf + len, size - len, many ? "%s%s[%d]" : "%s%s",
		                        len ? "." : "", e->name, bb__xindex(e));
		if (len >= size)
			len = size - 1;
	}
}

bb_status bb__xfail(bb__xctx *c, const bb__xnode *n, const char *attr,
                    const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX], path[512];
	size_t len;
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	node_path(n, path, sizeof path);
	len = strlen(path);
	if (attr && len + 1 < sizeof path)
		snprintf(path + len, sizeof path - len, ".%s", attr);
	s = bb_error_set(c->err, BB_ERR_INPUT, c->file, path, "%s", msg);
	if (c->err)
		c->err->line = n->line;
	return s;
}

bb_status bb__xnum(bb__xctx *c, const bb__xnode *n, const char *attr,
                   double def, double *out)
{
	const char *v = bb__xattr(n, attr);
	char *end;

	*out = def;
	if (!v)
		return BB_OK;
	while (*v == ' ' || *v == '\t')
		v++;
	if (!*v || strcmp(v, "NaN") == 0)
		return BB_OK;
	*out = strtod(v, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == v || *end || !isfinite(*out)) {
		*out = def;
		return bb__xfail(c, n, attr, "expected a number, found \"%.40s\"", v);
	}
	return BB_OK;
}
