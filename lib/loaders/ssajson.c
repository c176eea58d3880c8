/* SpriteStudio SSAJSON (../shared/spec/ssajson.md): the converters' fully
 * baked output.  Every frame lists every visible part, already in world
 * space (relative to the animation origin, y down), in paint order.
 *
 * Mapping onto the shared model (one armature for the whole file, named
 * after the file, or after the object in the single-object form):
 *   record position k in a frame  -> slot k on its own root bone k
 *   px, py, -angle, scaleX/Y      -> stepped bone timelines (replace)
 *   (image, source rect, pivot,   -> one image display per distinct
 *    flips, alpha blend)             combination a slot uses; corners are
 *                                    the unflipped quad minus the pivot,
 *                                    texture coordinates swapped for flips
 *   no record / an empty rect     -> display -1 (nothing drawn)
 *   opacity                       -> stepped slot colour (alpha multiplier)
 *   vertex deformation            -> deform timeline, stride 8, for the
 *                                    slot's image display (corners TL TR
 *                                    BR BL; the file lists TL TR BL BR)
 *   1.0.4 colour blend + colours  -> vertex colour timeline
 *   fps, ssa.length               -> key k at k / fps; duration n / fps;
 *                                    looping (n frames)
 *   CanvasWidth/Height, Margin*   -> the animation's stage
 * Values that stay equal from frame to frame share one stepped key.
 *
 * Choices where the format is unconfirmed or silent (docs/formats/ssajson.md):
 *   - 1.0.4 vertex colours are 32-bit integers packed ARGB (the binary
 *     writer's packing: A, the blend rate, in the top byte); negative
 *     values are read as their unsigned 32-bit pattern.  The colour label
 *     and the eight vertex positions are checked to be numbers and not
 *     used: the quad is computed from fields 0-24.
 *   - a negative source width or height is an error; 0 draws nothing.
 *   - MarginWidth is the origin's distance from the canvas' left edge,
 *     MarginHeight from its bottom edge (SS5's y-up pivot); without
 *     margins the origin is the canvas centre. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/ssajson.h"

/* Error at the current path + "[i]". */
static bb_status fail_at(struct ssa *s, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bb_status fail_at(struct ssa *s, size_t i, const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	bb__jpath_index(&s->j->path, i);
	return bb__jfail(s->j, NULL, "%s", msg);
}

static int integral(double v)
{
	return v == floor(v);
}

/* ---- part records ------------------------------------------------------ */

/* An integral field; *ok says whether it lies in [lo, hi]. */
static bb_status int_field(struct ssa *s, const double *f, int i, int lo, int hi,
                           int *out, int *ok)
{
	if (!integral(f[i]))
		return fail_at(s, (size_t)i, "expected an integer, found %g", f[i]);
	*ok = f[i] >= lo && f[i] <= hi;
	*out = *ok ? (int)f[i] : 0;
	return BB_OK;
}

static bb_status read_colors(struct ssa *s, const double *f, struct rec *r)
{
	int k;

	for (k = 0; k < 4; k++) {
		double v = f[F_VCOLOR + k];

		if (!integral(v) || v < -2147483648.0 || v > 4294967295.0)
			return fail_at(s, (size_t)(F_VCOLOR + k), "expected a 32-bit "
			               "ARGB colour integer, found %g", v);
		r->vc[k] = (uint32_t)(int64_t)(v < 0 ? v + 4294967296.0 : v);
	}
	return BB_OK;
}

#define BLEND_TYPES "(0 mix, 1 multiply, 2 add, 3 subtract)"

/* Part and image indices, flips and blend types. */
static bb_status read_ints(struct ssa *s, const struct sanim *an, const double *f,
                           struct rec *r)
{
	int ok = 0, label;
	bb_status st;

	if ((st = int_field(s, f, F_PART, 0, an->nparts - 1, &r->part, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_PART, "part index %g out of range (%d parts)",
		               f[F_PART], an->nparts);
	if ((st = int_field(s, f, F_IMAGE, 0, an->nimages - 1, &r->image, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_IMAGE, "image index %g out of range (%d images)",
		               f[F_IMAGE], an->nimages);
	if ((st = int_field(s, f, F_FLIPH, 0, 1, &r->fh, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_FLIPH, "flip %g is neither 0 nor 1", f[F_FLIPH]);
	if ((st = int_field(s, f, F_FLIPV, 0, 1, &r->fv, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_FLIPV, "flip %g is neither 0 nor 1", f[F_FLIPV]);
	if ((st = int_field(s, f, F_BLEND, 0, 3, &r->blend, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_BLEND, "unknown alpha blend type %g " BLEND_TYPES,
		               f[F_BLEND]);
	if ((st = int_field(s, f, F_LABEL, INT32_MIN + 1, INT32_MAX - 1, &label, &ok)))
		return st;
	if ((st = int_field(s, f, F_CBLEND, 0, 3, &r->cblend, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_CBLEND, "unknown colour blend type %g " BLEND_TYPES,
		               f[F_CBLEND]);
	return BB_OK;
}

/* The fields of record jr (path at it): numbers, the missing trailing
 * ones at their defaults. */
static bb_status read_fields(struct ssa *s, json_t *jr, double *f)
{
	static const double defaults[F_DEFORM] = { [F_SCX] = 1, [F_SCY] = 1,
	                                          [F_OPACITY] = 1 };
	bb__jiter it;
	json_t *v;
	size_t n = bb__jsize(jr);
	int i;
	bb_status st;

	if (bb__jkind_of(jr, NULL) != BB_JK_ARRAY)
		return bb__jfail(s->j, NULL, "expected a part record (an array of "
		                 "numbers), found %s", bb__json_type_name(jr));
	if (n < MIN_FIELDS)
		return bb__jfail(s->j, NULL, "a part record has at least %d fields, "
		                 "found %zu", MIN_FIELDS, n);
	if (n > MAX_FIELDS)
		bb__model_warn(s->c->m, "%s: part records longer than %d fields: the "
		               "extra fields are ignored", s->c->name, MAX_FIELDS);
	for (i = 0; i < MAX_FIELDS; i++)
		f[i] = i < F_DEFORM ? defaults[i] : 0;
	bb__jeach(s->j, jr, NULL, 0, &it);
	while (bb__jnext(&it, &v) && it.index < MAX_FIELDS)
		if ((st = bb__jnum(s->j, v, NULL, 0, &f[it.index])) != BB_OK)
			return st;
	bb__jdone(&it);
	return BB_OK;
}

static bb_status read_record(struct ssa *s, const struct sanim *an, json_t *jr,
                             struct rec *r)
{
	double f[MAX_FIELDS];
	int k;
	bb_status st;

	memset(r, 0, sizeof *r);
	if ((st = read_fields(s, jr, f)) != BB_OK ||
	    (st = read_ints(s, an, f, r)) != BB_OK)
		return st;
	for (k = 0; k < 4; k++)
		r->src[k] = f[F_SX + k];
	for (k = 2; k < 4; k++)
		if (r->src[k] < 0)
			return fail_at(s, (size_t)(F_SX + k), "negative size %g", r->src[k]);
	r->px = f[F_PX];
	r->py = f[F_PY];
	r->angle = f[F_ANGLE];
	r->scx = f[F_SCX];
	r->scy = f[F_SCY];
	r->ox = f[F_OX];
	r->oy = f[F_OY];
	r->opacity = f[F_OPACITY];
	if (r->opacity < 0 || r->opacity > 1)
		return fail_at(s, F_OPACITY, "opacity %g outside 0..1", r->opacity);
	for (k = 0; k < 8; k++)
		r->def[k] = f[F_DEFORM + k];
	return read_colors(s, f, r);
}

static bb_status add_record(struct ssa *s, struct sanim *an, json_t *jr)
{
	struct rec *r;
	bb_status st;

	if (++s->nrecs > (size_t)s->c->opts->max_keys)
		return bb__jlimit(s->j, NULL, "%zu part records exceed the limit of %d",
		                  s->nrecs, s->c->opts->max_keys);
	if (!bb__grow((void **)&an->recs, &an->cap, an->nrecs + 1, sizeof *an->recs))
		return bb__jnomem(s->j);
	r = &an->recs[an->nrecs];
	if ((st = read_record(s, an, jr, r)) != BB_OK)
		return st;
	an->nrecs++;
	if (r->src[2] > 0 && r->src[3] > 0) {
		double *e = &an->extent[2 * r->image];

		e[0] = fmax(e[0], r->src[0] + r->src[2]);
		e[1] = fmax(e[1], r->src[1] + r->src[3]);
	}
	return BB_OK;
}

/* animation.ssa: frames of part records. */
static bb_status read_frames(struct ssa *s, struct sanim *an, json_t *ja)
{
	bb__jiter it, rt;
	json_t *fr, *jr;
	bb_status st;

	if ((st = bb__jeach(s->j, ja, "ssa", BB_J_REQUIRED, &it)) != BB_OK)
		return st;
	if (it.n == 0)
		return bb__jfail(s->j, NULL, "no frames (the ssa list is empty)");
	if (it.n > MAX_FRAMES)
		return bb__jlimit(s->j, NULL, "%zu frames exceed the limit of %d", it.n,
		                  MAX_FRAMES);
	an->nframes = (int)it.n;
	if (!(an->first = bb__calloc(it.n + 1, sizeof *an->first)))
		return bb__jnomem(s->j);
	while (bb__jnext(&it, &fr)) {
		an->first[it.index] = an->nrecs;
		if (bb__jkind_of(fr, NULL) != BB_JK_ARRAY)
			return bb__jfail(s->j, NULL, "expected a frame (an array of part "
			                 "records), found %s", bb__json_type_name(fr));
		bb__jeach(s->j, fr, NULL, 0, &rt);
		if (rt.n > MAX_RECORDS)
			return bb__jlimit(s->j, NULL, "%zu part records in one frame exceed "
			                  "the limit of %d", rt.n, MAX_RECORDS);
		if ((int)rt.n > s->nslots)
			s->nslots = (int)rt.n;
		while (bb__jnext(&rt, &jr))
			if ((st = add_record(s, an, jr)) != BB_OK)
				return st;
	}
	an->first[an->nframes] = an->nrecs;
	return BB_OK;
}

/* ---- animation objects ------------------------------------------------- */

static bb_status read_images(struct ssa *s, json_t *obj, struct sanim *an)
{
	bb__jiter it;
	json_t *v;
	bb_status st;

	if ((st = bb__jeach(s->j, obj, "images", BB_J_REQUIRED, &it)) != BB_OK)
		return st;
	if (it.n > MAX_IMAGES)
		return bb__jlimit(s->j, NULL, "%zu images exceed the limit of %d", it.n,
		                  MAX_IMAGES);
	an->nimages = (int)it.n;
	an->images = bb__calloc(it.n, sizeof *an->images);
	an->tex = bb__calloc(it.n, sizeof *an->tex);
	an->extent = bb__calloc(2 * it.n, sizeof *an->extent);
	if (!an->images || !an->tex || !an->extent)
		return bb__jnomem(s->j);
	while (bb__jnext(&it, &v)) {
		const char *name = NULL;
		size_t i = it.index;

		an->tex[i] = -1;
		an->extent[2 * i] = an->extent[2 * i + 1] = -INFINITY;
		if (bb__jkind_of(v, NULL) == BB_JK_STRING)
			bb__jstr(s->j, v, NULL, 1, &name);
		if (!name || !name[0])
			return bb__jfail(s->j, NULL, "expected an image file name, found %s",
			                 name ? "an empty string" : bb__json_type_name(v));
		an->images[i] = name;
	}
	return BB_OK;
}

/* CanvasWidth/Height and the margins: the animation's own stage. */
static bb_status read_stage(struct ssa *s, json_t *ja, struct sanim *an)
{
	bb_status st;

	if ((st = bb__jnum_range(s->j, ja, "CanvasWidth", 0, 0, 16384, &an->cw)) ||
	    (st = bb__jnum_range(s->j, ja, "CanvasHeight", 0, 0, 16384, &an->ch)))
		return st;
	an->has_stage = an->cw > 0 && an->ch > 0;
	if ((st = bb__jnum_range(s->j, ja, "MarginWidth", an->cw / 2, -1e5, 1e5,
	                         &an->mw)) ||
	    (st = bb__jnum_range(s->j, ja, "MarginHeight", an->ch / 2, -1e5, 1e5,
	                         &an->mh)))
		return st;
	return BB_OK;
}

static bb_status read_anim(struct ssa *s, json_t *obj, struct sanim *an)
{
	json_t *ja, *parts, *ssa;
	size_t mark;
	bb_status st;

	if ((st = bb__jexpect_object(s->j, obj)) != BB_OK ||
	    (st = read_images(s, obj, an)) != BB_OK ||
	    (st = bb__jstr(s->j, obj, "name", 1, &an->name)) != BB_OK ||
	    (st = bb__jobject(s->j, obj, "animation", 1, &ja)) != BB_OK)
		return st;
	mark = bb__jpath_key(&s->j->path, "animation");
	if ((st = bb__jnum_req(s->j, ja, "fps", &an->fps)) ||
	    (st = bb__jnum_range(s->j, ja, "fps", 0, 1e-3, 1000, &an->fps)) ||
	    (st = read_stage(s, ja, an)) ||
	    (st = bb__jarray(s->j, ja, "parts", 1, &parts)) ||
	    (st = bb__jarray(s->j, ja, "ssa", 1, &ssa)))
		return st;
	an->nparts = (int)bb__jsize(parts);   /* < file bytes */
	if ((st = read_frames(s, an, ja)) != BB_OK)
		return st;
	bb__jpath_pop(&s->j->path, mark);
	return BB_OK;
}

static bb_status read_anims(struct ssa *s, json_t *root)
{
	size_t n = s->array_form ? bb__jsize(root) : 1;
	bb__jiter it;
	json_t *obj;
	bb_status st;

	if (!s->array_form && bb__jkind_of(root, NULL) != BB_JK_OBJECT)
		return bb__jfail(s->j, NULL, "expected an array of animations or an "
		                 "animation object, found %s", bb__json_type_name(root));
	if (n == 0)
		return bb__jfail(s->j, NULL, "no animations (the array is empty)");
	if (n > MAX_ANIMS)
		return bb__jlimit(s->j, NULL, "%zu animations exceed the limit of %d", n,
		                  MAX_ANIMS);
	if (!(s->anims = bb__calloc(n, sizeof *s->anims)))
		return bb__jnomem(s->j);
	s->nanims = (int)n;
	if (!s->array_form)
		return read_anim(s, root, &s->anims[0]);
	bb__jeach(s->j, root, NULL, 0, &it);
	while (bb__jnext(&it, &obj))
		if ((st = read_anim(s, obj, &s->anims[it.index])) != BB_OK)
			return st;
	return BB_OK;
}

/* ---- images ------------------------------------------------------------ */

/* A transparent stand-in for a missing image, as large as every record
 * that names the file reads (at most PLACEHOLDER_SIDE). */
static bb_status placeholder(struct ssa *s, const char *name, int *out)
{
	double w = 1, h = 1;
	bb_image *img;
	bb_error sub;
	int a, i;
	bb_status st;

	for (a = 0; a < s->nanims; a++)
		for (i = 0; i < s->anims[a].nimages; i++)
			if (strcmp(s->anims[a].images[i], name) == 0) {
				w = fmax(w, s->anims[a].extent[2 * i]);
				h = fmax(h, s->anims[a].extent[2 * i + 1]);
			}
	w = fmin(ceil(w), PLACEHOLDER_SIDE);
	h = fmin(ceil(h), PLACEHOLDER_SIDE);
	if (bb_image_new((int)w, (int)h, &img, &sub) != BB_OK)
		return bb__build_nomem(s->b);
	if ((st = bb__build_texture(s->b, name, img, out)) != BB_OK)
		return st;
	if (!bb__grow((void **)&s->standins, &s->standins_cap,
	              (size_t)s->nstandins + 1, sizeof *s->standins))
		return bb__build_nomem(s->b);
	s->standins[s->nstandins++] = *out;
	bb__model_warn(s->c->m, "%s: image \"%s\" not found; its parts are drawn "
	               "as outlined boxes", s->c->name, name);
	return BB_OK;
}

static bb_status load_image(struct ssa *s, const char *name, int *out)
{
	bb_image *img;
	bb_status st;

	if ((*out = bb__model_find_texture(s->c->m, name)) >= 0)
		return BB_OK;
	st = bb__load_image(s->c, &(bb__ref){ .at = s->j, .what = "image",
	                                       .name = name },
	                    s->c->opts->placeholder ? BB__OPEN_OPTIONAL : 0, &img,
	                    NULL, 0);
	if (st != BB_OK)
		return st;
	return img ? bb__build_texture(s->b, name, img, out) : placeholder(s, name, out);
}

static int is_standin(const struct ssa *s, int tex)
{
	int i;

	for (i = 0; i < s->nstandins; i++)
		if (s->standins[i] == tex)
			return 1;
	return 0;
}

/* Loads the images drawn records use (once per file name). */
static bb_status load_images(struct ssa *s)
{
	int a, i;
	bb_status st;

	for (a = 0; a < s->nanims; a++) {
		struct sanim *an = &s->anims[a];

		for (i = 0; i < an->nimages; i++) {
			const bb_image *img;

			if (an->extent[2 * i] == -INFINITY)
				continue;       /* no drawn record uses it */
			bb__jpath_init(&s->j->path);
			if (s->array_form)
				bb__jpath_index(&s->j->path, (size_t)a);
			bb__jpath_key(&s->j->path, "images");
			bb__jpath_index(&s->j->path, (size_t)i);
			if ((st = load_image(s, an->images[i], &an->tex[i])) != BB_OK)
				return st;
			img = s->c->m->textures[an->tex[i]];
			if (!is_standin(s, an->tex[i]) &&
			    (an->extent[2 * i] > img->width + 1e-9 ||
			     an->extent[2 * i + 1] > img->height + 1e-9))
				bb__model_warn(s->c->m, "%s: source rectangles reach outside "
				               "image \"%s\" (%dx%d); they are clamped",
				               s->c->name, an->images[i], img->width,
				               img->height);
		}
	}
	bb__jpath_init(&s->j->path);
	return BB_OK;
}

/* Armature name: the single object's name, else the file's name without
 * its extension. */
static void armature_name(const struct ssa *s, char *buf, size_t size)
{
	const char *dot, *name = s->c->name;

	if (!s->array_form) {
		snprintf(buf, size, "%s", s->anims[0].name);
		return;
	}
	dot = strrchr(name, '.');
	snprintf(buf, size, "%.*s", (int)(dot && dot != name ? dot - name
	                                  : (long)strlen(name)), name);
}

int bb__sniff_ssajson(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"ssa\"") != NULL && strstr(data, "\"parts\"") != NULL &&
	       strstr(data, "\"animation\"") != NULL;
}

bb_status bb__load_ssajson(bb__load_ctx *c, json_t *root, bb_model *m)
{
	struct ssa s;
	char name[512];
	int i;
	bb_status st;

	memset(&s, 0, sizeof s);
	s.c = c;
	s.j = &c->at;
	s.b = &c->b;
	s.array_form = bb__jkind_of(root, NULL) == BB_JK_ARRAY;
	if ((st = read_anims(&s, root)) == BB_OK && (st = load_images(&s)) == BB_OK) {
		if (!(s.missing = bb__calloc((size_t)m->ntextures, 1))) {
			st = bb__build_nomem(s.b);
		} else {
			for (i = 0; i < s.nstandins; i++)
				s.missing[s.standins[i]] = 1;
			armature_name(&s, name, sizeof name);
			st = bb__ssa_build(&s, name);
		}
	}
	for (i = 0; i < s.nanims; i++) {
		free(s.anims[i].images);
		free(s.anims[i].tex);
		free(s.anims[i].extent);
		free(s.anims[i].first);
		free(s.anims[i].recs);
	}
	free(s.anims);
	free(s.missing);
	free(s.standins);
	free(s.keys);
	free(s.local);
	free(s.count);
	free(s.bucket);
	return st;
}
