/* The shared model's layout, visible to loaders and the evaluator only.
 * Immutable once a loader returns it.  Every index is validated by the
 * loader (bb__model_validate re-checks them), so the evaluator trusts them. */
#ifndef BB_MODEL_MODEL_H
#define BB_MODEL_MODEL_H

#include <stddef.h>

#include "bonebake/geom.h"
#include "bonebake/image.h"
#include "bonebake/model.h"

/* Local transform; radians, y down (or y up in an armature with y_up).
 * Matrix (DragonBones' toMatrix, with Spine's x shear h):
 * a = cos(r+h)sx, b = sin(r+h)sx, c = -sin(r+k)sy, d = cos(r+k)sy:
 * the x axis turns by rotation + shear, the y axis by rotation + skew. */
typedef struct bb_xform {
	double x, y, rotation, skew, sx, sy;
	double shear;          /* x-axis shear (0 for most formats) */
} bb_xform;

/* How a bone combines with its parent.  The last four are Spine's inherit
 * modes: the position always goes through the parent's matrix, the linear
 * part is rebuilt as described, then the figure's linear part (a diagonal
 * "skeleton scale": flip, y up) is applied on top, whatever the parent. */
typedef enum bb_inherit {
	BB_INHERIT_MATRIX = 0,      /* world = parent ∘ local */
	BB_INHERIT_FLAGS,           /* DragonBones inherit* flags (see flags) */
	BB_INHERIT_COMPONENTWISE,   /* Cocos: position via parent matrix,
	                               scales multiplied, skews added */
	BB_INHERIT_ONLY_TRANSLATION,     /* the bone's own linear part only */
	BB_INHERIT_NO_ROTATION_OR_REFLECTION, /* the parent's rotation and
	                               reflection removed, its scale and
	                               shear kept */
	BB_INHERIT_NO_SCALE,        /* the parent's direction (at the bone's
	                               rotation) and reflection, unit scale */
	BB_INHERIT_NO_SCALE_OR_REFLECTION  /* the same without reflection */
} bb_inherit;

enum {
	BB_INHERIT_ROTATION = 1u << 0,
	BB_INHERIT_SCALE = 1u << 1,
	BB_INHERIT_REFLECTION = 1u << 2,
	BB_INHERIT_TRANSLATION = 1u << 3,
	BB_INHERIT_ALL = 15u
};

typedef struct bb_bone {
	char *name;
	int parent;            /* -1 for a root; always < own index */
	bb_xform setup;
	double length;
	bb_inherit inherit;
	unsigned flags;        /* BB_INHERIT_* for BB_INHERIT_FLAGS */
	int skin_required;     /* active only under a skin that lists it (or
	                          one of its descendants): see bb_skin */
} bb_bone;

typedef enum bb_display_kind {
	BB_DISPLAY_NONE = 0,
	BB_DISPLAY_RECT,
	BB_DISPLAY_IMAGE,
	BB_DISPLAY_MESH,
	BB_DISPLAY_ARMATURE,
	BB_DISPLAY_CLIP,       /* u.mesh polygon (no texture, no indices):
	                          clips the slots drawn after it up to
	                          u.mesh.clip_end (inclusive; -1: all) */
	BB_DISPLAY_PATH        /* u.mesh cubic Bezier path (not drawn; path
	                          constraints follow it) */
} bb_display_kind;

typedef struct bb_display {
	bb_display_kind kind;
	char *name;            /* variant name ("open"), may be NULL */
	bb_affine local;       /* display transform in the slot's bone space */
	int has_blend;         /* 1: `blend` replaces the slot's blend mode
	                          (0, the zeroed default: the slot's) */
	bb_blend blend;
	int outline;           /* a stand-in (missing image): drawn as an
	                          outlined box of its quad */
	int inherited;         /* a skin's copy of the default skin's display
	                          (or an absent one: kind NONE): a skin layered
	                          over another does not replace with it */
	int deform_from;       /* 1 + the display whose deform and sequence
	                          timelines also drive this one (a linked mesh's
	                          parent, a skin's copy); 0: its own only */
	int has_tint;          /* tint multiplies the slot colour */
	bb_rgba tint;
	int seq_first, seq_count;  /* a sequence: frame k is the display
	                          seq_first + k (outside any skin run); the
	                          slot's sequence index picks it */
	int seq_setup;         /* frame shown without a sequence key */
	union {
		struct {
			double w, h, radius;
			bb_rgba color;
		} rect;
		struct {
			int texture;           /* index into model textures */
			bb_vec2 corners[4];    /* TL TR BR BL in display space */
			bb_vec2 uvs[4];        /* texture pixels */
		} image;
		struct {
			int texture;
			int nverts, nindices;
			bb_vec2 *verts;        /* display space (unweighted) */
			bb_vec2 *uvs;          /* texture pixels */
			int *indices;
			/* weighted: per vertex wcount[v] influences, flattened:
			 * bone, weight, position in that bone's space */
			int *wcount;           /* NULL when unweighted */
			int ninfluences;
			int *wbone;
			double *wweight;
			bb_vec2 *wpos;
			int clip_end;          /* CLIP: last slot clipped, -1: all */
			int closed;            /* PATH: the last curve joins the first */
			int constant_speed;    /* PATH: positions by arc length */
			int nlengths;          /* PATH: curve lengths (setup pose) */
			double *lengths;
		} mesh;
		struct {
			int armature;
			int anim;              /* -1: the child's default */
		} armature;
	} u;
} bb_display;

typedef struct bb_slot {
	char *name;
	int bone;
	int setup_display;     /* index into the skin's list for this slot; -1 none */
	bb_color_xform color;
	bb_blend blend;
} bb_slot;

/* A skin: per slot a run of displays, and optionally its own draw order.
 * Spine's skin-required bones and constraints: a skin in use makes the
 * bones it lists active, with their parents, and the constraints it lists;
 * a skin-required bone or constraint no skin in use lists is inactive: it
 * is not updated, and slots on an inactive bone are not drawn. */
typedef struct bb_skin {
	char *name;
	int *first, *count;    /* per slot: run in the armature's display array */
	int *draw_order;       /* nslots slot indices back to front, or NULL */
	unsigned char *bones;  /* nbones flags: bones the skin activates, or NULL */
	unsigned char *cons;   /* ncons flags: constraints it activates, or NULL */
} bb_skin;

typedef struct bb_mask {
	char *name;
	unsigned char *bones;  /* nbones flags */
} bb_mask;

typedef enum bb_tl_target {
	BB_TL_BONE = 0,        /* index = bone, prop = BB_PROP_* */
	BB_TL_SLOT_DISPLAY,    /* index = slot, 1 value, stepped */
	BB_TL_SLOT_COLOR,      /* index = slot, 8 values: aM rM gM bM (0..1)
	                          aO rO gO bO (offsets, 0..1 units) */
	BB_TL_FIGURE,          /* whole figure; prop = BB_PROP_SCALE_X */
	BB_TL_DRAW_ORDER,      /* index 0; stride = nslots: slot indices back
	                          to front; stepped */
	BB_TL_DEFORM,          /* index = slot, display = the mesh display;
	                          stride = 2 * (verts or influences): offsets;
	                          or display = an image display, or
	                          BB_DEFORM_ANY_IMAGE (whichever image display
	                          the slot shows): stride 8, corner offsets
	                          TL TR BR BL in display space */
	BB_TL_IK,              /* index = IK constraint; prop X: weight,
	                          prop Y: bendPositive (stepped) */
	BB_TL_VERTEX_COLOR,    /* index = slot; stride 17: a bb_vcolor_blend,
	                          then TL TR BR BL corner colours r g b a
	                          (0..1; a = the blend rate) of image displays */
	BB_TL_JOINT,           /* index = solid joint, jvar = the variable;
	                          1 value per key (see bb_solid) */
	BB_TL_BONE_INHERIT,    /* index = bone, 1 value: a bb_inherit; stepped */
	BB_TL_SLOT_TINT,       /* index = slot; channels = the BB_CH_* the
	                          values set, in that order (light r g b a,
	                          dark r g b; 0..1), replacing them */
	BB_TL_CONSTRAINT,      /* index = constraint; values set its parameters
	                          param .. param + stride - 1 (BB_CP_*) */
	BB_TL_SEQUENCE,        /* index = slot, display = the display with the
	                          sequence; 3 values: a bb_seq_mode, the
	                          frame index, the delay between frames;
	                          stepped: the frame advances with time */
	BB_TL_PHYSICS_RESET    /* index = physics constraint, -1: all; the
	                          keys' times reset them (value unused) */
} bb_tl_target;

/* BB_TL_SLOT_TINT.channels */
enum {
	BB_CH_R = 1u << 0, BB_CH_G = 1u << 1, BB_CH_B = 1u << 2, BB_CH_A = 1u << 3,
	BB_CH_DARK_R = 1u << 4, BB_CH_DARK_G = 1u << 5, BB_CH_DARK_B = 1u << 6,
	BB_CH_CLAMP = 1u << 7          /* clamp the light values to 0..1 */
};

/* BB_TL_SEQUENCE modes (Spine's SequenceMode, in its order). */
typedef enum bb_seq_mode {
	BB_SEQ_HOLD = 0, BB_SEQ_ONCE, BB_SEQ_LOOP, BB_SEQ_PINGPONG,
	BB_SEQ_ONCE_REVERSE, BB_SEQ_LOOP_REVERSE, BB_SEQ_PINGPONG_REVERSE
} bb_seq_mode;

/* BB_TL_DEFORM.display: the offsets follow the slot's image display. */
enum { BB_DEFORM_ANY_IMAGE = -1 };

typedef enum bb_prop {
	BB_PROP_X = 0,
	BB_PROP_Y,
	BB_PROP_ROTATION,
	BB_PROP_SKEW,
	BB_PROP_SCALE_X,
	BB_PROP_SCALE_Y,
	BB_PROP_SHEAR,         /* bb_xform.shear */
	BB_PROP_COUNT
} bb_prop;

/* How a sampled value combines with the setup value; the result replaces
 * what earlier tracks set for that property. */
typedef enum bb_apply {
	BB_APPLY_ADD = 0,      /* setup + v */
	BB_APPLY_MUL,          /* setup * v */
	BB_APPLY_REPLACE       /* v */
} bb_apply;

typedef enum bb_interp_kind {
	BB_INTERP_STEP = 0,
	BB_INTERP_LINEAR,
	BB_INTERP_QUAD_IN,     /* DragonBones eases: blend with param */
	BB_INTERP_QUAD_OUT,
	BB_INTERP_SINE_IN_OUT,
	BB_INTERP_TABLE,       /* piecewise-linear table (sampled curve) */
	BB_INTERP_NEAREST,     /* the nearer key: this one below p = 0.5,
	                          the next from 0.5 on */
	BB_INTERP_TWEEN,       /* Cocos tween table (eval/tween.h): param = the
	                          twE index; table/ntable: the key's twEP
	                          parameters in the anim's table pool */
	BB_INTERP_BEZIER,      /* per value a Bezier flattened into 9 points
	                          (time s, value) between the keys, ntable =
	                          18 * stride floats: piecewise linear from
	                          the key through the points to the next key
	                          (Spine 4.x, sampled as its runtime does) */
	BB_INTERP_BEZIER_PERCENT /* one curve shared by every value: 9 points
	                          (time s, progress 0..1), ntable = 18: the
	                          progress piecewise linear from (key, 0)
	                          through the points to (next key, 1) */
} bb_interp_kind;

typedef struct bb_interp {
	bb_interp_kind kind;
	float param;           /* strength for the eases */
	int table, ntable;     /* TABLE: offset/count in the anim's table pool */
} bb_interp;

typedef struct bb_timeline {
	bb_tl_target target;
	int index;             /* bone, slot or constraint */
	int display;           /* BB_TL_DEFORM: index into the display array */
	bb_prop prop;
	bb_apply apply;
	int stride;            /* values per key */
	double time_scale;     /* local time = t / time_scale + time_offset *
	                          duration (DragonBones timeline scale/offset);
	                          0 means 1 */
	double time_offset;
	int wraps;             /* the last key is a wrap key back to key 0, used
	                          only while the animation loops */
	int nkeys;             /* >= 1 */
	double *times;         /* seconds, non-decreasing */
	double *values;        /* nkeys * stride */
	bb_interp *interp;     /* per key (towards the next key) */
	int jvar;              /* BB_TL_JOINT: a bb_joint_var */
	unsigned channels;     /* BB_TL_SLOT_TINT: BB_CH_* */
	int param;             /* BB_TL_CONSTRAINT: first parameter */
} bb_timeline;

typedef enum bb_event_kind {
	BB_EVENT_EVENT = 0,
	BB_EVENT_SOUND,
	BB_EVENT_ACTION
} bb_event_kind;

typedef struct bb_event {
	double time;           /* seconds into the animation */
	bb_event_kind kind;
	char *name;
	char *data;            /* extra payload as text (may be NULL) */
} bb_event;

typedef struct bb_anim {
	char *name;
	double duration;
	int loop;
	bb_anim_layer layer;
	double fps;            /* the animation's own frame rate, 0: the
	                          armature's */
	int has_stage;         /* the format's own canvas: size and the pixel
	                          of the figure origin */
	double stage_w, stage_h, stage_x, stage_y;
	int ntimelines;
	bb_timeline *timelines;
	float *tables;         /* pool for BB_INTERP_TABLE */
	int ntables;
	int nevents;
	bb_event *events;      /* sorted by time */
	int exact_keys;        /* a sample at time t uses keys at times <= t
	                          exactly (times stored as the runtime stores
	                          them); 0: within 1e-9 s of a key counts as
	                          on it */
	int setup;             /* 1: not in the file: the setup pose of an
	                          armature without animations (BB_SETUP_ANIM) */
} bb_anim;

/* IK constraint (DragonBones semantics): one bone, or two (bone's parent
 * and bone) when chain > 0. */
typedef struct bb_ik {
	char *name;
	int bone, target;
	int chain;             /* 0: one bone, 1: parent + bone */
	int bend_positive;
	double weight;
} bb_ik;

/* ---- constraints evaluated in the armature's update order ----
 *
 * Spine's constraints.  Angles in radians, lengths in skeleton units, in
 * the armature's own space (before the figure matrix).  Parameters that
 * timelines animate are numbered BB_CP_* per kind; params[] holds their
 * setup values. */
typedef enum bb_con_kind {
	BB_CON_IK = 0,         /* one bone, or two (parent then child) */
	BB_CON_TRANSFORM,      /* bones follow the target bone's transform */
	BB_CON_PATH,           /* bones follow the path shown by a slot */
	BB_CON_PHYSICS         /* one bone moved by a damped spring */
} bb_con_kind;

enum {
	/* IK */
	BB_CP_IK_MIX = 0, BB_CP_IK_SOFTNESS, BB_CP_IK_BEND, /* +1 / -1 */
	BB_CP_IK_COMPRESS, BB_CP_IK_STRETCH,                 /* 0 / 1 */
	/* transform (mixes) */
	BB_CP_TC_ROTATE = 0, BB_CP_TC_X, BB_CP_TC_Y, BB_CP_TC_SCALE_X,
	BB_CP_TC_SCALE_Y, BB_CP_TC_SHEAR_Y,
	/* path */
	BB_CP_PATH_POSITION = 0, BB_CP_PATH_SPACING, BB_CP_PATH_ROTATE,
	BB_CP_PATH_X, BB_CP_PATH_Y,
	/* physics */
	BB_CP_PH_INERTIA = 0, BB_CP_PH_STRENGTH, BB_CP_PH_DAMPING, BB_CP_PH_MASS,
	BB_CP_PH_WIND, BB_CP_PH_GRAVITY, BB_CP_PH_MIX,
	BB_CP_MAX = 7
};

typedef enum bb_path_position { BB_PATH_FIXED = 0, BB_PATH_PERCENT } bb_path_position;
typedef enum bb_path_spacing {
	BB_PATH_SP_LENGTH = 0, BB_PATH_SP_FIXED, BB_PATH_SP_PERCENT,
	BB_PATH_SP_PROPORTIONAL
} bb_path_spacing;
typedef enum bb_path_rotate {
	BB_PATH_TANGENT = 0, BB_PATH_CHAIN, BB_PATH_CHAIN_SCALE
} bb_path_rotate;

typedef struct bb_constraint {
	bb_con_kind kind;
	char *name;
	int nbones;
	int *bones;            /* constrained bones */
	int target;            /* IK, transform: bone; path: slot; physics: -1 */
	int skin_required;     /* active only under a skin that lists it; and
	                          only while its target bone (path: the target
	                          slot's bone; physics: its bone) is active */
	double params[BB_CP_MAX];
	union {
		struct {
			int uniform;           /* stretch scales y too */
		} ik;
		struct {
			int local, relative;
			double rotation, x, y, scale_x, scale_y, shear_y; /* offsets */
		} tc;
		struct {
			bb_path_position position;
			bb_path_spacing spacing;
			bb_path_rotate rotate;
			double rotation;       /* offset */
		} path;
		struct {
			double x, y, rotate, scale_x, shear_x; /* how much each follows */
			double limit;          /* velocity limit, units per second */
			double step;           /* seconds per simulation step */
			double reference_scale;
		} phys;
	} u;
} bb_constraint;

/* One entry of an armature's update order. */
typedef struct bb_update {
	int constraint;        /* 0: a bone's world transform; 1: a constraint */
	int index;
} bb_update;

/* ---- solids: 3D cuboids moved by joints, projected to the draw list ----
 *
 * Model units, right-handed: +x east, +y up, +z south.  An element is a
 * box from..to with an optional rotation of its own about one axis, and up
 * to six faces.  Joints have no parent: each joint's transform is absolute
 * (J(p) = O + offset + R(axis, angle) S (p - O), O = the pivot), and an
 * element listed by several joints takes the weighted average of their
 * matrices, joints at identity left out.  Joint variables are animated by
 * BB_TL_JOINT timelines with one key per sample spread over one cycle of
 * the animation: a looping animation's n keys at i/n (the last
 * interpolating back to the first), a non-looping one's at i/(n-1); the
 * cycle fraction is always wrapped into [0, 1).  ANGLE interpolates along
 * the shorter arc. */
typedef enum bb_face_dir {
	BB_FACE_DOWN = 0,      /* -y */
	BB_FACE_UP,            /* +y */
	BB_FACE_NORTH,         /* -z */
	BB_FACE_SOUTH,         /* +z */
	BB_FACE_WEST,          /* -x */
	BB_FACE_EAST,          /* +x */
	BB_FACE_COUNT
} bb_face_dir;

typedef enum bb_joint_var {
	BB_JV_OFFSET_X = 0,    /* model units */
	BB_JV_OFFSET_Y,
	BB_JV_OFFSET_Z,
	BB_JV_AXIS_X,          /* rotation axis, any length; zero: no rotation */
	BB_JV_AXIS_Y,
	BB_JV_AXIS_Z,
	BB_JV_ANGLE,           /* degrees, right-hand rule about the axis */
	BB_JV_SCALE,           /* sets all three scales */
	BB_JV_SCALE_X,
	BB_JV_SCALE_Y,
	BB_JV_SCALE_Z,
	BB_JV_ORIGIN_X,        /* pivot, model units */
	BB_JV_ORIGIN_Y,
	BB_JV_ORIGIN_Z,
	BB_JV_COUNT
} bb_joint_var;

typedef struct bb_solid_face {
	int present;
	int texture;           /* model texture index, or -1: flat `color` */
	bb_rgba color;         /* fill when texture < 0 */
	double uv[4];          /* u1 v1 u2 v2, texture pixels */
	int rotation;          /* 0, 90, 180, 270: UV rotation */
} bb_solid_face;

typedef struct bb_solid_elem {
	double from[3], to[3];
	int rotated;           /* element rotation present */
	int rot_axis;          /* 0 x, 1 y, 2 z */
	double rot_angle;      /* degrees */
	double rot_origin[3];
	double rot_scale[3];   /* applied after the rotation, about the
	                          origin (1 1 1 unless the element rescales) */
	int shade;             /* directional light on the faces */
	bb_solid_face faces[BB_FACE_COUNT];
} bb_solid_elem;

typedef struct bb_solid_joint {
	char *name;
	double origin[3];      /* pivot while no ORIGIN variable is set */
} bb_solid_joint;

typedef struct bb_solid_weight {
	int joint, elem;
	double weight;
} bb_solid_weight;

typedef struct bb_solid {
	int nelems, njoints, nweights;
	bb_solid_elem *elems;
	bb_solid_joint *joints;
	bb_solid_weight *weights;
	double centre[3];      /* model point drawn at the figure origin */
} bb_solid;

typedef struct bb_armature {
	char *name;
	double fps;
	int nbones, nslots, nskins, nanims, ndisplays, nmasks;
	bb_bone *bones;
	bb_slot *slots;
	bb_skin *skins;
	bb_anim *anims;
	bb_display *displays;
	bb_mask *masks;
	int niks;
	bb_ik *iks;
	int default_anim;      /* the armature's own default animation, -1 */
	int overlay_mask;      /* mask an upper-body overlay drives, or -1 */
	bb_solid *solid;       /* 3D cuboids drawn after the slots, or NULL */
	int y_up;              /* the armature's space is y up: the figure
	                          matrix flips y (Spine's skeleton scaleY -1) */
	int ncons;
	bb_constraint *cons;
	int nupdate;           /* 0: bones in order, then the IKs above; else
	                          bones and constraints in this order */
	bb_update *update;
	double physics_step;   /* > 0: physics constraints are simulated from
	                          t = 0 in steps of this many seconds */
} bb_armature;

struct bb_model {
	const char *format;    /* static loader name */
	char *source;          /* basename of the file it was loaded from */
	int nfiles;
	char **files;          /* every file read to build it, in read order,
	                          as opened (the input first) */
	int nmissing;
	char **missing;        /* files looked for and not found */
	int narmatures;
	int default_armature;
	bb_armature *armatures;
	int ntextures;
	bb_image **textures;
	char **texture_names;
	int nwarnings;
	char **warnings;       /* non-fatal problems found while loading */
};

/* Construction: model/build.h. */
/* Index of a texture by name or -1. */
int bb__model_find_texture(const bb_model *m, const char *name);
/* Checks every index and count in the model; returns BB_ERR_INTERNAL
 * (a loader bug) naming `file` when something is out of range. */
bb_status bb__model_validate(const bb_model *m, const char *file, bb_error *err);

/* Frees a solid (NULL-safe).  bb__solid_valid: 1 when every index and
 * count of s (and of `nanims` timelines' joints) is in range. */
void bb__solid_free(bb_solid *s);
int bb__solid_valid(const bb_solid *s, const bb_model *m);

/* Index of the display whose deform and sequence timelines drive d (its
 * own, or its deform_from); d points into a->displays. */
int bb__display_key(const bb_armature *a, const bb_display *d);
/* Frees a display's geometry (mesh, clip, path vertices) and makes it an
 * empty BB_DISPLAY_NONE; its name stays. */
void bb__display_clear(bb_display *d);

/* Matrix of a local transform. */
bb_affine bb__xform_matrix(const bb_xform *x);
bb_xform bb__xform_identity(void);

#endif
