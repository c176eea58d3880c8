/* PNG reading through libpng: the only file that includes png.h.  Common
 * files take the faster path of lib/image/png-read.c first; writing is
 * lib/image/png-write.c. */
#include "config.h"

#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "core/foreign.h"
#include "core/util.h"
#include "image/png-int.h"

/* PNG files larger than this are refused before decoding. */
#define PNG_MAX_FILE_BYTES ((size_t)512 << 20)

struct mem_reader {
	const uint8_t *data;
	size_t size, pos;
};

struct png_ctx {
	char msg[160];
};

static void on_error(png_structp png, png_const_charp msg)
{
	struct png_ctx *ctx = png_get_error_ptr(png);

	snprintf(ctx->msg, sizeof ctx->msg, "%s", msg);
	png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static void mem_read(png_structp png, png_bytep out, png_size_t n)
{
	struct mem_reader *r = png_get_io_ptr(png);

	if (n > r->size - r->pos)
		png_error(png, "file is truncated");
	memcpy(out, r->data + r->pos, n);
	r->pos += n;
}

int bb_png_size(const void *data, size_t size, int *width, int *height)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	const unsigned char *d = data;
	uint32_t w, h;

	/* a header whose CRC is wrong is not one to trust (nor to refuse a
	 * file by): libpng gives the damaged file its verdict */
	if (size < 33 || memcmp(d, sig, 8) != 0 || d[8] || d[9] || d[10] || d[11] != 13 ||
	    memcmp(d + 12, "IHDR", 4) != 0 ||
	    ((uint32_t)d[29] << 24 | (uint32_t)d[30] << 16 | (uint32_t)d[31] << 8 | d[32]) !=
	    (uint32_t)libdeflate_crc32(0, d + 12, 17))
		return 0;
	w = (uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
	h = (uint32_t)d[20] << 24 | (uint32_t)d[21] << 16 | (uint32_t)d[22] << 8 | d[23];
	if (w == 0 || h == 0 || w > BB_IMAGE_MAX_SIDE || h > BB_IMAGE_MAX_SIDE)
		return 0;
	*width = (int)w;
	*height = (int)h;
	return 1;
}

static bb_status read_mem(const void *data, size_t size, const char *name,
                          size_t max_pixels, int argb32, bb_image **out,
                          bb_error *err)
{
	bb_status s;
	int w, h;

	*out = NULL;
	if (!max_pixels)
		max_pixels = BB_IMAGE_MAX_PIXELS;
	/* a small file can declare a huge image: refuse it from its header */
	if (bb_png_size(data, size, &w, &h) &&
	    (uint64_t)w * (uint64_t)h > (uint64_t)max_pixels)
		return bb_error_set(err, BB_ERR_LIMIT, name, NULL, "%dx%d px image "
		                    "exceeds the limit of %zu pixels (%.1f Mpx)", w, h,
		                    max_pixels, max_pixels / 1048576.0);
	/* the common formats on a faster path; libpng for the rest and for
	 * every verdict on a damaged file */
	if (bb__png_read_fast(data, size, argb32, out))
		return BB_OK;
	s = bb__png_read_libpng(data, size, name, out, err);
	if (s == BB_OK && argb32)
		bb_image_to_argb32(*out);
	return s;
}

bb_status bb_png_read_mem_limited(const void *data, size_t size,
                                  const char *name, size_t max_pixels,
                                  bb_image **out, bb_error *err)
{
	return read_mem(data, size, name, max_pixels, 0, out, err);
}

bb_status bb_png_read_mem_argb32(const void *data, size_t size,
                                 const char *name, size_t max_pixels,
                                 bb_image **out, bb_error *err)
{
	return read_mem(data, size, name, max_pixels, 1, out, err);
}

bb_status bb_png_read_mem(const void *data, size_t size, const char *name,
                          bb_image **out, bb_error *err)
{
	return bb_png_read_mem_limited(data, size, name, 0, out, err);
}

bb_status bb__png_read_libpng(const void *data, size_t size, const char *name,
                              bb_image **out, bb_error *err)
{
	struct mem_reader rd = { data, size, 0 };
	struct png_ctx ctx = { "" };
	png_structp png;
	png_infop info = NULL;
	bb_image *volatile img = NULL;
	png_bytep *volatile rows = NULL;
	png_uint_32 w, h;
	int depth, ctype, y;

	*out = NULL;
	if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
		const char *what = bb__foreign_file(data, size);

		return bb_error_set(err, BB_ERR_INPUT, name, NULL, "not a PNG file%s%s",
		                    what ? ": " : "", what ? what : "");
	}
	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error,
	                             on_warning);
	if (!png)
		return bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &info, NULL);
		free(rows);
		bb_image_free(img);
		return bb_error_set(err, BB_ERR_INPUT, name, NULL, "invalid PNG: %s",
		                    ctx.msg[0] ? ctx.msg : "decode error");
	}
	png_set_read_fn(png, &rd, mem_read);
#ifdef PNG_IGNORE_ADLER32
	/* every IDAT chunk's CRC still catches corruption; skipping zlib's
	 * adler32 saves ~15% of decoding */
	png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
	png_set_user_limits(png, BB_IMAGE_MAX_SIDE, BB_IMAGE_MAX_SIDE);
	png_read_info(png, info);
	png_get_IHDR(png, info, &w, &h, &depth, &ctype, NULL, NULL, NULL);
	if (depth == 16)
		png_set_strip_16(png);
	if (ctype == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (ctype == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_tRNS_to_alpha(png);
	if (ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(png);
	if (!(ctype & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
		png_set_filler(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)w * 4)
		png_error(png, "unsupported pixel layout");
	{
		bb_image *tmp;
		if (bb_image_new((int)w, (int)h, &tmp, NULL) != BB_OK)
			png_error(png, "image too large");
		img = tmp;
	}
	rows = bb__calloc(h, sizeof *rows);
	if (!rows)
		png_error(png, "out of memory");
	for (y = 0; y < (int)h; y++)
		rows[y] = bb_image_pixel(img, 0, y);
	png_read_image(png, rows);
	png_read_end(png, NULL);
	png_destroy_read_struct(&png, &info, NULL);
	free(rows);
	*out = img;
	return BB_OK;
}

bb_status bb_png_read_limited(const char *path, size_t max_pixels,
                              bb_image **out, bb_error *err)
{
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	s = bb__read_file(path, PNG_MAX_FILE_BYTES, &data, &size, err);
	if (s != BB_OK)
		return s;
	s = bb_png_read_mem_limited(data, size, path, max_pixels, out, err);
	free(data);
	return s;
}

bb_status bb_png_read(const char *path, bb_image **out, bb_error *err)
{
	return bb_png_read_limited(path, 0, out, err);
}
