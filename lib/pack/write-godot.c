/* Godot 4 SpriteFrames resource writer (.tres, text format 3): one
 * ExtResource per page, one AtlasTexture sub-resource per frame
 * (`region` on the page, `margin` restoring the trimmed border:
 * Rect2(left, top, whole width - w, whole height - h)), and the
 * animations in playback order with speed (fps), loop and per-frame
 * relative duration.  Frames outside any animation form one more
 * animation called "default".  Page paths are relative to the .tres file,
 * which Godot resolves against the resource's folder.  AtlasTexture
 * cannot show rotated regions; bb_sheet_encode refuses those. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bonebake/pack.h"
#include "pack/pack-int.h"

/* Godot reads "1" as an int; floats keep a decimal point. */
static void real(bb__sbuf *b, double v)
{
	size_t before = b->len;

	bb__sbuf_num(b, v);
	if (!b->failed && !memchr(b->data + before, '.', b->len - before))
		bb__sbuf_puts(b, ".0");
}

static void frame_entry(bb__sbuf *b, const bb_sheet *s, size_t i, double fps,
                        int first)
{
	const bb_sheet_frame *f = &s->frames[i];
	double rel = fps > 0 && f->duration > 0 ? f->duration * fps : 1.0;

	bb__sbuf_puts(b, first ? "{\n" : ", {\n");
	bb__sbuf_puts(b, "\"duration\": ");
	real(b, rel);
	bb__sbuf_printf(b, ",\n\"texture\": SubResource(\"AtlasTexture_%zu\")\n}", i);
}

static void anim_end(bb__sbuf *b, const char *name, int loop, double fps)
{
	bb__sbuf_printf(b, "],\n\"loop\": %s,\n\"name\": &", loop ? "true" : "false");
	bb__sbuf_json_str(b, name);
	bb__sbuf_puts(b, ",\n\"speed\": ");
	real(b, fps > 0 ? fps : 5.0);
	bb__sbuf_puts(b, "\n}");
}

static const char *loose_name(const bb_sheet *s)
{
	size_t a;

	for (a = 0; a < s->n_anims; a++)
		if (strcmp(s->anims[a].name, "default") == 0)
			return "default_frames";
	return "default";
}

bb_status bb__write_godot(const bb_sheet *s, const char *base,
                          bb_sheet_files *out, bb_error *err)
{
	bb__sbuf b = { 0 };
	char name[256];
	size_t p, i, a, loose = 0;
	int first_anim = 1;

	for (i = 0; i < s->n_frames; i++)
		if (s->frames[i].anim < 0)
			loose++;
	bb__sbuf_printf(&b, "[gd_resource type=\"SpriteFrames\" load_steps=%zu "
	                "format=3]\n\n", s->n_pages + s->n_frames + 1);
	for (p = 0; p < s->n_pages; p++) {
		char image[256];

		bb__sheet_page_name(s, base, p, image, sizeof image);
		bb__sbuf_puts(&b, "[ext_resource type=\"Texture2D\" path=");
		bb__sbuf_json_str(&b, image);
		bb__sbuf_printf(&b, " id=\"page_%zu\"]\n\n", p);
	}
	for (i = 0; i < s->n_frames; i++) {
		const bb_sheet_frame *f = &s->frames[i];

		bb__sbuf_printf(&b, "[sub_resource type=\"AtlasTexture\" "
		                "id=\"AtlasTexture_%zu\"]\n"
		                "atlas = ExtResource(\"page_%d\")\n"
		                "region = Rect2(%d, %d, %d, %d)\n",
		                i, f->page, f->x, f->y, f->w, f->h);
		if (f->trimmed)
			bb__sbuf_printf(&b, "margin = Rect2(%d, %d, %d, %d)\n",
			                f->src_x, f->src_y, f->src_w - f->w,
			                f->src_h - f->h);
		bb__sbuf_puts(&b, "\n");
	}
	bb__sbuf_puts(&b, "[resource]\nanimations = [");
	for (a = 0; a < s->n_anims; a++) {
		const bb_sheet_anim *an = &s->anims[a];

		bb__sbuf_puts(&b, first_anim ? "{\n\"frames\": [" : ", {\n\"frames\": [");
		first_anim = 0;
		for (i = 0; i < an->count; i++)
			frame_entry(&b, s, an->first + i, an->fps, i == 0);
		anim_end(&b, an->name, an->loop, an->fps);
	}
	if (loose) {
		int first = 1;

		bb__sbuf_puts(&b, first_anim ? "{\n\"frames\": [" : ", {\n\"frames\": [");
		for (i = 0; i < s->n_frames; i++)
			if (s->frames[i].anim < 0) {
				frame_entry(&b, s, i, 0, first);
				first = 0;
			}
		anim_end(&b, loose_name(s), 1, 0);
	}
	bb__sbuf_puts(&b, "]\n");
	snprintf(name, sizeof name, "%s.tres", base);
	return bb__files_add_text(out, name, &b, err);
}
