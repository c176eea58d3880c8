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

bb_status bb_renderer_new(bb_renderer **out, bb_error *err)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	return BB_OK;
}

void bb_renderer_free(bb_renderer *r)
{
	if (!r)
		return;
	bb__texcache_free(r);
	cairo_surface_destroy(r->canvas);
	cairo_surface_destroy(r->coverage);
	free(r->layer);
	free(r);
}

static const cairo_user_data_key_t own_pixels;

cairo_surface_t *bb__raster_zeroed(cairo_format_t format, int w, int h)
{
	int stride = cairo_format_stride_for_width(format, w);
	unsigned char *px;
	cairo_surface_t *s;

	if (stride <= 0 || h <= 0 ||
	    !(px = bb__alloc_pixels((size_t)stride * (size_t)h)))
		return NULL;
	memset(px, 0, (size_t)stride * (size_t)h);
	s = cairo_image_surface_create_for_data(px, format, w, h, stride);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS ||
	    cairo_surface_set_user_data(s, &own_pixels, px, free) !=
	    CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		free(px);
		return NULL;
	}
	return s;
}

cairo_surface_t *bb__raster_coverage(bb_renderer *r, int w, int h)
{
	if (r->coverage && (cairo_image_surface_get_width(r->coverage) < w ||
	                    cairo_image_surface_get_height(r->coverage) < h)) {
		w = w > cairo_image_surface_get_width(r->coverage) ? w
		    : cairo_image_surface_get_width(r->coverage);
		h = h > cairo_image_surface_get_height(r->coverage) ? h
		    : cairo_image_surface_get_height(r->coverage);
		cairo_surface_destroy(r->coverage);
		r->coverage = NULL;
	}
	if (!r->coverage)
		r->coverage = bb__raster_zeroed(CAIRO_FORMAT_A8, w, h);
	return r->coverage;
}

void bb__clear_a8(cairo_surface_t *s, const int box[4])
{
	unsigned char *px = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s), y;

	cairo_surface_flush(s);
	for (y = box[1]; y < box[1] + box[3]; y++)
		memset(px + (size_t)y * stride + box[0], 0, (size_t)box[2]);
	cairo_surface_mark_dirty_rectangle(s, box[0], box[1], box[2], box[3]);
}

cairo_surface_t *bb__raster_layer(bb_renderer *r, int w, int h)
{
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w);
	size_t bytes = (size_t)stride * (size_t)h;
	cairo_surface_t *s;

	if (stride <= 0 || h <= 0)
		return NULL;
	if (bytes > r->layer_bytes) {
		free(r->layer);
		r->layer = malloc(bytes);
		r->layer_bytes = r->layer ? bytes : 0;
		if (!r->layer)
			return NULL;
	}
	memset(r->layer, 0, bytes);
	s = cairo_image_surface_create_for_data(r->layer, CAIRO_FORMAT_ARGB32, w, h,
	                                        stride);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(s);
		return NULL;
	}
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

double bb__tint(double v, double mul, double dark, double add)
{
	return clamp01(v * mul + (1 - v) * dark + add);
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
	cairo_set_source_rgba(cr, bb__tint(it->fill.r, c->mul.r, c->dark.r, c->add.r),
	                      bb__tint(it->fill.g, c->mul.g, c->dark.g, c->add.g),
	                      bb__tint(it->fill.b, c->mul.b, c->dark.b, c->add.b),
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

/* Device extent {x0, y0, x1, y1} of the item's points (corners of a
 * rectangle); 0 when it has none or one is not finite. */
static int item_extent(cairo_t *cr, const bb_draw_item *it, double e[4])
{
	int k, n = it->kind == BB_DRAW_RECT ? 4 : it->nverts;

	e[0] = e[1] = INFINITY;
	e[2] = e[3] = -INFINITY;
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
		e[0] = fmin(e[0], x);
		e[1] = fmin(e[1], y);
		e[2] = fmax(e[2], x);
		e[3] = fmax(e[3], y);
	}
	return n > 0;
}

/* The extent grown by 2 px (antialiasing, 1-px outlines) and clipped to
 * the canvas, as {x, y, w, h}; 0 when empty. */
static int extent_box(cairo_t *cr, const double e[4], int box[4])
{
	cairo_surface_t *target = cairo_get_target(cr);
	double x0 = fmax(0, floor(e[0]) - 2), y0 = fmax(0, floor(e[1]) - 2);
	double x1 = fmin(cairo_image_surface_get_width(target), ceil(e[2]) + 2);
	double y1 = fmin(cairo_image_surface_get_height(target), ceil(e[3]) + 2);

	if (!(x1 > x0 && y1 > y0))
		return 0;
	box[0] = (int)x0;
	box[1] = (int)y0;
	box[2] = (int)(x1 - x0);
	box[3] = (int)(y1 - y0);
	return 1;
}

int bb__raster_item_box(cairo_t *cr, const bb_draw_item *it, int box[4])
{
	double e[4];

	return item_extent(cr, it, e) && extent_box(cr, e, box);
}

/* The polygon of clip item `clip` as cr's path (points that are not
 * finite left out). */
static void clip_path(cairo_t *cr, const bb_draw_item *clip)
{
	int k, started = 0;

	cairo_new_path(cr);
	for (k = 0; k < clip->nverts; k++) {
		double x = clip->verts[k].x, y = clip->verts[k].y;

		if (!isfinite(x) || !isfinite(y))
			continue;
		if (started)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
		started = 1;
	}
	cairo_close_path(cr);
}

/* A clip item.  BB_DRAW_CLIP saves cr's state and clips to the polygon
 * (non-zero winding); *clip is the item and cbox the device box
 * {x, y, w, h} it lets through (w = 0: nothing; the whole canvas when a
 * point is not finite).  BB_DRAW_CLIP_END restores the state.  Clips do
 * not nest, as in Spine: a clip while one runs is ignored, and so is an
 * end without one. */
static void clip_item(cairo_t *cr, const bb_draw_item *it,
                      const bb_draw_item **clip, int cbox[4])
{
	cairo_surface_t *target = cairo_get_target(cr);
	double e[4];
	int k, finite = 1;

	if (it->kind == BB_DRAW_CLIP_END) {
		if (*clip)
			cairo_restore(cr);
		*clip = NULL;
		return;
	}
	if (*clip)
		return;
	*clip = it;
	cairo_save(cr);
	clip_path(cr, it);
	cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
	cairo_clip(cr);
	for (k = 0; k < it->nverts; k++)
		finite = finite && isfinite(it->verts[k].x) && isfinite(it->verts[k].y);
	if (!finite) {
		cbox[0] = cbox[1] = 0;
		cbox[2] = cairo_image_surface_get_width(target);
		cbox[3] = cairo_image_surface_get_height(target);
	} else if (!item_extent(cr, it, e) || !extent_box(cr, e, cbox)) {
		cbox[0] = cbox[1] = cbox[2] = cbox[3] = 0;
	}
}

/* box {x, y, w, h} &= with; 0 when nothing is left. */
static int box_intersect(int box[4], const int with[4])
{
	int x0 = box[0] > with[0] ? box[0] : with[0];
	int y0 = box[1] > with[1] ? box[1] : with[1];
	int x1 = box[0] + box[2] < with[0] + with[2] ? box[0] + box[2]
	         : with[0] + with[2];
	int y1 = box[1] + box[3] < with[1] + with[3] ? box[1] + box[3]
	         : with[1] + with[3];

	if (x1 <= x0 || y1 <= y0)
		return 0;
	box[0] = x0;
	box[1] = y0;
	box[2] = x1 - x0;
	box[3] = y1 - y0;
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
 * over transparency in a layer (clipped by `clip` if one runs, whose box
 * is cbox), whose colour is then taken away from the canvas under it,
 * clamped at black; the canvas' alpha is kept. */
static bb_status draw_subtract(bb_renderer *r, cairo_t *cr,
                               const bb_draw_item *it, const bb_draw_item *clip,
                               const int cbox[4], bb_error *err)
{
	cairo_surface_t *target = cairo_get_target(cr), *tmp;
	cairo_matrix_t m, shift;
	cairo_t *tc;
	bb_status s;
	int box[4];

	if (!bb__raster_item_box(cr, it, box) || (clip && !box_intersect(box, cbox)))
		return BB_OK;
	tmp = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, box[2], box[3]);
	tc = cairo_create(tmp);
	cairo_get_matrix(cr, &m);
	cairo_matrix_init_translate(&shift, -box[0], -box[1]);
	cairo_matrix_multiply(&m, &m, &shift);
	cairo_set_matrix(tc, &m);
	cairo_set_antialias(tc, cairo_get_antialias(cr));
	if (clip) {   /* the layer is clipped as the canvas is */
		clip_path(tc, clip);
		cairo_clip(tc);
	}
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

/* 1 when the item cannot change a pixel, whatever its texels: its colour
 * transform takes every alpha to 0, or it is a filled shape without area
 * (all its points on one vertical or horizontal line; outlines still
 * stroke).  e: its device extent. */
static int item_invisible(const bb_draw_item *it, const double e[4])
{
	const bb_color_xform *c = &it->color;

	if (fmax(c->mul.a, 0) + c->add.a <= 0)
		return 1;
	if (it->kind == BB_DRAW_RECT)
		return !(clamp01(it->fill.a * c->mul.a + c->add.a) > 0);
	return !it->outline && (e[0] == e[2] || e[1] == e[3]);
}

static void box_union(int acc[4], const int box[4])
{
	acc[0] = acc[2] > acc[0] ? (box[0] < acc[0] ? box[0] : acc[0]) : box[0];
	acc[1] = acc[3] > acc[1] ? (box[1] < acc[1] ? box[1] : acc[1]) : box[1];
	acc[2] = acc[2] > box[0] + box[2] ? acc[2] : box[0] + box[2];
	acc[3] = acc[3] > box[1] + box[3] ? acc[3] : box[1] + box[3];
}

static int same_rgba(bb_rgba a, bb_rgba b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* The renderer's canvas for a w x h frame, its last frame's pixels
 * replaced by `clear` (only the box it drew in, when the clear colour is
 * unchanged).  NULL when out of memory. */
static cairo_surface_t *canvas_for(bb_renderer *r, int w, int h, bb_rgba clear)
{
	int *d = r->dirty, y;

	if (r->canvas && (cairo_image_surface_get_width(r->canvas) != w ||
	                  cairo_image_surface_get_height(r->canvas) != h)) {
		cairo_surface_destroy(r->canvas);
		r->canvas = NULL;
	}
	if (!r->canvas) {
		r->canvas = bb__raster_zeroed(CAIRO_FORMAT_ARGB32, w, h);
		if (!r->canvas)
			return NULL;
		memset(d, 0, sizeof r->dirty);
		r->clear = (bb_rgba){ 0, 0, 0, 0 };
	}
	if (!same_rgba(clear, r->clear)) {
		d[0] = d[1] = 0;
		d[2] = w;
		d[3] = h;
	}
	if (d[2] > d[0] && d[3] > d[1]) {
		if (clear.a > 0) {
			cairo_t *cr = cairo_create(r->canvas);

			cairo_set_source_rgba(cr, clear.r, clear.g, clear.b, clear.a);
			cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
			cairo_rectangle(cr, d[0], d[1], d[2] - d[0], d[3] - d[1]);
			cairo_fill(cr);
			cairo_destroy(cr);
		} else {
			unsigned char *px = cairo_image_surface_get_data(r->canvas);
			int stride = cairo_image_surface_get_stride(r->canvas);

			cairo_surface_flush(r->canvas);
			for (y = d[1]; y < d[3]; y++)
				memset(px + (size_t)y * stride + (size_t)d[0] * 4, 0,
				       (size_t)(d[2] - d[0]) * 4);
			cairo_surface_mark_dirty_rectangle(r->canvas, d[0], d[1],
			                                   d[2] - d[0], d[3] - d[1]);
		}
	}
	memset(d, 0, sizeof r->dirty);
	r->clear = clear;
	return r->canvas;
}

/* Canvas -> out: the box the frame drew in is converted, the rest is the
 * clear colour (any pixel outside the box holds it). */
static void canvas_to_image(cairo_surface_t *canvas, const int d[4], bb_image *out)
{
	const unsigned char *px = cairo_image_surface_get_data(canvas);
	size_t stride = (size_t)cairo_image_surface_get_stride(canvas);
	int w = out->width, h = out->height, x, y, cx, cy;
	uint8_t clear[4];
	bb_image view;

	cairo_surface_flush(canvas);
	if (d[2] > d[0] && d[3] > d[1]) {
		view.width = d[2] - d[0];
		view.height = d[3] - d[1];
		view.stride = out->stride;
		view.px = bb_image_pixel(out, d[0], d[1]);
		bb_image_from_premul_argb32(&view, px + (size_t)d[1] * stride +
		                            (size_t)d[0] * 4, stride);
		if (d[0] == 0 && d[1] == 0 && d[2] == w && d[3] == h)
			return;
	}
	/* a pixel outside the box */
	cx = cy = 0;
	if (d[2] > d[0] && d[3] > d[1] && d[1] == 0) {
		if (d[3] < h)
			cy = h - 1;
		else if (d[0] == 0)
			cx = w - 1;
	}
	view.width = view.height = 1;
	view.stride = 4;
	view.px = clear;
	bb_image_from_premul_argb32(&view, px + (size_t)cy * stride + (size_t)cx * 4,
	                            stride);
	for (y = 0; y < h; y++) {
		uint8_t *row = bb_image_pixel(out, 0, y);
		int inside = y >= d[1] && y < d[3] && d[2] > d[0];
		int spans[2][2] = { { 0, inside ? d[0] : w }, { inside ? d[2] : w, w } };
		int k;

		for (k = 0; k < 2; k++) {
			if (clear[0] == 0 && clear[1] == 0 && clear[2] == 0 && clear[3] == 0) {
				if (spans[k][1] > spans[k][0])
					memset(row + (size_t)spans[k][0] * 4, 0,
					       (size_t)(spans[k][1] - spans[k][0]) * 4);
				continue;
			}
			for (x = spans[k][0]; x < spans[k][1]; x++)
				memcpy(row + (size_t)x * 4, clear, 4);
		}
	}
}

/* Paints dl on r's canvas of w x h: *canvas, or an error (r's next frame
 * then starts from scratch). */
static bb_status paint(bb_renderer *r, const bb_drawlist *dl,
                       const bb_view *view, int w, int h,
                       cairo_surface_t **canvas, bb_error *err)
{
	cairo_surface_t *surf;
	cairo_t *cr;
	double scale = view->scale > 0 ? view->scale : 1;
	bb_rgba clear = view->background.a > 0 ? view->background
	                                       : (bb_rgba){ 0, 0, 0, 0 };
	const bb_draw_item *clip = NULL;   /* the clip running, if any */
	bb_status s = BB_OK;
	int i, cbox[4] = { 0, 0, 0, 0 };

	if (view->filter < BB_FILTER_DEFAULT || view->filter > BB_FILTER_BEST)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "unknown texture filter %d", (int)view->filter);
	/* a view cairo could not invert draws nothing sensible */
	if (!isfinite(scale) || scale < 1e-6 || scale > 1e6 ||
	    !isfinite(view->origin_x) || !isfinite(view->origin_y))
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "view scale %g or "
		                    "origin (%g, %g) out of range", scale, view->origin_x,
		                    view->origin_y);
	r->filter = view->filter != BB_FILTER_DEFAULT ? view->filter : BB_FILTER_GOOD;
	surf = canvas_for(r, w, h, clear);
	if (!surf)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                    "cannot create a %dx%d canvas", w, h);
	cr = cairo_create(surf);
	cairo_translate(cr, view->origin_x, view->origin_y);
	cairo_scale(cr, scale, scale);
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
	for (i = 0; i < dl->count && s == BB_OK; i++) {
		const bb_draw_item *it = &dl->items[i];
		int box[4] = { 0, 0, w, h };
		double e[4];

		/* clips first: never culled, they paint nothing themselves */
		if (it->kind == BB_DRAW_CLIP || it->kind == BB_DRAW_CLIP_END) {
			clip_item(cr, it, &clip, cbox);
			continue;
		}
		/* culled before any cairo work: nothing it could paint shows */
		if (item_extent(cr, it, e)) {
			if (item_invisible(it, e) || !extent_box(cr, e, box))
				continue;
		} else if (it->kind != BB_DRAW_RECT && it->nverts <= 0) {
			continue;
		}
		if (clip && !box_intersect(box, cbox))
			continue;   /* wholly outside the clip */
		box_union(r->dirty, box);
		cairo_set_operator(cr, bb__blend_op(it->blend));
		if (it->blend == BB_BLEND_SUBTRACT)
			s = draw_subtract(r, cr, it, clip, cbox, err);
		else
			s = draw_item(r, cr, it, err);
	}
	if (clip)
		cairo_restore(cr);
	if (s == BB_OK && cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		s = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "cairo: %s",
		                 cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	if (s != BB_OK) {
		/* a part-drawn frame: the next one starts from scratch */
		r->dirty[0] = r->dirty[1] = 0;
		r->dirty[2] = w;
		r->dirty[3] = h;
	}
	*canvas = surf;
	return s;
}

bb_status bb_render(bb_renderer *r, const bb_drawlist *dl, const bb_view *view,
                    bb_image *out, bb_error *err)
{
	cairo_surface_t *canvas;
	bb_status s = paint(r, dl, view, out->width, out->height, &canvas, err);

	if (s == BB_OK) {
		canvas_to_image(canvas, r->dirty, out);
		out->premultiplied = 0;   /* straight RGBA, whatever it held */
		out->argb32 = 0;
	}
	return s;
}

bb_status bb_render_argb32(bb_renderer *r, const bb_drawlist *dl,
                           const bb_view *view, int width, int height,
                           bb_image *out, bb_error *err)
{
	cairo_surface_t *canvas;
	bb_status s;

	memset(out, 0, sizeof *out);
	if (width < 1 || height < 1 || width > BB_IMAGE_MAX_SIDE ||
	    height > BB_IMAGE_MAX_SIDE)
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL, "canvas size %dx%d "
		                    "outside 1..%d", width, height, BB_IMAGE_MAX_SIDE);
	if ((s = paint(r, dl, view, width, height, &canvas, err)) != BB_OK)
		return s;
	cairo_surface_flush(canvas);
	out->width = width;
	out->height = height;
	out->stride = (size_t)cairo_image_surface_get_stride(canvas);
	out->px = cairo_image_surface_get_data(canvas);
	out->premultiplied = out->argb32 = 1;
	return BB_OK;
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
