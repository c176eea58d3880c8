/* Cocos Studio armatures (cocos2d-x cocostudio, spec ../shared/spec/cocos.md).
 * Two readers fill one format-neutral description of the file: cocos.c
 * (ExportJson) and cocos-xml.c (the DragonBones 1.x/2.x "Flash" XML);
 * cocos-build.c turns it into the model and cocos-anim.c its movements
 * into animations.  Values are kept as the runtime holds them after
 * reading: y up, angles in radians (kX/kY), frame indices at 60 fps. */
#ifndef BB_LOADERS_COCOS_H
#define BB_LOADERS_COCOS_H

#include "loaders/atlas.h"
#include "loaders/loader.h"

enum { CC_TWEP_MAX = 8 };

/* twE: 0 Linear, 10000 TWEEN_EASING_MAX (eval/tween.h has the table) */
enum { CC_TWE_LINEAR = 0, CC_TWE_NONE = 10000 };

/* Data versions (CCArmatureDefine.h). */
#define CC_VERSION_COMBINED 0.3
#define CC_VERSION_ROTATION_RANGE 1.0

/* x, y, kX, kY, cX, cY: a cocos BaseData transform (y up, radians). */
typedef struct cc_node {
	double x, y, kx, ky, sx, sy;
} cc_node;

struct cc_frame {
	cc_node t;
	double color[4];           /* a r g b, 0..255 */
	int has_color;
	int di, z, tween, twe;     /* display index, z, tweenFrame, easing */
	double twr;                /* tweenRotate (turns, XML) */
	float twep[CC_TWEP_MAX];
	int ntwep;
	double fi;                 /* frame index */
	int blend;                 /* bb_blend, -1: not set */
	char *evt, *sound, *mov;
};

struct cc_movbone {
	char *name;
	double dl, scale;          /* delay (fraction), speed scale (XML sc) */
	int nframes;
	size_t cap;
	struct cc_frame *frames;
};

struct cc_mov {
	char *name;
	double dr, drtw, to, sc;
	int loop, twe;
	int nbones;
	size_t cap;
	struct cc_movbone *bones;
	char path[256];            /* where it is, for messages */
	int line;
};

struct cc_display {
	char *name;
	int type;                  /* 0 sprite, 1 armature, 2 particle */
	cc_node skin;
};

struct cc_bone {
	char *name, *parent;
	cc_node t;
	int z;
	int ndisplays;
	size_t cap;
	struct cc_display *displays;
	char path[256];            /* where it is, for messages */
	int line;
};

struct cc_arm {
	char *name;
	double version;
	int nbones, nmovs;
	size_t bcap, mcap;
	struct cc_bone *bones;
	struct cc_mov *movs;
};

struct cc_tex {
	char *name;
	double px, py;             /* normalised anchor, y up */
};

struct cc_doc {
	bb__load_ctx *c;
	bb__build *b;
	bb_model *m;
	int narms, ntex;
	size_t acap, tcap;
	struct cc_arm *arms;
	struct cc_tex *tex;
	bb__atlas atlas;
	int have_atlas;
};

/* cocos.c: helpers shared by the readers; NULL when out of memory (the
 * frames of one bone: also beyond the key limit) */
struct cc_arm *bb__cc_add_arm(struct cc_doc *d);
struct cc_bone *bb__cc_add_bone(struct cc_doc *d, struct cc_arm *a);
struct cc_display *bb__cc_add_display(struct cc_doc *d, struct cc_bone *b);
struct cc_mov *bb__cc_add_mov(struct cc_doc *d, struct cc_arm *a);
struct cc_movbone *bb__cc_add_movbone(struct cc_doc *d, struct cc_mov *mv);
struct cc_frame *bb__cc_add_frame(struct cc_doc *d, struct cc_movbone *mb);
struct cc_tex *bb__cc_add_tex(struct cc_doc *d);
struct cc_arm *bb__cc_find_arm(struct cc_doc *d, const char *name);
void bb__cc_frame_init(struct cc_frame *f);
/* Chain-unwraps kX/kY of a bone's keys from the last one (spec 6.4). */
void bb__cc_unwrap(struct cc_movbone *mb);
/* Loads the plist r names into the atlas (have_atlas set). */
bb_status bb__cc_plist(struct cc_doc *d, const bb__ref *r);

/* cocos-xml.c */
bb_status bb__cc_read_xml(struct cc_doc *d, const bb__xnode *root);
/* The limit of bones per armature, a message the readers share. */
#define CC_BONES_LIMIT "%zu bones exceed the limit of %d"

/* cocos-build.c: the description -> d->m */
bb_status bb__cc_build(struct cc_doc *d);

/* cocos-anim.c: movement mv of armature `arm` -> a new animation of
 * model armature `ma` (bones, slots and displays already built). */
bb_status bb__cc_build_movement(struct cc_doc *d, const struct cc_arm *arm,
                                const struct cc_mov *mv, bb_armature *ma);

/* Model-space (y down) transform of a cocos node: x, -y, rotation -kY,
 * skew kX + kY, scales as they are. */
bb_xform bb__cc_xform(const cc_node *n);

/* Timing (spec 5), in seconds: the movement's length, (drTW or dr) frames
 * at 60 fps times sc; where key frame index fi sits in it, fi * D / (dr - 1)
 * (0 when dr <= 1); the per-bone time offset of delay dl while looping
 * (a fraction of the duration, bone time = t + (1 - dl) D, wrapped). */
double bb__cc_duration(double dr, double drtw, double sc);
double bb__cc_key_time(double fi, double dr, double duration);
double bb__cc_delay_offset(double dl, int loop);

#endif
