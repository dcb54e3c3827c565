/*
 * Montgomery arithmetic: the portable multiply and square kernels (the
 * twins of crypto/x86_64/vg_bn_mont*_adx.c), context set-up, powers of two,
 * reduction into the domain, and the fixed-window exponentiation.
 */
#include "config.h"

#include <assert.h>

#include "crypto/bn.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"

typedef unsigned __int128 u128;

/* Subtracts m from the n-word value t with top word hi (0 or 1) if
 * t >= m, writing the result, below m, to d. */
static void
final_sub(uint64_t *d, const uint64_t *t, uint64_t hi, const uint64_t *m,
    size_t n)
{
	uint64_t br = vg_bn_sub(d, t, m, n);

	/* keep t when the subtraction borrowed and there was no top word */
	vg_bn_cmov(d, t, n, 0 - (br & (hi ^ 1)));
}

/* t (n + 2 words) = (a * b + Y * m) / R by CIOS; t[n] is 0 or 1. */
static void
mul_redc(uint64_t *t, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n)
{
	size_t i, j;

	assert(n >= 1 && n <= VG_BN_MAX_WORDS);
	vg_bn_zero(t, n + 2);
	for (i = 0; i < n; i++) {
		uint64_t c = 0, y;
		u128 s;

		for (j = 0; j < n; j++) {
			s = (u128)a[j] * b[i] + t[j] + c;
			t[j] = (uint64_t)s;
			c = (uint64_t)(s >> 64);
		}
		s = (u128)t[n] + c;
		t[n] = (uint64_t)s;
		t[n + 1] = (uint64_t)(s >> 64);

		y = t[0] * m0i;
		s = (u128)m[0] * y + t[0];
		c = (uint64_t)(s >> 64);
		for (j = 1; j < n; j++) {
			s = (u128)m[j] * y + t[j] + c;
			t[j - 1] = (uint64_t)s;
			c = (uint64_t)(s >> 64);
		}
		s = (u128)t[n] + c;
		t[n - 1] = (uint64_t)s;
		t[n] = t[n + 1] + (uint64_t)(s >> 64);
	}
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montmul_c(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n)
{
	uint64_t t[VG_BN_MAX_WORDS + 2];

	mul_redc(t, a, b, m, m0i, n);
	final_sub(d, t, t[n], m, n);
	vg_wipe(t, sizeof(t));
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montmul_amm_c(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n)
{
	uint64_t t[VG_BN_MAX_WORDS + 2];

	mul_redc(t, a, b, m, m0i, n);
	vg_bn_csub(t, m, n, 0 - t[n]);
	vg_bn_copy(d, t, n);
}

/* t (2n words) = a^2 + Y * m; returns the top word of (a^2 + Y m) / R,
 * whose low n words are t[n .. 2n). */
static uint64_t
sqr_redc(uint64_t *t, const uint64_t *a, const uint64_t *m, uint64_t m0i,
    size_t n)
{
	uint64_t top = 0, c;
	size_t i;

	assert(n >= 1 && n <= VG_BN_MAX_WORDS);
	/* off-diagonal products a[i] * a[j], i < j, then doubled */
	vg_bn_zero(t, 2 * n);
	for (i = 0; i + 1 < n; i++)
		t[i + n] = vg_bn_muladd_word(t + 2 * i + 1, a + i + 1, a[i],
		    n - i - 1);
	c = 0;
	for (i = 0; i < 2 * n; i++) {
		uint64_t v = t[i];

		t[i] = (v << 1) | c;
		c = v >> 63;
	}
	/* plus the squares a[i]^2 */
	c = 0;
	for (i = 0; i < n; i++) {
		u128 sq = (u128)a[i] * a[i];
		u128 s = (u128)t[2 * i] + (uint64_t)sq + c;

		t[2 * i] = (uint64_t)s;
		s = (u128)t[2 * i + 1] + (uint64_t)(sq >> 64) +
		    (uint64_t)(s >> 64);
		t[2 * i + 1] = (uint64_t)s;
		c = (uint64_t)(s >> 64);
	}
	/* reduction: n word steps, each carry deferred to the next */
	for (i = 0; i < n; i++) {
		uint64_t y = t[i] * m0i;
		u128 s;

		c = vg_bn_muladd_word(t + i, m, y, n);
		s = (u128)t[i + n] + c + top;
		t[i + n] = (uint64_t)s;
		top = (uint64_t)(s >> 64);
	}
	return top;
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montsqr_c(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	uint64_t t[2 * VG_BN_MAX_WORDS], top;

	top = sqr_redc(t, a, m, m0i, n);
	final_sub(d, t + n, top, m, n);
	vg_wipe(t, sizeof(t));
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montsqr_amm_c(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	uint64_t t[2 * VG_BN_MAX_WORDS], top;

	top = sqr_redc(t, a, m, m0i, n);
	vg_bn_csub(t + n, m, n, 0 - top);
	vg_bn_copy(d, t + n, n);
}

/* -m0^-1 mod 2^64 by Newton's iteration (each step doubles the correct
 * low bits; 3 * m0 ^ 2 is right to 5 bits). */
static uint64_t
neg_inv64(uint64_t m0)
{
	uint64_t x = (3 * m0) ^ 2;
	int i;

	for (i = 0; i < 4; i++)
		x *= 2 - m0 * x;
	return 0 - x;
}

/*
 * c->one = R mod m and c->rr = R^2 mod m (R = 2^(64w)) for c's m, bits
 * and w: two divisions by m, whose length is public (2 and w + 2 quotient
 * words). The square-and-double loop from R took log2(64w) Montgomery
 * squarings (8.1-8.4 us for 2048 bits, AMD EPYC family 26; now 5.6-6.1
 * us). CT: only w and bits.
 */
static void
mont_consts(struct vg_bn_mont *c)
{
	uint64_t a[2 * VG_BN_MAX_WORDS + 1];
	size_t w = c->w, mn = (c->bits + 63) / 64;

	vg_bn_zero(a, 2 * w + 1);
	a[w] = 1;
	vg_bn_divmod_pub(NULL, c->one, a, w + 1, c->m, mn);
	a[w] = 0;
	a[2 * w] = 1;
	vg_bn_divmod_pub(NULL, c->rr, a, 2 * w + 1, c->m, mn);
}

/* see crypto/bn.h */
int
vg_bn_mont_init(struct vg_bn_mont *c, const uint64_t *m, size_t mn,
    const struct vg_rsa_kernels *k)
{
	unsigned bits, w;
	uint64_t odd;

	assert(c != NULL && m != NULL);
	vg_bn_mont_wipe(c);
	if (mn > VG_BN_MAX_WORDS)
		return -1;
	/* the bit length is public, and so is oddness (a modulus) */
	bits = vg_bn_bitlen(m, mn);
	odd = m[0] & 1;
	VG_CT_DECLASSIFY(&bits, sizeof(bits));
	VG_CT_DECLASSIFY(&odd, sizeof(odd));
	if (bits < 2 || bits > 64 * VG_BN_MAX_WORDS || odd == 0)
		return -1;
	if (k == NULL)
		k = &vg_kernels()->rsa;
	w = VG_BN_MONT_WORDS(bits);
	vg_bn_copy(c->m, m, (bits + 63) / 64);
	c->w = w;
	c->bits = bits;
	c->m0i = neg_inv64(m[0]);
	c->mul = k->montmul;
	c->sqr = k->montsqr;
	c->amul = k->montmul_amm;
	c->asqr = k->montsqr_amm;
	c->impl = k->impl;

	mont_consts(c);
	return 0;
}

/* see crypto/bn.h */
void
vg_bn_mont_wipe(struct vg_bn_mont *c)
{
	vg_wipe(c, sizeof(*c));
}

/* see crypto/bn.h */
void
vg_bn_mont_mul(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a,
    const uint64_t *b)
{
	c->mul(d, a, b, c->m, c->m0i, c->w);
}

/* see crypto/bn.h */
void
vg_bn_mont_to(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a)
{
	c->mul(d, a, c->rr, c->m, c->m0i, c->w);
}

/* see crypto/bn.h */
void
vg_bn_mont_from(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a)
{
	uint64_t one[VG_BN_MAX_WORDS];

	vg_bn_zero(one, c->w);
	one[0] = 1;
	c->mul(d, a, one, c->m, c->m0i, c->w);
}

/* see crypto/bn.h */
void
vg_bn_mont_pow2_loop(const struct vg_bn_mont *c, uint64_t *d, unsigned e)
{
	unsigned w64 = 64 * c->w, i;
	uint64_t b;

	if (e < w64) {
		/* plain doublings from 1 */
		vg_bn_zero(d, c->w);
		d[0] = 1;
		for (i = 0; i < e; i++)
			vg_bn_mod_add(d, d, d, c->m, c->w);
		return;
	}
	/* d holds 2^(b' + 64w), the Montgomery form of 2^b': squaring
	 * doubles b', doubling adds one; b' runs through the bits of
	 * b = e - 64w from the top */
	b = e - w64;
	vg_bn_copy(d, c->one, c->w);
	for (i = 32; i-- > 0;) {
		if ((b >> i) == 0)
			continue;
		if ((b >> (i + 1)) != 0)
			c->sqr(d, d, c->m, c->m0i, c->w);
		if ((b >> i) & 1)
			vg_bn_mod_add(d, d, d, c->m, c->w);
	}
}

/* see crypto/bn.h */
void
vg_bn_mont_pow2(const struct vg_bn_mont *c, uint64_t *d, unsigned e)
{
	unsigned w64 = 64 * c->w, dd = e, j = 0, i;

	if (c->bits <= 64 * (c->w - 1)) {
		/* the top word of m is zero: 2^D < m is not assured */
		vg_bn_mont_pow2_loop(c, d, e);
		return;
	}
	while (dd >= w64 - 64) {
		if (dd < w64) {
			vg_bn_mont_pow2_loop(c, d, e);
			return;
		}
		dd -= w64;
		j++;
	}
	/* Y = 2^D, a single word below m; each MontMul by R^2 multiplies
	 * it by R */
	vg_bn_zero(d, c->w);
	d[dd / 64] = (uint64_t)1 << (dd % 64);
	for (i = 0; i < j; i++)
		c->mul(d, d, c->rr, c->m, c->m0i, c->w);
}

/* see crypto/bn.h */
void
vg_bn_mont_reduce(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *x,
    size_t xn, size_t kw)
{
	uint64_t t[4 * VG_BN_MAX_WORDS + 1];
	size_t w = c->w, i, j;

	assert(kw % w == 0 && kw / w >= 1 && kw / w <= 4 && xn <= kw);
	vg_bn_copy(t, x, xn);
	vg_bn_zero(t + xn, kw + 1 - xn);
	for (i = 0; i + w < kw; i++) {
		uint64_t y = t[i] * c->m0i;
		uint64_t cy = vg_bn_muladd_word(t + i, c->m, y, w);

		for (j = i + w; j <= kw; j++) {
			u128 s = (u128)t[j] + cy;

			t[j] = (uint64_t)s;
			cy = (uint64_t)(s >> 64);
		}
	}
	/* t[kw - w .. kw] < R + m: bring it below R */
	vg_bn_csub(t + kw - w, c->m, w, 0 - t[kw]);
	vg_bn_copy(d, t + kw - w, w);
	vg_wipe(t, sizeof(t));
}

/* see crypto/bn.h */
void
vg_bn_mont_import(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *x,
    size_t xn, const uint64_t *g, size_t kw)
{
	uint64_t t[VG_BN_MAX_WORDS];

	vg_bn_mont_reduce(c, t, x, xn, kw);
	c->mul(d, t, g, c->m, c->m0i, c->w);
	vg_wipe(t, sizeof(t));
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* see crypto/bn.h */
void
vg_bn_table_select(uint64_t *d, const uint64_t *table, size_t count,
    size_t n, uint64_t idx)
{
#ifdef VG_HAVE_RSA_X86_64_KERNELS
	if (n % 4 == 0 && (vg_cpu_features() & VG_CPU_AVX2) != 0)
		vg_bn_table_select_avx2(d, table, count, n, idx);
	else
#endif
		vg_bn_table_select_c(d, table, count, n, idx);
}

/* see crypto/bn.h */
void
vg_bn_table_select_c(uint64_t *d, const uint64_t *table, size_t count,
    size_t n, uint64_t idx)
{
	size_t i, j = 0;

#if defined(__SSE2__)
	/* eight words at a time in four SSE2 registers (x86-64 baseline) */
	for (; j + 8 <= n; j += 8) {
		__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;

		for (i = 0; i < count; i++) {
			const __m128i *t = (const __m128i *)(const void *)
			    (table + i * n + j);
			__m128i m = _mm_set1_epi64x(
			    (long long)vg_ct_eq_mask64(i, idx));

			a0 = _mm_or_si128(a0, _mm_and_si128(_mm_loadu_si128(t), m));
			a1 = _mm_or_si128(a1,
			    _mm_and_si128(_mm_loadu_si128(t + 1), m));
			a2 = _mm_or_si128(a2,
			    _mm_and_si128(_mm_loadu_si128(t + 2), m));
			a3 = _mm_or_si128(a3,
			    _mm_and_si128(_mm_loadu_si128(t + 3), m));
		}
		_mm_storeu_si128((__m128i *)(void *)(d + j), a0);
		_mm_storeu_si128((__m128i *)(void *)(d + j + 2), a1);
		_mm_storeu_si128((__m128i *)(void *)(d + j + 4), a2);
		_mm_storeu_si128((__m128i *)(void *)(d + j + 6), a3);
	}
#endif
	for (; j < n; j++) {
		uint64_t v = 0;

		for (i = 0; i < count; i++)
			v |= table[i * n + j] & vg_ct_eq_mask64(i, idx);
		d[j] = v;
	}
}

/* Bits [pos, pos + len) of e, len <= 5. Positions are public. */
static uint64_t
window(const uint64_t *e, unsigned pos, unsigned len)
{
	uint64_t v = e[pos / 64] >> (pos % 64);

	if (pos % 64 + len > 64)
		v |= e[pos / 64 + 1] << (64 - pos % 64);
	return v & (((uint64_t)1 << len) - 1);
}

/* see crypto/bn.h */
void
vg_bn_mont_exp(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a,
    const uint64_t *e, unsigned ebits)
{
	uint64_t table[(1u << VG_BN_WINDOW) * VG_BN_MAX_WORDS];
	uint64_t acc[VG_BN_MAX_WORDS], t[VG_BN_MAX_WORDS];
	size_t w = c->w, i;
	unsigned nwin, k, top;

	if (ebits == 0) {
		vg_bn_copy(d, c->one, w);
		return;
	}
	/* almost-Montgomery inside the loop: values below R, one full
	 * reduction at the end */
	vg_bn_copy(table, c->one, w);
	vg_bn_copy(table + w, a, w);
	/* even entries by squaring (cheaper than a multiplication), odd
	 * ones by one more multiplication; the order is public */
	for (i = 2; i < (1u << VG_BN_WINDOW); i++) {
		if (i % 2 == 0)
			c->asqr(table + i * w, table + (i / 2) * w, c->m,
			    c->m0i, w);
		else
			c->amul(table + i * w, table + (i - 1) * w, a, c->m,
			    c->m0i, w);
	}

	nwin = (ebits + VG_BN_WINDOW - 1) / VG_BN_WINDOW;
	top = ebits - VG_BN_WINDOW * (nwin - 1);
	vg_bn_table_select(acc, table, 1u << VG_BN_WINDOW, w,
	    window(e, VG_BN_WINDOW * (nwin - 1), top));
	for (k = nwin - 1; k-- > 0;) {
		for (i = 0; i < VG_BN_WINDOW; i++)
			c->asqr(acc, acc, c->m, c->m0i, w);
		vg_bn_table_select(t, table, 1u << VG_BN_WINDOW, w,
		    window(e, VG_BN_WINDOW * k, VG_BN_WINDOW));
		c->amul(acc, acc, t, c->m, c->m0i, w);
	}
	/* acc < R, congruent: times R mod m over R, fully reduced */
	c->mul(d, acc, c->one, c->m, c->m0i, w);
	vg_wipe(table, (1u << VG_BN_WINDOW) * w * sizeof(uint64_t));
	vg_wipe(acc, sizeof(acc));
	vg_wipe(t, sizeof(t));
	VG_WIPE_STACK(VG_BN_STACK_WIPE_LEN);
}

/* see crypto/bn.h */
void
vg_bn_mont_exp_public(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *a, const uint64_t *e, unsigned ebits)
{
	uint64_t acc[VG_BN_MAX_WORDS];
	size_t w = c->w;
	unsigned i;
	int started = 0;

	vg_bn_copy(acc, c->one, w);
	for (i = ebits; i-- > 0;) {
		if (started)
			c->sqr(acc, acc, c->m, c->m0i, w);
		if ((e[i / 64] >> (i % 64)) & 1) {
			if (started)
				c->mul(acc, acc, a, c->m, c->m0i, w);
			else
				vg_bn_copy(acc, a, w);
			started = 1;
		}
	}
	vg_bn_copy(d, acc, w);
	vg_wipe(acc, sizeof(acc));
}
