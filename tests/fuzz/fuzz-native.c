/* Fuzz target for the model loaders (sniffing picks the loader, so this one
 * target reaches every format): load a buffer, evaluate a few frames of every
 * animation, take the draw list's bounds.  Built with -DBB_LIBFUZZER and
 * -fsanitize=fuzzer it is a libFuzzer target; otherwise its main replays the
 * files (or folders of files) named on the command line, so `make check`
 * replays the saved corpus and crashers without libFuzzer. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

#ifndef BB_LIBFUZZER
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int replay(const char *path, int *count)
{
	struct stat st;
	struct dirent **list;
	int i, n, rc = 0;

	if (stat(path, &st) != 0)
		return 1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	n = scandir(path, &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char sub[4096];

		if (list[i]->d_name[0] != '.') {
			snprintf(sub, sizeof sub, "%s/%s", path, list[i]->d_name);
			rc |= replay(sub, count);
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0, count = 0;

	for (i = 1; i < argc; i++)
		rc |= replay(argv[i], &count);
	printf("replayed %d inputs\n", count);
	return rc;
}
#endif
