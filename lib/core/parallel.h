/* The thread runner under bb_parallel_for (library-internal): a fixed
 * set of workers, each called once with its index. */
#ifndef BB_CORE_PARALLEL_H
#define BB_CORE_PARALLEL_H

#include "bonebake/parallel.h"

/* Runs fn(user, 0) .. fn(user, n - 1) on n threads (the calling thread
 * runs worker 0) and waits for them all.  A thread that cannot be started
 * runs its worker on the calling thread after worker 0, so every worker
 * runs exactly once whatever happens; workers share work through `user`
 * (an index taken under a lock, say). */
void bb__parallel_run(int n, void (*fn)(void *user, int worker), void *user);

#endif
