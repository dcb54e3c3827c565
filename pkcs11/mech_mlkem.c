/*
 * ML-KEM (FIPS 203) [PKCS#11 3.2, ML-KEM]: key pair generation
 * (CKM_ML_KEM_KEY_PAIR_GEN) and key encapsulation (CKM_ML_KEM) for
 * C_EncapsulateKey and C_DecapsulateKey (pkcs11/kem.c). The vendor
 * mechanisms of vgtoken/vgtoken.h run the same code.
 *
 * Keys are loaded once into the key cache: a private key's dk (from
 * CKA_VALUE, or made from CKA_SEED by KeyGen_internal), a public key's
 * ek, in locked memory. crypto/mlkem.h offers no expanded form (the NTT
 * of the key vectors and the matrix A) to keep instead: each operation
 * decodes the key and samples A again, as ML-KEM.Encaps and Decaps do.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/mlkem.h"
#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/* A loaded key: its encoding, ek or dk, after the header. */
struct mlkem_key {
	enum vg_mlkem_param set;
	size_t alloc;                  /* bytes from vg_secmem_alloc */
	size_t len;                    /* of b */
	uint8_t b[];
};

static void
key_free(void *p)
{
	struct mlkem_key *k = p;

	if (k != NULL)
		vg_secmem_free(k, k->alloc);
}

static int
set_of(CK_ULONG ckp, enum vg_mlkem_param *set)
{
	switch (ckp) {
	case CKP_ML_KEM_512:
		*set = VG_MLKEM_512;
		return 0;
	case CKP_ML_KEM_768:
		*set = VG_MLKEM_768;
		return 0;
	case CKP_ML_KEM_1024:
		*set = VG_MLKEM_1024;
		return 0;
	}
	return -1;
}

/* The dk of private key o into k->b: CKA_VALUE, or else from CKA_SEED.
 * Both were checked when the object was made (token/keys.c). */
static CK_RV
load_private(const struct vg_object *o, struct mlkem_key *k)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	uint8_t ek[VG_MLKEM_MAX_EK_LEN];

	if (v != NULL && v->len == k->len) {
		memcpy(k->b, v->value, k->len);
		return CKR_OK;
	}
	if (seed != NULL && seed->len == VG_MLKEM_SEED_LEN &&
	    vg_mlkem_keygen_internal(k->set, seed->value, ek, k->b) == VG_OK)
		return CKR_OK;
	return CKR_KEY_TYPE_INCONSISTENT;
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	int priv = o->cls == CKO_PRIVATE_KEY;
	enum vg_mlkem_param set;
	struct mlkem_key *k;
	size_t len;
	CK_RV rv;

	if (o->key_type != CKK_ML_KEM ||
	    set_of(vg_object_ulong(o, CKA_PARAMETER_SET, 0), &set) != 0)
		return CKR_KEY_TYPE_INCONSISTENT;
	len = priv ? vg_mlkem_dk_len(set) : vg_mlkem_ek_len(set);
	k = vg_secmem_alloc(sizeof(*k) + len);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->set = set;
	k->alloc = sizeof(*k) + len;
	k->len = len;
	if (priv) {
		rv = load_private(o, k);
	} else {
		rv = CKR_KEY_TYPE_INCONSISTENT;
		if (v != NULL && v->len == len) {
			memcpy(k->b, v->value, len);
			rv = CKR_OK;
		}
	}
	if (rv != CKR_OK) {
		key_free(k);
		return rv;
	}
	key->impl = k;
	key->impl_free = key_free;
	key->bits = (CK_ULONG)(set + 1); /* the table counts parameter sets */
	return CKR_OK;
}

static CK_ULONG
ct_len(const struct vg_key *key)
{
	const struct mlkem_key *k = key->impl;

	return (CK_ULONG)vg_mlkem_ct_len(k->set);
}

/* ML-KEM.Encaps [FIPS 203 Alg. 20]: m from the module's DRBG (taken under
 * the module lock), then Encaps_internal outside it. */
static CK_RV
encapsulate(const struct vg_key *key, uint8_t *ct, uint8_t *ss,
    size_t *sslen)
{
	const struct mlkem_key *k = key->impl;
	uint8_t m[VG_MLKEM_M_LEN];
	CK_RV rv;

	rv = vg_random(m, sizeof(m));
	if (rv == CKR_OK && vg_mlkem_encaps_internal(k->set, k->b, k->len, m,
	    ct, ss) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_wipe(m, sizeof(m));
	if (rv != CKR_OK)
		vg_wipe(ss, VG_MLKEM_SS_LEN);
	*sslen = VG_MLKEM_SS_LEN;
	return rv;
}

/* ML-KEM.Decaps [FIPS 203 Alg. 21]: a ciphertext that does not
 * re-encrypt gives the implicit rejection key, not an error. */
static CK_RV
decapsulate(const struct vg_key *key, const uint8_t *ct, size_t ctlen,
    uint8_t *ss, size_t *sslen)
{
	const struct mlkem_key *k = key->impl;
	enum vg_err e;

	e = vg_mlkem_decaps(k->set, k->b, k->len, ct, ctlen, ss);
	*sslen = VG_MLKEM_SS_LEN;
	if (e == VG_OK)
		return CKR_OK;
	vg_wipe(ss, VG_MLKEM_SS_LEN);
	return e == VG_ERR_LENGTH ? CKR_ENCRYPTED_DATA_LEN_RANGE
				  : CKR_FUNCTION_FAILED;
}

const struct vg_mech_ops vg_mlkem_ops = {
	.load = load,
	.kem_ct_len = ct_len,
	.encapsulate = encapsulate,
	.decapsulate = decapsulate,
};

/* ------------------------------------------------------ key generation */

static CK_RV
mlkem_generate_pair(struct vg_session *s, const CK_MECHANISM *m,
    const CK_ATTRIBUTE *pubt, CK_ULONG npub, const CK_ATTRIBUTE *privt,
    CK_ULONG npriv, CK_OBJECT_HANDLE *hpub, CK_OBJECT_HANDLE *hpriv)
{
	struct vg_object *pub = NULL, *priv = NULL;
	uint8_t seed[VG_MLKEM_SEED_LEN], ek[VG_MLKEM_MAX_EK_LEN];
	uint8_t *dk = NULL;
	enum vg_mlkem_param set = VG_MLKEM_512;
	struct vg_lattice_pair lp;
	CK_RV rv;

	rv = vg_lattice_pair_start(m, CKK_ML_KEM, CKM_ML_KEM_KEY_PAIR_GEN,
	    pubt, npub, privt, npriv, &pub, &priv, &lp.ckp);
	if (rv != CKR_OK)
		goto out;
	if (set_of(lp.ckp, &set) != 0) {
		rv = CKR_ATTRIBUTE_VALUE_INVALID;
		goto out;
	}
	dk = vg_secmem_alloc(vg_mlkem_dk_len(set));
	if (dk == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	vg_mutex_lock(&vg_mod.lock);
	if (vg_mlkem_keygen(set, &vg_mod.rng, seed, ek, dk) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	vg_mutex_unlock(&vg_mod.lock);
	lp.pk = ek;
	lp.pklen = vg_mlkem_ek_len(set);
	lp.sk = dk;
	lp.sklen = vg_mlkem_dk_len(set);
	lp.seed = seed;
	lp.seedlen = sizeof(seed);
	if (rv == CKR_OK)
		rv = vg_lattice_pair_finish(s, &pub, &priv, &lp, hpub, hpriv);
out:
	vg_wipe(seed, sizeof(seed));
	if (dk != NULL)
		vg_secmem_free(dk, vg_mlkem_dk_len(set));
	vg_object_free(pub);
	vg_object_free(priv);
	return rv;
}

const struct vg_mech_ops vg_mlkem_keygen_ops = {
	.generate_pair = mlkem_generate_pair,
};
