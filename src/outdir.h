/* Output folders written all-or-nothing.
 *
 * Work happens in a staging folder and is moved into place at the end, a
 * whole output set at a time, so that a reader (or a run killed at any
 * moment) finds either the old set or the new one, never a mix:
 *   entries mode (render): every top-level entry of the staging folder (an
 *     animation's folder, or an armature's) replaces the entry of that name
 *     in the destination by an atomic exchange (renameat2 RENAME_EXCHANGE);
 *   set mode (sheet, pack): the files of one sheet (NAME.*, NAME-<n>.*).
 *     When the destination holds nothing else, the whole folder is
 *     exchanged with a staged sibling; otherwise the new files are renamed
 *     in one by one and the old set's files the new set does not have
 *     (pages of a larger earlier sheet) are removed.
 * Staging folders are named .bonebake-stage-*, hold a lock (flock) while
 * their run lives, and a later run removes the ones whose lock is free
 * (left by a killed run).  SIGINT/SIGTERM during a run remove its staging
 * folder: the command then exits 130/143 (cli_interrupted). */
#ifndef BB_OUTDIR_H
#define BB_OUTDIR_H

#include <limits.h>
#include <stddef.h>

/* Longest destination folder, and longest path inside the staging folder
 * (the folder, the staging name and a relative path of up to PATH_MAX). */
enum { OUTDIR_DEST_MAX = PATH_MAX, OUTDIR_PATH_MAX = 2 * PATH_MAX + 64,
       OUTDIR_NAME_MAX = 256, OUTDIR_SETS_MAX = 8 };

typedef struct outdir {
	char dest[OUTDIR_DEST_MAX];       /* the folder the user named */
	char stage[OUTDIR_DEST_MAX + 320]; /* the staging folder ("": moved) */
	char set[OUTDIR_SETS_MAX][OUTDIR_NAME_MAX]; /* set mode: sheet names */
	int nsets;
	int whole;                        /* set mode: stage replaces dest */
	char made[OUTDIR_DEST_MAX];       /* the folder made with its parents: */
	int created_dest;                 /* how many of its last folders were
	                                   * made, removed on failure */
	int lock_fd;                      /* the staging folder's lock */
} outdir;

/* Entries mode.  Creates dest (and parents) if needed, removes staging
 * folders of killed runs, and makes a staging folder in dest.  Prints the
 * error and returns an exit code on failure. */
int outdir_open(outdir *d, const char *dest);
/* Set mode for the sheet named `set`. */
int outdir_open_set(outdir *d, const char *dest, const char *set);
/* Set mode for n (<= OUTDIR_SETS_MAX) sheets together (scale variants):
 * their files are one output set. */
int outdir_open_sets(outdir *d, const char *dest, const char *const *sets,
                     int n);
/* Path of `rel` inside the staging folder. Returns 0 if too long. */
int outdir_path(const outdir *d, const char *rel, char *buf, size_t size);
/* Creates a sub-folder of the staging folder. Returns an exit code. */
int outdir_mkdir(const outdir *d, const char *rel);
/* The same for a folder that holds outputs of their own (an armature's
 * animation folders or previews): where the destination has it already,
 * the commit puts its entries in one by one and keeps the others (an
 * earlier run's other animations), rather than replacing it whole. */
int outdir_mkdir_shared(const outdir *d, const char *rel);
/* Moves the staged output into place as described above and removes the
 * staging folder.  Returns an exit code. */
int outdir_commit(outdir *d);
/* Removes the staging folder (and dest when we created it). */
void outdir_abort(outdir *d);
/* 1 for the names of bonebake's own bookkeeping: staging folders
 * (.bonebake-stage-*, .<name>.bonebake-stage-*), temporary files
 * (.<name>.bonebake-*), batch records (.bonebake-batch.json).  `diff`
 * skips them and a later run sweeps the stages of killed runs. */
int outdir_is_own(const char *name);
/* rm -rf. */
int remove_tree(const char *path);

/* The signal (SIGINT, SIGTERM) that interrupted the run, or 0.  Set by the
 * handlers cli_interrupt_install puts in place: without a staging folder
 * open they exit at once (128 + signal); with one they set this, the frame
 * loops stop, the command removes its staging folder and main exits
 * 128 + signal. */
extern volatile int cli_interrupted;
void cli_interrupt_install(void);
/* SIGINT and SIGTERM to `handler` (batch forwards them to its jobs). */
void cli_stop_signals(void (*handler)(int));
/* Temporary files other than a staging folder (a preview written beside
 * its final name) are held while they exist: a signal then lets the run
 * remove them instead of exiting at once. */
void cli_stage_hold(void);
void cli_stage_release(void);

#endif
