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
		return bb__jfail(sp->j, NULL, "attachment too large");
	if ((st = bb__sp_read_keys(am, list, len, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j->path, (size_t)i);
		double off, x, *v = k.val + (size_t)i * len;
		json_t *jv;
		size_t nj;

		if ((st = bb__jnum_range(sp->j, k.map[i], "offset", 0, 0, len, &off)) != BB_OK ||
		    (st = bb__jarray(sp->j, k.map[i], "vertices", 0, &jv)) != BB_OK)
			goto done;
		nj = bb__jsize(jv);
		if (off != floor(off) || nj > (size_t)(len - (int)off)) {
			st = bb__jfail(sp->j, "vertices", "%zu values from offset %g reach "
			               "past the attachment's %d", nj, off, len);
			goto done;
		}
		for (j = 0; j < (int)nj; j++) {
			if ((st = bb__jnum_at(sp->j, k.map[i], "vertices", (size_t)j, &x)) != BB_OK)
				goto done;
			v[(int)off + j] = bb__sp_f32(x);
		}
		if (!weighted)        /* the runtime adds the setup vertex in float */
			for (j = 0; j < len; j++) {
				double setup = j % 2 ? d->u.mesh.verts[j / 2].y : d->u.mesh.verts[j / 2].x;

				v[j] = bb__sp_f32(v[j] + setup) - setup;
			}
		bb__jpath_pop(&sp->j->path, mark);
	}
	if (len == 0)
		goto done;     /* a mesh without vertices: nothing to deform */
	{	/* bb__sp_emit maps at most MAXV values: built here by its rules */
		int pre = bb__sp_f32(k.time[0]) > 0;      /* zero offsets first */
		bb_timeline *t;

		if ((st = bb__build_timeline(sp->b, am->an, BB_TL_DEFORM, slot, BB_PROP_X,
		                             BB_APPLY_ADD, len, k.n + pre, &t)) != BB_OK)
			goto done;
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

	if ((s = bb__jstr(sp->j, key, "mode", 0, &mode)) != BB_OK ||
	    (s = bb__jnum_range(sp->j, key, "index", 0, -1e6, 1e6, &v[1])) != BB_OK ||
	    (s = bb__jnum_range(sp->j, key, "delay", *last_delay, -1e6, 1e6, &v[2])) != BB_OK)
		return s;
	v[0] = 0;
	for (i = 0; mode && i < 7 && strcmp(mode, seq_modes[i]) != 0; i++)
		;
	if (mode && i == 7)
		return bb__jfail(sp->j, "mode", "unknown sequence mode \"%s\"", mode);
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

/* One timeline of display disp: "deform" (3.8: every attachment's keys)
 * or "sequence"; a display that cannot take it ignores it, as the
 * runtime does. */
static bb_status one_attachment_timeline(struct bb__sp_anim *am, int slot, int disp,
                                         const char *kind, json_t *list)
{
	const bb_display *d = &am->sp->a->displays[disp];

	if (strcmp(kind, "deform") == 0)
		return d->kind == BB_DISPLAY_MESH || d->kind == BB_DISPLAY_CLIP ||
		       d->kind == BB_DISPLAY_PATH ? deform_timeline(am, slot, disp, list)
		                                  : BB_OK;
	if (strcmp(kind, "sequence") == 0)
		return d->seq_count > 0 ? sequence_timeline(am, slot, disp, list) : BB_OK;
	return bb__jfail(am->sp->j, NULL, "unknown attachment timeline");
}

/* attachments (4.x) {skin: {slot: {attachment: {deform|sequence: keys}}}};
 * deform (3.8) {skin: {slot: {attachment: keys}}}. */
bb_status bb__sp_attachment_timelines(struct bb__sp_anim *am, json_t *map, int v3)
{
	bb__sp *sp = am->sp;
	bb__jiter skins, slots, atts, kinds;
	json_t *skin_map, *slot_map, *att_map, *list;
	bb_status s;

	if ((s = bb__jeach_member(sp->j, map, NULL, 0, &skins)) != BB_OK)
		return s;
	while (bb__jnext(&skins, &skin_map)) {
		int skin;

		for (skin = 0; skin < sp->a->nskins &&
		     strcmp(sp->a->skins[skin].name, skins.key) != 0; skin++)
			;
		if (skin == sp->a->nskins)
			return bb__jfail(sp->j, NULL, "unknown skin \"%s\"", skins.key);
		if ((s = bb__jeach_member(sp->j, skin_map, NULL, 0, &slots)) != BB_OK)
			return s;
		while (bb__jnext(&slots, &slot_map)) {
			int slot = bb__sp_slot(sp, slots.key);

			if (slot < 0)
				return bb__jfail(sp->j, NULL, "unknown slot \"%s\"", slots.key);
			if ((s = bb__jeach_member(sp->j, slot_map, NULL, 0, &atts)) != BB_OK)
				return s;
			while (bb__jnext(&atts, &att_map)) {
				int j = bb__sp_name_index(sp, slot, atts.key), disp;

				if (j < 0 || sp->a->displays[sp->a->skins[skin].first[slot] + j].inherited)
					return bb__jfail(sp->j, NULL, "skin \"%s\" has no attachment "
					                 "\"%s\" in slot \"%s\"", skins.key, atts.key,
					                 slots.key);
				disp = sp->a->skins[skin].first[slot] + j;
				if (v3) {
					if ((s = one_attachment_timeline(am, slot, disp, "deform",
					                                 att_map)) != BB_OK)
						return s;
					continue;
				}
				if ((s = bb__jeach_member(sp->j, att_map, NULL, 0, &kinds)) != BB_OK)
					return s;
				while (bb__jnext(&kinds, &list))
					if ((s = one_attachment_timeline(am, slot, disp, kinds.key,
					                                 list)) != BB_OK)
						return s;
			}
		}
	}
	return BB_OK;
}

/* ---- draw order and events --------------------------------------------- */

bb_status bb__sp_draw_order(struct bb__sp_anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	int ns = sp->a->nslots, i, j, *order = NULL, *unchanged;
	struct bb__sp_keys k;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, ns, NULL, NULL, &k)) != BB_OK || ns == 0)
		goto done;
	if (!(order = bb__calloc(2 * (size_t)ns, sizeof *order))) {
		st = bb__build_nomem(sp->b);
		goto done;
	}
	unchanged = order + ns;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j->path, (size_t)i);
		bb__jiter it;
		json_t *e;
		int orig = 0, un = 0, offs;

		if ((st = bb__jeach(sp->j, k.map[i], "offsets", 0, &it)) != BB_OK)
			goto done;
		offs = it.v != NULL;       /* absent: the setup order */
		for (j = 0; j < ns; j++)
			order[j] = offs ? -1 : j;
		while (bb__jnext(&it, &e)) {
			const char *slot_name;
			double off;
			int slot, at;

			if ((st = bb__jexpect_object(sp->j, e)) != BB_OK ||
			    (st = bb__jstr(sp->j, e, "slot", 1, &slot_name)) != BB_OK ||
			    (st = bb__jnum_range(sp->j, e, "offset", 0, -ns, ns, &off)) != BB_OK)
				goto done;
			if ((slot = bb__sp_slot(sp, slot_name)) < 0 || slot < orig) {
				st = bb__jfail(sp->j, "slot", slot < 0 ? "unknown slot \"%s\"" :
				               "\"%s\" is out of slot order", slot_name);
				goto done;
			}
			while (orig != slot)
				unchanged[un++] = orig++;
			at = orig + (int)off;
			if (at < 0 || at >= ns || order[at] != -1) {
				st = bb__jfail(sp->j, "offset", "moves \"%s\" to %d, outside the "
				               "draw order or onto another slot", slot_name, at);
				goto done;
			}
			order[at] = orig++;
		}
		while (offs && orig < ns)
			unchanged[un++] = orig++;
		for (j = ns - 1; offs && j >= 0; j--)
			if (order[j] == -1) {
				if (un <= 0) {
					st = bb__jfail(sp->j, "offsets", "the offsets leave a gap");
					goto done;
				}
				order[j] = unchanged[--un];
			}
		for (j = 0; j < ns; j++)
			k.val[(size_t)i * ns + j] = order[j];
		bb__jpath_pop(&sp->j->path, mark);
	}
	{	/* like deform: too long for bb__sp_emit's value map */
		int pre = bb__sp_f32(k.time[0]) > 0;      /* the setup order first */
		bb_timeline *t;

		if ((st = bb__build_timeline(sp->b, am->an, BB_TL_DRAW_ORDER, 0, BB_PROP_X,
		                             BB_APPLY_ADD, ns, k.n + pre, &t)) != BB_OK)
			goto done;
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
	bb__sp_free_keys(&k);
	return st;
}

enum { EVENT_DATA = 512 };

/* An event's payload as text in buf, *out = buf (NULL: none): the fields
 * that are set, the key's (a null one too, as the runtime's getValue takes
 * it) over the event's defaults. */
static bb_status event_data(bb__sp *sp, json_t *key, json_t *def, char buf[EVENT_DATA],
                            const char **out)
{
	static const char *const fields[] = { "int", "float", "string", "audio" };
	size_t n = 0;
	int i;
	bb_status s;

	buf[0] = '\0';
	*out = NULL;
	for (i = 0; i < 4; i++) {
		json_t *v = bb__jhas_member(key, fields[i]) ? bb__jget(key, fields[i])
		                                            : bb__jget(def, fields[i]);
		const char *str;
		double x;

		switch (bb__jkind_of(v, NULL)) {
		case BB_JK_STRING:
			if ((s = bb__jstr(sp->j, v, NULL, 1, &str)) != BB_OK)
				return s;
			if (str[0])
				n += (size_t)snprintf(buf + n, EVENT_DATA - n, "%s%s=%.200s",
				                      n ? " " : "", fields[i], str);
			break;
		case BB_JK_NUMBER:
			if ((s = bb__jnum(sp->j, v, NULL, 0, &x)) != BB_OK)
				return s;
			if (x != 0)
				n += (size_t)snprintf(buf + n, EVENT_DATA - n, "%s%s=%g",
				                      n ? " " : "", fields[i], x);
			break;
		case BB_JK_ABSENT:
		case BB_JK_BOOL:
		case BB_JK_ARRAY:
		case BB_JK_OBJECT:
			break;
		}
		if (n >= EVENT_DATA)
			n = EVENT_DATA - 1;
	}
	*out = n ? buf : NULL;
	return BB_OK;
}

bb_status bb__sp_events(struct bb__sp_anim *am, json_t *list)
{
	bb__sp *sp = am->sp;
	json_t *defs = bb__jget(sp->root, "events");
	struct bb__sp_keys k;
	int i;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, 0, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < k.n; i++) {
		size_t mark = bb__jpath_index(&sp->j->path, (size_t)i);
		const char *name, *data;
		char buf[EVENT_DATA];

		if ((st = bb__jstr(sp->j, k.map[i], "name", 1, &name)) != BB_OK)
			goto done;
		if (!bb__jhas_member(defs, name)) {
			st = bb__jfail(sp->j, "name", "unknown event \"%s\"", name);
			goto done;
		}
		/* kept in time order (the keys are, after any of equal time) */
		if ((st = event_data(sp, k.map[i], bb__jget(defs, name), buf, &data)) != BB_OK ||
		    (st = bb__build_event(sp->b, am->an, bb__sp_f32(k.time[i]), BB_EVENT_EVENT,
		                          name, data)) != BB_OK)
			goto done;
		bb__jpath_pop(&sp->j->path, mark);
	}
done:
	bb__sp_free_keys(&k);
	return st;
}
