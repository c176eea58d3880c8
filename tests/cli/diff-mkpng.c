/* diff-mkpng: writes small constructed PNGs for the diff CLI tests and the
 * bench.  Operations run in order on a W x H canvas (transparent at first):
 *
 *   fill RRGGBBAA            every pixel
 *   px X Y RRGGBBAA          one pixel
 *   rect X Y W H RRGGBBAA    a rectangle (clipped)
 *   disc CX CY R RRGGBBAA    an anti-aliased disc (4x4 supersampled coverage)
 *   scene SEED               a render-like picture: gradient and discs
 *   noise SEED PALETTE ALPHA random pixels from PALETTE colours (ALPHA 1:
 *                            random alpha too), for comparison fuzzing
 *   perturb SEED N           changes N random pixels by random amounts
 *
 * usage: diff-mkpng OUT.png W H [OP ARGS...]...
 *        diff-mkpng --decode FILE...   (decodes only: the bench's baseline) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

static void seed(const char *s)
{
	rng_state = strtoull(s, NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
}

static uint32_t color(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 16);

	if (strlen(s) != 8 || *end) {
		fprintf(stderr, "diff-mkpng: bad colour '%s' (RRGGBBAA)\n", s);
		exit(2);
	}
	return (uint32_t)v;
}

static void put(bb_image *img, int x, int y, uint32_t c)
{
	uint8_t *p;

	if (x < 0 || y < 0 || x >= img->width || y >= img->height)
		return;
	p = bb_image_pixel(img, x, y);
	p[0] = (uint8_t)(c >> 24);
	p[1] = (uint8_t)(c >> 16);
	p[2] = (uint8_t)(c >> 8);
	p[3] = (uint8_t)c;
}

/* Source-over of straight colour c with extra coverage cov (0..16). */
static void blend(bb_image *img, int x, int y, uint32_t c, int cov)
{
	uint8_t *p = bb_image_pixel(img, x, y);
	unsigned sa = (c & 0xff) * (unsigned)cov / 16, da = p[3], oa, i;
	uint8_t src[3] = { (uint8_t)(c >> 24), (uint8_t)(c >> 16),
	                   (uint8_t)(c >> 8) };

	oa = sa + da * (255 - sa) / 255;
	if (oa == 0)
		return;
	for (i = 0; i < 3; i++)
		p[i] = (uint8_t)((src[i] * sa + p[i] * da * (255 - sa) / 255) / oa);
	p[3] = (uint8_t)oa;
}

static void disc(bb_image *img, double cx, double cy, double r, uint32_t c)
{
	int x0 = (int)(cx - r) - 1, x1 = (int)(cx + r) + 1;
	int y0 = (int)(cy - r) - 1, y1 = (int)(cy + r) + 1, x, y, i, j;

	if (x0 < 0) x0 = 0;
	if (y0 < 0) y0 = 0;
	if (x1 >= img->width) x1 = img->width - 1;
	if (y1 >= img->height) y1 = img->height - 1;
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			int cov = 0;

			for (j = 0; j < 4; j++)
				for (i = 0; i < 4; i++) {
					double dx = x + (i + 0.5) / 4 - cx;
					double dy = y + (j + 0.5) / 4 - cy;

					cov += dx * dx + dy * dy <= r * r;
				}
			if (cov)
				blend(img, x, y, c, cov);
		}
}

static void scene(bb_image *img)
{
	int x, y, n, i;

	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++) {
			unsigned g = (unsigned)(y * 160 / img->height);

			put(img, x, y, (uint32_t)(40 + g / 2) << 24 |
			               (uint32_t)(60 + g / 2) << 16 |
			               (uint32_t)(90 + g) << 8 | 0xff);
		}
	n = 12 + (int)(rnd() % 20);
	for (i = 0; i < n; i++) {
		double side = img->width < img->height ? img->width : img->height;
		double r = side * (0.02 + (rnd() % 1000) / 1000.0 * 0.12);

		disc(img, rnd() % (unsigned)img->width, rnd() % (unsigned)img->height,
		     r, rnd() | 0xff);
	}
}

static void noise(bb_image *img, int palette, int alpha)
{
	uint32_t pal[256];
	int x, y, i;

	if (palette < 1 || palette > 256)
		palette = 16;
	for (i = 0; i < palette; i++)
		pal[i] = rnd() | (alpha ? 0 : 0xff);
	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++)
			put(img, x, y, pal[rnd() % (unsigned)palette]);
}

static void perturb(bb_image *img, long n, int alpha_img)
{
	long i;

	for (i = 0; i < n; i++) {
		int x = (int)(rnd() % (unsigned)img->width);
		int y = (int)(rnd() % (unsigned)img->height);
		uint8_t *p = bb_image_pixel(img, x, y);
		int ch = (int)(rnd() % (alpha_img ? 4 : 3));
		int d = (int)(rnd() % 256) - 128;
		int v = p[ch] + d;

		p[ch] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
	}
}

static void need(int argc, int i, int n, const char *op)
{
	if (i + n >= argc) {
		fprintf(stderr, "diff-mkpng: %s needs %d arguments\n", op, n);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	bb_image *img = NULL;
	bb_error err;
	int i, has_alpha = 0;

	if (argc >= 2 && strcmp(argv[1], "--decode") == 0) {
		for (i = 2; i < argc; i++) {
			if (bb_png_read(argv[i], &img, &err) != BB_OK) {
				fprintf(stderr, "diff-mkpng: %s: %s\n", argv[i], err.message);
				return 1;
			}
			bb_image_free(img);
		}
		return 0;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: diff-mkpng OUT.png W H [OP ARGS...]...\n");
		return 2;
	}
	if (bb_image_new(atoi(argv[2]), atoi(argv[3]), &img, &err) != BB_OK) {
		fprintf(stderr, "diff-mkpng: %s\n", err.message);
		return 2;
	}
	for (i = 4; i < argc; i++) {
		const char *op = argv[i];

		if (strcmp(op, "fill") == 0) {
			uint32_t c;
			int x, y;

			need(argc, i, 1, op);
			c = color(argv[++i]);
			for (y = 0; y < img->height; y++)
				for (x = 0; x < img->width; x++)
					put(img, x, y, c);
		} else if (strcmp(op, "px") == 0) {
			need(argc, i, 3, op);
			put(img, atoi(argv[i + 1]), atoi(argv[i + 2]), color(argv[i + 3]));
			i += 3;
		} else if (strcmp(op, "rect") == 0) {
			int x, y, rx, ry, rw, rh;
			uint32_t c;

			need(argc, i, 5, op);
			rx = atoi(argv[i + 1]);
			ry = atoi(argv[i + 2]);
			rw = atoi(argv[i + 3]);
			rh = atoi(argv[i + 4]);
			c = color(argv[i + 5]);
			for (y = ry; y < ry + rh; y++)
				for (x = rx; x < rx + rw; x++)
					put(img, x, y, c);
			i += 5;
		} else if (strcmp(op, "disc") == 0) {
			need(argc, i, 4, op);
			disc(img, atof(argv[i + 1]), atof(argv[i + 2]),
			     atof(argv[i + 3]), color(argv[i + 4]));
			i += 4;
		} else if (strcmp(op, "scene") == 0) {
			need(argc, i, 1, op);
			seed(argv[++i]);
			scene(img);
		} else if (strcmp(op, "noise") == 0) {
			need(argc, i, 3, op);
			seed(argv[i + 1]);
			has_alpha = atoi(argv[i + 3]);
			noise(img, atoi(argv[i + 2]), has_alpha);
			i += 3;
		} else if (strcmp(op, "perturb") == 0) {
			need(argc, i, 2, op);
			seed(argv[i + 1]);
			perturb(img, atol(argv[i + 2]), has_alpha);
			i += 2;
		} else {
			fprintf(stderr, "diff-mkpng: unknown operation '%s'\n", op);
			return 2;
		}
	}
	if (bb_png_write(argv[1], img, &err) != BB_OK) {
		fprintf(stderr, "diff-mkpng: %s: %s\n", argv[1], err.message);
		return 1;
	}
	bb_image_free(img);
	return 0;
}
