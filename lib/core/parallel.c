/* The CPU count and the one thread runner every parallel loop uses. */
#define _GNU_SOURCE 1   /* sched_getcpu, pthread_attr_setaffinity_np */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "core/parallel.h"

int bb_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > BB_MAX_THREADS ? BB_MAX_THREADS : (int)n;
}

int bb_threads(int requested, long work)
{
	int n = requested > 0 ? requested : bb_cpu_count();

	if (n > BB_MAX_THREADS)
		n = BB_MAX_THREADS;
	if (work > 0 && n > work)
		n = (int)work;
	return n < 1 ? 1 : n;
}

#if defined(HAVE_PTHREAD_ATTR_SETAFFINITY_NP) && defined(HAVE_SCHED_GETCPU)
#define BB__SPREAD 1
#endif

int bb__start_cpu(const int *cpus, int n, int here, int i)
{
	int k;

	for (k = 0; k < n && cpus[k] != here; k++)
		;
	if (n < 2 || k == n || i % n == 0)
		return -1;
	return cpus[(k + i) % n];
}

struct start_arg {
	void (*fn)(void *user, int worker);
	void *user;
	int index;
#ifdef BB__SPREAD
	const cpu_set_t *allowed;   /* to go back to once started, or NULL */
#endif
};

static void *start(void *arg)
{
	struct start_arg *w = arg;

#ifdef BB__SPREAD
	if (w->allowed)   /* started where it was put: free to move again */
		(void)pthread_setaffinity_np(pthread_self(), sizeof *w->allowed,
		                             w->allowed);
#endif
	w->fn(w->user, w->index);
	return NULL;
}

#ifdef BB__SPREAD
struct spread {
	cpu_set_t allowed;
	int cpus[BB_MAX_THREADS * 4], n, here;
};

/* The CPUs this thread may run on (the first ones, enough to choose
 * from) and the one it is on; 0 when there is no choice. */
static int spread_init(struct spread *sp)
{
	int cpu;

	if (sched_getaffinity(0, sizeof sp->allowed, &sp->allowed) != 0 ||
	    (sp->here = sched_getcpu()) < 0)
		return 0;
	sp->n = 0;
	for (cpu = 0; cpu < CPU_SETSIZE && sp->n < (int)(sizeof sp->cpus /
	                                                  sizeof *sp->cpus); cpu++)
		if (CPU_ISSET(cpu, &sp->allowed))
			sp->cpus[sp->n++] = cpu;
	return sp->n > 1;
}

/* attr made to start worker i on a CPU of its own; 0 if not. */
static int spread_attr(const struct spread *sp, int i, pthread_attr_t *attr)
{
	int cpu = bb__start_cpu(sp->cpus, sp->n, sp->here, i);
	cpu_set_t one;

	if (cpu < 0 || pthread_attr_init(attr) != 0)
		return 0;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (pthread_attr_setaffinity_np(attr, sizeof one, &one) != 0) {
		pthread_attr_destroy(attr);
		return 0;
	}
	return 1;
}
#endif

void bb__parallel_run(int n, void (*fn)(void *user, int worker), void *user)
{
	pthread_t th[BB_MAX_THREADS];
	struct start_arg w[BB_MAX_THREADS];
	int started[BB_MAX_THREADS];
	int i;
#ifdef BB__SPREAD
	struct spread sp;
	int spread = n > 1 && spread_init(&sp);
#endif

	if (n > BB_MAX_THREADS)
		n = BB_MAX_THREADS;
	for (i = 1; i < n; i++) {
#ifdef BB__SPREAD
		pthread_attr_t attr;
#endif
		pthread_attr_t *a = NULL;

		w[i].fn = fn;
		w[i].user = user;
		w[i].index = i;
#ifdef BB__SPREAD
		w[i].allowed = NULL;
		if (spread && spread_attr(&sp, i, &attr)) {
			a = &attr;
			w[i].allowed = &sp.allowed;
		}
#endif
		started[i] = pthread_create(&th[i], a, start, &w[i]) == 0;
		if (a)
			pthread_attr_destroy(a);
	}
	fn(user, 0);
	for (i = 1; i < n; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			fn(user, i);
	}
}

/* ---- bb_parallel_for --------------------------------------------------- */

struct loop {
	pthread_mutex_t lock;
	size_t next, n;
	void (*fn)(void *ctx, size_t i, int worker);
	void *ctx;
};

static void loop_worker(void *arg, int worker)
{
	struct loop *l = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&l->lock);
		i = l->next < l->n ? l->next++ : l->n;
		pthread_mutex_unlock(&l->lock);
		if (i == l->n)
			return;
		l->fn(l->ctx, i, worker);
	}
}

int bb_parallel_for(size_t n, int threads,
                    void (*fn)(void *ctx, size_t i, int worker), void *ctx)
{
	struct loop l;
	int workers = n == 0 ? 1 : bb_threads(threads, n > (size_t)BB_MAX_THREADS
	                                       ? BB_MAX_THREADS : (long)n);

	if (workers <= 1) {
		size_t i;

		for (i = 0; i < n; i++)
			fn(ctx, i, 0);
		return 1;
	}
	l.next = 0;
	l.n = n;
	l.fn = fn;
	l.ctx = ctx;
	pthread_mutex_init(&l.lock, NULL);
	bb__parallel_run(workers, loop_worker, &l);
	pthread_mutex_destroy(&l.lock);
	return workers;
}
