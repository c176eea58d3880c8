/* DragonBones slot-level timelines: display index, colour, FFD (deform),
 * IK, z-order, and the events/sounds/actions of keys (spec sections 8-11). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones.h"

/* ---- events ------------------------------------------------------------- */

/* event / sound / action / events[] / actions[] of key jk (path at it)
 * starting at frame. */
static bb_status key_events(struct anim_ctx *c, json_t *jk, double frame,
                            const char *where)
{
	static const struct { const char *key; bb_event_kind kind; } one[] = {
		{ "event", BB_EVENT_EVENT }, { "sound", BB_EVENT_SOUND },
		{ "action", BB_EVENT_ACTION },
	};
	struct db *d = c->d;
	double t = bb__db_frame_time(c, frame);
	const char *v, *name, *tname, *bone;
	bb__jiter it;
	json_t *e;
	size_t i, k;
	bb_status s;

	for (i = 0; i < 3; i++) {
		/* an action that is not a name (4.5's {gotoAndPlay, playTimes}
		 * objects) is for a nested armature: the runtime plays it,
		 * it lists nothing */
		if (one[i].kind == BB_EVENT_ACTION &&
		    bb__jkind_of(jk, one[i].key) != BB_JK_STRING)
			continue;
		if ((s = bb__jstr(d->j, jk, one[i].key, 0, &v)) != BB_OK)
			return s;
		if (v && v[0] &&
		    (s = bb__build_event(d->b, c->an, t, one[i].kind, v, where)) != BB_OK)
			return s;
	}
	for (k = 0; k < 2; k++) {
		if ((s = bb__jeach(d->j, jk, k ? "actions" : "events", 0, &it)) != BB_OK)
			return s;
		while (bb__jnext(&it, &e)) {
			bb_event_kind kind = k ? BB_EVENT_ACTION : BB_EVENT_EVENT;
			double type = -1;

			tname = NULL;
			if ((s = bb__jstr(d->j, e, "name", 0, &name)) != BB_OK ||
			    (!name && (s = bb__jstr(d->j, e, "gotoAndPlay", 0, &name)) != BB_OK) ||
			    (s = bb__jstr(d->j, e, "bone", 0, &bone)) != BB_OK)
				return s;
			if (bb__jkind_of(e, "type") == BB_JK_STRING)
				s = bb__jstr(d->j, e, "type", 0, &tname);
			else
				s = bb__jnum(d->j, e, "type", -1, &type);
			if (s != BB_OK)
				return s;
			if (!name)
				continue;
			if (tname)
				kind = strcmp(tname, "sound") == 0 ? BB_EVENT_SOUND :
				       strcmp(tname, "frame") == 0 ? BB_EVENT_EVENT : kind;
			else
				kind = type == 11 ? BB_EVENT_SOUND :
				       type == 10 ? BB_EVENT_EVENT : kind;
			if (!where)
				where = bone;
			if ((s = bb__build_event(d->b, c->an, t, kind, name, where)) != BB_OK)
				return s;
		}
	}
	return BB_OK;
}

bb_status bb__db_frame_events(struct anim_ctx *c, json_t *obj, const char *key,
                              const char *where)
{
	struct keys k;
	bb__jiter it;
	json_t *arr, *jk;
	bb_status s;

	size_t mark;

	memset(&k, 0, sizeof k);
	if ((s = bb__jarray(c->d->j, obj, key, 0, &arr)) != BB_OK || !arr)
		return s;
	mark = bb__jpath_key(&c->d->j->path, key);
	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK)
		goto out;
	bb__jeach(c->d->j, arr, NULL, 0, &it);
	while (s == BB_OK && bb__jnext(&it, &jk))
		s = key_events(c, jk, k.start[it.index], where);
	if (s == BB_OK)
		bb__jpath_pop(&c->d->j->path, mark);
out:
	bb__db_keys_free(&k);
	return s;
}

/* ---- slots --------------------------------------------------------------- */

/* One slot key's values (at v) from jk, value key vkey. */
typedef bb_status (*slot_value_fn)(struct db *d, json_t *jk, const char *vkey,
                                   double *v);

/* Display index: stepped, clamped to -1 .. 1e6. */
static bb_status display_value(struct db *d, json_t *jk, const char *vkey,
                               double *v)
{
	bb_status s = bb__jnum(d->j, jk, bb__jhas(jk, vkey) ? vkey : "displayIndex",
	                       0, v);

	*v = floor(*v < -1 ? -1 : *v > 1e6 ? 1e6 : *v);
	return s;
}

/* Colour: a key without a colour object means identity (spec 8.3); 5.5's
 * colorFrame keys have their colour in "value", or "color". */
static bb_status color_value(struct db *d, json_t *jk, const char *vkey,
                             double *v)
{
	const char *key = strcmp(vkey, "value") == 0 && !bb__jhas(jk, vkey)
	                  ? "color" : vkey;
	bb_color_xform x;
	bb_status s = bb__db_color(d, jk, key, &x);

	v[0] = x.mul.a; v[1] = x.mul.r; v[2] = x.mul.g; v[3] = x.mul.b;
	v[4] = x.add.a; v[5] = x.add.r; v[6] = x.add.g; v[7] = x.add.b;
	return s;
}

/* A slot timeline of `stride` values per key from `arr`, each key read by
 * fn; stepped timelines do not wrap, others repeat the first key after the
 * last when the runtime tweens back to it. */
static bb_status slot_keys(struct anim_ctx *c, int slot, json_t *arr,
                           const char *vkey, bb_tl_target target, int stride,
                           int stepped, slot_value_fn fn)
{
	struct db *d = c->d;
	struct keys k;
	bb_timeline *t;
	bb__jiter it;
	json_t *jk;
	int wraps;
	bb_status s;

	if ((s = bb__db_timeline_of(c, arr, &k, target, slot, BB_PROP_X,
	                            BB_APPLY_REPLACE, stride, stepped, &t,
	                            &wraps)) != BB_OK || !t)
		goto out;
	bb__jeach(d->j, arr, NULL, 0, &it);
	while (s == BB_OK && bb__jnext(&it, &jk))
		s = fn(d, jk, vkey, t->values + (size_t)stride * it.index);
	if (s == BB_OK && wraps && !stepped)
		memcpy(t->values + (size_t)stride * k.n, t->values,
		       (size_t)stride * sizeof *t->values);
out:
	bb__db_keys_free(&k);
	return s;
}

static bb_status slot_display(struct anim_ctx *c, int slot, json_t *arr,
                              const char *vkey)
{
	return slot_keys(c, slot, arr, vkey, BB_TL_SLOT_DISPLAY, 1, 1, display_value);
}

static bb_status slot_color(struct anim_ctx *c, int slot, json_t *arr,
                            const char *vkey)
{
	return slot_keys(c, slot, arr, vkey, BB_TL_SLOT_COLOR, 8, 0, color_value);
}

/* One slot list obj[key] (path at obj) through fn. */
static bb_status slot_list(struct anim_ctx *c, int slot, json_t *js,
                           const char *key, const char *vkey,
                           bb_status (*fn)(struct anim_ctx *, int, json_t *,
                                           const char *))
{
	json_t *arr;
	size_t mark;
	bb_status s;

	if ((s = bb__jarray(c->d->j, js, key, 0, &arr)) != BB_OK || !arr)
		return s;
	mark = bb__jpath_key(&c->d->j->path, key);
	if ((s = fn(c, slot, arr, vkey)) != BB_OK)
		return s;
	bb__jpath_pop(&c->d->j->path, mark);
	return BB_OK;
}

bb_status bb__db_slot_timelines(struct anim_ctx *c, json_t *js)
{
	struct db *d = c->d;
	const char *name;
	int slot;
	bb_status s;

	if ((s = bb__jexpect_object(d->j, js)) != BB_OK ||
	    (s = bb__jstr(d->j, js, "name", 1, &name)) != BB_OK)
		return s;
	if ((slot = bb__build_find_slot(d->a, name)) < 0)
		return bb__jfail(d->j, "name", "unknown slot \"%s\"", name);
	/* 4.5 / 5.0: displayIndex and color in the same keys.  Without a
	 * colorFrame list the runtime reads a colour timeline from these
	 * keys even when none of them has a colour: every key is then
	 * identity, so a slot whose setup colour hides it shows from t = 0
	 * (ODP _parseSlotTimeline; mecha_1502b's jump_2). */
	if ((s = slot_list(c, slot, js, "frame", "displayIndex", slot_display)) != BB_OK ||
	    (!bb__jhas(js, "colorFrame") &&
	     (s = slot_list(c, slot, js, "frame", "color", slot_color)) != BB_OK) ||
	    (s = bb__db_frame_events(c, js, "frame", name)) != BB_OK ||
	    (s = slot_list(c, slot, js, "displayFrame", "value", slot_display)) != BB_OK ||
	    (s = slot_list(c, slot, js, "colorFrame", "value", slot_color)) != BB_OK)
		return s;
	return BB_OK;
}

/* ---- FFD ------------------------------------------------------------------ */

/* The offsets of FFD key jk (path at it) into delta (2 nv numbers). */
static bb_status ffd_key(struct db *d, json_t *jk, int nv, double *delta)
{
	double off, *vs;
	size_t n, j;
	bb_status s;

	if ((s = bb__jnum(d->j, jk, "offset", 0, &off)) != BB_OK ||
	    (s = bb__jnums(d->j, jk, "vertices", 0, (size_t)1 << 24, &vs, &n)) != BB_OK)
		return s;
	if (off < 0 || off != floor(off) || off + n > (double)nv * 2) {
		free(vs);
		return bb__jfail(d->j, "offset", "offset %g + %zu values overrun the "
		                 "mesh's %d vertices", off, n, nv);
	}
	memset(delta, 0, (size_t)nv * 2 * sizeof *delta);
	for (j = 0; j < n; j++)
		delta[(size_t)off + j] = vs[j];
	free(vs);
	return BB_OK;
}

bb_status bb__db_ffd_timeline(struct anim_ctx *c, json_t *jf)
{
	struct db *d = c->d;
	const char *name, *sname, *skin;
	const bb_display *ds;
	const struct db_mesh *dm;
	struct keys k;
	bb_timeline *t = NULL;
	double *delta = NULL;
	bb__jiter it;
	json_t *arr, *jk;
	int slot, display, nv, stride, wraps;
	bb_status s;

	memset(&k, 0, sizeof k);
	if ((s = bb__jexpect_object(d->j, jf)) != BB_OK ||
	    (s = bb__jstr(d->j, jf, "name", 1, &name)) != BB_OK ||
	    (s = bb__jstr(d->j, jf, "slot", 1, &sname)) != BB_OK ||
	    (s = bb__jstr(d->j, jf, "skin", 0, &skin)) != BB_OK ||
	    (s = bb__jarray(d->j, jf, "frame", 1, &arr)) != BB_OK)
		return s;
	if ((slot = bb__build_find_slot(d->a, sname)) < 0)
		return bb__jfail(d->j, "slot", "unknown slot \"%s\"", sname);
	display = bb__db_find_mesh(d, skin, slot, name);
	if (display < 0) {
		bb__model_warn(d->m, "%s: FFD for \"%s\", which is not a drawn mesh of "
		               "slot \"%s\"; ignored", d->c->name, name, sname);
		return BB_OK;
	}
	ds = &d->a->displays[display];
	dm = ds->u.mesh.wcount ? bb__db_mesh(d, display) : NULL;
	nv = ds->u.mesh.nverts;
	stride = 2 * (ds->u.mesh.wcount ? ds->u.mesh.ninfluences : nv);
	bb__jpath_key(&d->j->path, "frame");
	if ((s = bb__db_timeline_of(c, arr, &k, BB_TL_DEFORM, slot, BB_PROP_X,
	                            BB_APPLY_ADD, stride, 0, &t, &wraps)) != BB_OK || !t)
		goto out;
	t->display = display;
	if (!(delta = bb__calloc((size_t)nv * 2, sizeof *delta))) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	bb__jeach(d->j, arr, NULL, 0, &it);
	while (bb__jnext(&it, &jk)) {
		double *out = t->values + (size_t)stride * it.index;
		int w = 0, vtx, n;

		if ((s = ffd_key(d, jk, nv, delta)) != BB_OK)
			goto out;
		if (!dm) {
			memcpy(out, delta, (size_t)stride * sizeof *out);
			continue;
		}
		/* into each influencing bone's bind space (spec 9.5) */
		for (vtx = 0; vtx < nv; vtx++)
			for (n = 0; n < ds->u.mesh.wcount[vtx]; n++, w++) {
				bb_affine lin = bb_affine_mul(dm->inv_bone_pose[w], dm->slot_pose);
				double dx = delta[2 * vtx], dy = delta[2 * vtx + 1];

				out[2 * w] = lin.a * dx + lin.c * dy;
				out[2 * w + 1] = lin.b * dx + lin.d * dy;
			}
	}
	if (wraps)
		memcpy(t->values + (size_t)stride * k.n, t->values,
		       (size_t)stride * sizeof *t->values);
out:
	free(delta);
	bb__db_keys_free(&k);
	return s;
}

/* ---- IK and z-order --------------------------------------------------------- */

bb_status bb__db_ik_timeline(struct anim_ctx *c, json_t *ji)
{
	struct db *d = c->d;
	const char *name;
	struct keys k;
	bb_timeline *tw, *tb;
	bb__jiter it;
	json_t *arr, *jk;
	int ik = -1, i, wraps, wb, bend;
	bb_status s;

	memset(&k, 0, sizeof k);
	if ((s = bb__jexpect_object(d->j, ji)) != BB_OK ||
	    (s = bb__jstr(d->j, ji, "name", 1, &name)) != BB_OK ||
	    (s = bb__jarray(d->j, ji, "frame", 1, &arr)) != BB_OK)
		return s;
	for (i = 0; i < d->a->niks; i++)
		if (strcmp(d->a->iks[i].name, name) == 0)
			ik = i;
	if (ik < 0)
		return bb__jfail(d->j, "name", "unknown IK constraint \"%s\"", name);
	bb__jpath_key(&d->j->path, "frame");
	if ((s = bb__db_timeline_of(c, arr, &k, BB_TL_IK, ik, BB_PROP_X,
	                            BB_APPLY_REPLACE, 1, 0, &tw, &wraps)) != BB_OK || !tw ||
	    (s = bb__db_new_timeline(c, &k, BB_TL_IK, ik, BB_PROP_Y,
	                             BB_APPLY_REPLACE, 1, &tb)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, tb, 1, &wb)) != BB_OK)
		goto out;
	tw = &c->an->timelines[c->an->ntimelines - 2];
	bb__jeach(d->j, arr, NULL, 0, &it);
	while (bb__jnext(&it, &jk)) {
		if ((s = bb__jnum(d->j, jk, "weight", 1, &tw->values[it.index])) != BB_OK ||
		    (s = bb__jbool(d->j, jk, "bendPositive", 1, &bend)) != BB_OK)
			goto out;
		tw->values[it.index] = round(tw->values[it.index] * 100) / 100;
		tb->values[it.index] = bend;
	}
	if (wraps)
		tw->values[k.n] = tw->values[0];
out:
	bb__db_keys_free(&k);
	return s;
}

/* zOrder [slot, offset, ...] (the path at the key) -> slot index per paint
 * position (spec 8.4). */
static bb_status z_order(struct db *d, json_t *jk, double *out)
{
	int n = d->a->nslots, orig = 0, un = 0, i;
	int *unchanged = bb__calloc((size_t)n, sizeof *unchanged);
	double *z = NULL;
	size_t j, nz;
	bb_status s;

	if (!unchanged)
		return bb__build_nomem(d->b);
	for (i = 0; i < n; i++)
		out[i] = i;
	if ((s = bb__jnums(d->j, jk, "zOrder", 0, (size_t)1 << 24, &z, &nz)) != BB_OK ||
	    nz == 0)
		goto out;
	for (i = 0; i < n; i++)
		out[i] = -1;
	for (j = 0; j + 1 < nz; j += 2) {
		double slot = z[j], off = z[j + 1], pos;

		if (slot != floor(slot) || slot < orig || slot >= n) {
			s = bb__jfail(d->j, "zOrder", "entry %zu: slot %g out of range or "
			              "out of order (%d slots)", j / 2, slot, n);
			goto out;
		}
		while (orig < slot)
			unchanged[un++] = orig++;
		pos = orig + off;
		if (pos < 0 || pos >= n || pos != floor(pos) || out[(int)pos] >= 0) {
			s = bb__jfail(d->j, "zOrder", "entry %zu: position %g is out of "
			              "range or taken", j / 2, pos);
			goto out;
		}
		out[(int)pos] = orig++;
	}
	while (orig < n)
		unchanged[un++] = orig++;
	for (i = n - 1; i >= 0; i--)
		if (out[i] < 0) {
			if (un == 0) {
				s = bb__jfail(d->j, "zOrder", "inconsistent offsets");
				goto out;
			}
			out[i] = unchanged[--un];
		}
out:
	free(z);
	free(unchanged);
	return s;
}

bb_status bb__db_zorder_timeline(struct anim_ctx *c, json_t *jz)
{
	struct db *d = c->d;
	struct keys k;
	bb_timeline *t;
	bb__jiter it;
	json_t *arr, *jk;
	int wraps, n = d->a->nslots;
	bb_status s;

	memset(&k, 0, sizeof k);
	if (n == 0 || (s = bb__jarray(d->j, jz, "frame", 0, &arr)) != BB_OK || !arr)
		return n == 0 ? BB_OK : s;
	bb__jpath_key(&d->j->path, "frame");
	if ((s = bb__db_timeline_of(c, arr, &k, BB_TL_DRAW_ORDER, 0, BB_PROP_X,
	                            BB_APPLY_REPLACE, n, 1, &t, &wraps)) != BB_OK || !t)
		goto out;
	bb__jeach(d->j, arr, NULL, 0, &it);
	while (s == BB_OK && bb__jnext(&it, &jk))
		s = z_order(d, jk, t->values + (size_t)n * it.index);
out:
	bb__db_keys_free(&k);
	return s;
}
