/* Fuzz target for the fast PNG encoder (lib/image/png-fast.c): the input
 * makes an image -- bytes 0-1 its width, 2-3 its height (each 1..512),
 * byte 4 how the rest becomes pixels (copied as RGBA rows, or as sparse
 * pixels on a clear image, or runs of one pixel) -- which every row-filter
 * path this CPU runs (scalar, SSE4.1, AVX2) must encode to the same bytes,
 * and libpng must decode back to exactly the image.  Any difference
 * aborts.  Built with -DBB_LIBFUZZER and -fsanitize=fuzzer it is a
 * libFuzzer target; otherwise replay-main.c's main replays the saved
 * inputs in `make check` (tests/fuzz/replay.sh). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/bonebake.h"
#include "image/png-fast.h"
#include "image/png-int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fill(bb_image *img, const uint8_t *d, size_t n, int mode)
{
	size_t i, k = 0, px = (size_t)img->width * img->height;
	int y;

	if (n == 0)
		return;
	for (i = 0; i < px; i++) {
		uint8_t *p = bb_image_pixel(img, (int)(i % (size_t)img->width),
		                            (int)(i / (size_t)img->width));

		switch (mode % 3) {
		case 0:                       /* the bytes, over and over */
			for (y = 0; y < 4; y++)
				p[y] = d[k++ % n];
			break;
		case 1:                       /* a pixel where a byte says so */
			if (d[i % n] & 1)
				memcpy(p, (uint8_t[4]){ d[(i + 1) % n], d[(i + 2) % n],
				                        d[(i + 3) % n], d[i % n] }, 4);
			break;
		default:                      /* runs of one pixel */
			if (i % ((size_t)d[k % n] + 1) == 0)
				k += 4;
			for (y = 0; y < 4; y++)
				p[y] = d[(k + (size_t)y) % n];
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_png_options o = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_DEFAULT };
	bb_image *img, *back;
	void *first = NULL;
	size_t first_n = 0;
	int w, h, p, y;

	if (size < 5)
		return 0;
	w = 1 + (data[0] | data[1] << 8) % 512;
	h = 1 + (data[2] | data[3] << 8) % 512;
	if (bb_image_new(w, h, &img, NULL) != BB_OK)
		abort();
	fill(img, data + 5, size - 5, data[4]);
	for (p = 0; p < BB__PNG_SIMD_COUNT; p++) {
		bb_png_encoder *e;
		const void *d;
		size_t n;

		if (!bb__png_simd_available((bb__png_simd)p))
			continue;
		if (bb_png_encoder_new(&o, &e, NULL) != BB_OK ||
		    !bb__png_encoder_set_simd(e, p) ||
		    bb_png_encoder_encode(e, img, &d, &n, NULL) != BB_OK)
			abort();
		if (!first) {
			first = malloc(n);
			if (!first)
				abort();
			memcpy(first, d, n);
			first_n = n;
			if (bb__png_read_libpng(d, n, "fuzz.png", &back, NULL) != BB_OK)
				abort();
			for (y = 0; y < h; y++)
				if (memcmp(bb_image_pixel(img, 0, y), bb_image_pixel(back, 0, y),
				           (size_t)w * 4) != 0) {
					fprintf(stderr, "fuzz-png-encode: %dx%d does not decode "
					        "to its pixels\n", w, h);
					abort();
				}
			bb_image_free(back);
		} else if (n != first_n || memcmp(d, first, n) != 0) {
			fprintf(stderr, "fuzz-png-encode: %dx%d: %s bytes differ from "
			        "scalar\n", w, h, bb__png_simd_name((bb__png_simd)p));
			abort();
		}
		bb_png_encoder_free(e);
	}
	free(first);
	bb_image_free(img);
	return 0;
}
