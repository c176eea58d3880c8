/* Contact sheets: a grid of frames with labels on one cairo surface. */
#include "config.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/contact.h"
#include "core/util.h"

enum {
	MARGIN = 8, GAP = 6, TITLE_H = 26, LABEL_H = 16, CHECK = 8,
	MIN_BOX_W = 84, MIN_CELL = 16
};

struct bb_contact_sheet {
	long frames;
	int cell_w, cell_h;       /* frame size */
	double k;                 /* frame scale in its cell */
	int box_w, box_h;         /* a cell's picture area */
	int cols, rows;
	int width, height;        /* the sheet */
	int title_h;
	cairo_surface_t *surf;
};

static void set_font(cairo_t *cr, double size, int bold)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* Grid and scale: columns for a roughly square sheet, cells scaled down
 * until the sheet fits max_side.  Returns 0 when it cannot fit. */
static int layout(bb_contact_sheet *s, int columns, int max_side, int titled)
{
	double k = 1;

	s->title_h = titled ? TITLE_H : 0;
	for (;;) {
		int fw = (int)ceil(s->cell_w * k - 1e-9), fh = (int)ceil(s->cell_h * k - 1e-9);
		long cols;

		s->box_w = fw < MIN_BOX_W ? MIN_BOX_W : fw;
		s->box_h = fh;
		cols = columns > 0 ? columns
		       : lround(ceil(sqrt((double)s->frames * (s->box_h + LABEL_H + GAP) /
		                          (s->box_w + GAP))));
		if (cols < 1)
			cols = 1;
		if (cols > s->frames)
			cols = s->frames;
		s->cols = (int)cols;
		s->rows = (int)((s->frames + cols - 1) / cols);
		s->k = k;
		if ((double)cols * (s->box_w + GAP) - GAP + 2 * MARGIN <= max_side &&
		    (double)s->rows * (s->box_h + LABEL_H + GAP) - GAP + 2 * MARGIN +
		    s->title_h <= max_side) {
			s->width = (int)cols * (s->box_w + GAP) - GAP + 2 * MARGIN;
			s->height = s->rows * (s->box_h + LABEL_H + GAP) - GAP + 2 * MARGIN +
			            s->title_h;
			return 1;
		}
		k *= 0.9;
		if (s->cell_w * k < MIN_CELL || s->cell_h * k < MIN_CELL)
			return 0;
	}
}

bb_status bb_contact_new(long frames, int cell_w, int cell_h,
                         const bb_contact_options *opts,
                         bb_contact_sheet **out, bb_error *err)
{
	bb_contact_options o = { 0 };
	bb_contact_sheet *s;
	cairo_t *cr;

	*out = NULL;
	if (opts)
		o = *opts;
	if (frames < 1 || cell_w < 1 || cell_h < 1 || o.columns < 0 || o.max_side < 0)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "contact sheet: "
		                    "%ld frames of %dx%d, %d columns", frames, cell_w,
		                    cell_h, o.columns);
	if (o.max_side == 0)
		o.max_side = 8192;
	s = calloc(1, sizeof *s);
	if (!s)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	s->frames = frames;
	s->cell_w = cell_w;
	s->cell_h = cell_h;
	if (!layout(s, o.columns, o.max_side, o.title && o.title[0])) {
		free(s);
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL, "contact sheet: "
		                    "%ld frames of %dx%d do not fit %d px", frames,
		                    cell_w, cell_h, o.max_side);
	}
	s->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, s->width, s->height);
	if (cairo_surface_status(s->surf) != CAIRO_STATUS_SUCCESS) {
		bb_contact_free(s);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	cr = cairo_create(s->surf);
	cairo_set_source_rgb(cr, 0.96, 0.96, 0.96);
	cairo_paint(cr);
	if (s->title_h) {
		set_font(cr, 15, 1);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_move_to(cr, MARGIN, MARGIN + 15);
		cairo_show_text(cr, o.title);
	}
	cairo_destroy(cr);
	*out = s;
	return BB_OK;
}

static void checkerboard(cairo_t *cr, int x0, int y0, int w, int h)
{
	int x, y;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, x0, y0, w, h);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
	for (y = 0; y < h; y += CHECK)
		for (x = (y / CHECK) % 2 * CHECK; x < w; x += 2 * CHECK)
			cairo_rectangle(cr, x0 + x, y0 + y, x + CHECK > w ? w - x : CHECK,
			                y + CHECK > h ? h - y : CHECK);
	cairo_fill(cr);
}

bb_status bb_contact_add(bb_contact_sheet *s, long index, double time,
                         const bb_image *frame, bb_error *err)
{
	cairo_surface_t *fs;
	cairo_t *cr;
	char label[64];
	int x, y, fw, fh;

	if (index < 0 || index >= s->frames || frame->width != s->cell_w ||
	    frame->height != s->cell_h)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "contact sheet: "
		                    "frame %ld (%dx%d) does not fit", index,
		                    frame->width, frame->height);
	fs = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, frame->width,
	                                frame->height);
	if (cairo_surface_status(fs) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(fs);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	cairo_surface_flush(fs);
	bb_image_to_premul_argb32(frame, cairo_image_surface_get_data(fs),
	                          (size_t)cairo_image_surface_get_stride(fs));
	cairo_surface_mark_dirty(fs);
	x = MARGIN + (int)(index % s->cols) * (s->box_w + GAP);
	y = MARGIN + s->title_h + (int)(index / s->cols) * (s->box_h + LABEL_H + GAP);
	fw = (int)ceil(s->cell_w * s->k - 1e-9);
	fh = (int)ceil(s->cell_h * s->k - 1e-9);
	cr = cairo_create(s->surf);
	cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
	cairo_rectangle(cr, x - 1, y - 1, s->box_w + 2, s->box_h + 2);
	cairo_fill(cr);
	checkerboard(cr, x, y, s->box_w, s->box_h);
	cairo_save(cr);
	cairo_translate(cr, x + (s->box_w - fw) / 2, y);
	cairo_rectangle(cr, 0, 0, fw, fh);
	cairo_clip(cr);
	cairo_scale(cr, s->k, s->k);
	cairo_set_source_surface(cr, fs, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), s->k < 1 ? CAIRO_FILTER_GOOD
	                         : CAIRO_FILTER_NEAREST);
	cairo_paint(cr);
	cairo_restore(cr);
	set_font(cr, 10.5, 0);
	cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
	snprintf(label, sizeof label, "#%ld  %.3f s", index, time);
	cairo_move_to(cr, x, y + s->box_h + 12);
	cairo_show_text(cr, label);
	cairo_destroy(cr);
	cairo_surface_destroy(fs);
	return BB_OK;
}

bb_status bb_contact_render(const bb_contact_sheet *s, bb_image **out,
                            bb_error *err)
{
	bb_status st;

	*out = NULL;
	st = bb_image_new(s->width, s->height, out, err);
	if (st != BB_OK)
		return st;
	cairo_surface_flush(s->surf);
	bb_image_from_premul_argb32(*out, cairo_image_surface_get_data(s->surf),
	                            (size_t)cairo_image_surface_get_stride(s->surf));
	return BB_OK;
}

void bb_contact_free(bb_contact_sheet *s)
{
	if (!s)
		return;
	if (s->surf)
		cairo_surface_destroy(s->surf);
	free(s);
}
