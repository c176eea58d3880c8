/* DragonBones 2.3 / 3.0 reading, shared by dragonbones23.c (the document:
 * bones, slots, skins) and dragonbones23-anim.c (animations): the source
 * as read and checked, and helpers that build the translated 4.5 document
 * (json.h's writer: an allocation failure or a value that overflowed sets
 * a sticky flag that bb__db23_flags reports). */
#ifndef BB_LOADERS_DRAGONBONES23_H
#define BB_LOADERS_DRAGONBONES23_H

#include "loaders/dragonbones.h"

#define DB23_NO_TWEEN 100.0   /* the runtime's DragonBones.NO_TWEEN */

/* A transform as the 5.0 runtime holds it: skews in radians. */
struct tf {
	double x, y, skx, sky, sx, sy;
};

struct bone23 {
	const char *name;
	int parent;            /* file index or -1 */
	struct tf g, l;        /* setup: armature space, parent space */
};

struct slot23 {
	const char *name;
	int bone;              /* file bone index */
	double z;
	int seq;               /* definition order: ties of z */
	int ndisp;             /* most displays any skin gives it (-1: none) */
	int display;           /* setup display index */
	int arm_index;         /* its place in the armature's slot[], or -1 */
	json_t *src;
};

struct key23 {
	double start, len;     /* frames on the animation's grid */
	double tween;          /* the runtime's tweenEasing, or DB23_NO_TWEEN */
	struct tf g;           /* as read, pivot applied */
	double z, dur;
	int display, raw_display;  /* shown (hide applied); as written */
	json_t *src;
};

struct tl23 {
	int bone, slot;        /* file bone; slot of the same name or -1 */
	size_t n;
	struct key23 *k;
	json_t *src;
};

struct g23 {
	struct db *d;
	bb__jctx *j;           /* the 2.3 file's reader (errors name its fields) */
	bb__jw w;              /* the 4.5 document being written */
	int global;            /* isGlobal: transforms in armature space */
	json_t *ja;            /* the source armature */
	int nbones, nslots;
	struct bone23 *bones;
	struct slot23 *slots;  /* draw order */
	/* the animation being read */
	double frames, anim_scale, anim_tween;
	int auto_tween, loops;
	int ntl;
	struct tl23 *tl;
	int *tl_of_bone;       /* bone -> its timeline, or -1 */
	int *tl_of_slot;       /* slot (draw order) -> its timeline, or -1 */
};

/* The writer's sticky failures as a status at the current path. */
bb_status bb__db23_flags(struct g23 *g);

bb_affine bb__db23_matrix(const struct tf *t);
/* obj.transform {x, y, skX, skY, scX, scY, pX, pY} (degrees), checked;
 * absent: identity and *has 0. */
bb_status bb__db23_read_tf(struct g23 *g, json_t *obj, struct tf *t, double *px,
                           double *py, int *has);
/* Armature-space G of a bone whose parent is at P, in the parent's space. */
struct tf bb__db23_to_local(const struct tf *G, const struct tf *P);
json_t *bb__db23_tf_json(struct g23 *g, const struct tf *t);
/* Colour transform obj[key], checked, as a new 4.5 `color` object in *out
 * (NULL when it is absent). */
bb_status bb__db23_color(struct g23 *g, json_t *obj, const char *key,
                         json_t **out);
/* Optional string members `keys` (NULL-terminated) of obj, checked. */
bb_status bb__db23_strings(struct g23 *g, json_t *obj, const char *const *keys);
/* Bone (file index) or slot (draw order) by name, or -1. */
int bb__db23_bone(const struct g23 *g, const char *name);
int bb__db23_slot(const struct g23 *g, const char *name);

/* dragonbones23-anim.c: animation ja (path set) appended to dst. */
bb_status bb__db23_read_animation(struct g23 *g, json_t *ja, json_t *dst);
void bb__db23_free_timelines(struct g23 *g);

#endif
