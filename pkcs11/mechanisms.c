/*
 * The mechanism table: what each CKM_ accepts and which crypto/ operation
 * runs it. Later mechanisms are rows here, not code elsewhere.
 */
#include "config.h"

#include "pkcs11/pkcs11_int.h"
#include "vgtoken/vgtoken.h"

#define DIGEST(m, h) { m, 0, 0, CKF_DIGEST, h, 0, 0, NULL }
/* Secret key generation: random bytes, sizes in bytes. */
#define KEYGEN(m, kt, lo, hi)                                               \
	{ m, lo, hi, CKF_GENERATE, -1, 0, kt, NULL }
/* RSA, 2048 to 4096-bit moduli (keys from 1024 bits can be imported). */
#define RSA(m, fl, h, v)                                                    \
	{ m, 1024, 4096, fl, h, v, CKK_RSA, &vg_rsa_ops }
#define RSA_SIGN (CKF_SIGN | CKF_VERIFY)
#define RSA_ALL (CKF_SIGN | CKF_VERIFY | CKF_ENCRYPT | CKF_DECRYPT)
#define MP VG_MECH_MULTIPART
/* ML-DSA: key sizes count parameter sets (CKP_ML_DSA_44 .. 87). The
 * standard numbers are 3.2's (VG_MECH_V32), the vendor twins are not. */
#define MLDSA(m, h, v)                                                      \
	{ m, 1, 3, CKF_SIGN | CKF_VERIFY, h, v, CKK_ML_DSA, &vg_mldsa_ops }
#define MLDSA_GEN(m, v)                                                     \
	{ m, 1, 3, CKF_GENERATE_KEY_PAIR, -1, v, CKK_ML_DSA,                \
	    &vg_mldsa_keygen_ops }
#define V32 VG_MECH_V32
/* Numbers PKCS#11 3.0 added (ECDSA with SHA-3, Edwards and Montgomery
 * curves, HKDF): hidden from the 2.40 table. */
#define V30 VG_MECH_V30
/* ML-KEM: key sizes count parameter sets (CKP_ML_KEM_512 .. 1024). */
#define MLKEM(m, v)                                                         \
	{ m, 1, 3, CKF_ENCAPSULATE | CKF_DECAPSULATE, -1, v, CKK_ML_KEM,    \
	    &vg_mlkem_ops }
#define MLKEM_GEN(m, v)                                                     \
	{ m, 1, 3, CKF_GENERATE_KEY_PAIR, -1, v, CKK_ML_KEM,                \
	    &vg_mlkem_keygen_ops }
/* ECDSA on P-256: raw (the input is the hash) and hash-then-sign. */
#define ECDSA(m, h, v)                                                      \
	{ m, 256, 256, CKF_SIGN | CKF_VERIFY | EC_FLAGS, h, v, CKK_EC,      \
	    &vg_ecdsa_ops }
#define EC_FLAGS (CKF_EC_F_P | CKF_EC_NAMEDCURVE | CKF_EC_UNCOMPRESS)
/* Key wrapping with an AES key of 16 to 32 bytes. */
#define AES_WRAP(m, v)                                                      \
	{ m, 16, 32, CKF_WRAP | CKF_UNWRAP, -1, v, CKK_AES,                 \
	    &vg_aes_wrap_ops }
/* AES encryption (and wrapping, fl) and CMAC with a key of 16 to 32
 * bytes. */
#define AES_CRYPT(m, fl, v)                                                 \
	{ m, 16, 32, CKF_ENCRYPT | CKF_DECRYPT | (fl), -1,                  \
	    VG_MECH_MULTIPART | (v), CKK_AES, &vg_aes_ops }
#define AES_CMAC(m)                                                         \
	{ m, 16, 32, CKF_SIGN | CKF_VERIFY, -1, VG_MECH_MULTIPART, CKK_AES, \
	    &vg_aes_cmac_ops }
/* HMAC over a generic secret key of 1 to 512 bytes. */
#define HMAC(m, h)                                                          \
	{ m, 1, 512, CKF_SIGN | CKF_VERIFY, h, VG_MECH_MULTIPART,           \
	    CKK_GENERIC_SECRET, &vg_hmac_ops }

static const struct vg_mech mechs[] = {
	DIGEST(CKM_SHA_1, VG_HASH_SHA1),
	DIGEST(CKM_SHA224, VG_HASH_SHA224),
	DIGEST(CKM_SHA256, VG_HASH_SHA256),
	DIGEST(CKM_SHA384, VG_HASH_SHA384),
	DIGEST(CKM_SHA512, VG_HASH_SHA512),
	DIGEST(CKM_SHA3_224, VG_HASH_SHA3_224),
	DIGEST(CKM_SHA3_256, VG_HASH_SHA3_256),
	DIGEST(CKM_SHA3_384, VG_HASH_SHA3_384),
	DIGEST(CKM_SHA3_512, VG_HASH_SHA3_512),
	KEYGEN(CKM_GENERIC_SECRET_KEY_GEN, CKK_GENERIC_SECRET, 1, 512),
	KEYGEN(CKM_AES_KEY_GEN, CKK_AES, 16, 32),
	{ CKM_RSA_PKCS_KEY_PAIR_GEN, 2048, 4096, CKF_GENERATE_KEY_PAIR, -1, 0,
	    CKK_RSA, &vg_rsa_keygen_ops },
	/* Single-part mechanisms [PKCS#11 3.2 §6.1.5]; Update gathers the
	 * input anyway, since pkcs11-tool falls back to it. */
	RSA(CKM_RSA_PKCS, RSA_ALL, -1, MP),
	RSA(CKM_RSA_X_509, RSA_ALL, -1, MP),
	/* OAEP also wraps secret keys [PKCS#11 3.2 §6.1.7]. */
	RSA(CKM_RSA_PKCS_OAEP,
	    CKF_ENCRYPT | CKF_DECRYPT | CKF_WRAP | CKF_UNWRAP, -1, 0),
	RSA(CKM_RSA_PKCS_PSS, RSA_SIGN, -1, VG_MECH_PSS),
	RSA(CKM_SHA1_RSA_PKCS, RSA_SIGN, VG_HASH_SHA1, MP),
	RSA(CKM_SHA224_RSA_PKCS, RSA_SIGN, VG_HASH_SHA224, MP),
	RSA(CKM_SHA256_RSA_PKCS, RSA_SIGN, VG_HASH_SHA256, MP),
	RSA(CKM_SHA384_RSA_PKCS, RSA_SIGN, VG_HASH_SHA384, MP),
	RSA(CKM_SHA512_RSA_PKCS, RSA_SIGN, VG_HASH_SHA512, MP),
	RSA(CKM_SHA1_RSA_PKCS_PSS, RSA_SIGN, VG_HASH_SHA1, MP | VG_MECH_PSS),
	RSA(CKM_SHA224_RSA_PKCS_PSS, RSA_SIGN, VG_HASH_SHA224,
	    MP | VG_MECH_PSS),
	RSA(CKM_SHA256_RSA_PKCS_PSS, RSA_SIGN, VG_HASH_SHA256,
	    MP | VG_MECH_PSS),
	RSA(CKM_SHA384_RSA_PKCS_PSS, RSA_SIGN, VG_HASH_SHA384,
	    MP | VG_MECH_PSS),
	RSA(CKM_SHA512_RSA_PKCS_PSS, RSA_SIGN, VG_HASH_SHA512,
	    MP | VG_MECH_PSS),
	{ CKM_EC_KEY_PAIR_GEN, 256, 256, CKF_GENERATE_KEY_PAIR | EC_FLAGS, -1,
	    0, CKK_EC, &vg_ec_keygen_ops },
	ECDSA(CKM_ECDSA, -1, 0),
	ECDSA(CKM_ECDSA_SHA1, VG_HASH_SHA1, VG_MECH_MULTIPART),
	ECDSA(CKM_ECDSA_SHA224, VG_HASH_SHA224, VG_MECH_MULTIPART),
	ECDSA(CKM_ECDSA_SHA256, VG_HASH_SHA256, VG_MECH_MULTIPART),
	ECDSA(CKM_ECDSA_SHA384, VG_HASH_SHA384, VG_MECH_MULTIPART),
	ECDSA(CKM_ECDSA_SHA512, VG_HASH_SHA512, VG_MECH_MULTIPART),
	ECDSA(CKM_ECDSA_SHA3_224, VG_HASH_SHA3_224, MP | V30),
	ECDSA(CKM_ECDSA_SHA3_256, VG_HASH_SHA3_256, MP | V30),
	ECDSA(CKM_ECDSA_SHA3_384, VG_HASH_SHA3_384, MP | V30),
	ECDSA(CKM_ECDSA_SHA3_512, VG_HASH_SHA3_512, MP | V30),
	{ CKM_ECDH1_DERIVE, 256, 256, CKF_DERIVE | EC_FLAGS, -1, 0, CKK_EC,
	    &vg_ecdh_ops },
	{ CKM_ECDH1_COFACTOR_DERIVE, 256, 256, CKF_DERIVE | EC_FLAGS, -1, 0,
	    CKK_EC, &vg_ecdh_ops },
	/* Ed25519 and X25519 [PKCS#11 3.2 §6.3.14, §6.3.15]; X25519 keys
	 * derive with CKM_ECDH1_DERIVE above. */
	{ CKM_EC_EDWARDS_KEY_PAIR_GEN, 256, 256,
	    CKF_GENERATE_KEY_PAIR | CKF_EC_OID | CKF_EC_CURVENAME, -1, V30,
	    CKK_EC_EDWARDS, &vg_ecx_keygen_ops },
	{ CKM_EC_MONTGOMERY_KEY_PAIR_GEN, 256, 256,
	    CKF_GENERATE_KEY_PAIR | CKF_EC_OID | CKF_EC_CURVENAME, -1, V30,
	    CKK_EC_MONTGOMERY, &vg_ecx_keygen_ops },
	{ CKM_EDDSA, 256, 256, CKF_SIGN | CKF_VERIFY | CKF_EC_OID |
	    CKF_EC_CURVENAME, -1, MP | V30, CKK_EC_EDWARDS, &vg_eddsa_ops },
	MLDSA_GEN(CKM_ML_DSA_KEY_PAIR_GEN, V32),
	MLDSA(CKM_ML_DSA, -1, MP | V32),
	MLDSA(CKM_HASH_ML_DSA, -1, VG_MECH_GIVEN_HASH | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA224, VG_HASH_SHA224, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA256, VG_HASH_SHA256, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA384, VG_HASH_SHA384, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA512, VG_HASH_SHA512, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA3_224, VG_HASH_SHA3_224, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA3_256, VG_HASH_SHA3_256, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA3_384, VG_HASH_SHA3_384, MP | V32),
	MLDSA(CKM_HASH_ML_DSA_SHA3_512, VG_HASH_SHA3_512, MP | V32),
	{ CKM_HASH_ML_DSA_SHAKE128, 1, 3, CKF_SIGN | CKF_VERIFY, -1, MP | V32,
	    CKK_ML_DSA, &vg_mldsa_xof_ops },
	{ CKM_HASH_ML_DSA_SHAKE256, 1, 3, CKF_SIGN | CKF_VERIFY, -1, MP | V32,
	    CKK_ML_DSA, &vg_mldsa_xof_ops },
	/* The same, under vgtoken's vendor identifiers. */
	MLDSA_GEN(CKM_VG_ML_DSA_KEY_PAIR_GEN, 0),
	MLDSA(CKM_VG_ML_DSA, -1, MP),
	MLDSA(CKM_VG_HASH_ML_DSA, -1, VG_MECH_GIVEN_HASH),
	/* ML-KEM (pkcs11/mech_mlkem.c, pkcs11/kem.c), and its vendor twins;
	 * encapsulation is reached only through the 3.2 function list. */
	MLKEM_GEN(CKM_ML_KEM_KEY_PAIR_GEN, V32),
	MLKEM(CKM_ML_KEM, V32),
	MLKEM_GEN(CKM_VG_ML_KEM_KEY_PAIR_GEN, 0),
	MLKEM(CKM_VG_ML_KEM, 0),
	/*
	 * AES key wrap [PKCS#11 3.2 §6.16]: KW (RFC 3394) wraps secret keys
	 * whose value is a multiple of 8 bytes (no zero padding, which
	 * nothing authenticates); KWP (RFC 5649) wraps any secret key, and
	 * private keys as PKCS #8. CKM_AES_KEY_WRAP_PAD (0x210a) is not KWP
	 * in the specification ("the usual padding" of 2.40, PKCS #7 then
	 * KW; deprecated since 3.0) although SoftHSMv2 and clients written
	 * for it send it for RFC 5649: it is not offered, rather than
	 * answered with another algorithm than the one it names.
	 */
	AES_WRAP(CKM_AES_KEY_WRAP, 0),
	AES_WRAP(CKM_AES_KEY_WRAP_KWP, VG_MECH_WRAP_PRIVATE),
	/*
	 * AES ciphers and MACs [PKCS#11 3.2 §6.14], single-part and
	 * multi-part (pkcs11/mech_aes.c, pkcs11/mech_cmac.c). ECB also
	 * wraps secret keys of a multiple of 16 bytes, CBC_PAD any secret
	 * key and private keys as PKCS #8 (pkcs11/mech_keywrap.c); CTR and
	 * GCM do not wrap.
	 */
	AES_CRYPT(CKM_AES_ECB, CKF_WRAP | CKF_UNWRAP, 0),
	AES_CRYPT(CKM_AES_CBC, 0, 0),
	AES_CRYPT(CKM_AES_CBC_PAD, CKF_WRAP | CKF_UNWRAP,
	    VG_MECH_WRAP_PRIVATE),
	AES_CRYPT(CKM_AES_CTR, 0, 0),
	AES_CRYPT(CKM_AES_GCM, 0, 0),
	AES_CMAC(CKM_AES_CMAC),
	AES_CMAC(CKM_AES_CMAC_GENERAL),
	HMAC(CKM_SHA_1_HMAC, VG_HASH_SHA1),
	HMAC(CKM_SHA224_HMAC, VG_HASH_SHA224),
	HMAC(CKM_SHA256_HMAC, VG_HASH_SHA256),
	HMAC(CKM_SHA384_HMAC, VG_HASH_SHA384),
	HMAC(CKM_SHA512_HMAC, VG_HASH_SHA512),
	HMAC(CKM_SHA3_224_HMAC, VG_HASH_SHA3_224),
	HMAC(CKM_SHA3_256_HMAC, VG_HASH_SHA3_256),
	HMAC(CKM_SHA3_384_HMAC, VG_HASH_SHA3_384),
	HMAC(CKM_SHA3_512_HMAC, VG_HASH_SHA3_512),
	/* SHA-512/224 and SHA-512/256 [FIPS 180-4 §5.3.6] as digests and
	 * HMACs; as HashML-DSA pre-hashes they are named in the
	 * CKM_HASH_ML_DSA parameter (3.2 has no combined mechanism). */
	DIGEST(CKM_SHA512_224, VG_HASH_SHA512_224),
	DIGEST(CKM_SHA512_256, VG_HASH_SHA512_256),
	HMAC(CKM_SHA512_224_HMAC, VG_HASH_SHA512_224),
	HMAC(CKM_SHA512_256_HMAC, VG_HASH_SHA512_256),
	/* Key derivation from secret keys (pkcs11/mech_derive.c): by AES
	 * encryption of data, base keys of 16 to 32 bytes; HKDF from a
	 * generic secret or HKDF key of up to 512 bytes (sizes in bytes). */
	{ CKM_AES_ECB_ENCRYPT_DATA, 16, 32, CKF_DERIVE, -1, 0, CKK_AES,
	    &vg_aes_derive_ops },
	{ CKM_AES_CBC_ENCRYPT_DATA, 16, 32, CKF_DERIVE, -1, 0, CKK_AES,
	    &vg_aes_derive_ops },
	{ CKM_HKDF_DERIVE, 1, 512, CKF_DERIVE, -1, V30, CKK_GENERIC_SECRET,
	    &vg_hkdf_ops },
	{ CKM_HKDF_DATA, 1, 512, CKF_DERIVE, -1, V30, CKK_GENERIC_SECRET,
	    &vg_hkdf_ops },
	{ CKM_HKDF_KEY_GEN, 1, 512, CKF_GENERATE, -1, V30, CKK_HKDF, NULL },
};
#define NMECHS (sizeof(mechs) / sizeof(mechs[0]))

/* see pkcs11/pkcs11_int.h */
const struct vg_mech *
vg_mech_find(CK_MECHANISM_TYPE type)
{
	size_t i;

	for (i = 0; i < NMECHS; i++)
		if (mechs[i].type == type)
			return &mechs[i];
	return NULL;
}

/* see pkcs11/pkcs11_int.h */
size_t
vg_mech_count(void)
{
	return NMECHS;
}

/* see pkcs11/pkcs11_int.h */
const struct vg_mech *
vg_mech_at(size_t i)
{
	return i < NMECHS ? &mechs[i] : NULL;
}
