/* Prints what the tests check of an animated WebP, GIF or APNG, read
 * back with anim-read.c (libwebp demux, giflib, an APNG chunk reader with
 * zlib):
 *
 *   format webp|gif|apng
 *   canvas W H
 *   frames N
 *   plays P          (0: forever)
 *   unit U           (delay units per second)
 *   delays d0 d1 ... (in units)
 *   total T          (sum of the delays)
 *   alpha MIN MAX    (over every pixel of every frame)
 *
 * With a second argument DIR, writes DIR/frame_0000.png ... (straight
 * RGBA, the composed canvas after each frame).
 * usage: anim-probe FILE [DIR] */
#include "config.h"

#include <stdio.h>

#include "anim-read.h"

int main(int argc, char **argv)
{
	struct anim_result r;
	long i, total = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: anim-probe FILE [DIR]\n");
		return 2;
	}
	anim_read(argv[1], &r);
	printf("format %s\ncanvas %d %d\nframes %ld\nplays %d\nunit %d\ndelays",
	       r.format, r.width, r.height, r.frames, r.plays, r.unit);
	for (i = 0; i < r.frames; i++) {
		printf(" %ld", r.delays[i]);
		total += r.delays[i];
	}
	printf("\ntotal %ld\n", total);
	{
		int amin = 255, amax = 0, x, y;

		for (i = 0; i < r.frames; i++)
			for (y = 0; y < r.height; y++)
				for (x = 0; x < r.width; x++) {
					int a = bb_image_pixel(r.images[i], x, y)[3];

					amin = a < amin ? a : amin;
					amax = a > amax ? a : amax;
				}
		printf("alpha %d %d\n", amin, amax);
	}
	for (i = 0; argc == 3 && i < r.frames; i++) {
		char path[4096];
		bb_error err;

		snprintf(path, sizeof path, "%s/frame_%04ld.png", argv[2], i);
		if (bb_png_write(path, r.images[i], &err) != BB_OK) {
			fprintf(stderr, "anim-probe: %s: %s\n", path, err.message);
			return 1;
		}
	}
	anim_result_free(&r);
	return 0;
}
