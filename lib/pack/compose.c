/* Pixel work for sprite sheets: trimming, identity of sprites, copying
 * (turned, extruded) onto pages, colour bleeding and premultiplication.
 * Images are straight RGBA8 (bonebake/image.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/pack-int.h"

void bb__pack_trim(const bb_image *img, int alpha_max, int *x, int *y,
                   int *w, int *h)
{
	int x0 = img->width, y0 = img->height, x1 = -1, y1 = -1, px, py;

	for (py = 0; py < img->height; py++) {
		const uint8_t *p = bb_image_pixel(img, 0, py);
		int row_any = 0;

		for (px = 0; px < img->width; px++, p += 4) {
			if (p[3] <= alpha_max)
				continue;
			row_any = 1;
			if (px < x0)
				x0 = px;
			if (px > x1)
				x1 = px;
		}
		if (row_any) {
			if (py < y0)
				y0 = py;
			y1 = py;
		}
	}
	if (x1 < 0) {
		*x = *y = *w = *h = 0;
		return;
	}
	*x = x0;
	*y = y0;
	*w = x1 - x0 + 1;
	*h = y1 - y0 + 1;
}

static uint64_t fnv(uint64_t hv, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		hv ^= p[i];
		hv *= 1099511628211ULL;
	}
	return hv;
}

uint64_t bb__pack_hash(const bb_image *img, int x, int y, int w, int h)
{
	uint64_t hv = 14695981039346656037ULL;
	uint8_t size[8];
	int row;

	size[0] = (uint8_t)w;
	size[1] = (uint8_t)(w >> 8);
	size[2] = (uint8_t)(w >> 16);
	size[3] = (uint8_t)(w >> 24);
	size[4] = (uint8_t)h;
	size[5] = (uint8_t)(h >> 8);
	size[6] = (uint8_t)(h >> 16);
	size[7] = (uint8_t)(h >> 24);
	hv = fnv(hv, size, sizeof size);
	for (row = 0; row < h; row++)
		hv = fnv(hv, bb_image_pixel(img, x, y + row), (size_t)w * 4);
	return hv;
}

int bb__pack_same(const bb_image *a, int ax, int ay, const bb_image *b,
                  int bx, int by, int w, int h)
{
	int row;

	for (row = 0; row < h; row++)
		if (memcmp(bb_image_pixel(a, ax, ay + row),
		           bb_image_pixel(b, bx, by + row), (size_t)w * 4) != 0)
			return 0;
	return 1;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void bb__pack_blit(bb_image *page, int px, int py, const bb_image *src,
                   int sx, int sy, int w, int h, int extrude,
                   bb_pack_rotation rot)
{
	int cw = w + 2 * extrude, ch = h + 2 * extrude, cx, cy;

	if (!src)
		return;
	for (cy = 0; cy < ch; cy++) {
		const uint8_t *row = bb_image_pixel(src, sx,
		                                    sy + clampi(cy - extrude, 0, h - 1));

		for (cx = 0; cx < cw; cx++) {
			const uint8_t *s = row + (size_t)clampi(cx - extrude, 0, w - 1) * 4;
			int dx, dy;

			switch (rot) {
			case BB_PACK_ROTATE_CW:     /* top-left corner goes top-right */
				dx = ch - 1 - cy;
				dy = cx;
				break;
			case BB_PACK_ROTATE_CCW:    /* top-left corner goes bottom-left */
				dx = cy;
				dy = cw - 1 - cx;
				break;
			case BB_PACK_ROTATE_NONE:
			default:
				dx = cx;
				dy = cy;
				break;
			}
			memcpy(bb_image_pixel(page, px + dx, py + dy), s, 4);
		}
	}
}

/* Breadth-first from the visible pixels: each transparent pixel takes the
 * mean colour of its 8 neighbours already coloured in an earlier ring, so
 * the result does not depend on scan order. */
int bb__pack_bleed(bb_image *page)
{
	static const int dx[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
	static const int dy[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
	size_t npx = (size_t)page->width * (size_t)page->height;
	uint8_t *state = calloc(npx ? npx : 1, 1);   /* 0 free, 1 coloured, 2 queued */
	size_t *queue = bb__calloc(npx, sizeof *queue);
	size_t head = 0, tail = 0, ring_end, q;
	int x, y, k;

	if (!state || !queue) {
		free(state);
		free(queue);
		return 0;
	}
	for (y = 0; y < page->height; y++)
		for (x = 0; x < page->width; x++)
			if (bb_image_pixel(page, x, y)[3] > 0)
				state[(size_t)y * page->width + x] = 1;
	for (y = 0; y < page->height; y++)
		for (x = 0; x < page->width; x++) {
			size_t i = (size_t)y * page->width + x;

			if (state[i] != 0)
				continue;
			for (k = 0; k < 8; k++) {
				int nx = x + dx[k], ny = y + dy[k];

				if (nx >= 0 && ny >= 0 && nx < page->width &&
				    ny < page->height &&
				    state[(size_t)ny * page->width + nx] == 1) {
					state[i] = 2;
					queue[tail++] = i;
					break;
				}
			}
		}
	while (head < tail) {
		ring_end = tail;
		for (q = head; q < ring_end; q++) {
			unsigned sum[3] = { 0, 0, 0 }, cnt = 0;
			uint8_t *p;

			x = (int)(queue[q] % (size_t)page->width);
			y = (int)(queue[q] / (size_t)page->width);
			for (k = 0; k < 8; k++) {
				int nx = x + dx[k], ny = y + dy[k];
				const uint8_t *n;

				if (nx < 0 || ny < 0 || nx >= page->width ||
				    ny >= page->height ||
				    state[(size_t)ny * page->width + nx] != 1)
					continue;
				n = bb_image_pixel(page, nx, ny);
				sum[0] += n[0];
				sum[1] += n[1];
				sum[2] += n[2];
				cnt++;
			}
			p = bb_image_pixel(page, x, y);
			if (cnt) {
				p[0] = (uint8_t)((sum[0] + cnt / 2) / cnt);
				p[1] = (uint8_t)((sum[1] + cnt / 2) / cnt);
				p[2] = (uint8_t)((sum[2] + cnt / 2) / cnt);
			}
		}
		for (q = head; q < ring_end; q++)
			state[queue[q]] = 1;
		for (q = head; q < ring_end; q++) {
			x = (int)(queue[q] % (size_t)page->width);
			y = (int)(queue[q] / (size_t)page->width);
			for (k = 0; k < 8; k++) {
				int nx = x + dx[k], ny = y + dy[k];
				size_t ni;

				if (nx < 0 || ny < 0 || nx >= page->width ||
				    ny >= page->height)
					continue;
				ni = (size_t)ny * page->width + nx;
				if (state[ni] == 0) {
					state[ni] = 2;
					queue[tail++] = ni;
				}
			}
		}
		head = ring_end;
	}
	free(state);
	free(queue);
	return 1;
}

void bb__pack_premultiply(bb_image *page)
{
	int x, y;

	for (y = 0; y < page->height; y++) {
		uint8_t *p = bb_image_pixel(page, 0, y);

		for (x = 0; x < page->width; x++, p += 4) {
			unsigned a = p[3];

			p[0] = (uint8_t)((p[0] * a + 127) / 255);
			p[1] = (uint8_t)((p[1] * a + 127) / 255);
			p[2] = (uint8_t)((p[2] * a + 127) / 255);
		}
	}
}
