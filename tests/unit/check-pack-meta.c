/* pack metadata: every writer's output is parsed back -- JSON with jansson,
 * .atlas, .plist and .tres with the small parsers below, each reading the
 * fields the way its engine does -- and every frame is cut out of the
 * written page PNG at the rectangle the file gives, turned back as the
 * format says, pasted at its offset, and compared with the input frame
 * pixel for pixel.  Trimmed, rotated, deduplicated and empty frames and
 * several pages are all covered; animation order, fps, loop and pivots
 * are checked where the format carries them. */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "pack-fixtures.h"

enum { MF = 16, CW = 1, CCW = 2 };

typedef struct mfix {
	bb_image *img[MF];
	char names[MF][32];
	bb_pack_input in[MF];
	bb_pack_anim anims[2];
} mfix;

/* "run": 6 wide frames, "jump": 6 tall ones (so a narrow page must turn
 * one kind), a gem and its moved copy, an empty frame, a single dot.
 * Listed backwards, so nothing depends on input order. */
static void mfix_init(mfix *f)
{
	int i;

	memset(f, 0, sizeof *f);
	f->anims[0] = (bb_pack_anim){ "run", 10, 1, NULL, 0 };
	f->anims[1] = (bb_pack_anim){ "jump", 20, 0, NULL, 0 };
	for (i = 0; i < MF; i++) {
		int k = MF - 1 - i;        /* backwards */
		bb_pack_input *in = &f->in[k];

		if (i < 6) {
			snprintf(f->names[k], 32, "run_%04d", i);
			f->img[k] = fx_frame(40, 50, (unsigned)i, 3 + i, 10 + 3 * i, 32 + i,
			                     17 + 3 * i);
		} else if (i < 12) {
			snprintf(f->names[k], 32, "jump_%04d", i - 6);
			f->img[k] = fx_frame(40, 50, (unsigned)i, 10 + i, 4, 15 + i, 45);
		} else if (i == 12 || i == 13) {
			snprintf(f->names[k], 32, i == 12 ? "gem" : "gem-copy");
			f->img[k] = fx_frame(24, 24, 99, 2 + (i - 12) * 5, 3, 13 + (i - 12) * 5,
			                     14);
		} else if (i == 14) {
			snprintf(f->names[k], 32, "blank");
			f->img[k] = fx_frame(10, 10, 1, 1, 1, 0, 0);
		} else {
			snprintf(f->names[k], 32, "dot");
			f->img[k] = fx_frame(7, 5, 3, 4, 2, 4, 2);
		}
		ck_assert_ptr_nonnull(f->img[k]);
		in->image = f->img[k];
		in->name = f->names[k];
		in->anim = i < 6 ? 0 : i < 12 ? 1 : -1;
		in->index = i < 6 ? i : i - 6;
		in->has_pivot = i < 12;
		in->pivot_x = 20;
		in->pivot_y = 45;
	}
}

static void mfix_free(mfix *f)
{
	int i;

	for (i = 0; i < MF; i++)
		bb_image_free(f->img[i]);
}

static const bb_pack_input *input_named(const mfix *f, const char *name)
{
	int i;

	for (i = 0; i < MF; i++)
		if (strcmp(f->names[i], name) == 0)
			return &f->in[i];
	ck_abort_msg("no input frame named '%s'", name);
	return NULL;
}

/* Packs the fixture and encodes one format. */
static bb_sheet_files *encode(const mfix *f, bb_sheet_format fmt,
                              bb_pack_rotation rot, int multipack)
{
	bb_pack_options o = { .rotation = rot, .layout = { .padding = 1 } };
	bb_sheet_write_options w = { .name = "atlas", .formats = 1u << fmt };
	bb_sheet *s = NULL;
	bb_sheet_files *files = NULL;
	bb_error err;
	size_t i, turned = 0;

	if (rot != BB_PACK_ROTATE_NONE)
		o.layout.max_width = 24;    /* the 30-wide run frames must turn */
	if (multipack) {
		o.layout.max_width = o.layout.max_height = 48;
		o.layout.multipack = 1;
	}
	ck_assert_msg(bb_pack_frames(f->in, MF, f->anims, 2, &o, &s, &err) == BB_OK,
	              "%s", err.message);
	for (i = 0; i < s->n_frames; i++)
		turned += s->frames[i].rotated;
	if (rot != BB_PACK_ROTATE_NONE)
		ck_assert_uint_gt(turned, 0);
	if (multipack)
		ck_assert_uint_gt(s->n_pages, 1);
	ck_assert_msg(bb_sheet_encode(s, &w, &files, &err) == BB_OK, "%s",
	              err.message);
	bb_sheet_free(s);
	return files;
}

static bb_image *page_png(const bb_sheet_files *files, const char *name)
{
	const bb_sheet_file *pf = bb_sheet_files_find(files, name);
	bb_image *img = NULL;
	bb_error err;

	ck_assert_msg(pf != NULL, "page %s not written", name);
	ck_assert_int_eq(bb_png_read_mem(pf->data, pf->size, name, &img, &err), BB_OK);
	return img;
}

static const char *text(const bb_sheet_files *files, const char *name)
{
	const bb_sheet_file *f = bb_sheet_files_find(files, name);
	char *t;

	ck_assert_msg(f != NULL, "%s not written", name);
	t = malloc(f->size + 1);
	ck_assert_ptr_nonnull(t);
	memcpy(t, f->data, f->size);
	t[f->size] = '\0';
	return t;
}

/* The frame `name`, cut from page at (x, y, w, h) (unrotated size), turned
 * back, pasted at (sx, sy) in sw x sh, must equal the input. */
static void check_frame(const mfix *f, const char *name, const bb_image *page,
                        int x, int y, int w, int h, int turned, int sx, int sy,
                        int sw, int sh)
{
	const bb_pack_input *in = input_named(f, name);
	bb_image *back;

	ck_assert_int_eq(sw, in->image->width);
	ck_assert_int_eq(sh, in->image->height);
	back = fx_reassemble(page, x, y, w, h, turned, sx, sy, sw, sh);
	ck_assert_msg(back != NULL, "%s: rectangle outside the page", name);
	ck_assert_msg(fx_same(back, in->image), "%s differs from its input", name);
	bb_image_free(back);
}

/* ------------------------------------------------------------------ */
/* TexturePacker JSON (hash, array) and Phaser 3 multiatlas */

static int geti(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	ck_assert_msg(json_is_integer(v), "field %s missing or not an integer", k);
	return (int)json_integer_value(v);
}

/* One frame object as PixiJS's Spritesheet and Phaser's parsers read it. */
static void check_tp_frame(const mfix *f, const char *name, json_t *fr,
                           const bb_image *page)
{
	json_t *r = json_object_get(fr, "frame"), *ss = json_object_get(fr, "spriteSourceSize");
	json_t *src = json_object_get(fr, "sourceSize"), *pv = json_object_get(fr, "pivot");
	json_t *an = json_object_get(fr, "anchor");
	int rotated = json_is_true(json_object_get(fr, "rotated"));
	int trimmed = json_is_true(json_object_get(fr, "trimmed"));
	const bb_pack_input *in = input_named(f, name);

	ck_assert(r && ss && src && pv && an);
	ck_assert(json_is_boolean(json_object_get(fr, "rotated")));
	ck_assert_int_eq(geti(ss, "w"), geti(r, "w"));
	ck_assert_int_eq(geti(ss, "h"), geti(r, "h"));
	ck_assert_int_eq(trimmed, geti(r, "w") != geti(src, "w") ||
	                          geti(r, "h") != geti(src, "h"));
	check_frame(f, name, page, geti(r, "x"), geti(r, "y"), geti(r, "w"),
	            geti(r, "h"), rotated ? CW : 0, geti(ss, "x"), geti(ss, "y"),
	            geti(src, "w"), geti(src, "h"));
	ck_assert_double_eq_tol(json_number_value(json_object_get(pv, "x")) *
	                        in->image->width,
	                        in->has_pivot ? in->pivot_x : in->image->width / 2.0,
	                        1e-3);
	ck_assert_double_eq_tol(json_number_value(json_object_get(an, "y")) *
	                        in->image->height,
	                        in->has_pivot ? in->pivot_y : in->image->height / 2.0,
	                        1e-3);
	if (in->anim >= 0)
		ck_assert_double_eq_tol(json_number_value(json_object_get(fr, "duration")),
		                        1000.0 / f->anims[in->anim].fps, 1e-6);
}

static void check_animations_map(json_t *anims, const char *anim, int n)
{
	json_t *a = json_object_get(anims, anim);
	int i;

	ck_assert_msg(json_is_array(a), "animations.%s missing", anim);
	ck_assert_int_eq(json_array_size(a), n);
	for (i = 0; i < n; i++) {
		char want[32];

		snprintf(want, sizeof want, "%s_%04d", anim, i);
		ck_assert_str_eq(json_string_value(json_array_get(a, (size_t)i)), want);
	}
}

static void check_tp_json(int array, int multipack)
{
	mfix f;
	bb_sheet_files *files;
	size_t p, n_pages = 0, seen = 0;
	char name[64];

	mfix_init(&f);
	files = encode(&f, array ? BB_SHEET_JSON_ARRAY : BB_SHEET_JSON_HASH,
	               BB_PACK_ROTATE_CW, multipack);
	while (snprintf(name, sizeof name, "atlas-%zu.png", n_pages),
	       bb_sheet_files_find(files, name))
		n_pages++;
	if (!multipack)
		n_pages = 1;
	for (p = 0; p < n_pages; p++) {
		json_t *root, *frames, *meta, *v;
		json_error_t je;
		bb_image *page;
		const char *t;

		if (multipack)
			snprintf(name, sizeof name, "atlas-%zu.json", p);
		else
			snprintf(name, sizeof name, "atlas.json");
		t = text(files, name);
		root = json_loads(t, 0, &je);
		ck_assert_msg(root != NULL, "%s: %s", name, je.text);
		free((void *)t);
		meta = json_object_get(root, "meta");
		page = page_png(files, json_string_value(json_object_get(meta, "image")));
		ck_assert_int_eq(geti(json_object_get(meta, "size"), "w"), page->width);
		ck_assert_int_eq(geti(json_object_get(meta, "size"), "h"), page->height);
		ck_assert_str_eq(json_string_value(json_object_get(meta, "scale")), "1");
		if (multipack)
			ck_assert_int_eq(json_array_size(json_object_get(meta,
			                 "related_multi_packs")), n_pages - 1);
		frames = json_object_get(root, "frames");
		if (array) {
			size_t i;

			ck_assert(json_is_array(frames));
			json_array_foreach(frames, i, v)
				check_tp_frame(&f, json_string_value(json_object_get(v, "filename")),
				               v, page);
			seen += json_array_size(frames);
		} else {
			const char *key;

			ck_assert(json_is_object(frames));
			json_object_foreach(frames, key, v)
				check_tp_frame(&f, key, v, page);
			seen += json_object_size(frames);
		}
		if (!multipack) {
			json_t *pb = json_object_get(json_object_get(meta, "playback"), "jump");

			check_animations_map(json_object_get(root, "animations"), "run", 6);
			check_animations_map(json_object_get(root, "animations"), "jump", 6);
			ck_assert_double_eq(json_number_value(json_object_get(pb, "fps")), 20);
			ck_assert(json_is_false(json_object_get(pb, "loop")));
		}
		bb_image_free(page);
		json_decref(root);
	}
	ck_assert_uint_eq(seen, MF);
	bb_sheet_files_free(files);
	mfix_free(&f);
}

START_TEST(json_hash_round_trip) { check_tp_json(0, 0); }
END_TEST

START_TEST(json_array_round_trip) { check_tp_json(1, 0); }
END_TEST

START_TEST(json_hash_multipack_round_trip) { check_tp_json(0, 1); }
END_TEST

START_TEST(phaser3_multiatlas_round_trip)
{
	mfix f;
	bb_sheet_files *files;
	json_t *root, *textures, *tex;
	json_error_t je;
	size_t p, i, seen = 0;
	const char *t;

	mfix_init(&f);
	/* Phaser 3 does not read "rotated": its sheets are packed upright */
	files = encode(&f, BB_SHEET_PHASER3, BB_PACK_ROTATE_NONE, 1);
	t = text(files, "atlas.multiatlas.json");
	root = json_loads(t, 0, &je);
	free((void *)t);
	ck_assert_msg(root != NULL, "%s", je.text);
	textures = json_object_get(root, "textures");
	ck_assert(json_is_array(textures) && json_array_size(textures) > 1);
	json_array_foreach(textures, p, tex) {
		bb_image *page = page_png(files, json_string_value(json_object_get(tex,
		                                                                   "image")));
		json_t *fr;

		ck_assert_int_eq(geti(json_object_get(tex, "size"), "w"), page->width);
		json_array_foreach(json_object_get(tex, "frames"), i, fr) {
			check_tp_frame(&f, json_string_value(json_object_get(fr, "filename")),
			               fr, page);
			seen++;
		}
		bb_image_free(page);
	}
	ck_assert_uint_eq(seen, MF);
	check_animations_map(json_object_get(root, "animations"), "run", 6);
	json_decref(root);
	bb_sheet_files_free(files);
	mfix_free(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* libGDX / Spine .atlas: a reader like libGDX's TextureAtlasData */

START_TEST(libgdx_atlas_round_trip)
{
	mfix f;
	bb_sheet_files *files;
	char *t, *line, *save = NULL;
	bb_image *page = NULL;
	char region[64] = "";
	int bounds[4] = { 0 }, offsets[4] = { 0 }, rotate = 0, index = -1;
	int in_page = 0, have_region = 0, seen = 0, last_run = -1;

	mfix_init(&f);
	files = encode(&f, BB_SHEET_LIBGDX, BB_PACK_ROTATE_CCW, 0);
	t = (char *)text(files, "atlas.atlas");
	/* a region ends at the next name line or blank line or the end */
	for (line = strtok_r(t, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
		int is_entry = line && strchr(line, ':');

		if (have_region && !is_entry) {
			char name[80];

			if (index >= 0)
				snprintf(name, sizeof name, "%s_%04d", region, index);
			else
				snprintf(name, sizeof name, "%s", region);
			if (offsets[2] == 0) {       /* no offsets: untrimmed */
				offsets[2] = bounds[2];
				offsets[3] = bounds[3];
			}
			/* offsets y counts from the bottom */
			check_frame(&f, name, page, bounds[0], bounds[1], bounds[2],
			            bounds[3], rotate ? CCW : 0, offsets[0],
			            offsets[3] - bounds[3] - offsets[1], offsets[2],
			            offsets[3]);
			if (strcmp(region, "run") == 0) {    /* findRegions order */
				ck_assert_int_eq(index, last_run + 1);
				last_run = index;
			}
			seen++;
			have_region = 0;
		}
		if (!line)
			break;
		if (!in_page) {                  /* page header */
			ck_assert_ptr_null(page);
			page = page_png(files, line);
			in_page = 1;
			continue;
		}
		if (is_entry) {
			if (strncmp(line, "size:", 5) == 0) {
				int w, h;

				ck_assert_int_eq(sscanf(line + 5, "%d,%d", &w, &h), 2);
				ck_assert_int_eq(w, page->width);
				ck_assert_int_eq(h, page->height);
			} else if (strncmp(line, "bounds:", 7) == 0) {
				ck_assert_int_eq(sscanf(line + 7, "%d,%d,%d,%d", &bounds[0],
				                        &bounds[1], &bounds[2], &bounds[3]), 4);
			} else if (strncmp(line, "offsets:", 8) == 0) {
				ck_assert_int_eq(sscanf(line + 8, "%d,%d,%d,%d", &offsets[0],
				                        &offsets[1], &offsets[2], &offsets[3]), 4);
			} else if (strncmp(line, "rotate:", 7) == 0) {
				rotate = strcmp(line + 7, "90") == 0 || strcmp(line + 7, "true") == 0;
			} else if (strncmp(line, "index:", 6) == 0) {
				index = atoi(line + 6);
			}
			continue;
		}
		snprintf(region, sizeof region, "%s", line);
		memset(bounds, 0, sizeof bounds);
		memset(offsets, 0, sizeof offsets);
		rotate = 0;
		index = -1;
		have_region = 1;
	}
	ck_assert_int_eq(seen, MF);
	ck_assert_int_eq(last_run, 5);
	bb_image_free(page);
	free(t);
	bb_sheet_files_free(files);
	mfix_free(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Cocos2d plist, format 3: the keys SpriteFrameCache reads */

/* The text of the value after <key>k</key> inside [from, to), or NULL. */
static const char *plist_value(const char *from, const char *to, const char *k,
                               char *buf, size_t size)
{
	char pat[128];
	const char *p, *v, *e;

	snprintf(pat, sizeof pat, "<key>%s</key>", k);
	p = strstr(from, pat);
	if (!p || p >= to)
		return NULL;
	v = strchr(p + strlen(pat), '<');
	if (strncmp(v, "<true/>", 7) == 0 || strncmp(v, "<false/>", 8) == 0) {
		snprintf(buf, size, "%s", v[1] == 't' ? "true" : "false");
		return buf;
	}
	v = strchr(v, '>') + 1;
	e = strchr(v, '<');
	snprintf(buf, size, "%.*s", (int)(e - v), v);
	return buf;
}

START_TEST(cocos2d_plist_round_trip)
{
	mfix f;
	bb_sheet_files *files;
	const char *t, *frames, *meta;
	char buf[128], image[64];
	bb_image *page;
	int i, seen = 0;

	mfix_init(&f);
	files = encode(&f, BB_SHEET_COCOS2D, BB_PACK_ROTATE_CW, 0);
	t = text(files, "atlas.plist");
	frames = strstr(t, "<key>frames</key>");
	meta = strstr(t, "<key>metadata</key>");
	ck_assert(frames && meta && frames < meta);
	ck_assert_str_eq(plist_value(meta, meta + strlen(meta), "format", buf,
	                             sizeof buf), "3");
	snprintf(image, sizeof image, "%s",
	         plist_value(meta, meta + strlen(meta), "textureFileName", buf,
	                     sizeof buf));
	page = page_png(files, image);
	for (i = 0; i < MF; i++) {
		char key[64];
		const char *d, *end;
		int x, y, w, h, sw, sh, rw, rh, rot;
		double ox, oy, ax, ay;
		const bb_pack_input *in = &f.in[i];

		snprintf(key, sizeof key, "<key>%s</key>", f.names[i]);
		d = strstr(frames, key);
		ck_assert_msg(d && d < meta, "%s missing", f.names[i]);
		end = strstr(d, "</dict>");
		ck_assert_int_eq(sscanf(plist_value(d, end, "textureRect", buf, sizeof buf),
		                        "{{%d,%d},{%d,%d}}", &x, &y, &w, &h), 4);
		ck_assert_int_eq(sscanf(plist_value(d, end, "spriteSourceSize", buf,
		                                    sizeof buf), "{%d,%d}", &sw, &sh), 2);
		ck_assert_int_eq(sscanf(plist_value(d, end, "spriteSize", buf, sizeof buf),
		                        "{%d,%d}", &rw, &rh), 2);
		ck_assert_int_eq(sscanf(plist_value(d, end, "spriteOffset", buf, sizeof buf),
		                        "{%lf,%lf}", &ox, &oy), 2);
		ck_assert_int_eq(sscanf(plist_value(d, end, "anchor", buf, sizeof buf),
		                        "{%lf,%lf}", &ax, &ay), 2);
		rot = strcmp(plist_value(d, end, "textureRotated", buf, sizeof buf),
		             "true") == 0;
		ck_assert_int_eq(rw, w);
		ck_assert_int_eq(rh, h);
		/* cocos: the trimmed centre sits at the frame centre + offset, y up */
		check_frame(&f, f.names[i], page, x, y, w, h, rot ? CW : 0,
		            (int)(ox + (sw - w) / 2.0), (int)((sh - h) / 2.0 - oy), sw, sh);
		ck_assert_double_eq_tol(ax * sw, in->has_pivot ? in->pivot_x : sw / 2.0,
		                        1e-3);
		ck_assert_double_eq_tol((1 - ay) * sh,
		                        in->has_pivot ? in->pivot_y : sh / 2.0, 1e-3);
		seen++;
	}
	ck_assert_int_eq(seen, MF);
	bb_image_free(page);
	free((void *)t);
	bb_sheet_files_free(files);
	mfix_free(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Godot 4 SpriteFrames .tres */

enum { MAX_SUB = 64 };

typedef struct tres_sub {
	int page, region[4], margin[4];
} tres_sub;

/* Names with folders ('/') and the characters each format must escape:
 * JSON and Godot escape quotes, backslashes and control characters,
 * the plist escapes XML's specials and refuses control characters it
 * cannot write, libGDX keeps '/' and refuses ':'. */
START_TEST(names_with_folders_and_escapes)
{
	bb_image *img = fx_frame(8, 8, 7, 1, 1, 6, 6);
	bb_pack_anim an = { "fx/a\"b\\c\td", 12, 1, NULL, 0 };
	bb_pack_input in[2] = {
		{ .image = img, .name = "fx/a\"b\\c\td/f_0000" },
		{ .image = img, .name = "icons/<&>", .anim = -1 },
	};
	bb_pack_options o = { .no_dedupe = 1 };
	bb_sheet_write_options w = { .formats = 1u << BB_SHEET_JSON_HASH |
	                                        1u << BB_SHEET_GODOT |
	                                        1u << BB_SHEET_LIBGDX |
	                                        1u << BB_SHEET_COCOS2D };
	bb_sheet *s = NULL;
	bb_sheet_files *files = NULL;
	const bb_sheet_file *f;
	json_t *root, *frames;
	json_error_t je;
	char *text;
	bb_error err;

	ck_assert_int_eq(bb_pack_frames(in, 2, &an, 1, &o, &s, &err), BB_OK);
	ck_assert_msg(bb_sheet_encode(s, &w, &files, &err) == BB_OK, "%s", err.message);
	f = bb_sheet_files_find(files, "sheet.json");
	root = json_loadb(f->data, f->size, 0, &je);
	ck_assert_ptr_nonnull(root);
	frames = json_object_get(root, "frames");
	ck_assert_ptr_nonnull(json_object_get(frames, "fx/a\"b\\c\td/f_0000"));
	ck_assert_ptr_nonnull(json_object_get(frames, "icons/<&>"));
	ck_assert_ptr_nonnull(json_object_get(json_object_get(root, "animations"),
	                                      "fx/a\"b\\c\td"));
	json_decref(root);
	f = bb_sheet_files_find(files, "sheet.tres");
	text = strndup(f->data, f->size);
	ck_assert_ptr_nonnull(strstr(text, "\"name\": &\"fx/a\\\"b\\\\c\\td\""));
	free(text);
	f = bb_sheet_files_find(files, "sheet.plist");
	text = strndup(f->data, f->size);
	ck_assert_ptr_nonnull(strstr(text, "<key>icons/&lt;&amp;&gt;</key>"));
	free(text);
	f = bb_sheet_files_find(files, "sheet.atlas");
	text = strndup(f->data, f->size);
	ck_assert_ptr_nonnull(strstr(text, "\nicons/<&>\nbounds:"));
	free(text);
	bb_sheet_files_free(files);
	files = NULL;
	/* a control character a plist cannot hold: refused, naming it */
	w.formats = 1u << BB_SHEET_COCOS2D;
	in[1].name = "icons/bell\a";
	bb_sheet_free(s);
	ck_assert_int_eq(bb_pack_frames(in, 2, &an, 1, &o, &s, &err), BB_OK);
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	ck_assert_ptr_nonnull(strstr(err.message, "control characters"));
	ck_assert_ptr_null(files);
	bb_sheet_free(s);
	bb_image_free(img);
}
END_TEST

START_TEST(godot_tres_round_trip)
{
	mfix f;
	bb_sheet_files *files;
	char *t, *line, *save = NULL;
	char pages[4][64], anim[64] = "", order[MAX_SUB][64];
	tres_sub subs[MAX_SUB];
	int n_pages = 0, cur = -1, in_resource = 0, frame_no = 0, seen = 0;
	int loop_ok = 0;
	bb_image *page_img[4] = { NULL };

	mfix_init(&f);
	files = encode(&f, BB_SHEET_GODOT, BB_PACK_ROTATE_NONE, 0);
	t = (char *)text(files, "atlas.tres");
	ck_assert(strncmp(t, "[gd_resource type=\"SpriteFrames\"", 32) == 0);
	memset(subs, 0, sizeof subs);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int id;

		if (sscanf(line, "[ext_resource type=\"Texture2D\" path=\"%63[^\"]\" "
		                 "id=\"page_%d\"]", pages[n_pages], &id) == 2) {
			ck_assert_int_eq(id, n_pages);
			page_img[n_pages] = page_png(files, pages[n_pages]);
			n_pages++;
		} else if (sscanf(line, "[sub_resource type=\"AtlasTexture\" "
		                        "id=\"AtlasTexture_%d\"]", &id) == 1) {
			ck_assert_int_lt(id, MAX_SUB);
			cur = id;
		} else if (cur >= 0 && sscanf(line, "atlas = ExtResource(\"page_%d\")",
		                              &subs[cur].page) == 1) {
			continue;
		} else if (cur >= 0 && strncmp(line, "region = ", 9) == 0) {
			ck_assert_int_eq(sscanf(line, "region = Rect2(%d, %d, %d, %d)",
			                        &subs[cur].region[0], &subs[cur].region[1],
			                        &subs[cur].region[2], &subs[cur].region[3]), 4);
		} else if (cur >= 0 && strncmp(line, "margin = ", 9) == 0) {
			ck_assert_int_eq(sscanf(line, "margin = Rect2(%d, %d, %d, %d)",
			                        &subs[cur].margin[0], &subs[cur].margin[1],
			                        &subs[cur].margin[2], &subs[cur].margin[3]), 4);
		} else if (strcmp(line, "[resource]") == 0) {
			in_resource = 1;
			cur = -1;
		} else if (in_resource && sscanf(line, "\"texture\": SubResource("
		                                 "\"AtlasTexture_%d\")", &id) == 1) {
			/* frames come before their animation's name: remember them */
			ck_assert_int_lt(frame_no, MAX_SUB);
			seen++;
			{
				const tres_sub *s = &subs[id];
				char name[64];
				const bb_pack_input *in = NULL;
				int k, w = s->region[2], h = s->region[3];

				/* the sub-resource's pixels identify the frame: find the
				 * input it reassembles to */
				for (k = 0; k < MF && !in; k++) {
					bb_image *back;

					if (f.in[k].image->width != w + s->margin[2] ||
					    f.in[k].image->height != h + s->margin[3])
						continue;
					back = fx_reassemble(page_img[s->page], s->region[0],
					                     s->region[1], w, h, 0, s->margin[0],
					                     s->margin[1], w + s->margin[2],
					                     h + s->margin[3]);
					if (back && fx_same(back, f.in[k].image))
						in = &f.in[k];
					bb_image_free(back);
				}
				ck_assert_msg(in != NULL, "AtlasTexture_%d matches no frame", id);
				snprintf(name, sizeof name, "%s", in->name);
				check_frame(&f, name, page_img[s->page], s->region[0],
				            s->region[1], w, h, 0, s->margin[0], s->margin[1],
				            w + s->margin[2], h + s->margin[3]);
				snprintf(order[frame_no++], sizeof order[0], "%s", name);
			}
		} else if (in_resource &&
		           sscanf(line, "\"name\": &\"%63[^\"]\"", anim) == 1) {
			if (strcmp(anim, "run") == 0 || strcmp(anim, "jump") == 0) {
				ck_assert_int_eq(frame_no, 6);
				for (id = 0; id < 6; id++) {       /* playback order */
					char want[64];

					snprintf(want, sizeof want, "%s_%04d", anim, id);
					ck_assert_str_eq(order[id], want);
				}
			}
			frame_no = 0;
		} else if (in_resource && strcmp(line, "\"loop\": false,") == 0) {
			loop_ok++;          /* jump does not loop */
		} else if (in_resource && strncmp(line, "\"speed\": ", 9) == 0 &&
		           strcmp(anim, "jump") == 0) {
			ck_assert_str_eq(line, "\"speed\": 20.0");
		}
	}
	ck_assert_int_eq(seen, MF);
	ck_assert_int_eq(loop_ok, 1);
	for (cur = 0; cur < n_pages; cur++)
		bb_image_free(page_img[cur]);
	free(t);
	bb_sheet_files_free(files);
	mfix_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack-meta");
	TCase *tc = tcase_create("pack-meta");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, json_hash_round_trip);
	tcase_add_test(tc, json_array_round_trip);
	tcase_add_test(tc, json_hash_multipack_round_trip);
	tcase_add_test(tc, phaser3_multiatlas_round_trip);
	tcase_add_test(tc, libgdx_atlas_round_trip);
	tcase_add_test(tc, cocos2d_plist_round_trip);
	tcase_add_test(tc, godot_tres_round_trip);
	tcase_add_test(tc, names_with_folders_and_escapes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
