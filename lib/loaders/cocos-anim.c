/* Cocos movements -> animations (spec cocos.md 5, 6, 8): the 60 fps clock
 * with dr/drTW/sc mapped to seconds, keys at fi * D / (dr - 1), per-bone
 * speed (XML sc) and delay (dl) as timeline scale/offset, the key search's
 * special segments (display -1 jumps and holds, tweenFrame false, twE
 * 10000) and tweenRotate turned into plain keys, the tween table as
 * BB_INTERP_TWEEN, additive deltas from data version 0.3 on (scale + v - 1),
 * colour multipliers, display index (-1 hides; bones the movement does not
 * animate are hidden), z order as a draw-order timeline, events. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/cocos.h"

enum { NCH = 10, CH_ROT = 2, CH_COLOR = 6, MAX_REPEAT = 64,
       MAX_ORDER_TIMES = 100000 };

struct ca {
	struct cc_doc *d;
	const struct cc_arm *arm;
	const struct cc_mov *mv;
	bb_armature *a;
	bb_anim *an;
	double dur;
	int additive;              /* data version >= 0.3 */
	/* the keys being built for one bone */
	int n;
	size_t cap;
	double *t, *v;             /* n times, n * NCH values */
	bb_interp *ip;
};

struct bone_clock {
	double scale, offset, dur;
	int loop;
};

static double bone_time(const struct bone_clock *k, double t)
{
	double bt = t / k->scale + k->offset * k->dur;

	if (k->dur <= 0)
		return 0;
	return k->loop ? fmod(fmod(bt, k->dur) + k->dur, k->dur)
	               : fmin(fmax(bt, 0), k->dur);
}

static void clock_of(const struct ca *c, const struct cc_movbone *mb,
                     struct bone_clock *k)
{
	k->scale = mb->scale > 0 ? mb->scale : 1;
	k->offset = bb__cc_delay_offset(mb->dl, c->mv->loop);
	k->dur = c->dur;
	k->loop = c->mv->loop;
}

static double key_time(const struct ca *c, const struct cc_frame *f)
{
	return bb__cc_key_time(f->fi, c->mv->dr, c->dur);
}

/* Keys of a bone that the runtime can reach: only the first when dr <= 1. */
static int usable_keys(const struct ca *c, const struct cc_movbone *mb)
{
	return c->mv->dr <= 1 && mb->nframes > 1 ? 1 : mb->nframes;
}

/* ---- key values --------------------------------------------------------- */

static void frame_values(const struct ca *c, const struct cc_frame *f, double *v)
{
	bb_xform x = bb__cc_xform(&f->t);
	int i;

	v[0] = x.x;
	v[1] = x.y;
	v[2] = x.rotation;
	v[3] = x.skew;
	v[4] = c->additive ? x.sx - 1 : x.sx;
	v[5] = c->additive ? x.sy - 1 : x.sy;
	for (i = 0; i < 4; i++)
		v[CH_COLOR + i] = f->color[i] / 255;
}

static bb_status push_key(struct ca *c, double t, const double *v, bb_interp ip)
{
	if ((size_t)c->n + 1 > c->cap) {
		size_t cap = c->cap * 2 + 16;
		double *nt = bb__realloc_array(c->t, cap, sizeof *nt);
		double *nv = nt ? bb__realloc_array(c->v, cap, NCH * sizeof *nv) : NULL;
		bb_interp *ni;

		if (nt)
			c->t = nt;
		if (nv)
			c->v = nv;
		ni = nv ? bb__realloc_array(c->ip, cap, sizeof *ni) : NULL;
		if (!ni)
			return bb__build_nomem(c->d->b);
		c->ip = ni;
		c->cap = cap;
	}
	c->t[c->n] = t;
	memcpy(c->v + (size_t)c->n * NCH, v, NCH * sizeof *v);
	c->ip[c->n] = ip;
	c->n++;
	return BB_OK;
}

/* Easing of the segment from key `from` (spec 6.3): the key's twE, else
 * the movement's; Linear and 10000 ease linearly. */
static bb_status segment_interp(struct ca *c, const struct cc_frame *from,
                                bb_interp *ip)
{
	int type = from->twe != CC_TWE_LINEAR ? from->twe : c->mv->twe;
	float *tab;
	bb_status s;

	memset(ip, 0, sizeof *ip);
	ip->kind = BB_INTERP_LINEAR;
	if (type == CC_TWE_LINEAR || type == CC_TWE_NONE)
		return BB_OK;
	ip->kind = BB_INTERP_TWEEN;
	ip->param = (float)type;
	if (from->ntwep == 0)
		return BB_OK;
	if ((s = bb__build_table(c->d->b, c->an, from->ntwep, &ip->table, &tab)) != BB_OK)
		return s;
	memcpy(tab, from->twep, (size_t)from->ntwep * sizeof *tab);
	ip->ntable = from->ntwep;
	return BB_OK;
}

/* The model keys of one bone: per segment its start value and, where the
 * segment ends on another value than the next key's (tweenRotate), an end
 * key at the same time just before it (spec 6.1, 6.2). */
static bb_status segment_keys(struct ca *c, const struct cc_movbone *mb, int n)
{
	static const bb_interp step = { BB_INTERP_STEP, 0, 0, 0 };
	double v0[NCH], v1[NCH];
	bb_interp ip;
	int k;
	bb_status s;

	c->n = 0;
	for (k = 0; k < n; k++) {
		const struct cc_frame *from = &mb->frames[k], *to = &mb->frames[k + 1];

		frame_values(c, from, v0);
		if (k == n - 1)
			return push_key(c, key_time(c, from), v0, step);
		frame_values(c, to, v1);
		if (from->di < 0 && to->di >= 0) {          /* jump to `to` */
			s = push_key(c, key_time(c, from), v1, step);
		} else if ((to->di < 0 && from->di >= 0) || !from->tween ||
		           from->twe == CC_TWE_NONE) {   /* hold `from` */
			s = push_key(c, key_time(c, from), v0, step);
		} else {
			if ((s = segment_interp(c, from, &ip)) != BB_OK ||
			    (s = push_key(c, key_time(c, from), v0, ip)) != BB_OK)
				return s;
			if (to->twr != 0) {
				v1[CH_ROT] += 2 * M_PI * to->twr;
				s = push_key(c, key_time(c, to), v1, step);
			}
		}
		if (s != BB_OK)
			return s;
	}
	return BB_OK;
}

/* ---- timelines ------------------------------------------------------------ */

static bb_status new_timeline(struct ca *c, bb_tl_target target, int index,
                              int stride, int nkeys, bb_timeline **out)
{
	return bb__build_timeline(c->d->b, c->an, target, index, BB_PROP_X,
	                          BB_APPLY_ADD, stride, nkeys, out);
}

static void set_clock(const struct ca *c, const struct cc_movbone *mb,
                      bb_timeline *t)
{
	struct bone_clock k;

	clock_of(c, mb, &k);
	t->time_scale = k.scale != 1 ? k.scale : 0;
	t->time_offset = k.offset;
}

/* Channel ch of the built keys as a bone property (skipped when it never
 * leaves the setup value). */
static bb_status bone_channel(struct ca *c, const struct cc_movbone *mb,
                              int bone, int ch)
{
	bb_timeline *t;
	int k, used = !c->additive;
	bb_status s;

	for (k = 0; k < c->n && !used; k++)
		used = c->v[(size_t)k * NCH + ch] != 0;
	if (!used)
		return BB_OK;
	if ((s = new_timeline(c, BB_TL_BONE, bone, 1, c->n, &t)) != BB_OK)
		return s;
	t->prop = (bb_prop)ch;
	t->apply = c->additive ? BB_APPLY_ADD : BB_APPLY_REPLACE;
	set_clock(c, mb, t);
	for (k = 0; k < c->n; k++) {
		t->times[k] = c->t[k];
		t->values[k] = c->v[(size_t)k * NCH + ch];
		t->interp[k] = c->ip[k];
	}
	return BB_OK;
}

static bb_status color_channel(struct ca *c, const struct cc_movbone *mb,
                               int n, int slot)
{
	bb_timeline *t;
	int k, i, any = 0;
	bb_status s;

	for (k = 0; k < n; k++)
		any |= mb->frames[k].has_color;
	if (!any)
		return BB_OK;
	if ((s = new_timeline(c, BB_TL_SLOT_COLOR, slot, 8, c->n, &t)) != BB_OK)
		return s;
	set_clock(c, mb, t);
	for (k = 0; k < c->n; k++) {
		t->times[k] = c->t[k];
		t->interp[k] = c->ip[k];
		for (i = 0; i < 4; i++)
			t->values[(size_t)k * 8 + i] = c->v[(size_t)k * NCH + CH_COLOR + i];
	}
	return BB_OK;
}

/* Display index per key, stepped; -1 throughout for a bone the movement
 * does not animate (mb NULL). */
static bb_status display_channel(struct ca *c, const struct cc_movbone *mb,
                                 int n, int slot)
{
	bb_timeline *t;
	int k;
	bb_status s;

	if ((s = new_timeline(c, BB_TL_SLOT_DISPLAY, slot, 1, mb ? n : 1, &t)) != BB_OK)
		return s;
	t->values[0] = -1;
	if (!mb)
		return BB_OK;
	set_clock(c, mb, t);
	for (k = 0; k < n; k++) {
		t->times[k] = key_time(c, &mb->frames[k]);
		t->values[k] = mb->frames[k].di < 0 ? -1 : mb->frames[k].di;
	}
	return BB_OK;
}

/* ---- events ------------------------------------------------------------- */

static bb_status add_event(struct ca *c, double time, bb_event_kind kind,
                           const char *name, const char *bone)
{
	return bb__build_event(c->d->b, c->an, time, kind, name, bone);
}

/* Animation times in [0, D) (non-looping: [0, D]) at which the bone's
 * clock reaches bone time bt; returns how many (at most MAX_REPEAT). */
static int times_of(const struct bone_clock *k, double bt, double *out)
{
	int n = 0, m;

	if (k->dur <= 0)
		return bt <= 0 ? (out[0] = 0, 1) : 0;
	if (!k->loop) {
		out[0] = bt * k->scale;
		return bt <= k->dur && out[0] <= k->dur + 1e-9 ? 1 : 0;
	}
	if (bt >= k->dur)
		return 0;
	bt -= k->offset * k->dur;
	bt = fmod(fmod(bt, k->dur) + k->dur, k->dur);
	for (m = 0; n < MAX_REPEAT; m++) {
		double t = k->scale * (bt + m * k->dur);

		if (t >= k->dur - 1e-9)
			break;
		out[n++] = t;
	}
	return n;
}

static bb_status bone_events(struct ca *c, const struct cc_movbone *mb, int n)
{
	struct bone_clock k;
	double at[MAX_REPEAT];
	int i, j, cnt;
	bb_status s;

	clock_of(c, mb, &k);
	for (i = 0; i < n; i++) {
		const struct cc_frame *f = &mb->frames[i];

		if ((!f->evt || !f->evt[0]) && (!f->sound || !f->sound[0]))
			continue;
		cnt = times_of(&k, key_time(c, f), at);
		for (j = 0; j < cnt; j++) {
			if (f->evt && f->evt[0] &&
			    (s = add_event(c, at[j], BB_EVENT_EVENT, f->evt, mb->name)) != BB_OK)
				return s;
			if (f->sound && f->sound[0] &&
			    (s = add_event(c, at[j], BB_EVENT_SOUND, f->sound, mb->name)) != BB_OK)
				return s;
		}
	}
	return BB_OK;
}

/* ---- draw order ------------------------------------------------------------ */

static const struct cc_movbone *movbone_of(const struct cc_mov *mv,
                                           const char *name)
{
	int i;

	for (i = 0; i < mv->nbones; i++)
		if (strcmp(mv->bones[i].name, name) == 0)
			return mv->bones[i].nframes > 0 ? &mv->bones[i] : NULL;
	return NULL;
}

/* localZOrder of file bone b at animation time t: bone z + key z (0.3 on)
 * or the key's z, the key reached last (spec 8). */
static int z_at(const struct ca *c, int b, double t)
{
	const struct cc_bone *bone = &c->arm->bones[b];
	const struct cc_movbone *mb = movbone_of(c->mv, bone->name);
	struct bone_clock k;
	double bt;
	int n, i = 0;

	if (!mb)
		return bone->z;
	clock_of(c, mb, &k);
	bt = bone_time(&k, t) + 1e-9;
	n = usable_keys(c, mb);
	while (i + 1 < n && key_time(c, &mb->frames[i + 1]) <= bt)
		i++;
	return (c->additive ? bone->z : 0) + mb->frames[i].z;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Every time some bone reaches a key (sorted, duplicates kept). */
static bb_status order_times(struct ca *c, double **out, int *nout)
{
	double *t = NULL, at[MAX_REPEAT];
	size_t cap = 0;
	int n = 0, b, i, j, cnt;

	if (!bb__grow((void **)&t, &cap, 1, sizeof *t))
		return bb__build_nomem(c->d->b);
	t[n++] = 0;
	for (b = 0; b < c->arm->nbones; b++) {
		const struct cc_movbone *mb = movbone_of(c->mv, c->arm->bones[b].name);
		struct bone_clock k;

		if (!mb)
			continue;
		clock_of(c, mb, &k);
		for (i = 0; i < usable_keys(c, mb) && n < MAX_ORDER_TIMES; i++) {
			cnt = times_of(&k, key_time(c, &mb->frames[i]), at);
			if (!bb__grow((void **)&t, &cap, (size_t)n + (size_t)cnt, sizeof *t)) {
				free(t);
				return bb__build_nomem(c->d->b);
			}
			for (j = 0; j < cnt; j++)
				t[n++] = at[j];
		}
	}
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	*out = t;
	*nout = n;
	return BB_OK;
}

/* Slots back to front by z, ties in file order (the runtime's tie order
 * follows an unordered map: implementation-defined). */
static void order_at(const struct ca *c, double t, int *z, int *order)
{
	int n = c->arm->nbones, i, j;

	for (i = 0; i < n; i++) {
		z[i] = z_at(c, i, t);
		for (j = i; j > 0 && z[order[j - 1]] > z[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

static bb_status draw_order(struct ca *c)
{
	int n = c->arm->nbones, ntimes = 0, i, k, nkeys = 0;
	int *z = bb__calloc((size_t)n + 1, sizeof *z);
	int *order = bb__calloc((size_t)n + 1, sizeof *order);
	int *prev = bb__calloc((size_t)n + 1, sizeof *prev);
	double *times = NULL, *vals = NULL, *kt = NULL;
	bb_timeline *t;
	bb_status s = BB_OK;

	if (!z || !order || !prev || (s = order_times(c, &times, &ntimes)) != BB_OK) {
		s = s != BB_OK ? s : bb__build_nomem(c->d->b);
		goto done;
	}
	vals = bb__calloc((size_t)ntimes * (size_t)(n ? n : 1), sizeof *vals);
	kt = bb__calloc((size_t)ntimes, sizeof *kt);
	if (!vals || !kt) {
		s = bb__build_nomem(c->d->b);
		goto done;
	}
	for (i = 0; i < ntimes; i++) {
		if (i > 0 && times[i] - times[i - 1] < 1e-9)
			continue;
		order_at(c, times[i], z, order);
		if (nkeys > 0 && memcmp(order, prev, (size_t)n * sizeof *order) == 0)
			continue;
		memcpy(prev, order, (size_t)n * sizeof *order);
		kt[nkeys] = times[i];
		for (k = 0; k < n; k++)
			vals[(size_t)nkeys * (size_t)n + (size_t)k] = order[k];
		nkeys++;
	}
	if (n > 0 && (s = new_timeline(c, BB_TL_DRAW_ORDER, 0, n, nkeys, &t)) == BB_OK) {
		memcpy(t->times, kt, (size_t)nkeys * sizeof *kt);
		memcpy(t->values, vals, (size_t)nkeys * (size_t)n * sizeof *vals);
	}
done:
	free(z);
	free(order);
	free(prev);
	free(times);
	free(vals);
	free(kt);
	return s;
}

/* ---- movement ------------------------------------------------------------- */

static bb_status build_bone(struct ca *c, int b)
{
	const struct cc_bone *bone = &c->arm->bones[b];
	const struct cc_movbone *mb = movbone_of(c->mv, bone->name);
	int model_bone = c->a->slots[b].bone, n, ch;
	bb_status s;

	if (!mb)
		return display_channel(c, NULL, 0, b);
	n = usable_keys(c, mb);
	if ((s = segment_keys(c, mb, n)) != BB_OK)
		return s;
	for (ch = 0; ch < CH_COLOR; ch++)
		if ((s = bone_channel(c, mb, model_bone, ch)) != BB_OK)
			return s;
	if ((s = color_channel(c, mb, n, b)) != BB_OK ||
	    (s = display_channel(c, mb, n, b)) != BB_OK)
		return s;
	return bone_events(c, mb, n);
}

bb_status bb__cc_build_movement(struct cc_doc *d, const struct cc_arm *arm,
                                const struct cc_mov *mv, bb_armature *ma)
{
	struct ca c;
	bb_status s;
	int b;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.arm = arm;
	c.mv = mv;
	c.a = ma;
	c.additive = arm->version >= CC_VERSION_COMBINED - 1e-9;
	c.dur = bb__cc_duration(mv->dr, mv->drtw, mv->sc);
	/* the builder's errors (a name used twice, too many keys) at the
	 * movement */
	bb__jpath_set(&d->c->at.path, mv->path);
	d->c->at.line = mv->line;
	if ((s = bb__build_anim(d->b, ma, mv->name, &c.an)) != BB_OK)
		return s;
	c.an->duration = c.dur;
	c.an->loop = mv->loop;
	for (b = 0; b < arm->nbones && s == BB_OK; b++)
		s = build_bone(&c, b);
	if (s == BB_OK)
		s = draw_order(&c);
	free(c.t);
	free(c.v);
	free(c.ip);
	return s;
}
