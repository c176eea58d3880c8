/* Spine binary (.skel): skins and their attachments into the JSON
 * document (spine-binary.h).  3.8-4.1: an attachment is a name reference
 * then a type byte, and each field follows in a fixed order (4.1 adds
 * sequences); 4.2: one flag byte holds the type (low 3 bits) and says
 * which optional fields follow.  Triangles and edges are 16-bit before
 * 4.2 and varints in 4.2, where a linked mesh names its skin by index. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/spine-binary.h"

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
		int32_t x;

		if (r->major == 4 && r->minor >= 2) {
			if ((s = bb__sb_varint(r, key, &v)) != BB_OK)
				return s;
			x = (int32_t)v;
		} else if ((s = bb__sb_i16(r, key, &x)) != BB_OK) {
			return s;
		}
		bb__jw_append_num(&r->w, arr, x);
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

/* 4.2: the path (flag 16), colour (flag 32, else white) and sequence
 * (flag 64) a region, mesh or linked mesh starts with. */
static bb_status flagged_head(bb__sb *r, json_t *o, unsigned flags, const char **path)
{
	bb_status s;

	*path = NULL;
	if ((flags & 16) && (s = bb__sb_string_ref(r, "path", path)) != BB_OK)
		return s;
	if ((s = read_color(r, o, "color", flags & 32)) != BB_OK)
		return s;
	if ((flags & 64) && (s = read_sequence(r, o)) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status read_region(bb__sb *r, json_t *o, const struct att *a)
{
	static const char *const keys[] = { "x", "y", "scaleX", "scaleY", "width", "height" };
	double v = 0;
	const char *path = NULL;
	int seq = 0;
	bb_status s;

	if (a->v42) {
		if ((s = flagged_head(r, o, a->flags, &path)) != BB_OK)
			return s;
		if ((a->flags & 128) && (s = bb__sb_f32(r, "rotation", &v)) != BB_OK)
			return s;
		bb__sb_str(r, o, "path", path);
		bb__sb_num(r, o, "rotation", v);
		return bb__sb_floats(r, o, keys, 6);
	}
	if ((s = bb__sb_string_ref(r, "path", &path)) != BB_OK ||
	    (s = bb__sb_f32(r, "rotation", &v)) != BB_OK)
		return s;
	bb__sb_str(r, o, "path", path);
	bb__sb_num(r, o, "rotation", v);
	if ((s = bb__sb_floats(r, o, keys, 6)) != BB_OK ||
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

	return r->nonessential ? bb__sb_floats(r, o, keys, 2) : BB_OK;
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

		if ((s = flagged_head(r, o, a->flags, &path)) != BB_OK)
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

		s = bb__sb_floats(r, o, keys, 3);
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
		s = read_color(r, o, "color", 1);   /* the editor's colour */
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
			/* a second one would free the first, which a 4.2 linked
			 * mesh may still point to */
			if (bb__jget(so, placeholder))
				return bb__sb_fail(r, "a second attachment of that name");
			o = bb__jw_set(&r->w, so, placeholder, bb__jw_object(&r->w));
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

bb_status bb__sb_read_skins(bb__sb *r, json_t *root)
{
	json_t *skins = bb__sb_arr(r, root, "skins");
	const char *name;
	uint32_t n, i;
	bb_status s;

	bb__jpath_set(&r->path, "skins");
	if ((s = read_skin(r, skins, 1, &name)) != BB_OK)
		return s;
	if ((s = bb__sb_count(r, "skin count", 2, &n)) != BB_OK ||
	    (s = bb__sb_names_alloc(r, &r->skins, n + 1)) != BB_OK)
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
