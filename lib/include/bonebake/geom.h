/* bonebake — small value types shared by every stage. */
#ifndef BONEBAKE_GEOM_H
#define BONEBAKE_GEOM_H

#ifdef __cplusplus
extern "C" {
#endif

/* 2x3 affine: x' = a*x + c*y + tx, y' = b*x + d*y + ty (y down). */
typedef struct bb_affine {
	double a, b, c, d, tx, ty;
} bb_affine;

typedef struct bb_vec2 {
	double x, y;
} bb_vec2;

/* Straight (non-premultiplied) colour, channels 0..1. */
typedef struct bb_rgba {
	double r, g, b, a;
} bb_rgba;

/* Flash-style colour transform: c' = c * mul + add (add in 0..1 units),
 * with Spine's two-colour tint: c' = c * mul + (1 - c) * dark + add for
 * r, g, b (dark = 0, the zero value, changes nothing). */
typedef struct bb_color_xform {
	bb_rgba mul, add;
	bb_rgba dark;          /* r, g, b: the colour of the texture's black;
	                          a unused */
} bb_color_xform;

typedef struct bb_bounds {
	double x0, y0, x1, y1;  /* empty when x0 > x1 */
} bb_bounds;

typedef enum bb_blend {
	BB_BLEND_NORMAL = 0,
	BB_BLEND_ADD,
	BB_BLEND_MULTIPLY,
	BB_BLEND_SCREEN,
	BB_BLEND_SUBTRACT
} bb_blend;

bb_affine bb_affine_identity(void);
/* Returns p ∘ q: apply q first, then p. */
bb_affine bb_affine_mul(bb_affine p, bb_affine q);
bb_vec2 bb_affine_apply(bb_affine m, double x, double y);
/* Inverse; returns 0 (and identity) when m is singular. */
int bb_affine_invert(bb_affine m, bb_affine *out);
bb_affine bb_affine_translate(double x, double y);
bb_affine bb_affine_scale(double sx, double sy);

bb_bounds bb_bounds_empty(void);
void bb_bounds_add(bb_bounds *b, double x, double y);
void bb_bounds_union(bb_bounds *b, bb_bounds o);
int bb_bounds_is_empty(bb_bounds b);

bb_color_xform bb_color_xform_identity(void);
/* Applies outer after inner (inner first). */
bb_color_xform bb_color_xform_concat(bb_color_xform outer, bb_color_xform inner);

#ifdef __cplusplus
}
#endif
#endif
