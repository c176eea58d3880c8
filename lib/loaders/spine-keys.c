/* Spine keys: reading them, flattening their Bezier curves as the runtime
 * does (CurveTimeline.setBezier), and building model timelines from them:
 * times and values as 32-bit floats, a stepped setup key at 0 when the
 * first key is later (the runtime shows the setup value before it). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine-keys.h"


void bb__sp_free_keys(struct bb__sp_keys *k)
{
	free(k->time);
	free(k->val);
	free(k->curve);
	free(k->map);
	memset(k, 0, sizeof *k);
}


/* A key's curve: absent, "stepped", or handles (an array; 3.8 also a
 * number). */
static bb_status read_curve(bb__sp *sp, json_t *key, unsigned char *out)
{
	bb__jkind kind = bb__jkind_of(key, "curve");
	const char *name;
	bb_status s;

	*out = BB_SP_LINEAR;
	if (kind == BB_JK_ABSENT)
		return BB_OK;
	if (kind == BB_JK_STRING) {
		if ((s = bb__jstr(sp->j, key, "curve", 1, &name)) != BB_OK)
			return s;
		if (strcmp(name, "stepped") == 0) {
			*out = BB_SP_STEPPED;
			return BB_OK;
		}
	}
	if (kind == BB_JK_ARRAY || (sp->v3 && kind == BB_JK_NUMBER)) {
		*out = BB_SP_BEZIER;
		return BB_OK;
	}
	return bb__jfail(sp->j, "curve", "expected \"stepped\" or %s, found %s",
	                 sp->v3 ? "a number" : "an array", bb__jkind_name(kind));
}

bb_status bb__sp_read_keys(struct bb__sp_anim *am, json_t *list, int nv, bb__sp_read_fn fn,
                           void *user, struct bb__sp_keys *k)
{
	bb__sp *sp = am->sp;
	bb__jiter it;
	json_t *key;
	size_t i, n;
	bb_status s;

	memset(k, 0, sizeof *k);
	if (bb__jkind_of(list, NULL) != BB_JK_ARRAY)
		return bb__jfail(sp->j, NULL, "expected an array of keys, found %s",
		                 bb__json_type_name(list));
	n = bb__jsize(list);
	if ((s = bb__build_keys_fit(sp->b, (long)n)) != BB_OK)
		return s;
	k->nv = nv;
	k->time = bb__calloc(n + 1, sizeof *k->time);
	k->val = bb__calloc((n + 1) * (size_t)(nv ? nv : 1), sizeof *k->val);
	k->curve = bb__calloc(n + 1, sizeof *k->curve);
	k->map = bb__calloc(n + 1, sizeof *k->map);
	if (!k->time || !k->val || !k->curve || !k->map)
		return bb__build_nomem(sp->b);
	if ((s = bb__jeach(sp->j, list, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &key)) {
		i = it.index;
		if ((s = bb__jexpect_object(sp->j, key)) != BB_OK ||
		    (s = bb__jnum_range(sp->j, key, "time", 0, 0, 1e6, &k->time[i])) != BB_OK)
			return s;
		if (i && bb__sp_f32(k->time[i]) < bb__sp_f32(k->time[i - 1]))
			return bb__jfail(sp->j, "time", "%g is before the previous key's %g",
			                 k->time[i], k->time[i - 1]);
		if ((fn && (s = fn(sp, key, k->val + i * (size_t)nv, user)) != BB_OK) ||
		    (s = read_curve(sp, key, &k->curve[i])) != BB_OK)
			return s;
		k->map[i] = key;
		k->n = (int)i + 1;
		if (bb__sp_f32(k->time[i]) > am->duration)
			am->duration = bb__sp_f32(k->time[i]);
	}
	return BB_OK;
}

/* ---- curves ------------------------------------------------------------ */

/* CurveTimeline.setBezier: 9 points of the curve from (x1, y1) to (x2, y2)
 * by forward differencing.  `deform`: DeformTimeline's variant for a
 * progress from 0 to 1 (its own constants). */
void bb__sp_bezier9(double x1, double y1, double cx1, double cy1, double cx2,
                    double cy2, double x2, double y2, int deform, float *out)
{
	double tmpx = (x1 - cx1 * 2 + cx2) * 0.03, tmpy, dddx, dddy, ddx, ddy, dx, dy;
	double x, y;
	int i;

	dddx = ((cx1 - cx2) * 3 - x1 + x2) * 0.006;
	if (deform) {
		tmpy = cy2 * 0.03 - cy1 * 0.06;
		dddy = (cy1 - cy2 + 0.33333333) * 0.018;
	} else {
		tmpy = (y1 - cy1 * 2 + cy2) * 0.03;
		dddy = ((cy1 - cy2) * 3 - y1 + y2) * 0.006;
	}
	ddx = tmpx * 2 + dddx;
	ddy = tmpy * 2 + dddy;
	dx = (cx1 - x1) * 0.3 + tmpx + dddx * 0.16666667;
	dy = (deform ? cy1 : cy1 - y1) * 0.3 + tmpy + dddy * 0.16666667;
	x = x1 + dx;
	y = (deform ? 0 : y1) + dy;
	for (i = 0; i < 9; i++) {
		out[2 * i] = (float)x;
		out[2 * i + 1] = (float)y;
		dx += ddx;
		dy += ddy;
		ddx += dddx;
		ddy += dddy;
		x += dx;
		y += dy;
	}
}

/* 4 numbers per value of a 4.x curve array, checked. */
bb_status bb__sp_curve_nums(bb__sp *sp, json_t *key, int vi, double *h)
{
	int k;
	bb_status s;

	for (k = 0; k < 4; k++)
		if ((s = bb__jnum_at(sp->j, key, "curve", (size_t)(4 * vi + k), &h[k])) != BB_OK)
			return s;
	return BB_OK;
}

/* 3.8's handles: `curve` cx1 with c2 (cy1), c3 (cx2), c4 (cy2); 3.7's
 * array of 4. */
bb_status bb__sp_curve38(bb__sp *sp, json_t *key, double *h)
{
	bb_status s;

	if (bb__jkind_of(key, "curve") == BB_JK_ARRAY)
		return bb__sp_curve_nums(sp, key, 0, h);
	if ((s = bb__jnum(sp->j, key, "curve", 0, &h[0])) != BB_OK ||
	    (s = bb__jnum(sp->j, key, "c2", 0, &h[1])) != BB_OK ||
	    (s = bb__jnum(sp->j, key, "c3", 1, &h[2])) != BB_OK ||
	    (s = bb__jnum(sp->j, key, "c4", 1, &h[3])) != BB_OK)
		return s;
	return BB_OK;
}

/* ---- emitting model timelines ------------------------------------------ */

bb_status bb__sp_percent_curve(struct bb__sp_anim *am, const struct bb__sp_keys *k,
                               int i, bb_interp *ip)
{
	bb__sp *sp = am->sp;
	double h[4], t0 = bb__sp_f32(k->time[i]), t1 = bb__sp_f32(k->time[i + 1]);
	int off, q;
	size_t mark;
	float *pts;
	bb_status s;

	if ((s = bb__build_table(sp->b, am->an, 18, &off, &pts)) != BB_OK)
		return s;
	mark = bb__jpath_index(&sp->j->path, (size_t)i);
	if (sp->v3) {
		/* 3.8: normalised in time and value; times into seconds */
		if ((s = bb__sp_curve38(sp, k->map[i], h)) != BB_OK)
			return s;
		bb__sp_bezier9(0, 0, h[0], h[1], h[2], h[3], 1, 1, 0, pts);
		for (q = 0; q < 9; q++)
			pts[2 * q] = (float)(t0 + pts[2 * q] * (t1 - t0));
	} else {
		if ((s = bb__sp_curve_nums(sp, k->map[i], 0, h)) != BB_OK)
			return s;
		bb__sp_bezier9(k->time[i], 0, h[0], h[1], h[2], h[3], k->time[i + 1], 1, 1, pts);
	}
	bb__jpath_pop(&sp->j->path, mark);
	ip->kind = BB_INTERP_BEZIER_PERCENT;
	ip->table = off;
	ip->ntable = 18;
	return BB_OK;
}

/* Per value curves of key i (4.x): each value's 4 handles in value units,
 * flattened between the key's and the next key's value. */
static bb_status value_curves(struct bb__sp_anim *am, const struct bb__sp_keys *k,
                              const struct bb__sp_spec *spec, int i, bb_interp *ip)
{
	bb__sp *sp = am->sp;
	int off, q, v;
	size_t mark;
	float *tab;
	bb_status s;

	if ((s = bb__build_table(sp->b, am->an, 18 * spec->nv, &off, &tab)) != BB_OK)
		return s;
	mark = bb__jpath_index(&sp->j->path, (size_t)i);
	for (v = 0; v < spec->nv; v++) {
		int vi = spec->vi[v];
		double h[4];
		double y1 = k->val[(size_t)(vi == spec->stale_value1 ? 0 : i) * k->nv + vi];
		double y2 = k->val[(size_t)(i + 1) * k->nv + vi];
		float *pts = tab + 18 * v;

		if ((s = bb__sp_curve_nums(sp, k->map[i], vi, h)) != BB_OK)
			return s;
		bb__sp_bezier9(k->time[i], y1, h[0], h[1], h[2], h[3], k->time[i + 1], y2, 0, pts);
		for (q = 0; q < 9; q++)
			pts[2 * q + 1] = (float)(pts[2 * q + 1] * spec->scale[v]);
	}
	bb__jpath_pop(&sp->j->path, mark);
	ip->kind = BB_INTERP_BEZIER;
	ip->table = off;
	ip->ntable = 18 * spec->nv;
	return BB_OK;
}

bb_status bb__sp_emit(struct bb__sp_anim *am, const struct bb__sp_keys *k,
                      const struct bb__sp_spec *spec)
{
	int i, v, pre = spec->prepend && k->n > 0 && bb__sp_f32(k->time[0]) > 0;
	int nv = spec->nv;
	bb_timeline *t;
	bb_status s;

	if (k->n == 0)
		return BB_OK;
	if ((s = bb__build_timeline(am->sp->b, am->an, spec->target, spec->index,
	                            spec->prop, spec->apply, nv, k->n + pre, &t)) != BB_OK)
		return s;
	t->display = spec->display;
	t->param = spec->param;
	t->channels = spec->channels;
	for (v = 0; pre && v < nv; v++)
		t->values[v] = spec->setup[v];     /* a stepped setup key at 0 */
	for (i = 0; i < k->n; i++) {
		int o = i + pre;
		bb_interp *ip = &t->interp[o];

		t->times[o] = bb__sp_f32(k->time[i]);
		for (v = 0; v < nv; v++)
			t->values[(size_t)o * nv + v] =
				bb__sp_f32(k->val[(size_t)i * k->nv + spec->vi[v]]) * spec->scale[v];
		ip->kind = BB_INTERP_LINEAR;
		if (spec->stepped || i == k->n - 1 || k->curve[i] == BB_SP_STEPPED) {
			ip->kind = BB_INTERP_STEP;
			continue;
		}
		if (k->curve[i] == BB_SP_LINEAR)
			continue;
		s = am->sp->v3 || spec->deform_curve ? bb__sp_percent_curve(am, k, i, ip)
		                                     : value_curves(am, k, spec, i, ip);
		if (s != BB_OK)
			return s;
	}
	return BB_OK;
}

void bb__sp_spec_init(struct bb__sp_spec *s, bb_tl_target target, int index, int nv)
{
	int v;

	memset(s, 0, sizeof *s);
	s->target = target;
	s->index = index;
	s->nv = nv;
	s->apply = BB_APPLY_REPLACE;
	s->stale_value1 = -1;
	s->prepend = 1;
	for (v = 0; v < MAXV; v++) {
		s->vi[v] = v;
		s->scale[v] = 1;
	}
}

/* ---- value readers ----------------------------------------------------- */

bb_status bb__sp_read_pair(bb__sp *sp, json_t *key, double *v, void *user)
{
	const struct bb__sp_names2 *nm = user;
	bb_status s;

	if ((s = bb__sp_num(sp, key, nm->a, nm->def_a, &v[0])) != BB_OK)
		return s;
	if (!nm->b)
		return BB_OK;
	return bb__sp_num(sp, key, nm->b, nm->b_defaults_to_a ? v[0] : nm->def_b, &v[1]);
}


bb_status bb__sp_read_color(bb__sp *sp, json_t *key, double *v, void *user)
{
	const struct bb__sp_color_spec *cs = user;
	const char *hex;
	bb_rgba c;
	int n = 0;
	bb_status s;

	if ((s = bb__jstr(sp->j, key, cs->light, 1, &hex)) != BB_OK)
		return s;
	if (!bb__sp_color(hex, &c))
		return bb__jfail(sp->j, cs->light, "\"%s\" is not a colour", hex);
	v[n++] = c.r;
	v[n++] = c.g;
	v[n++] = c.b;
	if (cs->alpha)
		v[n++] = c.a;
	if (!cs->dark)
		return BB_OK;
	if ((s = bb__jstr(sp->j, key, cs->dark, 1, &hex)) != BB_OK)
		return s;
	if (!bb__sp_color(hex, &c))
		return bb__jfail(sp->j, cs->dark, "\"%s\" is not a colour", hex);
	v[n++] = c.r;
	v[n++] = c.g;
	v[n] = c.b;
	return BB_OK;
}
