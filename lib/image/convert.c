/* The one place where cairo's premultiplied native-endian ARGB32 meets the
 * straight RGBA8 that PNG files, the differ and the packer use.
 *
 * Both run once per frame or texture region, so both avoid per-pixel
 * division: un-premultiplying divides by a reciprocal (exact, see
 * reciprocals), premultiplying runs 4 pixels at a time in 16-bit lanes
 * with SSE2 (every x86-64 CPU) in the same integer arithmetic as the
 * scalar code, so the bytes are the same either way. */
#include "config.h"

#include <string.h>

#if defined(__SSE2__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define HAVE_SSE2_PREMUL 1
#else
#define HAVE_SSE2_PREMUL 0
#endif

#include "bonebake/image.h"

/* inv[a] = ceil(2^24 / a): for n < 2^16 and 0 < a < 256, (n * inv[a]) >> 24
 * is n / a rounded down, exactly (inv[a] * a - 2^24 < a, and
 * n * (a - 1) < 2^24).  The numerators below are at most 255 * 255 + 127. */
static void reciprocals(uint32_t inv[256])
{
	unsigned a;

	inv[0] = 0;
	for (a = 1; a < 256; a++)
		inv[a] = ((1u << 24) + a - 1) / a;
}

void bb_image_from_premul_argb32(bb_image *dst, const uint8_t *src,
                                 size_t src_stride)
{
	uint32_t inv[256];
	int x, y;

	reciprocals(inv);
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
				r = (uint32_t)((uint64_t)(r * 255 + a / 2) * inv[a] >> 24);
				g = (uint32_t)((uint64_t)(g * 255 + a / 2) * inv[a] >> 24);
				b = (uint32_t)((uint64_t)(b * 255 + a / 2) * inv[a] >> 24);
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

#if HAVE_SSE2_PREMUL
/* Pixels x.. of a row, 4 at a time while 4 remain: mul_un8 in 16-bit
 * lanes (c * a + 128 < 2^16), R and B swapped, alpha kept.  Returns the
 * first pixel not done. */
static int premul_sse2(const uint8_t *in, uint8_t *out, int width)
{
	const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
	const __m128i amask = _mm_set_epi16(-1, 0, 0, 0, -1, 0, 0, 0);
	int x;

	for (x = 0; x + 4 <= width; x += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + 4 * x));
		__m128i half_px[2];
		int k;

		half_px[0] = _mm_unpacklo_epi8(v, zero);
		half_px[1] = _mm_unpackhi_epi8(v, zero);
		for (k = 0; k < 2; k++) {
			__m128i c = half_px[k];
			__m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(c, 0xff), 0xff);
			__m128i t = _mm_add_epi16(_mm_mullo_epi16(c, a), half);

			t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
			t = _mm_or_si128(_mm_andnot_si128(amask, t), _mm_and_si128(amask, c));
			/* R G B A -> B G R A in each pixel's four lanes */
			half_px[k] = _mm_shufflehi_epi16(_mm_shufflelo_epi16(t, 0xc6), 0xc6);
		}
		_mm_storeu_si128((__m128i *)(out + 4 * x),
		                 _mm_packus_epi16(half_px[0], half_px[1]));
	}
	return x;
}
#endif

void bb_image_to_premul_argb32(const bb_image *src, uint8_t *dst,
                               size_t dst_stride)
{
	int x, y;

	for (y = 0; y < src->height; y++) {
		const uint8_t *in = bb_image_pixel(src, 0, y);
		uint8_t *row = dst + (size_t)y * dst_stride;

		x = 0;
#if HAVE_SSE2_PREMUL
		x = premul_sse2(in, row, src->width);
		in += 4 * x;
#endif
		for (; x < src->width; x++, in += 4) {
			unsigned a = in[3];
			uint32_t p = (uint32_t)a << 24 |
			             (uint32_t)mul_un8(in[0], a) << 16 |
			             (uint32_t)mul_un8(in[1], a) << 8 |
			             (uint32_t)mul_un8(in[2], a);

			memcpy(row + (size_t)x * 4, &p, 4);
		}
	}
}
