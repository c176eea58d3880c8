/* MaxRects rectangle packing (Jukka Jylänki, "A Thousand Ways to Pack the
 * Bin", 2010) with a small search: every heuristic, a few input orders and
 * a search over page sizes; the smallest page wins.  Several pages:
 * layout.c.
 *
 * Padding is handled by packing rectangles grown by `padding` on the right
 * and bottom into a bin grown by the same amount, inside the border. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/maxrects.h"

static const bb_pack_heuristic all_heuristics[BB__PACK_HEURISTICS] = {
	BB_PACK_BEST_SHORT_SIDE, BB_PACK_BEST_AREA, BB_PACK_BOTTOM_LEFT,
	BB_PACK_BEST_LONG_SIDE, BB_PACK_CONTACT_POINT
};

/* Above this many rectangles the contact-point rule (quadratic per
 * placement) is left out of the automatic search. */
enum { CONTACT_POINT_MAX_RECTS = 400 };

void bb__bin_free(bb__bin *b)
{
	free(b->fr);
	free(b->nw);
	free(b->used);
	memset(b, 0, sizeof *b);
}

static int push(bb__frect **a, size_t *n, size_t *cap, bb__frect r)
{
	if (!bb__grow((void **)a, cap, *n + 1, sizeof **a))
		return 0;
	(*a)[(*n)++] = r;
	return 1;
}

int bb__bin_reset(bb__bin *b, int w, int h)
{
	bb__frect all = { 0, 0, w, h };

	b->w = w;
	b->h = h;
	b->min_w = b->min_h = 0;
	b->n_fr = b->n_used = b->n_nw = 0;
	return push(&b->fr, &b->n_fr, &b->cap_fr, all);
}

/* Raises the smallest useful free size (the smallest rectangle still to
 * come) and drops the free rectangles below it: fewer to score and split. */
static void bin_set_min(bb__bin *b, int min_w, int min_h)
{
	size_t i, keep = 0;

	if (min_w <= b->min_w && min_h <= b->min_h)
		return;
	b->min_w = min_w;
	b->min_h = min_h;
	for (i = 0; i < b->n_fr; i++)
		if (b->fr[i].w >= min_w && b->fr[i].h >= min_h)
			b->fr[keep++] = b->fr[i];
	b->n_fr = keep;
}

int bb__bin_copy(bb__bin *dst, const bb__bin *src)
{
	if (!bb__grow((void **)&dst->fr, &dst->cap_fr, src->n_fr, sizeof *src->fr) ||
	    !bb__grow((void **)&dst->used, &dst->cap_used, src->n_used,
	              sizeof *src->used))
		return 0;
	dst->w = src->w;
	dst->h = src->h;
	dst->min_w = src->min_w;
	dst->min_h = src->min_h;
	memcpy(dst->fr, src->fr, src->n_fr * sizeof *src->fr);
	memcpy(dst->used, src->used, src->n_used * sizeof *src->used);
	dst->n_fr = src->n_fr;
	dst->n_used = src->n_used;
	return 1;
}

static int overlaps(bb__frect a, bb__frect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w &&
	       a.y < b.y + b.h && b.y < a.y + a.h;
}

static int contains(bb__frect outer, bb__frect in)
{
	return in.x >= outer.x && in.y >= outer.y &&
	       in.x + in.w <= outer.x + outer.w && in.y + in.h <= outer.y + outer.h;
}

static int common(int a0, int a1, int b0, int b1)
{
	int lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* Length of r's perimeter touching the bin's edges or used rectangles. */
static long long contact(const bb__bin *b, bb__frect r)
{
	long long s = 0;
	size_t i;

	if (r.x == 0 || r.x + r.w == b->w)
		s += r.h;
	if (r.y == 0 || r.y + r.h == b->h)
		s += r.w;
	for (i = 0; i < b->n_used; i++) {
		const bb__frect *u = &b->used[i];

		if (u->x == r.x + r.w || u->x + u->w == r.x)
			s += common(u->y, u->y + u->h, r.y, r.y + r.h);
		if (u->y == r.y + r.h || u->y + u->h == r.y)
			s += common(u->x, u->x + u->w, r.x, r.x + r.w);
	}
	return s;
}

/* Scores placing a w x h rectangle at free rectangle f's corner; lower is
 * better, s1 first then s2. */
static void score(const bb__bin *b, bb_pack_heuristic hk, const bb__frect *f,
                  int w, int h, long long *s1, long long *s2)
{
	int lw = f->w - w, lh = f->h - h;
	int shorter = lw < lh ? lw : lh, longer = lw < lh ? lh : lw;
	bb__frect r = { f->x, f->y, w, h };

	switch (hk) {
	case BB_PACK_AUTO:
	case BB_PACK_BEST_SHORT_SIDE:
		*s1 = shorter;
		*s2 = longer;
		break;
	case BB_PACK_BEST_LONG_SIDE:
		*s1 = longer;
		*s2 = shorter;
		break;
	case BB_PACK_BEST_AREA:
		*s1 = (long long)f->w * f->h - (long long)w * h;
		*s2 = shorter;
		break;
	case BB_PACK_BOTTOM_LEFT:   /* Jylänki's y-up bottom-left is our top-left */
		*s1 = (long long)f->y + h;
		*s2 = f->x;
		break;
	case BB_PACK_CONTACT_POINT:
		*s1 = -contact(b, r);
		*s2 = (long long)f->y + h;
		break;
	}
}

/* Finds where a w x h rectangle goes; 0 when nowhere. */
int bb__bin_find(const bb__bin *b, bb_pack_heuristic hk, int w, int h,
                 int rot_ok, bb__frect *out, int *rotated)
{
	long long best1 = LLONG_MAX, best2 = LLONG_MAX, s1, s2;
	size_t i;
	int found = 0;

	for (i = 0; i < b->n_fr; i++) {
		const bb__frect *f = &b->fr[i];

		if (f->w >= w && f->h >= h) {
			score(b, hk, f, w, h, &s1, &s2);
			if (s1 < best1 || (s1 == best1 && s2 < best2)) {
				best1 = s1;
				best2 = s2;
				*out = (bb__frect){ f->x, f->y, w, h };
				*rotated = 0;
				found = 1;
			}
		}
		if (rot_ok && w != h && f->w >= h && f->h >= w) {
			score(b, hk, f, h, w, &s1, &s2);
			if (s1 < best1 || (s1 == best1 && s2 < best2)) {
				best1 = s1;
				best2 = s2;
				*out = (bb__frect){ f->x, f->y, h, w };
				*rotated = 1;
				found = 1;
			}
		}
	}
	return found;
}

/* Splits free rectangle f around the placed rectangle r (they overlap). */
static int split(bb__bin *b, bb__frect f, bb__frect r)
{
	if (r.x < f.x + f.w && r.x + r.w > f.x) {
		if (r.y > f.y && r.y < f.y + f.h &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (bb__frect){ f.x, f.y, f.w, r.y - f.y }))
			return 0;
		if (r.y + r.h < f.y + f.h &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (bb__frect){ f.x, r.y + r.h, f.w, f.y + f.h - (r.y + r.h) }))
			return 0;
	}
	if (r.y < f.y + f.h && r.y + r.h > f.y) {
		if (r.x > f.x && r.x < f.x + f.w &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (bb__frect){ f.x, f.y, r.x - f.x, f.h }))
			return 0;
		if (r.x + r.w < f.x + f.w &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (bb__frect){ r.x + r.w, f.y, f.x + f.w - (r.x + r.w), f.h }))
			return 0;
	}
	return 1;
}

/* Marks r used: splits the free rectangles it overlaps and drops the
 * pieces contained in other free rectangles.  Only new pieces need the
 * containment test: each lies inside a rectangle that was split, and no
 * untouched free rectangle was inside that one.  0 when out of memory. */
int bb__bin_place(bb__bin *b, bb__frect r)
{
	size_t i, j, keep = 0;

	b->n_nw = 0;
	for (i = 0; i < b->n_fr; i++) {
		bb__frect f = b->fr[i];

		if (!overlaps(f, r))
			b->fr[keep++] = f;
		else if (!split(b, f, r))
			return 0;
	}
	b->n_fr = keep;
	for (i = 0; i < b->n_nw; i++) {
		bb__frect a = b->nw[i];
		int dead = a.w < b->min_w || a.h < b->min_h;

		if (dead)
			b->nw[i].w = 0;
		for (j = 0; j < b->n_nw && !dead; j++) {
			bb__frect o = b->nw[j];

			if (j == i || o.w == 0 || !contains(o, a))
				continue;
			/* of two equal pieces the first stays */
			if (!contains(a, o) || j < i)
				dead = 1;
		}
		for (j = 0; j < keep && !dead; j++)
			if (contains(b->fr[j], a))
				dead = 1;
		if (dead)
			b->nw[i].w = 0;
	}
	for (i = 0; i < b->n_nw; i++)
		if (b->nw[i].w && !push(&b->fr, &b->n_fr, &b->cap_fr, b->nw[i]))
			return 0;
	return push(&b->used, &b->n_used, &b->cap_used, r);
}

/* ------------------------------------------------------------------ */
/* Search over heuristics, orders and page sizes for one page */

typedef struct order_key {
	long long k1, k2;
	int item;
} order_key;

static int cmp_key(const void *pa, const void *pb)
{
	const order_key *a = pa, *b = pb;

	if (a->k1 != b->k1)
		return a->k1 > b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 > b->k2 ? -1 : 1;
	return (a->item > b->item) - (a->item < b->item);
}

static int pot_ceil(long long v)
{
	long long p = 1;

	while (p < v)
		p *= 2;
	return p > INT_MAX ? INT_MAX : (int)p;
}

int bb__pot_floor(int v)
{
	int p = 1;

	while (p <= v / 2)
		p *= 2;
	return p;
}

/* Page size for a placement whose padded rectangles end at (uw, uh). */
void bb__search_page_dims(const bb__search *s, int uw, int uh, int *pw,
                          int *ph)
{
	*pw = uw - s->pad + 2 * s->border;
	*ph = uh - s->pad + 2 * s->border;
	if (*pw < 1)
		*pw = 1;
	if (*ph < 1)
		*ph = 1;
	if (s->pot) {
		*pw = pot_ceil(*pw);
		*ph = pot_ceil(*ph);
	}
	if (s->square)
		*pw = *ph = *pw > *ph ? *pw : *ph;
}

static int pack_run(bb__search *s, int bw, int bh, int o,
                    bb_pack_heuristic hk, int *uw, int *uh)
{
	const int *order = s->order[o];
	size_t k;

	if (!bb__bin_reset(&s->b, bw, bh)) {
		s->nomem = 1;
		return 0;
	}
	*uw = *uh = 0;
	for (k = 0; k < s->n; k++) {
		int i = order[k], rt = 0;
		bb__frect r;

		bin_set_min(&s->b, s->tail_w[o][k], s->tail_h[o][k]);
		if (!bb__bin_find(&s->b, hk, s->w[i], s->h[i], s->rot, &r, &rt))
			return 0;
		if (!bb__bin_place(&s->b, r)) {
			s->nomem = 1;
			return 0;
		}
		s->cx[i] = r.x;
		s->cy[i] = r.y;
		s->cr[i] = rt;
		if (r.x + r.w > *uw)
			*uw = r.x + r.w;
		if (r.y + r.h > *uh)
			*uh = r.y + r.h;
	}
	return 1;
}

static void keep_if_better(bb__search *s, int uw, int uh)
{
	int pw, ph, big, best_big;
	long long area;

	bb__search_page_dims(s, uw, uh, &pw, &ph);
	area = (long long)pw * ph;
	big = pw > ph ? pw : ph;
	best_big = s->best_w > s->best_h ? s->best_w : s->best_h;
	if (s->found && (area > s->best_area ||
	                 (area == s->best_area && big >= best_big)))
		return;
	s->found = 1;
	s->best_area = area;
	s->best_w = pw;
	s->best_h = ph;
	memcpy(s->bx, s->cx, s->n * sizeof *s->bx);
	memcpy(s->by, s->cy, s->n * sizeof *s->by);
	memcpy(s->br, s->cr, s->n * sizeof *s->br);
}

/* How hard try_size works on one page size. */
typedef enum try_mode {
	TRY_QUICK,      /* the last combination that worked, then a few more */
	TRY_FIRST,      /* every combination until one fits */
	TRY_ALL         /* every combination, keeping the smallest result */
} try_mode;

enum { QUICK_COMBOS = 2 };

/* Tries a pw x ph page with heuristic/order combinations, the last one
 * that worked first. */
static int try_size(bb__search *s, int pw, int ph, try_mode mode)
{
	int bw = pw - 2 * s->border + s->pad, bh = ph - 2 * s->border + s->pad;
	int c, ok = 0, tried = 0;
	int limit = mode == TRY_QUICK ? QUICK_COMBOS : s->n_combos;
	size_t i;

	if (bw <= 0 || bh <= 0 || pw > s->max_w || ph > s->max_h ||
	    (long long)bw * bh < s->area)
		return 0;
	for (i = 0; i < s->n; i++)
		if (!((s->w[i] <= bw && s->h[i] <= bh) ||
		      (s->rot && s->h[i] <= bw && s->w[i] <= bh)))
			return 0;
	for (c = -1; c < s->n_combos && tried < limit; c++) {
		int combo = c < 0 ? s->hint : c, uw, uh;

		if (c == s->hint)
			continue;
		tried++;
		if (!pack_run(s, bw, bh, combo % BB__PACK_ORDERS,
		              s->hk[combo / BB__PACK_ORDERS], &uw, &uh)) {
			if (s->nomem)
				return 0;
			continue;
		}
		ok = 1;
		s->hint = combo;
		keep_if_better(s, uw, uh);
		if (mode != TRY_ALL)
			break;
	}
	return ok;
}

static int cmp_int(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;

	return (a > b) - (a < b);
}

/* Smallest height that fits at page width w, by bisection between the
 * area bound and the best area so far. */
static void bisect_height(bb__search *s, int w, try_mode mode)
{
	int extra = 2 * s->border - s->pad, bw = w - extra;
	long long lo, hi;

	if (bw <= 0)
		return;
	lo = (s->area + bw - 1) / bw + extra;
	if (lo < s->min_h)
		lo = s->min_h;
	hi = s->found ? (s->best_area - 1) / w : s->max_h;
	if (hi > s->max_h)
		hi = s->max_h;
	if (lo > hi || !try_size(s, w, (int)hi, mode))
		return;
	while (lo < hi && hi - lo > lo / 128 && !s->nomem) {
		long long mid = lo + (hi - lo) / 2;

		if (try_size(s, w, (int)mid, mode))
			hi = mid;
		else
			lo = mid + 1;
	}
}

/* Free sizes: widths from half to twice the side of a square of the total
 * area (so pages stay within about 4:1), the smallest height for each,
 * then a harder look at the best width. */
static void search_free_sizes(bb__search *s)
{
	static const int pct[] = { 50, 60, 70, 80, 90, 100, 110, 125, 140,
	                           160, 180, 200 };
	int widths[sizeof pct / sizeof pct[0] + 1];
	size_t nw = 0, i;
	double side = sqrt((double)s->area);
	int extra = 2 * s->border - s->pad;

	widths[nw++] = s->min_w;
	for (i = 0; i < sizeof pct / sizeof pct[0]; i++) {
		double w = side * pct[i] / 100.0 + extra;

		if (w >= s->min_w && w <= s->max_w)
			widths[nw++] = (int)w;
	}
	qsort(widths, nw, sizeof *widths, cmp_int);
	for (i = 0; i < nw && !s->nomem; i++)
		if (i == 0 || widths[i] != widths[i - 1])
			bisect_height(s, widths[i], TRY_QUICK);
	if (s->found && !s->nomem)
		bisect_height(s, s->best_w, TRY_FIRST);
}

static void search_pot(bb__search *s)
{
	int w, h;
	int extra = 2 * s->border - s->pad;

	for (w = pot_ceil(s->min_w); w <= s->max_w && !s->nomem; w *= 2) {
		long long need = s->area / (w - extra) + extra;

		for (h = pot_ceil(need > s->min_h ? need : s->min_h);
		     h <= s->max_h; h *= 2) {
			if (s->found && (long long)w * h >= s->best_area)
				break;
			if (try_size(s, w, h, TRY_FIRST))
				break;
		}
		if (w > INT_MAX / 2)
			break;
	}
}

static void search_square(bb__search *s, int known)
{
	int extra = 2 * s->border - s->pad;
	long long lo = (long long)ceil(sqrt((double)s->area)) + extra;
	long long hi = known;

	if (lo < s->min_w)
		lo = s->min_w;
	if (lo < s->min_h)
		lo = s->min_h;
	if (s->pot) {
		int side;

		for (side = pot_ceil(lo); side <= hi && !s->nomem; side *= 2)
			if (try_size(s, side, side, TRY_FIRST))
				break;
		return;
	}
	if (lo > hi || !try_size(s, (int)hi, (int)hi, TRY_FIRST))
		return;
	while (lo < hi && hi - lo > lo / 128 && !s->nomem) {
		long long mid = lo + (hi - lo) / 2;

		if (try_size(s, (int)mid, (int)mid, TRY_FIRST))
			hi = mid;
		else
			lo = mid + 1;
	}
}

/* Prepares a search over the items idx[0..n) of rects. */
int bb__search_init(bb__search *s, const bb_pack_rect *rects, const int *idx,
                    size_t n, const bb_pack_layout *lo, int max_w, int max_h,
                    bb_pack_heuristic only)
{
	size_t i, k;
	int o, mw = 0, mh = 0;
	order_key *keys;

	memset(s, 0, sizeof *s);
	s->n = n;
	s->idx = idx;
	s->rot = lo->allow_rotate != 0;
	s->pad = lo->padding;
	s->border = lo->border;
	s->pot = lo->pot != 0;
	s->square = lo->square != 0;
	s->max_w = max_w;
	s->max_h = max_h;
	s->w = bb__calloc(n, sizeof *s->w);
	s->h = bb__calloc(n, sizeof *s->h);
	s->cx = bb__calloc(n, sizeof(int));
	s->cy = bb__calloc(n, sizeof(int));
	s->cr = bb__calloc(n, sizeof(int));
	s->bx = bb__calloc(n, sizeof(int));
	s->by = bb__calloc(n, sizeof(int));
	s->br = bb__calloc(n, sizeof(int));
	keys = bb__calloc(n, sizeof *keys);
	for (o = 0; o < BB__PACK_ORDERS; o++) {
		s->order[o] = bb__calloc(n, sizeof(int));
		s->tail_w[o] = bb__calloc(n, sizeof(int));
		s->tail_h[o] = bb__calloc(n, sizeof(int));
		if (!s->order[o] || !s->tail_w[o] || !s->tail_h[o]) {
			free(keys);
			return 0;
		}
	}
	if (!s->w || !s->h || !s->cx || !s->cy || !s->cr || !s->bx || !s->by ||
	    !s->br || !keys) {
		free(keys);
		return 0;
	}
	for (i = 0; i < n; i++) {
		int a, b;

		s->w[i] = rects[idx[i]].w + s->pad;
		s->h[i] = rects[idx[i]].h + s->pad;
		s->area += (long long)s->w[i] * s->h[i];
		a = s->w[i];
		b = s->h[i];
		if (s->rot && a > b) {
			a = s->h[i];
			b = s->w[i];
		}
		if (s->rot) {           /* either side may lie along x */
			if (a > mw)
				mw = a;
			if (a > mh)
				mh = a;
		} else {
			if (a > mw)
				mw = a;
			if (b > mh)
				mh = b;
		}
	}
	s->min_w = mw - s->pad + 2 * s->border;
	s->min_h = mh - s->pad + 2 * s->border;
	for (o = 0; o < BB__PACK_ORDERS; o++) {
		for (i = 0; i < n; i++) {
			long long w = s->w[i], h = s->h[i];
			long long big = w > h ? w : h, small = w > h ? h : w;

			keys[i].item = (int)i;
			switch (o) {
			case 0: keys[i].k1 = w * h; keys[i].k2 = big; break;
			case 1: keys[i].k1 = big; keys[i].k2 = small; break;
			case 2: keys[i].k1 = h; keys[i].k2 = w; break;
			default: keys[i].k1 = w + h; keys[i].k2 = big; break;
			}
		}
		qsort(keys, n, sizeof *keys, cmp_key);
		for (k = 0; k < n; k++)
			s->order[o][k] = keys[k].item;
		for (k = n; k-- > 0;) {
			int it = keys[k].item, w = s->w[it], h = s->h[it];

			if (s->rot)     /* either side may lie either way */
				w = h = w < h ? w : h;
			s->tail_w[o][k] = k + 1 < n && s->tail_w[o][k + 1] < w
			                  ? s->tail_w[o][k + 1] : w;
			s->tail_h[o][k] = k + 1 < n && s->tail_h[o][k + 1] < h
			                  ? s->tail_h[o][k + 1] : h;
		}
	}
	free(keys);
	if (only != BB_PACK_AUTO) {
		s->hk[s->n_hk++] = only;
	} else {
		for (k = 0; k < BB__PACK_HEURISTICS; k++)
			if (all_heuristics[k] != BB_PACK_CONTACT_POINT ||
			    n <= CONTACT_POINT_MAX_RECTS)
				s->hk[s->n_hk++] = all_heuristics[k];
	}
	s->n_combos = s->n_hk * BB__PACK_ORDERS;
	return 1;
}

void bb__search_free(bb__search *s)
{
	int o;

	free(s->w);
	free(s->h);
	free(s->cx);
	free(s->cy);
	free(s->cr);
	free(s->bx);
	free(s->by);
	free(s->br);
	for (o = 0; o < BB__PACK_ORDERS; o++) {
		free(s->order[o]);
		free(s->tail_w[o]);
		free(s->tail_h[o]);
	}
	bb__bin_free(&s->b);
}

/* Finds the smallest page for the items; 0 when they do not fit in the
 * largest page (or memory ran out: s->nomem). */
int bb__search_run(bb__search *s)
{
	int top_w, top_h;

	/* does it fit at all?  Then forget that (often lopsided) result */
	if (!try_size(s, s->max_w, s->max_h, TRY_FIRST))
		return 0;
	top_w = s->best_w;
	top_h = s->best_h;
	s->found = 0;
	if (s->square)
		search_square(s, top_w > top_h ? top_w : top_h);
	else if (s->pot)
		search_pot(s);
	else
		search_free_sizes(s);
	if (!s->found && !s->nomem)
		try_size(s, s->max_w, s->max_h, TRY_FIRST);
	if (!s->nomem)
		try_size(s, s->best_w, s->best_h, TRY_ALL);
	return !s->nomem;
}

void bb__search_store(const bb__search *s, bb_pack_rect *rects, int page)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		bb_pack_rect *r = &rects[s->idx[i]];

		r->x = s->bx[i] + s->border;
		r->y = s->by[i] + s->border;
		r->rotated = s->br[i];
		r->page = page;
	}
}

