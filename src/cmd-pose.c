/* bonebake pose FILE: bone world matrices, slots and draw lists as JSON,
 * in the schema of the official-runtime oracle files (docs/cli.md, pose), for number-by-number
 * comparison with other runtimes. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

/* Where the JSON/text goes: stdout, or a buffer written to -o FILE. */
static FILE *out;

static const char help[] =
	"usage: bonebake pose FILE [--anim NAME] [--fps N] [layer options]\n"
	"\n"
	"Prints, as JSON on stdout, every sampled frame of one animation (default:\n"
	"the first): bone world matrices m = [a, b, c, d, tx, ty] in the\n"
	"skeleton's own space before any view transform (x' = a*x + c*y + tx),\n"
	"slots in paint order with display index, display name and colour (and\n"
	"the dark colour of a two-colour tint), and the draw list.\n"
	"\n"
	"  -o FILE      write to FILE (atomically) instead of stdout\n"
	"  -h, --help   this text\n";

static void num(double v)
{
	/* stable, short, and never "-0" */
	if (v == 0 || fabs(v) < 5e-13)
		v = 0;
	fprintf(out, "%.12g", v);
}

static void matrix(bb_affine m)
{
	fprintf(out, "[");
	num(m.a); fprintf(out, ", ");
	num(m.b); fprintf(out, ", ");
	num(m.c); fprintf(out, ", ");
	num(m.d); fprintf(out, ", ");
	num(m.tx); fprintf(out, ", ");
	num(m.ty);
	fprintf(out, "]");
}

static const char *kind_name(bb_draw_kind k)
{
	switch (k) {
	case BB_DRAW_RECT: return "rect";
	case BB_DRAW_QUAD: return "quad";
	case BB_DRAW_MESH: return "mesh";
	case BB_DRAW_CLIP: return "clip";
	case BB_DRAW_CLIP_END: return "clip-end";
	}
	return "?";
}

static const char *blend_name(bb_blend b)
{
	switch (b) {
	case BB_BLEND_NORMAL: return "normal";
	case BB_BLEND_ADD: return "add";
	case BB_BLEND_MULTIPLY: return "multiply";
	case BB_BLEND_SCREEN: return "screen";
	case BB_BLEND_SUBTRACT: return "subtract";
	}
	return "normal";
}

static void color(bb_color_xform c)
{
	fprintf(out, "[");
	num(c.mul.a); fprintf(out, ", "); num(c.mul.r); fprintf(out, ", ");
	num(c.mul.g); fprintf(out, ", "); num(c.mul.b); fprintf(out, ", ");
	num(c.add.a * 255); fprintf(out, ", "); num(c.add.r * 255); fprintf(out, ", ");
	num(c.add.g * 255); fprintf(out, ", "); num(c.add.b * 255);
	fprintf(out, "]");
}

static void print_frame(const figure *f, const bb_pose *p, long i, double t,
                        double anim_time)
{
	const bb_model *m = f->model;
	const bb_drawlist *dl = bb_pose_drawlist(p);
	int arm = f->scene.armature;
	int nb = bb_pose_bone_count(p), ns = bb_model_slot_count(m, arm), k;

	fprintf(out, "%s\n  {\"i\": %ld, \"t\": ", i ? "," : "", i);
	num(t);
	fprintf(out, ", \"animTime\": ");
	num(anim_time);
	fprintf(out, ",\n   \"bones\": [");
	for (k = 0; k < nb; k++) {
		int par = bb_model_bone_parent(m, arm, k);

		fprintf(out, "%s\n    {\"name\": ", k ? "," : "");
		cli_json_string(out, bb_model_bone_name(m, arm, k));
		fprintf(out, ", \"parent\": ");
		if (par >= 0)
			cli_json_string(out, bb_model_bone_name(m, arm, par));
		else
			fprintf(out, "null");
		fprintf(out, ", \"m\": ");
		matrix(bb_pose_bone_world(p, k));
		if (!bb_pose_bone_active(p, k))
			fprintf(out, ", \"active\": false");
		fprintf(out, "}");
	}
	fprintf(out, "],\n   \"slots\": [");
	for (k = 0; k < ns; k++) {
		int s = bb_pose_slot_order(p, k);

		bb_color_xform c = bb_pose_slot_color(p, s);
		const char *dn = bb_pose_slot_display_name(p, s);

		fprintf(out, "%s\n    {\"name\": ", k ? "," : "");
		cli_json_string(out, bb_model_slot_name(m, arm, s));
		fprintf(out, ", \"z\": %d, \"displayIndex\": %d, \"display\": ", k,
		       bb_pose_slot_display(p, s));
		if (dn)
			cli_json_string(out, dn);
		else
			fprintf(out, "null");
		fprintf(out, ", \"color\": ");
		color(c);
		if (c.dark.r != 0 || c.dark.g != 0 || c.dark.b != 0) {
			fprintf(out, ", \"dark\": [");
			num(c.dark.r); fprintf(out, ", "); num(c.dark.g); fprintf(out, ", "); num(c.dark.b);
			fprintf(out, "]");
		}
		fprintf(out, "}");
	}
	fprintf(out, "],\n   \"draw\": [");
	for (k = 0; k < dl->count; k++) {
		const bb_draw_item *it = &dl->items[k];
		int v;

		fprintf(out, "%s\n    {\"kind\": \"%s\", \"slot\": ", k ? "," : "",
		       kind_name(it->kind));
		if (it->slot >= 0)
			cli_json_string(out, bb_model_slot_name(m, arm, it->slot));
		else
			fprintf(out, "null");
		fprintf(out, ", \"blend\": \"%s\", \"color\": ", blend_name(it->blend));
		color(it->color);
		if (it->kind == BB_DRAW_RECT) {
			fprintf(out, ", \"m\": ");
			matrix(it->m);
			fprintf(out, ", \"size\": [");
			num(it->w); fprintf(out, ", "); num(it->h);
			fprintf(out, "], \"radius\": ");
			num(it->radius);
			fprintf(out, ", \"fill\": [");
			num(it->fill.r); fprintf(out, ", "); num(it->fill.g); fprintf(out, ", ");
			num(it->fill.b); fprintf(out, ", "); num(it->fill.a);
			fprintf(out, "]");
		} else {
			fprintf(out, ", \"verts\": [");
			for (v = 0; v < it->nverts; v++) {
				fprintf(out, "%s", v ? ", " : "");
				num(it->verts[v].x); fprintf(out, ", "); num(it->verts[v].y);
			}
			fprintf(out, "]");
		}
		fprintf(out, "}");
	}
	fprintf(out, "]}");
}

int cmd_pose(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[64];
	bb_track tracks[BB_MAX_TRACKS];
	fig_opts fo;
	figure fig;
	bb_plan fa;
	bb_pose *pose = NULL;
	bb_error err;
	cli_output co = { 0 };
	const char *output = NULL;
	int c, rc, n;
	long i;

	fig_opts_init(&fo);
	fig_merge_options(own, opts, 64);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			output = optarg;
			continue;
		}
		if (c == 'h') {
			fputs(help, stdout);
			fputs(fig_help, stdout);
			return EXIT_OK;
		}
		if ((rc = fig_parse(&fo, c, optarg, "pose")) != 1)
			return rc < 0 ? EXIT_USAGE : cli_bad_option("pose", argv, opts);
	}
	if (optind + 1 != argc)
		return cli_usage_error("pose", "expected one input FILE");
	if (fo.nanims > 1)
		return cli_usage_error("pose", "pose prints one animation; give one --anim");
	fo.no_pixels = 1;      /* nothing is drawn: textures give their size */
	if ((rc = figure_load(&fig, &fo, argv[optind], "pose")) != 0)
		goto out;
	if (fig.nanims == 0) {
		fprintf(stderr, "bonebake: %s: no animations\n", argv[optind]);
		rc = EXIT_USAGE;
		goto out;
	}
	fo.has_size = 1;      /* no canvas needed */
	fo.size_w = fo.size_h = 1;
	fo.canvas_native = 0;
	fig.scene.anim = fig.anims[0];
	if ((rc = figure_plan(&fig, &fo, fig.scene.anim, &fa)) != 0)
		goto out;
	if (bb_scene_tracks(fig.model, &fig.scene, tracks, &n, &err) != BB_OK ||
	    bb_pose_new(fig.model, fig.scene.armature, &pose, &err) != BB_OK) {
		rc = cli_fail(&err);
		goto out;
	}
	if (!(out = cli_output_begin(&co, output))) {
		rc = EXIT_INTERNAL;
		goto out;
	}
	fprintf(out, "{\"meta\": {\"runtime\": \"bonebake %s\", \"armature\": ", PACKAGE_VERSION);
	{
		bb_armature_info ai;

		bb_model_armature_info(fig.model, fig.scene.armature, &ai);
		cli_json_string(out, ai.name);
	}
	fprintf(out, ", \"animation\": ");
	cli_json_string(out, fa.info.name);
	fprintf(out, ", \"animationDuration\": ");
	num(fa.info.duration);
	fprintf(out, ", \"fps\": ");
	num(fa.fps);
	fprintf(out, ", \"frames\": %ld, \"loop\": %s},\n \"frames\": [", fa.frames,
	       fa.info.loop ? "true" : "false");
	for (i = 0; i < fa.frames; i++) {
		double t = bb_plan_frame_time(&fa, i), at = t;

		if (bb_pose_eval(pose, tracks, n, t, &fig.scene.eval, &err) != BB_OK) {
			fprintf(out, "]}\n");
			rc = cli_fail(&err);
			goto out;
		}
		if (fa.info.duration > 0)
			at = fa.info.loop ? fmod(t, fa.info.duration)
			                  : fmin(t, fa.info.duration);
		print_frame(&fig, pose, i, t, at);
	}
	fprintf(out, "]}\n");
out:
	if (co.f && rc == 0) {
		rc = cli_output_end(&co);
	} else if (co.path && co.f) {      /* failed: -o FILE gets nothing */
		fclose(co.f);
		free(co.buf);
	}
	bb_pose_free(pose);
	figure_free(&fig);
	return rc;
}
