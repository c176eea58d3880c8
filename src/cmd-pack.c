/* bonebake pack DIR|FILE.png... -o OUTDIR: pack existing PNG frames into
 * sprite sheets with metadata. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
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
	"with their sub-folders (4 levels).  A file <anim>_<digits>.png is frame\n"
	"<digits> of animation <anim>; other files are frames of their own,\n"
	"named after the file without .png.  A frames.json beside the frames\n"
	"(as `bonebake render` writes it) gives their animation's name, fps,\n"
	"loop flag, frame times and origin pixel (the pivot).  The result is\n"
	"the same whatever order the inputs are listed in.  Nothing is written\n"
	"unless everything packs.\n"
	"\n"
	"  -o, --output DIR     output folder (created if missing)\n"
	"  --fps N              frame rate of animations without a frames.json\n"
	"                       (default: unknown)\n"
	"  --stats              also print the time spent loading, packing, writing\n"
	"  -q, --quiet          print nothing on success\n"
	"  -h, --help           this text\n"
	"\n";

enum { O_FPS = 1, O_STATS, MAX_DEPTH = 4, MAX_FRAMES_JSON = 16 << 20 };

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

typedef struct job {
	const char *cmd;
	double fps;               /* --fps */
	bb_pack_input *in;        /* these four are parallel arrays */
	char **names, **paths;
	bb_image **imgs;
	size_t n, cap;
	char **anim_names;        /* these two too */
	bb_pack_anim *anims;
	size_t n_anims, cap_anims;
	dir_meta *metas;
	size_t n_metas, cap_metas;
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

static int bad_meta(const char *path, const char *what)
{
	fprintf(stderr, "bonebake: %s: %s\n", path, what);
	return EXIT_INPUT;
}

/* Reads dir/frames.json into m when present. */
static int read_meta(const char *dir, dir_meta *m)
{
	char path[4200];
	json_t *root, *v, *frames;
	json_error_t je;
	struct stat st;
	size_t i;

	memset(m, 0, sizeof *m);
	m->loop = 1;
	m->dir = strdup(dir);
	if (!m->dir)
		return oom();
	snprintf(path, sizeof path, "%s/frames.json", dir);
	if (stat(path, &st) != 0)
		return 0;
	if (st.st_size > MAX_FRAMES_JSON)
		return bad_meta(path, "larger than 16 MiB");
	root = json_load_file(path, 0, &je);
	if (!root) {
		fprintf(stderr, "bonebake: %s:%d: %s\n", path, je.line, je.text);
		return EXIT_INPUT;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return bad_meta(path, "not a JSON object");
	}
	if ((v = json_object_get(root, "animation")) && json_is_string(v) &&
	    json_string_value(v)[0])
		m->anim = strdup(json_string_value(v));
	if ((v = json_object_get(root, "fps")) && json_is_number(v))
		m->fps = json_number_value(v);
	if ((v = json_object_get(root, "loop")) && json_is_boolean(v))
		m->loop = json_is_true(v);
	if ((v = json_object_get(root, "origin")) && json_is_object(v) &&
	    json_is_number(json_object_get(v, "x")) &&
	    json_is_number(json_object_get(v, "y"))) {
		m->has_origin = 1;
		m->ox = json_number_value(json_object_get(v, "x"));
		m->oy = json_number_value(json_object_get(v, "y"));
	}
	frames = json_object_get(root, "frames");
	if (m->fps < 0 || m->fps > 1000 || (frames && !json_is_array(frames))) {
		json_decref(root);
		return bad_meta(path, "fps outside 0..1000 or frames not an array");
	}
	m->n = frames ? json_array_size(frames) : 0;
	m->files = calloc(m->n + 1, sizeof *m->files);
	m->times = calloc(m->n + 1, sizeof *m->times);
	if (!m->files || !m->times) {
		json_decref(root);
		return oom();
	}
	for (i = 0; i < m->n; i++) {
		json_t *fr = json_array_get(frames, i);
		json_t *file = json_object_get(fr, "file"), *t = json_object_get(fr, "time");

		if (!json_is_string(file)) {
			json_decref(root);
			return bad_meta(path, "a frame without a \"file\" string");
		}
		m->files[i] = strdup(json_string_value(file));
		m->times[i] = json_is_number(t) ? json_number_value(t) : -1;
		if (!m->files[i]) {
			json_decref(root);
			return oom();
		}
	}
	json_decref(root);
	return 0;
}

/* The frames.json of dir, read once. */
static int meta_for(job *j, const char *dir, dir_meta **out)
{
	size_t i;
	int rc;

	for (i = 0; i < j->n_metas; i++)
		if (strcmp(j->metas[i].dir, dir) == 0) {
			*out = &j->metas[i];
			return 0;
		}
	void **ptrs[] = { (void **)&j->metas };
	const size_t sizes[] = { sizeof *j->metas };

	if (!reserve(ptrs, sizes, 1, j->n_metas, &j->cap_metas))
		return oom();
	rc = read_meta(dir, &j->metas[j->n_metas]);
	*out = &j->metas[j->n_metas++];
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

/* "walk_0012" -> anim "walk", index 12. */
static int split_name(const char *name, char *anim, size_t size, int *index)
{
	const char *us = strrchr(name, '_'), *p;

	if (!us || us == name || !us[1] || strlen(us + 1) > 9 ||
	    (size_t)(us - name) >= size)
		return 0;
	for (p = us + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	memcpy(anim, name, (size_t)(us - name));
	anim[us - name] = '\0';
	*index = atoi(us + 1);
	return 1;
}

static int add_file(job *j, const char *path)
{
	void **ptrs[] = { (void **)&j->in, (void **)&j->names, (void **)&j->paths,
	                  (void **)&j->imgs };
	const size_t sizes[] = { sizeof *j->in, sizeof *j->names,
	                         sizeof *j->paths, sizeof *j->imgs };
	char dir[4096], name[512], anim[512];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base), k = 0;
	bb_pack_input *in;
	dir_meta *m;
	bb_error err;
	int rc, index = 0;

	if (len >= sizeof name)
		return cli_usage_error(j->cmd, "file name too long: %s", path);
	memcpy(name, base, len + 1);
	if (len > 4 && strcasecmp(name + len - 4, ".png") == 0)
		name[len - 4] = '\0';
	if (!name[0])
		return cli_usage_error(j->cmd, "no frame name in '%s'", path);
	if (base == path)
		snprintf(dir, sizeof dir, ".");
	else if (base - path == 1)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(base - path - 1), path);
	if ((rc = meta_for(j, dir, &m)) != 0)
		return rc;
	if (!reserve(ptrs, sizes, 4, j->n, &j->cap))
		return oom();
	in = &j->in[j->n];
	j->names[j->n] = strdup(name);
	j->paths[j->n] = strdup(path);
	j->n++;
	if (!j->names[j->n - 1] || !j->paths[j->n - 1])
		return oom();
	in->name = j->names[j->n - 1];
	in->anim = -1;
	while (m->anim && k < m->n && strcmp(m->files[k], base) != 0)
		k++;
	if (m->anim && k < m->n) {
		/* listed in frames.json: its animation, place, time, origin */
		if ((in->anim = anim_index(j, m->anim, m)) < 0)
			return oom();
		in->index = (int)k;
		if (m->times[k] >= 0 && k + 1 < m->n && m->times[k + 1] > m->times[k])
			in->duration = m->times[k + 1] - m->times[k];
		in->has_pivot = m->has_origin;
		in->pivot_x = m->ox;
		in->pivot_y = m->oy;
	} else if (split_name(name, anim, sizeof anim, &index)) {
		/* a frames.json without an animation name still gives fps, origin */
		if ((in->anim = anim_index(j, anim, m->anim ? NULL : m)) < 0)
			return oom();
		in->index = index;
		if (!m->anim && m->has_origin) {
			in->has_pivot = 1;
			in->pivot_x = m->ox;
			in->pivot_y = m->oy;
		}
	}
	if (bb_png_read(path, &j->imgs[j->n - 1], &err) != BB_OK)
		return cli_fail(&err);
	in->image = j->imgs[j->n - 1];
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int scan_dir(job *j, const char *dir, int depth)
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
		char path[4096];
		struct stat st;
		size_t len = strlen(ents[i]);

		if (snprintf(path, sizeof path, "%s/%s", dir, ents[i]) >= (int)sizeof path)
			continue;
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
			rc = scan_dir(j, path, depth + 1);
		else if (S_ISREG(st.st_mode) && len > 4 &&
		         strcasecmp(ents[i] + len - 4, ".png") == 0)
			rc = add_file(j, path);
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
		return scan_dir(j, arg, 0);
	return add_file(j, arg);
}

/* Frames named alike in two places cannot both be packed. */
static int check_names(const job *j)
{
	size_t i, k;
	char **sorted = malloc((j->n + 1) * sizeof *sorted);

	if (!sorted)
		return oom();
	for (i = 0; i < j->n; i++)
		sorted[i] = j->names[i];
	qsort(sorted, j->n, sizeof *sorted, cmp_str);
	for (i = 1; i < j->n; i++)
		if (strcmp(sorted[i], sorted[i - 1]) == 0) {
			const char *a = NULL, *b = NULL;

			for (k = 0; k < j->n; k++)
				if (strcmp(j->names[k], sorted[i]) == 0) {
					if (!a)
						a = j->paths[k];
					else if (!b)
						b = j->paths[k];
				}
			fprintf(stderr, "bonebake: two frames named '%s': %s and %s\n",
			        sorted[i], a, b);
			free(sorted);
			return EXIT_INPUT;
		}
	free(sorted);
	return 0;
}

static void job_free(job *j)
{
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		bb_image_free(j->imgs[i]);
		free(j->names[i]);
		free(j->paths[i]);
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
	free(j->in);
	free(j->names);
	free(j->paths);
	free(j->imgs);
	free(j->anims);
	free(j->anim_names);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_pack(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "fps", required_argument, NULL, O_FPS },
		{ "stats", no_argument, NULL, O_STATS },
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
	double t0, t1, t2, t3;

	memset(&j, 0, sizeof j);
	j.cmd = "pack";
	pack_opts_init(&po);
	memcpy(opts, own, sizeof own);
	pack_merge_options(opts, 64);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case O_STATS: stats = 1; break;
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
				return rc < 0 ? EXIT_USAGE : cli_bad_option("pack", argv);
			rc = 0;
		}
	}
	if (optind >= argc)
		return cli_usage_error("pack", "expected folders or PNG files to pack");
	if (!outpath)
		return cli_usage_error("pack", "missing -o OUTDIR");
	if ((rc = pack_finish(&po, "pack")) != 0)
		return rc;
	t0 = now();
	for (i = optind; i < argc && rc == 0; i++)
		rc = add_input(&j, argv[i]);
	if (rc == 0 && j.n == 0) {
		fprintf(stderr, "bonebake: no PNG files in the inputs given\n");
		rc = EXIT_INPUT;
	}
	if (rc == 0)
		rc = check_names(&j);
	t1 = now();
	if (rc == 0 && bb_pack_frames(j.in, j.n, j.anims, j.n_anims, &po.pack,
	                              &sheet, &err) != BB_OK)
		rc = cli_fail(&err);
	t2 = now();
	if (rc == 0)
		rc = pack_write(sheet, &po, outpath, quiet);
	t3 = now();
	if (rc == 0 && stats)
		printf("time: load %.1f ms, pack %.1f ms, write %.1f ms\n",
		       (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3);
	bb_sheet_free(sheet);
	job_free(&j);
	return rc;
}
