/* The rasterizer: draw list -> cairo image surface -> bb_image.  The only
 * file that includes cairo.h.  It knows draw items, never formats. */
#include "config.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/render.h"
#include "core/util.h"

struct tex_entry {
	const bb_image *img;
	cairo_surface_t *surf;
};

struct bb_renderer {
	struct tex_entry *tex;
	size_t ntex, cap;
};

bb_status bb_renderer_new(bb_renderer **out, bb_error *err)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	return BB_OK;
}

void bb_renderer_free(bb_renderer *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->ntex; i++)
		cairo_surface_destroy(r->tex[i].surf);
	free(r->tex);
	free(r);
}

static cairo_surface_t *surface_from_image(const bb_image *img,
                                           const bb_color_xform *ct,
                                           int premultiplied)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
	                                                img->width, img->height);
	unsigned char *data;
	int stride, x, y;

	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return NULL;
	}
	cairo_surface_flush(s);
	data = cairo_image_surface_get_data(s);
	stride = cairo_image_surface_get_stride(s);
	if (!ct && !premultiplied) {
		bb_image_to_premul_argb32(img, data, (size_t)stride);
	} else {
		/* colour transform on straight colour, then premultiply */
		for (y = 0; y < img->height; y++) {
			const uint8_t *in = bb_image_pixel(img, 0, y);
			uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

			for (x = 0; x < img->width; x++, in += 4) {
				double c[4] = { in[0] / 255.0, in[1] / 255.0, in[2] / 255.0,
				                in[3] / 255.0 };
				unsigned v[4];
				int k;

				if (premultiplied && c[3] > 0)
					for (k = 0; k < 3; k++)
						c[k] /= c[3];
				if (ct) {
					c[0] = c[0] * ct->mul.r + ct->add.r;
					c[1] = c[1] * ct->mul.g + ct->add.g;
					c[2] = c[2] * ct->mul.b + ct->add.b;
					c[3] = c[3] * ct->mul.a + ct->add.a;
				}
				for (k = 0; k < 4; k++)
					c[k] = c[k] < 0 ? 0 : c[k] > 1 ? 1 : c[k];
				for (k = 0; k < 3; k++)
					v[k] = (unsigned)lrint(c[k] * c[3] * 255);
				v[3] = (unsigned)lrint(c[3] * 255);
				row[x] = v[3] << 24 | v[0] << 16 | v[1] << 8 | v[2];
			}
		}
	}
	cairo_surface_mark_dirty(s);
	return s;
}

static cairo_surface_t *texture(bb_renderer *r, const bb_image *img,
                                int premultiplied)
{
	size_t i;
	cairo_surface_t *s;

	for (i = 0; i < r->ntex; i++)
		if (r->tex[i].img == img)
			return r->tex[i].surf;
	s = surface_from_image(img, NULL, premultiplied);
	if (!s || !bb__grow((void **)&r->tex, &r->cap, r->ntex + 1, sizeof *r->tex)) {
		if (s)
			cairo_surface_destroy(s);
		return NULL;
	}
	r->tex[r->ntex].img = img;
	r->tex[r->ntex].surf = s;
	r->ntex++;
	return s;
}

static int is_identity(const bb_color_xform *c)
{
	return c->mul.r == 1 && c->mul.g == 1 && c->mul.b == 1 && c->mul.a == 1 &&
	       c->add.r == 0 && c->add.g == 0 && c->add.b == 0 && c->add.a == 0;
}

static cairo_operator_t blend_op(bb_blend b)
{
	switch (b) {
	case BB_BLEND_NORMAL: return CAIRO_OPERATOR_OVER;
	case BB_BLEND_ADD: return CAIRO_OPERATOR_ADD;
	case BB_BLEND_MULTIPLY: return CAIRO_OPERATOR_MULTIPLY;
	case BB_BLEND_SCREEN: return CAIRO_OPERATOR_SCREEN;
	case BB_BLEND_SUBTRACT: return CAIRO_OPERATOR_DIFFERENCE;
	}
	return CAIRO_OPERATOR_OVER;
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

static void rounded_rect(cairo_t *cr, double w, double h, double r)
{
	double x = -w / 2, y = -h / 2;

	if (r > w / 2) r = w / 2;
	if (r > h / 2) r = h / 2;
	if (r <= 0) {
		cairo_rectangle(cr, x, y, w, h);
		return;
	}
	cairo_new_sub_path(cr);
	cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
	cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
	cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
	cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
	cairo_close_path(cr);
}

static void draw_rect(cairo_t *cr, const bb_draw_item *it)
{
	cairo_matrix_t m;
	const bb_color_xform *c = &it->color;
	double det = it->m.a * it->m.d - it->m.b * it->m.c;

	if (it->w <= 0 || it->h <= 0 || det == 0 || !isfinite(det))
		return;
	cairo_save(cr);
	cairo_matrix_init(&m, it->m.a, it->m.b, it->m.c, it->m.d, it->m.tx, it->m.ty);
	cairo_transform(cr, &m);
	rounded_rect(cr, it->w, it->h, it->radius);
	cairo_restore(cr);
	cairo_set_source_rgba(cr, clamp01(it->fill.r * c->mul.r + c->add.r),
	                      clamp01(it->fill.g * c->mul.g + c->add.g),
	                      clamp01(it->fill.b * c->mul.b + c->add.b),
	                      clamp01(it->fill.a * c->mul.a + c->add.a));
	cairo_fill(cr);
}

/* Paints the triangle (i0,i1,i2) of item it from texture surface src:
 * the affine taking texture pixels to world is solved from the three
 * vertex/uv pairs.  `path` decides which outline is filled. */
static int uv_to_world(const bb_vec2 *v, const bb_vec2 *uv, int i0, int i1,
                       int i2, cairo_matrix_t *out)
{
	double du1 = uv[i1].x - uv[i0].x, dv1 = uv[i1].y - uv[i0].y;
	double du2 = uv[i2].x - uv[i0].x, dv2 = uv[i2].y - uv[i0].y;
	double dx1 = v[i1].x - v[i0].x, dy1 = v[i1].y - v[i0].y;
	double dx2 = v[i2].x - v[i0].x, dy2 = v[i2].y - v[i0].y;
	double det = du1 * dv2 - du2 * dv1;
	double a, b, c, d;

	if (fabs(det) < 1e-12)
		return 0;
	/* [dx] = [a c][du] */
	a = (dx1 * dv2 - dx2 * dv1) / det;
	c = (dx2 * du1 - dx1 * du2) / det;
	b = (dy1 * dv2 - dy2 * dv1) / det;
	d = (dy2 * du1 - dy1 * du2) / det;
	cairo_matrix_init(out, a, b, c, d, v[i0].x - a * uv[i0].x - c * uv[i0].y,
	                  v[i0].y - b * uv[i0].x - d * uv[i0].y);
	return cairo_matrix_invert(out) == CAIRO_STATUS_SUCCESS;
}

static void paint_triangles(cairo_t *cr, cairo_surface_t *src,
                            const bb_draw_item *it, const int *idx, int nidx,
                            int whole_quad)
{
	cairo_pattern_t *pat = cairo_pattern_create_for_surface(src);
	cairo_matrix_t m;
	int t;

	cairo_pattern_set_filter(pat, CAIRO_FILTER_BILINEAR);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
	for (t = 0; t + 2 < nidx; t += 3) {
		const bb_vec2 *v = it->verts;

		if (!uv_to_world(v, it->uvs, idx[t], idx[t + 1], idx[t + 2], &m))
			continue;
		cairo_pattern_set_matrix(pat, &m);
		cairo_set_source(cr, pat);
		cairo_move_to(cr, v[idx[t]].x, v[idx[t]].y);
		if (whole_quad) {
			int k;

			for (k = 1; k < 4; k++)
				cairo_line_to(cr, v[k].x, v[k].y);
			cairo_close_path(cr);
			cairo_fill(cr);
			break;
		}
		cairo_line_to(cr, v[idx[t + 1]].x, v[idx[t + 1]].y);
		cairo_line_to(cr, v[idx[t + 2]].x, v[idx[t + 2]].y);
		cairo_close_path(cr);
		cairo_fill(cr);
	}
	cairo_pattern_destroy(pat);
}

/* A quad whose corners form a parallelogram maps with one affine. */
static int is_parallelogram(const bb_vec2 *v, const bb_vec2 *uv)
{
	double ex = v[0].x + v[2].x - v[1].x - v[3].x;
	double ey = v[0].y + v[2].y - v[1].y - v[3].y;
	double eu = uv[0].x + uv[2].x - uv[1].x - uv[3].x;
	double ev = uv[0].y + uv[2].y - uv[1].y - uv[3].y;

	return fabs(ex) < 1e-6 && fabs(ey) < 1e-6 && fabs(eu) < 1e-6 &&
	       fabs(ev) < 1e-6;
}

static bb_status draw_textured(bb_renderer *r, cairo_t *cr,
                               const bb_draw_item *it, bb_error *err)
{
	static const int quad_idx[6] = { 0, 1, 3, 1, 2, 3 };
	cairo_surface_t *src, *owned = NULL;

	if (!it->texture || it->nverts <= 0)
		return BB_OK;
	if (is_identity(&it->color)) {
		src = texture(r, it->texture, it->premultiplied);
	} else {
		src = owned = surface_from_image(it->texture, &it->color,
		                                 it->premultiplied);
	}
	if (!src)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                    "out of memory for a texture");
	if (it->kind == BB_DRAW_QUAD) {
		if (it->nverts == 4)
			paint_triangles(cr, src, it, quad_idx, 6,
			                is_parallelogram(it->verts, it->uvs));
	} else {
		paint_triangles(cr, src, it, it->indices, it->nindices, 0);
	}
	if (owned)
		cairo_surface_destroy(owned);
	return BB_OK;
}

bb_status bb_render(bb_renderer *r, const bb_drawlist *dl, const bb_view *view,
                    bb_image *out, bb_error *err)
{
	cairo_surface_t *surf;
	cairo_t *cr;
	double scale = view->scale > 0 ? view->scale : 1;
	bb_status s = BB_OK;
	int i;

	surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, out->width,
	                                  out->height);
	if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surf);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                    "cannot create a %dx%d canvas", out->width,
		                    out->height);
	}
	cr = cairo_create(surf);
	if (view->background.a > 0) {
		cairo_set_source_rgba(cr, view->background.r, view->background.g,
		                      view->background.b, view->background.a);
		cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
		cairo_paint(cr);
	}
	cairo_translate(cr, view->origin_x, view->origin_y);
	cairo_scale(cr, scale, scale);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
	for (i = 0; i < dl->count && s == BB_OK; i++) {
		const bb_draw_item *it = &dl->items[i];

		cairo_set_operator(cr, blend_op(it->blend));
		if (it->kind == BB_DRAW_RECT)
			draw_rect(cr, it);
		else
			s = draw_textured(r, cr, it, err);
	}
	if (s == BB_OK && cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		s = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "cairo: %s",
		                 cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	if (s == BB_OK)
		bb_image_from_premul_argb32(out, cairo_image_surface_get_data(surf),
		                            (size_t)cairo_image_surface_get_stride(surf));
	cairo_surface_destroy(surf);
	return s;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

int bb_parse_color(const char *s, bb_rgba *out)
{
	static const struct { const char *name; bb_rgba c; } names[] = {
		{ "transparent", { 0, 0, 0, 0 } }, { "white", { 1, 1, 1, 1 } },
		{ "black", { 0, 0, 0, 1 } }, { "gray", { 0.5, 0.5, 0.5, 1 } },
		{ "grey", { 0.5, 0.5, 0.5, 1 } }, { "red", { 1, 0, 0, 1 } },
		{ "green", { 0, 1, 0, 1 } }, { "blue", { 0, 0, 1, 1 } },
		{ "magenta", { 1, 0, 1, 1 } },
	};
	int v[8], n, i;
	size_t k;

	for (k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strcmp(s, names[k].name) == 0) {
			*out = names[k].c;
			return 1;
		}
	if (s[0] != '#')
		return 0;
	s++;
	n = (int)strlen(s);
	if (n != 3 && n != 6 && n != 8)
		return 0;
	for (i = 0; i < n; i++)
		if ((v[i] = hexval(s[i])) < 0)
			return 0;
	if (n == 3) {
		out->r = v[0] * 17 / 255.0;
		out->g = v[1] * 17 / 255.0;
		out->b = v[2] * 17 / 255.0;
		out->a = 1;
		return 1;
	}
	out->r = (v[0] * 16 + v[1]) / 255.0;
	out->g = (v[2] * 16 + v[3]) / 255.0;
	out->b = (v[4] * 16 + v[5]) / 255.0;
	out->a = n == 8 ? (v[6] * 16 + v[7]) / 255.0 : 1;
	return 1;
}
