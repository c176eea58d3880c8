/* Textured quads and triangle meshes.
 *
 * A textured item goes through a layer the size of its bounding box:
 *   - colour: each triangle's pixels, and those just outside it, get the
 *     texture (sample.c; BEST: cairo fills each triangle, grown by a
 *     pixel, without antialiasing), so every pixel under the item's edges
 *     has colour;
 *   - coverage: one antialiased fill of all triangles together into the
 *     renderer's A8 scratch, each wound the same way, so edges shared by
 *     two triangles are not edges at all (no seams) and folded triangles
 *     do not cancel (adding per-triangle coverages instead leaves 1-2
 *     levels short on shared edges);
 *   - the colour transform and per-vertex colours applied to the layer;
 *   - the layer composited through the coverage with the blend operator,
 *     in one pixman call.
 * Under BEST a quad that is a parallelogram with an identity colour
 * transform skips the layer: its coverage is rasterized, then the texture
 * composited through it with cairo's box filter.
 * Textures are sampled from the item's own texture rectangle (texcache.c),
 * edges clamped, so neighbouring atlas regions never bleed in; GOOD takes
 * the rectangle's halved copy that suits the item's scale. */
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

/* What an item samples: its texture rectangle at a mip level. */
struct texsrc {
	cairo_surface_t *surf;   /* the rectangle (a new reference) */
	double ox, oy;           /* its origin in texture pixels */
	double texel;            /* texture pixels per pixel of surf (2^level) */
	cairo_filter_t filter;
};

/* Device pixels per texture pixel, as the square root of the ratio of the
 * triangles' device and texture areas; 0 when either is 0. */
static double item_scale(cairo_t *cr, const bb_draw_item *it, const int *idx,
                         int nidx)
{
	cairo_matrix_t m;
	double dev = 0, tex = 0;
	int t;

	for (t = 0; t + 2 < nidx; t += 3) {
		const bb_vec2 *v = it->verts, *u = it->uvs;
		int a = idx[t], b = idx[t + 1], c = idx[t + 2];

		dev += fabs((v[b].x - v[a].x) * (v[c].y - v[a].y) -
		            (v[c].x - v[a].x) * (v[b].y - v[a].y));
		tex += fabs((u[b].x - u[a].x) * (u[c].y - u[a].y) -
		            (u[c].x - u[a].x) * (u[b].y - u[a].y));
	}
	cairo_get_matrix(cr, &m);
	dev *= fabs(m.xx * m.yy - m.xy * m.yx);
	return dev > 0 && tex > 0 && isfinite(dev / tex) ? sqrt(dev / tex) : 0;
}

/* GOOD: the mip level n picked is the largest with scale * 2^n <= 0.75,
 * so the texture is sampled at 0.375..0.75 of its level's pixels (docs/cli.md
 * has the measurements that chose the threshold). */
#define MIP_THRESHOLD 0.75

/* The texture rectangle the item samples (its texture coordinates'
 * bounds) at the mip level the view's filter picks for the item's scale.
 * Returns 0 when the rectangle is empty, or (*nomem set) out of memory. */
static int sub_texture(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                       const int *idx, int nidx, struct texsrc *src, int *nomem)
{
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	int w = it->texture->width, h = it->texture->height;
	int k, level = 0;

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
		return 0;
	if (r->filter == BB_FILTER_GOOD) {
		double sc = item_scale(cr, it, idx, nidx);

		while (sc > 0 && level < 12 && sc * (1 << (level + 1)) <= MIP_THRESHOLD &&
		       (x1 - x0) / (1 << (level + 1)) >= 1 &&
		       (y1 - y0) / (1 << (level + 1)) >= 1)
			level++;
	}
	src->ox = x0;
	src->oy = y0;
	src->texel = 1 << level;
	src->filter = r->filter == BB_FILTER_BEST ? CAIRO_FILTER_GOOD
	                                          : CAIRO_FILTER_BILINEAR;
	src->surf = bb__raster_region(r, it->texture, (int)x0, (int)y0,
	                              (int)(x1 - x0), (int)(y1 - y0), level);
	*nomem = !src->surf;
	return src->surf != NULL;
}

static cairo_pattern_t *texture_pattern(const struct texsrc *src)
{
	cairo_pattern_t *pat = cairo_pattern_create_for_surface(src->surf);

	cairo_pattern_set_filter(pat, src->filter);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
	return pat;
}

/* Device (or user) pixel -> pixel of src, for triangle tri of v. */
static int tex_matrix(const bb_vec2 *v, const bb_vec2 *uv, const int *tri,
                      const struct texsrc *src, cairo_matrix_t *out)
{
	cairo_matrix_t shift;

	if (!uv_map(v, uv, tri[0], tri[1], tri[2], out))
		return 0;
	/* pixel of src -> texture pixel -> space of v */
	cairo_matrix_init_translate(&shift, src->ox, src->oy);
	if (src->texel != 1)
		cairo_matrix_scale(&shift, src->texel, src->texel);
	cairo_matrix_multiply(out, &shift, out);
	return cairo_matrix_invert(out) == CAIRO_STATUS_SUCCESS;
}

static int set_mapping(cairo_pattern_t *pat, const bb_vec2 *v, const bb_vec2 *uv,
                       const int *tri, const struct texsrc *src)
{
	cairo_matrix_t m;

	if (!tex_matrix(v, uv, tri, src, &m))
		return 0;
	cairo_pattern_set_matrix(pat, &m);
	return 1;
}

/* BEST, a parallelogram quad without a colour transform: its coverage is
 * rasterized into the A8 scratch, then the box-filtered texture
 * composited through it in one pass (a textured fill would composite each
 * scanline separately). */
static bb_status draw_direct(bb_renderer *r, cairo_t *cr,
                             const struct texsrc *src, const bb_draw_item *it)
{
	static const int tri[3] = { 0, 1, 3 };
	cairo_surface_t *target = cairo_get_target(cr), *cov;
	cairo_pattern_t *pat;
	cairo_matrix_t ctm;
	cairo_t *mc;
	int k, box[4];

	if (!bb__raster_item_box(cr, it, box))
		return BB_OK;
	cov = bb__raster_coverage(r, cairo_image_surface_get_width(target),
	                          cairo_image_surface_get_height(target));
	if (!cov)
		return BB_ERR_NOMEM;
	pat = texture_pattern(src);
	if (!set_mapping(pat, it->verts, it->uvs, tri, src)) {
		cairo_pattern_destroy(pat);
		return BB_OK;
	}
	mc = cairo_create(cov);
	/* only the box is cleared afterwards */
	cairo_rectangle(mc, box[0], box[1], box[2], box[3]);
	cairo_clip(mc);
	cairo_get_matrix(cr, &ctm);
	cairo_set_matrix(mc, &ctm);
	cairo_set_antialias(mc, cairo_get_antialias(cr));
	cairo_set_fill_rule(mc, cairo_get_fill_rule(cr));
	cairo_move_to(mc, it->verts[0].x, it->verts[0].y);
	for (k = 1; k < 4; k++)
		cairo_line_to(mc, it->verts[k].x, it->verts[k].y);
	cairo_close_path(mc);
	cairo_fill(mc);
	cairo_destroy(mc);
	cairo_save(cr);
	cairo_set_source(cr, pat);   /* locked to the item's user space */
	cairo_identity_matrix(cr);
	cairo_rectangle(cr, box[0], box[1], box[2], box[3]);
	cairo_clip(cr);
	cairo_mask_surface(cr, cov, 0, 0);
	cairo_restore(cr);
	cairo_pattern_destroy(pat);
	bb__clear_a8(cov, box);
	return BB_OK;
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Colour transform on the premultiplied layer (straight colour math; the
 * alpha of every pixel and 1 / alpha from tables of 256). */
static void recolor(cairo_surface_t *layer, const bb_color_xform *c)
{
	unsigned char *data = cairo_image_surface_get_data(layer);
	int stride = cairo_image_surface_get_stride(layer);
	int w = cairo_image_surface_get_width(layer);
	int h = cairo_image_surface_get_height(layer), x, y, k;
	double na[256], inv[256];
	unsigned ai[256];

	for (k = 0; k < 256; k++) {
		double a = clamp01(k / 255.0 * c->mul.a + c->add.a);

		ai[k] = (unsigned)(a * 255 + 0.5);
		na[k] = a * 255;
		inv[k] = k > 0 ? 1.0 / k : 0;
	}
	for (y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

		for (x = 0; x < w; x++) {
			uint32_t p = row[x];
			unsigned a = p >> 24;
			double r, g, b;

			if (a == 0 && c->add.a <= 0)
				continue;
			/* straight colour; two-colour tint: the dark colour where
			 * the texel is black */
			r = ((p >> 16) & 255) * inv[a];
			g = ((p >> 8) & 255) * inv[a];
			b = (p & 255) * inv[a];
			r = clamp01(r * c->mul.r + (1 - r) * c->dark.r + c->add.r);
			g = clamp01(g * c->mul.g + (1 - g) * c->dark.g + c->add.g);
			b = clamp01(b * c->mul.b + (1 - b) * c->dark.b + c->add.b);
			row[x] = (uint32_t)ai[a] << 24 | (uint32_t)(r * na[a] + 0.5) << 16 |
			         (uint32_t)(g * na[a] + 0.5) << 8 | (uint32_t)(b * na[a] + 0.5);
		}
	}
}

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


/* The layer's colour, BEST: each triangle grown by a pixel away from its
 * centroid and filled by cairo (SOURCE, no antialiasing) with the
 * box-filtered texture. */
static void layer_cairo(cairo_surface_t *layer, const struct texsrc *src,
                        const bb_draw_item *it, const bb_vec2 *dv,
                        const int *idx, int nidx)
{
	cairo_t *lc = cairo_create(layer);
	cairo_pattern_t *pat = texture_pattern(src);
	int t, k;

	cairo_set_antialias(lc, CAIRO_ANTIALIAS_NONE);
	cairo_set_operator(lc, CAIRO_OPERATOR_SOURCE);
	for (t = 0; t + 2 < nidx; t += 3) {
		const int *tri = idx + t;
		double cx = (dv[tri[0]].x + dv[tri[1]].x + dv[tri[2]].x) / 3;
		double cy = (dv[tri[0]].y + dv[tri[1]].y + dv[tri[2]].y) / 3;

		if (!set_mapping(pat, dv, it->uvs, tri, src))
			continue;
		cairo_set_source(lc, pat);
		for (k = 0; k < 3; k++) {
			double ex = dv[tri[k]].x - cx, ey = dv[tri[k]].y - cy;
			double len = hypot(ex, ey), g = len > 0 ? 1.5 / len : 0;

			if (k == 0)
				cairo_move_to(lc, dv[tri[k]].x + ex * g, dv[tri[k]].y + ey * g);
			else
				cairo_line_to(lc, dv[tri[k]].x + ex * g, dv[tri[k]].y + ey * g);
		}
		cairo_close_path(lc);
		cairo_fill(lc);
	}
	cairo_pattern_destroy(pat);
	cairo_destroy(lc);
	cairo_surface_flush(layer);
}

/* The layer's colour, FAST and GOOD: each triangle's pixels within 0.75 px
 * of it sampled bilinearly (sample.c): every pixel the coverage touches
 * (its centre is within sqrt(1/2) px of a triangle) has colour. */
static void layer_bilinear(cairo_surface_t *layer, const struct texsrc *src,
                           const bb_draw_item *it, const bb_vec2 *dv,
                           const int *idx, int nidx)
{
	uint32_t *px = (uint32_t *)cairo_image_surface_get_data(layer);
	const uint32_t *tex;
	size_t ls = (size_t)cairo_image_surface_get_stride(layer) / 4, ts;
	int w = cairo_image_surface_get_width(layer);
	int h = cairo_image_surface_get_height(layer);
	int tw = cairo_image_surface_get_width(src->surf);
	int th = cairo_image_surface_get_height(src->surf), t, k;

	cairo_surface_flush(src->surf);
	tex = (const uint32_t *)cairo_image_surface_get_data(src->surf);
	ts = (size_t)cairo_image_surface_get_stride(src->surf) / 4;
	for (t = 0; t + 2 < nidx; t += 3) {
		cairo_matrix_t m;
		bb_vec2 p[3];
		double mm[6];

		if (!tex_matrix(dv, it->uvs, idx + t, src, &m))
			continue;
		for (k = 0; k < 3; k++)
			p[k] = dv[idx[t + k]];
		mm[0] = m.xx;
		mm[1] = m.yx;
		mm[2] = m.xy;
		mm[3] = m.yy;
		mm[4] = m.x0;
		mm[5] = m.y0;
		bb__fill_triangle(px, ls, w, h, p, 0.75, mm, tex, ts, tw, th);
	}
}

static bb_status draw_layered(bb_renderer *r, cairo_t *cr,
                              const struct texsrc *src, const bb_draw_item *it,
                              const int *idx, int nidx, bb_error *err)
{
	cairo_surface_t *target = cairo_get_target(cr), *layer, *cov;
	cairo_t *mc;
	bb_vec2 *dv;
	int t, k, box[4];

	if (!bb__raster_item_box(cr, it, box))
		return BB_OK;
	cov = bb__raster_coverage(r, cairo_image_surface_get_width(target),
	                          cairo_image_surface_get_height(target));
	layer = bb__raster_layer(r, box[2], box[3]);
	dv = calloc((size_t)it->nverts, sizeof *dv);
	if (!cov || !layer || !dv) {
		free(dv);
		cairo_surface_destroy(layer);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	for (k = 0; k < it->nverts; k++) {
		double x = it->verts[k].x, y = it->verts[k].y;

		cairo_user_to_device(cr, &x, &y);
		dv[k].x = x - box[0];
		dv[k].y = y - box[1];
	}
	if (src->filter == CAIRO_FILTER_BILINEAR)
		layer_bilinear(layer, src, it, dv, idx, nidx);
	else
		layer_cairo(layer, src, it, dv, idx, nidx);
	/* coverage (device pixels of the scratch's top-left box): one fill
	 * of every triangle, all wound the same way, so shared edges are not
	 * edges at all and folds do not cancel */
	mc = cairo_create(cov);
	cairo_rectangle(mc, 0, 0, box[2], box[3]);   /* only that is cleared */
	cairo_clip(mc);
	cairo_set_fill_rule(mc, CAIRO_FILL_RULE_WINDING);
	for (t = 0; t + 2 < nidx; t += 3) {
		const int *tri = idx + t;
		double area = (dv[tri[1]].x - dv[tri[0]].x) * (dv[tri[2]].y - dv[tri[0]].y) -
		              (dv[tri[2]].x - dv[tri[0]].x) * (dv[tri[1]].y - dv[tri[0]].y);
		int order[3] = { 0, 1, 2 };
		cairo_matrix_t m;

		if (!tex_matrix(dv, it->uvs, tri, src, &m))
			continue;
		if (area < 0) {   /* wind every triangle the same way */
			order[1] = 2;
			order[2] = 1;
		}
		cairo_move_to(mc, dv[tri[order[0]]].x, dv[tri[order[0]]].y);
		cairo_line_to(mc, dv[tri[order[1]]].x, dv[tri[order[1]]].y);
		cairo_line_to(mc, dv[tri[order[2]]].x, dv[tri[order[2]]].y);
		cairo_close_path(mc);
	}
	cairo_fill(mc);
	cairo_destroy(mc);
	if (it->vcolors && !apply_vcolors(layer, it, dv, idx, nidx)) {
		free(dv);
		cairo_surface_destroy(layer);
		bb__clear_a8(cov, (int[4]){ 0, 0, box[2], box[3] });
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	free(dv);
	if (!bb__color_is_identity(&it->color))
		recolor(layer, &it->color);
	cairo_surface_mark_dirty(layer);
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_rectangle(cr, box[0], box[1], box[2], box[3]);
	cairo_clip(cr);
	cairo_set_source_surface(cr, layer, box[0], box[1]);
	cairo_mask_surface(cr, cov, box[0], box[1]);
	cairo_restore(cr);
	cairo_surface_destroy(layer);
	bb__clear_a8(cov, (int[4]){ 0, 0, box[2], box[3] });
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
	cairo_set_source_rgba(cr, bb__tint(it->fill.r, c->mul.r, c->dark.r, c->add.r),
	                      bb__tint(it->fill.g, c->mul.g, c->dark.g, c->add.g),
	                      bb__tint(it->fill.b, c->mul.b, c->dark.b, c->add.b), a);
	cairo_fill(cr);
}

bb_status bb__draw_textured(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                            bb_error *err)
{
	static const int quad_idx[6] = { 0, 1, 3, 1, 2, 3 };
	const int *idx = it->kind == BB_DRAW_QUAD ? quad_idx : it->indices;
	int nidx = it->kind == BB_DRAW_QUAD ? 6 : it->nindices, nomem;
	struct texsrc src;
	bb_status s = BB_OK;

	if (!it->texture && it->nverts > 0) {
		draw_flat(cr, it);
		return BB_OK;
	}
	if (!it->texture || it->nverts <= 0 ||
	    (it->kind == BB_DRAW_QUAD && it->nverts != 4))
		return BB_OK;
	if (!sub_texture(r, cr, it, idx, nidx, &src, &nomem))
		return nomem ? bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                            "out of memory for a texture") : BB_OK;
	if (it->kind == BB_DRAW_QUAD && !it->vcolors &&
	    bb__color_is_identity(&it->color) && src.filter != CAIRO_FILTER_BILINEAR &&
	    is_parallelogram(it->verts, it->uvs))
		s = draw_direct(r, cr, &src, it) == BB_OK ? BB_OK
		    : bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	else
		s = draw_layered(r, cr, &src, it, idx, nidx, err);
	cairo_surface_destroy(src.surf);
	return s;
}
