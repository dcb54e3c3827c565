/*
 * The backup file of vgtoken-util --backup and --restore (doc/backup.md):
 * a 64-byte header in clear, then the body encrypted with AES-256-GCM
 * (the header is the associated data), then the 16-byte tag. The GCM key
 * and the key that wraps each secret on the token both come from the
 * passphrase: PBKDF2-HMAC-SHA-256 over the header's salt and iteration
 * count gives a master secret, and HKDF-Expand with two labels gives the
 * two keys. The body lists the objects with their attributes (from
 * format version 2 on, the keys' templates among them); private and
 * secret keys are there only as C_WrapKey made them (AES key wrap with
 * padding, RFC 5649), so their values never pass through this tool in
 * clear.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/aes.h"
#include "crypto/ct.h"
#include "crypto/hash.h"
#include "util/util.h"
#include "vgtoken/vgtoken.h"

static const uint8_t magic[8] = { 'V', 'G', 'T', 'O', 'K', 'B', 'A', 'K' };

/* ------------------------------------------------------------ buffers */

/* see util/util.h */
void
vg_bk_put(struct vg_bk_buf *b, const void *p, size_t n)
{
	uint8_t *grown;
	size_t cap;

	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		cap = b->cap != 0 ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		/* Not realloc: the old block may hold secrets. */
		grown = malloc(cap);
		if (grown == NULL) {
			b->oom = 1;
			return;
		}
		if (b->len != 0)
			memcpy(grown, b->p, b->len);
		if (b->p != NULL) {
			vg_wipe(b->p, b->cap);
			free(b->p);
		}
		b->p = grown;
		b->cap = cap;
	}
	if (n != 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* see util/util.h */
void
vg_bk_put_u(struct vg_bk_buf *b, uint64_t v, size_t bytes)
{
	uint8_t be[8];
	size_t i;

	for (i = 0; i < bytes; i++)
		be[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	vg_bk_put(b, be, bytes);
}

/* see util/util.h */
void
vg_bk_buf_free(struct vg_bk_buf *b)
{
	if (b->p != NULL) {
		vg_wipe(b->p, b->cap);
		free(b->p);
	}
	memset(b, 0, sizeof(*b));
}

/* see util/util.h */
const uint8_t *
vg_bk_get(struct vg_bk_rd *r, size_t n)
{
	const uint8_t *p;

	if (r->bad || n > r->len - r->off) {
		r->bad = 1;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

/* see util/util.h */
uint64_t
vg_bk_get_u(struct vg_bk_rd *r, size_t bytes)
{
	const uint8_t *p = vg_bk_get(r, bytes);
	uint64_t v = 0;
	size_t i;

	for (i = 0; p != NULL && i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

/* --------------------------------------------------------- attributes */

#define C_DATA VG_BK_DATA
#define C_CERT VG_BK_CERT
#define C_PUB VG_BK_PUB
#define C_PRIV VG_BK_PRIV
#define C_SEC VG_BK_SECRET
#define C_KEYS (C_PUB | C_PRIV | C_SEC)
#define C_ALL (C_DATA | C_CERT | C_KEYS)
#define T VG_BK_TMPL

/* The attributes a backup keeps: those an application may set when it
 * makes the object [PKCS#11 3.2 §4]. The ones the token sets itself
 * (CKA_LOCAL, CKA_ALWAYS_SENSITIVE, CKA_UNIQUE_ID, ...) and those it
 * computes from others (CKA_MODULUS_BITS, CKA_CHECK_VALUE) are left out.
 * CKA_CLASS comes first.
 *
 * T: may stand inside a template. A template holds the attributes of a
 * key (one to be wrapped, unwrapped or derived), so every key attribute
 * that is not secret and not itself a template: those kept on keys, and
 * at the end of the table those a key has that the token sets, which a
 * CKA_WRAP_TEMPLATE may ask of the key it wraps. A key value (CKA_VALUE,
 * the private parts) never stands in a template a backup keeps, nor a
 * CKA_UNIQUE_ID, which names an object of the source token only. */
const struct vg_bk_attr_def vg_bk_attrs[] = {
	{ CKA_CLASS, VG_BK_ULONG, C_ALL | T },
	{ CKA_KEY_TYPE, VG_BK_ULONG, C_KEYS | T },
	{ CKA_CERTIFICATE_TYPE, VG_BK_ULONG, C_CERT },
	{ CKA_PRIVATE, VG_BK_BOOL, C_ALL | T },
	{ CKA_MODIFIABLE, VG_BK_BOOL, C_ALL | T },
	{ CKA_COPYABLE, VG_BK_BOOL, C_ALL | T },
	{ CKA_DESTROYABLE, VG_BK_BOOL, C_ALL | T },
	{ CKA_LABEL, VG_BK_BYTES, C_ALL | T },
	{ CKA_ID, VG_BK_BYTES, C_CERT | C_KEYS | T },
	{ CKA_APPLICATION, VG_BK_BYTES, C_DATA },
	{ CKA_OBJECT_ID, VG_BK_BYTES, C_DATA },
	{ CKA_CERTIFICATE_CATEGORY, VG_BK_ULONG, C_CERT },
	{ CKA_TRUSTED, VG_BK_BOOL, C_CERT | C_PUB | C_SEC | T },
	{ CKA_SUBJECT, VG_BK_BYTES, C_CERT | C_PUB | C_PRIV | T },
	{ CKA_ISSUER, VG_BK_BYTES, C_CERT },
	{ CKA_SERIAL_NUMBER, VG_BK_BYTES, C_CERT },
	{ CKA_URL, VG_BK_BYTES, C_CERT },
	{ CKA_HASH_OF_SUBJECT_PUBLIC_KEY, VG_BK_BYTES, C_CERT },
	{ CKA_HASH_OF_ISSUER_PUBLIC_KEY, VG_BK_BYTES, C_CERT },
	{ CKA_JAVA_MIDP_SECURITY_DOMAIN, VG_BK_ULONG, C_CERT },
	{ CKA_NAME_HASH_ALGORITHM, VG_BK_ULONG, C_CERT },
	{ CKA_START_DATE, VG_BK_BYTES, C_KEYS | T },
	{ CKA_END_DATE, VG_BK_BYTES, C_KEYS | T },
	{ CKA_ALLOWED_MECHANISMS, VG_BK_MECHS, C_KEYS | T },
	{ CKA_ENCRYPT, VG_BK_BOOL, C_PUB | C_SEC | T },
	{ CKA_DECRYPT, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_WRAP, VG_BK_BOOL, C_PUB | C_SEC | T },
	{ CKA_UNWRAP, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_SIGN, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_VERIFY, VG_BK_BOOL, C_PUB | C_SEC | T },
	{ CKA_SIGN_RECOVER, VG_BK_BOOL, C_PRIV | T },
	{ CKA_VERIFY_RECOVER, VG_BK_BOOL, C_PUB | T },
	{ CKA_DERIVE, VG_BK_BOOL, C_KEYS | T },
	{ CKA_ENCAPSULATE, VG_BK_BOOL, C_PUB | T },
	{ CKA_DECAPSULATE, VG_BK_BOOL, C_PRIV | T },
	{ CKA_SENSITIVE, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_EXTRACTABLE, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_WRAP_WITH_TRUSTED, VG_BK_BOOL, C_PRIV | C_SEC | T },
	{ CKA_ALWAYS_AUTHENTICATE, VG_BK_BOOL, C_PRIV | T },
	/* the templates, as the token's attribute table gives them to
	 * classes (version 2 on) */
	{ CKA_WRAP_TEMPLATE, VG_BK_ATTRS, C_PUB | C_SEC },
	{ CKA_UNWRAP_TEMPLATE, VG_BK_ATTRS, C_PRIV | C_SEC },
	{ CKA_DERIVE_TEMPLATE, VG_BK_ATTRS, C_PRIV | C_SEC },
	{ CKA_ENCAPSULATE_TEMPLATE, VG_BK_ATTRS, C_PUB },
	{ CKA_DECAPSULATE_TEMPLATE, VG_BK_ATTRS, C_PRIV },
	/* values: of data objects, certificates and public keys (private
	 * and secret keys travel wrapped) */
	{ CKA_VALUE, VG_BK_BYTES, C_DATA | C_CERT | C_PUB },
	{ CKA_MODULUS, VG_BK_BYTES, C_PUB | T },
	{ CKA_PUBLIC_EXPONENT, VG_BK_BYTES, C_PUB | T },
	{ CKA_EC_PARAMS, VG_BK_BYTES, C_PUB | T },
	{ CKA_EC_POINT, VG_BK_BYTES, C_PUB | T },
	{ CKA_PARAMETER_SET, VG_BK_ULONG, C_PUB | T },
	/* inside templates only */
	{ CKA_TOKEN, VG_BK_BOOL, T },
	{ CKA_VALUE_LEN, VG_BK_ULONG, T },
	{ CKA_MODULUS_BITS, VG_BK_ULONG, T },
	{ CKA_CHECK_VALUE, VG_BK_BYTES, T },
	{ CKA_LOCAL, VG_BK_BOOL, T },
	{ CKA_KEY_GEN_MECHANISM, VG_BK_ULONG, T },
	{ CKA_ALWAYS_SENSITIVE, VG_BK_BOOL, T },
	{ CKA_NEVER_EXTRACTABLE, VG_BK_BOOL, T },
};
const size_t vg_bk_nattrs = sizeof(vg_bk_attrs) / sizeof(vg_bk_attrs[0]);

/* see util/util.h */
const struct vg_bk_attr_def *
vg_bk_attr_def(CK_ATTRIBUTE_TYPE type)
{
	size_t i;

	for (i = 0; i < vg_bk_nattrs; i++)
		if (vg_bk_attrs[i].type == type)
			return &vg_bk_attrs[i];
	return NULL;
}

/* see util/util.h */
unsigned
vg_bk_class_bit(CK_OBJECT_CLASS cls)
{
	switch (cls) {
	case CKO_DATA:
		return VG_BK_DATA;
	case CKO_CERTIFICATE:
		return VG_BK_CERT;
	case CKO_PUBLIC_KEY:
		return VG_BK_PUB;
	case CKO_PRIVATE_KEY:
		return VG_BK_PRIV;
	case CKO_SECRET_KEY:
		return VG_BK_SECRET;
	default:
		return 0;
	}
}

/* see util/util.h */
const CK_ATTRIBUTE *
vg_bk_find(const struct vg_bk_obj *o, CK_ATTRIBUTE_TYPE type)
{
	CK_ULONG i;

	for (i = 0; i < o->n; i++)
		if (o->a[i].type == type)
			return &o->a[i];
	return NULL;
}

static CK_ULONG
ulong_of(const struct vg_bk_obj *o, CK_ATTRIBUTE_TYPE type, CK_ULONG def)
{
	const CK_ATTRIBUTE *a = vg_bk_find(o, type);
	CK_ULONG v;

	if (a == NULL || a->ulValueLen != sizeof(v))
		return def;
	memcpy(&v, a->pValue, sizeof(v));
	return v;
}

/* see util/util.h */
void
vg_bk_describe(const struct vg_bk_obj *o, char *out, size_t cap)
{
	static const char *classes[] = { "data", "certificate", "public-key",
		"private-key", "secret-key" };
	CK_ULONG cls = ulong_of(o, CKA_CLASS, ~(CK_ULONG)0);
	CK_ULONG kt = ulong_of(o, CKA_KEY_TYPE, ~(CK_ULONG)0);
	const CK_ATTRIBUTE *id = vg_bk_find(o, CKA_ID);
	const CK_ATTRIBUTE *label = vg_bk_find(o, CKA_LABEL);
	const char *type = "";
	char hex[2 * 64 + 1] = "";
	size_t n = 0;

	if (kt == CKK_RSA)
		type = " rsa";
	else if (kt == CKK_EC)
		type = " ec";
	else if (kt == CKK_EC_EDWARDS)
		type = " ed25519";
	else if (kt == CKK_EC_MONTGOMERY)
		type = " x25519";
	else if (kt == CKK_ML_DSA || kt == CKK_VG_ML_DSA)
		type = " ml-dsa";
	else if (kt == CKK_ML_KEM)
		type = " ml-kem";
	else if (kt == CKK_AES)
		type = " aes";
	else if (kt == CKK_GENERIC_SECRET)
		type = " generic";
	if (id != NULL)
		vg_util_hex(hex, id->pValue,
		    id->ulValueLen < 64 ? id->ulValueLen : 64);
	n = (size_t)snprintf(out, cap, "%s%s",
	    cls < 5 ? classes[cls] : "object", type);
	if (id != NULL && n < cap)
		n += (size_t)snprintf(out + n, cap - n, " id=%s", hex);
	if (label != NULL && label->ulValueLen != 0 && n < cap)
		snprintf(out + n, cap - n, " label=\"%.*s\"",
		    (int)(label->ulValueLen < 64 ? label->ulValueLen : 64),
		    (const char *)label->pValue);
}

/* Wipes and frees the value of a (a template: each entry's, then the
 * array) and empties a. */
static void
attr_free(CK_ATTRIBUTE *a)
{
	const struct vg_bk_attr_def *d = vg_bk_attr_def(a->type);
	CK_ATTRIBUTE *t = a->pValue;
	CK_ULONG i;

	if (t != NULL && d != NULL && d->kind == VG_BK_ATTRS)
		for (i = 0; i < a->ulValueLen / sizeof(*t); i++)
			attr_free(&t[i]);
	if (a->pValue != NULL) {
		vg_wipe(a->pValue, a->ulValueLen);
		free(a->pValue);
	}
	memset(a, 0, sizeof(*a));
}

/* see util/util.h */
void
vg_bk_obj_free(struct vg_bk_obj *o)
{
	CK_ULONG i;

	for (i = 0; i < o->n; i++)
		attr_free(&o->a[i]);
	if (o->blob != NULL) {
		vg_wipe(o->blob, o->blob_len);
		free(o->blob);
	}
	memset(o, 0, sizeof(*o));
}

/* Appends one attribute: u32 type, u8 encoding, u32 n, n bytes; a
 * template's n bytes are u16 count and its entries, each as here. */
static void
put_attr(struct vg_bk_buf *b, const CK_ATTRIBUTE *a)
{
	const struct vg_bk_attr_def *d = vg_bk_attr_def(a->type);
	const CK_ATTRIBUTE *t = a->pValue;
	CK_ULONG k, v;
	size_t at;

	vg_bk_put_u(b, a->type, 4);
	vg_bk_put_u(b, d->kind, 1);
	switch (d->kind) {
	case VG_BK_ULONG:
	case VG_BK_MECHS:
		vg_bk_put_u(b, a->ulValueLen / sizeof(v) * 8, 4);
		for (k = 0; k < a->ulValueLen / sizeof(v); k++) {
			memcpy(&v, (uint8_t *)a->pValue + k * sizeof(v),
			    sizeof(v));
			vg_bk_put_u(b, v, 8);
		}
		break;
	case VG_BK_ATTRS:
		at = b->len;
		vg_bk_put_u(b, 0, 4); /* n, known at the end */
		vg_bk_put_u(b, a->ulValueLen / sizeof(*t), 2);
		for (k = 0; k < a->ulValueLen / sizeof(*t); k++)
			put_attr(b, &t[k]);
		for (k = 0; !b->oom && k < 4; k++)
			b->p[at + k] = (uint8_t)((b->len - at - 4) >>
			    (24 - 8 * k));
		break;
	default:
		vg_bk_put_u(b, a->ulValueLen, 4);
		vg_bk_put(b, a->pValue, a->ulValueLen);
	}
}

/* see util/util.h */
void
vg_bk_obj_put(struct vg_bk_buf *b, const struct vg_bk_obj *o)
{
	CK_ULONG i;

	vg_bk_put_u(b, o->blob != NULL, 1);
	vg_bk_put_u(b, o->n, 2);
	for (i = 0; i < o->n; i++)
		put_attr(b, &o->a[i]);
	if (o->blob != NULL) {
		vg_bk_put_u(b, o->blob_len, 4);
		vg_bk_put(b, o->blob, o->blob_len);
	}
}

/* r's fault record while no fault is in it, else NULL. */
static struct vg_bk_fault *
live(struct vg_bk_rd *r)
{
	return r->fault != NULL && r->fault->why[0] == '\0' ? r->fault : NULL;
}

/* Records why the body is malformed, if nothing was yet. */
static void __attribute__((format(printf, 2, 3)))
fault(struct vg_bk_rd *r, const char *fmt, ...)
{
	struct vg_bk_fault *f = live(r);
	va_list ap;

	if (f == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

/* see util/util.h */
void
vg_bk_fault_text(const struct vg_bk_fault *f, char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	if (f->attr_no != 0)
		n += (size_t)snprintf(out + n, cap - n, "attribute %lu",
		    (unsigned long)f->attr_no);
	if (f->attr_no != 0 && f->attr_typed && n < cap)
		n += (size_t)snprintf(out + n, cap - n, " (0x%lx)",
		    (unsigned long)f->attr_type);
	if (f->entry_no != 0 && n < cap)
		n += (size_t)snprintf(out + n, cap - n, ", entry %lu",
		    (unsigned long)f->entry_no);
	if (f->entry_no != 0 && f->entry_typed && n < cap)
		n += (size_t)snprintf(out + n, cap - n, " (0x%lx)",
		    (unsigned long)f->entry_type);
	if (n < cap)
		snprintf(out + n, cap - n, "%s%s", n != 0 ? ": " : "",
		    f->why[0] != '\0' ? f->why : "malformed");
}

static int get_tmpl(struct vg_bk_rd *r, CK_ATTRIBUTE *a);

/* Reads one attribute (as put_attr writes it) into a, in native form;
 * inner for an entry of a template, which must be of a type marked
 * VG_BK_TMPL (so never a template) with a value of at most
 * VG_BK_TMPL_VALUE_MAX bytes. The type must be one of vg_bk_attrs with
 * its encoding and length; which class has it is the caller's check.
 * Returns the row of the type, or NULL (r->bad set, a empty). */
static const struct vg_bk_attr_def *
get_attr(struct vg_bk_rd *r, CK_ATTRIBUTE *a, int inner)
{
	const struct vg_bk_attr_def *d;
	struct vg_bk_fault *f;
	struct vg_bk_rd sub;
	const uint8_t *p;
	CK_ULONG type, k, v;
	unsigned kind, i;
	size_t len;

	memset(a, 0, sizeof(*a));
	type = (CK_ULONG)vg_bk_get_u(r, 4);
	if (!r->bad && (f = live(r)) != NULL) {
		if (inner) {
			f->entry_type = type;
			f->entry_typed = 1;
		} else {
			f->attr_type = type;
			f->attr_typed = 1;
		}
	}
	kind = (unsigned)vg_bk_get_u(r, 1);
	len = (size_t)vg_bk_get_u(r, 4);
	p = vg_bk_get(r, len);
	d = vg_bk_attr_def(type);
	if (p == NULL) {
		fault(r, "cut short");
		goto bad;
	}
	if (d == NULL) {
		fault(r, "a type a backup does not keep");
		goto bad;
	}
	if (d->kind != kind) {
		fault(r, "stored as kind %u, where the format has %u", kind,
		    (unsigned)d->kind);
		goto bad;
	}
	if (inner && !(d->classes & VG_BK_TMPL)) {
		fault(r, "a type a template in a backup does not hold");
		goto bad;
	}
	if (inner && len > VG_BK_TMPL_VALUE_MAX) {
		fault(r, "a value of %zu bytes (at most %u in a template)",
		    len, (unsigned)VG_BK_TMPL_VALUE_MAX);
		goto bad;
	}
	if (kind == VG_BK_ATTRS && r->version < VG_BK_VERSION_TEMPLATES) {
		fault(r, "a template in a file of version %u", r->version);
		goto bad;
	}
	if ((kind == VG_BK_ULONG && len != 8) ||
	    (kind == VG_BK_MECHS && len % 8 != 0) ||
	    (kind == VG_BK_BOOL && len != 1)) {
		fault(r, "a %s of %zu bytes",
		    kind == VG_BK_BOOL ? "CK_BBOOL"
		    : kind == VG_BK_ULONG ? "CK_ULONG" : "mechanism list",
		    len);
		goto bad;
	}
	a->type = type;
	if (kind == VG_BK_ATTRS) {
		sub = (struct vg_bk_rd){ .p = p, .len = len,
			.version = r->version, .fault = r->fault };
		if (get_tmpl(&sub, a) != 0)
			goto bad;
		return d;
	}
	if (kind == VG_BK_ULONG || kind == VG_BK_MECHS)
		a->ulValueLen = len / 8 * sizeof(CK_ULONG);
	else
		a->ulValueLen = len;
	a->pValue = malloc(len != 0 ? len : 1);
	if (a->pValue == NULL) {
		fault(r, "out of memory");
		goto bad;
	}
	if (kind == VG_BK_ULONG || kind == VG_BK_MECHS) {
		for (k = 0; k < len / 8; k++) {
			v = 0;
			for (i = 0; i < 8; i++)
				v = v << 8 | p[8 * k + i];
			memcpy((uint8_t *)a->pValue + k * sizeof(v), &v,
			    sizeof(v));
		}
	} else if (len != 0) {
		memcpy(a->pValue, p, len);
	}
	return d;
bad:
	attr_free(a);
	r->bad = 1;
	return NULL;
}

/* The value of a template (a->type set): u16 count, 1 ...
 * VG_BK_TMPL_MAX entries of distinct types, and nothing after them.
 * Returns 0, or -1 (the caller frees a). */
static int
get_tmpl(struct vg_bk_rd *r, CK_ATTRIBUTE *a)
{
	struct vg_bk_fault *f;
	CK_ATTRIBUTE *t;
	CK_ULONG n, i, k;

	n = (CK_ULONG)vg_bk_get_u(r, 2);
	if (r->bad) {
		fault(r, "cut short");
		return -1;
	}
	if (n == 0 || n > VG_BK_TMPL_MAX) {
		fault(r, "a template of %lu entries (1 to %u)",
		    (unsigned long)n, (unsigned)VG_BK_TMPL_MAX);
		return -1;
	}
	t = calloc(n, sizeof(*t));
	if (t == NULL) {
		fault(r, "out of memory");
		return -1;
	}
	a->pValue = t;
	for (i = 0; i < n; i++) {
		if ((f = live(r)) != NULL) {
			f->entry_no = i + 1;
			f->entry_typed = 0;
		}
		if (get_attr(r, &t[i], 1) == NULL)
			return -1;
		a->ulValueLen += sizeof(*t);
		for (k = 0; k < i; k++)
			if (t[k].type == t[i].type) {
				fault(r, "a type the template holds already");
				return -1;
			}
	}
	if (r->off != r->len) {
		if ((f = live(r)) != NULL)
			f->entry_no = 0;
		fault(r, "%zu byte%s after the template's last entry",
		    r->len - r->off, r->len - r->off == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* see util/util.h */
int
vg_bk_obj_get(struct vg_bk_rd *r, struct vg_bk_obj *o)
{
	const struct vg_bk_attr_def *d;
	struct vg_bk_fault *f;
	const uint8_t *p;
	CK_ULONG n, v;
	unsigned wrapped, bit = 0;
	size_t len;
	int dup;

	memset(o, 0, sizeof(*o));
	wrapped = (unsigned)vg_bk_get_u(r, 1);
	n = (CK_ULONG)vg_bk_get_u(r, 2);
	if (r->bad) {
		fault(r, "cut short");
		goto bad;
	}
	if (wrapped > 1) {
		fault(r, "a wrapped-value flag of %u", wrapped);
		goto bad;
	}
	if (n == 0 || n > VG_BK_MAX_ATTRS) {
		fault(r, "%lu attributes (1 to %u)", (unsigned long)n,
		    (unsigned)VG_BK_MAX_ATTRS);
		goto bad;
	}
	while (o->n < n) {
		if ((f = live(r)) != NULL) {
			f->attr_no = o->n + 1;
			f->attr_typed = 0;
			f->entry_no = 0;
		}
		d = get_attr(r, &o->a[o->n], 0);
		if (d == NULL)
			goto bad;
		if ((f = live(r)) != NULL)
			f->entry_no = 0; /* a template's entries were fine */
		dup = vg_bk_find(o, d->type) != NULL;
		o->n++;
		/* the class first, and each attribute one the class has */
		if (dup) {
			fault(r, "a type the object holds already");
			goto bad;
		}
		if ((o->n == 1) != (d->type == CKA_CLASS)) {
			fault(r, "not CKA_CLASS, which comes first");
			goto bad;
		}
		if (o->n > 1 && !(d->classes & bit)) {
			fault(r, "a type objects of this class do not have");
			goto bad;
		}
		if (o->n == 1) {
			memcpy(&v, o->a[0].pValue, sizeof(v));
			bit = vg_bk_class_bit(v);
			if (bit == 0) {
				fault(r, "class 0x%lx, which a backup does "
				    "not keep", (unsigned long)v);
				goto bad;
			}
			if ((wrapped != 0) !=
			    ((bit & (VG_BK_PRIV | VG_BK_SECRET)) != 0)) {
				fault(r, wrapped ? "a wrapped value for a class "
				    "that has none" : "no wrapped value for a "
				    "private or secret key");
				goto bad;
			}
		}
	}
	if ((f = live(r)) != NULL)
		f->attr_no = 0;
	if (wrapped) {
		len = (size_t)vg_bk_get_u(r, 4);
		p = vg_bk_get(r, len);
		if (p == NULL) {
			fault(r, "its wrapped value is cut short");
			goto bad;
		}
		if (len == 0 || len > VG_BK_WRAPPED_MAX) {
			fault(r, "a wrapped value of %zu bytes (1 to %u)",
			    len, (unsigned)VG_BK_WRAPPED_MAX);
			goto bad;
		}
		o->blob = malloc(len);
		if (o->blob == NULL) {
			fault(r, "out of memory");
			goto bad;
		}
		memcpy(o->blob, p, len);
		o->blob_len = len;
	}
	return 0;
bad:
	/* what was read of it names it (class, key type, ID, label) */
	if (r->fault != NULL && r->fault->obj[0] == '\0' && o->n != 0)
		vg_bk_describe(o, r->fault->obj, sizeof(r->fault->obj));
	vg_bk_obj_free(o);
	r->bad = 1;
	return -1;
}

/* ----------------------------------------------------- keys, sealing */

/* see util/util.h */
int
vg_bk_derive(const struct vg_util_pin *pw, const uint8_t *hdr,
    struct vg_bk_keys *k)
{
	static const char file_info[] = "vgtoken backup 1: file key";
	static const char wrap_info[] = "vgtoken backup 1: wrapping key";
	uint8_t master[32];
	uint32_t iter = (uint32_t)hdr[12] << 24 | (uint32_t)hdr[13] << 16 |
	    (uint32_t)hdr[14] << 8 | hdr[15];
	int rc = -1;

	vg_util_progress_start("deriving the key from the passphrase");
	if (vg_pbkdf2_hmac(VG_HASH_SHA256, pw->v, pw->len, hdr + 16, 32, iter,
	    master, sizeof(master)) == VG_OK &&
	    vg_hkdf_expand(VG_HASH_SHA256, master, sizeof(master), file_info,
	    sizeof(file_info) - 1, k->file, sizeof(k->file)) == VG_OK &&
	    vg_hkdf_expand(VG_HASH_SHA256, master, sizeof(master), wrap_info,
	    sizeof(wrap_info) - 1, k->wrap, sizeof(k->wrap)) == VG_OK)
		rc = 0;
	vg_util_progress_stop();
	vg_wipe(master, sizeof(master));
	if (rc != 0)
		vg_util_err("cannot derive the backup keys");
	return rc;
}

/* see util/util.h */
void
vg_bk_header(uint8_t *hdr, uint32_t iterations, const uint8_t salt[32],
    const uint8_t iv[12], size_t body_len)
{
	memcpy(hdr, magic, 8);
	hdr[8] = VG_BK_VERSION;
	hdr[9] = VG_BK_KDF_PBKDF2_SHA256;
	hdr[10] = VG_BK_AEAD_AES256_GCM;
	hdr[11] = VG_BK_WRAP_KWP;
	hdr[12] = (uint8_t)(iterations >> 24);
	hdr[13] = (uint8_t)(iterations >> 16);
	hdr[14] = (uint8_t)(iterations >> 8);
	hdr[15] = (uint8_t)iterations;
	memcpy(hdr + 16, salt, 32);
	memcpy(hdr + 48, iv, 12);
	hdr[60] = (uint8_t)(body_len >> 24);
	hdr[61] = (uint8_t)(body_len >> 16);
	hdr[62] = (uint8_t)(body_len >> 8);
	hdr[63] = (uint8_t)body_len;
}

/* see util/util.h */
int
vg_bk_check_header(const char *path, const uint8_t *file, size_t len)
{
	size_t body;
	uint32_t iter;

	if (len < VG_BK_HDR_LEN || memcmp(file, magic, 8) != 0) {
		vg_util_err("%s is not a vgtoken backup", path);
		return -1;
	}
	if (file[8] < 1 || file[8] > VG_BK_VERSION ||
	    file[9] != VG_BK_KDF_PBKDF2_SHA256 ||
	    file[10] != VG_BK_AEAD_AES256_GCM || file[11] != VG_BK_WRAP_KWP) {
		vg_util_err("%s: backup format %u (algorithms %u/%u/%u), which "
		    "this version does not read", path, file[8], file[9],
		    file[10], file[11]);
		return -1;
	}
	iter = (uint32_t)file[12] << 24 | (uint32_t)file[13] << 16 |
	    (uint32_t)file[14] << 8 | file[15];
	body = (size_t)file[60] << 24 | (size_t)file[61] << 16 |
	    (size_t)file[62] << 8 | file[63];
	if (iter < VG_BK_ITER_MIN || iter > VG_BK_ITER_MAX) {
		vg_util_err("%s: %u PBKDF2 iterations, outside %u...%u: "
		    "damaged or not made by this tool", path, iter,
		    VG_BK_ITER_MIN, VG_BK_ITER_MAX);
		return -1;
	}
	if (len != VG_BK_HDR_LEN + body + VG_BK_TAG_LEN) {
		vg_util_err("%s is truncated or has bytes appended (%zu bytes, "
		    "the header says %zu)", path, len,
		    VG_BK_HDR_LEN + body + VG_BK_TAG_LEN);
		return -1;
	}
	return 0;
}

/* see util/util.h */
int
vg_bk_seal(const struct vg_bk_keys *k, uint8_t *file, size_t body_len)
{
	struct vg_aes_key key;
	int rc = -1;

	if (vg_aes_init(&key, k->file, sizeof(k->file)) == VG_OK &&
	    vg_aes_gcm_encrypt(&key, file + 48, 12, file, VG_BK_HDR_LEN,
	    file + VG_BK_HDR_LEN, body_len, file + VG_BK_HDR_LEN,
	    file + VG_BK_HDR_LEN + body_len, VG_BK_TAG_LEN) == VG_OK)
		rc = 0;
	vg_aes_key_wipe(&key);
	return rc;
}

/* see util/util.h */
int
vg_bk_unseal(const struct vg_bk_keys *k, const uint8_t *file, size_t len,
    uint8_t *body)
{
	struct vg_aes_key key;
	size_t body_len = len - VG_BK_HDR_LEN - VG_BK_TAG_LEN;
	int rc = -1;

	if (vg_aes_init(&key, k->file, sizeof(k->file)) == VG_OK &&
	    vg_aes_gcm_decrypt(&key, file + 48, 12, file, VG_BK_HDR_LEN,
	    file + VG_BK_HDR_LEN, body_len, body,
	    file + VG_BK_HDR_LEN + body_len, VG_BK_TAG_LEN) == VG_OK)
		rc = 0;
	vg_aes_key_wipe(&key);
	return rc;
}
