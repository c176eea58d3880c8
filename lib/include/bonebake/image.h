/* bonebake — RGBA8 pixel buffers and PNG files.
 *
 * bb_image holds RGBA, 8 bits per channel, rows of `stride` bytes (stride
 * >= 4 * width), R,G,B,A byte order in memory, straight (non-premultiplied)
 * unless its `premultiplied` flag says otherwise.  Straight is what PNG
 * stores, what the differ compares and what the packer packs; the
 * packer's --premultiply pages are premultiplied RGBA.  A model's textures
 * are held in the rasterizer's own layout instead (the `argb32` flag):
 * cairo's premultiplied native-endian ARGB32, converted once as they are
 * decoded (a Spine `pma` page only reordered), so regions of them are
 * drawn from where they lie.  Premultiplying (one rounding rule) and the
 * conversions to and from ARGB32 live in lib/image/convert.c. */
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
	int premultiplied; /* 1: R, G, B are already multiplied by A (each at
	                      most A; PNG writing stores them as they are) */
	int argb32;        /* 1: each pixel is a native-endian 32-bit word
	                      A << 24 | R << 16 | G << 8 | B, premultiplied
	                      (cairo's CAIRO_FORMAT_ARGB32; `premultiplied`
	                      is 1 too): a model's textures, nothing else */
} bb_image;

/* Largest side accepted by bb_image_new and the PNG reader, and the
 * default limit on a decoded PNG's pixels (64 Mpx, 256 MiB of RGBA:
 * 8192 x 8192), checked from its header before anything is decoded. */
enum { BB_IMAGE_MAX_SIDE = 32768, BB_IMAGE_MAX_PIXELS = 1 << 26 };

/* Returns a new transparent image (all bytes 0); free with bb_image_free.
 * Fails with BB_ERR_LIMIT for sides <= 0 or > BB_IMAGE_MAX_SIDE,
 * BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_image_new(int width, int height, bb_image **out, bb_error *err);
/* NULL-safe. */
void bb_image_free(bb_image *img);
/* Returns a deep copy (flag included), or NULL when out of memory. */
bb_image *bb_image_dup(const bb_image *img);
/* A copy of the rectangle (x, y, w, h) of img, which must lie inside it,
 * premultiplied when img is; NULL when out of memory or outside. */
bb_image *bb_image_crop(const bb_image *img, int x, int y, int w, int h);
/* A new transparent w x h image with img copied at (x, y), the part
 * outside clipped: two frames of different canvases, aligned on their
 * origin pixel, compare on one canvas.  NULL when out of memory or for a
 * size bb_image_new refuses.  Thread-safe. */
bb_image *bb_image_place(const bb_image *img, int w, int h, int x, int y);

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

/* The same with a limit on width x height (0: BB_IMAGE_MAX_PIXELS): a
 * larger image fails with BB_ERR_LIMIT before any pixel is decoded. */
bb_status bb_png_read_limited(const char *path, size_t max_pixels,
                              bb_image **out, bb_error *err);
bb_status bb_png_read_mem_limited(const void *data, size_t size,
                                  const char *name, size_t max_pixels,
                                  bb_image **out, bb_error *err);
/* bb_png_read_mem_limited into bb_image_to_argb32's layout (textures
 * are read so): on the fast path row by row as the rows are decoded,
 * while in cache, else after. */
bb_status bb_png_read_mem_argb32(const void *data, size_t size,
                                 const char *name, size_t max_pixels,
                                 bb_image **out, bb_error *err);
/* Width and height from a PNG's header, without decoding: 1, or 0 when the
 * data does not start with a valid PNG signature and IHDR (its CRC
 * included). */
int bb_png_size(const void *data, size_t size, int *width, int *height);

/* ---- PNG writing (lib/image/png-write.c) ----
 * 8-bit RGBA, no ancillary chunks (no time, no gamma): the same pixels and
 * options always give the same bytes, whatever thread encodes them and
 * whatever SIMD the CPU has.  Levels 0..9: the zlib stream comes from
 * libdeflate, the filters and chunks are ours.  The fast path
 * (BB_PNG_LEVEL_FAST, lib/image/png-fast.c) is ours throughout: a filter
 * per row, then Huffman-coded bytes and zero runs, no LZ77 search. */

/* Row filters (PNG spec 9.2).  ADAPTIVE picks per row the filter whose
 * output has the smallest sum of absolute (signed) bytes. */
typedef enum bb_png_filter {
	BB_PNG_FILTER_DEFAULT = 0,   /* the level's own: None at every level */
	BB_PNG_FILTER_NONE,
	BB_PNG_FILTER_SUB,
	BB_PNG_FILTER_UP,
	BB_PNG_FILTER_AVERAGE,
	BB_PNG_FILTER_PAETH,
	BB_PNG_FILTER_ADAPTIVE
} bb_png_filter;

/* Compression levels: 0..9 are libdeflate's (0 stores, 1 is the fastest,
 * 9 the smallest); BB_PNG_LEVEL_FAST is the fast path.  The defaults were
 * chosen by measurement (scripts/bench png): frames take the fast path at
 * every size (on corpus frames about 3x libdeflate level 1's speed at
 * 0.99x libpng's bytes; on small flat-shaded frames 4x level 6's speed at
 * 0.94-1.04x libpng's bytes, where level 1 was 1.15x); final sheet pages
 * favour size. */
enum {
	BB_PNG_LEVEL_FAST = -2,
	BB_PNG_LEVEL_MAX = 9,
	BB_PNG_LEVEL_FRAMES = BB_PNG_LEVEL_FAST,
	BB_PNG_LEVEL_SHEETS = 6
};

/* {0} = frame defaults (BB_PNG_LEVEL_FRAMES). */
typedef struct bb_png_options {
	int level;             /* 0..BB_PNG_LEVEL_MAX or BB_PNG_LEVEL_FAST,
	                          used when level_set */
	int level_set;         /* 0: the frame defaults */
	bb_png_filter filter;  /* levels 0..9 (the fast path picks per row) */
} bb_png_options;

/* An encoder keeps its compressor and buffers between images: once its
 * buffers have grown to the image size it allocates nothing.  One encoder
 * per thread; different encoders may run in parallel. */
typedef struct bb_png_encoder bb_png_encoder;

/* Returns a new encoder (o NULL = defaults); free with bb_png_encoder_free.
 * Fails with BB_ERR_USAGE (level or filter out of range), BB_ERR_NOMEM. */
bb_status bb_png_encoder_new(const bb_png_options *o, bb_png_encoder **out,
                             bb_error *err);
/* NULL-safe. */
void bb_png_encoder_free(bb_png_encoder *e);
/* Encodes img (RGBA, or argb32: made straight row by row as it is
 * filtered, the same file as for its bb_image_from_premul_argb32 copy);
 * *data points into the encoder and stays valid until its
 * next call or bb_png_encoder_free.  Fails with BB_ERR_USAGE (bad image),
 * BB_ERR_LIMIT, BB_ERR_NOMEM.  Not thread-safe on one encoder. */
bb_status bb_png_encoder_encode(bb_png_encoder *e, const bb_image *img,
                                const void **data, size_t *size,
                                bb_error *err);
/* Encodes and writes to a temporary name in path's folder, renamed into
 * place: a failure leaves nothing at `path`.  Also BB_ERR_IO. */
bb_status bb_png_encoder_write(bb_png_encoder *e, const char *path,
                               const bb_image *img, bb_error *err);
/* Encodes and writes a new file at path (bb_file_write_new: none there
 * yet, no temporary; for a folder nobody reads until it is complete). */
bb_status bb_png_encoder_write_new(bb_png_encoder *e, const char *path,
                                   const bb_image *img, bb_error *err);

/* One-shot: encodes with options o (NULL = defaults) into a new malloc'd
 * buffer (caller frees).  Thread-safe. */
bb_status bb_png_encode_opts(const bb_image *img, const bb_png_options *o,
                             void **data, size_t *size, bb_error *err);
/* The same with the frame defaults. */
bb_status bb_png_encode(const bb_image *img, void **data, size_t *size,
                        bb_error *err);
/* The fast path whatever the size: for throw-away images such as diff
 * images. */
bb_status bb_png_encode_fast(const bb_image *img, void **data, size_t *size,
                             bb_error *err);
/* Writes img with the frame defaults, atomically as bb_png_encoder_write.
 * Thread-safe. */
bb_status bb_png_write(const char *path, const bb_image *img, bb_error *err);

/* ---- premultiplication (lib/image/convert.c) ----
 * One rounding rule everywhere: c * a / 255 rounded to nearest (as
 * cairo and pixman round). */

/* Multiplies img's colour by its alpha in place and sets its flag; an
 * image already premultiplied is left as it is. */
void bb_image_premultiply(bb_image *img);
/* img in place as premultiplied native-endian ARGB32 (argb32 and
 * premultiplied set): a straight image premultiplied on the way, a
 * premultiplied one only reordered (a colour above its alpha taken as the
 * alpha); nothing to do when argb32 is set already. */
void bb_image_to_argb32(bb_image *img);
/* Premultiplied native-endian ARGB32 (cairo's format) into dst as straight
 * RGBA8 (dst's flag cleared). */
void bb_image_from_premul_argb32(bb_image *dst, const uint8_t *src,
                                 size_t src_stride);
/* src as premultiplied native-endian ARGB32: a straight image is
 * premultiplied on the way, a premultiplied one only reordered (a colour
 * above its alpha, which no premultiplied file should hold, taken as the
 * alpha), an argb32 one copied. */
void bb_image_to_premul_argb32(const bb_image *src, uint8_t *dst,
                               size_t dst_stride);

#ifdef __cplusplus
}
#endif
#endif
