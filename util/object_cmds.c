/*
 * vgtoken-util: the object commands, --list-objects and --delete-object,
 * and the one description of an object both print: class, type with its
 * size (RSA bits, EC curve, ML-DSA or ML-KEM parameter set, secret key
 * bits),
 * CKA_ID, label, token and private flags.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "token/token.h"
#include "util/util.h"

/* What the tool shows of an object. */
struct obj_desc {
	CK_OBJECT_CLASS cls;
	const char *cls_name;          /* "private-key", ... */
	const char *key_type;          /* "rsa", ...; NULL: not a key */
	char type[32];                 /* "rsa-2048", "ec-p256", "x509" */
	unsigned long bits;            /* RSA or secret key size; 0: none */
	const char *curve;             /* "P-256"; NULL: not EC or unknown */
	const char *param_set;         /* "ML-DSA-65"; NULL: not ML-DSA */
	CK_BBOOL token, priv;
	uint8_t *id, *label;           /* malloc'd (NULL: none) */
	CK_ULONG id_len, label_len;
};

static const struct {
	CK_OBJECT_CLASS cls;
	const char *name;
	const char *alias;             /* as pkcs11-tool --type says it */
} classes[] = {
	{ CKO_PRIVATE_KEY, "private-key", "privkey" },
	{ CKO_PUBLIC_KEY, "public-key", "pubkey" },
	{ CKO_CERTIFICATE, "certificate", "cert" },
	{ CKO_SECRET_KEY, "secret-key", "secrkey" },
	{ CKO_DATA, "data", "data" },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

static const char *
class_name(CK_OBJECT_CLASS c)
{
	const char *name = "other";
	size_t i;

	for (i = 0; i < NCLASSES; i++)
		if (classes[i].cls == c)
			name = classes[i].name;
	return name;
}

/* Bits of a big-endian unsigned number. */
static unsigned long
bit_length(const uint8_t *p, size_t n)
{
	unsigned long bits;
	unsigned top;

	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	bits = (unsigned long)n * 8;
	for (top = 0x80; n > 0 && top != 0 && !(p[0] & top); top >>= 1)
		bits--;
	return bits;
}

/* The key type's name, and its size from the attributes that tell it:
 * the modulus (public on a private key too), CKA_EC_PARAMS,
 * CKA_PARAMETER_SET, CKA_VALUE_LEN. */
static void
describe_key(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE obj, CK_KEY_TYPE kt,
    struct obj_desc *d)
{
	CK_ULONG param = CK_UNAVAILABLE_INFORMATION, len = 0;
	CK_ATTRIBUTE a = { CKA_PARAMETER_SET, &param, sizeof(param) };
	enum vg_der_curve curve;
	uint8_t *v = NULL;

	switch (kt) {
	case CKK_RSA:
		d->key_type = "rsa";
		if (vg_util_get_attr(h, obj, CKA_MODULUS, &v, &len) == CKR_OK)
			d->bits = bit_length(v, len);
		break;
	case CKK_EC:
		d->key_type = "ec";
		if (vg_util_get_attr(h, obj, CKA_EC_PARAMS, &v, &len) ==
		    CKR_OK && vg_der_parse_p11_ec_params(v, len, &curve) ==
		    VG_OK && curve == VG_DER_CURVE_P256)
			d->curve = "P-256";
		break;
	case CKK_EC_EDWARDS:
		d->key_type = "ed25519";
		d->curve = "Ed25519";
		break;
	case CKK_EC_MONTGOMERY:
		d->key_type = "x25519";
		d->curve = "X25519";
		break;
	case CKK_ML_DSA:
		d->key_type = "ml-dsa";
		vg_util_get_attrs(h, obj, &a, 1);
		d->param_set = param == CKP_ML_DSA_44 ? "ML-DSA-44"
		    : param == CKP_ML_DSA_65 ? "ML-DSA-65"
		    : param == CKP_ML_DSA_87 ? "ML-DSA-87" : NULL;
		break;
	case CKK_ML_KEM:
		d->key_type = "ml-kem";
		vg_util_get_attrs(h, obj, &a, 1);
		d->param_set = param == CKP_ML_KEM_512 ? "ML-KEM-512"
		    : param == CKP_ML_KEM_768 ? "ML-KEM-768"
		    : param == CKP_ML_KEM_1024 ? "ML-KEM-1024" : NULL;
		break;
	case CKK_AES:
	case CKK_GENERIC_SECRET:
		d->key_type = kt == CKK_AES ? "aes" : "generic";
		a.type = CKA_VALUE_LEN;
		a.pValue = &len;
		a.ulValueLen = sizeof(len);
		if (vg_util_get_attrs(h, obj, &a, 1) == CKR_OK)
			d->bits = (unsigned long)len * 8;
		break;
	default:
		d->key_type = "other";
	}
	if (d->bits != 0)
		snprintf(d->type, sizeof(d->type), "%s-%lu", d->key_type,
		    d->bits);
	else if (d->curve != NULL)
		snprintf(d->type, sizeof(d->type), "%s",
		    kt == CKK_EC ? "ec-p256" : d->key_type);
	else if (d->param_set != NULL)
		snprintf(d->type, sizeof(d->type), "%s-%s", d->key_type,
		    d->param_set + 7);
	else
		snprintf(d->type, sizeof(d->type), "%s", d->key_type);
	free(v);
}

/* Reads what the listing shows of obj. Attributes that cannot be read
 * stay empty. */
static void
describe(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE obj, struct obj_desc *d)
{
	CK_ULONG sub = CK_UNAVAILABLE_INFORMATION;
	CK_ATTRIBUTE a[] = {
		{ CKA_CLASS, &d->cls, sizeof(d->cls) },
		{ CKA_TOKEN, &d->token, sizeof(d->token) },
		{ CKA_PRIVATE, &d->priv, sizeof(d->priv) },
	};
	CK_ATTRIBUTE t = { CKA_KEY_TYPE, &sub, sizeof(sub) };

	memset(d, 0, sizeof(*d));
	d->cls = CK_UNAVAILABLE_INFORMATION;
	vg_util_get_attrs(h, obj, a, 3);
	d->cls_name = class_name(d->cls);
	if (d->cls == CKO_CERTIFICATE)
		t.type = CKA_CERTIFICATE_TYPE;
	vg_util_get_attrs(h, obj, &t, 1);
	if (d->cls == CKO_PUBLIC_KEY || d->cls == CKO_PRIVATE_KEY ||
	    d->cls == CKO_SECRET_KEY)
		describe_key(h, obj, sub, d);
	else if (d->cls == CKO_CERTIFICATE)
		snprintf(d->type, sizeof(d->type), "%s",
		    sub == CKC_X_509 ? "x509" : "other");
	else
		snprintf(d->type, sizeof(d->type), "-");
	vg_util_get_attr(h, obj, CKA_ID, &d->id, &d->id_len);
	vg_util_get_attr(h, obj, CKA_LABEL, &d->label, &d->label_len);
}

static void
desc_free(struct obj_desc *d)
{
	free(d->id);
	free(d->label);
	memset(d, 0, sizeof(*d));
}

/* One line: class, type, id, label, flags (no newline). */
static void
print_line(const struct obj_desc *d)
{
	char *hex = malloc(2 * d->id_len + 1);

	if (hex != NULL)
		vg_util_hex(hex, d->id != NULL ? d->id : (const uint8_t *)"",
		    d->id_len);
	printf("%-11s %-10s id=%s label=\"%.*s\"%s%s", d->cls_name, d->type,
	    hex != NULL && d->id_len > 0 ? hex : "-", (int)d->label_len,
	    d->label != NULL ? (const char *)d->label : "",
	    d->token ? " token" : " session", d->priv ? " private" : "");
	free(hex);
}

/* One JSON object (no newline). */
static void
print_json(const struct obj_desc *d)
{
	char *hex = malloc(2 * d->id_len + 1);

	if (hex != NULL)
		vg_util_hex(hex, d->id != NULL ? d->id : (const uint8_t *)"",
		    d->id_len);
	printf("{\"class\": \"%s\", \"type\": \"%s\"", d->cls_name, d->type);
	if (d->key_type != NULL)
		printf(", \"key_type\": \"%s\"", d->key_type);
	if (d->bits != 0)
		printf(", \"bits\": %lu", d->bits);
	if (d->curve != NULL)
		printf(", \"curve\": \"%s\"", d->curve);
	if (d->param_set != NULL)
		printf(", \"parameter_set\": \"%s\"", d->param_set);
	printf(", \"id\": \"%s\", \"label\": ", hex != NULL ? hex : "");
	vg_util_json_str(d->label, d->label_len);
	printf(", \"token\": %s, \"private\": %s}", d->token ? "true" : "false",
	    d->priv ? "true" : "false");
	free(hex);
}

/* -------------------------------------------------------- list-objects */

static void
list(CK_SESSION_HANDLE h, const CK_OBJECT_HANDLE *objs, CK_ULONG n,
    const struct vg_util_opts *o)
{
	struct obj_desc d;
	CK_ULONG i;

	if (o->json) {
		printf("{\"token\": ");
		vg_util_json_str(o->token, strlen(o->token));
		printf(", \"private_objects_shown\": %s, \"objects\": [",
		    o->pin.v != NULL ? "true" : "false");
	}
	for (i = 0; i < n; i++) {
		describe(h, objs[i], &d);
		if (o->json) {
			printf("%s\n  ", i == 0 ? "" : ",");
			print_json(&d);
		} else {
			print_line(&d);
			printf("\n");
		}
		desc_free(&d);
	}
	if (o->json)
		printf("%s]}\n", n > 0 ? "\n" : "");
	else
		printf("%lu object(s)%s\n", (unsigned long)n, o->pin.v == NULL
		    ? "; private objects are shown with --pin" : "");
}

/* see util/util.h */
int
vg_util_list_objects(struct vg_util_opts *o)
{
	CK_OBJECT_HANDLE *objs = NULL;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	CK_ULONG n = 0;
	int rc = VG_UTIL_FAIL;
	CK_RV rv;

	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_open(o->token, slot, 0, CKU_USER, &o->pin, &h) != 0)
		goto out;
	rv = vg_util_find(h, NULL, 0, &objs, &n);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot list the objects", rv);
	} else {
		list(h, objs, n, o);
		rc = VG_UTIL_OK;
	}
	free(objs);
	C_CloseSession(h);
out:
	vg_util_p11_fini();
	return rc;
}

/* ------------------------------------------------------- delete-object */

/* The class that --class names; 0 and a message for none. */
static int
parse_class(const char *name, CK_OBJECT_CLASS *cls)
{
	size_t i;
	int found = 0;

	for (i = 0; i < NCLASSES && !found; i++) {
		if (strcmp(name, classes[i].name) == 0 ||
		    strcmp(name, classes[i].alias) == 0) {
			*cls = classes[i].cls;
			found = 1;
		}
	}
	if (!found)
		vg_util_err("--class: unknown class '%s' (private-key, "
		    "public-key, certificate, secret-key, data)", name);
	return found;
}

/* "ID 0a0b, label 'x' and class private-key", for messages. */
static void
what_matches(char *out, size_t len, const struct vg_util_opts *o,
    int have_class)
{
	snprintf(out, len, "%s%s%s%s%s%s%s%s", o->id_hex != NULL ? "ID " : "",
	    o->id_hex != NULL ? o->id_hex : "",
	    o->id_hex != NULL && o->label != NULL ? " and " : "",
	    o->label != NULL ? "label '" : "", o->label != NULL ? o->label : "",
	    o->label != NULL ? "'" : "", have_class ? " of class " : "",
	    have_class ? o->cls : "");
}

/* The distinct classes among the objects found, in a fixed order, for
 * the refusal. */
static void
classes_of(CK_SESSION_HANDLE h, const CK_OBJECT_HANDLE *objs, CK_ULONG n,
    char *out, size_t len)
{
	CK_OBJECT_CLASS cls;
	CK_ATTRIBUTE a = { CKA_CLASS, &cls, sizeof(cls) };
	unsigned seen = 0;
	size_t i, k, used = 0;

	for (i = 0; i < n; i++) {
		cls = CK_UNAVAILABLE_INFORMATION;
		vg_util_get_attrs(h, objs[i], &a, 1);
		for (k = 0; k < NCLASSES && classes[k].cls != cls; k++)
			;
		seen |= 1u << k;
	}
	out[0] = '\0';
	for (k = 0; k <= NCLASSES; k++) {
		if (!(seen & (1u << k)))
			continue;
		snprintf(out + used, len - used, "%s%s", used ? ", " : "",
		    k < NCLASSES ? classes[k].name : "other");
		used += strlen(out + used);
	}
}

static int
delete_found(CK_SESSION_HANDLE h, const CK_OBJECT_HANDLE *objs, CK_ULONG n,
    const struct vg_util_opts *o)
{
	struct obj_desc d;
	CK_ULONG i, done = 0;
	CK_RV rv = CKR_OK;

	for (i = 0; i < n && rv == CKR_OK; i++) {
		describe(h, objs[i], &d);
		rv = C_DestroyObject(h, objs[i]);
		if (rv == CKR_OK) {
			printf("deleted ");
			print_line(&d);
			printf("\n");
			done++;
		}
		desc_free(&d);
	}
	if (rv != CKR_OK) {
		fflush(stdout);
		vg_util_err("cannot delete an object (%lu of %lu deleted): %s",
		    (unsigned long)done, (unsigned long)n,
		    rv == CKR_ACTION_PROHIBITED
		    ? "it is not destroyable (CKR_ACTION_PROHIBITED)"
		    : vg_rv_name(rv));
	} else {
		printf("%lu object(s) deleted from token '%s'\n",
		    (unsigned long)done, o->token);
	}
	return rv == CKR_OK ? VG_UTIL_OK : VG_UTIL_FAIL;
}

static int
delete_objects(struct vg_util_opts *o, const uint8_t *id, size_t id_len,
    int have_class, CK_OBJECT_CLASS cls)
{
	CK_OBJECT_HANDLE *objs = NULL;
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;
	CK_ATTRIBUTE t[3];
	CK_ULONG k = 0, n = 0;
	char what[2 * VG_UTIL_ID_MAX + 128], found[96];
	int rc = VG_UTIL_FAIL;
	CK_RV rv;

	/* Always logged in: private objects (the private half of a key
	 * pair) exist only for the user, and sealed objects change only
	 * with a login. */
	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) != 0 ||
	    vg_util_open(o->token, slot, 1, CKU_USER, &o->pin, &h) != 0)
		return VG_UTIL_FAIL;
	if (have_class) {
		t[k].type = CKA_CLASS;
		t[k].pValue = &cls;
		t[k++].ulValueLen = sizeof(cls);
	}
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
	rv = vg_util_find(h, t, k, &objs, &n);
	what_matches(what, sizeof(what), o, have_class);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot search the token", rv);
	} else if (n == 0) {
		vg_util_err("no object with %s on token '%s' (see "
		    "--list-objects)", what, o->token);
	} else if (n > 1 && !o->all) {
		classes_of(h, objs, n, found, sizeof(found));
		vg_util_err("%lu objects have %s (%s): narrow with --class, "
		    "or give --all to delete them all", (unsigned long)n,
		    what, found);
	} else {
		rc = delete_found(h, objs, n, o);
	}
	free(objs);
	C_Logout(h);
	C_CloseSession(h);
	return rc;
}

/* see util/util.h */
int
vg_util_delete_object(struct vg_util_opts *o)
{
	uint8_t id[VG_UTIL_ID_MAX];
	size_t id_len = 0;
	CK_OBJECT_CLASS cls = 0;
	int rc = VG_UTIL_USAGE;

	if (o->id_hex == NULL && o->label == NULL) {
		vg_util_err("--delete-object needs --id or --label");
		goto out;
	}
	if (o->id_hex != NULL) {
		id_len = vg_util_parse_id(o->id_hex, id, sizeof(id));
		if (id_len == 0)
			goto out;
	}
	if (o->cls != NULL && !parse_class(o->cls, &cls))
		goto out;
	rc = VG_UTIL_FAIL;
	if (vg_util_p11_init() == 0) {
		rc = delete_objects(o, id, id_len, o->cls != NULL, cls);
		vg_util_p11_fini();
	}
out:
	return rc;
}
