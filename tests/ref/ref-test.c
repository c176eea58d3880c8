/* Reference-image tests, cairo style: each case renders one frame through
 * the library, writes <name>.out.png (and <name>.diff.png when it differs)
 * into the build tree, and compares with tests/ref/<name>.ref.png using the
 * project's own diff (bb_diff_images) at the case's explicit tolerance.
 * BB_UPDATE_REFS=1 rewrites the references instead (scripts/update-refs:
 * look at the .out.png files first). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bonebake/bonebake.h"

struct ref_case {
	const char *name;
	const char *file;          /* relative to the source tree */
	const char *anim;
	double t;
	const char *skin;          /* NULL: default */
	int flip;
	const char *overlay;       /* upper-body overlay, starts at 0 */
	const char *face;          /* face layer, starts at 0 */
	const char *set_slot, *set_variant;
	/* tolerance: YIQ threshold and differing-pixel budget */
	double threshold;
	long max_diff_pixels;
	/* view: scale and origin pixel (0: 0.8 and the default origin) */
	double scale, origin_x, origin_y;
	bb_view3d_kind view3d;     /* how 3D solids are seen (0: iso) */
};

#define H "samples/humanoid.json"
/* tolerance (YIQ threshold, differing-pixel budget) and default view */
#define TOL .threshold = 0.1, .max_diff_pixels = 40
/* same tolerance, view scale and origin pixel */
#define TOLV(s, x, y) TOL, .scale = s, .origin_x = x, .origin_y = y
/* same tolerance, default 2D view, a 3D view */
#define TOL3D(v) TOL, .view3d = v

static const struct ref_case cases[] = {
	{ .name = "humanoid-idle-0", .file = H, .anim = "idle", .t = 0, TOL },
	{ .name = "humanoid-idle-1.2", .file = H, .anim = "idle", .t = 1.2, TOL },
	{ .name = "humanoid-walk-0.2", .file = H, .anim = "walk", .t = 0.2, TOL },
	{ .name = "humanoid-walk-0.6", .file = H, .anim = "walk", .t = 0.6, TOL },
	{ .name = "humanoid-walk-0.2-back", .file = H, .anim = "walk", .t = 0.2, .skin = "back", TOL },
	{ .name = "humanoid-run-0.125", .file = H, .anim = "run", .t = 0.125, TOL },
	{ .name = "humanoid-run-0.375-back", .file = H, .anim = "run", .t = 0.375, .skin = "back", TOL },
	{ .name = "humanoid-attack-0.1667", .file = H, .anim = "attack", .t = 0.1667, TOL },
	{ .name = "humanoid-attack-0.3333", .file = H, .anim = "attack", .t = 0.3333, TOL },
	{ .name = "humanoid-attack-0.3333-back", .file = H, .anim = "attack", .t = 0.3333, .skin = "back", TOL },
	{ .name = "humanoid-jump-0.175", .file = H, .anim = "jump", .t = 0.175, TOL },
	{ .name = "humanoid-jump-0.35", .file = H, .anim = "jump", .t = 0.35, TOL },
	{ .name = "humanoid-spin-0.2", .file = H, .anim = "spin", .t = 0.2, TOL },
	{ .name = "humanoid-spin-0.4-back", .file = H, .anim = "spin", .t = 0.4, .skin = "back", TOL },
	{ .name = "humanoid-jump_slash-0.4", .file = H, .anim = "jump_slash", .t = 0.4, TOL },
	{ .name = "humanoid-jump_slash-0.5333", .file = H, .anim = "jump_slash", .t = 0.5333, TOL },
	{ .name = "humanoid-blink-0.1", .file = H, .anim = "blink", .t = 0.1, TOL },
	{ .name = "humanoid-talk-0.125", .file = H, .anim = "talk", .t = 0.125, TOL },
	{ .name = "humanoid-surprised-0.3", .file = H, .anim = "surprised", .t = 0.3, TOL },
	{ .name = "humanoid-walk+attack-0.2", .file = H, .anim = "walk", .t = 0.2, .overlay = "attack", TOL },
	{ .name = "humanoid-run+talk-flip", .file = H, .anim = "run", .t = 0.1, .flip = 1, .face = "talk", TOL },
	{ .name = "humanoid-idle-fist", .file = H, .anim = "idle", .t = 0, .set_slot = "hand_L", .set_variant = "fist", TOL },
	{ .name = "slime-bounce-0.2667", .file = "samples/slime.json", .anim = "bounce", .t = 0.2667, TOL },
	{ .name = "slime-bounce-0.5333-back", .file = "samples/slime.json", .anim = "bounce", .t = 0.5333, .skin = "back", TOL },
	{ .name = "snake-slither-0.25", .file = "samples/snake.json", .anim = "slither", .t = 0.25, TOL },
	{ .name = "snake-strike-0.3", .file = "samples/snake.json", .anim = "strike", .t = 0.3, TOL },
	/* Cocos: ExportJson (plist with rotated/trimmed frames, eases, colour,
	 * nested "Fan", display -1) and XML (keys in armature space,
	 * TextureAtlas, nested "Eye", colorTransform) */
#define LAMP "samples/cocos/lamp.ExportJson"
#define BIRD "samples/cocos/bird.xml"
	{ .name = "cocos-lamp-nod-0", .file = LAMP, .anim = "nod", .t = 0, TOLV(0.8, 105, 118) },
	{ .name = "cocos-lamp-nod-0.2", .file = LAMP, .anim = "nod", .t = 0.2, TOLV(0.8, 105, 118) },
	{ .name = "cocos-lamp-nod-0.45", .file = LAMP, .anim = "nod", .t = 0.45, TOLV(0.8, 105, 118) },
	{ .name = "cocos-lamp-reach-0.6", .file = LAMP, .anim = "reach", .t = 0.6, TOLV(0.8, 105, 118) },
	{ .name = "cocos-lamp-reach-1.3", .file = LAMP, .anim = "reach", .t = 1.3, TOLV(0.8, 105, 118) },
	{ .name = "cocos-bird-flap-0", .file = BIRD, .anim = "flap", .t = 0, TOLV(1.2, 120, 140) },
	{ .name = "cocos-bird-flap-0.1", .file = BIRD, .anim = "flap", .t = 0.1, TOLV(1.2, 120, 140) },
	{ .name = "cocos-bird-flap-0.2", .file = BIRD, .anim = "flap", .t = 0.2, TOLV(1.2, 120, 140) },
	/* DragonBones: trimmed/rotated/pivoted images, colour transform, add
	 * blend, IK, nested armature, z-order, display switch; weighted mesh
	 * and FFD */
#define RIG "samples/dragonbones/rig_ske.json"
#define MESH "samples/dragonbones/mesh_ske.json"
	{ .name = "db-rig-wave-0", .file = RIG, .anim = "wave", .t = 0, TOLV(1, 120, 215) },
	{ .name = "db-rig-wave-6", .file = RIG, .anim = "wave", .t = 6 / 24.0, TOLV(1, 120, 215) },
	{ .name = "db-rig-wave-15", .file = RIG, .anim = "wave", .t = 15 / 24.0, TOLV(1, 120, 215) },
	{ .name = "db-rig-wave-19", .file = RIG, .anim = "wave", .t = 19 / 24.0, TOLV(1, 120, 215) },
	{ .name = "db-rig-idle-30", .file = RIG, .anim = "idle", .t = 30 / 24.0, TOLV(1, 120, 215) },
	{ .name = "db-mesh-wave-0", .file = MESH, .anim = "wave", .t = 0, TOLV(1.2, 125, 220) },
	{ .name = "db-mesh-wave-12", .file = MESH, .anim = "wave", .t = 12 / 24.0, TOLV(1.2, 125, 220) },
	{ .name = "db-mesh-ripple-4", .file = MESH, .anim = "ripple", .t = 4 / 24.0, TOLV(1.2, 125, 220) },
	/* DragonBones 2.3: global-space keys under a rotated, scaled parent,
	 * a key between the parent's keys (work 2), z change, display switch
	 * and colour (work 4), index -1 and a slot without timeline (nod 3) */
#define OLD "samples/dragonbones/old_ske.json"
	{ .name = "db23-crane-work-0", .file = OLD, .anim = "work", .t = 0, TOLV(1.4, 80, 205) },
	{ .name = "db23-crane-work-2", .file = OLD, .anim = "work", .t = 2 * 3 / 24.0, TOLV(1.4, 80, 205) },
	{ .name = "db23-crane-work-4", .file = OLD, .anim = "work", .t = 4 * 3 / 24.0, TOLV(1.4, 80, 205) },
	{ .name = "db23-crane-nod-3", .file = OLD, .anim = "nod", .t = 3 * 2 / 24.0, TOLV(1.4, 80, 205) },
	/* SSAJSON: demo_fx frame k shows alpha blend k % 4 over a backdrop, a
	 * deformed quad and vertex colours with colour blend k % 4; demo_walk:
	 * flips, pivots, scale, opacity, additive glow */
#define SSA "samples/ssajson/demo.json"
	{ .name = "ssa-fx-0-mix", .file = SSA, .anim = "demo_fx", .t = 0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-fx-1-multiply", .file = SSA, .anim = "demo_fx", .t = 1 / 10.0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-fx-2-add", .file = SSA, .anim = "demo_fx", .t = 2 / 10.0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-fx-3-subtract", .file = SSA, .anim = "demo_fx", .t = 3 / 10.0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-fx-4-deform", .file = SSA, .anim = "demo_fx", .t = 4 / 10.0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-fx-5-absent", .file = SSA, .anim = "demo_fx", .t = 5 / 10.0, TOLV(1.8, 120, 120) },
	{ .name = "ssa-walk-0", .file = SSA, .anim = "demo_walk", .t = 0, TOLV(2, 120, 200) },
	{ .name = "ssa-walk-3", .file = SSA, .anim = "demo_walk", .t = 3 / 12.0, TOLV(2, 120, 200) },
	/* Forge: the lid box of samples/forge, textured cuboids moved by two
	 * joints (a hinge about an origin, offset, spin, scale) */
#define LIDBOX "samples/forge/assets/bbsample/armatures/block/lidbox.json"
	{ .name = "forge-lidbox-open-0.5-iso", .file = LIDBOX, .anim = "open", .t = 0.5, TOL3D(BB_VIEW3D_ISO) },
	{ .name = "forge-lidbox-open-0.5-front", .file = LIDBOX, .anim = "open", .t = 0.5, TOL3D(BB_VIEW3D_FRONT) },
	{ .name = "forge-lidbox-idle-0.375-iso", .file = LIDBOX, .anim = "idle", .t = 0.375, TOL3D(BB_VIEW3D_ISO) },
	{ .name = "forge-lidbox-idle-0.125-left", .file = LIDBOX, .anim = "idle", .t = 0.125, TOL3D(BB_VIEW3D_LEFT) },
	/* Spine: IK arm, local relative transform constraint (eye), weighted
	 * mesh banner, noRotationOrReflection lamp with a clipping window over
	 * an additive two-colour glow and a flame sequence, a path constraint
	 * tail, a physics antenna, skin "gold", a draw-order key */
#define KEEPER "samples/spine/keeper.json"
	{ .name = "spine-keeper-idle-0", .file = KEEPER, .anim = "idle", .t = 0, TOLV(1, 120, 228) },
	{ .name = "spine-keeper-idle-1", .file = KEEPER, .anim = "idle", .t = 1, TOLV(1, 120, 228) },
	{ .name = "spine-keeper-idle-0.3-gold", .file = KEEPER, .anim = "idle", .t = 0.3, .skin = "gold", TOLV(1, 120, 228) },
	{ .name = "spine-keeper-reach-0.5", .file = KEEPER, .anim = "reach", .t = 0.5, TOLV(1, 120, 228) },
};

enum { W = 240, HGT = 240 };

static int render_case(const struct ref_case *c, bb_image **out)
{
	char path[4096];
	bb_model *m = NULL;
	bb_pose *pose = NULL;
	bb_renderer *r = NULL;
	bb_scene sc = { 0 };
	bb_track tr[BB_MAX_TRACKS];
	bb_view view = { 0 };
	bb_error err;
	int n = 0, ok = 0, arm;

	snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR, c->file);
	*out = NULL;
	if (bb_model_load(path, NULL, &m, &err) != BB_OK)
		goto fail;
	/* the scene as `bonebake render` builds it: layers start at 0 */
	arm = sc.armature = bb_model_default_armature(m);
	sc.anim = bb_model_find_anim(m, arm, c->anim);
	if (c->overlay) {
		sc.has_overlay = 1;
		sc.overlay = bb_model_find_anim(m, arm, c->overlay);
	}
	if (c->face) {
		sc.has_face = 1;
		sc.face = bb_model_find_anim(m, arm, c->face);
	}
	sc.eval.flip = c->flip;
	sc.eval.view3d.kind = c->view3d;
	if (c->skin)
		sc.eval.skin = bb_model_find_skin(m, arm, c->skin);
	if (c->set_slot) {
		sc.eval.n_overrides = 1;
		sc.eval.overrides[0].slot = bb_model_find_slot(m, arm, c->set_slot);
		sc.eval.overrides[0].display = bb_model_find_slot_display(
			m, arm, sc.eval.overrides[0].slot, c->set_variant);
	}
	if (bb_scene_tracks(m, &sc, tr, &n, &err) != BB_OK)
		goto fail;
	view.scale = c->scale > 0 ? c->scale : 0.8;
	view.origin_x = c->scale > 0 ? c->origin_x : W / 2.0;
	view.origin_y = c->scale > 0 ? c->origin_y : HGT * 0.55;
	if (bb_pose_new(m, arm, &pose, &err) != BB_OK ||
	    bb_pose_eval(pose, tr, n, c->t, &sc.eval, &err) != BB_OK ||
	    bb_renderer_new(&r, &err) != BB_OK ||
	    bb_image_new(W, HGT, out, &err) != BB_OK ||
	    bb_render(r, bb_pose_drawlist(pose), &view, *out, &err) != BB_OK)
		goto fail;
	ok = 1;
	goto done;
fail:
	{
		char buf[1024];

		bb_error_format(&err, buf, sizeof buf);
		fprintf(stderr, "%s: %s\n", c->name, buf);
	}
done:
	bb_renderer_free(r);
	bb_pose_free(pose);
	bb_model_free(m);
	return ok;
}

int main(void)
{
	const char *update = getenv("BB_UPDATE_REFS");
	const char *only = getenv("BB_REF_ONLY");   /* cases whose name has it */
	char outdir[2048];
	size_t i;
	int failures = 0, passed = 0;

	snprintf(outdir, sizeof outdir, "%s/tests/ref", TOP_BUILDDIR);
	mkdir(outdir, 0755);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct ref_case *c = &cases[i];
		char refp[4096], outp[4096], diffp[4096];
		bb_image *img, *ref = NULL, *diff = NULL;
		bb_diff_options o = { 0 };
		bb_diff_result res;
		bb_error err;
		bb_status s;

		if (only && only[0] && !strstr(c->name, only))
			continue;

		snprintf(refp, sizeof refp, "%s/tests/ref/images/%s.ref.png", TOP_SRCDIR, c->name);
		snprintf(outp, sizeof outp, "%s/%s.out.png", outdir, c->name);
		snprintf(diffp, sizeof diffp, "%s/%s.diff.png", outdir, c->name);
		if (!render_case(c, &img)) {
			failures++;
			continue;
		}
		bb_png_write(outp, img, NULL);
		if (update && strcmp(update, "1") == 0) {
			if (bb_png_write(refp, img, &err) != BB_OK) {
				fprintf(stderr, "%s: cannot write reference: %s\n", c->name,
				        err.message);
				failures++;
			} else {
				printf("updated %s\n", refp);
			}
			bb_image_free(img);
			continue;
		}
		if (bb_png_read(refp, &ref, &err) != BB_OK) {
			printf("FAIL %s: no reference (%s); run scripts/update-refs after "
			       "looking at %s\n", c->name, err.message, outp);
			failures++;
			bb_image_free(img);
			continue;
		}
		o.threshold_set = 1;
		o.threshold = c->threshold;
		/* the cases' tolerances were set on the YIQ scale */
		o.metric = BB_DIFF_METRIC_YIQ;
		s = bb_diff_images(ref, img, &o, &res, &diff, &err);
		if (s != BB_OK || res.diff_pixels > c->max_diff_pixels) {
			if (diff)
				bb_png_write(diffp, diff, NULL);
			printf("FAIL %s: %lld pixels differ (budget %ld, threshold %g)%s%s\n",
			       c->name, s == BB_OK ? res.diff_pixels : -1LL,
			       c->max_diff_pixels, c->threshold, s == BB_OK ? "" : ": ",
			       s == BB_OK ? "" : err.message);
			failures++;
		} else {
			printf("ok %s (%lld pixels differ, budget %ld)\n", c->name,
			       res.diff_pixels, c->max_diff_pixels);
			remove(diffp);
			passed++;
		}
		bb_image_free(diff);
		bb_image_free(ref);
		bb_image_free(img);
	}
	printf("%d passed, %d failed\n", passed, failures);
	return failures ? 1 : 0;
}
