/* png-bench [--all] [--min-ms N] SET=FILE.png... [SET=...]: PNG encoding
 * speed and size of every setting on sets of real frames, for
 * scripts/bench png.
 *
 * Each input is "label:file.png"; frames with one label form a set.  Per
 * set and setting it prints ms/frame (CPU time of this thread, the median
 * of several passes over the set), megapixels per second, total bytes,
 * and both as ratios to the baseline measured in the same run: libpng's
 * simplified API (png_image_write_to_memory), what most code calls.  The
 * settings: libpng + zlib at several levels, strategies and filters,
 * bonebake's fast path (lib/image/png-fast.c) with each row-filter path
 * the CPU runs (scalar, SSE4.1, AVX2), and bonebake's encoder with
 * libdeflate at every level with fixed and adaptive filters.  Every output is decoded
 * back with libpng and compared with the input pixels; a mismatch is an
 * error (exit 1).  --all adds every combination (slow); --only TEXT,...
 * keeps the settings whose label contains one of the texts (and the
 * baseline); --min-ms N times each setting for at least N ms (300);
 * --pool NAME=SET,SET... also prints those sets taken together. */
#include "config.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "bonebake/bonebake.h"
#include "image/png-fast.h"
#include "image/png-int.h"

enum { MAX_FRAMES = 4096, MAX_SETS = 16, MAX_PASSES = 15, MAX_SETTINGS = 512 };

typedef struct frame {
	const char *set;
	bb_image *img;
} frame;

/* One way of encoding. */
typedef struct setting {
	char label[96];
	int kind;            /* 0 simplified API, 1 libpng + zlib, 2 bonebake */
	int level;
	int strategy;        /* zlib */
	int png_filters;     /* libpng filter mask */
	bb_png_filter filter;
	int simd;            /* the fast path's row filters: a bb__png_simd, or
	                        -1 for the encoder's own choice */
} setting;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- libpng writers ---------------------------------------------------- */

typedef struct membuf {
	unsigned char *data;
	size_t size, cap;
} membuf;

static void mem_write(png_structp png, png_bytep in, png_size_t n)
{
	membuf *m = png_get_io_ptr(png);

	if (m->size + n > m->cap) {
		size_t nc = m->cap ? m->cap : 65536;

		while (nc < m->size + n)
			nc *= 2;
		m->data = realloc(m->data, nc);
		if (!m->data) {
			fprintf(stderr, "png-bench: out of memory\n");
			exit(70);
		}
		m->cap = nc;
	}
	memcpy(m->data + m->size, in, n);
	m->size += n;
}

static void mem_flush(png_structp png)
{
	(void)png;
}

static int encode_simplified(const bb_image *img, membuf *m)
{
	png_image pi;
	png_alloc_size_t n = 0;

	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	pi.width = (png_uint_32)img->width;
	pi.height = (png_uint_32)img->height;
	pi.format = PNG_FORMAT_RGBA;
	if (!png_image_write_get_memory_size(pi, n, 0, img->px,
	                                     (png_int_32)img->stride, NULL))
		return 0;
	if (n > m->cap) {
		m->data = realloc(m->data, n);
		m->cap = n;
		if (!m->data)
			return 0;
	}
	if (!png_image_write_to_memory(&pi, m->data, &n, 0, img->px,
	                               (png_int_32)img->stride, NULL))
		return 0;
	m->size = n;
	return 1;
}

static int encode_libpng(const bb_image *img, const setting *s, membuf *m)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
	                                          NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	int y;

	if (!info)
		return 0;
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return 0;
	}
	m->size = 0;
	png_set_write_fn(png, m, mem_write, mem_flush);
	png_set_compression_level(png, s->level);
	png_set_compression_strategy(png, s->strategy);
	png_set_filter(png, 0, s->png_filters);
	png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height,
	             8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < img->height; y++)
		png_write_row(png, bb_image_pixel(img, 0, y));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 1;
}

/* ---- checks --------------------------------------------------------- */

/* 1 when data decodes (libpng) to exactly img's pixels. */
static int decodes_to(const void *data, size_t size, const bb_image *img)
{
	png_image pi;
	unsigned char *px;
	int ok, y;

	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_memory(&pi, data, size))
		return 0;
	pi.format = PNG_FORMAT_RGBA;
	if ((int)pi.width != img->width || (int)pi.height != img->height) {
		png_image_free(&pi);
		return 0;
	}
	px = malloc(PNG_IMAGE_SIZE(pi));
	if (!px || !png_image_finish_read(&pi, NULL, px, 0, NULL)) {
		free(px);
		return 0;
	}
	ok = 1;
	for (y = 0; y < img->height && ok; y++)
		ok = memcmp(px + (size_t)y * img->width * 4, bb_image_pixel(img, 0, y),
		            (size_t)img->width * 4) == 0;
	free(px);
	return ok;
}

/* ---- the run ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Encodes every frame of the set once per pass; returns the median pass
 * in ms per frame and the bytes of one pass. */
static int run(const setting *s, frame *const *fr, int n, double min_ms,
               double *ms_frame, size_t *bytes)
{
	double passes[MAX_PASSES], spent = 0;
	bb_png_options po = { 0 };
	bb_png_encoder *enc = NULL;
	membuf m = { NULL, 0, 0 };
	int np = 0, i;

	if (s->kind == 2) {
		po.level = s->level;
		po.level_set = s->level != -1;   /* -1: what render does */
		po.filter = s->filter;
		if (bb_png_encoder_new(&po, &enc, NULL) != BB_OK)
			return 0;
		if (s->simd >= 0 && !bb__png_encoder_set_simd(enc, s->simd)) {
			bb_png_encoder_free(enc);
			return 0;
		}
	}
	*bytes = 0;
	while (np < MAX_PASSES && (np < 3 || spent < min_ms)) {
		double t0 = cpu_ms();
		size_t total = 0;

		for (i = 0; i < n; i++) {
			const void *d = NULL;
			size_t sz = 0;
			int ok;

			if (s->kind == 0)
				ok = encode_simplified(fr[i]->img, &m);
			else if (s->kind == 1)
				ok = encode_libpng(fr[i]->img, s, &m);
			else
				ok = bb_png_encoder_encode(enc, fr[i]->img, &d, &sz,
				                           NULL) == BB_OK;
			if (!ok) {
				fprintf(stderr, "png-bench: %s failed\n", s->label);
				exit(1);
			}
			if (s->kind != 2) {
				d = m.data;
				sz = m.size;
			}
			if (np == 0 && !decodes_to(d, sz, fr[i]->img)) {
				fprintf(stderr, "png-bench: %s: output does not decode to "
				        "the input pixels\n", s->label);
				exit(1);
			}
			total += sz;
		}
		passes[np] = cpu_ms() - t0;
		if (np > 0)   /* the first pass also decodes: not timed */
			spent += passes[np];
		*bytes = total;
		np++;
	}
	qsort(passes + 1, (size_t)np - 1, sizeof *passes, cmp_double);
	*ms_frame = passes[1 + (np - 1) / 2] / n;
	bb_png_encoder_free(enc);
	free(m.data);
	return 1;
}

static int add(setting *tab, int n, setting s)
{
	tab[n] = s;
	return n + 1;
}

static const char *filter_name(bb_png_filter f)
{
	static const char *names[] = { "default", "none", "sub", "up", "avg",
	                               "paeth", "adaptive" };

	return names[f];
}

static int settings(setting *tab, int all)
{
	static const struct { int mask; const char *name; } pf[] = {
		{ PNG_FILTER_NONE, "none" }, { PNG_FILTER_SUB, "sub" },
		{ PNG_FILTER_UP, "up" }, { PNG_FILTER_PAETH, "paeth" },
		{ PNG_ALL_FILTERS, "adaptive" },
	};
	static const struct { int z; const char *name; } zs[] = {
		{ Z_DEFAULT_STRATEGY, "default" }, { Z_FILTERED, "filtered" },
		{ Z_RLE, "rle" }, { Z_HUFFMAN_ONLY, "huffman" },
	};
	static const int zlevels[] = { 1, 2, 3, 6, 9 };
	int n = 0, l, k, f, i;
	setting s;

	memset(&s, 0, sizeof s);
	snprintf(s.label, sizeof s.label, "libpng simplified API (baseline)");
	n = add(tab, n, s);
	/* libpng + zlib: the level/strategy/filter grid, or its telling part */
	for (i = 0; i < (int)(sizeof zlevels / sizeof zlevels[0]); i++)
		for (k = 0; k < 4; k++)
			for (f = 0; f < 5; f++) {
				l = zlevels[i];
				if (!all && !((f == 0 || f == 4) && (k == 0 || l == 1)) &&
				    !(l == 1 && k == 0))
					continue;
				if ((k == 2 || k == 3) && l != 1)   /* level-independent */
					continue;
				memset(&s, 0, sizeof s);
				s.kind = 1;
				s.level = l;
				s.strategy = zs[k].z;
				s.png_filters = pf[f].mask;
				snprintf(s.label, sizeof s.label, "libpng+zlib %d %s %s", l,
				         zs[k].name, pf[f].name);
				n = add(tab, n, s);
			}
	/* bonebake: what render writes (its level by frame size), every level
	 * with None, and the filters */
	memset(&s, 0, sizeof s);
	s.kind = 2;
	s.level = -1;
	s.simd = -1;
	snprintf(s.label, sizeof s.label, "bonebake frames default (fast)");
	n = add(tab, n, s);
	/* the fast path, with each row-filter path this CPU runs */
	for (i = 0; i < BB__PNG_SIMD_COUNT; i++) {
		if (!bb__png_simd_available((bb__png_simd)i))
			continue;
		memset(&s, 0, sizeof s);
		s.kind = 2;
		s.level = BB_PNG_LEVEL_FAST;
		s.simd = i;
		snprintf(s.label, sizeof s.label, "bonebake fast, %s",
		         bb__png_simd_name((bb__png_simd)i));
		n = add(tab, n, s);
	}
	for (l = 0; l <= BB_PNG_LEVEL_MAX; l++)
		for (f = BB_PNG_FILTER_NONE; f <= BB_PNG_FILTER_ADAPTIVE; f++) {
			if (!all && f != BB_PNG_FILTER_NONE &&
			    !((l == 1 || l == 6 || l == 9 || l == 12) &&
			      (f == BB_PNG_FILTER_UP || f == BB_PNG_FILTER_PAETH ||
			       f == BB_PNG_FILTER_ADAPTIVE)))
				continue;
			memset(&s, 0, sizeof s);
			s.kind = 2;
			s.level = l;
			s.simd = -1;
			s.filter = (bb_png_filter)f;
			snprintf(s.label, sizeof s.label, "bonebake %d %s%s", l,
			         filter_name(s.filter),
			         l == BB_PNG_LEVEL_SHEETS && f == BB_PNG_FILTER_NONE ?
			         " (sheets default)" : "");
			n = add(tab, n, s);
		}
	return n;
}

/* The sets named in "NAME=set,set..." taken as one: per setting measured
 * on all of them, total time over total frames and total bytes. */
static void print_pool(const char *spec, const char *const *sets, int nsets,
                       const setting *tab, int ntab,
                       double (*ms)[MAX_SETTINGS],
                       size_t (*bytes)[MAX_SETTINGS],
                       int (*done)[MAX_SETTINGS], const double *mp,
                       const int *nfr)
{
	char buf[512], *eq, *tok, *save = NULL;
	int in[MAX_SETS] = { 0 }, k, i, n = 0;
	double pmp = 0, base_ms = 0;
	size_t base_bytes = 0;

	snprintf(buf, sizeof buf, "%s", spec);
	eq = strchr(buf, '=');
	if (!eq)
		return;
	*eq = '\0';
	for (tok = strtok_r(eq + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		for (k = 0; k < nsets; k++)
			if (strcmp(sets[k], tok) == 0 && !in[k]) {
				in[k] = 1;
				n += nfr[k];
				pmp += mp[k];
			}
	if (n == 0)
		return;
	printf("%s (pooled: %d frames, %.2f MP)\n", buf, n, pmp);
	printf("  %-44s %9s %8s %11s %8s %7s\n", "setting", "ms/frame", "MP/s",
	       "bytes", "speed", "size");
	for (i = 0; i < ntab; i++) {
		double t = 0;
		size_t b = 0;
		int all = 1;

		for (k = 0; k < nsets; k++)
			if (in[k]) {
				all &= done[k][i];
				t += ms[k][i];
				b += bytes[k][i];
			}
		if (!all)
			continue;
		if (i == 0) {
			base_ms = t;
			base_bytes = b;
		}
		printf("  %-44s %9.3f %8.1f %11zu %7.2fx %6.3fx\n", tab[i].label,
		       t / n, pmp / (t / 1e3), b, base_ms / t,
		       (double)b / (double)base_bytes);
	}
}

/* 1 when label contains one of the comma-separated texts of `only`. */
static int matches(const char *label, const char *only)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof buf, "%s", only);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strstr(label, tok))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static frame frames[MAX_FRAMES];
	static setting tab[MAX_SETTINGS];
	/* per set and setting: total ms (one pass), bytes, frames, MP */
	static double res_ms[MAX_SETS][MAX_SETTINGS];
	static size_t res_bytes[MAX_SETS][MAX_SETTINGS];
	static int res_done[MAX_SETS][MAX_SETTINGS];
	double set_mp[MAX_SETS];
	int set_n[MAX_SETS];
	const char *sets[MAX_SETS], *pool = NULL;
	int nframes = 0, nsets = 0, all = 0, i, k, ntab;
	const char *only = NULL;
	double min_ms = 300;

	for (i = 1; i < argc; i++) {
		char *colon;
		bb_error err;

		if (strcmp(argv[i], "--all") == 0) {
			all = 1;
			continue;
		}
		if (strcmp(argv[i], "--pool") == 0 && i + 1 < argc) {
			pool = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			only = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc) {
			min_ms = atof(argv[++i]);
			continue;
		}
		colon = strchr(argv[i], ':');
		if (!colon || nframes >= MAX_FRAMES) {
			fprintf(stderr, "usage: png-bench [--all] [--min-ms N] "
			        "[--only TEXT,...] [--pool NAME=SET,...] "
			        "LABEL:FILE.png...\n");
			return 2;
		}
		*colon = '\0';
		frames[nframes].set = argv[i];
		if (bb_png_read(colon + 1, &frames[nframes].img, &err) != BB_OK) {
			fprintf(stderr, "png-bench: %s: %s\n", colon + 1, err.message);
			return 1;
		}
		for (k = 0; k < nsets && strcmp(sets[k], argv[i]) != 0; k++)
			;
		if (k == nsets) {
			if (nsets == MAX_SETS) {
				fprintf(stderr, "png-bench: more than %d sets\n", MAX_SETS);
				return 2;
			}
			sets[nsets++] = argv[i];
		}
		nframes++;
	}
	ntab = settings(tab, all);
	for (k = 0; k < nsets; k++) {
		frame *fr[MAX_FRAMES];
		double base_ms = 0, mp = 0;
		size_t base_bytes = 0, raw = 0;
		int n = 0, w = 0, h = 0;

		for (i = 0; i < nframes; i++)
			if (strcmp(frames[i].set, sets[k]) == 0) {
				fr[n++] = &frames[i];
				mp += frames[i].img->width * (double)frames[i].img->height / 1e6;
				raw += (size_t)frames[i].img->width * frames[i].img->height * 4;
				w = frames[i].img->width;
				h = frames[i].img->height;
			}
		printf("%s: %d frame%s (last %dx%d), %.2f MP, %zu raw bytes\n",
		       sets[k], n, n == 1 ? "" : "s", w, h, mp, raw);
		printf("  %-44s %9s %8s %11s %8s %7s\n", "setting", "ms/frame",
		       "MP/s", "bytes", "speed", "size");
		for (i = 0; i < ntab; i++) {
			double ms;
			size_t bytes;

			if (i > 0 && only && !matches(tab[i].label, only))
				continue;
			if (!run(&tab[i], fr, n, min_ms, &ms, &bytes))
				return 1;
			if (i == 0) {
				base_ms = ms;
				base_bytes = bytes;
			}
			printf("  %-44s %9.3f %8.1f %11zu %7.2fx %6.3fx\n", tab[i].label,
			       ms, mp / n / (ms / 1e3), bytes, base_ms / ms,
			       (double)bytes / (double)base_bytes);
			fflush(stdout);
			res_ms[k][i] = ms * n;
			res_bytes[k][i] = bytes;
			res_done[k][i] = 1;
		}
		set_mp[k] = mp;
		set_n[k] = n;
	}
	if (pool)
		print_pool(pool, sets, nsets, tab, ntab, res_ms, res_bytes, res_done,
		           set_mp, set_n);
	for (i = 0; i < nframes; i++)
		bb_image_free(frames[i].img);
	return 0;
}
