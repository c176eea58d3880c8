/* Output folders written all-or-nothing: work happens in a hidden staging
 * folder inside the destination and is moved into place at the end. */
#ifndef BB_OUTDIR_H
#define BB_OUTDIR_H

#include <limits.h>
#include <stddef.h>

/* Longest destination folder, and longest path inside the staging folder
 * (the folder, the staging name and a relative path of up to PATH_MAX). */
enum { OUTDIR_DEST_MAX = PATH_MAX, OUTDIR_PATH_MAX = 2 * PATH_MAX + 64 };

typedef struct outdir {
	char dest[OUTDIR_DEST_MAX];       /* the folder the user named */
	char stage[OUTDIR_DEST_MAX + 32]; /* DEST/.bonebake-stage-XXXXXX */
	int created_dest;     /* we made dest, so remove it on failure */
} outdir;

/* Creates dest (and parents) if needed and a staging folder in it.
 * Prints the error and returns an exit code on failure. */
int outdir_open(outdir *d, const char *dest);
/* Path of `rel` inside the staging folder. Returns 0 if too long. */
int outdir_path(const outdir *d, const char *rel, char *buf, size_t size);
/* Creates a sub-folder of the staging folder. Returns an exit code. */
int outdir_mkdir(const outdir *d, const char *rel);
/* Moves every entry of the staging folder to dest (replacing entries of the
 * same name) and removes the staging folder. Returns an exit code. */
int outdir_commit(outdir *d);
/* Removes the staging folder (and dest when we created it). */
void outdir_abort(outdir *d);
/* rm -rf. */
int remove_tree(const char *path);

#endif
