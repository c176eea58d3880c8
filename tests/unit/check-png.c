/* PNG writing and reading.  The encoder (lib/image/png-write.c): every
 * level, filter and image shape decodes back with libpng to exactly the
 * pixels encoded; the bytes are the same across runs, encoders and reuse;
 * the chunks are exactly IHDR, IDAT..., IEND with correct CRCs; a stream
 * split over several IDAT chunks still decodes; bad options fail.  The
 * fast reading path (lib/image/png-read.c): it takes the files it should
 * (RGBA and RGB, every filter, several IDATs, ancillary chunks), leaves
 * the others to libpng, and on thousands of damaged files bb_png_read_mem
 * gives exactly libpng's verdict and pixels. */
#include "config.h"

#include <check.h>
#include <libdeflate.h>
#include <malloc.h>   /* malloc_usable_size (glibc) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "image/png-fast.h"
#include "image/png-int.h"

static unsigned rng = 1;

static unsigned rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) & 0xffffff;
}

/* Image kinds: sprite-like (transparent surround, soft edge, flat fill
 * with a gradient), noise, fully transparent, one opaque colour. */
enum { K_SPRITE, K_NOISE, K_CLEAR, K_FLAT, K_COUNT };

static bb_image *make(int w, int h, int kind)
{
	bb_image *img;
	int x, y;

	ck_assert_int_eq(bb_image_new(w, h, &img, NULL), BB_OK);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint8_t *p = bb_image_pixel(img, x, y);
			double dx = (x + 0.5) / w - 0.5, dy = (y + 0.5) / h - 0.5;
			double d = dx * dx + dy * dy;

			switch (kind) {
			case K_SPRITE:
				if (d < 0.16) {
					p[0] = (uint8_t)(200 - x % 7);
					p[1] = (uint8_t)(y * 3);
					p[2] = (uint8_t)(x ^ y);
					p[3] = d > 0.14 ? (uint8_t)(255 * (0.16 - d) / 0.02) : 255;
				}
				break;
			case K_NOISE: {
				unsigned v = rnd();

				p[0] = (uint8_t)v;
				p[1] = (uint8_t)(v >> 8);
				p[2] = (uint8_t)(v >> 16);
				p[3] = (uint8_t)(rnd() >> 4);
				break;
			}
			case K_FLAT:
				p[0] = 12;
				p[1] = 200;
				p[2] = 99;
				p[3] = 255;
				break;
			default:
				break;
			}
		}
	return img;
}

static int same_pixels(const bb_image *a, const bb_image *b)
{
	int y;

	if (a->width != b->width || a->height != b->height)
		return 0;
	for (y = 0; y < a->height; y++)
		if (memcmp(bb_image_pixel(a, 0, y), bb_image_pixel(b, 0, y),
		           (size_t)a->width * 4) != 0)
			return 0;
	return 1;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

/* Walks the chunks: signature, IHDR (w, h, RGBA 8), IDAT+, IEND, each CRC
 * checked with a bit-by-bit CRC; returns the number of IDAT chunks and
 * their largest length. */
static int check_chunks(const uint8_t *d, size_t n, int w, int h,
                        size_t *max_idat)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t pos = 8;
	int idats = 0, k = 0, ended = 0;

	ck_assert_uint_ge(n, 8);
	ck_assert_int_eq(memcmp(d, sig, 8), 0);
	*max_idat = 0;
	while (pos < n) {
		uint32_t len;

		ck_assert_uint_ge(n - pos, 12);
		len = get32(d + pos);
		ck_assert_uint_ge(n - pos - 12, len);
		ck_assert_uint_eq(get32(d + pos + 8 + len), crc32_ref(d + pos + 4, len + 4));
		if (k == 0) {
			ck_assert_int_eq(memcmp(d + pos + 4, "IHDR", 4), 0);
			ck_assert_uint_eq(len, 13);
			ck_assert_uint_eq(get32(d + pos + 8), (uint32_t)w);
			ck_assert_uint_eq(get32(d + pos + 12), (uint32_t)h);
			ck_assert_int_eq(d[pos + 16], 8);
			ck_assert_int_eq(d[pos + 17], 6);
			ck_assert_int_eq(d[pos + 18] | d[pos + 19] | d[pos + 20], 0);
		} else if (memcmp(d + pos + 4, "IDAT", 4) == 0) {
			ck_assert(!ended);
			idats++;
			if (len > *max_idat)
				*max_idat = len;
		} else {
			/* no ancillary chunk (no time, no gamma): IEND ends it */
			ck_assert_int_eq(memcmp(d + pos + 4, "IEND", 4), 0);
			ck_assert_uint_eq(len, 0);
			ended = 1;
		}
		pos += 12 + len;
		k++;
	}
	ck_assert(ended);
	ck_assert_uint_eq(pos, n);
	return idats;
}

/* Encodes with (level, filter), checks the chunks and the round trip. */
static void round_trip(const bb_image *img, int level, bb_png_filter filter)
{
	bb_png_options o = { level, 1, filter };
	bb_png_encoder *e;
	const void *d;
	size_t n, max_idat;
	bb_image *back;
	bb_error err;

	ck_assert_int_eq(bb_png_encoder_new(&o, &e, &err), BB_OK);
	ck_assert_int_eq(bb_png_encoder_encode(e, img, &d, &n, &err), BB_OK);
	ck_assert_int_eq(check_chunks(d, n, img->width, img->height, &max_idat), 1);
	ck_assert_int_eq(bb__png_read_libpng(d, n, "t.png", &back, &err), BB_OK);
	ck_assert_msg(same_pixels(img, back), "%dx%d level %d filter %d differs",
	              img->width, img->height, level, (int)filter);
	bb_image_free(back);
	/* and the fast path reads it, to the same pixels */
	ck_assert_int_eq(bb__png_read_fast(d, n, 0, &back), 1);
	ck_assert(same_pixels(img, back));
	bb_image_free(back);
	bb_png_encoder_free(e);
}

START_TEST(every_level_filter_shape)
{
	static const int sizes[][2] = {
		{ 1, 1 }, { 2, 1 }, { 1, 3 }, { 3, 5 }, { 17, 9 }, { 64, 64 },
		{ 3000, 2 }, { 2, 3000 }, { 101, 77 },
	};
	size_t s;
	int kind, level, f;

	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (kind = 0; kind < K_COUNT; kind++) {
			bb_image *img = make(sizes[s][0], sizes[s][1], kind);

			/* the fast path, then every deflate level */
			for (level = BB_PNG_LEVEL_FAST; level <= BB_PNG_LEVEL_MAX; level++)
				for (f = BB_PNG_FILTER_DEFAULT; f <= BB_PNG_FILTER_ADAPTIVE; f++)
					if (level != -1)
						round_trip(img, level, (bb_png_filter)f);
			bb_image_free(img);
		}
}
END_TEST

START_TEST(defaults_and_one_shot)
{
	bb_image *img = make(45, 31, K_SPRITE), *back;
	/* the frame default is the fast path */
	bb_png_options fr = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_NONE };
	bb_png_encoder *e;
	void *d1, *d2;
	const void *d3;
	size_t n1, n2, n3;

	/* {0}, NULL, bb_png_encode and the explicit frame settings agree */
	ck_assert_int_eq(bb_png_encode(img, &d1, &n1, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encode_opts(img, &(bb_png_options){ 0 }, &d2, &n2,
	                                    NULL), BB_OK);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(d1, d2, n1), 0);
	free(d2);
	ck_assert_int_eq(bb_png_encode_opts(img, &fr, &d2, &n2, NULL), BB_OK);
	ck_assert_uint_eq(n1, n2);
	ck_assert_int_eq(memcmp(d1, d2, n1), 0);
	free(d2);
	/* bb_png_encode_fast is the fast path whatever the size */
	ck_assert_int_eq(bb_png_encode_fast(img, &d2, &n2, NULL), BB_OK);
	{
		bb_png_options one = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_NONE };
		void *d4;
		size_t n4;

		ck_assert_int_eq(bb_png_encode_opts(img, &one, &d4, &n4, NULL), BB_OK);
		ck_assert_uint_eq(n4, n2);
		ck_assert_int_eq(memcmp(d4, d2, n2), 0);
		free(d4);
	}
	free(d2);
	/* a large frame too */
	{
		bb_image *big = make(400, 400, K_SPRITE);
		bb_png_options one = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_DEFAULT };
		void *db, *d1b;
		size_t nb, n1b;

		ck_assert_int_eq(bb_png_encode(big, &db, &nb, NULL), BB_OK);
		ck_assert_int_eq(bb_png_encode_opts(big, &one, &d1b, &n1b, NULL), BB_OK);
		ck_assert_uint_eq(nb, n1b);
		ck_assert_int_eq(memcmp(db, d1b, nb), 0);
		free(db);
		free(d1b);
		bb_image_free(big);
	}
	ck_assert_int_eq(bb_png_encode_opts(img, &fr, &d2, &n2, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encoder_new(NULL, &e, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encoder_encode(e, img, &d3, &n3, NULL), BB_OK);
	ck_assert_uint_eq(n1, n3);
	ck_assert_int_eq(memcmp(d1, d3, n1), 0);
	ck_assert_int_eq(bb_png_read_mem(d1, n1, "d.png", &back, NULL), BB_OK);
	ck_assert(same_pixels(img, back));
	bb_png_encoder_free(e);
	bb_image_free(back);
	bb_image_free(img);
	free(d1);
	free(d2);
}
END_TEST

/* One encoder reused over images of other sizes gives the bytes a fresh
 * encoder gives: nothing of an earlier image leaks into a later one. */
START_TEST(reuse_is_byte_identical)
{
	bb_image *imgs[4];
	bb_png_options o = { 6, 1, BB_PNG_FILTER_ADAPTIVE };
	bb_png_encoder *shared;
	int round, i;

	imgs[0] = make(300, 200, K_NOISE);
	imgs[1] = make(7, 5, K_SPRITE);
	imgs[2] = make(300, 200, K_SPRITE);
	imgs[3] = make(1, 1, K_CLEAR);
	ck_assert_int_eq(bb_png_encoder_new(&o, &shared, NULL), BB_OK);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 4; i++) {
			bb_png_encoder *fresh;
			const void *a, *b;
			size_t na, nb;

			ck_assert_int_eq(bb_png_encoder_new(&o, &fresh, NULL), BB_OK);
			ck_assert_int_eq(bb_png_encoder_encode(shared, imgs[i], &a, &na,
			                                       NULL), BB_OK);
			ck_assert_int_eq(bb_png_encoder_encode(fresh, imgs[i], &b, &nb,
			                                       NULL), BB_OK);
			ck_assert_uint_eq(na, nb);
			ck_assert_int_eq(memcmp(a, b, na), 0);
			bb_png_encoder_free(fresh);
		}
	bb_png_encoder_free(shared);
	for (i = 0; i < 4; i++)
		bb_image_free(imgs[i]);
}
END_TEST

/* Rows of an image with a stride wider than its pixels are read as rows. */
START_TEST(wide_stride)
{
	bb_image *img = make(13, 11, K_NOISE), *back;
	bb_image view = { 13, 11, 13 * 4 + 12, NULL, 0, 0 };
	uint8_t *buf = calloc(11, view.stride);
	void *d;
	size_t n;
	int y;

	ck_assert_ptr_nonnull(buf);
	for (y = 0; y < 11; y++) {
		memcpy(buf + y * view.stride, bb_image_pixel(img, 0, y), 13 * 4);
		memset(buf + y * view.stride + 13 * 4, 0xab, 12);
	}
	view.px = buf;
	ck_assert_int_eq(bb_png_encode(&view, &d, &n, NULL), BB_OK);
	ck_assert_int_eq(bb_png_read_mem(d, n, "s.png", &back, NULL), BB_OK);
	ck_assert(same_pixels(img, back));
	bb_image_free(back);
	bb_image_free(img);
	free(buf);
	free(d);
}
END_TEST

/* The zlib stream split over IDAT chunks of at most 7 / 1000 bytes: the
 * same stream, so the same pixels. */
START_TEST(split_idat)
{
	bb_image *img = make(120, 90, K_SPRITE), *back;
	bb_png_encoder *e;
	const void *d;
	size_t n, max_idat, limits[] = { 7, 1000, 1 }, k;

	ck_assert_int_eq(bb_png_encoder_new(NULL, &e, NULL), BB_OK);
	for (k = 0; k < sizeof limits / sizeof limits[0]; k++) {
		int idats;

		bb__png_encoder_set_idat_max(e, limits[k]);
		ck_assert_int_eq(bb_png_encoder_encode(e, img, &d, &n, NULL), BB_OK);
		idats = check_chunks(d, n, 120, 90, &max_idat);
		ck_assert_int_gt(idats, 1);
		ck_assert_uint_le(max_idat, limits[k]);
		ck_assert_int_eq(bb_png_read_mem(d, n, "split.png", &back, NULL), BB_OK);
		ck_assert(same_pixels(img, back));
		bb_image_free(back);
	}
	bb__png_encoder_set_idat_max(e, 0);
	ck_assert_int_eq(bb_png_encoder_encode(e, img, &d, &n, NULL), BB_OK);
	ck_assert_int_eq(check_chunks(d, n, 120, 90, &max_idat), 1);
	bb_png_encoder_free(e);
	bb_image_free(img);
}
END_TEST

START_TEST(bad_options_and_images)
{
	bb_png_options o = { BB_PNG_LEVEL_MAX + 1, 1, BB_PNG_FILTER_NONE };
	bb_png_encoder *e = (bb_png_encoder *)1;
	bb_image empty = { 0, 0, 0, NULL, 0, 0 };
	const void *d;
	void *dd;
	size_t n;
	bb_error err;

	ck_assert_int_eq(bb_png_encoder_new(&o, &e, &err), BB_ERR_USAGE);
	ck_assert_ptr_null(e);
	o.level = -1;
	ck_assert_int_eq(bb_png_encoder_new(&o, &e, &err), BB_ERR_USAGE);
	o.level = BB_PNG_LEVEL_FAST - 1;
	ck_assert_int_eq(bb_png_encoder_new(&o, &e, &err), BB_ERR_USAGE);
	o = (bb_png_options){ 1, 1, (bb_png_filter)99 };
	ck_assert_int_eq(bb_png_encoder_new(&o, &e, &err), BB_ERR_USAGE);
	ck_assert_int_eq(bb_png_encode_opts(&empty, NULL, &dd, &n, &err), BB_ERR_USAGE);
	ck_assert_ptr_null(dd);
	ck_assert_int_eq(bb_png_encoder_new(NULL, &e, &err), BB_OK);
	ck_assert_int_eq(bb_png_encoder_encode(e, NULL, &d, &n, &err), BB_ERR_USAGE);
	ck_assert_int_eq(bb_png_encoder_write(e, "/nonexistent-dir/x.png",
	                                      &(bb_image){ 1, 1, 4,
	                                                   (uint8_t[4]){ 0 }, 0, 0 },
	                                      &err), BB_ERR_IO);
	ck_assert_str_eq(err.file, "/nonexistent-dir/x.png");
	bb_png_encoder_free(e);
	bb_png_encoder_free(NULL);
}
END_TEST

/* On a sprite-like image the sheet level is no larger than level 1, the
 * frame default (the fast path) is under half of stored, and level 0
 * stores (the file holds every raw byte). */
START_TEST(levels_order_sizes)
{
	bb_image *img = make(256, 256, K_SPRITE);
	bb_png_options o0 = { 0, 1, 0 }, o1 = { 1, 1, 0 },
	               os = { BB_PNG_LEVEL_SHEETS, 1, 0 };
	void *d0, *d1, *df, *ds;
	size_t n0, n1, nf, ns;

	ck_assert_int_eq(bb_png_encode_opts(img, &o0, &d0, &n0, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encode_opts(img, &o1, &d1, &n1, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encode(img, &df, &nf, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encode_opts(img, &os, &ds, &ns, NULL), BB_OK);
	ck_assert_uint_gt(n0, 256u * (256 * 4 + 1));
	ck_assert_uint_lt(nf, n0 / 2);
	ck_assert_uint_le(ns, n1);
	free(d0);
	free(d1);
	free(df);
	free(ds);
	bb_image_free(img);
}
END_TEST

/* ---- the fast writing path (png-fast.c) -------------------------------- */

/* A random image: random size up to max_w x max_h, then one of: noise,
 * sparse noise on clear, rectangles of flat or graded colour with soft
 * alpha, or fully clear. */
static bb_image *make_random(int max_w, int max_h)
{
	int w = 1 + (int)(rnd() % (unsigned)max_w), h = 1 + (int)(rnd() % (unsigned)max_h);
	int kind = (int)(rnd() % 4), x, y, k;
	bb_image *img;

	ck_assert_int_eq(bb_image_new(w, h, &img, NULL), BB_OK);
	if (kind == 3)
		return img;
	for (k = 0; k < (kind == 2 ? 6 : 1); k++) {
		int x0 = (int)(rnd() % (unsigned)w), y0 = (int)(rnd() % (unsigned)h);
		int x1 = kind == 2 ? x0 + (int)(rnd() % (unsigned)w) : w;
		int y1 = kind == 2 ? y0 + (int)(rnd() % (unsigned)h) : h;
		unsigned c = rnd(), g = rnd() % 5;

		if (kind != 2)
			x0 = y0 = 0;
		for (y = y0; y < y1 && y < h; y++)
			for (x = x0; x < x1 && x < w; x++) {
				uint8_t *p = bb_image_pixel(img, x, y);
				unsigned v = rnd();

				if (kind == 1 && v % 7)
					continue;
				if (kind == 2) {
					p[0] = (uint8_t)(c + g * (unsigned)x);
					p[1] = (uint8_t)((c >> 8) + g * (unsigned)y);
					p[2] = (uint8_t)(c >> 16);
					p[3] = (uint8_t)(x == x0 || y == y0 ? 128 : 255);
				} else {
					memcpy(p, &v, 3);
					p[3] = (uint8_t)(rnd() >> 3);
				}
			}
	}
	return img;
}

/* The fast path with the given row filters: the bytes, decoded by libpng
 * to exactly img (and by the fast reader too). */
static void *encode_path(const bb_image *img, int path, size_t *n)
{
	bb_png_options o = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_DEFAULT };
	bb_png_encoder *e;
	const void *d;
	void *copy;
	size_t max_idat;
	bb_image *back;

	ck_assert_int_eq(bb_png_encoder_new(&o, &e, NULL), BB_OK);
	ck_assert_int_eq(bb__png_encoder_set_simd(e, path), 1);
	ck_assert_int_eq(bb_png_encoder_encode(e, img, &d, n, NULL), BB_OK);
	ck_assert_int_eq(check_chunks(d, *n, img->width, img->height, &max_idat), 1);
	ck_assert_int_eq(bb__png_read_libpng(d, *n, "f.png", &back, NULL), BB_OK);
	ck_assert_msg(same_pixels(img, back), "%dx%d path %s differs",
	              img->width, img->height, bb__png_simd_name((bb__png_simd)path));
	bb_image_free(back);
	ck_assert_int_eq(bb__png_read_fast(d, *n, 0, &back), 1);
	ck_assert(same_pixels(img, back));
	bb_image_free(back);
	copy = malloc(*n);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, d, *n);
	bb_png_encoder_free(e);
	return copy;
}

/* Every path this machine runs gives the scalar path's bytes, on shapes
 * around the vector widths (rows of 4..160 bytes and more), 1 x 1, clear,
 * noise, and hundreds of random images. */
static void paths_agree(const bb_image *img)
{
	size_t n0, n;
	void *d0 = encode_path(img, BB__PNG_SCALAR, &n0);
	int p;

	for (p = BB__PNG_SCALAR + 1; p < BB__PNG_SIMD_COUNT; p++) {
		void *d;

		if (!bb__png_simd_available((bb__png_simd)p))
			continue;
		d = encode_path(img, p, &n);
		ck_assert_msg(n == n0 && memcmp(d, d0, n) == 0,
		              "%dx%d: %s bytes differ from scalar", img->width,
		              img->height, bb__png_simd_name((bb__png_simd)p));
		free(d);
	}
	free(d0);
}

START_TEST(fast_paths_identical)
{
	int w, kind, i;

	for (kind = 0; kind < K_COUNT; kind++) {
		for (w = 1; w <= 40; w++) {
			bb_image *img = make(w, 7, kind);

			paths_agree(img);
			bb_image_free(img);
		}
		{
			bb_image *img = make(3001, 3, kind);

			paths_agree(img);
			bb_image_free(img);
		}
	}
	rng = 7;
	for (i = 0; i < 300; i++) {
		bb_image *img = make_random(i % 10 ? 90 : 700, i % 10 ? 60 : 300);

		paths_agree(img);
		bb_image_free(img);
	}
}
END_TEST

/* Which paths ran: a machine without SSE4.1 or AVX2 tests the scalar path
 * alone, and BONEBAKE_PNG_SIMD picks a path it has. */
START_TEST(fast_path_choice)
{
	int p;

	ck_assert(bb__png_simd_available(BB__PNG_SCALAR));
	for (p = 0; p < BB__PNG_SIMD_COUNT; p++)
		fprintf(stderr, "png fast path %s: %s\n",
		        bb__png_simd_name((bb__png_simd)p),
		        bb__png_simd_available((bb__png_simd)p) ? "tested" : "not on this CPU");
	setenv("BONEBAKE_PNG_SIMD", "scalar", 1);
	ck_assert_int_eq(bb__png_simd_default(), BB__PNG_SCALAR);
	for (p = 0; p < BB__PNG_SIMD_COUNT; p++) {
		setenv("BONEBAKE_PNG_SIMD", bb__png_simd_name((bb__png_simd)p), 1);
		if (bb__png_simd_available((bb__png_simd)p))
			ck_assert_int_eq(bb__png_simd_default(), p);
	}
	unsetenv("BONEBAKE_PNG_SIMD");
	p = bb__png_simd_default();
	ck_assert(bb__png_simd_available((bb__png_simd)p));
	ck_assert_int_eq(bb__png_encoder_set_simd(NULL, BB__PNG_SIMD_COUNT), 0);
}
END_TEST

/* A frame the size of a corpus frame, mostly clear, with a sprite: the
 * fast path is no more than 1.15 x level 6's bytes and far below stored. */
START_TEST(fast_path_size)
{
	bb_image *img = make(512, 512, K_SPRITE);
	bb_png_options o6 = { 6, 1, 0 }, of = { BB_PNG_LEVEL_FAST, 1, 0 };
	void *d6, *df;
	size_t n6, nf;

	ck_assert_int_eq(bb_png_encode_opts(img, &o6, &d6, &n6, NULL), BB_OK);
	ck_assert_int_eq(bb_png_encode_opts(img, &of, &df, &nf, NULL), BB_OK);
	ck_assert_uint_le(nf, n6 + n6 / 100 * 15);
	free(d6);
	free(df);
	bb_image_free(img);
}
END_TEST

/* ---- the fast reading path ------------------------------------------ */

typedef struct pbuf {
	uint8_t *d;
	size_t n, cap;
} pbuf;

static void put(pbuf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->d = realloc(b->d, b->cap);
		ck_assert_ptr_nonnull(b->d);
	}
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void put32(pbuf *b, uint32_t v)
{
	uint8_t q[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
	                 (uint8_t)v };

	put(b, q, 4);
}

static void chunk(pbuf *b, const char *type, const void *data, size_t n)
{
	size_t at;

	put32(b, (uint32_t)n);
	at = b->n;
	put(b, type, 4);
	put(b, data, n);
	put32(b, crc32_ref(b->d + at, n + 4));
}

/* A PNG written by hand, independently of the encoder: bpp 3 (RGB) or 4
 * (RGBA) pixels px (w * bpp bytes a row), row y filtered with type
 * (y * 7 + seed) % 5, the stream cut into IDATs of `split` bytes, with a
 * tEXt chunk before and a gAMA-like ancillary chunk between IDAT and
 * IEND when `extra`.  IHDR fields `depth`, `ctype`, `interlace` as given. */
static pbuf hand_png(const uint8_t *px, int w, int h, int bpp, int seed,
                     size_t split, int extra, int depth, int ctype,
                     int interlace)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t row = (size_t)w * bpp, raw_n = (row + 1) * h, off, zn;
	uint8_t *raw = malloc(raw_n), ihdr[13];
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
	uint8_t *z;
	pbuf b = { NULL, 0, 0 };
	int y;
	size_t i;

	ck_assert_ptr_nonnull(raw);
	for (y = 0; y < h; y++) {
		const uint8_t *x = px + y * row, *up = y ? px + (y - 1) * row : NULL;
		uint8_t *d = raw + y * (row + 1);
		int t = (y * 7 + seed) % 5;

		d[0] = (uint8_t)t;
		for (i = 0; i < row; i++) {
			int a = i >= (size_t)bpp ? x[i - bpp] : 0, bb = up ? up[i] : 0;
			int cc = i >= (size_t)bpp && up ? up[i - bpp] : 0, p, pa, pb, pc, pr;

			switch (t) {
			case 1: d[1 + i] = (uint8_t)(x[i] - a); break;
			case 2: d[1 + i] = (uint8_t)(x[i] - bb); break;
			case 3: d[1 + i] = (uint8_t)(x[i] - ((a + bb) >> 1)); break;
			case 4:
				p = a + bb - cc;
				pa = abs(p - a);
				pb = abs(p - bb);
				pc = abs(p - cc);
				pr = pa <= pb && pa <= pc ? a : pb <= pc ? bb : cc;
				d[1 + i] = (uint8_t)(x[i] - pr);
				break;
			default: d[1 + i] = x[i]; break;
			}
		}
	}
	z = malloc(libdeflate_zlib_compress_bound(c, raw_n));
	zn = libdeflate_zlib_compress(c, raw, raw_n, z,
	                              libdeflate_zlib_compress_bound(c, raw_n));
	ck_assert_uint_gt(zn, 0);
	put(&b, sig, 8);
	ihdr[0] = (uint8_t)(w >> 24); ihdr[1] = (uint8_t)(w >> 16);
	ihdr[2] = (uint8_t)(w >> 8); ihdr[3] = (uint8_t)w;
	ihdr[4] = (uint8_t)(h >> 24); ihdr[5] = (uint8_t)(h >> 16);
	ihdr[6] = (uint8_t)(h >> 8); ihdr[7] = (uint8_t)h;
	ihdr[8] = (uint8_t)depth;
	ihdr[9] = (uint8_t)ctype;
	ihdr[10] = ihdr[11] = 0;
	ihdr[12] = (uint8_t)interlace;
	chunk(&b, "IHDR", ihdr, 13);
	if (extra)
		chunk(&b, "tEXt", "Comment\0made by hand", 20);
	for (off = 0; off < zn; off += split)
		chunk(&b, "IDAT", z + off, zn - off < split ? zn - off : split);
	if (extra)
		chunk(&b, "zzZz", "\1\2\3", 3);
	chunk(&b, "IEND", NULL, 0);
	libdeflate_free_compressor(c);
	free(z);
	free(raw);
	return b;
}

/* The image hand_png's pixels stand for (RGB gets alpha 255). */
static bb_image *as_rgba(const uint8_t *px, int w, int h, int bpp)
{
	bb_image *img;
	int x, y;

	ck_assert_int_eq(bb_image_new(w, h, &img, NULL), BB_OK);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			const uint8_t *s = px + ((size_t)y * w + x) * bpp;
			uint8_t *d = bb_image_pixel(img, x, y);

			d[0] = s[0];
			d[1] = s[1];
			d[2] = s[2];
			d[3] = bpp == 4 ? s[3] : 255;
		}
	return img;
}

static uint8_t *noise(int w, int h, int bpp)
{
	uint8_t *px = malloc((size_t)w * h * bpp);
	size_t i;

	ck_assert_ptr_nonnull(px);
	for (i = 0; i < (size_t)w * h * bpp; i++)
		px[i] = (uint8_t)(i % 5 == 0 ? rnd() : i / 7);
	return px;
}

START_TEST(fast_path_reads_common_files)
{
	static const int sizes[][2] = { { 1, 1 }, { 5, 3 }, { 64, 33 }, { 3, 200 } };
	size_t s, k, splits[] = { 1, 100, 8192, 1u << 30 };
	int bpp, seed;

	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (bpp = 3; bpp <= 4; bpp++)
			for (seed = 0; seed < 5; seed++)
				for (k = 0; k < 4; k++) {
					int w = sizes[s][0], h = sizes[s][1];
					uint8_t *px = noise(w, h, bpp);
					bb_image *want = as_rgba(px, w, h, bpp), *a, *b;
					pbuf f = hand_png(px, w, h, bpp, seed, splits[k], k & 1,
					                  8, bpp == 4 ? 6 : 2, 0);

					ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 0, &a), 1);
					ck_assert_msg(same_pixels(a, want), "%dx%d bpp %d seed %d",
					              w, h, bpp, seed);
					ck_assert_int_eq(bb__png_read_libpng(f.d, f.n, "h.png", &b,
					                                     NULL), BB_OK);
					ck_assert(same_pixels(b, want));
					ck_assert(!a->premultiplied && !b->premultiplied);
					bb_image_free(a);
					/* into ARGB32 while decoding: the bytes of the
					 * whole image converted afterwards */
					ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 1, &a), 1);
					bb_image_to_argb32(b);
					ck_assert(a->premultiplied && a->argb32);
					ck_assert_msg(same_pixels(a, b), "argb32 %dx%d "
					              "bpp %d seed %d", w, h, bpp, seed);
					bb_image_free(a);
					bb_image_free(b);
					bb_image_free(want);
					free(px);
					free(f.d);
				}
}
END_TEST

/* An RGB file's pixels are read through a buffer that holds the
 * unfiltered rows behind them: the image keeps the pixels only. */
START_TEST(fast_path_rgb_keeps_pixels_only)
{
	int w = 300, h = 200;
	uint8_t *px = noise(w, h, 3);
	pbuf f = hand_png(px, w, h, 3, 1, 1u << 30, 0, 8, 2, 0);
	bb_image *a;

	ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 1, &a), 1);
	ck_assert_uint_ge(malloc_usable_size(a->px), (size_t)w * h * 4);
	/* the rows behind would make it 7 bytes a pixel */
	ck_assert_uint_lt(malloc_usable_size(a->px), (size_t)w * h * 4 + 8192);
	bb_image_free(a);
	free(px);
	free(f.d);
}
END_TEST

START_TEST(fast_path_leaves_the_rest_to_libpng)
{
	uint8_t *px = noise(9, 7, 4);
	pbuf f;
	bb_image *img = NULL;
	uint8_t plte[6] = { 0 };

	/* 16-bit, grey + alpha, palette, interlaced */
	f = hand_png(px, 9, 7, 4, 0, 1000, 0, 16, 6, 0);
	ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 0, &img), 0);
	free(f.d);
	f = hand_png(px, 9, 7, 2, 0, 1000, 0, 8, 4, 0);   /* grey + alpha */
	ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 0, &img), 0);
	{
		/* read as ARGB32: libpng's pixels, then converted */
		bb_image *a, *b;

		ck_assert_int_eq(bb_png_read_mem_argb32(f.d, f.n, "p.png", 0, &a,
		                                        NULL), BB_OK);
		ck_assert_int_eq(bb_png_read_mem(f.d, f.n, "p.png", &b, NULL), BB_OK);
		ck_assert(a->argb32 && a->premultiplied && !b->premultiplied);
		ck_assert(!same_pixels(a, b));
		bb_image_to_argb32(b);
		ck_assert(same_pixels(a, b));
		bb_image_free(a);
		bb_image_free(b);
	}
	free(f.d);
	f = hand_png(px, 9, 7, 4, 0, 1000, 0, 8, 3, 0);
	ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 0, &img), 0);
	free(f.d);
	f = hand_png(px, 9, 7, 4, 0, 1000, 0, 8, 6, 1);
	ck_assert_int_eq(bb__png_read_fast(f.d, f.n, 0, &img), 0);
	free(f.d);
	/* a PLTE (critical) or a tRNS chunk, even where they would be legal */
	f = hand_png(px, 9, 7, 3, 0, 1000, 0, 8, 2, 0);
	{
		pbuf g = { NULL, 0, 0 };

		put(&g, f.d, 33);
		chunk(&g, "PLTE", plte, 6);
		put(&g, f.d + 33, f.n - 33);
		ck_assert_int_eq(bb__png_read_fast(g.d, g.n, 0, &img), 0);
		ck_assert_int_eq(bb_png_read_mem(g.d, g.n, "p.png", &img, NULL), BB_OK);
		bb_image_free(img);
		g.n = 33;
		chunk(&g, "tRNS", plte, 6);
		put(&g, f.d + 33, f.n - 33);
		ck_assert_int_eq(bb__png_read_fast(g.d, g.n, 0, &img), 0);
		ck_assert_ptr_null(img);
		free(g.d);
	}
	free(f.d);
	free(px);
}
END_TEST

/* Damaged files, thousands of them: bytes changed (with the chunk CRC
 * fixed up or not), lengths changed, files cut.  bb_png_read_mem (fast
 * path first) must give libpng's status and, when it reads, its pixels. */
START_TEST(damaged_files_get_libpngs_verdict)
{
	uint8_t *px = noise(23, 17, 4);
	pbuf f = hand_png(px, 23, 17, 4, 2, 97, 1, 8, 6, 0);
	uint8_t *m = malloc(f.n);
	int round, fast_ok = 0, errors = 0;

	ck_assert_ptr_nonnull(m);
	for (round = 0; round < 3000; round++) {
		size_t n = f.n, at, k;
		bb_image *a = NULL, *b = NULL;
		bb_status sa, sb;
		bb_error ea, eb;

		memcpy(m, f.d, f.n);
		switch (round % 4) {
		case 0:       /* a byte anywhere */
			m[rnd() % n] ^= (uint8_t)(1 + rnd() % 255);
			break;
		case 1: {     /* a byte inside a chunk, its CRC made right again */
			size_t pos = 8, len = 0;

			at = 8 + rnd() % (n - 8);
			while (pos + 12 <= n) {
				len = get32(m + pos);
				if (at < pos + 12 + len)
					break;
				pos += 12 + len;
			}
			if (at >= pos + 8 && at < pos + 8 + len) {
				uint32_t c;

				m[at] ^= (uint8_t)(1 + rnd() % 255);
				c = crc32_ref(m + pos + 4, len + 4);
				m[pos + 8 + len] = (uint8_t)(c >> 24);
				m[pos + 9 + len] = (uint8_t)(c >> 16);
				m[pos + 10 + len] = (uint8_t)(c >> 8);
				m[pos + 11 + len] = (uint8_t)c;
			}
			break;
		}
		case 2:       /* cut */
			n = 1 + rnd() % (n - 1);
			break;
		default:      /* a chunk length or the IHDR size bytes */
			at = rnd() % 3 ? 8 + 12 * (rnd() % 8) : 16 + rnd() % 8;
			if (at < n)
				m[at] = (uint8_t)rnd();
			for (k = 0; k < 2 && at + k + 1 < n; k++)
				m[at + k + 1] ^= (uint8_t)(rnd() & 3);
			break;
		}
		fast_ok += bb__png_read_fast(m, n, 0, &a);
		bb_image_free(a);
		a = NULL;
		sa = bb_png_read_mem(m, n, "d.png", &a, &ea);
		sb = bb__png_read_libpng(m, n, "d.png", &b, &eb);
		ck_assert_msg(sa == sb, "round %d: status %d, libpng %d", round, sa, sb);
		if (sa == BB_OK)
			ck_assert_msg(same_pixels(a, b), "round %d: pixels differ", round);
		else
			ck_assert_str_eq(ea.message, eb.message);
		errors += sa != BB_OK;
		bb_image_free(a);
		bb_image_free(b);
	}
	/* both outcomes were met: the test reached the fast path and libpng */
	ck_assert_int_gt(fast_ok, 100);
	ck_assert_int_gt(errors, 100);
	free(m);
	free(f.d);
	free(px);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("png");
	TCase *tc = tcase_create("encoder");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_level_filter_shape);
	tcase_add_test(tc, defaults_and_one_shot);
	tcase_add_test(tc, reuse_is_byte_identical);
	tcase_add_test(tc, wide_stride);
	tcase_add_test(tc, split_idat);
	tcase_add_test(tc, bad_options_and_images);
	tcase_add_test(tc, levels_order_sizes);
	suite_add_tcase(s, tc);
	tc = tcase_create("fast");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fast_paths_identical);
	tcase_add_test(tc, fast_path_choice);
	tcase_add_test(tc, fast_path_size);
	suite_add_tcase(s, tc);
	tc = tcase_create("reader");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fast_path_reads_common_files);
	tcase_add_test(tc, fast_path_rgb_keeps_pixels_only);
	tcase_add_test(tc, fast_path_leaves_the_rest_to_libpng);
	tcase_add_test(tc, damaged_files_get_libpngs_verdict);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
