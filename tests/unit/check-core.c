/* core and image: affine algebra, errors, the premultiplied <-> straight
 * conversion round trip, PNG round trip and deterministic bytes. */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/bonebake.h"
#include "core/names.h"
#include "core/parallel.h"
#include "core/util.h"

START_TEST(affine_mul_invert)
{
	bb_affine p = { 0.8, 0.6, -0.6, 0.8, 10, -4 }, q = { 2, 0, 0.5, 3, 1, 2 };
	bb_affine pq = bb_affine_mul(p, q), inv, id;
	bb_vec2 v = bb_affine_apply(pq, 3, 4), w;

	/* p(q(x)) */
	w = bb_affine_apply(q, 3, 4);
	w = bb_affine_apply(p, w.x, w.y);
	ck_assert_double_eq_tol(v.x, w.x, 1e-12);
	ck_assert_double_eq_tol(v.y, w.y, 1e-12);
	ck_assert(bb_affine_invert(pq, &inv));
	id = bb_affine_mul(inv, pq);
	ck_assert_double_eq_tol(id.a, 1, 1e-12);
	ck_assert_double_eq_tol(id.b, 0, 1e-12);
	ck_assert_double_eq_tol(id.tx, 0, 1e-12);
	ck_assert(!bb_affine_invert((bb_affine){ 1, 2, 2, 4, 0, 0 }, &inv));
}
END_TEST

START_TEST(error_format)
{
	bb_error e;
	char buf[256];

	ck_assert_int_eq(bb_error_set(&e, BB_ERR_INPUT, "h.json", "bones[3].parent",
	                              "unknown bone \"%s\"", "chset"), BB_ERR_INPUT);
	bb_error_format(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "h.json: bones[3].parent: unknown bone \"chset\"");
	bb_error_set(&e, BB_ERR_IO, NULL, NULL, "x");
	bb_error_format(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "x");
	ck_assert_str_eq(bb_status_string(BB_ERR_INPUT), "bad input");
}
END_TEST

START_TEST(premul_round_trip)
{
	/* every (colour, alpha) pair survives straight -> premul -> straight
	 * when alpha is 255, and within rounding otherwise */
	bb_image *a, *b;
	uint8_t *buf;
	bb_error err;
	int x, y;

	ck_assert_int_eq(bb_image_new(256, 256, &a, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(256, 256, &b, &err), BB_OK);
	for (y = 0; y < 256; y++)
		for (x = 0; x < 256; x++) {
			uint8_t *p = bb_image_pixel(a, x, y);
			p[0] = (uint8_t)x;
			p[1] = (uint8_t)(255 - x);
			p[2] = (uint8_t)(x ^ y);
			p[3] = (uint8_t)y;
		}
	buf = malloc((size_t)256 * 256 * 4);
	bb_image_to_premul_argb32(a, buf, 256 * 4);
	bb_image_from_premul_argb32(b, buf, 256 * 4);
	for (y = 0; y < 256; y++)
		for (x = 0; x < 256; x++) {
			const uint8_t *p = bb_image_pixel(a, x, y), *q = bb_image_pixel(b, x, y);
			int k, tol = y == 0 ? 255 : (255 + y - 1) / y; /* one premul step */

			ck_assert_int_eq(p[3], q[3]);
			if (y == 0) {
				ck_assert_int_eq(q[0] | q[1] | q[2], 0);
				continue;
			}
			for (k = 0; k < 3; k++)
				ck_assert_int_le(abs(p[k] - q[k]), tol);
			if (y == 255)
				ck_assert_int_eq(memcmp(p, q, 4), 0);
		}
	free(buf);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

/* The conversions against their formulas, by plain integer arithmetic
 * here: premultiplying, c * a / 255 rounded as cairo does, for every
 * (c, a) at every position of rows of 1..9 pixels (the 4-pixel SIMD
 * blocks and the tails), into ARGB32 and in place (there written
 * (c * a + 127) / 255, as the packer once did: the same integers, since
 * c * a / 255 never ends in .5), the flag set and a second call a no-op;
 * a premultiplied image into ARGB32 reordered only, a colour above its
 * alpha taken as the alpha; un-premultiplying, c * 255 / a rounded, for
 * every premultiplied (c <= a). */
START_TEST(premul_exact)
{
	uint8_t in[9 * 4], out[9 * 4], moved[9 * 4], rgba[9 * 4];
	bb_image img = { 0, 1, sizeof in, in, 0, 0 }, row = { 0, 1, sizeof rgba, rgba, 0, 0 };
	unsigned c, a, w, i, bad = 0;

	for (a = 0; a < 256; a++)
		for (c = 0; c < 256; c++)
			for (w = 1; w <= 9; w++) {
				for (i = 0; i < 4 * w; i++)
					in[i] = (uint8_t)(i % 4 == 3 ? a : c + i);
				img.width = (int)w;
				img.premultiplied = 0;
				bb_image_to_premul_argb32(&img, out, sizeof out);
				img.premultiplied = 1;
				bb_image_to_premul_argb32(&img, moved, sizeof moved);
				for (i = 0; i < w; i++) {
					uint32_t p, q, want = (uint32_t)a << 24, same = want;
					int k;

					for (k = 0; k < 3; k++) {
						unsigned v = in[4 * i + (unsigned)k], t = v * a + 128;

						want |= ((t + (t >> 8)) >> 8) << (16 - 8 * k);
						same |= (v > a ? a : v) << (16 - 8 * k);
					}
					memcpy(&p, out + 4 * i, 4);
					memcpy(&q, moved + 4 * i, 4);
					bad += p != want || q != same;
				}
				memcpy(rgba, in, 4 * w);
				row.width = (int)w;
				row.premultiplied = 0;
				bb_image_premultiply(&row);
				bb_image_premultiply(&row);
				bad += row.premultiplied != 1;
				for (i = 0; i < 4 * w; i++)
					bad += rgba[i] != (i % 4 == 3 ? a : (in[i] * a + 127) / 255);
			}
	ck_assert_uint_eq(bad, 0);
	/* rows whose pixels' alphas differ: clear, opaque and translucent ones
	 * mixed within and across the 4-pixel blocks */
	for (w = 0; w < 65536; w++) {
		static const uint8_t alphas[4] = { 0, 255, 37, 200 };
		uint8_t px[8 * 4], argb[8 * 4];
		bb_image eight = { 8, 1, sizeof px, px, 0, 0 };

		for (i = 0; i < 8; i++) {
			px[4 * i] = (uint8_t)(w * 7 + i);
			px[4 * i + 1] = (uint8_t)(w >> 3);
			px[4 * i + 2] = (uint8_t)(255 - i * 31);
			px[4 * i + 3] = alphas[(w >> (2 * i)) & 3];
		}
		memcpy(in, px, sizeof px);
		bb_image_to_premul_argb32(&eight, argb, sizeof argb);
		bb_image_premultiply(&eight);
		for (i = 0; i < 8; i++) {
			uint32_t p, want = (uint32_t)in[4 * i + 3] << 24;
			int k;

			for (k = 0; k < 3; k++) {
				unsigned v = (in[4 * i + (unsigned)k] * in[4 * i + 3] + 127) / 255;

				want |= v << (16 - 8 * k);
				bad += px[4 * i + (unsigned)k] != v;
			}
			memcpy(&p, argb + 4 * i, 4);
			bad += p != want || px[4 * i + 3] != in[4 * i + 3];
		}
		/* and back to straight: clear pixels 0, the others rounded */
		{
			uint8_t back[8 * 4];
			bb_image straight = { 8, 1, sizeof back, back, 1, 0 };

			bb_image_from_premul_argb32(&straight, argb, sizeof argb);
			bad += straight.premultiplied != 0;
			for (i = 0; i < 8; i++) {
				unsigned al = in[4 * i + 3];
				int k;

				for (k = 0; k < 3; k++) {
					unsigned pm = px[4 * i + (unsigned)k];
					unsigned v = al ? (pm * 255 + al / 2) / al : 0;

					bad += back[4 * i + (unsigned)k] != (v > 255 ? 255 : v);
				}
				bad += back[4 * i + 3] != al;
			}
		}
	}
	ck_assert_uint_eq(bad, 0);
	for (a = 1; a < 256; a++)
		for (c = 0; c <= a; c++) {
			uint32_t p = (uint32_t)a << 24 | c << 16 | (c / 2) << 8 | (a - c);
			uint8_t px[4];
			bb_image one = { 1, 1, 4, px, 0, 0 };
			unsigned want[3] = { c, c / 2, a - c };
			int k;

			bb_image_from_premul_argb32(&one, (const uint8_t *)&p, 4);
			for (k = 0; k < 3; k++)
				bad += px[k] != (a == 255 ? want[k] : (want[k] * 255 + a / 2) / a);
			bad += px[3] != a;
		}
	ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(png_round_trip_deterministic)
{
	bb_image *a, *b;
	void *d1, *d2;
	size_t n1, n2;
	bb_error err;
	int x, y;

	ck_assert_int_eq(bb_image_new(37, 21, &a, &err), BB_OK);
	for (y = 0; y < 21; y++)
		for (x = 0; x < 37; x++) {
			uint8_t *p = bb_image_pixel(a, x, y);
			p[0] = (uint8_t)(x * 7);
			p[1] = (uint8_t)(y * 11);
			p[2] = (uint8_t)(x * y);
			p[3] = (uint8_t)(x + y * 3);
		}
	ck_assert_int_eq(bb_png_encode(a, &d1, &n1, &err), BB_OK);
	ck_assert_int_eq(bb_png_encode(a, &d2, &n2, &err), BB_OK);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(d1, d2, n1), 0);
	ck_assert_int_eq(bb_png_read_mem(d1, n1, "mem.png", &b, &err), BB_OK);
	ck_assert_int_eq(b->width, 37);
	ck_assert_int_eq(b->height, 21);
	for (y = 0; y < 21; y++)
		ck_assert_int_eq(memcmp(bb_image_pixel(a, 0, y), bb_image_pixel(b, 0, y),
		                        37 * 4), 0);
	bb_image_free(b);
	/* the fast encoder: deterministic too, and the same pixels */
	free(d2);
	ck_assert_int_eq(bb_png_encode_fast(a, &d2, &n2, &err), BB_OK);
	{
		void *d3;
		size_t n3;
		bb_image *c;

		ck_assert_int_eq(bb_png_encode_fast(a, &d3, &n3, &err), BB_OK);
		ck_assert_uint_eq(n2, n3);
		ck_assert_int_eq(memcmp(d2, d3, n2), 0);
		ck_assert_int_eq(bb_png_read_mem(d3, n3, "fast.png", &c, &err), BB_OK);
		for (y = 0; y < 21; y++)
			ck_assert_int_eq(memcmp(bb_image_pixel(a, 0, y),
			                        bb_image_pixel(c, 0, y), 37 * 4), 0);
		bb_image_free(c);
		free(d3);
	}
	/* truncated file: an error, not a crash */
	ck_assert_int_eq(bb_png_read_mem(d1, n1 / 2, "cut.png", &b, &err) ,
	                 BB_ERR_INPUT);
	ck_assert_str_eq(err.file, "cut.png");
	ck_assert_int_eq(bb_png_read_mem("nope", 4, "x.png", &b, &err), BB_ERR_INPUT);
	free(d1);
	free(d2);
	bb_image_free(a);
}
END_TEST

START_TEST(image_limits)
{
	bb_image *img;
	bb_error err;

	ck_assert_int_eq(bb_image_new(0, 5, &img, &err), BB_ERR_LIMIT);
	ck_assert_int_eq(bb_image_new(BB_IMAGE_MAX_SIDE + 1, 1, &img, &err),
	                 BB_ERR_LIMIT);
	ck_assert_ptr_null(img);
}
END_TEST

/* The name index answers as a linear search would: the first of equal
 * names, -1 for none, and the items added after it was built. */
static const char *nth(const void *base, int i)
{
	return ((const char *const *)base)[i];
}

/* bb_parallel_for: every index once, workers numbered below the count
 * returned, one worker in index order; bb_threads' bounds. */
struct pf {
	int hits[1000];
	int worker_max;
	size_t order[1000], n;
	pthread_mutex_t lock;
};

static void pf_one(void *ctx, size_t i, int worker)
{
	struct pf *p = ctx;

	pthread_mutex_lock(&p->lock);
	p->hits[i]++;
	if (worker > p->worker_max)
		p->worker_max = worker;
	p->order[p->n++] = i;
	pthread_mutex_unlock(&p->lock);
	if (i % 97 == 0)
		usleep(500);
}

/* bb_file_write_new: a new file with the data and open(2)'s mode; an
 * existing one is refused and left as it was. */
START_TEST(file_write_new)
{
	char dir[] = "/tmp/bb-write-new-XXXXXX", path[64], back[16] = { 0 };
	struct stat st;
	bb_error err;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.png", dir);
	ck_assert_int_eq(bb_file_write_new(path, "frame", 5, &err), BB_OK);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, bb_new_file_mode(0666));
	ck_assert_int_eq(bb_file_write_new(path, "other", 5, &err), BB_ERR_IO);
	ck_assert_str_eq(err.file, path);
	ck_assert_ptr_nonnull(strstr(err.message, "cannot create"));
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_uint_eq(fread(back, 1, sizeof back, f), 5);
	fclose(f);
	ck_assert_str_eq(back, "frame");
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof path, "%s/no/b.png", dir);
	ck_assert_int_eq(bb_file_write_new(path, "x", 1, &err), BB_ERR_IO);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Of the mapping p lies in (/proc/self/smaps): its AnonHugePages (kB),
 * and whether it was advised MADV_HUGEPAGE ("hg" in VmFlags); -1 when
 * not found. */
static long smaps_of(const void *p, int *advised)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long lo, hi, a = (unsigned long)(uintptr_t)p;
	int in = 0;
	long kb = -1, v;

	*advised = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &v) == 1)
			kb = v;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			*advised = strstr(line, " hg") != NULL;
	}
	fclose(f);
	return kb;
}

/* AddressSanitizer's allocator hands out its own mappings: the advice is
 * given, but whether the kernel backs them with huge pages is its own. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* Pixel buffers of half a huge page or more are 2 MiB aligned and mapped
 * with huge pages where the kernel grants them (transparent huge pages not
 * "never"), a rest of half a huge page rounded up; smaller ones are plain
 * malloc. */
START_TEST(alloc_pixels_huge_pages)
{
	size_t sizes[] = { (size_t)1 << 20, ((size_t)1 << 20) + 4096,
	                   (size_t)3 << 20, ((size_t)4 << 20) + 1024 };
	size_t held[] = { (size_t)2 << 20, (size_t)2 << 20, (size_t)4 << 20,
	                  ((size_t)4 << 20) + 1024 };
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	unsigned char *p;
	size_t i;

	if (f) {
		if (!fgets(mode, sizeof mode, f))
			mode[0] = '\0';
		fclose(f);
	}
	for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		ck_assert_ptr_nonnull(p = bb__alloc_pixels(sizes[i]));
		ck_assert_uint_eq((uintptr_t)p % ((uintptr_t)2 << 20), 0);
		/* a rest of half a huge page rounded up to a whole one */
		ck_assert_uint_ge(malloc_usable_size(p), held[i]);
		memset(p, 1, sizes[i]);
		if (mode[0]) {   /* a kernel with transparent huge pages */
			int advised;
			long kb = smaps_of(p, &advised);

			ck_assert(advised);
			if (!strstr(mode, "[never]") && !UNDER_ASAN)
				ck_assert_int_ge(kb, 2048);
		}
		free(p);
	}
	ck_assert_ptr_nonnull(p = bb__alloc_pixels(4096));
	free(p);
}
END_TEST

/* Bytes [from, to) of read_file_whole's pattern appended to path. */
static void append_pattern(const char *path, size_t from, size_t to)
{
	FILE *f = fopen(path, "ab");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = from; i < to; i++)
		fputc((int)(i * 7 % 251), f);
	ck_assert_int_eq(fclose(f), 0);
}

/* path read whole at its size `size`: the pattern, then a NUL; the
 * buffer (free it). */
static char *read_pattern(const char *path, size_t size)
{
	char *data;
	size_t n, i;
	bb_error err;

	ck_assert_int_eq(bb__read_file(path, size, &data, &n, &err), BB_OK);
	ck_assert_uint_eq(n, size);
	for (i = 0; i < n; i++)
		if ((unsigned char)data[i] != i * 7 % 251)
			break;
	ck_assert_uint_eq(i, n);
	ck_assert_int_eq(data[n], '\0');
	return data;
}

/* bb__read_file: a regular file read whole at its size, an empty one, a
 * file whose size stat does not tell (/proc), the limit, a folder; one of
 * 256 KiB or more in a buffer of whole huge pages (advised). */
START_TEST(read_file_whole)
{
	char dir[] = "/tmp/bb-read-XXXXXX", path[64], *data;
	size_t size;
	bb_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.bin", dir);
	append_pattern(path, 0, 200000);
	free(read_pattern(path, 200000));
	ck_assert_int_eq(bb__read_file(path, 199999, &data, &size, &err),
	                 BB_ERR_LIMIT);
	ck_assert_ptr_null(data);
	ck_assert_str_eq(err.file, path);
	append_pattern(path, 200000, 300000);
	data = read_pattern(path, 300000);
	ck_assert_uint_eq((uintptr_t)data % ((uintptr_t)2 << 20), 0);
	ck_assert_uint_ge(malloc_usable_size(data), (size_t)2 << 20);
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0) {
		int advised;

		(void)smaps_of(data, &advised);
		ck_assert(advised);
	}
	free(data);
	ck_assert_int_eq(truncate(path, 0), 0);
	ck_assert_int_eq(bb__read_file(path, 10, &data, &size, &err), BB_OK);
	ck_assert_uint_eq(size, 0);
	ck_assert_int_eq(data[0], '\0');
	free(data);
	ck_assert_int_eq(bb__read_file("/proc/self/status", 1 << 20, &data,
	                               &size, &err), BB_OK);
	ck_assert_uint_gt(size, 100);
	ck_assert_uint_eq(strlen(data), size);
	ck_assert_ptr_nonnull(strstr(data, "VmRSS:"));
	free(data);
	ck_assert_int_eq(bb__read_file(dir, 10, &data, &size, &err), BB_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.message, "is a folder"));
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(bb__read_file(path, 10, &data, &size, &err), BB_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.message, "cannot open"));
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Where workers start: the i-th allowed CPU after the caller's, never
 * the caller's own. */
START_TEST(parallel_start_cpu)
{
	static const int two[] = { 0, 1 }, three[] = { 0, 2, 5 }, one[] = { 3 };

	ck_assert_int_eq(bb__start_cpu(two, 2, 0, 1), 1);
	ck_assert_int_eq(bb__start_cpu(two, 2, 1, 1), 0);
	ck_assert_int_eq(bb__start_cpu(two, 2, 1, 2), -1);
	ck_assert_int_eq(bb__start_cpu(two, 2, 1, 3), 0);
	ck_assert_int_eq(bb__start_cpu(three, 3, 2, 1), 5);
	ck_assert_int_eq(bb__start_cpu(three, 3, 2, 2), 0);
	ck_assert_int_eq(bb__start_cpu(three, 3, 2, 3), -1);
	ck_assert_int_eq(bb__start_cpu(three, 3, 5, 1), 0);
	ck_assert_int_eq(bb__start_cpu(three, 3, 1, 1), -1);   /* not allowed */
	ck_assert_int_eq(bb__start_cpu(one, 1, 3, 1), -1);
}
END_TEST

/* The CPUs the calling thread may run on, as Linux lists them. */
static void cpus_allowed(char *out, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/thread-self/status", "r");

	out[0] = 0;
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
			snprintf(out, n, "%s", line + 18);
	fclose(f);
	ck_assert(out[0] != 0);
}

struct aff {
	char seen[BB_MAX_THREADS][512];
};

static void aff_one(void *ctx, int worker)
{
	struct aff *a = ctx;

	cpus_allowed(a->seen[worker], sizeof a->seen[worker]);
}

/* A worker started on a CPU of its own may run anywhere the caller may
 * once it runs: nothing is left pinned. */
START_TEST(parallel_workers_unpinned)
{
	static struct aff a;
	char mine[512];
	int i;

	cpus_allowed(mine, sizeof mine);
	memset(&a, 0, sizeof a);
	bb__parallel_run(4, aff_one, &a);
	for (i = 0; i < 4; i++)
		ck_assert_str_eq(a.seen[i], mine);
}
END_TEST

/* bb_mkdirs counts the folders it made, the deepest ones of the path. */
START_TEST(mkdirs_counts_what_it_made)
{
	char dir[] = "/tmp/bb-mkdirs-XXXXXX", path[96];
	bb_error err;
	int made = -1;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a/b/c", dir);
	ck_assert_int_eq(bb_mkdirs(path, &made, &err), BB_OK);
	ck_assert_int_eq(made, 3);
	ck_assert_int_eq(bb_mkdirs(path, &made, &err), BB_OK);
	ck_assert_int_eq(made, 0);
	snprintf(path, sizeof path, "%s/a/b/d/", dir);
	ck_assert_int_eq(bb_mkdirs(path, &made, &err), BB_OK);
	ck_assert_int_eq(made, 1);
	ck_assert_int_eq(bb_mkdirs("", &made, &err), BB_ERR_IO);
	ck_assert_int_eq(made, 0);
	snprintf(path, sizeof path, "rm -r %s", dir);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(parallel_loop)
{
	static const int threads[] = { 0, 1, 2, 7, 300 };
	struct pf p;
	size_t t, i;

	for (t = 0; t < sizeof threads / sizeof *threads; t++) {
		int used;

		memset(&p, 0, sizeof p);
		pthread_mutex_init(&p.lock, NULL);
		used = bb_parallel_for(1000, threads[t], pf_one, &p);
		ck_assert_int_ge(used, 1);
		ck_assert_int_le(used, threads[t] > 0 ? (threads[t] < BB_MAX_THREADS
		                 ? threads[t] : BB_MAX_THREADS) : bb_cpu_count());
		ck_assert_int_lt(p.worker_max, used);
		for (i = 0; i < 1000; i++)
			ck_assert_int_eq(p.hits[i], 1);
		if (used == 1)
			for (i = 0; i < 1000; i++)
				ck_assert_uint_eq(p.order[i], i);
		pthread_mutex_destroy(&p.lock);
	}
	/* nothing to do, and fewer items than threads */
	memset(&p, 0, sizeof p);
	pthread_mutex_init(&p.lock, NULL);
	ck_assert_int_eq(bb_parallel_for(0, 4, pf_one, &p), 1);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_int_le(bb_parallel_for(3, 8, pf_one, &p), 3);
	ck_assert_uint_eq(p.n, 3);
	pthread_mutex_destroy(&p.lock);
	ck_assert_int_ge(bb_cpu_count(), 1);
	ck_assert_int_eq(bb_threads(5, 0), 5);
	ck_assert_int_eq(bb_threads(5, 2), 2);
	ck_assert_int_eq(bb_threads(1000, 0), BB_MAX_THREADS);
	ck_assert_int_eq(bb_threads(0, 0), bb_cpu_count());
	ck_assert_int_eq(bb_threads(-3, 1), 1);
}
END_TEST

/* The one JSON and the one markup escaper. */
struct outbuf {
	char s[512];
	size_t n;
};

static void put_buf(void *ctx, const char *s, unsigned long n)
{
	struct outbuf *o = ctx;

	ck_assert_uint_lt(o->n + n, sizeof o->s);
	memcpy(o->s + o->n, s, n);
	o->n += n;
	o->s[o->n] = '\0';
}

static const char *quoted(const char *s, int markup)
{
	static struct outbuf o;

	o.n = 0;
	o.s[0] = '\0';
	if (markup)
		bb_markup_escape(s, put_buf, &o);
	else
		bb_json_quote(s, put_buf, &o);
	return o.s;
}

START_TEST(escapers)
{
	static const char *const names[] = {
		"walk", "a\"b\\c", "tab\tnl\ncr\r", "\x1b]0;title\x07", "</script><b>&",
		"caf\xc3\xa9 \xe2\x80\xae evil", "\xc2\x9b\x31m", "del\x7f", "",
	};
	size_t i;

	ck_assert_str_eq(quoted("walk", 0), "\"walk\"");
	ck_assert_str_eq(quoted("a\"b\\c", 0), "\"a\\\"b\\\\c\"");
	ck_assert_str_eq(quoted("tab\tnl\ncr\r", 0), "\"tab\\tnl\\ncr\\r\"");
	ck_assert_str_eq(quoted("\x1b[2J\x07", 0), "\"\\u001b[2J\\u0007\"");
	ck_assert_str_eq(quoted("</script>&", 0), "\"\\u003c/script\\u003e\\u0026\"");
	ck_assert_str_eq(quoted("x\xe2\x80\xaey", 0), "\"x\\u202ey\"");
	ck_assert_str_eq(quoted("caf\xc3\xa9", 0), "\"caf\xc3\xa9\"");
	ck_assert_str_eq(quoted("del\x7f", 0), "\"del\\u007f\"");
	/* every one parses back to itself */
	for (i = 0; i < sizeof names / sizeof *names; i++) {
		json_error_t e;
		char doc[600];
		json_t *j;

		snprintf(doc, sizeof doc, "[%s]", quoted(names[i], 0));
		j = json_loads(doc, 0, &e);
		ck_assert_msg(j != NULL, "%s: %s", doc, e.text);
		ck_assert_str_eq(json_string_value(json_array_get(j, 0)), names[i]);
		json_decref(j);
	}
	ck_assert_str_eq(quoted("<a href=\"x\">Tom & Jerry's</a>", 1),
	                 "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
	ck_assert_str_eq(quoted("bell\x07 tab\t", 1), "bell\xef\xbf\xbd tab\t");
	ck_assert_str_eq(quoted("", 1), "");
}
END_TEST

START_TEST(name_index)
{
	const char *list[6] = { "walk", "idle", "run", "idle", "aim", "zz" };
	bb__names ix = { NULL, 0 };

	ck_assert_int_eq(bb__names_find(&ix, list, 0, nth, "walk"), -1);
	ck_assert_int_eq(bb__names_find(&ix, list, 5, nth, "idle"), 1);
	ck_assert_int_eq(bb__names_find(&ix, list, 5, nth, "walk"), 0);
	ck_assert_int_eq(bb__names_find(&ix, list, 5, nth, "aim"), 4);
	ck_assert_int_eq(bb__names_find(&ix, list, 5, nth, "zz"), -1);
	ck_assert_int_eq(bb__names_find(&ix, list, 5, nth, "a"), -1);
	ck_assert_int_eq(bb__names_find(&ix, list, 6, nth, "zz"), 5);   /* grown */
	ck_assert_int_eq(bb__names_find(&ix, list, 6, nth, "run"), 2);
	bb__names_free(&ix);
	ck_assert_ptr_null(ix.sorted);
}
END_TEST

START_TEST(parse_colors)
{
	bb_rgba c;

	ck_assert(bb_parse_color("#ff8000", &c));
	ck_assert_double_eq_tol(c.g, 128 / 255.0, 1e-12);
	ck_assert(bb_parse_color("#fff8", &c) == 0);
	ck_assert(bb_parse_color("#00000080", &c));
	ck_assert_double_eq_tol(c.a, 128 / 255.0, 1e-12);
	ck_assert(bb_parse_color("white", &c));
	ck_assert(!bb_parse_color("#zzzzzz", &c));
}
END_TEST

static void *names_thread(void *arg)
{
	*(const char *const **)arg = bb_loader_names();
	return NULL;
}

START_TEST(loader_names_from_threads)
{
	/* every thread gets the same, complete, NULL-terminated table */
	const char *const *got[4];
	pthread_t th[4];
	int i, k;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, names_thread, &got[i]), 0);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 4; i++) {
		ck_assert_ptr_eq(got[i], got[0]);
		for (k = 0; got[i][k]; k++)
			;
		ck_assert_int_ge(k, 6);
		ck_assert_str_eq(got[i][0], "bonebake-skeleton");
	}
}
END_TEST

/* bb_text_escape: what could act on a terminal becomes an escape, the
 * rest (UTF-8 included) stays; truncation keeps whole characters. */
START_TEST(text_escape)
{
	char buf[64];

	ck_assert_str_eq(bb_text_escape("walk \xc3\xa9t\xc3\xa9 \xe6\xad\xa9", buf, sizeof buf),
	                 "walk \xc3\xa9t\xc3\xa9 \xe6\xad\xa9");
	ck_assert_str_eq(bb_text_escape("a\x1b]0;t\x07" "b\n\tc\x7f", buf, sizeof buf),
	                 "a\\x1b]0;t\\x07b\\x0a\\x09c\\x7f");
	/* U+202E, U+2066, U+200F, a C1 control (U+009B, CSI), U+2028 */
	ck_assert_str_eq(bb_text_escape("x\xe2\x80\xae\xe2\x81\xa6\xe2\x80\x8f"
	                                "\xc2\x9b\xe2\x80\xa8y", buf, sizeof buf),
	                 "x\\u{202e}\\u{2066}\\u{200f}\\u{009b}\\u{2028}y");
	/* not UTF-8: a lone continuation byte, an overlong, a cut sequence */
	ck_assert_str_eq(bb_text_escape("\x80\xc0\xaf\xe2\x80", buf, sizeof buf),
	                 "\\x80\\xc0\\xaf\\xe2\\x80");
	ck_assert_str_eq(bb_text_escape("ab\x1b", buf, 6), "ab");
	ck_assert_str_eq(bb_text_escape("ab\xc3\xa9", buf, 4), "ab");
	ck_assert_str_eq(bb_text_escape(NULL, buf, sizeof buf), "");
}
END_TEST

/* bb_error_format escapes the file, the path and the message. */
START_TEST(error_format_escapes)
{
	bb_error err;
	char buf[256];

	bb_error_set(&err, BB_ERR_INPUT, "f\x1b[2J.json", "bones[\"a\xe2\x80\xae\"]",
	             "unknown parent \"%s\"", "p\x07");
	bb_error_format(&err, buf, sizeof buf);
	ck_assert_str_eq(buf, "f\\x1b[2J.json: bones[\"a\\u{202e}\"]: unknown parent \"p\\x07\"");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	SRunner *sr;
	int failed;

	tcase_add_test(tc, affine_mul_invert);
	tcase_add_test(tc, error_format);
	tcase_add_test(tc, premul_round_trip);
	tcase_add_test(tc, premul_exact);
	tcase_add_test(tc, png_round_trip_deterministic);
	tcase_add_test(tc, image_limits);
	tcase_add_test(tc, parse_colors);
	tcase_add_test(tc, name_index);
	tcase_add_test(tc, file_write_new);
	tcase_add_test(tc, alloc_pixels_huge_pages);
	tcase_add_test(tc, read_file_whole);
	tcase_add_test(tc, parallel_loop);
	tcase_add_test(tc, mkdirs_counts_what_it_made);
	tcase_add_test(tc, parallel_start_cpu);
	tcase_add_test(tc, parallel_workers_unpinned);
	tcase_add_test(tc, escapers);
	tcase_add_test(tc, loader_names_from_threads);
	tcase_add_test(tc, text_escape);
	tcase_add_test(tc, error_format_escapes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
