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
	unsigned flags;
	int doctype;               /* its line */
	const char *fail;          /* why the builder stopped the parser */
	bb_status fail_status;
	int fail_line, fail_column;
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

static void stop(struct builder *b, bb_status s, const char *why)
{
	if (!b->fail) {
		b->fail = why;
		b->fail_status = s;
		b->fail_line = (int)XML_GetCurrentLineNumber(b->p);
		b->fail_column = (int)XML_GetCurrentColumnNumber(b->p) + 1;
	}
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
		stop(b, BB_ERR_LIMIT, "too many elements");
		return;
	}
	if (++b->depth > MAX_DEPTH) {
		stop(b, BB_ERR_LIMIT, "elements nested too deep");
		return;
	}
	if (!(n = new_node(b, name, attrs))) {
		stop(b, BB_ERR_NOMEM, "out of memory");
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
		stop(b, BB_ERR_LIMIT, "text too long");
		return;
	}
	t = realloc(n->text, n->ntext + (size_t)len + 1);
	if (!t) {
		stop(b, BB_ERR_NOMEM, "out of memory");
		return;
	}
	memcpy(t + n->ntext, s, (size_t)len);
	n->ntext += (size_t)len;
	t[n->ntext] = '\0';
	n->text = t;
}

/* A DOCTYPE: refused, unless it only names an external DTD and the
 * caller allows that (no entity is ever declared). */
static void XMLCALL on_doctype(void *ud, const XML_Char *name,
                               const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal_subset)
{
	struct builder *b = ud;

	(void)name;
	(void)sysid;
	(void)pubid;
	b->doctype = (int)XML_GetCurrentLineNumber(b->p);
	if (has_internal_subset)
		stop(b, BB_ERR_INPUT, "a DOCTYPE with declarations is refused");
	else if (!(b->flags & BB__XML_EXTERNAL_DOCTYPE))
		stop(b, BB_ERR_INPUT, "a DOCTYPE is refused (this file has none)");
}

bb_status bb__xml_parse(const char *data, size_t size, const char *file,
                        size_t max_nodes, unsigned flags, bb__xnode **root,
                        bb_error *err)
{
	struct builder b;
	enum XML_Status st;
	bb_status s = BB_OK;

	*root = NULL;
	memset(&b, 0, sizeof b);
	b.max_nodes = max_nodes;
	b.flags = flags;
	if (size > (size_t)0x7fffffff)
		return bb_error_set(err, BB_ERR_LIMIT, file, NULL, "document too large");
	if (!(b.p = XML_ParserCreate("UTF-8")))
		return bb_error_set(err, BB_ERR_NOMEM, file, NULL, "out of memory");
	XML_SetUserData(b.p, &b);
	XML_SetElementHandler(b.p, on_start, on_end);
	XML_SetCharacterDataHandler(b.p, on_text);
	XML_SetStartDoctypeDeclHandler(b.p, on_doctype);
	st = XML_Parse(b.p, data, (int)size, XML_TRUE);
	if (b.fail)
		s = bb__error_at(err, b.fail_status, file,
		                 b.fail_status == BB_ERR_NOMEM ? 0 : b.fail_line,
		                 b.fail_column, NULL, "XML: %s", b.fail);
	else if (st != XML_STATUS_OK || !b.root)
		s = bb__error_at(err, BB_ERR_INPUT, file,
		                 (int)XML_GetCurrentLineNumber(b.p),
		                 (int)XML_GetCurrentColumnNumber(b.p) + 1, NULL,
		                 "invalid XML: %s", b.root
		                 ? XML_ErrorString(XML_GetErrorCode(b.p))
		                 : "no root element");
	XML_ParserFree(b.p);
	if (s != BB_OK) {
		bb__xml_free(b.root);
		return s;
	}
	b.root->doctype = b.doctype;
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

void bb__xpath(const bb__xnode *n, bb__jpath *p)
{
	const bb__xnode *chain[64];
	int depth = 0, i;

	for (; n && depth < 64; n = n->parent)
		chain[depth++] = n;
	bb__jpath_init(p);
	for (i = depth - 1; i >= 0; i--) {
		const bb__xnode *e = chain[i];

		bb__jpath_key(p, e->name);
		if (e->parent && (bb__xindex(e) > 0 || bb__xnext(e, e->name)))
			bb__jpath_index(p, (size_t)bb__xindex(e));
	}
}

static bb_status verr(const bb__where *w, bb_status s, const bb__xnode *n,
                      const char *attr, const char *fmt, va_list ap)
{
	char msg[BB_ERROR_MSG_MAX];
	bb__jpath path;

	vsnprintf(msg, sizeof msg, fmt, ap);
	bb__xpath(n, &path);
	if (attr)
		bb__jpath_key(&path, attr);
	return bb__error_at(w->err, s, w->file, n->line, 0, path.buf, "%s", msg);
}

bb_status bb__xfail(const bb__where *w, const bb__xnode *n, const char *attr,
                    const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = verr(w, BB_ERR_INPUT, n, attr, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__xlimit(const bb__where *w, const bb__xnode *n, const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = verr(w, BB_ERR_LIMIT, n, NULL, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__xnum(const bb__where *w, const bb__xnode *n, const char *attr,
                   double def, double *out)
{
	const char *v = bb__xattr(n, attr);

	*out = def;
	if (v && !bb__text_number(v, def, out))
		return bb__xfail(w, n, attr, "expected a number, found \"%.40s\"", v);
	return BB_OK;
}

int bb__xbool(const bb__xnode *n, const char *attr, int def)
{
	const char *v = bb__xattr(n, attr);

	return v ? bb__text_bool(v) : def;
}
