/* bonebake — image comparison (the `diff` command and the reference-image
 * tests share this one function).
 *
 * The per-pixel test is the YIQ colour distance of Kotsarenko and Ramos with
 * a threshold on pixelmatch's scale (a pixel differs when its squared
 * distance exceeds 35215 * threshold^2), plus pixelmatch's anti-aliasing
 * detector (Vysniauskas 2009: a pixel whose 3x3 neighbourhood holds both a
 * darker and a brighter pixel that each sit in a flat area is an edge).
 *
 * Unlike pixelmatch, transparency is not hidden: colours are premultiplied
 * and composited over black and over white, and the larger of the two
 * distances counts.  The distance is a convex quadratic in the backdrop
 * grey level, so that maximum is the maximum over every grey backdrop: an
 * alpha-only change shows on one of them, and transparent versus white
 * differs over black.  Fully transparent pixels are all equal whatever
 * their colour bytes.  compat_pixelmatch switches to pixelmatch 7's exact
 * arithmetic instead. */
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

/* pixelmatch's default threshold. */
#define BB_DIFF_DEFAULT_THRESHOLD 0.1

/* Zero-initialised means: threshold 0.1, AA ignored, alpha-aware compare. */
typedef struct bb_diff_options {
	double threshold;       /* YIQ distance threshold 0..1; used when threshold_set */
	int threshold_set;      /* 0: default 0.1 */
	bb_diff_aa aa;
	int compat_pixelmatch;  /* 1: count exactly as pixelmatch 7 does */
	int n_ignore;
	bb_diff_rect ignore[BB_DIFF_MAX_IGNORE];  /* pixels neither compared nor counted */
	int diff_mask;          /* diff image: differences only, on transparent */
	int compat_white_bg;    /* with compat_pixelmatch: blend translucent
	                           pixels on white (pixelmatch's
	                           checkerboard: false) */
	int threads;            /* threads one comparison may use (bands of
	                           rows; both files decoded at once); 0 or 1:
	                           the calling thread only.  Results do not
	                           depend on it. */
} bb_diff_options;

typedef struct bb_diff_result {
	long long diff_pixels;  /* differing pixels (AA excluded unless counted) */
	long long aa_pixels;    /* pixels classified as anti-aliasing */
	long long total_pixels; /* compared pixels: width * height minus ignored */
	long long changed_pixels; /* pixels whose RGBA bytes differ at all */
	double diff_ratio;      /* diff_pixels / total_pixels */
	double max_delta;       /* largest normalised YIQ delta seen, 0..1; on
	                           the threshold's scale (sqrt(delta / 35215)) */
	bb_diff_rect box;       /* bounding box of differing pixels (w = h = 0 if none) */
	int a_width, a_height;  /* sizes of both inputs, also set on a mismatch */
	int b_width, b_height;
	int same_bytes;         /* bb_diff_files: the files were byte-identical */
} bb_diff_result;

/* The threshold opts applies (0.1 when unset).  opts may be NULL. */
double bb_diff_threshold(const bb_diff_options *opts);

/* Checks opts: threshold in 0..1, n_ignore in 0..BB_DIFF_MAX_IGNORE, no
 * negative rectangle sides.  Fails with BB_ERR_USAGE.  opts may be NULL. */
bb_status bb_diff_options_check(const bb_diff_options *opts, bb_error *err);

/* Compares a and b (opts NULL means defaults).  *res is always reset; on a
 * size mismatch only the four sizes are set.  When diff_out is non-NULL it
 * receives a new image (free with bb_image_free) showing unchanged pixels
 * faded, differences in red and anti-aliasing in yellow (with
 * opts->diff_mask: differences only, on transparent).  Fails with
 * BB_ERR_MISMATCH when the sizes differ, BB_ERR_USAGE for bad options,
 * BB_ERR_NOMEM.  Borrows a and b.  Pure; thread-safe. */
bb_status bb_diff_images(const bb_image *a, const bb_image *b,
                         const bb_diff_options *opts, bb_diff_result *res,
                         bb_image **diff_out, bb_error *err);

/* Compares two PNG files.  Byte-identical files are recognised before
 * decoding: res->same_bytes is set, and only the PNG signature and header
 * are checked.  Sizes are read from the headers, so a mismatch is found
 * without decoding either.  Otherwise both files are decoded and compared
 * with bb_diff_images.  When diff_out is non-NULL it receives a diff image
 * (as bb_diff_images draws it) only if some pixel differs or is
 * anti-aliasing; otherwise it is set to NULL.  Fails with BB_ERR_IO
 * (cannot read), BB_ERR_INPUT or BB_ERR_LIMIT (not a valid PNG), with
 * err->file naming the file at fault; BB_ERR_MISMATCH (sizes in res),
 * BB_ERR_USAGE, BB_ERR_NOMEM.  Thread-safe. */
bb_status bb_diff_files(const char *path_a, const char *path_b,
                        const bb_diff_options *opts, bb_diff_result *res,
                        bb_image **diff_out, bb_error *err);

/* How many differing pixels a comparison may have and still pass. */
typedef struct bb_diff_budget {
	long long max_pixels;   /* used when max_pixels_set */
	int max_pixels_set;
	double max_ratio;       /* 0..1, used when max_ratio_set */
	int max_ratio_set;
} bb_diff_budget;

/* Returns 1 when res is within budget: at most max_pixels differing pixels
 * and a diff ratio of at most max_ratio.  A limit that is not set does not
 * apply; with neither set (or b NULL) the budget is zero differing pixels. */
int bb_diff_within_budget(const bb_diff_budget *b, const bb_diff_result *res);

/* Reads a PNG header (signature and IHDR) from the first `size` bytes of a
 * file: returns 1 and the size when they are valid, 0 otherwise. */
int bb_diff_png_size(const void *data, size_t size, int *width, int *height);

#ifdef __cplusplus
}
#endif
#endif
