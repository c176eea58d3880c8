/* bonebake info FILE [--json]: what a file holds. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where the JSON/text goes: stdout, or a buffer written to -o FILE. */
static FILE *out;

static const char help[] =
	"usage: bonebake info FILE [--json] [--fps N] [--allow-outside-paths]\n"
	"\n"
	"Lists the file's format, armatures (bones, slots, skins, bone sets) and\n"
	"animations with their duration, loop flag, layer and frame count at the\n"
	"sampling rate (the file's, or --fps).  An armature without animations\n"
	"lists \"setup\": its setup pose, one frame.\n"
	"\n"
	"  --json       machine-readable output\n"
	"  -o FILE      write to FILE (atomically) instead of stdout\n"
	"  --fps N      count frames at N frames per second\n"
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

	fprintf(out, "%s: %s, %d armature%s\n", path, bb_model_format(m),
	       bb_model_armature_count(m), bb_model_armature_count(m) == 1 ? "" : "s");
	for (a = 0; a < bb_model_armature_count(m); a++) {
		bb_armature_info ai;
		double fps;

		bb_model_armature_info(m, a, &ai);
		fps = fps_opt > 0 ? fps_opt : ai.fps > 0 ? ai.fps : CLI_DEFAULT_FPS;
		fprintf(out, "armature %s%s: %d bones, %d slots, %d meshes, %d IK, ", ai.name,
		        bb_model_armature_count(m) > 1 && a == bb_model_default_armature(m)
		        ? " (default)" : "", ai.bones, ai.slots, ai.meshes, ai.iks);
		if (ai.constraints)
			fprintf(out, "%d other constraints, ", ai.constraints);
		fprintf(out, "%d events, %g fps\n", ai.events, fps);
		fprintf(out, "  skins:");
		for (i = 0; i < ai.skins; i++)
			fprintf(out, " %s", bb_model_skin_name(m, a, i));
		fprintf(out, "\n");
		for (i = 0; i < ai.masks; i++)
			fprintf(out, "  bone set: %s\n", bb_model_mask_name(m, a, i));
		for (i = 0; i < ai.animations; i++) {
			bb_anim_info an;

			bb_model_anim_info(m, a, i, &an);
			if (fps_opt <= 0 && an.fps > 0)
				fps = an.fps;   /* the animation's own rate */
			fprintf(out, "  %-16s %7.3f s  %4ld frames @ %g fps  %-7s %s%s\n", an.name,
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

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fps", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-outside-paths", no_argument, NULL, 'A' },
		{ "max-image-pixels", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bb_load_options lo = { 0 };
	bb_model *m;
	bb_error err;
	cli_output co;
	const char *output = NULL;
	double fps = 0;
	int json = 0, c, rc;

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
	if (json)
		print_json(m, argv[optind], fps);
	else
		print_text(m, argv[optind], fps);
	rc = cli_output_end(&co);
	bb_model_free(m);
	return rc;
}
