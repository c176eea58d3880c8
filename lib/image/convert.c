/* The one place where colour is multiplied by alpha, and where cairo's
 * premultiplied native-endian ARGB32 meets the RGBA8 of bb_image: straight
 * in PNG files, the differ and the packer; premultiplied in a model's
 * textures (once, when loaded) and the packer's --premultiply pages.
 *
 * Each runs once per frame, texture or texture region, so none divides
 * per pixel: un-premultiplying divides by a reciprocal (exact, see
 * reciprocals); premultiplying (c * a / 255 rounded, mul_un8: the one
 * rounding rule) and reordering run 4 pixels at a time with SSE2 (every
 * x86-64 CPU) in the same integer arithmetic as the scalar code, so the
 * bytes are the same either way. */
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
#include "image/png-int.h"

/* inv[a] = ceil(2^24 / a): for n < 2^16 and 0 < a < 256, (n * inv[a]) >> 24
 * is n / a rounded down, exactly (inv[a] * a - 2^24 < a, and
 * n * (a - 1) < 2^24).  The numerators below are at most 255 * 255 + 127.
 * (inv[0] is never used.) */
#define INV(a) (((1u << 24) + (a) - 1) / ((a) ? (a) : 1))
#define INV4(a) INV(a), INV((a) + 1), INV((a) + 2), INV((a) + 3)
#define INV16(a) INV4(a), INV4((a) + 4), INV4((a) + 8), INV4((a) + 12)
#define INV64(a) INV16(a), INV16((a) + 16), INV16((a) + 32), INV16((a) + 48)
static const uint32_t inv[256] = { INV64(0u), INV64(64u), INV64(128u),
                                   INV64(192u) };

/* c * a / 255 rounded to nearest, exactly, for 8-bit c and a: the one
 * rounding rule of premultiplication. */
static inline unsigned mul_un8(unsigned c, unsigned a)
{
	unsigned t = c * a + 128;

	return (t + (t >> 8)) >> 8;
}

#if HAVE_SSE2_PREMUL
/* Whether all four pixels of v (native ARGB32 or RGBA bytes: alpha is the
 * top byte of each little-endian lane) have the alpha of `a` (0 or
 * 0xff000000). */
static inline int alpha4_all(__m128i v, uint32_t a)
{
	const __m128i alpha = _mm_set1_epi32((int)0xff000000u);

	return _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(v, alpha),
	                                         _mm_set1_epi32((int)a))) == 0xffff;
}

/* Bytes 0 and 2 of each pixel swapped: RGBA bytes <-> little-endian ARGB32
 * lanes, either way. */
static inline __m128i swap_rb(__m128i v)
{
	const __m128i ga = _mm_set1_epi32((int)0xff00ff00u);
	const __m128i low = _mm_set1_epi32(0xff);

	return _mm_or_si128(_mm_and_si128(v, ga),
	                    _mm_or_si128(_mm_and_si128(_mm_srli_epi32(v, 16), low),
	                                 _mm_slli_epi32(_mm_and_si128(v, low), 16)));
}

/* Pixels of a row, 4 at a time while 4 remain: mul_un8 in 16-bit lanes
 * (c * a + 128 < 2^16), alpha kept, and with `argb` R and B swapped
 * (RGBA bytes -> native ARGB32).  in and out may be the same row.
 * Returns the first pixel not done. */
static int premul_sse2(const uint8_t *in, uint8_t *out, int width, int argb)
{
	const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
	const __m128i amask = _mm_set_epi16(-1, 0, 0, 0, -1, 0, 0, 0);
	int x;

	for (x = 0; x + 4 <= width; x += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + 4 * x));
		__m128i half_px[2];
		int k;

		/* most texture pixels are clear or opaque: four clear ones are
		 * 0 (c * 0 rounds to 0), four opaque ones their colour (c * 255
		 * / 255 = c), so without `argb` nothing to compute */
		if (alpha4_all(v, 0)) {
			_mm_storeu_si128((__m128i *)(out + 4 * x), zero);
			continue;
		}
		if (!argb && alpha4_all(v, 0xff000000u)) {
			if (out != in)
				_mm_storeu_si128((__m128i *)(out + 4 * x), v);
			continue;
		}
		half_px[0] = _mm_unpacklo_epi8(v, zero);
		half_px[1] = _mm_unpackhi_epi8(v, zero);
		for (k = 0; k < 2; k++) {
			__m128i c = half_px[k];
			__m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(c, 0xff), 0xff);
			__m128i t = _mm_add_epi16(_mm_mullo_epi16(c, a), half);

			t = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
			t = _mm_or_si128(_mm_andnot_si128(amask, t), _mm_and_si128(amask, c));
			/* R G B A -> B G R A in each pixel's four lanes */
			half_px[k] = argb ? _mm_shufflehi_epi16(_mm_shufflelo_epi16(t, 0xc6), 0xc6)
			                  : t;
		}
		_mm_storeu_si128((__m128i *)(out + 4 * x),
		                 _mm_packus_epi16(half_px[0], half_px[1]));
	}
	return x;
}

/* Premultiplied RGBA -> native ARGB32, 4 pixels at a time while 4 remain:
 * each colour byte at most its alpha, R and B swapped.  Returns the first
 * pixel not done. */
static int reorder_sse2(const uint8_t *in, uint8_t *out, int width)
{
	const __m128i amask = _mm_set1_epi32((int)0xff000000u);
	int x;

	for (x = 0; x + 4 <= width; x += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + 4 * x));
		__m128i a = _mm_and_si128(v, amask);

		/* alpha in all four bytes of its pixel, then colour <= alpha */
		a = _mm_or_si128(a, _mm_srli_epi32(a, 8));
		a = _mm_or_si128(a, _mm_srli_epi32(a, 16));
		v = _mm_min_epu8(v, a);
		/* little-endian lane A B G R (bytes R G B A) -> A R G B */
		_mm_storeu_si128((__m128i *)(out + 4 * x), swap_rb(v));
	}
	return x;
}
#endif

/* width pixels of straight RGBA premultiplied into out: RGBA bytes, or
 * native ARGB32 with `argb`.  in and out may be the same row. */
static void premul_row(const uint8_t *in, uint8_t *out, int width, int argb)
{
	int x = 0;

#if HAVE_SSE2_PREMUL
	x = premul_sse2(in, out, width, argb);
#endif
	for (; x < width; x++) {
		const uint8_t *p = in + (size_t)x * 4;
		uint8_t *o = out + (size_t)x * 4;
		unsigned a = p[3];
		unsigned r = mul_un8(p[0], a), g = mul_un8(p[1], a), b = mul_un8(p[2], a);

		if (argb) {
			uint32_t v = (uint32_t)a << 24 | r << 16 | g << 8 | b;

			memcpy(o, &v, 4);
		} else {
			o[0] = (uint8_t)r;
			o[1] = (uint8_t)g;
			o[2] = (uint8_t)b;
		}
	}
}

/* width pixels of premultiplied RGBA into native ARGB32 (colour clamped
 * to alpha). */
static void reorder_row(const uint8_t *in, uint8_t *out, int width)
{
	int x = 0;

#if HAVE_SSE2_PREMUL
	x = reorder_sse2(in, out, width);
#endif
	for (; x < width; x++) {
		const uint8_t *p = in + (size_t)x * 4;
		unsigned a = p[3];
		unsigned r = p[0] > a ? a : p[0], g = p[1] > a ? a : p[1],
		         b = p[2] > a ? a : p[2];
		uint32_t v = (uint32_t)a << 24 | r << 16 | g << 8 | b;

		memcpy(out + (size_t)x * 4, &v, 4);
	}
}

/* One premultiplied native ARGB32 pixel as straight RGBA bytes. */
static void unpremul_px(const uint8_t *in, uint8_t *out)
{
	uint32_t p;
	unsigned a, r, g, b;

	memcpy(&p, in, 4);
	a = p >> 24;
	r = (p >> 16) & 0xff;
	g = (p >> 8) & 0xff;
	b = p & 0xff;
	if (a == 0) {
		out[0] = out[1] = out[2] = out[3] = 0;
		return;
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

/* width pixels of premultiplied native ARGB32 into straight RGBA. */
static void unpremul_row(const uint8_t *in, uint8_t *out, int width)
{
	int x = 0;

#if HAVE_SSE2_PREMUL
	/* 4 clear pixels are 0, 4 opaque ones only reordered: most of a
	 * frame is one or the other */
	for (; x + 4 <= width; x += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + 4 * x));
		int k;

		if (alpha4_all(v, 0))
			_mm_storeu_si128((__m128i *)(out + 4 * x), _mm_setzero_si128());
		else if (alpha4_all(v, 0xff000000u))
			_mm_storeu_si128((__m128i *)(out + 4 * x), swap_rb(v));
		else
			for (k = 0; k < 4; k++)
				unpremul_px(in + 4 * (x + k), out + 4 * (x + k));
	}
#endif
	for (; x < width; x++)
		unpremul_px(in + (size_t)x * 4, out + (size_t)x * 4);
}

void bb_image_from_premul_argb32(bb_image *dst, const uint8_t *src,
                                 size_t src_stride)
{
	int y;

	dst->premultiplied = 0;
	for (y = 0; y < dst->height; y++)
		unpremul_row(src + (size_t)y * src_stride, bb_image_pixel(dst, 0, y),
		             dst->width);
}

void bb__argb32_row(uint8_t *row, int width, int premultiplied)
{
	if (premultiplied)
		reorder_row(row, row, width);
	else
		premul_row(row, row, width, 1);
}

void bb_image_to_argb32(bb_image *img)
{
	int y;

	if (img->argb32)
		return;
	for (y = 0; y < img->height; y++)
		bb__argb32_row(bb_image_pixel(img, 0, y), img->width, img->premultiplied);
	img->premultiplied = img->argb32 = 1;
}

void bb_image_premultiply(bb_image *img)
{
	int y;

	if (img->premultiplied || img->argb32)
		return;
	for (y = 0; y < img->height; y++) {
		uint8_t *row = bb_image_pixel(img, 0, y);

		premul_row(row, row, img->width, 0);
	}
	img->premultiplied = 1;
}

void bb_image_to_premul_argb32(const bb_image *src, uint8_t *dst,
                               size_t dst_stride)
{
	int y;

	for (y = 0; y < src->height; y++) {
		const uint8_t *in = bb_image_pixel(src, 0, y);
		uint8_t *row = dst + (size_t)y * dst_stride;

		if (src->argb32)
			memcpy(row, in, (size_t)src->width * 4);
		else if (src->premultiplied)
			reorder_row(in, row, src->width);
		else
			premul_row(in, row, src->width, 1);
	}
}
