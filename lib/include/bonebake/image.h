/* bonebake — RGBA8 pixel buffers and PNG files.
 *
 * bb_image holds straight (non-premultiplied) RGBA, 8 bits per channel, rows
 * of `stride` bytes (stride >= 4 * width), R,G,B,A byte order in memory.
 * That is what PNG stores, what the differ compares and what the packer
 * packs.  The rasterizer works in cairo's premultiplied ARGB32; the only
 * conversions between the two live in lib/image/convert.c. */
#ifndef BONEBAKE_IMAGE_H
#define BONEBAKE_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_image {
	int width, height;
	size_t stride;     /* bytes per row */
	uint8_t *px;       /* owned by the image */
} bb_image;

/* Largest side accepted by bb_image_new and the PNG reader. */
enum { BB_IMAGE_MAX_SIDE = 32768 };

/* Returns a new transparent image (all bytes 0); free with bb_image_free.
 * Fails with BB_ERR_LIMIT for sides <= 0 or > BB_IMAGE_MAX_SIDE,
 * BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_image_new(int width, int height, bb_image **out, bb_error *err);
/* NULL-safe. */
void bb_image_free(bb_image *img);
/* Returns a deep copy, or NULL when out of memory. */
bb_image *bb_image_dup(const bb_image *img);

static inline uint8_t *bb_image_pixel(const bb_image *img, int x, int y)
{
	return img->px + (size_t)y * img->stride + (size_t)x * 4;
}

/* Reads a PNG (any colour type/bit depth libpng can expand) into straight
 * RGBA8.  Returns BB_ERR_IO when the file cannot be opened, BB_ERR_INPUT for
 * an invalid or truncated PNG, BB_ERR_LIMIT for oversized images.  The error
 * names `path`.  Thread-safe. */
bb_status bb_png_read(const char *path, bb_image **out, bb_error *err);

/* Same, from memory; `name` is used in error messages. */
bb_status bb_png_read_mem(const void *data, size_t size, const char *name,
                          bb_image **out, bb_error *err);

/* Writes img as an 8-bit RGBA PNG with fixed settings (no time chunk, no
 * gamma, fixed zlib level), so the same pixels always give the same bytes.
 * Written to a temporary name in the same folder and renamed into place:
 * a failure leaves nothing at `path`.  Thread-safe. */
bb_status bb_png_write(const char *path, const bb_image *img, bb_error *err);

/* Encodes to memory; *data is malloc'd, caller frees. */
bb_status bb_png_encode(const bb_image *img, void **data, size_t *size,
                        bb_error *err);

/* Same with fast settings (zlib level 1, one filter): larger files,
 * several times quicker; still deterministic.  For throw-away images such
 * as diff images. */
bb_status bb_png_encode_fast(const bb_image *img, void **data, size_t *size,
                             bb_error *err);

/* Premultiplied native-endian ARGB32 (cairo's format) <-> straight RGBA8. */
void bb_image_from_premul_argb32(bb_image *dst, const uint8_t *src,
                                 size_t src_stride);
void bb_image_to_premul_argb32(const bb_image *src, uint8_t *dst,
                               size_t dst_stride);

#ifdef __cplusplus
}
#endif
#endif
