/* Pixel comparison: the OKLab HyAB and YIQ colour distances, the
 * anti-aliasing detector pixelmatch uses (Vysniauskas 2009), pixelmatch 8's
 * and 7's arithmetic for --compat, the window measure and the diff image.
 * See bonebake/diff.h for the alpha-aware model.
 *
 * OKLab follows pixelmatch 8's published formulas: sRGB bytes to linear
 * light through a 256-entry table (interpolated for the fractional values
 * of composited pixels), Ottosson's LMS matrix, cube roots from a
 * 4096-step interpolated table (exact below 8/4096, where the table is
 * poor), the toe-corrected lightness Lr, and HyAB = |dLr| + |(da, db)|,
 * compared with the threshold without a square root as pixelmatch does.
 * The tables come from the C library's pow and cbrt, which may round the
 * last bit differently from V8's; a count can then only differ for a pixel
 * whose distance lies within about 1e-16 of the threshold.
 *
 * Speed: rows are compared with memcmp first, identical 32-bit pixels are
 * skipped before any arithmetic, and the floating-point work (and the AA
 * detector, the costly part) only runs on pixels whose bytes differ. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/diff.h"
#include "core/util.h"
#include "diff/internal.h"

/* compat must reproduce pixelmatch's double arithmetic bit for
 * bit; a fused multiply-add would round differently. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* The largest squared YIQ distance (black against white). */
#define YIQ_MAX_DELTA 35215.0

/* Colours of the diff image. */
static const uint8_t DIFF_RGB[3] = { 255, 0, 0 };
static const uint8_t AA_RGB[3] = { 255, 255, 0 };

/* How a comparison measures: bonebake's alpha-aware compare with either
 * metric, or one pixelmatch release's arithmetic. */
enum mode { M_OKLAB, M_YIQ, M_PM8, M_PM7 };

#define CBRT_N 4096
#define CBRT_EXACT 8

/* sRGB byte -> linear light, and cube roots over [0, 1]. */
struct oklab_tables {
	double lin[257];
	double cbrt[CBRT_N + 2];
};

struct cmp {
	const bb_image *a, *b;
	int w, h;
	enum mode mode;
	int white_bg;
	double threshold;
	double limit;           /* YIQ: squared distance above which a pixel differs */
	const struct oklab_tables *ok;  /* M_OKLAB, M_PM8 */
	uint8_t *mask;          /* with a window: 1 where a pixel counts */
};

static inline uint32_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline const uint8_t *pixel(const bb_image *img, int x, int y)
{
	return img->px + (size_t)y * img->stride + (size_t)x * 4;
}

/* Squared YIQ distance of a colour difference (pixelmatch 7's constants,
 * evaluated in the same order). */
static inline double yiq_sq(double dr, double dg, double db)
{
	double y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
	double i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189;
	double q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;

	return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q;
}

static inline double luma(double dr, double dg, double db)
{
	return dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
}

static struct oklab_tables *oklab_tables_new(void)
{
	struct oklab_tables *t = malloc(sizeof *t);
	int i;

	if (!t)
		return NULL;
	for (i = 0; i < 256; i++) {
		double c = i / 255.0;

		t->lin[i] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
	}
	t->lin[256] = t->lin[255];
	for (i = 0; i <= CBRT_N + 1; i++)
		t->cbrt[i] = cbrt((double)i / CBRT_N);
	return t;
}

/* Linear light of an sRGB channel value 0..255 (fractional when
 * composited). */
static inline double lin_of(const struct oklab_tables *t, double v)
{
	int i = (int)v;

	return t->lin[i] + (t->lin[i + 1] - t->lin[i]) * (v - i);
}

static inline double cbrt_of(const struct oklab_tables *t, double v)
{
	double x = v * CBRT_N;
	int i = (int)x;

	if (i < CBRT_EXACT)
		return cbrt(v);
	if (i > CBRT_N)
		i = CBRT_N;
	return t->cbrt[i] + (t->cbrt[i + 1] - t->cbrt[i]) * (x - i);
}

/* A colour in cube-rooted LMS, with its toe-corrected OKLab lightness. */
struct lms {
	double l, m, s, lr;
};

#define TOE_K1 0.206
#define TOE_K2 0.03
#define TOE_K3 ((1 + TOE_K1) / (1 + TOE_K2))

static void lms_of(const struct oklab_tables *t, double r, double g, double b,
                   struct lms *o)
{
	double lr = lin_of(t, r), lg = lin_of(t, g), lb = lin_of(t, b), L, x;

	o->l = cbrt_of(t, 0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
	o->m = cbrt_of(t, 0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
	o->s = cbrt_of(t, 0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
	L = 0.2104542553 * o->l + 0.7936177850 * o->m - 0.0040720468 * o->s;
	x = TOE_K3 * L - TOE_K1;
	o->lr = 0.5 * (x + sqrt(x * x + 4 * TOE_K2 * TOE_K3 * L));
}

/* The OKLab a and b differences of two colours. */
static inline void ab_delta(const struct lms *p, const struct lms *q,
                            double *da, double *db)
{
	double dl = p->l - q->l, dm = p->m - q->m, ds = p->s - q->s;

	*da = 1.9779984951 * dl - 2.4285922050 * dm + 0.4505937099 * ds;
	*db = 0.0259040371 * dl + 0.7827717662 * dm - 0.8086757660 * ds;
}

/* HyAB distance of two colours. */
static double hyab(const struct lms *p, const struct lms *q)
{
	double da, db;

	ab_delta(p, q, &da, &db);
	return fabs(p->lr - q->lr) + sqrt(da * da + db * db);
}

/* pixelmatch 8's test: whether the HyAB distance exceeds t, decided as it
 * decides it (no square root). */
static int hyab_exceeds(const struct lms *p, const struct lms *q, double t)
{
	double rest = t - fabs(p->lr - q->lr), da, db;

	if (rest >= 0) {
		ab_delta(p, q, &da, &db);
		if (da * da + db * db <= rest * rest)
			return 0;
	}
	return 1;
}

/* Alpha-aware OKLab distance: premultiplied colours over black and over
 * white, the larger of the two. */
static double delta_oklab(const struct oklab_tables *t, const uint8_t *p,
                          const uint8_t *q)
{
	struct lms P, Q, Pw, Qw;
	int c;
	double pb[3], qb[3], pw[3], qw[3];

	if ((p[3] & q[3]) == 255) {
		lms_of(t, p[0], p[1], p[2], &P);
		lms_of(t, q[0], q[1], q[2], &Q);
		return hyab(&P, &Q);
	}
	if ((p[3] | q[3]) == 0)
		return 0;
	for (c = 0; c < 3; c++) {
		pb[c] = p[c] * p[3] / 255.0;
		qb[c] = q[c] * q[3] / 255.0;
		pw[c] = (p[c] * p[3] + 255 * (255 - p[3])) / 255.0;
		qw[c] = (q[c] * q[3] + 255 * (255 - q[3])) / 255.0;
	}
	lms_of(t, pb[0], pb[1], pb[2], &P);
	lms_of(t, qb[0], qb[1], qb[2], &Q);
	lms_of(t, pw[0], pw[1], pw[2], &Pw);
	lms_of(t, qw[0], qw[1], qw[2], &Qw);
	return fmax(hyab(&P, &Q), hyab(&Pw, &Qw));
}

/* pixelmatch 8's backdrop for translucent pixels: per pixel, each channel
 * dark (48) or light (207) from the top bits of a Fibonacci hash of the
 * pixel's index (as JavaScript's `k >> 2` and Math.imul compute it). */
static void pm8_backdrop(size_t k, int white, int bg[3])
{
	int32_t i;
	uint32_t h;

	if (white) {
		bg[0] = bg[1] = bg[2] = 255;
		return;
	}
	i = (int32_t)(uint32_t)k >> 2;
	h = (uint32_t)i * 0x9e3779b1u;
	bg[0] = 48 + 159 * (int)(h >> 31);
	bg[1] = 48 + 159 * (int)((h >> 30) & 1);
	bg[2] = 48 + 159 * (int)((h >> 29) & 1);
}

/* pixelmatch 8's colorDelta: whether the pixels differ; *dist gets their
 * HyAB distance. */
static int differs_pm8(const struct cmp *c, const uint8_t *p,
                       const uint8_t *q, size_t k, double *dist)
{
	struct lms P, Q;
	int bg[3];

	if (p[3] == 255 && q[3] == 255) {
		lms_of(c->ok, p[0], p[1], p[2], &P);
		lms_of(c->ok, q[0], q[1], q[2], &Q);
	} else {
		pm8_backdrop(k, c->white_bg, bg);
		lms_of(c->ok, (p[0] * p[3] + bg[0] * (255 - p[3])) / 255.0,
		       (p[1] * p[3] + bg[1] * (255 - p[3])) / 255.0,
		       (p[2] * p[3] + bg[2] * (255 - p[3])) / 255.0, &P);
		lms_of(c->ok, (q[0] * q[3] + bg[0] * (255 - q[3])) / 255.0,
		       (q[1] * q[3] + bg[1] * (255 - q[3])) / 255.0,
		       (q[2] * q[3] + bg[2] * (255 - q[3])) / 255.0, &Q);
	}
	*dist = hyab(&P, &Q);
	return hyab_exceeds(&P, &Q, c->threshold);
}

/* pixelmatch 8's brightness step for the AA detector: Rec. 601 luma of
 * the colours over white; equal luma with different alpha steps by half
 * the alpha difference.  0 only for identical bytes. */
static double bright_pm8(const uint8_t *c, const uint8_t *n)
{
	int dr = c[0] - n[0], dg = c[1] - n[1], db = c[2] - n[2];
	int da = c[3] - n[3];
	double d;

	if (!dr && !dg && !db && !da)
		return 0;
	if (c[3] < 255 || n[3] < 255) {
		d = luma((c[0] * c[3] - n[0] * n[3] - 255 * da) / 255.0,
		         (c[1] * c[3] - n[1] * n[3] - 255 * da) / 255.0,
		         (c[2] * c[3] - n[2] * n[3] - 255 * da) / 255.0);
		return d == 0 && da ? da / 2.0 : d;
	}
	return luma(dr, dg, db);
}

/* Alpha-aware distance: premultiplied colours over black and over white,
 * the larger of the two. */
static double delta_alpha(const uint8_t *p, const uint8_t *q)
{
	double dr, dg, db;
	int da;

	if ((p[3] & q[3]) == 255)
		return yiq_sq(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
	if ((p[3] | q[3]) == 0)
		return 0;
	dr = (p[0] * p[3] - q[0] * q[3]) / 255.0;
	dg = (p[1] * p[3] - q[1] * q[3]) / 255.0;
	db = (p[2] * p[3] - q[2] * q[3]) / 255.0;
	da = p[3] - q[3];
	/* over white each side adds 255 - alpha */
	return fmax(yiq_sq(dr, dg, db), yiq_sq(dr - da, dg - da, db - da));
}

/* Brightness step between a centre pixel and a neighbour for the AA
 * detector; with alpha, the backdrop (black or white) that shows the larger
 * step.  0 when the premultiplied colours are equal. */
static double bright_alpha(const uint8_t *c, const uint8_t *n)
{
	double dr, dg, db, yb, yw;
	int da;

	if ((c[3] & n[3]) == 255)
		return luma(c[0] - n[0], c[1] - n[1], c[2] - n[2]);
	if ((c[3] | n[3]) == 0)
		return 0;
	dr = (c[0] * c[3] - n[0] * n[3]) / 255.0;
	dg = (c[1] * c[3] - n[1] * n[3]) / 255.0;
	db = (c[2] * c[3] - n[2] * n[3]) / 255.0;
	da = c[3] - n[3];
	yb = luma(dr, dg, db);
	yw = luma(dr - da, dg - da, db - da);
	return fabs(yw) > fabs(yb) ? yw : yb;
}

/* pixelmatch 7's backdrop for translucent pixels, chosen from the byte offset
 * k of the pixel: 48 or 207 per channel, or white.  `x / phi | 0` in
 * JavaScript truncates and wraps to int32; so does this. */
static inline int pm_pattern(size_t k, double div)
{
	double t = trunc((double)k / div);
	int32_t v = (int32_t)(uint32_t)(uint64_t)t;

	return 48 + 159 * (v % 2);
}

static void pm_backdrop(size_t k, int white, int bg[3])
{
	if (white) {
		bg[0] = bg[1] = bg[2] = 255;
		return;
	}
	bg[0] = 48 + 159 * (int)(k % 2);
	bg[1] = pm_pattern(k, 1.618033988749895);
	bg[2] = pm_pattern(k, 2.618033988749895);
}

/* pixelmatch 7's colorDelta (unsigned: only its magnitude is counted). */
static double delta_pm(const uint8_t *p, const uint8_t *q, size_t k, int white)
{
	int da = p[3] - q[3], bg[3];

	if (p[3] < 255 || q[3] < 255) {
		pm_backdrop(k, white, bg);
		return yiq_sq((p[0] * p[3] - q[0] * q[3] - bg[0] * da) / 255.0,
		              (p[1] * p[3] - q[1] * q[3] - bg[1] * da) / 255.0,
		              (p[2] * p[3] - q[2] * q[3] - bg[2] * da) / 255.0);
	}
	return yiq_sq(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/* pixelmatch 7's brightnessDelta; k is the centre pixel's byte offset. */
static double bright_pm(const uint8_t *c, const uint8_t *n, size_t k, int white)
{
	int da = c[3] - n[3], bg[3];

	if (load32(c) == load32(n))
		return 0;
	if (c[3] < 255 || n[3] < 255) {
		pm_backdrop(k, white, bg);
		return luma((c[0] * c[3] - n[0] * n[3] - bg[0] * da) / 255.0,
		            (c[1] * c[3] - n[1] * n[3] - bg[1] * da) / 255.0,
		            (c[2] * c[3] - n[2] * n[3] - bg[2] * da) / 255.0);
	}
	return luma(c[0] - n[0], c[1] - n[1], c[2] - n[2]);
}

/* Whether the pixel at (x1, y1) has 3 or more identical neighbours (image
 * borders count as one). */
static int many_siblings(const bb_image *img, int x1, int y1)
{
	int x0 = x1 > 0 ? x1 - 1 : 0, y0 = y1 > 0 ? y1 - 1 : 0;
	int x2 = x1 + 1 < img->width ? x1 + 1 : x1;
	int y2 = y1 + 1 < img->height ? y1 + 1 : y1;
	uint32_t v = load32(pixel(img, x1, y1));
	int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2;
	int x, y;

	for (x = x0; x <= x2; x++)
		for (y = y0; y <= y2; y++) {
			if (x == x1 && y == y1)
				continue;
			zeroes += load32(pixel(img, x, y)) == v;
			if (zeroes > 2)
				return 1;
		}
	return 0;
}

/* The anti-aliasing detector on `img` at (x1, y1): the pixel lies between a
 * darker and a brighter neighbour, and one of those extremes sits in a flat
 * area of both images.  Neighbours are visited column by column, as
 * pixelmatch does, so ties resolve the same way. */
static int antialiased(const struct cmp *c, const bb_image *img, int x1, int y1)
{
	int x0 = x1 > 0 ? x1 - 1 : 0, y0 = y1 > 0 ? y1 - 1 : 0;
	int x2 = x1 + 1 < c->w ? x1 + 1 : x1;
	int y2 = y1 + 1 < c->h ? y1 + 1 : y1;
	const uint8_t *cp = pixel(img, x1, y1);
	size_t k = ((size_t)y1 * (size_t)c->w + (size_t)x1) * 4;
	int zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2;
	int min_x = 0, min_y = 0, max_x = 0, max_y = 0, x, y;
	double min = 0, max = 0, d;

	for (x = x0; x <= x2; x++)
		for (y = y0; y <= y2; y++) {
			if (x == x1 && y == y1)
				continue;
			switch (c->mode) {
			case M_PM7:
				d = bright_pm(cp, pixel(img, x, y), k, c->white_bg);
				break;
			case M_PM8:
				d = bright_pm8(cp, pixel(img, x, y));
				break;
			case M_OKLAB:
			case M_YIQ:
			default:
				d = bright_alpha(cp, pixel(img, x, y));
				break;
			}
			if (d == 0) {
				if (++zeroes > 2)
					return 0;
			} else if (d < min) {
				min = d;
				min_x = x;
				min_y = y;
			} else if (d > max) {
				max = d;
				max_x = x;
				max_y = y;
			}
		}
	if (min == 0 || max == 0)
		return 0;
	return (many_siblings(c->a, min_x, min_y) &&
	        many_siblings(c->b, min_x, min_y)) ||
	       (many_siblings(c->a, max_x, max_y) &&
	        many_siblings(c->b, max_x, max_y));
}

/* An unchanged pixel in the diff image: its grey level at 10% opacity on
 * white (pixelmatch's look), in integers. */
static inline void put_faded(uint8_t *o, const uint8_t *p)
{
	unsigned y = (19588u * p[0] + 38445u * p[1] + 7503u * p[2] + 32768u) >> 16;
	unsigned v = 255 - ((255 - y) * p[3] + 1275) / 2550;

	o[0] = o[1] = o[2] = (uint8_t)v;
	o[3] = 255;
}

/* An ignored pixel: faded, tinted blue so ignored regions stay visible. */
static inline void put_ignored(uint8_t *o, const uint8_t *p)
{
	put_faded(o, p);
	o[0] = (uint8_t)(o[0] * 13 / 16);
	o[1] = (uint8_t)(o[1] * 14 / 16);
}

static inline void put_rgb(uint8_t *o, const uint8_t rgb[3])
{
	o[0] = rgb[0];
	o[1] = rgb[1];
	o[2] = rgb[2];
	o[3] = 255;
}

/* Marks row y's ignored pixels in mask (w bytes); returns how many. */
static long long ignore_row(const bb_diff_options *o, int w, int y,
                            uint8_t *mask)
{
	long long n = 0;
	int i, x, x0, x1;

	memset(mask, 0, (size_t)w);
	for (i = 0; i < o->n_ignore; i++) {
		const bb_diff_rect *r = &o->ignore[i];

		if (y < r->y || (long long)y >= (long long)r->y + r->h)
			continue;
		x0 = r->x < 0 ? 0 : r->x;
		x1 = (long long)r->x + r->w > w ? w : r->x + r->w;
		for (x = x0; x < x1; x++) {
			n += !mask[x];
			mask[x] = 1;
		}
	}
	return n;
}

long long bb__diff_ignored_pixels(const bb_diff_options *o, int w, int h)
{
	uint8_t *mask;
	long long n = 0;
	int y;

	if (!o || o->n_ignore <= 0)
		return 0;
	mask = malloc((size_t)w);
	if (!mask)
		return 0;
	for (y = 0; y < h; y++)
		n += ignore_row(o, w, y, mask);
	free(mask);
	return n;
}

double bb_diff_threshold(const bb_diff_options *opts)
{
	return opts && opts->threshold_set ? opts->threshold
	                                   : BB_DIFF_DEFAULT_THRESHOLD;
}

bb_status bb_diff_options_check(const bb_diff_options *opts, bb_error *err)
{
	double t = bb_diff_threshold(opts);
	int i;

	if (!(t >= 0.0 && t <= 1.0))
		return bb_error_set(err, BB_ERR_USAGE, NULL, "threshold",
		                    "threshold %g outside 0..1", t);
	if (!opts)
		return BB_OK;
	if (opts->aa != BB_DIFF_AA_IGNORE && opts->aa != BB_DIFF_AA_COUNT)
		return bb_error_set(err, BB_ERR_USAGE, NULL, "aa",
		                    "unknown anti-aliasing mode %d", (int)opts->aa);
	if ((unsigned)opts->compat > BB_DIFF_COMPAT_PIXELMATCH7)
		return bb_error_set(err, BB_ERR_USAGE, NULL, "compat",
		                    "unknown compat mode %d", (int)opts->compat);
	if ((unsigned)opts->metric > BB_DIFF_METRIC_YIQ)
		return bb_error_set(err, BB_ERR_USAGE, NULL, "metric",
		                    "unknown metric %d", (int)opts->metric);
	if (opts->window < 0)
		return bb_error_set(err, BB_ERR_USAGE, NULL, "window",
		                    "window %d is negative", opts->window);
	if (opts->n_ignore < 0 || opts->n_ignore > BB_DIFF_MAX_IGNORE)
		return bb_error_set(err, BB_ERR_USAGE, NULL, "ignore",
		                    "%d ignore regions (0..%d allowed)",
		                    opts->n_ignore, BB_DIFF_MAX_IGNORE);
	for (i = 0; i < opts->n_ignore; i++)
		if (opts->ignore[i].w < 0 || opts->ignore[i].h < 0)
			return bb_error_set(err, BB_ERR_USAGE, NULL, "ignore",
			                    "ignore region %d has a negative size", i);
	return BB_OK;
}

struct tally {
	long long diff, aa, changed;
	double max_dist;
	int x0, y0, x1, y1;     /* bounding box, inclusive; x0 > x1 when empty */
};

/* Compares row y.  out is the diff image row or NULL. */
static void compare_row(const struct cmp *c, int y, const uint8_t *ignore,
                        int count_aa, uint8_t *out, int mask,
                        struct tally *t)
{
	const uint8_t *ra = pixel(c->a, 0, y), *rb = pixel(c->b, 0, y);
	int x;

	for (x = 0; x < c->w; x++) {
		const uint8_t *pa = ra + (size_t)x * 4, *pb = rb + (size_t)x * 4;
		uint8_t *po = out ? out + (size_t)x * 4 : NULL;
		double d, sq;
		size_t k;
		int over;

		if (!po) {
			/* skip runs of identical pixels, four at a time */
			while (x + 4 <= c->w && memcmp(pa, pb, 16) == 0) {
				x += 4;
				pa += 16;
				pb += 16;
			}
			if (x >= c->w)
				break;
		}
		if (ignore && ignore[x]) {
			if (po && !mask)
				put_ignored(po, pa);
			continue;
		}
		if (load32(pa) == load32(pb)) {
			if (po && !mask)
				put_faded(po, pa);
			continue;
		}
		t->changed++;
		k = ((size_t)y * (size_t)c->w + (size_t)x) * 4;
		switch (c->mode) {
		case M_PM8:
			over = differs_pm8(c, pa, pb, k, &d);
			break;
		case M_PM7:
			sq = delta_pm(pa, pb, k, c->white_bg);
			over = sq > c->limit;
			d = sqrt(sq / YIQ_MAX_DELTA);
			break;
		case M_YIQ:
			sq = delta_alpha(pa, pb);
			over = sq > c->limit;
			d = sqrt(sq / YIQ_MAX_DELTA);
			break;
		case M_OKLAB:
		default:
			d = delta_oklab(c->ok, pa, pb);
			over = d > c->threshold;
			break;
		}
		if (d > t->max_dist)
			t->max_dist = d;
		if (!over) {
			if (po && !mask)
				put_faded(po, pa);
			continue;
		}
		if (!count_aa && (antialiased(c, c->a, x, y) ||
		                  antialiased(c, c->b, x, y))) {
			t->aa++;
			if (po && !mask)
				put_rgb(po, AA_RGB);
			continue;
		}
		t->diff++;
		if (c->mask)
			c->mask[(size_t)y * (size_t)c->w + (size_t)x] = 1;
		if (po)
			put_rgb(po, DIFF_RGB);
		if (x < t->x0) t->x0 = x;
		if (x > t->x1) t->x1 = x;
		if (y < t->y0) t->y0 = y;
		if (y > t->y1) t->y1 = y;
	}
}

/* An identical row: only the diff image needs drawing. */
static void fade_row(const struct cmp *c, int y, const uint8_t *ignore,
                     uint8_t *out)
{
	const uint8_t *ra = pixel(c->a, 0, y);
	int x;

	for (x = 0; x < c->w; x++)
		if (ignore && ignore[x])
			put_ignored(out + (size_t)x * 4, ra + (size_t)x * 4);
		else
			put_faded(out + (size_t)x * 4, ra + (size_t)x * 4);
}

/* One band of rows, compared by one thread. */
struct band {
	const struct cmp *c;
	const bb_diff_options *o;
	bb_image *out;
	int y0, y1;
	struct tally t;
	long long ignored;
	int nomem;
};

static void tally_init(struct tally *t, const struct cmp *c)
{
	memset(t, 0, sizeof *t);
	t->x0 = c->w;
	t->y0 = c->h;
	t->x1 = t->y1 = -1;
}

static void run_band(void *arg, size_t i, int worker)
{
	struct band *b = (struct band *)arg + i;
	const struct cmp *c = b->c;
	const bb_diff_options *o = b->o;
	uint8_t *mask = NULL;
	int y;

	(void)worker;
	if (o->n_ignore > 0 && !(mask = malloc((size_t)c->w))) {
		b->nomem = 1;
		return;
	}
	for (y = b->y0; y < b->y1; y++) {
		const uint8_t *ign = NULL;
		uint8_t *row = b->out ? b->out->px + (size_t)y * b->out->stride
		                      : NULL;

		if (mask) {
			long long n = ignore_row(o, c->w, y, mask);

			b->ignored += n;
			ign = n ? mask : NULL;
		}
		if (memcmp(pixel(c->a, 0, y), pixel(c->b, 0, y),
		           (size_t)c->w * 4) == 0) {
			if (row && !o->diff_mask)
				fade_row(c, y, ign, row);
			continue;
		}
		compare_row(c, y, ign, o->aa == BB_DIFF_AA_COUNT, row, o->diff_mask,
		            &b->t);
	}
	free(mask);
}

static void tally_merge(struct tally *t, const struct tally *u)
{
	t->diff += u->diff;
	t->aa += u->aa;
	t->changed += u->changed;
	if (u->max_dist > t->max_dist)
		t->max_dist = u->max_dist;
	if (u->x0 < t->x0) t->x0 = u->x0;
	if (u->y0 < t->y0) t->y0 = u->y0;
	if (u->x1 > t->x1) t->x1 = u->x1;
	if (u->y1 > t->y1) t->y1 = u->y1;
}

/* Bands of at least this many pixels, so threads pay for themselves. */
#define BAND_MIN_PIXELS (256 * 1024)

/* Runs the comparison on up to o->threads bands of rows, in parallel. */
static int run_bands(const struct cmp *c, const bb_diff_options *o,
                     bb_image *out, struct tally *t, long long *ignored)
{
	struct band one, *bands = &one;
	long long pixels = (long long)c->w * c->h;
	int n = o->threads > 1 ? o->threads : 1, i, nomem = 0;

	if (pixels / n < BAND_MIN_PIXELS)
		n = (int)(pixels / BAND_MIN_PIXELS) > 1
		    ? (int)(pixels / BAND_MIN_PIXELS) : 1;
	if (n > 256)
		n = 256;
	if (n > c->h)
		n = c->h;
	if (n > 1 && !(bands = calloc((size_t)n, sizeof *bands))) {
		bands = &one;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		struct band *b = &bands[i];

		memset(b, 0, sizeof *b);
		b->c = c;
		b->o = o;
		b->out = out;
		b->y0 = (int)((long long)c->h * i / n);
		b->y1 = (int)((long long)c->h * (i + 1) / n);
		tally_init(&b->t, c);
	}
	bb_parallel_for((size_t)n, n, run_band, bands);
	tally_init(t, c);
	*ignored = 0;
	for (i = 0; i < n; i++) {
		struct band *b = &bands[i];

		tally_merge(t, &b->t);
		*ignored += b->ignored;
		nomem |= b->nomem;
	}
	if (bands != &one)
		free(bands);
	return nomem ? -1 : 0;
}

/* The most marked pixels in any s x s square of mask (w x h), rows y0..y1
 * holding every mark: column counts over the last s rows, slid across. */
static long long window_max(const uint8_t *mask, int w, int h, int s,
                            int y0, int y1, int *col)
{
	long long best = 0, sum, band = 0;
	int x, y, y_end = y1 + s - 1 < h - 1 ? y1 + s - 1 : h - 1;

	memset(col, 0, (size_t)w * sizeof *col);
	for (y = y0; y <= y_end; y++) {
		const uint8_t *in = mask + (size_t)y * (size_t)w;
		const uint8_t *outr = y - s >= 0 ? mask + (size_t)(y - s) * (size_t)w
		                                 : NULL;

		for (x = 0; x < w; x++) {
			int d = in[x] - (outr ? outr[x] : 0);

			col[x] += d;
			band += d;
		}
		if (y < s - 1 || band <= best)
			continue;
		sum = 0;
		for (x = 0; x < w; x++) {
			sum += col[x];
			if (x >= s)
				sum -= col[x - s];
			if (x >= s - 1 && sum > best)
				best = sum;
		}
	}
	return best;
}

static enum mode mode_of(const bb_diff_options *o)
{
	switch (o->compat) {
	case BB_DIFF_COMPAT_PIXELMATCH:
		return M_PM8;
	case BB_DIFF_COMPAT_PIXELMATCH7:
		return M_PM7;
	case BB_DIFF_COMPAT_NONE:
	default:
		break;
	}
	return o->metric == BB_DIFF_METRIC_YIQ ? M_YIQ : M_OKLAB;
}

bb_status bb_diff_images(const bb_image *a, const bb_image *b,
                         const bb_diff_options *opts, bb_diff_result *res,
                         bb_image **diff_out, bb_error *err)
{
	static const bb_diff_options defaults;
	const bb_diff_options *o = opts ? opts : &defaults;
	struct tally t;
	struct cmp c;
	bb_image *out = NULL;
	struct oklab_tables *ok = NULL;
	int *col = NULL, win = 0;
	long long ignored = 0;
	bb_status s;

	memset(res, 0, sizeof *res);
	if (diff_out)
		*diff_out = NULL;
	res->a_width = a->width;
	res->a_height = a->height;
	res->b_width = b->width;
	res->b_height = b->height;
	if (a->width != b->width || a->height != b->height)
		return bb_error_set(err, BB_ERR_MISMATCH, NULL, NULL,
		                    "image sizes differ: %dx%d vs %dx%d", a->width,
		                    a->height, b->width, b->height);
	s = bb_diff_options_check(o, err);
	if (s != BB_OK)
		return s;
	memset(&c, 0, sizeof c);
	c.a = a;
	c.b = b;
	c.w = a->width;
	c.h = a->height;
	c.mode = mode_of(o);
	c.white_bg = o->compat_white_bg != 0;
	c.threshold = bb_diff_threshold(o);
	c.limit = YIQ_MAX_DELTA * c.threshold * c.threshold;
	if (o->window > 0 && c.w > 0 && c.h > 0) {
		win = o->window < c.w ? o->window : c.w;
		win = win < c.h ? win : c.h;
	}
	if ((c.mode == M_OKLAB || c.mode == M_PM8) && !(ok = oklab_tables_new()))
		goto nomem;
	c.ok = ok;
	if (win && (!(c.mask = calloc((size_t)c.w, (size_t)c.h)) ||
	            !(col = malloc((size_t)c.w * sizeof *col))))
		goto nomem;
	if (diff_out) {
		s = bb_image_new(a->width, a->height, &out, err);
		if (s != BB_OK) {
			free(ok);
			free(c.mask);
			free(col);
			return s;
		}
	}
	if (run_bands(&c, o, out, &t, &ignored) != 0)
		goto nomem;
	if (win && t.diff > 0)
		res->window_pixels = window_max(c.mask, c.w, c.h, win, t.y0, t.y1, col);
	res->window = win;
	free(ok);
	free(c.mask);
	free(col);
	res->diff_pixels = t.diff;
	res->aa_pixels = t.aa;
	res->changed_pixels = t.changed;
	res->total_pixels = (long long)c.w * c.h - ignored;
	res->diff_ratio = res->total_pixels > 0
	                  ? (double)t.diff / (double)res->total_pixels : 0.0;
	res->max_delta = t.max_dist < 1.0 ? t.max_dist : 1.0;
	if (t.diff > 0) {
		res->box.x = t.x0;
		res->box.y = t.y0;
		res->box.w = t.x1 - t.x0 + 1;
		res->box.h = t.y1 - t.y0 + 1;
	}
	if (diff_out)
		*diff_out = out;
	return BB_OK;
nomem:
	bb_image_free(out);
	free(ok);
	free(c.mask);
	free(col);
	return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
}
