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

static bb_status read_strings(bb__sb *r)
{
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, "strings");
	if ((s = bb__sb_count(r, "string count", 1, &n)) != BB_OK ||
	    (s = bb__sb_names_alloc(r, &r->strings, n)) != BB_OK)
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
	    (s = bb__sb_names_alloc(r, &r->bones, n)) != BB_OK)
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
		if ((s = bb__sb_floats(r, b, keys, 8)) != BB_OK)
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
		if (r->nonessential) {
			if ((s = bb__sb_i32(r, "color", &c)) != BB_OK)
				return s;
			bb__sb_color(r, b, "color", (uint32_t)c, 0);   /* the editor's */
		}
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
	    (s = bb__sb_names_alloc(r, &r->slots, n)) != BB_OK)
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
		if ((s = bb__sb_floats(r, o, keys, 2)) != BB_OK ||
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
		return r->major == 3 ? bb__sb_floats(r, o, keys38, 10) : bb__sb_floats(r, o, keys4, 12);
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
	return r->major == 3 ? bb__sb_floats(r, o, keys38, 4) : bb__sb_floats(r, o, keys4, 5);
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
	if ((s = bb__sb_floats(r, o, mid, 3)) != BB_OK)
		return s;
	if ((f & 128) && (s = bb__sb_f32(r, "mass inverse", &inv)) != BB_OK)
		return s;
	if (inv == 0)
		return bb__sb_fail_at(r, r->pos - 4, "a physics mass inverse of 0");
	bb__sb_num(r, o, "mass", 1 / inv);
	{
		static const char *const tail[] = { "wind", "gravity" };

		if ((s = bb__sb_floats(r, o, tail, 2)) != BB_OK ||
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
	    (s = bb__sb_names_alloc(r, t, n)) != BB_OK)
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
	    (s = bb__sb_names_alloc(r, &r->events, n)) != BB_OK)
		return s;
	if (!(r->event_audio = calloc(n ? n : 1, 1)))
		return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
	for (i = 0; i < n; i++) {
		json_t *e;

		bb__sb_what(r, "event %u", (unsigned)i);
		if ((s = bb__sb_name(r, "name", !(r->major == 4 && r->minor >= 2),
		                     &r->events.v[i])) != BB_OK)
			return s;
		e = bb__jw_set(&r->w, events, r->events.v[i], bb__jw_object(&r->w));
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
			if ((s = bb__sb_floats(r, e, keys, 2)) != BB_OK)
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
		s = bb__sb_read_skins(&r, root);
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
