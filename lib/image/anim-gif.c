/* Animated GIF through giflib.  The only file that includes gif_lib.h.
 * Each frame covers the whole canvas with its own palette from giflib's
 * median-cut quantizer (GifQuantizeBuffer) over its opaque pixels; pixels
 * with alpha below the threshold become one extra transparent entry, and
 * the frame is disposed to the (transparent) background before the next.
 * Delays are in 1/100 s, from the rounded end times. */
#include "config.h"

#include <gif_lib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "image/anim-int.h"

struct bb__gif {
	GifFileType *gif;
	GifByteType *r, *g, *b, *q;   /* opaque pixels' channels, their indices */
	GifPixelType *line;
	int write_errno;              /* why the last short write was short */
};

static int gif_out(GifFileType *gif, const GifByteType *data, int len)
{
	bb_anim_writer *w = gif->UserData;
	size_t n = fwrite(data, 1, (size_t)len, w->f);

	if (n != (size_t)len && w->gif)
		w->gif->write_errno = errno ? errno : EIO;
	return (int)n;
}

static bb_status gif_error(bb_anim_writer *w, bb_error *err, int code)
{
	if ((code == E_GIF_ERR_WRITE_FAILED || code == E_GIF_ERR_DISK_IS_FULL) &&
	    w->gif && w->gif->write_errno)
		return bb__anim_write_failed(w, w->gif->write_errno, err);
	return bb_error_set(err, code == E_GIF_ERR_NOT_ENOUGH_MEM ? BB_ERR_NOMEM
	                    : BB_ERR_IO, w->path, NULL, "GIF: %s",
	                    GifErrorString(code));
}

bb_status bb__gif_open(bb_anim_writer *w, bb_error *err)
{
	struct bb__gif *p = calloc(1, sizeof *p);
	size_t n = (size_t)w->width * (size_t)w->height;
	int code = 0;

	if (!p)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	w->gif = p;
	p->r = bb__calloc(n, 1);
	p->g = bb__calloc(n, 1);
	p->b = bb__calloc(n, 1);
	p->q = bb__calloc(n, 1);
	p->line = bb__calloc((size_t)w->width, sizeof *p->line);
	if (!p->r || !p->g || !p->b || !p->q || !p->line)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	p->gif = EGifOpen(w, gif_out, &code);
	if (!p->gif)
		return gif_error(w, err, code);
	EGifSetGifVersion(p->gif, true);
	if (EGifPutScreenDesc(p->gif, w->width, w->height, 8, 0, NULL) != GIF_OK)
		return gif_error(w, err, p->gif->Error);
	if (w->o.loop_count != 1) {
		/* NETSCAPE2.0: repetitions after the first play (0: forever) */
		int reps = w->o.loop_count == 0 ? 0 : w->o.loop_count - 1;
		GifByteType sub[3] = { 1, (GifByteType)(reps & 0xff),
		                       (GifByteType)(reps >> 8) };

		if (EGifPutExtensionLeader(p->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
		    EGifPutExtensionBlock(p->gif, 11, "NETSCAPE2.0") != GIF_OK ||
		    EGifPutExtensionBlock(p->gif, 3, sub) != GIF_OK ||
		    EGifPutExtensionTrailer(p->gif) != GIF_OK)
			return gif_error(w, err, p->gif->Error);
	}
	return BB_OK;
}

bb_status bb__gif_add(bb_anim_writer *w, const bb_image *img, double start,
                      double end, bb_error *err)
{
	struct bb__gif *p = w->gif;
	GifColorType colors[256];
	GraphicsControlBlock gcb;
	GifByteType ext[4];
	ColorMapObject *map;
	size_t n = 0, k = 0;
	int x, y, ncol = 0, total, bits, transparent = -1;

	for (y = 0; y < img->height; y++) {
		const uint8_t *px = bb_image_pixel(img, 0, y);

		for (x = 0; x < img->width; x++, px += 4)
			if (px[3] >= w->o.alpha_threshold) {
				p->r[n] = px[0];
				p->g[n] = px[1];
				p->b[n] = px[2];
				n++;
			}
	}
	memset(colors, 0, sizeof colors);
	if (n > 0) {
		ncol = n < (size_t)img->width * img->height ? 255 : 256;
		if (GifQuantizeBuffer((unsigned)n, 1, &ncol, p->r, p->g, p->b, p->q,
		                      colors) != GIF_OK)
			return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL,
			                    "GIF frame %ld: cannot quantize", w->frames);
	}
	if (n < (size_t)img->width * img->height)
		transparent = ncol;
	total = ncol + (transparent >= 0);
	bits = GifBitSize(total < 2 ? 2 : total);
	map = GifMakeMapObject(1 << bits, colors);
	if (!map)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	memset(&gcb, 0, sizeof gcb);
	gcb.DisposalMode = DISPOSE_BACKGROUND;
	gcb.UserInputFlag = false;
	gcb.DelayTime = (int)(bb__anim_units(end, 100) - bb__anim_units(start, 100));
	gcb.TransparentColor = transparent >= 0 ? transparent : NO_TRANSPARENT_COLOR;
	EGifGCBToExtension(&gcb, ext);
	if (EGifPutExtension(p->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) != GIF_OK ||
	    EGifPutImageDesc(p->gif, 0, 0, img->width, img->height, false,
	                     map) != GIF_OK) {
		GifFreeMapObject(map);
		return gif_error(w, err, p->gif->Error);
	}
	GifFreeMapObject(map);
	for (y = 0; y < img->height; y++) {
		const uint8_t *px = bb_image_pixel(img, 0, y);

		for (x = 0; x < img->width; x++, px += 4)
			p->line[x] = px[3] >= w->o.alpha_threshold ? p->q[k++]
			             : (GifPixelType)transparent;
		if (EGifPutLine(p->gif, p->line, img->width) != GIF_OK)
			return gif_error(w, err, p->gif->Error);
	}
	return BB_OK;
}

bb_status bb__gif_finish(bb_anim_writer *w, bb_error *err)
{
	struct bb__gif *p = w->gif;
	int code = 0, rc = EGifCloseFile(p->gif, &code);

	p->gif = NULL;
	return rc == GIF_OK ? BB_OK : gif_error(w, err, code);
}

void bb__gif_free(bb_anim_writer *w)
{
	struct bb__gif *p = w->gif;

	if (!p)
		return;
	if (p->gif)
		EGifCloseFile(p->gif, NULL);
	free(p->r);
	free(p->g);
	free(p->b);
	free(p->q);
	free(p->line);
	free(p);
	w->gif = NULL;
}
