/* The rasterizer on tiny canvases, from hand-made draw lists: coverage of
 * a filled square, no seam between the triangles of a mesh, the blend
 * modes and the colour transform, each against the value computed in the
 * test from the operator's definition (8-bit rounding allowed). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"

enum { S = 8 };

static bb_renderer *r;
static bb_image *img;
static bb_error err;

static void setup(void)
{
	ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(S, S, &img, &err), BB_OK);
}

static void teardown(void)
{
	bb_image_free(img);
	bb_renderer_free(r);
}

static const uint8_t *px(int x, int y)
{
	return img->px + (size_t)y * img->stride + 4 * (size_t)x;
}

/* An opaque rectangle of colour c covering [x0, x0 + w) x [y0, y0 + h). */
static bb_draw_item rect(double x0, double y0, double w, double h, bb_rgba c)
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

static void draw(const bb_draw_item *items, int n, bb_rgba bg)
{
	bb_drawlist dl = { n, items };
	bb_view v = { .scale = 1, .background = bg };

	ck_assert_int_eq(bb_render(r, &dl, &v, img, &err), BB_OK);
}

static int near(int got, double want)
{
	return fabs(got - want) <= 1.5;
}

START_TEST(square_coverage)
{
	bb_draw_item it = rect(2, 2, 4, 4, (bb_rgba){ 1, 1, 1, 1 });
	long sum = 0;
	int x, y;

	draw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	for (y = 0; y < S; y++)
		for (x = 0; x < S; x++) {
			int inside = x >= 2 && x < 6 && y >= 2 && y < 6;

			ck_assert_msg(px(x, y)[3] == (inside ? 255 : 0), "pixel %d,%d: %d",
			              x, y, px(x, y)[3]);
			sum += px(x, y)[3];
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
	draw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	for (y = 1; y < 7; y++)
		for (x = 1; x < 7; x++)
			ck_assert_msg(px(x, y)[3] == 255 && px(x, y)[2] == 255,
			              "pixel %d,%d: %d %d", x, y, px(x, y)[2], px(x, y)[3]);
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
		bb_draw_item it = rect(0, 0, S, S, (bb_rgba){ 0.8, 0.2, 0.4, 1 });

		it.blend = want[i].mode;
		draw(&it, 1, (bb_rgba){ 0.4, 0.4, 0.4, 1 });
		ck_assert_msg(near(px(4, 4)[0], 255 * want[i].r) &&
		              near(px(4, 4)[1], 255 * want[i].g) &&
		              near(px(4, 4)[2], 255 * want[i].b) && px(4, 4)[3] == 255,
		              "mode %d: %d %d %d %d", want[i].mode, px(4, 4)[0],
		              px(4, 4)[1], px(4, 4)[2], px(4, 4)[3]);
	}
}
END_TEST

/* The colour transform: c * mul + add, per channel, alpha too. */
START_TEST(color_transform)
{
	bb_draw_item it = rect(0, 0, S, S, (bb_rgba){ 1, 1, 1, 1 });

	it.color.mul = (bb_rgba){ 0.5, 1, 0, 1 };
	it.color.add = (bb_rgba){ 0, 0, 0.25, 0 };
	draw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	ck_assert(near(px(4, 4)[0], 127.5) && px(4, 4)[1] == 255 &&
	          near(px(4, 4)[2], 63.75) && px(4, 4)[3] == 255);
	it.color.mul = (bb_rgba){ 1, 1, 1, 0.5 };
	it.color.add = (bb_rgba){ 0, 0, 0, 0 };
	draw(&it, 1, (bb_rgba){ 0, 0, 0, 0 });
	ck_assert(near(px(4, 4)[3], 127.5) && px(4, 4)[0] == 255);   /* straight */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("raster");
	TCase *tc = tcase_create("raster");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, square_coverage);
	tcase_add_test(tc, mesh_has_no_seam);
	tcase_add_test(tc, blend_modes);
	tcase_add_test(tc, color_transform);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
