/* Shared between the files of lib/diff.  Not installed. */
#ifndef BB_DIFF_INTERNAL_H
#define BB_DIFF_INTERNAL_H

#include "bonebake/diff.h"
#include "bonebake/parallel.h"

/* Number of pixels of a w x h image inside opts' ignore regions (their
 * union, clipped to the image). */
long long bb__diff_ignored_pixels(const bb_diff_options *opts, int w, int h);

#endif
