/* Rasterizer internals shared by raster.c and raster-texture.c. */
#ifndef BB_RASTER_RASTER_H
#define BB_RASTER_RASTER_H

#include <cairo.h>
#include <stdint.h>

#include "bonebake/render.h"

struct bb__region;

/* Per-thread state kept across frames: texture regions converted for
 * cairo (texcache.c), and the canvas with the device box {x0, y0, x1, y1}
 * the last frame drew into (the rest of it holds the clear colour). */
struct bb__regions {
	struct bb__region *v;    /* cap slots, at most half full */
	size_t cap, n, bytes;
};

struct bb_renderer {
	struct bb__regions regions;   /* its own regions, or with `shared`
	                                 its surfaces over the shared ones */
	bb_texcache *shared;          /* borrowed (bb_renderer_share) */
	cairo_surface_t *canvas;
	int dirty[4];
	bb_rgba clear;
	cairo_surface_t *coverage;  /* A8 scratch, all 0 between uses */
	unsigned char *layer;       /* ARGB32 scratch for layered items */
	size_t layer_bytes;
	bb_filter filter;           /* this frame's (never DEFAULT) */
};

/* Rectangle (x, y, w, h) of img (inside it) as a premultiplied surface of
 * its own, at mip level `level` (halved that many times); a new reference
 * (destroy it), cached in r.  NULL when out of memory. */
cairo_surface_t *bb__raster_region(bb_renderer *r, const bb_image *img,
                                   int x, int y, int w, int h, int level);
void bb__texcache_free(bb_renderer *r);
int bb__color_is_identity(const bb_color_xform *c);
/* One colour channel v (straight, 0..1) through a colour transform's
 * multiplier, dark colour (two-colour tint) and offset, clamped to 0..1. */
double bb__tint(double v, double mul, double dark, double add);
cairo_operator_t bb__blend_op(bb_blend b);
/* Device-pixel box {x, y, w, h} of what an item may paint (2 px of
 * margin), clipped to the canvas; 0 when empty or not finite. */
int bb__raster_item_box(cairo_t *cr, const bb_draw_item *it, int box[4]);
/* A new all-zero w x h image surface over memory from bb__alloc_pixels
 * (huge pages for a large one), written once (so its pages are the
 * process's own: a calloc leaves them mapped to the shared zero page, and
 * the first write to each one read before then faults and, with several
 * threads, interrupts every other CPU to flush its TLB).  NULL when out
 * of memory. */
cairo_surface_t *bb__raster_zeroed(cairo_format_t format, int w, int h);
/* An all-zero A8 surface of at least w x h (kept in r); the caller sets
 * back to 0 what it painted.  NULL when out of memory. */
cairo_surface_t *bb__raster_coverage(bb_renderer *r, int w, int h);
/* Zeroes box {x, y, w, h} of an A8 surface. */
void bb__clear_a8(cairo_surface_t *s, const int box[4]);
/* A w x h ARGB32 surface over r's scratch memory, all 0 (a new reference;
 * r keeps the memory for the next one).  NULL when out of memory. */
cairo_surface_t *bb__raster_layer(bb_renderer *r, int w, int h);
/* sample.c: pixels of an ARGB32 layer (ls pixels a row, w x h) whose
 * centres lie within `grow` px of triangle p, set to tex (ts pixels a row,
 * tw x th, premultiplied) sampled bilinearly, edges clamped, at the
 * image of their centre by m (x' = m0 x + m2 y + m4, y' = m1 x + m3 y + m5). */
void bb__fill_triangle(uint32_t *layer, size_t ls, int w, int h,
                       const bb_vec2 p[3], double grow, const double m[6],
                       const uint32_t *tex, size_t ts, int tw, int th);
/* Draws a textured quad or mesh item. */
bb_status bb__draw_textured(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                            bb_error *err);

#endif
