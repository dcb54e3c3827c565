/*
 * Identifiers of the NSS vendor space that vgtoken stores: the trust
 * objects NSS (certutil, Firefox) writes beside the certificates it
 * imports to a token. They are NSS's numbers, in CKO_/CKA_/CKT_
 * VENDOR_DEFINED plus NSS's vendor tag 0x4E534350 ("NSCP"); the values
 * of the trust attributes are CK_TRUST (cryptoki/pkcs11.h).
 *
 * A trust object names its certificate by issuer and serial number and
 * by the certificate's SHA-1 and MD5 hashes, and gives one CK_TRUST
 * value per purpose (server auth "C/P", client auth, email protection,
 * code signing, ...), as certutil -t shows them.
 *
 * PKCS#11 3.2 gave its own CKO_TRUST attributes the names NSS used
 * (CKA_TRUST_SERVER_AUTH ...) with other numbers; NSS's are named here
 * CKA_NSS_TRUST_* and CKA_NSS_CERT_*_HASH, as newer NSS headers do.
 */
#ifndef VG_CRYPTOKI_NSS_H
#define VG_CRYPTOKI_NSS_H

#include "cryptoki/pkcs11.h"

#define VG_NSS_VENDOR 0x4E534350UL

/* Object class. */
#define CKO_NSS (CKO_VENDOR_DEFINED | VG_NSS_VENDOR)
#define CKO_NSS_TRUST (CKO_NSS + 3UL)

/* Attributes of CKO_NSS_TRUST. Usage trust, then purpose trust: each a
 * CK_TRUST; CKA_NSS_TRUST_STEP_UP_APPROVED a CK_BBOOL. */
#define CKA_NSS (CKA_VENDOR_DEFINED | VG_NSS_VENDOR)
#define VG_CKA_NSS_TRUST_BASE (CKA_NSS + 0x2000UL)
#define CKA_NSS_TRUST_DIGITAL_SIGNATURE (VG_CKA_NSS_TRUST_BASE + 1UL)
#define CKA_NSS_TRUST_NON_REPUDIATION (VG_CKA_NSS_TRUST_BASE + 2UL)
#define CKA_NSS_TRUST_KEY_ENCIPHERMENT (VG_CKA_NSS_TRUST_BASE + 3UL)
#define CKA_NSS_TRUST_DATA_ENCIPHERMENT (VG_CKA_NSS_TRUST_BASE + 4UL)
#define CKA_NSS_TRUST_KEY_AGREEMENT (VG_CKA_NSS_TRUST_BASE + 5UL)
#define CKA_NSS_TRUST_KEY_CERT_SIGN (VG_CKA_NSS_TRUST_BASE + 6UL)
#define CKA_NSS_TRUST_CRL_SIGN (VG_CKA_NSS_TRUST_BASE + 7UL)
#define CKA_NSS_TRUST_SERVER_AUTH (VG_CKA_NSS_TRUST_BASE + 8UL)
#define CKA_NSS_TRUST_CLIENT_AUTH (VG_CKA_NSS_TRUST_BASE + 9UL)
#define CKA_NSS_TRUST_CODE_SIGNING (VG_CKA_NSS_TRUST_BASE + 10UL)
#define CKA_NSS_TRUST_EMAIL_PROTECTION (VG_CKA_NSS_TRUST_BASE + 11UL)
#define CKA_NSS_TRUST_IPSEC_END_SYSTEM (VG_CKA_NSS_TRUST_BASE + 12UL)
#define CKA_NSS_TRUST_IPSEC_TUNNEL (VG_CKA_NSS_TRUST_BASE + 13UL)
#define CKA_NSS_TRUST_IPSEC_USER (VG_CKA_NSS_TRUST_BASE + 14UL)
#define CKA_NSS_TRUST_TIME_STAMPING (VG_CKA_NSS_TRUST_BASE + 15UL)
#define CKA_NSS_TRUST_STEP_UP_APPROVED (VG_CKA_NSS_TRUST_BASE + 16UL)
/* The certificate's hashes: 20 and 16 bytes. */
#define CKA_NSS_CERT_SHA1_HASH (VG_CKA_NSS_TRUST_BASE + 100UL)
#define CKA_NSS_CERT_MD5_HASH (VG_CKA_NSS_TRUST_BASE + 101UL)

/* CK_TRUST values. UNKNOWN is what a purpose has when nothing is said. */
#define CKT_NSS (0x80000000UL | VG_NSS_VENDOR)
#define CKT_NSS_TRUSTED (CKT_NSS + 1UL)
#define CKT_NSS_TRUSTED_DELEGATOR (CKT_NSS + 2UL)
#define CKT_NSS_MUST_VERIFY_TRUST (CKT_NSS + 3UL)
#define CKT_NSS_TRUST_UNKNOWN (CKT_NSS + 5UL)
#define CKT_NSS_NOT_TRUSTED (CKT_NSS + 10UL)
#define CKT_NSS_VALID_DELEGATOR (CKT_NSS + 11UL)

#endif
