/* bonebake render FILE -o DIR: PNG frames and frames.json per animation. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "outdir.h"
#include "preview-out.h"

static const char help[] =
	"usage: bonebake render FILE -o DIR [options]\n"
	"\n"
	"Renders animations of FILE to DIR/<anim>/<anim>_0000.png ... and\n"
	"DIR/<anim>/frames.json (fps, loop, canvas size, origin pixel, per frame\n"
	"its file and time, and the events with the frame they fire on).  With\n"
	"--all and several armatures: DIR/<armature>/<anim>/.  Frame i samples\n"
	"t = i / fps.  A looping animation gives round(duration*fps) frames, a\n"
	"non-looping one floor(duration*fps)+1.  Every frame of an animation has\n"
	"the same canvas and origin.  Nothing is written unless every animation\n"
	"renders.\n"
	"\n"
	"  -o, --output DIR     output folder (created if missing)\n"
	"  --preview {formats}\n"
	"                       also DIR/<anim>/<anim>.<format>, an animated\n"
	"                       file or video of the same frames (see preview)\n"
	"  --png-level N|fast|small\n"
	"                       PNG compression: fast = bonebake's fast\n"
	"                       encoder, 0 (none) .. 9 (smallest) = deflate\n"
	"                       levels, small = 9 (default: fast)\n"
	"  -h, --help           this text\n";

enum { O_PNG_LEVEL = 1, MAX_ENCODERS = 256 };

/* PNG encoders the render threads share: a thread takes one for a frame
 * and gives it back, so there are never more than the threads and each
 * keeps its buffers from frame to frame. */
typedef struct enc_pool {
	pthread_mutex_t lock;
	bb_png_options opt;
	bb_png_encoder *idle[MAX_ENCODERS];
	int n_idle;
	int failed;             /* a frame could not be written: said once */
} enc_pool;

/* 1 for the first frame that fails to be written, 0 after: threads that
 * hit the same full disk say so once. */
static int pool_first_failure(enc_pool *p)
{
	int first;

	pthread_mutex_lock(&p->lock);
	first = !p->failed;
	p->failed = 1;
	pthread_mutex_unlock(&p->lock);
	return first;
}

static bb_png_encoder *pool_take(enc_pool *p, bb_error *err)
{
	bb_png_encoder *e = NULL;

	pthread_mutex_lock(&p->lock);
	if (p->n_idle > 0)
		e = p->idle[--p->n_idle];
	pthread_mutex_unlock(&p->lock);
	if (!e && bb_png_encoder_new(&p->opt, &e, err) != BB_OK)
		return NULL;
	return e;
}

static void pool_give(enc_pool *p, bb_png_encoder *e)
{
	pthread_mutex_lock(&p->lock);
	if (p->n_idle < MAX_ENCODERS)
		p->idle[p->n_idle++] = e;
	else
		bb_png_encoder_free(e);
	pthread_mutex_unlock(&p->lock);
}

static void pool_free(enc_pool *p)
{
	while (p->n_idle > 0)
		bb_png_encoder_free(p->idle[--p->n_idle]);
	pthread_mutex_destroy(&p->lock);
}

struct sink_ctx {
	const outdir *od;
	const fig_job *job;
	enc_pool *pool;
};

static int write_frame(long i, const bb_image *img, void *user)
{
	struct sink_ctx *c = user;
	char rel[FIG_PATH_MAX + FIG_NAME_MAX + 32], path[OUTDIR_PATH_MAX];
	bb_png_encoder *enc;
	bb_error err;
	bb_status st;

	if (cli_interrupted)
		return 128 + cli_interrupted;    /* stop; main reports it */
	snprintf(rel, sizeof rel, "%s/%s_%04ld.png", c->job->dir, c->job->prefix, i);
	if (!outdir_path(c->od, rel, path, sizeof path))
		return EXIT_IO;
	if (!(enc = pool_take(c->pool, &err)))
		return cli_fail(&err);
	/* a new file in the staging folder: no temporary + rename needed */
	st = bb_png_encoder_write_new(enc, path, img, &err);
	pool_give(c->pool, enc);
	if (st == BB_OK)
		return 0;
	/* the file where the user will look for it, not in the stage */
	snprintf(path, sizeof path, "%s/%s", c->od->dest, rel);
	cli_error_file(&err, path);
	return pool_first_failure(c->pool) ? cli_fail(&err)
	                                   : cli_exit_code(err.status);
}

/* The job's frames.json (bonebake/output.h), written atomically. */
static int write_frames_json(const outdir *od, const fig_job *j,
                             const fig_opts *o, const char *preview)
{
	const bb_plan *p = &j->plan;
	int nev = bb_model_event_count(j->model, j->scene.armature, j->scene.anim);
	char rel[FIG_PATH_MAX + 32], path[OUTDIR_PATH_MAX];
	bb_frames_json f;
	bb_armature_info ai;
	bb_error err;
	int i, rc = 0;
	long k;

	memset(&f, 0, sizeof f);
	bb_model_armature_info(j->model, j->scene.armature, &ai);
	f.animation = (char *)p->info.name;
	f.armature = (char *)(ai.name ? ai.name : "");
	f.fps = p->fps;
	f.loop = p->info.loop;
	f.duration = p->info.duration;
	f.scale = o->scale;
	f.width = p->width;
	f.height = p->height;
	f.origin_x = p->view.origin_x;
	f.origin_y = p->view.origin_y;
	f.overlay.animation = (char *)o->overlay;
	f.overlay.start = o->overlay_at;
	f.face.animation = (char *)o->face;
	f.face.start = o->face_at;
	f.preview = (char *)preview;
	f.events = calloc((size_t)nev + 1, sizeof *f.events);
	f.frames = calloc((size_t)p->frames, sizeof *f.frames);
	if (!f.events || !f.frames) {
		rc = EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < nev; i++) {
		bb_event_info e;

		bb_model_event(j->model, j->scene.armature, j->scene.anim, i, &e);
		f.events[i].name = (char *)e.name;
		f.events[i].kind = (char *)e.kind;
		f.events[i].data = (char *)e.data;
		f.events[i].time = bb_plan_figure_time(p, e.time);
		f.events[i].frame = bb_plan_event_frame(p, f.events[i].time);
	}
	f.n_events = (size_t)nev;
	for (k = 0; k < p->frames; k++) {
		char file[FIG_NAME_MAX + 32];

		snprintf(file, sizeof file, "%s_%04ld.png", j->prefix, k);
		if (!(f.frames[k].file = strdup(file))) {
			rc = EXIT_INTERNAL;
			goto out;
		}
		f.frames[k].time = bb_plan_frame_time(p, k);
		f.n_frames = (size_t)k + 1;
	}
	snprintf(rel, sizeof rel, "%s/frames.json", j->dir);
	if (!outdir_path(od, rel, path, sizeof path))
		rc = EXIT_IO;
	else if (bb_frames_json_write(path, &f, &err) != BB_OK)
		rc = cli_fail(&err);
out:
	for (k = 0; f.frames && k < (long)f.n_frames; k++)
		free(f.frames[k].file);
	free(f.frames);
	free(f.events);
	return rc;
}

/* Frames, and the preview and contact sheet when asked, of one job. */
static int render_job(const outdir *od, const fig_job *j, int njobs,
                      const fig_opts *fo, cli_progress *progress,
                      const anim_opts *ao, pending *pend, struct sink_ctx *sc)
{
	char rel[FIG_PATH_MAX + FIG_NAME_MAX + 32], path[OUTDIR_PATH_MAX];
	char shown[OUTDIR_DEST_MAX + FIG_PATH_MAX + FIG_NAME_MAX + 40];
	char cpath[PATH_MAX], file[FIG_NAME_MAX + 16];
	const char *cstaged = NULL;
	anim_job x;
	int rc;

	if (!ao->has_format && !ao->contact) {
		rc = figure_render_argb32(j, fo, progress, write_frame, sc);
		return rc ? rc : write_frames_json(od, j, fo, NULL);
	}
	snprintf(file, sizeof file, "%s.%s", j->prefix,
	         bb_anim_format_extension(ao->format));
	snprintf(rel, sizeof rel, "%s/%s", j->dir, file);
	snprintf(shown, sizeof shown, "%s/%s", od->dest, rel);
	if (!outdir_path(od, rel, path, sizeof path))
		return EXIT_IO;
	if (ao->contact) {
		if (!contact_path(ao->contact, j, njobs, cpath, sizeof cpath)) {
			fprintf(stderr, "bonebake: %s: path too long\n", ao->contact);
			return EXIT_IO;
		}
		if ((rc = pending_add(pend, cpath, &cstaged)) != 0)
			return rc;
	}
	if ((rc = anim_job_begin(&x, j, ao, ao->has_format ? path : NULL, shown,
	                         cstaged, cpath)) != 0)
		return rc;
	rc = figure_render_ordered(j, fo, progress, write_frame, sc,
	                           anim_job_frame, &x);
	while (rc == 0 && anim_job_next_cycle(&x))   /* --loop-count: video */
		rc = figure_render_again(j, fo, anim_job_frame, &x);
	if (rc == 0)
		rc = anim_job_end(&x);
	else
		anim_job_abort(&x);
	return rc ? rc : write_frames_json(od, j, fo, ao->has_format ? file : NULL);
}

int cmd_render(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "png-level", required_argument, NULL, O_PNG_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[96];
	enc_pool pool;
	fig_opts fo;
	anim_opts ao;
	pending pend = { 0 };
	figure fig;
	fig_job *jobs = NULL;
	const char *outpath = NULL;
	outdir od;
	cli_progress progress;
	int c, rc, i, njobs = 0;

	fig_opts_init(&fo);
	anim_opts_init(&ao);
	fig_merge_options(own, opts, 96);
	anim_merge_options(opts, 96, 1);
	memset(&pool, 0, sizeof pool);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			outpath = optarg;
		} else if (c == O_PNG_LEVEL) {
			if (!cli_parse_png_level(optarg, &pool.opt))
				return cli_usage_error("render", "--png-level takes 0..9, "
				                       "fast or small, not '%s'", optarg);
		} else if (c == 'h') {
			cli_help(help);
			cli_help(anim_help);
			cli_help(fig_help);
			return EXIT_OK;
		} else if ((rc = anim_parse(&ao, c, optarg, "render")) != 1 &&
		           (rc = fig_parse(&fo, c, optarg, "render")) != 1) {
			return rc < 0 ? EXIT_USAGE : cli_bad_option("render", argv, opts);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("render", "expected one input FILE");
	if (!outpath || !outpath[0])
		return cli_usage_error("render", "missing -o DIR");
	if ((rc = anim_check(&ao, "render")) != 0)
		return rc;
	if ((rc = figure_load(&fig, &fo, argv[optind], "render")) != 0 ||
	    (rc = figure_plan_jobs(&fig, &fo, argv[optind], "render", &jobs, &njobs)) != 0)
		goto out;
	if ((rc = outdir_open(&od, outpath)) != 0)
		goto out;
	pthread_mutex_init(&pool.lock, NULL);
	figure_progress_start(&progress, "render", &fo, jobs, njobs);
	for (i = 0; i < njobs && rc == 0; i++) {
		struct sink_ctx sc = { &od, &jobs[i], &pool };
		char *slash = strchr(jobs[i].dir, '/');

		if (slash) {   /* the armature's folder, once */
			char arm[FIG_PATH_MAX];
			int k, seen = 0;

			snprintf(arm, sizeof arm, "%.*s", (int)(slash - jobs[i].dir), jobs[i].dir);
			for (k = 0; k < i; k++)
				seen |= strncmp(jobs[k].dir, arm, strlen(arm)) == 0 &&
				        jobs[k].dir[strlen(arm)] == '/';
			if (!seen)
				rc = outdir_mkdir_shared(&od, arm);
		}
		if (rc == 0)
			rc = outdir_mkdir(&od, jobs[i].dir);
		if (rc == 0)
			rc = render_job(&od, &jobs[i], njobs, &fo, &progress, &ao, &pend, &sc);
	}
	cli_progress_end(&progress);
	pool_free(&pool);
	if (rc == 0)
		rc = figure_strict_check(&fo, "render");
	if (rc == 0) {
		rc = outdir_commit(&od);
	} else {
		/* the extras' temporaries first: they may lie in DIR, which
		 * is removed if this run made it */
		pending_abort(&pend);
		outdir_abort(&od);
	}
	if (rc == 0)
		rc = pending_commit(&pend);
	else
		pending_abort(&pend);
	for (i = 0; rc == 0 && !fo.quiet && i < njobs; i++)
		printf("%s: %ld frames, %dx%d, origin %g,%g -> %s/%s/\n",
		       cli_text(jobs[i].plan.info.name), jobs[i].plan.frames,
		       jobs[i].plan.width, jobs[i].plan.height,
		       jobs[i].plan.view.origin_x, jobs[i].plan.view.origin_y,
		       cli_text(outpath), cli_text(jobs[i].dir));
out:
	free(jobs);
	figure_free(&fig);
	return rc;
}
