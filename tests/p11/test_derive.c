/*
 * C_DeriveKey from secret keys through the function list [PKCS#11 3.2
 * §5.18.5]:
 *
 *   CKM_AES_ECB_ENCRYPT_DATA, CKM_AES_CBC_ENCRYPT_DATA  against OpenSSL's
 *       AES-ECB and AES-CBC (no padding) of the same data: the derived
 *       key is the first CKA_VALUE_LEN bytes, for AES and generic secret
 *       keys, every AES key size.
 *   history  CKA_LOCAL false, CKA_KEY_GEN_MECHANISM unavailable, and
 *       CKA_ALWAYS_SENSITIVE / CKA_NEVER_EXTRACTABLE from the base key
 *       (AES encrypt-data and HKDF).
 *   bad input  each refusal of the AES and HKDF mechanisms with its
 *       CK_RV, and nothing created.
 *   templates and storage  the base key's CKA_DERIVE_TEMPLATE binds the
 *       new key; token keys and data objects are kept (read from another
 *       session), and a read-only session may not make them.
 * HKDF's known answers are in test_hkdf.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"
#include "tests/p11/derive_common.h"

/* ------------------------------------------------- AES encrypt data */

static const EVP_CIPHER *
aes_cipher(size_t keylen, int cbc)
{
	switch (keylen) {
	case 16: return cbc ? EVP_aes_128_cbc() : EVP_aes_128_ecb();
	case 24: return cbc ? EVP_aes_192_cbc() : EVP_aes_192_ecb();
	default: return cbc ? EVP_aes_256_cbc() : EVP_aes_256_ecb();
	}
}

/* OpenSSL's encryption of len bytes (a multiple of 16), no padding. */
static void
evp_aes(const uint8_t *key, size_t keylen, const uint8_t *iv,
    const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n1 = 0, n2 = 0;

	assert_non_null(c);
	assert_int_equal(EVP_EncryptInit_ex(c, aes_cipher(keylen, iv != NULL),
	    NULL, key, iv), 1);
	EVP_CIPHER_CTX_set_padding(c, 0);
	assert_int_equal(EVP_EncryptUpdate(c, out, &n1, in, (int)len), 1);
	assert_int_equal(EVP_EncryptFinal_ex(c, out + n1, &n2), 1);
	assert_int_equal(n1 + n2, len);
	EVP_CIPHER_CTX_free(c);
}

static void
test_aes_encrypt_data(void **state)
{
	static const struct {
		CK_KEY_TYPE kt;   /* 0: none named (a generic secret) */
		CK_ULONG len;     /* 0: none given (the data length) */
		size_t want;
	} outs[] = {
		{ CKK_AES, 16, 16 }, { CKK_AES, 24, 24 }, { CKK_AES, 32, 32 },
		{ CKK_GENERIC_SECRET, 20, 20 }, { CKK_GENERIC_SECRET, 1, 1 },
		{ CKK_GENERIC_SECRET, 0, 64 }, { 0, 48, 48 }, { 0, 0, 64 },
		{ CKK_GENERIC_SECRET, 64, 64 },
	};
	static const size_t keylens[] = { 16, 24, 32 };
	uint8_t key[32], data[64], ref[64], got[80];
	CK_KEY_DERIVATION_STRING_DATA sd = { data, sizeof(data) };
	CK_AES_CBC_ENCRYPT_DATA_PARAMS cp;
	CK_OBJECT_HANDLE base, d;
	size_t i, j, cbc;

	(void)state;
	pattern(data, sizeof(data), 1);
	pattern(cp.iv, sizeof(cp.iv), 2);
	cp.pData = data;
	cp.length = sizeof(data);
	for (i = 0; i < 3; i++) {
		pattern(key, keylens[i], 3 + (unsigned)i);
		base = secret(CKK_AES, key, keylens[i], CK_TRUE);
		for (cbc = 0; cbc < 2; cbc++) {
			evp_aes(key, keylens[i], cbc ? cp.iv : NULL, data,
			    sizeof(data), ref);
			for (j = 0; j < sizeof(outs) / sizeof(outs[0]); j++) {
				CK_KEY_TYPE kt = outs[j].kt ? outs[j].kt
							    : k_gen;
				CK_KEY_TYPE got_kt = 0;
				CK_ATTRIBUTE a = { CKA_KEY_TYPE, &got_kt,
					sizeof(got_kt) };

				assert_rv(cbc
				    ? derive(CKM_AES_CBC_ENCRYPT_DATA, &cp,
				    sizeof(cp), base, outs[j].kt, outs[j].len,
				    &d)
				    : derive(CKM_AES_ECB_ENCRYPT_DATA, &sd,
				    sizeof(sd), base, outs[j].kt, outs[j].len,
				    &d), CKR_OK);
				assert_int_equal(value(d, got, sizeof(got)),
				    outs[j].want);
				assert_memory_equal(got, ref, outs[j].want);
				assert_rv(p11->C_GetAttributeValue(h, d, &a, 1),
				    CKR_OK);
				assert_int_equal(got_kt, kt);
				assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
			}
		}
		assert_rv(p11->C_DestroyObject(h, base), CKR_OK);
	}
}

/* A derived AES key works as one: it derives again, as OpenSSL says. */
static void
test_aes_chain(void **state)
{
	uint8_t key[16], data[32], k1[16], ref[32], got[32];
	CK_KEY_DERIVATION_STRING_DATA sd = { data, sizeof(data) };
	CK_OBJECT_HANDLE base, d1, d2;

	(void)state;
	pattern(key, sizeof(key), 9);
	pattern(data, sizeof(data), 10);
	base = secret(CKK_AES, key, sizeof(key), CK_TRUE);
	assert_rv(derive(CKM_AES_ECB_ENCRYPT_DATA, &sd, sizeof(sd), base,
	    CKK_AES, 16, &d1), CKR_OK);
	assert_rv(derive(CKM_AES_ECB_ENCRYPT_DATA, &sd, sizeof(sd), d1,
	    CKK_GENERIC_SECRET, 32, &d2), CKR_OK);
	evp_aes(key, 16, NULL, data, 16, k1);
	evp_aes(k1, 16, NULL, data, 32, ref);
	assert_int_equal(value(d2, got, sizeof(got)), 32);
	assert_memory_equal(got, ref, 32);
}

/* ------------------------------------------------------------ history */

static void
check_history(CK_OBJECT_HANDLE o, CK_BBOOL always_sensitive,
    CK_BBOOL never_extractable)
{
	CK_MECHANISM_TYPE gm = 0;
	CK_ATTRIBUTE a = { CKA_KEY_GEN_MECHANISM, &gm, sizeof(gm) };

	assert_int_equal(get_bool(o, CKA_LOCAL), CK_FALSE);
	assert_int_equal(get_bool(o, CKA_ALWAYS_SENSITIVE), always_sensitive);
	assert_int_equal(get_bool(o, CKA_NEVER_EXTRACTABLE),
	    never_extractable);
	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	assert_int_equal(gm, CK_UNAVAILABLE_INFORMATION);
}

/* Derives with mech/param from base a key with the given CKA_SENSITIVE
 * and CKA_EXTRACTABLE. */
static CK_OBJECT_HANDLE
derive_kept(CK_MECHANISM *m, CK_OBJECT_HANDLE base, CK_BBOOL sens,
    CK_BBOOL extr)
{
	CK_ULONG len = 16;
	CK_ATTRIBUTE t[] = {
		{ CKA_KEY_TYPE, &k_aes, sizeof(k_aes) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SENSITIVE, &sens, 1 },
		{ CKA_EXTRACTABLE, &extr, 1 },
	};
	CK_OBJECT_HANDLE o = 0;

	assert_rv(p11->C_DeriveKey(h, m, base, t, 4, &o), CKR_OK);
	return o;
}

static void
test_history(void **state)
{
	uint8_t data[32], salt[8];
	CK_KEY_DERIVATION_STRING_DATA sd = { data, sizeof(data) };
	CK_HKDF_PARAMS hp = { CK_TRUE, CK_TRUE, CKM_SHA256,
		CKF_HKDF_SALT_DATA, salt, sizeof(salt), 0, NULL, 0 };
	CK_MECHANISM ms[] = {
		{ CKM_AES_ECB_ENCRYPT_DATA, &sd, sizeof(sd) },
		{ CKM_HKDF_DERIVE, &hp, sizeof(hp) },
	};
	CK_MECHANISM gen[] = {
		{ CKM_AES_KEY_GEN, NULL, 0 },
		{ CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 },
	};
	CK_ULONG len = 32;
	CK_ATTRIBUTE gt[] = {
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
		{ CKA_DERIVE, &yes, 1 },
	};
	uint8_t v[32];
	CK_OBJECT_HANDLE base, made, d;
	size_t i;

	(void)state;
	pattern(data, sizeof(data), 4);
	pattern(salt, sizeof(salt), 5);
	pattern(v, sizeof(v), 6);
	for (i = 0; i < 2; i++) {
		/* a generated, sensitive, unextractable base */
		assert_rv(p11->C_GenerateKey(h, &gen[i], gt, 4, &base),
		    CKR_OK);
		assert_int_equal(get_bool(base, CKA_ALWAYS_SENSITIVE), CK_TRUE);
		d = derive_kept(&ms[i], base, CK_TRUE, CK_FALSE);
		check_history(d, CK_TRUE, CK_TRUE);
		d = derive_kept(&ms[i], base, CK_FALSE, CK_FALSE);
		check_history(d, CK_FALSE, CK_TRUE);
		d = derive_kept(&ms[i], base, CK_TRUE, CK_TRUE);
		check_history(d, CK_TRUE, CK_FALSE);
		/* a base whose value was once known */
		made = secret(i == 0 ? CKK_AES : CKK_GENERIC_SECRET, v,
		    sizeof(v), CK_TRUE);
		assert_int_equal(get_bool(made, CKA_ALWAYS_SENSITIVE),
		    CK_FALSE);
		d = derive_kept(&ms[i], made, CK_TRUE, CK_FALSE);
		check_history(d, CK_FALSE, CK_FALSE);
		assert_int_equal(get_bool(d, CKA_SENSITIVE), CK_TRUE);
	}
}

/* ------------------------------------------------------------ bad input */

static void
test_bad_aes(void **state)
{
	uint8_t key[16], data[32];
	CK_KEY_DERIVATION_STRING_DATA sd = { data, sizeof(data) };
	CK_AES_CBC_ENCRYPT_DATA_PARAMS cp = { { 0 }, data, sizeof(data) };
	CK_MECHANISM_TYPE other = CKM_AES_CBC_ENCRYPT_DATA;
	CK_ATTRIBUTE am = { CKA_ALLOWED_MECHANISMS, &other, sizeof(other) };
	CK_OBJECT_CLASS pubc = CKO_PUBLIC_KEY;
	CK_ATTRIBUTE pt = { CKA_CLASS, &pubc, sizeof(pubc) };
	CK_MECHANISM m = { CKM_AES_ECB_ENCRYPT_DATA, &sd, sizeof(sd) };
	CK_OBJECT_HANDLE base, noderive, gen, d;
	CK_ULONG before;

	(void)state;
	pattern(key, sizeof(key), 20);
	pattern(data, sizeof(data), 21);
	base = secret(CKK_AES, key, sizeof(key), CK_TRUE);
	noderive = secret(CKK_AES, key, sizeof(key), CK_FALSE);
	gen = secret(CKK_GENERIC_SECRET, key, sizeof(key), CK_TRUE);
	before = count_objects();
#define ECB(p, l, b, kt, len, want)                                         \
	assert_rv(derive(CKM_AES_ECB_ENCRYPT_DATA, p, l, b, kt, len, &d),   \
	    want)
#define CBC(p, l, b, kt, len, want)                                         \
	assert_rv(derive(CKM_AES_CBC_ENCRYPT_DATA, p, l, b, kt, len, &d),   \
	    want)
	ECB(NULL, sizeof(sd), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	ECB(&sd, 0, base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	ECB(&sd, sizeof(sd) - 1, base, CKK_AES, 16,
	    CKR_MECHANISM_PARAM_INVALID);
	ECB(&sd, sizeof(sd) + 1, base, CKK_AES, 16,
	    CKR_MECHANISM_PARAM_INVALID);
	ECB(&cp, sizeof(cp), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	CBC(&sd, sizeof(sd), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	CBC(NULL, 0, base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	sd.ulLen = 15;
	ECB(&sd, sizeof(sd), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	sd.ulLen = 0;
	ECB(&sd, sizeof(sd), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	sd.ulLen = 16;
	sd.pData = NULL;
	ECB(&sd, sizeof(sd), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	sd.pData = data;
	cp.length = 17;
	CBC(&cp, sizeof(cp), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	cp.length = 32;
	cp.pData = NULL;
	CBC(&cp, sizeof(cp), base, CKK_AES, 16, CKR_MECHANISM_PARAM_INVALID);
	cp.pData = data;
	/* keys */
	ECB(&sd, sizeof(sd), noderive, CKK_AES, 16,
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	ECB(&sd, sizeof(sd), gen, CKK_AES, 16, CKR_KEY_TYPE_INCONSISTENT);
	ECB(&sd, sizeof(sd), 0, CKK_AES, 16, CKR_KEY_HANDLE_INVALID);
	ECB(&sd, sizeof(sd), 0x7fffff, CKK_AES, 16, CKR_KEY_HANDLE_INVALID);
	/* lengths: data of 16 bytes, keys longer; AES sizes */
	ECB(&sd, sizeof(sd), base, CKK_AES, 24, CKR_TEMPLATE_INCONSISTENT);
	ECB(&sd, sizeof(sd), base, CKK_GENERIC_SECRET, 17,
	    CKR_TEMPLATE_INCONSISTENT);
	sd.ulLen = 32;
	/* the object rules refuse an AES length before the mechanism */
	ECB(&sd, sizeof(sd), base, CKK_AES, 20, CKR_ATTRIBUTE_VALUE_INVALID);
	CBC(&cp, sizeof(cp), base, CKK_GENERIC_SECRET, 0x10000,
	    CKR_KEY_SIZE_RANGE);
	{
		/* data of 48 bytes: an AES key needs CKA_VALUE_LEN */
		uint8_t d48[48];
		CK_KEY_DERIVATION_STRING_DATA s48 = { d48, sizeof(d48) };

		memset(d48, 1, sizeof(d48));
		ECB(&s48, sizeof(s48), base, CKK_AES, 0, CKR_KEY_SIZE_RANGE);
	}
	/* template */
	assert_rv(p11->C_DeriveKey(h, &m, base, &pt, 1, &d),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(p11->C_DeriveKey(h, &m, base, NULL, 1, &d),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_DeriveKey(h, &m, base, NULL, 0, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_DeriveKey(h, NULL, base, NULL, 0, &d),
	    CKR_ARGUMENTS_BAD);
	/* allowed mechanisms */
	{
		CK_ATTRIBUTE lt[] = {
			{ CKA_CLASS, &c_sec, sizeof(c_sec) },
			{ CKA_KEY_TYPE, &k_aes, sizeof(k_aes) },
			{ CKA_VALUE, key, sizeof(key) },
			{ CKA_DERIVE, &yes, 1 },
			am,
		};
		CK_OBJECT_HANDLE limited;

		assert_rv(p11->C_CreateObject(h, lt, 5, &limited), CKR_OK);
		ECB(&sd, sizeof(sd), limited, CKK_AES, 16,
		    CKR_MECHANISM_INVALID);
		CBC(&cp, sizeof(cp), limited, CKK_AES, 16, CKR_OK);
		assert_int_equal(count_objects(), before + 2);
		assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
		assert_rv(p11->C_DestroyObject(h, limited), CKR_OK);
	}
	assert_int_equal(count_objects(), before);
#undef ECB
#undef CBC
}

static void
test_bad_hkdf(void **state)
{
	uint8_t ikm[32], salt[8], saltval[16];
	CK_HKDF_PARAMS ok = { CK_TRUE, CK_TRUE, CKM_SHA256, CKF_HKDF_SALT_DATA,
		salt, sizeof(salt), 0, NULL, 0 };
	CK_HKDF_PARAMS p;
	CK_OBJECT_HANDLE base, noderive, aes, shortk, saltk, d;
	CK_ULONG before;

	(void)state;
	pattern(ikm, sizeof(ikm), 30);
	pattern(salt, sizeof(salt), 31);
	pattern(saltval, sizeof(saltval), 32);
	base = secret(CKK_GENERIC_SECRET, ikm, sizeof(ikm), CK_TRUE);
	noderive = secret(CKK_GENERIC_SECRET, ikm, sizeof(ikm), CK_FALSE);
	aes = secret(CKK_AES, ikm, sizeof(ikm), CK_TRUE);
	shortk = secret(CKK_GENERIC_SECRET, ikm, 16, CK_TRUE);
	saltk = secret(CKK_AES, saltval, sizeof(saltval), CK_TRUE);
	before = count_objects();
#define HK(mech, pp, l, b, len, want)                                       \
	assert_rv(derive(mech, pp, l, b, CKK_GENERIC_SECRET, len, &d), want)
#define BAD(field, v)                                                       \
	do {                                                                \
		p = ok;                                                     \
		p.field = v;                                                \
		HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32,                \
		    CKR_MECHANISM_PARAM_INVALID);                           \
		HK(CKM_HKDF_DATA, &p, sizeof(p), base, 32,                  \
		    CKR_MECHANISM_PARAM_INVALID);                           \
	} while (0)
	HK(CKM_HKDF_DERIVE, NULL, sizeof(ok), base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	HK(CKM_HKDF_DERIVE, &ok, sizeof(ok) - 1, base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	HK(CKM_HKDF_DATA, &ok, 0, base, 32, CKR_MECHANISM_PARAM_INVALID);
	BAD(bExtract, 2);
	BAD(bExpand, 0x80);
	p = ok;
	p.bExtract = p.bExpand = CK_FALSE;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	BAD(prfHashMechanism, CKM_SHA256_HMAC);
	BAD(prfHashMechanism, CKM_AES_ECB);
	BAD(prfHashMechanism, CKM_VENDOR_DEFINED | 0x4242);
	BAD(ulSaltType, 0);
	BAD(ulSaltType, CKF_HKDF_SALT_NULL | CKF_HKDF_SALT_DATA);
	BAD(ulSaltType, 8);
	BAD(pSalt, NULL);
	BAD(ulSaltLen, 0);
	BAD(ulInfoLen, 5); /* with pInfo NULL */
	p = ok;
	p.ulSaltType = CKF_HKDF_SALT_KEY;
	p.hSaltKey = 0x7fffff;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	p.hSaltKey = saltk; /* an AES key */
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	p.hSaltKey = noderive; /* no CKA_DERIVE */
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32,
	    CKR_MECHANISM_PARAM_INVALID);
	p.hSaltKey = shortk;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32, CKR_OK);
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	/* with extract off, the salt is not looked at */
	p = ok;
	p.bExtract = CK_FALSE;
	p.ulSaltType = 0x55;
	p.pSalt = NULL;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 32, CKR_OK);
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	/* keys */
	HK(CKM_HKDF_DERIVE, &ok, sizeof(ok), noderive, 32,
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	HK(CKM_HKDF_DATA, &ok, sizeof(ok), noderive, 32,
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	HK(CKM_HKDF_DERIVE, &ok, sizeof(ok), aes, 32,
	    CKR_KEY_TYPE_INCONSISTENT);
	HK(CKM_HKDF_DERIVE, &ok, sizeof(ok), 0, 32, CKR_KEY_HANDLE_INVALID);
	/* lengths */
	assert_rv(derive(CKM_HKDF_DERIVE, &ok, sizeof(ok), base,
	    CKK_GENERIC_SECRET, 0, &d), CKR_TEMPLATE_INCOMPLETE);
	assert_rv(derive(CKM_HKDF_DATA, &ok, sizeof(ok), base, 0, 0, &d),
	    CKR_TEMPLATE_INCOMPLETE);
	HK(CKM_HKDF_DERIVE, &ok, sizeof(ok), base, 513, CKR_KEY_SIZE_RANGE);
	assert_rv(derive(CKM_HKDF_DATA, &ok, sizeof(ok), base, 0, 255 * 32 + 1,
	    &d), CKR_TEMPLATE_INCONSISTENT);
	assert_rv(derive(CKM_HKDF_DATA, &ok, sizeof(ok), base, 0, 255 * 32,
	    &d), CKR_OK);
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	assert_rv(derive(CKM_HKDF_DERIVE, &ok, sizeof(ok), base, CKK_AES, 20,
	    &d), CKR_ATTRIBUTE_VALUE_INVALID);
	p = ok;
	p.bExpand = CK_FALSE;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), base, 31, CKR_TEMPLATE_INCONSISTENT);
	HK(CKM_HKDF_DATA, &p, sizeof(p), base, 64, CKR_TEMPLATE_INCONSISTENT);
	p = ok;
	p.bExtract = CK_FALSE;
	HK(CKM_HKDF_DERIVE, &p, sizeof(p), shortk, 32, CKR_KEY_SIZE_RANGE);
	/* the data object's template */
	{
		CK_MECHANISM m = { CKM_HKDF_DATA, &ok, sizeof(ok) };
		CK_ULONG len = 16;
		uint8_t v[16] = { 0 };
		CK_ATTRIBUTE withval[] = {
			{ CKA_VALUE_LEN, &len, sizeof(len) },
			{ CKA_VALUE, v, sizeof(v) },
		};
		CK_ATTRIBUTE seccls[] = {
			{ CKA_VALUE_LEN, &len, sizeof(len) },
			{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		};
		CK_ATTRIBUTE badlen[] = {
			{ CKA_VALUE_LEN, &len, 1 },
		};

		assert_rv(p11->C_DeriveKey(h, &m, base, withval, 2, &d),
		    CKR_ATTRIBUTE_READ_ONLY);
		assert_rv(p11->C_DeriveKey(h, &m, base, seccls, 2, &d),
		    CKR_TEMPLATE_INCONSISTENT);
		assert_rv(p11->C_DeriveKey(h, &m, base, badlen, 1, &d),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
	assert_int_equal(count_objects(), before);
#undef BAD
#undef HK
}

/* The base key's CKA_DERIVE_TEMPLATE binds the new key; token objects
 * are kept and need a R/W session. */
static void
test_template_and_store(void **state)
{
	uint8_t key[16], data[16], got[16], ref[16];
	CK_KEY_DERIVATION_STRING_DATA sd = { data, sizeof(data) };
	CK_MECHANISM m = { CKM_AES_ECB_ENCRYPT_DATA, &sd, sizeof(sd) };
	CK_HKDF_PARAMS hp = { CK_TRUE, CK_TRUE, CKM_SHA256,
		CKF_HKDF_SALT_NULL, NULL, 0, 0, NULL, 0 };
	CK_MECHANISM hm = { CKM_HKDF_DATA, &hp, sizeof(hp) };
	CK_ULONG len = 16;
	CK_ATTRIBUTE dt[] = { { CKA_SENSITIVE, &yes, 1 } };
	CK_ATTRIBUTE bt[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_aes, sizeof(k_aes) },
		{ CKA_VALUE, key, sizeof(key) },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_DERIVE_TEMPLATE, dt, sizeof(dt) },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE ot[] = {
		{ CKA_CLASS, &c_data, sizeof(c_data) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_OBJECT_HANDLE bound, base, d;
	CK_SESSION_HANDLE ro;

	(void)state;
	pattern(key, sizeof(key), 40);
	pattern(data, sizeof(data), 41);
	assert_rv(p11->C_CreateObject(h, bt, 5, &bound), CKR_OK);
	/* the template says sensitive: a non-sensitive key is refused */
	assert_rv(p11->C_DeriveKey(h, &m, bound, kt, 4, &d),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(p11->C_DeriveKey(h, &m, bound, kt, 2, &d), CKR_OK);
	assert_int_equal(get_bool(d, CKA_SENSITIVE), CK_TRUE);
	/* again, the template now coming with the session's own copy of
	 * the key (token/keycache.c) */
	assert_rv(p11->C_DeriveKey(h, &m, bound, kt, 4, &d),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(p11->C_DeriveKey(h, &m, bound, kt, 2, &d), CKR_OK);
	assert_int_equal(get_bool(d, CKA_SENSITIVE), CK_TRUE);
	/* a token key and a token data object, read from another session */
	base = secret(CKK_AES, key, sizeof(key), CK_TRUE);
	assert_rv(p11->C_DeriveKey(h, &m, base, kt, 5, &d), CKR_OK);
	assert_int_equal(get_bool(d, CKA_TOKEN), CK_TRUE);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &ro), CKR_OK);
	{
		CK_ATTRIBUTE a = { CKA_VALUE, got, sizeof(got) };
		EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
		int n = 0;

		assert_rv(p11->C_GetAttributeValue(ro, d, &a, 1), CKR_OK);
		assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL,
		    key, NULL), 1);
		EVP_CIPHER_CTX_set_padding(c, 0);
		assert_int_equal(EVP_EncryptUpdate(c, ref, &n, data, 16), 1);
		EVP_CIPHER_CTX_free(c);
		assert_memory_equal(got, ref, 16);
	}
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	assert_rv(p11->C_DeriveKey(h, &hm, secret(CKK_GENERIC_SECRET, key,
	    sizeof(key), CK_TRUE), ot, 3, &d), CKR_OK);
	assert_int_equal(get_bool(d, CKA_TOKEN), CK_TRUE);
	assert_rv(p11->C_DestroyObject(h, d), CKR_OK);
	/* a read-only session keeps no token object */
	assert_rv(p11->C_DeriveKey(ro, &m, base, kt, 5, &d),
	    CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_DeriveKey(ro, &m, base, kt, 4, &d), CKR_OK);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
}

static void
test_mechanisms(void **state)
{
	static const CK_MECHANISM_TYPE ms[] = {
		CKM_AES_ECB_ENCRYPT_DATA, CKM_AES_CBC_ENCRYPT_DATA,
		CKM_HKDF_DERIVE, CKM_HKDF_DATA,
	};
	CK_MECHANISM_INFO info;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		assert_rv(p11->C_GetMechanismInfo(slot, ms[i], &info), CKR_OK);
		assert_true(info.flags & CKF_DERIVE);
		assert_false(info.flags & (CKF_ENCRYPT | CKF_SIGN));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_aes_encrypt_data,
		    derive_setup, derive_teardown),
		cmocka_unit_test_setup_teardown(test_aes_chain, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_history, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_bad_aes, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_bad_hkdf, derive_setup,
		    derive_teardown),
		cmocka_unit_test_setup_teardown(test_template_and_store,
		    derive_setup, derive_teardown),
		cmocka_unit_test_setup_teardown(test_mechanisms, derive_setup,
		    derive_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
