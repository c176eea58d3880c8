/* bonebake — contact sheets: every frame of an animation in a grid on one
 * image, each cell labelled with its frame index and time, a title line,
 * a checkerboard behind transparency.  Text is drawn with cairo's toy text
 * API in DejaVu Sans (fontconfig's match for it), antialiased in grey
 * without hinting: the same fonts give the same pixels. */
#ifndef BONEBAKE_CONTACT_H
#define BONEBAKE_CONTACT_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialised: no title, columns chosen for a roughly square sheet,
 * sides up to 8192 px. */
typedef struct bb_contact_options {
	const char *title;   /* first line (copied; NULL or "" for none) */
	int columns;         /* 0: automatic */
	int max_side;        /* 0: 8192; cells are scaled down to fit */
} bb_contact_options;

typedef struct bb_contact_sheet bb_contact_sheet;

/* A sheet for `frames` frames of cell_w x cell_h.  Fails with
 * BB_ERR_USAGE (frames < 1, a side < 1, columns < 0), BB_ERR_LIMIT (the
 * frames do not fit max_side even with cells scaled down to 16 px),
 * BB_ERR_NOMEM.  Returns new; free with bb_contact_free. */
bb_status bb_contact_new(long frames, int cell_w, int cell_h,
                         const bb_contact_options *opts,
                         bb_contact_sheet **out, bb_error *err);

/* Draws frame `index` (borrowed; cell_w x cell_h straight RGBA) shown at
 * `time` seconds into its cell.  Frames may come in any order, one call at
 * a time.  Fails with BB_ERR_USAGE (index out of range, wrong size),
 * BB_ERR_NOMEM. */
bb_status bb_contact_add(bb_contact_sheet *s, long index, double time,
                         const bb_image *frame, bb_error *err);

/* The sheet as a new opaque image (free with bb_image_free); cells never
 * added stay empty.  Fails with BB_ERR_NOMEM. */
bb_status bb_contact_render(const bb_contact_sheet *s, bb_image **out,
                            bb_error *err);

/* NULL-safe. */
void bb_contact_free(bb_contact_sheet *s);

#ifdef __cplusplus
}
#endif
#endif
