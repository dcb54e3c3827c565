/*
 * The portable divstep of crypto/modinv62.c against the one the build
 * uses (CMOV on x86-64): this file compiles modinv62.c a second time with
 * VG_MODINV62_PORTABLE, and with it p256_inv.c and c25519_inv.c, their
 * functions renamed, and compares the two on random inputs, 0, 1,
 * m - 1 .. m - 3, values with long runs of low zero bits (many steps
 * without a swap, where a packed row's first entry reaches 2^20) and
 * short values, modulo the P-256 p and n, single and paired, and modulo
 * 2^255 - 19 (there also inputs from p up to 2^256 - 1, which the
 * Curve25519 entry reduces first); and the two steps themselves on random
 * words, since a step that differs can still end in the right inverse. On
 * other architectures both are the portable step: the step test skips
 * (saying why) and the rest checks that the file builds and agrees with
 * itself.
 * Random inputs come from a seeded generator; VG_TEST_SEED=<n> replays.
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

#define VG_MODINV62_PORTABLE 1
#define vg_modinv62 twin_modinv62
#define vg_modinv62_x2 twin_modinv62_x2
#define vg_modinv62_vartime twin_modinv62_vartime
#define vg_modinv62_n twin_modinv62_n
#define vg_modinv62_n_x2 twin_modinv62_n_x2
#define vg_p256_fe_inv twin_fe_inv
#define vg_p256_ord_inv twin_ord_inv
#define vg_p256_fe_ord_inv twin_fe_ord_inv
#define vg_p256_ord_inv_vartime twin_ord_inv_vartime
#define vg_fe25519_invert64 twin_fe25519_invert64
#define vg_fe25519_invert twin_fe25519_invert
#include "crypto/modinv62.c"
#include "crypto/p256_inv.c"
#include "crypto/c25519_inv.c"
#undef vg_modinv62
#undef vg_modinv62_x2
#undef vg_modinv62_vartime
#undef vg_modinv62_n
#undef vg_modinv62_n_x2
#undef vg_p256_fe_inv
#undef vg_p256_ord_inv
#undef vg_p256_fe_ord_inv
#undef vg_p256_ord_inv_vartime
#undef vg_fe25519_invert64
#undef vg_fe25519_invert

#include "crypto/cpu.h"
#include "tests/xorshift.h"

/* the library's, declared under their own names (the header declared the
 * twins' above) */
void vg_p256_fe_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
void vg_p256_ord_inv(const struct vg_p256_kernels *k, uint64_t r[4],
    const uint64_t a[4]);
void vg_p256_fe_ord_inv(const struct vg_p256_kernels *k, uint64_t fr[4],
    const uint64_t fa[4], uint64_t nr[4], const uint64_t na[4]);
void vg_fe25519_invert64(uint64_t r[4], const uint64_t a[4]);
void vg_fe25519_invert(vg_fe25519 h, const vg_fe25519 f);
uint64_t vg_modinv62_n(uint64_t *r, const uint64_t *a, const uint64_t *m,
    size_t n);
void vg_modinv62_n_x2(uint64_t *ra, const uint64_t *a, const uint64_t *ma,
    uint64_t *rb, const uint64_t *b, const uint64_t *mb, size_t n,
    uint64_t ok[2]);

/* 2^255 - 19 */
static const uint64_t p25519_words[4] = {
	0xffffffffffffffedULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
	0x7fffffffffffffffULL,
};

static uint64_t rng_state;

/* Input number i of a run modulo m: the kinds of the file comment. */
static void
input(uint64_t a[4], const uint64_t m[4], unsigned i)
{
	unsigned kind = i % 8;

	a[0] = vg_xorshift64s(&rng_state), a[1] = vg_xorshift64s(&rng_state);
	a[2] = vg_xorshift64s(&rng_state), a[3] = vg_xorshift64s(&rng_state);
	if (kind == 0) {
		memset(a, 0, 32);
		a[0] = i / 8 % 2; /* 0 or 1 */
	} else if (kind == 1) {
		vg_p256_sub4(a, m, (const uint64_t[4]){ i / 8 % 3 + 1, 0, 0,
		    0 });
	} else if (kind == 2) {
		/* 2^j times a small odd value: long runs of even g */
		unsigned j = (i * 7) % 250;

		memset(a, 0, 32);
		a[j / 64] = (uint64_t)(2 * (i % 5) + 1) << (j % 64);
	} else if (kind == 3) {
		a[3] = 0, a[2] = 0;
		a[1] >>= i % 64;
	} else {
		a[3] >>= 1; /* below both moduli */
	}
}

/* One step and runs of 20 of both forms on the same words: any zeta
 * (small, and near the extremes), any f and g. */
static void
test_steps(void **state)
{
#if defined(__x86_64__)
	unsigned i, n;

	(void)state;
	for (i = 0; i < 200000; i++) {
		uint64_t r = vg_xorshift64s(&rng_state);
		int64_t z1, z2;
		uint64_t f1, f2, g1, g2;

		z1 = (int64_t)(r % 64) - 32;
		if (i % 16 == 1)
			z1 = (int64_t)(r >> 1) * (r & 1 ? 1 : -1);
		f1 = vg_xorshift64s(&rng_state);
		g1 = vg_xorshift64s(&rng_state);
		if (i % 4 == 0)
			g1 <<= r % 40;
		z2 = z1, f2 = f1, g2 = g1;
		for (n = 0; n < (i % 2 ? 20u : 1u); n++)
			divstep_c(&z1, &f1, &g1);
		if (i % 2)
			steps_cmov_20(&z2, &f2, &g2);
		else
			steps_cmov_1(&z2, &f2, &g2);
		assert_int_equal(z1, z2);
		assert_int_equal(f1, f2);
		assert_int_equal(g1, g2);
	}
#else
	(void)state;
	printf("# SKIP: the CMOV step exists on x86-64 only\n");
	skip();
#endif
}

static void
test_twin(void **state)
{
	struct vg_kernels ks;
	const struct vg_p256_kernels *k;
	uint64_t a[4], b[4], r1[4], r2[4], s1[4], s2[4];
	unsigned i;

	(void)state;
	vg_kernels_fill(&ks, vg_cpu_features());
	k = &ks.p256;
	for (i = 0; i < 4000; i++) {
		input(a, vg_p256_p, i);
		input(b, vg_p256_n, i * 3 + 1);
		vg_p256_fe_inv(k, r1, a);
		twin_fe_inv(k, r2, a);
		assert_memory_equal(r1, r2, 32);
		vg_p256_ord_inv(k, r1, b);
		twin_ord_inv(k, r2, b);
		assert_memory_equal(r1, r2, 32);
		vg_p256_fe_ord_inv(k, r1, a, s1, b);
		twin_fe_ord_inv(k, r2, a, s2, b);
		assert_memory_equal(r1, r2, 32);
		assert_memory_equal(s1, s2, 32);
	}
}

/* Any width (1 ... VG_BN_MAX_WORDS words): random odd moduli, inputs
 * random below them, 0, 1 and m - 1; single and paired. */
static void
test_twin_n(void **state)
{
	uint64_t m[2][VG_BN_MAX_WORDS], a[2][VG_BN_MAX_WORDS];
	uint64_t r1[2][VG_BN_MAX_WORDS], r2[2][VG_BN_MAX_WORDS];
	uint64_t ok1[2], ok2[2];
	unsigned i, j;
	size_t n, k;

	(void)state;
	for (i = 0; i < 400; i++) {
		n = 1 + i % VG_BN_MAX_WORDS;
		for (j = 0; j < 2; j++) {
			for (k = 0; k < n; k++) {
				m[j][k] = vg_xorshift64s(&rng_state);
				a[j][k] = vg_xorshift64s(&rng_state);
			}
			m[j][0] |= 1;
			m[j][n - 1] |= (uint64_t)1 << 63;
			a[j][n - 1] >>= 1; /* below m */
			if (i % 7 == j)
				memset(a[j], 0, 8 * n);
			if (i % 7 == j + 2) {
				memset(a[j], 0, 8 * n);
				a[j][0] = 1;
			}
			if (i % 7 == j + 4) {
				memcpy(a[j], m[j], 8 * n);
				a[j][0]--;
			}
		}
		ok1[0] = vg_modinv62_n(r1[0], a[0], m[0], n);
		ok2[0] = twin_modinv62_n(r2[0], a[0], m[0], n);
		assert_true(ok1[0] == ok2[0]);
		assert_memory_equal(r1[0], r2[0], 8 * n);
		vg_modinv62_n_x2(r1[0], a[0], m[0], r1[1], a[1], m[1], n, ok1);
		twin_modinv62_n_x2(r2[0], a[0], m[0], r2[1], a[1], m[1], n,
		    ok2);
		assert_memory_equal(ok1, ok2, sizeof(ok1));
		assert_memory_equal(r1[0], r2[0], 8 * n);
		assert_memory_equal(r1[1], r2[1], 8 * n);
	}
}

/* Modulo 2^255 - 19: the inputs of the P-256 runs (those with the top
 * bit set are above p, as are m - 1 .. m - 3 here), p + 0 .. p + 2 and
 * 2^256 - 1 .. 2^256 - 3, in both forms. */
static void
test_twin25519(void **state)
{
	uint64_t a[4], r1[4], r2[4];
	vg_fe25519 f, h1, h2;
	unsigned i;

	(void)state;
	for (i = 0; i < 4000; i++) {
		input(a, p25519_words, i);
		if (i % 8 == 5)
			a[3] = vg_xorshift64s(&rng_state);
		if (i % 8 == 6) {
			memcpy(a, p25519_words, 32);
			a[0] += i / 8 % 3;
		}
		if (i % 8 == 7)
			a[0] = 0 - 1 - (i / 8 % 3), a[1] = a[2] = a[3] = ~0ULL;
		vg_fe25519_invert64(r1, a);
		twin_fe25519_invert64(r2, a);
		assert_memory_equal(r1, r2, 32);
		vg_fe25519_from64(f, a);
		vg_fe25519_invert(h1, f);
		twin_fe25519_invert(h2, f);
		assert_memory_equal(h1, h2, sizeof(h1));
		vg_fe25519_to64(r2, h1);
		assert_memory_equal(r1, r2, 32);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_twin),
		cmocka_unit_test(test_twin25519),
		cmocka_unit_test(test_twin_n),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) :
	    0x9e3779b97f4a7c15ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
