/* The pose object (per-frame state, allocated once, reused). */
#ifndef BB_EVAL_POSE_H
#define BB_EVAL_POSE_H

#include "eval/eval.h"

struct bb_pose {
	const bb_model *m;
	const bb_armature *a;
	bb_xform *local;        /* animated local transform per bone */
	bb_xform *wx;           /* decomposed world ("global") per bone, for the
	                           componentwise and DragonBones inherit modes */
	unsigned char *wx_stale; /* wx must be re-derived from world (fromMatrix) */
	bb_affine *world;       /* world matrix per bone */
	bb_affine fig;          /* figure matrix (animated scale, flip) */
	int *display;           /* per slot */
	bb_color_xform *color;  /* per slot */
	int *order;             /* paint order: slot indices */
	double figure_sx;
	/* draw list storage, reused frame to frame */
	bb_draw_item *items;
	size_t nitems, items_cap;
	size_t *voff;           /* per item: offset of its verts in vbuf */
	size_t voff_cap;
	bb_vec2 *vbuf;          /* verts then uvs, per item */
	size_t nv, vcap;
	bb_drawlist dl;
};

/* World matrix of a Cocos-style bone: position through the parent's
 * matrix, scales multiplied, rotation and skew added.  Fills *wx with the
 * bone's world components. */
bb_affine bb__componentwise(const bb_pose *p, int parent, const bb_xform *l,
                            bb_xform *wx);

/* Builds p->dl from the evaluated pose. */
bb_status bb__build_drawlist(bb_pose *p, const bb_eval_options *o, bb_error *err);

#endif
