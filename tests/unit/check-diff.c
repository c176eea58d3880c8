/* Unit tests for lib/diff: small images built in memory, one per case. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/diff.h"

static bb_image *solid(int w, int h, uint32_t rgba)
{
	bb_image *img = NULL;
	int x, y;

	ck_assert_int_eq(bb_image_new(w, h, &img, NULL), BB_OK);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint8_t *p = bb_image_pixel(img, x, y);

			p[0] = (uint8_t)(rgba >> 24);
			p[1] = (uint8_t)(rgba >> 16);
			p[2] = (uint8_t)(rgba >> 8);
			p[3] = (uint8_t)rgba;
		}
	return img;
}

static void set_px(bb_image *img, int x, int y, uint32_t rgba)
{
	uint8_t *p = bb_image_pixel(img, x, y);

	p[0] = (uint8_t)(rgba >> 24);
	p[1] = (uint8_t)(rgba >> 16);
	p[2] = (uint8_t)(rgba >> 8);
	p[3] = (uint8_t)rgba;
}

static uint32_t get_px(const bb_image *img, int x, int y)
{
	const uint8_t *p = bb_image_pixel(img, x, y);

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t grey(unsigned v)
{
	return v << 24 | v << 16 | v << 8 | 0xffu;
}

/* A vertical black-to-white edge: columns < edge black, the column at
 * `edge` grey `mid`, the rest white. */
static bb_image *edge_image(int w, int h, int edge, unsigned mid)
{
	bb_image *img = solid(w, h, grey(255));
	int x, y;

	for (y = 0; y < h; y++) {
		for (x = 0; x < edge; x++)
			set_px(img, x, y, grey(0));
		set_px(img, edge, y, grey(mid));
	}
	return img;
}

static bb_diff_result compare(const bb_image *a, const bb_image *b,
                              const bb_diff_options *o)
{
	bb_diff_result r;
	bb_error err;

	ck_assert_int_eq(bb_diff_images(a, b, o, &r, NULL, &err), BB_OK);
	return r;
}

START_TEST(test_identical)
{
	bb_image *a = solid(16, 12, 0x336699ff), *b = bb_image_dup(a);
	bb_diff_result r = compare(a, b, NULL);

	ck_assert_int_eq(r.diff_pixels, 0);
	ck_assert_int_eq(r.changed_pixels, 0);
	ck_assert_int_eq(r.total_pixels, 16 * 12);
	ck_assert(r.max_delta == 0.0);
	ck_assert_int_eq(r.box.w, 0);
	ck_assert_int_eq(r.box.h, 0);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_one_pixel_below_threshold)
{
	bb_image *a = solid(8, 8, grey(128)), *b = bb_image_dup(a);
	bb_diff_result r;

	set_px(b, 3, 4, grey(131));
	r = compare(a, b, NULL);
	ck_assert_int_eq(r.diff_pixels, 0);
	ck_assert_int_eq(r.changed_pixels, 1);
	ck_assert(r.max_delta > 0.0 && r.max_delta < 0.1);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_one_pixel_above_threshold)
{
	bb_image *a = solid(8, 8, grey(128)), *b = bb_image_dup(a);
	bb_diff_options o = { 0 };
	bb_diff_result r;

	set_px(b, 3, 4, grey(160));
	r = compare(a, b, NULL);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_int_eq(r.box.x, 3);
	ck_assert_int_eq(r.box.y, 4);
	ck_assert_int_eq(r.box.w, 1);
	ck_assert_int_eq(r.box.h, 1);
	ck_assert(fabs(r.diff_ratio - 1.0 / 64) < 1e-12);
	ck_assert(r.max_delta > 0.1);
	/* a threshold just above the delta accepts it, and max_delta is on
	 * the threshold's scale */
	o.threshold_set = 1;
	o.threshold = r.max_delta + 1e-6;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	o.threshold = r.max_delta - 1e-6;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 1);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_black_white)
{
	bb_image *a = solid(4, 4, grey(0)), *b = solid(4, 4, grey(255));
	bb_diff_options o = { 0 };
	bb_diff_result r = compare(a, b, NULL);

	/* OKLab HyAB: black against white is 1 (the scale's unit; other
	 * pairs, black against yellow, lie further apart) */
	ck_assert_int_eq(r.diff_pixels, 16);
	ck_assert(fabs(r.max_delta - 1.0) < 1e-6);
	o.threshold_set = 1;
	o.threshold = 0.999;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 16);
	/* YIQ: 35215 is the largest distance of any pair; black/white 0.966 */
	o.metric = BB_DIFF_METRIC_YIQ;
	o.threshold = 0.9;
	r = compare(a, b, &o);
	ck_assert_int_eq(r.diff_pixels, 16);
	ck_assert(fabs(r.max_delta - 0.966) < 1e-3);
	o.threshold = 0.97;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	/* pixelmatch 8 counts them at its default threshold */
	o.metric = BB_DIFF_METRIC_DEFAULT;
	o.compat = BB_DIFF_COMPAT_PIXELMATCH;
	o.threshold_set = 0;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 16);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_aa_edge_half_pixel)
{
	/* the edge moves from x = 8.5 (column 8 half covered) to x = 9 */
	bb_image *a = edge_image(20, 10, 8, 128), *b = edge_image(20, 10, 9, 255);
	bb_diff_options o = { 0 };
	bb_diff_result r;

	ck_assert_uint_eq(get_px(b, 8, 5), grey(0));
	r = compare(a, b, NULL);
	ck_assert_int_eq(r.changed_pixels, 10);
	ck_assert_int_eq(r.diff_pixels, 0);
	ck_assert_int_eq(r.aa_pixels, 10);
	o.aa = BB_DIFF_AA_COUNT;
	r = compare(a, b, &o);
	ck_assert_int_eq(r.diff_pixels, 10);
	ck_assert_int_eq(r.box.x, 8);
	ck_assert_int_eq(r.box.w, 1);
	ck_assert_int_eq(r.box.h, 10);
	/* the same in pixelmatch mode (opaque pixels: same arithmetic) */
	o.aa = BB_DIFF_AA_IGNORE;
	o.compat = BB_DIFF_COMPAT_PIXELMATCH7;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_real_change_not_aa)
{
	/* a dark pixel appearing in a flat area is no edge */
	bb_image *a = solid(9, 9, grey(255)), *b = bb_image_dup(a);
	bb_diff_result r;

	set_px(b, 4, 4, grey(0));
	r = compare(a, b, NULL);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_int_eq(r.aa_pixels, 0);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_alpha_only)
{
	/* white at full and at half opacity: equal over white, not over black */
	bb_image *a = solid(6, 6, 0xffffffff), *b = bb_image_dup(a);
	bb_diff_options o = { 0 };
	bb_diff_result r;

	set_px(b, 2, 2, 0xffffff80);
	r = compare(a, b, NULL);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert(r.max_delta > 0.4);
	/* pixelmatch with checkerboard: false blends on white and hides it */
	o.compat = BB_DIFF_COMPAT_PIXELMATCH7;
	o.compat_white_bg = 1;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_alpha_only_dark)
{
	/* black at full and at zero opacity: equal over black only */
	bb_image *a = solid(6, 6, 0x000000ff), *b = bb_image_dup(a);

	set_px(b, 1, 1, 0x00000000);
	ck_assert_int_eq(compare(a, b, NULL).diff_pixels, 1);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_transparent_vs_white)
{
	bb_image *a = solid(5, 5, 0xffffffff), *b = solid(5, 5, 0x00000000);
	bb_diff_options o = { 0 };
	bb_diff_result r;

	r = compare(a, b, NULL);
	ck_assert_int_eq(r.diff_pixels, 25);
	ck_assert(fabs(r.max_delta - 1.0) < 1e-6);
	/* pixelmatch 8 on white hides it too */
	o.compat = BB_DIFF_COMPAT_PIXELMATCH;
	o.compat_white_bg = 1;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	o.compat = BB_DIFF_COMPAT_PIXELMATCH7;
	o.compat_white_bg = 1;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 0);
	/* pixelmatch 7's default backdrop pattern does see it */
	o.compat_white_bg = 0;
	ck_assert_int_eq(compare(a, b, &o).diff_pixels, 25);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_transparent_colour_bytes)
{
	/* fully transparent pixels are equal whatever their colour bytes */
	bb_image *a = solid(4, 4, 0xff000000), *b = solid(4, 4, 0x0000ff00);
	bb_diff_result r = compare(a, b, NULL);

	ck_assert_int_eq(r.changed_pixels, 16);
	ck_assert_int_eq(r.diff_pixels, 0);
	ck_assert(r.max_delta == 0.0);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_size_mismatch)
{
	bb_image *a = solid(4, 4, grey(0)), *b = solid(4, 5, grey(0));
	bb_diff_result r;
	bb_image *d = (bb_image *)1;
	bb_error err;

	ck_assert_int_eq(bb_diff_images(a, b, NULL, &r, &d, &err),
	                 BB_ERR_MISMATCH);
	ck_assert_ptr_null(d);
	ck_assert_int_eq(err.status, BB_ERR_MISMATCH);
	ck_assert_int_eq(r.a_width, 4);
	ck_assert_int_eq(r.a_height, 4);
	ck_assert_int_eq(r.b_height, 5);
	ck_assert(strstr(err.message, "4x4 vs 4x5") != NULL);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_ignore_region)
{
	bb_image *a = solid(10, 10, grey(200)), *b = bb_image_dup(a);
	bb_diff_options o = { 0 };
	bb_diff_result r;

	set_px(b, 2, 3, grey(0));
	set_px(b, 8, 8, grey(0));
	o.n_ignore = 2;
	o.ignore[0] = (bb_diff_rect){ 1, 2, 3, 3 };   /* covers (2,3) */
	o.ignore[1] = (bb_diff_rect){ 2, 2, 2, 2 };   /* overlaps the first */
	r = compare(a, b, &o);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_int_eq(r.box.x, 8);
	ck_assert_int_eq(r.box.y, 8);
	ck_assert_int_eq(r.total_pixels, 100 - 9);
	/* regions are clipped to the image */
	o.n_ignore = 1;
	o.ignore[0] = (bb_diff_rect){ 7, 7, 100, 100 };
	r = compare(a, b, &o);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_int_eq(r.total_pixels, 100 - 9);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_budgets)
{
	bb_diff_result r;
	bb_diff_budget b = { 0 };

	memset(&r, 0, sizeof r);
	r.total_pixels = 1000;
	ck_assert(bb_diff_within_budget(NULL, &r));
	r.diff_pixels = 1;
	r.diff_ratio = 0.001;
	ck_assert(!bb_diff_within_budget(NULL, &r));
	ck_assert(!bb_diff_within_budget(&b, &r));
	b.max_pixels_set = 1;
	b.max_pixels = 1;
	ck_assert(bb_diff_within_budget(&b, &r));
	r.diff_pixels = 2;
	r.diff_ratio = 0.002;
	ck_assert(!bb_diff_within_budget(&b, &r));
	b.max_pixels_set = 0;
	b.max_ratio_set = 1;
	b.max_ratio = 0.002;
	ck_assert(bb_diff_within_budget(&b, &r));
	b.max_ratio = 0.0015;
	ck_assert(!bb_diff_within_budget(&b, &r));
	/* both set: both apply */
	b.max_pixels_set = 1;
	b.max_pixels = 10;
	ck_assert(!bb_diff_within_budget(&b, &r));
	b.max_ratio = 0.5;
	ck_assert(bb_diff_within_budget(&b, &r));
	/* a window limit alone: the totals no longer apply */
	memset(&b, 0, sizeof b);
	r.diff_pixels = 500;
	r.diff_ratio = 0.5;
	r.window = 8;
	r.window_pixels = 4;
	b.max_window_set = 1;
	b.max_window_pixels = 4;
	ck_assert(bb_diff_within_budget(&b, &r));
	r.window_pixels = 5;
	ck_assert(!bb_diff_within_budget(&b, &r));
	/* with a total limit as well, both apply */
	r.window_pixels = 4;
	b.max_pixels_set = 1;
	b.max_pixels = 100;
	ck_assert(!bb_diff_within_budget(&b, &r));
}
END_TEST

START_TEST(test_diff_image)
{
	bb_image *a = edge_image(20, 10, 8, 128), *b = edge_image(20, 10, 9, 255);
	bb_diff_options o = { 0 };
	bb_diff_result r;
	bb_image *d = NULL;

	set_px(b, 15, 2, grey(0));
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, &d, NULL), BB_OK);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_uint_eq(get_px(d, 15, 2), 0xff0000ffu);  /* red */
	ck_assert_uint_eq(get_px(d, 8, 5), 0xffff00ffu);   /* yellow */
	/* unchanged: faded towards white, opaque */
	ck_assert_uint_eq(get_px(d, 0, 0), 0xe5e5e5ffu);
	ck_assert_uint_eq(get_px(d, 19, 9), 0xffffffffu);
	bb_image_free(d);
	o.diff_mask = 1;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, &d, NULL), BB_OK);
	ck_assert_uint_eq(get_px(d, 15, 2), 0xff0000ffu);
	ck_assert_uint_eq(get_px(d, 8, 5), 0);
	ck_assert_uint_eq(get_px(d, 0, 0), 0);
	bb_image_free(d);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_bad_options)
{
	bb_image *a = solid(2, 2, 0), *b = solid(2, 2, 0);
	bb_diff_options o = { 0 };
	bb_diff_result r;
	bb_error err;

	o.threshold_set = 1;
	o.threshold = 1.5;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	o.threshold = NAN;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	o.threshold = 0.2;
	o.n_ignore = 1;
	o.ignore[0].w = -1;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	o.n_ignore = 0;
	o.window = -1;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	o.window = 0;
	o.compat = (bb_diff_compat)7;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	o.compat = BB_DIFF_COMPAT_NONE;
	o.metric = (bb_diff_metric)9;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r, NULL, &err), BB_ERR_USAGE);
	ck_assert(bb_diff_threshold(NULL) == 0.1);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_threads_same_result)
{
	bb_image *a = solid(1024, 700, grey(90)), *b, *d1 = NULL, *d4 = NULL;
	bb_diff_options o = { 0 };
	bb_diff_result r1, r4;
	unsigned seed = 12345;
	int i, y;

	for (i = 0; i < 200; i++) {
		seed = seed * 1103515245u + 12345u;
		set_px(a, (int)(seed >> 8) % 1024, (int)(seed >> 4) % 700,
		       grey(seed & 0xff));
	}
	b = bb_image_dup(a);
	for (i = 0; i < 3000; i++) {
		seed = seed * 1103515245u + 12345u;
		set_px(b, (int)(seed >> 8) % 1024, (int)(seed >> 4) % 700,
		       (seed << 8) | 0xffu);
	}
	o.n_ignore = 1;
	o.ignore[0] = (bb_diff_rect){ 100, 100, 50, 400 };
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r1, &d1, NULL), BB_OK);
	o.threads = 4;
	ck_assert_int_eq(bb_diff_images(a, b, &o, &r4, &d4, NULL), BB_OK);
	ck_assert_int_gt(r1.diff_pixels, 1000);
	ck_assert_int_eq(r1.diff_pixels, r4.diff_pixels);
	ck_assert_int_eq(r1.aa_pixels, r4.aa_pixels);
	ck_assert_int_eq(r1.changed_pixels, r4.changed_pixels);
	ck_assert_int_eq(r1.total_pixels, r4.total_pixels);
	ck_assert(r1.max_delta == r4.max_delta);
	ck_assert_mem_eq(&r1.box, &r4.box, sizeof r1.box);
	for (y = 0; y < 700; y++)
		ck_assert_mem_eq(bb_image_pixel(d1, 0, y), bb_image_pixel(d4, 0, y),
		                 1024 * 4);
	bb_image_free(a);
	bb_image_free(b);
	bb_image_free(d1);
	bb_image_free(d4);
}
END_TEST

static void write_png(const char *path, const bb_image *img)
{
	ck_assert_int_eq(bb_png_write(path, img, NULL), BB_OK);
}

START_TEST(test_files)
{
	char dir[] = "/tmp/check-diff.XXXXXX", pa[256], pb[256], pc[256],
	     pd[256];
	bb_image *a = solid(7, 5, 0x10203040), *b = bb_image_dup(a), *d = NULL;
	bb_diff_result r;
	bb_error err;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(pa, sizeof pa, "%s/a.png", dir);
	snprintf(pb, sizeof pb, "%s/b.png", dir);
	snprintf(pc, sizeof pc, "%s/c.png", dir);
	snprintf(pd, sizeof pd, "%s/missing.png", dir);
	write_png(pa, a);
	set_px(b, 6, 4, 0xffffffff);
	write_png(pb, b);
	f = fopen(pc, "wb");
	fputs("not a png", f);
	fclose(f);

	ck_assert_int_eq(bb_diff_files(pa, pa, NULL, &r, NULL, &err), BB_OK);
	ck_assert_int_eq(r.same_bytes, 1);
	ck_assert_int_eq(r.total_pixels, 35);
	ck_assert_int_eq(r.a_width, 7);
	ck_assert_int_eq(bb_diff_files(pa, pa, NULL, &r, &d, &err), BB_OK);
	ck_assert_ptr_null(d);   /* nothing to show */
	ck_assert_int_eq(r.same_bytes, 1);

	ck_assert_int_eq(bb_diff_files(pa, pb, NULL, &r, &d, &err), BB_OK);
	ck_assert_int_eq(r.same_bytes, 0);
	ck_assert_int_eq(r.diff_pixels, 1);
	ck_assert_int_eq(r.box.x, 6);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(get_px(d, 6, 4), 0xff0000ffu);
	bb_image_free(d);

	ck_assert_int_eq(bb_diff_files(pa, pc, NULL, &r, NULL, &err),
	                 BB_ERR_INPUT);
	ck_assert_str_eq(err.file, pc);
	{
		/* both files decoded at once: same results, same errors */
		bb_diff_options o = { 0 };

		o.threads = 2;
		ck_assert_int_eq(bb_diff_files(pa, pb, &o, &r, NULL, &err), BB_OK);
		ck_assert_int_eq(r.diff_pixels, 1);
		/* the header is valid, the data is not */
		f = fopen(pc, "wb");
		{
			void *png;
			size_t n;

			ck_assert_int_eq(bb_png_encode(b, &png, &n, NULL), BB_OK);
			fwrite(png, 1, n - 20, f);
			free(png);
		}
		fclose(f);
		ck_assert_int_eq(bb_diff_files(pa, pc, &o, &r, NULL, &err),
		                 BB_ERR_INPUT);
		ck_assert_str_eq(err.file, pc);
		ck_assert_int_eq(bb_diff_files(pc, pa, &o, &r, NULL, &err),
		                 BB_ERR_INPUT);
		ck_assert_str_eq(err.file, pc);
	}
	ck_assert_int_eq(bb_diff_files(pd, pa, NULL, &r, NULL, &err), BB_ERR_IO);
	ck_assert_str_eq(err.file, pd);

	unlink(pa);
	unlink(pb);
	unlink(pc);
	rmdir(dir);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_png_size)
{
	/* 256x3 RGBA; the IHDR CRC is zlib.crc32(b"IHDR" + the 13 bytes) */
	static const uint8_t hdr[33] = {
		137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R',
		0, 0, 1, 0, 0, 0, 0, 3, 8, 6, 0, 0, 0, 124, 145, 209, 124
	};
	uint8_t bad[33];
	int w = 0, h = 0;

	ck_assert(bb_png_size(hdr, sizeof hdr, &w, &h));
	ck_assert_int_eq(w, 256);
	ck_assert_int_eq(h, 3);
	ck_assert(!bb_png_size(hdr, 20, &w, &h));
	ck_assert(!bb_png_size("GIF89a", 6, &w, &h));
	/* a damaged header is not read (nor a file refused by it) */
	memcpy(bad, hdr, sizeof bad);
	bad[32] ^= 1;
	ck_assert(!bb_png_size(bad, sizeof bad, &w, &h));
}
END_TEST


/* The most set pixels of `marks` (w x h, 1 where b differs) in any s x s
 * square, counted naively. */
static long long window_naive(const uint8_t *marks, int w, int h, int s)
{
	long long best = 0, n;
	int x0, y0, x, y;

	for (y0 = 0; y0 + s <= h; y0++)
		for (x0 = 0; x0 + s <= w; x0++) {
			n = 0;
			for (y = y0; y < y0 + s; y++)
				for (x = x0; x < x0 + s; x++)
					n += marks[y * w + x];
			if (n > best)
				best = n;
		}
	return best;
}

START_TEST(test_window_scattered_vs_block)
{
	/* 16 isolated dark pixels 10 apart (noise) against a 5x5 block (a
	 * moved part) with fewer pixels changed in total than the noise +
	 * block image */
	bb_image *a = solid(48, 40, grey(255)), *noise = bb_image_dup(a);
	bb_image *block = bb_image_dup(a);
	bb_diff_options o = { 0 };
	bb_diff_budget bud = { 0 };
	bb_diff_result r;
	int x, y;

	for (y = 2; y < 40; y += 10)
		for (x = 3; x < 48; x += 12)
			set_px(noise, x, y, grey(0));
	for (y = 20; y < 25; y++)
		for (x = 30; x < 35; x++)
			set_px(block, x, y, grey(0));
	o.window = 8;
	bud.max_window_set = 1;
	bud.max_window_pixels = 4;
	r = compare(a, noise, &o);
	ck_assert_int_eq(r.diff_pixels, 16);
	ck_assert_int_eq(r.window, 8);
	ck_assert_int_eq(r.window_pixels, 1);
	ck_assert(bb_diff_within_budget(&bud, &r));
	r = compare(a, block, &o);
	ck_assert_int_eq(r.window_pixels, 25);
	ck_assert(!bb_diff_within_budget(&bud, &r));
	/* a window of 3 holds 9 of the block */
	o.window = 3;
	ck_assert_int_eq(compare(a, block, &o).window_pixels, 9);
	/* the side is clamped to the smaller image side: the whole image */
	o.window = 1000;
	r = compare(a, noise, &o);
	ck_assert_int_eq(r.window, 40);
	ck_assert_int_eq(r.window_pixels, 16);
	/* ignored pixels are not counted */
	o.window = 8;
	o.n_ignore = 1;
	o.ignore[0] = (bb_diff_rect){ 32, 22, 10, 10 };
	ck_assert_int_eq(compare(a, block, &o).window_pixels, 25 - 9);
	/* no window asked: none measured */
	o.window = 0;
	o.n_ignore = 0;
	r = compare(a, block, &o);
	ck_assert_int_eq(r.window, 0);
	ck_assert_int_eq(r.window_pixels, 0);
	bb_image_free(a);
	bb_image_free(noise);
	bb_image_free(block);
}
END_TEST

START_TEST(test_window_matches_naive)
{
	/* random changes, every one counted (threshold 0, AA counted): the
	 * window measure equals a naive count for several sides and thread
	 * counts */
	const int w = 61, h = 47;
	bb_image *a = solid(w, h, grey(200)), *b = bb_image_dup(a);
	uint8_t marks[61 * 47];
	unsigned seed = 12345;
	bb_diff_options o = { 0 };
	int i, s, x, y;

	memset(marks, 0, sizeof marks);
	for (i = 0; i < 400; i++) {
		seed = seed * 1103515245u + 12345u;
		x = (int)((seed >> 8) % (unsigned)w);
		seed = seed * 1103515245u + 12345u;
		y = (int)((seed >> 8) % (unsigned)h);
		/* denser in one corner */
		if (i % 3 == 0) {
			x /= 3;
			y /= 3;
		}
		set_px(b, x, y, grey(10));
		marks[y * w + x] = 1;
	}
	o.threshold_set = 1;
	o.threshold = 0;
	o.aa = BB_DIFF_AA_COUNT;
	for (s = 1; s <= 50; s += 7) {
		bb_diff_result r;
		long long want = window_naive(marks, w, h, s < h ? s : h);

		o.window = s;
		o.threads = 1;
		r = compare(a, b, &o);
		ck_assert_int_eq(r.window_pixels, want);
		o.threads = 4;
		ck_assert_int_eq(compare(a, b, &o).window_pixels, want);
		o.compat = BB_DIFF_COMPAT_PIXELMATCH;
		ck_assert_int_eq(compare(a, b, &o).window_pixels, want);
		o.compat = BB_DIFF_COMPAT_NONE;
	}
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST

START_TEST(test_window_threads)
{
	/* bands of a large image: the same window count whatever the threads */
	bb_image *a = solid(1024, 700, grey(90)), *b = bb_image_dup(a);
	bb_diff_options o = { 0 };
	bb_diff_result r1, r4;
	int x, y;

	/* a cluster across the band boundaries at y = 350 and y = 175 */
	for (y = 170; y < 180; y++)
		for (x = 500; x < 506; x++)
			set_px(b, x, y, grey(250));
	for (y = 345; y < 356; y += 2)
		for (x = 10; x < 20; x += 2)
			set_px(b, x, y, grey(250));
	o.window = 12;
	r1 = compare(a, b, &o);
	o.threads = 4;
	r4 = compare(a, b, &o);
	ck_assert_int_eq(r1.window_pixels, r4.window_pixels);
	ck_assert_int_eq(r1.diff_pixels, r4.diff_pixels);
	ck_assert_int_ge(r1.window_pixels, 30);
	bb_image_free(a);
	bb_image_free(b);
}
END_TEST


static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_one_pixel_below_threshold);
	tcase_add_test(tc, test_one_pixel_above_threshold);
	tcase_add_test(tc, test_black_white);
	tcase_add_test(tc, test_aa_edge_half_pixel);
	tcase_add_test(tc, test_real_change_not_aa);
	tcase_add_test(tc, test_alpha_only);
	tcase_add_test(tc, test_alpha_only_dark);
	tcase_add_test(tc, test_transparent_vs_white);
	tcase_add_test(tc, test_transparent_colour_bytes);
	tcase_add_test(tc, test_size_mismatch);
	tcase_add_test(tc, test_ignore_region);
	tcase_add_test(tc, test_budgets);
	tcase_add_test(tc, test_diff_image);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_threads_same_result);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_png_size);
	tcase_add_test(tc, test_window_scattered_vs_block);
	tcase_add_test(tc, test_window_matches_naive);
	tcase_add_test(tc, test_window_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(diff_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
