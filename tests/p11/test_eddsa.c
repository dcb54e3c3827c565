/*
 * Ed25519 (CKK_EC_EDWARDS, CKM_EDDSA) and X25519 (CKK_EC_MONTGOMERY) keys
 * through the function list: key pair generation with every accepted form
 * of CKA_EC_PARAMS, the RFC 8032 §7.1 - §7.3 known answers (pure, ctx and
 * ph) on imported keys, single and multi-part signatures checked by
 * OpenSSL, PKCS #8 wrapping [RFC 8410] of both types, and the refusals
 * (each leaves no object behind). X25519 derivation:
 * tests/p11/test_x25519.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE;
static CK_OBJECT_CLASS c_priv = CKO_PRIVATE_KEY, c_pub = CKO_PUBLIC_KEY;
static CK_KEY_TYPE k_ed = CKK_EC_EDWARDS, k_x = CKK_EC_MONTGOMERY;

/* CKA_EC_PARAMS forms */
static const uint8_t oid_ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t oid_x25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };
static const uint8_t oid_ed448[] = { 0x06, 0x03, 0x2b, 0x65, 0x71 };
static const uint8_t oid_x448[] = { 0x06, 0x03, 0x2b, 0x65, 0x6f };
static const uint8_t name_ed25519[] = { 0x13, 0x0c, 'e', 'd', 'w', 'a',
	'r', 'd', 's', '2', '5', '5', '1', '9' };
static const uint8_t name_x25519[] = { 0x13, 0x0a, 'c', 'u', 'r', 'v', 'e',
	'2', '5', '5', '1', '9' };
static const uint8_t name_ed448[] = { 0x13, 0x0a, 'e', 'd', 'w', 'a', 'r',
	'd', 's', '4', '4', '8' };
/* 1.3.6.1.4.1.11591.15.1 and OpenSC 0.23's 1.3.6.1.4.1159.15.1 */
static const uint8_t oid_gnu_ed25519[] = { 0x06, 0x09, 0x2b, 0x06, 0x01,
	0x04, 0x01, 0xda, 0x47, 0x0f, 0x01 };
static const uint8_t oid_opensc_ed25519[] = { 0x06, 0x08, 0x2b, 0x06, 0x01,
	0x04, 0x89, 0x07, 0x0f, 0x01 };
static const uint8_t oid_p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "eddsa", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static size_t
unhex(const char *s, uint8_t *out)
{
	size_t n = strlen(s) / 2, i;
	unsigned v;

	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

/* How many objects the session sees. */
static CK_ULONG
count_objects(void)
{
	CK_OBJECT_HANDLE o[256];
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	assert_rv(p11->C_FindObjects(h, o, 256, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return n;
}

static CK_RV
gen(CK_MECHANISM_TYPE mt, const void *params, size_t plen,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { mt, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};

	return p11->C_GenerateKeyPair(h, &m, params ? pt : pt + 1,
	    params ? 2 : 1, kt, 3, pub, priv);
}

/* Imports a private key (value, params) and optionally a point. */
static CK_RV
import_priv(CK_KEY_TYPE *kt, const void *params, size_t plen,
    const uint8_t *value, size_t vlen, const uint8_t *pt, size_t ptlen,
    CK_OBJECT_HANDLE *o)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, kt, sizeof(*kt) },
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_VALUE, (void *)value, vlen },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EC_POINT, (void *)pt, ptlen },
	};

	return p11->C_CreateObject(h, t, pt != NULL ? 7 : 6, o);
}

static CK_RV
import_pub(CK_KEY_TYPE *kt, const void *params, size_t plen,
    const uint8_t *pt, size_t ptlen, CK_OBJECT_HANDLE *o)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_pub, sizeof(c_pub) },
		{ CKA_KEY_TYPE, kt, sizeof(*kt) },
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_EC_POINT, (void *)pt, ptlen },
		{ CKA_VERIFY, &yes, 1 },
	};

	return p11->C_CreateObject(h, t, 5, o);
}

/* The 32-byte public key of an object's CKA_EC_POINT (asserted to be
 * the DER OCTET STRING). */
static void
point_of(CK_OBJECT_HANDLE o, uint8_t pk[32])
{
	uint8_t buf[64];
	CK_ATTRIBUTE a = { CKA_EC_POINT, buf, sizeof(buf) };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, 34);
	assert_int_equal(buf[0], 0x04);
	assert_int_equal(buf[1], 0x20);
	memcpy(pk, buf + 2, 32);
}

static CK_RV
sign(CK_OBJECT_HANDLE k, CK_MECHANISM *m, const void *msg, size_t len,
    uint8_t sig[64])
{
	CK_ULONG slen = 64;
	CK_RV rv = p11->C_SignInit(h, m, k);

	if (rv != CKR_OK)
		return rv;
	rv = p11->C_Sign(h, (CK_BYTE_PTR)msg, len, sig, &slen);
	if (rv == CKR_OK)
		assert_int_equal(slen, 64);
	return rv;
}

static CK_RV
verify(CK_OBJECT_HANDLE k, CK_MECHANISM *m, const void *msg, size_t len,
    const uint8_t *sig, size_t siglen)
{
	CK_RV rv = p11->C_VerifyInit(h, m, k);

	if (rv != CKR_OK)
		return rv;
	return p11->C_Verify(h, (CK_BYTE_PTR)msg, len, (CK_BYTE_PTR)sig,
	    siglen);
}

static int
openssl_verifies(const uint8_t pk[32], const void *msg, size_t len,
    const uint8_t sig[64])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk,
	    32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	assert_non_null(k);
	ok = EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) == 1 &&
	    EVP_DigestVerify(c, sig, 64, msg, len) == 1;
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(k);
	return ok;
}

/* RFC 8032 §7.1 TEST 1-3, §7.2 (ctx "foo"), §7.3 (ph "abc") */
static const struct {
	const char *sk, *pk, *msg, *sig;
	int ph;
	const char *ctx;
} kats[] = {
	{ "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	    "",
	    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
	    0, NULL },
	{ "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	    "72",
	    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	    "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
	    0, NULL },
	{ "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	    "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	    "af82",
	    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	    "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
	    0, NULL },
	{ "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	    "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	    "f726936d19c800494e3fdaff20b276a8",
	    "55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a"
	    "8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d",
	    0, "foo" },
	{ "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	    "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	    "616263",
	    "98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae41"
	    "31f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406",
	    1, "" },
};

/* Imports the RFC's keys (the public key as 32 raw bytes, read back in
 * its DER form), signs, compares, verifies; a flipped bit fails. */
static void
test_rfc8032(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		uint8_t sk[32], pk[32], msg[64], want[64], sig[64], got[32];
		size_t mlen;
		CK_EDDSA_PARAMS ep = { kats[i].ph ? CK_TRUE : CK_FALSE, 0,
			NULL };
		CK_MECHANISM m = { CKM_EDDSA, NULL, 0 };
		CK_OBJECT_HANDLE priv, pub;

		unhex(kats[i].sk, sk);
		unhex(kats[i].pk, pk);
		mlen = unhex(kats[i].msg, msg);
		unhex(kats[i].sig, want);
		if (kats[i].ctx != NULL) {
			ep.pContextData = (CK_BYTE_PTR)kats[i].ctx;
			ep.ulContextDataLen = strlen(kats[i].ctx);
			m.pParameter = &ep;
			m.ulParameterLen = sizeof(ep);
		}
		assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519),
		    sk, 32, NULL, 0, &priv), CKR_OK);
		assert_rv(import_pub(&k_ed, name_ed25519, sizeof(name_ed25519),
		    pk, 32, &pub), CKR_OK);
		point_of(pub, got);
		assert_memory_equal(got, pk, 32);
		assert_rv(sign(priv, &m, msg, mlen, sig), CKR_OK);
		assert_memory_equal(sig, want, 64);
		assert_rv(verify(pub, &m, msg, mlen, sig, 64), CKR_OK);
		sig[5] ^= 0x10;
		assert_rv(verify(pub, &m, msg, mlen, sig, 64),
		    CKR_SIGNATURE_INVALID);
		/* the other variants do not accept it */
		if (kats[i].ctx == NULL) {
			CK_EDDSA_PARAMS ph = { CK_TRUE, 0, NULL };
			CK_MECHANISM mp = { CKM_EDDSA, &ph, sizeof(ph) };

			assert_rv(verify(pub, &mp, msg, mlen, want, 64),
			    CKR_SIGNATURE_INVALID);
			/* phFlag false with no context is pure */
			ph.phFlag = CK_FALSE;
			assert_rv(verify(pub, &mp, msg, mlen, want, 64),
			    CKR_OK);
		}
	}
}

/* Every accepted form of CKA_EC_PARAMS generates; the others are
 * refused and create nothing. */
static void
test_keygen_params(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		const uint8_t *p;
		size_t len;
		CK_RV want;
	} cases[] = {
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed25519, sizeof(oid_ed25519),
		    CKR_OK },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, name_ed25519,
		    sizeof(name_ed25519), CKR_OK },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_gnu_ed25519,
		    sizeof(oid_gnu_ed25519), CKR_OK },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_opensc_ed25519,
		    sizeof(oid_opensc_ed25519), CKR_OK },
		{ CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x25519,
		    sizeof(oid_x25519), CKR_OK },
		{ CKM_EC_MONTGOMERY_KEY_PAIR_GEN, name_x25519,
		    sizeof(name_x25519), CKR_OK },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed448, sizeof(oid_ed448),
		    CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, name_ed448, sizeof(name_ed448),
		    CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x448, sizeof(oid_x448),
		    CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_x25519, sizeof(oid_x25519),
		    CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_ed25519,
		    sizeof(oid_ed25519), CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_p256, sizeof(oid_p256),
		    CKR_CURVE_NOT_SUPPORTED },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed25519, 4,
		    CKR_ATTRIBUTE_VALUE_INVALID },
		{ CKM_EC_EDWARDS_KEY_PAIR_GEN, NULL, 0,
		    CKR_TEMPLATE_INCOMPLETE },
	};
	CK_OBJECT_HANDLE pub, priv;
	CK_ULONG before;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		before = count_objects();
		assert_rv(gen(cases[i].m, cases[i].p, cases[i].len, &pub,
		    &priv), cases[i].want);
		assert_int_equal(count_objects(),
		    before + (cases[i].want == CKR_OK ? 2 : 0));
	}
	/* a parameter to the generation mechanism */
	{
		CK_MECHANISM m = { CKM_EC_EDWARDS_KEY_PAIR_GEN, &yes, 1 };
		CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)oid_ed25519,
			sizeof(oid_ed25519) } };

		assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 1, NULL, 0, &pub,
		    &priv), CKR_MECHANISM_PARAM_INVALID);
	}
}

/* Generated keys sign single and multi-part (the same signature: Ed25519
 * is deterministic), OpenSSL verifies; the key's attributes. */
static void
test_sign_generated(void **state)
{
	CK_MECHANISM m = { CKM_EDDSA, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t msg[3000], sig[64], sig2[64], pk[32], pk2[32], info[64];
	CK_ATTRIBUTE a[] = {
		{ CKA_PUBLIC_KEY_INFO, info, sizeof(info) },
	};
	CK_ULONG slen = 64;
	struct p11_rng r;
	size_t off, n;

	(void)state;
	p11_rng_seed(&r, 1);
	p11_rng_fill(&r, msg, sizeof(msg));
	assert_rv(gen(CKM_EC_EDWARDS_KEY_PAIR_GEN, name_ed25519,
	    sizeof(name_ed25519), &pub, &priv), CKR_OK);
	point_of(pub, pk);
	point_of(priv, pk2);
	assert_memory_equal(pk, pk2, 32);
	/* SPKI: 30 2a 30 05 06 03 2b 65 70 03 21 00 || pk [RFC 8410 §4] */
	assert_rv(p11->C_GetAttributeValue(h, pub, a, 1), CKR_OK);
	assert_int_equal(a[0].ulValueLen, 44);
	assert_memory_equal(info + 12, pk, 32);
	assert_int_equal(info[8], 0x70);
	assert_rv(sign(priv, &m, msg, sizeof(msg), sig), CKR_OK);
	assert_true(openssl_verifies(pk, msg, sizeof(msg), sig));
	/* multi-part, uneven parts */
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
	for (off = 0; off < sizeof(msg); off += n) {
		n = 1 + p11_rng_below(&r, 700);
		if (n > sizeof(msg) - off)
			n = sizeof(msg) - off;
		assert_rv(p11->C_SignUpdate(h, msg + off, n), CKR_OK);
	}
	assert_rv(p11->C_SignFinal(h, NULL, &slen), CKR_OK);
	assert_int_equal(slen, 64);
	slen = 10;
	assert_rv(p11->C_SignFinal(h, sig2, &slen), CKR_BUFFER_TOO_SMALL);
	slen = 64;
	assert_rv(p11->C_SignFinal(h, sig2, &slen), CKR_OK);
	assert_memory_equal(sig, sig2, 64);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, msg, 1000), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, msg + 1000, sizeof(msg) - 1000),
	    CKR_OK);
	assert_rv(p11->C_VerifyFinal(h, sig, 64), CKR_OK);
	/* the wrong message */
	msg[0] ^= 1;
	assert_rv(verify(pub, &m, msg, sizeof(msg), sig, 64),
	    CKR_SIGNATURE_INVALID);
	/* ctx and ph on a generated key: OpenSSL 3.0 has neither, so a
	 * round trip, and each variant refuses the other's signature */
	{
		CK_EDDSA_PARAMS ep = { CK_FALSE, 7, (CK_BYTE_PTR)"context" };
		CK_MECHANISM mc = { CKM_EDDSA, &ep, sizeof(ep) };
		uint8_t ctxsig[64], phsig[64];

		assert_rv(sign(priv, &mc, msg, 100, ctxsig), CKR_OK);
		assert_rv(verify(pub, &mc, msg, 100, ctxsig, 64), CKR_OK);
		ep.phFlag = CK_TRUE;
		assert_rv(verify(pub, &mc, msg, 100, ctxsig, 64),
		    CKR_SIGNATURE_INVALID);
		assert_rv(sign(priv, &mc, msg, 100, phsig), CKR_OK);
		assert_rv(verify(pub, &mc, msg, 100, phsig, 64), CKR_OK);
		assert_rv(verify(pub, &m, msg, 100, phsig, 64),
		    CKR_SIGNATURE_INVALID);
		/* a 255-byte context is the longest */
		{
			uint8_t ctx[255];

			memset(ctx, 'c', sizeof(ctx));
			ep.pContextData = ctx;
			ep.ulContextDataLen = 255;
			ep.phFlag = CK_FALSE;
			assert_rv(sign(priv, &mc, msg, 10, ctxsig), CKR_OK);
			assert_rv(verify(pub, &mc, msg, 10, ctxsig, 64),
			    CKR_OK);
		}
	}
}

/*
 * Ed25519ph multi-part: C_SignUpdate / C_VerifyUpdate stream the message
 * into SHA-512. RFC 8032 §7.3 ("abc" in parts, and with an empty part)
 * gives the vector's signature; a message of 65 MiB, past what the
 * module gathers for the other variants, signs in parts to the one-shot
 * signature and verifies in parts; a changed last part does not.
 */
static void
test_ph_streaming(void **state)
{
	const size_t big = (size_t)65 << 20, chunk = (size_t)1 << 20;
	CK_EDDSA_PARAMS ep = { CK_TRUE, 0, NULL };
	CK_MECHANISM m = { CKM_EDDSA, &ep, sizeof(ep) };
	CK_OBJECT_HANDLE priv, pub;
	uint8_t sk[32], pk[32], want[64], sig[64], sig2[64], *msg;
	CK_ULONG slen = 64;
	size_t off;

	(void)state;
	unhex(kats[4].sk, sk);
	unhex(kats[4].pk, pk);
	unhex(kats[4].sig, want);
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), sk, 32,
	    NULL, 0, &priv), CKR_OK);
	assert_rv(import_pub(&k_ed, name_ed25519, sizeof(name_ed25519), pk, 32,
	    &pub), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"a", 1), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"", 0), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)"bc", 2), CKR_OK);
	assert_rv(p11->C_SignFinal(h, sig, &slen), CKR_OK);
	assert_int_equal(slen, 64);
	assert_memory_equal(sig, want, 64);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"c", 1), CKR_OK);
	assert_rv(p11->C_VerifyFinal(h, want, 64), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"abd", 3), CKR_OK);
	assert_rv(p11->C_VerifyFinal(h, want, 64), CKR_SIGNATURE_INVALID);

	msg = malloc(big);
	assert_non_null(msg);
	for (off = 0; off < big; off++)
		msg[off] = (uint8_t)(off * 131 + (off >> 20));
	assert_rv(sign(priv, &m, msg, big, sig), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
	for (off = 0; off < big; off += chunk)
		assert_rv(p11->C_SignUpdate(h, msg + off, chunk), CKR_OK);
	slen = 64;
	assert_rv(p11->C_SignFinal(h, sig2, &slen), CKR_OK);
	assert_memory_equal(sig, sig2, 64);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
	for (off = 0; off < big; off += chunk)
		assert_rv(p11->C_VerifyUpdate(h, msg + off, chunk), CKR_OK);
	assert_rv(p11->C_VerifyFinal(h, sig, 64), CKR_OK);
	msg[big - 1] ^= 1;
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
	for (off = 0; off < big; off += chunk)
		assert_rv(p11->C_VerifyUpdate(h, msg + off, chunk), CKR_OK);
	assert_rv(p11->C_VerifyFinal(h, sig, 64), CKR_SIGNATURE_INVALID);
	free(msg);
}

/* The refusals of CKM_EDDSA. */
static void
test_eddsa_errors(void **state)
{
	uint8_t ctx[256], sig[64], msg[8] = { 0 };
	CK_EDDSA_PARAMS ep = { CK_FALSE, 0, NULL };
	CK_MECHANISM m = { CKM_EDDSA, &ep, sizeof(ep) };
	CK_MECHANISM plain = { CKM_EDDSA, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv, xpub, xpriv, ecpub, ecpriv;
	CK_MECHANISM ecgen = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE ept[] = { { CKA_EC_PARAMS, (void *)oid_p256,
		sizeof(oid_p256) } };
	CK_ATTRIBUTE ekt[] = { { CKA_SIGN, &yes, 1 } };
	CK_ULONG slen;

	(void)state;
	memset(ctx, 'x', sizeof(ctx));
	assert_rv(gen(CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed25519,
	    sizeof(oid_ed25519), &pub, &priv), CKR_OK);
	assert_rv(gen(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x25519,
	    sizeof(oid_x25519), &xpub, &xpriv), CKR_OK);
	assert_rv(p11->C_GenerateKeyPair(h, &ecgen, ept, 1, ekt, 1, &ecpub,
	    &ecpriv), CKR_OK);
	/* parameters */
	ep.ulContextDataLen = 256;
	ep.pContextData = ctx;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	ep.ulContextDataLen = 5;
	ep.pContextData = NULL;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_MECHANISM_PARAM_INVALID);
	ep.pContextData = ctx;
	ep.phFlag = 2;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	ep.phFlag = CK_FALSE;
	m.ulParameterLen = sizeof(ep) - 1;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	/* no structure behind a length: the argument check of every
	 * mechanism */
	m.pParameter = NULL;
	m.ulParameterLen = sizeof(ep);
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_ARGUMENTS_BAD);
	/* keys of other types and classes */
	assert_rv(p11->C_SignInit(h, &plain, xpriv),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_SignInit(h, &plain, ecpriv),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_SignInit(h, &plain, pub), CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_VerifyInit(h, &plain, xpub),
	    CKR_KEY_TYPE_INCONSISTENT);
	{
		CK_MECHANISM ecdsa = { CKM_ECDSA, NULL, 0 };

		assert_rv(p11->C_SignInit(h, &ecdsa, priv),
		    CKR_KEY_TYPE_INCONSISTENT);
	}
	/* signature lengths */
	assert_rv(sign(priv, &plain, msg, sizeof(msg), sig), CKR_OK);
	assert_rv(verify(pub, &plain, msg, sizeof(msg), sig, 63),
	    CKR_SIGNATURE_LEN_RANGE);
	assert_rv(verify(pub, &plain, msg, sizeof(msg), sig, 0),
	    CKR_SIGNATURE_LEN_RANGE);
	/* S >= L: the order L added to S */
	{
		static const uint8_t l[32] = { 0xed, 0xd3, 0xf5, 0x5c, 0x1a,
			0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9,
			0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0x10 };
		unsigned c = 0;
		int i;

		for (i = 0; i < 32; i++) {
			c += (unsigned)sig[32 + i] + l[i];
			sig[32 + i] = (uint8_t)c;
			c >>= 8;
		}
		assert_rv(verify(pub, &plain, msg, sizeof(msg), sig, 64),
		    CKR_SIGNATURE_INVALID);
	}
	/* a short output buffer keeps the operation */
	assert_rv(p11->C_SignInit(h, &plain, priv), CKR_OK);
	slen = 63;
	assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(slen, 64);
	slen = 64;
	assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &slen), CKR_OK);
}

/* C_CreateObject checks. */
static void
test_import_errors(void **state)
{
	uint8_t sk[32], pk[32], other[32], bad[32] = { 2 }, der[34], big[33];
	CK_OBJECT_HANDLE o;
	CK_ULONG before;

	(void)state;
	unhex(kats[0].sk, sk);
	unhex(kats[0].pk, pk);
	unhex(kats[1].pk, other);
	memset(big, 1, sizeof(big));
	der[0] = 0x04;
	der[1] = 0x20;
	memcpy(der + 2, pk, 32);
	before = count_objects();
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), sk, 31,
	    NULL, 0, &o), CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), big, 33,
	    NULL, 0, &o), CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), sk, 32,
	    other, 32, &o), CKR_TEMPLATE_INCONSISTENT);
	assert_rv(import_priv(&k_ed, oid_ed448, sizeof(oid_ed448), sk, 32,
	    NULL, 0, &o), CKR_CURVE_NOT_SUPPORTED);
	assert_rv(import_priv(&k_x, oid_ed25519, sizeof(oid_ed25519), sk, 32,
	    NULL, 0, &o), CKR_CURVE_NOT_SUPPORTED);
	assert_rv(import_pub(&k_ed, oid_ed25519, sizeof(oid_ed25519), bad, 32,
	    &o), CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(import_pub(&k_ed, oid_ed25519, sizeof(oid_ed25519), big, 33,
	    &o), CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(import_pub(&k_ed, oid_ed25519, sizeof(oid_ed25519), der, 33,
	    &o), CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(import_pub(&k_ed, "\x13\x03" "abc", 5, pk, 32, &o),
	    CKR_CURVE_NOT_SUPPORTED);
	assert_rv(import_pub(&k_ed, "\x13\x09" "abc", 5, pk, 32, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_int_equal(count_objects(), before);
	/* the DER form and a matching point are accepted */
	assert_rv(import_pub(&k_ed, oid_ed25519, sizeof(oid_ed25519), der, 34,
	    &o), CKR_OK);
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), sk, 32,
	    der, 34, &o), CKR_OK);
	assert_rv(import_priv(&k_ed, oid_ed25519, sizeof(oid_ed25519), sk, 32,
	    pk, 32, &o), CKR_OK);
	/* X25519 public keys are any 32 bytes */
	assert_rv(import_pub(&k_x, oid_x25519, sizeof(oid_x25519), bad, 32,
	    &o), CKR_OK);
}

/* Ed25519 and X25519 private keys wrapped as PKCS #8 [RFC 8410 §7]
 * under AES-KWP and AES-CBC-PAD: OpenSSL reads the structure, the
 * unwrapped key is the same key; a wrong key type is refused. */
static void
test_wrap(void **state)
{
	static const CK_MECHANISM_TYPE mechs[] = { CKM_AES_KEY_WRAP_KWP,
		CKM_AES_CBC_PAD };
	CK_MECHANISM gen_aes = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_ULONG aeslen = 32;
	CK_ATTRIBUTE at[] = {
		{ CKA_VALUE_LEN, &aeslen, sizeof(aeslen) },
		{ CKA_WRAP, &yes, 1 },
		{ CKA_UNWRAP, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
	};
	uint8_t iv[16] = { 0 };
	CK_OBJECT_HANDLE aes, pub, priv, xpub, xpriv, u;
	size_t i, j;

	(void)state;
	assert_rv(p11->C_GenerateKey(h, &gen_aes, at, 4, &aes), CKR_OK);
	assert_rv(gen(CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed25519,
	    sizeof(oid_ed25519), &pub, &priv), CKR_OK);
	assert_rv(gen(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x25519,
	    sizeof(oid_x25519), &xpub, &xpriv), CKR_OK);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			CK_OBJECT_HANDLE k = j == 0 ? priv : xpriv;
			CK_KEY_TYPE *kt = j == 0 ? &k_ed : &k_x;
			CK_MECHANISM m = { mechs[i], i == 1 ? iv : NULL,
				i == 1 ? 16 : 0 };
			uint8_t w[256], plain[256], pk[32], pk2[32];
			CK_ULONG wlen = sizeof(w), plen = sizeof(plain);
			CK_ATTRIBUTE ut[] = {
				{ CKA_CLASS, &c_priv, sizeof(c_priv) },
				{ CKA_KEY_TYPE, kt, sizeof(*kt) },
				{ CKA_SIGN, &yes, 1 },
				{ CKA_DERIVE, &yes, 1 },
			};
			const unsigned char *q;
			EVP_PKEY *ok;
			size_t rawlen = 32;
			uint8_t raw[32];

			assert_rv(p11->C_WrapKey(h, &m, aes, k, w, &wlen),
			    CKR_OK);
			/* CBC-PAD: decrypt and read it with OpenSSL */
			if (i == 1) {
				assert_rv(p11->C_DecryptInit(h, &m, aes),
				    CKR_OK);
				assert_rv(p11->C_Decrypt(h, w, wlen, plain,
				    &plen), CKR_OK);
				/* 30 2e 02 01 00 30 05 06 03 2b 65 xx 04 22
				 * 04 20 || key */
				assert_int_equal(plen, 48);
				assert_int_equal(plain[14], 0x04);
				assert_int_equal(plain[15], 0x20);
				q = plain;
				ok = d2i_AutoPrivateKey(NULL, &q, (long)plen);
				assert_non_null(ok);
				assert_int_equal(EVP_PKEY_get_raw_public_key(ok,
				    raw, &rawlen), 1);
				point_of(j == 0 ? pub : xpub, pk);
				assert_memory_equal(raw, pk, 32);
				EVP_PKEY_free(ok);
			}
			assert_rv(p11->C_UnwrapKey(h, &m, aes, w, wlen, ut, 4,
			    &u), CKR_OK);
			point_of(u, pk2);
			point_of(j == 0 ? pub : xpub, pk);
			assert_memory_equal(pk, pk2, 32);
			/* a template of the other type */
			ut[1].pValue = j == 0 ? &k_x : &k_ed;
			assert_rv(p11->C_UnwrapKey(h, &m, aes, w, wlen, ut, 4,
			    &u), CKR_TEMPLATE_INCONSISTENT);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc8032),
		cmocka_unit_test(test_keygen_params),
		cmocka_unit_test(test_sign_generated),
		cmocka_unit_test(test_ph_streaming),
		cmocka_unit_test(test_eddsa_errors),
		cmocka_unit_test(test_import_errors),
		cmocka_unit_test(test_wrap),
	};

	return cmocka_run_group_tests_name("eddsa", tests, setup, teardown);
}
