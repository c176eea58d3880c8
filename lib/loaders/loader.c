/* bb_model_load: reads the file, picks a loader by content, validates. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/loader.h"

static const bb__loader loaders[] = {
	{ "bonebake-skeleton", bb__sniff_native, bb__load_native },
	{ "spine", bb__sniff_spine, bb__load_spine },
	{ "dragonbones", bb__sniff_dragonbones, bb__load_dragonbones },
	{ "ssajson", bb__sniff_ssajson, bb__load_ssajson },
	{ "forge", bb__sniff_forge, bb__load_forge },
	{ "cocos-json", bb__sniff_cocos_json, bb__load_cocos_json },
	{ "cocos-xml", bb__sniff_cocos_xml, bb__load_cocos_xml },
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
	return o;
}

/* "not a format bonebake reads (a, b, ...)", listing the loader table. */
static bb_status not_a_format(const char *name, bb_error *err)
{
	char list[256];
	size_t i, n = 0;

	list[0] = '\0';
	for (i = 0; i < NLOADERS && n < sizeof list; i++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "",
		                      loaders[i].name);
	return bb_error_set(err, BB_ERR_INPUT, name, NULL,
	                    "not a format bonebake reads (%s)", list);
}

/* Moves the input file to the front of the model's file list (the loader
 * recorded what it read after it). */
static void input_first(bb_model *m, const char *path)
{
	int i;

	for (i = 0; i < m->nfiles && strcmp(m->files[i], path) != 0; i++)
		;
	for (; i > 0 && i < m->nfiles; i--) {
		char *t = m->files[i];

		m->files[i] = m->files[i - 1];
		m->files[i - 1] = t;
	}
}

/* data must be NUL-terminated at data[size]; from_file: data is the
 * content of the file at path. */
static bb_status load(const char *data, size_t size, const char *path,
                      int from_file, const bb_load_options *o, bb_model **out,
                      bb_error *err)
{
	const bb__loader *ld = NULL;
	bb__load_ctx ctx;
	bb_status s;
	size_t i;

	memset(&ctx, 0, sizeof ctx);
	ctx.path = path;
	ctx.name = bb__basename(path);
	bb__dirname(path, ctx.dir, sizeof ctx.dir);
	ctx.data = data;
	ctx.size = size;
	ctx.opts = o;
	for (i = 0; i < NLOADERS; i++) {
		if (o->format ? strcmp(o->format, loaders[i].name) == 0
		              : loaders[i].sniff(data, size, path)) {
			ld = &loaders[i];
			break;
		}
	}
	if (!ld) {
		if (o->format)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "unknown format \"%s\"", o->format);
		return not_a_format(ctx.name, err);
	}
	s = ld->load(&ctx, out, err);
	if (s != BB_OK)
		return s;
	if (!((*out)->source = bb__strdup(ctx.name)) ||
	    (from_file && !bb__model_add_file(*out, path))) {
		s = bb_error_set(err, BB_ERR_NOMEM, ctx.name, NULL, "out of memory");
	} else {
		if (from_file)
			input_first(*out, path);
		s = bb__model_add_setup_anims(*out, err);
		if (s == BB_OK)
			s = bb__model_validate(*out, ctx.name, err);
	}
	if (s != BB_OK) {
		bb_model_free(*out);
		*out = NULL;
	}
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
