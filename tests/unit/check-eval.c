/* The evaluator on small models made with the model builder (no file
 * format in between): interpolation and the DragonBones eases, the inherit
 * modes, one-bone IK, mesh deformation, layers with a bone mask.  Each
 * expectation is computed by hand in the test from the model's documented
 * rules (model/model.h) and the runtimes' formulas the specs give. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "model/build.h"

#define EPS 1e-9

struct fixture {
	bb__where at;
	bb__build b;
	bb_error err;
	bb_model *m;
	bb_armature *a;
};

/* A model of one armature with n root bones named b0, b1, ... and one
 * animation "a" of 1 s. */
static bb_anim *start(struct fixture *f, int n)
{
	bb_anim *an;
	char name[16];
	int i;

	memset(f, 0, sizeof *f);
	f->at.file = "test";
	f->at.err = &f->err;
	f->m = bb__model_new("test");
	ck_assert_ptr_nonnull(f->m);
	bb__build_init(&f->b, f->m, &f->at, 100, 1000);
	ck_assert_int_eq(bb__build_armatures(&f->b, 1, &f->a), BB_OK);
	ck_assert_int_eq(bb__build_str(&f->b, &f->a->name, "arm"), BB_OK);
	f->a->fps = 30;
	ck_assert_int_eq(bb__build_bones(&f->b, f->a, (size_t)n), BB_OK);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "b%d", i);
		ck_assert_int_eq(bb__build_str(&f->b, &f->a->bones[i].name, name), BB_OK);
	}
	ck_assert_int_eq(bb__build_anim(&f->b, f->a, "a", &an), BB_OK);
	an->duration = 1;
	return an;
}

/* The model checked as the loader driver checks it. */
static void finish(struct fixture *f)
{
	ck_assert_int_eq(bb__model_add_setup_anims(f->m, &f->err), BB_OK);
	ck_assert_msg(bb__model_validate(f->m, "test", &f->err) == BB_OK, "%s",
	              f->err.message);
}

/* A timeline of bone `bone`'s property with keys (t, v) and interp ip. */
static bb_timeline *keys(struct fixture *f, bb_anim *an, int bone, bb_prop prop,
                         bb_apply apply, int n, const double *t,
                         const double *v, bb_interp ip)
{
	bb_timeline *tl;
	int k;

	ck_assert_int_eq(bb__build_timeline(&f->b, an, BB_TL_BONE, bone, prop, apply,
	                                    1, n, &tl), BB_OK);
	for (k = 0; k < n; k++) {
		tl->times[k] = t[k];
		tl->values[k] = v[k];
		tl->interp[k] = ip;
	}
	tl->interp[n - 1].kind = BB_INTERP_STEP;
	return tl;
}

/* World matrix of `bone` at t on the tracks (NULL: animation 0 alone). */
static bb_affine world(struct fixture *f, const bb_track *tr, int ntr, double t,
                       int bone)
{
	bb_track one = { .anim = 0, .mask = -1 };
	bb_pose *p;
	bb_affine w;

	ck_assert_int_eq(bb_pose_new(f->m, 0, &p, &f->err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, tr ? tr : &one, tr ? ntr : 1, t, NULL,
	                              &f->err), BB_OK);
	w = bb_pose_bone_world(p, bone);
	bb_pose_free(p);
	return w;
}

START_TEST(linear_step_and_hold)
{
	static const double t[2] = { 0.25, 0.75 }, v[2] = { 0, 10 };
	struct fixture f;
	bb_anim *an = start(&f, 2);

	keys(&f, an, 0, BB_PROP_X, BB_APPLY_ADD, 2, t, v,
	     (bb_interp){ .kind = BB_INTERP_LINEAR });
	keys(&f, an, 1, BB_PROP_X, BB_APPLY_ADD, 2, t, v,
	     (bb_interp){ .kind = BB_INTERP_STEP });
	finish(&f);
	ck_assert(fabs(world(&f, NULL, 0, 0.5, 0).tx - 5) < EPS);
	ck_assert(fabs(world(&f, NULL, 0, 0.625, 0).tx - 7.5) < EPS);
	ck_assert(fabs(world(&f, NULL, 0, 0.5, 1).tx) < EPS);        /* stepped */
	ck_assert(fabs(world(&f, NULL, 0, 0.75, 1).tx - 10) < EPS);
	ck_assert(fabs(world(&f, NULL, 0, 0.1, 0).tx) < EPS);        /* before: first */
	ck_assert(fabs(world(&f, NULL, 0, 0.9, 0).tx - 10) < EPS);   /* after: last */
	bb_model_free(f.m);
}
END_TEST

/* DragonBones' _getEasingValue: quad in p^2, quad out 1 - (1 - p)^2, sine
 * in-out (1 - cos(p pi)) / 2, each blended with the strength e:
 * (eased - p) * e + p. */
START_TEST(dragonbones_eases)
{
	static const double t[2] = { 0, 1 }, v[2] = { 0, 100 };
	const struct { bb_interp_kind kind; float e; double want; } cases[] = {
		{ BB_INTERP_QUAD_IN, 1, 100 * 0.3 * 0.3 },
		{ BB_INTERP_QUAD_IN, 0.5f, 100 * ((0.09 - 0.3) * 0.5 + 0.3) },
		{ BB_INTERP_QUAD_OUT, 1, 100 * (1 - 0.7 * 0.7) },
		{ BB_INTERP_SINE_IN_OUT, 1, 100 * 0.5 * (1 - cos(0.3 * M_PI)) },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fixture f;
		bb_anim *an = start(&f, 1);

		keys(&f, an, 0, BB_PROP_X, BB_APPLY_ADD, 2, t, v,
		     (bb_interp){ .kind = cases[i].kind, .param = cases[i].e });
		finish(&f);
		ck_assert_msg(fabs(world(&f, NULL, 0, 0.3, 0).tx - cases[i].want) < 1e-6,
		              "case %zu: %g, want %g", i, world(&f, NULL, 0, 0.3, 0).tx,
		              cases[i].want);
		bb_model_free(f.m);
	}
}
END_TEST

/* A parent at (10, 0) turned 90 degrees (y down: +x to +y), scaled (2, 1);
 * a child at (5, 0) turned 45 degrees.  Matrix inheritance multiplies the
 * matrices; component-wise (Cocos) takes the position through the parent's
 * matrix and adds rotations, multiplies scales (no shear). */
START_TEST(inherit_modes)
{
	const double r = M_PI / 2, c45 = M_SQRT1_2;
	struct fixture f;
	bb_affine w, pm, cm;
	int mode;

	for (mode = 0; mode < 2; mode++) {
		start(&f, 2);
		f.a->bones[0].setup = (bb_xform){ .x = 10, .rotation = r, .sx = 2, .sy = 1 };
		f.a->bones[1].parent = 0;
		f.a->bones[1].setup = (bb_xform){ .x = 5, .rotation = M_PI / 4, .sx = 1, .sy = 1 };
		f.a->bones[0].inherit = f.a->bones[1].inherit =
			mode ? BB_INHERIT_COMPONENTWISE : BB_INHERIT_MATRIX;
		finish(&f);
		w = world(&f, NULL, 0, 0, 1);
		/* the position through the parent's matrix in both */
		ck_assert(fabs(w.tx - 10) < EPS && fabs(w.ty - 10) < EPS);
		if (mode == 0) {
			/* parent [0 -1; 2 0] (columns a b, c d) times child R45 */
			pm = (bb_affine){ 0, 2, -1, 0, 10, 0 };
			cm = (bb_affine){ c45, c45, -c45, c45, 5, 0 };
			ck_assert(fabs(w.a - (pm.a * cm.a + pm.c * cm.b)) < EPS);
			ck_assert(fabs(w.b - (pm.b * cm.a + pm.d * cm.b)) < EPS);
			ck_assert(fabs(w.c - (pm.a * cm.c + pm.c * cm.d)) < EPS);
			ck_assert(fabs(w.d - (pm.b * cm.c + pm.d * cm.d)) < EPS);
		} else {
			/* rotation 135 degrees, scales (2, 1) */
			ck_assert(fabs(w.a - 2 * cos(3 * M_PI / 4)) < EPS);
			ck_assert(fabs(w.b - 2 * sin(3 * M_PI / 4)) < EPS);
			ck_assert(fabs(w.c + sin(3 * M_PI / 4)) < EPS);
			ck_assert(fabs(w.d - cos(3 * M_PI / 4)) < EPS);
		}
		bb_model_free(f.m);
	}
}
END_TEST

/* One-bone IK turns the bone towards its target: a bone at the origin, a
 * target at (0, 10) (straight down on screen): 90 degrees; at weight 0.5,
 * half of it. */
START_TEST(ik_one_bone)
{
	struct fixture f;
	bb_affine w;

	start(&f, 2);
	f.a->bones[0].length = 10;
	f.a->bones[1].setup.y = 10;
	ck_assert_int_eq(bb__build_iks(&f.b, f.a, 1), BB_OK);
	ck_assert_int_eq(bb__build_str(&f.b, &f.a->iks[0].name, "ik"), BB_OK);
	f.a->iks[0].bone = 0;
	f.a->iks[0].target = 1;
	finish(&f);
	w = world(&f, NULL, 0, 0, 0);
	ck_assert(fabs(atan2(w.b, w.a) - M_PI / 2) < 1e-9);
	bb_model_free(f.m);
	start(&f, 2);
	f.a->bones[1].setup.y = 10;
	ck_assert_int_eq(bb__build_iks(&f.b, f.a, 1), BB_OK);
	ck_assert_int_eq(bb__build_str(&f.b, &f.a->iks[0].name, "ik"), BB_OK);
	f.a->iks[0].bone = 0;
	f.a->iks[0].target = 1;
	f.a->iks[0].weight = 0.5;
	finish(&f);
	w = world(&f, NULL, 0, 0, 0);
	ck_assert(fabs(atan2(w.b, w.a) - M_PI / 4) < 1e-9);
	bb_model_free(f.m);
}
END_TEST

/* A deform timeline adds its offsets to an unweighted mesh's vertices,
 * interpolated between keys. */
START_TEST(deform_moves_mesh_vertices)
{
	static const bb_vec2 verts[3] = { { 0, 0 }, { 10, 0 }, { 0, 10 } };
	struct fixture f;
	bb_anim *an = start(&f, 1);
	bb_timeline *tl;
	bb_display *d;
	bb_skin *sk;
	bb_image *img;
	const bb_drawlist *dl;
	bb_pose *p;
	bb_track tr = { .anim = 0, .mask = -1 };
	int first, tex, k;

	ck_assert_int_eq(bb_image_new(4, 4, &img, &f.err), BB_OK);
	ck_assert_int_eq(bb__build_texture(&f.b, "t", img, &tex), BB_OK);
	ck_assert_int_eq(bb__build_slots(&f.b, f.a, 1), BB_OK);
	ck_assert_int_eq(bb__build_str(&f.b, &f.a->slots[0].name, "s"), BB_OK);
	f.a->slots[0].setup_display = 0;
	ck_assert_int_eq(bb__build_skin(&f.b, f.a, "default", 0, &sk), BB_OK);
	ck_assert_int_eq(bb__build_displays(&f.b, f.a, 1, &first), BB_OK);
	sk->first[0] = first;
	sk->count[0] = 1;
	d = &f.a->displays[first];
	d->kind = BB_DISPLAY_MESH;
	d->u.mesh.texture = tex;
	d->u.mesh.nverts = 3;
	d->u.mesh.nindices = 3;
	d->u.mesh.verts = calloc(3, sizeof *d->u.mesh.verts);
	d->u.mesh.uvs = calloc(3, sizeof *d->u.mesh.uvs);
	d->u.mesh.indices = calloc(3, sizeof *d->u.mesh.indices);
	ck_assert(d->u.mesh.verts && d->u.mesh.uvs && d->u.mesh.indices);
	for (k = 0; k < 3; k++) {
		d->u.mesh.verts[k] = verts[k];
		d->u.mesh.indices[k] = k;
	}
	ck_assert_int_eq(bb__build_timeline(&f.b, an, BB_TL_DEFORM, 0, BB_PROP_X,
	                                    BB_APPLY_ADD, 6, 2, &tl), BB_OK);
	tl->display = first;
	tl->times[1] = 1;
	tl->interp[0].kind = BB_INTERP_LINEAR;
	for (k = 0; k < 6; k++)
		tl->values[6 + k] = k + 1;       /* key 1: offsets 1..6 */
	finish(&f);
	ck_assert_int_eq(bb_pose_new(f.m, 0, &p, &f.err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(p, &tr, 1, 0.5, NULL, &f.err), BB_OK);
	dl = bb_pose_drawlist(p);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_int_eq(dl->items[0].kind, BB_DRAW_MESH);
	for (k = 0; k < 3; k++) {
		ck_assert(fabs(dl->items[0].verts[k].x - (verts[k].x + (2 * k + 1) / 2.0)) < EPS);
		ck_assert(fabs(dl->items[0].verts[k].y - (verts[k].y + (2 * k + 2) / 2.0)) < EPS);
	}
	bb_pose_free(p);
	bb_model_free(f.m);
}
END_TEST

/* A second track with a bone mask replaces what it keys for the masked
 * bones only; a transient track does nothing before its start. */
START_TEST(layers_and_masks)
{
	static const double t[1] = { 0 }, ten[1] = { 10 }, twenty[1] = { 20 };
	struct fixture f;
	bb_anim *an = start(&f, 2), *b;
	bb_mask *mk;
	bb_track tr[2] = { { .anim = 0, .mask = -1 },
	                   { .anim = 1, .mask = 0, .transient = 1, .start = 0.5 } };

	keys(&f, an, 0, BB_PROP_X, BB_APPLY_ADD, 1, t, ten, (bb_interp){ 0 });
	keys(&f, an, 1, BB_PROP_X, BB_APPLY_ADD, 1, t, ten, (bb_interp){ 0 });
	ck_assert_int_eq(bb__build_anim(&f.b, f.a, "b", &b), BB_OK);
	b->duration = 1;
	b->layer = BB_LAYER_OVERLAY;
	keys(&f, b, 0, BB_PROP_X, BB_APPLY_ADD, 1, t, twenty, (bb_interp){ 0 });
	keys(&f, b, 1, BB_PROP_X, BB_APPLY_ADD, 1, t, twenty, (bb_interp){ 0 });
	ck_assert_int_eq(bb__build_mask(&f.b, f.a, "upper", &mk), BB_OK);
	mk->bones[1] = 1;
	/* the builder refuses a second animation named "b" */
	ck_assert_int_eq(bb__build_anim(&f.b, f.a, "b", &b), BB_ERR_INPUT);
	finish(&f);
	ck_assert(fabs(world(&f, tr, 2, 0.75, 0).tx - 10) < EPS);   /* not masked */
	ck_assert(fabs(world(&f, tr, 2, 0.75, 1).tx - 20) < EPS);   /* the overlay */
	ck_assert(fabs(world(&f, tr, 2, 0.25, 1).tx - 10) < EPS);   /* before it */
	bb_model_free(f.m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eval");
	TCase *tc = tcase_create("eval");

	tcase_add_test(tc, linear_step_and_hold);
	tcase_add_test(tc, dragonbones_eases);
	tcase_add_test(tc, inherit_modes);
	tcase_add_test(tc, ik_one_bone);
	tcase_add_test(tc, deform_moves_mesh_vertices);
	tcase_add_test(tc, layers_and_masks);
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
