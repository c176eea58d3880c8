/* bonebake render FILE -o DIR: PNG frames and frames.json per animation. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "outdir.h"

static const char help[] =
	"usage: bonebake render FILE -o DIR [options]\n"
	"\n"
	"Renders animations of FILE to DIR/<anim>/<anim>_0000.png ... and\n"
	"DIR/<anim>/frames.json (fps, loop, canvas size, origin pixel, and per\n"
	"frame its file and time).  Frame i samples t = i / fps.  A looping\n"
	"animation gives round(duration*fps) frames, a non-looping one\n"
	"floor(duration*fps)+1.  Every frame of an animation has the same canvas\n"
	"and origin.  Nothing is written unless every animation renders.\n"
	"\n"
	"  -o, --output DIR     output folder (created if missing)\n"
	"  -h, --help           this text\n";

struct sink_ctx {
	const outdir *od;
	char safe[256];
};

static int write_frame(long i, const bb_image *img, void *user)
{
	struct sink_ctx *c = user;
	char rel[600], path[5000];
	bb_error err;

	snprintf(rel, sizeof rel, "%s/%s_%04ld.png", c->safe, c->safe, i);
	if (!outdir_path(c->od, rel, path, sizeof path))
		return EXIT_IO;
	if (bb_png_write(path, img, &err) != BB_OK)
		return cli_fail(&err);
	return 0;
}

static int write_frames_json(const outdir *od, const char *safe,
                             const figure *f, const fig_opts *o,
                             const fig_anim *fa)
{
	char rel[600], path[5000], tmp[5100];
	FILE *out;
	long i;

	snprintf(rel, sizeof rel, "%s/frames.json", safe);
	outdir_path(od, rel, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "bonebake: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	fprintf(out, "{\n  \"animation\": ");
	cli_json_string(out, fa->info.name);
	fprintf(out, ",\n  \"armature\": ");
	{
		bb_armature_info ai;

		bb_model_armature_info(f->model, f->armature, &ai);
		cli_json_string(out, ai.name ? ai.name : "");
	}
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
	fprintf(out, "  \"frames\": [\n");
	for (i = 0; i < fa->frames; i++) {
		char file[600];

		snprintf(file, sizeof file, "%s_%04ld.png", safe, i);
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[64];
	fig_opts fo;
	figure fig;
	fig_anim *plans = NULL;
	const char *outpath = NULL;
	outdir od;
	long total = 0;
	int c, rc, i, k;

	fig_opts_init(&fo);
	fig_merge_options(own, opts, 64);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			outpath = optarg;
		} else if (c == 'h') {
			fputs(help, stdout);
			fputs(fig_help, stdout);
			return EXIT_OK;
		} else if ((rc = fig_parse(&fo, c, optarg, "render")) != 1) {
			return rc < 0 ? EXIT_USAGE
			              : cli_bad_option("render", argv);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("render", "expected one input FILE");
	if (!outpath)
		return cli_usage_error("render", "missing -o DIR");
	if ((rc = figure_load(&fig, &fo, argv[optind], "render")) != 0) {
		figure_free(&fig);
		return rc;
	}
	plans = calloc((size_t)fig.nanims + 1, sizeof *plans);
	if (!plans) {
		figure_free(&fig);
		return EXIT_INTERNAL;
	}
	/* plan everything before writing anything */
	for (i = 0; i < fig.nanims; i++) {
		if ((rc = figure_plan(&fig, &fo, fig.anims[i], &plans[i])) != 0)
			goto out;
		total += plans[i].frames;
		for (k = 0; k < i; k++)
			if (fig.anims[k] == fig.anims[i]) {
				rc = cli_usage_error("render", "animation \"%s\" named twice",
				                     plans[i].info.name);
				goto out;
			}
	}
	if ((rc = outdir_open(&od, outpath)) != 0)
		goto out;
	for (i = 0; i < fig.nanims && rc == 0; i++) {
		struct sink_ctx sc;

		sc.od = &od;
		fig_safe_name(plans[i].info.name, sc.safe, sizeof sc.safe);
		rc = outdir_mkdir(&od, sc.safe);
		if (rc == 0)
			rc = figure_render(&fig, &fo, &plans[i], write_frame, &sc);
		if (rc == 0)
			rc = write_frames_json(&od, sc.safe, &fig, &fo, &plans[i]);
	}
	if (rc == 0)
		rc = outdir_commit(&od);
	else
		outdir_abort(&od);
	if (rc == 0 && !fo.quiet)
		for (i = 0; i < fig.nanims; i++) {
			char safe[256];

			fig_safe_name(plans[i].info.name, safe, sizeof safe);
			printf("%s: %ld frames, %dx%d, origin %g,%g -> %s/%s/\n",
			       plans[i].info.name, plans[i].frames, plans[i].width,
			       plans[i].height, plans[i].view.origin_x,
			       plans[i].view.origin_y, outpath, safe);
		}
	(void)total;
out:
	free(plans);
	figure_free(&fig);
	return rc;
}
