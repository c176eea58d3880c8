/* What render, pose and sheet share: the options that choose a figure
 * (file, armature, animations, layers, direction, flip, variants), the
 * sampling and canvas options, and the frame loop. */
#ifndef BB_FIGURE_H
#define BB_FIGURE_H

#include <getopt.h>

#include "cli.h"

enum { FIG_MAX_ANIMS = 256, FIG_MAX_SETS = 64 };

typedef struct fig_opts {
	const char *armature;       /* --armature */
	const char *skin;           /* --skin / --direction */
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
	const char *atlas;          /* --atlas */
	int loop_mode;              /* --loop 1, --once 2, else 0 */
	int canvas_native;          /* --canvas native: the format's own stage */
	int placeholder;            /* --placeholder: missing images as boxes */
	const char *model3d;        /* --model: block model a joint file moves */
	const char *assets;         /* --assets: resource folder */
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
	int armature;
	double fps;
	bb_eval_options eval;
	int overlay_anim, face_anim, mask;
	int loop_mode;
	double duration;            /* --duration, 0: none */
	int anims[FIG_MAX_ANIMS];   /* the animations to render, in order */
	int nanims;
} figure;

/* Loads `path` (printing the model's warnings once) and resolves every
 * name in o for the chosen armature.  Prints the error and returns
 * an exit code on failure (0 on success). */
int figure_load(figure *f, const fig_opts *o, const char *path, const char *cmd);
/* Resolves every armature-dependent option for armature `armature` of the
 * already loaded f->model.  Returns an exit code (0 on success). */
int figure_select(figure *f, const fig_opts *o, int armature, const char *path);
void figure_free(figure *f);

/* Tracks for rendering main animation `anim`; returns their count. */
int figure_tracks(const figure *f, int anim, bb_track *tracks);

/* Sampling of one animation. */
typedef struct fig_anim {
	int anim;
	bb_anim_info info;
	long frames;
	double fps;
	int width, height;          /* canvas */
	bb_view view;
	double speed;               /* animation s per figure s (--duration) */
} fig_anim;

/* Computes frame count and canvas (union of all frames' bounds + pad, or
 * --size/--origin).  Returns an exit code. */
int figure_plan(const figure *f, const fig_opts *o, int anim, fig_anim *out);

/* Renders every frame of a planned animation on o->jobs threads, calling
 * sink(frame, image, user) for each (from worker threads; frames arrive in
 * any order).  A non-zero return from sink stops the run and is returned. */
typedef int (*fig_sink)(long frame, const bb_image *img, void *user);
int figure_render(const figure *f, const fig_opts *o, const fig_anim *fa,
                  fig_sink sink, void *user);

/* One (armature, animation) of a run, planned before anything is written. */
typedef struct fig_job {
	figure fig;            /* per-armature state (shares the model) */
	fig_anim plan;
	char dir[600];         /* "<anim>", or "<armature>/<anim>" with --all
	                          over several armatures */
	char prefix[256];      /* file-system safe animation name */
} fig_job;

/* Plans every chosen animation of every chosen armature (--all: all of
 * them) into a new array (free it).  Returns an exit code. */
int figure_plan_jobs(figure *base, const fig_opts *o, const char *path,
                     const char *cmd, fig_job **out, int *njobs);

/* Figure time (s) at which animation time t (s) plays (--duration). */
double fig_anim_to_figure_time(const fig_anim *fa, double t);

/* Time of frame i (derived from the integer index, never accumulated). */
double fig_frame_time(const fig_anim *fa, long i);

/* A file-system safe version of an animation name ('/' and spaces -> '_'). */
void fig_safe_name(const char *name, char *buf, size_t size);

#endif
