/*
 * ML-KEM private keys through C_WrapKey / C_UnwrapKey (PKCS#11 3.2 table):
 * PKCS #8 with id-alg-ml-kem-512/768/1024 and the ML-KEM-PrivateKey
 * CHOICE of the LAMPS draft (seed [0], expandedKey, both). Per parameter
 * set: a key with a seed wraps as the seed arm, one without as its dk;
 * each unwraps to a key that decapsulates as the original. Then the bad
 * encodings made by hand (wrapped with OpenSSL's KWP): a seed that is not
 * the dk's, a dk whose H(ek) is wrong, wrong lengths, parameters, another
 * set's OID, a key type at odds with the OID; each gives its CK_RV and
 * creates nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <openssl/evp.h>

#include "tests/p11/common.h"
#include "tests/p11/mlkem_common.h"
#include "vgtoken/vgtoken.h"

static CK_MECHANISM kwp = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };
static const uint8_t kv[32] = { 0x4b, 0x45, 0x4b, 7, 1, 2, 3, 4, 5, 6, 7,
	8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	26, 27, 28 };

/* The AES key kv that wraps and unwraps. */
static CK_OBJECT_HANDLE
kek(void)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_aes, sizeof(k_aes) },
		{ CKA_VALUE, (void *)kv, sizeof(kv) },
		{ CKA_WRAP, &yes, 1 },
		{ CKA_UNWRAP, &yes, 1 },
	};
	CK_OBJECT_HANDLE w;

	assert_rv(p11->C_CreateObject(h, t, 5, &w), CKR_OK);
	return w;
}

/* OpenSSL's KWP (RFC 5649) with kv, enc 1, or its inverse. */
static int
ossl_kwp(const uint8_t *in, size_t len, uint8_t *out, int enc)
{
	return p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, in, len, out, enc);
}

/* PrivateKeyInfo of id-alg-ml-kem-<oidlast> around inner; with params,
 * the AlgorithmIdentifier carries NULL parameters. Its length. */
static size_t
pkcs8(uint8_t oidlast, int params, const uint8_t *inner, size_t ilen,
    uint8_t *out)
{
	uint8_t alg[17] = { 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
		0x65, 0x03, 0x04, 0x04, 0, 0x05, 0x00 };
	uint8_t oct[4];
	size_t alen = params ? 15 : 13, n;
	size_t olen = p11_der_header(oct, 0x04, ilen);

	alg[12] = oidlast;
	if (params)
		alg[1] = 0x0d;
	n = p11_der_header(out, 0x30, 3 + alen + olen + ilen);
	memcpy(out + n, "\x02\x01\x00", 3);
	memcpy(out + n + 3, alg, alen);
	n += 3 + alen;
	memcpy(out + n, oct, olen);
	memcpy(out + n + olen, inner, ilen);
	return n + olen + ilen;
}

/* C_UnwrapKey of the KWP of der (len bytes) as an ML-KEM (or kt) private
 * key of set; the CK_RV, *u the key. */
static CK_RV
unwrap_der(CK_OBJECT_HANDLE w, const uint8_t *der, size_t len,
    CK_KEY_TYPE kt, CK_OBJECT_HANDLE *u)
{
	static uint8_t blob[4096];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_DECAPSULATE, &yes, 1 },
	};
	int n = ossl_kwp(der, len, blob, 1);

	assert_true(n > 0);
	*u = CK_INVALID_HANDLE;
	/* CKA_DECAPSULATE is an ML-KEM key's only */
	return p11->C_UnwrapKey(h, &kwp, w, blob, (CK_ULONG)n, t,
	    kt == CKK_ML_KEM || kt == CKK_VG_ML_KEM ? 5 : 4, u);
}

/* The PKCS #8 the token wraps key into (KWP undone with OpenSSL). */
static size_t
wrapped(CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE key, uint8_t *der)
{
	static uint8_t blob[4096];
	CK_ULONG n = sizeof(blob);
	int d;

	assert_rv(p11->C_WrapKey(h, &kwp, w, key, blob, &n), CKR_OK);
	d = ossl_kwp(blob, n, der, 0);
	assert_true(d > 0);
	return (size_t)d;
}

/* 1 if attribute t of a and b is the same, else 0. */
static void
same_attr(CK_OBJECT_HANDLE a, CK_OBJECT_HANDLE b, CK_ATTRIBUTE_TYPE t)
{
	static uint8_t va[4096], vb[4096];
	CK_ATTRIBUTE x = { t, va, sizeof(va) }, y = { t, vb, sizeof(vb) };

	assert_rv(p11->C_GetAttributeValue(h, a, &x, 1), CKR_OK);
	if (p11->C_GetAttributeValue(h, b, &y, 1) != CKR_OK)
		fail_msg("attribute 0x%lx of the unwrapped key", t);
	assert_int_equal(x.ulValueLen, y.ulValueLen);
	assert_memory_equal(va, vb, x.ulValueLen);
}

/* priv and u decapsulate a ciphertext for pub to the same secret. */
static void
same_secret(CK_OBJECT_HANDLE pub, CK_OBJECT_HANDLE priv, CK_OBJECT_HANDLE u)
{
	static uint8_t ct[1568];
	CK_ULONG len32 = 32, ctlen = sizeof(ct);
	SECRET_TMPL(t, &len32);
	CK_OBJECT_HANDLE k0, k1, k2;
	uint8_t v0[64], v1[64], v2[64];

	assert_rv(encaps(pub, t, 5, ct, &ctlen, &k0), CKR_OK);
	assert_rv(decaps(priv, t, 5, ct, ctlen, &k1), CKR_OK);
	assert_rv(decaps(u, t, 5, ct, ctlen, &k2), CKR_OK);
	assert_int_equal(value_of(k0, v0), 32);
	assert_int_equal(value_of(k1, v1), 32);
	assert_int_equal(value_of(k2, v2), 32);
	assert_memory_equal(v0, v1, 32);
	assert_memory_equal(v0, v2, 32);
}

/* Round trips per set: the seed arm, the expandedKey arm, both. */
static void
test_round_trip(void **state)
{
	static uint8_t der[4096], seed[64], dk[3168], inner[3300];
	CK_OBJECT_HANDLE w, pub, priv, u, vonly;
	size_t i, dlen, n;

	(void)state;
	w = kek();
	for (i = 0; i < 3; i++) {
		const struct mlkem_set *s = &sets[i];
		CK_ATTRIBUTE rd[] = { { CKA_SEED, seed, sizeof(seed) },
			{ CKA_VALUE, dk, sizeof(dk) } };
		CK_ULONG set = s->set;

		keypair(s->set, 1, &pub, &priv);
		assert_rv(p11->C_GetAttributeValue(h, priv, rd, 2), CKR_OK);
		assert_int_equal(rd[0].ulValueLen, 64);
		assert_int_equal(rd[1].ulValueLen, s->dk);
		/* the seed arm: 30 54 02 01 00 30 0b 06 09 ..04 04 0n
		 * 04 42 80 40 seed */
		dlen = wrapped(w, priv, der);
		assert_int_equal(dlen, 2 + 3 + 13 + 2 + 66);
		assert_int_equal(der[17], 1 + i);
		assert_memory_equal(der + 18, "\x04\x42\x80\x40", 4);
		assert_memory_equal(der + 22, seed, 64);
		assert_rv(unwrap_der(w, der, dlen, CKK_ML_KEM, &u), CKR_OK);
		same_attr(priv, u, CKA_PARAMETER_SET);
		same_attr(priv, u, CKA_SEED);
		same_attr(priv, u, CKA_PUBLIC_KEY_INFO);
		same_secret(pub, priv, u);
		/* the vendor key type of vgtoken/vgtoken.h is the same */
		assert_rv(unwrap_der(w, der, dlen, CKK_VG_ML_KEM, &u), CKR_OK);
		same_attr(priv, u, CKA_SEED);

		/* a key without its seed travels as its dk */
		{
			CK_ATTRIBUTE t[] = {
				{ CKA_CLASS, &c_priv, sizeof(c_priv) },
				{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
				{ CKA_PARAMETER_SET, &set, sizeof(set) },
				{ CKA_VALUE, dk, s->dk },
				{ CKA_EXTRACTABLE, &yes, 1 },
				{ CKA_SENSITIVE, &no, 1 },
				{ CKA_DECAPSULATE, &yes, 1 },
			};

			assert_rv(p11->C_CreateObject(h, t, 7, &vonly),
			    CKR_OK);
		}
		dlen = wrapped(w, vonly, der);
		assert_int_equal(dlen, 4 + 3 + 13 + 4 + 4 + s->dk);
		assert_int_equal(der[24], 0x04);
		assert_memory_equal(der + 28, dk, s->dk);
		assert_rv(unwrap_der(w, der, dlen, CKK_ML_KEM, &u), CKR_OK);
		same_attr(vonly, u, CKA_VALUE);
		same_attr(priv, u, CKA_PUBLIC_KEY_INFO);
		same_secret(pub, priv, u);

		/* both, as OpenSSL 3.5 writes it */
		n = p11_der_header(inner, 0x30, 66 + 4 + s->dk);
		memcpy(inner + n, "\x04\x40", 2);
		memcpy(inner + n + 2, seed, 64);
		n += 66;
		n += p11_der_header(inner + n, 0x04, s->dk);
		memcpy(inner + n, dk, s->dk);
		n += s->dk;
		dlen = pkcs8((uint8_t)(1 + i), 0, inner, n, der);
		assert_rv(unwrap_der(w, der, dlen, CKK_ML_KEM, &u), CKR_OK);
		same_attr(priv, u, CKA_SEED);
		same_attr(priv, u, CKA_VALUE);
		same_secret(pub, priv, u);
	}
}

/* One bad encoding: its CK_RV, and no object made. */
static void
refused(CK_OBJECT_HANDLE w, const uint8_t *der, size_t len, CK_KEY_TYPE kt,
    CK_RV want)
{
	CK_ULONG before = nobjects();
	CK_OBJECT_HANDLE u;

	assert_rv(unwrap_der(w, der, len, kt, &u), want);
	assert_int_equal(u, CK_INVALID_HANDLE);
	assert_int_equal(nobjects(), before);
}

/* Bad encodings of an ML-KEM-768 key. */
static void
test_bad_der(void **state)
{
	static uint8_t der[4096], seed[64], dk[2400], inner[2600];
	CK_ATTRIBUTE rd[] = { { CKA_SEED, seed, sizeof(seed) },
		{ CKA_VALUE, dk, sizeof(dk) } };
	CK_OBJECT_HANDLE w, pub, priv;
	size_t n, dlen;

	(void)state;
	w = kek();
	keypair(CKP_ML_KEM_768, 1, &pub, &priv);
	assert_rv(p11->C_GetAttributeValue(h, priv, rd, 2), CKR_OK);

	/* both, with a seed that is not the dk's */
	n = p11_der_header(inner, 0x30, 66 + 4 + 2400);
	memcpy(inner + n, "\x04\x40", 2);
	memcpy(inner + n + 2, seed, 64);
	inner[n + 2] ^= 1;
	n += 66;
	n += p11_der_header(inner + n, 0x04, 2400);
	memcpy(inner + n, dk, 2400);
	n += 2400;
	dlen = pkcs8(2, 0, inner, n, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* the same with the right seed is taken (the row above is what
	 * fails) */
	inner[6] ^= 1;
	dlen = pkcs8(2, 0, inner, n, der);
	{
		CK_OBJECT_HANDLE u;

		assert_rv(unwrap_der(w, der, dlen, CKK_ML_KEM, &u), CKR_OK);
		assert_rv(p11->C_DestroyObject(h, u), CKR_OK);
	}
	/* a dk whose H(ek) is wrong [FIPS 203 §7.3] */
	n = p11_der_header(inner, 0x04, 2400);
	memcpy(inner + n, dk, 2400);
	inner[n + 2400 - 64] ^= 0x80;
	dlen = pkcs8(2, 0, inner, n + 2400, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* a dk of the wrong length (ML-KEM-768's under ML-KEM-512's OID) */
	inner[n + 2400 - 64] ^= 0x80;
	dlen = pkcs8(1, 0, inner, n + 2400, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* a seed of 63 and of 65 bytes */
	memcpy(inner, "\x80\x3f", 2);
	memcpy(inner + 2, seed, 63);
	dlen = pkcs8(2, 0, inner, 65, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	memcpy(inner, "\x80\x41", 2);
	memcpy(inner + 2, seed, 64);
	inner[66] = 0;
	dlen = pkcs8(2, 0, inner, 67, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* the seed with a wrong tag: [1] and a constructed [0] */
	memcpy(inner, "\x81\x40", 2);
	memcpy(inner + 2, seed, 64);
	dlen = pkcs8(2, 0, inner, 66, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	inner[0] = 0xa0;
	dlen = pkcs8(2, 0, inner, 66, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* a good seed with a byte after the CHOICE */
	inner[0] = 0x80;
	inner[66] = 0;
	dlen = pkcs8(2, 0, inner, 67, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* parameters, which the OIDs do not have */
	dlen = pkcs8(2, 1, inner, 66, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* an OID beyond the three (2.16.840.1.101.3.4.4.4) */
	dlen = pkcs8(4, 0, inner, 66, der);
	refused(w, der, dlen, CKK_ML_KEM, CKR_TEMPLATE_INCONSISTENT);
	/* an ML-KEM key unwrapped as ML-DSA, and the other way */
	dlen = pkcs8(2, 0, inner, 66, der);
	refused(w, der, dlen, CKK_ML_DSA, CKR_TEMPLATE_INCONSISTENT);
	refused(w, der, dlen, CKK_EC, CKR_TEMPLATE_INCONSISTENT);
	/* truncated PrivateKeyInfo */
	refused(w, der, dlen - 1, CKK_ML_KEM, CKR_WRAPPED_KEY_INVALID);
	/* and the good one is taken */
	{
		CK_OBJECT_HANDLE u;

		assert_rv(unwrap_der(w, der, dlen, CKK_ML_KEM, &u), CKR_OK);
		same_attr(priv, u, CKA_SEED);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_der),
	};

	if (p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, mlkem_setup, mlkem_teardown);
}
