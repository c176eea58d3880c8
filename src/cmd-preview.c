/* bonebake preview FILE -o OUT: one animated WebP, GIF or APNG per
 * animation (and optionally a contact sheet), frames rendered once and
 * streamed into the encoder in order. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outdir.h"
#include "preview-out.h"

static const char help[] =
	"usage: bonebake preview FILE -o OUT [options] [render options]\n"
	"\n"
	"Renders animations of FILE exactly as `bonebake render` would (same\n"
	"canvas, frame count and frame times) into one animated file each.\n"
	"The format comes from OUT's extension (.webp, .gif, .png, .apng, .webm,\n"
	".mp4 or .mov) or --format.  With several animations, --all, or OUT an\n"
	"existing folder, OUT is a folder: OUT/<armature>/<anim>.<ext> (default\n"
	"format webp).\n"
	"Looping animations loop forever, others play once (--loop/--once\n"
	"override).  Frame i lasts from i/fps to (i+1)/fps, rounded to the\n"
	"format's delay unit at the ends (WebP, APNG: 1 ms; GIF: 10 ms), so the\n"
	"total stays right.  WebP is lossless with full alpha unless --quality;\n"
	"GIF has a palette per frame (giflib's quantizer) and one transparent\n"
	"entry for alpha below 128 (--bg COLOR flattens instead); APNG is\n"
	"lossless RGBA.  Videos have the animation's exact frame rate, one video\n"
	"frame per rendered frame, and play once (--loop-count N: the cycle N\n"
	"times): webm is VP9 with alpha (yuva420p), mp4 H.264 yuv420p over --bg\n"
	"(default white; an odd width or height gets one more column or row of\n"
	"it), mov ProRes 4444 with alpha (yuva444p10le).  Nothing is written\n"
	"unless every animation succeeds.\n"
	"\n"
	"  -o, --output OUT     the file (or folder) to write\n"
	"  --format {formats}\n"
	"                       the format, whatever OUT's extension\n"
	"  -h, --help           this text\n";

enum { O_FORMAT = 'f' + 256 };

struct run {
	fig_job *jobs;
	int njobs;
	const char *out;
	anim_opts ao;
	outdir od;
	int folder, od_open;
	pending pend;
	cli_progress progress;
};

/* Folder mode, or the format from OUT's extension.  Returns an exit code. */
static int choose_output(struct run *r, const fig_opts *fo)
{
	struct stat st;
	bb_anim_format ext;
	int has_ext = bb_anim_format_from_path(r->out, &ext);

	r->folder = r->njobs > 1 || fo->all ||
	            (stat(r->out, &st) == 0 && S_ISDIR(st.st_mode));
	if (r->folder && has_ext && !(stat(r->out, &st) == 0 && S_ISDIR(st.st_mode)))
		return cli_usage_error("preview", "%s names a file, but %d animations "
		                       "were chosen: pick one with --anim, or give a "
		                       "folder", r->out, r->njobs);
	if (r->folder) {
		if (!r->ao.has_format)
			r->ao.format = BB_ANIM_WEBP;
		r->ao.has_format = 1;
		return 0;
	}
	if (r->ao.has_format && has_ext && ext != r->ao.format)
		return cli_usage_error("preview", "%s: the extension says %s, --format "
		                       "%s", r->out, bb_anim_format_name(ext),
		                       bb_anim_format_name(r->ao.format));
	if (!r->ao.has_format) {
		const char *dot = strrchr(r->out, '.');

		if (!has_ext)
			return cli_usage_error("preview", "%s: unknown extension '%s' (use "
			                       ".webp, .gif, .png, .apng, .webm, .mp4 or "
			                       ".mov, or --format)",
			                       r->out, dot && !strchr(dot, '/') ? dot : "");
		r->ao.format = ext;
		r->ao.has_format = 1;
	}
	return 0;
}

/* Where job i's preview goes (and the name errors give). */
static int job_path(struct run *r, int i, char *path, size_t size,
                    char *shown, size_t nshown, const char **staged)
{
	const fig_job *j = &r->jobs[i];

	if (!r->folder) {
		snprintf(shown, nshown, "%s", r->out);
		return pending_add(&r->pend, r->out, staged);
	}
	{
		bb_armature_info ai;
		char arm[256], rel[1200];
		int k, seen = 0;

		bb_model_armature_info(j->model, j->plan.armature, &ai);
		fig_safe_name(ai.name ? ai.name : "", arm, sizeof arm);
		for (k = 0; k < i; k++)
			seen |= r->jobs[k].plan.armature == j->plan.armature;
		if (!seen) {
			int rc = outdir_mkdir_shared(&r->od, arm);

			if (rc)
				return rc;
		}
		snprintf(rel, sizeof rel, "%s/%s.%s", arm, j->prefix,
		         bb_anim_format_extension(r->ao.format));
		snprintf(shown, nshown, "%s/%s", r->out, rel);
		if (!outdir_path(&r->od, rel, path, size)) {
			fprintf(stderr, "bonebake: %s: path too long\n", shown);
			return EXIT_IO;
		}
		*staged = path;
		return 0;
	}
}

static int run_jobs(struct run *r, const fig_opts *fo)
{
	int i, rc = 0;

	for (i = 0; i < r->njobs && rc == 0; i++) {
		char path[OUTDIR_PATH_MAX], shown[OUTDIR_PATH_MAX], cpath[PATH_MAX];
		const char *staged = NULL, *cstaged = NULL;
		anim_job x;

		if ((rc = job_path(r, i, path, sizeof path, shown, sizeof shown,
		                   &staged)) != 0)
			break;
		if (r->ao.contact) {
			if (!contact_path(r->ao.contact, &r->jobs[i], r->njobs, cpath,
			                  sizeof cpath)) {
				fprintf(stderr, "bonebake: %s: path too long\n", r->ao.contact);
				return EXIT_IO;
			}
			if ((rc = pending_add(&r->pend, cpath, &cstaged)) != 0)
				break;
		}
		if ((rc = anim_job_begin(&x, &r->jobs[i], &r->ao, staged, shown,
		                         cstaged, cpath)) != 0)
			break;
		rc = figure_render_ordered(&r->jobs[i], fo, &r->progress, NULL, NULL,
		                           anim_job_frame, &x);
		while (rc == 0 && anim_job_next_cycle(&x))
			rc = figure_render_again(&r->jobs[i], fo, anim_job_frame, &x);
		if (rc == 0)
			rc = anim_job_end(&x);
		else
			anim_job_abort(&x);
		if (rc == 0 && !fo->quiet) {
			struct stat st;

			printf("%s: %ld frames, %dx%d, %g fps -> %s",
			       cli_text(r->jobs[i].plan.info.name), r->jobs[i].plan.frames,
			       r->jobs[i].plan.width, r->jobs[i].plan.height,
			       r->jobs[i].plan.fps, cli_text(shown));
			if (stat(staged, &st) == 0)
				printf(" (%lld bytes)", (long long)st.st_size);
			printf("%s%s\n", r->ao.contact ? ", contact sheet " : "",
			       r->ao.contact ? cli_text(cpath) : "");
		}
	}
	return rc;
}

int cmd_preview(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[80];
	struct run r;
	fig_opts fo;
	figure fig;
	int c, rc;

	memset(&r, 0, sizeof r);
	memset(&fig, 0, sizeof fig);
	fig_opts_init(&fo);
	anim_opts_init(&r.ao);
	fig_merge_options(own, opts, 80);
	anim_merge_options(opts, 80, 0);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			r.out = optarg;
		} else if (c == 'h') {
			cli_help(help);
			cli_help(anim_help);
			cli_help(fig_help);
			return EXIT_OK;
		} else if (c == O_FORMAT) {
			if (!bb_anim_format_parse(optarg, &r.ao.format))
				return cli_bad_format("preview", "--format", optarg);
			r.ao.has_format = 1;
		} else if ((rc = anim_parse(&r.ao, c, optarg, "preview")) != 1 &&
		           (rc = fig_parse(&fo, c, optarg, "preview")) != 1) {
			return rc < 0 ? EXIT_USAGE : cli_bad_option("preview", argv, opts);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("preview", "expected one input FILE");
	if (!r.out || !r.out[0])
		return cli_usage_error("preview", "missing -o OUT");
	if ((rc = figure_load(&fig, &fo, argv[optind], "preview")) != 0 ||
	    (rc = figure_plan_jobs(&fig, &fo, argv[optind], "preview", &r.jobs,
	                           &r.njobs)) != 0)
		goto out;
	if ((rc = choose_output(&r, &fo)) != 0 ||
	    (rc = anim_check(&r.ao, "preview")) != 0)
		goto out;
	if (r.folder) {
		if ((rc = outdir_open(&r.od, r.out)) != 0)
			goto out;
		r.od_open = 1;
	}
	figure_progress_start(&r.progress, "preview", &fo, r.jobs, r.njobs);
	rc = run_jobs(&r, &fo);
	cli_progress_end(&r.progress);
	if (rc == 0)
		rc = figure_strict_check(&fo, "preview");
	if (rc == 0 && r.folder) {
		rc = outdir_commit(&r.od);
	} else if (r.folder) {
		pending_abort(&r.pend);   /* its temporaries may lie in OUT */
		outdir_abort(&r.od);
	}
	if (rc == 0)
		rc = pending_commit(&r.pend);
	else
		pending_abort(&r.pend);
out:
	free(r.jobs);
	figure_free(&fig);
	return rc;
}
