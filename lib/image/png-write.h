/* lib/image internals of the PNG encoder, for tests.  Not installed. */
#ifndef BB_PNG_WRITE_H
#define BB_PNG_WRITE_H

#include <stddef.h>

#include "bonebake/image.h"

/* Splits the zlib stream into IDAT chunks of at most `max` bytes (0: the
 * PNG limit, 2^31 - 1), so tests reach the split path with small images. */
void bb__png_encoder_set_idat_max(bb_png_encoder *e, size_t max);

#endif
