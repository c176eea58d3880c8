/* The `diff` command's shared pieces: the pair list, running the
 * comparisons in parallel, and the report writers.  CLI-only. */
#ifndef BB_DIFF_RUN_H
#define BB_DIFF_RUN_H

#include <stdio.h>

#include "cli.h"

/* A pair's verdict, in the order failures are listed in reports. */
enum diff_status {
	DS_FAIL = 0,      /* differs beyond the budget */
	DS_MISMATCH,      /* image sizes differ */
	DS_MISSING,       /* only in the baseline */
	DS_ADDED,         /* only in the current side */
	DS_ERROR,         /* unreadable or invalid file */
	DS_PASS,          /* differs, within the budget (or below the threshold) */
	DS_IDENTICAL,     /* pixel-identical */
	DS_COUNT
};

struct diff_pair {
	char *path;          /* relative path, the pair's name in reports */
	char *a_path;        /* baseline file, NULL when missing */
	char *b_path;        /* current file, NULL when added */
	enum diff_status status;
	bb_diff_result res;
	bb_status err_status;
	char *message;       /* error text, NULL when none */
	int has_diff;        /* a diff image was written */
	int html_images;     /* baseline/current copies exist in the HTML folder */
};

struct diff_config {
	bb_diff_options opts;
	bb_diff_budget budget;
	const char *out_dir;   /* -o: folder for diff images */
	const char *out_file;  /* -o FILE.png in file mode */
	const char *json;      /* --json FILE ("-": stdout) */
	const char *junit;     /* --junit FILE ("-": stdout) */
	const char *html;      /* --html DIR */
	/* where -o DIR's images and --html's folder are written: staging
	 * folders moved into place when everything is written (reports name
	 * out_dir and html) */
	const char *out_write, *html_write;
	int jobs;
	int update, quiet, verbose;
};

struct diff_run {
	const char *base, *cur;  /* the two arguments */
	int folders;             /* 1: folder mode */
	struct diff_pair *pairs; /* sorted by path */
	size_t n, cap;
	long skipped;            /* non-PNG files not compared */
	long count[DS_COUNT];
	int report_failed;       /* a report or image could not be written */
};

/* diff-run.c */
/* Builds the pair list from two folders (relative paths, *.png only, sorted)
 * or two files.  Returns an exit code (0 on success); prints errors. */
int diff_collect(struct diff_run *run, const char *base, const char *cur);
/* Compares every pair with cfg->jobs threads; writes diff images and the
 * HTML folder's image copies.  Fills statuses and run->count. */
void diff_execute(struct diff_run *run, const struct diff_config *cfg);
void diff_run_free(struct diff_run *run);
/* Creates the folders leading to file `path` (bb_mkdirs of its dirname);
 * prints the error and returns -1 on failure. */
int diff_mkdirs_for(const char *path);
/* Joins two path parts into new memory (NULL when out of memory). */
char *diff_join(const char *dir, const char *rel);

/* diff-report.c */
const char *diff_status_name(enum diff_status s);
/* The exit code for a finished run (precedence documented in --help). */
int diff_exit_code(const struct diff_run *run);
/* bb_file_write_atomic, printing the error; 0 or -1. */
int diff_write_atomic(const char *path, const void *data, size_t size);
/* Copies a file (atomically at the destination). */
int diff_copy_file(const char *from, const char *to);
/* Runs write(f, run, cfg) into memory and saves it at path ("-": stdout).
 * Returns 0 or prints an error and returns -1. */
int diff_save_report(const char *path, const struct diff_run *run,
                     const struct diff_config *cfg,
                     void (*write)(FILE *, const struct diff_run *,
                                   const struct diff_config *));
void diff_write_json(FILE *f, const struct diff_run *run,
                     const struct diff_config *cfg);
void diff_write_junit(FILE *f, const struct diff_run *run,
                      const struct diff_config *cfg);
/* One-line description of the applied thresholds and budget. */
void diff_describe_options(FILE *f, const struct diff_config *cfg);
/* The same as a new string (free it), or NULL when out of memory. */
char *diff_options_text(const struct diff_config *cfg);
/* The pair's numbers in words ("152 pixels (0.93%) differ, ..."). */
void diff_describe_pair(FILE *f, const struct diff_pair *p);

/* diff-html.c */
/* Writes DIR/index.html (the images were copied by diff_execute). */
int diff_write_html(const struct diff_run *run, const struct diff_config *cfg);
/* Paths of a pair's images inside the HTML folder, relative to it. */
char *diff_html_image(const struct diff_pair *p, const char *kind);

#endif
