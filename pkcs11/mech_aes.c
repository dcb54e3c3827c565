/*
 * AES encryption and decryption [PKCS#11 3.2 §6.14]: CKM_AES_ECB,
 * CKM_AES_CBC, CKM_AES_CBC_PAD, CKM_AES_CTR (CK_AES_CTR_PARAMS) and
 * CKM_AES_GCM (CK_GCM_PARAMS), single-part and multi-part, over the
 * streaming contexts of crypto/aes.h.
 *
 * C_EncryptUpdate and C_DecryptUpdate make output as it is ready (part,
 * called by pkcs11/crypt.c), except GCM decryption: it releases nothing
 * before the tag is checked [SP 800-38D §7.2], so its Update gathers the
 * ciphertext and reports no output, and its Final checks the tag and
 * returns the whole plaintext. The single-part call and the Final (run,
 * called by pkcs11/ops.c) finish a copy of the context, so that a short
 * buffer leaves the operation as it was, ready for the retry.
 *
 * Lengths the mode cannot take are CKR_DATA_LEN_RANGE when encrypting
 * and CKR_ENCRYPTED_DATA_LEN_RANGE when decrypting (a length that is not
 * a multiple of 16 without padding, a message past the end of the CTR
 * counter or of GCM's limit); a bad CBC padding or GCM tag is
 * CKR_ENCRYPTED_DATA_INVALID, checked in constant time by crypto/aes.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"

/* CK_GCM_PARAMS limits: IVs of 1 to 1024 bytes (12 is the usual, and
 * the fast one; SP 800-38D allows longer ones, which are hashed), AAD up
 * to 64 MiB, tags of 32 to 128 bits in whole bytes. */
#define GCM_MAX_IV 1024u
#define GCM_MAX_AAD (64u << 20)
/* Most ciphertext a GCM decryption gathers before its Final. */
#define GCM_MAX_GATHER (64u << 20)

/* The 2.40 layout of CK_GCM_PARAMS, without ulIvBits, which some older
 * clients still send; told apart by its size. */
struct gcm_params_240 {
	CK_BYTE_PTR pIv;
	CK_ULONG ulIvLen;
	CK_BYTE_PTR pAAD;
	CK_ULONG ulAADLen;
	CK_ULONG ulTagBits;
};

struct aes_op {
	CK_MECHANISM_TYPE mech;
	int decrypt;
	union {
		struct vg_aes_cbc cbc;  /* ECB, CBC, CBC_PAD */
		struct vg_aes_ctr ctr;
		struct vg_aes_gcm gcm;  /* GCM encryption */
	} u;
	/* GCM decryption: the key (owned by the session's key reference),
	 * IV and AAD (one allocation, ivlen + aadlen bytes), and the
	 * ciphertext gathered by Update calls. */
	const struct vg_aes_key *key;
	uint8_t *ivaad;
	size_t ivlen, aadlen, taglen;
	uint8_t *buf;
	size_t len, cap;
};

static void
state_free(void *p)
{
	struct aes_op *st = p;

	if (st == NULL)
		return;
	if (st->ivaad != NULL) {
		vg_wipe(st->ivaad, st->ivlen + st->aadlen);
		free(st->ivaad);
	}
	if (st->buf != NULL) {
		vg_wipe(st->buf, st->cap);
		free(st->buf);
	}
	vg_wipe(st, sizeof(*st));
	free(st);
}

/* CKR_DATA_LEN_RANGE or CKR_ENCRYPTED_DATA_LEN_RANGE, by direction. */
static CK_RV
len_range(const struct aes_op *st)
{
	return st->decrypt ? CKR_ENCRYPTED_DATA_LEN_RANGE : CKR_DATA_LEN_RANGE;
}

static CK_RV
crv(const struct aes_op *st, enum vg_err e)
{
	switch (e) {
	case VG_OK:
		return CKR_OK;
	case VG_ERR_LENGTH:
		return len_range(st);
	case VG_ERR_DECODE:
	case VG_ERR_AUTH:
		return CKR_ENCRYPTED_DATA_INVALID;
	default:
		return CKR_FUNCTION_FAILED;
	}
}

static int
is_block(CK_MECHANISM_TYPE m)
{
	return m == CKM_AES_ECB || m == CKM_AES_CBC || m == CKM_AES_CBC_PAD;
}

/* CK_GCM_PARAMS (3.0 layout, or 2.40's by its size) into st. */
static CK_RV
gcm_init(struct aes_op *st, const struct vg_aes_key *k, const CK_MECHANISM *m)
{
	const uint8_t *iv, *aad;
	CK_ULONG ivlen, ivbits, aadlen, tagbits;

	if (m->ulParameterLen == sizeof(CK_GCM_PARAMS)) {
		CK_GCM_PARAMS p;

		memcpy(&p, m->pParameter, sizeof(p));
		iv = p.pIv;
		ivlen = p.ulIvLen;
		ivbits = p.ulIvBits;
		aad = p.pAAD;
		aadlen = p.ulAADLen;
		tagbits = p.ulTagBits;
	} else if (m->ulParameterLen == sizeof(struct gcm_params_240)) {
		struct gcm_params_240 p;

		memcpy(&p, m->pParameter, sizeof(p));
		iv = p.pIv;
		ivlen = p.ulIvLen;
		ivbits = ivlen * 8;
		aad = p.pAAD;
		aadlen = p.ulAADLen;
		tagbits = p.ulTagBits;
	} else {
		return CKR_MECHANISM_PARAM_INVALID;
	}
	/* ulIvBits, when given, must agree with ulIvLen, which rules
	 * [PKCS#11 3.2 §6.14.x CK_GCM_PARAMS]. */
	if (iv == NULL || ivlen == 0 || ivlen > GCM_MAX_IV ||
	    (ivbits != 0 && ivbits != ivlen * 8) ||
	    (aad == NULL && aadlen != 0) || aadlen > GCM_MAX_AAD ||
	    tagbits % 8 != 0 || tagbits < 8 * VG_AES_GCM_MIN_TAG ||
	    tagbits > 8 * VG_AES_GCM_MAX_TAG)
		return CKR_MECHANISM_PARAM_INVALID;
	st->taglen = tagbits / 8;
	if (!st->decrypt)
		return vg_aes_gcm_encrypt_init(&st->u.gcm, k, iv, ivlen, aad,
			   aadlen) == VG_OK
		    ? CKR_OK : CKR_MECHANISM_PARAM_INVALID;
	st->ivaad = malloc(ivlen + aadlen);
	if (st->ivaad == NULL)
		return CKR_HOST_MEMORY;
	memcpy(st->ivaad, iv, ivlen);
	if (aadlen != 0)
		memcpy(st->ivaad + ivlen, aad, aadlen);
	st->ivlen = ivlen;
	st->aadlen = aadlen;
	st->key = k;
	return CKR_OK;
}

static CK_RV
init(struct vg_session *s, const struct vg_mech *row, const CK_MECHANISM *m)
{
	const struct vg_aes_key *k = s->op_key->impl;
	struct aes_op *st;
	unsigned flags;
	enum vg_err e = VG_OK;
	CK_RV rv = CKR_OK;

	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return CKR_HOST_MEMORY;
	st->mech = row->type;
	st->decrypt = s->op == VG_OP_DECRYPT;
	flags = (st->decrypt ? VG_AES_DECRYPT : 0) |
	    (row->type == CKM_AES_CBC_PAD ? VG_AES_PAD : 0);
	switch (row->type) {
	case CKM_AES_ECB:
		if (m->ulParameterLen != 0)
			rv = CKR_MECHANISM_PARAM_INVALID;
		else
			e = vg_aes_ecb_init(&st->u.cbc, k, flags);
		break;
	case CKM_AES_CBC:
	case CKM_AES_CBC_PAD:
		/* the parameter is the 16-byte IV */
		if (m->ulParameterLen != VG_AES_BLOCK)
			rv = CKR_MECHANISM_PARAM_INVALID;
		else
			e = vg_aes_cbc_init(&st->u.cbc, k, m->pParameter, flags);
		break;
	case CKM_AES_CTR: {
		CK_AES_CTR_PARAMS p;

		if (m->ulParameterLen != sizeof(p)) {
			rv = CKR_MECHANISM_PARAM_INVALID;
			break;
		}
		memcpy(&p, m->pParameter, sizeof(p));
		if (p.ulCounterBits == 0 || p.ulCounterBits > 128)
			rv = CKR_MECHANISM_PARAM_INVALID;
		else
			e = vg_aes_ctr_init(&st->u.ctr, k, p.cb,
			    (unsigned)p.ulCounterBits);
		vg_wipe(&p, sizeof(p));
		break;
	}
	case CKM_AES_GCM:
		rv = gcm_init(st, k, m);
		break;
	default:
		rv = CKR_MECHANISM_INVALID;
	}
	if (rv == CKR_OK && e != VG_OK)
		rv = CKR_MECHANISM_PARAM_INVALID;
	if (rv != CKR_OK) {
		state_free(st);
		return rv;
	}
	s->op_state = st;
	s->op_state_free = state_free;
	return CKR_OK;
}

/* Lengths past this are refused before any arithmetic on them. */
#define HUGE_LEN (SIZE_MAX / 2)

/* The output of an Update of len bytes; CK_UNAVAILABLE_INFORMATION for
 * a length the mode can never take (past GCM's limits, or absurd). */
static CK_ULONG
part_len(const struct vg_session *s, CK_ULONG len)
{
	const struct aes_op *st = s->op_state;

	if (len > HUGE_LEN)
		return CK_UNAVAILABLE_INFORMATION;
	if (is_block(st->mech))
		return vg_aes_cbc_update_len(&st->u.cbc, len);
	if (st->mech == CKM_AES_GCM && st->decrypt)
		return len > GCM_MAX_GATHER - st->len
		    ? CK_UNAVAILABLE_INFORMATION : 0;
	if (st->mech == CKM_AES_GCM &&
	    len > VG_AES_GCM_MAX_LEN - st->u.gcm.len)
		return CK_UNAVAILABLE_INFORMATION;
	return len;
}

/* The output of the rest of the operation, with inlen more bytes: exact
 * but for CBC_PAD decryption (up to 15 bytes more than the message) and
 * for inputs the mode refuses. */
static CK_ULONG
out_len(const struct vg_session *s, CK_ULONG inlen)
{
	const struct aes_op *st = s->op_state;
	size_t total;

	if (inlen > HUGE_LEN)
		return inlen;
	if (is_block(st->mech))
		return vg_aes_cbc_update_len(&st->u.cbc, inlen) +
		    vg_aes_cbc_final_len(&st->u.cbc);
	if (st->mech != CKM_AES_GCM)
		return inlen;
	if (!st->decrypt)
		return inlen + st->taglen;
	total = st->len + inlen;
	return total >= st->taglen ? total - st->taglen : 0;
}

/* Gathers GCM ciphertext (public) until the Final. */
static CK_RV
gather(struct aes_op *st, const uint8_t *in, size_t len)
{
	uint8_t *t;
	size_t cap;

	if (len > GCM_MAX_GATHER - st->len)
		return CKR_ENCRYPTED_DATA_LEN_RANGE;
	if (st->len + len > st->cap) {
		cap = st->cap ? st->cap : 256;
		while (cap < st->len + len)
			cap *= 2;
		t = realloc(st->buf, cap);
		if (t == NULL)
			return CKR_HOST_MEMORY;
		st->buf = t;
		st->cap = cap;
	}
	if (len != 0)
		memcpy(st->buf + st->len, in, len);
	st->len += len;
	return CKR_OK;
}

static CK_RV
part(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	struct aes_op *st = s->op_state;
	static const uint8_t nothing[1];
	size_t n = len;
	enum vg_err e;

	if (in == NULL)
		in = nothing;
	if (st->mech == CKM_AES_GCM && st->decrypt) {
		*outlen = 0;
		return gather(st, in, len);
	}
	if (len > HUGE_LEN)
		return len_range(st);
	if (is_block(st->mech))
		e = vg_aes_cbc_update(&st->u.cbc, in, len, out, &n);
	else if (st->mech == CKM_AES_CTR)
		e = vg_aes_ctr_update(&st->u.ctr, in, len, out);
	else
		e = vg_aes_gcm_encrypt_update(&st->u.gcm, in, len, out);
	if (e == VG_OK)
		*outlen = n;
	return crv(st, e);
}

/* GCM decryption of the whole ciphertext and tag: the gathered one (a
 * Final) or in (C_Decrypt). */
static CK_RV
gcm_decrypt(const struct aes_op *st, const uint8_t *in, size_t len,
    uint8_t *out, CK_ULONG *outlen)
{
	const uint8_t *ct = st->len != 0 ? st->buf : in;
	size_t total = st->len != 0 ? st->len : len;
	enum vg_err e;

	if (st->len != 0 && len != 0)
		return CKR_GENERAL_ERROR; /* ops.c never mixes the two */
	if (total < st->taglen)
		return CKR_ENCRYPTED_DATA_LEN_RANGE;
	total -= st->taglen;
	e = vg_aes_gcm_decrypt(st->key, st->ivaad, st->ivlen,
	    st->ivaad + st->ivlen, st->aadlen, ct, total, out, ct + total,
	    st->taglen);
	if (e == VG_OK)
		*outlen = total;
	return crv(st, e);
}

/* C_Encrypt / C_Decrypt (in: the whole input) and the Finals (in: none),
 * on a copy of the context. */
static CK_RV
run(struct vg_session *s, const uint8_t *in, size_t len, uint8_t *out,
    CK_ULONG *outlen)
{
	const struct aes_op *st = s->op_state;
	size_t n1 = len, n2 = 0;
	enum vg_err e;
	CK_RV rv;

	if (len > HUGE_LEN)
		return len_range(st);
	if (st->mech == CKM_AES_GCM && st->decrypt)
		return gcm_decrypt(st, in, len, out, outlen);
	if (is_block(st->mech)) {
		struct vg_aes_cbc c = st->u.cbc;

		e = vg_aes_cbc_update(&c, in, len, out, &n1);
		if (e == VG_OK)
			e = vg_aes_cbc_final(&c, out + n1, &n2);
		vg_aes_cbc_wipe(&c);
	} else if (st->mech == CKM_AES_CTR) {
		struct vg_aes_ctr c = st->u.ctr;

		e = vg_aes_ctr_update(&c, in, len, out);
		vg_aes_ctr_wipe(&c);
	} else {
		struct vg_aes_gcm g = st->u.gcm;

		e = vg_aes_gcm_encrypt_update(&g, in, len, out);
		if (e == VG_OK)
			e = vg_aes_gcm_encrypt_final(&g, out + len,
			    st->taglen);
		n2 = st->taglen;
		vg_aes_gcm_wipe(&g);
	}
	rv = crv(st, e);
	if (rv == CKR_OK)
		*outlen = n1 + n2;
	return rv;
}

const struct vg_mech_ops vg_aes_ops = {
	.load = vg_aes_key_load,
	.init = init,
	.out_len = out_len,
	.run = run,
	.part_len = part_len,
	.part = part,
	.wrap = &vg_aes_cipher_wrap,
};
