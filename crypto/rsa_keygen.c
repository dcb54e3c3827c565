/*
 * RSA key generation [FIPS 186-5 A.1.3] with probable primes [FIPS 186-5
 * B.3.3]: random candidates with the top two bits set, trial division by
 * the odd primes below 2^11, gcd(p - 1, e) = 1, Miller-Rabin [FIPS 186-5
 * B.3.1] with random bases and the rounds of Table B.1; |p - q| check;
 * d = e^-1 mod lcm(p - 1, q - 1).
 */
#include "config.h"

#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"

typedef unsigned __int128 u128;

static const uint16_t small_primes[] = {
	3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67,
	71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139,
	149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223,
	227, 229, 233, 239, 241, 251, 257, 263, 269, 271, 277, 281, 283, 293,
	307, 311, 313, 317, 331, 337, 347, 349, 353, 359, 367, 373, 379, 383,
	389, 397, 401, 409, 419, 421, 431, 433, 439, 443, 449, 457, 461, 463,
	467, 479, 487, 491, 499, 503, 509, 521, 523, 541, 547, 557, 563, 569,
	571, 577, 587, 593, 599, 601, 607, 613, 617, 619, 631, 641, 643, 647,
	653, 659, 661, 673, 677, 683, 691, 701, 709, 719, 727, 733, 739, 743,
	751, 757, 761, 769, 773, 787, 797, 809, 811, 821, 823, 827, 829, 839,
	853, 857, 859, 863, 877, 881, 883, 887, 907, 911, 919, 929, 937, 941,
	947, 953, 967, 971, 977, 983, 991, 997, 1009, 1013, 1019, 1021, 1031,
	1033, 1039, 1049, 1051, 1061, 1063, 1069, 1087, 1091, 1093, 1097,
	1103, 1109, 1117, 1123, 1129, 1151, 1153, 1163, 1171, 1181, 1187,
	1193, 1201, 1213, 1217, 1223, 1229, 1231, 1237, 1249, 1259, 1277,
	1279, 1283, 1289, 1291, 1297, 1301, 1303, 1307, 1319, 1321, 1327,
	1361, 1367, 1373, 1381, 1399, 1409, 1423, 1427, 1429, 1433, 1439,
	1447, 1451, 1453, 1459, 1471, 1481, 1483, 1487, 1489, 1493, 1499,
	1511, 1523, 1531, 1543, 1549, 1553, 1559, 1567, 1571, 1579, 1583,
	1597, 1601, 1607, 1609, 1613, 1619, 1621, 1627, 1637, 1657, 1663,
	1667, 1669, 1693, 1697, 1699, 1709, 1721, 1723, 1733, 1741, 1747,
	1753, 1759, 1777, 1783, 1787, 1789, 1801, 1811, 1823, 1831, 1847,
	1861, 1867, 1871, 1873, 1877, 1879, 1889, 1901, 1907, 1913, 1931,
	1933, 1949, 1951, 1973, 1979, 1987, 1993, 1997, 1999, 2003, 2011,
	2017, 2027, 2029, 2039,

};
#define NSMALL (sizeof(small_primes) / sizeof(small_primes[0]))

/* x mod s for a public s below 2^62, mu = floor((2^64 - 1) / s): Barrett
 * with two masked corrections (the estimate is at most two below the
 * quotient). CT: no division instruction. */
static uint64_t
mod_small(uint64_t x, uint64_t s, uint64_t mu)
{
	uint64_t q = (uint64_t)(((u128)x * mu) >> 64);
	uint64_t r = x - q * s;

	r -= s & ~vg_ct_lt_mask64(r, s);
	r -= s & ~vg_ct_lt_mask64(r, s);
	return r;
}

/*
 * The small primes in groups whose products stay below 2^32, each with
 * the powers 2^(64 i) mod its product: x mod M is then the sum of x[i]
 * times the i-th power, products that do not wait for one another, and
 * three reductions of the sum; each prime of the group then divides that
 * remainder. Public constants, made once.
 */
#define NGROUPS 105 /* the groups small_primes makes, checked when made */
#define SIEVE_WORDS (VG_RSA_MAX_BITS / 128)
static struct {
	pthread_once_t once;
	uint64_t m[NGROUPS], mu[NGROUPS];   /* a group's product, its Barrett */
	uint16_t end[NGROUPS];              /* one past its last prime */
	uint64_t pmu[NSMALL];               /* each prime's Barrett constant */
	uint32_t pw[NGROUPS][SIEVE_WORDS];  /* 2^(64 i) mod m */
} g_sieve = { PTHREAD_ONCE_INIT, { 0 }, { 0 }, { 0 }, { 0 }, { { 0 } } };

static void
sieve_init(void)
{
	size_t g = 0, j = 0, i;

	while (j < NSMALL) {
		uint64_t m = 1, t;

		assert(g < NGROUPS);
		while (j < NSMALL && m * small_primes[j] < ((uint64_t)1 << 32))
			m *= small_primes[j++];
		g_sieve.m[g] = m;
		g_sieve.mu[g] = ~(uint64_t)0 / m;
		g_sieve.end[g] = (uint16_t)j;
		t = (~(uint64_t)0 % m + 1) % m; /* 2^64 mod m */
		g_sieve.pw[g][0] = 1;
		for (i = 1; i < SIEVE_WORDS; i++)
			g_sieve.pw[g][i] = (uint32_t)(g_sieve.pw[g][i - 1] * t % m);
		g++;
	}
	assert(g == NGROUPS);
	for (j = 0; j < NSMALL; j++)
		g_sieve.pmu[j] = ~(uint64_t)0 / small_primes[j];
}

/* see crypto/rsa_int.h */
uint64_t
vg_rsa_small_factor(const uint64_t *x, size_t n)
{
	uint64_t any = 0;
	size_t g, i, j = 0;

	assert(n >= 1 && n <= SIEVE_WORDS);
	pthread_once(&g_sieve.once, sieve_init);
	for (g = 0; g < NGROUPS; g++) {
		uint64_t m = g_sieve.m[g], mu = g_sieve.mu[g], r, lo;
		u128 acc = 0;

		/* below n 2^96: x mod m in three steps of 32 bits */
		for (i = 0; i < n; i++)
			acc += (u128)x[i] * g_sieve.pw[g][i];
		lo = (uint64_t)acc;
		r = mod_small((uint64_t)(acc >> 64), m, mu);
		r = mod_small(r << 32 | lo >> 32, m, mu);
		r = mod_small(r << 32 | (lo & 0xffffffff), m, mu);
		for (; j < g_sieve.end[g]; j++)
			any |= vg_ct_zero_mask64(mod_small(r, small_primes[j],
			    g_sieve.pmu[j]));
	}
	return any;
}

/* Miller-Rabin rounds of [FIPS 186-5 Table B.1] for primes of half the
 * modulus (error 2^-112, 2^-128, 2^-144 beyond 1024, 1536 bits). */
static unsigned
mr_rounds(unsigned pbits)
{
	return pbits <= 1024 ? 5 : 4;
}

/*
 * Miller-Rabin on the odd candidate in c (its context), rounds random
 * bases. Returns 1 if probably prime. The outcome of each round is
 * declassified: a composite is discarded. CT otherwise: s, the 2-adic
 * valuation of p - 1, is bounded by 16 (other candidates are refused).
 */
static int
miller_rabin(const struct vg_bn_mont *c, unsigned rounds, struct vg_rng *rng,
    enum vg_err *rv)
{
	uint64_t m[VG_BN_MAX_WORDS], x[VG_BN_MAX_WORDS];
	uint64_t mone[VG_BN_MAX_WORDS], rnd[2 * VG_BN_MAX_WORDS];
	uint64_t g[VG_BN_MAX_WORDS], still = ~(uint64_t)0, s = 0;
	size_t w = c->w;
	unsigned r, j;
	int prime = 0;

	/* p - 1 = 2^s m, 1 <= s <= 16 */
	vg_bn_copy(m, c->m, w);
	m[0] &= ~(uint64_t)1;
	for (j = 1; j <= 17; j++) {
		uint64_t z = still & vg_ct_zero_mask64((m[0] >> j) & 1);

		s += z & 1;
		still = z;
	}
	s += 1;
	VG_CT_DECLASSIFY(&s, sizeof(s)); /* only whether s > 16 is used */
	if (vg_ct_barrier64(s) > 16) /* declassified: refused */
		goto out;
	for (j = 1; j <= 16; j++) {
		uint64_t take = vg_ct_lt_mask64(j - 1, s);
		uint64_t t[VG_BN_MAX_WORDS];

		vg_bn_copy(t, m, w);
		vg_bn_shr1(t, w, 0);
		vg_bn_cmov(m, t, w, take);
		vg_wipe(t, sizeof(t));
	}
	/* -1 in the domain */
	vg_bn_sub(mone, c->m, c->one, w);
	vg_bn_mont_pow2(c, g, 64 * (unsigned)w * 3);
	for (r = 0; r < rounds; r++) {
		uint64_t ok, bad;

		/* a random base, 1 < a < p - 1 (rejected otherwise) */
		do {
			*rv = vg_rng_generate(rng, rnd, 2 * w * 8);
			if (*rv != VG_OK)
				goto out;
			vg_bn_mont_import(c, x, rnd, 2 * w, g, 2 * w);
			bad = vg_bn_zero_mask(x, w) |
			    vg_bn_eq_mask(x, c->one, w) |
			    vg_bn_eq_mask(x, mone, w);
			VG_CT_DECLASSIFY(&bad, sizeof(bad));
		} while (vg_ct_barrier64(bad) != 0);
		vg_bn_mont_exp(c, x, x, m, c->bits);
		ok = vg_bn_eq_mask(x, c->one, w) | vg_bn_eq_mask(x, mone, w);
		for (j = 1; j < 16; j++) {
			c->sqr(x, x, c->m, c->m0i, w);
			ok |= vg_bn_eq_mask(x, mone, w) & vg_ct_lt_mask64(j, s);
		}
		VG_CT_DECLASSIFY(&ok, sizeof(ok));
		if (vg_ct_barrier64(ok) == 0) /* declassified: composite */
			goto out;
	}
	prime = 1;
out:
	vg_wipe(m, sizeof(m));
	vg_wipe(x, sizeof(x));
	vg_wipe(rnd, sizeof(rnd));
	vg_wipe(mone, sizeof(mone));
	vg_wipe(g, sizeof(g));
	return prime;
}

/*
 * A probable prime p of hw words (64 hw bits, top two bits set) with
 * gcd(p - 1, e) = 1, in p. Returns VG_OK or the generator's error.
 */
static enum vg_err
gen_prime(uint64_t *p, size_t hw, uint64_t e, struct vg_rng *rng,
    struct vg_bn_mont *c, const struct vg_rsa_kernels *kern)
{
	enum vg_err rv = VG_OK;
	uint64_t pm1[VG_BN_MAX_WORDS], inv;

	for (;;) {
		uint64_t r, bad;

		rv = vg_rng_generate(rng, p, hw * 8);
		if (rv != VG_OK)
			break;
		p[hw - 1] |= (uint64_t)3 << 62;
		p[0] |= 1;
		/* declassified: candidates that fail are discarded */
		bad = vg_rsa_small_factor(p, hw);
		vg_bn_copy(pm1, p, hw);
		pm1[0] &= ~(uint64_t)1;
		r = vg_bn_mod_word(pm1, hw, e);
		bad |= ~vg_bn_mod_inv(&inv, &r, &e, 1);
		VG_CT_DECLASSIFY(&bad, sizeof(bad));
		if (vg_ct_barrier64(bad) != 0)
			continue;
		if (vg_bn_mont_init(c, p, hw, kern) != 0)
			continue;
		if (miller_rabin(c, mr_rounds((unsigned)(64 * hw)), rng, &rv))
			break;
		if (rv != VG_OK)
			break;
	}
	vg_wipe(pm1, sizeof(pm1));
	return rv;
}

/* see crypto/rsa.h */
enum vg_err
vg_rsa_keygen(struct vg_rsa_key_bytes *out, unsigned bits, uint64_t e,
    struct vg_rng *rng)
{
	struct {
		uint64_t p[VG_BN_MAX_WORDS], q[VG_BN_MAX_WORDS];
		uint64_t pm1[VG_BN_MAX_WORDS], qm1[VG_BN_MAX_WORDS];
		uint64_t n[2 * VG_BN_MAX_WORDS], lam[2 * VG_BN_MAX_WORDS];
		uint64_t g[VG_BN_MAX_WORDS], t[2 * VG_BN_MAX_WORDS];
		uint64_t d[2 * VG_BN_MAX_WORDS], r[VG_BN_MAX_WORDS];
		struct vg_bn_mont c;
	} s;
	const struct vg_rsa_kernels *kern = &vg_kernels()->rsa;
	size_t hw = bits / 128, nw = 2 * hw, i;
	uint64_t ok, lm, inv, tt, one = 1;
	unsigned dbits;
	enum vg_err rv;

	assert(out != NULL);
	vg_wipe(out, sizeof(*out));
	if (rng == NULL || bits < 1024 || bits > VG_RSA_MAX_BITS ||
	    bits % 128 != 0 || (e & 1) == 0 || e <= 65536)
		return VG_ERR_ARG;
	memset(&s, 0, sizeof(s));
	for (;;) {
		rv = gen_prime(s.p, hw, e, rng, &s.c, kern);
		if (rv != VG_OK)
			goto out;
		rv = gen_prime(s.q, hw, e, rng, &s.c, kern);
		if (rv != VG_OK)
			goto out;
		/* |p - q| > 2^(bits/2 - 100); then p > q: g = max, r = min */
		ok = vg_bn_lt_mask(s.p, s.q, hw);
		vg_bn_copy(s.g, s.p, hw);
		vg_bn_cmov(s.g, s.q, hw, ok);
		vg_bn_copy(s.r, s.q, hw);
		vg_bn_cmov(s.r, s.p, hw, ok);
		vg_bn_sub(s.t, s.g, s.r, hw);
		dbits = vg_bn_bitlen(s.t, hw);
		VG_CT_DECLASSIFY(&dbits, sizeof(dbits));
		if (dbits <= bits / 2 - 100) /* declassified */
			continue;
		vg_bn_copy(s.p, s.g, hw);
		vg_bn_copy(s.q, s.r, hw);

		/* lambda = (p - 1)(q - 1) / gcd(p - 1, q - 1) */
		vg_bn_copy(s.pm1, s.p, hw);
		vg_bn_copy(s.qm1, s.q, hw);
		s.pm1[0] &= ~(uint64_t)1;
		s.qm1[0] &= ~(uint64_t)1;
		vg_bn_gcd(s.g, s.pm1, s.qm1, hw);
		vg_bn_mul(s.t, s.pm1, hw, s.qm1, hw);
		vg_bn_divmod(s.lam, s.r, s.t, nw, s.g, hw);
		/* d = (1 + t lambda) / e with t = -lambda^-1 mod e */
		lm = vg_bn_mod_word(s.lam, nw, e);
		ok = vg_bn_mod_inv(&inv, &lm, &e, 1);
		VG_CT_DECLASSIFY(&ok, sizeof(ok));
		if (!ok) /* cannot happen: gcd(e, p - 1) = gcd(e, q - 1) = 1 */
			continue;
		tt = e - inv;
		vg_bn_zero(s.t, nw + 1);
		s.t[nw] = vg_bn_muladd_word(s.t, s.lam, tt, nw);
		/* + 1: t lambda is even, so no carry */
		vg_bn_cadd(s.t, &one, 1, ~(uint64_t)0);
		vg_bn_divmod(s.d, s.r, s.t, nw + 1, &e, 1);
		/* d > 2^(bits/2) [FIPS 186-5 A.1.3 step 6] */
		dbits = vg_bn_bitlen(s.d, nw);
		VG_CT_DECLASSIFY(&dbits, sizeof(dbits));
		if (dbits <= bits / 2) /* declassified */
			continue;
		break;
	}
	vg_bn_mul(s.n, s.p, hw, s.q, hw);
	out->nlen = bits / 8;
	out->plen = bits / 16;
	for (i = 8; i > 0 && (e >> (8 * (i - 1))) == 0; i--)
		;
	out->elen = i;
	vg_bn_to_bytes(out->e, out->elen, &e, 1);
	vg_bn_to_bytes(out->n, out->nlen, s.n, nw);
	vg_bn_to_bytes(out->d, out->nlen, s.d, nw);
	vg_bn_to_bytes(out->p, out->plen, s.p, hw);
	vg_bn_to_bytes(out->q, out->plen, s.q, hw);
	vg_bn_divmod(NULL, s.r, s.d, nw, s.pm1, hw);
	vg_bn_to_bytes(out->dp, out->plen, s.r, hw);
	vg_bn_divmod(NULL, s.r, s.d, nw, s.qm1, hw);
	vg_bn_to_bytes(out->dq, out->plen, s.r, hw);
	ok = vg_bn_mod_inv(s.r, s.q, s.p, hw); /* p, q distinct primes */
	vg_bn_to_bytes(out->qinv, out->plen, s.r, hw);
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	assert(ok != 0);
	rv = VG_OK;
out:
	if (rv != VG_OK)
		vg_wipe(out, sizeof(*out));
	vg_wipe(&s, sizeof(s));
	return rv;
}
