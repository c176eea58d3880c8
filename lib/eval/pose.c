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
	p->applied = bb__calloc(nb, sizeof *p->applied);
	p->inherit = bb__calloc(nb, sizeof *p->inherit);
	p->cparams = bb__calloc((size_t)a->ncons * BB_CP_MAX, sizeof *p->cparams);
	p->phys = bb__calloc((size_t)a->ncons, bb__physics_state_size());
	p->phys_kept = bb__calloc((size_t)a->ncons, bb__physics_state_size());
	p->phys_kept_n = -1;
	p->seq_index = bb__calloc(ns, sizeof *p->seq_index);
	p->seq_disp = bb__calloc(ns, sizeof *p->seq_disp);
	p->shown = bb__calloc(ns, sizeof *p->shown);
	p->active = bb__calloc(nb, 1);
	p->con_active = bb__calloc((size_t)a->ncons, 1);
	if (p->deform_off) {
		ndeform = deform_layout(a, p->deform_off, &max_stride);
		p->deform = bb__calloc(ndeform, sizeof *p->deform);
		p->scratch = bb__calloc((size_t)max_stride, sizeof *p->scratch);
	}
	if (!p->local || !p->world || !p->wx || !p->wx_stale || !p->moved ||
	    !p->display || !p->color || !p->order || !p->deform_off ||
	    !p->deform_disp || !p->child || !p->ik_weight || !p->ik_bend ||
	    !p->vcolor || !p->vcolor_blend ||
	    !p->jvars || !p->applied || !p->inherit || !p->cparams || !p->phys ||
	    !p->phys_kept ||
	    !p->seq_index || !p->seq_disp || !p->shown || !p->active || !p->con_active ||
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
	free(p->active);
	free(p->con_active);
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
	free(p->applied);
	free(p->inherit);
	free(p->cparams);
	free(p->phys);
	free(p->phys_kept);
	free(p->seq_index);
	free(p->seq_disp);
	free(p->shown);
	bb__path_work_free(p->path_work);
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

	for (i = 0; i < a->nbones; i++) {
		p->local[i] = a->bones[i].setup;
		p->inherit[i] = (int)a->bones[i].inherit;
	}
	for (i = 0; i < a->nslots; i++) {
		p->display[i] = a->slots[i].setup_display;
		p->color[i] = a->slots[i].color;
		p->deform_disp[i] = BB__NO_DEFORM;
		p->vcolor_blend[i] = -1;
		p->seq_index[i] = -1;
		p->seq_disp[i] = -1;
	}
	for (i = 0; i < a->ncons; i++)
		memcpy(p->cparams + (size_t)i * BB_CP_MAX, a->cons[i].params,
		       sizeof a->cons[i].params);
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
	case BB_PROP_SHEAR: return &x->shear;
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
	case BB_TL_BONE_INHERIT:
		return bones[t->index];
	case BB_TL_SLOT_DISPLAY:
	case BB_TL_SLOT_COLOR:
	case BB_TL_DEFORM:
	case BB_TL_VERTEX_COLOR:
	case BB_TL_SLOT_TINT:
	case BB_TL_SEQUENCE:
		return bones[p->a->slots[t->index].bone];
	case BB_TL_CONSTRAINT:
		return bones[p->a->cons[t->index].bones[0]];
	case BB_TL_PHYSICS_RESET:
		return 1;
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

/* Light (r g b a) then dark (r g b) channels a tint timeline sets. */
static void apply_tint(bb_color_xform *c, unsigned ch, const double *v)
{
	double *dst[7];
	int k, n = 0;

	dst[0] = &c->mul.r; dst[1] = &c->mul.g; dst[2] = &c->mul.b;
	dst[3] = &c->mul.a; dst[4] = &c->dark.r; dst[5] = &c->dark.g;
	dst[6] = &c->dark.b;
	for (k = 0; k < 7; k++) {
		double x;

		if (!(ch & (1u << k)))
			continue;
		x = v[n++];
		if (k < 4 && (ch & BB_CH_CLAMP))
			x = x < 0 ? 0 : x > 1 ? 1 : x;
		*dst[k] = x;
	}
}

/* JavaScript's `x | 0` for the frame counts of a sequence. */
static long to_int32(double x)
{
	return fabs(x) < 2147483647.0 ? (long)x : 0;
}

/* Spine's sequence timeline: the frame of the key, advanced by the time
 * since the key in steps of its delay, through the key's mode. */
static void apply_sequence(bb_pose *p, const bb_anim *an, const bb_timeline *t,
                           double time)
{
	int k = bb__timeline_key(an, t, time);
	long count = p->a->displays[t->display].seq_count, index, n;
	const double *v;

	p->seq_disp[t->index] = t->display;
	if (k < 0) {
		p->seq_index[t->index] = -1;
		return;
	}
	v = t->values + 3 * (size_t)k;
	index = (long)v[1];
	if ((int)v[0] != BB_SEQ_HOLD) {
		index += to_int32((time - t->times[k]) / v[2] + 0.00001);
		switch ((bb_seq_mode)(int)v[0]) {
		case BB_SEQ_HOLD:
			break;
		case BB_SEQ_ONCE:
			index = index < count - 1 ? index : count - 1;
			break;
		case BB_SEQ_LOOP:
			index %= count;
			break;
		case BB_SEQ_PINGPONG:
			n = 2 * count - 2;
			index = n == 0 ? 0 : index % n;
			if (index >= count)
				index = n - index;
			break;
		case BB_SEQ_ONCE_REVERSE:
			index = count - 1 - index > 0 ? count - 1 - index : 0;
			break;
		case BB_SEQ_LOOP_REVERSE:
			index = count - 1 - index % count;
			break;
		case BB_SEQ_PINGPONG_REVERSE:
			n = 2 * count - 2;
			index = n == 0 ? 0 : (index + count - 1) % n;
			if (index >= count)
				index = n - index;
			break;
		}
	}
	p->seq_index[t->index] = index < 0 ? 0 : (int)index;
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
	if (t->target == BB_TL_SEQUENCE) {
		apply_sequence(p, an, t, time);
		return;
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
		if (t->display >= 0 && p->deform_disp[t->index] >= 0) {
			/* the slot holds offsets already: keep them if they are for
			 * the display it shows and these are not */
			const bb_display *d = bb__slot_display(p, t->index);
			int key = d ? bb__display_key(a, d) : -1;

			if (key == p->deform_disp[t->index] && key != t->display)
				break;
		}
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
	case BB_TL_BONE_INHERIT:
		p->inherit[t->index] = (int)v[0];
		break;
	case BB_TL_SLOT_TINT:
		apply_tint(&p->color[t->index], t->channels, v);
		break;
	case BB_TL_CONSTRAINT:
		memcpy(p->cparams + (size_t)t->index * BB_CP_MAX + t->param, v,
		       (size_t)t->stride * sizeof *v);
		break;
	case BB_TL_SEQUENCE:
	case BB_TL_PHYSICS_RESET:
		break;             /* see apply_sequence, step_physics */
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
	if (o->n_more_skins < 0 || o->n_more_skins > BB_MAX_SKIN_LAYERS)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "bad skin layers");
	for (i = 0; i < o->n_more_skins; i++)
		if (o->more_skins[i] < 0 || o->more_skins[i] >= a->nskins)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "skin index %d out of range", o->more_skins[i]);
	for (i = 0; i < o->n_overrides; i++)
		if (o->overrides[i].slot < 0 || o->overrides[i].slot >= a->nslots)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "override slot %d out of range",
			                    o->overrides[i].slot);
	return BB_OK;
}

/* Which bones and constraints the evaluation's skins make active (Spine's
 * Skeleton.updateCache): a bone unless it is skin-required and no skin in
 * use lists it or a descendant; a constraint while its target bone (path:
 * the target slot's bone; physics: its bone) is active, unless it is
 * skin-required and no skin in use lists it. */
static void activate(bb_pose *p, const bb_eval_options *o)
{
	const bb_armature *a = p->a;
	int i, k, b, nskins = a->nskins ? 1 + o->n_more_skins : 0;

	for (i = 0; i < a->nbones; i++)
		p->active[i] = !a->bones[i].skin_required;
	for (i = 0; i < a->ncons; i++)
		p->con_active[i] = !a->cons[i].skin_required;
	for (k = 0; k < nskins; k++) {
		const bb_skin *sk = &a->skins[k ? o->more_skins[k - 1] : o->skin];

		for (i = 0; sk->bones && i < a->nbones; i++)
			for (b = sk->bones[i] ? i : -1; b >= 0 && !p->active[b] ;
			     b = a->bones[b].parent)
				p->active[b] = 1;
		for (i = 0; sk->cons && i < a->ncons; i++)
			p->con_active[i] |= sk->cons[i];
	}
	for (i = 0; i < a->ncons; i++) {
		const bb_constraint *c = &a->cons[i];
		int target = c->kind == BB_CON_PATH ? a->slots[c->target].bone
		           : c->kind == BB_CON_PHYSICS ? c->bones[0] : c->target;

		if (target >= 0 && !p->active[target])
			p->con_active[i] = 0;
	}
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

/* Physics reset keys crossed between figure times t0 (exclusive; < 0:
 * none) and t1 (inclusive), wrapping with a looping track. */
static void physics_resets(bb_pose *p, const bb_track *tracks, int ntracks,
                           double t0, double t1)
{
	int i, j, k, c;

	for (i = 0; i < ntracks; i++) {
		const bb_anim *an = &p->a->anims[tracks[i].anim];
		double l0 = -1, l1;

		if (!bb__track_time(an, &tracks[i], t1, &l1))
			continue;
		if (t0 >= 0 && !bb__track_time(an, &tracks[i], t0, &l0))
			l0 = -1;
		for (j = 0; j < an->ntimelines; j++) {
			const bb_timeline *tl = &an->timelines[j];
			int hit = 0;

			if (tl->target != BB_TL_PHYSICS_RESET)
				continue;
			for (k = 0; k < tl->nkeys && !hit; k++) {
				double kt = tl->times[k];

				hit = l0 <= l1 ? (kt > l0 && kt <= l1) : (kt > l0 || kt <= l1);
			}
			for (c = 0; hit && c < p->a->ncons; c++)
				if (p->a->cons[c].kind == BB_CON_PHYSICS &&
				    (tl->index < 0 || tl->index == c))
					bb__physics_reset(p, c);
		}
	}
}

/* Physics is simulated from t = 0 at the armature's rate R = 1 / step:
 * step k (k = 1 .. n) evaluates the pose at k / R and advances the springs
 * by exactly one step; k = 0 starts them at rest in the pose at t = 0.  A
 * frame at time t has had n = floor(t R + 1e-9) steps (the count taken
 * from t, never summed: floating point neither skips nor doubles one) and
 * shows the pose at t with the offsets of step n, so any frame is a pure
 * function of t (frames render in parallel) and at fps = R frame i is
 * what the runtime's game loop shows after i steps of one frame each.  At
 * most BB__MAX_PHYSICS_STEPS steps: a later frame starts from rest that
 * many steps before t.
 *
 * A pose keeps the springs after its last simulation's last step: a
 * later frame of the same tracks and options (a worker's next frame)
 * takes the steps from there on, the very steps a simulation from t = 0
 * would take on the very same state, so the numbers are the same and a
 * run's physics costs its steps once, not once per frame. */
enum { BB__MAX_PHYSICS_STEPS = 100000 };

/* Whether the kept springs are those of these tracks and options. */
static int same_run(const bb_pose *p, const bb_track *tracks, int ntracks,
                    const bb_eval_options *o)
{
	return p->phys_kept_n >= 0 && ntracks == p->phys_kept_ntracks &&
	       memcmp(tracks, p->phys_kept_tracks,
	              (size_t)ntracks * sizeof *tracks) == 0 &&
	       memcmp(o, &p->phys_kept_opts, sizeof *o) == 0;
}

/* Keeps the springs as they are, after step n (run at time prev), for
 * these tracks and options (ntracks <= BB_MAX_TRACKS: check_args). */
static void keep_physics(bb_pose *p, long n, double prev, const bb_track *tracks,
                         int ntracks, const bb_eval_options *o, size_t bytes)
{
	memcpy(p->phys_kept, p->phys, bytes);
	p->phys_kept_n = n;
	p->phys_kept_prev = prev;
	memcpy(p->phys_kept_tracks, tracks, (size_t)ntracks * sizeof *tracks);
	p->phys_kept_ntracks = ntracks;
	p->phys_kept_opts = *o;
}

static void simulate_physics(bb_pose *p, const bb_track *tracks, int ntracks,
                             double t, const bb_eval_options *o)
{
	double h = p->a->physics_step, prev = -1, steps = floor(t / h + 1e-9);
	int whole = steps <= BB__MAX_PHYSICS_STEPS;   /* from t = 0 */
	long k = whole ? 0 : (long)steps - BB__MAX_PHYSICS_STEPS, n = (long)steps;
	size_t bytes = (size_t)p->a->ncons * bb__physics_state_size();
	int c;

	if (whole && p->phys_kept_n <= n &&
	    same_run(p, tracks, ntracks, o)) {
		/* on from the kept step: its springs, clock and last time */
		memcpy(p->phys, p->phys_kept, bytes);
		k = p->phys_kept_n + 1;
		prev = p->phys_kept_prev;
		p->phys_time = (double)p->phys_kept_n * h;
	} else {
		p->phys_time = (double)k * h;
		for (c = 0; c < p->a->ncons; c++)
			if (p->a->cons[c].kind == BB_CON_PHYSICS)
				bb__physics_reset(p, c);
	}
	p->phys_kept_n = -1;
	p->phys_step = 1;
	for (; k <= n; k++) {
		double tau = fmin((double)k * h, t);

		if (whole && k == n && tau != (double)k * h)
			/* t is short of step n's time (by a rounding: n is
			 * floor(t / h + 1e-9)), so step n runs at t and is no
			 * later frame's: keep the springs before it */
			keep_physics(p, k - 1, prev, tracks, ntracks, o, bytes);
		reset(p, o);
		apply_tracks(p, tracks, ntracks, tau);
		physics_resets(p, tracks, ntracks, prev, tau);
		p->phys_time = (double)k * h;
		p->fig = bb_affine_scale(p->figure_sx * (o->flip ? -1 : 1),
		                         p->a->y_up ? -1 : 1);
		bb__world_transforms(p, o);
		prev = tau;
	}
	if (whole && p->phys_kept_n < 0)
		keep_physics(p, n, prev, tracks, ntracks, o, bytes);
	p->phys_step = 0;
	physics_resets(p, tracks, ntracks, prev, t);
	p->phys_time = t;
}

bb_status bb_pose_eval(bb_pose *p, const bb_track *tracks, int ntracks,
                       double t, const bb_eval_options *opts, bb_error *err)
{
	static const bb_eval_options defaults;
	const bb_eval_options *o = opts ? opts : &defaults;
	bb_status s;

	if ((s = check_args(p, tracks, ntracks, o, err)) != BB_OK)
		return s;
	p->opts = o;
	p->phys_step = 0;
	activate(p, o);
	if (p->a->physics_step > 0)
		simulate_physics(p, tracks, ntracks, t, o);
	reset(p, o);
	apply_tracks(p, tracks, ntracks, t);
	p->fig = bb_affine_scale(p->figure_sx * (o->flip ? -1 : 1),
	                         p->a->y_up ? -1 : 1);
	bb__world_transforms(p, o);
	return bb__build_drawlist(p, o, err);
}

bb_status bb__pose_eval_nested(bb_pose *p, int anim, double time,
                               bb_affine fig, bb_error *err)
{
	static const bb_eval_options defaults;
	bb_track tr = { anim, 0, -1, 0, 0, 0 };

	reset(p, NULL);
	p->opts = &defaults;
	p->phys_step = 0;
	activate(p, &defaults);
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

int bb_pose_bone_active(const bb_pose *p, int bone)
{
	return bone >= 0 && bone < p->a->nbones && p->active[bone];
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

const char *bb_pose_slot_display_name(const bb_pose *p, int slot)
{
	if (slot < 0 || slot >= p->a->nslots || !p->shown[slot])
		return NULL;
	return p->shown[slot]->name;
}

const bb_drawlist *bb_pose_drawlist(const bb_pose *p)
{
	return &p->dl;
}
