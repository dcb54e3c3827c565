/*
 * Key encapsulation in the fuzz target "mech" (see tests/fuzz/p11.h):
 * C_EncapsulateKey and C_DecapsulateKey with CKM_ML_KEM or the input's
 * mechanism, on the ML-KEM-512 pair of the target's keys or the key it
 * picked, with the oracles of fuzz_mech.c.
 */
#include "config.h"

#include <string.h>

#include "tests/fuzz/p11.h"
#include "vgtoken/vgtoken.h"

/* The value of an extractable key (up to 64 bytes) into v; its length,
 * or 0 when it cannot be read. */
static CK_ULONG
key_value(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h, uint8_t v[64])
{
	CK_ATTRIBUTE a = { CKA_VALUE, v, 64 };

	return vg_fz_p11->C_GetAttributeValue(s, h, &a, 1) == CKR_OK
	    ? a.ulValueLen : 0;
}

/* C_EncapsulateKey; a handle with an error, or with no key made (a
 * length query), is a finding. */
static CK_RV
encaps(CK_SESSION_HANDLE s, CK_MECHANISM *m, CK_OBJECT_HANDLE key,
    CK_ATTRIBUTE *t, CK_ULONG n, CK_BYTE_PTR o, CK_ULONG *ol,
    CK_OBJECT_HANDLE *made)
{
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_RV rv;

	rv = vg_fz_rv(vg_fz_p11->C_EncapsulateKey(s, m, key, t, n, o, ol, &h),
	    "C_EncapsulateKey");
	if (rv == CKR_OK && o != NULL)
		*made = h;
	else if (h != CK_INVALID_HANDLE)
		vg_fz_fail("C_EncapsulateKey: a handle without a key");
	return rv;
}

/*
 * The ciphertext of C_EncapsulateKey by the length convention: a length
 * query, sometimes a short buffer (which must get CKR_BUFFER_TOO_SMALL or
 * fail), then a buffer of the length given. *ct NULL when none was made.
 */
static void
encaps_out(struct vg_fz_pool *pool, struct vg_fz_in *in, CK_SESSION_HANDLE s,
    CK_MECHANISM *m, CK_OBJECT_HANDLE key, CK_ATTRIBUTE *t, CK_ULONG n,
    CK_BYTE_PTR *ct, CK_ULONG *ctlen, CK_OBJECT_HANDLE *made)
{
	CK_ULONG need = 0, shortn;
	CK_BYTE_PTR b;

	*ct = NULL;
	*ctlen = 0;
	if (encaps(s, m, key, t, n, NULL, &need, made) != CKR_OK)
		return;
	if (need > 1 && (vg_fz_u8(in) & 1)) {
		shortn = need - 1;
		b = vg_fz_alloc(pool, shortn);
		if (b == NULL || encaps(s, m, key, t, n, b, &shortn, made) !=
		    CKR_BUFFER_TOO_SMALL)
			return;
		if (shortn != need)
			vg_fz_fail("C_EncapsulateKey: length %lu, then %lu",
			    (unsigned long)need, (unsigned long)shortn);
	}
	b = vg_fz_alloc(pool, need);
	*ctlen = need;
	if (b != NULL && encaps(s, m, key, t, n, b, ctlen, made) == CKR_OK) {
		if (*ctlen > need)
			vg_fz_fail("C_EncapsulateKey: wrote %lu bytes into %lu",
			    (unsigned long)*ctlen, (unsigned long)need);
		*ct = b;
	}
}

/* see tests/fuzz/p11.h */
void
vg_fz_mech_kem(struct vg_fz_pool *pool, struct vg_fz_in *in,
    CK_SESSION_HANDLE s, CK_MECHANISM *m, CK_OBJECT_HANDLE key,
    const struct vg_fz_keys *k, const uint8_t *msg, size_t len)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = vg_fz_u8(in) & 1 ? CKK_AES : CKK_GENERIC_SECRET;
	CK_ULONG vlen = vg_fz_u8(in) & 1 ? vg_fz_ulong(in) : 32;
	CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &vlen, sizeof(vlen) },
	};
	CK_ULONG n = 2 + vg_fz_u8(in) % 4;
	uint8_t b = vg_fz_u8(in);
	CK_OBJECT_HANDLE pub = b & 1 ? key : k->mlkem_pub;
	CK_OBJECT_HANDLE priv = b & 2 ? key : k->mlkem_priv;
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE, made = CK_INVALID_HANDLE;
	CK_BYTE_PTR ct;
	CK_ULONG ctlen, l1, l2;
	uint8_t v1[64], v2[64];
	CK_RV rv;

	if (b & 4)
		m->mechanism = CKM_ML_KEM;
	encaps_out(pool, in, s, m, pub, t, n, &ct, &ctlen, &made);
	if (ct != NULL) {
		l1 = key_value(s, made, v1);
		rv = vg_fz_rv(vg_fz_p11->C_DecapsulateKey(s, m, k->mlkem_priv,
		    t, n, ct, ctlen, &h), "C_DecapsulateKey");
		if (pub == k->mlkem_pub && rv != CKR_OK)
			vg_fz_fail("mechanism 0x%lx: a ciphertext the module "
				   "made does not decapsulate: 0x%lx",
			    (unsigned long)m->mechanism, (unsigned long)rv);
		l2 = rv == CKR_OK ? key_value(s, h, v2) : 0;
		if (pub == k->mlkem_pub && (l1 != l2 || l1 == 0 ||
		    memcmp(v1, v2, l1) != 0))
			vg_fz_fail("mechanism 0x%lx: the decapsulated key "
				   "differs", (unsigned long)m->mechanism);
	}
	h = CK_INVALID_HANDLE;
	rv = vg_fz_rv(vg_fz_p11->C_DecapsulateKey(s, m, priv, t, n,
	    (CK_BYTE_PTR)msg, len, &h), "C_DecapsulateKey");
	if (rv != CKR_OK && h != CK_INVALID_HANDLE)
		vg_fz_fail("C_DecapsulateKey: a handle without a key");
	if (rv == CKR_OK)
		vg_fz_p11_read_object(s, h);
	if (priv == k->mlkem_priv && len == 768 && msg != NULL && ct != NULL &&
	    (m->mechanism == CKM_ML_KEM || m->mechanism == CKM_VG_ML_KEM) &&
	    rv != CKR_OK)
		vg_fz_fail("a ciphertext of the right length is refused: "
			   "0x%lx", (unsigned long)rv);
}
