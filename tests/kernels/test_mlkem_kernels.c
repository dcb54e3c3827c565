/*
 * The ML-KEM kernels (crypto/mlkem_kernels.h): each AVX2 kernel against
 * its portable twin on random and edge inputs (equal results, nothing
 * written beyond its output), and the twins against the definitions:
 * the NTT against the sums of [FIPS 203 (4.8)], NTT^-1(NTT(a)) = a R,
 * products in the NTT domain against schoolbook multiplication modulo
 * X^256 + 1, CBD against Alg. 8 bit by bit, and Compress_d against its
 * definition for every input. The AVX2 comparisons are skipped, saying why,
 * without AVX2 (or under VG_CPU_FEATURES=none).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/mlkem_kernels.h"
#include "tests/xorshift.h"

#define N VG_MLKEM_N
#define Q VG_MLKEM_Q

static uint64_t rs = 0x6b656d6b65726e31ull;

static int16_t
rnd_range(int lo, int hi)
{
	return (int16_t)(lo + (int)(vg_xorshift64s(&rs) % (uint64_t)(hi - lo + 1)));
}

static int
modq(int32_t x)
{
	x %= Q;
	return x < 0 ? x + Q : x;
}

static int
pw(int b, unsigned e)
{
	int64_t r = 1, x = modq(b);

	while (e) {
		if (e & 1)
			r = r * x % Q;
		x = x * x % Q;
		e >>= 1;
	}
	return (int)r;
}

static unsigned
brv7(unsigned i)
{
	unsigned r = 0, k;

	for (k = 0; k < 7; k++)
		r |= ((i >> k) & 1) << (6 - k);
	return r;
}

/* Fills a with kind 0: random in [lo, hi], 1: hi, 2: lo, 3: 0,
 * 4: alternating lo, hi. */
static void
fill(int16_t *a, size_t n, unsigned kind, int lo, int hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = kind == 0 ? rnd_range(lo, hi) : kind == 1 ? (int16_t)hi :
		    kind == 2 ? (int16_t)lo : kind == 3 ? 0 :
		    (int16_t)(i & 1 ? hi : lo);
}

#define KINDS 5
#define ROUNDS 200

static int
have_avx2(void)
{
	if (vg_cpu_features() & VG_CPU_AVX2)
		return 1;
	printf("# skipped: %s\n", (vg_cpu_detected() & VG_CPU_AVX2) ?
	    "AVX2 masked off by VG_CPU_FEATURES" : "this CPU has no AVX2");
	return 0;
}

/* NTT of the twin against the definition: NTT(f)_{2i + s} =
 * sum_j f_{2j + s} zeta^((2 brv7(i) + 1) j). */
static void
test_ntt_definition(void **state)
{
	int16_t a[N], b[N];
	unsigned i, j, s, r;

	(void)state;
	for (r = 0; r < 4; r++) {
		fill(a, N, r == 0 ? 0 : r, -(Q - 1), Q - 1);
		memcpy(b, a, sizeof(a));
		vg_mlkem_ntt_c(b);
		for (i = 0; i < 128; i++) {
			int g = pw(17, 2 * brv7(i) + 1);

			for (s = 0; s < 2; s++) {
				int64_t acc = 0;

				for (j = 0; j < 128; j++)
					acc = (acc + (int64_t)modq(a[2 * j + s]) *
					    pw(g, j)) % Q;
				assert_int_equal(modq(b[2 * i + s]), acc);
				assert_true(b[2 * i + s] > -Q && b[2 * i + s] < Q);
			}
		}
	}
}

/* NTT^-1(NTT(a)) = a * 2^16 mod q, for the twins. */
static void
test_ntt_roundtrip(void **state)
{
	int16_t a[N], b[N];
	unsigned i, r;

	(void)state;
	for (r = 0; r < ROUNDS; r++) {
		fill(a, N, r % KINDS, -(Q - 1), Q - 1);
		memcpy(b, a, sizeof(a));
		vg_mlkem_ntt_c(b);
		vg_mlkem_invntt_c(b);
		for (i = 0; i < N; i++) {
			assert_int_equal(modq(b[i]), modq(a[i] * 65536));
			assert_true(b[i] > -Q && b[i] < Q);
		}
	}
}

/* basemul_acc(NTT(a), NTT(b)) then NTT^-1 is a * b mod X^256 + 1. */
static void
test_basemul_definition(void **state)
{
	int16_t a[N], b[N], na[N], nb[N], c[N];
	int64_t want[N];
	unsigned i, j, r;

	(void)state;
	for (r = 0; r < 8; r++) {
		fill(a, N, 0, -(Q - 1), Q - 1);
		fill(b, N, r % KINDS, -(Q - 1), Q - 1);
		memset(want, 0, sizeof(want));
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++) {
				int64_t p = (int64_t)a[i] * b[j];

				if (i + j < N)
					want[i + j] += p;
				else
					want[i + j - N] -= p;
			}
		memcpy(na, a, sizeof(a));
		memcpy(nb, b, sizeof(b));
		vg_mlkem_ntt_c(na);
		vg_mlkem_ntt_c(nb);
		vg_mlkem_basemul_acc_c(c, na, nb, 1);
		vg_mlkem_invntt_c(c);
		for (i = 0; i < N; i++)
			assert_int_equal(modq(c[i]), (int)(((want[i] % Q) + Q) % Q));
	}
}

static void
test_ntt_avx2(void **state)
{
#if defined(__x86_64__)
	int16_t a[N + 16], b[N + 16];
	unsigned r;

	(void)state;
	if (!have_avx2()) {
		skip();
		return;
	}
	for (r = 0; r < ROUNDS; r++) {
		fill(a, N + 16, r % KINDS, -(Q - 1), Q - 1);
		memcpy(b, a, sizeof(a));
		vg_mlkem_ntt_c(a);
		vg_mlkem_ntt_avx2(b);
		assert_memory_equal(a, b, sizeof(a));
	}
	/* the inverse: congruent results below q, nothing written beyond
	 * a[N), for inputs up to the bound claimed (|a_i| < 2^12), q - 1,
	 * and random mixes of the extremes (largest sums and differences) */
	for (r = 0; r < ROUNDS + 2 * KINDS; r++) {
		static const int16_t ext[4] = { 4095, -4095, Q - 1, -(Q - 1) };
		unsigned i;

		if (r < ROUNDS)
			fill(a, N + 16, r % KINDS, -4095, 4095);
		else if (r < ROUNDS + KINDS)
			fill(a, N + 16, r % KINDS, -(Q - 1), Q - 1);
		else
			for (i = 0; i < N + 16; i++)
				a[i] = ext[vg_xorshift64s(&rs) % (r % 2 ? 2 : 4)];
		memcpy(b, a, sizeof(a));
		vg_mlkem_invntt_c(a);
		vg_mlkem_invntt_avx2(b);
		for (i = 0; i < N; i++) {
			assert_int_equal(modq(a[i]), modq(b[i]));
			assert_true(b[i] > -Q && b[i] < Q);
		}
		assert_memory_equal(a + N, b + N, 16 * sizeof(a[0]));
	}
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

static void
test_basemul_avx2(void **state)
{
#if defined(__x86_64__)
	int16_t a[4 * N], b[4 * N], c1[N + 16], c2[N + 16];
	unsigned r, n;

	(void)state;
	if (!have_avx2()) {
		skip();
		return;
	}
	for (n = 1; n <= 4; n++) {
		for (r = 0; r < ROUNDS; r++) {
			fill(a, 4 * N, r % KINDS, -(Q - 1), Q - 1);
			fill(b, 4 * N, (r / KINDS) % KINDS, -(Q - 1), Q - 1);
			memset(c1, 0x5a, sizeof(c1));
			memset(c2, 0x5a, sizeof(c2));
			vg_mlkem_basemul_acc_c(c1, a, b, n);
			vg_mlkem_basemul_acc_avx2(c2, a, b, n);
			assert_memory_equal(c1, c2, sizeof(c1));
		}
	}
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

static void
test_rej_uniform_avx2(void **state)
{
#if defined(__x86_64__)
	static const unsigned lens[] = { 256, 255, 240, 17, 16, 15, 1, 0 };
	uint8_t buf[512];
	int16_t a[N + 32], b[N + 32];
	unsigned r, l, n1, n2, kind;

	(void)state;
	if (!have_avx2()) {
		skip();
		return;
	}
	for (r = 0; r < ROUNDS; r++) {
		size_t buflen = r % 4 == 0 ? 504 : (size_t)rnd_range(0, 512);

		kind = r % 4;
		vg_xorshift_bytes(&rs, buf, sizeof(buf));
		if (kind == 1)
			memset(buf, 0xff, sizeof(buf)); /* all rejected */
		else if (kind == 2)
			memset(buf, 0x00, sizeof(buf)); /* all accepted */
		else if (kind == 3) /* values q - 1, q, q + 1 */
			for (l = 0; l + 3 <= sizeof(buf); l += 3) {
				unsigned d1 = Q - 1 + (l / 3) % 3, d2 = Q + 1;

				buf[l] = (uint8_t)d1;
				buf[l + 1] = (uint8_t)((d1 >> 8) | (d2 << 4));
				buf[l + 2] = (uint8_t)(d2 >> 4);
			}
		for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			memset(a, 0x5a, sizeof(a));
			memset(b, 0x5a, sizeof(b));
			n1 = vg_mlkem_rej_uniform_c(a, lens[l], buf, buflen);
			n2 = vg_mlkem_rej_uniform_avx2(b, lens[l], buf, buflen);
			assert_int_equal(n1, n2);
			assert_true(n1 <= lens[l]);
			assert_memory_equal(a, b, n1 * sizeof(int16_t));
			/* nothing beyond a[len) */
			assert_memory_equal(a + lens[l], b + lens[l],
			    sizeof(a) - lens[l] * sizeof(int16_t));
			for (n2 = 0; n2 < n1; n2++)
				assert_true(b[n2] >= 0 && b[n2] < Q);
		}
	}
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

/* The twin against [FIPS 203 Alg. 8] bit by bit. */
static void
test_cbd_definition(void **state)
{
	uint8_t buf[192];
	int16_t a[N];
	unsigned eta, r, i, j;

	(void)state;
	for (eta = 2; eta <= 3; eta++) {
		for (r = 0; r < 20; r++) {
			vg_xorshift_bytes(&rs, buf, sizeof(buf));
			if (r == 1)
				memset(buf, 0xff, sizeof(buf));
			vg_mlkem_cbd_c(a, buf, eta);
			for (i = 0; i < N; i++) {
				int x = 0, y = 0;

				for (j = 0; j < eta; j++) {
					unsigned bx = 2 * i * eta + j;
					unsigned by = 2 * i * eta + eta + j;

					x += (buf[bx / 8] >> (bx % 8)) & 1;
					y += (buf[by / 8] >> (by % 8)) & 1;
				}
				assert_int_equal(a[i], x - y);
			}
		}
	}
}

static void
test_cbd_avx2(void **state)
{
#if defined(__x86_64__)
	uint8_t buf[192 + 32];
	int16_t a[N + 16], b[N + 16];
	unsigned eta, r;

	(void)state;
	if (!have_avx2()) {
		skip();
		return;
	}
	for (eta = 2; eta <= 3; eta++) {
		for (r = 0; r < ROUNDS; r++) {
			vg_xorshift_bytes(&rs, buf, sizeof(buf));
			if (r % 4 == 1)
				memset(buf, 0xff, sizeof(buf));
			else if (r % 4 == 2)
				memset(buf, 0x00, sizeof(buf));
			memset(a, 0x5a, sizeof(a));
			memset(b, 0x5a, sizeof(b));
			vg_mlkem_cbd_c(a, buf, eta);
			vg_mlkem_cbd_avx2(b, buf, eta);
			assert_memory_equal(a, b, sizeof(a));
		}
	}
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

/* Compress_d of the twin against round(2^d a / q) mod 2^d for every a
 * in [0, q), and the AVX2 kernel against the twin on all of them. */
static void
test_compress(void **state)
{
	static const unsigned ds[] = { 1, 4, 5, 10, 11 };
	int16_t a[N];
	uint16_t t1[N + 16], t2[N + 16];
	unsigned di, x, i;

	(void)state;
	for (di = 0; di < sizeof(ds) / sizeof(ds[0]); di++) {
		unsigned d = ds[di];

		for (x = 0; x < Q; x += N) {
			for (i = 0; i < N; i++)
				a[i] = (int16_t)((x + i) % Q);
			memset(t1, 0x5a, sizeof(t1));
			vg_mlkem_compress_c(t1, a, d);
			for (i = 0; i < N; i++) {
				/* round(2^d a / q): q is odd, no ties */
				uint32_t num = ((uint32_t)a[i] << d) * 2 + Q;
				uint32_t want = (num / (2 * Q)) & ((1u << d) - 1);

				assert_int_equal(t1[i], want);
			}
#if defined(__x86_64__)
			if (vg_cpu_features() & VG_CPU_AVX2) {
				memset(t2, 0x5a, sizeof(t2));
				vg_mlkem_compress_avx2(t2, a, d);
				assert_memory_equal(t1, t2, sizeof(t1));
			}
#endif
		}
	}
}

/* ByteEncode_12 / ByteDecode_12: the twins round-trip every value in
 * [0, q) and flag each value >= q in any position; the AVX2 kernels give
 * the twins' bytes, coefficients and result masks on random and edge
 * inputs, and write nothing beyond their output. */
/* ByteEncode_d of compressed values: AVX2 against the twin for every d,
 * random values and the edges 0 and 2^d - 1, nothing written beyond
 * 32 d bytes. */
static void
test_pack_avx2(void **state)
{
#if defined(__x86_64__)
	static const unsigned ds[5] = { 1, 4, 5, 10, 11 };
	uint16_t t[N];
	uint8_t a[352 + 32], b[352 + 32];
	unsigned r, i, k;

	(void)state;
	if (!have_avx2()) {
		skip();
		return;
	}
	for (k = 0; k < 5; k++) {
		unsigned d = ds[k], top = (1u << d) - 1;

		for (r = 0; r < ROUNDS; r++) {
			for (i = 0; i < N; i++) {
				unsigned kind = r % KINDS;

				t[i] = (uint16_t)(kind == 0 ?
				    vg_xorshift64s(&rs) & top : kind == 1 ? top :
				    kind == 2 ? 0 : kind == 3 ?
				    (vg_xorshift64s(&rs) & 1 ? top : 0) :
				    (i & 1 ? top : 0));
			}
			memset(a, 0xa5, sizeof(a));
			memset(b, 0xa5, sizeof(b));
			vg_mlkem_pack_c(a, t, d);
			vg_mlkem_pack_avx2(b, t, d);
			assert_memory_equal(a, b, sizeof(a));
			for (i = 32 * d; i < sizeof(b); i++)
				assert_int_equal(b[i], 0xa5);
			/* the twin against the definition: bit j of value i
			 * is bit d i + j of the output */
			for (i = 0; i < N * d; i += 7)
				assert_int_equal((a[i / 8] >> (i % 8)) & 1,
				    (t[i / d] >> (i % d)) & 1);
		}
	}
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

static void
test_bytes12(void **state)
{
	int16_t a[N], b1[N + 16], b2[N + 16];
	uint8_t in[VG_MLKEM_POLY_BYTES], o1[VG_MLKEM_POLY_BYTES + 32];
	uint8_t o2[VG_MLKEM_POLY_BYTES + 32];
	unsigned r, i, kind;
	uint32_t ok1, ok2 = 0;

	(void)state;
	for (r = 0; r < ROUNDS; r++) {
		for (kind = 0; kind < KINDS; kind++) {
			fill(a, N, kind, 0, Q - 1);
			memset(o1, 0x5a, sizeof(o1));
			vg_mlkem_tobytes_c(o1, a);
			ok1 = vg_mlkem_frombytes_c(b1, o1);
			assert_int_equal(ok1, 0xffffffffu);
			assert_memory_equal(a, b1, sizeof(a));
#if defined(__x86_64__)
			if (vg_cpu_features() & VG_CPU_AVX2) {
				memset(o2, 0x5a, sizeof(o2));
				vg_mlkem_tobytes_avx2(o2, a);
				assert_memory_equal(o1, o2, sizeof(o1));
			}
#endif
		}
		/* any 12-bit values, some >= q; r selects one bad position
		 * in the edge rounds */
		for (i = 0; i < VG_MLKEM_POLY_BYTES; i++)
			in[i] = (uint8_t)vg_xorshift64s(&rs);
		if (r % 2 == 1) {
			for (i = 0; i < N; i++)
				a[i] = rnd_range(0, Q - 1);
			a[r % N] = (int16_t)rnd_range(Q, 4095);
			vg_mlkem_tobytes_c(in, a);
		}
		memset(b1, 0x5a, sizeof(b1));
		ok1 = vg_mlkem_frombytes_c(b1, in);
		for (i = 0; i < N; i++)
			assert_true(b1[i] >= 0 && b1[i] < Q);
		if (r % 2 == 1)
			assert_int_equal(ok1, 0);
#if defined(__x86_64__)
		if (vg_cpu_features() & VG_CPU_AVX2) {
			memset(b2, 0x5a, sizeof(b2));
			ok2 = vg_mlkem_frombytes_avx2(b2, in);
			assert_int_equal(ok1, ok2);
			assert_memory_equal(b1, b2, sizeof(b1));
		}
#endif
	}
	(void)ok2;
	(void)b2;
	(void)o2;
}

/* Decompress_d of the twin against round(q t / 2^d) for random and edge
 * bytes, and the AVX2 kernel against the twin (nothing written beyond
 * 256 coefficients). */
static void
test_decompress(void **state)
{
	static const unsigned ds[] = { 1, 4, 5, 10, 11 };
	uint8_t in[32 * 11];
	int16_t a1[N + 16], a2[N + 16];
	unsigned di, r, i;

	(void)state;
	for (di = 0; di < sizeof(ds) / sizeof(ds[0]); di++) {
		unsigned d = ds[di];

		for (r = 0; r < ROUNDS; r++) {
			for (i = 0; i < 32 * d; i++)
				in[i] = r == 0 ? 0xff : r == 1 ? 0 :
				    (uint8_t)vg_xorshift64s(&rs);
			memset(a1, 0x5a, sizeof(a1));
			vg_mlkem_decompress_c(a1, in, d);
			for (i = 0; i < N; i++) {
				uint32_t t = 0, b;

				for (b = 0; b < d; b++)
					t |= (uint32_t)((in[(d * i + b) / 8] >>
					    ((d * i + b) % 8)) & 1) << b;
				/* round(q t / 2^d), ties up */
				assert_int_equal(a1[i], (int)((2 * t * Q +
				    (1u << d)) >> (d + 1)));
			}
#if defined(__x86_64__)
			if (vg_cpu_features() & VG_CPU_AVX2) {
				memset(a2, 0x5a, sizeof(a2));
				vg_mlkem_decompress_avx2(a2, in, d);
				assert_memory_equal(a1, a2, sizeof(a1));
			}
#endif
		}
	}
}

/* The table: AVX2 kernels exactly when AVX2 is in use. */
static void
test_fill(void **state)
{
	struct vg_mlkem_kernels k;

	(void)state;
	vg_mlkem_kernels_fill(&k, 0);
	assert_string_equal(k.impl, "c");
	assert_ptr_equal(k.ntt, vg_mlkem_ntt_c);
	assert_ptr_equal(k.invntt, vg_mlkem_invntt_c);
	assert_ptr_equal(k.basemul_acc, vg_mlkem_basemul_acc_c);
	assert_ptr_equal(k.rej_uniform, vg_mlkem_rej_uniform_c);
	assert_ptr_equal(k.cbd, vg_mlkem_cbd_c);
	assert_ptr_equal(k.compress, vg_mlkem_compress_c);
	assert_ptr_equal(k.tobytes, vg_mlkem_tobytes_c);
	assert_ptr_equal(k.frombytes, vg_mlkem_frombytes_c);
	assert_ptr_equal(k.decompress, vg_mlkem_decompress_c);
	assert_non_null(k.keccakx4);
#if defined(__x86_64__)
	vg_mlkem_kernels_fill(&k, VG_CPU_AVX2);
	assert_string_equal(k.impl, "avx2");
	assert_ptr_equal(k.ntt, vg_mlkem_ntt_avx2);
	assert_ptr_equal(k.invntt, vg_mlkem_invntt_avx2);
	assert_ptr_equal(k.basemul_acc, vg_mlkem_basemul_acc_avx2);
	assert_ptr_equal(k.rej_uniform, vg_mlkem_rej_uniform_avx2);
	assert_ptr_equal(k.cbd, vg_mlkem_cbd_avx2);
	assert_ptr_equal(k.compress, vg_mlkem_compress_avx2);
	assert_ptr_equal(k.tobytes, vg_mlkem_tobytes_avx2);
	assert_ptr_equal(k.frombytes, vg_mlkem_frombytes_avx2);
	assert_ptr_equal(k.decompress, vg_mlkem_decompress_avx2);
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ntt_definition),
		cmocka_unit_test(test_ntt_roundtrip),
		cmocka_unit_test(test_basemul_definition),
		cmocka_unit_test(test_ntt_avx2),
		cmocka_unit_test(test_basemul_avx2),
		cmocka_unit_test(test_rej_uniform_avx2),
		cmocka_unit_test(test_cbd_definition),
		cmocka_unit_test(test_cbd_avx2),
		cmocka_unit_test(test_compress),
		cmocka_unit_test(test_pack_avx2),
		cmocka_unit_test(test_bytes12),
		cmocka_unit_test(test_decompress),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
