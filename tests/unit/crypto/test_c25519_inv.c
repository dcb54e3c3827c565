/*
 * The inversion modulo p = 2^255 - 19 (crypto/c25519_inv.c, safegcd):
 * vg_fe25519_invert64 and vg_fe25519_invert against a Fermat
 * exponentiation written here (x^(p-2) bit by bit, in radix 2^51), and
 * x * x^-1 = 1 through the 4x64 multiplication of every kernel set
 * (portable and MULX/ADX where present), on edge inputs (0, 1, 2, 19, p -
 * 1, p, p + 1, 2^255 - 1, 2^255, 2^256 - 1 and others at or above p in the
 * 4x64 form, loose radix-2^51 limbs) and random ones; known inverses
 * (1/2 = (p + 1) / 2, 1/(p - 1) = p - 1); 0 and every multiple of p give
 * 0; the output is always below p. Then X25519 on the u-coordinates whose
 * ladder ends in Z = 0 (0, 1, p - 1, p, p + 1), which must give the
 * all-zero output on both ladders.
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

#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/cpu.h"
#include "tests/xorshift.h"

static uint64_t rng_state;

/* p = 2^255 - 19 */
static const uint64_t p_words[4] = {
	0xffffffffffffffedULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL,
};

static const uint64_t edges[][4] = {
	{ 0, 0, 0, 0 },
	{ 1, 0, 0, 0 },
	{ 2, 0, 0, 0 },
	{ 19, 0, 0, 0 },
	{ 38, 0, 0, 0 },
	{ 0xffffffffffffffecULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0xffffffffffffffedULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0xffffffffffffffeeULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ ~0ULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0, 0, 0, 0x8000000000000000ULL },
	{ 0xffffffffffffffdaULL, ~0ULL, ~0ULL, ~0ULL }, /* 2p */
	{ 0xffffffffffffffdbULL, ~0ULL, ~0ULL, ~0ULL },
	{ ~0ULL, ~0ULL, ~0ULL, ~0ULL },
	{ 0, 0, 0, 1 },
	{ 0, 0, 0, 0x4000000000000000ULL },
	{ ~0ULL, 0, ~0ULL, 0 },
	{ 0x8000000000000000ULL, 0, 0, 0 },
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

/* 1 if a < p. */
static int
below_p(const uint64_t a[4])
{
	int i;

	for (i = 3; i >= 0; i--)
		if (a[i] != p_words[i])
			return a[i] < p_words[i];
	return 0;
}

/* The reference: a^(p-2) by square and multiply over the bits of
 * p - 2 = 2^255 - 21, in radix 2^51; canonical 4x64 out. */
static void
fermat(uint64_t r[4], const uint64_t a[4])
{
	vg_fe25519 x, acc;
	int i;

	vg_fe25519_from64(x, a);
	vg_fe25519_1(acc);
	for (i = 254; i >= 0; i--) {
		/* 2^255 - 21: bits 0, 1, 3 and 5 .. 254 (21 = 10101b) */
		int bit = i >= 5 || i == 3 || i == 1 || i == 0;

		vg_fe25519_sqr(acc, acc);
		if (bit)
			vg_fe25519_mul(acc, acc, x);
	}
	vg_fe25519_to64(r, acc);
}

/* 1 if a = 0 mod p. */
static int
is_zero_mod_p(const uint64_t a[4])
{
	vg_fe25519 f;
	uint64_t w[4];

	vg_fe25519_from64(f, a);
	vg_fe25519_to64(w, f);
	return (w[0] | w[1] | w[2] | w[3]) == 0;
}

/* r = the canonical form of a product of the kernel mul64 (< 2^256). */
static void
canon(uint64_t r[4], const uint64_t a[4])
{
	vg_fe25519 f;

	vg_fe25519_from64(f, a);
	vg_fe25519_to64(r, f);
}

/* Both entries on a, against Fermat and the product with a under each
 * kernel set's mul64. */
static void
check(const uint64_t a[4], const struct vg_c25519_kernels *ks, int nks)
{
	static const uint64_t one[4] = { 1, 0, 0, 0 };
	uint64_t r[4], f[4], t[4], w[4];
	vg_fe25519 h, x;
	int j;

	vg_fe25519_invert64(r, a);
	assert_true(below_p(r));
	fermat(f, a);
	assert_memory_equal(r, f, 32);
	for (j = 0; j < nks; j++) {
		ks[j].mul64(t, a, r);
		canon(t, t);
		if (is_zero_mod_p(a)) {
			assert_memory_equal(r, (const uint64_t[4]){ 0 }, 32);
			assert_memory_equal(t, (const uint64_t[4]){ 0 }, 32);
		} else {
			assert_memory_equal(t, one, 32);
		}
	}
	/* aliased */
	memcpy(t, a, 32);
	vg_fe25519_invert64(t, t);
	assert_memory_equal(t, r, 32);
	/* radix 2^51 (from64 leaves a unreduced: limb 4 up to 2^52) */
	vg_fe25519_from64(x, a);
	vg_fe25519_invert(h, x);
	for (j = 0; j < 5; j++)
		assert_true(h[j] < ((uint64_t)1 << 51));
	vg_fe25519_to64(w, h);
	assert_memory_equal(w, r, 32);
	vg_fe25519_invert(x, x);
	assert_memory_equal(x, h, sizeof(h));
}

/* The portable kernels and, where the CPU has them, the native ones. */
static int
kernel_sets(struct vg_c25519_kernels ks[2])
{
	vg_c25519_kernels_fill(&ks[0], 0);
	vg_c25519_kernels_fill(&ks[1], vg_cpu_features());
	return strcmp(ks[0].impl, ks[1].impl) == 0 ? 1 : 2;
}

static void
test_edges(void **state)
{
	struct vg_c25519_kernels ks[2];
	int nks = kernel_sets(ks);
	size_t i;

	(void)state;
	printf("# kernel sets: %s%s%s\n", ks[0].impl, nks > 1 ? ", " : "",
	    nks > 1 ? ks[1].impl : "");
	for (i = 0; i < NEDGES; i++)
		check(edges[i], ks, nks);
}

static void
test_known(void **state)
{
	/* (p + 1) / 2 = 2^254 - 9 */
	static const uint64_t half[4] = { 0xfffffffffffffff7ULL, ~0ULL, ~0ULL,
		0x3fffffffffffffffULL };
	static const uint64_t pm1[4] = { 0xffffffffffffffecULL, ~0ULL, ~0ULL,
		0x7fffffffffffffffULL };
	uint64_t r[4], a[4];

	(void)state;
	vg_fe25519_invert64(r, (const uint64_t[4]){ 2, 0, 0, 0 });
	assert_memory_equal(r, half, 32);
	vg_fe25519_invert64(r, half);
	assert_memory_equal(r, ((const uint64_t[4]){ 2, 0, 0, 0 }), 32);
	vg_fe25519_invert64(r, pm1);
	assert_memory_equal(r, pm1, 32);
	vg_fe25519_invert64(r, (const uint64_t[4]){ 1, 0, 0, 0 });
	assert_memory_equal(r, ((const uint64_t[4]){ 1, 0, 0, 0 }), 32);
	/* p + 2 = 2 (mod p) */
	memcpy(a, p_words, 32);
	a[0] += 2;
	vg_fe25519_invert64(r, a);
	assert_memory_equal(r, half, 32);
}

static void
test_random(void **state)
{
	struct vg_c25519_kernels ks[2];
	int nks = kernel_sets(ks);
	uint64_t a[4];
	unsigned i;

	(void)state;
	for (i = 0; i < 3000; i++) {
		a[0] = vg_xorshift64s(&rng_state);
		a[1] = vg_xorshift64s(&rng_state);
		a[2] = vg_xorshift64s(&rng_state);
		a[3] = vg_xorshift64s(&rng_state);
		if (i % 4 == 1)
			a[3] >>= 1;     /* below 2^255, mostly below p */
		if (i % 4 == 2)
			a[3] >>= 1 + i % 60; /* short values */
		check(a, ks, nks);
	}
}

/* Loose radix-2^51 inputs (limbs up to 2^54, as the point formulas leave
 * them) against the same value reduced first. */
static void
test_loose(void **state)
{
	vg_fe25519 f, g, h1, h2;
	uint64_t w[4];
	unsigned i;
	int j;

	(void)state;
	for (i = 0; i < 2000; i++) {
		for (j = 0; j < 5; j++) {
			f[j] = vg_xorshift64s(&rng_state) >> 10;
			if (i % 3 == 0)
				f[j] |= (uint64_t)0x3f << 48;
		}
		vg_fe25519_to64(w, f);
		vg_fe25519_from64(g, w);
		vg_fe25519_invert(h1, f);
		vg_fe25519_invert(h2, g);
		assert_memory_equal(h1, h2, sizeof(h1));
		vg_fe25519_mul(g, f, h1);
		vg_fe25519_to64(w, g);
		assert_memory_equal(w, ((const uint64_t[4]){ 1, 0, 0, 0 }),
		    32);
	}
}

/* u-coordinates whose ladder ends with Z = 0: the inverse of 0 must be 0
 * and the output all zero, on every kernel set. */
static void
test_x25519_zero(void **state)
{
	struct vg_c25519_kernels ks[2];
	int nks = kernel_sets(ks), j;
	static const uint8_t zero[32];
	uint8_t k[32], u[32], out[32];
	uint64_t us[5][4];
	unsigned i, v;

	(void)state;
	memset(us, 0, sizeof(us));
	us[1][0] = 1;
	memcpy(us[2], p_words, 32);
	us[2][0] -= 1;
	memcpy(us[3], p_words, 32);
	memcpy(us[4], p_words, 32);
	us[4][0] += 1;
	for (i = 0; i < 5; i++) {
		for (v = 0; v < 32; v++)
			u[v] = (uint8_t)(us[i][v / 8] >> (8 * (v % 8)));
		for (v = 0; v < 32; v++)
			k[v] = (uint8_t)vg_xorshift64s(&rng_state);
		for (j = 0; j < nks; j++) {
			memset(out, 0xa5, sizeof(out));
			ks[j].x25519(out, k, u);
			assert_memory_equal(out, zero, 32);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_loose),
		cmocka_unit_test(test_x25519_zero),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) :
	    0x9e3779b97f4a7c15ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
