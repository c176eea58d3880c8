/* MaxRects rectangle packing (Jukka Jylänki, "A Thousand Ways to Pack the
 * Bin", 2010) with a small search: every heuristic, a few input orders and
 * a search over page sizes; the smallest page wins.  With multipack, a
 * greedy pass fills full-size pages group by group and each page is then
 * shrunk with the same search.
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

typedef struct frect {
	int x, y, w, h;
} frect;

/* One page being filled: the maximal free rectangles and the used ones
 * (for the contact-point score). */
typedef struct bin {
	int w, h;
	frect *fr;
	size_t n_fr, cap_fr;
	frect *nw;                  /* scratch for rectangles made by a split */
	size_t n_nw, cap_nw;
	frect *used;
	size_t n_used, cap_used;
} bin;

enum { N_ORDERS = 4, N_HEURISTICS = 5 };

static const bb_pack_heuristic all_heuristics[N_HEURISTICS] = {
	BB_PACK_BEST_SHORT_SIDE, BB_PACK_BEST_AREA, BB_PACK_BOTTOM_LEFT,
	BB_PACK_BEST_LONG_SIDE, BB_PACK_CONTACT_POINT
};

/* Above this many rectangles the contact-point rule (quadratic per
 * placement) is left out of the automatic search. */
enum { CONTACT_POINT_MAX_RECTS = 400 };

static void bin_free(bin *b)
{
	free(b->fr);
	free(b->nw);
	free(b->used);
	memset(b, 0, sizeof *b);
}

static int push(frect **a, size_t *n, size_t *cap, frect r)
{
	if (!bb__grow((void **)a, cap, *n + 1, sizeof **a))
		return 0;
	(*a)[(*n)++] = r;
	return 1;
}

static int bin_reset(bin *b, int w, int h)
{
	frect all = { 0, 0, w, h };

	b->w = w;
	b->h = h;
	b->n_fr = b->n_used = b->n_nw = 0;
	return push(&b->fr, &b->n_fr, &b->cap_fr, all);
}

static int bin_copy(bin *dst, const bin *src)
{
	if (!bb__grow((void **)&dst->fr, &dst->cap_fr, src->n_fr, sizeof *src->fr) ||
	    !bb__grow((void **)&dst->used, &dst->cap_used, src->n_used,
	              sizeof *src->used))
		return 0;
	dst->w = src->w;
	dst->h = src->h;
	memcpy(dst->fr, src->fr, src->n_fr * sizeof *src->fr);
	memcpy(dst->used, src->used, src->n_used * sizeof *src->used);
	dst->n_fr = src->n_fr;
	dst->n_used = src->n_used;
	return 1;
}

static int overlaps(frect a, frect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w &&
	       a.y < b.y + b.h && b.y < a.y + a.h;
}

static int contains(frect outer, frect in)
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
static long long contact(const bin *b, frect r)
{
	long long s = 0;
	size_t i;

	if (r.x == 0 || r.x + r.w == b->w)
		s += r.h;
	if (r.y == 0 || r.y + r.h == b->h)
		s += r.w;
	for (i = 0; i < b->n_used; i++) {
		const frect *u = &b->used[i];

		if (u->x == r.x + r.w || u->x + u->w == r.x)
			s += common(u->y, u->y + u->h, r.y, r.y + r.h);
		if (u->y == r.y + r.h || u->y + u->h == r.y)
			s += common(u->x, u->x + u->w, r.x, r.x + r.w);
	}
	return s;
}

/* Scores placing a w x h rectangle at free rectangle f's corner; lower is
 * better, s1 first then s2. */
static void score(const bin *b, bb_pack_heuristic hk, const frect *f, int w,
                  int h, long long *s1, long long *s2)
{
	int lw = f->w - w, lh = f->h - h;
	int shorter = lw < lh ? lw : lh, longer = lw < lh ? lh : lw;
	frect r = { f->x, f->y, w, h };

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
static int bin_find(const bin *b, bb_pack_heuristic hk, int w, int h,
                    int rot_ok, frect *out, int *rotated)
{
	long long best1 = LLONG_MAX, best2 = LLONG_MAX, s1, s2;
	size_t i;
	int found = 0;

	for (i = 0; i < b->n_fr; i++) {
		const frect *f = &b->fr[i];

		if (f->w >= w && f->h >= h) {
			score(b, hk, f, w, h, &s1, &s2);
			if (s1 < best1 || (s1 == best1 && s2 < best2)) {
				best1 = s1;
				best2 = s2;
				*out = (frect){ f->x, f->y, w, h };
				*rotated = 0;
				found = 1;
			}
		}
		if (rot_ok && w != h && f->w >= h && f->h >= w) {
			score(b, hk, f, h, w, &s1, &s2);
			if (s1 < best1 || (s1 == best1 && s2 < best2)) {
				best1 = s1;
				best2 = s2;
				*out = (frect){ f->x, f->y, h, w };
				*rotated = 1;
				found = 1;
			}
		}
	}
	return found;
}

/* Splits free rectangle f around the placed rectangle r (they overlap). */
static int split(bin *b, frect f, frect r)
{
	if (r.x < f.x + f.w && r.x + r.w > f.x) {
		if (r.y > f.y && r.y < f.y + f.h &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (frect){ f.x, f.y, f.w, r.y - f.y }))
			return 0;
		if (r.y + r.h < f.y + f.h &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (frect){ f.x, r.y + r.h, f.w, f.y + f.h - (r.y + r.h) }))
			return 0;
	}
	if (r.y < f.y + f.h && r.y + r.h > f.y) {
		if (r.x > f.x && r.x < f.x + f.w &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (frect){ f.x, f.y, r.x - f.x, f.h }))
			return 0;
		if (r.x + r.w < f.x + f.w &&
		    !push(&b->nw, &b->n_nw, &b->cap_nw,
		          (frect){ r.x + r.w, f.y, f.x + f.w - (r.x + r.w), f.h }))
			return 0;
	}
	return 1;
}

/* Marks r used: splits the free rectangles it overlaps and drops the
 * pieces contained in other free rectangles.  Only new pieces need the
 * containment test: each lies inside a rectangle that was split, and no
 * untouched free rectangle was inside that one.  0 when out of memory. */
static int bin_place(bin *b, frect r)
{
	size_t i, j, keep = 0;

	b->n_nw = 0;
	for (i = 0; i < b->n_fr; i++) {
		frect f = b->fr[i];

		if (!overlaps(f, r))
			b->fr[keep++] = f;
		else if (!split(b, f, r))
			return 0;
	}
	b->n_fr = keep;
	for (i = 0; i < b->n_nw; i++) {
		frect a = b->nw[i];
		int dead = 0;

		for (j = 0; j < b->n_nw && !dead; j++) {
			frect o = b->nw[j];

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

typedef struct search {
	size_t n;                  /* items on this page */
	const int *idx;            /* item -> rects index */
	int *w, *h;                /* padded sizes per item */
	int rot, pad, border, pot, square;
	int max_w, max_h;          /* page limits */
	int min_w, min_h;          /* page sides no page can be below */
	long long area;            /* sum of padded areas */
	int *order[N_ORDERS];
	bb_pack_heuristic hk[N_HEURISTICS];
	int n_hk, n_combos, hint;  /* hint: last combo that worked */
	bin b;
	int *cx, *cy, *cr;         /* attempt */
	int *bx, *by, *br;         /* best so far */
	int found, best_w, best_h, nomem;
	long long best_area;
} search;

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

static int pot_floor(int v)
{
	int p = 1;

	while (p <= v / 2)
		p *= 2;
	return p;
}

/* Page size for a placement whose padded rectangles end at (uw, uh). */
static void page_dims(const search *s, int uw, int uh, int *pw, int *ph)
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

static int pack_run(search *s, int bw, int bh, const int *order,
                    bb_pack_heuristic hk, int *uw, int *uh)
{
	size_t k;

	if (!bin_reset(&s->b, bw, bh)) {
		s->nomem = 1;
		return 0;
	}
	*uw = *uh = 0;
	for (k = 0; k < s->n; k++) {
		int i = order[k], rt = 0;
		frect r;

		if (!bin_find(&s->b, hk, s->w[i], s->h[i], s->rot, &r, &rt))
			return 0;
		if (!bin_place(&s->b, r)) {
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

static void keep_if_better(search *s, int uw, int uh)
{
	int pw, ph, big, best_big;
	long long area;

	page_dims(s, uw, uh, &pw, &ph);
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

/* Tries a pw x ph page with each heuristic and order (the last one that
 * worked first); stops at the first success unless `all`. */
static int try_size(search *s, int pw, int ph, int all)
{
	int bw = pw - 2 * s->border + s->pad, bh = ph - 2 * s->border + s->pad;
	int c, ok = 0;
	size_t i;

	if (bw <= 0 || bh <= 0 || pw > s->max_w || ph > s->max_h ||
	    (long long)bw * bh < s->area)
		return 0;
	for (i = 0; i < s->n; i++)
		if (!((s->w[i] <= bw && s->h[i] <= bh) ||
		      (s->rot && s->h[i] <= bw && s->w[i] <= bh)))
			return 0;
	for (c = -1; c < s->n_combos; c++) {
		int combo = c < 0 ? s->hint : c, uw, uh;

		if (c == s->hint)
			continue;
		if (!pack_run(s, bw, bh, s->order[combo % N_ORDERS],
		              s->hk[combo / N_ORDERS], &uw, &uh)) {
			if (s->nomem)
				return 0;
			continue;
		}
		ok = 1;
		s->hint = combo;
		keep_if_better(s, uw, uh);
		if (!all)
			break;
	}
	return ok;
}

static int cmp_int(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;

	return (a > b) - (a < b);
}

/* Free sizes: a set of widths around the square root of the area, and for
 * each the smallest height found by bisection. */
static void search_free(search *s)
{
	static const int pct[] = { 50, 60, 70, 80, 90, 100, 110, 125, 140,
	                           160, 200, 250, 320, 400 };
	int widths[sizeof pct / sizeof pct[0] + 2];
	size_t nw = 0, i;
	double side = sqrt((double)s->area);
	int extra = 2 * s->border - s->pad;

	widths[nw++] = s->min_w;
	widths[nw++] = s->max_w;
	for (i = 0; i < sizeof pct / sizeof pct[0]; i++) {
		double w = side * pct[i] / 100.0 + extra;

		if (w >= s->min_w && w <= s->max_w)
			widths[nw++] = (int)w;
	}
	qsort(widths, nw, sizeof *widths, cmp_int);
	for (i = 0; i < nw && !s->nomem; i++) {
		int w = widths[i], bw = w - extra;
		long long lo, hi;

		if (i > 0 && w == widths[i - 1])
			continue;
		lo = (s->area + bw - 1) / bw + extra;
		if (lo < s->min_h)
			lo = s->min_h;
		hi = s->best_area / w;
		if (hi > s->max_h)
			hi = s->max_h;
		if (lo > hi || !try_size(s, w, (int)hi, 0))
			continue;
		while (lo < hi && hi - lo > lo / 128) {
			long long mid = lo + (hi - lo) / 2;

			if (try_size(s, w, (int)mid, 0))
				hi = mid;
			else
				lo = mid + 1;
		}
	}
}

static void search_pot(search *s)
{
	int w, h;
	int extra = 2 * s->border - s->pad;

	for (w = pot_ceil(s->min_w); w <= s->max_w && !s->nomem; w *= 2) {
		long long need = s->area / (w - extra) + extra;

		for (h = pot_ceil(need > s->min_h ? need : s->min_h);
		     h <= s->max_h; h *= 2) {
			if ((long long)w * h >= s->best_area)
				break;
			if (try_size(s, w, h, 0))
				break;
		}
		if (w > INT_MAX / 2)
			break;
	}
}

static void search_square(search *s)
{
	int extra = 2 * s->border - s->pad;
	long long lo = (long long)ceil(sqrt((double)s->area)) + extra;
	long long hi = s->best_w;

	if (lo < s->min_w)
		lo = s->min_w;
	if (lo < s->min_h)
		lo = s->min_h;
	if (s->pot) {
		int side;

		for (side = pot_ceil(lo); side < hi && !s->nomem; side *= 2)
			if (try_size(s, side, side, 0))
				break;
		return;
	}
	while (lo < hi && hi - lo > lo / 128 && !s->nomem) {
		long long mid = lo + (hi - lo) / 2;

		if (try_size(s, (int)mid, (int)mid, 0))
			hi = mid;
		else
			lo = mid + 1;
	}
}

/* Prepares a search over the items idx[0..n) of rects. */
static int search_init(search *s, const bb_pack_rect *rects, const int *idx,
                       size_t n, const bb_pack_layout *lo, int max_w,
                       int max_h, bb_pack_heuristic only)
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
	for (o = 0; o < N_ORDERS; o++)
		s->order[o] = bb__calloc(n, sizeof(int));
	if (!s->w || !s->h || !s->cx || !s->cy || !s->cr || !s->bx || !s->by ||
	    !s->br || !keys || !s->order[0] || !s->order[1] || !s->order[2] ||
	    !s->order[3]) {
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
	for (o = 0; o < N_ORDERS; o++) {
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
	}
	free(keys);
	if (only != BB_PACK_AUTO) {
		s->hk[s->n_hk++] = only;
	} else {
		for (k = 0; k < N_HEURISTICS; k++)
			if (all_heuristics[k] != BB_PACK_CONTACT_POINT ||
			    n <= CONTACT_POINT_MAX_RECTS)
				s->hk[s->n_hk++] = all_heuristics[k];
	}
	s->n_combos = s->n_hk * N_ORDERS;
	return 1;
}

static void search_free_all(search *s)
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
	for (o = 0; o < N_ORDERS; o++)
		free(s->order[o]);
	bin_free(&s->b);
}

/* Finds the smallest page for the items; 0 when they do not fit in the
 * largest page (or memory ran out: s->nomem). */
static int search_run(search *s)
{
	if (!try_size(s, s->max_w, s->max_h, 0))
		return 0;
	if (s->square)
		search_square(s);
	else if (s->pot)
		search_pot(s);
	else
		search_free(s);
	if (!s->nomem)
		try_size(s, s->best_w, s->best_h, 1);
	return !s->nomem;
}

static void search_store(const search *s, bb_pack_rect *rects, int page)
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

/* ------------------------------------------------------------------ */
/* Several pages */

typedef struct span {
	int group;
	size_t first, count;       /* in the by-group item order */
	long long area;
} span;

typedef struct greedy {
	const bb_pack_rect *rects;
	const int *byg;            /* rect indices grouped, biggest first */
	const span *spans;
	size_t n_spans;
	int bw, bh, pad, rot;
	bin *bins, scratch;
	size_t n_bins;
	int *page_of, *gx, *gy, *grot;
} greedy;

static int place_one(greedy *g, bin *b, int i, bb_pack_heuristic hk)
{
	frect r;
	int rt = 0;

	if (!bin_find(b, hk, g->rects[i].w + g->pad, g->rects[i].h + g->pad,
	              g->rot, &r, &rt))
		return 0;
	if (!bin_place(b, r))
		return -1;
	g->gx[i] = r.x;
	g->gy[i] = r.y;
	g->grot[i] = rt;
	return 1;
}

/* Places a whole span in b; 1 done, 0 no room (b is then spoiled), -1 nomem. */
static int place_span(greedy *g, bin *b, const span *sp, bb_pack_heuristic hk)
{
	size_t k;
	int r;

	for (k = 0; k < sp->count; k++) {
		r = place_one(g, b, g->byg[sp->first + k], hk);
		if (r <= 0)
			return r;
	}
	return 1;
}

static void set_page(greedy *g, const span *sp, size_t page)
{
	size_t k;

	for (k = 0; k < sp->count; k++)
		g->page_of[g->byg[sp->first + k]] = (int)page;
}

/* Fills full-size pages span by span: a span goes whole onto the first
 * page with room for all of it, else onto a new page, else it is spread
 * rectangle by rectangle.  Returns the page count, or 0 when out of
 * memory. */
static size_t greedy_run(greedy *g, bb_pack_heuristic hk)
{
	size_t s, p, k;
	int r;

	g->n_bins = 0;
	for (s = 0; s < g->n_spans; s++) {
		const span *sp = &g->spans[s];
		int done = 0;

		for (p = 0; p < g->n_bins && !done; p++) {
			bin tmp;

			if (!bin_copy(&g->scratch, &g->bins[p]))
				return 0;
			r = place_span(g, &g->scratch, sp, hk);
			if (r < 0)
				return 0;
			if (r == 0)
				continue;
			tmp = g->bins[p];
			g->bins[p] = g->scratch;
			g->scratch = tmp;
			set_page(g, sp, p);
			done = 1;
		}
		if (done)
			continue;
		if (!bin_reset(&g->bins[g->n_bins], g->bw, g->bh))
			return 0;
		r = place_span(g, &g->bins[g->n_bins], sp, hk);
		if (r < 0)
			return 0;
		if (r > 0) {
			set_page(g, sp, g->n_bins++);
			continue;
		}
		/* too big for one page: spread it */
		if (!bin_reset(&g->bins[g->n_bins], g->bw, g->bh))
			return 0;
		g->n_bins++;
		for (k = 0; k < sp->count; k++) {
			int i = g->byg[sp->first + k];

			for (p = 0; ; p++) {
				if (p == g->n_bins) {
					if (!bin_reset(&g->bins[p], g->bw, g->bh))
						return 0;
					g->n_bins++;
				}
				r = place_one(g, &g->bins[p], i, hk);
				if (r < 0)
					return 0;
				if (r > 0) {
					g->page_of[i] = (int)p;
					break;
				}
			}
		}
	}
	return g->n_bins;
}

typedef struct group_key {
	int group;
	long long area;
	int index;
} group_key;

static int cmp_group(const void *pa, const void *pb)
{
	const group_key *a = pa, *b = pb;

	if (a->group != b->group)
		return (a->group > b->group) - (a->group < b->group);
	if (a->area != b->area)
		return a->area > b->area ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

static int cmp_span(const void *pa, const void *pb)
{
	const span *a = pa, *b = pb;

	if (a->area != b->area)
		return a->area > b->area ? -1 : 1;
	return (a->group > b->group) - (a->group < b->group);
}

static bb_status multipack(bb_pack_rect *rects, size_t n,
                           const bb_pack_layout *lo, int max_w, int max_h,
                           bb_pack_page *pages, size_t pages_cap,
                           size_t *n_pages, bb_error *err)
{
	static const bb_pack_heuristic greedy_hk[] = {
		BB_PACK_BEST_SHORT_SIDE, BB_PACK_BEST_AREA, BB_PACK_BOTTOM_LEFT,
		BB_PACK_BEST_LONG_SIDE
	};
	greedy g;
	group_key *keys = bb__calloc(n, sizeof *keys);
	int *byg = bb__calloc(n, sizeof *byg), *idx = bb__calloc(n, sizeof *idx);
	int *best_page = bb__calloc(n, sizeof(int)), *bgx = bb__calloc(n, sizeof(int));
	int *bgy = bb__calloc(n, sizeof(int)), *bgr = bb__calloc(n, sizeof(int));
	span *spans = bb__calloc(n, sizeof *spans);
	size_t i, k, h, n_spans = 0, best_pages = 0, p;
	bb_status st = BB_OK;

	memset(&g, 0, sizeof g);
	g.page_of = bb__calloc(n, sizeof(int));
	g.gx = bb__calloc(n, sizeof(int));
	g.gy = bb__calloc(n, sizeof(int));
	g.grot = bb__calloc(n, sizeof(int));
	g.bins = bb__calloc(n, sizeof *g.bins);
	if (!keys || !byg || !idx || !best_page || !bgx || !bgy || !bgr ||
	    !spans || !g.page_of || !g.gx || !g.gy || !g.grot || !g.bins)
		goto nomem;
	for (i = 0; i < n; i++)
		keys[i] = (group_key){ rects[i].group,
		                       (long long)(rects[i].w + lo->padding) *
		                       (rects[i].h + lo->padding), (int)i };
	qsort(keys, n, sizeof *keys, cmp_group);
	for (i = 0; i < n; i++) {
		byg[i] = keys[i].index;
		if (i == 0 || keys[i].group != keys[i - 1].group)
			spans[n_spans++] = (span){ keys[i].group, i, 0, 0 };
		spans[n_spans - 1].count++;
		spans[n_spans - 1].area += keys[i].area;
	}
	qsort(spans, n_spans, sizeof *spans, cmp_span);
	g.rects = rects;
	g.byg = byg;
	g.spans = spans;
	g.n_spans = n_spans;
	g.bw = max_w - 2 * lo->border + lo->padding;
	g.bh = max_h - 2 * lo->border + lo->padding;
	g.pad = lo->padding;
	g.rot = lo->allow_rotate != 0;
	for (h = 0; h < sizeof greedy_hk / sizeof greedy_hk[0]; h++) {
		size_t got;

		if (lo->heuristic != BB_PACK_AUTO && h > 0)
			break;
		got = greedy_run(&g, lo->heuristic != BB_PACK_AUTO ? lo->heuristic
		                                                   : greedy_hk[h]);
		if (got == 0)
			goto nomem;
		if (best_pages == 0 || got < best_pages) {
			best_pages = got;
			memcpy(best_page, g.page_of, n * sizeof(int));
			memcpy(bgx, g.gx, n * sizeof(int));
			memcpy(bgy, g.gy, n * sizeof(int));
			memcpy(bgr, g.grot, n * sizeof(int));
		}
	}
	if (best_pages > pages_cap) {
		st = bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                  "room for %zu pages, %zu needed", pages_cap,
		                  best_pages);
		goto done;
	}
	/* shrink each page with the one-page search */
	for (p = 0; p < best_pages; p++) {
		search s;
		size_t m = 0;

		for (i = 0; i < n; i++)
			if (best_page[i] == (int)p)
				idx[m++] = (int)i;
		if (!search_init(&s, rects, idx, m, lo, max_w, max_h, lo->heuristic)) {
			search_free_all(&s);
			goto nomem;
		}
		if (search_run(&s)) {
			search_store(&s, rects, (int)p);
			pages[p].width = s.best_w;
			pages[p].height = s.best_h;
		} else if (s.nomem) {
			search_free_all(&s);
			goto nomem;
		} else {        /* keep the greedy placement */
			int uw = 0, uh = 0;

			for (k = 0; k < m; k++) {
				bb_pack_rect *r = &rects[idx[k]];
				int w = (bgr[idx[k]] ? r->h : r->w) + lo->padding;
				int hh = (bgr[idx[k]] ? r->w : r->h) + lo->padding;

				r->x = bgx[idx[k]] + lo->border;
				r->y = bgy[idx[k]] + lo->border;
				r->rotated = bgr[idx[k]];
				r->page = (int)p;
				if (bgx[idx[k]] + w > uw)
					uw = bgx[idx[k]] + w;
				if (bgy[idx[k]] + hh > uh)
					uh = bgy[idx[k]] + hh;
			}
			page_dims(&s, uw, uh, &pages[p].width, &pages[p].height);
		}
		search_free_all(&s);
	}
	*n_pages = best_pages;
	goto done;
nomem:
	st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
done:
	if (g.bins)
		for (i = 0; i < n; i++)
			bin_free(&g.bins[i]);
	bin_free(&g.scratch);
	free(g.bins);
	free(g.page_of);
	free(g.gx);
	free(g.gy);
	free(g.grot);
	free(keys);
	free(byg);
	free(idx);
	free(best_page);
	free(bgx);
	free(bgy);
	free(bgr);
	free(spans);
	return st;
}

bb_status bb_pack_rects(bb_pack_rect *rects, size_t n,
                        const bb_pack_layout *layout, bb_pack_page *pages,
                        size_t pages_cap, size_t *n_pages, bb_error *err)
{
	bb_pack_layout lo = *layout;
	int max_w = lo.max_width ? lo.max_width : BB_PACK_DEFAULT_MAX_SIDE;
	int max_h = lo.max_height ? lo.max_height : BB_PACK_DEFAULT_MAX_SIDE;
	search s;
	int *idx;
	size_t i;
	bb_status st = BB_OK;

	*n_pages = 0;
	if (max_w < 1 || max_h < 1 || max_w > BB_IMAGE_MAX_SIDE ||
	    max_h > BB_IMAGE_MAX_SIDE)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "maximum page size %dx%d outside 1..%d", max_w,
		                    max_h, BB_IMAGE_MAX_SIDE);
	if (lo.padding < 0 || lo.padding > BB_PACK_MAX_SPACING ||
	    lo.border < 0 || lo.border > BB_PACK_MAX_SPACING)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "padding and border must be within 0..%d",
		                    BB_PACK_MAX_SPACING);
	if ((unsigned)lo.heuristic > BB_PACK_CONTACT_POINT)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "unknown packing heuristic %d", (int)lo.heuristic);
	if (lo.pot) {
		max_w = pot_floor(max_w);
		max_h = pot_floor(max_h);
	}
	if (lo.square)
		max_w = max_h = max_w < max_h ? max_w : max_h;
	if (max_w <= 2 * lo.border || max_h <= 2 * lo.border)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "border %d leaves no room in a %dx%d page",
		                    lo.border, max_w, max_h);
	if (n == 0)
		return BB_OK;
	if (pages_cap < 1)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "no room for pages");
	for (i = 0; i < n; i++) {
		int w = rects[i].w, h = rects[i].h, room_w = max_w - 2 * lo.border;
		int room_h = max_h - 2 * lo.border;

		if (w <= 0 || h <= 0 || w > BB_IMAGE_MAX_SIDE || h > BB_IMAGE_MAX_SIDE)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "rectangle %zu has size %dx%d", i, w, h);
		if (!((w <= room_w && h <= room_h) ||
		      (lo.allow_rotate && h <= room_w && w <= room_h)))
			return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL,
			                    "a %dx%d sprite does not fit in a %dx%d page "
			                    "(border %d)", w, h, max_w, max_h, lo.border);
		rects[i].x = rects[i].y = rects[i].rotated = 0;
		rects[i].page = -1;
	}
	idx = bb__calloc(n, sizeof *idx);
	if (!idx)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	for (i = 0; i < n; i++)
		idx[i] = (int)i;
	if (!search_init(&s, rects, idx, n, &lo, max_w, max_h, lo.heuristic)) {
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	} else if (search_run(&s)) {
		search_store(&s, rects, 0);
		pages[0].width = s.best_w;
		pages[0].height = s.best_h;
		*n_pages = 1;
	} else if (s.nomem) {
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	} else if (!lo.multipack) {
		st = bb_error_set(err, BB_ERR_LIMIT, NULL, NULL,
		                  "the sprites do not fit on one %dx%d page; allow "
		                  "several pages (multipack) or a larger maximum size",
		                  max_w, max_h);
	} else {
		st = multipack(rects, n, &lo, max_w, max_h, pages, pages_cap,
		               n_pages, err);
	}
	search_free_all(&s);
	free(idx);
	return st;
}
