/*
 * RSA key generation [FIPS 186-5 A.1.3] with probable primes [FIPS 186-5
 * B.3.3]: random candidates with the top two bits set, trial division by
 * the odd primes below 2^11, gcd(p - 1, e) = 1, Miller-Rabin [FIPS 186-5
 * B.3.1] with random bases and the rounds of Table B.1, two candidates at
 * a time (on the IFMA pair where the kernel table has it); |p - q| check;
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
 * three reductions of the sum; then each prime s of the group divides
 * that remainder r exactly when r s^-1 mod 2^64 is at most (2^64 - 1) / s
 * (one multiplication). Public constants, made once.
 */
#define NGROUPS 105 /* the groups small_primes makes, checked when made */
#define SIEVE_WORDS (VG_RSA_MAX_BITS / 128)
static struct {
	pthread_once_t once;
	uint64_t m[NGROUPS], mu[NGROUPS];   /* a group's product, its Barrett */
	uint16_t end[NGROUPS];              /* one past its last prime */
	uint64_t pinv[NSMALL];              /* each prime's inverse mod 2^64 */
	uint64_t plim[NSMALL];              /* (2^64 - 1) / prime + 1 */
	uint32_t pw[NGROUPS][SIEVE_WORDS];  /* 2^(64 i) mod m */
} g_sieve = { PTHREAD_ONCE_INIT, { 0 }, { 0 }, { 0 }, { 0 }, { 0 },
	{ { 0 } } };

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
	for (j = 0; j < NSMALL; j++) {
		uint64_t s = small_primes[j], inv = s;

		for (i = 0; i < 5; i++) /* Newton: 3, 6, ..., 96 bits */
			inv *= 2 - s * inv;
		g_sieve.pinv[j] = inv;
		g_sieve.plim[j] = ~(uint64_t)0 / s + 1;
	}
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
			any |= vg_ct_lt_mask64(r * g_sieve.pinv[j],
			    g_sieve.plim[j]);
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
 * The prime search runs two candidates at once, each in a lane: where the
 * kernel table has the IFMA pair for their size (RSA-2048's 1024-bit
 * primes and up), one call raises both lanes' bases, each to its own
 * exponent modulo its own candidate, in about the time of one
 * exponentiation on 64-bit words; elsewhere the lanes take turns. A lane
 * whose candidate fails a round gets a new one; one that passes every
 * round gives the next prime wanted.
 */
struct lane {
	struct vg_bn_mont c;                    /* the candidate p */
	uint64_t e[VG_BN_MAX_WORDS];            /* m, p - 1 = 2^s m */
	uint64_t g[VG_BN_MAX_WORDS];            /* for vg_bn_mont_import */
	uint64_t one[VG_BN_MAX_WORDS];          /* 1 and -1 in the domain */
	uint64_t mone[VG_BN_MAX_WORDS];         /* of the rounds, canonical */
	uint64_t s;
	unsigned passed;                        /* rounds passed */
	unsigned long tries;                    /* candidates for this prime */
};

struct search {
	struct lane l[2];
	/* the IFMA pair: the candidates in radix 2^52, R' mod each */
	vg_rsa_modexp52x2_fn *modexp52x2;       /* NULL: the lanes take turns */
	vg_rsa_amm52x2_fn *amm52x2;
	size_t nl;
	uint64_t m52[2][VG_RSA52_MAX_LIMBS], one52[2][VG_RSA52_MAX_LIMBS];
	uint64_t k0[2];
	unsigned long limit;                    /* candidates per prime */
	/* scratch */
	uint64_t x[2][VG_BN_MAX_WORDS], rnd[2 * VG_BN_MAX_WORDS];
	uint64_t a[2][VG_RSA52_MAX_LIMBS];
};

/*
 * Lane i takes the candidate p (hw words, odd, top bit set): its context,
 * its exponent m and its domain's constants. Returns 0, or -1 when s > 16
 * (only that is declassified) or p has no context.
 */
static int
lane_setup(struct search *sr, int i, const uint64_t *p, size_t hw,
    const struct vg_rsa_kernels *kern)
{
	struct lane *l = &sr->l[i];
	uint64_t still = ~(uint64_t)0;
	size_t w, j;

	/* p - 1 = 2^s m, s from bits 1 ... 16; refused above 16 */
	l->s = 1;
	for (j = 1; j <= 16; j++) {
		still &= vg_ct_zero_mask64((p[0] >> j) & 1);
		l->s += still & 1;
	}
	VG_CT_DECLASSIFY(&still, sizeof(still));
	if (vg_ct_barrier64(still) != 0 || /* declassified */
	    vg_bn_mont_init(&l->c, p, hw, kern) != 0)
		return -1;
	w = l->c.w;
	vg_bn_copy(l->e, p, hw);
	l->e[0] &= ~(uint64_t)1;
	vg_bn_zero(l->e + hw, w - hw);
	for (j = 1; j <= 16; j++) {
		uint64_t take = vg_ct_lt_mask64(j - 1, l->s);

		vg_bn_copy(sr->x[i], l->e, w);
		vg_bn_shr1(sr->x[i], w, 0);
		vg_bn_cmov(l->e, sr->x[i], w, take);
	}
	vg_bn_mont_pow2(&l->c, l->g, 64 * (unsigned)w * 3);
	if (sr->modexp52x2 != NULL) {
		/* the AMM domain: 1 is R' mod p */
		vg_bn_mont_pow2(&l->c, l->one, (unsigned)(52 * sr->nl));
		vg_rsa52_from64(sr->one52[i], sr->nl, l->one, w);
		vg_rsa52_from64(sr->m52[i], sr->nl, l->c.m, w);
		sr->k0[i] = l->c.m0i;
	} else {
		vg_bn_copy(l->one, l->c.one, w);
	}
	vg_bn_sub(l->mone, l->c.m, l->one, w);
	l->passed = 0;
	return 0;
}

/*
 * A new candidate for lane i: random, top two bits set, odd, no small
 * factor, gcd(p - 1, e) = 1 and s <= 16. The verdicts on each discarded
 * candidate are declassified. Each one drawn counts towards the lane's
 * sr->limit candidates for one prime [FIPS 186-5 B.3.3 steps 4.7 and
 * 5.8]. Returns VG_OK, VG_ERR_RANDOM with *exhausted set when the limit
 * is reached, or the generator's error.
 */
static enum vg_err
lane_fill(struct search *sr, int i, size_t hw, uint64_t e,
    struct vg_rng *rng, const struct vg_rsa_kernels *kern, int *exhausted)
{
	uint64_t *p = sr->rnd, *pm1 = sr->x[i], r, inv, bad;
	enum vg_err rv;

	for (;;) {
		if (sr->l[i].tries == sr->limit) {
			*exhausted = 1;
			return VG_ERR_RANDOM;
		}
		sr->l[i].tries++;
		rv = vg_rng_generate(rng, p, hw * 8);
		if (rv != VG_OK)
			return rv;
		p[hw - 1] |= (uint64_t)3 << 62;
		p[0] |= 1;
		/* declassified: candidates that fail are discarded (most
		 * at the trial division, before the costlier check on e) */
		bad = vg_rsa_small_factor(p, hw);
		VG_CT_DECLASSIFY(&bad, sizeof(bad));
		if (vg_ct_barrier64(bad) != 0)
			continue;
		vg_bn_copy(pm1, p, hw);
		pm1[0] &= ~(uint64_t)1;
		r = vg_bn_mod_word(pm1, hw, e);
		bad = ~vg_bn_mod_inv(&inv, &r, &e, 1);
		VG_CT_DECLASSIFY(&bad, sizeof(bad));
		if (vg_ct_barrier64(bad) == 0 &&
		    lane_setup(sr, i, p, hw, kern) == 0)
			return VG_OK;
	}
}

/* Whether the lanes of hw-word candidates run on kern's IFMA pair. */
static void
search_init(struct search *sr, size_t hw, const struct vg_rsa_kernels *kern)
{
	size_t w = VG_BN_MONT_WORDS(64 * hw);

	sr->modexp52x2 = NULL;
	sr->amm52x2 = NULL;
	sr->nl = VG_RSA52_LIMBS(w);
	if (vg_rsa52_serves(kern, w)) {
		sr->modexp52x2 = kern->modexp52x2;
		sr->amm52x2 = kern->amm52x2;
	}
}

/*
 * One Miller-Rabin round [FIPS 186-5 B.3.1] on both lanes, each with a
 * fresh random base 1 < a < p - 1 (taken uniform in the round's domain:
 * its 0, 1 and -1 rejected); ok[i] is all-ones where lane i's candidate
 * passed, declassified (a composite is discarded). CT otherwise: s is
 * at most 16, and 15 squarings follow the power whatever it is.
 */
static enum vg_err
mr_round(struct search *sr, uint64_t ok[2], struct vg_rng *rng)
{
	const uint64_t *ex[2] = { sr->l[0].e, sr->l[1].e };
	size_t w = sr->l[0].c.w, nl = sr->nl;
	unsigned j;
	enum vg_err rv;
	int i;

	for (i = 0; i < 2; i++) {
		struct lane *l = &sr->l[i];
		uint64_t bad;

		do {
			rv = vg_rng_generate(rng, sr->rnd, 2 * w * 8);
			if (rv != VG_OK)
				return rv;
			vg_bn_mont_import(&l->c, sr->x[i], sr->rnd, 2 * w,
			    l->g, 2 * w);
			bad = vg_bn_zero_mask(sr->x[i], w) |
			    vg_bn_eq_mask(sr->x[i], l->one, w) |
			    vg_bn_eq_mask(sr->x[i], l->mone, w);
			VG_CT_DECLASSIFY(&bad, sizeof(bad));
		} while (vg_ct_barrier64(bad) != 0);
		if (sr->modexp52x2 != NULL)
			vg_rsa52_from64(sr->a[i], nl, sr->x[i], w);
		else
			vg_bn_mont_exp(&l->c, sr->x[i], sr->x[i], l->e,
			    l->c.bits);
	}
	if (sr->modexp52x2 != NULL)
		sr->modexp52x2(sr->a, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])
		    sr->a, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])sr->one52,
		    ex, sr->l[0].c.bits, (const uint64_t(*)
		    [VG_RSA52_MAX_LIMBS])sr->m52, sr->k0, nl);
	for (j = 0; j < 16; j++) {
		if (j > 0 && sr->modexp52x2 != NULL)
			sr->amm52x2(sr->a, (const uint64_t(*)
			    [VG_RSA52_MAX_LIMBS])sr->a, (const uint64_t(*)
			    [VG_RSA52_MAX_LIMBS])sr->a, (const uint64_t(*)
			    [VG_RSA52_MAX_LIMBS])sr->m52, sr->k0, nl);
		for (i = 0; i < 2; i++) {
			struct lane *l = &sr->l[i];
			uint64_t *x = sr->x[i];

			if (sr->modexp52x2 != NULL)
				vg_rsa52_canon(x, sr->a[i], nl, l->c.m, w);
			else if (j > 0)
				l->c.sqr(x, x, l->c.m, l->c.m0i, w);
			/* x = a^(2^j m): 1 or -1 at j = 0, -1 for j < s */
			if (j == 0)
				ok[i] = vg_bn_eq_mask(x, l->one, w) |
				    vg_bn_eq_mask(x, l->mone, w);
			else
				ok[i] |= vg_bn_eq_mask(x, l->mone, w) &
				    vg_ct_lt_mask64(j, l->s);
		}
	}
	VG_CT_DECLASSIFY(ok, 2 * sizeof(ok[0]));
	return VG_OK;
}

/*
 * Two probable primes of hw words (64 hw bits, top two bits set, gcd(p - 1,
 * e) = 1), into p and q, from two lanes that search at once, each lane
 * drawing at most limit candidates for one prime. Returns VG_OK,
 * VG_ERR_RANDOM with *exhausted set when a lane reached the limit, or the
 * generator's error.
 */
static enum vg_err
gen_primes(uint64_t *p, uint64_t *q, size_t hw, uint64_t e,
    struct vg_rng *rng, const struct vg_rsa_kernels *kern,
    struct search *sr, unsigned long limit, int *exhausted)
{
	uint64_t *const out[2] = { p, q };
	unsigned rounds = mr_rounds((unsigned)(64 * hw));
	enum vg_err rv = VG_OK;
	int found = 0, i;

	*exhausted = 0;
	search_init(sr, hw, kern);
	sr->limit = limit;
	sr->l[0].tries = sr->l[1].tries = 0;
	for (i = 0; i < 2 && rv == VG_OK; i++)
		rv = lane_fill(sr, i, hw, e, rng, kern, exhausted);
	while (rv == VG_OK && found < 2) {
		uint64_t ok[2];

		rv = mr_round(sr, ok, rng);
		for (i = 0; rv == VG_OK && i < 2 && found < 2; i++) {
			if (vg_ct_barrier64(ok[i]) != 0 && /* declassified */
			    ++sr->l[i].passed < rounds)
				continue;
			if (vg_ct_barrier64(ok[i]) != 0) {
				vg_bn_copy(out[found++], sr->l[i].c.m, hw);
				sr->l[i].tries = 0; /* the next prime's */
			}
			if (found < 2)
				rv = lane_fill(sr, i, hw, e, rng, kern,
				    exhausted);
		}
	}
	return rv;
}

/* see crypto/rsa_int.h */
enum vg_err
vg_rsa_mr_pair(const uint64_t *c0, const uint64_t *c1, size_t hw,
    unsigned rounds, struct vg_rng *rng, const struct vg_rsa_kernels *kern,
    uint64_t ok[2])
{
	struct search sr;
	const uint64_t *c[2] = { c0, c1 };
	enum vg_err rv = VG_OK;
	unsigned r;
	int i;

	memset(&sr, 0, sizeof(sr));
	ok[0] = ok[1] = ~(uint64_t)0;
	search_init(&sr, hw, kern);
	for (i = 0; i < 2; i++)
		if (lane_setup(&sr, i, c[i], hw, kern) != 0)
			rv = VG_ERR_ARG;
	for (r = 0; rv == VG_OK && r < rounds; r++) {
		uint64_t o[2];

		rv = mr_round(&sr, o, rng);
		ok[0] &= o[0];
		ok[1] &= o[1];
	}
	vg_wipe(&sr, sizeof(sr));
	return rv;
}

/* All-ones if x (n words) > 2^k, for k < 64 n; the strict bounds of
 * [FIPS 186-5 A.1.3]. CT: only n and k. */
static uint64_t
above_pow2(const uint64_t *x, size_t n, unsigned k)
{
	uint64_t t[2 * VG_BN_MAX_WORDS];

	vg_bn_zero(t, n);
	t[k / 64] = (uint64_t)1 << (k % 64);
	return vg_bn_lt_mask(t, x, n);
}

/* Runs of the prime search before key generation gives up. */
#define KEYGEN_RUNS 3

/* see crypto/rsa.h */
enum vg_err
vg_rsa_keygen(struct vg_rsa_key_bytes *out, unsigned bits, uint64_t e,
    struct vg_rng *rng)
{
	return vg_rsa_keygen_kern(out, bits, e, rng, NULL);
}

/* see crypto/rsa_int.h */
enum vg_err
vg_rsa_keygen_kern(struct vg_rsa_key_bytes *out, unsigned bits, uint64_t e,
    struct vg_rng *rng, const struct vg_rsa_kernels *kern)
{
	/* [FIPS 186-5 B.3.3 step 4.7]: 5 (nlen / 2) candidates per prime */
	return vg_rsa_keygen_limit(out, bits, e, rng, kern,
	    5 * (unsigned long)(bits / 2));
}

/* see crypto/rsa_int.h */
enum vg_err
vg_rsa_keygen_limit(struct vg_rsa_key_bytes *out, unsigned bits, uint64_t e,
    struct vg_rng *rng, const struct vg_rsa_kernels *kern,
    unsigned long limit)
{
	struct {
		uint64_t p[VG_BN_MAX_WORDS], q[VG_BN_MAX_WORDS];
		uint64_t pm1[VG_BN_MAX_WORDS], qm1[VG_BN_MAX_WORDS];
		uint64_t n[2 * VG_BN_MAX_WORDS], lam[2 * VG_BN_MAX_WORDS];
		uint64_t g[VG_BN_MAX_WORDS], t[2 * VG_BN_MAX_WORDS];
		uint64_t d[2 * VG_BN_MAX_WORDS], r[VG_BN_MAX_WORDS];
		struct search sr;
	} s;
	size_t hw = bits / 128, nw = 2 * hw, i;
	uint64_t ok, lm, inv, tt, one = 1;
	int exhausted, tried = 0;
	enum vg_err rv;

	assert(out != NULL);
	vg_wipe(out, sizeof(*out));
	if (rng == NULL || bits < 1024 || bits > VG_RSA_MAX_BITS ||
	    bits % 128 != 0 || (e & 1) == 0 || e <= 65536)
		return VG_ERR_ARG;
	if (kern == NULL)
		kern = &vg_kernels()->rsa;
	memset(&s, 0, sizeof(s));
	for (;;) {
		rv = gen_primes(s.p, s.q, hw, e, rng, kern, &s.sr, limit,
		    &exhausted);
		/* B.3.3's FAILURE ends one run of the search; a new run
		 * draws new candidates. The chance of a run's failure with
		 * a sound generator is about e^-14 per prime (one odd
		 * candidate in 0.35 (nlen / 2) is prime), so a third
		 * failure says the generator is not sound. */
		if (rv != VG_OK && exhausted && ++tried < KEYGEN_RUNS)
			continue;
		if (rv != VG_OK)
			goto out;
		/* |p - q| > 2^(bits/2 - 100); then p > q: g = max, r = min */
		ok = vg_bn_lt_mask(s.p, s.q, hw);
		vg_bn_copy(s.g, s.p, hw);
		vg_bn_cmov(s.g, s.q, hw, ok);
		vg_bn_copy(s.r, s.q, hw);
		vg_bn_cmov(s.r, s.p, hw, ok);
		vg_bn_sub(s.t, s.g, s.r, hw);
		ok = above_pow2(s.t, hw, bits / 2 - 100);
		VG_CT_DECLASSIFY(&ok, sizeof(ok));
		if (!ok) /* declassified */
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
		ok = above_pow2(s.d, nw, bits / 2);
		VG_CT_DECLASSIFY(&ok, sizeof(ok));
		if (!ok) /* declassified */
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
