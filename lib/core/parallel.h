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

/* Where worker i > 0 starts: Linux puts a new thread on its creator's
 * CPU and leaves the load balancer to move it, which can take
 * milliseconds (seen on a 2-CPU VM: two workers sharing one CPU for the
 * first 7 ms, all of a short render).  So bb__parallel_run starts worker
 * i on the i-th CPU after the caller's (`here`) among those the process
 * may use (cpus[0..n-1]), and lets it move freely once it runs.  -1: no
 * CPU of its own (one allowed, `here` not among them, or i a multiple of
 * n, which would put it back beside the caller). */
int bb__start_cpu(const int *cpus, int n, int here, int i);

#endif
