/* DragonBones loader internals shared by dragonbones.c (structure) and
 * dragonbones-anim.c (animations). */
#ifndef BB_LOADERS_DRAGONBONES_H
#define BB_LOADERS_DRAGONBONES_H

#include "core/json.h"
#include "loaders/atlas.h"
#include "loaders/loader.h"

/* One nested-armature display whose animation name is resolved after
 * every armature has been read. */
struct db_fixup {
	int armature, display, child;
	char *anim;
};

/* Per-mesh data needed to convert deform keys of weighted meshes. */
struct db_mesh {
	int display;           /* model display index */
	bb_affine slot_pose;
	bb_affine *inv_bone_pose;  /* per influence: inverse bind matrix */
};

struct db {
	bb__load_ctx *c;
	bb__jctx *j;           /* the skeleton's reader (lenient, as the runtime) */
	bb__build *b;
	bb_model *m;
	double version;        /* data version, e.g. 4.5, 5.0, 5.5 */
	double file_fps;
	bb__atlas atlas;
	int have_atlas;
	const char **arm_names;    /* the file's armature names */
	int narms;
	/* the armature being read */
	bb_armature *a;
	int arm;
	double fps;
	int nfile_bones;
	int *bone_of_file;     /* file bone index -> model bone */
	struct db_mesh *meshes;
	int nmeshes;
	size_t meshes_cap;
	struct db_fixup *fixups;
	int nfixups;
	size_t fixups_cap;
};

/* The mesh display named `name` in skin `skin` (NULL: default) of `slot`. */
int bb__db_find_mesh(const struct db *d, const char *skin, int slot,
                     const char *name);
const struct db_mesh *bb__db_mesh(const struct db *d, int display);

/* Colour transform object obj[key] {aM..bM percent, aO..bO 0..255}
 * (absent: identity). */
bb_status bb__db_color(struct db *d, json_t *obj, const char *key,
                       bb_color_xform *out);
/* Geometry of a mesh display (dragonbones-mesh.c): vertices, uvs on region
 * r, triangles, weights with their bind poses. */
bb_status bb__db_mesh_geometry(struct db *d, json_t *jd, bb_display *ds,
                               const bb__region *r, int display);

/* Keys of one JSON frame list, placed on the animation's frame grid. */
struct keys {
	size_t n;
	double *start;         /* frames */
	double *len;           /* frames to the next key (last: to the end) */
	json_t *arr;           /* the frame list (walked again for values) */
};

struct anim_ctx {
	struct db *d;
	bb_anim *an;
	double frames;         /* animation length in frames */
	double scale, fps;     /* animation time scale, frame rate */
	int loop;
};

/* Seconds of frame f: f * scale / fps, computed as the CLI computes
 * sample times (i / fps), so a key on a sampled frame matches exactly. */
static inline double bb__db_frame_time(const struct anim_ctx *c, double f)
{
	return c->scale == 1 ? f / c->fps : f * c->scale / c->fps;
}

/* Shared by dragonbones-anim.c and dragonbones-slots.c.  bb__db_key_list:
 * the keys of frame list arr (the path at it). */
void bb__db_keys_free(struct keys *k);
bb_status bb__db_key_list(struct anim_ctx *c, json_t *arr, struct keys *k);
/* A timeline over the keys (plus room for the loop's wrap key). */
bb_status bb__db_new_timeline(struct anim_ctx *c, const struct keys *k,
                              bb_tl_target target, int index, bb_prop prop,
                              bb_apply apply, int stride, bb_timeline **out);
/* Interpolation of every key; *wraps = the last key tweens back to key 0. */
bb_status bb__db_set_interps(struct anim_ctx *c, const struct keys *k,
                             bb_timeline *t, int stepped, int *wraps);
/* The events of frame list obj[key] (where: the bone or slot). */
/* The keys of frame list arr and, when there are any, a timeline over
 * them with their interpolations (stepped: every key held): key list, new
 * timeline and interpolations in one; *out NULL for an empty list. */
bb_status bb__db_timeline_of(struct anim_ctx *c, json_t *arr, struct keys *k,
                             bb_tl_target target, int index, bb_prop prop,
                             bb_apply apply, int stride, int stepped,
                             bb_timeline **out, int *wraps);
bb_status bb__db_frame_events(struct anim_ctx *c, json_t *obj, const char *key,
                              const char *where);
bb_status bb__db_slot_timelines(struct anim_ctx *c, json_t *js);
bb_status bb__db_ffd_timeline(struct anim_ctx *c, json_t *jf);
bb_status bb__db_ik_timeline(struct anim_ctx *c, json_t *ji);
bb_status bb__db_zorder_timeline(struct anim_ctx *c, json_t *jz);

/* Reads armature ja's animation[] into d->a (dragonbones-anim.c). */
bb_status bb__db_load_animations(struct db *d, json_t *ja);

/* dragonbones23.c: whether root is a 2.3 / 3.0 document (global-space
 * data), and its translation into the 4.5 form read here: a new document
 * in *out (free it), or an error naming the file's own field. */
int bb__db23_is_old(json_t *root);
bb_status bb__db23_translate(struct db *d, json_t *root, json_t **out);

#endif
