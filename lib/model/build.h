/* The model builder: what every loader writes a model with.  Each call
 * allocates, fills the defaults and counts against the limits; its
 * out-of-memory and limit errors are made here, at the reader's position
 * (b->at: the file, line and field path the loader is reading), so a
 * loader only maps its format onto the model.
 *
 * Pointers returned (bb_armature, bb_display, bb_anim, bb_timeline ...)
 * stay valid until the next call that adds the same kind of thing to the
 * same owner. */
#ifndef BB_MODEL_BUILD_H
#define BB_MODEL_BUILD_H

#include "core/util.h"
#include "model/model.h"

/* Limits every loader shares besides the options' bones and keys. */
enum {
	BB_BUILD_MAX_SLOTS = 100000,       /* per armature */
	BB_BUILD_MAX_CONS = 100000,        /* constraints per armature */
	BB_BUILD_MAX_DISPLAYS = 4000000    /* per armature */
};

typedef struct bb__build {
	bb_model *m;
	bb__where *at;         /* where the reader is: errors name it */
	int max_bones;         /* per armature */
	int max_keys;          /* per animation */
	long keys;             /* keys of the animation last added */
} bb__build;

void bb__build_init(bb__build *b, bb_model *m, bb__where *at, int max_bones,
                    int max_keys);

/* BB_ERR_NOMEM naming the file (other errors: bb__where_fail at b->at). */
bb_status bb__build_nomem(bb__build *b);
/* *dst = a copy of s (BB_ERR_NOMEM). */
bb_status bb__build_str(bb__build *b, char **dst, const char *s);

/* Appends n armatures (zeroed: no overlay mask), the first at *first. */
bb_status bb__build_armatures(bb__build *b, int n, bb_armature **first);
/* n bones (more than max_bones: BB_ERR_LIMIT "<n> bones exceed the limit
 * of <max>"), each a root at the identity, matrix inheritance, all
 * inherit flags; their names are the loader's to set. */
bb_status bb__build_bones(bb__build *b, bb_armature *a, size_t n);
/* n slots on bone 0, showing nothing (setup_display -1), identity colour,
 * normal blending (more than BB_BUILD_MAX_SLOTS in the armature:
 * BB_ERR_LIMIT "<n> slots exceed the limit of <max>"). */
bb_status bb__build_slots(bb__build *b, bb_armature *a, size_t n);
/* Appends a skin named `name` with an empty run for each of a's slots
 * (so the slots come first) and, when draw_order, the slots' own order. */
bb_status bb__build_skin(bb__build *b, bb_armature *a, const char *name,
                         int draw_order, bb_skin **out);
/* Appends n displays (BB_DISPLAY_NONE, identity transform); the first's
 * index in *first (more than BB_BUILD_MAX_DISPLAYS in the armature:
 * BB_ERR_LIMIT "<n> displays exceed the limit of <max>"). */
bb_status bb__build_displays(bb__build *b, bb_armature *a, size_t n, int *first);
/* A mesh, clip or path display's arrays, all zero, their counts set:
 * nverts positions (verts); per vertex its influence count (wcount) and
 * ninfl influences (wbone, wweight, wpos); nverts uvs and nindices
 * triangle indices; n path lengths.  BB_ERR_NOMEM. */
bb_status bb__build_verts(bb__build *b, bb_display *d, int nverts);
bb_status bb__build_weights(bb__build *b, bb_display *d, int nverts, int ninfl);
bb_status bb__build_triangles(bb__build *b, bb_display *d, int nverts,
                              int nindices);
bb_status bb__build_lengths(bb__build *b, bb_display *d, int n);
/* dst becomes a deep copy of src, dst's name kept (without memory: an
 * empty BB_DISPLAY_NONE and BB_ERR_NOMEM). */
bb_status bb__build_copy_display(bb__build *b, bb_display *dst,
                                 const bb_display *src);
/* Appends n IK constraints (weight 1, bendPositive). */
bb_status bb__build_iks(bb__build *b, bb_armature *a, size_t n);
/* Appends n constraints (zeroed: kind IK, no bones; more than
 * BB_BUILD_MAX_CONS in the armature: BB_ERR_LIMIT "<n> constraints
 * exceed the limit of <max>"). */
bb_status bb__build_cons(bb__build *b, bb_armature *a, size_t n);
/* Gives constraint c n bones (index 0 each). */
bb_status bb__build_con_bones(bb__build *b, bb_constraint *c, int n);
/* The skin's own bones (cons 0: a flag per bone of a, bb_skin.bones) or
 * constraints (cons 1: bb_skin.cons), created once, all clear. */
bb_status bb__build_skin_flags(bb__build *b, const bb_armature *a, bb_skin *sk,
                               int cons, unsigned char **out);
/* Room for an update order of n steps in a->update (nupdate 0; more than
 * 1 << 26: BB_ERR_LIMIT "too many bones and constraints"). */
bb_status bb__build_update(bb__build *b, bb_armature *a, size_t n);
/* Appends a bone mask with a flag per bone of a. */
bb_status bb__build_mask(bb__build *b, bb_armature *a, const char *name,
                         bb_mask **out);
/* The armature's solid (created once). */
bb_status bb__build_solid(bb__build *b, bb_armature *a, bb_solid **out);

/* Appends an animation named `name` (body layer, not looping); an earlier
 * one of the same name is BB_ERR_INPUT at the reader's ".name".  Starts
 * counting its keys. */
bb_status bb__build_anim(bb__build *b, bb_armature *a, const char *name,
                         bb_anim **out);
/* Whether n more keys fit in the animation last added (BB_ERR_LIMIT "more
 * than <max> keys" if not), for a loader that reads a list of keys before
 * it builds their timelines. */
bb_status bb__build_keys_fit(bb__build *b, long n);
/* Appends a timeline of nkeys keys (times and values zero, stepped) of
 * stride values each; the animation's keys beyond max_keys are
 * BB_ERR_LIMIT "more than <max> keys". */
bb_status bb__build_timeline(bb__build *b, bb_anim *an, bb_tl_target target,
                             int index, bb_prop prop, bb_apply apply,
                             int stride, int nkeys, bb_timeline **out);
/* Removes the animation's last timeline (its keys no longer counted). */
void bb__build_drop_timeline(bb__build *b, bb_anim *an);
/* Adds an event, kept in time order (equal times in the order added);
 * data may be NULL. */
bb_status bb__build_event(bb__build *b, bb_anim *an, double time,
                          bb_event_kind kind, const char *name,
                          const char *data);
/* n more floats in the animation's table pool: *offset is their index,
 * *out their storage (valid until the next table). */
bb_status bb__build_table(bb__build *b, bb_anim *an, int n, int *offset,
                          float **out);

/* Adds a texture named `name` (takes img, freed on failure); *index.  A
 * model's textures are premultiplied ARGB32 (bb_image_to_argb32): its
 * pixels (unless it has none: skip_pixels) are converted here unless they
 * are already (the files bb__load_image reads are, as they are decoded). */
bb_status bb__build_texture(bb__build *b, const char *name, bb_image *img,
                            int *index);

/* ---- the model (the loader driver's steps) ---------------------------- */

/* A new empty model of format `format` (a static string), or NULL. */
bb_model *bb__model_new(const char *format);
/* Records a file the model was built from (once per path); 0 when out
 * of memory. */
int bb__model_add_file(bb_model *m, const char *path);
/* Records a file looked for and not found (an optional atlas, a texture):
 * it appearing later changes the render.  0 when out of memory. */
int bb__model_add_missing(bb_model *m, const char *path);
/* Records a warning (identical messages are kept once). */
void bb__model_warn(bb_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sets default_armature: among the armatures no other one nests (files
 * often list their weapons and effects first), the one with the most
 * bones; the first of equals. */
void bb__model_pick_default_armature(bb_model *m);
/* Gives every armature without animations one animation named
 * BB_SETUP_ANIM ("setup"): no timelines, duration 0, not looping — its
 * setup pose as one frame — and makes it the default.  Called by the
 * loader driver after a loader succeeds.  BB_ERR_NOMEM. */
bb_status bb__model_add_setup_anims(bb_model *m, bb_error *err);

/* The first bone / slot / animation named `name`, or -1. */
int bb__build_find_bone(const bb_armature *a, const char *name);
int bb__build_find_slot(const bb_armature *a, const char *name);
int bb__build_find_anim(const bb_armature *a, const char *name);

#endif
