/* The loader table: one row per format (name, sniff, load). */
#ifndef BB_LOADERS_LOADER_H
#define BB_LOADERS_LOADER_H

#include "model/model.h"

typedef struct bb__load_ctx {
	const char *path;          /* as given */
	const char *name;          /* basename, used in errors */
	char dir[4096];            /* folder of path, for relative references */
	const char *data;          /* whole file, NUL-terminated */
	size_t size;
	const bb_load_options *opts;  /* defaults filled in */
} bb__load_ctx;

typedef struct bb__loader {
	const char *name;
	/* Returns nonzero when the content looks like this format. */
	int (*sniff)(const char *data, size_t size, const char *path);
	bb_status (*load)(const bb__load_ctx *ctx, bb_model **out, bb_error *err);
} bb__loader;

bb_status bb__load_native(const bb__load_ctx *ctx, bb_model **out, bb_error *err);
int bb__sniff_native(const char *data, size_t size, const char *path);
bb_status bb__load_dragonbones(const bb__load_ctx *ctx, bb_model **out,
                               bb_error *err);
int bb__sniff_dragonbones(const char *data, size_t size, const char *path);
bb_status bb__load_ssajson(const bb__load_ctx *ctx, bb_model **out,
                           bb_error *err);
int bb__sniff_ssajson(const char *data, size_t size, const char *path);
bb_status bb__load_forge(const bb__load_ctx *ctx, bb_model **out, bb_error *err);
int bb__sniff_forge(const char *data, size_t size, const char *path);
/* Cocos Studio ExportJson and armature XML (cocos.c, cocos-xml.c). */
bb_status bb__load_cocos_json(const bb__load_ctx *ctx, bb_model **out,
                              bb_error *err);
int bb__sniff_cocos_json(const char *data, size_t size, const char *path);
bb_status bb__load_cocos_xml(const bb__load_ctx *ctx, bb_model **out,
                             bb_error *err);
int bb__sniff_cocos_xml(const char *data, size_t size, const char *path);

/* Spine JSON 3.8 / 4.x (spine.c and friends). */
bb_status bb__load_spine(const bb__load_ctx *ctx, bb_model **out, bb_error *err);
int bb__sniff_spine(const char *data, size_t size, const char *path);

#endif
