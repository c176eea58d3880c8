/* Keyframe lookup, easing and track time. */
#include "config.h"

#include <math.h>

#include "eval/eval.h"
#include "eval/tween.h"

double bb__ease(const bb_anim *an, const bb_interp *ip, double p)
{
	double base, seg, f;
	const float *tab;
	int n, k;

	switch (ip->kind) {
	case BB_INTERP_STEP:
		return 0;
	case BB_INTERP_LINEAR:
		return p;
	case BB_INTERP_NEAREST:
		return p < 0.5 ? 0 : 1;
	case BB_INTERP_QUAD_IN:
		base = p * p;
		return (base - p) * ip->param + p;
	case BB_INTERP_QUAD_OUT:
		base = 1 - (1 - p) * (1 - p);
		return (base - p) * ip->param + p;
	case BB_INTERP_SINE_IN_OUT:
		base = 0.5 * (1 - cos(p * M_PI));
		return (base - p) * ip->param + p;
	case BB_INTERP_TABLE:
		/* piecewise linear through (0,0), samples, (1,1) */
		if (p <= 0)
			return 0;
		if (p >= 1)
			return 1;
		n = ip->ntable;
		tab = an->tables + ip->table;
		seg = p * (n + 1);
		k = (int)floor(seg);
		f = seg - k;
		{
			double from = k == 0 ? 0 : tab[k - 1];
			double to = k >= n ? 1 : tab[k];

			return from + (to - from) * f;
		}
	case BB_INTERP_TWEEN:
		return bb__cocos_tween((int)ip->param, p,
		                       ip->ntable > 0 ? an->tables + ip->table : NULL,
		                       ip->ntable);
	case BB_INTERP_BEZIER:
	case BB_INTERP_BEZIER_PERCENT:
		break;             /* sampled in time, see bb__timeline_sample */
	}
	return p;
}

/* A flattened Bezier (9 points, time then value) between (t0, v0) and
 * (t1, v1), at `time`: piecewise linear, as Spine's runtime evaluates it
 * (the first point found at or after `time` ends the segment). */
static double bezier_at(const float *c, double time, double t0, double v0,
                        double t1, double v1)
{
	double x, y;
	int i;

	if (c[0] > time)
		return v0 + (time - t0) / (c[0] - t0) * (c[1] - v0);
	for (i = 2; i < 18; i += 2)
		if (c[i] >= time) {
			x = c[i - 2];
			y = c[i - 1];
			return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
		}
	x = c[16];
	y = c[17];
	return y + (time - x) / (t1 - x) * (v1 - y);
}

/* The progress (0..1) of a shared percent curve, Spine's deform timeline
 * way (its first segment scales the first point's progress). */
static double bezier_percent(const float *c, double time, double t0, double t1)
{
	double x, y;
	int i;

	if (c[0] > time)
		return c[1] * (time - t0) / (c[0] - t0);
	for (i = 2; i < 18; i += 2)
		if (c[i] >= time) {
			x = c[i - 2];
			y = c[i - 1];
			return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
		}
	x = c[16];
	y = c[17];
	return y + (1 - y) * (time - x) / (t1 - x);
}

/* Index of the last key with time <= t (binary search); -1 before the
 * first key.  A sample within 1e-9 s of a key counts as on it, so float
 * noise in how a loader computed key times cannot pick the previous key
 * (unless the animation's key times are exact). */
static int find_key(const bb_anim *an, const bb_timeline *t, int nkeys,
                    double time)
{
	int lo = 0, hi = nkeys - 1, mid;

	if (!an->exact_keys)
		time += 1e-9;
	if (time < t->times[0])
		return -1;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (t->times[mid] <= time)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int bb__timeline_key(const bb_anim *an, const bb_timeline *t, double time)
{
	return find_key(an, t, t->nkeys, time);
}

void bb__timeline_sample(const bb_anim *an, const bb_timeline *t, double time,
                         int looping, double *out)
{
	/* without looping, a wrap key does not exist: the last key holds */
	int nkeys = t->wraps && !looping && t->nkeys > 1 ? t->nkeys - 1 : t->nkeys;
	int k = find_key(an, t, nkeys, time), i, s = t->stride;
	const double *v0, *v1;
	double span, p;

	if (k < 0)
		k = 0;
	v0 = t->values + (size_t)k * s;
	if (k == nkeys - 1 || t->interp[k].kind == BB_INTERP_STEP ||
	    time <= t->times[k]) {
		for (i = 0; i < s; i++)
			out[i] = v0[i];
		return;
	}
	v1 = v0 + s;
	if (t->interp[k].kind == BB_INTERP_BEZIER) {
		const float *c = an->tables + t->interp[k].table;

		for (i = 0; i < s; i++)
			out[i] = bezier_at(c + 18 * i, time, t->times[k], v0[i],
			                   t->times[k + 1], v1[i]);
		return;
	}
	span = t->times[k + 1] - t->times[k];
	if (t->interp[k].kind == BB_INTERP_BEZIER_PERCENT) {
		p = bezier_percent(an->tables + t->interp[k].table, time,
		                   t->times[k], t->times[k + 1]);
		for (i = 0; i < s; i++)
			out[i] = v0[i] + (v1[i] - v0[i]) * p;
		return;
	}
	p = span > 0 ? (time - t->times[k]) / span : 1;
	p = bb__ease(an, &t->interp[k], p);
	for (i = 0; i < s; i++)
		out[i] = v0[i] + (v1[i] - v0[i]) * p;
}

int bb__track_loops(const bb_anim *an, const bb_track *tr)
{
	return tr->loop == 1 ? 1 : tr->loop == 2 ? 0 : an->loop;
}

int bb__track_time(const bb_anim *an, const bb_track *tr, double t,
                   double *local)
{
	double lt = (t - tr->start) * (tr->speed > 0 ? tr->speed : 1);
	double d = an->duration;

	if (lt < 0) {
		if (tr->transient)
			return 0;
		lt = 0;
	}
	if (d <= 0) {
		*local = 0;
		return 1;
	}
	if (bb__track_loops(an, tr)) {
		lt = fmod(lt, d);
	} else if (lt > d) {
		if (tr->transient)
			return 0;
		lt = d;
	}
	*local = lt;
	return 1;
}

long bb_frame_count(double duration, double fps, int loop)
{
	double n;

	if (!(duration > 0) || !(fps > 0))
		return 1;
	n = duration * fps;
	if (loop) {
		n = floor(n + 0.5);
		return n < 1 ? 1 : (long)n;
	}
	/* tolerate representation error: 0.7 * 30 may be 20.999999999999996 */
	return (long)floor(n + 1e-9) + 1;
}
