/* Helpers of the thread tests: see thread_common.h. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"
#include "tests/p11/thread_common.h"

long long
p11_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void
p11_record(struct p11_worker *w, const char *what, CK_RV rv)
{
	if (w->errors++ == 0) {
		w->what = what;
		w->rv = rv;
	}
}

unsigned long
p11_run_workers(struct p11_worker *w, unsigned n, long long run_ns,
    void *(*fn)(void *), void *(*extra)(void *), atomic_int *stop)
{
	long long deadline = p11_now_ns() + run_ns;
	unsigned long total = 0;
	unsigned i;

	memset(w, 0, (n + 1) * sizeof(*w));
	atomic_store(stop, 0);
	for (i = 0; i <= n; i++) {
		w[i].id = i;
		w[i].deadline = deadline;
	}
	for (i = 0; i < n; i++)
		assert_int_equal(pthread_create(&w[i].thread, NULL, fn, &w[i]),
		    0);
	assert_int_equal(pthread_create(&w[n].thread, NULL, extra, &w[n]), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(pthread_join(w[i].thread, NULL), 0);
	atomic_store(stop, 1);
	assert_int_equal(pthread_join(w[n].thread, NULL), 0);
	for (i = 0; i <= n; i++) {
		if (w[i].errors != 0)
			fail_msg("thread %u: %lu errors, first: %s -> %s", i,
			    w[i].errors, w[i].what, p11_rv_name(w[i].rv));
		assert_true(w[i].rounds > 0);
		if (i < n)
			total += w[i].rounds;
	}
	return total;
}

struct side {
	void (*run)(void *);
	void *arg;
	pthread_barrier_t *start;
	unsigned spin;
};

static void *
side_main(void *p)
{
	struct side *s = p;
	volatile unsigned k;

	pthread_barrier_wait(s->start);
	for (k = 0; k < s->spin; k++)
		;
	s->run(s->arg);
	return NULL;
}

void
p11_race(void (*calls)(void *), void (*event)(void *), void *arg,
    unsigned spin)
{
	pthread_barrier_t start;
	struct side c = { calls, arg, &start, 0 };
	struct side e = { event, arg, &start, spin };
	pthread_t tc, te;

	assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
	assert_int_equal(pthread_create(&tc, NULL, side_main, &c), 0);
	assert_int_equal(pthread_create(&te, NULL, side_main, &e), 0);
	assert_int_equal(pthread_join(tc, NULL), 0);
	assert_int_equal(pthread_join(te, NULL), 0);
	pthread_barrier_destroy(&start);
}

int
p11_race_outcome(const CK_RV *rv, int n, CK_RV want1, CK_RV want2,
    int race, const char *what)
{
	int i, after = 0;

	for (i = 0; i < n; i++) {
		if (rv[i] == want1 || rv[i] == want2)
			after = 1;
		else if (rv[i] != CKR_OK || after)
			fail_msg("race %d, %s %d: %s%s", race, what, i,
			    p11_rv_name(rv[i]),
			    after ? " after the event" : "");
	}
	return after;
}
