/* pack-verify SHEET.json... -- FRAME.png...
 *
 * The reference check for written sheets: for every frame of the
 * TexturePacker JSON files given (hash or array; several pages), cuts the
 * frame out of the page PNG named by meta.image (turned back clockwise
 * when "rotated"), pastes it at spriteSourceSize.x/y into a transparent
 * sourceSize canvas, and compares that with the PNG file of the same name
 * (the FRAME.png whose path ends in the frame's name + .png) pixel for
 * pixel.  Every frame file must be in the sheet and every sheet frame must
 * have a file.  Prints a summary; exits 0 when all match, 1 otherwise,
 * 2 on bad usage. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"

static int failures;

static void fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "pack-verify: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	failures++;
}

static int geti(json_t *o, const char *k)
{
	return (int)json_integer_value(json_object_get(o, k));
}

/* Index of the frame file called name: its path ends in "/NAME.png" (or is
 * NAME.png); `pack` names frames by their path relative to the packed
 * folder ("walk/walk_0000"), `sheet` and loose files by the base name. */
static int find_file(char **files, int n, const char *name)
{
	size_t nl = strlen(name);
	int i;

	for (i = 0; i < n; i++) {
		size_t len = strlen(files[i]);
		const char *tail = files[i] + len - (nl + 4);

		if (len >= nl + 4 && strncmp(tail, name, nl) == 0 &&
		    strcmp(tail + nl, ".png") == 0 &&
		    (tail == files[i] || tail[-1] == '/'))
			return i;
	}
	return -1;
}

static void check_frame(const char *name, json_t *fr, const bb_image *page,
                        char **files, int n_files, int *used)
{
	json_t *r = json_object_get(fr, "frame");
	json_t *ss = json_object_get(fr, "spriteSourceSize");
	json_t *src = json_object_get(fr, "sourceSize");
	int rot = json_is_true(json_object_get(fr, "rotated"));
	int x = geti(r, "x"), y = geti(r, "y"), w = geti(r, "w"), h = geti(r, "h");
	int sx = geti(ss, "x"), sy = geti(ss, "y"), u, v, k;
	bb_image *orig = NULL, *back = NULL;
	bb_error err;

	k = find_file(files, n_files, name);
	if (k < 0) {
		fail("frame %s%s has no file", name, "");
		return;
	}
	used[k] = 1;
	if (bb_png_read(files[k], &orig, &err) != BB_OK) {
		fail("%s: %s", files[k], err.message);
		return;
	}
	if (geti(src, "w") != orig->width || geti(src, "h") != orig->height ||
	    bb_image_new(orig->width, orig->height, &back, &err) != BB_OK) {
		fail("%s: sourceSize is not the file's size%s", name, "");
		bb_image_free(orig);
		return;
	}
	for (v = 0; v < h; v++)
		for (u = 0; u < w; u++) {
			int px = rot ? x + h - 1 - v : x + u, py = rot ? y + u : y + v;

			if (px < 0 || py < 0 || px >= page->width || py >= page->height ||
			    sx + u >= back->width || sy + v >= back->height) {
				fail("%s: rectangle outside the page or frame%s", name, "");
				bb_image_free(orig);
				bb_image_free(back);
				return;
			}
			memcpy(bb_image_pixel(back, sx + u, sy + v),
			       bb_image_pixel(page, px, py), 4);
		}
	for (v = 0; v < orig->height; v++)
		if (memcmp(bb_image_pixel(back, 0, v), bb_image_pixel(orig, 0, v),
		           (size_t)orig->width * 4) != 0) {
			fail("%s: reassembled frame differs from %s", name, files[k]);
			break;
		}
	bb_image_free(orig);
	bb_image_free(back);
}

int main(int argc, char **argv)
{
	int i, sep = -1, n_sheets, n_files, frames = 0, *used;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			sep = i;
	if (sep < 2 || sep == argc - 1) {
		fprintf(stderr, "usage: pack-verify SHEET.json... -- FRAME.png...\n");
		return 2;
	}
	n_sheets = sep - 1;
	n_files = argc - sep - 1;
	used = calloc((size_t)n_files, sizeof *used);
	if (!used)
		return 2;
	for (i = 1; i <= n_sheets; i++) {
		json_error_t je;
		json_t *root = json_load_file(argv[i], 0, &je), *frames_j, *fr;
		const char *image;
		char dir[4096], path[8192];
		bb_image *page = NULL;
		bb_error err;

		if (!root) {
			fail("%s: %s", argv[i], je.text);
			continue;
		}
		image = json_string_value(json_object_get(json_object_get(root, "meta"),
		                                          "image"));
		snprintf(dir, sizeof dir, "%s", argv[i]);
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = '\0';
		else
			strcpy(dir, ".");
		snprintf(path, sizeof path, "%s/%s", dir, image ? image : "");
		if (!image || bb_png_read(path, &page, &err) != BB_OK) {
			fail("%s: cannot read its page %s", argv[i], path);
			json_decref(root);
			continue;
		}
		frames_j = json_object_get(root, "frames");
		if (json_is_array(frames_j)) {
			size_t k;

			json_array_foreach(frames_j, k, fr) {
				check_frame(json_string_value(json_object_get(fr, "filename")),
				            fr, page, argv + sep + 1, n_files, used);
				frames++;
			}
		} else {
			const char *key;

			json_object_foreach(frames_j, key, fr) {
				check_frame(key, fr, page, argv + sep + 1, n_files, used);
				frames++;
			}
		}
		bb_image_free(page);
		json_decref(root);
	}
	for (i = 0; i < n_files; i++)
		if (!used[i])
			fail("%s is in no sheet%s", argv[sep + 1 + i], "");
	free(used);
	printf("pack-verify: %d frames checked, %d problems\n", frames, failures);
	return failures ? 1 : 0;
}
