/* bonebake — animated image files: WebP (libwebp's animation encoder),
 * GIF (giflib) and APNG (PNG frames from libpng in acTL/fcTL/fdAT chunks);
 * and videos through FFmpeg's libraries (unless built --without-video):
 * WebM (VP9 with alpha), MP4 (H.264, flattened over a background) and MOV
 * (ProRes 4444 with alpha).
 *
 * Frames stream in: open, add each frame in playback order, finish.  The
 * writer keeps at most the previous frame (GIF, APNG) besides what the
 * format's encoder holds (libwebp keeps the encoded frames until it
 * assembles the file).  Every frame has the writer's canvas size.
 *
 * Timing: each frame is added with the time (seconds from the start) at
 * which it ends; frame k lasts from the previous frame's end (0 for the
 * first) to its own.  Each format rounds the ends, not the durations, to
 * its delay unit (WebP and APNG: 1/1000 s, GIF: 1/100 s; an APNG frame
 * over 65.535 s is given in 1/100 s), so the rounding
 * is spread over the frames and the total is the last end rounded once.
 * Videos have a constant frame rate instead: frame k plays from k / fps to
 * (k + 1) / fps, fps given as options.fps (the end times are only checked),
 * held as an exact rational (a fraction with a denominator up to 1001000
 * that equals fps to double precision: 30, 24000/1001, 100/3).
 *
 * The file is written to a temporary name beside `path` and renamed into
 * place by bb_anim_finish: a failure, or bb_anim_free without finishing,
 * leaves nothing at `path`.  Same frames and options give the same bytes.
 * A writer is used by one thread at a time; different writers are
 * independent. */
#ifndef BONEBAKE_ANIM_H
#define BONEBAKE_ANIM_H

#include "geom.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_anim_format {
	BB_ANIM_WEBP = 0,   /* animated WebP, full alpha */
	BB_ANIM_GIF,        /* GIF89a, a palette per frame, 1-bit transparency */
	BB_ANIM_APNG,       /* animated PNG, 8-bit RGBA */
	BB_ANIM_WEBM,       /* VP9 yuva420p (alpha) in WebM, libvpx-vp9 */
	BB_ANIM_MP4,        /* H.264 yuv420p in MP4 (libx264): no alpha; frames
	                       flattened over `background`, an odd side padded
	                       by one row or column of it (4:2:0 needs even) */
	BB_ANIM_MOV         /* ProRes 4444 yuva444p10le in QuickTime, prores_ks */
} bb_anim_format;

enum { BB_ANIM_NFORMATS = BB_ANIM_MOV + 1 };

/* Zero-initialised: WebP, lossless, looping forever. */
typedef struct bb_anim_options {
	bb_anim_format format;
	int loop_count;       /* plays: 0 forever, 1 once, N times */
	int lossy;            /* WebP: lossy at `quality` (default lossless) */
	int quality;          /* WebP lossy: 0..100 (0 with lossy means 75) */
	int alpha_threshold;  /* GIF: pixels with alpha below it are the
	                         transparent entry (0 means 128; 1..255) */
	/* videos (loop_count, lossy and quality are not theirs) */
	double fps;           /* frame rate, > 0 (required) */
	int has_crf;          /* crf given (default: the format's, below) */
	int crf;              /* WebM: VP9 CRF 0..63 (default 32); MP4: x264 CRF
	                         0..51 (default 23); MOV: ProRes quantiser 1..31
	                         (default 4) */
	long long bitrate;    /* bits per second (WebM, MP4): > 0 aims at that
	                         average instead of a constant quality; not
	                         with has_crf, not for MOV */
	bb_rgba background;   /* MP4: the colour frames are flattened over
	                         (alpha ignored; zero-initialised: black) */
} bb_anim_options;

typedef struct bb_anim_writer bb_anim_writer;

/* Starts writing `path` with a width x height canvas.  Fails with
 * BB_ERR_USAGE (quality outside 0..100, alpha_threshold outside 0..255,
 * loop_count < 0 or over 65535, unknown format, a video format in a build
 * without video or whose FFmpeg lacks the encoder, a video option out of
 * range), BB_ERR_LIMIT (a side <= 0 or over the format's limit: 16383
 * WebP, 65535 GIF, BB_IMAGE_MAX_SIDE APNG, 16384 videos), BB_ERR_IO
 * (cannot create the temporary file), BB_ERR_NOMEM.
 * Errors name `path`.  Returns new; finish with bb_anim_finish or drop with
 * bb_anim_free. */
bb_status bb_anim_open(const char *path, int width, int height,
                       const bb_anim_options *opts, bb_anim_writer **out,
                       bb_error *err);

/* Appends `frame` (borrowed; straight RGBA of the canvas size) shown until
 * `end_time` seconds from the start.  Fails with BB_ERR_USAGE (wrong size,
 * an end before the previous one or not finite, a frame lasting over 655 s),
 * BB_ERR_IO, BB_ERR_NOMEM.  After a failure the writer only accepts
 * bb_anim_free. */
bb_status bb_anim_add(bb_anim_writer *w, const bb_image *frame,
                      double end_time, bb_error *err);

/* Completes the file and renames it into place, then frees w (whatever the
 * outcome).  Fails with BB_ERR_USAGE (no frame was added), BB_ERR_IO,
 * BB_ERR_NOMEM. */
bb_status bb_anim_finish(bb_anim_writer *w, bb_error *err);

/* Drops an unfinished writer and its temporary file.  NULL-safe. */
void bb_anim_free(bb_anim_writer *w);

/* "webp", "gif", "apng", "webm", "mp4", "mov". */
const char *bb_anim_format_name(bb_anim_format f);
/* The usual file extension without the dot (the format's name). */
const char *bb_anim_format_extension(bb_anim_format f);
/* Parses a format's name; returns 0 when unknown. */
int bb_anim_format_parse(const char *name, bb_anim_format *out);
/* The formats' names in order, joined by sep ("webp|gif|..."), into buf
 * (truncated to size); returns buf.  Help texts and messages list the
 * formats with it. */
const char *bb_anim_format_list(const char *sep, char *buf, unsigned long size);
/* 1 for the video formats (WebM, MP4, MOV). */
int bb_anim_format_is_video(bb_anim_format f);
/* 1 when this build writes videos (not configured --without-video). */
int bb_anim_video_available(void);
/* The format a path's extension names (.webp, .gif, .png, .apng, .webm,
 * .mp4 or .mov, any case); returns 0 when it names none. */
int bb_anim_format_from_path(const char *path, bb_anim_format *out);

#ifdef __cplusplus
}
#endif
#endif
