/*
 * vgtoken's public header: the vendor-defined identifiers the token
 * offers beside the PKCS#11 standard ones, for clients built against
 * PKCS#11 headers older than 3.2. Include it after any pkcs11.h; it uses
 * only plain integer constants and needs no other header.
 *
 * Each vendor value is CKM_VENDOR_DEFINED (0x80000000) + 0x56470000 ("VG")
 * + a small number, and runs the same code as its standard twin.
 */
#ifndef VGTOKEN_VGTOKEN_H
#define VGTOKEN_VGTOKEN_H

#define VGTOKEN_VERSION_MAJOR 0
#define VGTOKEN_VERSION_MINOR 1

#define VGTOKEN_VENDOR_BASE 0xD6470000UL

/* ML-DSA (FIPS 204) under vendor identifiers; standard twins in
 * parentheses [PKCS#11 3.2]. The key type and the two attributes are
 * aliases: the module turns them into the standard numbers (CKK_ML_DSA
 * 0x4a, CKA_PARAMETER_SET 0x61d, CKA_SEED 0x637) in every template it
 * takes, so a key made with either set is found and read with either;
 * CKA_KEY_TYPE reads back as CKK_ML_DSA. */
#define CKK_VG_ML_DSA (VGTOKEN_VENDOR_BASE + 0x01UL)            /* CKK_ML_DSA */
#define CKA_VG_PARAMETER_SET (VGTOKEN_VENDOR_BASE + 0x10UL)     /* CKA_PARAMETER_SET */
#define CKA_VG_SEED (VGTOKEN_VENDOR_BASE + 0x11UL)              /* CKA_SEED */
#define CKM_VG_ML_DSA_KEY_PAIR_GEN (VGTOKEN_VENDOR_BASE + 0x20UL) /* CKM_ML_DSA_KEY_PAIR_GEN */
#define CKM_VG_ML_DSA (VGTOKEN_VENDOR_BASE + 0x21UL)            /* CKM_ML_DSA */
#define CKM_VG_HASH_ML_DSA (VGTOKEN_VENDOR_BASE + 0x22UL)       /* CKM_HASH_ML_DSA */

/* Parameter sets, the values of CKA_VG_PARAMETER_SET (as CKP_ML_DSA_*). */
#define CKP_VG_ML_DSA_44 1UL
#define CKP_VG_ML_DSA_65 2UL
#define CKP_VG_ML_DSA_87 3UL

/* ML-KEM (FIPS 203) under vendor identifiers, for key generation, import
 * and search through the older interfaces; the key type is an alias as
 * CKK_VG_ML_DSA is (CKK_ML_KEM 0x49), and keys take CKA_VG_PARAMETER_SET
 * and CKA_VG_SEED. Encapsulation and decapsulation (C_EncapsulateKey,
 * C_DecapsulateKey) exist only in the PKCS#11 3.2 function list. */
#define CKK_VG_ML_KEM (VGTOKEN_VENDOR_BASE + 0x02UL)            /* CKK_ML_KEM */
#define CKM_VG_ML_KEM_KEY_PAIR_GEN (VGTOKEN_VENDOR_BASE + 0x30UL) /* CKM_ML_KEM_KEY_PAIR_GEN */
#define CKM_VG_ML_KEM (VGTOKEN_VENDOR_BASE + 0x31UL)            /* CKM_ML_KEM */

/* Parameter sets of CKK_VG_ML_KEM keys (as CKP_ML_KEM_*). */
#define CKP_VG_ML_KEM_512 1UL
#define CKP_VG_ML_KEM_768 2UL
#define CKP_VG_ML_KEM_1024 3UL

#endif
