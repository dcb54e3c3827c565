/* Message digesting functions [PKCS#11 3.2 §5.12]. */
#include "config.h"

#include "pkcs11/pkcs11_int.h"

/* Acquires the session and checks a digest operation is active. */
static CK_RV
digest_session(CK_SESSION_HANDLE h, struct vg_session **s)
{
	CK_RV rv = vg_session_acquire(h, s);

	if (rv == CKR_OK && (*s)->op != VG_OP_DIGEST)
		rv = CKR_OPERATION_NOT_INITIALIZED;
	return rv;
}

/* Produces the digest into pDigest following the length conventions; ends
 * the operation unless only the length was asked or the buffer was short,
 * in which case a single-part call (single) stays one. */
static CK_RV
digest_finish(struct vg_session *s, CK_BYTE_PTR pDigest,
    CK_ULONG_PTR pulDigestLen, int single)
{
	size_t len = vg_hash_len(s->digest.alg);
	CK_RV rv = CKR_OK;

	if (pDigest == NULL) {
		*pulDigestLen = len;
		s->op_single = single;
	} else if (*pulDigestLen < len) {
		s->op_single = single;
		*pulDigestLen = len;
		rv = CKR_BUFFER_TOO_SMALL;
	} else {
		vg_hash_final(&s->digest, pDigest);
		*pulDigestLen = len;
		vg_session_end_op(s);
	}
	return rv;
}

VG_EXPORT CK_RV
C_DigestInit(CK_SESSION_HANDLE hSession, CK_MECHANISM_PTR pMechanism)
{
	struct vg_session *s = NULL;
	const struct vg_mech *m;
	CK_RV rv;

	rv = vg_session_acquire(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (pMechanism == NULL) {
		rv = CKR_ARGUMENTS_BAD;
		goto out;
	}
	if (s->op != VG_OP_NONE) {
		rv = CKR_OPERATION_ACTIVE;
		goto out;
	}
	m = vg_mech_find(pMechanism->mechanism);
	if (m == NULL || !(m->flags & CKF_DIGEST)) {
		rv = CKR_MECHANISM_INVALID;
		goto out;
	}
	if (pMechanism->pParameter != NULL ||
	    pMechanism->ulParameterLen != 0) {
		rv = CKR_MECHANISM_PARAM_INVALID;
		goto out;
	}
	vg_hash_init(&s->digest, (enum vg_hash_alg)m->hash);
	s->op = VG_OP_DIGEST;
	s->op_mech = m->type;
	s->op_multipart = 0;
	s->op_single = 0;
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_Digest(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pData, CK_ULONG ulDataLen,
    CK_BYTE_PTR pDigest, CK_ULONG_PTR pulDigestLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = digest_session(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (s->op_multipart) {
		/* C_Digest cannot finish a multi-part operation, and ends it
		 * all the same [PKCS#11 3.2 §5.12 C_Digest]. */
		rv = CKR_OPERATION_ACTIVE;
		vg_session_end_op(s);
		goto out;
	}
	if ((pData == NULL && ulDataLen != 0) || pulDigestLen == NULL) {
		rv = CKR_ARGUMENTS_BAD;
		vg_session_end_op(s);
		goto out;
	}
	if (pDigest != NULL && *pulDigestLen >= vg_hash_len(s->digest.alg))
		vg_hash_update(&s->digest, pData, ulDataLen);
	rv = digest_finish(s, pDigest, pulDigestLen, 1);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_DigestUpdate(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pPart,
    CK_ULONG ulPartLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = digest_session(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	/* A single-part digest, once begun, cannot go on in parts. */
	if (s->op_single)
		rv = CKR_OPERATION_ACTIVE;
	else if (pPart == NULL && ulPartLen != 0)
		rv = CKR_ARGUMENTS_BAD;
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		goto out;
	}
	vg_hash_update(&s->digest, pPart, ulPartLen);
	s->op_multipart = 1;
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_DigestKey(CK_SESSION_HANDLE hSession, CK_OBJECT_HANDLE hKey)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = digest_session(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	rv = s->op_single ? CKR_OPERATION_ACTIVE :
	    vg_obj_digest_key(s, hKey, &s->digest);
	if (rv == CKR_OK)
		s->op_multipart = 1;
	else
		vg_session_end_op(s);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}

VG_EXPORT CK_RV
C_DigestFinal(CK_SESSION_HANDLE hSession, CK_BYTE_PTR pDigest,
    CK_ULONG_PTR pulDigestLen)
{
	struct vg_session *s = NULL;
	CK_RV rv;

	rv = digest_session(hSession, &s);
	if (rv != CKR_OK)
		goto out;
	if (s->op_single)
		rv = CKR_OPERATION_ACTIVE;
	else if (pulDigestLen == NULL)
		rv = CKR_ARGUMENTS_BAD;
	if (rv != CKR_OK) {
		vg_session_end_op(s);
		goto out;
	}
	rv = digest_finish(s, pDigest, pulDigestLen, 0);
out:
	vg_session_release(s);
	VG_TRACE_RV(rv);
	return rv;
}
