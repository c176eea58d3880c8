/* SSAJSON loader internals shared by ssajson.c (reading and checking the
 * file, images) and ssajson-build.c (the model: displays, timelines). */
#ifndef BB_LOADERS_SSAJSON_H
#define BB_LOADERS_SSAJSON_H

#include <stdint.h>

#include "core/json.h"
#include "loaders/loader.h"

enum {
	MIN_FIELDS = 11,       /* part .. scale y are always written */
	MAX_FIELDS = 39,       /* 25 + 1.0.4: label, colour blend, 4 colours,
	                          8 vertex positions */
	MAX_RECORDS = 4096,    /* per frame */
	MAX_FRAMES = 100000,   /* per animation */
	MAX_ANIMS = 1024,
	MAX_IMAGES = 1024,     /* per animation */
	PLACEHOLDER_SIDE = 2048
};

/* Field indices of a part record. */
enum {
	F_PART = 0, F_IMAGE, F_SX, F_SY, F_SW, F_SH, F_PX, F_PY, F_ANGLE,
	F_SCX, F_SCY, F_OX, F_OY, F_FLIPH, F_FLIPV, F_OPACITY, F_BLEND,
	F_DEFORM = 17, F_LABEL = 25, F_CBLEND = 26, F_VCOLOR = 27, F_VPOS = 31
};

struct rec {
	int part, image, fh, fv, blend, cblend;
	int disp;              /* display index in the slot's run, -1: none */
	double src[4];         /* source x, y, w, h */
	double px, py, angle, scx, scy, ox, oy, opacity;
	double def[8];         /* file order TL TR BL BR */
	uint32_t vc[4];        /* ARGB, file order TL TR BL BR */
};

struct sanim {
	const char *name;
	double fps;
	int has_stage;
	double cw, ch, mw, mh;
	const char **images;   /* file names */
	int nimages, nparts, nframes;
	int *tex;              /* image index -> model texture, -1 */
	double *extent;        /* per image: largest x, y a drawn record
	                          reads; -INFINITY: none draws from it */
	size_t *first;         /* nframes + 1 offsets into recs */
	struct rec *recs;
	size_t nrecs, cap;
};

/* A distinct image display of a slot. */
struct dkey {
	int slot, tex, fh, fv, blend;
	double src[4], ox, oy;
};

struct ssa {
	bb__load_ctx *c;
	bb__jctx *j;           /* the file's reader */
	bb__build *b;
	bb_armature *a;
	struct sanim *anims;
	int nanims, nslots;
	int array_form;        /* top level is an array of animations */
	size_t nrecs;
	int *standins;         /* textures standing in for missing images */
	int nstandins;
	size_t standins_cap;
	unsigned char *missing;  /* per model texture: a stand-in */
	/* display dedupe: keys, their index in the slot, a hash of them */
	struct dkey *keys;
	int *local, *count, *bucket;
	size_t nk, kcap, nbucket;
};

/* Builds the armature `name` from the checked records (ssajson-build.c). */
bb_status bb__ssa_build(struct ssa *s, const char *name);

#endif
