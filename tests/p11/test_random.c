/*
 * Random number generation [PKCS#11 3.2 §5.17]: C_GenerateRandom and
 * C_SeedRandom; each thread has a generator of its own (issue 23): no two
 * threads, and no parent and child after fork(), give the same bytes, and
 * a thread's generator survives C_Finalize and C_Initialize reseeded.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"

#define BIG 100000

static CK_SESSION_HANDLE sess;

static int
setup(void **state)
{
	if (p11_group_init(state) != 0)
		return -1;
	return p11->C_OpenSession(p11_slot(), CKF_SERIAL_SESSION, NULL, NULL,
		   &sess) == CKR_OK
	    ? 0
	    : -1;
}

static unsigned
popcount8(unsigned char b)
{
	unsigned n = 0;

	for (; b != 0; b >>= 1)
		n += b & 1;
	return n;
}

static void
test_generate_sizes(void **state)
{
	CK_BYTE a[32], b[32], one[1];
	CK_BYTE sentinel[4] = { 0xa5, 0xa5, 0xa5, 0xa5 };
	int i, differ = 0;

	(void)state;
	/* Zero bytes: nothing written, NULL accepted. */
	memcpy(a, sentinel, sizeof(sentinel));
	assert_rv(p11->C_GenerateRandom(sess, a, 0), CKR_OK);
	assert_memory_equal(a, sentinel, sizeof(sentinel));
	assert_rv(p11->C_GenerateRandom(sess, NULL, 0), CKR_OK);

	/* One byte, and only one byte written. */
	{
		CK_BYTE buf[2] = { 0, 0x77 };

		for (i = 0; i < 64; i++) {
			assert_rv(p11->C_GenerateRandom(sess, buf, 1), CKR_OK);
			assert_int_equal(buf[1], 0x77);
			differ |= buf[0] != 0;
		}
		/* 64 zero bytes in a row would be a broken generator. */
		assert_true(differ);
	}
	assert_rv(p11->C_GenerateRandom(sess, one, sizeof(one)), CKR_OK);

	/* 32 bytes twice: different. */
	assert_rv(p11->C_GenerateRandom(sess, a, sizeof(a)), CKR_OK);
	assert_rv(p11->C_GenerateRandom(sess, b, sizeof(b)), CKR_OK);
	assert_memory_not_equal(a, b, sizeof(a));
}

static void
test_generate_big(void **state)
{
	unsigned char *x = malloc(BIG + 1), *y = malloc(BIG);
	unsigned long ones = 0, counts[256] = { 0 };
	size_t i, maxcount = 0;

	(void)state;
	assert_non_null(x);
	assert_non_null(y);
	x[BIG] = 0x3c;
	assert_rv(p11->C_GenerateRandom(sess, x, BIG), CKR_OK);
	assert_int_equal(x[BIG], 0x3c);
	assert_rv(p11->C_GenerateRandom(sess, y, BIG), CKR_OK);
	assert_memory_not_equal(x, y, BIG);

	for (i = 0; i < BIG; i++) {
		ones += popcount8(x[i]);
		counts[x[i]]++;
	}
	/* 800000 bits: mean 400000, sigma about 447; allow 7 sigma. */
	if (ones < 400000 - 3200 || ones > 400000 + 3200)
		fail_msg("%lu one bits in 800000", ones);
	/* Not all bytes equal, and no byte value far more common than
	 * expected (mean 390.6, sigma about 19.7). */
	for (i = 0; i < 256; i++)
		if (counts[i] > maxcount)
			maxcount = counts[i];
	assert_true(maxcount < 391 + 160);
	/* No long stretch of the output repeats at a small offset. */
	assert_memory_not_equal(x, x + 16, 1024);
	assert_memory_not_equal(x, x + BIG / 2, 1024);
	free(x);
	free(y);
}

static void
test_generate_args(void **state)
{
	CK_SESSION_HANDLE bad[P11_NBAD_SESSIONS];
	CK_BYTE buf[16];
	int i;

	(void)state;
	assert_rv(p11->C_GenerateRandom(sess, NULL, 16), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GenerateRandom(sess, NULL, 1), CKR_ARGUMENTS_BAD);
	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++)
		assert_rv(p11->C_GenerateRandom(bad[i], buf, sizeof(buf)),
		    CKR_SESSION_HANDLE_INVALID);
}

static void
test_seed(void **state)
{
	static const CK_BYTE seed[32] = "vgtoken test seed, 32 bytes....";
	CK_BYTE a[64], b[64], c[64];

	(void)state;
	/* The same input mixed in twice does not make the output repeat:
	 * it is added to the generator's state, never a replacement. */
	assert_rv(p11->C_SeedRandom(sess, (CK_BYTE_PTR)seed, sizeof(seed)),
	    CKR_OK);
	assert_rv(p11->C_GenerateRandom(sess, a, sizeof(a)), CKR_OK);
	assert_rv(p11->C_SeedRandom(sess, (CK_BYTE_PTR)seed, sizeof(seed)),
	    CKR_OK);
	assert_rv(p11->C_GenerateRandom(sess, b, sizeof(b)), CKR_OK);
	assert_memory_not_equal(a, b, sizeof(a));

	/* A second session seeded alike gives yet other bytes. */
	{
		CK_SESSION_HANDLE h = p11_open(0);

		assert_rv(p11->C_SeedRandom(h, (CK_BYTE_PTR)seed, sizeof(seed)),
		    CKR_OK);
		assert_rv(p11->C_GenerateRandom(h, c, sizeof(c)), CKR_OK);
		assert_memory_not_equal(a, c, sizeof(a));
		assert_memory_not_equal(b, c, sizeof(b));
		assert_rv(p11->C_CloseSession(h), CKR_OK);
	}

	/* Zero length is accepted, with or without a pointer. */
	assert_rv(p11->C_SeedRandom(sess, NULL, 0), CKR_OK);
	assert_rv(p11->C_SeedRandom(sess, (CK_BYTE_PTR)seed, 0), CKR_OK);
	/* A large seed. */
	{
		static CK_BYTE large[65536];

		memset(large, 0x11, sizeof(large));
		assert_rv(p11->C_SeedRandom(sess, large, sizeof(large)), CKR_OK);
	}
	assert_rv(p11->C_GenerateRandom(sess, a, sizeof(a)), CKR_OK);
	assert_memory_not_equal(a, b, sizeof(a));
}

static void
test_seed_args(void **state)
{
	CK_SESSION_HANDLE bad[P11_NBAD_SESSIONS];
	CK_BYTE buf[16] = { 0 };
	int i;

	(void)state;
	assert_rv(p11->C_SeedRandom(sess, NULL, 16), CKR_ARGUMENTS_BAD);
	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++)
		assert_rv(p11->C_SeedRandom(bad[i], buf, sizeof(buf)),
		    CKR_SESSION_HANDLE_INVALID);
}

#define NTHR 4
#define PER_THR 64

struct rthr {
	CK_SESSION_HANDLE h;
	CK_BYTE out[PER_THR][16];
	CK_RV rv;
};

static void *
rthr_main(void *arg)
{
	struct rthr *t = arg;
	int i;

	for (i = 0; i < PER_THR && t->rv == CKR_OK; i++)
		t->rv = p11->C_GenerateRandom(t->h, t->out[i],
		    sizeof(t->out[i]));
	return NULL;
}

/* Threads in sessions of their own, then again after the threads of the
 * first round have exited and the module was finalised and initialised
 * again: every 16-byte block differs from every other. */
static void
test_threads_distinct(void **state)
{
	static struct rthr t[2][NTHR];
	pthread_t tid[NTHR];
	int r, i, j, a, b;

	(void)state;
	memset(t, 0, sizeof(t));
	for (r = 0; r < 2; r++) {
		if (r == 1) {
			assert_rv(p11->C_Finalize(NULL), CKR_OK);
			assert_rv(p11->C_Initialize(NULL), CKR_OK);
			assert_rv(p11->C_OpenSession(p11_slot(),
			    CKF_SERIAL_SESSION, NULL, NULL, &sess), CKR_OK);
		}
		for (i = 0; i < NTHR; i++) {
			assert_rv(p11->C_OpenSession(p11_slot(),
			    CKF_SERIAL_SESSION, NULL, NULL, &t[r][i].h), CKR_OK);
			assert_int_equal(pthread_create(&tid[i], NULL,
			    rthr_main, &t[r][i]), 0);
		}
		for (i = 0; i < NTHR; i++) {
			pthread_join(tid[i], NULL);
			assert_rv(t[r][i].rv, CKR_OK);
			assert_rv(p11->C_CloseSession(t[r][i].h), CKR_OK);
		}
	}
	for (a = 0; a < 2 * NTHR * PER_THR; a++)
		for (b = a + 1; b < 2 * NTHR * PER_THR; b++) {
			i = a / PER_THR;
			j = b / PER_THR;
			assert_memory_not_equal(
			    t[i / NTHR][i % NTHR].out[a % PER_THR],
			    t[j / NTHR][j % NTHR].out[b % PER_THR], 16);
		}
}

/* fork() after this thread has drawn: the child (after its own
 * C_Initialize) and the parent draw different bytes. */
static void
test_fork_differs(void **state)
{
	CK_BYTE mine[32], theirs[32];
	CK_SESSION_HANDLE h;
	int fds[2], st;
	pid_t pid;

	(void)state;
	assert_rv(p11->C_GenerateRandom(sess, mine, sizeof(mine)), CKR_OK);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int bad = p11->C_Initialize(NULL) != CKR_OK ||
		    p11->C_OpenSession(p11_slot(), CKF_SERIAL_SESSION, NULL,
		    NULL, &h) != CKR_OK ||
		    p11->C_GenerateRandom(h, theirs, sizeof(theirs)) != CKR_OK ||
		    write(fds[1], theirs, sizeof(theirs)) != sizeof(theirs);

		p11->C_Finalize(NULL);
		_exit(bad);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], theirs, sizeof(theirs)), sizeof(theirs));
	close(fds[0]);
	assert_rv(p11->C_GenerateRandom(sess, mine, sizeof(mine)), CKR_OK);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_memory_not_equal(mine, theirs, sizeof(mine));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generate_sizes),
		cmocka_unit_test(test_generate_big),
		cmocka_unit_test(test_generate_args),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_seed_args),
		cmocka_unit_test(test_threads_distinct),
		cmocka_unit_test(test_fork_differs),
	};

	return cmocka_run_group_tests_name("p11 random", tests, setup,
	    p11_group_fini);
}
