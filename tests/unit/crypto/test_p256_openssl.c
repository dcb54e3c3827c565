/*
 * crypto/p256.h against OpenSSL's libcrypto on random and edge inputs:
 * scalar multiplication (EC_POINT_mul) for the window method and the comb,
 * public keys, ECDH both ways (EVP_PKEY_derive), ECDSA both ways (our
 * signatures verified by ECDSA_do_verify and EVP_PKEY_verify over DER,
 * OpenSSL's verified by us). Runs on the portable kernels and on those
 * this CPU selects. VG_TEST_SEED=<n> replays a run.
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

/* EC_KEY and ECDSA_SIG are deprecated in OpenSSL 3 but still the plain
 * way to reach raw scalars and r, s. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "crypto/cpu.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"
#include "tests/xorshift.h"

static uint64_t rng_state;
static struct vg_kernels kset[2];
static EC_GROUP *grp;

#define NKSETS 2
#define KP(i) (&kset[(i)].p256)

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

/* A random valid private key, as bytes and decoded. */
static void
random_key(uint8_t d[32], struct vg_p256_priv *k)
{
	do
		rnd_bytes(d, 32);
	while (vg_p256_priv_decode(k, d, 32) != VG_OK);
}

/* OpenSSL key with private scalar d (its public key computed). */
static EC_KEY *
ossl_key(const uint8_t d[32])
{
	EC_KEY *k = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
	BIGNUM *bn = BN_bin2bn(d, 32, NULL);
	EC_POINT *q = EC_POINT_new(grp);

	assert_non_null(k);
	assert_non_null(bn);
	assert_non_null(q);
	assert_int_equal(EC_POINT_mul(grp, q, bn, NULL, NULL, NULL), 1);
	assert_int_equal(EC_KEY_set_private_key(k, bn), 1);
	assert_int_equal(EC_KEY_set_public_key(k, q), 1);
	EC_POINT_free(q);
	BN_clear_free(bn);
	return k;
}

/* OpenSSL public key from a 65-byte point. */
static EC_KEY *
ossl_pub(const uint8_t pub[65])
{
	EC_KEY *k = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);

	assert_non_null(k);
	assert_int_equal(EC_KEY_oct2key(k, pub, 65, NULL), 1);
	return k;
}

static EVP_PKEY *
evp(EC_KEY *k)
{
	EVP_PKEY *p = EVP_PKEY_new();

	assert_non_null(p);
	assert_int_equal(EVP_PKEY_set1_EC_KEY(p, k), 1);
	return p;
}

/* [d]P by OpenSSL (P NULL: G), encoded 04 || x || y. */
static void
ossl_mul(uint8_t out[65], const uint8_t p[65], const uint64_t d[4])
{
	uint8_t db[32];
	BIGNUM *bn;
	EC_POINT *r = EC_POINT_new(grp), *pp = NULL;

	vg_p256_to_be(db, d);
	bn = BN_bin2bn(db, 32, NULL);
	assert_non_null(bn);
	if (p != NULL) {
		pp = EC_POINT_new(grp);
		assert_int_equal(EC_POINT_oct2point(grp, pp, p, 65, NULL), 1);
		assert_int_equal(EC_POINT_mul(grp, r, NULL, pp, bn, NULL), 1);
	} else {
		assert_int_equal(EC_POINT_mul(grp, r, bn, NULL, NULL, NULL), 1);
	}
	assert_int_equal(EC_POINT_point2oct(grp, r,
	    POINT_CONVERSION_UNCOMPRESSED, out, 65, NULL), 65);
	EC_POINT_free(r);
	EC_POINT_free(pp);
	BN_free(bn);
}

static void
jac_encode(const struct vg_p256_kernels *k, uint8_t out[65],
    const struct vg_p256_jac *r)
{
	struct vg_p256_aff a;

	assert_true(vg_p256_point_to_affine(k, &a, r));
	out[0] = 4;
	vg_p256_fe_to_bytes(k, out + 1, a.x);
	vg_p256_fe_to_bytes(k, out + 33, a.y);
}

/* Our [d]P (window method) and [d]G (comb) against EC_POINT_mul. */
static void
check_mul(const struct vg_p256_kernels *k, const uint8_t p[65],
    const uint64_t d[4])
{
	struct vg_p256_pub pub;
	struct vg_p256_aff a;
	struct vg_p256_jac r;
	uint8_t ours[65], want[65];

	assert_int_equal(vg_p256_pub_decode_k(k, &pub, p, 65), VG_OK);
	vg_p256_copy4(a.x, pub.x);
	vg_p256_copy4(a.y, pub.y);
	vg_p256_point_mul(k, &r, &a, d);
	jac_encode(k, ours, &r);
	ossl_mul(want, p, d);
	assert_memory_equal(ours, want, 65);
	vg_p256_base_mul(k, &r, d);
	jac_encode(k, ours, &r);
	ossl_mul(want, NULL, d);
	assert_memory_equal(ours, want, 65);
}

static void
test_mul_vs_openssl(void **state)
{
	uint8_t p[65], db[32];
	uint64_t d[4], one[4] = { 1, 0, 0, 0 }, t[4];
	struct vg_p256_priv key;
	struct vg_p256_pub pub;
	size_t s, i;

	(void)state;
	for (s = 0; s < NKSETS; s++) {
		for (i = 0; i < 100; i++) {
			/* a random point, a random scalar */
			random_key(db, &key);
			assert_int_equal(vg_p256_pub_from_priv(&pub, &key),
			    VG_OK);
			vg_p256_pub_encode(p, &pub);
			random_key(db, &key);
			check_mul(KP(s), p, key.d);
			/* the edges: 1 + i, n - 1 - i, 2^(2i + j) */
			memset(d, 0, sizeof(d));
			d[0] = 1 + i;
			check_mul(KP(s), p, d);
			t[0] = 1 + i;
			t[1] = t[2] = t[3] = 0;
			vg_p256_sub4(d, vg_p256_n, t);
			check_mul(KP(s), p, d);
			memset(d, 0, sizeof(d));
			d[(2 * i + s) / 64] = 1ULL << ((2 * i + s) % 64);
			check_mul(KP(s), p, d);
			vg_p256_sub4(d, d, one);
			if (vg_p256_ord_valid_mask(d))
				check_mul(KP(s), p, d);
		}
	}
	vg_p256_priv_wipe(&key);
}

static void
test_ecdh_vs_openssl(void **state)
{
	uint8_t da[32], db[32], pa[65], pb[65], z1[32], z2[32];
	struct vg_p256_priv ka, kb;
	struct vg_p256_pub qa, qb;
	size_t s, i, len;

	(void)state;
	for (s = 0; s < NKSETS; s++)
		for (i = 0; i < 100; i++) {
			EC_KEY *ea, *eb;
			EVP_PKEY *pka, *pkb;
			EVP_PKEY_CTX *c;

			random_key(da, &ka);
			random_key(db, &kb);
			assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &qa,
			    &ka), VG_OK);
			vg_p256_pub_encode(pa, &qa);
			/* OpenSSL's key b, and its public key as a peer */
			eb = ossl_key(db);
			assert_int_equal(EC_POINT_point2oct(grp,
			    EC_KEY_get0_public_key(eb),
			    POINT_CONVERSION_UNCOMPRESSED, pb, 65, NULL), 65);
			assert_int_equal(vg_p256_pub_decode_k(KP(s), &qb, pb,
			    65), VG_OK);
			assert_int_equal(vg_p256_ecdh_k(KP(s), z1, &ka, &qb),
			    VG_OK);
			/* OpenSSL: b's private key with our public key a */
			ea = ossl_pub(pa);
			pka = evp(ea);
			pkb = evp(eb);
			c = EVP_PKEY_CTX_new(pkb, NULL);
			assert_non_null(c);
			assert_int_equal(EVP_PKEY_derive_init(c), 1);
			assert_int_equal(EVP_PKEY_derive_set_peer(c, pka), 1);
			len = sizeof(z2);
			assert_int_equal(EVP_PKEY_derive(c, z2, &len), 1);
			assert_int_equal(len, 32);
			assert_memory_equal(z1, z2, 32);
			/* and ours the other way round */
			assert_int_equal(vg_p256_ecdh_k(KP(s), z2, &kb, &qa),
			    VG_OK);
			assert_memory_equal(z1, z2, 32);
			EVP_PKEY_CTX_free(c);
			EVP_PKEY_free(pka);
			EVP_PKEY_free(pkb);
			EC_KEY_free(ea);
			EC_KEY_free(eb);
		}
	vg_p256_priv_wipe(&ka);
	vg_p256_priv_wipe(&kb);
}

static void
test_ecdsa_vs_openssl(void **state)
{
	uint8_t d[32], p[65], h[64], sig[64], der[80], rb[32], back[64];
	struct vg_p256_priv k;
	struct vg_p256_pub q;
	size_t s, i, hl, dl;

	(void)state;
	for (s = 0; s < NKSETS; s++)
		for (i = 0; i < 100; i++) {
			EC_KEY *ek;
			EVP_PKEY *pk;
			EVP_PKEY_CTX *c;
			ECDSA_SIG *os;
			BIGNUM *r, *ss;
			const BIGNUM *cr, *cs;

			random_key(d, &k);
			ek = ossl_key(d);
			assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &q, &k),
			    VG_OK);
			vg_p256_pub_encode(p, &q);
			assert_int_equal(EC_POINT_point2oct(grp,
			    EC_KEY_get0_public_key(ek),
			    POINT_CONVERSION_UNCOMPRESSED, der, 65, NULL), 65);
			assert_memory_equal(p, der, 65);
			hl = i % 4 == 0 ? 32 : (size_t)(rnd() % 65);
			rnd_bytes(h, hl);
			rnd_bytes(rb, 32);

			/* ours, verified by OpenSSL (raw r, s) */
			assert_int_equal(vg_p256_ecdsa_sign_k(KP(s), sig, &k, h,
			    hl, VG_HASH_SHA256, i & 1 ? rb : NULL), VG_OK);
			os = ECDSA_SIG_new();
			r = BN_bin2bn(sig, 32, NULL);
			ss = BN_bin2bn(sig + 32, 32, NULL);
			assert_int_equal(ECDSA_SIG_set0(os, r, ss), 1);
			assert_int_equal(ECDSA_do_verify(h, (int)hl, os, ek), 1);
			ECDSA_SIG_free(os);
			/* and through EVP over the DER form */
			dl = sizeof(der);
			assert_int_equal(vg_p256_ecdsa_sig_to_der(der, &dl, sig),
			    VG_OK);
			pk = evp(ek);
			c = EVP_PKEY_CTX_new(pk, NULL);
			assert_non_null(c);
			assert_int_equal(EVP_PKEY_verify_init(c), 1);
			assert_int_equal(EVP_PKEY_verify(c, der, dl, h, hl), 1);
			EVP_PKEY_CTX_free(c);

			/* OpenSSL's, verified by us (from DER and raw) */
			c = EVP_PKEY_CTX_new(pk, NULL);
			assert_int_equal(EVP_PKEY_sign_init(c), 1);
			dl = sizeof(der);
			assert_int_equal(EVP_PKEY_sign(c, der, &dl, h, hl), 1);
			EVP_PKEY_CTX_free(c);
			assert_int_equal(vg_p256_ecdsa_sig_from_der(back, der,
			    dl), VG_OK);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &q, h, hl,
			    back), VG_OK);
			os = ECDSA_do_sign(h, (int)hl, ek);
			assert_non_null(os);
			ECDSA_SIG_get0(os, &cr, &cs);
			assert_int_equal(BN_bn2binpad(cr, back, 32), 32);
			assert_int_equal(BN_bn2binpad(cs, back + 32, 32), 32);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &q, h, hl,
			    back), VG_OK);
			back[63] ^= 1;
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &q, h, hl,
			    back), VG_ERR_AUTH);
			ECDSA_SIG_free(os);
			EVP_PKEY_free(pk);
			EC_KEY_free(ek);
		}
	vg_p256_priv_wipe(&k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mul_vs_openssl),
		cmocka_unit_test(test_ecdh_vs_openssl),
		cmocka_unit_test(test_ecdsa_vs_openssl),
	};
	const char *seed = getenv("VG_TEST_SEED");
	int rc;

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x6f70656e73736cULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	vg_kernels_fill(&kset[0], 0);
	kset[1] = *vg_kernels();
	printf("# kernels: %s/%s and %s/%s\n", KP(0)->impl,
	    KP(0)->select_impl, KP(1)->impl, KP(1)->select_impl);
	grp = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	if (grp == NULL) {
		printf("SKIP: OpenSSL has no P-256\n");
		return 77;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	EC_GROUP_free(grp);
	return rc;
}
