/* bonebake sheet FILE -o DIR: render animations and pack them into sprite
 * sheets with metadata, without writing loose frames. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "figure.h"
#include "outdir.h"
#include "pack-options.h"
#include "preview-out.h"

static const char help[] =
	"usage: bonebake sheet FILE -o DIR [render options] [pack options]\n"
	"\n"
	"Renders the chosen animations (as `bonebake render` would) and packs\n"
	"every frame into sprite-sheet pages with the metadata engines import.\n"
	"Frames are named <anim>_0000 ... (<armature>/<anim>_0000 with --all over\n"
	"several armatures), in playback order; each frame's pivot is the figure\n"
	"origin; animations carry their fps, loop flag and events where the\n"
	"format has a place for them.\n"
	"\n"
	"Canvas: one canvas and origin per armature by default (--canvas union),\n"
	"so every frame of every animation has the same untrimmed size and\n"
	"origin pixel and the figure stands still when a sprite switches\n"
	"animation, also in engines that place the untrimmed frame rather than\n"
	"the pivot (Godot, libGDX).  --canvas auto gives each animation its own\n"
	"canvas as render does (the figure then moves between animations there).\n"
	"\n"
	"  -o, --output DIR     output folder (created if missing)\n"
	"  --variants LIST      scale variants, each rendered again from the\n"
	"                       skeleton at --scale times its scale S and packed\n"
	"                       with the same options: S,... or LABEL=S,... (up\n"
	"                       to 8: 1,2 / @1x=1,@2x=2 / sd=0.5,hd=1).  S alone\n"
	"                       writes NAME@Sx.* (NAME.* for 1), the suffix\n"
	"                       PixiJS resolves; LABEL=S writes NAMELABEL.* for\n"
	"                       a label starting with @ (NAME@2x.*), else\n"
	"                       NAME-LABEL.*.  Every variant has every format,\n"
	"                       the same frame names in the same order, its\n"
	"                       pivots in its own pixels and meta.scale S.\n"
	"                       Without it meta.scale is 1, whatever --scale.\n"
	"  --preview {formats}\n"
	"                       also DIR/<anim>.<format>, an animated file or video\n"
	"                       of the same frames (see preview), written once the\n"
	"                       sheet is (from the variant at scale 1, or\n"
	"                       the first)\n"
	"  -h, --help           this text\n";

/* One job's frames, kept trimmed as they arrive (what the packer would
 * trim them to), so memory follows what is drawn, not the frame count
 * times the canvas. */
struct frames {
	bb_image **img;        /* one per frame of the job */
	int *x, *y;            /* each image's place in its frame */
	int trim;              /* keep only the drawn rectangle */
	int alpha_max;         /* the packer's trim threshold */
};

static int keep_frame(long i, const bb_image *img, void *user)
{
	struct frames *f = user;
	int x = 0, y = 0, w = img->width, h = img->height;

	if (f->trim) {
		bb_pack_trim(img, f->alpha_max, &x, &y, &w, &h);
		if (w == 0)            /* nothing drawn: one transparent pixel */
			x = y = 0, w = h = 1;
	}
	f->x[i] = x;
	f->y[i] = y;
	f->img[i] = bb_image_crop(img, x, y, w, h);
	return f->img[i] ? 0 : EXIT_INTERNAL;
}

/* Frame i of a job whole again (the previews want the canvas). */
static bb_image *whole_frame(const struct frames *f, long i, const bb_plan *p)
{
	const bb_image *c = f->img[i];
	bb_image *img;
	int r;

	if (bb_image_new(p->width, p->height, &img, NULL) != BB_OK)
		return NULL;
	for (r = 0; r < c->height; r++)
		memcpy(bb_image_pixel(img, f->x[i], f->y[i] + r), bb_image_pixel(c, 0, r),
		       (size_t)c->width * 4);
	return img;
}

struct sheet_run {
	fig_job *jobs;
	int njobs;
	struct frames *frames;
	bb_pack_input *in;
	bb_pack_anim *anims;
	bb_pack_event **events;
	char **names;
	size_t nin;
};

static void run_free(struct sheet_run *r)
{
	int j;
	long i;
	size_t k;

	for (j = 0; r->frames && j < r->njobs; j++) {
		for (i = 0; r->frames[j].img && i < r->jobs[j].plan.frames; i++)
			bb_image_free(r->frames[j].img[i]);
		free(r->frames[j].img);
		free(r->frames[j].x);
		free(r->frames[j].y);
	}
	for (j = 0; r->events && j < r->njobs; j++)
		free(r->events[j]);
	for (k = 0; r->names && k < r->nin; k++)
		free(r->names[k]);
	free(r->frames);
	free(r->events);
	free(r->names);
	free(r->in);
	free(r->anims);
	free(r->jobs);
}

/* Pack inputs and animations from the rendered frames. */
static int describe(struct sheet_run *r)
{
	size_t total = 0, k = 0;
	int j, e;
	long i;

	if (r->njobs <= 0)
		return EXIT_INTERNAL;
	for (j = 0; j < r->njobs; j++)
		total += (size_t)r->jobs[j].plan.frames;
	r->in = calloc(total ? total : 1, sizeof *r->in);
	r->names = calloc(total ? total : 1, sizeof *r->names);
	r->anims = calloc((unsigned)r->njobs, sizeof *r->anims);
	r->events = calloc((unsigned)r->njobs, sizeof *r->events);
	if (!r->in || !r->names || !r->anims || !r->events)
		return EXIT_INTERNAL;
	for (j = 0; j < r->njobs; j++) {
		const fig_job *jb = &r->jobs[j];
		int nev = bb_model_event_count(jb->model, jb->scene.armature, jb->scene.anim);

		r->anims[j].name = jb->dir;
		r->anims[j].fps = jb->plan.fps;
		r->anims[j].loop = jb->plan.info.loop;
		r->events[j] = calloc((size_t)nev + 1, sizeof **r->events);
		if (!r->events[j])
			return EXIT_INTERNAL;
		for (e = 0; e < nev; e++) {
			bb_event_info ev;

			bb_model_event(jb->model, jb->scene.armature, jb->scene.anim, e, &ev);
			r->events[j][e].time = bb_plan_figure_time(&jb->plan, ev.time);
			r->events[j][e].name = ev.name;
		}
		r->anims[j].events = r->events[j];
		r->anims[j].n_events = (size_t)nev;
		for (i = 0; i < jb->plan.frames; i++, k++) {
			char name[FIG_PATH_MAX + 32];

			snprintf(name, sizeof name, "%s_%04ld", jb->dir, i);
			if (!(r->names[k] = strdup(name)))
				return EXIT_INTERNAL;
			r->nin = k + 1;
			r->in[k].image = r->frames[j].img[i];
			r->in[k].crop_x = r->frames[j].x[i];
			r->in[k].crop_y = r->frames[j].y[i];
			r->in[k].full_w = jb->plan.width;
			r->in[k].full_h = jb->plan.height;
			r->in[k].name = r->names[k];
			r->in[k].anim = j;
			r->in[k].index = (int)i;
			r->in[k].duration = 1 / jb->plan.fps;
			r->in[k].pivot_x = jb->plan.view.origin_x;
			r->in[k].pivot_y = jb->plan.view.origin_y;
			r->in[k].has_pivot = 1;
		}
	}
	return 0;
}

/* Job j's preview path in dest and contact sheet path (cpath[0] = 0
 * when not asked); 0 when a path is too long (said). */
static int extras_paths(const struct sheet_run *run, int j, const anim_opts *ao,
                        const char *dest, char *final, char *cpath)
{
	const fig_job *jb = &run->jobs[j];

	final[0] = cpath[0] = '\0';
	if (ao->has_format &&
	    snprintf(final, PATH_MAX, "%s/%s.%s", dest, jb->dir,
	             bb_anim_format_extension(ao->format)) >= PATH_MAX) {
		fprintf(stderr, "bonebake: %s: path too long\n", dest);
		return 0;
	}
	if (ao->contact && !contact_path(ao->contact, jb, run->njobs, cpath, PATH_MAX)) {
		fprintf(stderr, "bonebake: %s: path too long\n", ao->contact);
		return 0;
	}
	return 1;
}

/* Before the sheet is committed: a preview or contact sheet whose path
 * is a folder could not be renamed in afterwards, leaving the new sheet
 * beside the old previews. */
static int extras_precheck(const struct sheet_run *run, const anim_opts *ao,
                           const char *dest)
{
	int j;

	for (j = 0; j < run->njobs; j++) {
		char final[PATH_MAX], cpath[PATH_MAX];

		if (!extras_paths(run, j, ao, dest, final, cpath) ||
		    (final[0] && pending_refused(final)) ||
		    (cpath[0] && pending_refused(cpath)))
			return EXIT_IO;
	}
	return 0;
}

/* The previews and contact sheets of every job, from the kept frames,
 * under staged names in `dest` (which holds the sheet by now): renamed
 * into place together, or none of them.  Returns an exit code. */
static int write_extras(struct sheet_run *run, const anim_opts *ao,
                        const char *dest, int quiet)
{
	pending pend = { 0 };
	int j, rc = 0;

	for (j = 0; j < run->njobs && rc == 0; j++) {
		const fig_job *jb = &run->jobs[j];
		char final[PATH_MAX], cpath[PATH_MAX];
		const char *staged = NULL, *cstaged = NULL, *slash = strchr(jb->dir, '/');
		anim_job x;
		long i;

		if (!extras_paths(run, j, ao, dest, final, cpath)) {
			rc = EXIT_IO;
			break;
		}
		if (ao->has_format) {
			if (slash) {   /* the armature's folder */
				char arm[PATH_MAX];

				snprintf(arm, sizeof arm, "%s/%.*s", dest,
				         (int)(slash - jb->dir), jb->dir);
				if (mkdir(arm, 0777) != 0 && errno != EEXIST) {
					fprintf(stderr, "bonebake: %s: cannot create folder: %s\n",
					        arm, strerror(errno));
					rc = EXIT_IO;
					break;
				}
			}
			if ((rc = pending_add(&pend, final, &staged)) != 0)
				break;
		}
		if (ao->contact && (rc = pending_add(&pend, cpath, &cstaged)) != 0)
			break;
		if ((rc = anim_job_begin(&x, jb, ao, staged, final, cstaged, cpath)) != 0)
			break;
		do {
			for (i = 0; rc == 0 && i < jb->plan.frames; i++) {
				bb_image *whole = whole_frame(&run->frames[j], i, &jb->plan);

				rc = whole ? anim_job_frame(i, whole, &x) : EXIT_INTERNAL;
				bb_image_free(whole);
			}
		} while (rc == 0 && anim_job_next_cycle(&x));
		if (rc == 0)
			rc = anim_job_end(&x);
		else
			anim_job_abort(&x);
		if (rc == 0 && !quiet && staged)
			printf("%s\n", cli_text(final));
	}
	if (rc == 0)
		return pending_commit(&pend);
	pending_abort(&pend);
	return rc;
}

/* One scale variant: the files' base name and the scale on top of
 * --scale (written as meta.scale; 0 without --variants: meta.scale 1). */
typedef struct variant {
	char name[OUTDIR_NAME_MAX];
	double scale;
} variant;

enum { MAX_VARIANTS = OUTDIR_SETS_MAX };

static int bad_variants(const char *arg, const char *why)
{
	return cli_usage_error("sheet", "--variants '%s': %s", arg, why);
}

/* The file suffix of a NAME= label: "@2x" as it is, "hd" as "-hd". */
static int label_suffix(const char *label, size_t len, char *out, size_t size)
{
	size_t i, digits = 0;

	if (len == 0 || len > 32)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)label[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '@' || c == '_' || c == '-' ||
		      c == '.'))
			return 0;
		digits += c >= '0' && c <= '9';
	}
	if (digits == len)     /* NAME-<digits> is a multipack page */
		return 0;
	snprintf(out, size, "%s%.*s", label[0] == '@' ? "" : "-", (int)len, label);
	return 1;
}

/* --variants LIST: comma-separated S or LABEL=S.  Returns 0 or EXIT_USAGE
 * after printing why. */
static int parse_variants(const char *arg, const char *base, double base_scale,
                          variant *v, int *n)
{
	const char *p = arg;

	for (*n = 0;; (*n)++) {
		const char *end = strchr(p, ','), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char item[64], suffix[40];
		int k;

		if (*n == MAX_VARIANTS)
			return bad_variants(arg, "at most 8 variants");
		if (len == 0 || len >= sizeof item)
			return bad_variants(arg, "an empty or overlong entry");
		memcpy(item, p, len);
		item[len] = '\0';
		eq = strchr(item, '=');
		if (!cli_parse_double(eq ? eq + 1 : item, &v[*n].scale) ||
		    !(v[*n].scale > 0) || base_scale * v[*n].scale < 1e-4 ||
		    base_scale * v[*n].scale > 100)
			return bad_variants(arg, "each entry is a scale S or LABEL=S, "
			                    "S > 0 and --scale times S in [0.0001, 100]");
		if (eq && !label_suffix(item, (size_t)(eq - item), suffix, sizeof suffix))
			return bad_variants(arg, "a LABEL is 1 to 32 letters, digits, "
			                    "'@', '_', '-' or '.', not only digits");
		if (!eq && v[*n].scale == 1)
			suffix[0] = '\0';
		else if (!eq)
			snprintf(suffix, sizeof suffix, "@%gx", v[*n].scale);
		if (snprintf(v[*n].name, sizeof v[*n].name, "%s%s", base, suffix) > 200)
			return bad_variants(arg, "the file names grow too long");
		for (k = 0; k < *n; k++)
			if (strcmp(v[k].name, v[*n].name) == 0)
				return bad_variants(arg, "two variants write the same files");
		if (!end)
			break;
		p = end + 1;
	}
	(*n)++;
	return 0;
}

/* Renders the jobs of fo into run and packs them into *sheet; `label`
 * (or NULL) names the variant in a packing error. */
static int make_sheet(figure *fig, const fig_opts *fo, const pack_opts *po,
                      const char *path, const char *label,
                      struct sheet_run *run, bb_sheet **sheet)
{
	cli_progress progress;
	bb_error err;
	int rc, j;

	if ((rc = figure_plan_jobs(fig, fo, path, "sheet", &run->jobs, &run->njobs)) != 0)
		return rc;
	run->frames = calloc((size_t)run->njobs + 1, sizeof *run->frames);
	if (!run->frames)
		return EXIT_INTERNAL;
	figure_progress_start(&progress, "sheet", fo, run->jobs, run->njobs);
	for (j = 0; j < run->njobs && rc == 0; j++) {
		size_t nf = (size_t)run->jobs[j].plan.frames;
		struct frames *f = &run->frames[j];

		f->img = calloc(nf, sizeof *f->img);
		f->x = calloc(nf, sizeof *f->x);
		f->y = calloc(nf, sizeof *f->y);
		f->trim = !po->pack.no_trim;
		f->alpha_max = po->pack.trim_alpha;
		if (!f->img || !f->x || !f->y)
			rc = EXIT_INTERNAL;
		else
			rc = figure_render(&run->jobs[j], fo, &progress, keep_frame, f);
	}
	cli_progress_end(&progress);
	if (rc == 0)
		rc = figure_strict_check(fo, "sheet");
	if (rc == 0 && (rc = describe(run)) == 0 &&
	    bb_pack_frames(run->in, run->nin, run->anims, (size_t)run->njobs,
	                   &po->pack, sheet, &err) != BB_OK) {
		if (label && !err.file[0])
			snprintf(err.file, sizeof err.file, "%.120s (%.120s)",
			         bb_model_source(fig->model), label);
		rc = cli_fail_about(&err, bb_model_source(fig->model));
	}
	return rc;
}

int cmd_sheet(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "variants", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[96];
	struct sheet_run run[MAX_VARIANTS];
	variant var[MAX_VARIANTS];
	bb_sheet *sheet[MAX_VARIANTS] = { 0 };
	bb_sheet_files *files[MAX_VARIANTS] = { 0 };
	const char *names[MAX_VARIANTS];
	fig_opts fo;
	pack_opts po;
	anim_opts ao;
	figure fig;
	const char *outpath = NULL, *variants = NULL;
	bb_error err;
	int c, rc, v, nvar = 1, extras = 0;

	memset(run, 0, sizeof run);
	fig_opts_init(&fo);
	pack_opts_init(&po);
	anim_opts_init(&ao);
	fig_merge_options(own, opts, 96);
	pack_merge_options(opts, 96);
	anim_merge_options(opts, 96, 1);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			outpath = optarg;
		} else if (c == 'V') {
			variants = optarg;
		} else if (c == 'h') {
			cli_help(help);
			cli_help(fig_help);
			cli_help(pack_help);
			cli_help(anim_help);
			return EXIT_OK;
		} else if ((rc = anim_parse(&ao, c, optarg, "sheet")) != 1 &&
		           (rc = fig_parse(&fo, c, optarg, "sheet")) != 1 &&
		           (rc = pack_parse(&po, c, optarg, "sheet")) != 1) {
			return rc < 0 ? EXIT_USAGE : cli_bad_option("sheet", argv, opts);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("sheet", "expected one input FILE");
	if (!outpath || !outpath[0])
		return cli_usage_error("sheet", "missing -o DIR");
	/* one origin per armature unless the canvas was chosen */
	if (!fo.canvas_set && !fo.has_size)
		fo.canvas_union = 1;
	if ((rc = pack_finish(&po, "sheet")) != 0 ||
	    (rc = anim_check(&ao, "sheet")) != 0)
		return rc;
	snprintf(var[0].name, sizeof var[0].name, "%s", po.write.name);
	var[0].scale = 0;
	if (variants &&
	    (rc = parse_variants(variants, po.write.name, fo.scale, var, &nvar)) != 0)
		return rc;
	/* previews and contact sheets: from the variant at scale 1, else the
	 * first */
	for (v = 0; v < nvar; v++)
		if (var[v].scale == 1) {
			extras = v;
			break;
		}
	po.pack.threads = po.write.threads = cli_jobs(fo.jobs);
	if ((rc = figure_load(&fig, &fo, argv[optind], "sheet")) != 0)
		goto out;
	for (v = 0; v < nvar && rc == 0; v++) {
		fig_opts vo = fo;
		bb_sheet_write_options wo = po.write;
		char label[OUTDIR_NAME_MAX + 48];

		if (var[v].scale > 0) {
			/* a fixed canvas is in the base's pixels: it grows too */
			vo.scale = fo.scale * var[v].scale;
			vo.size_w = (int)lround(fo.size_w * var[v].scale);
			vo.size_h = (int)lround(fo.size_h * var[v].scale);
			vo.origin_x = fo.origin_x * var[v].scale;
			vo.origin_y = fo.origin_y * var[v].scale;
			if (fo.has_size && (vo.size_w < 1 || vo.size_h < 1 ||
			    vo.size_w > bb_limits_default().max_canvas ||
			    vo.size_h > bb_limits_default().max_canvas)) {
				rc = cli_usage_error("sheet", "--variants: --size %dx%d at "
				                     "scale %g is %dx%d, outside 1..%d",
				                     fo.size_w, fo.size_h, var[v].scale,
				                     vo.size_w, vo.size_h,
				                     bb_limits_default().max_canvas);
				break;
			}
		}
		wo.name = names[v] = var[v].name;
		wo.scale = var[v].scale;
		snprintf(label, sizeof label, "variant %.210s, scale %g", var[v].name,
		         var[v].scale);
		rc = make_sheet(&fig, &vo, &po, argv[optind], variants ? label : NULL,
		                &run[v], &sheet[v]);
		if (rc == 0 && bb_sheet_encode(sheet[v], &wo, &files[v], &err) != BB_OK)
			rc = cli_fail(&err);
	}
	if (rc == 0 && (ao.has_format || ao.contact))
		rc = extras_precheck(&run[extras], &ao, outpath);
	if (rc == 0)
		rc = pack_write_sets((const bb_sheet *const *)sheet, files, names, nvar,
		                     outpath, fo.quiet);
	if (rc == 0 && (ao.has_format || ao.contact))
		rc = write_extras(&run[extras], &ao, outpath, fo.quiet);
out:
	for (v = 0; v < nvar; v++) {
		bb_sheet_files_free(files[v]);
		bb_sheet_free(sheet[v]);
		run_free(&run[v]);
	}
	figure_free(&fig);
	return rc;
}
