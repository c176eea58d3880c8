/* Fuzz target for PNG reading: bb_png_read_mem (the fast path of
 * lib/image/png-read.c, then libpng) must give exactly the status,
 * message and pixels of libpng alone, and an image read must survive the
 * encoder and come back the same.  Any difference aborts.  Built with
 * -DBB_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer target;
 * otherwise replay-main.c's main replays PNG files in `make check`
 * (tests/fuzz/replay.sh: the samples' textures and the reference images,
 * written by libpng with every filter). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "image/png-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const bb_image *a, const bb_image *b)
{
	int y;

	if (a->width != b->width || a->height != b->height)
		return 0;
	for (y = 0; y < a->height; y++)
		if (memcmp(bb_image_pixel(a, 0, y), bb_image_pixel(b, 0, y),
		           (size_t)a->width * 4) != 0)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_image *a = NULL, *b = NULL, *c = NULL;
	bb_error ea, eb;
	bb_status sa, sb;
	void *png;
	size_t n;

	if (size > (64u << 20))
		return 0;
	sa = bb_png_read_mem(data, size, "fuzz.png", &a, &ea);
	sb = bb__png_read_libpng(data, size, "fuzz.png", &b, &eb);
	if (sa != sb || (sa == BB_OK && !same(a, b)) ||
	    (sa != BB_OK && strcmp(ea.message, eb.message) != 0)) {
		fprintf(stderr, "fuzz-png: the fast path and libpng disagree: %d \"%s\" "
		        "against %d \"%s\"\n", (int)sa, sa == BB_OK ? "" : ea.message,
		        (int)sb, sb == BB_OK ? "" : eb.message);
		abort();
	}
	if (sa == BB_OK && (size_t)a->width * a->height <= (4u << 20)) {
		if (bb_png_encode(a, &png, &n, NULL) != BB_OK ||
		    bb_png_read_mem(png, n, "again.png", &c, NULL) != BB_OK ||
		    !same(a, c)) {
			fprintf(stderr, "fuzz-png: round trip through the encoder failed\n");
			abort();
		}
		free(png);
	}
	bb_image_free(a);
	bb_image_free(b);
	bb_image_free(c);
	return 0;
}
