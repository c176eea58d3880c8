/* Texture regions as cairo surfaces, kept per renderer across frames.
 *
 * An item samples one rectangle of its texture page (its texture
 * coordinates' bounds, edges clamped so neighbouring atlas regions never
 * bleed in).  Each rectangle is converted to premultiplied ARGB32 once, on
 * first use, into a surface of its own: sampling it with EXTEND_PAD gives
 * the same pixels as a sub-surface of the whole page, which cairo would
 * otherwise copy for every fill that reaches its edges.  Pages are never
 * converted whole, only what is drawn.
 *
 * Level n > 0 of a rectangle is level n - 1 halved (2x2 box average of
 * premultiplied pixels, an odd last row or column averaged on its own),
 * for textures drawn at 1/2^n of their size or less (BB_FILTER_GOOD).
 *
 * The cache holds at most BB_TEXCACHE_BYTES; past that, surfaces are made
 * for one use and dropped (same pixels, more work). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "raster/raster.h"

enum { BB_TEXCACHE_BYTES = 128 << 20 };

struct bb__region {
	const bb_image *img;
	int x, y, w, h, level;
	cairo_surface_t *surf;   /* NULL: free slot */
};

static size_t region_hash(const bb_image *img, int x, int y, int w, int h,
                          int level)
{
	uint64_t v = (uint64_t)(uintptr_t)img;

	v = (v ^ (uint64_t)(unsigned)x) * 0x100000001b3u;
	v = (v ^ (uint64_t)(unsigned)y) * 0x100000001b3u;
	v = (v ^ (uint64_t)(unsigned)w) * 0x100000001b3u;
	v = (v ^ (uint64_t)(unsigned)h) * 0x100000001b3u;
	v = (v ^ (uint64_t)(unsigned)level) * 0x100000001b3u;
	return (size_t)(v ^ (v >> 29));
}

static struct bb__region *slot_for(struct bb__region *tab, size_t cap,
                                   const bb_image *img, int x, int y, int w,
                                   int h, int level)
{
	size_t i = region_hash(img, x, y, w, h, level) & (cap - 1);

	for (;; i = (i + 1) & (cap - 1)) {
		struct bb__region *e = &tab[i];

		if (!e->surf || (e->img == img && e->x == x && e->y == y &&
		                 e->w == w && e->h == h && e->level == level))
			return e;
	}
}

void bb__texcache_free(bb_renderer *r)
{
	size_t i;

	for (i = 0; i < r->region_cap; i++)
		cairo_surface_destroy(r->regions[i].surf);
	free(r->regions);
	r->regions = NULL;
	r->region_cap = r->nregions = r->region_bytes = 0;
}

/* Room for one more entry (the table stays at most half full). */
static int reserve(bb_renderer *r)
{
	struct bb__region *tab;
	size_t cap, i;

	if (2 * (r->nregions + 1) <= r->region_cap)
		return 1;
	cap = r->region_cap ? 2 * r->region_cap : 64;
	tab = bb__calloc(cap, sizeof *tab);
	if (!tab)
		return 0;
	for (i = 0; i < r->region_cap; i++) {
		const struct bb__region *e = &r->regions[i];

		if (e->surf)
			*slot_for(tab, cap, e->img, e->x, e->y, e->w, e->h, e->level) = *e;
	}
	free(r->regions);
	r->regions = tab;
	r->region_cap = cap;
	return 1;
}

static cairo_surface_t *new_argb(int w, int h)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);

	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return NULL;
	}
	cairo_surface_flush(s);
	return s;
}

/* Rectangle (x, y, w, h) of img, premultiplied. */
static cairo_surface_t *convert_region(const bb_image *img, int premultiplied,
                                       int x0, int y0, int w, int h)
{
	cairo_surface_t *s = new_argb(w, h);
	unsigned char *data;
	int stride, x, y;

	if (!s)
		return NULL;
	data = cairo_image_surface_get_data(s);
	stride = cairo_image_surface_get_stride(s);
	if (!premultiplied) {
		bb_image view = { w, h, img->stride, bb_image_pixel(img, x0, y0) };

		bb_image_to_premul_argb32(&view, data, (size_t)stride);
	} else {
		/* already premultiplied RGBA: reorder only */
		for (y = 0; y < h; y++) {
			const uint8_t *in = bb_image_pixel(img, x0, y0 + y);
			uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

			for (x = 0; x < w; x++, in += 4) {
				unsigned a = in[3];
				unsigned r = in[0] > a ? a : in[0], g = in[1] > a ? a : in[1],
				         b = in[2] > a ? a : in[2];

				row[x] = (uint32_t)a << 24 | r << 16 | g << 8 | b;
			}
		}
	}
	cairo_surface_mark_dirty(s);
	return s;
}

/* src halved: each pixel the rounded mean of the (up to 4) it covers. */
static cairo_surface_t *halve(cairo_surface_t *src)
{
	int sw = cairo_image_surface_get_width(src);
	int sh = cairo_image_surface_get_height(src);
	int w = (sw + 1) / 2, h = (sh + 1) / 2, x, y, k;
	cairo_surface_t *s = new_argb(w, h);
	const unsigned char *sd = cairo_image_surface_get_data(src);
	int ss = cairo_image_surface_get_stride(src), ds;
	unsigned char *dd;

	if (!s)
		return NULL;
	dd = cairo_image_surface_get_data(s);
	ds = cairo_image_surface_get_stride(s);
	for (y = 0; y < h; y++) {
		const uint32_t *r0 = (const uint32_t *)(sd + (size_t)(2 * y) * ss);
		const uint32_t *r1 = 2 * y + 1 < sh
		                     ? (const uint32_t *)(sd + (size_t)(2 * y + 1) * ss) : NULL;
		uint32_t *out = (uint32_t *)(dd + (size_t)y * ds);

		for (x = 0; x < w; x++) {
			int x1 = 2 * x + 1 < sw ? 2 * x + 1 : -1;
			uint32_t px[4], o = 0;
			int n = 0;

			px[n++] = r0[2 * x];
			if (x1 >= 0)
				px[n++] = r0[x1];
			if (r1) {
				px[n++] = r1[2 * x];
				if (x1 >= 0)
					px[n++] = r1[x1];
			}
			for (k = 0; k < 32; k += 8) {
				unsigned sum = 0;
				int i;

				for (i = 0; i < n; i++)
					sum += (px[i] >> k) & 255;
				o |= (uint32_t)((sum + (unsigned)n / 2) / (unsigned)n) << k;
			}
			out[x] = o;
		}
	}
	cairo_surface_mark_dirty(s);
	return s;
}

cairo_surface_t *bb__raster_region(bb_renderer *r, const bb_image *img,
                                   int premultiplied, int x, int y, int w,
                                   int h, int level)
{
	struct bb__region *e = NULL;
	cairo_surface_t *s, *below;
	size_t bytes;

	if (r->region_cap) {
		e = slot_for(r->regions, r->region_cap, img, x, y, w, h, level);
		if (e->surf)
			return cairo_surface_reference(e->surf);
	}
	if (level == 0) {
		s = convert_region(img, premultiplied, x, y, w, h);
	} else {
		below = bb__raster_region(r, img, premultiplied, x, y, w, h, level - 1);
		s = below ? halve(below) : NULL;
		cairo_surface_destroy(below);
	}
	if (!s)
		return NULL;
	bytes = (size_t)cairo_image_surface_get_stride(s) *
	        (size_t)cairo_image_surface_get_height(s);
	if (r->region_bytes + bytes > BB_TEXCACHE_BYTES || !reserve(r))
		return s;   /* for this use only */
	e = slot_for(r->regions, r->region_cap, img, x, y, w, h, level);
	e->img = img;
	e->x = x;
	e->y = y;
	e->w = w;
	e->h = h;
	e->level = level;
	e->surf = cairo_surface_reference(s);
	r->nregions++;
	r->region_bytes += bytes;
	return s;
}
