/* Animated PNG: libpng (through bb_png_encode) compresses each frame; this
 * file re-wraps the encoded image data in the APNG chunks, which Debian's
 * libpng cannot write: acTL after IHDR, then per frame an fcTL followed by
 * the first frame's IDAT chunks or a later frame's data as fdAT chunks.
 *
 * A later frame covers only the rectangle that differs from the previous
 * frame (1x1 when none does), drawn with blend_op SOURCE over a canvas
 * that is never disposed, so transparency is exact.  acTL's frame count is
 * patched when the file is finished. */
#include "config.h"

#include <libdeflate.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "image/anim-int.h"

struct bb__apng {
	bb_image *prev;        /* the previous frame (the canvas after it) */
	unsigned long seq;     /* next sequence number of fcTL/fdAT */
	long actl_at;          /* file offset of the acTL chunk */
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Writes one chunk: length, type, `pre` (a sequence number or nothing),
 * data, CRC over type, pre and data. */
static int put_chunk(const struct bb__apng *a, FILE *f, const char *type, const uint8_t *pre,
                     size_t npre, const uint8_t *data, size_t n)
{
	uint8_t head[8], tail[4];
	uint32_t crc;

	(void)a;
	put32(head, (uint32_t)(npre + n));
	memcpy(head + 4, type, 4);
	/* the CRC every PNG chunk of bonebake gets: libdeflate's */
	crc = libdeflate_crc32(0, head + 4, 4);
	if (npre)
		crc = libdeflate_crc32(crc, pre, npre);
	if (n)
		crc = libdeflate_crc32(crc, data, n);
	put32(tail, crc);
	return fwrite(head, 1, 8, f) == 8 &&
	       (npre == 0 || fwrite(pre, 1, npre, f) == npre) &&
	       (n == 0 || fwrite(data, 1, n, f) == n) &&
	       fwrite(tail, 1, 4, f) == 4;
}

static int put_actl(const struct bb__apng *a, FILE *f, uint32_t frames,
                    uint32_t plays)
{
	uint8_t d[8];

	put32(d, frames);
	put32(d + 4, plays);
	return put_chunk(a, f, "acTL", NULL, 0, d, 8);
}

bb_status bb__apng_open(bb_anim_writer *w, bb_error *err)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	w->apng = calloc(1, sizeof *w->apng);
	if (!w->apng)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	if (fwrite(sig, 1, 8, w->f) != 8)
		return bb__anim_write_failed(w, errno, err);
	return BB_OK;
}

/* The rectangle {x, y, w, h} where a and b differ; 0 when they do not. */
static int changed_box(const bb_image *a, const bb_image *b, int box[4])
{
	int x0 = a->width, y0 = a->height, x1 = -1, y1 = -1, x, y;

	for (y = 0; y < a->height; y++) {
		const uint8_t *p = bb_image_pixel(a, 0, y), *q = bb_image_pixel(b, 0, y);

		if (memcmp(p, q, (size_t)a->width * 4) == 0)
			continue;
		for (x = 0; x < a->width; x++)
			if (memcmp(p + 4 * x, q + 4 * x, 4) != 0) {
				if (x < x0) x0 = x;
				if (x > x1) x1 = x;
			}
		if (y < y0) y0 = y;
		y1 = y;
	}
	if (x1 < 0)
		return 0;
	box[0] = x0;
	box[1] = y0;
	box[2] = x1 - x0 + 1;
	box[3] = y1 - y0 + 1;
	return 1;
}

static bb_status write_frame(bb_anim_writer *w, const bb_image *img,
                             const int box[4], unsigned delay, unsigned den,
                             bb_error *err)
{
	struct bb__apng *p = w->apng;
	bb_image view = { box[2], box[3], img->stride,
	                  (uint8_t *)bb_image_pixel(img, box[0], box[1]),
	                  img->premultiplied, 0 };
	uint8_t fctl[26], seq[4];
	void *data;
	size_t size, pos = 8;
	bb_status s;
	int ok = 1;

	s = bb_png_encode(&view, &data, &size, err);
	if (s != BB_OK)
		return s;
	if (w->frames == 0) {
		/* IHDR as libpng wrote it, then acTL (patched at the end) */
		uint32_t n = size >= 16 ? get32((uint8_t *)data + 8) : 0;

		if (size < 33 || n != 13 || memcmp((uint8_t *)data + 12, "IHDR", 4) != 0) {
			free(data);
			return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL,
			                    "unexpected PNG encoding");
		}
		ok = fwrite((uint8_t *)data + 8, 1, 25, w->f) == 25;
		p->actl_at = ftell(w->f);
		ok = ok && put_actl(p, w->f, 0, (uint32_t)w->o.loop_count);
	}
	put32(fctl, (uint32_t)p->seq++);
	put32(fctl + 4, (uint32_t)box[2]);
	put32(fctl + 8, (uint32_t)box[3]);
	put32(fctl + 12, (uint32_t)box[0]);
	put32(fctl + 16, (uint32_t)box[1]);
	fctl[20] = (uint8_t)(delay >> 8);
	fctl[21] = (uint8_t)delay;
	fctl[22] = (uint8_t)(den >> 8);
	fctl[23] = (uint8_t)den;
	fctl[24] = 0;    /* dispose_op NONE */
	fctl[25] = 0;    /* blend_op SOURCE */
	ok = ok && put_chunk(p, w->f, "fcTL", NULL, 0, fctl, 26);
	/* walk the encoded chunks; keep the image data */
	while (ok && pos + 12 <= size) {
		const uint8_t *c = (uint8_t *)data + pos;
		uint32_t n = get32(c);

		if (n > size - pos - 12) {
			free(data);
			return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL,
			                    "unexpected PNG encoding");
		}
		if (memcmp(c + 4, "IDAT", 4) == 0) {
			if (w->frames == 0) {
				ok = fwrite(c, 1, (size_t)n + 12, w->f) == (size_t)n + 12;
			} else {
				put32(seq, (uint32_t)p->seq++);
				ok = put_chunk(p, w->f, "fdAT", seq, 4, c + 8, n);
			}
		}
		pos += (size_t)n + 12;
	}
	free(data);
	return ok ? BB_OK : bb__anim_write_failed(w, errno, err);
}

bb_status bb__apng_add(bb_anim_writer *w, const bb_image *img, double start,
                       double end, bb_error *err)
{
	struct bb__apng *p = w->apng;
	long long d = bb__anim_units(end, 1000) - bb__anim_units(start, 1000);
	int box[4] = { 0, 0, img->width, img->height }, y;
	unsigned den = 1000;
	bb_status s;

	if (d > 65535) {   /* over 65.535 s: in 1/100 s (bb_anim_add caps 655 s) */
		d = bb__anim_units(end, 100) - bb__anim_units(start, 100);
		den = 100;
	}
	if (p->prev && !changed_box(p->prev, img, box))
		box[2] = box[3] = 1;   /* nothing changed: one unchanged pixel */
	s = write_frame(w, img, box, (unsigned)d, den, err);
	if (s != BB_OK)
		return s;
	if (!p->prev && bb_image_new(img->width, img->height, &p->prev, NULL) != BB_OK)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	for (y = box[1]; y < box[1] + box[3]; y++)
		memcpy(bb_image_pixel(p->prev, box[0], y),
		       bb_image_pixel(img, box[0], y), (size_t)box[2] * 4);
	return BB_OK;
}

bb_status bb__apng_finish(bb_anim_writer *w, bb_error *err)
{
	struct bb__apng *p = w->apng;
	long end;

	if (!put_chunk(p, w->f, "IEND", NULL, 0, NULL, 0) || (end = ftell(w->f)) < 0 ||
	    fseek(w->f, p->actl_at, SEEK_SET) != 0 ||
	    !put_actl(p, w->f, (uint32_t)w->frames, (uint32_t)w->o.loop_count) ||
	    fseek(w->f, end, SEEK_SET) != 0)
		return bb__anim_write_failed(w, errno, err);
	return BB_OK;
}

void bb__apng_free(bb_anim_writer *w)
{
	if (!w->apng)
		return;
	bb_image_free(w->apng->prev);
	free(w->apng);
	w->apng = NULL;
}
