/* See raster-error.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "raster-error.h"

void raster_downsample(const bb_image *ref, int q, bb_image *out)
{
	int x, y, i, j, c;

	for (y = 0; y < out->height; y++)
		for (x = 0; x < out->width; x++) {
			double sum[4] = { 0, 0, 0, 0 };
			uint8_t *o = bb_image_pixel(out, x, y);

			for (j = 0; j < q; j++)
				for (i = 0; i < q; i++) {
					const uint8_t *p = bb_image_pixel(ref, x * q + i, y * q + j);

					for (c = 0; c < 3; c++)
						sum[c] += p[c] * (double)p[3] / 255;
					sum[3] += p[3];
				}
			for (c = 0; c < 3; c++)
				o[c] = (uint8_t)(sum[3] > 0 ? lrint(fmin(255, sum[c] * 255 / sum[3])) : 0);
			o[3] = (uint8_t)lrint(sum[3] / (q * q));
		}
}

double raster_mean_error(const bb_image *a, const bb_image *b, long *covered)
{
	double sum = 0;
	long n = 0;
	int x, y, c;

	for (y = 0; y < a->height; y++)
		for (x = 0; x < a->width; x++) {
			const uint8_t *p = bb_image_pixel(a, x, y), *r = bb_image_pixel(b, x, y);

			if (p[3] == 0 && r[3] == 0)
				continue;
			n++;
			for (c = 0; c < 3; c++)
				sum += fabs(p[c] * (double)p[3] - r[c] * (double)r[3]) / 255;
			sum += abs(p[3] - r[3]);
		}
	if (covered)
		*covered = n;
	return n ? sum / (4.0 * n) : 0;
}
