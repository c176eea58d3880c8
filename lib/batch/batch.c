/* Batch manifests, shards and up-to-date records (bonebake/batch.h).  Every
 * JSON document is read and written through core/json.h, so an error in a
 * manifest names the file and the field as a loader's does. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/batch.h"
#include "core/json.h"
#include "core/sha256.h"
#include "core/util.h"

/* MAX_ANIMS: as many animations as render and sheet take by name (--anim);
 * "all": true renders every one. */
enum { MAX_JOBS = 100000, MAX_ARGS = 16384, MAX_ANIMS = 256, MAX_OPTIONS = 512 };

static const char STAMP[] = ".bonebake-batch.json";
/* Options the batch sets itself for every job. */
static const char *const reserved[] = { "output", "o", "jobs", "quiet", "q",
                                        "progress", "deps", "help", "h", NULL };

struct job {
	bb_batch_job pub;
	char *name, *command, *input, *output;
	char **args;
	char *where;               /* output normalised (bb__path_resolve) */
};

struct bb_batch {
	int njobs;
	struct job *jobs;
	char *file;                /* basename, for messages */
	char *base;                /* the manifest's folder, resolved */
};

/* A manifest being read: the position (file: its basename) and the folder
 * its paths are relative to. */
struct rd {
	bb__jctx c;
	char dir[4096];
};

/* A non-empty string member, copied (path: resolved from the manifest's
 * folder); absent is "missing" when required, else *out = NULL. */
static bb_status get_str(struct rd *r, json_t *o, const char *key, int path,
                         int required, char **out)
{
	const char *v;
	char buf[8192];
	bb_status s;

	*out = NULL;
	if ((s = bb__jstr(&r->c, o, key, required, &v)) != BB_OK || !v)
		return s;
	if (!v[0])
		return bb__jfail(&r->c, key, "empty");
	if (path && !bb__path_join(buf, sizeof buf, r->dir, v))
		return bb__jfail(&r->c, key, "path too long");
	*out = bb__strdup(path ? buf : v);
	return *out ? BB_OK : bb__jnomem(&r->c);
}

static int option_name_ok(const char *k)
{
	size_t i;

	if (!(k[0] >= 'a' && k[0] <= 'z'))
		return 0;
	for (i = 1; k[i]; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') ||
		      k[i] == '-'))
			return 0;
	return 1;
}

/* A key getopt_long would take for one of the batch's own options: the
 * option's name or any abbreviation of it ("outp" is --output). */
static const char *reserved_prefix(const char *k)
{
	int i;

	for (i = 0; reserved[i]; i++)
		if (strncmp(reserved[i], k, strlen(k)) == 0)
			return reserved[i];
	return NULL;
}

struct argv {
	char **v;
	int n;
	size_t cap;
};

/* Appends the word flag[=value]; a value is always glued to its flag, so
 * it is never read as an option or an input of its own. */
static bb_status push(struct rd *r, struct argv *a, const char *flag,
                      const char *value)
{
	size_t n = strlen(flag) + (value ? strlen(value) + 1 : 0) + 1;
	char *d;

	if (a->n >= MAX_ARGS)
		return bb__jlimit(&r->c, NULL, "more than %d options and animations "
		                  "in one job", MAX_ARGS);
	if (!bb__grow((void **)&a->v, &a->cap, (size_t)a->n + 2, sizeof *a->v) ||
	    !(d = malloc(n)))
		return bb__jnomem(&r->c);
	snprintf(d, n, "%s%s%s", flag, value ? "=" : "", value ? value : "");
	a->v[a->n++] = d;
	a->v[a->n] = NULL;
	return BB_OK;
}

/* One option's value (at the current path) as a word: --flag=number,
 * --flag=string, or the bare --flag for true. */
static bb_status option_value(struct rd *r, const char *flag, json_t *v,
                              struct argv *a)
{
	const char *str;
	char num[64];
	int on;

	switch (bb__jkind_of(v, NULL)) {
	case BB_JK_BOOL:
		bb__jbool(&r->c, v, NULL, 0, &on);
		return on ? push(r, a, flag, NULL) : BB_OK;
	case BB_JK_NUMBER:
		return push(r, a, flag, bb__jnum_text(v, num, sizeof num));
	case BB_JK_STRING:
		bb__jstr(&r->c, v, NULL, 1, &str);
		return push(r, a, flag, str);
	default:
		return bb__jfail(&r->c, NULL, "expected a number, a string or a "
		                 "boolean, found %s", bb__json_type_name(v));
	}
}

/* Option `key` (the path at it): a value, or an array of values each
 * given as its own word. */
static bb_status read_option(struct rd *r, const char *key, json_t *v,
                             struct argv *a)
{
	const char *flag_of;
	char flag[300];
	bb__jiter it;
	json_t *e;
	bb_status s;

	if (!option_name_ok(key) || strlen(key) > 256)
		return bb__jfail(&r->c, NULL, "not an option name");
	if ((flag_of = reserved_prefix(key)) != NULL)
		return bb__where_fail(&r->c, BB_ERR_USAGE, NULL, "the batch sets --%s "
		                      "itself%s", flag_of, strcmp(flag_of, key) != 0 ?
		                      " (an abbreviation of it is taken for it)" : "");
	snprintf(flag, sizeof flag, "--%s", key);
	if (bb__jkind_of(v, NULL) != BB_JK_ARRAY)
		return option_value(r, flag, v, a);
	if ((s = bb__jeach(&r->c, v, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &e)) {
		if (bb__jkind_of(e, NULL) == BB_JK_ARRAY)
			return bb__jfail(&r->c, NULL, "expected a number or a string, "
			                 "found an array");
		if ((s = option_value(r, flag, e, a)) != BB_OK)
			return s;
	}
	return BB_OK;
}

struct option {
	const char *key;
	json_t *v;
};

static int cmp_option(const void *x, const void *y)
{
	return strcmp(((const struct option *)x)->key, ((const struct option *)y)->key);
}

/* The options object (the path at it), keys in sorted order so the words
 * (and the job's key) do not depend on the document's member order. */
static bb_status read_options(struct rd *r, json_t *opts, struct argv *a)
{
	struct option keys[MAX_OPTIONS];
	size_t n = 0, i, mark;
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jeach_member(&r->c, opts, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v)) {
		if (n == MAX_OPTIONS) {
			bb__jdone(&it);
			return bb__jfail(&r->c, NULL, "more than %d options", MAX_OPTIONS);
		}
		keys[n].key = it.key;
		keys[n++].v = v;
	}
	qsort(keys, n, sizeof keys[0], cmp_option);
	for (i = 0; i < n; i++) {
		mark = bb__jpath_key(&r->c.path, keys[i].key);
		if ((s = read_option(r, keys[i].key, keys[i].v, a)) != BB_OK)
			return s;
		bb__jpath_pop(&r->c.path, mark);
	}
	return BB_OK;
}

static bb_status read_anims(struct rd *r, json_t *job, struct argv *a)
{
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jeach(&r->c, job, "animations", 0, &it)) != BB_OK)
		return s;
	if (it.n > MAX_ANIMS)
		return bb__jlimit(&r->c, NULL, "%zu animations exceed the limit of %d "
		                  "for one job (\"options\": {\"all\": true} renders "
		                  "every one)", it.n, MAX_ANIMS);
	while (bb__jnext(&it, &v)) {
		const char *name = NULL;

		if (bb__jkind_of(v, NULL) == BB_JK_STRING)
			bb__jstr(&r->c, v, NULL, 1, &name);
		if (!name || !name[0])
			return bb__jfail(&r->c, NULL, "expected an animation name, found "
			                 "%s", name ? "an empty string" : bb__json_type_name(v));
		if ((s = push(r, a, "--anim", name)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static const char *const job_keys[] = { "name", "command", "input", "output",
                                        "animations", "options", NULL };

/* A job's members are all known ones. */
static bb_status known_fields(struct rd *r, json_t *o)
{
	bb__jiter it;
	json_t *v;
	size_t i;
	bb_status s;

	if ((s = bb__jeach_member(&r->c, o, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v)) {
		for (i = 0; job_keys[i] && strcmp(job_keys[i], it.key) != 0; i++)
			;
		if (!job_keys[i])
			return bb__jfail(&r->c, NULL, "unknown field (a job has name, "
			                 "command, input, output, animations, options)");
	}
	return BB_OK;
}

static bb_status read_job(struct rd *r, json_t *o, struct job *j)
{
	struct argv a = { NULL, 0, 0 };
	json_t *opts;
	bb_status s;
	size_t mark = r->c.path.len, i;

	if ((s = bb__jexpect_object(&r->c, o)) != BB_OK ||
	    (s = known_fields(r, o)) != BB_OK ||
	    (s = get_str(r, o, "command", 0, 1, &j->command)) != BB_OK ||
	    (s = get_str(r, o, "input", 1, 1, &j->input)) != BB_OK ||
	    (s = get_str(r, o, "output", 1, 1, &j->output)) != BB_OK ||
	    (s = get_str(r, o, "name", 0, 0, &j->name)) != BB_OK)
		return s;
	if (!option_name_ok(j->command))
		return bb__jfail(&r->c, "command", "not a command name: \"%s\"",
		                 j->command);
	if (!j->name && !(j->name = bb__strdup(j->output)))
		return bb__jnomem(&r->c);
	if ((s = read_anims(r, o, &a)) != BB_OK ||
	    (s = bb__jobject(&r->c, o, "options", 0, &opts)) != BB_OK)
		goto fail;
	if (opts) {
		bb__jpath_key(&r->c.path, "options");
		if ((s = read_options(r, opts, &a)) != BB_OK)
			goto fail;
		bb__jpath_pop(&r->c.path, mark);
	}
	if (!a.v && !(a.v = calloc(1, sizeof *a.v))) {    /* a NULL-ended argv */
		s = bb__jnomem(&r->c);
		goto fail;
	}
	j->args = a.v;
	j->pub.name = j->name;
	j->pub.command = j->command;
	j->pub.input = j->input;
	j->pub.output = j->output;
	j->pub.nargs = a.n;
	j->pub.args = (const char *const *)a.v;
	return BB_OK;
fail:
	for (i = 0; i < (size_t)a.n; i++)
		free(a.v[i]);
	free(a.v);
	return s;
}

static void free_job(struct job *j)
{
	int i;

	for (i = 0; j->args && j->args[i]; i++)
		free(j->args[i]);
	free(j->args);
	free(j->name);
	free(j->command);
	free(j->input);
	free(j->output);
	free(j->where);
}

void bb_batch_free(bb_batch *b)
{
	int i;

	if (!b)
		return;
	for (i = 0; i < b->njobs; i++)
		free_job(&b->jobs[i]);
	free(b->jobs);
	free(b->file);
	free(b->base);
	free(b);
}

/* A job's name or normalised output, for finding two alike by sorting. */
struct keyed {
	const char *key;
	int job;
};

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->job > b->job) - (a->job < b->job);
}

/* The job, other than `self`, whose output is `key` (v sorted by it), or
 * -1. */
static int output_of(const struct keyed *v, int n, const char *key, int self)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(v[lo].key, key) == 0; lo++)
		if (v[lo].job != self)
			return v[lo].job;
	return -1;
}

/* A job writing inside another's output (a sheet into DIR/walk beside a
 * render into DIR): the outer job replaces what it renders as a whole,
 * so whether the inner one's files survive would depend on which ends
 * first, that is on --jobs.  The first such job (by index) is the error,
 * at its output.  v: the jobs keyed by output, sorted. */
static bb_status check_nested(struct rd *r, bb_batch *b, const struct keyed *v)
{
	char up[8192];
	int i;

	for (i = 0; i < b->njobs; i++) {
		size_t k, len;

		snprintf(up, sizeof up, "%s", b->jobs[i].where);
		for (k = len = strlen(up); k > 0; k--) {
			int outer;

			if (up[k - 1] != '/' || k == len)   /* not a trailing slash */
				continue;
			/* the folder above: "/" itself, else without its slash */
			up[k > 1 ? k - 1 : k] = '\0';
			if ((outer = output_of(v, b->njobs, up, i)) < 0)
				continue;
			bb__jpath_init(&r->c.path);
			bb__jpath_key(&r->c.path, "jobs");
			bb__jpath_index(&r->c.path, (size_t)i);
			return bb__where_fail(&r->c, BB_ERR_USAGE, "output", "job \"%s\" "
			                      "writes %s, inside job \"%s\"'s %s",
			                      b->jobs[i].name, b->jobs[i].output,
			                      b->jobs[outer].name, b->jobs[outer].output);
		}
	}
	return BB_OK;
}

/* Two jobs with the same name, or writing the same folder (the later one
 * in manifest order is named).  Sorted, so 100,000 jobs take no time. */
static bb_status check_unique(struct rd *r, bb_batch *b)
{
	struct keyed *v = bb__calloc((size_t)b->njobs + 1, sizeof *v);
	int i, pass;
	bb_status s = BB_OK;

	if (!v)
		return bb__jnomem(&r->c);
	for (pass = 0; pass < 2 && s == BB_OK; pass++) {
		int dup = -1, first = -1;

		for (i = 0; i < b->njobs; i++) {
			v[i].key = pass ? b->jobs[i].where : b->jobs[i].name;
			v[i].job = i;
		}
		qsort(v, (size_t)b->njobs, sizeof *v, cmp_keyed);
		for (i = 1; i < b->njobs; i++)
			if (strcmp(v[i - 1].key, v[i].key) == 0 && (dup < 0 || v[i].job < dup)) {
				dup = v[i].job;
				first = v[i - 1].job;
			}
		if (dup < 0)
			continue;
		bb__jpath_init(&r->c.path);
		bb__jpath_key(&r->c.path, "jobs");
		bb__jpath_index(&r->c.path, (size_t)dup);
		if (pass == 0)
			s = bb__jfail(&r->c, "name", "two jobs are named \"%s\"",
			              b->jobs[dup].name);
		else
			s = bb__where_fail(&r->c, BB_ERR_USAGE, "output", "jobs \"%s\" and "
			                   "\"%s\" both write %s", b->jobs[first].name,
			                   b->jobs[dup].name, b->jobs[dup].output);
	}
	if (s == BB_OK)
		s = check_nested(r, b, v);
	free(v);
	return s;
}

static bb_status read_jobs(struct rd *r, json_t *root, bb_batch *b)
{
	char where[8192];
	struct job *j;
	bb__jiter it;
	json_t *o;
	bb_status s;

	if (bb__jkind_of(root, NULL) != BB_JK_OBJECT)
		return bb__jfail(&r->c, NULL, "expected an object with \"jobs\", "
		                 "found %s", bb__json_type_name(root));
	if ((s = bb__jeach(&r->c, root, "jobs", BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n > MAX_JOBS)
		return bb__jlimit(&r->c, NULL, "%zu jobs exceed the limit of %d", it.n,
		                  MAX_JOBS);
	if (it.n && !(b->jobs = bb__calloc(it.n, sizeof *b->jobs)))
		return bb__jnomem(&r->c);
	while (bb__jnext(&it, &o)) {
		j = &b->jobs[it.index];
		b->njobs = (int)it.index + 1;    /* counted first: freed on error */
		if ((s = read_job(r, o, j)) != BB_OK)
			return s;
		j->pub.base = b->base;
		/* ./out, out/ and $PWD/out are one folder */
		if (!bb__path_resolve(j->output, where, sizeof where))
			return bb__jfail(&r->c, "output", "path too long");
		if (!(j->where = bb__strdup(where)))
			return bb__jnomem(&r->c);
	}
	return check_unique(r, b);
}

bb_status bb_batch_load(const char *path, bb_batch **out, bb_error *err)
{
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	if ((s = bb__read_file(path, (size_t)64 << 20, &data, &size, err)) != BB_OK)
		return s;
	s = bb_batch_parse(data, size, path, out, err);
	free(data);
	return s;
}

bb_status bb_batch_parse(const char *data, size_t size, const char *path,
                         bb_batch **out, bb_error *err)
{
	struct rd r;
	json_t *root;
	bb_batch *b;
	bb_status s;

	*out = NULL;
	bb__jctx_init(&r.c, bb__basename(path), err, 0);
	bb__dirname(path, r.dir, sizeof r.dir);
	if ((s = bb__json_parse(data, size, r.c.file, &root, err)) != BB_OK)
		return s;
	if (!(b = calloc(1, sizeof *b)) || !(b->file = bb__strdup(r.c.file)) ||
	    !(b->base = malloc(8192))) {
		if (b)
			free(b->file);
		free(b);
		bb__json_free(root);
		return bb__jnomem(&r.c);
	}
	if (!bb__path_resolve(r.dir, b->base, 8192))
		snprintf(b->base, 8192, "%s", r.dir);
	s = read_jobs(&r, root, b);
	bb__json_free(root);
	if (s != BB_OK) {
		bb_batch_free(b);
		return s;
	}
	*out = b;
	return BB_OK;
}

int bb_batch_job_count(const bb_batch *b)
{
	return b->njobs;
}

const bb_batch_job *bb_batch_job_at(const bb_batch *b, int i)
{
	return i >= 0 && i < b->njobs ? &b->jobs[i].pub : NULL;
}

int bb_batch_shard(const bb_batch_job *j, int nshards)
{
	uint64_t h = 14695981039346656037ull;
	const unsigned char *p;

	if (nshards <= 1)
		return 0;
	for (p = (const unsigned char *)j->name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	/* MurmurHash3's fmix64 spreads FNV's bits before the modulo */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (int)(h % (uint64_t)nshards);
}

/* ---- up-to-date records ------------------------------------------------ */

/* A stamp (OUTPUT/.bonebake-batch.json) lists what the job read ("files",
 * with their SHA-256), what it looked for and did not find ("missing"),
 * and what it wrote ("outputs": paths under OUTPUT with their sizes).  It
 * lies in the output folder, which may come from anywhere (a committed
 * baseline, a downloaded artifact), so it is read as untrusted: the stamp
 * must be a regular file, and only regular files inside the folders the
 * job may read are hashed (a stamp naming /dev/zero or a FIFO makes the
 * job stale, it does not hang). */
enum { MAX_STAMP_BYTES = 64 << 20, MAX_LISTED = 100000 };

static void hash_str(bb__sha256 *c, const char *s)
{
	bb__sha256_update(c, s, strlen(s) + 1);    /* with its NUL */
}

/* A path as the key sees it: without ".", ".." or links, so ./m.json and
 * $PWD/m.json agree; relative to the manifest's folder when below it (a
 * tree moved with its records stays current), else absolute; as given
 * when it cannot be resolved. */
static void norm_path(const bb_batch_job *j, const char *path, char *out,
                      size_t size)
{
	size_t n = strlen(j->base);

	if (!bb__path_resolve(path, out, size)) {
		snprintf(out, size, "%s", path);
	} else if (bb__path_within(out, j->base)) {
		const char *rel = out[n] == '/' ? out + n + 1 : out + n;

		if (strcmp(j->base, "/") == 0)
			rel = out + 1;
		memmove(out, rel[0] ? rel : ".", strlen(rel[0] ? rel : ".") + 1);
	}
}

/* The folders a job may read (bonebake/batch.h): the input's, and those
 * of its --assets, --atlas, --model options; nroots 0 with
 * --allow-outside-paths (anywhere).  Paths as the job's process sees
 * them (relative to the working folder, as the manifest's are made). */
struct roots {
	char dirs[4][4096];
	const char *v[4];
	int n;
};

static void job_roots(const bb_batch_job *j, struct roots *r)
{
	static const char *const opts[] = { "--assets=", "--atlas=", "--model=" };
	int i, k;

	r->n = 0;
	bb__dirname(j->input, r->dirs[r->n++], sizeof r->dirs[0]);
	for (i = 0; i < j->nargs; i++) {
		if (strcmp(j->args[i], "--allow-outside-paths") == 0) {
			r->n = 0;
			return;
		}
		for (k = 0; k < 3 && r->n < 4; k++) {
			size_t n = strlen(opts[k]);

			if (strncmp(j->args[i], opts[k], n) != 0)
				continue;
			if (k == 0)
				snprintf(r->dirs[r->n++], sizeof r->dirs[0], "%s", j->args[i] + n);
			else
				bb__dirname(j->args[i] + n, r->dirs[r->n++], sizeof r->dirs[0]);
		}
	}
	for (i = 0; i < r->n; i++)
		r->v[i] = r->dirs[i];
}

/* SHA-256 of a regular file inside the roots; 0 when it is not one. */
static int hash_file(const char *path, const struct roots *r, char out[65])
{
	uint8_t buf[65536], d[32];
	bb__sha256 c;
	bb_error err;
	ssize_t n;
	int fd = bb_file_open_regular(path, r->v, r->n, 0, &err);

	if (fd < 0)
		return 0;
	bb__sha256_init(&c);
	while ((n = read(fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return 0;
		}
		bb__sha256_update(&c, buf, (size_t)n);
	}
	close(fd);
	bb__sha256_final(&c, d);
	bb__sha256_hex(d, out);
	return 1;
}

/* What a stamp records, its strings borrowed from the JSON it came from. */
struct record {
	size_t nfiles, nmissing;
	const char **files, **missing;
	char (*hashes)[65];
};

static void record_free(struct record *rec)
{
	free(rec->files);
	free(rec->missing);
	free(rec->hashes);
	memset(rec, 0, sizeof *rec);
}

/* Reads the "files" ({path, sha256} objects or plain paths) and
 * "missing" lists of a stamp or --deps document, hashing each file now;
 * 0 when a list is malformed or a file is not one the job may read. */
static int read_record(json_t *doc, const struct roots *roots, struct record *rec)
{
	bb__jctx c;                 /* quiet: a malformed record is stale */
	json_t *files, *missing, *f;
	bb__jiter it;
	const char *p;

	memset(rec, 0, sizeof *rec);
	bb__jctx_init(&c, NULL, NULL, 0);
	if (bb__jarray(&c, doc, "files", 1, &files) != BB_OK ||
	    bb__jarray(&c, doc, "missing", 0, &missing) != BB_OK)
		return 0;
	rec->nfiles = bb__jsize(files);
	rec->nmissing = bb__jsize(missing);
	if (rec->nfiles > MAX_LISTED || rec->nmissing > MAX_LISTED)
		return 0;
	rec->files = bb__calloc(rec->nfiles + 1, sizeof *rec->files);
	rec->hashes = bb__calloc(rec->nfiles + 1, sizeof *rec->hashes);
	rec->missing = bb__calloc(rec->nmissing + 1, sizeof *rec->missing);
	if (!rec->files || !rec->hashes || !rec->missing)
		return 0;
	bb__jeach(&c, files, NULL, 0, &it);
	while (bb__jnext(&it, &f)) {
		if (bb__jkind_of(f, NULL) == BB_JK_OBJECT)   /* a stamp's {path, sha256} */
			f = bb__jget(f, "path");
		if (bb__jstr(&c, f, NULL, 1, &p) != BB_OK ||
		    !hash_file(p, roots, rec->hashes[it.index]))
			return 0;
		rec->files[it.index] = p;
	}
	bb__jeach(&c, missing, NULL, 0, &it);
	while (bb__jnext(&it, &f))
		if (bb__jstr(&c, f, NULL, 1, &rec->missing[it.index]) != BB_OK)
			return 0;
	return 1;
}

/* The job's key over its inputs. */
static void job_key(const bb_batch_job *j, const char *version,
                    const struct record *rec, char out[65])
{
	char path[8192], n[32];
	bb__sha256 c;
	uint8_t d[32];
	size_t i;

	bb__sha256_init(&c);
	hash_str(&c, "bonebake-batch 2");
	hash_str(&c, version);
	hash_str(&c, j->command);
	norm_path(j, j->input, path, sizeof path);
	hash_str(&c, path);
	norm_path(j, j->output, path, sizeof path);
	hash_str(&c, path);
	snprintf(n, sizeof n, "%d", j->nargs);
	hash_str(&c, n);
	for (i = 0; i < (size_t)j->nargs; i++)
		hash_str(&c, j->args[i]);
	snprintf(n, sizeof n, "%zu", rec->nfiles);
	hash_str(&c, n);
	for (i = 0; i < rec->nfiles; i++) {
		norm_path(j, rec->files[i], path, sizeof path);
		hash_str(&c, path);
		hash_str(&c, rec->hashes[i]);
	}
	snprintf(n, sizeof n, "%zu", rec->nmissing);
	hash_str(&c, n);
	for (i = 0; i < rec->nmissing; i++) {
		norm_path(j, rec->missing[i], path, sizeof path);
		hash_str(&c, path);
	}
	bb__sha256_final(&c, d);
	bb__sha256_hex(d, out);
}

static int stamp_path(const bb_batch_job *j, char *buf, size_t size)
{
	return bb__path_join(buf, size, j->output, STAMP);
}

/* A JSON document from a regular file inside root, of at most max bytes;
 * NULL otherwise. */
static json_t *load_regular(const char *path, const char *root, size_t max)
{
	char *data = NULL;
	size_t len = 0, size;
	ssize_t n = 1;
	json_t *doc = NULL;
	bb_error err;
	struct stat st;
	int fd = bb_file_open_regular(path, &root, 1, max, &err);

	if (fd < 0)
		return NULL;
	/* its size now (within max), and not a byte more if it grows */
	if (fstat(fd, &st) == 0 && (data = malloc((size = (size_t)st.st_size) + 1))) {
		while (len <= size && n != 0) {
			n = read(fd, data + len, size + 1 - len);
			if (n < 0 && errno != EINTR)
				break;
			len += n > 0 ? (size_t)n : 0;
		}
		if (n == 0 && len <= size && bb__json_parse(data, len, path, &doc,
		                                            NULL) != BB_OK)
			doc = NULL;
	}
	close(fd);
	free(data);
	return doc;
}

/* The files under the output folder (relative paths, bonebake's own
 * .bonebake-* names left out) with their sizes, as a JSON array; the
 * stamp lists it so that a deleted output makes the job stale. */
static int list_outputs(bb__jw *w, const char *dir, const char *rel,
                        json_t *list, int depth)
{
	char path[8192], sub[8192];
	struct dirent *e;
	DIR *d;
	int ok = 1;

	if (!bb__path_join(path, sizeof path, dir, rel[0] ? rel : ".") ||
	    depth > 16 || !(d = opendir(path)))
		return 0;
	while (ok && !w->oom && (e = readdir(d)) != NULL) {
		struct stat st;
		char full[8192 + 256];
		json_t *o;

		if (e->d_name[0] == '.' && (!e->d_name[1] || strcmp(e->d_name, "..") == 0 ||
		                            strstr(e->d_name, ".bonebake-")))
			continue;
		snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", path, e->d_name);
		if (lstat(full, &st) != 0 || (!S_ISDIR(st.st_mode) &&
		                              bb__jsize(list) >= MAX_LISTED)) {
			ok = 0;
		} else if (S_ISDIR(st.st_mode)) {
			ok = list_outputs(w, dir, sub, list, depth + 1);
		} else {
			bb__jw_append(w, list, o = bb__jw_object(w));
			bb__jw_str(w, o, "path", sub);
			bb__jw_int(w, o, "size", (long long)st.st_size);
		}
	}
	closedir(d);
	return ok;
}

/* 1 when `rel` is a relative path without a ".." component. */
static int plain_relative(const char *rel)
{
	const char *p = rel;

	if (rel[0] == '/')
		return 0;
	for (; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == rel || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return 0;
	return 1;
}

/* 1 when every output the stamp lists is there with its size. */
static int outputs_there(const bb_batch_job *j, json_t *stamp)
{
	bb__jctx c;                 /* quiet: a malformed list is stale */
	bb__jiter it;
	json_t *o;

	bb__jctx_init(&c, NULL, NULL, 0);
	if (bb__jeach(&c, stamp, "outputs", BB_J_REQUIRED, &it) != BB_OK ||
	    it.n > MAX_LISTED)
		return 0;
	while (bb__jnext(&it, &o)) {
		const char *p;
		double size;
		char full[8192];
		struct stat st;

		if (bb__jstr(&c, o, "path", 1, &p) != BB_OK ||
		    bb__jkind_of(o, "size") != BB_JK_NUMBER ||
		    bb__jnum(&c, o, "size", -1, &size) != BB_OK || !plain_relative(p) ||
		    !bb__path_join(full, sizeof full, j->output, p) ||
		    lstat(full, &st) != 0 || !S_ISREG(st.st_mode) ||
		    (double)st.st_size != size)
			return 0;
	}
	return 1;
}

/* 1 when none of the files the job looked for and missed is there now. */
static int still_missing(const struct record *rec)
{
	struct stat st;
	size_t i;

	for (i = 0; i < rec->nmissing; i++)
		if (lstat(rec->missing[i], &st) == 0)
			return 0;
	return 1;
}

int bb_batch_current(const bb_batch_job *j, const char *version)
{
	char path[8192], key[65];
	struct record rec;
	struct roots roots;
	const char *k, *v;
	bb__jctx c;                 /* quiet: a malformed stamp is stale */
	json_t *st;
	int ok = 0;

	memset(&rec, 0, sizeof rec);
	if (!stamp_path(j, path, sizeof path) ||
	    !(st = load_regular(path, j->output, MAX_STAMP_BYTES)))
		return 0;
	bb__jctx_init(&c, NULL, NULL, 0);
	job_roots(j, &roots);
	if (bb__jstr(&c, st, "key", 1, &k) == BB_OK &&
	    bb__jstr(&c, st, "bonebake", 1, &v) == BB_OK && strcmp(v, version) == 0 &&
	    outputs_there(j, st) && read_record(st, &roots, &rec) &&
	    still_missing(&rec)) {
		job_key(j, version, &rec, key);
		ok = strcmp(key, k) == 0;
	}
	record_free(&rec);
	bb__json_free(st);
	return ok;
}

/* The --deps document the job wrote; NULL when it cannot be read. */
static json_t *load_deps(const char *deps)
{
	bb_error err;
	char *data;
	size_t size;
	json_t *d = NULL;

	if (bb__read_file(deps, MAX_STAMP_BYTES, &data, &size, &err) != BB_OK)
		return NULL;
	if (bb__json_parse(data, size, deps, &d, NULL) != BB_OK)
		d = NULL;
	free(data);
	return d;
}

/* A JSON array of the strings v[0..n). */
static json_t *strings(bb__jw *w, const char *const *v, size_t n)
{
	json_t *a = bb__jw_array(w);
	size_t i;

	for (i = 0; i < n; i++)
		bb__jw_append(w, a, bb__jw_string(w, v[i]));
	return a;
}

bb_status bb_batch_stamp(const bb_batch_job *j, const char *version,
                         const char *deps, bb_error *err)
{
	char path[8192], key[65];
	struct record rec;
	struct roots roots;
	bb__jw w = { 0, 0 };
	json_t *d, *st = NULL, *list, *o;
	char *text = NULL;
	size_t i;
	bb_status s = BB_OK;

	memset(&rec, 0, sizeof rec);
	if (!(d = load_deps(deps)))
		return bb_error_set(err, BB_ERR_IO, deps, NULL, "cannot read the "
		                    "list of files the job read");
	job_roots(j, &roots);
	if (!read_record(d, &roots, &rec)) {
		s = bb_error_set(err, BB_ERR_INPUT, deps, "files", "a file the job "
		                 "read cannot be hashed");
		goto done;
	}
	job_key(j, version, &rec, key);
	st = bb__jw_object(&w);
	bb__jw_str(&w, st, "bonebake", version);
	bb__jw_str(&w, st, "key", key);
	bb__jw_str(&w, st, "command", j->command);
	bb__jw_str(&w, st, "input", j->input);
	bb__jw_str(&w, st, "output", j->output);
	bb__jw_set(&w, st, "args", strings(&w, j->args, (size_t)j->nargs));
	list = bb__jw_set(&w, st, "files", bb__jw_array(&w));
	for (i = 0; i < rec.nfiles; i++) {
		bb__jw_append(&w, list, o = bb__jw_object(&w));
		bb__jw_str(&w, o, "path", rec.files[i]);
		bb__jw_str(&w, o, "sha256", rec.hashes[i]);
	}
	bb__jw_set(&w, st, "missing", strings(&w, rec.missing, rec.nmissing));
	list = bb__jw_set(&w, st, "outputs", bb__jw_array(&w));
	if (list && !list_outputs(&w, j->output, "", list, 0)) {
		s = bb_error_set(err, BB_ERR_IO, j->output, NULL, "cannot list the "
		                 "outputs (more than %d files?)", MAX_LISTED);
		goto done;
	}
	if (!(text = bb__jw_dump(&w, st, 1)) || w.oom) {
		s = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		goto done;
	}
	if (!stamp_path(j, path, sizeof path))
		s = bb_error_set(err, BB_ERR_IO, j->output, NULL, "path too long");
	else
		s = bb_file_write_atomic(path, text, strlen(text), err);
done:
	free(text);
	bb__json_free(st);
	bb__json_free(d);
	record_free(&rec);
	return s;
}
