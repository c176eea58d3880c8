/* Vanilla block model JSON (the model a Forge armature animates): the
 * parent chain, texture variables, elements with their rotation and faces.
 * Semantics: ../shared/spec/forge.md section 6 (BlockPart, BlockFaceUV,
 * FaceBakery, ModelBlock of Minecraft 1.12). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "loaders/forge.h"

/* A model and its parents, child first. */
struct chain {
	json_t *root[FG_MAX_PARENTS + 1];
	bb__jctx j[FG_MAX_PARENTS + 1];         /* each file's reader */
	char file[FG_MAX_PARENTS + 1][256];     /* basenames, for errors */
	char path[FG_MAX_PARENTS + 1][4096];
	int n;
};

static const char *const face_names[BB_FACE_COUNT] = {
	"down", "up", "north", "south", "west", "east"
};

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
	return n > 0 && (size_t)n < size;
}

/* Model k of the chain from the file at c->path[k], named by r; its
 * textures checked. */
static bb_status read_model(struct fg *f, struct chain *c, const bb__ref *r)
{
	int k = c->n;
	bb__jctx *j = &c->j[k];
	bb__jiter it;
	json_t *v;
	const char *tex;
	char *data;
	size_t size;
	bb_status s;

	snprintf(c->file[k], sizeof c->file[k], "%s", bb__basename(c->path[k]));
	bb__jctx_init(j, c->file[k], f->c->err, 0);
	if ((s = bb__load_open(f->c, r, 0, &data, &size, NULL, 0)) != BB_OK)
		return s;
	s = bb__json_parse(data, size, c->file[k], &c->root[k], f->c->err);
	free(data);
	if (s != BB_OK)
		return s;
	c->n++;
	if (bb__jkind_of(c->root[k], NULL) != BB_JK_OBJECT)
		return bb__jfail(j, NULL, "a block model must be a JSON object");
	if ((s = bb__jeach_member(j, c->root[k], "textures", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v))
		if ((s = bb__jstr(j, v, NULL, 1, &tex)) != BB_OK)
			return s;
	return BB_OK;
}

/* Where `parent` of the last model points, into the next path of the
 * chain: "" for a builtin or a vanilla model that is not there (treated as
 * empty, with a warning).  Its reader's path is at "parent". */
static bb_status parent_path(struct fg *f, struct chain *c, const char *parent)
{
	int vanilla = !strchr(parent, ':') || strncmp(parent, "minecraft:", 10) == 0;
	bb__jctx *j = &c->j[c->n - 1];
	char *buf = c->path[c->n];
	int have;

	buf[0] = '\0';
	if (strncmp(parent, "builtin/", 8) == 0) {
		bb__model_warn(f->c->m, "%s: parent \"%s\" is built into the game; "
		               "nothing of it is drawn", c->file[c->n - 1], parent);
		return BB_OK;
	}
	have = bb__fg_resource(f, parent, "models", ".json", buf, sizeof c->path[0])
	       ? bb__load_exists(f->c, &(bb__ref){ .at = j, .what = "model",
	                                         .name = parent, .path = buf,
	                                         .dir = "" })
	       : (buf[0] = '\0', 0);
	if (have < 0)
		return BB_ERR_INPUT;
	if (have)
		return BB_OK;
	if (vanilla) {
		bb__model_warn(f->c->m, "%s: parent \"%s\" not found (vanilla models "
		               "are not shipped); treated as empty: the model's own "
		               "elements and textures are used", c->file[c->n - 1],
		               parent);
		buf[0] = '\0';
		return BB_OK;
	}
	return bb__jfail(j, NULL, "model \"%s\" not found%s%s", parent,
	                 buf[0] ? " at " : " (no assets folder known: --assets DIR)",
	                 buf);
}

static bb_status load_chain(struct fg *f, struct chain *c)
{
	const char *parent;
	bb__jctx *j;
	bb_status s;
	int k;

	snprintf(c->path[0], sizeof c->path[0], "%s", f->model_path);
	if ((s = read_model(f, c, &(bb__ref){ .what = "block model",
	                                     .name = f->model_path, .dir = "" })) != BB_OK)
		return s;
	for (;;) {
		j = &c->j[c->n - 1];
		if ((s = bb__jstr(j, c->root[c->n - 1], "parent", 0, &parent)) != BB_OK ||
		    !parent)
			return s;
		if (c->n > FG_MAX_PARENTS)
			return bb__jfail(j, "parent", "more than %d parents", FG_MAX_PARENTS);
		bb__jpath_key(&j->path, "parent");
		if ((s = parent_path(f, c, parent)) != BB_OK)
			return s;
		if (!c->path[c->n][0]) {
			bb__jpath_init(&j->path);
			return BB_OK;
		}
		for (k = 0; k < c->n; k++)
			if (strcmp(c->path[k], c->path[c->n]) == 0)
				return bb__jfail(j, NULL, "parent cycle: \"%s\" is already in "
				                 "the chain", parent);
		if ((s = read_model(f, c, &(bb__ref){ .at = j, .what = "model",
		                                     .name = parent,
		                                     .path = c->path[c->n],
		                                     .dir = "" })) != BB_OK)
			return s;
		bb__jpath_init(&j->path);
	}
}

/* ---- textures ------------------------------------------------------------ */

/* The value of texture variable `name` (no '#') nearest the child, and the
 * model defining it; NULL when no model defines it. */
static const char *texture_var(struct chain *c, const char *name, int *model)
{
	const char *v;
	json_t *t;
	int k;

	for (k = 0; k < c->n; k++) {
		bb__jctx quiet = c->j[k];

		quiet.err = NULL;
		if (bb__jobject(&quiet, c->root[k], "textures", 0, &t) == BB_OK &&
		    bb__jstr(&quiet, t, name, 0, &v) == BB_OK && v) {
			*model = k;
			return v;
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

	(void)f;
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
	{
		bb__jctx at = c->j[k];

		bb__jpath_init(&at.path);
		return bb__jfail(&at, "textures", "texture variable cycle through "
		                 "\"%s\"", ref);
	}
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

/* Model texture of a resolved name (loaded once) into *out, or -1 when
 * its PNG is not there (noted for the warning). */
static bb_status texture_index(struct fg *f, const char *name, int *out)
{
	char path[4096];
	bb_image *img;
	bb_status s;

	if ((*out = bb__model_find_texture(f->c->m, name)) >= 0)
		return BB_OK;
	if (!bb__fg_resource(f, name, "textures", ".png", path, sizeof path)) {
		note_missing(f, name);
		return BB_OK;
	}
	if ((s = bb__load_image(f->c, &(bb__ref){ .at = f->j, .what = "texture",
	                                         .name = name, .path = path,
	                                         .dir = "" },
	                        BB__OPEN_OPTIONAL, &img, NULL, 0)) != BB_OK)
		return s;
	if (!img) {
		note_missing(f, name);
		return BB_OK;
	}
	return bb__build_texture(f->b, name, img, out);
}

/* ---- elements ------------------------------------------------------------ */

static bb_status vec3(struct fg *f, json_t *obj, const char *key, int required,
                      double lo, double hi, double *out)
{
	int i;
	bb_status s;

	if ((s = bb__jnumn(f->j, obj, key, required, 3, out)) != BB_OK)
		return s;
	for (i = 0; i < 3; i++)
		if (out[i] < lo || out[i] > hi)
			return bb__jfail(f->j, key, "%g is outside %g..%g", out[i], lo, hi);
	return BB_OK;
}

static bb_status read_rotation(struct fg *f, json_t *je, bb_solid_elem *e)
{
	static const double angles[] = { -45, -22.5, 0, 22.5, 45 };
	const char *axis;
	json_t *r;
	double k;
	int rescale, i, ok = 0;
	size_t mark;
	bb_status s;

	e->rot_scale[0] = e->rot_scale[1] = e->rot_scale[2] = 1;
	if ((s = bb__jobject(f->j, je, "rotation", 0, &r)) != BB_OK || !r)
		return s;
	mark = bb__jpath_key(&f->j->path, "rotation");
	if ((s = vec3(f, r, "origin", 1, -1e9, 1e9, e->rot_origin)) != BB_OK ||
	    (s = bb__jstr(f->j, r, "axis", 1, &axis)) != BB_OK ||
	    (s = bb__jnum(f->j, r, "angle", NAN, &e->rot_angle)) != BB_OK ||
	    (s = bb__jbool(f->j, r, "rescale", 0, &rescale)) != BB_OK)
		return s;
	if (strlen(axis) != 1 || !strchr("xyz", axis[0]))
		return bb__jfail(f->j, "axis", "expected \"x\", \"y\" or \"z\", not \"%s\"",
		                 axis);
	for (i = 0; i < 5; i++)
		ok |= e->rot_angle == angles[i];
	if (!ok)
		return bb__jfail(f->j, "angle", isnan(e->rot_angle) ? "missing" :
		                 "must be -45, -22.5, 0, 22.5 or 45");
	e->rotated = 1;
	e->rot_axis = axis[0] - 'x';
	if (rescale) {
		k = 1 / cos((fabs(e->rot_angle) == 22.5 ? 22.5 : 45) * BB__DEG);
		for (i = 0; i < 3; i++)
			if (i != e->rot_axis)
				e->rot_scale[i] = k;
	}
	bb__jpath_pop(&f->j->path, mark);
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

	fc->texture = -1;
	if ((s = resolve_texture(f, c, ref, &name)) != BB_OK ||
	    (name && (s = texture_index(f, name, &fc->texture)) != BB_OK))
		return s;
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
	img = f->c->m->textures[fc->texture];
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
	const char *tex, *cull;
	double rot;
	bb_status s;

	if ((s = bb__jexpect_object(f->j, jf)) != BB_OK ||
	    (s = bb__jstr(f->j, jf, "texture", 1, &tex)) != BB_OK ||
	    (s = bb__jstr(f->j, jf, "cullface", 0, &cull)) != BB_OK ||
	    (s = bb__jnum(f->j, jf, "rotation", 0, &rot)) != BB_OK)
		return s;
	if (rot != 0 && rot != 90 && rot != 180 && rot != 270)
		return bb__jfail(f->j, "rotation", "must be 0, 90, 180 or 270, not %g", rot);
	fc->present = 1;
	fc->rotation = (int)rot;
	if (!bb__jhas(jf, "uv"))
		auto_uv(e, face, fc->uv);
	else if ((s = bb__jnumn(f->j, jf, "uv", 1, 4, fc->uv)) != BB_OK)
		return s;
	return face_texture(f, c, tex, fc);
}

static bb_status read_faces(struct fg *f, struct chain *c, json_t *je,
                            bb_solid_elem *e)
{
	bb__jiter it;
	json_t *jf;
	int k;
	bb_status s;

	if ((s = bb__jeach_member(f->j, je, "faces", BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n == 0)
		return bb__jfail(f->j, NULL, "no faces (1 to 6 expected)");
	while (bb__jnext(&it, &jf)) {
		for (k = 0; k < BB_FACE_COUNT && strcmp(it.key, face_names[k]) != 0; k++)
			;
		if (k == BB_FACE_COUNT) {
			bb__jpath_pop(&f->j->path, it.base);   /* at "faces" */
			return bb__jfail(f->j, NULL, "unknown face \"%s\" (down, up, "
			                 "north, south, west, east)", it.key);
		}
		if ((s = read_face(f, c, jf, e, k)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_element(struct fg *f, struct chain *c, json_t *je,
                              bb_solid_elem *e)
{
	bb_status s;

	if ((s = bb__jexpect_object(f->j, je)) != BB_OK ||
	    (s = vec3(f, je, "from", 1, -16, 32, e->from)) != BB_OK ||
	    (s = vec3(f, je, "to", 1, -16, 32, e->to)) != BB_OK ||
	    (s = read_rotation(f, je, e)) != BB_OK ||
	    (s = bb__jbool(f->j, je, "shade", 1, &e->shade)) != BB_OK)
		return s;
	return read_faces(f, c, je, e);
}

/* The elements of the nearest model that has them. */
static bb_status read_elements(struct fg *f, struct chain *c)
{
	bb__jiter it;
	json_t *je;
	int k;
	bb_status s;

	for (k = 0; k < c->n && !bb__jhas(c->root[k], "elements"); k++)
		;
	if (k == c->n)
		return BB_OK;
	f->j = &c->j[k];
	if ((s = bb__jeach(f->j, c->root[k], "elements", 0, &it)) != BB_OK)
		return s;
	if (it.n > FG_MAX_ELEMENTS)
		return bb__jlimit(f->j, NULL, "%zu elements exceed the limit of %d", it.n,
		                  FG_MAX_ELEMENTS);
	if (!(f->s->elems = bb__calloc(it.n, sizeof *f->s->elems)))
		return bb__build_nomem(f->b);
	while (bb__jnext(&it, &je)) {
		f->s->nelems = (int)it.index + 1;
		if ((s = read_element(f, c, je, &f->s->elems[it.index])) != BB_OK)
			return s;
	}
	return BB_OK;
}

bb_status bb__fg_load_model(struct fg *f)
{
	struct chain *c = calloc(1, sizeof *c);
	bb__jctx *armature = f->j;
	bb_status s;
	int k;

	if (!c)
		return bb__build_nomem(f->b);
	s = load_chain(f, c);
	if (s == BB_OK)
		s = read_elements(f, c);
	if (s == BB_OK && f->nmissing)
		bb__model_warn(f->c->m, "%s: %d texture%s not found (%s); drawn in flat "
		               "colours", c->file[0], f->nmissing,
		               f->nmissing == 1 ? "" : "s", f->missing);
	for (k = 0; k < c->n; k++)
		bb__json_free(c->root[k]);
	free(c);
	f->j = armature;
	return s;
}
