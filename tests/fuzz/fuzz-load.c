/* Fuzz targets for the loaders, one binary per define (tests/fuzz/local.mk):
 *   FUZZ_FORMAT "name"   the input is a document of that loader (no sniff);
 *                        unset: sniffing picks the loader (fuzz-native)
 *   FUZZ_MAIN "path"     with FUZZ_REF: the input is the file FUZZ_REF that
 *   FUZZ_REF "name"      the sample FUZZ_MAIN refers to (an atlas, a plist),
 *                        or the sample itself, put beside a copy of the
 *                        sample's folder
 * Each input is loaded, every animation (up to 16) evaluated at a few times
 * with and without flip and bone markers, under its first skins (one of
 * them layered over another), the draw list bounded and one frame
 * rasterized on a small canvas.  Built with -DBB_LIBFUZZER and
 * -fsanitize=fuzzer it is a libFuzzer target; otherwise replay-main.c's
 * main replays saved inputs in `make check`. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const bb_model *m)
{
	int arm = bb_model_default_armature(m), a, k, n;
	int skins = bb_model_skin_count(m, arm);
	bb_renderer *r = NULL;
	bb_image *img = NULL;
	bb_pose *p = NULL;
	bb_error err;

	if (bb_pose_new(m, arm, &p, &err) != BB_OK)
		return;
	if (bb_renderer_new(&r, &err) != BB_OK || bb_image_new(64, 64, &img, &err) != BB_OK)
		goto done;
	n = bb_model_anim_count(m, arm);
	for (a = 0; a < n && a < 16; a++) {
		bb_anim_info ai;
		bb_track tr = { a, 0, -1, 0, 0, 0 };

		bb_model_anim_info(m, arm, a, &ai);
		for (k = 0; k < 4; k++) {
			bb_eval_options o = { 0 };
			bb_view v = { 0 };

			o.show_bones = k & 1;
			o.flip = k == 2;
			o.view3d.kind = (bb_view3d_kind)(k % 6);
			if (skins > 1) {
				o.skin = k % skins;
				if (k == 3)   /* another skin layered over it */
					o.more_skins[o.n_more_skins++] = (k + 1) % skins;
			}
			if (bb_pose_eval(p, &tr, 1, ai.duration * k / 3.0, &o, &err) != BB_OK)
				continue;
			(void)bb_drawlist_bounds(bb_pose_drawlist(p));
			if (k == 1) {
				v.scale = 0.25;
				v.origin_x = v.origin_y = 32;
				(void)bb_render(r, bb_pose_drawlist(p), &v, img, &err);
			}
		}
	}
done:
	bb_image_free(img);
	bb_renderer_free(r);
	bb_pose_free(p);
}

static void limits(bb_load_options *lo)
{
	lo->max_file_bytes = 1 << 20;
	lo->max_bones = 512;
	lo->max_keys = 20000;
}

#ifndef FUZZ_REF

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;

	limits(&lo);
#ifdef FUZZ_FORMAT
	lo.format = FUZZ_FORMAT;
#endif
	lo.placeholder = 1;    /* images the input names are never beside it */
	if (bb_model_load_buffer(data, size, "/nonexistent/fuzz.json", &lo, &m, &err) == BB_OK)
		exercise(m);
	bb_model_free(m);
	return 0;
}

#else

/* A private folder holding the sample's files (once), where the fuzzed
 * file replaces FUZZ_REF for each input. */
static char dir[64];

static int copy(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	size_t n;
	int ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok;
}

static void cleanup(void)
{
	char path[4200];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int setup(void)
{
	char src[4096], from[4096 + 256 + 2], to[4096 + 256 + 2];
	const char *slash;
	struct dirent *e;
	DIR *d;

	if (dir[0])
		return 1;
	snprintf(dir, sizeof dir, "/tmp/bb-fuzz-XXXXXX");
	if (!mkdtemp(dir))
		return 0;
	atexit(cleanup);
	slash = strrchr(FUZZ_MAIN, '/');
	snprintf(src, sizeof src, "%.*s", (int)(slash - FUZZ_MAIN), FUZZ_MAIN);
	if (!(d = opendir(src)))
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(from, sizeof from, "%s/%s", src, e->d_name);
		snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
		copy(from, to);
	}
	closedir(d);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char ref[128], main_file[128];
	bb_load_options lo = { 0 };
	bb_model *m = NULL;
	bb_error err;
	FILE *f;

	if (!setup())
		return 0;
	snprintf(ref, sizeof ref, "%s/%s", dir, FUZZ_REF);
	snprintf(main_file, sizeof main_file, "%s/%s", dir, strrchr(FUZZ_MAIN, '/') + 1);
	if (!(f = fopen(ref, "wb")))
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	limits(&lo);
	if (bb_model_load(main_file, &lo, &m, &err) == BB_OK)
		exercise(m);
	bb_model_free(m);
	return 0;
}

#endif
