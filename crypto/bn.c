/*
 * Big numbers on 64-bit words: conversions, constant-time add, subtract,
 * compare and select, plain multiplication, long division, binary GCD and
 * modular inverse (by safegcd, crypto/modinv62.c). Montgomery arithmetic
 * is in crypto/bn_mont.c.
 */
#include "config.h"

#include <assert.h>

#include "crypto/bn.h"
#include "crypto/ct.h"
#include "crypto/modinv62.h"

typedef unsigned __int128 u128;

/* see crypto/bn.h */
uint64_t
vg_bn_from_bytes(uint64_t *x, size_t n, const uint8_t *in, size_t len)
{
	uint64_t extra = 0;
	size_t i;

	assert(x != NULL && (in != NULL || len == 0));
	vg_bn_zero(x, n);
	for (i = 0; i < len; i++) {
		size_t k = len - 1 - i; /* byte weight */

		if (k < 8 * n)
			x[k / 8] |= (uint64_t)in[i] << (8 * (k % 8));
		else
			extra |= in[i];
	}
	return vg_ct_zero_mask64(extra);
}

/* see crypto/bn.h */
void
vg_bn_to_bytes(uint8_t *out, size_t len, const uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++) {
		size_t k = len - 1 - i;

		out[i] = k < 8 * n ? (uint8_t)(x[k / 8] >> (8 * (k % 8))) : 0;
	}
}

/* Bit length of one word. CT. */
static unsigned
bitlen64(uint64_t x)
{
	unsigned r = 0, s;
	uint64_t c;

	for (s = 32; s > 0; s >>= 1) {
		c = vg_ct_nonzero64(x >> s);
		r += (unsigned)(c * s);
		x >>= c * s;
	}
	return r + (unsigned)x;
}

/* see crypto/bn.h */
unsigned
vg_bn_bitlen(const uint64_t *x, size_t n)
{
	uint64_t r = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t nz = 0 - vg_ct_nonzero64(x[i]);

		r = vg_ct_select64(nz, 64 * i + bitlen64(x[i]), r);
	}
	return (unsigned)r;
}

/* see crypto/bn.h */
unsigned
vg_bn_bytes_bitlen(const uint8_t *in, size_t len)
{
	uint64_t first = 0, rest = 0, seen = 0;
	size_t i;

	/* the first non-zero byte and the count of bytes after it, then
	 * one bit length */
	for (i = 0; i < len; i++) {
		uint64_t take = ~seen & (0 - vg_ct_nonzero64(in[i]));

		first = vg_ct_select64(take, in[i], first);
		rest = vg_ct_select64(take, len - 1 - i, rest);
		seen |= take;
	}
	return (unsigned)(8 * rest + bitlen64(first));
}

/* see crypto/bn.h */
void
vg_bn_zero(uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = 0;
}

/* see crypto/bn.h */
void
vg_bn_copy(uint64_t *d, const uint64_t *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = s[i];
}

/* see crypto/bn.h */
void
vg_bn_cmov(uint64_t *d, const uint64_t *s, size_t n, uint64_t mask)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] ^= mask & (d[i] ^ s[i]);
}

/* see crypto/bn.h */
uint64_t
vg_bn_add(uint64_t *d, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] + b[i] + c;

		d[i] = (uint64_t)t;
		c = (uint64_t)(t >> 64);
	}
	return c;
}

/* see crypto/bn.h */
uint64_t
vg_bn_sub(uint64_t *d, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] - b[i] - c;

		d[i] = (uint64_t)t;
		c = (uint64_t)(t >> 64) & 1;
	}
	return c;
}

/* see crypto/bn.h */
uint64_t
vg_bn_cadd(uint64_t *a, const uint64_t *b, size_t n, uint64_t mask)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] + (b[i] & mask) + c;

		a[i] = (uint64_t)t;
		c = (uint64_t)(t >> 64);
	}
	return c;
}

/* see crypto/bn.h */
uint64_t
vg_bn_csub(uint64_t *a, const uint64_t *b, size_t n, uint64_t mask)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] - (b[i] & mask) - c;

		a[i] = (uint64_t)t;
		c = (uint64_t)(t >> 64) & 1;
	}
	return c;
}

/* see crypto/bn.h */
uint64_t
vg_bn_lt_mask(const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)a[i] - b[i] - c;

		c = (uint64_t)(t >> 64) & 1;
	}
	return 0 - vg_ct_barrier64(c);
}

/* see crypto/bn.h */
uint64_t
vg_bn_eq_mask(const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return vg_ct_zero_mask64(d);
}

/* see crypto/bn.h */
uint64_t
vg_bn_zero_mask(const uint64_t *x, size_t n)
{
	uint64_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i];
	return vg_ct_zero_mask64(d);
}

/* see crypto/bn.h */
uint64_t
vg_bn_shr1(uint64_t *x, size_t n, uint64_t hi)
{
	uint64_t out = x[0] & 1;
	size_t i;

	for (i = 0; i + 1 < n; i++)
		x[i] = (x[i] >> 1) | (x[i + 1] << 63);
	x[n - 1] = (x[n - 1] >> 1) | (hi << 63);
	return out;
}

/* x <<= 1 where mask is all-ones; returns the bit shifted out (masked). */
static uint64_t
cshl1(uint64_t *x, size_t n, uint64_t mask)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = (x[i] << 1) | c;

		c = x[i] >> 63;
		x[i] = vg_ct_select64(mask, v, x[i]);
	}
	return c & mask;
}

/* x >>= 1 where mask is all-ones. */
static void
cshr1(uint64_t *x, size_t n, uint64_t mask)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = (x[i] >> 1) | (i + 1 < n ? x[i + 1] << 63 : 0);

		x[i] = vg_ct_select64(mask, v, x[i]);
	}
}

/* see crypto/bn.h */
uint64_t
vg_bn_muladd_word(uint64_t *a, const uint64_t *b, uint64_t y, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		u128 t = (u128)b[i] * y + a[i] + c;

		a[i] = (uint64_t)t;
		c = (uint64_t)(t >> 64);
	}
	return c;
}

/* see crypto/bn.h */
void
vg_bn_mul(uint64_t *d, const uint64_t *a, size_t an, const uint64_t *b,
    size_t bn)
{
	size_t i;

	vg_bn_zero(d, an + bn);
	for (i = 0; i < bn; i++)
		d[an + i] = vg_bn_muladd_word(d + i, a, b[i], an);
}

/* see crypto/bn.h */
void
vg_bn_mod_add(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n)
{
	uint64_t c, br;

	c = vg_bn_add(d, a, b, n);
	/* subtract m when a + b >= m: a carry out, or no borrow */
	br = vg_bn_sub(d, d, m, n);
	vg_bn_cadd(d, m, n, 0 - (br & (c ^ 1)));
}

/* see crypto/bn.h */
void
vg_bn_mod_sub(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n)
{
	uint64_t br = vg_bn_sub(d, a, b, n);

	vg_bn_cadd(d, m, n, 0 - br);
}

/* (hi 2^64 + lo) / d for d with its top bit set and hi < d: 64 shifts and
 * conditional subtractions. CT. */
static uint64_t
div_2by1_bits(uint64_t hi, uint64_t lo, uint64_t d)
{
	uint64_t r = hi, q = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		uint64_t c = r >> 63, take;
		u128 t;

		r = (r << 1) | ((lo >> i) & 1);
		t = (u128)r - d;
		/* r >= d, or r went past 2^64 (then r - d < d fits) */
		take = 0 - vg_ct_barrier64(c | (((uint64_t)(t >> 64) & 1) ^ 1));
		r = vg_ct_select64(take, (uint64_t)t, r);
		q |= (take & 1) << i;
	}
	return q;
}

/*
 * (u1 2^64 + u0) / d for d with its top bit set and u1 < d, given
 * inv = floor((2^128 - 1) / d) - 2^64: Moller and Granlund's division by
 * an invariant integer ("Improved division by invariant integers", 2011,
 * Algorithm 4) with its two corrections as masks; *rem gets the
 * remainder. CT.
 */
static uint64_t
div_2by1(uint64_t u1, uint64_t u0, uint64_t d, uint64_t inv, uint64_t *rem)
{
	u128 p = (u128)inv * u1 + (((u128)u1 << 64) | u0);
	uint64_t q1 = (uint64_t)(p >> 64) + 1, q0 = (uint64_t)p, r, m;

	r = u0 - q1 * d;
	m = vg_ct_lt_mask64(q0, r);     /* r > q0: one too many */
	q1 += m;
	r += d & m;
	m = ~vg_ct_lt_mask64(r, d);     /* r >= d: one too few */
	*rem = r - (d & m);
	return q1 - m;
}

/* All-ones if a < b (128 bits, unsigned) else 0. CT. */
static uint64_t
lt_mask128(u128 a, u128 b)
{
	u128 borrow = (a ^ ((a ^ b) | ((a - b) ^ a))) >> 127;

	return 0 - vg_ct_barrier64((uint64_t)borrow);
}

/* x <<= s (n words, s < 64 sn, sn <= n, bits beyond the top dropped): by
 * 2^k words for each bit k of s / 64, then by s mod 64 bits. CT: only n
 * and sn. */
static void
shl_ct(uint64_t *x, size_t n, uint64_t s, size_t sn)
{
	uint64_t ws = s >> 6, bs = s & 63;
	size_t k, i, b;

	for (k = 1, b = 0; k < sn; k <<= 1, b++) {
		uint64_t take = 0 - ((ws >> b) & 1);

		for (i = n; i-- > 0;)
			x[i] = vg_ct_select64(take, i >= k ? x[i - k] : 0,
			    x[i]);
	}
	for (i = n; i-- > 0;)
		x[i] = (x[i] << bs) |
		    ((i > 0 ? x[i - 1] >> 1 : 0) >> (63 - bs));
}

/* x >>= s (n words, s < 64 n). CT: only n. */
static void
shr_ct(uint64_t *x, size_t n, uint64_t s)
{
	uint64_t ws = s >> 6, bs = s & 63;
	size_t k, i, b;

	for (k = 1, b = 0; k < n; k <<= 1, b++) {
		uint64_t take = 0 - ((ws >> b) & 1);

		for (i = 0; i < n; i++)
			x[i] = vg_ct_select64(take, i + k < n ? x[i + k] : 0,
			    x[i]);
	}
	for (i = 0; i < n; i++)
		x[i] = (x[i] >> bs) |
		    ((i + 1 < n ? x[i + 1] << 1 : 0) << (63 - bs));
}

/*
 * The division of vg_bn_divmod and vg_bn_divmod_pub: Knuth's windows from
 * the one at word top down to 0, each one quotient word (q[j] for the
 * window at j; the caller sets those above top).
 */
static void
divmod_from(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an,
    const uint64_t *m, size_t mn, size_t top)
{
	uint64_t u[3 * VG_BN_MAX_WORDS + 2], v[VG_BN_MAX_WORDS];
	uint64_t s, d, d0, inv;
	size_t i, j;

	/* v = m 2^s with the top bit of word mn - 1 set, u = a 2^s */
	s = 64 * mn - vg_bn_bitlen(m, mn);
	s &= ~vg_bn_zero_mask(m, mn); /* m = 0: meaningless, but defined */
	vg_bn_copy(v, m, mn);
	shl_ct(v, mn, s, mn);
	vg_bn_copy(u, a, an);
	vg_bn_zero(u + an, mn);
	shl_ct(u, an + mn, s, mn);
	d = v[mn - 1];
	d0 = mn >= 2 ? v[mn - 2] : 0;
	inv = div_2by1_bits(~d, ~(uint64_t)0, d);

	/* Knuth's Algorithm D [TAOCP 4.3.1]: each digit estimated from the
	 * window's top two words (u[j + mn] <= d since the window is below
	 * 2^64 v) is at most 2 too large; step D3's test with the next word
	 * of each finds every estimate 2 too large (and most 1 too large),
	 * so after one correction by it the digit is at most 1 too large. */
	for (j = top + 1; j-- > 0;) { /* top + 1 wraps to 0 for top = -1 */
		uint64_t *w = u + j, sat, qh, rh, rc, c = 0, br = 0, neg;
		uint64_t u0 = mn >= 2 ? w[mn - 2] : 0;
		u128 x;

		sat = vg_ct_eq_mask64(w[mn], d);
		qh = div_2by1(w[mn] & ~sat, w[mn - 1], d, inv, &rh) | sat;
		/* saturated: q = 2^64 - 1 leaves w[mn - 1] + d, maybe past
		 * 2^64 (rc: the remainder's bit 64) */
		x = (u128)w[mn - 1] + d;
		rh = vg_ct_select64(sat, (uint64_t)x, rh);
		rc = sat & (0 - (uint64_t)(x >> 64));
		/* the remainder below 2^64 and q d0 above rh 2^64 + u0: q is
		 * too large */
		qh += ~rc & lt_mask128(((u128)rh << 64) | u0, (u128)qh * d0);
		for (i = 0; i < mn; i++) {
			u128 p = (u128)qh * v[i] + c;
			u128 t = (u128)w[i] - (uint64_t)p - br;

			c = (uint64_t)(p >> 64);
			w[i] = (uint64_t)t;
			br = (uint64_t)(t >> 64) & 1;
		}
		neg = (uint64_t)(((u128)w[mn] - c - br) >> 64) & 1;
		w[mn] = w[mn] - c - br;
		/* one too large: the window is negative, add v back once */
		w[mn] += vg_bn_cadd(w, v, mn, 0 - neg);
		qh -= neg;
		if (q != NULL)
			q[j] = qh;
	}
	/* the remainder, u's low mn words, is (a mod m) 2^s */
	shr_ct(u, mn, s);
	vg_bn_copy(r, u, mn);
	vg_wipe(u, sizeof(u));
	vg_wipe(v, sizeof(v));
}

/* see crypto/bn.h */
void
vg_bn_divmod(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an,
    const uint64_t *m, size_t mn)
{
	assert(mn >= 1 && mn <= VG_BN_MAX_WORDS &&
	    an <= 2 * VG_BN_MAX_WORDS + 2);
	/* m may be shorter than mn words (by a secret amount): then the
	 * shifted dividend reaches up to word an + mn - 1, and the top
	 * window is at an - 1 (none for an = 0: r = 0) */
	divmod_from(q, r, a, an, m, mn, an - 1);
}

/* see crypto/bn.h */
void
vg_bn_divmod_pub(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an,
    const uint64_t *m, size_t mn)
{
	size_t j;

	/* m[mn - 1] != 0 is the caller's promise: m may be secret (a
	 * prime of known length), so it is not asserted here */
	assert(mn >= 1 && mn <= VG_BN_MAX_WORDS && an >= mn &&
	    an <= 2 * VG_BN_MAX_WORDS + 2);
	/* a shift below one word: the dividend ends at word an, the top
	 * window is at an - mn and the quotient has an - mn + 1 words */
	divmod_from(q, r, a, an, m, mn, an - mn);
	/* after: q may be a */
	for (j = an - mn + 1; q != NULL && j < an; j++)
		q[j] = 0;
}

/* see crypto/bn.h */
uint64_t
vg_bn_mod_word(const uint64_t *a, size_t n, uint64_t m)
{
	uint64_t r;

	assert(m > 0);
	vg_bn_divmod(NULL, &r, a, n, &m, 1);
	return r;
}

/* see crypto/bn.h */
uint64_t
vg_bn_mod_inv(uint64_t *d, const uint64_t *a, const uint64_t *m, size_t n)
{
	/* m odd is the caller's promise: m may be secret (a prime), so it
	 * is not asserted here */
	assert(n >= 1 && n <= VG_BN_MAX_WORDS);
	return vg_modinv62_n(d, a, m, n);
}

/* see crypto/bn.h */
void
vg_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t n)
{
	uint64_t u[VG_BN_MAX_WORDS], v[VG_BN_MAX_WORDS];
	uint64_t k = 0, both_even, sw;
	size_t i, j;

	assert(n >= 1 && n <= VG_BN_MAX_WORDS);
	vg_bn_copy(u, a, n);
	vg_bn_copy(v, b, n);
	/* remove the common factor 2^k */
	for (i = 0; i < 64 * n; i++) {
		both_even = 0 - ((~(u[0] | v[0])) & 1);
		cshr1(u, n, both_even);
		cshr1(v, n, both_even);
		k += both_even & 1;
	}
	/* make v the odd one */
	sw = 0 - ((v[0] & 1) ^ 1);
	for (j = 0; j < n; j++) {
		uint64_t s = sw & (u[j] ^ v[j]);

		u[j] ^= s;
		v[j] ^= s;
	}
	for (i = 0; i < 2 * 64 * n; i++) {
		uint64_t odd = 0 - (u[0] & 1);

		sw = odd & vg_bn_lt_mask(u, v, n);
		for (j = 0; j < n; j++) {
			uint64_t s = sw & (u[j] ^ v[j]);

			u[j] ^= s;
			v[j] ^= s;
		}
		vg_bn_csub(u, v, n, odd);
		vg_bn_shr1(u, n, 0);
	}
	/* g = v * 2^k: a count-down, not i < k, which the compiler may
	 * split into two loops at i = k */
	for (i = 0; i < 64 * n; i++) {
		uint64_t more = 0 - vg_ct_nonzero64(k);

		cshl1(v, n, more);
		k -= more & 1;
	}
	vg_bn_copy(g, v, n);
	vg_wipe(u, sizeof(u));
	vg_wipe(v, sizeof(v));
}
