/* Fuzz target for the model loaders (sniffing picks the loader, so this one
 * target reaches every format): load a buffer, evaluate a few frames of every
 * animation, take the draw list's bounds.  Built with -DBB_LIBFUZZER and
 * -fsanitize=fuzzer it is a libFuzzer target; otherwise replay-main.c's
 * main replays the saved corpus and crashers in `make check`. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_pose *p = NULL;
	bb_error err;
	int a, n;

	lo.max_file_bytes = 1 << 20;
	lo.max_bones = 512;
	lo.max_keys = 20000;
	lo.placeholder = 1;    /* images the input names are never beside it */
	if (bb_model_load_buffer(data, size, "fuzz.json", &lo, &m, &err) != BB_OK)
		return 0;
	if (bb_pose_new(m, bb_model_default_armature(m), &p, &err) == BB_OK) {
		n = bb_model_anim_count(m, bb_model_default_armature(m));
		for (a = 0; a < n && a < 16; a++) {
			bb_anim_info ai;
			bb_track tr = { a, 0, -1, 0, 0, 0 };
			int k;

			bb_model_anim_info(m, bb_model_default_armature(m), a, &ai);
			for (k = 0; k < 4; k++) {
				bb_eval_options o = { 0 };

				o.show_bones = k & 1;
				o.flip = k == 2;
				if (bb_pose_eval(p, &tr, 1, ai.duration * k / 3.0, &o, &err) ==
				    BB_OK)
					(void)bb_drawlist_bounds(bb_pose_drawlist(p));
			}
		}
	}
	bb_pose_free(p);
	bb_model_free(m);
	return 0;
}
