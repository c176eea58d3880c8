/* DragonBones animations: bone (4.5/5.0 `frame[].transform`, 5.5
 * translate/rotate/scale frames), slot display and colour, FFD, IK,
 * z-order and event timelines, with tweenEasing, sampled `curve`s,
 * rotation unwrapping and the loop's wrap tween (spec sections 5-11). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones.h"


void bb__db_keys_free(struct keys *k)
{
	free(k->start);
	free(k->len);
	memset(k, 0, sizeof *k);
}

bb_status bb__db_key_list(struct anim_ctx *c, json_t *arr, struct keys *k)
{
	struct db *d = c->d;
	double pos = 0, dur;
	bb__jiter it;
	json_t *jk;
	size_t i;
	bb_status s;

	memset(k, 0, sizeof *k);
	k->arr = arr;
	if ((s = bb__jeach(d->j, arr, NULL, 0, &it)) != BB_OK || it.n == 0)
		return s;
	k->n = it.n;
	k->start = bb__calloc(k->n, sizeof *k->start);
	k->len = bb__calloc(k->n, sizeof *k->len);
	if (!k->start || !k->len)
		return bb__build_nomem(d->b);
	while (bb__jnext(&it, &jk)) {
		i = it.index;
		if ((s = bb__jexpect_object(d->j, jk)) != BB_OK ||
		    (s = bb__jnum(d->j, jk, "duration", 1, &dur)) != BB_OK)
			return s;
		if (dur < 0 || dur > 1e7)
			return bb__jfail(d->j, "duration", "%g frames is out of range", dur);
		k->start[i] = pos > c->frames ? c->frames : pos;
		/* a zero-length key that is not last still takes a frame slot */
		pos += i + 1 < k->n ? (dur > 0 ? floor(dur) : 1) : 0;
	}
	for (i = 0; i < k->n; i++)
		k->len[i] = (i + 1 < k->n ? k->start[i + 1] : c->frames) - k->start[i];
	return BB_OK;
}

/* ---- easing ------------------------------------------------------------ */

static void curve_point(const double *p, double t, double *x, double *y)
{
	double l = 1 - t, a = l * l * l, b = 3 * t * l * l, c = 3 * l * t * t,
	       dd = t * t * t;

	*x = a * p[0] + b * p[2] + c * p[4] + dd * p[6];
	*y = a * p[1] + b * p[3] + c * p[5] + dd * p[7];
}

/* The runtime's _samplingEasingCurve, first/last segment quirk included
 * (spec 6.3): n samples of curve `cv` (count numbers). */
static void sample_curve(const double *cv, size_t count, int n, float *out)
{
	long step = -2;
	int i;

	for (i = 0; i < n; i++) {
		double t = (double)(i + 1) / (n + 1), lo = 0, hi = 1, x = 0, y = 0;
		double pt[8];
		int in;

		while ((step + 6 < (long)count ? cv[step + 6] : 1) < t)
			step += 6;
		in = step >= 0 && step + 6 < (long)count;
		pt[0] = in ? cv[step] : 0;
		pt[1] = in ? cv[step + 1] : 0;
		pt[2] = cv[step + 2];
		pt[3] = cv[step + 3];
		pt[4] = cv[step + 4];
		pt[5] = cv[step + 5];
		pt[6] = in ? cv[step + 6] : 1;
		pt[7] = in ? cv[step + 7] : 1;
		while (hi - lo > 0.0001) {
			double mid = (hi + lo) * 0.5;

			curve_point(pt, mid, &x, &y);
			if (t - x > 0)
				lo = mid;
			else
				hi = mid;
		}
		out[i] = (float)(round(y * 10000) / 10000);
	}
}

/* Interpolation of key jk lasting len frames (5.5+ rules: curve wins,
 * absent tweenEasing holds, spec 6.1). */
static bb_status key_interp(struct anim_ctx *c, json_t *jk, double len,
                            bb_interp *ip)
{
	struct db *d = c->d;
	double e, *cv = NULL;
	size_t count;
	float *tab;
	int n = (int)len + 1;
	bb_status s;

	memset(ip, 0, sizeof *ip);
	ip->kind = BB_INTERP_STEP;
	if (len <= 0)
		return BB_OK;
	if ((s = bb__jnums(d->j, jk, "curve", 0, 1u << 20, &cv, &count)) != BB_OK)
		return s;
	if (count >= 4) {
		if (count % 6 != 4) {
			free(cv);
			bb__model_warn(d->m, "%s: curve with %zu numbers (not the exported "
			               "form) eased linearly", d->c->name, count);
			ip->kind = BB_INTERP_LINEAR;
			return BB_OK;
		}
		if (n > 100000)
			n = 100000;
		if ((s = bb__build_table(d->b, c->an, n, &ip->table, &tab)) == BB_OK) {
			sample_curve(cv, count, n, tab);
			ip->kind = BB_INTERP_TABLE;
			ip->ntable = n;
		}
		free(cv);
		return s;
	}
	free(cv);
	/* absent, null or "NaN": hold */
	if ((s = bb__jnum(d->j, jk, "tweenEasing", NAN, &e)) != BB_OK || isnan(e))
		return s;
	e = round(e * 100) / 100;
	if (e == 0) {
		ip->kind = BB_INTERP_LINEAR;
	} else if (e < 0) {
		ip->kind = BB_INTERP_QUAD_IN;
		ip->param = (float)-e;
	} else if (e <= 1) {
		ip->kind = BB_INTERP_QUAD_OUT;
		ip->param = (float)e;
	} else {
		ip->kind = BB_INTERP_SINE_IN_OUT;
		ip->param = (float)(e - 1);
	}
	return BB_OK;
}

/* ---- timelines --------------------------------------------------------- */

/* A timeline over the keys, plus the wrap key to key 0 when the animation
 * loops and the last key tweens over a non-empty span. */
bb_status bb__db_new_timeline(struct anim_ctx *c, const struct keys *k,
                              bb_tl_target target, int index, bb_prop prop,
                              bb_apply apply, int stride, bb_timeline **out)
{
	bb_timeline *t;
	size_t i;
	bb_status s;

	if ((s = bb__build_timeline(c->d->b, c->an, target, index, prop, apply,
	                            stride, (int)k->n + 1, &t)) != BB_OK)
		return s;
	t->nkeys = (int)k->n;
	for (i = 0; i < k->n; i++)
		t->times[i] = bb__db_frame_time(c, k->start[i]);
	*out = t;
	return BB_OK;
}

/* The interpolation of each of k's keys into ip (k->n entries, STEP
 * until set): a bone's key list is eased once for all its properties. */
static bb_status key_interps(struct anim_ctx *c, const struct keys *k,
                             int stepped, bb_interp *ip)
{
	bb__jiter it;
	json_t *jk;
	bb_status s;

	if (stepped || k->n < 2)
		return BB_OK;
	bb__jeach(c->d->j, k->arr, NULL, 0, &it);
	while (bb__jnext(&it, &jk))
		if ((s = key_interp(c, jk, k->len[it.index], &ip[it.index])) != BB_OK)
			return s;
	return BB_OK;
}

/* The wrap tween to key 0 (used only while looping) when the last key
 * tweens over a non-empty span; returns whether it does. */
static int set_wrap(struct anim_ctx *c, const struct keys *k, bb_timeline *t)
{
	if (k->n > 1 && k->len[k->n - 1] > 0 &&
	    t->interp[k->n - 1].kind != BB_INTERP_STEP) {
		t->times[k->n] = bb__db_frame_time(c, c->frames);
		t->interp[k->n].kind = BB_INTERP_STEP;
		t->nkeys = (int)k->n + 1;
		t->wraps = 1;
		return 1;
	}
	t->interp[k->n - 1].kind = BB_INTERP_STEP;
	return 0;
}

/* Interpolation of every key; returns whether the last key wraps. */
bb_status bb__db_set_interps(struct anim_ctx *c, const struct keys *k,
                             bb_timeline *t, int stepped, int *wraps)
{
	bb_status s;

	*wraps = 0;
	if ((s = key_interps(c, k, stepped, t->interp)) != BB_OK)
		return s;
	*wraps = set_wrap(c, k, t);
	return BB_OK;
}

bb_status bb__db_timeline_of(struct anim_ctx *c, json_t *arr, struct keys *k,
                             bb_tl_target target, int index, bb_prop prop,
                             bb_apply apply, int stride, int stepped,
                             bb_timeline **out, int *wraps)
{
	bb_status s;

	*out = NULL;
	*wraps = 0;
	if ((s = bb__db_key_list(c, arr, k)) != BB_OK || k->n == 0 ||
	    (s = bb__db_new_timeline(c, k, target, index, prop, apply, stride,
	                             out)) != BB_OK)
		return s;
	return bb__db_set_interps(c, k, *out, stepped, wraps);
}

/* Drops the last timeline when its values all equal `identity` (the
 * setup pose). */
static void drop_if_identity(struct anim_ctx *c, double identity)
{
	bb_timeline *t = &c->an->timelines[c->an->ntimelines - 1];
	int i;

	for (i = 0; i < t->nkeys * t->stride; i++)
		if (t->values[i] != identity)
			return;
	bb__build_drop_timeline(c->d->b, c->an);
}

/* Rotation unwrapping at parse time (spec 7.1): cw of the previous key. */
static double unwrap(double prev, double raw, double cw)
{
	if (cw == 0)
		return prev + bb__norm_angle(raw - prev);
	if (cw > 0 ? raw >= prev : raw <= prev)
		cw -= cw > 0 ? 1 : -1;
	return raw + 2 * M_PI * cw;
}

/* One bone property from per-key values v[k], eased by ip (key_interps). */
static bb_status bone_prop(struct anim_ctx *c, const struct keys *k, int bone,
                           bb_prop prop, const double *v, const bb_interp *ip,
                           int angle)
{
	bb_apply apply = prop >= BB_PROP_SCALE_X ? BB_APPLY_MUL : BB_APPLY_ADD;
	bb_timeline *t;
	size_t i;
	int wraps;
	bb_status s;

	if ((s = bb__db_new_timeline(c, k, BB_TL_BONE, bone, prop, apply, 1, &t)) != BB_OK)
		return s;
	memcpy(t->interp, ip, k->n * sizeof *ip);
	wraps = set_wrap(c, k, t);
	for (i = 0; i < k->n; i++)
		t->values[i] = v[i];
	if (wraps)
		t->values[k->n] = angle ? v[k->n - 1] + bb__norm_angle(v[0] - v[k->n - 1])
		                        : v[0];
	drop_if_identity(c, apply == BB_APPLY_MUL ? 1 : 0);
	return BB_OK;
}

/* 4.5 / 5.0: bone[].frame[] {transform {x,y,skX,skY,scX,scY}, tweenRotate}
 * (the path at the list). */
static bb_status bone_frames(struct anim_ctx *c, int bone, json_t *arr)
{
	struct db *d = c->d;
	struct keys k;
	double *v[6] = { NULL };
	double cw_prev = 0;
	bb_interp *ip = NULL;
	bb__jiter it;
	json_t *jk, *tr;
	size_t i, mark;
	int p;
	bb_status s;

	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	for (p = 0; p < 6; p++)
		if (!(v[p] = bb__calloc(k.n + 1, sizeof(double)))) {
			s = bb__build_nomem(d->b);
			goto out;
		}
	if (!(ip = bb__calloc(k.n, sizeof *ip))) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	bb__jeach(d->j, arr, NULL, 0, &it);
	while (bb__jnext(&it, &jk)) {
		double skx = 0, sky = 0, cw;

		i = it.index;
		v[4][i] = v[5][i] = 1;
		if ((s = bb__jobject(d->j, jk, "transform", 0, &tr)) != BB_OK)
			goto out;
		mark = bb__jpath_key(&d->j->path, "transform");
		if ((s = bb__jnum(d->j, tr, "x", 0, &v[0][i])) != BB_OK ||
		    (s = bb__jnum(d->j, tr, "y", 0, &v[1][i])) != BB_OK ||
		    (s = bb__jnum(d->j, tr, "skX", 0, &skx)) != BB_OK ||
		    (s = bb__jnum(d->j, tr, "skY", 0, &sky)) != BB_OK ||
		    (s = bb__jnum(d->j, tr, "scX", 1, &v[4][i])) != BB_OK ||
		    (s = bb__jnum(d->j, tr, "scY", 1, &v[5][i])) != BB_OK)
			goto out;
		bb__jpath_pop(&d->j->path, mark);
		if ((s = bb__jnum(d->j, jk, "tweenRotate", 0, &cw)) != BB_OK)
			goto out;
		sky = bb__norm_angle(sky * BB__DEG);
		v[3][i] = bb__norm_angle(skx * BB__DEG) - sky;
		v[2][i] = i == 0 ? sky : unwrap(v[2][i - 1], sky, cw_prev);
		cw_prev = cw;
	}
	if ((s = key_interps(c, &k, 0, ip)) != BB_OK)
		goto out;
	for (p = 0; p < 6 && s == BB_OK; p++)
		s = bone_prop(c, &k, bone, (bb_prop)p, v[p], ip, p == 2 || p == 3);
out:
	for (p = 0; p < 6; p++)
		free(v[p]);
	free(ip);
	bb__db_keys_free(&k);
	return s;
}

/* 5.5: translateFrame {x,y}, rotateFrame {rotate, skew, clockwise},
 * scaleFrame {x,y}. */
static bb_status bone_split(struct anim_ctx *c, int bone, json_t *jb)
{
	static const char *const lists[3] = { "translateFrame", "rotateFrame",
	                                      "scaleFrame" };
	struct db *d = c->d;
	int l;
	bb_status s = BB_OK;

	for (l = 0; l < 3 && s == BB_OK; l++) {
		struct keys k;
		double *a = NULL, *b = NULL, cw_prev = 0;
		bb_interp *ip = NULL;
		bb__jiter it;
		json_t *arr, *jk;
		size_t i, mark;

		if ((s = bb__jarray(d->j, jb, lists[l], 0, &arr)) != BB_OK)
			return s;
		if (!arr)
			continue;
		mark = bb__jpath_key(&d->j->path, lists[l]);
		if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0) {
			bb__db_keys_free(&k);
			if (s == BB_OK)
				bb__jpath_pop(&d->j->path, mark);
			continue;
		}
		a = bb__calloc(k.n + 1, sizeof *a);
		b = bb__calloc(k.n + 1, sizeof *b);
		ip = bb__calloc(k.n, sizeof *ip);
		if (!a || !b || !ip)
			s = bb__build_nomem(d->b);
		bb__jeach(d->j, arr, NULL, 0, &it);
		while (s == BB_OK && bb__jnext(&it, &jk)) {
			double cw = 0, r;

			i = it.index;
			if (l == 0) {
				if ((s = bb__jnum(d->j, jk, "x", 0, &a[i])) == BB_OK)
					s = bb__jnum(d->j, jk, "y", 0, &b[i]);
			} else if (l == 2) {
				if ((s = bb__jnum(d->j, jk, "x", 1, &a[i])) == BB_OK)
					s = bb__jnum(d->j, jk, "y", 1, &b[i]);
			} else if ((s = bb__jnum(d->j, jk, "rotate", 0, &r)) == BB_OK &&
			           (s = bb__jnum(d->j, jk, "skew", 0, &b[i])) == BB_OK &&
			           (s = bb__jnum(d->j, jk, "clockwise", 0, &cw)) == BB_OK) {
				r = bb__norm_angle(r * BB__DEG);
				a[i] = i == 0 ? r : unwrap(a[i - 1], r, cw_prev);
				b[i] = bb__norm_angle(b[i] * BB__DEG);
				cw_prev = cw;
			}
		}
		if (s == BB_OK)
			s = key_interps(c, &k, 0, ip);
		if (s == BB_OK)
			s = bone_prop(c, &k, bone, l == 0 ? BB_PROP_X : l == 1 ?
			              BB_PROP_ROTATION : BB_PROP_SCALE_X, a, ip, l == 1);
		if (s == BB_OK)
			s = bone_prop(c, &k, bone, l == 0 ? BB_PROP_Y : l == 1 ?
			              BB_PROP_SKEW : BB_PROP_SCALE_Y, b, ip, l == 1);
		free(a);
		free(b);
		free(ip);
		bb__db_keys_free(&k);
		if (s == BB_OK)
			bb__jpath_pop(&d->j->path, mark);
	}
	return s;
}

/* ---- animations ---------------------------------------------------------------- */

static bb_status bone_timelines(struct anim_ctx *c, json_t *jb)
{
	struct db *d = c->d;
	const char *name;
	json_t *arr;
	int bone, first = c->an->ntimelines, i;
	double sc, off;
	size_t mark;
	bb_status s;

	if ((s = bb__jexpect_object(d->j, jb)) != BB_OK ||
	    (s = bb__jstr(d->j, jb, "name", 1, &name)) != BB_OK ||
	    (s = bb__jnum(d->j, jb, "scale", 1, &sc)) != BB_OK ||
	    (s = bb__jnum(d->j, jb, "offset", 0, &off)) != BB_OK)
		return s;
	if ((bone = bb__build_find_bone(d->a, name)) < 0)
		return bb__jfail(d->j, "name", "unknown bone \"%s\"", name);
	if (!(fabs(sc) <= 1e7) || !(fabs(off) <= 1e7))
		return bb__jfail(d->j, fabs(sc) <= 1e7 ? "offset" : "scale",
		                 "%g is out of range", fabs(sc) <= 1e7 ? off : sc);
	if ((s = bb__jarray(d->j, jb, "frame", 0, &arr)) != BB_OK)
		return s;
	if (arr) {
		mark = bb__jpath_key(&d->j->path, "frame");
		if ((s = bone_frames(c, bone, arr)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j->path, mark);
		if ((s = bb__db_frame_events(c, jb, "frame", name)) != BB_OK)
			return s;
	}
	if ((s = bone_split(c, bone, jb)) != BB_OK)
		return s;
	/* timeline scale/offset (stored x100 and rounded by the runtime) */
	sc = round(sc * 100) / 100;
	off = round(off * 100) / 100;
	for (i = first; i < c->an->ntimelines; i++) {
		c->an->timelines[i].time_scale = sc > 0 ? sc : 1;
		c->an->timelines[i].time_offset = off;
	}
	return BB_OK;
}

/* Runs fn over the elements of array ja[key], the path at each. */
static bb_status each(struct anim_ctx *c, json_t *ja, const char *key,
                      bb_status (*fn)(struct anim_ctx *, json_t *))
{
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jeach(c->d->j, ja, key, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v))
		if ((s = fn(c, v)) != BB_OK)
			return s;
	return BB_OK;
}

static bb_status load_animation(struct db *d, json_t *ja)
{
	struct anim_ctx c;
	const char *name;
	double frames, play_times, scale;
	json_t *jz;
	size_t mark;
	bb_status s;

	memset(&c, 0, sizeof c);
	c.d = d;
	if ((s = bb__jexpect_object(d->j, ja)) != BB_OK ||
	    (s = bb__jstr(d->j, ja, "name", 0, &name)) != BB_OK ||
	    (s = bb__jnum(d->j, ja, "duration", 0, &frames)) != BB_OK ||
	    (s = bb__jnum(d->j, ja, "playTimes", 1, &play_times)) != BB_OK ||
	    (s = bb__jnum(d->j, ja, "scale", 1, &scale)) != BB_OK)
		return s;
	/* the runtime names an animation without a name (or with "") "default" */
	if (!name || !name[0])
		name = "default";
	if ((s = bb__build_anim(d->b, d->a, name, &c.an)) != BB_OK)
		return s;
	if (frames < 0 || frames > 1e7)
		return bb__jfail(d->j, "duration", "%g frames is out of range", frames);
	if (!(scale > 0))
		scale = 1;
	if (scale > 1e7)
		return bb__jfail(d->j, "scale", "%g is out of range", scale);
	c.frames = floor(frames);
	c.scale = scale;
	c.fps = d->fps;
	c.loop = frames > 0 && play_times != 1;
	c.an->duration = bb__db_frame_time(&c, c.frames);
	c.an->loop = c.loop;
	if ((s = each(&c, ja, "bone", bone_timelines)) != BB_OK ||
	    (s = each(&c, ja, "slot", bb__db_slot_timelines)) != BB_OK ||
	    (s = each(&c, ja, "ffd", bb__db_ffd_timeline)) != BB_OK ||
	    (s = each(&c, ja, "ik", bb__db_ik_timeline)) != BB_OK ||
	    (s = bb__jobject(d->j, ja, "zOrder", 0, &jz)) != BB_OK)
		return s;
	if (jz) {
		mark = bb__jpath_key(&d->j->path, "zOrder");
		if ((s = bb__db_zorder_timeline(&c, jz)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j->path, mark);
	}
	return bb__db_frame_events(&c, ja, "frame", NULL);
}

bb_status bb__db_load_animations(struct db *d, json_t *ja)
{
	const char *play;
	bb__jiter it;
	json_t *jan, *act;
	int k;
	bb_status s;

	if ((s = bb__jeach(d->j, ja, "animation", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jan))
		if ((s = load_animation(d, jan)) != BB_OK)
			return s;
	/* defaultActions: [{gotoAndPlay: name}] picks the default animation */
	if ((s = bb__jeach(d->j, ja, "defaultActions", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &act)) {
		if ((s = bb__jstr(d->j, act, "gotoAndPlay", 0, &play)) != BB_OK ||
		    (!play && (s = bb__jstr(d->j, act, "name", 0, &play)) != BB_OK))
			return s;
		for (k = 0; play && k < d->a->nanims; k++)
			if (strcmp(d->a->anims[k].name, play) == 0)
				d->a->default_anim = k;
	}
	return BB_OK;
}
