/* All-or-nothing output folders (see outdir.h). */
#define _GNU_SOURCE
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "outdir.h"

static const char STAGE[] = ".bonebake-stage-";
static const char LOCK[] = ".lock";
/* in a staged folder made by outdir_mkdir_shared: merged, not replaced */
static const char SHARED[] = ".bonebake-shared";
/* A staging folder without a lock file is a killed run's only when it is
 * older than this (a new one gets its lock right after it is made). */
static const time_t UNLOCKED_GRACE = 60;

volatile int cli_interrupted;
static volatile sig_atomic_t open_stages;

static void on_signal(int sig)
{
	if (!open_stages)
		_exit(128 + sig);
	cli_interrupted = sig;
}

void cli_stage_hold(void)
{
	open_stages++;
}

void cli_stage_release(void)
{
	if (open_stages > 0)
		open_stages--;
}

void cli_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void cli_interrupt_install(void)
{
	cli_stop_signals(on_signal);
	/* past a file size limit (ulimit -f) a write fails with EFBIG, an
	 * I/O error like a full disk, instead of killing the process with
	 * its staging folder left behind */
	signal(SIGXFSZ, SIG_IGN);
}

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

int outdir_is_own(const char *name)
{
	return name[0] == '.' && strstr(name, ".bonebake-") != NULL;
}

/* A staging folder's name: .bonebake-stage-* (render) or
 * .<name>.bonebake-stage-* (a sheet staged beside its folder). */
static int stage_name(const char *name)
{
	return name[0] == '.' && strstr(name, STAGE) != NULL;
}

/* Removes the staging folders in `dir`, of any command, whose run is gone:
 * their lock can be taken (or, without a lock, they are old). */
static void sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[OUTDIR_PATH_MAX], lock[OUTDIR_PATH_MAX + 8];
		struct stat st;
		int fd, stale = 0;

		if (!stage_name(e->d_name) ||
		    snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
		    lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		snprintf(lock, sizeof lock, "%s/%s", path, LOCK);
		fd = open(lock, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			stale = flock(fd, LOCK_EX | LOCK_NB) == 0;
			close(fd);
		} else {
			stale = errno == ENOENT && time(NULL) - st.st_mtime > UNLOCKED_GRACE;
		}
		if (stale)
			remove_tree(path);
	}
	closedir(d);
}

/* mkdtemp `templ` and lock it for the life of this run. */
static int make_stage(outdir *d, const char *templ)
{
	char lock[sizeof d->stage + 8];

	snprintf(d->stage, sizeof d->stage, "%s", templ);
	if (!mkdtemp(d->stage))
		return -1;
	/* mkdtemp makes it 0700; the folder it becomes gets mkdir's mode */
	chmod(d->stage, bb_new_file_mode(0777));
	snprintf(lock, sizeof lock, "%s/%s", d->stage, LOCK);
	d->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (d->lock_fd < 0 || flock(d->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (d->lock_fd >= 0)
			close(d->lock_fd);
		d->lock_fd = -1;
		remove_tree(d->stage);
		return -1;
	}
	open_stages++;
	return 0;
}

static void release(outdir *d)
{
	if (d->stage[0])
		remove_tree(d->stage);
	if (d->lock_fd >= 0) {
		close(d->lock_fd);
		d->lock_fd = -1;
		open_stages--;
	}
}

static int start(outdir *d, const char *dest)
{
	memset(d, 0, sizeof *d);
	d->lock_fd = -1;
	if (strlen(dest) >= sizeof d->dest - 64) {
		fprintf(stderr, "bonebake: %s: path too long\n", dest);
		return EXIT_IO;
	}
	strcpy(d->dest, dest);
	return 0;
}

/* The folders this run made for dest (dest and the parents it lacked),
 * deepest first, as long as they are empty. */
static void remove_created(outdir *d)
{
	char p[sizeof d->made];
	int k;

	snprintf(p, sizeof p, "%s", d->made);
	for (k = 0; k < d->created_dest; k++) {
		char *slash;

		if (rmdir(p) != 0)
			break;
		while ((slash = strrchr(p, '/')) != NULL && slash[1] == '\0' && slash > p)
			*slash = '\0';   /* a trailing slash */
		if (!(slash = strrchr(p, '/')) || slash == p)
			break;
		*slash = '\0';
	}
	d->created_dest = 0;
}

/* The staging folder inside dest (created with its parents if needed),
 * after removing the ones killed runs left there. */
static int stage_inside(outdir *d)
{
	char templ[sizeof d->stage];
	bb_error err;
	int made = 0;
	bb_status s;

	/* dest's parents this run made for a sibling stage (outdir_open_sets)
	 * lie right above dest: counted from dest, they are removed with it */
	snprintf(d->made, sizeof d->made, "%s", d->dest);
	s = bb_mkdirs(d->dest, &made, &err);
	d->created_dest += made;
	if (s != BB_OK)
		return cli_fail(&err);
	sweep(d->dest);
	snprintf(templ, sizeof templ, "%s/%sXXXXXX", d->dest, STAGE);
	if (make_stage(d, templ) != 0) {
		fprintf(stderr, "bonebake: %s: cannot write: %s\n", d->dest, strerror(errno));
		remove_created(d);
		return EXIT_IO;
	}
	return 0;
}

int outdir_open(outdir *d, const char *dest)
{
	int rc = start(d, dest);

	return rc ? rc : stage_inside(d);
}

/* Is `name` a file of the sheet `set` (set.ext or set-<digits>.ext)? */
static int in_set(const char *name, const char *set)
{
	size_t n = strlen(set);
	const char *p = name + n;

	if (strncmp(name, set, n) != 0)
		return 0;
	if (*p == '-') {
		if (!(p[1] >= '0' && p[1] <= '9'))
			return 0;
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	return *p == '.' && p[1] && !strchr(p + 1, '/') && !strchr(p + 1, '.');
}

static int in_sets(const char *name, const outdir *d)
{
	int i;

	for (i = 0; i < d->nsets; i++)
		if (in_set(name, d->set[i]))
			return 1;
	return 0;
}

/* 1 when dest holds only the sets' files and bonebake's own. */
static int only_the_set(const char *dest, const outdir *od)
{
	DIR *d;
	struct dirent *e;
	int only = 1;

	/* a live run's staging folder (a render's into the same folder) is
	 * someone else's: only a killed run's, swept here, is nobody's */
	sweep(dest);
	if (!(d = opendir(dest)))
		return 1;
	while (only && (e = readdir(d)) != NULL)
		only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		       (outdir_is_own(e->d_name) && !stage_name(e->d_name)) ||
		       in_sets(e->d_name, od);
	closedir(d);
	return only;
}

/* Whether dest (lstat's st), a folder, may be exchanged whole for a new
 * one: not a link (that would replace the link, not fill its target),
 * not a mount point (it cannot be renamed: a container's volume), ours
 * (the new folder takes its mode, not its owner), holding nothing but the
 * set. */
static int swappable(const char *dest, const char *parent,
                     const struct stat *st, const outdir *od)
{
	struct stat up;

	return S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
	       stat(parent, &up) == 0 && up.st_dev == st->st_dev &&
	       only_the_set(dest, od);
}

int outdir_open_set(outdir *d, const char *dest, const char *set)
{
	return outdir_open_sets(d, dest, &set, 1);
}

int outdir_open_sets(outdir *d, const char *dest, const char *const *sets,
                     int n)
{
	char parent[OUTDIR_DEST_MAX], templ[sizeof d->stage], prefix[OUTDIR_NAME_MAX + 32];
	const char *base = strrchr(dest, '/');
	struct stat st;
	bb_error err;
	int rc, existed = 0;

	if ((rc = start(d, dest)) != 0)
		return rc;
	for (d->nsets = 0; d->nsets < n && d->nsets < OUTDIR_SETS_MAX; d->nsets++)
		snprintf(d->set[d->nsets], sizeof d->set[0], "%s", sets[d->nsets]);
	base = base ? base + 1 : dest;
	snprintf(parent, sizeof parent, "%.*s", (int)(base - dest), dest);
	if (!parent[0])
		snprintf(parent, sizeof parent, ".");
	snprintf(prefix, sizeof prefix, ".%.200s%s", base, STAGE);
	/* a killed sheet's sibling stage goes, whichever way this one stages */
	sweep(parent);
	snprintf(d->made, sizeof d->made, "%s", parent);
	if (base[0] && strcmp(base, ".") != 0 && strcmp(base, "..") != 0 &&
	    bb_mkdirs(parent, &d->created_dest, &err) == BB_OK &&
	    (!(existed = lstat(dest, &st) == 0) || swappable(dest, parent, &st, d))) {
		/* the folder is the set: stage a sibling and swap it in */
		snprintf(templ, sizeof templ, "%s/%sXXXXXX", parent, prefix);
		if (make_stage(d, templ) == 0) {
			d->whole = 1;
			if (existed)   /* the folder keeps its mode */
				chmod(d->stage, st.st_mode & 07777);
			return 0;
		}
	}
	return stage_inside(d);
}

int outdir_path(const outdir *d, const char *rel, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s", d->stage, rel);

	return n >= 0 && (size_t)n < size;
}

int outdir_mkdir(const outdir *d, const char *rel)
{
	char p[OUTDIR_PATH_MAX];

	if (!outdir_path(d, rel, p, sizeof p) || mkdir(p, 0777) != 0) {
		fprintf(stderr, "bonebake: %s/%s: cannot create folder: %s\n", d->dest,
		        rel, strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

int outdir_mkdir_shared(const outdir *d, const char *rel)
{
	char p[OUTDIR_PATH_MAX];
	int rc = outdir_mkdir(d, rel), fd;

	if (rc)
		return rc;
	if (snprintf(p, sizeof p, "%s/%s/%s", d->stage, rel, SHARED) >= (int)sizeof p ||
	    (fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		fprintf(stderr, "bonebake: %s/%s: cannot create folder: %s\n", d->dest,
		        rel, strerror(errno));
		return EXIT_IO;
	}
	close(fd);
	return 0;
}

/* Puts `from` at `to` in one step: an exchange when `to` exists (from then
 * holds the old entry: *how 1), else a rename (*how 0).  Where the file
 * system cannot exchange, the old entry is first moved to `aside`, and
 * stays there (*how 2). */
enum { MOVED = 0, EXCHANGED = 1, ASIDE = 2 };

static int replace(const char *from, const char *to, const char *aside,
                   int *how)
{
	struct stat st;

	*how = MOVED;
	if (lstat(to, &st) != 0)
		return rename(from, to);
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE) == 0) {
		*how = EXCHANGED;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != EXDEV)
		return -1;
	if (rename(to, aside) != 0)
		return -1;
	if (rename(from, to) != 0) {
		rename(aside, to);
		return -1;
	}
	*how = ASIDE;
	return 0;
}

/* Where replace() puts the old entry of `from` aside: beside it in the
 * stage, as .old-<name>. */
static void aside_of(const char *from, char *buf, size_t size)
{
	const char *slash = strrchr(from, '/');

	if (snprintf(buf, size, "%.*s.old-%s", slash ? (int)(slash - from + 1) : 0,
	             from, slash ? slash + 1 : from) >= (int)size)
		buf[0] = '\0';   /* no such path: the fallback's rename fails */
}

/* The moves a commit has made so far, to put back, last first, if a later
 * one fails (a failed run leaves DIR as it was).  The old entries they
 * displaced lie in the stage, which goes with it when all are in. */
struct done {
	char *from, *to;
	int how;
};

struct undo {
	struct done *v;
	size_t n, cap;
};

/* Room for one more move. */
static int undo_reserve(struct undo *u)
{
	struct done *v;
	size_t cap;

	if (u->n < u->cap)
		return 1;
	cap = u->cap ? 2 * u->cap : 16;
	if (!(v = realloc(u->v, cap * sizeof *v)))
		return 0;
	u->v = v;
	u->cap = cap;
	return 1;
}

/* Puts back every move (unless ok) and forgets them. */
static void undo_finish(struct undo *u, int ok)
{
	size_t i;

	for (i = u->n; i-- > 0;) {
		const struct done *d = &u->v[i];
		char aside[OUTDIR_PATH_MAX];

		if (!ok && d->how == EXCHANGED) {
			renameat2(AT_FDCWD, d->from, AT_FDCWD, d->to, RENAME_EXCHANGE);
		} else if (!ok) {
			rename(d->to, d->from);
			aside_of(d->from, aside, sizeof aside);
			if (d->how == ASIDE)
				rename(aside, d->to);
		}
		free(d->from);
		free(d->to);
	}
	free(u->v);
	memset(u, 0, sizeof *u);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A staged folder's entries (without the lock and the shared mark),
 * sorted; NULL-ended. */
static char **stage_entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	char **v = NULL, **nv;
	size_t n = 0;

	if (!dir)
		return NULL;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, LOCK) == 0 || strcmp(e->d_name, SHARED) == 0)
			continue;
		if (!(nv = realloc(v, (n + 2) * sizeof *v)) || !(nv[n] = strdup(e->d_name))) {
			free(nv ? nv : v);
			closedir(dir);
			return NULL;
		}
		v = nv;
		n++;
	}
	closedir(dir);
	if (!v && !(v = calloc(1, sizeof *v)))
		return NULL;
	v[n] = NULL;
	qsort(v, n, sizeof *v, cmp_names);
	return v;
}

static void free_entries(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Whether the staged folder `from` was made by outdir_mkdir_shared (the
 * mark is removed: it is not to land in the output). */
static int take_shared(const char *from)
{
	char mark[OUTDIR_PATH_MAX];

	return snprintf(mark, sizeof mark, "%s/%s", from, SHARED) < (int)sizeof mark &&
	       unlink(mark) == 0;
}

/* Moves the entries of staged folder `stage` into `dest` one by one; a
 * shared folder that `dest` has already gets its entries the same way
 * (an armature's other animations stay), else it moves whole.  Each move
 * is recorded in u. */
static int commit_level(const char *stage, const char *dest, struct undo *u,
                        char ***top)
{
	char **names = stage_entries(stage);
	size_t i;
	int rc = 0;

	if (!names) {
		fprintf(stderr, "bonebake: %s: %s\n", dest, strerror(errno));
		return EXIT_IO;
	}
	for (i = 0; names[i] && rc == 0; i++) {
		char from[OUTDIR_PATH_MAX], to[OUTDIR_PATH_MAX], aside[OUTDIR_PATH_MAX];
		struct done *d;
		struct stat st;

		snprintf(from, sizeof from, "%s/%s", stage, names[i]);
		snprintf(to, sizeof to, "%s/%s", dest, names[i]);
		aside_of(from, aside, sizeof aside);
		if (take_shared(from) && lstat(to, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = commit_level(from, to, u, NULL);
			continue;
		}
		/* recorded before the move: one that could not be recorded
		 * could not be put back */
		d = undo_reserve(u) ? &u->v[u->n] : NULL;
		if (!d || !(d->from = strdup(from)) || !(d->to = strdup(to))) {
			if (d)
				free(d->from);
			fprintf(stderr, "bonebake: out of memory\n");
			rc = EXIT_INTERNAL;
		} else if (replace(from, to, aside, &d->how) != 0) {
			fprintf(stderr, "bonebake: %s: cannot replace: %s\n", to,
			        strerror(errno));
			free(d->from);
			free(d->to);
			rc = EXIT_IO;
		} else {
			u->n++;
		}
	}
	if (top)
		*top = names;
	else
		free_entries(names);
	return rc;
}

/* Entries mode, and set mode inside a shared folder. */
static int commit_entries(outdir *d)
{
	char **names = NULL;
	struct undo u = { 0 };
	int rc = commit_level(d->stage, d->dest, &u, &names);

	/* all or nothing: a failure puts back what was moved (the old
	 * entries go with the stage when all are in) */
	undo_finish(&u, rc == 0);

	if (rc == 0 && d->nsets > 0) {
		/* the old sheet's files the new one does not have */
		DIR *dir = opendir(d->dest);
		struct dirent *e;

		while (dir && (e = readdir(dir)) != NULL) {
			char p[OUTDIR_PATH_MAX];
			size_t k;

			if (!in_sets(e->d_name, d))
				continue;
			for (k = 0; names[k] && strcmp(names[k], e->d_name) != 0; k++)
				;
			if (!names[k] && snprintf(p, sizeof p, "%s/%s", d->dest,
			                          e->d_name) < (int)sizeof p)
				unlink(p);
		}
		if (dir)
			closedir(dir);
	}
	free_entries(names);
	return rc;
}

int outdir_commit(outdir *d)
{
	int rc = 0, how = MOVED;

	if (d->whole) {
		char aside[sizeof d->stage + 8];

		snprintf(aside, sizeof aside, "%s.old", d->stage);
		/* the lock file travels with the stage into place: drop it first */
		{
			char lock[sizeof d->stage + 8];

			snprintf(lock, sizeof lock, "%s/%s", d->stage, LOCK);
			unlink(lock);
		}
		if (replace(d->stage, d->dest, aside, &how) != 0) {
			fprintf(stderr, "bonebake: %s: cannot replace: %s\n", d->dest,
			        strerror(errno));
			rc = EXIT_IO;
		} else if (how != EXCHANGED) {
			d->stage[0] = '\0';   /* renamed into place: nothing to remove */
			if (how == ASIDE)
				remove_tree(aside);
		}
	} else {
		rc = commit_entries(d);
	}
	release(d);
	if (rc != 0)   /* all put back: a DEST this run made goes, empty */
		remove_created(d);
	return rc;
}

void outdir_abort(outdir *d)
{
	release(d);
	remove_created(d);
}
