/* Pose -> draw list: slot displays in paint order, optional bone markers,
 * and the bounds of what a draw list paints. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/util.h"
#include "eval/pose.h"
#include "eval/solid.h"

static bb_status nomem(bb_error *err)
{
	return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
}

/* Appends an item; its vertex storage (n verts + n uvs) is reserved in
 * vbuf and addressed by offset until the list is complete. */
static bb_draw_item *push(bb_pose *p, size_t nverts, bb_vec2 **verts,
                          bb_vec2 **uvs)
{
	bb_draw_item *it;

	if (!bb__grow((void **)&p->items, &p->items_cap, p->nitems + 1,
	              sizeof *p->items) ||
	    !bb__grow((void **)&p->voff, &p->voff_cap, p->nitems + 1,
	              sizeof *p->voff) ||
	    !bb__grow((void **)&p->vbuf, &p->vcap, p->nv + 2 * nverts,
	              sizeof *p->vbuf))
		return NULL;
	it = &p->items[p->nitems];
	memset(it, 0, sizeof *it);
	it->color = bb_color_xform_identity();
	it->blend = BB_BLEND_NORMAL;
	it->nverts = (int)nverts;
	p->voff[p->nitems] = p->nv;
	/* no vertices: nothing allocated yet may be all there is (NULL) */
	if (verts)
		*verts = nverts ? p->vbuf + p->nv : NULL;
	if (uvs)
		*uvs = nverts ? p->vbuf + p->nv + nverts : NULL;
	p->nv += 2 * nverts;
	p->nitems++;
	return it;
}

bb_draw_item *bb__drawlist_push(bb_pose *p, size_t nverts, bb_vec2 **verts,
                                bb_vec2 **uvs)
{
	return push(p, nverts, verts, uvs);
}

const bb_display *bb__slot_display(const bb_pose *p, int slot)
{
	const bb_armature *a = p->a;
	const bb_eval_options *o = p->opts;
	const bb_skin *sk = a->nskins ? &a->skins[o ? o->skin : 0] : NULL;
	const bb_display *d;
	int idx = p->display[slot], k;

	if (!sk || idx < 0 || sk->count[slot] == 0)
		return NULL;
	if (idx >= sk->count[slot])   /* past the end: the last display */
		idx = sk->count[slot] - 1;
	d = &a->displays[sk->first[slot] + idx];
	for (k = o ? o->n_more_skins - 1 : -1; k >= 0; k--) {
		const bb_skin *lk = &a->skins[o->more_skins[k]];
		const bb_display *ld;

		if (idx >= lk->count[slot])
			continue;
		ld = &a->displays[lk->first[slot] + idx];
		if (!ld->inherited) {
			d = ld;
			break;
		}
	}
	return d;
}

/* The frame of a sequence display the slot shows. */
static const bb_display *sequence_frame(const bb_pose *p, int slot,
                                        const bb_display *d)
{
	int idx = p->seq_disp[slot] == bb__display_key(p->a, d) ? p->seq_index[slot] : -1;

	if (idx < 0)
		idx = d->seq_setup;
	if (idx >= d->seq_count)
		idx = d->seq_count - 1;
	return &p->a->displays[d->seq_first + idx];
}

const double *bb__slot_deform(const bb_pose *p, int slot, const bb_display *d)
{
	return p->deform_disp[slot] == bb__display_key(p->a, d)
	       ? p->deform + p->deform_off[slot] : NULL;
}

int bb__first_influence(const bb_display *d, int i)
{
	int v, w = 0;

	if (d->u.mesh.wcount)
		for (v = 0; v < i; v++)
			w += d->u.mesh.wcount[v];
	return w;
}

bb_vec2 bb__mesh_vertex(const bb_pose *p, const bb_display *d, const double *def,
                        bb_affine m, int i, int *w)
{
	double x = 0, y = 0;
	bb_vec2 q;
	int k;

	if (!d->u.mesh.wcount) {
		x = d->u.mesh.verts[i].x;
		y = d->u.mesh.verts[i].y;
		if (def) {
			x += def[2 * i];
			y += def[2 * i + 1];
		}
		return bb_affine_apply(m, x, y);
	}
	for (k = 0; k < d->u.mesh.wcount[i]; k++, (*w)++) {
		double lx = d->u.mesh.wpos[*w].x, ly = d->u.mesh.wpos[*w].y;

		if (def) {
			lx += def[2 * *w];
			ly += def[2 * *w + 1];
		}
		q = bb_affine_apply(p->world[d->u.mesh.wbone[*w]], lx, ly);
		x += q.x * d->u.mesh.wweight[*w];
		y += q.y * d->u.mesh.wweight[*w];
	}
	q.x = x;
	q.y = y;
	return q;
}

/* Mesh vertices in world space (bb__mesh_vertex). */
static void mesh_vertices(const bb_pose *p, int slot, const bb_display *d,
                          bb_affine m, bb_vec2 *v)
{
	const double *def = bb__slot_deform(p, slot, d);
	int i, w = 0;

	for (i = 0; i < d->u.mesh.nverts; i++)
		v[i] = bb__mesh_vertex(p, d, def, m, i, &w);
}

/* An image display's corners in world space, moved by the slot's corner
 * offsets when a deform timeline set them for this display. */
static void image_vertices(const bb_pose *p, int slot, const bb_display *d,
                           bb_affine m, bb_vec2 *v)
{
	int dd = p->deform_disp[slot];
	const double *def = (dd == BB_DEFORM_ANY_IMAGE ||
	                     dd == (int)(d - p->a->displays))
	                    ? p->deform + p->deform_off[slot] : NULL;
	int i;

	for (i = 0; i < 4; i++) {
		double x = d->u.image.corners[i].x, y = d->u.image.corners[i].y;

		if (def) {
			x += def[2 * i];
			y += def[2 * i + 1];
		}
		v[i] = bb_affine_apply(m, x, y);
	}
}

static bb_status emit_nested(bb_pose *p, int slot, const bb_display *d,
                             bb_affine m, bb_error *err)
{
	const bb_armature *ca = &p->m->armatures[d->u.armature.armature];
	int anim = d->u.armature.anim >= 0 ? d->u.armature.anim : ca->default_anim;
	bb_pose *child;
	bb_status s;
	int i, k;

	if (p->depth + 1 >= BB_MAX_NESTING)
		return BB_OK;   /* nesting too deep (a cycle): draw nothing */
	if ((s = bb__child_pose(p, slot, d->u.armature.armature, &child, err)) != BB_OK)
		return s;
	/* the child plays on the figure's clock */
	if ((s = bb__pose_eval_nested(child, ca->nanims ? anim : -1, p->anim_time,
	                              m, err)) != BB_OK)
		return s;
	for (i = 0; i < child->dl.count; i++) {
		const bb_draw_item *ci = &child->dl.items[i];
		bb_draw_item *it;
		bb_vec2 *v, *uv;

		if (!(it = push(p, (size_t)ci->nverts, &v, &uv)))
			return nomem(err);
		*it = *ci;
		it->slot = slot;
		it->color = bb_color_xform_concat(p->color[slot], ci->color);
		for (k = 0; k < ci->nverts; k++) {
			v[k] = ci->verts[k];
			uv[k] = ci->uvs[k];
		}
	}
	return BB_OK;
}

static bb_status emit_display(bb_pose *p, int slot, const bb_display *d,
                              bb_error *err)
{
	const bb_slot *sl = &p->a->slots[slot];
	bb_affine m = bb_affine_mul(p->world[sl->bone], d->local);
	bb_draw_item *it;
	bb_vec2 *v, *uv;
	int i;

	switch (d->kind) {
	case BB_DISPLAY_NONE:
	case BB_DISPLAY_PATH:
		return BB_OK;
	case BB_DISPLAY_CLIP:
		if (!(it = push(p, (size_t)d->u.mesh.nverts, &v, &uv)))
			return nomem(err);
		it->kind = BB_DRAW_CLIP;
		mesh_vertices(p, slot, d, m, v);
		for (i = 0; i < d->u.mesh.nverts; i++)
			uv[i] = v[i];
		it->slot = slot;
		return BB_OK;
	case BB_DISPLAY_ARMATURE:
		return emit_nested(p, slot, d, m, err);
	case BB_DISPLAY_RECT:
		if (!(it = push(p, 0, NULL, NULL)))
			return nomem(err);
		it->kind = BB_DRAW_RECT;
		it->m = m;
		it->w = d->u.rect.w;
		it->h = d->u.rect.h;
		it->radius = d->u.rect.radius;
		it->fill = d->u.rect.color;
		break;
	case BB_DISPLAY_IMAGE:
		if (!(it = push(p, 4, &v, &uv)))
			return nomem(err);
		it->kind = BB_DRAW_QUAD;
		it->texture = p->m->textures[d->u.image.texture];
		image_vertices(p, slot, d, m, v);
		for (i = 0; i < 4; i++)
			uv[i] = d->u.image.uvs[i];
		if (p->vcolor_blend[slot] >= 0) {
			it->vcolors = p->vcolor + 4 * slot;
			it->vcolor_blend = (bb_vcolor_blend)p->vcolor_blend[slot];
		}
		break;
	case BB_DISPLAY_MESH:
		if (!(it = push(p, (size_t)d->u.mesh.nverts, &v, &uv)))
			return nomem(err);
		it->kind = BB_DRAW_MESH;
		it->texture = p->m->textures[d->u.mesh.texture];
		mesh_vertices(p, slot, d, m, v);
		for (i = 0; i < d->u.mesh.nverts; i++)
			uv[i] = d->u.mesh.uvs[i];
		it->nindices = d->u.mesh.nindices;
		it->indices = d->u.mesh.indices;
		break;
	}
	it = &p->items[p->nitems - 1];
	it->slot = slot;
	it->blend = d->has_blend ? d->blend : sl->blend;
	it->color = p->color[slot];
	if (d->has_tint) {
		it->color.mul.r *= d->tint.r;
		it->color.mul.g *= d->tint.g;
		it->color.mul.b *= d->tint.b;
		it->color.mul.a *= d->tint.a;
	}
	it->outline = d->outline;
	return BB_OK;
}

/* A clip display starts a clip (unless one is running: clips do not
 * nest); it ends after its end slot, or with the list. */
static bb_status emit_slot(bb_pose *p, int slot, int *clip_end, int *clipping,
                           bb_error *err)
{
	const bb_display *d = p->active[p->a->slots[slot].bone]
	                      ? bb__slot_display(p, slot) : NULL;
	bb_draw_item *it;
	bb_status s = BB_OK;

	p->shown[slot] = d;
	if (d && d->kind == BB_DISPLAY_CLIP) {
		if (*clipping)
			return BB_OK;
		s = emit_display(p, slot, d, err);
		*clipping = 1;
		*clip_end = d->u.mesh.clip_end;
		return s;
	}
	if (d) {
		if (d->seq_count)
			d = sequence_frame(p, slot, d);
		s = emit_display(p, slot, d, err);
	}
	if (s == BB_OK && *clipping && *clip_end == slot) {
		if (!(it = push(p, 0, NULL, NULL)))
			return nomem(err);
		it->kind = BB_DRAW_CLIP_END;
		it->slot = slot;
		*clipping = 0;
	}
	return s;
}

/* A marker rectangle from a to b (a line) or centred at a (a joint). */
static bb_status marker(bb_pose *p, bb_vec2 a, bb_vec2 b, double thick,
                        bb_rgba color, bb_error *err)
{
	bb_draw_item *it = push(p, 0, NULL, NULL);
	double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);

	if (!it)
		return nomem(err);
	it->kind = BB_DRAW_RECT;
	it->slot = -1;
	it->m = bb_affine_identity();
	if (len > 0) {
		it->m.a = dx / len;
		it->m.b = dy / len;
		it->m.c = -dy / len;
		it->m.d = dx / len;
	}
	it->m.tx = (a.x + b.x) / 2;
	it->m.ty = (a.y + b.y) / 2;
	it->w = len > 0 ? len : thick;
	it->h = thick;
	it->radius = thick / 2;
	it->fill = color;
	return BB_OK;
}

static bb_status bone_markers(bb_pose *p, bb_error *err)
{
	static const bb_rgba line = { 1, 0.85, 0.1, 0.85 };
	static const bb_rgba joint = { 0.9, 0.15, 0.15, 0.95 };
	const bb_armature *a = p->a;
	bb_status s;
	int i;

	for (i = 0; i < a->nbones; i++) {
		int par = a->bones[i].parent;
		bb_vec2 from, to;

		if (par < 0)
			continue;
		from = (bb_vec2){ p->world[par].tx, p->world[par].ty };
		to = (bb_vec2){ p->world[i].tx, p->world[i].ty };
		if ((s = marker(p, from, to, 2, line, err)) != BB_OK)
			return s;
	}
	for (i = 0; i < a->nbones; i++) {
		bb_vec2 at = { p->world[i].tx, p->world[i].ty };

		if ((s = marker(p, at, at, 5, joint, err)) != BB_OK)
			return s;
	}
	return BB_OK;
}

bb_status bb__build_drawlist(bb_pose *p, const bb_eval_options *o, bb_error *err)
{
	const bb_armature *a = p->a;
	const bb_skin *sk = a->nskins ? &a->skins[o->skin] : NULL;
	bb_draw_item *it;
	bb_status s;
	size_t k;
	int i, clipping = 0, clip_end = -1;

	p->nitems = 0;
	p->nv = 0;
	p->opts = o;
	if (!p->order_set)
		for (i = 0; i < a->nslots; i++)
			p->order[i] = (sk && sk->draw_order) ? sk->draw_order[i] : i;
	for (i = 0; i < a->nslots; i++)
		p->shown[i] = NULL;
	for (i = 0; sk && i < a->nslots; i++)
		if ((s = emit_slot(p, p->order[i], &clip_end, &clipping, err)) != BB_OK)
			return s;
	if (clipping) {
		if (!(it = push(p, 0, NULL, NULL)))
			return nomem(err);
		it->kind = BB_DRAW_CLIP_END;
		it->slot = -1;
	}
	if (a->solid && (s = bb__solid_emit(p, o, err)) != BB_OK)
		return s;
	if (o->show_bones && (s = bone_markers(p, err)) != BB_OK)
		return s;
	for (k = 0; k < p->nitems; k++) {
		it = &p->items[k];
		if (it->nverts) {
			it->verts = p->vbuf + p->voff[k];
			it->uvs = it->verts + it->nverts;
		}
	}
	p->dl.count = (int)p->nitems;
	p->dl.items = p->items;
	return BB_OK;
}

bb_bounds bb_drawlist_bounds(const bb_drawlist *dl)
{
	bb_bounds b = bb_bounds_empty();
	int i, k;

	for (i = 0; i < dl->count; i++) {
		const bb_draw_item *it = &dl->items[i];

		if (it->kind == BB_DRAW_RECT) {
			double hw = it->w / 2, hh = it->h / 2;
			static const int sx[4] = { -1, 1, 1, -1 }, sy[4] = { -1, -1, 1, 1 };

			if (it->fill.a <= 0 && it->color.add.a <= 0)
				continue;
			for (k = 0; k < 4; k++) {
				bb_vec2 v = bb_affine_apply(it->m, sx[k] * hw, sy[k] * hh);
				bb_bounds_add(&b, v.x, v.y);
			}
		} else if (it->kind != BB_DRAW_CLIP && it->kind != BB_DRAW_CLIP_END) {
			for (k = 0; k < it->nverts; k++)
				bb_bounds_add(&b, it->verts[k].x, it->verts[k].y);
		}
	}
	return b;
}
