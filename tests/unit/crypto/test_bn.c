/*
 * Unit tests of crypto/bn.h against OpenSSL's BIGNUM on random values:
 * conversions, add/sub/compare, multiplication, long division (also on
 * values that make its digit estimates too large), inverse (every width,
 * the paired form),
 * GCD, the Montgomery context (R mod m, R^2 mod m), the fast power-of-two
 * path against the square-and-double loop (both conditions: top word
 * non-zero or zero, 2^D a single word or not), reduction into the domain,
 * and the fixed-window exponentiation, each under every kernel this CPU
 * has, and that the exponentiation leaves none of its table on the stack.
 * VG_TEST_SEED=<n> replays a run.
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

#include <openssl/bn.h>
#include <openssl/err.h>

#include "crypto/bn.h"
#include "crypto/cpu.h"
#include "crypto/modinv62.h"
#include "tests/stack_residue.h"
#include "tests/xorshift.h"

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

static BIGNUM *
to_bn(const uint64_t *x, size_t n)
{
	uint8_t buf[8 * 4 * VG_BN_MAX_WORDS + 8];
	BIGNUM *b;

	assert_true(n <= 4 * VG_BN_MAX_WORDS + 1);
	vg_bn_to_bytes(buf, 8 * n, x, n);
	b = BN_bin2bn(buf, (int)(8 * n), NULL);
	assert_non_null(b);
	return b;
}

static void
assert_bn_equal(const uint64_t *x, size_t n, const BIGNUM *want)
{
	BIGNUM *got = to_bn(x, n);

	assert_int_equal(BN_cmp(got, want), 0);
	BN_free(got);
}

/* The kernel tables this CPU can run (the portable one first). */
static size_t
kernel_sets(struct vg_rsa_kernels *k)
{
	static const unsigned sets[] = {
		0,
		VG_CPU_BMI2 | VG_CPU_ADX,
		VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512F | VG_CPU_AVX512VL |
		    VG_CPU_AVX512IFMA,
	};
	size_t i, n = 0;

	for (i = 0; i < 3; i++) {
		if ((sets[i] & vg_cpu_features()) != sets[i])
			continue;
		vg_rsa_kernels_fill(&k[n++], sets[i]);
	}
	return n;
}

/* A random odd modulus of the given bit length. */
static void
odd_modulus(uint64_t *m, unsigned bits)
{
	size_t n = (bits + 63) / 64;

	vg_bn_zero(m, VG_BN_MAX_WORDS);
	rnd_words(m, n);
	if (bits % 64)
		m[n - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
	m[(bits - 1) / 64] |= (uint64_t)1 << ((bits - 1) % 64);
	m[0] |= 1;
}

static void
test_bytes(void **state)
{
	uint8_t in[20], out[24];
	uint64_t x[3];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i + 1);
	assert_true(vg_bn_from_bytes(x, 3, in, sizeof(in)) != 0);
	assert_true(x[0] == 0x0d0e0f1011121314ULL);
	assert_true(x[2] == 0x01020304ULL);
	vg_bn_to_bytes(out, sizeof(out), x, 3);
	assert_memory_equal(out + 4, in, sizeof(in));
	assert_int_equal(out[0] | out[1] | out[2] | out[3], 0);
	/* too long for two words: reported, low words kept */
	assert_true(vg_bn_from_bytes(x, 2, in, sizeof(in)) == 0);
	assert_int_equal(vg_bn_bytes_bitlen(in, sizeof(in)), 153);
	assert_int_equal(vg_bn_bitlen(x, 2), 120 + 3); /* top byte 0x05 */
	memset(in, 0, sizeof(in));
	assert_int_equal(vg_bn_bytes_bitlen(in, sizeof(in)), 0);
	in[19] = 1;
	assert_int_equal(vg_bn_bytes_bitlen(in, sizeof(in)), 1);
	/* zero-padded input fits */
	assert_true(vg_bn_from_bytes(x, 1, in, sizeof(in)) != 0);
	assert_true(x[0] == 1);
	/* bit lengths of random values behind any number of zero bytes */
	for (i = 0; i < 2000; i++) {
		uint8_t buf[48];
		size_t len = rnd() % (sizeof(buf) + 1), z, j;
		BIGNUM *b;

		for (j = 0; j < len; j++)
			buf[j] = (uint8_t)rnd();
		z = len > 0 ? rnd() % (len + 1) : 0;
		memset(buf, 0, z);
		if (z < len && i % 3 == 0) /* a lone top bit */
			buf[z] = (uint8_t)(1 << (rnd() % 8));
		b = BN_bin2bn(buf, (int)len, NULL);
		assert_non_null(b);
		assert_int_equal(vg_bn_bytes_bitlen(buf, len), BN_num_bits(b));
		BN_free(b);
	}
}

static void
test_arith_vs_openssl(void **state)
{
	uint64_t a[2 * VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS], m[VG_BN_MAX_WORDS];
	uint64_t d[2 * VG_BN_MAX_WORDS], q[2 * VG_BN_MAX_WORDS];
	uint64_t r[VG_BN_MAX_WORDS];
	BN_CTX *ctx = BN_CTX_new();
	int i;

	(void)state;
	for (i = 0; i < 200; i++) {
		size_t n = 1 + rnd() % 32, an = 1 + rnd() % 64;
		unsigned mbits = 2 + (unsigned)(rnd() % (64 * n - 1));
		BIGNUM *A, *B, *M, *T = BN_new(), *U = BN_new();
		uint64_t c;

		rnd_words(a, an);
		rnd_words(b, n);
		if (i % 7 == 0)
			b[n - 1] = 0;
		A = to_bn(a, n);
		B = to_bn(b, n);
		/* add, sub, compare */
		c = vg_bn_add(d, a, b, n);
		BN_add(T, A, B);
		d[n] = c;
		assert_bn_equal(d, n + 1, T);
		c = vg_bn_sub(d, a, b, n);
		assert_int_equal(c, BN_cmp(A, B) < 0);
		assert_int_equal(vg_bn_lt_mask(a, b, n) != 0, BN_cmp(A, B) < 0);
		assert_true(vg_bn_eq_mask(a, a, n) != 0);
		/* multiplication */
		vg_bn_mul(d, a, n, b, n);
		BN_mul(T, A, B, ctx);
		assert_bn_equal(d, 2 * n, T);
		BN_free(A);
		/* division of an an-word value by an mbits modulus */
		odd_modulus(m, mbits);
		if (i % 3 == 0)
			m[0] &= ~(uint64_t)1; /* even divisors too */
		if (vg_bn_zero_mask(m, n))
			m[0] = 3;
		A = to_bn(a, an);
		M = to_bn(m, n);
		vg_bn_divmod(q, r, a, an, m, n);
		BN_div(T, U, A, M, ctx);
		assert_bn_equal(q, an, T);
		assert_bn_equal(r, n, U);
		assert_true(vg_bn_mod_word(a, an, m[0] | 1) ==
		    BN_mod_word(A, (BN_ULONG)(m[0] | 1)));
		BN_free(A);
		BN_free(B);
		BN_free(M);
		BN_free(T);
		BN_free(U);
	}
	BN_CTX_free(ctx);
}

/* A word from the patterns that stress a division's digit estimates. */
static uint64_t
edge_word(void)
{
	static const uint64_t w[] = {
		0, 1, 2, (uint64_t)1 << 63, ((uint64_t)1 << 63) - 1,
		((uint64_t)1 << 63) + 1, ~(uint64_t)0, ~(uint64_t)0 - 1,
		(uint64_t)1 << 32, ((uint64_t)1 << 32) - 1,
	};

	return rnd() % 3 == 0 ? rnd() : w[rnd() % (sizeof(w) / sizeof(w[0]))];
}

/*
 * Long division on values built from edge words (runs of all-ones, lone
 * top bits, zero words), every divisor length up to the maximum with its
 * top word anywhere below word mn - 1, dividends up to the longest taken
 * (2 VG_BN_MAX_WORDS + 2 words), exact multiples and a dividend below the
 * divisor: the digit estimate of each quotient word is corrected once or
 * twice in many of them. Against BN_div; also the aliasing the header
 * allows (q and r over a), and vg_bn_divmod_pub where the divisor's top
 * word is not zero.
 */
typedef void divmod_fn(uint64_t *q, uint64_t *r, const uint64_t *a,
    size_t an, const uint64_t *m, size_t mn);

/* The aliasing the header allows: the quotient over the dividend, then
 * the remainder; Q and R are the quotient and remainder of a by m. */
static void
check_aliasing(divmod_fn *div, const uint64_t *a, size_t an,
    const uint64_t *m, size_t mn, const BIGNUM *Q, const BIGNUM *R)
{
	uint64_t x[2 * VG_BN_MAX_WORDS + 2], r[VG_BN_MAX_WORDS];

	vg_bn_copy(x, a, an);
	div(x, r, x, an, m, mn);
	assert_bn_equal(x, an, Q);
	vg_bn_copy(x, a, an);
	div(NULL, x, x, an, m, mn);
	assert_bn_equal(x, mn, R);
}

/*
 * Quotient words whose estimate from the top two words is 2 too large,
 * which step D3's test with the next word brings to 1 too large before
 * the one add-back the division makes: found by a search over edge
 * words (the top three words of the window, the top two of the
 * divisor), below zero to two more words of either.
 */
static void
test_divmod_estimate_two_over(void **state)
{
	static const uint64_t cases[][5] = {
		/* u2, u1, u0 (the window's top), d1, d0 (the divisor's) */
		{ 0x8000000000000000, 0x100000000, 0x1, 0x8000000000000001,
		    0xfffffffffffffffe },
		{ 0x6f9ac07c5b6e138f, 0xffffffff, 0x6dcc9a39870627fd,
		    0x8000000000000000, 0xf83362be0cf61ff6 },
		{ 0x708873e74c38f981, 0x1, 0x8000000000000001,
		    0x8000000000000000, 0xe255fb7162af6090 },
	};
	BN_CTX *ctx = BN_CTX_new();
	size_t c, low;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (low = 0; low <= 2; low++) {
			uint64_t a[5], m[4], q[5], r[4];
			size_t an = 3 + low, mn = 2 + low, j;
			BIGNUM *A, *M, *Q = BN_new(), *R = BN_new();

			for (j = 0; j < low; j++) {
				a[j] = ~(uint64_t)0 - j;
				m[j] = (uint64_t)1 << (63 - j);
			}
			a[low] = cases[c][2];
			a[low + 1] = cases[c][1];
			a[low + 2] = cases[c][0];
			m[low] = cases[c][4];
			m[low + 1] = cases[c][3];
			A = to_bn(a, an);
			M = to_bn(m, mn);
			assert_true(BN_div(Q, R, A, M, ctx) == 1);
			vg_bn_divmod(q, r, a, an, m, mn);
			assert_bn_equal(q, an, Q);
			assert_bn_equal(r, mn, R);
			vg_bn_divmod_pub(q, r, a, an, m, mn);
			assert_bn_equal(q, an, Q);
			assert_bn_equal(r, mn, R);
			BN_free(A);
			BN_free(M);
			BN_free(Q);
			BN_free(R);
		}
	}
	BN_CTX_free(ctx);
}

static void
test_divmod_edges(void **state)
{
	enum { AMAX = 2 * VG_BN_MAX_WORDS + 2 };
	uint64_t a[AMAX + VG_BN_MAX_WORDS], m[VG_BN_MAX_WORDS];
	uint64_t q[AMAX], r[VG_BN_MAX_WORDS];
	BN_CTX *ctx = BN_CTX_new();
	int i;

	(void)state;
	for (i = 0; i < 3000; i++) {
		size_t mn = 1 + rnd() % VG_BN_MAX_WORDS;
		size_t an = rnd() % (AMAX + 1);
		size_t top = rnd() % 4 == 0 ? rnd() % mn : mn - 1, j;
		BIGNUM *A, *M, *Q = BN_new(), *R = BN_new();

		if (i < 64) { /* the sizes RSA divides by */
			mn = 1 + (size_t)i % 32;
			an = 2 * mn + (size_t)(i / 32);
			top = mn - 1;
		}
		vg_bn_zero(m, mn);
		for (j = 0; j <= top; j++)
			m[j] = edge_word();
		if (m[top] == 0)
			m[top] = rnd() | 1;
		for (j = 0; j < an; j++)
			a[j] = edge_word();
		if (i % 5 == 0 && an >= mn) { /* a multiple of m (+ 1) */
			uint64_t f[AMAX];
			size_t fn = an - mn;

			for (j = 0; j < fn; j++)
				f[j] = edge_word();
			if (fn > 0) {
				vg_bn_mul(a, m, mn, f, fn);
				a[0] += (uint64_t)(i % 2);
				if (a[0] == 0 && i % 2) /* kept exact */
					a[0] = ~(uint64_t)0;
			}
		}
		A = to_bn(a, an > 0 ? an : 1);
		if (an == 0)
			BN_zero(A);
		M = to_bn(m, mn);
		assert_true(BN_div(Q, R, A, M, ctx) == 1);
		vg_bn_divmod(q, r, a, an, m, mn);
		if (an > 0)
			assert_bn_equal(q, an, Q);
		assert_bn_equal(r, mn, R);
		if (an > 0 && an >= mn)
			check_aliasing(vg_bn_divmod, a, an, m, mn, Q, R);
		/* a divisor of public length: its top word is not zero */
		if (top == mn - 1 && an >= mn) {
			vg_bn_zero(q, an);
			q[an - 1] = ~(uint64_t)0; /* set to 0 if above */
			vg_bn_divmod_pub(q, r, a, an, m, mn);
			assert_bn_equal(q, an, Q);
			assert_bn_equal(r, mn, R);
			check_aliasing(vg_bn_divmod_pub, a, an, m, mn, Q, R);
		}
		/* by one word: edge words, even ones too */
		if (an > 0) {
			uint64_t w = edge_word();

			w += w == 0;

			assert_true(vg_bn_mod_word(a, an, w) ==
			    BN_mod_word(A, (BN_ULONG)w));
		}
		BN_free(A);
		BN_free(M);
		BN_free(Q);
		BN_free(R);
	}
	BN_CTX_free(ctx);
}

static void
test_inverse_gcd(void **state)
{
	uint64_t a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS], m[VG_BN_MAX_WORDS];
	uint64_t d[VG_BN_MAX_WORDS];
	BN_CTX *ctx = BN_CTX_new();
	int i;

	(void)state;
	for (i = 0; i < 60; i++) {
		size_t n = 1 + rnd() % 16;
		unsigned bits = 2 + (unsigned)(rnd() % (64 * n - 1));
		BIGNUM *A, *B, *M, *T = BN_new();
		uint64_t ok;

		odd_modulus(m, bits);
		rnd_words(a, n);
		vg_bn_divmod(NULL, d, a, n, m, n);
		vg_bn_copy(a, d, n);
		if (i % 10 == 1)
			vg_bn_zero(a, n);
		A = to_bn(a, n);
		M = to_bn(m, n);
		ok = vg_bn_mod_inv(d, a, m, n);
		if (BN_mod_inverse(T, A, M, ctx) != NULL) {
			assert_true(ok != 0);
			assert_bn_equal(d, n, T);
		} else {
			ERR_clear_error();
			assert_true(ok == 0);
		}
		/* GCD of any two non-zero values (even ones too) */
		rnd_words(a, n);
		rnd_words(b, n);
		a[0] |= 1;
		a[0] <<= rnd() % 5;
		b[0] <<= rnd() % 5;
		if (i % 4 == 0)
			vg_bn_copy(b, a, n);
		b[0] |= vg_bn_zero_mask(b, n) & 2;
		BN_free(A);
		A = to_bn(a, n);
		B = to_bn(b, n);
		vg_bn_gcd(d, a, b, n);
		BN_gcd(T, A, B, ctx);
		assert_bn_equal(d, n, T);
		BN_free(A);
		BN_free(B);
		BN_free(M);
		BN_free(T);
	}
	BN_CTX_free(ctx);
}

/*
 * The inverse at every width up to VG_BN_MAX_WORDS, against
 * BN_mod_inverse: moduli of every length in their n words (top words
 * zero too), 3, 2^(64 n) - 1 and primes' neighbours of that shape;
 * inputs 0, 1, 2, m - 1, m - 2, powers of two, a with a common factor
 * (then 0 is returned), and random. The paired form gives what two single
 * calls give.
 */
static void
test_inverse_widths(void **state)
{
	uint64_t a[VG_BN_MAX_WORDS], b[VG_BN_MAX_WORDS], m[VG_BN_MAX_WORDS];
	uint64_t m2[VG_BN_MAX_WORDS], d[VG_BN_MAX_WORDS + 1];
	uint64_t e[VG_BN_MAX_WORDS];
	uint64_t d2[VG_BN_MAX_WORDS], e2[VG_BN_MAX_WORDS], ok2[2];
	BN_CTX *ctx = BN_CTX_new();
	int i;

	(void)state;
	for (i = 0; i < 700; i++) {
		size_t n = 1 + (size_t)i % VG_BN_MAX_WORDS, j;
		unsigned bits = 64 * (unsigned)n - (unsigned)(rnd() % 64);
		BIGNUM *A, *M, *T = BN_new();
		uint64_t ok;

		if (i % 5 == 1) /* a shorter modulus in n words */
			bits = 2 + (unsigned)(rnd() % (64 * n - 1));
		odd_modulus(m, bits);
		if (i % 11 == 2) { /* 2^(64 n) - 1 */
			for (j = 0; j < n; j++)
				m[j] = ~(uint64_t)0;
		} else if (i % 11 == 3) {
			vg_bn_zero(m, n);
			m[0] = 3;
		}
		rnd_words(a, n);
		vg_bn_divmod(NULL, d, a, n, m, n);
		vg_bn_copy(a, d, n);
		switch (i % 9) {
		case 0:
			vg_bn_zero(a, n);
			break;
		case 1:
			vg_bn_zero(a, n);
			a[0] = 1;
			break;
		case 2: /* m - 1, m - 2 */
			vg_bn_copy(a, m, n);
			a[0] -= 1 + (uint64_t)(i % 2);
			break;
		case 3: /* a power of two below m */
			vg_bn_zero(a, n);
			j = (size_t)(rnd() % (vg_bn_bitlen(m, n) - 1));
			a[j / 64] = (uint64_t)1 << (j % 64);
			break;
		case 4: /* a common factor: m = 3 k, a = 3 */
			vg_bn_zero(a, n);
			a[0] = 3;
			vg_bn_zero(b, n);
			b[0] = 3;
			vg_bn_mul(d, m, n, b, 1);
			if (d[n] == 0 && vg_bn_lt_mask(a, d, n))
				vg_bn_copy(m, d, n);
			break;
		default:
			break;
		}
		A = to_bn(a, n);
		M = to_bn(m, n);
		ok = vg_bn_mod_inv(d, a, m, n);
		if (BN_is_one(M) == 0 &&
		    BN_mod_inverse(T, A, M, ctx) != NULL) {
			assert_true(ok == ~(uint64_t)0);
			assert_bn_equal(d, n, T);
		} else {
			ERR_clear_error();
			assert_true(ok == 0);
		}
		/* the pair: this one and another of the same width */
		odd_modulus(m2, 64 * (unsigned)n - (unsigned)(rnd() % 64));
		rnd_words(b, n);
		vg_bn_divmod(NULL, e, b, n, m2, n);
		vg_bn_copy(b, e, n);
		ok = vg_bn_mod_inv(e, b, m2, n);
		vg_modinv62_n_x2(d2, a, m, e2, b, m2, n, ok2);
		assert_true(ok2[0] == vg_bn_mod_inv(d, a, m, n));
		assert_true(ok2[1] == ok);
		assert_memory_equal(d2, d, 8 * n);
		assert_memory_equal(e2, e, 8 * n);
		BN_free(A);
		BN_free(M);
		BN_free(T);
	}
	BN_CTX_free(ctx);
}

static void
test_mont_context(void **state)
{
	static const unsigned bits[] = {
		3, 64, 65, 255, 256, 257, 511, 512, 1000, 1023, 1024, 1025,
		1536, 2047, 2048, 3072, 4095, 4096,
	};
	struct vg_rsa_kernels ks[3];
	size_t nk = kernel_sets(ks), i, j;
	BN_CTX *ctx = BN_CTX_new();

	(void)state;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		for (j = 0; j < nk; j++) {
			uint64_t m[VG_BN_MAX_WORDS], x[VG_BN_MAX_WORDS];
			uint64_t y[VG_BN_MAX_WORDS], big[4 * VG_BN_MAX_WORDS];
			uint64_t g[VG_BN_MAX_WORDS];
			struct vg_bn_mont c;
			BIGNUM *M, *T = BN_new(), *E = BN_new(), *X;
			unsigned e, w, kk;

			odd_modulus(m, bits[i]);
			if (i % 3 == 0 && bits[i] > 64)
				m[(bits[i] - 1) / 64] = (uint64_t)1
				    << ((bits[i] - 1) % 64); /* top word 1 */
			assert_int_equal(vg_bn_mont_init(&c, m, VG_BN_MAX_WORDS,
			    &ks[j]), 0);
			w = c.w;
			assert_int_equal(w, VG_BN_MONT_WORDS(bits[i]));
			assert_int_equal(c.bits, bits[i]);
			M = to_bn(m, w);
			/* R mod m and R^2 mod m */
			BN_set_word(E, 64 * w);
			BN_set_word(T, 2);
			BN_mod_exp(T, T, E, M, ctx);
			assert_bn_equal(c.one, w, T);
			BN_set_word(E, 128 * w);
			BN_set_word(T, 2);
			BN_mod_exp(T, T, E, M, ctx);
			assert_bn_equal(c.rr, w, T);
			/* 2^e: the fast path and the loop agree with OpenSSL */
			for (e = 0; e < 64 * w * 4 + 100; e += 1 + (unsigned)(rnd() % 97)) {
				BN_set_word(E, e);
				BN_set_word(T, 2);
				BN_mod_exp(T, T, E, M, ctx);
				vg_bn_mont_pow2(&c, x, e);
				assert_bn_equal(x, w, T);
				vg_bn_mont_pow2_loop(&c, y, e);
				assert_bn_equal(y, w, T);
			}
			/* import: any K*w-word value into the domain */
			for (kk = 1; kk <= 4; kk++) {
				vg_bn_mont_pow2(&c, g, 64 * w * (kk + 1));
				rnd_words(big, kk * w);
				vg_bn_mont_import(&c, x, big, kk * w, g, kk * w);
				X = to_bn(big, kk * w);
				BN_set_word(E, 64 * w);
				BN_set_word(T, 2);
				BN_mod_exp(T, T, E, M, ctx);
				BN_mod_mul(T, T, X, M, ctx);
				assert_bn_equal(x, w, T);
				BN_free(X);
			}
			BN_free(M);
			BN_free(T);
			BN_free(E);
			vg_bn_mont_wipe(&c);
		}
	/* even or out of range moduli are refused */
	{
		uint64_t m[VG_BN_MAX_WORDS] = { 10 };
		struct vg_bn_mont c;

		assert_int_equal(vg_bn_mont_init(&c, m, 1, NULL), -1);
		m[0] = 1;
		assert_int_equal(vg_bn_mont_init(&c, m, 1, NULL), -1);
	}
	BN_CTX_free(ctx);
}

static void
test_exp_vs_openssl(void **state)
{
	static const unsigned bits[] = { 256, 512, 1021, 1024, 1536, 2048 };
	struct vg_rsa_kernels ks[3];
	size_t nk = kernel_sets(ks), i, j;
	BN_CTX *ctx = BN_CTX_new();

	(void)state;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS];
		uint64_t e[VG_BN_MAX_WORDS + 1], x[VG_BN_MAX_WORDS];
		BIGNUM *M, *A, *E, *T = BN_new();
		unsigned ebits = bits[i] + (i % 2 ? 64 : 3);

		odd_modulus(m, bits[i]);
		rnd_words(a, VG_BN_MAX_WORDS);
		vg_bn_divmod(NULL, x, a, (bits[i] + 63) / 64, m,
		    (bits[i] + 63) / 64);
		vg_bn_zero(a, VG_BN_MAX_WORDS);
		vg_bn_copy(a, x, (bits[i] + 63) / 64);
		vg_bn_zero(e, VG_BN_MAX_WORDS + 1);
		rnd_words(e, (ebits + 63) / 64);
		if (ebits % 64)
			e[ebits / 64] &= ((uint64_t)1 << (ebits % 64)) - 1;
		M = to_bn(m, VG_BN_MAX_WORDS);
		A = to_bn(a, VG_BN_MAX_WORDS);
		E = to_bn(e, VG_BN_MAX_WORDS + 1);
		BN_mod_exp(T, A, E, M, ctx);
		for (j = 0; j < nk; j++) {
			struct vg_bn_mont c;

			assert_int_equal(vg_bn_mont_init(&c, m, VG_BN_MAX_WORDS,
			    &ks[j]), 0);
			vg_bn_mont_to(&c, x, a);
			vg_bn_mont_exp(&c, x, x, e, ebits);
			vg_bn_mont_from(&c, x, x);
			assert_bn_equal(x, c.w, T);
			vg_bn_mont_to(&c, x, a);
			vg_bn_mont_exp_public(&c, x, x, e, ebits);
			vg_bn_mont_from(&c, x, x);
			assert_bn_equal(x, c.w, T);
			/* exponent 0 gives 1 */
			vg_bn_mont_to(&c, x, a);
			vg_bn_mont_exp(&c, x, x, e, 0);
			vg_bn_mont_from(&c, x, x);
			assert_true(x[0] == 1 && vg_bn_zero_mask(x + 1, c.w - 1));
		}
		BN_free(M);
		BN_free(A);
		BN_free(E);
		BN_free(T);
	}
	BN_CTX_free(ctx);
}

static void
test_table_select(void **state)
{
	uint64_t t[32 * 5], d[5];
	uint64_t i;

	(void)state;
	rnd_words(t, 32 * 5);
	for (i = 0; i < 32; i++) {
		vg_bn_table_select(d, t, 32, 5, i);
		assert_memory_equal(d, t + 5 * i, sizeof(d));
	}
	vg_bn_table_select(d, t, 32, 5, 32);
	assert_true(vg_bn_zero_mask(d, 5) != 0);
}

/* The exponentiation's table entries 2 ... 31 (the base's powers, secret
 * in an RSA private operation) are not on the stack once it returns: with
 * a 5-bit exponent its last kernel calls build the table, and the
 * almost-Montgomery kernels leave their products (the entries among
 * them) in their frames for the exponentiation's one clearing. The
 * entries come from the kernels themselves, made as the exponentiation
 * makes them. */
static void
test_exp_stack(void **state)
{
	static const unsigned bits[] = { 1024, 1536, 2048 };
	struct vg_rsa_kernels ks[3];
	size_t nk = kernel_sets(ks), i, j, k;
	uint64_t m[VG_BN_MAX_WORDS], a[VG_BN_MAX_WORDS], d[VG_BN_MAX_WORDS];
	uint64_t tab[32 * VG_BN_MAX_WORDS];
	uint64_t e = 0x13;

	(void)state;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		for (j = 0; j < nk; j++) {
			struct vg_bn_mont c;
			size_t w;

			odd_modulus(m, bits[i]);
			assert_int_equal(vg_bn_mont_init(&c, m, VG_BN_MAX_WORDS,
			    &ks[j]), 0);
			w = c.w;
			rnd_words(a, w);
			a[w - 1] >>= 1;
			vg_bn_copy(tab + w, a, w);
			for (k = 2; k < 32; k++)
				if (k % 2 == 0)
					c.asqr(tab + k * w, tab + (k / 2) * w,
					    c.m, c.m0i, w);
				else
					c.amul(tab + k * w, tab + (k - 1) * w,
					    a, c.m, c.m0i, w);
			vg_residue_fill();
			vg_bn_mont_exp(&c, d, a, &e, 5);
			assert_false(vg_residue_find(tab + 2 * w, 30, w, 4));
			printf("# %u bits, kernels %s: no table entry left "
			    "on the stack\n", bits[i], ks[j].impl);
			vg_bn_mont_wipe(&c);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_arith_vs_openssl),
		cmocka_unit_test(test_divmod_edges),
		cmocka_unit_test(test_divmod_estimate_two_over),
		cmocka_unit_test(test_inverse_gcd),
		cmocka_unit_test(test_inverse_widths),
		cmocka_unit_test(test_mont_context),
		cmocka_unit_test(test_exp_vs_openssl),
		cmocka_unit_test(test_table_select),
		cmocka_unit_test(test_exp_stack),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x424e5345ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
