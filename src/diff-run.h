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

/* An animation's verdict (render folders: frames.json on both sides), in
 * the order reports list them. */
enum anim_status {
	AS_CHANGED = 0,   /* metadata or frames differ */
	AS_REMOVED,       /* only in the baseline */
	AS_ADDED,         /* only in the current side */
	AS_ERROR,         /* a frames.json or a frame could not be read */
	AS_IDENTICAL,
	AS_COUNT
};

/* One field of frames.json that differs; values are JSON text. */
struct diff_change {
	char field[64];
	char *baseline, *current;
};

struct diff_anim {
	char *path;              /* its folder, relative ("." at the top) */
	bb_frames_json *a, *b;   /* each side's frames.json (NULL: none) */
	enum anim_status status;
	char *message;           /* why it is an error */
	struct diff_change *changes;
	size_t nchanges;
	long frames_a, frames_b; /* frames listed on each side */
	long frames_changed;     /* frames that differ, were added or removed */
	long frames_added, frames_removed;
	long long diff_pixels;
	int placed;              /* frames compared on the union canvas,
	                            aligned on the origin pixel */
	int ax, ay, bx, by;      /* where each side sits on it */
	int width, height;
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
	int anim;            /* index in run->anims, -1: none */
	int placed;          /* compared on its animation's union canvas */
};

struct diff_config {
	bb_diff_options opts;
	bb_diff_budget budget;
	const char *out_dir;   /* -o: folder for diff images */
	const char *out_file;  /* -o FILE.png in file mode */
	const char *json;      /* --json FILE ("-": stdout) */
	const char *junit;     /* --junit FILE ("-": stdout) */
	const char *html;      /* --html DIR */
	const char *markdown;  /* --markdown FILE ("-": stdout) */
	const char *report_url; /* --report-url: where the HTML is published */
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
	struct diff_anim *anims; /* render folders, sorted by path */
	size_t nanims;
	long anim_count[AS_COUNT];
	int report_failed;       /* a report or image could not be written */
};

/* diff-run.c */
/* Builds the pair list from two folders (relative paths, *.png only, sorted)
 * or two files.  Returns an exit code (0 on success); prints errors. */
int diff_collect(struct diff_run *run, const char *base, const char *cur);
/* Compares every pair with cfg->jobs threads; writes diff images and the
 * HTML folder's image copies.  Fills statuses and run->count. */
void diff_execute(struct diff_run *run, const struct diff_config *cfg);
/* The HTML players need every frame of a changed animation: copies the
 * frames diff_execute did not (identical ones), placed on the union canvas
 * when the animation compares that way.  0 or -1 (errors printed). */
int diff_html_fill(struct diff_run *run, const struct diff_config *cfg);
void diff_run_free(struct diff_run *run);
/* Creates the folders leading to file `path` (bb_mkdirs of its dirname);
 * prints the error and returns -1 on failure. */
int diff_mkdirs_for(const char *path);
/* Joins two path parts into new memory (NULL when out of memory). */
char *diff_join(const char *dir, const char *rel);

/* diff-anim.c */
/* From the frames.json files found on each side (relative paths, sorted):
 * the animations, with their pairs assigned, each side's frames.json read
 * and compared, and the union canvas of those whose geometry changed.
 * A frames.json on one side only makes an added or removed animation when
 * the other side has no frame in its folder (else it is skipped).  Returns
 * an exit code for out of memory. */
int diff_anims_collect(struct diff_run *run, char **meta_a, size_t na,
                       char **meta_b, size_t nb);
/* After diff_execute: each animation's status and counts. */
void diff_anims_finish(struct diff_run *run);
void diff_anims_free(struct diff_run *run);
const char *diff_anim_status_name(enum anim_status s);
/* Whether a pair is a frame of an animation present on both sides: its
 * being added or removed is a change of that animation, not of the file
 * set. */
int diff_pair_in_both(const struct diff_run *run, const struct diff_pair *p);
/* "fps 24 -> 30; events[0].name \"hit\" -> \"hit_heavy\"; 3 frames changed" */
void diff_describe_anim(FILE *f, const struct diff_run *run,
                        const struct diff_anim *a);

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
/* The Markdown summary (diff-markdown.c). */
void diff_write_markdown(FILE *f, const struct diff_run *run,
                         const struct diff_config *cfg);
/* One-line description of the applied thresholds and budget. */
void diff_describe_options(FILE *f, const struct diff_config *cfg);
/* The same as a new string (free it), or NULL when out of memory. */
char *diff_options_text(const struct diff_config *cfg);
/* The pair's numbers in words ("152 pixels (0.93%) differ, ..."). */
void diff_describe_pair(FILE *f, const struct diff_pair *p);
/* diff_describe_pair / diff_describe_anim as a new string (free it), or
 * NULL when out of memory. */
char *diff_pair_text(const struct diff_pair *p);
char *diff_anim_text(const struct diff_run *run, const struct diff_anim *a);
/* The same descriptions as HTML/XML text (bb_markup_escape), for the HTML
 * and JUnit reports. */
void diff_pair_markup(FILE *f, const struct diff_pair *p);
void diff_anim_markup(FILE *f, const struct diff_run *run,
                      const struct diff_anim *a);
/* The counts by status, " 2 changed, 13 identical" (animations when
 * `anims`, else pairs; statuses with no count left out, and identical
 * too when `no_identical`). */
void diff_print_counts(FILE *f, const struct diff_run *run, int anims,
                       int no_identical);

/* diff-html.c */
/* Writes DIR/index.html (the images were copied by diff_execute). */
int diff_write_html(const struct diff_run *run, const struct diff_config *cfg);
/* Paths of a pair's images inside the HTML folder, relative to it. */
char *diff_html_image(const struct diff_pair *p, const char *kind);

#endif
