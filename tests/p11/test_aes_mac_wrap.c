/*
 * AES-CMAC and AES key wrapping with the cipher mechanisms, through the
 * function list [PKCS#11 3.2 §6.14, §5.18.3, §5.18.4]: CKM_AES_CMAC and
 * CKM_AES_CMAC_GENERAL against OpenSSL's CMAC, single-part and in parts,
 * sign and verify, with their refusals; CKM_AES_CBC_PAD wrapping secret
 * keys (against OpenSSL's AES-CBC with PKCS #7 padding) and private keys
 * as PKCS #8 (read back by OpenSSL, unwrapped into a key that signs as
 * the original); CKM_AES_ECB wrapping secret keys of whole blocks; bad
 * padding that creates nothing; the mechanisms that do not wrap.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static struct p11_rng rng;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY,
    private_class = CKO_PRIVATE_KEY;
static CK_KEY_TYPE aes_type = CKK_AES, generic_type = CKK_GENERIC_SECRET,
    ec_type = CKK_EC;
static const uint8_t p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x03, 0x01, 0x07 };

static int
setup(void **state)
{
	(void)state;
	p11_rng_seed(&rng, 1919);
	return p11_fresh_user_session(dir, "aes-mac", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* A secret key of type kt with value v: extractable, not sensitive,
 * usable for everything but sign if sign is false. */
static CK_OBJECT_HANDLE
key_of(CK_KEY_TYPE kt, const uint8_t *v, size_t len, CK_BBOOL sign)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE, (void *)v, len },
		{ CKA_SIGN, &sign, 1 },
		{ CKA_VERIFY, &yes, 1 },
		{ CKA_WRAP, &yes, 1 },
		{ CKA_UNWRAP, &yes, 1 },
		{ CKA_ENCRYPT, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, 11, &o), CKR_OK);
	return o;
}

static CK_OBJECT_HANDLE
aes_key(size_t len, uint8_t *v)
{
	p11_rng_fill(&rng, v, len);
	return key_of(CKK_AES, v, len, CK_TRUE);
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

/* OpenSSL's AES-CMAC (16 bytes). */
static void
ossl_cmac(const uint8_t *key, size_t klen, const uint8_t *in, size_t len,
    uint8_t out[16])
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *x;
	char cipher[16];
	OSSL_PARAM p[2];
	size_t n = 0;

	assert_non_null(mac);
	x = EVP_MAC_CTX_new(mac);
	assert_non_null(x);
	snprintf(cipher, sizeof(cipher), "AES-%zu-CBC", klen * 8);
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher,
	    0);
	p[1] = OSSL_PARAM_construct_end();
	assert_int_equal(EVP_MAC_init(x, key, klen, p), 1);
	assert_int_equal(EVP_MAC_update(x, in, len), 1);
	assert_int_equal(EVP_MAC_final(x, out, &n, 16), 1);
	assert_int_equal(n, 16);
	EVP_MAC_CTX_free(x);
	EVP_MAC_free(mac);
}

/* OpenSSL's AES-ECB / AES-CBC (padding pad) of in; enc 1 encrypts.
 * Returns the length, or -1 when the padding is bad. */
static int
ossl_cipher(const char *mode, const uint8_t *key, size_t klen,
    const uint8_t *iv, int pad, const uint8_t *in, size_t len, uint8_t *out,
    int enc)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	char name[32];
	int n = 0, f = 0, ok;

	snprintf(name, sizeof(name), "AES-%zu-%s", klen * 8, mode);
	assert_non_null(x);
	assert_int_equal(EVP_CipherInit_ex(x, EVP_get_cipherbyname(name),
	    NULL, key, iv, enc), 1);
	EVP_CIPHER_CTX_set_padding(x, pad);
	ok = EVP_CipherUpdate(x, out, &n, in, (int)len) == 1 &&
	    EVP_CipherFinal_ex(x, out + n, &f) == 1;
	EVP_CIPHER_CTX_free(x);
	return ok ? n + f : -1;
}

/* --------------------------------------------------------------- CMAC */

static void
test_cmac(void **state)
{
	static const size_t lens[] = { 0, 1, 15, 16, 17, 32, 33, 64, 1000 };
	static const size_t klens[] = { 16, 24, 32 };
	static uint8_t msg[1000];
	uint8_t kv[32], want[16], mac[32];
	CK_MAC_GENERAL_PARAMS gl;
	CK_MECHANISM m = { CKM_AES_CMAC, NULL, 0 };
	CK_MECHANISM g = { CKM_AES_CMAC_GENERAL, &gl, sizeof(gl) };
	CK_OBJECT_HANDLE k;
	CK_ULONG n;
	size_t ki, li, pos, part;

	(void)state;
	for (ki = 0; ki < 3; ki++) {
		k = aes_key(klens[ki], kv);
		for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			p11_rng_fill(&rng, msg, lens[li]);
			ossl_cmac(kv, klens[ki], msg, lens[li], want);
			/* single-part, with a length query and a short
			 * buffer first */
			assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
			n = 0;
			assert_rv(p11->C_Sign(h, msg, lens[li], NULL, &n),
			    CKR_OK);
			assert_int_equal(n, 16);
			n = 15;
			assert_rv(p11->C_Sign(h, msg, lens[li], mac, &n),
			    CKR_BUFFER_TOO_SMALL);
			n = sizeof(mac);
			assert_rv(p11->C_Sign(h, msg, lens[li], mac, &n),
			    CKR_OK);
			assert_int_equal(n, 16);
			assert_memory_equal(mac, want, 16);
			/* in parts */
			assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
			for (pos = 0; pos < lens[li]; pos += part) {
				part = p11_rng_below(&rng,
				    lens[li] - pos + 1);
				assert_rv(p11->C_SignUpdate(h, msg + pos,
				    part), CKR_OK);
			}
			n = sizeof(mac);
			assert_rv(p11->C_SignFinal(h, mac, &n), CKR_OK);
			assert_memory_equal(mac, want, 16);
			/* verify: right, wrong, truncated */
			assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
			assert_rv(p11->C_Verify(h, msg, lens[li], want, 16),
			    CKR_OK);
			want[li % 16] ^= 0x40;
			assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
			assert_rv(p11->C_Verify(h, msg, lens[li], want, 16),
			    CKR_SIGNATURE_INVALID);
			want[li % 16] ^= 0x40;
			assert_rv(p11->C_VerifyInit(h, &m, k), CKR_OK);
			assert_rv(p11->C_VerifyUpdate(h, msg, lens[li]),
			    CKR_OK);
			assert_rv(p11->C_VerifyFinal(h, want, 15),
			    CKR_SIGNATURE_LEN_RANGE);
			/* CMAC_GENERAL: the MAC's first gl bytes */
			gl = 1 + li % 16;
			assert_rv(p11->C_SignInit(h, &g, k), CKR_OK);
			n = sizeof(mac);
			assert_rv(p11->C_Sign(h, msg, lens[li], mac, &n),
			    CKR_OK);
			assert_int_equal(n, gl);
			assert_memory_equal(mac, want, gl);
			assert_rv(p11->C_VerifyInit(h, &g, k), CKR_OK);
			assert_rv(p11->C_Verify(h, msg, lens[li], want, gl),
			    CKR_OK);
			assert_rv(p11->C_VerifyInit(h, &g, k), CKR_OK);
			assert_rv(p11->C_Verify(h, msg, lens[li], want, 16),
			    gl == 16 ? CKR_OK : CKR_SIGNATURE_LEN_RANGE);
		}
	}
}

static void
test_cmac_refusals(void **state)
{
	uint8_t kv[32], msg[4] = { 1, 2, 3, 4 }, mac[16];
	CK_MAC_GENERAL_PARAMS gl = 0;
	CK_MECHANISM m = { CKM_AES_CMAC, NULL, 0 };
	CK_MECHANISM g = { CKM_AES_CMAC_GENERAL, &gl, sizeof(gl) };
	CK_OBJECT_HANDLE k, nosign, gk;
	CK_ULONG n;

	(void)state;
	k = aes_key(32, kv);
	nosign = key_of(CKK_AES, kv, 32, CK_FALSE);
	gk = key_of(CKK_GENERIC_SECRET, kv, 32, CK_TRUE);
	assert_rv(p11->C_SignInit(h, &g, k), CKR_MECHANISM_PARAM_INVALID);
	gl = 17;
	assert_rv(p11->C_SignInit(h, &g, k), CKR_MECHANISM_PARAM_INVALID);
	gl = 8;
	g.ulParameterLen = 4;
	assert_rv(p11->C_VerifyInit(h, &g, k), CKR_MECHANISM_PARAM_INVALID);
	g.ulParameterLen = 0;
	assert_rv(p11->C_SignInit(h, &g, k), CKR_MECHANISM_PARAM_INVALID);
	g.pParameter = NULL;
	g.ulParameterLen = sizeof(gl);
	assert_rv(p11->C_SignInit(h, &g, k), CKR_ARGUMENTS_BAD);
	m.pParameter = &gl;
	m.ulParameterLen = sizeof(gl);
	assert_rv(p11->C_SignInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.pParameter = NULL;
	m.ulParameterLen = 0;
	assert_rv(p11->C_SignInit(h, &m, nosign),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(p11->C_SignInit(h, &m, gk), CKR_KEY_TYPE_INCONSISTENT);
	/* a length query keeps the operation; Update after it does not */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	n = 0;
	assert_rv(p11->C_Sign(h, msg, 4, NULL, &n), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, msg, 4), CKR_OPERATION_ACTIVE);
	n = sizeof(mac);
	assert_rv(p11->C_SignFinal(h, mac, &n), CKR_OPERATION_NOT_INITIALIZED);
	/* C_Sign after an Update */
	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_SignUpdate(h, msg, 4), CKR_OK);
	n = sizeof(mac);
	assert_rv(p11->C_Sign(h, msg, 4, mac, &n), CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_SignFinal(h, mac, &n), CKR_OPERATION_NOT_INITIALIZED);
}

/* ----------------------------------------------------- key wrapping */

static CK_ULONG
wrap(CK_MECHANISM *m, CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE k, uint8_t *out,
    size_t cap)
{
	CK_ULONG n = 0, n2;

	assert_rv(p11->C_WrapKey(h, m, w, k, NULL, &n), CKR_OK);
	assert_true(n > 0 && n <= cap);
	n2 = n - 1;
	assert_rv(p11->C_WrapKey(h, m, w, k, out, &n2), CKR_BUFFER_TOO_SMALL);
	n2 = cap;
	assert_rv(p11->C_WrapKey(h, m, w, k, out, &n2), CKR_OK);
	assert_int_equal(n2, n);
	return n;
}

static CK_RV
unwrap_secret(CK_MECHANISM *m, CK_OBJECT_HANDLE u, const uint8_t *in,
    size_t len, CK_KEY_TYPE *kt, CK_OBJECT_HANDLE *out)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, kt, sizeof(*kt) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};

	*out = CK_INVALID_HANDLE;
	return p11->C_UnwrapKey(h, m, u, (CK_BYTE_PTR)in, len, t, 4, out);
}

static void
same_value(CK_OBJECT_HANDLE o, const uint8_t *v, size_t len)
{
	uint8_t buf[64];
	CK_ATTRIBUTE a = { CKA_VALUE, buf, sizeof(buf) };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, len);
	assert_memory_equal(buf, v, len);
}

static void
test_wrap_secret(void **state)
{
	static const size_t slens[] = { 1, 15, 16, 20, 24, 32, 48, 64 };
	uint8_t kv[32], iv[16], sv[64], blob[96], want[96], back[96];
	CK_MECHANISM pad = { CKM_AES_CBC_PAD, iv, 16 };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	CK_OBJECT_HANDLE w, s, u;
	CK_ULONG n, before;
	size_t i;
	int wl;

	(void)state;
	w = aes_key(32, kv);
	p11_rng_fill(&rng, iv, 16);
	for (i = 0; i < sizeof(slens) / sizeof(slens[0]); i++) {
		CK_KEY_TYPE kt = slens[i] == 16 || slens[i] == 24 ||
		    slens[i] == 32 ? CKK_AES : CKK_GENERIC_SECRET;

		p11_rng_fill(&rng, sv, slens[i]);
		s = key_of(kt, sv, slens[i], CK_TRUE);
		/* CBC_PAD: OpenSSL's AES-CBC with PKCS #7 padding */
		n = wrap(&pad, w, s, blob, sizeof(blob));
		wl = ossl_cipher("CBC", kv, 32, iv, 1, sv, slens[i], want, 1);
		assert_int_equal(n, wl);
		assert_memory_equal(blob, want, n);
		assert_rv(unwrap_secret(&pad, w, blob, n, &kt, &u), CKR_OK);
		same_value(u, sv, slens[i]);
		/* ECB: whole blocks only */
		n = 0;
		if (slens[i] % 16 != 0) {
			assert_rv(p11->C_WrapKey(h, &ecb, w, s, NULL, &n),
			    CKR_KEY_SIZE_RANGE);
			continue;
		}
		n = wrap(&ecb, w, s, blob, sizeof(blob));
		wl = ossl_cipher("ECB", kv, 32, NULL, 0, sv, slens[i], want,
		    1);
		assert_int_equal(n, wl);
		assert_memory_equal(blob, want, n);
		assert_rv(unwrap_secret(&ecb, w, blob, n, &kt, &u), CKR_OK);
		same_value(u, sv, slens[i]);
	}
	/* bad padding: one code, and nothing is made. Blocks whose
	 * plaintext ends in 0, in 17, or in a padding that disagrees. */
	before = count_objects();
	for (i = 0; i < 3; i++) {
		memset(back, 3, 32);
		back[31] = i == 0 ? 0 : i == 1 ? 17 : 3;
		if (i == 2)
			back[30] = 2;
		wl = ossl_cipher("CBC", kv, 32, iv, 0, back, 32, blob, 1);
		assert_int_equal(wl, 32);
		assert_rv(unwrap_secret(&pad, w, blob, 32, &generic_type, &u),
		    CKR_WRAPPED_KEY_INVALID);
		assert_int_equal(u, CK_INVALID_HANDLE);
	}
	/* lengths the mechanisms never make */
	assert_rv(unwrap_secret(&pad, w, blob, 31, &generic_type, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&ecb, w, blob, 8, &generic_type, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_rv(unwrap_secret(&pad, w, blob, 0, &generic_type, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	/* an AES key of a length AES does not have */
	wl = ossl_cipher("ECB", kv, 32, NULL, 0, sv, 48, blob, 1);
	assert_rv(unwrap_secret(&ecb, w, blob, 48, &aes_type, &u),
	    CKR_WRAPPED_KEY_LEN_RANGE);
	assert_int_equal(count_objects(), before);
	/* parameters: CBC_PAD's IV, ECB none */
	pad.ulParameterLen = 8;
	assert_rv(p11->C_WrapKey(h, &pad, w, s, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	ecb.pParameter = iv;
	ecb.ulParameterLen = 16;
	assert_rv(p11->C_WrapKey(h, &ecb, w, s, NULL, &n),
	    CKR_MECHANISM_PARAM_INVALID);
	/* CBC, CTR and GCM do not wrap */
	pad.mechanism = CKM_AES_CBC;
	pad.ulParameterLen = 16;
	assert_rv(p11->C_WrapKey(h, &pad, w, s, NULL, &n),
	    CKR_MECHANISM_INVALID);
	pad.mechanism = CKM_AES_CTR;
	assert_rv(p11->C_WrapKey(h, &pad, w, s, NULL, &n),
	    CKR_MECHANISM_INVALID);
	/* the wrapping key must be AES */
	pad.mechanism = CKM_AES_CBC_PAD;
	u = key_of(CKK_GENERIC_SECRET, kv, 32, CK_TRUE);
	assert_rv(p11->C_WrapKey(h, &pad, u, s, NULL, &n),
	    CKR_WRAPPING_KEY_TYPE_INCONSISTENT);
}

/* An EC P-256 key pair that may be extracted. */
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
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 3, pub, priv),
	    CKR_OK);
}

static void
test_wrap_private(void **state)
{
	uint8_t kv[32], iv[16], blob[512], der[512], sig[64];
	static const uint8_t msg[] = "wrapped under AES-CBC-PAD";
	CK_MECHANISM pad = { CKM_AES_CBC_PAD, iv, 16 };
	CK_MECHANISM ecb = { CKM_AES_ECB, NULL, 0 };
	CK_MECHANISM sm = { CKM_ECDSA_SHA256, NULL, 0 };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &private_class, sizeof(private_class) },
		{ CKA_KEY_TYPE, &ec_type, sizeof(ec_type) },
		{ CKA_SIGN, &yes, 1 },
	};
	CK_OBJECT_HANDLE w, pub, priv, u;
	PKCS8_PRIV_KEY_INFO *p8;
	const unsigned char *q;
	CK_ULONG n, sl;
	int dl;

	(void)state;
	w = aes_key(16, kv);
	p11_rng_fill(&rng, iv, 16);
	ec_pair(&pub, &priv);
	n = wrap(&pad, w, priv, blob, sizeof(blob));
	dl = ossl_cipher("CBC", kv, 16, iv, 1, blob, n, der, 0);
	assert_true(dl > 0);
	q = der;
	p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &q, dl);
	assert_non_null(p8);
	assert_ptr_equal(q, der + dl);
	PKCS8_PRIV_KEY_INFO_free(p8);
	assert_rv(p11->C_UnwrapKey(h, &pad, w, blob, n, t, 3, &u), CKR_OK);
	sl = sizeof(sig);
	assert_rv(p11->C_SignInit(h, &sm, u), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)msg, sizeof(msg), sig, &sl),
	    CKR_OK);
	assert_rv(p11->C_VerifyInit(h, &sm, pub), CKR_OK);
	assert_rv(p11->C_Verify(h, (CK_BYTE_PTR)msg, sizeof(msg), sig, sl),
	    CKR_OK);
	/* ECB wraps no private key */
	assert_rv(p11->C_WrapKey(h, &ecb, w, priv, NULL, &n),
	    CKR_KEY_NOT_WRAPPABLE);
	/* a changed last block: bad padding (most likely) or a PKCS #8
	 * the token cannot read; either way one refusal and no object */
	n = wrap(&pad, w, priv, blob, sizeof(blob));
	blob[n - 1] ^= 0x01;
	u = CK_INVALID_HANDLE;
	assert_rv(p11->C_UnwrapKey(h, &pad, w, blob, n, t, 3, &u),
	    CKR_WRAPPED_KEY_INVALID);
	assert_int_equal(u, CK_INVALID_HANDLE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cmac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmac_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_wrap_secret, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_wrap_private, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
