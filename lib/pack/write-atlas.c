/* libGDX / Spine texture atlas writer, the current format (libGDX 1.9.12+,
 * Spine 4):
 *
 *   sheet.png                    a page: image file, then its fields
 *   size:256,128
 *   format:RGBA8888
 *   filter:Linear,Linear
 *   repeat:none
 *   pma:true                     only for premultiplied pages
 *   walk                         a region: name, then its fields
 *   bounds:2,2,30,40             x, y, unrotated width and height
 *   offsets:3,1,36,48            trim: left, bottom (y up!), whole w, h
 *   rotate:90                    turned 90° counter-clockwise
 *   index:0                      frame number: findRegions("walk") order
 *
 * Pages are separated by a blank line.  Frames of an animation share the
 * animation's name and carry `index`; other frames use their own name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bonebake/pack.h"
#include "pack/pack-int.h"

static bb_status check_line(const char *s, bb_error *err)
{
	if (strpbrk(s, ":\r\n") || s[0] == ' ' || s[0] == '\t')
		return bb_error_set(err, BB_ERR_USAGE, s, NULL,
		                    "a libGDX atlas name cannot hold ':', a line "
		                    "break or leading blanks");
	return BB_OK;
}

bb_status bb__write_libgdx(const bb_sheet *s, const char *base,
                           bb_sheet_files *out, bb_error *err)
{
	bb__sbuf b = { 0 };
	char name[256];
	size_t p, i;
	bb_status st;

	for (i = 0; i < s->n_frames; i++) {
		const bb_sheet_frame *f = &s->frames[i];

		st = check_line(f->anim >= 0 ? s->anims[f->anim].name : f->name, err);
		if (st != BB_OK)
			return st;
	}
	for (p = 0; p < s->n_pages; p++) {
		char image[256];

		bb__sheet_page_name(s, base, p, image, sizeof image);
		st = check_line(image, err);
		if (st != BB_OK) {
			bb__sbuf_free(&b);
			return st;
		}
		bb__sbuf_printf(&b, "%s%s\nsize:%d,%d\nformat:RGBA8888\n"
		                "filter:Linear,Linear\nrepeat:none\n%s",
		                p ? "\n" : "", image, s->page_w[p],
		                s->page_h[p],
		                s->premultiplied ? "pma:true\n" : "");
		for (i = 0; i < s->n_frames; i++) {
			const bb_sheet_frame *f = &s->frames[i];

			if (f->page != (int)p)
				continue;
			bb__sbuf_printf(&b, "%s\nbounds:%d,%d,%d,%d\n",
			                f->anim >= 0 ? s->anims[f->anim].name : f->name,
			                f->x, f->y, f->w, f->h);
			if (f->trimmed)
				bb__sbuf_printf(&b, "offsets:%d,%d,%d,%d\n", f->src_x,
				                f->src_h - f->h - f->src_y, f->src_w,
				                f->src_h);
			if (f->rotated)
				bb__sbuf_puts(&b, "rotate:90\n");
			if (f->anim >= 0)
				bb__sbuf_printf(&b, "index:%d\n", f->index);
		}
	}
	snprintf(name, sizeof name, "%s.atlas", base);
	return bb__files_add_text(out, name, &b, err);
}
