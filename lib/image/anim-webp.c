/* Animated WebP through libwebp's animation encoder (libwebpmux).  The
 * only file that includes the WebP headers.  Settings are fixed (one
 * thread, no mixed mode, exact RGB under transparent pixels) so the same
 * frames always give the same bytes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include "image/anim-int.h"

struct bb__webp {
	WebPAnimEncoder *enc;
	WebPConfig config;
};

bb_status bb__webp_open(bb_anim_writer *w, bb_error *err)
{
	WebPAnimEncoderOptions eo;
	struct bb__webp *p = calloc(1, sizeof *p);

	if (!p)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	w->webp = p;
	if (!WebPAnimEncoderOptionsInit(&eo) || !WebPConfigInit(&p->config))
		return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL,
		                    "libwebp version mismatch");
	eo.anim_params.loop_count = w->o.loop_count;
	eo.anim_params.bgcolor = 0;      /* transparent */
	eo.minimize_size = 0;
	eo.allow_mixed = 0;
	eo.verbose = 0;
	p->config.thread_level = 0;
	/* method 2 / quality 50 (lossless: effort): on the DragonBones Dragon
	 * walk about half the time of libwebp's default 4 / 75 for 7% more
	 * bytes (scripts/bench-preview) */
	p->config.method = 2;
	p->config.exact = 1;
	if (w->o.lossy) {
		p->config.lossless = 0;
		p->config.quality = (float)w->o.quality;
		p->config.alpha_quality = 100;
	} else {
		p->config.lossless = 1;
		p->config.quality = 50;    /* effort, not fidelity */
	}
	if (!WebPValidateConfig(&p->config))
		return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL,
		                    "invalid WebP configuration");
	p->enc = WebPAnimEncoderNew(w->width, w->height, &eo);
	if (!p->enc)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL,
		                    "cannot start the WebP encoder");
	return BB_OK;
}

bb_status bb__webp_add(bb_anim_writer *w, const bb_image *img, double start,
                       double end, bb_error *err)
{
	struct bb__webp *p = w->webp;
	WebPPicture pic;
	int ok;

	(void)end;
	if (!WebPPictureInit(&pic))
		return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL,
		                    "libwebp version mismatch");
	pic.use_argb = 1;
	pic.width = img->width;
	pic.height = img->height;
	if (!WebPPictureImportRGBA(&pic, img->px, (int)img->stride)) {
		WebPPictureFree(&pic);
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	}
	ok = WebPAnimEncoderAdd(p->enc, &pic, (int)bb__anim_units(start, 1000),
	                        &p->config);
	WebPPictureFree(&pic);
	if (!ok)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL,
		                    "WebP frame %ld: %s", w->frames,
		                    WebPAnimEncoderGetError(p->enc));
	return BB_OK;
}

bb_status bb__webp_finish(bb_anim_writer *w, bb_error *err)
{
	struct bb__webp *p = w->webp;
	WebPData data;
	bb_status s = BB_OK;

	WebPDataInit(&data);
	if (!WebPAnimEncoderAdd(p->enc, NULL, (int)bb__anim_units(w->last_end, 1000),
	                        NULL) ||
	    !WebPAnimEncoderAssemble(p->enc, &data))
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "WebP: %s",
		                    WebPAnimEncoderGetError(p->enc));
	if (fwrite(data.bytes, 1, data.size, w->f) != data.size)
		s = bb__anim_write_failed(w, errno, err);
	WebPDataClear(&data);
	return s;
}

void bb__webp_free(bb_anim_writer *w)
{
	if (!w->webp)
		return;
	WebPAnimEncoderDelete(w->webp->enc);
	free(w->webp);
	w->webp = NULL;
}
