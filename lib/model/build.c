/* The model builder (build.h): allocation, defaults and limits for every
 * loader, and the model-wide steps the loader driver runs after a loader
 * (setup animations, the default armature, the list of files read). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/build.h"

void bb__build_init(bb__build *b, bb_model *m, bb__where *at, int max_bones,
                    int max_keys)
{
	memset(b, 0, sizeof *b);
	b->m = m;
	b->at = at;
	b->max_bones = max_bones;
	b->max_keys = max_keys;
}

bb_status bb__build_nomem(bb__build *b)
{
	return bb_error_set(b->at->err, BB_ERR_NOMEM, b->at->file, NULL,
	                    "out of memory");
}

bb_status bb__build_str(bb__build *b, char **dst, const char *s)
{
	free(*dst);
	*dst = bb__strdup(s ? s : "");
	return *dst ? BB_OK : bb__build_nomem(b);
}

/* BB_ERR_LIMIT "<have + n> <what> exceed the limit of <max>" when n more
 * than `have` pass max. */
static bb_status fits(bb__build *b, size_t have, size_t n, int max, const char *what)
{
	if (n <= (size_t)max && have <= (size_t)max - n)
		return BB_OK;
	return bb__where_fail(b->at, BB_ERR_LIMIT, NULL, "%zu %s exceed the limit of %d",
	                      have + n, what, max);
}

/* Grows *arr (n elements of size) by k zeroed ones; 0 on failure. */
static int append(void **arr, int *n, size_t k, size_t size)
{
	char *p;

	if ((size_t)*n + k > (size_t)1 << 30)
		return 0;
	p = bb__realloc_array(*arr, (size_t)*n + k, size);
	if (!p)
		return 0;
	memset(p + (size_t)*n * size, 0, k * size);
	*arr = p;
	*n += (int)k;
	return 1;
}

bb_status bb__build_armatures(bb__build *b, int n, bb_armature **first)
{
	bb_model *m = b->m;
	int i, at = m->narmatures;

	if (n < 0 || !append((void **)&m->armatures, &m->narmatures, (size_t)n,
	                     sizeof *m->armatures))
		return bb__build_nomem(b);
	for (i = at; i < m->narmatures; i++)
		m->armatures[i].overlay_mask = -1;
	if (first)
		*first = &m->armatures[at];
	return BB_OK;
}

bb_status bb__build_bones(bb__build *b, bb_armature *a, size_t n)
{
	size_t i;
	bb_status s;

	if ((s = fits(b, 0, n, b->max_bones, "bones")) != BB_OK)
		return s;
	if (!append((void **)&a->bones, &a->nbones, n, sizeof *a->bones))
		return bb__build_nomem(b);
	for (i = (size_t)a->nbones - n; i < (size_t)a->nbones; i++) {
		a->bones[i].parent = -1;
		a->bones[i].setup = bb__xform_identity();
		a->bones[i].inherit = BB_INHERIT_MATRIX;
		a->bones[i].flags = BB_INHERIT_ALL;
	}
	return BB_OK;
}

bb_status bb__build_slots(bb__build *b, bb_armature *a, size_t n)
{
	size_t i;
	bb_status s;

	if ((s = fits(b, (size_t)a->nslots, n, BB_BUILD_MAX_SLOTS, "slots")) != BB_OK)
		return s;
	if (!append((void **)&a->slots, &a->nslots, n, sizeof *a->slots))
		return bb__build_nomem(b);
	for (i = (size_t)a->nslots - n; i < (size_t)a->nslots; i++) {
		a->slots[i].setup_display = -1;
		a->slots[i].color = bb_color_xform_identity();
		a->slots[i].blend = BB_BLEND_NORMAL;
	}
	return BB_OK;
}

bb_status bb__build_skin(bb__build *b, bb_armature *a, const char *name,
                         int draw_order, bb_skin **out)
{
	size_t n = (size_t)a->nslots;
	bb_skin *sk;
	size_t i;

	if (!append((void **)&a->skins, &a->nskins, 1, sizeof *a->skins))
		return bb__build_nomem(b);
	sk = &a->skins[a->nskins - 1];
	sk->first = bb__calloc(n, sizeof *sk->first);
	sk->count = bb__calloc(n, sizeof *sk->count);
	if (draw_order && (sk->draw_order = bb__calloc(n, sizeof *sk->draw_order)))
		for (i = 0; i < n; i++)
			sk->draw_order[i] = (int)i;
	if (!sk->first || !sk->count || (draw_order && !sk->draw_order) ||
	    !(sk->name = bb__strdup(name)))
		return bb__build_nomem(b);
	*out = sk;
	return BB_OK;
}

bb_status bb__build_displays(bb__build *b, bb_armature *a, size_t n, int *first)
{
	int i, at = a->ndisplays;
	bb_status s;

	if ((s = fits(b, (size_t)at, n, BB_BUILD_MAX_DISPLAYS, "displays")) != BB_OK)
		return s;
	if (!append((void **)&a->displays, &a->ndisplays, n, sizeof *a->displays))
		return bb__build_nomem(b);
	for (i = at; i < a->ndisplays; i++)
		a->displays[i].local = bb_affine_identity();
	if (first)
		*first = at;
	return BB_OK;
}

/* ---- geometry ----------------------------------------------------------- */

/* *out = n zeroed elements of size (never NULL, n 0 too); 0 on failure. */
static int zeroed(void *out, int n, size_t size)
{
	void **p = out;

	return n >= 0 && (*p = bb__calloc((size_t)n, size)) != NULL;
}

bb_status bb__build_verts(bb__build *b, bb_display *d, int nverts)
{
	if (!zeroed(&d->u.mesh.verts, nverts, sizeof *d->u.mesh.verts))
		return bb__build_nomem(b);
	d->u.mesh.nverts = nverts;
	return BB_OK;
}

bb_status bb__build_weights(bb__build *b, bb_display *d, int nverts, int ninfl)
{
	if (!zeroed(&d->u.mesh.wcount, nverts, sizeof *d->u.mesh.wcount) ||
	    !zeroed(&d->u.mesh.wbone, ninfl, sizeof *d->u.mesh.wbone) ||
	    !zeroed(&d->u.mesh.wweight, ninfl, sizeof *d->u.mesh.wweight) ||
	    !zeroed(&d->u.mesh.wpos, ninfl, sizeof *d->u.mesh.wpos))
		return bb__build_nomem(b);
	d->u.mesh.nverts = nverts;
	d->u.mesh.ninfluences = ninfl;
	return BB_OK;
}

bb_status bb__build_triangles(bb__build *b, bb_display *d, int nverts,
                              int nindices)
{
	if (!zeroed(&d->u.mesh.uvs, nverts, sizeof *d->u.mesh.uvs) ||
	    !zeroed(&d->u.mesh.indices, nindices, sizeof *d->u.mesh.indices))
		return bb__build_nomem(b);
	d->u.mesh.nindices = nindices;
	return BB_OK;
}

bb_status bb__build_lengths(bb__build *b, bb_display *d, int n)
{
	if (!zeroed(&d->u.mesh.lengths, n, sizeof *d->u.mesh.lengths))
		return bb__build_nomem(b);
	d->u.mesh.nlengths = n;
	return BB_OK;
}

/* *out = a copy of the n elements of size at p (NULL when there are
 * none); 0 on failure (*out NULL). */
static int copied(void *out, const void *p, int n, size_t size)
{
	*(void **)out = NULL;
	if (!p || n <= 0)
		return 1;
	if (!zeroed(out, n, size)) {
		*(void **)out = NULL;
		return 0;
	}
	memcpy(*(void **)out, p, (size_t)n * size);
	return 1;
}

bb_status bb__build_copy_display(bb__build *b, bb_display *dst,
                                 const bb_display *src)
{
	char *name = dst->name;
	int ok, nv = src->u.mesh.nverts, inf = src->u.mesh.ninfluences;

	*dst = *src;
	dst->name = name;
	if (src->kind != BB_DISPLAY_MESH && src->kind != BB_DISPLAY_CLIP &&
	    src->kind != BB_DISPLAY_PATH)
		return BB_OK;
	/* every pointer copied or NULL, failed or not: dst owns them all */
#define COPY(f, n) copied(&dst->u.mesh.f, src->u.mesh.f, n, sizeof *dst->u.mesh.f)
	ok = COPY(verts, nv);
	ok = COPY(uvs, nv) && ok;
	ok = COPY(indices, src->u.mesh.nindices) && ok;
	ok = COPY(wcount, nv) && ok;
	ok = COPY(wbone, inf) && ok;
	ok = COPY(wweight, inf) && ok;
	ok = COPY(wpos, inf) && ok;
	ok = COPY(lengths, src->u.mesh.nlengths) && ok;
#undef COPY
	if (ok)
		return BB_OK;
	bb__display_clear(dst);
	return bb__build_nomem(b);
}

bb_status bb__build_iks(bb__build *b, bb_armature *a, size_t n)
{
	size_t i;

	if (!append((void **)&a->iks, &a->niks, n, sizeof *a->iks))
		return bb__build_nomem(b);
	for (i = (size_t)a->niks - n; i < (size_t)a->niks; i++) {
		a->iks[i].weight = 1;
		a->iks[i].bend_positive = 1;
	}
	return BB_OK;
}

bb_status bb__build_cons(bb__build *b, bb_armature *a, size_t n)
{
	bb_status s;

	if ((s = fits(b, (size_t)a->ncons, n, BB_BUILD_MAX_CONS, "constraints")) != BB_OK)
		return s;
	if (!append((void **)&a->cons, &a->ncons, n, sizeof *a->cons))
		return bb__build_nomem(b);
	return BB_OK;
}

bb_status bb__build_con_bones(bb__build *b, bb_constraint *c, int n)
{
	free(c->bones);
	c->nbones = 0;
	if (n < 0 || !(c->bones = bb__calloc((size_t)n, sizeof *c->bones)))
		return bb__build_nomem(b);
	c->nbones = n;
	return BB_OK;
}

bb_status bb__build_update(bb__build *b, bb_armature *a, size_t n)
{
	if (n > (size_t)1 << 26)
		return bb__where_fail(b->at, BB_ERR_LIMIT, NULL, "too many bones and constraints");
	free(a->update);
	a->nupdate = 0;
	if (!(a->update = bb__calloc(n, sizeof *a->update)))
		return bb__build_nomem(b);
	return BB_OK;
}

bb_status bb__build_skin_flags(bb__build *b, const bb_armature *a, bb_skin *sk,
                               int cons, unsigned char **out)
{
	unsigned char **f = cons ? &sk->cons : &sk->bones;

	if (!*f && !(*f = bb__calloc((size_t)(cons ? a->ncons : a->nbones), 1)))
		return bb__build_nomem(b);
	*out = *f;
	return BB_OK;
}

bb_status bb__build_mask(bb__build *b, bb_armature *a, const char *name,
                         bb_mask **out)
{
	bb_mask *mk;

	if (!append((void **)&a->masks, &a->nmasks, 1, sizeof *a->masks))
		return bb__build_nomem(b);
	mk = &a->masks[a->nmasks - 1];
	if (!(mk->name = bb__strdup(name)) ||
	    !(mk->bones = bb__calloc((size_t)a->nbones, 1)))
		return bb__build_nomem(b);
	*out = mk;
	return BB_OK;
}

bb_status bb__build_solid(bb__build *b, bb_armature *a, bb_solid **out)
{
	if (!a->solid && !(a->solid = calloc(1, sizeof *a->solid)))
		return bb__build_nomem(b);
	*out = a->solid;
	return BB_OK;
}

/* ---- animations ------------------------------------------------------- */

int bb__build_find_anim(const bb_armature *a, const char *name)
{
	int i;

	for (i = 0; i < a->nanims; i++)
		if (a->anims[i].name && strcmp(a->anims[i].name, name) == 0)
			return i;
	return -1;
}

bb_status bb__build_anim(bb__build *b, bb_armature *a, const char *name,
                         bb_anim **out)
{
	bb_anim *an;

	if (bb__build_find_anim(a, name) >= 0)
		return bb__where_fail(b->at, BB_ERR_INPUT, "name", "duplicate animation name \"%s\"", name);
	if (!append((void **)&a->anims, &a->nanims, 1, sizeof *a->anims))
		return bb__build_nomem(b);
	an = &a->anims[a->nanims - 1];
	an->layer = BB_LAYER_BODY;
	b->keys = 0;
	if (!(an->name = bb__strdup(name)))
		return bb__build_nomem(b);
	*out = an;
	return BB_OK;
}

bb_status bb__build_keys_fit(bb__build *b, long n)
{
	if (n > (long)b->max_keys - b->keys)
		return bb__where_fail(b->at, BB_ERR_LIMIT, NULL, "more than %d keys", b->max_keys);
	return BB_OK;
}

bb_status bb__build_timeline(bb__build *b, bb_anim *an, bb_tl_target target,
                             int index, bb_prop prop, bb_apply apply,
                             int stride, int nkeys, bb_timeline **out)
{
	bb_timeline *t;
	bb_status s;

	if (nkeys < 0 || stride < 1)
		return bb__where_fail(b->at, BB_ERR_INTERNAL, NULL, "bad timeline shape");
	if ((s = bb__build_keys_fit(b, nkeys)) != BB_OK)
		return s;
	b->keys += nkeys;
	if (!append((void **)&an->timelines, &an->ntimelines, 1,
	            sizeof *an->timelines))
		return bb__build_nomem(b);
	t = &an->timelines[an->ntimelines - 1];
	t->target = target;
	t->index = index;
	t->prop = prop;
	t->apply = apply;
	t->stride = stride;
	t->nkeys = nkeys;
	t->times = bb__calloc((size_t)nkeys, sizeof *t->times);
	t->values = bb__realloc_array(NULL, (size_t)nkeys, (size_t)stride *
	                              sizeof *t->values);
	t->interp = bb__calloc((size_t)nkeys, sizeof *t->interp);   /* STEP */
	if (!t->times || !t->values || !t->interp)
		return bb__build_nomem(b);
	memset(t->values, 0, (size_t)nkeys * (size_t)stride * sizeof *t->values);
	*out = t;
	return BB_OK;
}

void bb__build_drop_timeline(bb__build *b, bb_anim *an)
{
	bb_timeline *t;

	if (an->ntimelines == 0)
		return;
	t = &an->timelines[--an->ntimelines];
	b->keys -= t->nkeys;
	free(t->times);
	free(t->values);
	free(t->interp);
	memset(t, 0, sizeof *t);
}

bb_status bb__build_event(bb__build *b, bb_anim *an, double time,
                          bb_event_kind kind, const char *name,
                          const char *data)
{
	bb_event *e;
	int i;

	if (!append((void **)&an->events, &an->nevents, 1, sizeof *an->events))
		return bb__build_nomem(b);
	e = an->events;
	for (i = an->nevents - 1; i > 0 && e[i - 1].time > time; i--)
		e[i] = e[i - 1];
	memset(&e[i], 0, sizeof e[i]);
	e[i].time = time;
	e[i].kind = kind;
	if (!(e[i].name = bb__strdup(name)) || (data && !(e[i].data = bb__strdup(data))))
		return bb__build_nomem(b);
	return BB_OK;
}

bb_status bb__build_table(bb__build *b, bb_anim *an, int n, int *offset,
                          float **out)
{
	float *t;

	if (n < 0 || an->ntables > (1 << 30) - n)
		return bb__where_fail(b->at, BB_ERR_LIMIT, NULL, "curve tables too large");
	t = bb__realloc_array(an->tables, (size_t)an->ntables + (size_t)n, sizeof *t);
	if (!t)
		return bb__build_nomem(b);
	an->tables = t;
	*offset = an->ntables;
	*out = t + an->ntables;
	an->ntables += n;
	return BB_OK;
}

/* ---- textures ------------------------------------------------------------- */

bb_status bb__build_texture(bb__build *b, const char *name, bb_image *img,
                            int *index)
{
	bb_model *m = b->m;
	char *dup = bb__strdup(name);
	bb_image **t = dup ? bb__realloc_array(m->textures, (size_t)m->ntextures + 1,
	                                       sizeof *t) : NULL;
	char **n;

	if (t)
		m->textures = t;
	n = t ? bb__realloc_array(m->texture_names, (size_t)m->ntextures + 1,
	                          sizeof *n) : NULL;
	if (!n) {
		free(dup);
		bb_image_free(img);
		return bb__build_nomem(b);
	}
	m->texture_names = n;
	if (img->px)
		bb_image_to_argb32(img);   /* no-op when it is already */
	m->textures[m->ntextures] = img;
	m->texture_names[m->ntextures] = dup;
	*index = m->ntextures++;
	return BB_OK;
}

/* ---- the model --------------------------------------------------------------- */

bb_model *bb__model_new(const char *format)
{
	bb_model *m = calloc(1, sizeof *m);

	if (m)
		m->format = format;
	return m;
}

/* Adds path to the list (*v, *n) once. */
static int add_path(char ***v, int *n, const char *path)
{
	char **f;
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], path) == 0)
			return 1;
	f = bb__realloc_array(*v, (size_t)*n + 1, sizeof *f);
	if (!f)
		return 0;
	*v = f;
	if (!(f[*n] = bb__strdup(path)))
		return 0;
	(*n)++;
	return 1;
}

int bb__model_add_file(bb_model *m, const char *path)
{
	return add_path(&m->files, &m->nfiles, path);
}

int bb__model_add_missing(bb_model *m, const char *path)
{
	return add_path(&m->missing, &m->nmissing, path);
}

void bb__model_warn(bb_model *m, const char *fmt, ...)
{
	char buf[512], **w;
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	for (i = 0; i < m->nwarnings; i++)
		if (strcmp(m->warnings[i], buf) == 0)
			return;
	if (m->nwarnings >= 1000)
		return;
	w = bb__realloc_array(m->warnings, (size_t)m->nwarnings + 1, sizeof *w);
	if (!w)
		return;
	m->warnings = w;
	if ((w[m->nwarnings] = bb__strdup(buf)) != NULL)
		m->nwarnings++;
}

bb_status bb__model_add_setup_anims(bb_model *m, bb_error *err)
{
	int i;

	for (i = 0; i < m->narmatures; i++) {
		bb_armature *a = &m->armatures[i];

		if (a->nanims > 0)
			continue;
		free(a->anims);
		if (!(a->anims = calloc(1, sizeof *a->anims)) ||
		    !(a->anims[0].name = bb__strdup(BB_SETUP_ANIM)))
			return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		a->nanims = 1;
		a->anims[0].setup = 1;
		a->anims[0].layer = BB_LAYER_BODY;
		a->default_anim = 0;
	}
	return BB_OK;
}

void bb__model_pick_default_armature(bb_model *m)
{
	int i, j, k, best = -1;

	for (i = 0; i < m->narmatures; i++) {
		int nested = 0;

		for (j = 0; j < m->narmatures && !nested; j++)
			for (k = 0; k < m->armatures[j].ndisplays; k++)
				if (j != i && m->armatures[j].displays[k].kind == BB_DISPLAY_ARMATURE &&
				    m->armatures[j].displays[k].u.armature.armature == i)
					nested = 1;
		if (!nested && (best < 0 || m->armatures[i].nbones > m->armatures[best].nbones))
			best = i;
	}
	m->default_armature = best < 0 ? 0 : best;
}

/* ---- lookups ---------------------------------------------------------------- */

int bb__build_find_bone(const bb_armature *a, const char *name)
{
	int i;

	for (i = 0; i < a->nbones; i++)
		if (a->bones[i].name && strcmp(a->bones[i].name, name) == 0)
			return i;
	return -1;
}

int bb__build_find_slot(const bb_armature *a, const char *name)
{
	int i;

	for (i = 0; i < a->nslots; i++)
		if (a->slots[i].name && strcmp(a->slots[i].name, name) == 0)
			return i;
	return -1;
}
