/* The pose object (per-frame state, allocated once, reused). */
#ifndef BB_EVAL_POSE_H
#define BB_EVAL_POSE_H

#include "eval/eval.h"

enum { BB_MAX_NESTING = 8 };

/* deform_disp of a slot whose offsets no timeline set this frame. */
enum { BB__NO_DEFORM = -2 };

struct bb_pose {
	const bb_model *m;
	const bb_armature *a;
	int depth;              /* nesting depth (0 for the figure) */
	bb_xform *local;        /* animated local transform per bone */
	bb_xform *wx;           /* decomposed world ("global") per bone, for the
	                           componentwise and DragonBones inherit modes */
	unsigned char *wx_stale; /* wx must be re-derived from world (fromMatrix) */
	unsigned char *moved;   /* scratch: bones an IK constraint moved */
	bb_affine *world;       /* world matrix per bone */
	bb_affine fig;          /* figure matrix (animated scale, flip, or the
	                           slot of a parent armature) */
	int *display;           /* per slot */
	bb_color_xform *color;  /* per slot */
	int *order;             /* paint order: slot indices */
	int order_set;          /* a draw-order timeline set `order` */
	double figure_sx;
	double anim_time;       /* local time of the first track */
	double *scratch;        /* one key's values (largest stride) */
	double *deform;         /* per slot: mesh vertex offsets */
	size_t *deform_off;     /* per slot: offset into deform */
	int *deform_disp;       /* per slot: display the offsets belong to,
	                           BB_DEFORM_ANY_IMAGE, or BB__NO_DEFORM */
	bb_rgba *vcolor;        /* per slot: 4 corner colours (TL TR BR BL) */
	int *vcolor_blend;      /* per slot: bb_vcolor_blend, -1: none */
	double *ik_weight;      /* per IK constraint */
	int *ik_bend;
	bb_pose **child;        /* per slot: pose of a nested armature, lazily */
	bb_xform *applied;      /* per bone: the transform the update order
	                           computes the world from (constraints change
	                           it; Spine's "applied" pose) */
	int *inherit;           /* per bone: bb_inherit (inherit timelines) */
	double *cparams;        /* per constraint: BB_CP_MAX parameters */
	struct bb__phys *phys;  /* per constraint: physics state */
	double phys_time;       /* the figure time physics last stepped to */
	int phys_step;          /* 1 while stepping physics, 0: pose only */
	/* the springs after step phys_kept_n of the last simulation (valid
	 * when phys_kept_n >= 0), its tracks and options: a later frame of
	 * the same ones steps on from there instead of from t = 0 (the same
	 * steps on the same state: the same numbers) */
	struct bb__phys *phys_kept;
	long phys_kept_n;
	double phys_kept_prev;
	bb_track phys_kept_tracks[BB_MAX_TRACKS];
	int phys_kept_ntracks;
	bb_eval_options phys_kept_opts;
	int *seq_index;         /* per slot: sequence frame (-1: setup) */
	int *seq_disp;          /* per slot: the display seq_index is for */
	const bb_display **shown; /* per slot: the display drawn this frame */
	unsigned char *active;  /* per bone: active under the evaluation's
	                           skins (bb_skin); slots on others not drawn */
	unsigned char *con_active; /* per constraint: applied */
	const bb_eval_options *opts; /* the options of the current evaluation */
	struct bb__path_work *path_work; /* path.c's scratch, lazily */
	double *jvars;          /* per solid joint: BB_JV_COUNT variables */
	struct bb__solid_work *solid_work;  /* solid.c's scratch, lazily */
	/* draw list storage, reused frame to frame */
	bb_draw_item *items;
	size_t nitems, items_cap;
	size_t *voff;           /* per item: offset of its verts in vbuf */
	size_t voff_cap;
	bb_vec2 *vbuf;          /* verts then uvs, per item */
	size_t nv, vcap;
	bb_drawlist dl;
};

/* DragonBones' normalizeRadian: into [-pi, pi). */

/* World matrices of every bone from p->local, then IK constraints; or,
 * for an armature with an update order, bones and constraints in it. */
void bb__world_transforms(bb_pose *p, const bb_eval_options *o);

/* Sets a bone's applied transform to *l and computes its world matrix
 * from its parent's (Spine's updateWorldTransformWith). */
void bb__bone_update(bb_pose *p, int bone, const bb_xform *l);
/* Recomputes a bone's applied transform from its world matrix (Spine's
 * updateAppliedTransform). */
void bb__bone_applied_from_world(bb_pose *p, int bone);

/* The display a slot shows under the evaluation's skins, or NULL. */
const bb_display *bb__slot_display(const bb_pose *p, int slot);

/* Applies constraint k of the update order (constrain.c, path.c,
 * physics.c). */
void bb__constraint_apply(bb_pose *p, int k);
void bb__path_apply(bb_pose *p, int k);
void bb__physics_apply(bb_pose *p, int k);
void bb__path_work_free(struct bb__path_work *w);
/* Physics state: zeroed (at rest, next step starts anew). */
void bb__physics_reset(bb_pose *p, int k);
size_t bb__physics_state_size(void);

/* Evaluates a pose at local animation time for a nested armature whose
 * figure matrix is `fig`. */
bb_status bb__pose_eval_nested(bb_pose *p, int anim, double time,
                               bb_affine fig, bb_error *err);

/* The nested pose of `slot` showing `armature`, created on first use. */
bb_status bb__child_pose(bb_pose *p, int slot, int armature, bb_pose **out,
                         bb_error *err);

/* Appends a draw item with room for nverts vertices and uvs (*verts,
 * *uvs); NULL when out of memory. */
bb_draw_item *bb__drawlist_push(bb_pose *p, size_t nverts, bb_vec2 **verts,
                                bb_vec2 **uvs);

/* The deform offsets the slot holds for display d, or NULL. */
const double *bb__slot_deform(const bb_pose *p, int slot, const bb_display *d);
/* Vertex i of a mesh, clip or path display in world space: weighted (the
 * sum over its influences, from *w on and *w advanced past them, of weight
 * * boneWorld(pos + deform)) or its local position (+ deform) through m.
 * *w starts at the first influence of vertex i (bb__first_influence). */
bb_vec2 bb__mesh_vertex(const bb_pose *p, const bb_display *d, const double *def,
                        bb_affine m, int i, int *w);
int bb__first_influence(const bb_display *d, int i);

/* Builds p->dl from the evaluated pose. */
bb_status bb__build_drawlist(bb_pose *p, const bb_eval_options *o, bb_error *err);

#endif
