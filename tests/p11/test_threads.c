/*
 * Concurrency: several application threads using the module at once
 * [PKCS#11 3.2 §5.1, §6.7], once with OS locking and once with the
 * application's mutex callbacks; and a session closed while another
 * thread works in it. Threads record what went wrong; only the main
 * thread asserts.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"
#include "tests/p11/thread_common.h"

#define NWORKERS 8
#define RUN_NS 2000000000LL       /* each stress run: about 2 s */
#define MAX_ROUNDS 20000          /* ... or this many rounds per worker */
#define RACES 300                 /* close-vs-update races */
#define RACE_UPDATES 64

static const struct p11_digest *sha256; /* p11_digests entry */
static CK_SLOT_ID stress_slot;          /* the stress run's slot */

/* ------------------------------------------------ application mutexes */

static atomic_ulong n_create, n_destroy, n_lock, n_unlock, n_mutex_errors;

static CK_RV
app_create(CK_VOID_PTR_PTR pp)
{
	pthread_mutex_t *m = malloc(sizeof(*m));

	if (m == NULL)
		return CKR_HOST_MEMORY;
	pthread_mutex_init(m, NULL);
	*pp = m;
	atomic_fetch_add(&n_create, 1);
	return CKR_OK;
}

static CK_RV
app_destroy(CK_VOID_PTR p)
{
	if (pthread_mutex_destroy(p) != 0)
		atomic_fetch_add(&n_mutex_errors, 1);
	free(p);
	atomic_fetch_add(&n_destroy, 1);
	return CKR_OK;
}

static CK_RV
app_lock(CK_VOID_PTR p)
{
	if (pthread_mutex_lock(p) != 0) {
		atomic_fetch_add(&n_mutex_errors, 1);
		return CKR_MUTEX_BAD;
	}
	atomic_fetch_add(&n_lock, 1);
	return CKR_OK;
}

static CK_RV
app_unlock(CK_VOID_PTR p)
{
	atomic_fetch_add(&n_unlock, 1);
	if (pthread_mutex_unlock(p) != 0) {
		atomic_fetch_add(&n_mutex_errors, 1);
		return CKR_MUTEX_NOT_LOCKED;
	}
	return CKR_OK;
}

static int
setup_os_locking(void **state)
{
	CK_C_INITIALIZE_ARGS a = { NULL, NULL, NULL, NULL, CKF_OS_LOCKING_OK,
		NULL };

	if (p11_group_load(state) != 0 || p11->C_Initialize(&a) != CKR_OK)
		return -1;
	return 0;
}

static int
setup_app_mutexes(void **state)
{
	CK_C_INITIALIZE_ARGS a = { app_create, app_destroy, app_lock,
		app_unlock, 0, NULL };

	if (p11_group_load(state) != 0 || p11->C_Initialize(&a) != CKR_OK)
		return -1;
	return 0;
}

/* ------------------------------------------------------------ stress */

static void
digest_round(struct p11_worker *w, struct p11_rng *r, CK_SESSION_HANDLE h)
{
	static const CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_BYTE data[1500], want[32], got[32];
	size_t n = p11_rng_below(r, sizeof(data) + 1), off = 0;
	CK_ULONG len;

	p11_rng_fill(r, data, n);
	if (p11_evp_digest(sha256, data, n, want) != 0) {
		p11_record(w, "OpenSSL SHA-256", CKR_GENERAL_ERROR);
		return;
	}

	/* One-shot. */
	len = sizeof(got);
	memset(got, 0, sizeof(got));
	P11_CHECK(w, p11->C_DigestInit(h, (CK_MECHANISM_PTR)&mech), CKR_OK);
	P11_CHECK(w, p11->C_Digest(h, data, n, got, &len), CKR_OK);
	if (len != 32 || memcmp(got, want, 32) != 0)
		p11_record(w, "one-shot SHA-256 result", CKR_GENERAL_ERROR);

	/* Multi-part, random split points. */
	len = sizeof(got);
	memset(got, 0, sizeof(got));
	P11_CHECK(w, p11->C_DigestInit(h, (CK_MECHANISM_PTR)&mech), CKR_OK);
	while (off < n) {
		size_t part = p11_rng_below(r, 300);

		if (part > n - off)
			part = n - off;
		P11_CHECK(w, p11->C_DigestUpdate(h, data + off, part), CKR_OK);
		off += part;
	}
	P11_CHECK(w, p11->C_DigestFinal(h, got, &len), CKR_OK);
	if (len != 32 || memcmp(got, want, 32) != 0)
		p11_record(w, "multi-part SHA-256 result", CKR_GENERAL_ERROR);
}

static void *
worker_main(void *arg)
{
	struct p11_worker *w = arg;
	struct p11_rng r;

	p11_rng_seed(&r, 100 + w->id);
	while (w->rounds < MAX_ROUNDS && p11_now_ns() < w->deadline) {
		CK_FLAGS flags = CKF_SERIAL_SESSION |
		    ((w->rounds & 1) ? CKF_RW_SESSION : 0);
		CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
		CK_SESSION_INFO si;
		CK_BYTE rnd[48], zero[48] = { 0 };

		P11_CHECK(w, p11->C_OpenSession(stress_slot, flags, NULL, NULL, &h),
		    CKR_OK);
		if (h == CK_INVALID_HANDLE) {
			w->rounds++;
			continue;
		}
		P11_CHECK(w, p11->C_GetSessionInfo(h, &si), CKR_OK);
		if (si.flags != flags)
			p11_record(w, "session flags", CKR_GENERAL_ERROR);
		digest_round(w, &r, h);
		memset(rnd, 0, sizeof(rnd));
		P11_CHECK(w, p11->C_GenerateRandom(h, rnd, sizeof(rnd)), CKR_OK);
		if (memcmp(rnd, zero, sizeof(rnd)) == 0)
			p11_record(w, "C_GenerateRandom output", CKR_GENERAL_ERROR);
		P11_CHECK(w, p11->C_CloseSession(h), CKR_OK);
		w->rounds++;
	}
	return NULL;
}

static atomic_int admin_stop;

static void *
admin_main(void *arg)
{
	struct p11_worker *w = arg;

	while (!atomic_load(&admin_stop)) {
		CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
		CK_SLOT_ID slots[8];
		CK_ULONG n = 8;
		CK_TOKEN_INFO ti;
		char text[33];

		P11_CHECK(w, p11->C_OpenSession(stress_slot, CKF_SERIAL_SESSION, NULL,
			     NULL, &h),
		    CKR_OK);
		P11_CHECK(w, p11->C_GetSlotList(CK_TRUE, slots, &n), CKR_OK);
		if (n < 1 || slots[0] != stress_slot)
			p11_record(w, "slot list", CKR_GENERAL_ERROR);
		P11_CHECK(w, p11->C_GetTokenInfo(stress_slot, &ti), CKR_OK);
		if (!p11_text_ok(ti.manufacturerID, sizeof(ti.manufacturerID),
			text, sizeof(text)) ||
		    strcmp(text, "vgtoken") != 0)
			p11_record(w, "token manufacturer", CKR_GENERAL_ERROR);
		/* This thread's session is open: the count includes it. */
		if (ti.ulSessionCount < 1 ||
		    ti.ulRwSessionCount > ti.ulSessionCount)
			p11_record(w, "token session counts", CKR_GENERAL_ERROR);
		P11_CHECK(w, p11->C_CloseSession(h), CKR_OK);
		w->rounds++;
	}
	return NULL;
}

static void
test_stress(void **state)
{
	struct p11_worker w[NWORKERS + 1];
	unsigned long total;
	CK_TOKEN_INFO ti;

	(void)state;
	stress_slot = p11_slot();
	total = p11_run_workers(w, NWORKERS, RUN_NS, worker_main, admin_main,
	    &admin_stop);
	print_message("%lu rounds in %d+1 threads\n", total, NWORKERS);

	assert_rv(p11->C_GetTokenInfo(stress_slot, &ti), CKR_OK);
	assert_int_equal(ti.ulSessionCount, 0);
	assert_int_equal(ti.ulRwSessionCount, 0);
}

/* -------------------------------------------- close racing an update */

struct race {
	CK_SESSION_HANDLE h;
	CK_RV rv[RACE_UPDATES];
	CK_RV close_rv;
};

static void
race_updates(void *arg)
{
	struct race *r = arg;
	CK_BYTE buf[256];
	int i;

	memset(buf, 0x61, sizeof(buf));
	for (i = 0; i < RACE_UPDATES; i++)
		r->rv[i] = p11->C_DigestUpdate(r->h, buf, sizeof(buf));
}

static void
race_close(void *arg)
{
	struct race *r = arg;

	r->close_rv = p11->C_CloseSession(r->h);
}

static void
test_close_races_update(void **state)
{
	static const CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	struct p11_rng rng;
	unsigned long before = 0, after = 0;
	CK_TOKEN_INFO ti;
	int n;

	(void)state;
	p11_rng_seed(&rng, 1);
	for (n = 0; n < RACES; n++) {
		struct race r;

		memset(&r, 0, sizeof(r));
		r.h = p11_open(n & 1 ? CKF_RW_SESSION : 0);
		assert_rv(p11->C_DigestInit(r.h, (CK_MECHANISM_PTR)&mech),
		    CKR_OK);
		p11_race(race_updates, race_close, &r,
		    (unsigned)p11_rng_below(&rng, 20000));

		/* Only one thread closed it: the close succeeded. Updates
		 * succeed until the close, then the handle is invalid. */
		assert_rv(r.close_rv, CKR_OK);
		if (p11_race_outcome(r.rv, RACE_UPDATES,
		    CKR_SESSION_HANDLE_INVALID, CKR_SESSION_HANDLE_INVALID, n,
		    "update"))
			after++;
		else
			before++;
		assert_rv(p11->C_CloseSession(r.h), CKR_SESSION_HANDLE_INVALID);
	}
	print_message("close won %lu times, the updates %lu times\n", after,
	    before);
	assert_rv(p11->C_GetTokenInfo(p11_slot(), &ti), CKR_OK);
	assert_int_equal(ti.ulSessionCount, 0);
}

/* Two threads close the same session; C_CloseAllSessions races both. */
struct double_close {
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	pthread_barrier_t start;
};

static void *
dc_close(void *arg)
{
	struct double_close *d = arg;

	pthread_barrier_wait(&d->start);
	return (void *)(uintptr_t)p11->C_CloseSession(d->h);
}

static void *
dc_close_all(void *arg)
{
	struct double_close *d = arg;

	pthread_barrier_wait(&d->start);
	return (void *)(uintptr_t)p11->C_CloseAllSessions(d->slot);
}

static void
test_double_close(void **state)
{
	int n;

	(void)state;
	for (n = 0; n < 200; n++) {
		struct double_close d;
		pthread_t t[3];
		void *res[3];
		int i, ok = 0;

		memset(&d, 0, sizeof(d));
		d.slot = p11_slot();
		d.h = p11_open(CKF_RW_SESSION);
		assert_int_equal(pthread_barrier_init(&d.start, NULL, 3), 0);
		assert_int_equal(pthread_create(&t[0], NULL, dc_close, &d), 0);
		assert_int_equal(pthread_create(&t[1], NULL, dc_close, &d), 0);
		assert_int_equal(pthread_create(&t[2], NULL, dc_close_all, &d),
		    0);
		for (i = 0; i < 3; i++)
			assert_int_equal(pthread_join(t[i], &res[i]), 0);
		pthread_barrier_destroy(&d.start);

		/* C_CloseAllSessions always succeeds; at most one
		 * C_CloseSession does, the other finds the handle gone. */
		assert_rv((CK_RV)(uintptr_t)res[2], CKR_OK);
		for (i = 0; i < 2; i++) {
			CK_RV rv = (CK_RV)(uintptr_t)res[i];

			if (rv == CKR_OK)
				ok++;
			else
				assert_rv(rv, CKR_SESSION_HANDLE_INVALID);
		}
		assert_true(ok <= 1);
	}
}

/* Ends the application-mutex group: the callbacks were used, every lock
 * was released, and C_Finalize destroyed every mutex it created. */
static void
test_app_mutex_balance(void **state)
{
	(void)state;
	assert_true(atomic_load(&n_create) >= 1);
	assert_true(atomic_load(&n_lock) > 1000);
	assert_int_equal(atomic_load(&n_lock), atomic_load(&n_unlock));
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	assert_int_equal(atomic_load(&n_destroy), atomic_load(&n_create));
	assert_int_equal(atomic_load(&n_lock), atomic_load(&n_unlock));
	assert_int_equal(atomic_load(&n_mutex_errors), 0);
}

static void
find_sha256(void)
{
	size_t k;

	for (k = 0; k < p11_ndigests; k++)
		if (p11_digests[k].mech == CKM_SHA256)
			sha256 = &p11_digests[k];
}

int
main(void)
{
	const struct CMUnitTest os_tests[] = {
		cmocka_unit_test(test_stress),
		cmocka_unit_test(test_close_races_update),
		cmocka_unit_test(test_double_close),
	};
	const struct CMUnitTest app_tests[] = {
		cmocka_unit_test(test_stress),
		cmocka_unit_test(test_close_races_update),
		cmocka_unit_test(test_double_close),
		cmocka_unit_test(test_app_mutex_balance),
	};
	int failed = 0;

	find_sha256();
	failed += cmocka_run_group_tests_name("p11 threads, OS locking",
	    os_tests, setup_os_locking, p11_group_fini);
	failed += cmocka_run_group_tests_name(
	    "p11 threads, application mutexes", app_tests, setup_app_mutexes,
	    p11_group_fini);
	return failed;
}
