/* bonebake info FILE [--json]: what a file holds. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where the JSON/text goes: stdout, or a buffer written to -o FILE. */
static FILE *out;

static const char help[] =
	"usage: bonebake info FILE [--json] [--bounds] [--fps N] [options]\n"
	"\n"
	"Lists the file's format, armatures (bones, slots, skins, bone sets) and\n"
	"animations with their duration, loop flag, layer and frame count at the\n"
	"sampling rate (the file's, or --fps).  An armature without animations\n"
	"lists \"setup\": its setup pose, one frame.\n"
	"\n"
	"  --json       machine-readable output\n"
	"  -o FILE      write to FILE (atomically) instead of stdout\n"
	"  --fps N      count frames at N frames per second\n"
	"  --bounds     instead: each animation's drawn bounds (every frame\n"
	"               evaluated) and the union of an armature's animations,\n"
	"               as canvas size and origin pixel, and the --size WxH\n"
	"               --origin X,Y that holds every animation\n"
	"  --scale S, --pad N\n"
	"               with --bounds: as render (default 1 and 2)\n"
	"  --allow-outside-paths\n"
	"               read the files FILE references wherever they are\n"
	"               (default: only inside its folder)\n"
	"  --max-image-pixels N\n"
	"               refuse textures of more than N pixels (or NM: N\n"
	"               million), from their header (default 64M); info reads\n"
	"               only their size\n"
	"  -h, --help   this text\n";

static const char *layer_name(bb_anim_layer l)
{
	switch (l) {
	case BB_LAYER_BODY: return "body";
	case BB_LAYER_OVERLAY: return "overlay";
	case BB_LAYER_FACE: return "face";
	}
	return "body";
}

static void print_text(const bb_model *m, const char *path, double fps_opt)
{
	int a, i;

	fprintf(out, "%s: %s, %d armature%s\n", cli_text(path), bb_model_format(m),
	       bb_model_armature_count(m), bb_model_armature_count(m) == 1 ? "" : "s");
	for (a = 0; a < bb_model_armature_count(m); a++) {
		bb_armature_info ai;
		double fps;

		bb_model_armature_info(m, a, &ai);
		fps = fps_opt > 0 ? fps_opt : ai.fps > 0 ? ai.fps : CLI_DEFAULT_FPS;
		fprintf(out, "armature %s%s: %d bones, %d slots, %d meshes, %d IK, ",
		        cli_text(ai.name),
		        bb_model_armature_count(m) > 1 && a == bb_model_default_armature(m)
		        ? " (default)" : "", ai.bones, ai.slots, ai.meshes, ai.iks);
		if (ai.constraints)
			fprintf(out, "%d other constraints, ", ai.constraints);
		fprintf(out, "%d events, %g fps\n", ai.events, fps);
		fprintf(out, "  skins:");
		for (i = 0; i < ai.skins; i++)
			fprintf(out, " %s", cli_text(bb_model_skin_name(m, a, i)));
		fprintf(out, "\n");
		for (i = 0; i < ai.masks; i++)
			fprintf(out, "  bone set: %s\n", cli_text(bb_model_mask_name(m, a, i)));
		for (i = 0; i < ai.animations; i++) {
			bb_anim_info an;

			bb_model_anim_info(m, a, i, &an);
			if (fps_opt <= 0 && an.fps > 0)
				fps = an.fps;   /* the animation's own rate */
			fprintf(out, "  %-16s %7.3f s  %4ld frames @ %g fps  %-7s %s%s\n", cli_text(an.name),
			       an.duration, bb_frame_count(an.duration, fps, an.loop), fps,
			       an.loop ? "loop" : "once", layer_name(an.layer),
			       an.setup_pose ? "  (setup pose: the armature has no "
			       "animation)" : "");
		}
	}
}

static void print_json(const bb_model *m, const char *path, double fps_opt)
{
	int a, i;

	fprintf(out, "{\"file\": ");
	cli_json_string(out, path);
	fprintf(out, ", \"format\": ");
	cli_json_string(out, bb_model_format(m));
	fprintf(out, ", \"armatures\": [");
	for (a = 0; a < bb_model_armature_count(m); a++) {
		bb_armature_info ai;
		double fps;

		bb_model_armature_info(m, a, &ai);
		fps = fps_opt > 0 ? fps_opt : ai.fps > 0 ? ai.fps : CLI_DEFAULT_FPS;
		fprintf(out, "%s\n  {\"name\": ", a ? "," : "");
		cli_json_string(out, ai.name);
		fprintf(out, ", \"default\": %s, \"fps\": %.17g, \"bones\": %d, \"slots\": %d, "
		        "\"meshes\": %d, \"iks\": %d, ",
		        a == bb_model_default_armature(m) ? "true" : "false", fps, ai.bones,
		        ai.slots, ai.meshes, ai.iks);
		if (ai.constraints)
			fprintf(out, "\"constraints\": %d, ", ai.constraints);
		fprintf(out, "\"events\": %d, \"skins\": [", ai.events);
		for (i = 0; i < ai.skins; i++) {
			fprintf(out, "%s", i ? ", " : "");
			cli_json_string(out, bb_model_skin_name(m, a, i));
		}
		fprintf(out, "], \"boneSets\": [");
		for (i = 0; i < ai.masks; i++) {
			fprintf(out, "%s", i ? ", " : "");
			cli_json_string(out, bb_model_mask_name(m, a, i));
		}
		fprintf(out, "],\n   \"animations\": [");
		for (i = 0; i < ai.animations; i++) {
			bb_anim_info an;

			bb_model_anim_info(m, a, i, &an);
			if (fps_opt <= 0 && an.fps > 0)
				fps = an.fps;   /* the animation's own rate */
			fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
			cli_json_string(out, an.name);
			fprintf(out, ", \"duration\": %.17g, \"loop\": %s, \"layer\": \"%s\", "
			       "\"fps\": %.17g, \"frames\": %ld, \"timelines\": %d, "
			       "\"keys\": %d%s}", an.duration, an.loop ? "true" : "false",
			       layer_name(an.layer), fps,
			       bb_frame_count(an.duration, fps, an.loop), an.timelines,
			       an.keys, an.setup_pose ? ", \"setupPose\": true" : "");
		}
		fprintf(out, "]}");
	}
	fprintf(out, "],\n \"files\": [");
	for (a = 0; a < bb_model_file_count(m); a++) {
		fprintf(out, "%s", a ? ", " : "");
		cli_json_string(out, bb_model_file(m, a));
	}
	fprintf(out, "]}\n");
}

/* One canvas planned over bounds b (or the animation's own when b is
 * NULL): size and origin as render would give them. */
static int bounds_plan(const bb_model *m, int arm, int anim, double fps,
                       double scale, int pad, const bb_bounds *b, bb_plan *p)
{
	bb_canvas_options co;
	bb_scene sc;
	bb_error err;

	memset(&co, 0, sizeof co);
	memset(&sc, 0, sizeof sc);
	co.scale = scale;
	co.pad = pad;
	if (b) {
		co.has_bounds = 1;
		co.bounds = *b;
	}
	sc.armature = arm;
	sc.anim = anim;
	sc.fps = fps;
	return bb_plan_scene(m, &sc, &co, p, &err) == BB_OK ? 0 : cli_fail(&err);
}

static void bounds_line(const char *name, const bb_plan *p, int json, int first)
{
	if (json) {
		fprintf(out, "%s\n      {\"name\": ", first ? "" : ",");
		cli_json_string(out, name);
		fprintf(out, ", \"width\": %d, \"height\": %d, \"origin\": [%.17g, "
		        "%.17g]}", p->width, p->height, p->view.origin_x,
		        p->view.origin_y);
	} else {
		fprintf(out, "  %-16s %5dx%-5d origin %g,%g\n", name, p->width,
		        p->height, p->view.origin_x, p->view.origin_y);
	}
}

/* --bounds: every animation's canvas and the union's, per armature. */
static int print_bounds(const bb_model *m, double fps, double scale, int pad,
                        int json)
{
	int a, i, rc;

	if (json)
		fprintf(out, "{\"scale\": %.17g, \"pad\": %d, \"armatures\": [",
		        scale, pad);
	for (a = 0; a < bb_model_armature_count(m); a++) {
		bb_armature_info ai;
		bb_canvas_options co;
		bb_scene sc;
		bb_bounds u;
		bb_error err;
		bb_plan p;

		bb_model_armature_info(m, a, &ai);
		if (json) {
			fprintf(out, "%s\n  {\"name\": ", a ? "," : "");
			cli_json_string(out, ai.name);
			fprintf(out, ", \"animations\": [");
		} else {
			fprintf(out, "armature %s (scale %g, pad %d):\n", ai.name, scale,
			        pad);
		}
		for (i = 0; i < ai.animations; i++) {
			bb_anim_info an;

			bb_model_anim_info(m, a, i, &an);
			if ((rc = bounds_plan(m, a, i, fps, scale, pad, NULL, &p)) != 0)
				return rc;
			bounds_line(an.name, &p, json, i == 0);
		}
		memset(&co, 0, sizeof co);
		memset(&sc, 0, sizeof sc);
		sc.armature = a;
		sc.fps = fps;
		co.scale = scale;
		if (bb_plan_union(m, &sc, &co, &u, &err) != BB_OK)
			return cli_fail(&err);
		if ((rc = bounds_plan(m, a, 0, fps, scale, pad, &u, &p)) != 0)
			return rc;
		if (json) {
			fprintf(out, "],\n   \"union\": {\"width\": %d, \"height\": %d, "
			        "\"origin\": [%.17g, %.17g], \"size\": \"%dx%d\", "
			        "\"origin_option\": \"%g,%g\"}}", p.width, p.height,
			        p.view.origin_x, p.view.origin_y, p.width, p.height,
			        p.view.origin_x, p.view.origin_y);
		} else {
			bounds_line("(union)", &p, 0, 0);
			fprintf(out, "  holds every animation: --size %dx%d --origin %g,%g "
			        "(or --canvas union)\n", p.width, p.height, p.view.origin_x,
			        p.view.origin_y);
		}
	}
	if (json)
		fprintf(out, "]}\n");
	return 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fps", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-outside-paths", no_argument, NULL, 'A' },
		{ "max-image-pixels", required_argument, NULL, 'P' },
		{ "bounds", no_argument, NULL, 'b' },
		{ "scale", required_argument, NULL, 's' },
		{ "pad", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bb_load_options lo = { 0 };
	bb_model *m;
	bb_error err;
	cli_output co;
	const char *output = NULL;
	double fps = 0, scale = 1;
	int json = 0, bounds = 0, pad = 2, c, rc = 0;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'o': output = optarg; break;
		case 'A': lo.allow_outside_paths = 1; break;
		case 'P':
			if (!cli_parse_pixels(optarg, &lo.max_image_pixels))
				return cli_usage_error("info", "--max-image-pixels takes N or NM "
				                       "(millions), 1..1024M, not '%s'", optarg);
			break;
		case 'f':
			if (!cli_parse_double(optarg, &fps) || fps <= 0 || fps > 1000)
				return cli_usage_error("info", "--fps takes a number in (0, 1000]");
			break;
		case 'b': bounds = 1; break;
		case 's':
			if (!cli_parse_double(optarg, &scale) || scale < 1e-4 || scale > 100)
				return cli_usage_error("info", "--scale takes a number in "
				                       "[0.0001, 100], not '%s'", optarg);
			break;
		case 'p':
			if (!cli_parse_int(optarg, 0, 4096, &pad))
				return cli_usage_error("info", "--pad takes an integer 0..4096, "
				                       "not '%s'", optarg);
			break;
		case 'h': fputs(help, stdout); return EXIT_OK;
		default: return cli_bad_option("info", argv, opts);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("info", "expected one input FILE");
	lo.skip_pixels = 1;     /* info draws nothing: textures give their size */
	if (bb_model_load(argv[optind], &lo, &m, &err) != BB_OK)
		return cli_fail(&err);
	if (!(out = cli_output_begin(&co, output))) {
		bb_model_free(m);
		return EXIT_INTERNAL;
	}
	if (bounds)
		rc = print_bounds(m, fps, scale, pad, json);
	else if (json)
		print_json(m, argv[optind], fps);
	else
		print_text(m, argv[optind], fps);
	if (rc != 0 && co.path) {
		fclose(co.f);     /* nothing half-written: -o FILE is left alone */
		free(co.buf);
	} else if (rc == 0) {
		rc = cli_output_end(&co);
	}
	bb_model_free(m);
	return rc;
}
