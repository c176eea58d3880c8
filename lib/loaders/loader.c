/* The loader driver (bb_model_load: read, parse once, pick the format,
 * build, validate) and the funnel every other file a loader reads passes
 * through (bb__load_open: resolve, confine, read, record). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/foreign.h"
#include "loaders/loader.h"

static const bb__loader loaders[] = {
	{ "bonebake-skeleton", bb__sniff_native, bb__load_native, NULL, NULL, NULL },
	{ "spine", bb__sniff_spine, bb__load_spine, NULL,
	  bb__sniff_spine_binary, bb__decode_spine_binary },
	{ "dragonbones", bb__sniff_dragonbones, bb__load_dragonbones, NULL, NULL, NULL },
	{ "ssajson", bb__sniff_ssajson, bb__load_ssajson, NULL, NULL, NULL },
	{ "forge", bb__sniff_forge, bb__load_forge, NULL, NULL, NULL },
	{ "cocos-json", bb__sniff_cocos_json, bb__load_cocos_json, NULL, NULL, NULL },
	{ "cocos-xml", bb__sniff_cocos_xml, NULL, bb__load_cocos_xml, NULL, NULL },
};

#define NLOADERS (sizeof loaders / sizeof loaders[0])

static const char *loader_names[NLOADERS + 1];
static pthread_once_t loader_names_once = PTHREAD_ONCE_INIT;

static void fill_loader_names(void)
{
	size_t i;

	for (i = 0; i < NLOADERS; i++)
		loader_names[i] = loaders[i].name;
	loader_names[NLOADERS] = NULL;
}

/* Filled once, whichever thread asks first: callers on several threads
 * never see it being written. */
const char *const *bb_loader_names(void)
{
	pthread_once(&loader_names_once, fill_loader_names);
	return loader_names;
}

static bb_load_options with_defaults(const bb_load_options *opts)
{
	bb_load_options o = opts ? *opts : (bb_load_options){ 0 };

	if (!o.max_file_bytes)
		o.max_file_bytes = (size_t)64 << 20;
	if (!o.max_bones)
		o.max_bones = 10000;
	if (!o.max_keys)
		o.max_keys = 1000000;
	if (!o.max_image_pixels)
		o.max_image_pixels = BB_IMAGE_MAX_PIXELS;
	if (!o.max_texture_pixels)
		o.max_texture_pixels = 2 * o.max_image_pixels;
	return o;
}

/* ---- roots and the file funnel ------------------------------------------- */

void bb__load_add_root(bb__load_ctx *c, const char *dir, const char *label)
{
	struct bb__root *r;
	int i;

	if (c->nroots >= BB__MAX_ROOTS)
		return;
	r = &c->roots[c->nroots];
	if (!bb__path_resolve(dir[0] ? dir : ".", r->path, sizeof r->path))
		return;
	for (i = 0; i < c->nroots; i++)
		if (strcmp(c->roots[i].path, r->path) == 0)
			return;
	r->label = label;
	c->nroots++;
}

/* The folders the user's options name, and the input's. */
static void default_roots(bb__load_ctx *c)
{
	char dir[BB__PATH_MAX];

	bb__load_add_root(c, c->dir, "the input's folder");
	if (c->opts->assets_dir)
		bb__load_add_root(c, c->opts->assets_dir, "the --assets folder");
	if (c->opts->atlas_path) {
		bb__dirname(c->opts->atlas_path, dir, sizeof dir);
		bb__load_add_root(c, dir, "the --atlas file's folder");
	}
	if (c->opts->model_path) {
		bb__dirname(c->opts->model_path, dir, sizeof dir);
		bb__load_add_root(c, dir, "the --model file's folder");
	}
}

/* "the input's folder and the --atlas file's folder" */
static void root_names(const bb__load_ctx *c, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->nroots && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
		                      i == 0 ? "" : i + 1 == c->nroots ? " and " : ", ",
		                      c->roots[i].label);
}

/* The error for reference r: "<what> "<name>": <why>" at r->at. */
static bb_status ref_fail(bb__load_ctx *c, const bb__ref *r, bb_status s,
                          const char *why)
{
	const bb__where *at = r->at ? r->at : &c->at;

	if (s != BB_ERR_NOMEM && s != BB_ERR_LIMIT &&
	    !(s == BB_ERR_IO && r->dir && !r->dir[0]))
		s = BB_ERR_INPUT;
	return bb__error_at(c->err, s, at->file, at->line, 0,
	                    at->path.len ? at->path.buf : NULL, "%s \"%s\": %s",
	                    r->what, r->name, why);
}

int bb__load_path(const bb__load_ctx *c, const bb__ref *r, char *buf,
                  size_t size)
{
	return bb__path_join(buf, size, r->dir ? r->dir : c->dir,
	                     r->path ? r->path : r->name);
}

/* The path r names into path; BB_OK when it leads inside a root (or
 * outside paths are allowed), else the error. */
static bb_status resolve(bb__load_ctx *c, const bb__ref *r, char *path,
                         size_t size)
{
	char real[BB__PATH_MAX], names[512], why[700];
	int i;

	if (!bb__load_path(c, r, path, size))
		return ref_fail(c, r, BB_ERR_INPUT, "path too long");
	if (c->opts->allow_outside_paths)
		return BB_OK;
	if (bb__path_resolve(path, real, sizeof real))
		for (i = 0; i < c->nroots; i++)
			if (bb__path_within(real, c->roots[i].path))
				return BB_OK;
	root_names(c, names, sizeof names);
	snprintf(why, sizeof why, "refused: it leads outside %s "
	         "(--allow-outside-paths reads it)", names);
	return ref_fail(c, r, BB_ERR_INPUT, why);
}

int bb__load_exists(bb__load_ctx *c, const bb__ref *r)
{
	char path[BB__PATH_MAX];
	struct stat st;

	if (resolve(c, r, path, sizeof path) != BB_OK)
		return -1;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 1;
	if (!bb__model_add_missing(c->m, path)) {
		bb__build_nomem(&c->b);
		return -1;
	}
	return 0;
}

bb_status bb__load_open(bb__load_ctx *c, const bb__ref *r, unsigned flags,
                        char **data, size_t *size, char *why, size_t nwhy)
{
	char path[BB__PATH_MAX];
	bb_error sub;
	bb_status s;

	*data = NULL;
	*size = 0;
	if (why && nwhy)
		why[0] = '\0';
	if ((s = resolve(c, r, path, sizeof path)) != BB_OK)
		return s;
	s = bb__read_file(path, c->opts->max_file_bytes, data, size, &sub);
	if (s == BB_OK) {
		if (!bb__model_add_file(c->m, path)) {
			free(*data);
			*data = NULL;
			return bb__build_nomem(&c->b);
		}
		return BB_OK;
	}
	if (why && nwhy)
		snprintf(why, nwhy, "%s", sub.message);
	if ((flags & BB__OPEN_OPTIONAL) && s != BB_ERR_NOMEM) {
		/* what was there (or not) decided the render */
		struct stat st;

		if (!(stat(path, &st) == 0 ? bb__model_add_file(c->m, path)
		                           : bb__model_add_missing(c->m, path)))
			return bb__build_nomem(&c->b);
		return BB_OK;
	}
	return ref_fail(c, r, s, sub.message);
}

bb_status bb__load_image(bb__load_ctx *c, const bb__ref *r, unsigned flags,
                         bb_image **img, char *why, size_t nwhy)
{
	char *data, buf[BB_ERROR_MSG_MAX];
	size_t size;
	int w, h;
	bb_error sub;
	bb_status s;

	*img = NULL;
	if (!why) {
		why = buf;
		nwhy = sizeof buf;
	}
	s = bb__load_open(c, r, flags, &data, &size, why, nwhy);
	if (s != BB_OK || !data)
		return s;
	if (!c->opts->skip_pixels && bb_png_size(data, size, &w, &h) &&
	    (uint64_t)w * (uint64_t)h <= c->opts->max_image_pixels &&
	    (uint64_t)w * (uint64_t)h + c->texture_pixels > c->opts->max_texture_pixels) {
		free(data);
		s = bb_error_set(&sub, BB_ERR_LIMIT, NULL, NULL, "%dx%d px would take "
		                 "the model's textures past %zu pixels (%.0f Mpx)", w, h,
		                 c->opts->max_texture_pixels,
		                 c->opts->max_texture_pixels / 1048576.0);
		return ref_fail(c, r, s, sub.message);
	}
	if (c->opts->skip_pixels && bb_png_size(data, size, &w, &h) &&
	    (uint64_t)w * (uint64_t)h <= c->opts->max_image_pixels) {
		/* its size only: nothing will draw it */
		free(data);
		if (!(*img = calloc(1, sizeof **img)))
			return ref_fail(c, r, BB_ERR_NOMEM, "out of memory");
		(*img)->width = w;
		(*img)->height = h;
		c->texture_pixels += (size_t)w * (size_t)h;
		return BB_OK;
	}
	if (flags & BB__IMAGE_PMA) {
		s = bb_png_read_mem_limited(data, size, r->name,
		                            c->opts->max_image_pixels, img, &sub);
		if (s == BB_OK) {   /* only reordered */
			(*img)->premultiplied = 1;
			bb_image_to_argb32(*img);
		}
	} else {   /* converted as the rows are decoded, in cache */
		s = bb_png_read_mem_argb32(data, size, r->name,
		                           c->opts->max_image_pixels, img, &sub);
	}
	free(data);
	if (s == BB_OK) {
		c->texture_pixels += (size_t)(*img)->width * (size_t)(*img)->height;
		return BB_OK;
	}
	snprintf(why, nwhy, "%s", sub.message);
	if ((flags & BB__OPEN_OPTIONAL) && s != BB_ERR_NOMEM)
		return BB_OK;
	return ref_fail(c, r, s, sub.message);
}

/* ---- the driver ------------------------------------------------------------- */

/* "not a format bonebake reads (a, b, ...)", listing the loader table;
 * for a file recognised as something else, what it is and what to do. */
static bb_status not_a_format(const char *name, const char *data, size_t size,
                              bb_error *err)
{
	const char *what = bb__foreign_file(data, size);
	char list[256];
	size_t i, n = 0;

	if (what)
		return bb_error_set(err, BB_ERR_INPUT, name, NULL, "%s", what);
	list[0] = '\0';
	for (i = 0; i < NLOADERS && n < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "",
		                      loaders[i].name);
	return bb_error_set(err, BB_ERR_INPUT, name, NULL,
	                    "not a format bonebake reads (%s)", list);
}

/* The document's kind from its first character (after a byte-order mark
 * and blanks): '{' or '[' JSON, '<' XML, 0 neither. */
static int doc_kind(const char *data, size_t size)
{
	size_t i = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

	while (i < size && strchr(" \t\r\n", data[i]) && data[i])
		i++;
	if (i >= size)
		return 0;
	return data[i] == '{' || data[i] == '[' ? 'j' : data[i] == '<' ? 'x' : 0;
}

static const bb__loader *pick(const char *data, size_t size, const char *path,
                              const char *format, int kind)
{
	size_t i;

	for (i = 0; i < NLOADERS; i++) {
		const bb__loader *l = &loaders[i];

		if (format ? strcmp(format, l->name) == 0
		           : ((kind == 'j' && l->load_json) || (kind == 'x' && l->load_xml)) &&
		             l->sniff(data, size, path))
			return l;
	}
	return NULL;
}

/* The row whose binary form data is (the row named format, when given). */
static const bb__loader *pick_binary(const char *data, size_t size, const char *path,
                                     const char *format)
{
	size_t i;

	for (i = 0; i < NLOADERS; i++) {
		const bb__loader *l = &loaders[i];

		if (l->sniff_binary && (!format || strcmp(format, l->name) == 0) &&
		    l->sniff_binary(data, size, path))
			return l;
	}
	return NULL;
}

/* data must be NUL-terminated at data[size]; from_file: data is the
 * content of the file at path (recorded first among the files read). */
static bb_status load(const char *data, size_t size, const char *path,
                      int from_file, const bb_load_options *o, bb_model **out,
                      bb_error *err)
{
	const bb__loader *ld = NULL;
	bb__load_ctx *c;
	json_t *json = NULL;
	bb__xnode *xml = NULL;
	size_t bom = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	const char *name = bb__basename(path);
	int kind = doc_kind(data, size);
	bb_status s;

	*out = NULL;
	/* a binary form, recognised by its content, is decoded into the JSON
	 * document its row reads */
	if ((ld = pick_binary(data, size, path, o->format))) {
		if ((s = ld->decode_binary(data, size, name, &json, err)) != BB_OK)
			return s;
		kind = 'j';
	} else if (o->format) {
		if (!(ld = pick(data, size, path, o->format, 0)))
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "unknown format \"%s\"", o->format);
		kind = ld->load_json ? 'j' : 'x';
	}
	/* parsed before anything else: a broken document is a syntax error
	 * with its line, whatever format it was meant to be */
	if (json)
		s = BB_OK;
	else if (kind == 'j')
		s = bb__json_parse(data + bom, size - bom, name, &json, err);
	else if (kind == 'x')
		s = bb__xml_parse(data, size, name, (size_t)o->max_keys + 100000,
		                  BB__XML_EXTERNAL_DOCTYPE, &xml, err);
	else
		return not_a_format(name, data, size, err);
	if (s != BB_OK)
		return s;
	if (!ld && !(ld = pick(data, size, path, NULL, kind))) {
		s = not_a_format(name, data, size, err);
		goto done;
	}
	if (!(c = calloc(1, sizeof *c))) {
		s = bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
		goto done;
	}
	c->path = path;
	c->name = name;
	bb__dirname(path, c->dir, sizeof c->dir);
	c->opts = o;
	c->err = err;
	c->data = data;
	c->size = size;
	bb__jctx_init(&c->at, name, err, 0);
	default_roots(c);
	if (!(c->m = bb__model_new(ld->name)) || !(c->m->source = bb__strdup(name)) ||
	    (from_file && !bb__model_add_file(c->m, path))) {
		s = bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
	} else {
		bb__build_init(&c->b, c->m, &c->at, o->max_bones, o->max_keys);
		s = json ? ld->load_json(c, json, c->m) : ld->load_xml(c, xml, c->m);
		if (s == BB_OK)
			s = bb__model_add_setup_anims(c->m, err);
		if (s == BB_OK)
			s = bb__model_validate(c->m, name, err);
	}
	if (s == BB_OK)
		*out = c->m;
	else
		bb_model_free(c->m);
	free(c);
done:
	bb__json_free(json);
	bb__xml_free(xml);
	return s;
}

bb_status bb_model_load(const char *path, const bb_load_options *opts,
                        bb_model **out, bb_error *err)
{
	bb_load_options o = with_defaults(opts);
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	s = bb__read_file(path, o.max_file_bytes, &data, &size, err);
	if (s != BB_OK)
		return s;
	s = load(data, size, path, 1, &o, out, err);
	free(data);
	return s;
}

bb_status bb_model_load_buffer(const void *data, size_t size, const char *path,
                               const bb_load_options *opts, bb_model **out,
                               bb_error *err)
{
	bb_load_options o = with_defaults(opts);
	char *copy;
	bb_status s;

	*out = NULL;
	if (size > o.max_file_bytes)
		return bb_error_set(err, BB_ERR_LIMIT, bb__basename(path), NULL,
		                    "input larger than the limit of %zu bytes",
		                    o.max_file_bytes);
	copy = malloc(size + 1);
	if (!copy)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	memcpy(copy, data, size);
	copy[size] = '\0';
	s = load(copy, size, path, 0, &o, out, err);
	free(copy);
	return s;
}
