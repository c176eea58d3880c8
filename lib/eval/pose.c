/* Pose evaluation: setup pose, tracks, world transforms. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "eval/eval.h"
#include "eval/pose.h"

bb_status bb_pose_new(const bb_model *m, int armature, bb_pose **out,
                      bb_error *err)
{
	const bb_armature *a;
	bb_pose *p;
	size_t nb, ns;

	*out = NULL;
	if (armature < 0 || armature >= m->narmatures)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "armature index %d out of range", armature);
	a = &m->armatures[armature];
	nb = (size_t)a->nbones;
	ns = (size_t)a->nslots;
	p = calloc(1, sizeof *p);
	if (!p)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	p->m = m;
	p->a = a;
	p->local = bb__calloc(nb, sizeof *p->local);
	p->world = bb__calloc(nb, sizeof *p->world);
	p->wx = bb__calloc(nb, sizeof *p->wx);
	p->wx_stale = bb__calloc(nb, 1);
	p->display = bb__calloc(ns, sizeof *p->display);
	p->color = bb__calloc(ns, sizeof *p->color);
	p->order = bb__calloc(ns, sizeof *p->order);
	if (!p->local || !p->world || !p->wx || !p->wx_stale || !p->display || !p->color || !p->order) {
		bb_pose_free(p);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	*out = p;
	return BB_OK;
}

void bb_pose_free(bb_pose *p)
{
	if (!p)
		return;
	free(p->local);
	free(p->world);
	free(p->wx);
	free(p->wx_stale);
	free(p->display);
	free(p->color);
	free(p->order);
	free(p->items);
	free(p->voff);
	free(p->vbuf);
	free(p);
}

static void reset(bb_pose *p, const bb_eval_options *o)
{
	const bb_armature *a = p->a;
	int i;

	for (i = 0; i < a->nbones; i++)
		p->local[i] = a->bones[i].setup;
	for (i = 0; i < a->nslots; i++) {
		p->display[i] = a->slots[i].setup_display;
		p->color[i] = a->slots[i].color;
	}
	for (i = 0; i < o->n_overrides; i++)
		p->display[o->overrides[i].slot] = o->overrides[i].display;
	p->figure_sx = 1;
}

static double *prop_ref(bb_xform *x, bb_prop prop)
{
	switch (prop) {
	case BB_PROP_X: return &x->x;
	case BB_PROP_Y: return &x->y;
	case BB_PROP_ROTATION: return &x->rotation;
	case BB_PROP_SKEW: return &x->skew;
	case BB_PROP_SCALE_X: return &x->sx;
	case BB_PROP_SCALE_Y: return &x->sy;
	case BB_PROP_COUNT: break;
	}
	return &x->x;
}

static double combine(bb_apply how, double setup, double v)
{
	switch (how) {
	case BB_APPLY_ADD: return setup + v;
	case BB_APPLY_MUL: return setup * v;
	case BB_APPLY_REPLACE: return v;
	}
	return v;
}

static int in_mask(const bb_pose *p, int mask, const bb_timeline *t)
{
	const unsigned char *bones;
	int i;

	if (mask < 0)
		return 1;
	bones = p->a->masks[mask].bones;
	switch (t->target) {
	case BB_TL_BONE:
		return bones[t->index];
	case BB_TL_SLOT_DISPLAY:
	case BB_TL_SLOT_COLOR:
		return bones[p->a->slots[t->index].bone];
	case BB_TL_FIGURE:
		for (i = 0; i < p->a->nbones; i++)
			if (p->a->bones[i].parent < 0 && bones[i])
				return 1;
		return 0;
	}
	return 0;
}

static void apply_timeline(bb_pose *p, const bb_anim *an, const bb_timeline *t,
                           double time)
{
	double v[8];
	const bb_armature *a = p->a;

	if (t->stride > 8)
		return;
	bb__timeline_sample(an, t, time, v);
	switch (t->target) {
	case BB_TL_BONE:
		*prop_ref(&p->local[t->index], t->prop) =
			combine(t->apply, *prop_ref((bb_xform *)&a->bones[t->index].setup,
			                            t->prop), v[0]);
		break;
	case BB_TL_SLOT_DISPLAY:
		p->display[t->index] = (int)floor(v[0] + 0.5);
		break;
	case BB_TL_SLOT_COLOR:
		p->color[t->index].mul = (bb_rgba){ v[0], v[1], v[2], v[3] };
		p->color[t->index].add = (bb_rgba){ v[4], v[5], v[6], v[7] };
		break;
	case BB_TL_FIGURE:
		p->figure_sx = combine(t->apply, 1, v[0]);
		break;
	}
}

static bb_status check_args(const bb_pose *p, const bb_track *tracks,
                            int ntracks, const bb_eval_options *o, bb_error *err)
{
	const bb_armature *a = p->a;
	int i;

	if (ntracks < 0 || ntracks > BB_MAX_TRACKS)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "too many tracks");
	for (i = 0; i < ntracks; i++) {
		if (tracks[i].anim < 0 || tracks[i].anim >= a->nanims)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "animation index %d out of range", tracks[i].anim);
		if (tracks[i].mask < -1 || tracks[i].mask >= a->nmasks)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "mask index %d out of range", tracks[i].mask);
		if (!isfinite(tracks[i].start))
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "track start is not finite");
	}
	if (o->skin < 0 || (a->nskins > 0 && o->skin >= a->nskins) ||
	    o->n_overrides < 0 || o->n_overrides > BB_MAX_OVERRIDES)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "bad skin or overrides");
	for (i = 0; i < o->n_overrides; i++)
		if (o->overrides[i].slot < 0 || o->overrides[i].slot >= a->nslots)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "override slot %d out of range",
			                    o->overrides[i].slot);
	return BB_OK;
}

bb_affine bb__componentwise(const bb_pose *p, int parent, const bb_xform *l,
                            bb_xform *wx)
{
	const bb_xform *pw = &p->wx[parent];
	bb_vec2 pos = bb_affine_apply(p->world[parent], l->x, l->y);
	bb_xform lin;
	bb_affine m;

	wx->x = pos.x;
	wx->y = pos.y;
	wx->rotation = pw->rotation + l->rotation;
	wx->skew = pw->skew + l->skew;
	wx->sx = pw->sx * l->sx;
	wx->sy = pw->sy * l->sy;
	lin = *wx;
	lin.x = lin.y = 0;
	m = bb_affine_mul(p->fig, bb__xform_matrix(&lin));
	m.tx = pos.x;
	m.ty = pos.y;
	return m;
}

/* DragonBones' Transform.fromMatrix: decomposes m into rotation (skewY),
 * skew (skewX - skewY) and scales; `prev` holds the previous scales, whose
 * signs decide how a negative scale is folded into the angles. */
static void from_matrix(bb_affine m, bb_xform *g)
{
	const double q = M_PI / 4;
	double skx = atan(-m.c / m.d), sky = atan(m.b / m.a), sx, sy;

	if (skx != skx)
		skx = 0;
	if (sky != sky)
		sky = 0;
	sy = (skx > -q && skx < q) ? m.d / cos(skx) : -m.c / sin(skx);
	sx = (sky > -q && sky < q) ? m.a / cos(sky) : m.b / sin(sky);
	if (g->sx >= 0 && sx < 0) {
		sx = -sx;
		sky -= M_PI;
	}
	if (g->sy >= 0 && sy < 0) {
		sy = -sy;
		skx -= M_PI;
	}
	g->x = m.tx;
	g->y = m.ty;
	g->rotation = sky;
	g->skew = skx - sky;
	g->sx = sx;
	g->sy = sy;
}

/* The parent's decomposed world transform, derived on first use. */
static const bb_xform *global_of(bb_pose *p, int i)
{
	if (p->wx_stale[i]) {
		from_matrix(p->world[i], &p->wx[i]);
		p->wx_stale[i] = 0;
	}
	return &p->wx[i];
}

/* Bone._updateGlobalTransformMatrix of the DragonBones 5.5+ runtime
 * (armature not flipped; flip is the figure matrix at the roots). */
static bb_affine flags_world(bb_pose *p, int i, const bb_xform *l)
{
	const bb_bone *b = &p->a->bones[i];
	bb_affine par = p->world[b->parent], m;
	bb_xform g = *l;
	unsigned f = b->flags;

	if (f & BB_INHERIT_SCALE) {
		if (!(f & BB_INHERIT_ROTATION))
			g.rotation -= global_of(p, b->parent)->rotation;
		m = bb_affine_mul(par, bb__xform_matrix(&g));
		if (!(f & BB_INHERIT_TRANSLATION)) {
			m.tx = g.x;
			m.ty = g.y;
		}
		p->wx[i] = g;
		p->wx_stale[i] = 1;
		return m;
	}
	if (f & BB_INHERIT_TRANSLATION) {
		bb_vec2 v = bb_affine_apply(par, g.x, g.y);

		g.x = v.x;
		g.y = v.y;
	}
	if (f & BB_INHERIT_ROTATION) {
		const bb_xform *pg = global_of(p, b->parent);
		double rot = g.rotation + pg->rotation + (pg->sx < 0 ? M_PI : 0);

		if (par.a * par.d - par.b * par.c < 0) {
			rot -= 2 * g.rotation;
			if (f & BB_INHERIT_REFLECTION)
				g.skew += M_PI;
		}
		g.rotation = rot;
	}
	p->wx[i] = g;
	p->wx_stale[i] = 0;
	return bb__xform_matrix(&g);
}

static void world_transforms(bb_pose *p, const bb_eval_options *o)
{
	const bb_armature *a = p->a;
	int i;

	p->fig = bb_affine_scale(p->figure_sx * (o->flip ? -1 : 1), 1);
	for (i = 0; i < a->nbones; i++) {
		const bb_bone *b = &a->bones[i];
		const bb_xform *l = &p->local[i];

		p->wx_stale[i] = 0;
		if (b->parent < 0) {
			p->wx[i] = *l;
			p->world[i] = bb_affine_mul(p->fig, bb__xform_matrix(l));
		} else if (b->inherit == BB_INHERIT_COMPONENTWISE) {
			p->world[i] = bb__componentwise(p, b->parent, l, &p->wx[i]);
		} else if (b->inherit == BB_INHERIT_FLAGS) {
			p->world[i] = flags_world(p, i, l);
		} else {
			p->world[i] = bb_affine_mul(p->world[b->parent],
			                            bb__xform_matrix(l));
			p->wx[i] = *l;
			p->wx_stale[i] = 1;
		}
	}
}

bb_status bb_pose_eval(bb_pose *p, const bb_track *tracks, int ntracks,
                       double t, const bb_eval_options *opts, bb_error *err)
{
	static const bb_eval_options defaults;
	const bb_eval_options *o = opts ? opts : &defaults;
	bb_status s;
	int i, j;

	if ((s = check_args(p, tracks, ntracks, o, err)) != BB_OK)
		return s;
	reset(p, o);
	for (i = 0; i < ntracks; i++) {
		const bb_anim *an = &p->a->anims[tracks[i].anim];
		double local;

		if (!bb__track_time(an, &tracks[i], t, &local))
			continue;
		for (j = 0; j < an->ntimelines; j++)
			if (in_mask(p, tracks[i].mask, &an->timelines[j]))
				apply_timeline(p, an, &an->timelines[j], local);
	}
	world_transforms(p, o);
	return bb__build_drawlist(p, o, err);
}

int bb_pose_bone_count(const bb_pose *p)
{
	return p->a->nbones;
}

bb_affine bb_pose_bone_world(const bb_pose *p, int bone)
{
	if (bone < 0 || bone >= p->a->nbones)
		return bb_affine_identity();
	return p->world[bone];
}

int bb_pose_slot_order(const bb_pose *p, int i)
{
	return (i >= 0 && i < p->a->nslots) ? p->order[i] : -1;
}

int bb_pose_slot_display(const bb_pose *p, int slot)
{
	return (slot >= 0 && slot < p->a->nslots) ? p->display[slot] : -1;
}

bb_color_xform bb_pose_slot_color(const bb_pose *p, int slot)
{
	if (slot < 0 || slot >= p->a->nslots)
		return bb_color_xform_identity();
	return p->color[slot];
}

const bb_drawlist *bb_pose_drawlist(const bb_pose *p)
{
	return &p->dl;
}
