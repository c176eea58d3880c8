/* Cocos2d(-x) sprite-frame plist writer, format 3 (what TexturePacker's
 * cocos2d-x exporter writes and SpriteFrameCache::addSpriteFramesWithFile
 * reads).  Per frame:
 *
 *   textureRect       {{x,y},{w,h}}: on the page, w and h unrotated
 *   textureRotated    turned 90° clockwise
 *   spriteSize        {w,h}: the trimmed size
 *   spriteSourceSize  {W,H}: the whole frame
 *   spriteOffset      {dx,dy}: centre of the trimmed rectangle minus the
 *                     centre of the whole frame, y up (may be .5)
 *   anchor            {ax,ay}: the pivot as a fraction, y up
 *   aliases           (empty: every name has its own entry)
 *
 * One plist per page ("NAME.plist", or "NAME-0.plist"... with several). */
#include "config.h"

#include <stdio.h>

#include "bonebake/pack.h"
#include "pack/pack-int.h"

static void key(bb__sbuf *b, int depth, const char *k)
{
	bb__sbuf_printf(b, "%*s<key>", depth * 4, "");
	bb__sbuf_xml_text(b, k);
	bb__sbuf_puts(b, "</key>\n");
}

static void pair(bb__sbuf *b, double x, double y)
{
	bb__sbuf_puts(b, "{");
	bb__sbuf_num(b, x);
	bb__sbuf_puts(b, ",");
	bb__sbuf_num(b, y);
	bb__sbuf_puts(b, "}");
}

static void frame_dict(bb__sbuf *b, const bb_sheet_frame *f)
{
	double dx = f->src_x + f->w / 2.0 - f->src_w / 2.0;
	double dy = f->src_h / 2.0 - (f->src_y + f->h / 2.0);

	key(b, 3, f->name);
	bb__sbuf_puts(b, "            <dict>\n");
	key(b, 4, "aliases");
	bb__sbuf_puts(b, "                <array/>\n");
	key(b, 4, "anchor");
	bb__sbuf_puts(b, "                <string>");
	pair(b, f->pivot_x / f->src_w, 1.0 - f->pivot_y / f->src_h);
	bb__sbuf_puts(b, "</string>\n");
	key(b, 4, "spriteOffset");
	bb__sbuf_puts(b, "                <string>");
	pair(b, dx, dy);
	bb__sbuf_puts(b, "</string>\n");
	key(b, 4, "spriteSize");
	bb__sbuf_printf(b, "                <string>{%d,%d}</string>\n", f->w, f->h);
	key(b, 4, "spriteSourceSize");
	bb__sbuf_printf(b, "                <string>{%d,%d}</string>\n", f->src_w,
	                f->src_h);
	key(b, 4, "textureRect");
	bb__sbuf_printf(b, "                <string>{{%d,%d},{%d,%d}}</string>\n",
	                f->x, f->y, f->w, f->h);
	key(b, 4, "textureRotated");
	bb__sbuf_printf(b, "                <%s/>\n", f->rotated ? "true" : "false");
	bb__sbuf_puts(b, "            </dict>\n");
}

/* XML 1.0 has no way to write most control characters, even escaped. */
static bb_status check_key(const char *k, bb_error *err)
{
	const unsigned char *p;

	for (p = (const unsigned char *)k; *p; p++)
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return bb_error_set(err, BB_ERR_USAGE, k, NULL,
			                    "a plist key cannot hold control characters");
	return BB_OK;
}

bb_status bb__write_cocos2d(const bb_sheet *s, const char *base,
                            bb_sheet_files *out, bb_error *err)
{
	size_t p, i;

	for (i = 0; i < s->n_frames; i++)
		if (check_key(s->frames[i].name, err) != BB_OK)
			return err ? err->status : BB_ERR_USAGE;

	for (p = 0; p < s->n_pages; p++) {
		bb__sbuf b = { 0 };
		char name[256], image[256];
		bb_status st;

		bb__sheet_page_name(s, base, p, image, sizeof image);
		bb__sheet_page_meta_name(s, base, p, "plist", name, sizeof name);
		bb__sbuf_puts(&b,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
		    "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
		    "<plist version=\"1.0\">\n    <dict>\n");
		key(&b, 2, "frames");
		bb__sbuf_puts(&b, "        <dict>\n");
		for (i = 0; i < s->n_frames; i++)
			if (s->frames[i].page == (int)p)
				frame_dict(&b, &s->frames[i]);
		bb__sbuf_puts(&b, "        </dict>\n");
		key(&b, 2, "metadata");
		bb__sbuf_puts(&b, "        <dict>\n");
		key(&b, 3, "format");
		bb__sbuf_puts(&b, "            <integer>3</integer>\n");
		key(&b, 3, "pixelFormat");
		bb__sbuf_puts(&b, "            <string>RGBA8888</string>\n");
		key(&b, 3, "premultiplyAlpha");
		bb__sbuf_printf(&b, "            <%s/>\n",
		                s->premultiplied ? "true" : "false");
		key(&b, 3, "realTextureFileName");
		bb__sbuf_puts(&b, "            <string>");
		bb__sbuf_xml_text(&b, image);
		bb__sbuf_puts(&b, "</string>\n");
		key(&b, 3, "size");
		bb__sbuf_printf(&b, "            <string>{%d,%d}</string>\n",
		                s->page_w[p], s->page_h[p]);
		key(&b, 3, "textureFileName");
		bb__sbuf_puts(&b, "            <string>");
		bb__sbuf_xml_text(&b, image);
		bb__sbuf_puts(&b, "</string>\n        </dict>\n    </dict>\n</plist>\n");
		st = bb__files_add_text(out, name, &b, err);
		if (st != BB_OK)
			return st;
	}
	return BB_OK;
}
