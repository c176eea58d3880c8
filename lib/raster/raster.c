/* The rasterizer: draw list -> cairo image surface -> bb_image.  The only
 * file that includes cairo.h.  It knows draw items, never formats. */
#include "config.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/render.h"
#include "core/util.h"
#include "raster/raster.h"

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

/* A cairo surface holding img premultiplied (converted once per texture). */
static cairo_surface_t *surface_from_image(const bb_image *img, int premultiplied)
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
	if (!premultiplied) {
		bb_image_to_premul_argb32(img, data, (size_t)stride);
	} else {
		/* already premultiplied RGBA: reorder only */
		for (y = 0; y < img->height; y++) {
			const uint8_t *in = bb_image_pixel(img, 0, y);
			uint32_t *row = (uint32_t *)(data + (size_t)y * stride);

			for (x = 0; x < img->width; x++, in += 4) {
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

cairo_surface_t *bb__raster_texture(bb_renderer *r, const bb_image *img,
                                   int premultiplied)
{
	size_t i;
	cairo_surface_t *s;

	for (i = 0; i < r->ntex; i++)
		if (r->tex[i].img == img)
			return r->tex[i].surf;
	s = surface_from_image(img, premultiplied);
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

int bb__color_is_identity(const bb_color_xform *c)
{
	return c->mul.r == 1 && c->mul.g == 1 && c->mul.b == 1 && c->mul.a == 1 &&
	       c->add.r == 0 && c->add.g == 0 && c->add.b == 0 && c->add.a == 0 &&
	       c->dark.r == 0 && c->dark.g == 0 && c->dark.b == 0;
}

cairo_operator_t bb__blend_op(bb_blend b)
{
	switch (b) {
	case BB_BLEND_NORMAL: return CAIRO_OPERATOR_OVER;
	case BB_BLEND_ADD: return CAIRO_OPERATOR_ADD;
	case BB_BLEND_MULTIPLY: return CAIRO_OPERATOR_MULTIPLY;
	case BB_BLEND_SCREEN: return CAIRO_OPERATOR_SCREEN;
	case BB_BLEND_SUBTRACT: return CAIRO_OPERATOR_OVER;  /* see draw_subtract */
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

/* A stand-in for a missing image: a 1-px outline of the quad (or of each
 * triangle of a mesh) in magenta, at the item's opacity. */
static void draw_outline(cairo_t *cr, const bb_draw_item *it)
{
	const bb_color_xform *c = &it->color;
	double lw = 1, ly = 0;
	int k, t;

	if (it->nverts < 3)
		return;
	cairo_save(cr);
	cairo_device_to_user_distance(cr, &lw, &ly);
	cairo_set_line_width(cr, hypot(lw, ly) > 0 ? hypot(lw, ly) : 1);
	cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
	if (it->kind == BB_DRAW_QUAD) {
		cairo_move_to(cr, it->verts[0].x, it->verts[0].y);
		for (k = 1; k < it->nverts; k++)
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
	cairo_set_source_rgba(cr, 1, 0, 1, clamp01(c->mul.a + c->add.a));
	cairo_stroke(cr);
	cairo_restore(cr);
}

static bb_status draw_item(bb_renderer *r, cairo_t *cr, const bb_draw_item *it,
                           bb_error *err)
{
	if (it->outline && it->kind != BB_DRAW_RECT) {
		draw_outline(cr, it);
		return BB_OK;
	}
	if (it->kind == BB_DRAW_RECT) {
		draw_rect(cr, it);
		return BB_OK;
	}
	if (it->kind == BB_DRAW_CLIP || it->kind == BB_DRAW_CLIP_END)
		return BB_OK;      /* bb_render handles them */
	return bb__draw_textured(r, cr, it, err);
}

int bb__raster_item_box(cairo_t *cr, const bb_draw_item *it, int box[4])
{
	cairo_surface_t *target = cairo_get_target(cr);
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	int k, n = it->kind == BB_DRAW_RECT ? 4 : it->nverts;

	for (k = 0; k < n; k++) {
		double x, y;

		if (it->kind == BB_DRAW_RECT) {
			double u = (k == 1 || k == 2 ? 0.5 : -0.5) * it->w;
			double v = (k >= 2 ? 0.5 : -0.5) * it->h;

			x = it->m.a * u + it->m.c * v + it->m.tx;
			y = it->m.b * u + it->m.d * v + it->m.ty;
		} else {
			x = it->verts[k].x;
			y = it->verts[k].y;
		}
		cairo_user_to_device(cr, &x, &y);
		if (!isfinite(x) || !isfinite(y))
			return 0;
		x0 = fmin(x0, x);
		y0 = fmin(y0, y);
		x1 = fmax(x1, x);
		y1 = fmax(y1, y);
	}
	x0 = fmax(0, floor(x0) - 2);
	y0 = fmax(0, floor(y0) - 2);
	x1 = fmin(cairo_image_surface_get_width(target), ceil(x1) + 2);
	y1 = fmin(cairo_image_surface_get_height(target), ceil(y1) + 2);
	if (!(x1 > x0 && y1 > y0))
		return 0;
	box[0] = (int)x0;
	box[1] = (int)y0;
	box[2] = (int)(x1 - x0);
	box[3] = (int)(y1 - y0);
	return 1;
}

/* dst.rgb -= src.rgb (premultiplied, clamped at 0); dst alpha unchanged. */
static void subtract_pixels(cairo_surface_t *dst, cairo_surface_t *src,
                            const int box[4])
{
	unsigned char *dd = cairo_image_surface_get_data(dst);
	unsigned char *sd = cairo_image_surface_get_data(src);
	int ds = cairo_image_surface_get_stride(dst);
	int ss = cairo_image_surface_get_stride(src), x, y, c;

	for (y = 0; y < box[3]; y++) {
		uint32_t *drow = (uint32_t *)(dd + (size_t)(y + box[1]) * ds) + box[0];
		const uint32_t *srow = (const uint32_t *)(sd + (size_t)y * ss);

		for (x = 0; x < box[2]; x++) {
			uint32_t d = drow[x], sp = srow[x], o = d & 0xff000000u;

			for (c = 0; c < 24; c += 8) {
				int v = (int)((d >> c) & 255) - (int)((sp >> c) & 255);

				o |= (uint32_t)(v > 0 ? v : 0) << c;
			}
			drow[x] = o;
		}
	}
}

/* Subtractive blending (cairo has no such operator): the item is drawn
 * over transparency in a layer, whose colour is then taken away from the
 * canvas under it, clamped at black; the canvas' alpha is kept. */
static bb_status draw_subtract(bb_renderer *r, cairo_t *cr,
                               const bb_draw_item *it, bb_error *err)
{
	cairo_surface_t *target = cairo_get_target(cr), *tmp;
	cairo_matrix_t m, shift;
	cairo_t *tc;
	bb_status s;
	int box[4];

	if (!bb__raster_item_box(cr, it, box))
		return BB_OK;
	tmp = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, box[2], box[3]);
	tc = cairo_create(tmp);
	cairo_get_matrix(cr, &m);
	cairo_matrix_init_translate(&shift, -box[0], -box[1]);
	cairo_matrix_multiply(&m, &m, &shift);
	cairo_set_matrix(tc, &m);
	cairo_set_antialias(tc, cairo_get_antialias(cr));
	cairo_set_operator(tc, CAIRO_OPERATOR_OVER);
	s = draw_item(r, tc, it, err);
	if (s == BB_OK && cairo_status(tc) != CAIRO_STATUS_SUCCESS)
		s = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "cairo: %s",
		                 cairo_status_to_string(cairo_status(tc)));
	cairo_destroy(tc);
	if (s == BB_OK) {
		cairo_surface_flush(tmp);
		cairo_surface_flush(target);
		subtract_pixels(target, tmp, box);
		cairo_surface_mark_dirty_rectangle(target, box[0], box[1], box[2],
		                                   box[3]);
	}
	cairo_surface_destroy(tmp);
	return s;
}

/* A clip item: cairo's clip to the polygon (saved state, so the end item
 * restores what was there); clips do not nest. */
static void clip_item(cairo_t *cr, const bb_draw_item *it, int *clips)
{
	int k;

	if (it->kind == BB_DRAW_CLIP_END) {
		if (*clips > 0) {
			cairo_restore(cr);
			(*clips)--;
		}
		return;
	}
	cairo_save(cr);
	(*clips)++;
	cairo_new_path(cr);
	for (k = 0; k < it->nverts; k++) {
		if (!isfinite(it->verts[k].x) || !isfinite(it->verts[k].y))
			continue;
		if (k == 0)
			cairo_move_to(cr, it->verts[k].x, it->verts[k].y);
		else
			cairo_line_to(cr, it->verts[k].x, it->verts[k].y);
	}
	cairo_close_path(cr);
	cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
	cairo_clip(cr);
}

bb_status bb_render(bb_renderer *r, const bb_drawlist *dl, const bb_view *view,
                    bb_image *out, bb_error *err)
{
	cairo_surface_t *surf;
	cairo_t *cr;
	double scale = view->scale > 0 ? view->scale : 1;
	bb_status s = BB_OK;
	int i, clips = 0;

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

		if (it->kind == BB_DRAW_CLIP || it->kind == BB_DRAW_CLIP_END) {
			clip_item(cr, it, &clips);
			continue;
		}
		cairo_set_operator(cr, bb__blend_op(it->blend));
		if (it->blend == BB_BLEND_SUBTRACT)
			s = draw_subtract(r, cr, it, err);
		else
			s = draw_item(r, cr, it, err);
	}
	while (clips-- > 0)
		cairo_restore(cr);
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
