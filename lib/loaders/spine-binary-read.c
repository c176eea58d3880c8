/* The Spine binary reader's primitives (spine-binary.h): bounded reads
 * of bytes, big-endian integers and floats, Kryo varints, strings and
 * string references, each failing with the section, what was being read
 * and the byte offset; and the helpers that write the JSON document. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/spine-binary.h"

/* ---- the reader ----------------------------------------------------------- */

static bb_status vfail(bb__sb *r, size_t at, const char *fmt, va_list ap)
{
	char msg[BB_ERROR_MSG_MAX];

	vsnprintf(msg, sizeof msg, fmt, ap);
	return bb__error_at(r->err, BB_ERR_INPUT, r->file, 0, 0,
	                    r->path.len ? r->path.buf : NULL, "%s%s%s at byte %zu",
	                    r->what, r->what[0] ? ": " : "", msg, at);
}

bb_status bb__sb_fail(bb__sb *r, const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = vfail(r, r->pos, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__sb_fail_at(bb__sb *r, size_t at, const char *fmt, ...)
{
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	s = vfail(r, at, fmt, ap);
	va_end(ap);
	return s;
}

void bb__sb_what(bb__sb *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->what, sizeof r->what, fmt, ap);
	va_end(ap);
}

static bb_status need(bb__sb *r, const char *field, size_t n)
{
	if (r->size - r->pos < n)
		return bb__sb_fail(r, "%s: the file ends (%zu of %zu bytes left)",
		                   field, r->size - r->pos, n);
	return BB_OK;
}

bb_status bb__sb_u8(bb__sb *r, const char *field, unsigned *out)
{
	bb_status s = need(r, field, 1);

	if (s == BB_OK)
		*out = r->p[r->pos++];
	return s;
}

bb_status bb__sb_bool(bb__sb *r, const char *field, int *out)
{
	unsigned v = 0;
	bb_status s = bb__sb_u8(r, field, &v);

	*out = v != 0;
	return s;
}

bb_status bb__sb_i16(bb__sb *r, const char *field, int32_t *out)
{
	bb_status s = need(r, field, 2);

	if (s != BB_OK)
		return s;
	*out = (int16_t)(r->p[r->pos] << 8 | r->p[r->pos + 1]);
	r->pos += 2;
	return BB_OK;
}

bb_status bb__sb_i32(bb__sb *r, const char *field, int32_t *out)
{
	const unsigned char *p = r->p + r->pos;
	bb_status s = need(r, field, 4);

	if (s != BB_OK)
		return s;
	*out = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	                 (uint32_t)p[2] << 8 | p[3]);
	r->pos += 4;
	return BB_OK;
}

bb_status bb__sb_f32(bb__sb *r, const char *field, double *out)
{
	int32_t bits;
	uint32_t u;
	float f;
	bb_status s = bb__sb_i32(r, field, &bits);

	if (s != BB_OK)
		return s;
	u = (uint32_t)bits;
	memcpy(&f, &u, sizeof f);
	if (!isfinite(f))
		return bb__sb_fail_at(r, r->pos - 4, "%s: not a finite number", field);
	*out = f;
	return BB_OK;
}

bb_status bb__sb_varint(bb__sb *r, const char *field, uint32_t *out)
{
	size_t at = r->pos;
	uint32_t v = 0;
	int i;

	for (i = 0; i < 5; i++) {
		unsigned b;

		if (r->pos >= r->size)
			return bb__sb_fail(r, "%s: the file ends inside a varint", field);
		b = r->p[r->pos++];
		if (i == 4) {
			if (b > 0x0f)
				return bb__sb_fail_at(r, at, "%s: varint larger than 32 bits", field);
			v |= (uint32_t)b << 28;
			break;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	*out = v;
	return BB_OK;
}

bb_status bb__sb_svarint(bb__sb *r, const char *field, int32_t *out)
{
	uint32_t v;
	bb_status s = bb__sb_varint(r, field, &v);

	if (s == BB_OK)
		*out = (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
	return s;
}

bb_status bb__sb_count(bb__sb *r, const char *field, size_t each, uint32_t *out)
{
	size_t at = r->pos;
	bb_status s = bb__sb_varint(r, field, out);

	if (s != BB_OK)
		return s;
	if (*out > INT32_MAX || (size_t)*out > (r->size - r->pos) / (each ? each : 1))
		return bb__sb_fail_at(r, at, "%s %u: more than the %zu bytes left can hold",
		                      field, (unsigned)*out, r->size - r->pos);
	return BB_OK;
}

bb_status bb__sb_index(bb__sb *r, const char *field, const bb__sb_names *t,
                       uint32_t *out)
{
	size_t at = r->pos;
	bb_status s = bb__sb_varint(r, field, out);

	if (s == BB_OK && *out >= t->n)
		return bb__sb_fail_at(r, at, "unknown %s index %u (%u known)", field,
		                      (unsigned)*out, (unsigned)t->n);
	return s;
}

/* Whether p[0..n) is UTF-8 without NULs, overlongs or surrogates. */
static int valid_utf8(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = p[i];
		size_t k, len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
		                (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		uint32_t cp;

		if (!c || !len || n - i < len)
			return 0;
		cp = len == 1 ? c : c & (0x7f >> len);
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

static int keep(bb__sb *r, char *s)
{
	if (r->nowned == r->capowned) {
		size_t cap = r->capowned ? 2 * r->capowned : 64;
		char **v = realloc(r->owned, cap * sizeof *v);

		if (!v)
			return 0;
		r->owned = v;
		r->capowned = cap;
	}
	r->owned[r->nowned++] = s;
	return 1;
}

bb_status bb__sb_string(bb__sb *r, const char *field, const char **out)
{
	size_t at = r->pos;
	uint32_t n;
	char *s;
	bb_status st = bb__sb_varint(r, field, &n);

	*out = NULL;
	if (st != BB_OK || n == 0)
		return st;
	n--;
	if (n > r->size - r->pos)
		return bb__sb_fail_at(r, at, "%s: a string of %u bytes, %zu left", field,
		                      (unsigned)n, r->size - r->pos);
	if (!valid_utf8(r->p + r->pos, n))
		return bb__sb_fail(r, "%s: not a valid UTF-8 string", field);
	if (!(s = malloc((size_t)n + 1)) || !keep(r, s)) {
		free(s);
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	}
	memcpy(s, r->p + r->pos, n);
	s[n] = '\0';
	r->pos += n;
	*out = s;
	return BB_OK;
}

bb_status bb__sb_string_ref(bb__sb *r, const char *field, const char **out)
{
	size_t at = r->pos;
	uint32_t i;
	bb_status s = bb__sb_varint(r, field, &i);

	*out = NULL;
	if (s != BB_OK || i == 0)
		return s;
	if (i - 1 >= r->strings.n)
		return bb__sb_fail_at(r, at, "%s: unknown string reference %u (%u strings)",
		                      field, (unsigned)i, (unsigned)r->strings.n);
	*out = r->strings.v[i - 1];
	return BB_OK;
}

bb_status bb__sb_name(bb__sb *r, const char *field, int ref, const char **out)
{
	size_t at = r->pos;
	bb_status s = ref ? bb__sb_string_ref(r, field, out) : bb__sb_string(r, field, out);

	if (s == BB_OK && !*out)
		return bb__sb_fail_at(r, at, "%s: missing", field);
	return s;
}

/* ---- writing ------------------------------------------------------------- */

json_t *bb__sb_obj(bb__sb *r, json_t *parent, const char *key)
{
	json_t *v = bb__jget(parent, key);

	return v ? v : bb__jw_set(&r->w, parent, key, bb__jw_object(&r->w));
}

json_t *bb__sb_arr(bb__sb *r, json_t *parent, const char *key)
{
	json_t *v = bb__jget(parent, key);

	return v ? v : bb__jw_set(&r->w, parent, key, bb__jw_array(&r->w));
}

void bb__sb_num(bb__sb *r, json_t *obj, const char *key, double v)
{
	bb__jw_num(&r->w, obj, key, v);
}

void bb__sb_str(bb__sb *r, json_t *obj, const char *key, const char *s)
{
	if (s)
		bb__jw_str(&r->w, obj, key, s);
}

void bb__sb_bool_member(bb__sb *r, json_t *obj, const char *key, int v)
{
	bb__jw_set(&r->w, obj, key, bb__jw_bool(&r->w, v));
}

void bb__sb_color_bytes(bb__sb *r, json_t *obj, const char *key,
                        const unsigned *c, int n)
{
	char hex[9];
	int i;

	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", c[i] & 0xff);
	hex[2 * n] = '\0';
	bb__jw_str(&r->w, obj, key, hex);
}

void bb__sb_color(bb__sb *r, json_t *obj, const char *key, uint32_t c, int rgb)
{
	unsigned b[4];

	if (rgb) {
		b[0] = c >> 16 & 0xff;
		b[1] = c >> 8 & 0xff;
		b[2] = c & 0xff;
	} else {
		b[0] = c >> 24;
		b[1] = c >> 16 & 0xff;
		b[2] = c >> 8 & 0xff;
		b[3] = c & 0xff;
	}
	bb__sb_color_bytes(r, obj, key, b, rgb ? 3 : 4);
}

bb_status bb__sb_written(bb__sb *r)
{
	if (r->w.oom)
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	return BB_OK;
}

bb_status bb__sb_floats(bb__sb *r, json_t *obj, const char *const *keys, int n)
{
	double v;
	int i;
	bb_status s;

	for (i = 0; i < n; i++) {
		if ((s = bb__sb_f32(r, keys[i], &v)) != BB_OK)
			return s;
		bb__sb_num(r, obj, keys[i], v);
	}
	return BB_OK;
}

/* A table of n names (n already checked against the bytes left). */
bb_status bb__sb_names_alloc(bb__sb *r, bb__sb_names *t, uint32_t n)
{
	t->n = 0;
	if (!(t->v = calloc(n ? n : 1, sizeof *t->v)))
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	return BB_OK;
}
