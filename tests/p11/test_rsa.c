/*
 * RSA through the function list: key pair generation, PKCS#1 v1.5 and PSS
 * signatures checked by OpenSSL, OpenSSL's PKCS#1 and OAEP ciphertexts
 * (with and without a label) decrypted, raw RSA, the refusals, and one key
 * signing in several threads at once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_OBJECT_HANDLE pub, priv;
static EVP_PKEY *ossl;
static CK_BBOOL yes = CK_TRUE;

/* The public key as an OpenSSL key, from CKA_MODULUS and the exponent. */
static EVP_PKEY *
openssl_pub(CK_OBJECT_HANDLE k)
{
	uint8_t n[512], e[8];
	CK_ATTRIBUTE a[] = {
		{ CKA_MODULUS, n, sizeof(n) },
		{ CKA_PUBLIC_EXPONENT, e, sizeof(e) },
	};
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *bn = NULL, *be = NULL;
	EVP_PKEY *out = NULL;
	OSSL_PARAM *p;

	if (p11->C_GetAttributeValue(h, k, a, 2) != CKR_OK)
		return NULL;
	bn = BN_bin2bn(n, (int)a[0].ulValueLen, NULL);
	be = BN_bin2bn(e, (int)a[1].ulValueLen, NULL);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bn);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, be);
	p = OSSL_PARAM_BLD_to_param(b);
	if (EVP_PKEY_fromdata_init(c) != 1 ||
	    EVP_PKEY_fromdata(c, &out, EVP_PKEY_PUBLIC_KEY, p) != 1)
		out = NULL;
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(b);
	EVP_PKEY_CTX_free(c);
	BN_free(bn);
	BN_free(be);
	return out;
}

/* One 2048-bit key pair for the whole group: generation is slow. */
static int
group_setup(void **state)
{
	CK_MECHANISM m = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG bits = 2048;
	CK_ATTRIBUTE pt[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_ENCRYPT, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
	};

	(void)state;
	if (p11_fresh_user_session(dir, "rsa", &slot, &h) != 0 ||
	    p11->C_GenerateKeyPair(h, &m, pt, 3, kt, 2, &pub, &priv) != CKR_OK)
		return -1;
	ossl = openssl_pub(pub);
	return ossl != NULL ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	EVP_PKEY_free(ossl);
	return p11_fresh_cleanup(dir);
}

static int
openssl_verifies(const EVP_MD *md, int pss, const void *msg, size_t len,
    const uint8_t *sig, size_t siglen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	int ok;

	ok = EVP_DigestVerifyInit(c, &pc, md, NULL, ossl) == 1 &&
	    (!pss || (EVP_PKEY_CTX_set_rsa_padding(pc,
	    RSA_PKCS1_PSS_PADDING) == 1 &&
	    EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_AUTO) == 1)) &&
	    EVP_DigestVerify(c, sig, siglen, msg, len) == 1;
	EVP_MD_CTX_free(c);
	return ok;
}

static void
test_sign(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m, hash;
		CK_RSA_PKCS_MGF_TYPE mgf;
		const char *md;
		int pss;
	} cases[] = {
		{ CKM_SHA1_RSA_PKCS, 0, 0, "SHA1", 0 },
		{ CKM_SHA224_RSA_PKCS, 0, 0, "SHA224", 0 },
		{ CKM_SHA256_RSA_PKCS, 0, 0, "SHA256", 0 },
		{ CKM_SHA384_RSA_PKCS, 0, 0, "SHA384", 0 },
		{ CKM_SHA512_RSA_PKCS, 0, 0, "SHA512", 0 },
		{ CKM_SHA1_RSA_PKCS_PSS, CKM_SHA_1, CKG_MGF1_SHA1, "SHA1", 1 },
		{ CKM_SHA224_RSA_PKCS_PSS, CKM_SHA224, CKG_MGF1_SHA224,
		    "SHA224", 1 },
		{ CKM_SHA256_RSA_PKCS_PSS, CKM_SHA256, CKG_MGF1_SHA256,
		    "SHA256", 1 },
		{ CKM_SHA384_RSA_PKCS_PSS, CKM_SHA384, CKG_MGF1_SHA384,
		    "SHA384", 1 },
		{ CKM_SHA512_RSA_PKCS_PSS, CKM_SHA512, CKG_MGF1_SHA512,
		    "SHA512", 1 },
	};
	static const char msg[] = "a message signed by the token";
	uint8_t sig[256], sig2[256];
	CK_ULONG slen, slen2;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const EVP_MD *md = EVP_get_digestbyname(cases[i].md);
		CK_RSA_PKCS_PSS_PARAMS pp = { 0, 0, 0 };
		CK_MECHANISM m = { cases[i].m, NULL, 0 };

		if (cases[i].pss) {
			pp.hashAlg = cases[i].hash;
			pp.mgf = cases[i].mgf;
			pp.sLen = (CK_ULONG)EVP_MD_get_size(md);
			m.pParameter = &pp;
			m.ulParameterLen = sizeof(pp);
		}
		slen = sizeof(sig);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)msg, sizeof(msg), sig,
		    &slen), CKR_OK);
		assert_int_equal(slen, 256);
		assert_true(openssl_verifies(md, cases[i].pss, msg,
		    sizeof(msg), sig, slen));
		/* multi-part: the same signature for PKCS #1 v1.5, one
		 * that verifies for PSS (randomised) */
		slen2 = sizeof(sig2);
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)msg, 10), CKR_OK);
		assert_rv(p11->C_SignUpdate(h, (CK_BYTE_PTR)msg + 10,
		    sizeof(msg) - 10), CKR_OK);
		assert_rv(p11->C_SignFinal(h, sig2, &slen2), CKR_OK);
		assert_int_equal(slen2, 256);
		assert_true(openssl_verifies(md, cases[i].pss, msg,
		    sizeof(msg), sig2, slen2));
		if (!cases[i].pss)
			assert_memory_equal(sig, sig2, 256);
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)msg, 3), CKR_OK);
		assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)msg + 3,
		    sizeof(msg) - 3), CKR_OK);
		assert_rv(p11->C_VerifyFinal(h, sig2, slen2), CKR_OK);
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)msg, sizeof(msg), sig,
		    slen), CKR_OK);
		sig[7] ^= 4;
		assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_OK);
		assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)msg, sizeof(msg), sig,
		    slen), CKR_SIGNATURE_INVALID);
	}
}

static void
test_pss_params(void **state)
{
	CK_RSA_PKCS_PSS_PARAMS pp = { CKM_SHA_1, CKG_MGF1_SHA1, 20 };
	CK_MECHANISM m = { CKM_SHA256_RSA_PKCS_PSS, &pp, sizeof(pp) };
	CK_MECHANISM raw = { CKM_RSA_PKCS_PSS, &pp, sizeof(pp) };
	uint8_t hash[20] = { 1 }, sig[256];
	CK_ULONG slen = sizeof(sig);

	(void)state;
	/* The parameter's hash must be the mechanism's. */
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = 0;
	m.pParameter = NULL;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	pp.mgf = 77;
	assert_rv(p11->C_SignInit(h, &raw, priv),
	    CKR_MECHANISM_PARAM_INVALID);
	pp.mgf = CKG_MGF1_SHA1;
	/* Raw PSS signs a hash of the parameter's length only. */
	assert_rv(p11->C_SignInit(h, &raw, priv), CKR_OK);
	assert_rv(p11->C_Sign(h, hash, 19, sig, &slen), CKR_DATA_LEN_RANGE);
	assert_rv(p11->C_SignInit(h, &raw, priv), CKR_OK);
	slen = sizeof(sig);
	assert_rv(p11->C_Sign(h, hash, 20, sig, &slen), CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &raw, pub), CKR_OK);
	assert_rv(p11->C_Verify(h, hash, 20, sig, slen), CKR_OK);
}

/* A PSS salt that cannot fit the key is refused at Init: for a 2048-bit
 * key and SHA-256, emLen 256 leaves room for 222 bytes of salt. */
static void
test_pss_salt_range(void **state)
{
	CK_RSA_PKCS_PSS_PARAMS pp = { CKM_SHA256, CKG_MGF1_SHA256, 223 };
	CK_MECHANISM m = { CKM_SHA256_RSA_PKCS_PSS, &pp, sizeof(pp) };
	uint8_t sig[256];
	CK_ULONG slen = sizeof(sig);

	(void)state;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_MECHANISM_PARAM_INVALID);
	assert_rv(p11->C_VerifyInit(h, &m, pub), CKR_MECHANISM_PARAM_INVALID);
	pp.sLen = 222;
	assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"msg", 3, sig, &slen), CKR_OK);
	assert_int_equal(openssl_verifies(EVP_sha256(), 1, "msg", 3, sig,
	    slen), 1);
}

/* A single-part call after an Update ends the operation, in every
 * family [PKCS#11 3.2 §5.10 C_Encrypt, §5.11 C_Decrypt, §5.14
 * C_Verify]: the next Update finds none. */
static void
test_single_after_update(void **state)
{
	CK_MECHANISM pkcs = { CKM_RSA_PKCS, NULL, 0 };
	CK_MECHANISM sha = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	uint8_t out[256];
	CK_ULONG len = sizeof(out);

	(void)state;
	assert_rv(p11->C_EncryptInit(h, &pkcs, pub), CKR_OK);
	assert_rv(p11->C_EncryptUpdate(h, (CK_BYTE_PTR)"ab", 2, out, &len),
	    CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_Encrypt(h, (CK_BYTE_PTR)"c", 1, out, &len),
	    CKR_OPERATION_ACTIVE);
	len = sizeof(out);
	assert_rv(p11->C_EncryptUpdate(h, (CK_BYTE_PTR)"c", 1, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DecryptInit(h, &pkcs, priv), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DecryptUpdate(h, out, 16, out, &len), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_Decrypt(h, out, 16, out, &len),
	    CKR_OPERATION_ACTIVE);
	len = sizeof(out);
	assert_rv(p11->C_DecryptUpdate(h, out, 16, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_VerifyInit(h, &sha, pub), CKR_OK);
	assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)"c", 1, out, 256),
	    CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_VerifyUpdate(h, (CK_BYTE_PTR)"c", 1),
	    CKR_OPERATION_NOT_INITIALIZED);
}

/* OpenSSL encrypts; the token decrypts. */
static void
decrypt_check(CK_MECHANISM *m, int pad, const EVP_MD *md, const char *label)
{
	static const char pt[] = "plaintext for the token";
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ossl, NULL);
	uint8_t ct[256], out[256];
	size_t clen = sizeof(ct);
	CK_ULONG olen = sizeof(out);

	assert_int_equal(EVP_PKEY_encrypt_init(c), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(c, pad), 1);
	if (md != NULL) {
		assert_int_equal(EVP_PKEY_CTX_set_rsa_oaep_md(c, md), 1);
		assert_int_equal(EVP_PKEY_CTX_set_rsa_mgf1_md(c, md), 1);
	}
	if (label != NULL)
		assert_int_equal(EVP_PKEY_CTX_set0_rsa_oaep_label(c,
		    OPENSSL_strdup(label), strlen(label)), 1);
	assert_int_equal(EVP_PKEY_encrypt(c, ct, &clen, (const uint8_t *)pt,
	    sizeof(pt)), 1);
	EVP_PKEY_CTX_free(c);
	assert_rv(p11->C_DecryptInit(h, m, priv), CKR_OK);
	assert_rv(p11->C_Decrypt(h, ct, clen, NULL, &olen), CKR_OK);
	assert_int_equal(olen, 256);
	assert_rv(p11->C_Decrypt(h, ct, clen, out, &olen), CKR_OK);
	assert_int_equal(olen, sizeof(pt));
	assert_memory_equal(out, pt, sizeof(pt));
	/* A damaged ciphertext: one error, whatever failed. */
	ct[5] ^= 0x20;
	olen = sizeof(out);
	assert_rv(p11->C_DecryptInit(h, m, priv), CKR_OK);
	assert_rv(p11->C_Decrypt(h, ct, clen, out, &olen),
	    CKR_ENCRYPTED_DATA_INVALID);
}

static void
test_decrypt(void **state)
{
	CK_MECHANISM pkcs = { CKM_RSA_PKCS, NULL, 0 };
	CK_RSA_PKCS_OAEP_PARAMS op = { CKM_SHA256, CKG_MGF1_SHA256, 0, NULL,
		0 };
	CK_MECHANISM oaep = { CKM_RSA_PKCS_OAEP, &op, sizeof(op) };

	(void)state;
	decrypt_check(&pkcs, RSA_PKCS1_PADDING, NULL, NULL);
	decrypt_check(&oaep, RSA_PKCS1_OAEP_PADDING, EVP_sha256(), NULL);
	op.hashAlg = CKM_SHA_1;
	op.mgf = CKG_MGF1_SHA1;
	op.source = CKZ_DATA_SPECIFIED;
	op.pSourceData = "label";
	op.ulSourceDataLen = 5;
	decrypt_check(&oaep, RSA_PKCS1_OAEP_PADDING, EVP_sha1(), "label");
	op.source = 9;
	assert_rv(p11->C_DecryptInit(h, &oaep, priv),
	    CKR_MECHANISM_PARAM_INVALID);
	/* A label length no caller has (it would wrap an allocation size):
	 * refused before anything is read or allocated. */
	op.source = CKZ_DATA_SPECIFIED;
	op.ulSourceDataLen = ~(CK_ULONG)0 - 8;
	assert_rv(p11->C_DecryptInit(h, &oaep, priv),
	    CKR_MECHANISM_PARAM_INVALID);
	op.ulSourceDataLen = ((CK_ULONG)1 << 20) + 1; /* over the 1 MiB cap */
	assert_rv(p11->C_DecryptInit(h, &oaep, priv),
	    CKR_MECHANISM_PARAM_INVALID);
}

static void
test_raw_and_refusals(void **state)
{
	CK_MECHANISM raw = { CKM_RSA_X_509, NULL, 0 };
	CK_MECHANISM gen = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM pkcs = { CKM_RSA_PKCS, NULL, 0 };
	uint8_t in[256], ct[256], out[256];
	CK_ULONG len = sizeof(ct), bits = 1000;
	CK_ATTRIBUTE bad = { CKA_MODULUS_BITS, &bits, sizeof(bits) };
	CK_OBJECT_HANDLE a, b;

	(void)state;
	memset(in, 0, sizeof(in));
	memcpy(in + 200, "raw rsa block", 13);
	assert_rv(p11->C_EncryptInit(h, &raw, pub), CKR_OK);
	assert_rv(p11->C_Encrypt(h, in, sizeof(in), ct, &len), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DecryptInit(h, &raw, priv), CKR_OK);
	assert_rv(p11->C_Decrypt(h, ct, sizeof(ct), out, &len), CKR_OK);
	assert_memory_equal(out, in, sizeof(in));
	/* Too long for PKCS#1 v1.5 encryption. */
	len = sizeof(ct);
	assert_rv(p11->C_EncryptInit(h, &pkcs, pub), CKR_OK);
	assert_rv(p11->C_Encrypt(h, in, 250, ct, &len), CKR_DATA_LEN_RANGE);
	/* Wrong key kinds and sizes. */
	assert_rv(p11->C_SignInit(h, &pkcs, pub), CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_EncryptInit(h, &pkcs, priv),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, &bad, 1, NULL, 0, &a, &b),
	    CKR_KEY_SIZE_RANGE);
	assert_rv(p11->C_GenerateKeyPair(h, &gen, NULL, 0, NULL, 0, &a, &b),
	    CKR_TEMPLATE_INCOMPLETE);
}

/* C_CreateObject checks that RSA parts agree (an OpenSSL key, then the
 * same with one CRT part changed), and a key given as (n, e, d) only is
 * usable. */
static void
test_create_checks(void **state)
{
	static const char *const names[] = { "n", "e", "d", "rsa-factor1",
		"rsa-factor2", "rsa-exponent1", "rsa-exponent2",
		"rsa-coefficient1" };
	static const CK_ATTRIBUTE_TYPE types[] = { CKA_MODULUS,
		CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	CK_OBJECT_CLASS kc = CKO_PRIVATE_KEY;
	CK_KEY_TYPE rsa = CKK_RSA;
	EVP_PKEY *k = EVP_RSA_gen(2048);
	static uint8_t buf[8][256];
	CK_ATTRIBUTE t[10] = {
		{ CKA_CLASS, &kc, sizeof(kc) },
		{ CKA_KEY_TYPE, &rsa, sizeof(rsa) },
	};
	CK_OBJECT_HANDLE o;
	size_t i;

	(void)state;
	assert_non_null(k);
	for (i = 0; i < 8; i++) {
		BIGNUM *bn = NULL;

		assert_int_equal(EVP_PKEY_get_bn_param(k, names[i], &bn), 1);
		t[2 + i].type = types[i];
		t[2 + i].pValue = buf[i];
		t[2 + i].ulValueLen = (CK_ULONG)BN_bn2bin(bn, buf[i]);
		BN_free(bn);
	}
	assert_rv(p11->C_CreateObject(h, t, 10, &o), CKR_OK);
	buf[7][3] ^= 1; /* the coefficient */
	assert_rv(p11->C_CreateObject(h, t, 10, &o),
	    CKR_TEMPLATE_INCONSISTENT);
	buf[7][3] ^= 1;

	/* (n, e, d) only: the CRT parts are recovered; the key signs as
	 * OpenSSL's does (PKCS#1 v1.5 is deterministic). */
	{
		CK_MECHANISM pkcs = { CKM_RSA_PKCS, NULL, 0 };
		uint8_t msg[35] = "a DigestInfo-sized message to sign",
		    sig[256], want[256];
		CK_ULONG len = sizeof(sig);
		size_t wlen = sizeof(want);
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);

		assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
		assert_rv(p11->C_SignInit(h, &pkcs, o), CKR_OK);
		assert_rv(p11->C_Sign(h, msg, sizeof(msg), sig, &len), CKR_OK);
		assert_non_null(c);
		assert_int_equal(EVP_PKEY_sign_init(c), 1);
		assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(c,
		    RSA_PKCS1_PADDING), 1);
		assert_int_equal(EVP_PKEY_sign(c, want, &wlen, msg,
		    sizeof(msg)), 1);
		assert_int_equal(len, wlen);
		assert_memory_equal(sig, want, wlen);
		EVP_PKEY_CTX_free(c);
		/* a d that does not belong to n and e */
		buf[2][t[4].ulValueLen - 1] ^= 2;
		assert_rv(p11->C_CreateObject(h, t, 5, &o),
		    CKR_TEMPLATE_INCONSISTENT);
	}
	EVP_PKEY_free(k);
}

/* RSA public keys that could never be used are refused where they enter
 * (C_CreateObject), not at the first Init: an even modulus, a public
 * exponent of 0, 1 or any even number, or one not below the modulus. */
static void
test_public_checks(void **state)
{
	CK_OBJECT_CLASS pc = CKO_PUBLIC_KEY;
	CK_KEY_TYPE rsa = CKK_RSA;
	uint8_t n[256], e[258];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &pc, sizeof(pc) },
		{ CKA_KEY_TYPE, &rsa, sizeof(rsa) },
		{ CKA_MODULUS, n, sizeof(n) },
		{ CKA_PUBLIC_EXPONENT, e, 3 },
	};
	CK_ATTRIBUTE a = { CKA_MODULUS, n, sizeof(n) };
	static const uint8_t bad_e[][3] = { { 0, 0, 0 }, { 0, 0, 1 },
		{ 0, 0, 2 }, { 1, 0, 0 } };
	CK_OBJECT_HANDLE o;
	size_t i;

	(void)state;
	assert_rv(p11->C_GetAttributeValue(h, pub, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, 256);
	memcpy(e, (const uint8_t[]){ 0, 0, 3 }, 3);
	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	memcpy(e, (const uint8_t[]){ 1, 0, 1 }, 3);
	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	for (i = 0; i < sizeof(bad_e) / sizeof(bad_e[0]); i++) {
		memcpy(e, bad_e[i], 3);
		assert_rv(p11->C_CreateObject(h, t, 4, &o),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
	/* e = n, and e > n */
	memcpy(e, n, 256);
	t[3].ulValueLen = 256;
	assert_rv(p11->C_CreateObject(h, t, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	e[0] = 0;
	e[1] = 1;
	memcpy(e + 2, n, 256);
	t[3].ulValueLen = 258;
	assert_rv(p11->C_CreateObject(h, t, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* an even modulus */
	memcpy(e, (const uint8_t[]){ 1, 0, 1 }, 3);
	t[3].ulValueLen = 3;
	n[255] ^= 1;
	assert_rv(p11->C_CreateObject(h, t, 4, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
}

/* Threads signing with one key at once (each private operation takes a
 * lane of the key, made on demand): every signature equals the one made
 * alone, PKCS#1 v1.5 being deterministic. */
#define NSIGNERS 4
#define NSIGS 6

struct signer {
	CK_SESSION_HANDLE s;
	uint8_t sig[NSIGS][256];
	CK_RV rv;
};

static void *
signer_main(void *arg)
{
	struct signer *w = arg;
	CK_MECHANISM m = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	uint8_t msg[16] = "message number ";
	int i;

	w->rv = CKR_OK;
	for (i = 0; i < NSIGS && w->rv == CKR_OK; i++) {
		CK_ULONG len = sizeof(w->sig[i]);

		msg[15] = (uint8_t)i;
		w->rv = p11->C_SignInit(w->s, &m, priv);
		if (w->rv == CKR_OK)
			w->rv = p11->C_Sign(w->s, msg, sizeof(msg), w->sig[i],
			    &len);
		if (w->rv == CKR_OK && len != 256)
			w->rv = CKR_GENERAL_ERROR;
	}
	return NULL;
}

static void
test_threads_one_key(void **state)
{
	CK_MECHANISM m = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	static struct signer w[NSIGNERS];
	uint8_t msg[16] = "message number ", want[NSIGS][256];
	pthread_t t[NSIGNERS];
	int i, j;

	(void)state;
	for (i = 0; i < NSIGS; i++) {
		CK_ULONG len = sizeof(want[i]);

		msg[15] = (uint8_t)i;
		assert_rv(p11->C_SignInit(h, &m, priv), CKR_OK);
		assert_rv(p11->C_Sign(h, msg, sizeof(msg), want[i], &len),
		    CKR_OK);
		assert_true(openssl_verifies(EVP_sha256(), 0, msg, sizeof(msg),
		    want[i], len));
	}
	for (j = 0; j < NSIGNERS; j++) {
		assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL,
		    NULL, &w[j].s), CKR_OK);
		assert_int_equal(pthread_create(&t[j], NULL, signer_main,
		    &w[j]), 0);
	}
	for (j = 0; j < NSIGNERS; j++) {
		assert_int_equal(pthread_join(t[j], NULL), 0);
		assert_rv(w[j].rv, CKR_OK);
		for (i = 0; i < NSIGS; i++)
			assert_memory_equal(w[j].sig[i], want[i], 256);
		assert_rv(p11->C_CloseSession(w[j].s), CKR_OK);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign),
		cmocka_unit_test(test_pss_params),
		cmocka_unit_test(test_decrypt),
		cmocka_unit_test(test_raw_and_refusals),
		cmocka_unit_test(test_create_checks),
		cmocka_unit_test(test_public_checks),
		cmocka_unit_test(test_pss_salt_range),
		cmocka_unit_test(test_single_after_update),
		cmocka_unit_test(test_threads_one_key),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
