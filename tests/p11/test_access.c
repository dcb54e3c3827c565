/*
 * Access control through the function list (issue 18): who may copy a
 * trusted object, a private key's CKA_PUBLIC_KEY_INFO held to the key it
 * describes on C_CreateObject, C_SetAttributeValue and C_CopyObject, and
 * what a key's CKA_DERIVE_TEMPLATE imposes on the keys derived from it.
 * OpenSSL is the oracle for the SubjectPublicKeyInfo encodings and the
 * ECDH secret.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/cert_common.h"
#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY;
static CK_OBJECT_CLASS priv_class = CKO_PRIVATE_KEY;
static CK_KEY_TYPE generic = CKK_GENERIC_SECRET;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

/* A token with both PINs set and a R/W session logged in as the user. */
static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "access", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* Every object the session h2 can see. */
static CK_ULONG
count_objects(CK_SESSION_HANDLE h2)
{
	CK_OBJECT_HANDLE out[64];
	CK_ULONG count = 0, total = 0;

	assert_rv(p11->C_FindObjectsInit(h2, NULL, 0), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h2, out, 64, &count), CKR_OK);
		total += count;
	} while (count != 0);
	assert_rv(p11->C_FindObjectsFinal(h2), CKR_OK);
	return total;
}

static CK_BBOOL
get_bool(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_BBOOL b = 0x55;
	CK_ATTRIBUTE a = { type, &b, 1 };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	return b;
}

/* ------------------------------------------------- trusted objects */

static CK_RV
so_login(CK_SESSION_HANDLE h2)
{
	return p11->C_Login(h2, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN));
}

static CK_RV
user_login(CK_SESSION_HANDLE h2)
{
	return p11->C_Login(h2, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN));
}

/*
 * Only the SO makes a trusted certificate [§4.7, footnote 10]. A copy is
 * a new object, so a copy by anyone else would be a trusted certificate
 * the SO never made: C_CopyObject refuses it (CKR_ACTION_PROHIBITED) with
 * or without a new label. The SO's own copy stays trusted.
 */
static void
test_copy_trusted_cert(void **state)
{
	CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	CK_CERTIFICATE_TYPE ct = CKC_X_509;
	size_t len, len2;
	uint8_t *der = p11_cert_der("trusted CA", &len);
	uint8_t *der2 = p11_cert_der("plain", &len2);
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_CERTIFICATE_TYPE, &ct, sizeof(ct) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_LABEL, "CA", 2 },
		{ CKA_VALUE, der, len },
		{ CKA_TRUSTED, &yes, 1 },
	};
	CK_ATTRIBUTE relabel[] = { { CKA_LABEL, "mine", 4 } };
	CK_OBJECT_HANDLE ca, plain, copy = CK_INVALID_HANDLE;
	CK_SESSION_HANDLE pub_s;
	CK_ULONG before;

	(void)state;
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(so_login(h), CKR_OK);
	assert_rv(p11->C_CreateObject(h, t, 7, &ca), CKR_OK);
	assert_int_equal(get_bool(ca, CKA_TRUSTED), CK_TRUE);
	/* the SO's copies, with and without a new label, stay trusted */
	assert_rv(p11->C_CopyObject(h, ca, NULL, 0, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_CopyObject(h, ca, relabel, 1, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_Logout(h), CKR_OK);

	/* the user's copies are refused and make nothing */
	assert_rv(user_login(h), CKR_OK);
	before = count_objects(h);
	copy = CK_INVALID_HANDLE;
	assert_rv(p11->C_CopyObject(h, ca, NULL, 0, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_rv(p11->C_CopyObject(h, ca, relabel, 1, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_int_equal(count_objects(h), before);
	/* an untrusted certificate the user copies as before */
	t[5].pValue = der2;
	t[5].ulValueLen = len2;
	t[6].pValue = &no;
	assert_rv(p11->C_CreateObject(h, t, 7, &plain), CKR_OK);
	assert_rv(p11->C_CopyObject(h, plain, relabel, 1, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_FALSE);

	/* nor may a session nobody logged in to copy it */
	pub_s = p11_open(CKF_RW_SESSION);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_CopyObject(pub_s, ca, relabel, 1, &copy),
	    CKR_ACTION_PROHIBITED);
	assert_rv(p11->C_CloseSession(pub_s), CKR_OK);
	OPENSSL_free(der);
	OPENSSL_free(der2);
}

/* The same holds for a trusted public key (footnote 10 covers every
 * CKA_TRUSTED): the user's copy is refused, the SO's is trusted. */
static void
test_copy_trusted_key(void **state)
{
	CK_OBJECT_CLASS cls = CKO_PUBLIC_KEY;
	CK_KEY_TYPE ec = CKK_EC;
	EVP_PKEY *k = EVP_EC_gen("P-256");
	uint8_t point[67];
	size_t plen = 0;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_EC_POINT, point, sizeof(point) },
		{ CKA_TRUSTED, &yes, 1 },
	};
	CK_OBJECT_HANDLE o, copy;

	(void)state;
	assert_int_equal(EVP_PKEY_get_octet_string_param(k,
	    OSSL_PKEY_PARAM_PUB_KEY, point + 2, 65, &plen), 1);
	point[0] = 0x04;
	point[1] = 65;
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(so_login(h), CKR_OK);
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, &copy), CKR_OK);
	assert_int_equal(get_bool(copy, CKA_TRUSTED), CK_TRUE);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(user_login(h), CKR_OK);
	assert_rv(p11->C_CopyObject(h, o, NULL, 0, &copy),
	    CKR_ACTION_PROHIBITED);
	EVP_PKEY_free(k);
}

/* ------------------------------------------------ CKA_PUBLIC_KEY_INFO */

/* The DER SubjectPublicKeyInfo of k (free with OPENSSL_free). */
static uint8_t *
spki_of(EVP_PKEY *k, CK_ULONG *len)
{
	uint8_t *der = NULL;
	int n = i2d_PUBKEY(k, &der);

	assert_true(n > 0);
	*len = (CK_ULONG)n;
	return der;
}

/* Asserts that o's CKA_PUBLIC_KEY_INFO is want. */
static void
assert_spki(CK_OBJECT_HANDLE o, const uint8_t *want, CK_ULONG len)
{
	uint8_t info[4096];
	CK_ATTRIBUTE get = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };

	assert_rv(p11->C_GetAttributeValue(h, o, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, len);
	assert_memory_equal(info, want, len);
}

/*
 * A private key's CKA_PUBLIC_KEY_INFO must describe the key: given on
 * C_CreateObject, C_SetAttributeValue or C_CopyObject, a value that does
 * not is CKR_ATTRIBUTE_VALUE_INVALID [§4.11]; left out it is computed from
 * the key. The checks of one private key object, whose right SPKI is
 * good and a wrong one bad.
 */
static void
check_set_and_copy(CK_OBJECT_HANDLE priv, const uint8_t *good,
    CK_ULONG glen, const uint8_t *bad, CK_ULONG blen)
{
	CK_ATTRIBUTE s = { CKA_PUBLIC_KEY_INFO, (void *)bad, blen };
	CK_OBJECT_HANDLE copy = CK_INVALID_HANDLE;
	CK_ULONG before = count_objects(h);

	assert_rv(p11->C_SetAttributeValue(h, priv, &s, 1),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_spki(priv, good, glen);
	assert_rv(p11->C_CopyObject(h, priv, &s, 1, &copy),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_int_equal(count_objects(h), before);
	s.pValue = (void *)good;
	s.ulValueLen = glen;
	assert_rv(p11->C_SetAttributeValue(h, priv, &s, 1), CKR_OK);
	assert_spki(priv, good, glen);
	assert_rv(p11->C_CopyObject(h, priv, &s, 1, &copy), CKR_OK);
	assert_spki(copy, good, glen);
	/* empty: the token fills it in from the key again */
	s.pValue = NULL;
	s.ulValueLen = 0;
	assert_rv(p11->C_SetAttributeValue(h, priv, &s, 1), CKR_OK);
	assert_spki(priv, good, glen);
}

/* EC: an OpenSSL key imported by its scalar alone (no CKA_EC_POINT), and
 * with the point. */
static void
test_public_key_info_ec(void **state)
{
	CK_KEY_TYPE ec = CKK_EC;
	EVP_PKEY *k = EVP_EC_gen("P-256"), *other = EVP_EC_gen("P-256");
	BIGNUM *d = NULL;
	uint8_t scalar[32], point[67], *good, *bad;
	CK_ULONG glen, blen;
	size_t plen = 0;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &priv_class, sizeof(priv_class) },
		{ CKA_KEY_TYPE, &ec, sizeof(ec) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VALUE, scalar, sizeof(scalar) },
		{ CKA_PUBLIC_KEY_INFO, NULL, 0 },
		{ CKA_EC_POINT, point, sizeof(point) },
	};
	CK_OBJECT_HANDLE o;
	CK_ULONG before;

	(void)state;
	assert_int_equal(EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY,
	    &d), 1);
	assert_int_equal(BN_bn2binpad(d, scalar, 32), 32);
	assert_int_equal(EVP_PKEY_get_octet_string_param(k,
	    OSSL_PKEY_PARAM_PUB_KEY, point + 2, 65, &plen), 1);
	point[0] = 0x04;
	point[1] = 65;
	good = spki_of(k, &glen);
	bad = spki_of(other, &blen);

	/* none given: computed from the scalar */
	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	assert_spki(o, good, glen);
	/* the right one */
	t[4].pValue = good;
	t[4].ulValueLen = glen;
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	assert_spki(o, good, glen);
	/* another key's, without and with the point */
	before = count_objects(h);
	t[4].pValue = bad;
	t[4].ulValueLen = blen;
	assert_rv(p11->C_CreateObject(h, t, 5, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_rv(p11->C_CreateObject(h, t, 6, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	assert_int_equal(count_objects(h), before);

	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	check_set_and_copy(o, good, glen, bad, blen);
	BN_clear_free(d);
	OPENSSL_free(good);
	OPENSSL_free(bad);
	EVP_PKEY_free(k);
	EVP_PKEY_free(other);
}

/* One RSA key component as big-endian bytes into buf. */
static CK_ULONG
rsa_part(EVP_PKEY *k, const char *name, uint8_t *buf)
{
	BIGNUM *b = NULL;
	int n;

	assert_int_equal(EVP_PKEY_get_bn_param(k, name, &b), 1);
	n = BN_bn2bin(b, buf);
	BN_clear_free(b);
	assert_true(n > 0);
	return (CK_ULONG)n;
}

/* RSA: an OpenSSL key imported with its CRT parts. */
static void
test_public_key_info_rsa(void **state)
{
	CK_KEY_TYPE rsa = CKK_RSA;
	EVP_PKEY *k = EVP_RSA_gen(2048), *other = EVP_EC_gen("P-256");
	uint8_t n[256], e[8], dd[256], p[128], q[128], dp[128], dq[128];
	uint8_t qi[128], *good, *bad;
	CK_ULONG glen, blen;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &priv_class, sizeof(priv_class) },
		{ CKA_KEY_TYPE, &rsa, sizeof(rsa) },
		{ CKA_MODULUS, n, 0 },
		{ CKA_PUBLIC_EXPONENT, e, 0 },
		{ CKA_PRIVATE_EXPONENT, dd, 0 },
		{ CKA_PRIME_1, p, 0 },
		{ CKA_PRIME_2, q, 0 },
		{ CKA_EXPONENT_1, dp, 0 },
		{ CKA_EXPONENT_2, dq, 0 },
		{ CKA_COEFFICIENT, qi, 0 },
		{ CKA_PUBLIC_KEY_INFO, NULL, 0 },
	};
	CK_OBJECT_HANDLE o;

	(void)state;
	assert_non_null(k);
	t[2].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_N, n);
	t[3].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_E, e);
	t[4].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_D, dd);
	t[5].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_FACTOR1, p);
	t[6].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_FACTOR2, q);
	t[7].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp);
	t[8].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq);
	t[9].ulValueLen = rsa_part(k, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qi);
	good = spki_of(k, &glen);
	bad = spki_of(other, &blen);

	assert_rv(p11->C_CreateObject(h, t, 10, &o), CKR_OK);
	assert_spki(o, good, glen);
	t[10].pValue = good;
	t[10].ulValueLen = glen;
	assert_rv(p11->C_CreateObject(h, t, 11, &o), CKR_OK);
	t[10].pValue = bad;
	t[10].ulValueLen = blen;
	assert_rv(p11->C_CreateObject(h, t, 11, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	/* the right algorithm, another exponent (65536) */
	good[glen - 1] ^= 1;
	t[10].pValue = good;
	assert_rv(p11->C_CreateObject(h, t, 11, &o),
	    CKR_ATTRIBUTE_VALUE_INVALID);
	good[glen - 1] ^= 1;

	assert_rv(p11->C_CreateObject(h, t, 10, &o), CKR_OK);
	check_set_and_copy(o, good, glen, bad, blen);
	OPENSSL_free(good);
	OPENSSL_free(bad);
	EVP_PKEY_free(k);
	EVP_PKEY_free(other);
}

/*
 * A key type OpenSSL 3.0 cannot encode (ML-DSA, ML-KEM) or that the token
 * generates (Ed25519, X25519): the oracle is the token's public key,
 * whose SPKI comes from its CKA_VALUE. A generated private key, and
 * private keys imported by each of the parts in imports alone (for the
 * lattice keys their seed and their expanded key).
 */
static void
check_generated_pki(CK_MECHANISM_TYPE gen, CK_KEY_TYPE kt,
    CK_ATTRIBUTE param, const CK_ATTRIBUTE_TYPE *imports, size_t nimp)
{
	CK_MECHANISM m = { gen, NULL, 0 };
	CK_ATTRIBUTE gt[] = {
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	static uint8_t part[4096], good[2048], bad[128];
	CK_ATTRIBUTE iget = { CKA_PUBLIC_KEY_INFO, good, sizeof(good) };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &priv_class, sizeof(priv_class) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		param,
		{ 0, part, sizeof(part) },
		{ CKA_PUBLIC_KEY_INFO, NULL, 0 },
	};
	EVP_PKEY *other = EVP_EC_gen("P-256");
	uint8_t *o_spki;
	CK_OBJECT_HANDLE pub, priv, o;
	CK_ULONG glen, blen;
	size_t i;

	assert_rv(p11->C_GenerateKeyPair(h, &m, &param, 1, gt, 2, &pub,
	    &priv), CKR_OK);
	assert_rv(p11->C_GetAttributeValue(h, pub, &iget, 1), CKR_OK);
	glen = iget.ulValueLen;
	o_spki = spki_of(other, &blen);
	memcpy(bad, o_spki, blen);
	OPENSSL_free(o_spki);

	/* the generated private key has its public key's SPKI */
	assert_spki(priv, good, glen);
	for (i = 0; i < nimp; i++) {
		t[3].type = imports[i];
		t[3].pValue = part;
		t[3].ulValueLen = sizeof(part);
		assert_rv(p11->C_GetAttributeValue(h, priv, &t[3], 1),
		    CKR_OK);
		t[4].pValue = NULL;
		t[4].ulValueLen = 0;
		assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
		assert_spki(o, good, glen);
		t[4].pValue = good;
		t[4].ulValueLen = glen;
		assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
		good[glen - 1] ^= 1;
		assert_rv(p11->C_CreateObject(h, t, 5, &o),
		    CKR_ATTRIBUTE_VALUE_INVALID);
		good[glen - 1] ^= 1;
		t[4].pValue = bad;
		t[4].ulValueLen = blen;
		assert_rv(p11->C_CreateObject(h, t, 5, &o),
		    CKR_ATTRIBUTE_VALUE_INVALID);
	}
	check_set_and_copy(priv, good, glen, bad, blen);
	EVP_PKEY_free(other);
}

/* ML-DSA-44 by seed and by expanded key. */
static void
test_public_key_info_mldsa(void **state)
{
	static const CK_ATTRIBUTE_TYPE parts[] = { CKA_SEED, CKA_VALUE };
	CK_ULONG set = CKP_ML_DSA_44;
	CK_ATTRIBUTE p = { CKA_PARAMETER_SET, &set, sizeof(set) };

	(void)state;
	check_generated_pki(CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, p, parts,
	    2);
}

/* The key types added after issue 18: Ed25519, X25519 (each by its
 * private scalar), ML-KEM-768 (by seed and by decapsulation key). */
static void
test_public_key_info_later_types(void **state)
{
	static const CK_ATTRIBUTE_TYPE value[] = { CKA_VALUE };
	static const CK_ATTRIBUTE_TYPE lattice[] = { CKA_SEED, CKA_VALUE };
	static const uint8_t ed[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
	static const uint8_t x[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };
	CK_ULONG set = CKP_ML_KEM_768;
	CK_ATTRIBUTE ped = { CKA_EC_PARAMS, (void *)ed, sizeof(ed) };
	CK_ATTRIBUTE px = { CKA_EC_PARAMS, (void *)x, sizeof(x) };
	CK_ATTRIBUTE pk = { CKA_PARAMETER_SET, &set, sizeof(set) };

	(void)state;
	check_generated_pki(CKM_EC_EDWARDS_KEY_PAIR_GEN, CKK_EC_EDWARDS, ped,
	    value, 1);
	check_generated_pki(CKM_EC_MONTGOMERY_KEY_PAIR_GEN,
	    CKK_EC_MONTGOMERY, px, value, 1);
	check_generated_pki(CKM_ML_KEM_KEY_PAIR_GEN, CKK_ML_KEM, pk, lattice,
	    2);
}

/* ------------------------------------------------ CKA_DERIVE_TEMPLATE */

/* A P-256 key pair for ECDH; the private key carries the derive template
 * dt (n entries, none when 0) and is a token object if token. */
static void
ecdh_pair(CK_ATTRIBUTE *dt, CK_ULONG n, CK_BBOOL token,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = { { CKA_EC_PARAMS, (void *)p256, sizeof(p256) } };
	CK_ATTRIBUTE kt[] = {
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_TOKEN, &token, 1 },
		{ CKA_DERIVE_TEMPLATE, dt, n * sizeof(CK_ATTRIBUTE) },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 1, kt, n ? 3 : 2, pub,
	    priv), CKR_OK);
}

/* An OpenSSL peer for ECDH with pub: its raw point, and the shared
 * x-coordinate. */
static void
ecdh_peer(CK_OBJECT_HANDLE pub, uint8_t point[65], uint8_t want[32])
{
	uint8_t ec_point[67];
	CK_ATTRIBUTE a = { CKA_EC_POINT, ec_point, sizeof(ec_point) };
	EVP_PKEY *peer = EVP_EC_gen("P-256"), *mine = NULL;
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM *p;
	size_t plen = 0, wlen = 32;

	assert_rv(p11->C_GetAttributeValue(h, pub, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, 67);
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
	    "prime256v1", 0);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY,
	    ec_point + 2, 65);
	p = OSSL_PARAM_BLD_to_param(b);
	assert_int_equal(EVP_PKEY_fromdata_init(c), 1);
	assert_int_equal(EVP_PKEY_fromdata(c, &mine, EVP_PKEY_PUBLIC_KEY, p),
	    1);
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(b);
	EVP_PKEY_CTX_free(c);

	assert_int_equal(EVP_PKEY_get_octet_string_param(peer,
	    OSSL_PKEY_PARAM_PUB_KEY, point, 65, &plen), 1);
	assert_int_equal(plen, 65);
	c = EVP_PKEY_CTX_new(peer, NULL);
	assert_int_equal(EVP_PKEY_derive_init(c), 1);
	assert_int_equal(EVP_PKEY_derive_set_peer(c, mine), 1);
	assert_int_equal(EVP_PKEY_derive(c, want, &wlen), 1);
	assert_int_equal(wlen, 32);
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(mine);
	EVP_PKEY_free(peer);
}

/* C_DeriveKey with CKM_ECDH1_DERIVE, CKD_NULL against point. */
static CK_RV
ecdh(CK_OBJECT_HANDLE base, uint8_t point[65], CK_ATTRIBUTE *t,
    CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 65, point };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };

	return p11->C_DeriveKey(h, &m, base, t, n, out);
}

/*
 * The base key's CKA_DERIVE_TEMPLATE is added to the caller's template
 * [PKCS#11 3.2 §5.18.5]: an attribute the caller leaves out takes the
 * derive template's value, one the caller gives differently is a
 * conflict (CKR_TEMPLATE_INCONSISTENT, nothing created), one the caller
 * gives the same is fine.
 */
static void
test_derive_template(void **state)
{
	CK_ATTRIBUTE dt[] = {
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
		{ CKA_LABEL, "from-template", 13 },
	};
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &generic, sizeof(generic) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	uint8_t point[65], want[32], got[32], label[32];
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_ATTRIBUTE lget = { CKA_LABEL, label, sizeof(label) };
	CK_ATTRIBUTE relabel[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &generic, sizeof(generic) },
		{ CKA_LABEL, NULL, 0 },
	};
	CK_OBJECT_HANDLE pub, base, z;
	CK_ULONG before;

	(void)state;
	/* a token key: its derive template makes the trip through the
	 * database */
	ecdh_pair(dt, 3, CK_TRUE, &pub, &base);
	ecdh_peer(pub, point, want);

	/* SENSITIVE and EXTRACTABLE left out: the derive template's. */
	assert_rv(ecdh(base, point, t, 2, &z), CKR_OK);
	assert_int_equal(get_bool(z, CKA_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(z, CKA_EXTRACTABLE), CK_FALSE);
	assert_int_equal(get_bool(z, CKA_ALWAYS_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(z, CKA_NEVER_EXTRACTABLE), CK_TRUE);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
	assert_int_equal(get.ulValueLen, CK_UNAVAILABLE_INFORMATION);
	assert_rv(p11->C_GetAttributeValue(h, z, &lget, 1), CKR_OK);
	assert_int_equal(lget.ulValueLen, 13);
	assert_memory_equal(label, "from-template", 13);

	/* A conflict creates nothing. */
	before = count_objects(h);
	z = CK_INVALID_HANDLE;
	assert_rv(ecdh(base, point, t, 3, &z), CKR_TEMPLATE_INCONSISTENT);
	t[2].pValue = &yes;
	assert_rv(ecdh(base, point, t, 4, &z), CKR_TEMPLATE_INCONSISTENT);
	relabel[2].pValue = "other";
	relabel[2].ulValueLen = 5;
	assert_rv(ecdh(base, point, relabel, 3, &z),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(count_objects(h), before);

	/* Agreeing values are taken once. */
	t[3].pValue = &no;
	assert_rv(ecdh(base, point, t, 4, &z), CKR_OK);
	assert_int_equal(count_objects(h), before + 1);
	assert_int_equal(get_bool(z, CKA_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(z, CKA_EXTRACTABLE), CK_FALSE);
	get.ulValueLen = sizeof(got);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
}

/* The case of issue 18: a derive template of CKA_SENSITIVE alone, and a
 * caller who asks for an extractable key and says nothing of
 * sensitivity, got a key whose value could be read. */
static void
test_derive_template_sensitive_only(void **state)
{
	CK_ATTRIBUTE dt[] = { { CKA_SENSITIVE, &yes, 1 } };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &generic, sizeof(generic) },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	uint8_t point[65], want[32], got[32];
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_OBJECT_HANDLE pub, base, z;

	(void)state;
	ecdh_pair(dt, 1, CK_FALSE, &pub, &base);
	ecdh_peer(pub, point, want);
	assert_rv(ecdh(base, point, t, 3, &z), CKR_OK);
	assert_int_equal(get_bool(z, CKA_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(z, CKA_EXTRACTABLE), CK_TRUE);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
}

/* Without a derive template nothing changes: the caller's template
 * alone, and the value OpenSSL derives. A derive template of another key
 * type than the caller asks for is a conflict too. */
static void
test_derive_no_template(void **state)
{
	CK_KEY_TYPE aes = CKK_AES;
	CK_ATTRIBUTE dt[] = { { CKA_KEY_TYPE, &aes, sizeof(aes) } };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &generic, sizeof(generic) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	uint8_t point[65], want[32], got[32];
	CK_ATTRIBUTE get = { CKA_VALUE, got, sizeof(got) };
	CK_OBJECT_HANDLE pub, base, z;

	(void)state;
	ecdh_pair(NULL, 0, CK_FALSE, &pub, &base);
	ecdh_peer(pub, point, want);
	assert_rv(ecdh(base, point, t, 4, &z), CKR_OK);
	assert_int_equal(get_bool(z, CKA_SENSITIVE), CK_FALSE);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1), CKR_OK);
	assert_int_equal(get.ulValueLen, 32);
	assert_memory_equal(got, want, 32);

	ecdh_pair(dt, 1, CK_TRUE, &pub, &base);
	ecdh_peer(pub, point, want);
	assert_rv(ecdh(base, point, t, 4, &z), CKR_TEMPLATE_INCONSISTENT);
	/* the key type from the derive template: an AES key of 32 bytes */
	assert_rv(ecdh(base, point, t, 1, &z), CKR_OK);
	get.ulValueLen = sizeof(got);
	assert_rv(p11->C_GetAttributeValue(h, z, &get, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_trusted_cert, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_copy_trusted_key, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_public_key_info_ec, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_public_key_info_rsa, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_public_key_info_mldsa,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_public_key_info_later_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_derive_template, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_derive_template_sensitive_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_derive_no_template, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
