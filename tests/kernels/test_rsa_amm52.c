/*
 * The radix-2^52 RSA kernels for halves of 20, 30 and 40 limbs (RSA-2048,
 * 3072, 4096): the portable twins (crypto/rsa_amm52.c) against a plain
 * reference (d R' = a b mod m by long division, d < 2m, limbs normalised),
 * and the AVX-512 IFMA kernel (crypto/x86_64/vg_rsa_amm52_ifma.c), natively
 * where the CPU has IFMA and built with SIMDe everywhere, against the
 * twins word for word: the normalising pass on lanes built to ripple, the
 * AMM pair (also squaring in place), the exponentiation's dedicated
 * squaring (against the twin's AMM(a, a)) and the dual exponentiation, which
 * must leave no table entry on the stack once it returns. Operands
 * cover 0, 1, m - 1, 2m - 1 (just below 2m), all limbs full (just below
 * R', against b < m), random below m and below 2m; moduli of full size,
 * of random shorter size, with the top 64-bit word 1 and with the top
 * limb 1; the limbs past VG_RSA52_PAD(nl) of every input hold a marker
 * that must not reach the result, and those of every output must stay
 * untouched. Kernels the CPU lacks are skipped with a printed reason.
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

#include "crypto/bn.h"
#include "crypto/cpu.h"
#include "crypto/rsa_kernels.h"
#include "tests/stack_residue.h"
#include "tests/xorshift.h"

#define NLMAX VG_RSA52_MAX_LIMBS
#define M52 0xfffffffffffffULL
/* 64-bit words of 52 NLMAX bits, rounded up */
#define WMAX ((52 * NLMAX + 63) / 64)
#define EWORDS (VG_RSA52_MAX_EBITS / 64)

/* The SIMDe build of the IFMA source (crypto/x86_64/vg_rsa_amm52_emu.c). */
int vg_rsa_amm52_emu_available(void);
vg_rsa_amm52x2_fn vg_rsa_amm52x2_emu;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_emu;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_emu;
void vg_rsa_norm52_emu(uint64_t *d, const uint64_t *lanes, size_t nl);
void vg_rsa_sqr52x2_emu(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
/* its 256-bit-only variant */
vg_rsa_amm52x2_fn vg_rsa_amm52x2_emu256;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_emu256;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_emu256;
void vg_rsa_sqr52x2_emu256(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
#ifdef VG_HAVE_RSA_X86_64_KERNELS
void vg_rsa_norm52_ifma(uint64_t *d, const uint64_t *lanes, size_t nl);
void vg_rsa_sqr52x2_ifma(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);
void vg_rsa_sqr52x2_ifma256(uint64_t d[2][NLMAX],
    const uint64_t a[2][NLMAX], const uint64_t m[2][NLMAX],
    const uint64_t k0[2], size_t nl);
#endif

typedef void norm_fn(uint64_t *d, const uint64_t *lanes, size_t nl);

static const size_t limb_counts[] = { 20, 30, 40 };
#define N_SIZES (sizeof(limb_counts) / sizeof(limb_counts[0]))

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static uint64_t
neg_inv64(uint64_t m0)
{
	return vg_test_neg_inv64(m0);
}

/* 64-bit words of a half of nl limbs: 16, 24, 32. */
static size_t
words_of(size_t nl)
{
	return nl * 4 / 5;
}

/* x (n words) to nl limbs, zeros up to NLMAX. */
static void
from64(uint64_t d[NLMAX], const uint64_t *x, size_t n, size_t nl)
{
	size_t i;

	memset(d, 0, NLMAX * sizeof(uint64_t));
	for (i = 0; i < nl; i++) {
		size_t bit = 52 * i, w = bit / 64, s = bit % 64;
		uint64_t v = w < n ? x[w] >> s : 0;

		if (s > 12 && w + 1 < n)
			v |= x[w + 1] << (64 - s);
		d[i] = v & M52;
	}
}

/* nl limbs (each below 2^64) to WMAX words: the value sum a[i] 2^(52 i). */
static void
to64(uint64_t x[WMAX + 1], const uint64_t *a, size_t nl)
{
	size_t i;

	vg_bn_zero(x, WMAX + 1);
	for (i = 0; i < nl; i++) {
		uint64_t t[WMAX + 1];
		size_t bit = 52 * i, w = bit / 64, s = bit % 64;

		vg_bn_zero(t, WMAX + 1);
		t[w] = a[i] << s;
		if (s > 0)
			t[w + 1] = a[i] >> (64 - s);
		vg_bn_add(x, x, t, WMAX + 1);
	}
}

/*
 * A pair-half modulus of w words (nl limbs) and its limbs; kind 0: full
 * size (top bit set), 1: top 64-bit word 1, 2: random shorter top word,
 * 3: top limb (limb nl - 1) 1.
 */
static void
modulus(uint64_t m[NLMAX], uint64_t m64[WMAX], uint64_t *k0, size_t nl,
    int kind)
{
	size_t w = words_of(nl), i;

	vg_bn_zero(m64, WMAX);
	for (i = 0; i < w; i++)
		m64[i] = rnd();
	if (kind == 0) {
		m64[w - 1] |= (uint64_t)1 << 63;
	} else if (kind == 1) {
		m64[w - 1] = 1;
	} else if (kind == 2) {
		m64[w - 1] >>= rnd() % 63;
		m64[w - 1] |= 1;
	} else {
		size_t bit = 52 * (nl - 1);

		for (i = bit / 64; i < w; i++)
			m64[i] = 0;
		m64[bit / 64] = (rnd() & (((uint64_t)1 << (bit % 64)) - 1)) |
		    (uint64_t)1 << (bit % 64);
	}
	m64[0] |= 1;
	from64(m, m64, w, nl);
	*k0 = neg_inv64(m64[0]);
}

/* A random value below m (w words). */
static void
below(uint64_t *x, const uint64_t *m64, size_t w)
{
	uint64_t t[WMAX];
	size_t i;

	for (i = 0; i < w; i++)
		t[i] = rnd();
	vg_bn_divmod(NULL, x, t, w, m64, w);
}

/*
 * An operand in limbs; kind 0: 0, 1: 1, 2: m - 1, 3: 2m - 1, 4: random
 * below m, 5: random below 2m, 6: all limbs full (just below R').
 */
static void
operand(uint64_t x[NLMAX], const uint64_t *m64, size_t nl, int kind)
{
	uint64_t t[WMAX + 1], u[WMAX + 1];
	size_t w = words_of(nl), i;

	vg_bn_zero(t, WMAX + 1);
	switch (kind) {
	case 0:
		break;
	case 1:
		t[0] = 1;
		break;
	case 2:
		vg_bn_copy(t, m64, w);
		t[0] -= 1; /* m is odd */
		break;
	case 3:
		t[w] = vg_bn_add(t, m64, m64, w);
		t[0] -= 1; /* 2m is even and not 0 */
		break;
	case 4:
		below(t, m64, w);
		break;
	case 5:
		below(u, m64, w);
		t[w] = vg_bn_add(t, u, m64, w);
		break;
	default:
		break;
	}
	from64(x, t, w + 1, nl);
	if (kind == 6)
		for (i = 0; i < nl; i++)
			x[i] = M52;
}

/* Checks d: limbs normalised, zeros from nl up to VG_RSA52_PAD(nl),
 * d < 2m and d R' = a b (mod m), R' = 2^(52 nl). */
static void
check_amm(const uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m64, size_t nl)
{
	uint64_t x[WMAX + 1], y[WMAX + 1], z[WMAX + 1], m2[WMAX + 1];
	uint64_t ab[2 * WMAX + 2], dr[2 * WMAX + 2], r1[WMAX], r2[WMAX];
	size_t w = words_of(nl), i, sh = 52 * nl;

	for (i = 0; i < nl; i++)
		assert_true(d[i] <= M52);
	for (; i < VG_RSA52_PAD(nl); i++)
		assert_true(d[i] == 0);
	to64(x, d, nl);
	to64(y, a, nl);
	to64(z, b, nl);
	vg_bn_zero(m2, WMAX + 1);
	m2[w] = vg_bn_add(m2, m64, m64, w);
	assert_true(vg_bn_lt_mask(x, m2, WMAX + 1) != 0);
	vg_bn_mul(ab, y, WMAX + 1, z, WMAX + 1);
	vg_bn_divmod(NULL, r1, ab, 2 * WMAX + 2, m64, w);
	/* d * 2^(52 nl) */
	vg_bn_zero(dr, 2 * WMAX + 2);
	for (i = 0; i + sh / 64 + 1 < 2 * WMAX + 2 && i <= WMAX; i++) {
		dr[i + sh / 64] |= x[i] << (sh % 64);
		if (sh % 64 != 0)
			dr[i + sh / 64 + 1] |= x[i] >> (64 - sh % 64);
	}
	vg_bn_divmod(NULL, r2, dr, 2 * WMAX + 2, m64, w);
	assert_memory_equal(r1, r2, w * sizeof(uint64_t));
}

/* Operand kinds of one round: a, b (a, b < 2m, or a < R' and b < m). */
static void
kinds(int r, int h, int *ka, int *kb)
{
	*ka = (r + 3 * h) % 7;
	*kb = (r / 7 + 2 * h) % 6;
	if (*ka == 6 && (*kb == 3 || *kb == 5))
		*kb = 4;
}

/* The twin's AMM pair against the reference, every size. */
static void
test_twin_reference(void **state)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], a[2][NLMAX], b[2][NLMAX];
	uint64_t d[2][NLMAX];
	size_t s;
	int r, h;

	(void)state;
	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s];

		for (r = 0; r < 84; r++) {
			for (h = 0; h < 2; h++) {
				int ka, kb;

				kinds(r, h, &ka, &kb);
				modulus(m[h], m64[h], &k0[h], nl, (r + h) % 4);
				operand(a[h], m64[h], nl, ka);
				operand(b[h], m64[h], nl, kb);
			}
			memset(d, 0xa5, sizeof(d));
			vg_rsa_amm52x2_c(d, (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])b,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				check_amm(d[h], a[h], b[h], m64[h], nl);
		}
	}
}

/* The normalising pass on raw lanes built to need the carry ripple:
 * runs of limbs equal to 2^52 - 1 above a lane that carries, against a
 * scalar reference. */
static void
norm_compare(norm_fn *f, size_t nl, int rounds)
{
	uint64_t lanes[NLMAX], want[NLMAX], got[NLMAX], c;
	size_t np = VG_RSA52_PAD(nl), i;
	int r;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < np; i++) {
			uint64_t kind = rnd() % 4;

			if (kind == 0)
				lanes[i] = M52;
			else if (kind == 1)
				lanes[i] = M52 - (rnd() & 0xfff);
			else if (kind == 2)
				lanes[i] = rnd() >> 5; /* a big carry */
			else
				lanes[i] = rnd() & M52;
		}
		/* the value stays below 2^(52 np) */
		lanes[np - 1] &= M52 >> 2;
		if (r % 3 == 0) /* a long ripple */
			for (i = 1; i < np - 1; i++)
				lanes[i] = M52 - (i == 1 ? 0x7ff : 0);
		c = 0;
		for (i = 0; i < np; i++) {
			uint64_t v = lanes[i] + c;

			want[i] = v & M52;
			c = v >> 52;
		}
		memset(got, 0xa5, sizeof(got));
		f(got, lanes, nl);
		assert_memory_equal(got, want, np * sizeof(uint64_t));
	}
}

/* The limbs of x[0] and x[1] from VG_RSA52_PAD(nl) up, which no kernel
 * may read or write: set to v before a call, checked after. */
#define TAIL 0x5a5a5a5a5a5a5a5aULL
#define UNSET 0xa5a5a5a5a5a5a5a5ULL
static void
fill_tail(uint64_t x[2][NLMAX], size_t nl, uint64_t v)
{
	size_t i;

	for (i = VG_RSA52_PAD(nl); i < NLMAX; i++)
		x[0][i] = x[1][i] = v;
}

static void
check_tail(uint64_t x[2][NLMAX], size_t nl, uint64_t v)
{
	size_t i;

	for (i = VG_RSA52_PAD(nl); i < NLMAX; i++) {
		assert_true(x[0][i] == v);
		assert_true(x[1][i] == v);
	}
}

/* An AMM kernel against the twin, every size; also squaring in place. */
static void
amm_compare(vg_rsa_amm52x2_fn *f, int rounds)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], a[2][NLMAX], b[2][NLMAX];
	uint64_t d1[2][NLMAX], d2[2][NLMAX];
	size_t s;
	int r, h;

	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s], bytes = VG_RSA52_PAD(nl) * 8;

		for (r = 0; r < rounds; r++) {
			for (h = 0; h < 2; h++) {
				int ka, kb;

				kinds(r, h, &ka, &kb);
				modulus(m[h], m64[h], &k0[h], nl, (r + h) % 4);
				operand(a[h], m64[h], nl, ka);
				operand(b[h], m64[h], nl, kb);
			}
			fill_tail(a, nl, TAIL);
			fill_tail(b, nl, TAIL);
			fill_tail(m, nl, TAIL);
			vg_rsa_amm52x2_c(d1, (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])b,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			memset(d2, 0xa5, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])b,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, UNSET);
			/* squaring in place (b < 2m) */
			memcpy(d2, b, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])d2,
			    (const uint64_t(*)[NLMAX])d2,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			vg_rsa_amm52x2_c(d1, (const uint64_t(*)[NLMAX])b,
			    (const uint64_t(*)[NLMAX])b,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, TAIL);
		}
	}
}

typedef void sqr_fn(uint64_t d[2][NLMAX], const uint64_t a[2][NLMAX],
    const uint64_t m[2][NLMAX], const uint64_t k0[2], size_t nl);

/* The exponentiation's dedicated squaring against the twin's AMM(a, a),
 * every size: operands 0, 1, m - 1, 2m - 1, random below m and 2m, the
 * top limb of 2m - 1 with every lower limb 2^52 - 1 (the most carries in
 * the square), every modulus kind; also in place. */
static void
sqr_compare(sqr_fn *f, int rounds)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], a[2][NLMAX];
	uint64_t d1[2][NLMAX], d2[2][NLMAX];
	size_t s, i;
	int r, h;

	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s], bytes = VG_RSA52_PAD(nl) * 8;

		for (r = 0; r < rounds; r++) {
			for (h = 0; h < 2; h++) {
				int ka = (r + 5 * h) % 7;

				modulus(m[h], m64[h], &k0[h], nl, (r / 7 + h) % 4);
				operand(a[h], m64[h], nl, ka == 6 ? 3 : ka);
				if (ka == 6)
					for (i = 0; i + 1 < nl; i++)
						a[h][i] = M52;
			}
			fill_tail(a, nl, TAIL);
			fill_tail(m, nl, TAIL);
			vg_rsa_amm52x2_c(d1, (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			memset(d2, 0xa5, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])a,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++) {
				check_amm(d2[h], a[h], a[h], m64[h], nl);
				assert_memory_equal(d1[h], d2[h], bytes);
			}
			check_tail(d2, nl, UNSET);
			memcpy(d2, a, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])d2,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, TAIL);
		}
	}
}

/* A dual exponentiation kernel against the twin, every size, exponent
 * widths from 1 bit to VG_RSA52_MAX_EBITS; rounds per size. */
static void
modexp_compare(vg_rsa_modexp52x2_fn *f, int rounds)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], base[2][NLMAX];
	uint64_t one[2][NLMAX], d1[2][NLMAX], d2[2][NLMAX];
	uint64_t e0[EWORDS], e1[EWORDS];
	const uint64_t *e[2] = { e0, e1 };
	size_t s, i;
	int r, h;

	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s], bytes = VG_RSA52_PAD(nl) * 8;
		unsigned pbits = (unsigned)(64 * words_of(nl));
		const unsigned widths[] = {
			1, 5, 7, 64, pbits, pbits + 64, VG_RSA52_MAX_EBITS,
		};

		for (r = 0; r < rounds; r++) {
			unsigned ebits = widths[r % 7];

			for (h = 0; h < 2; h++) {
				modulus(m[h], m64[h], &k0[h], nl, (r + h) % 4);
				operand(base[h], m64[h], nl,
				    r % 5 == 2 ? 3 : 4 + h);
				/* any value below 2m does as "one" */
				operand(one[h], m64[h], nl, 5);
			}
			for (i = 0; i < EWORDS; i++) {
				e0[i] = rnd();
				e1[i] = rnd();
			}
			if (r % 7 == 3)
				memset(e0, 0, sizeof(e0));
			if (r % 7 == 5) /* every window 31 */
				memset(e1, 0xff, sizeof(e1));
			fill_tail(base, nl, TAIL);
			fill_tail(one, nl, TAIL);
			fill_tail(m, nl, TAIL);
			vg_rsa_modexp52x2_c(d1, (const uint64_t(*)[NLMAX])base,
			    (const uint64_t(*)[NLMAX])one, e, ebits,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			memset(d2, 0xa5, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])base,
			    (const uint64_t(*)[NLMAX])one, e, ebits,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, UNSET);
		}
	}
}

/* A power-by-a-public-exponent kernel against the twin, every size:
 * e = 65537, 3, 1, a random 64-bit e and one of 2048 bits (all ones
 * every third round), also in place; rounds per size. */
static void
powpub_compare(vg_rsa_powpub52x2_fn *f, int rounds)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], a[2][NLMAX];
	uint64_t d1[2][NLMAX], d2[2][NLMAX], e[32];
	size_t s, i;
	int r, h;

	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s], bytes = VG_RSA52_PAD(nl) * 8;

		for (r = 0; r < rounds; r++) {
			const unsigned widths[] = { 17, 2, 1, 64, 2048 };
			unsigned ebits = widths[r % 5];

			for (h = 0; h < 2; h++) {
				modulus(m[h], m64[h], &k0[h], nl, (r + h) % 4);
				operand(a[h], m64[h], nl, (r + 2 * h) % 6);
			}
			for (i = 0; i < 32; i++)
				e[i] = r % 3 == 2 ? ~(uint64_t)0 : rnd();
			if (ebits == 17)
				e[0] = 65537;
			else if (ebits == 2)
				e[0] = 3;
			else if (ebits == 1)
				e[0] = 1;
			else if (ebits == 64)
				e[0] |= (uint64_t)1 << 63;
			else
				e[31] |= (uint64_t)1 << 63;
			fill_tail(a, nl, TAIL);
			fill_tail(m, nl, TAIL);
			vg_rsa_powpub52x2_c(d1, (const uint64_t(*)[NLMAX])a, e,
			    ebits, (const uint64_t(*)[NLMAX])m, k0, nl);
			memset(d2, 0xa5, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])a, e, ebits,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, UNSET);
			memcpy(d2, a, sizeof(d2));
			f(d2, (const uint64_t(*)[NLMAX])d2, e, ebits,
			    (const uint64_t(*)[NLMAX])m, k0, nl);
			for (h = 0; h < 2; h++)
				assert_memory_equal(d1[h], d2[h], bytes);
			check_tail(d2, nl, TAIL);
		}
	}
}

/* The exponentiation's table entries 2 ... 31 (the base's powers, secret
 * in an RSA private operation) are not on the stack once f returns: with
 * a 5-bit exponent the kernel's last calls build the table, so without
 * the clearing the last squaring's operand (entry 15) stays in its frame.
 * The entries come from the kernel's own AMM and squaring, which give the
 * exponentiation's table word for word. */
static void
residue_check(vg_rsa_modexp52x2_fn *f, vg_rsa_amm52x2_fn *amm, sqr_fn *sqr)
{
	uint64_t m[2][NLMAX], m64[2][WMAX], k0[2], base[2][NLMAX];
	uint64_t one[2][NLMAX], d[2][NLMAX], x[2][NLMAX];
	uint64_t e0[EWORDS] = { 0x13 }, e1[EWORDS] = { 0x0e };
	const uint64_t *e[2] = { e0, e1 };
	uint64_t tab[32 * NLMAX] = { 0 };
	size_t s, i;
	int h;

	for (s = 0; s < N_SIZES; s++) {
		size_t nl = limb_counts[s];

		for (h = 0; h < 2; h++) {
			modulus(m[h], m64[h], &k0[h], nl, 0);
			operand(base[h], m64[h], nl, 4);
			operand(one[h], m64[h], nl, 5);
		}
		memcpy(tab + NLMAX, base[0], sizeof(base[0]));
		for (i = 2; i < 32; i++) {
			for (h = 0; h < 2; h++)
				memcpy(x[h], tab + (i % 2 ? i - 1 : i / 2) *
				    NLMAX, sizeof(x[h]));
			if (i % 2)
				amm(d, (const uint64_t(*)[NLMAX])x,
				    (const uint64_t(*)[NLMAX])base,
				    (const uint64_t(*)[NLMAX])m, k0, nl);
			else
				sqr(d, (const uint64_t(*)[NLMAX])x,
				    (const uint64_t(*)[NLMAX])m, k0, nl);
			memcpy(tab + i * NLMAX, d[0], sizeof(d[0]));
		}
		vg_residue_fill();
		f(d, (const uint64_t(*)[NLMAX])base,
		    (const uint64_t(*)[NLMAX])one, e, 5,
		    (const uint64_t(*)[NLMAX])m, k0, nl);
		assert_false(vg_residue_find(tab + 2 * NLMAX, 30, NLMAX, 4));
	}
}

static void
test_emulated(void **state)
{
	size_t s;

	(void)state;
	if (!vg_rsa_amm52_emu_available()) {
		printf("# skipped: SIMDe (libsimde-dev) was not found at build "
		    "time, the emulated IFMA kernel is not built\n");
		skip();
		return;
	}
	for (s = 0; s < N_SIZES; s++)
		norm_compare(vg_rsa_norm52_emu, limb_counts[s], 300);
	amm_compare(vg_rsa_amm52x2_emu, 42);
	sqr_compare(vg_rsa_sqr52x2_emu, 56);
	modexp_compare(vg_rsa_modexp52x2_emu, 7);
	powpub_compare(vg_rsa_powpub52x2_emu, 5);
	residue_check(vg_rsa_modexp52x2_emu, vg_rsa_amm52x2_emu,
	    vg_rsa_sqr52x2_emu);
	amm_compare(vg_rsa_amm52x2_emu256, 42);
	sqr_compare(vg_rsa_sqr52x2_emu256, 56);
	modexp_compare(vg_rsa_modexp52x2_emu256, 7);
	powpub_compare(vg_rsa_powpub52x2_emu256, 5);
	residue_check(vg_rsa_modexp52x2_emu256, vg_rsa_amm52x2_emu256,
	    vg_rsa_sqr52x2_emu256);
}

#ifdef VG_HAVE_RSA_X86_64_KERNELS
static void
test_ifma(void **state)
{
	size_t s;

	(void)state;
	if ((vg_cpu_detected() & (VG_CPU_AVX512IFMA | VG_CPU_AVX512VL)) !=
	    (VG_CPU_AVX512IFMA | VG_CPU_AVX512VL)) {
		printf("# skipped: this CPU has no AVX-512 IFMA with AVX-512 "
		    "VL, so that kernel cannot run here\n");
		skip();
		return;
	}
	for (s = 0; s < N_SIZES; s++)
		norm_compare(vg_rsa_norm52_ifma, limb_counts[s], 3000);
	amm_compare(vg_rsa_amm52x2_ifma, 420);
	sqr_compare(vg_rsa_sqr52x2_ifma, 560);
	modexp_compare(vg_rsa_modexp52x2_ifma, 21);
	powpub_compare(vg_rsa_powpub52x2_ifma, 25);
	residue_check(vg_rsa_modexp52x2_ifma, vg_rsa_amm52x2_ifma,
	    vg_rsa_sqr52x2_ifma);
	/* the 256-bit-only variant (VG_CPU_FEATURES without avx512f) */
	amm_compare(vg_rsa_amm52x2_ifma256, 420);
	sqr_compare(vg_rsa_sqr52x2_ifma256, 560);
	modexp_compare(vg_rsa_modexp52x2_ifma256, 21);
	powpub_compare(vg_rsa_powpub52x2_ifma256, 25);
	residue_check(vg_rsa_modexp52x2_ifma256, vg_rsa_amm52x2_ifma256,
	    vg_rsa_sqr52x2_ifma256);
}
#endif

/* The sizes the kernel table gives the IFMA pair: only with IFMA and VL,
 * and (on x86-64) at least RSA-2048's halves. */
static void
test_sizes_chosen(void **state)
{
	struct vg_rsa_kernels k;

	(void)state;
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX);
	assert_int_equal(k.amm52_words, 0);
	vg_rsa_kernels_fill(&k, 0);
	assert_int_equal(k.amm52_words, 0);
#ifdef VG_HAVE_RSA_X86_64_KERNELS
	vg_rsa_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX512F |
	    VG_CPU_AVX512VL | VG_CPU_AVX512IFMA);
	assert_true(k.amm52_words & VG_RSA52_WORDS_BIT(16));
	assert_int_equal(k.amm52_words & ~(VG_RSA52_WORDS_BIT(16) |
	    VG_RSA52_WORDS_BIT(24) | VG_RSA52_WORDS_BIT(32)), 0);
	printf("# IFMA pair for halves of:%s%s%s words\n",
	    k.amm52_words & VG_RSA52_WORDS_BIT(16) ? " 16" : "",
	    k.amm52_words & VG_RSA52_WORDS_BIT(24) ? " 24" : "",
	    k.amm52_words & VG_RSA52_WORDS_BIT(32) ? " 32" : "");
#endif
	assert_int_equal(VG_RSA52_LIMBS(16), 20);
	assert_int_equal(VG_RSA52_LIMBS(24), 30);
	assert_int_equal(VG_RSA52_LIMBS(32), 40);
	assert_int_equal(VG_RSA52_LIMBS(20), 0);
	/* 4m < R' for the largest m of each size */
	assert_true(64 * 16 + 2 <= 52 * 20);
	assert_true(64 * 24 + 2 <= 52 * 30);
	assert_true(64 * 32 + 2 <= 52 * 40);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twin_reference),
		cmocka_unit_test(test_emulated),
#ifdef VG_HAVE_RSA_X86_64_KERNELS
		cmocka_unit_test(test_ifma),
#endif
		cmocka_unit_test(test_sizes_chosen),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x414d4d3532ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
