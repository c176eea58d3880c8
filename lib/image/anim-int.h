/* Shared state of the animated-image writers (anim.c dispatches to
 * anim-webp.c, anim-gif.c and anim-apng.c).  Not installed. */
#ifndef BB_IMAGE_ANIM_INT_H
#define BB_IMAGE_ANIM_INT_H

#include <stdio.h>

#include "bonebake/anim.h"

struct bb__webp;
struct bb__gif;
struct bb__apng;
struct bb__video;

struct bb_anim_writer {
	bb_anim_options o;
	char path[4096];
	char tmp[4200];          /* the temporary file beside path */
	FILE *f;                 /* open on tmp */
	int width, height;
	long frames;             /* frames added so far */
	double last_end;         /* end time of the last frame (s) */
	int failed;
	struct bb__webp *webp;
	struct bb__gif *gif;
	struct bb__apng *apng;
	struct bb__video *video;
};

/* "write failed: <why>" for w->path, why being errno value e (EIO when 0:
 * a short write that set none); BB_ERR_IO. */
bb_status bb__anim_write_failed(const bb_anim_writer *w, int e, bb_error *err);
/* t seconds in units of 1/per_second, rounded to nearest. */
long long bb__anim_units(double t, int per_second);

/* Each format: open (after the temporary file exists), add one frame
 * lasting [start, end), finish (write the rest to w->f), free (NULL-safe
 * on its own state).  Errors name w->path. */
bb_status bb__webp_open(bb_anim_writer *w, bb_error *err);
bb_status bb__webp_add(bb_anim_writer *w, const bb_image *img, double start,
                       double end, bb_error *err);
bb_status bb__webp_finish(bb_anim_writer *w, bb_error *err);
void bb__webp_free(bb_anim_writer *w);

bb_status bb__gif_open(bb_anim_writer *w, bb_error *err);
bb_status bb__gif_add(bb_anim_writer *w, const bb_image *img, double start,
                      double end, bb_error *err);
bb_status bb__gif_finish(bb_anim_writer *w, bb_error *err);
void bb__gif_free(bb_anim_writer *w);

bb_status bb__apng_open(bb_anim_writer *w, bb_error *err);
bb_status bb__apng_add(bb_anim_writer *w, const bb_image *img, double start,
                       double end, bb_error *err);
bb_status bb__apng_finish(bb_anim_writer *w, bb_error *err);
void bb__apng_free(bb_anim_writer *w);

/* The video formats (anim-video.c, or anim-novideo.c in a build without
 * video, whose check fails with BB_ERR_USAGE).  check: the video options
 * of o, before anything is created.  Frames are at o.fps (no times). */
bb_status bb__video_check(const char *path, const bb_anim_options *o,
                          bb_error *err);
bb_status bb__video_open(bb_anim_writer *w, bb_error *err);
bb_status bb__video_add(bb_anim_writer *w, const bb_image *img, bb_error *err);
bb_status bb__video_finish(bb_anim_writer *w, bb_error *err);
void bb__video_free(bb_anim_writer *w);

#endif
