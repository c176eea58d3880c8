/* Where a frame's time goes, and what each texture filter costs and gives.
 *
 *   bench-raster [view options] FILE            timing: eval / raster / PNG
 *   bench-raster --quality N --filter fast,good,best [view options] FILE
 *
 * Timing renders every frame of one animation loop through the library as
 * `bonebake render` does (one pose, one renderer, one image reused) and
 * prints the thread CPU time per frame of evaluation, rasterization and PNG
 * encoding (in memory: nothing is written), the least of --reps runs.
 *
 * --quality N renders each frame at N times the scale with the best filter
 * and box-averages it down (premultiplied) to the canvas: the supersampled
 * reference.  Then, per filter listed, the frame at 1x (its own renderer),
 * and one line: raster CPU ms per frame, the mean absolute error against
 * the reference (premultiplied RGBA, 0..255, over the pixels either image
 * covers) and the project's diff counts at thresholds 0.05 and 0.1.
 *
 * View options: --armature NAME, --anim NAME, --fps N, --loop, --scale S,
 * --size WxH, --origin X,Y (default: the union of the frames' bounds plus
 * 2 px), --filter fast|good|best|default (timing: one), --reps N,
 * --every K (every K-th frame only), --no-png (timing: skip the encoding,
 * for profilers).  Output: lines of `key value` pairs on stdout. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bonebake/bonebake.h"
#include "raster-error.h"

struct opts {
	const char *file, *armature, *anim;
	double fps, scale, ox, oy;
	int loop, w, h, has_size, has_origin, reps, quality, every, no_png;
	bb_filter filters[4];
	int nfilters;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int usage(const char *msg)
{
	fprintf(stderr, "bench-raster: %s\nusage: bench-raster [--quality N] "
	        "[--armature A] [--anim N] [--fps F] [--loop] [--scale S] "
	        "[--size WxH] [--origin X,Y] [--filter F] [--reps N] [--every K] "
	        "[--no-png] "
	        "FILE\n", msg);
	return 2;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const char *const filters[] = { "default", "fast", "good", "best" };
	int i, k;

	memset(o, 0, sizeof *o);
	o->scale = 1;
	o->reps = 1;
	o->every = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--loop") == 0 || strcmp(a, "--no-png") == 0) {
			*(a[2] == 'l' ? &o->loop : &o->no_png) = 1;
			continue;
		}
		if (a[0] != '-') {
			o->file = a;
			continue;
		}
		if (!v)
			return usage("an option lacks its value");
		i++;
		if (strcmp(a, "--armature") == 0) o->armature = v;
		else if (strcmp(a, "--anim") == 0) o->anim = v;
		else if (strcmp(a, "--fps") == 0) o->fps = atof(v);
		else if (strcmp(a, "--scale") == 0) o->scale = atof(v);
		else if (strcmp(a, "--reps") == 0) o->reps = atoi(v);
		else if (strcmp(a, "--every") == 0) o->every = atoi(v);
		else if (strcmp(a, "--quality") == 0) o->quality = atoi(v);
		else if (strcmp(a, "--size") == 0)
			o->has_size = sscanf(v, "%dx%d", &o->w, &o->h) == 2;
		else if (strcmp(a, "--origin") == 0)
			o->has_origin = sscanf(v, "%lf,%lf", &o->ox, &o->oy) == 2;
		else if (strcmp(a, "--filter") == 0) {
			const char *p = v;

			for (o->nfilters = 0; *p && o->nfilters < 4; o->nfilters++) {
				size_t n = strcspn(p, ",");

				for (k = 0; k < 4 && (strlen(filters[k]) != n ||
				                      strncmp(p, filters[k], n) != 0); k++)
					;
				if (k == 4)
					return usage("unknown --filter");
				o->filters[o->nfilters] = (bb_filter)k;
				p += n + (p[n] == ',');
			}
		} else
			return usage("unknown option");
	}
	if (o->nfilters == 0)
		o->nfilters = 1;   /* default */
	if ((o->nfilters > 1 && !o->quality) || !o->file || o->scale <= 0 ||
	    o->reps < 1 || o->every < 1 ||
	    o->quality < 0 || o->quality > 8 || (o->has_size && (o->w < 1 || o->h < 1)))
		return usage("bad arguments");
	return 0;
}

/* Per filter of a quality run: its renderer and sums over the frames. */
struct qsum {
	bb_renderer *r;
	double ms, mae;
	long covered, d05, d10;
};

/* One frame of a quality run: the reference, then each filter. */
static bb_status quality_frame(const struct opts *o, const bb_drawlist *dl,
                               const bb_view *view, bb_renderer *rref,
                               bb_image *big, bb_image *small, bb_image *img,
                               struct qsum *q, bb_error *err)
{
	static const double thresholds[2] = { 0.05, 0.1 };
	bb_view rv = *view;
	bb_status s;
	int k, t;

	rv.scale *= o->quality;
	rv.origin_x *= o->quality;
	rv.origin_y *= o->quality;
	rv.filter = BB_FILTER_BEST;
	if ((s = bb_render(rref, dl, &rv, big, err)) != BB_OK)
		return s;
	raster_downsample(big, o->quality, small);
	for (k = 0; k < o->nfilters; k++) {
		bb_view fv = *view;
		double t0;
		long cov;

		fv.filter = o->filters[k];
		t0 = now_ms();
		if ((s = bb_render(q[k].r, dl, &fv, img, err)) != BB_OK)
			return s;
		q[k].ms += now_ms() - t0;
		q[k].mae += raster_mean_error(img, small, &cov) * cov;
		q[k].covered += cov;
		for (t = 0; t < 2; t++) {
			bb_diff_options dopt = { 0 };
			bb_diff_result res;

			dopt.threshold_set = 1;
			dopt.threshold = thresholds[t];
			if ((s = bb_diff_images(small, img, &dopt, &res, NULL, err)) != BB_OK)
				return s;
			*(t ? &q[k].d10 : &q[k].d05) += res.diff_pixels;
		}
	}
	return BB_OK;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "default", "fast", "good", "best" };
	struct opts o;
	bb_model *m = NULL;
	bb_pose *pose = NULL;
	bb_renderer *rend = NULL, *rref = NULL;
	bb_image *img = NULL, *big = NULL, *small = NULL;
	struct qsum q[4];
	bb_anim_info ai;
	bb_track tr;
	bb_view view = { 0 };
	bb_error err;
	double fps, best[3] = { INFINITY, INFINITY, INFINITY };
	long frames, i, n = 0;
	int arm, anim, rep, rc, k;

	memset(q, 0, sizeof q);
	if ((rc = parse(argc, argv, &o)) != 0)
		return rc;
	if (bb_model_load(o.file, NULL, &m, &err) != BB_OK)
		goto fail;
	arm = o.armature ? bb_model_find_armature(m, o.armature)
	                 : bb_model_default_armature(m);
	if (arm < 0)
		return usage("unknown armature");
	anim = o.anim ? bb_model_find_anim(m, arm, o.anim) : 0;
	if (anim < 0 || bb_model_anim_count(m, arm) == 0)
		return usage("unknown animation");
	bb_model_anim_info(m, arm, anim, &ai);
	fps = o.fps > 0 ? o.fps : ai.fps > 0 ? ai.fps : 30;
	frames = bb_frame_count(ai.duration, fps, o.loop ? 1 : ai.loop);
	tr = (bb_track){ anim, 0, -1, 0, o.loop ? 1 : 0, 0 };
	if (bb_pose_new(m, arm, &pose, &err) != BB_OK ||
	    bb_renderer_new(&rend, &err) != BB_OK ||
	    bb_renderer_new(&rref, &err) != BB_OK)
		goto fail;
	for (k = 0; k < o.nfilters; k++)
		if (bb_renderer_new(&q[k].r, &err) != BB_OK)
			goto fail;
	view.scale = o.scale;
	view.filter = o.filters[0];
	if (!o.has_size) {
		bb_bounds b = bb_bounds_empty();

		for (i = 0; i < frames; i++) {
			if (bb_pose_eval(pose, &tr, 1, i / fps, NULL, &err) != BB_OK)
				goto fail;
			bb_bounds_union(&b, bb_drawlist_bounds(bb_pose_drawlist(pose)));
		}
		if (bb_bounds_is_empty(b))
			b.x0 = b.y0 = b.x1 = b.y1 = 0;
		o.w = (int)(ceil(b.x1 * o.scale) - floor(b.x0 * o.scale)) + 4;
		o.h = (int)(ceil(b.y1 * o.scale) - floor(b.y0 * o.scale)) + 4;
		o.ox = 2 - floor(b.x0 * o.scale);
		o.oy = 2 - floor(b.y0 * o.scale);
		o.has_origin = 1;
	}
	view.origin_x = o.has_origin ? o.ox : o.w / 2.0;
	view.origin_y = o.has_origin ? o.oy : o.h / 2.0;
	if (bb_image_new(o.w, o.h, &img, &err) != BB_OK)
		goto fail;
	if (o.quality) {
		if (bb_image_new(o.w * o.quality, o.h * o.quality, &big, &err) != BB_OK ||
		    bb_image_new(o.w, o.h, &small, &err) != BB_OK)
			goto fail;
		for (i = 0; i < frames; i += o.every, n++)
			if (bb_pose_eval(pose, &tr, 1, i / fps, NULL, &err) != BB_OK ||
			    quality_frame(&o, bb_pose_drawlist(pose), &view, rref, big,
			                  small, img, q, &err) != BB_OK)
				goto fail;
		for (k = 0; k < o.nfilters; k++)
			printf("filter %s frames %ld size %dx%d raster_ms %.3f mae %.3f "
			       "diff05 %.1f diff10 %.1f\n", names[o.filters[k]], n, o.w, o.h,
			       q[k].ms / n, q[k].covered ? q[k].mae / q[k].covered : 0,
			       (double)q[k].d05 / n, (double)q[k].d10 / n);
		rc = 0;
		goto done;
	}
	for (rep = 0; rep < o.reps; rep++) {
		double t[3] = { 0, 0, 0 };

		for (i = 0, n = 0; i < frames; i += o.every, n++) {
			double t0 = now_ms(), t1, t2;
			void *png = NULL;
			size_t size;

			if (bb_pose_eval(pose, &tr, 1, i / fps, NULL, &err) != BB_OK)
				goto fail;
			t1 = now_ms();
			if (bb_render(rend, bb_pose_drawlist(pose), &view, img, &err) != BB_OK)
				goto fail;
			t2 = now_ms();
			if (!o.no_png && bb_png_encode(img, &png, &size, &err) != BB_OK)
				goto fail;
			free(png);
			t[0] += t1 - t0;
			t[1] += t2 - t1;
			t[2] += now_ms() - t2;
		}
		for (k = 0; k < 3; k++)
			best[k] = fmin(best[k], t[k]);
	}
	printf("frames %ld size %dx%d eval_ms %.3f raster_ms %.3f png_ms %.3f\n",
	       n, o.w, o.h, best[0] / n, best[1] / n, best[2] / n);
	rc = 0;
	goto done;
fail:
	{
		char buf[1024];

		bb_error_format(&err, buf, sizeof buf);
		fprintf(stderr, "bench-raster: %s\n", buf);
	}
	rc = 1;
done:
	for (k = 0; k < 4; k++)
		bb_renderer_free(q[k].r);
	bb_image_free(img);
	bb_image_free(big);
	bb_image_free(small);
	bb_renderer_free(rend);
	bb_renderer_free(rref);
	bb_pose_free(pose);
	bb_model_free(m);
	return rc;
}
