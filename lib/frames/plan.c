/* Scenes to tracks, and planning: frame count, frame times, the canvas. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bonebake/frames.h"
#include "frames/fit.h"

enum { DEFAULT_MAX_CANVAS = 16384 };
static const long DEFAULT_MAX_FRAMES = 100000;
static const long long DEFAULT_MAX_CANVAS_PIXELS = 32LL << 20;

bb_limits bb_limits_default(void)
{
	bb_limits l = { DEFAULT_MAX_CANVAS, DEFAULT_MAX_FRAMES,
	                DEFAULT_MAX_CANVAS_PIXELS };

	return l;
}

static bb_limits with_defaults(bb_limits l)
{
	if (l.max_canvas <= 0)
		l.max_canvas = DEFAULT_MAX_CANVAS;
	if (l.max_frames <= 0)
		l.max_frames = DEFAULT_MAX_FRAMES;
	if (l.max_canvas_pixels <= 0)
		l.max_canvas_pixels = DEFAULT_MAX_CANVAS_PIXELS;
	return l;
}

/* A canvas under the side limit can still be too large to allocate (a
 * few small parts far apart): its area is limited too. */
static bb_status check_area(const bb_model *m, const bb_plan *p,
                            const bb_limits *lim, double w, double h,
                            bb_error *err)
{
	if (w * h <= (double)lim->max_canvas_pixels)
		return BB_OK;
	return bb_error_set(err, BB_ERR_LIMIT, bb_model_source(m), NULL,
	                    "animation \"%s\": canvas %.0fx%.0f px (%.1f Mpx) exceeds "
	                    "the limit of %.0f Mpx (--max-canvas-pixels raises it)",
	                    p->info.name, w, h, w * h / 1048576.0,
	                    lim->max_canvas_pixels / 1048576.0);
}

static int anim_ok(const bb_model *m, int arm, int anim)
{
	return anim >= 0 && anim < bb_model_anim_count(m, arm);
}

bb_status bb_scene_tracks(const bb_model *m, const bb_scene *sc,
                          bb_track tracks[BB_MAX_TRACKS], int *ntracks,
                          bb_error *err)
{
	const char *src = bb_model_source(m);
	bb_armature_info arm;
	bb_anim_info ai;
	int n = 0;

	*ntracks = 0;
	if (sc->armature < 0 || sc->armature >= bb_model_armature_count(m))
		return bb_error_set(err, BB_ERR_USAGE, src, NULL,
		                    "armature %d out of range", sc->armature);
	if (!anim_ok(m, sc->armature, sc->anim) ||
	    (sc->has_overlay && !anim_ok(m, sc->armature, sc->overlay)) ||
	    (sc->has_face && !anim_ok(m, sc->armature, sc->face)))
		return bb_error_set(err, BB_ERR_USAGE, src, NULL,
		                    "animation index out of range");
	bb_model_armature_info(m, sc->armature, &arm);
	if (sc->has_overlay && arm.overlay_mask < 0)
		return bb_error_set(err, BB_ERR_USAGE, src, NULL,
		                    "armature \"%s\" defines no bone set for an "
		                    "upper-body overlay", arm.name);
	bb_model_anim_info(m, sc->armature, sc->anim, &ai);
	memset(tracks, 0, sizeof *tracks * BB_MAX_TRACKS);
	tracks[n].anim = sc->anim;
	tracks[n].mask = -1;
	tracks[n].loop = (int)sc->loop;
	tracks[n].speed = sc->cycle > 0 && ai.duration > 0 ? ai.duration / sc->cycle : 0;
	n++;
	if (sc->has_overlay) {
		tracks[n].anim = sc->overlay;
		tracks[n].start = sc->overlay_start;
		tracks[n].mask = arm.overlay_mask;
		tracks[n].transient = 1;
		n++;
	}
	if (sc->has_face) {
		tracks[n].anim = sc->face;
		tracks[n].start = sc->face_start;
		tracks[n].mask = -1;
		tracks[n].transient = 1;
		n++;
	}
	*ntracks = n;
	return BB_OK;
}

double bb_plan_frame_time(const bb_plan *p, long i)
{
	return (double)i / p->fps;
}

double bb_plan_figure_time(const bb_plan *p, double t)
{
	return p->speed > 0 ? t / p->speed : t;
}

long bb_plan_event_frame(const bb_plan *p, double t)
{
	long f = (long)ceil(t * p->fps - 1e-9);

	if (f < 0)
		f = 0;
	if (p->info.loop && p->frames > 0)
		f %= p->frames;
	else if (f >= p->frames)
		f = p->frames - 1;
	return f;
}

/* The format's own canvas and origin pixel, scaled. */
static bb_status plan_native(const bb_model *m, const bb_canvas_options *co,
                             const bb_limits *lim, bb_plan *p, bb_error *err)
{
	double s = co->scale > 0 ? co->scale : 1;
	double w = ceil(p->info.stage_w * s - 1e-9);
	double h = ceil(p->info.stage_h * s - 1e-9);
	const char *src = bb_model_source(m);

	if (co->width > 0 || co->height > 0)
		return bb_error_set(err, BB_ERR_USAGE, src, NULL, "animation \"%s\": a "
		                    "native canvas and a fixed size exclude each other",
		                    p->info.name);
	if (!p->info.has_stage)
		return bb_error_set(err, BB_ERR_USAGE, src, NULL, "animation \"%s\": "
		                    "the file defines no canvas for it", p->info.name);
	if (w > lim->max_canvas || h > lim->max_canvas)
		return bb_error_set(err, BB_ERR_LIMIT, src, NULL, "animation \"%s\": "
		                    "canvas %.0fx%.0f px exceeds the %d px limit",
		                    p->info.name, w, h, lim->max_canvas);
	if (check_area(m, p, lim, w, h, err) != BB_OK)
		return BB_ERR_LIMIT;
	p->width = w < 1 ? 1 : (int)w;
	p->height = h < 1 ? 1 : (int)h;
	p->view.origin_x = p->info.stage_x * s;
	p->view.origin_y = p->info.stage_y * s;
	return BB_OK;
}

/* The union of every frame's drawn bounds, in world units. */
static bb_status frames_bounds(const bb_model *m, const bb_scene *sc,
                               const bb_plan *p, bb_bounds *out, bb_error *err)
{
	bb_track tracks[BB_MAX_TRACKS];
	bb_bounds b = bb_bounds_empty();
	bb_pose *pose;
	bb_status s;
	int n;
	long i;

	if ((s = bb_scene_tracks(m, sc, tracks, &n, err)) != BB_OK ||
	    (s = bb_pose_new(m, sc->armature, &pose, err)) != BB_OK)
		return s;
	for (i = 0; i < p->frames; i++) {
		s = bb_pose_eval(pose, tracks, n, bb_plan_frame_time(p, i), &sc->eval, err);
		if (s != BB_OK)
			break;
		bb_bounds_union(&b, bb_drawlist_bounds(bb_pose_drawlist(pose)));
	}
	bb_pose_free(pose);
	*out = b;
	return s;
}

static bb_status plan_bounds(const bb_model *m, const bb_scene *sc,
                             const bb_canvas_options *co, const bb_limits *lim,
                             bb_plan *p, bb_error *err)
{
	double s = co->scale > 0 ? co->scale : 1, px0, py0, px1, py1;
	int pad = co->pad > 0 ? co->pad : 0;
	bb_bounds b = co->bounds;
	bb_status st;

	if (!co->has_bounds && (st = frames_bounds(m, sc, p, &b, err)) != BB_OK)
		return st;
	if (bb_bounds_is_empty(b))
		b.x0 = b.y0 = b.x1 = b.y1 = 0;
	px0 = floor(b.x0 * s);
	py0 = floor(b.y0 * s);
	px1 = ceil(b.x1 * s);
	py1 = ceil(b.y1 * s);
	if (px1 - px0 + 2.0 * pad > lim->max_canvas ||
	    py1 - py0 + 2.0 * pad > lim->max_canvas)
		return bb_error_set(err, BB_ERR_LIMIT, bb_model_source(m), NULL,
		                    "animation \"%s\": drawn area %.6gx%.6g px exceeds "
		                    "the %d px canvas limit", p->info.name, px1 - px0,
		                    py1 - py0, lim->max_canvas);
	if (check_area(m, p, lim, px1 - px0 + 2.0 * pad, py1 - py0 + 2.0 * pad,
	               err) != BB_OK)
		return BB_ERR_LIMIT;
	p->width = (int)(px1 - px0) + 2 * pad;
	p->height = (int)(py1 - py0) + 2 * pad;
	if (p->width < 1)
		p->width = 1;
	if (p->height < 1)
		p->height = 1;
	p->view.origin_x = pad - px0;
	p->view.origin_y = pad - py0;
	return BB_OK;
}

/* Frame count and times of sc's animation: everything but the canvas. */
static bb_status plan_timing(const bb_model *m, const bb_scene *sc,
                             const bb_limits *lim, bb_plan *p, bb_error *err)
{
	bb_track tracks[BB_MAX_TRACKS];
	bb_armature_info arm;
	bb_status s;
	int n;

	memset(p, 0, sizeof *p);
	if ((s = bb_scene_tracks(m, sc, tracks, &n, err)) != BB_OK)
		return s;
	p->armature = sc->armature;
	bb_model_armature_info(m, sc->armature, &arm);
	bb_model_anim_info(m, sc->armature, sc->anim, &p->info);
	/* the scene's rate, else the animation's own, else the armature's */
	p->fps = sc->fps > 0 ? sc->fps : p->info.fps > 0 ? p->info.fps
	       : arm.fps > 0 ? arm.fps : 30;
	if (sc->loop != BB_LOOP_FILE)
		p->info.loop = sc->loop == BB_LOOP_ALWAYS;
	p->speed = 1;
	if (sc->cycle > 0 && p->info.duration > 0) {
		p->speed = p->info.duration / sc->cycle;
		p->info.duration = sc->cycle;
	}
	p->frames = bb_frame_count(p->info.duration, p->fps, p->info.loop);
	if (p->frames > lim->max_frames)
		return bb_error_set(err, BB_ERR_LIMIT, bb_model_source(m), NULL,
		                    "animation \"%s\": %ld frames exceed the limit of "
		                    "%ld", p->info.name, p->frames, lim->max_frames);
	return BB_OK;
}

bb_status bb_plan_scene(const bb_model *m, const bb_scene *sc,
                        const bb_canvas_options *co, bb_plan *p,
                        bb_error *err)
{
	bb_limits lim = with_defaults(co->limits);
	bb_status s;

	if ((s = plan_timing(m, sc, &lim, p, err)) != BB_OK)
		return s;
	p->view.scale = co->scale > 0 ? co->scale : 1;
	p->view.background = co->background;
	p->view.filter = co->filter;
	if (co->native)
		return plan_native(m, co, &lim, p, err);
	if (co->width > 0 && co->height > 0) {
		if (co->width > lim.max_canvas || co->height > lim.max_canvas)
			return bb_error_set(err, BB_ERR_LIMIT, bb_model_source(m), NULL,
			                    "canvas %dx%d px exceeds the %d px limit",
			                    co->width, co->height, lim.max_canvas);
		if (check_area(m, p, &lim, co->width, co->height, err) != BB_OK)
			return BB_ERR_LIMIT;
		p->width = co->width;
		p->height = co->height;
		p->view.origin_x = co->has_origin ? co->origin_x : co->width / 2.0;
		p->view.origin_y = co->has_origin ? co->origin_y : co->height / 2.0;
		return BB_OK;
	}
	return plan_bounds(m, sc, co, &lim, p, err);
}

bb_status bb_plan_union(const bb_model *m, const bb_scene *sc,
                        const bb_canvas_options *co, bb_bounds *out,
                        bb_error *err)
{
	bb_limits lim = with_defaults(co->limits);
	bb_scene one = *sc;
	bb_plan p;
	bb_status s;
	int a, n;

	*out = bb_bounds_empty();
	if (sc->armature < 0 || sc->armature >= bb_model_armature_count(m))
		return bb_error_set(err, BB_ERR_USAGE, bb_model_source(m), NULL,
		                    "armature %d out of range", sc->armature);
	n = bb_model_anim_count(m, sc->armature);
	for (a = 0; a < n; a++) {
		bb_bounds b;

		one.anim = a;
		if ((s = plan_timing(m, &one, &lim, &p, err)) != BB_OK ||
		    (s = frames_bounds(m, &one, &p, &b, err)) != BB_OK)
			return s;
		bb_bounds_union(out, b);
	}
	return BB_OK;
}

/* Pixels of the box (x0, y0)-(x1, y1) outside 0..w x 0..h. */
static double outside(double x0, double y0, double x1, double y1, int w, int h)
{
	double ix0 = x0 > 0 ? x0 : 0, iy0 = y0 > 0 ? y0 : 0;
	double ix1 = x1 < w ? x1 : w, iy1 = y1 < h ? y1 : h;
	double in = ix1 > ix0 && iy1 > iy0 ? (ix1 - ix0) * (iy1 - iy0) : 0;

	return (x1 - x0) * (y1 - y0) - in;
}

void bb__plan_fit_init(bb_plan_fit *f)
{
	memset(f, 0, sizeof *f);
	f->first = f->last = f->worst_frame = -1;
}

void bb__plan_fit_frame(bb_plan_fit *f, const bb_plan *p, bb_bounds b, long i)
{
	const double eps = 1e-6;
	double s = p->view.scale > 0 ? p->view.scale : 1;
	double x0, y0, x1, y1, lost;

	if (bb_bounds_is_empty(b))
		return;
	x0 = b.x0 * s + p->view.origin_x;
	y0 = b.y0 * s + p->view.origin_y;
	x1 = b.x1 * s + p->view.origin_x;
	y1 = b.y1 * s + p->view.origin_y;
	if (x0 >= -eps && y0 >= -eps && x1 <= p->width + eps &&
	    y1 <= p->height + eps)
		return;
	lost = outside(x0, y0, x1, y1, p->width, p->height);
	if (lost < 0.5)
		return;     /* a sliver of a pixel: nothing visible lost */
	/* in 1/1024 px, so that sums are exact in any order (any thread count) */
	lost = nearbyint(lost * 1024) / 1024;
	bb__plan_fit_merge(f, &(bb_plan_fit){ 1, i, i, i, lost, lost });
}

void bb__plan_fit_merge(bb_plan_fit *f, const bb_plan_fit *g)
{
	if (g->cut_frames == 0)
		return;
	if (f->first < 0 || g->first < f->first)
		f->first = g->first;
	if (g->last > f->last)
		f->last = g->last;
	f->cut_frames += g->cut_frames;
	f->lost += g->lost;
	/* the frame losing the most; the earliest of equals */
	if (f->worst_frame < 0 || g->worst_lost > f->worst_lost ||
	    (g->worst_lost == f->worst_lost && g->worst_frame < f->worst_frame)) {
		f->worst_lost = g->worst_lost;
		f->worst_frame = g->worst_frame;
	}
}

bb_status bb_plan_check_fit(const bb_model *m, const bb_scene *sc,
                            const bb_plan *p, bb_plan_fit *out, bb_error *err)
{
	bb_track tracks[BB_MAX_TRACKS];
	bb_pose *pose;
	bb_status st;
	int n;
	long i;

	bb__plan_fit_init(out);
	if ((st = bb_scene_tracks(m, sc, tracks, &n, err)) != BB_OK ||
	    (st = bb_pose_new(m, sc->armature, &pose, err)) != BB_OK)
		return st;
	for (i = 0; i < p->frames; i++) {
		st = bb_pose_eval(pose, tracks, n, bb_plan_frame_time(p, i), &sc->eval,
		                  err);
		if (st != BB_OK)
			break;
		bb__plan_fit_frame(out, p, bb_drawlist_bounds(bb_pose_drawlist(pose)), i);
	}
	bb_pose_free(pose);
	return st;
}
