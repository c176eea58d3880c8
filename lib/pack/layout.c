/* Laying rectangles out on pages: one page by the MaxRects search
 * (maxrects.c), or with multipack a greedy pass that fills full-size pages
 * group by group, each page then shrunk with the same search. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/maxrects.h"

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
	bb__bin *bins, scratch;
	size_t n_bins;
	int *page_of, *gx, *gy, *grot;
} greedy;

static int place_one(greedy *g, bb__bin *b, int i, bb_pack_heuristic hk)
{
	bb__frect r;
	int rt = 0;

	if (!bb__bin_find(b, hk, g->rects[i].w + g->pad, g->rects[i].h + g->pad,
	              g->rot, &r, &rt))
		return 0;
	if (!bb__bin_place(b, r))
		return -1;
	g->gx[i] = r.x;
	g->gy[i] = r.y;
	g->grot[i] = rt;
	return 1;
}

/* Places a whole span in b; 1 done, 0 no room (b is then spoiled), -1 nomem. */
static int place_span(greedy *g, bb__bin *b, const span *sp,
                      bb_pack_heuristic hk)
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
			bb__bin tmp;

			if (!bb__bin_copy(&g->scratch, &g->bins[p]))
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
		if (!bb__bin_reset(&g->bins[g->n_bins], g->bw, g->bh))
			return 0;
		r = place_span(g, &g->bins[g->n_bins], sp, hk);
		if (r < 0)
			return 0;
		if (r > 0) {
			set_page(g, sp, g->n_bins++);
			continue;
		}
		/* too big for one page: spread it */
		if (!bb__bin_reset(&g->bins[g->n_bins], g->bw, g->bh))
			return 0;
		g->n_bins++;
		for (k = 0; k < sp->count; k++) {
			int i = g->byg[sp->first + k];

			for (p = 0; ; p++) {
				if (p == g->n_bins) {
					if (!bb__bin_reset(&g->bins[p], g->bw, g->bh))
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
		bb__search s;
		size_t m = 0;

		for (i = 0; i < n; i++)
			if (best_page[i] == (int)p)
				idx[m++] = (int)i;
		if (!bb__search_init(&s, rects, idx, m, lo, max_w, max_h, lo->heuristic)) {
			bb__search_free(&s);
			goto nomem;
		}
		if (bb__search_run(&s)) {
			bb__search_store(&s, rects, (int)p);
			pages[p].width = s.best_w;
			pages[p].height = s.best_h;
		} else if (s.nomem) {
			bb__search_free(&s);
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
			bb__search_page_dims(&s, uw, uh, &pages[p].width,
			                     &pages[p].height);
		}
		bb__search_free(&s);
	}
	*n_pages = best_pages;
	goto done;
nomem:
	st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
done:
	if (g.bins)
		for (i = 0; i < n; i++)
			bb__bin_free(&g.bins[i]);
	bb__bin_free(&g.scratch);
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
	bb__search s;
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
		max_w = bb__pot_floor(max_w);
		max_h = bb__pot_floor(max_h);
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
	if (!bb__search_init(&s, rects, idx, n, &lo, max_w, max_h, lo.heuristic)) {
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	} else if (bb__search_run(&s)) {
		bb__search_store(&s, rects, 0);
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
	bb__search_free(&s);
	free(idx);
	return st;
}
