/* bonebake pack DIR|FILE.png... -o OUTDIR: pack existing PNG frames into
 * sprite sheets with metadata. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "pack-options.h"

static const char help[] =
	"usage: bonebake pack DIR|FILE.png... -o OUTDIR [options]\n"
	"\n"
	"Packs PNG frames into sprite sheets plus metadata.  Folders are read\n"
	"with their sub-folders (4 levels); a frame is named by its path\n"
	"relative to the folder given, without .png (dragon_fall/frame_0000),\n"
	"a file given alone by its file name.  Numbered files in a sub-folder\n"
	"(frame_0000.png, 0001.png ...) are that folder's animation, or\n"
	"<folder>/<prefix> when it holds several numbered runs; at the top a\n"
	"file <anim>_<digits>.png is frame <digits> of animation <anim>; other\n"
	"files are frames of their own.  A frames.json beside the frames (as\n"
	"`bonebake render` writes it) gives their animation's name, fps, loop\n"
	"flag, frame times and origin pixel (the pivot).  The result is the\n"
	"same whatever order the inputs are listed in and whatever --jobs.\n"
	"Nothing is written unless everything packs.\n"
	"\n"
	"  -o, --output DIR     output folder (created if missing)\n"
	"  --fps N              frame rate of animations without a frames.json\n"
	"                       (default: unknown)\n"
	"  -j, --jobs N         threads decoding, trimming and encoding pages\n"
	"                       (default: CPUs)\n"
	"  --stats              also print the time spent loading, packing, writing\n"
	"                       (wall clock and CPU)\n"
	"  --max-image-pixels N refuse PNGs of more than N pixels (or NM: N\n"
	"                       million), from their header (default 64M)\n"
	"  -q, --quiet          print nothing on success\n"
	"  -h, --help           this text\n"
	"\n";

enum { O_FPS = 1, O_STATS, O_PIXELS, MAX_DEPTH = 4 };

/* What a folder's frames.json says. */
typedef struct dir_meta {
	char *dir;
	char *anim;               /* NULL: from the file names */
	double fps;
	int loop, has_origin;
	double ox, oy;
	size_t n;
	char **files;             /* frames[i].file */
	double *times;            /* frames[i].time */
} dir_meta;

/* One PNG to pack. */
typedef struct entry {
	char *path;               /* on disk */
	char *name;               /* frame name: path relative to the packed
	                             folder without .png, or the base name of a
	                             file given alone */
	char *reldir;             /* its folder relative to the packed folder
	                             ("" at the top and for files given alone) */
	char *base;               /* file name with .png */
	char *prefix;             /* numbered: the name before the number */
	int number;
	size_t meta;              /* index into job.metas */
} entry;

typedef struct job {
	const char *cmd;
	double fps;               /* --fps */
	int threads;              /* --jobs */
	size_t max_pixels;        /* --max-image-pixels (0: the default) */
	int trim, trim_alpha;     /* trim frames as they are decoded */
	entry *ents;
	size_t n, cap;
	bb_pack_input *in;        /* these two parallel to ents */
	bb_image **imgs;
	char **anim_names;        /* these two parallel */
	bb_pack_anim *anims;
	size_t n_anims, cap_anims;
	dir_meta *metas;
	size_t n_metas, cap_metas;
	struct stat out;          /* the output folder, when it exists */
	int has_out;
} job;

/* Makes room for one more element in each of the parallel arrays
 * ptrs[0..n) (element sizes sizes[]), all of capacity *cap. */
static int reserve(void **ptrs[], const size_t sizes[], int n, size_t used,
                   size_t *cap)
{
	size_t nc = *cap ? *cap * 2 : 16;
	int k;

	if (used < *cap)
		return 1;
	for (k = 0; k < n; k++) {
		void *np = realloc(*ptrs[k], nc * sizes[k]);

		if (!np)
			return 0;
		memset((char *)np + *cap * sizes[k], 0, (nc - *cap) * sizes[k]);
		*ptrs[k] = np;
	}
	*cap = nc;
	return 1;
}

static int oom(void)
{
	fprintf(stderr, "bonebake: out of memory\n");
	return EXIT_INTERNAL;
}

/* Reads dir/frames.json into m when present (bonebake/output.h: fields
 * other tools may leave out are optional here). */
static int read_meta(const char *dir, dir_meta *m)
{
	char path[4200];
	bb_frames_json *f = NULL;
	struct stat st;
	bb_error err;
	size_t i;

	memset(m, 0, sizeof *m);
	m->loop = 1;
	m->dir = strdup(dir);
	if (!m->dir)
		return oom();
	snprintf(path, sizeof path, "%s/frames.json", dir);
	if (stat(path, &st) != 0)
		return 0;
	if (bb_frames_json_read(path, BB_FRAMES_JSON_PARTIAL, &f, &err) != BB_OK)
		return cli_fail(&err);
	if (f->animation[0] && !(m->anim = strdup(f->animation)))
		goto nomem;
	m->fps = f->fps;
	m->loop = f->loop;
	m->has_origin = f->has_origin;
	m->ox = f->origin_x;
	m->oy = f->origin_y;
	m->n = f->n_frames;
	m->files = calloc(m->n + 1, sizeof *m->files);
	m->times = calloc(m->n + 1, sizeof *m->times);
	if (!m->files || !m->times)
		goto nomem;
	for (i = 0; i < m->n; i++) {
		if (!(m->files[i] = strdup(f->frames[i].file)))
			goto nomem;
		m->times[i] = f->frames[i].time;
	}
	bb_frames_json_free(f);
	return 0;
nomem:
	bb_frames_json_free(f);
	return oom();
}

/* The frames.json of dir, read once; *out is its index in j->metas. */
static int meta_for(job *j, const char *dir, size_t *out)
{
	void **ptrs[] = { (void **)&j->metas };
	const size_t sizes[] = { sizeof *j->metas };
	size_t i;
	int rc;

	for (i = 0; i < j->n_metas; i++)
		if (strcmp(j->metas[i].dir, dir) == 0) {
			*out = i;
			return 0;
		}
	if (!reserve(ptrs, sizes, 1, j->n_metas, &j->cap_metas))
		return oom();
	rc = read_meta(dir, &j->metas[j->n_metas]);
	*out = j->n_metas++;
	return rc;
}

static int anim_index(job *j, const char *name, const dir_meta *m)
{
	void **ptrs[] = { (void **)&j->anims, (void **)&j->anim_names };
	const size_t sizes[] = { sizeof *j->anims, sizeof *j->anim_names };
	size_t i;

	for (i = 0; i < j->n_anims; i++)
		if (strcmp(j->anim_names[i], name) == 0)
			return (int)i;
	if (!reserve(ptrs, sizes, 2, j->n_anims, &j->cap_anims))
		return -1;
	j->anim_names[j->n_anims] = strdup(name);
	if (!j->anim_names[j->n_anims])
		return -1;
	j->anims[j->n_anims].name = j->anim_names[j->n_anims];
	j->anims[j->n_anims].fps = m && m->fps > 0 ? m->fps : j->fps;
	j->anims[j->n_anims].loop = m ? m->loop : 1;
	return (int)j->n_anims++;
}

/* "walk_0012" -> prefix "walk", number 12.  At the top of a packed folder
 * (sub == 0) only <anim>_<digits> with a non-empty <anim> is a numbered
 * frame; inside a sub-folder any name ending in 1-9 digits is, and one
 * '_', '-', '.' or ' ' before the digits is dropped from the prefix
 * ("frame0001", "frame-0001", "0001" all count). */
static int split_name(const char *name, int sub, char *prefix, size_t size,
                      int *number)
{
	size_t len = strlen(name), d = 0, plen;

	while (d < len && d < 10 && name[len - 1 - d] >= '0' &&
	       name[len - 1 - d] <= '9')
		d++;
	if (d == 0 || d > 9)
		return 0;
	plen = len - d;
	if (plen > 0 && strchr("_-. ", name[plen - 1]))
		plen--;
	else if (!sub)
		return 0;
	if ((!sub && (plen == 0 || name[plen] != '_')) || plen >= size)
		return 0;
	memcpy(prefix, name, plen);
	prefix[plen] = '\0';
	*number = atoi(name + len - d);
	return 1;
}

/* Records one PNG: path on disk, its folder relative to the packed folder
 * (NULL for a file given alone). */
static int add_file(job *j, const char *path, const char *reldir)
{
	void **ptrs[] = { (void **)&j->ents };
	const size_t sizes[] = { sizeof *j->ents };
	char dir[4096], name[4096], prefix[4096];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base);
	entry *e;
	int rc, number = 0, numbered;

	if (len >= 512)
		return cli_usage_error(j->cmd, "file name too long: %s", path);
	if (snprintf(name, sizeof name, "%s%s%s", reldir ? reldir : "",
	             reldir && reldir[0] ? "/" : "", base) >= (int)sizeof name)
		return cli_usage_error(j->cmd, "path too long: %s", path);
	len = strlen(name);
	if (len > 4 && strcasecmp(name + len - 4, ".png") == 0)
		name[len - 4] = '\0';
	if (!name[0] || name[strlen(name) - 1] == '/')
		return cli_usage_error(j->cmd, "no frame name in '%s'", path);
	if (base == path)
		snprintf(dir, sizeof dir, ".");
	else if (base - path == 1)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(base - path - 1), path);
	if (!reserve(ptrs, sizes, 1, j->n, &j->cap))
		return oom();
	e = &j->ents[j->n++];
	if ((rc = meta_for(j, dir, &e->meta)) != 0)
		return rc;
	{
		/* the number is read from the file name, without its folder */
		char stem[512];

		snprintf(stem, sizeof stem, "%s", base);
		if (strlen(stem) > 4 && strcasecmp(stem + strlen(stem) - 4, ".png") == 0)
			stem[strlen(stem) - 4] = '\0';
		numbered = split_name(stem, reldir && reldir[0], prefix,
		                      sizeof prefix, &number);
	}
	e->path = strdup(path);
	e->name = strdup(name);
	e->reldir = strdup(reldir ? reldir : "");
	e->base = strdup(base);
	e->prefix = numbered ? strdup(prefix) : NULL;
	e->number = number;
	if (!e->path || !e->name || !e->reldir || !e->base ||
	    (numbered && !e->prefix))
		return oom();
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads folder `dir` (its path relative to the packed folder: `rel`). */
static int scan_dir(job *j, const char *dir, const char *rel, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **ents = NULL;
	size_t n = 0, cap = 0, i;
	void **ptrs[] = { (void **)&ents };
	const size_t sizes[] = { sizeof *ents };
	int rc = 0;

	if (!d) {
		fprintf(stderr, "bonebake: %s: %s\n", dir, strerror(errno));
		return EXIT_IO;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (!reserve(ptrs, sizes, 1, n, &cap) ||
		    !(ents[n++] = strdup(e->d_name))) {
			rc = oom();
			break;
		}
	}
	closedir(d);
	if (rc == 0 && n > 0)
		qsort(ents, n, sizeof *ents, cmp_str);
	for (i = 0; i < n && rc == 0; i++) {
		char path[4096], sub[4096];
		struct stat st;
		size_t len = strlen(ents[i]);

		if (snprintf(path, sizeof path, "%s/%s", dir, ents[i]) >= (int)sizeof path)
			continue;
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && j->has_out && st.st_dev == j->out.st_dev &&
		    st.st_ino == j->out.st_ino)
			continue;   /* the output folder inside an input: not a frame */
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			if (snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "",
			             ents[i]) >= (int)sizeof sub)
				continue;
			rc = scan_dir(j, path, sub, depth + 1);
		} else if (S_ISREG(st.st_mode) && len > 4 &&
		           strcasecmp(ents[i] + len - 4, ".png") == 0) {
			rc = add_file(j, path, rel);
		}
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return rc;
}

static int add_input(job *j, const char *arg)
{
	struct stat st;

	if (stat(arg, &st) != 0) {
		fprintf(stderr, "bonebake: %s: %s\n", arg, strerror(errno));
		return EXIT_IO;
	}
	if (S_ISDIR(st.st_mode))
		return scan_dir(j, arg, "", 0);
	return add_file(j, arg, NULL);
}

/* Entries sorted by folder, then numbered prefix, then position: to see
 * how many numbered runs each folder holds. */
static int cmp_run(const void *a, const void *b)
{
	const entry *x = *(const entry *const *)a, *y = *(const entry *const *)b;
	int c = strcmp(x->reldir, y->reldir);

	if (!c)
		c = strcmp(x->prefix, y->prefix);
	return c ? c : (x > y) - (x < y);
}

/* "parent/of/dir" + "/" + name, or name when dir has no parent. */
static void beside(const char *dir, const char *name, char *buf, size_t size)
{
	const char *slash = strrchr(dir, '/');

	if (slash)
		snprintf(buf, size, "%.*s/%s", (int)(slash - dir), dir, name);
	else
		snprintf(buf, size, "%s", name);
}

/* Gives every entry its pack input: animation, index, duration, pivot.
 *  - listed in a frames.json that names its animation: that animation
 *    (named beside its folder: "Dragon/walk" for Dragon/walk/frames.json
 *    saying "walk"), its place in the list, time and origin;
 *  - numbered in a sub-folder: the folder's animation, or "folder/prefix"
 *    when the folder holds several numbered runs;
 *  - numbered at the top of the packed folder (or given alone):
 *    <anim>_<digits> is frame <digits> of <anim>;
 *  - else a frame of its own. */
static int assign(job *j)
{
	entry **order = malloc((j->n + 1) * sizeof *order);
	size_t i, k, n_num = 0;
	char anim[8192];

	j->in = calloc(j->n + 1, sizeof *j->in);
	j->imgs = calloc(j->n + 1, sizeof *j->imgs);
	if (!order || !j->in || !j->imgs) {
		free(order);
		return oom();
	}
	for (i = 0; i < j->n; i++) {
		entry *e = &j->ents[i];
		const dir_meta *m = &j->metas[e->meta];
		bb_pack_input *in = &j->in[i];

		in->name = e->name;
		in->anim = -1;
		k = 0;
		while (m->anim && k < m->n && strcmp(m->files[k], e->base) != 0)
			k++;
		if (m->anim && k < m->n) {
			beside(e->reldir, m->anim, anim, sizeof anim);
			if ((in->anim = anim_index(j, e->reldir[0] ? anim : m->anim, m)) < 0)
				break;
			in->index = (int)k;
			if (m->times[k] >= 0 && k + 1 < m->n && m->times[k + 1] > m->times[k])
				in->duration = m->times[k + 1] - m->times[k];
			in->has_pivot = m->has_origin;
			in->pivot_x = m->ox;
			in->pivot_y = m->oy;
		} else if (e->prefix) {
			order[n_num++] = e;
		}
	}
	if (i < j->n) {
		free(order);
		return oom();
	}
	qsort(order, n_num, sizeof *order, cmp_run);
	for (i = 0; i < n_num; i = k) {
		size_t end = i, runs = 0, r;

		/* [i, end): one folder; count its runs */
		while (end < n_num && strcmp(order[end]->reldir, order[i]->reldir) == 0) {
			if (end == i || strcmp(order[end]->prefix, order[end - 1]->prefix) != 0)
				runs++;
			end++;
		}
		for (r = i; r < end; r++) {
			const entry *e = order[r];
			const dir_meta *m = &j->metas[e->meta];
			bb_pack_input *in = &j->in[e - j->ents];

			if (!e->reldir[0])
				snprintf(anim, sizeof anim, "%s", e->prefix);
			else if (runs == 1 || !e->prefix[0])
				snprintf(anim, sizeof anim, "%s", e->reldir);
			else
				snprintf(anim, sizeof anim, "%s/%s", e->reldir, e->prefix);
			/* a frames.json without an animation name still gives fps,
			 * loop and origin */
			if ((in->anim = anim_index(j, anim, m->anim ? NULL : m)) < 0) {
				free(order);
				return oom();
			}
			in->index = e->number;
			if (!m->anim && m->has_origin) {
				in->has_pivot = 1;
				in->pivot_x = m->ox;
				in->pivot_y = m->oy;
			}
		}
		k = end;
	}
	free(order);
	return 0;
}

/* Frames named alike in two places cannot both be packed. */
static int check_names(const job *j)
{
	size_t i, k;
	char **sorted = malloc((j->n + 1) * sizeof *sorted);

	if (!sorted)
		return oom();
	for (i = 0; i < j->n; i++)
		sorted[i] = j->ents[i].name;
	qsort(sorted, j->n, sizeof *sorted, cmp_str);
	for (i = 1; i < j->n; i++)
		if (strcmp(sorted[i], sorted[i - 1]) == 0) {
			const char *a = NULL, *b = NULL;

			for (k = 0; k < j->n; k++)
				if (strcmp(j->ents[k].name, sorted[i]) == 0) {
					if (!a)
						a = j->ents[k].path;
					else if (!b)
						b = j->ents[k].path;
				}
			cli_error("two frames named '%s': %s and %s",
			        sorted[i], a, b);
			free(sorted);
			return EXIT_INPUT;
		}
	free(sorted);
	return 0;
}

/* Decoding on --jobs threads; the first failure in input order is the
 * one reported, whatever the threads did. */
typedef struct decode_run {
	job *j;
	bb_status *st;
	bb_error *err;
} decode_run;

/* Keeps only the drawn rectangle of a decoded frame (what the packer
 * would trim it to), so memory follows the sprites, not the canvases. */
static void keep_trimmed(bb_image **img, bb_pack_input *in, int alpha_max)
{
	int x, y, w, h;
	bb_image *c;

	bb_pack_trim(*img, alpha_max, &x, &y, &w, &h);
	if (w == 0)
		x = y = 0, w = h = 1;
	if (w == (*img)->width && h == (*img)->height)
		return;
	if (!(c = bb_image_crop(*img, x, y, w, h)))
		return;                 /* out of memory: keep it whole */
	in->crop_x = x;
	in->crop_y = y;
	in->full_w = (*img)->width;
	in->full_h = (*img)->height;
	bb_image_free(*img);
	*img = c;
}

static void decode_one(void *arg, size_t i, int worker)
{
	decode_run *r = arg;

	(void)worker;
	r->st[i] = bb_png_read_limited(r->j->ents[i].path, r->j->max_pixels,
	                               &r->j->imgs[i], &r->err[i]);
	if (r->st[i] == BB_OK && r->j->trim)
		keep_trimmed(&r->j->imgs[i], &r->j->in[i], r->j->trim_alpha);
	r->j->in[i].image = r->j->imgs[i];
}

static int decode_all(job *j)
{
	decode_run r;
	int rc = 0;
	size_t i;

	memset(&r, 0, sizeof r);
	r.j = j;
	r.st = calloc(j->n + 1, sizeof *r.st);
	r.err = calloc(j->n + 1, sizeof *r.err);
	if (!r.st || !r.err) {
		free(r.st);
		free(r.err);
		return oom();
	}
	bb_parallel_for(j->n, j->threads, decode_one, &r);
	for (i = 0; i < j->n && rc == 0; i++)
		if (r.st[i] != BB_OK)
			rc = cli_fail(&r.err[i]);
	free(r.st);
	free(r.err);
	return rc;
}

static void job_free(job *j)
{
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		if (j->imgs)
			bb_image_free(j->imgs[i]);
		free(j->ents[i].path);
		free(j->ents[i].name);
		free(j->ents[i].reldir);
		free(j->ents[i].base);
		free(j->ents[i].prefix);
	}
	for (i = 0; i < j->n_anims; i++)
		free(j->anim_names[i]);
	for (i = 0; i < j->n_metas; i++) {
		for (k = 0; k < j->metas[i].n; k++)
			free(j->metas[i].files[k]);
		free(j->metas[i].files);
		free(j->metas[i].times);
		free(j->metas[i].anim);
		free(j->metas[i].dir);
	}
	free(j->metas);
	free(j->ents);
	free(j->in);
	free(j->imgs);
	free(j->anims);
	free(j->anim_names);
}

/* Wall-clock and CPU seconds (all threads), for --stats. */
typedef struct stamp {
	double wall, cpu;
} stamp;

static stamp now(void)
{
	struct timespec w, c;

	clock_gettime(CLOCK_MONOTONIC, &w);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	return (stamp){ w.tv_sec + w.tv_nsec / 1e9, c.tv_sec + c.tv_nsec / 1e9 };
}

int cmd_pack(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "fps", required_argument, NULL, O_FPS },
		{ "stats", no_argument, NULL, O_STATS },
		{ "max-image-pixels", required_argument, NULL, O_PIXELS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct option opts[64];
	const char *outpath = NULL;
	int c, rc = 0, quiet = 0, stats = 0, i;
	pack_opts po;
	job j;
	bb_sheet *sheet = NULL;
	bb_error err;
	stamp t0, t1, t2, t3;

	memset(&j, 0, sizeof j);
	j.cmd = "pack";
	pack_opts_init(&po);
	memcpy(opts, own, sizeof own);
	pack_merge_options(opts, 64);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'j':
			if (!cli_parse_int(optarg, 1, 256, &j.threads))
				return cli_usage_error("pack", "--jobs takes an integer 1..256, "
				                       "not '%s'", optarg);
			break;
		case 'q': quiet = 1; break;
		case O_STATS: stats = 1; break;
		case O_PIXELS:
			if (!cli_parse_pixels(optarg, &j.max_pixels))
				return cli_usage_error("pack", "--max-image-pixels takes N or NM "
				                       "(millions), 1..1024M, not '%s'", optarg);
			break;
		case 'h':
			fputs(help, stdout);
			fputs(pack_help, stdout);
			return EXIT_OK;
		case O_FPS:
			if (!cli_parse_double(optarg, &j.fps) || j.fps < 0 || j.fps > 1000)
				return cli_usage_error("pack", "--fps wants 0..1000, not '%s'",
				                       optarg);
			break;
		default:
			if ((rc = pack_parse(&po, c, optarg, "pack")) != 1)
				return rc < 0 ? EXIT_USAGE : cli_bad_option("pack", argv, opts);
			rc = 0;
		}
	}
	if (optind >= argc)
		return cli_usage_error("pack", "expected folders or PNG files to pack");
	if (!outpath || !outpath[0])
		return cli_usage_error("pack", "missing -o OUTDIR");
	if ((rc = pack_finish(&po, "pack")) != 0)
		return rc;
	j.threads = cli_jobs(j.threads);
	po.pack.threads = po.write.threads = j.threads;
	t0 = now();
	j.has_out = stat(outpath, &j.out) == 0 && S_ISDIR(j.out.st_mode);
	for (i = optind; i < argc && rc == 0; i++)
		rc = add_input(&j, argv[i]);
	if (rc == 0 && j.n == 0) {
		fprintf(stderr, "bonebake: no PNG files in the inputs given\n");
		rc = EXIT_INPUT;
	}
	if (rc == 0)
		rc = check_names(&j);
	if (rc == 0)
		rc = assign(&j);
	j.trim = !po.pack.no_trim;
	j.trim_alpha = po.pack.trim_alpha;
	if (rc == 0)
		rc = decode_all(&j);
	t1 = now();
	if (rc == 0 && bb_pack_frames(j.in, j.n, j.anims, j.n_anims, &po.pack,
	                              &sheet, &err) != BB_OK)
		rc = cli_fail_about(&err, argv[optind]);
	t2 = now();
	if (rc == 0)
		rc = pack_write(sheet, &po, outpath, quiet);
	t3 = now();
	if (rc == 0 && stats)
		printf("time: load %.1f ms, pack %.1f ms, write %.1f ms "
		       "(CPU: %.1f, %.1f, %.1f ms; %d threads)\n",
		       (t1.wall - t0.wall) * 1e3, (t2.wall - t1.wall) * 1e3,
		       (t3.wall - t2.wall) * 1e3, (t1.cpu - t0.cpu) * 1e3,
		       (t2.cpu - t1.cpu) * 1e3, (t3.cpu - t2.cpu) * 1e3, j.threads);
	bb_sheet_free(sheet);
	job_free(&j);
	return rc;
}
