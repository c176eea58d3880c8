/* The PNG encoder: the chunks (signature, IHDR, IDAT, IEND with their
 * CRCs) written here, the rows and the zlib stream either from the fast
 * path (png-fast.c: a filter per row, Huffman-coded bytes, no LZ77
 * search; frames' default) or filtered here and deflated by libdeflate
 * (levels 0..9).  One encoder object keeps its compressor and buffers, so
 * a thread that encodes frame after frame allocates nothing once its
 * buffers have grown to the frame size.
 *
 * Settings were chosen by measurement on real frames and sheets
 * (scripts/bench png, docs/cli.md "PNG output"): libdeflate beat libpng + zlib
 * at every size, and with libdeflate filter None beat the other filters on
 * corpus frames and sheets at every level. */
#include "config.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "core/util.h"
#include "image/png-fast.h"
#include "image/png-int.h"

/* A PNG chunk holds at most 2^31 - 1 bytes. */
#define IDAT_MAX ((size_t)0x7fffffff)

struct bb_png_encoder {
	int level;                 /* 0..9 or BB_PNG_LEVEL_FAST */
	bb_png_filter filter;
	struct libdeflate_compressor *comp;  /* levels 0..9 */
	bb__png_simd simd;         /* the fast path's row filters */
	uint8_t *zero;             /* the fast path: a zero row, the first's prior */
	size_t zero_cap;
	uint8_t *raw;              /* filtered rows, each led by its filter type */
	size_t raw_cap;
	uint8_t *out;              /* the PNG file */
	size_t out_cap;
	uint8_t *zbuf;             /* the zlib stream when it must be split */
	size_t zbuf_cap;
	uint8_t *trial;            /* ADAPTIVE: one candidate row per filter */
	size_t trial_cap;
	uint8_t *ring;             /* an argb32 image: its last two rows straight */
	size_t ring_cap;
	size_t idat_max;           /* largest IDAT chunk (tests lower it) */
};

/* The filter a level uses when none is asked for: None at every level.
 * On corpus frames and sheet pages every other filter, adaptive included,
 * gave files 10-20 % larger at every level, and took longer; only flat
 * shaded sample frames did better with Up or adaptive, at levels 1-4
 * (scripts/bench png, docs/cli.md "PNG output"). */
static bb_png_filter level_filter(int level)
{
	(void)level;
	return BB_PNG_FILTER_NONE;
}

static bb_status check_options(const bb_png_options *o, int *level,
                               bb_png_filter *filter, bb_error *err)
{
	*level = o && o->level_set ? o->level : -1;
	*filter = o ? o->filter : BB_PNG_FILTER_DEFAULT;
	if (*level < BB_PNG_LEVEL_FAST || *level > BB_PNG_LEVEL_MAX ||
	    (o && o->level_set && *level == -1))
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "PNG level %d outside 0..%d", *level,
		                    BB_PNG_LEVEL_MAX);
	if ((unsigned)*filter > BB_PNG_FILTER_ADAPTIVE)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "unknown PNG filter %d", (int)*filter);
	if (*filter == BB_PNG_FILTER_DEFAULT)
		*filter = level_filter(*level);
	return BB_OK;
}

bb_status bb_png_encoder_new(const bb_png_options *o, bb_png_encoder **out,
                             bb_error *err)
{
	bb_png_encoder *e;
	bb_status st;
	int level;
	bb_png_filter filter;

	*out = NULL;
	st = check_options(o, &level, &filter, err);
	if (st != BB_OK)
		return st;
	if (level == -1)
		level = BB_PNG_LEVEL_FRAMES;
	e = calloc(1, sizeof *e);
	if (!e)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	e->level = level;
	e->filter = filter;
	e->idat_max = IDAT_MAX;
	e->simd = bb__png_simd_default();
	if (level >= 0 && !(e->comp = libdeflate_alloc_compressor(level))) {
		free(e);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	*out = e;
	return BB_OK;
}

void bb_png_encoder_free(bb_png_encoder *e)
{
	if (!e)
		return;
	libdeflate_free_compressor(e->comp);
	free(e->zero);
	free(e->raw);
	free(e->out);
	free(e->zbuf);
	free(e->trial);
	free(e->ring);
	free(e);
}

int bb__png_encoder_set_simd(bb_png_encoder *e, int path)
{
	if (path < 0 || path >= BB__PNG_SIMD_COUNT ||
	    !bb__png_simd_available((bb__png_simd)path))
		return 0;
	e->simd = (bb__png_simd)path;
	return 1;
}

void bb__png_encoder_set_idat_max(bb_png_encoder *e, size_t max)
{
	e->idat_max = max > 0 && max < IDAT_MAX ? max : IDAT_MAX;
}

/* ---- filters (PNG spec 9.2; 4 bytes per pixel) ------------------------ */

static void filter_sub(uint8_t *d, const uint8_t *x, size_t n)
{
	size_t i;

	memcpy(d, x, n < 4 ? n : 4);
	for (i = 4; i < n; i++)
		d[i] = (uint8_t)(x[i] - x[i - 4]);
}

static void filter_up(uint8_t *d, const uint8_t *x, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(x[i] - b[i]);
}

static void filter_avg(uint8_t *d, const uint8_t *x, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		d[i] = (uint8_t)(x[i] - (b[i] >> 1));
	for (; i < n; i++)
		d[i] = (uint8_t)(x[i] - ((x[i - 4] + b[i]) >> 1));
}


static void filter_paeth(uint8_t *d, const uint8_t *x, const uint8_t *b,
                         size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 4; i++)
		d[i] = (uint8_t)(x[i] - b[i]);        /* a = c = 0: Paeth is b */
	for (; i < n; i++)
		d[i] = (uint8_t)(x[i] - bb__png_paeth(x[i - 4], b[i], b[i - 4]));
}

/* Row x (prior row b, NULL for the first) filtered with type t into d. */
static void filter_row(uint8_t *d, const uint8_t *x, const uint8_t *b,
                       size_t n, bb_png_filter t)
{
	/* the first row has a zero prior row: Up is None, Average halves
	 * nothing from above, Paeth is Sub */
	if (!b) {
		if (t == BB_PNG_FILTER_UP)
			t = BB_PNG_FILTER_NONE;
		else if (t == BB_PNG_FILTER_PAETH)
			t = BB_PNG_FILTER_SUB;
	}
	switch (t) {
	case BB_PNG_FILTER_SUB:
		filter_sub(d, x, n);
		return;
	case BB_PNG_FILTER_UP:
		filter_up(d, x, b, n);
		return;
	case BB_PNG_FILTER_AVERAGE:
		if (b) {
			filter_avg(d, x, b, n);
		} else {
			size_t i;

			memcpy(d, x, n < 4 ? n : 4);
			for (i = 4; i < n; i++)
				d[i] = (uint8_t)(x[i] - (x[i - 4] >> 1));
		}
		return;
	case BB_PNG_FILTER_PAETH:
		filter_paeth(d, x, b, n);
		return;
	case BB_PNG_FILTER_DEFAULT:
	case BB_PNG_FILTER_NONE:
	case BB_PNG_FILTER_ADAPTIVE:
		break;
	}
	memcpy(d, x, n);
}

/* The PNG filter type byte of each choice. */
static uint8_t filter_type(bb_png_filter t, int first_row)
{
	switch (t) {
	case BB_PNG_FILTER_SUB: return 1;
	case BB_PNG_FILTER_UP: return first_row ? 0 : 2;
	case BB_PNG_FILTER_AVERAGE: return 3;
	case BB_PNG_FILTER_PAETH: return first_row ? 1 : 4;
	case BB_PNG_FILTER_DEFAULT:
	case BB_PNG_FILTER_NONE:
	case BB_PNG_FILTER_ADAPTIVE:
		break;
	}
	return 0;
}

/* Sum of the filtered bytes read as signed: the usual "minimum sum of
 * absolute differences" measure for choosing a row's filter. */
static unsigned long row_cost(const uint8_t *d, size_t n, unsigned long stop)
{
	unsigned long s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		s += d[i] < 128 ? d[i] : 256u - d[i];
		if (s >= stop)
			break;
	}
	return s;
}

/* One row into dst (type byte + n bytes). */
static void encode_row(bb_png_encoder *e, uint8_t *dst, const uint8_t *x,
                       const uint8_t *b, size_t n)
{
	static const bb_png_filter order[5] = {
		BB_PNG_FILTER_NONE, BB_PNG_FILTER_SUB, BB_PNG_FILTER_UP,
		BB_PNG_FILTER_AVERAGE, BB_PNG_FILTER_PAETH
	};
	unsigned long best = (unsigned long)-1;
	int k, pick = 0;

	if (e->filter != BB_PNG_FILTER_ADAPTIVE) {
		dst[0] = filter_type(e->filter, b == NULL);
		filter_row(dst + 1, x, b, n, e->filter);
		return;
	}
	/* ties keep the earlier type; on the first row Up and Paeth repeat
	 * None and Sub and are skipped */
	for (k = 0; k < 5; k++) {
		unsigned long c;

		if (!b && (order[k] == BB_PNG_FILTER_UP ||
		           order[k] == BB_PNG_FILTER_PAETH))
			continue;
		filter_row(e->trial + (size_t)k * n, x, b, n, order[k]);
		c = row_cost(e->trial + (size_t)k * n, n, best);
		if (c < best) {
			best = c;
			pick = k;
		}
	}
	dst[0] = filter_type(order[pick], b == NULL);
	memcpy(dst + 1, e->trial + (size_t)pick * n, n);
}

/* ---- chunks ------------------------------------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Length, type and CRC around the `len` data bytes already at p + 8. */
static size_t close_chunk(uint8_t *p, const char *type, size_t len)
{
	put32(p, (uint32_t)len);
	memcpy(p + 4, type, 4);
	put32(p + 8 + len, (uint32_t)libdeflate_crc32(0, p + 4, len + 4));
	return len + 12;
}

/* The zlib stream of the size bytes of filtered rows in e->raw, into out
 * (bound bytes); 0 on failure. */
static size_t deflate_rows(bb_png_encoder *e, int fast, size_t size,
                           size_t row, uint8_t *out, size_t bound)
{
	if (fast)
		return bb__png_fast_zlib(e->raw, size, row, out);
	return libdeflate_zlib_compress(e->comp, e->raw, size, out, bound);
}

bb_status bb_png_encoder_encode(bb_png_encoder *e, const bb_image *img,
                                const void **data, size_t *size,
                                bb_error *err)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t w, h, row, raw_size, bound, head, pos, zlen, y, nchunks;
	int fast;
	uint8_t *p;

	*data = NULL;
	*size = 0;
	if (!img || img->width <= 0 || img->height <= 0 ||
	    img->width > BB_IMAGE_MAX_SIDE || img->height > BB_IMAGE_MAX_SIDE)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "PNG encode: no image or a bad size");
	w = (size_t)img->width;
	h = (size_t)img->height;
	row = 4 * w;
	if (h > SIZE_MAX / (row + 1))
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL, "image too large");
	raw_size = (row + 1) * h;
	fast = e->level == BB_PNG_LEVEL_FAST;
	if (!bb__reserve_pixels((void **)&e->raw, &e->raw_cap, raw_size) ||
	    (e->filter == BB_PNG_FILTER_ADAPTIVE && !fast &&
	     !bb__grow((void **)&e->trial, &e->trial_cap, 5 * row, 1)) ||
	    (fast && !bb__grow((void **)&e->zero, &e->zero_cap, row, 1)))
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	if (img->argb32 && !bb__grow((void **)&e->ring, &e->ring_cap, 2 * row, 1))
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	if (fast)
		memset(e->zero, 0, row);
	for (y = 0; y < h; y++) {
		const uint8_t *cur = bb_image_pixel(img, 0, (int)y);
		const uint8_t *prior = y ? bb_image_pixel(img, 0, (int)y - 1) : NULL;

		if (img->argb32) {
			/* the rasterizer's layout: each row made straight RGBA as
			 * it is filtered (the row before it kept), as bb_render does */
			bb_image line = { img->width, 1, row, e->ring + (y & 1) * row, 0, 0 };

			bb_image_from_premul_argb32(&line, cur, img->stride);
			cur = line.px;
			prior = y ? e->ring + ((y - 1) & 1) * row : NULL;
		}
		if (fast)
			bb__png_fast_filter(e->simd, cur, row, row, 1,
			                    prior ? prior : e->zero, e->raw + y * (row + 1));
		else
			encode_row(e, e->raw + y * (row + 1), cur, prior, row);
	}
	bound = fast ? bb__png_fast_bound(raw_size)
	             : libdeflate_zlib_compress_bound(e->comp, raw_size);
	if (bound == 0)
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL, "image too large");
	nchunks = bound / e->idat_max + 1;
	head = sizeof sig + 25 + 8;              /* signature, IHDR, IDAT header */
	if (bound > SIZE_MAX - head - 12 * nchunks - 12)
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL, "image too large");
	if (!bb__grow((void **)&e->out, &e->out_cap,
	              head + bound + 12 * nchunks + 12, 1))
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	p = e->out;
	memcpy(p, sig, sizeof sig);
	pos = sizeof sig;
	put32(p + pos + 8, (uint32_t)w);
	put32(p + pos + 12, (uint32_t)h);
	p[pos + 16] = 8;                         /* bit depth */
	p[pos + 17] = 6;                         /* RGBA */
	p[pos + 18] = 0;                         /* deflate */
	p[pos + 19] = 0;                         /* adaptive filtering */
	p[pos + 20] = 0;                         /* no interlace */
	pos += close_chunk(p + pos, "IHDR", 13);

	if (nchunks == 1) {
		/* the usual case: the stream goes straight into the one IDAT */
		zlen = deflate_rows(e, fast, raw_size, row + 1, p + pos + 8, bound);
		if (zlen == 0)
			return bb_error_set(err, BB_ERR_INTERNAL, NULL, NULL,
			                    "PNG encode: deflate failed");
		pos += close_chunk(p + pos, "IDAT", zlen);
	} else {
		size_t off;

		if (!bb__grow((void **)&e->zbuf, &e->zbuf_cap, bound, 1))
			return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		zlen = deflate_rows(e, fast, raw_size, row + 1, e->zbuf, bound);
		if (zlen == 0)
			return bb_error_set(err, BB_ERR_INTERNAL, NULL, NULL,
			                    "PNG encode: deflate failed");
		for (off = 0; off < zlen; off += e->idat_max) {
			size_t n = zlen - off < e->idat_max ? zlen - off : e->idat_max;

			memcpy(p + pos + 8, e->zbuf + off, n);
			pos += close_chunk(p + pos, "IDAT", n);
		}
	}
	pos += close_chunk(p + pos, "IEND", 0);
	*data = e->out;
	*size = pos;
	return BB_OK;
}

/* Encodes img and writes it to path with `write` (an error names path). */
static bb_status encode_to(bb_png_encoder *e, const char *path,
                           const bb_image *img, bb_error *err,
                           bb_status (*write)(const char *, const void *,
                                              size_t, bb_error *))
{
	const void *data;
	size_t size;
	bb_status s;

	s = bb_png_encoder_encode(e, img, &data, &size, err);
	if (s != BB_OK) {
		if (err)
			snprintf(err->file, sizeof err->file, "%s", path);
		return s;
	}
	return write(path, data, size, err);
}

bb_status bb_png_encoder_write(bb_png_encoder *e, const char *path,
                               const bb_image *img, bb_error *err)
{
	return encode_to(e, path, img, err, bb_file_write_atomic);
}

bb_status bb_png_encoder_write_new(bb_png_encoder *e, const char *path,
                                   const bb_image *img, bb_error *err)
{
	return encode_to(e, path, img, err, bb_file_write_new);
}

/* ---- one-shot helpers --------------------------------------------------- */

bb_status bb_png_encode_opts(const bb_image *img, const bb_png_options *o,
                             void **data, size_t *size, bb_error *err)
{
	bb_png_encoder *e;
	const void *d;
	bb_status s;

	*data = NULL;
	*size = 0;
	s = bb_png_encoder_new(o, &e, err);
	if (s != BB_OK)
		return s;
	s = bb_png_encoder_encode(e, img, &d, size, err);
	if (s == BB_OK) {
		/* hand the buffer over, trimmed to the file, instead of copying */
		void *t = realloc(e->out, *size);

		*data = t ? t : e->out;
		e->out = NULL;
	}
	bb_png_encoder_free(e);
	return s;
}

bb_status bb_png_encode(const bb_image *img, void **data, size_t *size,
                        bb_error *err)
{
	return bb_png_encode_opts(img, NULL, data, size, err);
}

bb_status bb_png_encode_fast(const bb_image *img, void **data, size_t *size,
                             bb_error *err)
{
	bb_png_options fast = { BB_PNG_LEVEL_FAST, 1, BB_PNG_FILTER_DEFAULT };

	return bb_png_encode_opts(img, &fast, data, size, err);
}

bb_status bb_png_write(const char *path, const bb_image *img, bb_error *err)
{
	bb_png_encoder *e;
	bb_status s;

	s = bb_png_encoder_new(NULL, &e, err);
	if (s != BB_OK)
		return s;
	s = bb_png_encoder_write(e, path, img, err);
	bb_png_encoder_free(e);
	return s;
}
