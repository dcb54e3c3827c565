/*
 * ML-KEM (FIPS 203) [PKCS#11 3.2, ML-KEM]: key pair generation
 * (CKM_ML_KEM_KEY_PAIR_GEN) and key encapsulation (CKM_ML_KEM) for
 * C_EncapsulateKey and C_DecapsulateKey (pkcs11/kem.c). The vendor
 * mechanisms of vgtoken/vgtoken.h run the same code.
 *
 * Keys are loaded once into the key cache in their expanded form
 * (crypto/mlkem.h), in locked memory: a public key's ek expands to the
 * matrix A-hat, the decoded t-hat and H(ek); a private key's dk (from
 * CKA_VALUE, or made from CKA_SEED by KeyGen_internal) to the decoded
 * s-hat, z and the expanded form of its ek. The checks of FIPS 203 §7.2
 * and §7.3 (the modulus check of ek, the hash check of dk) run there, so
 * that an encapsulation or decapsulation does only the per-ciphertext
 * work.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/mlkem.h"
#include "pkcs11/pkcs11_int.h"
#include "token/object.h"

/*
 * A loaded key: the expanded ek (public keys) or dk (private keys) of
 * crypto/mlkem.h, in the same page-aligned region after this header, at
 * KEY_OFF.
 */
struct mlkem_key {
	enum vg_mlkem_param set;
	size_t alloc;                  /* bytes from vg_secmem_alloc */
	struct vg_mlkem_expanded_ek *ek; /* public keys, else NULL */
	struct vg_mlkem_expanded_dk *dk; /* private keys, else NULL */
};

#define KEY_OFF 64                     /* keeps the form 32-byte aligned */

/* Wipes the key (the whole region, the expanded secret included) and
 * releases it. */
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

/* Expands the private key of o (CKA_VALUE, or else CKA_SEED) into d. Both
 * were checked when the object was made (token/keys.c); the expansion
 * checks the dk hash again. */
static CK_RV
expand_private(const struct vg_object *o, enum vg_mlkem_param set,
    struct vg_mlkem_expanded_dk *d, size_t dsize)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	const struct vg_attr *seed = vg_object_attr(o, CKA_SEED);
	size_t len = vg_mlkem_dk_len(set);
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	CK_RV rv = CKR_KEY_TYPE_INCONSISTENT;

	if (v != NULL && v->len == len) {
		if (vg_mlkem_expand_dk(set, v->value, len, d, dsize) == VG_OK)
			rv = CKR_OK;
	} else if (seed != NULL && seed->len == VG_MLKEM_SEED_LEN) {
		/* A key given by its seed only: KeyGen_internal first. */
		if (vg_mlkem_keygen_internal(set, seed->value, ek, dk) ==
		    VG_OK && vg_mlkem_expand_dk(set, dk, len, d, dsize) ==
		    VG_OK)
			rv = CKR_OK;
		vg_wipe(dk, sizeof(dk));
	}
	return rv;
}

static CK_RV
load(const struct vg_object *o, struct vg_key *key)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	int priv = o->cls == CKO_PRIVATE_KEY;
	enum vg_mlkem_param set;
	struct mlkem_key *k;
	size_t esize;
	CK_RV rv;

	if (o->key_type != CKK_ML_KEM ||
	    set_of(vg_object_ulong(o, CKA_PARAMETER_SET, 0), &set) != 0)
		return CKR_KEY_TYPE_INCONSISTENT;
	esize = priv ? vg_mlkem_expanded_dk_size(set)
		     : vg_mlkem_expanded_ek_size(set);
	k = vg_secmem_alloc(KEY_OFF + esize);
	if (k == NULL)
		return CKR_HOST_MEMORY;
	k->set = set;
	k->alloc = KEY_OFF + esize;
	if (priv) {
		k->dk = (struct vg_mlkem_expanded_dk *)((uint8_t *)k +
		    KEY_OFF);
		rv = expand_private(o, set, k->dk, esize);
	} else {
		/* the modulus check of ek [FIPS 203 §7.2] */
		k->ek = (struct vg_mlkem_expanded_ek *)((uint8_t *)k +
		    KEY_OFF);
		rv = v != NULL && vg_mlkem_expand_ek(set, v->value, v->len,
		    k->ek, esize) == VG_OK ? CKR_OK : CKR_KEY_TYPE_INCONSISTENT;
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

	rv = k->ek == NULL ? CKR_KEY_TYPE_INCONSISTENT
			   : vg_random(m, sizeof(m));
	if (rv == CKR_OK && vg_mlkem_encaps_internal_expanded(k->ek, m, ct,
	    ss) != VG_OK)
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

	e = k->dk == NULL ? VG_ERR_ARG
			  : vg_mlkem_decaps_expanded(k->dk, ct, ctlen, ss);
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
	struct vg_rng *rng;
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
	/* The thread's DRBG, as for ML-DSA (pkcs11/mech_mldsa.c): no lock
	 * shared by all threads. */
	rng = vg_rng_thread();
	if (rng == NULL || vg_mlkem_keygen(set, rng, seed, ek, dk) != VG_OK)
		rv = CKR_FUNCTION_FAILED;
	lp.pk = ek;
	lp.pklen = vg_mlkem_ek_len(set);
	lp.sk = dk;
	lp.sklen = vg_mlkem_dk_len(set);
	lp.seed = seed;
	lp.seedlen = sizeof(seed);
	lp.in_place = 0;
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
