/* DragonBones JSON (data versions 4.5, 5.0, 5.5+; 4.0 where it matches;
 * 2.3 and 3.0 translated by dragonbones23.c):
 * armatures, bones with inherit flags, slots, skins, image / mesh / nested
 * armature displays, IK constraints, and the texture atlas beside the file.
 * Semantics: ../shared/spec/dragonbones.md (5.5+ runtime behaviour).
 * Animations are in dragonbones-anim.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "loaders/dragonbones.h"

#define DEG (M_PI / 180)

/* ---- lenient scalars (spec section 0) ---------------------------------- */

bb_status bb__db_nomem(struct db *d)
{
	return bb_error_set(d->j.err, BB_ERR_NOMEM, d->ctx->name, NULL,
	                    "out of memory");
}

bb_status bb__db_num(struct db *d, json_t *obj, const char *key, double def,
                     double *out)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	char *end;

	*out = def;
	if (!v || json_is_null(v))
		return BB_OK;
	if (json_is_string(v)) {
		s = json_string_value(v);
		if (strcmp(s, "NaN") == 0)
			return BB_OK;
		*out = strtod(s, &end);
		if (end == s || *end || !isfinite(*out))
			return bb__jfail(&d->j, key, "expected a number, found \"%.40s\"", s);
		return BB_OK;
	}
	if (!json_is_number(v))
		return bb__jfail(&d->j, key, "expected a number");
	*out = json_number_value(v);
	if (!isfinite(*out))
		return bb__jfail(&d->j, key, "number is not finite");
	return BB_OK;
}

bb_status bb__db_bool(struct db *d, json_t *obj, const char *key, int def,
                      int *out)
{
	static const char *const falsy[] = { "0", "NaN", "", "false", "null",
	                                     "undefined", NULL };
	json_t *v = json_object_get(obj, key);
	int i;

	*out = def;
	if (!v || json_is_null(v))
		return BB_OK;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
	} else if (json_is_number(v)) {
		*out = json_number_value(v) != 0;
	} else if (json_is_string(v)) {
		*out = 1;
		for (i = 0; falsy[i]; i++)
			if (strcmp(json_string_value(v), falsy[i]) == 0)
				*out = 0;
	} else {
		return bb__jfail(&d->j, key, "expected a boolean");
	}
	return BB_OK;
}

int bb__db_find_bone(const struct db *d, const char *name)
{
	int i;

	for (i = 0; i < d->a->nbones; i++)
		if (d->a->bones[i].name && strcmp(d->a->bones[i].name, name) == 0)
			return i;
	return -1;
}

int bb__db_find_slot(const struct db *d, const char *name)
{
	int i;

	for (i = 0; i < d->a->nslots; i++)
		if (strcmp(d->a->slots[i].name, name) == 0)
			return i;
	return -1;
}

int bb__db_find_mesh(const struct db *d, const char *skin, int slot,
                     const char *name)
{
	const bb_armature *a = d->a;
	int k = 0, i;

	if (skin && skin[0]) {
		for (k = 0; k < a->nskins; k++)
			if (strcmp(a->skins[k].name, skin) == 0)
				break;
		if (k == a->nskins)
			return -1;
	}
	if (a->nskins == 0)
		return -1;
	for (i = 0; i < a->skins[k].count[slot]; i++) {
		int di = a->skins[k].first[slot] + i;
		const bb_display *ds = &a->displays[di];

		if (ds->kind == BB_DISPLAY_MESH && ds->name &&
		    strcmp(ds->name, name) == 0)
			return di;
	}
	return -1;
}

const struct db_mesh *bb__db_mesh(const struct db *d, int display)
{
	int i;

	for (i = 0; i < d->nmeshes; i++)
		if (d->meshes[i].display == display)
			return &d->meshes[i];
	return NULL;
}

/* ---- transforms ------------------------------------------------------ */

/* JSON transform {x, y, skX, skY, scX, scY} (degrees) -> bb_xform. */
static bb_status read_transform(struct db *d, json_t *obj, bb_xform *x)
{
	json_t *t = json_object_get(obj, "transform");
	double skx, sky, v;
	bb_status s;

	size_t mark;

	*x = bb__xform_identity();
	if (!t || json_is_null(t))
		return BB_OK;
	mark = bb__jpath_key(&d->j.path, "transform");
	if ((s = bb__jexpect_object(&d->j, t)) != BB_OK ||
	    (s = bb__db_num(d, t, "x", 0, &x->x)) != BB_OK ||
	    (s = bb__db_num(d, t, "y", 0, &x->y)) != BB_OK ||
	    (s = bb__db_num(d, t, "skX", 0, &skx)) != BB_OK ||
	    (s = bb__db_num(d, t, "skY", 0, &sky)) != BB_OK ||
	    (s = bb__db_num(d, t, "scX", 1, &x->sx)) != BB_OK ||
	    (s = bb__db_num(d, t, "scY", 1, &x->sy)) != BB_OK)
		return s;
	if (json_object_get(t, "rotate") || json_object_get(t, "skew")) {
		if ((s = bb__db_num(d, t, "rotate", 0, &v)) != BB_OK)
			return s;
		x->rotation = bb__norm_radian(v * DEG);
		if ((s = bb__db_num(d, t, "skew", 0, &v)) != BB_OK)
			return s;
		x->skew = bb__norm_radian(v * DEG);
	} else {
		x->rotation = bb__norm_radian(sky * DEG);
		x->skew = bb__norm_radian(skx * DEG) - x->rotation;
	}
	bb__jpath_pop(&d->j.path, mark);
	return BB_OK;
}

double bb__norm_radian(double a)
{
	/* JS: ((a + PI) % 2PI), where % keeps the dividend's sign */
	double r = fmod(a + M_PI, 2 * M_PI);

	return r > 0 ? r - M_PI : r + M_PI;
}

/* ---- bones ------------------------------------------------------------ */

static bb_status read_bone(struct db *d, json_t *jb, bb_bone *b)
{
	const char *name;
	int f[4];
	bb_status s;

	if ((s = bb__jexpect_object(&d->j, jb)) != BB_OK ||
	    (s = bb__jstr(&d->j, jb, "name", 1, &name)) != BB_OK)
		return s;
	if (!(b->name = bb__strdup(name)))
		return bb__db_nomem(d);
	if ((s = read_transform(d, jb, &b->setup)) != BB_OK ||
	    (s = bb__db_num(d, jb, "length", 0, &b->length)) != BB_OK ||
	    (s = bb__db_bool(d, jb, "inheritTranslation", 1, &f[0])) != BB_OK ||
	    (s = bb__db_bool(d, jb, "inheritRotation", 1, &f[1])) != BB_OK ||
	    (s = bb__db_bool(d, jb, "inheritScale", 1, &f[2])) != BB_OK ||
	    (s = bb__db_bool(d, jb, "inheritReflection", 1, &f[3])) != BB_OK)
		return s;
	b->inherit = BB_INHERIT_FLAGS;
	b->flags = (f[0] ? BB_INHERIT_TRANSLATION : 0) |
	           (f[1] ? BB_INHERIT_ROTATION : 0) |
	           (f[2] ? BB_INHERIT_SCALE : 0) |
	           (f[3] ? BB_INHERIT_REFLECTION : 0);
	return BB_OK;
}

/* Bones in parent-first order (the file's order when it already is). */
static bb_status load_bones(struct db *d)
{
	json_t *bones;
	size_t n, i, k;
	int *parent, *placed, done = 0, progress;
	bb_status s;

	if ((s = bb__jarray(&d->j, d->ja, "bone", 0, &bones)) != BB_OK)
		return s;
	n = json_array_size(bones);
	if (n > (size_t)d->ctx->opts->max_bones)
		return bb_error_set(d->j.err, BB_ERR_LIMIT, d->ctx->name, d->j.path.buf,
		                    "%zu bones exceed the limit of %d", n,
		                    d->ctx->opts->max_bones);
	d->nfile_bones = (int)n;
	d->a->bones = bb__calloc(n, sizeof *d->a->bones);
	d->bone_of_file = bb__calloc(n, sizeof *d->bone_of_file);
	parent = bb__calloc(n, sizeof *parent);
	placed = bb__calloc(n, sizeof *placed);
	if (!d->a->bones || !d->bone_of_file || !parent || !placed) {
		free(parent);
		free(placed);
		return bb__db_nomem(d);
	}
	s = BB_OK;
	/* names and parents, by file index */
	for (i = 0; i < n && s == BB_OK; i++) {
		json_t *jb = json_array_get(bones, i);
		const char *name, *pname;
		size_t mark = bb__jpath_key(&d->j.path, "bone");

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__jexpect_object(&d->j, jb)) != BB_OK ||
		    (s = bb__jstr(&d->j, jb, "name", 1, &name)) != BB_OK ||
		    (s = bb__jstr(&d->j, jb, "parent", 0, &pname)) != BB_OK)
			break;
		parent[i] = -1;
		for (k = 0; k < n; k++) {
			const char *nm = json_string_value(
				json_object_get(json_array_get(bones, k), "name"));

			if (k < i && nm && strcmp(nm, name) == 0) {
				s = bb__jfail(&d->j, "name", "duplicate bone name \"%s\"", name);
				break;
			}
			if (pname && nm && strcmp(nm, pname) == 0)
				parent[i] = (int)k;
		}
		if (s == BB_OK && pname && parent[i] < 0)
			s = bb__jfail(&d->j, "parent", "unknown bone \"%s\"", pname);
		if (s == BB_OK && parent[i] == (int)i)
			s = bb__jfail(&d->j, "parent", "bone \"%s\" is its own parent", name);
		bb__jpath_pop(&d->j.path, mark);
	}
	/* place parents first; what never becomes placeable is a cycle */
	for (k = 0; s == BB_OK && (size_t)done < n; k++) {
		progress = 0;
		for (i = 0; i < n && s == BB_OK; i++) {
			size_t mark;

			if (placed[i] || (parent[i] >= 0 && !placed[parent[i]]))
				continue;
			mark = bb__jpath_key(&d->j.path, "bone");
			bb__jpath_index(&d->j.path, i);
			d->a->nbones = done + 1;   /* counted before reading: freed on error */
			s = read_bone(d, json_array_get(bones, i), &d->a->bones[done]);
			bb__jpath_pop(&d->j.path, mark);
			d->a->bones[done].parent =
				parent[i] >= 0 ? d->bone_of_file[parent[i]] : -1;
			d->bone_of_file[i] = done;
			placed[i] = 1;
			d->a->nbones = ++done;
			progress = 1;
		}
		if (!progress && s == BB_OK) {
			for (i = 0; placed[i]; i++)
				;
			bb__jpath_key(&d->j.path, "bone");
			bb__jpath_index(&d->j.path, i);
			s = bb__jfail(&d->j, "parent", "bone hierarchy has a cycle through \"%s\"",
			              json_string_value(json_object_get(json_array_get(bones, i),
			                                                "name")));
		}
	}
	free(parent);
	free(placed);
	return s;
}

/* ---- slots ------------------------------------------------------------ */

static bb_blend blend_mode(json_t *v)
{
	static const struct { const char *name; int num; bb_blend b; } modes[] = {
		{ "normal", 0, BB_BLEND_NORMAL }, { "add", 1, BB_BLEND_ADD },
		{ "multiply", 10, BB_BLEND_MULTIPLY }, { "screen", 12, BB_BLEND_SCREEN },
		{ "subtract", 13, BB_BLEND_SUBTRACT },
	};
	size_t i;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if ((json_is_string(v) && strcmp(json_string_value(v), modes[i].name) == 0) ||
		    (json_is_number(v) && json_number_value(v) == modes[i].num))
			return modes[i].b;
	return BB_BLEND_NORMAL;
}

bb_status bb__db_color(struct db *d, json_t *c, bb_color_xform *out)
{
	static const char *const keys[8] = { "aM", "rM", "gM", "bM", "aO", "rO",
	                                     "gO", "bO" };
	double v[8];
	int i;
	bb_status s;

	*out = bb_color_xform_identity();
	if (!c || json_is_null(c))
		return BB_OK;
	if ((s = bb__jexpect_object(&d->j, c)) != BB_OK)
		return s;
	for (i = 0; i < 8; i++)
		if ((s = bb__db_num(d, c, keys[i], i < 4 ? 100 : 0, &v[i])) != BB_OK)
			return s;
	out->mul = (bb_rgba){ v[1] / 100, v[2] / 100, v[3] / 100, v[0] / 100 };
	out->add = (bb_rgba){ v[5] / 255, v[6] / 255, v[7] / 255, v[4] / 255 };
	return BB_OK;
}

static bb_status load_slots(struct db *d)
{
	json_t *slots;
	size_t n, i;
	bb_status s;

	if ((s = bb__jarray(&d->j, d->ja, "slot", 0, &slots)) != BB_OK)
		return s;
	n = json_array_size(slots);
	d->a->slots = bb__calloc(n, sizeof *d->a->slots);
	if (!d->a->slots)
		return bb__db_nomem(d);
	for (i = 0; i < n; i++) {
		json_t *js = json_array_get(slots, i);
		bb_slot *sl = &d->a->slots[i];
		const char *name, *bone;
		double di;
		size_t mark = bb__jpath_key(&d->j.path, "slot");

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__jexpect_object(&d->j, js)) != BB_OK ||
		    (s = bb__jstr(&d->j, js, "name", 1, &name)) != BB_OK ||
		    (s = bb__jstr(&d->j, js, "parent", 1, &bone)) != BB_OK)
			return s;
		if (bb__db_find_slot(d, name) >= 0)
			return bb__jfail(&d->j, "name", "duplicate slot name \"%s\"", name);
		if (!(sl->name = bb__strdup(name)))
			return bb__db_nomem(d);
		d->a->nslots = (int)i + 1;
		if ((sl->bone = bb__db_find_bone(d, bone)) < 0)
			return bb__jfail(&d->j, "parent", "unknown bone \"%s\"", bone);
		if ((s = bb__db_num(d, js, "displayIndex", 0, &di)) != BB_OK)
			return s;
		sl->setup_display = di < 0 ? -1 : (int)di;
		sl->blend = blend_mode(json_object_get(js, "blendMode"));
		bb__jpath_key(&d->j.path, "color");
		s = bb__db_color(d, json_object_get(js, "color"), &sl->color);
		if (s != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- displays --------------------------------------------------------- */

static bb_status add_display(struct db *d, bb_display **out)
{
	bb_display *ds = bb__realloc_array(d->a->displays,
	                                   (size_t)d->a->ndisplays + 1, sizeof *ds);

	if (!ds)
		return bb__db_nomem(d);
	d->a->displays = ds;
	*out = &ds[d->a->ndisplays++];
	memset(*out, 0, sizeof **out);
	(*out)->local = bb_affine_identity();
	return BB_OK;
}

static const bb__region *find_region(struct db *d, const char *name)
{
	const bb__region *r = d->have_atlas ? bb__atlas_find(&d->atlas, name) : NULL;

	if (!r)
		bb__model_warn(d->m, "%s: no atlas entry for \"%s\"; drawn as nothing",
		               d->ctx->name, name);
	return r;
}

static bb_status read_image(struct db *d, json_t *jd, bb_display *ds,
                            const char *path)
{
	const bb__region *r = find_region(d, path);
	json_t *pv = json_object_get(jd, "pivot");
	double px = 0.5, py = 0.5;
	bb_status s;

	if (pv && !json_is_null(pv)) {
		size_t mark = bb__jpath_key(&d->j.path, "pivot");

		if ((s = bb__jexpect_object(&d->j, pv)) != BB_OK ||
		    (s = bb__db_num(d, pv, "x", 0.5, &px)) != BB_OK ||
		    (s = bb__db_num(d, pv, "y", 0.5, &py)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	if (!r)
		return BB_OK;   /* stays BB_DISPLAY_NONE */
	ds->kind = BB_DISPLAY_IMAGE;
	ds->u.image.texture = r->texture;
	bb__region_quad(r, px, py, ds->u.image.corners, ds->u.image.uvs);
	return BB_OK;
}

/* The runtime's display types (DisplayType), by their number. */
static const char *const display_types[] = { "image", "armature", "mesh",
                                             "boundingBox", "path" };

/* A display's `type`: absent or null is an image; a string names a type
 * (compared ignoring case, as the runtime lowercases it); a number is the
 * runtime's DisplayType.  Anything else is an error naming the field. */
static bb_status display_type(struct db *d, json_t *jd, const char **out)
{
	json_t *v = json_object_get(jd, "type");
	size_t i;

	*out = display_types[0];
	if (!v || json_is_null(v))
		return BB_OK;
	if (json_is_string(v)) {
		for (i = 0; i < sizeof display_types / sizeof *display_types; i++)
			if (strcasecmp(json_string_value(v), display_types[i]) == 0) {
				*out = display_types[i];
				return BB_OK;
			}
		return bb__jfail(&d->j, "type", "unknown display type \"%s\" (image, "
		                 "armature, mesh, boundingBox or path)",
		                 json_string_value(v));
	}
	if (json_is_number(v)) {
		double n = json_number_value(v);

		if (n >= 0 && n < sizeof display_types / sizeof *display_types &&
		    n == floor(n)) {
			*out = display_types[(int)n];
			return BB_OK;
		}
		return bb__jfail(&d->j, "type", "unknown display type %g (0-4: image, "
		                 "armature, mesh, boundingBox, path)", n);
	}
	return bb__jfail(&d->j, "type", "expected a string or a number, found %s",
	                 bb__json_type_name(v));
}

static bb_status read_display(struct db *d, json_t *skin_slot, json_t *jd,
                              int display)
{
	bb_display *ds = &d->a->displays[display];
	const char *type, *name, *path;
	bb_xform x;
	bb_status s;

	if (!jd || json_is_null(jd))
		return BB_OK;
	if ((s = bb__jexpect_object(&d->j, jd)) != BB_OK ||
	    (s = bb__jstr(&d->j, jd, "name", 0, &name)) != BB_OK ||
	    (s = bb__jstr(&d->j, jd, "path", 0, &path)) != BB_OK ||
	    (s = display_type(d, jd, &type)) != BB_OK)
		return s;
	if (!name)
		name = path ? path : "";
	if (!path)
		path = name;
	if (!(ds->name = bb__strdup(name)))
		return bb__db_nomem(d);
	if ((s = read_transform(d, jd, &x)) != BB_OK)
		return s;
	ds = &d->a->displays[display];
	ds->local = bb__xform_matrix(&x);
	if (strcmp(type, "image") == 0)
		return read_image(d, jd, ds, path);
	if (strcmp(type, "mesh") == 0) {
		json_t *geo = jd;
		const char *share = json_string_value(json_object_get(jd, "share"));
		const bb__region *r;

		if (share) {
			/* reuse the geometry of another mesh of this skin */
			json_t *disp;
			size_t i;

			geo = NULL;
			json_array_foreach(json_object_get(skin_slot, "display"), i, disp)
				if (json_is_string(json_object_get(disp, "name")) &&
				    strcmp(json_string_value(json_object_get(disp, "name")),
				           share) == 0)
					geo = disp;
			if (!geo)
				return bb__jfail(&d->j, "share", "no mesh \"%s\" to share",
				                 share);
		}
		if (!(r = find_region(d, path)))
			return BB_OK;
		return bb__db_mesh_geometry(d, geo, ds, r, display);
	}
	if (strcmp(type, "armature") == 0) {
		json_t *acts = json_object_get(jd, "actions");
		size_t i;

		ds->kind = BB_DISPLAY_ARMATURE;
		ds->u.armature.armature = -1;
		ds->u.armature.anim = -1;
		for (i = 0; i < json_array_size(d->armatures); i++) {
			const char *an = json_string_value(json_object_get(
				json_array_get(d->armatures, i), "name"));
			if (an && strcmp(an, path) == 0)
				ds->u.armature.armature = (int)i;
		}
		if (ds->u.armature.armature < 0 || ds->u.armature.armature == d->arm)
			return bb__jfail(&d->j, "path", "no other armature \"%s\" in the file",
			                 path);
		/* the action that picks the child's animation */
		for (i = 0; i < json_array_size(acts); i++) {
			json_t *act = json_array_get(acts, i);
			const char *play = json_string_value(json_object_get(act, "gotoAndPlay"));
			struct db_fixup *f;

			if (!play && json_object_get(act, "type") &&
			    (json_is_string(json_object_get(act, "type"))
			     ? strcmp(json_string_value(json_object_get(act, "type")), "play") == 0
			     : json_number_value(json_object_get(act, "type")) == 0))
				play = json_string_value(json_object_get(act, "name"));
			if (!play)
				continue;
			if (!bb__grow((void **)&d->fixups, &d->fixups_cap,
			              (size_t)d->nfixups + 1, sizeof *d->fixups))
				return bb__db_nomem(d);
			f = &d->fixups[d->nfixups++];
			f->armature = d->arm;
			f->display = display;
			f->child = ds->u.armature.armature;
			if (!(f->anim = bb__strdup(play)))
				return bb__db_nomem(d);
			break;
		}
		return BB_OK;
	}
	/* boundingBox and path draw nothing */
	return BB_OK;
}

/* One skin's displays for every slot; slots the skin does not list take
 * the default skin's run (k > 0). */
static bb_status load_skin(struct db *d, int k, json_t *js)
{
	bb_skin *sk = &d->a->skins[k];
	json_t *slots = json_object_get(js, "slot"), *jsl;
	const char *name = json_string_value(json_object_get(js, "name"));
	size_t i, j;
	bb_status s;

	if (!(sk->name = bb__strdup(name && name[0] ? name : "default")))
		return bb__db_nomem(d);
	if (k > 0)
		for (i = 0; i < (size_t)d->a->nslots; i++) {
			sk->first[i] = d->a->skins[0].first[i];
			sk->count[i] = d->a->skins[0].count[i];
		}
	if (slots && !json_is_array(slots))
		return bb__jfail(&d->j, "slot", "expected an array");
	json_array_foreach(slots, i, jsl) {
		const char *sname;
		json_t *disps;
		int slot, first;
		size_t mark = bb__jpath_key(&d->j.path, "slot");

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__jexpect_object(&d->j, jsl)) != BB_OK ||
		    (s = bb__jstr(&d->j, jsl, "name", 1, &sname)) != BB_OK ||
		    (s = bb__jarray(&d->j, jsl, "display", 0, &disps)) != BB_OK)
			return s;
		if ((slot = bb__db_find_slot(d, sname)) < 0)
			return bb__jfail(&d->j, "name", "unknown slot \"%s\"", sname);
		first = d->a->ndisplays;
		for (j = 0; j < json_array_size(disps); j++) {
			bb_display *ds;

			if ((s = add_display(d, &ds)) != BB_OK)
				return s;
		}
		sk->first[slot] = first;
		sk->count[slot] = (int)json_array_size(disps);
		for (j = 0; j < json_array_size(disps); j++) {
			size_t m2 = bb__jpath_key(&d->j.path, "display");

			bb__jpath_index(&d->j.path, j);
			s = read_display(d, jsl, json_array_get(disps, j), first + (int)j);
			if (s != BB_OK)
				return s;
			bb__jpath_pop(&d->j.path, m2);
		}
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

static bb_status load_skins(struct db *d)
{
	json_t *skins, *def = NULL;
	size_t n, i;
	int k = 1;
	bb_status s;

	if ((s = bb__jarray(&d->j, d->ja, "skin", 0, &skins)) != BB_OK)
		return s;
	n = json_array_size(skins);
	if (n == 0)
		n = 1;  /* an empty default skin */
	d->a->skins = bb__calloc(n, sizeof *d->a->skins);
	d->skin_json = bb__calloc(n, sizeof *d->skin_json);
	if (!d->a->skins || !d->skin_json)
		return bb__db_nomem(d);
	/* the default skin (named "default", else the first) becomes skin 0 */
	for (i = 0; i < json_array_size(skins); i++) {
		const char *nm = json_string_value(json_object_get(json_array_get(skins, i),
		                                                   "name"));
		if (nm && strcmp(nm, "default") == 0)
			def = json_array_get(skins, i);
	}
	if (!def)
		def = json_array_get(skins, 0);
	d->skin_json[0] = def;
	for (i = 0; i < json_array_size(skins); i++)
		if (json_array_get(skins, i) != def)
			d->skin_json[k++] = json_array_get(skins, i);
	for (i = 0; i < n; i++) {
		bb_skin *sk = &d->a->skins[i];

		sk->first = bb__calloc((size_t)d->a->nslots, sizeof *sk->first);
		sk->count = bb__calloc((size_t)d->a->nslots, sizeof *sk->count);
		if (!sk->first || !sk->count)
			return bb__db_nomem(d);
		d->a->nskins = (int)i + 1;
	}
	for (i = 0; i < n; i++) {
		size_t mark = bb__jpath_key(&d->j.path, "skin");
		size_t fi;

		for (fi = 0; fi < json_array_size(skins); fi++)
			if (json_array_get(skins, fi) == d->skin_json[i])
				break;
		bb__jpath_index(&d->j.path, fi);
		if (d->skin_json[i] && (s = bb__jexpect_object(&d->j, d->skin_json[i])) != BB_OK)
			return s;
		if ((s = load_skin(d, (int)i, d->skin_json[i])) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- IK ---------------------------------------------------------------- */

static bb_status load_iks(struct db *d)
{
	json_t *iks;
	size_t i, n;
	bb_status s;

	if ((s = bb__jarray(&d->j, d->ja, "ik", 0, &iks)) != BB_OK)
		return s;
	n = json_array_size(iks);
	d->a->iks = bb__calloc(n, sizeof *d->a->iks);
	if (!d->a->iks)
		return bb__db_nomem(d);
	for (i = 0; i < n; i++) {
		json_t *ji = json_array_get(iks, i);
		bb_ik *ik = &d->a->iks[i];
		const char *name, *bone, *target;
		double chain;
		size_t mark = bb__jpath_key(&d->j.path, "ik");

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__jexpect_object(&d->j, ji)) != BB_OK ||
		    (s = bb__jstr(&d->j, ji, "name", 0, &name)) != BB_OK ||
		    (s = bb__jstr(&d->j, ji, "bone", 1, &bone)) != BB_OK ||
		    (s = bb__jstr(&d->j, ji, "target", 1, &target)) != BB_OK ||
		    (s = bb__db_bool(d, ji, "bendPositive", 1, &ik->bend_positive)) != BB_OK ||
		    (s = bb__db_num(d, ji, "chain", 0, &chain)) != BB_OK ||
		    (s = bb__db_num(d, ji, "weight", 1, &ik->weight)) != BB_OK)
			return s;
		if (!(ik->name = bb__strdup(name ? name : bone)))
			return bb__db_nomem(d);
		d->a->niks = (int)i + 1;
		if ((ik->bone = bb__db_find_bone(d, bone)) < 0)
			return bb__jfail(&d->j, "bone", "unknown bone \"%s\"", bone);
		if ((ik->target = bb__db_find_bone(d, target)) < 0)
			return bb__jfail(&d->j, "target", "unknown bone \"%s\"", target);
		ik->chain = chain > 0 && d->a->bones[ik->bone].parent >= 0 ? 1 : 0;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- armatures --------------------------------------------------------- */

static bb_status load_armature(struct db *d, int i)
{
	const char *name;
	double fps;
	bb_status s;
	int k;

	for (k = 0; k < d->nmeshes; k++)
		free(d->meshes[k].inv_bone_pose);
	free(d->bone_of_file);
	free(d->skin_json);
	d->bone_of_file = NULL;
	d->skin_json = NULL;
	d->arm = i;
	d->a = &d->m->armatures[i];
	d->ja = json_array_get(d->armatures, (size_t)i);
	d->nmeshes = 0;
	bb__jpath_init(&d->j.path);
	bb__jpath_key(&d->j.path, "armature");
	bb__jpath_index(&d->j.path, (size_t)i);
	if ((s = bb__jexpect_object(&d->j, d->ja)) != BB_OK ||
	    (s = bb__jstr(&d->j, d->ja, "name", 1, &name)) != BB_OK ||
	    (s = bb__db_num(d, d->ja, "frameRate", d->file_fps, &fps)) != BB_OK)
		return s;
	d->fps = fps > 0 ? fps : d->file_fps;
	d->a->fps = d->fps;
	if (!(d->a->name = bb__strdup(name)))
		return bb__db_nomem(d);
	if ((s = load_bones(d)) != BB_OK || (s = load_slots(d)) != BB_OK ||
	    (s = load_skins(d)) != BB_OK || (s = load_iks(d)) != BB_OK ||
	    (s = bb__db_load_animations(d)) != BB_OK)
		return s;
	return BB_OK;
}

/* Numbered pages <dir>/<stem><infix>N.json from N = 0 or 1 up to the first
 * gap, all loaded; *found counts them. */
static bb_status load_numbered(struct db *d, const char *stem,
                               const char *infix, int *found)
{
	char cand[8192];
	struct stat st;
	int k;
	bb_status s;

	*found = 0;
	for (k = 0; k < 64; k++) {
		snprintf(cand, sizeof cand, "%s/%s%s%d.json", d->ctx->dir, stem, infix, k);
		if (stat(cand, &st) != 0) {
			if (k == 0)
				continue;   /* numbering may start at 1 */
			break;
		}
		d->have_atlas = 1;
		++*found;
		if ((s = bb__atlas_load_json(d->m, cand, &d->atlas, d->j.err)) != BB_OK)
			return s;
	}
	return BB_OK;
}

/* Pages beside the skeleton, the first form found: <base>_tex.json,
 * <base>_tex_N.json (several pages), <base>_texture_N.json (the 4.5
 * exporter's Knight_texture_1.json), or texture.json (4.5 layout); --atlas
 * overrides. */
static bb_status load_atlases(struct db *d)
{
	const char *path = d->ctx->path, *base = bb__basename(path);
	char stem[512], cand[8192];
	struct stat st;
	size_t n = strlen(base);
	int found;
	bb_status s;

	if (d->ctx->opts->atlas_path) {
		s = bb__atlas_load_json(d->m, d->ctx->opts->atlas_path, &d->atlas,
		                        d->j.err);
		d->have_atlas = s == BB_OK;
		return s;
	}
	if (n > 9 && strcmp(base + n - 9, "_ske.json") == 0)
		snprintf(stem, sizeof stem, "%.*s", (int)(n - 9), base);
	else
		snprintf(stem, sizeof stem, "%.*s", (int)(n > 5 ? n - 5 : n), base);
	snprintf(cand, sizeof cand, "%s/%s_tex.json", d->ctx->dir, stem);
	if (stat(cand, &st) == 0) {
		d->have_atlas = 1;
		return bb__atlas_load_json(d->m, cand, &d->atlas, d->j.err);
	}
	if ((s = load_numbered(d, stem, "_tex_", &found)) != BB_OK || found)
		return s;
	if ((s = load_numbered(d, stem, "_texture_", &found)) != BB_OK || found)
		return s;
	snprintf(cand, sizeof cand, "%s/texture.json", d->ctx->dir);
	if (stat(cand, &st) == 0) {
		d->have_atlas = 1;
		return bb__atlas_load_json(d->m, cand, &d->atlas, d->j.err);
	}
	bb__model_warn(d->m, "%s: no texture atlas found (%s_tex.json, "
	               "%s_tex_N.json, %s_texture_N.json or texture.json; --atlas "
	               "names one); images are not drawn", d->ctx->name, stem, stem,
	               stem);
	return BB_OK;
}

static bb_status resolve_fixups(struct db *d)
{
	int i, k;

	for (i = 0; i < d->nfixups; i++) {
		struct db_fixup *f = &d->fixups[i];
		const bb_armature *child = &d->m->armatures[f->child];

		for (k = 0; k < child->nanims; k++)
			if (strcmp(child->anims[k].name, f->anim) == 0)
				d->m->armatures[f->armature].displays[f->display].u.armature.anim = k;
		if (d->m->armatures[f->armature].displays[f->display].u.armature.anim < 0)
			bb__model_warn(d->m, "%s: armature \"%s\" has no animation \"%s\"; "
			               "its default plays", d->ctx->name, child->name, f->anim);
	}
	return BB_OK;
}

int bb__sniff_dragonbones(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"armature\"") != NULL &&
	       (strstr(data, "\"frameRate\"") != NULL ||
	        strstr(data, "\"version\"") != NULL);
}

static bb_status load_root(struct db *d, json_t *root)
{
	const char *ver;
	json_t *v;
	size_t i, n;
	bb_status s;

	if ((s = bb__jexpect_object(&d->j, root)) != BB_OK)
		return s;
	v = json_object_get(root, "version");
	ver = json_is_string(v) ? json_string_value(v) : NULL;
	d->version = ver ? strtod(ver, NULL) : json_is_number(v) ? json_number_value(v) : 5.5;
	if (d->version < 4.0 - 1e-9 && ver)
		return bb__jfail(&d->j, "version", "data version %s is not supported "
		                 "(2.3, 3.0 and 4.0 on are)", ver);
	if (d->version < 4.0 - 1e-9)
		return bb__jfail(&d->j, "version", "data version %g is not supported "
		                 "(2.3, 3.0 and 4.0 on are)", d->version);
	if ((s = bb__db_num(d, root, "frameRate", 24, &d->file_fps)) != BB_OK)
		return s;
	if (!(d->file_fps > 0))
		d->file_fps = 24;
	if ((s = bb__jarray(&d->j, root, "armature", 1, &d->armatures)) != BB_OK)
		return s;
	n = json_array_size(d->armatures);
	if (n == 0)
		return bb__jfail(&d->j, "armature", "no armatures");
	if ((s = load_atlases(d)) != BB_OK)
		return s;
	for (i = 0; i < n; i++)
		if (!bb__model_add_armature(d->m))
			return bb__db_nomem(d);
	for (i = 0; i < n; i++)
		if ((s = load_armature(d, (int)i)) != BB_OK)
			return s;
	bb__model_pick_default_armature(d->m);
	return resolve_fixups(d);
}

bb_status bb__load_dragonbones(bb__load_ctx *ctx, json_t *root, bb_model *m)
{
	struct db d;
	json_t *doc = NULL;
	bb_status s = BB_OK;
	int i;

	memset(&d, 0, sizeof d);
	d.ctx = ctx;
	d.j.file = ctx->name;
	d.j.err = ctx->err;
	bb__jpath_init(&d.j.path);
	d.m = m;
	if (bb__db23_is_old(root))
		s = bb__db23_translate(&d, root, &doc);
	if (s == BB_OK)
		s = load_root(&d, doc ? doc : root);
	bb__json_free(doc);
	for (i = 0; i < d.nmeshes; i++)
		free(d.meshes[i].inv_bone_pose);
	free(d.meshes);
	for (i = 0; i < d.nfixups; i++)
		free(d.fixups[i].anim);
	free(d.fixups);
	free(d.bone_of_file);
	free(d.skin_json);
	bb__atlas_free(&d.atlas);
	return s;
}
