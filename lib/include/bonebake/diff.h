/* bonebake — image comparison (the `diff` command and the reference-image
 * tests share this one function). */
#ifndef BONEBAKE_DIFF_H
#define BONEBAKE_DIFF_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_diff_aa {
	BB_DIFF_AA_IGNORE = 0,  /* anti-aliased pixels are not counted (default) */
	BB_DIFF_AA_COUNT        /* anti-aliased pixels count as differences */
} bb_diff_aa;

typedef struct bb_diff_rect {
	int x, y, w, h;
} bb_diff_rect;

enum { BB_DIFF_MAX_IGNORE = 64 };

/* Zero-initialised means: threshold 0.1, AA ignored, alpha-aware compare. */
typedef struct bb_diff_options {
	double threshold;       /* YIQ distance threshold 0..1; used when threshold_set */
	int threshold_set;      /* 0: default 0.1 */
	bb_diff_aa aa;
	int compat_pixelmatch;  /* 1: count exactly as pixelmatch 7 does */
	int n_ignore;
	bb_diff_rect ignore[BB_DIFF_MAX_IGNORE];
	int diff_mask;          /* diff image: differences only, on transparent */
} bb_diff_options;

typedef struct bb_diff_result {
	long long diff_pixels;  /* differing pixels (AA excluded unless counted) */
	long long aa_pixels;    /* pixels classified as anti-aliasing */
	long long total_pixels;
	double diff_ratio;      /* diff_pixels / total_pixels */
	double max_delta;       /* largest normalised YIQ delta seen, 0..1 */
	bb_diff_rect box;       /* bounding box of differing pixels (w = h = 0 if none) */
} bb_diff_result;

/* Compares a and b.  When diff_out is non-NULL it receives a new image
 * (free with bb_image_free) showing unchanged pixels faded, differences in
 * red and anti-aliasing in yellow.  Fails with BB_ERR_MISMATCH when the sizes
 * differ, BB_ERR_NOMEM.  Pure; thread-safe. */
bb_status bb_diff_images(const bb_image *a, const bb_image *b,
                         const bb_diff_options *opts, bb_diff_result *res,
                         bb_image **diff_out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
