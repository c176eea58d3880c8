/* MaxRects internals shared by the one-page search (maxrects.c) and the
 * several-page layout (layout.c).  Not installed. */
#ifndef BB_PACK_MAXRECTS_H
#define BB_PACK_MAXRECTS_H

#include <stddef.h>

#include "bonebake/pack.h"

typedef struct bb__frect {
	int x, y, w, h;
} bb__frect;

/* One page being filled: the maximal free rectangles and the used ones
 * (for the contact-point score). */
typedef struct bb__bin {
	int w, h;
	int min_w, min_h;           /* free pieces narrower or lower are useless */
	bb__frect *fr;
	size_t n_fr, cap_fr;
	bb__frect *nw;              /* scratch for rectangles made by a split */
	size_t n_nw, cap_nw;
	bb__frect *used;
	size_t n_used, cap_used;
} bb__bin;

enum { BB__PACK_ORDERS = 4, BB__PACK_HEURISTICS = 5 };

typedef struct bb__search {
	size_t n;                  /* items on this page */
	const int *idx;            /* item -> rects index */
	int *w, *h;                /* padded sizes per item */
	int rot, pad, border, pot, square;
	int max_w, max_h;          /* page limits */
	int min_w, min_h;          /* page sides no page can be below */
	long long area;            /* sum of padded areas */
	int *order[BB__PACK_ORDERS];
	int *tail_w[BB__PACK_ORDERS];  /* smallest padded sides from k on */
	int *tail_h[BB__PACK_ORDERS];
	bb_pack_heuristic hk[BB__PACK_HEURISTICS];
	int n_hk, n_combos, hint;  /* hint: last combo that worked */
	bb__bin b;
	int *cx, *cy, *cr;         /* attempt */
	int *bx, *by, *br;         /* best so far */
	int found, best_w, best_h, nomem;
	long long best_area;
} bb__search;

/* Bins: a page being filled.  Zero-initialise, then bb__bin_reset. */
void bb__bin_free(bb__bin *b);
/* Empties b to one w x h free rectangle; 0 when out of memory. */
int bb__bin_reset(bb__bin *b, int w, int h);
/* Makes dst a copy of src; 0 when out of memory. */
int bb__bin_copy(bb__bin *dst, const bb__bin *src);
/* Finds where a w x h rectangle goes (turned when rot_ok and better);
 * 0 when nowhere. */
int bb__bin_find(const bb__bin *b, bb_pack_heuristic hk, int w, int h,
                 int rot_ok, bb__frect *out, int *rotated);
/* Marks r used; 0 when out of memory. */
int bb__bin_place(bb__bin *b, bb__frect r);

/* One-page search over heuristics, orders and page sizes for the rects
 * idx[0..n).  `only` restricts it to one heuristic (BB_PACK_AUTO: all).
 * Returns 0 when out of memory; free with bb__search_free either way. */
int bb__search_init(bb__search *s, const bb_pack_rect *rects, const int *idx,
                    size_t n, const bb_pack_layout *lo, int max_w, int max_h,
                    bb_pack_heuristic only);
/* Finds the smallest page; 0 when the rects do not fit in the largest
 * one (or memory ran out: s->nomem). */
int bb__search_run(bb__search *s);
/* Writes the best placement into rects (positions with the border). */
void bb__search_store(const bb__search *s, bb_pack_rect *rects, int page);
void bb__search_free(bb__search *s);
/* Page size for a placement whose padded rectangles end at (uw, uh). */
void bb__search_page_dims(const bb__search *s, int uw, int uh, int *pw,
                          int *ph);

int bb__pot_floor(int v);

#endif
