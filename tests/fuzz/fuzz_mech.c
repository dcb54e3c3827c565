/*
 * Fuzz target "mech": mechanism parameters through C_SignInit,
 * C_VerifyInit, C_EncryptInit, C_DecryptInit, C_DeriveKey, C_WrapKey,
 * C_UnwrapKey, C_EncapsulateKey and C_DecapsulateKey against real keys
 * (RSA-2048, P-256, ML-DSA-44, ML-KEM-512, an HMAC key, an AES key, or
 * any handle), then the operation itself on input
 * data. The input picks the
 * function, the mechanism (mostly one the module offers), the key and
 * the parameter: none, a NULL pointer with a length, raw bytes, or a
 * CK_RSA_PKCS_PSS_PARAMS, CK_RSA_PKCS_OAEP_PARAMS, CK_ECDH1_DERIVE_PARAMS,
 * CK_SIGN_ADDITIONAL_CONTEXT, CK_HASH_SIGN_ADDITIONAL_CONTEXT,
 * CK_KEY_DERIVATION_STRING_DATA, CK_AES_CBC_ENCRYPT_DATA_PARAMS,
 * CK_HKDF_PARAMS, CK_GCM_PARAMS, CK_AES_CTR_PARAMS or
 * CK_MAC_GENERAL_PARAMS whose
 * fields, inner lengths and ulParameterLen it chooses (the pointers in
 * them always point at buffers of the lengths given, or are NULL).
 * Output buffers are sized by a length query, sometimes short first.
 *
 * Oracles: defined return values; a signature the module makes verifies
 * with the same mechanism and parameters on the matching public key; a
 * ciphertext it makes decrypts to the plaintext; a derived key reads back;
 * a key the module wraps unwraps with the matching key (a secret key to
 * its value), and not once a byte of it is changed (for the mechanisms
 * that authenticate: not AES-ECB nor AES-CBC-PAD); a key the module
 * encapsulates decapsulates, with the same template, to the same value,
 * and any ciphertext of the right length decapsulates (to the implicit
 * rejection key when it is not one the key made). Wrapped keys also
 * reach C_UnwrapKey as the input gives them, and input bytes reach the
 * PKCS #8 decoder as the plaintext of a wrapped private key (wrapped by
 * the module itself, as a secret key's value, under the AES key).
 * Each input runs in a new session (closed at the end, which ends any
 * operation and destroys its session objects); the keys live in another
 * session that keeps the user logged in.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/p11.h"
#include "vgtoken/vgtoken.h"

static CK_SLOT_ID slot;
static struct vg_fz_keys keys;

/* see fuzz.h */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	CK_SESSION_HANDLE anchor;

	(void)argc;
	(void)argv;
	vg_fz_p11_setup();
	vg_fz_need(vg_fz_p11->C_Initialize(NULL), "C_Initialize");
	slot = vg_fz_p11_token();
	anchor = vg_fz_p11_user_session(slot);
	vg_fz_p11_keys(anchor, 1, 0, &keys);
	return 0;
}

/* The key the input names, and its partner for the oracles. */
static CK_OBJECT_HANDLE
pick_key(struct vg_fz_in *in, CK_OBJECT_HANDLE *partner)
{
	const CK_OBJECT_HANDLE k[][2] = {
		{ keys.rsa_priv, keys.rsa_pub },
		{ keys.rsa_pub, keys.rsa_priv },
		{ keys.ec_priv, keys.ec_pub },
		{ keys.ec_pub, keys.ec_priv },
		{ keys.mldsa_priv, keys.mldsa_pub },
		{ keys.mldsa_pub, keys.mldsa_priv },
		{ keys.hmac, keys.hmac },
		{ keys.aes, keys.aes },
	};
	const CK_OBJECT_HANDLE c[][2] = {
		{ keys.ed_priv, keys.ed_pub },
		{ keys.ed_pub, keys.ed_priv },
		{ keys.x_priv, keys.x_pub },
		{ keys.x_pub, keys.x_priv },
	};
	uint8_t b = vg_fz_u8(in);

	/* 0xe0..0xef: the Curve25519 keys (the seeds before them name
	 * 0..7) */
	if (b >= 0xe0 && b < 0xf0) {
		*partner = c[b & 3][1];
		return c[b & 3][0];
	}
	if (b < 0xf0) {
		*partner = k[b % 8][1];
		return k[b % 8][0];
	}
	*partner = CK_INVALID_HANDLE;
	return vg_fz_ulong(in);
}

/* A buffer for a pointer field: bytes, NULL with a length, or NULL. */
static void
field(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_BYTE_PTR *p,
    CK_ULONG *len)
{
	size_t got;

	switch (vg_fz_u8(in) % 3) {
	case 0:
		*p = vg_fz_take(pool, in, vg_fz_len(in, 1024), &got);
		*len = got;
		break;
	case 1:
		*p = NULL;
		*len = vg_fz_ulong(in);
		break;
	default:
		*p = NULL;
		*len = 0;
		break;
	}
}

/* The peer point of ECDH: ours raw or as CKA_EC_POINT, or input bytes. */
static void
peer(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_BYTE_PTR *p,
    CK_ULONG *len)
{
	uint8_t b = vg_fz_u8(in);

	/* 0xf0 and up: an X25519 peer, raw or as an OCTET STRING */
	if (b >= 0xf0) {
		uint8_t der[34] = { 0x04, 0x20 };

		memcpy(der + 2, vg_fz_x25519_peer, 32);
		*len = b & 1 ? 34 : 32;
		*p = vg_fz_dup(pool, b & 1 ? der : der + 2, *len);
		return;
	}
	switch (b % 3) {
	case 0:
		*len = sizeof(keys.ec_point) - 2;
		*p = vg_fz_dup(pool, keys.ec_point + 2, *len);
		break;
	case 1:
		*len = sizeof(keys.ec_point);
		*p = vg_fz_dup(pool, keys.ec_point, *len);
		break;
	default:
		field(pool, in, p, len);
		break;
	}
}

/* The mechanisms that read a CK_SIGN_ADDITIONAL_CONTEXT, which is as
 * long as CK_RSA_PKCS_PSS_PARAMS (as CK_ECDH1_DERIVE_PARAMS is as long
 * as CK_RSA_PKCS_OAEP_PARAMS): one of these read as the other would hand
 * the module numbers as pointers, which no module can survive. */
static int
reads_context(CK_MECHANISM_TYPE t)
{
	return t == CKM_ML_DSA || t == CKM_VG_ML_DSA ||
	    (t >= CKM_HASH_ML_DSA_SHA224 && t <= CKM_HASH_ML_DSA_SHAKE256);
}

/* CK_EDDSA_PARAMS is as long as CK_SIGN_ADDITIONAL_CONTEXT and
 * CK_RSA_PKCS_PSS_PARAMS: the same rule. */
static int
reads_eddsa(CK_MECHANISM_TYPE t)
{
	return t == CKM_EDDSA;
}

static int
reads_ecdh(CK_MECHANISM_TYPE t)
{
	return t == CKM_ECDH1_DERIVE || t == CKM_ECDH1_COFACTOR_DERIVE;
}

/* Whether a parameter of n bytes is as long as a structure with pointers
 * that some mechanism reads (raw bytes of that length would be followed
 * as pointers). */
static int
has_pointers(size_t n)
{
	return n == sizeof(CK_SIGN_ADDITIONAL_CONTEXT) ||
	    n == sizeof(CK_HASH_SIGN_ADDITIONAL_CONTEXT) ||
	    n == sizeof(CK_RSA_PKCS_OAEP_PARAMS) ||
	    n == sizeof(CK_ECDH1_DERIVE_PARAMS) ||
	    n == sizeof(CK_KEY_DERIVATION_STRING_DATA) ||
	    n == sizeof(CK_AES_CBC_ENCRYPT_DATA_PARAMS) ||
	    n == sizeof(CK_HKDF_PARAMS) || n == sizeof(CK_GCM_PARAMS);
}

/*
 * The parameters of the secret-key derivations (sel 0..7): a
 * CK_KEY_DERIVATION_STRING_DATA, a CK_AES_CBC_ENCRYPT_DATA_PARAMS or a
 * CK_HKDF_PARAMS (salt key: one of the keys or any handle), fields from
 * the input. Handed to a mechanism that reads another structure, it is
 * one byte short, so the module must refuse it by its length.
 */
static void
derive_param(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_MECHANISM *m,
    unsigned sel)
{
	CK_MECHANISM_TYPE t = m->mechanism, reader;
	union {
		CK_KEY_DERIVATION_STRING_DATA sd;
		CK_AES_CBC_ENCRYPT_DATA_PARAMS cbc;
		CK_HKDF_PARAMS hkdf;
	} u;
	size_t size, got;
	uint8_t *iv;

	memset(&u, 0, sizeof(u));
	switch (sel % 3) {
	case 0:
		field(pool, in, &u.sd.pData, &u.sd.ulLen);
		size = sizeof(u.sd);
		reader = CKM_AES_ECB_ENCRYPT_DATA;
		break;
	case 1:
		iv = vg_fz_take(pool, in, sizeof(u.cbc.iv), &got);
		memcpy(u.cbc.iv, iv, got);
		field(pool, in, &u.cbc.pData, &u.cbc.length);
		size = sizeof(u.cbc);
		reader = CKM_AES_CBC_ENCRYPT_DATA;
		break;
	default:
		u.hkdf.bExtract = vg_fz_u8(in) % 3;
		u.hkdf.bExpand = vg_fz_u8(in) % 3;
		u.hkdf.prfHashMechanism = vg_fz_mech_type(in);
		u.hkdf.ulSaltType = vg_fz_ulong(in);
		field(pool, in, &u.hkdf.pSalt, &u.hkdf.ulSaltLen);
		u.hkdf.hSaltKey = vg_fz_u8(in) & 1 ? keys.hmac : vg_fz_ulong(in);
		field(pool, in, &u.hkdf.pInfo, &u.hkdf.ulInfoLen);
		size = sizeof(u.hkdf);
		reader = t == CKM_HKDF_DATA ? CKM_HKDF_DATA : CKM_HKDF_DERIVE;
		break;
	}
	if (t != reader)
		size--;
	m->pParameter = vg_fz_dup(pool, &u, size);
	m->ulParameterLen = size;
}

/* Fills m->pParameter and m->ulParameterLen from the input. */
static void
param(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_MECHANISM *m)
{
	CK_MECHANISM_TYPE t = m->mechanism;
	int mismatch = 0;
	union {
		CK_RSA_PKCS_PSS_PARAMS pss;
		CK_RSA_PKCS_OAEP_PARAMS oaep;
		CK_ECDH1_DERIVE_PARAMS ecdh;
		CK_SIGN_ADDITIONAL_CONTEXT ctx;
		CK_HASH_SIGN_ADDITIONAL_CONTEXT hctx;
		CK_GCM_PARAMS gcm;
		CK_AES_CTR_PARAMS ctr;
		CK_MAC_GENERAL_PARAMS mac;
		CK_EDDSA_PARAMS eddsa;
	} u;
	size_t size = 0, got, cut;
	uint8_t sel;

	memset(&u, 0, sizeof(u));
	m->pParameter = NULL;
	m->ulParameterLen = 0;
	sel = vg_fz_u8(in);
	if (sel >= 0xf8) {
		derive_param(pool, in, m, sel & 7);
		return;
	}
	/* the AES parameters: 7 with the top bit set (the seeds before
	 * them have 7 alone); CK_EDDSA_PARAMS: 0x70..0x77 */
	switch ((sel & 0xf8) == 0x70 ? 11
	    : (sel & 0x87) == 0x87 ? 8 + (sel >> 4) % 3 : sel & 7) {
	case 0:
		return;
	case 1:
		m->ulParameterLen = vg_fz_ulong(in);
		return;
	case 2:
		/* Raw bytes; never the size of a structure with pointers,
		 * whose fields the module would then follow. */
		got = vg_fz_len(in, 256);
		if (has_pointers(got))
			got++;
		m->pParameter = vg_fz_take(pool, in, got, &got);
		m->ulParameterLen = got;
		if (has_pointers(got))
			m->ulParameterLen = 0;
		return;
	case 3:
		u.pss.hashAlg = vg_fz_mech_type(in);
		u.pss.mgf = vg_fz_ulong(in);
		u.pss.sLen = vg_fz_ulong(in);
		size = sizeof(u.pss);
		mismatch = reads_context(t) || reads_eddsa(t);
		break;
	case 4:
		u.oaep.hashAlg = vg_fz_mech_type(in);
		u.oaep.mgf = vg_fz_ulong(in);
		u.oaep.source = vg_fz_ulong(in);
		field(pool, in, (CK_BYTE_PTR *)&u.oaep.pSourceData,
		    &u.oaep.ulSourceDataLen);
		size = sizeof(u.oaep);
		/* (2.40's CK_GCM_PARAMS has the same size) */
		mismatch = reads_ecdh(t) || t == CKM_AES_GCM;
		break;
	case 5:
		u.ecdh.kdf = vg_fz_ulong(in);
		field(pool, in, &u.ecdh.pSharedData, &u.ecdh.ulSharedDataLen);
		peer(pool, in, &u.ecdh.pPublicData, &u.ecdh.ulPublicDataLen);
		size = sizeof(u.ecdh);
		mismatch = t == CKM_RSA_PKCS_OAEP || t == CKM_AES_GCM;
		break;
	case 6:
		u.ctx.hedgeVariant = vg_fz_ulong(in);
		field(pool, in, &u.ctx.pContext, &u.ctx.ulContextLen);
		size = sizeof(u.ctx);
		mismatch = reads_eddsa(t);
		break;
	case 7:
		u.hctx.hedgeVariant = vg_fz_ulong(in);
		field(pool, in, &u.hctx.pContext, &u.hctx.ulContextLen);
		u.hctx.hash = vg_fz_mech_type(in);
		size = sizeof(u.hctx);
		/* as long as CK_AES_CBC_ENCRYPT_DATA_PARAMS */
		mismatch = t == CKM_AES_CBC_ENCRYPT_DATA;
		break;
	case 8:
		/* GCM: IV and AAD, ulIvBits mostly consistent, tag bits */
		field(pool, in, &u.gcm.pIv, &u.gcm.ulIvLen);
		u.gcm.ulIvBits = vg_fz_u8(in) & 1 ? vg_fz_ulong(in)
						  : u.gcm.ulIvLen * 8;
		field(pool, in, &u.gcm.pAAD, &u.gcm.ulAADLen);
		u.gcm.ulTagBits = vg_fz_u8(in);
		size = sizeof(u.gcm);
		mismatch = t == CKM_RSA_PKCS_OAEP || reads_ecdh(t);
		break;
	case 9:
		u.ctr.ulCounterBits = vg_fz_u8(in);
		for (got = 0; got < sizeof(u.ctr.cb); got++)
			u.ctr.cb[got] = vg_fz_u8(in);
		size = sizeof(u.ctr);
		break;
	case 11:
		/* phFlag mostly CK_TRUE or CK_FALSE, the context up to 1 KiB
		 * (255 is the most the module takes) */
		u.eddsa.phFlag = vg_fz_u8(in);
		if (u.eddsa.phFlag >= 0x80)
			u.eddsa.phFlag &= 1;
		field(pool, in, &u.eddsa.pContextData,
		    &u.eddsa.ulContextDataLen);
		size = sizeof(u.eddsa);
		/* (PSS reads only numbers from it) */
		mismatch = reads_context(t);
		break;
	default:
		u.mac = vg_fz_u8(in) & 1 ? vg_fz_ulong(in) : vg_fz_u8(in);
		size = sizeof(u.mac);
		break;
	}
	/* Sometimes a ulParameterLen short of the structure (the buffer
	 * is as short, so a read past it is seen). */
	cut = vg_fz_u8(in);
	if (cut >= 0xf0)
		size -= 1 + (cut - 0xf0) % size;
	else if (mismatch) /* the module must refuse it by its length */
		size--;
	m->pParameter = vg_fz_dup(pool, &u, size);
	m->ulParameterLen = size;
}

/* Output of a single-part or final call: a length query, sometimes a
 * short buffer (must be CKR_BUFFER_TOO_SMALL and keep the operation),
 * then a buffer of the length given. */
typedef CK_RV (*out_fn)(CK_SESSION_HANDLE, CK_BYTE_PTR, CK_ULONG,
    CK_BYTE_PTR, CK_ULONG_PTR);

static CK_RV
with_output(struct vg_fz_pool *pool, struct vg_fz_in *in, out_fn fn,
    const char *name, CK_SESSION_HANDLE s, CK_BYTE_PTR data, CK_ULONG len,
    CK_BYTE_PTR *out, CK_ULONG *outlen)
{
	CK_ULONG n = 0;
	CK_RV rv;

	rv = vg_fz_rv(fn(s, data, len, NULL, &n), name);
	if (rv != CKR_OK)
		return rv;
	if (n > 1 && (vg_fz_u8(in) & 1)) {
		CK_ULONG shortn = n - 1;
		CK_BYTE_PTR b = vg_fz_alloc(pool, shortn);

		if (b == NULL)
			return CKR_HOST_MEMORY;
		rv = vg_fz_rv(fn(s, data, len, b, &shortn), name);
		if (rv == CKR_OK && shortn > n - 1)
			vg_fz_fail("%s: wrote %lu bytes into %lu", name,
			    (unsigned long)shortn, (unsigned long)(n - 1));
		if (rv != CKR_BUFFER_TOO_SMALL) {
			*out = b;
			*outlen = shortn;
			return rv;
		}
		n = shortn > n ? shortn : n;
	}
	*out = vg_fz_alloc(pool, n);
	if (*out == NULL)
		return CKR_HOST_MEMORY;
	*outlen = n;
	rv = vg_fz_rv(fn(s, data, len, *out, outlen), name);
	if (rv == CKR_OK && *outlen > n)
		vg_fz_fail("%s: wrote %lu bytes into %lu", name,
		    (unsigned long)*outlen, (unsigned long)n);
	return rv;
}

/* C_SignFinal / C_DigestFinal shape adapter for with_output. */
static CK_RV
sign_final(CK_SESSION_HANDLE s, CK_BYTE_PTR d, CK_ULONG l, CK_BYTE_PTR o,
    CK_ULONG_PTR ol)
{
	(void)d;
	(void)l;
	return vg_fz_p11->C_SignFinal(s, o, ol);
}

static CK_RV
sign(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_SESSION_HANDLE s,
    CK_MECHANISM *m, CK_OBJECT_HANDLE partner, CK_BYTE_PTR data,
    CK_ULONG len, int multi)
{
	CK_BYTE_PTR sig = NULL;
	CK_ULONG siglen = 0, half = len / 2;
	CK_RV rv;

	if (multi) {
		rv = vg_fz_rv(vg_fz_p11->C_SignUpdate(s, data, half),
		    "C_SignUpdate");
		if (rv == CKR_OK)
			rv = vg_fz_rv(vg_fz_p11->C_SignUpdate(s, data + half,
			    len - half), "C_SignUpdate");
		if (rv == CKR_OK)
			rv = with_output(pool, in, sign_final, "C_SignFinal",
			    s, NULL, 0, &sig, &siglen);
	} else {
		rv = with_output(pool, in, vg_fz_p11->C_Sign, "C_Sign", s,
		    data, len, &sig, &siglen);
	}
	if (rv != CKR_OK || partner == CK_INVALID_HANDLE)
		return rv;
	/* The signature verifies with the same mechanism. */
	rv = vg_fz_rv(vg_fz_p11->C_VerifyInit(s, m, partner), "C_VerifyInit");
	if (rv != CKR_OK)
		vg_fz_fail("C_VerifyInit refuses what C_SignInit took: 0x%lx",
		    (unsigned long)rv);
	rv = vg_fz_rv(vg_fz_p11->C_Verify(s, data, len, sig, siglen),
	    "C_Verify");
	if (rv != CKR_OK)
		vg_fz_fail("mechanism 0x%lx: own signature does not verify "
			   "(0x%lx)", (unsigned long)m->mechanism,
		    (unsigned long)rv);
	return rv;
}

static CK_RV
verify(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_SESSION_HANDLE s,
    CK_BYTE_PTR data, CK_ULONG len, int multi)
{
	CK_BYTE_PTR sig;
	size_t siglen;

	sig = vg_fz_take(pool, in, vg_fz_len(in, 8192), &siglen);
	if (!multi)
		return vg_fz_rv(vg_fz_p11->C_Verify(s, data, len, sig, siglen),
		    "C_Verify");
	if (vg_fz_rv(vg_fz_p11->C_VerifyUpdate(s, data, len),
	    "C_VerifyUpdate") != CKR_OK)
		return CKR_OK;
	return vg_fz_rv(vg_fz_p11->C_VerifyFinal(s, sig, siglen),
	    "C_VerifyFinal");
}

static CK_RV
encrypt(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_SESSION_HANDLE s,
    CK_MECHANISM *m, CK_OBJECT_HANDLE partner, CK_BYTE_PTR data,
    CK_ULONG len)
{
	CK_BYTE_PTR ct = NULL, pt = NULL;
	CK_ULONG ctlen = 0, ptlen = 0;
	CK_RV rv;

	rv = with_output(pool, in, vg_fz_p11->C_Encrypt, "C_Encrypt", s, data,
	    len, &ct, &ctlen);
	if (rv != CKR_OK || partner == CK_INVALID_HANDLE)
		return rv;
	/* The ciphertext decrypts to the plaintext (for raw RSA, with the
	 * leading zeros of a full block). */
	rv = vg_fz_rv(vg_fz_p11->C_DecryptInit(s, m, partner),
	    "C_DecryptInit");
	if (rv != CKR_OK)
		vg_fz_fail("C_DecryptInit refuses what C_EncryptInit took");
	rv = with_output(pool, in, vg_fz_p11->C_Decrypt, "C_Decrypt", s, ct,
	    ctlen, &pt, &ptlen);
	if (rv != CKR_OK)
		vg_fz_fail("mechanism 0x%lx: own ciphertext does not decrypt "
			   "(0x%lx)", (unsigned long)m->mechanism,
		    (unsigned long)rv);
	while (m->mechanism == CKM_RSA_X_509 && ptlen > len && pt[0] == 0) {
		pt++;
		ptlen--;
	}
	while (m->mechanism == CKM_RSA_X_509 && len > ptlen && data[0] == 0) {
		data++;
		len--;
	}
	if (ptlen != len || (len != 0 && memcmp(pt, data, len) != 0))
		vg_fz_fail("mechanism 0x%lx: decryption differs from the "
			   "plaintext", (unsigned long)m->mechanism);
	return rv;
}

static void
derive(struct vg_fz_in *in, CK_SESSION_HANDLE s, CK_MECHANISM *m,
    CK_OBJECT_HANDLE key)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = vg_fz_u8(in) & 1 ? CKK_AES : CKK_GENERIC_SECRET;
	CK_ULONG vlen = vg_fz_ulong(in);
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
	};
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_RV rv;

	rv = vg_fz_rv(vg_fz_p11->C_DeriveKey(s, m, key, t,
	    vg_fz_u8(in) & 1 ? 5 : 4, &h), "C_DeriveKey");
	if (rv == CKR_OK)
		vg_fz_p11_read_object(s, h);
}

/* A secret key whose value is the n bytes at v (AES when n suits and
 * aes is set), extractable; CK_INVALID_HANDLE if the module refuses. */
static CK_OBJECT_HANDLE
secret_of(CK_SESSION_HANDLE s, const uint8_t *v, size_t n, int aes)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = aes && (n == 16 || n == 24 || n == 32)
	    ? CKK_AES : CKK_GENERIC_SECRET;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE, (void *)v, n },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_OBJECT_HANDLE o = CK_INVALID_HANDLE;

	if (vg_fz_rv(vg_fz_p11->C_CreateObject(s, t, 5, &o),
	    "C_CreateObject") != CKR_OK)
		o = CK_INVALID_HANDLE;
	return o;
}

/* C_WrapKey's output shape for with_output. */
static CK_OBJECT_HANDLE wrap_with, wrap_what;
static CK_MECHANISM *wrap_mech;

static CK_RV
wrap_call(CK_SESSION_HANDLE s, CK_BYTE_PTR d, CK_ULONG l, CK_BYTE_PTR o,
    CK_ULONG_PTR ol)
{
	(void)d;
	(void)l;
	return vg_fz_p11->C_WrapKey(s, wrap_mech, wrap_with, wrap_what, o, ol);
}

/* Unwraps as a key of the class and type of key k. */
static CK_RV
unwrap_as(CK_SESSION_HANDLE s, CK_MECHANISM *m, CK_OBJECT_HANDLE with,
    CK_OBJECT_HANDLE k, CK_BYTE_PTR w, CK_ULONG wlen, CK_OBJECT_HANDLE *out)
{
	CK_OBJECT_CLASS cls = 0;
	CK_KEY_TYPE kt = 0;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
	};

	vg_fz_need(vg_fz_p11->C_GetAttributeValue(s, k, t, 2),
	    "class and key type");
	*out = CK_INVALID_HANDLE;
	return vg_fz_rv(vg_fz_p11->C_UnwrapKey(s, m, with, w, wlen, t, 2,
	    out), "C_UnwrapKey");
}

/*
 * C_WrapKey and C_UnwrapKey. The first input byte says what: 0 unwraps
 * the message as it is, with a template from the input; 1 makes a
 * secret key of the message, wraps it with KWP under the AES key and
 * unwraps that as a private key of an RSA, EC, ML-DSA, ML-KEM, Ed25519 or
 * X25519 type (the next byte modulo 6; the message reaches the PKCS #8
 * decoder); 2 and 3 wrap a key (the input's, or 3: a secret key of the
 * message) with the mechanism and key chosen, then unwrap it with the
 * partner and tamper with it.
 */
static void
wrapping(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_SESSION_HANDLE s,
    CK_MECHANISM *m, CK_OBJECT_HANDLE key, CK_OBJECT_HANDLE partner,
    CK_BYTE_PTR msg, CK_ULONG len)
{
	static const CK_KEY_TYPE types[] = { CKK_RSA, CKK_EC, CKK_ML_DSA,
		CKK_ML_KEM, CKK_EC_EDWARDS, CKK_EC_MONTGOMERY };
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	uint8_t what = vg_fz_u8(in) % 4, b = vg_fz_u8(in);
	CK_OBJECT_HANDLE target, h = CK_INVALID_HANDLE, other;
	CK_BYTE_PTR w = NULL, v;
	CK_ULONG wlen = 0, vlen;
	CK_ATTRIBUTE *t;
	CK_ULONG n;
	CK_RV rv;

	if (what == 0) {
		n = vg_fz_template(pool, in, 8, 0, &t);
		rv = vg_fz_rv(f->C_UnwrapKey(s, m, key, msg, len, t, n, &h),
		    "C_UnwrapKey");
		if (rv == CKR_OK)
			vg_fz_p11_read_object(s, h);
		return;
	}
	if (what == 1) {
		CK_MECHANISM kwp = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };
		CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
		CK_KEY_TYPE kt = types[b % 6];
		CK_ATTRIBUTE pt[] = {
			{ CKA_CLASS, &cls, sizeof(cls) },
			{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		};

		target = len != 0 ? secret_of(s, msg, len, 0)
				  : CK_INVALID_HANDLE;
		if (target == CK_INVALID_HANDLE)
			return;
		wrap_mech = &kwp;
		wrap_with = keys.aes;
		wrap_what = target;
		if (with_output(pool, in, wrap_call, "C_WrapKey", s, NULL, 0,
		    &w, &wlen) != CKR_OK)
			vg_fz_fail("KWP of a secret key under the AES key");
		rv = vg_fz_rv(f->C_UnwrapKey(s, &kwp, keys.aes, w, wlen, pt,
		    2, &h), "C_UnwrapKey");
		if (rv == CKR_OK)
			vg_fz_p11_read_object(s, h);
		return;
	}
	target = what == 3 ? secret_of(s, msg, len, b & 1)
			   : pick_key(in, &other);
	wrap_mech = m;
	wrap_with = key;
	wrap_what = target;
	rv = with_output(pool, in, wrap_call, "C_WrapKey", s, NULL, 0, &w,
	    &wlen);
	if (rv != CKR_OK || partner == CK_INVALID_HANDLE)
		return;
	/* what the module wraps it unwraps, with the matching key */
	rv = unwrap_as(s, m, partner, target, w, wlen, &h);
	if (rv != CKR_OK)
		vg_fz_fail("mechanism 0x%lx: own wrapped key does not unwrap "
			   "(0x%lx)", (unsigned long)m->mechanism,
		    (unsigned long)rv);
	if (what == 3) {
		vlen = len;
		v = vg_fz_alloc(pool, len);
		if (v == NULL)
			return;
		{
			CK_ATTRIBUTE a = { CKA_VALUE, v, vlen };

			vg_fz_need(f->C_GetAttributeValue(s, h, &a, 1),
			    "unwrapped value");
			if (a.ulValueLen != len || memcmp(v, msg, len) != 0)
				vg_fz_fail("mechanism 0x%lx: unwrapped value "
					   "differs", (unsigned long)m->mechanism);
		}
	}
	/* and not once changed (where the mechanism checks integrity) */
	if (wlen != 0 && m->mechanism != CKM_AES_ECB &&
	    m->mechanism != CKM_AES_CBC_PAD) {
		w[vg_fz_u16(in) % wlen] ^= (uint8_t)(1u << (b % 8));
		rv = unwrap_as(s, m, partner, target, w, wlen, &h);
		if (rv != CKR_WRAPPED_KEY_INVALID)
			vg_fz_fail("mechanism 0x%lx: a changed wrapped key "
				   "gives 0x%lx", (unsigned long)m->mechanism,
			    (unsigned long)rv);
	}
}

/* see fuzz.h */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_fz_in in = { data, size };
	struct vg_fz_pool pool = { 0 };
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	uint8_t op = vg_fz_u8(&in);
	CK_MECHANISM m;
	CK_OBJECT_HANDLE key, partner;
	CK_SESSION_HANDLE s;
	CK_BYTE_PTR msg;
	size_t len;
	CK_RV rv;

	vg_fz_need(f->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &s), "C_OpenSession");
	m.mechanism = vg_fz_mech_type(&in);
	key = pick_key(&in, &partner);
	param(&pool, &in, &m);
	msg = vg_fz_take(&pool, &in, vg_fz_len(&in, 2048), &len);
	/* (the seeds before key wrapping have op below 0x80, those before
	 * key encapsulation below 0x40) */
	if (op & 0x80)
		wrapping(&pool, &in, s, &m, key, partner, msg, len);
	else if (op & 0x40)
		vg_fz_mech_kem(&pool, &in, s, &m, key, &keys, msg, len);
	else switch (op % 5) {
	case 0:
		rv = vg_fz_rv(f->C_SignInit(s, &m, key), "C_SignInit");
		if (rv == CKR_OK)
			sign(&pool, &in, s, &m, partner, msg, len, op & 8);
		break;
	case 1:
		rv = vg_fz_rv(f->C_VerifyInit(s, &m, key), "C_VerifyInit");
		if (rv == CKR_OK)
			verify(&pool, &in, s, msg, len, op & 8);
		break;
	case 2:
		rv = vg_fz_rv(f->C_EncryptInit(s, &m, key), "C_EncryptInit");
		if (rv == CKR_OK)
			encrypt(&pool, &in, s, &m, partner, msg, len);
		break;
	case 3:
		rv = vg_fz_rv(f->C_DecryptInit(s, &m, key), "C_DecryptInit");
		if (rv == CKR_OK) {
			CK_BYTE_PTR out = NULL;
			CK_ULONG outlen = 0;

			with_output(&pool, &in, f->C_Decrypt, "C_Decrypt", s,
			    msg, len, &out, &outlen);
		}
		break;
	default:
		derive(&in, s, &m, key);
		break;
	}
	vg_fz_need(f->C_CloseSession(s), "C_CloseSession");
	vg_fz_pool_free(&pool);
	return 0;
}
