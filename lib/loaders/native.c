/* The bonebake skeleton format (../shared/spec/bonebake-skeleton.md):
 * rounded-rectangle or image attachments per direction, attachment sets,
 * draw orders per direction, body/face animations, upper-body mask.
 *
 * Mapping onto the shared model:
 *   bone                 -> bone (matrix inheritance)
 *   drawn bone           -> slot of the same name on that bone
 *   direction front/back -> skins "front" and "back" (each with its draw order)
 *   attachment variants  -> displays 1.. of the slot (0 = the bone's own)
 *   x/y/rotation keys    -> bone timelines, added to the setup value
 *   scaleX/scaleY keys   -> bone timelines, replacing the setup value
 *   root scaleX keys     -> figure scale timeline (the seed's animScaleX)
 *   attachment keys      -> stepped slot display timelines
 *   upperBody            -> bone mask "upperBody" */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "loaders/loader.h"

enum { DIR_FRONT = 0, DIR_BACK = 1, NDIRS = 2 };
static const char *const dir_names[NDIRS] = { "front", "back" };

struct native {
	bb__load_ctx *c;
	bb__jctx *j;
	bb__build *b;
	bb_armature *a;
	json_t *bones;         /* the file's bone array */
	json_t **bone_json;    /* bone -> its object */
	int *slot_of_bone;     /* bone -> slot or -1 */
	json_t **sets;         /* bone -> attachmentSets entry or NULL */
};

/* ---- bones ------------------------------------------------------------ */

/* The name of the file's bone object jb, or NULL. */
static const char *name_of(struct native *n, json_t *jb)
{
	const char *name = NULL;
	bb__jctx quiet = *n->j;

	quiet.err = NULL;
	bb__jstr(&quiet, jb, "name", 0, &name);
	return name;
}

/* The file's bone named `name` after position `after`, or NULL. */
static json_t *later_bone(struct native *n, size_t after, const char *name)
{
	size_t i;

	for (i = after + 1; i < (size_t)n->a->nbones; i++) {
		const char *nm = name_of(n, n->bone_json[i]);

		if (nm && strcmp(nm, name) == 0)
			return n->bone_json[i];
	}
	return NULL;
}

/* A parent named later in the list: a cycle if following parents from it
 * comes back to bone `self`, else "defined after". */
static bb_status later_parent(struct native *n, size_t self, const char *parent)
{
	const char *selfname = name_of(n, n->bone_json[self]), *cur = parent;
	bb__jctx quiet = *n->j;
	size_t steps;

	quiet.err = NULL;
	for (steps = 0; cur && steps <= (size_t)n->a->nbones; steps++) {
		json_t *found = NULL;
		size_t i;

		if (selfname && strcmp(cur, selfname) == 0)
			return bb__jfail(n->j, "parent", "bone hierarchy has a cycle "
			                 "through \"%s\"", parent);
		for (i = 0; i < (size_t)n->a->nbones && !found; i++) {
			const char *nm = name_of(n, n->bone_json[i]);

			if (nm && strcmp(nm, cur) == 0)
				found = n->bone_json[i];
		}
		if (!found || bb__jstr(&quiet, found, "parent", 0, &cur) != BB_OK)
			break;
	}
	return bb__jfail(n->j, "parent", "bone \"%s\" is defined after its child "
	                 "(parents come first)", parent);
}

static bb_status load_bone(struct native *n, size_t i)
{
	bb_bone *b = &n->a->bones[i];
	json_t *jb = n->bone_json[i];
	const char *name, *parent;
	bb_status s;

	if ((s = bb__jstr(n->j, jb, "name", 1, &name)) != BB_OK ||
	    (s = bb__jstr(n->j, jb, "parent", 0, &parent)) != BB_OK)
		return s;
	if (!name[0])
		return bb__jfail(n->j, "name", "empty bone name");
	if (bb__build_find_bone(n->a, name) >= 0)
		return bb__jfail(n->j, "name", "duplicate bone name \"%s\"", name);
	if ((s = bb__build_str(n->b, &b->name, name)) != BB_OK)
		return s;
	if (parent && strcmp(parent, name) == 0)
		return bb__jfail(n->j, "parent", "bone \"%s\" is its own parent", name);
	if (parent && (b->parent = bb__build_find_bone(n->a, parent)) < 0)
		return later_bone(n, i, parent) ? later_parent(n, i, parent)
		       : bb__jfail(n->j, "parent", "unknown bone \"%s\"", parent);
	if ((s = bb__jnum(n->j, jb, "x", 0, &b->setup.x)) != BB_OK ||
	    (s = bb__jnum(n->j, jb, "y", 0, &b->setup.y)) != BB_OK ||
	    (s = bb__jnum(n->j, jb, "rotation", 0, &b->setup.rotation)) != BB_OK ||
	    (s = bb__jnum(n->j, jb, "scaleX", 1, &b->setup.sx)) != BB_OK ||
	    (s = bb__jnum(n->j, jb, "scaleY", 1, &b->setup.sy)) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status load_bones(struct native *n, json_t *root)
{
	bb__jiter it;
	json_t *jb;
	bb_status s;

	if ((s = bb__jeach(n->j, root, "bones", BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n == 0)
		return bb__jfail(n->j, NULL, "no bones");
	if ((s = bb__build_bones(n->b, n->a, it.n)) != BB_OK)
		return s;
	n->bone_json = bb__calloc(it.n, sizeof *n->bone_json);
	n->slot_of_bone = bb__calloc(it.n, sizeof *n->slot_of_bone);
	n->sets = bb__calloc(it.n, sizeof *n->sets);
	if (!n->bone_json || !n->slot_of_bone || !n->sets)
		return bb__build_nomem(n->b);
	while (bb__jnext(&it, &jb))
		n->bone_json[it.index] = jb;
	bb__jeach(n->j, root, "bones", 0, &it);
	while (bb__jnext(&it, &jb))
		if ((s = load_bone(n, it.index)) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- attachments -> displays ------------------------------------------ */

static bb_status load_texture(struct native *n, const char *rel, int *out)
{
	bb_image *img;
	bb_status s;

	if ((*out = bb__model_find_texture(n->c->m, rel)) >= 0)
		return BB_OK;
	if ((s = bb__load_image(n->c, &(bb__ref){ .at = n->j, .what = "image",
	                                           .name = rel }, 0, &img, NULL,
	                        0)) != BB_OK)
		return s;
	return bb__build_texture(n->b, rel, img, out);
}

/* An attachment's colour: [r, g, b] or [r, g, b, a], 0..255. */
static bb_status load_color(struct native *n, json_t *att, double *c)
{
	double *v;
	size_t k, count;
	bb_status s;

	if ((s = bb__jnums(n->j, att, "color", 0, 4, &v, &count)) != BB_OK)
		return s == BB_ERR_LIMIT ? bb__jfail(n->j, "color", "expected [r, g, b] "
		                                     "or [r, g, b, a], found more numbers")
		                         : s;
	if (v && count != 3 && count != 4) {
		free(v);
		return bb__jfail(n->j, "color", "expected [r, g, b] or [r, g, b, a], "
		                 "found %zu numbers", count);
	}
	for (k = 0; k < count; k++) {
		if (v[k] < 0 || v[k] > 255) {
			size_t mark = bb__jpath_key(&n->j->path, "color");

			free(v);
			bb__jpath_index(&n->j->path, k);
			s = bb__jfail(n->j, NULL, "expected a number 0..255");
			bb__jpath_pop(&n->j->path, mark);
			return s;
		}
		c[k] = v[k];
	}
	free(v);
	return BB_OK;
}

/* Display `di` from an attachment object (NULL: none, an empty display). */
static bb_status load_attachment(struct native *n, json_t *att, const char *name,
                                 int di)
{
	double ox, oy, w, h, r, c[4] = { 255, 255, 255, 255 };
	const char *image;
	bb_display *d;
	int tex;
	bb_status s;

	if (name && (s = bb__build_str(n->b, &n->a->displays[di].name, name)) != BB_OK)
		return s;
	if (!att)
		return BB_OK;
	if ((s = bb__jexpect_object(n->j, att)) != BB_OK ||
	    (s = bb__jnum(n->j, att, "offsetX", 0, &ox)) != BB_OK ||
	    (s = bb__jnum(n->j, att, "offsetY", 0, &oy)) != BB_OK ||
	    (s = bb__jnum_range(n->j, att, "width", 0, 0, 1e6, &w)) != BB_OK ||
	    (s = bb__jnum_range(n->j, att, "height", 0, 0, 1e6, &h)) != BB_OK ||
	    (s = bb__jnum_range(n->j, att, "radius", 0, 0, 1e6, &r)) != BB_OK ||
	    (s = bb__jstr(n->j, att, "image", 0, &image)) != BB_OK ||
	    (s = load_color(n, att, c)) != BB_OK ||
	    (image && (s = load_texture(n, image, &tex)) != BB_OK))
		return s;
	d = &n->a->displays[di];
	d->local = bb_affine_translate(ox, oy);
	if (image) {
		const bb_image *img = n->c->m->textures[tex];

		d->kind = BB_DISPLAY_IMAGE;
		d->u.image.texture = tex;
		d->u.image.corners[0] = (bb_vec2){ -w / 2, -h / 2 };
		d->u.image.corners[1] = (bb_vec2){ w / 2, -h / 2 };
		d->u.image.corners[2] = (bb_vec2){ w / 2, h / 2 };
		d->u.image.corners[3] = (bb_vec2){ -w / 2, h / 2 };
		d->u.image.uvs[0] = (bb_vec2){ 0, 0 };
		d->u.image.uvs[1] = (bb_vec2){ img->width, 0 };
		d->u.image.uvs[2] = (bb_vec2){ img->width, img->height };
		d->u.image.uvs[3] = (bb_vec2){ 0, img->height };
		return BB_OK;
	}
	d->kind = BB_DISPLAY_RECT;
	d->u.rect.w = w;
	d->u.rect.h = h;
	d->u.rect.radius = r;
	d->u.rect.color = (bb_rgba){ c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255 };
	return BB_OK;
}

/* A {front, back} object (path at it): its keys checked; display `di`
 * from the attachment for direction `dir` (back falls back to front). */
static bb_status load_dirs(struct native *n, json_t *dirs, int dir,
                           const char *name, int di)
{
	const char *key = dir_names[dir];
	bb__jiter it;
	json_t *v;
	size_t mark;
	bb_status s;

	if ((s = bb__jeach_member(n->j, dirs, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v))
		if (strcmp(it.key, "front") != 0 && strcmp(it.key, "back") != 0)
			return bb__jfail(n->j, NULL, "unknown direction (expected front "
			                 "or back)");
	if (dir == DIR_BACK && !bb__jhas(dirs, "back"))
		key = "front";
	if ((s = bb__jobject(n->j, dirs, key, 0, &v)) != BB_OK)
		return s;
	mark = bb__jpath_key(&n->j->path, key);
	if ((s = load_attachment(n, v, name, di)) != BB_OK)
		return s;
	bb__jpath_pop(&n->j->path, mark);
	return BB_OK;
}

/* Displays of bone b's slot for one direction: its own, then its variants
 * in file order. */
static bb_status load_slot_displays(struct native *n, int bone, int dir,
                                    bb_skin *sk, int slot)
{
	json_t *own, *dirs;
	bb__jiter it;
	int first;
	bb_status s;

	sk->first[slot] = n->a->ndisplays;
	sk->count[slot] = 1 + (int)bb__jsize(n->sets[bone]);
	if ((s = bb__build_displays(n->b, n->a, sk->count[slot], &first)) != BB_OK)
		return s;
	bb__jpath_init(&n->j->path);
	bb__jpath_key(&n->j->path, "bones");
	bb__jpath_index(&n->j->path, (size_t)bone);
	bb__jpath_key(&n->j->path, "attachments");
	bb__jobject(n->j, n->bone_json[bone], "attachments", 0, &own);
	if ((s = own ? load_dirs(n, own, dir, NULL, first)
	             : load_attachment(n, NULL, NULL, first)) != BB_OK)
		return s;
	bb__jpath_init(&n->j->path);
	bb__jpath_key(&n->j->path, "attachmentSets");
	bb__jpath_key(&n->j->path, n->a->bones[bone].name);
	if (n->sets[bone] && bb__jeach_member(n->j, n->sets[bone], NULL, 0, &it) == BB_OK)
		while (bb__jnext(&it, &dirs))
			if ((s = load_dirs(n, dirs, dir, it.key,
			                   first + 1 + (int)it.index)) != BB_OK)
				return s;
	bb__jpath_init(&n->j->path);
	return BB_OK;
}

static bb_status load_sets(struct native *n, json_t *root)
{
	bb__jiter it;
	json_t *v;
	int b;
	bb_status s;

	if ((s = bb__jeach_member(n->j, root, "attachmentSets", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v)) {
		if ((b = bb__build_find_bone(n->a, it.key)) < 0)
			return bb__jfail(n->j, NULL, "unknown bone \"%s\"", it.key);
		if (bb__jkind_of(v, NULL) != BB_JK_OBJECT)
			return bb__jfail(n->j, NULL, "expected an object of variants");
		n->sets[b] = v;
	}
	return BB_OK;
}

/* drawOrder.<dir> (bone names, front to back of the list = back to
 * front on screen) into the skin's slot permutation; bones it leaves out
 * follow in bone order. */
static bb_status load_draw_order(struct native *n, json_t *root, int dir,
                                 int *order)
{
	unsigned char *used = bb__calloc((size_t)n->a->nbones, 1);
	json_t *dobj = NULL, *v;
	bb__jiter it;
	const char *name;
	int k = 0, b;
	bb_status s;

	if (!used)
		return bb__build_nomem(n->b);
	if ((s = bb__jobject(n->j, root, "drawOrder", 0, &dobj)) != BB_OK)
		goto out;
	bb__jpath_key(&n->j->path, "drawOrder");
	if ((s = bb__jeach(n->j, dobj, dir_names[dir], 0, &it)) != BB_OK)
		goto out;
	while (bb__jnext(&it, &v)) {
		if ((s = bb__jstr(n->j, v, NULL, 0, &name)) != BB_OK || !name) {
			s = bb__jfail(n->j, NULL, "expected a bone name");
			goto out;
		}
		if ((b = bb__build_find_bone(n->a, name)) < 0)
			s = bb__jfail(n->j, NULL, "unknown bone \"%s\"", name);
		else if (used[b])
			s = bb__jfail(n->j, NULL, "bone \"%s\" listed twice", name);
		if (s != BB_OK)
			goto out;
		used[b] = 1;
		if (n->slot_of_bone[b] >= 0)
			order[k++] = n->slot_of_bone[b];
	}
	for (b = 0; b < n->a->nbones; b++)
		if (!used[b] && n->slot_of_bone[b] >= 0)
			order[k++] = n->slot_of_bone[b];
	bb__jpath_init(&n->j->path);
out:
	free(used);
	return s;
}

static bb_status load_slots(struct native *n, json_t *root)
{
	bb_armature *a = n->a;
	int b, nslots = 0, dir;
	bb_status s;

	for (b = 0; b < a->nbones; b++) {
		json_t *att;

		bb__jpath_init(&n->j->path);
		bb__jpath_key(&n->j->path, "bones");
		bb__jpath_index(&n->j->path, (size_t)b);
		if (bb__jobject(n->j, n->bone_json[b], "attachments", 0, &att) != BB_OK)
			return bb__jfail(n->j, "attachments", "expected an object");
		n->slot_of_bone[b] = att || n->sets[b] ? nslots++ : -1;
	}
	bb__jpath_init(&n->j->path);
	if ((s = bb__build_slots(n->b, a, (size_t)nslots)) != BB_OK)
		return s;
	for (dir = 0; dir < NDIRS; dir++) {
		bb_skin *sk;

		if ((s = bb__build_skin(n->b, a, dir_names[dir], 1, &sk)) != BB_OK)
			return s;
	}
	for (b = 0; b < a->nbones; b++) {
		int i = n->slot_of_bone[b];

		if (i < 0)
			continue;
		if ((s = bb__build_str(n->b, &a->slots[i].name, a->bones[b].name)) != BB_OK)
			return s;
		a->slots[i].bone = b;
		a->slots[i].setup_display = 0;
		for (dir = 0; dir < NDIRS; dir++)
			if ((s = load_slot_displays(n, b, dir, &a->skins[dir], i)) != BB_OK)
				return s;
	}
	for (dir = 0; dir < NDIRS; dir++)
		if ((s = load_draw_order(n, root, dir, a->skins[dir].draw_order)) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- animations ------------------------------------------------------- */

/* The key of each BB_PROP_* in a native key; NULL: the format has none. */
static const char *const prop_keys[BB_PROP_COUNT] = {
	[BB_PROP_X] = "x", [BB_PROP_Y] = "y", [BB_PROP_ROTATION] = "rotation",
	[BB_PROP_SCALE_X] = "scaleX", [BB_PROP_SCALE_Y] = "scaleY",
};

/* Index of variant `name` among bone b's displays (0 = own), or -1. */
static int variant_index(struct native *n, int b, const char *name)
{
	bb__jctx quiet = *n->j;
	bb__jiter it;
	json_t *v;

	if (strcmp(name, "default") == 0)
		return 0;
	quiet.err = NULL;
	if (!n->sets[b] || bb__jeach_member(&quiet, n->sets[b], NULL, 0, &it) != BB_OK)
		return -1;
	while (bb__jnext(&it, &v))
		if (strcmp(it.key, name) == 0)
			return 1 + (int)it.index;
	return -1;
}

/* The timeline of one property (or the attachment switch, prop < 0) of
 * bone b from its key list (path at it).  Keys are checked and ordered. */
static bb_status build_track(struct native *n, bb_anim *an, int b, json_t *keys,
                             int prop)
{
	const char *key = prop >= 0 ? prop_keys[prop] : "attachment", *vn;
	bb_tl_target target = BB_TL_BONE;
	bb_apply apply = prop >= BB_PROP_SCALE_X ? BB_APPLY_REPLACE : BB_APPLY_ADD;
	int index = b, k = 0, count = 0, idx;
	bb_timeline *t;
	bb__jiter it;
	json_t *jk;
	bb_status s;

	bb__jeach(n->j, keys, NULL, 0, &it);
	while (bb__jnext(&it, &jk))
		count += bb__jhas(jk, key);
	if (count == 0)
		return BB_OK;
	if (prop < 0) {
		target = BB_TL_SLOT_DISPLAY;
		index = n->slot_of_bone[b];
		apply = BB_APPLY_ADD;
	} else if (prop == BB_PROP_SCALE_X && n->a->bones[b].parent < 0) {
		target = BB_TL_FIGURE;         /* root scaleX -> figure scale */
		index = 0;
	}
	if ((s = bb__build_timeline(n->b, an, target, index, (bb_prop)(prop < 0 ? 0 : prop),
	                            apply, 1, count, &t)) != BB_OK)
		return s;
	bb__jeach(n->j, keys, NULL, 0, &it);
	while (bb__jnext(&it, &jk)) {
		if (!bb__jhas(jk, key))
			continue;
		bb__jnum(n->j, jk, "time", 0, &t->times[k]);
		t->interp[k].kind = prop < 0 ? BB_INTERP_STEP : BB_INTERP_LINEAR;
		if (prop >= 0) {
			if ((s = bb__jnum(n->j, jk, key, 0, &t->values[k++])) != BB_OK)
				return s;
			continue;
		}
		if (n->slot_of_bone[b] < 0)
			return bb__jfail(n->j, key, "bone \"%s\" has no attachments to "
			                 "switch", n->a->bones[b].name);
		if (bb__jstr(n->j, jk, key, 0, &vn) != BB_OK)
			return bb__jfail(n->j, key, "expected a variant name");
		if ((idx = variant_index(n, b, vn)) < 0)
			return bb__jfail(n->j, key, "unknown attachment variant \"%s\" for "
			                 "bone \"%s\"", vn, n->a->bones[b].name);
		t->values[k++] = idx;
	}
	return BB_OK;
}

/* A bone's key list (path at it): objects with a time inside the
 * animation, in order, and only known properties. */
static bb_status check_keys(struct native *n, json_t *keys, double duration)
{
	static const char *const allowed[] = { "time", "x", "y", "rotation", "scaleX",
	                                       "scaleY", "attachment", NULL };
	double prev = -1, t;
	bb__jiter it, kt;
	json_t *jk, *v;
	size_t a;
	bb_status s;

	if ((s = bb__jeach(n->j, keys, NULL, 0, &it)) != BB_OK)
		return bb__jfail(n->j, NULL, "expected an array of keys");
	while (bb__jnext(&it, &jk)) {
		if ((s = bb__jexpect_object(n->j, jk)) != BB_OK ||
		    (s = bb__jnum_req(n->j, jk, "time", &t)) != BB_OK ||
		    (s = bb__jnum_range(n->j, jk, "time", 0, 0, duration, &t)) != BB_OK)
			return s;
		if (t < prev)
			return bb__jfail(n->j, "time", "keys out of order (%g after %g)",
			                 t, prev);
		prev = t;
		bb__jeach_member(n->j, jk, NULL, 0, &kt);
		while (bb__jnext(&kt, &v)) {
			for (a = 0; allowed[a] && strcmp(allowed[a], kt.key) != 0; a++)
				;
			if (!allowed[a])
				return bb__jfail(n->j, NULL, "unknown key property");
		}
	}
	return BB_OK;
}

static bb_status load_anim(struct native *n, json_t *ja, int face)
{
	const char *name;
	double duration;
	bb__jiter it;
	json_t *keys;
	bb_anim *an;
	int loop, prop, b;
	bb_status s;

	if ((s = bb__jexpect_object(n->j, ja)) != BB_OK ||
	    (s = bb__jstr(n->j, ja, "name", 1, &name)) != BB_OK ||
	    (s = bb__jbool(n->j, ja, "loop", !face, &loop)) != BB_OK ||
	    (s = bb__jnum_req(n->j, ja, "duration", &duration)) != BB_OK ||
	    (s = bb__jnum_range(n->j, ja, "duration", 0, 0, 1e5, &duration)) != BB_OK ||
	    (s = bb__build_anim(n->b, n->a, name, &an)) != BB_OK)
		return s;
	an->duration = duration;
	an->loop = loop;
	an->layer = face ? BB_LAYER_FACE : BB_LAYER_BODY;
	if ((s = bb__jeach_member(n->j, ja, "bones", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &keys)) {
		if ((b = bb__build_find_bone(n->a, it.key)) < 0)
			return bb__jfail(n->j, NULL, "unknown bone \"%s\"", it.key);
		if ((s = check_keys(n, keys, duration)) != BB_OK)
			return s;
		for (prop = -1; prop < BB_PROP_COUNT; prop++)
			if ((prop < 0 || prop_keys[prop]) &&   /* no skew, shear */
			    (s = build_track(n, an, b, keys, prop)) != BB_OK)
				return s;
	}
	return BB_OK;
}

static bb_status load_anims(struct native *n, json_t *root)
{
	static const char *const lists[2] = { "animations", "faceAnimations" };
	bb__jiter it;
	json_t *ja;
	int l;
	bb_status s;

	for (l = 0; l < 2; l++) {
		if ((s = bb__jeach(n->j, root, lists[l], l == 0 ? BB_J_REQUIRED : 0,
		                   &it)) != BB_OK)
			return s;
		while (bb__jnext(&it, &ja))
			if ((s = load_anim(n, ja, l == 1)) != BB_OK)
				return s;
	}
	return BB_OK;
}

static bb_status load_mask(struct native *n, json_t *root)
{
	const char *name;
	bb__jiter it;
	bb_mask *mk;
	json_t *v;
	int b;
	bb_status s;

	if ((s = bb__jeach(n->j, root, "upperBody", 0, &it)) != BB_OK || !it.v)
		return s;
	if ((s = bb__build_mask(n->b, n->a, "upperBody", &mk)) != BB_OK)
		return s;
	n->a->overlay_mask = 0;
	while (bb__jnext(&it, &v)) {
		if (bb__jstr(n->j, v, NULL, 0, &name) != BB_OK || !name)
			return bb__jfail(n->j, NULL, "expected a bone name");
		if ((b = bb__build_find_bone(n->a, name)) < 0)
			return bb__jfail(n->j, NULL, "unknown bone \"%s\"", name);
		mk->bones[b] = 1;
	}
	return BB_OK;
}

int bb__sniff_native(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"bonebake-skeleton\"") != NULL;
}

bb_status bb__load_native(bb__load_ctx *c, json_t *root, bb_model *m)
{
	struct native n;
	const char *format, *name;
	double version;
	bb_status s;

	memset(&n, 0, sizeof n);
	n.c = c;
	n.j = &c->at;
	n.b = &c->b;
	if ((s = bb__jexpect_object(n.j, root)) != BB_OK ||
	    (s = bb__jstr(n.j, root, "format", 1, &format)) != BB_OK)
		return s;
	if (strcmp(format, "bonebake-skeleton") != 0)
		return bb__jfail(n.j, "format", "expected \"bonebake-skeleton\"");
	if ((s = bb__jnum_req(n.j, root, "version", &version)) != BB_OK)
		return s;
	if (version != 1)
		return bb__jfail(n.j, "version", "unsupported version %g (this "
		                 "bonebake reads version 1)", version);
	if ((s = bb__jstr(n.j, root, "name", 0, &name)) != BB_OK ||
	    (s = bb__build_armatures(n.b, 1, &n.a)) != BB_OK ||
	    (s = bb__build_str(n.b, &n.a->name, name ? name : "skeleton")) != BB_OK ||
	    (s = bb__jnum_range(n.j, root, "fps", 30, 0.001, 1000, &n.a->fps)) != BB_OK)
		return s;
	(void)m;
	if ((s = load_bones(&n, root)) == BB_OK && (s = load_sets(&n, root)) == BB_OK &&
	    (s = load_slots(&n, root)) == BB_OK && (s = load_mask(&n, root)) == BB_OK)
		s = load_anims(&n, root);
	free(n.bone_json);
	free(n.slot_of_bone);
	free(n.sets);
	return s;
}
