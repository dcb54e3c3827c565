/*
 * Attributes the token computes from others: the fields of an X.509
 * certificate [PKCS#11 3.2 §4.7, §4.7.3], the check value of secret keys
 * [§4.12, §6.8.2, §6.10.2], CKA_VALUE_LEN and CKA_MODULUS_BITS; and the
 * final completeness check of a new object.
 */
#include "config.h"

#include <string.h>

#include "crypto/crypto.h"
#include "token/object.h"

#define KCV_LEN 3

static CK_RV
map_err(enum vg_err e)
{
	return e == VG_OK ? CKR_OK : CKR_ATTRIBUTE_VALUE_INVALID;
}

/*
 * A value computed by the token (kcv, KCV_LEN bytes) against the object's
 * CKA_CHECK_VALUE: absent: set; empty: kept (§4.12, the application asked
 * for none); otherwise it must be equal: CKR_ATTRIBUTE_VALUE_INVALID.
 */
static CK_RV
check_value_put(struct vg_object *o, const uint8_t kcv[KCV_LEN])
{
	const struct vg_attr *a = vg_object_attr(o, CKA_CHECK_VALUE);

	if (a == NULL)
		return vg_object_set_attr(o, CKA_CHECK_VALUE, kcv, KCV_LEN);
	if (a->len == 0)
		return CKR_OK;
	if (a->len != KCV_LEN || !vg_ct_memeq(a->value, kcv, KCV_LEN))
		return CKR_ATTRIBUTE_VALUE_INVALID;
	return CKR_OK;
}

/* ------------------------------------------------------------ secrets */

/* CKA_VALUE_LEN and CKA_CHECK_VALUE of a secret key with a value. */
static CK_RV
secret_fill(struct vg_object *o)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	static const uint8_t zero[VG_AES_BLOCK];
	uint8_t block[VG_HASH_MAX_LEN];
	struct vg_aes_key k;
	CK_ULONG len;
	CK_RV rv;

	if (v == NULL)
		return CKR_OK;
	len = vg_object_ulong(o, CKA_VALUE_LEN, CK_UNAVAILABLE_INFORMATION);
	if (len == CK_UNAVAILABLE_INFORMATION) {
		len = v->len;
		rv = vg_object_set_attr(o, CKA_VALUE_LEN, &len, sizeof(len));
		if (rv != CKR_OK)
			return rv;
		v = vg_object_attr(o, CKA_VALUE);
	} else if (len != v->len) {
		return CKR_TEMPLATE_INCONSISTENT;
	}
	if (o->key_type == CKK_AES) {
		/* §6.10.2: the first three bytes of the ECB encryption of a
		 * zero block. */
		rv = map_err(vg_aes_init(&k, v->value, v->len));
		if (rv != CKR_OK)
			return rv;
		vg_kernels()->aes_encrypt(&k, block, zero, 1);
		vg_aes_key_wipe(&k);
	} else {
		/* §6.8.2: the first three bytes of SHA-1 of the value. */
		vg_hash(VG_HASH_SHA1, v->value, v->len, block);
	}
	rv = check_value_put(o, block);
	vg_wipe(block, sizeof(block));
	return rv;
}

/* CKA_MODULUS_BITS of an RSA public key from its modulus. */
static CK_RV
modulus_bits(struct vg_object *o)
{
	const struct vg_attr *m = vg_object_attr(o, CKA_MODULUS);
	const uint8_t *p;
	CK_ULONG bits, i, cur;
	unsigned top;

	if (m == NULL)
		return CKR_OK;
	p = m->value;
	for (i = 0; i < m->len && p[i] == 0; i++)
		;
	bits = 0;
	if (i < m->len) {
		for (top = p[i], bits = 0; top != 0; top >>= 1)
			bits++;
		bits += (m->len - i - 1) * 8;
	}
	if (bits == 0)
		return CKR_ATTRIBUTE_VALUE_INVALID;
	cur = vg_object_ulong(o, CKA_MODULUS_BITS, CK_UNAVAILABLE_INFORMATION);
	if (cur == CK_UNAVAILABLE_INFORMATION)
		return vg_object_set_attr(o, CKA_MODULUS_BITS, &bits,
		    sizeof(bits));
	return cur == bits ? CKR_OK : CKR_TEMPLATE_INCONSISTENT;
}

/* ------------------------------------------------------------ X.509 */

/* The parts of a certificate we fill attributes from (cursors into
 * CKA_VALUE). */
struct cert_fields {
	struct vg_der serial, issuer, subject, spki;
	char start[8], end[8];
};

/* A two- or four-digit decimal field. */
static int
dec(const uint8_t *p, unsigned n, unsigned *v)
{
	unsigned i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		*v = *v * 10 + (unsigned)(p[i] - '0');
	}
	return 1;
}

/*
 * Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
 * [RFC 5280 §4.1.2.5] as CK_DATE "YYYYMMDD". UTCTime years 50 to 99 are
 * 1950 to 1999, 00 to 49 are 2000 to 2049 (§4.1.2.5.1). Only the date
 * part is read; the rest must be present (UTCTime 13 bytes,
 * GeneralizedTime 15, both ending in 'Z').
 */
static enum vg_err
get_time(struct vg_der *cur, char date[8])
{
	struct vg_der c;
	unsigned tag, y, m, d;
	enum vg_err rc;
	const uint8_t *p;

	rc = vg_der_get_any(cur, &tag, &c, NULL);
	if (rc != VG_OK)
		return rc;
	p = c.p;
	if (tag == 0x17 && c.len == 13 && p[12] == 'Z' && dec(p, 2, &y)) {
		y += y < 50 ? 2000 : 1900;
		p += 2;
	} else if (tag == 0x18 && c.len == 15 && p[14] == 'Z' &&
	    dec(p, 4, &y)) {
		p += 4;
	} else {
		return VG_ERR_DECODE;
	}
	if (!dec(p, 2, &m) || !dec(p + 2, 2, &d) || m < 1 || m > 12 ||
	    d < 1 || d > 31 || y < 1900 || y > 9999)
		return VG_ERR_DECODE;
	date[0] = (char)('0' + y / 1000);
	date[1] = (char)('0' + y / 100 % 10);
	date[2] = (char)('0' + y / 10 % 10);
	date[3] = (char)('0' + y % 10);
	memcpy(date + 4, p, 4);
	return VG_OK;
}

/* An element with the given tag, *whole its complete encoding. */
static enum vg_err
get_whole(struct vg_der *cur, unsigned want, struct vg_der *whole)
{
	struct vg_der c = *cur, contents;
	unsigned tag;
	enum vg_err rc;

	rc = vg_der_get_any(&c, &tag, &contents, whole);
	if (rc == VG_OK && (tag != want || contents.len == 0))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		*cur = c;
	return rc;
}

/*
 * Certificate ::= SEQUENCE { tbsCertificate TBSCertificate,
 *   signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
 * TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1,
 *   serialNumber CertificateSerialNumber, signature AlgorithmIdentifier,
 *   issuer Name, validity Validity, subject Name,
 *   subjectPublicKeyInfo SubjectPublicKeyInfo, ... }   [RFC 5280 §4.1]
 * The input must be exactly one certificate.
 */
static enum vg_err
cert_parse(const void *der, size_t len, struct cert_fields *f)
{
	struct vg_der cur = vg_der_make(der, len), cert, tbs, ver, validity;
	struct vg_der_algid alg;
	int present;
	enum vg_err rc;

	rc = vg_der_get_sequence(&cur, &cert);
	if (rc == VG_OK && !vg_der_at_end(&cur))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_sequence(&cert, &tbs);
	if (rc == VG_OK)
		rc = vg_der_get_algid(&cert, &alg);
	if (rc == VG_OK)
		rc = vg_der_get_tlv(&cert, VG_DER_BIT_STRING, &ver);
	if (rc == VG_OK && !vg_der_at_end(&cert))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_optional(&tbs, VG_DER_CONTEXT(0), &ver,
		    &present);
	if (rc == VG_OK)
		rc = get_whole(&tbs, VG_DER_INTEGER, &f->serial);
	if (rc == VG_OK)
		rc = vg_der_get_algid(&tbs, &alg);
	if (rc == VG_OK)
		rc = get_whole(&tbs, VG_DER_SEQUENCE, &f->issuer);
	if (rc == VG_OK)
		rc = vg_der_get_sequence(&tbs, &validity);
	if (rc == VG_OK)
		rc = get_time(&validity, f->start);
	if (rc == VG_OK)
		rc = get_time(&validity, f->end);
	if (rc == VG_OK && !vg_der_at_end(&validity))
		rc = VG_ERR_DECODE;
	/* An empty subject (RFC 5280 allows one with subjectAltName) is a
	 * SEQUENCE with no contents. */
	if (rc == VG_OK) {
		struct vg_der c = tbs, contents;
		unsigned tag;

		rc = vg_der_get_any(&c, &tag, &contents, &f->subject);
		if (rc == VG_OK && tag != VG_DER_SEQUENCE)
			rc = VG_ERR_DECODE;
		tbs = c;
	}
	if (rc == VG_OK)
		rc = get_whole(&tbs, VG_DER_SEQUENCE, &f->spki);
	/* CKA_PUBLIC_KEY_INFO is filled from it: it must be an SPKI. */
	if (rc == VG_OK) {
		struct vg_der_algid ka;
		struct vg_der key;

		rc = vg_der_parse_spki(f->spki.p, f->spki.len, &ka, &key);
	}
	return rc;
}

/* Sets attribute t to v when o lacks it. */
static CK_RV
fill(struct vg_object *o, CK_ATTRIBUTE_TYPE t, const void *v, size_t len)
{
	if (vg_object_attr(o, t) != NULL)
		return CKR_OK;
	return vg_object_set_attr(o, t, v, (CK_ULONG)len);
}

static int
empty(const struct vg_object *o, CK_ATTRIBUTE_TYPE t)
{
	const struct vg_attr *a = vg_object_attr(o, t);

	return a == NULL || a->len == 0;
}

/* The X.509 attributes the caller omitted, from CKA_VALUE. */
static CK_RV
cert_fill(struct vg_object *o)
{
	const struct vg_attr *v = vg_object_attr(o, CKA_VALUE);
	uint8_t digest[VG_HASH_MAX_LEN];
	struct cert_fields f;
	CK_RV rv;

	if (v == NULL)
		return CKR_OK; /* CKR_TEMPLATE_INCOMPLETE below */
	if (v->len == 0) {
		/* §4.7.3 footnote 2: CKA_VALUE "MUST be non-empty if CKA_URL
		 * is empty"; without it there is nothing to fill from. */
		return empty(o, CKA_URL) ? CKR_TEMPLATE_INCOMPLETE : CKR_OK;
	}
	rv = map_err(cert_parse(v->value, v->len, &f));
	if (rv == CKR_OK)
		rv = fill(o, CKA_SUBJECT, f.subject.p, f.subject.len);
	if (rv == CKR_OK)
		rv = fill(o, CKA_ISSUER, f.issuer.p, f.issuer.len);
	if (rv == CKR_OK)
		rv = fill(o, CKA_SERIAL_NUMBER, f.serial.p, f.serial.len);
	if (rv == CKR_OK)
		rv = fill(o, CKA_START_DATE, f.start, sizeof(f.start));
	if (rv == CKR_OK)
		rv = fill(o, CKA_END_DATE, f.end, sizeof(f.end));
	if (rv == CKR_OK)
		rv = fill(o, CKA_PUBLIC_KEY_INFO, f.spki.p, f.spki.len);
	if (rv != CKR_OK)
		return rv;
	/* §4.7: "the first three bytes of the SHA-1 hash of the certificate
	 * object's CKA_VALUE". v may have moved: look it up again. */
	v = vg_object_attr(o, CKA_VALUE);
	vg_hash(VG_HASH_SHA1, v->value, v->len, digest);
	return check_value_put(o, digest);
}

/* see token/object.h */
CK_RV
vg_object_complete(struct vg_object *o)
{
	uint32_t scopes = vg_object_scopes(o);
	const struct vg_attr_rule *rules, *r;
	size_t nrules, k;
	int any_rule = 0, any_present = 0;
	CK_RV rv = CKR_OK;

	if (scopes == 0)
		return o->cls == CK_UNAVAILABLE_INFORMATION
		    ? CKR_TEMPLATE_INCOMPLETE : CKR_ATTRIBUTE_VALUE_INVALID;
	if (o->cls == CKO_SECRET_KEY)
		rv = secret_fill(o);
	else if (o->cls == CKO_PUBLIC_KEY && o->key_type == CKK_RSA)
		rv = modulus_bits(o);
	else if (o->cls == CKO_CERTIFICATE)
		rv = cert_fill(o);
	/* Computed attributes still absent take their defaults; then the
	 * object must have every attribute of footnote 1. */
	rules = vg_attr_rules(&nrules);
	for (k = 0; k < nrules && rv == CKR_OK; k++) {
		r = &rules[k];
		if ((r->scope & scopes) == 0)
			continue;
		if ((r->flags & VG_A_REQ_ANY) != 0) {
			any_rule = 1;
			any_present |= vg_object_attr(o, r->type) != NULL;
		}
		if (vg_object_attr(o, r->type) != NULL)
			continue;
		if ((r->flags & VG_A_REQ_CREATE) != 0)
			rv = CKR_TEMPLATE_INCOMPLETE;
		else if ((r->flags & VG_A_COMPUTED) != 0)
			rv = vg_attr_apply_default(o, r, VG_OBJ_CREATE);
	}
	if (rv == CKR_OK && any_rule && !any_present)
		rv = CKR_TEMPLATE_INCOMPLETE;
	return rv;
}
