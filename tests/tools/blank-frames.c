/* blank-frames FILE.png...: names every PNG whose pixels are all fully
 * transparent (alpha 0 everywhere), one per line on stdout.  Exits 0 when
 * none is blank, 1 when some are, 2 on a usage error or a file that cannot
 * be read (named on stderr).  Used by tests/oracle/corpus.sh: a rendered
 * frame that shows nothing at all is a defect unless the test expects it. */
#include "config.h"

#include <stdio.h>

#include "bonebake/bonebake.h"

/* 1 when every pixel of img has alpha 0. */
static int is_blank(const bb_image *img)
{
	int x, y;

	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++)
			if (bb_image_pixel(img, x, y)[3] != 0)
				return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int i, blank = 0;

	if (argc < 2) {
		fputs("usage: blank-frames FILE.png...\n", stderr);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		bb_image *img;
		bb_error err;

		if (bb_png_read(argv[i], &img, &err) != BB_OK) {
			fprintf(stderr, "blank-frames: %s: %s\n", argv[i], err.message);
			return 2;
		}
		if (is_blank(img)) {
			printf("%s\n", argv[i]);
			blank++;
		}
		bb_image_free(img);
	}
	return blank ? 1 : 0;
}
