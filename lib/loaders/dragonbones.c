/* DragonBones JSON (data versions 4.5, 5.0, 5.5+; 4.0 where it matches;
 * 2.3 and 3.0 translated by dragonbones23.c):
 * armatures, bones with inherit flags, slots, skins, image / mesh / nested
 * armature displays, IK constraints, and the texture atlas beside the file.
 * Semantics: ../shared/spec/dragonbones.md (5.5+ runtime behaviour).
 * Numbers and booleans are read by the runtime's lenient rules (spec
 * section 0: the reader's BB_J_LENIENT_* flags).
 * Animations are in dragonbones-anim.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loaders/dragonbones.h"


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

/* obj.transform {x, y, skX, skY, scX, scY} (degrees) -> bb_xform. */
static bb_status read_transform(struct db *d, json_t *obj, bb_xform *x)
{
	double skx, sky, v;
	json_t *t;
	size_t mark;
	bb_status s;

	*x = bb__xform_identity();
	if ((s = bb__jobject(d->j, obj, "transform", 0, &t)) != BB_OK || !t)
		return s;
	mark = bb__jpath_key(&d->j->path, "transform");
	if ((s = bb__jnum(d->j, t, "x", 0, &x->x)) != BB_OK ||
	    (s = bb__jnum(d->j, t, "y", 0, &x->y)) != BB_OK ||
	    (s = bb__jnum(d->j, t, "skX", 0, &skx)) != BB_OK ||
	    (s = bb__jnum(d->j, t, "skY", 0, &sky)) != BB_OK ||
	    (s = bb__jnum(d->j, t, "scX", 1, &x->sx)) != BB_OK ||
	    (s = bb__jnum(d->j, t, "scY", 1, &x->sy)) != BB_OK)
		return s;
	if (bb__jhas(t, "rotate") || bb__jhas(t, "skew")) {
		if ((s = bb__jnum(d->j, t, "rotate", 0, &v)) != BB_OK)
			return s;
		x->rotation = bb__norm_angle(v * BB__DEG);
		if ((s = bb__jnum(d->j, t, "skew", 0, &v)) != BB_OK)
			return s;
		x->skew = bb__norm_angle(v * BB__DEG);
	} else {
		x->rotation = bb__norm_angle(sky * BB__DEG);
		x->skew = bb__norm_angle(skx * BB__DEG) - x->rotation;
	}
	bb__jpath_pop(&d->j->path, mark);
	return BB_OK;
}

/* ---- bones ------------------------------------------------------------ */

static bb_status read_bone(struct db *d, json_t *jb, bb_bone *b)
{
	int f[4];
	bb_status s;

	if ((s = read_transform(d, jb, &b->setup)) != BB_OK ||
	    (s = bb__jnum(d->j, jb, "length", 0, &b->length)) != BB_OK ||
	    (s = bb__jbool(d->j, jb, "inheritTranslation", 1, &f[0])) != BB_OK ||
	    (s = bb__jbool(d->j, jb, "inheritRotation", 1, &f[1])) != BB_OK ||
	    (s = bb__jbool(d->j, jb, "inheritScale", 1, &f[2])) != BB_OK ||
	    (s = bb__jbool(d->j, jb, "inheritReflection", 1, &f[3])) != BB_OK)
		return s;
	b->inherit = BB_INHERIT_FLAGS;
	b->flags = (f[0] ? BB_INHERIT_TRANSLATION : 0) |
	           (f[1] ? BB_INHERIT_ROTATION : 0) |
	           (f[2] ? BB_INHERIT_SCALE : 0) |
	           (f[3] ? BB_INHERIT_REFLECTION : 0);
	return BB_OK;
}

/* The file's bones (path at armature[i]): names, then parents and setup
 * poses in file order, then placed parents first; what never becomes
 * placeable is a cycle. */
static bb_status load_bones(struct db *d, json_t *ja)
{
	size_t n, i, k;
	const char **name = NULL;
	int *parent = NULL, *placed = NULL, done = 0, progress = 1;
	bb_bone *file = NULL;
	bb__jiter it;
	json_t *jb;
	bb_status s;

	if ((s = bb__jeach(d->j, ja, "bone", 0, &it)) != BB_OK)
		return s;
	n = it.n;
	if ((s = bb__build_bones(d->b, d->a, n)) != BB_OK)
		return s;
	d->nfile_bones = (int)n;
	d->bone_of_file = bb__calloc(n, sizeof *d->bone_of_file);
	name = bb__calloc(n, sizeof *name);
	parent = bb__calloc(n, sizeof *parent);
	placed = bb__calloc(n, sizeof *placed);
	file = bb__calloc(n, sizeof *file);
	if (!d->bone_of_file || !name || !parent || !placed || !file) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	while (bb__jnext(&it, &jb)) {
		i = it.index;
		if ((s = bb__jstr(d->j, jb, "name", 1, &name[i])) != BB_OK)
			goto out;
		for (k = 0; k < i; k++)
			if (strcmp(name[k], name[i]) == 0) {
				s = bb__jfail(d->j, "name", "duplicate bone name \"%s\"", name[i]);
				goto out;
			}
	}
	bb__jeach(d->j, ja, "bone", 0, &it);
	while (bb__jnext(&it, &jb)) {
		const char *pname;

		i = it.index;
		if ((s = bb__jstr(d->j, jb, "parent", 0, &pname)) != BB_OK)
			goto out;
		parent[i] = -1;
		for (k = 0; pname && k < n; k++)
			if (strcmp(name[k], pname) == 0)
				parent[i] = (int)k;
		if (pname && parent[i] < 0)
			s = bb__jfail(d->j, "parent", "unknown bone \"%s\"", pname);
		else if (parent[i] == (int)i)
			s = bb__jfail(d->j, "parent", "bone \"%s\" is its own parent",
			              name[i]);
		else
			s = read_bone(d, jb, &file[i]);
		if (s != BB_OK)
			goto out;
	}
	while ((size_t)done < n && progress) {
		progress = 0;
		for (i = 0; i < n; i++) {
			bb_bone *b = &d->a->bones[done];

			if (placed[i] || (parent[i] >= 0 && !placed[parent[i]]))
				continue;
			*b = file[i];
			if ((s = bb__build_str(d->b, &b->name, name[i])) != BB_OK)
				goto out;
			b->parent = parent[i] >= 0 ? d->bone_of_file[parent[i]] : -1;
			d->bone_of_file[i] = done++;
			placed[i] = progress = 1;
		}
	}
	if ((size_t)done < n) {
		for (i = 0; placed[i]; i++)
			;
		bb__jpath_key(&d->j->path, "bone");
		bb__jpath_index(&d->j->path, i);
		s = bb__jfail(d->j, "parent", "bone hierarchy has a cycle through \"%s\"",
		              name[i]);
	}
out:
	free(name);
	free(parent);
	free(placed);
	free(file);
	return s;
}

/* ---- slots ------------------------------------------------------------ */

/* A slot's blendMode: the runtime's name or number; the modes bonebake
 * does not draw are normal. */
static bb_status blend_mode(struct db *d, json_t *js, bb_blend *out)
{
	static const struct { const char *name; int num; bb_blend b; } modes[] = {
		{ "normal", 0, BB_BLEND_NORMAL }, { "add", 1, BB_BLEND_ADD },
		{ "multiply", 10, BB_BLEND_MULTIPLY }, { "screen", 12, BB_BLEND_SCREEN },
		{ "subtract", 13, BB_BLEND_SUBTRACT },
	};
	bb__jkind k = bb__jkind_of(js, "blendMode");
	const char *name = NULL;
	double num = -1;
	size_t i;

	*out = BB_BLEND_NORMAL;
	if (k == BB_JK_STRING)
		bb__jstr(d->j, js, "blendMode", 0, &name);
	else if (k == BB_JK_NUMBER)
		bb__jnum(d->j, js, "blendMode", -1, &num);
	else if (k != BB_JK_ABSENT)
		return bb__jfail(d->j, "blendMode", "expected a string or a number, "
		                 "found %s", bb__jkind_name(k));
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (name ? strcmp(name, modes[i].name) == 0 : num == modes[i].num)
			*out = modes[i].b;
	return BB_OK;
}

bb_status bb__db_color(struct db *d, json_t *obj, const char *key,
                       bb_color_xform *out)
{
	static const char *const keys[8] = { "aM", "rM", "gM", "bM", "aO", "rO",
	                                     "gO", "bO" };
	double v[8];
	json_t *c;
	size_t mark;
	int i;
	bb_status s;

	*out = bb_color_xform_identity();
	if ((s = bb__jobject(d->j, obj, key, 0, &c)) != BB_OK || !c)
		return s;
	mark = bb__jpath_key(&d->j->path, key);
	for (i = 0; i < 8; i++)
		if ((s = bb__jnum(d->j, c, keys[i], i < 4 ? 100 : 0, &v[i])) != BB_OK)
			return s;
	bb__jpath_pop(&d->j->path, mark);
	out->mul = (bb_rgba){ v[1] / 100, v[2] / 100, v[3] / 100, v[0] / 100 };
	out->add = (bb_rgba){ v[5] / 255, v[6] / 255, v[7] / 255, v[4] / 255 };
	return BB_OK;
}

static bb_status load_slots(struct db *d, json_t *ja)
{
	bb__jiter it;
	json_t *js;
	bb_status s;

	if ((s = bb__jeach(d->j, ja, "slot", 0, &it)) != BB_OK ||
	    (s = bb__build_slots(d->b, d->a, it.n)) != BB_OK)
		return s;
	while (bb__jnext(&it, &js)) {
		bb_slot *sl = &d->a->slots[it.index];
		const char *name, *bone;
		double di;

		if ((s = bb__jstr(d->j, js, "name", 1, &name)) != BB_OK ||
		    (s = bb__jstr(d->j, js, "parent", 1, &bone)) != BB_OK)
			return s;
		if (bb__build_find_slot(d->a, name) >= 0)
			return bb__jfail(d->j, "name", "duplicate slot name \"%s\"", name);
		if ((s = bb__build_str(d->b, &sl->name, name)) != BB_OK)
			return s;
		if ((sl->bone = bb__build_find_bone(d->a, bone)) < 0)
			return bb__jfail(d->j, "parent", "unknown bone \"%s\"", bone);
		if ((s = bb__jnum(d->j, js, "displayIndex", 0, &di)) != BB_OK ||
		    (s = blend_mode(d, js, &sl->blend)) != BB_OK ||
		    (s = bb__db_color(d, js, "color", &sl->color)) != BB_OK)
			return s;
		sl->setup_display = di < 0 ? -1 : di > 1e6 ? 1000000 : (int)di;
	}
	return BB_OK;
}

/* ---- displays --------------------------------------------------------- */

static const bb__region *find_region(struct db *d, const char *name)
{
	const bb__region *r = d->have_atlas ? bb__atlas_find(&d->atlas, name) : NULL;

	/* without an atlas one warning has said that no image is drawn */
	if (!r && d->have_atlas)
		bb__model_warn(d->m, "%s: no atlas entry for \"%s\"; drawn as nothing",
		               d->c->name, name);
	return r;
}

static bb_status read_image(struct db *d, json_t *jd, bb_display *ds,
                            const char *path)
{
	const bb__region *r = find_region(d, path);
	double px = 0.5, py = 0.5;
	json_t *pv;
	size_t mark;
	bb_status s;

	if ((s = bb__jobject(d->j, jd, "pivot", 0, &pv)) != BB_OK)
		return s;
	mark = bb__jpath_key(&d->j->path, "pivot");
	if ((s = bb__jnum(d->j, pv, "x", 0.5, &px)) != BB_OK ||
	    (s = bb__jnum(d->j, pv, "y", 0.5, &py)) != BB_OK)
		return s;
	bb__jpath_pop(&d->j->path, mark);
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
	bb__jkind k = bb__jkind_of(jd, "type");
	const char *name;
	double n;
	size_t i;

	*out = display_types[0];
	switch (k) {
	case BB_JK_ABSENT:
		return BB_OK;
	case BB_JK_STRING:
		bb__jstr(d->j, jd, "type", 0, &name);
		for (i = 0; i < sizeof display_types / sizeof *display_types; i++)
			if (strcasecmp(name, display_types[i]) == 0) {
				*out = display_types[i];
				return BB_OK;
			}
		return bb__jfail(d->j, "type", "unknown display type \"%s\" (image, "
		                 "armature, mesh, boundingBox or path)", name);
	case BB_JK_NUMBER:
		bb__jnum(d->j, jd, "type", 0, &n);
		if (n >= 0 && n < sizeof display_types / sizeof *display_types &&
		    n == floor(n)) {
			*out = display_types[(int)n];
			return BB_OK;
		}
		return bb__jfail(d->j, "type", "unknown display type %g (0-4: image, "
		                 "armature, mesh, boundingBox, path)", n);
	case BB_JK_BOOL:
	case BB_JK_ARRAY:
	case BB_JK_OBJECT:
		break;
	}
	return bb__jfail(d->j, "type", "expected a string or a number, found %s",
	                 bb__jkind_name(k));
}

/* The display of skin slot `skin_slot` named `name` (a mesh to share the
 * geometry of), or NULL. */
static json_t *display_named(struct db *d, json_t *skin_slot, const char *name)
{
	bb__jctx quiet = *d->j;
	json_t *disp, *found = NULL;
	const char *nm;
	bb__jiter it;

	quiet.err = NULL;
	bb__jeach(&quiet, skin_slot, "display", 0, &it);
	while (bb__jnext(&it, &disp))
		if (bb__jstr(&quiet, disp, "name", 0, &nm) == BB_OK && nm &&
		    strcmp(nm, name) == 0)
			found = disp;
	return found;
}

/* The action of a nested armature's display that picks the child's
 * animation (gotoAndPlay, or a "play" action), into a fixup. */
static bb_status armature_action(struct db *d, json_t *jd, int display,
                                 int child)
{
	const char *play, *type_name;
	struct db_fixup *f;
	bb__jiter it;
	json_t *act;
	double type;
	bb_status s;

	if ((s = bb__jeach(d->j, jd, "actions", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &act)) {
		if ((s = bb__jstr(d->j, act, "gotoAndPlay", 0, &play)) != BB_OK)
			return s;
		if (!play && bb__jhas(act, "type")) {
			type_name = NULL;
			type = -1;
			if (bb__jkind_of(act, "type") == BB_JK_STRING)
				s = bb__jstr(d->j, act, "type", 0, &type_name);
			else
				s = bb__jnum(d->j, act, "type", -1, &type);
			if (s == BB_OK && (type_name ? strcmp(type_name, "play") == 0
			                             : type == 0))
				s = bb__jstr(d->j, act, "name", 0, &play);
			if (s != BB_OK)
				return s;
		}
		if (!play)
			continue;
		bb__jdone(&it);
		if (!bb__grow((void **)&d->fixups, &d->fixups_cap,
		              (size_t)d->nfixups + 1, sizeof *d->fixups))
			return bb__build_nomem(d->b);
		f = &d->fixups[d->nfixups++];
		memset(f, 0, sizeof *f);
		f->armature = d->arm;
		f->display = display;
		f->child = child;
		return bb__build_str(d->b, &f->anim, play);
	}
	return BB_OK;
}

static bb_status read_display(struct db *d, json_t *skin_slot, json_t *jd,
                              int display)
{
	const char *type, *name, *path, *share;
	const bb__region *r;
	bb_display *ds;
	bb_xform x;
	json_t *geo = jd;
	int i;
	bb_status s;

	if (bb__jkind_of(jd, NULL) == BB_JK_ABSENT)
		return BB_OK;
	if ((s = bb__jexpect_object(d->j, jd)) != BB_OK ||
	    (s = bb__jstr(d->j, jd, "name", 0, &name)) != BB_OK ||
	    (s = bb__jstr(d->j, jd, "path", 0, &path)) != BB_OK ||
	    (s = display_type(d, jd, &type)) != BB_OK ||
	    (s = bb__jstr(d->j, jd, "share", 0, &share)) != BB_OK)
		return s;
	if (!name)
		name = path ? path : "";
	if (!path)
		path = name;
	if ((s = bb__build_str(d->b, &d->a->displays[display].name, name)) != BB_OK ||
	    (s = read_transform(d, jd, &x)) != BB_OK)
		return s;
	ds = &d->a->displays[display];
	ds->local = bb__xform_matrix(&x);
	if (strcmp(type, "image") == 0)
		return read_image(d, jd, ds, path);
	if (strcmp(type, "mesh") == 0) {
		/* share: the geometry of another mesh of this skin slot */
		if (share && !(geo = display_named(d, skin_slot, share)))
			return bb__jfail(d->j, "share", "no mesh \"%s\" to share", share);
		if (!(r = find_region(d, path)))
			return BB_OK;
		return bb__db_mesh_geometry(d, geo, ds, r, display);
	}
	if (strcmp(type, "armature") == 0) {
		ds->kind = BB_DISPLAY_ARMATURE;
		ds->u.armature.armature = -1;
		ds->u.armature.anim = -1;
		for (i = 0; i < d->narms; i++)
			if (d->arm_names[i] && strcmp(d->arm_names[i], path) == 0)
				ds->u.armature.armature = i;
		if (ds->u.armature.armature < 0 || ds->u.armature.armature == d->arm)
			return bb__jfail(d->j, "path", "no other armature \"%s\" in the file",
			                 path);
		return armature_action(d, jd, display, ds->u.armature.armature);
	}
	/* boundingBox and path draw nothing */
	return BB_OK;
}

/* Skin js (path at it) as model skin k: its displays for every slot it
 * lists; the slots it does not list take the default skin's run (k > 0). */
static bb_status load_skin(struct db *d, int k, json_t *js)
{
	const char *name, *sname;
	bb__jiter it, dt;
	json_t *jsl, *jd;
	bb_skin *sk;
	int i, slot, first;
	bb_status s;

	/* a skin named by something else than a string (2.3's 0) is the
	 * default one */
	name = NULL;
	if (bb__jkind_of(js, "name") == BB_JK_STRING &&
	    (s = bb__jstr(d->j, js, "name", 0, &name)) != BB_OK)
		return s;
	if ((s = bb__build_skin(d->b, d->a, name && name[0] ? name : "default", 0,
	                        &sk)) != BB_OK)
		return s;
	for (i = 0; k > 0 && i < d->a->nslots; i++) {
		sk->first[i] = d->a->skins[0].first[i];
		sk->count[i] = d->a->skins[0].count[i];
	}
	if ((s = bb__jeach(d->j, js, "slot", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jsl)) {
		if ((s = bb__jstr(d->j, jsl, "name", 1, &sname)) != BB_OK ||
		    (s = bb__jeach(d->j, jsl, "display", 0, &dt)) != BB_OK)
			return s;
		if ((slot = bb__build_find_slot(d->a, sname)) < 0)
			return bb__jfail(d->j, "name", "unknown slot \"%s\"", sname);
		if ((s = bb__build_displays(d->b, d->a, (int)dt.n, &first)) != BB_OK)
			return s;
		sk = &d->a->skins[k];
		sk->first[slot] = first;
		sk->count[slot] = (int)dt.n;
		while (bb__jnext(&dt, &jd))
			if ((s = read_display(d, jsl, jd, first + (int)dt.index)) != BB_OK)
				return s;
	}
	return BB_OK;
}

/* The skins: the default one (named "default", else the first) becomes
 * skin 0, the others follow in file order; no skin is an empty default. */
static bb_status load_skins(struct db *d, json_t *ja)
{
	bb__jctx quiet = *d->j;
	const char *name;
	bb__jiter it;
	json_t *js;
	size_t def = 0;
	int pass;
	bb_status s;

	quiet.err = NULL;
	if ((s = bb__jeach(d->j, ja, "skin", 0, &it)) != BB_OK)
		return s;
	if (it.n == 0) {
		bb_skin *sk;

		bb__jdone(&it);
		return bb__build_skin(d->b, d->a, "default", 0, &sk);
	}
	while (bb__jnext(&it, &js))
		if (bb__jstr(&quiet, js, "name", 0, &name) == BB_OK && name &&
		    strcmp(name, "default") == 0)
			def = it.index;
	for (pass = 0; pass < 2; pass++) {
		bb__jeach(d->j, ja, "skin", 0, &it);
		while (bb__jnext(&it, &js))
			if ((it.index == def) == (pass == 0) &&
			    (s = load_skin(d, d->a->nskins, js)) != BB_OK)
				return s;
	}
	return BB_OK;
}

/* ---- IK ---------------------------------------------------------------- */

static bb_status load_iks(struct db *d, json_t *ja)
{
	bb__jiter it;
	json_t *ji;
	bb_status s;

	if ((s = bb__jeach(d->j, ja, "ik", 0, &it)) != BB_OK ||
	    (s = bb__build_iks(d->b, d->a, it.n)) != BB_OK)
		return s;
	while (bb__jnext(&it, &ji)) {
		bb_ik *ik = &d->a->iks[it.index];
		const char *name, *bone, *target;
		double chain;

		if ((s = bb__jstr(d->j, ji, "name", 0, &name)) != BB_OK ||
		    (s = bb__jstr(d->j, ji, "bone", 1, &bone)) != BB_OK ||
		    (s = bb__jstr(d->j, ji, "target", 1, &target)) != BB_OK ||
		    (s = bb__jbool(d->j, ji, "bendPositive", 1, &ik->bend_positive)) != BB_OK ||
		    (s = bb__jnum(d->j, ji, "chain", 0, &chain)) != BB_OK ||
		    (s = bb__jnum(d->j, ji, "weight", 1, &ik->weight)) != BB_OK ||
		    (s = bb__build_str(d->b, &ik->name, name ? name : bone)) != BB_OK)
			return s;
		if ((ik->bone = bb__build_find_bone(d->a, bone)) < 0)
			return bb__jfail(d->j, "bone", "unknown bone \"%s\"", bone);
		if ((ik->target = bb__build_find_bone(d->a, target)) < 0)
			return bb__jfail(d->j, "target", "unknown bone \"%s\"", target);
		ik->chain = chain > 0 && d->a->bones[ik->bone].parent >= 0 ? 1 : 0;
	}
	return BB_OK;
}

/* ---- armatures --------------------------------------------------------- */

/* Armature i of the file, ja (path at it). */
static bb_status load_armature(struct db *d, int i, json_t *ja)
{
	const char *name;
	double fps;
	bb_status s;
	int k;

	for (k = 0; k < d->nmeshes; k++)
		free(d->meshes[k].inv_bone_pose);
	free(d->bone_of_file);
	d->bone_of_file = NULL;
	d->nmeshes = 0;
	d->arm = i;
	d->a = &d->m->armatures[i];
	if ((s = bb__jstr(d->j, ja, "name", 1, &name)) != BB_OK ||
	    (s = bb__jnum(d->j, ja, "frameRate", d->file_fps, &fps)) != BB_OK ||
	    (s = bb__build_str(d->b, &d->a->name, name)) != BB_OK)
		return s;
	d->fps = fps > 0 ? fps : d->file_fps;
	d->a->fps = d->fps;
	if ((s = load_bones(d, ja)) != BB_OK || (s = load_slots(d, ja)) != BB_OK ||
	    (s = load_skins(d, ja)) != BB_OK || (s = load_iks(d, ja)) != BB_OK ||
	    (s = bb__db_load_animations(d, ja)) != BB_OK)
		return s;
	return BB_OK;
}

/* The atlas `rel` beside the skeleton, when it is there: *found = 1. */
static bb_status try_atlas(struct db *d, const char *rel, int *found)
{
	bb__ref r = { .what = "atlas", .name = rel };
	int have = bb__load_exists(d->c, &r);

	*found = have > 0;
	if (have < 0)
		return BB_ERR_INPUT;
	if (!have)
		return BB_OK;
	d->have_atlas = 1;
	return bb__atlas_load_json(d->c, &r, &d->atlas);
}

/* Numbered pages <stem><infix>N.json from N = 0 or 1 up to the first gap,
 * all loaded; *found counts them. */
static bb_status load_numbered(struct db *d, const char *stem,
                               const char *infix, int *found)
{
	char rel[1100];
	int k, have;
	bb_status s;

	*found = 0;
	for (k = 0; k < 64; k++) {
		snprintf(rel, sizeof rel, "%s%s%d.json", stem, infix, k);
		if ((s = try_atlas(d, rel, &have)) != BB_OK)
			return s;
		if (!have && k > 0)
			break;          /* numbering may start at 1 */
		*found += have;
	}
	return BB_OK;
}

/* Pages beside the skeleton, the first form found: <base>_tex.json,
 * <base>_tex_N.json (several pages), <base>_texture_N.json (the 4.5
 * exporter's Knight_texture_1.json), or texture.json (4.5 layout); --atlas
 * overrides. */
static bb_status load_atlases(struct db *d)
{
	const char *base = d->c->name;
	char stem[512], rel[1100];
	size_t n = strlen(base);
	int found;
	bb_status s;

	if (d->c->opts->atlas_path) {
		s = bb__atlas_load_json(d->c, &(bb__ref){ .what = "atlas",
		                                         .name = d->c->opts->atlas_path,
		                                         .dir = "" }, &d->atlas);
		d->have_atlas = s == BB_OK;
		return s;
	}
	if (n > 9 && strcmp(base + n - 9, "_ske.json") == 0)
		snprintf(stem, sizeof stem, "%.*s", (int)(n - 9), base);
	else
		snprintf(stem, sizeof stem, "%.*s", (int)(n > 5 ? n - 5 : n), base);
	snprintf(rel, sizeof rel, "%s_tex.json", stem);
	if ((s = try_atlas(d, rel, &found)) != BB_OK || found ||
	    (s = load_numbered(d, stem, "_tex_", &found)) != BB_OK || found ||
	    (s = load_numbered(d, stem, "_texture_", &found)) != BB_OK || found ||
	    (s = try_atlas(d, "texture.json", &found)) != BB_OK || found)
		return s;
	bb__model_warn(d->m, "%s: no texture atlas found (%s_tex.json, "
	               "%s_tex_N.json, %s_texture_N.json or texture.json; --atlas "
	               "names one); images are not drawn", d->c->name, stem, stem,
	               stem);
	return BB_OK;
}

static void resolve_fixups(struct db *d)
{
	int i, k;

	for (i = 0; i < d->nfixups; i++) {
		struct db_fixup *f = &d->fixups[i];
		const bb_armature *child = &d->m->armatures[f->child];
		bb_display *ds = &d->m->armatures[f->armature].displays[f->display];

		for (k = 0; k < child->nanims; k++)
			if (strcmp(child->anims[k].name, f->anim) == 0)
				ds->u.armature.anim = k;
		if (ds->u.armature.anim < 0)
			bb__model_warn(d->m, "%s: armature \"%s\" has no animation \"%s\"; "
			               "its default plays", d->c->name, child->name, f->anim);
	}
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
	const char *ver = NULL;
	bb__jctx quiet = *d->j;
	bb__jiter it;
	json_t *ja;
	bb_status s;

	quiet.err = NULL;
	if ((s = bb__jexpect_object(d->j, root)) != BB_OK)
		return s;
	if (bb__jkind_of(root, "version") == BB_JK_STRING)
		bb__jstr(d->j, root, "version", 0, &ver);
	else if (bb__jkind_of(root, "version") != BB_JK_NUMBER ||
	         bb__jnum(&quiet, root, "version", 5.5, &d->version) != BB_OK)
		d->version = 5.5;
	if (ver)
		d->version = strtod(ver, NULL);
	if (d->version < 4.0 - 1e-9 && ver)
		return bb__jfail(d->j, "version", "data version %s is not supported "
		                 "(2.3, 3.0 and 4.0 on are)", ver);
	if (d->version < 4.0 - 1e-9)
		return bb__jfail(d->j, "version", "data version %g is not supported "
		                 "(2.3, 3.0 and 4.0 on are)", d->version);
	if ((s = bb__jnum(d->j, root, "frameRate", 24, &d->file_fps)) != BB_OK)
		return s;
	if (!(d->file_fps > 0))
		d->file_fps = 24;
	if ((s = bb__jeach(d->j, root, "armature", BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n == 0)
		return bb__jfail(d->j, NULL, "no armatures");
	d->narms = (int)it.n;
	if (!(d->arm_names = bb__calloc(it.n, sizeof *d->arm_names)))
		return bb__build_nomem(d->b);
	while (bb__jnext(&it, &ja))
		bb__jstr(&quiet, ja, "name", 0, &d->arm_names[it.index]);
	if ((s = load_atlases(d)) != BB_OK ||
	    (s = bb__build_armatures(d->b, d->narms, NULL)) != BB_OK)
		return s;
	bb__jeach(d->j, root, "armature", 0, &it);
	while (bb__jnext(&it, &ja))
		if ((s = load_armature(d, (int)it.index, ja)) != BB_OK)
			return s;
	bb__model_pick_default_armature(d->m);
	resolve_fixups(d);
	return BB_OK;
}

bb_status bb__load_dragonbones(bb__load_ctx *c, json_t *root, bb_model *m)
{
	struct db d;
	json_t *doc = NULL;
	bb_status s = BB_OK;
	int i;

	memset(&d, 0, sizeof d);
	d.c = c;
	d.j = &c->at;
	d.b = &c->b;
	d.m = m;
	d.j->flags = BB_J_LENIENT_NUMBERS | BB_J_LENIENT_BOOLS;
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
	free(d.arm_names);
	bb__atlas_free(&d.atlas);
	return s;
}
