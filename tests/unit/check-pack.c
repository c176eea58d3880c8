/* pack: the MaxRects layout (no overlaps, inside the page, padding, border,
 * rotation, multipack, determinism) and frames -> sheet (trim offsets,
 * reassembly pixel for pixel, extrude, dedupe, empty frames, bleed,
 * premultiply, input-order independence, all-or-nothing writes). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/bonebake.h"
#include "pack-fixtures.h"

/* ------------------------------------------------------------------ */
/* Layout */

static void random_rects(bb_pack_rect *r, size_t n, unsigned seed, int max_side)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof r[i]);
		r[i].w = 1 + (int)(fx_rand(&seed) % (unsigned)max_side);
		r[i].h = 1 + (int)(fx_rand(&seed) % (unsigned)max_side);
		r[i].group = (int)(i / 8);
	}
}

static int is_pot(int v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* Every rectangle inside its page's border, and any two on one page at
 * least `padding` apart. */
static void check_layout(const bb_pack_rect *r, size_t n,
                         const bb_pack_layout *lo, const bb_pack_page *pages,
                         size_t n_pages)
{
	int pad = lo->padding, border = lo->border;
	size_t i, j;

	for (i = 0; i < n; i++) {
		int w = r[i].rotated ? r[i].h : r[i].w, h = r[i].rotated ? r[i].w : r[i].h;

		ck_assert_int_ge(r[i].page, 0);
		ck_assert_int_lt(r[i].page, (int)n_pages);
		ck_assert_int_ge(r[i].x, border);
		ck_assert_int_ge(r[i].y, border);
		ck_assert_int_le(r[i].x + w, pages[r[i].page].width - border);
		ck_assert_int_le(r[i].y + h, pages[r[i].page].height - border);
		if (!lo->allow_rotate)
			ck_assert_int_eq(r[i].rotated, 0);
		for (j = i + 1; j < n; j++) {
			int w2 = r[j].rotated ? r[j].h : r[j].w;
			int h2 = r[j].rotated ? r[j].w : r[j].h;
			int apart = r[i].x + w + pad <= r[j].x || r[j].x + w2 + pad <= r[i].x ||
			            r[i].y + h + pad <= r[j].y || r[j].y + h2 + pad <= r[i].y;

			if (r[i].page == r[j].page && !apart)
				ck_abort_msg("rects %zu and %zu overlap or are closer than %d",
				             i, j, pad);
		}
	}
	for (i = 0; i < n_pages; i++) {
		int mw = lo->max_width ? lo->max_width : 2048;
		int mh = lo->max_height ? lo->max_height : 2048;

		ck_assert_int_le(pages[i].width, mw);
		ck_assert_int_le(pages[i].height, mh);
		if (lo->pot) {
			ck_assert(is_pot(pages[i].width));
			ck_assert(is_pot(pages[i].height));
		}
		if (lo->square)
			ck_assert_int_eq(pages[i].width, pages[i].height);
	}
}

START_TEST(layout_valid_for_every_option_mix)
{
	static const bb_pack_layout mixes[] = {
		{ 0 },
		{ .padding = 2 },
		{ .padding = 3, .border = 5 },
		{ .padding = 1, .pot = 1 },
		{ .square = 1, .border = 1 },
		{ .pot = 1, .square = 1, .padding = 2 },
		{ .allow_rotate = 1, .padding = 2, .border = 2 },
		{ .heuristic = BB_PACK_BEST_SHORT_SIDE, .padding = 1 },
		{ .heuristic = BB_PACK_BEST_LONG_SIDE },
		{ .heuristic = BB_PACK_BEST_AREA, .allow_rotate = 1 },
		{ .heuristic = BB_PACK_BOTTOM_LEFT, .border = 3 },
		{ .heuristic = BB_PACK_CONTACT_POINT, .padding = 2 },
		{ .max_width = 300, .max_height = 1000, .padding = 2 },
	};
	bb_pack_rect r[120];
	bb_pack_page pages[121];
	size_t m, n_pages;
	bb_error err;

	for (m = 0; m < sizeof mixes / sizeof mixes[0]; m++) {
		random_rects(r, 120, (unsigned)m + 7, 60);
		ck_assert_int_eq(bb_pack_rects(r, 120, &mixes[m], pages, 121, &n_pages,
		                               &err), BB_OK);
		ck_assert_int_eq(n_pages, 1);
		check_layout(r, 120, &mixes[m], pages, n_pages);
	}
}
END_TEST

START_TEST(layout_is_reasonably_tight)
{
	bb_pack_rect r[200];
	bb_pack_page page;
	bb_pack_layout lo = { 0 };
	size_t i, n_pages;
	long long area = 0;
	bb_error err;

	random_rects(r, 200, 99, 40);
	for (i = 0; i < 200; i++)
		area += (long long)r[i].w * r[i].h;
	ck_assert_int_eq(bb_pack_rects(r, 200, &lo, &page, 1, &n_pages, &err), BB_OK);
	/* random boxes without padding: MaxRects gets well above 80% */
	ck_assert_msg(area * 100 >= 80LL * page.width * page.height,
	              "occupancy %lld / %d", area, page.width * page.height);
}
END_TEST

START_TEST(layout_rotates_only_when_allowed)
{
	bb_pack_rect r[3] = { { .w = 100, .h = 20 }, { .w = 100, .h = 20 },
	                      { .w = 20, .h = 20 } };
	bb_pack_layout lo = { .max_width = 64, .max_height = 256 };
	bb_pack_page page;
	size_t n_pages;
	bb_error err;

	ck_assert_int_eq(bb_pack_rects(r, 3, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_LIMIT);
	lo.allow_rotate = 1;
	ck_assert_int_eq(bb_pack_rects(r, 3, &lo, &page, 1, &n_pages, &err), BB_OK);
	ck_assert_int_eq(r[0].rotated, 1);
	ck_assert_int_eq(r[1].rotated, 1);
	check_layout(r, 3, &lo, &page, 1);
}
END_TEST

START_TEST(layout_multipack_keeps_groups)
{
	enum { N = 64 };
	bb_pack_rect r[N];
	bb_pack_page pages[N + 1];
	bb_pack_layout lo = { .max_width = 128, .max_height = 128, .padding = 2 };
	size_t i, n_pages;
	bb_error err;

	/* 8 groups of 8 rects of 30x30: a group (4 rows of 2... ) fits on a page,
	 * all of them do not */
	for (i = 0; i < N; i++)
		r[i] = (bb_pack_rect){ .w = 30, .h = 30, .group = (int)(i % 8) };
	ck_assert_int_eq(bb_pack_rects(r, N, &lo, pages, N + 1, &n_pages, &err),
	                 BB_ERR_LIMIT);
	ck_assert(strstr(err.message, "multipack") != NULL);
	lo.multipack = 1;
	ck_assert_int_eq(bb_pack_rects(r, N, &lo, pages, N + 1, &n_pages, &err), BB_OK);
	ck_assert_int_ge(n_pages, 4);
	ck_assert_int_le(n_pages, 8);
	check_layout(r, N, &lo, pages, n_pages);
	for (i = 0; i < N; i++)
		ck_assert_msg(r[i].page == r[i % 8].page,
		              "group %zu split across pages", i % 8);
}
END_TEST

START_TEST(layout_group_larger_than_a_page_spreads)
{
	enum { N = 40 };
	bb_pack_rect r[N];
	bb_pack_page pages[N + 1];
	bb_pack_layout lo = { .max_width = 64, .max_height = 64, .multipack = 1 };
	size_t i, n_pages;
	bb_error err;

	for (i = 0; i < N; i++)
		r[i] = (bb_pack_rect){ .w = 20, .h = 20 + (int)(i % 3), .group = 0 };
	ck_assert_int_eq(bb_pack_rects(r, N, &lo, pages, N + 1, &n_pages, &err), BB_OK);
	ck_assert_int_ge(n_pages, 5);
	check_layout(r, N, &lo, pages, n_pages);
}
END_TEST

START_TEST(layout_limits)
{
	bb_pack_rect r[1] = { { .w = 3000, .h = 10 } };
	bb_pack_layout lo = { 0 };
	bb_pack_page page;
	size_t n_pages;
	bb_error err;

	ck_assert_int_eq(bb_pack_rects(r, 1, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_LIMIT);
	lo.multipack = 1;
	ck_assert_int_eq(bb_pack_rects(r, 1, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_LIMIT);
	lo = (bb_pack_layout){ .padding = -1 };
	ck_assert_int_eq(bb_pack_rects(r, 1, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_USAGE);
	lo = (bb_pack_layout){ .max_width = 10, .border = 5 };
	ck_assert_int_eq(bb_pack_rects(r, 1, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_USAGE);
	r[0].w = 0;
	lo = (bb_pack_layout){ 0 };
	ck_assert_int_eq(bb_pack_rects(r, 1, &lo, &page, 1, &n_pages, &err),
	                 BB_ERR_USAGE);
	ck_assert_int_eq(bb_pack_rects(r, 0, &lo, &page, 1, &n_pages, &err), BB_OK);
	ck_assert_int_eq(n_pages, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Frames -> sheet */

enum { NF = 24 };

typedef struct fixture {
	bb_image *img[NF];
	char names[NF][32];
	bb_pack_input in[NF];
	bb_pack_anim anims[3];
	bb_pack_event ev[2];
} fixture;

/* Two animations of 10 frames and 4 loose frames; frames 3 and 13 have the
 * same pixels as frames 2 and 12 (13's at another offset), frame 20 is
 * empty, frame 21 is a single pixel. */
static void fixture_init(fixture *f)
{
	int i;

	memset(f, 0, sizeof *f);
	f->ev[0] = (bb_pack_event){ 0.25, "step" };
	f->ev[1] = (bb_pack_event){ 0.05, "start" };
	f->anims[0] = (bb_pack_anim){ "walk", 12, 1, f->ev, 2 };
	f->anims[1] = (bb_pack_anim){ "attack", 24, 0, NULL, 0 };
	for (i = 0; i < NF; i++) {
		bb_pack_input *in = &f->in[i];

		if (i < 10)
			snprintf(f->names[i], sizeof f->names[i], "walk_%04d", i);
		else if (i < 20)
			snprintf(f->names[i], sizeof f->names[i], "attack_%04d", i - 10);
		else
			snprintf(f->names[i], sizeof f->names[i], "icon-%c", 'a' + i - 20);
		if (i == 3)
			f->img[i] = bb_image_dup(f->img[2]);
		else if (i == 13)
			f->img[i] = fx_frame(48, 40, 12, 5, 3, 20, 30);
		else if (i == 12)
			f->img[i] = fx_frame(48, 40, 12, 10, 6, 25, 33);
		else if (i == 20)
			f->img[i] = fx_frame(17, 9, 1, 1, 1, 0, 0);
		else if (i == 21)
			f->img[i] = fx_frame(5, 5, 1, 2, 3, 2, 3);
		else
			f->img[i] = fx_random_frame(i < 20 ? 48 : 30, i < 20 ? 40 : 20,
			                            (unsigned)i);
		ck_assert_ptr_nonnull(f->img[i]);
		in->image = f->img[i];
		in->name = f->names[i];
		in->anim = i < 10 ? 0 : i < 20 ? 1 : -1;
		in->index = i < 10 ? i : i - 10;
		in->pivot_x = 24;
		in->pivot_y = 37;
		in->has_pivot = i < 20;
	}
	/* 12 and 13: same sprite after trimming? make 13 a moved copy of 12 */
	bb_image_free(f->img[13]);
	f->img[13] = NULL;
	ck_assert_int_eq(bb_image_new(48, 40, &f->img[13], NULL), BB_OK);
	{
		int y;

		for (y = 6; y <= 33; y++)
			memcpy(bb_image_pixel(f->img[13], 5, y - 3),
			       bb_image_pixel(f->img[12], 10, y), 16 * 4);
	}
	f->in[13].image = f->img[13];
}

static void fixture_free(fixture *f)
{
	int i;

	for (i = 0; i < NF; i++)
		bb_image_free(f->img[i]);
}

static const bb_sheet_frame *find_frame(const bb_sheet *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n_frames; i++)
		if (strcmp(s->frames[i].name, name) == 0)
			return &s->frames[i];
	ck_abort_msg("frame %s missing", name);
	return NULL;
}

/* Every frame, cut from its page and pasted at its offset, gives back the
 * input image exactly. */
static void check_reassembly(const bb_sheet *s, const bb_pack_input *in)
{
	size_t i;

	for (i = 0; i < s->n_frames; i++) {
		const bb_sheet_frame *f = &s->frames[i];
		bb_image *back = fx_reassemble(s->pages[f->page], f->x, f->y, f->w,
		                               f->h, f->rotated ? (int)s->rotation : 0,
		                               f->src_x, f->src_y, f->src_w, f->src_h);

		ck_assert_msg(fx_same(back, in[f->input].image),
		              "frame %s does not reassemble", f->name);
		bb_image_free(back);
	}
}

START_TEST(frames_reassemble_pixel_for_pixel)
{
	static const bb_pack_options opts[] = {
		{ .extrude = 0 },
		{ .layout = { .padding = 2, .border = 1 } },
		{ .layout = { .padding = 1 }, .extrude = 2 },
		{ .rotation = BB_PACK_ROTATE_CW, .layout = { .max_width = 64 } },
		{ .rotation = BB_PACK_ROTATE_CCW, .layout = { .max_width = 64 },
		  .extrude = 1 },
		{ .no_trim = 1, .layout = { .pot = 1 } },
		{ .no_dedupe = 1, .layout = { .square = 1 } },
		{ .layout = { .max_width = 48, .max_height = 48, .multipack = 1,
		              .padding = 2 } },
	};
	fixture f;
	size_t k;
	bb_error err;

	fixture_init(&f);
	for (k = 0; k < sizeof opts / sizeof opts[0]; k++) {
		bb_sheet *s = NULL;
		size_t i, rotated = 0;

		ck_assert_msg(bb_pack_frames(f.in, NF, f.anims, 2, &opts[k], &s, &err)
		              == BB_OK, "options %zu: %s", k, err.message);
		check_reassembly(s, f.in);
		for (i = 0; i < s->n_frames; i++)
			rotated += s->frames[i].rotated;
		if (opts[k].rotation != BB_PACK_ROTATE_NONE)
			ck_assert_msg(rotated > 0, "options %zu: nothing rotated", k);
		if (opts[k].layout.multipack)
			ck_assert_int_gt(s->n_pages, 1);
		bb_sheet_free(s);
	}
	fixture_free(&f);
}
END_TEST

START_TEST(frames_trim_offsets_and_order)
{
	fixture f;
	bb_sheet *s = NULL;
	const bb_sheet_frame *fr;
	bb_error err;

	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err), BB_OK);
	ck_assert_int_eq(s->n_frames, NF);
	ck_assert_int_eq(s->n_anims, 2);
	/* animations by name, frames by index, loose frames last */
	ck_assert_str_eq(s->anims[0].name, "attack");
	ck_assert_str_eq(s->frames[0].name, "attack_0000");
	ck_assert_str_eq(s->frames[9].name, "attack_0009");
	ck_assert_str_eq(s->frames[10].name, "walk_0000");
	ck_assert_str_eq(s->frames[20].name, "icon-a");
	ck_assert_int_eq(s->anims[1].first, 10);
	ck_assert_int_eq(s->anims[1].count, 10);
	ck_assert_int_eq(s->anims[1].n_events, 2);
	ck_assert_str_eq(s->anims[1].events[0].name, "start");
	ck_assert_double_eq_tol(s->frames[10].duration, 1 / 12.0, 1e-12);
	fr = find_frame(s, "attack_0002");
	ck_assert_int_eq(fr->src_x, 10);
	ck_assert_int_eq(fr->src_y, 6);
	ck_assert_int_eq(fr->w, 16);
	ck_assert_int_eq(fr->h, 28);
	ck_assert_int_eq(fr->src_w, 48);
	ck_assert_int_eq(fr->src_h, 40);
	ck_assert_int_eq(fr->trimmed, 1);
	ck_assert_double_eq(fr->pivot_x, 24);
	fr = find_frame(s, "icon-b");               /* loose: centre pivot */
	ck_assert_double_eq(fr->pivot_x, 2.5);
	ck_assert_int_eq(fr->w, 1);
	ck_assert_int_eq(fr->src_x, 2);
	ck_assert_int_eq(fr->src_y, 3);
	fr = find_frame(s, "icon-a");               /* empty */
	ck_assert_int_eq(fr->empty, 1);
	ck_assert_int_eq(fr->w, 1);
	ck_assert_int_eq(fr->h, 1);
	ck_assert_uint_gt(s->sprite_area, 0);
	ck_assert_uint_le(s->sprite_area, s->page_area);
	ck_assert(bb_sheet_occupancy(s) > 0.3);
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

START_TEST(frames_dedupe)
{
	fixture f;
	bb_sheet *s = NULL;
	const bb_sheet_frame *a, *b;
	bb_pack_options o = { .no_dedupe = 1 };
	size_t unique;
	bb_error err;

	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err), BB_OK);
	a = find_frame(s, "walk_0002");
	b = find_frame(s, "walk_0003");
	ck_assert_uint_eq(a->sprite, b->sprite);
	ck_assert_int_eq(a->x, b->x);
	ck_assert_int_eq(a->y, b->y);
	a = find_frame(s, "attack_0002");
	b = find_frame(s, "attack_0003");          /* same pixels, moved */
	ck_assert_uint_eq(a->sprite, b->sprite);
	ck_assert_int_eq(a->x, b->x);
	ck_assert_int_ne(a->src_x, b->src_x);
	unique = s->n_sprites;
	ck_assert_uint_eq(unique, NF - 2);
	bb_sheet_free(s);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err), BB_OK);
	ck_assert_uint_eq(s->n_sprites, NF);
	check_reassembly(s, f.in);
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

START_TEST(frames_extrude_repeats_edges)
{
	fixture f;
	bb_sheet *s = NULL;
	bb_pack_options o = { .extrude = 2, .layout = { .padding = 1 } };
	const bb_sheet_frame *fr;
	const bb_image *pg;
	int k;
	bb_error err;

	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err), BB_OK);
	fr = find_frame(s, "walk_0005");
	pg = s->pages[fr->page];
	ck_assert_int_ge(fr->x, 2);
	ck_assert_int_ge(fr->y, 2);
	for (k = 1; k <= 2; k++) {
		/* left column copies, top row copies, the corner */
		ck_assert_mem_eq(bb_image_pixel(pg, fr->x - k, fr->y + 3),
		                 bb_image_pixel(pg, fr->x, fr->y + 3), 4);
		ck_assert_mem_eq(bb_image_pixel(pg, fr->x + 4, fr->y - k),
		                 bb_image_pixel(pg, fr->x + 4, fr->y), 4);
		ck_assert_mem_eq(bb_image_pixel(pg, fr->x + fr->w - 1 + k, fr->y + fr->h - 1 + k),
		                 bb_image_pixel(pg, fr->x + fr->w - 1, fr->y + fr->h - 1), 4);
	}
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

START_TEST(frames_same_whatever_the_input_order)
{
	fixture f;
	bb_pack_input shuffled[NF];
	bb_pack_anim anims_rev[2];
	bb_sheet *a = NULL, *b = NULL;
	bb_pack_options o = { .rotation = BB_PACK_ROTATE_CW, .layout = { .padding = 2 } };
	unsigned st = 5;
	size_t i, p;
	bb_error err;

	fixture_init(&f);
	memcpy(shuffled, f.in, sizeof shuffled);
	for (i = NF - 1; i > 0; i--) {
		size_t j = fx_rand(&st) % (i + 1);
		bb_pack_input t = shuffled[i];

		shuffled[i] = shuffled[j];
		shuffled[j] = t;
	}
	/* the same animations listed the other way round */
	anims_rev[0] = f.anims[1];
	anims_rev[1] = f.anims[0];
	for (i = 0; i < NF; i++)
		if (shuffled[i].anim >= 0)
			shuffled[i].anim = 1 - shuffled[i].anim;
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &a, &err), BB_OK);
	ck_assert_int_eq(bb_pack_frames(shuffled, NF, anims_rev, 2, &o, &b, &err), BB_OK);
	ck_assert_uint_eq(a->n_pages, b->n_pages);
	for (p = 0; p < a->n_pages; p++)
		ck_assert(fx_same(a->pages[p], b->pages[p]));
	for (i = 0; i < NF; i++) {
		ck_assert_str_eq(a->frames[i].name, b->frames[i].name);
		ck_assert_int_eq(a->frames[i].x, b->frames[i].x);
		ck_assert_int_eq(a->frames[i].y, b->frames[i].y);
		ck_assert_int_eq(a->frames[i].rotated, b->frames[i].rotated);
		ck_assert_str_eq(a->anims[a->frames[i].anim >= 0 ? a->frames[i].anim : 0].name,
		                 b->anims[b->frames[i].anim >= 0 ? b->frames[i].anim : 0].name);
	}
	bb_sheet_free(a);
	bb_sheet_free(b);
	fixture_free(&f);
}
END_TEST

/* Threads for trimming, drawing pages and encoding them change nothing:
 * the sheet and every file are the same with 1, 2 and 7 threads. */
START_TEST(frames_same_whatever_the_threads)
{
	static const int threads[] = { 0, 2, 7 };
	fixture f;
	bb_sheet_files *files[3];
	bb_error err;
	size_t k, i;

	fixture_init(&f);
	for (k = 0; k < 3; k++) {
		bb_pack_options o = { .rotation = BB_PACK_ROTATE_CW, .bleed = 1,
		                      .extrude = 1, .threads = threads[k],
		                      .layout = { .max_width = 48, .max_height = 48,
		                                  .multipack = 1, .padding = 1 } };
		bb_sheet_write_options w = { .formats = 1u << BB_SHEET_JSON_HASH |
		                                        1u << BB_SHEET_COCOS2D,
		                             .threads = threads[k] };
		bb_sheet *s = NULL;

		ck_assert_msg(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err) ==
		              BB_OK, "%s", err.message);
		ck_assert_uint_gt(s->n_pages, 1);
		ck_assert_int_eq(bb_sheet_encode(s, &w, &files[k], &err), BB_OK);
		bb_sheet_free(s);
	}
	for (k = 1; k < 3; k++) {
		ck_assert_uint_eq(files[k]->n, files[0]->n);
		for (i = 0; i < files[0]->n; i++) {
			ck_assert_str_eq(files[k]->files[i].name, files[0]->files[i].name);
			ck_assert_uint_eq(files[k]->files[i].size, files[0]->files[i].size);
			ck_assert_int_eq(memcmp(files[k]->files[i].data,
			                        files[0]->files[i].data,
			                        files[0]->files[i].size), 0);
		}
	}
	for (k = 0; k < 3; k++)
		bb_sheet_files_free(files[k]);
	fixture_free(&f);
}
END_TEST

/* Pages are PNGs at BB_PNG_LEVEL_SHEETS unless asked otherwise; another
 * level gives other bytes, the same pixels; a bad level is refused. */
START_TEST(encode_png_level)
{
	fixture f;
	bb_sheet *s = NULL;
	bb_sheet_files *a = NULL, *b = NULL, *c = NULL;
	bb_sheet_write_options w = { 0 };
	bb_image *pa, *pb;
	bb_error err;
	void *ref;
	size_t nref;

	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err), BB_OK);
	ck_assert_int_eq(bb_sheet_encode(s, &w, &a, &err), BB_OK);
	ck_assert_int_eq(bb_png_encode_opts(s->pages[0], &(bb_png_options){
	                         BB_PNG_LEVEL_SHEETS, 1, BB_PNG_FILTER_DEFAULT },
	                                    &ref, &nref, &err), BB_OK);
	ck_assert_uint_eq(a->files[0].size, nref);
	ck_assert_int_eq(memcmp(a->files[0].data, ref, nref), 0);
	w.png = (bb_png_options){ 0, 1, BB_PNG_FILTER_DEFAULT };
	ck_assert_int_eq(bb_sheet_encode(s, &w, &b, &err), BB_OK);
	ck_assert_uint_gt(b->files[0].size, a->files[0].size);
	ck_assert_int_eq(bb_png_read_mem(a->files[0].data, a->files[0].size, "a",
	                                 &pa, &err), BB_OK);
	ck_assert_int_eq(bb_png_read_mem(b->files[0].data, b->files[0].size, "b",
	                                 &pb, &err), BB_OK);
	ck_assert(fx_same(pa, pb));
	w.png.level = BB_PNG_LEVEL_MAX + 1;
	ck_assert_int_eq(bb_sheet_encode(s, &w, &c, &err), BB_ERR_USAGE);
	ck_assert_ptr_null(c);
	bb_image_free(pa);
	bb_image_free(pb);
	free(ref);
	bb_sheet_files_free(a);
	bb_sheet_files_free(b);
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

START_TEST(frames_bleed_and_premultiply)
{
	bb_image *img = fx_frame(20, 20, 3, 4, 4, 15, 15);
	bb_pack_input in = { .image = img, .name = "one", .anim = -1 };
	bb_pack_options o = { .bleed = 1, .no_trim = 1 };
	bb_sheet *s = NULL;
	const uint8_t *p, *q;
	bb_error err;

	ck_assert_int_eq(bb_pack_frames(&in, 1, NULL, 0, &o, &s, &err), BB_OK);
	/* the transparent corner next to the blob took a colour, kept alpha 0 */
	p = bb_image_pixel(s->pages[0], 3, 4);
	q = bb_image_pixel(img, 4, 4 + 1);
	ck_assert_int_eq(p[3], 0);
	ck_assert(p[0] || p[1] || p[2]);
	(void)q;
	p = bb_image_pixel(s->pages[0], 0, 0);
	ck_assert_int_eq(p[3], 0);
	ck_assert(p[0] || p[1] || p[2]);
	bb_sheet_free(s);
	o = (bb_pack_options){ .premultiply = 1 };
	ck_assert_int_eq(bb_pack_frames(&in, 1, NULL, 0, &o, &s, &err), BB_OK);
	ck_assert_int_eq(s->premultiplied, 1);
	ck_assert_int_eq(s->pages[0]->premultiplied, 1);
	p = bb_image_pixel(s->pages[0], s->frames[0].x + 2, s->frames[0].y + 2);
	q = bb_image_pixel(img, s->frames[0].src_x + 2, s->frames[0].src_y + 2);
	ck_assert_int_eq(p[3], q[3]);
	ck_assert_int_eq(p[0], (q[0] * q[3] + 127) / 255);
	bb_sheet_free(s);
	bb_image_free(img);
}
END_TEST

START_TEST(frames_bad_input)
{
	fixture f;
	bb_sheet *s = NULL;
	bb_pack_options o = { .extrude = -1 };
	bb_error err;

	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err),
	                 BB_ERR_USAGE);
	ck_assert_ptr_null(s);
	o = (bb_pack_options){ .max_frames = 5 };
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err),
	                 BB_ERR_LIMIT);
	f.in[5].name = "walk_0000";
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err),
	                 BB_ERR_USAGE);
	ck_assert(strstr(err.message, "walk_0000") != NULL);
	f.in[5].name = f.names[5];
	f.in[5].anim = 2;
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err),
	                 BB_ERR_USAGE);
	f.in[5].anim = 0;
	f.in[5].image = NULL;
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, NULL, &s, &err),
	                 BB_ERR_USAGE);
	f.in[5].image = f.img[5];
	ck_assert_int_eq(bb_pack_frames(f.in, 0, NULL, 0, NULL, &s, &err), BB_OK);
	ck_assert_int_eq(s->n_pages, 0);
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Files */

START_TEST(encode_checks_formats)
{
	fixture f;
	bb_sheet *s = NULL;
	bb_sheet_files *files = NULL;
	bb_pack_options o = { .rotation = BB_PACK_ROTATE_CW, .layout = { .max_width = 64 } };
	bb_sheet_write_options w = { 0 };
	bb_sheet_format fm;
	bb_error err;

	ck_assert(bb_sheet_format_parse("spine", &fm) && fm == BB_SHEET_LIBGDX);
	ck_assert(bb_sheet_format_parse("json", &fm) && fm == BB_SHEET_JSON_HASH);
	ck_assert(!bb_sheet_format_parse("xml", &fm));
	fixture_init(&f);
	ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &o, &s, &err), BB_OK);
	w.formats = 1u << BB_SHEET_LIBGDX;
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	w.formats = 1u << BB_SHEET_GODOT;
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	w.formats = 1u << BB_SHEET_JSON_HASH | 1u << BB_SHEET_JSON_ARRAY;
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	w = (bb_sheet_write_options){ .name = "a/b" };
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	/* Phaser 3 cannot show rotated sprites (no release reads "rotated") */
	w = (bb_sheet_write_options){ .name = "hero", .formats = 1u << BB_SHEET_PHASER3 };
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_ERR_USAGE);
	w = (bb_sheet_write_options){ .name = "hero", .formats =
	      1u << BB_SHEET_JSON_HASH | 1u << BB_SHEET_COCOS2D };
	ck_assert_int_eq(bb_sheet_encode(s, &w, &files, &err), BB_OK);
	ck_assert_uint_eq(files->n, 3);
	ck_assert_str_eq(files->files[0].name, "hero.png");
	ck_assert_ptr_nonnull(bb_sheet_files_find(files, "hero.json"));
	ck_assert_ptr_nonnull(bb_sheet_files_find(files, "hero.plist"));
	bb_sheet_files_free(files);
	bb_sheet_free(s);
	fixture_free(&f);
}
END_TEST

START_TEST(files_write_all_or_nothing)
{
	char dir[] = "/tmp/check-pack-XXXXXX", path[256];
	bb_sheet_file fl[2] = { { "a.txt", "hello", 5 }, { "b.txt", "world", 5 } };
	bb_sheet_files files = { 2, fl };
	struct stat st;
	bb_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(bb_sheet_files_write(&files, dir, &err), BB_OK);
	snprintf(path, sizeof path, "%s/b.txt", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 5);
	unlink(path);
	snprintf(path, sizeof path, "%s/a.txt", dir);
	unlink(path);
	/* b.txt cannot be created (a folder is in the way): a.txt must not stay */
	snprintf(path, sizeof path, "%s/b.txt", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(bb_sheet_files_write(&files, dir, &err), BB_ERR_IO);
	snprintf(path, sizeof path, "%s/a.txt", dir);
	ck_assert_int_ne(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/b.txt", dir);
	rmdir(path);
	ck_assert_int_eq(rmdir(dir), 0);   /* no temporary files left either */
	ck_assert_int_eq(bb_sheet_files_write(&files, "/nonexistent/dir", &err),
	                 BB_ERR_IO);
}
END_TEST

/* Frames trimmed before packing (crop_x/crop_y/full_w/full_h) and pages
 * drawn only when encoded (lazy_pages) give the same files, byte for
 * byte, as whole frames packed and drawn at once. */
START_TEST(cropped_lazy_same_files)
{
	static const bb_pack_options base[] = {
		{ .layout = { .padding = 2 } },
		{ .layout = { .max_width = 96, .max_height = 96, .multipack = 1 },
		  .rotation = BB_PACK_ROTATE_CW, .extrude = 1 },
		{ .layout = { .padding = 1 }, .bleed = 1, .trim_alpha = 60 },
		{ .layout = { .padding = 1 }, .premultiply = 1, .no_dedupe = 1 },
	};
	bb_sheet_write_options w = { .name = "s", .formats = 1u << BB_SHEET_JSON_HASH |
	                             1u << BB_SHEET_LIBGDX | 1u << BB_SHEET_GODOT };
	size_t k, i;

	for (k = 0; k < sizeof base / sizeof base[0]; k++) {
		fixture f;
		bb_image *crop[NF];
		bb_pack_input in[NF];
		bb_pack_options lazy = base[k];
		bb_sheet *a = NULL, *b = NULL;
		bb_sheet_files *fa = NULL, *fb = NULL;
		bb_error err;

		fixture_init(&f);
		for (i = 0; i < NF; i++) {
			int x, y, cw, ch;

			in[i] = f.in[i];
			bb_pack_trim(f.img[i], base[k].trim_alpha, &x, &y, &cw, &ch);
			if (cw == 0)
				x = y = 0, cw = ch = 1;
			crop[i] = bb_image_crop(f.img[i], x, y, cw, ch);
			ck_assert_ptr_nonnull(crop[i]);
			in[i].image = crop[i];
			in[i].crop_x = x;
			in[i].crop_y = y;
			in[i].full_w = f.img[i]->width;
			in[i].full_h = f.img[i]->height;
		}
		lazy.lazy_pages = 1;
		ck_assert_int_eq(bb_pack_frames(f.in, NF, f.anims, 2, &base[k], &a, &err), BB_OK);
		ck_assert_int_eq(bb_pack_frames(in, NF, f.anims, 2, &lazy, &b, &err), BB_OK);
		ck_assert_ptr_null(b->pages[0]);
		ck_assert_uint_eq(a->n_pages, b->n_pages);
		if (base[k].rotation != BB_PACK_ROTATE_NONE)
			w.formats = 1u << BB_SHEET_JSON_HASH;
		ck_assert_int_eq(bb_sheet_encode(a, &w, &fa, &err), BB_OK);
		ck_assert_int_eq(bb_sheet_encode(b, &w, &fb, &err), BB_OK);
		ck_assert_uint_eq(fa->n, fb->n);
		for (i = 0; i < fa->n; i++) {
			ck_assert_str_eq(fa->files[i].name, fb->files[i].name);
			ck_assert_msg(fa->files[i].size == fb->files[i].size &&
			              memcmp(fa->files[i].data, fb->files[i].data,
			                     fa->files[i].size) == 0,
			              "options %zu: %s differs", k, fa->files[i].name);
		}
		bb_sheet_files_free(fa);
		bb_sheet_files_free(fb);
		bb_sheet_free(a);
		bb_sheet_free(b);
		for (i = 0; i < NF; i++)
			bb_image_free(crop[i]);
		fixture_free(&f);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pack");
	TCase *tc = tcase_create("pack");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, layout_valid_for_every_option_mix);
	tcase_add_test(tc, layout_is_reasonably_tight);
	tcase_add_test(tc, layout_rotates_only_when_allowed);
	tcase_add_test(tc, layout_multipack_keeps_groups);
	tcase_add_test(tc, layout_group_larger_than_a_page_spreads);
	tcase_add_test(tc, layout_limits);
	tcase_add_test(tc, frames_reassemble_pixel_for_pixel);
	tcase_add_test(tc, frames_trim_offsets_and_order);
	tcase_add_test(tc, frames_dedupe);
	tcase_add_test(tc, frames_extrude_repeats_edges);
	tcase_add_test(tc, frames_same_whatever_the_input_order);
	tcase_add_test(tc, frames_same_whatever_the_threads);
	tcase_add_test(tc, encode_png_level);
	tcase_add_test(tc, frames_bleed_and_premultiply);
	tcase_add_test(tc, frames_bad_input);
	tcase_add_test(tc, encode_checks_formats);
	tcase_add_test(tc, files_write_all_or_nothing);
	tcase_add_test(tc, cropped_lazy_same_files);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
