/* The native skeleton format end to end through the evaluator: world
 * positions computed by hand from the numbers of samples/humanoid.json
 * (seed tables 6.1 and 7.2), layers, flip, frame rules and bad input. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bonebake/bonebake.h"

#define HUMANOID TOP_SRCDIR "/samples/humanoid.json"
#define EPS 1e-9

static bb_model *model;
static bb_pose *pose;

static void setup(void)
{
	bb_error err;

	ck_assert_int_eq(bb_model_load(HUMANOID, NULL, &model, &err), BB_OK);
	ck_assert_int_eq(bb_pose_new(model, 0, &pose, &err), BB_OK);
}

static void teardown(void)
{
	bb_pose_free(pose);
	bb_model_free(model);
}

static int anim(const char *name)
{
	int a = bb_model_find_anim(model, 0, name);

	ck_assert_msg(a >= 0, "no animation %s", name);
	return a;
}

static int bone(const char *name)
{
	int b = bb_model_find_bone(model, 0, name);

	ck_assert_msg(b >= 0, "no bone %s", name);
	return b;
}

static void eval1(const char *name, double t, const bb_eval_options *o)
{
	bb_track tr = { anim(name), 0, -1, 0, 0, 0 };
	bb_error err;

	ck_assert_int_eq(bb_pose_eval(pose, &tr, 1, t, o, &err), BB_OK);
}

/* Rotation by r (clockwise on screen, y down) applied to (x, y). */
static void rot(double r, double x, double y, double *ox, double *oy)
{
	*ox = cos(r) * x - sin(r) * y;
	*oy = sin(r) * x + cos(r) * y;
}

START_TEST(setup_pose_hand_r)
{
	bb_affine m;

	eval1("idle", 0, NULL);
	/* root(0,0) + chest(0,-10) + arm_upper_R(28,-38) + arm_lower_R(0,42)
	 * + hand_R(0,34), no rotation at t=0 */
	m = bb_pose_bone_world(pose, bone("hand_R"));
	ck_assert_double_eq_tol(m.tx, 28, EPS);
	ck_assert_double_eq_tol(m.ty, 28, EPS);
	ck_assert_double_eq_tol(m.a, 1, EPS);
}
END_TEST

START_TEST(attack_hand_r)
{
	/* At the attack's second key (t = 0.1667): chest +0.1,
	 * arm_upper_R -0.7, arm_lower_R -0.5 (seed 6.1). */
	double r1 = 0.1, r2 = r1 - 0.7, r3 = r2 - 0.5, x, y, px, py;
	bb_affine m;

	eval1("attack", 0.1667, NULL);
	px = 0;
	py = -10;                       /* chest joint */
	rot(r1, 28, -38, &x, &y);       /* arm_upper_R joint */
	px += x; py += y;
	rot(r2, 0, 42, &x, &y);         /* arm_lower_R joint */
	px += x; py += y;
	rot(r3, 0, 34, &x, &y);         /* hand_R joint */
	px += x; py += y;
	m = bb_pose_bone_world(pose, bone("hand_R"));
	ck_assert_double_eq_tol(m.tx, px, 1e-9);
	ck_assert_double_eq_tol(m.ty, py, 1e-9);
	ck_assert_double_eq_tol(atan2(m.b, m.a), r3, 1e-9);
}
END_TEST

START_TEST(attack_midway_interpolates)
{
	/* halfway between keys 0.1667 and 0.3333: arm_upper_R (-0.7 + 0.3)/2 */
	bb_affine chest, arm;

	eval1("attack", 0.25, NULL);
	chest = bb_pose_bone_world(pose, bone("chest"));
	arm = bb_pose_bone_world(pose, bone("arm_upper_R"));
	ck_assert_double_eq_tol(atan2(chest.b, chest.a), (0.1 - 0.05) / 2, 1e-9);
	ck_assert_double_eq_tol(atan2(arm.b, arm.a) - atan2(chest.b, chest.a),
	                        (-0.7 + 0.3) / 2, 1e-9);
}
END_TEST

START_TEST(overlay_keeps_legs_moves_arms)
{
	int mask = bb_model_find_mask(model, 0, "upperBody");
	bb_track tr[2] = { { anim("walk"), 0, -1, 0, 0, 0 }, { anim("attack"), 0, mask, 1, 0, 0 } };
	bb_affine legs_walk[4], legs_both[4], arm_attack, chest_walk, arm_both,
	          chest_both;
	const char *legs[4] = { "leg_upper_L", "leg_lower_L", "leg_upper_R",
	                        "leg_lower_R" };
	bb_error err;
	int i;

	ck_assert_int_ge(mask, 0);
	eval1("walk", 0.1667, NULL);
	for (i = 0; i < 4; i++)
		legs_walk[i] = bb_pose_bone_world(pose, bone(legs[i]));
	chest_walk = bb_pose_bone_world(pose, bone("chest"));
	eval1("attack", 0.1667, NULL);
	arm_attack = bb_pose_bone_world(pose, bone("arm_upper_R"));
	ck_assert_int_eq(bb_pose_eval(pose, tr, 2, 0.1667, NULL, &err), BB_OK);
	for (i = 0; i < 4; i++) {
		legs_both[i] = bb_pose_bone_world(pose, bone(legs[i]));
		ck_assert_mem_eq(&legs_both[i], &legs_walk[i], sizeof legs_walk[i]);
	}
	/* the arm rotates as in attack (relative to the chest) */
	arm_both = bb_pose_bone_world(pose, bone("arm_upper_R"));
	chest_both = bb_pose_bone_world(pose, bone("chest"));
	ck_assert_double_eq_tol(atan2(arm_both.b, arm_both.a),
	                        atan2(arm_attack.b, arm_attack.a), 1e-9);
	/* the chest keeps walk's bob (attack keys no chest y) but attack's lean */
	ck_assert_double_eq_tol(chest_both.ty, chest_walk.ty, 1e-9);
	ck_assert_double_eq_tol(atan2(chest_both.b, chest_both.a), 0.1, 1e-9);
	/* after the non-looping overlay ends, walk shows again */
	ck_assert_int_eq(bb_pose_eval(pose, tr, 2, 0.7, NULL, &err), BB_OK);
	arm_both = bb_pose_bone_world(pose, bone("arm_upper_R"));
	eval1("walk", 0.7, NULL);
	arm_attack = bb_pose_bone_world(pose, bone("arm_upper_R"));
	ck_assert_mem_eq(&arm_both, &arm_attack, sizeof arm_both);
}
END_TEST

START_TEST(blink_sets_scale_absolutely)
{
	bb_track tr[2] = { { anim("idle"), 0, -1, 0, 0, 0 }, { anim("blink"), 0.5, -1, 1, 0, 0 } };
	bb_affine eye;
	bb_error err;

	/* 0.1 s into the blink: scaleY 0.05, whatever the setup/body said */
	ck_assert_int_eq(bb_pose_eval(pose, tr, 2, 0.6, NULL, &err), BB_OK);
	eye = bb_pose_bone_world(pose, bone("left_eye"));
	ck_assert_double_eq_tol(hypot(eye.c, eye.d), 0.05, 1e-9);
	ck_assert_double_eq_tol(hypot(eye.a, eye.b), 1, 1e-9);
	/* before its start the face layer does nothing */
	ck_assert_int_eq(bb_pose_eval(pose, tr, 2, 0.45, NULL, &err), BB_OK);
	eye = bb_pose_bone_world(pose, bone("left_eye"));
	ck_assert_double_eq_tol(hypot(eye.c, eye.d), 1, 1e-9);
}
END_TEST

START_TEST(flip_mirrors_about_origin)
{
	bb_eval_options o = { 0 };
	bb_affine plain[32], m;
	int n, i;

	eval1("run", 0.2, NULL);
	n = bb_pose_bone_count(pose);
	ck_assert_int_le(n, 32);
	for (i = 0; i < n; i++)
		plain[i] = bb_pose_bone_world(pose, i);
	o.flip = 1;
	eval1("run", 0.2, &o);
	for (i = 0; i < n; i++) {
		m = bb_pose_bone_world(pose, i);
		ck_assert_double_eq_tol(m.tx, -plain[i].tx, 1e-9);
		ck_assert_double_eq_tol(m.ty, plain[i].ty, 1e-9);
		ck_assert_double_eq_tol(m.a, -plain[i].a, 1e-9);
		ck_assert_double_eq_tol(m.d, plain[i].d, 1e-9);
	}
}
END_TEST

START_TEST(direction_changes_order_and_colour)
{
	bb_eval_options o = { 0 };
	const bb_drawlist *dl;
	bb_rgba front_head = { 0 }, back_head = { 0 };
	int i, head_slot = bb_model_find_slot(model, 0, "head"), first_front, first_back;

	eval1("idle", 0, &o);
	dl = bb_pose_drawlist(pose);
	first_front = dl->items[0].slot;
	for (i = 0; i < dl->count; i++)
		if (dl->items[i].slot == head_slot)
			front_head = dl->items[i].fill;
	o.skin = bb_model_find_skin(model, 0, "back");
	ck_assert_int_ge(o.skin, 0);
	eval1("idle", 0, &o);
	dl = bb_pose_drawlist(pose);
	first_back = dl->items[0].slot;
	for (i = 0; i < dl->count; i++)
		if (dl->items[i].slot == head_slot)
			back_head = dl->items[i].fill;
	/* 7.4: the back view paints the head first */
	ck_assert_int_eq(first_back, head_slot);
	ck_assert_int_ne(first_front, head_slot);
	ck_assert(memcmp(&front_head, &back_head, sizeof front_head) != 0);
}
END_TEST

START_TEST(attachment_keys_and_overrides)
{
	int slot = bb_model_find_slot(model, 0, "hand_R");
	int fist = bb_model_find_slot_display(model, 0, slot, "fist");
	int open = bb_model_find_slot_display(model, 0, slot, "open");
	bb_eval_options o = { 0 };

	ck_assert_int_gt(fist, 0);
	ck_assert_int_gt(open, 0);
	eval1("attack", 0.2, NULL);
	ck_assert_int_eq(bb_pose_slot_display(pose, slot), fist);
	eval1("attack", 0.5, NULL);
	ck_assert_int_eq(bb_pose_slot_display(pose, slot), open);
	o.n_overrides = 1;
	o.overrides[0].slot = slot;
	o.overrides[0].display = fist;
	eval1("idle", 0, &o);
	ck_assert_int_eq(bb_pose_slot_display(pose, slot), fist);
}
END_TEST

START_TEST(loop_wraps_once_holds)
{
	bb_affine a, b;

	eval1("walk", 0.1, NULL);
	a = bb_pose_bone_world(pose, bone("hand_L"));
	eval1("walk", 0.9, NULL);          /* 0.8 s loop: same as 0.1 */
	b = bb_pose_bone_world(pose, bone("hand_L"));
	ck_assert_double_eq_tol(a.tx, b.tx, 1e-9);
	ck_assert_double_eq_tol(a.ty, b.ty, 1e-9);
	eval1("jump", 0.7, NULL);
	a = bb_pose_bone_world(pose, bone("root"));
	eval1("jump", 5, NULL);            /* non-looping: holds the end */
	b = bb_pose_bone_world(pose, bone("root"));
	ck_assert_mem_eq(&a, &b, sizeof a);
}
END_TEST

START_TEST(frame_counts)
{
	ck_assert_int_eq(bb_frame_count(0.8, 30, 1), 24);    /* walk */
	ck_assert_int_eq(bb_frame_count(0.7, 30, 0), 22);    /* jump: end shown */
	ck_assert_int_eq(bb_frame_count(0.25, 30, 0), 8);    /* 7.5 -> 7 + 1 */
	ck_assert_int_eq(bb_frame_count(0.5, 30, 1), 15);
	ck_assert_int_eq(bb_frame_count(0.51, 30, 1), 15);   /* 15.3 rounds */
	ck_assert_int_eq(bb_frame_count(0, 30, 1), 1);
	ck_assert_int_eq(bb_frame_count(2.4, 24, 0), 58);
}
END_TEST

/* ---- documents built in the test ------------------------------------- */

static bb_status load_str(const char *json, bb_model **m, bb_error *err)
{
	return bb_model_load_buffer(json, strlen(json), "t.json", NULL, m, err);
}

START_TEST(root_scale_x_is_figure_scale)
{
	const char *doc =
		"{\"format\":\"bonebake-skeleton\",\"version\":1,"
		"\"bones\":[{\"name\":\"root\",\"x\":10},"
		"{\"name\":\"b\",\"parent\":\"root\",\"x\":5}],"
		"\"animations\":[{\"name\":\"a\",\"duration\":1,"
		"\"bones\":{\"root\":[{\"time\":0,\"scaleX\":2}]}}]}";
	bb_track tr = { 0, 0, -1, 0, 0, 0 };
	bb_model *m;
	bb_pose *p;
	bb_error err;
	bb_affine r, b;

	ck_assert_int_eq(load_str(doc, &m, &err), BB_OK);
	ck_assert_int_eq(bb_pose_new(m, 0, &p, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, 0.5, NULL, &err), BB_OK);
	r = bb_pose_bone_world(p, 0);
	b = bb_pose_bone_world(p, 1);
	/* the figure scale also scales the root's own offset */
	ck_assert_double_eq_tol(r.tx, 20, EPS);
	ck_assert_double_eq_tol(r.a, 2, EPS);
	ck_assert_double_eq_tol(b.tx, 30, EPS);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

static void expect_error(const char *doc, bb_status want, const char *path,
                         const char *msg)
{
	bb_model *m = NULL;
	bb_error err;
	bb_status s = load_str(doc, &m, &err);

	ck_assert_int_eq(s, want);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(err.file, "t.json");
	ck_assert_msg(strcmp(err.path, path) == 0, "path '%s', expected '%s' (%s)",
	              err.path, path, err.message);
	ck_assert_msg(strstr(err.message, msg) != NULL, "message '%s' lacks '%s'",
	              err.message, msg);
}

#define HEAD "{\"format\":\"bonebake-skeleton\",\"version\":1,"

START_TEST(bad_input)
{
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"},{\"name\":\"b\",\"parent\":\"x\"}],"
	             "\"animations\":[]}", BB_ERR_INPUT, "bones[1].parent",
	             "unknown bone \"x\"");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\",\"parent\":\"b\"},{\"name\":\"b\"}],"
	             "\"animations\":[]}", BB_ERR_INPUT, "bones[0].parent",
	             "defined after its child");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\",\"parent\":\"b\"},"
	             "{\"name\":\"b\",\"parent\":\"a\"}],\"animations\":[]}",
	             BB_ERR_INPUT, "bones[0].parent", "cycle");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"},{\"name\":\"a\"}],"
	             "\"animations\":[]}", BB_ERR_INPUT, "bones[1].name",
	             "duplicate bone name");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\",\"x\":\"3\"}],\"animations\":[]}",
	             BB_ERR_INPUT, "bones[0].x", "expected a number");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\",\"attachments\":{\"front\":"
	             "{\"width\":-4,\"height\":2}}}],\"animations\":[]}",
	             BB_ERR_INPUT, "bones[0].attachments.front.width", "outside");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}],\"animations\":["
	             "{\"name\":\"w\",\"duration\":1},{\"name\":\"w\",\"duration\":2}]}",
	             BB_ERR_INPUT, "animations[1].name", "duplicate animation");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}],\"animations\":["
	             "{\"name\":\"w\",\"duration\":1,\"bones\":{\"zz\":[]}}]}",
	             BB_ERR_INPUT, "animations[0].bones.zz", "unknown bone");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}],\"animations\":["
	             "{\"name\":\"w\",\"duration\":1,\"bones\":{\"a\":["
	             "{\"time\":0.5},{\"time\":0.2}]}}]}",
	             BB_ERR_INPUT, "animations[0].bones.a[1].time", "out of order");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}],\"animations\":["
	             "{\"name\":\"w\",\"duration\":1,\"bones\":{\"a\":["
	             "{\"time\":0,\"attachment\":\"fist\"}]}}]}",
	             BB_ERR_INPUT, "animations[0].bones.a[0].attachment",
	             "no attachments");
	expect_error("{\"format\":\"bonebake-skeleton\",\"version\":2}", BB_ERR_INPUT,
	             "version", "unsupported version");
	expect_error(HEAD "\"bones\":[]}", BB_ERR_INPUT, "bones", "no bones");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}]}", BB_ERR_INPUT, "animations",
	             "missing");
	expect_error(HEAD "\"bones\":[{\"name\":\"a\"}],\"drawOrder\":{\"front\":"
	             "[\"a\",\"q\"]},\"animations\":[]}", BB_ERR_INPUT,
	             "drawOrder.front[1]", "unknown bone \"q\"");
}
END_TEST

START_TEST(non_finite_and_syntax)
{
	bb_model *m = NULL;
	bb_error err;
	const char *doc = HEAD "\"bones\":[{\"name\":\"a\",\n\"x\": 1e999}],"
	                  "\"animations\":[]}";

	ck_assert_int_eq(load_str(doc, &m, &err), BB_ERR_INPUT);
	ck_assert_int_eq(err.line, 2);
	ck_assert_ptr_nonnull(strstr(err.message, "invalid JSON"));
	ck_assert_int_eq(load_str("{\"format\":\"other\"}", &m, &err), BB_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(err.message, "not a format"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("native");
	TCase *tc = tcase_create("humanoid");
	TCase *docs = tcase_create("documents");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, setup_pose_hand_r);
	tcase_add_test(tc, attack_hand_r);
	tcase_add_test(tc, attack_midway_interpolates);
	tcase_add_test(tc, overlay_keeps_legs_moves_arms);
	tcase_add_test(tc, blink_sets_scale_absolutely);
	tcase_add_test(tc, flip_mirrors_about_origin);
	tcase_add_test(tc, direction_changes_order_and_colour);
	tcase_add_test(tc, attachment_keys_and_overrides);
	tcase_add_test(tc, loop_wraps_once_holds);
	tcase_add_test(tc, frame_counts);
	suite_add_tcase(s, tc);
	tcase_add_test(docs, root_scale_x_is_figure_scale);
	tcase_add_test(docs, bad_input);
	tcase_add_test(docs, non_finite_and_syntax);
	suite_add_tcase(s, docs);
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
