/* DragonBones: the project's samples rendered (mesh seams, colour
 * transform), and small documents for the timing and easing rules of the
 * 5.5+ runtime (spec sections 5-6). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"

#define SAMPLE(f) TOP_SRCDIR "/samples/dragonbones/" f

/* Renders one frame; `hide` names a slot to hide (or NULL). */
static bb_image *render_frame(const char *path, const char *anim, double t,
                              double scale, int w, int h, double ox, double oy,
                              const char *hide)
{
	bb_eval_options eo = { 0 };
	bb_model *m;
	bb_pose *p;
	bb_renderer *r;
	bb_image *img;
	bb_error err;
	bb_view v = { 0 };
	bb_track tr = { 0, 0, -1, 0, 0, 0 };
	int arm;

	ck_assert_int_eq(bb_model_load(path, NULL, &m, &err), BB_OK);
	arm = bb_model_default_armature(m);
	tr.anim = bb_model_find_anim(m, arm, anim);
	ck_assert_int_ge(tr.anim, 0);
	ck_assert_int_eq(bb_pose_new(m, arm, &p, &err), BB_OK);
	if (hide) {
		eo.n_overrides = 1;
		eo.overrides[0].slot = bb_model_find_slot(m, arm, hide);
		eo.overrides[0].display = -1;
		ck_assert_int_ge(eo.overrides[0].slot, 0);
	}
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, t, &eo, &err), BB_OK);
	ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(w, h, &img, &err), BB_OK);
	v.scale = scale;
	v.origin_x = ox;
	v.origin_y = oy;
	ck_assert_int_eq(bb_render(r, bb_pose_drawlist(p), &v, img, &err), BB_OK);
	bb_renderer_free(r);
	bb_pose_free(p);
	bb_model_free(m);
	return img;
}

/* An opaque texture drawn as many triangles: no pixel inside the meshes
 * (its whole 5x5 neighbourhood covered) has alpha below 255.  The pole, an
 * image with soft edges of its own, is hidden. */
START_TEST(mesh_has_no_seams)
{
	static const char *anims[2] = { "wave", "ripple" };
	long inside = 0, holes = 0;
	int a, f, x, y, dx, dy;

	for (a = 0; a < 2; a++)
		for (f = 0; f < 24; f += 3) {
			bb_image *img = render_frame(SAMPLE("mesh_ske.json"), anims[a],
			                             f / 24.0, 1.7, 320, 320, 170, 300,
			                             "pole");

			for (y = 2; y < img->height - 2; y++)
				for (x = 2; x < img->width - 2; x++) {
					int covered = 1;

					for (dy = -2; dy <= 2 && covered; dy++)
						for (dx = -2; dx <= 2; dx++)
							if (bb_image_pixel(img, x + dx, y + dy)[3] == 0)
								covered = 0;
					if (!covered)
						continue;
					inside++;
					if (bb_image_pixel(img, x, y)[3] != 255)
						holes++;
				}
			bb_image_free(img);
		}
	ck_assert_int_gt(inside, 100000);
	ck_assert_int_eq(holes, 0);
}
END_TEST

/* slot "body": multipliers and offsets turn the torso fill (90,130,210)
 * into (144,137,137). */
START_TEST(colour_transform)
{
	bb_image *img = render_frame(SAMPLE("rig_ske.json"), "idle", 0, 1, 240, 240,
	                             120, 215, NULL);
	long hits = 0;
	int x, y;

	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++) {
			const uint8_t *p = bb_image_pixel(img, x, y);

			if (abs(p[0] - 144) <= 1 && abs(p[1] - 137) <= 1 &&
			    abs(p[2] - 137) <= 1 && p[3] == 255)
				hits++;
			ck_assert(!(p[0] == 90 && p[1] == 130 && p[2] == 210));
		}
	ck_assert_int_gt(hits, 300);
	bb_image_free(img);
}
END_TEST

/* ---- documents ---------------------------------------------------------- */

static bb_model *load_doc(const char *anim_json)
{
	char doc[4096];
	bb_model *m = NULL;
	bb_error err;

	snprintf(doc, sizeof doc,
	         "{\"version\":\"5.5\",\"frameRate\":10,\"armature\":[{\"name\":\"a\","
	         "\"bone\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"root\"}],"
	         "\"animation\":[%s]}]}", anim_json);
	ck_assert_msg(bb_model_load_buffer(doc, strlen(doc), "t_ske.json", NULL, &m,
	                                   &err) == BB_OK, "%s: %s", err.path,
	              err.message);
	return m;
}

static double bone_x(bb_model *m, const char *anim, double t, int loop)
{
	bb_pose *p;
	bb_error err;
	bb_track tr = { bb_model_find_anim(m, 0, anim), 0, -1, 0, loop, 0 };
	double x;

	ck_assert_int_ge(tr.anim, 0);
	ck_assert_int_eq(bb_pose_new(m, 0, &p, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, t, NULL, &err), BB_OK);
	x = bb_pose_bone_world(p, 1).tx;
	bb_pose_free(p);
	return x;
}

START_TEST(tween_easing_rules)
{
	/* 10 fps, keys at frames 0 and 4 (x 0 -> 100), last key at 4 lasts to 8 */
	bb_model *m = load_doc(
		"{\"name\":\"hold\",\"duration\":8,\"playTimes\":0,\"bone\":[{\"name\":\"b\","
		"\"translateFrame\":[{\"duration\":4},{\"duration\":4,\"x\":100}]}]},"
		"{\"name\":\"lin\",\"duration\":8,\"playTimes\":0,\"bone\":[{\"name\":\"b\","
		"\"translateFrame\":[{\"duration\":4,\"tweenEasing\":0},{\"duration\":4,"
		"\"tweenEasing\":0,\"x\":100}]}]},"
		"{\"name\":\"in\",\"duration\":8,\"playTimes\":1,\"bone\":[{\"name\":\"b\","
		"\"translateFrame\":[{\"duration\":4,\"tweenEasing\":-1},{\"duration\":4,"
		"\"tweenEasing\":0,\"x\":100}]}]},"
		"{\"name\":\"sine\",\"duration\":8,\"bone\":[{\"name\":\"b\","
		"\"translateFrame\":[{\"duration\":4,\"tweenEasing\":1.5},{\"duration\":4,"
		"\"x\":100}]}]}");

	/* absent tweenEasing: hold */
	ck_assert_double_eq_tol(bone_x(m, "hold", 0.2, 0), 0, 1e-9);
	ck_assert_double_eq_tol(bone_x(m, "hold", 0.4, 0), 100, 1e-9);
	/* linear, and the last key tweens back to key 0 while looping */
	ck_assert_double_eq_tol(bone_x(m, "lin", 0.1, 0), 25, 1e-9);
	ck_assert_double_eq_tol(bone_x(m, "lin", 0.6, 0), 50, 1e-9);
	/* ... but not when played once (playTimes 1 holds the last key) */
	ck_assert_double_eq_tol(bone_x(m, "in", 0.6, 0), 100, 1e-9);
	ck_assert_double_eq_tol(bone_x(m, "in", 0.6, 1), 50, 1e-9);
	/* -1: full quad ease-in: p^2 */
	ck_assert_double_eq_tol(bone_x(m, "in", 0.2, 0), 100 * 0.25, 1e-9);
	/* 1.5: halfway between linear and sine in-out */
	ck_assert_double_eq_tol(bone_x(m, "sine", 0.1, 0),
	                        100 * ((0.5 * (1 - cos(0.25 * M_PI)) - 0.25) * 0.5 + 0.25),
	                        1e-6);
	bb_model_free(m);
}
END_TEST

START_TEST(curve_is_sampled_like_the_runtime)
{
	/* a symmetric curve over 4 frames: 5 samples; at the key's middle the
	 * piecewise-linear table gives exactly the middle sample (0.5) */
	bb_model *m = load_doc(
		"{\"name\":\"c\",\"duration\":8,\"playTimes\":1,\"bone\":[{\"name\":\"b\","
		"\"translateFrame\":[{\"duration\":4,\"curve\":[0.5,0,0.5,1]},"
		"{\"duration\":4,\"x\":100}]}]}");
	double mid = bone_x(m, "c", 0.2, 0), q = bone_x(m, "c", 0.1, 0);

	ck_assert_double_eq_tol(mid, 50, 0.05);  /* samples stored to 1e-4 */
	/* ease-in-out: slower than linear in the first quarter */
	ck_assert_double_lt(q, 25);
	ck_assert_double_gt(q, 0);
	ck_assert_double_eq_tol(bone_x(m, "c", 0.4, 0), 100, 1e-9);
	bb_model_free(m);
}
END_TEST

START_TEST(rotation_unwraps_and_scale_multiplies)
{
	bb_model *m;
	bb_pose *p;
	bb_error err;
	bb_track tr = { 0, 0, -1, 0, 0, 0 };
	bb_affine w;
	const char *doc =
		"{\"version\":\"4.5\",\"frameRate\":10,\"armature\":[{\"name\":\"a\","
		"\"bone\":[{\"name\":\"root\",\"transform\":{\"scX\":2}}],"
		"\"animation\":[{\"name\":\"r\",\"duration\":4,\"bone\":[{\"name\":\"root\","
		"\"frame\":[{\"duration\":2,\"tweenEasing\":0,\"transform\":{\"skX\":170,"
		"\"skY\":170,\"scX\":1.5}},{\"duration\":2,\"transform\":{\"skX\":-170,"
		"\"skY\":-170,\"scX\":1.5}}]}]}]}]}";

	ck_assert_int_eq(bb_model_load_buffer(doc, strlen(doc), "t.json", NULL, &m,
	                                      &err), BB_OK);
	ck_assert_int_eq(bb_pose_new(m, 0, &p, &err), BB_OK);
	/* halfway from 170 to -170 the short way is 180, not 0 */
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, 0.1, NULL, &err), BB_OK);
	w = bb_pose_bone_world(p, 0);
	ck_assert_double_eq_tol(atan2(w.b, w.a), M_PI, 1e-6);
	/* frame scale multiplies the setup scale: 2 * 1.5 */
	ck_assert_double_eq_tol(hypot(w.a, w.b), 3, 1e-9);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* 4.5/5.0 slot keys (`frame`) make a colour timeline even when no key has
 * a colour: every key is identity, so a slot whose setup colour hides it
 * shows (the runtime's _parseSlotTimeline; mecha_1502b's jump_2).  A slot
 * without a timeline keeps its setup colour. */
START_TEST(slot_frames_without_colour_are_identity)
{
	bb_model *m;
	bb_pose *p;
	bb_error err;
	bb_track tr = { 0, 0, -1, 0, 1, 0 };
	int anim, sa, sb;
	const char *doc =
		"{\"version\":\"5.0\",\"frameRate\":10,\"armature\":[{\"name\":\"a\","
		"\"bone\":[{\"name\":\"root\"}],\"slot\":[{\"name\":\"s\",\"parent\":"
		"\"root\",\"color\":{\"aM\":0}},{\"name\":\"u\",\"parent\":\"root\","
		"\"color\":{\"aM\":0}}],"
		"\"animation\":[{\"name\":\"show\",\"duration\":2,\"slot\":[{\"name\":"
		"\"s\",\"frame\":[{\"duration\":1},{\"duration\":1}]}]}]}]}";

	ck_assert_int_eq(bb_model_load_buffer(doc, strlen(doc), "t.json", NULL, &m,
	                                      &err), BB_OK);
	anim = bb_model_find_anim(m, 0, "show");
	sa = bb_model_find_slot(m, 0, "s");
	sb = bb_model_find_slot(m, 0, "u");
	ck_assert_int_ge(anim, 0);
	tr.anim = anim;
	ck_assert_int_eq(bb_pose_new(m, 0, &p, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, 0, NULL, &err), BB_OK);
	ck_assert_double_eq_tol(bb_pose_slot_color(p, sa).mul.a, 1, 1e-9);
	ck_assert_double_eq_tol(bb_pose_slot_color(p, sb).mul.a, 0, 1e-9);
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, 0.15, NULL, &err), BB_OK);
	ck_assert_double_eq_tol(bb_pose_slot_color(p, sa).mul.a, 1, 1e-9);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

START_TEST(samples_load)
{
	bb_model *m;
	bb_error err;
	bb_armature_info ai;
	int arm;

	ck_assert_int_eq(bb_model_load(SAMPLE("rig_ske.json"), NULL, &m, &err), BB_OK);
	arm = bb_model_default_armature(m);
	bb_model_armature_info(m, arm, &ai);
	ck_assert_str_eq(ai.name, "robot");
	ck_assert_int_eq(ai.iks, 1);
	ck_assert_int_eq(ai.events, 2);
	ck_assert_int_eq(bb_model_warning_count(m), 0);
	ck_assert_int_eq(bb_model_event_count(m, arm, bb_model_find_anim(m, arm, "wave")), 2);
	bb_model_free(m);
	ck_assert_int_eq(bb_model_load(SAMPLE("mesh_ske.json"), NULL, &m, &err), BB_OK);
	bb_model_armature_info(m, 0, &ai);
	ck_assert_int_eq(ai.meshes, 2);
	bb_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dragonbones");
	TCase *tc = tcase_create("dragonbones");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, samples_load);
	tcase_add_test(tc, tween_easing_rules);
	tcase_add_test(tc, curve_is_sampled_like_the_runtime);
	tcase_add_test(tc, rotation_unwraps_and_scale_multiplies);
	tcase_add_test(tc, colour_transform);
	tcase_add_test(tc, slot_frames_without_colour_are_identity);
	tcase_add_test(tc, mesh_has_no_seams);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
