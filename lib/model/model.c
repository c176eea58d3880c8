/* The shared model: construction helpers, queries, validation, freeing. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "model/model.h"

int bb_model_file_count(const bb_model *m)
{
	return m->nfiles;
}

const char *bb_model_file(const bb_model *m, int i)
{
	return i >= 0 && i < m->nfiles ? m->files[i] : NULL;
}

int bb_model_missing_count(const bb_model *m)
{
	return m->nmissing;
}

const char *bb_model_missing(const bb_model *m, int i)
{
	return i >= 0 && i < m->nmissing ? m->missing[i] : NULL;
}

int bb_model_warning_count(const bb_model *m)
{
	return m->nwarnings;
}

const char *bb_model_warning(const bb_model *m, int i)
{
	return (i >= 0 && i < m->nwarnings) ? m->warnings[i] : NULL;
}

int bb_model_event_count(const bb_model *m, int armature, int anim)
{
	if (armature < 0 || armature >= m->narmatures || anim < 0 ||
	    anim >= m->armatures[armature].nanims)
		return 0;
	return m->armatures[armature].anims[anim].nevents;
}

void bb_model_event(const bb_model *m, int armature, int anim, int i,
                    bb_event_info *out)
{
	const bb_event *e;

	memset(out, 0, sizeof *out);
	if (i < 0 || i >= bb_model_event_count(m, armature, anim))
		return;
	e = &m->armatures[armature].anims[anim].events[i];
	out->time = e->time;
	out->name = e->name;
	out->data = e->data;
	out->kind = e->kind == BB_EVENT_SOUND ? "sound" :
	            e->kind == BB_EVENT_ACTION ? "action" : "event";
}

size_t bb_model_texture_bytes(const bb_model *m)
{
	size_t n = 0;
	int i;

	for (i = 0; i < m->ntextures; i++)
		if (m->textures[i] && m->textures[i]->px)
			n += m->textures[i]->stride * (size_t)m->textures[i]->height;
	return n;
}

int bb__model_find_texture(const bb_model *m, const char *name)
{
	int i;

	for (i = 0; i < m->ntextures; i++)
		if (strcmp(m->texture_names[i], name) == 0)
			return i;
	return -1;
}

int bb__display_key(const bb_armature *a, const bb_display *d)
{
	return d->deform_from ? d->deform_from - 1 : (int)(d - a->displays);
}

bb_xform bb__xform_identity(void)
{
	bb_xform x = { 0, 0, 0, 0, 1, 1, 0 };
	return x;
}

bb_affine bb__xform_matrix(const bb_xform *x)
{
	bb_affine m;
	double r = x->rotation, k = x->rotation + x->skew;
	double rx = x->shear != 0 ? r + x->shear : r;

	m.a = cos(rx) * x->sx;
	m.b = sin(rx) * x->sx;
	m.c = -sin(k) * x->sy;
	m.d = cos(k) * x->sy;
	m.tx = x->x;
	m.ty = x->y;
	return m;
}

void bb__display_clear(bb_display *d)
{
	if (d->kind == BB_DISPLAY_MESH || d->kind == BB_DISPLAY_CLIP ||
	    d->kind == BB_DISPLAY_PATH) {
		free(d->u.mesh.lengths);
		free(d->u.mesh.verts);
		free(d->u.mesh.uvs);
		free(d->u.mesh.indices);
		free(d->u.mesh.wcount);
		free(d->u.mesh.wbone);
		free(d->u.mesh.wweight);
		free(d->u.mesh.wpos);
	}
	memset(&d->u, 0, sizeof d->u);
	d->kind = BB_DISPLAY_NONE;
}

static void free_display(bb_display *d)
{
	free(d->name);
	bb__display_clear(d);
}

static void free_armature(bb_armature *a)
{
	int i, j;

	free(a->name);
	for (i = 0; i < a->nbones; i++)
		free(a->bones[i].name);
	free(a->bones);
	for (i = 0; i < a->nslots; i++)
		free(a->slots[i].name);
	free(a->slots);
	for (i = 0; i < a->nskins; i++) {
		free(a->skins[i].name);
		free(a->skins[i].first);
		free(a->skins[i].count);
		free(a->skins[i].draw_order);
		free(a->skins[i].bones);
		free(a->skins[i].cons);
	}
	free(a->skins);
	for (i = 0; i < a->ndisplays; i++)
		free_display(&a->displays[i]);
	free(a->displays);
	for (i = 0; i < a->nanims; i++) {
		bb_anim *an = &a->anims[i];

		free(an->name);
		for (j = 0; j < an->ntimelines; j++) {
			free(an->timelines[j].times);
			free(an->timelines[j].values);
			free(an->timelines[j].interp);
		}
		free(an->timelines);
		free(an->tables);
		for (j = 0; j < an->nevents; j++) {
			free(an->events[j].name);
			free(an->events[j].data);
		}
		free(an->events);
	}
	free(a->anims);
	for (i = 0; i < a->nmasks; i++) {
		free(a->masks[i].name);
		free(a->masks[i].bones);
	}
	free(a->masks);
	for (i = 0; i < a->niks; i++)
		free(a->iks[i].name);
	free(a->iks);
	for (i = 0; i < a->ncons; i++) {
		free(a->cons[i].name);
		free(a->cons[i].bones);
	}
	free(a->cons);
	free(a->update);
	bb__solid_free(a->solid);
}

void bb_model_free(bb_model *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->narmatures; i++)
		free_armature(&m->armatures[i]);
	free(m->armatures);
	for (i = 0; i < m->ntextures; i++) {
		bb_image_free(m->textures[i]);
		free(m->texture_names[i]);
	}
	free(m->textures);
	free(m->texture_names);
	for (i = 0; i < m->nwarnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->source);
	for (i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	for (i = 0; i < m->nmissing; i++)
		free(m->missing[i]);
	free(m->missing);
	free(m);
}

/* ---- queries ---------------------------------------------------------- */

static const bb_armature *arm(const bb_model *m, int i)
{
	return (i >= 0 && i < m->narmatures) ? &m->armatures[i] : NULL;
}

const char *bb_model_source(const bb_model *m)
{
	return m->source ? m->source : "";
}

const char *bb_model_format(const bb_model *m)
{
	return m->format;
}

int bb_model_armature_count(const bb_model *m)
{
	return m->narmatures;
}

int bb_model_default_armature(const bb_model *m)
{
	return m->default_armature;
}

int bb_model_find_armature(const bb_model *m, const char *name)
{
	int i;

	for (i = 0; i < m->narmatures; i++)
		if (strcmp(m->armatures[i].name, name) == 0)
			return i;
	return -1;
}

void bb_model_armature_info(const bb_model *m, int armature,
                            bb_armature_info *out)
{
	const bb_armature *a = arm(m, armature);
	int i;

	memset(out, 0, sizeof *out);
	if (!a)
		return;
	out->name = a->name;
	out->fps = a->fps;
	out->bones = a->nbones;
	out->slots = a->nslots;
	out->skins = a->nskins;
	out->animations = a->nanims;
	out->masks = a->nmasks;
	out->overlay_mask = a->overlay_mask;
	out->iks = a->niks;
	for (i = 0; i < a->ncons; i++) {
		if (a->cons[i].kind == BB_CON_IK)
			out->iks++;
		else
			out->constraints++;
	}
	for (i = 0; i < a->nanims; i++)
		out->events += a->anims[i].nevents;
	for (i = 0; i < a->ndisplays; i++)
		if (a->displays[i].kind == BB_DISPLAY_MESH && !a->displays[i].inherited &&
		    !a->displays[i].deform_from)
			out->meshes++;
}

int bb_model_anim_count(const bb_model *m, int armature)
{
	const bb_armature *a = arm(m, armature);

	return a ? a->nanims : 0;
}

int bb_model_find_anim(const bb_model *m, int armature, const char *name)
{
	const bb_armature *a = arm(m, armature);
	int i;

	for (i = 0; a && i < a->nanims; i++)
		if (strcmp(a->anims[i].name, name) == 0)
			return i;
	return -1;
}

void bb_model_anim_info(const bb_model *m, int armature, int anim,
                        bb_anim_info *out)
{
	const bb_armature *a = arm(m, armature);
	const bb_anim *an;
	int i;

	memset(out, 0, sizeof *out);
	if (!a || anim < 0 || anim >= a->nanims)
		return;
	an = &a->anims[anim];
	out->name = an->name;
	out->duration = an->duration;
	out->loop = an->loop;
	out->layer = an->layer;
	out->fps = an->fps > 0 ? an->fps : a->fps;
	out->has_stage = an->has_stage;
	out->stage_w = an->stage_w;
	out->stage_h = an->stage_h;
	out->stage_x = an->stage_x;
	out->stage_y = an->stage_y;
	out->setup_pose = an->setup;
	out->timelines = an->ntimelines;
	for (i = 0; i < an->ntimelines; i++)
		out->keys += an->timelines[i].nkeys;
}

int bb_model_bone_count(const bb_model *m, int armature)
{
	const bb_armature *a = arm(m, armature);

	return a ? a->nbones : 0;
}

const char *bb_model_bone_name(const bb_model *m, int armature, int bone)
{
	const bb_armature *a = arm(m, armature);

	return (a && bone >= 0 && bone < a->nbones) ? a->bones[bone].name : NULL;
}

int bb_model_bone_parent(const bb_model *m, int armature, int bone)
{
	const bb_armature *a = arm(m, armature);

	return (a && bone >= 0 && bone < a->nbones) ? a->bones[bone].parent : -1;
}

int bb_model_find_bone(const bb_model *m, int armature, const char *name)
{
	const bb_armature *a = arm(m, armature);
	int i;

	for (i = 0; a && i < a->nbones; i++)
		if (strcmp(a->bones[i].name, name) == 0)
			return i;
	return -1;
}

int bb_model_slot_count(const bb_model *m, int armature)
{
	const bb_armature *a = arm(m, armature);

	return a ? a->nslots : 0;
}

const char *bb_model_slot_name(const bb_model *m, int armature, int slot)
{
	const bb_armature *a = arm(m, armature);

	return (a && slot >= 0 && slot < a->nslots) ? a->slots[slot].name : NULL;
}

int bb_model_find_slot(const bb_model *m, int armature, const char *name)
{
	const bb_armature *a = arm(m, armature);
	int i;

	for (i = 0; a && i < a->nslots; i++)
		if (strcmp(a->slots[i].name, name) == 0)
			return i;
	return -1;
}

int bb_model_find_slot_display(const bb_model *m, int armature, int slot,
                               const char *name)
{
	const bb_armature *a = arm(m, armature);
	const bb_skin *s;
	int i;

	if (!a || slot < 0 || slot >= a->nslots || a->nskins == 0)
		return -1;
	s = &a->skins[0];
	for (i = 0; i < s->count[slot]; i++) {
		const bb_display *d = &a->displays[s->first[slot] + i];

		if (d->name && strcmp(d->name, name) == 0)
			return i;
	}
	return -1;
}

int bb_model_skin_count(const bb_model *m, int armature)
{
	const bb_armature *a = arm(m, armature);

	return a ? a->nskins : 0;
}

const char *bb_model_skin_name(const bb_model *m, int armature, int skin)
{
	const bb_armature *a = arm(m, armature);

	return (a && skin >= 0 && skin < a->nskins) ? a->skins[skin].name : NULL;
}

int bb_model_find_skin(const bb_model *m, int armature, const char *name)
{
	const bb_armature *a = arm(m, armature);
	int i;

	for (i = 0; a && i < a->nskins; i++)
		if (strcmp(a->skins[i].name, name) == 0)
			return i;
	return -1;
}

int bb_model_find_mask(const bb_model *m, int armature, const char *name)
{
	const bb_armature *a = arm(m, armature);
	int i;

	for (i = 0; a && i < a->nmasks; i++)
		if (strcmp(a->masks[i].name, name) == 0)
			return i;
	return -1;
}

const char *bb_model_mask_name(const bb_model *m, int armature, int mask)
{
	const bb_armature *a = arm(m, armature);

	return (a && mask >= 0 && mask < a->nmasks) ? a->masks[mask].name : NULL;
}

/* ---- validation ------------------------------------------------------- */

static bb_status bad(bb_error *err, const char *file, const char *what, int i)
{
	return bb_error_set(err, BB_ERR_INTERNAL, file, NULL,
	                    "loader produced an invalid model: %s %d", what, i);
}

static int timeline_ok(const bb_armature *a, const bb_timeline *t)
{
	const bb_display *d;
	int k, i;

	if (t->nkeys < 1 || t->stride < 1 || (int)t->prop < 0 ||
	    t->prop >= BB_PROP_COUNT)
		return 0;
	switch (t->target) {
	case BB_TL_BONE:
		return t->index >= 0 && t->index < a->nbones && t->stride == 1;
	case BB_TL_SLOT_DISPLAY:
		return t->index >= 0 && t->index < a->nslots && t->stride == 1;
	case BB_TL_SLOT_COLOR:
		return t->index >= 0 && t->index < a->nslots && t->stride == 8;
	case BB_TL_FIGURE:
		return t->index == 0 && t->stride == 1;
	case BB_TL_IK:
		return t->index >= 0 && t->index < a->niks && t->stride == 1 &&
		       (t->prop == BB_PROP_X || t->prop == BB_PROP_Y);
	case BB_TL_DRAW_ORDER:
		if (t->index != 0 || t->stride != a->nslots)
			return 0;
		for (k = 0; k < t->nkeys * t->stride; k++)
			if (t->values[k] < 0 || t->values[k] >= a->nslots ||
			    t->values[k] != (int)t->values[k])
				return 0;
		return 1;
	case BB_TL_DEFORM:
		if (t->index < 0 || t->index >= a->nslots)
			return 0;
		if (t->display == BB_DEFORM_ANY_IMAGE)
			return t->stride == 8;
		if (t->display < 0 || t->display >= a->ndisplays)
			return 0;
		d = &a->displays[t->display];
		if (d->kind == BB_DISPLAY_IMAGE)
			return t->stride == 8;
		if (d->kind != BB_DISPLAY_MESH && d->kind != BB_DISPLAY_CLIP &&
		    d->kind != BB_DISPLAY_PATH)
			return 0;
		i = d->u.mesh.wcount ? d->u.mesh.ninfluences : d->u.mesh.nverts;
		return t->stride == 2 * i;
	case BB_TL_VERTEX_COLOR:
		if (t->index < 0 || t->index >= a->nslots || t->stride != 17)
			return 0;
		for (k = 0; k < t->nkeys; k++)
			if (t->values[k * 17] < 0 || t->values[k * 17] > 3 ||
			    t->values[k * 17] != (int)t->values[k * 17])
				return 0;
		return 1;
	case BB_TL_JOINT:
		return a->solid && t->index >= 0 && t->index < a->solid->njoints &&
		       t->stride == 1 && t->jvar >= 0 && t->jvar < BB_JV_COUNT;
	case BB_TL_BONE_INHERIT:
		if (t->index < 0 || t->index >= a->nbones || t->stride != 1)
			return 0;
		for (k = 0; k < t->nkeys; k++)
			if (!(t->values[k] >= BB_INHERIT_MATRIX &&
			      t->values[k] <= BB_INHERIT_NO_SCALE_OR_REFLECTION) ||
			    t->values[k] == BB_INHERIT_FLAGS ||
			    t->values[k] == BB_INHERIT_COMPONENTWISE)
				return 0;
		return 1;
	case BB_TL_SLOT_TINT:
		for (k = 0, i = 0; k < 7; k++)
			i += (t->channels >> k) & 1;
		return t->index >= 0 && t->index < a->nslots && t->stride == i &&
		       t->channels < 256;
	case BB_TL_CONSTRAINT:
		return t->index >= 0 && t->index < a->ncons && t->param >= 0 &&
		       t->param <= BB_CP_MAX - t->stride;
	case BB_TL_SEQUENCE:
		if (t->index < 0 || t->index >= a->nslots || t->stride != 3 ||
		    t->display < 0 || t->display >= a->ndisplays ||
		    a->displays[t->display].seq_count < 1)
			return 0;
		for (k = 0; k < t->nkeys; k++)
			if (!(t->values[3 * k] >= 0 && t->values[3 * k] <= BB_SEQ_PINGPONG_REVERSE) ||
			    !(fabs(t->values[3 * k + 1]) < 1e9) ||
			    !(fabs(t->values[3 * k + 2]) < 1e9))
				return 0;
		return 1;
	case BB_TL_PHYSICS_RESET:
		return t->index >= -1 && t->index < a->ncons && t->stride == 1 &&
		       (t->index < 0 || a->cons[t->index].kind == BB_CON_PHYSICS);
	}
	return 0;
}

static bb_status validate_anim(const bb_armature *a, const bb_anim *an,
                               const char *file, bb_error *err)
{
	int j, k;

	if (!(an->duration >= 0) || !isfinite(an->duration))
		return bad(err, file, "animation duration", 0);
	for (j = 0; j < an->ntimelines; j++) {
		const bb_timeline *t = &an->timelines[j];

		if (!timeline_ok(a, t) || t->time_scale < 0 || !isfinite(t->time_scale) ||
		    !isfinite(t->time_offset))
			return bad(err, file, "timeline", j);
		for (k = 0; k < t->nkeys; k++) {
			const bb_interp *ip = &t->interp[k];

			if (k && t->times[k] < t->times[k - 1])
				return bad(err, file, "key order in timeline", j);
			if ((ip->kind == BB_INTERP_TABLE || ip->kind == BB_INTERP_TWEEN ||
			     ip->kind == BB_INTERP_BEZIER ||
			     ip->kind == BB_INTERP_BEZIER_PERCENT) &&
			    (ip->table < 0 || ip->ntable < 0 ||
			     ip->table > an->ntables - ip->ntable))
				return bad(err, file, "curve table in timeline", j);
			if ((ip->kind == BB_INTERP_BEZIER && ip->ntable != 18 * t->stride) ||
			    (ip->kind == BB_INTERP_BEZIER_PERCENT && ip->ntable != 18))
				return bad(err, file, "Bezier curve in timeline", j);
		}
	}
	for (j = 1; j < an->nevents; j++)
		if (an->events[j].time < an->events[j - 1].time)
			return bad(err, file, "event order", j);
	return BB_OK;
}

static bb_status validate_mesh(const bb_model *m, const bb_armature *a,
                               const bb_display *d, const char *file,
                               bb_error *err, int j)
{
	int k, total = 0;

	if ((d->kind == BB_DISPLAY_MESH &&
	     (d->u.mesh.texture < 0 || d->u.mesh.texture >= m->ntextures)) ||
	    d->u.mesh.nverts < 0 || d->u.mesh.nindices % 3 != 0 ||
	    (d->kind != BB_DISPLAY_MESH && d->u.mesh.nindices != 0) ||
	    (d->kind == BB_DISPLAY_CLIP &&
	     (d->u.mesh.clip_end < -1 || d->u.mesh.clip_end >= a->nslots)) ||
	    (d->kind == BB_DISPLAY_PATH &&
	     (d->u.mesh.nverts % 3 != 0 || d->u.mesh.nlengths < 0 ||
	      (d->u.mesh.nlengths && !d->u.mesh.lengths))))
		return bad(err, file, "mesh display", j);
	for (k = 0; k < d->u.mesh.nindices; k++)
		if (d->u.mesh.indices[k] < 0 || d->u.mesh.indices[k] >= d->u.mesh.nverts)
			return bad(err, file, "mesh index", k);
	if (!d->u.mesh.wcount)
		return BB_OK;
	for (k = 0; k < d->u.mesh.nverts; k++) {
		if (d->u.mesh.wcount[k] < 0)
			return bad(err, file, "mesh weight count", k);
		total += d->u.mesh.wcount[k];
	}
	if (total != d->u.mesh.ninfluences)
		return bad(err, file, "mesh influence total", j);
	for (k = 0; k < total; k++)
		if (d->u.mesh.wbone[k] < 0 || d->u.mesh.wbone[k] >= a->nbones)
			return bad(err, file, "mesh weight bone", k);
	return BB_OK;
}

/* 0, or 1 + the first bad constraint, or 1 + ncons for a bad update
 * order (every bone at least once, each after an update of its parent). */
static int validate_constraints(const bb_armature *a)
{
	int i, k;

	for (i = 0; i < a->ncons; i++) {
		const bb_constraint *c = &a->cons[i];

		if ((int)c->kind < 0 || c->kind > BB_CON_PHYSICS || c->nbones < 1 ||
		    !c->bones)
			return i + 1;
		for (k = 0; k < c->nbones; k++)
			if (c->bones[k] < 0 || c->bones[k] >= a->nbones)
				return i + 1;
		switch (c->kind) {
		case BB_CON_IK:
			if (c->nbones > 2 || c->target < 0 || c->target >= a->nbones ||
			    a->bones[c->bones[0]].parent < 0 ||
			    (c->nbones == 2 && (a->bones[c->bones[1]].parent != c->bones[0] ||
			                        a->bones[c->bones[0]].parent < 0)))
				return i + 1;
			break;
		case BB_CON_TRANSFORM:
			if (c->target < 0 || c->target >= a->nbones)
				return i + 1;
			for (k = 0; c->u.tc.local && k < c->nbones; k++)
				if (a->bones[c->bones[k]].parent < 0)
					return i + 1;
			break;
		case BB_CON_PATH:
			if (c->target < 0 || c->target >= a->nslots)
				return i + 1;
			break;
		case BB_CON_PHYSICS:
			if (c->nbones != 1 || !(c->u.phys.step > 0))
				return i + 1;
			break;
		}
	}
	for (i = 0; i < a->nupdate; i++) {
		const bb_update *u = &a->update[i];

		if (u->index < 0 || u->index >= (u->constraint ? a->ncons : a->nbones))
			return a->ncons + 1;
		if (!u->constraint && a->bones[u->index].parent >= 0) {
			for (k = 0; k < i; k++)
				if (!a->update[k].constraint &&
				    a->update[k].index == a->bones[u->index].parent)
					break;
			if (k == i)
				return a->ncons + 1;
		}
	}
	for (i = 0; a->nupdate && i < a->nbones; i++) {
		for (k = 0; k < a->nupdate; k++)
			if (!a->update[k].constraint && a->update[k].index == i)
				break;
		if (k == a->nupdate)
			return a->ncons + 1;
	}
	return 0;
}

bb_status bb__model_validate(const bb_model *m, const char *file, bb_error *err)
{
	int i, j, k;

	if (m->narmatures < 1 || m->default_armature < 0 ||
	    m->default_armature >= m->narmatures)
		return bad(err, file, "armature count", m->narmatures);
	for (i = 0; i < m->narmatures; i++) {
		const bb_armature *a = &m->armatures[i];

		for (j = 0; j < a->nbones; j++)
			if (a->bones[j].parent < -1 || a->bones[j].parent >= j)
				return bad(err, file, "bone parent", j);
		for (j = 0; j < a->nslots; j++)
			if (a->slots[j].bone < 0 || a->slots[j].bone >= a->nbones)
				return bad(err, file, "slot bone", j);
		for (j = 0; j < a->nskins; j++) {
			const bb_skin *s = &a->skins[j];

			for (k = 0; k < a->nslots; k++)
				if (s->count[k] < 0 || s->first[k] < 0 ||
				    s->first[k] > a->ndisplays - s->count[k])
					return bad(err, file, "skin display run", k);
			for (k = 0; s->draw_order && k < a->nslots; k++)
				if (s->draw_order[k] < 0 || s->draw_order[k] >= a->nslots)
					return bad(err, file, "draw order entry", k);
		}
		for (j = 0; j < a->ndisplays; j++) {
			const bb_display *d = &a->displays[j];

			if ((d->has_blend && ((int)d->blend < 0 ||
			                      d->blend > BB_BLEND_SUBTRACT)) ||
			    (d->kind == BB_DISPLAY_IMAGE &&
			     (d->u.image.texture < 0 || d->u.image.texture >= m->ntextures)) ||
			    (d->kind == BB_DISPLAY_ARMATURE &&
			     (d->u.armature.armature < 0 ||
			      d->u.armature.armature >= m->narmatures ||
			      d->u.armature.armature == i ||
			      d->u.armature.anim < -1 ||
			      d->u.armature.anim >=
			      m->armatures[d->u.armature.armature].nanims)))
				return bad(err, file, "display reference", j);
			if (d->kind == BB_DISPLAY_MESH || d->kind == BB_DISPLAY_CLIP ||
			    d->kind == BB_DISPLAY_PATH) {
				bb_status s = validate_mesh(m, a, d, file, err, j);

				if (s != BB_OK)
					return s;
			}
			if (d->deform_from < 0 || d->deform_from > a->ndisplays ||
			    d->seq_count < 0 || d->seq_first < 0 ||
			    d->seq_first > a->ndisplays - d->seq_count ||
			    (d->seq_count && (d->seq_setup < 0 || d->seq_setup >= d->seq_count)))
				return bad(err, file, "display link", j);
			for (k = 0; k < d->seq_count; k++) {
				const bb_display *f = &a->displays[d->seq_first + k];

				if (f->seq_count || (f->kind != BB_DISPLAY_IMAGE &&
				                     f->kind != BB_DISPLAY_MESH))
					return bad(err, file, "sequence frame of display", j);
			}
		}
		if (validate_constraints(a) != 0)
			return bad(err, file, "constraint", validate_constraints(a) - 1);
		for (j = 0; j < a->niks; j++) {
			const bb_ik *ik = &a->iks[j];

			if (ik->bone < 0 || ik->bone >= a->nbones || ik->target < 0 ||
			    ik->target >= a->nbones || ik->chain < 0 || ik->chain > 1 ||
			    (ik->chain && a->bones[ik->bone].parent < 0))
				return bad(err, file, "IK constraint", j);
		}
		if (a->nanims > 0 && (a->default_anim < 0 || a->default_anim >= a->nanims))
			return bad(err, file, "default animation", a->default_anim);
		if (a->overlay_mask < -1 || a->overlay_mask >= a->nmasks)
			return bad(err, file, "overlay mask", a->overlay_mask);
		if (a->solid && !bb__solid_valid(a->solid, m))
			return bad(err, file, "solid of armature", i);
		for (j = 0; j < a->nanims; j++) {
			bb_status s = validate_anim(a, &a->anims[j], file, err);

			if (s != BB_OK)
				return s;
		}
	}
	return BB_OK;
}
