/* How far a render is from a supersampled reference: shared by the
 * filter test (check-raster) and bench-raster (raster-error.c). */
#ifndef BB_TESTS_RASTER_ERROR_H
#define BB_TESTS_RASTER_ERROR_H

#include "bonebake/bonebake.h"

/* ref (q times larger) box-averaged, premultiplied, into out. */
void raster_downsample(const bb_image *ref, int q, bb_image *out);
/* Mean absolute premultiplied error (0..255) over the pixels either image
 * covers; their count into *covered (may be NULL). */
double raster_mean_error(const bb_image *a, const bb_image *b, long *covered);

#endif
