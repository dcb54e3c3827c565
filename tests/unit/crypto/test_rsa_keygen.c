/*
 * Unit tests of crypto/rsa.h, keys: inconsistent components refused at
 * load, the fault check (a corrupted exponent or blinding pair gives
 * VG_ERR_INTERNAL and no output) under every kernel set, and key
 * generation: its trial division and its two-lane Miller-Rabin against
 * OpenSSL's, and keys checked by OpenSSL 3 (EVP_PKEY_check,
 * EVP_PKEY_private_check, EVP_PKEY_pairwise_check, RSA_check_key; d below
 * lcm(p - 1, q - 1)), 2048 and 1024 bits under every kernel set by
 * default; VG_TEST_SLOW=1 adds 3072 and 4096.
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

#define OPENSSL_SUPPRESS_DEPRECATED 1 /* RSA_check_key, as the issue asks */
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/der.h"
#include "crypto/rsa.h"
#include "crypto/rsa_int.h"
#include "tests/unit/crypto/rsa_ksets.h"
#include "tests/xorshift.h"

typedef unsigned __int128 u128;

static uint64_t rng_state;
static struct vg_rng g_rng;

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

/* PKCS#1 DER of an OpenSSL key (caller frees). */
static uint8_t *
der_of(EVP_PKEY *pk, size_t *len)
{
	uint8_t *der = NULL;
	int n = i2d_PrivateKey(pk, &der);

	assert_true(n > 0);
	*len = (size_t)n;
	return der;
}

/* Loads OpenSSL's key into k with the given kernels and flags. */
static void
load_from(struct vg_rsa_key *k, EVP_PKEY *pk,
    const struct vg_rsa_kernels *kern, unsigned flags)
{
	struct vg_der_rsa_priv c;
	size_t len;
	uint8_t *der = der_of(pk, &len);

	assert_int_equal(vg_der_parse_rsa_private(der, len, &c), VG_OK);
	assert_int_equal(vg_rsa_key_load(k, &c, kern, flags, &g_rng), VG_OK);
	OPENSSL_free(der);
}

/* An OpenSSL key from components given as big-endian bytes (via DER). */
static EVP_PKEY *
pkey_from(const struct vg_der_rsa_priv *c)
{
	uint8_t buf[4096];
	size_t len = sizeof(buf);
	const unsigned char *p = buf;
	EVP_PKEY *pk;

	assert_int_equal(vg_der_build_rsa_private(buf, &len, c), VG_OK);
	pk = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)len);
	assert_non_null(pk);
	return pk;
}

static EVP_PKEY_CTX *
pctx(EVP_PKEY *pk)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);

	assert_non_null(c);
	return c;
}

/* A key of bits bits loads, and changing one bit of any component but e
 * makes its load fail: the consistency checks divide by p - 1, q - 1 and
 * p at their public lengths, which need not be whole words. */
static void
check_tampered(unsigned bits)
{
	static struct vg_rsa_key k;
	EVP_PKEY *pk = EVP_RSA_gen(bits);
	struct vg_der_rsa_priv c, c2;
	uint8_t *der, copy[8][512];
	size_t len, f;

	der = der_of(pk, &len);
	assert_int_equal(vg_der_parse_rsa_private(der, len, &c), VG_OK);
	assert_int_equal(vg_rsa_key_load(&k, &c, NULL, 0, &g_rng), VG_OK);
	for (f = 0; f < 8; f++) {
		struct vg_der *v = &(&c2.n)[f];

		if (f == 1)
			continue;
		c2 = c;
		assert_true(v->len <= sizeof(copy[f]));
		memcpy(copy[f], v->p, v->len);
		copy[f][v->len - 1] ^= 2;
		v->p = copy[f];
		assert_int_not_equal(vg_rsa_key_load(&k, &c2, NULL, 0, &g_rng),
		    VG_OK);
	}
	vg_rsa_key_wipe(&k);
	OPENSSL_free(der);
	EVP_PKEY_free(pk);
}

/* Inconsistent components are refused at load. */
static void
test_bad_keys(void **state)
{
	static struct vg_rsa_key k;
	EVP_PKEY *pk = EVP_RSA_gen(1024);
	struct vg_der_rsa_priv c, c2;
	uint8_t *der, copy[8][256];
	size_t len, f;

	(void)state;
	/* primes of 550, 800 and 1025 bits (no whole words), 1600 */
	check_tampered(1100);
	check_tampered(1601);
	check_tampered(2050);
	check_tampered(3200);
	der = der_of(pk, &len);
	assert_int_equal(vg_der_parse_rsa_private(der, len, &c), VG_OK);
	/* each component but e changed by one bit in its last byte */
	for (f = 0; f < 8; f++) {
		struct vg_der *v = &(&c2.n)[f];

		if (f == 1)
			continue;
		c2 = c;
		memcpy(copy[f], v->p, v->len);
		copy[f][v->len - 1] ^= 2;
		v->p = copy[f];
		assert_int_not_equal(vg_rsa_key_load(&k, &c2, NULL, 0, &g_rng),
		    VG_OK);
	}
	/* d may be left out */
	c2 = c;
	c2.d = vg_der_make(NULL, 0);
	assert_int_equal(vg_rsa_key_load(&k, &c2, NULL, 0, &g_rng), VG_OK);
	/* p and q swapped: qinv no longer matches */
	c2 = c;
	c2.p = c.q;
	c2.q = c.p;
	assert_int_equal(vg_rsa_key_load(&k, &c2, NULL, 0, &g_rng),
	    VG_ERR_DECODE);
	assert_int_equal(vg_rsa_key_load(&k, &c, NULL, 0, NULL), VG_ERR_ARG);
	/* public keys: even n, e = 1, e even, too small */
	{
		static struct vg_rsa_pub pub;
		uint8_t n[128];

		memcpy(n, c.n.p, 128);
		assert_int_equal(vg_rsa_pub_load(&pub, n, 128, c.e.p, c.e.len),
		    VG_OK);
		n[127] ^= 1;
		assert_int_equal(vg_rsa_pub_load(&pub, n, 128, c.e.p, c.e.len),
		    VG_ERR_DECODE);
		n[127] ^= 1;
		assert_int_equal(vg_rsa_pub_load(&pub, n, 128,
		    (const uint8_t *)"\x01", 1), VG_ERR_DECODE);
		assert_int_equal(vg_rsa_pub_load(&pub, n, 128,
		    (const uint8_t *)"\x01\x00\x00", 3), VG_ERR_DECODE);
		assert_int_equal(vg_rsa_pub_load(&pub, n + 65, 63, c.e.p,
		    c.e.len), VG_ERR_LENGTH);
	}
	OPENSSL_free(der);
	EVP_PKEY_free(pk);
}

/* With word x of k flipped by bit, the private operation fails with
 * VG_ERR_INTERNAL and outputs zeros; restored, it works again. */
static void
expect_fault(struct vg_rsa_key *k, uint64_t *x, uint64_t bit,
    const uint8_t *in)
{
	uint8_t out[256];
	size_t j;

	*x ^= bit;
	memset(out, 0x55, sizeof(out));
	assert_int_equal(vg_rsa_private(k, out, in, 256, &g_rng),
	    VG_ERR_INTERNAL);
	for (j = 0; j < sizeof(out); j++)
		assert_int_equal(out[j], 0);
	*x ^= bit;
	assert_int_equal(vg_rsa_private(k, out, in, 256, &g_rng), VG_OK);
}

/* A fault in either half's exponent, in the recombination (a result
 * wrong modulo p only) or in the blinding pair is caught before anything
 * is output, with the 64-bit check and with the IFMA pair's (its kernel
 * and its portable twins: the pair runs where it is in the set). */
static void
test_fault_check(void **state)
{
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t nk = rsa_ksets_fill(ks), i;
	static struct vg_rsa_key k;
	EVP_PKEY *pk = EVP_RSA_gen(2048);
	uint8_t in[256], out[256];

	(void)state;
	for (i = 0; i < nk; i++) {
		load_from(&k, pk, &ks[i], 0);
		assert_int_equal(k.use52, ks[i].amm52x2 != NULL);
		rnd_bytes(in, sizeof(in));
		in[0] = 0;
		assert_int_equal(vg_rsa_private(&k, out, in, 256, &g_rng), VG_OK);
		expect_fault(&k, &k.q.dexp[3], 0x100, in);
		expect_fault(&k, &k.p.dexp[9], 0x8000, in);
		expect_fault(&k, &k.qinv[5], 1, in);
		/* and in the blinding pair, the one this path uses (not
		 * restored: the pair is refreshed from the faulty value) */
		if (k.use52)
			k.blind52_b[1][7] ^= 1;
		else
			k.blind_b[0] ^= 1;
		assert_int_equal(vg_rsa_private(&k, out, in, 256, &g_rng),
		    VG_ERR_INTERNAL);
		if (k.use52) {
			load_from(&k, pk, &ks[i], 0);
			k.blind52_a[0][2] ^= 1 << 20;
			assert_int_equal(vg_rsa_private(&k, out, in, 256,
			    &g_rng), VG_ERR_INTERNAL);
		}
	}
	vg_rsa_key_wipe(&k);
	EVP_PKEY_free(pk);
}

/* A key whose p is 1 modulo 2^64 (valid, and rare among generated ones:
 * Fermat's exponent p - 2 borrows from the second word) loads under every
 * kernel set, and its signatures verify in OpenSSL. */
static void
test_prime_low_word_one(void **state)
{
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t nk = rsa_ksets_fill(ks), i;
	static struct vg_rsa_key k;
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *add = BN_new(), *one = BN_new();
	EVP_PKEY *pk = EVP_PKEY_new();
	RSA *r = RSA_new();
	uint8_t h[32], sig[256];

	(void)state;
	assert_true(bc && add && one && pk && r);
	assert_int_equal(BN_set_bit(add, 64), 1);
	assert_int_equal(BN_one(one), 1);
	for (;;) {
		BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new();
		BIGNUM *e = BN_new(), *d = BN_new(), *dp = BN_new();
		BIGNUM *dq = BN_new(), *qi = BN_new(), *pm1 = BN_new();
		BIGNUM *qm1 = BN_new(), *phi = BN_new();

		assert_true(p && q && n && e && d && dp && dq && qi && pm1 &&
		    qm1 && phi);
		assert_int_equal(BN_generate_prime_ex2(p, 1024, 0, add, one,
		    NULL, bc), 1);
		assert_int_equal(BN_generate_prime_ex2(q, 1024, 0, NULL, NULL,
		    NULL, bc), 1);
		assert_int_equal(BN_set_word(e, 65537), 1);
		assert_int_equal(BN_mul(n, p, q, bc), 1);
		assert_true(BN_sub(pm1, p, BN_value_one()) &&
		    BN_sub(qm1, q, BN_value_one()) &&
		    BN_mul(phi, pm1, qm1, bc));
		if (BN_num_bits(n) != 2048 ||
		    BN_mod_inverse(d, e, phi, bc) == NULL) {
			BN_free(p);
			BN_free(q);
			BN_free(n);
			BN_free(e);
			BN_free(d);
			BN_free(dp);
			BN_free(dq);
			BN_free(qi);
			BN_free(pm1);
			BN_free(qm1);
			BN_free(phi);
			continue;
		}
		assert_true(BN_mod(dp, d, pm1, bc) && BN_mod(dq, d, qm1, bc) &&
		    BN_mod_inverse(qi, q, p, bc) != NULL);
		/* the low word of p is 1 */
		for (i = 1; i < 64; i++)
			assert_false(BN_is_bit_set(p, (int)i));
		assert_true(BN_is_bit_set(p, 0));
		assert_true(RSA_set0_key(r, n, e, d) &&
		    RSA_set0_factors(r, p, q) &&
		    RSA_set0_crt_params(r, dp, dq, qi));
		BN_free(pm1);
		BN_free(qm1);
		BN_free(phi);
		break;
	}
	assert_int_equal(EVP_PKEY_assign_RSA(pk, r), 1);
	for (i = 0; i < nk; i++) {
		EVP_PKEY_CTX *c;

		load_from(&k, pk, &ks[i], 0);
		rnd_bytes(h, sizeof(h));
		assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, h, 32,
		    sig, sizeof(sig), &g_rng), VG_OK);
		c = pctx(pk);
		assert_int_equal(EVP_PKEY_verify_init(c), 1);
		EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
		EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
		assert_int_equal(EVP_PKEY_verify(c, sig, sizeof(sig), h, 32),
		    1);
		EVP_PKEY_CTX_free(c);
	}
	vg_rsa_key_wipe(&k);
	EVP_PKEY_free(pk);
	BN_free(add);
	BN_free(one);
	BN_CTX_free(bc);
}

/* ------------------------------------------------------ key generation */

static void
check_generated(unsigned bits, const struct vg_rsa_kernels *kern)
{
	static struct vg_rsa_key_bytes kb;
	static struct vg_rsa_key k;
	struct vg_der_rsa_priv v;
	EVP_PKEY *pk;
	EVP_PKEY_CTX *c;
	const RSA *rsa;
	uint8_t h[32], sig[512];
	size_t olen;

	assert_int_equal(vg_rsa_keygen_kern(&kb, bits, 65537, &g_rng, kern),
	    VG_OK);
	assert_int_equal(kb.nlen, bits / 8);
	assert_true(kb.n[0] & 0x80);
	assert_true((kb.p[0] & 0xc0) == 0xc0 && (kb.q[0] & 0xc0) == 0xc0);
	assert_true(memcmp(kb.p, kb.q, kb.plen) > 0);
	vg_rsa_key_bytes_view(&kb, &v);
	assert_int_equal(vg_rsa_key_load(&k, &v, NULL, 0, &g_rng), VG_OK);
	pk = pkey_from(&v);
	c = pctx(pk);
	assert_int_equal(EVP_PKEY_check(c), 1);
	assert_int_equal(EVP_PKEY_private_check(c), 1);
	assert_int_equal(EVP_PKEY_pairwise_check(c), 1);
	EVP_PKEY_CTX_free(c);
	rsa = EVP_PKEY_get0_RSA(pk);
	assert_non_null(rsa);
	assert_int_equal(RSA_check_key(rsa), 1);
	/* d is the inverse modulo lcm(p - 1, q - 1): below it */
	{
		BN_CTX *bc = BN_CTX_new();
		BIGNUM *p = BN_bin2bn(kb.p, (int)kb.plen, NULL);
		BIGNUM *q = BN_bin2bn(kb.q, (int)kb.plen, NULL);
		BIGNUM *d = BN_bin2bn(kb.d, (int)kb.nlen, NULL);
		BIGNUM *g = BN_new(), *l = BN_new(), *t = BN_new();

		BN_sub_word(p, 1);
		BN_sub_word(q, 1);
		BN_gcd(g, p, q, bc);
		BN_mul(t, p, q, bc);
		BN_div(l, NULL, t, g, bc);
		assert_true(BN_cmp(d, l) < 0);
		assert_true(BN_num_bits(d) > (int)bits / 2);
		/* |p - q| > 2^(bits/2 - 100) [FIPS 186-5 A.1.3] (p > q) */
		assert_int_equal(BN_sub(t, p, q), 1);
		assert_true(BN_num_bits(t) > (int)bits / 2 - 100);
		BN_free(p);
		BN_free(q);
		BN_free(d);
		BN_free(g);
		BN_free(l);
		BN_free(t);
		BN_CTX_free(bc);
	}
	/* a signature made with the generated key verifies in OpenSSL */
	rnd_bytes(h, sizeof(h));
	assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, h, 32, sig,
	    bits / 8, &g_rng), VG_OK);
	c = pctx(pk);
	assert_int_equal(EVP_PKEY_verify_init(c), 1);
	EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
	EVP_PKEY_CTX_set_signature_md(c, EVP_sha256());
	assert_int_equal(EVP_PKEY_verify(c, sig, bits / 8, h, 32), 1);
	EVP_PKEY_CTX_free(c);
	olen = 0;
	(void)olen;
	EVP_PKEY_free(pk);
	vg_rsa_key_wipe(&k);
	vg_wipe(&kb, sizeof(kb));
}

/* Keys of 2048 and 1024 bits from every kernel set (the IFMA pair's
 * lanes for 2048, and through its portable twins on any CPU). */
static void
test_keygen(void **state)
{
	static struct vg_rsa_key_bytes kb;
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t n = rsa_ksets_fill(ks), i;

	(void)state;
	for (i = 0; i < n; i++) {
		printf("# key generation, kernels %s\n", ks[i].impl);
		check_generated(2048, &ks[i]);
		check_generated(1024, &ks[i]);
	}
	if (getenv("VG_TEST_SLOW") != NULL) {
		check_generated(3072, NULL);
		check_generated(4096, NULL);
		check_generated(3072, &ks[n - 1]);
	} else {
		printf("# 3072 and 4096-bit generation: set VG_TEST_SLOW=1\n");
	}
	assert_int_equal(vg_rsa_keygen(&kb, 2000, 65537, &g_rng), VG_ERR_ARG);
	assert_int_equal(vg_rsa_keygen(&kb, 2048, 3, &g_rng), VG_ERR_ARG);
	assert_int_equal(vg_rsa_keygen(&kb, 2048, 65536, &g_rng), VG_ERR_ARG);
	assert_int_equal(vg_rsa_keygen(&kb, 2048, 65537, NULL), VG_ERR_ARG);
}

/*
 * The candidate limit of FIPS 186-5 B.3.3: a run of the prime search
 * that draws the limit for one prime fails, and after three runs key
 * generation does, with VG_ERR_RANDOM and nothing left in the output. One
 * candidate per prime almost never gives two primes (each odd 512-bit
 * candidate is prime with a chance of about 1/177); B.3.3's own limit,
 * 5 (nlen / 2), gives a key.
 */
static void
test_keygen_limit(void **state)
{
	static struct vg_rsa_key_bytes kb, zero;
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		memset(&kb, 0x5a, sizeof(kb));
		assert_int_equal(vg_rsa_keygen_limit(&kb, 1024, 65537, &g_rng,
		    NULL, 1), VG_ERR_RANDOM);
		assert_memory_equal(&kb, &zero, sizeof(kb));
	}
	assert_int_equal(vg_rsa_keygen_limit(&kb, 1024, 65537, &g_rng, NULL,
	    5 * 512), VG_OK);
	assert_int_equal(kb.nlen, 128);
}

/* The reference for vg_rsa_small_factor: all-ones if an odd prime below
 * 2^11 divides x (n words), by OpenSSL's BN_mod_word. */
static uint64_t
small_factor_ref(const uint64_t *x, size_t n)
{
	BIGNUM *b = BN_new();
	uint8_t be[8 * 32];
	uint64_t any = 0;
	unsigned p, d;
	size_t i;

	assert_non_null(b);
	for (i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < 8; k++)
			be[8 * (n - 1 - i) + 7 - k] = (uint8_t)(x[i] >> (8 * k));
	}
	assert_non_null(BN_bin2bn(be, (int)(8 * n), b));
	for (p = 3; p < 2048; p += 2) {
		for (d = 3; d * d <= p && p % d != 0; d += 2)
			;
		if (d * d <= p)
			continue;
		if (BN_mod_word(b, p) == 0)
			any = ~(uint64_t)0;
	}
	BN_free(b);
	return any;
}

/* x -= x mod p (x of n words, above p), so that p divides it. */
static void
make_multiple(uint64_t *x, size_t n, unsigned p)
{
	u128 r = 0;
	size_t i;

	for (i = n; i-- > 0;)
		r = ((r << 64) | x[i]) % p;
	for (i = 0; i < n; i++) {
		uint64_t t = x[i];

		x[i] = t - (uint64_t)r;
		r = x[i] > t;
	}
}

/* x *= y (x of n words, the product fitting). */
static void
times_word(uint64_t *x, size_t n, uint64_t y)
{
	u128 c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		c += (u128)x[i] * y;
		x[i] = (uint64_t)c;
		c >>= 64;
	}
	assert_true(c == 0);
}

/* Key generation's trial division, against BN_mod_word: random numbers of
 * every width, multiples of each small prime (random ones, and the prime
 * times a number with no factor below 2^11, so that each prime alone must
 * be found), numbers whose factors all lie just above 2^11, and the edge
 * values 0, 1 and all-ones. */
static void
test_small_factor(void **state)
{
	static const size_t widths[] = { 1, 2, 3, 8, 16, 24, 32 };
	uint64_t x[32];
	size_t wi, i;
	unsigned p, d;
	int k;

	(void)state;
	for (wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
		size_t n = widths[wi];

		for (k = 0; k < 200; k++) {
			rnd_bytes((uint8_t *)x, 8 * n);
			x[n - 1] |= (uint64_t)1 << 63;
			assert_true(vg_rsa_small_factor(x, n) ==
			    small_factor_ref(x, n));
		}
		for (p = 3; p < 2048; p += 2) {
			for (d = 3; d * d <= p && p % d != 0; d += 2)
				;
			if (d * d <= p)
				continue;
			rnd_bytes((uint8_t *)x, 8 * n);
			x[n - 1] |= (uint64_t)1 << 63;
			make_multiple(x, n, p);
			assert_true(vg_rsa_small_factor(x, n) == ~(uint64_t)0);
			/* p y with y free of small factors: p alone divides */
			do {
				rnd_bytes((uint8_t *)x, 8 * n);
				x[n - 1] >>= 12;
				x[0] |= 1;
			} while (small_factor_ref(x, n) != 0);
			times_word(x, n, p);
			assert_true(vg_rsa_small_factor(x, n) == ~(uint64_t)0);
		}
		memset(x, 0, sizeof(x));
		assert_true(vg_rsa_small_factor(x, n) == ~(uint64_t)0);
		x[0] = 1;
		assert_true(vg_rsa_small_factor(x, n) == 0);
		memset(x, 0xff, sizeof(x));
		assert_true(vg_rsa_small_factor(x, n) ==
		    small_factor_ref(x, n));
	}
	/* 2053 * 2063 * 2069 * 2081 * 2083 * 2087: no factor below 2^11 */
	memset(x, 0, sizeof(x));
	x[0] = 2053;
	for (i = 0; i < 5; i++) {
		static const uint64_t f[] = { 2063, 2069, 2081, 2083, 2087 };
		u128 t = (u128)x[0] * f[i];

		x[0] = (uint64_t)t;
		x[1] = x[1] * f[i] + (uint64_t)(t >> 64);
	}
	assert_true(small_factor_ref(x, 2) == 0);
	assert_true(vg_rsa_small_factor(x, 2) == 0);
	assert_true(vg_rsa_small_factor(x, 32) == 0);
}

/* x (hw words, little-endian) from b. */
static void
words_of(uint64_t *x, size_t hw, const BIGNUM *b)
{
	uint8_t be[8 * 32];
	size_t i, k;

	assert_true(hw <= 32 && BN_num_bytes(b) <= (int)(8 * hw));
	assert_int_equal(BN_bn2binpad(b, be, (int)(8 * hw)), (int)(8 * hw));
	for (i = 0; i < hw; i++) {
		x[i] = 0;
		for (k = 0; k < 8; k++)
			x[i] |= (uint64_t)be[8 * (hw - 1 - i) + 7 - k] << (8 * k);
	}
}

/* A prime of bits bits, top bit set, with p - 1 = 2^s m, m odd. */
static BIGNUM *
prime_s(int bits, int s, BN_CTX *bc)
{
	BIGNUM *p = BN_new();

	assert_non_null(p);
	for (;;) {
		assert_int_equal(BN_rand(p, bits - s, BN_RAND_TOP_ONE,
		    BN_RAND_BOTTOM_ODD), 1);
		assert_int_equal(BN_lshift(p, p, s), 1);
		assert_int_equal(BN_add_word(p, 1), 1);
		if (BN_check_prime(p, bc, NULL) == 1)
			return p;
	}
}

/* Carmichael numbers of 512, 1024 and 1536 bits: Chernick's (6k + 1)
 * (12k + 1)(18k + 1) with the three factors prime, k drawn at random (by
 * a throw-away script, the factors checked prime with sympy). Every base
 * prime to them passes Fermat's test; Miller-Rabin's rounds each find
 * them composite with probability at least 3/4. */
static const char *const carmichael[] = {
	"8572051918c5e621fa45633cba2a11707ec42c921ad0cc6c33248527"
	"e980902915f38725077fbdfee2e7033a935919ecb92ef82ebcd58177"
	"b9a7d4ec90c6da71",
	"9557436b8a938121049ca9dfc6cf6ebfccbe09533c49c8054339c173"
	"fbfe137c6c4fec9cbc0faa90a1838b9103b0338870eadcdcca9422e7"
	"5684f733235a6e8611fd62b69d71e919e610c5769b93491a66d6a70a"
	"461ea548f9b2543e8a912b7e0f5c5677c81953ce79ace4c8103bed2c"
	"e8dcd898d91c695e0931dcd507c6f5e9",
	"b7dd7687ed362f46e6b66ab307035d207f513c2d535ae6a622eadaa4"
	"23709a0732e948c575bc4c5c3f80e3f48eb4a77f93453a7b31935f5b"
	"812b6df9f5bf6c1112e7c5f988e30d8785556e79d2e309376fa18b29"
	"c4a010fd76d909a837996b119c8b577b3793962e7d182577690b48c7"
	"f6dea7cbe6355448d839ee38835ff8a23d847849dfe8e3a967509df9"
	"34a70d953a9442c33776003a1fa4474d35d5c719ab48dfc34b347427"
	"7e427a974f332216e61c1f378fb015957196965a298c8719",
};

/*
 * Key generation's Miller-Rabin in two lanes, under every kernel set and
 * for candidates of 512, 1024 and 1536 bits (the lanes take turns, or run
 * on the pair): primes pass beside composites in either lane, whatever
 * the other lane holds; a prime with p - 1 = 2^16 m (the deepest chain of
 * squarings) passes; composites (a product of two primes, a prime's
 * square, a Carmichael number over 20 rounds) fail; p - 1 = 2^17 m is
 * refused.
 */
static void
test_mr_pair(void **state)
{
	static const int sizes[] = { 512, 1024, 1536 };
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t nk = rsa_ksets_fill(ks), ki, si, i;
	BN_CTX *bc = BN_CTX_new();

	(void)state;
	assert_non_null(bc);
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		int bits = sizes[si];
		size_t hw = (size_t)bits / 64;
		BIGNUM *pr = BN_new(), *a = BN_new(), *b = BN_new();
		BIGNUM *pq = BN_new(), *sq = BN_new(), *p16, *p17;
		uint64_t w[7][32], ok[2];
		/* 0, 1: primes; 2: s = 16 prime; 3: p q; 4: a prime squared;
		 * 5: 2^17 | c - 1; 6: a Carmichael number */
		static const struct {
			int x, y;
			int px, py;
		} pairs[] = {
			{ 0, 3, 1, 0 }, { 3, 0, 0, 1 }, { 0, 1, 1, 1 },
			{ 2, 4, 1, 0 }, { 3, 4, 0, 0 }, { 1, 2, 1, 1 },
		};

		assert_true(pr && a && b && pq && sq);
		assert_int_equal(BN_generate_prime_ex2(pr, bits, 0, NULL, NULL,
		    NULL, bc), 1);
		words_of(w[0], hw, pr);
		assert_int_equal(BN_generate_prime_ex2(pr, bits, 0, NULL, NULL,
		    NULL, bc), 1);
		words_of(w[1], hw, pr);
		p16 = prime_s(bits, 16, bc);
		words_of(w[2], hw, p16);
		assert_int_equal(BN_generate_prime_ex2(a, bits / 2, 0, NULL,
		    NULL, NULL, bc), 1);
		assert_int_equal(BN_generate_prime_ex2(b, bits / 2, 0, NULL,
		    NULL, NULL, bc), 1);
		assert_int_equal(BN_mul(pq, a, b, bc), 1);
		assert_int_equal(BN_num_bits(pq), bits);
		words_of(w[3], hw, pq);
		assert_int_equal(BN_sqr(sq, a, bc), 1);
		assert_int_equal(BN_num_bits(sq), bits);
		words_of(w[4], hw, sq);
		p17 = BN_dup(p16);
		assert_non_null(p17);
		assert_int_equal(BN_sub_word(p17, 1), 1);
		/* 2^16 m with m odd, less 2^16: 2^17 divides it */
		assert_int_equal(BN_clear_bit(p17, 16), 1);
		assert_int_equal(BN_add_word(p17, 1), 1);
		words_of(w[5], hw, p17);
		{
			BIGNUM *cm = NULL;

			assert_true(BN_hex2bn(&cm, carmichael[si]) > 0);
			assert_int_equal(BN_num_bits(cm), bits);
			words_of(w[6], hw, cm);
			BN_free(cm);
		}
		for (ki = 0; ki < nk; ki++) {
			for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
				assert_int_equal(vg_rsa_mr_pair(w[pairs[i].x],
				    w[pairs[i].y], hw, 5, &g_rng, &ks[ki], ok),
				    VG_OK);
				if (ok[0] != (pairs[i].px ? ~(uint64_t)0 : 0) ||
				    ok[1] != (pairs[i].py ? ~(uint64_t)0 : 0))
					fail_msg("%d bits, kernels %s, pair %zu: "
					    "verdicts %d %d", bits, ks[ki].impl,
					    i, ok[0] != 0, ok[1] != 0);
			}
			assert_int_equal(vg_rsa_mr_pair(w[0], w[5], hw, 5,
			    &g_rng, &ks[ki], ok), VG_ERR_ARG);
			assert_int_equal(vg_rsa_mr_pair(w[6], w[1], hw, 20,
			    &g_rng, &ks[ki], ok), VG_OK);
			assert_true(ok[0] == 0 && ok[1] == ~(uint64_t)0);
			assert_int_equal(vg_rsa_mr_pair(w[2], w[6], hw, 20,
			    &g_rng, &ks[ki], ok), VG_OK);
			assert_true(ok[0] == ~(uint64_t)0 && ok[1] == 0);
		}
		BN_free(pr);
		BN_free(a);
		BN_free(b);
		BN_free(pq);
		BN_free(sq);
		BN_free(p16);
		BN_free(p17);
	}
	BN_CTX_free(bc);
}

/* The same number, whatever the leading zero bytes. */
static int
same_num(const uint8_t *a, size_t alen, const struct vg_der *b)
{
	BIGNUM *x = BN_bin2bn(a, (int)alen, NULL);
	BIGNUM *y = BN_bin2bn(b->p, (int)b->len, NULL);
	int eq = x != NULL && y != NULL && BN_cmp(x, y) == 0;

	BN_free(x);
	BN_free(y);
	return eq;
}

/* Keys given as (n, e, d) only: the factors come back, the recovered key
 * loads and its private operation equals the original key's. */
static void
test_recover_crt(void **state)
{
	static const unsigned sizes[] = { 1024, 2048, 3072 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EVP_PKEY *pk = EVP_RSA_gen(sizes[i]);
		struct vg_rsa_key_bytes kb;
		struct vg_der_rsa_priv c, v;
		struct vg_rsa_key a, b;
		uint8_t in[512], o1[512], o2[512], dbad[512];
		struct vg_der bad;
		size_t len, nlen = sizes[i] / 8;
		uint8_t *der;

		assert_non_null(pk);
		der = der_of(pk, &len);
		assert_int_equal(vg_der_parse_rsa_private(der, len, &c), VG_OK);
		assert_int_equal(vg_rsa_recover_crt(&kb, &c.n, &c.e, &c.d),
		    VG_OK);
		assert_true((same_num(kb.p, kb.plen, &c.p) &&
		    same_num(kb.q, kb.plen, &c.q)) ||
		    (same_num(kb.p, kb.plen, &c.q) &&
		    same_num(kb.q, kb.plen, &c.p)));
		vg_rsa_key_bytes_view(&kb, &v);
		assert_int_equal(vg_rsa_key_load(&a, &v, NULL, 0, &g_rng),
		    VG_OK);
		assert_int_equal(vg_rsa_key_load(&b, &c, NULL, 0, &g_rng),
		    VG_OK);
		rnd_bytes(in, nlen);
		in[0] = 0;
		assert_int_equal(vg_rsa_private(&a, o1, in, nlen, &g_rng),
		    VG_OK);
		assert_int_equal(vg_rsa_private(&b, o2, in, nlen, &g_rng),
		    VG_OK);
		assert_memory_equal(o1, o2, nlen);

		/* a d that does not belong to n and e */
		assert_true(c.d.len <= sizeof(dbad));
		memcpy(dbad, c.d.p, c.d.len);
		dbad[c.d.len - 1] ^= 2;
		bad = vg_der_make(dbad, c.d.len);
		assert_int_equal(vg_rsa_recover_crt(&kb, &c.n, &c.e, &bad),
		    VG_ERR_DECODE);
		assert_true(kb.nlen == 0 && kb.plen == 0);
		/* sizes out of range */
		bad = vg_der_make(dbad, 0);
		assert_int_equal(vg_rsa_recover_crt(&kb, &c.n, &c.e, &bad),
		    VG_ERR_LENGTH);
		vg_rsa_key_wipe(&a);
		vg_rsa_key_wipe(&b);
		OPENSSL_free(der);
		EVP_PKEY_free(pk);
	}
}

static int
setup(void **state)
{
	(void)state;
	return vg_rng_init(&g_rng) == VG_OK ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_fault_check),
		cmocka_unit_test(test_prime_low_word_one),
		cmocka_unit_test(test_small_factor),
		cmocka_unit_test(test_mr_pair),
		cmocka_unit_test(test_keygen),
		cmocka_unit_test(test_keygen_limit),
		cmocka_unit_test(test_recover_crt),
	};

	rng_state = 0x4b4559ULL;
	return cmocka_run_group_tests(tests, setup, NULL);
}
