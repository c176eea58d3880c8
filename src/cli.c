/* Shared CLI helpers. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_exit_code(bb_status s)
{
	switch (s) {
	case BB_OK: return EXIT_OK;
	case BB_ERR_USAGE: return EXIT_USAGE;
	case BB_ERR_INPUT: return EXIT_INPUT;
	case BB_ERR_LIMIT: return EXIT_INPUT;
	case BB_ERR_IO: return EXIT_IO;
	case BB_ERR_MISMATCH: return EXIT_MISMATCH;
	case BB_ERR_NOMEM: return EXIT_INTERNAL;
	case BB_ERR_INTERNAL: return EXIT_INTERNAL;
	}
	return EXIT_INTERNAL;
}

int cli_fail(const bb_error *err)
{
	char buf[BB_ERROR_FILE_MAX * 2 + BB_ERROR_PATH_MAX * 2 + BB_ERROR_MSG_MAX * 2 + 64];

	bb_error_format(err, buf, sizeof buf);
	fprintf(stderr, "bonebake: %s\n", buf);
	return cli_exit_code(err->status);
}

void cli_error_file(bb_error *err, const char *file)
{
	size_t n = strlen(file);

	if (n >= sizeof err->file)
		n = sizeof err->file - 1;
	memcpy(err->file, file, n);
	err->file[n] = '\0';
}

int cli_fail_about(bb_error *err, const char *file)
{
	if (!err->file[0] && file)
		cli_error_file(err, file);
	return cli_fail(err);
}

/* Prints `head`, then the message formatted from fmt with what could act
 * on a terminal escaped (bb_text_escape), then `tail`. */
static void print_escaped(const char *head, const char *tail, const char *fmt,
                          va_list ap)
{
	char text[4096], safe[4 * sizeof text];

	vsnprintf(text, sizeof text, fmt, ap);
	fprintf(stderr, "%s%s%s", head, bb_text_escape(text, safe, sizeof safe), tail);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char head[64];
	va_list ap;

	snprintf(head, sizeof head, "bonebake %s: ", cmd);
	va_start(ap, fmt);
	print_escaped(head, "\n", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'bonebake %s --help'.\n", cmd);
	return EXIT_USAGE;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_escaped("bonebake: ", "\n", fmt, ap);
	va_end(ap);
}

/* Edit distance between a[0..na) and b[0..nb) (Levenshtein, adjacent
 * transpositions counting one), capped at 9. */
static int edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
	int d[40][40];
	size_t i, j;

	if (na >= 40 || nb >= 40)
		return 9;
	for (i = 0; i <= na; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++) {
			int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[na][nb] > 9 ? 9 : d[na][nb];
}

int cli_bad_option(const char *cmd, char **argv, const struct option *opts)
{
	const char *arg = argv[optind - 1], *name, *eq, *best = NULL;
	size_t n, nmatch = 0;
	int i, bestd = 9;

	if (optopt && optopt < 256 && optopt != '?') {
		for (i = 0; opts[i].name; i++)
			if (opts[i].val == optopt && opts[i].has_arg == required_argument)
				return cli_usage_error(cmd, "option -%c needs a value", optopt);
		return cli_usage_error(cmd, "unknown option -%c", optopt);
	}
	if (strncmp(arg, "--", 2) != 0)
		return cli_usage_error(cmd, "unknown option %s", arg);
	name = arg + 2;
	eq = strchr(name, '=');
	n = eq ? (size_t)(eq - name) : strlen(name);
	for (i = 0; opts[i].name; i++) {
		size_t len = strlen(opts[i].name);
		int d;

		if (len == n && strncmp(opts[i].name, name, n) == 0)
			return cli_usage_error(cmd, opts[i].has_arg == no_argument
			                       ? "option --%s takes no value"
			                       : "option --%s needs a value", opts[i].name);
		if (len > n && strncmp(opts[i].name, name, n) == 0)
			nmatch++;     /* an ambiguous abbreviation */
		d = edit_distance(name, n, opts[i].name, len);
		if (d < bestd) {
			bestd = d;
			best = opts[i].name;
		}
	}
	if (nmatch > 1)
		return cli_usage_error(cmd, "option --%.*s is ambiguous (%zu options "
		                       "start so)", (int)n, name, nmatch);
	if (best && bestd <= (n < 6 ? 1 : n < 10 ? 2 : 3))
		return cli_usage_error(cmd, "unknown option --%.*s; did you mean --%s?",
		                       (int)n, name, best);
	return cli_usage_error(cmd, "unknown option --%.*s", (int)n, name);
}

/* The first "quoted" part of w: its start and length (quotes included);
 * 0 when there is none. */
static int quoted(const char *w, size_t *at, size_t *len)
{
	const char *a = strchr(w, '"'), *b = a ? strchr(a + 1, '"') : NULL;

	if (!b)
		return 0;
	*at = (size_t)(a - w);
	*len = (size_t)(b - a) + 1;
	return 1;
}

/* Do warnings a and b differ only in their first quoted part? */
static int same_but_name(const char *a, const char *b)
{
	size_t aa, al, ba, bl;

	return quoted(a, &aa, &al) && quoted(b, &ba, &bl) && aa == ba &&
	       strncmp(a, b, aa) == 0 && strcmp(a + aa + al, b + ba + bl) == 0;
}

/* Warnings printed (cli_warn, cli_warn_model), for --strict. */
static long warnings;

void cli_warn_model(const bb_model *m)
{
	enum { SHOWN = 3 };
	int n = bb_model_warning_count(m), i, j;
	char *done = calloc((size_t)(n > 0 ? n : 1), 1);

	for (i = 0; i < n; i++) {
		const char *w = bb_model_warning(m, i), *same[SHOWN];
		size_t at, len;
		int count = 1, k;

		if (done && done[i])
			continue;
		same[0] = w;
		for (j = i + 1; done && j < n; j++)
			if (!done[j] && same_but_name(w, bb_model_warning(m, j))) {
				if (count < SHOWN)
					same[count] = bb_model_warning(m, j);
				count++;
				done[j] = 1;
			}
		if (count == 1 || !quoted(w, &at, &len)) {
			cli_warn("%s", w);
			continue;
		}
		/* one line: the names of the first few and how many in all */
		__atomic_add_fetch(&warnings, 1, __ATOMIC_SEQ_CST);
		fprintf(stderr, "bonebake: warning: %.*s", (int)at, w);
		for (k = 0; k < count && k < SHOWN; k++) {
			size_t qa = 0, ql = 0;

			quoted(same[k], &qa, &ql);
			fprintf(stderr, "%s%.*s", k ? ", " : "", (int)ql, same[k] + qa);
		}
		if (count > SHOWN)
			fprintf(stderr, " and %d more", count - SHOWN);
		fprintf(stderr, " (%d in all)%s\n", count, w + at + len);
	}
	free(done);
}

long cli_warning_count(void)
{
	return __atomic_load_n(&warnings, __ATOMIC_SEQ_CST);
}

void cli_warning_reset(void)
{
	__atomic_store_n(&warnings, 0, __ATOMIC_SEQ_CST);
}

const char *cli_text(const char *s)
{
	static char slots[4][4096];
	static unsigned next;

	return bb_text_escape(s, slots[next++ % 4], sizeof slots[0]);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&warnings, 1, __ATOMIC_SEQ_CST);
	va_start(ap, fmt);
	print_escaped("bonebake: warning: ", "\n", fmt, ap);
	va_end(ap);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress_start(cli_progress *p, const char *label, long total, int mode)
{
	memset(p, 0, sizeof *p);
	if (mode == CLI_PROGRESS_JSON)
		p->show = CLI_PROGRESS_JSON;
	else if (total > 0 && (mode == CLI_PROGRESS_LINE ||
	                       (mode == CLI_PROGRESS_AUTO && isatty(2))))
		p->show = CLI_PROGRESS_LINE;
	p->label = label;
	p->unit = "done";
	p->total = total;
	p->t0 = p->last = now();
	if (p->show == CLI_PROGRESS_JSON) {
		fprintf(stderr, "{\"progress\": ");
		cli_json_string(stderr, label);
		fprintf(stderr, ", \"done\": 0, \"total\": %ld}\n", total);
		fflush(stderr);
	}
}

void cli_progress_unit(cli_progress *p, const char *unit)
{
	p->unit = unit;
}

static void show(cli_progress *p, double t)
{
	double el = t - p->t0, rate = el > 0 ? p->done / el : 0;
	double eta = rate > 0 ? (p->total - p->done) / rate : 0;

	if (p->show == CLI_PROGRESS_JSON) {
		fprintf(stderr, "{\"progress\": ");
		cli_json_string(stderr, p->label);
		fprintf(stderr, ", \"done\": %ld, \"total\": %ld, \"rate\": %.1f, "
		        "\"eta\": %.1f}\n", p->done, p->total, rate, eta);
	} else {
		char label[1024];

		fprintf(stderr, "\r\033[K%s %ld/%ld %s (%d%%), %.1f/s, %ld:%02ld left",
		        bb_text_escape(p->label, label, sizeof label), p->done, p->total, p->unit,
		        (int)(p->done * 100 / p->total), rate, (long)eta / 60,
		        (long)eta % 60);
	}
	fflush(stderr);
	p->last = t;
	p->shown = 1;
}

void cli_progress_step(cli_progress *p, long n)
{
	double t;

	p->done += n;
	if (!p->show)
		return;
	t = now();
	if (p->done >= p->total ||
	    t - p->last >= (p->show == CLI_PROGRESS_JSON ? 0.25 : 0.1))
		show(p, t);
}

void cli_progress_end(cli_progress *p)
{
	if (p->show == CLI_PROGRESS_JSON && p->done < p->total)
		show(p, now());
	else if (p->show == CLI_PROGRESS_LINE && p->shown)
		fprintf(stderr, "\r\033[K");
	p->show = 0;
}

int cli_parse_progress(const char *s, int *mode)
{
	if (strcmp(s, "auto") == 0)
		*mode = CLI_PROGRESS_AUTO;
	else if (strcmp(s, "line") == 0)
		*mode = CLI_PROGRESS_LINE;
	else if (strcmp(s, "json") == 0)
		*mode = CLI_PROGRESS_JSON;
	else if (strcmp(s, "none") == 0)
		*mode = CLI_PROGRESS_QUIET;
	else
		return 0;
	return 1;
}

int cli_parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a, b;

	errno = 0;
	a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X'))
		return 0;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || errno || a <= 0 || b <= 0 || a > 32768 || b > 32768)
		return 0;
	*w = (int)a;
	*h = (int)b;
	return 1;
}

int cli_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

int cli_parse_xy(const char *s, double *x, double *y)
{
	char buf[128];
	char *comma;

	if (strlen(s) >= sizeof buf)
		return 0;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (!comma)
		return 0;
	*comma = '\0';
	return cli_parse_double(buf, x) && cli_parse_double(comma + 1, y);
}

int cli_parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < min || v > max)
		return 0;
	*out = (int)v;
	return 1;
}

int cli_jobs(int requested)
{
	return bb_threads(requested, 0);
}

int cli_parse_png_level(const char *s, bb_png_options *o)
{
	int level;

	if (strcmp(s, "fast") == 0)
		level = BB_PNG_LEVEL_FAST;
	else if (strcmp(s, "small") == 0)
		level = BB_PNG_LEVEL_MAX;
	else if (!cli_parse_int(s, 0, BB_PNG_LEVEL_MAX, &level))
		return 0;
	o->level = level;
	o->level_set = 1;
	return 1;
}

int cli_parse_pixels(const char *s, size_t *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v <= 0)
		return 0;
	if (*end == 'M' && !end[1])
		v *= 1048576.0;
	else if (*end)
		return 0;
	if (v < 1 || v > 1073741824.0)
		return 0;
	*out = (size_t)v;
	return 1;
}

FILE *cli_output_begin(cli_output *o, const char *path)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	o->f = path ? open_memstream(&o->buf, &o->size) : stdout;
	return o->f;
}

int cli_output_end(cli_output *o)
{
	bb_error err;
	int rc = EXIT_OK;

	if (!o->path)
		return rc;
	if (fclose(o->f) != 0) {
		free(o->buf);
		fprintf(stderr, "bonebake: out of memory\n");
		return EXIT_INTERNAL;
	}
	if (bb_file_write_atomic(o->path, o->buf, o->size, &err) != BB_OK)
		rc = cli_fail(&err);
	free(o->buf);
	o->buf = NULL;
	return rc;
}

void cli_help(const char *text)
{
	static const char key[] = "{formats}";
	const char *p;
	char list[128];

	bb_anim_format_list("|", list, sizeof list);
	while ((p = strstr(text, key)) != NULL) {
		fwrite(text, 1, (size_t)(p - text), stdout);
		fputs(list, stdout);
		text = p + sizeof key - 1;
	}
	fputs(text, stdout);
}

int cli_bad_format(const char *cmd, const char *option, const char *arg)
{
	char list[128], *last;

	bb_anim_format_list(", ", list, sizeof list);
	if ((last = strrchr(list, ',')) != NULL)
		return cli_usage_error(cmd, "%s takes %.*s or%s, not '%s'", option,
		                       (int)(last - list), list, last + 1, arg);
	return cli_usage_error(cmd, "%s takes %s, not '%s'", option, list, arg);
}

void cli_json_string(FILE *f, const char *s)
{
	bb_json_quote(s, bb_put_file, f);
}
