/*
 * Results of crypto/ functions. token/ maps them to CK_RV in one place
 * (vg_crv_from_err); crypto/ never sees a CK_ type.
 */
#ifndef VG_CRYPTO_ERR_H
#define VG_CRYPTO_ERR_H

enum vg_err {
	VG_OK = 0,
	VG_ERR_ARG,      /* a precondition on a public argument was violated */
	VG_ERR_LENGTH,   /* a length is out of the range the function accepts */
	VG_ERR_DECODE,   /* malformed encoding (DER, padding, key format) */
	VG_ERR_AUTH,     /* authentication failed: tag, signature, unwrap */
	VG_ERR_RANDOM,   /* the entropy source failed */
	VG_ERR_NOMEM,    /* out of memory */
	VG_ERR_INTERNAL, /* a self-check failed (fault detected) */
};

#endif
