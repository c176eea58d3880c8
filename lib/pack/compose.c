/* Pixel work for sprite sheets: trimming, identity of sprites, copying
 * (turned, extruded) onto pages, colour bleeding.  Images are straight
 * RGBA8 (bonebake/image.h); --premultiply pages are premultiplied by
 * bb_image_premultiply once drawn. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/pack-int.h"

void bb_pack_trim(const bb_image *img, int alpha_max, int *x, int *y, int *w,
                  int *h)
{
	int x0 = img->width, y0 = img->height, x1 = -1, y1 = -1, py;

	/* per row: the first visible pixel from the left, the last from the
	 * right; only the transparent margins are read */
	for (py = 0; py < img->height; py++) {
		const uint8_t *p = bb_image_pixel(img, 0, py);
		int l = 0, r = img->width - 1;

		while (l < img->width && p[4 * l + 3] <= alpha_max)
			l++;
		if (l == img->width)
			continue;
		while (p[4 * r + 3] <= alpha_max)
			r--;
		if (l < x0)
			x0 = l;
		if (r > x1)
			x1 = r;
		if (py < y0)
			y0 = py;
		y1 = py;
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

/* 64-bit multiply-xorshift over the bytes, eight at a time (four lanes,
 * so the multiplications overlap).  Only equal hashes are compared byte
 * for byte, so the function only has to spread; the value is never
 * written anywhere. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static uint64_t hash_bytes(uint64_t hv, const uint8_t *p, size_t n)
{
	uint64_t a = hv, b = hv ^ 1, c = hv ^ 2, d = hv ^ 3, v;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		uint64_t w[4];

		memcpy(w, p + i, sizeof w);
		a = mix(a, w[0]);
		b = mix(b, w[1]);
		c = mix(c, w[2]);
		d = mix(d, w[3]);
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&v, p + i, 8);
		a = mix(a, v);
	}
	if (i < n) {
		v = 0;
		memcpy(&v, p + i, n - i);
		b = mix(b, v ^ ((uint64_t)(n - i) << 56));
	}
	return mix(mix(mix(a, b), c), d);
}

uint64_t bb__pack_hash(const bb_image *img, int x, int y, int w, int h)
{
	uint64_t hv = mix(14695981039346656037ULL,
	                  (uint64_t)(uint32_t)w << 32 | (uint32_t)h);
	int row;

	for (row = 0; row < h; row++)
		hv = hash_bytes(hv, bb_image_pixel(img, x, y + row), (size_t)w * 4);
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
	if (rot == BB_PACK_ROTATE_NONE) {
		/* rows: the edge pixel repeated, the row, the edge pixel again */
		for (cy = 0; cy < ch; cy++) {
			const uint8_t *row = bb_image_pixel(src, sx,
			                                    sy + clampi(cy - extrude, 0, h - 1));
			uint8_t *d = bb_image_pixel(page, px, py + cy);

			for (cx = 0; cx < extrude; cx++)
				memcpy(d + 4 * cx, row, 4);
			memcpy(d + 4 * extrude, row, (size_t)w * 4);
			for (cx = extrude + w; cx < cw; cx++)
				memcpy(d + 4 * cx, row + 4 * (w - 1), 4);
		}
		return;
	}
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
