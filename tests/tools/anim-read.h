/* The tests' reader of animated files (anim-read.c). */
#ifndef BB_TESTS_ANIM_READ_H
#define BB_TESTS_ANIM_READ_H

#include "bonebake/bonebake.h"

struct anim_result {
	const char *format;     /* "webp", "gif", "apng" */
	int width, height;
	int plays;              /* 0: forever */
	int unit;               /* delay units per second */
	long frames;
	long *delays;           /* per frame, in units */
	bb_image **images;      /* the composed canvas after each frame */
};

/* Reads `path` (the format from its bytes); exits with a message on any
 * malformed input, so a test fails loudly. */
void anim_read(const char *path, struct anim_result *r);
void anim_result_free(struct anim_result *r);

#endif
