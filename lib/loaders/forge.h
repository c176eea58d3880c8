/* Minecraft Forge 1.12 armatures and the block models they animate:
 * state shared by forge.c (armature, clips, file lookup) and
 * forge-model.c (block model: parents, textures, elements).
 * Semantics: ../shared/spec/forge.md. */
#ifndef BB_LOADERS_FORGE_H
#define BB_LOADERS_FORGE_H

#include "core/json.h"
#include "loaders/loader.h"

enum {
	FG_MAX_ELEMENTS = 65536,
	FG_MAX_PARENTS = 32,       /* parent chain depth */
	FG_BLOCK = 16              /* model units per block unit */
};

struct fg {
	bb__load_ctx *c;
	bb__jctx *j;               /* the file being read: the armature
	                              (c->at) or a model of the chain */
	bb__build *b;
	bb_armature *a;
	bb_solid *s;
	char assets[4096];         /* resource root holding <ns>/..., "" unknown */
	char model_path[4096];
	char missing[512];         /* textures not found, for one warning */
	int nmissing;
};

/* "ns:path" or "path" (namespace minecraft) -> <assets>/<ns>/<kind>/<path>
 * <ext>; 0 when no resource root is known or the path does not fit. */
int bb__fg_resource(const struct fg *f, const char *name, const char *kind,
                    const char *ext, char *buf, size_t size);
/* Loads the block model at f->model_path (and its parents) into f->s:
 * elements, faces and textures.  Errors name the model file. */
bb_status bb__fg_load_model(struct fg *f);

#endif
