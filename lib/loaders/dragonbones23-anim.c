/* DragonBones 2.3 / 3.0 animations (see dragonbones23.c): per-bone
 * timeline[] keys checked, taken from armature space into the parent's,
 * and written as 4.5 bone and slot timelines; slots without a timeline
 * hidden; key z turned into a zOrder timeline. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones23.h"

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
	if (k->len > 0 && k->tween != DB23_NO_TWEEN && (g->loops || i + 1 < tl->n)) {
		p = (f - k->start) / k->len;
		if (k->tween != 0)
			p = ease50(p, k->tween);
	}
	r.x = k->g.x + (nx->g.x - k->g.x) * p;
	r.y = k->g.y + (nx->g.y - k->g.y) * p;
	r.skx = k->g.skx + bb__norm_angle(nx->g.skx - k->g.skx) * p;
	r.sky = k->g.sky + bb__norm_angle(nx->g.sky - k->g.sky) * p;
	r.sx = k->g.sx + (nx->g.sx - k->g.sx) * p;
	r.sy = k->g.sy + (nx->g.sy - k->g.sy) * p;
	return r;
}

/* ---- animations -------------------------------------------------------------- */

void bb__db23_free_timelines(struct g23 *g)
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
	double px, py, di, tr;
	json_t *c;
	int has, hide;
	bb_status s;

	if ((s = bb__jexpect_object(g->j, jk)) != BB_OK ||
	    (s = bb__jnum(g->j, jk, "duration", 1, &k->dur)) != BB_OK ||
	    (s = bb__jnum(g->j, jk, "tweenRotate", 0, &tr)) != BB_OK ||
	    (s = bb__jnum(g->j, jk, "displayIndex", 0, &di)) != BB_OK ||
	    (s = bb__jbool(g->j, jk, "hide", 0, &hide)) != BB_OK ||
	    (s = bb__jnum(g->j, jk, "z", slot >= 0 ? g->slots[slot].z : 0, &k->z)) != BB_OK ||
	    (s = bb__db23_strings(g, jk, strs)) != BB_OK ||
	    (s = bb__db23_read_tf(g, jk, &k->g, &px, &py, &has)) != BB_OK)
		return s;
	if (k->dur < 0 || k->dur > 1e7)
		return bb__jfail(g->j, "duration", "%g frames is out of range", k->dur);
	/* tweenEasing: the key's (a null one too), else the animation's when
	 * it auto-tweens */
	if (bb__jhas_member(jk, "tweenEasing")) {
		if ((s = bb__jnum(g->j, jk, "tweenEasing", DB23_NO_TWEEN, &k->tween)) != BB_OK)
			return s;
	} else {
		k->tween = g->auto_tween ? g->anim_tween : DB23_NO_TWEEN;
	}
	if (k->dur == 0 || (g->anim_scale == 1 && tl_scale == 1 && k->dur < 2))
		k->tween = DB23_NO_TWEEN;
	/* the key's pivot moves it along its own axes */
	if (has) {
		bb_affine m = bb__db23_matrix(&k->g);

		px += tl_px;
		py += tl_py;
		k->g.x += m.a * px + m.c * py;
		k->g.y += m.b * px + m.d * py;
	}
	di = floor(di);
	if (slot >= 0 && bb__jhas_member(jk, "displayIndex") &&
	    (di < -1 || di >= g->slots[slot].ndisp))
		return bb__jfail(g->j, "displayIndex", "display %g out of range (slot "
		                 "\"%s\" has %d)", di, g->slots[slot].name,
		                 g->slots[slot].ndisp > 0 ? g->slots[slot].ndisp : 0);
	k->raw_display = di < -1 ? -2 : di > 1e6 ? 1000000 : (int)di;
	k->display = hide || di < -1 ? -1 : k->raw_display;
	if ((s = bb__db23_color(g, jk, "colorTransform", &c)) != BB_OK)
		return s;
	bb__json_free(c);
	k->src = jk;
	return BB_OK;
}

/* timeline[i] (path set): its keys on the animation's frame grid, as the
 * 4.5 reader will place them. */
static bb_status read_timeline(struct g23 *g, json_t *jt, struct tl23 *tl)
{
	const char *name;
	double sc, off, px, py, pos = 0;
	bb__jiter it;
	json_t *jk;
	size_t i;
	bb_status s;

	memset(tl, 0, sizeof *tl);
	tl->src = jt;
	if ((s = bb__jexpect_object(g->j, jt)) != BB_OK ||
	    (s = bb__jstr(g->j, jt, "name", 1, &name)) != BB_OK ||
	    (s = bb__jnum(g->j, jt, "scale", 1, &sc)) != BB_OK ||
	    (s = bb__jnum(g->j, jt, "offset", 0, &off)) != BB_OK ||
	    (s = bb__jnum(g->j, jt, "pX", 0, &px)) != BB_OK ||
	    (s = bb__jnum(g->j, jt, "pY", 0, &py)) != BB_OK ||
	    (s = bb__jarray(g->j, jt, "frame", 0, &jk)) != BB_OK)
		return s;
	if (!(fabs(sc) <= 1e7))
		return bb__jfail(g->j, "scale", "%g is out of range", sc);
	if (!(fabs(off) <= 1e7))
		return bb__jfail(g->j, "offset", "%g is out of range", off);
	if ((tl->bone = bb__db23_bone(g, name)) < 0)
		return bb__jfail(g->j, "name", "unknown bone \"%s\"", name);
	if (g->tl_of_bone[tl->bone] >= 0)
		return bb__jfail(g->j, "name", "a second timeline for bone \"%s\"", name);
	tl->slot = bb__db23_slot(g, name);
	bb__jeach(g->j, jt, "frame", 0, &it);
	tl->n = it.n;
	if (tl->n && !(tl->k = bb__calloc(tl->n, sizeof *tl->k)))
		return bb__build_nomem(g->d->b);
	while (bb__jnext(&it, &jk)) {
		struct key23 *k = &tl->k[it.index];

		i = it.index;
		if ((s = read_key(g, jk, tl->slot, px, py, sc, k)) != BB_OK)
			return s;
		k->start = pos > g->frames ? g->frames : pos;
		pos += i + 1 < tl->n ? (k->dur > 0 ? floor(k->dur) : 1) : 0;
	}
	for (i = 0; i < tl->n; i++)
		tl->k[i].len = (i + 1 < tl->n ? tl->k[i + 1].start : g->frames) -
		               tl->k[i].start;
	/* a key before a hidden one holds (and the last before a hidden first) */
	for (i = 0; tl->n > 1 && i < tl->n; i++)
		if (tl->k[(i + 1) % tl->n].raw_display == -1)
			tl->k[i].tween = DB23_NO_TWEEN;
	return BB_OK;
}

/* tweenEasing as the 4.5 reader takes it (absent: hold). */
static bb_status put_tween(struct g23 *g, json_t *of, double e)
{
	if (e == DB23_NO_TWEEN)
		return BB_OK;
	if (e < -1 && e >= -2) {
		bb__model_warn(g->d->m, "%s: tweenEasing %g (the 5.0 runtime's out-in "
		               "ease) is drawn linear", g->d->c->name, e);
		e = 0;
	}
	if (e > 2 || e < -2)
		e = 0;
	bb__jw_num(&g->w, of, "tweenEasing", e);
	return BB_OK;
}

/* A new 4.5 timeline of tl in dst (its name, scale and offset); its
 * frame list, or NULL (flagged). */
static json_t *new_timeline(struct g23 *g, const struct tl23 *tl, json_t *dst)
{
	json_t *ot = bb__jw_object(&g->w);

	bb__jw_append(&g->w, dst, ot);
	bb__jw_copy(&g->w, ot, tl->src, "name");
	bb__jw_copy(&g->w, ot, tl->src, "scale");
	bb__jw_copy(&g->w, ot, tl->src, "offset");
	return bb__jw_set(&g->w, ot, "frame", bb__jw_array(&g->w));
}

/* The output's bone timeline of tl: keys in the parent's space, as deltas
 * from the bone's setup pose. */
static bb_status bone_timeline(struct g23 *g, const struct tl23 *tl, json_t *dst)
{
	const struct bone23 *b = &g->bones[tl->bone];
	json_t *fr;
	size_t i;

	if (!(fr = new_timeline(g, tl, dst)))
		return bb__db23_flags(g);
	for (i = 0; i < tl->n; i++) {
		const struct key23 *k = &tl->k[i];
		json_t *of = bb__jw_object(&g->w);
		struct tf l = k->g, dl;

		bb__jw_append(&g->w, fr, of);
		if (b->parent >= 0 && g->global) {
			struct tf p = pose_at(g, b->parent, k->start);

			l = bb__db23_to_local(&k->g, &p);
		}
		dl.x = l.x - b->l.x;
		dl.y = l.y - b->l.y;
		dl.skx = l.skx - b->l.skx;
		dl.sky = l.sky - b->l.sky;
		dl.sx = l.sx / b->l.sx;
		dl.sy = l.sy / b->l.sy;
		bb__jw_copy(&g->w, of, k->src, "duration");
		bb__jw_copy(&g->w, of, k->src, "tweenRotate");
		bb__jw_copy(&g->w, of, k->src, "event");
		bb__jw_copy(&g->w, of, k->src, "sound");
		bb__jw_copy(&g->w, of, k->src, "action");
		put_tween(g, of, k->tween);
		bb__jw_set(&g->w, of, "transform", bb__db23_tf_json(g, &dl));
	}
	return bb__db23_flags(g);
}

/* The output's slot timeline of tl: display index and colour keys. */
static bb_status slot_timeline(struct g23 *g, const struct tl23 *tl, json_t *dst)
{
	json_t *fr;
	size_t i;
	bb_status s;

	if (!(fr = new_timeline(g, tl, dst)))
		return bb__db23_flags(g);
	for (i = 0; i < tl->n; i++) {
		const struct key23 *k = &tl->k[i];
		json_t *of = bb__jw_object(&g->w), *c;

		bb__jw_append(&g->w, fr, of);
		bb__jw_copy(&g->w, of, k->src, "duration");
		put_tween(g, of, k->tween);
		bb__jw_num(&g->w, of, "displayIndex", k->display);
		if ((s = bb__db23_color(g, k->src, "colorTransform", &c)) != BB_OK)
			return s;   /* checked in read_key */
		if (c)
			bb__jw_set(&g->w, of, "color", c);
	}
	return bb__db23_flags(g);
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
		return bb__build_nomem(g->d->b);
	pos[0] = 0;
	for (i = 0; i < g->ntl; i++)
		for (k = 0; g->tl[i].slot >= 0 && k < g->tl[i].n; k++) {
			double before = k ? g->tl[i].k[k - 1].z : g->slots[g->tl[i].slot].z;

			if (g->tl[i].k[k].z == before || g->tl[i].k[k].start >= g->frames)
				continue;
			if (!bb__grow((void **)&pos, &cap, (size_t)n + 1, sizeof *pos)) {
				free(pos);
				return bb__build_nomem(g->d->b);
			}
			pos[n++] = g->tl[i].k[k].start;
		}
	if (n == 1) {
		free(pos);
		return BB_OK;
	}
	if ((double)n * g->nslots > g->d->c->opts->max_keys) {
		free(pos);
		return bb__jlimit(g->j, NULL, "z changes of %d slots at %d frames "
		                  "exceed the limit of %d keys", g->nslots, n,
		                  g->d->c->opts->max_keys);
	}
	qsort(pos, (size_t)n, sizeof *pos, pos_cmp);
	zs = bb__calloc((size_t)g->nslots, sizeof *zs);
	prev = bb__calloc((size_t)g->nslots, sizeof *prev);
	at = bb__calloc((size_t)g->nslots, sizeof *at);
	if (!zs || !prev || !at ||
	    !(fr = bb__jw_set(&g->w, bb__jw_set(&g->w, oa, "zOrder",
	                                         bb__jw_object(&g->w)),
	                      "frame", bb__jw_array(&g->w)))) {
		s = bb__build_nomem(g->d->b);
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
			bb__jw_num(&g->w, last, "duration", pos[k] - last_at);
		of = bb__jw_object(&g->w);
		bb__jw_append(&g->w, fr, of);
		bb__jw_num(&g->w, of, "duration", g->frames - pos[k]);
		/* slot zs[i].slot paints at position i: [slot, offset] pairs in
		 * slot order */
		for (i = 0; i < g->nslots; i++) {
			prev[i] = zs[i].slot;
			at[zs[i].slot] = i;
		}
		list = bb__jw_set(&g->w, of, "zOrder", bb__jw_array(&g->w));
		for (i = 0; i < g->nslots; i++)
			if (at[i] != i) {
				bb__jw_append_num(&g->w, list, i);
				bb__jw_append_num(&g->w, list, at[i] - i);
			}
		last = of;
		last_at = pos[k];
	}
	s = bb__db23_flags(g);
out:
	free(pos);
	free(zs);
	free(prev);
	free(at);
	return s;
}

bb_status bb__db23_read_animation(struct g23 *g, json_t *ja, json_t *dst)
{
	json_t *oa = bb__jw_object(&g->w), *jt, *bones, *slots;
	double dur, loop;
	bb__jiter it;
	int k;
	bb_status s;

	bb__jw_append(&g->w, dst, oa);
	if ((s = bb__db23_flags(g)) != BB_OK ||
	    (s = bb__jexpect_object(g->j, ja)) != BB_OK ||
	    (s = bb__jnum(g->j, ja, "duration", 1, &dur)) != BB_OK ||
	    (s = bb__jnum(g->j, ja, "scale", 1, &g->anim_scale)) != BB_OK ||
	    (s = bb__jnum(g->j, ja, "loop", 1, &loop)) != BB_OK ||
	    (s = bb__jnum(g->j, ja, "tweenEasing", 0, &g->anim_tween)) != BB_OK ||
	    (s = bb__jbool(g->j, ja, "autoTween", 1, &g->auto_tween)) != BB_OK ||
	    (s = bb__jeach(g->j, ja, "timeline", 0, &it)) != BB_OK)
		return s;
	if (dur < 0 || dur > 1e7) {
		bb__jdone(&it);
		return bb__jfail(g->j, "duration", "%g frames is out of range", dur);
	}
	if (!(fabs(g->anim_scale) <= 1e7)) {
		bb__jdone(&it);
		return bb__jfail(g->j, "scale", "%g is out of range", g->anim_scale);
	}
	g->frames = dur < 1 ? 1 : floor(dur);
	g->loops = loop != 1;
	bb__jw_copy(&g->w, oa, ja, "name");
	bb__jw_copy(&g->w, oa, ja, "scale");
	bb__jw_copy(&g->w, oa, ja, "frame");
	bb__jw_num(&g->w, oa, "duration", g->frames);
	bb__jw_num(&g->w, oa, "playTimes", loop);
	for (k = 0; k < g->nbones; k++)
		g->tl_of_bone[k] = -1;
	for (k = 0; k < g->nslots; k++)
		g->tl_of_slot[k] = -1;
	bb__db23_free_timelines(g);
	if (it.n && !(g->tl = bb__calloc(it.n, sizeof *g->tl)))
		return bb__build_nomem(g->d->b);
	while (bb__jnext(&it, &jt)) {
		s = read_timeline(g, jt, &g->tl[it.index]);
		g->ntl = (int)it.index + 1;
		if (s != BB_OK)
			return s;
		g->tl_of_bone[g->tl[it.index].bone] = (int)it.index;
		if (g->tl[it.index].slot >= 0)
			g->tl_of_slot[g->tl[it.index].slot] = (int)it.index;
	}
	bones = bb__jw_set(&g->w, oa, "bone", bb__jw_array(&g->w));
	slots = bb__jw_set(&g->w, oa, "slot", bb__jw_array(&g->w));
	if ((s = bb__db23_flags(g)) != BB_OK)
		return s;
	bb__jeach(g->j, ja, "timeline", 0, &it);
	while (bb__jnext(&it, &jt)) {
		const struct tl23 *tl = &g->tl[it.index];

		if ((s = bone_timeline(g, tl, bones)) != BB_OK ||
		    (tl->slot >= 0 && (s = slot_timeline(g, tl, slots)) != BB_OK))
			return s;
	}
	/* slots the animation has no timeline for are hidden */
	for (k = 0; k < g->nslots; k++) {
		json_t *ot, *fr, *of;

		if (g->tl_of_slot[k] >= 0)
			continue;
		ot = bb__jw_object(&g->w);
		bb__jw_append(&g->w, slots, ot);
		bb__jw_str(&g->w, ot, "name", g->slots[k].name);
		fr = bb__jw_set(&g->w, ot, "frame", bb__jw_array(&g->w));
		of = bb__jw_object(&g->w);
		bb__jw_append(&g->w, fr, of);
		bb__jw_num(&g->w, of, "duration", g->frames);
		bb__jw_num(&g->w, of, "displayIndex", -1);
	}
	if ((s = bb__db23_flags(g)) != BB_OK)
		return s;
	return zorder_timeline(g, oa);
}
