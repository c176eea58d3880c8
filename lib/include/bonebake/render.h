/* bonebake — rasterizing a draw list with cairo. */
#ifndef BONEBAKE_RENDER_H
#define BONEBAKE_RENDER_H

#include "eval.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* World -> pixel: pixel = origin + scale * world. */
typedef struct bb_view {
	double scale;          /* 0 means 1 */
	double origin_x, origin_y;
	bb_rgba background;    /* straight colour; alpha 0 = transparent */
} bb_view;

typedef struct bb_renderer bb_renderer;

/* A renderer caches textures converted for cairo; one per thread.
 * Free with bb_renderer_free. */
bb_status bb_renderer_new(bb_renderer **out, bb_error *err);
void bb_renderer_free(bb_renderer *r);

/* Paints dl into `out` (its size is the canvas), replacing its pixels.
 * Fails with BB_ERR_NOMEM.  Deterministic. */
bb_status bb_render(bb_renderer *r, const bb_drawlist *dl, const bb_view *view,
                    bb_image *out, bb_error *err);

/* Parses a colour: "#rgb", "#rrggbb", "#rrggbbaa", "transparent", or a few
 * names (white, black, gray, red, green, blue, magenta). Returns 0 on error. */
int bb_parse_color(const char *s, bb_rgba *out);

#ifdef __cplusplus
}
#endif
#endif
