/* Spine skins and attachments.  Every skin gets, per slot, one display per
 * attachment name any skin gives that slot (so an attachment key selects
 * the same index whatever the skin); a skin without its own attachment of
 * that name holds a copy of the default skin's (marked inherited) or an
 * absent display.  The mapping:
 *
 *   region (+ sequence)   -> BB_DISPLAY_IMAGE: corners of the packed
 *                            rectangle (RegionAttachment offsets), uvs
 *   mesh, linked mesh     -> BB_DISPLAY_MESH (weighted or not); a linked
 *                            mesh copies its parent's geometry and, with
 *                            `timelines`, takes its deform keys
 *   clipping              -> BB_DISPLAY_CLIP (polygon, end slot)
 *   path                  -> BB_DISPLAY_PATH (not drawn)
 *   point, boundingbox    -> BB_DISPLAY_NONE, named (not drawn)
 *   sequence frames       -> displays after the skin runs (seq_first)
 *   attachment color      -> display tint */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine.h"


/* What pass 1 left for later, per run display. */
struct pend {
	json_t *j;             /* the attachment's JSON (NULL: none here) */
	const char *path;      /* region name (path, name, or key) */
	int linked;            /* a linked mesh still to resolve */
	int mesh;              /* has mesh geometry (ruv valid) */
	float *ruv;            /* mesh uvs 0..1 of the region (owned) */
	int nruv;
};

/* One skin of the file. */
struct skin_src {
	json_t *att;           /* attachments object (may be NULL) */
	const char *name;
	int index;             /* its place in the skins array, -1: an object
	                          of skins (3.7) */
};

struct skins {
	bb__sp *sp;
	int nskins, total;     /* skins, names over all slots */
	struct skin_src *src;  /* per skin */
	struct pend *pend;     /* nskins * total */
	int *slot_base;        /* per slot: offset of its names */
};

static int run_index(const struct skins *sk, int skin, int slot, int name)
{
	return skin * sk->total + sk->slot_base[slot] + name;
}

/* ---- collecting skins and names ---------------------------------------- */

static bb_status add_name(bb__sp *sp, int slot, const char *name)
{
	bb__sp_names *nm = &sp->names[slot];

	if (bb__sp_name_index(sp, slot, name) >= 0)
		return BB_OK;
	if (nm->n >= 100000)
		return bb__jfail(sp->j, NULL, "too many attachments");
	if (!bb__grow((void **)&nm->names, &nm->cap, (size_t)nm->n + 1, sizeof *nm->names) ||
	    !(nm->names[nm->n] = bb__strdup(name)))
		return bb__build_nomem(sp->b);
	nm->n++;
	sp->nnames++;
	return BB_OK;
}

/* The skins list (3.8/4.x array of {name, attachments}; 3.7 object of
 * name -> attachments), the default skin first. */
/* Skin k (of n) from attachments att named nm, the default skin's place
 * taken by the first one named "default". */
static void add_skin(struct skins *sk, json_t *att, const char *nm, int index,
                     int *def)
{
	int k = sk->nskins;

	if (strcmp(nm, "default") == 0 && *def < 0) {
		*def = 1;
		k = 0;
	} else {
		sk->nskins++;
	}
	sk->src[k] = (struct skin_src){ att, nm, index };
}

/* The skins list (3.8/4.x array of {name, attachments}; 3.7 object of
 * name -> attachments), the default skin first. */
static bb_status collect_skins(struct skins *sk)
{
	bb__sp *sp = sk->sp;
	bb__jkind kind = bb__jkind_of(sp->root, "skins");
	bb__jiter it;
	json_t *v;
	int def = -1;
	bb_status s;

	if (kind != BB_JK_ABSENT && kind != BB_JK_ARRAY && kind != BB_JK_OBJECT)
		return bb__jfail(sp->j, "skins", "expected an array, found %s",
		                 bb__jkind_name(kind));
	s = kind == BB_JK_OBJECT ? bb__jeach_member(sp->j, sp->root, "skins", 0, &it)
	                         : bb__jeach(sp->j, sp->root, "skins", 0, &it);
	if (s != BB_OK)
		return s;
	if (it.n > 10000)
		return bb__jlimit(sp->j, NULL, "%zu skins exceed the limit of 10000", it.n);
	sk->nskins = 1;
	if (!(sk->src = bb__calloc(it.n + 1, sizeof *sk->src)))
		return bb__build_nomem(sp->b);
	sk->src[0] = (struct skin_src){ NULL, "default", -1 };
	while (bb__jnext(&it, &v)) {
		const char *nm = it.key;
		json_t *att = v;

		if ((s = bb__jexpect_object(sp->j, v)) != BB_OK)
			return s;
		if (kind == BB_JK_ARRAY &&
		    ((s = bb__jstr(sp->j, v, "name", 1, &nm)) != BB_OK ||
		     (s = bb__jobject(sp->j, v, "attachments", 0, &att)) != BB_OK))
			return s;
		add_skin(sk, att, nm, kind == BB_JK_ARRAY ? (int)it.index : -1, &def);
	}
	return BB_OK;
}

/* A path segment for skin k: skins[i].attachments or skins.<name>. */
static void skin_path(const struct skins *sk, int k, bb__jpath *path)
{
	bb__jpath_key(path, "skins");
	if (sk->src[k].index < 0) {
		bb__jpath_key(path, sk->src[k].name);
		return;
	}
	bb__jpath_index(path, (size_t)sk->src[k].index);
	bb__jpath_key(path, "attachments");
}

static bb_status collect_names(struct skins *sk)
{
	bb__sp *sp = sk->sp;
	bb__jiter slots, atts;
	json_t *slot_map, *att;
	int k;
	bb_status s;

	for (k = 0; k < sk->nskins; k++) {
		if (!sk->src[k].att)
			continue;
		bb__jpath_pop(&sp->j->path, 0);
		skin_path(sk, k, &sp->j->path);
		if ((s = bb__jeach_member(sp->j, sk->src[k].att, NULL, 0, &slots)) != BB_OK)
			return s;
		while (bb__jnext(&slots, &slot_map)) {
			int slot = bb__sp_slot(sp, slots.key);

			if (slot < 0)
				return bb__jfail(sp->j, NULL, "unknown slot \"%s\"", slots.key);
			if ((s = bb__jeach_member(sp->j, slot_map, NULL, 0, &atts)) != BB_OK)
				return s;
			while (bb__jnext(&atts, &att))
				if ((s = bb__jexpect_object(sp->j, att)) != BB_OK ||
				    (s = add_name(sp, slot, atts.key)) != BB_OK)
					return s;
		}
	}
	bb__jpath_pop(&sp->j->path, 0);
	return BB_OK;
}

static const char *const types[] = {
	"region", "mesh", "linkedmesh", "boundingbox", "path", "point", "clipping"
};

/* Pass 1: an attachment, except a linked mesh's geometry and sequences. */
static bb_status read_attachment(struct skins *sk, json_t *map, const char *key,
                                 struct pend *pd, bb_display *d)
{
	bb__sp *sp = sk->sp;
	const char *type, *name, *path, *parent;
	json_t *seq;
	int t;
	bb_status s;

	if ((s = bb__jstr(sp->j, map, "type", 0, &type)) != BB_OK ||
	    (s = bb__jstr(sp->j, map, "name", 0, &name)) != BB_OK ||
	    (s = bb__jstr(sp->j, map, "path", 0, &path)) != BB_OK ||
	    (s = bb__jstr(sp->j, map, "parent", 0, &parent)) != BB_OK ||
	    (s = bb__jobject(sp->j, map, "sequence", 0, &seq)) != BB_OK)
		return s;
	for (t = 0; type && t < 7 && strcmp(types[t], type) != 0; t++)
		;
	if (t == 7)
		return bb__jfail(sp->j, "type", "unknown attachment type \"%s\"", type);
	if (!type)
		t = 0;
	if ((s = bb__build_str(sp->b, &d->name, name ? name : key)) != BB_OK)
		return s;
	pd->j = map;
	pd->path = path ? path : d->name;
	switch (t) {
	case 0:
		if (seq)
			return BB_OK;          /* built with its frames */
		return bb__sp_read_region(sp, map, pd->path, d);
	case 1:
	case 2:
		if ((s = bb__sp_tint(sp, map, d)) != BB_OK)
			return s;
		if (parent || t == 2) {
			if (!parent)
				return bb__jfail(sp->j, "parent", "missing (a linked mesh)");
			pd->linked = 1;
			return BB_OK;
		}
		pd->mesh = 1;          /* placed on its region in pass 3 */
		return bb__sp_read_mesh(sp, map, &pd->ruv, &pd->nruv, d);
	case 3: {
		int n;
		bb_display tmp;

		memset(&tmp, 0, sizeof tmp);
		s = bb__sp_vertex_count(sp, map, &n);
		if (s == BB_OK)
			s = bb__sp_read_vertices(sp, map, n, &tmp);
		bb__sp_clear_geometry(&tmp);
		return s;      /* bounding boxes are not drawn */
	}
	case 4:
		return bb__sp_read_clip_or_path(sp, map, 1, d);
	case 5: {
		double v;

		if ((s = bb__sp_num(sp, map, "x", 0, &v)) != BB_OK ||
		    (s = bb__sp_num(sp, map, "y", 0, &v)) != BB_OK ||
		    (s = bb__sp_num(sp, map, "rotation", 0, &v)) != BB_OK)
			return s;
		return BB_OK;  /* points are not drawn */
	}
	default:
		return bb__sp_read_clip_or_path(sp, map, 0, d);
	}
}

/* Pass 2: a linked mesh takes its parent's geometry; 0 while the parent
 * (itself linked) is not resolved yet. */
static bb_status link_mesh(struct skins *sk, int k, int slot, int j, int *done)
{
	bb__sp *sp = sk->sp;
	int ri = run_index(sk, k, slot, j), pk = 0, pj, pi, timelines;
	struct pend *pd = &sk->pend[ri], *pp;
	bb_display *d = &sp->a->displays[ri], *pdisp;
	const char *parent, *skin;
	bb_status s;

	*done = 0;
	if ((s = bb__jstr(sp->j, pd->j, "parent", 1, &parent)) != BB_OK ||
	    (s = bb__jstr(sp->j, pd->j, "skin", 0, &skin)) != BB_OK ||
	    (s = bb__jbool(sp->j, pd->j, sp->v3 || sp->v40 ? "deform" : "timelines", 1,
	                   &timelines)) != BB_OK)
		return s;
	if (skin) {
		for (pk = 0; pk < sk->nskins && strcmp(sk->src[pk].name, skin) != 0; pk++)
			;
		if (pk == sk->nskins)
			return bb__jfail(sp->j, "skin", "unknown skin \"%s\"", skin);
	}
	pj = bb__sp_name_index(sp, slot, parent);
	pi = pj >= 0 ? run_index(sk, pk, slot, pj) : -1;
	if (pi < 0 || !sk->pend[pi].j)
		return bb__jfail(sp->j, "parent", "unknown mesh \"%s\" in skin \"%s\"",
		                 parent, sk->src[pk].name);
	pp = &sk->pend[pi];
	if (pp->linked)
		return BB_OK;                  /* not yet: its parent first */
	if (!pp->mesh)
		return bb__jfail(sp->j, "parent", "\"%s\" is not a mesh", parent);
	pdisp = &sp->a->displays[pi];
	{
		int has_tint = d->has_tint;
		bb_rgba tn = d->tint;

		if ((s = bb__build_copy_display(sp->b, d, pdisp)) != BB_OK)
			return s;
		d->has_tint = has_tint;
		d->tint = tn;
	}
	d->kind = BB_DISPLAY_MESH;
	d->deform_from = timelines ? bb__display_key(sp->a, pdisp) + 1 : 0;
	if (!(pd->ruv = bb__calloc((size_t)pp->nruv + 1, sizeof *pd->ruv)))
		return bb__build_nomem(sp->b);
	memcpy(pd->ruv, pp->ruv, (size_t)pp->nruv * sizeof *pd->ruv);
	pd->nruv = pp->nruv;
	pd->mesh = 1;
	pd->linked = 0;
	*done = 1;
	return BB_OK;
}

/* Pass 3, an attachment with a `sequence`: one frame per region
 * path + (start + k) zero-padded to `digits`; the attachment itself shows
 * the setup frame's geometry. */
static bb_status build_sequence(struct skins *sk, int ri, json_t *seq)
{
	bb__sp *sp = sk->sp;
	struct pend *pd = &sk->pend[ri];
	double v[4];
	int k, first = sp->a->ndisplays, missing = 0, key;
	char path[600];
	bb_status s;

	bb__jpath_key(&sp->j->path, "sequence");
	if ((s = bb__jnum_range(sp->j, seq, "count", 0, 1, 10000, &v[0])) != BB_OK ||
	    (s = bb__jnum_range(sp->j, seq, "start", 1, 0, 1e8, &v[1])) != BB_OK ||
	    (s = bb__jnum_range(sp->j, seq, "digits", 0, 0, 20, &v[2])) != BB_OK ||
	    (s = bb__jnum_range(sp->j, seq, "setup", 0, 0, v[0] - 1, &v[3])) != BB_OK)
		return s;
	bb__jpath_pop(&sp->j->path, sp->j->path.len - 9);
	key = ri;
	if (sp->a->displays[ri].deform_from)
		key = sp->a->displays[ri].deform_from - 1;
	for (k = 0; k < (int)v[0]; k++) {
		int fi, n;
		bb_display *f, *d;

		if ((s = bb__build_displays(sp->b, sp->a, 1, &fi)) != BB_OK)
			return s;
		f = &sp->a->displays[fi];
		d = &sp->a->displays[ri];
		n = snprintf(path, sizeof path, "%.500s", pd->path);
		n += snprintf(path + n, sizeof path - (size_t)n, "%0*d", (int)v[2],
		              (int)v[1] + k);
		if (pd->mesh) {
			if ((s = bb__build_copy_display(sp->b, f, d)) != BB_OK)
				return s;
			bb__sp_place_mesh(sp, pd->ruv, pd->nruv, path, f);
		} else if ((s = bb__sp_read_region(sp, pd->j, path, f)) != BB_OK) {
			return s;
		}
		f->name = NULL;
		f->deform_from = key + 1;
		if (f->kind == BB_DISPLAY_NONE)
			missing = 1;
	}
	if (missing) {     /* not drawn at all */
		for (k = first; k < sp->a->ndisplays; k++)
			bb__sp_clear_geometry(&sp->a->displays[k]);
		bb__sp_clear_geometry(&sp->a->displays[ri]);
		return BB_OK;
	}
	{
		bb_display *d = &sp->a->displays[ri];
		const bb_display *setup = &sp->a->displays[first + (int)v[3]];

		if (pd->mesh) {
			d->u.mesh.texture = setup->u.mesh.texture;
			memcpy(d->u.mesh.uvs, setup->u.mesh.uvs,
			       (size_t)d->u.mesh.nverts * sizeof *d->u.mesh.uvs);
		} else {
			d->kind = BB_DISPLAY_IMAGE;
			d->local = setup->local;
			d->u.image = setup->u.image;
		}
		d->seq_first = first;
		d->seq_count = (int)v[0];
		d->seq_setup = (int)v[3];
	}
	return BB_OK;
}

/* Skin k's path prefix, then slot and key. */
static size_t path_to(struct skins *sk, int k, int slot, const char *key)
{
	bb__sp *sp = sk->sp;

	bb__jpath_pop(&sp->j->path, 0);
	skin_path(sk, k, &sp->j->path);
	bb__jpath_key(&sp->j->path, sp->a->slots[slot].name);
	return bb__jpath_key(&sp->j->path, key);
}

static bb_status build_runs(struct skins *sk)
{
	bb__sp *sp = sk->sp;
	bb_armature *a = sp->a;
	size_t n = (size_t)sk->nskins * (size_t)sk->total;
	int k, slot, j, pending, progress, done;
	bb_status s;

	bb__jpath_key(&sp->j->path, "skins");
	if ((s = bb__build_displays(sp->b, a, n, NULL)) != BB_OK)
		return s;
	if (!(sk->pend = bb__calloc(n, sizeof *sk->pend)))
		return bb__build_nomem(sp->b);
	/* pass 1 */
	for (k = 0; k < sk->nskins; k++)
		for (slot = 0; slot < a->nslots; slot++) {
			/* objects: collect_names checked them */
			json_t *slot_map = bb__jget(sk->src[k].att, a->slots[slot].name);

			for (j = 0; slot_map && j < sp->names[slot].n; j++) {
				const char *key = sp->names[slot].names[j];
				json_t *map = bb__jget(slot_map, key);
				int ri = run_index(sk, k, slot, j);

				if (!map)
					continue;
				path_to(sk, k, slot, key);
				if ((s = read_attachment(sk, map, key, &sk->pend[ri],
				                         &a->displays[ri])) != BB_OK)
					return s;
			}
		}
	/* pass 2: linked meshes, parents first */
	do {
		pending = progress = 0;
		for (j = 0; j < a->ndisplays; j++) {
			if (!sk->pend[j].linked)
				continue;
			k = j / sk->total;
			for (slot = 0; slot + 1 < a->nslots &&
			     sk->slot_base[slot + 1] <= j % sk->total; slot++)
				;
			path_to(sk, k, slot, sp->names[slot].names[j % sk->total - sk->slot_base[slot]]);
			if ((s = link_mesh(sk, k, slot, j % sk->total - sk->slot_base[slot],
			                   &done)) != BB_OK)
				return s;
			if (done)
				progress = 1;
			else
				pending = 1;
		}
	} while (pending && progress);
	if (pending) {
		for (j = 0; j < a->ndisplays && !sk->pend[j].linked; j++)
			;
		return bb__jfail(sp->j, "parent", "linked meshes form a cycle");
	}
	/* pass 3: regions of meshes, sequences */
	for (j = 0; j < sk->nskins * sk->total; j++) {
		struct pend *pd = &sk->pend[j];
		/* an object: read_attachment checked it */
		json_t *seq = bb__jget(pd->j, "sequence");

		if (!pd->j)
			continue;
		if (seq) {
			k = j / sk->total;
			for (slot = 0; slot + 1 < a->nslots &&
			     sk->slot_base[slot + 1] <= j % sk->total; slot++)
				;
			path_to(sk, k, slot, sp->names[slot].names[j % sk->total - sk->slot_base[slot]]);
			if ((s = build_sequence(sk, j, seq)) != BB_OK)
				return s;
		} else if (pd->mesh) {
			bb__sp_place_mesh(sp, pd->ruv, pd->nruv, pd->path, &a->displays[j]);
		}
	}
	/* pass 4: what a skin lacks comes from the default skin */
	for (k = 0; k < sk->nskins; k++)
		for (j = 0; j < sk->total; j++) {
			int ri = k * sk->total + j;
			bb_display *d = &a->displays[ri];

			if (sk->pend[ri].j)
				continue;
			d->inherited = 1;
			if (k == 0)
				continue;      /* absent: kind NONE */
			if ((s = bb__build_copy_display(sp->b, d, &a->displays[j])) != BB_OK)
				return s;
			d->inherited = 1;
			d->name = NULL;
			if (a->displays[j].name &&
			    (s = bb__build_str(sp->b, &d->name, a->displays[j].name)) != BB_OK)
				return s;
			if (a->displays[j].kind != BB_DISPLAY_NONE)
				d->deform_from = bb__display_key(a, &a->displays[j]) + 1;
		}
	bb__jpath_pop(&sp->j->path, 0);
	return BB_OK;
}

/* A skin's bones / ik / transform / path / physics lists: the names exist,
 * and the model skin gets them as flags (bb_skin.bones, .cons). */
static bb_status skin_refs(struct skins *sk)
{
	bb__sp *sp = sk->sp;
	bb_armature *a = sp->a;
	static const char *const keys[] = { "bones", "ik", "transform", "path", "physics" };
	bb__jiter skins, names;
	json_t *v, *e;
	int k, c, found, skin;
	bb_status s;

	if (bb__jkind_of(sp->root, "skins") != BB_JK_ARRAY)
		return BB_OK;
	/* objects with names: collect_skins checked them */
	if ((s = bb__jeach(sp->j, sp->root, "skins", 0, &skins)) != BB_OK)
		return s;
	while (bb__jnext(&skins, &v)) {
		for (skin = 0; skin < sk->nskins && sk->src[skin].index != (int)skins.index; skin++)
			;
		for (k = 0; k < 5; k++) {
			if ((s = bb__jeach(sp->j, v, keys[k], 0, &names)) != BB_OK)
				return s;
			while (bb__jnext(&names, &e)) {
				const char *nm = NULL;
				unsigned char *flags;

				if (bb__jkind_of(e, NULL) == BB_JK_STRING &&
				    (s = bb__jstr(sp->j, e, NULL, 1, &nm)) != BB_OK)
					return s;
				found = -1;
				if (nm && k == 0)
					found = bb__sp_bone(sp, nm);
				for (c = 0; nm && k > 0 && c < a->ncons && found < 0; c++)
					if ((int)a->cons[c].kind == k - 1 &&
					    strcmp(a->cons[c].name, nm) == 0)
						found = c;
				if (found < 0)
					return bb__jfail(sp->j, NULL, nm ? "unknown %s \"%s\"" :
					                 "expected a name%s%s", nm ? keys[k] : "",
					                 nm ? nm : "");
				if (skin >= sk->nskins)
					continue;      /* a second "default": not a model skin */
				if ((s = bb__build_skin_flags(sp->b, a, &a->skins[skin], k > 0,
				                              &flags)) != BB_OK)
					return s;
				flags[found] = 1;
			}
		}
	}
	return BB_OK;
}

static bb_status setup_displays(bb__sp *sp)
{
	bb__jiter it;
	json_t *js;
	const char *name;
	bb_status s;

	/* the array read_slots read, one slot per element */
	if ((s = bb__jeach(sp->j, sp->root, "slots", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &js)) {
		if ((s = bb__jstr(sp->j, js, "attachment", 0, &name)) != BB_OK)
			return s;
		sp->a->slots[it.index].setup_display = bb__sp_name_index(sp, (int)it.index, name);
	}
	return BB_OK;
}

bb_status bb__sp_read_skins(bb__sp *sp)
{
	struct skins sk;
	bb_armature *a = sp->a;
	bb_status s;
	int k, i;

	memset(&sk, 0, sizeof sk);
	sk.sp = sp;
	if ((s = collect_skins(&sk)) != BB_OK || (s = collect_names(&sk)) != BB_OK)
		goto done;
	if (!(sk.slot_base = bb__calloc((size_t)a->nslots + 1, sizeof *sk.slot_base))) {
		s = bb__build_nomem(sp->b);
		goto done;
	}
	for (i = 0; i < a->nslots; i++) {
		sk.slot_base[i] = sk.total;
		sk.total += sp->names[i].n;
	}
	for (k = 0; k < sk.nskins; k++) {
		bb_skin *skin;

		if ((s = bb__build_skin(sp->b, a, sk.src[k].name, 0, &skin)) != BB_OK)
			goto done;
		for (i = 0; i < a->nslots; i++) {
			skin->first[i] = run_index(&sk, k, i, 0);
			skin->count[i] = sp->names[i].n;
		}
	}
	if ((s = skin_refs(&sk)) != BB_OK || (s = build_runs(&sk)) != BB_OK ||
	    (s = setup_displays(sp)) != BB_OK)
		goto done;
	s = BB_OK;
done:
	for (i = 0; sk.pend && i < sk.nskins * sk.total; i++)
		free(sk.pend[i].ruv);
	free(sk.pend);
	free(sk.src);
	free(sk.slot_base);
	return s;
}
