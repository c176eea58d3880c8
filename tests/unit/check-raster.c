/* raster: the canvas a renderer keeps across frames (only what the last
 * frame drew is cleared), items culled before drawing, clip items, the
 * two-colour tint, texture filters against a supersampled reference. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "../tools/raster-error.h"
#include "raster/raster.h"

static bb_model *load(const char *rel)
{
	char path[4096];
	bb_model *m = NULL;
	bb_error err;

	snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR, rel);
	ck_assert_msg(bb_model_load(path, NULL, &m, &err) == BB_OK, "%s: %s", rel,
	              err.message);
	return m;
}

/* Renders animation `anim` of m's default armature at t with r. */
static void render_at(bb_renderer *r, bb_model *m, const char *anim, double t,
                      const bb_view *view, bb_image *out)
{
	int arm = bb_model_default_armature(m);
	bb_track tr = { bb_model_find_anim(m, arm, anim), 0, -1, 0, 0, 0 };
	bb_pose *pose;
	bb_error err;

	ck_assert_int_ge(tr.anim, 0);
	ck_assert(bb_pose_new(m, arm, &pose, &err) == BB_OK);
	ck_assert(bb_pose_eval(pose, &tr, 1, t, NULL, &err) == BB_OK);
	ck_assert_msg(bb_render(r, bb_pose_drawlist(pose), view, out, &err) == BB_OK,
	              "%s", err.message);
	bb_pose_free(pose);
}

static int same_pixels(const bb_image *a, const bb_image *b)
{
	int y;

	if (a->width != b->width || a->height != b->height)
		return 0;
	for (y = 0; y < a->height; y++)
		if (memcmp(bb_image_pixel(a, 0, y), bb_image_pixel(b, 0, y),
		           (size_t)a->width * 4) != 0)
			return 0;
	return 1;
}

static long opaque_pixels(const bb_image *img)
{
	long n = 0;
	int x, y;

	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++)
			n += bb_image_pixel(img, x, y)[3] != 0;
	return n;
}

/* A small frame rendered after a larger one on the same renderer equals
 * the small frame rendered alone, byte for byte: for textured samples
 * (quads, meshes, colour transforms, additive blending), with and without
 * a background, when the background changes between frames, for every
 * filter (the two frames sample different halved copies under GOOD). */
START_TEST(frame_after_larger_frame)
{
	static const struct {
		const char *file, *big_anim, *small_anim;
		double big_t, small_t;
	} cases[] = {
		{ "samples/humanoid.json", "jump", "idle", 0.35, 0.5 },
		{ "samples/dragonbones/rig_ske.json", "wave", "idle", 0.25, 1.25 },
		{ "samples/dragonbones/mesh_ske.json", "ripple", "wave", 4 / 24.0, 0.5 },
		{ "samples/ssajson/demo.json", "demo_fx", "demo_walk", 0.3, 0.25 },
		/* clipping, a two-colour additive glow */
		{ "samples/spine/keeper.json", "reach", "idle", 0.5, 1.0 },
	};
	static const bb_rgba bgs[3] = { { 0, 0, 0, 0 }, { 0.2, 0.4, 0.6, 0.5 },
	                                { 1, 1, 1, 1 } };
	size_t c;
	int k;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		bb_model *m = load(cases[c].file);
		bb_view big = { 0 }, small = { 0 };

		big.scale = 1.6;
		big.origin_x = 80;
		big.origin_y = 110;
		small.scale = 0.3;
		small.origin_x = 30;
		small.origin_y = 40;
		for (k = 0; k < 9; k++) {
			bb_renderer *kept, *fresh;
			bb_image *a, *alone, *after;
			bb_error err;

			big.background = bgs[k % 3];
			small.background = bgs[(k + 1) % 3];
			big.filter = small.filter = (bb_filter)(k / 3 + 1);
			ck_assert(bb_renderer_new(&kept, &err) == BB_OK);
			ck_assert(bb_renderer_new(&fresh, &err) == BB_OK);
			ck_assert(bb_image_new(160, 160, &a, &err) == BB_OK);
			ck_assert(bb_image_new(160, 160, &alone, &err) == BB_OK);
			ck_assert(bb_image_new(160, 160, &after, &err) == BB_OK);
			render_at(kept, m, cases[c].big_anim, cases[c].big_t, &big, a);
			ck_assert_int_gt(opaque_pixels(a), 3000);
			render_at(kept, m, cases[c].small_anim, cases[c].small_t, &small, after);
			render_at(fresh, m, cases[c].small_anim, cases[c].small_t, &small, alone);
			ck_assert_msg(same_pixels(alone, after), "%s: frame after a larger "
			              "frame differs (background %d, filter %d)", cases[c].file,
			              k % 3, k / 3 + 1);
			/* and the same small frame twice in a row */
			render_at(kept, m, cases[c].small_anim, cases[c].small_t, &small, after);
			ck_assert(same_pixels(alone, after));
			/* the larger frame again after the small one */
			render_at(kept, m, cases[c].big_anim, cases[c].big_t, &big, after);
			ck_assert(same_pixels(a, after));
			bb_image_free(a);
			bb_image_free(alone);
			bb_image_free(after);
			bb_renderer_free(kept);
			bb_renderer_free(fresh);
		}
		bb_model_free(m);
	}
}
END_TEST

/* Items the renderer culls (alpha taken to 0, off the canvas, no area)
 * change no pixel, and the ones next to the rules are still drawn. */
static bb_draw_item flat_quad(const bb_vec2 *v, bb_rgba fill)
{
	bb_draw_item it;

	memset(&it, 0, sizeof it);
	it.kind = BB_DRAW_QUAD;
	it.slot = 0;
	it.color = bb_color_xform_identity();
	it.fill = fill;
	it.nverts = 4;
	it.verts = v;
	it.uvs = v;
	return it;
}

static void render_list(const bb_draw_item *items, int n, bb_image *out)
{
	bb_drawlist dl = { n, items };
	bb_view view = { 0 };
	bb_renderer *r;
	bb_error err;

	view.scale = 1;
	ck_assert(bb_renderer_new(&r, &err) == BB_OK);
	ck_assert(bb_render(r, &dl, &view, out, &err) == BB_OK);
	bb_renderer_free(r);
}

START_TEST(culled_items_change_nothing)
{
	static const bb_vec2 base[4] = { { 4, 4 }, { 20, 4 }, { 20, 20 }, { 4, 20 } };
	static const bb_vec2 over[4] = { { 8, 8 }, { 28, 8 }, { 28, 28 }, { 8, 28 } };
	static const bb_vec2 off[4] = { { 33, 2 }, { 40, 2 }, { 40, 9 }, { 33, 9 } };
	static const bb_vec2 edge[4] = { { 31.5, 2 }, { 40, 2 }, { 40, 9 }, { 31.5, 9 } };
	static const bb_vec2 flat[4] = { { 2, 26 }, { 30, 26 }, { 24, 26 }, { 2, 26 } };
	static const bb_vec2 line[4] = { { 2, 26.5 }, { 30, 26.5 }, { 24, 26.5 }, { 2, 26.5 } };
	bb_rgba red = { 1, 0, 0, 1 }, blue = { 0, 0, 1, 1 };
	bb_draw_item items[8];
	bb_image *ref, *img;
	bb_error err;
	int n = 0;

	ck_assert(bb_image_new(32, 32, &ref, &err) == BB_OK);
	ck_assert(bb_image_new(32, 32, &img, &err) == BB_OK);
	items[0] = flat_quad(base, red);
	render_list(items, 1, ref);
	/* alpha multiplier 0, offsets 0; a multiplier below 0 cancelled by an
	 * offset; off the canvas; no area; a zero-size rectangle */
	items[++n] = flat_quad(over, blue);
	items[n].color.mul.a = 0;
	items[++n] = flat_quad(over, blue);
	items[n].color.mul.a = 0.5;
	items[n].color.add.a = -0.5;
	items[++n] = flat_quad(off, blue);
	items[++n] = flat_quad(flat, blue);
	items[++n] = flat_quad(over, blue);
	items[n].kind = BB_DRAW_RECT;
	items[n].m = (bb_affine){ 1, 0, 0, 1, 16, 16 };
	items[n].w = 0;
	items[n].h = 10;
	n++;
	render_list(items, n, img);
	ck_assert(same_pixels(ref, img));
	/* next to the rules: still drawn */
	items[1].color.add.a = 0.5;              /* multiplier 0, offset 0.5 */
	items[2] = flat_quad(edge, blue);         /* reaches the last column */
	items[3] = flat_quad(line, blue);         /* no area, but an outline */
	items[3].outline = 1;
	render_list(items, 4, img);
	ck_assert_int_gt(bb_image_pixel(img, 24, 24)[3], 100);
	ck_assert_int_lt(bb_image_pixel(img, 24, 24)[3], 160);
	ck_assert_int_gt(bb_image_pixel(img, 31, 5)[3], 0);
	ck_assert_int_gt(bb_image_pixel(img, 12, 26)[3], 0);
	bb_image_free(ref);
	bb_image_free(img);
}
END_TEST

/* A w x h texture of one straight colour. */
static bb_image *solid_texture(int w, int h, const uint8_t rgba[4])
{
	bb_image *img;
	bb_error err;
	int x, y;

	ck_assert(bb_image_new(w, h, &img, &err) == BB_OK);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			memcpy(bb_image_pixel(img, x, y), rgba, 4);
	return img;
}

static bb_draw_item textured_quad(const bb_vec2 *v, const bb_image *tex,
                                  const bb_vec2 *uv)
{
	bb_draw_item it = flat_quad(v, (bb_rgba){ 0, 0, 0, 0 });

	it.texture = tex;
	it.uvs = uv;
	return it;
}

/* A clip item as the evaluator emits it: no colour (alpha multiplier 0),
 * no blend; an end item has no vertices. */
static bb_draw_item clip(const bb_vec2 *v, int n)
{
	bb_draw_item it;

	memset(&it, 0, sizeof it);
	it.kind = n ? BB_DRAW_CLIP : BB_DRAW_CLIP_END;
	it.nverts = n;
	it.verts = v;
	it.uvs = v;
	return it;
}

static void render_list_with(bb_renderer *r, const bb_draw_item *items, int n,
                             bb_filter filter, bb_image *out)
{
	bb_drawlist dl = { n, items };
	bb_view view = { 0 };
	bb_error err;

	view.scale = 1;
	view.filter = filter;
	ck_assert_msg(bb_render(r, &dl, &view, out, &err) == BB_OK, "%s", err.message);
}

#define ALPHA(img, x, y) (bb_image_pixel((img), (x), (y))[3])

/* A texture premultiplied beforehand (its flag set, as a model's are when
 * loaded) draws the same bytes as its straight original premultiplied when
 * drawn, smaller, at its size and larger, under every filter: the texture
 * cache only reorders it. */
START_TEST(premultiplied_texture)
{
	/* the same texture straight, premultiplied and in cairo's layout
	 * (argb32, drawn from where it lies: by a renderer of its own and by
	 * one sharing a texture cache), whole and a rectangle of it, draws the
	 * same pixels */
	static const double scales[3] = { 0.3, 1, 2.5 };
	bb_vec2 v[4] = { { 2, 2 }, { 18, 2 }, { 18, 18 }, { 2, 18 } };
	bb_vec2 uvs[2][4] = { { { 0, 0 }, { 16, 0 }, { 16, 16 }, { 0, 16 } },
	                      { { 3, 2 }, { 13, 2 }, { 13, 14 }, { 3, 14 } } };
	bb_image *tex[3], *out[4];
	bb_renderer *r, *shared;
	bb_texcache *cache;
	bb_error err;
	int x, y, k, f, u, i;

	ck_assert(bb_image_new(16, 16, &tex[0], &err) == BB_OK);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++) {
			uint8_t *p = bb_image_pixel(tex[0], x, y);

			p[0] = (uint8_t)(x * 17);
			p[1] = (uint8_t)(255 - y * 13);
			p[2] = (uint8_t)(x * y);
			p[3] = (uint8_t)((x + y) * 8 + 3);
		}
	ck_assert_ptr_nonnull(tex[1] = bb_image_dup(tex[0]));
	bb_image_premultiply(tex[1]);
	ck_assert_ptr_nonnull(tex[2] = bb_image_dup(tex[0]));
	bb_image_to_argb32(tex[2]);
	ck_assert(tex[2]->argb32 && tex[2]->premultiplied);
	ck_assert(bb_renderer_new(&r, &err) == BB_OK);
	ck_assert(bb_renderer_new(&shared, &err) == BB_OK);
	ck_assert(bb_texcache_new(1 << 20, &cache, &err) == BB_OK);
	bb_renderer_share(shared, cache);
	for (i = 0; i < 4; i++)
		ck_assert(bb_image_new(48, 48, &out[i], &err) == BB_OK);
	for (u = 0; u < 2; u++)
		for (k = 0; k < 3; k++)
			for (f = BB_FILTER_FAST; f <= BB_FILTER_BEST; f++) {
				bb_draw_item it[3] = { textured_quad(v, tex[0], uvs[u]),
				                       textured_quad(v, tex[1], uvs[u]),
				                       textured_quad(v, tex[2], uvs[u]) };
				bb_drawlist dl[3] = { { 1, &it[0] }, { 1, &it[1] },
				                      { 1, &it[2] } };
				bb_view view = { 0 };

				view.scale = scales[k];
				view.filter = (bb_filter)f;
				ck_assert(bb_render(r, &dl[0], &view, out[0], &err) == BB_OK);
				ck_assert(bb_render(r, &dl[1], &view, out[1], &err) == BB_OK);
				ck_assert(bb_render(r, &dl[2], &view, out[2], &err) == BB_OK);
				ck_assert(bb_render(shared, &dl[2], &view, out[3], &err) == BB_OK);
				for (i = 1; i < 4; i++)
					for (y = 0; y < 48; y++)
						ck_assert_msg(memcmp(bb_image_pixel(out[0], 0, y),
						                     bb_image_pixel(out[i], 0, y),
						                     48 * 4) == 0, "layout %d, uv %d, "
						              "scale %g, filter %d, row %d", i, u,
						              view.scale, f, y);
			}
	for (i = 0; i < 4; i++)
		bb_image_free(out[i]);
	bb_renderer_free(r);
	bb_renderer_free(shared);
	bb_texcache_free(cache);
	for (i = 0; i < 3; i++)
		bb_image_free(tex[i]);
}
END_TEST

/* bb_render_argb32 hands over the canvas bb_render converts (into an
 * image it marks straight RGBA, whatever its flags said): the same
 * pixels once made straight, and the PNG encoder, fed either, writes the
 * same file (the fast path and a libdeflate level), with and without a
 * background, the second frame drawn over the first's canvas. */
START_TEST(argb32_frames_encode_the_same)
{
	bb_vec2 v[4] = { { 2, 3 }, { 30, 5 }, { 27, 28 }, { 4, 26 } };
	bb_vec2 w[4] = { { 10, 1 }, { 40, 9 }, { 38, 30 }, { 12, 33 } };
	bb_vec2 uv[4] = { { 0, 0 }, { 16, 0 }, { 16, 16 }, { 0, 16 } };
	static const bb_png_options opts[2] = { { 0 }, { .level = 9, .level_set = 1 } };
	bb_image *tex, *rgba, view, *back;
	bb_renderer *a, *b;
	bb_error err;
	int x, y, k, bg, o;

	ck_assert(bb_image_new(16, 16, &tex, &err) == BB_OK);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++) {
			uint8_t *p = bb_image_pixel(tex, x, y);

			p[0] = (uint8_t)(x * 16);
			p[1] = (uint8_t)(y * 16);
			p[2] = 200;
			p[3] = (uint8_t)(x < 4 ? 0 : x > 12 ? 255 : 40 + x * y);
		}
	bb_image_to_argb32(tex);
	ck_assert(bb_renderer_new(&a, &err) == BB_OK);
	ck_assert(bb_renderer_new(&b, &err) == BB_OK);
	ck_assert(bb_image_new(45, 37, &rgba, &err) == BB_OK);
	ck_assert(bb_image_new(45, 37, &back, &err) == BB_OK);
	for (bg = 0; bg < 2; bg++)
		for (k = 0; k < 2; k++) {
			bb_draw_item it = textured_quad(k ? w : v, tex, uv);
			bb_drawlist dl = { 1, &it };
			bb_view vw = { 0 };

			vw.scale = 1;
			if (bg)
				vw.background = (bb_rgba){ 0.2, 0.4, 0.6, 0.5 };
			/* flags an image may carry from earlier use: bb_render
			 * writes straight RGBA and says so */
			rgba->premultiplied = 1;
			rgba->argb32 = 1;
			ck_assert(bb_render(a, &dl, &vw, rgba, &err) == BB_OK);
			ck_assert(!rgba->premultiplied && !rgba->argb32);
			ck_assert(bb_render_argb32(b, &dl, &vw, 45, 37, &view, &err) == BB_OK);
			ck_assert(view.argb32 && view.premultiplied);
			ck_assert_int_eq(view.width, 45);
			ck_assert_int_eq(view.height, 37);
			bb_image_from_premul_argb32(back, view.px, view.stride);
			for (y = 0; y < 37; y++)
				ck_assert(memcmp(bb_image_pixel(rgba, 0, y),
				                 bb_image_pixel(back, 0, y), 45 * 4) == 0);
			for (o = 0; o < 2; o++) {
				bb_png_encoder *e1, *e2;
				const void *d1, *d2;
				size_t n1, n2;

				ck_assert(bb_png_encoder_new(&opts[o], &e1, &err) == BB_OK);
				ck_assert(bb_png_encoder_new(&opts[o], &e2, &err) == BB_OK);
				ck_assert(bb_png_encoder_encode(e1, rgba, &d1, &n1, &err) == BB_OK);
				ck_assert(bb_png_encoder_encode(e2, &view, &d2, &n2, &err) == BB_OK);
				ck_assert_uint_eq(n1, n2);
				ck_assert_msg(memcmp(d1, d2, n1) == 0, "background %d frame %d "
				              "options %d", bg, k, o);
				bb_png_encoder_free(e1);
				bb_png_encoder_free(e2);
			}
		}
	ck_assert(bb_render_argb32(b, NULL, NULL, 0, 5, &view, &err) == BB_ERR_LIMIT);
	bb_image_free(rgba);
	bb_image_free(back);
	bb_renderer_free(a);
	bb_renderer_free(b);
	bb_image_free(tex);
}
END_TEST

/* Clip items are never culled (they have no colour; an end has no
 * vertices) and clip what follows them, textured or flat, under every
 * filter: a clip off the canvas lets nothing through, an end lets
 * everything through again, a clip while one runs is ignored (clips do
 * not nest) and so is a stray end, a subtracted item is clipped too; on a
 * kept canvas a clipped frame before or after another equals it drawn
 * alone. */
START_TEST(clip_items)
{
	static const bb_vec2 all[4] = { { 0, 0 }, { 32, 0 }, { 32, 32 }, { 0, 32 } };
	static const bb_vec2 uv[4] = { { 0, 0 }, { 8, 0 }, { 8, 8 }, { 0, 8 } };
	static const bb_vec2 square[4] = { { 8, 8 }, { 24, 8 }, { 24, 24 }, { 8, 24 } };
	static const bb_vec2 corner[4] = { { 0, 0 }, { 6, 0 }, { 6, 6 }, { 0, 6 } };
	static const bb_vec2 far[3] = { { 100, 100 }, { 120, 100 }, { 110, 120 } };
	static const bb_vec2 low[4] = { { 26, 26 }, { 30, 26 }, { 30, 30 }, { 26, 30 } };
	static const uint8_t orange[4] = { 200, 120, 40, 255 };
	bb_rgba red = { 1, 0, 0, 1 }, white = { 1, 1, 1, 1 };
	bb_image *tex = solid_texture(8, 8, orange), *img, *alone;
	bb_draw_item items[8];
	bb_error err;
	int f;

	ck_assert(bb_image_new(32, 32, &img, &err) == BB_OK);
	ck_assert(bb_image_new(32, 32, &alone, &err) == BB_OK);
	for (f = BB_FILTER_FAST; f <= BB_FILTER_BEST; f++) {
		bb_renderer *r, *kept;
		const uint8_t *px;

		ck_assert(bb_renderer_new(&r, &err) == BB_OK);
		ck_assert(bb_renderer_new(&kept, &err) == BB_OK);
		/* clipped to the square, then unclipped again */
		items[0] = clip(square, 4);
		items[1] = textured_quad(all, tex, uv);
		items[2] = clip(NULL, 0);
		items[3] = flat_quad(low, red);
		render_list_with(r, items, 4, (bb_filter)f, img);
		px = bb_image_pixel(img, 16, 16);
		ck_assert_msg(abs(px[0] - 200) <= 2 && abs(px[1] - 120) <= 2 &&
		              abs(px[2] - 40) <= 2 && px[3] == 255, "filter %d: inside "
		              "the clip %d %d %d %d", f, px[0], px[1], px[2], px[3]);
		ck_assert_int_eq(ALPHA(img, 4, 4), 0);
		ck_assert_int_eq(ALPHA(img, 16, 28), 0);
		ck_assert_int_eq(ALPHA(img, 28, 28), 255);   /* after the end */
		/* the same frame after an unclipped one, and an unclipped one
		 * after it, on a kept canvas */
		render_list_with(r, items + 1, 1, (bb_filter)f, alone);
		render_list_with(kept, items + 1, 1, (bb_filter)f, alone);
		render_list_with(kept, items, 4, (bb_filter)f, alone);
		ck_assert(same_pixels(img, alone));
		render_list_with(kept, items + 3, 1, (bb_filter)f, alone);
		render_list_with(r, items + 3, 1, (bb_filter)f, img);
		ck_assert(same_pixels(img, alone));
		/* a clip off the canvas: nothing until the end */
		items[0] = clip(far, 3);
		render_list_with(r, items, 4, (bb_filter)f, img);
		render_list_with(r, items + 3, 1, (bb_filter)f, alone);
		ck_assert(same_pixels(img, alone));
		/* a clip inside a clip is ignored, and so is a second end */
		items[0] = clip(square, 4);
		items[1] = clip(corner, 4);
		items[2] = textured_quad(all, tex, uv);
		items[3] = clip(NULL, 0);
		items[4] = clip(NULL, 0);
		items[5] = flat_quad(corner, red);
		render_list_with(r, items, 6, (bb_filter)f, img);
		ck_assert_int_eq(ALPHA(img, 16, 16), 255);
		ck_assert_int_eq(ALPHA(img, 12, 2), 0);
		ck_assert_int_eq(bb_image_pixel(img, 2, 2)[0], 255);
		ck_assert_int_eq(ALPHA(img, 2, 2), 255);
		/* subtraction: white minus white inside the clip only (the
		 * triangle above the square's diagonal, not its box) */
		items[0] = flat_quad(all, white);
		items[1] = clip(square, 3);
		items[2] = flat_quad(all, white);
		items[2].blend = BB_BLEND_SUBTRACT;
		items[3] = clip(NULL, 0);
		render_list_with(r, items, 4, (bb_filter)f, img);
		px = bb_image_pixel(img, 20, 11);
		ck_assert_msg(px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 255,
		              "subtracted inside the clip: %d %d %d %d", px[0], px[1],
		              px[2], px[3]);
		px = bb_image_pixel(img, 11, 20);
		ck_assert_msg(px[0] == 255 && px[3] == 255, "outside the clip: %d %d %d %d",
		              px[0], px[1], px[2], px[3]);
		bb_renderer_free(r);
		bb_renderer_free(kept);
	}
	bb_image_free(tex);
	bb_image_free(img);
	bb_image_free(alone);
}
END_TEST

/* Two-colour tint (c' = c * mul + (1 - c) * dark + add): a black texture
 * with a dark colour and no other change shows the dark colour under
 * every filter (the dark colour alone makes the transform not the
 * identity: BEST does not take its direct path), and so does a flat
 * black fill; at alpha 0 it draws nothing, as in Spine (its runtimes
 * scale the dark colour by the final alpha with premultiplied alpha, and
 * blend by it without). */
START_TEST(dark_colour)
{
	static const bb_vec2 v[4] = { { 4, 4 }, { 28, 4 }, { 28, 28 }, { 4, 28 } };
	static const bb_vec2 uv[4] = { { 0, 0 }, { 8, 0 }, { 8, 8 }, { 0, 8 } };
	static const uint8_t black[4] = { 0, 0, 0, 255 };
	bb_image *tex = solid_texture(8, 8, black), *img;
	bb_draw_item it[2];
	bb_error err;
	int f, k;

	ck_assert(bb_image_new(32, 32, &img, &err) == BB_OK);
	it[0] = textured_quad(v, tex, uv);
	it[1] = flat_quad(v, (bb_rgba){ 0, 0, 0, 1 });
	for (k = 0; k < 2; k++) {
		it[k].color.dark = (bb_rgba){ 0.2, 0.4, 0.6, 0 };
		for (f = BB_FILTER_FAST; f <= BB_FILTER_BEST; f++) {
			bb_renderer *r;
			const uint8_t *px = bb_image_pixel(img, 16, 16);
			long n;

			ck_assert(bb_renderer_new(&r, &err) == BB_OK);
			it[k].color.mul.a = 1;
			render_list_with(r, it + k, 1, (bb_filter)f, img);
			ck_assert_msg(abs(px[0] - 51) <= 1 && abs(px[1] - 102) <= 1 &&
			              abs(px[2] - 153) <= 1 && px[3] == 255, "%s, filter %d: "
			              "%d %d %d %d, expected 51 102 153 255",
			              k ? "flat" : "textured", f, px[0], px[1], px[2], px[3]);
			it[k].color.mul.a = 0;
			render_list_with(r, it + k, 1, (bb_filter)f, img);
			n = opaque_pixels(img);
			ck_assert_msg(n == 0, "alpha 0 with a dark colour: %ld pixels", n);
			bb_renderer_free(r);
		}
	}
	bb_image_free(tex);
	bb_image_free(img);
}
END_TEST

/* Textures drawn at a quarter of their size: each filter stays within an
 * explicit tolerance of a 4x supersampled render (box-averaged down), and
 * they rank as documented (GOOD nearer than FAST, BEST nearer still). */
START_TEST(filters_near_supersampled)
{
	static const struct {
		const char *file, *anim;
		double t;
		long budget[3];   /* differing pixels at threshold 0.1: fast, good, best */
	} cases[] = {
		{ "samples/dragonbones/rig_ske.json", "wave", 0.25, { 100, 30, 6 } },
		{ "samples/dragonbones/mesh_ske.json", "wave", 0.5, { 220, 50, 8 } },
	};
	static const bb_filter filters[3] = { BB_FILTER_FAST, BB_FILTER_GOOD,
	                                      BB_FILTER_BEST };
	size_t c;
	int k;

	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		bb_model *m = load(cases[c].file);
		int arm = bb_model_default_armature(m);
		bb_track tr = { bb_model_find_anim(m, arm, cases[c].anim), 0, -1, 0, 0, 0 };
		bb_view view = { 0 }, big = { 0 };
		bb_image *ref4, *ref, *img;
		bb_renderer *r;
		bb_pose *pose;
		bb_bounds b;
		bb_error err;
		double mae[3];
		int w, h;

		ck_assert(bb_pose_new(m, arm, &pose, &err) == BB_OK);
		ck_assert(bb_pose_eval(pose, &tr, 1, cases[c].t, NULL, &err) == BB_OK);
		b = bb_drawlist_bounds(bb_pose_drawlist(pose));
		view.scale = 0.25;
		view.origin_x = 2 - floor(b.x0 * view.scale);
		view.origin_y = 2 - floor(b.y0 * view.scale);
		w = (int)(ceil(b.x1 * view.scale) - floor(b.x0 * view.scale)) + 4;
		h = (int)(ceil(b.y1 * view.scale) - floor(b.y0 * view.scale)) + 4;
		big = view;
		big.scale *= 4;
		big.origin_x *= 4;
		big.origin_y *= 4;
		big.filter = BB_FILTER_BEST;
		ck_assert(bb_image_new(4 * w, 4 * h, &ref4, &err) == BB_OK);
		ck_assert(bb_image_new(w, h, &ref, &err) == BB_OK);
		ck_assert(bb_image_new(w, h, &img, &err) == BB_OK);
		ck_assert(bb_renderer_new(&r, &err) == BB_OK);
		ck_assert(bb_render(r, bb_pose_drawlist(pose), &big, ref4, &err) == BB_OK);
		raster_downsample(ref4, 4, ref);
		for (k = 0; k < 3; k++) {
			bb_diff_options o = { 0 };
			bb_diff_result res;

			o.metric = BB_DIFF_METRIC_YIQ;   /* the scale the budgets were set on */
			view.filter = filters[k];
			ck_assert(bb_render(r, bb_pose_drawlist(pose), &view, img, &err) == BB_OK);
			ck_assert(bb_diff_images(ref, img, &o, &res, NULL, &err) == BB_OK);
			mae[k] = raster_mean_error(img, ref, NULL);
			ck_assert_msg(res.diff_pixels <= cases[c].budget[k], "%s: filter %d: "
			              "%lld pixels differ from the supersampled render "
			              "(budget %ld)", cases[c].file, (int)filters[k],
			              res.diff_pixels, cases[c].budget[k]);
		}
		ck_assert_msg(mae[1] < mae[0] && mae[2] < mae[1], "%s: mean errors "
		              "fast %.3f, good %.3f, best %.3f", cases[c].file, mae[0],
		              mae[1], mae[2]);
		bb_image_free(ref4);
		bb_image_free(ref);
		bb_image_free(img);
		bb_renderer_free(r);
		bb_pose_free(pose);
		bb_model_free(m);
	}
}
END_TEST


/* ---- basics on tiny canvases, from hand-made draw lists: coverage of a
 * filled square, no seam between the triangles of a mesh, the blend modes
 * and the colour transform, each against the value computed here from the
 * operator's definition (8-bit rounding allowed) ---- */

enum { S = 8 };

static bb_renderer *br;
static bb_image *bimg;
static bb_error berr;

static void basics_setup(void)
{
	ck_assert_int_eq(bb_renderer_new(&br, &berr), BB_OK);
	ck_assert_int_eq(bb_image_new(S, S, &bimg, &berr), BB_OK);
}

static void basics_teardown(void)
{
	bb_image_free(bimg);
	bb_renderer_free(br);
}

static const uint8_t *bpx(int x, int y)
{
	return bimg->px + (size_t)y * bimg->stride + 4 * (size_t)x;
}

/* An opaque rectangle of colour c covering [x0, x0 + w) x [y0, y0 + h). */
static bb_draw_item brect(double x0, double y0, double w, double h, bb_rgba c)
{
	bb_draw_item it;

	memset(&it, 0, sizeof it);
	it.kind = BB_DRAW_RECT;
	it.slot = 0;
	it.blend = BB_BLEND_NORMAL;
	it.color = bb_color_xform_identity();
	it.m = bb_affine_translate(x0 + w / 2, y0 + h / 2);
	it.w = w;
	it.h = h;
	it.fill = c;
	return it;
}

static void bdraw(const bb_draw_item *items, int n, bb_rgba bg)
{
	bb_drawlist dl = { n, items };
	bb_view v = { .scale = 1, .background = bg };

	ck_assert_int_eq(bb_render(br, &dl, &v, bimg, &berr), BB_OK);
}

static int bnear(int got, double want)
{
	return fabs(got - want) <= 1.5;
}

START_TEST(square_coverage)
{
	bb_draw_item it = brect(2, 2, 4, 4, (bb_rgba){ 1, 1, 1, 1 });
	long sum = 0;
	int x, y;

	bdraw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	for (y = 0; y < S; y++)
		for (x = 0; x < S; x++) {
			int inside = x >= 2 && x < 6 && y >= 2 && y < 6;

			ck_assert_msg(bpx(x, y)[3] == (inside ? 255 : 0), "pixel %d,%d: %d",
			              x, y, bpx(x, y)[3]);
			sum += bpx(x, y)[3];
		}
	ck_assert_int_eq(sum, 16 * 255);
}
END_TEST

/* Two triangles sharing the diagonal of a square: every pixel of the
 * square fully covered, the diagonal too. */
START_TEST(mesh_has_no_seam)
{
	static const bb_vec2 v[4] = { { 1, 1 }, { 7, 1 }, { 7, 7 }, { 1, 7 } };
	static const bb_vec2 uv[4] = { { 0, 0 } };
	static const int tri[6] = { 0, 1, 2, 0, 2, 3 };
	bb_draw_item it;
	int x, y;

	memset(&it, 0, sizeof it);
	it.kind = BB_DRAW_MESH;
	it.color = bb_color_xform_identity();
	it.fill = (bb_rgba){ 0, 0, 1, 1 };
	it.nverts = 4;
	it.verts = v;
	it.uvs = uv;
	it.nindices = 6;
	it.indices = tri;
	bdraw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	for (y = 1; y < 7; y++)
		for (x = 1; x < 7; x++)
			ck_assert_msg(bpx(x, y)[3] == 255 && bpx(x, y)[2] == 255,
			              "pixel %d,%d: %d %d", x, y, bpx(x, y)[2], bpx(x, y)[3]);
}
END_TEST

/* A source s over an opaque grey destination d, per channel:
 * normal s, add min(1, s + d), multiply s d, screen 1 - (1 - s)(1 - d),
 * subtract max(0, d - s). */
START_TEST(blend_modes)
{
	static const struct { bb_blend mode; double r, g, b; } want[] = {
		{ BB_BLEND_NORMAL, 0.8, 0.2, 0.4 },
		{ BB_BLEND_ADD, 1, 0.6, 0.8 },
		{ BB_BLEND_MULTIPLY, 0.8 * 0.4, 0.2 * 0.4, 0.4 * 0.4 },
		{ BB_BLEND_SCREEN, 1 - 0.2 * 0.6, 1 - 0.8 * 0.6, 1 - 0.6 * 0.6 },
		{ BB_BLEND_SUBTRACT, 0, 0.2, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		bb_draw_item it = brect(0, 0, S, S, (bb_rgba){ 0.8, 0.2, 0.4, 1 });

		it.blend = want[i].mode;
		bdraw(&it, 1, (bb_rgba){ 0.4, 0.4, 0.4, 1 });
		ck_assert_msg(bnear(bpx(4, 4)[0], 255 * want[i].r) &&
		              bnear(bpx(4, 4)[1], 255 * want[i].g) &&
		              bnear(bpx(4, 4)[2], 255 * want[i].b) && bpx(4, 4)[3] == 255,
		              "mode %d: %d %d %d %d", want[i].mode, bpx(4, 4)[0],
		              bpx(4, 4)[1], bpx(4, 4)[2], bpx(4, 4)[3]);
	}
}
END_TEST

/* The colour transform: c * mul + add, per channel, alpha too. */
START_TEST(color_transform)
{
	bb_draw_item it = brect(0, 0, S, S, (bb_rgba){ 1, 1, 1, 1 });

	it.color.mul = (bb_rgba){ 0.5, 1, 0, 1 };
	it.color.add = (bb_rgba){ 0, 0, 0.25, 0 };
	bdraw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	ck_assert(bnear(bpx(4, 4)[0], 127.5) && bpx(4, 4)[1] == 255 &&
	          bnear(bpx(4, 4)[2], 63.75) && bpx(4, 4)[3] == 255);
	it.color.mul = (bb_rgba){ 1, 1, 1, 0.5 };
	it.color.add = (bb_rgba){ 0, 0, 0, 0 };
	bdraw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	ck_assert(bnear(bpx(4, 4)[3], 127.5) && bpx(4, 4)[0] == 255);   /* straight */
}
END_TEST

/* The halved copies BB_FILTER_GOOD draws small textures from: each pixel
 * the rounded mean of the (up to 4) premultiplied pixels it covers, odd
 * last rows and columns averaged on their own, level after level. */
START_TEST(halved_levels_exact)
{
	static const int sizes[][2] = { { 37, 23 }, { 64, 2 }, { 1, 9 }, { 50, 51 } };
	unsigned seed = 12345;
	size_t k;

	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		int w = sizes[k][0], h = sizes[k][1], level, x, y, c;
		bb_renderer *r;
		bb_image *img;
		bb_error err;

		ck_assert_int_eq(bb_image_new(w, h, &img, &err), BB_OK);
		for (y = 0; y < h; y++)
			for (x = 0; x < w * 4; x++) {
				seed = seed * 1103515245u + 12345u;
				bb_image_pixel(img, 0, y)[x] = (unsigned char)(seed >> 16);
			}
		ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
		for (level = 1; level <= 3; level++) {
			cairo_surface_t *lo = bb__raster_region(r, img, 0, 0, w, h, level - 1);
			cairo_surface_t *hi = bb__raster_region(r, img, 0, 0, w, h, level);
			int lw = cairo_image_surface_get_width(lo);
			int lh = cairo_image_surface_get_height(lo);
			int ls = cairo_image_surface_get_stride(lo);
			int hs = cairo_image_surface_get_stride(hi);
			const unsigned char *lp = cairo_image_surface_get_data(lo);
			const unsigned char *hp = cairo_image_surface_get_data(hi);

			ck_assert_int_eq(cairo_image_surface_get_width(hi), (lw + 1) / 2);
			ck_assert_int_eq(cairo_image_surface_get_height(hi), (lh + 1) / 2);
			for (y = 0; y < (lh + 1) / 2; y++)
				for (x = 0; x < (lw + 1) / 2; x++)
					for (c = 0; c < 4; c++) {
						unsigned sum = 0, n = 0;
						int dx, dy;

						for (dy = 0; dy < 2; dy++)
							for (dx = 0; dx < 2; dx++)
								if (2 * x + dx < lw && 2 * y + dy < lh) {
									sum += lp[(size_t)(2 * y + dy) * ls +
									          (size_t)(2 * x + dx) * 4 + c];
									n++;
								}
						ck_assert_uint_eq(hp[(size_t)y * hs + (size_t)x * 4 + c],
						                  (sum + n / 2) / n);
					}
			cairo_surface_destroy(lo);
			cairo_surface_destroy(hi);
		}
		bb_renderer_free(r);
		bb_image_free(img);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("raster");
	TCase *tc = tcase_create("raster");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, frame_after_larger_frame);
	tcase_add_test(tc, culled_items_change_nothing);
	tcase_add_test(tc, clip_items);
	tcase_add_test(tc, dark_colour);
	tcase_add_test(tc, premultiplied_texture);
	tcase_add_test(tc, argb32_frames_encode_the_same);
	tcase_add_test(tc, filters_near_supersampled);
	tcase_add_test(tc, halved_levels_exact);
	suite_add_tcase(s, tc);
	tc = tcase_create("basics");
	tcase_add_checked_fixture(tc, basics_setup, basics_teardown);
	tcase_add_test(tc, square_coverage);
	tcase_add_test(tc, mesh_has_no_seam);
	tcase_add_test(tc, blend_modes);
	tcase_add_test(tc, color_transform);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
