/* PNG reading and deterministic writing through libpng.  The only file that
 * includes png.h. */
#include "config.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "core/util.h"

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

bb_status bb_png_read_mem(const void *data, size_t size, const char *name,
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
	if (size < 8 || png_sig_cmp(data, 0, 8) != 0)
		return bb_error_set(err, BB_ERR_INPUT, name, NULL, "not a PNG file");
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

bb_status bb_png_read(const char *path, bb_image **out, bb_error *err)
{
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	s = bb__read_file(path, PNG_MAX_FILE_BYTES, &data, &size, err);
	if (s != BB_OK)
		return s;
	s = bb_png_read_mem(data, size, path, out, err);
	free(data);
	return s;
}

struct mem_writer {
	uint8_t *data;
	size_t size, cap;
	int failed;
};

static void mem_write(png_structp png, png_bytep in, png_size_t n)
{
	struct mem_writer *w = png_get_io_ptr(png);

	if (!bb__grow((void **)&w->data, &w->cap, w->size + n, 1)) {
		w->failed = 1;
		png_error(png, "out of memory");
	}
	memcpy(w->data + w->size, in, n);
	w->size += n;
}

static void mem_flush(png_structp png)
{
	(void)png;
}

static bb_status encode(const bb_image *img, int fast, void **data,
                        size_t *size, bb_error *err)
{
	struct mem_writer wr = { NULL, 0, 0, 0 };
	struct png_ctx ctx = { "" };
	png_structp png;
	png_infop info;
	int y;

	*data = NULL;
	*size = 0;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error,
	                              on_warning);
	if (!png)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(wr.data);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "PNG encode: %s",
		                    ctx.msg);
	}
	png_set_write_fn(png, &wr, mem_write, mem_flush);
	/* Fixed settings: identical pixels give identical bytes. */
	png_set_compression_level(png, fast ? 1 : 6);
	png_set_filter(png, 0, fast ? PNG_FILTER_SUB : PNG_ALL_FILTERS);
	png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height,
	             8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < img->height; y++)
		png_write_row(png, bb_image_pixel(img, 0, y));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	*data = wr.data;
	*size = wr.size;
	return BB_OK;
}

bb_status bb_png_encode(const bb_image *img, void **data, size_t *size,
                        bb_error *err)
{
	return encode(img, 0, data, size, err);
}

bb_status bb_png_encode_fast(const bb_image *img, void **data, size_t *size,
                             bb_error *err)
{
	return encode(img, 1, data, size, err);
}

bb_status bb_png_write(const char *path, const bb_image *img, bb_error *err)
{
	void *data;
	size_t size;
	bb_status s;

	s = bb_png_encode(img, &data, &size, err);
	if (s != BB_OK) {
		if (err)
			snprintf(err->file, sizeof err->file, "%s", path);
		return s;
	}
	s = bb_file_write_atomic(path, data, size, err);
	free(data);
	return s;
}
