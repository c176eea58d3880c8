/* Cocos Studio ExportJson (data versions 0.3, 1.0, 1.1 and later; older
 * pre-0.3 files with per-key durations too) into the format-neutral
 * description of cocos.h; the loader table's entry points for both Cocos
 * formats; shared helpers.  Semantics: ../shared/spec/cocos.md. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loaders/cocos.h"
#include "loaders/json.h"
#include "loaders/plist.h"

/* ---- description helpers --------------------------------------------- */

bb_status bb__cc_nomem(struct cc_doc *d)
{
	return bb_error_set(d->err, BB_ERR_NOMEM, d->ctx->name, NULL, "out of memory");
}

static void *add_item(void **arr, int *n, size_t *cap, size_t size)
{
	char *p;

	if (!bb__grow(arr, cap, (size_t)*n + 1, size))
		return NULL;
	p = (char *)*arr + (size_t)*n * size;
	memset(p, 0, size);
	(*n)++;
	return p;
}

struct cc_arm *bb__cc_add_arm(struct cc_doc *d)
{
	return add_item((void **)&d->arms, &d->narms, &d->acap, sizeof *d->arms);
}

struct cc_bone *bb__cc_add_bone(struct cc_doc *d, struct cc_arm *a)
{
	(void)d;
	return add_item((void **)&a->bones, &a->nbones, &a->bcap, sizeof *a->bones);
}

struct cc_display *bb__cc_add_display(struct cc_doc *d, struct cc_bone *b)
{
	(void)d;
	return add_item((void **)&b->displays, &b->ndisplays, &b->cap,
	                sizeof *b->displays);
}

struct cc_mov *bb__cc_add_mov(struct cc_doc *d, struct cc_arm *a)
{
	(void)d;
	return add_item((void **)&a->movs, &a->nmovs, &a->mcap, sizeof *a->movs);
}

struct cc_movbone *bb__cc_add_movbone(struct cc_doc *d, struct cc_mov *mv)
{
	(void)d;
	return add_item((void **)&mv->bones, &mv->nbones, &mv->cap, sizeof *mv->bones);
}

struct cc_frame *bb__cc_add_frame(struct cc_doc *d, struct cc_movbone *mb)
{
	struct cc_frame *f;

	if (mb->nframes >= d->ctx->opts->max_keys)
		return NULL;
	f = add_item((void **)&mb->frames, &mb->nframes, &mb->cap, sizeof *mb->frames);
	if (f)
		bb__cc_frame_init(f);
	return f;
}

struct cc_tex *bb__cc_add_tex(struct cc_doc *d)
{
	return add_item((void **)&d->tex, &d->ntex, &d->tcap, sizeof *d->tex);
}

struct cc_arm *bb__cc_find_arm(struct cc_doc *d, const char *name)
{
	int i;

	for (i = 0; i < d->narms; i++)
		if (d->arms[i].name && strcmp(d->arms[i].name, name) == 0)
			return &d->arms[i];
	return NULL;
}

void bb__cc_frame_init(struct cc_frame *f)
{
	memset(f, 0, sizeof *f);
	f->t.sx = f->t.sy = 1;
	f->color[0] = f->color[1] = f->color[2] = f->color[3] = 255;
	f->tween = 1;
	f->blend = -1;
}

void bb__cc_unwrap(struct cc_movbone *mb)
{
	int j;

	for (j = mb->nframes - 1; j > 0; j--) {
		cc_node *a = &mb->frames[j - 1].t, *b = &mb->frames[j].t;
		double dx = b->kx - a->kx, dy = b->ky - a->ky;

		if (dx < -M_PI || dx > M_PI)
			a->kx += dx < 0 ? -2 * M_PI : 2 * M_PI;
		if (dy < -M_PI || dy > M_PI)
			a->ky += dy < 0 ? -2 * M_PI : 2 * M_PI;
	}
}

bb_xform bb__cc_xform(const cc_node *n)
{
	bb_xform x;

	x.x = n->x;
	x.y = -n->y;
	x.rotation = -n->ky;
	x.skew = n->kx + n->ky;
	x.sx = n->sx;
	x.sy = n->sy;
	return x;
}

double bb__cc_duration(double dr, double drtw, double sc)
{
	double frames = drtw > 0 ? drtw : dr;

	if (!(sc > 0))
		sc = 1;
	return frames > 0 ? frames / (60 * sc) : 0;
}

double bb__cc_key_time(double fi, double dr, double duration)
{
	return dr > 1 ? fi * duration / (dr - 1) : 0;
}

double bb__cc_delay_offset(double dl, int loop)
{
	double off;

	if (!loop || dl == 0)
		return 0;
	off = fmod(1 - dl, 1);
	return off < 0 ? off + 1 : off;
}

static void free_arm(struct cc_arm *a)
{
	int i, j, k;

	free(a->name);
	for (i = 0; i < a->nbones; i++) {
		free(a->bones[i].name);
		free(a->bones[i].parent);
		for (j = 0; j < a->bones[i].ndisplays; j++)
			free(a->bones[i].displays[j].name);
		free(a->bones[i].displays);
	}
	free(a->bones);
	for (i = 0; i < a->nmovs; i++) {
		struct cc_mov *mv = &a->movs[i];

		for (j = 0; j < mv->nbones; j++) {
			for (k = 0; k < mv->bones[j].nframes; k++) {
				free(mv->bones[j].frames[k].evt);
				free(mv->bones[j].frames[k].sound);
				free(mv->bones[j].frames[k].mov);
			}
			free(mv->bones[j].frames);
			free(mv->bones[j].name);
		}
		free(mv->bones);
		free(mv->name);
	}
	free(a->movs);
}

static void doc_free(struct cc_doc *d)
{
	int i;

	for (i = 0; i < d->narms; i++)
		free_arm(&d->arms[i]);
	free(d->arms);
	for (i = 0; i < d->ntex; i++)
		free(d->tex[i].name);
	free(d->tex);
	bb__atlas_free(&d->atlas);
}

/* ---- ExportJson -------------------------------------------------------- */

struct cj {
	struct cc_doc *d;
	bb__jctx j;
	double version;            /* of the armature being read */
	double content_scale;
};

static char *dup_str(struct cj *c, json_t *obj, const char *key, int required,
                     bb_status *s)
{
	const char *v;
	char *r;

	if ((*s = bb__jstr(&c->j, obj, key, required, &v)) != BB_OK)
		return NULL;
	r = bb__strdup(v ? v : "");
	if (!r)
		*s = bb__cc_nomem(c->d);
	return r;
}

/* A boolean also written as a number by some exporters. */
static bb_status jflag(struct cj *c, json_t *obj, const char *key, int def,
                       int *out)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_number(v)) {
		*out = json_number_value(v) != 0;
		return BB_OK;
	}
	return bb__jbool(&c->j, obj, key, def, out);
}

static bb_status read_node(struct cj *c, json_t *o, cc_node *n)
{
	bb_status s;

	if ((s = bb__jnum(&c->j, o, "x", 0, &n->x)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "y", 0, &n->y)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "kX", 0, &n->kx)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "kY", 0, &n->ky)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "cX", 1, &n->sx)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "cY", 1, &n->sy)) != BB_OK)
		return s;
	n->x *= c->content_scale;
	n->y *= c->content_scale;
	return BB_OK;
}

/* Frame colour: "color" from 1.1 on; before, the node's first member when
 * it is an object (the reader's legacy quirk, spec 3). */
static bb_status read_color(struct cj *c, json_t *o, struct cc_frame *f)
{
	static const char *const keys[4] = { "a", "r", "g", "b" };
	json_t *col = json_object_get(o, "color");
	size_t mark;
	int i;
	bb_status s;

	if (!col && c->version < 1.1 - 1e-9 && json_object_iter(o))
		col = json_object_iter_value(json_object_iter(o));
	if (!json_is_object(col))
		return BB_OK;
	mark = bb__jpath_key(&c->j.path, "color");
	for (i = 0; i < 4; i++) {
		if ((s = bb__jnum(&c->j, col, keys[i], 255, &f->color[i])) != BB_OK)
			return s;
		f->color[i] = fmin(fmax(f->color[i], 0), 255);
	}
	bb__jpath_pop(&c->j.path, mark);
	f->has_color = 1;
	return BB_OK;
}

static int gl_blend(double src, double dst)
{
	if ((src == 770 || src == 1) && dst == 1)
		return BB_BLEND_ADD;
	if (src == 774 && dst == 771)
		return BB_BLEND_MULTIPLY;
	if (src == 1 && dst == 769)
		return BB_BLEND_SCREEN;
	return -1;
}

static bb_status read_frame_extras(struct cj *c, json_t *o, struct cc_frame *f)
{
	json_t *ep;
	double src, dst;
	size_t i;
	bb_status s;

	if ((s = bb__jnum(&c->j, o, "bd_src", 1, &src)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "bd_dst", 771, &dst)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "twEP", 0, &ep)) != BB_OK)
		return s;
	f->blend = gl_blend(src, dst);
	for (i = 0; i < json_array_size(ep) && i < CC_TWEP_MAX; i++) {
		json_t *v = json_array_get(ep, i);

		if (!json_is_number(v)) {
			bb__jpath_key(&c->j.path, "twEP");
			return bb__jfail(&c->j, NULL, "expected numbers");
		}
		f->twep[i] = (float)json_number_value(v);
		f->ntwep = (int)i + 1;
	}
	if (!(f->evt = dup_str(c, o, "evt", 0, &s)) || !(f->sound = dup_str(c, o, "sd", 0, &s)) ||
	    !(f->mov = dup_str(c, o, "mov", 0, &s)))
		return s;
	return BB_OK;
}

static bb_status read_frame(struct cj *c, const struct cc_mov *mv, json_t *o,
                            struct cc_frame *f, double *pos)
{
	double v;
	bb_status s;

	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    (s = read_node(c, o, &f->t)) != BB_OK ||
	    (s = read_color(c, o, f)) != BB_OK ||
	    (s = bb__jnum_range(&c->j, o, "dI", 0, -1e6, 1e6, &v)) != BB_OK)
		return s;
	f->di = (int)floor(v);
	if ((s = bb__jnum_range(&c->j, o, "z", 0, -1e6, 1e6, &v)) != BB_OK)
		return s;
	f->z = (int)floor(v);
	if ((s = bb__jnum(&c->j, o, "twE", 0, &v)) != BB_OK)
		return s;
	f->twe = fabs(v) < 1e6 ? (int)v : 3;   /* unknown: Sine_EaseInOut */
	if ((s = jflag(c, o, "tweenFrame", 1, &f->tween)) != BB_OK ||
	    (s = read_frame_extras(c, o, f)) != BB_OK)
		return s;
	if (c->version >= CC_VERSION_COMBINED - 1e-9) {
		if ((s = bb__jnum(&c->j, o, "fi", 0, &f->fi)) != BB_OK)
			return s;
		if (f->fi < 0 || f->fi != floor(f->fi) || (mv->dr > 0 && f->fi > mv->dr))
			return bb__jfail(&c->j, "fi", "frame index %g is outside the "
			                 "movement's 0..%g", f->fi, mv->dr);
		return BB_OK;
	}
	/* before 0.3: keys carry durations (default 1) */
	if ((s = bb__jnum_range(&c->j, o, "dr", 1, 0, 1e7, &v)) != BB_OK)
		return s;
	f->fi = *pos;
	*pos += floor(v);
	return BB_OK;
}

static int by_fi(const void *a, const void *b)
{
	const struct cc_frame *x = a, *y = b;

	return x->fi < y->fi ? -1 : x->fi > y->fi;
}

/* Sorts keys by frame index, keeping file order for equal ones. */
static void sort_frames(struct cc_movbone *mb)
{
	int i, sorted = 1;

	for (i = 1; i < mb->nframes; i++)
		if (mb->frames[i].fi < mb->frames[i - 1].fi)
			sorted = 0;
	if (!sorted)   /* insertion order matters only for equal fi: rare */
		qsort(mb->frames, (size_t)mb->nframes, sizeof *mb->frames, by_fi);
}

static bb_status read_movbone(struct cj *c, const struct cc_mov *mv, json_t *o,
                              struct cc_movbone *mb)
{
	json_t *frames;
	double pos = 0;
	size_t i;
	bb_status s;

	mb->scale = 1;
	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(mb->name = dup_str(c, o, "name", 1, &s)) ||
	    (s = bb__jnum_range(&c->j, o, "dl", 0, -1e6, 1e6, &mb->dl)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "frame_data", 0, &frames)) != BB_OK)
		return s;
	bb__jpath_key(&c->j.path, "frame_data");
	for (i = 0; i < json_array_size(frames); i++) {
		size_t mark = bb__jpath_index(&c->j.path, i);
		struct cc_frame *f = bb__cc_add_frame(c->d, mb);

		if (!f)
			return bb_error_set(c->j.err, BB_ERR_LIMIT, c->j.file, c->j.path.buf,
			                    "more keys than the limit");
		if ((s = read_frame(c, mv, json_array_get(frames, i), f, &pos)) != BB_OK)
			return s;
		bb__jpath_pop(&c->j.path, mark);
	}
	sort_frames(mb);
	if (c->version < CC_VERSION_ROTATION_RANGE - 1e-9)
		bb__cc_unwrap(mb);
	if (c->version < CC_VERSION_COMBINED - 1e-9 && mb->nframes > 0) {
		/* the reader's copy of the last key at the total duration */
		struct cc_frame last = mb->frames[mb->nframes - 1], *f;

		if (!(f = bb__cc_add_frame(c->d, mb)))
			return bb__cc_nomem(c->d);
		*f = last;
		f->evt = f->sound = f->mov = NULL;
		f->fi = pos;
	}
	return BB_OK;
}

static bb_status read_mov(struct cj *c, json_t *o, struct cc_mov *mv)
{
	json_t *bones;
	double v;
	size_t i;
	bb_status s;

	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(mv->name = dup_str(c, o, "name", 1, &s)) ||
	    (s = bb__jnum_range(&c->j, o, "dr", 0, 0, 1e7, &mv->dr)) != BB_OK ||
	    (s = bb__jnum_range(&c->j, o, "drTW", 0, -1e7, 1e7, &mv->drtw)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "to", 0, &mv->to)) != BB_OK ||
	    (s = bb__jnum_range(&c->j, o, "sc", 1, 0, 1e6, &mv->sc)) != BB_OK ||
	    (s = jflag(c, o, "lp", 1, &mv->loop)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "twE", 0, &v)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "mov_bone_data", 0, &bones)) != BB_OK)
		return s;
	mv->dr = floor(mv->dr);
	mv->twe = fabs(v) < 1e6 ? (int)v : 3;
	bb__jpath_key(&c->j.path, "mov_bone_data");
	for (i = 0; i < json_array_size(bones); i++) {
		size_t mark = bb__jpath_index(&c->j.path, i);
		struct cc_movbone *mb = bb__cc_add_movbone(c->d, mv);

		if (!mb)
			return bb__cc_nomem(c->d);
		if ((s = read_movbone(c, mv, json_array_get(bones, i), mb)) != BB_OK)
			return s;
		bb__jpath_pop(&c->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_animation(struct cj *c, json_t *o)
{
	const char *name;
	struct cc_arm *a;
	json_t *movs;
	size_t i;
	bb_status s;

	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    (s = bb__jstr(&c->j, o, "name", 1, &name)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "mov_data", 0, &movs)) != BB_OK)
		return s;
	if (!(a = bb__cc_find_arm(c->d, name))) {
		bb__model_warn(c->d->m, "%s: animation \"%s\" names no armature; "
		               "ignored", c->d->ctx->name, name);
		return BB_OK;
	}
	c->version = a->version;
	bb__jpath_key(&c->j.path, "mov_data");
	for (i = 0; i < json_array_size(movs); i++) {
		size_t mark = bb__jpath_index(&c->j.path, i);
		struct cc_mov *mv = bb__cc_add_mov(c->d, a);

		if (!mv)
			return bb__cc_nomem(c->d);
		if ((s = read_mov(c, json_array_get(movs, i), mv)) != BB_OK)
			return s;
		bb__jpath_pop(&c->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_display(struct cj *c, json_t *o, struct cc_display *ds)
{
	json_t *skins, *sk;
	double type;
	bb_status s;

	ds->skin.sx = ds->skin.sy = 1;
	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(ds->name = dup_str(c, o, "name", 0, &s)) ||
	    (s = bb__jnum_range(&c->j, o, "displayType", 0, 0, 1e6, &type)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "skin_data", 0, &skins)) != BB_OK)
		return s;
	ds->type = type == 1 || type == 2 ? (int)type : 0;
	sk = json_array_get(skins, 0);
	if (!sk)
		return BB_OK;
	bb__jpath_key(&c->j.path, "skin_data[0]");
	if ((s = bb__jexpect_object(&c->j, sk)) != BB_OK ||
	    (s = read_node(c, sk, &ds->skin)) != BB_OK ||
	    /* the reader's default for absent skews is 1 rad (spec 7.1) */
	    (s = bb__jnum(&c->j, sk, "kX", 1, &ds->skin.kx)) != BB_OK ||
	    (s = bb__jnum(&c->j, sk, "kY", 1, &ds->skin.ky)) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status read_bone(struct cj *c, json_t *o, struct cc_bone *b)
{
	json_t *disps;
	double z;
	size_t i;
	bb_status s;

	snprintf(b->path, sizeof b->path, "%s", c->j.path.buf);
	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(b->name = dup_str(c, o, "name", 1, &s)) ||
	    !(b->parent = dup_str(c, o, "parent", 0, &s)) ||
	    (s = read_node(c, o, &b->t)) != BB_OK ||
	    (s = bb__jnum_range(&c->j, o, "z", 0, -1e6, 1e6, &z)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "display_data", 0, &disps)) != BB_OK)
		return s;
	b->z = (int)floor(z);
	bb__jpath_key(&c->j.path, "display_data");
	for (i = 0; i < json_array_size(disps); i++) {
		size_t mark = bb__jpath_index(&c->j.path, i);
		struct cc_display *ds = bb__cc_add_display(c->d, b);

		if (!ds)
			return bb__cc_nomem(c->d);
		if ((s = read_display(c, json_array_get(disps, i), ds)) != BB_OK)
			return s;
		bb__jpath_pop(&c->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_armature(struct cj *c, json_t *o, struct cc_arm *a)
{
	json_t *bones;
	size_t i;
	bb_status s;

	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(a->name = dup_str(c, o, "name", 1, &s)) ||
	    (s = bb__jnum(&c->j, o, "version", 0.1, &a->version)) != BB_OK ||
	    (s = bb__jarray(&c->j, o, "bone_data", 0, &bones)) != BB_OK)
		return s;
	if (json_array_size(bones) > (size_t)c->d->ctx->opts->max_bones)
		return bb__jfail(&c->j, "bone_data", "%zu bones exceed the limit of %d",
		                 json_array_size(bones), c->d->ctx->opts->max_bones);
	bb__jpath_key(&c->j.path, "bone_data");
	for (i = 0; i < json_array_size(bones); i++) {
		size_t mark = bb__jpath_index(&c->j.path, i);
		struct cc_bone *b = bb__cc_add_bone(c->d, a);

		if (!b)
			return bb__cc_nomem(c->d);
		if ((s = read_bone(c, json_array_get(bones, i), b)) != BB_OK)
			return s;
		bb__jpath_pop(&c->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_texture(struct cj *c, json_t *o, struct cc_tex *t)
{
	bb_status s;

	if ((s = bb__jexpect_object(&c->j, o)) != BB_OK ||
	    !(t->name = dup_str(c, o, "name", 1, &s)) ||
	    (s = bb__jnum(&c->j, o, "pX", 0.5, &t->px)) != BB_OK ||
	    (s = bb__jnum(&c->j, o, "pY", 0.5, &t->py)) != BB_OK)
		return s;
	return BB_OK;
}

/* Each element of root[key] through fn(c, element, index). */
static bb_status each(struct cj *c, json_t *root, const char *key,
                      bb_status (*fn)(struct cj *, json_t *, size_t))
{
	json_t *arr;
	size_t i;
	bb_status s;

	if ((s = bb__jarray(&c->j, root, key, 0, &arr)) != BB_OK)
		return s;
	for (i = 0; i < json_array_size(arr); i++) {
		bb__jpath_init(&c->j.path);
		bb__jpath_key(&c->j.path, key);
		bb__jpath_index(&c->j.path, i);
		if ((s = fn(c, json_array_get(arr, i), i)) != BB_OK)
			return s;
	}
	bb__jpath_init(&c->j.path);
	return BB_OK;
}

static bb_status each_armature(struct cj *c, json_t *o, size_t i)
{
	struct cc_arm *a = bb__cc_add_arm(c->d);

	(void)i;
	return a ? read_armature(c, o, a) : bb__cc_nomem(c->d);
}

static bb_status each_animation(struct cj *c, json_t *o, size_t i)
{
	(void)i;
	return read_animation(c, o);
}

static bb_status each_texture(struct cj *c, json_t *o, size_t i)
{
	struct cc_tex *t = bb__cc_add_tex(c->d);

	(void)i;
	return t ? read_texture(c, o, t) : bb__cc_nomem(c->d);
}

/* config_file_path[i]: "x.plist" -> x.plist with x.png beside it.  A plist
 * that cannot be read is a warning (its images draw as nothing). */
static bb_status each_config(struct cj *c, json_t *o, size_t i)
{
	char plist[4200], png[4200];
	const char *rel = json_string_value(o), *dot;
	struct stat st;
	bb_status s;

	(void)i;
	if (!rel)
		return bb__jfail(&c->j, NULL, "expected a string");
	if (!bb__path_join(plist, sizeof plist, c->d->ctx->dir, rel))
		return bb__jfail(&c->j, NULL, "path too long");
	dot = strrchr(plist, '.');
	snprintf(png, sizeof png, "%.*s.png",
	         (int)(dot && dot > strrchr(plist, '/') ? (size_t)(dot - plist)
	                                              : strlen(plist)), plist);
	if (stat(plist, &st) != 0) {
		bb__model_warn(c->d->m, "%s: atlas \"%s\" not found; its images are "
		               "not drawn", c->d->ctx->name, rel);
		return BB_OK;
	}
	s = bb__plist_load(c->d->m, plist, stat(png, &st) == 0 ? png : NULL,
	                   &c->d->atlas, c->j.err);
	c->d->have_atlas |= s == BB_OK;
	return s;
}

static bb_status read_json(struct cc_doc *d, json_t *root)
{
	struct cj c;
	bb_status s;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.j.file = d->ctx->name;
	c.j.err = d->err;
	bb__jpath_init(&c.j.path);
	if ((s = bb__jexpect_object(&c.j, root)) != BB_OK ||
	    (s = bb__jnum_range(&c.j, root, "content_scale", 1, 1e-6, 1e6,
	                        &c.content_scale)) != BB_OK)
		return s;
	if ((s = each(&c, root, "armature_data", each_armature)) != BB_OK ||
	    (s = each(&c, root, "animation_data", each_animation)) != BB_OK ||
	    (s = each(&c, root, "texture_data", each_texture)) != BB_OK)
		return s;
	if (d->narms == 0)
		return bb__jfail(&c.j, "armature_data", "no armatures");
	if (d->ctx->opts->atlas_path) {
		s = bb__plist_load(d->m, d->ctx->opts->atlas_path, NULL, &d->atlas, d->err);
		d->have_atlas = s == BB_OK;
		return s;
	}
	return each(&c, root, "config_file_path", each_config);
}

/* ---- loader table entry points ----------------------------------------- */

int bb__sniff_cocos_json(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"armature_data\"") != NULL;
}

/* The XML format: a <skeleton> root holding <armatures>. */
int bb__sniff_cocos_xml(const char *data, size_t size, const char *path)
{
	const char *p = data, *end = data + size;

	(void)path;
	if (size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (p < end) {
		while (p < end && strchr(" \t\r\n", *p) && *p)
			p++;
		if (p + 1 < end && p[0] == '<' && (p[1] == '?' || p[1] == '!')) {
			const char *q = strchr(p, '>');

			if (!q)
				return 0;
			p = q + 1;
			continue;
		}
		break;
	}
	return end - p > 9 && strncmp(p, "<skeleton", 9) == 0 &&
	       strchr(" \t\r\n>", p[9]) && strstr(p, "<armatures") != NULL;
}

static bb_status load(bb__load_ctx *ctx, json_t *json, const bb__xnode *xml,
                      bb_model *m)
{
	struct cc_doc d;
	bb_status s;

	memset(&d, 0, sizeof d);
	d.ctx = ctx;
	d.err = ctx->err;
	d.format = xml ? "cocos-xml" : "cocos-json";
	d.m = m;
	s = xml ? bb__cc_read_xml(&d, xml) : read_json(&d, json);
	if (s == BB_OK)
		s = bb__cc_build(&d);
	doc_free(&d);
	return s;
}

bb_status bb__load_cocos_json(bb__load_ctx *ctx, json_t *root, bb_model *m)
{
	return load(ctx, root, NULL, m);
}

bb_status bb__load_cocos_xml(bb__load_ctx *ctx, const bb__xnode *root,
                             bb_model *m)
{
	return load(ctx, NULL, root, m);
}
