/*
 * The boundary test's token and fixtures (see tests/p11/boundary.h): the
 * entry points as calls on a struct call, the keys and operations each
 * fixture starts, and the correct call of every function, which a row
 * then breaks.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/boundary.h"
#include "tests/p11/common.h"

#define DATA_LEN 32

/* ------------------------------------------------ the entry points */

#define FN_CALLER_(name, op, st, args)                                      \
	static CK_RV call_##name(struct call *c) { return p11->name args; }
FNS(FN_CALLER_)

const struct fninfo bnd_fns[F_COUNT] = {
#define FN_INFO_(name, op, st, args) { #name, call_##name, op, st },
	FNS(FN_INFO_)
};

/* ------------------------------------------------ the token */

static char dir[64];
static CK_SLOT_ID slot, empty_slot;
static CK_SESSION_HANDLE s0;           /* holds the login */
CK_SESSION_HANDLE bnd_stale_session;
CK_OBJECT_HANDLE bnd_stale_object, bnd_data_object;
static CK_OBJECT_HANDLE hmac_key;

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS data_class = CKO_DATA, secret_class = CKO_SECRET_KEY;
static CK_KEY_TYPE generic = CKK_GENERIC_SECRET;
static CK_ULONG len32 = 32;
static const CK_BYTE p256_oid[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };
/* The input: DATA_LEN bytes, in a buffer long enough for every finite
 * length a row gives (only CK_UNAVAILABLE_INFORMATION and 2^40 exceed
 * it, and those the module must refuse without reading). */
static CK_BYTE data[4096] = "thirty-two bytes of plain input";
/* A wrapped key for C_UnwrapKey, in a buffer as long as data. */
static CK_BYTE wrapped_in[4096];
/* An ML-KEM-512 ciphertext of the FX_MLKEM key, for C_DecapsulateKey. */
#define KEM_CT_LEN 768
static CK_BYTE kem_ct[KEM_CT_LEN];
CK_BYTE bnd_bogus[64];
CK_VERSION bnd_bogus_version = { 9, 9 };
static CK_BYTE ec_point[65];
/* The user PIN followed by a byte that is not NUL, so that one byte too
 * many makes a different PIN (PBKDF2 cannot tell a trailing NUL). */
static CK_BYTE user_pin_x[] = P11_USER_PIN "X";

static CK_RSA_PKCS_OAEP_PARAMS oaep = { CKM_SHA256, CKG_MGF1_SHA256,
	CKZ_DATA_SPECIFIED, NULL, 0 };
static CK_RSA_PKCS_PSS_PARAMS pss = { CKM_SHA256, CKG_MGF1_SHA256, 32 };
static CK_ECDH1_DERIVE_PARAMS ecdh = { CKD_NULL, 0, NULL, 65, ec_point };
/* RFC 7748 §6.1: Bob's public key */
static CK_BYTE x25519_peer[32] = { 0xde, 0x9e, 0xdb, 0x7d, 0x7b, 0x7d,
	0xc1, 0xb4, 0xd3, 0x5b, 0x61, 0xc2, 0xec, 0xe4, 0x35, 0x37, 0x3f,
	0x83, 0x43, 0xc8, 0x5b, 0x78, 0x67, 0x4d, 0xad, 0xfc, 0x7e, 0x14,
	0x6f, 0x88, 0x2b, 0x4f };
static CK_ECDH1_DERIVE_PARAMS x25519 = { CKD_NULL, 0, NULL, 32,
	x25519_peer };
static CK_EDDSA_PARAMS eddsa = { CK_FALSE, 3, (CK_BYTE_PTR)"ctx" };
static CK_BYTE aes_iv[16] = "an IV of 16 byte";
static CK_GCM_PARAMS gcm = { aes_iv, 12, 96, NULL, 0, 128 };

struct fixture bnd_fx[FX_COUNT];

/* The fixture's keys are token objects with a label each: private
 * session objects go with a logout, and handles to private token objects
 * from before a logout are not valid after it [PKCS#11 3.2 §5.6
 * C_Logout], so each login finds them again (find_keys). */
static void
keypair(CK_MECHANISM_TYPE mech, CK_ATTRIBUTE *pt, CK_ULONG npt,
    const char *label, CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	CK_ATTRIBUTE kt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
	};
	CK_ATTRIBUTE full[8];
	int derive = mech == CKM_EC_KEY_PAIR_GEN ||
	    mech == CKM_EC_MONTGOMERY_KEY_PAIR_GEN;
	CK_ULONG nkt = mech == CKM_RSA_PKCS_KEY_PAIR_GEN || derive ? 4 : 3;

	if (derive)
		kt[3] = kt[4];
	memcpy(full, pt, npt * sizeof(*pt));
	memcpy(full + npt, kt, 2 * sizeof(*kt));
	assert_rv(p11->C_GenerateKeyPair(s0, &m, full, npt + 2, kt, nkt, pub,
	    priv), CKR_OK);
}

static CK_OBJECT_HANDLE
find_key(const char *label, CK_OBJECT_CLASS cls)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_LABEL, (void *)label, strlen(label) },
		{ CKA_CLASS, &cls, sizeof(cls) },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(s0, t, 2), CKR_OK);
	assert_rv(p11->C_FindObjects(s0, &o, 1, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(s0), CKR_OK);
	assert_int_equal(n, 1);
	return o;
}

/* The fixtures' key handles, as this login names them. */
static void
find_keys(void)
{
	CK_OBJECT_HANDLE rsa = find_key("bnd-rsa", CKO_PRIVATE_KEY);
	CK_OBJECT_HANDLE ec = find_key("bnd-ec", CKO_PRIVATE_KEY);
	CK_OBJECT_HANDLE ml = find_key("bnd-ml", CKO_PRIVATE_KEY);
	CK_OBJECT_HANDLE ed = find_key("bnd-ed", CKO_PRIVATE_KEY);
	CK_OBJECT_HANDLE x = find_key("bnd-x", CKO_PRIVATE_KEY);

	hmac_key = find_key("bnd-hmac", CKO_SECRET_KEY);
	bnd_fx[FX_KW].priv = bnd_fx[FX_KW].pub = find_key("bnd-kek",
	    CKO_SECRET_KEY);
	bnd_fx[FX_RSA].priv = bnd_fx[FX_OAEP].priv = bnd_fx[FX_PSS].priv =
	    rsa;
	bnd_fx[FX_ECDSA].priv = bnd_fx[FX_ECDSA256].priv =
	    bnd_fx[FX_ECDH].priv = ec;
	bnd_fx[FX_MLDSA].priv = ml;
	bnd_fx[FX_EDDSA].priv = ed;
	bnd_fx[FX_X25519].priv = x;
	bnd_fx[FX_MLKEM].priv = find_key("bnd-kem", CKO_PRIVATE_KEY);
	bnd_fx[FX_HMAC].priv = bnd_fx[FX_HMAC].pub = hmac_key;
	bnd_fx[FX_CBCPAD].priv = bnd_fx[FX_CBCPAD].pub = bnd_fx[FX_GCM].priv =
	    bnd_fx[FX_GCM].pub = bnd_fx[FX_CMAC].priv = bnd_fx[FX_CMAC].pub =
	    find_key("bnd-aes", CKO_SECRET_KEY);
}

static CK_OBJECT_HANDLE
create(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n)
{
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, n, &o), CKR_OK);
	return o;
}

static CK_ATTRIBUTE data_tmpl[] = {
	{ CKA_CLASS, &data_class, sizeof(data_class) },
	{ CKA_LABEL, "scratch", 7 },
	{ CKA_VALUE, "value", 5 },
};

static CK_BYTE secret_value[32] = "a generic secret of 32 bytes...";
static CK_ATTRIBUTE secret_tmpl[] = {
	{ CKA_CLASS, &secret_class, sizeof(secret_class) },
	{ CKA_KEY_TYPE, &generic, sizeof(generic) },
	{ CKA_VALUE, secret_value, sizeof(secret_value) },
	{ CKA_SIGN, &yes, 1 },
	{ CKA_VERIFY, &yes, 1 },
	{ CKA_SENSITIVE, &no, 1 },
	{ CKA_EXTRACTABLE, &yes, 1 },
};
#define NSECRET (sizeof(secret_tmpl) / sizeof(secret_tmpl[0]))

/* Signatures and ciphertexts of data for the fixtures that make them. */
static void
precompute(struct fixture *f)
{
	CK_ULONG n;

	if (f->siglen != 0) {
		n = SIG_MAX;
		assert_rv(p11->C_SignInit(s0, &f->mech, f->priv), CKR_OK);
		assert_rv(p11->C_Sign(s0, data, DATA_LEN, f->sig, &n), CKR_OK);
		assert_int_equal(n, f->siglen);
	}
	if (f->ctlen != 0) {
		n = 256;
		assert_rv(p11->C_EncryptInit(s0, &f->mech, f->pub), CKR_OK);
		assert_rv(p11->C_Encrypt(s0, data, DATA_LEN, f->ct, &n),
		    CKR_OK);
		assert_int_equal(n, f->ctlen);
	}
	if (f->wraplen != 0) {
		n = sizeof(f->wrapped);
		assert_rv(p11->C_WrapKey(s0, &f->mech, f->pub, hmac_key,
		    f->wrapped, &n), CKR_OK);
		assert_int_equal(n, f->wraplen);
	}
}

/* see tests/p11/boundary.h */
void
bnd_setup_fixtures(void)
{
	CK_ULONG bits = 2048, set = CKP_ML_DSA_44, kset = CKP_ML_KEM_512;
	CK_ATTRIBUTE rsa_pt[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_ENCRYPT, &yes, 1 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE ec_pt[] = {
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE ml_pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE ed_pt[] = {
		{ CKA_EC_PARAMS, "\x06\x03\x2b\x65\x70", 5 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE x_pt[] = {
		{ CKA_EC_PARAMS, "\x06\x03\x2b\x65\x6e", 5 },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kem_pt[] = {
		{ CKA_PARAMETER_SET, &kset, sizeof(kset) },
	};
	CK_BYTE der[80];
	CK_ATTRIBUTE pt = { CKA_EC_POINT, der, sizeof(der) };
	CK_ATTRIBUTE hmac_tmpl[NSECRET + 2];
	CK_OBJECT_HANDLE rsa_pub, rsa_priv, ec_pub, ec_priv, ml_pub, ml_priv;
	CK_OBJECT_HANDLE ed_pub, ed_priv, x_pub, x_priv;
	CK_OBJECT_HANDLE kem_pub, kem_priv, kem_key;
	CK_MECHANISM kem = { CKM_ML_KEM, NULL, 0 };
	CK_ULONG kem_len = sizeof(kem_ct);
	CK_SESSION_HANDLE bad[P11_NBAD_SESSIONS], h;
	int i;

	keypair(CKM_RSA_PKCS_KEY_PAIR_GEN, rsa_pt, 3, "bnd-rsa", &rsa_pub,
	    &rsa_priv);
	keypair(CKM_EC_KEY_PAIR_GEN, ec_pt, 2, "bnd-ec", &ec_pub, &ec_priv);
	keypair(CKM_ML_DSA_KEY_PAIR_GEN, ml_pt, 2, "bnd-ml", &ml_pub,
	    &ml_priv);
	keypair(CKM_EC_EDWARDS_KEY_PAIR_GEN, ed_pt, 2, "bnd-ed", &ed_pub,
	    &ed_priv);
	keypair(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, x_pt, 2, "bnd-x", &x_pub,
	    &x_priv);
	keypair(CKM_ML_KEM_KEY_PAIR_GEN, kem_pt, 1, "bnd-kem", &kem_pub,
	    &kem_priv);
	assert_rv(p11->C_EncapsulateKey(s0, &kem, kem_pub, NULL, 0, kem_ct,
	    &kem_len, &kem_key), CKR_OK);
	assert_int_equal(kem_len, KEM_CT_LEN);
	assert_rv(p11->C_DestroyObject(s0, kem_key), CKR_OK);
	memcpy(hmac_tmpl, secret_tmpl, sizeof(secret_tmpl));
	hmac_tmpl[NSECRET].type = CKA_TOKEN;
	hmac_tmpl[NSECRET].pValue = &yes;
	hmac_tmpl[NSECRET].ulValueLen = 1;
	hmac_tmpl[NSECRET + 1].type = CKA_LABEL;
	hmac_tmpl[NSECRET + 1].pValue = "bnd-hmac";
	hmac_tmpl[NSECRET + 1].ulValueLen = 8;
	hmac_key = create(s0, hmac_tmpl, NSECRET + 2);
	{
		static CK_BYTE kek_value[32] = "an AES-256 key that wraps keys";
		static CK_KEY_TYPE aes = CKK_AES;
		CK_ATTRIBUTE kek_tmpl[] = {
			{ CKA_CLASS, &secret_class, sizeof(secret_class) },
			{ CKA_KEY_TYPE, &aes, sizeof(aes) },
			{ CKA_VALUE, kek_value, sizeof(kek_value) },
			{ CKA_TOKEN, &yes, 1 },
			{ CKA_LABEL, "bnd-kek", 7 },
			{ CKA_WRAP, &yes, 1 },
			{ CKA_UNWRAP, &yes, 1 },
		};

		bnd_fx[FX_KW].priv = bnd_fx[FX_KW].pub = create(s0, kek_tmpl,
		    7);
	}
	{
		static CK_BYTE aes_value[32] = "an AES-256 key for the ciphers";
		static CK_KEY_TYPE aes = CKK_AES;
		CK_ATTRIBUTE aes_tmpl[] = {
			{ CKA_CLASS, &secret_class, sizeof(secret_class) },
			{ CKA_KEY_TYPE, &aes, sizeof(aes) },
			{ CKA_VALUE, aes_value, sizeof(aes_value) },
			{ CKA_TOKEN, &yes, 1 },
			{ CKA_LABEL, "bnd-aes", 7 },
			{ CKA_WRAP, &yes, 1 },
			{ CKA_UNWRAP, &yes, 1 },
			{ CKA_ENCRYPT, &yes, 1 },
			{ CKA_DECRYPT, &yes, 1 },
			{ CKA_SIGN, &yes, 1 },
			{ CKA_VERIFY, &yes, 1 },
		};
		CK_OBJECT_HANDLE k = create(s0, aes_tmpl, 11);

		bnd_fx[FX_CBCPAD].priv = bnd_fx[FX_CBCPAD].pub = k;
		bnd_fx[FX_GCM].priv = bnd_fx[FX_GCM].pub = k;
		bnd_fx[FX_CMAC].priv = bnd_fx[FX_CMAC].pub = k;
	}
	bnd_data_object = create(s0, data_tmpl, 3);
	assert_rv(p11->C_GetAttributeValue(s0, ec_pub, &pt, 1), CKR_OK);
	assert_int_equal(pt.ulValueLen, 67);
	memcpy(ec_point, der + 2, 65);

	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	bnd_stale_object = create(h, data_tmpl, 3);
	assert_rv(p11->C_DestroyObject(h, bnd_stale_object), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	p11_bad_sessions(bad);
	bnd_stale_session = bad[2];

	for (i = 0; i < FX_COUNT; i++)
		bnd_fx[i].mech.mechanism = CKM_SHA256;
#define KEYS(f, m, pr, pu, sl, cl)                                          \
	do {                                                                \
		bnd_fx[f].mech.mechanism = (m);                                 \
		bnd_fx[f].priv = (pr);                                          \
		bnd_fx[f].pub = (pu);                                           \
		bnd_fx[f].siglen = (sl);                                        \
		bnd_fx[f].ctlen = (cl);                                         \
	} while (0)
	KEYS(FX_RSA, CKM_RSA_PKCS, rsa_priv, rsa_pub, 256, 256);
	KEYS(FX_OAEP, CKM_RSA_PKCS_OAEP, rsa_priv, rsa_pub, 0, 256);
	KEYS(FX_PSS, CKM_SHA256_RSA_PKCS_PSS, rsa_priv, rsa_pub, 256, 0);
	KEYS(FX_ECDSA, CKM_ECDSA, ec_priv, ec_pub, 64, 0);
	KEYS(FX_ECDSA256, CKM_ECDSA_SHA256, ec_priv, ec_pub, 64, 0);
	KEYS(FX_MLDSA, CKM_ML_DSA, ml_priv, ml_pub, 2420, 0);
	KEYS(FX_X25519, CKM_ECDH1_DERIVE, x_priv, x_pub, 0, 0);
	KEYS(FX_HMAC, CKM_SHA256_HMAC, hmac_key, hmac_key, 32, 0);
	KEYS(FX_ECDH, CKM_ECDH1_DERIVE, ec_priv, ec_pub, 0, 0);
	KEYS(FX_KW, CKM_AES_KEY_WRAP, bnd_fx[FX_KW].priv, bnd_fx[FX_KW].pub,
	    0, 0);
	KEYS(FX_CBCPAD, CKM_AES_CBC_PAD, bnd_fx[FX_CBCPAD].priv,
	    bnd_fx[FX_CBCPAD].pub, 0, 48);
	KEYS(FX_GCM, CKM_AES_GCM, bnd_fx[FX_GCM].priv, bnd_fx[FX_GCM].pub, 0,
	    48);
	KEYS(FX_CMAC, CKM_AES_CMAC, bnd_fx[FX_CMAC].priv, bnd_fx[FX_CMAC].pub,
	    16, 0);
	KEYS(FX_MLKEM, CKM_ML_KEM, kem_priv, kem_pub, 0, 0);
#undef KEYS
	/* What their Update and Final calls make of 32 bytes: CBC_PAD
	 * holds the last ciphertext block back, GCM decryption everything
	 * until the tag is checked. */
	bnd_fx[FX_CBCPAD].mech.pParameter = aes_iv;
	bnd_fx[FX_CBCPAD].mech.ulParameterLen = sizeof(aes_iv);
	bnd_fx[FX_CBCPAD].wraplen = 48;
	bnd_fx[FX_CBCPAD].parts = 1;
	bnd_fx[FX_CBCPAD].enc_part = 32;
	bnd_fx[FX_CBCPAD].enc_final = 16;
	bnd_fx[FX_CBCPAD].dec_part = 32;
	bnd_fx[FX_CBCPAD].dec_final = 0;
	bnd_fx[FX_GCM].mech.pParameter = &gcm;
	bnd_fx[FX_GCM].mech.ulParameterLen = sizeof(gcm);
	bnd_fx[FX_GCM].parts = 1;
	bnd_fx[FX_GCM].enc_part = 32;
	bnd_fx[FX_GCM].enc_final = 16;
	bnd_fx[FX_GCM].dec_part = 0;
	bnd_fx[FX_GCM].dec_final = 32;
	/* the HMAC key, wrapped */
	bnd_fx[FX_KW].wraplen = 40;
	bnd_fx[FX_OAEP].wraplen = 256;
	bnd_fx[FX_OAEP].mech.pParameter = &oaep;
	bnd_fx[FX_OAEP].mech.ulParameterLen = sizeof(oaep);
	bnd_fx[FX_PSS].mech.pParameter = &pss;
	bnd_fx[FX_PSS].mech.ulParameterLen = sizeof(pss);
	bnd_fx[FX_ECDH].mech.pParameter = &ecdh;
	bnd_fx[FX_ECDH].mech.ulParameterLen = sizeof(ecdh);
	bnd_fx[FX_X25519].mech.pParameter = &x25519;
	bnd_fx[FX_X25519].mech.ulParameterLen = sizeof(x25519);
	bnd_fx[FX_EDDSA].mech.mechanism = CKM_EDDSA;
	bnd_fx[FX_EDDSA].priv = ed_priv;
	bnd_fx[FX_EDDSA].pub = ed_pub;
	bnd_fx[FX_EDDSA].siglen = 64;
	bnd_fx[FX_EDDSA].mech.pParameter = &eddsa;
	bnd_fx[FX_EDDSA].mech.ulParameterLen = sizeof(eddsa);
	for (i = 0; i < FX_COUNT; i++)
		precompute(&bnd_fx[i]);
}

/* see tests/p11/boundary.h */
int
bnd_group_setup(void **state)
{
	CK_SLOT_ID ids[4];
	CK_ULONG n = 4, i;

	(void)state;
	if (p11_fresh_token(dir, "user_pin_retries = 1000\n"
	    "so_pin_retries = 1000\nsqlite_synchronous = off\n", "boundary",
	    &slot) != 0 ||
	    p11->C_GetSlotList(CK_FALSE, ids, &n) != CKR_OK)
		return -1;
	for (i = 0; i < n; i++)
		if (ids[i] != slot)
			empty_slot = ids[i];
	if (p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &s0) != CKR_OK ||
	    p11->C_Login(s0, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)) != CKR_OK)
		return -1;
	return 0;
}

/* see tests/p11/boundary.h */
int
bnd_group_teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* ------------------------------------------------ one call */

/* Puts the application in the fixture's login state. */
/* see tests/p11/boundary.h */
void
bnd_login_as(enum fx f)
{
	CK_SESSION_INFO si;
	CK_USER_TYPE want = f == FX_SO ? CKU_SO : CKU_USER;
	const char *pin = f == FX_SO ? P11_SO_PIN : P11_USER_PIN;

	assert_rv(p11->C_GetSessionInfo(s0, &si), CKR_OK);
	if ((si.state == CKS_RW_SO_FUNCTIONS && want != CKU_SO) ||
	    (si.state == CKS_RW_USER_FUNCTIONS &&
	    (want != CKU_USER || f == FX_PUBLIC)))
		assert_rv(p11->C_Logout(s0), CKR_OK);
	if (f != FX_PUBLIC) {
		CK_RV rv = p11->C_Login(s0, want, (CK_UTF8CHAR_PTR)pin,
		    strlen(pin));

		if (rv != CKR_USER_ALREADY_LOGGED_IN)
			assert_rv(rv, CKR_OK);
		if (rv == CKR_OK && want == CKU_USER)
			find_keys();
	}
}

/* An output buffer of exactly n bytes, filled with the pattern; it
 * replaces any buffer an earlier step of the same call set up. */
static void
output(struct call *c, CK_ULONG need, size_t elem)
{
	size_t n = need * elem;

	free(c->heap);
	c->heap = malloc(n ? n : 1);
	assert_non_null(c->heap);
	memset(c->heap, BND_PATTERN, n ? n : 1);
	c->out = c->heap;
	c->outlen = need;
	c->need = need;
}

/* Starts the fixture's operation op; with feed, gives it the input as
 * one Update (for the Final calls). */
static void
start_op(struct call *c, enum op op, int feed, const struct fixture *f)
{
	CK_BYTE_PTR in = op == OP_DECRYPT ? (CK_BYTE_PTR)f->ct : data;
	CK_ULONG inlen = op == OP_DECRYPT ? f->ctlen : DATA_LEN, n = 0;
	CK_BYTE part[512];
	CK_RV rv = CKR_OK;

	switch (op) {
	case OP_SIGN:
		rv = p11->C_SignInit(c->h, c->pmech, c->obj);
		if (rv == CKR_OK && feed)
			rv = p11->C_SignUpdate(c->h, in, inlen);
		break;
	case OP_VERIFY:
		rv = p11->C_VerifyInit(c->h, c->pmech, c->obj);
		if (rv == CKR_OK && feed)
			rv = p11->C_VerifyUpdate(c->h, in, inlen);
		break;
	case OP_ENCRYPT:
		rv = p11->C_EncryptInit(c->h, c->pmech, c->obj);
		n = sizeof(part);
		if (rv == CKR_OK && feed)
			rv = p11->C_EncryptUpdate(c->h, in, inlen, part, &n);
		break;
	case OP_DECRYPT:
		rv = p11->C_DecryptInit(c->h, c->pmech, c->obj);
		n = sizeof(part);
		if (rv == CKR_OK && feed)
			rv = p11->C_DecryptUpdate(c->h, in, inlen, part, &n);
		break;
	case OP_DIGEST:
		rv = p11->C_DigestInit(c->h, c->pmech);
		if (rv == CKR_OK && feed)
			rv = p11->C_DigestUpdate(c->h, in, inlen);
		break;
	case OP_NONE:
		break;
	}
	if (rv != CKR_OK)
		print_error("starting op %d: mechanism 0x%lx key %lu\n", (int)op,
		    (unsigned long)c->mech.mechanism, (unsigned long)c->obj);
	assert_rv(rv, CKR_OK);
	c->in = in;
	c->inlen = inlen;
}

/* The correct call of r's function in r's fixture. */
/* see tests/p11/boundary.h */
void
bnd_prep(const struct row *r, struct call *c)
{
	const struct fninfo *fi = &bnd_fns[r->fn];
	const struct fixture *f = &bnd_fx[r->fx];
	CK_ULONG n;

	memset(c, 0, sizeof(*c));
	bnd_login_as(r->fx);
	c->need = CK_UNAVAILABLE_INFORMATION;
	c->slot = r->fx == FX_EMPTY ? empty_slot : slot;
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &c->h), CKR_OK);
	c->mech = f->mech;
	c->pmech = &c->mech;
	c->user = CKU_USER;
	c->in = data;
	c->inlen = DATA_LEN;
	c->in2 = bnd_bogus;
	c->in2len = 16;
	c->poutlen = &c->outlen;
	c->tmpl = c->attrs;
	c->tmpl2 = c->attrs2;
	c->ph = &c->hout;
	c->ph2 = &c->hout2;
	c->info = &c->infobuf;
	c->param = bnd_bogus;
	c->paramlen = 16;
	c->name = (CK_UTF8CHAR_PTR)"PKCS 11";
	c->ver.major = 3;
	c->ver.minor = 2;
	c->version = &c->ver;
	c->ppiface = &c->iface;
	c->pplist = &c->list;
	c->obj = bnd_data_object;

	if (fi->op != OP_NONE) {
		c->obj = fi->op == OP_SIGN || fi->op == OP_DECRYPT ? f->priv
								   : f->pub;
		/* The plain fixtures start nothing: the call finds no
		 * operation. */
		if (fi->stage != ST_INIT && r->fx >= FX_RSA && r->fx != FX_FIND)
			start_op(c, fi->op, fi->stage == ST_FINAL ||
			    r->fn == F_C_VerifyFinal, f);
		if (fi->stage == ST_SINGLE || fi->stage == ST_FINAL)
			output(c, fi->op == OP_SIGN ? f->siglen
			    : fi->op == OP_ENCRYPT ? f->ctlen
			    : fi->op == OP_DIGEST ? 32 : DATA_LEN, 1);
		if (fi->stage == ST_FINAL && f->parts &&
		    (fi->op == OP_ENCRYPT || fi->op == OP_DECRYPT))
			output(c, fi->op == OP_ENCRYPT ? f->enc_final
						       : f->dec_final, 1);
		if (fi->stage == ST_UPDATE && (r->fn == F_C_EncryptUpdate ||
		    r->fn == F_C_DecryptUpdate)) {
			if (f->parts) {
				output(c, r->fn == F_C_EncryptUpdate
				    ? f->enc_part : f->dec_part, 1);
			} else {
				output(c, 256, 1);
				c->need = 0;
			}
		}
		if (fi->stage == ST_VERIFY) {
			c->in2 = (CK_BYTE_PTR)f->sig;
			c->in2len = f->siglen;
		}
		if (r->fn == F_C_DigestKey)
			c->obj = hmac_key;
		return;
	}
	switch (r->fn) {
	case F_C_Initialize:
		c->initargs.flags = CKF_OS_LOCKING_OK;
		c->init = &c->initargs;
		break;
	case F_C_GetSlotList:
		assert_rv(p11->C_GetSlotList(CK_FALSE, NULL, &n), CKR_OK);
		output(c, n, sizeof(CK_SLOT_ID));
		break;
	case F_C_GetMechanismList:
		assert_rv(p11->C_GetMechanismList(slot, NULL, &n), CKR_OK);
		output(c, n, sizeof(CK_MECHANISM_TYPE));
		break;
	case F_C_GetInterfaceList:
		output(c, 3, sizeof(CK_INTERFACE));
		break;
	case F_C_InitToken:
		c->in = (CK_BYTE_PTR)P11_SO_PIN;
		c->inlen = strlen(P11_SO_PIN);
		memset(c->scratch, ' ', 32);
		c->in2 = c->scratch;
		break;
	case F_C_InitPIN:
	case F_C_Login:
	case F_C_LoginUser:
		c->in = user_pin_x;
		c->inlen = strlen(P11_USER_PIN);
		c->in2 = (CK_BYTE_PTR)"name";
		c->in2len = 4;
		break;
	case F_C_SetPIN:
		c->in = c->in2 = (CK_BYTE_PTR)P11_USER_PIN;
		c->inlen = c->in2len = strlen(P11_USER_PIN);
		break;
	case F_C_OpenSession:
		c->flags = CKF_SERIAL_SESSION | CKF_RW_SESSION;
		break;
	case F_C_CreateObject:
		memcpy(c->attrs, data_tmpl, sizeof(data_tmpl));
		c->count = 3;
		break;
	case F_C_CopyObject:
	case F_C_DestroyObject:
	case F_C_GetObjectSize:
		c->obj = create(c->h, data_tmpl, 3);
		c->attrs[0].type = CKA_LABEL;
		c->attrs[0].pValue = "copy";
		c->attrs[0].ulValueLen = 4;
		c->count = 1;
		break;
	case F_C_GetAttributeValue:
		c->obj = create(c->h, secret_tmpl, NSECRET);
		output(c, 32, 1);
		c->attr_out = 1;
		c->attrs[0].type = CKA_VALUE;
		c->attrs[0].pValue = c->out;
		c->attrs[0].ulValueLen = 32;
		c->count = 1;
		break;
	case F_C_SetAttributeValue:
		c->obj = create(c->h, secret_tmpl, NSECRET);
		c->attrs[0].type = CKA_SIGN;
		c->attrs[0].pValue = &no;
		c->attrs[0].ulValueLen = 1;
		c->count = 1;
		break;
	case F_C_FindObjectsInit:
	case F_C_FindObjects:
	case F_C_FindObjectsFinal:
		c->attrs[0].type = CKA_CLASS;
		c->attrs[0].pValue = &secret_class;
		c->attrs[0].ulValueLen = sizeof(secret_class);
		c->count = 1;
		if (r->fn != F_C_FindObjectsInit && r->fx == FX_FIND)
			assert_rv(p11->C_FindObjectsInit(c->h, c->tmpl, 1),
			    CKR_OK);
		c->ph = c->hfound;
		c->count = 8;
		break;
	case F_C_GenerateKey:
		c->mech.mechanism = CKM_GENERIC_SECRET_KEY_GEN;
		c->attrs[0].type = CKA_VALUE_LEN;
		c->attrs[0].pValue = &len32;
		c->attrs[0].ulValueLen = sizeof(len32);
		c->count = 1;
		break;
	case F_C_GenerateKeyPair:
		c->mech.mechanism = CKM_EC_KEY_PAIR_GEN;
		c->attrs[0].type = CKA_EC_PARAMS;
		c->attrs[0].pValue = (void *)p256_oid;
		c->attrs[0].ulValueLen = sizeof(p256_oid);
		c->count = 1;
		c->attrs2[0].type = CKA_SIGN;
		c->attrs2[0].pValue = &yes;
		c->attrs2[0].ulValueLen = 1;
		c->count2 = 1;
		break;
	case F_C_DeriveKey:
		c->obj = f->priv;
		c->attrs[0].type = CKA_CLASS;
		c->attrs[0].pValue = &secret_class;
		c->attrs[0].ulValueLen = sizeof(secret_class);
		c->attrs[1].type = CKA_KEY_TYPE;
		c->attrs[1].pValue = &generic;
		c->attrs[1].ulValueLen = sizeof(generic);
		c->count = 2;
		break;
	case F_C_WrapKey:
		c->obj = f->pub;
		c->obj2 = hmac_key;
		output(c, f->wraplen, 1);
		break;
	case F_C_UnwrapKey:
		c->obj = f->priv;
		memset(wrapped_in, 0, sizeof(wrapped_in));
		memcpy(wrapped_in, f->wrapped, f->wraplen);
		c->in = wrapped_in;
		c->inlen = f->wraplen;
		c->attrs[0].type = CKA_CLASS;
		c->attrs[0].pValue = &secret_class;
		c->attrs[0].ulValueLen = sizeof(secret_class);
		c->attrs[1].type = CKA_KEY_TYPE;
		c->attrs[1].pValue = &generic;
		c->attrs[1].ulValueLen = sizeof(generic);
		c->count = 2;
		break;
	case F_C_EncapsulateKey:
	case F_C_DecapsulateKey:
		c->obj = r->fn == F_C_EncapsulateKey ? f->pub : f->priv;
		if (r->fn == F_C_EncapsulateKey) {
			output(c, KEM_CT_LEN, 1);
		} else {
			memset(wrapped_in, 0, sizeof(wrapped_in));
			memcpy(wrapped_in, kem_ct, KEM_CT_LEN);
			c->in = wrapped_in;
			c->inlen = KEM_CT_LEN;
		}
		c->attrs[0].type = CKA_CLASS;
		c->attrs[0].pValue = &secret_class;
		c->attrs[0].ulValueLen = sizeof(secret_class);
		c->attrs[1].type = CKA_KEY_TYPE;
		c->attrs[1].pValue = &generic;
		c->attrs[1].ulValueLen = sizeof(generic);
		c->count = 2;
		break;
	case F_C_GenerateRandom:
		output(c, 32, 1);
		c->need = CK_UNAVAILABLE_INFORMATION;
		break;
	case F_C_WaitForSlotEvent:
		c->flags = CKF_DONT_BLOCK;
		break;
	case F_C_SessionCancel:
		c->flags = CKF_SIGN;
		break;
	default:
		output(c, 64, 1);
		c->need = CK_UNAVAILABLE_INFORMATION;
		break;
	}
}

