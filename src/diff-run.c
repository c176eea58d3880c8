/* The `diff` command's engine: pairing files of two folders by relative
 * path, and comparing the pairs on a pool of threads.  Results land in the
 * pair array (sorted by path), so output order never depends on timing. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff-run.h"
#include "outdir.h"

/* Deeper folder trees are refused (symlink loops end here too). */
#define WALK_MAX_DEPTH 64

struct names {
	char **v;
	size_t n, cap;
};

char *diff_join(const char *dir, const char *rel)
{
	size_t a = strlen(dir), b = strlen(rel);
	char *s = malloc(a + b + 2);

	if (!s)
		return NULL;
	memcpy(s, dir, a);
	s[a] = '/';
	memcpy(s + a + 1, rel, b + 1);
	if (a == 0)
		memmove(s, s + 1, b + 1);
	return s;
}

int diff_mkdirs_for(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	bb_error err;
	int rc = 0;

	if (!slash || slash == path)
		return 0;
	if (!(dir = strndup(path, (size_t)(slash - path))))
		return -1;
	if (bb_mkdirs(dir, NULL, &err) != BB_OK) {
		cli_fail(&err);
		rc = -1;
	}
	free(dir);
	return rc;
}

static int names_push(struct names *l, char *s)
{
	if (!s)
		return -1;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, cap * sizeof *v);

		if (!v) {
			free(s);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

static void names_free(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_png_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && strcasecmp(name + n - 4, ".png") == 0;
}

/* Adds the *.png files under root/rel to out and the frames.json files to
 * meta (paths relative to root). */
static int walk(const char *root, const char *rel, struct names *out,
                struct names *meta, long *skipped, int depth)
{
	char *dir = rel[0] ? diff_join(root, rel) : strdup(root);
	struct dirent *e;
	DIR *d;
	int rc = EXIT_OK;

	if (!dir)
		return EXIT_INTERNAL;
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "bonebake: %s: cannot open folder: %s\n", dir,
		        strerror(errno));
		free(dir);
		return EXIT_IO;
	}
	while (rc == EXIT_OK && (e = readdir(d)) != NULL) {
		char *child, *full;
		struct stat st;

		/* bonebake's own bookkeeping (staging folders, batch records)
		 * is not part of a render's output */
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    outdir_is_own(e->d_name))
			continue;
		child = rel[0] ? diff_join(rel, e->d_name) : strdup(e->d_name);
		full = child ? diff_join(root, child) : NULL;
		if (!full) {
			free(child);
			rc = EXIT_INTERNAL;
			break;
		}
		if (stat(full, &st) != 0) {
			cli_error("%s: %s", full, strerror(errno));
			rc = EXIT_IO;
		} else if (S_ISDIR(st.st_mode)) {
			if (depth >= WALK_MAX_DEPTH) {
				cli_error("%s: folders nested deeper "
				        "than %d levels", full, WALK_MAX_DEPTH);
				rc = EXIT_INPUT;
			} else {
				rc = walk(root, child, out, meta, skipped, depth + 1);
			}
		} else if (S_ISREG(st.st_mode) && is_png_name(e->d_name)) {
			if (names_push(out, child) != 0)
				rc = EXIT_INTERNAL;
			child = NULL;
		} else if (S_ISREG(st.st_mode) && strcmp(e->d_name, "frames.json") == 0) {
			if (names_push(meta, child) != 0)
				rc = EXIT_INTERNAL;
			child = NULL;
		} else {
			(*skipped)++;
		}
		free(child);
		free(full);
	}
	closedir(d);
	free(dir);
	return rc;
}

static struct diff_pair *add_pair(struct diff_run *run, const char *path,
                                  const char *a, const char *b)
{
	struct diff_pair *p;

	if (run->n == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 64;
		struct diff_pair *v = realloc(run->pairs, cap * sizeof *v);

		if (!v)
			return NULL;
		run->pairs = v;
		run->cap = cap;
	}
	p = &run->pairs[run->n];
	memset(p, 0, sizeof *p);
	p->anim = -1;
	p->path = strdup(path);
	p->a_path = a ? strdup(a) : NULL;
	p->b_path = b ? strdup(b) : NULL;
	if (!p->path || (a && !p->a_path) || (b && !p->b_path)) {
		free(p->path);
		free(p->a_path);
		free(p->b_path);
		return NULL;
	}
	run->n++;
	return p;
}

/* Merges two sorted name lists into pairs; a name on one side only becomes
 * a missing or added pair. */
static int merge(struct diff_run *run, struct names *la, struct names *lb)
{
	size_t i = 0, j = 0;

	while (i < la->n || j < lb->n) {
		int c = i >= la->n ? 1 : j >= lb->n ? -1
		        : strcmp(la->v[i], lb->v[j]);
		const char *name = c <= 0 ? la->v[i] : lb->v[j];
		char *a = c <= 0 ? diff_join(run->base, name) : NULL;
		char *b = c >= 0 ? diff_join(run->cur, name) : NULL;
		struct diff_pair *p = NULL;

		if ((c <= 0 && !a) || (c >= 0 && !b) ||
		    !(p = add_pair(run, name, a, b))) {
			free(a);
			free(b);
			return EXIT_INTERNAL;
		}
		p->status = c < 0 ? DS_MISSING : c > 0 ? DS_ADDED : DS_IDENTICAL;
		free(a);
		free(b);
		i += c <= 0;
		j += c >= 0;
	}
	return EXIT_OK;
}

int diff_collect(struct diff_run *run, const char *base, const char *cur)
{
	struct names la = { NULL, 0, 0 }, lb = { NULL, 0, 0 };
	struct names ma = { NULL, 0, 0 }, mb = { NULL, 0, 0 };
	struct stat sa, sb;
	int rc;

	run->base = base;
	run->cur = cur;
	if (stat(base, &sa) != 0) {
		fprintf(stderr, "bonebake: %s: %s\n", base, strerror(errno));
		return EXIT_IO;
	}
	if (stat(cur, &sb) != 0) {
		fprintf(stderr, "bonebake: %s: %s\n", cur, strerror(errno));
		return EXIT_IO;
	}
	if (S_ISDIR(sa.st_mode) != S_ISDIR(sb.st_mode))
		return cli_usage_error("diff", "compare two files or two folders, "
		                       "not a file with a folder");
	if (!S_ISDIR(sa.st_mode)) {
		run->folders = 0;
		if (!add_pair(run, strrchr(cur, '/') ? strrchr(cur, '/') + 1 : cur,
		              base, cur))
			return EXIT_INTERNAL;
		return EXIT_OK;
	}
	run->folders = 1;
	rc = walk(base, "", &la, &ma, &run->skipped, 0);
	if (rc == EXIT_OK)
		rc = walk(cur, "", &lb, &mb, &run->skipped, 0);
	if (rc == EXIT_OK) {
		qsort(la.v, la.n, sizeof *la.v, cmp_names);
		qsort(lb.v, lb.n, sizeof *lb.v, cmp_names);
		qsort(ma.v, ma.n, sizeof *ma.v, cmp_names);
		qsort(mb.v, mb.n, sizeof *mb.v, cmp_names);
		rc = merge(run, &la, &lb);
	}
	if (rc == EXIT_OK)
		rc = diff_anims_collect(run, ma.v, ma.n, mb.v, mb.n);
	names_free(&la);
	names_free(&lb);
	names_free(&ma);
	names_free(&mb);
	return rc;
}

void diff_run_free(struct diff_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		free(run->pairs[i].path);
		free(run->pairs[i].a_path);
		free(run->pairs[i].b_path);
		free(run->pairs[i].message);
	}
	free(run->pairs);
	run->pairs = NULL;
	run->n = run->cap = 0;
	diff_anims_free(run);
}

struct pool {
	struct diff_run *run;
	const struct diff_config *cfg;
	pthread_mutex_t lock;
	cli_progress progress;
};

static void set_message(struct diff_pair *p, const bb_error *err)
{
	char buf[1200];

	bb_error_format(err, buf, sizeof buf);
	free(p->message);
	p->message = strdup(buf);
}

static int save_png(const char *path, const void *data, size_t size)
{
	if (diff_mkdirs_for(path) != 0 || diff_write_atomic(path, data, size) != 0)
		return -1;
	return 0;
}

/* img as PNG bytes (new), printing the error. */
static int encode(const struct diff_pair *p, const char *kind,
                  const bb_image *img, void **data, size_t *size)
{
	bb_error err;

	if (bb_png_encode_fast(img, data, size, &err) != BB_OK) {
		fprintf(stderr, "bonebake: %s: %s image: %s\n", p->path, kind,
		        err.message);
		return -1;
	}
	return 0;
}

/* Writes the diff image wherever it is wanted: -o FILE, -o DIR/<path>,
 * and the HTML folder. */
static int write_diff(const struct diff_config *cfg, struct diff_pair *p,
                      const bb_image *img)
{
	void *data = NULL;
	size_t size = 0;
	char *path;
	int rc = 0;

	if (encode(p, "diff", img, &data, &size) != 0)
		return -1;
	if (cfg->out_file && save_png(cfg->out_file, data, size) != 0)
		rc = -1;
	if (cfg->out_dir) {
		path = diff_join(cfg->out_write, p->path);
		if (!path || save_png(path, data, size) != 0)
			rc = -1;
		free(path);
	}
	if (cfg->html) {
		char *rel = diff_html_image(p, "diff");

		path = rel ? diff_join(cfg->html_write, rel) : NULL;
		if (!path || save_png(path, data, size) != 0)
			rc = -1;
		free(path);
		free(rel);
	}
	free(data);
	p->has_diff = rc == 0;
	return rc;
}

/* Copies one side of a pair into the HTML folder; `placed` (may be NULL)
 * is written instead of the file: the frame on its animation's union
 * canvas, so both sides show aligned. */
static int copy_side(const struct diff_config *cfg, const struct diff_pair *p,
                     const char *kind, const char *from, const bb_image *placed)
{
	char *rel = diff_html_image(p, kind), *to = NULL;
	void *data = NULL;
	size_t size = 0;
	int rc = -1;

	if (rel && (to = diff_join(cfg->html_write, rel)) != NULL &&
	    diff_mkdirs_for(to) == 0) {
		if (!placed)
			rc = diff_copy_file(from, to);
		else if (encode(p, kind, placed, &data, &size) == 0)
			rc = diff_write_atomic(to, data, size);
	}
	free(data);
	free(rel);
	free(to);
	return rc;
}

/* One side's frame on the animation's union canvas (new). */
static bb_status read_placed(const struct diff_anim *d, const char *path,
                             int side, size_t max_pixels, bb_image **out,
                             bb_error *err)
{
	bb_image *img = NULL;
	bb_status s = bb_png_read_limited(path, max_pixels, &img, err);

	*out = NULL;
	if (s != BB_OK)
		return s;
	*out = bb_image_place(img, d->width, d->height, side ? d->bx : d->ax,
	                      side ? d->by : d->ay);
	bb_image_free(img);
	return *out ? BB_OK : bb_error_set(err, BB_ERR_NOMEM, path, NULL,
	                                   "out of memory");
}

/* Compares a pair of an animation whose canvas or origin changed: both
 * frames aligned on the origin pixel, on the union canvas.  *pa and *pb
 * receive the placed frames (free them). */
static bb_status compare_placed(const struct diff_anim *d, struct diff_pair *p,
                                const bb_diff_options *opts, bb_image **diff,
                                bb_image **pa, bb_image **pb, bb_error *err)
{
	bb_status s = read_placed(d, p->a_path, 0, opts->max_pixels, pa, err);

	if (s == BB_OK)
		s = read_placed(d, p->b_path, 1, opts->max_pixels, pb, err);
	if (s == BB_OK)
		s = bb_diff_images(*pa, *pb, opts, &p->res, NULL, err);
	if (s == BB_OK && diff && (p->res.diff_pixels || p->res.aa_pixels))
		s = bb_diff_images(*pa, *pb, opts, &p->res, diff, err);
	return s;
}

static void classify(const struct diff_config *cfg, struct diff_pair *p)
{
	if (p->res.same_bytes || p->res.changed_pixels == 0)
		p->status = DS_IDENTICAL;
	else if (bb_diff_within_budget(&cfg->budget, &p->res))
		p->status = DS_PASS;
	else
		p->status = DS_FAIL;
}

/* A frame only on one side, into the HTML folder (placed on its
 * animation's union canvas when that is how its animation compares). */
static int copy_lone(const struct diff_run *run, const struct diff_config *cfg,
                     struct diff_pair *p)
{
	const struct diff_anim *d = p->anim >= 0 ? &run->anims[p->anim] : NULL;
	const char *path = p->a_path ? p->a_path : p->b_path;
	bb_image *img = NULL;
	bb_error err;
	int rc;

	if (d && d->placed &&
	    read_placed(d, path, p->b_path != NULL, cfg->opts.max_pixels, &img,
	                &err) != BB_OK) {
		cli_fail(&err);
		return -1;
	}
	rc = copy_side(cfg, p, p->a_path ? "baseline" : "current", path, img);
	bb_image_free(img);
	return rc;
}

/* Both sides of a pair into the HTML folder, placed on the animation's
 * union canvas when it compares that way. */
static int copy_sides(const struct diff_run *run, const struct diff_config *cfg,
                      struct diff_pair *p)
{
	const struct diff_anim *d = p->anim >= 0 ? &run->anims[p->anim] : NULL;
	bb_image *pa = NULL, *pb = NULL;
	bb_error err;
	int rc = 0;

	if (!p->a_path || !p->b_path)
		return copy_lone(run, cfg, p);
	if (p->placed &&
	    (read_placed(d, p->a_path, 0, cfg->opts.max_pixels, &pa, &err) != BB_OK ||
	     read_placed(d, p->b_path, 1, cfg->opts.max_pixels, &pb, &err) != BB_OK)) {
		cli_fail(&err);
		rc = -1;
	}
	if (rc == 0 && (copy_side(cfg, p, "baseline", p->a_path, pa) != 0 ||
	                copy_side(cfg, p, "current", p->b_path, pb) != 0))
		rc = -1;
	bb_image_free(pa);
	bb_image_free(pb);
	return rc;
}

int diff_html_fill(struct diff_run *run, const struct diff_config *cfg)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < run->n && !cli_interrupted; i++) {
		struct diff_pair *p = &run->pairs[i];

		if (p->html_images || p->anim < 0 || p->status == DS_ERROR ||
		    run->anims[p->anim].status != AS_CHANGED)
			continue;
		if (copy_sides(run, cfg, p) != 0)
			rc = -1;
		else
			p->html_images = 1;
	}
	return rc;
}

/* Compares one pair and writes its images; returns -1 when an output
 * could not be written. */
static int run_pair(const struct diff_run *run, const struct diff_config *cfg,
                    struct diff_pair *p)
{
	int want = cfg->out_dir || cfg->out_file || cfg->html;
	bb_image *img = NULL, *pa = NULL, *pb = NULL;
	bb_error err;
	bb_status s;
	int rc = 0;

	if (p->status == DS_MISSING || p->status == DS_ADDED) {
		if (cfg->html)
			rc = copy_lone(run, cfg, p);
		p->html_images = cfg->html && rc == 0;
		return rc;
	}
	if (p->placed)
		s = compare_placed(&run->anims[p->anim], p, &cfg->opts,
		                   want ? &img : NULL, &pa, &pb, &err);
	else
		s = bb_diff_files(p->a_path, p->b_path, &cfg->opts, &p->res,
		                  want ? &img : NULL, &err);
	if (s == BB_OK) {
		classify(cfg, p);
	} else if (s == BB_ERR_MISMATCH) {
		p->status = DS_MISMATCH;
		set_message(p, &err);
	} else {
		p->status = DS_ERROR;
		p->err_status = s;
		set_message(p, &err);
	}
	if (img) {
		rc = write_diff(cfg, p, img);
		bb_image_free(img);
	}
	if (cfg->html && p->status != DS_IDENTICAL && p->status != DS_ERROR) {
		if (copy_side(cfg, p, "baseline", p->a_path, pa) != 0 ||
		    copy_side(cfg, p, "current", p->b_path, pb) != 0)
			rc = -1;
		else
			p->html_images = 1;
	}
	bb_image_free(pa);
	bb_image_free(pb);
	return rc;
}

static void compare_one(void *arg, size_t i, int worker)
{
	struct pool *pool = arg;
	int rc;

	(void)worker;
	if (cli_interrupted)
		return;   /* stopping: the command leaves no output */
	rc = run_pair(pool->run, pool->cfg, &pool->run->pairs[i]);
	pthread_mutex_lock(&pool->lock);
	if (rc != 0)
		pool->run->report_failed = 1;
	cli_progress_step(&pool->progress, 1);
	pthread_mutex_unlock(&pool->lock);
}

void diff_execute(struct diff_run *run, const struct diff_config *cfg)
{
	struct diff_config local = *cfg;
	struct pool pool;
	size_t i, jobs = cfg->jobs > 0 ? (size_t)cfg->jobs : 1;

	/* one thread per pair while there are enough pairs; spare threads go
	 * into each comparison (decoding both files at once, bands of rows) */
	local.opts.threads = run->n > 0 && jobs > run->n ? (int)(jobs / run->n) : 1;
	if (jobs > run->n)
		jobs = run->n ? run->n : 1;
	pool.run = run;
	pool.cfg = &local;
	pthread_mutex_init(&pool.lock, NULL);
	cli_progress_start(&pool.progress, "comparing", (long)run->n,
	                   cfg->quiet || !run->folders);
	bb_parallel_for(run->n, (int)jobs, compare_one, &pool);
	cli_progress_end(&pool.progress);
	pthread_mutex_destroy(&pool.lock);
	memset(run->count, 0, sizeof run->count);
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];

		run->count[p->status]++;
		/* errors in path order, whatever order the threads met them */
		if (p->status == DS_ERROR)
			cli_error("%s",
			        p->message ? p->message : "error");
	}
	for (i = 0; i < run->nanims; i++)
		if (run->anims[i].status == AS_ERROR && run->anims[i].message)
			fprintf(stderr, "bonebake: %s\n", run->anims[i].message);
	diff_anims_finish(run);
}
