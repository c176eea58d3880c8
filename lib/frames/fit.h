/* What a canvas cuts, frame by frame: shared by bb_plan_check_fit and the
 * frame loop, which measures it on the frames it renders. */
#ifndef BB_FRAMES_FIT_H
#define BB_FRAMES_FIT_H

#include "bonebake/frames.h"

/* Nothing cut yet. */
void bb__plan_fit_init(bb_plan_fit *f);
/* Frame i of p, whose draw list has bounds b (world units), added to f. */
void bb__plan_fit_frame(bb_plan_fit *f, const bb_plan *p, bb_bounds b, long i);
/* g's frames added to f: the same result whatever the order of merging
 * (first, last and worst frame by frame number, sums exact). */
void bb__plan_fit_merge(bb_plan_fit *f, const bb_plan_fit *g);

#endif
