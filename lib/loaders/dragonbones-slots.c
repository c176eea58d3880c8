/* DragonBones slot-level timelines: display index, colour, FFD (deform),
 * IK, z-order, and the events/sounds/actions of keys (spec sections 8-11). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones.h"

/* ---- events ------------------------------------------------------------- */

static bb_status add_event(struct anim_ctx *c, double time, bb_event_kind kind,
                           const char *name, const char *data)
{
	bb_anim *an = c->an;
	bb_event *e = bb__realloc_array(an->events, (size_t)an->nevents + 1,
	                                sizeof *e);
	int i;

	if (!e)
		return bb__db_nomem(c->d);
	an->events = e;
	/* keep sorted by time, stable */
	for (i = an->nevents; i > 0 && e[i - 1].time > time; i--)
		e[i] = e[i - 1];
	memset(&e[i], 0, sizeof e[i]);
	e[i].time = time;
	e[i].kind = kind;
	an->nevents++;
	if (!(e[i].name = bb__strdup(name)) || (data && !(e[i].data = bb__strdup(data))))
		return bb__db_nomem(c->d);
	return BB_OK;
}

/* event / sound / action / events[] / actions[] of a key starting at frame. */
static bb_status key_events(struct anim_ctx *c, json_t *jk, double frame,
                            const char *where)
{
	static const struct { const char *key; bb_event_kind kind; } one[] = {
		{ "event", BB_EVENT_EVENT }, { "sound", BB_EVENT_SOUND },
		{ "action", BB_EVENT_ACTION },
	};
	double t = bb__db_frame_time(c, frame);
	json_t *list;
	size_t i, k;
	bb_status s;

	for (i = 0; i < 3; i++) {
		const char *v = json_string_value(json_object_get(jk, one[i].key));

		if (v && v[0] && (s = add_event(c, t, one[i].kind, v, where)) != BB_OK)
			return s;
	}
	for (k = 0; k < 2; k++) {
		list = json_object_get(jk, k ? "actions" : "events");
		for (i = 0; i < json_array_size(list); i++) {
			json_t *e = json_array_get(list, i), *type = json_object_get(e, "type");
			const char *name = json_string_value(json_object_get(e, "name"));
			bb_event_kind kind = k ? BB_EVENT_ACTION : BB_EVENT_EVENT;

			if (!name)
				name = json_string_value(json_object_get(e, "gotoAndPlay"));
			if (!name)
				continue;
			if (json_is_number(type))
				kind = json_number_value(type) == 11 ? BB_EVENT_SOUND :
				       json_number_value(type) == 10 ? BB_EVENT_EVENT : kind;
			else if (json_is_string(type))
				kind = strcmp(json_string_value(type), "sound") == 0 ? BB_EVENT_SOUND :
				       strcmp(json_string_value(type), "frame") == 0 ? BB_EVENT_EVENT :
				       kind;
			if (!where)
				where = json_string_value(json_object_get(e, "bone"));
			if ((s = add_event(c, t, kind, name, where)) != BB_OK)
				return s;
		}
	}
	return BB_OK;
}

bb_status bb__db_frame_events(struct anim_ctx *c, json_t *arr, const char *where)
{
	struct keys k;
	size_t i;
	bb_status s;

	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK)
		goto out;
	for (i = 0; i < k.n && s == BB_OK; i++)
		s = key_events(c, json_array_get(arr, i), k.start[i], where);
out:
	bb__db_keys_free(&k);
	return s;
}

/* ---- slots --------------------------------------------------------------- */

/* Display index keys (stepped) from `arr`, value key `vkey`. */
static bb_status slot_display(struct anim_ctx *c, int slot, json_t *arr,
                              const char *vkey)
{
	struct keys k;
	bb_timeline *t;
	size_t i;
	int wraps, differs = 0;
	bb_status s;

	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	if ((s = bb__db_new_timeline(c, &k, BB_TL_SLOT_DISPLAY, slot, BB_PROP_X,
	                      BB_APPLY_REPLACE, 1, &t)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, t, 1, &wraps)) != BB_OK)
		goto out;
	for (i = 0; i < k.n && s == BB_OK; i++) {
		size_t mark = bb__jpath_index(&c->d->j.path, i);
		json_t *jk = json_array_get(arr, i);

		s = bb__db_num(c->d, jk, json_object_get(jk, vkey) ? vkey : "displayIndex",
		               0, &t->values[i]);
		if (t->values[i] < -1)
			t->values[i] = -1;
		t->values[i] = floor(t->values[i]);
		differs |= t->values[i] != c->d->a->slots[slot].setup_display;
		bb__jpath_pop(&c->d->j.path, mark);
	}
	(void)differs;
out:
	bb__db_keys_free(&k);
	return s;
}

/* Colour keys: a key without a colour object means identity (spec 8.3). */
static bb_status slot_color(struct anim_ctx *c, int slot, json_t *arr,
                            const char *vkey)
{
	struct keys k;
	bb_timeline *t;
	size_t i;
	int wraps;
	bb_status s;

	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	if ((s = bb__db_new_timeline(c, &k, BB_TL_SLOT_COLOR, slot, BB_PROP_X,
	                      BB_APPLY_REPLACE, 8, &t)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, t, 0, &wraps)) != BB_OK)
		goto out;
	for (i = 0; i < k.n + (size_t)wraps && s == BB_OK; i++) {
		size_t src = i < k.n ? i : 0;
		json_t *jk = json_array_get(arr, src);
		json_t *col = json_object_get(jk, vkey);
		size_t mark = bb__jpath_index(&c->d->j.path, src);
		bb_color_xform x;
		double *v = t->values + 8 * i;

		if (!col && strcmp(vkey, "value") == 0)
			col = json_object_get(jk, "color");
		bb__jpath_key(&c->d->j.path, col == json_object_get(jk, vkey) ? vkey : "color");
		s = bb__db_color(c->d, col, &x);
		v[0] = x.mul.a; v[1] = x.mul.r; v[2] = x.mul.g; v[3] = x.mul.b;
		v[4] = x.add.a; v[5] = x.add.r; v[6] = x.add.g; v[7] = x.add.b;
		bb__jpath_pop(&c->d->j.path, mark);
	}
out:
	bb__db_keys_free(&k);
	return s;
}

bb_status bb__db_slot_timelines(struct anim_ctx *c, json_t *js)
{
	struct db *d = c->d;
	const char *name;
	json_t *arr;
	int slot;
	bb_status s;

	if ((s = bb__jexpect_object(&d->j, js)) != BB_OK ||
	    (s = bb__jstr(&d->j, js, "name", 1, &name)) != BB_OK)
		return s;
	if ((slot = bb__db_find_slot(d, name)) < 0)
		return bb__jfail(&d->j, "name", "unknown slot \"%s\"", name);
	if ((arr = json_object_get(js, "frame")) && json_is_array(arr)) {
		/* 4.5 / 5.0: displayIndex and color in the same keys.  Without a
		 * colorFrame list the runtime reads a colour timeline from these
		 * keys even when none of them has a colour: every key is then
		 * identity, so a slot whose setup colour hides it shows from t = 0
		 * (ODP _parseSlotTimeline; mecha_1502b's jump_2). */
		size_t mark = bb__jpath_key(&d->j.path, "frame");
		int has_color_frame = json_object_get(js, "colorFrame") != NULL;

		if ((s = slot_display(c, slot, arr, "displayIndex")) != BB_OK ||
		    (!has_color_frame && (s = slot_color(c, slot, arr, "color")) != BB_OK) ||
		    (s = bb__db_frame_events(c, arr, name)) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	if ((arr = json_object_get(js, "displayFrame")) && json_is_array(arr)) {
		size_t mark = bb__jpath_key(&d->j.path, "displayFrame");

		if ((s = slot_display(c, slot, arr, "value")) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	if ((arr = json_object_get(js, "colorFrame")) && json_is_array(arr)) {
		size_t mark = bb__jpath_key(&d->j.path, "colorFrame");

		if ((s = slot_color(c, slot, arr, "value")) != BB_OK)
			return s;
		bb__jpath_pop(&d->j.path, mark);
	}
	return BB_OK;
}

/* ---- FFD ------------------------------------------------------------------ */

bb_status bb__db_ffd_timeline(struct anim_ctx *c, json_t *jf)
{
	struct db *d = c->d;
	const char *name, *sname, *skin;
	json_t *arr;
	const bb_display *ds;
	const struct db_mesh *dm;
	struct keys k;
	bb_timeline *t = NULL;
	double *delta = NULL;
	int slot, display, nv, stride, wraps;
	size_t i, j;
	bb_status s;

	memset(&k, 0, sizeof k);
	if ((s = bb__jexpect_object(&d->j, jf)) != BB_OK ||
	    (s = bb__jstr(&d->j, jf, "name", 1, &name)) != BB_OK ||
	    (s = bb__jstr(&d->j, jf, "slot", 1, &sname)) != BB_OK ||
	    (s = bb__jstr(&d->j, jf, "skin", 0, &skin)) != BB_OK ||
	    (s = bb__jarray(&d->j, jf, "frame", 1, &arr)) != BB_OK)
		return s;
	if ((slot = bb__db_find_slot(d, sname)) < 0)
		return bb__jfail(&d->j, "slot", "unknown slot \"%s\"", sname);
	display = bb__db_find_mesh(d, skin, slot, name);
	if (display < 0) {
		bb__model_warn(d->m, "%s: FFD for \"%s\", which is not a drawn mesh of "
		               "slot \"%s\"; ignored", d->ctx->name, name, sname);
		return BB_OK;
	}
	ds = &d->a->displays[display];
	dm = ds->u.mesh.wcount ? bb__db_mesh(d, display) : NULL;
	nv = ds->u.mesh.nverts;
	stride = 2 * (ds->u.mesh.wcount ? ds->u.mesh.ninfluences : nv);
	bb__jpath_key(&d->j.path, "frame");
	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	if ((s = bb__db_new_timeline(c, &k, BB_TL_DEFORM, slot, BB_PROP_X, BB_APPLY_ADD,
	                      stride, &t)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, t, 0, &wraps)) != BB_OK)
		goto out;
	t->display = display;
	delta = bb__calloc((size_t)nv * 2, sizeof *delta);
	if (!delta) {
		s = bb__db_nomem(d);
		goto out;
	}
	for (i = 0; i < k.n; i++) {
		json_t *jk = json_array_get(arr, i), *vs = json_object_get(jk, "vertices");
		size_t mark = bb__jpath_index(&d->j.path, i);
		double off;
		double *out = t->values + (size_t)stride * i;

		if ((s = bb__db_num(d, jk, "offset", 0, &off)) != BB_OK)
			goto out;
		if (vs && !json_is_array(vs)) {
			s = bb__jfail(&d->j, "vertices", "expected an array");
			goto out;
		}
		if (off < 0 || off != floor(off) || off + json_array_size(vs) > (double)nv * 2) {
			s = bb__jfail(&d->j, "offset", "offset %g + %zu values overrun the "
			              "mesh's %d vertices", off, json_array_size(vs), nv);
			goto out;
		}
		memset(delta, 0, (size_t)nv * 2 * sizeof *delta);
		for (j = 0; j < json_array_size(vs); j++) {
			json_t *v = json_array_get(vs, j);

			if (!json_is_number(v)) {
				bb__jpath_key(&d->j.path, "vertices");
				bb__jpath_index(&d->j.path, j);
				s = bb__jfail(&d->j, NULL, "expected a number");
				goto out;
			}
			delta[(size_t)off + j] = json_number_value(v);
		}
		if (!dm) {
			memcpy(out, delta, (size_t)stride * sizeof *out);
		} else {
			/* into each influencing bone's bind space (spec 9.5) */
			int w = 0, vtx, n;

			for (vtx = 0; vtx < nv; vtx++)
				for (n = 0; n < ds->u.mesh.wcount[vtx]; n++, w++) {
					bb_affine lin = bb_affine_mul(dm->inv_bone_pose[w], dm->slot_pose);
					double dx = delta[2 * vtx], dy = delta[2 * vtx + 1];

					out[2 * w] = lin.a * dx + lin.c * dy;
					out[2 * w + 1] = lin.b * dx + lin.d * dy;
				}
		}
		bb__jpath_pop(&d->j.path, mark);
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
	json_t *arr;
	struct keys k;
	bb_timeline *tw, *tb;
	int ik = -1, i, wraps, wb;
	size_t j;
	bb_status s;

	memset(&k, 0, sizeof k);
	if ((s = bb__jexpect_object(&d->j, ji)) != BB_OK ||
	    (s = bb__jstr(&d->j, ji, "name", 1, &name)) != BB_OK ||
	    (s = bb__jarray(&d->j, ji, "frame", 1, &arr)) != BB_OK)
		return s;
	for (i = 0; i < d->a->niks; i++)
		if (strcmp(d->a->iks[i].name, name) == 0)
			ik = i;
	if (ik < 0)
		return bb__jfail(&d->j, "name", "unknown IK constraint \"%s\"", name);
	bb__jpath_key(&d->j.path, "frame");
	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	if ((s = bb__db_new_timeline(c, &k, BB_TL_IK, ik, BB_PROP_X, BB_APPLY_REPLACE, 1,
	                      &tw)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, tw, 0, &wraps)) != BB_OK)
		goto out;
	for (j = 0; j < k.n && s == BB_OK; j++) {
		s = bb__db_num(d, json_array_get(arr, j), "weight", 1, &tw->values[j]);
		tw->values[j] = round(tw->values[j] * 100) / 100;
	}
	if (wraps)
		tw->values[k.n] = tw->values[0];
	if (s != BB_OK ||
	    (s = bb__db_new_timeline(c, &k, BB_TL_IK, ik, BB_PROP_Y, BB_APPLY_REPLACE, 1,
	                      &tb)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, tb, 1, &wb)) != BB_OK)
		goto out;
	for (j = 0; j < k.n && s == BB_OK; j++) {
		int bend;

		s = bb__db_bool(d, json_array_get(arr, j), "bendPositive", 1, &bend);
		tb->values[j] = bend;
	}
out:
	bb__db_keys_free(&k);
	return s;
}

/* zOrder [slot, offset, ...] -> slot index per paint position (spec 8.4). */
static bb_status z_order(struct db *d, json_t *z, double *out)
{
	int n = d->a->nslots, orig = 0, un = 0, i;
	int *unchanged = bb__calloc((size_t)n, sizeof *unchanged);
	size_t j;
	bb_status s = BB_OK;

	if (!unchanged)
		return bb__db_nomem(d);
	for (i = 0; i < n; i++)
		out[i] = -1;
	for (j = 0; j + 1 < json_array_size(z); j += 2) {
		double slot = json_number_value(json_array_get(z, j));
		double off = json_number_value(json_array_get(z, j + 1));
		double pos;

		if (!json_is_number(json_array_get(z, j)) ||
		    !json_is_number(json_array_get(z, j + 1)) || slot != floor(slot) ||
		    slot < orig || slot >= n) {
			s = bb__jfail(&d->j, "zOrder", "entry %zu: slot %g out of range or "
			              "out of order (%d slots)", j / 2, slot, n);
			goto out;
		}
		while (orig < slot)
			unchanged[un++] = orig++;
		pos = orig + off;
		if (pos < 0 || pos >= n || pos != floor(pos) || out[(int)pos] >= 0) {
			s = bb__jfail(&d->j, "zOrder", "entry %zu: position %g is out of "
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
				s = bb__jfail(&d->j, "zOrder", "inconsistent offsets");
				goto out;
			}
			out[i] = unchanged[--un];
		}
out:
	free(unchanged);
	return s;
}

bb_status bb__db_zorder_timeline(struct anim_ctx *c, json_t *jz)
{
	struct db *d = c->d;
	json_t *arr;
	struct keys k;
	bb_timeline *t;
	int wraps, n = d->a->nslots, i;
	size_t j;
	bb_status s;

	memset(&k, 0, sizeof k);
	if (n == 0 || (s = bb__jexpect_object(&d->j, jz)) != BB_OK ||
	    (s = bb__jarray(&d->j, jz, "frame", 0, &arr)) != BB_OK || !arr)
		return n == 0 ? BB_OK : s;
	bb__jpath_key(&d->j.path, "frame");
	if ((s = bb__db_key_list(c, arr, &k)) != BB_OK || k.n == 0)
		goto out;
	if ((s = bb__db_new_timeline(c, &k, BB_TL_DRAW_ORDER, 0, BB_PROP_X,
	                      BB_APPLY_REPLACE, n, &t)) != BB_OK ||
	    (s = bb__db_set_interps(c, &k, t, 1, &wraps)) != BB_OK)
		goto out;
	for (j = 0; j < k.n && s == BB_OK; j++) {
		json_t *z = json_object_get(json_array_get(arr, j), "zOrder");
		double *out = t->values + (size_t)n * j;
		size_t mark = bb__jpath_index(&d->j.path, j);

		if (z && !json_is_array(z))
			s = bb__jfail(&d->j, "zOrder", "expected an array");
		else if (json_array_size(z) > 0)
			s = z_order(d, z, out);
		else
			for (i = 0; i < n; i++)
				out[i] = i;
		bb__jpath_pop(&d->j.path, mark);
	}
out:
	bb__db_keys_free(&k);
	return s;
}

