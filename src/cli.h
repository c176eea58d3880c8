/* Shared pieces of the bonebake CLI: exit codes, error printing, progress.
 * The CLI only includes the public headers in lib/include/bonebake/. */
#ifndef BB_CLI_H
#define BB_CLI_H

#include <stdio.h>

#include "bonebake/bonebake.h"

/* Exit codes shared by every command (documented in README.md). */
enum {
	EXIT_OK = 0,
	EXIT_DIFFERENT = 1,   /* diff: differences beyond budget */
	EXIT_USAGE = 2,       /* bad command line */
	EXIT_INPUT = 3,       /* bad input file (invalid, out of range, over a limit) */
	EXIT_IO = 4,          /* cannot read or write */
	EXIT_MISMATCH = 5,    /* diff: image sizes differ */
	EXIT_MISSING = 6,     /* diff: files missing or added on one side */
	EXIT_INTERNAL = 70    /* out of memory or a bug */
};

/* Sampling rate when neither --fps nor the file gives one (Forge). */
enum { CLI_DEFAULT_FPS = 30 };

/* Runs the command argv[1] with its arguments (argv[0] is the program)
 * and returns its exit code: what main does after the global options
 * (src/main.c). */
int cli_command(int argc, char **argv);
/* The same, leaving stdout open: a batch worker runs one job after
 * another in one process (src/cmd-batch.c). */
int cli_command_again(int argc, char **argv);

/* Maps a library status to the exit code above. */
int cli_exit_code(bb_status s);
/* Prints "bonebake: <file>: <path>: <message>" to stderr and returns the
 * exit code for err->status. */
int cli_fail(const bb_error *err);
/* The same, naming `file` when the error names none (a limit of the
 * packer is about the input the user gave). */
int cli_fail_about(bb_error *err, const char *file);
/* err names `file` (cut to the field's size), whatever it named. */
void cli_error_file(bb_error *err, const char *file);
/* Prints "bonebake <cmd>: <message>" and a --help hint; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The model's warnings, one line each, except that warnings differing
 * only in their first quoted name are one line naming the first three
 * and the count ("no atlas entry for "a", "b", "c" and 15 more (18 in
 * all); drawn as nothing"). */
void cli_warn_model(const bb_model *m);

struct option;
/* After getopt_long returned '?' or an option the command does not take:
 * names the offending argument and why (unknown, with the closest of
 * `opts` when one is near: "did you mean --scale?"; ambiguous; needs or
 * takes no value).  Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, char **argv, const struct option *opts);
/* Prints "bonebake: warning: <message>" and counts it (thread-safe). */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warnings printed so far by cli_warn (for --strict). */
long cli_warning_count(void);
/* Counts from 0 again (a batch job's process, forked from batch). */
void cli_warning_reset(void);
/* Prints "bonebake: <message>" and a newline to stderr.  The message of
 * this, cli_warn and cli_usage_error goes through bb_text_escape: names
 * taken from files cannot reach the terminal or a CI log as control or
 * bidirectional characters. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A name from a file made safe to print as text (bb_text_escape), in one
 * of four static buffers reused in turn (so up to four in one printf);
 * long names are cut at about 1000 characters.  Main thread only. */
const char *cli_text(const char *s);

/* Progress on stderr for long work.  Modes: CLI_PROGRESS_AUTO (a single
 * rewritten line when stderr is a terminal, nothing otherwise),
 * CLI_PROGRESS_QUIET (nothing), CLI_PROGRESS_JSON (one JSON object per line
 * for scripts: {"progress": label, "done", "total", "fps", "eta"}, at most
 * four a second, and always the first and the last).  The line shows done /
 * total, the rate and the time left.  Not thread-safe: callers serialise
 * calls (the frame loops hold their lock). */
enum { CLI_PROGRESS_AUTO = 0, CLI_PROGRESS_QUIET = 1, CLI_PROGRESS_JSON = 2,
       CLI_PROGRESS_LINE = 3 /* a line even when stderr is not a terminal */ };

typedef struct cli_progress {
	int show;                 /* 0: nothing; CLI_PROGRESS_LINE or _JSON */
	const char *label;
	const char *unit;         /* "frames", "pairs" ... */
	long total, done;
	double t0, last;          /* monotonic seconds */
	int shown;
} cli_progress;

/* `mode` is one of the CLI_PROGRESS_* values (0 and 1 double as "not
 * quiet" / "quiet", so a --quiet flag can be passed as is). */
void cli_progress_start(cli_progress *p, const char *label, long total, int mode);
/* The unit shown after the counts (default "done"). */
void cli_progress_unit(cli_progress *p, const char *unit);
void cli_progress_step(cli_progress *p, long n);
void cli_progress_end(cli_progress *p);
/* Parses --progress auto|line|json|none into a mode; 0 on error. */
int cli_parse_progress(const char *s, int *mode);

/* Parses "WxH" into two positive ints; returns 0 on error. */
int cli_parse_size(const char *s, int *w, int *h);
/* Parses "X,Y" into two doubles; returns 0 on error. */
int cli_parse_xy(const char *s, double *x, double *y);
/* Parses a finite double / a non-negative int; returns 0 on error. */
int cli_parse_double(const char *s, double *out);
int cli_parse_int(const char *s, int min, int max, int *out);
/* Threads for --jobs N: N when > 0, else the CPUs online (1..256). */
int cli_jobs(int requested);
/* Parses a --png-level argument: 0..9, "fast" (BB_PNG_LEVEL_FAST, the
 * fast path) or "small" (9), into
 * o->level (setting o->level_set); returns 0 on error. */
int cli_parse_png_level(const char *s, bb_png_options *o);

/* A command's printed output: stdout (path NULL), or a buffer that
 * cli_output_end writes to `path` atomically, so a failed write leaves
 * nothing.  cli_output_begin returns NULL when out of memory. */
typedef struct cli_output {
	FILE *f;
	char *buf;
	size_t size;
	const char *path;
} cli_output;
FILE *cli_output_begin(cli_output *o, const char *path);
/* Finishes: returns EXIT_OK, or EXIT_IO after printing the error. */
int cli_output_end(cli_output *o);

/* --max-image-pixels: N or NM (N * 2^20), 1 .. 2^30; 0 on error. */
int cli_parse_pixels(const char *s, size_t *out);

/* Writes a JSON string literal (quotes and escapes) to f. */
void cli_json_string(FILE *f, const char *s);
/* Prints a help text to stdout, "{formats}" replaced by the output
 * formats' names ("webp|gif|..."): the encoder table lists them. */
void cli_help(const char *text);
/* "OPTION takes webp, gif, ..., not 'ARG'" (exit code 2). */
int cli_bad_format(const char *cmd, const char *option, const char *arg);

/* Commands (one cmd-<name>.c each). */
int cmd_info(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_pose(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_sheet(int argc, char **argv);
int cmd_preview(int argc, char **argv);
int cmd_gallery(int argc, char **argv);
int cmd_batch(int argc, char **argv);

#endif
