/* Texture regions as cairo surfaces, kept per renderer across frames.
 *
 * An item samples one rectangle of its texture page (its texture
 * coordinates' bounds, edges clamped so neighbouring atlas regions never
 * bleed in), as an image surface of its own: sampling it with EXTEND_PAD
 * gives the same pixels as a sub-surface of the whole page, which cairo
 * would otherwise copy for every fill that reaches its edges.  A model's
 * textures are in cairo's ARGB32 already (converted as they were decoded),
 * so that surface lies over the page's own pixels, made by each renderer
 * for itself, without a copy or a lock; an image in another layout (a
 * caller's own) has the rectangle copied into cairo's order once, on
 * first use.
 *
 * Level n > 0 of a rectangle is level n - 1 halved (2x2 box average of
 * premultiplied pixels, an odd last row or column averaged on its own),
 * for textures drawn at 1/2^n of their size or less (BB_FILTER_GOOD).
 *
 * A renderer's own cache holds at most BB_TEXCACHE_BYTES; past that,
 * surfaces are made for one use and dropped (same pixels, more work).
 *
 * Renderers on several threads share one bb_texcache (bb_renderer_share),
 * so a region is converted once and its pixels held once whatever the
 * number of threads: under the cache's lock a region is looked up or made,
 * and each renderer draws from a cairo surface of its own over those
 * pixels (cairo surfaces and pixman images are not shared between
 * threads, only the memory they read, which nothing writes once made). */
#include "config.h"

#include <pthread.h>
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

struct bb_texcache {
	pthread_mutex_t lock;
	struct bb__regions t;
	size_t max_bytes;
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

/* The region's surface in t, or NULL. */
static cairo_surface_t *find(const struct bb__regions *t, const bb_image *img,
                             int x, int y, int w, int h, int level)
{
	return t->cap ? slot_for(t->v, t->cap, img, x, y, w, h, level)->surf : NULL;
}

static void regions_free(struct bb__regions *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		cairo_surface_destroy(t->v[i].surf);
	free(t->v);
	memset(t, 0, sizeof *t);
}

/* Room for one more entry (the table stays at most half full). */
static int reserve(struct bb__regions *t)
{
	struct bb__region *tab;
	size_t cap, i;

	if (2 * (t->n + 1) <= t->cap)
		return 1;
	cap = t->cap ? 2 * t->cap : 64;
	tab = bb__calloc(cap, sizeof *tab);
	if (!tab)
		return 0;
	for (i = 0; i < t->cap; i++) {
		const struct bb__region *e = &t->v[i];

		if (e->surf)
			*slot_for(tab, cap, e->img, e->x, e->y, e->w, e->h, e->level) = *e;
	}
	free(t->v);
	t->v = tab;
	t->cap = cap;
	return 1;
}

/* Keeps a reference to s in t as the region given, counting `bytes`;
 * 0 when out of memory (s is then not kept). */
static int keep(struct bb__regions *t, cairo_surface_t *s, size_t bytes,
                const bb_image *img, int x, int y, int w, int h, int level)
{
	struct bb__region *e;

	if (!reserve(t))
		return 0;
	e = slot_for(t->v, t->cap, img, x, y, w, h, level);
	e->img = img;
	e->x = x;
	e->y = y;
	e->w = w;
	e->h = h;
	e->level = level;
	e->surf = cairo_surface_reference(s);
	t->n++;
	t->bytes += bytes;
	return 1;
}

void bb__texcache_free(bb_renderer *r)
{
	regions_free(&r->regions);
}

bb_status bb_texcache_new(size_t max_bytes, bb_texcache **out, bb_error *err)
{
	bb_texcache *c = calloc(1, sizeof *c);

	*out = NULL;
	if (!c || pthread_mutex_init(&c->lock, NULL) != 0) {
		free(c);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	c->max_bytes = max_bytes;
	*out = c;
	return BB_OK;
}

void bb_texcache_free(bb_texcache *c)
{
	if (!c)
		return;
	regions_free(&c->t);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void bb_renderer_share(bb_renderer *r, bb_texcache *c)
{
	regions_free(&r->regions);
	r->shared = c;
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

/* Rectangle (x, y, w, h) of img in cairo's order: over img's pixels when
 * it is in that order already (argb32), else a copy converted. */
static cairo_surface_t *convert_region(const bb_image *img, int x, int y,
                                       int w, int h)
{
	bb_image view = { w, h, img->stride, NULL, img->premultiplied, 0 };
	cairo_surface_t *s;

	if (img->argb32) {
		s = cairo_image_surface_create_for_data(bb_image_pixel(img, x, y),
		                                        CAIRO_FORMAT_ARGB32, w, h,
		                                        (int)img->stride);
		if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
			cairo_surface_destroy(s);
			return NULL;
		}
		return s;
	}
	if (!(s = new_argb(w, h)))
		return NULL;
	view.px = bb_image_pixel(img, x, y);
	bb_image_to_premul_argb32(&view, cairo_image_surface_get_data(s),
	                          (size_t)cairo_image_surface_get_stride(s));
	cairo_surface_mark_dirty(s);
	return s;
}

/* The rounded mean of four pixels, channel by channel: (sum + 2) / 4, the
 * sums of two channels side by side in 16-bit lanes (at most 1022 each). */
static inline uint32_t quad_mean(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	const uint32_t m = 0x00ff00ffu;
	uint32_t lo = (a & m) + (b & m) + (c & m) + (d & m) + 0x00020002u;
	uint32_t hi = ((a >> 8) & m) + ((b >> 8) & m) + ((c >> 8) & m) +
	              ((d >> 8) & m) + 0x00020002u;

	return ((lo >> 2) & m) | (((hi >> 2) & m) << 8);
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

		x = 0;
		if (r1)   /* whole 2x2 blocks: (sum + 2) / 4, two channels a word */
			for (; 2 * x + 1 < sw; x++)
				out[x] = quad_mean(r0[2 * x], r0[2 * x + 1], r1[2 * x],
				                   r1[2 * x + 1]);
		for (; x < w; x++) {
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

/* The region from t, else made (and, when `kept`, kept while t holds less
 * than max bytes); a new reference, NULL when out of memory.  The levels
 * below it made on the way are not kept: a texture drawn small holds only
 * its small copy, not its full-size one. */
static cairo_surface_t *region_made(struct bb__regions *t, size_t max, int kept,
                                    const bb_image *img, int x, int y, int w,
                                    int h, int level)
{
	cairo_surface_t *s = find(t, img, x, y, w, h, level), *below;
	size_t bytes;

	if (s)
		return cairo_surface_reference(s);
	if (level == 0) {
		s = convert_region(img, x, y, w, h);
	} else {
		below = region_made(t, max, 0, img, x, y, w, h, level - 1);
		s = below ? halve(below) : NULL;
		cairo_surface_destroy(below);
	}
	if (!s)
		return NULL;
	bytes = level == 0 && img->argb32 ? 0   /* the page's own pixels */
	        : (size_t)cairo_image_surface_get_stride(s) *
	          (size_t)cairo_image_surface_get_height(s);
	if (kept && t->bytes + bytes <= max)
		keep(t, s, bytes, img, x, y, w, h, level);   /* else for this use */
	return s;
}

cairo_surface_t *bb__raster_region(bb_renderer *r, const bb_image *img,
                                   int x, int y, int w, int h, int level)
{
	bb_texcache *c = r->shared;
	cairo_surface_t *s, *own;

	if (!c || (level == 0 && img->argb32))   /* no copy: the renderer's own */
		return region_made(&r->regions, BB_TEXCACHE_BYTES, 1, img, x, y, w,
		                   h, level);
	if ((s = find(&r->regions, img, x, y, w, h, level)) != NULL)
		return cairo_surface_reference(s);   /* this thread's view of it */
	pthread_mutex_lock(&c->lock);
	s = region_made(&c->t, c->max_bytes, 1, img, x, y, w, h, level);
	if (!s || find(&c->t, img, x, y, w, h, level) != s) {
		pthread_mutex_unlock(&c->lock);
		return s;                            /* NULL, or for this use only */
	}
	/* a surface of this thread's own over the shared pixels */
	own = cairo_image_surface_create_for_data(cairo_image_surface_get_data(s),
	                                          CAIRO_FORMAT_ARGB32,
	                                          cairo_image_surface_get_width(s),
	                                          cairo_image_surface_get_height(s),
	                                          cairo_image_surface_get_stride(s));
	cairo_surface_destroy(s);
	pthread_mutex_unlock(&c->lock);
	if (cairo_surface_status(own) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(own);
		return NULL;
	}
	keep(&r->regions, own, 0, img, x, y, w, h, level);
	return own;
}
