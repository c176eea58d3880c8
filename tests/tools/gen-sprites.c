/* gen-sprites OUTDIR [COUNT]: writes a fixed, varied set of sprite PNGs for
 * the pack tests and scripts/bench-pack: animations named <anim>_NNNN.png
 * (a spinning coin, a squashing slime, a flickering flame, a long bar that
 * only packs well rotated, sparse sparks that trim to little, an idle loop
 * with repeated frames for dedupe) and loose icons of many sizes up to
 * COUNT files in all (default 300), a few fully transparent.  The same
 * arguments always give the same bytes. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"

static unsigned rng_state = 12345;

static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return ((rng_state >> 8) & 0xffffff) % n;
}

static void put(bb_image *img, int x, int y, const uint8_t c[4], int a)
{
	uint8_t *p;

	if (x < 0 || y < 0 || x >= img->width || y >= img->height || a <= 0)
		return;
	p = bb_image_pixel(img, x, y);
	p[0] = c[0];
	p[1] = (uint8_t)(c[1] ^ (x * 4));
	p[2] = (uint8_t)(c[2] ^ (y * 4));
	p[3] = (uint8_t)(a > 255 ? 255 : a);
}

/* A filled ellipse with a soft one-pixel edge. */
static void ellipse(bb_image *img, double cx, double cy, double rx, double ry,
                    const uint8_t c[4])
{
	int x, y;

	if (rx < 0.5 || ry < 0.5)
		return;
	for (y = (int)(cy - ry) - 1; y <= (int)(cy + ry) + 1; y++)
		for (x = (int)(cx - rx) - 1; x <= (int)(cx + rx) + 1; x++) {
			double dx = (x + 0.5 - cx) / rx, dy = (y + 0.5 - cy) / ry;
			double d = sqrt(dx * dx + dy * dy);
			double edge = (1.0 - d) * (rx < ry ? rx : ry);

			if (edge > 0)
				put(img, x, y, c, edge >= 1 ? c[3] : (int)(c[3] * edge));
		}
}

static void rect(bb_image *img, int x0, int y0, int w, int h, const uint8_t c[4])
{
	int x, y;

	for (y = y0; y < y0 + h; y++)
		for (x = x0; x < x0 + w; x++)
			put(img, x, y, c, c[3]);
}

static bb_image *canvas(int w, int h)
{
	bb_image *img = NULL;

	if (bb_image_new(w, h, &img, NULL) != BB_OK) {
		fprintf(stderr, "gen-sprites: out of memory\n");
		exit(1);
	}
	return img;
}

static void save(const char *dir, const char *name, const bb_image *img)
{
	char path[4096];
	bb_error err;

	snprintf(path, sizeof path, "%s/%s.png", dir, name);
	if (bb_png_write(path, img, &err) != BB_OK) {
		fprintf(stderr, "gen-sprites: %s: %s\n", path, err.message);
		exit(1);
	}
}

static void frame_name(char *buf, size_t size, const char *anim, int i)
{
	snprintf(buf, size, "%s_%04d", anim, i);
}

static int animations(const char *dir)
{
	static const uint8_t gold[4] = { 240, 190, 40, 255 };
	static const uint8_t green[4] = { 60, 200, 90, 230 };
	static const uint8_t fire[4] = { 250, 120, 20, 255 };
	static const uint8_t steel[4] = { 150, 160, 180, 255 };
	static const uint8_t spark[4] = { 255, 255, 160, 255 };
	char name[64];
	int i, k, n = 0;

	for (i = 0; i < 12; i++, n++) {      /* coin: 32x32, width varies */
		bb_image *img = canvas(32, 32);

		ellipse(img, 16, 16, 1 + 14 * fabs(cos(i * M_PI / 12)), 14, gold);
		frame_name(name, sizeof name, "coin", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	for (i = 0; i < 8; i++, n++) {       /* slime: squashes, origin bottom */
		bb_image *img = canvas(64, 48);
		double s = sin(i * M_PI / 4);

		ellipse(img, 32, 47 - (14 - 4 * s), 20 + 6 * s, 14 - 4 * s, green);
		frame_name(name, sizeof name, "slime", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	for (i = 0; i < 10; i++, n++) {      /* flame: tall, flickers */
		bb_image *img = canvas(24, 56);
		int hgt = 30 + (int)rnd(24);

		ellipse(img, 12, 55 - hgt / 2.0, 6 + rnd(5), hgt / 2.0, fire);
		frame_name(name, sizeof name, "flame", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	for (i = 0; i < 6; i++, n++) {       /* bar: long and thin */
		bb_image *img = canvas(160, 20);

		rect(img, 4, 4, 100 + 8 * i, 10, steel);
		frame_name(name, sizeof name, "bar", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	for (i = 0; i < 8; i++, n++) {       /* spark: few dots on a big canvas */
		bb_image *img = canvas(96, 96);

		for (k = 0; k < 3 + i; k++)
			ellipse(img, 48 + (rnd(30) - 15.0) * i / 4, 48 + (rnd(30) - 15.0) * i / 4,
			        1.5 + rnd(3), 1.5 + rnd(3), spark);
		frame_name(name, sizeof name, "spark", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	for (i = 0; i < 6; i++, n++) {       /* idle: frames 3, 4, 5 repeat 0, 1, 2 */
		bb_image *img = canvas(40, 40);

		ellipse(img, 20, 22 - (i % 3), 12, 14, steel);
		frame_name(name, sizeof name, "idle", i);
		save(dir, name, img);
		bb_image_free(img);
	}
	return n;
}

int main(int argc, char **argv)
{
	int count = argc > 2 ? atoi(argv[2]) : 300, n, i;

	if (argc < 2 || argc > 3 || count < 0 || count > 100000) {
		fprintf(stderr, "usage: gen-sprites OUTDIR [COUNT]\n");
		return 2;
	}
	n = animations(argv[1]);
	for (i = 0; n < count; i++, n++) {
		int w = 8 + (int)rnd(rnd(4) == 0 ? 120 : 48);
		int h = 8 + (int)rnd(rnd(4) == 0 ? 120 : 48);
		bb_image *img = canvas(w, h);
		uint8_t c[4] = { (uint8_t)rnd(256), (uint8_t)rnd(256),
		                 (uint8_t)rnd(256), (uint8_t)(128 + rnd(128)) };
		char name[64];

		if (i % 50 != 7) {       /* every 50th icon stays empty */
			int m = (int)rnd(4);

			if (rnd(2))
				ellipse(img, w / 2.0, h / 2.0, w / 2.0 - m, h / 2.0 - m, c);
			else
				rect(img, m, m, w - 2 * m, h - 2 * m, c);
		}
		snprintf(name, sizeof name, "icon%03d", i);
		save(argv[1], name, img);
		bb_image_free(img);
	}
	return 0;
}
