/* Spine binary (.skel) 3.8 and 4.0-4.2, recognised by its header (a hash,
 * then the version string), decoded into the JSON document of the same
 * version (spine-binary.h says why and how); this file: the checked
 * reader, the header, bones, slots, constraints, skins, attachments and
 * events.  The layout per version, as the runtimes' SkeletonBinary reads
 * it:
 *
 *   header    3.8: hash and version as strings; 4.x: an 8-byte hash, the
 *             version string; x, y, width, height (4.2: referenceScale);
 *             nonessential flag (fps, images and audio paths)
 *   strings   4.x and 3.8: a table attachment and skin names refer to
 *   bones     3.8-4.1: transform mode as a varint; 4.2: inherit byte,
 *             nonessential icon and visibility
 *   ik, transform, path constraints: 3.8-4.1 one field each;
 *             4.2 flag bytes saying which fields follow (others 0)
 *   physics   4.2 only
 *   skins     the default skin (slot count first, none when 0), then
 *             named skins (3.8-4.1 name by reference, 4.2 a string)
 *   attachments 3.8-4.1: name reference then a type byte; 4.2: one flag
 *             byte with the type in its low 3 bits; 4.1+ sequences;
 *             triangles and edges 16-bit (3.8-4.1) or varints (4.2)
 *   events, animations (spine-binary-anim.c) */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/spine-binary.h"
#include "loaders/spine.h"

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

/* ---- the header ------------------------------------------------------------ */

/* The version string at data[at..]: its length prefix, then "d.d"; the
 * string's end into *end; 0 when it is not one. */
static int version_at(const unsigned char *p, size_t size, size_t at, size_t *end)
{
	size_t n, i;

	if (at >= size || p[at] < 4 || p[at] > 33)
		return 0;
	n = p[at] - 1u;
	if (size - at - 1 < n || p[at + 1] < '3' || p[at + 1] > '9' || p[at + 2] != '.' ||
	    p[at + 3] < '0' || p[at + 3] > '9')
		return 0;
	for (i = 0; i < n; i++)
		if (p[at + 1 + i] < 0x21 || p[at + 1 + i] > 0x7e)
			return 0;
	*end = at + 1 + n;
	return 1;
}

/* Where the version string starts: 8 (4.x), after the hash string (3.x),
 * or 0 when neither layout fits. */
static size_t version_offset(const unsigned char *p, size_t size)
{
	size_t end;

	if (version_at(p, size, 8, &end) && p[9] == '4')
		return 8;
	if (size > 1 && p[0] <= 64 && version_at(p, size, p[0] ? p[0] : 1, &end) &&
	    p[(p[0] ? p[0] : 1) + 1] == '3')
		return p[0] ? p[0] : 1;
	return 0;
}

int bb__sniff_spine_binary(const char *data, size_t size, const char *path)
{
	(void)path;
	return version_offset((const unsigned char *)data, size) != 0;
}

static bb_status read_header(bb__sb *r, json_t *root)
{
	const char *version, *s;
	json_t *sk = bb__sb_obj(r, root, "skeleton");
	double v;
	int i;
	static const char *const box[] = { "x", "y", "width", "height" };
	bb_status st;

	bb__jpath_set(&r->path, "skeleton");
	r->pos = version_offset(r->p, r->size);
	if ((st = bb__sb_name(r, "version", 0, &version)) != BB_OK)
		return st;
	r->major = atoi(version);
	r->minor = atoi(strchr(version, '.') + 1);
	if (!(r->major == 3 && r->minor == 8) && !(r->major == 4 && r->minor <= 2))
		return bb__sb_fail_at(r, r->pos - strlen(version), "version \"%s\" is not "
		                      "supported (3.8 and 4.0-4.2 are)", version);
	bb__sb_str(r, sk, "spine", version);
	for (i = 0; i < 4; i++) {
		if ((st = bb__sb_f32(r, box[i], &v)) != BB_OK)
			return st;
		bb__sb_num(r, sk, box[i], v);
	}
	if (r->major == 4 && r->minor >= 2) {
		if ((st = bb__sb_f32(r, "referenceScale", &v)) != BB_OK)
			return st;
		bb__sb_num(r, sk, "referenceScale", v);
	}
	if ((st = bb__sb_bool(r, "nonessential", &r->nonessential)) != BB_OK)
		return st;
	if (r->nonessential) {
		if ((st = bb__sb_f32(r, "fps", &v)) != BB_OK)
			return st;
		bb__sb_num(r, sk, "fps", v);
		if ((st = bb__sb_string(r, "images", &s)) != BB_OK)
			return st;
		bb__sb_str(r, sk, "images", s);
		if ((st = bb__sb_string(r, "audio", &s)) != BB_OK)
			return st;
		bb__sb_str(r, sk, "audio", s);
	}
	return BB_OK;
}

/* A table of n names (n already checked against the bytes left). */
static bb_status names_alloc(bb__sb *r, bb__sb_names *t, uint32_t n)
{
	t->n = 0;
	if (!(t->v = calloc(n ? n : 1, sizeof *t->v)))
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	return BB_OK;
}

static bb_status read_strings(bb__sb *r)
{
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, "strings");
	if ((s = bb__sb_count(r, "string count", 1, &n)) != BB_OK ||
	    (s = names_alloc(r, &r->strings, n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		bb__sb_what(r, "string %u", (unsigned)i);
		/* 4.2 refuses a missing one; earlier runtimes keep it (a
		 * reference to it is a missing name) */
		if ((s = bb__sb_string(r, "string", &r->strings.v[i])) != BB_OK)
			return s;
		if (!r->strings.v[i] && r->major == 4 && r->minor >= 2)
			return bb__sb_fail(r, "missing");
		r->strings.n++;
	}
	bb__sb_what(r, "%s", "");
	return BB_OK;
}

/* ---- bones, slots, constraints ----------------------------------------------- */

static const char *const inherit_names[] = {
	"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
	"noScaleOrReflection"
};

static bb_status read_floats(bb__sb *r, json_t *obj, const char *const *keys, int n)
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

static bb_status read_bones(bb__sb *r, json_t *root)
{
	static const char *const keys[] = { "rotation", "x", "y", "scaleX", "scaleY",
		"shearX", "shearY", "length" };
	json_t *arr = bb__sb_arr(r, root, "bones");
	uint32_t n, i, k;
	int32_t c;
	int skin, vis;
	const char *icon;
	bb_status s;

	bb__jpath_set(&r->path, "bones");
	if ((s = bb__sb_count(r, "bone count", 34, &n)) != BB_OK ||
	    (s = names_alloc(r, &r->bones, n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *b = bb__jw_object(&r->w);

		bb__jw_append(&r->w, arr, b);
		bb__sb_what(r, "bone %u", (unsigned)i);
		if ((s = bb__sb_name(r, "name", 0, &r->bones.v[i])) != BB_OK)
			return s;
		bb__sb_str(r, b, "name", r->bones.v[i]);
		if (i > 0) {
			if ((s = bb__sb_index(r, "parent bone", &r->bones, &k)) != BB_OK)
				return s;
			bb__sb_str(r, b, "parent", r->bones.v[k]);
		}
		if ((s = read_floats(r, b, keys, 8)) != BB_OK)
			return s;
		if (r->major == 4 && r->minor >= 2) {
			unsigned u;

			if ((s = bb__sb_u8(r, "inherit", &u)) != BB_OK)
				return s;
			k = u;
		} else if ((s = bb__sb_varint(r, "transform mode", &k)) != BB_OK) {
			return s;
		}
		if (k >= 5)
			return bb__sb_fail_at(r, r->pos - 1, "unknown inherit mode %u", (unsigned)k);
		bb__sb_str(r, b, r->major == 4 && r->minor >= 2 ? "inherit" : "transform",
		           inherit_names[k]);
		if ((s = bb__sb_bool(r, "skin required", &skin)) != BB_OK)
			return s;
		bb__sb_bool_member(r, b, "skin", skin);
		if (r->nonessential && (s = bb__sb_i32(r, "color", &c)) != BB_OK)
			return s;
		if (r->nonessential && r->major == 4 && r->minor >= 2 &&
		    ((s = bb__sb_string(r, "icon", &icon)) != BB_OK ||
		     (s = bb__sb_bool(r, "visible", &vis)) != BB_OK))
			return s;
		r->bones.n++;
	}
	bb__sb_what(r, "%s", "");
	return bb__sb_written(r);
}

static const char *const blend_names[] = { "normal", "additive", "multiply", "screen" };

static bb_status read_slots(bb__sb *r, json_t *root)
{
	json_t *arr = bb__sb_arr(r, root, "slots");
	uint32_t n, i, k;
	int32_t c;
	const char *att;
	int vis;
	bb_status s;

	bb__jpath_set(&r->path, "slots");
	if ((s = bb__sb_count(r, "slot count", 12, &n)) != BB_OK ||
	    (s = names_alloc(r, &r->slots, n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *o = bb__jw_object(&r->w);

		bb__jw_append(&r->w, arr, o);
		bb__sb_what(r, "slot %u", (unsigned)i);
		if ((s = bb__sb_name(r, "name", 0, &r->slots.v[i])) != BB_OK ||
		    (s = bb__sb_index(r, "bone", &r->bones, &k)) != BB_OK)
			return s;
		bb__sb_str(r, o, "name", r->slots.v[i]);
		bb__sb_str(r, o, "bone", r->bones.v[k]);
		if ((s = bb__sb_i32(r, "color", &c)) != BB_OK)
			return s;
		bb__sb_color(r, o, "color", (uint32_t)c, 0);
		if ((s = bb__sb_i32(r, "dark color", &c)) != BB_OK)
			return s;
		if (c != -1)
			bb__sb_color(r, o, "dark", (uint32_t)c, 1);
		if ((s = bb__sb_string_ref(r, "attachment", &att)) != BB_OK)
			return s;
		bb__sb_str(r, o, "attachment", att);
		if ((s = bb__sb_varint(r, "blend mode", &k)) != BB_OK)
			return s;
		if (k >= 4)
			return bb__sb_fail_at(r, r->pos - 1, "unknown blend mode %u", (unsigned)k);
		bb__sb_str(r, o, "blend", blend_names[k]);
		if (r->nonessential && r->major == 4 && r->minor >= 2 &&
		    (s = bb__sb_bool(r, "visible", &vis)) != BB_OK)
			return s;
		r->slots.n++;
	}
	bb__sb_what(r, "%s", "");
	return bb__sb_written(r);
}

/* name, order (and before 4.2 the skin flag: skin >= 0 receives it),
 * bones, target: what every constraint starts with. */
static bb_status constraint_head(bb__sb *r, json_t *o, const char **name,
                                 const bb__sb_names *targets, int *skin)
{
	uint32_t order, n, i, k;
	json_t *bones;
	bb_status s;

	if ((s = bb__sb_name(r, "name", 0, name)) != BB_OK ||
	    (s = bb__sb_varint(r, "order", &order)) != BB_OK)
		return s;
	bb__sb_str(r, o, "name", *name);
	bb__sb_num(r, o, "order", order);
	if (skin) {
		if ((s = bb__sb_bool(r, "skin required", skin)) != BB_OK)
			return s;
		bb__sb_bool_member(r, o, "skin", *skin);
	}
	if ((s = bb__sb_count(r, "bone count", 1, &n)) != BB_OK)
		return s;
	bones = bb__sb_arr(r, o, "bones");
	for (i = 0; i < n; i++) {
		if ((s = bb__sb_index(r, "bone", &r->bones, &k)) != BB_OK)
			return s;
		bb__jw_append(&r->w, bones, bb__jw_string(&r->w, r->bones.v[k]));
	}
	if ((s = bb__sb_index(r, targets == &r->slots ? "target slot" : "target bone",
	                      targets, &k)) != BB_OK)
		return s;
	bb__sb_str(r, o, "target", targets->v[k]);
	return BB_OK;
}

/* One float when flags has bit, else 0, into o[key] (4.2). */
static bb_status flagged(bb__sb *r, json_t *o, unsigned flags, unsigned bit,
                         const char *key, double def)
{
	double v = def;
	bb_status s = BB_OK;

	if (flags & bit)
		s = bb__sb_f32(r, key, &v);
	bb__sb_num(r, o, key, v);
	return s;
}

static bb_status read_ik(bb__sb *r, json_t *o, const char **name)
{
	static const char *const keys[] = { "mix", "softness" };
	int v42 = r->major == 4 && r->minor >= 2, skin = 0, b;
	unsigned f, u;
	bb_status s;

	if ((s = constraint_head(r, o, name, &r->bones, v42 ? NULL : &skin)) != BB_OK)
		return s;
	if (!v42) {
		if ((s = read_floats(r, o, keys, 2)) != BB_OK ||
		    (s = bb__sb_u8(r, "bend direction", &u)) != BB_OK)
			return s;
		bb__sb_bool_member(r, o, "bendPositive", (signed char)u >= 0);
		for (f = 0; f < 3; f++) {
			static const char *const bools[] = { "compress", "stretch", "uniform" };

			if ((s = bb__sb_bool(r, bools[f], &b)) != BB_OK)
				return s;
			bb__sb_bool_member(r, o, bools[f], b);
		}
		return BB_OK;
	}
	if ((s = bb__sb_u8(r, "flags", &f)) != BB_OK)
		return s;
	bb__sb_bool_member(r, o, "skin", f & 1);
	bb__sb_bool_member(r, o, "bendPositive", (f & 2) != 0);
	bb__sb_bool_member(r, o, "compress", (f & 4) != 0);
	bb__sb_bool_member(r, o, "stretch", (f & 8) != 0);
	bb__sb_bool_member(r, o, "uniform", (f & 16) != 0);
	if ((s = flagged(r, o, f & 32 ? f : 0, 64, "mix", f & 32 ? 1 : 0)) != BB_OK)
		return s;
	return flagged(r, o, f, 128, "softness", 0);
}

static bb_status read_transform(bb__sb *r, json_t *o, const char **name)
{
	static const char *const keys38[] = { "rotation", "x", "y", "scaleX", "scaleY",
		"shearY", "rotateMix", "translateMix", "scaleMix", "shearMix" };
	static const char *const keys4[] = { "rotation", "x", "y", "scaleX", "scaleY",
		"shearY", "mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY" };
	int v42 = r->major == 4 && r->minor >= 2, skin = 0, b, i;
	unsigned f[2];
	bb_status s;

	if ((s = constraint_head(r, o, name, &r->bones, v42 ? NULL : &skin)) != BB_OK)
		return s;
	if (!v42) {
		if ((s = bb__sb_bool(r, "local", &b)) != BB_OK)
			return s;
		bb__sb_bool_member(r, o, "local", b);
		if ((s = bb__sb_bool(r, "relative", &b)) != BB_OK)
			return s;
		bb__sb_bool_member(r, o, "relative", b);
		return r->major == 3 ? read_floats(r, o, keys38, 10) : read_floats(r, o, keys4, 12);
	}
	if ((s = bb__sb_u8(r, "flags", &f[0])) != BB_OK)
		return s;
	bb__sb_bool_member(r, o, "skin", f[0] & 1);
	bb__sb_bool_member(r, o, "local", (f[0] & 2) != 0);
	bb__sb_bool_member(r, o, "relative", (f[0] & 4) != 0);
	for (i = 0; i < 5; i++)
		if ((s = flagged(r, o, f[0], 8u << i, keys4[i], 0)) != BB_OK)
			return s;
	if ((s = bb__sb_u8(r, "flags", &f[1])) != BB_OK)
		return s;
	for (i = 5; i < 12; i++)
		if ((s = flagged(r, o, f[1], 1u << (i - 5), keys4[i], 0)) != BB_OK)
			return s;
	return BB_OK;
}

static bb_status read_path(bb__sb *r, json_t *o, const char **name)
{
	static const char *const pos[] = { "fixed", "percent" };
	static const char *const spacing[] = { "length", "fixed", "percent", "proportional" };
	static const char *const rot[] = { "tangent", "chain", "chainScale" };
	static const char *const keys38[] = { "position", "spacing", "rotateMix",
		"translateMix" };
	static const char *const keys4[] = { "position", "spacing", "mixRotate", "mixX",
		"mixY" };
	int v42 = r->major == 4 && r->minor >= 2, skin, i;
	uint32_t m[3];
	unsigned f = 0;
	double v = 0;
	bb_status s;

	if ((s = bb__sb_name(r, "name", 0, name)) != BB_OK)
		return s;
	/* the skin flag comes before the bones in every version */
	{
		uint32_t order;

		if ((s = bb__sb_varint(r, "order", &order)) != BB_OK ||
		    (s = bb__sb_bool(r, "skin required", &skin)) != BB_OK)
			return s;
		bb__sb_str(r, o, "name", *name);
		bb__sb_num(r, o, "order", order);
		bb__sb_bool_member(r, o, "skin", skin);
	}
	{
		uint32_t n, k;
		json_t *bones = bb__sb_arr(r, o, "bones");

		if ((s = bb__sb_count(r, "bone count", 1, &n)) != BB_OK)
			return s;
		for (k = 0; k < n; k++) {
			uint32_t b;

			if ((s = bb__sb_index(r, "bone", &r->bones, &b)) != BB_OK)
				return s;
			bb__jw_append(&r->w, bones, bb__jw_string(&r->w, r->bones.v[b]));
		}
		if ((s = bb__sb_index(r, "target slot", &r->slots, &k)) != BB_OK)
			return s;
		bb__sb_str(r, o, "target", r->slots.v[k]);
	}
	if (v42) {
		if ((s = bb__sb_u8(r, "flags", &f)) != BB_OK)
			return s;
		m[0] = f & 1;
		m[1] = f >> 1 & 3;
		m[2] = f >> 3 & 3;
	} else {
		for (i = 0; i < 3; i++)
			if ((s = bb__sb_varint(r, "mode", &m[i])) != BB_OK)
				return s;
	}
	if (m[0] > 1 || m[1] > 3 || m[2] > 2)
		return bb__sb_fail_at(r, r->pos - 1, "unknown position, spacing or rotate mode");
	bb__sb_str(r, o, "positionMode", pos[m[0]]);
	bb__sb_str(r, o, "spacingMode", spacing[m[1]]);
	bb__sb_str(r, o, "rotateMode", rot[m[2]]);
	if ((!v42 || (f & 128)) && (s = bb__sb_f32(r, "rotation", &v)) != BB_OK)
		return s;
	bb__sb_num(r, o, "rotation", v);
	return r->major == 3 ? read_floats(r, o, keys38, 4) : read_floats(r, o, keys4, 5);
}

static bb_status read_physics(bb__sb *r, json_t *o, const char **name)
{
	static const char *const opt[] = { "x", "y", "rotate", "scaleX", "shearX" };
	static const char *const mid[] = { "inertia", "strength", "damping" };
	static const char *const glob[] = { "inertiaGlobal", "strengthGlobal",
		"dampingGlobal", "massGlobal", "windGlobal", "gravityGlobal", "mixGlobal" };
	uint32_t order, bone;
	unsigned f, fps;
	double inv = 1;
	int i;
	bb_status s;

	if ((s = bb__sb_name(r, "name", 0, name)) != BB_OK ||
	    (s = bb__sb_varint(r, "order", &order)) != BB_OK ||
	    (s = bb__sb_index(r, "bone", &r->bones, &bone)) != BB_OK ||
	    (s = bb__sb_u8(r, "flags", &f)) != BB_OK)
		return s;
	bb__sb_str(r, o, "name", *name);
	bb__sb_num(r, o, "order", order);
	bb__sb_str(r, o, "bone", r->bones.v[bone]);
	bb__sb_bool_member(r, o, "skin", f & 1);
	for (i = 0; i < 5; i++)
		if ((s = flagged(r, o, f, 2u << i, opt[i], 0)) != BB_OK)
			return s;
	if ((s = flagged(r, o, f, 64, "limit", 5000)) != BB_OK ||
	    (s = bb__sb_u8(r, "fps", &fps)) != BB_OK)
		return s;
	if (!fps)
		return bb__sb_fail_at(r, r->pos - 1, "a physics rate of 0 steps a second");
	bb__sb_num(r, o, "fps", fps);
	if ((s = read_floats(r, o, mid, 3)) != BB_OK)
		return s;
	if ((f & 128) && (s = bb__sb_f32(r, "mass inverse", &inv)) != BB_OK)
		return s;
	if (inv == 0)
		return bb__sb_fail_at(r, r->pos - 4, "a physics mass inverse of 0");
	bb__sb_num(r, o, "mass", 1 / inv);
	{
		static const char *const tail[] = { "wind", "gravity" };

		if ((s = read_floats(r, o, tail, 2)) != BB_OK ||
		    (s = bb__sb_u8(r, "flags", &f)) != BB_OK)
			return s;
	}
	for (i = 0; i < 7; i++)
		if (f & (1u << i))
			bb__sb_bool_member(r, o, glob[i], 1);
	return flagged(r, o, f, 128, "mix", 1);
}

typedef bb_status (*read_con_fn)(bb__sb *r, json_t *o, const char **name);

static bb_status read_constraints(bb__sb *r, json_t *root, const char *key,
                                  const char *kind, bb__sb_names *t, read_con_fn fn)
{
	json_t *arr = bb__sb_arr(r, root, key);
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, key);
	if ((s = bb__sb_count(r, "constraint count", 4, &n)) != BB_OK ||
	    (s = names_alloc(r, t, n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *o = bb__jw_object(&r->w);

		bb__jw_append(&r->w, arr, o);
		bb__sb_what(r, "%s constraint %u", kind, (unsigned)i);
		if ((s = fn(r, o, &t->v[i])) != BB_OK)
			return s;
		t->n++;
	}
	bb__sb_what(r, "%s", "");
	return bb__sb_written(r);
}

/* ---- skins and attachments ---------------------------------------------- */

/* Vertices into o.vertices (weighted: per vertex a bone count and
 * (bone, x, y, weight) each).  4.2: the count is read here and weighted
 * comes from the flags; 3.8-4.1: the weighted flag is read here, after
 * the count, which is read here too unless *count was (counted). */
static bb_status read_vertices(bb__sb *r, json_t *o, int weighted, uint32_t *count,
                               int counted)
{
	json_t *arr = bb__sb_arr(r, o, "vertices");
	uint32_t n, i, k, nb, b;
	double v;
	bb_status s;

	if (!counted && (s = bb__sb_count(r, "vertex count",
	                                  weighted || !(r->major == 4 && r->minor >= 2)
	                                  ? 1 : 8, count)) != BB_OK)
		return s;
	n = *count;
	if ((r->major < 4 || r->minor < 2) &&
	    (s = bb__sb_bool(r, "weighted", &weighted)) != BB_OK)
		return s;
	if (!weighted && n > (r->size - r->pos) / 8)
		return bb__sb_fail(r, "vertex count %u: more than the bytes left can hold",
		                   (unsigned)n);
	for (i = 0; i < n; i++) {
		if (!weighted) {
			for (k = 0; k < 2; k++) {
				if ((s = bb__sb_f32(r, "vertex", &v)) != BB_OK)
					return s;
				bb__jw_append_num(&r->w, arr, v);
			}
			continue;
		}
		if ((s = bb__sb_count(r, "vertex bone count", 13, &nb)) != BB_OK)
			return s;
		bb__jw_append_num(&r->w, arr, nb);
		for (k = 0; k < nb; k++) {
			int j;

			if ((s = bb__sb_index(r, "vertex bone", &r->bones, &b)) != BB_OK)
				return s;
			bb__jw_append_num(&r->w, arr, b);
			for (j = 0; j < 3; j++) {
				if ((s = bb__sb_f32(r, "vertex", &v)) != BB_OK)
					return s;
				bb__jw_append_num(&r->w, arr, v);
			}
		}
	}
	bb__sb_num(r, o, "vertexCount", n);
	return BB_OK;
}

static bb_status read_float_array(bb__sb *r, json_t *o, const char *key, uint32_t n)
{
	json_t *arr = bb__sb_arr(r, o, key);
	double v;
	uint32_t i;
	bb_status s;

	if ((size_t)n > (r->size - r->pos) / 4)
		return bb__sb_fail(r, "%s: %u numbers, more than the bytes left can hold",
		                   key, (unsigned)n);
	for (i = 0; i < n; i++) {
		if ((s = bb__sb_f32(r, key, &v)) != BB_OK)
			return s;
		bb__jw_append_num(&r->w, arr, v);
	}
	return BB_OK;
}

/* Triangles or edges: 3.8-4.1 a count and 16-bit values, 4.2 n varints. */
static bb_status read_short_array(bb__sb *r, json_t *o, const char *key, int64_t n42)
{
	json_t *arr = bb__sb_arr(r, o, key);
	uint32_t n, i, v;
	bb_status s;

	if (r->major == 4 && r->minor >= 2) {
		if (n42 < 0 || n42 > (int64_t)(r->size - r->pos))
			return bb__sb_fail(r, "%s: %lld indices, more than the bytes left can hold",
			                   key, (long long)n42);
		n = (uint32_t)n42;
	} else if ((s = bb__sb_count(r, key, 2, &n)) != BB_OK) {
		return s;
	}
	for (i = 0; i < n; i++) {
		if (r->major == 4 && r->minor >= 2) {
			if ((s = bb__sb_varint(r, key, &v)) != BB_OK)
				return s;
		} else {
			int32_t x;

			if ((s = need(r, key, 2)) != BB_OK)
				return s;
			x = (int16_t)(r->p[r->pos] << 8 | r->p[r->pos + 1]);
			r->pos += 2;
			v = (uint32_t)x;
			bb__jw_append_num(&r->w, arr, x);
			continue;
		}
		bb__jw_append_num(&r->w, arr, v);
	}
	return BB_OK;
}

static bb_status read_sequence(bb__sb *r, json_t *o)
{
	static const char *const keys[] = { "count", "start", "digits", "setup" };
	json_t *seq = bb__sb_obj(r, o, "sequence");
	uint32_t v;
	int i;
	bb_status s;

	for (i = 0; i < 4; i++) {
		if ((s = bb__sb_varint(r, keys[i], &v)) != BB_OK)
			return s;
		bb__sb_num(r, seq, keys[i], v);
	}
	return BB_OK;
}

static bb_status read_color(bb__sb *r, json_t *o, const char *key, int has)
{
	int32_t c = -1;
	bb_status s = has ? bb__sb_i32(r, key, &c) : BB_OK;

	if (s == BB_OK)
		bb__sb_color(r, o, key, (uint32_t)c, 0);
	return s;
}

enum { AT_REGION, AT_BBOX, AT_MESH, AT_LINKED, AT_PATH, AT_POINT, AT_CLIP };
static const char *const type_names[] = { "region", "boundingbox", "mesh",
	"linkedmesh", "path", "point", "clipping" };

/* The flags of a 4.2 attachment, and the same facts read in 3.8-4.1's
 * order, so the fields can be read in one place. */
struct att {
	unsigned type;
	unsigned flags;
	int v42;
};

static bb_status read_region(bb__sb *r, json_t *o, const struct att *a)
{
	static const char *const keys[] = { "x", "y", "scaleX", "scaleY", "width", "height" };
	double v = 0;
	const char *path = NULL;
	int seq = 0;
	bb_status s;

	if (a->v42) {
		if ((a->flags & 16) && (s = bb__sb_string_ref(r, "path", &path)) != BB_OK)
			return s;
		if ((s = read_color(r, o, "color", a->flags & 32)) != BB_OK)
			return s;
		if ((a->flags & 64) && (s = read_sequence(r, o)) != BB_OK)
			return s;
		if ((a->flags & 128) && (s = bb__sb_f32(r, "rotation", &v)) != BB_OK)
			return s;
		bb__sb_str(r, o, "path", path);
		bb__sb_num(r, o, "rotation", v);
		return read_floats(r, o, keys, 6);
	}
	if ((s = bb__sb_string_ref(r, "path", &path)) != BB_OK ||
	    (s = bb__sb_f32(r, "rotation", &v)) != BB_OK)
		return s;
	bb__sb_str(r, o, "path", path);
	bb__sb_num(r, o, "rotation", v);
	if ((s = read_floats(r, o, keys, 6)) != BB_OK ||
	    (s = read_color(r, o, "color", 1)) != BB_OK)
		return s;
	if (r->major == 4 && r->minor >= 1) {
		if ((s = bb__sb_bool(r, "sequence", &seq)) != BB_OK)
			return s;
		if (seq && (s = read_sequence(r, o)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_optional_sequence(bb__sb *r, json_t *o)
{
	int seq = 0;
	bb_status s = BB_OK;

	if (r->major == 4 && r->minor >= 1 && (s = bb__sb_bool(r, "sequence", &seq)) == BB_OK &&
	    seq)
		s = read_sequence(r, o);
	return s;
}

static bb_status read_size(bb__sb *r, json_t *o)
{
	static const char *const keys[] = { "width", "height" };

	return r->nonessential ? read_floats(r, o, keys, 2) : BB_OK;
}

static bb_status read_mesh(bb__sb *r, json_t *o, const struct att *a)
{
	const char *path = NULL;
	uint32_t hull = 0, n, ne;
	bb_status s;

	if (a->v42) {
		if ((a->flags & 16) && (s = bb__sb_string_ref(r, "path", &path)) != BB_OK)
			return s;
		bb__sb_str(r, o, "path", path);
		if ((s = read_color(r, o, "color", a->flags & 32)) != BB_OK)
			return s;
		if ((a->flags & 64) && (s = read_sequence(r, o)) != BB_OK)
			return s;
		if ((s = bb__sb_varint(r, "hull", &hull)) != BB_OK ||
		    (s = read_vertices(r, o, (a->flags & 128) != 0, &n, 0)) != BB_OK ||
		    (s = read_float_array(r, o, "uvs", 2 * n)) != BB_OK ||
		    (s = read_short_array(r, o, "triangles",
		                          ((int64_t)2 * n - hull - 2) * 3)) != BB_OK)
			return s;
		bb__sb_num(r, o, "hull", hull);
		if (r->nonessential) {
			if ((s = bb__sb_count(r, "edges", 1, &ne)) != BB_OK ||
			    (s = read_short_array(r, o, "edges", ne)) != BB_OK)
				return s;
		}
		return read_size(r, o);
	}
	if ((s = bb__sb_string_ref(r, "path", &path)) != BB_OK)
		return s;
	bb__sb_str(r, o, "path", path);
	if ((s = read_color(r, o, "color", 1)) != BB_OK ||
	    (s = bb__sb_count(r, "vertex count", 8, &n)) != BB_OK ||
	    (s = read_float_array(r, o, "uvs", 2 * n)) != BB_OK ||
	    (s = read_short_array(r, o, "triangles", 0)) != BB_OK)
		return s;
	if ((s = read_vertices(r, o, 0, &n, 1)) != BB_OK)
		return s;
	if ((s = bb__sb_varint(r, "hull", &hull)) != BB_OK)
		return s;
	bb__sb_num(r, o, "hull", hull);
	if ((s = read_optional_sequence(r, o)) != BB_OK)
		return s;
	if (r->nonessential && (s = read_short_array(r, o, "edges", 0)) != BB_OK)
		return s;
	return read_size(r, o);
}

static bb_status remember_linked(bb__sb *r, json_t *att, uint32_t skin, size_t at)
{
	if (r->nlinked == r->caplinked) {
		size_t cap = r->caplinked ? 2 * r->caplinked : 16;
		struct bb__sb_linked *v = realloc(r->linked, cap * sizeof *v);

		if (!v)
			return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
		r->linked = v;
		r->caplinked = cap;
	}
	r->linked[r->nlinked].att = att;
	r->linked[r->nlinked].skin = skin;
	r->linked[r->nlinked++].at = at;
	return BB_OK;
}

static bb_status read_linked(bb__sb *r, json_t *o, const struct att *a)
{
	const char *path = NULL, *skin = NULL, *parent;
	int inherit = 1;
	bb_status s;

	if (a->v42) {
		uint32_t k;
		size_t at;

		if ((a->flags & 16) && (s = bb__sb_string_ref(r, "path", &path)) != BB_OK)
			return s;
		if ((s = read_color(r, o, "color", a->flags & 32)) != BB_OK)
			return s;
		if ((a->flags & 64) && (s = read_sequence(r, o)) != BB_OK)
			return s;
		inherit = (a->flags & 128) != 0;
		at = r->pos;
		if ((s = bb__sb_varint(r, "skin", &k)) != BB_OK)
			return s;
		/* skins are read later: the index is checked once they are */
		if ((s = remember_linked(r, o, k, at)) != BB_OK)
			return s;
	} else {
		if ((s = bb__sb_string_ref(r, "path", &path)) != BB_OK ||
		    (s = read_color(r, o, "color", 1)) != BB_OK ||
		    (s = bb__sb_string_ref(r, "skin", &skin)) != BB_OK)
			return s;
	}
	if ((s = bb__sb_name(r, "parent", 1, &parent)) != BB_OK)
		return s;
	if (!a->v42 && (s = bb__sb_bool(r, "inherit timelines", &inherit)) != BB_OK)
		return s;
	if (!a->v42 && (s = read_optional_sequence(r, o)) != BB_OK)
		return s;
	bb__sb_str(r, o, "path", path);
	bb__sb_str(r, o, "skin", skin);
	bb__sb_str(r, o, "parent", parent);
	bb__sb_bool_member(r, o, r->major == 3 || r->minor == 0 ? "deform" : "timelines",
	                   inherit);
	return read_size(r, o);
}

static bb_status read_other(bb__sb *r, json_t *o, const struct att *a)
{
	uint32_t n, k;
	int32_t c;
	int b;
	bb_status s;

	switch (a->type) {
	case AT_BBOX:
		s = read_vertices(r, o, (a->flags & 16) != 0, &n, 0);
		break;
	case AT_PATH:
		if (a->v42) {
			bb__sb_bool_member(r, o, "closed", (a->flags & 16) != 0);
			bb__sb_bool_member(r, o, "constantSpeed", (a->flags & 32) != 0);
		} else {
			if ((s = bb__sb_bool(r, "closed", &b)) != BB_OK)
				return s;
			bb__sb_bool_member(r, o, "closed", b);
			if ((s = bb__sb_bool(r, "constant speed", &b)) != BB_OK)
				return s;
			bb__sb_bool_member(r, o, "constantSpeed", b);
		}
		if ((s = read_vertices(r, o, (a->flags & 64) != 0, &n, 0)) != BB_OK)
			return s;
		s = read_float_array(r, o, "lengths", n / 3);
		break;
	case AT_POINT: {
		static const char *const keys[] = { "rotation", "x", "y" };

		s = read_floats(r, o, keys, 3);
		break;
	}
	case AT_CLIP:
		if ((s = bb__sb_index(r, "end slot", &r->slots, &k)) != BB_OK)
			return s;
		bb__sb_str(r, o, "end", r->slots.v[k]);
		s = read_vertices(r, o, (a->flags & 16) != 0, &n, 0);
		break;
	default:
		return bb__sb_fail(r, "unknown attachment type %u", a->type);
	}
	if (s == BB_OK && r->nonessential)
		s = bb__sb_i32(r, "color", &c);   /* the editor's colour: not kept */
	return s;
}

static bb_status read_attachment(bb__sb *r, json_t *o, const char *placeholder)
{
	struct att a = { 0, 0, r->major == 4 && r->minor >= 2 };
	const char *name = NULL;
	size_t at = r->pos;
	bb_status s;

	if (a.v42) {
		if ((s = bb__sb_u8(r, "attachment flags", &a.flags)) != BB_OK)
			return s;
		a.type = a.flags & 7;
		if ((a.flags & 8) && (s = bb__sb_name(r, "name", 1, &name)) != BB_OK)
			return s;
	} else {
		if ((s = bb__sb_string_ref(r, "name", &name)) != BB_OK ||
		    (s = bb__sb_u8(r, "attachment type", &a.type)) != BB_OK)
			return s;
		at = r->pos - 1;
	}
	if (a.type > AT_CLIP)
		return bb__sb_fail_at(r, at, "unknown attachment type %u", a.type);
	bb__sb_str(r, o, "type", type_names[a.type]);
	if (name && strcmp(name, placeholder) != 0)
		bb__sb_str(r, o, "name", name);
	switch (a.type) {
	case AT_REGION:
		return read_region(r, o, &a);
	case AT_MESH:
		return read_mesh(r, o, &a);
	case AT_LINKED:
		return read_linked(r, o, &a);
	default:
		return read_other(r, o, &a);
	}
}

/* The constraints a skin names, into skin[key]. */
static bb_status skin_list(bb__sb *r, json_t *skin, const char *key,
                           const bb__sb_names *t)
{
	uint32_t n, i, k;
	json_t *arr;
	bb_status s;

	if ((s = bb__sb_count(r, key, 1, &n)) != BB_OK)
		return s;
	if (!n)
		return BB_OK;
	arr = bb__sb_arr(r, skin, key);
	for (i = 0; i < n; i++) {
		if ((s = bb__sb_index(r, key, t, &k)) != BB_OK)
			return s;
		bb__jw_append(&r->w, arr, bb__jw_string(&r->w, t->v[k]));
	}
	return BB_OK;
}

/* One skin (the default one: its slot count first, NULL *skin when 0). */
static bb_status read_skin(bb__sb *r, json_t *skins, int is_default, const char **name)
{
	uint32_t nslots, i, slot, n, k;
	json_t *skin, *atts;
	int32_t c;
	bb_status s;

	*name = NULL;
	if (is_default) {
		if ((s = bb__sb_count(r, "slot count", 2, &nslots)) != BB_OK)
			return s;
		if (!nslots)
			return BB_OK;
		*name = "default";
	} else {
		int v42 = r->major == 4 && r->minor >= 2;

		if ((s = bb__sb_name(r, "skin name", !v42, name)) != BB_OK)
			return s;
		if (v42 && r->nonessential && (s = bb__sb_i32(r, "color", &c)) != BB_OK)
			return s;
	}
	skin = bb__jw_object(&r->w);
	bb__jw_append(&r->w, skins, skin);
	bb__sb_str(r, skin, "name", *name);
	bb__sb_what(r, "skin \"%s\"", *name);
	if (!is_default) {
		if ((s = skin_list(r, skin, "bones", &r->bones)) != BB_OK ||
		    (s = skin_list(r, skin, "ik", &r->ik)) != BB_OK ||
		    (s = skin_list(r, skin, "transform", &r->tc)) != BB_OK ||
		    (s = skin_list(r, skin, "path", &r->paths)) != BB_OK)
			return s;
		if (r->major == 4 && r->minor >= 2 &&
		    (s = skin_list(r, skin, "physics", &r->phys)) != BB_OK)
			return s;
		if ((s = bb__sb_count(r, "slot count", 2, &nslots)) != BB_OK)
			return s;
	}
	atts = bb__sb_obj(r, skin, "attachments");
	for (i = 0; i < nslots; i++) {
		json_t *so;

		bb__sb_what(r, "skin \"%s\"", *name);
		if ((s = bb__sb_index(r, "slot", &r->slots, &slot)) != BB_OK ||
		    (s = bb__sb_count(r, "attachment count", 2, &n)) != BB_OK)
			return s;
		so = bb__sb_obj(r, atts, r->slots.v[slot]);
		for (k = 0; k < n; k++) {
			const char *placeholder;
			json_t *o;

			bb__sb_what(r, "skin \"%s\", slot \"%s\", attachment %u", *name,
			            r->slots.v[slot], (unsigned)k);
			if ((s = bb__sb_name(r, "attachment name", 1, &placeholder)) != BB_OK)
				return s;
			bb__sb_what(r, "skin \"%s\", slot \"%s\", attachment \"%s\"", *name,
			            r->slots.v[slot], placeholder);
			o = bb__jw_object(&r->w);
			bb__jw_set(&r->w, so, placeholder, o);
			if ((s = read_attachment(r, o, placeholder)) != BB_OK)
				return s;
		}
		if ((s = bb__sb_written(r)) != BB_OK)
			return s;
	}
	bb__sb_what(r, "%s", "");
	return BB_OK;
}

/* 4.2 linked meshes name their skin by index: each is checked and named
 * once the skins are read. */
static bb_status name_linked_skins(bb__sb *r)
{
	size_t i;

	for (i = 0; i < r->nlinked; i++) {
		const struct bb__sb_linked *l = &r->linked[i];

		if (l->skin >= r->skins.n) {
			bb__jpath_set(&r->path, "skins");
			bb__sb_what(r, "linked mesh %zu", i);
			return bb__sb_fail_at(r, l->at, "unknown skin index %u (%u skins)",
			                      (unsigned)l->skin, (unsigned)r->skins.n);
		}
		bb__sb_str(r, l->att, "skin", r->skins.v[l->skin]);
	}
	return BB_OK;
}

static bb_status read_skins(bb__sb *r, json_t *root)
{
	json_t *skins = bb__sb_arr(r, root, "skins");
	const char *name;
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, "skins");
	if ((s = read_skin(r, skins, 1, &name)) != BB_OK)
		return s;
	if ((s = bb__sb_count(r, "skin count", 2, &n)) != BB_OK ||
	    (s = names_alloc(r, &r->skins, n + 1)) != BB_OK)
		return s;
	if (name)
		r->skins.v[r->skins.n++] = name;
	for (i = 0; i < n; i++) {
		bb__sb_what(r, "skin %u", (unsigned)i);
		if ((s = read_skin(r, skins, 0, &r->skins.v[r->skins.n])) != BB_OK)
			return s;
		r->skins.n++;
	}
	if (r->major == 4 && r->minor >= 2 && (s = name_linked_skins(r)) != BB_OK)
		return s;
	return bb__sb_written(r);
}

static bb_status read_events(bb__sb *r, json_t *root)
{
	json_t *events = bb__sb_obj(r, root, "events");
	uint32_t n, i;
	int32_t iv;
	double v;
	const char *str, *audio;
	bb_status s;

	bb__jpath_set(&r->path, "events");
	if ((s = bb__sb_count(r, "event count", 7, &n)) != BB_OK ||
	    (s = names_alloc(r, &r->events, n)) != BB_OK)
		return s;
	if (!(r->event_audio = calloc(n ? n : 1, 1)))
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	for (i = 0; i < n; i++) {
		json_t *e = bb__jw_object(&r->w);

		bb__sb_what(r, "event %u", (unsigned)i);
		if ((s = bb__sb_name(r, "name", !(r->major == 4 && r->minor >= 2),
		                     &r->events.v[i])) != BB_OK)
			return s;
		bb__jw_set(&r->w, events, r->events.v[i], e);
		if ((s = bb__sb_svarint(r, "int", &iv)) != BB_OK ||
		    (s = bb__sb_f32(r, "float", &v)) != BB_OK)
			return s;
		bb__sb_num(r, e, "int", iv);
		bb__sb_num(r, e, "float", v);
		if ((s = bb__sb_string(r, "string", &str)) != BB_OK ||
		    (s = bb__sb_string(r, "audio", &audio)) != BB_OK)
			return s;
		bb__sb_str(r, e, "string", str);
		if (audio) {
			static const char *const keys[] = { "volume", "balance" };

			r->event_audio[i] = 1;
			bb__sb_str(r, e, "audio", audio);
			if ((s = read_floats(r, e, keys, 2)) != BB_OK)
				return s;
		}
		r->events.n++;
	}
	bb__sb_what(r, "%s", "");
	return bb__sb_written(r);
}

/* ---- the entry -------------------------------------------------------------- */

bb_status bb__decode_spine_binary(const char *data, size_t size, const char *file,
                                  json_t **out, bb_error *err)
{
	bb__sb r;
	json_t *root;
	size_t i;
	bb_status s;

	memset(&r, 0, sizeof r);
	r.p = (const unsigned char *)data;
	r.size = size;
	r.file = file;
	r.err = err;
	bb__jpath_init(&r.path);
	*out = NULL;
	root = bb__jw_object(&r.w);
	s = bb__sb_written(&r);
	if (s == BB_OK && !bb__sniff_spine_binary(data, size, file))
		s = bb_error_set(err, BB_ERR_INPUT, file, NULL, "not a Spine binary");
	if (s == BB_OK)
		s = read_header(&r, root);
	if (s == BB_OK)
		s = read_strings(&r);
	if (s == BB_OK)
		s = read_bones(&r, root);
	if (s == BB_OK)
		s = read_slots(&r, root);
	if (s == BB_OK)
		s = read_constraints(&r, root, "ik", "IK", &r.ik, read_ik);
	if (s == BB_OK)
		s = read_constraints(&r, root, "transform", "transform", &r.tc, read_transform);
	if (s == BB_OK)
		s = read_constraints(&r, root, "path", "path", &r.paths, read_path);
	if (s == BB_OK && r.major == 4 && r.minor >= 2)
		s = read_constraints(&r, root, "physics", "physics", &r.phys, read_physics);
	if (s == BB_OK)
		s = read_skins(&r, root);
	if (s == BB_OK)
		s = read_events(&r, root);
	if (s == BB_OK)
		s = bb__sb_read_animations(&r, root);
	if (s == BB_OK)
		s = bb__sb_written(&r);
	if (s == BB_OK)
		*out = root;
	else
		bb__json_free(root);
	for (i = 0; i < r.nowned; i++)
		free(r.owned[i]);
	free(r.owned);
	free(r.strings.v);
	free(r.bones.v);
	free(r.slots.v);
	free(r.ik.v);
	free(r.tc.v);
	free(r.paths.v);
	free(r.phys.v);
	free(r.skins.v);
	free(r.events.v);
	free(r.event_audio);
	free(r.linked);
	return s;
}
