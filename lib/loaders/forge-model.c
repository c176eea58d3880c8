/* Vanilla block model JSON (the model a Forge armature animates): the
 * parent chain, texture variables, elements with their rotation and faces.
 * Semantics: ../shared/spec/forge.md section 6 (BlockPart, BlockFaceUV,
 * FaceBakery, ModelBlock of Minecraft 1.12). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bonebake/image.h"
#include "loaders/forge.h"

/* A model and its parents, child first. */
struct chain {
	json_t *root[FG_MAX_PARENTS + 1];
	char file[FG_MAX_PARENTS + 1][256];   /* basenames, for errors */
	char path[FG_MAX_PARENTS + 1][4096];
	int n;
};

static const char *const face_names[BB_FACE_COUNT] = {
	"down", "up", "north", "south", "west", "east"
};

bb_status bb__fg_nomem(struct fg *f)
{
	return bb_error_set(f->j.err, BB_ERR_NOMEM, f->j.file, NULL, "out of memory");
}

int bb__fg_resource(const struct fg *f, const char *name, const char *kind,
                    const char *ext, char *buf, size_t size)
{
	const char *colon = strchr(name, ':');
	char ns[256];
	int n;

	if (!f->assets[0])
		return 0;
	if (colon)
		snprintf(ns, sizeof ns, "%.*s", (int)(colon - name), name);
	else
		snprintf(ns, sizeof ns, "minecraft");
	n = snprintf(buf, size, "%s/%s/%s/%s%s", f->assets, ns[0] ? ns : "minecraft",
	             kind, colon ? colon + 1 : name, ext);
	return n > 0 && (size_t)n < size && !strstr(colon ? colon + 1 : name, "..");
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bb_status read_json(struct fg *f, const char *path, json_t **out)
{
	char *data;
	size_t size;
	bb_status s;

	s = bb__read_file(path, f->ctx->opts->max_file_bytes, &data, &size, f->j.err);
	if (s != BB_OK)
		return s;
	s = bb__json_parse(data, size, bb__basename(path), out, f->j.err);
	free(data);
	if (s == BB_OK && !json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		return bb_error_set(f->j.err, BB_ERR_INPUT, bb__basename(path), NULL,
		                    "a block model must be a JSON object");
	}
	return s;
}

/* Where `parent` of model k points: the file, or "" for a builtin or a
 * vanilla model that is not there (treated as empty, with a warning). */
static bb_status parent_path(struct fg *f, struct chain *c, const char *parent,
                             char *buf, size_t size)
{
	int vanilla = !strchr(parent, ':') || strncmp(parent, "minecraft:", 10) == 0;

	buf[0] = '\0';
	if (strncmp(parent, "builtin/", 8) == 0) {
		bb__model_warn(f->m, "%s: parent \"%s\" is built into the game; "
		               "nothing of it is drawn", c->file[c->n - 1], parent);
		return BB_OK;
	}
	if (bb__fg_resource(f, parent, "models", ".json", buf, size) && is_file(buf))
		return BB_OK;
	if (vanilla) {
		bb__model_warn(f->m, "%s: parent \"%s\" not found (vanilla models are "
		               "not shipped); treated as empty: the model's own elements "
		               "and textures are used", c->file[c->n - 1], parent);
		buf[0] = '\0';
		return BB_OK;
	}
	f->j.file = c->file[c->n - 1];
	bb__jpath_init(&f->j.path);
	return bb__jfail(&f->j, "parent", "model \"%s\" not found%s%s", parent,
	                 buf[0] ? " at " : " (no assets folder known: --assets DIR)",
	                 buf[0] ? buf : "");
}

static bb_status load_chain(struct fg *f, struct chain *c)
{
	bb_status s;
	int k;

	snprintf(c->path[0], sizeof c->path[0], "%s", f->model_path);
	for (;;) {
		const char *parent;
		json_t *p;

		snprintf(c->file[c->n], sizeof c->file[0], "%s", bb__basename(c->path[c->n]));
		if ((s = read_json(f, c->path[c->n], &c->root[c->n])) != BB_OK)
			return s;
		c->n++;
		p = json_object_get(c->root[c->n - 1], "parent");
		if (!p)
			return BB_OK;
		f->j.file = c->file[c->n - 1];
		bb__jpath_init(&f->j.path);
		if (!json_is_string(p))
			return bb__jfail(&f->j, "parent", "expected a string");
		parent = json_string_value(p);
		if (c->n > FG_MAX_PARENTS)
			return bb__jfail(&f->j, "parent", "more than %d parents",
			                 FG_MAX_PARENTS);
		if ((s = parent_path(f, c, parent, c->path[c->n], sizeof c->path[0])) != BB_OK)
			return s;
		if (!c->path[c->n][0])
			return BB_OK;
		for (k = 0; k < c->n; k++)
			if (strcmp(c->path[k], c->path[c->n]) == 0)
				return bb__jfail(&f->j, "parent", "parent cycle: \"%s\" is "
				                 "already in the chain", parent);
	}
}

/* ---- textures ------------------------------------------------------------ */

/* The value of texture variable `name` (no '#') nearest the child, and the
 * model defining it; NULL when no model defines it. */
static const char *texture_var(struct chain *c, const char *name, int *model)
{
	int k;

	for (k = 0; k < c->n; k++) {
		json_t *t = json_object_get(c->root[k], "textures");
		json_t *v = json_is_object(t) ? json_object_get(t, name) : NULL;

		if (json_is_string(v)) {
			*model = k;
			return json_string_value(v);
		}
	}
	return NULL;
}

/* Resolves a face texture ("#var", or "var" as vanilla reads it) to a
 * texture name; *out = NULL when a variable is undefined. */
static bb_status resolve_texture(struct fg *f, struct chain *c, const char *ref,
                                 const char **out)
{
	const char *v = ref;
	int hops, k = 0;

	*out = NULL;
	for (hops = 0; hops <= 64; hops++) {
		const char *var = v[0] == '#' ? v + 1 : v;

		if (hops > 0 && v[0] != '#') {
			*out = v;
			return BB_OK;
		}
		if (!(v = texture_var(c, var, &k)))
			return BB_OK;
	}
	f->j.file = c->file[k];
	bb__jpath_init(&f->j.path);
	bb__jpath_key(&f->j.path, "textures");
	return bb__jfail(&f->j, NULL, "texture variable cycle through \"%s\"", ref);
}

/* A stable, pleasant colour per texture name (FNV-1a hash -> hue). */
static bb_rgba flat_color(const char *name)
{
	unsigned h = 2166136261u;
	double hue, r, g, b, x;
	int sector;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	hue = (h % 360) / 60.0;
	sector = (int)hue;
	x = hue - sector;
	r = g = b = 0;
	switch (sector) {
	case 0: r = 1; g = x; break;
	case 1: r = 1 - x; g = 1; break;
	case 2: g = 1; b = x; break;
	case 3: g = 1 - x; b = 1; break;
	case 4: r = x; b = 1; break;
	default: r = 1; b = 1 - x; break;
	}
	/* saturation 0.5, value 0.85 */
	return (bb_rgba){ 0.85 * (0.5 + 0.5 * r), 0.85 * (0.5 + 0.5 * g),
	                  0.85 * (0.5 + 0.5 * b), 1 };
}

static void note_missing(struct fg *f, const char *name)
{
	size_t n = strlen(f->missing);

	if (strstr(f->missing, name))
		return;
	f->nmissing++;
	if (n + strlen(name) + 8 < sizeof f->missing)
		snprintf(f->missing + n, sizeof f->missing - n, "%s%s", n ? ", " : "", name);
	else if (!strstr(f->missing, "..."))
		snprintf(f->missing + n, sizeof f->missing - n, ", ...");
}

/* Model texture index of a resolved name (loaded once), or -1 when its PNG
 * is not there. */
static int texture_index(struct fg *f, const char *name)
{
	char path[4096];
	bb_image *img;
	bb_error e;
	int i = bb__model_find_texture(f->m, name);

	if (i >= 0)
		return i;
	if (!bb__fg_resource(f, name, "textures", ".png", path, sizeof path) ||
	    !is_file(path) || bb_png_read(path, &img, &e) != BB_OK) {
		note_missing(f, name);
		return -1;
	}
	i = bb__model_add_texture(f->m, name, img);
	if (i < 0)
		bb_image_free(img);
	return i;
}

/* ---- elements ------------------------------------------------------------ */

static bb_status vec3(struct fg *f, json_t *obj, const char *key, int required,
                      double lo, double hi, double *out)
{
	json_t *v = json_object_get(obj, key);
	size_t i;

	if (!v)
		return required ? bb__jfail(&f->j, key, "missing") : BB_OK;
	if (!json_is_array(v) || json_array_size(v) != 3)
		return bb__jfail(&f->j, key, "expected an array of 3 numbers");
	for (i = 0; i < 3; i++) {
		json_t *x = json_array_get(v, i);

		if (!json_is_number(x) || !isfinite(json_number_value(x)))
			return bb__jfail(&f->j, key, "expected an array of 3 numbers");
		out[i] = json_number_value(x);
		if (out[i] < lo || out[i] > hi)
			return bb__jfail(&f->j, key, "%g is outside %g..%g", out[i], lo, hi);
	}
	return BB_OK;
}

static bb_status read_rotation(struct fg *f, json_t *je, bb_solid_elem *e)
{
	static const double angles[] = { -45, -22.5, 0, 22.5, 45 };
	json_t *r = json_object_get(je, "rotation");
	const char *axis;
	double k;
	int rescale, i, ok = 0;
	size_t mark;
	bb_status s;

	e->rot_scale[0] = e->rot_scale[1] = e->rot_scale[2] = 1;
	if (!r || json_is_null(r))
		return BB_OK;
	mark = bb__jpath_key(&f->j.path, "rotation");
	if ((s = bb__jexpect_object(&f->j, r)) != BB_OK ||
	    (s = vec3(f, r, "origin", 1, -1e9, 1e9, e->rot_origin)) != BB_OK ||
	    (s = bb__jstr(&f->j, r, "axis", 1, &axis)) != BB_OK ||
	    (s = bb__jnum(&f->j, r, "angle", NAN, &e->rot_angle)) != BB_OK ||
	    (s = bb__jbool(&f->j, r, "rescale", 0, &rescale)) != BB_OK)
		return s;
	if (strlen(axis) != 1 || !strchr("xyz", axis[0]))
		return bb__jfail(&f->j, "axis", "expected \"x\", \"y\" or \"z\", not \"%s\"",
		                 axis);
	for (i = 0; i < 5; i++)
		ok |= e->rot_angle == angles[i];
	if (!ok)
		return bb__jfail(&f->j, "angle", isnan(e->rot_angle) ? "missing" :
		                 "must be -45, -22.5, 0, 22.5 or 45");
	e->rotated = 1;
	e->rot_axis = axis[0] - 'x';
	if (rescale) {
		k = 1 / cos((fabs(e->rot_angle) == 22.5 ? 22.5 : 45) * M_PI / 180);
		for (i = 0; i < 3; i++)
			if (i != e->rot_axis)
				e->rot_scale[i] = k;
	}
	bb__jpath_pop(&f->j.path, mark);
	return BB_OK;
}

/* Vanilla's UVs for a face without "uv" (BlockPart.getFaceUvs). */
static void auto_uv(const bb_solid_elem *e, int face, double *uv)
{
	const double *a = e->from, *b = e->to;

	switch (face) {
	case BB_FACE_DOWN: uv[0] = a[0]; uv[1] = 16 - b[2]; uv[2] = b[0]; uv[3] = 16 - a[2]; break;
	case BB_FACE_UP: uv[0] = a[0]; uv[1] = a[2]; uv[2] = b[0]; uv[3] = b[2]; break;
	case BB_FACE_NORTH: uv[0] = 16 - b[0]; uv[1] = 16 - b[1]; uv[2] = 16 - a[0]; uv[3] = 16 - a[1]; break;
	case BB_FACE_SOUTH: uv[0] = a[0]; uv[1] = 16 - b[1]; uv[2] = b[0]; uv[3] = 16 - a[1]; break;
	case BB_FACE_WEST: uv[0] = a[2]; uv[1] = 16 - b[1]; uv[2] = b[2]; uv[3] = 16 - a[1]; break;
	default: uv[0] = 16 - b[2]; uv[1] = 16 - b[1]; uv[2] = 16 - a[2]; uv[3] = 16 - a[1]; break;
	}
}

static bb_status face_texture(struct fg *f, struct chain *c, const char *ref,
                              bb_solid_face *fc)
{
	const char *name;
	const bb_image *img;
	double sw, sh;
	int k;
	bb_status s;

	if ((s = resolve_texture(f, c, ref, &name)) != BB_OK)
		return s;
	fc->texture = name ? texture_index(f, name) : -1;
	if (fc->texture < 0) {
		char var[300];

		snprintf(var, sizeof var, "%s%.256s", ref[0] == '#' ? "" : "#", ref);
		if (!name)
			note_missing(f, var);
		fc->color = flat_color(name ? name : var);
		return BB_OK;
	}
	/* UVs are 1/16 of the sprite; an animated strip's sprite is its
	 * first (square) frame */
	img = f->m->textures[fc->texture];
	sw = img->width;
	sh = img->height > img->width && img->height % img->width == 0
	     ? img->width : img->height;
	for (k = 0; k < 4; k++)
		fc->uv[k] *= (k % 2 ? sh : sw) / 16;
	return BB_OK;
}

static bb_status read_face(struct fg *f, struct chain *c, json_t *jf,
                           bb_solid_elem *e, int face)
{
	bb_solid_face *fc = &e->faces[face];
	json_t *uv = json_object_get(jf, "uv");
	const char *tex, *cull;
	double rot;
	size_t i;
	bb_status s;

	if ((s = bb__jexpect_object(&f->j, jf)) != BB_OK ||
	    (s = bb__jstr(&f->j, jf, "texture", 1, &tex)) != BB_OK ||
	    (s = bb__jstr(&f->j, jf, "cullface", 0, &cull)) != BB_OK ||
	    (s = bb__jnum(&f->j, jf, "rotation", 0, &rot)) != BB_OK)
		return s;
	if (rot != 0 && rot != 90 && rot != 180 && rot != 270)
		return bb__jfail(&f->j, "rotation", "must be 0, 90, 180 or 270, not %g", rot);
	fc->present = 1;
	fc->rotation = (int)rot;
	if (uv && !json_is_null(uv)) {
		if (!json_is_array(uv) || json_array_size(uv) != 4)
			return bb__jfail(&f->j, "uv", "expected an array of 4 numbers");
		for (i = 0; i < 4; i++) {
			json_t *x = json_array_get(uv, i);

			if (!json_is_number(x) || !isfinite(json_number_value(x)))
				return bb__jfail(&f->j, "uv", "expected an array of 4 numbers");
			fc->uv[i] = json_number_value(x);
		}
	} else {
		auto_uv(e, face, fc->uv);
	}
	return face_texture(f, c, tex, fc);
}

static bb_status read_faces(struct fg *f, struct chain *c, json_t *je,
                            bb_solid_elem *e)
{
	json_t *faces, *jf;
	const char *key;
	int k, n = 0;
	bb_status s;
	size_t mark;

	if ((s = bb__jobject(&f->j, je, "faces", 1, &faces)) != BB_OK)
		return s;
	mark = bb__jpath_key(&f->j.path, "faces");
	json_object_foreach(faces, key, jf) {
		size_t m2;

		for (k = 0; k < BB_FACE_COUNT && strcmp(key, face_names[k]) != 0; k++)
			;
		if (k == BB_FACE_COUNT)
			return bb__jfail(&f->j, NULL, "unknown face \"%s\" (down, up, "
			                 "north, south, west, east)", key);
		m2 = bb__jpath_key(&f->j.path, key);
		if ((s = read_face(f, c, jf, e, k)) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, m2);
		n++;
	}
	if (n == 0)
		return bb__jfail(&f->j, NULL, "no faces (1 to 6 expected)");
	bb__jpath_pop(&f->j.path, mark);
	return BB_OK;
}

static bb_status read_element(struct fg *f, struct chain *c, json_t *je,
                              bb_solid_elem *e)
{
	bb_status s;

	if ((s = bb__jexpect_object(&f->j, je)) != BB_OK ||
	    (s = vec3(f, je, "from", 1, -16, 32, e->from)) != BB_OK ||
	    (s = vec3(f, je, "to", 1, -16, 32, e->to)) != BB_OK ||
	    (s = read_rotation(f, je, e)) != BB_OK ||
	    (s = bb__jbool(&f->j, je, "shade", 1, &e->shade)) != BB_OK)
		return s;
	return read_faces(f, c, je, e);
}

static bb_status read_elements(struct fg *f, struct chain *c)
{
	json_t *els = NULL;
	size_t i, n;
	int k;
	bb_status s;

	for (k = 0; k < c->n && !els; k++)
		els = json_object_get(c->root[k], "elements");
	if (!els)
		return BB_OK;
	k--;
	f->j.file = c->file[k];
	bb__jpath_init(&f->j.path);
	if (!json_is_array(els))
		return bb__jfail(&f->j, "elements", "expected an array");
	n = json_array_size(els);
	if (n > FG_MAX_ELEMENTS)
		return bb_error_set(f->j.err, BB_ERR_LIMIT, f->j.file, "elements",
		                    "%zu elements exceed the limit of %d", n,
		                    FG_MAX_ELEMENTS);
	f->s->elems = bb__calloc(n, sizeof *f->s->elems);
	if (!f->s->elems)
		return bb__fg_nomem(f);
	for (i = 0; i < n; i++) {
		size_t mark = bb__jpath_key(&f->j.path, "elements");

		bb__jpath_index(&f->j.path, i);
		f->s->nelems = (int)i + 1;
		if ((s = read_element(f, c, json_array_get(els, i), &f->s->elems[i])) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, mark);
	}
	return BB_OK;
}

bb_status bb__fg_load_model(struct fg *f)
{
	struct chain *c = calloc(1, sizeof *c);
	const char *file = f->j.file;
	bb_status s;
	int k;

	if (!c)
		return bb__fg_nomem(f);
	s = load_chain(f, c);
	if (s == BB_OK)
		s = read_elements(f, c);
	if (s == BB_OK && f->nmissing)
		bb__model_warn(f->m, "%s: %d texture%s not found (%s); drawn in flat "
		               "colours", c->file[0], f->nmissing,
		               f->nmissing == 1 ? "" : "s", f->missing);
	for (k = 0; k < c->n; k++)
		json_decref(c->root[k]);
	free(c);
	if (s == BB_OK)
		f->j.file = file;
	return s;
}
