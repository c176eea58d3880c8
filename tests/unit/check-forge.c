/* Forge armatures and the solid evaluator: sample spacing and
 * interpolation (looping and not, nearest, the shorter arc), the joint
 * transform order about its origin, joint weighting (identity joints left
 * out), projection and culling, and bad element indices.  Expected values
 * are worked out by hand from ../shared/spec/forge.md sections 3 and 5. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/bonebake.h"
#include "eval/solid.h"

#define EPS 1e-9
#define SAMPLE TOP_SRCDIR "/samples/forge/assets/bbsample/armatures/block/lidbox.json"

/* ---- a timeline by hand -------------------------------------------------- */

static bb_interp interp[16];
static double times[16], values[16];

static double sample(int loop, int jvar, bb_interp_kind kind, const double *v,
                     int n, double t)
{
	bb_anim an = { 0 };
	bb_timeline tl = { 0 };
	int i;

	an.duration = 1;
	an.loop = loop;
	tl.target = BB_TL_JOINT;
	tl.jvar = jvar;
	tl.stride = 1;
	tl.nkeys = n;
	tl.times = times;
	tl.values = values;
	tl.interp = interp;
	for (i = 0; i < n; i++) {
		values[i] = v[i];
		times[i] = i;   /* not used by the sampler: spacing is i/n or i/(n-1) */
		interp[i].kind = kind;
	}
	return bb__solid_sample(&an, &tl, t);
}

START_TEST(looping_samples_at_i_over_n)
{
	static const double v[3] = { 0, 10, 20 };

	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 0), 0, EPS);
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 1.0 / 3), 10, EPS);
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 0.5), 15, EPS);
	/* the last sample blends back to the first */
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 5.0 / 6), 10, EPS);
	/* clip time is wrapped: 1 is 0, -0.25 is 0.75, 2.5 is 0.5 */
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 1), 0, EPS);
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, -0.25), 15, EPS);
	ck_assert_double_eq_tol(sample(1, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 2.5), 15, EPS);
}
END_TEST

START_TEST(non_looping_samples_at_i_over_n_minus_1)
{
	static const double v[3] = { 0, 10, 20 };

	ck_assert_double_eq_tol(sample(0, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 0.5), 10, EPS);
	ck_assert_double_eq_tol(sample(0, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 0.75), 15, EPS);
	ck_assert_double_eq_tol(sample(0, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 0.999), 19.98, 1e-9);
	/* always wrapped, even when not looping: 1.0 evaluates like 0.0 */
	ck_assert_double_eq_tol(sample(0, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 1), 0, EPS);
	ck_assert_double_eq_tol(sample(0, BB_JV_OFFSET_X, BB_INTERP_LINEAR, v, 3, 1.25), 5, EPS);
}
END_TEST

START_TEST(nearest_switches_at_the_midpoint)
{
	static const double v[3] = { 0, 10, 20 }, two[2] = { 1, 2 };

	/* looping, 3 samples at 0, 1/3, 2/3 */
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, v, 3, 0.1), 0);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, v, 3, 0.2), 10);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, v, 3, 0.8), 20);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, v, 3, 0.9), 0);
	/* not looping, 2 samples at 0 and 1: p = 0.5 takes the second */
	ck_assert_double_eq(sample(0, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.49), 1);
	ck_assert_double_eq(sample(0, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.5), 2);
	ck_assert_double_eq(sample(0, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.99), 2);
	/* looping, 2 samples at 0 and 1/2: the second holds on [1/4, 3/4) */
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.24), 1);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.25), 2);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.74), 2);
	ck_assert_double_eq(sample(1, BB_JV_SCALE, BB_INTERP_NEAREST, two, 2, 0.75), 1);
}
END_TEST

START_TEST(angle_takes_the_shorter_arc)
{
	static const double a[2] = { 350, 10 }, b[2] = { 0, 270 }, c[4] = { 0, 90, 180, 270 };
	static const double one[1] = { 7 };

	/* 350 -> 10 through 360, not back through 180 */
	ck_assert_double_eq_tol(sample(1, BB_JV_ANGLE, BB_INTERP_LINEAR, a, 2, 0.25), 360, EPS);
	ck_assert_double_eq_tol(sample(1, BB_JV_ANGLE, BB_INTERP_LINEAR, a, 2, 0.75), 0, EPS);
	/* 0 -> 270 is -90 the short way */
	ck_assert_double_eq_tol(sample(0, BB_JV_ANGLE, BB_INTERP_LINEAR, b, 2, 0.5), -45, EPS);
	/* a looping 0, 90, 180, 270 keeps turning: 270 -> 0 is +90 */
	ck_assert_double_eq_tol(sample(1, BB_JV_ANGLE, BB_INTERP_LINEAR, c, 4, 0.875), 315, EPS);
	/* other variables interpolate straight */
	ck_assert_double_eq_tol(sample(0, BB_JV_AXIS_X, BB_INTERP_LINEAR, b, 2, 0.5), 135, EPS);
	/* one sample: a constant, looping or not */
	ck_assert_double_eq(sample(1, BB_JV_ANGLE, BB_INTERP_LINEAR, one, 1, 0.3), 7);
	ck_assert_double_eq(sample(0, BB_JV_ANGLE, BB_INTERP_LINEAR, one, 1, 0.3), 7);
}
END_TEST

/* ---- joint transforms ---------------------------------------------------- */

static void defaults(double *jv)
{
	memset(jv, 0, BB_JV_COUNT * sizeof *jv);
	jv[BB_JV_SCALE_X] = jv[BB_JV_SCALE_Y] = jv[BB_JV_SCALE_Z] = 1;
	jv[BB_JV_ORIGIN_X] = jv[BB_JV_ORIGIN_Y] = jv[BB_JV_ORIGIN_Z] = 8;
}

static void apply(const double *m, double x, double y, double z, double *out)
{
	int r;

	for (r = 0; r < 3; r++)
		out[r] = m[4 * r] * x + m[4 * r + 1] * y + m[4 * r + 2] * z + m[4 * r + 3];
}

START_TEST(translate_rotate_scale_about_origin)
{
	double jv[BB_JV_COUNT], m[12], p[3];

	defaults(jv);
	jv[BB_JV_OFFSET_X] = 16;           /* one block east */
	jv[BB_JV_AXIS_Z] = 2;              /* not normalised */
	jv[BB_JV_ANGLE] = 90;
	jv[BB_JV_SCALE_X] = jv[BB_JV_SCALE_Y] = jv[BB_JV_SCALE_Z] = 2;
	jv[BB_JV_ORIGIN_X] = 4;            /* origin_x 0.25 block */
	bb__solid_joint_matrix(jv, m);
	/* J(p) = O + t + R S (p - O): p - O = (1,0,0), scaled (2,0,0),
	 * turned 90 degrees about +z (right hand: x -> y) (0,2,0) */
	apply(m, 5, 8, 8, p);
	ck_assert_double_eq_tol(p[0], 4 + 16, EPS);
	ck_assert_double_eq_tol(p[1], 8 + 2, EPS);
	ck_assert_double_eq_tol(p[2], 8, EPS);
	/* the origin itself only translates */
	apply(m, 4, 8, 8, p);
	ck_assert_double_eq_tol(p[0], 20, EPS);
	ck_assert_double_eq_tol(p[1], 8, EPS);
	/* default origin: the block centre, not the corner */
	defaults(jv);
	jv[BB_JV_AXIS_Y] = 1;
	jv[BB_JV_ANGLE] = 180;
	bb__solid_joint_matrix(jv, m);
	apply(m, 0, 0, 0, p);
	ck_assert_double_eq_tol(p[0], 16, EPS);
	ck_assert_double_eq_tol(p[2], 16, EPS);
	/* an all-zero axis: no rotation at all, the matrix is the identity */
	defaults(jv);
	jv[BB_JV_ANGLE] = 45;
	bb__solid_joint_matrix(jv, m);
	ck_assert_double_eq(m[0], 1);
	ck_assert_double_eq(m[1], 0);
	ck_assert_double_eq(m[3], 0);
}
END_TEST

START_TEST(weighted_average_without_identity_joints)
{
	bb_solid_elem elems[2];
	bb_solid_joint joints[3];
	bb_solid_weight w[4] = { { 0, 0, 1 }, { 1, 0, 3 }, { 2, 0, 5 }, { 2, 1, 1 } };
	bb_solid s = { 2, 3, 4, elems, joints, w, { 8, 8, 8 } };
	double jv[3 * BB_JV_COUNT], jm[3][12], em[2][12], ew[2];
	unsigned char id[3];

	memset(elems, 0, sizeof elems);
	memset(joints, 0, sizeof joints);
	defaults(jv);
	defaults(jv + BB_JV_COUNT);
	defaults(jv + 2 * BB_JV_COUNT);
	jv[BB_JV_OFFSET_X] = 16;                      /* joint 0: east, weight 1 */
	jv[BB_JV_COUNT + BB_JV_OFFSET_Y] = 16;        /* joint 1: up, weight 3 */
	/* joint 2 (weight 5) stays at identity: left out, it does not dilute */
	bb__solid_element_matrices(&s, jv, jm, id, em, ew);
	ck_assert_int_eq(id[0], 0);
	ck_assert_int_eq(id[2], 1);
	ck_assert_double_eq_tol(ew[0], 4, EPS);
	ck_assert_double_eq_tol(em[0][3], 16.0 / 4, EPS);
	ck_assert_double_eq_tol(em[0][7], 48.0 / 4, EPS);
	ck_assert_double_eq_tol(em[0][0], 1, EPS);
	/* element 1 only has the identity joint: no animation transform */
	ck_assert_double_eq(ew[1], 0);
	ck_assert_double_eq(em[1][0], 1);
	ck_assert_double_eq(em[1][3], 0);
	/* rotations are averaged as matrices (no slerp): +90 and -90 about z
	 * give a matrix that squashes x and y to 0 */
	defaults(jv);
	defaults(jv + BB_JV_COUNT);
	jv[BB_JV_AXIS_Z] = 1;
	jv[BB_JV_ANGLE] = 90;
	jv[BB_JV_COUNT + BB_JV_AXIS_Z] = 1;
	jv[BB_JV_COUNT + BB_JV_ANGLE] = -90;
	w[1].weight = 1;
	bb__solid_element_matrices(&s, jv, jm, id, em, ew);
	ck_assert_double_eq_tol(em[0][0], 0, EPS);
	ck_assert_double_eq_tol(em[0][1], 0, EPS);
	ck_assert_double_eq_tol(em[0][10], 1, EPS);
}
END_TEST

START_TEST(face_uvs_rotate_and_nudge)
{
	bb_solid_face f = { 1, 0, { 0, 0, 0, 0 }, { 0, 0, 16, 8 }, 0 };
	bb_vec2 uv[4];

	bb__solid_face_uvs(&f, uv);
	/* v0 (u1, v1), v1 (u1, v2), v2 (u2, v2), v3 (u2, v1), 0.1% inwards */
	ck_assert_double_eq_tol(uv[0].x, 0.016, EPS);
	ck_assert_double_eq_tol(uv[0].y, 0.008, EPS);
	ck_assert_double_eq_tol(uv[1].y, 8 * 0.999, EPS);
	ck_assert_double_eq_tol(uv[2].x, 16 * 0.999, EPS);
	f.rotation = 90;   /* vertex 0 takes the coordinates of corner 1 */
	bb__solid_face_uvs(&f, uv);
	ck_assert_double_eq_tol(uv[0].x, 0.016, EPS);
	ck_assert_double_eq_tol(uv[0].y, 8 * 0.999, EPS);
	ck_assert_double_eq_tol(uv[3].x, 0.016, EPS);
	ck_assert_double_eq_tol(uv[3].y, 0.008, EPS);
}
END_TEST

/* ---- files ----------------------------------------------------------------- */

static char dir[256];

static void write_file(const char *rel, const char *text)
{
	char path[512], sub[512], *slash;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	snprintf(sub, sizeof sub, "%s", path);
	for (slash = strchr(sub + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(sub, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/check-forge.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

#define CUBE(x) "{ \"from\": [" x ", 0, 0], \"to\": [16, 16, 16], \"faces\": { " \
	"\"north\": { \"texture\": \"#a\" }, \"up\": { \"texture\": \"#a\" }, " \
	"\"west\": { \"texture\": \"#a\" }, \"south\": { \"texture\": \"#a\" } } }"

static bb_status load(const char *armature, bb_model **m, bb_error *err)
{
	char path[512];

	write_file("assets/t/models/block/x.json",
	           "{ \"elements\": [ " CUBE("0") ", " CUBE("4") ", " CUBE("8") " ] }");
	write_file("assets/t/armatures/block/x.json", armature);
	snprintf(path, sizeof path, "%s/assets/t/armatures/block/x.json", dir);
	return bb_model_load(path, NULL, m, err);
}

START_TEST(element_index_past_the_end)
{
	bb_model *m = NULL;
	bb_error err;

	make_dir();
	/* an index beyond the model is never looked up by Forge: one warning,
	 * the weight dropped (element 0 keeps its joint) */
	ck_assert_int_eq(load("{ \"joints\": { \"lid\": { \"0\": [1], \"7\": [1] } }, "
	                      "\"clips\": {} }", &m, &err), BB_OK);
	{
		int i, found = 0;

		for (i = 0; i < bb_model_warning_count(m); i++)
			found += strcmp(bb_model_warning(m, i), "x.json: joints.lid[\"7\"]: "
			                "element 7 out of range (3 elements); ignored, as "
			                "Forge does") == 0;
		ck_assert_int_eq(found, 1);
	}
	ck_assert_int_eq(m->armatures[0].solid->nweights, 1);
	ck_assert_int_eq(m->armatures[0].solid->weights[0].elem, 0);
	bb_model_free(m);
	ck_assert_int_eq(load("{ \"joints\": { \"lid\": { \"-1\": [1] } }, "
	                      "\"clips\": {} }", &m, &err), BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "joints.lid[\"-1\"]");
	ck_assert_int_eq(load("{ \"joints\": { \"lid\": { \"99999999999999999999\": [1] } }, "
	                      "\"clips\": {} }", &m, &err), BB_ERR_INPUT);
	ck_assert_int_eq(load("{ \"joints\": { \"lid\": { \"2\": [1] } }, "
	                      "\"clips\": {} }", &m, &err), BB_OK);
	bb_model_free(m);
	remove_dir();
}
END_TEST

/* Quads of one frame of x.json at t, seen from `view`. */
static const bb_drawlist *frame(bb_model *m, bb_pose **pose, bb_view3d_kind view,
                                double t)
{
	bb_eval_options o = { 0 };
	bb_track tr = { 0, 0, -1, 0, 0, 0 };
	bb_error err;

	o.view3d.kind = view;
	o.view3d.pixels_per_unit = 1;
	if (!*pose)
		ck_assert_int_eq(bb_pose_new(m, 0, pose, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(*pose, &tr, 1, t, &o, &err), BB_OK);
	return bb_pose_drawlist(*pose);
}

START_TEST(projection_culling_and_order)
{
	bb_model *m = NULL;
	bb_pose *pose = NULL;
	const bb_drawlist *dl;
	bb_error err;
	int i;

	make_dir();
	/* element 2 moves one block up over the clip: offsets are block units */
	ck_assert_int_eq(load("{ \"joints\": { \"j\": { \"2\": [1] } }, \"clips\": { "
	                      "\"c\": { \"loop\": true, \"joint_clips\": { \"j\": [ "
	                      "{ \"variable\": \"offset_y\", \"type\": \"uniform\", "
	                      "\"interpolation\": \"linear\", \"samples\": [0, 2] } ] }, "
	                      "\"events\": { \"0.25\": \"e\" } } } }", &m, &err), BB_OK);
	ck_assert_int_eq(bb_model_event_count(m, 0, 0), 1);
	/* front: only the north faces, centred on the block centre, y down */
	dl = frame(m, &pose, BB_VIEW3D_FRONT, 0);
	ck_assert_int_eq(dl->count, 3);
	for (i = 0; i < 3; i++)
		ck_assert_ptr_null(dl->items[i].texture);   /* #a is undefined */
	/* the three north faces lie at the same depth: model order (stable).
	 * v0 = (x2, y2, z1), the top east corner; seen from the north east is
	 * on the left: x = -(16 - 8); up is -y */
	for (i = 0; i < 3; i++) {
		ck_assert_double_eq_tol(dl->items[i].verts[0].x, -8, EPS);
		ck_assert_double_eq_tol(dl->items[i].verts[0].y, -8, EPS);
	}
	ck_assert_double_eq_tol(dl->items[0].verts[2].x, 8, EPS);    /* x1 = 0 */
	ck_assert_double_eq_tol(dl->items[2].verts[2].x, 0, EPS);    /* x1 = 8 */
	/* half way through the cycle element 2 is 2 blocks up */
	dl = frame(m, &pose, BB_VIEW3D_FRONT, 0.5);
	ck_assert_double_eq_tol(dl->items[2].verts[0].y, -8 - 32, EPS);
	/* top: the up faces only; north is up (smaller y) */
	dl = frame(m, &pose, BB_VIEW3D_TOP, 0);
	ck_assert_int_eq(dl->count, 3);
	/* iso: north, up and west of every cube (3 x 3), sorted far to near;
	 * light: up 1, north 0.8, west 0.6 */
	dl = frame(m, &pose, BB_VIEW3D_ISO, 0);
	ck_assert_int_eq(dl->count, 9);
	for (i = 0; i < dl->count; i++) {
		double l = dl->items[i].color.mul.r;

		ck_assert(fabs(l - 1) < EPS || fabs(l - 0.8) < EPS || fabs(l - 0.6) < EPS);
	}
	bb_pose_free(pose);
	bb_model_free(m);
	remove_dir();
}
END_TEST

START_TEST(sample_loads_and_moves)
{
	bb_model *m = NULL;
	bb_pose *pose = NULL;
	bb_error err;
	bb_anim_info ai;
	int open;

	ck_assert_int_eq(bb_model_load(SAMPLE, NULL, &m, &err), BB_OK);
	ck_assert_str_eq(bb_model_format(m), "forge");
	ck_assert_int_eq(bb_model_warning_count(m), 0);
	open = bb_model_find_anim(m, 0, "open");
	ck_assert_int_ge(open, 0);
	bb_model_anim_info(m, 0, open, &ai);
	ck_assert_int_eq(ai.loop, 0);
	ck_assert_double_eq(ai.duration, 1);
	ck_assert_ptr_nonnull(frame(m, &pose, BB_VIEW3D_ISO, 0.5));
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("forge");
	TCase *tc = tcase_create("sampling");
	TCase *tr = tcase_create("transforms");
	TCase *fl = tcase_create("files");

	tcase_add_test(tc, looping_samples_at_i_over_n);
	tcase_add_test(tc, non_looping_samples_at_i_over_n_minus_1);
	tcase_add_test(tc, nearest_switches_at_the_midpoint);
	tcase_add_test(tc, angle_takes_the_shorter_arc);
	suite_add_tcase(s, tc);
	tcase_add_test(tr, translate_rotate_scale_about_origin);
	tcase_add_test(tr, weighted_average_without_identity_joints);
	tcase_add_test(tr, face_uvs_rotate_and_nudge);
	suite_add_tcase(s, tr);
	tcase_add_test(fl, element_index_past_the_end);
	tcase_add_test(fl, projection_culling_and_order);
	tcase_add_test(fl, sample_loads_and_moves);
	suite_add_tcase(s, fl);
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
