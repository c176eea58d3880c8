/* bonebake's one parallel loop and CPU count: what the frame loop, the
 * packer, diff and the CLI share. */
#ifndef BONEBAKE_PARALLEL_H
#define BONEBAKE_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many threads in any loop. */
#define BB_MAX_THREADS 256

/* Online CPUs, between 1 and BB_MAX_THREADS. */
int bb_cpu_count(void);

/* The threads to use for `work` items (work <= 0: unknown) when
 * `requested` were asked for (<= 0: one per CPU): at most
 * BB_MAX_THREADS, at most `work`, at least 1. */
int bb_threads(int requested, long work);

/* Calls fn(ctx, i, worker) once for every i in [0, n), on up to `threads`
 * threads (bb_threads(threads, n); the calling thread is worker 0), and
 * returns when all are done, with the number of workers used.  Indices
 * are handed out in order, one at a time; which worker gets which varies
 * from run to run, so fn must write only what belongs to i (or to
 * `worker`, a number below the returned count). */
int bb_parallel_for(size_t n, int threads,
                    void (*fn)(void *ctx, size_t i, int worker), void *ctx);

#ifdef __cplusplus
}
#endif
#endif
