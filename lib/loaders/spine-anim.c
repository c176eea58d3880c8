/* Spine animations: every timeline of 4.x and 3.8 data into model
 * timelines.  Keys are stored as the runtime stores them (32-bit floats),
 * Bezier curves flattened as it flattens them (9 points, forward
 * differencing), and a timeline whose first key is after 0 gets a stepped
 * setup key at 0 (the runtime shows the setup pose before the first key).
 * The mapping:
 *
 *   rotate / translate(x|y) / scale(x|y) / shear(x|y)
 *                  -> BB_TL_BONE, one timeline per value (each keeps its
 *                     own curve); rotation and shear add, scale multiplies
 *   inherit        -> BB_TL_BONE_INHERIT
 *   attachment     -> BB_TL_SLOT_DISPLAY (the name's index in the slot)
 *   rgba rgb alpha rgba2 rgb2 (3.8: color, twoColor)
 *                  -> BB_TL_SLOT_TINT with the channels they set
 *   ik / transform / path / physics
 *                  -> BB_TL_CONSTRAINT (IK: mix and softness interpolated,
 *                     bend, compress and stretch stepped); physics reset ->
 *                     BB_TL_PHYSICS_RESET
 *   deform         -> BB_TL_DEFORM (offsets from the setup vertices)
 *   sequence       -> BB_TL_SEQUENCE
 *   drawOrder      -> BB_TL_DRAW_ORDER (offsets resolved to the full order)
 *   events         -> bb_event */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine.h"

#define DEG_RAD (M_PI / 180)

enum { MAXV = 8 };

/* One Spine timeline's keys, read before they are split into model
 * timelines. */
struct keys {
	int n, nv;
	double *time;          /* JSON times (the curves use them as read) */
	double *val;           /* n * nv JSON values */
	json_t **curve;        /* per key, or NULL */
	json_t **map;          /* per key */
};

struct anim {
	bb__sp *sp;
	bb_anim *an;
	size_t tl_cap, tab_cap, ev_cap;
	long keys;             /* keys so far (limit) */
	double duration;
};

static bb_status nomem(bb__sp *sp)
{
	return bb_error_set(sp->j.err, BB_ERR_NOMEM, sp->j.file, NULL, "out of memory");
}

static void free_keys(struct keys *k)
{
	free(k->time);
	free(k->val);
	free(k->curve);
	free(k->map);
	memset(k, 0, sizeof *k);
}

/* Value reader for one key: fills v[nv]. */
typedef bb_status (*read_fn)(bb__sp *sp, json_t *key, double *v, void *user);

static bb_status read_keys(struct anim *am, json_t *list, int nv, read_fn fn,
                           void *user, struct keys *k)
{
	bb__sp *sp = am->sp;
	size_t i, n;
	bb_status s;

	memset(k, 0, sizeof *k);
	if (!json_is_array(list))
		return bb__jfail(&sp->j, NULL, "expected an array of keys, found %s",
		                 bb__json_type_name(list));
	n = json_array_size(list);
	if ((long)n > (long)sp->ctx->opts->max_keys - am->keys)
		return bb_error_set(sp->j.err, BB_ERR_LIMIT, sp->j.file, sp->j.path.buf,
		                    "more than %d keys in the animation",
		                    sp->ctx->opts->max_keys);
	am->keys += (long)n;
	k->nv = nv;
	k->time = bb__calloc(n + 1, sizeof *k->time);
	k->val = bb__calloc((n + 1) * (size_t)(nv ? nv : 1), sizeof *k->val);
	k->curve = bb__calloc(n + 1, sizeof *k->curve);
	k->map = bb__calloc(n + 1, sizeof *k->map);
	if (!k->time || !k->val || !k->curve || !k->map)
		return nomem(sp);
	for (i = 0; i < n; i++) {
		size_t mark = bb__jpath_index(&sp->j.path, i);
		json_t *key = json_array_get(list, i), *c;

		if ((s = bb__jexpect_object(&sp->j, key)) != BB_OK ||
		    (s = bb__jnum_range(&sp->j, key, "time", 0, 0, 1e6, &k->time[i])) != BB_OK)
			return s;
		if (i && bb__sp_f32(k->time[i]) < bb__sp_f32(k->time[i - 1]))
			return bb__jfail(&sp->j, "time", "%g is before the previous key's %g",
			                 k->time[i], k->time[i - 1]);
		if (fn && (s = fn(sp, key, k->val + i * (size_t)nv, user)) != BB_OK)
			return s;
		c = json_object_get(key, "curve");
		if (c && !json_is_null(c)) {
			if (!(json_is_string(c) && strcmp(json_string_value(c), "stepped") == 0) &&
			    !json_is_array(c) && !(sp->v3 && json_is_number(c)))
				return bb__jfail(&sp->j, "curve", "expected \"stepped\" or %s, found %s",
				                 sp->v3 ? "a number" : "an array",
				                 bb__json_type_name(c));
			k->curve[i] = c;
		}
		k->map[i] = key;
		k->n = (int)i + 1;
		if (bb__sp_f32(k->time[i]) > am->duration)
			am->duration = bb__sp_f32(k->time[i]);
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

/* ---- curves ------------------------------------------------------------ */

/* CurveTimeline.setBezier: 9 points of the curve from (x1, y1) to (x2, y2)
 * by forward differencing.  `deform`: DeformTimeline's variant for a
 * progress from 0 to 1 (its own constants). */
static void bezier9(double x1, double y1, double cx1, double cy1, double cx2,
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

static int add_table(struct anim *am, int n)
{
	bb_anim *an = am->an;

	if (!bb__grow((void **)&an->tables, &am->tab_cap, (size_t)an->ntables + (size_t)n,
	              sizeof *an->tables))
		return -1;
	an->ntables += n;
	return an->ntables - n;
}

/* 4 numbers per value of a 4.x curve array, checked. */
static bb_status curve_nums(bb__sp *sp, json_t *c, int vi, double *h)
{
	int k;

	for (k = 0; k < 4; k++) {
		json_t *v = json_array_get(c, (size_t)(4 * vi + k));

		if (!json_is_number(v))
			return bb__sp_fail_at(sp, "curve", (size_t)(4 * vi + k),
			                      "expected a number, found %s",
			                      v ? bb__json_type_name(v) : "nothing");
		h[k] = json_number_value(v);
	}
	return BB_OK;
}

/* 3.8's handles: `curve` cx1 with c2 (cy1), c3 (cx2), c4 (cy2); 3.7's
 * array of 4. */
static bb_status curve38(bb__sp *sp, json_t *key, json_t *c, double *h)
{
	bb_status s;

	if (json_is_array(c))
		return curve_nums(sp, c, 0, h);
	h[0] = json_number_value(c);
	if ((s = bb__jnum(&sp->j, key, "c2", 0, &h[1])) != BB_OK ||
	    (s = bb__jnum(&sp->j, key, "c3", 1, &h[2])) != BB_OK ||
	    (s = bb__jnum(&sp->j, key, "c4", 1, &h[3])) != BB_OK)
		return s;
	return BB_OK;
}

/* ---- emitting model timelines ------------------------------------------ */

struct spec {
	bb_tl_target target;
	int index, display, param;
	bb_prop prop;
	bb_apply apply;
	unsigned channels;
	int nv;                /* values taken from the keys: */
	int vi[MAXV];          /* their indices in the keys' values */
	double scale[MAXV];    /* model value = key value * scale */
	int stepped;           /* every key stepped */
	int deform_curve;      /* one shared progress curve (deform) */
	int stale_value1;      /* value index whose curves start from key 0's
	                          value (the runtime's transform reader) */
	int prepend;           /* a setup key at 0 when the first key is later */
	double setup[MAXV];    /* its values (model units) */
};

static bb_status emit(struct anim *am, const struct keys *k, const struct spec *sp_)
{
	bb__sp *sp = am->sp;
	bb_anim *an = am->an;
	bb_timeline *t;
	int i, v, pre = sp_->prepend && k->n > 0 && bb__sp_f32(k->time[0]) > 0;
	int n = k->n + pre, nv = sp_->nv;
	bb_status s;

	if (k->n == 0)
		return BB_OK;
	if (!bb__grow((void **)&an->timelines, &am->tl_cap, (size_t)an->ntimelines + 1,
	              sizeof *an->timelines))
		return nomem(sp);
	t = &an->timelines[an->ntimelines];
	memset(t, 0, sizeof *t);
	t->times = bb__calloc((size_t)n, sizeof *t->times);
	t->values = bb__calloc((size_t)n * (size_t)nv, sizeof *t->values);
	t->interp = bb__calloc((size_t)n, sizeof *t->interp);
	an->ntimelines++;      /* counted first: freed with the model */
	if (!t->times || !t->values || !t->interp)
		return nomem(sp);
	t->target = sp_->target;
	t->index = sp_->index;
	t->display = sp_->display;
	t->param = sp_->param;
	t->prop = sp_->prop;
	t->apply = sp_->apply;
	t->channels = sp_->channels;
	t->stride = nv;
	t->nkeys = n;
	if (pre) {
		t->interp[0].kind = BB_INTERP_STEP;
		for (v = 0; v < nv; v++)
			t->values[v] = sp_->setup[v];
	}
	for (i = 0; i < k->n; i++) {
		int o = i + pre;
		json_t *c = k->curve[i];
		bb_interp *ip = &t->interp[o];

		t->times[o] = bb__sp_f32(k->time[i]);
		for (v = 0; v < nv; v++)
			t->values[(size_t)o * nv + v] =
				bb__sp_f32(k->val[(size_t)i * k->nv + sp_->vi[v]]) * sp_->scale[v];
		ip->kind = BB_INTERP_LINEAR;
		if (sp_->stepped || i == k->n - 1 ||
		    (c && json_is_string(c))) {
			ip->kind = BB_INTERP_STEP;
			continue;
		}
		if (!c)
			continue;
		if (sp->v3 || sp_->deform_curve) {
			double h[4], t0 = bb__sp_f32(k->time[i]), t1 = bb__sp_f32(k->time[i + 1]);
			int off = add_table(am, 18), q;

			if (off < 0)
				return nomem(sp);
			if (sp->v3) {
				if ((s = curve38(sp, k->map[i], c, h)) != BB_OK)
					return s;
				bezier9(0, 0, h[0], h[1], h[2], h[3], 1, 1, 0, an->tables + off);
				for (q = 0; q < 9; q++)    /* normalised time -> seconds */
					an->tables[off + 2 * q] =
						(float)(t0 + an->tables[off + 2 * q] * (t1 - t0));
			} else {
				if ((s = curve_nums(sp, c, 0, h)) != BB_OK)
					return s;
				bezier9(k->time[i], 0, h[0], h[1], h[2], h[3], k->time[i + 1], 1, 1,
				        an->tables + off);
			}
			ip->kind = BB_INTERP_BEZIER_PERCENT;
			ip->table = off;
			ip->ntable = 18;
			continue;
		}
		{
			int off = add_table(am, 18 * nv), q;

			if (off < 0)
				return nomem(sp);
			for (v = 0; v < nv; v++) {
				double h[4];
				int vi = sp_->vi[v];
				double y1 = k->val[(size_t)(vi == sp_->stale_value1 ? 0 : i) * k->nv + vi];
				double y2 = k->val[(size_t)(i + 1) * k->nv + vi];
				float *pts = an->tables + off + 18 * v;

				if ((s = curve_nums(sp, c, vi, h)) != BB_OK)
					return s;
				bezier9(k->time[i], y1, h[0], h[1], h[2], h[3], k->time[i + 1], y2, 0,
				        pts);
				for (q = 0; q < 9; q++)
					pts[2 * q + 1] = (float)(pts[2 * q + 1] * sp_->scale[v]);
			}
			ip->kind = BB_INTERP_BEZIER;
			ip->table = off;
			ip->ntable = 18 * nv;
		}
	}
	return BB_OK;
}

static void spec_init(struct spec *s, bb_tl_target target, int index, int nv)
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

struct names2 {
	const char *a, *b;     /* member names */
	double def_a, def_b;
	int b_defaults_to_a;
};

static bb_status read_pair(bb__sp *sp, json_t *key, double *v, void *user)
{
	const struct names2 *nm = user;
	bb_status s;

	if ((s = bb__sp_num(sp, key, nm->a, nm->def_a, &v[0])) != BB_OK)
		return s;
	if (!nm->b)
		return BB_OK;
	return bb__sp_num(sp, key, nm->b, nm->b_defaults_to_a ? v[0] : nm->def_b, &v[1]);
}

/* Colours: the members named in user ("color", or "light" and "dark"),
 * r g b [a] then dark r g b. */
struct color_spec {
	const char *light, *dark;
	int alpha;             /* light has alpha */
};

static bb_status read_color(bb__sp *sp, json_t *key, double *v, void *user)
{
	const struct color_spec *cs = user;
	const char *hex;
	bb_rgba c;
	int n = 0;
	bb_status s;

	if ((s = bb__jstr(&sp->j, key, cs->light, 1, &hex)) != BB_OK)
		return s;
	if (!bb__sp_color(hex, &c))
		return bb__jfail(&sp->j, cs->light, "\"%s\" is not a colour", hex);
	v[n++] = c.r;
	v[n++] = c.g;
	v[n++] = c.b;
	if (cs->alpha)
		v[n++] = c.a;
	if (!cs->dark)
		return BB_OK;
	if ((s = bb__jstr(&sp->j, key, cs->dark, 1, &hex)) != BB_OK)
		return s;
	if (!bb__sp_color(hex, &c))
		return bb__jfail(&sp->j, cs->dark, "\"%s\" is not a colour", hex);
	v[n++] = c.r;
	v[n++] = c.g;
	v[n] = c.b;
	return BB_OK;
}

/* ---- slot timelines ---------------------------------------------------- */

static bb_status attachment_timeline(struct anim *am, int slot, json_t *list)
{
	bb__sp *sp = am->sp;
	struct keys k;
	struct spec s;
	size_t i;
	bb_status st;

	if ((st = read_keys(am, list, 1, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < (size_t)k.n; i++) {
		const char *name;
		size_t mark = bb__jpath_index(&sp->j.path, i);

		if ((st = bb__jstr(&sp->j, k.map[i], "name", 0, &name)) != BB_OK)
			goto done;
		k.val[i] = bb__sp_name_index(sp, slot, name);
		bb__jpath_pop(&sp->j.path, mark);
	}
	spec_init(&s, BB_TL_SLOT_DISPLAY, slot, 1);
	s.stepped = 1;
	s.setup[0] = sp->a->slots[slot].setup_display;
	st = emit(am, &k, &s);
done:
	free_keys(&k);
	return st;
}

static bb_status tint_timeline(struct anim *am, int slot, json_t *list,
                               const char *kind)
{
	bb__sp *sp = am->sp;
	const bb_color_xform *c = &sp->a->slots[slot].color;
	double setup[7] = { c->mul.r, c->mul.g, c->mul.b, c->mul.a, c->dark.r,
	                    c->dark.g, c->dark.b };
	struct color_spec cs = { "color", NULL, 1 };
	struct names2 alpha = { "value", NULL, 0, 0, 0 };
	unsigned ch;
	struct keys k;
	struct spec s;
	int nv, i, j;
	bb_status st;

	if (strcmp(kind, "alpha") == 0) {
		ch = BB_CH_A;
		st = read_keys(am, list, 1, read_pair, &alpha, &k);
	} else {
		if (strcmp(kind, "rgb") == 0) {
			ch = BB_CH_R | BB_CH_G | BB_CH_B;
			cs.alpha = 0;
		} else if (strcmp(kind, "rgba") == 0 || strcmp(kind, "color") == 0) {
			ch = BB_CH_R | BB_CH_G | BB_CH_B | BB_CH_A | BB_CH_CLAMP;
		} else {           /* rgba2, twoColor, rgb2 */
			cs.light = "light";
			cs.dark = "dark";
			cs.alpha = strcmp(kind, "rgb2") != 0;
			ch = BB_CH_R | BB_CH_G | BB_CH_B | BB_CH_DARK_R | BB_CH_DARK_G |
			     BB_CH_DARK_B | (cs.alpha ? BB_CH_A | BB_CH_CLAMP : 0);
		}
		for (nv = 0, i = 0; i < 7; i++)
			nv += (ch >> i) & 1;
		st = read_keys(am, list, nv, read_color, &cs, &k);
	}
	if (st == BB_OK) {
		for (nv = 0, i = 0; i < 7; i++)
			nv += (ch >> i) & 1;
		spec_init(&s, BB_TL_SLOT_TINT, slot, nv);
		s.channels = ch;
		for (i = 0, j = 0; i < 7; i++)
			if (ch & (1u << i))
				s.setup[j++] = setup[i];
		st = emit(am, &k, &s);
	}
	free_keys(&k);
	return st;
}

static bb_status slot_timelines(struct anim *am, json_t *slots)
{
	bb__sp *sp = am->sp;
	const char *slot_name, *kind;
	json_t *map, *list;

	if (!json_is_object(slots))
		return bb__jfail(&sp->j, NULL, "expected an object, found %s",
		                 bb__json_type_name(slots));
	json_object_foreach(slots, slot_name, map) {
		size_t mark = bb__jpath_key(&sp->j.path, slot_name);
		int slot = bb__sp_slot(sp, slot_name);
		bb_status s;

		if (slot < 0)
			return bb__jfail(&sp->j, NULL, "unknown slot \"%s\"", slot_name);
		if (!json_is_object(map))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(map));
		json_object_foreach(map, kind, list) {
			size_t m2 = bb__jpath_key(&sp->j.path, kind);

			if (strcmp(kind, "attachment") == 0)
				s = attachment_timeline(am, slot, list);
			else if ((!sp->v3 && (strcmp(kind, "rgba") == 0 || strcmp(kind, "rgb") == 0 ||
			                      strcmp(kind, "alpha") == 0 || strcmp(kind, "rgba2") == 0 ||
			                      strcmp(kind, "rgb2") == 0)) ||
			         (sp->v3 && (strcmp(kind, "color") == 0 ||
			                     strcmp(kind, "twoColor") == 0)))
				s = tint_timeline(am, slot, list, kind);
			else
				return bb__jfail(&sp->j, NULL, "unknown slot timeline");
			if (s != BB_OK)
				return s;
			bb__jpath_pop(&sp->j.path, m2);
		}
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

/* ---- bone timelines ---------------------------------------------------- */

/* 3.8 interpolates rotations the shorter way: unwrap the key values so a
 * linear interpolation does the same. */
static void unwrap_degrees(struct keys *k)
{
	int i;

	for (i = 1; i < k->n; i++) {
		double d = bb__sp_f32(k->val[i]) - bb__sp_f32(k->val[i - 1]);

		d -= (16384 - (double)(long)(16384.499999999996 - d / 360)) * 360;
		k->val[i] = k->val[i - 1] + d;
	}
}

static bb_status bone_timeline(struct anim *am, int bone, const char *kind,
                               json_t *list)
{
	bb__sp *sp = am->sp;
	struct names2 nm = { "value", NULL, 0, 0, 0 };
	bb_prop p1 = BB_PROP_X, p2 = BB_PROP_Y;
	bb_apply how = BB_APPLY_ADD;
	double sc = 1;
	int two = 0, one_prop = -1;
	struct keys k;
	struct spec s;
	bb_status st;

	if (strcmp(kind, "rotate") == 0) {
		p1 = BB_PROP_ROTATION;
		sc = DEG_RAD;
		if (sp->v3)
			nm.a = "angle";
	} else if (strcmp(kind, "translate") == 0 || strcmp(kind, "scale") == 0 ||
	           strcmp(kind, "shear") == 0) {
		two = 1;
		nm.a = "x";
		nm.b = "y";
		if (kind[1] == 'c') {
			p1 = BB_PROP_SCALE_X;
			p2 = BB_PROP_SCALE_Y;
			how = BB_APPLY_MUL;
			nm.def_a = nm.def_b = 1;
		} else if (kind[1] == 'h') {
			p1 = BB_PROP_SHEAR;
			p2 = BB_PROP_SKEW;
			sc = DEG_RAD;
		}
	} else if (!sp->v3 && (strcmp(kind, "translatex") == 0 || strcmp(kind, "translatey") == 0)) {
		one_prop = kind[9] == 'x' ? BB_PROP_X : BB_PROP_Y;
	} else if (!sp->v3 && (strcmp(kind, "scalex") == 0 || strcmp(kind, "scaley") == 0)) {
		one_prop = kind[5] == 'x' ? BB_PROP_SCALE_X : BB_PROP_SCALE_Y;
		how = BB_APPLY_MUL;
		nm.def_a = 1;
	} else if (!sp->v3 && (strcmp(kind, "shearx") == 0 || strcmp(kind, "sheary") == 0)) {
		one_prop = kind[5] == 'x' ? BB_PROP_SHEAR : BB_PROP_SKEW;
		sc = DEG_RAD;
	} else if (!sp->v3 && strcmp(kind, "inherit") == 0) {
		return bb__jfail(&sp->j, NULL, "internal: inherit");
	} else {
		return bb__jfail(&sp->j, NULL, "unknown bone timeline");
	}
	if (one_prop >= 0)
		p1 = (bb_prop)one_prop;
	if ((st = read_keys(am, list, two ? 2 : 1, read_pair, &nm, &k)) != BB_OK)
		goto done;
	if (sp->v3 && p1 == BB_PROP_ROTATION)
		unwrap_degrees(&k);
	spec_init(&s, BB_TL_BONE, bone, 1);
	s.prop = p1;
	s.apply = how;
	s.scale[0] = sc;
	s.setup[0] = how == BB_APPLY_MUL ? 1 : 0;
	if ((st = emit(am, &k, &s)) != BB_OK || !two)
		goto done;
	s.prop = p2;
	s.vi[0] = 1;
	st = emit(am, &k, &s);
done:
	free_keys(&k);
	return st;
}

static const char *const inherit_names[] = {
	"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
	"noScaleOrReflection"
};

bb_inherit bb__sp_inherit(int i);

static bb_status read_inherit(bb__sp *sp, json_t *key, double *v, void *user)
{
	const char *name;
	bb_status s = bb__jstr(&sp->j, key, "inherit", 0, &name);
	int i;

	(void)user;
	v[0] = BB_INHERIT_MATRIX;
	if (s != BB_OK || !name)
		return s;
	for (i = 0; i < 5; i++)
		if (strcasecmp(name, inherit_names[i]) == 0) {
			v[0] = bb__sp_inherit(i);
			return BB_OK;
		}
	return bb__jfail(&sp->j, "inherit", "unknown value \"%s\"", name);
}

static bb_status bone_timelines(struct anim *am, json_t *bones)
{
	bb__sp *sp = am->sp;
	const char *bone_name, *kind;
	json_t *map, *list;

	if (!json_is_object(bones))
		return bb__jfail(&sp->j, NULL, "expected an object, found %s",
		                 bb__json_type_name(bones));
	json_object_foreach(bones, bone_name, map) {
		size_t mark = bb__jpath_key(&sp->j.path, bone_name);
		int bone = bb__sp_bone(sp, bone_name);
		bb_status s;

		if (bone < 0)
			return bb__jfail(&sp->j, NULL, "unknown bone \"%s\"", bone_name);
		if (!json_is_object(map))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(map));
		json_object_foreach(map, kind, list) {
			size_t m2 = bb__jpath_key(&sp->j.path, kind);

			if (!sp->v3 && strcmp(kind, "inherit") == 0) {
				struct keys k;
				struct spec sc;

				s = read_keys(am, list, 1, read_inherit, NULL, &k);
				if (s == BB_OK) {
					spec_init(&sc, BB_TL_BONE_INHERIT, bone, 1);
					sc.stepped = 1;
					sc.setup[0] = sp->a->bones[bone].inherit;
					s = emit(am, &k, &sc);
				}
				free_keys(&k);
			} else {
				s = bone_timeline(am, bone, kind, list);
			}
			if (s != BB_OK)
				return s;
			bb__jpath_pop(&sp->j.path, m2);
		}
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

/* ---- constraint timelines ---------------------------------------------- */

/* Index of the model constraint of a kind by name, -1. */
static int find_con(const bb__sp *sp, bb_con_kind kind, const char *name)
{
	int i;

	for (i = 0; i < sp->a->ncons; i++)
		if (sp->a->cons[i].kind == kind && strcmp(sp->a->cons[i].name, name) == 0)
			return i;
	return -1;
}

static bb_status read_ik_key(bb__sp *sp, json_t *key, double *v, void *user)
{
	int b, c, st;
	bb_status s;

	(void)user;
	if ((s = bb__sp_num(sp, key, "mix", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "softness", 0, &v[1])) != BB_OK ||
	    (s = bb__jbool(&sp->j, key, "bendPositive", 1, &b)) != BB_OK ||
	    (s = bb__jbool(&sp->j, key, "compress", 0, &c)) != BB_OK ||
	    (s = bb__jbool(&sp->j, key, "stretch", 0, &st)) != BB_OK)
		return s;
	v[2] = b ? 1 : -1;
	v[3] = c;
	v[4] = st;
	return BB_OK;
}

static bb_status read_tc_key(bb__sp *sp, json_t *key, double *v, void *user)
{
	bb_status s;

	(void)user;
	if (sp->v3) {
		if ((s = bb__sp_num(sp, key, "rotateMix", 1, &v[0])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "translateMix", 1, &v[1])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "scaleMix", 1, &v[3])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "shearMix", 1, &v[5])) != BB_OK)
			return s;
		v[2] = v[1];
		v[4] = v[3];
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, key, "mixRotate", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixX", 1, &v[1])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixY", v[1], &v[2])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixScaleX", 1, &v[3])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixScaleY", v[3], &v[4])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixShearY", 1, &v[5])) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status read_path_mix(bb__sp *sp, json_t *key, double *v, void *user)
{
	bb_status s;

	(void)user;
	if (sp->v3) {
		if ((s = bb__sp_num(sp, key, "rotateMix", 1, &v[0])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "translateMix", 1, &v[1])) != BB_OK)
			return s;
		v[2] = v[1];
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, key, "mixRotate", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixX", 1, &v[1])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixY", v[1], &v[2])) != BB_OK)
		return s;
	return BB_OK;
}

/* A constraint timeline over params first .. first + nv - 1 from key
 * values vi0 ..; setup values from the constraint. */
static bb_status con_emit(struct anim *am, const struct keys *k, int con, int first,
                          int vi0, int nv, int stepped, int stale)
{
	struct spec s;
	int v;

	spec_init(&s, BB_TL_CONSTRAINT, con, nv);
	s.param = first;
	s.stepped = stepped;
	s.stale_value1 = stale;
	for (v = 0; v < nv; v++) {
		s.vi[v] = vi0 + v;
		s.setup[v] = am->sp->a->cons[con].params[first + v];
	}
	return emit(am, k, &s);
}

static bb_status ik_timelines(struct anim *am, json_t *map)
{
	bb__sp *sp = am->sp;
	const char *name;
	json_t *list;

	json_object_foreach(map, name, list) {
		size_t mark = bb__jpath_key(&sp->j.path, name);
		int c = find_con(sp, BB_CON_IK, name);
		struct keys k;
		bb_status s;

		if (c < 0)
			return bb__jfail(&sp->j, NULL, "unknown IK constraint \"%s\"", name);
		s = read_keys(am, list, 5, read_ik_key, NULL, &k);
		if (s == BB_OK)
			s = con_emit(am, &k, c, BB_CP_IK_MIX, 0, 2, 0, -1);
		if (s == BB_OK)
			s = con_emit(am, &k, c, BB_CP_IK_BEND, 2, 3, 1, -1);
		free_keys(&k);
		if (s != BB_OK)
			return s;
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

static bb_status tc_timelines(struct anim *am, json_t *map)
{
	bb__sp *sp = am->sp;
	const char *name;
	json_t *list;

	json_object_foreach(map, name, list) {
		size_t mark = bb__jpath_key(&sp->j.path, name);
		int c = find_con(sp, BB_CON_TRANSFORM, name);
		struct keys k;
		bb_status s;

		if (c < 0)
			return bb__jfail(&sp->j, NULL, "unknown transform constraint \"%s\"", name);
		s = read_keys(am, list, 6, read_tc_key, NULL, &k);
		/* the runtime's reader never advances mixShearY's start value */
		if (s == BB_OK)
			s = con_emit(am, &k, c, BB_CP_TC_ROTATE, 0, 6, 0, 5);
		free_keys(&k);
		if (s != BB_OK)
			return s;
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

static bb_status path_timelines(struct anim *am, json_t *map)
{
	bb__sp *sp = am->sp;
	const char *name, *kind;
	json_t *tls, *list;

	json_object_foreach(map, name, tls) {
		size_t mark = bb__jpath_key(&sp->j.path, name);
		int c = find_con(sp, BB_CON_PATH, name);

		if (c < 0)
			return bb__jfail(&sp->j, NULL, "unknown path constraint \"%s\"", name);
		if (!json_is_object(tls))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(tls));
		json_object_foreach(tls, kind, list) {
			size_t m2 = bb__jpath_key(&sp->j.path, kind);
			struct names2 nm = { "value", NULL, 0, 0, 0 };
			struct keys k;
			bb_status s;

			if (strcmp(kind, "position") == 0 || strcmp(kind, "spacing") == 0) {
				if (sp->v3)
					nm.a = kind;
				s = read_keys(am, list, 1, read_pair, &nm, &k);
				if (s == BB_OK)
					s = con_emit(am, &k, c, kind[0] == 'p' ? BB_CP_PATH_POSITION
					                                       : BB_CP_PATH_SPACING,
					             0, 1, 0, -1);
			} else if (strcmp(kind, "mix") == 0) {
				s = read_keys(am, list, 3, read_path_mix, NULL, &k);
				if (s == BB_OK)
					s = con_emit(am, &k, c, BB_CP_PATH_ROTATE, 0, 3, 0, -1);
			} else {
				return bb__jfail(&sp->j, NULL, "unknown path constraint timeline");
			}
			free_keys(&k);
			if (s != BB_OK)
				return s;
			bb__jpath_pop(&sp->j.path, m2);
		}
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

/* Whether a physics constraint takes a global ("" named) timeline. */
static int physics_global(const bb__sp *sp, int con, const char *kind)
{
	json_t *list = json_object_get(sp->root, "physics"), *jc;
	char key[64];
	size_t i;

	snprintf(key, sizeof key, "%sGlobal", kind);
	json_array_foreach(list, i, jc)
		if (json_is_string(json_object_get(jc, "name")) &&
		    strcmp(json_string_value(json_object_get(jc, "name")),
		           sp->a->cons[con].name) == 0)
			return json_is_true(json_object_get(jc, key));
	return 0;
}

static bb_status physics_timelines(struct anim *am, json_t *map)
{
	static const char *const kinds[] = {
		"inertia", "strength", "damping", "mass", "wind", "gravity", "mix"
	};
	bb__sp *sp = am->sp;
	const char *name, *kind;
	json_t *tls, *list;

	json_object_foreach(map, name, tls) {
		size_t mark = bb__jpath_key(&sp->j.path, name);
		int c = name[0] ? find_con(sp, BB_CON_PHYSICS, name) : -1, i, p;

		if (name[0] && c < 0)
			return bb__jfail(&sp->j, NULL, "unknown physics constraint \"%s\"", name);
		if (!json_is_object(tls))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(tls));
		json_object_foreach(tls, kind, list) {
			size_t m2 = bb__jpath_key(&sp->j.path, kind);
			struct names2 nm = { "value", NULL, 0, 0, 0 };
			struct keys k;
			bb_status s = BB_OK;

			for (p = 0; p < 7 && strcmp(kinds[p], kind) != 0; p++)
				;
			if (p == 7 && strcmp(kind, "reset") != 0) {
				bb__jpath_pop(&sp->j.path, m2);
				continue;      /* the runtime skips unknown ones */
			}
			s = read_keys(am, list, 1, p == 7 ? NULL : read_pair, &nm, &k);
			for (i = 0; s == BB_OK && i < sp->a->ncons; i++) {
				struct spec sc;

				if (sp->a->cons[i].kind != BB_CON_PHYSICS || (c >= 0 && i != c) ||
				    (c < 0 && p < 7 && !physics_global(sp, i, kind)))
					continue;
				if (p == 7) {
					spec_init(&sc, BB_TL_PHYSICS_RESET, c, 1);
					sc.stepped = 1;
					sc.prepend = 0;
					s = emit(am, &k, &sc);
					break;     /* one timeline (c, or -1: all) */
				}
				s = con_emit(am, &k, i, p, 0, 1, 0, -1);
			}
			free_keys(&k);
			if (s != BB_OK)
				return s;
			bb__jpath_pop(&sp->j.path, m2);
		}
		bb__jpath_pop(&sp->j.path, mark);
	}
	return BB_OK;
}

/* ---- deform and sequence ----------------------------------------------- */

/* Deform keys as offsets from the setup vertices, rounded as the runtime
 * stores its absolute (unweighted) or offset (weighted) floats. */
static bb_status deform_timeline(struct anim *am, int slot, int disp, json_t *list)
{
	bb__sp *sp = am->sp;
	const bb_display *d = &sp->a->displays[disp];
	int weighted = d->u.mesh.wcount != NULL, i, j;
	int len = 2 * (weighted ? d->u.mesh.ninfluences : d->u.mesh.nverts);
	struct keys k;
	bb_status st;

	if (len > 4 * 1000000)
		return bb__jfail(&sp->j, NULL, "attachment too large");
	if ((st = read_keys(am, list, len, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j.path, (size_t)i);
		double off, *v = k.val + (size_t)i * len;
		json_t *jv;

		if ((st = bb__jnum_range(&sp->j, k.map[i], "offset", 0, 0, len, &off)) != BB_OK ||
		    (st = bb__jarray(&sp->j, k.map[i], "vertices", 0, &jv)) != BB_OK)
			goto done;
		if (off != floor(off) || (jv && json_array_size(jv) > (size_t)(len - (int)off))) {
			st = bb__jfail(&sp->j, "vertices", "%zu values from offset %g reach "
			               "past the attachment's %d", jv ? json_array_size(jv) : 0,
			               off, len);
			goto done;
		}
		for (j = 0; jv && j < (int)json_array_size(jv); j++) {
			json_t *x = json_array_get(jv, (size_t)j);

			if (!json_is_number(x)) {
				st = bb__sp_fail_at(sp, "vertices", (size_t)j,
				                    "expected a number, found %s",
				                    bb__json_type_name(x));
				goto done;
			}
			v[(int)off + j] = bb__sp_f32(json_number_value(x));
		}
		if (!weighted)        /* the runtime adds the setup vertex in float */
			for (j = 0; j < len; j++) {
				double setup = j % 2 ? d->u.mesh.verts[j / 2].y : d->u.mesh.verts[j / 2].x;

				v[j] = bb__sp_f32(v[j] + setup) - setup;
			}
		bb__jpath_pop(&sp->j.path, mark);
	}
	st = BB_OK;
	{
		/* emit() maps at most MAXV values; deform keys are long, so the
		 * timeline is built here by the same rules */
		bb_anim *an = am->an;
		bb_timeline *t;
		int pre = bb__sp_f32(k.time[0]) > 0, n = k.n + pre;

		if (!bb__grow((void **)&an->timelines, &am->tl_cap, (size_t)an->ntimelines + 1,
		              sizeof *an->timelines)) {
			st = nomem(sp);
			goto done;
		}
		t = &an->timelines[an->ntimelines];
		memset(t, 0, sizeof *t);
		t->times = bb__calloc((size_t)n, sizeof *t->times);
		t->values = bb__calloc((size_t)n * (size_t)len, sizeof *t->values);
		t->interp = bb__calloc((size_t)n, sizeof *t->interp);
		an->ntimelines++;
		if (!t->times || !t->values || !t->interp) {
			st = nomem(sp);
			goto done;
		}
		t->target = BB_TL_DEFORM;
		t->index = slot;
		t->display = disp;
		t->stride = len;
		t->nkeys = n;
		for (i = 0; i < k.n; i++) {
			int o = i + pre;
			json_t *c = k.curve[i];

			t->times[o] = bb__sp_f32(k.time[i]);
			memcpy(t->values + (size_t)o * len, k.val + (size_t)i * len,
			       (size_t)len * sizeof *t->values);
			t->interp[o].kind = i == k.n - 1 || (c && json_is_string(c))
			                    ? BB_INTERP_STEP : BB_INTERP_LINEAR;
			if (c && !json_is_string(c) && i < k.n - 1) {
				double h[4], t0 = bb__sp_f32(k.time[i]), t1 = bb__sp_f32(k.time[i + 1]);
				int off = add_table(am, 18), q;

				if (off < 0) {
					st = nomem(sp);
					goto done;
				}
				if (sp->v3) {
					if ((st = curve38(sp, k.map[i], c, h)) != BB_OK)
						goto done;
					bezier9(0, 0, h[0], h[1], h[2], h[3], 1, 1, 0, an->tables + off);
					for (q = 0; q < 9; q++)
						an->tables[off + 2 * q] =
							(float)(t0 + an->tables[off + 2 * q] * (t1 - t0));
				} else {
					if ((st = curve_nums(sp, c, 0, h)) != BB_OK)
						goto done;
					bezier9(k.time[i], 0, h[0], h[1], h[2], h[3], k.time[i + 1], 1, 1,
					        an->tables + off);
				}
				t->interp[o].kind = BB_INTERP_BEZIER_PERCENT;
				t->interp[o].table = off;
				t->interp[o].ntable = 18;
			}
		}
		if (pre)
			t->interp[0].kind = BB_INTERP_STEP;   /* zero offsets */
	}
done:
	free_keys(&k);
	return st;
}

static const char *const seq_modes[] = {
	"hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse"
};

static bb_status read_seq_key(bb__sp *sp, json_t *key, double *v, void *user)
{
	double *last_delay = user;
	const char *mode;
	bb_status s;
	int i;

	if ((s = bb__jstr(&sp->j, key, "mode", 0, &mode)) != BB_OK ||
	    (s = bb__jnum_range(&sp->j, key, "index", 0, -1e6, 1e6, &v[1])) != BB_OK ||
	    (s = bb__jnum_range(&sp->j, key, "delay", *last_delay, -1e6, 1e6, &v[2])) != BB_OK)
		return s;
	v[0] = 0;
	for (i = 0; mode && i < 7 && strcmp(mode, seq_modes[i]) != 0; i++)
		;
	if (mode && i == 7)
		return bb__jfail(&sp->j, "mode", "unknown sequence mode \"%s\"", mode);
	v[0] = mode ? i : 0;
	v[1] = floor(v[1]);
	*last_delay = v[2];
	return BB_OK;
}

static bb_status sequence_timeline(struct anim *am, int slot, int disp, json_t *list)
{
	double last_delay = 0;
	struct keys k;
	struct spec s;
	bb_status st;

	if ((st = read_keys(am, list, 3, read_seq_key, &last_delay, &k)) == BB_OK) {
		spec_init(&s, BB_TL_SEQUENCE, slot, 3);
		s.display = disp;
		s.stepped = 1;
		s.prepend = 0;     /* before the first key: the setup frame */
		st = emit(am, &k, &s);
	}
	free_keys(&k);
	return st;
}

/* attachments (4.x) {skin: {slot: {attachment: {deform|sequence: keys}}}};
 * deform (3.8) {skin: {slot: {attachment: keys}}}. */
static bb_status attachment_timelines(struct anim *am, json_t *map, int v3)
{
	bb__sp *sp = am->sp;
	const char *skin_name, *slot_name, *att_name, *kind;
	json_t *skin_map, *slot_map, *att_map, *list;

	if (!json_is_object(map))
		return bb__jfail(&sp->j, NULL, "expected an object, found %s",
		                 bb__json_type_name(map));
	json_object_foreach(map, skin_name, skin_map) {
		size_t m1 = bb__jpath_key(&sp->j.path, skin_name);
		int skin;

		for (skin = 0; skin < sp->a->nskins &&
		     strcmp(sp->a->skins[skin].name, skin_name) != 0; skin++)
			;
		if (skin == sp->a->nskins)
			return bb__jfail(&sp->j, NULL, "unknown skin \"%s\"", skin_name);
		if (!json_is_object(skin_map))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(skin_map));
		json_object_foreach(skin_map, slot_name, slot_map) {
			size_t m2 = bb__jpath_key(&sp->j.path, slot_name);
			int slot = bb__sp_slot(sp, slot_name);

			if (slot < 0)
				return bb__jfail(&sp->j, NULL, "unknown slot \"%s\"", slot_name);
			if (!json_is_object(slot_map))
				return bb__jfail(&sp->j, NULL, "expected an object, found %s",
				                 bb__json_type_name(slot_map));
			json_object_foreach(slot_map, att_name, att_map) {
				size_t m3 = bb__jpath_key(&sp->j.path, att_name);
				int j = bb__sp_name_index(sp, slot, att_name), disp;
				const bb_display *d;
				bb_status s = BB_OK;

				if (j < 0 || sp->a->displays[sp->a->skins[skin].first[slot] + j].inherited)
					return bb__jfail(&sp->j, NULL, "skin \"%s\" has no attachment "
					                 "\"%s\" in slot \"%s\"", skin_name, att_name,
					                 slot_name);
				disp = sp->a->skins[skin].first[slot] + j;
				d = &sp->a->displays[disp];
				if (v3) {
					if (d->kind == BB_DISPLAY_MESH || d->kind == BB_DISPLAY_CLIP ||
					    d->kind == BB_DISPLAY_PATH)
						s = deform_timeline(am, slot, disp, att_map);
				} else {
					if (!json_is_object(att_map))
						return bb__jfail(&sp->j, NULL, "expected an object, found %s",
						                 bb__json_type_name(att_map));
					json_object_foreach(att_map, kind, list) {
						size_t m4 = bb__jpath_key(&sp->j.path, kind);

						if (strcmp(kind, "deform") == 0) {
							if (d->kind == BB_DISPLAY_MESH || d->kind == BB_DISPLAY_CLIP ||
							    d->kind == BB_DISPLAY_PATH)
								s = deform_timeline(am, slot, disp, list);
						} else if (strcmp(kind, "sequence") == 0) {
							if (d->seq_count > 0)
								s = sequence_timeline(am, slot, disp, list);
						} else {
							return bb__jfail(&sp->j, NULL, "unknown attachment timeline");
						}
						if (s != BB_OK)
							return s;
						bb__jpath_pop(&sp->j.path, m4);
					}
				}
				if (s != BB_OK)
					return s;
				bb__jpath_pop(&sp->j.path, m3);
			}
			bb__jpath_pop(&sp->j.path, m2);
		}
		bb__jpath_pop(&sp->j.path, m1);
	}
	return BB_OK;
}

/* ---- draw order and events --------------------------------------------- */

static bb_status draw_order(struct anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	int ns = sp->a->nslots, i, j, *order = NULL, *unchanged = NULL;
	struct keys k;
	bb_status st;

	if ((st = read_keys(am, list, ns, NULL, NULL, &k)) != BB_OK || ns == 0)
		goto done;
	order = bb__calloc((size_t)ns + 1, sizeof *order);
	unchanged = bb__calloc((size_t)ns + 1, sizeof *unchanged);
	if (!order || !unchanged) {
		st = nomem(sp);
		goto done;
	}
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j.path, (size_t)i), o;
		json_t *offs, *e;
		int orig = 0, un = 0;

		if ((st = bb__jarray(&sp->j, k.map[i], "offsets", 0, &offs)) != BB_OK)
			goto done;
		for (j = 0; j < ns; j++)
			order[j] = offs ? -1 : j;
		bb__jpath_key(&sp->j.path, "offsets");
		json_array_foreach(offs, o, e) {
			const char *slot_name;
			double off;
			int slot, at;
			size_t m3 = bb__jpath_index(&sp->j.path, o);

			if ((st = bb__jexpect_object(&sp->j, e)) != BB_OK ||
			    (st = bb__jstr(&sp->j, e, "slot", 1, &slot_name)) != BB_OK ||
			    (st = bb__jnum_range(&sp->j, e, "offset", 0, -ns, ns, &off)) != BB_OK)
				goto done;
			if ((slot = bb__sp_slot(sp, slot_name)) < 0 || slot < orig) {
				st = bb__jfail(&sp->j, "slot", slot < 0 ? "unknown slot \"%s\"" :
				               "\"%s\" is out of slot order", slot_name);
				goto done;
			}
			while (orig != slot)
				unchanged[un++] = orig++;
			at = orig + (int)off;
			if (at < 0 || at >= ns || order[at] != -1) {
				st = bb__jfail(&sp->j, "offset", "moves \"%s\" to %d, outside the "
				               "draw order or onto another slot", slot_name, at);
				goto done;
			}
			order[at] = orig++;
			bb__jpath_pop(&sp->j.path, m3);
		}
		while (offs && orig < ns)
			unchanged[un++] = orig++;
		for (j = ns - 1; offs && j >= 0; j--)
			if (order[j] == -1) {
				if (un <= 0) {
					st = bb__jfail(&sp->j, NULL, "the offsets leave a gap");
					goto done;
				}
				order[j] = unchanged[--un];
			}
		for (j = 0; j < ns; j++)
			k.val[(size_t)i * ns + j] = order[j];
		bb__jpath_pop(&sp->j.path, mark);
	}
	{	/* like deform: too long for emit's value map, built directly */
		bb_anim *an = am->an;
		bb_timeline *t;
		int pre = bb__sp_f32(k.time[0]) > 0, n = k.n + pre;

		if (!bb__grow((void **)&an->timelines, &am->tl_cap, (size_t)an->ntimelines + 1,
		              sizeof *an->timelines)) {
			st = nomem(sp);
			goto done;
		}
		t = &an->timelines[an->ntimelines];
		memset(t, 0, sizeof *t);
		t->times = bb__calloc((size_t)n, sizeof *t->times);
		t->values = bb__calloc((size_t)n * (size_t)(ns ? ns : 1), sizeof *t->values);
		t->interp = bb__calloc((size_t)n, sizeof *t->interp);
		an->ntimelines++;
		if (!t->times || !t->values || !t->interp) {
			st = nomem(sp);
			goto done;
		}
		t->target = BB_TL_DRAW_ORDER;
		t->stride = ns;
		t->nkeys = n;
		for (j = 0; pre && j < ns; j++)
			t->values[j] = j;
		for (i = 0; i < k.n; i++) {
			t->times[i + pre] = bb__sp_f32(k.time[i]);
			memcpy(t->values + (size_t)(i + pre) * ns, k.val + (size_t)i * ns,
			       (size_t)ns * sizeof *t->values);
		}
	}
done:
	free(order);
	free(unchanged);
	free_keys(&k);
	return st;
}

static int event_cmp(const void *x, const void *y)
{
	const bb_event *a = x, *b = y;

	return a->time < b->time ? -1 : a->time > b->time;
}

/* An event's payload as text: the fields that are set, key's over the
 * event's defaults. */
static char *event_data(json_t *key, json_t *def)
{
	static const char *const fields[] = { "int", "float", "string", "audio" };
	char buf[512];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 4; i++) {
		json_t *v = json_object_get(key, fields[i]);

		if (!v && def)
			v = json_object_get(def, fields[i]);
		if (!v || (json_is_string(v) && !json_string_value(v)[0]) ||
		    (json_is_number(v) && json_number_value(v) == 0))
			continue;
		if (json_is_string(v))
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s=%.200s", n ? " " : "",
			                      fields[i], json_string_value(v));
		else if (json_is_number(v))
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s=%g", n ? " " : "",
			                      fields[i], json_number_value(v));
		if (n >= sizeof buf)
			n = sizeof buf - 1;
	}
	return n ? bb__strdup(buf) : NULL;
}

static bb_status events(struct anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	json_t *defs = json_object_get(sp->root, "events");
	bb_anim *an = am->an;
	struct keys k;
	int i;
	bb_status st;

	if ((st = read_keys(am, list, 0, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j.path, (size_t)i);
		const char *name;
		bb_event *e;

		if ((st = bb__jstr(&sp->j, k.map[i], "name", 1, &name)) != BB_OK)
			goto done;
		if (!json_is_object(defs) || !json_object_get(defs, name)) {
			st = bb__jfail(&sp->j, "name", "unknown event \"%s\"", name);
			goto done;
		}
		if (!bb__grow((void **)&an->events, &am->ev_cap, (size_t)an->nevents + 1,
		              sizeof *an->events)) {
			st = nomem(sp);
			goto done;
		}
		e = &an->events[an->nevents++];
		memset(e, 0, sizeof *e);
		e->time = bb__sp_f32(k.time[i]);
		e->kind = BB_EVENT_EVENT;
		e->name = bb__strdup(name);
		e->data = event_data(k.map[i], json_object_get(defs, name));
		if (!e->name) {
			st = nomem(sp);
			goto done;
		}
		bb__jpath_pop(&sp->j.path, mark);
	}
	qsort(an->events, (size_t)an->nevents, sizeof *an->events, event_cmp);
done:
	free_keys(&k);
	return st;
}

/* ---- animations -------------------------------------------------------- */

static bb_status read_animation(struct anim *am, json_t *map)
{
	bb__sp *sp = am->sp;
	static const char *const known4[] = {
		"slots", "bones", "ik", "transform", "path", "physics", "attachments",
		"drawOrder", "events"
	};
	static const char *const known3[] = {
		"slots", "bones", "ik", "transform", "path", "deform", "drawOrder",
		"draworder", "events"
	};
	const char *const *known = sp->v3 ? known3 : known4;
	const char *key;
	json_t *v;
	int i;
	bb_status s;

	if (!json_is_object(map))
		return bb__jfail(&sp->j, NULL, "expected an object, found %s",
		                 bb__json_type_name(map));
	/* in the runtime's order: slots, bones, constraints, attachments,
	 * draw order, events */
	for (i = 0; i < 9; i++) {
		size_t mark;

		if (!(v = json_object_get(map, known[i])))
			continue;
		mark = bb__jpath_key(&sp->j.path, known[i]);
		if (i >= 2 && i <= 5 && !json_is_object(v) && !(sp->v3 && i == 5))
			return bb__jfail(&sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(v));
		switch (i) {
		case 0: s = slot_timelines(am, v); break;
		case 1: s = bone_timelines(am, v); break;
		case 2: s = ik_timelines(am, v); break;
		case 3: s = tc_timelines(am, v); break;
		case 4: s = path_timelines(am, v); break;
		case 5: s = sp->v3 ? attachment_timelines(am, v, 1) : physics_timelines(am, v);
			break;
		case 6: s = sp->v3 ? draw_order(am, v) : attachment_timelines(am, v, 0); break;
		case 7: s = sp->v3 ? draw_order(am, v) : draw_order(am, v); break;
		default: s = events(am, v); break;
		}
		if (s != BB_OK)
			return s;
		bb__jpath_pop(&sp->j.path, mark);
	}
	json_object_foreach(map, key, v) {
		for (i = 0; i < 9 && strcmp(key, known[i]) != 0; i++)
			;
		if (i == 9)
			return bb__jfail(&sp->j, key, "unknown animation part");
	}
	return BB_OK;
}

bb_status bb__sp_read_animations(bb__sp *sp)
{
	json_t *anims, *map;
	const char *name;
	bb_armature *a = sp->a;
	size_t n, i = 0;
	bb_status s;

	if ((s = bb__jobject(&sp->j, sp->root, "animations", 0, &anims)) != BB_OK)
		return s;
	n = anims ? json_object_size(anims) : 0;
	if (n > 10000)
		return bb_error_set(sp->j.err, BB_ERR_LIMIT, sp->j.file, "animations",
		                    "%zu animations exceed the limit of 10000", n);
	if (!(a->anims = bb__calloc(n ? n : 1, sizeof *a->anims)))
		return nomem(sp);
	a->default_anim = n ? 0 : -1;
	bb__jpath_key(&sp->j.path, "animations");
	json_object_foreach(anims, name, map) {
		struct anim am;
		size_t mark = bb__jpath_key(&sp->j.path, name);
		bb_anim *an = &a->anims[i++];

		a->nanims = (int)i;
		memset(&am, 0, sizeof am);
		am.sp = sp;
		am.an = an;
		an->loop = 1;
		an->exact_keys = 1;
		if (!(an->name = bb__strdup(name)))
			return nomem(sp);
		if ((s = read_animation(&am, map)) != BB_OK)
			return s;
		an->duration = am.duration;
		bb__jpath_pop(&sp->j.path, mark);
	}
	bb__jpath_pop(&sp->j.path, 0);
	return BB_OK;
}
