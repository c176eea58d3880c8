/* Figure options, loading, canvas planning and the threaded frame loop,
 * shared by render, pose and sheet. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figure.h"

enum {
	O_ARMATURE = FIG_OPT_BASE, O_SKIN, O_DIRECTION, O_ANIM, O_ALL, O_FPS,
	O_SCALE, O_SIZE, O_ORIGIN, O_PAD, O_BG, O_BONES, O_FLIP, O_OVERLAY,
	O_FACE, O_SET, O_JOBS, O_QUIET, O_ATLAS, O_LOOP, O_ONCE, O_CANVAS,
	O_PLACEHOLDER, O_MODEL3D, O_ASSETS, O_VIEW, O_PPU, O_DURATION, O_FILTER
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
	{ "filter", required_argument, NULL, O_FILTER },
};
const int fig_noptions = sizeof fig_options / sizeof fig_options[0];

const char fig_help[] =
	"Choosing what to render:\n"
	"  --anim NAME          an animation (repeatable; default: all of them)\n"
	"  --all                every animation of every armature\n"
	"  --armature NAME      armature to render (default: the file's first)\n"
	"  --direction front|back, --skin NAME\n"
	"                       which attachments/skin (and draw order) to use\n"
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
	"  --canvas auto|native auto: the drawn bounds (default); native: the\n"
	"                       file's own canvas and origin (SSAJSON)\n"
	"  --bg COLOR           background: #rrggbb[aa], white... (transparent)\n"
	"  --filter fast|good|best\n"
	"                       texture sampling when drawn smaller (default good)\n"
	"  --jobs N             render threads (default: CPUs); output is the same\n"
	"  --quiet              no progress line\n";

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
	case O_SKIN: o->skin = arg; return 1;
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
		if (!cli_parse_double(arg, &o->scale) || o->scale <= 0 || o->scale > 100) {
			cli_usage_error(cmd, "--scale takes a number in (0, 100], not '%s'", arg);
			return -1;
		}
		return 1;
	case O_SIZE:
		if (!cli_parse_size(arg, &o->size_w, &o->size_h) ||
		    o->size_w > 16384 || o->size_h > 16384) {
			cli_usage_error(cmd, "--size takes WxH (at most 16384 each), not '%s'", arg);
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
	case O_ATLAS: o->atlas = arg; return 1;
	case O_CANVAS:
		if (strcmp(arg, "auto") != 0 && strcmp(arg, "native") != 0) {
			cli_usage_error(cmd, "--canvas takes auto or native, not '%s'", arg);
			return -1;
		}
		o->canvas_native = strcmp(arg, "native") == 0;
		return 1;
	case O_PLACEHOLDER: o->placeholder = 1; return 1;
	case O_MODEL3D: o->model3d = arg; return 1;
	case O_ASSETS: o->assets = arg; return 1;
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

	list_names(names, sizeof names, f->model, f->armature, anims);
	fprintf(stderr, "bonebake: %s: unknown %s \"%s\" (the file has: %s)\n",
	        path, what, name, names[0] ? names : "none");
	return EXIT_USAGE;
}

static int find_anim(const figure *f, const char *path, const char *name, int *out)
{
	*out = bb_model_find_anim(f->model, f->armature, name);
	return *out < 0 ? name_error(f, path, "animation", name, 1) : 0;
}

static int resolve_sets(figure *f, const fig_opts *o, const char *path)
{
	int i;

	for (i = 0; i < o->nsets; i++) {
		char bone[256];
		const char *eq = strchr(o->sets[i], '=');
		int slot, disp;

		snprintf(bone, sizeof bone, "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
		slot = bb_model_find_slot(f->model, f->armature, bone);
		if (slot < 0) {
			fprintf(stderr, "bonebake: %s: --set: no drawn bone or slot \"%s\"\n",
			        path, bone);
			return EXIT_USAGE;
		}
		disp = bb_model_find_slot_display(f->model, f->armature, slot, eq + 1);
		if (disp < 0) {
			fprintf(stderr, "bonebake: %s: --set: \"%s\" has no variant \"%s\"\n",
			        path, bone, eq + 1);
			return EXIT_USAGE;
		}
		f->eval.overrides[f->eval.n_overrides].slot = slot;
		f->eval.overrides[f->eval.n_overrides].display = disp;
		f->eval.n_overrides++;
	}
	return 0;
}

int figure_select(figure *f, const fig_opts *o, int armature, const char *path)
{
	bb_armature_info ai;
	int i, rc, n;

	f->armature = armature;
	f->overlay_anim = f->face_anim = f->mask = -1;
	f->nanims = 0;
	memset(&f->eval, 0, sizeof f->eval);
	bb_model_armature_info(f->model, f->armature, &ai);
	f->fps = o->fps > 0 ? o->fps : ai.fps > 0 ? ai.fps : 30;
	f->eval.flip = o->flip;
	f->loop_mode = o->loop_mode;
	f->eval.show_bones = o->bones;
	f->eval.view3d = o->view3d;
	f->duration = o->duration;
	if (o->skin) {
		f->eval.skin = bb_model_find_skin(f->model, f->armature, o->skin);
		if (f->eval.skin < 0) {
			f->eval.skin = 0;
			return name_error(f, path, "direction/skin", o->skin, 0);
		}
	}
	if ((rc = resolve_sets(f, o, path)) != 0)
		return rc;
	if (o->overlay) {
		if ((rc = find_anim(f, path, o->overlay, &f->overlay_anim)) != 0)
			return rc;
		f->mask = bb_model_find_mask(f->model, f->armature, "upperBody");
		if (f->mask < 0) {
			fprintf(stderr, "bonebake: %s: --overlay: the file defines no "
			        "upperBody bone set\n", path);
			return EXIT_USAGE;
		}
	}
	if (o->face && (rc = find_anim(f, path, o->face, &f->face_anim)) != 0)
		return rc;
	for (i = 0; i < o->nanims && !o->all; i++)
		if ((rc = find_anim(f, path, o->anims[i], &f->anims[f->nanims++])) != 0)
			return rc;
	if (o->nanims == 0 || o->all) {
		n = bb_model_anim_count(f->model, f->armature);
		for (i = 0; i < n && i < FIG_MAX_ANIMS; i++)
			f->anims[f->nanims++] = i;
	}
	return 0;
}

int figure_load(figure *f, const fig_opts *o, const char *path, const char *cmd)
{
	bb_load_options lo = { 0 };
	bb_error err;
	bb_status s;
	int i, armature;

	memset(f, 0, sizeof *f);
	f->overlay_anim = f->face_anim = f->mask = -1;
	lo.atlas_path = o->atlas;
	lo.placeholder = o->placeholder;
	lo.model_path = o->model3d;
	lo.assets_dir = o->assets;
	s = bb_model_load(path, &lo, &f->model, &err);
	if (s != BB_OK)
		return cli_fail(&err);
	for (i = 0; i < bb_model_warning_count(f->model); i++)
		cli_warn("%s", bb_model_warning(f->model, i));
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
			fprintf(stderr, "bonebake: %s: unknown armature \"%s\" (the file "
			        "has: %s)\n", path, o->armature, names);
			return EXIT_USAGE;
		}
	}
	(void)cmd;
	return figure_select(f, o, armature, path);
}

void figure_free(figure *f)
{
	bb_model_free(f->model);
	f->model = NULL;
}

int figure_tracks(const figure *f, int anim, bb_track *tracks)
{
	bb_anim_info ai;
	int n = 0;

	bb_model_anim_info(f->model, f->armature, anim, &ai);
	tracks[n++] = (bb_track){ anim, 0, -1, 0, f->loop_mode,
	                          f->duration > 0 && ai.duration > 0
	                          ? ai.duration / f->duration : 0 };
	if (f->overlay_anim >= 0)
		tracks[n++] = (bb_track){ f->overlay_anim, 0, f->mask, 1, 0, 0 };
	if (f->face_anim >= 0)
		tracks[n++] = (bb_track){ f->face_anim, 0, -1, 1, 0, 0 };
	return n;
}

double fig_anim_to_figure_time(const fig_anim *fa, double t)
{
	return fa->speed > 0 ? t / fa->speed : t;
}

double fig_frame_time(const fig_anim *fa, long i)
{
	return (double)i / fa->fps;
}

static void set_layer_starts(const figure *f, const fig_opts *o, bb_track *t,
                             int n)
{
	int k = 1;

	if (f->overlay_anim >= 0 && k < n)
		t[k++].start = o->overlay_at;
	if (f->face_anim >= 0 && k < n)
		t[k++].start = o->face_at;
}

/* --canvas native: the format's own canvas and origin pixel, scaled. */
static int plan_native(const fig_opts *o, fig_anim *fa)
{
	double w = ceil(fa->info.stage_w * o->scale - 1e-9);
	double h = ceil(fa->info.stage_h * o->scale - 1e-9);

	if (o->has_size) {
		cli_usage_error("render", "--canvas native and --size exclude each other");
		return EXIT_USAGE;
	}
	if (!fa->info.has_stage) {
		fprintf(stderr, "bonebake: animation \"%s\": --canvas native: the "
		        "file defines no canvas for it\n", fa->info.name);
		return EXIT_USAGE;
	}
	if (w > 16384 || h > 16384) {
		fprintf(stderr, "bonebake: animation \"%s\": canvas %.0fx%.0f px "
		        "exceeds the 16384 px limit\n", fa->info.name, w, h);
		return EXIT_INPUT;
	}
	fa->width = w < 1 ? 1 : (int)w;
	fa->height = h < 1 ? 1 : (int)h;
	fa->view.origin_x = fa->info.stage_x * o->scale;
	fa->view.origin_y = fa->info.stage_y * o->scale;
	return 0;
}

int figure_plan(const figure *f, const fig_opts *o, int anim, fig_anim *fa)
{
	bb_track tracks[BB_MAX_TRACKS];
	bb_bounds b = bb_bounds_empty();
	bb_pose *pose;
	bb_error err;
	double s = o->scale, px0, py0, px1, py1;
	long i;
	int n;

	memset(fa, 0, sizeof *fa);
	fa->anim = anim;
	bb_model_anim_info(f->model, f->armature, anim, &fa->info);
	/* --fps, else the animation's own rate (f->fps holds --fps or the
	 * armature's) */
	fa->fps = o->fps > 0 ? o->fps : fa->info.fps > 0 ? fa->info.fps : f->fps;
	if (f->loop_mode)
		fa->info.loop = f->loop_mode == 1;
	fa->speed = 1;
	if (o->duration > 0 && fa->info.duration > 0) {
		/* --duration: one cycle over that many seconds */
		fa->speed = fa->info.duration / o->duration;
		fa->info.duration = o->duration;
	}
	fa->frames = bb_frame_count(fa->info.duration, fa->fps, fa->info.loop);
	if (fa->frames > 100000) {
		fprintf(stderr, "bonebake: animation \"%s\": %ld frames exceed the "
		        "limit of 100000\n", fa->info.name, fa->frames);
		return EXIT_INPUT;
	}
	fa->view.scale = s;
	fa->view.background = o->bg;
	fa->view.filter = o->filter;
	if (o->canvas_native)
		return plan_native(o, fa);
	if (o->has_size) {
		fa->width = o->size_w;
		fa->height = o->size_h;
		fa->view.origin_x = o->has_origin ? o->origin_x : o->size_w / 2.0;
		fa->view.origin_y = o->has_origin ? o->origin_y : o->size_h / 2.0;
		return 0;
	}
	if (bb_pose_new(f->model, f->armature, &pose, &err) != BB_OK)
		return cli_fail(&err);
	n = figure_tracks(f, anim, tracks);
	set_layer_starts(f, o, tracks, n);
	for (i = 0; i < fa->frames; i++) {
		if (bb_pose_eval(pose, tracks, n, fig_frame_time(fa, i), &f->eval,
		                 &err) != BB_OK) {
			bb_pose_free(pose);
			return cli_fail(&err);
		}
		bb_bounds_union(&b, bb_drawlist_bounds(bb_pose_drawlist(pose)));
	}
	bb_pose_free(pose);
	if (bb_bounds_is_empty(b))
		b.x0 = b.y0 = b.x1 = b.y1 = 0;
	px0 = floor(b.x0 * s);
	py0 = floor(b.y0 * s);
	px1 = ceil(b.x1 * s);
	py1 = ceil(b.y1 * s);
	if (px1 - px0 + 2.0 * o->pad > 16384 || py1 - py0 + 2.0 * o->pad > 16384) {
		fprintf(stderr, "bonebake: animation \"%s\": drawn area %.0fx%.0f px "
		        "exceeds the 16384 px canvas limit (use --size/--origin or "
		        "--scale)\n", fa->info.name, px1 - px0, py1 - py0);
		return EXIT_INPUT;
	}
	fa->width = (int)(px1 - px0) + 2 * o->pad;
	fa->height = (int)(py1 - py0) + 2 * o->pad;
	if (fa->width < 1) fa->width = 1;
	if (fa->height < 1) fa->height = 1;
	fa->view.origin_x = o->pad - px0;
	fa->view.origin_y = o->pad - py0;
	return 0;
}

/* ---- threaded frame loop ---------------------------------------------- */

struct run {
	const figure *f;
	const fig_opts *o;
	const fig_anim *fa;
	fig_sink sink;
	void *user;
	pthread_mutex_t lock;
	long next;
	int rc;
	cli_progress progress;
	bb_error err;
};

static long take(struct run *r)
{
	long i;

	pthread_mutex_lock(&r->lock);
	i = r->rc ? -1 : r->next < r->fa->frames ? r->next++ : -1;
	pthread_mutex_unlock(&r->lock);
	return i;
}

static void finish(struct run *r, int rc, const bb_error *err)
{
	pthread_mutex_lock(&r->lock);
	if (rc && !r->rc) {
		r->rc = rc;
		if (err)
			r->err = *err;
	}
	if (!rc)
		cli_progress_step(&r->progress, 1);
	pthread_mutex_unlock(&r->lock);
}

static void *worker(void *arg)
{
	struct run *r = arg;
	bb_track tracks[BB_MAX_TRACKS];
	bb_pose *pose = NULL;
	bb_renderer *rend = NULL;
	bb_image *img = NULL;
	bb_error err;
	int n = figure_tracks(r->f, r->fa->anim, tracks);
	long i;

	set_layer_starts(r->f, r->o, tracks, n);
	if (bb_pose_new(r->f->model, r->f->armature, &pose, &err) != BB_OK ||
	    bb_renderer_new(&rend, &err) != BB_OK ||
	    bb_image_new(r->fa->width, r->fa->height, &img, &err) != BB_OK) {
		finish(r, cli_exit_code(err.status), &err);
		goto done;
	}
	while ((i = take(r)) >= 0) {
		int rc;

		if (bb_pose_eval(pose, tracks, n, fig_frame_time(r->fa, i),
		                 &r->f->eval, &err) != BB_OK ||
		    bb_render(rend, bb_pose_drawlist(pose), &r->fa->view, img,
		              &err) != BB_OK) {
			finish(r, cli_exit_code(err.status), &err);
			break;
		}
		rc = r->sink(i, img, r->user);
		finish(r, rc, NULL);
		if (rc)
			break;
	}
done:
	bb_image_free(img);
	bb_renderer_free(rend);
	bb_pose_free(pose);
	return NULL;
}

int figure_render(const figure *f, const fig_opts *o, const fig_anim *fa,
                  fig_sink sink, void *user)
{
	struct run r;
	pthread_t th[256];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = o->jobs > 0 ? o->jobs : (int)(cpus > 0 ? cpus : 1), i, started = 0;
	char label[300];

	if (jobs > 256)
		jobs = 256;
	if (jobs > fa->frames)
		jobs = (int)fa->frames;
	memset(&r, 0, sizeof r);
	r.f = f;
	r.o = o;
	r.fa = fa;
	r.sink = sink;
	r.user = user;
	pthread_mutex_init(&r.lock, NULL);
	snprintf(label, sizeof label, "%s:", fa->info.name);
	cli_progress_start(&r.progress, label, fa->frames, o->quiet);
	for (i = 1; i < jobs; i++)
		if (pthread_create(&th[i], NULL, worker, &r) == 0)
			started = i;
		else
			break;
	worker(&r);
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	cli_progress_end(&r.progress);
	pthread_mutex_destroy(&r.lock);
	if (r.rc && r.err.message[0])
		cli_fail(&r.err);
	return r.rc;
}

void fig_safe_name(const char *name, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", name[0] ? name : "_");
	for (i = 0; buf[i]; i++)
		if (buf[i] == '/' || buf[i] == ' ' || buf[i] == '\\' ||
		    (unsigned char)buf[i] < 0x20)
			buf[i] = '_';
	if (strcmp(buf, ".") == 0 || strcmp(buf, "..") == 0)
		buf[0] = '_';
}

int figure_plan_jobs(figure *base, const fig_opts *o, const char *path,
                     const char *cmd, fig_job **out, int *njobs)
{
	int narm = o->all ? bb_model_armature_count(base->model) : 1;
	int a, i, k, n = 0, cap = 0, rc = 0;
	fig_job *jobs = NULL;

	for (a = 0; a < narm && rc == 0; a++) {
		figure f = *base;
		bb_armature_info ai;
		char armdir[256];

		if (o->all && (rc = figure_select(&f, o, a, path)) != 0)
			break;
		bb_model_armature_info(f.model, f.armature, &ai);
		fig_safe_name(ai.name, armdir, sizeof armdir);
		for (i = 0; i < f.nanims && rc == 0; i++) {
			fig_job *j;

			if (n == cap) {
				fig_job *nj = realloc(jobs, (size_t)(cap = cap ? 2 * cap : 16) *
				                            sizeof *jobs);
				if (!nj) {
					rc = EXIT_INTERNAL;
					break;
				}
				jobs = nj;
			}
			j = &jobs[n++];
			j->fig = f;
			if ((rc = figure_plan(&f, o, f.anims[i], &j->plan)) != 0)
				break;
			fig_safe_name(j->plan.info.name, j->prefix, sizeof j->prefix);
			if (narm > 1)
				snprintf(j->dir, sizeof j->dir, "%s/%s", armdir, j->prefix);
			else
				snprintf(j->dir, sizeof j->dir, "%s", j->prefix);
			for (k = 0; k < n - 1; k++)
				if (strcmp(jobs[k].dir, j->dir) == 0)
					rc = cli_usage_error(cmd, "two animations would both "
					                     "be named %s (named twice?)", j->dir);
		}
	}
	*out = jobs;
	*njobs = n;
	return rc;
}
