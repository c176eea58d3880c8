/* The `diff` command's machine-readable reports (JSON, JUnit XML), the
 * exit code, and atomic file writing for everything the command saves. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff-run.h"

static const char *const STATUS_NAMES[DS_COUNT] = {
	"fail", "size-mismatch", "missing", "added", "error", "pass", "identical"
};

const char *diff_status_name(enum diff_status s)
{
	return s < DS_COUNT ? STATUS_NAMES[s] : "?";
}

/* Precedence when a folder run has several outcomes: the exit code of the
 * most serious one (documented in `bonebake diff --help`). */
int diff_exit_code(const struct diff_run *run)
{
	static const int order[] = { EXIT_INTERNAL, EXIT_IO, EXIT_INPUT };
	int worst = EXIT_OK, seen[3] = { 0, 0, 0 };
	size_t i, k;

	long lone = 0, changed = run->count[DS_FAIL];

	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		/* a frame added to or removed from an animation on both sides
		 * changes that animation; elsewhere it changes the file set */
		if (p->status == DS_MISSING || p->status == DS_ADDED) {
			if (diff_pair_in_both(run, p))
				changed++;
			else
				lone++;
		}
		if (p->status != DS_ERROR)
			continue;
		for (k = 0; k < 3; k++)
			if (cli_exit_code(p->err_status) == order[k])
				seen[k] = 1;
	}
	/* an unreadable frames.json is bad input */
	for (i = 0; i < run->nanims; i++)
		if (run->anims[i].status == AS_ERROR && run->anims[i].message)
			seen[2] = 1;
	if (run->report_failed)
		seen[1] = 1;
	for (k = 0; k < 3; k++)
		if (seen[k])
			return order[k];
	if (run->count[DS_MISMATCH])
		worst = EXIT_MISMATCH;
	else if (lone || run->anim_count[AS_ADDED] || run->anim_count[AS_REMOVED])
		worst = EXIT_MISSING;
	else if (changed || run->anim_count[AS_CHANGED])
		worst = EXIT_DIFFERENT;
	return worst;
}

int diff_write_atomic(const char *path, const void *data, size_t size)
{
	bb_error err;

	if (bb_file_write_atomic(path, data, size, &err) != BB_OK) {
		cli_fail(&err);
		return -1;
	}
	return 0;
}

int diff_copy_file(const char *from, const char *to)
{
	FILE *f = fopen(from, "rb");
	char *data = NULL;
	size_t size = 0, cap = 0, n;
	int rc;

	if (!f) {
		fprintf(stderr, "bonebake: %s: %s\n", from, strerror(errno));
		return -1;
	}
	for (;;) {
		if (size == cap) {
			char *d = realloc(data, cap ? cap * 2 : 1 << 16);

			if (!d) {
				fclose(f);
				free(data);
				return -1;
			}
			data = d;
			cap = cap ? cap * 2 : 1 << 16;
		}
		n = fread(data + size, 1, cap - size, f);
		if (n == 0)
			break;
		size += n;
	}
	if (ferror(f)) {
		fprintf(stderr, "bonebake: %s: read error\n", from);
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	rc = diff_write_atomic(to, data, size);
	free(data);
	return rc;
}

int diff_save_report(const char *path, const struct diff_run *run,
                     const struct diff_config *cfg,
                     void (*write)(FILE *, const struct diff_run *,
                                   const struct diff_config *))
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f;
	int rc;

	if (strcmp(path, "-") == 0) {
		write(stdout, run, cfg);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	f = open_memstream(&buf, &size);
	if (!f)
		return -1;
	write(f, run, cfg);
	if (fclose(f) != 0) {
		free(buf);
		return -1;
	}
	rc = diff_write_atomic(path, buf, size);
	free(buf);
	return rc;
}

static const char *aa_name(const struct diff_config *cfg)
{
	return cfg->opts.aa == BB_DIFF_AA_COUNT ? "count" : "ignore";
}

static const char *compat_name(const struct diff_config *cfg)
{
	int white = cfg->opts.compat_white_bg;

	switch (cfg->opts.compat) {
	case BB_DIFF_COMPAT_PIXELMATCH:
		return white ? "pixelmatch-white" : "pixelmatch";
	case BB_DIFF_COMPAT_PIXELMATCH7:
		return white ? "pixelmatch7-white" : "pixelmatch7";
	case BB_DIFF_COMPAT_NONE:
	default:
		break;
	}
	return "none";
}

/* What measured: the compat mode, or bonebake's metric. */
static const char *measure_name(const struct diff_config *cfg)
{
	switch (cfg->opts.compat) {
	case BB_DIFF_COMPAT_PIXELMATCH:
		return "pixelmatch 8 (OKLab HyAB)";
	case BB_DIFF_COMPAT_PIXELMATCH7:
		return "pixelmatch 7 (YIQ)";
	case BB_DIFF_COMPAT_NONE:
	default:
		break;
	}
	return cfg->opts.metric == BB_DIFF_METRIC_YIQ ? "alpha-aware YIQ"
	                                              : "alpha-aware OKLab HyAB";
}

static const char *metric_name(const struct diff_config *cfg)
{
	if (cfg->opts.compat == BB_DIFF_COMPAT_PIXELMATCH7 ||
	    (cfg->opts.compat == BB_DIFF_COMPAT_NONE &&
	     cfg->opts.metric == BB_DIFF_METRIC_YIQ))
		return "yiq";
	return "oklab";
}

/* The budget as applied: with neither limit given, zero pixels. */
static void budget_applied(const struct diff_config *cfg, long long *px,
                           int *px_set, double *ratio, int *ratio_set)
{
	const bb_diff_budget *b = &cfg->budget;
	int none = !b->max_pixels_set && !b->max_ratio_set && !b->max_window_set;

	*px = none ? 0 : b->max_pixels;
	*px_set = none || b->max_pixels_set;
	*ratio = none ? 0.0 : b->max_ratio;
	*ratio_set = none || b->max_ratio_set;
}

void diff_describe_options(FILE *f, const struct diff_config *cfg)
{
	long long px;
	double ratio;
	int px_set, ratio_set, i;

	budget_applied(cfg, &px, &px_set, &ratio, &ratio_set);
	fprintf(f, "threshold %g, aa %s, %s", bb_diff_threshold(&cfg->opts),
	        aa_name(cfg), measure_name(cfg));
	if (cfg->opts.window)
		fprintf(f, ", window %d", cfg->opts.window);
	fprintf(f, "; budget: max diff pixels ");
	if (px_set)
		fprintf(f, "%lld", px);
	else
		fprintf(f, "unlimited");
	fprintf(f, ", max diff ratio ");
	if (ratio_set)
		fprintf(f, "%g", ratio);
	else
		fprintf(f, "unlimited");
	if (cfg->budget.max_window_set)
		fprintf(f, ", max window pixels %lld", cfg->budget.max_window_pixels);
	for (i = 0; i < cfg->opts.n_ignore; i++) {
		const bb_diff_rect *r = &cfg->opts.ignore[i];

		fprintf(f, "%s%d,%d,%d,%d", i ? " " : "; ignore ", r->x, r->y, r->w,
		        r->h);
	}
}

char *diff_options_text(const struct diff_config *cfg)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return NULL;
	diff_describe_options(m, cfg);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void diff_describe_pair(FILE *f, const struct diff_pair *p)
{
	const bb_diff_result *r = &p->res;

	switch (p->status) {
	case DS_MISSING:
		fprintf(f, "only in the baseline");
		return;
	case DS_ADDED:
		fprintf(f, "only in the current side");
		return;
	case DS_MISMATCH:
		fprintf(f, "size %dx%d vs %dx%d", r->a_width, r->a_height,
		        r->b_width, r->b_height);
		return;
	case DS_ERROR:
		fprintf(f, "%s", p->message ? p->message : "error");
		return;
	case DS_IDENTICAL:
		fprintf(f, "%s", r->same_bytes ? "identical files" : "identical pixels");
		return;
	case DS_FAIL:
	case DS_PASS:
	case DS_COUNT:
		break;
	}
	fprintf(f, "%lld pixels (%.4f%%) differ, max delta %.3f", r->diff_pixels,
	        r->diff_ratio * 100.0, r->max_delta);
	if (r->diff_pixels)
		fprintf(f, ", box %d,%d %dx%d", r->box.x, r->box.y, r->box.w,
		        r->box.h);
	if (r->window)
		fprintf(f, ", at most %lld in a %dx%d window", r->window_pixels,
		        r->window, r->window);
	if (r->aa_pixels)
		fprintf(f, ", %lld anti-aliased", r->aa_pixels);
	if (p->status == DS_PASS)
		fprintf(f, r->diff_pixels ? " (within budget)"
		                          : " (below the threshold)");
	else
		fprintf(f, " (over budget)");
}

/* What describe(f, ...) prints, as a new string. */
static char *text_of_pair(void (*describe)(FILE *, const struct diff_pair *),
                          const struct diff_pair *p,
                          void (*describe_anim)(FILE *, const struct diff_run *,
                                                const struct diff_anim *),
                          const struct diff_run *run, const struct diff_anim *a)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return NULL;
	if (describe)
		describe(m, p);
	else
		describe_anim(m, run, a);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *diff_pair_text(const struct diff_pair *p)
{
	return text_of_pair(diff_describe_pair, p, NULL, NULL, NULL);
}

char *diff_anim_text(const struct diff_run *run, const struct diff_anim *a)
{
	return text_of_pair(NULL, NULL, diff_describe_anim, run, a);
}

void diff_print_counts(FILE *f, const struct diff_run *run, int anims,
                       int no_identical)
{
	int i, n = anims ? AS_COUNT : DS_COUNT, first = 1;

	for (i = 0; i < n; i++) {
		long c = anims ? run->anim_count[i] : run->count[i];

		if (!c || (no_identical && i == (anims ? AS_IDENTICAL : DS_IDENTICAL)))
			continue;
		fprintf(f, "%s %ld %s", first ? "" : ",", c,
		        anims ? diff_anim_status_name((enum anim_status)i)
		              : diff_status_name((enum diff_status)i));
		first = 0;
	}
}

static void json_options(FILE *f, const struct diff_config *cfg)
{
	long long px;
	double ratio;
	int px_set, ratio_set, i;

	budget_applied(cfg, &px, &px_set, &ratio, &ratio_set);
	fprintf(f, "  \"options\": {\"threshold\": %.17g, \"aa\": \"%s\", "
	        "\"compat\": \"%s\", \"metric\": \"%s\", ",
	        bb_diff_threshold(&cfg->opts), aa_name(cfg), compat_name(cfg),
	        metric_name(cfg));
	if (cfg->opts.window)
		fprintf(f, "\"window\": %d, ", cfg->opts.window);
	else
		fprintf(f, "\"window\": null, ");
	if (cfg->budget.max_window_set)
		fprintf(f, "\"max_window_pixels\": %lld, ",
		        cfg->budget.max_window_pixels);
	else
		fprintf(f, "\"max_window_pixels\": null, ");
	if (px_set)
		fprintf(f, "\"max_diff_pixels\": %lld, ", px);
	else
		fprintf(f, "\"max_diff_pixels\": null, ");
	if (ratio_set)
		fprintf(f, "\"max_diff_ratio\": %.17g, ", ratio);
	else
		fprintf(f, "\"max_diff_ratio\": null, ");
	fprintf(f, "\"ignore\": [");
	for (i = 0; i < cfg->opts.n_ignore; i++) {
		const bb_diff_rect *r = &cfg->opts.ignore[i];

		fprintf(f, "%s[%d, %d, %d, %d]", i ? ", " : "", r->x, r->y, r->w,
		        r->h);
	}
	fprintf(f, "], \"diff_mask\": %s},\n",
	        cfg->opts.diff_mask ? "true" : "false");
}

static int pair_changed(const struct diff_pair *p)
{
	return p->status == DS_FAIL || p->status == DS_MISMATCH ||
	       p->status == DS_MISSING || p->status == DS_ADDED;
}

/* Where -o put a pair's diff image (new), or NULL. */
static char *diff_image_path(const struct diff_pair *p,
                             const struct diff_config *cfg)
{
	if (p->has_diff && cfg->out_file)
		return strdup(cfg->out_file);
	if (p->has_diff && cfg->out_dir)
		return diff_join(cfg->out_dir, p->path);
	return NULL;
}

static void json_pair(FILE *f, const struct diff_pair *p,
                      const struct diff_config *cfg, int last)
{
	const bb_diff_result *r = &p->res;
	int compared = p->status == DS_FAIL || p->status == DS_PASS ||
	               p->status == DS_IDENTICAL;

	fprintf(f, "    {\"path\": ");
	cli_json_string(f, p->path);
	fprintf(f, ", \"status\": \"%s\"", diff_status_name(p->status));
	if (compared) {
		fprintf(f, ", \"diff_pixels\": %lld, \"diff_ratio\": %.9g, "
		        "\"max_delta\": %.6f, ", r->diff_pixels, r->diff_ratio,
		        r->max_delta);
		if (r->diff_pixels)
			fprintf(f, "\"box\": [%d, %d, %d, %d]", r->box.x, r->box.y,
			        r->box.w, r->box.h);
		else
			fprintf(f, "\"box\": null");
		if (cfg->opts.window)
			fprintf(f, ", \"window_pixels\": %lld", r->window_pixels);
		fprintf(f, ", \"aa_pixels\": %lld, \"changed_pixels\": %lld, "
		        "\"total_pixels\": %lld, \"width\": %d, \"height\": %d, "
		        "\"same_bytes\": %s", r->aa_pixels, r->changed_pixels,
		        r->total_pixels, r->a_width, r->a_height,
		        r->same_bytes ? "true" : "false");
	} else {
		fprintf(f, ", \"diff_pixels\": null, \"diff_ratio\": null, "
		        "\"max_delta\": null, \"box\": null");
	}
	if (p->status == DS_MISMATCH)
		fprintf(f, ", \"baseline_size\": [%d, %d], \"current_size\": [%d, %d]",
		        r->a_width, r->a_height, r->b_width, r->b_height);
	/* where -o put the diff image (null: none written, or no -o) */
	fprintf(f, ", \"diff_image\": ");
	{
		char *path = diff_image_path(p, cfg);

		if (path)
			cli_json_string(f, path);
		else
			fprintf(f, "null");
		free(path);
	}
	if (p->placed)
		fprintf(f, ", \"aligned\": true");
	if (p->message) {
		fprintf(f, ", \"message\": ");
		cli_json_string(f, p->message);
	}
	fprintf(f, "}%s\n", last ? "" : ",");
}

static void json_anim(FILE *f, const struct diff_run *run, size_t index,
                      const struct diff_config *cfg, int last)
{
	const struct diff_anim *a = &run->anims[index];
	size_t i, k;
	int n;

	fprintf(f, "    {\"path\": ");
	cli_json_string(f, a->path);
	fprintf(f, ", \"status\": \"%s\", \"frames\": %ld, "
	        "\"baseline_frames\": %ld, \"current_frames\": %ld, "
	        "\"frames_changed\": %ld, \"diff_pixels\": %lld",
	        diff_anim_status_name(a->status),
	        a->b ? a->frames_b : a->frames_a, a->frames_a, a->frames_b,
	        a->frames_changed, a->diff_pixels);
	if (a->b && a->a)
		fprintf(f, ", \"fps\": [%.17g, %.17g]", a->a->fps, a->b->fps);
	fprintf(f, ",\n     \"metadata_changes\": [");
	for (k = 0; k < a->nchanges; k++) {
		fprintf(f, "%s{\"field\": ", k ? ", " : "");
		cli_json_string(f, a->changes[k].field);
		fprintf(f, ", \"baseline\": %s, \"current\": %s}",
		        a->changes[k].baseline, a->changes[k].current);
	}
	fprintf(f, "],\n     \"changed_frames\": [");
	for (i = 0, n = 0; i < run->n; i++)
		if (run->pairs[i].anim == (int)index && pair_changed(&run->pairs[i])) {
			fprintf(f, "%s", n++ ? ", " : "");
			cli_json_string(f, run->pairs[i].path);
		}
	fprintf(f, "], \"diff_images\": [");
	for (i = 0, n = 0; i < run->n; i++) {
		char *img;

		if (run->pairs[i].anim != (int)index ||
		    !(img = diff_image_path(&run->pairs[i], cfg)))
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		cli_json_string(f, img);
		free(img);
	}
	fprintf(f, "], \"aligned\": ");
	if (a->placed)
		fprintf(f, "{\"width\": %d, \"height\": %d, \"baseline_at\": [%d, "
		        "%d], \"current_at\": [%d, %d]}", a->width, a->height, a->ax,
		        a->ay, a->bx, a->by);
	else
		fprintf(f, "null");
	if (a->message) {
		fprintf(f, ", \"message\": ");
		cli_json_string(f, a->message);
	}
	fprintf(f, "}%s\n", last ? "" : ",");
}

void diff_write_json(FILE *f, const struct diff_run *run,
                     const struct diff_config *cfg)
{
	long long total = 0;
	size_t i;

	fprintf(f, "{\n");
	json_options(f, cfg);
	fprintf(f, "  \"baseline\": ");
	cli_json_string(f, run->base);
	fprintf(f, ",\n  \"current\": ");
	cli_json_string(f, run->cur);
	fprintf(f, ",\n  \"pairs\": [\n");
	for (i = 0; i < run->n; i++) {
		json_pair(f, &run->pairs[i], cfg, i + 1 == run->n);
		total += run->pairs[i].res.diff_pixels;
	}
	fprintf(f, "  ],\n  \"animations\": [\n");
	for (i = 0; i < run->nanims; i++)
		json_anim(f, run, i, cfg, i + 1 == run->nanims);
	fprintf(f, "  ],\n  \"animation_totals\": {\"animations\": %zu",
	        run->nanims);
	for (i = 0; i < AS_COUNT; i++)
		fprintf(f, ", \"%s\": %ld", diff_anim_status_name((enum anim_status)i),
		        run->anim_count[i]);
	fprintf(f, "},\n  \"totals\": {\"pairs\": %zu", run->n);
	for (i = 0; i < DS_COUNT; i++)
		fprintf(f, ", \"%s\": %ld", diff_status_name((enum diff_status)i),
		        run->count[i]);
	fprintf(f, ", \"diff_pixels\": %lld, \"skipped_files\": %ld, "
	        "\"exit_code\": %d}\n}\n", total, run->skipped,
	        diff_exit_code(run));
}

static void xml_text(FILE *f, const char *s)
{
	bb_markup_escape(s, bb_put_file, f);
}

/* The pair's description, as XML-escaped text. */
void diff_pair_markup(FILE *f, const struct diff_pair *p)
{
	char *buf = diff_pair_text(p);

	bb_markup_escape(buf ? buf : "", bb_put_file, f);
	free(buf);
}

void diff_anim_markup(FILE *f, const struct diff_run *run,
                      const struct diff_anim *a)
{
	char *buf = diff_anim_text(run, a);

	bb_markup_escape(buf ? buf : "", bb_put_file, f);
	free(buf);
}

/* One test case per animation: classname its folder, the failing frames
 * (with their numbers) in the failure's message and text. */
static void junit_anim(FILE *f, const struct diff_run *run, size_t index)
{
	const struct diff_anim *a = &run->anims[index];
	const char *slash = strrchr(a->path, '/');
	const char *kind = a->status == AS_ERROR ? "error" : "failure";
	size_t i;
	int n = 0;

	fprintf(f, "    <testcase classname=\"");
	if (slash) {
		char *dir = strndup(a->path, (size_t)(slash - a->path));

		xml_text(f, dir ? dir : "");
		free(dir);
	} else {
		fprintf(f, "bonebake.diff");
	}
	fprintf(f, "\" name=\"");
	xml_text(f, slash ? slash + 1 : a->path);
	fprintf(f, "\"");
	if (a->status == AS_IDENTICAL) {
		fprintf(f, "/>\n");
		return;
	}
	fprintf(f, ">\n      <%s type=\"%s\" message=\"", kind,
	        diff_anim_status_name(a->status));
	diff_anim_markup(f, run, a);
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];
		const char *file;

		if (p->anim != (int)index || !pair_changed(p))
			continue;
		file = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 : p->path;
		fprintf(f, "%s", n++ ? ", " : ": ");
		xml_text(f, file);
	}
	fprintf(f, "\">");
	diff_anim_markup(f, run, a);
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		if (p->anim != (int)index || !pair_changed(p))
			continue;
		fprintf(f, "\n");
		xml_text(f, p->path);
		fprintf(f, ": ");
		diff_pair_markup(f, p);
	}
	fprintf(f, "</%s>\n    </testcase>\n", kind);
}

void diff_write_junit(FILE *f, const struct diff_run *run,
                      const struct diff_config *cfg)
{
	long failures = 0, errors = 0, tests = (long)run->nanims;
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		if (p->anim >= 0)
			continue;
		tests++;
		failures += pair_changed(p);
		errors += p->status == DS_ERROR;
	}
	for (i = 0; i < run->nanims; i++) {
		failures += run->anims[i].status != AS_IDENTICAL &&
		            run->anims[i].status != AS_ERROR;
		errors += run->anims[i].status == AS_ERROR;
	}

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<testsuites name=\"bonebake diff\" tests=\"%ld\" failures=\"%ld\" "
	        "errors=\"%ld\">\n", tests, failures, errors);
	fprintf(f, "  <testsuite name=\"bonebake diff\" tests=\"%ld\" "
	        "failures=\"%ld\" errors=\"%ld\" skipped=\"0\">\n", tests,
	        failures, errors);
	fprintf(f, "    <properties>\n      <property name=\"options\" value=\"");
	{
		char *opts = diff_options_text(cfg);

		if (opts)
			xml_text(f, opts);
		free(opts);
	}
	fprintf(f, "\"/>\n      <property name=\"baseline\" value=\"");
	xml_text(f, run->base);
	fprintf(f, "\"/>\n      <property name=\"current\" value=\"");
	xml_text(f, run->cur);
	fprintf(f, "\"/>\n    </properties>\n");
	for (i = 0; i < run->nanims; i++)
		junit_anim(f, run, i);
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		if (p->anim >= 0)
			continue;
		fprintf(f, "    <testcase classname=\"bonebake.diff\" name=\"");
		xml_text(f, p->path);
		fprintf(f, "\"");
		if (p->status == DS_PASS || p->status == DS_IDENTICAL) {
			fprintf(f, "/>\n");
			continue;
		}
		fprintf(f, ">\n      <%s type=\"%s\" message=\"",
		        p->status == DS_ERROR ? "error" : "failure",
		        diff_status_name(p->status));
		diff_pair_markup(f, p);
		fprintf(f, "\">");
		diff_pair_markup(f, p);
		fprintf(f, "</%s>\n    </testcase>\n",
		        p->status == DS_ERROR ? "error" : "failure");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
}
