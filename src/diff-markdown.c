/* The `diff` command's Markdown summary: what a reviewer reads first, on a
 * CI job page (GitHub's step summary takes it as it is) or in a pull
 * request comment.  Counts, then one table row per animation that is not
 * identical (what changed, its frames, a link into the HTML report), or,
 * for folders that are not renders, per file that failed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diff-run.h"

/* Rows listed at most; the rest are counted. */
enum { MD_MAX_ROWS = 200 };

/* Text in a table cell: '|', '<', '>', '&' and '`' escaped, line breaks
 * as spaces. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '|': fputs("\\|", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '`': fputs("\\`", f); break;
		case '\n': case '\r': fputc(' ', f); break;
		default: fputc(*s, f);
		}
}

/* The link target URL#anim-N, with characters that would end the
 * Markdown link percent-encoded. */
static void md_url(FILE *f, const char *url, const char *anchor, size_t n)
{
	for (; *url; url++) {
		unsigned char c = (unsigned char)*url;

		if (c <= ' ' || c == '(' || c == ')' || c == '<' || c == '>' ||
		    c == '|' || c >= 0x7f)
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
	fprintf(f, "#%s-%zu", anchor, n);
}


/* The first cell: a link into the report (URL#ANCHOR-N) when its URL is
 * known, else the name as code. */
static void md_name(FILE *f, const struct diff_config *cfg, const char *name,
                    const char *anchor, size_t n)
{
	if (cfg->report_url) {
		fputc('[', f);
		md_cell(f, name);
		fprintf(f, "](");
		md_url(f, cfg->report_url, anchor, n);
		fputc(')', f);
	} else {
		fputc('`', f);
		md_cell(f, name);
		fputc('`', f);
	}
}

static const char *anim_mark(enum anim_status s)
{
	switch (s) {
	case AS_CHANGED: return "changed";
	case AS_ADDED: return "added";
	case AS_REMOVED: return "removed";
	case AS_ERROR: return "**error**";
	case AS_IDENTICAL:
	case AS_COUNT:
		break;
	}
	return "identical";
}

static void anim_rows(FILE *f, const struct diff_run *run,
                      const struct diff_config *cfg)
{
	size_t i, rows = 0;
	int s;

	fprintf(f, "| animation | | what changed | frames |\n|---|---|---|---|\n");
	/* changed first, then removed, added, errors (the status order) */
	for (s = 0; s < AS_IDENTICAL; s++)
		for (i = 0; i < run->nanims; i++) {
			const struct diff_anim *a = &run->anims[i];
			char *what;

			if ((int)a->status != s)
				continue;
			if (++rows > MD_MAX_ROWS)
				continue;
			fprintf(f, "| ");
			md_name(f, cfg, a->path, "anim", i);
			fprintf(f, " | %s | ", anim_mark(a->status));
			what = diff_anim_text(run, a);
			md_cell(f, what ? what : "");
			free(what);
			fprintf(f, " | %ld of %ld |\n", a->frames_changed,
			        a->frames_b > a->frames_a ? a->frames_b : a->frames_a);
		}
	if (rows > MD_MAX_ROWS)
		fprintf(f, "\n… and %zu more.\n", rows - MD_MAX_ROWS);
}

static int pair_failing(const struct diff_pair *p)
{
	return p->status != DS_PASS && p->status != DS_IDENTICAL;
}

/* Files outside any animation that did not pass. */
static void pair_rows(FILE *f, const struct diff_run *run,
                      const struct diff_config *cfg)
{
	size_t i, rows = 0;

	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];
		char *buf;

		if (p->anim >= 0 || !pair_failing(p))
			continue;
		if (rows++ == 0)
			fprintf(f, "\n| file | | |\n|---|---|---|\n");
		if (rows > MD_MAX_ROWS)
			continue;
		fprintf(f, "| ");
		md_name(f, cfg, p->path, "pair", i);
		fprintf(f, " | %s | ", diff_status_name(p->status));
		buf = diff_pair_text(p);
		md_cell(f, buf ? buf : "");
		free(buf);
		fprintf(f, " |\n");
	}
	if (rows > MD_MAX_ROWS)
		fprintf(f, "\n… and %zu more.\n", rows - MD_MAX_ROWS);
}

void diff_write_markdown(FILE *f, const struct diff_run *run,
                         const struct diff_config *cfg)
{
	long failing = 0;
	size_t i;
	int code = diff_exit_code(run);

	for (i = 0; i < run->n; i++)
		failing += run->pairs[i].anim < 0 && pair_failing(&run->pairs[i]);
	if (run->nanims)
		fprintf(f, "## bonebake diff: %ld of %zu animations changed\n\n",
		        run->nanims - run->anim_count[AS_IDENTICAL], run->nanims);
	else
		fprintf(f, "## bonebake diff: %ld of %zu files differ\n\n",
		        run->n - run->count[DS_IDENTICAL] - run->count[DS_PASS],
		        run->n);
	if (run->nanims) {
		fprintf(f, "**%zu animations:**", run->nanims);
		diff_print_counts(f, run, 1, 0);
		fprintf(f, " · ");
	}
	fprintf(f, "%zu frames compared", run->n);
	if (run->n > (size_t)run->count[DS_IDENTICAL])
		fputc(':', f);
	diff_print_counts(f, run, 0, 1);
	fprintf(f, " · exit %d", code);
	if (cfg->report_url) {
		fprintf(f, " · [full report](");
		md_url(f, cfg->report_url, "top", 0);
		fputc(')', f);
	}
	fprintf(f, "\n\n");
	if (run->nanims && run->nanims > (size_t)run->anim_count[AS_IDENTICAL])
		anim_rows(f, run, cfg);
	else if (run->nanims)
		fprintf(f, "Every animation is identical.\n");
	if (failing)
		pair_rows(f, run, cfg);
	fprintf(f, "\n<sub>");
	{
		char *opts = diff_options_text(cfg);

		if (opts)
			md_cell(f, opts);
		free(opts);
	}
	fprintf(f, "</sub>\n");
}
