/* A small parallel loop for the packer's per-frame and per-page work.
 * Which thread runs which index varies from run to run; every caller
 * writes only the slot of its index, so results never do. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "pack/pack-int.h"

typedef struct loop {
	pthread_mutex_t lock;
	size_t next, n;
	void (*fn)(void *ctx, size_t i, int worker);
	void *ctx;
} loop;

typedef struct worker {
	loop *l;
	int id;
} worker;

static void *run(void *arg)
{
	worker *w = arg;
	loop *l = w->l;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&l->lock);
		i = l->next < l->n ? l->next++ : l->n;
		pthread_mutex_unlock(&l->lock);
		if (i == l->n)
			return NULL;
		l->fn(l->ctx, i, w->id);
	}
}

int bb__pack_parallel(size_t n, int threads,
                      void (*fn)(void *ctx, size_t i, int worker), void *ctx)
{
	pthread_t th[BB__PACK_MAX_THREADS];
	worker w[BB__PACK_MAX_THREADS];
	loop l;
	int k, started = 0;

	if (threads > BB__PACK_MAX_THREADS)
		threads = BB__PACK_MAX_THREADS;
	if ((size_t)threads > n)
		threads = (int)n;
	if (threads <= 1) {
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
	for (k = 0; k < threads; k++)
		w[k] = (worker){ &l, k };
	for (k = 1; k < threads; k++) {
		if (pthread_create(&th[k], NULL, run, &w[k]) != 0)
			break;
		started = k;
	}
	run(&w[0]);
	for (k = 1; k <= started; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&l.lock);
	return started + 1;
}
