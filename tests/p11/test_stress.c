/*
 * Several processes on one token, and writers killed at random points.
 *
 * Concurrency: 4 processes x 2 threads create, find, read and destroy
 * token objects for VG_STRESS_SECONDS (default 20). Each thread logs what
 * it was told was created and destroyed; at the end exactly the objects
 * created and not destroyed are on the token, and SQLite's integrity
 * check passes.
 *
 * Crash safety: a writer creating objects is killed with SIGKILL at a
 * random moment, VG_CRASH_ROUNDS times (default 30); after each kill the
 * database opens, passes the integrity check, and holds every object whose
 * C_CreateObject had returned CKR_OK.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/p11/common.h"

#define NPROC 4
#define NTHREAD 2

static char dir[64];
static CK_SLOT_ID slot;
static CK_OBJECT_CLASS data_class = CKO_DATA;

static unsigned
env_or(const char *name, unsigned dflt)
{
	const char *v = getenv(name);

	return v != NULL && atoi(v) > 0 ? (unsigned)atoi(v) : dflt;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A token on a database of the test's own, the module finalised: the
 * tests start their processes from there. Eight writers at once: give
 * them time to take turns. */
static int
setup(void **state)
{
	(void)state;
	if (p11_fresh_token(dir, "busy_timeout_ms = 30000\n", "stress",
	    &slot) != 0)
		return -1;
	return p11->C_Finalize(NULL) == CKR_OK ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static CK_RV
create(CK_SESSION_HANDLE h, const char *label, CK_BBOOL private_obj,
    CK_OBJECT_HANDLE *o)
{
	CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data_class, sizeof(data_class) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &private_obj, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_VALUE, (void *)label, strlen(label) },
	};

	return p11->C_CreateObject(h, t, 5, o);
}

/* Finds by label; returns the count and the first handle. */
static CK_RV
find_label(CK_SESSION_HANDLE h, const char *label, CK_ULONG *count,
    CK_OBJECT_HANDLE *o)
{
	CK_ATTRIBUTE t = { CKA_LABEL, (void *)label, strlen(label) };
	CK_OBJECT_HANDLE found[4];
	CK_RV rv;

	rv = p11->C_FindObjectsInit(h, &t, 1);
	if (rv == CKR_OK)
		rv = p11->C_FindObjects(h, found, 4, count);
	if (rv == CKR_OK)
		rv = p11->C_FindObjectsFinal(h);
	if (rv == CKR_OK && *count > 0)
		*o = found[0];
	return rv;
}

struct worker {
	int proc, thread;
	double until;
	FILE *log;
	unsigned errors, created, destroyed;
};

#define CHECK(w, expr, what)                                                \
	do {                                                                \
		CK_RV rv_ = (expr);                                         \
		if (rv_ != CKR_OK && rv_ != CKR_USER_ALREADY_LOGGED_IN) {   \
			fprintf(stderr, "p%d t%d: %s: %s\n", (w)->proc,      \
			    (w)->thread, what, p11_rv_name(rv_));            \
			(w)->errors++;                                      \
			goto out;                                           \
		}                                                           \
	} while (0)

static void *
work(void *arg)
{
	struct worker *w = arg;
	CK_SESSION_HANDLE h = CK_INVALID_HANDLE;
	unsigned i;

	CHECK(w, p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), "open");
	CHECK(w, p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), "login");
	for (i = 0; now() < w->until; i++) {
		char label[64], value[64];
		CK_OBJECT_HANDLE o = 0, f = 0;
		CK_ATTRIBUTE get = { CKA_VALUE, value, sizeof(value) };
		CK_ULONG n = 0;

		snprintf(label, sizeof(label), "p%d-t%d-%u", w->proc,
		    w->thread, i);
		CHECK(w, create(h, label, (CK_BBOOL)(i & 1), &o), "create");
		fprintf(w->log, "C %s\n", label);
		w->created++;
		CHECK(w, find_label(h, label, &n, &f), "find");
		if (n != 1 || f != o) {
			fprintf(stderr, "%s: found %lu\n", label,
			    (unsigned long)n);
			w->errors++;
		}
		CHECK(w, p11->C_GetAttributeValue(h, o, &get, 1), "read");
		if (get.ulValueLen != strlen(label) ||
		    memcmp(value, label, get.ulValueLen) != 0) {
			fprintf(stderr, "%s: wrong value\n", label);
			w->errors++;
		}
		if (i % 3 == 0) {
			CHECK(w, p11->C_DestroyObject(h, o), "destroy");
			fprintf(w->log, "D %s\n", label);
			w->destroyed++;
		}
	}
out:
	fflush(w->log);
	if (h != CK_INVALID_HANDLE)
		p11->C_CloseSession(h);
	return NULL;
}

/* One process of the concurrency test; exits with the error count. */
static void
child(int proc, double until)
{
	struct worker w[NTHREAD];
	pthread_t t[NTHREAD];
	unsigned errors = 0;
	char path[128];
	int i;

	if (p11->C_Initialize(NULL) != CKR_OK)
		_exit(100);
	for (i = 0; i < NTHREAD; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].proc = proc;
		w[i].thread = i;
		w[i].until = until;
		snprintf(path, sizeof(path), "%s/log-%d-%d", dir, proc, i);
		w[i].log = fopen(path, "w");
		if (w[i].log == NULL)
			_exit(101);
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (i = 0; i < NTHREAD; i++) {
		pthread_join(t[i], NULL);
		errors += w[i].errors;
		fclose(w[i].log);
	}
	p11->C_Finalize(NULL);
	_exit(errors > 99 ? 99 : (int)errors);
}

/* Labels of every data object on the token (the user logged in), one
 * per line, into a file; returns the count. */
static size_t
dump_labels(const char *path)
{
	CK_SESSION_HANDLE h;
	CK_ATTRIBUTE t = { CKA_CLASS, &data_class, sizeof(data_class) };
	CK_OBJECT_HANDLE o[256];
	CK_ULONG n, i;
	size_t total = 0;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL, &h),
	    CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_rv(p11->C_FindObjectsInit(h, &t, 1), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h, o, 256, &n), CKR_OK);
		for (i = 0; i < n; i++) {
			char label[64];
			CK_ATTRIBUTE get = { CKA_LABEL, label,
				sizeof(label) - 1 };

			assert_rv(p11->C_GetAttributeValue(h, o[i], &get, 1),
			    CKR_OK);
			label[get.ulValueLen] = '\0';
			fprintf(f, "%s\n", label);
		}
		total += n;
	} while (n > 0);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	fclose(f);
	return total;
}

static void
integrity_ok(void)
{
	char path[128];
	sqlite3 *db;
	sqlite3_stmt *st;

	snprintf(path, sizeof(path), "%s/vgtoken/vgtoken.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* Runs a shell command and asserts it succeeds. */
static void
sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

static void
test_processes(void **state)
{
	unsigned seconds = env_or("VG_STRESS_SECONDS", 20);
	double until = now() + seconds;
	pid_t pids[NPROC];
	char path[96];
	size_t left;
	int i, status;

	(void)state;
	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0)
			child(i, until);
	}
	for (i = 0; i < NPROC; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	/* What the workers were told is there, exactly. */
	sh("cat '%s'/log-* | awk '$1==\"C\"{c[$2]=1} $1==\"D\"{delete c[$2]} "
	    "END{for (k in c) print k}' | sort > '%s/expected'", dir, dir);
	assert_rv(p11->C_Initialize(NULL), CKR_OK);
	snprintf(path, sizeof(path), "%s/actual.unsorted", dir);
	left = dump_labels(path);
	sh("sort '%s/actual.unsorted' > '%s/actual' && cmp -s '%s/expected' "
	    "'%s/actual'", dir, dir, dir, dir);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
	integrity_ok();
	printf("# %u s, %zu objects left on the token\n", seconds, left);
	assert_true(left > 0);
}

/* The writer of the crash test: creates objects and reports each one
 * whose creation returned CKR_OK on fd, until killed. */
static void
writer(int fd)
{
	CK_SESSION_HANDLE h;
	CK_OBJECT_HANDLE o;
	char label[64];
	unsigned i;

	if (p11->C_Initialize(NULL) != CKR_OK ||
	    p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL,
	    NULL, &h) != CKR_OK ||
	    p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		_exit(1);
	for (i = 0;; i++) {
		int len = snprintf(label, sizeof(label), "w%d-%u\n",
		    (int)getpid(), i);

		label[len - 1] = '\0';
		if (create(h, label, (CK_BBOOL)(i & 1), &o) != CKR_OK)
			_exit(2);
		label[len - 1] = '\n';
		if (write(fd, label, (size_t)len) != len)
			_exit(3);
	}
}

static void
test_crashes(void **state)
{
	unsigned rounds = env_or("VG_CRASH_ROUNDS", 30), r;
	char reported[96], actual[96];
	struct p11_rng rng;

	(void)state;
	p11_rng_seed(&rng, 7);
	snprintf(reported, sizeof(reported), "%s/reported", dir);
	snprintf(actual, sizeof(actual), "%s/actual", dir);
	for (r = 0; r < rounds; r++) {
		int fds[2], status;
		pid_t pid;
		FILE *out = fopen(reported, "a");
		char buf[4096];
		ssize_t n;

		assert_non_null(out);
		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			writer(fds[1]);
		}
		close(fds[1]);
		usleep((useconds_t)(20000 + p11_rng_below(&rng, 200000)));
		kill(pid, SIGKILL);
		while ((n = read(fds[0], buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, out);
		close(fds[0]);
		fclose(out);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));

		integrity_ok();
		assert_rv(p11->C_Initialize(NULL), CKR_OK);
		dump_labels(actual);
		assert_rv(p11->C_Finalize(NULL), CKR_OK);
		/* Every reported label is on the token. */
		sh("sort -o '%s' '%s' && sort -o '%s' '%s' && "
		    "test -z \"$(comm -23 '%s' '%s')\"", reported, reported,
		    actual, actual, reported, actual);
	}
	printf("# %u kills, no committed object lost\n", rounds);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_processes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_crashes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
