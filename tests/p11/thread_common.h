/*
 * Helpers of the thread tests (tests/p11/test_threads.c,
 * test_sobj_race.c): timed runs of worker threads that record their first
 * failure for the main thread to assert, and races of a run of calls
 * against one event. Include <stdatomic.h>, cmocka.h and
 * tests/p11/common.h first.
 */
#ifndef VG_TESTS_P11_THREAD_COMMON_H
#define VG_TESTS_P11_THREAD_COMMON_H

#include <pthread.h>

/* CLOCK_MONOTONIC in nanoseconds. */
long long p11_now_ns(void);

/* One thread of a timed run. Threads record what went wrong; only the
 * main thread asserts. */
struct p11_worker {
	pthread_t thread;
	unsigned id;
	long long deadline; /* p11_now_ns() at which the run ends */
	unsigned long rounds;
	unsigned long errors;
	/* The first failure: the call and what it returned. */
	const char *what;
	CK_RV rv;
};

/* Counts a failure of w, keeping the first. */
void p11_record(struct p11_worker *w, const char *what, CK_RV rv);

/* Records the call's text when it does not return want. */
#define P11_CHECK(w, call, want)                                            \
	do {                                                                \
		CK_RV rv_ = (call);                                         \
		if (rv_ != (want))                                          \
			p11_record((w), #call, rv_);                        \
	} while (0)

/*
 * A timed run: w[0..n) run fn and w[n] runs extra, each given its id
 * (its index) and a deadline run_ns from now, the rest of w zeroed. Once
 * the n workers have returned, *stop is set to 1 (it is 0 while they run)
 * and w[n] is joined. Fails the test when a thread recorded a failure or
 * did no round. Returns the rounds of w[0..n).
 */
unsigned long p11_run_workers(struct p11_worker *w, unsigned n,
    long long run_ns, void *(*fn)(void *), void *(*extra)(void *),
    atomic_int *stop);

/*
 * One race: calls(arg) in one thread against event(arg) in another, both
 * released at once, the event after spin turns of an empty loop. Returns
 * when both are done.
 */
void p11_race(void (*calls)(void *), void (*event)(void *), void *arg,
    unsigned spin);

/*
 * The results rv[0..n) of race number race's calls (named what in a
 * failure): CKR_OK until the event, then want1 or want2 from the first
 * call that saw it on. Fails the test otherwise. Returns 1 when the
 * event came before the last call, 0 when every call came first.
 */
int p11_race_outcome(const CK_RV *rv, int n, CK_RV want1, CK_RV want2,
    int race, const char *what);

#endif
