/* bonebake — evaluation: (model, tracks, time) -> pose -> draw list.
 *
 * A pose is per-frame state allocated once and reused; bb_pose_eval is a
 * pure function of the model, the tracks and t, so frames may be evaluated
 * in any order and in parallel (one pose per thread). */
#ifndef BONEBAKE_EVAL_H
#define BONEBAKE_EVAL_H

#include "geom.h"
#include "image.h"
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One animation playing on the figure. */
typedef struct bb_track {
	int anim;          /* animation index in the armature */
	double start;      /* figure time (s) at which the track starts */
	int mask;          /* bone mask index, or -1 for every bone */
	int transient;     /* 1: the track has no effect before `start` and,
	                      when not looping, after its end (overlay, face);
	                      0: it holds its first/last pose (body) */
	int loop;          /* 0: the animation's own flag; 1: force looping;
	                      2: force playing once */
	double speed;      /* animation seconds per figure second (0 means 1):
	                      0.5 stretches one cycle over twice its length */
} bb_track;

enum { BB_MAX_TRACKS = 8, BB_MAX_OVERRIDES = 64, BB_MAX_SKIN_LAYERS = 8 };

/* How 3D solids are projected (orthographic).  FRONT looks at the north
 * (-z) face, BACK at the south, LEFT at the east (the viewer's left when
 * facing the front), RIGHT at the west, TOP down with north up; ISO is the
 * inventory angle: from above (30 degrees) between north and west, the
 * north face on the left. */
typedef enum bb_view3d_kind {
	BB_VIEW3D_ISO = 0,
	BB_VIEW3D_FRONT,
	BB_VIEW3D_BACK,
	BB_VIEW3D_LEFT,
	BB_VIEW3D_RIGHT,
	BB_VIEW3D_TOP
} bb_view3d_kind;

typedef struct bb_view3d {
	bb_view3d_kind kind;
	double pixels_per_unit;  /* world units per model unit; 0 means 8 */
} bb_view3d;

/* Zero-initialised means: default skin, no flip, no bone overlay. */
typedef struct bb_eval_options {
	int skin;          /* skin index; 0 is the format's default */
	int flip;          /* mirror horizontally about the figure origin */
	int show_bones;    /* append bone/joint markers to the draw list */
	int n_overrides;   /* slot display overrides (applied as setup) */
	struct { int slot, display; } overrides[BB_MAX_OVERRIDES];
	bb_view3d view3d;  /* projection of 3D solids (zero: iso, 8 px) */
	int n_more_skins;  /* skins layered over `skin`, later ones first:    */
	int more_skins[BB_MAX_SKIN_LAYERS]; /* a slot shows the display of the
	                      last one that defines it (Spine's combined skins) */
} bb_eval_options;

/* Draw list: the only thing the rasterizer sees. */
typedef enum bb_draw_kind {
	BB_DRAW_RECT = 0,   /* rounded rectangle centred on m's origin */
	BB_DRAW_QUAD,       /* 4 vertices TL, TR, BR, BL with texture coords */
	BB_DRAW_MESH,       /* triangles over vertices with texture coords */
	BB_DRAW_CLIP,       /* the polygon `verts` clips the items after it */
	BB_DRAW_CLIP_END    /* ends the clip (items are clipped by one
	                       polygon at most) */
} bb_draw_kind;

/* How per-vertex colours C (rate = C.a) combine with the texel P:
 * MIX P·(1-rate) + C·rate, MULTIPLY P·(1-rate) + P·C·rate, ADD P + C·rate,
 * SUBTRACT P - C·rate (rgb, clamped); alpha stays P's. */
typedef enum bb_vcolor_blend {
	BB_VCOLOR_MIX = 0,
	BB_VCOLOR_MULTIPLY,
	BB_VCOLOR_ADD,
	BB_VCOLOR_SUBTRACT
} bb_vcolor_blend;

typedef struct bb_draw_item {
	bb_draw_kind kind;
	int slot;                /* source slot, -1 for overlay markers */
	bb_blend blend;
	bb_color_xform color;    /* applied to the fill / texture colour */
	/* RECT: m maps rect space (centre at 0,0) to world */
	bb_affine m;
	double w, h, radius;
	bb_rgba fill;            /* straight colour */
	/* QUAD / MESH: world vertices, texture coords in texture pixels */
	const bb_image *texture; /* borrowed from the model, whose textures
	                            are premultiplied ARGB32 (argb32 flag);
	                            an image of the caller's in another
	                            layout is converted when drawn; NULL: the
	                            shape is filled with `fill` (colour
	                            transform applied) */
	int nverts;
	const bb_vec2 *verts;
	const bb_vec2 *uvs;
	int nindices;            /* MESH: 3 per triangle; QUAD: 0 */
	const int *indices;
	const bb_rgba *vcolors;  /* optional per-vertex colours, or NULL */
	bb_vcolor_blend vcolor_blend;  /* how vcolors combine with the texture */
	int outline;             /* QUAD/MESH: a stand-in for a missing image,
	                            drawn as a 1-px outline of its shape */
} bb_draw_item;

typedef struct bb_drawlist {
	int count;
	const bb_draw_item *items;
} bb_drawlist;

typedef struct bb_pose bb_pose;

/* Returns a new pose for one armature of m (borrowed: m must outlive it).
 * Free with bb_pose_free.  Fails with BB_ERR_USAGE (bad index), NOMEM. */
bb_status bb_pose_new(const bb_model *m, int armature, bb_pose **out,
                      bb_error *err);
void bb_pose_free(bb_pose *p);

/* Evaluates the figure at time t (seconds).  Fails with BB_ERR_USAGE for a
 * bad track/skin/override, BB_ERR_NOMEM. Not thread-safe per pose. */
bb_status bb_pose_eval(bb_pose *p, const bb_track *tracks, int ntracks,
                       double t, const bb_eval_options *opts, bb_error *err);

/* Results of the last bb_pose_eval, valid until the next one. */
const bb_drawlist *bb_pose_drawlist(const bb_pose *p);
int bb_pose_bone_count(const bb_pose *p);
/* World matrix of a bone in the figure's space (before any view). */
bb_affine bb_pose_bone_world(const bb_pose *p, int bone);
/* 1 when the bone is active under the evaluation's skins (Spine's
 * skin-required bones: an inactive bone is not updated and the slots on
 * it are not drawn); 0 otherwise or out of range. */
int bb_pose_bone_active(const bb_pose *p, int bone);
/* Slots in paint order (back to front): slot index at position i. */
int bb_pose_slot_order(const bb_pose *p, int i);
int bb_pose_slot_display(const bb_pose *p, int slot);
bb_color_xform bb_pose_slot_color(const bb_pose *p, int slot);
/* Name of the display (attachment) a slot shows, or NULL (none, or
 * unnamed). */
const char *bb_pose_slot_display_name(const bb_pose *p, int slot);

/* Bounds of everything the draw list paints, in world space. */
bb_bounds bb_drawlist_bounds(const bb_drawlist *dl);

/* Frames rendered for an animation: round(d*fps) when looping (the end pose
 * equals the start and is not repeated), floor(d*fps)+1 when not; at least 1. */
long bb_frame_count(double duration, double fps, int loop);

#ifdef __cplusplus
}
#endif
#endif
