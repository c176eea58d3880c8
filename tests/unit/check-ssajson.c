/* SSAJSON through the evaluator: the four corners of single part records
 * (rotation, scale, pivot, each flip, deformation) against the drawing
 * formula of ../shared/spec/ssajson.md sections 4 and 5, timing, defaults
 * of shortened records, blend modes, vertex colours, the stage, and each
 * class of bad input (file + field error, no model). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

#define EPS 1e-6

static char dir[256];
static char path[300];

/* A folder holding a 64x64 texture "tex.png" (and "b.png"). */
static void make_dir(void)
{
	char p[300];
	bb_image *img;
	bb_error err;

	snprintf(dir, sizeof dir, "%s/tests/unit/ssajson.XXXXXX", TOP_BUILDDIR);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(bb_image_new(64, 64, &img, &err), BB_OK);
	memset(img->px, 200, img->stride * 64);
	snprintf(p, sizeof p, "%s/tex.png", dir);
	ck_assert_int_eq(bb_png_write(p, img, &err), BB_OK);
	snprintf(p, sizeof p, "%s/b.png", dir);
	ck_assert_int_eq(bb_png_write(p, img, &err), BB_OK);
	bb_image_free(img);
	snprintf(path, sizeof path, "%s/anim.json", dir);
}

static void remove_dir(void)
{
	char p[300];

	snprintf(p, sizeof p, "%s/tex.png", dir);
	remove(p);
	snprintf(p, sizeof p, "%s/b.png", dir);
	remove(p);
	rmdir(dir);
}

static bb_status load(const char *doc, const bb_load_options *o, bb_model **m,
                      bb_error *err)
{
	*m = NULL;
	return bb_model_load_buffer(doc, strlen(doc), path, o, m, err);
}

/* `[{images: [tex.png, b.png], name, animation: {fps, parts, ssa: FRAMES}}]` */
static void doc_frames(char *buf, size_t size, const char *frames)
{
	snprintf(buf, size, "[{\"images\":[\"tex.png\",\"b.png\"],\"name\":\"a\","
	         "\"animation\":{\"fps\":30,\"parts\":[\"root\",\"p\",\"q\"],"
	         "\"ssa\":%s}}]", frames);
}

static const bb_drawlist *eval_at(bb_model *m, bb_pose **pose, int anim, double t)
{
	bb_track tr = { .anim = anim, .mask = -1 };
	bb_error err;

	if (!*pose)
		ck_assert_int_eq(bb_pose_new(m, 0, pose, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(*pose, &tr, 1, t, NULL, &err), BB_OK);
	return bb_pose_drawlist(*pose);
}

struct rec {
	double sx, sy, sw, sh, px, py, angle, scx, scy, ox, oy;
	int fh, fv;
	double def[8];          /* TL TR BL BR, as in the file */
};

/* Spec section 4: where image pixel (u, v) of the source rectangle lands,
 * plus the deformation offset (section 5) of geometric corner d. */
static void spec_world(const struct rec *r, double u, double v, const double *d,
                       double *wx, double *wy)
{
	double qx = u - r->sw / 2, qy = v - r->sh / 2;
	double qpx = (r->fh ? -1 : 1) * qx + r->sw / 2 - r->ox;
	double qpy = (r->fv ? -1 : 1) * qy + r->sh / 2 - r->oy;
	double lx = r->scx * (qpx + d[0]), ly = r->scy * (qpy + d[1]);
	double c = cos(r->angle), s = sin(r->angle);

	*wx = r->px + c * lx + s * ly;
	*wy = r->py - s * lx + c * ly;
}

/* Loads one record, checks the draw list's quad corner by corner: its
 * texture coordinate gives the image pixel, the formula its position. */
static void check_record(const struct rec *r)
{
	static const int gx[4] = { 0, 1, 1, 0 }, gy[4] = { 0, 0, 1, 1 };
	char frames[1024], doc[2048];
	const bb_drawlist *dl;
	bb_model *m;
	bb_pose *pose = NULL;
	bb_error err;
	int k;

	snprintf(frames, sizeof frames, "[[[1,0,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,"
	         "%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d,1,0,%g,%g,%g,%g,%g,%g,%g,%g]]]",
	         r->sx, r->sy, r->sw, r->sh, r->px, r->py, r->angle, r->scx, r->scy,
	         r->ox, r->oy, r->fh, r->fv, r->def[0], r->def[1], r->def[2],
	         r->def[3], r->def[4], r->def[5], r->def[6], r->def[7]);
	doc_frames(doc, sizeof doc, frames);
	ck_assert_msg(load(doc, NULL, &m, &err) == BB_OK, "%s", err.message);
	dl = eval_at(m, &pose, 0, 0);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_int_eq(dl->items[0].kind, BB_DRAW_QUAD);
	ck_assert_int_eq(dl->items[0].nverts, 4);
	for (k = 0; k < 4; k++) {
		const bb_vec2 *v = &dl->items[0].verts[k], *uv = &dl->items[0].uvs[k];
		double u = uv->x - r->sx, w = uv->y - r->sy, ex, ey;
		/* the geometric corner (unflipped quad) this pixel lands on */
		int cx = (int)lround(((r->fh ? r->sw - u : u)) / r->sw);
		int cy = (int)lround(((r->fv ? r->sh - w : w)) / r->sh);
		const double *d = r->def + 2 * (cy * 2 + cx);   /* TL TR BL BR */

		/* the quad's corners are TL TR BR BL of the (unflipped) geometry */
		ck_assert_int_eq(cx, gx[k]);
		ck_assert_int_eq(cy, gy[k]);
		ck_assert(fabs(u) < EPS || fabs(u - r->sw) < EPS);
		ck_assert(fabs(w) < EPS || fabs(w - r->sh) < EPS);
		spec_world(r, u, w, d, &ex, &ey);
		ck_assert_msg(fabs(v->x - ex) < EPS && fabs(v->y - ey) < EPS,
		              "corner %d: (%.9g, %.9g), spec (%.9g, %.9g)", k, v->x,
		              v->y, ex, ey);
	}
	bb_pose_free(pose);
	bb_model_free(m);
}

START_TEST(corners_plain)
{
	struct rec r = { 4, 8, 20, 12, 10, -5, 0, 1, 1, 0, 0, 0, 0, { 0 } };

	check_record(&r);
}
END_TEST

START_TEST(corners_outside_image)
{
	/* a source rectangle partly left of / below the image still loads */
	struct rec r = { -6, 60, 20, 12, 10, -5, 0.2, 1, 1, 3, 2, 1, 0, { 0 } };

	check_record(&r);
}
END_TEST

START_TEST(corners_rotation)
{
	struct rec r = { 4, 8, 20, 12, 10, -5, 0.6, 1, 1, 0, 0, 0, 0, { 0 } };

	check_record(&r);
	r.angle = -2.5;
	check_record(&r);
}
END_TEST

START_TEST(corners_scale_pivot)
{
	struct rec r = { 4, 8, 20, 12, 10, -5, 0.35, 1.5, -0.75, 7, 9, 0, 0, { 0 } };

	check_record(&r);
	r.ox = 30;              /* a pivot outside the cell */
	r.oy = -4;
	check_record(&r);
}
END_TEST

START_TEST(corners_flips)
{
	struct rec r = { 4, 8, 20, 12, 10, -5, 0.35, 1.25, 0.8, 5, 3, 1, 0, { 0 } };

	check_record(&r);       /* flip H */
	r.fh = 0;
	r.fv = 1;
	check_record(&r);       /* flip V */
	r.fh = 1;
	check_record(&r);       /* both */
}
END_TEST

START_TEST(corners_deformation)
{
	struct rec r = { 4, 8, 20, 12, 10, -5, 0.35, 1.25, 0.8, 5, 3, 0, 0,
	                 { -3, -2, 4, -1, -2, 5, 6, 3 } };

	check_record(&r);
	r.fh = 1;               /* offsets stay on the geometric corners */
	check_record(&r);
	r.fv = 1;
	r.angle = -1.1;
	check_record(&r);
}
END_TEST

START_TEST(timing_and_shortened_records)
{
	/* three frames at 12 fps; the slot is absent in frame 1; records of
	 * 11 and 17 fields */
	const char *frames = "[[[1,0,0,0,8,8,1,2,0,1,1]],[],"
	                     "[[2,1,0,0,8,8,3,4,0,1,1,0,0,0,0,0.5,2]]]";
	char doc[1024];
	const bb_drawlist *dl;
	bb_anim_info ai;
	bb_model *m;
	bb_pose *pose = NULL;
	bb_error err;

	snprintf(doc, sizeof doc, "[{\"images\":[\"tex.png\",\"b.png\"],\"name\":\"a\","
	         "\"animation\":{\"fps\":12,\"parts\":[\"root\",\"p\",\"q\"],\"ssa\":%s}},"
	         "{\"images\":[\"tex.png\"],\"name\":\"b\",\"animation\":{\"fps\":30,"
	         "\"parts\":[\"p\"],\"ssa\":[[[0,0,0,0,1,1,0,0,0,1,1]]]}}]", frames);
	ck_assert_msg(load(doc, NULL, &m, &err) == BB_OK, "%s", err.message);
	ck_assert_str_eq(bb_model_format(m), "ssajson");
	ck_assert_int_eq(bb_model_armature_count(m), 1);
	ck_assert_int_eq(bb_model_anim_count(m, 0), 2);
	bb_model_anim_info(m, 0, 0, &ai);
	ck_assert_str_eq(ai.name, "a");
	ck_assert_double_eq_tol(ai.fps, 12, EPS);
	ck_assert_double_eq_tol(ai.duration, 0.25, EPS);
	ck_assert_int_eq(ai.loop, 1);
	ck_assert_int_eq(bb_frame_count(ai.duration, ai.fps, ai.loop), 3);
	ck_assert_int_eq(ai.has_stage, 0);
	bb_model_anim_info(m, 0, 1, &ai);
	ck_assert_double_eq_tol(ai.fps, 30, EPS);
	{
		bb_armature_info arm;

		bb_model_armature_info(m, 0, &arm);
		ck_assert_str_eq(arm.name, "anim");   /* the file's base name */
	}
	dl = eval_at(m, &pose, 0, 0);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_double_eq_tol(dl->items[0].verts[0].x, 1, EPS);
	ck_assert(dl->items[0].color.mul.a == 1 && dl->items[0].blend == BB_BLEND_NORMAL);
	ck_assert_ptr_null(dl->items[0].vcolors);
	dl = eval_at(m, &pose, 0, 1 / 12.0);      /* stepped: frame 1 is empty */
	ck_assert_int_eq(dl->count, 0);
	dl = eval_at(m, &pose, 0, 2 / 12.0 + 0.01);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_double_eq_tol(dl->items[0].verts[0].x, 3, EPS);
	ck_assert_double_eq_tol(dl->items[0].color.mul.a, 0.5, EPS);
	ck_assert_int_eq(dl->items[0].blend, BB_BLEND_ADD);
	ck_assert_int_eq(dl->items[0].texture->width, 64);    /* b.png */
	ck_assert_ptr_ne(dl->items[0].texture, eval_at(m, &pose, 0, 0)->items[0].texture);
	dl = eval_at(m, &pose, 0, 0.25 + 1 / 12.0);   /* loops */
	ck_assert_int_eq(dl->count, 0);
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

START_TEST(blends_and_empty_cells)
{
	const char *frames = "[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,1],"
	                     "[1,0,0,0,0,8,0,0,0,1,1],"
	                     "[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,3]]]";
	char doc[1024];
	const bb_drawlist *dl;
	bb_model *m;
	bb_pose *pose = NULL;
	bb_error err;

	doc_frames(doc, sizeof doc, frames);
	ck_assert_msg(load(doc, NULL, &m, &err) == BB_OK, "%s", err.message);
	dl = eval_at(m, &pose, 0, 0);
	ck_assert_int_eq(dl->count, 2);           /* the 0-wide cell draws nothing */
	ck_assert_int_eq(dl->items[0].blend, BB_BLEND_MULTIPLY);
	ck_assert_int_eq(dl->items[0].slot, 0);
	ck_assert_int_eq(dl->items[1].blend, BB_BLEND_SUBTRACT);
	ck_assert_int_eq(dl->items[1].slot, 2);
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

START_TEST(vertex_colors)
{
	/* 1.0.4: label, colour blend 2 (add), colours ARGB TL TR BL BR, then
	 * 8 vertex positions; 0x80ff0000 is red at rate 128/255; -1 is
	 * 0xffffffff */
	const char *frames = "[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0,"
	                     "3,2,2164195328,4278255360,4278190335,-1,"
	                     "0,0,8,0,0,8,8,8]]]";
	char doc[1024];
	const bb_drawlist *dl;
	const bb_rgba *c;
	bb_model *m;
	bb_pose *pose = NULL;
	bb_error err;

	doc_frames(doc, sizeof doc, frames);
	ck_assert_msg(load(doc, NULL, &m, &err) == BB_OK, "%s", err.message);
	dl = eval_at(m, &pose, 0, 0);
	ck_assert_int_eq(dl->count, 1);
	c = dl->items[0].vcolors;
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(dl->items[0].vcolor_blend, BB_VCOLOR_ADD);
	/* TL red at 128/255, TR green, BR white, BL blue */
	ck_assert(c[0].r == 1 && c[0].g == 0 && c[0].b == 0);
	ck_assert_double_eq_tol(c[0].a, 128 / 255.0, EPS);
	ck_assert(c[1].g == 1 && c[1].r == 0 && c[1].a == 1);
	ck_assert(c[2].r == 1 && c[2].g == 1 && c[2].b == 1 && c[2].a == 1);
	ck_assert(c[3].b == 1 && c[3].r == 0 && c[3].a == 1);
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

START_TEST(stage_and_single_object)
{
	const char *doc = "{\"images\":[\"tex.png\"],\"name\":\"solo\",\"animation\":"
	                  "{\"fps\":24,\"CanvasWidth\":256,\"CanvasHeight\":512,"
	                  "\"MarginWidth\":128,\"MarginHeight\":0,\"parts\":[\"p\"],"
	                  "\"ssa\":[[[0,0,0,0,4,4,0,0,0,1,1]]]}}";
	bb_armature_info arm;
	bb_anim_info ai;
	bb_model *m;
	bb_error err;

	ck_assert_msg(load(doc, NULL, &m, &err) == BB_OK, "%s", err.message);
	bb_model_armature_info(m, 0, &arm);
	ck_assert_str_eq(arm.name, "solo");
	bb_model_anim_info(m, 0, 0, &ai);
	ck_assert_str_eq(ai.name, "solo");
	ck_assert_int_eq(ai.has_stage, 1);
	ck_assert_double_eq_tol(ai.stage_w, 256, EPS);
	ck_assert_double_eq_tol(ai.stage_h, 512, EPS);
	ck_assert_double_eq_tol(ai.stage_x, 128, EPS);
	ck_assert_double_eq_tol(ai.stage_y, 512, EPS);  /* margin from the bottom */
	bb_model_free(m);
}
END_TEST

static void expect_error(const char *doc, bb_status st, const char *epath,
                         const char *msg)
{
	bb_model *m = NULL;
	bb_error err;
	bb_status got = load(doc, NULL, &m, &err);

	ck_assert_msg(got == st, "status %d, expected %d (%s)", got, st, err.message);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(err.file, "anim.json");
	ck_assert_msg(strcmp(err.path, epath) == 0, "path '%s', expected '%s' (%s)",
	              err.path, epath, err.message);
	ck_assert_msg(strstr(err.message, msg) != NULL, "message '%s' lacks '%s'",
	              err.message, msg);
}

static void expect_frames_error(const char *frames, const char *epath,
                                const char *msg)
{
	char doc[2048];

	doc_frames(doc, sizeof doc, frames);
	expect_error(doc, BB_ERR_INPUT, epath, msg);
}

START_TEST(bad_input)
{
	expect_frames_error("[[[1,4,0,0,8,8,0,0,0,1,1]]]", "[0].animation.ssa[0][0][1]",
	                    "image index 4 out of range (2 images)");
	expect_frames_error("[[],[[1,0,0,0,8,8,0,0,0,1,1],[3,0,0,0,8,8,0,0,0,1,1]]]",
	                    "[0].animation.ssa[1][1][0]",
	                    "part index 3 out of range (3 parts)");
	expect_frames_error("[[[-1,0,0,0,8,8,0,0,0,1,1]]]", "[0].animation.ssa[0][0][0]",
	                    "part index -1 out of range");
	expect_frames_error("[[[1,0,0,0,8,-2,0,0,0,1,1]]]", "[0].animation.ssa[0][0][5]",
	                    "negative size -2");
	expect_frames_error("[[[1,0,0,0,8,8,\"3\",0,0,1,1]]]", "[0].animation.ssa[0][0][6]",
	                    "expected a number, found a string");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,null]]]", "[0].animation.ssa[0][0][10]",
	                    "expected a number, found null");
	expect_frames_error("[]", "[0].animation.ssa", "no frames");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1]]]", "[0].animation.ssa[0][0]",
	                    "at least 11 fields, found 10");
	expect_frames_error("[[[1,0.5,0,0,8,8,0,0,0,1,1]]]", "[0].animation.ssa[0][0][1]",
	                    "expected an integer");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,7]]]",
	                    "[0].animation.ssa[0][0][16]", "unknown alpha blend type 7");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,1,0,0,2]]]",
	                    "[0].animation.ssa[0][0][13]", "flip 2 is neither 0 nor 1");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1.5]]]",
	                    "[0].animation.ssa[0][0][15]", "opacity 1.5 outside 0..1");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,9]]]",
	                    "[0].animation.ssa[0][0][26]", "unknown colour blend type 9");
	expect_frames_error("[[[1,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,"
	                    "1e12]]]", "[0].animation.ssa[0][0][27]", "32-bit ARGB");
	expect_frames_error("[[{}]]", "[0].animation.ssa[0][0]", "expected a part record");
	expect_frames_error("[{}]", "[0].animation.ssa[0]", "expected a frame");
	/* the second animation, and the single-object form (no leading index) */
	expect_error("[{\"images\":[],\"name\":\"a\",\"animation\":{\"fps\":30,\"parts\":[],"
	             "\"ssa\":[[]]}},{\"images\":[\"tex.png\"],\"name\":\"b\",\"animation\":"
	             "{\"fps\":30,\"parts\":[\"p\"],\"ssa\":[[[0,1,0,0,8,8,0,0,0,1,1]]]}}]",
	             BB_ERR_INPUT, "[1].animation.ssa[0][0][1]",
	             "image index 1 out of range (1 images)");
	expect_error("{\"images\":[\"tex.png\"],\"name\":\"a\",\"animation\":{\"fps\":30,"
	             "\"parts\":[\"p\"],\"ssa\":[[[0,0,0,0,8,8,0,0,0,1,1,0,0,0,0,-1]]]}}",
	             BB_ERR_INPUT, "animation.ssa[0][0][15]", "opacity -1 outside");
	expect_error("{\"images\":[\"tex.png\"],\"name\":\"a\",\"animation\":{\"parts\":[],"
	             "\"ssa\":[]}}", BB_ERR_INPUT, "animation.fps", "missing");
	expect_error("[{\"images\":[\"tex.png\"],\"name\":\"a\",\"animation\":{\"fps\":30,"
	             "\"parts\":[\"p\"],\"ssa\":[[]]}},{\"images\":[\"tex.png\"],\"name\":"
	             "\"a\",\"animation\":{\"fps\":30,\"parts\":[\"p\"],\"ssa\":[[]]}}]",
	             BB_ERR_INPUT, "[1].name", "duplicate animation name \"a\"");
	expect_error("[{\"images\":[\"nothere.png\"],\"name\":\"a\",\"animation\":{\"fps\":"
	             "30,\"parts\":[\"p\"],\"ssa\":[[[0,0,0,0,8,8,0,0,0,1,1]]]}}]",
	             BB_ERR_INPUT, "[0].images[0]", "image \"nothere.png\"");
	expect_error("[{\"images\":[\"\"],\"name\":\"a\",\"animation\":{\"fps\":30,"
	             "\"parts\":[\"p\"],\"ssa\":[[]]}}]", BB_ERR_INPUT, "[0].images[0]",
	             "expected an image file name");
}
END_TEST

START_TEST(placeholder)
{
	const char *doc = "[{\"images\":[\"nothere.png\"],\"name\":\"a\",\"animation\":"
	                  "{\"fps\":30,\"parts\":[\"p\"],\"ssa\":"
	                  "[[[0,0,10,20,30,40,0,0,0,1,1]]]}}]";
	bb_load_options o = { 0 };
	const bb_drawlist *dl;
	bb_model *m;
	bb_pose *pose = NULL;
	bb_error err;

	o.placeholder = 1;
	ck_assert_msg(load(doc, &o, &m, &err) == BB_OK, "%s", err.message);
	ck_assert_int_eq(bb_model_warning_count(m), 1);
	ck_assert_ptr_nonnull(strstr(bb_model_warning(m, 0), "nothere.png"));
	dl = eval_at(m, &pose, 0, 0);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_int_eq(dl->items[0].outline, 1);
	ck_assert_int_eq(dl->items[0].texture->width, 40);
	ck_assert_int_eq(dl->items[0].texture->height, 60);
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ssajson");
	TCase *tc = tcase_create("records");

	tcase_add_unchecked_fixture(tc, make_dir, remove_dir);
	tcase_add_test(tc, corners_plain);
	tcase_add_test(tc, corners_rotation);
	tcase_add_test(tc, corners_outside_image);
	tcase_add_test(tc, corners_scale_pivot);
	tcase_add_test(tc, corners_flips);
	tcase_add_test(tc, corners_deformation);
	tcase_add_test(tc, timing_and_shortened_records);
	tcase_add_test(tc, blends_and_empty_cells);
	tcase_add_test(tc, vertex_colors);
	tcase_add_test(tc, stage_and_single_object);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, placeholder);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
