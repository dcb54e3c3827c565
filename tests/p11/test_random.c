/*
 * Random number generation [PKCS#11 3.2 §5.17]: C_GenerateRandom and
 * C_SeedRandom.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generate_sizes),
		cmocka_unit_test(test_generate_big),
		cmocka_unit_test(test_generate_args),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_seed_args),
	};

	return cmocka_run_group_tests_name("p11 random", tests, setup,
	    p11_group_fini);
}
