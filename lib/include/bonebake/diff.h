/* bonebake — image comparison (the `diff` command and the reference-image
 * tests share this one function).
 *
 * The per-pixel test is a colour distance against a threshold on a 0..1
 * scale (1 = black against white), plus pixelmatch's anti-aliasing
 * detector (Vysniauskas 2009: a pixel whose 3x3 neighbourhood holds both a
 * darker and a brighter pixel that each sit in a flat area is an edge).
 * bonebake's own metric is the OKLab HyAB distance (|dL| + |dab|, with the
 * toe-corrected lightness, as pixelmatch 8 measures); BB_DIFF_METRIC_YIQ
 * keeps the YIQ distance of Kotsarenko and Ramos on pixelmatch 7's scale.
 *
 * Unlike pixelmatch, transparency is not hidden: colours are premultiplied
 * and composited over black and over white, and the larger of the two
 * distances counts, so an alpha-only change shows on one of them and
 * transparent versus white differs over black.  Fully transparent pixels
 * are all equal whatever their colour bytes.  compat switches to
 * pixelmatch's own arithmetic instead (8, the current release, or 7).
 *
 * A window size S adds a second measure: the largest number of differing
 * pixels in any S x S square of the image, so a budget can let scattered
 * noise pass and fail a moved part. */
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

/* Whose arithmetic the comparison follows. */
typedef enum bb_diff_compat {
	BB_DIFF_COMPAT_NONE = 0,    /* bonebake's alpha-aware compare */
	BB_DIFF_COMPAT_PIXELMATCH,  /* pixelmatch 8 (the current release):
	                               OKLab HyAB, its AA detector, its
	                               checkerboard backdrop */
	BB_DIFF_COMPAT_PIXELMATCH7  /* pixelmatch 7: YIQ */
} bb_diff_compat;

/* The colour distance of bonebake's own compare (compat NONE). */
typedef enum bb_diff_metric {
	BB_DIFF_METRIC_DEFAULT = 0, /* OKLab HyAB */
	BB_DIFF_METRIC_OKLAB,
	BB_DIFF_METRIC_YIQ
} bb_diff_metric;

/* Zero-initialised means: threshold 0.1, AA ignored, alpha-aware compare
 * with the OKLab HyAB distance, no window measure. */
typedef struct bb_diff_options {
	double threshold;       /* distance threshold 0..1; used when threshold_set */
	int threshold_set;      /* 0: default 0.1 */
	bb_diff_aa aa;
	bb_diff_compat compat;
	bb_diff_metric metric;  /* with compat NONE */
	int n_ignore;
	bb_diff_rect ignore[BB_DIFF_MAX_IGNORE];  /* pixels neither compared nor counted */
	int diff_mask;          /* diff image: differences only, on transparent */
	int compat_white_bg;    /* with compat: blend translucent pixels on
	                           white (pixelmatch's checkerboard: false) */
	int window;             /* > 0: also measure the most differing pixels
	                           in any window x window square (the side is
	                           clamped to the image's smaller side, as
	                           pixelmatch 8's windowSize) */
	size_t max_pixels;      /* bb_diff_files: larger images are refused
	                           from their header (0: BB_IMAGE_MAX_PIXELS) */
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
	double max_delta;       /* largest distance seen, on the threshold's
	                           scale, clamped at 1 */
	long long window_pixels; /* with opts->window: the most differing
	                           pixels in one window (0 otherwise) */
	int window;             /* the window side applied (0: none) */
	bb_diff_rect box;       /* bounding box of differing pixels (w = h = 0 if none) */
	int a_width, a_height;  /* sizes of both inputs, also set on a mismatch */
	int b_width, b_height;
	int same_bytes;         /* bb_diff_files: the files were byte-identical */
} bb_diff_result;

/* The threshold opts applies (0.1 when unset).  opts may be NULL. */
double bb_diff_threshold(const bb_diff_options *opts);

/* Checks opts: threshold in 0..1, known compat, metric and AA modes,
 * n_ignore in 0..BB_DIFF_MAX_IGNORE, no negative rectangle sides or window.
 * Fails with BB_ERR_USAGE.  opts may be NULL. */
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
	long long max_window_pixels; /* used when max_window_set: at most this
	                           many differing pixels in any window (needs
	                           the comparison's opts->window) */
	int max_window_set;
} bb_diff_budget;

/* Returns 1 when res is within budget: at most max_pixels differing pixels,
 * a diff ratio of at most max_ratio, and at most max_window_pixels in any
 * window (res->window_pixels).  A limit that is not set does not apply;
 * with none set (or b NULL) the budget is zero differing pixels. */
int bb_diff_within_budget(const bb_diff_budget *b, const bb_diff_result *res);

#ifdef __cplusplus
}
#endif
#endif
