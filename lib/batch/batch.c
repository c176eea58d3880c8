/* Batch manifests, shards and up-to-date records (bonebake/batch.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/batch.h"
#include "core/sha256.h"
#include "core/util.h"

/* MAX_ANIMS: as many animations as render and sheet take by name (--anim);
 * "all": true renders every one. */
enum { MAX_JOBS = 100000, MAX_ARGS = 16384, MAX_ANIMS = 256 };

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

struct rd {
	bb_error *err;
	const char *file;
	bb__jpath path;
	char dir[4096];
};

static bb_status fail(struct rd *r, const char *key, const char *fmt,
                      const char *arg)
{
	size_t mark = key ? bb__jpath_key(&r->path, key) : r->path.len;
	bb_status s = bb_error_set(r->err, BB_ERR_INPUT, r->file,
	                           r->path.len ? r->path.buf : NULL, fmt, arg);

	bb__jpath_pop(&r->path, mark);
	return s;
}

static bb_status nomem(struct rd *r)
{
	return bb_error_set(r->err, BB_ERR_NOMEM, r->file, NULL, "out of memory");
}

static const char *type_name(const json_t *v)
{
	return json_is_object(v) ? "an object" : json_is_array(v) ? "an array"
	     : json_is_string(v) ? "a string" : json_is_number(v) ? "a number"
	     : json_is_boolean(v) ? "a boolean" : "null";
}

/* A required non-empty string member, copied (paths resolved). */
static bb_status get_str(struct rd *r, json_t *o, const char *key, int path,
                         int required, char **out)
{
	json_t *v = json_object_get(o, key);
	char buf[8192];

	*out = NULL;
	if (!v)
		return required ? fail(r, key, "missing%s", "") : BB_OK;
	if (!json_is_string(v))
		return fail(r, key, "expected a string, found %s", type_name(v));
	if (!json_string_value(v)[0])
		return fail(r, key, "empty%s", "");
	if (path) {
		if (!bb__path_join(buf, sizeof buf, r->dir, json_string_value(v)))
			return fail(r, key, "path too long%s", "");
		*out = bb__strdup(buf);
	} else {
		*out = bb__strdup(json_string_value(v));
	}
	return *out ? BB_OK : nomem(r);
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
		return bb_error_set(r->err, BB_ERR_LIMIT, r->file, r->path.buf,
		                    "more than %d options and animations in one job",
		                    MAX_ARGS);
	if (!bb__grow((void **)&a->v, &a->cap, (size_t)a->n + 2, sizeof *a->v) ||
	    !(d = malloc(n)))
		return nomem(r);
	snprintf(d, n, "%s%s%s", flag, value ? "=" : "", value ? value : "");
	a->v[a->n++] = d;
	a->v[a->n] = NULL;
	return BB_OK;
}

/* One option's value as a word: --flag=number, --flag=string, or the bare
 * --flag for true. */
static bb_status option_value(struct rd *r, const char *flag, json_t *v,
                              struct argv *a)
{
	char num[64];

	if (json_is_true(v))
		return push(r, a, flag, NULL);
	if (json_is_false(v))
		return BB_OK;
	if (json_is_integer(v))
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(num, sizeof num, "%.17g", json_real_value(v));
	else if (!json_is_string(v))
		return fail(r, NULL, "expected a number, a string or a boolean, "
		            "found %s", type_name(v));
	return push(r, a, flag, json_is_string(v) ? json_string_value(v) : num);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The options object, keys in sorted order so the words (and the job's
 * key) do not depend on the document's member order. */
static bb_status read_options(struct rd *r, json_t *opts, struct argv *a)
{
	const char *keys[512], *k, *flag_of;
	json_t *v;
	size_t n = 0, i, j;
	bb_status s;

	json_object_foreach(opts, k, v) {
		if (n == sizeof keys / sizeof keys[0])
			return fail(r, NULL, "more than 512 options%s", "");
		keys[n++] = k;
	}
	qsort(keys, n, sizeof keys[0], cmp_str);
	for (i = 0; i < n; i++) {
		char flag[300];
		size_t mark = bb__jpath_key(&r->path, keys[i]);

		v = json_object_get(opts, keys[i]);
		if (!option_name_ok(keys[i]) || strlen(keys[i]) > 256)
			return fail(r, NULL, "not an option name%s", "");
		if ((flag_of = reserved_prefix(keys[i])) != NULL)
			return bb_error_set(r->err, BB_ERR_USAGE, r->file, r->path.buf,
			                    "the batch sets --%s itself%s", flag_of,
			                    strcmp(flag_of, keys[i]) != 0 ? " (an abbreviation "
			                    "of it is taken for it)" : "");
		snprintf(flag, sizeof flag, "--%s", keys[i]);
		if (json_is_array(v)) {
			for (j = 0; j < json_array_size(v); j++) {
				size_t m2 = bb__jpath_index(&r->path, j);

				if (json_is_array(json_array_get(v, j)))
					return fail(r, NULL, "expected a number or a string, "
					            "found %s", "an array");
				if ((s = option_value(r, flag, json_array_get(v, j), a)) != BB_OK)
					return s;
				bb__jpath_pop(&r->path, m2);
			}
		} else if ((s = option_value(r, flag, v, a)) != BB_OK) {
			return s;
		}
		bb__jpath_pop(&r->path, mark);
	}
	return BB_OK;
}

static bb_status read_anims(struct rd *r, json_t *list, struct argv *a)
{
	size_t i;

	if (!json_is_array(list))
		return fail(r, "animations", "expected an array, found %s",
		            type_name(list));
	bb__jpath_key(&r->path, "animations");
	if (json_array_size(list) > MAX_ANIMS)
		return bb_error_set(r->err, BB_ERR_LIMIT, r->file, r->path.buf,
		                    "%zu animations exceed the limit of %d for one job "
		                    "(\"options\": {\"all\": true} renders every one)",
		                    json_array_size(list), MAX_ANIMS);
	for (i = 0; i < json_array_size(list); i++) {
		json_t *v = json_array_get(list, i);
		bb_status s;

		if (!json_is_string(v) || !json_string_value(v)[0]) {
			bb__jpath_index(&r->path, i);
			return fail(r, NULL, "expected an animation name, found %s",
			            json_is_string(v) ? "an empty string" : type_name(v));
		}
		if ((s = push(r, a, "--anim", json_string_value(v))) != BB_OK)
			return s;
	}
	return BB_OK;
}

static const char *const job_keys[] = { "name", "command", "input", "output",
                                        "animations", "options", NULL };

static bb_status read_job(struct rd *r, json_t *o, struct job *j)
{
	struct argv a = { NULL, 0, 0 };
	json_t *v;
	const char *k;
	bb_status s;
	size_t mark = r->path.len, i;

	if (!json_is_object(o))
		return fail(r, NULL, "expected an object, found %s", type_name(o));
	json_object_foreach(o, k, v) {
		for (i = 0; job_keys[i] && strcmp(job_keys[i], k) != 0; i++)
			;
		if (!job_keys[i])
			return fail(r, k, "unknown field (a job has name, command, "
			            "input, output, animations, options)%s", "");
	}
	if ((s = get_str(r, o, "command", 0, 1, &j->command)) != BB_OK ||
	    (s = get_str(r, o, "input", 1, 1, &j->input)) != BB_OK ||
	    (s = get_str(r, o, "output", 1, 1, &j->output)) != BB_OK ||
	    (s = get_str(r, o, "name", 0, 0, &j->name)) != BB_OK)
		return s;
	if (!option_name_ok(j->command))
		return fail(r, "command", "not a command name: \"%s\"", j->command);
	if (!j->name && !(j->name = bb__strdup(j->output)))
		return nomem(r);
	if ((v = json_object_get(o, "animations")) != NULL &&
	    (s = read_anims(r, v, &a)) != BB_OK)
		goto fail;
	bb__jpath_pop(&r->path, mark);
	if ((v = json_object_get(o, "options")) != NULL) {
		if (!json_is_object(v)) {
			s = fail(r, "options", "expected an object, found %s", type_name(v));
			goto fail;
		}
		bb__jpath_key(&r->path, "options");
		if ((s = read_options(r, v, &a)) != BB_OK)
			goto fail;
		bb__jpath_pop(&r->path, mark);
	}
	if (!a.v && !(a.v = calloc(1, sizeof *a.v))) {    /* a NULL-ended argv */
		s = nomem(r);
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

/* Two jobs with the same name, or writing the same folder (the later one
 * in manifest order is named).  Sorted, so 100,000 jobs take no time. */
static bb_status check_unique(struct rd *r, bb_batch *b)
{
	struct keyed *v = bb__calloc((size_t)b->njobs + 1, sizeof *v);
	int i, pass;
	bb_status s = BB_OK;

	if (!v)
		return nomem(r);
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
		bb__jpath_init(&r->path);
		bb__jpath_key(&r->path, "jobs");
		bb__jpath_index(&r->path, (size_t)dup);
		if (pass == 0) {
			s = fail(r, "name", "two jobs are named \"%s\"", b->jobs[dup].name);
		} else {
			bb__jpath_key(&r->path, "output");
			s = bb_error_set(r->err, BB_ERR_USAGE, r->file, r->path.buf,
			                 "jobs \"%s\" and \"%s\" both write %s",
			                 b->jobs[first].name, b->jobs[dup].name,
			                 b->jobs[dup].output);
		}
	}
	free(v);
	return s;
}

static bb_status read_jobs(struct rd *r, json_t *root, bb_batch *b)
{
	json_t *jobs = json_object_get(root, "jobs");
	size_t i, n;
	bb_status s;

	if (!json_is_object(root))
		return fail(r, NULL, "expected an object with \"jobs\", found %s",
		            type_name(root));
	if (!jobs)
		return fail(r, "jobs", "missing%s", "");
	if (!json_is_array(jobs))
		return fail(r, "jobs", "expected an array, found %s", type_name(jobs));
	n = json_array_size(jobs);
	if (n > MAX_JOBS)
		return bb_error_set(r->err, BB_ERR_LIMIT, r->file, "jobs",
		                    "%zu jobs exceed the limit of %d", n, MAX_JOBS);
	if (n && !(b->jobs = bb__calloc(n, sizeof *b->jobs)))
		return nomem(r);
	bb__jpath_key(&r->path, "jobs");
	for (i = 0; i < n; i++) {
		size_t mark = bb__jpath_index(&r->path, i);
		struct job *j = &b->jobs[i];
		char where[8192];

		b->njobs = (int)i + 1;    /* counted first: freed on error */
		if ((s = read_job(r, json_array_get(jobs, i), j)) != BB_OK)
			return s;
		j->pub.base = b->base;
		/* ./out, out/ and $PWD/out are one folder */
		if (!bb__path_resolve(j->output, where, sizeof where))
			return fail(r, "output", "path too long%s", "");
		if (!(j->where = bb__strdup(where)))
			return nomem(r);
		bb__jpath_pop(&r->path, mark);
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
	json_error_t je;
	json_t *root;
	bb_batch *b;
	bb_status s;

	*out = NULL;
	memset(&r, 0, sizeof r);
	r.err = err;
	r.file = bb__basename(path);
	bb__jpath_init(&r.path);
	bb__dirname(path, r.dir, sizeof r.dir);
	root = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		s = bb_error_set(err, BB_ERR_INPUT, r.file, NULL, "invalid JSON: %s",
		                 je.text);
		if (err)
			err->line = je.line > 0 ? je.line : 0;
		return s;
	}
	if (!(b = calloc(1, sizeof *b)) || !(b->file = bb__strdup(r.file)) ||
	    !(b->base = malloc(8192))) {
		if (b)
			free(b->file);
		free(b);
		json_decref(root);
		return nomem(&r);
	}
	if (!bb__path_resolve(r.dir, b->base, 8192))
		snprintf(b->base, 8192, "%s", r.dir);
	s = read_jobs(&r, root, b);
	json_decref(root);
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
	json_t *files = json_object_get(doc, "files");
	json_t *missing = json_object_get(doc, "missing");
	size_t i;

	memset(rec, 0, sizeof *rec);
	if (!json_is_array(files) || (missing && !json_is_array(missing)))
		return 0;
	rec->nfiles = json_array_size(files);
	rec->nmissing = missing ? json_array_size(missing) : 0;
	if (rec->nfiles > MAX_LISTED || rec->nmissing > MAX_LISTED)
		return 0;
	rec->files = bb__calloc(rec->nfiles + 1, sizeof *rec->files);
	rec->hashes = bb__calloc(rec->nfiles + 1, sizeof *rec->hashes);
	rec->missing = bb__calloc(rec->nmissing + 1, sizeof *rec->missing);
	if (!rec->files || !rec->hashes || !rec->missing)
		return 0;
	for (i = 0; i < rec->nfiles; i++) {
		json_t *f = json_array_get(files, i);

		if (json_is_object(f))        /* a stamp's {path, sha256} */
			f = json_object_get(f, "path");
		if (!json_is_string(f) || !hash_file(json_string_value(f), roots,
		                                     rec->hashes[i]))
			return 0;
		rec->files[i] = json_string_value(f);
	}
	for (i = 0; i < rec->nmissing; i++) {
		json_t *f = json_array_get(missing, i);

		if (!json_is_string(f))
			return 0;
		rec->missing[i] = json_string_value(f);
	}
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
		if (n == 0 && len <= size)
			doc = json_loadb(data, len, 0, NULL);
	}
	close(fd);
	free(data);
	return doc;
}

/* The files under the output folder (relative paths, bonebake's own
 * .bonebake-* names left out) with their sizes, as a JSON array; the
 * stamp lists it so that a deleted output makes the job stale. */
static int list_outputs(const char *dir, const char *rel, json_t *list, int depth)
{
	char path[8192], sub[8192];
	struct dirent *e;
	DIR *d;
	int ok = 1;

	if (!bb__path_join(path, sizeof path, dir, rel[0] ? rel : ".") ||
	    depth > 16 || !(d = opendir(path)))
		return 0;
	while (ok && (e = readdir(d)) != NULL) {
		struct stat st;
		char full[8192 + 256];

		if (e->d_name[0] == '.' && (!e->d_name[1] || strcmp(e->d_name, "..") == 0 ||
		                            strstr(e->d_name, ".bonebake-")))
			continue;
		snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
		snprintf(full, sizeof full, "%s/%s", path, e->d_name);
		if (lstat(full, &st) != 0)
			ok = 0;
		else if (S_ISDIR(st.st_mode))
			ok = list_outputs(dir, sub, list, depth + 1);
		else if (json_array_size(list) >= MAX_LISTED)
			ok = 0;
		else
			ok = json_array_append_new(list, json_pack("{s:s, s:I}", "path", sub,
			                           "size", (json_int_t)st.st_size)) == 0;
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
static int outputs_there(const bb_batch_job *j, json_t *list)
{
	size_t i;

	if (!json_is_array(list) || json_array_size(list) > MAX_LISTED)
		return 0;
	for (i = 0; i < json_array_size(list); i++) {
		json_t *o = json_array_get(list, i);
		json_t *p = json_object_get(o, "path"), *size = json_object_get(o, "size");
		char full[8192];
		struct stat st;

		if (!json_is_string(p) || !json_is_integer(size) ||
		    !plain_relative(json_string_value(p)) ||
		    !bb__path_join(full, sizeof full, j->output, json_string_value(p)) ||
		    lstat(full, &st) != 0 || !S_ISREG(st.st_mode) ||
		    (json_int_t)st.st_size != json_integer_value(size))
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
	json_t *st, *k, *v;
	int ok = 0;

	memset(&rec, 0, sizeof rec);
	if (!stamp_path(j, path, sizeof path) ||
	    !(st = load_regular(path, j->output, MAX_STAMP_BYTES)))
		return 0;
	k = json_object_get(st, "key");
	v = json_object_get(st, "bonebake");
	job_roots(j, &roots);
	if (json_is_string(k) && json_is_string(v) &&
	    strcmp(json_string_value(v), version) == 0 &&
	    outputs_there(j, json_object_get(st, "outputs")) &&
	    read_record(st, &roots, &rec) && still_missing(&rec)) {
		job_key(j, version, &rec, key);
		ok = strcmp(key, json_string_value(k)) == 0;
	}
	record_free(&rec);
	json_decref(st);
	return ok;
}

bb_status bb_batch_stamp(const bb_batch_job *j, const char *version,
                         const char *deps, bb_error *err)
{
	char path[8192], key[65];
	struct record rec;
	struct roots roots;
	json_t *d, *st = NULL, *list = NULL, *args = NULL, *missing = NULL;
	json_t *outputs = NULL;
	char *text = NULL;
	size_t i;
	bb_status s = BB_OK;

	memset(&rec, 0, sizeof rec);
	if (!(d = json_load_file(deps, 0, NULL)))
		return bb_error_set(err, BB_ERR_IO, deps, NULL, "cannot read the "
		                    "list of files the job read");
	job_roots(j, &roots);
	if (!read_record(d, &roots, &rec)) {
		s = bb_error_set(err, BB_ERR_INPUT, deps, "files", "a file the job "
		                 "read cannot be hashed");
		goto done;
	}
	job_key(j, version, &rec, key);
	if (!(st = json_object()) || !(list = json_array()) || !(args = json_array()) ||
	    !(missing = json_array()) || !(outputs = json_array()))
		goto nomem;
	for (i = 0; i < rec.nfiles; i++)
		if (json_array_append_new(list, json_pack("{s:s, s:s}", "path", rec.files[i],
		                                          "sha256", rec.hashes[i])) != 0)
			goto nomem;
	for (i = 0; i < rec.nmissing; i++)
		if (json_array_append_new(missing, json_string(rec.missing[i])) != 0)
			goto nomem;
	for (i = 0; i < (size_t)j->nargs; i++)
		if (json_array_append_new(args, json_string(j->args[i])) != 0)
			goto nomem;
	if (!list_outputs(j->output, "", outputs, 0)) {
		s = bb_error_set(err, BB_ERR_IO, j->output, NULL, "cannot list the "
		                 "outputs (more than %d files?)", MAX_LISTED);
		goto done;
	}
	if (json_object_set_new(st, "bonebake", json_string(version)) ||
	    json_object_set_new(st, "key", json_string(key)) ||
	    json_object_set_new(st, "command", json_string(j->command)) ||
	    json_object_set_new(st, "input", json_string(j->input)) ||
	    json_object_set_new(st, "output", json_string(j->output)) ||
	    json_object_set(st, "args", args) || json_object_set(st, "files", list) ||
	    json_object_set(st, "missing", missing) ||
	    json_object_set(st, "outputs", outputs))
		goto nomem;
	if (!(text = json_dumps(st, JSON_INDENT(1) | JSON_PRESERVE_ORDER)))
		goto nomem;
	if (!stamp_path(j, path, sizeof path))
		s = bb_error_set(err, BB_ERR_IO, j->output, NULL, "path too long");
	else
		s = bb_file_write_atomic(path, text, strlen(text), err);
	goto done;
nomem:
	s = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
done:
	free(text);
	json_decref(outputs);
	json_decref(missing);
	json_decref(args);
	json_decref(list);
	json_decref(st);
	json_decref(d);
	record_free(&rec);
	return s;
}
