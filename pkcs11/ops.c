/*
 * The key operations' common path: sign, verify, encrypt and decrypt share
 * one Init, one single-part call, one Update and one Final, parameterised
 * by the operation. The mechanism's row (pkcs11/mechanisms.c) names its key
 * type, whether its input is hashed first, and the family's functions
 * (struct vg_mech_ops) that load keys and do the arithmetic.
 *
 * Input reaches the family in one of three ways:
 *   - streaming families (ops->update) take every part as it comes;
 *   - hash-then-sign mechanisms (row hash >= 0, or a family whose init
 *     chose a hash: s->op_hashing) hash the parts and hand the digest to
 *     ops->run;
 *   - the others gather the parts and hand the whole input to ops->run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* Largest input gathered for a mechanism that needs all of it at once. */
#define VG_OP_MAX_GATHER (64u << 20)

static const struct {
	CK_FLAGS flag;                 /* mechanism flag the op needs */
	unsigned use;                  /* key usage the op needs */
	CK_OBJECT_CLASS cls[2];        /* key classes the op accepts */
} op_rules[] = {
	[VG_OP_SIGN] = { CKF_SIGN, VG_USE_SIGN,
	    { CKO_PRIVATE_KEY, CKO_SECRET_KEY } },
	[VG_OP_VERIFY] = { CKF_VERIFY, VG_USE_VERIFY,
	    { CKO_PUBLIC_KEY, CKO_SECRET_KEY } },
	[VG_OP_ENCRYPT] = { CKF_ENCRYPT, VG_USE_ENCRYPT,
	    { CKO_PUBLIC_KEY, CKO_SECRET_KEY } },
	[VG_OP_DECRYPT] = { CKF_DECRYPT, VG_USE_DECRYPT,
	    { CKO_PRIVATE_KEY, CKO_SECRET_KEY } },
};

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_key_fits(const struct vg_key *k, const struct vg_mech *row,
    const CK_OBJECT_CLASS cls[2], unsigned use)
{
	CK_RV rv = CKR_OK;

	if ((k->cls != cls[0] && k->cls != cls[1]) || k->type != row->key_type)
		rv = CKR_KEY_TYPE_INCONSISTENT;
	else if (!(k->use & use))
		rv = CKR_KEY_FUNCTION_NOT_PERMITTED;
	else if (!vg_key_allows(k, row->type) &&
	    !vg_key_allows(k, vg_mech_twin(row->type)))
		rv = CKR_MECHANISM_INVALID;
	else if ((row->min_key != 0 && k->bits < row->min_key) ||
	    (row->max_key != 0 && k->bits > row->max_key))
		rv = CKR_KEY_SIZE_RANGE;
	return rv;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_op_init(struct vg_session *s, enum vg_op op, const CK_MECHANISM *m,
    CK_OBJECT_HANDLE hkey)
{
	const struct vg_mech *row;
	struct vg_key *k = NULL;
	CK_RV rv;

	if (m == NULL)
		return CKR_ARGUMENTS_BAD;
	if (s->op != VG_OP_NONE)
		return CKR_OPERATION_ACTIVE;
	row = vg_mech_find(m->mechanism);
	if (row == NULL || row->ops == NULL || row->ops->load == NULL ||
	    !(row->flags & op_rules[op].flag))
		return CKR_MECHANISM_INVALID;
	if (m->pParameter == NULL && m->ulParameterLen != 0)
		return CKR_ARGUMENTS_BAD;
	rv = vg_key_get(s, hkey, row->ops->load, &k);
	if (rv != CKR_OK)
		return rv;
	rv = vg_key_fits(k, row, op_rules[op].cls, op_rules[op].use);
	if (rv != CKR_OK) {
		vg_key_put(k);
		return rv;
	}
	s->op = op;
	s->op_mech = row->type;
	s->op_key = k;
	s->op_multipart = 0;
	s->op_single = 0;
	s->op_need_auth = k->always_auth && k->cls == CKO_PRIVATE_KEY;
	s->op_authed = 0;
	s->op_hashing = row->hash >= 0;
	if (row->hash >= 0)
		vg_hash_init(&s->digest, (enum vg_hash_alg)row->hash);
	if (row->ops->init != NULL)
		rv = row->ops->init(s, row, m);
	else if (m->ulParameterLen != 0)
		rv = CKR_MECHANISM_PARAM_INVALID;
	if (rv != CKR_OK)
		vg_session_end_op(s);
	return rv;
}

/* The session's operation, or CKR_OPERATION_NOT_INITIALIZED. */
static CK_RV
active(struct vg_session *s, enum vg_op op, const struct vg_mech **row)
{
	if (s->op != op)
		return CKR_OPERATION_NOT_INITIALIZED;
	*row = vg_mech_find(s->op_mech);
	return *row != NULL ? CKR_OK : CKR_GENERAL_ERROR;
}

/* Takes one part of the input. */
static CK_RV
absorb(struct vg_session *s, const struct vg_mech *row, const uint8_t *in,
    size_t len)
{
	uint8_t *t;
	size_t cap;

	if (row->ops->update != NULL)
		return row->ops->update(s, in, len);
	if (s->op_hashing) {
		vg_hash_update(&s->digest, in, len);
		return CKR_OK;
	}
	if (len > VG_OP_MAX_GATHER - s->op_len)
		return s->op == VG_OP_DECRYPT ? CKR_ENCRYPTED_DATA_LEN_RANGE
					      : CKR_DATA_LEN_RANGE;
	if (s->op_len + len > s->op_cap) {
		cap = s->op_cap ? s->op_cap : 256;
		while (cap < s->op_len + len)
			cap *= 2;
		/* Gathered input may be secret (a plaintext to encrypt):
		 * move it rather than realloc, wiping the old copy. */
		t = malloc(cap);
		if (t == NULL)
			return CKR_HOST_MEMORY;
		if (s->op_len != 0)
			memcpy(t, s->op_buf, s->op_len);
		if (s->op_buf != NULL) {
			vg_wipe(s->op_buf, s->op_cap);
			free(s->op_buf);
		}
		s->op_buf = t;
		s->op_cap = cap;
	}
	if (len != 0)
		memcpy(s->op_buf + s->op_len, in, len);
	s->op_len += len;
	return CKR_OK;
}

/* The input gathered so far. Empty input gathers no buffer; crypto/
 * still wants a pointer (its functions assert non-NULL inputs, and
 * memcpy from NULL is undefined even for no bytes). */
static const uint8_t *
gathered(const struct vg_session *s)
{
	static const uint8_t nothing[1];

	return s->op_buf != NULL ? s->op_buf : nothing;
}

/* Runs the family's final step into a buffer of the upper-bound length,
 * then delivers the exact result by PKCS#11's output rules. out NULL or
 * too small leave the operation active; anything else ends it. */
static CK_RV
produce(struct vg_session *s, const struct vg_mech *row, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen)
{
	uint8_t digest[VG_HASH_MAX_LEN], *tmp;
	const uint8_t *in = gathered(s);
	size_t inlen = s->op_len;
	CK_ULONG max, len;
	CK_RV rv;

	max = row->ops->out_len(s, (CK_ULONG)inlen);
	/* A streaming family's result is final once computed: check the
	 * room first (its length is exact). */
	if (out == NULL || (row->ops->update != NULL && *outlen < max)) {
		*outlen = max;
		return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
	}
	tmp = malloc(max ? max : 1);
	if (tmp == NULL)
		return CKR_HOST_MEMORY;
	if (row->ops->update == NULL && s->op_hashing) {
		inlen = vg_hash_len(s->digest.alg);
		/* Keep the running hash: a short buffer must leave the
		 * operation able to finish. */
		{
			struct vg_hash copy = s->digest;

			vg_hash_final(&copy, digest);
		}
		in = digest;
	}
	len = max;
	rv = row->ops->run(s, in, inlen, tmp, &len);
	if (rv == CKR_OK)
		rv = vg_output(tmp, len, out, outlen);
	vg_wipe(tmp, max);
	vg_wipe(digest, sizeof(digest));
	free(tmp);
	if (rv != CKR_BUFFER_TOO_SMALL)
		vg_session_end_op(s);
	return rv;
}

/* The context-specific login a key may demand [PKCS#11 3.2 §4.10]. */
static CK_RV
authorised(const struct vg_session *s)
{
	return s->op_need_auth && !s->op_authed ? CKR_USER_NOT_LOGGED_IN
						: CKR_OK;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_op_single(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen, CK_BYTE_PTR out, CK_ULONG_PTR outlen)
{
	const struct vg_mech *row;
	CK_ULONG max;
	CK_RV rv;

	rv = active(s, op, &row);
	if (rv != CKR_OK)
		return rv;
	/* The single-part call ends the operation whatever it answers,
	 * but for a length query or a short buffer [PKCS#11 3.2 §5.13
	 * C_Sign and its siblings]: also when it cannot finish a
	 * multi-part one, and when the key's PIN was not given again. */
	if (s->op_multipart)
		rv = CKR_OPERATION_ACTIVE;
	else if ((in == NULL && inlen != 0) || outlen == NULL)
		rv = CKR_ARGUMENTS_BAD;
	else
		rv = authorised(s);
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		return rv;
	}
	max = row->ops->out_len(s, inlen);
	/* A length query, or a short buffer for an exact-length streaming
	 * result, must not consume the input. */
	if (out == NULL || (row->ops->update != NULL && *outlen < max)) {
		*outlen = max;
		s->op_single = 1;
		return out == NULL ? CKR_OK : CKR_BUFFER_TOO_SMALL;
	}
	rv = absorb(s, row, in, inlen);
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		return rv;
	}
	rv = produce(s, row, out, outlen);
	if (rv == CKR_BUFFER_TOO_SMALL) {
		s->op_single = 1;
		/* Forget the input: the retry brings it again. */
		if (s->op_hashing)
			vg_hash_init(&s->digest, s->digest.alg);
		s->op_len = 0;
	}
	return rv;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_op_update(struct vg_session *s, enum vg_op op, CK_BYTE_PTR in,
    CK_ULONG inlen)
{
	const struct vg_mech *row;
	CK_RV rv;

	rv = active(s, op, &row);
	if (rv != CKR_OK)
		return rv;
	/* Once a single-part call has begun (a length query), an Update
	 * or a Final cannot take over, and ends the operation. */
	if (s->op_single)
		rv = CKR_OPERATION_ACTIVE;
	else if (in == NULL && inlen != 0)
		rv = CKR_ARGUMENTS_BAD;
	else if (!(row->vflags & VG_MECH_MULTIPART))
		rv = CKR_FUNCTION_NOT_SUPPORTED;
	else
		rv = absorb(s, row, in, inlen);
	if (rv != CKR_OK)
		vg_session_end_op(s);
	else
		s->op_multipart = 1;
	return rv;
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_op_final(struct vg_session *s, enum vg_op op, CK_BYTE_PTR out,
    CK_ULONG_PTR outlen)
{
	const struct vg_mech *row;
	CK_RV rv;

	rv = active(s, op, &row);
	if (rv != CKR_OK)
		return rv;
	if (s->op_single)
		rv = CKR_OPERATION_ACTIVE;
	else
		rv = outlen == NULL ? CKR_ARGUMENTS_BAD : authorised(s);
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		return rv;
	}
	return produce(s, row, out, outlen);
}

/* see pkcs11/pkcs11_int.h */
CK_RV
vg_op_verify(struct vg_session *s, CK_BYTE_PTR in, CK_ULONG inlen,
    CK_BYTE_PTR sig, CK_ULONG siglen, int single)
{
	uint8_t digest[VG_HASH_MAX_LEN];
	const struct vg_mech *row;
	const uint8_t *data;
	size_t len;
	CK_RV rv;

	rv = active(s, VG_OP_VERIFY, &row);
	if (rv != CKR_OK)
		return rv;
	/* C_Verify and C_VerifyFinal always end the operation. */
	if (single && s->op_multipart)
		rv = CKR_OPERATION_ACTIVE;
	else if ((single && in == NULL && inlen != 0) ||
	    (sig == NULL && siglen != 0))
		rv = CKR_ARGUMENTS_BAD;
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		return rv;
	}
	if (single)
		rv = absorb(s, row, in, inlen);
	data = gathered(s);
	len = s->op_len;
	if (rv == CKR_OK && row->ops->update == NULL && s->op_hashing) {
		len = vg_hash_len(s->digest.alg);
		vg_hash_final(&s->digest, digest);
		data = digest;
	}
	if (rv == CKR_OK)
		rv = row->ops->verify(s, data, len, sig, siglen);
	vg_wipe(digest, sizeof(digest));
	vg_session_end_op(s);
	return rv;
}
