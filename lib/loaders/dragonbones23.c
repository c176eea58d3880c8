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


static const struct tf tf_identity = { 0, 0, 0, 0, 1, 1 };

/* ---- building the translated document ------------------------------------ */

/* The status of the writer's sticky flags at the current path. */
bb_status bb__db23_flags(struct g23 *g)
{
	if (g->w.oom)
		return bb__build_nomem(g->d->b);
	if (g->w.inf)
		return bb__jfail(g->j, NULL, "a transform is out of range");
	return BB_OK;
}

/* ---- transforms ------------------------------------------------------------ */

bb_affine bb__db23_matrix(const struct tf *t)
{
	bb_xform x = { t->x, t->y, t->sky, t->skx - t->sky, t->sx, t->sy, 0 };

	return bb__xform_matrix(&x);
}

/* transform {x, y, skX, skY, scX, scY, pX, pY} of obj (absent: identity,
 * *has = 0). */
bb_status bb__db23_read_tf(struct g23 *g, json_t *obj, struct tf *t, double *px,
                           double *py, int *has)
{
	json_t *tr;
	size_t mark;
	bb_status s;

	*t = tf_identity;
	*px = *py = 0;
	*has = 0;
	if ((s = bb__jobject(g->j, obj, "transform", 0, &tr)) != BB_OK || !tr)
		return s;
	mark = bb__jpath_key(&g->j->path, "transform");
	if ((s = bb__jnum(g->j, tr, "x", 0, &t->x)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "y", 0, &t->y)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "skX", 0, &t->skx)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "skY", 0, &t->sky)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "scX", 1, &t->sx)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "scY", 1, &t->sy)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "pX", 0, px)) != BB_OK ||
	    (s = bb__jnum(g->j, tr, "pY", 0, py)) != BB_OK)
		return s;
	t->skx *= BB__DEG;
	t->sky *= BB__DEG;
	*has = 1;
	bb__jpath_pop(&g->j->path, mark);
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
	json_t *o = bb__jw_object(&g->w);

	bb__jw_num(&g->w, o, "x", t->x);
	bb__jw_num(&g->w, o, "y", t->y);
	bb__jw_num(&g->w, o, "skX", t->skx / BB__DEG);
	bb__jw_num(&g->w, o, "skY", t->sky / BB__DEG);
	bb__jw_num(&g->w, o, "scX", t->sx);
	bb__jw_num(&g->w, o, "scY", t->sy);
	return o;
}

bb_status bb__db23_color(struct g23 *g, json_t *obj, const char *key,
                         json_t **out)
{
	static const char *const keys[8] = { "aM", "rM", "gM", "bM", "aO", "rO",
	                                     "gO", "bO" };
	json_t *c;
	size_t mark;
	double v;
	int i;
	bb_status s;

	*out = NULL;
	if ((s = bb__jobject(g->j, obj, key, 0, &c)) != BB_OK || !c)
		return s;
	mark = bb__jpath_key(&g->j->path, key);
	*out = bb__jw_object(&g->w);
	for (i = 0; i < 8; i++) {
		if ((s = bb__jnum(g->j, c, keys[i], i < 4 ? 100 : 0, &v)) != BB_OK) {
			bb__json_free(*out);
			*out = NULL;
			return s;
		}
		bb__jw_num(&g->w, *out, keys[i], v);
	}
	bb__jpath_pop(&g->j->path, mark);
	return BB_OK;
}

bb_status bb__db23_strings(struct g23 *g, json_t *obj, const char *const *keys)
{
	const char *v;
	bb_status s;

	for (; *keys; keys++)
		if ((s = bb__jstr(g->j, obj, *keys, 0, &v)) != BB_OK)
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
	bb__jiter it;
	json_t *jb, *dst;
	bb_status s;

	if ((s = bb__jeach(g->j, g->ja, "bone", 0, &it)) != BB_OK)
		return s;
	if (it.n > (size_t)g->d->c->opts->max_bones)
		return bb__jlimit(g->j, NULL, "%zu bones exceed the limit of %d", it.n,
		                  g->d->c->opts->max_bones);
	if (it.n && !(g->bones = bb__calloc(it.n, sizeof *g->bones)))
		return bb__build_nomem(g->d->b);
	/* names and armature-space setup poses */
	while (bb__jnext(&it, &jb)) {
		struct bone23 *b = &g->bones[it.index];
		double px, py, len;
		int has;

		if ((s = bb__jstr(g->j, jb, "name", 1, &b->name)) != BB_OK ||
		    (s = bb__jnum(g->j, jb, "length", 0, &len)) != BB_OK ||
		    (s = bb__db23_read_tf(g, jb, &b->g, &px, &py, &has)) != BB_OK)
			return s;
		if (bb__db23_bone(g, b->name) >= 0)
			return bb__jfail(g->j, "name", "duplicate bone name \"%s\"", b->name);
		g->nbones = (int)it.index + 1;
	}
	/* parents, and the setup poses in their parents' space */
	if (!(dst = bb__jw_set(&g->w, out, "bone", bb__jw_array(&g->w))))
		return bb__build_nomem(g->d->b);
	bb__jeach(g->j, g->ja, "bone", 0, &it);
	while (bb__jnext(&it, &jb)) {
		struct bone23 *b = &g->bones[it.index];
		json_t *ob = bb__jw_object(&g->w);
		const char *pname;

		bb__jw_append(&g->w, dst, ob);
		if ((s = bb__jstr(g->j, jb, "parent", 0, &pname)) != BB_OK)
			return s;
		b->parent = pname ? bb__db23_bone(g, pname) : -1;
		if (pname && b->parent < 0)
			return bb__jfail(g->j, "parent", "unknown bone \"%s\"", pname);
		b->l = b->g;
		if (b->parent >= 0 && g->global)
			b->l = bb__db23_to_local(&b->g, &g->bones[b->parent].g);
		/* a zero setup scale could not carry the keys' scales (the
		 * runtime makes its origin 0.001 too) */
		if (b->l.sx == 0)
			b->l.sx = 0.001;
		if (b->l.sy == 0)
			b->l.sy = 0.001;
		bb__jw_copy(&g->w, ob, jb, "name");
		bb__jw_copy(&g->w, ob, jb, "parent");
		bb__jw_copy(&g->w, ob, jb, "length");
		bb__jw_set(&g->w, ob, "transform", bb__db23_tf_json(g, &b->l));
		bb__jw_set(&g->w, ob, "inheritScale", bb__jw_bool(&g->w, 0));
		if ((s = bb__db23_flags(g)) != BB_OK)
			return s;
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
	return bb__db23_color(g, js, bb__jhas_member(js, "colorTransform") ?
	                      "colorTransform" : "color", out);
}

/* A slot definition js (path set): a new slot, z by default zdef, or one
 * more skin's entry of a known slot.  ndisp: its display count, -1 when
 * the entry has no display list (an armature-level slot at arm_index). */
static bb_status add_slot(struct g23 *g, json_t *js, double zdef, int ndisp,
                          int arm_index, size_t *cap)
{
	const char *name, *parent;
	bb__jkind bm = bb__jkind_of(js, "blendMode");
	struct slot23 *sl;
	json_t *col;
	double z, di;
	int k;
	bb_status s;

	if ((s = bb__jstr(g->j, js, "name", 1, &name)) != BB_OK)
		return s;
	if ((k = bb__db23_slot(g, name)) >= 0) {
		if (g->slots[k].ndisp < ndisp)
			g->slots[k].ndisp = ndisp;
		return BB_OK;
	}
	if ((s = bb__jstr(g->j, js, "parent", 1, &parent)) != BB_OK ||
	    (s = bb__jnum(g->j, js, "z", zdef, &z)) != BB_OK)
		return s;
	if (bm != BB_JK_ABSENT && bm != BB_JK_STRING && bm != BB_JK_NUMBER)
		return bb__jfail(g->j, "blendMode", "expected a string or a number");
	if ((s = slot_color(g, js, &col)) != BB_OK)
		return s;
	bb__json_free(col);
	if (!bb__grow((void **)&g->slots, cap, (size_t)g->nslots + 1, sizeof *g->slots))
		return bb__build_nomem(g->d->b);
	sl = &g->slots[g->nslots];
	memset(sl, 0, sizeof *sl);
	sl->name = name;
	sl->src = js;
	sl->seq = g->nslots;
	sl->ndisp = ndisp;
	sl->arm_index = arm_index;
	sl->z = z;
	if ((sl->bone = bb__db23_bone(g, parent)) < 0)
		return bb__jfail(g->j, "parent", "unknown bone \"%s\"", parent);
	if ((s = bb__jnum(g->j, js, "displayIndex", 0, &di)) != BB_OK)
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

	if (!bb__jhas_member(sl->src, "displayIndex") ||
	    (sl->display >= -1 && sl->display < (sl->ndisp > 0 ? sl->ndisp : 0)))
		return BB_OK;
	return bb__jfail(g->j, "displayIndex", "display %d out of range (slot "
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
	bb__jiter it, st, dt;
	json_t *js, *sk, *dst;
	size_t cap = 0;
	int k, narm, known;
	bb_status s;

	if ((s = bb__jeach(g->j, g->ja, "slot", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &js))
		if ((s = add_slot(g, js, (double)it.index, -1, (int)it.index,
		                  &cap)) != BB_OK)
			return s;
	narm = g->nslots;
	if ((s = bb__jeach(g->j, g->ja, "skin", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &sk)) {
		if ((s = bb__jeach(g->j, sk, "slot", 0, &st)) != BB_OK)
			return s;
		while (bb__jnext(&st, &js)) {
			known = g->nslots;
			if ((s = bb__jexpect_object(g->j, js)) != BB_OK ||
			    (s = bb__jeach(g->j, js, "display", 0, &dt)) != BB_OK)
				return s;
			bb__jdone(&dt);
			if ((s = add_slot(g, js, (double)st.index, (int)dt.n, -1,
			                  &cap)) != BB_OK ||
			    (g->nslots > known && (s = check_setup_display(g, known)) != BB_OK))
				return s;
		}
	}
	/* armature-level slots, now that the skins gave them their displays */
	for (k = 0; k < narm; k++) {
		size_t mark = bb__jpath_key(&g->j->path, "slot");

		bb__jpath_index(&g->j->path, (size_t)g->slots[k].arm_index);
		if ((s = check_setup_display(g, k)) != BB_OK)
			return s;
		bb__jpath_pop(&g->j->path, mark);
	}
	if (g->nslots > 1)
		qsort(g->slots, (size_t)g->nslots, sizeof *g->slots, slot_cmp);
	if (!(dst = bb__jw_set(&g->w, out, "slot", bb__jw_array(&g->w))))
		return bb__build_nomem(g->d->b);
	for (k = 0; k < g->nslots; k++) {
		json_t *os = bb__jw_object(&g->w), *src = g->slots[k].src, *c;

		bb__jw_append(&g->w, dst, os);
		bb__jw_copy(&g->w, os, src, "name");
		bb__jw_copy(&g->w, os, src, "parent");
		bb__jw_copy(&g->w, os, src, "blendMode");
		bb__jw_num(&g->w, os, "displayIndex", g->slots[k].display);
		if ((s = slot_color(g, src, &c)) != BB_OK)
			return s;   /* checked in add_slot: does not fail here */
		if (c)
			bb__jw_set(&g->w, os, "color", c);
	}
	return bb__db23_flags(g);
}

/* The skins as they are, but image displays with a pixel pivot (pX, pY in
 * their transform, no `pivot`) get pivot {0, 0} and the pivot moved into
 * their transform: the image's top-left corner sits at -(pX, pY). */
static bb_status copy_skins(struct g23 *g, json_t *out)
{
	bb__jiter it, st, dt;
	json_t *skins, *dst, *sk, *js, *jd, *pv;
	const char *type;
	bb_status s;

	if ((s = bb__jarray(g->j, g->ja, "skin", 0, &skins)) != BB_OK || !skins)
		return s;
	if (!(dst = bb__jw_set(&g->w, out, "skin", bb__jw_deep_copy(&g->w, skins))))
		return bb__build_nomem(g->d->b);
	/* the copy: its paths are the source's */
	bb__jeach(g->j, out, "skin", 0, &it);
	while (bb__jnext(&it, &sk)) {
		bb__jeach(g->j, sk, "slot", 0, &st);
		while (bb__jnext(&st, &js)) {
			bb__jeach(g->j, js, "display", 0, &dt);
			while (bb__jnext(&dt, &jd)) {
				struct tf t;
				double px, py;
				bb_affine m;
				int has;

				type = NULL;
				if (bb__jkind_of(jd, NULL) != BB_JK_OBJECT ||
				    (bb__jkind_of(jd, "type") == BB_JK_STRING &&
				     (bb__jstr(g->j, jd, "type", 0, &type), strcmp(type, "image") != 0)) ||
				    bb__jhas_member(jd, "pivot"))
					continue;
				if ((s = bb__db23_read_tf(g, jd, &t, &px, &py, &has)) != BB_OK)
					return s;
				m = bb__db23_matrix(&t);
				t.x -= m.a * px + m.c * py;
				t.y -= m.b * px + m.d * py;
				bb__jw_set(&g->w, jd, "transform", bb__db23_tf_json(g, &t));
				if ((pv = bb__jw_set(&g->w, jd, "pivot", bb__jw_object(&g->w)))) {
					bb__jw_num(&g->w, pv, "x", 0);
					bb__jw_num(&g->w, pv, "y", 0);
				}
				if ((s = bb__db23_flags(g)) != BB_OK)
					return s;
			}
		}
	}
	return BB_OK;
}

/* ---- the document -------------------------------------------------------------- */

static bb_status read_armature(struct g23 *g, json_t *ja, json_t *dst)
{
	json_t *oa = bb__jw_object(&g->w), *oanims, *jan;
	bb__jiter it;
	double fps;
	bb_status s;

	bb__jw_append(&g->w, dst, oa);
	g->ja = ja;
	if ((s = bb__db23_flags(g)) != BB_OK ||
	    (s = bb__jexpect_object(g->j, ja)) != BB_OK ||
	    (s = bb__jnum(g->j, ja, "frameRate", 24, &fps)) != BB_OK)
		return s;
	bb__jw_copy(&g->w, oa, ja, "name");
	bb__jw_copy(&g->w, oa, ja, "frameRate");
	bb__jw_copy(&g->w, oa, ja, "type");
	if ((s = read_bones(g, oa)) != BB_OK || (s = read_slots(g, oa)) != BB_OK ||
	    (s = copy_skins(g, oa)) != BB_OK ||
	    (s = bb__jeach(g->j, ja, "animation", 0, &it)) != BB_OK)
		return s;
	g->tl_of_bone = bb__calloc((size_t)g->nbones + 1, sizeof *g->tl_of_bone);
	g->tl_of_slot = bb__calloc((size_t)g->nslots + 1, sizeof *g->tl_of_slot);
	oanims = bb__jw_set(&g->w, oa, "animation", bb__jw_array(&g->w));
	if (!g->tl_of_bone || !g->tl_of_slot || !oanims)
		return bb__build_nomem(g->d->b);
	while (bb__jnext(&it, &jan))
		if ((s = bb__db23_read_animation(g, jan, oanims)) != BB_OK)
			return s;
	return bb__db23_flags(g);
}

int bb__db23_is_old(json_t *root)
{
	bb__jctx quiet;
	const char *vs;
	double ver = 0;

	bb__jctx_init(&quiet, "", NULL, 0);
	if (bb__jkind_of(root, "version") == BB_JK_NUMBER)
		bb__jnum(&quiet, root, "version", 0, &ver);
	else if (bb__jkind_of(root, "version") == BB_JK_STRING &&
	         bb__jstr(&quiet, root, "version", 0, &vs) == BB_OK)
		ver = strtod(vs, NULL);
	return fabs(ver - 2.3) < 1e-9 || fabs(ver - 3.0) < 1e-9;
}

bb_status bb__db23_translate(struct db *d, json_t *in, json_t **root)
{
	struct g23 g;
	json_t *out, *oarms, *ja;
	bb__jiter it;
	bb_status s;

	memset(&g, 0, sizeof g);
	g.d = d;
	g.j = d->j;
	out = bb__jw_object(&g.w);
	if ((s = bb__jbool(g.j, in, "isGlobal", 1, &g.global)) != BB_OK ||
	    (s = bb__jeach(g.j, in, "armature", BB_J_REQUIRED, &it)) != BB_OK)
		goto out;
	bb__jw_str(&g.w, out, "version", "4.5");
	bb__jw_copy(&g.w, out, in, "name");
	bb__jw_copy(&g.w, out, in, "frameRate");
	oarms = bb__jw_set(&g.w, out, "armature", bb__jw_array(&g.w));
	while (s == BB_OK && bb__jnext(&it, &ja)) {
		s = read_armature(&g, ja, oarms);
		bb__db23_free_timelines(&g);
		free(g.bones);
		free(g.slots);
		free(g.tl_of_bone);
		free(g.tl_of_slot);
		g.bones = NULL;
		g.slots = NULL;
		g.tl_of_bone = g.tl_of_slot = NULL;
		g.nbones = g.nslots = 0;
	}
	if (s == BB_OK)
		s = bb__db23_flags(&g);
out:
	if (s != BB_OK) {
		bb__json_free(out);
		return s;
	}
	bb__jpath_init(&g.j->path);
	*root = out;
	return BB_OK;
}
