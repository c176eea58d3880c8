/* What a second thread can gain on this machine, for reading benchmark
 * ratios: each kernel runs once on one thread, then on two threads doing
 * the same work each, one per CPU; the gain is twice the one-thread time
 * over the two-thread time (2.00: the second CPU adds a whole core).
 *
 *   chain   a dependent multiply chain: latency-bound, gains 2x even
 *           when both CPUs are hyper-threads of one core
 *   ilp     six independent integer chains: throughput-bound, gains 2x
 *           only on two cores (about 1x on two threads of one core)
 *   stores  32 KiB memset, repeated: the core's store bandwidth
 *   faults  first writes to fresh 4 KiB pages (page faults), and what one
 *           costs; in a virtual machine often ten times bare metal's
 *
 * Best of three runs each.  Asserts nothing; prints text, or JSON with
 * --json.  Used by scripts/bench machine and scripts/bench-peers. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { RUNS = 3, STORE_BYTES = 32 << 10, FAULT_BYTES = 4 << 20 };

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Each kernel's result goes to *sink, so the work cannot be dropped. */
static void chain(uint64_t *sink)
{
	uint64_t x = *sink | 1;
	long i;

	for (i = 0; i < 40000000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	*sink = x;
}

static void ilp(uint64_t *sink)
{
	uint64_t a = *sink, b = 2, c = 3, d = 4, e = 5, f = 6;
	long i;

	for (i = 0; i < 100000000; i++) {
		a += (uint64_t)i;
		b ^= (uint64_t)i;
		c += a;
		d ^= b;
		e += c;
		f ^= d;
		__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f));
	}
	*sink = a + b + c + d + e + f;
}

static void stores(uint64_t *sink)
{
	static _Thread_local unsigned char buf[STORE_BYTES];
	int r;

	for (r = 0; r < 400000; r++) {
		memset(buf, r, sizeof buf);
		__asm__ volatile("" : : "r"(buf) : "memory");
	}
	*sink = buf[7];
}

static void faults(uint64_t *sink)
{
	unsigned char *p = mmap(NULL, FAULT_BYTES, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED) {
		*sink = 0;
		return;
	}
#ifdef MADV_NOHUGEPAGE
	(void)madvise(p, FAULT_BYTES, MADV_NOHUGEPAGE);
#endif
	for (i = 0; i < FAULT_BYTES; i += 4096)
		p[i] = (unsigned char)i;
	*sink = p[4096];
	munmap(p, FAULT_BYTES);
}

struct job {
	void (*fn)(uint64_t *);
	uint64_t sink;
	int cpu;
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	if (j->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(j->cpu, &one);
		(void)pthread_setaffinity_np(pthread_self(), sizeof one, &one);
	}
	j->fn(&j->sink);
	return NULL;
}

/* Best one-thread and two-thread times (ms) of fn; 0 for two threads
 * when there is no second CPU. */
static void measure(void (*fn)(uint64_t *), const int cpu[2], double *one,
                    double *two)
{
	int r;

	*one = *two = 0;
	for (r = 0; r < RUNS; r++) {
		struct job a = { fn, (uint64_t)r, cpu[0] }, b = { fn, (uint64_t)r + 1, cpu[1] };
		pthread_t ta, tb;
		double t0, t;

		t0 = now_ms();
		run_job(&a);
		t = now_ms() - t0;
		if (r == 0 || t < *one)
			*one = t;
		if (cpu[1] < 0)
			continue;
		t0 = now_ms();
		if (pthread_create(&ta, NULL, run_job, &a) != 0)
			continue;
		if (pthread_create(&tb, NULL, run_job, &b) != 0) {
			pthread_join(ta, NULL);
			continue;
		}
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		t = now_ms() - t0;
		if (*two == 0 || t < *two)
			*two = t;
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name, *what;
		void (*fn)(uint64_t *);
	} kernels[] = {
		{ "chain", "dependent multiply chain (latency-bound)", chain },
		{ "ilp", "independent integer chains (throughput-bound)", ilp },
		{ "stores", "32 KiB stores, repeated (store bandwidth)", stores },
		{ "faults", "first writes to fresh 4 KiB pages", faults },
	};
	enum { N = sizeof kernels / sizeof kernels[0] };
	double one[N], two[N], gain[N];
	int json = argc > 1 && strcmp(argv[1], "--json") == 0;
	int cpu[2] = { -1, -1 }, ncpu = 0, c, k;
	cpu_set_t allowed;
	const char *verdict;
	double us_per_page;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: machine-probe [--json]\n"
		       "What a second thread gains on this machine: four kernels on one\n"
		       "thread, then on two (one per CPU, the same work each); about 2 s.\n");
		return 0;
	}
	if (argc > 1 && !json) {
		fprintf(stderr, "usage: machine-probe [--json]\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed) && ncpu++ < 2)
				cpu[ncpu - 1] = c;
	if (ncpu < 2)
		cpu[1] = -1;
	for (k = 0; k < N; k++) {
		measure(kernels[k].fn, cpu, &one[k], &two[k]);
		gain[k] = two[k] > 0 ? 2 * one[k] / two[k] : 0;
	}
	/* the verdict: latency-bound work scales, throughput-bound does not */
	if (ncpu < 2)
		verdict = "one CPU: no second thread";
	else if (gain[0] < 1.6)
		verdict = "the second CPU is not free (busy or throttled)";
	else if (gain[1] < 1.5)
		verdict = "the two CPUs share one core (SMT siblings): "
		          "throughput-bound work gains little from a second thread";
	else
		verdict = "two whole cores";
	us_per_page = one[3] * 1e3 / (FAULT_BYTES / 4096);

	if (json) {
		printf("{\"cpus\": %d, \"fault_us_per_page\": %.2f, \"verdict\": \"%s\", \"gain\": {",
		       ncpu, us_per_page, verdict);
		for (k = 0; k < N; k++)
			printf("%s\"%s\": %.2f", k ? ", " : "", kernels[k].name, gain[k]);
		printf("}}\n");
	} else {
		printf("machine: %d CPUs allowed (%ld online); what a second thread gains "
		       "(2 threads x work / 1 thread x work):\n", ncpu,
		       sysconf(_SC_NPROCESSORS_ONLN));
		for (k = 0; k < N; k++)
			printf("  %-48s %5.2fx\n", kernels[k].what, gain[k]);
		printf("  one fresh 4 KiB page costs %.1f us\n", us_per_page);
		printf("  verdict: %s\n", verdict);
	}
	return 0;
}
