/* bonebake — the frames.json that `bonebake render` writes beside each
 * animation's frames (see docs/cli.md, "render"), written and read here: what
 * the gallery, `pack` and other tools built on render output need. */
#ifndef BONEBAKE_OUTPUT_H
#define BONEBAKE_OUTPUT_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_frames_json_entry {
	char *file;     /* a plain file name in the same folder (no '/') */
	double time;    /* seconds; -1 when absent */
} bb_frames_json_entry;

typedef struct bb_frames_json_event {
	char *name;
	char *kind;     /* "event", "sound", "action" ("" when absent) */
	double time;
	long frame;     /* -1 when absent */
	char *data;     /* its payload, or NULL */
} bb_frames_json_event;

/* A layer played over the animation (overlay, face). */
typedef struct bb_frames_json_layer {
	char *animation;        /* NULL: none */
	double start;
} bb_frames_json_layer;

typedef struct bb_frames_json {
	char *animation;        /* "" when absent */
	char *armature;         /* "" when absent */
	double fps;             /* (0, 1000] */
	int loop;
	double duration;        /* 0 when absent */
	double scale;           /* 1 when absent */
	int width, height;      /* canvas, 1..BB_IMAGE_MAX_SIDE */
	int has_origin;         /* the file gives the origin pixel */
	double origin_x, origin_y;
	bb_frames_json_layer overlay, face;
	char *preview;          /* the animated preview's file name, or NULL */
	bb_frames_json_entry *frames;
	size_t n_frames;        /* 1..100000 */
	bb_frames_json_event *events;
	size_t n_events;
} bb_frames_json;

/* bb_frames_json_read flags. */
enum {
	/* fps, canvas and frames may be absent (0, 0x0, none): for files other
	 * tools wrote that only name an animation, a rate or an origin */
	BB_FRAMES_JSON_PARTIAL = 1u << 0
};

/* Reads and checks `path`.  Fails with BB_ERR_IO (cannot read),
 * BB_ERR_INPUT (invalid JSON: the error gives the line; a missing or
 * wrong-typed field, a file name with '/' or "..": the error names the
 * field, e.g. frames[3].file), BB_ERR_LIMIT (over 100000 frames or events,
 * a canvas side over BB_IMAGE_MAX_SIDE, a file over 64 MiB), BB_ERR_NOMEM.
 * Returns new; free with bb_frames_json_free.  Thread-safe. */
bb_status bb_frames_json_read(const char *path, unsigned flags,
                              bb_frames_json **out, bb_error *err);

/* Writes f (borrowed) to path atomically, in the layout render uses:
 * animation, armature, fps, loop, duration, scale, canvas, origin, overlay
 * and face (when set), preview (when set), events, frames.  Fails with
 * BB_ERR_IO, BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_frames_json_write(const char *path, const bb_frames_json *f,
                               bb_error *err);

/* NULL-safe. */
void bb_frames_json_free(bb_frames_json *f);

#ifdef __cplusplus
}
#endif
#endif
