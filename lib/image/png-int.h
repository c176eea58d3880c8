/* lib/image internals of PNG reading and writing, shared by png.c,
 * png-read.c, png-write.c and the tests.  Not installed. */
#ifndef BB_PNG_INT_H
#define BB_PNG_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bonebake/image.h"

/* The Paeth predictor (PNG spec 9.4), for the filter and its inverse. */
static inline uint8_t bb__png_paeth(int a, int b, int c)
{
	int p = a + b - c;
	int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	if (pa <= pb && pa <= pc)
		return (uint8_t)a;
	return (uint8_t)(pb <= pc ? b : c);
}

/* Splits the zlib stream into IDAT chunks of at most `max` bytes (0: the
 * PNG limit, 2^31 - 1), so tests reach the split path with small images. */
void bb__png_encoder_set_idat_max(bb_png_encoder *e, size_t max);
/* Makes the fast path of e filter rows with path (a bb__png_simd of
 * png-fast.h): 1, or 0 when this machine cannot run it (e unchanged). */
int bb__png_encoder_set_simd(bb_png_encoder *e, int path);

/* The fast reading path (png-read.c): 8-bit RGBA/RGB, not interlaced, no
 * PLTE/tRNS, every critical chunk's CRC and the zlib stream intact.
 * With `argb32`, the image comes out as bb_image_to_argb32 makes it
 * (each row once the next was unfiltered from it, while still in cache).
 * Returns 1 with a new image in *out, or 0 (nothing allocated) when the
 * file is anything else: then libpng decides.  Thread-safe. */
int bb__png_read_fast(const void *data, size_t size, int argb32,
                      bb_image **out);
/* convert.c: a row of width RGBA pixels (straight, or `premultiplied`)
 * into premultiplied native ARGB32 in place, as bb_image_to_argb32. */
void bb__argb32_row(uint8_t *row, int width, int premultiplied);

/* bb_png_read_mem through libpng alone (png.c), for comparing the two. */
bb_status bb__png_read_libpng(const void *data, size_t size, const char *name,
                              bb_image **out, bb_error *err);

#endif
