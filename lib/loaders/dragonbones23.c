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
 * Everything read is checked here, with the file's own field paths, so
 * the 4.5 reader never sees a value it could reject. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones.h"

#define DEG (M_PI / 180)
#define NO_TWEEN 100.0     /* the runtime's DragonBones.NO_TWEEN */

/* A transform as the 5.0 runtime holds it: skews in radians. */
struct tf {
	double x, y, skx, sky, sx, sy;
};

struct bone23 {
	const char *name;
	int parent;            /* file index or -1 */
	struct tf g, l;        /* setup: armature space, parent space */
};

struct slot23 {
	const char *name;
	int bone;              /* file bone index */
	double z;
	int seq;               /* definition order: ties of z */
	int ndisp;             /* most displays any skin gives it (-1: none) */
	int display;           /* setup display index */
	json_t *src;
};

struct key23 {
	double start, len;     /* frames on the animation's grid */
	double tween;          /* the runtime's tweenEasing, or NO_TWEEN */
	struct tf g;           /* as read, pivot applied */
	double z, dur;
	int display, raw_display;  /* shown (hide applied); as written */
	json_t *src;
};

struct tl23 {
	int bone, slot;        /* file bone; slot of the same name or -1 */
	size_t n;
	struct key23 *k;
	json_t *src;
};

struct g23 {
	struct db *d;
	int global;            /* isGlobal: transforms in armature space */
	int oom, inf;          /* sticky: allocation failed, a value overflowed */
	json_t *ja;            /* the source armature */
	int nbones, nslots;
	struct bone23 *bones;
	struct slot23 *slots;  /* draw order */
	/* the animation being read */
	double frames, anim_scale, anim_tween;
	int auto_tween, loops;
	int ntl;
	struct tl23 *tl;
	int *tl_of_bone;       /* bone -> its timeline, or -1 */
	int *tl_of_slot;       /* slot (draw order) -> its timeline, or -1 */
};

static const struct tf tf_identity = { 0, 0, 0, 0, 1, 1 };

/* ---- building the translated document ------------------------------------ */

static json_t *put(struct g23 *g, json_t *obj, const char *key, json_t *v)
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

static void put_num(struct g23 *g, json_t *obj, const char *key, double v)
{
	if (!isfinite(v)) {
		g->inf = 1;
		return;
	}
	put(g, obj, key, json_real(v));
}

/* Copies member `key` of src into dst, when src has it. */
static void copy(struct g23 *g, json_t *dst, json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);

	if (v)
		put(g, dst, key, json_incref(v));
}

static void append(struct g23 *g, json_t *arr, json_t *v)
{
	if (!v || !arr || json_array_append_new(arr, v) != 0)
		g->oom = 1;
}

/* The status of the sticky flags at the current path. */
static bb_status flags(struct g23 *g)
{
	if (g->oom)
		return bb__db_nomem(g->d);
	if (g->inf)
		return bb__jfail(&g->d->j, NULL, "a transform is out of range");
	return BB_OK;
}

/* ---- transforms ------------------------------------------------------------ */

static bb_affine tf_matrix(const struct tf *t)
{
	bb_xform x = { t->x, t->y, t->sky, t->skx - t->sky, t->sx, t->sy };

	return bb__xform_matrix(&x);
}

/* transform {x, y, skX, skY, scX, scY, pX, pY} of obj (absent: identity,
 * *has = 0). */
static bb_status read_tf(struct g23 *g, json_t *obj, struct tf *t, double *px,
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
static struct tf to_local(const struct tf *G, const struct tf *P)
{
	bb_affine m = tf_matrix(P), inv;
	bb_vec2 v;
	struct tf l = *G;
	double off = P->sky + (P->sx < 0 ? M_PI : 0);

	if (!bb_affine_invert(m, &inv)) {
		/* a collapsed parent: only its rotation is undone */
		struct tf r = { P->x, P->y, P->skx, P->sky, 1, 1 };

		bb_affine_invert(tf_matrix(&r), &inv);
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

/* The 5.0 runtime's TweenTimelineState._getEasingValue. */
static double ease50(double p, double e)
{
	double v;

	if (p <= 0)
		return 0;
	if (p >= 1)
		return 1;
	if (e > 2)
		return p;
	if (e > 1) {
		v = 0.5 * (1 - cos(p * M_PI));
		e -= 1;
	} else if (e > 0) {
		v = 1 - (1 - p) * (1 - p);
	} else if (e >= -1) {
		e = -e;
		v = p * p;
	} else if (e >= -2) {
		e = -e - 1;
		v = acos(1 - p * 2) / M_PI;
	} else {
		return p;
	}
	return (v - p) * e + p;
}

/* Index of the key of tl covering frame f (tl->n > 0): the last one
 * starting at or before f. */
static size_t key_at(const struct tl23 *tl, double f)
{
	size_t lo = 0, hi = tl->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->k[mid].start <= f)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The parent's armature-space pose at frame f of the animation: its keys
 * interpolated as DataParser._getTimelineFrameMatrix does (the key covering
 * f towards the next one, skews the short way), but the last key tweens
 * to the first only while the animation loops, and a bone the animation
 * does not animate is at its setup pose (the runtime takes the identity):
 * so the pose is the one the parent is drawn in. */
static struct tf pose_at(const struct g23 *g, int bone, double f)
{
	int t = g->tl_of_bone[bone];
	const struct tl23 *tl = t >= 0 ? &g->tl[t] : NULL;
	const struct key23 *k, *nx;
	struct tf r;
	double p = 0;
	size_t i;

	if (!tl || tl->n == 0)
		return g->bones[bone].g;
	if (tl->n == 1)
		return tl->k[0].g;
	i = key_at(tl, f);
	k = &tl->k[i];
	nx = &tl->k[(i + 1) % tl->n];
	if (k->len > 0 && k->tween != NO_TWEEN && (g->loops || i + 1 < tl->n)) {
		p = (f - k->start) / k->len;
		if (k->tween != 0)
			p = ease50(p, k->tween);
	}
	r.x = k->g.x + (nx->g.x - k->g.x) * p;
	r.y = k->g.y + (nx->g.y - k->g.y) * p;
	r.skx = k->g.skx + bb__norm_radian(nx->g.skx - k->g.skx) * p;
	r.sky = k->g.sky + bb__norm_radian(nx->g.sky - k->g.sky) * p;
	r.sx = k->g.sx + (nx->g.sx - k->g.sx) * p;
	r.sy = k->g.sy + (nx->g.sy - k->g.sy) * p;
	return r;
}

/* {x, y, skX, skY, scX, scY} (degrees) of t. */
static json_t *tf_json(struct g23 *g, const struct tf *t)
{
	json_t *o = json_object();

	if (!o) {
		g->oom = 1;
		return NULL;
	}
	put_num(g, o, "x", t->x);
	put_num(g, o, "y", t->y);
	put_num(g, o, "skX", t->skx / DEG);
	put_num(g, o, "skY", t->sky / DEG);
	put_num(g, o, "scX", t->sx);
	put_num(g, o, "scY", t->sy);
	return o;
}

/* A colour transform object, checked, as the 4.5 `color` object. */
static bb_status color_json(struct g23 *g, json_t *c, json_t **out)
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
		put_num(g, *out, keys[i], v);
	}
	return BB_OK;
}

/* Optional string members of obj: an error when present and not a string. */
static bb_status check_strings(struct g23 *g, json_t *obj,
                               const char *const *keys)
{
	const char *v;
	bb_status s;

	for (; *keys; keys++)
		if ((s = bb__jstr(&g->d->j, obj, *keys, 0, &v)) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- bones ------------------------------------------------------------------ */

static int find_bone(const struct g23 *g, const char *name)
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
		    (s = read_tf(g, jb, &b->g, &px, &py, &has)) != BB_OK)
			return s;
		if (find_bone(g, b->name) >= 0)
			return bb__jfail(&d->j, "name", "duplicate bone name \"%s\"", b->name);
		g->nbones = (int)i + 1;
		bb__jpath_pop(&d->j.path, mark);
	}
	/* parents, and the setup poses in their parents' space */
	if (!(dst = put(g, out, "bone", json_array())))
		return bb__db_nomem(d);
	for (i = 0; i < n; i++) {
		json_t *jb = json_array_get(arr, i), *ob = json_object();
		struct bone23 *b = &g->bones[i];
		const char *pname;
		size_t mark = bb__jpath_key(&d->j.path, "bone");

		bb__jpath_index(&d->j.path, i);
		append(g, dst, ob);
		if ((s = bb__jstr(&d->j, jb, "parent", 0, &pname)) != BB_OK)
			return s;
		b->parent = pname ? find_bone(g, pname) : -1;
		if (pname && b->parent < 0)
			return bb__jfail(&d->j, "parent", "unknown bone \"%s\"", pname);
		b->l = b->g;
		if (b->parent >= 0 && g->global)
			b->l = to_local(&b->g, &g->bones[b->parent].g);
		/* a zero setup scale could not carry the keys' scales (the
		 * runtime makes its origin 0.001 too) */
		if (b->l.sx == 0)
			b->l.sx = 0.001;
		if (b->l.sy == 0)
			b->l.sy = 0.001;
		copy(g, ob, jb, "name");
		copy(g, ob, jb, "parent");
		copy(g, ob, jb, "length");
		put(g, ob, "transform", tf_json(g, &b->l));
		put(g, ob, "inheritScale", json_false());
		if ((s = flags(g)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- slots and skins --------------------------------------------------------- */

static int find_slot(const struct g23 *g, const char *name)
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
	bb_status s = color_json(g, json_object_get(js, key), out);

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
	if ((k = find_slot(g, name)) >= 0) {
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
	if ((sl->bone = find_bone(g, parent)) < 0)
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
	if (!(dst = put(g, out, "slot", json_array())))
		return bb__db_nomem(d);
	for (k = 0; k < g->nslots; k++) {
		json_t *os = json_object(), *src = g->slots[k].src, *c;

		append(g, dst, os);
		copy(g, os, src, "name");
		copy(g, os, src, "parent");
		copy(g, os, src, "blendMode");
		put_num(g, os, "displayIndex", g->slots[k].display);
		if ((s = slot_color(g, src, &c)) != BB_OK)
			return s;   /* checked in add_slot: does not fail here */
		if (c)
			put(g, os, "color", c);
	}
	return flags(g);
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
	if (!(dst = put(g, out, "skin", json_deep_copy(skins))))
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
				if ((s = read_tf(g, jd, &t, &px, &py, &has)) != BB_OK)
					return s;
				m = tf_matrix(&t);
				t.x -= m.a * px + m.c * py;
				t.y -= m.b * px + m.d * py;
				put(g, jd, "transform", tf_json(g, &t));
				if ((pv = put(g, jd, "pivot", json_object()))) {
					put_num(g, pv, "x", 0);
					put_num(g, pv, "y", 0);
				}
				if ((s = flags(g)) != BB_OK)
					return s;
				bb__jpath_pop(&d->j.path, m3);
			}
			bb__jpath_pop(&d->j.path, m2);
		}
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- animations -------------------------------------------------------------- */

static void free_timelines(struct g23 *g)
{
	int i;

	for (i = 0; i < g->ntl; i++)
		free(g->tl[i].k);
	free(g->tl);
	g->tl = NULL;
	g->ntl = 0;
}

/* One frame (path set) of a timeline of bone `bone`, slot `slot`. */
static bb_status read_key(struct g23 *g, json_t *jk, int slot, double tl_px,
                          double tl_py, double tl_scale, struct key23 *k)
{
	static const char *const strs[] = { "event", "sound", "action", NULL };
	struct db *d = g->d;
	json_t *te = json_object_get(jk, "tweenEasing"), *col;
	double px, py, di, tr;
	int has, hide;
	bb_status s;

	if ((s = bb__jexpect_object(&d->j, jk)) != BB_OK ||
	    (s = bb__db_num(d, jk, "duration", 1, &k->dur)) != BB_OK ||
	    (s = bb__db_num(d, jk, "tweenRotate", 0, &tr)) != BB_OK ||
	    (s = bb__db_num(d, jk, "displayIndex", 0, &di)) != BB_OK ||
	    (s = bb__db_bool(d, jk, "hide", 0, &hide)) != BB_OK ||
	    (s = bb__db_num(d, jk, "z", slot >= 0 ? g->slots[slot].z : 0, &k->z)) != BB_OK ||
	    (s = check_strings(g, jk, strs)) != BB_OK ||
	    (s = read_tf(g, jk, &k->g, &px, &py, &has)) != BB_OK)
		return s;
	if (k->dur < 0 || k->dur > 1e7)
		return bb__jfail(&d->j, "duration", "%g frames is out of range", k->dur);
	/* tweenEasing: the key's, else the animation's when it auto-tweens */
	if (te) {
		if ((s = bb__db_num(d, jk, "tweenEasing", NO_TWEEN, &k->tween)) != BB_OK)
			return s;
	} else {
		k->tween = g->auto_tween ? g->anim_tween : NO_TWEEN;
	}
	if (k->dur == 0 || (g->anim_scale == 1 && tl_scale == 1 && k->dur < 2))
		k->tween = NO_TWEEN;
	/* the key's pivot moves it along its own axes */
	if (has) {
		bb_affine m = tf_matrix(&k->g);

		px += tl_px;
		py += tl_py;
		k->g.x += m.a * px + m.c * py;
		k->g.y += m.b * px + m.d * py;
	}
	di = floor(di);
	if (slot >= 0 && json_object_get(jk, "displayIndex") &&
	    (di < -1 || di >= g->slots[slot].ndisp))
		return bb__jfail(&d->j, "displayIndex", "display %g out of range (slot "
		                 "\"%s\" has %d)", di, g->slots[slot].name,
		                 g->slots[slot].ndisp > 0 ? g->slots[slot].ndisp : 0);
	k->raw_display = di < -1 ? -2 : di > 1e6 ? 1000000 : (int)di;
	k->display = hide || di < -1 ? -1 : k->raw_display;
	col = json_object_get(jk, "colorTransform");
	if (col) {
		json_t *c;
		size_t mark = bb__jpath_key(&d->j.path, "colorTransform");

		if ((s = color_json(g, col, &c)) != BB_OK)
			return s;
		json_decref(c);
		bb__jpath_pop(&d->j.path, mark);
	}
	k->src = jk;
	return BB_OK;
}

/* timeline[i] (path set): its keys on the animation's frame grid, as the
 * 4.5 reader will place them. */
static bb_status read_timeline(struct g23 *g, json_t *jt, struct tl23 *tl)
{
	struct db *d = g->d;
	const char *name;
	json_t *arr;
	double sc, off, px, py, pos = 0;
	size_t i;
	bb_status s;

	memset(tl, 0, sizeof *tl);
	tl->src = jt;
	if ((s = bb__jexpect_object(&d->j, jt)) != BB_OK ||
	    (s = bb__jstr(&d->j, jt, "name", 1, &name)) != BB_OK ||
	    (s = bb__db_num(d, jt, "scale", 1, &sc)) != BB_OK ||
	    (s = bb__db_num(d, jt, "offset", 0, &off)) != BB_OK ||
	    (s = bb__db_num(d, jt, "pX", 0, &px)) != BB_OK ||
	    (s = bb__db_num(d, jt, "pY", 0, &py)) != BB_OK ||
	    (s = bb__jarray(&d->j, jt, "frame", 0, &arr)) != BB_OK)
		return s;
	if ((tl->bone = find_bone(g, name)) < 0)
		return bb__jfail(&d->j, "name", "unknown bone \"%s\"", name);
	if (g->tl_of_bone[tl->bone] >= 0)
		return bb__jfail(&d->j, "name", "a second timeline for bone \"%s\"", name);
	tl->slot = find_slot(g, name);
	tl->n = json_array_size(arr);
	if (tl->n && !(tl->k = bb__calloc(tl->n, sizeof *tl->k)))
		return bb__db_nomem(d);
	bb__jpath_key(&d->j.path, "frame");
	for (i = 0; i < tl->n; i++) {
		struct key23 *k = &tl->k[i];
		size_t mark = bb__jpath_index(&d->j.path, i);

		if ((s = read_key(g, json_array_get(arr, i), tl->slot, px, py, sc,
		                  k)) != BB_OK)
			return s;
		k->start = pos > g->frames ? g->frames : pos;
		pos += i + 1 < tl->n ? (k->dur > 0 ? floor(k->dur) : 1) : 0;
		bb__jpath_pop(&d->j.path, mark);
	}
	for (i = 0; i < tl->n; i++)
		tl->k[i].len = (i + 1 < tl->n ? tl->k[i + 1].start : g->frames) -
		               tl->k[i].start;
	/* a key before a hidden one holds (and the last before a hidden first) */
	for (i = 0; tl->n > 1 && i < tl->n; i++)
		if (tl->k[(i + 1) % tl->n].raw_display == -1)
			tl->k[i].tween = NO_TWEEN;
	return BB_OK;
}

/* tweenEasing as the 4.5 reader takes it (absent: hold). */
static bb_status put_tween(struct g23 *g, json_t *of, double e)
{
	if (e == NO_TWEEN)
		return BB_OK;
	if (e < -1 && e >= -2) {
		bb__model_warn(g->d->m, "%s: tweenEasing %g (the 5.0 runtime's out-in "
		               "ease) is drawn linear", g->d->ctx->name, e);
		e = 0;
	}
	if (e > 2 || e < -2)
		e = 0;
	put_num(g, of, "tweenEasing", e);
	return BB_OK;
}

/* The output's bone timeline of tl: keys in the parent's space, as deltas
 * from the bone's setup pose. */
static bb_status bone_timeline(struct g23 *g, const struct tl23 *tl, json_t *dst)
{
	const struct bone23 *b = &g->bones[tl->bone];
	json_t *ot = json_object(), *fr;
	size_t i;

	append(g, dst, ot);
	copy(g, ot, tl->src, "name");
	copy(g, ot, tl->src, "scale");
	copy(g, ot, tl->src, "offset");
	if (!(fr = put(g, ot, "frame", json_array())))
		return flags(g);
	for (i = 0; i < tl->n; i++) {
		const struct key23 *k = &tl->k[i];
		json_t *of = json_object();
		struct tf l = k->g, dl;

		append(g, fr, of);
		if (b->parent >= 0 && g->global) {
			struct tf p = pose_at(g, b->parent, k->start);

			l = to_local(&k->g, &p);
		}
		dl.x = l.x - b->l.x;
		dl.y = l.y - b->l.y;
		dl.skx = l.skx - b->l.skx;
		dl.sky = l.sky - b->l.sky;
		dl.sx = l.sx / b->l.sx;
		dl.sy = l.sy / b->l.sy;
		copy(g, of, k->src, "duration");
		copy(g, of, k->src, "tweenRotate");
		copy(g, of, k->src, "event");
		copy(g, of, k->src, "sound");
		copy(g, of, k->src, "action");
		put_tween(g, of, k->tween);
		put(g, of, "transform", tf_json(g, &dl));
	}
	return flags(g);
}

/* The output's slot timeline of tl: display index and colour keys. */
static bb_status slot_timeline(struct g23 *g, const struct tl23 *tl, json_t *dst)
{
	json_t *ot = json_object(), *fr;
	size_t i;
	bb_status s;

	append(g, dst, ot);
	copy(g, ot, tl->src, "name");
	copy(g, ot, tl->src, "scale");
	copy(g, ot, tl->src, "offset");
	if (!(fr = put(g, ot, "frame", json_array())))
		return flags(g);
	for (i = 0; i < tl->n; i++) {
		const struct key23 *k = &tl->k[i];
		json_t *of = json_object(), *c;

		append(g, fr, of);
		copy(g, of, k->src, "duration");
		put_tween(g, of, k->tween);
		put_num(g, of, "displayIndex", k->display);
		if ((s = color_json(g, json_object_get(k->src, "colorTransform"), &c)) != BB_OK)
			return s;   /* checked in read_key */
		if (c)
			put(g, of, "color", c);
	}
	return flags(g);
}

/* z of slot `slot` (draw-order index) at frame f: its timeline's key
 * covering f, else its setup z. */
static double z_at(const struct g23 *g, int slot, double f)
{
	int t = g->tl_of_slot[slot];

	if (t < 0 || g->tl[t].n == 0)
		return g->slots[slot].z;
	return g->tl[t].k[key_at(&g->tl[t], f)].z;
}

struct zi {
	double z;
	int slot;
};

static int zi_cmp(const void *a, const void *b)
{
	const struct zi *x = a, *y = b;

	if (x->z != y->z)
		return x->z < y->z ? -1 : 1;
	return x->slot - y->slot;
}

static int pos_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Keys' z that differ from their slot's: an animation zOrder timeline,
 * stepped where the order changes (on the animation's clock: timeline
 * offset and scale do not move z); equal z keep the setup order. */
static bb_status zorder_timeline(struct g23 *g, json_t *oa)
{
	double *pos = NULL;
	struct zi *zs = NULL;
	int *prev = NULL, *at = NULL, n = 1, i;
	size_t cap = 0, k;
	json_t *fr = NULL, *last = NULL;
	double last_at = 0;
	bb_status s = BB_OK;

	/* the frames where some slot's z changes, and frame 0 */
	if (!bb__grow((void **)&pos, &cap, 1, sizeof *pos))
		return bb__db_nomem(g->d);
	pos[0] = 0;
	for (i = 0; i < g->ntl; i++)
		for (k = 0; g->tl[i].slot >= 0 && k < g->tl[i].n; k++) {
			double before = k ? g->tl[i].k[k - 1].z : g->slots[g->tl[i].slot].z;

			if (g->tl[i].k[k].z == before || g->tl[i].k[k].start >= g->frames)
				continue;
			if (!bb__grow((void **)&pos, &cap, (size_t)n + 1, sizeof *pos)) {
				free(pos);
				return bb__db_nomem(g->d);
			}
			pos[n++] = g->tl[i].k[k].start;
		}
	if (n == 1) {
		free(pos);
		return BB_OK;
	}
	if ((double)n * g->nslots > g->d->ctx->opts->max_keys) {
		free(pos);
		return bb_error_set(g->d->j.err, BB_ERR_LIMIT, g->d->ctx->name,
		                    g->d->j.path.buf, "z changes of %d slots at %d "
		                    "frames exceed the limit of %d keys", g->nslots, n,
		                    g->d->ctx->opts->max_keys);
	}
	qsort(pos, (size_t)n, sizeof *pos, pos_cmp);
	zs = bb__calloc((size_t)g->nslots, sizeof *zs);
	prev = bb__calloc((size_t)g->nslots, sizeof *prev);
	at = bb__calloc((size_t)g->nslots, sizeof *at);
	if (!zs || !prev || !at ||
	    !(fr = put(g, put(g, oa, "zOrder", json_object()), "frame", json_array()))) {
		s = bb__db_nomem(g->d);
		goto out;
	}
	for (i = 0; i < g->nslots; i++)
		prev[i] = i;
	for (k = 0; k < (size_t)n; k++) {
		json_t *of, *list;
		int changed = k == 0;

		if (k > 0 && pos[k] == pos[k - 1])
			continue;
		for (i = 0; i < g->nslots; i++) {
			zs[i].z = z_at(g, i, pos[k]);
			zs[i].slot = i;
		}
		qsort(zs, (size_t)g->nslots, sizeof *zs, zi_cmp);
		for (i = 0; i < g->nslots; i++)
			changed |= zs[i].slot != prev[i];
		if (!changed)
			continue;
		if (last)
			put_num(g, last, "duration", pos[k] - last_at);
		of = json_object();
		append(g, fr, of);
		put_num(g, of, "duration", g->frames - pos[k]);
		/* slot zs[i].slot paints at position i: [slot, offset] pairs in
		 * slot order */
		for (i = 0; i < g->nslots; i++) {
			prev[i] = zs[i].slot;
			at[zs[i].slot] = i;
		}
		list = put(g, of, "zOrder", json_array());
		for (i = 0; i < g->nslots; i++)
			if (at[i] != i) {
				append(g, list, json_integer(i));
				append(g, list, json_integer(at[i] - i));
			}
		last = of;
		last_at = pos[k];
	}
	s = flags(g);
out:
	free(pos);
	free(zs);
	free(prev);
	free(at);
	return s;
}

static bb_status read_animation(struct g23 *g, json_t *ja, json_t *dst)
{
	struct db *d = g->d;
	json_t *oa = json_object(), *arr, *bones, *slots;
	double dur, loop;
	size_t i;
	int k;
	bb_status s;

	append(g, dst, oa);
	if ((s = flags(g)) != BB_OK ||
	    (s = bb__jexpect_object(&d->j, ja)) != BB_OK ||
	    (s = bb__db_num(d, ja, "duration", 1, &dur)) != BB_OK ||
	    (s = bb__db_num(d, ja, "scale", 1, &g->anim_scale)) != BB_OK ||
	    (s = bb__db_num(d, ja, "loop", 1, &loop)) != BB_OK ||
	    (s = bb__db_num(d, ja, "tweenEasing", 0, &g->anim_tween)) != BB_OK ||
	    (s = bb__db_bool(d, ja, "autoTween", 1, &g->auto_tween)) != BB_OK ||
	    (s = bb__jarray(&d->j, ja, "timeline", 0, &arr)) != BB_OK)
		return s;
	if (dur < 0 || dur > 1e7)
		return bb__jfail(&d->j, "duration", "%g frames is out of range", dur);
	g->frames = dur < 1 ? 1 : floor(dur);
	g->loops = loop != 1;
	copy(g, oa, ja, "name");
	copy(g, oa, ja, "scale");
	copy(g, oa, ja, "frame");
	put_num(g, oa, "duration", g->frames);
	put_num(g, oa, "playTimes", loop);
	for (k = 0; k < g->nbones; k++)
		g->tl_of_bone[k] = -1;
	for (k = 0; k < g->nslots; k++)
		g->tl_of_slot[k] = -1;
	free_timelines(g);
	if (json_array_size(arr) &&
	    !(g->tl = bb__calloc(json_array_size(arr), sizeof *g->tl)))
		return bb__db_nomem(d);
	for (i = 0; i < json_array_size(arr); i++) {
		size_t mark = bb__jpath_key(&d->j.path, "timeline");

		bb__jpath_index(&d->j.path, i);
		s = read_timeline(g, json_array_get(arr, i), &g->tl[i]);
		g->ntl = (int)i + 1;
		if (s != BB_OK)
			return s;
		g->tl_of_bone[g->tl[i].bone] = (int)i;
		if (g->tl[i].slot >= 0)
			g->tl_of_slot[g->tl[i].slot] = (int)i;
		bb__jpath_pop(&d->j.path, mark);
	}
	bones = put(g, oa, "bone", json_array());
	slots = put(g, oa, "slot", json_array());
	if ((s = flags(g)) != BB_OK)
		return s;
	for (k = 0; k < g->ntl; k++) {
		size_t mark = bb__jpath_key(&d->j.path, "timeline");

		bb__jpath_index(&d->j.path, (size_t)k);
		if ((s = bone_timeline(g, &g->tl[k], bones)) != BB_OK ||
		    (g->tl[k].slot >= 0 &&
		     (s = slot_timeline(g, &g->tl[k], slots)) != BB_OK))
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	/* slots the animation has no timeline for are hidden */
	for (k = 0; k < g->nslots; k++) {
		json_t *ot, *fr, *of;

		if (g->tl_of_slot[k] >= 0)
			continue;
		ot = json_object();
		append(g, slots, ot);
		put(g, ot, "name", json_string(g->slots[k].name));
		fr = put(g, ot, "frame", json_array());
		of = json_object();
		append(g, fr, of);
		put_num(g, of, "duration", g->frames);
		put_num(g, of, "displayIndex", -1);
	}
	if ((s = flags(g)) != BB_OK)
		return s;
	return zorder_timeline(g, oa);
}

/* ---- the document -------------------------------------------------------------- */

static bb_status read_armature(struct g23 *g, json_t *ja, json_t *dst)
{
	struct db *d = g->d;
	json_t *oa = json_object(), *anims, *oanims;
	double fps;
	size_t i;
	bb_status s;

	append(g, dst, oa);
	g->ja = ja;
	if ((s = flags(g)) != BB_OK ||
	    (s = bb__jexpect_object(&d->j, ja)) != BB_OK ||
	    (s = bb__db_num(d, ja, "frameRate", 24, &fps)) != BB_OK)
		return s;
	copy(g, oa, ja, "name");
	copy(g, oa, ja, "frameRate");
	copy(g, oa, ja, "type");
	if ((s = read_bones(g, oa)) != BB_OK || (s = read_slots(g, oa)) != BB_OK ||
	    (s = copy_skins(g, oa)) != BB_OK ||
	    (s = bb__jarray(&d->j, ja, "animation", 0, &anims)) != BB_OK)
		return s;
	g->tl_of_bone = bb__calloc((size_t)g->nbones + 1, sizeof *g->tl_of_bone);
	g->tl_of_slot = bb__calloc((size_t)g->nslots + 1, sizeof *g->tl_of_slot);
	if (!g->tl_of_bone || !g->tl_of_slot)
		return bb__db_nomem(d);
	if (!(oanims = put(g, oa, "animation", json_array())))
		return bb__db_nomem(d);
	for (i = 0; i < json_array_size(anims); i++) {
		size_t mark = bb__jpath_key(&d->j.path, "animation");

		bb__jpath_index(&d->j.path, i);
		if ((s = read_animation(g, json_array_get(anims, i), oanims)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return flags(g);
}

int bb__db23_is_old(json_t *root)
{
	json_t *v = json_object_get(root, "version");
	double ver = json_is_number(v) ? json_number_value(v)
	           : json_is_string(v) ? strtod(json_string_value(v), NULL) : 0;

	return fabs(ver - 2.3) < 1e-9 || fabs(ver - 3.0) < 1e-9;
}

bb_status bb__db23_translate(struct db *d, json_t **root)
{
	struct g23 g;
	json_t *in = *root, *out = json_object(), *arms, *oarms;
	size_t i;
	bb_status s;

	memset(&g, 0, sizeof g);
	g.d = d;
	if (!out)
		return bb__db_nomem(d);
	if ((s = bb__db_bool(d, in, "isGlobal", 1, &g.global)) != BB_OK ||
	    (s = bb__jarray(&d->j, in, "armature", 1, &arms)) != BB_OK)
		goto out;
	put(&g, out, "version", json_string("4.5"));
	copy(&g, out, in, "name");
	copy(&g, out, in, "frameRate");
	oarms = put(&g, out, "armature", json_array());
	for (i = 0; i < json_array_size(arms) && s == BB_OK; i++) {
		size_t mark = bb__jpath_key(&d->j.path, "armature");

		bb__jpath_index(&d->j.path, i);
		s = read_armature(&g, json_array_get(arms, i), oarms);
		free_timelines(&g);
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
		s = flags(&g);
out:
	if (s != BB_OK) {
		json_decref(out);
		return s;
	}
	bb__jpath_init(&d->j.path);
	json_decref(in);
	*root = out;
	return BB_OK;
}
