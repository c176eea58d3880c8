/* The loader driver and the loader table.
 *
 * bb_model_load reads the input (within the size limit), parses it once
 * (JSON or XML, by its first character), picks the format (sniffing, or
 * bb_load_options.format), creates the model named after the table's row
 * and calls that row's load with the parsed root; then it gives every
 * armature without animations its setup pose (bb__model_add_setup_anims),
 * validates the model and frees what the load left.  A format is its row
 * and its load: a mapping of the parsed document onto the model through
 * the builder (model/build.h), reading fields through json.h or xml.h.
 *
 * Every other file a loader reads passes through bb__load_open (or
 * bb__load_image, bb__load_exists): resolved against the folder of the
 * file that names it, confined to the allowed roots, read within the size
 * limit, and recorded in the model's file list. */
#ifndef BB_LOADERS_LOADER_H
#define BB_LOADERS_LOADER_H

#include "core/json.h"
#include "loaders/xml.h"
#include "model/build.h"

enum { BB__MAX_ROOTS = 6, BB__PATH_MAX = 4096 };

/* A folder files may be read from, and how messages call it. */
struct bb__root {
	char path[BB__PATH_MAX];   /* resolved (bb__path_resolve) */
	const char *label;         /* "the input's folder", "--assets DIR", ... */
};

typedef struct bb__load_ctx {
	const char *path;          /* the input, as given */
	const char *name;          /* its last component: errors name it */
	char dir[BB__PATH_MAX];    /* its folder: references are relative to it */
	const bb_load_options *opts;  /* defaults filled in */
	bb_model *m;
	bb_error *err;
	bb__where at;              /* the reader's position in the input (file
	                              = name; JSON loaders set at.flags) */
	bb__build b;               /* the model builder, reporting at `at` */
	struct bb__root roots[BB__MAX_ROOTS];
	int nroots;
	const char *data;          /* the input's bytes, NUL-terminated */
	size_t size;
	size_t texture_pixels;     /* decoded so far (max_texture_pixels) */
} bb__load_ctx;

typedef struct bb__loader {
	const char *name;          /* the model's format name */
	/* nonzero when the content looks like this format */
	int (*sniff)(const char *data, size_t size, const char *path);
	/* one of the two, after the document's kind */
	bb_status (*load_json)(bb__load_ctx *c, json_t *root, bb_model *m);
	bb_status (*load_xml)(bb__load_ctx *c, const bb__xnode *root, bb_model *m);
	/* a binary form (NULL: none): recognised by its content and decoded
	 * into the JSON document load_json reads (*out: free it with
	 * bb__json_free; errors name `file`) */
	int (*sniff_binary)(const char *data, size_t size, const char *path);
	bb_status (*decode_binary)(const char *data, size_t size, const char *file,
	                           json_t **out, bb_error *err);
} bb__loader;

/* A file a loader reads, as a file (or the command line) names it. */
typedef struct bb__ref {
	const bb__where *at;       /* where it is named: its errors are made
	                              there (NULL: the input's position) */
	const char *what;          /* "image", "page", "model" ... (messages) */
	const char *name;          /* as written: messages name it */
	const char *dir;           /* folder `path` is relative to: NULL the
	                              input's; "" as given (a path the user
	                              named: --atlas, --model) */
	const char *path;          /* the path, when it is not `name` (a
	                              format's rule built it from the name) */
} bb__ref;

/* bb__load_open flags */
enum {
	/* a file that is not there or cannot be read is not an error: BB_OK,
	 * *data NULL and the reason in `why` (the caller warns).  A refused
	 * reference (outside the roots) is an error all the same. */
	BB__OPEN_OPTIONAL = 1u << 0,
	/* bb__load_image: the file's colour is premultiplied already (a Spine
	 * "pma" page): kept as it is, not premultiplied again */
	BB__IMAGE_PMA = 1u << 1
};

/* Reads the file r names: r->path (or r->name) joined to r->dir, its
 * target inside one of the roots unless opts->allow_outside_paths, within
 * opts->max_file_bytes; recorded in the model's files as opened.  A
 * failure is an error at r->at:
 *   <file>[:line]: <path>: <what> "<name>": <why>
 * BB_ERR_INPUT for a refused, missing or unreadable file (BB_ERR_IO for a
 * path the user named; BB_ERR_LIMIT, BB_ERR_NOMEM).  *data is
 * NUL-terminated; free it.  `why` (may be NULL) receives the reason. */
bb_status bb__load_open(bb__load_ctx *c, const bb__ref *r, unsigned flags,
                        char **data, size_t *size, char *why, size_t nwhy);
/* The same for a PNG, decoded into the layout of the model's textures
 * (bb_image_to_argb32) (*img NULL and the reason in why with
 * BB__OPEN_OPTIONAL). */
bb_status bb__load_image(bb__load_ctx *c, const bb__ref *r, unsigned flags,
                         bb_image **img, char *why, size_t nwhy);
/* Whether r names a regular file: 1 yes, 0 no; -1 when it leads outside
 * the roots (the error is set at r->at). */
int bb__load_exists(bb__load_ctx *c, const bb__ref *r);
/* The path r names (joined, not resolved), into buf; 0 if too long. */
int bb__load_path(const bb__load_ctx *c, const bb__ref *r, char *buf,
                  size_t size);
/* Adds a root files may be read from: a folder the format's own layout
 * derives from the input's path (Forge: the assets folder it lies in). */
void bb__load_add_root(bb__load_ctx *c, const char *dir, const char *label);

/* The formats (one row each in loader.c). */
int bb__sniff_native(const char *data, size_t size, const char *path);
bb_status bb__load_native(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_spine(const char *data, size_t size, const char *path);
bb_status bb__load_spine(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_spine_binary(const char *data, size_t size, const char *path);
bb_status bb__decode_spine_binary(const char *data, size_t size, const char *file,
                                  json_t **out, bb_error *err);
int bb__sniff_dragonbones(const char *data, size_t size, const char *path);
bb_status bb__load_dragonbones(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_ssajson(const char *data, size_t size, const char *path);
bb_status bb__load_ssajson(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_forge(const char *data, size_t size, const char *path);
bb_status bb__load_forge(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_cocos_json(const char *data, size_t size, const char *path);
bb_status bb__load_cocos_json(bb__load_ctx *c, json_t *root, bb_model *m);
int bb__sniff_cocos_xml(const char *data, size_t size, const char *path);
bb_status bb__load_cocos_xml(bb__load_ctx *c, const bb__xnode *root,
                             bb_model *m);

#endif
