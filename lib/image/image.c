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

bb_image *bb_image_dup(const bb_image *img)
{
	bb_image *d = NULL;
	int y;

	if (bb_image_new(img->width, img->height, &d, NULL) != BB_OK)
		return NULL;
	for (y = 0; y < img->height; y++)
		memcpy(bb_image_pixel(d, 0, y), bb_image_pixel(img, 0, y),
		       (size_t)img->width * 4);
	return d;
}
