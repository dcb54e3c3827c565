/*
 * The ML-DSA kernels: properties of the portable twins (the NTT inverts,
 * the rounding functions meet their definitions), then each AVX2 kernel
 * against its twin for exact equality on random and extreme inputs
 * (coefficients at 0, q - 1, +-gamma bounds, bounds above q for the norm
 * check, every a in [0, q) for the rounding functions). The AVX2 part is
 * skipped, saying why, without AVX2 (or under VG_CPU_FEATURES=none).
 * VG_TEST_SEED=<n> replays a run (the seed is printed).
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
#include "crypto/mldsa_kernels.h"
#include "tests/xorshift.h"

#define N VG_MLDSA_N
#define Q VG_MLDSA_Q
#define G88 ((Q - 1) / 88)
#define G32 ((Q - 1) / 32)

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

/* Uniform-enough integer in [lo, hi]. */
static int32_t
rnd_range(int64_t lo, int64_t hi)
{
	return (int32_t)(lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)));
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

static void
fill(int32_t *a, size_t n, int64_t lo, int64_t hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = rnd_range(lo, hi);
}

static int64_t
mod_q(int64_t a)
{
	a %= Q;
	return a < 0 ? a + Q : a;
}

static struct vg_mldsa_kernels kc, kv;

/* ------------------------------------------------------------ portable twins */

/* NTT^-1(NTT(a)) = a * 2^32 mod q, and the NTT is multiplicative. */
static void
test_c_ntt_roundtrip(void **state)
{
	int32_t a[N], b[N], c[N], d[N];
	int64_t r32 = mod_q((int64_t)1 << 32);
	unsigned i, it;

	(void)state;
	for (it = 0; it < 20; it++) {
		fill(a, N, -(Q - 1), Q - 1);
		memcpy(b, a, sizeof(a));
		vg_mldsa_ntt_c(b);
		for (i = 0; i < N; i++)
			b[i] = (int32_t)mod_q(b[i]); /* within the invntt bound */
		vg_mldsa_invntt_c(b);
		for (i = 0; i < N; i++)
			assert_int_equal(mod_q(b[i]), mod_q(a[i] * r32));
	}
	/* (x + 1)(x - 1) = x^2 - 1 in Z_q[x]/(x^256 + 1) */
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	a[0] = 1;
	a[1] = 1;
	b[0] = -1;
	b[1] = 1;
	vg_mldsa_ntt_c(a);
	vg_mldsa_ntt_c(b);
	vg_mldsa_pointwise_c(c, a, b);
	vg_mldsa_invntt_c(c);
	memset(d, 0, sizeof(d));
	d[0] = -1;
	d[2] = 1;
	for (i = 0; i < N; i++)
		assert_int_equal(mod_q(c[i]), mod_q(d[i]));
}

/* Decompose, HighBits and Power2Round meet their definitions for every
 * a in [0, q) [FIPS 204 Alg. 35, 36] and give the same for a - q; UseHint
 * of MakeHint recovers the high bits of r + z. */
static void
test_c_rounding_exhaustive(void **state)
{
	static const int32_t g2s[2] = { G88, G32 };
	int32_t a[N], a1[N], a0[N], z[N], h[N], u[N];
	unsigned gi, i;
	int32_t base;

	(void)state;
	for (base = 0; base < Q; base += N) {
		for (i = 0; i < N; i++)
			a[i] = base + (int32_t)i < Q ? base + (int32_t)i : Q - 1;
		vg_mldsa_power2round_c(a1, a0, a);
		for (i = 0; i < N; i++) {
			assert_true(a0[i] > -(1 << 12) && a0[i] <= (1 << 12));
			assert_int_equal(a1[i] * (1 << 13) + a0[i], a[i]);
		}
		/* a - q is the same residue */
		for (i = 0; i < N; i++)
			u[i] = a[i] - (a[i] > 0 ? Q : 0);
		vg_mldsa_power2round_c(z, h, u);
		assert_memory_equal(z, a1, sizeof(z));
		assert_memory_equal(h, a0, sizeof(h));
		for (gi = 0; gi < 2; gi++) {
			int32_t g2 = g2s[gi];

			for (i = 0; i < N; i++)
				u[i] = a[i] - (a[i] > 0 ? Q : 0);
			vg_mldsa_decompose_c(z, h, u, g2);
			vg_mldsa_decompose_c(a1, a0, a, g2);
			assert_memory_equal(z, a1, sizeof(z));
			assert_memory_equal(h, a0, sizeof(h));
			for (i = 0; i < N; i++) {
				int32_t r0 = (int32_t)(a[i] % (2 * g2));

				if (r0 > g2)
					r0 -= 2 * g2;
				if (a[i] - r0 == Q - 1) {
					assert_int_equal(a1[i], 0);
					assert_int_equal(a0[i], r0 - 1);
				} else {
					assert_int_equal(a1[i],
					    (a[i] - r0) / (2 * g2));
					assert_int_equal(a0[i], r0);
				}
			}
			if ((base / N) % 64 != 0)
				continue;
			/* MakeHint / UseHint on a sample of the range */
			fill(z, N, -g2, g2);
			vg_mldsa_make_hint_c(h, z, a, g2);
			vg_mldsa_use_hint_c(u, a, h, g2);
			for (i = 0; i < N; i++)
				z[i] = (int32_t)mod_q((int64_t)a[i] + z[i]);
			vg_mldsa_decompose_c(a1, a0, z, g2);
			assert_memory_equal(u, a1, sizeof(u));
		}
	}
}

/* ------------------------------------------------------------ AVX2 vs twin */

static int
have_avx2(void)
{
	if (vg_cpu_features() & VG_CPU_AVX2)
		return 1;
	printf("# skipped: %s\n", (vg_cpu_detected() & VG_CPU_AVX2) ?
	    "AVX2 is masked off by VG_CPU_FEATURES" :
	    "this CPU has no AVX2 (or this is not an x86-64 build)");
	return 0;
}

#define SKIP_WITHOUT_AVX2() do { \
	if (!have_avx2()) { \
		skip(); \
		return; \
	} \
} while (0)

static void
test_ntt(void **state)
{
	int32_t a[N], b[N], c[N];
	const int64_t big = ((int64_t)1 << 31) - 8 * (int64_t)Q - 1;
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 300; it++) {
		switch (it % 6) {
		case 0: fill(a, N, -(Q - 1), Q - 1); break;
		case 1: fill(a, N, -big, big); break;
		case 2: fill(a, N, -1, 1); break;
		case 3: fill(a, N, big, big); break;
		case 4: fill(a, N, -big, -big); break;
		default: fill(a, N, Q - 1, Q - 1); break;
		}
		memcpy(b, a, sizeof(a));
		memcpy(c, a, sizeof(a));
		kc.ntt(b);
		kv.ntt(c);
		assert_memory_equal(b, c, sizeof(b));
	}
}

static void
test_invntt(void **state)
{
	int32_t a[N], b[N], c[N];
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 300; it++) {
		switch (it % 4) {
		case 0: fill(a, N, -Q, Q); break;
		case 1: fill(a, N, Q, Q); break;
		case 2: fill(a, N, -Q, -Q); break;
		default: fill(a, N, -2, 2); break;
		}
		memcpy(b, a, sizeof(a));
		memcpy(c, a, sizeof(a));
		kc.invntt(b);
		kv.invntt(c);
		assert_memory_equal(b, c, sizeof(b));
	}
}

static void
test_pointwise(void **state)
{
	int32_t a[8][N], b[8][N], c1[N], c2[N];
	unsigned it, n;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 200; it++) {
		int32_t ab = it % 3 == 0 ? 9 * Q : Q;

		fill(a[0], 8 * N, it % 5 == 0 ? Q - 1 : 0, Q - 1);
		fill(b[0], 8 * N, -ab, ab);
		kc.pointwise(c1, a[0], b[0]);
		kv.pointwise(c2, a[0], b[0]);
		assert_memory_equal(c1, c2, sizeof(c1));
		n = 1 + it % 8;
		kc.pointwise_acc(c1, a[0], b[0], n);
		kv.pointwise_acc(c2, a[0], b[0], n);
		assert_memory_equal(c1, c2, sizeof(c1));
	}
	/* aliasing: c = a */
	fill(a[0], N, -Q, Q);
	fill(b[0], N, -Q, Q);
	memcpy(a[1], a[0], sizeof(a[0]));
	kc.pointwise(a[0], a[0], b[0]);
	kv.pointwise(a[1], a[1], b[0]);
	assert_memory_equal(a[0], a[1], sizeof(a[0]));
}

static void
test_rej_uniform(void **state)
{
	uint8_t buf[1024];
	int32_t a1[N + 8], a2[N + 8];
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 2000; it++) {
		size_t len = (size_t)rnd_range(0, sizeof(buf));
		unsigned want = (unsigned)rnd_range(0, N), n1, n2, j;

		rnd_bytes(buf, sizeof(buf));
		if (it % 4 == 0) {
			/* many candidates at q - 1, q and 2^23 - 1 */
			for (j = 0; j + 3 <= sizeof(buf); j += 3) {
				uint32_t v = (uint32_t)rnd_range(Q - 2, Q + 1);

				if (rnd() & 1)
					v = 0x7fffff | ((rnd() & 1) << 23);
				buf[j] = (uint8_t)v;
				buf[j + 1] = (uint8_t)(v >> 8);
				buf[j + 2] = (uint8_t)(v >> 16);
			}
		}
		memset(a1, 0x55, sizeof(a1));
		memset(a2, 0x55, sizeof(a2));
		n1 = kc.rej_uniform(a1, want, buf, len);
		n2 = kv.rej_uniform(a2, want, buf, len);
		assert_int_equal(n1, n2);
		assert_true(n1 <= want);
		assert_memory_equal(a1, a2, n1 * sizeof(a1[0]));
		/* nothing written beyond want coefficients */
		for (j = want; j < N + 8; j++)
			assert_int_equal(a2[j], 0x55555555);
	}
}

static void
test_rej_eta(void **state)
{
	uint8_t buf[512];
	int32_t a1[N + 8], a2[N + 8];
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 2000; it++) {
		size_t len = (size_t)rnd_range(0, sizeof(buf));
		unsigned want = (unsigned)rnd_range(0, N), n1, n2, j;
		unsigned eta = it & 1 ? 4 : 2;

		rnd_bytes(buf, sizeof(buf));
		if (it % 8 < 2)
			memset(buf, it % 8 ? 0xff : 0x8e, sizeof(buf) / 2);
		memset(a1, 0x55, sizeof(a1));
		memset(a2, 0x55, sizeof(a2));
		n1 = kc.rej_eta(a1, want, buf, len, eta);
		n2 = kv.rej_eta(a2, want, buf, len, eta);
		assert_int_equal(n1, n2);
		assert_memory_equal(a1, a2, n1 * sizeof(a1[0]));
		for (j = want; j < N + 8; j++)
			assert_int_equal(a2[j], 0x55555555);
	}
}

static void
test_expand_mask(void **state)
{
	uint8_t buf[640];
	int32_t a1[N], a2[N];
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 400; it++) {
		unsigned bits = it & 1 ? 19 : 17;

		rnd_bytes(buf, sizeof(buf));
		if (it % 8 < 4)
			memset(buf, it % 8 < 2 ? 0 : 0xff, sizeof(buf));
		kc.expand_mask(a1, buf, bits);
		kv.expand_mask(a2, buf, bits);
		assert_memory_equal(a1, a2, sizeof(a1));
	}
}

static void
test_rounding(void **state)
{
	static const int32_t g2s[2] = { G88, G32 };
	int32_t a[N], x1[N], x0[N], y1[N], y0[N], h[N];
	unsigned gi, i;
	int32_t base;

	(void)state;
	SKIP_WITHOUT_AVX2();
	/* every a in (-q, q) */
	for (base = -Q + 1; base < Q; base += N) {
		for (i = 0; i < N; i++)
			a[i] = base + (int32_t)i < Q ? base + (int32_t)i : Q - 1;
		kc.power2round(x1, x0, a);
		kv.power2round(y1, y0, a);
		assert_memory_equal(x1, y1, sizeof(x1));
		assert_memory_equal(x0, y0, sizeof(x0));
		for (gi = 0; gi < 2; gi++) {
			kc.decompose(x1, x0, a, g2s[gi]);
			kv.decompose(y1, y0, a, g2s[gi]);
			assert_memory_equal(x1, y1, sizeof(x1));
			assert_memory_equal(x0, y0, sizeof(x0));
			for (i = 0; i < N; i++)
				h[i] = (int32_t)(rnd() & 1);
			kc.use_hint(x1, a, h, g2s[gi]);
			kv.use_hint(y1, a, h, g2s[gi]);
			assert_memory_equal(x1, y1, sizeof(x1));
		}
	}
}

static void
test_make_hint(void **state)
{
	static const int32_t g2s[2] = { G88, G32 };
	int32_t r[N], z[N], h1[N], h2[N];
	unsigned it, n1, n2;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 4000; it++) {
		int32_t g2 = g2s[it & 1];

		switch (it % 5) {
		case 0: fill(r, N, 0, Q - 1); fill(z, N, -g2, g2); break;
		case 1: fill(r, N, 0, Q - 1); fill(z, N, -(Q - 1), Q - 1); break;
		case 2: fill(r, N, Q - 1 - g2, Q - 1); fill(z, N, -2, 2); break;
		case 3: fill(r, N, 0, 2 * g2); fill(z, N, -g2, g2); break;
		default: fill(r, N, 0, 1); fill(z, N, -(Q - 1), -(Q - 2)); break;
		}
		n1 = kc.make_hint(h1, z, r, g2);
		n2 = kv.make_hint(h2, z, r, g2);
		assert_int_equal(n1, n2);
		assert_memory_equal(h1, h2, sizeof(h1));
	}
}

static void
test_chknorm(void **state)
{
	static const int32_t bounds[] = {
		0, 1, 2, (1 << 17) - 78, (1 << 19) - 196, G88, G32 - 120,
		Q / 2, Q - 1, Q, Q + 1, 1 << 30, 0x7fffffff,
	};
	const int32_t amax = 0x7fffffff - Q;
	int32_t a[N];
	unsigned it, bi;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 500; it++) {
		for (bi = 0; bi < sizeof(bounds) / sizeof(bounds[0]); bi++) {
			int32_t b = bounds[bi], lim = b < Q ? b : Q;
			unsigned pos = (unsigned)rnd_range(0, N - 1);

			switch (it % 5) {
			case 0: fill(a, N, -amax, amax); break;
			case 1: fill(a, N, 1 - lim, lim - 1); break;
			case 2:
				fill(a, N, lim > 0 ? 1 - lim : 0,
				    lim > 0 ? lim - 1 : 0);
				a[pos] = (rnd() & 1) ? lim : -lim;
				break;
			case 3:
				fill(a, N, lim > 0 ? 1 - lim : 0,
				    lim > 0 ? lim - 1 : 0);
				a[pos] = (rnd() & 1) ? lim - 1 : 1 - lim;
				break;
			default:
				fill(a, N, -amax, -amax);
				break;
			}
			if (lim == 0 && it % 5 == 3)
				continue;
			assert_int_equal(kc.chknorm(a, b), kv.chknorm(a, b));
		}
	}
	/* a bound above q is q: |q - 1| passes, |q| fails */
	memset(a, 0, sizeof(a));
	a[7] = Q - 1;
	assert_int_equal(kv.chknorm(a, 0x7fffffff), 0);
	a[7] = -Q;
	assert_int_equal(kv.chknorm(a, 0x7fffffff), 1);
	assert_int_equal(kc.chknorm(a, 0x7fffffff), 1);
}

static void
test_reduce_sum(void **state)
{
	const int32_t lim = (1 << 30) - (1 << 21) - 1;
	int32_t a[N], b[N], c1[N], c2[N];
	unsigned it, i;

	(void)state;
	for (it = 0; it < 3000; it++) {
		int32_t sgn = (int32_t)(it % 3) - 1;

		switch (it % 4) {
		case 0: fill(a, N, -lim, lim); fill(b, N, -lim, lim); break;
		case 1: fill(a, N, -Q, Q); fill(b, N, -Q, Q); break;
		case 2: fill(a, N, lim - 8, lim); fill(b, N, lim - 8, lim);
			break;
		default: fill(a, N, -lim, -lim + 8); fill(b, N, -lim,
			    -lim + 8); break;
		}
		if (sgn == 0 && it % 8 == 2) /* the ends of reduce32's range */
			for (i = 0; i < N; i++)
				a[i] = i & 1 ? INT32_MIN : INT32_MAX - (1 << 22) -
				    1 - (int32_t)i;
		kc.reduce_sum(c1, a, b, sgn);
		for (i = 0; i < N; i++) {
			int64_t x = (int64_t)a[i] + sgn * (int64_t)b[i];

			assert_true(c1[i] >= -6283009 && c1[i] <= 6283008);
			assert_int_equal(mod_q(c1[i]), mod_q(x));
		}
		if (!(vg_cpu_features() & VG_CPU_AVX2))
			continue;
		kv.reduce_sum(c2, a, b, sgn);
		assert_memory_equal(c1, c2, sizeof(c1));
		/* in place */
		memcpy(c2, a, sizeof(c2));
		kv.reduce_sum(c2, c2, b, sgn);
		assert_memory_equal(c1, c2, sizeof(c1));
	}
}

static void
test_hint_input(void **state)
{
	static const int32_t g2s[2] = { G88, G32 };
	int32_t w1[N], r1[N], u1[N], r2[N], u2[N];
	unsigned it, i;

	(void)state;
	for (it = 0; it < 2000; it++) {
		int32_t g2 = g2s[it & 1], top = (Q - 1) / (2 * g2);

		switch (it % 3) {
		case 0: fill(r1, N, -(Q - 1), Q - 1); fill(u1, N, -(Q - 1),
			    Q - 1); fill(w1, N, 0, top); break;
		case 1: fill(r1, N, Q - 8, Q - 1); fill(u1, N, Q - 8, Q - 1);
			fill(w1, N, top - 1, top); break;
		default: fill(r1, N, -(Q - 1), -(Q - 8)); fill(u1, N,
			    -(Q - 1), -(Q - 8)); fill(w1, N, 0, 1); break;
		}
		memcpy(r2, r1, sizeof(r2));
		memcpy(u2, u1, sizeof(u2));
		kc.hint_input(r1, u1, w1, g2);
		for (i = 0; i < N; i++) {
			int64_t x = (int64_t)w1[i] * 2 * g2 + r2[i] + u2[i];

			assert_true(r1[i] >= 0 && r1[i] < Q);
			assert_int_equal(r1[i], mod_q(x));
			assert_int_equal(u1[i], -u2[i]);
		}
		if (!(vg_cpu_features() & VG_CPU_AVX2))
			continue;
		kv.hint_input(r2, u2, w1, g2);
		assert_memory_equal(r1, r2, sizeof(r1));
		assert_memory_equal(u1, u2, sizeof(u1));
	}
}

static void
test_w1_pack(void **state)
{
	uint8_t o1[192 + 32], o2[192 + 32];
	int32_t a[N];
	unsigned it;

	(void)state;
	SKIP_WITHOUT_AVX2();
	for (it = 0; it < 400; it++) {
		int32_t g2 = it & 1 ? G32 : G88, m = (Q - 1) / (2 * g2) - 1;

		fill(a, N, it % 4 < 2 ? 0 : m, m);
		memset(o1, 0xa5, sizeof(o1));
		memset(o2, 0xa5, sizeof(o2));
		kc.w1_pack(o1, a, g2);
		kv.w1_pack(o2, a, g2);
		assert_memory_equal(o1, o2, sizeof(o1));
	}
}

/* Each 4-way Keccak kernel the CPU can run against the portable twin,
 * on zero, all-ones and random states. */
static void
test_keccakx4(void **state)
{
#if defined(__x86_64__)
	const unsigned vl = VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL;
	uint64_t s1[100], s2[100] __attribute__((aligned(32))),
	    s3[100] __attribute__((aligned(32)));
	unsigned it, i;

	(void)state;
	SKIP_WITHOUT_AVX2();
	if ((vg_cpu_features() & vl) != vl)
		printf("# the avx512vl 4-way Keccak is not tested: AVX512F "
		    "and AVX512VL are not both in use\n");
	for (it = 0; it < 200; it++) {
		for (i = 0; i < 100; i++)
			s1[i] = it == 0 ? 0 : it == 1 ? ~(uint64_t)0 : rnd();
		memcpy(s2, s1, sizeof(s1));
		memcpy(s3, s1, sizeof(s1));
		vg_keccakx4_c(s1);
		vg_keccakx4_avx2(s2);
		assert_memory_equal(s1, s2, sizeof(s1));
		if ((vg_cpu_features() & vl) == vl) {
			vg_keccakx4_avx512vl(s3);
			assert_memory_equal(s1, s3, sizeof(s1));
		}
	}
	if ((vg_cpu_features() & vl) == vl)
		assert_ptr_equal(vg_kernels()->mldsa.keccakx4,
		    vg_keccakx4_avx512vl);
#else
	(void)state;
	printf("# skipped: not an x86-64 build\n");
	skip();
#endif
}

/* The global table follows the features in use. */
static void
test_table_matches_features(void **state)
{
	const struct vg_mldsa_kernels *k = &vg_kernels()->mldsa;

	(void)state;
	if (vg_cpu_features() & VG_CPU_AVX2) {
		const unsigned vl = VG_CPU_AVX512F | VG_CPU_AVX512VL;

		assert_string_equal(k->impl, (vg_cpu_features() & vl) == vl
		    ? "avx2+avx512vl" : "avx2");
		assert_ptr_equal(k->ntt, kv.ntt);
	} else {
		assert_string_equal(k->impl, "c");
		assert_ptr_equal(k->ntt, vg_mldsa_ntt_c);
		assert_ptr_equal(k->keccakx4, vg_keccakx4_c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_ntt_roundtrip),
		cmocka_unit_test(test_c_rounding_exhaustive),
		cmocka_unit_test(test_ntt),
		cmocka_unit_test(test_invntt),
		cmocka_unit_test(test_pointwise),
		cmocka_unit_test(test_rej_uniform),
		cmocka_unit_test(test_rej_eta),
		cmocka_unit_test(test_expand_mask),
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_make_hint),
		cmocka_unit_test(test_chknorm),
		cmocka_unit_test(test_w1_pack),
		cmocka_unit_test(test_reduce_sum),
		cmocka_unit_test(test_hint_input),
		cmocka_unit_test(test_keccakx4),
		cmocka_unit_test(test_table_matches_features),
	};
	const char *seed = getenv("VG_TEST_SEED");
	struct vg_kernels k;

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x4d4c44534bULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	vg_kernels_fill(&k, 0);
	kc = k.mldsa;
	vg_kernels_fill(&k, vg_cpu_features());
	kv = k.mldsa;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
