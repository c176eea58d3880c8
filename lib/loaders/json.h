/* Typed access to jansson documents that reports the field path on error:
 * every getter either succeeds or fills the error with
 * "file: path.to.field: message" and returns non-OK. */
#ifndef BB_LOADERS_JSON_H
#define BB_LOADERS_JSON_H

#include <jansson.h>

#include "core/util.h"

typedef struct bb__jctx {
	const char *file;      /* name shown in errors (basename of the input) */
	bb__jpath path;
	bb_error *err;
} bb__jctx;

/* Parses a document; syntax errors carry line and column. */
bb_status bb__json_parse(const char *data, size_t size, const char *file,
                         json_t **out, bb_error *err);

/* Error at the current path, or at path + "." + key when key != NULL. */
bb_status bb__jfail(bb__jctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Optional number: absent or null -> def.  Not a number -> error. */
bb_status bb__jnum(bb__jctx *c, json_t *obj, const char *key, double def,
                   double *out);
/* Same with a range check [lo, hi]. */
bb_status bb__jnum_range(bb__jctx *c, json_t *obj, const char *key, double def,
                         double lo, double hi, double *out);
/* Optional boolean (true/false only). */
bb_status bb__jbool(bb__jctx *c, json_t *obj, const char *key, int def, int *out);
/* String: required (error when absent) or optional (*out = NULL). */
bb_status bb__jstr(bb__jctx *c, json_t *obj, const char *key, int required,
                   const char **out);
/* Array / object member: required or optional (*out = NULL). */
bb_status bb__jarray(bb__jctx *c, json_t *obj, const char *key, int required,
                     json_t **out);
bb_status bb__jobject(bb__jctx *c, json_t *obj, const char *key, int required,
                      json_t **out);
/* "an object", "a number", ... for messages. */
const char *bb__json_type_name(json_t *v);
/* Checks that v (at the current path) is an object. */
bb_status bb__jexpect_object(bb__jctx *c, json_t *v);

#endif
