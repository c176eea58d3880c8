/* The CPU count and the one thread runner every parallel loop uses. */
#include "config.h"

#include <pthread.h>
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

struct start_arg {
	void (*fn)(void *user, int worker);
	void *user;
	int index;
};

static void *start(void *arg)
{
	struct start_arg *w = arg;

	w->fn(w->user, w->index);
	return NULL;
}

void bb__parallel_run(int n, void (*fn)(void *user, int worker), void *user)
{
	pthread_t th[BB_MAX_THREADS];
	struct start_arg w[BB_MAX_THREADS];
	int started[BB_MAX_THREADS];
	int i;

	if (n > BB_MAX_THREADS)
		n = BB_MAX_THREADS;
	for (i = 1; i < n; i++) {
		w[i].fn = fn;
		w[i].user = user;
		w[i].index = i;
		started[i] = pthread_create(&th[i], NULL, start, &w[i]) == 0;
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
