/*
 * Fuzz target "template": caller templates through the entry points that
 * build objects from them: C_CreateObject, C_GenerateKey,
 * C_GenerateKeyPair (EC and ML-DSA; RSA key generation takes too long per
 * input) and C_DeriveKey (ECDH on a P-256 key), on a logged-in R/W
 * session of a fresh token in a module that stays initialised. The input
 * picks the function, the mechanism (mostly one the module offers) and
 * the templates: attribute types, lengths and values (tests/fuzz/p11.c).
 *
 * Oracles: every return value is a defined CK_RV; a handle comes back
 * exactly when the call succeeds; every object made can be read back
 * with C_GetAttributeValue, whose length query and copy agree; then it is
 * destroyed, which must succeed unless it has CKA_DESTROYABLE false. Each
 * input runs in a new session, closed at the end (session objects go with
 * it); another session keeps the user logged in. Only a token object
 * made not destroyable outlives its input.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "vgtoken/vgtoken.h"
#include "tests/fuzz/p11.h"

static CK_SLOT_ID slot;
static CK_SESSION_HANDLE sess;
static struct vg_fz_keys keys;

/* see fuzz.h */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	vg_fz_p11_setup();
	vg_fz_need(vg_fz_p11->C_Initialize(NULL), "C_Initialize");
	slot = vg_fz_p11_token();
	sess = vg_fz_p11_user_session(slot);
	vg_fz_p11_keys(sess, 0, 0, &keys);
	return 0;
}

/* Reads the new object back and destroys it. */
static void
done_with(CK_OBJECT_HANDLE h, const char *fn)
{
	CK_BBOOL destroyable = CK_TRUE;
	CK_ATTRIBUTE a = { CKA_DESTROYABLE, &destroyable, 1 };
	CK_RV rv;

	if (h == CK_INVALID_HANDLE)
		vg_fz_fail("%s: CKR_OK without a handle", fn);
	vg_fz_p11_read_object(sess, h);
	if (vg_fz_p11->C_GetAttributeValue(sess, h, &a, 1) != CKR_OK)
		vg_fz_fail("%s: no CKA_DESTROYABLE", fn);
	rv = vg_fz_p11->C_DestroyObject(sess, h);
	if (rv != (destroyable ? CKR_OK : CKR_ACTION_PROHIBITED))
		vg_fz_fail("%s: C_DestroyObject of what it made: 0x%lx", fn,
		    (unsigned long)rv);
}

static void
create(struct vg_fz_pool *pool, struct vg_fz_in *in)
{
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_ATTRIBUTE *t;
	CK_ULONG n;
	CK_RV rv;

	n = vg_fz_template(pool, in, 24, 0, &t);
	rv = vg_fz_rv(vg_fz_p11->C_CreateObject(sess, t, n, &h),
	    "C_CreateObject");
	if (rv == CKR_OK)
		done_with(h, "C_CreateObject");
	else if (h != CK_INVALID_HANDLE)
		vg_fz_fail("C_CreateObject: error but a handle");
}

static void
generate(struct vg_fz_pool *pool, struct vg_fz_in *in)
{
	static const CK_MECHANISM_TYPE m[] = { CKM_GENERIC_SECRET_KEY_GEN,
		CKM_AES_KEY_GEN };
	CK_MECHANISM mech = { m[vg_fz_u8(in) & 1], NULL, 0 };
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_ATTRIBUTE *t;
	CK_ULONG n;
	CK_RV rv;

	n = vg_fz_template(pool, in, 16, 0, &t);
	rv = vg_fz_rv(vg_fz_p11->C_GenerateKey(sess, &mech, t, n, &h),
	    "C_GenerateKey");
	if (rv == CKR_OK)
		done_with(h, "C_GenerateKey");
	else if (h != CK_INVALID_HANDLE)
		vg_fz_fail("C_GenerateKey: error but a handle");
}

static void
generate_pair(struct vg_fz_pool *pool, struct vg_fz_in *in)
{
	static const CK_MECHANISM_TYPE m[] = { CKM_EC_KEY_PAIR_GEN,
		CKM_ML_DSA_KEY_PAIR_GEN, CKM_VG_ML_DSA_KEY_PAIR_GEN,
		CKM_SHA256, CKM_EC_EDWARDS_KEY_PAIR_GEN,
		CKM_EC_MONTGOMERY_KEY_PAIR_GEN, CKM_ML_KEM_KEY_PAIR_GEN,
		CKM_VG_ML_KEM_KEY_PAIR_GEN };
	uint8_t b = vg_fz_u8(in);
	/* bit 7 (which the earlier seeds leave clear) picks ML-KEM */
	CK_MECHANISM mech = { m[b & 0x80 ? 6 + (b & 1) : (b & 0x7f) % 6],
		NULL, 0 };
	CK_OBJECT_HANDLE pub = CK_INVALID_HANDLE, priv = CK_INVALID_HANDLE;
	CK_ATTRIBUTE *tpub, *tpriv;
	CK_ULONG npub, npriv;
	CK_RV rv;

	npub = vg_fz_template(pool, in, 12, 0, &tpub);
	npriv = vg_fz_template(pool, in, 12, 0, &tpriv);
	rv = vg_fz_rv(vg_fz_p11->C_GenerateKeyPair(sess, &mech, tpub, npub,
	    tpriv, npriv, &pub, &priv), "C_GenerateKeyPair");
	if (rv == CKR_OK) {
		done_with(pub, "C_GenerateKeyPair");
		done_with(priv, "C_GenerateKeyPair");
	} else if (pub != CK_INVALID_HANDLE || priv != CK_INVALID_HANDLE) {
		vg_fz_fail("C_GenerateKeyPair: error but a handle");
	}
}

static void
derive(struct vg_fz_pool *pool, struct vg_fz_in *in)
{
	static const CK_EC_KDF_TYPE kdfs[] = { CKD_NULL, CKD_SHA1_KDF,
		CKD_SHA256_KDF, CKD_SHA512_KDF };
	uint8_t sel = vg_fz_u8(in);
	CK_ECDH1_DERIVE_PARAMS p = {
		kdfs[sel & 3], 0, NULL, sizeof(keys.ec_point) - 2,
		keys.ec_point + 2,
	};
	CK_MECHANISM mech = { (sel & 4) ? CKM_ECDH1_COFACTOR_DERIVE
					: CKM_ECDH1_DERIVE, &p, sizeof(p) };
	/* sel & 8: the X25519 key, with its peer */
	CK_OBJECT_HANDLE base = sel & 8 ? keys.x_priv : keys.ec_priv;

	if (sel & 8) {
		p.pPublicData = (CK_BYTE_PTR)vg_fz_x25519_peer;
		p.ulPublicDataLen = 32;
	}
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE;
	CK_ATTRIBUTE *t;
	CK_ULONG n;
	CK_RV rv;

	n = vg_fz_template(pool, in, 16, 0, &t);
	rv = vg_fz_rv(vg_fz_p11->C_DeriveKey(sess, &mech, base, t, n, &h),
	    "C_DeriveKey");
	if (rv == CKR_OK)
		done_with(h, "C_DeriveKey");
	else if (h != CK_INVALID_HANDLE)
		vg_fz_fail("C_DeriveKey: error but a handle");
}

/* see fuzz.h */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_fz_in in = { data, size };
	struct vg_fz_pool pool = { 0 };

	vg_fz_need(vg_fz_p11->C_OpenSession(slot,
	    CKF_SERIAL_SESSION | CKF_RW_SESSION, NULL, NULL, &sess),
	    "C_OpenSession");
	switch (vg_fz_u8(&in) & 3) {
	case 0:
		create(&pool, &in);
		break;
	case 1:
		generate(&pool, &in);
		break;
	case 2:
		generate_pair(&pool, &in);
		break;
	default:
		derive(&pool, &in);
		break;
	}
	vg_fz_need(vg_fz_p11->C_CloseSession(sess), "C_CloseSession");
	vg_fz_pool_free(&pool);
	return 0;
}
