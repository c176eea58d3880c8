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
#define TOL 0.1, 40, 0, 0, 0, 0
/* same tolerance, view scale and origin pixel */
#define TOLV(s, x, y) 0.1, 40, s, x, y, 0
/* same tolerance, default 2D view, a 3D view */
#define TOL3D(v) 0.1, 40, 0, 0, 0, v

static const struct ref_case cases[] = {
	{ "humanoid-idle-0", H, "idle", 0, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-idle-1.2", H, "idle", 1.2, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-walk-0.2", H, "walk", 0.2, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-walk-0.6", H, "walk", 0.6, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-walk-0.2-back", H, "walk", 0.2, "back", 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-run-0.125", H, "run", 0.125, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-run-0.375-back", H, "run", 0.375, "back", 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-attack-0.1667", H, "attack", 0.1667, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-attack-0.3333", H, "attack", 0.3333, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-attack-0.3333-back", H, "attack", 0.3333, "back", 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-jump-0.175", H, "jump", 0.175, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-jump-0.35", H, "jump", 0.35, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-spin-0.2", H, "spin", 0.2, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-spin-0.4-back", H, "spin", 0.4, "back", 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-jump_slash-0.4", H, "jump_slash", 0.4, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-jump_slash-0.5333", H, "jump_slash", 0.5333, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-blink-0.1", H, "blink", 0.1, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-talk-0.125", H, "talk", 0.125, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-surprised-0.3", H, "surprised", 0.3, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "humanoid-walk+attack-0.2", H, "walk", 0.2, NULL, 0, "attack", NULL, NULL, NULL, TOL },
	{ "humanoid-run+talk-flip", H, "run", 0.1, NULL, 1, NULL, "talk", NULL, NULL, TOL },
	{ "humanoid-idle-fist", H, "idle", 0, NULL, 0, NULL, NULL, "hand_L", "fist", TOL },
	{ "slime-bounce-0.2667", "samples/slime.json", "bounce", 0.2667, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "slime-bounce-0.5333-back", "samples/slime.json", "bounce", 0.5333, "back", 0, NULL, NULL, NULL, NULL, TOL },
	{ "snake-slither-0.25", "samples/snake.json", "slither", 0.25, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	{ "snake-strike-0.3", "samples/snake.json", "strike", 0.3, NULL, 0, NULL, NULL, NULL, NULL, TOL },
	/* Cocos: ExportJson (plist with rotated/trimmed frames, eases, colour,
	 * nested "Fan", display -1) and XML (keys in armature space,
	 * TextureAtlas, nested "Eye", colorTransform) */
#define LAMP "samples/cocos/lamp.ExportJson"
#define BIRD "samples/cocos/bird.xml"
	{ "cocos-lamp-nod-0", LAMP, "nod", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(0.8, 105, 118) },
	{ "cocos-lamp-nod-0.2", LAMP, "nod", 0.2, NULL, 0, NULL, NULL, NULL, NULL, TOLV(0.8, 105, 118) },
	{ "cocos-lamp-nod-0.45", LAMP, "nod", 0.45, NULL, 0, NULL, NULL, NULL, NULL, TOLV(0.8, 105, 118) },
	{ "cocos-lamp-reach-0.6", LAMP, "reach", 0.6, NULL, 0, NULL, NULL, NULL, NULL, TOLV(0.8, 105, 118) },
	{ "cocos-lamp-reach-1.3", LAMP, "reach", 1.3, NULL, 0, NULL, NULL, NULL, NULL, TOLV(0.8, 105, 118) },
	{ "cocos-bird-flap-0", BIRD, "flap", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 120, 140) },
	{ "cocos-bird-flap-0.1", BIRD, "flap", 0.1, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 120, 140) },
	{ "cocos-bird-flap-0.2", BIRD, "flap", 0.2, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 120, 140) },
	/* DragonBones: trimmed/rotated/pivoted images, colour transform, add
	 * blend, IK, nested armature, z-order, display switch; weighted mesh
	 * and FFD */
#define RIG "samples/dragonbones/rig_ske.json"
#define MESH "samples/dragonbones/mesh_ske.json"
	{ "db-rig-wave-0", RIG, "wave", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 215) },
	{ "db-rig-wave-6", RIG, "wave", 6 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 215) },
	{ "db-rig-wave-15", RIG, "wave", 15 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 215) },
	{ "db-rig-wave-19", RIG, "wave", 19 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 215) },
	{ "db-rig-idle-30", RIG, "idle", 30 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 215) },
	{ "db-mesh-wave-0", MESH, "wave", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 125, 220) },
	{ "db-mesh-wave-12", MESH, "wave", 12 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 125, 220) },
	{ "db-mesh-ripple-4", MESH, "ripple", 4 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.2, 125, 220) },
	/* DragonBones 2.3: global-space keys under a rotated, scaled parent,
	 * a key between the parent's keys (work 2), z change, display switch
	 * and colour (work 4), index -1 and a slot without timeline (nod 3) */
#define OLD "samples/dragonbones/old_ske.json"
	{ "db23-crane-work-0", OLD, "work", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.4, 80, 205) },
	{ "db23-crane-work-2", OLD, "work", 2 * 3 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.4, 80, 205) },
	{ "db23-crane-work-4", OLD, "work", 4 * 3 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.4, 80, 205) },
	{ "db23-crane-nod-3", OLD, "nod", 3 * 2 / 24.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.4, 80, 205) },
	/* SSAJSON: demo_fx frame k shows alpha blend k % 4 over a backdrop, a
	 * deformed quad and vertex colours with colour blend k % 4; demo_walk:
	 * flips, pivots, scale, opacity, additive glow */
#define SSA "samples/ssajson/demo.json"
	{ "ssa-fx-0-mix", SSA, "demo_fx", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-fx-1-multiply", SSA, "demo_fx", 1 / 10.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-fx-2-add", SSA, "demo_fx", 2 / 10.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-fx-3-subtract", SSA, "demo_fx", 3 / 10.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-fx-4-deform", SSA, "demo_fx", 4 / 10.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-fx-5-absent", SSA, "demo_fx", 5 / 10.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1.8, 120, 120) },
	{ "ssa-walk-0", SSA, "demo_walk", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(2, 120, 200) },
	{ "ssa-walk-3", SSA, "demo_walk", 3 / 12.0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(2, 120, 200) },
	/* Forge: the lid box of samples/forge, textured cuboids moved by two
	 * joints (a hinge about an origin, offset, spin, scale) */
#define LIDBOX "samples/forge/assets/bbsample/armatures/block/lidbox.json"
	{ "forge-lidbox-open-0.5-iso", LIDBOX, "open", 0.5, NULL, 0, NULL, NULL, NULL, NULL, TOL3D(BB_VIEW3D_ISO) },
	{ "forge-lidbox-open-0.5-front", LIDBOX, "open", 0.5, NULL, 0, NULL, NULL, NULL, NULL, TOL3D(BB_VIEW3D_FRONT) },
	{ "forge-lidbox-idle-0.375-iso", LIDBOX, "idle", 0.375, NULL, 0, NULL, NULL, NULL, NULL, TOL3D(BB_VIEW3D_ISO) },
	{ "forge-lidbox-idle-0.125-left", LIDBOX, "idle", 0.125, NULL, 0, NULL, NULL, NULL, NULL, TOL3D(BB_VIEW3D_LEFT) },
	/* Spine: IK arm, local relative transform constraint (eye), weighted
	 * mesh banner, noRotationOrReflection lamp with a clipping window over
	 * an additive two-colour glow and a flame sequence, a path constraint
	 * tail, a physics antenna, skin "gold", a draw-order key */
#define KEEPER "samples/spine/keeper.json"
	{ "spine-keeper-idle-0", KEEPER, "idle", 0, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 228) },
	{ "spine-keeper-idle-1", KEEPER, "idle", 1, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 228) },
	{ "spine-keeper-idle-0.3-gold", KEEPER, "idle", 0.3, "gold", 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 228) },
	{ "spine-keeper-reach-0.5", KEEPER, "reach", 0.5, NULL, 0, NULL, NULL, NULL, NULL, TOLV(1, 120, 228) },
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
