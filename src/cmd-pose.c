/* bonebake pose FILE: bone world matrices, slots and draw lists as JSON,
 * in the schema of ../shared/oracle/README.md, for number-by-number
 * comparison with other runtimes. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

static const char help[] =
	"usage: bonebake pose FILE [--anim NAME] [--fps N] [layer options]\n"
	"\n"
	"Prints, as JSON on stdout, every sampled frame of one animation (default:\n"
	"the first): bone world matrices m = [a, b, c, d, tx, ty] in the\n"
	"skeleton's own space before any view transform (x' = a*x + c*y + tx),\n"
	"slots in paint order with display index and colour, and the draw list.\n"
	"\n"
	"  -h, --help   this text\n";

static void num(double v)
{
	/* stable, short, and never "-0" */
	if (v == 0 || fabs(v) < 5e-13)
		v = 0;
	printf("%.12g", v);
}

static void matrix(bb_affine m)
{
	printf("[");
	num(m.a); printf(", ");
	num(m.b); printf(", ");
	num(m.c); printf(", ");
	num(m.d); printf(", ");
	num(m.tx); printf(", ");
	num(m.ty);
	printf("]");
}

static const char *kind_name(bb_draw_kind k)
{
	switch (k) {
	case BB_DRAW_RECT: return "rect";
	case BB_DRAW_QUAD: return "quad";
	case BB_DRAW_MESH: return "mesh";
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
	printf("[");
	num(c.mul.a); printf(", "); num(c.mul.r); printf(", ");
	num(c.mul.g); printf(", "); num(c.mul.b); printf(", ");
	num(c.add.a * 255); printf(", "); num(c.add.r * 255); printf(", ");
	num(c.add.g * 255); printf(", "); num(c.add.b * 255);
	printf("]");
}

static void print_frame(const figure *f, const bb_pose *p, long i, double t,
                        double anim_time)
{
	const bb_model *m = f->model;
	const bb_drawlist *dl = bb_pose_drawlist(p);
	int arm = f->scene.armature;
	int nb = bb_pose_bone_count(p), ns = bb_model_slot_count(m, arm), k;

	printf("%s\n  {\"i\": %ld, \"t\": ", i ? "," : "", i);
	num(t);
	printf(", \"animTime\": ");
	num(anim_time);
	printf(",\n   \"bones\": [");
	for (k = 0; k < nb; k++) {
		int par = bb_model_bone_parent(m, arm, k);

		printf("%s\n    {\"name\": ", k ? "," : "");
		cli_json_string(stdout, bb_model_bone_name(m, arm, k));
		printf(", \"parent\": ");
		if (par >= 0)
			cli_json_string(stdout, bb_model_bone_name(m, arm, par));
		else
			printf("null");
		printf(", \"m\": ");
		matrix(bb_pose_bone_world(p, k));
		printf("}");
	}
	printf("],\n   \"slots\": [");
	for (k = 0; k < ns; k++) {
		int s = bb_pose_slot_order(p, k);

		printf("%s\n    {\"name\": ", k ? "," : "");
		cli_json_string(stdout, bb_model_slot_name(m, arm, s));
		printf(", \"z\": %d, \"displayIndex\": %d, \"color\": ", k,
		       bb_pose_slot_display(p, s));
		color(bb_pose_slot_color(p, s));
		printf("}");
	}
	printf("],\n   \"draw\": [");
	for (k = 0; k < dl->count; k++) {
		const bb_draw_item *it = &dl->items[k];
		int v;

		printf("%s\n    {\"kind\": \"%s\", \"slot\": ", k ? "," : "",
		       kind_name(it->kind));
		if (it->slot >= 0)
			cli_json_string(stdout, bb_model_slot_name(m, arm, it->slot));
		else
			printf("null");
		printf(", \"blend\": \"%s\", \"color\": ", blend_name(it->blend));
		color(it->color);
		if (it->kind == BB_DRAW_RECT) {
			printf(", \"m\": ");
			matrix(it->m);
			printf(", \"size\": [");
			num(it->w); printf(", "); num(it->h);
			printf("], \"radius\": ");
			num(it->radius);
			printf(", \"fill\": [");
			num(it->fill.r); printf(", "); num(it->fill.g); printf(", ");
			num(it->fill.b); printf(", "); num(it->fill.a);
			printf("]");
		} else {
			printf(", \"verts\": [");
			for (v = 0; v < it->nverts; v++) {
				printf("%s", v ? ", " : "");
				num(it->verts[v].x); printf(", "); num(it->verts[v].y);
			}
			printf("]");
		}
		printf("}");
	}
	printf("]}");
}

int cmd_pose(int argc, char **argv)
{
	static const struct option own[] = {
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
	int c, rc, n;
	long i;

	fig_opts_init(&fo);
	fig_merge_options(own, opts, 64);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			fputs(fig_help, stdout);
			return EXIT_OK;
		}
		if ((rc = fig_parse(&fo, c, optarg, "pose")) != 1)
			return rc < 0 ? EXIT_USAGE : cli_bad_option("pose", argv);
	}
	if (optind + 1 != argc)
		return cli_usage_error("pose", "expected one input FILE");
	if (fo.nanims > 1)
		return cli_usage_error("pose", "pose prints one animation; give one --anim");
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
	printf("{\"meta\": {\"runtime\": \"bonebake %s\", \"armature\": ", PACKAGE_VERSION);
	{
		bb_armature_info ai;

		bb_model_armature_info(fig.model, fig.scene.armature, &ai);
		cli_json_string(stdout, ai.name);
	}
	printf(", \"animation\": ");
	cli_json_string(stdout, fa.info.name);
	printf(", \"animationDuration\": ");
	num(fa.info.duration);
	printf(", \"fps\": ");
	num(fa.fps);
	printf(", \"frames\": %ld, \"loop\": %s},\n \"frames\": [", fa.frames,
	       fa.info.loop ? "true" : "false");
	for (i = 0; i < fa.frames; i++) {
		double t = bb_plan_frame_time(&fa, i), at = t;

		if (bb_pose_eval(pose, tracks, n, t, &fig.scene.eval, &err) != BB_OK) {
			printf("]}\n");
			rc = cli_fail(&err);
			goto out;
		}
		if (fa.info.duration > 0)
			at = fa.info.loop ? fmod(t, fa.info.duration)
			                  : fmin(t, fa.info.duration);
		print_frame(&fig, pose, i, t, at);
	}
	printf("]}\n");
out:
	bb_pose_free(pose);
	figure_free(&fig);
	return rc;
}
