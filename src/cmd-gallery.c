/* bonebake gallery DIR... -o SITE: one static, self-contained HTML page
 * playing every animation of render output folders (their frames.json),
 * with the frames copied beside it.  No server, no network: relative
 * paths only, the data inline. */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gallery-page.h"
#include "outdir.h"

static const char help[] =
	"usage: bonebake gallery DIR... -o SITE [--title TEXT]\n"
	"\n"
	"Writes SITE/index.html, a page playing every animation found in the\n"
	"render output folders DIR (each frames.json in DIR, or in its\n"
	"sub-folders up to three levels down, in name order), and copies their\n"
	"frames to SITE/a<N>/.  Each animation shows its name, fps, frame\n"
	"count, size, loop flag and events, with play/pause and a frame\n"
	"scrubber, and beside them the WebM preview playing in a <video> when\n"
	"the folder has one (render --preview webm); the page has a zoom and a\n"
	"background switch (checkerboard, dark, light).  It opens from the file\n"
	"system (file://), fetches nothing, and uses relative paths only, so SITE\n"
	"can be uploaded as a CI artifact.  URL parameters after '#' (for scripts): frame=N pauses\n"
	"every animation at frame N, solo=K shows animation K alone at the top\n"
	"left, bg=checker|dark|light, zoom=1..8.\n"
	"\n"
	"Only regular files inside each DIR are read (links may point within it):\n"
	"a frame or frames.json that is a link leaving DIR, a FIFO or a device is\n"
	"refused (exit 3), and so is a frame larger than --max-frame-bytes.\n"
	"\n"
	"  -o, --output SITE    output folder (created if missing)\n"
	"  --title TEXT         the page's title (default \"bonebake gallery\")\n"
	"  --max-frame-bytes N  largest frame (or preview) copied: N bytes, or NM for\n"
	"                       N MiB (default 256M, at most 1024M)\n"
	"  -h, --help           this text\n";

enum { MAX_ANIMS = 4096, MAX_DEPTH = 3, MAX_FRAMES_JSON = 64 << 20,
       O_MAX_FRAME = 1000 };

struct anim {
	const char *root;        /* the DIR it was found in: nothing leaves it */
	char dir[4096];          /* folder holding frames.json */
	char label[4096];        /* DIR/relative folder, as shown */
	bb_frames_json *info;
	int video;               /* info->preview is a WebM beside the frames */
};

struct gallery {
	struct anim *a;
	int n, cap;
	const char *root;        /* the DIR being scanned */
	size_t max_frame;        /* --max-frame-bytes */
};

static int cmp_names(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Adds dir/frames.json when present, then walks sub-folders in name order. */
static int scan(struct gallery *g, const char *dir, const char *label, int depth)
{
	char path[4200];
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	snprintf(path, sizeof path, "%s/frames.json", dir);
	if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		bb_error err;
		struct anim *a;
		int fd;

		if (g->n == MAX_ANIMS) {
			cli_error("%s: more than %d animations", dir,
			        MAX_ANIMS);
			return EXIT_INPUT;
		}
		if (g->n == g->cap) {
			void *p = realloc(g->a, (size_t)(g->cap = g->cap ? 2 * g->cap : 16) *
			                  sizeof *g->a);
			if (!p)
				return EXIT_INTERNAL;
			g->a = p;
		}
		a = &g->a[g->n];
		memset(a, 0, sizeof *a);
		a->root = g->root;
		snprintf(a->dir, sizeof a->dir, "%s", dir);
		snprintf(a->label, sizeof a->label, "%s", label);
		/* a frames.json that is a FIFO, a device or a link out of DIR is
		 * refused before it is read */
		if ((fd = bb_file_open_regular(path, &g->root, 1, MAX_FRAMES_JSON, &err)) < 0)
			return cli_fail(&err);
		close(fd);
		if (bb_frames_json_read(path, 0, &a->info, &err) != BB_OK)
			return cli_fail(&err);
		g->n++;
		return 0;     /* an animation folder holds no further animations */
	}
	if (depth >= MAX_DEPTH || !(d = opendir(dir)))
		return 0;
	while ((e = readdir(d)) != NULL) {
		char sub[4200];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (n == cap) {
			void *p = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);

			if (!p) {
				rc = EXIT_INTERNAL;
				break;
			}
			names = p;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = EXIT_INTERNAL;
			break;
		}
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n && rc == 0; i++) {
		char sub[4200], sublabel[4200];

		snprintf(sub, sizeof sub, "%s/%s", dir, names[i]);
		snprintf(sublabel, sizeof sublabel, "%s/%s", label, names[i]);
		rc = scan(g, sub, sublabel, depth + 1);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* The site's folder as an absolute path without links: realpath of its
 * longest existing ancestor, then the rest as given (the site and its
 * parents may not exist yet). */
static void site_dir(const char *site, char out[PATH_MAX])
{
	char head[PATH_MAX], real[PATH_MAX];
	const char *rest;
	size_t nr, nrest;
	char *cut;

	snprintf(head, sizeof head, "%s", site);
	for (;;) {
		if (realpath(head, real)) {
			rest = site + strlen(head);
			break;
		}
		if ((cut = strrchr(head, '/')) == NULL || cut == head) {
			/* nothing of it exists: from the working folder or "/" */
			if (cut == NULL ? !realpath(".", real) : !realpath("/", real)) {
				snprintf(out, PATH_MAX, "%s", site);
				return;
			}
			rest = site;
			break;
		}
		*cut = '\0';
	}
	if (strcmp(real, "/") == 0)
		real[0] = '\0';
	nr = strlen(real);
	nrest = strlen(rest);
	if (nr + nrest + 2 > PATH_MAX) {
		snprintf(out, PATH_MAX, "%s", site);
		return;
	}
	memcpy(out, real, nr);
	if (*rest && *rest != '/')
		out[nr++] = '/';
	memcpy(out + nr, rest, nrest + 1);
}

/* `dir` as seen from the folder `from` (both absolute): "../out/walk".
 * The page shows this, not a path of the machine that made it. */
static void relative_to(const char *from, const char *dir, char *out, size_t size)
{
	size_t common = 0, i, n = 0;

	for (i = 0; from[i] && from[i] == dir[i]; i++)
		if (from[i] == '/')
			common = i;
	if ((!from[i] && (!dir[i] || dir[i] == '/')) || (!dir[i] && from[i] == '/'))
		common = i;         /* the same folder, or one holds the other */
	out[0] = '\0';
	for (i = common; from[i]; i++)
		if (from[i] == '/' && n + 4 < size)
			n += (size_t)snprintf(out + n, size - n, "../");
	snprintf(out + n, size - n, "%s", dir[common] == '/' ? dir + common + 1
	         : dir + common);
	n = strlen(out);
	if (n > 1 && out[n - 1] == '/')
		out[n - 1] = '\0';
	if (!out[0])
		snprintf(out, size, ".");
}

/* Copies frame or preview `from` (a regular file inside root, of at most
 * max bytes, else exit 3 naming it) to `to`. */
static int copy_frame(const char *root, const char *from, const char *to,
                      size_t max)
{
	char buf[65536];
	size_t total = 0;
	ssize_t n;
	bb_error err;
	FILE *out;
	int in = bb_file_open_regular(from, &root, 1, max, &err), ok = 1;

	if (in < 0)
		return cli_fail(&err);
	out = fopen(to, "wb");
	if (!out) {
		cli_error("%s: %s", to, strerror(errno));
		close(in);
		return EXIT_IO;
	}
	while (ok && (n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cli_error("%s: read error: %s", from, strerror(errno));
			ok = -1;
			break;
		}
		total += (size_t)n;
		ok = total <= max && fwrite(buf, 1, (size_t)n, out) == (size_t)n;
	}
	close(in);
	if (fclose(out) != 0 || ok != 1) {
		if (total > max) {
			cli_error("%s: grew past the limit of %zu bytes while copied", from, max);
			return EXIT_INPUT;
		}
		if (ok != -1)
			cli_error("%s: cannot write: %s", to, strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

/* A JSON string safe inside <script>: '<' escaped too. */
static void js_string(FILE *f, const char *s)
{
	bb_json_quote(s, bb_put_file, f);
}

static void html_text(FILE *f, const char *s)
{
	bb_markup_escape(s, bb_put_file, f);
}

/* A WebM preview's name (frames.json "preview"; a plain file name). */
static int is_webm(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 5 && strcasecmp(name + n - 5, ".webm") == 0;
}

static void write_data(FILE *f, const struct gallery *g)
{
	int i;
	size_t k;

	fputs("[", f);
	for (i = 0; i < g->n; i++) {
		const bb_frames_json *in = g->a[i].info;

		fprintf(f, "%s\n{\"label\":", i ? "," : "");
		js_string(f, g->a[i].label);
		fputs(",\"name\":", f);
		js_string(f, in->animation);
		fputs(",\"armature\":", f);
		js_string(f, in->armature);
		fprintf(f, ",\"fps\":%.17g,\"loop\":%s,\"duration\":%.17g,\"w\":%d,"
		        "\"h\":%d,\"dir\":\"a%d\",\"files\":[", in->fps,
		        in->loop ? "true" : "false", in->duration, in->width,
		        in->height, i);
		for (k = 0; k < in->n_frames; k++) {
			fputs(k ? "," : "", f);
			js_string(f, in->frames[k].file);
		}
		fputs("],\"video\":", f);
		js_string(f, g->a[i].video ? in->preview : "");
		fputs(",\"events\":[", f);
		for (k = 0; k < in->n_events; k++) {
			fputs(k ? ",{\"name\":" : "{\"name\":", f);
			js_string(f, in->events[k].name);
			fputs(",\"kind\":", f);
			js_string(f, in->events[k].kind);
			fprintf(f, ",\"time\":%.17g,\"frame\":%ld}", in->events[k].time,
			        in->events[k].frame);
		}
		fputs("]}", f);
	}
	fputs("\n]", f);
}

static int write_site(const struct gallery *g, outdir *od, const char *title)
{
	char path[OUTDIR_PATH_MAX], from[OUTDIR_PATH_MAX + PATH_MAX], to[OUTDIR_PATH_MAX + PATH_MAX];
	FILE *f;
	int i, rc = 0;
	size_t k;

	for (i = 0; i < g->n && rc == 0; i++) {
		const char *preview = g->a[i].info->preview;
		char sub[32];

		if (cli_interrupted)
			return 128 + cli_interrupted;   /* no site; main says so */
		snprintf(sub, sizeof sub, "a%d", i);
		if ((rc = outdir_mkdir(od, sub)) != 0)
			break;
		if (is_webm(preview)) {   /* played by a <video> on the page */
			struct stat st;

			snprintf(from, sizeof from, "%s/%s", g->a[i].dir, preview);
			snprintf(to, sizeof to, "%s/%s/%s", od->stage, sub, preview);
			/* there: read under the frames' rules */
			if (lstat(from, &st) == 0) {
				if ((rc = copy_frame(g->a[i].root, from, to, g->max_frame)) != 0)
					break;
				g->a[i].video = 1;
			}
		}
		for (k = 0; k < g->a[i].info->n_frames && rc == 0; k++) {
			snprintf(from, sizeof from, "%s/%s", g->a[i].dir,
			         g->a[i].info->frames[k].file);
			snprintf(to, sizeof to, "%s/%s/%s", od->stage, sub,
			         g->a[i].info->frames[k].file);
			rc = copy_frame(g->a[i].root, from, to, g->max_frame);
		}
	}
	if (rc)
		return rc;
	outdir_path(od, "index.html", path, sizeof path);
	f = fopen(path, "w");
	if (!f) {
		cli_error("%s/index.html: %s", od->dest, strerror(errno));
		return EXIT_IO;
	}
	fputs(gallery_head, f);
	html_text(f, title);
	fputs(gallery_body, f);
	html_text(f, title);
	fputs(gallery_data_open, f);
	write_data(f, g);
	fputs(gallery_data_close, f);
	fputs(gallery_script, f);
	if (fclose(f) != 0) {
		cli_error("%s/index.html: %s", od->dest, strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

int cmd_gallery(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "max-frame-bytes", required_argument, NULL, O_MAX_FRAME },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gallery g = { NULL, 0, 0, NULL, (size_t)256 << 20 };
	const char *outpath = NULL, *title = "bonebake gallery";
	char site[PATH_MAX];
	outdir od;
	int c, i, rc = 0;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			outpath = optarg;
		} else if (c == 't') {
			title = optarg;
		} else if (c == O_MAX_FRAME) {
			if (!cli_parse_pixels(optarg, &g.max_frame))
				return cli_usage_error("gallery", "--max-frame-bytes takes N or "
				                       "NM (MiB), at most 1024M, not '%s'", optarg);
		} else if (c == 'h') {
			fputs(help, stdout);
			return EXIT_OK;
		} else {
			return cli_bad_option("gallery", argv, opts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("gallery", "expected one or more render output "
		                       "folders");
	if (!outpath || !outpath[0])
		return cli_usage_error("gallery", "missing -o SITE");
	site_dir(outpath, site);
	for (i = optind; i < argc && rc == 0; i++) {
		struct stat st;
		size_t len = strlen(argv[i]);
		char dir[4096], real[PATH_MAX], label[PATH_MAX];

		if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_error("%s: %s", argv[i], stat(argv[i], &st) != 0
			        ? strerror(errno) : "not a folder");
			rc = EXIT_IO;
			break;
		}
		int before = g.n;

		snprintf(dir, sizeof dir, "%s", argv[i]);
		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = '\0';
		/* labelled as seen from the page, not by a path of this machine */
		if (realpath(dir, real))
			relative_to(site, real, label, sizeof label);
		else
			snprintf(label, sizeof label, "%s", dir);
		g.root = argv[i];
		rc = scan(&g, dir, label, 0);
		if (rc == 0 && g.n == before) {
			cli_error("%s: no frames.json found (a folder "
			        "`bonebake render` wrote)", argv[i]);
			rc = EXIT_INPUT;
		}
	}
	if (rc == 0 && (rc = outdir_open(&od, outpath)) == 0) {
		rc = write_site(&g, &od, title);
		if (rc == 0)
			rc = outdir_commit(&od);
		else
			outdir_abort(&od);
	}
	if (rc == 0)
		printf("%d animation%s -> %s/index.html\n", g.n, g.n == 1 ? "" : "s",
		       outpath);
	for (i = 0; i < g.n; i++)
		bb_frames_json_free(g.a[i].info);
	free(g.a);
	return rc;
}
