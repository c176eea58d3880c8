/* TexturePacker JSON (hash and array) and Phaser 3 multiatlas writers.
 *
 * Field names as PixiJS (Spritesheet), Phaser 3 (JSONHash, JSONArray and
 * MultiAtlas parsers) and TexturePacker write them:
 *   frame             {x,y,w,h} on the page; w, h are the unrotated size
 *   rotated           turned 90° clockwise on the page (covers h x w)
 *   trimmed           the frame was cropped
 *   spriteSourceSize  {x,y,w,h}: the cropped rectangle in the whole frame
 *   sourceSize        {w,h}: the whole frame
 *   pivot, anchor     the origin as a fraction of sourceSize (TexturePacker
 *                     writes pivot, PixiJS reads anchor, Phaser either)
 *   duration          milliseconds, as Aseprite writes it (extra)
 * plus PixiJS's top-level `animations` (name -> frame names in playback
 * order), Phaser 3's `anims` (the array AnimationManager.fromJSON reads,
 * so `load.animation(key, "sheet.json")` creates them: per
 * animation key, frameRate, repeat -1 when it loops, and frames naming
 * the texture key — the file name of the page's JSON without ".json", or
 * the multiatlas' base name — and the frame; in the first page's file
 * only, covering every page), meta.related_multi_packs for several
 * pages, and meta.playback (fps, loop, events per animation: bonebake's
 * extra). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bonebake/pack.h"
#include "pack/pack-int.h"

static void frame_fields(bb__sbuf *b, const bb_sheet_frame *f,
                         const char *indent)
{
	bb__sbuf_printf(b, "%s\"frame\": {\"x\":%d,\"y\":%d,\"w\":%d,\"h\":%d},\n",
	                indent, f->x, f->y, f->w, f->h);
	bb__sbuf_printf(b, "%s\"rotated\": %s,\n", indent,
	                f->rotated ? "true" : "false");
	bb__sbuf_printf(b, "%s\"trimmed\": %s,\n", indent,
	                f->trimmed ? "true" : "false");
	bb__sbuf_printf(b, "%s\"spriteSourceSize\": "
	                "{\"x\":%d,\"y\":%d,\"w\":%d,\"h\":%d},\n",
	                indent, f->src_x, f->src_y, f->w, f->h);
	bb__sbuf_printf(b, "%s\"sourceSize\": {\"w\":%d,\"h\":%d},\n", indent,
	                f->src_w, f->src_h);
	bb__sbuf_printf(b, "%s\"pivot\": {\"x\":", indent);
	bb__sbuf_num(b, f->pivot_x / f->src_w);
	bb__sbuf_puts(b, ",\"y\":");
	bb__sbuf_num(b, f->pivot_y / f->src_h);
	bb__sbuf_printf(b, "},\n%s\"anchor\": {\"x\":", indent);
	bb__sbuf_num(b, f->pivot_x / f->src_w);
	bb__sbuf_puts(b, ",\"y\":");
	bb__sbuf_num(b, f->pivot_y / f->src_h);
	bb__sbuf_puts(b, "}");
	if (f->duration > 0) {
		bb__sbuf_printf(b, ",\n%s\"duration\": ", indent);
		bb__sbuf_num(b, f->duration * 1000.0);
	}
	bb__sbuf_puts(b, "\n");
}

/* 1 when animation a has a frame on page p (p < 0: any page). */
static int anim_on_page(const bb_sheet *s, size_t a, int p)
{
	size_t i;

	for (i = 0; i < s->anims[a].count; i++)
		if (p < 0 || s->frames[s->anims[a].first + i].page == p)
			return 1;
	return 0;
}

static void playback(bb__sbuf *b, const bb_sheet *s, int p)
{
	size_t a, e;
	int first = 1;

	bb__sbuf_puts(b, "\t\"playback\": {");
	for (a = 0; a < s->n_anims; a++) {
		const bb_sheet_anim *an = &s->anims[a];

		if (!anim_on_page(s, a, p))
			continue;
		bb__sbuf_puts(b, first ? "\n\t\t" : ",\n\t\t");
		first = 0;
		bb__sbuf_json_str(b, an->name);
		bb__sbuf_puts(b, ": {\"fps\": ");
		bb__sbuf_num(b, an->fps);
		bb__sbuf_printf(b, ", \"loop\": %s, \"events\": [",
		                an->loop ? "true" : "false");
		for (e = 0; e < an->n_events; e++) {
			bb__sbuf_puts(b, e ? ", {\"time\": " : "{\"time\": ");
			bb__sbuf_num(b, an->events[e].time);
			bb__sbuf_puts(b, ", \"name\": ");
			bb__sbuf_json_str(b, an->events[e].name);
			bb__sbuf_puts(b, "}");
		}
		bb__sbuf_puts(b, "]}");
	}
	bb__sbuf_puts(b, first ? "}" : "\n\t}");
}

static void animations(bb__sbuf *b, const bb_sheet *s, int p)
{
	size_t a, i;
	int first = 1;

	bb__sbuf_puts(b, "\"animations\": {");
	for (a = 0; a < s->n_anims; a++) {
		int any = 0;

		if (!anim_on_page(s, a, p))
			continue;
		bb__sbuf_puts(b, first ? "\n\t" : ",\n\t");
		first = 0;
		bb__sbuf_json_str(b, s->anims[a].name);
		bb__sbuf_puts(b, ": [");
		for (i = 0; i < s->anims[a].count; i++) {
			const bb_sheet_frame *f = &s->frames[s->anims[a].first + i];

			if (p >= 0 && f->page != p)
				continue;
			if (any)
				bb__sbuf_puts(b, ", ");
			any = 1;
			bb__sbuf_json_str(b, f->name);
		}
		bb__sbuf_puts(b, "]");
	}
	bb__sbuf_puts(b, first ? "},\n" : "\n},\n");
}

/* Phaser 3's animation data; key_base: the multiatlas' texture key, or
 * NULL for one texture per page (keyed by the page's file stem). */
static void phaser_anims(bb__sbuf *b, const bb_sheet *s, const char *base,
                         const char *key_base)
{
	size_t a, i;

	bb__sbuf_puts(b, "\"anims\": [");
	for (a = 0; a < s->n_anims; a++) {
		const bb_sheet_anim *an = &s->anims[a];

		bb__sbuf_puts(b, a ? ",\n\t{\"key\": " : "\n\t{\"key\": ");
		bb__sbuf_json_str(b, an->name);
		bb__sbuf_puts(b, ", \"type\": \"frame\"");
		if (an->fps > 0) {
			bb__sbuf_puts(b, ", \"frameRate\": ");
			bb__sbuf_num(b, an->fps);
		}
		bb__sbuf_printf(b, ", \"repeat\": %d, \"frames\": [", an->loop ? -1 : 0);
		for (i = 0; i < an->count; i++) {
			const bb_sheet_frame *f = &s->frames[an->first + i];
			char key[256];

			if (key_base) {
				snprintf(key, sizeof key, "%s", key_base);
			} else {
				bb__sheet_page_meta_name(s, base, (size_t)f->page, "json", key,
				                         sizeof key);
				key[strlen(key) - 5] = '\0';     /* ".json" */
			}
			bb__sbuf_puts(b, i ? ", {\"key\": " : "{\"key\": ");
			bb__sbuf_json_str(b, key);
			bb__sbuf_puts(b, ", \"frame\": ");
			bb__sbuf_json_str(b, f->name);
			bb__sbuf_puts(b, "}");
		}
		bb__sbuf_puts(b, "]}");
	}
	bb__sbuf_puts(b, a ? "\n],\n" : "],\n");
}

static void meta_common(bb__sbuf *b, const bb_sheet *s, const char *image,
                        int p, double scale)
{
	bb__sbuf_printf(b, "\t\"app\": \"bonebake\",\n\t\"version\": \"%s\",\n",
	                PACKAGE_VERSION);
	if (image) {
		bb__sbuf_puts(b, "\t\"image\": ");
		bb__sbuf_json_str(b, image);
		bb__sbuf_printf(b, ",\n\t\"format\": \"RGBA8888\",\n"
		                "\t\"size\": {\"w\":%d,\"h\":%d},\n",
		                s->page_w[p], s->page_h[p]);
	}
	bb__sbuf_puts(b, "\t\"scale\": \"");
	bb__sbuf_num(b, scale);
	bb__sbuf_printf(b, "\",\n\t\"premultiplyAlpha\": %s,\n",
	                s->premultiplied ? "true" : "false");
}

bb_status bb__write_tp_json(const bb_sheet *s, const char *base, double scale,
                            int array, bb_sheet_files *out, bb_error *err)
{
	size_t p, i, q;

	for (p = 0; p < s->n_pages; p++) {
		bb__sbuf b = { 0 };
		char name[256], image[256];
		int first = 1;
		bb_status st;

		bb__sheet_page_name(s, base, p, image, sizeof image);
		bb__sheet_page_meta_name(s, base, p, "json", name, sizeof name);
		bb__sbuf_puts(&b, array ? "{\"frames\": [\n" : "{\"frames\": {\n");
		for (i = 0; i < s->n_frames; i++) {
			const bb_sheet_frame *f = &s->frames[i];

			if (f->page != (int)p)
				continue;
			bb__sbuf_puts(&b, first ? "" : ",\n");
			first = 0;
			if (array) {
				bb__sbuf_puts(&b, "{\n\t\"filename\": ");
				bb__sbuf_json_str(&b, f->name);
				bb__sbuf_puts(&b, ",\n");
			} else {
				bb__sbuf_json_str(&b, f->name);
				bb__sbuf_puts(&b, ":\n{\n");
			}
			frame_fields(&b, f, "\t");
			bb__sbuf_puts(&b, "}");
		}
		bb__sbuf_puts(&b, array ? "],\n" : "},\n");
		animations(&b, s, (int)p);
		if (p == 0)
			phaser_anims(&b, s, base, NULL);
		bb__sbuf_puts(&b, "\"meta\": {\n");
		meta_common(&b, s, image, (int)p, scale);
		if (s->n_pages > 1) {
			int any = 0;

			bb__sbuf_puts(&b, "\t\"related_multi_packs\": [");
			for (q = 0; q < s->n_pages; q++) {
				char other[256];

				if (q == p)
					continue;
				bb__sheet_page_meta_name(s, base, q, "json", other,
				                         sizeof other);
				bb__sbuf_puts(&b, any ? ", " : "");
				any = 1;
				bb__sbuf_json_str(&b, other);
			}
			bb__sbuf_puts(&b, "],\n");
		}
		playback(&b, s, (int)p);
		bb__sbuf_puts(&b, "\n}\n}\n");
		st = bb__files_add_text(out, name, &b, err);
		if (st != BB_OK)
			return st;
	}
	return BB_OK;
}

bb_status bb__write_phaser3(const bb_sheet *s, const char *base, double scale,
                            bb_sheet_files *out, bb_error *err)
{
	bb__sbuf b = { 0 };
	char name[256];
	size_t p, i;

	snprintf(name, sizeof name, "%s.multiatlas.json", base);
	bb__sbuf_puts(&b, "{\"textures\": [");
	for (p = 0; p < s->n_pages; p++) {
		char image[256];
		int first = 1;

		bb__sheet_page_name(s, base, p, image, sizeof image);
		bb__sbuf_puts(&b, p ? ",\n{\n\t\"image\": " : "\n{\n\t\"image\": ");
		bb__sbuf_json_str(&b, image);
		bb__sbuf_printf(&b, ",\n\t\"format\": \"RGBA8888\",\n"
		                "\t\"size\": {\"w\":%d,\"h\":%d},\n\t\"scale\": ",
		                s->page_w[p], s->page_h[p]);
		bb__sbuf_num(&b, scale);
		bb__sbuf_puts(&b, ",\n\t\"frames\": [");
		for (i = 0; i < s->n_frames; i++) {
			const bb_sheet_frame *f = &s->frames[i];

			if (f->page != (int)p)
				continue;
			bb__sbuf_puts(&b, first ? "\n\t{\n\t\t\"filename\": "
			                        : ",\n\t{\n\t\t\"filename\": ");
			first = 0;
			bb__sbuf_json_str(&b, f->name);
			bb__sbuf_puts(&b, ",\n");
			frame_fields(&b, f, "\t\t");
			bb__sbuf_puts(&b, "\t}");
		}
		bb__sbuf_puts(&b, "\n\t]\n}");
	}
	bb__sbuf_puts(&b, "\n],\n");
	animations(&b, s, -1);
	phaser_anims(&b, s, base, base);
	bb__sbuf_puts(&b, "\"meta\": {\n");
	meta_common(&b, s, NULL, 0, scale);
	playback(&b, s, -1);
	bb__sbuf_puts(&b, "\n}\n}\n");
	return bb__files_add_text(out, name, &b, err);
}
