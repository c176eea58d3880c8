/* Pose evaluation: setup pose, tracks and their timelines. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "eval/eval.h"
#include "eval/pose.h"
#include "eval/solid.h"

/* Largest key stride and per-slot deform sizes of an armature: room for
 * the largest mesh of the slot and the largest deform timeline aimed at it. */
static size_t deform_layout(const bb_armature *a, size_t *off, int *max_stride)
{
	size_t total = 0, need;
	int s, j, k, n;

	*max_stride = 8;
	for (s = 0; s < a->nslots; s++) {
		off[s] = 0;
		for (k = 0; k < a->nskins; k++)
			for (j = 0; j < a->skins[k].count[s]; j++) {
				const bb_display *d =
					&a->displays[a->skins[k].first[s] + j];

				if (d->kind != BB_DISPLAY_MESH)
					continue;
				n = 2 * (d->u.mesh.wcount ? d->u.mesh.ninfluences
				                          : d->u.mesh.nverts);
				if ((size_t)n > off[s])
					off[s] = (size_t)n;
			}
	}
	for (j = 0; j < a->nanims; j++)
		for (k = 0; k < a->anims[j].ntimelines; k++) {
			const bb_timeline *t = &a->anims[j].timelines[k];

			if (t->stride > *max_stride)
				*max_stride = t->stride;
			if (t->target == BB_TL_DEFORM && (size_t)t->stride > off[t->index])
				off[t->index] = (size_t)t->stride;
		}
	for (s = 0; s < a->nslots; s++) {
		need = off[s];
		off[s] = total;
		total += need;
	}
	return total;
}

static bb_status pose_new(const bb_model *m, int armature, int depth,
                          bb_pose **out, bb_error *err)
{
	const bb_armature *a;
	bb_pose *p;
	size_t nb, ns, ndeform;
	int max_stride;

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
	p->depth = depth;
	p->local = bb__calloc(nb, sizeof *p->local);
	p->world = bb__calloc(nb, sizeof *p->world);
	p->wx = bb__calloc(nb, sizeof *p->wx);
	p->wx_stale = bb__calloc(nb, 1);
	p->moved = bb__calloc(nb, 1);
	p->display = bb__calloc(ns, sizeof *p->display);
	p->color = bb__calloc(ns, sizeof *p->color);
	p->order = bb__calloc(ns, sizeof *p->order);
	p->deform_off = bb__calloc(ns, sizeof *p->deform_off);
	p->deform_disp = bb__calloc(ns, sizeof *p->deform_disp);
	p->child = bb__calloc(ns, sizeof *p->child);
	p->vcolor = bb__calloc(4 * ns, sizeof *p->vcolor);
	p->vcolor_blend = bb__calloc(ns, sizeof *p->vcolor_blend);
	p->ik_weight = bb__calloc((size_t)a->niks, sizeof *p->ik_weight);
	p->ik_bend = bb__calloc((size_t)a->niks, sizeof *p->ik_bend);
	p->jvars = bb__calloc(a->solid ? (size_t)a->solid->njoints * BB_JV_COUNT : 0,
	                      sizeof *p->jvars);
	if (p->deform_off) {
		ndeform = deform_layout(a, p->deform_off, &max_stride);
		p->deform = bb__calloc(ndeform, sizeof *p->deform);
		p->scratch = bb__calloc((size_t)max_stride, sizeof *p->scratch);
	}
	if (!p->local || !p->world || !p->wx || !p->wx_stale || !p->moved ||
	    !p->display || !p->color || !p->order || !p->deform_off ||
	    !p->deform_disp || !p->child || !p->ik_weight || !p->ik_bend ||
	    !p->vcolor || !p->vcolor_blend ||
	    !p->jvars ||
	    !p->deform || !p->scratch) {
		bb_pose_free(p);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	*out = p;
	return BB_OK;
}

bb_status bb_pose_new(const bb_model *m, int armature, bb_pose **out,
                      bb_error *err)
{
	return pose_new(m, armature, 0, out, err);
}

void bb_pose_free(bb_pose *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; p->child && i < p->a->nslots; i++)
		bb_pose_free(p->child[i]);
	free(p->child);
	free(p->local);
	free(p->world);
	free(p->wx);
	free(p->wx_stale);
	free(p->moved);
	free(p->display);
	free(p->color);
	free(p->order);
	free(p->deform);
	free(p->deform_off);
	free(p->deform_disp);
	free(p->vcolor);
	free(p->vcolor_blend);
	free(p->scratch);
	free(p->ik_weight);
	free(p->ik_bend);
	free(p->jvars);
	bb__solid_work_free(p->solid_work);
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
		p->deform_disp[i] = BB__NO_DEFORM;
		p->vcolor_blend[i] = -1;
	}
	for (i = 0; i < a->niks; i++) {
		p->ik_weight[i] = a->iks[i].weight;
		p->ik_bend[i] = a->iks[i].bend_positive;
	}
	for (i = 0; o && i < o->n_overrides; i++)
		p->display[o->overrides[i].slot] = o->overrides[i].display;
	bb__solid_reset(p);
	p->figure_sx = 1;
	p->order_set = 0;
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
	case BB_TL_DEFORM:
	case BB_TL_VERTEX_COLOR:
		return bones[p->a->slots[t->index].bone];
	case BB_TL_IK:
		return bones[p->a->iks[t->index].bone];
	case BB_TL_FIGURE:
		for (i = 0; i < p->a->nbones; i++)
			if (p->a->bones[i].parent < 0 && bones[i])
				return 1;
		return 0;
	case BB_TL_DRAW_ORDER:
		return 0;          /* a partial layer never reorders the figure */
	case BB_TL_JOINT:
		return 1;          /* solid joints are not bones: never masked */
	}
	return 0;
}

static void apply_timeline(bb_pose *p, const bb_anim *an, const bb_timeline *t,
                           double time, int looping)
{
	const bb_armature *a = p->a;
	double *v = p->scratch;
	int i;

	if (t->time_scale > 0 || t->time_offset != 0) {
		time = time / (t->time_scale > 0 ? t->time_scale : 1) +
		       t->time_offset * an->duration;
		if (an->duration > 0)
			time = looping ? fmod(fmod(time, an->duration) + an->duration,
			                       an->duration)
			                : fmin(fmax(time, 0), an->duration);
	}
	bb__timeline_sample(an, t, time, looping, v);
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
		p->color[t->index].mul = (bb_rgba){ v[1], v[2], v[3], v[0] };
		p->color[t->index].add = (bb_rgba){ v[5], v[6], v[7], v[4] };
		break;
	case BB_TL_FIGURE:
		p->figure_sx = combine(t->apply, 1, v[0]);
		break;
	case BB_TL_DRAW_ORDER:
		for (i = 0; i < a->nslots; i++)
			p->order[i] = (int)v[i];
		p->order_set = 1;
		break;
	case BB_TL_DEFORM:
		memcpy(p->deform + p->deform_off[t->index], v,
		       (size_t)t->stride * sizeof *v);
		p->deform_disp[t->index] = t->display;
		break;
	case BB_TL_IK:
		if (t->prop == BB_PROP_Y)
			p->ik_bend[t->index] = v[0] != 0;
		else
			p->ik_weight[t->index] = v[0];
		break;
	case BB_TL_VERTEX_COLOR:
		p->vcolor_blend[t->index] = (int)v[0];
		for (i = 0; i < 4; i++)
			p->vcolor[4 * t->index + i] = (bb_rgba){ v[1 + 4 * i], v[2 + 4 * i],
			                                         v[3 + 4 * i], v[4 + 4 * i] };
		break;
	case BB_TL_JOINT:
		bb__solid_set(p, t->index, t->jvar, bb__solid_sample(an, t, time));
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

static void apply_tracks(bb_pose *p, const bb_track *tracks, int ntracks,
                         double t)
{
	int i, j;

	p->anim_time = 0;
	for (i = 0; i < ntracks; i++) {
		const bb_anim *an = &p->a->anims[tracks[i].anim];
		double local;

		if (!bb__track_time(an, &tracks[i], t, &local))
			continue;
		if (i == 0)
			p->anim_time = local;
		for (j = 0; j < an->ntimelines; j++)
			if (in_mask(p, tracks[i].mask, &an->timelines[j]))
				apply_timeline(p, an, &an->timelines[j], local,
				               bb__track_loops(an, &tracks[i]));
	}
}

bb_status bb_pose_eval(bb_pose *p, const bb_track *tracks, int ntracks,
                       double t, const bb_eval_options *opts, bb_error *err)
{
	static const bb_eval_options defaults;
	const bb_eval_options *o = opts ? opts : &defaults;
	bb_status s;

	if ((s = check_args(p, tracks, ntracks, o, err)) != BB_OK)
		return s;
	reset(p, o);
	apply_tracks(p, tracks, ntracks, t);
	p->fig = bb_affine_scale(p->figure_sx * (o->flip ? -1 : 1), 1);
	bb__world_transforms(p, o);
	return bb__build_drawlist(p, o, err);
}

bb_status bb__pose_eval_nested(bb_pose *p, int anim, double time,
                               bb_affine fig, bb_error *err)
{
	static const bb_eval_options defaults;
	bb_track tr = { anim, 0, -1, 0, 0, 0 };

	reset(p, NULL);
	if (anim >= 0 && anim < p->a->nanims)
		apply_tracks(p, &tr, 1, time);
	p->fig = fig;
	bb__world_transforms(p, &defaults);
	return bb__build_drawlist(p, &defaults, err);
}

bb_status bb__child_pose(bb_pose *p, int slot, int armature, bb_pose **out,
                         bb_error *err)
{
	bb_status s;

	if (p->child[slot] && p->child[slot]->a != &p->m->armatures[armature]) {
		bb_pose_free(p->child[slot]);
		p->child[slot] = NULL;
	}
	if (!p->child[slot]) {
		s = pose_new(p->m, armature, p->depth + 1, &p->child[slot], err);
		if (s != BB_OK)
			return s;
	}
	*out = p->child[slot];
	return BB_OK;
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
