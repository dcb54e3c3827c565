/*
 * Session objects under threads (issue 23): they are made, found and
 * destroyed without the module lock, in a store of their own, so each rule
 * the module lock used to keep is raced here:
 *
 *   - threads make, find and destroy session objects in sessions of their
 *     own, through two sessions each (an object is seen and destroyed
 *     through any session of the application), while another thread
 *     searches everything: each search finds exactly the thread's own
 *     objects, a destroyed handle is invalid at once, and a closed
 *     session's objects are gone;
 *   - a session closed while a thread makes objects in it: every creation
 *     succeeds until the close and none after, and no object of it is left;
 *   - a logout while a thread makes private session objects: likewise, and
 *     no private object survives the logout;
 *   - a session key destroyed while other threads sign with it: after the
 *     destruction returns, every C_SignInit gets CKR_KEY_HANDLE_INVALID.
 *
 * Threads record what went wrong; only the main thread asserts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/p11/common.h"
#include "tests/p11/thread_common.h"

#define WORKERS 4
#define RUN_NS 1500000000LL /* the find/destroy run: about 1.5 s */
#define MAX_ROUNDS 5000
#define OBJS 8              /* made per round in the first session */
#define RACES 100
#define RACE_CREATES 24

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE main_h;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "sobj-race", &slot, &main_h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A session data object labelled label, private when priv. */
static CK_RV
make(CK_SESSION_HANDLE h, const char *label, CK_BBOOL priv,
    CK_OBJECT_HANDLE *out)
{
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &priv, sizeof(priv) },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)"v", 1 },
	};

	return p11->C_CreateObject(h, t, 5, out);
}

/* The session objects labelled label that session h finds (at most max,
 * into out when not NULL); -1 when a call fails. */
static long
count(CK_SESSION_HANDLE h, const char *label, CK_OBJECT_HANDLE *out,
    CK_ULONG max)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_LABEL, (void *)label, strlen(label) },
	};
	CK_OBJECT_HANDLE buf[64];
	CK_ULONG n = 0;
	CK_RV rv;

	if (p11->C_FindObjectsInit(h, t, 2) != CKR_OK)
		return -1;
	rv = p11->C_FindObjects(h, buf, 64, &n);
	if (p11->C_FindObjectsFinal(h) != CKR_OK || rv != CKR_OK)
		return -1;
	if (out != NULL)
		memcpy(out, buf, (n < max ? n : max) * sizeof(*out));
	return (long)n;
}

static int
has(const CK_OBJECT_HANDLE *v, long n, CK_OBJECT_HANDLE h)
{
	long i;

	for (i = 0; i < n; i++)
		if (v[i] == h)
			return 1;
	return 0;
}

/* ------------------------------------- make, find, destroy, close */

static void
round_of(struct p11_worker *w)
{
	CK_SESSION_HANDLE h1 = CK_INVALID_HANDLE, h2 = CK_INVALID_HANDLE;
	CK_OBJECT_HANDLE o[OBJS], o2 = CK_INVALID_HANDLE, got[64];
	CK_ATTRIBUTE a;
	CK_BYTE v[8];
	char label[32];
	long n;
	int i;

	snprintf(label, sizeof(label), "race %u", w->id);
	/* Session objects need no read/write session. */
	P11_CHECK(w, p11->C_OpenSession(slot, CKF_SERIAL_SESSION |
	    (w->rounds & 1 ? CKF_RW_SESSION : 0), NULL, NULL, &h1), CKR_OK);
	P11_CHECK(w, p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &h2), CKR_OK);
	for (i = 0; i < OBJS; i++) {
		o[i] = CK_INVALID_HANDLE;
		P11_CHECK(w, make(h1, label, i % 4 == 0, &o[i]), CKR_OK);
	}
	/* Seen through the other session, exactly these. */
	n = count(h2, label, got, 64);
	if (n != OBJS)
		p11_record(w, "objects found after making them", (CK_RV)n);
	for (i = 0; i < OBJS && n == OBJS; i++)
		if (!has(got, n, o[i]))
			p11_record(w, "a made object not found", CKR_GENERAL_ERROR);
	/* Destroyed through the other session: invalid at once. */
	for (i = 0; i < OBJS / 2; i++) {
		P11_CHECK(w, p11->C_DestroyObject(h2, o[i]), CKR_OK);
		P11_CHECK(w, p11->C_DestroyObject(h1, o[i]),
		    CKR_OBJECT_HANDLE_INVALID);
		a = (CK_ATTRIBUTE){ CKA_VALUE, v, sizeof(v) };
		P11_CHECK(w, p11->C_GetAttributeValue(h1, o[i], &a, 1),
		    CKR_OBJECT_HANDLE_INVALID);
	}
	n = count(h1, label, got, 64);
	if (n != OBJS - OBJS / 2)
		p11_record(w, "objects found after destroying half", (CK_RV)n);
	for (i = 0; i < OBJS / 2 && n >= 0; i++)
		if (has(got, n, o[i]))
			p11_record(w, "a destroyed object found", CKR_GENERAL_ERROR);
	P11_CHECK(w, make(h2, label, CK_FALSE, &o2), CKR_OK);
	/* Closing the first session destroys its objects, not the
	 * second's. */
	P11_CHECK(w, p11->C_CloseSession(h1), CKR_OK);
	n = count(h2, label, got, 64);
	if (n != 1 || got[0] != o2)
		p11_record(w, "objects found after the close", (CK_RV)n);
	for (i = OBJS / 2; i < OBJS; i++) {
		a = (CK_ATTRIBUTE){ CKA_VALUE, v, sizeof(v) };
		P11_CHECK(w, p11->C_GetAttributeValue(h2, o[i], &a, 1),
		    CKR_OBJECT_HANDLE_INVALID);
	}
	a = (CK_ATTRIBUTE){ CKA_VALUE, v, sizeof(v) };
	P11_CHECK(w, p11->C_GetAttributeValue(h2, o2, &a, 1), CKR_OK);
	P11_CHECK(w, p11->C_DestroyObject(h2, o2), CKR_OK);
	P11_CHECK(w, p11->C_CloseSession(h2), CKR_OK);
}

static void *
worker_main(void *arg)
{
	struct p11_worker *w = arg;

	while (w->rounds < MAX_ROUNDS && p11_now_ns() < w->deadline) {
		round_of(w);
		w->rounds++;
	}
	return NULL;
}

static atomic_int stop;

/* Searches everything (session and token objects) and reads what it
 * finds: an object may vanish between the two, nothing else may fail. */
static void *
searcher_main(void *arg)
{
	struct p11_worker *w = arg;
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;

	P11_CHECK(w, p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h),
	    CKR_OK);
	while (!atomic_load(&stop)) {
		CK_OBJECT_HANDLE got[256];
		CK_ULONG n = 0, i;
		CK_OBJECT_CLASS cls;
		CK_ATTRIBUTE a = { CKA_CLASS, &cls, sizeof(cls) };
		CK_RV rv;

		P11_CHECK(w, p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
		P11_CHECK(w, p11->C_FindObjects(h, got, 256, &n), CKR_OK);
		P11_CHECK(w, p11->C_FindObjectsFinal(h), CKR_OK);
		for (i = 0; i < n; i++) {
			rv = p11->C_GetAttributeValue(h, got[i], &a, 1);
			if (rv != CKR_OK && rv != CKR_OBJECT_HANDLE_INVALID)
				p11_record(w, "reading a found object", rv);
		}
		w->rounds++;
	}
	P11_CHECK(w, p11->C_CloseSession(h), CKR_OK);
	return NULL;
}

static void
test_make_find_destroy(void **state)
{
	struct p11_worker w[WORKERS + 1];
	CK_ATTRIBUTE t[] = { { CKA_TOKEN, &no, sizeof(no) } };
	CK_OBJECT_HANDLE left[4];
	CK_ULONG n = 0;
	unsigned long total;

	(void)state;
	total = p11_run_workers(w, WORKERS, RUN_NS, worker_main, searcher_main,
	    &stop);
	print_message("%lu rounds in %d threads, %lu searches\n", total,
	    WORKERS, w[WORKERS].rounds);
	/* Every session object went with its session. */
	assert_rv(p11->C_FindObjectsInit(main_h, t, 1), CKR_OK);
	assert_rv(p11->C_FindObjects(main_h, left, 4, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(main_h), CKR_OK);
	assert_int_equal(n, 0);
}

/* ------------------------------------------- a race against one event */

struct race {
	CK_SESSION_HANDLE h;
	CK_BBOOL priv;
	CK_RV rv[RACE_CREATES];
	CK_RV event_rv;
	int logout; /* the event: 0 closes h, 1 logs out */
};

static void
race_creates(void *arg)
{
	struct race *r = arg;
	CK_OBJECT_HANDLE o;
	int i;

	for (i = 0; i < RACE_CREATES; i++)
		r->rv[i] = make(r->h, "race victim", r->priv, &o);
}

static void
race_event(void *arg)
{
	struct race *r = arg;

	r->event_rv = r->logout ? p11->C_Logout(main_h)
				: p11->C_CloseSession(r->h);
}

/* Runs RACES races of creations against the event; after, each
 * creation succeeded before it and failed with one of want after. */
static void
races(int logout, CK_RV want1, CK_RV want2)
{
	struct p11_rng rng;
	unsigned long before = 0, after = 0;
	int n;

	p11_rng_seed(&rng, 23 + logout);
	for (n = 0; n < RACES; n++) {
		struct race r;

		memset(&r, 0, sizeof(r));
		r.logout = logout;
		r.priv = logout ? CK_TRUE : CK_FALSE;
		assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL,
		    NULL, &r.h), CKR_OK);
		p11_race(race_creates, race_event, &r,
		    (unsigned)p11_rng_below(&rng, 200000));
		assert_rv(r.event_rv, CKR_OK);
		if (p11_race_outcome(r.rv, RACE_CREATES, want1, want2, n,
		    "creation"))
			after++;
		else
			before++;
		if (logout) {
			/* Log in again: no private object of the race is
			 * left for the user to find. */
			assert_rv(p11->C_Login(main_h, CKU_USER,
			    (CK_UTF8CHAR_PTR)P11_USER_PIN,
			    strlen(P11_USER_PIN)), CKR_OK);
			assert_int_equal(count(main_h, "race victim", NULL, 0),
			    0);
			assert_rv(p11->C_CloseSession(r.h), CKR_OK);
		} else {
			assert_int_equal(count(main_h, "race victim", NULL, 0),
			    0);
		}
	}
	print_message("the event came first %lu times, the creations %lu "
	    "times\n", after, before);
}

/* A creation in a session being closed: CKR_SESSION_HANDLE_INVALID once
 * the handle is gone, CKR_SESSION_CLOSED when the close came during the
 * call [PKCS#11 3.2 §5.1]; no object outlives the session. */
static void
test_close_races_create(void **state)
{
	(void)state;
	races(0, CKR_SESSION_HANDLE_INVALID, CKR_SESSION_CLOSED);
}

/* Private session objects made while the user logs out: each made
 * before the logout is destroyed by it, each after is refused. */
static void
test_logout_races_create(void **state)
{
	(void)state;
	races(1, CKR_USER_NOT_LOGGED_IN, CKR_USER_NOT_LOGGED_IN);
}

/* ------------------------------- a session key destroyed while in use */

static atomic_int key_destroyed;

struct signer {
	pthread_t thread;
	CK_OBJECT_HANDLE key;
	unsigned long signed_after; /* signatures begun after the destroy */
	unsigned long errors;
	CK_RV rv;
};

static void *
signer_main(void *arg)
{
	struct signer *g = arg;
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
	CK_BYTE mac[32];
	int spins = 0;

	if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h) !=
	    CKR_OK) {
		g->errors++;
		return NULL;
	}
	for (;;) {
		int gone = atomic_load(&key_destroyed);
		CK_ULONG len = sizeof(mac);
		CK_RV rv = p11->C_SignInit(h, &m, g->key);

		if (rv == CKR_OK) {
			rv = p11->C_Sign(h, (CK_BYTE_PTR)"abc", 3, mac, &len);
			if (rv != CKR_OK && g->errors++ == 0)
				g->rv = rv;
			if (gone)
				g->signed_after++;
		} else if (rv != CKR_KEY_HANDLE_INVALID) {
			if (g->errors++ == 0)
				g->rv = rv;
		}
		if (gone && ++spins > 50)
			break;
	}
	p11->C_CloseSession(h);
	return NULL;
}

static void
test_destroy_key_in_use(void **state)
{
	CK_MECHANISM gen = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};
	struct signer g[3];
	CK_OBJECT_HANDLE key;
	struct timespec ts = { 0, 50000000 };
	int i;

	(void)state;
	memset(g, 0, sizeof(g));
	atomic_store(&key_destroyed, 0);
	assert_rv(p11->C_GenerateKey(main_h, &gen, t, 3, &key), CKR_OK);
	for (i = 0; i < 3; i++) {
		g[i].key = key;
		assert_int_equal(pthread_create(&g[i].thread, NULL,
		    signer_main, &g[i]), 0);
	}
	nanosleep(&ts, NULL);
	assert_rv(p11->C_DestroyObject(main_h, key), CKR_OK);
	atomic_store(&key_destroyed, 1);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pthread_join(g[i].thread, NULL), 0);
		if (g[i].errors != 0)
			fail_msg("signer %d: %lu errors, first %s", i,
			    g[i].errors, p11_rv_name(g[i].rv));
		assert_int_equal(g[i].signed_after, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_make_find_destroy, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_close_races_create, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_logout_races_create,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_key_in_use, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
