/* What preview, render and sheet share for the outputs written beside the
 * frames: an animated file per animation (WebP, GIF, APNG, or a video:
 * WebM, MP4, MOV) and a contact
 * sheet per animation, both fed in frame order while the frames render,
 * and the list of files that are only renamed into place when the whole
 * run succeeded. */
#ifndef BB_PREVIEW_OUT_H
#define BB_PREVIEW_OUT_H

#include <getopt.h>
#include <limits.h>

#include "figure.h"

typedef struct anim_opts {
	int has_format;            /* --preview FORMAT (render, sheet) or
	                              --format (preview) */
	bb_anim_format format;
	int quality;               /* --quality N, -1 when not given */
	int loop_count;            /* --loop-count N, 0 when not given */
	long long bitrate;         /* --video-bitrate (bits/s), 0 when not given */
	const char *contact;       /* --contact-sheet FILE.png */
} anim_opts;

/* Option ids >= ANIM_OPT_BASE belong to these options. */
enum { ANIM_OPT_BASE = 3000 };
/* --preview (without_preview: leave it out), --quality, --loop-count,
 * --video-bitrate, --contact-sheet. */
void anim_merge_options(struct option *tab, int n, int with_preview);
extern const char anim_help[];
void anim_opts_init(anim_opts *o);
/* Returns 1 if `id` was one of these options, 0 if not, -1 after a usage
 * error. */
int anim_parse(anim_opts *o, int id, const char *arg, const char *cmd);
/* Checks --quality, --video-bitrate against the format, and that a video
 * format is built in.  Returns an exit code. */
int anim_check(const anim_opts *o, const char *cmd);

/* Files written under temporary names and renamed together at the end. */
typedef struct pending {
	char (*final)[4096];
	char (*staged)[4200];
	int n, cap;
} pending;

/* Reserves a staged name beside `final` (".<name>.bonebake-XXXXXX") in
 * *staged.  Returns an exit code (errors printed). */
int pending_add(pending *p, const char *final, const char **staged);
/* 1 (said) when `final` is a folder, which no file can be renamed onto:
 * pending_add refuses it, and a command that commits its main output
 * before adding its extras asks first. */
int pending_refused(const char *final);
/* Renames every staged file into place.  Returns an exit code. */
int pending_commit(pending *p);
/* Removes every staged file. */
void pending_abort(pending *p);

/* The per-animation encoders fed while one job renders. */
typedef struct anim_job {
	const fig_job *job;
	bb_anim_writer *anim;
	bb_contact_sheet *sheet;
	const char *anim_path;      /* where the writer writes (a staged name) */
	const char *sheet_path;
	const char *anim_shown;     /* the names errors give */
	const char *sheet_shown;
	int cycles, cycle;          /* a video holds the frames `cycles` times
	                               (--loop-count); `cycle` is being fed */
} anim_job;

/* Opens what is asked for job j: an animated file at anim_path (NULL:
 * none) and a contact sheet to be written at sheet_path (NULL: none);
 * errors name anim_shown / sheet_shown.  Returns an exit code. */
int anim_job_begin(anim_job *x, const fig_job *j, const anim_opts *o,
                   const char *anim_path, const char *anim_shown,
                   const char *sheet_path, const char *sheet_shown);
/* The ordered callback for figure_render_ordered (user: the anim_job):
 * frame i of the current cycle. */
int anim_job_frame(long i, const bb_image *img, void *user);
/* After every frame was fed once: 1 when the video wants the frames again
 * (the next --loop-count cycle; the contact sheet is done), else 0. */
int anim_job_next_cycle(anim_job *x);
/* Finishes the files.  Returns an exit code. */
int anim_job_end(anim_job *x);
/* Drops what is unfinished (after a failure). */
void anim_job_abort(anim_job *x);

/* The contact sheet's path for job j: `file` itself when the run has one
 * animation, else `file` with "-<armature>-<anim>" / "-<anim>" inserted
 * before the extension.  Returns 0 if too long. */
int contact_path(const char *file, const fig_job *j, int njobs, char *buf,
                 size_t size);

#endif
