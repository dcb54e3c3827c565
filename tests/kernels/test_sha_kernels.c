/*
 * The hash kernels: each portable twin against a known answer, each SHA-NI
 * kernel, the AVX2 SHA-512 kernel and the BMI2 Keccak-f[1600] against its
 * twin on edge and random
 * inputs (skipped, saying why, when the CPU lacks the extension), and the
 * kernel table against the features in use (the suite also runs under
 * VG_CPU_FEATURES=none).
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

#include "crypto/cpu.h"
#include "crypto/x86_64/kernels.h"
#include "tests/xorshift.h"

static uint64_t rng_state = 0x5348414e49ULL;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_bytes(void *p, size_t n)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(rnd() >> 56);
}

/* "abc" padded to one block [FIPS 180-4 §5.1.1]. */
static void
abc_block(uint8_t *blk, size_t len)
{
	memset(blk, 0, len);
	memcpy(blk, "abc", 3);
	blk[3] = 0x80;
	blk[len - 1] = 24;
}

static const uint32_t SHA1_IV[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};
static const uint32_t SHA1_ABC[5] = {
	0xa9993e36, 0x4706816a, 0xba3e2571, 0x7850c26c, 0x9cd0d89d,
};
static const uint32_t SHA256_IV[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};
static const uint32_t SHA256_ABC[8] = {
	0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
	0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad,
};

typedef void sha32_fn(uint32_t *st, const uint8_t *in, size_t nblocks);

static void
check_sha1_abc(sha32_fn *f)
{
	uint32_t st[5];
	uint8_t blk[64];

	abc_block(blk, sizeof(blk));
	memcpy(st, SHA1_IV, sizeof(st));
	f(st, blk, 1);
	assert_memory_equal(st, SHA1_ABC, sizeof(st));
	f(st, blk, 0); /* zero blocks leave the state alone */
	assert_memory_equal(st, SHA1_ABC, sizeof(st));
}

static void
check_sha256_abc(sha32_fn *f)
{
	uint32_t st[8];
	uint8_t blk[64];

	abc_block(blk, sizeof(blk));
	memcpy(st, SHA256_IV, sizeof(st));
	f(st, blk, 1);
	assert_memory_equal(st, SHA256_ABC, sizeof(st));
	f(st, blk, 0);
	assert_memory_equal(st, SHA256_ABC, sizeof(st));
}

/* SHA-512's initial value [FIPS 180-4 §5.3.5], written out here rather
 * than taken from the code under test. */
static const uint64_t SHA512_IV[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
	0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
	0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static void
test_c_twins_kat(void **state)
{
	static const uint64_t SHA512_ABC[8] = {
		0xddaf35a193617abaULL, 0xcc417349ae204131ULL,
		0x12e6fa4e89a97ea2ULL, 0x0a9eeee64b55d39aULL,
		0x2192992a274fc1a8ULL, 0x36ba3c23a3feebbdULL,
		0x454d4423643ce80eULL, 0x2a9ac94fa54ca49fULL,
	};
	uint64_t st64[8], k[25];
	uint8_t blk[128];

	(void)state;
	check_sha1_abc(vg_sha1_blocks_c);
	check_sha256_abc(vg_sha256_blocks_c);

	abc_block(blk, sizeof(blk));
	memcpy(st64, SHA512_IV, sizeof(st64));
	vg_sha512_blocks_c(st64, blk, 1);
	assert_memory_equal(st64, SHA512_ABC, sizeof(st64));

	/* Keccak-f[1600] of the all-zero state: first lanes of the Keccak
	 * team's KeccakF-1600-IntermediateValues.txt. */
	memset(k, 0, sizeof(k));
	vg_keccakf1600_c(k);
	assert_true(k[0] == 0xf1258f7940e1dde7ULL);
	assert_true(k[1] == 0x84d5ccf933c0478aULL);
	assert_true(k[24] == 0xeaf1ff7b5ceca249ULL);
}

#ifdef VG_HAVE_X86_64_KERNELS
/* Runs the twins on the same random state and nblocks random blocks. */
static void
compare32(sha32_fn *native, sha32_fn *twin, size_t words, size_t nblocks)
{
	uint32_t a[8], b[8];
	uint8_t *in = malloc(64 * nblocks + 1);

	assert_non_null(in);
	rnd_bytes(in, 64 * nblocks + 1);
	rnd_bytes(a, sizeof(a));
	memcpy(b, a, sizeof(b));
	/* an odd address: the kernels must not need alignment */
	native(a, in + 1, nblocks);
	twin(b, in + 1, nblocks);
	assert_memory_equal(a, b, words * sizeof(uint32_t));
	free(in);
}

static int
have_shani(void)
{
	if (vg_cpu_detected() & VG_CPU_SHANI)
		return 1;
	printf("# skipped: this CPU has no SHA extensions (SHA-NI), so the "
	    "shani kernels cannot run here\n");
	return 0;
}

static void
test_shani_vs_c(void **state)
{
	static const size_t nblocks[] = { 0, 1, 2, 7, 100 };
	uint8_t edge[3][64 * 7];
	size_t i, r;

	(void)state;
	if (!have_shani()) {
		skip();
		return;
	}
	check_sha1_abc(vg_sha1_blocks_shani);
	check_sha256_abc(vg_sha256_blocks_shani);

	for (i = 0; i < sizeof(nblocks) / sizeof(nblocks[0]); i++)
		for (r = 0; r < 20; r++) {
			compare32(vg_sha256_blocks_shani, vg_sha256_blocks_c, 8,
			    nblocks[i]);
			compare32(vg_sha1_blocks_shani, vg_sha1_blocks_c, 5,
			    nblocks[i]);
		}

	/* edge inputs: all-zero, all-ones and alternating blocks and
	 * states */
	memset(edge[0], 0x00, sizeof(edge[0]));
	memset(edge[1], 0xff, sizeof(edge[1]));
	for (i = 0; i < sizeof(edge[2]); i++)
		edge[2][i] = (uint8_t)(i & 1 ? 0xaa : 0x55);
	for (i = 0; i < 3; i++)
		for (r = 0; r < 3; r++) {
			uint32_t a[8], b[8];

			memcpy(a, edge[r], sizeof(a));
			memcpy(b, a, sizeof(b));
			vg_sha256_blocks_shani(a, edge[i], 7);
			vg_sha256_blocks_c(b, edge[i], 7);
			assert_memory_equal(a, b, sizeof(a));
			memcpy(a, edge[r], sizeof(a));
			memcpy(b, a, sizeof(b));
			vg_sha1_blocks_shani(a, edge[i], 7);
			vg_sha1_blocks_c(b, edge[i], 7);
			assert_memory_equal(a, b, 5 * sizeof(uint32_t));
		}
}

/* vg_sha512_blocks_avx2 against vg_sha512_blocks_c: the "abc" block, random
 * states and blocks at odd addresses for block counts 0 to 9 and 100, edge
 * blocks (all zero, all ones, alternating) with edge states, and a chain of
 * compressions fed back into the input. */
static void
test_sha512_avx2_vs_c(void **state)
{
	static const uint64_t SHA512_ABC0 = 0xddaf35a193617abaULL;
	uint64_t a[8], b[8];
	uint8_t blk[128], edge[3][128 * 3], *in;
	size_t nb, i, r;

	(void)state;
	if ((vg_cpu_detected() & (VG_CPU_AVX2 | VG_CPU_BMI2)) !=
	    (VG_CPU_AVX2 | VG_CPU_BMI2)) {
		printf("# skipped: this CPU lacks AVX2 or BMI2, so the avx2 "
		    "SHA-512 kernel cannot run here\n");
		skip();
		return;
	}
	abc_block(blk, sizeof(blk));
	memcpy(a, SHA512_IV, sizeof(a));
	vg_sha512_blocks_avx2(a, blk, 1);
	assert_true(a[0] == SHA512_ABC0);
	memcpy(b, SHA512_IV, sizeof(b));
	vg_sha512_blocks_c(b, blk, 1);
	assert_memory_equal(a, b, sizeof(a));
	vg_sha512_blocks_avx2(a, blk, 0);
	assert_memory_equal(a, b, sizeof(a));

	for (nb = 0; nb <= 10; nb++)
		for (r = 0; r < 10; r++) {
			size_t n = nb < 10 ? nb : 100;

			in = malloc(128 * n + 1);
			assert_non_null(in);
			rnd_bytes(in, 128 * n + 1);
			rnd_bytes(a, sizeof(a));
			memcpy(b, a, sizeof(b));
			vg_sha512_blocks_avx2(a, in + 1, n);
			vg_sha512_blocks_c(b, in + 1, n);
			assert_memory_equal(a, b, sizeof(a));
			free(in);
		}

	memset(edge[0], 0x00, sizeof(edge[0]));
	memset(edge[1], 0xff, sizeof(edge[1]));
	for (i = 0; i < sizeof(edge[2]); i++)
		edge[2][i] = (uint8_t)(i & 1 ? 0xaa : 0x55);
	for (i = 0; i < 3; i++)
		for (r = 0; r < 3; r++) {
			memcpy(a, edge[r], sizeof(a));
			memcpy(b, a, sizeof(b));
			vg_sha512_blocks_avx2(a, edge[i], 3);
			vg_sha512_blocks_c(b, edge[i], 3);
			assert_memory_equal(a, b, sizeof(a));
		}

	/* the output of each compression becomes part of the next block */
	rnd_bytes(blk, sizeof(blk));
	memcpy(a, SHA512_IV, sizeof(a));
	memcpy(b, SHA512_IV, sizeof(b));
	for (r = 0; r < 1000; r++) {
		vg_sha512_blocks_avx2(a, blk, 1);
		vg_sha512_blocks_c(b, blk, 1);
		memcpy(blk + (r % 2) * 64, a, sizeof(a));
	}
	assert_memory_equal(a, b, sizeof(a));
}

/* vg_keccakf1600_bmi2 against vg_keccakf1600_c: edge states (zero, all
 * ones, one bit set in each lane in turn), random states, and a chain of
 * permutations fed back into themselves. */
static void
test_keccak_bmi2_vs_c(void **state)
{
	uint64_t a[25], b[25];
	unsigned i, r;

	(void)state;
	if (!(vg_cpu_detected() & VG_CPU_BMI2)) {
		printf("# skipped: this CPU has no BMI2, so the bmi2 Keccak "
		    "kernel cannot run here\n");
		skip();
		return;
	}
	memset(a, 0, sizeof(a));
	vg_keccakf1600_bmi2(a);
	assert_true(a[0] == 0xf1258f7940e1dde7ULL);
	assert_true(a[24] == 0xeaf1ff7b5ceca249ULL);
	memset(a, 0xff, sizeof(a));
	memcpy(b, a, sizeof(b));
	vg_keccakf1600_bmi2(a);
	vg_keccakf1600_c(b);
	assert_memory_equal(a, b, sizeof(a));
	for (i = 0; i < 25 * 64; i++) {
		memset(a, 0, sizeof(a));
		a[i / 64] = (uint64_t)1 << (i % 64);
		memcpy(b, a, sizeof(b));
		vg_keccakf1600_bmi2(a);
		vg_keccakf1600_c(b);
		assert_memory_equal(a, b, sizeof(a));
	}
	for (r = 0; r < 1000; r++) {
		rnd_bytes(a, sizeof(a));
		memcpy(b, a, sizeof(b));
		vg_keccakf1600_bmi2(a);
		vg_keccakf1600_c(b);
		assert_memory_equal(a, b, sizeof(a));
	}
	for (r = 0; r < 1000; r++) {
		vg_keccakf1600_bmi2(a);
		vg_keccakf1600_c(b);
	}
	assert_memory_equal(a, b, sizeof(a));
}
#else
static void
test_sha512_avx2_vs_c(void **state)
{
	(void)state;
	printf("# skipped: not an x86-64 build, there is no avx2 SHA-512 "
	    "kernel\n");
	skip();
}

static void
test_keccak_bmi2_vs_c(void **state)
{
	(void)state;
	printf("# skipped: not an x86-64 build, there is no bmi2 Keccak "
	    "kernel\n");
	skip();
}

static void
test_shani_vs_c(void **state)
{
	(void)state;
	printf("# skipped: not an x86-64 build, there are no shani "
	    "kernels\n");
	skip();
}
#endif

/* The global table follows the features in use; VG_CPU_FEATURES=none
 * leaves only the portable code. */
static void
test_table_matches_features(void **state)
{
	const struct vg_kernels *k = vg_kernels();
	const char *env = getenv("VG_CPU_FEATURES");
	unsigned f = vg_cpu_features();
	struct vg_kernels t;

	(void)state;
	assert_int_equal(k->features, f);
	assert_int_equal(f & ~vg_cpu_detected(), 0);
	if (env != NULL && strcmp(env, "none") == 0)
		assert_int_equal(f, 0);
#ifdef VG_HAVE_X86_64_KERNELS
	if (f & VG_CPU_SHANI) {
		assert_string_equal(k->sha256_impl, "shani");
		assert_string_equal(k->sha1_impl, "shani");
		assert_ptr_equal(k->sha256_blocks, vg_sha256_blocks_shani);
		assert_ptr_equal(k->sha1_blocks, vg_sha1_blocks_shani);
	} else
#endif
	{
		assert_string_equal(k->sha256_impl, "c");
		assert_string_equal(k->sha1_impl, "c");
		assert_ptr_equal(k->sha256_blocks, vg_sha256_blocks_c);
		assert_ptr_equal(k->sha1_blocks, vg_sha1_blocks_c);
	}
#ifdef VG_HAVE_X86_64_KERNELS
	if ((f & VG_CPU_AVX2) && (f & VG_CPU_BMI2)) {
		assert_string_equal(k->sha512_impl, "avx2");
		assert_ptr_equal(k->sha512_blocks, vg_sha512_blocks_avx2);
	} else
#endif
	{
		assert_string_equal(k->sha512_impl, "c");
		assert_ptr_equal(k->sha512_blocks, vg_sha512_blocks_c);
	}
#ifdef VG_HAVE_X86_64_KERNELS
	if (f & VG_CPU_BMI2) {
		assert_string_equal(k->keccak_impl, "bmi2");
		assert_ptr_equal(k->keccakf1600, vg_keccakf1600_bmi2);
	} else
#endif
	{
		assert_string_equal(k->keccak_impl, "c");
		assert_ptr_equal(k->keccakf1600, vg_keccakf1600_c);
	}

	/* an explicit empty feature set gives the portable twins */
	vg_kernels_fill(&t, 0);
	assert_string_equal(t.sha256_impl, "c");
	assert_string_equal(t.sha1_impl, "c");
	assert_ptr_equal(t.sha256_blocks, vg_sha256_blocks_c);
	assert_ptr_equal(t.sha1_blocks, vg_sha1_blocks_c);
	assert_ptr_equal(t.keccakf1600, vg_keccakf1600_c);
	assert_string_equal(t.sha512_impl, "c");
	assert_ptr_equal(t.sha512_blocks, vg_sha512_blocks_c);
	printf("# VG_CPU_FEATURES=%s: sha1=%s sha256=%s sha512=%s keccak=%s\n",
	    env != NULL ? env : "(unset)", k->sha1_impl, k->sha256_impl,
	    k->sha512_impl, k->keccak_impl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_twins_kat),
		cmocka_unit_test(test_shani_vs_c),
		cmocka_unit_test(test_sha512_avx2_vs_c),
		cmocka_unit_test(test_keccak_bmi2_vs_c),
		cmocka_unit_test(test_table_matches_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
