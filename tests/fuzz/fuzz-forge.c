/* Fuzz target for the Forge loader, whose input is two files: the first
 * byte picks which one is fuzzed (even: the armature, with the sample's
 * block model; odd: the block model, with the sample's armature), the rest
 * is its content.  Loads, evaluates every clip at a few times in every
 * view, and takes the draw list's bounds.  Built with -DBB_LIBFUZZER and
 * -fsanitize=fuzzer it is a libFuzzer target; otherwise replay-main.c's
 * main replays tests/fuzz/corpus/forge in `make check`. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

#define SAMPLE TOP_SRCDIR "/samples/forge/assets/bbsample"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const bb_model *m)
{
	int arm = bb_model_default_armature(m), a, k, v;
	bb_pose *p = NULL;
	bb_error err;

	if (bb_pose_new(m, arm, &p, &err) != BB_OK)
		return;
	for (a = 0; a < bb_model_anim_count(m, arm) && a < 8; a++)
		for (k = 0; k < 3; k++)
			for (v = 0; v < 6; v++) {
				bb_track tr = { a, 0, -1, 0, 0, 0 };
				bb_eval_options o = { 0 };

				o.view3d.kind = (bb_view3d_kind)v;
				if (bb_pose_eval(p, &tr, 1, k / 3.0, &o, &err) == BB_OK)
					(void)bb_drawlist_bounds(bb_pose_drawlist(p));
			}
	bb_pose_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char tmp[] = "/tmp/bb-fuzz-forge-XXXXXX";
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;
	FILE *f;
	int fd;

	if (size < 1)
		return 0;
	lo.max_file_bytes = 1 << 20;
	lo.max_bones = 512;
	lo.max_keys = 20000;
	if (data[0] % 2 == 0) {
		lo.model_path = SAMPLE "/models/block/lidbox.json";
		if (bb_model_load_buffer(data + 1, size - 1, SAMPLE "/armatures/block/fuzz.json",
		                         &lo, &m, &err) == BB_OK)
			exercise(m);
		bb_model_free(m);
		return 0;
	}
	/* the model is read from a file: write it next to nothing else */
	fd = mkstemp(tmp);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "wb");
	if (f) {
		fwrite(data + 1, 1, size - 1, f);
		fclose(f);
		lo.model_path = tmp;
		lo.assets_dir = TOP_SRCDIR "/samples/forge";
		if (bb_model_load(SAMPLE "/armatures/block/lidbox.json", &lo, &m, &err) == BB_OK)
			exercise(m);
		bb_model_free(m);
	} else {
		close(fd);
	}
	unlink(tmp);
	return 0;
}
