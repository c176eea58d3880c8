/* Figure options, loading, canvas planning and the threaded frame loop,
 * shared by render, pose and sheet. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figure.h"

enum {
	O_ARMATURE = FIG_OPT_BASE, O_SKIN, O_DIRECTION, O_ANIM, O_ALL, O_FPS,
	O_SCALE, O_SIZE, O_ORIGIN, O_PAD, O_BG, O_BONES, O_FLIP, O_OVERLAY,
	O_FACE, O_SET, O_JOBS, O_QUIET, O_ATLAS, O_LOOP, O_ONCE, O_CANVAS,
	O_PLACEHOLDER, O_MODEL3D, O_ASSETS, O_VIEW, O_PPU, O_DURATION,
	O_PROGRESS, O_DEPS, O_FILTER, O_OUTSIDE, O_PIXELS, O_STRICT,
	O_CANVAS_PIXELS
};

const struct option fig_options[] = {
	{ "armature", required_argument, NULL, O_ARMATURE },
	{ "skin", required_argument, NULL, O_SKIN },
	{ "direction", required_argument, NULL, O_DIRECTION },
	{ "anim", required_argument, NULL, O_ANIM },
	{ "all", no_argument, NULL, O_ALL },
	{ "fps", required_argument, NULL, O_FPS },
	{ "scale", required_argument, NULL, O_SCALE },
	{ "size", required_argument, NULL, O_SIZE },
	{ "origin", required_argument, NULL, O_ORIGIN },
	{ "pad", required_argument, NULL, O_PAD },
	{ "bg", required_argument, NULL, O_BG },
	{ "bones", no_argument, NULL, O_BONES },
	{ "flip", no_argument, NULL, O_FLIP },
	{ "overlay", required_argument, NULL, O_OVERLAY },
	{ "face", required_argument, NULL, O_FACE },
	{ "set", required_argument, NULL, O_SET },
	{ "jobs", required_argument, NULL, O_JOBS },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "atlas", required_argument, NULL, O_ATLAS },
	{ "loop", no_argument, NULL, O_LOOP },
	{ "once", no_argument, NULL, O_ONCE },
	{ "canvas", required_argument, NULL, O_CANVAS },
	{ "placeholder", no_argument, NULL, O_PLACEHOLDER },
	{ "model", required_argument, NULL, O_MODEL3D },
	{ "assets", required_argument, NULL, O_ASSETS },
	{ "view", required_argument, NULL, O_VIEW },
	{ "pixels-per-unit", required_argument, NULL, O_PPU },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "progress", required_argument, NULL, O_PROGRESS },
	{ "deps", required_argument, NULL, O_DEPS },
	{ "filter", required_argument, NULL, O_FILTER },
	{ "allow-outside-paths", no_argument, NULL, O_OUTSIDE },
	{ "max-image-pixels", required_argument, NULL, O_PIXELS },
	{ "strict", no_argument, NULL, O_STRICT },
	{ "max-canvas-pixels", required_argument, NULL, O_CANVAS_PIXELS },
};
const int fig_noptions = sizeof fig_options / sizeof fig_options[0];

const char fig_help[] =
	"Choosing what to render:\n"
	"  --anim NAME          an animation (repeatable; default: all of them)\n"
	"  --all                every animation of every armature (not with\n"
	"                       --anim)\n"
	"  --armature NAME      armature to render (default: the one with the most\n"
	"                       bones that no other nests; `info` marks it)\n"
	"  --direction front|back, --skin NAME\n"
	"                       which attachments/skin (and draw order) to use;\n"
	"                       --skin again layers another skin over it (Spine)\n"
	"  --overlay NAME[@T]   upper-body overlay animation starting at T s\n"
	"  --face NAME[@T]      face-layer animation starting at T s\n"
	"  --set BONE=VARIANT   attachment variant (e.g. hand_L=fist; repeatable)\n"
	"  --flip               mirror horizontally about the figure origin\n"
	"  --bones              draw bones and joints on top\n"
	"  --atlas FILE         texture atlas to use instead of the default\n"
	"  --placeholder        draw missing images as outlined boxes (SSAJSON)\n"
	"  --model FILE         block model a joint file animates (Forge; default:\n"
	"                       assets/<mod>/models/... beside armatures/...)\n"
	"  --assets DIR         resource folder for parent models and textures\n"
	"  --allow-outside-paths\n"
	"                       read the files the input references wherever\n"
	"                       they are (default: only inside the input's\n"
	"                       folder, --assets, and the --atlas/--model\n"
	"                       files' folders)\n"
	"  --max-image-pixels N refuse textures of more than N pixels (or NM: N\n"
	"                       million), from their header (default 64M; all\n"
	"                       of a file's textures together: twice that)\n"
	"  --max-canvas-pixels N refuse a canvas (width x height) of more than\n"
	"                       N pixels (or NM: N million), from the plan,\n"
	"                       before drawing (default 32M)\n"
	"  --view front|back|left|right|top|iso\n"
	"                       how 3D models are seen (default iso)\n"
	"  --pixels-per-unit N  pixels per 3D model unit (default 8)\n"
	"Sampling and canvas:\n"
	"  --loop, --once       play the animation looping / once, whatever the\n"
	"                       file says (frame count and end pose follow)\n"
	"  --fps N              frames per second (default: the file's, 30)\n"
	"  --duration S         one animation cycle stretched over S seconds\n"
	"  --scale S            pixels per unit (default 1)\n"
	"  --pad N              pixels around the union of all frames' bounds (2)\n"
	"  --size WxH --origin X,Y\n"
	"                       fixed canvas and origin pixel instead\n"
	"  --canvas auto|union|native\n"
	"                       auto: each animation's drawn bounds (default;\n"
	"                       sheet: union); union: one canvas and origin for\n"
	"                       every animation of an armature (the union of\n"
	"                       their bounds; see info --bounds); native: the\n"
	"                       file's own canvas and origin (SSAJSON)\n"
	"  --bg COLOR           background: #rrggbb[aa], white... (transparent)\n"
	"  --filter fast|good|best\n"
	"                       texture sampling when drawn smaller (default good)\n"
	"  --jobs N             render threads (default: CPUs); output is the same\n"
	"  --deps FILE          write the files the input was read from (the\n"
	"                       input, atlases, textures, models) to FILE as\n"
	"                       JSON {\"files\": [...]}, for build systems\n"
	"  --quiet              no progress line, no summary\n"
	"  --strict             every warning (missing atlas or region, blank\n"
	"                       frame, a canvas that cuts the figure) is an\n"
	"                       error: exit 3 and nothing written\n"
	"  --progress auto|line|json|none\n"
	"                       progress on stderr: auto (default) a line when\n"
	"                       stderr is a terminal; json: one object per line\n"
	"                       {\"progress\", \"done\", \"total\", \"rate\", \"eta\"}\n";

void fig_opts_init(fig_opts *o)
{
	memset(o, 0, sizeof *o);
	o->scale = 1;
	o->pad = 2;
}

void fig_merge_options(const struct option *own, struct option *out, int n)
{
	int k = 0, i;

	for (i = 0; own[i].name && k < n - 1; i++)
		out[k++] = own[i];
	for (i = 0; i < fig_noptions && k < n - 1; i++)
		out[k++] = fig_options[i];
	memset(&out[k], 0, sizeof out[k]);
}

/* "NAME" or "NAME@T" into buf/name and *at. */
static int parse_layer(const char *arg, char *buf, size_t size,
                       const char **name, double *at)
{
	char *amp;

	if (strlen(arg) >= size || !arg[0])
		return 0;
	strcpy(buf, arg);
	*at = 0;
	amp = strrchr(buf, '@');
	if (amp) {
		*amp = '\0';
		if (!cli_parse_double(amp + 1, at) || *at < 0 || !buf[0])
			return 0;
	}
	*name = buf;
	return 1;
}

static int parse_view(fig_opts *o, const char *arg, const char *cmd)
{
	static const char *const names[] = { "iso", "front", "back", "left",
	                                     "right", "top" };
	int i;

	for (i = 0; i < 6; i++)
		if (strcmp(arg, names[i]) == 0) {
			o->view3d.kind = (bb_view3d_kind)i;
			return 1;
		}
	cli_usage_error(cmd, "--view takes front, back, left, right, top or iso, "
	                "not '%s'", arg);
	return -1;
}

int fig_parse(fig_opts *o, int id, const char *arg, const char *cmd)
{
	switch (id) {
	case O_ARMATURE: o->armature = arg; return 1;
	case O_SKIN:
		if (!o->skin) {
			o->skin = arg;
		} else if (o->n_more_skins < BB_MAX_SKIN_LAYERS) {
			o->more_skins[o->n_more_skins++] = arg;
		} else {
			cli_usage_error(cmd, "at most %d --skin options", BB_MAX_SKIN_LAYERS + 1);
			return -1;
		}
		return 1;
	case O_DIRECTION:
		if (strcmp(arg, "front") != 0 && strcmp(arg, "back") != 0) {
			cli_usage_error(cmd, "--direction takes front or back, not '%s'", arg);
			return -1;
		}
		o->skin = arg;
		return 1;
	case O_ANIM:
		if (o->nanims >= FIG_MAX_ANIMS) {
			cli_usage_error(cmd, "too many --anim options");
			return -1;
		}
		o->anims[o->nanims++] = arg;
		return 1;
	case O_ALL: o->all = 1; return 1;
	case O_FPS:
		if (!cli_parse_double(arg, &o->fps) || o->fps <= 0 || o->fps > 1000) {
			cli_usage_error(cmd, "--fps takes a number in (0, 1000], not '%s'", arg);
			return -1;
		}
		return 1;
	case O_SCALE:
		if (!cli_parse_double(arg, &o->scale) || o->scale < 1e-4 || o->scale > 100) {
			cli_usage_error(cmd, "--scale takes a number in [0.0001, 100], not '%s'",
			                arg);
			return -1;
		}
		return 1;
	case O_SIZE:
		if (!cli_parse_size(arg, &o->size_w, &o->size_h) ||
		    o->size_w > bb_limits_default().max_canvas ||
		    o->size_h > bb_limits_default().max_canvas) {
			cli_usage_error(cmd, "--size takes WxH (at most %d each), not '%s'",
			                bb_limits_default().max_canvas, arg);
			return -1;
		}
		o->has_size = 1;
		return 1;
	case O_ORIGIN:
		if (!cli_parse_xy(arg, &o->origin_x, &o->origin_y)) {
			cli_usage_error(cmd, "--origin takes X,Y, not '%s'", arg);
			return -1;
		}
		o->has_origin = 1;
		return 1;
	case O_PAD:
		if (!cli_parse_int(arg, 0, 4096, &o->pad)) {
			cli_usage_error(cmd, "--pad takes an integer 0..4096, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_BG:
		if (!bb_parse_color(arg, &o->bg)) {
			cli_usage_error(cmd, "--bg: cannot read colour '%s'", arg);
			return -1;
		}
		return 1;
	case O_BONES: o->bones = 1; return 1;
	case O_FLIP: o->flip = 1; return 1;
	case O_OVERLAY:
		if (!parse_layer(arg, o->overlay_buf, sizeof o->overlay_buf,
		                 &o->overlay, &o->overlay_at)) {
			cli_usage_error(cmd, "--overlay takes NAME or NAME@SECONDS, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_FACE:
		if (!parse_layer(arg, o->face_buf, sizeof o->face_buf, &o->face,
		                 &o->face_at)) {
			cli_usage_error(cmd, "--face takes NAME or NAME@SECONDS, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_SET:
		if (!strchr(arg, '=') || o->nsets >= FIG_MAX_SETS) {
			cli_usage_error(cmd, "--set takes BONE=VARIANT, not '%s'", arg);
			return -1;
		}
		o->sets[o->nsets++] = arg;
		return 1;
	case O_JOBS:
		if (!cli_parse_int(arg, 1, 256, &o->jobs)) {
			cli_usage_error(cmd, "--jobs takes an integer 1..256, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_QUIET: o->quiet = 1; return 1;
	case O_DEPS: o->deps = arg; return 1;
	case O_PROGRESS:
		if (!cli_parse_progress(arg, &o->progress)) {
			cli_usage_error(cmd, "--progress takes auto, line, json or none, "
			                "not '%s'", arg);
			return -1;
		}
		return 1;
	case O_ATLAS: o->atlas = arg; return 1;
	case O_CANVAS:
		if (strcmp(arg, "auto") != 0 && strcmp(arg, "native") != 0 &&
		    strcmp(arg, "union") != 0) {
			cli_usage_error(cmd, "--canvas takes auto, union or native, not "
			                "'%s'", arg);
			return -1;
		}
		o->canvas_native = strcmp(arg, "native") == 0;
		o->canvas_union = strcmp(arg, "union") == 0;
		o->canvas_set = 1;
		return 1;
	case O_STRICT: o->strict = 1; return 1;
	case O_PLACEHOLDER: o->placeholder = 1; return 1;
	case O_MODEL3D: o->model3d = arg; return 1;
	case O_ASSETS: o->assets = arg; return 1;
	case O_OUTSIDE: o->allow_outside = 1; return 1;
	case O_PIXELS:
		if (!cli_parse_pixels(arg, &o->max_pixels)) {
			cli_usage_error(cmd, "--max-image-pixels takes N or NM (millions), "
			                "1..1024M, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_CANVAS_PIXELS:
		if (!cli_parse_pixels(arg, &o->max_canvas_pixels)) {
			cli_usage_error(cmd, "--max-canvas-pixels takes N or NM (millions), "
			                "1..1024M, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_VIEW: return parse_view(o, arg, cmd);
	case O_PPU:
		if (!cli_parse_double(arg, &o->view3d.pixels_per_unit) ||
		    o->view3d.pixels_per_unit <= 0 || o->view3d.pixels_per_unit > 1000) {
			cli_usage_error(cmd, "--pixels-per-unit takes a number in (0, 1000], "
			                "not '%s'", arg);
			return -1;
		}
		return 1;
	case O_DURATION:
		if (!cli_parse_double(arg, &o->duration) || o->duration <= 0 ||
		    o->duration > 3600) {
			cli_usage_error(cmd, "--duration takes seconds in (0, 3600], not '%s'",
			                arg);
			return -1;
		}
		return 1;
	case O_FILTER:
		if (strcmp(arg, "fast") == 0) o->filter = BB_FILTER_FAST;
		else if (strcmp(arg, "good") == 0) o->filter = BB_FILTER_GOOD;
		else if (strcmp(arg, "best") == 0) o->filter = BB_FILTER_BEST;
		else {
			cli_usage_error(cmd, "--filter takes fast, good or best, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_LOOP: o->loop_mode = 1; return 1;
	case O_ONCE: o->loop_mode = 2; return 1;
	}
	return 0;
}

static void list_names(char *buf, size_t size, const bb_model *m, int arm,
                       int anims)
{
	size_t n = 0;
	int i, count = anims ? bb_model_anim_count(m, arm) : bb_model_skin_count(m, arm);

	buf[0] = '\0';
	for (i = 0; i < count && n + 4 < size; i++) {
		bb_anim_info ai;
		const char *name;

		if (anims) {
			bb_model_anim_info(m, arm, i, &ai);
			name = ai.name;
		} else {
			name = bb_model_skin_name(m, arm, i);
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", name);
	}
}

static int name_error(const figure *f, const char *path, const char *what,
                      const char *name, int anims)
{
	char names[512];

	list_names(names, sizeof names, f->model, f->scene.armature, anims);
	cli_error("%s: unknown %s \"%s\" (the file has: %s)",
	        path, what, name, names[0] ? names : "none");
	return EXIT_USAGE;
}

static int find_anim(const figure *f, const char *path, const char *name, int *out)
{
	*out = bb_model_find_anim(f->model, f->scene.armature, name);
	return *out < 0 ? name_error(f, path, "animation", name, 1) : 0;
}

static int resolve_sets(figure *f, const fig_opts *o, const char *path)
{
	bb_eval_options *ev = &f->scene.eval;
	int i, arm = f->scene.armature;

	for (i = 0; i < o->nsets; i++) {
		char bone[FIG_NAME_MAX];
		const char *eq = strchr(o->sets[i], '=');
		int slot, disp;

		snprintf(bone, sizeof bone, "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
		slot = bb_model_find_slot(f->model, arm, bone);
		if (slot < 0) {
			cli_error("%s: --set: no drawn bone or slot \"%s\"",
			        path, bone);
			return EXIT_USAGE;
		}
		disp = bb_model_find_slot_display(f->model, arm, slot, eq + 1);
		if (disp < 0) {
			cli_error("%s: --set: \"%s\" has no variant \"%s\"",
			        path, bone, eq + 1);
			return EXIT_USAGE;
		}
		ev->overrides[ev->n_overrides].slot = slot;
		ev->overrides[ev->n_overrides].display = disp;
		ev->n_overrides++;
	}
	return 0;
}

/* The scene o asks for on armature `armature`, names not yet resolved. */
static bb_scene base_scene(const fig_opts *o, int armature)
{
	bb_scene sc;

	memset(&sc, 0, sizeof sc);
	sc.armature = armature;
	sc.loop = (bb_loop_mode)o->loop_mode;
	sc.cycle = o->duration;
	sc.fps = o->fps;
	sc.overlay_start = o->overlay_at;
	sc.face_start = o->face_at;
	sc.eval.flip = o->flip;
	sc.eval.show_bones = o->bones;
	sc.eval.view3d = o->view3d;
	return sc;
}

static int select_anims(figure *f, const fig_opts *o, const char *path)
{
	int i, rc, n;

	free(f->anims);
	f->anims = NULL;
	f->nanims = 0;
	n = o->nanims && !o->all ? o->nanims
	  : bb_model_anim_count(f->model, f->scene.armature);
	if (n > 0 && !(f->anims = calloc((size_t)n, sizeof *f->anims)))
		return EXIT_INTERNAL;
	if (o->nanims && !o->all) {
		for (i = 0; i < n; i++)
			if ((rc = find_anim(f, path, o->anims[i], &f->anims[f->nanims++])) != 0)
				return rc;
	} else {
		for (i = 0; i < n; i++)
			f->anims[f->nanims++] = i;
	}
	return 0;
}

int figure_select(figure *f, const fig_opts *o, int armature, const char *path)
{
	bb_armature_info ai;
	int i, rc;

	f->scene = base_scene(o, armature);
	bb_model_armature_info(f->model, armature, &ai);
	if (o->skin) {
		f->scene.eval.skin = bb_model_find_skin(f->model, armature, o->skin);
		if (f->scene.eval.skin < 0) {
			f->scene.eval.skin = 0;
			return name_error(f, path, "direction/skin", o->skin, 0);
		}
	}
	for (i = 0; i < o->n_more_skins; i++) {
		int k = bb_model_find_skin(f->model, armature, o->more_skins[i]);

		if (k < 0)
			return name_error(f, path, "skin", o->more_skins[i], 0);
		f->scene.eval.more_skins[f->scene.eval.n_more_skins++] = k;
	}
	if ((rc = resolve_sets(f, o, path)) != 0)
		return rc;
	if (o->overlay) {
		if ((rc = find_anim(f, path, o->overlay, &f->scene.overlay)) != 0)
			return rc;
		if (ai.overlay_mask < 0) {
			cli_error("%s: --overlay: armature \"%s\" defines "
			        "no upper-body bone set", path, ai.name);
			return EXIT_USAGE;
		}
		f->scene.has_overlay = 1;
	}
	if (o->face) {
		if ((rc = find_anim(f, path, o->face, &f->scene.face)) != 0)
			return rc;
		f->scene.has_face = 1;
	}
	return select_anims(f, o, path);
}

/* --deps FILE: {"files": [...]}, written atomically. */
static int write_deps(const bb_model *m, const char *file)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);
	bb_error err;
	int i, rc = 0;

	if (!out)
		return EXIT_INTERNAL;
	fprintf(out, "{\"files\": [");
	for (i = 0; i < bb_model_file_count(m); i++) {
		fprintf(out, "%s\n  ", i ? "," : "");
		cli_json_string(out, bb_model_file(m, i));
	}
	fprintf(out, "],\n \"missing\": [");
	for (i = 0; i < bb_model_missing_count(m); i++) {
		fprintf(out, "%s\n  ", i ? "," : "");
		cli_json_string(out, bb_model_missing(m, i));
	}
	fprintf(out, "]}\n");
	if (fclose(out) != 0)
		rc = EXIT_INTERNAL;
	else if (bb_file_write_atomic(file, buf, size, &err) != BB_OK)
		rc = cli_fail(&err);
	free(buf);
	return rc;
}

int figure_load(figure *f, const fig_opts *o, const char *path, const char *cmd)
{
	bb_load_options lo = { 0 };
	bb_error err;
	bb_status s;
	int i, armature;

	memset(f, 0, sizeof *f);
	f->cmd = cmd;
	if (o->all && o->nanims)   /* one would be ignored: say so */
		return cli_usage_error(cmd, "--all takes every animation of every "
		                       "armature; --anim picks some (with --armature)");
	lo.atlas_path = o->atlas;
	lo.placeholder = o->placeholder;
	lo.model_path = o->model3d;
	lo.assets_dir = o->assets;
	lo.allow_outside_paths = o->allow_outside;
	lo.max_image_pixels = o->max_pixels;
	lo.skip_pixels = o->no_pixels;
	s = bb_model_load(path, &lo, &f->model, &err);
	if (s != BB_OK)
		return cli_fail(&err);
	cli_warn_model(f->model);
	if (o->deps && (i = write_deps(f->model, o->deps)) != 0)
		return i;
	armature = bb_model_default_armature(f->model);
	if (o->armature) {
		armature = bb_model_find_armature(f->model, o->armature);
		if (armature < 0) {
			char names[512];
			size_t n = 0;

			names[0] = '\0';
			for (i = 0; i < bb_model_armature_count(f->model) && n + 4 < sizeof names; i++) {
				bb_armature_info ai;

				bb_model_armature_info(f->model, i, &ai);
				n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
				                      i ? ", " : "", ai.name);
			}
			cli_error("%s: unknown armature \"%s\" (the file "
			        "has: %s)", path, o->armature, names);
			return EXIT_USAGE;
		}
	}
	return figure_select(f, o, armature, path);
}

void figure_free(figure *f)
{
	bb_model_free(f->model);
	f->model = NULL;
	free(f->anims);
	f->anims = NULL;
	f->nanims = 0;
}

bb_canvas_options fig_canvas(const fig_opts *o)
{
	bb_canvas_options co;

	memset(&co, 0, sizeof co);
	co.scale = o->scale;
	co.pad = o->pad;
	co.background = o->bg;
	co.filter = o->filter;
	co.native = o->canvas_native;
	co.limits.max_canvas_pixels = (long long)o->max_canvas_pixels;
	if (o->has_size) {
		co.width = o->size_w;
		co.height = o->size_h;
		co.has_origin = o->has_origin;
		co.origin_x = o->origin_x;
		co.origin_y = o->origin_y;
	}
	return co;
}

int figure_plan(const figure *f, const fig_opts *o, int anim, bb_plan *out)
{
	bb_canvas_options co = fig_canvas(o);
	bb_scene sc = f->scene;
	bb_error err;

	if ((o->canvas_native || o->canvas_union) && o->has_size)
		return cli_usage_error(f->cmd, "--canvas %s and --size exclude "
		                       "each other", o->canvas_native ? "native"
		                       : "union");
	if (f->has_union) {
		co.has_bounds = 1;
		co.bounds = f->union_bounds;
	}
	sc.anim = anim;
	if (bb_plan_scene(f->model, &sc, &co, out, &err) != BB_OK)
		return cli_fail(&err);
	return 0;
}

/* ---- the frame loop with progress ------------------------------------ */

/* Frames that draw nothing (every pixel the same): a missing texture or
 * a figure outside the canvas. */
enum { BLANKS_LISTED = 8 };

struct blanks {
	long n;
	long first[BLANKS_LISTED];  /* the smallest frame numbers, sorted */
};

struct run {
	fig_sink sink;              /* any order (may be NULL) */
	void *user;
	fig_sink ordered;           /* frame order (may be NULL) */
	void *ordered_user;
	pthread_mutex_t lock;
	cli_progress *progress;
	struct blanks *blanks;
	int rc;                     /* the sink's exit code, which stops the run */
};

static int image_blank(const bb_image *img)
{
	const uint8_t *p0 = img->px;
	int x, y;

	for (y = 0; y < img->height; y++) {
		const uint8_t *row = img->px + (size_t)y * img->stride;

		for (x = 0; x < img->width; x++)
			if (memcmp(row + 4 * (size_t)x, p0, 4) != 0)
				return 0;
	}
	return 1;
}

static void blanks_init(struct blanks *b)
{
	b->n = 0;
}

static void blanks_add(struct blanks *b, long frame)
{
	long k = b->n < BLANKS_LISTED ? b->n : BLANKS_LISTED - 1;

	if (b->n >= BLANKS_LISTED && frame > b->first[k]) {
		b->n++;
		return;
	}
	for (; k > 0 && b->first[k - 1] > frame; k--)
		b->first[k] = b->first[k - 1];
	b->first[k] = frame;
	b->n++;
}

/* How warnings name a job's animation: with several armatures,
 * "<armature>/<anim>" as its output folder. */
static const char *job_label(const fig_job *j)
{
	return strchr(j->dir, '/') ? j->dir : j->plan.info.name;
}

static void blanks_warn(const fig_job *j, const struct blanks *b)
{
	char list[BLANKS_LISTED * 24 + 16];
	size_t len = 0;
	long k;

	if (b->n == 0)
		return;
	for (k = 0; k < b->n && k < BLANKS_LISTED; k++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%ld",
		                        k ? ", " : "", b->first[k]);
	if (b->n > BLANKS_LISTED)
		snprintf(list + len, sizeof list - len, ", ...");
	if (b->n == 1)
		cli_warn("animation \"%s\": frame %s is blank (nothing drawn on "
		         "the canvas)", job_label(j), list);
	else if (b->n == j->plan.frames)
		cli_warn("animation \"%s\": all %ld frames are blank (nothing "
		         "drawn on the canvas)", job_label(j), b->n);
	else
		cli_warn("animation \"%s\": %ld of %ld frames are blank (nothing "
		         "drawn on the canvas: frames %s)", job_label(j), b->n,
		         j->plan.frames, list);
}

/* A fixed or native canvas that cut the figure: a warning naming the
 * animation, its frames and the pixels lost. */
static void warn_cut(const fig_job *j, const bb_plan_fit *fit)
{
	if (fit->cut_frames == 0)
		return;
	cli_warn("animation \"%s\": the %dx%d canvas cuts the figure in %ld of "
	         "%ld frames (%ld..%ld; up to %.0f px of frame %ld's drawn box "
	         "lost); `bonebake info --bounds` prints a size that holds it",
	         job_label(j), j->plan.width, j->plan.height, fit->cut_frames,
	         j->plan.frames, fit->first, fit->last, fit->worst_lost,
	         fit->worst_frame);
}

/* Any order, on the worker that rendered the frame: the caller's sink,
 * then progress and the blank-frame count. */
static bb_status run_sink(void *user, void *state, long frame,
                          const bb_image *img, bb_error *err)
{
	struct run *r = user;
	int rc = r->sink ? r->sink(frame, img, r->user) : 0;
	int blank = rc == 0 && r->blanks && image_blank(img);

	(void)state;
	pthread_mutex_lock(&r->lock);
	if (blank)
		blanks_add(r->blanks, frame);
	if (rc && !r->rc)
		r->rc = rc;
	if (!rc && r->progress)
		cli_progress_step(r->progress, 1);
	pthread_mutex_unlock(&r->lock);
	/* the sink printed its own error: stop without another message */
	return rc ? bb_error_set(err, BB_ERR_IO, NULL, NULL, "stopped") : BB_OK;
}

/* Frame order, one call at a time (the library's ordered delivery). */
static bb_status run_ordered(void *user, long frame, const bb_image *img,
                             bb_error *err)
{
	struct run *r = user;
	int rc = r->ordered(frame, img, r->ordered_user);

	if (rc) {
		pthread_mutex_lock(&r->lock);
		if (!r->rc)
			r->rc = rc;
		pthread_mutex_unlock(&r->lock);
	}
	return rc ? bb_error_set(err, BB_ERR_IO, NULL, NULL, "stopped") : BB_OK;
}

void figure_progress_start(cli_progress *p, const char *cmd, const fig_opts *o,
                           const fig_job *jobs, int njobs)
{
	long total = 0;
	int i;

	for (i = 0; i < njobs; i++)
		total += jobs[i].plan.frames;
	cli_progress_start(p, cmd, total, o->quiet ? CLI_PROGRESS_QUIET : o->progress);
	cli_progress_unit(p, "frames");
}

/* Every frame of the job: `sink` in any order, `ordered` (may be NULL) in
 * frame order; then, with `warn`, the warnings about the frames: what a
 * fixed or native canvas cut (measured by the frame loop on the poses it
 * draws) and blank frames. */
static int render_job_frames(const fig_job *j, const fig_opts *o,
                             cli_progress *progress, fig_sink sink, void *user,
                             fig_sink ordered, void *ordered_user, int warn,
                             int argb32)
{
	struct blanks blanks;
	bb_plan_fit fit;
	struct run r;
	bb_frames_options fo;
	bb_error err;
	bb_status s;

	memset(&r, 0, sizeof r);
	r.sink = sink;
	r.user = user;
	r.ordered = ordered;
	r.ordered_user = ordered_user;
	r.progress = progress;
	r.blanks = warn ? &blanks : NULL;
	blanks_init(&blanks);
	memset(&fo, 0, sizeof fo);
	fo.jobs = o->jobs;
	if (warn && (o->has_size || o->canvas_native))
		fo.fit = &fit;
	fo.sink = run_sink;
	fo.user = &r;
	fo.argb32 = argb32;
	if (ordered) {
		fo.ordered = run_ordered;
		fo.ordered_user = &r;
	}
	pthread_mutex_init(&r.lock, NULL);
	s = bb_render_frames_opts(j->model, &j->scene, &j->plan, &fo, &err);
	pthread_mutex_destroy(&r.lock);
	if (r.rc)
		return r.rc;
	if (s != BB_OK)
		return cli_fail(&err);
	if (fo.fit)
		warn_cut(j, &fit);
	if (warn)
		blanks_warn(j, &blanks);
	return 0;
}

int figure_render(const fig_job *j, const fig_opts *o, cli_progress *progress,
                  fig_sink sink, void *user)
{
	return render_job_frames(j, o, progress, sink, user, NULL, NULL, 1, 0);
}

int figure_render_argb32(const fig_job *j, const fig_opts *o,
                         cli_progress *progress, fig_sink sink, void *user)
{
	return render_job_frames(j, o, progress, sink, user, NULL, NULL, 1, 1);
}

int figure_render_ordered(const fig_job *j, const fig_opts *o,
                          cli_progress *progress, fig_sink sink, void *user,
                          fig_sink ordered, void *ordered_user)
{
	return render_job_frames(j, o, progress, sink, user, ordered, ordered_user,
	                         1, 0);
}

int figure_render_again(const fig_job *j, const fig_opts *o, fig_sink ordered,
                        void *ordered_user)
{
	return render_job_frames(j, o, NULL, NULL, NULL, ordered, ordered_user, 0,
	                         0);
}

void fig_safe_name(const char *name, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", name[0] ? name : "_");
	for (i = 0; buf[i]; i++)
		if (buf[i] == '/' || buf[i] == ' ' || buf[i] == '\\' ||
		    (unsigned char)buf[i] < 0x20)
			buf[i] = '_';
	/* no hidden output folders ("." and ".." included): a leading dot
	 * becomes '_', so ".old-walk" is written as "_old-walk" and nothing
	 * can take the name of bonebake's own .bonebake-* files */
	if (buf[0] == '.')
		buf[0] = '_';
}

/* --canvas union: the bounds of every animation of f's armature. */
static int plan_union(figure *f, const fig_opts *o)
{
	bb_canvas_options co = fig_canvas(o);
	bb_error err;

	f->has_union = 0;
	if (!o->canvas_union)
		return 0;
	if (bb_plan_union(f->model, &f->scene, &co, &f->union_bounds, &err) != BB_OK)
		return cli_fail(&err);
	f->has_union = 1;
	return 0;
}

/* Appends one planned job for animation `anim` of f. */
static int add_job(figure *f, const fig_opts *o, int anim, const char *armdir,
                   fig_job **jobs, int *n, int *cap, const char *cmd)
{
	fig_job *j;
	int k, rc;

	if (*n == *cap) {
		int ncap = *cap ? 2 * *cap : 16;
		fig_job *nj = realloc(*jobs, (size_t)ncap * sizeof **jobs);

		if (!nj)
			return EXIT_INTERNAL;
		*jobs = nj;
		*cap = ncap;
	}
	j = &(*jobs)[*n];
	memset(j, 0, sizeof *j);
	j->model = f->model;
	j->scene = f->scene;
	j->scene.anim = anim;
	if ((rc = figure_plan(f, o, anim, &j->plan)) != 0)
		return rc;
	(*n)++;
	fig_safe_name(j->plan.info.name, j->prefix, sizeof j->prefix);
	if (armdir)
		snprintf(j->dir, sizeof j->dir, "%s/%s", armdir, j->prefix);
	else
		snprintf(j->dir, sizeof j->dir, "%s", j->prefix);
	for (k = 0; k < *n - 1; k++)
		if (strcmp((*jobs)[k].dir, j->dir) == 0)
			return cli_usage_error(cmd, "two animations would both be named "
			                       "%s (named twice?)", j->dir);
	return 0;
}

int figure_plan_jobs(figure *base, const fig_opts *o, const char *path,
                     const char *cmd, fig_job **out, int *njobs)
{
	int narm = o->all ? bb_model_armature_count(base->model) : 1;
	int a, i, n = 0, cap = 0, rc = 0;
	fig_job *jobs = NULL;

	for (a = 0; a < narm && rc == 0; a++) {
		bb_armature_info ai;
		char armdir[FIG_NAME_MAX];

		if ((o->all && (rc = figure_select(base, o, a, path)) != 0) ||
		    (rc = plan_union(base, o)) != 0)
			break;
		bb_model_armature_info(base->model, base->scene.armature, &ai);
		fig_safe_name(ai.name, armdir, sizeof armdir);
		for (i = 0; i < base->nanims && rc == 0; i++)
			rc = add_job(base, o, base->anims[i], narm > 1 ? armdir : NULL,
			             &jobs, &n, &cap, cmd);
	}
	*out = jobs;
	*njobs = n;
	return rc;
}

int figure_strict_check(const fig_opts *o, const char *cmd)
{
	long n = cli_warning_count();

	if (!o->strict || n == 0)
		return 0;
	fprintf(stderr, "bonebake %s: --strict: %ld warning%s above, so nothing "
	        "was written\n", cmd, n, n == 1 ? "" : "s");
	return EXIT_INPUT;
}
