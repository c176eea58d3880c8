/* bonebake render FILE -o DIR: PNG frames and frames.json per animation. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "outdir.h"

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
	"  --png-level N|fast|small\n"
	"                       PNG compression 0 (none) .. 9 (smallest);\n"
	"                       fast = 1 (default), small = 9\n"
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
} enc_pool;

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
	char rel[1200], path[6000];
	bb_png_encoder *enc;
	bb_error err;
	bb_status st;

	snprintf(rel, sizeof rel, "%s/%s_%04ld.png", c->job->dir, c->job->prefix, i);
	if (!outdir_path(c->od, rel, path, sizeof path))
		return EXIT_IO;
	if (!(enc = pool_take(c->pool, &err)))
		return cli_fail(&err);
	st = bb_png_encoder_write(enc, path, img, &err);
	pool_give(c->pool, enc);
	return st == BB_OK ? 0 : cli_fail(&err);
}

/* The frame an event fires on: the first sample at or after its time. */
static long event_frame(const fig_anim *fa, double time)
{
	long f = (long)ceil(time * fa->fps - 1e-9);

	if (f < 0)
		f = 0;
	if (fa->info.loop && fa->frames > 0)
		f %= fa->frames;
	else if (f >= fa->frames)
		f = fa->frames - 1;
	return f;
}

static void write_events(FILE *out, const fig_job *j)
{
	const figure *f = &j->fig;
	int n = bb_model_event_count(f->model, f->armature, j->plan.anim), i;

	fprintf(out, "  \"events\": [");
	for (i = 0; i < n; i++) {
		bb_event_info e;

		bb_model_event(f->model, f->armature, j->plan.anim, i, &e);
		fprintf(out, "%s\n    { \"name\": ", i ? "," : "");
		cli_json_string(out, e.name);
		e.time = fig_anim_to_figure_time(&j->plan, e.time);
		fprintf(out, ", \"kind\": \"%s\", \"time\": %.17g, \"frame\": %ld", e.kind,
		        e.time, event_frame(&j->plan, e.time));
		if (e.data) {
			fprintf(out, ", \"data\": ");
			cli_json_string(out, e.data);
		}
		fprintf(out, " }");
	}
	fprintf(out, "%s],\n", n ? "\n  " : "");
}

static int write_frames_json(const outdir *od, const fig_job *j,
                             const fig_opts *o)
{
	const fig_anim *fa = &j->plan;
	char rel[1200], path[6000], tmp[6100];
	bb_armature_info ai;
	FILE *out;
	long i;

	snprintf(rel, sizeof rel, "%s/frames.json", j->dir);
	outdir_path(od, rel, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "bonebake: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	bb_model_armature_info(j->fig.model, j->fig.armature, &ai);
	fprintf(out, "{\n  \"animation\": ");
	cli_json_string(out, fa->info.name);
	fprintf(out, ",\n  \"armature\": ");
	cli_json_string(out, ai.name ? ai.name : "");
	fprintf(out, ",\n  \"fps\": %.17g,\n  \"loop\": %s,\n  \"duration\": %.17g,\n",
	        fa->fps, fa->info.loop ? "true" : "false", fa->info.duration);
	fprintf(out, "  \"scale\": %.17g,\n", o->scale);
	fprintf(out, "  \"canvas\": { \"width\": %d, \"height\": %d },\n", fa->width,
	        fa->height);
	fprintf(out, "  \"origin\": { \"x\": %.17g, \"y\": %.17g },\n",
	        fa->view.origin_x, fa->view.origin_y);
	if (o->overlay) {
		fprintf(out, "  \"overlay\": { \"animation\": ");
		cli_json_string(out, o->overlay);
		fprintf(out, ", \"start\": %.17g },\n", o->overlay_at);
	}
	if (o->face) {
		fprintf(out, "  \"face\": { \"animation\": ");
		cli_json_string(out, o->face);
		fprintf(out, ", \"start\": %.17g },\n", o->face_at);
	}
	write_events(out, j);
	fprintf(out, "  \"frames\": [\n");
	for (i = 0; i < fa->frames; i++) {
		char file[600];

		snprintf(file, sizeof file, "%s_%04ld.png", j->prefix, i);
		fprintf(out, "    { \"file\": ");
		cli_json_string(out, file);
		fprintf(out, ", \"time\": %.17g }%s\n", fig_frame_time(fa, i),
		        i + 1 < fa->frames ? "," : "");
	}
	fprintf(out, "  ]\n}\n");
	if (fclose(out) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "bonebake: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

int cmd_render(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "png-level", required_argument, NULL, O_PNG_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[64];
	enc_pool pool;
	fig_opts fo;
	figure fig;
	fig_job *jobs = NULL;
	const char *outpath = NULL;
	outdir od;
	int c, rc, i, njobs = 0;

	fig_opts_init(&fo);
	memset(&pool, 0, sizeof pool);
	fig_merge_options(own, opts, 64);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			outpath = optarg;
		} else if (c == O_PNG_LEVEL) {
			if (!cli_parse_png_level(optarg, &pool.opt))
				return cli_usage_error("render", "--png-level takes 0..9, "
				                       "fast or small, not '%s'", optarg);
		} else if (c == 'h') {
			fputs(help, stdout);
			fputs(fig_help, stdout);
			return EXIT_OK;
		} else if ((rc = fig_parse(&fo, c, optarg, "render")) != 1) {
			return rc < 0 ? EXIT_USAGE : cli_bad_option("render", argv);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("render", "expected one input FILE");
	if (!outpath)
		return cli_usage_error("render", "missing -o DIR");
	if ((rc = figure_load(&fig, &fo, argv[optind], "render")) != 0 ||
	    (rc = figure_plan_jobs(&fig, &fo, argv[optind], "render", &jobs, &njobs)) != 0)
		goto out;
	if ((rc = outdir_open(&od, outpath)) != 0)
		goto out;
	pthread_mutex_init(&pool.lock, NULL);
	for (i = 0; i < njobs && rc == 0; i++) {
		struct sink_ctx sc = { &od, &jobs[i], &pool };
		char *slash = strchr(jobs[i].dir, '/');

		if (slash) {   /* the armature's folder, once */
			char arm[600];
			int k, seen = 0;

			snprintf(arm, sizeof arm, "%.*s", (int)(slash - jobs[i].dir), jobs[i].dir);
			for (k = 0; k < i; k++)
				seen |= strncmp(jobs[k].dir, arm, strlen(arm)) == 0 &&
				        jobs[k].dir[strlen(arm)] == '/';
			if (!seen)
				rc = outdir_mkdir(&od, arm);
		}
		if (rc == 0)
			rc = outdir_mkdir(&od, jobs[i].dir);
		if (rc == 0)
			rc = figure_render(&jobs[i].fig, &fo, &jobs[i].plan, write_frame, &sc);
		if (rc == 0)
			rc = write_frames_json(&od, &jobs[i], &fo);
	}
	pool_free(&pool);
	if (rc == 0)
		rc = outdir_commit(&od);
	else
		outdir_abort(&od);
	for (i = 0; rc == 0 && !fo.quiet && i < njobs; i++)
		printf("%s: %ld frames, %dx%d, origin %g,%g -> %s/%s/\n",
		       jobs[i].plan.info.name, jobs[i].plan.frames, jobs[i].plan.width,
		       jobs[i].plan.height, jobs[i].plan.view.origin_x,
		       jobs[i].plan.view.origin_y, outpath, jobs[i].dir);
out:
	free(jobs);
	figure_free(&fig);
	return rc;
}
