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
 * Choices where the format is unconfirmed or silent (README "SSAJSON"):
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

bb_status bb__ssa_nomem(struct ssa *s)
{
	return bb_error_set(s->j.err, BB_ERR_NOMEM, s->ctx->name, NULL,
	                    "out of memory");
}

/* Error at the current path + "[i]". */
static bb_status fail_at(struct ssa *s, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bb_status fail_at(struct ssa *s, size_t i, const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX];
	size_t mark = bb__jpath_index(&s->j.path, i);
	va_list ap;
	bb_status st;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	st = bb__jfail(&s->j, NULL, "%s", msg);
	bb__jpath_pop(&s->j.path, mark);
	return st;
}

bb_status bb__ssa_limit(struct ssa *s, const char *what, size_t n, long max)
{
	return bb_error_set(s->j.err, BB_ERR_LIMIT, s->ctx->name,
	                    s->j.path.len ? s->j.path.buf : NULL,
	                    "%zu %s exceed the limit of %ld", n, what, max);
}

static int integral(double v)
{
	return v == floor(v);
}

/* ---- part records ------------------------------------------------------ */

static double field(json_t *jr, int i, double def)
{
	json_t *v = json_array_get(jr, (size_t)i);

	return v ? json_number_value(v) : def;
}

/* An integral field; *ok says whether it lies in [lo, hi]. */
static bb_status int_field(struct ssa *s, json_t *jr, int i, int def, int lo,
                           int hi, int *out, int *ok)
{
	double v = field(jr, i, def);

	if (!integral(v))
		return fail_at(s, (size_t)i, "expected an integer, found %g", v);
	*ok = v >= lo && v <= hi;
	*out = *ok ? (int)v : 0;
	return BB_OK;
}

static bb_status read_colors(struct ssa *s, json_t *jr, struct rec *r)
{
	int k;

	for (k = 0; k < 4; k++) {
		double v = field(jr, F_VCOLOR + k, 0);

		if (!integral(v) || v < -2147483648.0 || v > 4294967295.0)
			return fail_at(s, (size_t)(F_VCOLOR + k), "expected a 32-bit "
			               "ARGB colour integer, found %g", v);
		r->vc[k] = (uint32_t)(int64_t)(v < 0 ? v + 4294967296.0 : v);
	}
	return BB_OK;
}

#define BLEND_TYPES "(0 mix, 1 multiply, 2 add, 3 subtract)"

/* Part and image indices, flips and blend types. */
static bb_status read_ints(struct ssa *s, const struct sanim *an, json_t *jr,
                           struct rec *r)
{
	int ok, label;
	bb_status st;

	if ((st = int_field(s, jr, F_PART, 0, 0, an->nparts - 1, &r->part, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_PART, "part index %g out of range (%d parts)",
		               field(jr, F_PART, 0), an->nparts);
	if ((st = int_field(s, jr, F_IMAGE, 0, 0, an->nimages - 1, &r->image, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_IMAGE, "image index %g out of range (%d images)",
		               field(jr, F_IMAGE, 0), an->nimages);
	if ((st = int_field(s, jr, F_FLIPH, 0, 0, 1, &r->fh, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_FLIPH, "flip %g is neither 0 nor 1",
		               field(jr, F_FLIPH, 0));
	if ((st = int_field(s, jr, F_FLIPV, 0, 0, 1, &r->fv, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_FLIPV, "flip %g is neither 0 nor 1",
		               field(jr, F_FLIPV, 0));
	if ((st = int_field(s, jr, F_BLEND, 0, 0, 3, &r->blend, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_BLEND, "unknown alpha blend type %g " BLEND_TYPES,
		               field(jr, F_BLEND, 0));
	if ((st = int_field(s, jr, F_LABEL, 0, INT32_MIN + 1, INT32_MAX - 1,
	                    &label, &ok)))
		return st;
	if ((st = int_field(s, jr, F_CBLEND, 0, 0, 3, &r->cblend, &ok)))
		return st;
	if (!ok)
		return fail_at(s, F_CBLEND, "unknown colour blend type %g " BLEND_TYPES,
		               field(jr, F_CBLEND, 0));
	return BB_OK;
}

static bb_status read_record(struct ssa *s, const struct sanim *an, json_t *jr,
                             struct rec *r)
{
	size_t n, i;
	int k;
	bb_status st;

	if (!json_is_array(jr))
		return bb__jfail(&s->j, NULL, "expected a part record (an array of "
		                 "numbers), found %s", bb__json_type_name(jr));
	n = json_array_size(jr);
	if (n < MIN_FIELDS)
		return bb__jfail(&s->j, NULL, "a part record has at least %d fields, "
		                 "found %zu", MIN_FIELDS, n);
	if (n > MAX_FIELDS)
		bb__model_warn(s->m, "%s: part records longer than %d fields: the "
		               "extra fields are ignored", s->ctx->name, MAX_FIELDS);
	for (i = 0; i < n && i < MAX_FIELDS; i++)
		if (!json_is_number(json_array_get(jr, i)))
			return fail_at(s, i, "expected a number, found %s",
			               bb__json_type_name(json_array_get(jr, i)));
	memset(r, 0, sizeof *r);
	if ((st = read_ints(s, an, jr, r)) != BB_OK)
		return st;
	for (k = 0; k < 4; k++)
		r->src[k] = field(jr, F_SX + k, 0);
	for (k = 2; k < 4; k++)
		if (r->src[k] < 0)
			return fail_at(s, (size_t)(F_SX + k), "negative size %g", r->src[k]);
	r->px = field(jr, F_PX, 0);
	r->py = field(jr, F_PY, 0);
	r->angle = field(jr, F_ANGLE, 0);
	r->scx = field(jr, F_SCX, 1);
	r->scy = field(jr, F_SCY, 1);
	r->ox = field(jr, F_OX, 0);
	r->oy = field(jr, F_OY, 0);
	r->opacity = field(jr, F_OPACITY, 1);
	if (r->opacity < 0 || r->opacity > 1)
		return fail_at(s, F_OPACITY, "opacity %g outside 0..1", r->opacity);
	for (k = 0; k < 8; k++)
		r->def[k] = field(jr, F_DEFORM + k, 0);
	return read_colors(s, jr, r);
}

static bb_status add_record(struct ssa *s, struct sanim *an, json_t *jr)
{
	struct rec *r;
	bb_status st;

	if (++s->nrecs > (size_t)s->ctx->opts->max_keys)
		return bb__ssa_limit(s, "part records", s->nrecs,
		             (long)s->ctx->opts->max_keys);
	if (!bb__grow((void **)&an->recs, &an->cap, an->nrecs + 1, sizeof *an->recs))
		return bb__ssa_nomem(s);
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

static bb_status read_frames(struct ssa *s, struct sanim *an, json_t *ssa)
{
	size_t f, k, n = json_array_size(ssa);
	bb_status st;

	if (n == 0)
		return bb__jfail(&s->j, "ssa", "no frames (the ssa list is empty)");
	bb__jpath_key(&s->j.path, "ssa");
	if (n > MAX_FRAMES)
		return bb__ssa_limit(s, "frames", n, MAX_FRAMES);
	an->nframes = (int)n;
	if (!(an->first = bb__calloc(n + 1, sizeof *an->first)))
		return bb__ssa_nomem(s);
	for (f = 0; f < n; f++) {
		json_t *fr = json_array_get(ssa, f);
		size_t mark = bb__jpath_index(&s->j.path, f);

		an->first[f] = an->nrecs;
		if (!json_is_array(fr))
			return bb__jfail(&s->j, NULL, "expected a frame (an array of "
			                 "part records), found %s", bb__json_type_name(fr));
		if (json_array_size(fr) > MAX_RECORDS)
			return bb__ssa_limit(s, "part records in one frame",
			             json_array_size(fr), MAX_RECORDS);
		if ((int)json_array_size(fr) > s->nslots)
			s->nslots = (int)json_array_size(fr);
		for (k = 0; k < json_array_size(fr); k++) {
			size_t m2 = bb__jpath_index(&s->j.path, k);

			if ((st = add_record(s, an, json_array_get(fr, k))) != BB_OK)
				return st;
			bb__jpath_pop(&s->j.path, m2);
		}
		bb__jpath_pop(&s->j.path, mark);
	}
	an->first[n] = an->nrecs;
	return BB_OK;
}

/* ---- animation objects ------------------------------------------------- */

static bb_status read_images(struct ssa *s, json_t *obj, struct sanim *an)
{
	size_t i, n;
	bb_status st;

	if ((st = bb__jarray(&s->j, obj, "images", 1, &an->images)) != BB_OK)
		return st;
	n = json_array_size(an->images);
	if (n > MAX_IMAGES)
		return bb__ssa_limit(s, "images", n, MAX_IMAGES);
	an->nimages = (int)n;
	an->tex = bb__calloc(n, sizeof *an->tex);
	an->extent = bb__calloc(2 * n, sizeof *an->extent);
	if (!an->tex || !an->extent)
		return bb__ssa_nomem(s);
	for (i = 0; i < n; i++) {
		json_t *v = json_array_get(an->images, i);

		an->tex[i] = -1;
		an->extent[2 * i] = an->extent[2 * i + 1] = -INFINITY;
		if (!json_is_string(v) || !json_string_value(v)[0]) {
			size_t mark = bb__jpath_key(&s->j.path, "images");

			st = fail_at(s, i, "expected an image file name, found %s",
			             json_is_string(v) ? "an empty string" : bb__json_type_name(v));
			bb__jpath_pop(&s->j.path, mark);
			return st;
		}
	}
	return BB_OK;
}

/* CanvasWidth/Height and the margins: the animation's own stage. */
static bb_status read_stage(struct ssa *s, json_t *ja, struct sanim *an)
{
	bb_status st;

	if ((st = bb__jnum_range(&s->j, ja, "CanvasWidth", 0, 0, 16384, &an->cw)) ||
	    (st = bb__jnum_range(&s->j, ja, "CanvasHeight", 0, 0, 16384, &an->ch)))
		return st;
	an->has_stage = an->cw > 0 && an->ch > 0;
	if ((st = bb__jnum_range(&s->j, ja, "MarginWidth", an->cw / 2, -1e5, 1e5,
	                         &an->mw)) ||
	    (st = bb__jnum_range(&s->j, ja, "MarginHeight", an->ch / 2, -1e5, 1e5,
	                         &an->mh)))
		return st;
	return BB_OK;
}

static bb_status read_anim(struct ssa *s, json_t *obj, struct sanim *an)
{
	json_t *ja, *parts, *ssa;
	size_t mark;
	bb_status st;

	if ((st = bb__jexpect_object(&s->j, obj)) != BB_OK ||
	    (st = read_images(s, obj, an)) != BB_OK ||
	    (st = bb__jstr(&s->j, obj, "name", 1, &an->name)) != BB_OK ||
	    (st = bb__jobject(&s->j, obj, "animation", 1, &ja)) != BB_OK)
		return st;
	mark = bb__jpath_key(&s->j.path, "animation");
	if (!json_object_get(ja, "fps"))
		return bb__jfail(&s->j, "fps", "missing");
	if ((st = bb__jnum_range(&s->j, ja, "fps", 0, 1e-3, 1000, &an->fps)) ||
	    (st = read_stage(s, ja, an)) ||
	    (st = bb__jarray(&s->j, ja, "parts", 1, &parts)) ||
	    (st = bb__jarray(&s->j, ja, "ssa", 1, &ssa)))
		return st;
	an->nparts = (int)json_array_size(parts);   /* < file bytes */
	if ((st = read_frames(s, an, ssa)) != BB_OK)
		return st;
	bb__jpath_pop(&s->j.path, mark);
	return BB_OK;
}

static bb_status read_anims(struct ssa *s, json_t *root)
{
	size_t i, n = json_is_array(root) ? json_array_size(root) : 1;
	int k;
	bb_status st;

	if (!json_is_array(root) && !json_is_object(root))
		return bb__jfail(&s->j, NULL, "expected an array of animations or an "
		                 "animation object, found %s", bb__json_type_name(root));
	if (n == 0)
		return bb__jfail(&s->j, NULL, "no animations (the array is empty)");
	if (n > MAX_ANIMS)
		return bb__ssa_limit(s, "animations", n, MAX_ANIMS);
	if (!(s->anims = bb__calloc(n, sizeof *s->anims)))
		return bb__ssa_nomem(s);
	for (i = 0; i < n; i++) {
		json_t *obj = json_is_array(root) ? json_array_get(root, i) : root;
		size_t mark = json_is_array(root) ? bb__jpath_index(&s->j.path, i) : 0;

		s->nanims = (int)i + 1;
		if ((st = read_anim(s, obj, &s->anims[i])) != BB_OK)
			return st;
		for (k = 0; k < (int)i; k++)
			if (strcmp(s->anims[k].name, s->anims[i].name) == 0)
				return bb__jfail(&s->j, "name", "duplicate animation name "
				                 "\"%s\"", s->anims[i].name);
		bb__jpath_pop(&s->j.path, mark);
	}
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

	for (a = 0; a < s->nanims; a++)
		for (i = 0; i < s->anims[a].nimages; i++)
			if (strcmp(json_string_value(json_array_get(s->anims[a].images,
			                                            (size_t)i)), name) == 0) {
				w = fmax(w, s->anims[a].extent[2 * i]);
				h = fmax(h, s->anims[a].extent[2 * i + 1]);
			}
	w = fmin(ceil(w), PLACEHOLDER_SIDE);
	h = fmin(ceil(h), PLACEHOLDER_SIDE);
	if (bb_image_new((int)w, (int)h, &img, &sub) != BB_OK)
		return bb__ssa_nomem(s);
	if ((*out = bb__model_add_texture(s->m, name, img)) < 0) {
		bb_image_free(img);
		return bb__ssa_nomem(s);
	}
	if (!bb__grow((void **)&s->standins, &s->standins_cap,
	              (size_t)s->nstandins + 1, sizeof *s->standins))
		return bb__ssa_nomem(s);
	s->standins[s->nstandins++] = *out;
	bb__model_warn(s->m, "%s: image \"%s\" not found; its parts are drawn as "
	               "outlined boxes", s->ctx->name, name);
	return BB_OK;
}

static bb_status load_image(struct ssa *s, const char *name, int *out)
{
	char path[4096];
	bb_image *img;
	bb_error sub;
	bb_status st;

	if ((*out = bb__model_find_texture(s->m, name)) >= 0)
		return BB_OK;
	if (!bb__path_join(path, sizeof path, s->ctx->dir, name))
		return bb__jfail(&s->j, NULL, "image path too long");
	st = bb_png_read(path, &img, &sub);
	if (st != BB_OK && st != BB_ERR_NOMEM && s->ctx->opts->placeholder)
		return placeholder(s, name, out);
	if (st != BB_OK)
		return bb_error_set(s->j.err, st == BB_ERR_NOMEM ? st : BB_ERR_INPUT,
		                    s->ctx->name, s->j.path.buf, "image \"%s\": %s",
		                    name, sub.message);
	if ((*out = bb__model_add_texture(s->m, name, img)) < 0) {
		bb_image_free(img);
		return bb__ssa_nomem(s);
	}
	return BB_OK;
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
			const char *name = json_string_value(json_array_get(an->images,
			                                                    (size_t)i));
			const bb_image *img;
			size_t mark;

			if (an->extent[2 * i] == -INFINITY)
				continue;       /* no drawn record uses it */
			bb__jpath_init(&s->j.path);
			mark = s->array_form ? bb__jpath_index(&s->j.path, (size_t)a) : 0;
			bb__jpath_key(&s->j.path, "images");
			bb__jpath_index(&s->j.path, (size_t)i);
			if ((st = load_image(s, name, &an->tex[i])) != BB_OK)
				return st;
			bb__jpath_pop(&s->j.path, mark);
			img = s->m->textures[an->tex[i]];
			if (!is_standin(s, an->tex[i]) &&
			    (an->extent[2 * i] > img->width + 1e-9 ||
			     an->extent[2 * i + 1] > img->height + 1e-9))
				bb__model_warn(s->m, "%s: source rectangles reach outside "
				               "image \"%s\" (%dx%d); they are clamped",
				               s->ctx->name, name, img->width, img->height);
		}
	}
	bb__jpath_init(&s->j.path);
	return BB_OK;
}

/* Armature name: the single object's name, else the file's name without
 * its extension. */
static void armature_name(const struct ssa *s, char *buf, size_t size)
{
	const char *dot;

	if (!s->array_form) {
		snprintf(buf, size, "%s", s->anims[0].name);
		return;
	}
	dot = strrchr(s->ctx->name, '.');
	snprintf(buf, size, "%.*s", (int)(dot && dot != s->ctx->name
	                                  ? dot - s->ctx->name
	                                  : (long)strlen(s->ctx->name)), s->ctx->name);
}

static bb_status load_root(struct ssa *s, json_t *root)
{
	char name[512];
	int i;
	bb_status st;

	s->array_form = json_is_array(root);
	if ((st = read_anims(s, root)) != BB_OK ||
	    (st = load_images(s)) != BB_OK)
		return st;
	if (!(s->missing = bb__calloc((size_t)s->m->ntextures, 1)))
		return bb__ssa_nomem(s);
	for (i = 0; i < s->nstandins; i++)
		s->missing[s->standins[i]] = 1;
	armature_name(s, name, sizeof name);
	return bb__ssa_build(s, name);
}

int bb__sniff_ssajson(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"ssa\"") != NULL && strstr(data, "\"parts\"") != NULL &&
	       strstr(data, "\"animation\"") != NULL;
}

static void free_ssa(struct ssa *s)
{
	int i;

	for (i = 0; i < s->nanims; i++) {
		free(s->anims[i].tex);
		free(s->anims[i].extent);
		free(s->anims[i].first);
		free(s->anims[i].recs);
	}
	free(s->anims);
	free(s->missing);
	free(s->standins);
	free(s->keys);
	free(s->local);
	free(s->count);
	free(s->bucket);
}

bb_status bb__load_ssajson(bb__load_ctx *ctx, json_t *root, bb_model *m)
{
	struct ssa s;
	bb_status st;

	memset(&s, 0, sizeof s);
	s.ctx = ctx;
	s.j.file = ctx->name;
	s.j.err = ctx->err;
	bb__jpath_init(&s.j.path);
	s.m = m;
	if (!(s.a = bb__model_add_armature(s.m)))
		st = bb__ssa_nomem(&s);
	else
		st = load_root(&s, root);
	free_ssa(&s);
	return st;
}
