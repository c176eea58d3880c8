/* What render, pose and sheet share: the options that choose a figure
 * (file, armature, animations, layers, direction, flip, variants), the
 * sampling and canvas options, and the frame loop. */
#ifndef BB_FIGURE_H
#define BB_FIGURE_H

#include <getopt.h>

#include "cli.h"

/* Limits of the command line (each with its own usage error) and of
 * output names. */
enum { FIG_MAX_ANIMS = 256, FIG_MAX_SETS = 64, FIG_NAME_MAX = 256,
       FIG_PATH_MAX = 2 * FIG_NAME_MAX + 2 };

typedef struct fig_opts {
	const char *armature;       /* --armature */
	const char *skin;           /* --skin / --direction */
	const char *more_skins[BB_MAX_SKIN_LAYERS];
	int n_more_skins;           /* further --skin: layered over the first */
	const char *anims[FIG_MAX_ANIMS];
	int nanims;                 /* --anim (repeatable) */
	int all;                    /* --all */
	double fps;                 /* --fps (0: the file's) */
	double scale;               /* --scale */
	int size_w, size_h;         /* --size */
	double origin_x, origin_y;  /* --origin */
	int has_size, has_origin;
	int pad;                    /* --pad */
	bb_rgba bg;                 /* --bg */
	bb_filter filter;           /* --filter (0: the library's default) */
	int bones, flip;            /* --bones, --flip */
	const char *overlay;        /* --overlay NAME[@T] */
	double overlay_at;
	const char *face;           /* --face NAME[@T] */
	double face_at;
	const char *sets[FIG_MAX_SETS];
	int nsets;                  /* --set BONE=VARIANT */
	int jobs;                   /* --jobs (0: CPUs) */
	int quiet;                  /* --quiet */
	int progress;               /* --progress: a CLI_PROGRESS_* mode */
	const char *deps;           /* --deps FILE: the files the input read */
	const char *atlas;          /* --atlas */
	int loop_mode;              /* --loop 1, --once 2, else 0 */
	int canvas_native;          /* --canvas native: the format's own stage */
	int canvas_union;           /* --canvas union: one canvas per armature */
	int canvas_set;             /* --canvas given (sheet's default differs) */
	int strict;                 /* --strict: warnings fail the run (exit 3) */
	int placeholder;            /* --placeholder: missing images as boxes */
	const char *model3d;        /* --model: block model a joint file moves */
	const char *assets;         /* --assets: resource folder */
	int allow_outside;          /* --allow-outside-paths */
	size_t max_pixels;          /* --max-image-pixels (0: the default) */
	size_t max_canvas_pixels;   /* --max-canvas-pixels (0: the default) */
	int no_pixels;              /* the command draws nothing (pose) */
	bb_view3d view3d;           /* --view, --pixels-per-unit */
	double duration;            /* --duration: seconds per animation cycle
	                               (0: the animation's own) */
	char overlay_buf[256], face_buf[256];
} fig_opts;

/* Option ids >= FIG_OPT_BASE belong to the figure options. */
enum { FIG_OPT_BASE = 1000 };
extern const struct option fig_options[];
extern const int fig_noptions;
/* Help text for the figure options (sampling + canvas + layers). */
extern const char fig_help[];

void fig_opts_init(fig_opts *o);
/* Handles one getopt_long result; returns 1 if it was a figure option,
 * 0 if not, or -1 after printing a usage error. */
int fig_parse(fig_opts *o, int id, const char *arg, const char *cmd);
/* Merges a command's own options with fig_options into out (size n). */
void fig_merge_options(const struct option *own, struct option *out, int n);

/* A loaded figure ready to evaluate. */
typedef struct figure {
	bb_model *model;
	const char *cmd;            /* command name, for messages */
	bb_scene scene;             /* armature, layers, loop, cycle, --fps and
	                               evaluation options; scene.anim is set per
	                               animation */
	int *anims;                 /* the animations to render, in order */
	int nanims;
	int has_union;              /* --canvas union: the armature's bounds */
	bb_bounds union_bounds;
} figure;

/* Loads `path` (printing the model's warnings once) and resolves every
 * name in o for the chosen armature.  Prints the error and returns
 * an exit code on failure (0 on success). */
int figure_load(figure *f, const fig_opts *o, const char *path, const char *cmd);
/* Resolves every armature-dependent option for armature `armature` of the
 * already loaded f->model.  Returns an exit code (0 on success). */
int figure_select(figure *f, const fig_opts *o, int armature, const char *path);
void figure_free(figure *f);

/* The canvas options that o asks for. */
bb_canvas_options fig_canvas(const fig_opts *o);

/* Plans animation `anim` of f (bb_plan_scene with o's canvas); prints the
 * error and returns an exit code on failure. */
int figure_plan(const figure *f, const fig_opts *o, int anim, bb_plan *out);

/* Receives a rendered frame (from worker threads, in any order); returns 0
 * or an exit code after printing its own error, which stops the run. */
typedef int (*fig_sink)(long frame, const bb_image *img, void *user);

/* One (armature, animation) of a run, planned before anything is written. */
typedef struct fig_job {
	const bb_model *model;      /* borrowed from the figure */
	bb_scene scene;             /* scene.anim: this job's animation */
	bb_plan plan;
	char dir[FIG_PATH_MAX];     /* "<anim>", or "<armature>/<anim>" with --all
	                               over several armatures */
	char prefix[FIG_NAME_MAX];  /* file-system safe animation name */
} fig_job;

/* Starts the progress of a whole run over jobs (their frames counted),
 * as o asks (--quiet, --progress). */
void figure_progress_start(cli_progress *p, const char *cmd, const fig_opts *o,
                           const fig_job *jobs, int njobs);

/* Renders every frame of a planned job on o->jobs threads, calling sink for
 * each and stepping `progress` (may be NULL); then warns about blank frames
 * and, with a fixed or native canvas, about frames it cuts.  Returns 0 or
 * an exit code (errors printed). */
int figure_render(const fig_job *j, const fig_opts *o, cli_progress *progress,
                  fig_sink sink, void *user);

/* figure_render with frames handed to sink in the rasterizer's layout
 * (argb32 images over a worker's canvas, valid during the call: the PNG
 * encoder takes them as they are), with no straight RGBA copy made. */
int figure_render_argb32(const fig_job *j, const fig_opts *o,
                         cli_progress *progress, fig_sink sink, void *user);

/* Same, and also calls ordered(frame, image, ordered_user) in frame order
 * 0, 1, ... (one call at a time, from a worker thread) for encoders that
 * need the frames in sequence; sink may be NULL.  At most 8 frames per
 * thread wait for their turn (copies). */
int figure_render_ordered(const fig_job *j, const fig_opts *o,
                          cli_progress *progress, fig_sink sink, void *user,
                          fig_sink ordered, void *ordered_user);

/* The job's frames once more, in order only, with no progress and no
 * warnings (said the first time): a video's further loops. */
int figure_render_again(const fig_job *j, const fig_opts *o, fig_sink ordered,
                        void *ordered_user);

/* Plans every chosen animation of every chosen armature (--all: all of
 * them) into a new array (free it).  Returns an exit code. */
int figure_plan_jobs(figure *base, const fig_opts *o, const char *path,
                     const char *cmd, fig_job **out, int *njobs);

/* With --strict and any warning printed so far (cli_warning_count):
 * prints that they fail the run and returns EXIT_INPUT; else 0.  Call it
 * before committing outputs. */
int figure_strict_check(const fig_opts *o, const char *cmd);

/* A file-system safe version of an animation name ('/' and spaces -> '_'). */
void fig_safe_name(const char *name, char *buf, size_t size);

#endif
