/*
 * The cases of the p11 mode: see p11case.h. The list follows issue 4,
 * part 2, plus cheap calls every module answers (digest, random, sessions,
 * find). Adding a case is one row of p11_cases[] and, where the existing
 * set-up functions do not fit, one set-up function.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/bench.h"
#include "tests/bench/p11case.h"

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* DER of the OID prime256v1 (secp256r1), as CKA_EC_PARAMS. */
static const unsigned char p256_oid[] = {
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

/* DigestInfo prefix of SHA-256 [RFC 8017 §9.2 note 1]: with a 32-byte
 * hash, the 51-byte input of a CKM_RSA_PKCS signature. */
static const unsigned char sha256_prefix[19] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20
};

/* ---------------------------------------------------------------- keys */

static CK_RV
gen_rsa(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM mech = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_ULONG bits = 2048;
	CK_BYTE e[] = { 0x01, 0x00, 0x01 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_PUBLIC_EXPONENT, e, sizeof(e) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
		{ CKA_ENCRYPT, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_DECRYPT, &yes, sizeof(yes) },
	};

	return f->C_GenerateKeyPair(s, &mech, pt, 5, st, 5, pub, priv);
}

/* A P-256 pair, token objects when token. */
static CK_RV
gen_ec_on(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_BBOOL *token,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM mech = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, token, sizeof(*token) },
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, token, sizeof(*token) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_DERIVE, &yes, sizeof(yes) },
	};

	return f->C_GenerateKeyPair(s, &mech, pt, 3, st, 5, pub, priv);
}

static CK_RV
gen_ec(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv)
{
	return gen_ec_on(f, s, &no, pub, priv);
}

/* id-Ed25519 [RFC 8410], as CKA_EC_PARAMS (SoftHSMv2 takes the OID). */
static const unsigned char ed25519_oid[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };

static CK_RV
gen_ed25519(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *pub,
    CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM mech = { CKM_EC_EDWARDS_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_EC_PARAMS, (void *)ed25519_oid, sizeof(ed25519_oid) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};

	return f->C_GenerateKeyPair(s, &mech, pt, 3, st, 4, pub, priv);
}

static CK_RV
gen_mldsa(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_ULONG set,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM mech = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_ML_DSA_PARAMETER_SET_TYPE ps = set;
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PARAMETER_SET, &ps, sizeof(ps) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
	};

	return f->C_GenerateKeyPair(s, &mech, pt, 3, st, 4, pub, priv);
}

static CK_RV
gen_secret(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *key)
{
	CK_MECHANISM mech = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_SIGN, &yes, sizeof(yes) },
		{ CKA_VERIFY, &yes, sizeof(yes) },
	};

	return f->C_GenerateKey(s, &mech, t, 7, key);
}

static CK_RV
gen_aes(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_OBJECT_HANDLE *key)
{
	CK_MECHANISM mech = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_ENCRYPT, &yes, sizeof(yes) },
		{ CKA_DECRYPT, &yes, sizeof(yes) },
	};

	return f->C_GenerateKey(s, &mech, t, 7, key);
}

/* An ML-KEM pair (by the 3.2 numbers, which the module's older tables
 * take too). */
static CK_RV
gen_mlkem(CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s, CK_ULONG set,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM mech = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_ENCAPSULATE, &yes, sizeof(yes) },
	};
	CK_ATTRIBUTE st[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &yes, sizeof(yes) },
		{ CKA_SENSITIVE, &yes, sizeof(yes) },
		{ CKA_DECAPSULATE, &yes, sizeof(yes) },
	};

	return f->C_GenerateKeyPair(s, &mech, pt, 3, st, 4, pub, priv);
}

static CK_ULONG
mldsa_set(enum p11need need)
{
	return need == NEED_MLDSA44 ? CKP_ML_DSA_44 :
	    need == NEED_MLDSA65 ? CKP_ML_DSA_65 : CKP_ML_DSA_87;
}

/* see p11case.h */
CK_RV
p11keys_need(struct p11keys *k, CK_FUNCTION_LIST *f, CK_SESSION_HANDLE s,
    enum p11need need)
{
	CK_RV rv;

	if (need == NEED_NONE || k->tried[need])
		return need == NEED_NONE ? CKR_OK : k->rv[need];
	switch (need) {
	case NEED_RSA:
		rv = gen_rsa(f, s, &k->pub[need], &k->priv[need]);
		break;
	case NEED_EC:
		rv = gen_ec(f, s, &k->pub[need], &k->priv[need]);
		if (rv == CKR_OK)
			rv = gen_ec(f, s, &k->peer_pub, &k->peer_priv);
		break;
	case NEED_HMAC:
		rv = gen_secret(f, s, &k->priv[need]);
		k->pub[need] = k->priv[need];
		break;
	case NEED_AES:
		rv = gen_aes(f, s, &k->priv[need]);
		k->pub[need] = k->priv[need];
		break;
	case NEED_ED25519:
		rv = gen_ed25519(f, s, &k->pub[need], &k->priv[need]);
		break;
	case NEED_MLKEM512:
	case NEED_MLKEM768:
	case NEED_MLKEM1024:
		rv = gen_mlkem(f, s, need == NEED_MLKEM512 ? CKP_ML_KEM_512 :
		    need == NEED_MLKEM768 ? CKP_ML_KEM_768 : CKP_ML_KEM_1024,
		    &k->pub[need], &k->priv[need]);
		break;
	default:
		rv = gen_mldsa(f, s, mldsa_set(need), &k->pub[need],
		    &k->priv[need]);
		break;
	}
	k->tried[need] = 1;
	k->rv[need] = rv;
	return rv;
}

/* ---------------------------------------------------- cheap calls */

static CK_RV
fill_setup(struct pthr *t)
{
	size_t i;

	for (i = 0; i < sizeof(t->in); i++)
		t->in[i] = (unsigned char)(i * 7 + 1);
	t->inlen = sizeof(t->in);
	return CKR_OK;
}

static CK_RV
digest_run(struct pthr *t)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_ULONG len = sizeof(t->out);
	CK_RV rv;

	rv = t->f->C_DigestInit(t->s, &mech);
	if (rv == CKR_OK)
		rv = t->f->C_Digest(t->s, t->in, 1024, t->out, &len);
	return rv;
}

static CK_RV
random_run(struct pthr *t)
{
	return t->f->C_GenerateRandom(t->s, t->out, 32);
}

static CK_RV
slot_setup(struct pthr *t)
{
	CK_SESSION_INFO si;
	CK_RV rv;

	rv = t->f->C_GetSessionInfo(t->s, &si);
	if (rv == CKR_OK)
		t->slot = si.slotID;
	return rv;
}

static CK_RV
session_run(struct pthr *t)
{
	CK_SESSION_HANDLE h;
	CK_RV rv;

	rv = t->f->C_OpenSession(t->slot, CKF_SERIAL_SESSION, NULL, NULL, &h);
	if (rv == CKR_OK)
		rv = t->f->C_CloseSession(h);
	return rv;
}

/* Finds the one data object labelled P11_FIND_LABEL; finding another
 * number of objects is a failure (CKR_FUNCTION_FAILED). */
static CK_RV
find_run(struct pthr *t)
{
	CK_ATTRIBUTE tmpl[] = {
		{ CKA_LABEL, (void *)P11_FIND_LABEL,
		    sizeof(P11_FIND_LABEL) - 1 },
	};
	CK_OBJECT_HANDLE h[4];
	CK_ULONG n = 0;
	CK_RV rv, rv2;

	rv = t->f->C_FindObjectsInit(t->s, tmpl, 1);
	if (rv != CKR_OK)
		return rv;
	rv = t->f->C_FindObjects(t->s, h, 4, &n);
	rv2 = t->f->C_FindObjectsFinal(t->s);
	if (rv == CKR_OK)
		rv = rv2;
	if (rv == CKR_OK && n != 1)
		rv = CKR_FUNCTION_FAILED;
	return rv;
}

/* Ten session data objects of this thread's session, labelled after the
 * session: the one labelled ... 5 is what sfind_run looks for (t->in),
 * among every session object (session objects are visible to all the
 * application's sessions, so the other threads' are searched too). */
static CK_RV
sfind_setup(struct pthr *t)
{
	CK_OBJECT_CLASS cls = CKO_DATA;
	char label[64];
	CK_ATTRIBUTE tmpl[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_PRIVATE, &no, sizeof(no) },
		{ CKA_LABEL, label, 0 },
		{ CKA_VALUE, (void *)"session object", 14 },
	};
	CK_RV rv = CKR_OK;
	int i;

	for (i = 0; i < 10 && rv == CKR_OK; i++) {
		snprintf(label, sizeof(label), "vgtoken-bench sfind %lu %d",
		    (unsigned long)t->s, i);
		tmpl[3].ulValueLen = strlen(label);
		rv = t->f->C_CreateObject(t->s, tmpl, 5, &t->objs[i]);
		if (rv == CKR_OK)
			t->nobjs++;
	}
	snprintf((char *)t->in, sizeof(t->in), "vgtoken-bench sfind %lu 5",
	    (unsigned long)t->s);
	t->inlen = strlen((char *)t->in);
	return rv;
}

static void
objs_teardown(struct pthr *t)
{
	while (t->nobjs > 0)
		t->f->C_DestroyObject(t->s, t->objs[--t->nobjs]);
}

/* Finds the one session object labelled t->in; another count is a
 * failure (CKR_FUNCTION_FAILED). */
static CK_RV
sfind_run(struct pthr *t)
{
	CK_ATTRIBUTE tmpl[] = {
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_LABEL, t->in, t->inlen },
	};
	CK_OBJECT_HANDLE h[4];
	CK_ULONG n = 0;
	CK_RV rv, rv2;

	rv = t->f->C_FindObjectsInit(t->s, tmpl, 2);
	if (rv != CKR_OK)
		return rv;
	rv = t->f->C_FindObjects(t->s, h, 4, &n);
	rv2 = t->f->C_FindObjectsFinal(t->s);
	if (rv == CKR_OK)
		rv = rv2;
	if (rv == CKR_OK && (n != 1 || h[0] != t->objs[5]))
		rv = CKR_FUNCTION_FAILED;
	return rv;
}

/* C_CreateObject of a session AES-256 key, then its C_DestroyObject: the
 * cost of an object's life in the module, without any mathematics. */
static CK_RV
create_run(struct pthr *t)
{
	static unsigned char value[32] = "vgtoken-bench create key value.";
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_AES;
	CK_ATTRIBUTE tmpl[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &no, sizeof(no) },
		{ CKA_VALUE, value, sizeof(value) },
		{ CKA_ENCRYPT, &yes, sizeof(yes) },
		{ CKA_DECRYPT, &yes, sizeof(yes) },
	};
	CK_OBJECT_HANDLE h;
	CK_RV rv;

	rv = t->f->C_CreateObject(t->s, tmpl, 6, &h);
	if (rv == CKR_OK)
		rv = t->f->C_DestroyObject(t->s, h);
	return rv;
}

/* ---------------------------------------------------- key generation */

static CK_RV
destroy_pair(struct pthr *t, CK_OBJECT_HANDLE pub, CK_OBJECT_HANDLE priv)
{
	CK_RV r1, r2;

	r1 = t->f->C_DestroyObject(t->s, pub);
	r2 = t->f->C_DestroyObject(t->s, priv);
	return r1 != CKR_OK ? r1 : r2;
}

/* Key pair generation, then C_DestroyObject of both halves. */
static CK_RV
rsagen_run(struct pthr *t)
{
	CK_OBJECT_HANDLE pub, priv;
	CK_RV rv;

	rv = gen_rsa(t->f, t->s, &pub, &priv);
	return rv == CKR_OK ? destroy_pair(t, pub, priv) : rv;
}

static CK_RV
ecgen_run(struct pthr *t)
{
	CK_OBJECT_HANDLE pub, priv;
	CK_RV rv;

	rv = gen_ec(t->f, t->s, &pub, &priv);
	return rv == CKR_OK ? destroy_pair(t, pub, priv) : rv;
}

static CK_RV
mldsagen_run(struct pthr *t)
{
	CK_OBJECT_HANDLE pub, priv;
	CK_RV rv;

	rv = gen_mldsa(t->f, t->s, t->c->param, &pub, &priv);
	return rv == CKR_OK ? destroy_pair(t, pub, priv) : rv;
}

/* ------------------------------------------------ sign and verify */

/* Mechanism and input of a signing case, by its mechanism (param). */
static CK_RV
sign_setup(struct pthr *t)
{
	enum p11need need = t->c->need;

	fill_setup(t);
	memset(&t->mech, 0, sizeof(t->mech));
	t->mech.mechanism = t->c->param;
	t->key = t->k->priv[need];
	switch (t->c->param) {
	case CKM_RSA_PKCS:
		memcpy(t->in, sha256_prefix, sizeof(sha256_prefix));
		t->inlen = 51;
		break;
	case CKM_RSA_PKCS_PSS:
	case CKM_SHA256_RSA_PKCS_PSS:
		t->p.pss.hashAlg = CKM_SHA256;
		t->p.pss.mgf = CKG_MGF1_SHA256;
		t->p.pss.sLen = 32;
		t->mech.pParameter = &t->p.pss;
		t->mech.ulParameterLen = sizeof(t->p.pss);
		t->inlen = t->c->param == CKM_RSA_PKCS_PSS ? 32 : 1024;
		break;
	case CKM_SHA256_HMAC:
		t->inlen = 1024;
		break;
	default: /* CKM_ECDSA (a 32-byte hash), CKM_ML_DSA, CKM_EDDSA (32
	          * bytes) */
		t->inlen = 32;
		break;
	}
	return CKR_OK;
}

static CK_RV
sign_run(struct pthr *t)
{
	CK_ULONG len = sizeof(t->out);
	CK_RV rv;

	rv = t->f->C_SignInit(t->s, &t->mech, t->key);
	if (rv == CKR_OK)
		rv = t->f->C_Sign(t->s, t->in, t->inlen, t->out, &len);
	return rv;
}

/* A signature made once with the private key, verified with the
 * public one. */
static CK_RV
verify_setup(struct pthr *t)
{
	CK_ULONG len = sizeof(t->aux);
	CK_RV rv;

	sign_setup(t);
	rv = t->f->C_SignInit(t->s, &t->mech, t->key);
	if (rv == CKR_OK)
		rv = t->f->C_Sign(t->s, t->in, t->inlen, t->aux, &len);
	t->auxlen = len;
	t->key = t->k->pub[t->c->need];
	return rv;
}

static CK_RV
verify_run(struct pthr *t)
{
	CK_RV rv;

	rv = t->f->C_VerifyInit(t->s, &t->mech, t->key);
	if (rv == CKR_OK)
		rv = t->f->C_Verify(t->s, t->in, t->inlen, t->aux, t->auxlen);
	return rv;
}

/* ------------------------------------------------------ decryption */

/* A 32-byte message encrypted once with the public key; param is the
 * mechanism, or for OAEP its hash. */
static CK_RV
decrypt_setup(struct pthr *t)
{
	CK_ULONG len = sizeof(t->aux);
	CK_RV rv;

	fill_setup(t);
	t->inlen = 32;
	memset(&t->mech, 0, sizeof(t->mech));
	if (t->c->param == CKM_RSA_PKCS) {
		t->mech.mechanism = CKM_RSA_PKCS;
	} else {
		t->mech.mechanism = CKM_RSA_PKCS_OAEP;
		t->p.oaep.hashAlg = t->c->param;
		t->p.oaep.mgf = t->c->param == CKM_SHA_1 ? CKG_MGF1_SHA1 :
		    CKG_MGF1_SHA256;
		t->p.oaep.source = CKZ_DATA_SPECIFIED;
		t->mech.pParameter = &t->p.oaep;
		t->mech.ulParameterLen = sizeof(t->p.oaep);
	}
	rv = t->f->C_EncryptInit(t->s, &t->mech, t->k->pub[NEED_RSA]);
	if (rv == CKR_OK)
		rv = t->f->C_Encrypt(t->s, t->in, t->inlen, t->aux, &len);
	t->auxlen = len;
	t->key = t->k->priv[NEED_RSA];
	return rv;
}

static CK_RV
decrypt_run(struct pthr *t)
{
	CK_ULONG len = sizeof(t->out);
	CK_RV rv;

	rv = t->f->C_DecryptInit(t->s, &t->mech, t->key);
	if (rv == CKR_OK)
		rv = t->f->C_Decrypt(t->s, t->aux, t->auxlen, t->out, &len);
	return rv;
}

/* ---------------------------------------------------------- AES-GCM */

/* AES-256-GCM of param bytes with a 12-byte IV, 16 bytes of AAD and a
 * 16-byte tag. The IV is the same for every call: a benchmark's
 * shortcut, never to be copied into an application. */
static CK_RV
gcm_setup(struct pthr *t)
{
	static unsigned char iv[12] = "bench-gcm-iv";
	static unsigned char aad[16] = "bench-gcm-aad..";
	CK_ULONG i;

	t->inlen = t->c->param;
	t->buf = malloc(2 * t->inlen + 16);
	if (t->buf == NULL)
		return CKR_HOST_MEMORY;
	for (i = 0; i < t->inlen; i++)
		t->buf[i] = (unsigned char)(i * 13 + 3);
	memset(&t->mech, 0, sizeof(t->mech));
	memset(&t->p.gcm, 0, sizeof(t->p.gcm));
	t->p.gcm.pIv = iv;
	t->p.gcm.ulIvLen = sizeof(iv);
	t->p.gcm.ulIvBits = 8 * sizeof(iv);
	t->p.gcm.pAAD = aad;
	t->p.gcm.ulAADLen = sizeof(aad);
	t->p.gcm.ulTagBits = 128;
	t->mech.mechanism = CKM_AES_GCM;
	t->mech.pParameter = &t->p.gcm;
	t->mech.ulParameterLen = sizeof(t->p.gcm);
	t->key = t->k->priv[NEED_AES];
	return CKR_OK;
}

static CK_RV
gcm_run(struct pthr *t)
{
	CK_ULONG len = t->inlen + 16;
	CK_RV rv;

	rv = t->f->C_EncryptInit(t->s, &t->mech, t->key);
	if (rv == CKR_OK)
		rv = t->f->C_Encrypt(t->s, t->buf, t->inlen,
		    t->buf + t->inlen, &len);
	return rv;
}

static void
buf_teardown(struct pthr *t)
{
	free(t->buf);
	t->buf = NULL;
}

/* ------------------------------------------------------------- ECDH */

static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY;
static CK_KEY_TYPE generic_type = CKK_GENERIC_SECRET;
static CK_ULONG secret_len = 32;
static CK_ATTRIBUTE derived_tmpl[] = {
	{ CKA_CLASS, &secret_class, sizeof(secret_class) },
	{ CKA_KEY_TYPE, &generic_type, sizeof(generic_type) },
	{ CKA_VALUE_LEN, &secret_len, sizeof(secret_len) },
	{ CKA_TOKEN, &no, sizeof(no) },
	{ CKA_SENSITIVE, &no, sizeof(no) },
	{ CKA_EXTRACTABLE, &yes, sizeof(yes) },
};

/* C_DeriveKey to a 32-byte generic secret, then its C_DestroyObject. */
static CK_RV
derive_run(struct pthr *t)
{
	CK_OBJECT_HANDLE h;
	CK_RV rv;

	rv = t->f->C_DeriveKey(t->s, &t->mech, t->key, derived_tmpl, 6, &h);
	if (rv == CKR_OK)
		rv = t->f->C_DestroyObject(t->s, h);
	return rv;
}

/* The peer's point as the public data: the raw uncompressed point first
 * (what the specification asks for), the DER OCTET STRING of CKA_EC_POINT
 * if a module takes only that. */
static CK_RV
derive_setup(struct pthr *t)
{
	CK_ATTRIBUTE a = { CKA_EC_POINT, t->point, sizeof(t->point) };
	CK_RV rv;

	rv = t->f->C_GetAttributeValue(t->s, t->k->peer_pub, &a, 1);
	if (rv != CKR_OK)
		return rv;
	memset(&t->mech, 0, sizeof(t->mech));
	t->mech.mechanism = CKM_ECDH1_DERIVE;
	t->mech.pParameter = &t->p.ecdh;
	t->mech.ulParameterLen = sizeof(t->p.ecdh);
	t->p.ecdh.kdf = CKD_NULL;
	t->p.ecdh.pPublicData = t->point;
	t->p.ecdh.ulPublicDataLen = a.ulValueLen;
	t->key = t->k->priv[NEED_EC];
	if (a.ulValueLen == 67 && t->point[0] == 0x04 && t->point[1] == 65) {
		t->p.ecdh.pPublicData = t->point + 2;
		t->p.ecdh.ulPublicDataLen = 65;
		if (derive_run(t) == CKR_OK)
			return CKR_OK;
		t->p.ecdh.pPublicData = t->point;
		t->p.ecdh.ulPublicDataLen = a.ulValueLen;
	}
	return CKR_OK; /* the warm-up call reports a failure */
}

/* ------------------------------------------------- key generation */

/* One session key pair made and both halves destroyed: the cost of
 * making objects (issue 23), on top of the crypto layer's key
 * generation. param names the pair: 0 EC P-256, KEYGEN_EC_TOKEN the same
 * as token objects (each pair one durable commit to make and one to
 * destroy), KEYGEN_RSA RSA-2048, else an ML-DSA parameter set. */
#define KEYGEN_RSA 0x10000
#define KEYGEN_EC_TOKEN 0x20000
static CK_RV
keygen_run(struct pthr *t)
{
	CK_OBJECT_HANDLE pub = CK_INVALID_HANDLE, priv = CK_INVALID_HANDLE;
	CK_RV rv, rv2;

	if (t->c->param == 0)
		rv = gen_ec(t->f, t->s, &pub, &priv);
	else if (t->c->param == KEYGEN_EC_TOKEN)
		rv = gen_ec_on(t->f, t->s, &yes, &pub, &priv);
	else if (t->c->param == KEYGEN_RSA)
		rv = gen_rsa(t->f, t->s, &pub, &priv);
	else
		rv = gen_mldsa(t->f, t->s, t->c->param, &pub, &priv);
	if (rv != CKR_OK)
		return rv;
	rv = t->f->C_DestroyObject(t->s, priv);
	rv2 = t->f->C_DestroyObject(t->s, pub);
	return rv != CKR_OK ? rv : rv2;
}

/* ------------------------------------------------------------ table */

/* ------------------------------------------------ key encapsulation */

/* The secret key each encapsulation makes: a session generic secret. */
static CK_OBJECT_CLASS kem_class = CKO_SECRET_KEY;
static CK_KEY_TYPE kem_type = CKK_GENERIC_SECRET;
static CK_ATTRIBUTE kem_tmpl[] = {
	{ CKA_CLASS, &kem_class, sizeof(kem_class) },
	{ CKA_KEY_TYPE, &kem_type, sizeof(kem_type) },
	{ CKA_TOKEN, &no, sizeof(no) },
	{ CKA_SENSITIVE, &yes, sizeof(yes) },
};

/* C_EncapsulateKey with the public key into t->aux, then C_DestroyObject
 * of the new key. */
static CK_RV
encaps_run(struct pthr *t)
{
	CK_OBJECT_HANDLE h;
	CK_RV rv;

	t->auxlen = sizeof(t->aux);
	rv = t->f32->C_EncapsulateKey(t->s, &t->mech, t->k->pub[t->c->need],
	    kem_tmpl, 4, t->aux, &t->auxlen, &h);
	if (rv == CKR_OK)
		rv = t->f32->C_DestroyObject(t->s, h);
	return rv;
}

/* C_DecapsulateKey of the ciphertext in t->aux, then C_DestroyObject. */
static CK_RV
decaps_run(struct pthr *t)
{
	CK_OBJECT_HANDLE h;
	CK_RV rv;

	rv = t->f32->C_DecapsulateKey(t->s, &t->mech, t->k->priv[t->c->need],
	    kem_tmpl, 4, t->aux, t->auxlen, &h);
	if (rv == CKR_OK)
		rv = t->f32->C_DestroyObject(t->s, h);
	return rv;
}

/* Only a module with the 3.2 interface encapsulates; decapsulation
 * takes a ciphertext made here. */
static CK_RV
kem_setup(struct pthr *t)
{
	if (t->f32 == NULL)
		return CKR_FUNCTION_NOT_SUPPORTED;
	memset(&t->mech, 0, sizeof(t->mech));
	t->mech.mechanism = t->c->param;
	return t->c->run == decaps_run ? encaps_run(t) : CKR_OK;
}

const struct pcase p11_cases[] = {
	{ "C_Digest SHA-256 1 KiB", NEED_NONE, 0, fill_setup, digest_run,
	    NULL },
	{ "C_GenerateRandom 32 B", NEED_NONE, 0, NULL, random_run, NULL },
	{ "C_OpenSession+C_CloseSession", NEED_NONE, 0, slot_setup,
	    session_run, NULL },
	{ "C_FindObjects by label (10 objects)", NEED_NONE, 0, NULL, find_run,
	    NULL },
	{ "C_FindObjects session objects (10 per thread)", NEED_NONE, 0,
	    sfind_setup, sfind_run, objs_teardown },
	{ "C_CreateObject+C_DestroyObject AES-256 session key", NEED_NONE, 0,
	    NULL, create_run, NULL },
	{ "C_Sign SHA256_HMAC (1 KiB)", NEED_HMAC, CKM_SHA256_HMAC,
	    sign_setup, sign_run, NULL },

	{ "C_Encrypt AES-256-GCM 16 KiB", NEED_AES, 16384, gcm_setup,
	    gcm_run, buf_teardown },
	{ "C_Encrypt AES-256-GCM 256 B", NEED_AES, 256, gcm_setup, gcm_run,
	    buf_teardown },
	{ "RSA-2048 key generation", NEED_NONE, 0, NULL, rsagen_run, NULL },
	{ "C_Sign RSA_PKCS 2048 (51 B)", NEED_RSA, CKM_RSA_PKCS, sign_setup,
	    sign_run, NULL },
	{ "C_Sign RSA_PKCS_PSS 2048 (32 B)", NEED_RSA, CKM_RSA_PKCS_PSS,
	    sign_setup, sign_run, NULL },
	{ "C_Sign SHA256_RSA_PKCS_PSS (1 KiB)", NEED_RSA,
	    CKM_SHA256_RSA_PKCS_PSS, sign_setup, sign_run, NULL },
	{ "C_Verify RSA_PKCS 2048 (51 B)", NEED_RSA, CKM_RSA_PKCS,
	    verify_setup, verify_run, NULL },
	{ "C_Decrypt RSA_PKCS 2048", NEED_RSA, CKM_RSA_PKCS, decrypt_setup,
	    decrypt_run, NULL },
	{ "C_Decrypt RSA_PKCS_OAEP SHA-256", NEED_RSA, CKM_SHA256,
	    decrypt_setup, decrypt_run, NULL },
	{ "C_Decrypt RSA_PKCS_OAEP SHA-1", NEED_RSA, CKM_SHA_1,
	    decrypt_setup, decrypt_run, NULL },

	{ "EC P-256 key generation", NEED_NONE, 0, NULL, ecgen_run, NULL },
	{ "C_Sign ECDSA P-256 (32 B)", NEED_EC, CKM_ECDSA, sign_setup,
	    sign_run, NULL },
	{ "C_Verify ECDSA P-256 (32 B)", NEED_EC, CKM_ECDSA, verify_setup,
	    verify_run, NULL },
	{ "C_DeriveKey ECDH1 P-256 (+destroy)", NEED_EC, 0, derive_setup,
	    derive_run, NULL },
	{ "C_GenerateKeyPair EC P-256 (+destroy)", NEED_NONE, 0, NULL,
	    keygen_run, NULL },
	{ "C_GenerateKeyPair EC P-256 token (+destroy)", NEED_NONE,
	    KEYGEN_EC_TOKEN, NULL, keygen_run, NULL },
	{ "C_GenerateKeyPair ML-DSA-44 (+destroy)", NEED_NONE, CKP_ML_DSA_44,
	    NULL, keygen_run, NULL },
	{ "C_GenerateKeyPair ML-DSA-65 (+destroy)", NEED_NONE, CKP_ML_DSA_65,
	    NULL, keygen_run, NULL },
	{ "C_GenerateKeyPair RSA 2048 (+destroy)", NEED_NONE, KEYGEN_RSA, NULL,
	    keygen_run, NULL },

	{ "C_Sign EDDSA Ed25519 (32 B)", NEED_ED25519, CKM_EDDSA, sign_setup,
	    sign_run, NULL },
	{ "C_Verify EDDSA Ed25519 (32 B)", NEED_ED25519, CKM_EDDSA,
	    verify_setup, verify_run, NULL },

	{ "ML-DSA-44 key generation", NEED_NONE, CKP_ML_DSA_44, NULL,
	    mldsagen_run, NULL },
	{ "C_Sign ML-DSA-44 (32 B)", NEED_MLDSA44, CKM_ML_DSA, sign_setup,
	    sign_run, NULL },
	{ "C_Verify ML-DSA-44 (32 B)", NEED_MLDSA44, CKM_ML_DSA,
	    verify_setup, verify_run, NULL },
	{ "ML-DSA-65 key generation", NEED_NONE, CKP_ML_DSA_65, NULL,
	    mldsagen_run, NULL },
	{ "C_Sign ML-DSA-65 (32 B)", NEED_MLDSA65, CKM_ML_DSA, sign_setup,
	    sign_run, NULL },
	{ "C_Verify ML-DSA-65 (32 B)", NEED_MLDSA65, CKM_ML_DSA,
	    verify_setup, verify_run, NULL },
	{ "ML-DSA-87 key generation", NEED_NONE, CKP_ML_DSA_87, NULL,
	    mldsagen_run, NULL },
	{ "C_Sign ML-DSA-87 (32 B)", NEED_MLDSA87, CKM_ML_DSA, sign_setup,
	    sign_run, NULL },
	{ "C_Verify ML-DSA-87 (32 B)", NEED_MLDSA87, CKM_ML_DSA,
	    verify_setup, verify_run, NULL },

	{ "C_EncapsulateKey ML-KEM-512 (+destroy)", NEED_MLKEM512, CKM_ML_KEM,
	    kem_setup, encaps_run, NULL },
	{ "C_DecapsulateKey ML-KEM-512 (+destroy)", NEED_MLKEM512, CKM_ML_KEM,
	    kem_setup, decaps_run, NULL },
	{ "C_EncapsulateKey ML-KEM-768 (+destroy)", NEED_MLKEM768, CKM_ML_KEM,
	    kem_setup, encaps_run, NULL },
	{ "C_DecapsulateKey ML-KEM-768 (+destroy)", NEED_MLKEM768, CKM_ML_KEM,
	    kem_setup, decaps_run, NULL },
	{ "C_EncapsulateKey ML-KEM-1024 (+destroy)", NEED_MLKEM1024,
	    CKM_ML_KEM, kem_setup, encaps_run, NULL },
	{ "C_DecapsulateKey ML-KEM-1024 (+destroy)", NEED_MLKEM1024,
	    CKM_ML_KEM, kem_setup, decaps_run, NULL },
};
const size_t p11_ncases = sizeof(p11_cases) / sizeof(p11_cases[0]);
