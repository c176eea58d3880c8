/* bonebake — the loaded animation model (read-only after loading).
 *
 * Every input format lands in one bb_model: a list of armatures, each with
 * bones, slots, skins, animations.  Loaders are picked by sniffing the file's
 * content; no flag names the format. */
#ifndef BONEBAKE_MODEL_H
#define BONEBAKE_MODEL_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_model bb_model;

/* Zero-initialised means the defaults in brackets. */
typedef struct bb_load_options {
	size_t max_file_bytes;   /* [64 MiB] largest input document */
	int max_bones;           /* [10000] per armature */
	int max_keys;            /* [1000000] keys per animation */
	const char *atlas_path;  /* texture atlas to use instead of the default */
	const char *format;      /* force a loader by name (NULL: sniff) */
	int placeholder;         /* [0] 1: a missing image becomes a transparent
	                            stand-in drawn as outlined boxes (warning) */
	const char *model_path;  /* 3D model a joint file animates (Forge
	                            armature: the block model), NULL: found
	                            by the format's own rule */
	const char *assets_dir;  /* resource root for models and textures
	                            referenced by name (NULL: from the path) */
	size_t max_image_pixels; /* [BB_IMAGE_MAX_PIXELS, 64 Mpx] one texture's
	                            width x height, checked from its header
	                            before it is decoded (BB_ERR_LIMIT) */
	size_t max_texture_pixels; /* [2 x max_image_pixels] all of a model's
	                            decoded textures together (a file naming
	                            many large images is refused before memory
	                            runs out) */
	int skip_pixels;         /* [0] 1: textures are read for their size
	                            only and hold no pixels (info, pose: the
	                            model is not drawn) */
	int allow_outside_paths; /* [0] 1: files the input references may lie
	                            anywhere; 0: only inside the input's folder,
	                            assets_dir, the folders of atlas_path and
	                            model_path (and the format's own root,
	                            Forge's assets folder): a reference leading
	                            elsewhere (.., absolute, a symbolic link)
	                            is refused with BB_ERR_INPUT */
} bb_load_options;

/* Loads `path` into a new model (free with bb_model_free).  Fails with
 * BB_ERR_IO (the input is unreadable or a folder), BB_ERR_INPUT (invalid,
 * or a file it references is missing, unreadable or refused; err names
 * the file and the field path or line), BB_ERR_LIMIT, BB_ERR_NOMEM.
 * Thread-safe (no shared state). */
bb_status bb_model_load(const char *path, const bb_load_options *opts,
                        bb_model **out, bb_error *err);
/* Same from a buffer (borrowed); `path` names it in errors and locates
 * files it references (images, atlases); it need not exist. */
bb_status bb_model_load_buffer(const void *data, size_t size, const char *path,
                               const bb_load_options *opts, bb_model **out,
                               bb_error *err);
void bb_model_free(bb_model *m);

/* The name of the file the model was loaded from (its last path
 * component), as errors about it name it. Borrowed. */
const char *bb_model_source(const bb_model *m);
/* Every file read to build the model (the input, atlases, textures,
 * parent models ...), in read order, each once, as the loader opened it:
 * what a build system or a cache needs to know when a render is stale.
 * A model loaded from a buffer lists only the files it referenced. */
int bb_model_file_count(const bb_model *m);
const char *bb_model_file(const bb_model *m, int i);
/* The files the loader looked for and did not find (an optional atlas, a
 * texture, a loose PNG), as it would have opened them: a file appearing
 * there later changes the render too. */
int bb_model_missing_count(const bb_model *m);
/* Bytes of the model's decoded textures (at most the load options'
 * max_texture_pixels x 4). */
size_t bb_model_texture_bytes(const bb_model *m);
const char *bb_model_missing(const bb_model *m, int i);
/* Name of the loader that read the model ("bonebake-skeleton", ...). */
const char *bb_model_format(const bb_model *m);
/* Names of the loaders in the loader table, NULL-terminated. */
const char *const *bb_loader_names(void);

int bb_model_armature_count(const bb_model *m);
/* Index of the armature named `name`, or -1. */
int bb_model_find_armature(const bb_model *m, const char *name);
/* The armature rendered when none is named (a format's default). */
int bb_model_default_armature(const bb_model *m);

/* A read-only summary of one armature. Strings borrowed from the model. */
typedef struct bb_armature_info {
	const char *name;
	double fps;            /* the file's frame rate (sampling default) */
	int bones, slots, skins, animations, meshes, iks, events, masks;
	int constraints;       /* other constraints (transform, path, physics) */
	int overlay_mask;      /* the bone set an upper-body overlay drives
	                          (the native format's upperBody), or -1 */
} bb_armature_info;

void bb_model_armature_info(const bb_model *m, int armature,
                            bb_armature_info *out);

/* Animation layers: which track an animation plays on by default. */
typedef enum bb_anim_layer {
	BB_LAYER_BODY = 0,
	BB_LAYER_OVERLAY = 1,
	BB_LAYER_FACE = 2
} bb_anim_layer;

/* The animation an armature without any gets: its setup pose, one frame
 * (bb_anim_info.setup_pose is 1 for it). */
#define BB_SETUP_ANIM "setup"

typedef struct bb_anim_info {
	const char *name;
	double duration;      /* seconds */
	int loop;             /* 1: wraps; 0: plays once and holds/stops */
	bb_anim_layer layer;  /* default layer */
	int timelines, keys;
	double fps;           /* the animation's frame rate (its own, else the
	                         armature's) */
	int has_stage;        /* the format defines a canvas (SSAJSON):     */
	double stage_w, stage_h;   /* its size and                          */
	double stage_x, stage_y;   /* the pixel of the figure origin in it  */
	int setup_pose;       /* 1: not in the file: BB_SETUP_ANIM, the setup
	                         pose of an armature without animations */
} bb_anim_info;

int bb_model_anim_count(const bb_model *m, int armature);
int bb_model_find_anim(const bb_model *m, int armature, const char *name);
void bb_model_anim_info(const bb_model *m, int armature, int anim,
                        bb_anim_info *out);

int bb_model_bone_count(const bb_model *m, int armature);
const char *bb_model_bone_name(const bb_model *m, int armature, int bone);
int bb_model_bone_parent(const bb_model *m, int armature, int bone);
int bb_model_find_bone(const bb_model *m, int armature, const char *name);

int bb_model_slot_count(const bb_model *m, int armature);
const char *bb_model_slot_name(const bb_model *m, int armature, int slot);
int bb_model_find_slot(const bb_model *m, int armature, const char *name);
/* Index of a named display variant of a slot (e.g. "fist"), or -1. */
int bb_model_find_slot_display(const bb_model *m, int armature, int slot,
                               const char *name);

int bb_model_skin_count(const bb_model *m, int armature);
const char *bb_model_skin_name(const bb_model *m, int armature, int skin);
int bb_model_find_skin(const bb_model *m, int armature, const char *name);

/* Events (and sounds, actions) of an animation, sorted by time. */
typedef struct bb_event_info {
	double time;           /* seconds into the animation */
	const char *kind;      /* "event", "sound" or "action" */
	const char *name;
	const char *data;      /* extra payload as text, or NULL */
} bb_event_info;

int bb_model_event_count(const bb_model *m, int armature, int anim);
void bb_model_event(const bb_model *m, int armature, int anim, int i,
                    bb_event_info *out);

/* Non-fatal problems found while loading (missing atlas entries, features
 * drawn approximately), each once.  Borrowed strings. */
int bb_model_warning_count(const bb_model *m);
const char *bb_model_warning(const bb_model *m, int i);

/* Named bone masks (the native format's "upperBody"). */
int bb_model_find_mask(const bb_model *m, int armature, const char *name);
const char *bb_model_mask_name(const bb_model *m, int armature, int mask);

#ifdef __cplusplus
}
#endif
#endif
