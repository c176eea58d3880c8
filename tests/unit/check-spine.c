/* Spine: what the corpus does not exercise, on small documents whose
 * expected values are worked out by hand from the format's math (in the
 * comments): the inherit modes, path constraints, physics,
 * sequences, two-colour tint (pose and pixels), 4.x Bezier sampling,
 * linked meshes, premultiplied pages under every texture filter.
 *
 * Spine is y up; a pose is y down (the figure matrix flips y, Spine's
 * skeleton scaleY = -1): Spine's world matrix rows (a b; c d) and position
 * (x, y) read here as m = [a, -c, b, -d, x, -y] (x' = m.a x + m.c y + tx). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

static char dir[] = "/tmp/bb-check-spine-XXXXXX";

/* A half-transparent orange, straight and premultiplied (200 * 128 / 255
 * = 100.4, ...), for 16x16 pages s.png and p.png (pma: true). */
static const uint8_t straight[4] = { 200, 100, 50, 128 };
static const uint8_t premultiplied[4] = { 100, 50, 25, 128 };

/* <name>.png, 16x16 of one colour, and <name>.atlas naming it g. */
static void write_page(const char *name, const uint8_t rgba[4], int pma)
{
	char path[128];
	bb_image *img;
	bb_error err;
	FILE *f;
	int x, y;

	ck_assert_int_eq(bb_image_new(16, 16, &img, &err), BB_OK);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++)
			memcpy(bb_image_pixel(img, x, y), rgba, 4);
	snprintf(path, sizeof path, "%s/%s.png", dir, name);
	ck_assert_int_eq(bb_png_write(path, img, &err), BB_OK);
	bb_image_free(img);
	snprintf(path, sizeof path, "%s/%s.atlas", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s.png\n\tsize: 16, 16\n%sg\n\tbounds: 0, 0, 16, 16\n", name,
	        pma ? "\tpma: true\n" : "");
	fclose(f);
}

/* A 64x16 page: four 16x16 cells, grey, red, green, blue; the atlas names
 * them g (0,0), r (16,0), f1..f3 (the sequence: red, green, blue). */
static void write_files(void)
{
	static const uint8_t cell[4][4] = {
		{ 128, 128, 128, 255 }, { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }
	};
	char path[128];
	bb_image *img;
	bb_error err;
	FILE *f;
	int x, y;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(bb_image_new(64, 16, &img, &err), BB_OK);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 64; x++)
			memcpy(bb_image_pixel(img, x, y), cell[x / 16], 4);
	snprintf(path, sizeof path, "%s/t.png", dir);
	ck_assert_int_eq(bb_png_write(path, img, &err), BB_OK);
	bb_image_free(img);
	snprintf(path, sizeof path, "%s/t.atlas", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("t.png\n\tsize: 64, 16\ng\n\tbounds: 0, 0, 16, 16\nr\n\tbounds: 16, 0, 16, 16\n"
	      "f1\n\tbounds: 16, 0, 16, 16\nf2\n\tbounds: 32, 0, 16, 16\n"
	      "f3\n\tbounds: 48, 0, 16, 16\n", f);
	fclose(f);
	write_page("s", straight, 0);
	write_page("p", premultiplied, 1);
}

static void remove_files(void)
{
	static const char *const files[] = { "t.png", "t.atlas", "s.png", "s.atlas",
	                                     "p.png", "p.atlas" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* json read as <dir>/t.json with atlas <dir>/<atlas_name>. */
static bb_model *load_with(const char *json, const char *atlas_name)
{
	char path[128], atlas[128];
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;
	bb_status s;

	snprintf(path, sizeof path, "%s/t.json", dir);
	snprintf(atlas, sizeof atlas, "%s/%s", dir, atlas_name);
	lo.atlas_path = atlas;
	s = bb_model_load_buffer(json, strlen(json), path, &lo, &m, &err);
	if (s != BB_OK) {
		char msg[1024];

		bb_error_format(&err, msg, sizeof msg);
		ck_abort_msg("load failed: %s", msg);
	}
	return m;
}

static bb_model *load(const char *json)
{
	return load_with(json, "t.atlas");
}

/* Pose of animation `anim` (or none) at t. */
static bb_pose *pose_at(const bb_model *m, const char *anim, double t,
                        const bb_eval_options *o)
{
	bb_track tr = { 0, 0, -1, 0, 0, 0 };
	bb_pose *p;
	bb_error err;
	int arm = bb_model_default_armature(m);

	ck_assert_int_eq(bb_pose_new(m, arm, &p, &err), BB_OK);
	tr.anim = anim ? bb_model_find_anim(m, arm, anim) : 0;
	ck_assert_int_ge(tr.anim, 0);
	ck_assert_int_eq(bb_pose_eval(p, &tr, bb_model_anim_count(m, arm) ? 1 : 0, t, o,
	                              &err), BB_OK);
	return p;
}

static bb_affine bone(const bb_model *m, const bb_pose *p, const char *name)
{
	int b = bb_model_find_bone(m, bb_model_default_armature(m), name);

	ck_assert_int_ge(b, 0);
	return bb_pose_bone_world(p, b);
}

#define NEAR(x, y, tol) ck_assert_msg(fabs((x) - (y)) <= (tol), "%s = %.9g, expected %.9g", \
                                       #x, (double)(x), (double)(y))

#define HEAD "{\"skeleton\":{\"spine\":\"4.2.22\"},"

/* The error loading json with at most max_bones bones and max_keys keys
 * per animation, formatted. */
static void load_error(const char *json, int max_bones, int max_keys,
                       char *msg, size_t size)
{
	char path[128];
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;

	snprintf(path, sizeof path, "%s/t.json", dir);
	lo.max_bones = max_bones;
	lo.max_keys = max_keys;
	ck_assert_int_eq(bb_model_load_buffer(json, strlen(json), path, &lo, &m, &err),
	                 BB_ERR_LIMIT);
	ck_assert_ptr_null(m);
	bb_error_format(&err, msg, size);
}

/* The builder's limits name the field being read: the bones list, the
 * key list whose timelines pass the animation's keys (a translate key
 * list of 2 keys is 2 timelines of 2 keys: 4 keys). */
START_TEST(builder_limits)
{
	char msg[512];

	load_error(HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"root\"}]}",
	           1, 0, msg, sizeof msg);
	ck_assert_str_eq(msg, "t.json: bones: 2 bones exceed the limit of 1");
	load_error(HEAD "\"bones\":[{\"name\":\"root\"}],\"animations\":{\"a\":{\"bones\":"
	           "{\"root\":{\"rotate\":[{},{\"time\":1}],\"translate\":[{},{\"time\":1}]}}}}}",
	           0, 3, msg, sizeof msg);
	ck_assert_str_eq(msg, "t.json: animations.a.bones.root.translate: more than 3 keys");
}
END_TEST

/* Deform keys of a mesh without vertices deform nothing (they made a
 * timeline of no values: an invalid model). */
START_TEST(empty_mesh_deform)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"}],"
	                   "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"g\"}],"
	                   "\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"g\":{"
	                   "\"type\":\"mesh\",\"uvs\":[],\"triangles\":[],\"vertices\":[]}}}}],"
	                   "\"animations\":{\"a\":{\"attachments\":{\"default\":{\"s\":{\"g\":{"
	                   "\"deform\":[{\"time\":0},{\"time\":1}]}}}}}}}");
	bb_pose *p = pose_at(m, "a", 0.5, NULL);

	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* Parent: rotation 30, scale (2, -3).  Child at x = 10, rotation 0.
 * Position: P (10, 0) = 20 (cos 30, sin 30) = (17.3205, 10).
 * noScaleOrReflection: the direction of P (cos 0, sin 0) normalised,
 * (cos 30, sin 30), and the y axis at +90: (cos 120, sin 120) =
 * (-0.5, 0.8660): a pure 30-degree rotation, Spine (a b; c d) =
 * (0.8660 -0.5; 0.5 0.8660).  noScale keeps the reflection: det P =
 * 2 * -3 < 0, so the y axis flips: (0.5, -0.8660).
 * noRotationOrReflection: P = (pa pb; pc pd) = (1.7321 1.5; 1 -2.5981);
 * s = |det P| / (pa^2 + pc^2) = 6 / 4 = 1.5, pb = pc s = 1.5, pd = pa s =
 * 2.5981, the parent's rotation atan2(pc, pa) = 30 taken off: local x axis
 * at -30 (0.8660, -0.5), y axis at 60 (0.5, 0.8660); a = pa 0.8660 - pb
 * (-0.5) = 2.25, b = pa 0.5 - pb 0.8660 = -0.4330, c = pc 0.8660 + pd
 * (-0.5) = -0.4330, d = pc 0.5 + pd 0.8660 = 2.75.  onlyTranslation: the
 * identity.  In the pose (y down): [a, -c, b, -d, x, -y]. */
START_TEST(inherit_modes)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"},"
	                   "{\"name\":\"p\",\"parent\":\"root\",\"rotation\":30,\"scaleX\":2,\"scaleY\":-3},"
	                   "{\"name\":\"a\",\"parent\":\"p\",\"x\":10,\"inherit\":\"noScaleOrReflection\"},"
	                   "{\"name\":\"b\",\"parent\":\"p\",\"x\":10,\"inherit\":\"noScale\"},"
	                   "{\"name\":\"n\",\"parent\":\"p\",\"x\":10,\"inherit\":\"noRotationOrReflection\"},"
	                   "{\"name\":\"o\",\"parent\":\"p\",\"x\":10,\"inherit\":\"onlyTranslation\"}]}");
	bb_pose *p = pose_at(m, NULL, 0, NULL);
	bb_affine a = bone(m, p, "a"), b = bone(m, p, "b");
	bb_affine n = bone(m, p, "n"), o = bone(m, p, "o");
	double c = cos(M_PI / 6);

	NEAR(n.a, 2.25, 1e-12);
	NEAR(n.b, 0.5 * c, 1e-12);
	NEAR(n.c, -0.5 * c, 1e-12);
	NEAR(n.d, -2.75, 1e-12);
	NEAR(n.tx, 20 * c, 1e-9);
	NEAR(n.ty, -10, 1e-9);
	NEAR(o.a, 1, 1e-12);
	NEAR(o.b, 0, 1e-12);
	NEAR(o.c, 0, 1e-12);
	NEAR(o.d, -1, 1e-12);
	NEAR(o.ty, -10, 1e-9);

	NEAR(a.a, c, 1e-12);
	NEAR(a.b, -0.5, 1e-12);
	NEAR(a.c, -0.5, 1e-12);
	NEAR(a.d, -c, 1e-12);
	NEAR(a.tx, 20 * c, 1e-9);
	NEAR(a.ty, -10, 1e-9);
	NEAR(b.a, c, 1e-12);
	NEAR(b.b, -0.5, 1e-12);
	NEAR(b.c, 0.5, 1e-12);
	NEAR(b.d, c, 1e-12);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* A straight path up the y axis: points (0, 0) and (0, 100), handles on
 * the line at thirds, so arc length is linear in the curve parameter.
 * Two bones of length 10, spacing "length" 0: the first at percent 0.5 =
 * 50 units, the next one bone length further (60); rotateMode tangent:
 * both point along +y (Spine (a, c) = (0, 1): the pose's (m.a, m.b) =
 * (0, -1)).  With positionMode fixed 30 and spacing percent 0.2: 30 and
 * 30 + 0.2 * 100 = 50. */
#define PATH_DOC(pos, extra) HEAD \
	"\"bones\":[{\"name\":\"root\"},{\"name\":\"b1\",\"parent\":\"root\",\"length\":10}," \
	"{\"name\":\"b2\",\"parent\":\"root\",\"length\":10}]," \
	"\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"p\"}]," \
	"\"path\":[{\"name\":\"c\",\"bones\":[\"b1\",\"b2\"],\"target\":\"s\",\"position\":" pos extra "}]," \
	"\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{\"type\":\"path\"," \
	"\"vertexCount\":6,\"vertices\":[0,-10,0,0,0,33.333333333333,0,66.666666666667,0,100,0,110]," \
	"\"lengths\":[100]}}}}]}"

START_TEST(path_constraint)
{
	bb_model *m = load(PATH_DOC("0.5", ""));
	bb_pose *p = pose_at(m, NULL, 0, NULL);
	bb_affine b1 = bone(m, p, "b1"), b2 = bone(m, p, "b2");

	NEAR(b1.tx, 0, 1e-6);
	NEAR(b1.ty, -50, 1e-6);
	NEAR(b2.ty, -60, 1e-6);
	NEAR(b1.a, 0, 1e-9);
	NEAR(b1.b, -1, 1e-9);
	NEAR(b2.b, -1, 1e-9);
	bb_pose_free(p);
	bb_model_free(m);
	m = load(PATH_DOC("30", ",\"positionMode\":\"fixed\",\"spacingMode\":\"percent\",\"spacing\":0.2"));
	p = pose_at(m, NULL, 0, NULL);
	NEAR(bone(m, p, "b1").ty, -30, 1e-6);
	NEAR(bone(m, p, "b2").ty, -50, 1e-6);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* Physics on x only: inertia 1, strength 100, damping 1 (no damping),
 * mass 1, steps of h = 1/64 s.  The parent jumps from x = 0 to x = 10 at
 * t = h (a stepped key); the bone lags: at the update at t = h its offset
 * takes the whole move, -10, then one spring step:
 *   v1 = (0 - (-10) * 100) * h = 15.625,  x1 = -10 + v1 h = -9.755859375,
 * world x = 10 + x1 = 0.244140625.  At 2h:
 *   v2 = v1 + 975.5859375 h = 30.868530273,  x2 = x1 + v2 h = -9.273538589,
 * world x = 0.726461411.  Frames are pure functions of t: evaluating 2h
 * alone gives the same. */
START_TEST(physics_spring)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"mover\",\"parent\":\"root\"},"
	                   "{\"name\":\"b\",\"parent\":\"mover\",\"length\":10}],"
	                   "\"physics\":[{\"name\":\"ph\",\"bone\":\"b\",\"x\":1,\"fps\":64,"
	                   "\"inertia\":1,\"strength\":100,\"damping\":1,\"mass\":1}],"
	                   "\"animations\":{\"jump\":{\"bones\":{\"mover\":{\"translate\":["
	                   "{\"curve\":\"stepped\"},{\"time\":0.015625,\"x\":10},{\"time\":1,\"x\":10}]}}}}}");
	bb_pose *p = pose_at(m, "jump", 1 / 64.0, NULL);

	NEAR(bone(m, p, "b").tx, 0.244140625, 1e-9);
	bb_pose_free(p);
	p = pose_at(m, "jump", 2 / 64.0, NULL);
	NEAR(bone(m, p, "b").tx, 0.726461411, 1e-8);
	bb_pose_free(p);
	p = pose_at(m, "jump", 0, NULL);
	NEAR(bone(m, p, "b").tx, 0, 1e-12);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* A region with a three-frame sequence (f1 red, f2 green, f3 blue at page
 * x 16, 32, 48) and a timeline: loop, delay 0.5 from t = 0, then from
 * t = 2 pingpong from index 2.  Frame index = key index + floor((t - key
 * time) / delay + 0.00001): t 0 -> 0, 0.5 -> 1, 1.2 -> 2, 1.6 -> 3 mod 3
 * = 0; at 2.6: 2 + 1 = 3, pingpong over n = 2 * 3 - 2 = 4: 3 >= 3 -> 4 - 3
 * = 1 (a last key at 4 keeps every time inside the animation).  The drawn
 * quad's top-left uv names the frame: x = 16 (1 + index). */
START_TEST(sequence_frames)
{
	static const double times[] = { 0, 0.5, 1.2, 1.6, 2.6 };
	static const int frames[] = { 0, 1, 2, 0, 1 };
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"}],"
	                   "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"f\"}],"
	                   "\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"f\":{"
	                   "\"width\":16,\"height\":16,\"sequence\":{\"count\":3}}}}}],"
	                   "\"animations\":{\"a\":{\"attachments\":{\"default\":{\"s\":{\"f\":{"
	                   "\"sequence\":[{\"mode\":\"loop\",\"delay\":0.5},"
	                   "{\"time\":2,\"mode\":\"pingpong\",\"index\":2},"
	                   "{\"time\":4}]}}}}}}}");
	int k;

	for (k = 0; k < 5; k++) {
		bb_pose *p = pose_at(m, "a", times[k], NULL);
		const bb_drawlist *dl = bb_pose_drawlist(p);

		ck_assert_int_eq(dl->count, 1);
		ck_assert_msg(dl->items[0].uvs[0].x == 16.0 * (1 + frames[k]),
		              "t %g: frame at u %g, expected %d", times[k],
		              dl->items[0].uvs[0].x, 16 * (1 + frames[k]));
		bb_pose_free(p);
	}
	bb_model_free(m);
}
END_TEST

/* Two-colour tint: light (1, 0, 0), dark (0, 0, 1) over the grey (0.5)
 * cell: r = 0.5 * 1 + (1 - 0.5) * 0 = 0.5, g = 0, b = 0.5 * 0 + 0.5 * 1 =
 * 0.5: pixel (128, 0, 128).  An rgba2 key at t = 1 to light (0, 1, 0) and
 * dark (0, 0, 0), linear: at t = 0.5 light (0.5, 0.5, 0), dark (0, 0, 0.5). */
START_TEST(two_colour_tint)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"}],"
	                   "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"g\","
	                   "\"color\":\"ff0000ff\",\"dark\":\"0000ff\"}],"
	                   "\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"g\":{"
	                   "\"width\":16,\"height\":16}}}}],"
	                   "\"animations\":{\"a\":{\"slots\":{\"s\":{\"rgba2\":["
	                   "{\"light\":\"ff0000ff\",\"dark\":\"0000ff\"},"
	                   "{\"time\":1,\"light\":\"00ff00ff\",\"dark\":\"000000\"}]}}}}}");
	bb_pose *p = pose_at(m, "a", 0, NULL);
	bb_renderer *r;
	bb_image *img;
	bb_error err;
	bb_view v = { 0 };
	bb_color_xform c;
	const uint8_t *px;

	ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(16, 16, &img, &err), BB_OK);
	v.scale = 1;
	v.origin_x = 8;
	v.origin_y = 8;
	ck_assert_int_eq(bb_render(r, bb_pose_drawlist(p), &v, img, &err), BB_OK);
	px = bb_image_pixel(img, 8, 8);
	ck_assert_msg(abs(px[0] - 128) <= 1 && px[1] == 0 && abs(px[2] - 128) <= 1 &&
	              px[3] == 255, "pixel %d %d %d %d, expected 128 0 128 255",
	              px[0], px[1], px[2], px[3]);
	bb_image_free(img);
	bb_renderer_free(r);
	bb_pose_free(p);
	p = pose_at(m, "a", 0.5, NULL);
	c = bb_pose_slot_color(p, 0);
	NEAR(c.mul.r, 0.5, 1e-9);
	NEAR(c.mul.g, 0.5, 1e-9);
	NEAR(c.mul.b, 0, 1e-9);
	NEAR(c.dark.b, 0.5, 1e-9);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* A pma: true page is kept as its file holds it (only reordered into
 * cairo's ARGB32) and a straight page is premultiplied when loaded (200 *
 * 128 / 255 = 100.4 -> 100, ...), so both models' textures hold the same
 * premultiplied ARGB32 words, flagged, and draw
 * the same pixels smaller, at their size and larger, under every filter. */
START_TEST(pma_page_every_filter)
{
	static const char doc[] = HEAD "\"bones\":[{\"name\":\"root\"}],"
	                          "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"g\"}],"
	                          "\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"g\":{"
	                          "\"width\":16,\"height\":16}}}}]}";
	static const double scales[3] = { 0.25, 1, 2.5 };
	bb_model *ms = load_with(doc, "s.atlas"), *mp = load_with(doc, "p.atlas");
	bb_pose *ps = pose_at(ms, NULL, 0, NULL), *pp = pose_at(mp, NULL, 0, NULL);
	bb_image *a, *b;
	bb_renderer *r;
	bb_error err;
	int f, k, x, y, c;

	for (k = 0; k < 2; k++) {
		const bb_drawlist *dl = bb_pose_drawlist(k ? pp : ps);
		const bb_image *t;

		ck_assert_int_eq(dl->count, 1);
		t = dl->items[0].texture;
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(t->premultiplied, 1);
		ck_assert_int_eq(t->argb32, 1);
		for (y = 0; y < 16; y++)
			for (x = 0; x < 16; x++) {
				uint32_t want = (uint32_t)premultiplied[3] << 24 |
				                (uint32_t)premultiplied[0] << 16 |
				                (uint32_t)premultiplied[1] << 8 | premultiplied[2];
				uint32_t got;

				memcpy(&got, bb_image_pixel(t, x, y), 4);
				ck_assert_uint_eq(got, want);
			}
	}
	ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(48, 48, &a, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(48, 48, &b, &err), BB_OK);
	for (k = 0; k < 3; k++)
		for (f = BB_FILTER_FAST; f <= BB_FILTER_BEST; f++) {
			bb_view v = { 0 };
			const uint8_t *px = bb_image_pixel(b, 24, 24);

			v.scale = scales[k];
			v.origin_x = v.origin_y = 24;
			v.filter = (bb_filter)f;
			ck_assert_int_eq(bb_render(r, bb_pose_drawlist(ps), &v, a, &err), BB_OK);
			ck_assert_int_eq(bb_render(r, bb_pose_drawlist(pp), &v, b, &err), BB_OK);
			ck_assert_msg(abs(px[0] - 200) <= 2 && abs(px[1] - 100) <= 2 &&
			              abs(px[2] - 50) <= 2 && px[3] == 128, "scale %g, filter "
			              "%d: %d %d %d %d", v.scale, f, px[0], px[1], px[2], px[3]);
			for (y = 0; y < 48; y++)
				for (x = 0; x < 48; x++)
					for (c = 0; c < 4; c++) {
						int d = bb_image_pixel(a, x, y)[c] - bb_image_pixel(b, x, y)[c];

						ck_assert_msg(d == 0, "scale %g, filter %d: pixel "
						              "%d,%d channel %d differs by %d", v.scale, f,
						              x, y, c, d);
					}
		}
	bb_image_free(a);
	bb_image_free(b);
	bb_renderer_free(r);
	bb_pose_free(ps);
	bb_pose_free(pp);
	bb_model_free(ms);
	bb_model_free(mp);
}
END_TEST

/* A 4.x Bezier on a rotation from 0 to 90 degrees over 1 s with handles
 * (0.25, 0) and (0.75, 90): the curve is symmetric about its middle, so
 * at t = 0.5 it passes 45 degrees exactly; the runtime's 9 flattened
 * points are symmetric too (forward differencing of a symmetric cubic),
 * so the sampled value at 0.5 is 45 up to float rounding.  At t = 0.1 the
 * curve is still flat: well below the linear 9 degrees. */
START_TEST(bezier_rotation)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"root\"}],"
	                   "\"animations\":{\"a\":{\"bones\":{\"b\":{\"rotate\":["
	                   "{\"curve\":[0.25,0,0.75,90]},{\"time\":1,\"value\":90}]}}}}}");
	bb_pose *p = pose_at(m, "a", 0.5, NULL);
	bb_affine b = bone(m, p, "b");

	/* y down: the rotation reads as atan2(-m.b, m.a) */
	NEAR(atan2(-b.b, b.a) * 180 / M_PI, 45, 1e-4);
	bb_pose_free(p);
	p = pose_at(m, "a", 0.1, NULL);
	b = bone(m, p, "b");
	ck_assert(atan2(-b.b, b.a) * 180 / M_PI < 5);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* A linked mesh takes its parent's vertices and triangles with its own
 * region: the parent on g (page x 0), the linked one on r (x 16): the
 * vertex with region uv (1, 0) samples page pixel (16 + 16, 0) = (32, 0).
 * A deform key on the parent moves vertex 1 from (10, 0) by (5, 0); with
 * `timelines` (the default) the linked mesh takes it: world x 15; with
 * "timelines": false it does not: 10. */
#define LINKED_DOC(tl) HEAD "\"bones\":[{\"name\":\"root\"}]," \
	"\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"lm\"}]," \
	"\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{" \
	"\"m\":{\"type\":\"mesh\",\"path\":\"g\",\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2]," \
	"\"vertices\":[0,0,10,0,0,10]}," \
	"\"lm\":{\"type\":\"linkedmesh\",\"parent\":\"m\",\"path\":\"r\"" tl "}}}}]," \
	"\"animations\":{\"a\":{\"attachments\":{\"default\":{\"s\":{\"m\":{\"deform\":[" \
	"{\"offset\":2,\"vertices\":[5,0]}]}}}}}}}"

START_TEST(linked_mesh)
{
	static const char *const docs[2] = { LINKED_DOC(""), LINKED_DOC(",\"timelines\":false") };
	static const double x1[2] = { 15, 10 };
	int k;

	for (k = 0; k < 2; k++) {
		bb_model *m = load(docs[k]);
		bb_pose *p = pose_at(m, "a", 0, NULL);
		const bb_drawlist *dl = bb_pose_drawlist(p);

		ck_assert_int_eq(dl->count, 1);
		ck_assert_int_eq(dl->items[0].kind, BB_DRAW_MESH);
		ck_assert_int_eq(dl->items[0].nverts, 3);
		NEAR(dl->items[0].uvs[1].x, 32, 1e-9);
		NEAR(dl->items[0].uvs[1].y, 0, 1e-9);
		NEAR(dl->items[0].verts[1].x, x1[k], 1e-9);
		ck_assert_str_eq(bb_pose_slot_display_name(p, 0), "lm");
		bb_pose_free(p);
		bb_model_free(m);
	}
}
END_TEST

/* 4.0 names the linked mesh's flag `deform` (4.1 renamed it `timelines`)
 * and keeps deform keys in the animation's top-level `deform` part:
 * "deform": false keeps the parent's key off the linked mesh (x 10), and
 * a 4.1 name in a 4.0 file means nothing (x 15). */
#define LINKED_DOC40(tl) "{\"skeleton\":{\"spine\":\"4.0.64\"}," \
	"\"bones\":[{\"name\":\"root\"}]," \
	"\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"lm\"}]," \
	"\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{" \
	"\"m\":{\"type\":\"mesh\",\"path\":\"g\",\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2]," \
	"\"vertices\":[0,0,10,0,0,10]}," \
	"\"lm\":{\"type\":\"linkedmesh\",\"parent\":\"m\",\"path\":\"r\"" tl "}}}}]," \
	"\"animations\":{\"a\":{\"deform\":{\"default\":{\"s\":{\"m\":[" \
	"{\"offset\":2,\"vertices\":[5,0]}]}}}}}}"

START_TEST(linked_mesh_40)
{
	static const char *const docs[3] = { LINKED_DOC40(""), LINKED_DOC40(",\"deform\":false"),
		LINKED_DOC40(",\"timelines\":false") };
	static const double x1[3] = { 15, 10, 15 };
	int k;

	for (k = 0; k < 3; k++) {
		bb_model *m = load(docs[k]);
		bb_pose *p = pose_at(m, "a", 0, NULL);
		const bb_drawlist *dl = bb_pose_drawlist(p);

		ck_assert_int_eq(dl->count, 1);
		NEAR(dl->items[0].verts[1].x, x1[k], 1e-9);
		bb_pose_free(p);
		bb_model_free(m);
	}
}
END_TEST

/* Path constraint, rotate mode chainScale: each bone is scaled along its x
 * axis so that it reaches the next position on the path.  A straight path
 * from (0, 0) to (200, 0), two bones of length 50 and a zero-length tip,
 * percent spacing 0.5: positions 0, 100, 200; each bone spans 100 where
 * its length is 50, so its x axis doubles (mix 1), or grows by 1.5 at
 * mixRotate 0.5 ((100 / 50 - 1) * 0.5 + 1).  Then a curved path, every
 * mix below 1 and the tip of zero length: the official runtime (spine-core
 * 4.2.119) puts the bones at the matrices below (Spine's a b c d x y). */
#define CHAIN_DOC(verts, lengths, mixes) HEAD "\"bones\":[{\"name\":\"root\"}," \
	"{\"name\":\"b1\",\"parent\":\"root\",\"length\":50,\"rotation\":10}," \
	"{\"name\":\"b2\",\"parent\":\"b1\",\"x\":50,\"length\":50}," \
	"{\"name\":\"b3\",\"parent\":\"b2\",\"x\":50,\"length\":0}]," \
	"\"slots\":[{\"name\":\"p\",\"bone\":\"root\",\"attachment\":\"path\"}]," \
	"\"path\":[{\"name\":\"pc\",\"bones\":[\"b1\",\"b2\",\"b3\"],\"target\":\"p\"," \
	"\"rotateMode\":\"chainScale\",\"spacingMode\":\"percent\"," mixes "}]," \
	"\"skins\":[{\"name\":\"default\",\"attachments\":{\"p\":{\"path\":{\"type\":\"path\"," \
	"\"constantSpeed\":true,\"vertexCount\":" verts "," lengths "}}}}]}"

START_TEST(path_chain_scale)
{
	static const double spine[3][6] = {
		{ 2.073307, -0.104587, 0.218038, 0.994516, 30.518566, 20.768532 },
		{ 1.904876, 0.031071, -0.059216, 0.999517, 142.065968, 30.220496 },
		{ 0.998395, 0.056632, -0.056632, 0.998395, 243.02279, 18.813393 }
	};
	static const char *const names[3] = { "b1", "b2", "b3" };
	bb_model *m = load(CHAIN_DOC("6", "\"lengths\":[200],\"vertices\":[-10,0,0,0,"
	                             "66.667,0,133.333,0,200,0,210,0]",
	                             "\"spacing\":0.5,\"mixRotate\":1"));
	bb_pose *p = pose_at(m, NULL, 0, NULL);
	int i;

	NEAR(bone(m, p, "b1").a, 2, 1e-4);
	NEAR(bone(m, p, "b1").b, 0, 1e-4);
	NEAR(bone(m, p, "b2").tx, 100, 1e-3);
	NEAR(bone(m, p, "b2").a, 2, 1e-4);
	NEAR(bone(m, p, "b3").tx, 200, 1e-3);
	bb_pose_free(p);
	bb_model_free(m);
	m = load(CHAIN_DOC("6", "\"lengths\":[200],\"vertices\":[-10,0,0,0,"
	                   "66.667,0,133.333,0,200,0,210,0]",
	                   "\"spacing\":0.5,\"mixRotate\":0.5"));
	p = pose_at(m, NULL, 0, NULL);
	NEAR(hypot(bone(m, p, "b1").a, bone(m, p, "b1").b), 1.5, 1e-4);
	bb_pose_free(p);
	bb_model_free(m);
	m = load(CHAIN_DOC("9", "\"lengths\":[250,500],\"vertices\":[-10,0,0,0,60,40,"
	                   "140,80,200,0,260,-40,300,100,400,0,410,0]",
	                   "\"spacing\":0.3,\"position\":0.1,\"mixRotate\":0.7,"
	                   "\"mixX\":0.8,\"mixY\":0.9"));
	p = pose_at(m, NULL, 0, NULL);
	for (i = 0; i < 3; i++) {
		bb_affine b = bone(m, p, names[i]);

		NEAR(b.a, spine[i][0], 1e-5);
		NEAR(b.b, -spine[i][2], 1e-5);
		NEAR(b.c, spine[i][1], 1e-5);
		NEAR(b.d, -spine[i][3], 1e-5);
		NEAR(b.tx, spine[i][4], 1e-4);
		NEAR(b.ty, -spine[i][5], 1e-4);
	}
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

/* Physics at 60 Hz sampled at 60 fps: frame i has had exactly i steps,
 * whatever the floating point of i / 60 (before, steps were counted by
 * summing times, and some frames skipped one and the next doubled it).
 * The mover jumps from x = 0 to 10 at t = 0.5 (step 30); with inertia 1
 * step 30 takes the whole move as the offset x = -10, then every step k
 * runs the spring: v += (0 - x * 100) * h; x += v * h (damping 1, mass 1,
 * h = 1/60).  The bone is drawn at 10 + x. */
START_TEST(physics_step_count)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"mover\",\"parent\":\"root\"},"
	                   "{\"name\":\"b\",\"parent\":\"mover\",\"length\":10}],"
	                   "\"physics\":[{\"name\":\"ph\",\"bone\":\"b\",\"x\":1,\"fps\":60,"
	                   "\"inertia\":1,\"strength\":100,\"damping\":1,\"mass\":1}],"
	                   "\"animations\":{\"jump\":{\"bones\":{\"mover\":{\"translate\":["
	                   "{\"curve\":\"stepped\"},{\"time\":0.5,\"x\":10},{\"time\":2,\"x\":10}]}}}}}");
	double h = 1 / 60.0, x = 0, v = 0;
	int i;

	for (i = 0; i < 90; i++) {
		bb_pose *p = pose_at(m, "jump", i / 60.0, NULL);

		if (i >= 30) {
			if (i == 30)
				x = -10;
			v += (0 - x * 100) * h;
			x += v * h;
		}
		ck_assert_msg(fabs(bone(m, p, "b").tx - (i >= 30 ? 10 + x : 0)) < 1e-9,
		              "frame %d: x = %.9g, expected %.9g after %d steps", i,
		              bone(m, p, "b").tx, i >= 30 ? 10 + x : 0, i);
		bb_pose_free(p);
	}
	bb_model_free(m);
}
END_TEST

/* One pose evaluated frame after frame steps its physics on from its last
 * frame's springs: every frame's bone is bit for bit the one a new pose
 * evaluating that frame alone gives (forwards with gaps, across the
 * reset keys at 1 and 1.01 s, backwards, and with other options), at
 * times on the steps' clock and off it, with and without a looping
 * track.  Physics at 90 Hz sampled at 30 fps: frame i / 30 is often an
 * ulp short of step 3i's time i * 3 / 90, so that step runs at the
 * frame's time, not the step's, and is not one a later frame shares. */
#define PHYS_MODEL(HZ) HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"mover\",\"parent\":\"root\"}," \
	"{\"name\":\"b\",\"parent\":\"mover\",\"length\":10}]," \
	"\"physics\":[{\"name\":\"ph\",\"bone\":\"b\",\"x\":1,\"rotate\":1," \
	"\"fps\":" #HZ ",\"inertia\":0.5,\"strength\":100,\"damping\":0.9,\"mass\":1}]," \
	"\"animations\":{\"jump\":{\"bones\":{\"mover\":{\"translate\":[" \
	"{\"x\":0},{\"time\":0.5,\"x\":10,\"y\":3},{\"time\":1.5,\"x\":-4}]," \
	"\"rotate\":[{\"value\":0},{\"time\":1.2,\"value\":40}]}}," \
	"\"physics\":{\"ph\":{\"reset\":[{\"time\":1},{\"time\":1.01}]}}}}}"

START_TEST(physics_steps_on)
{
	static const int frames[] = { 0, 3, 5, 7, 8, 30, 31, 45, 59, 60, 61, 89, 40, 41, 150 };
	static const char *const models[] = { PHYS_MODEL(60), PHYS_MODEL(90) };
	static const int on_clock[] = { 60, 30 };
	int k, loop, flip, fps, mi;
	bb_error err;

	for (mi = 0; mi < 2; mi++) {
		bb_model *m = load(models[mi]);
		int arm = bb_model_default_armature(m);

		for (loop = 1; loop <= 2; loop++) {
			bb_track tr = { 0, 0, -1, 0, loop, 0 };
			bb_pose *kept;

			tr.anim = bb_model_find_anim(m, arm, "jump");
			ck_assert_int_eq(bb_pose_new(m, arm, &kept, &err), BB_OK);
			for (flip = 0; flip < 4; flip++)
				for (k = 0; k < (int)(sizeof frames / sizeof frames[0]); k++) {
					bb_eval_options o;
					bb_pose *fresh;
					bb_affine a, b;

					memset(&o, 0, sizeof o);
					o.flip = flip & 1;
					/* on the steps' clock (or a divisor), and off it */
					fps = flip < 2 ? on_clock[mi] : 97;
					ck_assert_int_eq(bb_pose_eval(kept, &tr, 1, frames[k] / (double)fps,
					                              &o, &err), BB_OK);
					ck_assert_int_eq(bb_pose_new(m, arm, &fresh, &err), BB_OK);
					ck_assert_int_eq(bb_pose_eval(fresh, &tr, 1, frames[k] / (double)fps,
					                              &o, &err), BB_OK);
					a = bone(m, kept, "b");
					b = bone(m, fresh, "b");
					ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "model %d loop %d "
					              "flip %d frame %d: %.17g %.17g / %.17g %.17g", mi,
					              loop, flip, frames[k], a.tx, a.a, b.tx, b.a);
					bb_pose_free(fresh);
				}
			bb_pose_free(kept);
		}
		bb_model_free(m);
	}
}
END_TEST

/* Skin-required bones and constraints (Spine's Skeleton.updateCache): arm
 * and hand are skin-required, the skin "armed" lists hand (which activates
 * its parent arm too) and the IK constraint "reach" (skin-required: it
 * turns the free bone towards the target).  Without the skin: arm and hand
 * inactive, the slot on hand not drawn, reach not applied; with it: both
 * active, the slot drawn, free turned by 90 degrees towards (0, 10). */
START_TEST(skin_required)
{
	bb_model *m = load(HEAD "\"bones\":[{\"name\":\"root\"},"
	                   "{\"name\":\"arm\",\"parent\":\"root\",\"skin\":true},"
	                   "{\"name\":\"hand\",\"parent\":\"arm\",\"x\":5,\"skin\":true},"
	                   "{\"name\":\"free\",\"parent\":\"root\",\"length\":10},"
	                   "{\"name\":\"target\",\"parent\":\"root\",\"y\":10}],"
	                   "\"slots\":[{\"name\":\"s\",\"bone\":\"hand\",\"attachment\":\"g\"},"
	                   "{\"name\":\"t\",\"bone\":\"free\",\"attachment\":\"g\"}],"
	                   "\"ik\":[{\"name\":\"reach\",\"bones\":[\"free\"],\"target\":\"target\","
	                   "\"skin\":true}],"
	                   "\"skins\":[{\"name\":\"default\",\"attachments\":{"
	                   "\"s\":{\"g\":{\"width\":16,\"height\":16}},"
	                   "\"t\":{\"g\":{\"width\":16,\"height\":16}}}},"
	                   "{\"name\":\"armed\",\"bones\":[\"hand\"],\"ik\":[\"reach\"]}],"
	                   "\"animations\":{\"a\":{}}}");
	int arm = bb_model_default_armature(m);
	int b_arm = bb_model_find_bone(m, arm, "arm"), b_hand = bb_model_find_bone(m, arm, "hand");
	int b_free = bb_model_find_bone(m, arm, "free");
	bb_eval_options o = { 0 };
	bb_pose *p = pose_at(m, "a", 0, NULL);
	const bb_drawlist *dl = bb_pose_drawlist(p);

	ck_assert_int_eq(bb_pose_bone_active(p, b_arm), 0);
	ck_assert_int_eq(bb_pose_bone_active(p, b_hand), 0);
	ck_assert_int_eq(bb_pose_bone_active(p, b_free), 1);
	ck_assert_int_eq(dl->count, 1);
	ck_assert_int_eq(dl->items[0].slot, 1);
	ck_assert_ptr_null(bb_pose_slot_display_name(p, 0));
	NEAR(bone(m, p, "free").a, 1, 1e-9);
	bb_pose_free(p);
	o.skin = bb_model_find_skin(m, arm, "armed");
	ck_assert_int_gt(o.skin, 0);
	p = pose_at(m, "a", 0, &o);
	dl = bb_pose_drawlist(p);
	ck_assert_int_eq(bb_pose_bone_active(p, b_arm), 1);
	ck_assert_int_eq(bb_pose_bone_active(p, b_hand), 1);
	ck_assert_int_eq(dl->count, 2);
	ck_assert_str_eq(bb_pose_slot_display_name(p, 0), "g");
	/* y up: the target at Spine (0, 10) turns free by +90 degrees; its x
	 * axis is Spine (0, 1), the pose's (0, -1) */
	NEAR(bone(m, p, "free").a, 0, 1e-9);
	NEAR(bone(m, p, "free").b, -1, 1e-9);
	bb_pose_free(p);
	bb_model_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("spine");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, write_files, remove_files);
	tcase_add_test(tc, builder_limits);
	tcase_add_test(tc, empty_mesh_deform);
	tcase_add_test(tc, inherit_modes);
	tcase_add_test(tc, path_constraint);
	tcase_add_test(tc, physics_spring);
	tcase_add_test(tc, sequence_frames);
	tcase_add_test(tc, two_colour_tint);
	tcase_add_test(tc, pma_page_every_filter);
	tcase_add_test(tc, bezier_rotation);
	tcase_add_test(tc, linked_mesh);
	tcase_add_test(tc, linked_mesh_40);
	tcase_add_test(tc, physics_step_count);
	tcase_add_test(tc, physics_steps_on);
	tcase_add_test(tc, path_chain_scale);
	tcase_add_test(tc, skin_required);
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
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
