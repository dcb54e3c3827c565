/*
 * The RSA kernels against their portable twins: the 64-bit Montgomery
 * multiply and square (C, MULX/ADX; tests/kernels/test_rsa_amm52.c has
 * the radix-2^52 ones) on random and edge inputs (0, 1, m - 1, values
 * just below R, moduli with top word 1), each also checked against a plain reference (a b = d R
 * mod m by long division); the callee-saved registers across the ADX
 * assembly; and the kernel choice for each feature set. Kernels the CPU
 * lacks are skipped with a printed reason. VG_TEST_SEED=<n> replays a run.
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

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_words(uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = rnd();
}

/* A random value below m (n words), or an edge value by kind. */
static void
operand(uint64_t *x, const uint64_t *m, size_t n, int kind)
{
	uint64_t t[VG_BN_MAX_WORDS];

	vg_bn_zero(x, n);
	switch (kind) {
	case 0: /* zero */
		break;
	case 1:
		x[0] = 1;
		break;
	case 2: /* m - 1 */
		vg_bn_copy(x, m, n);
		x[0] -= 1;
		break;
	default:
		rnd_words(t, n);
		vg_bn_divmod(NULL, x, t, n, m, n);
		break;
	}
}

/* A random odd modulus of n words; top: the top word (0: random, with
 * the top bit set half the time). */
static void
modulus(uint64_t *m, size_t n, uint64_t top)
{
	rnd_words(m, n);
	m[0] |= 1;
	if (top != 0)
		m[n - 1] = top;
	else if (rnd() & 1)
		m[n - 1] |= (uint64_t)1 << 63;
	if (m[n - 1] == 0)
		m[n - 1] = 1;
}

static uint64_t
neg_inv64(uint64_t m0)
{
	return vg_test_neg_inv64(m0);
}

/* Checks d R = a b (mod m), d < m, for R = 2^(64 rbits_words). */
static void
check_mont(const uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n)
{
	uint64_t ab[2 * VG_BN_MAX_WORDS], dr[2 * VG_BN_MAX_WORDS];
	uint64_t r1[VG_BN_MAX_WORDS], r2[VG_BN_MAX_WORDS];

	assert_true(vg_bn_lt_mask(d, m, n) != 0);
	vg_bn_mul(ab, a, n, b, n);
	vg_bn_divmod(NULL, r1, ab, 2 * n, m, n);
	vg_bn_zero(dr, n);
	vg_bn_copy(dr + n, d, n);
	vg_bn_divmod(NULL, r2, dr, 2 * n, m, n);
	assert_memory_equal(r1, r2, n * sizeof(uint64_t));
}

static void
test_montmul_c_reference(void **state)
{
	static const size_t sizes[] = { 1, 2, 4, 8, 16, 24, 32, 48, 64 };
	uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS];
	uint64_t d[VG_BN_MAX_WORDS], s[VG_BN_MAX_WORDS];
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];

		for (r = 0; r < 12; r++) {
			uint64_t m0i;

			modulus(m, n, r == 1 ? 1 : 0);
			m0i = neg_inv64(m[0]);
			operand(a, m, n, (int)(r % 5));
			operand(b, m, n, (int)((r / 2) % 5));
			vg_bn_montmul_c(d, a, b, m, m0i, n);
			check_mont(d, a, b, m, n);
			vg_bn_montsqr_c(s, a, m, m0i, n);
			check_mont(s, a, a, m, n);
			/* a just below R (any a < R is allowed) */
			memset(a, 0xff, n * sizeof(uint64_t));
			vg_bn_montmul_c(d, a, b, m, m0i, n);
			check_mont(d, a, b, m, n);
		}
	}
}

/*
 * Checks that d is the almost-Montgomery result for a, b < R: with
 * t = (a b + Y m) / R, Y in [0, R), d = t - m if t >= R, else t. From
 * d alone: d R = a b (mod m), and either d R >= a b with d R - a b < m R
 * (then d = t < R) or d R < a b with d + m >= R (then t = d + m >= R).
 */
static void
check_amm64(const uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n)
{
	uint64_t ab[2 * VG_BN_MAX_WORDS], dr[2 * VG_BN_MAX_WORDS];
	uint64_t x[2 * VG_BN_MAX_WORDS], mr[2 * VG_BN_MAX_WORDS];
	uint64_t r1[VG_BN_MAX_WORDS], r2[VG_BN_MAX_WORDS];

	vg_bn_mul(ab, a, n, b, n);
	vg_bn_zero(dr, n);
	vg_bn_copy(dr + n, d, n);
	vg_bn_divmod(NULL, r1, ab, 2 * n, m, n);
	vg_bn_divmod(NULL, r2, dr, 2 * n, m, n);
	assert_memory_equal(r1, r2, n * sizeof(uint64_t));
	if (vg_bn_sub(x, dr, ab, 2 * n) == 0) {
		vg_bn_zero(mr, n);
		vg_bn_copy(mr + n, m, n);
		assert_true(vg_bn_lt_mask(x, mr, 2 * n) != 0);
	} else {
		assert_int_equal(vg_bn_add(x, d, m, n), 1);
	}
}

/* An operand for the almost-Montgomery kernels: any value below R. */
static void
operand_r(uint64_t *x, const uint64_t *m, size_t n, int kind)
{
	switch (kind) {
	case 6: /* R - 1 */
		memset(x, 0xff, n * sizeof(uint64_t));
		break;
	case 7: /* just below R */
		memset(x, 0xff, n * sizeof(uint64_t));
		x[0] = rnd();
		break;
	case 8: /* random below R */
		rnd_words(x, n);
		break;
	default:
		operand(x, m, n, kind);
		break;
	}
}

static void
test_amm_c_reference(void **state)
{
	static const size_t sizes[] = { 1, 2, 4, 8, 16, 24, 32, 48, 64 };
	uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS];
	uint64_t d[VG_BN_MAX_WORDS];
	size_t i, r;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];

		for (r = 0; r < 18; r++) {
			uint64_t m0i;

			modulus(m, n, r % 3 == 1 ? 1 : (r % 3 == 2 ? ~0ULL : 0));
			m0i = neg_inv64(m[0]);
			operand_r(a, m, n, (int)(r % 9));
			operand_r(b, m, n, (int)((r + 4) % 9));
			vg_bn_montmul_amm_c(d, a, b, m, m0i, n);
			check_amm64(d, a, b, m, n);
			vg_bn_montsqr_amm_c(d, a, m, m0i, n);
			check_amm64(d, a, a, m, n);
			vg_bn_copy(d, b, n); /* in place */
			vg_bn_montsqr_amm_c(d, d, m, m0i, n);
			check_amm64(d, b, b, m, n);
		}
	}
}

#ifdef VG_HAVE_RSA_X86_64_KERNELS
static int
have(unsigned need, const char *what)
{
	if ((vg_cpu_detected() & need) == need)
		return 1;
	printf("# skipped: this CPU has no %s, so that kernel cannot run "
	    "here\n", what);
	return 0;
}

static void
test_adx_vs_c(void **state)
{
	uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS];
	uint64_t d1[VG_BN_MAX_WORDS], d2[VG_BN_MAX_WORDS];
	size_t n, r;

	(void)state;
	if (!have(VG_CPU_BMI2 | VG_CPU_ADX, "BMI2/ADX (MULX, ADCX, ADOX)")) {
		skip();
		return;
	}
	for (n = 4; n <= VG_BN_MAX_WORDS; n += 4)
		for (r = 0; r < 16; r++) {
			uint64_t m0i;

			modulus(m, n, r == 3 ? 1 : (r == 4 ? ~(uint64_t)0 : 0));
			m0i = neg_inv64(m[0]);
			operand(a, m, n, (int)(r % 6));
			operand(b, m, n, (int)((r + 3) % 6));
			if (r >= 12) /* a just below R */
				memset(a, 0xff, n * sizeof(uint64_t));
			vg_bn_montmul_c(d1, a, b, m, m0i, n);
			vg_bn_montmul_adx(d2, a, b, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			if (r < 12) {
				vg_bn_montsqr_c(d1, a, m, m0i, n);
				vg_bn_montsqr_adx(d2, a, m, m0i, n);
				assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			}
			/* in place */
			vg_bn_copy(d2, a, n);
			vg_bn_montmul_adx(d2, d2, b, m, m0i, n);
			vg_bn_montmul_c(d1, a, b, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
		}
}

/* The almost-Montgomery ADX kernels against their twins, exactly: every
 * edge operand kind (0, 1, m - 1, below m, R - 1, just below R, below R)
 * against each, moduli with top word 1, all ones and random, in place. */
static void
test_adx_amm_vs_c(void **state)
{
	uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS];
	uint64_t d1[VG_BN_MAX_WORDS], d2[VG_BN_MAX_WORDS];
	size_t n, r;

	(void)state;
	if (!have(VG_CPU_BMI2 | VG_CPU_ADX, "BMI2/ADX (MULX, ADCX, ADOX)")) {
		skip();
		return;
	}
	for (n = 4; n <= VG_BN_MAX_WORDS; n += 4)
		for (r = 0; r < 27; r++) {
			uint64_t m0i;

			modulus(m, n, r % 3 == 1 ? 1 : (r % 3 == 2 ? ~0ULL : 0));
			m0i = neg_inv64(m[0]);
			operand_r(a, m, n, (int)(r % 9));
			operand_r(b, m, n, (int)((r / 3) % 9));
			vg_bn_montmul_amm_c(d1, a, b, m, m0i, n);
			vg_bn_montmul_amm_adx(d2, a, b, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			vg_bn_montsqr_amm_c(d1, a, m, m0i, n);
			vg_bn_montsqr_amm_adx(d2, a, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			/* in place: d = a for both, d = b for the multiply */
			vg_bn_copy(d2, a, n);
			vg_bn_montsqr_amm_adx(d2, d2, m, m0i, n);
			vg_bn_montsqr_amm_c(d1, a, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			vg_bn_copy(d2, b, n);
			vg_bn_montmul_amm_adx(d2, a, d2, m, m0i, n);
			vg_bn_montmul_amm_c(d1, a, b, m, m0i, n);
			assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			/* the full-reduction square on the same values */
			if (vg_bn_lt_mask(a, m, n) != 0) {
				vg_bn_montsqr_c(d1, a, m, m0i, n);
				vg_bn_montsqr_adx(d2, a, m, m0i, n);
				assert_memory_equal(d1, d2, n * sizeof(uint64_t));
			}
		}
}

static void
test_adx_callee_saved(void **state)
{
	uint64_t m[32], a[32], b[32], d1[32], d2[32];
	struct call_frame f;
	size_t n = 32;

	(void)state;
	if (!have(VG_CPU_BMI2 | VG_CPU_ADX, "BMI2/ADX")) {
		skip();
		return;
	}
	modulus(m, n, 0);
	operand(a, m, n, 9);
	operand(b, m, n, 9);
	memset(&f, 0, sizeof(f));
	f.fn = (void *)(uintptr_t)vg_bn_montmul_adx;
	f.arg[0] = (uintptr_t)d1;
	f.arg[1] = (uintptr_t)a;
	f.arg[2] = (uintptr_t)b;
	f.arg[3] = (uintptr_t)m;
	f.arg[4] = neg_inv64(m[0]);
	f.arg[5] = n;
	call_checked_frame(&f);
	vg_bn_montmul_c(d2, a, b, m, neg_inv64(m[0]), n);
	assert_memory_equal(d1, d2, sizeof(d1));

	f.fn = (void *)(uintptr_t)vg_bn_montsqr_adx;
	f.arg[2] = (uintptr_t)m;
	f.arg[3] = neg_inv64(m[0]);
	f.arg[4] = n;
	call_checked_frame(&f);
	vg_bn_montsqr_c(d2, a, m, neg_inv64(m[0]), n);
	assert_memory_equal(d1, d2, sizeof(d1));

	f.fn = (void *)(uintptr_t)vg_bn_montsqr_amm_adx;
	call_checked_frame(&f);
	vg_bn_montsqr_amm_c(d2, a, m, neg_inv64(m[0]), n);
	assert_memory_equal(d1, d2, sizeof(d1));

	f.fn = (void *)(uintptr_t)vg_bn_montmul_amm_adx;
	f.arg[2] = (uintptr_t)b;
	f.arg[3] = (uintptr_t)m;
	f.arg[4] = neg_inv64(m[0]);
	f.arg[5] = n;
	call_checked_frame(&f);
	vg_bn_montmul_amm_c(d2, a, b, m, neg_inv64(m[0]), n);
	assert_memory_equal(d1, d2, sizeof(d1));
}
#endif

/* The table follows the features: IFMA > ADX > C. */
static void
test_kernel_choice(void **state)
{
	const struct vg_kernels *g = vg_kernels();
	const char *env = getenv("VG_CPU_FEATURES");
	struct vg_rsa_kernels k;
	unsigned f = vg_cpu_features();

	(void)state;
	vg_rsa_kernels_fill(&k, 0);
	assert_string_equal(k.impl, "c");
	assert_ptr_equal(k.montmul, vg_bn_montmul_c);
	assert_ptr_equal(k.montsqr, vg_bn_montsqr_c);
	assert_ptr_equal(k.montmul_amm, vg_bn_montmul_amm_c);
	assert_ptr_equal(k.montsqr_amm, vg_bn_montsqr_amm_c);
	assert_null(k.amm52x2);
	assert_null(k.modexp52x2);
#ifdef VG_HAVE_RSA_X86_64_KERNELS
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX);
	assert_string_equal(k.impl, "adx");
	assert_ptr_equal(k.montmul, vg_bn_montmul_adx);
	assert_ptr_equal(k.montmul_amm, vg_bn_montmul_amm_adx);
	assert_ptr_equal(k.montsqr_amm, vg_bn_montsqr_amm_adx);
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2);
	assert_string_equal(k.impl, "c");
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512F |
	    VG_CPU_AVX512VL | VG_CPU_AVX512IFMA);
	assert_string_equal(k.impl, "ifma");
	assert_ptr_equal(k.montmul, vg_bn_montmul_adx);
	assert_ptr_equal(k.modexp52x2, vg_rsa_modexp52x2_ifma);
	assert_ptr_equal(k.amm52x2, vg_rsa_amm52x2_ifma);
	/* without avx512f: the 256-bit variant */
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512VL |
	    VG_CPU_AVX512IFMA);
	assert_string_equal(k.impl, "ifma256");
	assert_ptr_equal(k.modexp52x2, vg_rsa_modexp52x2_ifma256);
	assert_ptr_equal(k.amm52x2, vg_rsa_amm52x2_ifma256);
	vg_rsa_kernels_fill(&k, VG_CPU_AVX512F | VG_CPU_AVX512IFMA);
	assert_null(k.modexp52x2);
#endif
	if (env != NULL && strcmp(env, "none") == 0)
		assert_string_equal(g->rsa.impl, "c");
	vg_rsa_kernels_fill(&k, f);
	assert_string_equal(g->rsa.impl, k.impl);
	printf("# VG_CPU_FEATURES=%s: rsa=%s\n", env != NULL ? env : "(unset)",
	    g->rsa.impl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_montmul_c_reference),
		cmocka_unit_test(test_amm_c_reference),
#ifdef VG_HAVE_RSA_X86_64_KERNELS
		cmocka_unit_test(test_adx_vs_c),
		cmocka_unit_test(test_adx_amm_vs_c),
		cmocka_unit_test(test_adx_callee_saved),
#endif
		cmocka_unit_test(test_kernel_choice),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x5253414b52ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
