/* The fast PNG path's row filters with SSE4.1 and AVX2 (png-fast.h),
 * compiled with target attributes and chosen at run time, so one binary
 * runs on any x86 CPU.  They compute what bb__png_fast_costs and
 * bb__png_fast_put compute, 16 or 32 bytes at a time, in exact integer
 * arithmetic: the first pixel and the tail go through the scalar code.
 *
 * Paeth in bytes: with pa = |b - c| and pb = |a - c| (exact in 8 bits),
 * pc = |(a - c) + (b - c)| is pa + pb when both differences have the same
 * sign, |pa - pb| otherwise.  The sum may pass 255; it is saturated, which
 * changes no comparison: pa and pb are at most 255, so pa <= pc and
 * pb <= pc hold either way. */
#include "config.h"

#include "image/png-fast.h"

#if defined(__x86_64__)

#include <immintrin.h>

/* 32 zero bytes, then 32 of 0xff: V bytes from ramp + 32 - V + k are
 * the mask of a V-byte vector's last k lanes. */
static const uint8_t ramp[64] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
	255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
};

/* ---- SSE4.1 ---------------------------------------------------------------- */

/* The four predictors of bytes x (left a, above b, above-left c). */
__attribute__((target("sse4.1")))
static inline __m128i sse_avg(__m128i a, __m128i b)
{
	__m128i one = _mm_set1_epi8(1);

	return _mm_sub_epi8(_mm_avg_epu8(a, b),
	                    _mm_and_si128(_mm_xor_si128(a, b), one));
}

__attribute__((target("sse4.1")))
static inline __m128i sse_paeth(__m128i a, __m128i b, __m128i c)
{
	__m128i bc_max = _mm_max_epu8(b, c), bc_min = _mm_min_epu8(b, c);
	__m128i ac_max = _mm_max_epu8(a, c), ac_min = _mm_min_epu8(a, c);
	__m128i pa = _mm_sub_epi8(bc_max, bc_min);
	__m128i pb = _mm_sub_epi8(ac_max, ac_min);
	/* b >= c and a >= c: the signs; they differ where the xor is set */
	__m128i sb = _mm_cmpeq_epi8(bc_max, b), sa = _mm_cmpeq_epi8(ac_max, a);
	__m128i pc = _mm_blendv_epi8(_mm_adds_epu8(pa, pb),
	                             _mm_sub_epi8(_mm_max_epu8(pa, pb),
	                                          _mm_min_epu8(pa, pb)),
	                             _mm_xor_si128(sa, sb));
	__m128i use_a = _mm_and_si128(_mm_cmpeq_epi8(_mm_min_epu8(pa, pb), pa),
	                              _mm_cmpeq_epi8(_mm_min_epu8(pa, pc), pa));
	__m128i use_b = _mm_cmpeq_epi8(_mm_min_epu8(pb, pc), pb);

	return _mm_blendv_epi8(_mm_blendv_epi8(c, b, use_b), a, use_a);
}

/* Adds the costs of filtered bytes v to the two 64-bit sums in acc. */
__attribute__((target("sse4.1")))
static inline __m128i sse_cost(__m128i acc, __m128i v)
{
	__m128i z = _mm_setzero_si128();

	return _mm_add_epi64(acc, _mm_sad_epu8(_mm_min_epu8(v, _mm_sub_epi8(z, v)), z));
}

__attribute__((target("sse4.1")))
static inline uint64_t sse_sum(__m128i v)
{
	return (uint64_t)_mm_cvtsi128_si64(v) + (uint64_t)_mm_extract_epi64(v, 1);
}

/* Adds to acc the costs of the five filters of the 16 bytes at i, the
 * lanes where mask is 0 left out. */
__attribute__((target("sse4.1")))
static inline void sse_costs_at(const uint8_t *x, const uint8_t *b, size_t i,
                            __m128i mask, __m128i acc[5])
{
	__m128i vx = _mm_loadu_si128((const __m128i *)(x + i));
	__m128i va = _mm_loadu_si128((const __m128i *)(x + i - 4));
	__m128i vb = _mm_loadu_si128((const __m128i *)(b + i));
	__m128i vc = _mm_loadu_si128((const __m128i *)(b + i - 4));

	acc[0] = sse_cost(acc[0], _mm_and_si128(mask, vx));
	acc[1] = sse_cost(acc[1], _mm_and_si128(mask, _mm_sub_epi8(vx, va)));
	acc[2] = sse_cost(acc[2], _mm_and_si128(mask, _mm_sub_epi8(vx, vb)));
	acc[3] = sse_cost(acc[3], _mm_and_si128(mask, _mm_sub_epi8(vx, sse_avg(va, vb))));
	acc[4] = sse_cost(acc[4], _mm_and_si128(mask, _mm_sub_epi8(vx, sse_paeth(va, vb, vc))));
}

/* The 16 bytes at i filtered with type t into d + i. */
__attribute__((target("sse4.1")))
static inline void sse_put_at(const uint8_t *x, const uint8_t *b, size_t i,
                          int t, uint8_t *d)
{
	__m128i vx = _mm_loadu_si128((const __m128i *)(x + i));
	__m128i va = _mm_loadu_si128((const __m128i *)(x + i - 4));
	__m128i vb = _mm_loadu_si128((const __m128i *)(b + i));
	__m128i vc = _mm_loadu_si128((const __m128i *)(b + i - 4));
	__m128i p;

	switch (t) {
	case 1: p = va; break;
	case 2: p = vb; break;
	case 3: p = sse_avg(va, vb); break;
	case 4: p = sse_paeth(va, vb, vc); break;
	default: p = _mm_setzero_si128(); break;
	}
	_mm_storeu_si128((__m128i *)(d + i), _mm_sub_epi8(vx, p));
}

/* Bytes 4.. in vectors; the last vector, ending at n, overlaps the one
 * before and counts only its new lanes (mask from the ramp). */
__attribute__((target("sse4.1")))
void bb__png_fast_row_sse4(const uint8_t *x, const uint8_t *b, size_t n, uint8_t *d)
{
	__m128i acc[5], all = _mm_set1_epi8(-1);
	uint64_t c[5] = { 0, 0, 0, 0, 0 };
	size_t i, end;
	int t;

	if (n < 4 + 16) {
		bb__png_fast_costs(x, b, 0, n, c);
		d[0] = (uint8_t)(t = bb__png_fast_pick(c));
		bb__png_fast_put(x, b, 0, n, t, d + 1);
		return;
	}
	end = 4 + (n - 4) / 16 * 16;
	for (t = 0; t < 5; t++)
		acc[t] = _mm_setzero_si128();
	for (i = 4; i < end; i += 16)
		sse_costs_at(x, b, i, all, acc);
	if (end < n)
		sse_costs_at(x, b, n - 16,
		             _mm_loadu_si128((const __m128i *)(ramp + (n - end) + 32 - 16)),
		             acc);
	for (t = 0; t < 5; t++)
		c[t] = sse_sum(acc[t]);
	bb__png_fast_costs(x, b, 0, 4, c);
	d[0] = (uint8_t)(t = bb__png_fast_pick(c));
	d++;
	bb__png_fast_put(x, b, 0, 4, t, d);
	for (i = 4; i < end; i += 16)
		sse_put_at(x, b, i, t, d);
	if (end < n)
		sse_put_at(x, b, n - 16, t, d);
}

/* ---- AVX2: the same, 32 bytes at a time ------------------------------------ */

__attribute__((target("avx2")))
static inline __m256i avx_avg(__m256i a, __m256i b)
{
	__m256i one = _mm256_set1_epi8(1);

	return _mm256_sub_epi8(_mm256_avg_epu8(a, b),
	                       _mm256_and_si256(_mm256_xor_si256(a, b), one));
}

__attribute__((target("avx2")))
static inline __m256i avx_paeth(__m256i a, __m256i b, __m256i c)
{
	__m256i bc_max = _mm256_max_epu8(b, c), bc_min = _mm256_min_epu8(b, c);
	__m256i ac_max = _mm256_max_epu8(a, c), ac_min = _mm256_min_epu8(a, c);
	__m256i pa = _mm256_sub_epi8(bc_max, bc_min);
	__m256i pb = _mm256_sub_epi8(ac_max, ac_min);
	__m256i sb = _mm256_cmpeq_epi8(bc_max, b), sa = _mm256_cmpeq_epi8(ac_max, a);
	__m256i pc = _mm256_blendv_epi8(_mm256_adds_epu8(pa, pb),
	                                _mm256_sub_epi8(_mm256_max_epu8(pa, pb),
	                                                _mm256_min_epu8(pa, pb)),
	                                _mm256_xor_si256(sa, sb));
	__m256i use_a = _mm256_and_si256(
		_mm256_cmpeq_epi8(_mm256_min_epu8(pa, pb), pa),
		_mm256_cmpeq_epi8(_mm256_min_epu8(pa, pc), pa));
	__m256i use_b = _mm256_cmpeq_epi8(_mm256_min_epu8(pb, pc), pb);

	return _mm256_blendv_epi8(_mm256_blendv_epi8(c, b, use_b), a, use_a);
}

__attribute__((target("avx2")))
static inline __m256i avx_cost(__m256i acc, __m256i v)
{
	__m256i z = _mm256_setzero_si256();

	return _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_min_epu8(v, _mm256_sub_epi8(z, v)), z));
}

__attribute__((target("avx2")))
static inline uint64_t avx_sum(__m256i v)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(v),
	                          _mm256_extracti128_si256(v, 1));

	return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}

/* Adds to acc the costs of the five filters of the 32 bytes at i, the
 * lanes where mask is 0 left out. */
__attribute__((target("avx2")))
static inline void avx_costs_at(const uint8_t *x, const uint8_t *b, size_t i,
                            __m256i mask, __m256i acc[5])
{
	__m256i vx = _mm256_loadu_si256((const __m256i *)(x + i));
	__m256i va = _mm256_loadu_si256((const __m256i *)(x + i - 4));
	__m256i vb = _mm256_loadu_si256((const __m256i *)(b + i));
	__m256i vc = _mm256_loadu_si256((const __m256i *)(b + i - 4));

	acc[0] = avx_cost(acc[0], _mm256_and_si256(mask, vx));
	acc[1] = avx_cost(acc[1], _mm256_and_si256(mask, _mm256_sub_epi8(vx, va)));
	acc[2] = avx_cost(acc[2], _mm256_and_si256(mask, _mm256_sub_epi8(vx, vb)));
	acc[3] = avx_cost(acc[3], _mm256_and_si256(mask, _mm256_sub_epi8(vx, avx_avg(va, vb))));
	acc[4] = avx_cost(acc[4], _mm256_and_si256(mask, _mm256_sub_epi8(vx, avx_paeth(va, vb, vc))));
}

/* The 32 bytes at i filtered with type t into d + i. */
__attribute__((target("avx2")))
static inline void avx_put_at(const uint8_t *x, const uint8_t *b, size_t i,
                          int t, uint8_t *d)
{
	__m256i vx = _mm256_loadu_si256((const __m256i *)(x + i));
	__m256i va = _mm256_loadu_si256((const __m256i *)(x + i - 4));
	__m256i vb = _mm256_loadu_si256((const __m256i *)(b + i));
	__m256i vc = _mm256_loadu_si256((const __m256i *)(b + i - 4));
	__m256i p;

	switch (t) {
	case 1: p = va; break;
	case 2: p = vb; break;
	case 3: p = avx_avg(va, vb); break;
	case 4: p = avx_paeth(va, vb, vc); break;
	default: p = _mm256_setzero_si256(); break;
	}
	_mm256_storeu_si256((__m256i *)(d + i), _mm256_sub_epi8(vx, p));
}

/* Bytes 4.. in vectors; the last vector, ending at n, overlaps the one
 * before and counts only its new lanes (mask from the ramp). */
__attribute__((target("avx2")))
void bb__png_fast_row_avx2(const uint8_t *x, const uint8_t *b, size_t n, uint8_t *d)
{
	__m256i acc[5], all = _mm256_set1_epi8(-1);
	uint64_t c[5] = { 0, 0, 0, 0, 0 };
	size_t i, end;
	int t;

	if (n < 4 + 32) {
		bb__png_fast_costs(x, b, 0, n, c);
		d[0] = (uint8_t)(t = bb__png_fast_pick(c));
		bb__png_fast_put(x, b, 0, n, t, d + 1);
		return;
	}
	end = 4 + (n - 4) / 32 * 32;
	for (t = 0; t < 5; t++)
		acc[t] = _mm256_setzero_si256();
	for (i = 4; i < end; i += 32)
		avx_costs_at(x, b, i, all, acc);
	if (end < n)
		avx_costs_at(x, b, n - 32,
		             _mm256_loadu_si256((const __m256i *)(ramp + (n - end) + 32 - 32)),
		             acc);
	for (t = 0; t < 5; t++)
		c[t] = avx_sum(acc[t]);
	bb__png_fast_costs(x, b, 0, 4, c);
	d[0] = (uint8_t)(t = bb__png_fast_pick(c));
	d++;
	bb__png_fast_put(x, b, 0, 4, t, d);
	for (i = 4; i < end; i += 32)
		avx_put_at(x, b, i, t, d);
	if (end < n)
		avx_put_at(x, b, n - 32, t, d);
}

#endif
