/* Evaluator internals shared between the eval files. */
#ifndef BB_EVAL_EVAL_H
#define BB_EVAL_EVAL_H

#include "bonebake/eval.h"
#include "model/model.h"

/* Eased progress for key interpolation kind ip at linear progress p. */
double bb__ease(const bb_anim *an, const bb_interp *ip, double p);

/* Samples timeline t at local time `time` into out[stride].  Before the
 * first key: first value; after the last: last value. */
void bb__timeline_sample(const bb_anim *an, const bb_timeline *t, double time,
                         int looping, double *out);
/* Index of the key a sample at `time` uses (the last at or before it),
 * -1 before the first key. */
int bb__timeline_key(const bb_anim *an, const bb_timeline *t, double time);
/* Whether a track plays its animation looping. */
int bb__track_loops(const bb_anim *an, const bb_track *tr);

/* Maps figure time to the track's local animation time.  Returns 0 when
 * the track has no effect at t (transient tracks before start or after a
 * non-looping end). */
int bb__track_time(const bb_anim *an, const bb_track *tr, double t,
                   double *local);

#endif
