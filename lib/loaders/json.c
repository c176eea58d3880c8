/* jansson helpers with field-path errors. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "loaders/json.h"

bb_status bb__json_parse(const char *data, size_t size, const char *file,
                         json_t **out, bb_error *err)
{
	json_error_t je;
	json_t *root = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);

	*out = NULL;
	if (!root) {
		bb_status s = bb_error_set(err, BB_ERR_INPUT, file, NULL,
		                           "invalid JSON: %s", je.text);
		if (err) {
			err->line = je.line > 0 ? je.line : 0;
			err->column = je.column > 0 ? je.column : 0;
		}
		return s;
	}
	*out = root;
	return BB_OK;
}

bb_status bb__jfail(bb__jctx *c, const char *key, const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX];
	size_t mark = c->path.len;
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (key)
		bb__jpath_key(&c->path, key);
	s = bb_error_set(c->err, BB_ERR_INPUT, c->file,
	                 c->path.len ? c->path.buf : NULL, "%s", msg);
	bb__jpath_pop(&c->path, mark);
	return s;
}

const char *bb__json_type_name(json_t *v)
{
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

bb_status bb__jnum(bb__jctx *c, json_t *obj, const char *key, double def,
                   double *out)
{
	json_t *v = json_object_get(obj, key);
	double d;

	if (!v || json_is_null(v)) {
		*out = def;
		return BB_OK;
	}
	if (!json_is_number(v))
		return bb__jfail(c, key, "expected a number, found %s", bb__json_type_name(v));
	d = json_number_value(v);
	if (!isfinite(d))
		return bb__jfail(c, key, "number is not finite");
	*out = d;
	return BB_OK;
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
	json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v)) {
		*out = def;
		return BB_OK;
	}
	if (!json_is_boolean(v))
		return bb__jfail(c, key, "expected true or false, found %s",
		                 bb__json_type_name(v));
	*out = json_is_true(v);
	return BB_OK;
}

bb_status bb__jstr(bb__jctx *c, json_t *obj, const char *key, int required,
                   const char **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return required ? bb__jfail(c, key, "missing") : BB_OK;
	if (!json_is_string(v))
		return bb__jfail(c, key, "expected a string, found %s", bb__json_type_name(v));
	*out = json_string_value(v);
	return BB_OK;
}

static bb_status get_typed(bb__jctx *c, json_t *obj, const char *key,
                           int required, json_t **out, json_type want,
                           const char *what)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return required ? bb__jfail(c, key, "missing") : BB_OK;
	if (json_typeof(v) != want)
		return bb__jfail(c, key, "expected %s, found %s", what, bb__json_type_name(v));
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
		return bb__jfail(c, NULL, "expected an object, found %s", bb__json_type_name(v));
	return BB_OK;
}
