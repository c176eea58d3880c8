/* Test images and checks shared by check-pack and check-pack-meta. */
#ifndef BB_TEST_PACK_FIXTURES_H
#define BB_TEST_PACK_FIXTURES_H

#include "bonebake/bonebake.h"

/* A w x h transparent frame with a blob inside (x0, y0)-(x1, y1)
 * (inclusive): every pixel's colour depends on its place and `seed`, so a
 * wrongly turned or shifted copy never matches; alpha varies from 40 to
 * 255 and the corners of the box stay transparent. */
bb_image *fx_frame(int w, int h, unsigned seed, int x0, int y0, int x1, int y1);

/* A frame whose blob's box comes from `seed` too. */
bb_image *fx_random_frame(int w, int h, unsigned seed);

/* Rebuilds a whole src_w x src_h frame from a page: the w x h sprite
 * stored at (x, y) -- covering h x w when turned (1 clockwise, 2
 * counter-clockwise) -- pasted at (src_x, src_y). */
bb_image *fx_reassemble(const bb_image *page, int x, int y, int w, int h,
                        int turned, int src_x, int src_y, int src_w,
                        int src_h);

/* 1 when both images have the same size and bytes. */
int fx_same(const bb_image *a, const bb_image *b);

/* A deterministic pseudo-random generator. */
unsigned fx_rand(unsigned *state);

#endif
