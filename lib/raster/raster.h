/* Rasterizer internals shared by raster.c and raster-texture.c. */
#ifndef BB_RASTER_RASTER_H
#define BB_RASTER_RASTER_H

#include <cairo.h>

#include "bonebake/render.h"

/* The texture as a premultiplied cairo surface, cached in r; NULL when out
 * of memory. */
cairo_surface_t *bb__raster_texture(bb_renderer *r, const bb_image *img,
                                    int premultiplied);
int bb__color_is_identity(const bb_color_xform *c);
cairo_operator_t bb__blend_op(bb_blend b);
/* Device-pixel box {x, y, w, h} of what an item may paint (2 px of
 * margin), clipped to the canvas; 0 when empty or not finite. */
int bb__raster_item_box(cairo_t *cr, const bb_draw_item *it, int box[4]);
/* Draws a textured quad or mesh item. */
bb_status bb__draw_textured(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                            bb_error *err);

#endif
