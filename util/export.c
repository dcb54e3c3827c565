/*
 * vgtoken-util --export-pubkey: a public key object (or, when there is
 * none, the key inside a certificate object) as a PEM SubjectPublicKeyInfo
 * [RFC 5280 §4.1.2.7], RSA [RFC 3279 §2.3.1], EC [RFC 5480 §2], ML-DSA or
 * ML-KEM (the module's CKA_PUBLIC_KEY_INFO, with the FIPS 204 and FIPS 203
 * OIDs: id-ml-kem-512/768/1024, 2.16.840.1.101.3.4.4.1/2/3).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/pem.h"
#include "util/util.h"

/* The objects of class cls that match --id and/or --label. */
static CK_RV
find_class(CK_SESSION_HANDLE s, const struct vg_util_opts *o,
    CK_OBJECT_CLASS cls, const uint8_t *id, size_t id_len,
    CK_OBJECT_HANDLE **found, CK_ULONG *n)
{
	CK_ATTRIBUTE t[3];
	CK_ULONG k = 0;

	t[k].type = CKA_CLASS;
	t[k].pValue = &cls;
	t[k++].ulValueLen = sizeof(cls);
	if (id_len != 0) {
		t[k].type = CKA_ID;
		t[k].pValue = (void *)(uintptr_t)id;
		t[k++].ulValueLen = (CK_ULONG)id_len;
	}
	if (o->label != NULL) {
		t[k].type = CKA_LABEL;
		t[k].pValue = (void *)(uintptr_t)o->label;
		t[k++].ulValueLen = (CK_ULONG)strlen(o->label);
	}
	return vg_util_find(s, t, k, found, n);
}

/* SPKI of an RSA public key object. */
static int
spki_rsa(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h, uint8_t **out,
    size_t *len)
{
	static const uint8_t null_params[] = { 0x05, 0x00 };
	struct vg_der_algid alg;
	struct vg_der_rsa_pub k;
	uint8_t *n = NULL, *e = NULL, *key = NULL;
	CK_ULONG n_len, e_len;
	size_t key_len = 0;
	int rc = -1;

	if (vg_util_get_attr(s, h, CKA_MODULUS, &n, &n_len) != CKR_OK ||
	    vg_util_get_attr(s, h, CKA_PUBLIC_EXPONENT, &e, &e_len) != CKR_OK)
		goto out;
	k.n = vg_der_make(n, n_len);
	k.e = vg_der_make(e, e_len);
	alg.oid = vg_oid_rsa_encryption;
	alg.params = vg_der_make(null_params, sizeof(null_params));
	if (vg_der_build_rsa_public(NULL, &key_len, &k) != VG_OK)
		goto out;
	key = malloc(key_len);
	if (key == NULL ||
	    vg_der_build_rsa_public(key, &key_len, &k) != VG_OK ||
	    vg_der_build_spki(NULL, len, &alg, key, key_len) != VG_OK)
		goto out;
	*out = malloc(*len);
	if (*out != NULL &&
	    vg_der_build_spki(*out, len, &alg, key, key_len) == VG_OK)
		rc = 0;
out:
	free(n);
	free(e);
	free(key);
	return rc;
}

/* SPKI of an EC public key object. */
static int
spki_ec(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h, uint8_t **out, size_t *len)
{
	struct vg_der_algid alg;
	struct vg_der cur, point;
	uint8_t *params = NULL, *pt = NULL, oid_params[16];
	size_t olen = sizeof(oid_params);
	enum vg_der_curve curve;
	CK_ULONG params_len, pt_len;
	int rc = -1;

	if (vg_util_get_attr(s, h, CKA_EC_PARAMS, &params, &params_len) !=
	    CKR_OK ||
	    vg_util_get_attr(s, h, CKA_EC_POINT, &pt, &pt_len) != CKR_OK)
		goto out;
	/* CKA_EC_POINT is a DER OCTET STRING; take a raw point as well. */
	cur = vg_der_make(pt, pt_len);
	if (vg_der_get_octet_string(&cur, &point) != VG_OK ||
	    !vg_der_at_end(&cur))
		point = vg_der_make(pt, pt_len);
	alg.oid = vg_oid_ec_public_key;
	alg.params = vg_der_make(params, params_len);
	/* a curve named by a PrintableString (a PKCS#11 form X.509 lacks)
	 * goes out as its OID */
	if (params_len > 0 && params[0] == VG_DER_PRINTABLE_STRING &&
	    vg_der_parse_p11_ec_params(params, params_len, &curve) == VG_OK &&
	    curve == VG_DER_CURVE_P256 &&
	    vg_der_build_ec_params(oid_params, &olen, &vg_oid_prime256v1) ==
	    VG_OK)
		alg.params = vg_der_make(oid_params, olen);
	if (vg_der_build_spki(NULL, len, &alg, point.p, point.len) != VG_OK)
		goto out;
	*out = malloc(*len);
	if (*out != NULL &&
	    vg_der_build_spki(*out, len, &alg, point.p, point.len) == VG_OK)
		rc = 0;
out:
	free(params);
	free(pt);
	return rc;
}

/* SPKI of an ML-DSA, ML-KEM, Ed25519 or X25519 public key object: its
 * CKA_PUBLIC_KEY_INFO, which the module fills from the key with the OID
 * of the parameter set or curve [RFC 8410 §4]. */
static int
spki_info(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h, uint8_t **out,
    size_t *len)
{
	CK_ULONG n;

	if (vg_util_get_attr(s, h, CKA_PUBLIC_KEY_INFO, out, &n) != CKR_OK ||
	    n == 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*len = n;
	return 0;
}

/* The SPKI of a certificate object, as it is in the certificate. */
static int
spki_cert(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE h, uint8_t **out,
    size_t *len)
{
	const uint8_t *spki;
	uint8_t *der = NULL;
	CK_ULONG der_len;
	int rc = -1;

	if (vg_util_get_attr(s, h, CKA_VALUE, &der, &der_len) == CKR_OK &&
	    vg_util_cert_spki(der, der_len, &spki, len) == 0) {
		*out = malloc(*len);
		if (*out != NULL) {
			memcpy(*out, spki, *len);
			rc = 0;
		}
	}
	free(der);
	return rc;
}

/* Writes the text to FILE (or stdout without -o). */
static int
write_out(const char *path, const char *text, size_t len)
{
	FILE *f = stdout;
	int ok;

	if (path != NULL) {
		f = fopen(path, "w");
		if (f == NULL) {
			vg_util_err("cannot write %s: %s", path,
			    strerror(errno));
			return -1;
		}
	}
	ok = fwrite(text, 1, len, f) == len;
	ok = (path != NULL ? fclose(f) : fflush(f)) == 0 && ok;
	if (!ok)
		vg_util_err("cannot write %s", path != NULL ? path : "the key");
	return ok ? 0 : -1;
}

/* Says that n objects match, and what would single one out: --id when
 * only --label was given and the other way round; when both were, the
 * token holds duplicates, which only deleting one can fix. */
static void
many(const struct vg_util_opts *o, CK_ULONG n, const char *what)
{
	if (o->id_hex != NULL && o->label != NULL)
		vg_util_err("%lu %s have ID %s and label '%s': delete the extra "
		    "ones with --delete-object (see --list-objects)",
		    (unsigned long)n, what, o->id_hex, o->label);
	else if (o->id_hex != NULL)
		vg_util_err("%lu %s have ID %s: give --label as well, or delete "
		    "the extra ones with --delete-object (see --list-objects)",
		    (unsigned long)n, what, o->id_hex);
	else
		vg_util_err("%lu %s are labelled '%s': give --id (see "
		    "--list-objects)", (unsigned long)n, what, o->label);
}

/* Finds the one key (or certificate) and builds its SPKI. */
static int
find_spki(CK_SESSION_HANDLE s, const struct vg_util_opts *o,
    const uint8_t *id, size_t id_len, uint8_t **spki, size_t *spki_len)
{
	CK_OBJECT_HANDLE *found = NULL;
	CK_KEY_TYPE kt = CK_UNAVAILABLE_INFORMATION;
	CK_ATTRIBUTE a = { CKA_KEY_TYPE, &kt, sizeof(kt) };
	CK_ULONG n = 0;
	int cert = 0, rc = -1;
	CK_RV rv;

	rv = find_class(s, o, CKO_PUBLIC_KEY, id, id_len, &found, &n);
	if (rv == CKR_OK && n == 0) {
		free(found);
		cert = 1;
		rv = find_class(s, o, CKO_CERTIFICATE, id, id_len, &found, &n);
	}
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot search the token", rv);
	} else if (n == 0) {
		vg_util_err("no public key or certificate with that %s on "
		    "token '%s'", id_len != 0 ? "ID" : "label", o->token);
	} else if (n > 1) {
		many(o, n, cert ? "certificates" : "public keys");
	} else if (cert) {
		rc = spki_cert(s, found[0], spki, spki_len);
	} else if (vg_util_get_attrs(s, found[0], &a, 1) == CKR_OK &&
	    (kt == CKK_RSA || kt == CKK_EC || kt == CKK_ML_DSA ||
	    kt == CKK_ML_KEM || kt == CKK_EC_EDWARDS ||
	    kt == CKK_EC_MONTGOMERY)) {
		rc = kt == CKK_RSA ? spki_rsa(s, found[0], spki, spki_len)
		    : kt == CKK_EC ? spki_ec(s, found[0], spki, spki_len)
		    : spki_info(s, found[0], spki, spki_len);
	} else {
		vg_util_err("the key is not RSA, EC, Ed25519, X25519, ML-DSA "
		    "or ML-KEM: not exported");
		free(found);
		return -1;
	}
	if (rc != 0 && rv == CKR_OK && n == 1)
		vg_util_err("cannot read the public key");
	free(found);
	return rc;
}

static int
export_key(struct vg_util_opts *o, const uint8_t *id, size_t id_len)
{
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	uint8_t *spki = NULL;
	size_t spki_len = 0, pem_len = 0;
	char *pem = NULL;
	int rc = VG_UTIL_FAIL;

	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_open(o->token, slot, 0, CKU_USER, &o->pin, &s) != 0)
		return VG_UTIL_FAIL;
	if (find_spki(s, o, id, id_len, &spki, &spki_len) == 0 &&
	    vg_pem_encode(NULL, &pem_len, "PUBLIC KEY", spki, spki_len) ==
	    VG_OK) {
		pem = malloc(pem_len);
		if (pem != NULL && vg_pem_encode(pem, &pem_len, "PUBLIC KEY",
		    spki, spki_len) == VG_OK &&
		    write_out(o->output, pem, pem_len) == 0)
			rc = VG_UTIL_OK;
	}
	free(pem);
	free(spki);
	C_CloseSession(s);
	return rc;
}

/* see util/util.h */
int
vg_util_export_pubkey(struct vg_util_opts *o)
{
	uint8_t id[VG_UTIL_ID_MAX];
	size_t id_len = 0;
	int rc;

	if (o->id_hex == NULL && o->label == NULL) {
		vg_util_err("--export-pubkey needs --id or --label");
		return VG_UTIL_USAGE;
	}
	if (o->id_hex != NULL) {
		id_len = vg_util_parse_id(o->id_hex, id, sizeof(id));
		if (id_len == 0)
			return VG_UTIL_USAGE;
	}
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	rc = export_key(o, id, id_len);
	vg_util_p11_fini();
	return rc;
}
