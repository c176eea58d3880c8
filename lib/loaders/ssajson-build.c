/* SSAJSON -> the shared model: one slot (on its own root bone) per record
 * position, an image display per distinct look of a slot, stepped
 * timelines per animation.  The mapping is described in ssajson.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/ssajson.h"

/* ---- displays: one per distinct look of a slot --------------------------- */

static size_t key_hash(const struct dkey *k)
{
	const unsigned char *b = (const unsigned char *)k;
	uint64_t h = 1469598103934665603u;
	size_t i;

	for (i = 0; i < sizeof *k; i++)
		h = (h ^ b[i]) * 1099511628211u;
	return (size_t)h;
}

static int rehash(struct ssa *s, size_t n)
{
	size_t i, h;
	int *b = bb__calloc(n, sizeof *b);

	if (!b)
		return 0;
	for (i = 0; i < n; i++)
		b[i] = -1;
	for (i = 0; i < s->nk; i++) {
		for (h = key_hash(&s->keys[i]) & (n - 1); b[h] >= 0; h = (h + 1) & (n - 1))
			;
		b[h] = (int)i;
	}
	free(s->bucket);
	s->bucket = b;
	s->nbucket = n;
	return 1;
}

/* Index of key k in its slot's run of displays (added when new), or -1. */
static int intern(struct ssa *s, const struct dkey *k)
{
	size_t h;
	int *local;

	if (2 * (s->nk + 1) > s->nbucket && !rehash(s, s->nbucket ? 2 * s->nbucket : 64))
		return -1;
	for (h = key_hash(k) & (s->nbucket - 1); s->bucket[h] >= 0;
	     h = (h + 1) & (s->nbucket - 1))
		if (memcmp(&s->keys[s->bucket[h]], k, sizeof *k) == 0)
			return s->local[s->bucket[h]];
	if (!bb__grow((void **)&s->keys, &s->kcap, s->nk + 1, sizeof *s->keys) ||
	    !(local = bb__realloc_array(s->local, s->kcap, sizeof *s->local)))
		return -1;
	s->local = local;
	s->keys[s->nk] = *k;
	s->local[s->nk] = s->count[k->slot]++;
	s->bucket[h] = (int)s->nk++;
	return s->local[s->nk - 1];
}

static bb_blend blend_of(int b)
{
	static const bb_blend map[4] = { BB_BLEND_NORMAL, BB_BLEND_MULTIPLY,
	                                 BB_BLEND_ADD, BB_BLEND_SUBTRACT };

	return map[b & 3];
}

/* The spec's quad (section 4): corners of the unflipped source rectangle
 * minus the pivot, TL TR BR BL; a flip mirrors the image about the cell
 * centre, i.e. swaps the texture coordinates of opposite corners. */
static void make_display(const struct ssa *s, const struct dkey *k,
                         bb_display *d)
{
	static const int cx[4] = { 0, 1, 1, 0 }, cy[4] = { 0, 0, 1, 1 };
	int i;

	memset(d, 0, sizeof *d);
	d->kind = BB_DISPLAY_IMAGE;
	d->local = bb_affine_identity();
	d->has_blend = 1;
	d->blend = blend_of(k->blend);
	d->outline = s->missing[k->tex];
	d->u.image.texture = k->tex;
	for (i = 0; i < 4; i++) {
		d->u.image.corners[i] = (bb_vec2){ cx[i] * k->src[2] - k->ox,
		                                   cy[i] * k->src[3] - k->oy };
		d->u.image.uvs[i] = (bb_vec2){
			k->src[0] + k->src[2] * (k->fh ? 1 - cx[i] : cx[i]),
			k->src[1] + k->src[3] * (k->fv ? 1 - cy[i] : cy[i]) };
	}
}

/* Assigns each drawn record its display, then lays the displays out in one
 * contiguous run per slot. */
static bb_status build_displays(struct ssa *s)
{
	bb_armature *a = s->a;
	bb_skin *sk = &a->skins[0];
	size_t i, f;
	int an, slot, total = 0, first;
	bb_status st;

	if (!(s->count = bb__calloc((size_t)s->nslots, sizeof *s->count)))
		return bb__build_nomem(s->b);
	for (an = 0; an < s->nanims; an++) {
		struct sanim *sa = &s->anims[an];

		for (f = 0; f < (size_t)sa->nframes; f++)
			for (i = sa->first[f]; i < sa->first[f + 1]; i++) {
				struct rec *r = &sa->recs[i];
				struct dkey k;

				r->disp = -1;
				if (!(r->src[2] > 0 && r->src[3] > 0))
					continue;       /* an empty rectangle draws nothing */
				memset(&k, 0, sizeof k);
				k.slot = (int)(i - sa->first[f]);
				k.tex = sa->tex[r->image];
				k.fh = r->fh;
				k.fv = r->fv;
				k.blend = r->blend;
				memcpy(k.src, r->src, sizeof k.src);
				k.ox = r->ox;
				k.oy = r->oy;
				if ((r->disp = intern(s, &k)) < 0)
					return bb__build_nomem(s->b);
			}
	}
	for (slot = 0; slot < s->nslots; slot++) {
		sk->first[slot] = total;
		sk->count[slot] = s->count[slot];
		total += s->count[slot];
	}
	if ((st = bb__build_displays(s->b, a, total, &first)) != BB_OK)
		return st;
	for (i = 0; i < s->nk; i++)
		make_display(s, &s->keys[i],
		             &a->displays[sk->first[s->keys[i].slot] + s->local[i]]);
	return BB_OK;
}

/* ---- timelines --------------------------------------------------------- */

/* What a slot's records drive, one timeline each. */
enum chan { CH_X, CH_Y, CH_ROT, CH_SX, CH_SY, CH_DISPLAY, CH_COLOR, CH_DEFORM,
            CH_VCOLOR, NCHANS };

static int chan_stride(enum chan c)
{
	return c == CH_COLOR || c == CH_DEFORM ? 8 : c == CH_VCOLOR ? 17 : 1;
}

static void argb(uint32_t v, double *out)
{
	out[0] = ((v >> 16) & 255) / 255.0;
	out[1] = ((v >> 8) & 255) / 255.0;
	out[2] = (v & 255) / 255.0;
	out[3] = (v >> 24) / 255.0;
}

/* The values of channel c for record r (NULL: no record in the frame). */
static void chan_values(enum chan c, const struct rec *r, double *v)
{
	static const int corner[4] = { 0, 1, 3, 2 };  /* TL TR BR BL <- file */
	int k;

	switch (c) {
	case CH_X: v[0] = r->px; break;
	case CH_Y: v[0] = r->py; break;
	case CH_ROT: v[0] = -r->angle; break;   /* counter-clockwise -> y down */
	case CH_SX: v[0] = r->scx; break;
	case CH_SY: v[0] = r->scy; break;
	case CH_DISPLAY: v[0] = r ? r->disp : -1; break;
	case CH_COLOR:
		for (k = 0; k < 8; k++)
			v[k] = k == 0 ? r->opacity : k < 4;
		break;
	case CH_DEFORM:
		for (k = 0; k < 4; k++) {
			v[2 * k] = r->def[2 * corner[k]];
			v[2 * k + 1] = r->def[2 * corner[k] + 1];
		}
		break;
	case CH_VCOLOR:
		v[0] = r->cblend;
		for (k = 0; k < 4; k++)
			argb(r->vc[corner[k]], v + 1 + 4 * k);
		break;
	case NCHANS:
		break;
	}
}

/* Whether record r needs channel c (the optional ones only when they
 * differ from their defaults). */
static int chan_used(enum chan c, const struct rec *r)
{
	int k;

	switch (c) {
	case CH_COLOR:
		return r->opacity != 1;
	case CH_DEFORM:
		for (k = 0; k < 8; k++)
			if (r->def[k] != 0)
				return 1;
		return 0;
	case CH_VCOLOR:
		return (r->vc[0] | r->vc[1] | r->vc[2] | r->vc[3]) >> 24 != 0;
	default:
		return 1;
	}
}

static const struct rec *slot_rec(const struct sanim *sa, int f, int slot)
{
	size_t i = sa->first[f] + (size_t)slot;

	return i < sa->first[f + 1] ? &sa->recs[i] : NULL;
}

/* One stepped key per frame where the value changes; a frame without a
 * record holds the slot's last values (its display is -1).  `t` NULL:
 * only counts them. */
static int chan_keys(const struct sanim *sa, int slot, enum chan c,
                     const struct rec *first, bb_timeline *t)
{
	double v[17], prev[17];
	const struct rec *last = first;
	int f, n = 0, st = chan_stride(c);

	for (f = 0; f < sa->nframes; f++) {
		const struct rec *r = slot_rec(sa, f, slot);

		if (r)
			last = r;
		chan_values(c, c == CH_DISPLAY ? r : last, v);
		if (n > 0 && memcmp(v, prev, (size_t)st * sizeof *v) == 0)
			continue;
		memcpy(prev, v, (size_t)st * sizeof *v);
		if (t) {
			t->times[n] = f / sa->fps;
			memcpy(t->values + (size_t)n * st, v, (size_t)st * sizeof *v);
		}
		n++;
	}
	return n;
}

static bb_status emit_chan(struct ssa *s, const struct sanim *sa, bb_anim *an,
                           int slot, enum chan c, const struct rec *first)
{
	static const bb_prop props[5] = { BB_PROP_X, BB_PROP_Y, BB_PROP_ROTATION,
	                                  BB_PROP_SCALE_X, BB_PROP_SCALE_Y };
	bb_tl_target target = c <= CH_SY ? BB_TL_BONE : c == CH_DISPLAY ?
	                      BB_TL_SLOT_DISPLAY : c == CH_COLOR ? BB_TL_SLOT_COLOR :
	                      c == CH_DEFORM ? BB_TL_DEFORM : BB_TL_VERTEX_COLOR;
	bb_timeline *t;
	bb_status st;

	if ((st = bb__build_timeline(s->b, an, target, slot,
	                             c <= CH_SY ? props[c] : BB_PROP_X,
	                             BB_APPLY_REPLACE, chan_stride(c),
	                             chan_keys(sa, slot, c, first, NULL), &t)) != BB_OK)
		return st;
	t->display = BB_DEFORM_ANY_IMAGE;
	chan_keys(sa, slot, c, first, t);
	return BB_OK;
}

static bb_status build_anim(struct ssa *s, int i)
{
	const struct sanim *sa = &s->anims[i];
	bb_anim *an;
	int slot, f, c;
	bb_status st;

	/* errors about the animation name its object */
	bb__jpath_init(&s->j->path);
	if (s->array_form)
		bb__jpath_index(&s->j->path, (size_t)i);
	if ((st = bb__build_anim(s->b, s->a, sa->name, &an)) != BB_OK)
		return st;
	an->fps = sa->fps;
	an->duration = sa->nframes / sa->fps;
	an->loop = 1;
	an->has_stage = sa->has_stage;
	an->stage_w = sa->cw;
	an->stage_h = sa->ch;
	an->stage_x = sa->mw;
	an->stage_y = sa->ch - sa->mh;   /* MarginHeight counts from the bottom */
	for (slot = 0; slot < s->nslots; slot++) {
		const struct rec *first = NULL, *r;
		int used[NCHANS] = { 0 };

		for (f = 0; f < sa->nframes; f++) {
			if (!(r = slot_rec(sa, f, slot)))
				continue;
			if (!first)
				first = r;
			for (c = 0; c < NCHANS; c++)
				used[c] |= chan_used((enum chan)c, r);
		}
		for (c = 0; first && c < NCHANS; c++)
			if (used[c] &&
			    (st = emit_chan(s, sa, an, slot, (enum chan)c, first)) != BB_OK)
				return st;
	}
	return BB_OK;
}

/* ---- the armature -------------------------------------------------------- */

static bb_status build_skeleton(struct ssa *s, const char *name)
{
	bb_armature *a;
	bb_skin *sk;
	char buf[32];
	int k;
	bb_status st;

	if ((st = bb__build_armatures(s->b, 1, &a)) != BB_OK ||
	    (st = bb__build_str(s->b, &a->name, name)) != BB_OK ||
	    (st = bb__build_bones(s->b, a, (size_t)s->nslots)) != BB_OK ||
	    (st = bb__build_slots(s->b, a, (size_t)s->nslots)) != BB_OK ||
	    (st = bb__build_skin(s->b, a, "default", 0, &sk)) != BB_OK)
		return st;
	s->a = a;
	a->fps = s->anims[0].fps;
	for (k = 0; k < s->nslots; k++) {
		snprintf(buf, sizeof buf, "record%d", k);
		if ((st = bb__build_str(s->b, &a->bones[k].name, buf)) != BB_OK ||
		    (st = bb__build_str(s->b, &a->slots[k].name, buf)) != BB_OK)
			return st;
		a->slots[k].bone = k;
	}
	return BB_OK;
}

bb_status bb__ssa_build(struct ssa *s, const char *name)
{
	int i;
	bb_status st;

	if ((st = build_skeleton(s, name)) != BB_OK ||
	    (st = build_displays(s)) != BB_OK)
		return st;
	for (i = 0; i < s->nanims; i++)
		if ((st = build_anim(s, i)) != BB_OK)
			return st;
	s->a->default_anim = 0;
	return BB_OK;
}
