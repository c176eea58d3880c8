/* bonebake — rasterizing a draw list with cairo. */
#ifndef BONEBAKE_RENDER_H
#define BONEBAKE_RENDER_H

#include "eval.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How textures are sampled.  All three are bilinear at and above full
 * size; they differ for textures drawn smaller than their pixels.
 * Zero (DEFAULT) means GOOD, the best quality per millisecond measured
 * (docs/cli.md, "Texture filters"). */
typedef enum bb_filter {
	BB_FILTER_DEFAULT = 0,
	BB_FILTER_FAST,        /* bilinear from the full-size texture (aliases
	                          below half size) */
	BB_FILTER_GOOD,        /* bilinear from the texture halved n times
	                          (2x2 box averages, made once per renderer),
	                          n picked per item so that it is drawn at
	                          0.375..0.75 of those pixels; as fast as FAST */
	BB_FILTER_BEST         /* cairo's box filter over the full-size
	                          texture: closest to supersampling, several
	                          times slower */
} bb_filter;

/* World -> pixel: pixel = origin + scale * world. */
typedef struct bb_view {
	double scale;          /* 0 means 1 */
	double origin_x, origin_y;
	bb_rgba background;    /* straight colour; alpha 0 = transparent */
	bb_filter filter;      /* texture sampling (0: the default) */
} bb_view;

typedef struct bb_renderer bb_renderer;

/* A renderer caches textures converted for cairo (the regions items
 * sample, and their halved copies; a model's textures, already in cairo's
 * layout, are drawn from where they lie) and keeps its canvas from one
 * frame to the next; one per thread.  It holds on to the textures it has
 * drawn, by address: free it (bb_renderer_free) before them. */
bb_status bb_renderer_new(bb_renderer **out, bb_error *err);
void bb_renderer_free(bb_renderer *r);

/* Texture regions converted for drawing, shared by the renderers of
 * several threads (bb_renderer_share): each region is converted once and
 * its pixels are held once, whatever the number of threads.  Holds at
 * most max_bytes of them; past that, regions are converted for one use.
 * New; free with bb_texcache_free once no renderer uses it.  Fails with
 * BB_ERR_NOMEM.  Thread-safe. */
typedef struct bb_texcache bb_texcache;
bb_status bb_texcache_new(size_t max_bytes, bb_texcache **out, bb_error *err);
void bb_texcache_free(bb_texcache *c);
/* r takes its texture regions from c (borrowed: c outlives r) instead of
 * a cache of its own.  Call before r draws. */
void bb_renderer_share(bb_renderer *r, bb_texcache *c);

/* Paints dl into `out` (its size is the canvas), replacing its pixels
 * with straight RGBA (its premultiplied flag cleared).
 * Items that cannot show (alpha taken to 0 by their colour transform,
 * outside the canvas, no area) are skipped.  Fails with BB_ERR_NOMEM, or
 * BB_ERR_USAGE for a filter outside the enum.
 * Deterministic: the result depends only on dl, view and out's size, not
 * on what the renderer drew before.  Not thread-safe per renderer. */
bb_status bb_render(bb_renderer *r, const bb_drawlist *dl, const bb_view *view,
                    bb_image *out, bb_error *err);

/* bb_render without the conversion to straight RGBA: paints dl on r's own
 * canvas of width x height and sets *out to it, premultiplied ARGB32
 * (argb32 set), r's memory: valid until r draws again or is freed, never
 * to be freed or written by the caller.  The same frame as bb_render's,
 * in the rasterizer's layout (the PNG encoder takes it as it is). */
bb_status bb_render_argb32(bb_renderer *r, const bb_drawlist *dl,
                           const bb_view *view, int width, int height,
                           bb_image *out, bb_error *err);

/* Parses a colour: "#rgb", "#rrggbb", "#rrggbbaa", "transparent", or a few
 * names (white, black, gray, red, green, blue, magenta). Returns 0 on error. */
int bb_parse_color(const char *s, bb_rgba *out);

#ifdef __cplusplus
}
#endif
#endif
