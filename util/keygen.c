/*
 * vgtoken-util --keygen TYPE: a key pair generated on the token
 * (C_GenerateKeyPair), a token object pair with the same label and
 * CKA_ID. Without --id the ID is the SHA-1 of the public key (RSA modulus,
 * EC point, ML-DSA or ML-KEM public key), as for --import, so that a certificate
 * imported later pairs with it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "util/util.h"

/* The key types --keygen takes. */
static const struct keytype {
	const char *name;
	CK_MECHANISM_TYPE mech;
	CK_KEY_TYPE kt;
	CK_ULONG param;            /* RSA bits, or the ML-DSA / ML-KEM
	                              parameter set */
	const char *what;
} keytypes[] = {
	{ "rsa2048", CKM_RSA_PKCS_KEY_PAIR_GEN, CKK_RSA, 2048, "RSA-2048" },
	{ "rsa3072", CKM_RSA_PKCS_KEY_PAIR_GEN, CKK_RSA, 3072, "RSA-3072" },
	{ "rsa4096", CKM_RSA_PKCS_KEY_PAIR_GEN, CKK_RSA, 4096, "RSA-4096" },
	{ "ec", CKM_EC_KEY_PAIR_GEN, CKK_EC, 0, "EC P-256" },
	{ "p256", CKM_EC_KEY_PAIR_GEN, CKK_EC, 0, "EC P-256" },
	{ "ed25519", CKM_EC_EDWARDS_KEY_PAIR_GEN, CKK_EC_EDWARDS, 0,
	    "Ed25519" },
	{ "x25519", CKM_EC_MONTGOMERY_KEY_PAIR_GEN, CKK_EC_MONTGOMERY, 0,
	    "X25519" },
	{ "mldsa44", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_44,
	    "ML-DSA-44" },
	{ "mldsa65", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_65,
	    "ML-DSA-65" },
	{ "mldsa87", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_87,
	    "ML-DSA-87" },
	/* the names --list-objects shows */
	{ "ml-dsa-44", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_44,
	    "ML-DSA-44" },
	{ "ml-dsa-65", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_65,
	    "ML-DSA-65" },
	{ "ml-dsa-87", CKM_ML_DSA_KEY_PAIR_GEN, CKK_ML_DSA, CKP_ML_DSA_87,
	    "ML-DSA-87" },
	{ "ml-kem-512", CKM_ML_KEM_KEY_PAIR_GEN, CKK_ML_KEM, CKP_ML_KEM_512,
	    "ML-KEM-512" },
	{ "ml-kem-768", CKM_ML_KEM_KEY_PAIR_GEN, CKK_ML_KEM, CKP_ML_KEM_768,
	    "ML-KEM-768" },
	{ "ml-kem-1024", CKM_ML_KEM_KEY_PAIR_GEN, CKK_ML_KEM,
	    CKP_ML_KEM_1024, "ML-KEM-1024" },
};
#define NKEYTYPES (sizeof(keytypes) / sizeof(keytypes[0]))

/* The DER of the prime256v1 OID: CKA_EC_PARAMS of a P-256 key. */
static const uint8_t p256_params[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };
/* id-Ed25519 and id-X25519 [RFC 8410 §3]. */
static const uint8_t ed25519_params[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t x25519_params[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };

/* Whether kt keeps its public key in CKA_EC_POINT. */
static int
ec_like(CK_KEY_TYPE kt)
{
	return kt == CKK_EC || kt == CKK_EC_EDWARDS || kt == CKK_EC_MONTGOMERY;
}

#define ADD(t, n, typ, ptr, len) do { \
	(t)[n].type = (typ); \
	(t)[n].pValue = (void *)(uintptr_t)(ptr); \
	(t)[n].ulValueLen = (CK_ULONG)(len); \
	(n)++; \
} while (0)

/* The default CKA_ID: SHA-1 of the public value of pub. */
static int
default_id(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE pub, CK_KEY_TYPE kt,
    uint8_t id[VG_UTIL_ID_LEN])
{
	CK_ATTRIBUTE_TYPE a = kt == CKK_RSA ? CKA_MODULUS
	    : ec_like(kt) ? CKA_EC_POINT : CKA_VALUE;
	uint8_t *v = NULL;
	CK_ULONG len;
	struct vg_der cur, point;

	if (vg_util_get_attr(s, pub, a, &v, &len) != CKR_OK)
		return -1;
	point = vg_der_make(v, len);
	if (ec_like(kt)) {
		/* the point inside its DER OCTET STRING, as --import hashes */
		cur = vg_der_make(v, len);
		if (vg_der_get_octet_string(&cur, &point) != VG_OK)
			point = vg_der_make(v, len);
	}
	vg_hash(VG_HASH_SHA1, point.p, point.len, id);
	free(v);
	return 0;
}

static int
generate(CK_SESSION_HANDLE s, const struct keytype *k,
    const struct vg_util_opts *o, const uint8_t *id, size_t id_len)
{
	static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	static const uint8_t exponent[] = { 0x01, 0x00, 0x01 };
	CK_MECHANISM mech = { k->mech, NULL, 0 };
	CK_ATTRIBUTE pub[8], priv[10], set[1];
	CK_OBJECT_HANDLE hpub, hpriv;
	CK_ULONG np = 0, nq = 0;
	uint8_t def[VG_UTIL_ID_LEN];
	char hex[2 * VG_UTIL_ID_MAX + 1], what[48];
	CK_RV rv;

	/* an ML-KEM pair encapsulates and decapsulates, the others sign */
	int kem = k->kt == CKK_ML_KEM;

	ADD(pub, np, CKA_TOKEN, &yes, sizeof(yes));
	ADD(pub, np, kem ? CKA_ENCAPSULATE : CKA_VERIFY, &yes, sizeof(yes));
	ADD(priv, nq, CKA_TOKEN, &yes, sizeof(yes));
	ADD(priv, nq, CKA_PRIVATE, &yes, sizeof(yes));
	ADD(priv, nq, CKA_SENSITIVE, &yes, sizeof(yes));
	ADD(priv, nq, CKA_EXTRACTABLE, o->extractable ? &yes : &no,
	    sizeof(no));
	if (kem)
		ADD(priv, nq, CKA_DECAPSULATE, &yes, sizeof(yes));
	else if (k->kt != CKK_EC_MONTGOMERY)
		ADD(priv, nq, CKA_SIGN, &yes, sizeof(yes));
	if (k->kt == CKK_RSA) {
		ADD(pub, np, CKA_MODULUS_BITS, &k->param, sizeof(k->param));
		ADD(pub, np, CKA_PUBLIC_EXPONENT, exponent, sizeof(exponent));
		ADD(pub, np, CKA_ENCRYPT, &yes, sizeof(yes));
		ADD(priv, nq, CKA_DECRYPT, &yes, sizeof(yes));
	} else if (k->kt == CKK_EC) {
		ADD(pub, np, CKA_EC_PARAMS, p256_params, sizeof(p256_params));
		ADD(priv, nq, CKA_DERIVE, &yes, sizeof(yes));
	} else if (k->kt == CKK_EC_EDWARDS) {
		ADD(pub, np, CKA_EC_PARAMS, ed25519_params,
		    sizeof(ed25519_params));
	} else if (k->kt == CKK_EC_MONTGOMERY) {
		ADD(pub, np, CKA_EC_PARAMS, x25519_params,
		    sizeof(x25519_params));
		ADD(priv, nq, CKA_DERIVE, &yes, sizeof(yes));
	} else {
		ADD(pub, np, CKA_PARAMETER_SET, &k->param, sizeof(k->param));
	}
	if (o->label != NULL) {
		ADD(pub, np, CKA_LABEL, o->label, strlen(o->label));
		ADD(priv, nq, CKA_LABEL, o->label, strlen(o->label));
	}
	if (id_len != 0) {
		ADD(pub, np, CKA_ID, id, id_len);
		ADD(priv, nq, CKA_ID, id, id_len);
	}
	snprintf(what, sizeof(what), "generating the %s key pair", k->what);
	vg_util_progress_start(what);
	rv = C_GenerateKeyPair(s, &mech, pub, np, priv, nq, &hpub, &hpriv);
	vg_util_progress_stop();
	if (rv != CKR_OK)
		return vg_util_err_rv("cannot generate the key pair", rv);
	if (id_len == 0) {
		if (default_id(s, hpub, k->kt, def) != 0) {
			rv = CKR_FUNCTION_FAILED;
		} else {
			set[0].type = CKA_ID;
			set[0].pValue = def;
			set[0].ulValueLen = sizeof(def);
			rv = C_SetAttributeValue(s, hpub, set, 1);
			if (rv == CKR_OK)
				rv = C_SetAttributeValue(s, hpriv, set, 1);
		}
		if (rv != CKR_OK) {
			C_DestroyObject(s, hpub);
			C_DestroyObject(s, hpriv);
			return vg_util_err_rv("cannot set the key pair's ID", rv);
		}
		id = def;
		id_len = sizeof(def);
	}
	vg_util_hex(hex, id, id_len);
	printf("generated %s key pair on token '%s': id=%s%s%s%s\n", k->what,
	    o->token, hex, o->label != NULL ? " label=\"" : "",
	    o->label != NULL ? o->label : "", o->label != NULL ? "\"" : "");
	return 0;
}

/* see util/util.h */
int
vg_util_keygen(struct vg_util_opts *o)
{
	const struct keytype *k = NULL;
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	uint8_t id[VG_UTIL_ID_MAX];
	size_t id_len = 0, i;
	int rc = VG_UTIL_FAIL;

	for (i = 0; i < NKEYTYPES; i++)
		if (strcmp(o->keytype, keytypes[i].name) == 0)
			k = &keytypes[i];
	if (k == NULL) {
		vg_util_err("--keygen: unknown key type '%s' (rsa2048, rsa3072, "
		    "rsa4096, ec, ed25519, x25519, mldsa44, mldsa65, mldsa87 "
		    "(or ml-dsa-44, ml-dsa-65, ml-dsa-87), ml-kem-512, "
		    "ml-kem-768, ml-kem-1024)", o->keytype);
		return VG_UTIL_USAGE;
	}
	if (o->id_hex != NULL) {
		id_len = vg_util_parse_id(o->id_hex, id, sizeof(id));
		if (id_len == 0)
			return VG_UTIL_USAGE;
	}
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (vg_util_find_token(o->token, &slot) == 0 &&
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) == 0 &&
	    vg_util_open(o->token, slot, 1, CKU_USER, &o->pin, &s) == 0) {
		/* As --import: a given ID must be free. (A default ID is
		 * the hash of a new public key: it cannot be in use.) */
		if ((id_len == 0 ||
		    (vg_util_id_free(s, CKO_PRIVATE_KEY, id, id_len,
		    "private key") && vg_util_id_free(s, CKO_PUBLIC_KEY, id,
		    id_len, "public key"))) &&
		    generate(s, k, o, id, id_len) == 0)
			rc = VG_UTIL_OK;
		C_Logout(s);
		C_CloseSession(s);
	}
	vg_util_p11_fini();
	return rc;
}
