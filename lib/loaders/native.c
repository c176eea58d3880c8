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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/json.h"
#include "loaders/loader.h"

enum { DIR_FRONT = 0, DIR_BACK = 1, NDIRS = 2 };
static const char *const dir_names[NDIRS] = { "front", "back" };

/* Attachment-set variants of one bone, in declaration order. */
struct variant {
	const char *name;
	json_t *dirs;          /* {front, back} object */
};

struct native {
	bb__jctx j;
	const bb__load_ctx *ctx;
	bb_model *m;
	bb_armature *a;
	json_t *bones_json;
	int *slot_of_bone;     /* bone -> slot or -1 */
	json_t **sets;         /* bone -> attachmentSets entry or NULL */
	size_t total_keys;
};

static bb_status nomem(struct native *n)
{
	return bb_error_set(n->j.err, BB_ERR_NOMEM, n->ctx->name, NULL,
	                    "out of memory");
}

static int find_bone(const bb_armature *a, int nbones, const char *name)
{
	int i;

	for (i = 0; i < nbones; i++)
		if (strcmp(a->bones[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- bones ------------------------------------------------------------ */

/* A parent named later in the list: report a cycle if following parents
 * from it comes back to `self`, else "defined after". */
static bb_status later_parent(struct native *n, json_t *bones, size_t self,
                              const char *parent)
{
	size_t count = json_array_size(bones), i, steps;
	const char *cur = parent;
	const char *selfname =
		json_string_value(json_object_get(json_array_get(bones, self), "name"));

	for (steps = 0; cur && steps <= count; steps++) {
		json_t *found = NULL;

		if (selfname && strcmp(cur, selfname) == 0)
			return bb__jfail(&n->j, "parent",
			                 "bone hierarchy has a cycle through \"%s\"",
			                 parent);
		for (i = 0; i < count; i++) {
			json_t *b = json_array_get(bones, i);
			const char *nm = json_string_value(json_object_get(b, "name"));

			if (nm && strcmp(nm, cur) == 0) {
				found = b;
				break;
			}
		}
		if (!found)
			break;
		cur = json_string_value(json_object_get(found, "parent"));
	}
	return bb__jfail(&n->j, "parent",
	                 "bone \"%s\" is defined after its child (parents come first)",
	                 parent);
}

static bb_status load_bone(struct native *n, json_t *bones, size_t i)
{
	bb_bone *b = &n->a->bones[i];
	json_t *jb = json_array_get(bones, i);
	const char *name, *parent;
	bb_status s;

	if ((s = bb__jexpect_object(&n->j, jb)) != BB_OK ||
	    (s = bb__jstr(&n->j, jb, "name", 1, &name)) != BB_OK ||
	    (s = bb__jstr(&n->j, jb, "parent", 0, &parent)) != BB_OK)
		return s;
	if (!name[0])
		return bb__jfail(&n->j, "name", "empty bone name");
	if (find_bone(n->a, (int)i, name) >= 0)
		return bb__jfail(&n->j, "name", "duplicate bone name \"%s\"", name);
	b->name = bb__strdup(name);
	if (!b->name)
		return nomem(n);
	b->parent = -1;
	if (parent) {
		if (strcmp(parent, name) == 0)
			return bb__jfail(&n->j, "parent", "bone \"%s\" is its own parent",
			                 name);
		b->parent = find_bone(n->a, (int)i, parent);
		if (b->parent < 0) {
			size_t k;

			for (k = i + 1; k < json_array_size(bones); k++) {
				const char *later = json_string_value(
					json_object_get(json_array_get(bones, k), "name"));
				if (later && strcmp(later, parent) == 0)
					return later_parent(n, bones, i, parent);
			}
			return bb__jfail(&n->j, "parent", "unknown bone \"%s\"", parent);
		}
	}
	b->setup = bb__xform_identity();
	b->inherit = BB_INHERIT_MATRIX;
	b->flags = BB_INHERIT_ALL;
	if ((s = bb__jnum(&n->j, jb, "x", 0, &b->setup.x)) != BB_OK ||
	    (s = bb__jnum(&n->j, jb, "y", 0, &b->setup.y)) != BB_OK ||
	    (s = bb__jnum(&n->j, jb, "rotation", 0, &b->setup.rotation)) != BB_OK ||
	    (s = bb__jnum(&n->j, jb, "scaleX", 1, &b->setup.sx)) != BB_OK ||
	    (s = bb__jnum(&n->j, jb, "scaleY", 1, &b->setup.sy)) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status load_bones(struct native *n, json_t *root)
{
	json_t *bones;
	size_t i, count;
	bb_status s;

	if ((s = bb__jarray(&n->j, root, "bones", 1, &bones)) != BB_OK)
		return s;
	count = json_array_size(bones);
	if (count == 0)
		return bb__jfail(&n->j, "bones", "no bones");
	if (count > (size_t)n->ctx->opts->max_bones)
		return bb_error_set(n->j.err, BB_ERR_LIMIT, n->ctx->name, "bones",
		                    "%zu bones exceed the limit of %d", count,
		                    n->ctx->opts->max_bones);
	n->a->bones = bb__calloc(count, sizeof *n->a->bones);
	n->slot_of_bone = bb__calloc(count, sizeof *n->slot_of_bone);
	n->sets = bb__calloc(count, sizeof *n->sets);
	if (!n->a->bones || !n->slot_of_bone || !n->sets)
		return nomem(n);
	bb__jpath_key(&n->j.path, "bones");
	for (i = 0; i < count; i++) {
		size_t mark = bb__jpath_index(&n->j.path, i);

		n->a->nbones = (int)i + 1;   /* counted before loading: freed on error */
		if ((s = load_bone(n, bones, i)) != BB_OK)
			return s;
		bb__jpath_pop(&n->j.path, mark);
	}
	n->a->nbones = (int)count;
	bb__jpath_init(&n->j.path);
	n->bones_json = bones;
	return BB_OK;
}

/* ---- attachments -> displays ------------------------------------------ */

static bb_status add_display(struct native *n, bb_display **out)
{
	bb_display *d = bb__realloc_array(n->a->displays,
	                                  (size_t)n->a->ndisplays + 1, sizeof *d);

	if (!d)
		return nomem(n);
	n->a->displays = d;
	*out = &d[n->a->ndisplays++];
	memset(*out, 0, sizeof **out);
	(*out)->local = bb_affine_identity();
	return BB_OK;
}

static bb_status load_texture(struct native *n, const char *rel, int *out)
{
	char path[4096];
	bb_image *img;
	bb_error sub;
	bb_status s;

	*out = bb__model_find_texture(n->m, rel);
	if (*out >= 0)
		return BB_OK;
	if (!bb__path_join(path, sizeof path, n->ctx->dir, rel))
		return bb__jfail(&n->j, "image", "path too long");
	s = bb_png_read(path, &img, &sub);
	if (s != BB_OK)
		return bb_error_set(n->j.err, s == BB_ERR_NOMEM ? s : BB_ERR_INPUT,
		                    n->ctx->name, n->j.path.buf,
		                    "image \"%s\": %s", rel, sub.message);
	*out = bb__model_add_texture(n->m, rel, img);
	if (*out < 0) {
		bb_image_free(img);
		return nomem(n);
	}
	return BB_OK;
}

/* Builds one display from an attachment object (NULL -> none). */
static bb_status load_attachment(struct native *n, json_t *att, const char *name)
{
	bb_display *d = NULL;
	double ox, oy, w, h, r, c[4] = { 255, 255, 255, 255 };
	const char *image;
	json_t *color;
	bb_status s;
	size_t i;

	if ((s = add_display(n, &d)) != BB_OK)
		return s;
	if (name && !(d->name = bb__strdup(name)))
		return nomem(n);
	if (!att)
		return BB_OK;
	if ((s = bb__jexpect_object(&n->j, att)) != BB_OK ||
	    (s = bb__jnum(&n->j, att, "offsetX", 0, &ox)) != BB_OK ||
	    (s = bb__jnum(&n->j, att, "offsetY", 0, &oy)) != BB_OK ||
	    (s = bb__jnum_range(&n->j, att, "width", 0, 0, 1e6, &w)) != BB_OK ||
	    (s = bb__jnum_range(&n->j, att, "height", 0, 0, 1e6, &h)) != BB_OK ||
	    (s = bb__jnum_range(&n->j, att, "radius", 0, 0, 1e6, &r)) != BB_OK ||
	    (s = bb__jstr(&n->j, att, "image", 0, &image)) != BB_OK ||
	    (s = bb__jarray(&n->j, att, "color", 0, &color)) != BB_OK)
		return s;
	if (color) {
		size_t cn = json_array_size(color);

		if (cn != 3 && cn != 4)
			return bb__jfail(&n->j, "color",
			                 "expected [r, g, b] or [r, g, b, a], found %zu numbers",
			                 cn);
		for (i = 0; i < cn; i++) {
			json_t *v = json_array_get(color, i);

			if (!json_is_number(v) || json_number_value(v) < 0 ||
			    json_number_value(v) > 255) {
				size_t mark = bb__jpath_key(&n->j.path, "color");
				bb__jpath_index(&n->j.path, i);
				s = bb__jfail(&n->j, NULL, "expected a number 0..255");
				bb__jpath_pop(&n->j.path, mark);
				return s;
			}
			c[i] = json_number_value(v);
		}
	}
	d->local = bb_affine_translate(ox, oy);
	if (image) {
		int tex;
		const bb_image *img;

		/* resolve before filling in: load_texture may fail */
		if ((s = load_texture(n, image, &tex)) != BB_OK)
			return s;
		d = &n->a->displays[n->a->ndisplays - 1];
		img = n->m->textures[tex];
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

/* The attachment for direction `dir` in a {front, back} object: back falls
 * back to front. */
static json_t *pick_dir(json_t *dirs, int dir, const char **key)
{
	json_t *v = json_object_get(dirs, dir_names[dir]);

	*key = dir_names[dir];
	if ((!v || json_is_null(v)) && dir == DIR_BACK) {
		v = json_object_get(dirs, "front");
		*key = "front";
	}
	return (v && !json_is_null(v)) ? v : NULL;
}

static bb_status check_dirs(struct native *n, json_t *dirs)
{
	const char *key;
	json_t *v;
	bb_status s;

	if ((s = bb__jexpect_object(&n->j, dirs)) != BB_OK)
		return s;
	json_object_foreach(dirs, key, v) {
		if (strcmp(key, "front") != 0 && strcmp(key, "back") != 0)
			return bb__jfail(&n->j, key,
			                 "unknown direction (expected front or back)");
	}
	return BB_OK;
}

/* Displays of slot `slot` (bone `bone`) for one direction: own + variants. */
static bb_status load_slot_displays(struct native *n, int bone, int dir,
                                    int *first, int *count)
{
	json_t *jb = json_array_get(n->bones_json, (size_t)bone);
	json_t *own = json_object_get(jb, "attachments");
	json_t *set = n->sets[bone];
	const char *key, *vname;
	json_t *dirs;
	size_t mark;
	bb_status s;

	*first = n->a->ndisplays;
	mark = bb__jpath_key(&n->j.path, "bones");
	bb__jpath_index(&n->j.path, (size_t)bone);
	bb__jpath_key(&n->j.path, "attachments");
	if (own && (s = check_dirs(n, own)) != BB_OK)
		return s;
	{
		json_t *att = own ? pick_dir(own, dir, &key) : NULL;

		if (att)
			bb__jpath_key(&n->j.path, key);
		if ((s = load_attachment(n, att, NULL)) != BB_OK)
			return s;
	}
	bb__jpath_pop(&n->j.path, mark);
	if (set) {
		mark = bb__jpath_key(&n->j.path, "attachmentSets");
		bb__jpath_key(&n->j.path, n->a->bones[bone].name);
		json_object_foreach(set, vname, dirs) {
			size_t m2 = bb__jpath_key(&n->j.path, vname);
			json_t *att;

			if ((s = check_dirs(n, dirs)) != BB_OK)
				return s;
			att = pick_dir(dirs, dir, &key);
			if (att)
				bb__jpath_key(&n->j.path, key);
			if ((s = load_attachment(n, att, vname)) != BB_OK)
				return s;
			bb__jpath_pop(&n->j.path, m2);
		}
		bb__jpath_pop(&n->j.path, mark);
	}
	*count = n->a->ndisplays - *first;
	return BB_OK;
}

static bb_status load_sets(struct native *n, json_t *root)
{
	json_t *sets, *v;
	const char *bone;
	bb_status s;

	if ((s = bb__jobject(&n->j, root, "attachmentSets", 0, &sets)) != BB_OK ||
	    !sets)
		return s;
	bb__jpath_key(&n->j.path, "attachmentSets");
	json_object_foreach(sets, bone, v) {
		int b = find_bone(n->a, n->a->nbones, bone);

		if (b < 0)
			return bb__jfail(&n->j, bone, "unknown bone \"%s\"", bone);
		if (!json_is_object(v))
			return bb__jfail(&n->j, bone, "expected an object of variants");
		n->sets[b] = v;
	}
	bb__jpath_init(&n->j.path);
	return BB_OK;
}

/* Reads drawOrder.<dir> into a slot permutation. */
static bb_status load_draw_order(struct native *n, json_t *root, int dir,
                                 int *order)
{
	json_t *dobj, *list;
	unsigned char *used;
	size_t i;
	int k = 0, b;
	bb_status s;

	if ((s = bb__jobject(&n->j, root, "drawOrder", 0, &dobj)) != BB_OK)
		return s;
	list = NULL;
	if (dobj) {
		bb__jpath_key(&n->j.path, "drawOrder");
		s = bb__jarray(&n->j, dobj, dir_names[dir], 0, &list);
		bb__jpath_init(&n->j.path);
		if (s != BB_OK)
			return s;
	}
	used = bb__calloc((size_t)n->a->nbones, 1);
	if (!used)
		return nomem(n);
	for (i = 0; list && i < json_array_size(list); i++) {
		json_t *v = json_array_get(list, i);
		const char *name = json_string_value(v);

		bb__jpath_key(&n->j.path, "drawOrder");
		bb__jpath_key(&n->j.path, dir_names[dir]);
		bb__jpath_index(&n->j.path, i);
		if (!name)
			s = bb__jfail(&n->j, NULL, "expected a bone name");
		else if ((b = find_bone(n->a, n->a->nbones, name)) < 0)
			s = bb__jfail(&n->j, NULL, "unknown bone \"%s\"", name);
		else if (used[b])
			s = bb__jfail(&n->j, NULL, "bone \"%s\" listed twice", name);
		else {
			used[b] = 1;
			if (n->slot_of_bone[b] >= 0)
				order[k++] = n->slot_of_bone[b];
		}
		bb__jpath_init(&n->j.path);
		if (s != BB_OK) {
			free(used);
			return s;
		}
	}
	for (b = 0; b < n->a->nbones; b++)
		if (!used[b] && n->slot_of_bone[b] >= 0)
			order[k++] = n->slot_of_bone[b];
	free(used);
	return BB_OK;
}

static bb_status load_slots(struct native *n, json_t *root)
{
	bb_armature *a = n->a;
	int b, nslots = 0, dir, i;
	bb_status s;

	for (b = 0; b < a->nbones; b++) {
		json_t *jb = json_array_get(n->bones_json, (size_t)b);
		json_t *att = json_object_get(jb, "attachments");

		if (att && !json_is_null(att) && !json_is_object(att)) {
			bb__jpath_key(&n->j.path, "bones");
			bb__jpath_index(&n->j.path, (size_t)b);
			return bb__jfail(&n->j, "attachments", "expected an object");
		}
		n->slot_of_bone[b] = (att && !json_is_null(att)) || n->sets[b] ?
		                     nslots++ : -1;
	}
	a->nslots = nslots;
	a->slots = bb__calloc((size_t)nslots, sizeof *a->slots);
	a->skins = bb__calloc(NDIRS, sizeof *a->skins);
	if (!a->slots || !a->skins)
		return nomem(n);
	a->nskins = NDIRS;
	for (dir = 0; dir < NDIRS; dir++) {
		bb_skin *sk = &a->skins[dir];

		sk->name = bb__strdup(dir_names[dir]);
		sk->first = bb__calloc((size_t)nslots, sizeof *sk->first);
		sk->count = bb__calloc((size_t)nslots, sizeof *sk->count);
		sk->draw_order = bb__calloc((size_t)nslots, sizeof *sk->draw_order);
		if (!sk->name || !sk->first || !sk->count || !sk->draw_order)
			return nomem(n);
	}
	for (b = 0; b < a->nbones; b++) {
		i = n->slot_of_bone[b];
		if (i < 0)
			continue;
		a->slots[i].name = bb__strdup(a->bones[b].name);
		if (!a->slots[i].name)
			return nomem(n);
		a->slots[i].bone = b;
		a->slots[i].setup_display = 0;
		a->slots[i].color = bb_color_xform_identity();
		a->slots[i].blend = BB_BLEND_NORMAL;
		for (dir = 0; dir < NDIRS; dir++)
			if ((s = load_slot_displays(n, b, dir, &a->skins[dir].first[i],
			                            &a->skins[dir].count[i])) != BB_OK)
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
	const char *k;
	json_t *v;
	int i = 1;

	if (strcmp(name, "default") == 0)
		return 0;
	if (!n->sets[b])
		return -1;
	json_object_foreach(n->sets[b], k, v) {
		if (strcmp(k, name) == 0)
			return i;
		i++;
	}
	return -1;
}

static bb_status add_timeline(struct native *n, bb_anim *an, bb_timeline **out)
{
	bb_timeline *t = bb__realloc_array(an->timelines, (size_t)an->ntimelines + 1,
	                                   sizeof *t);
	if (!t)
		return nomem(n);
	an->timelines = t;
	*out = &t[an->ntimelines++];
	memset(*out, 0, sizeof **out);
	return BB_OK;
}

/* Builds the timeline of one property (or the attachment switch, prop < 0)
 * of bone b from its key list.  Keys must be time-ordered. */
static bb_status build_track(struct native *n, bb_anim *an, int b, json_t *keys,
                             int prop)
{
	const char *key = prop >= 0 ? prop_keys[prop] : "attachment";
	size_t i, k = 0, count = 0;
	bb_timeline *t = NULL;
	bb_status s;

	for (i = 0; i < json_array_size(keys); i++)
		if (json_object_get(json_array_get(keys, i), key))
			count++;
	if (count == 0)
		return BB_OK;
	n->total_keys += count;
	if (n->total_keys > (size_t)n->ctx->opts->max_keys)
		return bb_error_set(n->j.err, BB_ERR_LIMIT, n->ctx->name, n->j.path.buf,
		                    "more than %d keys", n->ctx->opts->max_keys);
	if ((s = add_timeline(n, an, &t)) != BB_OK)
		return s;
	t->stride = 1;
	t->times = bb__calloc(count, sizeof *t->times);
	t->values = bb__calloc(count, sizeof *t->values);
	t->interp = bb__calloc(count, sizeof *t->interp);
	if (!t->times || !t->values || !t->interp)
		return nomem(n);
	t->nkeys = (int)count;
	if (prop < 0) {
		t->target = BB_TL_SLOT_DISPLAY;
		t->index = n->slot_of_bone[b];
	} else if (prop == BB_PROP_SCALE_X && n->a->bones[b].parent < 0) {
		t->target = BB_TL_FIGURE;       /* root scaleX -> figure scale */
		t->index = 0;
		t->prop = BB_PROP_SCALE_X;
		t->apply = BB_APPLY_REPLACE;
	} else {
		t->target = BB_TL_BONE;
		t->index = b;
		t->prop = (bb_prop)prop;
		t->apply = prop >= BB_PROP_SCALE_X ? BB_APPLY_REPLACE : BB_APPLY_ADD;
	}
	for (i = 0; i < json_array_size(keys); i++) {
		json_t *jk = json_array_get(keys, i);
		json_t *v = json_object_get(jk, key);
		size_t mark;

		if (!v)
			continue;
		mark = bb__jpath_index(&n->j.path, i);
		t->times[k] = json_number_value(json_object_get(jk, "time"));
		t->interp[k].kind = BB_INTERP_LINEAR;
		if (prop < 0 && n->slot_of_bone[b] < 0)
			return bb__jfail(&n->j, key, "bone \"%s\" has no attachments to "
			                 "switch", n->a->bones[b].name);
		if (prop < 0) {
			const char *vn = json_string_value(v);
			int idx = vn ? variant_index(n, b, vn) : -1;

			t->interp[k].kind = BB_INTERP_STEP;
			if (!vn)
				return bb__jfail(&n->j, key, "expected a variant name");
			if (idx < 0)
				return bb__jfail(&n->j, key,
				                 "unknown attachment variant \"%s\" for bone \"%s\"",
				                 vn, n->a->bones[b].name);
			t->values[k] = idx;
		} else if ((s = bb__jnum(&n->j, jk, key, 0, &t->values[k])) != BB_OK) {
			return s;
		}
		bb__jpath_pop(&n->j.path, mark);
		k++;
	}
	return BB_OK;
}

static bb_status check_keys(struct native *n, json_t *keys, double duration)
{
	static const char *const allowed[] = { "time", "x", "y", "rotation", "scaleX",
	                                       "scaleY", "attachment", NULL };
	double prev = -1, t;
	size_t i, a;
	bb_status s;

	for (i = 0; i < json_array_size(keys); i++) {
		json_t *jk = json_array_get(keys, i);
		size_t mark = bb__jpath_index(&n->j.path, i);
		const char *k;
		json_t *v;

		if ((s = bb__jexpect_object(&n->j, jk)) != BB_OK)
			return s;
		if (!json_object_get(jk, "time"))
			return bb__jfail(&n->j, "time", "missing");
		if ((s = bb__jnum_range(&n->j, jk, "time", 0, 0, duration, &t)) != BB_OK)
			return s;
		if (t < prev)
			return bb__jfail(&n->j, "time",
			                 "keys out of order (%g after %g)", t, prev);
		prev = t;
		json_object_foreach(jk, k, v) {
			for (a = 0; allowed[a] && strcmp(allowed[a], k) != 0; a++)
				;
			if (!allowed[a])
				return bb__jfail(&n->j, k, "unknown key property");
		}
		bb__jpath_pop(&n->j.path, mark);
	}
	return BB_OK;
}

static bb_status load_anim(struct native *n, json_t *ja, bb_anim *an, int face)
{
	const char *name, *bname;
	json_t *bones, *keys;
	int loop, prop, i;
	bb_status s;

	if ((s = bb__jexpect_object(&n->j, ja)) != BB_OK ||
	    (s = bb__jstr(&n->j, ja, "name", 1, &name)) != BB_OK ||
	    (s = bb__jbool(&n->j, ja, "loop", !face, &loop)) != BB_OK ||
	    (s = bb__jobject(&n->j, ja, "bones", 0, &bones)) != BB_OK)
		return s;
	if (!json_object_get(ja, "duration"))
		return bb__jfail(&n->j, "duration", "missing");
	if ((s = bb__jnum_range(&n->j, ja, "duration", 0, 0, 1e5, &an->duration)) != BB_OK)
		return s;
	for (i = 0; i < n->a->nanims; i++)
		if (strcmp(n->a->anims[i].name, name) == 0)
			return bb__jfail(&n->j, "name", "duplicate animation name \"%s\"",
			                 name);
	if (!(an->name = bb__strdup(name)))
		return nomem(n);
	an->loop = loop;
	an->layer = face ? BB_LAYER_FACE : BB_LAYER_BODY;
	if (!bones)
		return BB_OK;
	bb__jpath_key(&n->j.path, "bones");
	json_object_foreach(bones, bname, keys) {
		size_t mark = bb__jpath_key(&n->j.path, bname);
		int b = find_bone(n->a, n->a->nbones, bname);

		if (b < 0)
			return bb__jfail(&n->j, NULL, "unknown bone \"%s\"", bname);
		if (!json_is_array(keys))
			return bb__jfail(&n->j, NULL, "expected an array of keys");
		if ((s = check_keys(n, keys, an->duration)) != BB_OK)
			return s;
		for (prop = -1; prop < BB_PROP_COUNT; prop++) {
			if (prop >= 0 && !prop_keys[prop])
				continue;   /* skew, shear */
			if ((s = build_track(n, an, b, keys, prop)) != BB_OK)
				return s;
		}
		bb__jpath_pop(&n->j.path, mark);
	}
	return BB_OK;
}

static bb_status load_anims(struct native *n, json_t *root)
{
	static const char *const lists[2] = { "animations", "faceAnimations" };
	json_t *arr[2];
	size_t total, i;
	int l;
	bb_status s;

	if ((s = bb__jarray(&n->j, root, "animations", 1, &arr[0])) != BB_OK ||
	    (s = bb__jarray(&n->j, root, "faceAnimations", 0, &arr[1])) != BB_OK)
		return s;
	total = json_array_size(arr[0]) + json_array_size(arr[1]);
	n->a->anims = bb__calloc(total, sizeof *n->a->anims);
	if (!n->a->anims)
		return nomem(n);
	for (l = 0; l < 2; l++) {
		for (i = 0; i < json_array_size(arr[l]); i++) {
			bb__jpath_init(&n->j.path);
			bb__jpath_key(&n->j.path, lists[l]);
			bb__jpath_index(&n->j.path, i);
			s = load_anim(n, json_array_get(arr[l], i),
			              &n->a->anims[n->a->nanims], l == 1);
			n->a->nanims++;   /* counted even on failure, so it is freed */
			if (s != BB_OK)
				return s;
		}
	}
	bb__jpath_init(&n->j.path);
	return BB_OK;
}

static bb_status load_mask(struct native *n, json_t *root)
{
	json_t *list;
	bb_mask *mk;
	size_t i;
	bb_status s;

	if ((s = bb__jarray(&n->j, root, "upperBody", 0, &list)) != BB_OK || !list)
		return s;
	n->a->masks = bb__calloc(1, sizeof *n->a->masks);
	if (!n->a->masks)
		return nomem(n);
	n->a->nmasks = 1;
	n->a->overlay_mask = 0;
	mk = &n->a->masks[0];
	mk->name = bb__strdup("upperBody");
	mk->bones = bb__calloc((size_t)n->a->nbones, 1);
	if (!mk->name || !mk->bones)
		return nomem(n);
	bb__jpath_key(&n->j.path, "upperBody");
	for (i = 0; i < json_array_size(list); i++) {
		const char *name = json_string_value(json_array_get(list, i));
		int b = name ? find_bone(n->a, n->a->nbones, name) : -1;

		if (b < 0) {
			bb__jpath_index(&n->j.path, i);
			return name ? bb__jfail(&n->j, NULL, "unknown bone \"%s\"", name)
			            : bb__jfail(&n->j, NULL, "expected a bone name");
		}
		mk->bones[b] = 1;
	}
	bb__jpath_init(&n->j.path);
	return BB_OK;
}

static bb_status load_root(struct native *n, json_t *root)
{
	const char *format, *name;
	double version;
	bb_status s;

	if ((s = bb__jexpect_object(&n->j, root)) != BB_OK ||
	    (s = bb__jstr(&n->j, root, "format", 1, &format)) != BB_OK)
		return s;
	if (strcmp(format, "bonebake-skeleton") != 0)
		return bb__jfail(&n->j, "format", "expected \"bonebake-skeleton\"");
	if (!json_object_get(root, "version"))
		return bb__jfail(&n->j, "version", "missing");
	if ((s = bb__jnum(&n->j, root, "version", 1, &version)) != BB_OK)
		return s;
	if (version != 1)
		return bb__jfail(&n->j, "version", "unsupported version %g (this "
		                 "bonebake reads version 1)", version);
	if ((s = bb__jstr(&n->j, root, "name", 0, &name)) != BB_OK ||
	    (s = bb__jnum_range(&n->j, root, "fps", 30, 0.001, 1000, &n->a->fps)) != BB_OK)
		return s;
	n->a->name = bb__strdup(name ? name : "skeleton");
	if (!n->a->name)
		return nomem(n);
	if ((s = load_bones(n, root)) != BB_OK ||
	    (s = load_sets(n, root)) != BB_OK ||
	    (s = load_slots(n, root)) != BB_OK ||
	    (s = load_mask(n, root)) != BB_OK ||
	    (s = load_anims(n, root)) != BB_OK)
		return s;
	return BB_OK;
}

int bb__sniff_native(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"bonebake-skeleton\"") != NULL;
}

bb_status bb__load_native(const bb__load_ctx *ctx, bb_model **out, bb_error *err)
{
	struct native n;
	json_t *root;
	bb_status s;

	*out = NULL;
	s = bb__json_parse(ctx->data, ctx->size, ctx->name, &root, err);
	if (s != BB_OK)
		return s;
	memset(&n, 0, sizeof n);
	n.ctx = ctx;
	n.j.file = ctx->name;
	n.j.err = err;
	bb__jpath_init(&n.j.path);
	n.m = bb__model_new("bonebake-skeleton");
	if (!n.m || !(n.a = bb__model_add_armature(n.m)))
		s = nomem(&n);
	else
		s = load_root(&n, root);
	json_decref(root);
	free(n.slot_of_bone);
	free(n.sets);
	if (s != BB_OK) {
		bb_model_free(n.m);
		return s;
	}
	*out = n.m;
	return BB_OK;
}
