/* JSON reading with field-path errors, the path-keeping iterator, and the
 * writer (the DragonBones 2.3 translator, batch stamps).  The only user of
 * jansson. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

void bb__jctx_init(bb__jctx *c, const char *file, bb_error *err, unsigned flags)
{
	memset(c, 0, sizeof *c);
	c->file = file;
	c->err = err;
	c->flags = flags;
	bb__jpath_init(&c->path);
}

bb_status bb__json_parse(const char *data, size_t size, const char *file,
                         json_t **out, bb_error *err)
{
	json_error_t je;
	json_t *root = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);

	*out = root;
	if (!root)
		return bb__error_at(err, BB_ERR_INPUT, file, je.line, je.column, NULL,
		                    "invalid JSON: %s", je.text);
	return BB_OK;
}

void bb__json_free(json_t *v)
{
	json_decref(v);
}

bb_status bb__jfail(bb__jctx *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = bb__where_vfail(c, BB_ERR_INPUT, key, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__jlimit(bb__jctx *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = bb__where_vfail(c, BB_ERR_LIMIT, key, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__jnomem(bb__jctx *c)
{
	return bb_error_set(c->err, BB_ERR_NOMEM, c->file, NULL, "out of memory");
}

const char *bb__json_type_name(json_t *v)
{
	if (!v)
		return "nothing";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "something else";
}

const char *bb__jnum_text(json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v))
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, size, "%.17g", json_real_value(v));
	else if (size)
		buf[0] = 0;
	return buf;
}

/* ---- members ------------------------------------------------------------ */

/* Member key of obj, NULL when absent or null; an error when obj is there
 * and is not an object.  Key NULL: obj itself, as it is (an element of an
 * array is there even when it is null). */
static bb_status member(bb__jctx *c, json_t *obj, const char *key, json_t **out)
{
	json_t *v;

	*out = NULL;
	if (!key) {
		*out = obj;
		return BB_OK;
	}
	if (!obj || json_is_null(obj))
		return BB_OK;
	if (!json_is_object(obj))
		return bb__jfail(c, NULL, "expected an object, found %s",
		                 bb__json_type_name(obj));
	v = json_object_get(obj, key);
	*out = v && !json_is_null(v) ? v : NULL;
	return BB_OK;
}

/* A member found with member(), looked at without errors. */
static json_t *peek(json_t *obj, const char *key)
{
	json_t *v = key ? (json_is_object(obj) ? json_object_get(obj, key) : NULL)
	                : obj;

	return v && !json_is_null(v) ? v : NULL;
}

json_t *bb__jget(json_t *obj, const char *key)
{
	return peek(obj, key);
}

bb__jkind bb__jkind_of(json_t *obj, const char *key)
{
	json_t *v = peek(obj, key);

	if (!v)
		return BB_JK_ABSENT;
	switch (json_typeof(v)) {
	case JSON_OBJECT: return BB_JK_OBJECT;
	case JSON_ARRAY: return BB_JK_ARRAY;
	case JSON_STRING: return BB_JK_STRING;
	case JSON_INTEGER:
	case JSON_REAL: return BB_JK_NUMBER;
	case JSON_TRUE:
	case JSON_FALSE: return BB_JK_BOOL;
	case JSON_NULL: break;
	}
	return BB_JK_ABSENT;
}

const char *bb__jkind_name(bb__jkind k)
{
	switch (k) {
	case BB_JK_ABSENT: return "nothing";
	case BB_JK_BOOL: return "a boolean";
	case BB_JK_NUMBER: return "a number";
	case BB_JK_STRING: return "a string";
	case BB_JK_ARRAY: return "an array";
	case BB_JK_OBJECT: return "an object";
	}
	return "something else";
}

int bb__jhas(json_t *obj, const char *key)
{
	return peek(obj, key) != NULL;
}

int bb__jhas_member(json_t *obj, const char *key)
{
	return json_is_object(obj) && json_object_get(obj, key) != NULL;
}

size_t bb__jsize(json_t *v)
{
	return json_is_array(v) ? json_array_size(v)
	     : json_is_object(v) ? json_object_size(v) : 0;
}

/* ---- scalars ------------------------------------------------------------ */

/* The number v (present) is, read at key (NULL: here). */
static bb_status number_of(bb__jctx *c, json_t *v, const char *key, double def,
                           double *out)
{
	if (json_is_string(v) && (c->flags & BB_J_LENIENT_NUMBERS)) {
		const char *s = json_string_value(v);

		if (!bb__text_number(s, def, out))
			return bb__jfail(c, key, "expected a number, found \"%.40s\"", s);
		return BB_OK;
	}
	if (!json_is_number(v))
		return bb__jfail(c, key, "expected a number, found %s",
		                 bb__json_type_name(v));
	*out = json_number_value(v);
	if (!isfinite(*out))
		return bb__jfail(c, key, "number is not finite");
	return BB_OK;
}

bb_status bb__jnum(bb__jctx *c, json_t *obj, const char *key, double def,
                   double *out)
{
	json_t *v;
	bb_status s;

	*out = def;
	if ((s = member(c, obj, key, &v)) != BB_OK || !v)
		return s;
	return number_of(c, v, key, def, out);
}

bb_status bb__jnum_req(bb__jctx *c, json_t *obj, const char *key, double *out)
{
	json_t *v;
	bb_status s;

	*out = 0;
	if ((s = member(c, obj, key, &v)) != BB_OK)
		return s;
	if (!v)
		return bb__jfail(c, key, "missing");
	return number_of(c, v, key, 0, out);
}

bb_status bb__jnum_range(bb__jctx *c, json_t *obj, const char *key, double def,
                         double lo, double hi, double *out)
{
	bb_status s = bb__jnum(c, obj, key, def, out);

	if (s != BB_OK)
		return s;
	if (*out < lo || *out > hi)
		return bb__jfail(c, key, "%g is outside %g..%g", *out, lo, hi);
	return BB_OK;
}

bb_status bb__jbool(bb__jctx *c, json_t *obj, const char *key, int def, int *out)
{
	json_t *v;
	bb_status s;

	*out = def;
	if ((s = member(c, obj, key, &v)) != BB_OK || !v)
		return s;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return BB_OK;
	}
	if (!(c->flags & BB_J_LENIENT_BOOLS))
		return bb__jfail(c, key, "expected true or false, found %s",
		                 bb__json_type_name(v));
	if (json_is_number(v))
		*out = json_number_value(v) != 0;
	else if (json_is_string(v))
		*out = bb__text_bool(json_string_value(v));
	else
		return bb__jfail(c, key, "expected a boolean, found %s",
		                 bb__json_type_name(v));
	return BB_OK;
}

bb_status bb__jstr(bb__jctx *c, json_t *obj, const char *key, int required,
                   const char **out)
{
	json_t *v;
	bb_status s;

	*out = NULL;
	if ((s = member(c, obj, key, &v)) != BB_OK)
		return s;
	if (!v)
		return required ? bb__jfail(c, key, "missing") : BB_OK;
	if (!json_is_string(v))
		return bb__jfail(c, key, "expected a string, found %s",
		                 bb__json_type_name(v));
	*out = json_string_value(v);
	return BB_OK;
}

static bb_status get_typed(bb__jctx *c, json_t *obj, const char *key,
                           int required, json_t **out, json_type want,
                           const char *what)
{
	json_t *v;
	bb_status s;

	*out = NULL;
	if ((s = member(c, obj, key, &v)) != BB_OK)
		return s;
	if (!v)
		return required ? bb__jfail(c, key, "missing") : BB_OK;
	if (json_typeof(v) != want)
		return bb__jfail(c, key, "expected %s, found %s", what,
		                 bb__json_type_name(v));
	*out = v;
	return BB_OK;
}

bb_status bb__jarray(bb__jctx *c, json_t *obj, const char *key, int required,
                     json_t **out)
{
	return get_typed(c, obj, key, required, out, JSON_ARRAY, "an array");
}

bb_status bb__jobject(bb__jctx *c, json_t *obj, const char *key, int required,
                      json_t **out)
{
	return get_typed(c, obj, key, required, out, JSON_OBJECT, "an object");
}

bb_status bb__jexpect_object(bb__jctx *c, json_t *v)
{
	if (!json_is_object(v))
		return bb__jfail(c, NULL, "expected an object, found %s",
		                 bb__json_type_name(v));
	return BB_OK;
}

/* Element i of arr (at key) as a number, the path at key[i] on error. */
static bb_status element(bb__jctx *c, json_t *arr, const char *key, size_t i,
                         double *out)
{
	size_t mark = key ? bb__jpath_key(&c->path, key) : c->path.len;
	bb_status s;

	bb__jpath_index(&c->path, i);
	s = number_of(c, json_array_get(arr, i), NULL, 0, out);
	bb__jpath_pop(&c->path, mark);    /* the error, if any, is made */
	return s;
}

bb_status bb__jnum_at(bb__jctx *c, json_t *obj, const char *key, size_t i,
                      double *out)
{
	json_t *arr;
	bb_status s;

	*out = 0;
	if ((s = member(c, obj, key, &arr)) != BB_OK)
		return s;
	if (!json_is_array(arr))
		return bb__jfail(c, key, "expected an array, found %s",
		                 bb__json_type_name(arr));
	return element(c, arr, key, i, out);
}

bb_status bb__jnums(bb__jctx *c, json_t *obj, const char *key, int required,
                    size_t max, double **out, size_t *n)
{
	json_t *arr;
	size_t i;
	bb_status s;

	*out = NULL;
	*n = 0;
	if ((s = bb__jarray(c, obj, key, required, &arr)) != BB_OK || !arr)
		return s;
	if (json_array_size(arr) > max)
		return bb__jlimit(c, key, "%zu numbers exceed the limit of %zu",
		                  json_array_size(arr), max);
	if (!(*out = bb__calloc(json_array_size(arr), sizeof **out)))
		return bb__jnomem(c);
	for (i = 0; i < json_array_size(arr); i++)
		if ((s = element(c, arr, key, i, &(*out)[i])) != BB_OK) {
			free(*out);
			*out = NULL;
			return s;
		}
	*n = json_array_size(arr);
	return BB_OK;
}

bb_status bb__jnumn(bb__jctx *c, json_t *obj, const char *key, int required,
                    size_t n, double *out)
{
	json_t *arr;
	size_t i;
	bb_status s;

	if ((s = member(c, obj, key, &arr)) != BB_OK)
		return s;
	if (!arr)
		return required ? bb__jfail(c, key, "missing") : BB_OK;
	if (!json_is_array(arr) || json_array_size(arr) != n)
		return bb__jfail(c, key, "expected an array of %zu numbers", n);
	for (i = 0; i < n; i++)
		if ((s = element(c, arr, key, i, &out[i])) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- walking ------------------------------------------------------------ */

static bb_status start(bb__jctx *c, json_t *obj, const char *key, unsigned flags,
                       bb__jiter *it, json_type want, const char *what)
{
	json_t *v;
	bb_status s;

	memset(it, 0, sizeof *it);
	it->c = c;
	it->flags = flags;
	it->mark = c->path.len;
	if ((s = member(c, obj, key, &v)) != BB_OK)
		return s;
	if (!v)
		return (flags & BB_J_REQUIRED) ? bb__jfail(c, key, "missing") : BB_OK;
	if (json_typeof(v) != want)
		return bb__jfail(c, key, "expected %s, found %s", what,
		                 bb__json_type_name(v));
	if (key)
		bb__jpath_key(&c->path, key);
	it->base = c->path.len;
	it->v = v;
	it->n = bb__jsize(v);
	it->it = want == JSON_OBJECT ? json_object_iter(v) : NULL;
	return BB_OK;
}

bb_status bb__jeach(bb__jctx *c, json_t *obj, const char *key, unsigned flags,
                    bb__jiter *it)
{
	return start(c, obj, key, flags, it, JSON_ARRAY, "an array");
}

bb_status bb__jeach_member(bb__jctx *c, json_t *obj, const char *key,
                           unsigned flags, bb__jiter *it)
{
	return start(c, obj, key, flags, it, JSON_OBJECT, "an object");
}

int bb__jnext(bb__jiter *it, json_t **item)
{
	bb__jpath *p = &it->c->path;

	*item = NULL;
	if (!it->v || it->i >= it->n) {
		bb__jdone(it);
		return 0;
	}
	bb__jpath_pop(p, it->base);
	it->index = it->i++;
	if (json_is_array(it->v)) {
		*item = json_array_get(it->v, it->index);
		bb__jpath_index(p, it->index);
		return 1;
	}
	if (!it->it) {
		bb__jdone(it);
		return 0;
	}
	it->key = json_object_iter_key(it->it);
	*item = json_object_iter_value(it->it);
	it->it = json_object_iter_next(it->v, it->it);
	if (it->flags & BB_J_QUOTED)
		bb__jpath_quoted(p, it->key);
	else
		bb__jpath_key(p, it->key);
	return 1;
}

void bb__jdone(bb__jiter *it)
{
	bb__jpath_pop(&it->c->path, it->mark);
	it->v = NULL;
}

/* ---- writing ------------------------------------------------------------ */

static json_t *made(bb__jw *w, json_t *v)
{
	if (!v)
		w->oom = 1;
	return v;
}

json_t *bb__jw_object(bb__jw *w)
{
	return made(w, json_object());
}

json_t *bb__jw_array(bb__jw *w)
{
	return made(w, json_array());
}

json_t *bb__jw_set(bb__jw *w, json_t *obj, const char *key, json_t *v)
{
	/* json_object_set_new releases v when it fails */
	if (!obj)
		json_decref(v);
	if (!v || !obj || json_object_set_new(obj, key, v) != 0) {
		w->oom = 1;
		return NULL;
	}
	return v;
}

void bb__jw_num(bb__jw *w, json_t *obj, const char *key, double v)
{
	if (!isfinite(v)) {
		w->inf = 1;
		return;
	}
	bb__jw_set(w, obj, key, json_real(v));
}

void bb__jw_str(bb__jw *w, json_t *obj, const char *key, const char *s)
{
	bb__jw_set(w, obj, key, json_string(s));
}

void bb__jw_int(bb__jw *w, json_t *obj, const char *key, long long v)
{
	bb__jw_set(w, obj, key, json_integer((json_int_t)v));
}

json_t *bb__jw_bool(bb__jw *w, int v)
{
	return made(w, v ? json_true() : json_false());
}

json_t *bb__jw_string(bb__jw *w, const char *s)
{
	return made(w, json_string(s));
}

void bb__jw_copy(bb__jw *w, json_t *dst, json_t *src, const char *key)
{
	json_t *v = json_is_object(src) ? json_object_get(src, key) : NULL;

	if (v)
		bb__jw_set(w, dst, key, json_incref(v));
}

void bb__jw_append(bb__jw *w, json_t *arr, json_t *v)
{
	if (!arr)
		json_decref(v);
	if (!v || !arr || json_array_append_new(arr, v) != 0)
		w->oom = 1;
}

void bb__jw_append_num(bb__jw *w, json_t *arr, double v)
{
	if (!isfinite(v)) {
		w->inf = 1;
		return;
	}
	bb__jw_append(w, arr, v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v)
	                                                      : json_real(v));
}

json_t *bb__jw_deep_copy(bb__jw *w, json_t *v)
{
	return made(w, json_deep_copy(v));
}

char *bb__jw_dump(bb__jw *w, json_t *v, int indent)
{
	char *text = v ? json_dumps(v, JSON_INDENT(indent) | JSON_PRESERVE_ORDER) : NULL;

	if (!text)
		w->oom = 1;
	return text;
}
