/* Textured quads and triangle meshes.
 *
 * A quad that is a parallelogram with an identity colour transform is one
 * antialiased fill with an affinely mapped texture.  Everything else goes
 * through a layer the size of the item's bounding box:
 *   - colour: each triangle, grown by a pixel, filled without antialiasing
 *     (SOURCE), so every pixel under the item's edges has colour;
 *   - coverage: one antialiased fill of all triangles together, each wound
 *     the same way, so edges shared by two triangles are not edges at all
 *     (no seams) and folded triangles do not cancel (adding per-triangle
 *     coverages instead leaves 1-2 levels short on shared edges);
 *   - the colour transform and per-vertex colours applied to the layer;
 *   - the layer composited through the coverage with the blend operator.
 * Textures are sampled bilinearly from the item's own texture rectangle,
 * edges clamped, so neighbouring atlas regions never bleed in. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "raster/raster.h"

/* The affine taking texture pixels to the space of v (three pairs). */
static int uv_map(const bb_vec2 *v, const bb_vec2 *uv, int i0, int i1, int i2,
                  cairo_matrix_t *out)
{
	double du1 = uv[i1].x - uv[i0].x, dv1 = uv[i1].y - uv[i0].y;
	double du2 = uv[i2].x - uv[i0].x, dv2 = uv[i2].y - uv[i0].y;
	double dx1 = v[i1].x - v[i0].x, dy1 = v[i1].y - v[i0].y;
	double dx2 = v[i2].x - v[i0].x, dy2 = v[i2].y - v[i0].y;
	double det = du1 * dv2 - du2 * dv1, a, b, c, d;

	if (fabs(det) < 1e-12)
		return 0;
	a = (dx1 * dv2 - dx2 * dv1) / det;
	c = (dx2 * du1 - dx1 * du2) / det;
	b = (dy1 * dv2 - dy2 * dv1) / det;
	d = (dy2 * du1 - dy1 * du2) / det;
	cairo_matrix_init(out, a, b, c, d, v[i0].x - a * uv[i0].x - c * uv[i0].y,
	                  v[i0].y - b * uv[i0].x - d * uv[i0].y);
	return fabs(a * d - b * c) > 1e-12;
}

static int is_parallelogram(const bb_vec2 *v, const bb_vec2 *uv)
{
	return fabs(v[0].x + v[2].x - v[1].x - v[3].x) < 1e-6 &&
	       fabs(v[0].y + v[2].y - v[1].y - v[3].y) < 1e-6 &&
	       fabs(uv[0].x + uv[2].x - uv[1].x - uv[3].x) < 1e-6 &&
	       fabs(uv[0].y + uv[2].y - uv[1].y - uv[3].y) < 1e-6;
}

/* The texture rectangle the item samples, as a surface of its own (a new
 * reference; NULL when empty, *nomem set when out of memory); *ox, *oy
 * receive its origin in texture pixels. */
static cairo_surface_t *sub_texture(bb_renderer *r, const bb_draw_item *it,
                                    double *ox, double *oy, int *nomem)
{
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	int w = it->texture->width, h = it->texture->height;
	cairo_surface_t *s;
	int k;

	*nomem = 0;
	for (k = 0; k < it->nverts; k++) {
		x0 = fmin(x0, it->uvs[k].x);
		y0 = fmin(y0, it->uvs[k].y);
		x1 = fmax(x1, it->uvs[k].x);
		y1 = fmax(y1, it->uvs[k].y);
	}
	x0 = fmax(0, floor(x0 + 1e-6));
	y0 = fmax(0, floor(y0 + 1e-6));
	x1 = fmin(w, ceil(x1 - 1e-6));
	y1 = fmin(h, ceil(y1 - 1e-6));
	if (!(x1 > x0 && y1 > y0))
		return NULL;
	*ox = x0;
	*oy = y0;
	s = bb__raster_region(r, it->texture, it->premultiplied, (int)x0, (int)y0,
	                      (int)(x1 - x0), (int)(y1 - y0), 0);
	*nomem = !s;
	return s;
}

static cairo_pattern_t *texture_pattern(cairo_surface_t *sub)
{
	cairo_pattern_t *pat = cairo_pattern_create_for_surface(sub);

	cairo_pattern_set_filter(pat, CAIRO_FILTER_BILINEAR);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
	return pat;
}

/* Pattern matrix: device (or user) pixel -> sub-texture pixel. */
static int set_mapping(cairo_pattern_t *pat, const bb_vec2 *v, const bb_vec2 *uv,
                       const int *tri, double ox, double oy)
{
	cairo_matrix_t m, shift;

	if (!uv_map(v, uv, tri[0], tri[1], tri[2], &m))
		return 0;
	/* sub-texture pixel -> texture pixel -> space of v */
	cairo_matrix_init_translate(&shift, ox, oy);
	cairo_matrix_multiply(&m, &shift, &m);
	if (cairo_matrix_invert(&m) != CAIRO_STATUS_SUCCESS)
		return 0;
	cairo_pattern_set_matrix(pat, &m);
	return 1;
}

static bb_status draw_direct(bb_renderer *r, cairo_t *cr, cairo_surface_t *sub,
                             const bb_draw_item *it, double ox, double oy)
{
	static const int tri[3] = { 0, 1, 3 };
	cairo_pattern_t *pat = texture_pattern(sub);
	int k;

	(void)r;
	if (set_mapping(pat, it->verts, it->uvs, tri, ox, oy)) {
		cairo_set_source(cr, pat);
		cairo_move_to(cr, it->verts[0].x, it->verts[0].y);
		for (k = 1; k < 4; k++)
			cairo_line_to(cr, it->verts[k].x, it->verts[k].y);
		cairo_close_path(cr);
		cairo_fill(cr);
	}
	cairo_pattern_destroy(pat);
	return BB_OK;
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Colour transform on the premultiplied layer (straight colour math). */
static void recolor(cairo_surface_t *layer, const bb_color_xform *c)
{
	unsigned char *data = cairo_image_surface_get_data(layer);
	int stride = cairo_image_surface_get_stride(layer);
	int w = cairo_image_surface_get_width(layer);
	int h = cairo_image_surface_get_height(layer), x, y;

	for (y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

		for (x = 0; x < w; x++) {
			uint32_t p = row[x];
			double a = (p >> 24) / 255.0, r, g, b;
			unsigned ai;

			if (a <= 0 && c->add.a <= 0) {
				continue;
			}
			r = a > 0 ? ((p >> 16) & 255) / 255.0 / a : 0;
			g = a > 0 ? ((p >> 8) & 255) / 255.0 / a : 0;
			b = a > 0 ? (p & 255) / 255.0 / a : 0;
			r = clamp01(r * c->mul.r + c->add.r);
			g = clamp01(g * c->mul.g + c->add.g);
			b = clamp01(b * c->mul.b + c->add.b);
			a = clamp01(a * c->mul.a + c->add.a);
			ai = (unsigned)lrint(a * 255);
			row[x] = (uint32_t)ai << 24 | (uint32_t)lrint(r * a * 255) << 16 |
			         (uint32_t)lrint(g * a * 255) << 8 | (uint32_t)lrint(b * a * 255);
		}
	}
}

struct layer_box {
	int x0, y0, w, h;
};

/* Per pixel of a w x h layer: the per-vertex colour interpolated over the
 * triangle that holds the pixel centre (barycentric, as a GPU does it);
 * pixels just outside every triangle (the grown edge) take the nearest
 * one's, clamped.  out: 4 floats per pixel; returns 0 without memory. */
static int vcolor_field(const bb_draw_item *it, const bb_vec2 *dv,
                        const int *idx, int nidx, int w, int h, float *out)
{
	float *best = malloc((size_t)w * (size_t)h * sizeof *best);
	int t, x, y, k;

	if (!best)
		return 0;
	for (k = 0; k < w * h; k++)
		best[k] = -INFINITY;
	for (t = 0; t + 2 < nidx; t += 3) {
		bb_vec2 a = dv[idx[t]], b = dv[idx[t + 1]], c = dv[idx[t + 2]];
		double det = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
		int bx0 = (int)fmax(0, floor(fmin(a.x, fmin(b.x, c.x))) - 2);
		int by0 = (int)fmax(0, floor(fmin(a.y, fmin(b.y, c.y))) - 2);
		int bx1 = (int)fmin(w, ceil(fmax(a.x, fmax(b.x, c.x))) + 2);
		int by1 = (int)fmin(h, ceil(fmax(a.y, fmax(b.y, c.y))) + 2);

		if (fabs(det) < 1e-12)
			continue;
		for (y = by0; y < by1; y++)
			for (x = bx0; x < bx1; x++) {
				double px = x + 0.5, py = y + 0.5, l[3], lo, sum = 0;
				float *o = out + 4 * ((size_t)y * w + x);
				const bb_rgba *vc[3];

				l[0] = ((b.y - c.y) * (px - c.x) + (c.x - b.x) * (py - c.y)) / det;
				l[1] = ((c.y - a.y) * (px - c.x) + (a.x - c.x) * (py - c.y)) / det;
				l[2] = 1 - l[0] - l[1];
				lo = fmin(l[0], fmin(l[1], l[2]));
				if (lo <= best[(size_t)y * w + x])
					continue;
				best[(size_t)y * w + x] = (float)lo;
				for (k = 0; k < 3; k++)
					sum += (l[k] = fmax(0, l[k]));
				for (k = 0; k < 3; k++) {
					l[k] /= sum;
					vc[k] = &it->vcolors[idx[t + k]];
				}
				o[0] = (float)(l[0] * vc[0]->r + l[1] * vc[1]->r + l[2] * vc[2]->r);
				o[1] = (float)(l[0] * vc[0]->g + l[1] * vc[1]->g + l[2] * vc[2]->g);
				o[2] = (float)(l[0] * vc[0]->b + l[1] * vc[1]->b + l[2] * vc[2]->b);
				o[3] = (float)(l[0] * vc[0]->a + l[1] * vc[1]->a + l[2] * vc[2]->a);
			}
	}
	free(best);
	return 1;
}

static double vcolor_channel(bb_vcolor_blend how, double p, double c, double rate)
{
	switch (how) {
	case BB_VCOLOR_MIX: return p * (1 - rate) + c * rate;
	case BB_VCOLOR_MULTIPLY: return p * (1 - rate) + p * c * rate;
	case BB_VCOLOR_ADD: return p + c * rate;
	case BB_VCOLOR_SUBTRACT: return p - c * rate;
	}
	return p;
}

/* Per-vertex colours on the premultiplied layer (straight colour math):
 * rgb by the item's vcolor_blend with rate = the colour's alpha; the
 * layer's alpha is kept.  Returns 0 without memory. */
static int apply_vcolors(cairo_surface_t *layer, const bb_draw_item *it,
                         const bb_vec2 *dv, const int *idx, int nidx)
{
	unsigned char *data = cairo_image_surface_get_data(layer);
	int stride = cairo_image_surface_get_stride(layer);
	int w = cairo_image_surface_get_width(layer);
	int h = cairo_image_surface_get_height(layer), x, y, k;
	float *field = bb__calloc((size_t)w * (size_t)h, 4 * sizeof *field);

	if (!field || !vcolor_field(it, dv, idx, nidx, w, h, field)) {
		free(field);
		return 0;
	}
	for (y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

		for (x = 0; x < w; x++) {
			const float *c = field + 4 * ((size_t)y * w + x);
			unsigned ai = row[x] >> 24;
			double a = ai / 255.0, ch[3];

			if (ai == 0)
				continue;
			for (k = 0; k < 3; k++) {
				double p = ((row[x] >> (16 - 8 * k)) & 255) / 255.0 / a;

				ch[k] = clamp01(vcolor_channel(it->vcolor_blend, p, c[k], c[3]));
			}
			row[x] = (uint32_t)ai << 24 | (uint32_t)lrint(ch[0] * a * 255) << 16 |
			         (uint32_t)lrint(ch[1] * a * 255) << 8 |
			         (uint32_t)lrint(ch[2] * a * 255);
		}
	}
	free(field);
	cairo_surface_mark_dirty(layer);
	return 1;
}


static bb_status draw_layered(cairo_t *cr, cairo_surface_t *sub,
                              const bb_draw_item *it, const int *idx, int nidx,
                              double ox, double oy, bb_error *err)
{
	struct layer_box box;
	int bx[4];
	cairo_surface_t *layer, *mask;
	cairo_t *lc, *mc;
	cairo_pattern_t *pat;
	bb_vec2 *dv;
	int t, k;

	if (!bb__raster_item_box(cr, it, bx))
		return BB_OK;
	box.x0 = bx[0];
	box.y0 = bx[1];
	box.w = bx[2];
	box.h = bx[3];
	dv = calloc((size_t)it->nverts, sizeof *dv);
	if (!dv)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	for (k = 0; k < it->nverts; k++) {
		double x = it->verts[k].x, y = it->verts[k].y;

		cairo_user_to_device(cr, &x, &y);
		dv[k].x = x - box.x0;
		dv[k].y = y - box.y0;
	}
	layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, box.w, box.h);
	mask = cairo_image_surface_create(CAIRO_FORMAT_A8, box.w, box.h);
	lc = cairo_create(layer);
	mc = cairo_create(mask);
	pat = texture_pattern(sub);
	cairo_set_antialias(lc, CAIRO_ANTIALIAS_NONE);
	cairo_set_operator(lc, CAIRO_OPERATOR_SOURCE);
	/* coverage: one fill of every triangle, all wound the same way, so
	 * shared edges are not edges at all and folds do not cancel */
	cairo_set_fill_rule(mc, CAIRO_FILL_RULE_WINDING);
	for (t = 0; t + 2 < nidx; t += 3) {
		const int *tri = idx + t;
		double cx = (dv[tri[0]].x + dv[tri[1]].x + dv[tri[2]].x) / 3;
		double cy = (dv[tri[0]].y + dv[tri[1]].y + dv[tri[2]].y) / 3;
		double area = (dv[tri[1]].x - dv[tri[0]].x) * (dv[tri[2]].y - dv[tri[0]].y) -
		              (dv[tri[2]].x - dv[tri[0]].x) * (dv[tri[1]].y - dv[tri[0]].y);
		int order[3] = { 0, 1, 2 };

		if (area < 0) {   /* wind every triangle the same way */
			order[1] = 2;
			order[2] = 1;
		}
		if (!set_mapping(pat, dv, it->uvs, tri, ox, oy))
			continue;
		cairo_set_source(lc, pat);
		for (k = 0; k < 3; k++) {
			/* grow by a pixel away from the centroid */
			double ex = dv[tri[k]].x - cx, ey = dv[tri[k]].y - cy;
			double len = hypot(ex, ey), g = len > 0 ? 1.5 / len : 0;

			if (k == 0)
				cairo_move_to(lc, dv[tri[k]].x + ex * g, dv[tri[k]].y + ey * g);
			else
				cairo_line_to(lc, dv[tri[k]].x + ex * g, dv[tri[k]].y + ey * g);
			if (k == 0)
				cairo_move_to(mc, dv[tri[order[k]]].x, dv[tri[order[k]]].y);
			else
				cairo_line_to(mc, dv[tri[order[k]]].x, dv[tri[order[k]]].y);
		}
		cairo_close_path(lc);
		cairo_fill(lc);
		cairo_close_path(mc);
	}
	cairo_set_source_rgba(mc, 0, 0, 0, 1);
	cairo_fill(mc);
	cairo_pattern_destroy(pat);
	cairo_destroy(lc);
	cairo_destroy(mc);
	cairo_surface_flush(layer);
	if (it->vcolors && !apply_vcolors(layer, it, dv, idx, nidx)) {
		free(dv);
		cairo_surface_destroy(layer);
		cairo_surface_destroy(mask);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	free(dv);
	if (!bb__color_is_identity(&it->color)) {
		recolor(layer, &it->color);
		cairo_surface_mark_dirty(layer);
	}
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_set_source_surface(cr, layer, box.x0, box.y0);
	cairo_mask_surface(cr, mask, box.x0, box.y0);
	cairo_restore(cr);
	cairo_surface_destroy(layer);
	cairo_surface_destroy(mask);
	return BB_OK;
}

/* An item without a texture: its shape filled with `fill` through the
 * colour transform (one antialiased fill, triangles of a mesh together). */
static void draw_flat(cairo_t *cr, const bb_draw_item *it)
{
	const bb_color_xform *c = &it->color;
	double a = clamp01(it->fill.a * c->mul.a + c->add.a);
	int k, t;

	if (a <= 0)
		return;
	if (it->kind == BB_DRAW_QUAD && it->nverts == 4) {
		cairo_move_to(cr, it->verts[0].x, it->verts[0].y);
		for (k = 1; k < 4; k++)
			cairo_line_to(cr, it->verts[k].x, it->verts[k].y);
		cairo_close_path(cr);
	}
	for (t = 0; it->kind == BB_DRAW_MESH && t + 2 < it->nindices; t += 3) {
		cairo_move_to(cr, it->verts[it->indices[t]].x, it->verts[it->indices[t]].y);
		for (k = 1; k < 3; k++)
			cairo_line_to(cr, it->verts[it->indices[t + k]].x,
			              it->verts[it->indices[t + k]].y);
		cairo_close_path(cr);
	}
	cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
	cairo_set_source_rgba(cr, clamp01(it->fill.r * c->mul.r + c->add.r),
	                      clamp01(it->fill.g * c->mul.g + c->add.g),
	                      clamp01(it->fill.b * c->mul.b + c->add.b), a);
	cairo_fill(cr);
}

bb_status bb__draw_textured(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                            bb_error *err)
{
	static const int quad_idx[6] = { 0, 1, 3, 1, 2, 3 };
	cairo_surface_t *sub;
	double ox = 0, oy = 0;
	bb_status s = BB_OK;
	int nomem;

	if (!it->texture && it->nverts > 0) {
		draw_flat(cr, it);
		return BB_OK;
	}
	if (!it->texture || it->nverts <= 0 ||
	    (it->kind == BB_DRAW_QUAD && it->nverts != 4))
		return BB_OK;
	sub = sub_texture(r, it, &ox, &oy, &nomem);
	if (!sub)
		return nomem ? bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                            "out of memory for a texture") : BB_OK;
	if (it->kind == BB_DRAW_QUAD && !it->vcolors &&
	    bb__color_is_identity(&it->color) && is_parallelogram(it->verts, it->uvs))
		s = draw_direct(r, cr, sub, it, ox, oy) == BB_OK ? BB_OK
		    : bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	else if (it->kind == BB_DRAW_QUAD)
		s = draw_layered(cr, sub, it, quad_idx, 6, ox, oy, err);
	else
		s = draw_layered(cr, sub, it, it->indices, it->nindices, ox, oy, err);
	cairo_surface_destroy(sub);
	return s;
}
