/* Bilinear texture fill of one triangle of a colour layer.
 *
 * Textured items are drawn through a layer: each triangle's texels are
 * written into it, a little beyond the triangle, and the item's
 * antialiased coverage later decides what shows (raster-texture.c).
 * Filling a triangle with cairo costs a pixman composite per scanline,
 * far more than its pixels when triangles are small, so the layer's
 * triangles are filled here (FAST and GOOD): every pixel whose
 * centre lies within `grow` px of the triangle (each edge moved out by
 * grow, inside the triangle's box grown by as much) takes the texture
 * sampled bilinearly at its centre, texel centres at +0.5, coordinates
 * clamped to the texture (pixman's EXTEND_PAD), premultiplied channels
 * weighted in 1/256 steps.  Later triangles overwrite earlier ones. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "raster/raster.h"

/* Nearest integer of x (|x| < 2^62), without a libm call. */
static inline int64_t iround(double x)
{
	return x >= 0 ? (int64_t)(x + 0.5) : -(int64_t)(0.5 - x);
}

static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

/* Bilinear blend of two horizontal pairs of premultiplied pixels (top:
 * c00 c01, bottom: c10 c11, 8 bytes each as they lie in memory), weights
 * wx, wy in 1/256: per channel, vertically (t * (256 - wy) + b * wy + 128)
 * >> 8, then horizontally the same way with wx (exact when a weight is
 * 0).  SSE2 where there is SSE2 (every x86-64), else the same arithmetic
 * two channels at a time in the 16-bit lanes of a 32-bit word. */
#ifdef __SSE2__
static inline uint32_t blend4(const uint32_t *top, const uint32_t *bottom,
                              unsigned wx, unsigned wy)
{
	const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
	__m128i t = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)top), zero);
	__m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)bottom), zero);
	__m128i v = _mm_add_epi16(_mm_mullo_epi16(t, _mm_set1_epi16((short)(256 - wy))),
	                          _mm_mullo_epi16(b, _mm_set1_epi16((short)wy)));
	__m128i w = _mm_set_epi16((short)wx, (short)wx, (short)wx, (short)wx,
	                          (short)(256 - wx), (short)(256 - wx),
	                          (short)(256 - wx), (short)(256 - wx));

	v = _mm_mullo_epi16(_mm_srli_epi16(_mm_add_epi16(v, half), 8), w);
	v = _mm_add_epi16(v, _mm_srli_si128(v, 8));
	v = _mm_srli_epi16(_mm_add_epi16(v, half), 8);
	return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(v, v));
}
#else
static inline uint32_t blend4(const uint32_t *top, const uint32_t *bottom,
                              unsigned wx, unsigned wy)
{
	const uint32_t m = 0x00ff00ffu, half = 0x00800080u;
	unsigned ix = 256 - wx, iy = 256 - wy;
	/* vertical: left and right pixel, red/blue and alpha/green lanes */
	uint32_t lrb = (((top[0] & m) * iy + (bottom[0] & m) * wy + half) >> 8) & m;
	uint32_t lag = ((((top[0] >> 8) & m) * iy + ((bottom[0] >> 8) & m) * wy + half) >> 8) & m;
	uint32_t rrb = (((top[1] & m) * iy + (bottom[1] & m) * wy + half) >> 8) & m;
	uint32_t rag = ((((top[1] >> 8) & m) * iy + ((bottom[1] >> 8) & m) * wy + half) >> 8) & m;

	return (((lrb * ix + rrb * wx + half) >> 8) & m) |
	       ((lag * ix + rag * wx + half) & ~m);
}
#endif

/* Texel coordinate (1/65536 px, texel centres at +0.5 px already taken
 * off) clamped to [0, n - 1] px: index, weight in 1/256, next index. */
static inline void axis(int64_t f, int n, int *i0, unsigned *w, int *i1)
{
	int64_t hi = ((int64_t)n - 1) * 65536;

	f = f < 0 ? 0 : f > hi ? hi : f;
	*i0 = (int)(f >> 16);
	*w = (unsigned)(f >> 8) & 255u;
	*i1 = *i0 + 1 < n ? *i0 + 1 : *i0;
}

/* Fixed-point (1/65536) texel coordinate of position u, minus half a
 * texel, clamped to a few texels around the texture (which the sampling
 * clamps to anyway). */
static inline int64_t to_fixed(double u, int n)
{
	u = (u - 0.5) * 65536;
	if (!(u > -65536.0 * 4))
		return -65536 * 4;
	if (u > 65536.0 * (n + 4))
		return (int64_t)65536 * (n + 4);
	return iround(u);
}

static int ok(int64_t f, int64_t d, int i, int64_t hi)
{
	int64_t v = f + d * i;

	return v >= 0 && v <= hi;
}

/* The steps i in [0, n] at which f + i*d stays in [0, n_px - 2] px, where
 * both taps exist without clamping: [*ia, *ib], empty when *ia > *ib. */
static void span(int64_t f, int64_t d, int n, int n_px, int *ia, int *ib)
{
	int64_t hi;
	double lo_i = 0, hi_i = n;

	*ia = 0;
	*ib = -1;
	if (n_px < 2)
		return;
	hi = (int64_t)(n_px - 2) * 65536;
	if (d > 0) {
		lo_i = dmax(lo_i, ceil((double)(0 - f) / (double)d));
		hi_i = dmin(hi_i, floor((double)(hi - f) / (double)d));
	} else if (d < 0) {
		lo_i = dmax(lo_i, ceil((double)(hi - f) / (double)d));
		hi_i = dmin(hi_i, floor((double)(0 - f) / (double)d));
	} else if (f < 0 || f > hi) {
		return;
	}
	if (!(lo_i <= hi_i))
		return;
	*ia = (int)lo_i;
	*ib = (int)hi_i;
	/* the divisions may be a step off: trust only integer checks */
	while (*ia <= *ib && !ok(f, d, *ia, hi))
		(*ia)++;
	while (*ib >= *ia && !ok(f, d, *ib, hi))
		(*ib)--;
}

static inline uint32_t sample(const uint32_t *tex, size_t ts, int tw, int th,
                              int64_t fu, int64_t fv)
{
	uint32_t top[2], bottom[2];
	int x0, x1, y0, y1;
	unsigned wx, wy;

	axis(fu, tw, &x0, &wx, &x1);
	axis(fv, th, &y0, &wy, &y1);
	top[0] = tex[(size_t)y0 * ts + (size_t)x0];
	top[1] = tex[(size_t)y0 * ts + (size_t)x1];
	bottom[0] = tex[(size_t)y1 * ts + (size_t)x0];
	bottom[1] = tex[(size_t)y1 * ts + (size_t)x1];
	return blend4(top, bottom, wx, wy);
}

void bb__fill_triangle(uint32_t *layer, size_t ls, int w, int h,
                       const bb_vec2 p[3], double grow, const double m[6],
                       const uint32_t *tex, size_t ts, int tw, int th)
{
	double area = (p[1].x - p[0].x) * (p[2].y - p[0].y) -
	              (p[2].x - p[0].x) * (p[1].y - p[0].y);
	double ea[3], eb[3], ec[3], bx0, by0, bx1, by1;
	int k, x, y, ylo, yhi;

	if (!(fabs(area) > 1e-12) || tw < 1 || th < 1)
		return;
	for (k = 0; k < 6; k++)
		if (!isfinite(m[k]))
			return;
	/* edge k from p[k] to p[k+1]: ea*x + eb*y + ec = signed distance,
	 * positive inside */
	for (k = 0; k < 3; k++) {
		const bb_vec2 *a = &p[k], *b = &p[(k + 1) % 3];
		double nx = -(b->y - a->y), ny = b->x - a->x, len = hypot(nx, ny);

		if (!(len > 0))
			return;
		if (area < 0) {
			nx = -nx;
			ny = -ny;
		}
		ea[k] = nx / len;
		eb[k] = ny / len;
		ec[k] = -(ea[k] * a->x + eb[k] * a->y) + grow;
	}
	bx0 = fmin(p[0].x, fmin(p[1].x, p[2].x)) - grow;
	by0 = fmin(p[0].y, fmin(p[1].y, p[2].y)) - grow;
	bx1 = fmax(p[0].x, fmax(p[1].x, p[2].x)) + grow;
	by1 = fmax(p[0].y, fmax(p[1].y, p[2].y)) + grow;
	if (!(bx1 > 0 && by1 > 0 && bx0 < w && by0 < h))
		return;
	ylo = by0 - 0.5 > 0 ? (int)ceil(by0 - 0.5) : 0;
	yhi = by1 - 0.5 < h - 1 ? (int)floor(by1 - 0.5) : h - 1;
	for (y = ylo; y <= yhi; y++) {
		double yc = y + 0.5, xl = bx0, xr = bx1, u, v;
		int64_t fu, fv, du, dv;
		int ia, ib, ja, jb, n;
		uint32_t *row = layer + (size_t)y * ls;
		int xlo, xhi;

		for (k = 0; k < 3; k++) {
			double rest = eb[k] * yc + ec[k];   /* ea*x + rest >= 0 */

			if (ea[k] > 1e-12)
				xl = dmax(xl, -rest / ea[k]);
			else if (ea[k] < -1e-12)
				xr = dmin(xr, -rest / ea[k]);
			else if (rest < 0)
				xr = xl - 1;
		}
		xl = dmin(xl, w);     /* in int range before converting */
		xr = dmax(xr, -1);
		xlo = xl - 0.5 > 0 ? (int)ceil(xl - 0.5) : 0;
		xhi = xr - 0.5 < w - 1 ? (int)floor(xr - 0.5) : w - 1;
		if (xlo > xhi)
			continue;
		u = m[0] * (xlo + 0.5) + m[2] * yc + m[4];
		v = m[1] * (xlo + 0.5) + m[3] * yc + m[5];
		n = xhi - xlo;
		if (!(fabs(u) < 1e9 && fabs(v) < 1e9 && fabs(u + m[0] * n) < 1e9 &&
		      fabs(v + m[1] * n) < 1e9)) {
			/* far outside: each pixel from its own clamped position */
			for (x = xlo; x <= xhi; x++)
				row[x] = sample(tex, ts, tw, th, to_fixed(u + m[0] * (x - xlo), tw),
				                to_fixed(v + m[1] * (x - xlo), th));
			continue;
		}
		fu = iround((u - 0.5) * 65536);
		fv = iround((v - 0.5) * 65536);
		du = iround(m[0] * 65536);
		dv = iround(m[1] * 65536);
		/* the middle of the row, where both taps exist unclamped */
		ia = 0;
		ib = -1;
		if (n >= 8) {
			span(fu, du, n, tw, &ia, &ib);
			span(fv, dv, n, th, &ja, &jb);
			ia = ia > ja ? ia : ja;
			ib = ib < jb ? ib : jb;
		}
		for (x = xlo; x <= xhi; x++, fu += du, fv += dv) {
			if (x == xlo + ia && ia <= ib) {
				for (; x <= xlo + ib; x++, fu += du, fv += dv) {
					const uint32_t *t0 = tex + (size_t)(fv >> 16) * ts +
					                     (size_t)(fu >> 16);

					row[x] = blend4(t0, t0 + ts, (unsigned)(fu >> 8) & 255u,
					                (unsigned)(fv >> 8) & 255u);
				}
				if (x > xhi)
					break;
			}
			row[x] = sample(tex, ts, tw, th, fu, fv);
		}
	}
}
