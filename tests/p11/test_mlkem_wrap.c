/*
 * ML-KEM private keys through C_WrapKey / C_UnwrapKey (PKCS#11 3.2 table):
 * PKCS #8 with id-alg-ml-kem-512/768/1024 and the ML-KEM-PrivateKey
 * CHOICE of the LAMPS draft (seed [0], expandedKey, both). Per parameter
 * set: a key with a seed wraps as the seed arm, one without as its dk;
 * each unwraps to a key that decapsulates as the original. Then the bad
 * encodings made by hand: a seed that is not the dk's, a dk whose H(ek)
 * is wrong, wrong lengths, parameters, another set's OID, a key type at
 * odds with the OID; each gives its CK_RV and creates nothing. Both
 * tests run under the two mechanisms that wrap private keys,
 * CKM_AES_KEY_WRAP_KWP and CKM_AES_CBC_PAD, with OpenSSL's AES-KWP and
 * AES-CBC (PKCS #7 padding) undoing and making the wrapping; then what
 * only CBC-PAD refuses: bad padding, a length that is not whole blocks,
 * an IV of the wrong length.
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

static const uint8_t kv[32] = { 0x4b, 0x45, 0x4b, 7, 1, 2, 3, 4, 5, 6, 7,
	8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
	26, 27, 28 };
static uint8_t iv[16] = { 0x49, 0x56, 0x21, 0xc3, 0x5a, 0x01, 0x9e, 0x77,
	0x42, 0x10, 0xfe, 0x08, 0x3d, 0x6b, 0xa4, 0x2f };
static CK_MECHANISM kwp = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };
static CK_MECHANISM cbc_pad = { CKM_AES_CBC_PAD, iv, sizeof(iv) };
/* The wrapping mechanism of the running test (its cmocka prestate). */
static CK_MECHANISM *wm;

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

/* OpenSSL's AES-256-CBC with kv and iv, enc 1 or 0, PKCS #7 padding when
 * pad; the output length, -1 on failure (a bad padding). */
static int
ossl_cbc(const uint8_t *in, size_t len, uint8_t *out, int enc, int pad)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, f = 0, ok;

	assert_non_null(x);
	assert_int_equal(EVP_CipherInit_ex(x, EVP_aes_256_cbc(), NULL, kv, iv,
	    enc), 1);
	EVP_CIPHER_CTX_set_padding(x, pad);
	ok = EVP_CipherUpdate(x, out, &n, in, (int)len) == 1 &&
	    EVP_CipherFinal_ex(x, out + n, &f) == 1;
	EVP_CIPHER_CTX_free(x);
	return ok ? n + f : -1;
}

/* OpenSSL's wrapping under wm with kv, enc 1, or its inverse: KWP
 * (RFC 5649) or CBC with PKCS #7 padding. */
static int
ossl_wrap(const uint8_t *in, size_t len, uint8_t *out, int enc)
{
	if (wm->mechanism == CKM_AES_CBC_PAD)
		return ossl_cbc(in, len, out, enc, 1);
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

/* C_UnwrapKey under wm of der (len bytes) wrapped by OpenSSL, as an
 * ML-KEM (or kt) private key; the CK_RV, *u the key. */
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
	int n = ossl_wrap(der, len, blob, 1);

	assert_true(n > 0);
	*u = CK_INVALID_HANDLE;
	/* CKA_DECAPSULATE is an ML-KEM key's only */
	return p11->C_UnwrapKey(h, wm, w, blob, (CK_ULONG)n, t,
	    kt == CKK_ML_KEM || kt == CKK_VG_ML_KEM ? 5 : 4, u);
}

/* The PKCS #8 the token wraps key into under wm (undone with OpenSSL). */
static size_t
wrapped(CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE key, uint8_t *der)
{
	static uint8_t blob[4096];
	CK_ULONG n = sizeof(blob);
	int d;

	assert_rv(p11->C_WrapKey(h, wm, w, key, blob, &n), CKR_OK);
	d = ossl_wrap(blob, n, der, 0);
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

	wm = *state;
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

	wm = *state;
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

/* What only CBC-PAD refuses, for the seed arm of an ML-KEM-768 key (86
 * bytes, wrapped in six blocks): a last block whose padding is bad, a
 * wrapped key that is not whole blocks, an IV that is not 16 bytes. */
static void
test_cbc_pad_only(void **state)
{
	static uint8_t der[4096], blob[4096];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, &k_kem, sizeof(k_kem) },
		{ CKA_DECAPSULATE, &yes, 1 },
	};
	CK_OBJECT_HANDLE w, pub, priv, u;
	CK_ULONG n = sizeof(blob), before;
	size_t dlen;
	int bl;

	(void)state;
	wm = &cbc_pad;
	w = kek();
	keypair(CKP_ML_KEM_768, 1, &pub, &priv);
	dlen = wrapped(w, priv, der);
	assert_int_equal(dlen, 86);
	assert_rv(p11->C_WrapKey(h, wm, w, priv, blob, &n), CKR_OK);
	assert_int_equal(n, 96);
	before = nobjects();
	/* the ten bytes of padding all 11, then nine 9s and a 10 */
	memset(der + dlen, 11, 10);
	bl = ossl_cbc(der, 96, blob, 1, 0);
	assert_int_equal(bl, 96);
	u = CK_INVALID_HANDLE;
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 96, t, 3, &u),
	    CKR_WRAPPED_KEY_INVALID);
	assert_int_equal(u, CK_INVALID_HANDLE);
	memset(der + dlen, 9, 9);
	der[95] = 10;
	assert_int_equal(ossl_cbc(der, 96, blob, 1, 0), 96);
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 96, t, 3, &u),
	    CKR_WRAPPED_KEY_INVALID);
	assert_int_equal(u, CK_INVALID_HANDLE);
	/* the right padding is taken (the rows above are what fail) */
	memset(der + dlen, 10, 10);
	assert_int_equal(ossl_cbc(der, 96, blob, 1, 0), 96);
	/* not whole blocks, and none */
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 95, t, 3, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 0, t, 3, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	/* an IV of 8 bytes, for wrapping and for unwrapping */
	cbc_pad.ulParameterLen = 8;
	n = sizeof(der);
	assert_rv(p11->C_WrapKey(h, wm, w, priv, der, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 96, t, 3, &u),
	    CKR_MECHANISM_PARAM_INVALID);
	cbc_pad.ulParameterLen = sizeof(iv);
	assert_int_equal(u, CK_INVALID_HANDLE);
	assert_int_equal(nobjects(), before);
	assert_rv(p11->C_UnwrapKey(h, wm, w, blob, 96, t, 3, &u), CKR_OK);
	same_secret(pub, priv, u);
}

/* A test run with mechanism m as its state, named after both. */
#define UNDER(f, m) { #f " " #m, f, NULL, NULL, &m }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		UNDER(test_round_trip, kwp),
		UNDER(test_bad_der, kwp),
		UNDER(test_round_trip, cbc_pad),
		UNDER(test_bad_der, cbc_pad),
		cmocka_unit_test(test_cbc_pad_only),
	};

	if (p11_load() != 0)
		return 1;
	return cmocka_run_group_tests(tests, mlkem_setup, mlkem_teardown);
}
