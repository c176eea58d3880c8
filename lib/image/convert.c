/* The one place where cairo's premultiplied native-endian ARGB32 meets the
 * straight RGBA8 that PNG files, the differ and the packer use. */
#include "config.h"

#include <string.h>

#include "bonebake/image.h"

void bb_image_from_premul_argb32(bb_image *dst, const uint8_t *src,
                                 size_t src_stride)
{
	int x, y;

	for (y = 0; y < dst->height; y++) {
		const uint8_t *row = src + (size_t)y * src_stride;
		uint8_t *out = bb_image_pixel(dst, 0, y);

		for (x = 0; x < dst->width; x++, out += 4) {
			uint32_t p;
			unsigned a, r, g, b;

			memcpy(&p, row + (size_t)x * 4, 4);
			a = p >> 24;
			r = (p >> 16) & 0xff;
			g = (p >> 8) & 0xff;
			b = p & 0xff;
			if (a == 0) {
				out[0] = out[1] = out[2] = out[3] = 0;
				continue;
			}
			if (a != 255) {
				/* rounded division; r <= a always for valid data */
				r = (r * 255 + a / 2) / a;
				g = (g * 255 + a / 2) / a;
				b = (b * 255 + a / 2) / a;
				if (r > 255) r = 255;
				if (g > 255) g = 255;
				if (b > 255) b = 255;
			}
			out[0] = (uint8_t)r;
			out[1] = (uint8_t)g;
			out[2] = (uint8_t)b;
			out[3] = (uint8_t)a;
		}
	}
}

static inline unsigned mul_un8(unsigned c, unsigned a)
{
	unsigned t = c * a + 128;

	return (t + (t >> 8)) >> 8;
}

void bb_image_to_premul_argb32(const bb_image *src, uint8_t *dst,
                               size_t dst_stride)
{
	int x, y;

	for (y = 0; y < src->height; y++) {
		const uint8_t *in = bb_image_pixel(src, 0, y);
		uint8_t *row = dst + (size_t)y * dst_stride;

		for (x = 0; x < src->width; x++, in += 4) {
			unsigned a = in[3];
			uint32_t p = (uint32_t)a << 24 |
			             (uint32_t)mul_un8(in[0], a) << 16 |
			             (uint32_t)mul_un8(in[1], a) << 8 |
			             (uint32_t)mul_un8(in[2], a);

			memcpy(row + (size_t)x * 4, &p, 4);
		}
	}
}
