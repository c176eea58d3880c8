/* bonebake — from an animation to its frames.
 *
 * What `render`, `sheet`, `pose` and `preview` share, callable by any
 * library user:
 *   scene   which armature plays which animations (body, upper-body
 *           overlay, face layer), looping, speed, sampling rate;
 *   plan    frame count and frame times, and the canvas: the union of every
 *           frame's drawn bounds plus a pad, or a fixed size, or the
 *           format's own stage, checked against limits;
 *   frames  the threaded frame loop: every frame evaluated and rasterized on
 *           `jobs` threads and handed to a sink.
 * Frame i samples t = i / fps from the integer index, so any frame can be
 * rendered alone and frames can run in parallel: the output never depends
 * on the thread count. */
#ifndef BONEBAKE_FRAMES_H
#define BONEBAKE_FRAMES_H

#include "eval.h"
#include "image.h"
#include "model.h"
#include "render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the body animation plays (overrides the file's loop flag). */
typedef enum bb_loop_mode {
	BB_LOOP_FILE = 0,      /* as the file says */
	BB_LOOP_ALWAYS = 1,    /* looping */
	BB_LOOP_ONCE = 2       /* once, holding its end */
} bb_loop_mode;

/* One figure playing: zero-initialised means armature 0 playing its
 * animation 0 as the file says, at its own rate, with no layers. */
typedef struct bb_scene {
	int armature;
	int anim;              /* the body animation */
	int has_overlay;       /* an upper-body overlay: the bones of the
	                          armature's overlay bone set (see
	                          bb_armature_info.overlay_mask) */
	int overlay;           /* its animation */
	double overlay_start;  /* figure time (s) it starts at */
	int has_face;          /* a face-layer animation */
	int face;
	double face_start;
	bb_loop_mode loop;
	double cycle;          /* seconds one cycle of the body animation is
	                          stretched over (0: its own duration) */
	double fps;            /* sampling rate (0: the animation's own, else
	                          the armature's, else 30) */
	bb_eval_options eval;  /* skin, flip, overrides, bone markers, 3D view */
} bb_scene;

/* The tracks that play sc (body first, then overlay, then face), for
 * bb_pose_eval.  Fails with BB_ERR_USAGE for an armature or animation
 * index out of range, or an overlay on an armature without an overlay bone
 * set.  Thread-safe. */
bb_status bb_scene_tracks(const bb_model *m, const bb_scene *sc,
                          bb_track tracks[BB_MAX_TRACKS], int *ntracks,
                          bb_error *err);

/* Limits a plan is checked against; zero means the default in brackets. */
typedef struct bb_limits {
	int max_canvas;        /* [16384] pixels per canvas side */
	long max_frames;       /* [100000] frames per animation */
	long long max_canvas_pixels; /* [32 Mpx = 33554432] width x height of
	                          a canvas, checked by the plan before any
	                          pixel is allocated (BB_ERR_LIMIT) */
} bb_limits;

/* The default limits (the brackets above). */
bb_limits bb_limits_default(void);

/* The canvas of a plan.  Zero-initialised: scale 1, no pad, the union of
 * every frame's drawn bounds, transparent. */
typedef struct bb_canvas_options {
	double scale;          /* pixels per model unit (0 means 1) */
	int pad;               /* pixels around the drawn bounds */
	int width, height;     /* both > 0: a fixed canvas instead of the bounds */
	int has_origin;        /* with a fixed canvas: the origin pixel (else */
	double origin_x;       /* the canvas centre) */
	double origin_y;
	int native;            /* the format's own stage (bb_anim_info.has_stage)
	                          scaled; BB_ERR_USAGE when the animation has none
	                          or a fixed size is given too */
	bb_rgba background;    /* straight colour; alpha 0: transparent */
	bb_filter filter;      /* texture sampling (0: the default) */
	bb_limits limits;
	int has_bounds;        /* plan the canvas over `bounds` (world units,
	                          before scale) instead of evaluating the
	                          frames: with bb_plan_union's bounds, every
	                          animation of an armature gets one canvas and
	                          origin (`--canvas union`) */
	bb_bounds bounds;
} bb_canvas_options;

/* One animation planned: everything needed to render or describe its
 * frames.  A plain value; copy it freely. */
typedef struct bb_plan {
	int armature;
	bb_anim_info info;     /* duration and loop after the scene's loop mode
	                          and cycle */
	double fps;
	long frames;
	double speed;          /* animation seconds per figure second */
	int width, height;     /* canvas */
	bb_view view;          /* scale, origin pixel, background */
} bb_plan;

/* Plans sc: frame count, then (unless the canvas is fixed or native) every
 * frame evaluated and its draw list bounded.  Fails with BB_ERR_USAGE (bad
 * scene, native canvas without a stage), BB_ERR_LIMIT (frames or canvas
 * over the limits; err names the model's file and the animation),
 * BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_plan_scene(const bb_model *m, const bb_scene *sc,
                        const bb_canvas_options *co, bb_plan *out,
                        bb_error *err);

/* The union of the drawn bounds of every frame of every animation of sc's
 * armature (world units), each animation played as sc plays its body
 * animation (layers, loop mode, cycle, rate); sc->anim is ignored.  With
 * co->has_bounds set to it, bb_plan_scene gives every animation the same
 * canvas and origin.  An armature that draws nothing gives empty bounds.
 * Fails as bb_plan_scene.  Thread-safe. */
bb_status bb_plan_union(const bb_model *m, const bb_scene *sc,
                        const bb_canvas_options *co, bb_bounds *out,
                        bb_error *err);

/* How well a planned canvas holds the figure: frames whose drawn bounds
 * reach outside it (a fixed --size, or a format's own stage). */
typedef struct bb_plan_fit {
	long cut_frames;       /* frames drawing outside the canvas */
	long first, last;      /* the first and last of them (-1: none) */
	long worst_frame;      /* the frame losing the most (-1: none) */
	double worst_lost;     /* pixels of its drawn bounding box outside */
	double lost;           /* the same summed over every frame (each
	                          frame's in 1/1024 px) */
} bb_plan_fit;

/* Evaluates every frame of p and measures what its canvas cuts (bounding
 * boxes, so the pixels lost are an upper bound).  Fails with BB_ERR_NOMEM
 * or what evaluation fails with.  Thread-safe. */
bb_status bb_plan_check_fit(const bb_model *m, const bb_scene *sc,
                            const bb_plan *p, bb_plan_fit *out, bb_error *err);

/* Time (s) of frame i: i / fps, derived from the index, never accumulated. */
double bb_plan_frame_time(const bb_plan *p, long i);
/* Figure time (s) at which animation time t plays (the cycle stretch). */
double bb_plan_figure_time(const bb_plan *p, double t);
/* The frame an event at figure time t fires on: the first sample at or
 * after it (wrapped when looping, clamped to the last frame when not). */
long bb_plan_event_frame(const bb_plan *p, double t);

/* Receives one rendered frame.  Called from worker threads, concurrently
 * and in any frame order; img is valid only during the call.  Return BB_OK
 * to go on; any other status stops the run (with err filled by the sink)
 * and bb_render_frames returns it. */
typedef bb_status (*bb_frame_sink)(void *user, long frame, const bb_image *img,
                                   bb_error *err);

/* Renders frames [first, first + count) of a plan (count < 0: to the end)
 * on `jobs` threads (0: one per CPU; at most 256), handing each to sink.
 * Each worker owns a pose, a renderer and an image, reused for every frame
 * it takes.  Fails with what a worker or the sink failed with (the first
 * failure in time; the others are dropped), BB_ERR_USAGE for a bad plan.
 * Frames are byte-identical whatever `jobs`. */
bb_status bb_render_frames(const bb_model *m, const bb_scene *sc,
                           const bb_plan *p, long first, long count, int jobs,
                           bb_frame_sink sink, void *user, bb_error *err);

/* A frame for a worker's own state (bb_frames_options.worker_init). */
typedef bb_status (*bb_worker_sink)(void *user, void *state, long frame,
                                    const bb_image *img, bb_error *err);

/* The frame loop in full (bb_render_frames_opts).  Zero is the default of
 * every field. */
typedef struct bb_frames_options {
	long first;            /* frames [first, first + count) ... */
	long count;            /* ... count < 0 or 0: to the end */
	int jobs;              /* worker threads; 0: one per CPU (at most 256) */
	/* any order: called from the worker that rendered the frame, with that
	 * worker's state; concurrently (may be NULL) */
	bb_worker_sink sink;
	void *user;
	/* frame order: each frame once, first..end, one call at a time, from
	 * whichever worker completes the next frame (may be NULL).  At most
	 * `window` frames wait for it (copied), so memory does not grow with
	 * the number of frames: a worker does not start a frame `window` or
	 * more past the next one to hand on.  0: 8 per worker. */
	bb_frame_sink ordered;
	void *ordered_user;
	long window;
	/* per worker, around all the frames it renders: worker_init gives the
	 * state handed to `sink` (a PNG encoder, say); worker_free gets it
	 * back, also after a failure.  Either may be NULL. */
	bb_status (*worker_init)(void *user, int worker, void **state,
	                         bb_error *err);
	void (*worker_free)(void *user, int worker, void *state);
	/* when set, filled as bb_plan_check_fit fills it, for the frames
	 * rendered, from the draw lists the workers evaluate anyway (no
	 * second evaluation of every frame); the same whatever `jobs` */
	bb_plan_fit *fit;
	/* `sink` takes frames in the rasterizer's layout (bb_render_argb32:
	 * argb32 set, the worker's canvas, valid during the call only), and
	 * the worker keeps no straight copy; ignored when `ordered` is set */
	int argb32;
} bb_frames_options;

/* bb_render_frames with ordered delivery and per-worker state: the workers
 * live for the whole run, each with its pose, renderer, image and state.
 * Fails as bb_render_frames (the first failure of a worker, a hook or a
 * sink; the run stops and every worker is freed).  Outputs handed to the
 * sinks are the same whatever `jobs`. */
bb_status bb_render_frames_opts(const bb_model *m, const bb_scene *sc,
                                const bb_plan *p, const bb_frames_options *o,
                                bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
