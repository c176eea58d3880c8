/* Spine binary (.skel) animations into the JSON layout of their version
 * (spine-binary.h).  What differs by version:
 *
 *   3.8   keys one by one: time, values, then (but for the last key) the
 *         curve: a type byte and for a Bezier 4 numbers 0..1 (JSON's
 *         curve/c2/c3/c4); bone timelines rotate, translate, scale, shear;
 *         slot colour as rgba8888 (and a dark rgb888); mixes named
 *         rotateMix/translateMix/...; deform keys at the top level
 *   4.x   a timeline count first; per timeline a frame count and a Bezier
 *         count; keys: time and values, then the previous key's curve
 *         (per value 4 numbers in the timeline's own units, JSON's curve
 *         array); split translate/scale/shear x and y; rgba/rgb/alpha/
 *         rgba2/rgb2 as bytes; deform keys at the top level (4.0) or per
 *         attachment with sequence keys (4.1+); IK keys in a flag byte
 *         (4.2); physics timelines and bone inherit keys (4.2) */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "loaders/spine-binary.h"

static int v42(const bb__sb *r)
{
	return r->major == 4 && r->minor >= 2;
}

/* A key object appended to arr, with its time read. */
static bb_status new_key(bb__sb *r, json_t *arr, json_t **key)
{
	double t;
	bb_status s = bb__sb_f32(r, "time", &t);

	*key = bb__jw_object(&r->w);
	bb__jw_append(&r->w, arr, *key);
	if (s == BB_OK)
		bb__sb_num(r, *key, "time", t);
	return s;
}

/* The curve of key (towards the next): 4.x nv Beziers of 4 numbers into
 * key.curve; 3.8 one Bezier as curve, c2, c3, c4. */
static bb_status curve(bb__sb *r, json_t *key, int nv)
{
	size_t at = r->pos;
	unsigned type;
	double v;
	int i;
	json_t *arr;
	bb_status s;

	if ((s = bb__sb_u8(r, "curve type", &type)) != BB_OK)
		return s;
	if (type == 0)
		return BB_OK;
	if (type == 1) {
		bb__sb_str(r, key, "curve", "stepped");
		return BB_OK;
	}
	if (type != 2)
		return bb__sb_fail_at(r, at, "unknown curve type %u", type);
	if (r->major == 3) {
		static const char *const keys[] = { "curve", "c2", "c3", "c4" };

		for (i = 0; i < 4; i++) {
			if ((s = bb__sb_f32(r, "curve", &v)) != BB_OK)
				return s;
			bb__sb_num(r, key, keys[i], v);
		}
		return BB_OK;
	}
	arr = bb__sb_arr(r, key, "curve");
	for (i = 0; i < 4 * nv; i++) {
		if ((s = bb__sb_f32(r, "curve", &v)) != BB_OK)
			return s;
		bb__jw_append_num(&r->w, arr, v);
	}
	return BB_OK;
}

/* A frame count (at least one key when required) and, in 4.x, the
 * Bezier count (not needed: the curves say it). */
static bb_status frames(bb__sb *r, uint32_t *n, int beziers, int at_least_one)
{
	uint32_t b;
	bb_status s = bb__sb_count(r, "frame count", 4, n);

	if (s == BB_OK && at_least_one && *n == 0)
		return bb__sb_fail(r, "a timeline without keys");
	if (s == BB_OK && beziers && r->major == 4)
		s = bb__sb_varint(r, "bezier count", &b);
	return s;
}

/* Keys of nv floats named keys[] each, the curve after each but the last
 * (4.x: the previous key's, after the next key's values). */
static bb_status float_keys(bb__sb *r, json_t *arr, uint32_t n, const char *const *keys,
                            int nv)
{
	json_t *key, *prev = NULL;
	double v;
	uint32_t f;
	int i;
	bb_status s;

	for (f = 0; f < n; f++) {
		if ((s = new_key(r, arr, &key)) != BB_OK)
			return s;
		for (i = 0; i < nv; i++) {
			if ((s = bb__sb_f32(r, keys[i], &v)) != BB_OK)
				return s;
			bb__sb_num(r, key, keys[i], v);
		}
		if (r->major == 4 && prev && (s = curve(r, prev, nv)) != BB_OK)
			return s;
		if (r->major == 3 && f + 1 < n && (s = curve(r, key, nv)) != BB_OK)
			return s;
		prev = key;
	}
	return BB_OK;
}

/* Colour keys: nb bytes a key, written as colour strings (4.x rgba 4,
 * rgb 3, rgba2 7, rgb2 6, alpha 1 byte; 3.8: rgba8888 [+ rgb888]). */
static bb_status color_keys(bb__sb *r, json_t *arr, uint32_t n, int nb, int two)
{
	json_t *key, *prev = NULL;
	unsigned c[7];
	uint32_t f;
	int i;
	bb_status s;

	for (f = 0; f < n; f++) {
		if ((s = new_key(r, arr, &key)) != BB_OK)
			return s;
		if (r->major == 3) {
			int32_t light, dark = 0;

			if ((s = bb__sb_i32(r, two ? "light" : "color", &light)) != BB_OK ||
			    (two && (s = bb__sb_i32(r, "dark", &dark)) != BB_OK))
				return s;
			bb__sb_color(r, key, two ? "light" : "color", (uint32_t)light, 0);
			if (two)
				bb__sb_color(r, key, "dark", (uint32_t)dark, 1);
			if (f + 1 < n && (s = curve(r, key, 1)) != BB_OK)
				return s;
			continue;
		}
		for (i = 0; i < nb; i++)
			if ((s = bb__sb_u8(r, "colour", &c[i])) != BB_OK)
				return s;
		if (nb == 1)
			bb__sb_num(r, key, "value", c[0] / 255.0);
		else if (!two)
			bb__sb_color_bytes(r, key, "color", c, nb);
		else {
			bb__sb_color_bytes(r, key, "light", c, nb - 3);
			bb__sb_color_bytes(r, key, "dark", c + nb - 3, 3);
		}
		if (prev && (s = curve(r, prev, nb)) != BB_OK)
			return s;
		prev = key;
	}
	return BB_OK;
}

/* A group of typed timelines: per owner (a slot, bone, path or physics
 * constraint) a count of timelines, each a type byte then its keys.  The
 * owner's index is into `table` (physics: 0 for every constraint, the
 * JSON's "", else 1 + the index); the types are named by `names`
 * (NULL: not a type); `keys` reads one timeline's frames and keys. */
struct group {
	const char *member;        /* the animation's JSON member */
	const char *kind;          /* "slot", ... (messages) */
	const bb__sb_names *table;
	int global;
	const char *const *names;
	unsigned ntypes;
	bb_status (*keys)(bb__sb *r, json_t *arr, unsigned type);
};

static bb_status grouped(bb__sb *r, json_t *anim, const struct group *g)
{
	uint32_t n, i, k, nn, idx;
	json_t *map = NULL;
	bb_status s;

	if ((s = bb__sb_count(r, "owner count", 2, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		size_t at = r->pos;
		const char *name;
		json_t *owner;

		bb__sb_what(r, "%s timelines %u", g->kind, (unsigned)i);
		if (g->global) {
			if ((s = bb__sb_varint(r, g->kind, &idx)) != BB_OK)
				return s;
			if (idx > g->table->n)
				return bb__sb_fail_at(r, at, "unknown %s index %u", g->kind,
				                      (unsigned)idx - 1);
			name = idx ? g->table->v[idx - 1] : "";
		} else {
			if ((s = bb__sb_index(r, g->kind, g->table, &idx)) != BB_OK)
				return s;
			name = g->table->v[idx];
		}
		if ((s = bb__sb_count(r, "timeline count", 2, &nn)) != BB_OK)
			return s;
		map = map ? map : bb__sb_obj(r, anim, g->member);
		owner = bb__sb_obj(r, map, name);
		for (k = 0; k < nn; k++) {
			unsigned type;

			at = r->pos;
			bb__sb_what(r, "%s \"%s\" timeline %u", g->kind, name, (unsigned)k);
			if ((s = bb__sb_u8(r, "timeline type", &type)) != BB_OK)
				return s;
			if (type >= g->ntypes || !g->names[type])
				return bb__sb_fail_at(r, at, "unknown %s timeline type %u", g->kind,
				                      type);
			if ((s = g->keys(r, bb__sb_arr(r, owner, g->names[type]), type)) != BB_OK)
				return s;
		}
	}
	return BB_OK;
}

/* Slot timelines: attachment names, or colours (3.8: rgba8888 colour,
 * light and dark; 4.x: rgba, rgb, rgba2, rgb2, alpha as bytes). */
static bb_status slot_keys(bb__sb *r, json_t *arr, unsigned type)
{
	static const int bytes4[] = { 0, 4, 3, 7, 6, 1 };
	uint32_t nf, f;
	bb_status s;

	if ((s = frames(r, &nf, type != 0, type != 0 && r->major == 4)) != BB_OK)
		return s;
	if (type != 0)
		return r->major == 3 ? color_keys(r, arr, nf, 0, type == 2)
		                     : color_keys(r, arr, nf, bytes4[type], type >= 3 && type <= 4);
	for (f = 0; f < nf; f++) {
		json_t *key;
		const char *name;

		if ((s = new_key(r, arr, &key)) != BB_OK ||
		    (s = bb__sb_string_ref(r, "attachment", &name)) != BB_OK)
			return s;
		bb__sb_str(r, key, "name", name);
	}
	return BB_OK;
}

static const char *const inherit_names[] = {
	"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
	"noScaleOrReflection"
};

/* Bone timelines: one or two values a key (3.8 rotate's `angle`), or
 * 4.2's inherit keys. */
static bb_status bone_keys(bb__sb *r, json_t *arr, unsigned type)
{
	static const char *const value[] = { "value" }, *const angle[] = { "angle" },
		*const xy[] = { "x", "y" };
	uint32_t nf, f;
	int two;
	bb_status s;

	if (type == 10) {                 /* 4.2 inherit: (time, mode) keys */
		if ((s = frames(r, &nf, 0, 0)) != BB_OK)
			return s;
		for (f = 0; f < nf; f++) {
			json_t *key;
			unsigned m;

			if ((s = new_key(r, arr, &key)) != BB_OK ||
			    (s = bb__sb_u8(r, "inherit", &m)) != BB_OK)
				return s;
			if (m >= 5)
				return bb__sb_fail_at(r, r->pos - 1, "unknown inherit mode %u", m);
			bb__sb_str(r, key, "inherit", inherit_names[m]);
		}
		return BB_OK;
	}
	if ((s = frames(r, &nf, 1, r->major == 4)) != BB_OK)
		return s;
	two = r->major == 3 ? type != 0 : type == 1 || type == 4 || type == 7;
	return float_keys(r, arr, nf, two ? xy : r->major == 3 ? angle : value, two ? 2 : 1);
}

/* Path constraint timelines: position, spacing (3.8: named so in the key)
 * and the mixes. */
static bb_status path_keys(bb__sb *r, json_t *arr, unsigned type)
{
	static const char *const pos3[] = { "position" }, *const sp3[] = { "spacing" },
		*const value[] = { "value" };
	static const char *const mix3[] = { "rotateMix", "translateMix" },
		*const mix4[] = { "mixRotate", "mixX", "mixY" };
	uint32_t nf;
	bb_status s;

	if ((s = frames(r, &nf, 1, r->major == 4)) != BB_OK)
		return s;
	if (type == 2)
		return r->major == 3 ? float_keys(r, arr, nf, mix3, 2)
		                     : float_keys(r, arr, nf, mix4, 3);
	return float_keys(r, arr, nf, r->major == 4 ? value : type ? sp3 : pos3, 1);
}

/* Physics timelines: one value a key, or reset's times. */
static bb_status physics_keys(bb__sb *r, json_t *arr, unsigned type)
{
	static const char *const value[] = { "value" };
	uint32_t nf, f;
	bb_status s;

	if ((s = frames(r, &nf, type != 8, type != 8)) != BB_OK)
		return s;
	if (type != 8)
		return float_keys(r, arr, nf, value, 1);
	for (f = 0; f < nf; f++) {
		json_t *key;

		if ((s = new_key(r, arr, &key)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static const char *const slot_names4[] = { "attachment", "rgba", "rgb", "rgba2", "rgb2",
	"alpha" };
static const char *const slot_names3[] = { "attachment", "color", "twoColor" };
static const char *const bone_names4[] = { "rotate", "translate", "translatex",
	"translatey", "scale", "scalex", "scaley", "shear", "shearx", "sheary", "inherit" };
static const char *const bone_names3[] = { "rotate", "translate", "scale", "shear" };
static const char *const path_names[] = { "position", "spacing", "mix" };
static const char *const physics_names[] = { "inertia", "strength", "damping", NULL,
	"mass", "wind", "gravity", "mix", "reset" };

static bb_status slot_timelines(bb__sb *r, json_t *anim)
{
	struct group g = { "slots", "slot", &r->slots, 0, slot_names4, 6, slot_keys };

	if (r->major == 3) {
		g.names = slot_names3;
		g.ntypes = 3;
	}
	return grouped(r, anim, &g);
}

static bb_status bone_timelines(bb__sb *r, json_t *anim)
{
	struct group g = { "bones", "bone", &r->bones, 0, bone_names4, v42(r) ? 11 : 10,
		bone_keys };

	if (r->major == 3) {
		g.names = bone_names3;
		g.ntypes = 4;
	}
	return grouped(r, anim, &g);
}

/* IK keys: 3.8 time, mix, softness, bend, compress, stretch, curve;
 * 4.0-4.1 the same with the 4.x curve order; 4.2 a flag byte first. */
static bb_status ik_keys(bb__sb *r, json_t *arr, uint32_t n)
{
	json_t *key, *prev = NULL;
	uint32_t f;
	bb_status s;

	for (f = 0; f < n; f++) {
		unsigned flags = 0, bend;
		double mix = 1, soft = 0;
		int compress, stretch;

		if (v42(r) && (s = bb__sb_u8(r, "flags", &flags)) != BB_OK)
			return s;
		if ((s = new_key(r, arr, &key)) != BB_OK)
			return s;
		if (v42(r)) {
			mix = flags & 1 ? 1 : 0;
			if ((flags & 3) == 3 && (s = bb__sb_f32(r, "mix", &mix)) != BB_OK)
				return s;
			if ((flags & 4) && (s = bb__sb_f32(r, "softness", &soft)) != BB_OK)
				return s;
			bend = flags & 8 ? 1 : 0xff;
			compress = (flags & 16) != 0;
			stretch = (flags & 32) != 0;
			if (prev && (flags & 64))
				bb__sb_str(r, prev, "curve", "stepped");
			else if (prev && (flags & 128)) {
				json_t *c = bb__sb_arr(r, prev, "curve");
				double v;
				int i;

				for (i = 0; i < 8; i++) {
					if ((s = bb__sb_f32(r, "curve", &v)) != BB_OK)
						return s;
					bb__jw_append_num(&r->w, c, v);
				}
			}
		} else {
			if ((s = bb__sb_f32(r, "mix", &mix)) != BB_OK ||
			    (s = bb__sb_f32(r, "softness", &soft)) != BB_OK)
				return s;
			if (r->major == 4 && prev && (s = curve(r, prev, 2)) != BB_OK)
				return s;
			if ((s = bb__sb_u8(r, "bend direction", &bend)) != BB_OK ||
			    (s = bb__sb_bool(r, "compress", &compress)) != BB_OK ||
			    (s = bb__sb_bool(r, "stretch", &stretch)) != BB_OK)
				return s;
			if (r->major == 3 && f + 1 < n && (s = curve(r, key, 1)) != BB_OK)
				return s;
		}
		bb__sb_num(r, key, "mix", mix);
		bb__sb_num(r, key, "softness", soft);
		bb__sb_bool_member(r, key, "bendPositive", (signed char)bend >= 0);
		bb__sb_bool_member(r, key, "compress", compress);
		bb__sb_bool_member(r, key, "stretch", stretch);
		prev = key;
	}
	return BB_OK;
}

/* IK and transform constraint timelines: (index, keys) each. */
static bb_status constraint_timelines(bb__sb *r, json_t *anim, const char *key,
                                      const bb__sb_names *t)
{
	static const char *const mix3[] = { "rotateMix", "translateMix", "scaleMix",
		"shearMix" };
	static const char *const mix4[] = { "mixRotate", "mixX", "mixY", "mixScaleX",
		"mixScaleY", "mixShearY" };
	uint32_t n, i, k, nf;
	json_t *map = NULL;
	bb_status s;

	if ((s = bb__sb_count(r, "constraint count", 2, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *arr;

		bb__sb_what(r, "%s timeline %u", key, (unsigned)i);
		if ((s = bb__sb_index(r, key, t, &k)) != BB_OK ||
		    (s = frames(r, &nf, 1, r->major == 4)) != BB_OK)
			return s;
		map = map ? map : bb__sb_obj(r, anim, key);
		arr = bb__sb_arr(r, map, t->v[k]);
		if (t == &r->ik)
			s = ik_keys(r, arr, nf);
		else
			s = r->major == 3 ? float_keys(r, arr, nf, mix3, 4)
			                  : float_keys(r, arr, nf, mix4, 6);
		if (s != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status path_timelines(bb__sb *r, json_t *anim)
{
	const struct group g = { "path", "path", &r->paths, 0, path_names, 3, path_keys };

	return grouped(r, anim, &g);
}

static bb_status physics_timelines(bb__sb *r, json_t *anim)
{
	const struct group g = { "physics", "physics", &r->phys, 1, physics_names, 9,
		physics_keys };

	return grouped(r, anim, &g);
}

/* Deform keys' vertices: end (0: none), start, end numbers. */
static bb_status deform_vertices(bb__sb *r, json_t *key)
{
	uint32_t end, start, v;
	double x;
	json_t *arr;
	bb_status s;

	if ((s = bb__sb_count(r, "deform vertex count", 4, &end)) != BB_OK || !end)
		return s;
	if ((s = bb__sb_varint(r, "deform offset", &start)) != BB_OK)
		return s;
	bb__sb_num(r, key, "offset", start);
	arr = bb__sb_arr(r, key, "vertices");
	for (v = 0; v < end; v++) {
		if ((s = bb__sb_f32(r, "deform vertex", &x)) != BB_OK)
			return s;
		bb__jw_append_num(&r->w, arr, x);
	}
	return BB_OK;
}

static bb_status deform_keys(bb__sb *r, json_t *arr, uint32_t n)
{
	json_t *key = NULL, *prev = NULL;
	uint32_t f;
	bb_status s;

	for (f = 0; f < n; f++) {
		if ((s = new_key(r, arr, &key)) != BB_OK)
			return s;
		if (r->major == 4 && prev && (s = curve(r, prev, 1)) != BB_OK)
			return s;
		if ((s = deform_vertices(r, key)) != BB_OK)
			return s;
		if (r->major == 3 && f + 1 < n && (s = curve(r, key, 1)) != BB_OK)
			return s;
		prev = key;
	}
	return BB_OK;
}

static const char *const seq_modes[] = { "hold", "once", "loop", "pingpong",
	"onceReverse", "loopReverse", "pingpongReverse" };

static bb_status sequence_keys(bb__sb *r, json_t *arr, uint32_t n)
{
	uint32_t f;
	bb_status s;

	for (f = 0; f < n; f++) {
		json_t *key;
		int32_t mi;
		double delay;

		if ((s = new_key(r, arr, &key)) != BB_OK ||
		    (s = bb__sb_i32(r, "mode and index", &mi)) != BB_OK)
			return s;
		if ((mi & 0xf) >= 7)
			return bb__sb_fail_at(r, r->pos - 4, "unknown sequence mode %d", mi & 0xf);
		if ((s = bb__sb_f32(r, "delay", &delay)) != BB_OK)
			return s;
		bb__sb_str(r, key, "mode", seq_modes[mi & 0xf]);
		bb__sb_num(r, key, "index", mi >> 4);
		bb__sb_num(r, key, "delay", delay);
	}
	return BB_OK;
}

/* Deform (3.8, 4.0: anim.deform) or attachment timelines (4.1+:
 * anim.attachments, deform and sequence): skin, slot, attachment. */
static bb_status attachment_timelines(bb__sb *r, json_t *anim)
{
	int attachments = r->major == 4 && r->minor >= 1;
	uint32_t n, i, skin, ns, j, slot, na, k, nf;
	json_t *map = NULL;
	bb_status s;

	if ((s = bb__sb_count(r, "skin count", 2, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *sko;

		bb__sb_what(r, "deform timelines %u", (unsigned)i);
		if ((s = bb__sb_index(r, "skin", &r->skins, &skin)) != BB_OK ||
		    (s = bb__sb_count(r, "slot count", 2, &ns)) != BB_OK)
			return s;
		map = map ? map : bb__sb_obj(r, anim, attachments ? "attachments" : "deform");
		sko = bb__sb_obj(r, map, r->skins.v[skin]);
		for (j = 0; j < ns; j++) {
			json_t *so;

			if ((s = bb__sb_index(r, "slot", &r->slots, &slot)) != BB_OK ||
			    (s = bb__sb_count(r, "attachment count", 2, &na)) != BB_OK)
				return s;
			so = bb__sb_obj(r, sko, r->slots.v[slot]);
			for (k = 0; k < na; k++) {
				const char *name;
				unsigned type = 0;
				json_t *arr;

				if ((s = bb__sb_name(r, "attachment", 1, &name)) != BB_OK)
					return s;
				bb__sb_what(r, "skin \"%s\", slot \"%s\", attachment \"%s\"",
				            r->skins.v[skin], r->slots.v[slot], name);
				if (attachments && (s = bb__sb_u8(r, "timeline type", &type)) != BB_OK)
					return s;
				if (type > 1)
					return bb__sb_fail_at(r, r->pos - 1, "unknown attachment "
					                      "timeline type %u", type);
				if (attachments)
					arr = bb__sb_arr(r, bb__sb_obj(r, so, name),
					                 type ? "sequence" : "deform");
				else
					arr = bb__sb_arr(r, so, name);
				if (type == 1) {
					if ((s = frames(r, &nf, 0, 0)) != BB_OK ||
					    (s = sequence_keys(r, arr, nf)) != BB_OK)
						return s;
					continue;
				}
				if ((s = frames(r, &nf, 1, r->major == 4)) != BB_OK ||
				    (s = deform_keys(r, arr, nf)) != BB_OK)
					return s;
			}
		}
	}
	return BB_OK;
}

static bb_status draw_order(bb__sb *r, json_t *anim)
{
	uint32_t n, i, no, k, slot, last;
	bb_status s;

	if ((s = bb__sb_count(r, "draw order count", 5, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *key, *offs;

		bb__sb_what(r, "draw order key %u", (unsigned)i);
		if ((s = new_key(r, bb__sb_arr(r, anim, "drawOrder"), &key)) != BB_OK ||
		    (s = bb__sb_count(r, "offset count", 2, &no)) != BB_OK)
			return s;
		if (no > r->slots.n)
			return bb__sb_fail(r, "%u offsets for %u slots", (unsigned)no,
			                   (unsigned)r->slots.n);
		offs = bb__sb_arr(r, key, "offsets");
		for (k = 0, last = 0; k < no; k++) {
			size_t at = r->pos;
			uint32_t off;
			json_t *o;

			if ((s = bb__sb_index(r, "slot", &r->slots, &slot)) != BB_OK)
				return s;
			if (k > 0 && slot <= last)
				return bb__sb_fail_at(r, at, "slot %u after slot %u (offsets come "
				                      "in slot order)", (unsigned)slot, (unsigned)last);
			last = slot;
			if ((s = bb__sb_varint(r, "offset", &off)) != BB_OK)
				return s;
			o = bb__jw_object(&r->w);
			bb__jw_append(&r->w, offs, o);
			bb__sb_str(r, o, "slot", r->slots.v[slot]);
			bb__sb_num(r, o, "offset", (int32_t)off);
		}
	}
	return BB_OK;
}

static bb_status event_keys(bb__sb *r, json_t *anim)
{
	uint32_t n, i, e;
	bb_status s;

	if ((s = bb__sb_count(r, "event count", 7, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		json_t *key;
		int32_t iv;
		double v;
		const char *str = NULL;
		int has = 1;

		bb__sb_what(r, "event key %u", (unsigned)i);
		if ((s = new_key(r, bb__sb_arr(r, anim, "events"), &key)) != BB_OK ||
		    (s = bb__sb_index(r, "event", &r->events, &e)) != BB_OK ||
		    (s = bb__sb_svarint(r, "int", &iv)) != BB_OK ||
		    (s = bb__sb_f32(r, "float", &v)) != BB_OK)
			return s;
		bb__sb_str(r, key, "name", r->events.v[e]);
		bb__sb_num(r, key, "int", iv);
		bb__sb_num(r, key, "float", v);
		if (!v42(r) && (s = bb__sb_bool(r, "has string", &has)) != BB_OK)
			return s;
		if (has && (s = bb__sb_string(r, "string", &str)) != BB_OK)
			return s;
		bb__sb_str(r, key, "string", str);
		if (r->event_audio[e]) {
			static const char *const keys[] = { "volume", "balance" };
			int j;

			for (j = 0; j < 2; j++) {
				if ((s = bb__sb_f32(r, keys[j], &v)) != BB_OK)
					return s;
				bb__sb_num(r, key, keys[j], v);
			}
		}
	}
	return BB_OK;
}

static bb_status read_animation(bb__sb *r, json_t *anim)
{
	uint32_t count;
	bb_status s = BB_OK;

	if (r->major == 4)
		s = bb__sb_varint(r, "timeline count", &count);
	if (s == BB_OK)
		s = slot_timelines(r, anim);
	if (s == BB_OK)
		s = bone_timelines(r, anim);
	if (s == BB_OK)
		s = constraint_timelines(r, anim, "ik", &r->ik);
	if (s == BB_OK)
		s = constraint_timelines(r, anim, "transform", &r->tc);
	if (s == BB_OK)
		s = path_timelines(r, anim);
	if (s == BB_OK && v42(r))
		s = physics_timelines(r, anim);
	if (s == BB_OK)
		s = attachment_timelines(r, anim);
	if (s == BB_OK)
		s = draw_order(r, anim);
	if (s == BB_OK)
		s = event_keys(r, anim);
	if (s == BB_OK)
		s = bb__sb_written(r);
	return s;
}

bb_status bb__sb_read_animations(bb__sb *r, json_t *root)
{
	json_t *anims = bb__sb_obj(r, root, "animations");
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, "animations");
	bb__sb_what(r, "%s", "");
	if ((s = bb__sb_count(r, "animation count", 9, &n)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		const char *name;
		json_t *anim;

		bb__jpath_set(&r->path, "animations");
		bb__sb_what(r, "animation %u", (unsigned)i);
		if ((s = bb__sb_name(r, "name", 0, &name)) != BB_OK)
			return s;
		bb__jpath_key(&r->path, name);
		bb__sb_what(r, "%s", "");
		anim = bb__jw_set(&r->w, anims, name, bb__jw_object(&r->w));
		if ((s = read_animation(r, anim)) != BB_OK)
			return s;
	}
	bb__jpath_set(&r->path, "");
	bb__sb_what(r, "%s", "");
	if (r->pos != r->size)
		return bb__sb_fail(r, "%zu bytes after the last animation", r->size - r->pos);
	return BB_OK;
}
