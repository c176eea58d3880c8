/* Cocos Studio: the tween table against the spec's formulas (cocos.md
 * 6.3, written out again here independently), the component-wise parent
 * combination against the spec's y-up formulas (4), additive keys, and the
 * timing rules (5, 6): dr - 1, sc, drTW, loop and hold, dl, special
 * segments, tweenRotate, the XML reader's parent-space keys. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "eval/tween.h"
#include "loaders/cocos.h"

#define EPS 1e-9

/* ---- the easing table ---------------------------------------------------- */

static double sbounce(double t)
{
	if (t < 1 / 2.75)
		return 7.5625 * t * t;
	if (t < 2 / 2.75)
		return 7.5625 * (t - 1.5 / 2.75) * (t - 1.5 / 2.75) + 0.75;
	if (t < 2.5 / 2.75)
		return 7.5625 * (t - 2.25 / 2.75) * (t - 2.25 / 2.75) + 0.9375;
	return 7.5625 * (t - 2.625 / 2.75) * (t - 2.625 / 2.75) + 0.984375;
}

/* Spec 6.3, row by row; p = twEP (NULL when none). */
static double spec(int i, double t, const float *p)
{
	double u = 2 * t, o = 1.70158, per, s, x;

	switch (i) {
	case -1:
		return p ? pow(1 - t, 3) * p[1] + 3 * t * pow(1 - t, 2) * p[3] +
		           3 * t * t * (1 - t) * p[5] + pow(t, 3) * p[7] : t;
	case 0: return t;
	case 1: return 1 - cos(t * M_PI / 2);
	case 2: return sin(t * M_PI / 2);
	case 3: return -0.5 * (cos(M_PI * t) - 1);
	case 4: return t * t;
	case 5: return -t * (t - 2);
	case 6: return u < 1 ? 0.5 * u * u : -0.5 * ((u - 1) * (u - 3) - 1);
	case 7: return t * t * t;
	case 8: return (t - 1) * (t - 1) * (t - 1) + 1;
	case 9: return u < 1 ? 0.5 * u * u * u : 0.5 * (pow(u - 2, 3) + 2);
	case 10: return pow(t, 4);
	case 11: return -(pow(t - 1, 4) - 1);
	case 12: return u < 1 ? 0.5 * pow(u, 4) : -0.5 * (pow(u - 2, 4) - 2);
	case 13: return pow(t, 5);
	case 14: return pow(t - 1, 5) + 1;
	case 15: return u < 1 ? 0.5 * pow(u, 5) : 0.5 * (pow(u - 2, 5) + 2);
	case 16: return t == 0 ? 0 : pow(2, 10 * (t - 1)) - 0.001;
	case 17: return t == 1 ? 1 : 1 - pow(2, -10 * t);
	case 18: return u < 1 ? 0.5 * pow(2, 10 * (u - 1)) : 0.5 * (2 - pow(2, -10 * (u - 1)));
	case 19: return 1 - sqrt(1 - t * t);
	case 20: return sqrt(1 - (t - 1) * (t - 1));
	case 21: return u < 1 ? -0.5 * (sqrt(1 - u * u) - 1) : 0.5 * (sqrt(1 - (u - 2) * (u - 2)) + 1);
	case 22: case 23: case 24:
		per = p ? p[0] : 0.3;
		if (t == 0 || t == 1)
			return t;
		if (i == 22) {
			s = per / 4;
			x = t - 1;
			return -pow(2, 10 * x) * sin((x - s) * 2 * M_PI / per);
		}
		if (i == 23) {
			s = per / 4;
			return pow(2, -10 * t) * sin((t - s) * 2 * M_PI / per) + 1;
		}
		if (per == 0)
			per = 0.45;
		s = per / 4;
		x = 2 * t - 1;
		return x < 0 ? -0.5 * pow(2, 10 * x) * sin((x - s) * 2 * M_PI / per)
		             : 0.5 * pow(2, -10 * x) * sin((x - s) * 2 * M_PI / per) + 1;
	case 25: return t * t * ((o + 1) * t - o);
	case 26: x = t - 1; return x * x * ((o + 1) * x + o) + 1;
	case 27:
		o *= 1.525;
		if (u < 1)
			return u * u * ((o + 1) * u - o) / 2;
		x = u - 2;
		return x * x * ((o + 1) * x + o) / 2 + 1;
	case 28: return 1 - sbounce(1 - t);
	case 29: return sbounce(t);
	case 30: return t < 0.5 ? (1 - sbounce(1 - 2 * t)) / 2 : sbounce(2 * t - 1) / 2 + 0.5;
	case 10000: return t;
	default: return -0.5 * (cos(M_PI * t) - 1);   /* unknown: Sine in-out */
	}
}

START_TEST(easing_table)
{
	static const double ts[5] = { 0, 0.25, 0.5, 0.75, 1 };
	static const int extra[] = { 10000, 31, 99, -2 };
	static const float bez[8] = { 0, 0, 0.2f, 0.9f, 0.7f, -0.3f, 1, 1 };
	static const float period[1] = { 0.45f };
	int type, k, n = 0;

	for (type = -1; type < 31 + 4; type++) {
		int ty = type <= 30 ? type : extra[type - 31];

		for (k = 0; k < 5; k++) {
			double t = ts[k];

			ck_assert_msg(fabs(bb__cocos_tween(ty, t, NULL, 0) - spec(ty, t, NULL)) < EPS,
			              "type %d at %g: %.12g, spec %.12g", ty, t,
			              bb__cocos_tween(ty, t, NULL, 0), spec(ty, t, NULL));
			n++;
		}
	}
	ck_assert_int_eq(n, 36 * 5);
	for (k = 0; k < 5; k++) {
		double t = ts[k];

		ck_assert(fabs(bb__cocos_tween(-1, t, bez, 8) - spec(-1, t, bez)) < EPS);
		for (type = 22; type <= 24; type++)
			ck_assert(fabs(bb__cocos_tween(type, t, period, 1) -
			               spec(type, t, period)) < EPS);
	}
	/* the quirks, spelled out */
	ck_assert(fabs(bb__cocos_tween(16, 1, NULL, 0) - 0.999) < EPS);
	ck_assert(fabs(bb__cocos_tween(-1, 0.5, bez, 8) -
	               (0.125 * 0 + 0.375 * 0.9 + 0.375 * -0.3 + 0.125 * 1)) < 1e-7);
	ck_assert(fabs(bb__cocos_tween(3, 0.25, NULL, 0) - bb__cocos_tween(77, 0.25, NULL, 0)) < EPS);
}
END_TEST

/* ---- loading small documents ------------------------------------------------ */

static bb_model *load_str(const char *text, const char *name)
{
	bb_model *m = NULL;
	bb_error err;
	char path[256];

	snprintf(path, sizeof path, "/nonexistent/%s", name);
	if (bb_model_load_buffer(text, strlen(text), path, NULL, &m, &err) != BB_OK) {
		char buf[1024];

		bb_error_format(&err, buf, sizeof buf);
		ck_abort_msg("load failed: %s", buf);
	}
	return m;
}

/* World matrix of `bone` at time t of animation `anim` (-1: setup pose). */
static bb_affine world_at(bb_model *m, int arm, const char *bone, int anim,
                          double t)
{
	bb_pose *p;
	bb_error err;
	bb_track tr = { .anim = anim, .mask = -1 };
	bb_affine w;

	ck_assert_int_eq(bb_pose_new(m, arm, &p, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, &tr, anim >= 0, t, NULL, &err), BB_OK);
	w = bb_pose_bone_world(p, bb_model_find_bone(m, arm, bone));
	bb_pose_free(p);
	return w;
}

/* ---- component-wise parent combination (spec 4), y up ----------------------- */

struct node { double x, y, kx, ky, sx, sy; };

static void up_matrix(const struct node *n, double m[6])
{
	m[0] = n->sx * cos(n->ky);
	m[1] = n->sx * sin(n->ky);
	m[2] = n->sy * sin(n->kx);
	m[3] = n->sy * cos(n->kx);
	m[4] = n->x;
	m[5] = n->y;
}

static struct node combine(const struct node *parent, const struct node *l)
{
	double p[6];
	struct node w;

	up_matrix(parent, p);
	w.x = l->x * p[0] + l->y * p[2] + parent->x;
	w.y = l->x * p[1] + l->y * p[3] + parent->y;
	w.sx = l->sx * parent->sx;
	w.sy = l->sy * parent->sy;
	w.kx = l->kx + parent->kx;
	w.ky = l->ky + parent->ky;
	return w;
}

#define BONE(n, p, x, y, kx, ky, sx, sy) \
	"{\"name\":\"" n "\",\"parent\":\"" p "\",\"x\":" #x ",\"y\":" #y \
	",\"kX\":" #kx ",\"kY\":" #ky ",\"cX\":" #sx ",\"cY\":" #sy "}"

START_TEST(componentwise)
{
	static const char doc[] =
		"{\"armature_data\":[{\"name\":\"a\",\"version\":1.1,\"bone_data\":["
		BONE("c", "b", 5, -7, 0.2, 0.1, 1.5, 0.8) ","
		BONE("a", "", 10, 20, 0.3, -0.5, 2, 0.5) ","
		BONE("b", "a", 30, 4, -0.4, 0.9, 0.7, 1.3) "]}]}";
	const struct node na = { 10, 20, 0.3, -0.5, 2, 0.5 };
	const struct node nb = { 30, 4, -0.4, 0.9, 0.7, 1.3 };
	const struct node nc = { 5, -7, 0.2, 0.1, 1.5, 0.8 };
	struct node wb = combine(&na, &nb), wc = combine(&wb, &nc);
	const struct node *want[3] = { &na, &wb, &wc };
	static const char *const names[3] = { "a", "b", "c" };
	bb_model *m = load_str(doc, "cw.ExportJson");
	int i;

	for (i = 0; i < 3; i++) {
		double e[6];
		bb_affine w = world_at(m, 0, names[i], -1, 0);

		up_matrix(want[i], e);
		/* y down = F * M * F with F = diag(1, -1) */
		ck_assert_msg(fabs(w.a - e[0]) < EPS && fabs(w.b + e[1]) < EPS &&
		              fabs(w.c + e[2]) < EPS && fabs(w.d - e[3]) < EPS &&
		              fabs(w.tx - e[4]) < EPS && fabs(w.ty + e[5]) < EPS,
		              "bone %s: %g %g %g %g %g %g", names[i], w.a, w.b, w.c,
		              w.d, w.tx, w.ty);
	}
	bb_model_free(m);
}
END_TEST

/* Keys add to the bone data from 0.3 on; scale as setup + v - 1. */
START_TEST(additive_keys)
{
	static const char doc[] =
		"{\"armature_data\":[{\"name\":\"a\",\"version\":0.3,\"bone_data\":["
		BONE("r", "", 10, 0, 0, 0, 2, 1) "]}],"
		"\"animation_data\":[{\"name\":\"a\",\"mov_data\":[{\"name\":\"m\",\"dr\":2,"
		"\"mov_bone_data\":[{\"name\":\"r\",\"frame_data\":[{\"fi\":0,\"x\":5,"
		"\"cX\":1.5}]}]}]}]}";
	bb_model *m = load_str(doc, "add.ExportJson");
	bb_affine w = world_at(m, 0, "r", 0, 0);

	ck_assert(fabs(w.tx - 15) < EPS);
	ck_assert(fabs(w.a - 2.5) < EPS);       /* 2 + 1.5 - 1, not 3 */
	bb_model_free(m);
}
END_TEST

/* ---- timing ---------------------------------------------------------------- */

START_TEST(timing_helpers)
{
	ck_assert(fabs(bb__cc_duration(121, 0, 0.5) - 121 / 30.0) < EPS);
	ck_assert(fabs(bb__cc_duration(41, 80, 1) - 80 / 60.0) < EPS);   /* drTW */
	ck_assert(fabs(bb__cc_key_time(60, 121, 121 / 30.0) - 60 * (121 / 30.0) / 120) < EPS);
	ck_assert(bb__cc_key_time(5, 1, 1) == 0);
	ck_assert(fabs(bb__cc_delay_offset(0.25, 1) - 0.75) < EPS);
	ck_assert(fabs(bb__cc_delay_offset(-0.8, 1) - 0.8) < EPS);   /* XML: 0.2 - 1 */
	ck_assert(bb__cc_delay_offset(0.25, 0) == 0);
}
END_TEST

/* One bone "r" keyed on x; movement attributes and extra key fields. */
static bb_model *timed(const char *mov, const char *bone_extra, const char *keys)
{
	static char doc[4096];

	snprintf(doc, sizeof doc,
	         "{\"armature_data\":[{\"name\":\"a\",\"version\":1.1,\"bone_data\":["
	         BONE("r", "", 0, 0, 0, 0, 1, 1) "]}],"
	         "\"animation_data\":[{\"name\":\"a\",\"mov_data\":[{\"name\":\"m\",%s,"
	         "\"mov_bone_data\":[{\"name\":\"r\"%s,\"frame_data\":[%s]}]}]}]}",
	         mov, bone_extra, keys);
	return load_str(doc, "t.ExportJson");
}

static double x_at(bb_model *m, double t)
{
	return world_at(m, 0, "r", 0, t).tx;
}

START_TEST(timing_rules)
{
	const double d = 11 / 60.0;   /* dr 11, sc 1 */
	bb_model *m = timed("\"dr\":11,\"lp\":false", "",
	                    "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100},{\"fi\":11,\"x\":1000}");
	bb_anim_info ai;

	bb_model_anim_info(m, 0, 0, &ai);
	ck_assert(fabs(ai.duration - d) < EPS);
	ck_assert(fabs(x_at(m, d / 2) - 50) < 1e-6);        /* key time (dr-1) * pct */
	ck_assert(fabs(x_at(m, d * 0.999) - 99.9) < 1e-6);  /* fi == dr never reached */
	ck_assert(fabs(x_at(m, 2 * d) - 100) < 1e-6);       /* non-loop: holds */
	bb_model_free(m);

	m = timed("\"dr\":11,\"lp\":true", "", "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, d * 1.25) - 25) < 1e-6);     /* loop wraps */
	bb_model_free(m);

	m = timed("\"dr\":11,\"sc\":0.5,\"drTW\":22", "", "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100}");
	bb_model_anim_info(m, 0, 0, &ai);
	ck_assert(fabs(ai.duration - 22 / 30.0) < EPS);     /* drTW frames at 60 * sc */
	ck_assert(fabs(x_at(m, 11 / 30.0) - 50) < 1e-6);
	bb_model_free(m);

	m = timed("\"dr\":11,\"lp\":true", ",\"dl\":0.25", "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, 0) - 75) < 1e-6);            /* frac(pct + 1 - dl) */
	bb_model_free(m);
}
END_TEST

START_TEST(segments)
{
	const double d = 11 / 60.0;
	bb_model *m = timed("\"dr\":11,\"twE\":4", "",
	                    "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100}");

	ck_assert(fabs(x_at(m, d / 2) - 25) < 1e-6);        /* movement twE: Quad in */
	bb_model_free(m);
	m = timed("\"dr\":11,\"twE\":4", "",
	          "{\"fi\":0,\"x\":0,\"twE\":2},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, d / 2) - 100 * sin(M_PI / 4)) < 1e-6);   /* key's twE */
	bb_model_free(m);
	m = timed("\"dr\":11", "", "{\"fi\":0,\"x\":0,\"tweenFrame\":false},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, d / 2)) < 1e-9);             /* tweenFrame false: hold */
	bb_model_free(m);
	m = timed("\"dr\":11", "", "{\"fi\":0,\"x\":0,\"dI\":-1},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, d / 2) - 100) < 1e-9);       /* from hidden: jump */
	bb_model_free(m);
	m = timed("\"dr\":11", "", "{\"fi\":0,\"x\":0},{\"fi\":10,\"x\":100,\"dI\":-1}");
	ck_assert(fabs(x_at(m, d / 2)) < 1e-9);             /* to hidden: hold */
	bb_model_free(m);
	m = timed("\"dr\":11", "", "{\"fi\":0,\"x\":0,\"twE\":10000},{\"fi\":10,\"x\":100}");
	ck_assert(fabs(x_at(m, d / 2)) < 1e-9);             /* 10000: no tween */
	bb_model_free(m);
}
END_TEST

/* XML: keys in armature space (y down, degrees) into the parent's; bone
 * sc; tweenRotate; twE 2 = Sine in-out. */
START_TEST(xml_keys)
{
	static const char doc[] =
		"<skeleton version=\"2.0\"><armatures><armature name=\"a\">"
		"<b name=\"p\"/><b name=\"c\" parent=\"p\"/></armature></armatures>"
		"<animations><animation name=\"a\"><mov name=\"m\" dr=\"11\" lp=\"0\">"
		"<b name=\"p\"><f cocos2d_x=\"10\" cocos2d_y=\"20\" kX=\"90\" kY=\"90\" dr=\"10\"/>"
		"<f cocos2d_x=\"10\" cocos2d_y=\"20\" kX=\"90\" kY=\"90\" dr=\"1\"/></b>"
		"<b name=\"c\" sc=\"0.5\"><f cocos2d_x=\"10\" cocos2d_y=\"30\" kX=\"0\" kY=\"0\" "
		"dr=\"10\" twE=\"2\"/><f cocos2d_x=\"10\" cocos2d_y=\"30\" kX=\"0\" kY=\"0\" "
		"twR=\"1\" dr=\"1\"/></b></mov></animation></animations></skeleton>";
	bb_model *m = load_str(doc, "k.xml");
	const double d = 11 / 60.0;
	bb_affine w = world_at(m, 0, "c", 0, 0);

	/* the child's world is where the file put it */
	ck_assert(fabs(w.tx - 10) < 1e-6 && fabs(w.ty - 30) < 1e-6);
	ck_assert(fabs(w.a - 1) < 1e-6 && fabs(w.b) < 1e-6);
	/* sc 0.5: the bone runs twice as fast; one full turn eased Sine in-out,
	 * a quarter of the way at 1/8 of the movement */
	w = world_at(m, 0, "c", 0, d / 8);
	{
		double ang = 2 * M_PI * (-0.5 * (cos(M_PI * 0.25) - 1));

		ck_assert_msg(fabs(atan2(w.b, w.a) - atan2(sin(ang), cos(ang))) < 1e-6,
		              "angle %g, want %g", atan2(w.b, w.a), ang);
	}
	bb_model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cocos");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, easing_table);
	tcase_add_test(tc, componentwise);
	tcase_add_test(tc, additive_keys);
	tcase_add_test(tc, timing_helpers);
	tcase_add_test(tc, timing_rules);
	tcase_add_test(tc, segments);
	tcase_add_test(tc, xml_keys);
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
