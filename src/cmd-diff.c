/* bonebake diff BASELINE CURRENT: compare two PNG files or two folders of
 * them (regression diffs of renders), with budgets, diff images and
 * JSON / JUnit / HTML reports.  --update accepts the current images. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "diff-run.h"
#include "outdir.h"

static const char help[] =
	"usage: bonebake diff BASELINE CURRENT [options]\n"
	"\n"
	"Compares two PNG files, or two folders of *.png files paired by relative\n"
	"path (a file on one side only is reported as missing or added; other\n"
	"files are not compared, and their count is reported).  Folders are\n"
	"compared in parallel; byte-identical files are recognised before\n"
	"decoding.\n"
	"\n"
	"Folders holding a frames.json on both sides are render outputs, compared\n"
	"per animation: frames.json first (fps, loop, duration, frame count,\n"
	"events with their frames, canvas, origin), then the frames, matched by\n"
	"number; frames of different canvases or origins are aligned on the\n"
	"origin pixel and compared on the union of both canvases.  An animation\n"
	"is identical, changed, added, removed or error; frames added to or\n"
	"removed from an animation on both sides change it (exit 1).\n"
	"\n"
	"A pixel differs when its colour distance (OKLab HyAB, 1 being\n"
	"black against white; or YIQ on pixelmatch 7's scale) exceeds the\n"
	"threshold; pixels the anti-aliasing detector classifies as edges are\n"
	"not counted unless --aa count.  Transparency is not hidden:\n"
	"premultiplied colours are compared over black and over white, so an\n"
	"alpha-only change, or transparent versus white, differs.\n"
	"\n"
	"  -o, --output DIR        write a diff image per differing pair to\n"
	"                          DIR/<path> (two files: DIR/<name>, or the file\n"
	"                          itself when it ends in .png); unchanged pixels\n"
	"                          faded, differences red, anti-aliasing yellow\n"
	"  -t, --threshold T       distance threshold, 0..1 (default 0.1)\n"
	"      --metric M          oklab (OKLab HyAB, default) or yiq\n"
	"      --aa MODE           ignore (default) or count anti-aliased pixels\n"
	"      --compat MODE       pixelmatch: count exactly as pixelmatch 8, the\n"
	"                          current release (OKLab HyAB, its checkerboard\n"
	"                          backdrop for translucent pixels); pixelmatch7:\n"
	"                          as pixelmatch 7 (YIQ); pixelmatch-white,\n"
	"                          pixelmatch7-white: with checkerboard: false;\n"
	"                          none (default)\n"
	"      --window S          also measure the most differing pixels in any\n"
	"                          SxS square (S clamped to the smaller side)\n"
	"      --max-diff-pixels N a pair passes with at most N differing pixels\n"
	"      --max-diff-ratio R  ... and at most this fraction (0..1) of them\n"
	"      --max-window-pixels N  ... and at most N of them in any --window\n"
	"                          square (scattered noise passes, a moved part\n"
	"                          fails); a limit not given does not apply, and\n"
	"                          with none given any differing pixel fails\n"
	"      --ignore X,Y,W,H    do not compare this region (repeatable)\n"
	"      --diff-mask         diff images: differences only, on transparent\n"
	"      --json FILE         JSON report (\"-\": stdout)\n"
	"      --junit FILE        JUnit XML report, one test case per pair\n"
	"      --html DIR          static HTML report (self-contained folder;\n"
	"                          render folders: grouped by animation, each\n"
	"                          changed one playing baseline | difference |\n"
	"                          current in sync)\n"
	"      --markdown FILE     a short Markdown summary (\"-\": stdout) for a CI\n"
	"                          job page or a pull request comment: counts,\n"
	"                          then one row per changed animation\n"
	"      --report-url URL    where the --html report will be published: the\n"
	"                          summary's rows link to URL#anim-N\n"
	"      --max-image-pixels N  refuse images of more than N pixels (or NM:\n"
	"                          N million), from their header (default 64M)\n"
	"  -j, --jobs N            threads for folders (default: CPU count)\n"
	"      --update            copy CURRENT over BASELINE for the pairs that\n"
	"                          differ (and add files only in CURRENT); run it\n"
	"                          after a person looked at the differences\n"
	"  -q, --quiet             print nothing on stdout\n"
	"  -v, --verbose           list identical pairs too\n"
	"  -h, --help              this text\n"
	"\n"
	"Exit codes: 0 every pair within budget, 1 differences beyond budget\n"
	"(or an animation whose frames.json or frame set changed),\n"
	"2 usage, 3 bad input (not a valid PNG, or over a size limit), 4 I/O\n"
	"(a file cannot be read or written), 5 image sizes differ, 6 files\n"
	"(or animations) missing or added on one side, 70 internal error.  When a folder run has\n"
	"several outcomes the code is the first of: 70, 4, 3, 5, 6, 1, 0.  After\n"
	"--update, updated pairs count as equal: what remains is baseline-only\n"
	"files (6) and errors.\n";

enum {
	OPT_AA = 256, OPT_COMPAT, OPT_MAX_PIXELS, OPT_MAX_RATIO, OPT_IGNORE,
	OPT_DIFF_MASK, OPT_JSON, OPT_JUNIT, OPT_HTML, OPT_UPDATE, OPT_METRIC,
	OPT_IMAGE_PIXELS,
	OPT_WINDOW, OPT_MAX_WINDOW, OPT_MARKDOWN, OPT_REPORT_URL
};

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "threshold", required_argument, NULL, 't' },
	{ "aa", required_argument, NULL, OPT_AA },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "max-window-pixels", required_argument, NULL, OPT_MAX_WINDOW },
	{ "max-diff-pixels", required_argument, NULL, OPT_MAX_PIXELS },
	{ "max-diff-ratio", required_argument, NULL, OPT_MAX_RATIO },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "diff-mask", no_argument, NULL, OPT_DIFF_MASK },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "report-url", required_argument, NULL, OPT_REPORT_URL },
	{ "max-image-pixels", required_argument, NULL, OPT_IMAGE_PIXELS },
	{ "jobs", required_argument, NULL, 'j' },
	{ "update", no_argument, NULL, OPT_UPDATE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* "X,Y,W,H" with W, H >= 0. */
static int parse_rect(const char *s, bb_diff_rect *r)
{
	char tail;
	int n = sscanf(s, "%d,%d,%d,%d%c", &r->x, &r->y, &r->w, &r->h, &tail);

	return n == 4 && r->w >= 0 && r->h >= 0;
}

static int parse_count(const char *s, long long *out)
{
	char *end;
	long long v;

	if (!*s || *s == '-')
		return 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return 0;
	*out = v;
	return 1;
}

static const struct {
	const char *name;
	bb_diff_compat compat;
	int white;
} compat_modes[] = {
	{ "none", BB_DIFF_COMPAT_NONE, 0 },
	{ "pixelmatch", BB_DIFF_COMPAT_PIXELMATCH, 0 },
	{ "pixelmatch8", BB_DIFF_COMPAT_PIXELMATCH, 0 },
	{ "pixelmatch-white", BB_DIFF_COMPAT_PIXELMATCH, 1 },
	{ "pixelmatch8-white", BB_DIFF_COMPAT_PIXELMATCH, 1 },
	{ "pixelmatch7", BB_DIFF_COMPAT_PIXELMATCH7, 0 },
	{ "pixelmatch7-white", BB_DIFF_COMPAT_PIXELMATCH7, 1 },
};

/* Handles one option; returns 0, or an exit code. */
static int parse_option(struct diff_config *cfg, int c, const char *arg,
                        const char **output, char **argv)
{
	double d;
	size_t i;

	switch (c) {
	case 'o':
		if (!arg[0])
			return cli_usage_error("diff", "-o wants a file or folder, not ''");
		*output = arg;
		return 0;
	case 't':
		if (!cli_parse_double(arg, &d) || d < 0 || d > 1)
			return cli_usage_error("diff", "--threshold wants 0..1, not '%s'",
			                       arg);
		cfg->opts.threshold = d;
		cfg->opts.threshold_set = 1;
		return 0;
	case OPT_AA:
		if (strcmp(arg, "ignore") == 0)
			cfg->opts.aa = BB_DIFF_AA_IGNORE;
		else if (strcmp(arg, "count") == 0)
			cfg->opts.aa = BB_DIFF_AA_COUNT;
		else
			return cli_usage_error("diff", "--aa wants ignore or count, not "
			                       "'%s'", arg);
		return 0;
	case OPT_COMPAT:
		for (i = 0; i < sizeof compat_modes / sizeof compat_modes[0]; i++)
			if (strcmp(arg, compat_modes[i].name) == 0) {
				cfg->opts.compat = compat_modes[i].compat;
				cfg->opts.compat_white_bg = compat_modes[i].white;
				return 0;
			}
		return cli_usage_error("diff", "--compat wants pixelmatch, "
		                       "pixelmatch-white, pixelmatch7, "
		                       "pixelmatch7-white or none, not '%s'", arg);
	case OPT_METRIC:
		if (strcmp(arg, "oklab") == 0)
			cfg->opts.metric = BB_DIFF_METRIC_OKLAB;
		else if (strcmp(arg, "yiq") == 0)
			cfg->opts.metric = BB_DIFF_METRIC_YIQ;
		else
			return cli_usage_error("diff", "--metric wants oklab or yiq, not "
			                       "'%s'", arg);
		return 0;
	case OPT_WINDOW:
		if (!cli_parse_int(arg, 1, 1 << 20, &cfg->opts.window))
			return cli_usage_error("diff", "--window wants a side of 1 or "
			                       "more pixels, not '%s'", arg);
		return 0;
	case OPT_MAX_WINDOW:
		if (!parse_count(arg, &cfg->budget.max_window_pixels))
			return cli_usage_error("diff", "--max-window-pixels wants a "
			                       "count, not '%s'", arg);
		cfg->budget.max_window_set = 1;
		return 0;
	case OPT_MAX_PIXELS:
		if (!parse_count(arg, &cfg->budget.max_pixels))
			return cli_usage_error("diff", "--max-diff-pixels wants a count, "
			                       "not '%s'", arg);
		cfg->budget.max_pixels_set = 1;
		return 0;
	case OPT_MAX_RATIO:
		if (!cli_parse_double(arg, &d) || d < 0 || d > 1)
			return cli_usage_error("diff", "--max-diff-ratio wants 0..1, not "
			                       "'%s'", arg);
		cfg->budget.max_ratio = d;
		cfg->budget.max_ratio_set = 1;
		return 0;
	case OPT_IGNORE:
		if (cfg->opts.n_ignore >= BB_DIFF_MAX_IGNORE)
			return cli_usage_error("diff", "at most %d --ignore regions",
			                       BB_DIFF_MAX_IGNORE);
		if (!parse_rect(arg, &cfg->opts.ignore[cfg->opts.n_ignore]))
			return cli_usage_error("diff", "--ignore wants X,Y,W,H, not '%s'",
			                       arg);
		cfg->opts.n_ignore++;
		return 0;
	case OPT_DIFF_MASK:
		cfg->opts.diff_mask = 1;
		return 0;
	case OPT_JSON:
		cfg->json = arg;
		return 0;
	case OPT_JUNIT:
		cfg->junit = arg;
		return 0;
	case OPT_IMAGE_PIXELS:
		if (!cli_parse_pixels(arg, &cfg->opts.max_pixels))
			return cli_usage_error("diff", "--max-image-pixels takes N or NM "
			                       "(millions), 1..1024M, not '%s'", arg);
		return 0;
	case OPT_HTML:
		if (!arg[0])
			return cli_usage_error("diff", "--html wants a folder, not ''");
		cfg->html = arg;
		return 0;
	case OPT_MARKDOWN:
		cfg->markdown = arg;
		return 0;
	case OPT_REPORT_URL:
		cfg->report_url = arg;
		return 0;
	case 'j':
		if (!cli_parse_int(arg, 1, 1024, &cfg->jobs))
			return cli_usage_error("diff", "--jobs wants 1..1024, not '%s'",
			                       arg);
		return 0;
	case OPT_UPDATE:
		cfg->update = 1;
		return 0;
	case 'q':
		cfg->quiet = 1;
		return 0;
	case 'v':
		cfg->verbose = 1;
		return 0;
	default:
		return cli_bad_option("diff", argv, options);
	}
}

static const char *label(enum diff_status s)
{
	switch (s) {
	case DS_FAIL: return "FAIL";
	case DS_MISMATCH: return "SIZE";
	case DS_MISSING: return "MISSING";
	case DS_ADDED: return "ADDED";
	case DS_ERROR: return "ERROR";
	case DS_PASS: return "pass";
	case DS_IDENTICAL: return "same";
	case DS_COUNT: break;
	}
	return "?";
}

static void print_results(const struct diff_run *run,
                          const struct diff_config *cfg)
{
	size_t i;

	printf("bonebake diff: ");
	diff_describe_options(stdout, cfg);
	putchar('\n');
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		if (p->status == DS_IDENTICAL && !cfg->verbose)
			continue;
		printf("%-7s %s: ", label(p->status), cli_text(p->path));
		diff_describe_pair(stdout, p);
		putchar('\n');
	}
	for (i = 0; i < run->nanims; i++) {
		const struct diff_anim *a = &run->anims[i];

		if (a->status == AS_IDENTICAL && !cfg->verbose)
			continue;
		printf("%-9s animation %s: ", diff_anim_status_name(a->status),
		       cli_text(a->path));
		diff_describe_anim(stdout, run, a);
		putchar('\n');
	}
	if (run->nanims) {
		printf("%zu %s:", run->nanims, run->nanims == 1 ? "animation"
		                                              : "animations");
		diff_print_counts(stdout, run, 1, 0);
		putchar('\n');
	}
	printf("%zu %s:", run->n, run->n == 1 ? "pair" : "pairs");
	diff_print_counts(stdout, run, 0, 0);
	if (run->skipped)
		printf("; %ld non-PNG %s not compared", run->skipped,
		       run->skipped == 1 ? "file" : "files");
	putchar('\n');
}

/* Whether --update replaces this pair: it differs under the applied test
 * (sub-threshold and anti-aliasing-only changes do not), or is new. */
static int wants_update(const struct diff_pair *p)
{
	return p->status == DS_FAIL || p->status == DS_MISMATCH ||
	       p->status == DS_ADDED ||
	       (p->status == DS_PASS && p->res.diff_pixels > 0);
}

/* --update of render folders: the frames.json of every animation whose
 * metadata changed or that was added, so the baseline describes its new
 * frames.  Returns how many were copied, or -1. */
static long update_meta(const struct diff_run *run, const struct diff_config *cfg)
{
	long done = 0;
	size_t i;

	for (i = 0; i < run->nanims; i++) {
		const struct diff_anim *a = &run->anims[i];
		char *rel, *from, *to;
		int rc = -1;

		if (!a->b || (a->a && a->nchanges == 0))
			continue;
		rel = diff_join(a->path, "frames.json");
		from = rel ? diff_join(run->cur, rel) : NULL;
		to = rel ? diff_join(run->base, rel) : NULL;
		if (from && to && diff_mkdirs_for(to) == 0)
			rc = diff_copy_file(from, to);
		if (rc == 0 && !cfg->quiet)
			printf("updated %s\n", rel);
		free(rel);
		free(from);
		free(to);
		if (rc != 0)
			return -1;
		done++;
	}
	return done;
}

static int update(struct diff_run *run, const struct diff_config *cfg)
{
	size_t i;
	long done = 0;
	int failed = 0;

	for (i = 0; i < run->n; i++) {
		struct diff_pair *p = &run->pairs[i];
		char *dest;

		if (p->status == DS_MISSING && !cfg->quiet)
			printf("kept    %s: only in the baseline, not removed\n",
			       cli_text(p->path));
		/* an animation whose frames.json changed (a new canvas, say)
		 * takes all its frames, so the baseline stays one render */
		if (!wants_update(p) &&
		    !(p->b_path && p->anim >= 0 && run->anims[p->anim].nchanges > 0))
			continue;
		dest = p->a_path ? strdup(p->a_path) : diff_join(run->base, p->path);
		if (!dest || diff_mkdirs_for(dest) != 0 ||
		    diff_copy_file(p->b_path, dest) != 0) {
			failed = 1;
			free(dest);
			continue;
		}
		if (!cfg->quiet) {
			printf("%s %s", p->status == DS_ADDED ? "added  " : "updated",
			       cli_text(p->path));
			if (p->status != DS_ADDED) {
				printf(" (was: ");
				diff_describe_pair(stdout, p);
				printf(")");
			}
			putchar('\n');
		}
		run->count[p->status]--;
		p->status = DS_IDENTICAL;
		run->count[DS_IDENTICAL]++;
		done++;
		free(dest);
	}
	if (update_meta(run, cfg) < 0) {
		failed = 1;
	} else {
		/* the updated animations are the baseline's now */
		size_t k;

		for (k = 0; k < run->nanims; k++)
			if (run->anims[k].status == AS_CHANGED ||
			    run->anims[k].status == AS_ADDED) {
				run->anim_count[run->anims[k].status]--;
				run->anims[k].status = AS_IDENTICAL;
				run->anim_count[AS_IDENTICAL]++;
				run->anims[k].nchanges = 0;
			}
	}
	if (!cfg->quiet)
		printf("updated %ld %s in %s\n", done, done == 1 ? "file" : "files",
		       run->base);
	if (failed)
		run->report_failed = 1;
	return failed;
}

static int default_jobs(void)
{
	int n = bb_cpu_count();

	return n > 64 ? 64 : n;
}

static int to_stdout(const char *report)
{
	return report && strcmp(report, "-") == 0;
}

static int has_png_suffix(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && strcasecmp(s + n - 4, ".png") == 0;
}

/* The summary on stdout and every report asked for; a report that
 * cannot be written marks the run failed. */
static void write_reports(struct diff_run *run, const struct diff_config *cfg)
{
	if (!cfg->quiet && !to_stdout(cfg->json) && !to_stdout(cfg->junit) &&
	    !to_stdout(cfg->markdown))
		print_results(run, cfg);
	if (cfg->json && diff_save_report(cfg->json, run, cfg, diff_write_json))
		run->report_failed = 1;
	if (cfg->junit && diff_save_report(cfg->junit, run, cfg, diff_write_junit))
		run->report_failed = 1;
	if (cfg->markdown &&
	    diff_save_report(cfg->markdown, run, cfg, diff_write_markdown))
		run->report_failed = 1;
	if (cfg->html && diff_html_fill(run, cfg) != 0)
		run->report_failed = 1;
	if (cfg->html && diff_write_html(run, cfg) != 0)
		run->report_failed = 1;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_config cfg;
	struct diff_run run;
	const char *output = NULL;
	outdir out_od, html_od;
	bb_error err;
	int c, rc;

	memset(&cfg, 0, sizeof cfg);
	memset(&run, 0, sizeof run);
	cfg.jobs = default_jobs();
	while ((c = getopt_long(argc, argv, "o:t:j:qvh", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(help, stdout);
			return EXIT_OK;
		}
		if ((rc = parse_option(&cfg, c, optarg, &output, argv)) != 0)
			return rc;
	}
	if (argc - optind != 2)
		return cli_usage_error("diff", "expected BASELINE and CURRENT");
	if (cfg.budget.max_window_set && !cfg.opts.window)
		return cli_usage_error("diff", "--max-window-pixels needs --window S");
	if (cfg.opts.metric && cfg.opts.compat)
		return cli_usage_error("diff", "--metric applies without --compat "
		                       "(pixelmatch has its own)");
	if (bb_diff_options_check(&cfg.opts, &err) != BB_OK)
		return cli_usage_error("diff", "%s", err.message);
	rc = diff_collect(&run, argv[optind], argv[optind + 1]);
	if (rc != EXIT_OK) {
		diff_run_free(&run);
		return rc;
	}
	if (output && !run.folders && has_png_suffix(output))
		cfg.out_file = output;
	else
		cfg.out_dir = output;
	/* -o DIR and --html DIR are written all-or-nothing (outdir.h) */
	if ((cfg.out_dir && (rc = outdir_open(&out_od, cfg.out_dir)) != 0) ||
	    (cfg.html && (rc = outdir_open(&html_od, cfg.html)) != 0)) {
		if (cfg.out_dir && out_od.lock_fd >= 0)
			outdir_abort(&out_od);
		diff_run_free(&run);
		return rc;
	}
	cfg.out_write = cfg.out_dir ? out_od.stage : NULL;
	cfg.html_write = cfg.html ? html_od.stage : NULL;
	diff_execute(&run, &cfg);
	if (!cli_interrupted)
		write_reports(&run, &cfg);
	/* everything written: move the folders into place; else leave none,
	 * and none when stopped (SIGINT/SIGTERM: main says 130/143) */
	if (cli_interrupted)
		run.report_failed = 1;
	if (cfg.out_dir && run.report_failed)
		outdir_abort(&out_od);
	else if (cfg.out_dir && outdir_commit(&out_od) != 0)
		run.report_failed = 1;
	if (cfg.html && run.report_failed)
		outdir_abort(&html_od);
	else if (cfg.html && outdir_commit(&html_od) != 0)
		run.report_failed = 1;
	if (cfg.update && !cli_interrupted)
		update(&run, &cfg);
	rc = diff_exit_code(&run);
	diff_run_free(&run);
	return rc;
}
