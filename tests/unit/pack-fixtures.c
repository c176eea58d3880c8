/* Test images and checks shared by the pack tests. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pack-fixtures.h"

unsigned fx_rand(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 8) & 0xffffff;
}

bb_image *fx_frame(int w, int h, unsigned seed, int x0, int y0, int x1, int y1)
{
	bb_image *img = NULL;
	int x, y;

	if (bb_image_new(w, h, &img, NULL) != BB_OK)
		return NULL;
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			uint8_t *p = bb_image_pixel(img, x, y);
			int corner = (x == x0 || x == x1) && (y == y0 || y == y1);

			if (corner && x1 > x0 && y1 > y0)
				continue;
			p[0] = (uint8_t)(x * 7 + seed * 13);
			p[1] = (uint8_t)(y * 11 + seed * 5);
			p[2] = (uint8_t)(x * y + seed);
			p[3] = (uint8_t)(40 + (x * 3 + y * 5 + seed) % 216);
		}
	return img;
}

bb_image *fx_random_frame(int w, int h, unsigned seed)
{
	unsigned st = seed * 2654435761u + 1;
	int x0 = (int)(fx_rand(&st) % (unsigned)w);
	int y0 = (int)(fx_rand(&st) % (unsigned)h);
	int x1 = x0 + (int)(fx_rand(&st) % (unsigned)(w - x0));
	int y1 = y0 + (int)(fx_rand(&st) % (unsigned)(h - y0));

	return fx_frame(w, h, seed, x0, y0, x1, y1);
}

bb_image *fx_reassemble(const bb_image *page, int x, int y, int w, int h,
                        int turned, int src_x, int src_y, int src_w,
                        int src_h)
{
	bb_image *out = NULL;
	int u, v;

	if (bb_image_new(src_w, src_h, &out, NULL) != BB_OK)
		return NULL;
	for (v = 0; v < h; v++)
		for (u = 0; u < w; u++) {
			int px, py;

			if (turned == 1) {
				px = x + h - 1 - v;
				py = y + u;
			} else if (turned == 2) {
				px = x + v;
				py = y + w - 1 - u;
			} else {
				px = x + u;
				py = y + v;
			}
			if (px < 0 || py < 0 || px >= page->width || py >= page->height ||
			    src_x + u >= src_w || src_y + v >= src_h) {
				bb_image_free(out);
				return NULL;
			}
			memcpy(bb_image_pixel(out, src_x + u, src_y + v),
			       bb_image_pixel(page, px, py), 4);
		}
	return out;
}

int fx_same(const bb_image *a, const bb_image *b)
{
	int y;

	if (!a || !b || a->width != b->width || a->height != b->height)
		return 0;
	for (y = 0; y < a->height; y++)
		if (memcmp(bb_image_pixel(a, 0, y), bb_image_pixel(b, 0, y),
		           (size_t)a->width * 4) != 0)
			return 0;
	return 1;
}
