/* Spine JSON (3.8, 4.0-4.2) and its libGDX-style atlas: what the loader's
 * files share.  spine.c reads the skeleton (bones, slots, constraints, the
 * update order), spine-skin.c the skins and attachments, spine-anim.c the
 * animations, spine-atlas.c the atlas.
 *
 * Coordinates: Spine's numbers are kept as they are (y up, angles counter-
 * clockwise, converted from degrees to radians); the armature is marked
 * y_up, so the evaluator's figure matrix flips y as Spine's own skeleton
 * scaleY = -1 does for y-down engines (Bone.yDown): the conversion happens
 * once, there, and Spine's inherit modes and constraints see it as the
 * skeleton scale they already account for. */
#ifndef BB_LOADERS_SPINE_H
#define BB_LOADERS_SPINE_H

#include "core/json.h"
#include "core/names.h"
#include "loaders/loader.h"

/* One atlas region: the packed rectangle (w, h before rotation), its
 * rotation, and the whitespace stripped around it (offsets from the
 * bottom-left of the original image, libGDX's convention). */
typedef struct bb__sp_region {
	char *name;
	int texture;           /* model texture index */
	int page_w, page_h;
	int index;
	int x, y, w, h;
	int degrees;           /* 0, 90, 180, 270 */
	int off_x, off_y, orig_w, orig_h;
} bb__sp_region;

typedef struct bb__sp_atlas {
	bb__sp_region *regions;
	int n;
	size_t cap;
	bb__names index;           /* bb__sp_atlas_find's, by region name */
} bb__sp_atlas;

/* Reads a libGDX/Spine atlas (4.x `bounds:`/`offsets:` and 3.x `xy:`/
 * `size:`/`orig:`/`offset:` forms, `rotate` true/false/degrees, `index`,
 * several pages, `scale:` read and ignored as the runtime does, `pma:`
 * pages kept premultiplied as they are (only reordered into cairo's
 * ARGB32), the others premultiplied as they are decoded) and its page PNGs into m.  Errors name the atlas file, its
 * line and the region's field. */
bb_status bb__sp_atlas_load(bb__load_ctx *c, const bb__ref *ref, bb__sp_atlas *at);
/* Same from a buffer; page PNGs are looked up in dir. */
bb_status bb__sp_atlas_parse(bb__load_ctx *c, const char *name, const char *dir,
                             const char *data, size_t size, bb__sp_atlas *at);
const bb__sp_region *bb__sp_atlas_find(bb__sp_atlas *at, const char *name);
void bb__sp_atlas_free(bb__sp_atlas *at);

/* Per slot, the attachment names any skin gives it (the same list, in the
 * same order, for every skin's run of that slot). */
typedef struct bb__sp_names {
	char **names;
	int n;
	size_t cap;
} bb__sp_names;

typedef struct bb__sp {
	bb__jctx *j;           /* the driver's reader position (ctx->at) */
	bb__build *b;          /* the model builder (ctx->b), reporting there */
	bb__load_ctx *ctx;
	bb_model *m;
	bb_armature *a;
	int v3;                /* 3.x data (3.8's key names and curves) */
	int v40;               /* 4.0 data (a linked mesh's `deform` flag) */
	int have_atlas;
	bb__sp_atlas atlas;
	json_t *root;
	bb__sp_names *names;   /* per slot */
	int nnames;            /* sum over slots */
	struct bb__sp_con {    /* per model constraint: */
		double order;      /* its `order` (the update order) */
		unsigned char phys_global;  /* bit p set when a physics
		                      constraint takes the global ("") timeline
		                      of bb__sp_physics_props[p] */
	} *cons;
	int missing_regions;
	double reference_scale;   /* skeleton.referenceScale (physics) */
} bb__sp;

/* What a physics timeline animates, in the order of the phys_global
 * bits (each read from the constraint's `<name>Global`). */
enum { BB_SP_NPHYS = 7 };
extern const char *const bb__sp_physics_props[BB_SP_NPHYS];

/* Float as the runtime stores keys and vertices (Float32Array). */
double bb__sp_f32(double v);
/* "rrggbb[aa]" (an optional '#') into c; 0 when malformed. */
int bb__sp_color(const char *hex, bb_rgba *c);
/* Number member (Spine's getValue: absent -> def; null is an error). */
bb_status bb__sp_num(bb__sp *sp, json_t *obj, const char *key, double def,
                     double *out);
/* Error at path [+ "." key] + "[i]". */
bb_status bb__sp_fail_at(bb__sp *sp, const char *key, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Index of a bone / slot by name, -1. */
int bb__sp_bone(const bb__sp *sp, const char *name);
int bb__sp_slot(const bb__sp *sp, const char *name);
/* Index of a name in a slot's attachment names, -1. */
int bb__sp_name_index(const bb__sp *sp, int slot, const char *name);

/* spine-attach.c: attachment geometry.  Vertices: nverts pairs, or per
 * vertex a bone count and (bone, x, y, weight) each; a region's quad and
 * uvs from JSON (x, y, scale, rotation, width, height); a mesh's vertices
 * and triangles, its 0..1 region uvs into *ruv (caller frees), placed on a
 * region later; clipping (path = 0) or path (1) attachments. */
bb_status bb__sp_read_vertices(bb__sp *sp, json_t *map, int nverts, bb_display *d);
bb_status bb__sp_vertex_count(bb__sp *sp, json_t *map, int *n);
bb_status bb__sp_tint(bb__sp *sp, json_t *map, bb_display *d);
/* The region named path (a miss is counted and warned about once). */
const bb__sp_region *bb__sp_find_region(bb__sp *sp, const char *path);
bb_status bb__sp_read_region(bb__sp *sp, json_t *map, const char *path, bb_display *d);
bb_status bb__sp_read_mesh(bb__sp *sp, json_t *map, float **ruv, int *nruv,
                           bb_display *d);
/* The mesh's uvs on region `path`; without the region it becomes NONE. */
void bb__sp_place_mesh(bb__sp *sp, const float *ruv, int nruv, const char *path,
                       bb_display *d);
bb_status bb__sp_read_clip_or_path(bb__sp *sp, json_t *map, int path, bb_display *d);
/* Frees a display's vertex data, making it an empty NONE (name kept). */
void bb__sp_clear_geometry(bb_display *d);

/* spine-skin.c: every skin's displays; names resolved to indices. */
bb_status bb__sp_read_skins(bb__sp *sp);
/* spine-anim.c: every animation. */
bb_status bb__sp_read_animations(bb__sp *sp);

#endif
