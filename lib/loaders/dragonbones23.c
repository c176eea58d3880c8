/* DragonBones 2.3 / 3.0 JSON: global-space data, read as the DragonBones
 * 5.0 runtime read it (spec dragonbones.md 4; DragonBonesJS 5.0
 * ObjectDataParser and DataParser._globalToLocal), by translating the
 * document into the 4.5 form dragonbones.c reads:
 *
 * - slots come from skin[].slot[] (and an armature-level slot[] if there
 *   is one), each with its bone (`parent`), drawn in `z` order;
 * - bone transforms, setup and keys, are in armature space: each is taken
 *   into its parent's space, the setup with the parent's setup, a key with
 *   the parent's pose at the key's frame (its keys interpolated as the
 *   runtime does, eased, ignoring timeline offset and scale); position
 *   through the inverse of the parent's matrix, angles minus the parent's
 *   rotation; bones do not inherit scale.  So at a key time a bone's world
 *   transform is the file's (when its parents' timelines line up);
 * - `timeline[]` per bone carries the bone's keys and its slot's (display
 *   index, `hide`, `colorTransform`, `z`); a slot without a timeline is
 *   hidden in that animation; `loop` is the play count; a key without
 *   `tweenEasing` takes the animation's (autoTween), the runtime's
 *   no-tween rules applied (zero-length keys, single frames of an unscaled
 *   animation, a key before a hidden one); frame pivots `pX`/`pY` move the
 *   key along its own axes;
 * - image displays place their image's top-left corner at -(pX, pY).
 *
 * This file reads the document, bones, slots and skins; animations are in
 * dragonbones23-anim.c.  Everything read is checked, with the file's own
 * field paths, so the 4.5 reader never sees a value it could reject. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones23.h"

#define DEG (M_PI / 180)

static const struct tf tf_identity = { 0, 0, 0, 0, 1, 1 };

/* ---- building the translated document ------------------------------------ */

json_t *bb__db23_put(struct g23 *g, json_t *obj, const char *key, json_t *v)
{
	if (!v || !obj) {
		json_decref(v);
		g->oom = 1;
		return NULL;
	}
	if (json_object_set_new(obj, key, v) != 0) {
		g->oom = 1;
		return NULL;
	}
	return v;
}

void bb__db23_put_num(struct g23 *g, json_t *obj, const char *key, double v)
{
	if (!isfinite(v)) {
		g->inf = 1;
		return;
	}
	bb__db23_put(g, obj, key, json_real(v));
}

/* Copies member `key` of src into dst, when src has it. */
void bb__db23_copy(struct g23 *g, json_t *dst, json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);

	if (v)
		bb__db23_put(g, dst, key, json_incref(v));
}

void bb__db23_append(struct g23 *g, json_t *arr, json_t *v)
{
	if (!v || !arr || json_array_append_new(arr, v) != 0)
		g->oom = 1;
}

/* The status of the sticky flags at the current path. */
bb_status bb__db23_flags(struct g23 *g)
{
	if (g->oom)
		return bb__db_nomem(g->d);
	if (g->inf)
		return bb__jfail(&g->d->j, NULL, "a transform is out of range");
	return BB_OK;
}

/* ---- transforms ------------------------------------------------------------ */

bb_affine bb__db23_matrix(const struct tf *t)
{
	bb_xform x = { t->x, t->y, t->sky, t->skx - t->sky, t->sx, t->sy };

	return bb__xform_matrix(&x);
}

/* transform {x, y, skX, skY, scX, scY, pX, pY} of obj (absent: identity,
 * *has = 0). */
bb_status bb__db23_read_tf(struct g23 *g, json_t *obj, struct tf *t, double *px,
                           double *py, int *has)
{
	struct db *d = g->d;
	json_t *tr = json_object_get(obj, "transform");
	size_t mark;
	bb_status s;

	*t = tf_identity;
	*px = *py = 0;
	*has = 0;
	if (!tr || json_is_null(tr))
		return BB_OK;
	mark = bb__jpath_key(&d->j.path, "transform");
	if ((s = bb__jexpect_object(&d->j, tr)) != BB_OK ||
	    (s = bb__db_num(d, tr, "x", 0, &t->x)) != BB_OK ||
	    (s = bb__db_num(d, tr, "y", 0, &t->y)) != BB_OK ||
	    (s = bb__db_num(d, tr, "skX", 0, &t->skx)) != BB_OK ||
	    (s = bb__db_num(d, tr, "skY", 0, &t->sky)) != BB_OK ||
	    (s = bb__db_num(d, tr, "scX", 1, &t->sx)) != BB_OK ||
	    (s = bb__db_num(d, tr, "scY", 1, &t->sy)) != BB_OK ||
	    (s = bb__db_num(d, tr, "pX", 0, px)) != BB_OK ||
	    (s = bb__db_num(d, tr, "pY", 0, py)) != BB_OK)
		return s;
	t->skx *= DEG;
	t->sky *= DEG;
	*has = 1;
	bb__jpath_pop(&d->j.path, mark);
	return BB_OK;
}

/* Armature-space transform G of a bone whose parent's is P, in the
 * parent's space: the inverse of the world transform of a bone that
 * inherits translation and rotation but not scale (eval/world.c, and the
 * 5.0 runtime's Bone for its data): position through the parent's matrix,
 * rotation plus the parent's (mirrored when the parent's matrix is), skew
 * and scale its own. */
struct tf bb__db23_to_local(const struct tf *G, const struct tf *P)
{
	bb_affine m = bb__db23_matrix(P), inv;
	bb_vec2 v;
	struct tf l = *G;
	double off = P->sky + (P->sx < 0 ? M_PI : 0);

	if (!bb_affine_invert(m, &inv)) {
		/* a collapsed parent: only its rotation is undone */
		struct tf r = { P->x, P->y, P->skx, P->sky, 1, 1 };

		bb_affine_invert(bb__db23_matrix(&r), &inv);
		m.a = m.d = 1;
		m.b = m.c = 0;
	}
	v = bb_affine_apply(inv, G->x, G->y);
	l.x = v.x;
	l.y = v.y;
	if (m.a * m.d - m.b * m.c >= 0) {
		l.sky = G->sky - off;
		l.skx = G->skx - off;
	} else {
		l.sky = off - G->sky;
		l.skx = l.sky + (G->skx - G->sky) - M_PI;
	}
	return l;
}

/* {x, y, skX, skY, scX, scY} (degrees) of t. */
json_t *bb__db23_tf_json(struct g23 *g, const struct tf *t)
{
	json_t *o = json_object();

	if (!o) {
		g->oom = 1;
		return NULL;
	}
	bb__db23_put_num(g, o, "x", t->x);
	bb__db23_put_num(g, o, "y", t->y);
	bb__db23_put_num(g, o, "skX", t->skx / DEG);
	bb__db23_put_num(g, o, "skY", t->sky / DEG);
	bb__db23_put_num(g, o, "scX", t->sx);
	bb__db23_put_num(g, o, "scY", t->sy);
	return o;
}

/* A colour transform object, checked, as the 4.5 `color` object. */
bb_status bb__db23_color(struct g23 *g, json_t *c, json_t **out)
{
	static const char *const keys[8] = { "aM", "rM", "gM", "bM", "aO", "rO",
	                                     "gO", "bO" };
	double v;
	int i;
	bb_status s;

	*out = NULL;
	if (!c || json_is_null(c))
		return BB_OK;
	if ((s = bb__jexpect_object(&g->d->j, c)) != BB_OK)
		return s;
	if (!(*out = json_object()))
		return bb__db_nomem(g->d);
	for (i = 0; i < 8; i++) {
		if ((s = bb__db_num(g->d, c, keys[i], i < 4 ? 100 : 0, &v)) != BB_OK) {
			json_decref(*out);
			*out = NULL;
			return s;
		}
		bb__db23_put_num(g, *out, keys[i], v);
	}
	return BB_OK;
}

/* Optional string members of obj: an error when present and not a string. */
bb_status bb__db23_strings(struct g23 *g, json_t *obj, const char *const *keys)
{
	const char *v;
	bb_status s;

	for (; *keys; keys++)
		if ((s = bb__jstr(&g->d->j, obj, *keys, 0, &v)) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- bones ------------------------------------------------------------------ */

int bb__db23_bone(const struct g23 *g, const char *name)
{
	int i;

	for (i = 0; i < g->nbones; i++)
		if (strcmp(g->bones[i].name, name) == 0)
			return i;
	return -1;
}

static bb_status read_bones(struct g23 *g, json_t *out)
{
	struct db *d = g->d;
	json_t *arr, *dst;
	size_t n, i;
	bb_status s;

	if ((s = bb__jarray(&d->j, g->ja, "bone", 0, &arr)) != BB_OK)
		return s;
	n = json_array_size(arr);
	if (n > (size_t)d->ctx->opts->max_bones)
		return bb_error_set(d->j.err, BB_ERR_LIMIT, d->ctx->name, d->j.path.buf,
		                    "%zu bones exceed the limit of %d", n,
		                    d->ctx->opts->max_bones);
	if (n && !(g->bones = bb__calloc(n, sizeof *g->bones)))
		return bb__db_nomem(d);
	/* names and armature-space setup poses */
	for (i = 0; i < n; i++) {
		json_t *jb = json_array_get(arr, i);
		struct bone23 *b = &g->bones[i];
		size_t mark = bb__jpath_key(&d->j.path, "bone");
		double px, py, len;
		int has;

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__jexpect_object(&d->j, jb)) != BB_OK ||
		    (s = bb__jstr(&d->j, jb, "name", 1, &b->name)) != BB_OK ||
		    (s = bb__db_num(d, jb, "length", 0, &len)) != BB_OK ||
		    (s = bb__db23_read_tf(g, jb, &b->g, &px, &py, &has)) != BB_OK)
			return s;
		if (bb__db23_bone(g, b->name) >= 0)
			return bb__jfail(&d->j, "name", "duplicate bone name \"%s\"", b->name);
		g->nbones = (int)i + 1;
		bb__jpath_pop(&d->j.path, mark);
	}
	/* parents, and the setup poses in their parents' space */
	if (!(dst = bb__db23_put(g, out, "bone", json_array())))
		return bb__db_nomem(d);
	for (i = 0; i < n; i++) {
		json_t *jb = json_array_get(arr, i), *ob = json_object();
		struct bone23 *b = &g->bones[i];
		const char *pname;
		size_t mark = bb__jpath_key(&d->j.path, "bone");

		bb__jpath_index(&d->j.path, i);
		bb__db23_append(g, dst, ob);
		if ((s = bb__jstr(&d->j, jb, "parent", 0, &pname)) != BB_OK)
			return s;
		b->parent = pname ? bb__db23_bone(g, pname) : -1;
		if (pname && b->parent < 0)
			return bb__jfail(&d->j, "parent", "unknown bone \"%s\"", pname);
		b->l = b->g;
		if (b->parent >= 0 && g->global)
			b->l = bb__db23_to_local(&b->g, &g->bones[b->parent].g);
		/* a zero setup scale could not carry the keys' scales (the
		 * runtime makes its origin 0.001 too) */
		if (b->l.sx == 0)
			b->l.sx = 0.001;
		if (b->l.sy == 0)
			b->l.sy = 0.001;
		bb__db23_copy(g, ob, jb, "name");
		bb__db23_copy(g, ob, jb, "parent");
		bb__db23_copy(g, ob, jb, "length");
		bb__db23_put(g, ob, "transform", bb__db23_tf_json(g, &b->l));
		bb__db23_put(g, ob, "inheritScale", json_false());
		if ((s = bb__db23_flags(g)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- slots and skins --------------------------------------------------------- */

int bb__db23_slot(const struct g23 *g, const char *name)
{
	int i;

	for (i = 0; i < g->nslots; i++)
		if (strcmp(g->slots[i].name, name) == 0)
			return i;
	return -1;
}

/* The colour transform of slot definition js (colorTransform, or color),
 * checked; *out NULL when it has none. */
static bb_status slot_color(struct g23 *g, json_t *js, json_t **out)
{
	const char *key = json_object_get(js, "colorTransform") ? "colorTransform"
	                                                          : "color";
	size_t mark = bb__jpath_key(&g->d->j.path, key);
	bb_status s = bb__db23_color(g, json_object_get(js, key), out);

	if (s == BB_OK)
		bb__jpath_pop(&g->d->j.path, mark);
	return s;
}

/* A slot definition js (path set): a new slot, z by default zdef, or one
 * more skin's entry of a known slot.  ndisp: its display count, -1 when
 * the entry has no display list (an armature-level slot). */
static bb_status add_slot(struct g23 *g, json_t *js, double zdef, int ndisp,
                          size_t *cap)
{
	struct db *d = g->d;
	const char *name, *parent;
	json_t *bm = json_object_get(js, "blendMode"), *col;
	struct slot23 *sl;
	double z, di;
	int k;
	bb_status s;

	if ((s = bb__jexpect_object(&d->j, js)) != BB_OK ||
	    (s = bb__jstr(&d->j, js, "name", 1, &name)) != BB_OK)
		return s;
	if ((k = bb__db23_slot(g, name)) >= 0) {
		if (g->slots[k].ndisp < ndisp)
			g->slots[k].ndisp = ndisp;
		return BB_OK;
	}
	if ((s = bb__jstr(&d->j, js, "parent", 1, &parent)) != BB_OK ||
	    (s = bb__db_num(d, js, "z", zdef, &z)) != BB_OK)
		return s;
	if (bm && !json_is_null(bm) && !json_is_string(bm) && !json_is_number(bm))
		return bb__jfail(&d->j, "blendMode", "expected a string or a number");
	if ((s = slot_color(g, js, &col)) != BB_OK)
		return s;
	json_decref(col);
	if (!bb__grow((void **)&g->slots, cap, (size_t)g->nslots + 1, sizeof *g->slots))
		return bb__db_nomem(d);
	sl = &g->slots[g->nslots];
	memset(sl, 0, sizeof *sl);
	sl->name = name;
	sl->src = js;
	sl->seq = g->nslots;
	sl->ndisp = ndisp;
	sl->z = z;
	if ((sl->bone = bb__db23_bone(g, parent)) < 0)
		return bb__jfail(&d->j, "parent", "unknown bone \"%s\"", parent);
	if ((s = bb__db_num(d, js, "displayIndex", 0, &di)) != BB_OK)
		return s;
	di = floor(di);
	sl->display = di < -1 ? -1 : di > 1e6 ? 1000000 : (int)di;
	g->nslots++;
	return BB_OK;
}

/* The setup display index of slot k (its definition at the current path)
 * against the displays its skins give it. */
static bb_status check_setup_display(struct g23 *g, int k)
{
	const struct slot23 *sl = &g->slots[k];

	if (!json_object_get(sl->src, "displayIndex") ||
	    (sl->display >= -1 && sl->display < (sl->ndisp > 0 ? sl->ndisp : 0)))
		return BB_OK;
	return bb__jfail(&g->d->j, "displayIndex", "display %d out of range (slot "
	                 "\"%s\" has %d)", sl->display, sl->name,
	                 sl->ndisp > 0 ? sl->ndisp : 0);
}

static int slot_cmp(const void *a, const void *b)
{
	const struct slot23 *x = a, *y = b;

	if (x->z != y->z)
		return x->z < y->z ? -1 : 1;
	return x->seq - y->seq;
}

/* Slots from the armature's slot[] and every skin's slot[], then the
 * output's slot[] in z order (equal z: in the order they are defined). */
static bb_status read_slots(struct g23 *g, json_t *out)
{
	struct db *d = g->d;
	json_t *arr, *skins, *dst;
	size_t cap = 0, i, j;
	int k, narm;
	bb_status s;

	if ((s = bb__jarray(&d->j, g->ja, "slot", 0, &arr)) != BB_OK ||
	    (s = bb__jarray(&d->j, g->ja, "skin", 0, &skins)) != BB_OK)
		return s;
	for (i = 0; i < json_array_size(arr); i++) {
		size_t mark = bb__jpath_key(&d->j.path, "slot");

		bb__jpath_index(&d->j.path, i);
		if ((s = add_slot(g, json_array_get(arr, i), (double)i, -1, &cap)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	narm = g->nslots;
	for (j = 0; j < json_array_size(skins); j++) {
		json_t *sk = json_array_get(skins, j), *slots;
		size_t mark = bb__jpath_key(&d->j.path, "skin");

		bb__jpath_index(&d->j.path, j);
		if ((s = bb__jexpect_object(&d->j, sk)) != BB_OK ||
		    (s = bb__jarray(&d->j, sk, "slot", 0, &slots)) != BB_OK)
			return s;
		for (i = 0; i < json_array_size(slots); i++) {
			json_t *js = json_array_get(slots, i), *disp;
			size_t m2 = bb__jpath_key(&d->j.path, "slot");
			int known = g->nslots;

			bb__jpath_index(&d->j.path, i);
			if ((s = bb__jexpect_object(&d->j, js)) != BB_OK ||
			    (s = bb__jarray(&d->j, js, "display", 0, &disp)) != BB_OK ||
			    (s = add_slot(g, js, (double)i, (int)json_array_size(disp),
			                  &cap)) != BB_OK ||
			    (g->nslots > known && (s = check_setup_display(g, known)) != BB_OK))
				return s;
			bb__jpath_pop(&d->j.path, m2);
		}
		bb__jpath_pop(&d->j.path, mark);
	}
	/* armature-level slots, now that the skins gave them their displays */
	for (k = 0; k < narm; k++) {
		size_t mark = bb__jpath_key(&d->j.path, "slot");

		for (i = 0; json_array_get(arr, i) != g->slots[k].src; i++)
			;
		bb__jpath_index(&d->j.path, i);
		if ((s = check_setup_display(g, k)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	if (g->nslots > 1)
		qsort(g->slots, (size_t)g->nslots, sizeof *g->slots, slot_cmp);
	if (!(dst = bb__db23_put(g, out, "slot", json_array())))
		return bb__db_nomem(d);
	for (k = 0; k < g->nslots; k++) {
		json_t *os = json_object(), *src = g->slots[k].src, *c;

		bb__db23_append(g, dst, os);
		bb__db23_copy(g, os, src, "name");
		bb__db23_copy(g, os, src, "parent");
		bb__db23_copy(g, os, src, "blendMode");
		bb__db23_put_num(g, os, "displayIndex", g->slots[k].display);
		if ((s = slot_color(g, src, &c)) != BB_OK)
			return s;   /* checked in add_slot: does not fail here */
		if (c)
			bb__db23_put(g, os, "color", c);
	}
	return bb__db23_flags(g);
}

static int is_image(json_t *jd)
{
	json_t *t = json_object_get(jd, "type");

	return !json_is_string(t) || strcmp(json_string_value(t), "image") == 0;
}

/* The skins as they are, but image displays with a pixel pivot (pX, pY in
 * their transform, no `pivot`) get pivot {0, 0} and the pivot moved into
 * their transform: the image's top-left corner sits at -(pX, pY). */
static bb_status copy_skins(struct g23 *g, json_t *out)
{
	struct db *d = g->d;
	json_t *skins = json_object_get(g->ja, "skin"), *dst;
	size_t i, j, k;
	bb_status s;

	if (!skins)
		return BB_OK;
	if (!(dst = bb__db23_put(g, out, "skin", json_deep_copy(skins))))
		return bb__db_nomem(d);
	for (i = 0; i < json_array_size(dst); i++) {
		json_t *slots = json_object_get(json_array_get(dst, i), "slot");
		size_t mark = bb__jpath_key(&d->j.path, "skin");

		bb__jpath_index(&d->j.path, i);
		for (j = 0; j < json_array_size(slots); j++) {
			json_t *disps = json_object_get(json_array_get(slots, j), "display");
			size_t m2 = bb__jpath_key(&d->j.path, "slot");

			bb__jpath_index(&d->j.path, j);
			for (k = 0; k < json_array_size(disps); k++) {
				json_t *jd = json_array_get(disps, k), *pv;
				struct tf t;
				double px, py;
				bb_affine m;
				int has;
				size_t m3 = bb__jpath_key(&d->j.path, "display");

				bb__jpath_index(&d->j.path, k);
				if (!json_is_object(jd) || !is_image(jd) ||
				    json_object_get(jd, "pivot")) {
					bb__jpath_pop(&d->j.path, m3);
					continue;
				}
				if ((s = bb__db23_read_tf(g, jd, &t, &px, &py, &has)) != BB_OK)
					return s;
				m = bb__db23_matrix(&t);
				t.x -= m.a * px + m.c * py;
				t.y -= m.b * px + m.d * py;
				bb__db23_put(g, jd, "transform", bb__db23_tf_json(g, &t));
				if ((pv = bb__db23_put(g, jd, "pivot", json_object()))) {
					bb__db23_put_num(g, pv, "x", 0);
					bb__db23_put_num(g, pv, "y", 0);
				}
				if ((s = bb__db23_flags(g)) != BB_OK)
					return s;
				bb__jpath_pop(&d->j.path, m3);
			}
			bb__jpath_pop(&d->j.path, m2);
		}
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- the document -------------------------------------------------------------- */

static bb_status read_armature(struct g23 *g, json_t *ja, json_t *dst)
{
	struct db *d = g->d;
	json_t *oa = json_object(), *anims, *oanims;
	double fps;
	size_t i;
	bb_status s;

	bb__db23_append(g, dst, oa);
	g->ja = ja;
	if ((s = bb__db23_flags(g)) != BB_OK ||
	    (s = bb__jexpect_object(&d->j, ja)) != BB_OK ||
	    (s = bb__db_num(d, ja, "frameRate", 24, &fps)) != BB_OK)
		return s;
	bb__db23_copy(g, oa, ja, "name");
	bb__db23_copy(g, oa, ja, "frameRate");
	bb__db23_copy(g, oa, ja, "type");
	if ((s = read_bones(g, oa)) != BB_OK || (s = read_slots(g, oa)) != BB_OK ||
	    (s = copy_skins(g, oa)) != BB_OK ||
	    (s = bb__jarray(&d->j, ja, "animation", 0, &anims)) != BB_OK)
		return s;
	g->tl_of_bone = bb__calloc((size_t)g->nbones + 1, sizeof *g->tl_of_bone);
	g->tl_of_slot = bb__calloc((size_t)g->nslots + 1, sizeof *g->tl_of_slot);
	if (!g->tl_of_bone || !g->tl_of_slot)
		return bb__db_nomem(d);
	if (!(oanims = bb__db23_put(g, oa, "animation", json_array())))
		return bb__db_nomem(d);
	for (i = 0; i < json_array_size(anims); i++) {
		size_t mark = bb__jpath_key(&d->j.path, "animation");

		bb__jpath_index(&d->j.path, i);
		if ((s = bb__db23_read_animation(g, json_array_get(anims, i), oanims)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return bb__db23_flags(g);
}

int bb__db23_is_old(json_t *root)
{
	json_t *v = json_object_get(root, "version");
	double ver = json_is_number(v) ? json_number_value(v)
	           : json_is_string(v) ? strtod(json_string_value(v), NULL) : 0;

	return fabs(ver - 2.3) < 1e-9 || fabs(ver - 3.0) < 1e-9;
}

bb_status bb__db23_translate(struct db *d, json_t *in, json_t **root)
{
	struct g23 g;
	json_t *out = json_object(), *arms, *oarms;
	size_t i;
	bb_status s;

	memset(&g, 0, sizeof g);
	g.d = d;
	if (!out)
		return bb__db_nomem(d);
	if ((s = bb__db_bool(d, in, "isGlobal", 1, &g.global)) != BB_OK ||
	    (s = bb__jarray(&d->j, in, "armature", 1, &arms)) != BB_OK)
		goto out;
	bb__db23_put(&g, out, "version", json_string("4.5"));
	bb__db23_copy(&g, out, in, "name");
	bb__db23_copy(&g, out, in, "frameRate");
	oarms = bb__db23_put(&g, out, "armature", json_array());
	for (i = 0; i < json_array_size(arms) && s == BB_OK; i++) {
		size_t mark = bb__jpath_key(&d->j.path, "armature");

		bb__jpath_index(&d->j.path, i);
		s = read_armature(&g, json_array_get(arms, i), oarms);
		bb__db23_free_timelines(&g);
		free(g.bones);
		free(g.slots);
		free(g.tl_of_bone);
		free(g.tl_of_slot);
		g.bones = NULL;
		g.slots = NULL;
		g.tl_of_bone = g.tl_of_slot = NULL;
		g.nbones = g.nslots = 0;
		if (s == BB_OK)
			bb__jpath_pop(&d->j.path, mark);
	}
	if (s == BB_OK)
		s = bb__db23_flags(&g);
out:
	if (s != BB_OK) {
		json_decref(out);
		return s;
	}
	bb__jpath_init(&d->j.path);
	*root = out;
	return BB_OK;
}
