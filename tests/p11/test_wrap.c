/*
 * C_WrapKey and C_UnwrapKey through the function list [PKCS#11 3.2
 * §5.18.3, §5.18.4]: AES key wrap (KW) and key wrap with padding (KWP)
 * against OpenSSL's EVP_aes_*_wrap and _wrap_pad; RSA-OAEP with OpenSSL
 * encrypting what the token unwraps; round trips of every key kind
 * (secret keys of each length, RSA, EC P-256 and ML-DSA private keys as
 * PKCS #8, checked by OpenSSL where it can read them), where the
 * unwrapped key must sign or MAC as the original does; every refusal
 * with its CK_RV; tampered and truncated wrapped keys; the wrap and
 * unwrap templates; the history attributes of unwrapped keys; the
 * session and login rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"
#include "vgtoken/vgtoken.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY,
    private_class = CKO_PRIVATE_KEY, public_class = CKO_PUBLIC_KEY;
static CK_KEY_TYPE aes_type = CKK_AES,
    rsa_type = CKK_RSA, ec_type = CKK_EC, mldsa_type = CKK_ML_DSA;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };
static CK_MECHANISM kw = { CKM_AES_KEY_WRAP, NULL, 0 };
static CK_MECHANISM kwp = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "wrap", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* ------------------------------------------------------------ helpers */

/* n bytes of a pattern that depends on seed. */
static void
pattern(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 37 + i * 11 + 5);
}

static CK_ULONG
count_objects(void)
{
	CK_OBJECT_HANDLE out[64];
	CK_ULONG count = 0, total = 0;

	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	do {
		assert_rv(p11->C_FindObjects(h, out, 64, &count), CKR_OK);
		total += count;
	} while (count != 0);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return total;
}

/* A secret key with value v (len bytes): extractable, not sensitive,
 * usable for everything; extra entries appended (t holds 16). */
static CK_OBJECT_HANDLE
secret_ex(CK_KEY_TYPE kt, const uint8_t *v, size_t len,
    const CK_ATTRIBUTE *extra, CK_ULONG nextra)
{
	CK_ATTRIBUTE t[16] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, NULL, sizeof(CK_KEY_TYPE) },
		{ CKA_VALUE, (void *)v, len },
	};
	CK_ATTRIBUTE defaults[] = {
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_WRAP, &yes, 1 },
		{ CKA_UNWRAP, &yes, 1 },
	};
	CK_ULONG n = 3, i, j;
	CK_OBJECT_HANDLE o;

	t[1].pValue = &kt;
	/* the defaults the extra entries do not name */
	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		for (j = 0; j < nextra; j++)
			if (extra[j].type == defaults[i].type)
				break;
		if (j == nextra)
			t[n++] = defaults[i];
	}
	assert_true(n + nextra <= 16);
	if (nextra != 0)
		memcpy(t + n, extra, nextra * sizeof(*extra));
	assert_rv(p11->C_CreateObject(h, t, n + nextra, &o), CKR_OK);
	return o;
}

static CK_OBJECT_HANDLE
secret(CK_KEY_TYPE kt, const uint8_t *v, size_t len)
{
	return secret_ex(kt, v, len, NULL, 0);
}

/* An AES key of len bytes of pattern seed (a wrapping key). */
static CK_OBJECT_HANDLE
kek(size_t len, unsigned seed, uint8_t *value)
{
	uint8_t v[32];

	pattern(v, len, seed);
	if (value != NULL)
		memcpy(value, v, len);
	return secret(CKK_AES, v, len);
}

/* C_WrapKey with a length query first; asserts success and returns the
 * length. */
static CK_ULONG
wrap(CK_MECHANISM *m, CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE k, uint8_t *out,
    size_t cap)
{
	CK_ULONG n = 0, n2;

	assert_rv(p11->C_WrapKey(h, m, w, k, NULL, &n), CKR_OK);
	assert_true(n > 0 && n <= cap);
	n2 = cap;
	assert_rv(p11->C_WrapKey(h, m, w, k, out, &n2), CKR_OK);
	assert_int_equal(n2, n);
	return n;
}

static CK_RV
unwrap_ex(CK_MECHANISM *m, CK_OBJECT_HANDLE u, const uint8_t *in,
    size_t len, CK_ATTRIBUTE *t, CK_ULONG n, CK_OBJECT_HANDLE *out)
{
	*out = CK_INVALID_HANDLE;
	return p11->C_UnwrapKey(h, m, u, (CK_BYTE_PTR)in, len, t, n, out);
}

/* Unwraps as a secret key of type kt, extractable and readable, usable
 * for MACs. */
static CK_RV
unwrap_secret(CK_MECHANISM *m, CK_OBJECT_HANDLE u, const uint8_t *in,
    size_t len, CK_KEY_TYPE kt, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
	};

	return unwrap_ex(m, u, in, len, t, 5, out);
}

/* Unwraps as a private key of type kt that signs. */
static CK_RV
unwrap_private(CK_MECHANISM *m, CK_OBJECT_HANDLE u, const uint8_t *in,
    size_t len, CK_KEY_TYPE kt, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &private_class, sizeof(private_class) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};

	return unwrap_ex(m, u, in, len, t, 4, out);
}

/* An attribute's value into buf (cap bytes); returns its length. */
static CK_ULONG
get_attr(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type, void *buf, size_t cap)
{
	CK_ATTRIBUTE a = { type, buf, cap };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	return a.ulValueLen;
}

static CK_BBOOL
get_bool(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_BBOOL b = 0xa5;

	assert_int_equal(get_attr(o, type, &b, 1), 1);
	return b;
}

/* Asserts that objects a and b have the same value of type. */
static void
same_attr(CK_OBJECT_HANDLE a, CK_OBJECT_HANDLE b, CK_ATTRIBUTE_TYPE type)
{
	static uint8_t va[8192], vb[8192];
	CK_ULONG la = get_attr(a, type, va, sizeof(va));
	CK_ULONG lb = get_attr(b, type, vb, sizeof(vb));

	assert_int_equal(la, lb);
	assert_memory_equal(va, vb, la);
}

/* A signature (or MAC) of msg with key k; returns its length. */
static CK_ULONG
sign(CK_MECHANISM *m, CK_OBJECT_HANDLE k, const void *msg, size_t len,
    uint8_t *sig, size_t cap)
{
	CK_ULONG n = cap;

	assert_rv(p11->C_SignInit(h, m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)msg, len, sig, &n), CKR_OK);
	return n;
}

/* OpenSSL's KW or KWP of in under key (cipher EVP_aes_*_wrap[_pad]);
 * dir 1 wraps, 0 unwraps. Returns the output length, or -1. */
static const EVP_CIPHER *
ossl_kw(size_t keylen, int pad)
{
	if (keylen == 16)
		return pad ? EVP_aes_128_wrap_pad() : EVP_aes_128_wrap();
	if (keylen == 24)
		return pad ? EVP_aes_192_wrap_pad() : EVP_aes_192_wrap();
	return pad ? EVP_aes_256_wrap_pad() : EVP_aes_256_wrap();
}

/* An RSA key pair of 2048 bits on the token; the private key extractable
 * as asked. */
static void
rsa_pair(CK_BBOOL extractable, CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG bits = 2048;
	CK_ATTRIBUTE pt[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_WRAP, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_UNWRAP, &yes, 1 },
		{ CKA_EXTRACTABLE, &extractable, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 3, kt, 4, pub, priv),
	    CKR_OK);
}

static void
ec_pair(CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 4, pub, priv),
	    CKR_OK);
}

static void
mldsa_pair(CK_ULONG set, CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 3, pub, priv),
	    CKR_OK);
}

/* The token's RSA public key as an OpenSSL key. */
static EVP_PKEY *
ossl_rsa_pub(CK_OBJECT_HANDLE pub)
{
	uint8_t n[512], e[16];
	CK_ULONG nl = get_attr(pub, CKA_MODULUS, n, sizeof(n));
	CK_ULONG el = get_attr(pub, CKA_PUBLIC_EXPONENT, e, sizeof(e));
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	BIGNUM *bn = BN_bin2bn(n, (int)nl, NULL), *be = BN_bin2bn(e, (int)el,
	    NULL);
	EVP_PKEY *k = NULL;
	OSSL_PARAM *p;

	assert_non_null(b);
	assert_non_null(c);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bn);
	OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, be);
	p = OSSL_PARAM_BLD_to_param(b);
	assert_int_equal(EVP_PKEY_fromdata_init(c), 1);
	assert_int_equal(EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p), 1);
	OSSL_PARAM_free(p);
	OSSL_PARAM_BLD_free(b);
	EVP_PKEY_CTX_free(c);
	BN_free(bn);
	BN_free(be);
	return k;
}

/* The PKCS #8 DER of an OpenSSL key (free with OPENSSL_free). */
static int
ossl_pkcs8(EVP_PKEY *k, uint8_t **der)
{
	PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(k);
	int n;

	assert_non_null(p8);
	*der = NULL;
	n = i2d_PKCS8_PRIV_KEY_INFO(p8, der);
	PKCS8_PRIV_KEY_INFO_free(p8);
	assert_true(n > 0);
	return n;
}

/* Verifies with OpenSSL a signature made by the token. */
static int
ossl_verifies(EVP_PKEY *k, const char *md, const void *msg, size_t len,
    const uint8_t *sig, size_t siglen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok;

	ok = EVP_DigestVerifyInit(c, NULL, EVP_get_digestbyname(md), NULL,
	    k) == 1 && EVP_DigestVerify(c, sig, siglen, msg, len) == 1;
	EVP_MD_CTX_free(c);
	return ok;
}

/* An ECDSA signature r || s as DER, for OpenSSL. */
static size_t
ecdsa_der(const uint8_t *rs, uint8_t *der)
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	uint8_t *p = der;
	int n;

	ECDSA_SIG_set0(es, BN_bin2bn(rs, 32, NULL), BN_bin2bn(rs + 32, 32,
	    NULL));
	n = i2d_ECDSA_SIG(es, &p);
	ECDSA_SIG_free(es);
	assert_true(n > 0);
	return (size_t)n;
}

static const uint8_t msg[] = "the message both keys sign";

/* ------------------------------------------------------------ mechanisms */

/* The wrapping mechanisms are listed with CKF_WRAP and CKF_UNWRAP;
 * CKM_AES_KEY_WRAP_PAD, PKCS #7 padding in the specification, is not
 * offered under that number for RFC 5649. */
static void
test_mechanism_info(void **state)
{
	static const struct {
		CK_MECHANISM_TYPE m;
		CK_FLAGS flags;
		CK_ULONG min, max;
	} want[] = {
		{ CKM_AES_KEY_WRAP, CKF_WRAP | CKF_UNWRAP, 16, 32 },
		{ CKM_AES_KEY_WRAP_KWP, CKF_WRAP | CKF_UNWRAP, 16, 32 },
		{ CKM_RSA_PKCS_OAEP, CKF_ENCRYPT | CKF_DECRYPT | CKF_WRAP |
		    CKF_UNWRAP, 1024, 4096 },
		{ CKM_AES_ECB, CKF_ENCRYPT | CKF_DECRYPT | CKF_WRAP |
		    CKF_UNWRAP, 16, 32 },
		{ CKM_AES_CBC_PAD, CKF_ENCRYPT | CKF_DECRYPT | CKF_WRAP |
		    CKF_UNWRAP, 16, 32 },
	};
	CK_MECHANISM_TYPE list[256];
	CK_MECHANISM_INFO mi;
	CK_ULONG n = 256, i, j;

	(void)state;
	assert_rv(p11->C_GetMechanismList(slot, list, &n), CKR_OK);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_rv(p11->C_GetMechanismInfo(slot, want[i].m, &mi),
		    CKR_OK);
		assert_int_equal(mi.flags, want[i].flags);
		assert_int_equal(mi.ulMinKeySize, want[i].min);
		assert_int_equal(mi.ulMaxKeySize, want[i].max);
		for (j = 0; j < n && list[j] != want[i].m; j++)
			;
		assert_true(j < n);
	}
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_AES_KEY_WRAP_PAD, &mi),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_AES_KEY_WRAP_PKCS7, &mi),
	    CKR_MECHANISM_INVALID);
	/* no other mechanism wraps, and none but these unwraps */
	for (j = 0; j < n; j++) {
		assert_rv(p11->C_GetMechanismInfo(slot, list[j], &mi), CKR_OK);
		if (mi.flags & (CKF_WRAP | CKF_UNWRAP))
			assert_true(list[j] == CKM_AES_KEY_WRAP ||
			    list[j] == CKM_AES_KEY_WRAP_KWP ||
			    list[j] == CKM_RSA_PKCS_OAEP ||
			    list[j] == CKM_AES_ECB ||
			    list[j] == CKM_AES_CBC_PAD);
	}
}

/* ------------------------------------------------------------ AES */

/*
 * KW and KWP give OpenSSL's bytes for the same key and value (AES-128,
 * -192 and -256 wrapping keys), OpenSSL's wrapped keys unwrap to the
 * value, and the two-call output convention holds [§5.2].
 */
static void
test_aes_openssl(void **state)
{
	static const size_t keklens[] = { 16, 24, 32 };
	uint8_t kv[32], v[40], out[64], want[64];
	CK_OBJECT_HANDLE w, k, u;
	CK_ULONG n, i;
	int wn;

	(void)state;
	for (i = 0; i < 3; i++) {
		w = kek(keklens[i], (unsigned)i, kv);
		/* KW of an AES-256 key */
		pattern(v, 32, 100 + (unsigned)i);
		k = secret(CKK_AES, v, 32);
		n = wrap(&kw, w, k, out, sizeof(out));
		assert_int_equal(n, 40);
		wn = p11_evp_wrap(ossl_kw(keklens[i], 0), kv, v, 32, want, 1);
		assert_int_equal(wn, 40);
		assert_memory_equal(out, want, 40);
		/* KWP of a 21-byte generic secret */
		k = secret(CKK_GENERIC_SECRET, v, 21);
		n = wrap(&kwp, w, k, out, sizeof(out));
		assert_int_equal(n, 32);
		wn = p11_evp_wrap(ossl_kw(keklens[i], 1), kv, v, 21, want, 1);
		assert_int_equal(wn, 32);
		assert_memory_equal(out, want, 32);
		/* OpenSSL's KWP of 37 bytes unwraps here */
		pattern(v, 37, 200 + (unsigned)i);
		wn = p11_evp_wrap(ossl_kw(keklens[i], 1), kv, v, 37, want, 1);
		assert_int_equal(wn, 48);
		assert_rv(unwrap_secret(&kwp, w, want, 48, CKK_GENERIC_SECRET,
		    &u), CKR_OK);
		assert_int_equal(get_attr(u, CKA_VALUE, out, sizeof(out)), 37);
		assert_memory_equal(out, v, 37);
	}

	/* the output convention: a length query, a short buffer (left
	 * alone), the exact buffer */
	w = kek(32, 9, NULL);
	k = secret(CKK_AES, v, 16);
	n = 0;
	assert_rv(p11->C_WrapKey(h, &kw, w, k, NULL, &n), CKR_OK);
	assert_int_equal(n, 24);
	memset(out, 0x5a, sizeof(out));
	n = 23;
	assert_rv(p11->C_WrapKey(h, &kw, w, k, out, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 24);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a);
	n = 0;
	assert_rv(p11->C_WrapKey(h, &kw, w, k, out, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 24);
	n = sizeof(out);
	assert_rv(p11->C_WrapKey(h, &kw, w, k, out, &n), CKR_OK);
	assert_int_equal(n, 24);
	assert_int_equal(out[24], 0x5a);
}

/*
 * Round trips of secret keys: AES keys of each size and generic secrets
 * under KW (multiples of 8) and KWP (any length), with wrapping keys of
 * each size. The unwrapped key has the value, the check value and the
 * MACs of the original.
 */
static void
test_secret_round_trips(void **state)
{
	static const size_t keklens[] = { 16, 24, 32 };
	static const struct {
		CK_MECHANISM *m;
		CK_KEY_TYPE kt;
		size_t len;
	} keys[] = {
		{ &kw, CKK_AES, 16 }, { &kw, CKK_AES, 24 }, { &kw, CKK_AES, 32 },
		{ &kw, CKK_GENERIC_SECRET, 16 },
		{ &kw, CKK_GENERIC_SECRET, 64 },
		{ &kwp, CKK_AES, 16 }, { &kwp, CKK_AES, 24 },
		{ &kwp, CKK_AES, 32 }, { &kwp, CKK_GENERIC_SECRET, 1 },
		{ &kwp, CKK_GENERIC_SECRET, 7 },
		{ &kwp, CKK_GENERIC_SECRET, 8 },
		{ &kwp, CKK_GENERIC_SECRET, 9 },
		{ &kwp, CKK_GENERIC_SECRET, 33 },
		{ &kwp, CKK_GENERIC_SECRET, 200 },
	};
	CK_MECHANISM hmac = { CKM_SHA256_HMAC, NULL, 0 };
	uint8_t v[200], blob[256], got[256], mac1[32], mac2[32];
	CK_OBJECT_HANDLE w, k, u;
	size_t i, j;
	CK_ULONG n;

	(void)state;
	for (i = 0; i < 3; i++) {
		w = kek(keklens[i], 40 + (unsigned)i, NULL);
		for (j = 0; j < sizeof(keys) / sizeof(keys[0]); j++) {
			pattern(v, keys[j].len, (unsigned)(i * 100 + j));
			k = secret(keys[j].kt, v, keys[j].len);
			n = wrap(keys[j].m, w, k, blob, sizeof(blob));
			assert_int_equal(n, ((keys[j].len + 7) & ~7u) + 8);
			assert_rv(unwrap_secret(keys[j].m, w, blob, n,
			    keys[j].kt, &u), CKR_OK);
			assert_int_equal(get_attr(u, CKA_VALUE, got,
			    sizeof(got)), keys[j].len);
			assert_memory_equal(got, v, keys[j].len);
			same_attr(k, u, CKA_VALUE_LEN);
			same_attr(k, u, CKA_CHECK_VALUE);
			if (keys[j].kt != CKK_GENERIC_SECRET)
				continue;
			sign(&hmac, k, msg, sizeof(msg), mac1, 32);
			sign(&hmac, u, msg, sizeof(msg), mac2, 32);
			assert_memory_equal(mac1, mac2, 32);
		}
	}
}

/* ------------------------------------------------------------ RSA-OAEP */

/*
 * RSA-OAEP wraps secret keys: round trips with SHA-1, SHA-256 and a
 * label; OpenSSL's OAEP encryption of a value under the token's public
 * key unwraps to it; a changed byte anywhere in the wrapped key is
 * CKR_WRAPPED_KEY_INVALID and makes nothing; and the refusals of the
 * mechanism.
 */
static void
test_oaep(void **state)
{
	CK_RSA_PKCS_OAEP_PARAMS p = { CKM_SHA256, CKG_MGF1_SHA256, 0, NULL,
		0 };
	CK_MECHANISM m = { CKM_RSA_PKCS_OAEP, &p, sizeof(p) };
	CK_OBJECT_HANDLE pub, priv, k, u, w;
	uint8_t v[200], blob[256], got[64];
	EVP_PKEY *pk;
	EVP_PKEY_CTX *c;
	size_t olen, i;
	CK_ULONG n, before;

	(void)state;
	rsa_pair(CK_FALSE, &pub, &priv);
	pattern(v, 32, 1);
	k = secret(CKK_AES, v, 32);
	n = wrap(&m, pub, k, blob, sizeof(blob));
	assert_int_equal(n, 256);
	assert_rv(unwrap_secret(&m, priv, blob, n, CKK_AES, &u), CKR_OK);
	assert_int_equal(get_attr(u, CKA_VALUE, got, sizeof(got)), 32);
	assert_memory_equal(got, v, 32);
	/* SHA-1 (what libp11 uses), and a label */
	p.hashAlg = CKM_SHA_1;
	p.mgf = CKG_MGF1_SHA1;
	n = wrap(&m, pub, k, blob, sizeof(blob));
	assert_rv(unwrap_secret(&m, priv, blob, n, CKK_AES, &u), CKR_OK);
	same_attr(k, u, CKA_VALUE);
	p.hashAlg = CKM_SHA256;
	p.mgf = CKG_MGF1_SHA256;
	p.source = CKZ_DATA_SPECIFIED;
	p.pSourceData = (CK_BYTE_PTR)"label";
	p.ulSourceDataLen = 5;
	n = wrap(&m, pub, k, blob, sizeof(blob));
	assert_rv(unwrap_secret(&m, priv, blob, n, CKK_AES, &u), CKR_OK);
	same_attr(k, u, CKA_VALUE);
	/* the label is bound: another one does not unwrap */
	p.pSourceData = (CK_BYTE_PTR)"lab3l";
	assert_rv(unwrap_secret(&m, priv, blob, n, CKK_AES, &u),
	    CKR_WRAPPED_KEY_INVALID);
	p.source = 0;
	p.pSourceData = NULL;
	p.ulSourceDataLen = 0;

	/* OpenSSL encrypts, the token unwraps */
	pk = ossl_rsa_pub(pub);
	c = EVP_PKEY_CTX_new(pk, NULL);
	pattern(v, 24, 77);
	olen = sizeof(blob);
	assert_int_equal(EVP_PKEY_encrypt_init(c), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(c,
	    RSA_PKCS1_OAEP_PADDING), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha256()), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()), 1);
	assert_int_equal(EVP_PKEY_encrypt(c, blob, &olen, v, 24), 1);
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(pk);
	assert_rv(unwrap_secret(&m, priv, blob, olen, CKK_AES, &u), CKR_OK);
	assert_int_equal(get_attr(u, CKA_VALUE, got, sizeof(got)), 24);
	assert_memory_equal(got, v, 24);

	/* every changed byte is caught, and nothing is made */
	before = count_objects();
	for (i = 0; i < olen; i++) {
		blob[i] ^= 0x10;
		assert_rv(unwrap_secret(&m, priv, blob, olen, CKK_AES, &u),
		    CKR_WRAPPED_KEY_INVALID);
		assert_int_equal(u, CK_INVALID_HANDLE);
		blob[i] ^= 0x10;
	}
	assert_int_equal(count_objects(), before);
	assert_rv(unwrap_secret(&m, priv, blob, olen - 1, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&m, priv, blob, 0, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);

	/* the keys: public wraps, private unwraps; secret keys only, and
	 * no longer than the padding leaves room for (256 - 66 bytes) */
	assert_rv(p11->C_WrapKey(h, &m, priv, k, NULL, &n),
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT);
	assert_rv(unwrap_secret(&m, pub, blob, olen, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT);
	w = kek(32, 3, NULL);
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n),
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT);
	assert_rv(unwrap_secret(&m, w, blob, olen, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT);
	{
		CK_OBJECT_HANDLE xpub, xpriv;

		rsa_pair(CK_TRUE, &xpub, &xpriv);
		assert_rv(p11->C_WrapKey(h, &m, pub, xpriv, NULL, &n),
		    CKR_KEY_NOT_WRAPPABLE);
		assert_rv(p11->C_WrapKey(h, &m, pub, xpub, NULL, &n),
		    CKR_KEY_NOT_WRAPPABLE);
	}
	k = secret(CKK_GENERIC_SECRET, v, 190);
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n), CKR_OK);
	k = secret(CKK_GENERIC_SECRET, v, 191);
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n), CKR_KEY_SIZE_RANGE);
	/* an OAEP secret key unwrapped as a private key: no */
	assert_rv(unwrap_private(&m, priv, blob, olen, CKK_RSA, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	/* parameters */
	m.ulParameterLen = sizeof(p) - 1;
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	assert_rv(unwrap_secret(&m, priv, blob, olen, CKK_AES, &u),
	    CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = sizeof(p);
	p.hashAlg = CKM_SHA3_256;
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	p.hashAlg = CKM_SHA256;
	m.pParameter = NULL;
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n), CKR_ARGUMENTS_BAD);
}

/* ------------------------------------------------------------ private */

/* KWP of private key k under w, decrypted by OpenSSL: the PKCS #8 DER in
 * der (cap bytes); returns its length. */
static size_t
wrapped_pkcs8(CK_OBJECT_HANDLE w, const uint8_t *kv, CK_OBJECT_HANDLE k,
    uint8_t *der, size_t cap)
{
	static uint8_t blob[8192];
	CK_ULONG n = wrap(&kwp, w, k, blob, sizeof(blob));
	int dn;

	assert_true(n - 8 <= cap);
	dn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, blob, n, der, 0);
	assert_true(dn > 0);
	return (size_t)dn;
}

/* OpenSSL's PKCS #8 of k wrapped with KWP under kv, for the token. */
static CK_ULONG
ossl_wrapped(EVP_PKEY *k, const uint8_t *kv, uint8_t *blob)
{
	uint8_t *der;
	int n = ossl_pkcs8(k, &der), wn;

	wn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, der, (size_t)n, blob, 1);
	OPENSSL_free(der);
	assert_true(wn > 0);
	return (CK_ULONG)wn;
}

/*
 * RSA private keys as PKCS #8 under KWP: OpenSSL reads what the token
 * wraps (the same modulus, every CRT part), the unwrapped key signs as
 * the original does (PKCS #1 v1.5 is deterministic); a key OpenSSL made
 * unwraps on the token and signs for OpenSSL; a key the token holds as
 * (n, e, d) only is wrapped with its CRT parts recovered.
 */
static void
test_private_rsa(void **state)
{
	CK_MECHANISM sm = { CKM_SHA256_RSA_PKCS, NULL, 0 };
	static uint8_t der[4096], blob[4096], n1[512], n2[512];
	uint8_t kv[32], sig1[256], sig2[256];
	CK_OBJECT_HANDLE w, pub, priv, u;
	const unsigned char *q;
	EVP_PKEY *ok;
	BIGNUM *bn = NULL;
	size_t dlen;
	CK_ULONG n, l1;
	int l2;

	(void)state;
	w = kek(32, 5, kv);
	rsa_pair(CK_TRUE, &pub, &priv);
	dlen = wrapped_pkcs8(w, kv, priv, der, sizeof(der));
	q = der;
	ok = d2i_AutoPrivateKey(NULL, &q, (long)dlen);
	assert_non_null(ok);
	assert_ptr_equal(q, der + dlen);
	assert_int_equal(EVP_PKEY_get_base_id(ok), EVP_PKEY_RSA);
	assert_int_equal(EVP_PKEY_get_bn_param(ok, OSSL_PKEY_PARAM_RSA_N,
	    &bn), 1);
	l1 = get_attr(priv, CKA_MODULUS, n1, sizeof(n1));
	l2 = BN_bn2bin(bn, n2);
	assert_int_equal(l1, (CK_ULONG)l2);
	assert_memory_equal(n1, n2, l1);
	BN_free(bn);
	bn = NULL;
	assert_int_equal(EVP_PKEY_get_bn_param(ok,
	    OSSL_PKEY_PARAM_RSA_FACTOR1, &bn), 1);
	l1 = get_attr(priv, CKA_PRIME_1, n1, sizeof(n1));
	l2 = BN_bn2bin(bn, n2);
	assert_int_equal(l1, (CK_ULONG)l2);
	assert_memory_equal(n1, n2, l1);
	BN_free(bn);

	/* the unwrapped key signs as the original, and for OpenSSL */
	n = wrap(&kwp, w, priv, blob, sizeof(blob));
	assert_rv(unwrap_private(&kwp, w, blob, n, CKK_RSA, &u), CKR_OK);
	sign(&sm, priv, msg, sizeof(msg), sig1, sizeof(sig1));
	sign(&sm, u, msg, sizeof(msg), sig2, sizeof(sig2));
	assert_memory_equal(sig1, sig2, 256);
	assert_true(ossl_verifies(ok, "SHA256", msg, sizeof(msg), sig2, 256));
	same_attr(priv, u, CKA_MODULUS);
	same_attr(priv, u, CKA_PUBLIC_KEY_INFO);
	EVP_PKEY_free(ok);

	/* a key OpenSSL made */
	ok = EVP_RSA_gen(2048);
	assert_non_null(ok);
	n = ossl_wrapped(ok, kv, blob);
	assert_rv(unwrap_private(&kwp, w, blob, n, CKK_RSA, &u), CKR_OK);
	sign(&sm, u, msg, sizeof(msg), sig2, sizeof(sig2));
	assert_true(ossl_verifies(ok, "SHA256", msg, sizeof(msg), sig2, 256));

	/* a key held as (n, e, d) leaves with its CRT parts */
	{
		static uint8_t nn[256], e[4], d[256];
		CK_ULONG nl, el, dl;
		CK_ATTRIBUTE t[] = {
			{ CKA_CLASS, &private_class, sizeof(private_class) },
			{ CKA_KEY_TYPE, &rsa_type, sizeof(rsa_type) },
			{ CKA_MODULUS, nn, 0 },
			{ CKA_PUBLIC_EXPONENT, e, 0 },
			{ CKA_PRIVATE_EXPONENT, d, 0 },
			{ CKA_EXTRACTABLE, &yes, 1 },
			{ CKA_SIGN, &yes, 1 },
		};
		CK_OBJECT_HANDLE ned, u2;
		BIGNUM *b = NULL;

		assert_int_equal(EVP_PKEY_get_bn_param(ok,
		    OSSL_PKEY_PARAM_RSA_N, &b), 1);
		nl = (CK_ULONG)BN_bn2bin(b, nn);
		BN_free(b);
		b = NULL;
		assert_int_equal(EVP_PKEY_get_bn_param(ok,
		    OSSL_PKEY_PARAM_RSA_E, &b), 1);
		el = (CK_ULONG)BN_bn2bin(b, e);
		BN_free(b);
		b = NULL;
		assert_int_equal(EVP_PKEY_get_bn_param(ok,
		    OSSL_PKEY_PARAM_RSA_D, &b), 1);
		dl = (CK_ULONG)BN_bn2bin(b, d);
		BN_clear_free(b);
		t[2].ulValueLen = nl;
		t[3].ulValueLen = el;
		t[4].ulValueLen = dl;
		assert_rv(p11->C_CreateObject(h, t, 7, &ned), CKR_OK);
		n = wrap(&kwp, w, ned, blob, sizeof(blob));
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_RSA, &u2),
		    CKR_OK);
		same_attr(u, u2, CKA_PRIME_1);
		same_attr(u, u2, CKA_PRIME_2);
		same_attr(u, u2, CKA_COEFFICIENT);
	}
	EVP_PKEY_free(ok);

	/* KW does not take private keys (the encoding is seldom a
	 * multiple of 8 bytes, and padding it is KWP's job) */
	assert_rv(p11->C_WrapKey(h, &kw, w, priv, NULL, &n),
	    CKR_KEY_NOT_WRAPPABLE);
}

/*
 * EC P-256 private keys: the PKCS #8 of §6.7 (the curve in the algorithm
 * identifier only, the public point in the ECPrivateKey), read by
 * OpenSSL; the unwrapped key has the original's point and signs for it;
 * OpenSSL's encodings, with and without the public point, unwrap.
 */
static void
test_private_ec(void **state)
{
	CK_MECHANISM sm = { CKM_ECDSA_SHA256, NULL, 0 };
	/* PrivateKeyInfo of a P-256 key, up to the scalar, then the
	 * [1] publicKey of the ECPrivateKey */
	static const uint8_t head[] = { 0x30, 0x81, 0x87, 0x02, 0x01, 0x00,
		0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02,
		0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
		0x07, 0x04, 0x6d, 0x30, 0x6b, 0x02, 0x01, 0x01, 0x04, 0x20 };
	static const uint8_t pubhead[] = { 0xa1, 0x44, 0x03, 0x42, 0x00 };
	uint8_t kv[32], der[256], blob[256], pt[67], point[65], sig[64],
	    sder[80];
	CK_OBJECT_HANDLE w, pub, priv, u;
	const unsigned char *q;
	EVP_PKEY *ok;
	size_t dlen, plen = 0, sl;
	CK_ULONG n;

	(void)state;
	w = kek(32, 6, kv);
	ec_pair(&pub, &priv);
	dlen = wrapped_pkcs8(w, kv, priv, der, sizeof(der));
	assert_int_equal(dlen, sizeof(head) + 32 + sizeof(pubhead) + 65);
	assert_memory_equal(der, head, sizeof(head));
	assert_memory_equal(der + sizeof(head) + 32, pubhead,
	    sizeof(pubhead));
	assert_int_equal(get_attr(pub, CKA_EC_POINT, pt, sizeof(pt)), 67);
	assert_memory_equal(der + sizeof(head) + 32 + sizeof(pubhead),
	    pt + 2, 65);
	q = der;
	ok = d2i_AutoPrivateKey(NULL, &q, (long)dlen);
	assert_non_null(ok);
	assert_int_equal(EVP_PKEY_get_octet_string_param(ok,
	    OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point), &plen), 1);
	assert_int_equal(plen, 65);
	assert_memory_equal(point, pt + 2, 65);

	/* unwrapped: the same key, signing for the original's public key */
	n = wrap(&kwp, w, priv, blob, sizeof(blob));
	assert_rv(unwrap_private(&kwp, w, blob, n, CKK_EC, &u), CKR_OK);
	same_attr(priv, u, CKA_EC_POINT);
	same_attr(priv, u, CKA_EC_PARAMS);
	same_attr(priv, u, CKA_PUBLIC_KEY_INFO);
	same_attr(priv, u, CKA_VALUE);
	sign(&sm, u, msg, sizeof(msg), sig, sizeof(sig));
	assert_rv(p11->C_VerifyInit(h, &sm, pub), CKR_OK);
	assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)msg, sizeof(msg), sig, 64),
	    CKR_OK);
	sl = ecdsa_der(sig, sder);
	assert_true(ossl_verifies(ok, "SHA256", msg, sizeof(msg), sder, sl));
	EVP_PKEY_free(ok);
	/* and derives the original's secrets */
	{
		CK_ATTRIBUTE dt[] = {
			{ CKA_CLASS, &private_class, sizeof(private_class) },
			{ CKA_KEY_TYPE, &ec_type, sizeof(ec_type) },
			{ CKA_DERIVE, &yes, 1 },
		};
		CK_ECDH1_DERIVE_PARAMS ep = { CKD_NULL, 0, NULL, 65, NULL };
		CK_MECHANISM dm = { CKM_ECDH1_DERIVE, &ep, sizeof(ep) };
		CK_ATTRIBUTE st[] = {
			{ CKA_CLASS, &secret_class, sizeof(secret_class) },
			{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
			{ CKA_SENSITIVE, &no, 1 },
			{ CKA_EXTRACTABLE, &yes, 1 },
		};
		CK_OBJECT_HANDLE d1, d2, pub2, priv2;

		ec_pair(&pub2, &priv2);
		assert_int_equal(get_attr(pub2, CKA_EC_POINT, pt, sizeof(pt)),
		    67);
		ep.pPublicData = pt + 2;
		assert_rv(unwrap_ex(&kwp, w, blob, n, dt, 3, &u), CKR_OK);
		assert_rv(p11->C_DeriveKey(h, &dm, u, st, 4, &d1), CKR_OK);
		assert_rv(p11->C_DeriveKey(h, &dm, priv, st, 4, &d2), CKR_OK);
		same_attr(d1, d2, CKA_VALUE);
		/* and the peer the same from the other side */
		assert_int_equal(get_attr(pub, CKA_EC_POINT, pt, sizeof(pt)),
		    67);
		assert_rv(p11->C_DeriveKey(h, &dm, priv2, st, 4, &d2), CKR_OK);
		same_attr(d1, d2, CKA_VALUE);
	}

	/* OpenSSL's own PKCS #8, with the public point and without */
	ok = EVP_EC_gen("P-256");
	assert_non_null(ok);
	assert_int_equal(EVP_PKEY_get_octet_string_param(ok,
	    OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point), &plen), 1);
	n = ossl_wrapped(ok, kv, blob);
	assert_rv(unwrap_private(&kwp, w, blob, n, CKK_EC, &u), CKR_OK);
	assert_int_equal(get_attr(u, CKA_EC_POINT, pt, sizeof(pt)), 67);
	assert_memory_equal(pt + 2, point, 65);
	sign(&sm, u, msg, sizeof(msg), sig, sizeof(sig));
	sl = ecdsa_der(sig, sder);
	assert_true(ossl_verifies(ok, "SHA256", msg, sizeof(msg), sder, sl));
	assert_int_equal(EVP_PKEY_set_int_param(ok,
	    OSSL_PKEY_PARAM_EC_INCLUDE_PUBLIC, 0), 1);
	n = ossl_wrapped(ok, kv, blob);
	assert_rv(unwrap_private(&kwp, w, blob, n, CKK_EC, &u), CKR_OK);
	assert_int_equal(get_attr(u, CKA_EC_POINT, pt, sizeof(pt)), 67);
	assert_memory_equal(pt + 2, point, 65);
	EVP_PKEY_free(ok);

	/* a public point that is not the scalar's: the wrapped key is not
	 * one the token takes */
	dlen = wrapped_pkcs8(w, kv, priv, der, sizeof(der));
	der[dlen - 1] ^= 1;
	{
		int wn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, der, dlen,
		    blob, 1);

		assert_true(wn > 0);
		assert_rv(unwrap_private(&kwp, w, blob, (CK_ULONG)wn, CKK_EC,
		    &u), CKR_WRAPPED_KEY_INVALID);
	}
}

/* A PKCS #8 of an ML-DSA key made by hand (OpenSSL 3.0 has no ML-DSA):
 * inner is the ML-DSA-PrivateKey CHOICE; returns the length. */
static size_t
mldsa_pkcs8(CK_ULONG set, const uint8_t *inner, size_t ilen, uint8_t *out)
{
	uint8_t oct[4];
	size_t olen = p11_der_header(oct, 0x04, ilen), n;

	n = p11_der_header(out, 0x30, 3 + 13 + olen + ilen);
	memcpy(out + n, "\x02\x01\x00\x30\x0b\x06\x09\x60\x86\x48\x01\x65"
	    "\x03\x04\x03", 15);
	n += 15;
	out[n++] = (uint8_t)(0x11 + set - CKP_ML_DSA_44);
	memcpy(out + n, oct, olen);
	n += olen;
	memcpy(out + n, inner, ilen);
	return n + ilen;
}

/*
 * ML-DSA private keys: a key with a seed travels as the seed arm of RFC
 * 9881's CHOICE, one without as its expanded key; each unwraps to a key
 * that signs (deterministically) as the original; the "both" arm
 * OpenSSL 3.5 writes by default is taken, and refused when its two
 * halves disagree.
 */
static void
test_private_mldsa(void **state)
{
	static const CK_ULONG sets[] = { CKP_ML_DSA_44, CKP_ML_DSA_65,
		CKP_ML_DSA_87 };
	static const size_t sklens[] = { 2560, 4032, 4896 };
	static uint8_t der[8192], blob[8192], sk[4896], inner[5000],
	    sig1[4627], sig2[4627];
	CK_SIGN_ADDITIONAL_CONTEXT a = { CKH_DETERMINISTIC_REQUIRED, NULL, 0 };
	CK_MECHANISM sm = { CKM_ML_DSA, &a, sizeof(a) };
	uint8_t kv[32], seed[32];
	CK_OBJECT_HANDLE w, pub, priv, u, vonly;
	size_t dlen, i;
	CK_ULONG n, sl;
	int wn;

	(void)state;
	w = kek(32, 7, kv);
	for (i = 0; i < 3; i++) {
		mldsa_pair(sets[i], &pub, &priv);
		/* the seed arm: 04 22 80 20 seed, under id-ml-dsa-* */
		dlen = wrapped_pkcs8(w, kv, priv, der, sizeof(der));
		assert_int_equal(dlen, 2 + 3 + 13 + 2 + 34);
		assert_int_equal(der[17], 0x11 + i);
		assert_memory_equal(der + 18, "\x04\x22\x80\x20", 4);
		assert_int_equal(get_attr(priv, CKA_SEED, seed, sizeof(seed)),
		    32);
		assert_memory_equal(der + 22, seed, 32);
		n = wrap(&kwp, w, priv, blob, sizeof(blob));
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_ML_DSA, &u),
		    CKR_OK);
		same_attr(priv, u, CKA_PARAMETER_SET);
		same_attr(priv, u, CKA_SEED);
		same_attr(priv, u, CKA_PUBLIC_KEY_INFO);
		/* the vendor key type of vgtoken/vgtoken.h is the same */
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_VG_ML_DSA, &u),
		    CKR_OK);
		same_attr(priv, u, CKA_SEED);
		sl = sign(&sm, priv, msg, sizeof(msg), sig1, sizeof(sig1));
		assert_int_equal(sign(&sm, u, msg, sizeof(msg), sig2,
		    sizeof(sig2)), sl);
		assert_memory_equal(sig1, sig2, sl);

		/* a key without its seed: the expanded key */
		assert_int_equal(get_attr(priv, CKA_VALUE, sk, sizeof(sk)),
		    sklens[i]);
		{
			CK_ULONG set = sets[i];
			CK_ATTRIBUTE t[] = {
				{ CKA_CLASS, &private_class,
				    sizeof(private_class) },
				{ CKA_KEY_TYPE, &mldsa_type,
				    sizeof(mldsa_type) },
				{ CKA_PARAMETER_SET, &set, sizeof(set) },
				{ CKA_VALUE, sk, sklens[i] },
				{ CKA_EXTRACTABLE, &yes, 1 },
				{ CKA_SENSITIVE, &no, 1 },
				{ CKA_SIGN, &yes, 1 },
			};

			assert_rv(p11->C_CreateObject(h, t, 7, &vonly), CKR_OK);
		}
		dlen = wrapped_pkcs8(w, kv, vonly, der, sizeof(der));
		assert_int_equal(dlen, 4 + 3 + 13 + 4 + 4 + sklens[i]);
		assert_int_equal(der[24], 0x04);
		assert_memory_equal(der + 28, sk, sklens[i]);
		n = wrap(&kwp, w, vonly, blob, sizeof(blob));
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_ML_DSA, &u),
		    CKR_OK);
		same_attr(vonly, u, CKA_VALUE);
		assert_int_equal(sign(&sm, u, msg, sizeof(msg), sig2,
		    sizeof(sig2)), sl);
		assert_memory_equal(sig1, sig2, sl);

		/* both, as OpenSSL 3.5 writes it */
		inner[0] = 0x30;
		inner[1] = 0x82;
		inner[2] = (uint8_t)((34 + 4 + sklens[i]) >> 8);
		inner[3] = (uint8_t)(34 + 4 + sklens[i]);
		memcpy(inner + 4, "\x04\x20", 2);
		memcpy(inner + 6, seed, 32);
		memcpy(inner + 38, "\x04\x82", 2);
		inner[40] = (uint8_t)(sklens[i] >> 8);
		inner[41] = (uint8_t)sklens[i];
		memcpy(inner + 42, sk, sklens[i]);
		dlen = mldsa_pkcs8(sets[i], inner, 42 + sklens[i], der);
		wn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, der, dlen,
		    blob, 1);
		assert_true(wn > 0);
		assert_rv(unwrap_private(&kwp, w, blob, (CK_ULONG)wn,
		    CKK_ML_DSA, &u), CKR_OK);
		same_attr(priv, u, CKA_SEED);
		same_attr(priv, u, CKA_VALUE);
		assert_int_equal(sign(&sm, u, msg, sizeof(msg), sig2,
		    sizeof(sig2)), sl);
		assert_memory_equal(sig1, sig2, sl);
		/* whose seed is not the expanded key's */
		inner[6] ^= 1;
		dlen = mldsa_pkcs8(sets[i], inner, 42 + sklens[i], der);
		wn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, der, dlen,
		    blob, 1);
		assert_rv(unwrap_private(&kwp, w, blob, (CK_ULONG)wn,
		    CKK_ML_DSA, &u), CKR_WRAPPED_KEY_INVALID);
		/* a seed of 31 bytes */
		memcpy(inner, "\x80\x1f", 2);
		memcpy(inner + 2, seed, 31);
		dlen = mldsa_pkcs8(sets[i], inner, 33, der);
		wn = p11_evp_wrap(EVP_aes_256_wrap_pad(), kv, der, dlen,
		    blob, 1);
		assert_rv(unwrap_private(&kwp, w, blob, (CK_ULONG)wn,
		    CKK_ML_DSA, &u), CKR_WRAPPED_KEY_INVALID);
	}
}

/* ------------------------------------------------------------ refusals */

/*
 * The refusals of §5.18.3 and §5.18.4 for the keys: usage, types, sizes,
 * handles, extractability, allowed mechanisms, parameters.
 */
static void
test_refusals(void **state)
{
	static const uint8_t kw_iv[8] = { 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6,
		0xa6, 0xa6 };
	static const uint8_t kwp_iv[4] = { 0xa6, 0x59, 0x59, 0xa6 };
	uint8_t v[64], blob[128], other[8];
	CK_OBJECT_HANDLE w, k, u, gen, pub, priv, data, nowrap, dead;
	CK_MECHANISM_TYPE only_kwp = CKM_AES_KEY_WRAP_KWP;
	CK_MECHANISM m = { CKM_AES_KEY_WRAP, NULL, 0 };
	CK_OBJECT_CLASS dc = CKO_DATA;
	CK_ATTRIBUTE dt[] = { { CKA_CLASS, &dc, sizeof(dc) } };
	CK_ATTRIBUTE no_wrap[] = { { CKA_WRAP, &no, 1 },
		{ CKA_UNWRAP, &no, 1 } };
	CK_ATTRIBUTE not_extractable[] = { { CKA_EXTRACTABLE, &no, 1 } };
	CK_ATTRIBUTE allowed[] = { { CKA_ALLOWED_MECHANISMS, &only_kwp,
		sizeof(only_kwp) } };
	CK_ULONG n;

	(void)state;
	pattern(v, 64, 3);
	w = kek(32, 8, NULL);
	k = secret(CKK_AES, v, 32);
	n = wrap(&kw, w, k, blob, sizeof(blob));

	/* CKA_WRAP and CKA_UNWRAP */
	nowrap = secret_ex(CKK_AES, v, 32, no_wrap, 2);
	assert_rv(p11->C_WrapKey(h, &kw, nowrap, k, NULL, &n),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(unwrap_secret(&kw, nowrap, blob, 40, CKK_AES, &u),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	/* wrapping keys of the wrong type, and handles that name none */
	gen = secret(CKK_GENERIC_SECRET, v, 32);
	assert_rv(p11->C_WrapKey(h, &kw, gen, k, NULL, &n),
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT);
	assert_rv(unwrap_secret(&kwp, gen, blob, 40, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT);
	rsa_pair(CK_TRUE, &pub, &priv);
	assert_rv(p11->C_WrapKey(h, &kw, pub, k, NULL, &n),
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT);
	assert_rv(unwrap_secret(&kw, priv, blob, 40, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_CreateObject(h, dt, 1, &data), CKR_OK);
	assert_rv(p11->C_WrapKey(h, &kw, data, k, NULL, &n),
	    CKR_WRAPPING_KEY_HANDLE_INVALID);
	assert_rv(unwrap_secret(&kw, data, blob, 40, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_HANDLE_INVALID);
	dead = secret(CKK_AES, v, 16);
	assert_rv(p11->C_DestroyObject(h, dead), CKR_OK);
	assert_rv(p11->C_WrapKey(h, &kw, dead, k, NULL, &n),
	    CKR_WRAPPING_KEY_HANDLE_INVALID);
	assert_rv(unwrap_secret(&kw, dead, blob, 40, CKK_AES, &u),
	    CKR_UNWRAPPING_KEY_HANDLE_INVALID);
	/* the key to wrap: a handle that names no key, a data object, a
	 * public key, an unextractable key, a size KW cannot take */
	assert_rv(p11->C_WrapKey(h, &kw, w, dead, NULL, &n),
	    CKR_KEY_HANDLE_INVALID);
	assert_rv(p11->C_WrapKey(h, &kw, w, data, NULL, &n),
	    CKR_KEY_HANDLE_INVALID);
	assert_rv(p11->C_WrapKey(h, &kwp, w, pub, NULL, &n),
	    CKR_KEY_NOT_WRAPPABLE);
	u = secret_ex(CKK_AES, v, 32, not_extractable, 1);
	assert_rv(p11->C_WrapKey(h, &kw, w, u, NULL, &n),
	    CKR_KEY_UNEXTRACTABLE);
	assert_rv(p11->C_WrapKey(h, &kw, w, secret(CKK_GENERIC_SECRET, v, 20),
	    NULL, &n), CKR_KEY_SIZE_RANGE);
	assert_rv(p11->C_WrapKey(h, &kw, w, secret(CKK_GENERIC_SECRET, v, 8),
	    NULL, &n), CKR_KEY_SIZE_RANGE);
	assert_rv(p11->C_WrapKey(h, &kwp, w, secret(CKK_GENERIC_SECRET, v, 20),
	    NULL, &n), CKR_OK);
	/* CKA_ALLOWED_MECHANISMS of the wrapping key */
	u = secret_ex(CKK_AES, v, 32, allowed, 1);
	assert_rv(p11->C_WrapKey(h, &kw, u, k, NULL, &n),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11->C_WrapKey(h, &kwp, u, k, NULL, &n), CKR_OK);
	assert_rv(unwrap_secret(&kw, u, blob, 40, CKK_AES, &w),
	    CKR_MECHANISM_INVALID);
	w = kek(32, 8, NULL);

	/* mechanisms: not a wrapping one; RFC 5649 is not answered under
	 * CKM_AES_KEY_WRAP_PAD */
	m.mechanism = CKM_SHA256_HMAC;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n), CKR_MECHANISM_INVALID);
	m.mechanism = CKM_AES_KEY_WRAP_PAD;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n), CKR_MECHANISM_INVALID);
	assert_rv(unwrap_secret(&m, w, blob, 40, CKK_AES, &u),
	    CKR_MECHANISM_INVALID);
	m.mechanism = CKM_RSA_PKCS;
	assert_rv(p11->C_WrapKey(h, &m, pub, k, NULL, &n),
	    CKR_MECHANISM_INVALID);
	/* the initial value: the default one only, of the mechanism's size
	 * [§6.16] */
	m.mechanism = CKM_AES_KEY_WRAP;
	m.pParameter = (void *)kw_iv;
	m.ulParameterLen = 8;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n), CKR_OK);
	assert_rv(unwrap_secret(&m, w, blob, 40, CKK_AES, &u), CKR_OK);
	memcpy(other, kw_iv, 8);
	other[7] = 0;
	m.pParameter = other;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	m.pParameter = (void *)kwp_iv;
	m.ulParameterLen = 4;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	m.mechanism = CKM_AES_KEY_WRAP_KWP;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n), CKR_OK);
	m.ulParameterLen = 8;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	m.pParameter = NULL;
	assert_rv(p11->C_WrapKey(h, &m, w, k, NULL, &n), CKR_ARGUMENTS_BAD);
	/* arguments */
	assert_rv(p11->C_WrapKey(h, NULL, w, k, NULL, &n), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_WrapKey(h, &kw, w, k, NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_UnwrapKey(h, &kw, w, NULL, 40, NULL, 0, &u),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_UnwrapKey(h, &kw, w, blob, 40, NULL, 2, &u),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_UnwrapKey(h, &kw, w, blob, 40, NULL, 0, NULL),
	    CKR_ARGUMENTS_BAD);
}

/*
 * CKA_WRAP_WITH_TRUSTED: such a key is wrapped only under a wrapping key
 * with CKA_TRUSTED, which only the SO sets [§4.2 footnote 10].
 */
static void
test_trusted(void **state)
{
	uint8_t v[32], kv[32], blob[64];
	CK_ATTRIBUTE wwt[] = { { CKA_WRAP_WITH_TRUSTED, &yes, 1 } };
	CK_ATTRIBUTE tt[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_VALUE, kv, 32 },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_TRUSTED, &yes, 1 },
		{ CKA_WRAP, &yes, 1 },
	};
	CK_OBJECT_HANDLE w, k, trusted, u;
	CK_ULONG n;

	(void)state;
	pattern(v, 32, 11);
	pattern(kv, 32, 12);
	w = kek(32, 13, NULL);
	k = secret_ex(CKK_AES, v, 32, wwt, 1);
	assert_int_equal(get_bool(k, CKA_WRAP_WITH_TRUSTED), CK_TRUE);
	assert_rv(p11->C_WrapKey(h, &kw, w, k, NULL, &n),
	    CKR_KEY_NOT_WRAPPABLE);
	/* the user may not make a trusted key */
	assert_rv(p11->C_CreateObject(h, tt, 7, &trusted),
	    CKR_ATTRIBUTE_READ_ONLY);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_SO, (CK_UTF8CHAR_PTR)P11_SO_PIN,
	    strlen(P11_SO_PIN)), CKR_OK);
	assert_rv(p11->C_CreateObject(h, tt, 7, &trusted), CKR_OK);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	/* the session key went with the logout */
	k = secret_ex(CKK_AES, v, 32, wwt, 1);
	n = wrap(&kw, trusted, k, blob, sizeof(blob));
	assert_int_equal(n, 40);
	w = secret(CKK_AES, kv, 32);
	assert_rv(unwrap_secret(&kw, w, blob, n, CKK_AES, &u), CKR_OK);
	same_attr(k, u, CKA_VALUE);
}

/*
 * CKA_WRAP_TEMPLATE: the wrapping key wraps only keys that match it (else
 * CKR_KEY_HANDLE_INVALID, as §5.18.3 says). CKA_UNWRAP_TEMPLATE: its
 * attributes are added to the new key's, an attribute the caller gives
 * the same value is fine, another value is CKR_TEMPLATE_INCONSISTENT
 * and makes nothing [§5.18.4].
 */
static void
test_templates(void **state)
{
	uint8_t v[32], blob[64], label[16];
	CK_ATTRIBUTE wt_in[] = {
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_ATTRIBUTE ut_in[] = {
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
		{ CKA_LABEL, "from the kek", 12 },
	};
	CK_ATTRIBUTE wt[] = {
		{ CKA_WRAP_TEMPLATE, wt_in, sizeof(wt_in) },
		{ CKA_UNWRAP_TEMPLATE, ut_in, sizeof(ut_in) },
	};
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_ATTRIBUTE sens[] = { { CKA_SENSITIVE, &yes, 1 } };
	CK_OBJECT_HANDLE w, k, g, u;
	CK_ULONG n, before;

	(void)state;
	pattern(v, 32, 21);
	w = secret_ex(CKK_AES, v, 32, wt, 2);
	k = secret(CKK_AES, v, 16);
	g = secret(CKK_GENERIC_SECRET, v, 16);
	n = wrap(&kw, w, k, blob, sizeof(blob));
	assert_rv(p11->C_WrapKey(h, &kw, w, g, NULL, &n),
	    CKR_KEY_HANDLE_INVALID);
	u = secret_ex(CKK_AES, v, 16, sens, 1);
	assert_rv(p11->C_WrapKey(h, &kw, w, u, NULL, &n),
	    CKR_KEY_HANDLE_INVALID);
	n = 24;

	/* the unwrap template under the caller's */
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 2, &u), CKR_OK);
	assert_int_equal(get_bool(u, CKA_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(u, CKA_EXTRACTABLE), CK_FALSE);
	assert_int_equal(get_attr(u, CKA_LABEL, label, sizeof(label)), 12);
	assert_memory_equal(label, "from the kek", 12);
	/* the same value from the caller is fine */
	t[2].pValue = &yes;
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 3, &u), CKR_OK);
	/* another is a conflict, and nothing is made */
	before = count_objects();
	t[2].pValue = &no;
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 3, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(u, CK_INVALID_HANDLE);
	assert_int_equal(count_objects(), before);
}

/*
 * An unwrapped key's history [§5.18.4]: CKA_LOCAL false,
 * CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE false whatever its
 * CKA_SENSITIVE and CKA_EXTRACTABLE, CKA_EXTRACTABLE true by default, no
 * key generation mechanism, a CKA_UNIQUE_ID of its own; and a token
 * object stays.
 */
static void
test_history(void **state)
{
	uint8_t v[32], blob[256], id1[64], id2[64];
	CK_ULONG kgm = 0, n, l1, l2;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE a = { CKA_KEY_GEN_MECHANISM, &kgm, sizeof(kgm) };
	CK_OBJECT_HANDLE w, k, u;

	(void)state;
	pattern(v, 32, 31);
	w = kek(16, 32, NULL);
	k = secret(CKK_AES, v, 32);
	n = wrap(&kwp, w, k, blob, sizeof(blob));
	/* the defaults: extractable, not sensitive (a secret key) */
	assert_rv(unwrap_ex(&kwp, w, blob, n, t, 2, &u), CKR_OK);
	assert_int_equal(get_bool(u, CKA_EXTRACTABLE), CK_TRUE);
	assert_int_equal(get_bool(u, CKA_SENSITIVE), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_LOCAL), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_ALWAYS_SENSITIVE), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_NEVER_EXTRACTABLE), CK_FALSE);
	assert_rv(p11->C_GetAttributeValue(h, u, &a, 1), CKR_OK);
	assert_int_equal(kgm, CK_UNAVAILABLE_INFORMATION);
	l1 = get_attr(k, CKA_UNIQUE_ID, id1, sizeof(id1));
	l2 = get_attr(u, CKA_UNIQUE_ID, id2, sizeof(id2));
	assert_true(l2 > 0);
	assert_false(l1 == l2 && memcmp(id1, id2, l1) == 0);
	/* sensitive and not extractable, a token object: still no history */
	assert_rv(unwrap_ex(&kwp, w, blob, n, t, 5, &u), CKR_OK);
	assert_int_equal(get_bool(u, CKA_SENSITIVE), CK_TRUE);
	assert_int_equal(get_bool(u, CKA_EXTRACTABLE), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_ALWAYS_SENSITIVE), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_NEVER_EXTRACTABLE), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_LOCAL), CK_FALSE);
	assert_int_equal(get_bool(u, CKA_TOKEN), CK_TRUE);
	same_attr(k, u, CKA_CHECK_VALUE);
	/* and a private key likewise */
	{
		CK_OBJECT_HANDLE pub, priv;

		ec_pair(&pub, &priv);
		assert_int_equal(get_bool(priv, CKA_LOCAL), CK_TRUE);
		n = wrap(&kwp, w, priv, blob, sizeof(blob));
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_EC, &u),
		    CKR_OK);
		assert_int_equal(get_bool(u, CKA_LOCAL), CK_FALSE);
		assert_int_equal(get_bool(u, CKA_ALWAYS_SENSITIVE), CK_FALSE);
		assert_int_equal(get_bool(u, CKA_NEVER_EXTRACTABLE), CK_FALSE);
		assert_int_equal(get_bool(u, CKA_EXTRACTABLE), CK_TRUE);
	}
}

/*
 * Tampering: a changed byte anywhere in a KW or KWP wrapped key (a secret
 * key, an RSA key's PKCS #8) is CKR_WRAPPED_KEY_INVALID and makes
 * nothing; lengths the mechanism never makes are
 * CKR_WRAPPED_KEY_LEN_RANGE.
 */
static void
test_tamper(void **state)
{
	static uint8_t blob[4096];
	uint8_t v[32];
	CK_OBJECT_HANDLE w, k, pub, priv, u;
	CK_ULONG n, before, i;
	unsigned bit;

	(void)state;
	pattern(v, 32, 41);
	w = kek(32, 42, NULL);
	k = secret(CKK_AES, v, 32);
	rsa_pair(CK_TRUE, &pub, &priv);
	before = count_objects();
	n = wrap(&kw, w, k, blob, sizeof(blob));
	for (i = 0; i < n; i++)
		for (bit = 0; bit < 8; bit++) {
			blob[i] ^= (uint8_t)(1u << bit);
			assert_rv(unwrap_secret(&kw, w, blob, n, CKK_AES, &u),
			    CKR_WRAPPED_KEY_INVALID);
			assert_int_equal(u, CK_INVALID_HANDLE);
			blob[i] ^= (uint8_t)(1u << bit);
		}
	n = wrap(&kwp, w, k, blob, sizeof(blob));
	for (i = 0; i < n; i++) {
		blob[i] ^= 0x80;
		assert_rv(unwrap_secret(&kwp, w, blob, n, CKK_AES, &u),
		    CKR_WRAPPED_KEY_INVALID);
		blob[i] ^= 0x80;
	}
	n = wrap(&kwp, w, priv, blob, sizeof(blob));
	for (i = 0; i < n; i++) {
		blob[i] ^= 0x01;
		assert_rv(unwrap_private(&kwp, w, blob, n, CKK_RSA, &u),
		    CKR_WRAPPED_KEY_INVALID);
		blob[i] ^= 0x01;
	}
	/* lengths: not semiblocks, too short, too long */
	n = wrap(&kw, w, k, blob, sizeof(blob));
	assert_rv(unwrap_secret(&kw, w, blob, n - 1, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kw, w, blob, n + 1, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kw, w, blob, 16, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kw, w, blob, 0, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kwp, w, blob, 8, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kwp, w, blob, 12, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kwp, w, blob, (CK_ULONG)1 << 40, CKK_AES,
	    &u), CKR_WRAPPED_KEY_LEN_RANGE);
	/* a whole, untouched one still unwraps */
	assert_rv(unwrap_secret(&kw, w, blob, n, CKK_AES, &u), CKR_OK);
	assert_int_equal(count_objects(), before + 1);
}

/*
 * The template of the new key: the key type must be given (§4.2
 * footnote 5), the value is the mechanism's, a length or class at odds
 * with what was wrapped is refused, before or after decryption as the
 * specification names it.
 */
static void
test_unwrap_templates(void **state)
{
	static uint8_t blob[4096];
	uint8_t v[40];
	CK_ULONG vlen = 16, n, nrsa, before;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
	};
	CK_ATTRIBUTE tv[] = {
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_VALUE, v, 32 },
	};
	CK_ATTRIBUTE pub_t[] = {
		{ CKA_CLASS, &public_class, sizeof(public_class) },
		{ CKA_KEY_TYPE, &rsa_type, sizeof(rsa_type) },
	};
	CK_ATTRIBUTE ec_only[] = {
		{ CKA_KEY_TYPE, &ec_type, sizeof(ec_type) },
	};
	CK_ATTRIBUTE params[] = {
		{ CKA_CLASS, &private_class, sizeof(private_class) },
		{ CKA_KEY_TYPE, &ec_type, sizeof(ec_type) },
		{ CKA_EC_PARAMS, (void *)p256, sizeof(p256) },
	};
	CK_OBJECT_HANDLE w, k, pub, priv, epub, epriv, u;

	(void)state;
	pattern(v, 40, 51);
	w = kek(32, 52, NULL);
	k = secret(CKK_AES, v, 32);
	n = wrap(&kw, w, k, blob, sizeof(blob));
	before = count_objects();
	/* no key type */
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 1, &u),
	    CKR_TEMPLATE_INCOMPLETE);
	/* the value is the mechanism's */
	assert_rv(unwrap_ex(&kw, w, blob, n, tv, 2, &u),
	    CKR_ATTRIBUTE_READ_ONLY);
	/* a length other than the wrapped one */
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 3, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	vlen = 32;
	assert_rv(unwrap_ex(&kw, w, blob, n, t, 3, &u), CKR_OK);
	assert_int_equal(count_objects(), before + 1);
	/* 40 bytes are no AES key, but a generic secret */
	k = secret(CKK_GENERIC_SECRET, v, 40);
	n = wrap(&kw, w, k, blob, sizeof(blob));
	assert_rv(unwrap_secret(&kw, w, blob, n, CKK_AES, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&kw, w, blob, n, CKK_GENERIC_SECRET, &u),
	    CKR_OK);
	/* KW makes secret keys; no mechanism makes public keys */
	assert_rv(unwrap_private(&kw, w, blob, n, CKK_EC, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(unwrap_ex(&kwp, w, blob, n, pub_t, 2, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	/* a PKCS #8 of another type than the template's */
	rsa_pair(CK_TRUE, &pub, &priv);
	nrsa = wrap(&kwp, w, priv, blob, sizeof(blob));
	before = count_objects();
	assert_rv(unwrap_private(&kwp, w, blob, nrsa, CKK_EC, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_rv(unwrap_private(&kwp, w, blob, nrsa, CKK_ML_DSA, &u),
	    CKR_TEMPLATE_INCONSISTENT);
	/* and a private key's encoding taken for a secret key's value */
	assert_rv(unwrap_secret(&kwp, w, blob, nrsa, CKK_GENERIC_SECRET, &u),
	    CKR_OK);
	/* the key type alone says a private key */
	ec_pair(&epub, &epriv);
	n = wrap(&kwp, w, epriv, blob, sizeof(blob));
	assert_rv(unwrap_ex(&kwp, w, blob, n, ec_only, 1, &u), CKR_OK);
	same_attr(epriv, u, CKA_EC_POINT);
	/* the curve is the wrapped key's, not the template's */
	assert_rv(unwrap_ex(&kwp, w, blob, n, params, 3, &u),
	    CKR_ATTRIBUTE_READ_ONLY);
	/* the secret key, the EC pair and the EC key unwrapped */
	assert_int_equal(count_objects(), before + 4);
}

/*
 * Sessions and login, as for the other functions that make objects: a
 * token key needs a read/write session, a private key a login; a public
 * session key unwraps without one.
 */
static void
test_sessions(void **state)
{
	uint8_t v[32], blob[64];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &aes_type, sizeof(aes_type) },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE pub_kek[] = { { CKA_PRIVATE, &no, 1 } };
	CK_OBJECT_HANDLE w, k, u;
	CK_SESSION_HANDLE ro;
	CK_ULONG n;

	(void)state;
	pattern(v, 32, 61);
	w = secret_ex(CKK_AES, v, 32, pub_kek, 1);
	k = secret(CKK_AES, v, 16);
	n = wrap(&kw, w, k, blob, sizeof(blob));
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
	    &ro), CKR_OK);
	assert_rv(p11->C_UnwrapKey(ro, &kw, w, blob, n, t, 4, &u),
	    CKR_SESSION_READ_ONLY);
	assert_rv(p11->C_UnwrapKey(ro, &kw, w, blob, n, t, 3, &u), CKR_OK);
	/* nobody logged in: the public wrapping key stays, a private key
	 * cannot be made, a public one can */
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_UnwrapKey(ro, &kw, w, blob, n, t, 2, &u),
	    CKR_USER_NOT_LOGGED_IN);
	assert_rv(p11->C_UnwrapKey(ro, &kw, w, blob, n, t, 3, &u), CKR_OK);
	assert_rv(p11->C_WrapKey(ro, &kw, w, u, NULL, &n), CKR_OK);
	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	/* (the logout took the private session key k) */
	k = secret(CKK_AES, v, 16);
	/* a wrapping key that wants a login for every use does not
	 * unwrap: it would decrypt without one */
	{
		CK_RSA_PKCS_OAEP_PARAMS p = { CKM_SHA256, CKG_MGF1_SHA256, 0,
			NULL, 0 };
		CK_MECHANISM m = { CKM_RSA_PKCS_OAEP, &p, sizeof(p) };
		CK_MECHANISM gen = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
		CK_ULONG bits = 2048;
		CK_ATTRIBUTE pt[] = {
			{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		};
		CK_ATTRIBUTE kt[] = {
			{ CKA_ALWAYS_AUTHENTICATE, &yes, 1 },
		};
		CK_OBJECT_HANDLE pub, priv;
		uint8_t rblob[256];

		assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 1, kt, 1, &pub,
		    &priv), CKR_OK);
		n = wrap(&m, pub, k, rblob, sizeof(rblob));
		assert_rv(unwrap_secret(&m, priv, rblob, n, CKK_AES, &u),
		    CKR_KEY_FUNCTION_NOT_PERMITTED);
		kt[0].pValue = &no;
		assert_rv(p11->C_GenerateKeyPair(h, &gen, pt, 1, kt, 1, &pub,
		    &priv), CKR_OK);
		n = wrap(&m, pub, k, rblob, sizeof(rblob));
		assert_rv(unwrap_secret(&m, priv, rblob, n, CKK_AES, &u),
		    CKR_OK);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mechanism_info, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_aes_openssl, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_secret_round_trips, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_oaep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_private_rsa, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_private_ec, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_private_mldsa, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trusted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_templates, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_history, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tamper, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwrap_templates, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sessions, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
