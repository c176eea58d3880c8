/* A fast path for reading the PNGs bonebake meets most (8-bit RGBA or RGB,
 * not interlaced, no palette or transparency chunk: every frame and page
 * bonebake writes, most exported textures): chunks walked here, the zlib
 * stream inflated by libdeflate in one call (about twice zlib's speed),
 * rows unfiltered in place.  Anything else -- another format, a chunk it
 * does not know, a CRC, size or stream error -- makes it give up, and
 * png.c reads the file with libpng, whose verdict and messages stand.  So
 * this path only ever accepts files libpng reads to the same pixels
 * (check-png compares the two on valid and damaged files). */
#include "config.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "core/util.h"
#include "image/png-int.h"

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int is_letter(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}


/* Undoes filter `type` of one row of n bytes (bpp bytes per pixel) from
 * src into dst, with the prior row already unfiltered (NULL for the first).
 * dst may lie before src in the same buffer: byte i is written only after
 * src[i] was read, at an address below it. */
static int unfilter(uint8_t *dst, const uint8_t *src, const uint8_t *prior,
                    size_t n, size_t bpp, int type)
{
	size_t i;

	switch (type) {
	case 0:
		memmove(dst, src, n);
		return 1;
	case 1:
		for (i = 0; i < n; i++)
			dst[i] = (uint8_t)(src[i] + (i >= bpp ? dst[i - bpp] : 0));
		return 1;
	case 2:
		for (i = 0; i < n; i++)
			dst[i] = (uint8_t)(src[i] + (prior ? prior[i] : 0));
		return 1;
	case 3:
		for (i = 0; i < n; i++) {
			unsigned a = i >= bpp ? dst[i - bpp] : 0, b = prior ? prior[i] : 0;

			dst[i] = (uint8_t)(src[i] + ((a + b) >> 1));
		}
		return 1;
	case 4:
		for (i = 0; i < n; i++) {
			int a = i >= bpp ? dst[i - bpp] : 0, b = prior ? prior[i] : 0;
			int c = i >= bpp && prior ? prior[i - bpp] : 0;

			dst[i] = (uint8_t)(src[i] + bb__png_paeth(a, b, c));
		}
		return 1;
	default:
		return 0;
	}
}

int bb__png_read_fast(const void *data, size_t size, int argb32,
                      bb_image **out)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	const uint8_t *d = data, *idat = NULL;
	size_t pos, w, h, bpp, row, raw_size, idat_total = 0, n_idat = 0, y;
	int idat_done = 0, ended = 0, ok;
	uint8_t *buf = NULL, *gathered = NULL;
	struct libdeflate_decompressor *dec;
	bb_image *img;

	*out = NULL;
	if (size < 8 + 25 || memcmp(d, sig, 8) != 0 || get32(d + 8) != 13 ||
	    memcmp(d + 12, "IHDR", 4) != 0 ||
	    get32(d + 29) != (uint32_t)libdeflate_crc32(0, d + 12, 17))
		return 0;
	w = get32(d + 16);
	h = get32(d + 20);
	if (w == 0 || h == 0 || w > BB_IMAGE_MAX_SIDE || h > BB_IMAGE_MAX_SIDE ||
	    d[24] != 8 || (d[25] != 6 && d[25] != 2) || d[26] || d[27] || d[28])
		return 0;
	bpp = d[25] == 6 ? 4 : 3;
	row = w * bpp;
	if (h > SIZE_MAX / (row + 1) || h > SIZE_MAX / (w * 4))
		return 0;
	raw_size = h * (row + 1);

	/* the chunks: IDATs in one run, IEND; ancillary ones skipped */
	for (pos = 33; !ended; ) {
		const uint8_t *type;
		size_t len;

		if (size - pos < 12)
			return 0;
		len = get32(d + pos);
		type = d + pos + 4;
		if (len > 0x7fffffff || len > size - pos - 12 || !is_letter(type[0]) ||
		    !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3]))
			return 0;
		if (memcmp(type, "IDAT", 4) == 0) {
			if (idat_done ||
			    get32(d + pos + 8 + len) !=
			    (uint32_t)libdeflate_crc32(0, type, len + 4))
				return 0;
			if (n_idat++ == 0)
				idat = d + pos + 8;
			idat_total += len;
		} else {
			if (n_idat)
				idat_done = 1;
			if (memcmp(type, "IEND", 4) == 0) {
				if (len != 0 || get32(d + pos + 8) !=
				    (uint32_t)libdeflate_crc32(0, type, 4))
					return 0;
				ended = 1;
			}
			else if (!(type[0] & 0x20) || memcmp(type, "tRNS", 4) == 0)
				return 0;   /* PLTE, another critical chunk, tRNS */
		}
		pos += 12 + len;
	}
	if (!n_idat)
		return 0;
	if (n_idat > 1) {
		/* several IDATs: their data side by side for the one inflate call */
		size_t at = 0;

		gathered = malloc(idat_total ? idat_total : 1);
		if (!gathered)
			return 0;
		for (pos = 33; at < idat_total; ) {
			size_t len = get32(d + pos);

			if (memcmp(d + pos + 4, "IDAT", 4) == 0) {
				memcpy(gathered + at, d + pos + 8, len);
				at += len;
			}
			pos += 12 + len;
		}
		idat = gathered;
	}

	/* RGBA unfilters in place (each row moves left by its filter byte and
	 * the rows before it); RGB needs room to grow to RGBA */
	buf = bb__alloc_pixels(bpp == 4 ? raw_size : h * w * 4 + raw_size);
	dec = libdeflate_alloc_decompressor();
	ok = buf && dec;
	if (ok) {
		uint8_t *raw = bpp == 4 ? buf : buf + h * w * 4;

		ok = libdeflate_zlib_decompress(dec, idat, idat_total, raw, raw_size,
		                                NULL) == LIBDEFLATE_SUCCESS;
		for (y = 0; ok && y < h; y++) {
			const uint8_t *src = raw + y * (row + 1);
			uint8_t *dst = bpp == 4 ? buf + y * row : raw + y * (row + 1) + 1;
			const uint8_t *prior = y == 0 ? NULL : bpp == 4 ?
			                       buf + (y - 1) * row :
			                       raw + (y - 1) * (row + 1) + 1;

			ok = unfilter(dst, src + 1, prior, row, bpp, src[0]);
			if (ok && argb32 && bpp == 4 && y > 0)
				bb__argb32_row(buf + (y - 1) * row, (int)w, 0);
		}
		if (ok && argb32 && bpp == 4)
			bb__argb32_row(buf + (h - 1) * row, (int)w, 0);
		if (ok && bpp == 3) {
			/* RGB -> RGBA, opaque, into the front of the buffer */
			for (y = 0; y < h; y++) {
				const uint8_t *s = raw + y * (row + 1) + 1;
				uint8_t *t = buf + y * w * 4;
				size_t x;

				for (x = 0; x < w; x++) {
					t[4 * x] = s[3 * x];
					t[4 * x + 1] = s[3 * x + 1];
					t[4 * x + 2] = s[3 * x + 2];
					t[4 * x + 3] = 0xff;
				}
				if (argb32)   /* opaque: only reordered */
					bb__argb32_row(t, (int)w, 1);
			}
		}
	}
	libdeflate_free_decompressor(dec);
	free(gathered);
	img = ok ? calloc(1, sizeof *img) : NULL;
	if (!img) {
		free(buf);
		return 0;
	}
	if (bpp == 3) {
		/* the pixels are at the front: the unfiltered RGB behind them,
		 * all written, would stay resident as long as the image */
		uint8_t *t = realloc(buf, h * w * 4);

		if (t)
			buf = t;
	}
	img->px = buf;   /* RGBA: h bytes more than the pixels, not worth a copy */
	img->premultiplied = img->argb32 = argb32;
	img->width = (int)w;
	img->height = (int)h;
	img->stride = w * 4;
	*out = img;
	return 1;
}
