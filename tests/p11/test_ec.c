/*
 * EC P-256 through the function list: key pair generation, ECDSA (raw and
 * hash-then-sign, single and multi-part) checked by OpenSSL, ECDH with the
 * null and X9.63 KDFs against OpenSSL, and the refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "ec", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static void
keypair(const void *params, size_t plen, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 3, pub, priv),
	    CKR_OK);
}

/* The public key as an OpenSSL key, from CKA_EC_POINT. */
static EVP_PKEY *
openssl_pub(CK_OBJECT_HANDLE pub)
{
	uint8_t point[80];
	CK_ATTRIBUTE a = { CKA_EC_POINT, point, sizeof(point) };
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *k = NULL;
	OSSL_PARAM *p;

	assert_rv(p11->C_GetAttributeValue(h, pub, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, 67);
	assert_int_equal(point[0], 0x04); /* DER OCTET STRING */
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
	    "prime256v1", 0);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, point + 2,
	    65);
	p = OSSL_PARAM_BLD_to_param(b);
	assert_int_equal(EVP_PKEY_fromdata_init(c), 1);
	assert_int_equal(EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p), 1);
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(b);
	EVP_PKEY_CTX_free(c);
	return k;
}

/* r || s to DER and verified by OpenSSL over the message. */
static int
openssl_verifies(EVP_PKEY *k, const char *md, const void *msg, size_t len,
    const uint8_t sig[64])
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	uint8_t *der = NULL;
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int dlen, ok;

	ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32,
	    NULL));
	dlen = i2d_ECDSA_SIG(es, &der);
	ok = EVP_DigestVerifyInit(c, NULL, md ? EVP_get_digestbyname(md)
	    : NULL, NULL, k) == 1 &&
	    EVP_DigestVerify(c, der, (size_t)dlen, msg, len) == 1;
	OPENSSL_free(der);
	ECDSA_SIG_free(es);
	EVP_MD_CTX_free(c);
	return ok;
}

static void
test_sign(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		const char *md;
	} cases[] = {
		{ CKM_ECDSA_SHA1, "SHA1" }, { CKM_ECDSA_SHA224, "SHA224" },
		{ CKM_ECDSA_SHA256, "SHA256" }, { CKM_ECDSA_SHA384, "SHA384" },
		{ CKM_ECDSA_SHA512, "SHA512" },
		{ CKM_ECDSA_SHA3_256, "SHA3-256" },
	};
	CK_OBJECT_HANDLE pub, priv;
	uint8_t msg[300], sig[64], hash[32];
	CK_ULONG slen;
	EVP_PKEY *k;
	size_t i;

	(void)state;
	keypair(p256, sizeof(p256), &pub, &priv);
	k = openssl_pub(pub);
	memset(msg, 0x5c, sizeof(msg));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CK_MECHANISM m = { cases[i].m, NULL, 0 };

		slen = sizeof(sig);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen), CKR_OK);
		assert_int_equal(slen, 64);
		assert_true(openssl_verifies(k, cases[i].md, msg, sizeof(msg),
		    sig));
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_Verify(h, msg, sizeof(msg), sig, 64), CKR_OK);
		/* Multi-part gives a signature that verifies as well. */
		slen = sizeof(sig);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, msg, 100), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, msg + 100, 200), CKR_OK);
		assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_OK);
		assert_true(openssl_verifies(k, cases[i].md, msg, sizeof(msg),
		    sig));
		sig[10] ^= 1;
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_Verify(h, msg, sizeof(msg), sig, 64),
		    CKR_SIGNATURE_INVALID);
	}
	/* Raw ECDSA signs the hash it is given; no multi-part. */
	{
		CK_MECHANISM m = { CKM_ECDSA, NULL, 0 };
		unsigned hl = 0;

		EVP_Digest(msg, sizeof(msg), hash, &hl, EVP_sha256(), NULL);
		slen = sizeof(sig);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_Sign(h, hash, 32, sig, &slen), CKR_OK);
		assert_true(openssl_verifies(k, "SHA256", msg, sizeof(msg),
		    sig));
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, hash, 32),
		    CKR_FUNCTION_NOT_SUPPORTED);
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_Verify(h, hash, 32, sig, 63),
		    CKR_SIGNATURE_LEN_RANGE);
		/* A public key cannot sign, a private key cannot verify. */
		assert_rv(p11->C_SignInit(h, &m, pub), CKR_KEY_TYPE_INCONSISTENT);
		assert_rv(p11->C_VerifyInit(h, &m, priv),
		    CKR_KEY_TYPE_INCONSISTENT);
	}
	EVP_PKEY_free(k);
}

static void
test_keygen_refusals(void **state)
{
	static const uint8_t p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00,
		0x22 };
	static const uint8_t junk[] = { 0x30, 0x03, 0x02 };
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt = { CKA_EC_PARAMS, (void *)p384, sizeof(p384) };
	CK_OBJECT_HANDLE pub, priv;

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &m, &pt, 1, NULL, 0, &pub, &priv),
	    CKR_CURVE_NOT_SUPPORTED);
	pt.pValue = (void *)junk;
	pt.ulValueLen = sizeof(junk);
	assert_rv(p11->C_GenerateKeyPair(h, &m, &pt, 1, NULL, 0, &pub, &priv),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(p11->C_GenerateKeyPair(h, &m, NULL, 0, NULL, 0, &pub, &priv),
	    CKR_TEMPLATE_INCOMPLETE);
	pt.pValue = (void *)p256;
	pt.ulValueLen = sizeof(p256);
	assert_rv(p11->C_GenerateKeyPair(h, &m, &pt, 1, NULL, 0, NULL, &priv),
	    CKR_ARGUMENTS_BAD);
	m.mechanism = CKM_ECDSA;
	assert_rv(p11->C_GenerateKeyPair(h, &m, &pt, 1, NULL, 0, &pub, &priv),
	    CKR_MECHANISM_INVALID);
}

/* CKA_EC_PARAMS may name the curve by a PrintableString [PKCS#11 3.2
 * §6.3.3]: P-256 by its names works like the OID (and the SPKI the
 * token writes carries the OID), another name is an unsupported curve, a
 * malformed string an invalid value. */
static void
test_curve_name(void **state)
{
	static const uint8_t name[] = { 0x13, 0x0a, 'p', 'r', 'i', 'm', 'e',
		'2', '5', '6', 'v', '1' };
	static const uint8_t p384[] = { 0x13, 0x09, 's', 'e', 'c', 'p', '3',
		'8', '4', 'r', '1' };
	static const uint8_t bad[] = { 0x13, 0x05, 'P', '_', '2', '5', '6' };
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM sm = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)name, sizeof(name) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = { { CKA_SIGN, &yes, 1 } };
	uint8_t info[128], msg[100], sig[64];
	CK_ATTRIBUTE get = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };
	const uint8_t *q = info;
	CK_OBJECT_HANDLE pub, priv;
	CK_ULONG slen = sizeof(sig);
	EVP_PKEY *k;

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, &pub, &priv),
	    CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, pub, &get, 1), CKR_OK);
	k = d2i_PUBKEY(NULL, &q, (long)get.ulValueLen);
	assert_non_null(k);
	assert_int_equal(EVP_PKEY_get_bits(k), 256);
	memset(msg, 0x3c, sizeof(msg));
	assert_rv(p11->C_SignInit(h, &sm, priv), CKR_OK);
	assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen), CKR_OK);
	assert_true(openssl_verifies(k, "SHA256", msg, sizeof(msg), sig));
	EVP_PKEY_free(k);

	pt[0].pValue = (void *)p384;
	pt[0].ulValueLen = sizeof(p384);
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, &pub, &priv),
	    CKR_CURVE_NOT_SUPPORTED);
	pt[0].pValue = (void *)bad;
	pt[0].ulValueLen = sizeof(bad);
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 1, &pub, &priv),
	    CKR_ATTRIBUTE_VALUE_INVALID);
}

/* A fresh OpenSSL peer for ECDH with the token's key pair whose public
 * half is pub: the peer's raw point and the secret OpenSSL derives. */
static void
openssl_peer(CK_OBJECT_HANDLE pub, uint8_t point[65], uint8_t want[32])
{
	EVP_PKEY *peer = EVP_EC_gen("P-256"), *mine = openssl_pub(pub);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(peer, NULL);
	size_t plen = 0, wlen = 32;

	assert_int_equal(EVP_PKEY_get_octet_string_param(peer,
	    OSSL_PKEY_PARAM_PUB_KEY, point, 65, &plen), 1);
	assert_int_equal(plen, 65);
	assert_int_equal(EVP_PKEY_derive_init(c), 1);
	assert_int_equal(EVP_PKEY_derive_set_peer(c, mine), 1);
	assert_int_equal(EVP_PKEY_derive(c, want, &wlen), 1);
	assert_int_equal(wlen, 32);
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
}

/* ECDH against an OpenSSL key; the shared x-coordinate read back. */
static void
test_derive(void **state)
{
	CK_OBJECT_HANDLE pub, priv, z;
	uint8_t peer_point[65], want[32], got[64], kdf_want[48];
	CK_OBJECT_CLASS sc = CKO_SECRET_KEY;
	CK_KEY_TYPE gk = CKK_GENERIC_SECRET;
	CK_BBOOL no = CK_FALSE;
	CK_ULONG len48 = 48;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_VALUE_LEN, &len48, sizeof(len48) },
	};
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 0, NULL };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	EVP_KDF *kdf;
	EVP_KDF_CTX *kc;
	OSSL_PARAM kp[4];

	(void)state;
	keypair(p256, sizeof(p256), &pub, &priv);
	openssl_peer(pub, peer_point, want);

	p.pPublicData = peer_point;
	p.ulPublicDataLen = 65;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 32);
	assert_memory_equal(got, want, 32);

	/* The X9.63 KDF with SHA-256 and shared info, 48 bytes. */
	p.kdf = CKD_SHA256_KDF;
	p.pSharedData = (CK_BYTE_PTR)"shared info";
	p.ulSharedDataLen = 11;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 5, &z), CKR_OK);
	get.ulValueLen = sizeof(got);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 48);
	kdf = EVP_KDF_fetch(NULL, "X963KDF", NULL);
	assert_non_null(kdf);
	kc = EVP_KDF_CTX_new(kdf);
	kp[0] = OSSL_PARAM_construct_utf8_string("digest", "SHA256", 0);
	kp[1] = OSSL_PARAM_construct_octet_string("key", want, 32);
	kp[2] = OSSL_PARAM_construct_octet_string("info", "shared info", 11);
	kp[3] = OSSL_PARAM_construct_end();
	assert_int_equal(EVP_KDF_derive(kc, kdf_want, 48, kp), 1);
	assert_memory_equal(got, kdf_want, 48);
	EVP_KDF_CTX_free(kc);
	EVP_KDF_free(kdf);

	/* Refusals: a point off the curve, a bad KDF, a key not for
	 * derivation. */
	p.kdf = CKD_NULL;
	p.pSharedData = NULL;
	p.ulSharedDataLen = 0;
	peer_point[64] ^= 1;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);
	peer_point[64] ^= 1;
	p.kdf = 0x7777;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);
	p.kdf = CKD_NULL;
	m.ulParameterLen = 3;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = sizeof(p);
	assert_rv(p11->C_DeriveKey(h, &m, pub, t, 4, &z),
	    CKR_KEY_TYPE_INCONSISTENT);
}

/* Reads two CK_BBOOL attributes of o. */
static void
get_flags(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE a, CK_BBOOL *va,
    CK_ATTRIBUTE_TYPE b, CK_BBOOL *vb)
{
	CK_ATTRIBUTE t[] = { { a, va, 1 }, { b, vb, 1 } };

	assert_rv(p11->C_GetAttributeValue(h, o, t, 2), CKR_OK);
}

/* The forms of the peer point and of the derived key: the point
 * DER-wrapped or compressed, CKM_ECDH1_COFACTOR_DERIVE (cofactor 1: the
 * same secret), an AES key of each size, and the sizes refused. */
static void
test_derive_forms(void **state)
{
	CK_OBJECT_HANDLE pub, priv, z;
	uint8_t point[65], wrapped[67], comp[33], want[32], got[64];
	CK_OBJECT_CLASS sc = CKO_SECRET_KEY;
	CK_KEY_TYPE gk = CKK_GENERIC_SECRET, aes = CKK_AES;
	CK_ULONG vlen = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
	};
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 0, NULL };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	static const CK_ULONG aes_ok[] = { 16, 24, 32 };
	size_t i;

	(void)state;
	keypair(p256, sizeof(p256), &pub, &priv);
	openssl_peer(pub, point, want);
	wrapped[0] = 0x04;
	wrapped[1] = 0x41;
	memcpy(wrapped + 2, point, 65);
	comp[0] = (uint8_t)(0x02 | (point[64] & 1));
	memcpy(comp + 1, point + 1, 32);

	p.pPublicData = wrapped;
	p.ulPublicDataLen = sizeof(wrapped);
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 32);
	assert_memory_equal(got, want, 32);
	p.pPublicData = comp;
	p.ulPublicDataLen = sizeof(comp);
	m.mechanism = CKM_ECDH1_COFACTOR_DERIVE;
	get.ulValueLen = sizeof(got);
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 32);
	assert_memory_equal(got, want, 32);
	/* the other root is -Q, and [d](-Q) = -[d]Q has the same x */
	comp[0] ^= 1;
	get.ulValueLen = sizeof(got);
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_memory_equal(got, want, 32);
	/* an x with no point on the curve (x^3 - 3x + b is not a square
	 * for x = 1) */
	memset(comp + 1, 0, 32);
	comp[32] = 1;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);

	/* AES keys take the leftmost bytes of the secret (CKD_NULL). */
	m.mechanism = CKM_ECDH1_DERIVE;
	p.pPublicData = point;
	p.ulPublicDataLen = sizeof(point);
	t[1].pValue = &aes;
	for (i = 0; i < sizeof(aes_ok) / sizeof(aes_ok[0]); i++) {
		vlen = aes_ok[i];
		get.ulValueLen = sizeof(got);
		assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z), CKR_OK);
		assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
		assert_int_equal(get.ulValueLen, vlen);
		assert_memory_equal(got, want, vlen);
	}
	vlen = 20; /* no AES key has 20 bytes: the template is wrong */
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* the null KDF gives at most the 32 bytes of the secret */
	t[1].pValue = &gk;
	vlen = 33;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_KEY_SIZE_RANGE);
	/* a point of the wrong length in either form */
	vlen = 32;
	p.ulPublicDataLen = 64;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);
	p.pPublicData = wrapped;
	p.ulPublicDataLen = 66;
	assert_rv(p11->C_DeriveKey(h, &m, priv, t, 4, &z),
	    CKR_MECHANISM_PARAM_INVALID);
}

/* A derived key inherits CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE
 * false from its base key [PKCS#11 3.2 §6.3.15]: a generated base key
 * passes on its history, an imported one (both false) makes both false
 * whatever the template asks. */
static void
test_derive_inherits(void **state)
{
	CK_MECHANISM gm = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_OBJECT_CLASS kc = CKO_PRIVATE_KEY, sc = CKO_SECRET_KEY;
	CK_KEY_TYPE ec = CKK_EC, gk = CKK_GENERIC_SECRET;
	CK_BBOOL no = CK_FALSE, as, ne;
	uint8_t one[32], peer_point[65], got[32];
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof(p256) } };
	CK_ATTRIBUTE gt[] = {
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &kc, sizeof(kc) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VALUE, one, sizeof(one) },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE dt[] = {
		{ CKA_CLASS, &sc, sizeof(sc) },
		{ CKA_KEY_TYPE, &gk, sizeof(gk) },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 0, NULL };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	CK_OBJECT_HANDLE pub, gen, imp, z;
	EVP_PKEY *peer = EVP_EC_gen("P-256");
	size_t plen = 0;

	(void)state;
	assert_int_equal(EVP_PKEY_get_octet_string_param(peer,
	    OSSL_PKEY_PARAM_PUB_KEY, peer_point, sizeof(peer_point), &plen), 1);
	p.pPublicData = peer_point;
	p.ulPublicDataLen = 65;

	assert_rv(p11->C_GenerateKeyPair(h, &gm, pt, 1, gt, 3, &pub, &gen),
	    CKR_OK);
	get_flags(gen, CKA_ALWAYS_SENSITIVE, &as, CKA_NEVER_EXTRACTABLE, &ne);
	assert_true(as == CK_TRUE && ne == CK_TRUE);
	assert_rv(p11->C_DeriveKey(h, &m, gen, dt, 4, &z), CKR_OK);
	get_flags(z, CKA_ALWAYS_SENSITIVE, &as, CKA_NEVER_EXTRACTABLE, &ne);
	assert_true(as == CK_TRUE && ne == CK_TRUE);

	/* the key 1: its shared secret is the peer's own x-coordinate */
	memset(one, 0, sizeof(one));
	one[31] = 1;
	assert_rv(p11->C_CreateObject(h, kt, 7, &imp), CKR_OK);
	get_flags(imp, CKA_ALWAYS_SENSITIVE, &as, CKA_NEVER_EXTRACTABLE, &ne);
	assert_true(as == CK_FALSE && ne == CK_FALSE);
	assert_rv(p11->C_DeriveKey(h, &m, imp, dt, 4, &z), CKR_OK);
	get_flags(z, CKA_ALWAYS_SENSITIVE, &as, CKA_NEVER_EXTRACTABLE, &ne);
	assert_true(as == CK_FALSE && ne == CK_FALSE);
	dt[2].pValue = &no;
	dt[3].pValue = &yes;
	assert_rv(p11->C_DeriveKey(h, &m, imp, dt, 4, &z), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 32);
	assert_memory_equal(got, peer_point + 1, 32);
	EVP_PKEY_free(peer);
}

/* C_CreateObject checks EC key material: point on the curve, scalar in
 * range (zero bytes in front of it allowed) and matching the point given
 * beside it. */
static void
test_create_checks(void **state)
{
	CK_OBJECT_CLASS pc = CKO_PUBLIC_KEY, kc = CKO_PRIVATE_KEY;
	CK_KEY_TYPE ec = CKK_EC;
	uint8_t point[67], zero[32], one[32], big[65];
	CK_ATTRIBUTE pt[] = {
		{ CKA_CLASS, &pc, sizeof(pc) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_EC_POINT, point, sizeof(point) },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_CLASS, &kc, sizeof(kc) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VALUE, zero, sizeof(zero) },
		{ CKA_EC_POINT, point, sizeof(point) },
	};
	CK_OBJECT_HANDLE o, pub, priv;
	CK_ATTRIBUTE get = { CKA_EC_POINT, point, sizeof(point) };

	(void)state;
	keypair(p256, sizeof(p256), &pub, &priv);
	assert_rv(p11->C_GetAttributeValue(h, pub, &get, 1), CKR_OK);
	assert_rv(p11->C_CreateObject(h, pt, 4, &o), CKR_OK);
	point[66] ^= 1; /* off the curve */
	assert_rv(p11->C_CreateObject(h, pt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	point[66] ^= 1;
	memset(zero, 0, sizeof(zero));
	assert_rv(p11->C_CreateObject(h, kt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	memset(one, 0, sizeof(one));
	one[31] = 1; /* the key 1, whose point is G, not this point */
	kt[3].pValue = one;
	assert_rv(p11->C_CreateObject(h, kt, 5, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(p11->C_CreateObject(h, kt, 4, &o), CKR_OK);
	/* zero bytes in front of the scalar are allowed, up to 64 bytes in
	 * all; anything else in front makes it too large */
	memset(big, 0, sizeof(big));
	big[sizeof(big) - 1] = 1;
	kt[3].pValue = big + sizeof(big) - 33;
	kt[3].ulValueLen = 33;
	assert_rv(p11->C_CreateObject(h, kt, 4, &o), CKR_OK);
	kt[3].pValue = big + sizeof(big) - 64;
	kt[3].ulValueLen = 64;
	assert_rv(p11->C_CreateObject(h, kt, 4, &o), CKR_OK);
	kt[3].pValue = big;
	kt[3].ulValueLen = 65;
	assert_rv(p11->C_CreateObject(h, kt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	big[sizeof(big) - 33] = 1;
	kt[3].pValue = big + sizeof(big) - 33;
	kt[3].ulValueLen = 33;
	assert_rv(p11->C_CreateObject(h, kt, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sign, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keygen_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_curve_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_derive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_derive_forms, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_derive_inherits, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_create_checks, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
