/*
 * vgtoken-util --import: a private key becomes a private key object
 * (token, private, sensitive, with every RSA CRT part, the EC value and
 * point, or the ML-DSA / ML-KEM parameter set, seed and expanded key) and
 * the matching public key object; a certificate becomes an
 * X.509 certificate object. Key and certificate objects share a CKA_ID:
 * --id, or by default the SHA-1 of the public key, which pairs a key with
 * its certificate even when they are imported separately.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "util/util.h"

#define MAX_ATTRS 24

/* A template under construction. */
struct tmpl {
	CK_ATTRIBUTE a[MAX_ATTRS];
	CK_ULONG n;
};

static void
add(struct tmpl *t, CK_ATTRIBUTE_TYPE type, const void *v, size_t len)
{
	if (t->n == MAX_ATTRS)
		return; /* cannot happen: the templates below are fixed */
	t->a[t->n].type = type;
	t->a[t->n].pValue = (void *)(uintptr_t)v;
	t->a[t->n].ulValueLen = (CK_ULONG)len;
	t->n++;
}

static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* What every object of an import has. */
static void
add_common(struct tmpl *t, const CK_OBJECT_CLASS *cls, int private_obj,
    const uint8_t *id, size_t id_len, const char *label)
{
	add(t, CKA_CLASS, cls, sizeof(*cls));
	add(t, CKA_TOKEN, &yes, sizeof(yes));
	add(t, CKA_PRIVATE, private_obj ? &yes : &no, sizeof(yes));
	add(t, CKA_ID, id, id_len);
	if (label != NULL)
		add(t, CKA_LABEL, label, strlen(label));
}

/* The objects created so far, destroyed again if a later one fails. */
struct created {
	CK_OBJECT_HANDLE h[3];
	size_t n;
};

static int
create(CK_SESSION_HANDLE s, struct tmpl *t, struct created *c,
    const char *what)
{
	CK_RV rv = C_CreateObject(s, t->a, t->n, &c->h[c->n]);
	char msg[64];

	if (rv != CKR_OK) {
		snprintf(msg, sizeof(msg), "cannot create the %s", what);
		vg_util_err_rv(msg, rv);
		return -1;
	}
	c->n++;
	return 0;
}

static int
import_rsa(CK_SESSION_HANDLE s, const struct vg_util_item *it,
    const uint8_t *id, size_t id_len, const char *label, struct created *c)
{
	static const CK_ATTRIBUTE_TYPE parts[8] = { CKA_MODULUS,
		CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	static const CK_OBJECT_CLASS priv_cls = CKO_PRIVATE_KEY;
	static const CK_OBJECT_CLASS pub_cls = CKO_PUBLIC_KEY;
	static const CK_KEY_TYPE kt = CKK_RSA;
	struct tmpl t = { .n = 0 };
	size_t i;

	if (!vg_util_id_free(s, priv_cls, id, id_len, "private key") ||
	    !vg_util_id_free(s, pub_cls, id, id_len, "public key"))
		return -1;
	add_common(&t, &priv_cls, 1, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_SENSITIVE, &yes, sizeof(yes));
	add(&t, CKA_SIGN, &yes, sizeof(yes));
	add(&t, CKA_DECRYPT, &yes, sizeof(yes));
	for (i = 0; i < 8; i++)
		add(&t, parts[i], it->rsa[i], it->rsa_len[i]);
	if (create(s, &t, c, "private key") != 0)
		return -1;
	t.n = 0;
	add_common(&t, &pub_cls, 0, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_VERIFY, &yes, sizeof(yes));
	add(&t, CKA_ENCRYPT, &yes, sizeof(yes));
	for (i = 0; i < 2; i++)
		add(&t, parts[i], it->rsa[i], it->rsa_len[i]);
	return create(s, &t, c, "public key");
}

static int
import_ec(CK_SESSION_HANDLE s, const struct vg_util_item *it,
    const uint8_t *id, size_t id_len, const char *label, struct created *c)
{
	static const CK_OBJECT_CLASS priv_cls = CKO_PRIVATE_KEY;
	static const CK_OBJECT_CLASS pub_cls = CKO_PUBLIC_KEY;
	static const CK_KEY_TYPE kt = CKK_EC;
	struct tmpl t = { .n = 0 };
	uint8_t params[16], point[2 + sizeof(it->ec_point)];
	size_t params_len = sizeof(params), point_len;

	if (!vg_util_id_free(s, priv_cls, id, id_len, "private key") ||
	    !vg_util_id_free(s, pub_cls, id, id_len, "public key"))
		return -1;
	/* CKA_EC_PARAMS names the curve; CKA_EC_POINT is a DER OCTET
	 * STRING [PKCS#11 3.2 §6.3.3]. */
	if (vg_der_build_ec_params(params, &params_len, &vg_oid_prime256v1) !=
	    VG_OK)
		return -1;
	point_len = vg_der_put_octet_string(point, it->ec_point,
	    sizeof(it->ec_point));
	add_common(&t, &priv_cls, 1, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_SENSITIVE, &yes, sizeof(yes));
	add(&t, CKA_SIGN, &yes, sizeof(yes));
	add(&t, CKA_DERIVE, &yes, sizeof(yes));
	add(&t, CKA_EC_PARAMS, params, params_len);
	add(&t, CKA_VALUE, it->ec_d, sizeof(it->ec_d));
	add(&t, CKA_EC_POINT, point, point_len);
	if (create(s, &t, c, "private key") != 0)
		return -1;
	t.n = 0;
	add_common(&t, &pub_cls, 0, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_VERIFY, &yes, sizeof(yes));
	add(&t, CKA_EC_PARAMS, params, params_len);
	add(&t, CKA_EC_POINT, point, point_len);
	return create(s, &t, c, "public key");
}

/* An Ed25519 or X25519 pair: CKA_EC_PARAMS the RFC 8410 OID, CKA_EC_POINT
 * the DER OCTET STRING of the public key [PKCS#11 3.2 §6.3.5]. */
static int
import_ecx(CK_SESSION_HANDLE s, const struct vg_util_item *it,
    const uint8_t *id, size_t id_len, const char *label, struct created *c)
{
	static const CK_OBJECT_CLASS priv_cls = CKO_PRIVATE_KEY;
	static const CK_OBJECT_CLASS pub_cls = CKO_PUBLIC_KEY;
	int ed = it->kind == VG_UTIL_ED25519_KEY;
	CK_KEY_TYPE kt = ed ? CKK_EC_EDWARDS : CKK_EC_MONTGOMERY;
	struct tmpl t = { .n = 0 };
	uint8_t params[16], point[2 + 32];
	size_t params_len = sizeof(params), point_len;

	if (!vg_util_id_free(s, priv_cls, id, id_len, "private key") ||
	    !vg_util_id_free(s, pub_cls, id, id_len, "public key"))
		return -1;
	if (vg_der_build_ecx_params(params, &params_len,
	    ed ? VG_DER_ECX_ED25519 : VG_DER_ECX_X25519) != VG_OK)
		return -1;
	point_len = vg_der_put_octet_string(point, it->ec_point, 32);
	add_common(&t, &priv_cls, 1, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_SENSITIVE, &yes, sizeof(yes));
	add(&t, ed ? CKA_SIGN : CKA_DERIVE, &yes, sizeof(yes));
	add(&t, CKA_EC_PARAMS, params, params_len);
	add(&t, CKA_VALUE, it->ec_d, sizeof(it->ec_d));
	add(&t, CKA_EC_POINT, point, point_len);
	if (create(s, &t, c, "private key") != 0)
		return -1;
	t.n = 0;
	add_common(&t, &pub_cls, 0, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_VERIFY, ed ? &yes : &no, sizeof(yes));
	add(&t, CKA_EC_PARAMS, params, params_len);
	add(&t, CKA_EC_POINT, point, point_len);
	return create(s, &t, c, "public key");
}

/* An ML-DSA [PKCS#11 3.2 §6.56.2, §6.56.3] or ML-KEM pair:
 * CKA_PARAMETER_SET on both; the private key's CKA_VALUE the expanded key
 * and CKA_SEED the seed when the file had one (the token checks again
 * that they agree), the public key's CKA_VALUE the public key. ML-DSA
 * signs, ML-KEM decapsulates. */
static int
import_lattice(CK_SESSION_HANDLE s, const struct vg_util_item *it,
    const uint8_t *id, size_t id_len, const char *label, struct created *c)
{
	static const CK_OBJECT_CLASS priv_cls = CKO_PRIVATE_KEY;
	static const CK_OBJECT_CLASS pub_cls = CKO_PUBLIC_KEY;
	int kem = it->kind == VG_UTIL_MLKEM_KEY;
	CK_KEY_TYPE kt = kem ? CKK_ML_KEM : CKK_ML_DSA;
	struct tmpl t = { .n = 0 };

	if (!vg_util_id_free(s, priv_cls, id, id_len, "private key") ||
	    !vg_util_id_free(s, pub_cls, id, id_len, "public key"))
		return -1;
	add_common(&t, &priv_cls, 1, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, CKA_SENSITIVE, &yes, sizeof(yes));
	add(&t, kem ? CKA_DECAPSULATE : CKA_SIGN, &yes, sizeof(yes));
	add(&t, CKA_PARAMETER_SET, &it->lat_set, sizeof(it->lat_set));
	if (it->lat_seed_len != 0)
		add(&t, CKA_SEED, it->lat_seed, it->lat_seed_len);
	add(&t, CKA_VALUE, it->lat_sk, it->lat_sk_len);
	if (create(s, &t, c, "private key") != 0)
		return -1;
	t.n = 0;
	add_common(&t, &pub_cls, 0, id, id_len, label);
	add(&t, CKA_KEY_TYPE, &kt, sizeof(kt));
	add(&t, kem ? CKA_ENCAPSULATE : CKA_VERIFY, &yes, sizeof(yes));
	add(&t, CKA_PARAMETER_SET, &it->lat_set, sizeof(it->lat_set));
	add(&t, CKA_VALUE, it->lat_pk, it->lat_pk_len);
	return create(s, &t, c, "public key");
}

static int
import_cert(CK_SESSION_HANDLE s, const struct vg_util_item *it,
    const uint8_t *id, size_t id_len, const char *label, struct created *c)
{
	static const CK_OBJECT_CLASS cls = CKO_CERTIFICATE;
	static const CK_CERTIFICATE_TYPE ct = CKC_X_509;
	struct tmpl t = { .n = 0 };

	if (!vg_util_id_free(s, cls, id, id_len, "certificate"))
		return -1;
	/* The token fills subject, issuer, serial number and dates from
	 * the value. */
	add_common(&t, &cls, 0, id, id_len, label);
	add(&t, CKA_CERTIFICATE_TYPE, &ct, sizeof(ct));
	add(&t, CKA_VALUE, it->der, it->der_len);
	return create(s, &t, c, "certificate");
}

static const char *
item_name(const struct vg_util_item *it, char *buf, size_t cap)
{
	switch (it->kind) {
	case VG_UTIL_MLDSA_KEY:
	case VG_UTIL_MLKEM_KEY:
		snprintf(buf, cap, "%s private key (%s) and its public key",
		    it->lat_name, it->lat_seed_len != 0 ? "from its seed"
							: "expanded only");
		return buf;
	case VG_UTIL_RSA_KEY:
		return "RSA private key and its public key";
	case VG_UTIL_EC_KEY:
		return "EC P-256 private key and its public key";
	case VG_UTIL_ED25519_KEY:
		return "Ed25519 private key and its public key";
	case VG_UTIL_X25519_KEY:
		return "X25519 private key and its public key";
	default:
		return "certificate";
	}
}

static int
import_items(struct vg_util_opts *o, struct vg_util_item *items, int n,
    const uint8_t *given_id, size_t given_len)
{
	struct created c = { .n = 0 };
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	char hex[2 * VG_UTIL_ID_MAX + 1], name[80];
	int i, rc = 0;

	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) != 0 ||
	    vg_util_open(o->token, slot, 1, CKU_USER, &o->pin, &s) != 0)
		return VG_UTIL_FAIL;
	for (i = 0; i < n && rc == 0; i++) {
		const uint8_t *id = given_len != 0 ? given_id : items[i].id;
		size_t id_len = given_len != 0 ? given_len : VG_UTIL_ID_LEN;

		if (items[i].kind == VG_UTIL_RSA_KEY)
			rc = import_rsa(s, &items[i], id, id_len, o->label, &c);
		else if (items[i].kind == VG_UTIL_EC_KEY)
			rc = import_ec(s, &items[i], id, id_len, o->label, &c);
		else if (items[i].kind == VG_UTIL_ED25519_KEY ||
		    items[i].kind == VG_UTIL_X25519_KEY)
			rc = import_ecx(s, &items[i], id, id_len, o->label,
			    &c);
		else if (items[i].kind == VG_UTIL_MLDSA_KEY ||
		    items[i].kind == VG_UTIL_MLKEM_KEY)
			rc = import_lattice(s, &items[i], id, id_len, o->label,
			    &c);
		else
			rc = import_cert(s, &items[i], id, id_len, o->label,
			    &c);
	}
	if (rc != 0) {
		/* All or nothing. */
		while (c.n > 0)
			C_DestroyObject(s, c.h[--c.n]);
	} else {
		for (i = 0; i < n; i++) {
			vg_util_hex(hex, given_len != 0 ? given_id
			    : items[i].id, given_len != 0 ? given_len
			    : VG_UTIL_ID_LEN);
			printf("imported %s into token '%s': id=%s%s%s%s\n",
			    item_name(&items[i], name, sizeof(name)),
			    o->token, hex,
			    o->label != NULL ? " label=\"" : "",
			    o->label != NULL ? o->label : "",
			    o->label != NULL ? "\"" : "");
		}
	}
	C_Logout(s);
	C_CloseSession(s);
	return rc == 0 ? VG_UTIL_OK : VG_UTIL_FAIL;
}

/* see util/util.h */
int
vg_util_import(struct vg_util_opts *o)
{
	struct vg_util_item items[2];
	uint8_t id[VG_UTIL_ID_MAX];
	size_t id_len = 0;
	int n, rc;

	if (o->keytype != NULL)
		return vg_util_import_secret(o);
	if (o->extractable) {
		vg_util_err("--extractable goes with --key-type: an imported "
		    "private key is never extractable");
		return VG_UTIL_USAGE;
	}
	if (o->id_hex != NULL) {
		id_len = vg_util_parse_id(o->id_hex, id, sizeof(id));
		if (id_len == 0)
			return VG_UTIL_USAGE;
	}
	n = vg_util_read_items(o->file, o, items);
	if (n < 0)
		return VG_UTIL_FAIL;
	if (vg_util_p11_init() != 0) {
		rc = VG_UTIL_FAIL;
	} else {
		rc = import_items(o, items, n, id, id_len);
		vg_util_p11_fini();
	}
	vg_util_item_free(&items[0]);
	vg_util_item_free(&items[1]);
	return rc;
}
