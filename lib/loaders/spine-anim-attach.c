/* Spine animations: deform keys (offsets from the setup vertices),
 * sequence keys, draw-order keys (offsets resolved to the whole order)
 * and events. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine-keys.h"

#define DEG_RAD (M_PI / 180)

static bb_status nomem(bb__sp *sp)
{
	return bb_error_set(sp->j.err, BB_ERR_NOMEM, sp->j.file, NULL, "out of memory");
}

/* ---- deform and sequence ----------------------------------------------- */

/* Deform keys as offsets from the setup vertices, rounded as the runtime
 * stores its absolute (unweighted) or offset (weighted) floats. */
static bb_status deform_timeline(struct bb__sp_anim *am, int slot, int disp, json_t *list)
{
	bb__sp *sp = am->sp;
	const bb_display *d = &sp->a->displays[disp];
	int weighted = d->u.mesh.wcount != NULL, i, j;
	int len = 2 * (weighted ? d->u.mesh.ninfluences : d->u.mesh.nverts);
	struct bb__sp_keys k;
	bb_status st;

	if (len > 4 * 1000000)
		return bb__jfail(&sp->j, NULL, "attachment too large");
	if ((st = bb__sp_read_keys(am, list, len, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j.path, (size_t)i);
		double off, x, *v = k.val + (size_t)i * len;
		json_t *jv;
		size_t nj;

		if ((st = bb__jnum_range(&sp->j, k.map[i], "offset", 0, 0, len, &off)) != BB_OK ||
		    (st = bb__jarray(&sp->j, k.map[i], "vertices", 0, &jv)) != BB_OK)
			goto done;
		nj = bb__jsize(jv);
		if (off != floor(off) || nj > (size_t)(len - (int)off)) {
			st = bb__jfail(&sp->j, "vertices", "%zu values from offset %g reach "
			               "past the attachment's %d", nj, off, len);
			goto done;
		}
		for (j = 0; j < (int)nj; j++) {
			if ((st = bb__jnum_at(&sp->j, k.map[i], "vertices", (size_t)j, &x)) != BB_OK)
				goto done;
			v[(int)off + j] = bb__sp_f32(x);
		}
		if (!weighted)        /* the runtime adds the setup vertex in float */
			for (j = 0; j < len; j++) {
				double setup = j % 2 ? d->u.mesh.verts[j / 2].y : d->u.mesh.verts[j / 2].x;

				v[j] = bb__sp_f32(v[j] + setup) - setup;
			}
		bb__jpath_pop(&sp->j.path, mark);
	}
	{	/* bb__sp_emit maps at most MAXV values: built here by its rules */
		int pre = bb__sp_f32(k.time[0]) > 0;      /* zero offsets first */
		bb_timeline *t = bb__sp_timeline(am, k.n + pre, len);

		if (!t) {
			st = nomem(sp);
			goto done;
		}
		t->target = BB_TL_DEFORM;
		t->index = slot;
		t->display = disp;
		for (i = 0; i < k.n; i++) {
			int o = i + pre;

			t->times[o] = bb__sp_f32(k.time[i]);
			memcpy(t->values + (size_t)o * len, k.val + (size_t)i * len,
			       (size_t)len * sizeof *t->values);
			t->interp[o].kind = i == k.n - 1 || k.curve[i] == BB_SP_STEPPED
			                    ? BB_INTERP_STEP : BB_INTERP_LINEAR;
			if (k.curve[i] == BB_SP_BEZIER && i < k.n - 1 &&
			    (st = bb__sp_percent_curve(am, &k, i, &t->interp[o])) != BB_OK)
				goto done;
		}
	}
done:
	bb__sp_free_keys(&k);
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

static bb_status sequence_timeline(struct bb__sp_anim *am, int slot, int disp, json_t *list)
{
	double last_delay = 0;
	struct bb__sp_keys k;
	struct bb__sp_spec s;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, 3, read_seq_key, &last_delay, &k)) == BB_OK) {
		bb__sp_spec_init(&s, BB_TL_SEQUENCE, slot, 3);
		s.display = disp;
		s.stepped = 1;
		s.prepend = 0;     /* before the first key: the setup frame */
		st = bb__sp_emit(am, &k, &s);
	}
	bb__sp_free_keys(&k);
	return st;
}

/* attachments (4.x) {skin: {slot: {attachment: {deform|sequence: keys}}}};
 * deform (3.8) {skin: {slot: {attachment: keys}}}. */
bb_status bb__sp_attachment_timelines(struct bb__sp_anim *am, json_t *map, int v3)
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

bb_status bb__sp_draw_order(struct bb__sp_anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	int ns = sp->a->nslots, i, j, *order = NULL, *unchanged = NULL;
	struct bb__sp_keys k;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, ns, NULL, NULL, &k)) != BB_OK || ns == 0)
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
	{	/* like deform: too long for bb__sp_emit's value map */
		int pre = bb__sp_f32(k.time[0]) > 0;      /* the setup order first */
		bb_timeline *t = bb__sp_timeline(am, k.n + pre, ns);

		if (!t) {
			st = nomem(sp);
			goto done;
		}
		t->target = BB_TL_DRAW_ORDER;
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
	bb__sp_free_keys(&k);
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

bb_status bb__sp_events(struct bb__sp_anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	json_t *defs = json_object_get(sp->root, "events");
	bb_anim *an = am->an;
	struct bb__sp_keys k;
	int i;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, 0, NULL, NULL, &k)) != BB_OK)
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
	bb__sp_free_keys(&k);
	return st;
}
