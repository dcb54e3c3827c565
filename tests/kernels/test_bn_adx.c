/*
 * The parts of the 8x8-tile MULX/ADX Montgomery kernels
 * (crypto/x86_64/vg_bn_mont8x_adx.c) and the AVX2 table read
 * (crypto/x86_64/vg_bn_select_avx2.c) against plain C references, exactly:
 * the product, the square's triangle, the reduction (with its top word)
 * and the masked subtraction for every n = 8, 16, ..., 64 on random and
 * edge inputs (0, all-ones words, moduli with top word 1 and all ones);
 * the callee-saved registers across each assembly function; the table
 * read for every entry and word count. The full kernels are compared with
 * their C twins in test_rsa_kernels.c. Parts the CPU cannot run are
 * skipped with a printed reason. VG_TEST_SEED=<n> replays a run.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bn.h"
#include "crypto/cpu.h"
#include "crypto/rsa_kernels.h"
#include "tests/xorshift.h"
#ifdef VG_HAVE_RSA_X86_64_KERNELS
#include "tests/kernels/call_checked.h"
#endif

#ifdef VG_HAVE_RSA_X86_64_KERNELS

#define MAXW VG_BN_MAX_WORDS

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

/* x (n words) of kind 0: zero, 1: all ones, 2: top word 1, else random. */
static void
value(uint64_t *x, size_t n, int kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = kind == 0 ? 0 : (kind == 1 ? ~(uint64_t)0 : rnd());
	if (kind == 2) {
		x[n - 1] = 1;
		x[0] |= 1;
	}
}

static uint64_t
neg_inv64(uint64_t m0)
{
	return vg_test_neg_inv64(m0);
}

static int
have(unsigned need, const char *what)
{
	if ((vg_cpu_detected() & need) == need)
		return 1;
	printf("# skipped: this CPU has no %s, so that kernel cannot run "
	    "here\n", what);
	return 0;
}

#define HAVE_ADX() have(VG_CPU_BMI2 | VG_CPU_ADX, "BMI2/ADX (MULX, ADCX, ADOX)")

static void
test_mul8x(void **state)
{
	uint64_t a[MAXW], b[MAXW], t[2 * MAXW + 1], want[2 * MAXW];
	size_t n;
	int r;

	(void)state;
	if (!HAVE_ADX()) {
		skip();
		return;
	}
	for (n = 8; n <= MAXW; n += 8)
		for (r = 0; r < 12; r++) {
			value(a, n, r % 4);
			value(b, n, (r / 4 + r) % 4);
			vg_bn_mul(want, a, n, b, n);
			memset(t, 0x5a, sizeof(t));
			vg_bn_mul8x_adx(t, a, b, n);
			assert_memory_equal(t, want, 2 * n * sizeof(uint64_t));
		}
}

/* The triangle sum a[i] a[j] 2^(64(i+j)), i < j, by rows. */
static void
triangle(uint64_t *t, const uint64_t *a, size_t n)
{
	size_t i;

	vg_bn_zero(t, 2 * n);
	for (i = 0; i + 1 < n; i++)
		t[i + n] = vg_bn_muladd_word(t + 2 * i + 1, a + i + 1, a[i],
		    n - i - 1);
}

static void
test_sqrtri8x(void **state)
{
	uint64_t a[MAXW], t[2 * MAXW + 1], want[2 * MAXW];
	size_t n;
	int r;

	(void)state;
	if (!HAVE_ADX()) {
		skip();
		return;
	}
	for (n = 8; n <= MAXW; n += 8)
		for (r = 0; r < 8; r++) {
			value(a, n, r % 4);
			triangle(want, a, n);
			memset(t, 0xa5, sizeof(t));
			vg_bn_sqrtri8x_adx(t, a, n);
			assert_memory_equal(t, want, 2 * n * sizeof(uint64_t));
		}
}

/* Word-by-word reduction of t (2n words): t += Y m, returns the top word
 * (column 2n). */
static uint64_t
redc_ref(uint64_t *t, const uint64_t *m, uint64_t m0i, size_t n)
{
	uint64_t top = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t c = vg_bn_muladd_word(t + i, m, t[i] * m0i, n);
		unsigned __int128 s = (unsigned __int128)t[i + n] + c + top;

		t[i + n] = (uint64_t)s;
		top = (uint64_t)(s >> 64);
	}
	return top;
}

static void
test_redc8x(void **state)
{
	uint64_t m[MAXW], t[2 * MAXW + 1], want[2 * MAXW], top1, top2;
	size_t n;
	int r, tops = 0;

	(void)state;
	if (!HAVE_ADX()) {
		skip();
		return;
	}
	for (n = 8; n <= MAXW; n += 8)
		for (r = 0; r < 16; r++) {
			uint64_t m0i;

			/* moduli: random, top word 1, all ones */
			value(m, n, (r % 3 == 1) ? 2 : 3);
			if (r % 3 == 2)
				memset(m, 0xff, n * sizeof(uint64_t));
			m[0] |= 1;
			m0i = neg_inv64(m[0]);
			/* t: random, all ones (the largest carries), zero,
			 * and a product of values below R */
			value(t, 2 * n, r % 4 == 3 ? 3 : r % 4);
			memcpy(want, t, 2 * n * sizeof(uint64_t));
			top1 = redc_ref(want, m, m0i, n);
			top2 = vg_bn_redc8x_adx(t, m, n, m0i);
			assert_int_equal(top1, top2);
			tops += (int)top2;
			assert_memory_equal(t + n, want + n,
			    n * sizeof(uint64_t));
		}
	/* all-ones t against all-ones m carries out */
	assert_true(tops > 0);
}

static void
test_csub(void **state)
{
	uint64_t t[MAXW], m[MAXW], d[MAXW], want[MAXW], br1, br2;
	size_t n;
	int r;

	(void)state;
	if (!HAVE_ADX()) {
		skip();
		return;
	}
	for (n = 4; n <= MAXW; n += 4)
		for (r = 0; r < 12; r++) {
			uint64_t mask = (r & 1) ? ~(uint64_t)0 : 0;

			value(t, n, (r / 2) % 4);
			value(m, n, (r / 2 + 1) % 4);
			vg_bn_copy(want, t, n);
			br1 = vg_bn_csub(want, m, n, mask);
			br2 = vg_bn_csub_adx(d, t, m, mask, n);
			assert_int_equal(br1, br2);
			assert_memory_equal(d, want, n * sizeof(uint64_t));
			/* in place */
			br2 = vg_bn_csub_adx(t, t, m, mask, n);
			assert_int_equal(br1, br2);
			assert_memory_equal(t, want, n * sizeof(uint64_t));
		}
}

static void
test_select_avx2(void **state)
{
	static uint64_t table[32 * MAXW];
	uint64_t d1[MAXW], d2[MAXW];
	size_t n, idx;

	(void)state;
	if (!have(VG_CPU_AVX2, "AVX2")) {
		skip();
		return;
	}
	for (n = 4; n <= MAXW; n += 4) {
		value(table, 32 * n, 3);
		for (idx = 0; idx <= 32; idx++) {
			vg_bn_table_select_c(d1, table, 32, n, idx);
			memset(d2, 0x77, sizeof(d2));
			vg_bn_table_select_avx2(d2, table, 32, n, idx);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			if (idx < 32)
				assert_memory_equal(d2, table + idx * n,
				    n * sizeof(uint64_t));
		}
	}
}

static void
call_checked(void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
    uint64_t a4, uint64_t *ret)
{
	struct call_frame f;

	memset(&f, 0, sizeof(f));
	f.fn = fn;
	f.arg[0] = a0;
	f.arg[1] = a1;
	f.arg[2] = a2;
	f.arg[3] = a3;
	f.arg[4] = a4;
	call_checked_frame(&f);
	if (ret != NULL)
		*ret = f.ret;
}

static void
test_callee_saved(void **state)
{
	uint64_t a[32], b[32], m[32], t[65], want[64], top;
	size_t n = 32;

	(void)state;
	if (!HAVE_ADX()) {
		skip();
		return;
	}
	value(a, n, 3);
	value(b, n, 3);
	value(m, n, 3);
	m[0] |= 1;
	call_checked((void *)(uintptr_t)vg_bn_mul8x_adx, (uintptr_t)t,
	    (uintptr_t)a, (uintptr_t)b, n, 0, NULL);
	vg_bn_mul(want, a, n, b, n);
	assert_memory_equal(t, want, sizeof(want));
	call_checked((void *)(uintptr_t)vg_bn_redc8x_adx, (uintptr_t)t,
	    (uintptr_t)m, n, neg_inv64(m[0]), 0, &top);
	assert_int_equal(top, redc_ref(want, m, neg_inv64(m[0]), n));
	assert_memory_equal(t + n, want + n, n * sizeof(uint64_t));
	call_checked((void *)(uintptr_t)vg_bn_sqrtri8x_adx, (uintptr_t)t,
	    (uintptr_t)a, n, 0, 0, NULL);
	triangle(want, a, n);
	assert_memory_equal(t, want, sizeof(want));
	call_checked((void *)(uintptr_t)vg_bn_csub_adx, (uintptr_t)t,
	    (uintptr_t)a, (uintptr_t)b, ~(uint64_t)0, n, &top);
	vg_bn_copy(want, a, n);
	assert_int_equal(top, vg_bn_sub(want, want, b, n));
	assert_memory_equal(t, want, n * sizeof(uint64_t));
}
#endif

#ifndef VG_HAVE_RSA_X86_64_KERNELS
static void
test_none(void **state)
{
	(void)state;
	skip();
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
#ifndef VG_HAVE_RSA_X86_64_KERNELS
		cmocka_unit_test(test_none),
#else
		cmocka_unit_test(test_mul8x),
		cmocka_unit_test(test_sqrtri8x),
		cmocka_unit_test(test_redc8x),
		cmocka_unit_test(test_csub),
		cmocka_unit_test(test_select_avx2),
		cmocka_unit_test(test_callee_saved),
#endif
	};
	const char *seed = getenv("VG_TEST_SEED");

#ifdef VG_HAVE_RSA_X86_64_KERNELS
	if (seed != NULL)
		rng_state = strtoull(seed, NULL, 0) | 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
#else
	(void)seed;
	printf("# skipped: no x86-64 kernels in this build\n");
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
