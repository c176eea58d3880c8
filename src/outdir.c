/* All-or-nothing output folders. */
#define _XOPEN_SOURCE 700
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outdir.h"

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int outdir_open(outdir *d, const char *dest)
{
	bb_error err;

	memset(d, 0, sizeof *d);
	if (strlen(dest) >= sizeof d->dest - 64) {
		fprintf(stderr, "bonebake: %s: path too long\n", dest);
		return EXIT_IO;
	}
	strcpy(d->dest, dest);
	if (bb_mkdirs(dest, &d->created_dest, &err) != BB_OK)
		return cli_fail(&err);
	snprintf(d->stage, sizeof d->stage, "%s/.bonebake-stage-XXXXXX", dest);
	if (!mkdtemp(d->stage)) {
		fprintf(stderr, "bonebake: %s: cannot write: %s\n", dest, strerror(errno));
		if (d->created_dest)
			rmdir(d->dest);
		return EXIT_IO;
	}
	return 0;
}

int outdir_path(const outdir *d, const char *rel, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s", d->stage, rel);

	return n >= 0 && (size_t)n < size;
}

int outdir_mkdir(const outdir *d, const char *rel)
{
	char p[OUTDIR_PATH_MAX];

	if (!outdir_path(d, rel, p, sizeof p) || mkdir(p, 0755) != 0) {
		fprintf(stderr, "bonebake: %s/%s: cannot create folder: %s\n", d->dest,
		        rel, strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

int outdir_commit(outdir *d)
{
	DIR *dir = opendir(d->stage);
	struct dirent *e;
	int rc = 0;

	if (!dir) {
		fprintf(stderr, "bonebake: %s: %s\n", d->stage, strerror(errno));
		return EXIT_IO;
	}
	while ((e = readdir(dir)) != NULL) {
		char from[OUTDIR_PATH_MAX], to[OUTDIR_PATH_MAX], old[OUTDIR_PATH_MAX + 16];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strncmp(e->d_name, ".old-", 5) == 0)
			continue;
		snprintf(from, sizeof from, "%s/%s", d->stage, e->d_name);
		snprintf(to, sizeof to, "%s/%s", d->dest, e->d_name);
		if (lstat(to, &st) == 0 && S_ISDIR(st.st_mode)) {
			/* swap the old folder out, the new one in, then delete */
			snprintf(old, sizeof old, "%s/.old-%s", d->stage, e->d_name);
			if (rename(to, old) != 0 || rename(from, to) != 0) {
				fprintf(stderr, "bonebake: %s: cannot replace: %s\n", to,
				        strerror(errno));
				rc = EXIT_IO;
				break;
			}
			remove_tree(old);
			continue;
		}
		if (rename(from, to) != 0) {
			fprintf(stderr, "bonebake: %s: cannot write: %s\n", to,
			        strerror(errno));
			rc = EXIT_IO;
			break;
		}
	}
	closedir(dir);
	remove_tree(d->stage);
	return rc;
}

void outdir_abort(outdir *d)
{
	remove_tree(d->stage);
	if (d->created_dest)
		rmdir(d->dest);
}
