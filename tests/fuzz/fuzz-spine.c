/* Fuzz target for the Spine loader with an atlas and for the atlas reader:
 * the first byte picks what is fuzzed (even: the atlas of the Spine sample
 * samples/spine/keeper.json, written beside a copy of its page; odd: a
 * Spine skeleton, loaded with the sample's atlas so that its attachments
 * find regions), the rest is its content.  Loads, evaluates every
 * animation at a few times, under every skin, and takes the draw list's
 * bounds.  Built with -DBB_LIBFUZZER and -fsanitize=fuzzer it is a
 * libFuzzer target; otherwise replay-main.c's main replays
 * tests/fuzz/corpus/spine in `make check`. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

#define SAMPLE TOP_SRCDIR "/samples/spine"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const bb_model *m)
{
	int arm = bb_model_default_armature(m), a, k, s;
	bb_pose *p = NULL;
	bb_error err;

	if (bb_pose_new(m, arm, &p, &err) != BB_OK)
		return;
	for (a = 0; a < bb_model_anim_count(m, arm) && a < 8; a++) {
		bb_anim_info ai;

		bb_model_anim_info(m, arm, a, &ai);
		for (s = 0; s < bb_model_skin_count(m, arm) && s < 3; s++)
			for (k = 0; k < 3; k++) {
				bb_track tr = { a, 0, -1, 0, 0, 0 };
				bb_eval_options o = { 0 };

				o.skin = s;
				o.show_bones = k == 1;
				if (s > 0) {
					o.skin = 0;
					o.more_skins[o.n_more_skins++] = s;
				}
				if (bb_pose_eval(p, &tr, 1, ai.duration * k / 2.0, &o, &err) == BB_OK)
					(void)bb_drawlist_bounds(bb_pose_drawlist(p));
			}
	}
	bb_pose_free(p);
}

static char page_folder[] = "/tmp/bb-fuzz-spine-XXXXXX";

static void remove_dir(void)
{
	char path[64];

	snprintf(path, sizeof path, "%s/keeper.png", page_folder);
	unlink(path);
	rmdir(page_folder);
}

/* A folder holding a copy of the sample's page, made once (removed at
 * exit). */
static const char *page_dir(void)
{
	static int made;
	char path[64], buf[65536];
	FILE *in, *out;
	size_t n;

	if (made)
		return made > 0 ? page_folder : NULL;
	made = -1;
	if (!mkdtemp(page_folder))
		return NULL;
	atexit(remove_dir);
	snprintf(path, sizeof path, "%s/keeper.png", page_folder);
	in = fopen(SAMPLE "/keeper.png", "rb");
	out = fopen(path, "wb");
	if (in && out) {
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			fwrite(buf, 1, n, out);
		made = 1;
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return made > 0 ? page_folder : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;
	char atlas[96];
	const char *dir;
	FILE *f;

	if (size < 1)
		return 0;
	lo.max_file_bytes = 1 << 20;
	lo.max_bones = 512;
	lo.max_keys = 20000;
	if (data[0] % 2 == 1) {
		lo.atlas_path = SAMPLE "/keeper.atlas";
		if (bb_model_load_buffer(data + 1, size - 1, SAMPLE "/fuzz.json", &lo, &m,
		                         &err) == BB_OK)
			exercise(m);
		bb_model_free(m);
		return 0;
	}
	if (!(dir = page_dir()))
		return 0;
	snprintf(atlas, sizeof atlas, "%s/fuzz.atlas", dir);
	if (!(f = fopen(atlas, "wb")))
		return 0;
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	lo.atlas_path = atlas;
	if (bb_model_load(SAMPLE "/keeper.json", &lo, &m, &err) == BB_OK)
		exercise(m);
	bb_model_free(m);
	unlink(atlas);
	return 0;
}
