/* Cocos Studio ExportJson (data versions 0.3, 1.0, 1.1 and later; older
 * pre-0.3 files with per-key durations too) into the format-neutral
 * description of cocos.h; the loader table's entry points for both Cocos
 * formats; shared helpers.  Semantics: ../shared/spec/cocos.md. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/cocos.h"
#include "loaders/plist.h"

/* ---- description helpers --------------------------------------------- */

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

	if (mb->nframes >= d->c->opts->max_keys)
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
	bb_xform x = bb__xform_identity();   /* no shear */

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

bb_status bb__cc_plist(struct cc_doc *d, const bb__ref *r)
{
	bb_status s = bb__plist_load(d->c, r, &d->atlas);

	d->have_atlas |= s == BB_OK;
	return s;
}

/* ---- ExportJson -------------------------------------------------------- */

struct cj {
	struct cc_doc *d;
	bb__jctx *j;
	double version;            /* of the armature being read */
	double content_scale;
};

/* *out = a copy of string member key ("" when absent). */
static bb_status dup_str(struct cj *c, json_t *obj, const char *key, int required,
                         char **out)
{
	const char *v;
	bb_status s;

	if ((s = bb__jstr(c->j, obj, key, required, &v)) != BB_OK)
		return s;
	return bb__build_str(c->d->b, out, v ? v : "");
}

static bb_status read_node(struct cj *c, json_t *o, cc_node *n)
{
	bb_status s;

	if ((s = bb__jnum(c->j, o, "x", 0, &n->x)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "y", 0, &n->y)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "kX", 0, &n->kx)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "kY", 0, &n->ky)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "cX", 1, &n->sx)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "cY", 1, &n->sy)) != BB_OK)
		return s;
	n->x *= c->content_scale;
	n->y *= c->content_scale;
	return BB_OK;
}

/* Frame colour: "color" from 1.1 on; before, the node's first member when
 * it is an object (the reader's legacy quirk, spec 3).  A "color" that is
 * not an object is no colour: exports of 1.0 write [{a, r, g, b}], which
 * the reader's object lookup does not see. */
static bb_status read_color(struct cj *c, json_t *o, struct cc_frame *f)
{
	static const char *const keys[4] = { "a", "r", "g", "b" };
	json_t *col = NULL;
	bb__jiter it;
	size_t mark;
	int i;
	bb_status s;

	if (bb__jkind_of(o, "color") == BB_JK_OBJECT) {
		bb__jobject(c->j, o, "color", 0, &col);
	} else if (!bb__jhas(o, "color") && c->version < 1.1 - 1e-9) {
		bb__jeach_member(c->j, o, NULL, 0, &it);
		if (bb__jnext(&it, &col) && bb__jkind_of(col, NULL) != BB_JK_OBJECT)
			col = NULL;
		bb__jdone(&it);
	}
	if (!col)
		return BB_OK;
	mark = bb__jpath_key(&c->j->path, "color");
	for (i = 0; i < 4; i++) {
		if ((s = bb__jnum(c->j, col, keys[i], 255, &f->color[i])) != BB_OK)
			return s;
		f->color[i] = fmin(fmax(f->color[i], 0), 255);
	}
	bb__jpath_pop(&c->j->path, mark);
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
	double src, dst, v;
	bb__jiter it;
	json_t *e;
	bb_status s;

	if ((s = bb__jnum(c->j, o, "bd_src", 1, &src)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "bd_dst", 771, &dst)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "twEP", 0, &it)) != BB_OK)
		return s;
	f->blend = gl_blend(src, dst);
	while (bb__jnext(&it, &e) && it.index < CC_TWEP_MAX) {
		if ((s = bb__jnum(c->j, e, NULL, 0, &v)) != BB_OK)
			return s;
		f->twep[it.index] = (float)v;
		f->ntwep = (int)it.index + 1;
	}
	bb__jdone(&it);
	if ((s = dup_str(c, o, "evt", 0, &f->evt)) != BB_OK ||
	    (s = dup_str(c, o, "sd", 0, &f->sound)) != BB_OK ||
	    (s = dup_str(c, o, "mov", 0, &f->mov)) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status read_frame(struct cj *c, const struct cc_mov *mv, json_t *o,
                            struct cc_frame *f, double *pos)
{
	double v;
	bb_status s;

	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = read_node(c, o, &f->t)) != BB_OK ||
	    (s = read_color(c, o, f)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "dI", 0, -1e6, 1e6, &v)) != BB_OK)
		return s;
	f->di = (int)floor(v);
	if ((s = bb__jnum_range(c->j, o, "z", 0, -1e6, 1e6, &v)) != BB_OK)
		return s;
	f->z = (int)floor(v);
	if ((s = bb__jnum(c->j, o, "twE", 0, &v)) != BB_OK)
		return s;
	f->twe = fabs(v) < 1e6 ? (int)v : 3;   /* unknown: Sine_EaseInOut */
	if ((s = bb__jbool(c->j, o, "tweenFrame", 1, &f->tween)) != BB_OK ||
	    (s = read_frame_extras(c, o, f)) != BB_OK)
		return s;
	if (c->version >= CC_VERSION_COMBINED - 1e-9) {
		if ((s = bb__jnum(c->j, o, "fi", 0, &f->fi)) != BB_OK)
			return s;
		if (f->fi < 0 || f->fi != floor(f->fi) || (mv->dr > 0 && f->fi > mv->dr))
			return bb__jfail(c->j, "fi", "frame index %g is outside the "
			                 "movement's 0..%g", f->fi, mv->dr);
		return BB_OK;
	}
	/* before 0.3: keys carry durations (default 1) */
	if ((s = bb__jnum_range(c->j, o, "dr", 1, 0, 1e7, &v)) != BB_OK)
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
	bb__jiter it;
	json_t *jf;
	double pos = 0;
	bb_status s;

	mb->scale = 1;
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 1, &mb->name)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "dl", 0, -1e6, 1e6, &mb->dl)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "frame_data", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jf)) {
		struct cc_frame *f = bb__cc_add_frame(c->d, mb);

		if (!f)
			return bb__jlimit(c->j, NULL, "more than %d keys",
			                  c->d->c->opts->max_keys);
		if ((s = read_frame(c, mv, jf, f, &pos)) != BB_OK)
			return s;
	}
	sort_frames(mb);
	if (c->version < CC_VERSION_ROTATION_RANGE - 1e-9)
		bb__cc_unwrap(mb);
	if (c->version < CC_VERSION_COMBINED - 1e-9 && mb->nframes > 0) {
		/* the reader's copy of the last key at the total duration */
		struct cc_frame last = mb->frames[mb->nframes - 1], *f;

		if (!(f = bb__cc_add_frame(c->d, mb)))
			return bb__jlimit(c->j, NULL, "more than %d keys",
			                  c->d->c->opts->max_keys);
		*f = last;
		f->evt = f->sound = f->mov = NULL;
		f->fi = pos;
	}
	return BB_OK;
}

static bb_status read_mov(struct cj *c, json_t *o, struct cc_mov *mv)
{
	bb__jiter it;
	json_t *jb;
	double v;
	bb_status s;

	snprintf(mv->path, sizeof mv->path, "%s", c->j->path.buf);
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 1, &mv->name)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "dr", 0, 0, 1e7, &mv->dr)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "drTW", 0, -1e7, 1e7, &mv->drtw)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "to", 0, &mv->to)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "sc", 1, 0, 1e6, &mv->sc)) != BB_OK ||
	    (s = bb__jbool(c->j, o, "lp", 1, &mv->loop)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "twE", 0, &v)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "mov_bone_data", 0, &it)) != BB_OK)
		return s;
	mv->dr = floor(mv->dr);
	mv->twe = fabs(v) < 1e6 ? (int)v : 3;
	while (bb__jnext(&it, &jb)) {
		struct cc_movbone *mb = bb__cc_add_movbone(c->d, mv);

		if (!mb)
			return bb__build_nomem(c->d->b);
		if ((s = read_movbone(c, mv, jb, mb)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_animation(struct cj *c, json_t *o)
{
	const char *name;
	struct cc_arm *a;
	bb__jiter it;
	json_t *jm;
	bb_status s;

	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = bb__jstr(c->j, o, "name", 1, &name)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "mov_data", 0, &it)) != BB_OK)
		return s;
	if (!(a = bb__cc_find_arm(c->d, name))) {
		bb__jdone(&it);
		bb__model_warn(c->d->m, "%s: animation \"%s\" names no armature; "
		               "ignored", c->d->c->name, name);
		return BB_OK;
	}
	c->version = a->version;
	while (bb__jnext(&it, &jm)) {
		struct cc_mov *mv = bb__cc_add_mov(c->d, a);

		if (!mv)
			return bb__build_nomem(c->d->b);
		if ((s = read_mov(c, jm, mv)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_display(struct cj *c, json_t *o, struct cc_display *ds)
{
	json_t *sk = NULL;
	bb__jiter it;
	double type;
	bb_status s;

	ds->skin.sx = ds->skin.sy = 1;
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 0, &ds->name)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "displayType", 0, 0, 1e6, &type)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "skin_data", 0, &it)) != BB_OK)
		return s;
	ds->type = type == 1 || type == 2 ? (int)type : 0;
	if (!bb__jnext(&it, &sk))
		return BB_OK;
	/* the first skin only */
	if ((s = bb__jexpect_object(c->j, sk)) != BB_OK ||
	    (s = read_node(c, sk, &ds->skin)) != BB_OK ||
	    /* the reader's default for absent skews is 1 rad (spec 7.1) */
	    (s = bb__jnum(c->j, sk, "kX", 1, &ds->skin.kx)) != BB_OK ||
	    (s = bb__jnum(c->j, sk, "kY", 1, &ds->skin.ky)) != BB_OK)
		return s;
	bb__jdone(&it);
	return BB_OK;
}

static bb_status read_bone(struct cj *c, json_t *o, struct cc_bone *b)
{
	bb__jiter it;
	json_t *jd;
	double z;
	bb_status s;

	snprintf(b->path, sizeof b->path, "%s", c->j->path.buf);
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 1, &b->name)) != BB_OK ||
	    (s = dup_str(c, o, "parent", 0, &b->parent)) != BB_OK ||
	    (s = read_node(c, o, &b->t)) != BB_OK ||
	    (s = bb__jnum_range(c->j, o, "z", 0, -1e6, 1e6, &z)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "display_data", 0, &it)) != BB_OK)
		return s;
	b->z = (int)floor(z);
	while (bb__jnext(&it, &jd)) {
		struct cc_display *ds = bb__cc_add_display(c->d, b);

		if (!ds)
			return bb__build_nomem(c->d->b);
		if ((s = read_display(c, jd, ds)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_armature(struct cj *c, json_t *o)
{
	struct cc_arm *a = bb__cc_add_arm(c->d);
	bb__jiter it;
	json_t *jb;
	bb_status s;

	if (!a)
		return bb__build_nomem(c->d->b);
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 1, &a->name)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "version", 0.1, &a->version)) != BB_OK ||
	    (s = bb__jeach(c->j, o, "bone_data", 0, &it)) != BB_OK)
		return s;
	if (it.n > (size_t)c->d->c->opts->max_bones)
		return bb__jlimit(c->j, NULL, CC_BONES_LIMIT, it.n,
		                  c->d->c->opts->max_bones);
	while (bb__jnext(&it, &jb)) {
		struct cc_bone *b = bb__cc_add_bone(c->d, a);

		if (!b)
			return bb__build_nomem(c->d->b);
		if ((s = read_bone(c, jb, b)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_texture(struct cj *c, json_t *o)
{
	struct cc_tex *t = bb__cc_add_tex(c->d);
	bb_status s;

	if (!t)
		return bb__build_nomem(c->d->b);
	if ((s = bb__jexpect_object(c->j, o)) != BB_OK ||
	    (s = dup_str(c, o, "name", 1, &t->name)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "pX", 0.5, &t->px)) != BB_OK ||
	    (s = bb__jnum(c->j, o, "pY", 0.5, &t->py)) != BB_OK)
		return s;
	return BB_OK;
}

/* config_file_path[i] (path at it): a plist relative to the file; one
 * that is not there is a warning (its images draw as nothing). */
static bb_status read_config(struct cj *c, json_t *o)
{
	const char *rel;
	bb__ref r;
	int have;
	bb_status s;

	if ((s = bb__jstr(c->j, o, NULL, 1, &rel)) != BB_OK)
		return s;
	r = (bb__ref){ .at = c->j, .what = "atlas", .name = rel };
	if ((have = bb__load_exists(c->d->c, &r)) < 0)
		return BB_ERR_INPUT;
	if (!have) {
		bb__model_warn(c->d->m, "%s: atlas \"%s\" not found; its images are "
		               "not drawn", c->d->c->name, rel);
		return BB_OK;
	}
	return bb__cc_plist(c->d, &r);
}

/* Each element of root[key] through fn. */
static bb_status each(struct cj *c, json_t *root, const char *key,
                      bb_status (*fn)(struct cj *, json_t *))
{
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jeach(c->j, root, key, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v))
		if ((s = fn(c, v)) != BB_OK)
			return s;
	return BB_OK;
}

static bb_status read_json(struct cc_doc *d, json_t *root)
{
	struct cj c;
	bb_status s;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.j = &d->c->at;
	/* some exporters write booleans as numbers */
	c.j->flags = BB_J_LENIENT_BOOLS;
	if ((s = bb__jexpect_object(c.j, root)) != BB_OK ||
	    (s = bb__jnum_range(c.j, root, "content_scale", 1, 1e-6, 1e6,
	                        &c.content_scale)) != BB_OK)
		return s;
	if ((s = each(&c, root, "armature_data", read_armature)) != BB_OK ||
	    (s = each(&c, root, "animation_data", read_animation)) != BB_OK ||
	    (s = each(&c, root, "texture_data", read_texture)) != BB_OK)
		return s;
	if (d->narms == 0)
		return bb__jfail(c.j, "armature_data", "no armatures");
	if (d->c->opts->atlas_path)
		return bb__cc_plist(d, &(bb__ref){ .what = "atlas",
		                                  .name = d->c->opts->atlas_path,
		                                  .dir = "" });
	return each(&c, root, "config_file_path", read_config);
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

static bb_status load(bb__load_ctx *c, json_t *json, const bb__xnode *xml)
{
	struct cc_doc d;
	bb_status s;

	memset(&d, 0, sizeof d);
	d.c = c;
	d.b = &c->b;
	d.m = c->m;
	s = xml ? bb__cc_read_xml(&d, xml) : read_json(&d, json);
	if (s == BB_OK)
		s = bb__cc_build(&d);
	doc_free(&d);
	return s;
}

bb_status bb__load_cocos_json(bb__load_ctx *c, json_t *root, bb_model *m)
{
	(void)m;
	return load(c, root, NULL);
}

bb_status bb__load_cocos_xml(bb__load_ctx *c, const bb__xnode *root,
                             bb_model *m)
{
	(void)m;
	return load(c, NULL, root);
}
