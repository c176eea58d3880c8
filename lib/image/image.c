/* Pixel buffers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bonebake/image.h"
#include "core/util.h"

bb_status bb_image_new(int width, int height, bb_image **out, bb_error *err)
{
	bb_image *img;

	*out = NULL;
	if (width <= 0 || height <= 0 || width > BB_IMAGE_MAX_SIDE ||
	    height > BB_IMAGE_MAX_SIDE)
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL,
		                    "image size %dx%d outside 1..%d", width, height,
		                    BB_IMAGE_MAX_SIDE);
	img = calloc(1, sizeof *img);
	if (!img)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	img->width = width;
	img->height = height;
	img->stride = (size_t)width * 4;
	img->px = bb__calloc((size_t)height, img->stride);
	if (!img->px) {
		free(img);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                    "out of memory for a %dx%d image", width, height);
	}
	*out = img;
	return BB_OK;
}

void bb_image_free(bb_image *img)
{
	if (!img)
		return;
	free(img->px);
	free(img);
}

bb_image *bb_image_crop(const bb_image *img, int x, int y, int w, int h)
{
	bb_image *d = NULL;
	int r;

	if (x < 0 || y < 0 || w < 1 || h < 1 || x > img->width - w ||
	    y > img->height - h || bb_image_new(w, h, &d, NULL) != BB_OK)
		return NULL;
	d->premultiplied = img->premultiplied;
	for (r = 0; r < h; r++)
		memcpy(bb_image_pixel(d, 0, r), bb_image_pixel(img, x, y + r),
		       (size_t)w * 4);
	return d;
}

bb_image *bb_image_place(const bb_image *img, int w, int h, int x, int y)
{
	bb_image *d = NULL;
	int x0 = x > 0 ? x : 0, x1 = x + img->width < w ? x + img->width : w;
	int r;

	if (bb_image_new(w, h, &d, NULL) != BB_OK)
		return NULL;
	d->premultiplied = img->premultiplied;
	if (x1 <= x0)
		return d;
	for (r = y > 0 ? y : 0; r < h && r < y + img->height; r++)
		memcpy(bb_image_pixel(d, x0, r), bb_image_pixel(img, x0 - x, r - y),
		       (size_t)(x1 - x0) * 4);
	return d;
}

bb_image *bb_image_dup(const bb_image *img)
{
	return bb_image_crop(img, 0, 0, img->width, img->height);
}
