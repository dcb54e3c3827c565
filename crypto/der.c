/*
 * DER reader and writer for keys [X.690 §10], and the key structures of
 * PKCS #1, PKCS #8, RFC 5280 and RFC 5915. See crypto/der.h for the rules.
 *
 * Every reader works on a local copy of the cursor and stores it back only
 * on success; every index into the input is checked against the bytes that
 * remain before it is used.
 */
#include "config.h"

#include <string.h>

#include "crypto/der.h"

/* ------------------------------------------------------------- reader */

/*
 * Decodes the identifier and length octets at c: *tag, *hdr (their
 * length) and *clen (the contents length, known to fit in what follows).
 */
static enum vg_err
read_header(const struct vg_der *c, unsigned *tag, size_t *hdr, size_t *clen)
{
	const uint8_t *p = c->p;
	size_t n = c->len, k, i;
	uint32_t l;

	if (n < 2)
		return VG_ERR_DECODE;
	/* High tag numbers (0x1f) and the end-of-contents octet (0x00) have
	 * no place in the structures we read. */
	if ((p[0] & 0x1f) == 0x1f || p[0] == 0x00)
		return VG_ERR_DECODE;
	if (p[1] < 0x80) {
		l = p[1];
		*hdr = 2;
	} else {
		/* 0x80 is the indefinite form; at most four length octets
		 * (0xff is reserved and falls under this too). */
		k = p[1] & 0x7fu;
		if (k == 0 || k > 4 || n - 2 < k)
			return VG_ERR_DECODE;
		if (p[2] == 0) /* not the shortest form */
			return VG_ERR_DECODE;
		l = 0;
		for (i = 0; i < k; i++)
			l = l << 8 | p[2 + i];
		if (l < 0x80) /* the short form was required */
			return VG_ERR_DECODE;
		*hdr = 2 + k;
	}
	/* size_t has at least 32 bits and *hdr <= n. */
	if ((size_t)l > n - *hdr)
		return VG_ERR_DECODE;
	*tag = p[0];
	*clen = l;
	return VG_OK;
}

/* see crypto/der.h */
int
vg_der_at_end(const struct vg_der *cur)
{
	return cur->len == 0;
}

/* see crypto/der.h */
int
vg_der_peek_tag(const struct vg_der *cur)
{
	return cur->len == 0 ? -1 : (int)cur->p[0];
}

/* see crypto/der.h */
enum vg_err
vg_der_get_any(struct vg_der *cur, unsigned *tag, struct vg_der *contents,
    struct vg_der *whole)
{
	size_t hdr, clen;
	enum vg_err rc;

	rc = read_header(cur, tag, &hdr, &clen);
	if (rc != VG_OK)
		return rc;
	contents->p = cur->p + hdr;
	contents->len = clen;
	if (whole != NULL) {
		whole->p = cur->p;
		whole->len = hdr + clen;
	}
	cur->p += hdr + clen;
	cur->len -= hdr + clen;
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_tlv(struct vg_der *cur, unsigned expected_tag,
    struct vg_der *contents)
{
	struct vg_der c = *cur, v;
	unsigned tag;
	enum vg_err rc;

	rc = vg_der_get_any(&c, &tag, &v, NULL);
	if (rc == VG_OK && tag != expected_tag)
		rc = VG_ERR_DECODE;
	if (rc == VG_OK) {
		*contents = v;
		*cur = c;
	}
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_sequence(struct vg_der *cur, struct vg_der *contents)
{
	return vg_der_get_tlv(cur, VG_DER_SEQUENCE, contents);
}

/* see crypto/der.h */
enum vg_err
vg_der_get_integer(struct vg_der *cur, struct vg_der *mag, unsigned flags)
{
	struct vg_der c = *cur, v;
	enum vg_err rc;
	int neg;

	rc = vg_der_get_tlv(&c, VG_DER_INTEGER, &v);
	if (rc != VG_OK)
		return rc;
	if (v.len == 0)
		return VG_ERR_DECODE;
	/* Minimal: the first nine bits are neither all zero nor all one. */
	if (v.len > 1 && ((v.p[0] == 0x00 && (v.p[1] & 0x80) == 0) ||
	    (v.p[0] == 0xff && (v.p[1] & 0x80) != 0)))
		return VG_ERR_DECODE;
	neg = (v.p[0] & 0x80) != 0;
	if (neg && (flags & VG_DER_INT_SIGNED) == 0)
		return VG_ERR_DECODE;
	if (!neg && v.len > 1 && v.p[0] == 0x00) {
		v.p++;
		v.len--;
	}
	*mag = v;
	*cur = c;
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_uint32(struct vg_der *cur, uint32_t *v)
{
	struct vg_der c = *cur, m;
	uint32_t x = 0;
	enum vg_err rc;
	size_t i;

	rc = vg_der_get_integer(&c, &m, 0);
	if (rc != VG_OK)
		return rc;
	if (m.len > 4)
		return VG_ERR_DECODE;
	for (i = 0; i < m.len; i++)
		x = x << 8 | m.p[i];
	*v = x;
	*cur = c;
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_octet_string(struct vg_der *cur, struct vg_der *str)
{
	return vg_der_get_tlv(cur, VG_DER_OCTET_STRING, str);
}

/* Checks BIT STRING contents v (unused-bits octet first); see
 * vg_der_get_bit_string. */
static enum vg_err
bit_string_contents(const struct vg_der *v, struct vg_der *bits,
    unsigned *unused)
{
	unsigned u;

	if (v->len == 0)
		return VG_ERR_DECODE;
	u = v->p[0];
	if (u > 7 || (v->len == 1 && u != 0))
		return VG_ERR_DECODE;
	if (unused == NULL && u != 0)
		return VG_ERR_DECODE;
	/* DER: the unused bits are zero. */
	if (u != 0 && (v->p[v->len - 1] & ((1u << u) - 1)) != 0)
		return VG_ERR_DECODE;
	bits->p = v->p + 1;
	bits->len = v->len - 1;
	if (unused != NULL)
		*unused = u;
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_bit_string(struct vg_der *cur, struct vg_der *bits,
    unsigned *unused)
{
	struct vg_der c = *cur, v;
	enum vg_err rc;

	rc = vg_der_get_tlv(&c, VG_DER_BIT_STRING, &v);
	if (rc == VG_OK)
		rc = bit_string_contents(&v, bits, unused);
	if (rc == VG_OK)
		*cur = c;
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_oid(struct vg_der *cur, struct vg_der *oid)
{
	struct vg_der c = *cur, v;
	enum vg_err rc;
	size_t i;

	rc = vg_der_get_tlv(&c, VG_DER_OID, &v);
	if (rc != VG_OK)
		return rc;
	if (v.len == 0 || (v.p[v.len - 1] & 0x80) != 0)
		return VG_ERR_DECODE;
	/* A sub-identifier does not start with 0x80 (a leading zero). */
	for (i = 0; i < v.len; i++)
		if (v.p[i] == 0x80 && (i == 0 || (v.p[i - 1] & 0x80) == 0))
			return VG_ERR_DECODE;
	*oid = v;
	*cur = c;
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_null(struct vg_der *cur)
{
	struct vg_der c = *cur, v;
	enum vg_err rc;

	rc = vg_der_get_tlv(&c, VG_DER_NULL, &v);
	if (rc == VG_OK && v.len != 0)
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		*cur = c;
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_get_optional(struct vg_der *cur, unsigned tag, struct vg_der *contents,
    int *present)
{
	enum vg_err rc;

	contents->p = NULL;
	contents->len = 0;
	*present = 0;
	if (vg_der_peek_tag(cur) != (int)tag)
		return VG_OK;
	rc = vg_der_get_tlv(cur, tag, contents);
	if (rc == VG_OK)
		*present = 1;
	return rc;
}

/* see crypto/der.h */
int
vg_der_oid_equal(const struct vg_der *a, const struct vg_der *b)
{
	if (a->len != b->len)
		return 0;
	return a->len == 0 || memcmp(a->p, b->p, a->len) == 0;
}

/* ------------------------------------------------------------- writer */

/* Number of length octets for len. */
static size_t
len_octets(size_t len)
{
	size_t n = 1;

	if (len >= 0x80)
		for (; len > 0; len >>= 8)
			n++;
	return n;
}

/* see crypto/der.h */
size_t
vg_der_put_header(uint8_t *out, unsigned tag, size_t len)
{
	size_t n, i;

	if (len > VG_DER_MAX_LEN)
		return 0;
	n = len_octets(len);
	if (out != NULL) {
		out[0] = (uint8_t)tag;
		if (n == 1) {
			out[1] = (uint8_t)len;
		} else {
			out[1] = (uint8_t)(0x80 | (n - 1));
			for (i = n; i > 1; i--, len >>= 8)
				out[i] = (uint8_t)len;
		}
	}
	return 1 + n;
}

/* see crypto/der.h */
size_t
vg_der_put_tlv(uint8_t *out, unsigned tag, const void *contents, size_t len)
{
	size_t h = vg_der_put_header(NULL, tag, len);

	if (h == 0)
		return 0;
	if (out != NULL) {
		if (len != 0)
			memmove(out + h, contents, len);
		vg_der_put_header(out, tag, len);
	}
	return h + len;
}

/* see crypto/der.h */
size_t
vg_der_put_integer(uint8_t *out, const void *mag, size_t len)
{
	const uint8_t *m = mag;
	size_t i = 0, rest, pad, h;

	while (i < len && m[i] == 0)
		i++;
	rest = len - i;
	if (rest == 0) {
		if (out != NULL) {
			out[0] = VG_DER_INTEGER;
			out[1] = 1;
			out[2] = 0;
		}
		return 3;
	}
	pad = m[i] >> 7;
	if (rest > VG_DER_MAX_LEN - pad)
		return 0;
	h = vg_der_put_header(NULL, VG_DER_INTEGER, pad + rest);
	if (out != NULL) {
		memmove(out + h + pad, m + i, rest);
		if (pad)
			out[h] = 0x00;
		vg_der_put_header(out, VG_DER_INTEGER, pad + rest);
	}
	return h + pad + rest;
}

/* see crypto/der.h */
size_t
vg_der_put_uint32(uint8_t *out, uint32_t v)
{
	uint8_t b[4];

	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
	return vg_der_put_integer(out, b, sizeof b);
}

/* see crypto/der.h */
size_t
vg_der_put_octet_string(uint8_t *out, const void *p, size_t len)
{
	return vg_der_put_tlv(out, VG_DER_OCTET_STRING, p, len);
}

/* see crypto/der.h */
size_t
vg_der_put_bit_string(uint8_t *out, const void *p, size_t len)
{
	size_t h;

	if (len > VG_DER_MAX_LEN - 1)
		return 0;
	h = vg_der_put_header(NULL, VG_DER_BIT_STRING, len + 1);
	if (out != NULL) {
		if (len != 0)
			memmove(out + h + 1, p, len);
		out[h] = 0; /* unused bits */
		vg_der_put_header(out, VG_DER_BIT_STRING, len + 1);
	}
	return h + 1 + len;
}

/* see crypto/der.h */
size_t
vg_der_put_oid(uint8_t *out, const struct vg_der *oid)
{
	return vg_der_put_tlv(out, VG_DER_OID, oid->p, oid->len);
}

/* see crypto/der.h */
size_t
vg_der_put_null(uint8_t *out)
{
	return vg_der_put_tlv(out, VG_DER_NULL, NULL, 0);
}

/* see crypto/der.h */
size_t
vg_der_put_sequence(uint8_t *out, size_t len)
{
	return vg_der_put_header(out, VG_DER_SEQUENCE, len);
}

/* ------------------------------------------------------ structures */

/* Size arithmetic of the builders: a put result (0 means too long) and
 * checked sums; *bad is set on any overflow. */
static size_t
need(size_t n, int *bad)
{
	if (n == 0)
		*bad = 1;
	return n;
}

static size_t
sum(size_t a, size_t b, int *bad)
{
	if (a > VG_DER_MAX_LEN || b > VG_DER_MAX_LEN - a) {
		*bad = 1;
		return 0;
	}
	return a + b;
}

/* Encoded length of a SEQUENCE (or other constructed tag) over body. */
static size_t
wrap_len(unsigned tag, size_t body, int *bad)
{
	return sum(need(vg_der_put_header(NULL, tag, body), bad), body, bad);
}

/*
 * The end of the size pass of a builder: reports the size in *outlen.
 * Returns 1 when the caller is to write (out is non-NULL and long enough),
 * else 0 with *rc the result: VG_OK (size only), VG_ERR_LENGTH or
 * VG_ERR_ARG (bad: an input too long).
 */
static int
room(const uint8_t *out, size_t *outlen, size_t total, int bad,
    enum vg_err *rc)
{
	size_t have = *outlen;

	*rc = VG_OK;
	if (bad) {
		*rc = VG_ERR_ARG;
		return 0;
	}
	*outlen = total;
	if (out != NULL && have < total)
		*rc = VG_ERR_LENGTH;
	return out != NULL && *rc == VG_OK;
}

/* A cursor is usable as builder input. */
static int
usable(const struct vg_der *x)
{
	return x->p != NULL || x->len == 0;
}

/* A complete encoding of exactly one element (or empty when allowed). */
static int
one_element(const struct vg_der *x, int empty_ok)
{
	struct vg_der c = *x, v;
	unsigned tag;

	if (!usable(x))
		return 0;
	if (x->len == 0)
		return empty_ok;
	return vg_der_get_any(&c, &tag, &v, NULL) == VG_OK && c.len == 0;
}

/* AlgorithmIdentifier, in the manner of the vg_der_put_* functions. */
static size_t
put_algid(uint8_t *out, const struct vg_der_algid *alg)
{
	size_t oid, body, total, h;
	int bad = 0;

	oid = need(vg_der_put_oid(NULL, &alg->oid), &bad);
	body = sum(oid, alg->params.len, &bad);
	total = wrap_len(VG_DER_SEQUENCE, body, &bad);
	if (bad)
		return 0;
	if (out != NULL) {
		h = vg_der_put_sequence(out, body);
		vg_der_put_oid(out + h, &alg->oid);
		if (alg->params.len != 0)
			memcpy(out + h + oid, alg->params.p, alg->params.len);
	}
	return total;
}

static int
algid_ok(const struct vg_der_algid *alg)
{
	return alg != NULL && alg->oid.len != 0 && usable(&alg->oid) &&
	    one_element(&alg->params, 1);
}

/* see crypto/der.h */
enum vg_err
vg_der_get_algid(struct vg_der *cur, struct vg_der_algid *alg)
{
	struct vg_der c = *cur, s, v;
	struct vg_der_algid a;
	unsigned tag;
	enum vg_err rc;

	memset(&a, 0, sizeof a);
	rc = vg_der_get_sequence(&c, &s);
	if (rc == VG_OK)
		rc = vg_der_get_oid(&s, &a.oid);
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = vg_der_get_any(&s, &tag, &v, &a.params);
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK) {
		*alg = a;
		*cur = c;
	}
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_spki(const void *in, size_t len, struct vg_der_algid *alg,
    struct vg_der *key)
{
	struct vg_der c = vg_der_make(in, len), s;
	enum vg_err rc;

	rc = vg_der_get_sequence(&c, &s);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_algid(&s, alg);
	if (rc == VG_OK)
		rc = vg_der_get_bit_string(&s, key, NULL);
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK) {
		memset(alg, 0, sizeof *alg);
		memset(key, 0, sizeof *key);
	}
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_spki(uint8_t *out, size_t *outlen, const struct vg_der_algid *alg,
    const void *key, size_t keylen)
{
	size_t a, body, total, w;
	enum vg_err rc;
	int bad = 0;

	if (outlen == NULL || !algid_ok(alg) || (key == NULL && keylen != 0))
		return VG_ERR_ARG;
	a = need(put_algid(NULL, alg), &bad);
	body = sum(a, need(vg_der_put_bit_string(NULL, key, keylen), &bad),
	    &bad);
	total = wrap_len(VG_DER_SEQUENCE, body, &bad);
	if (!room(out, outlen, total, bad, &rc))
		return rc;
	w = vg_der_put_sequence(out, body);
	w += put_algid(out + w, alg);
	vg_der_put_bit_string(out + w, key, keylen);
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_pkcs8(const void *in, size_t len, struct vg_der_pkcs8 *k)
{
	struct vg_der c = vg_der_make(in, len), s, v;
	int present;
	enum vg_err rc;

	memset(k, 0, sizeof *k);
	rc = vg_der_get_sequence(&c, &s);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_uint32(&s, &k->version);
	if (rc == VG_OK && k->version > 1)
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_algid(&s, &k->alg);
	if (rc == VG_OK)
		rc = vg_der_get_octet_string(&s, &k->key);
	/* attributes [0] IMPLICIT SET OF Attribute: skipped. */
	if (rc == VG_OK)
		rc = vg_der_get_optional(&s, VG_DER_CONTEXT(0), &v, &present);
	/* publicKey [1] IMPLICIT BIT STRING, only in version 1 (v2). */
	if (rc == VG_OK && k->version == 1) {
		rc = vg_der_get_optional(&s, VG_DER_CONTEXT_PRIM(1), &v,
		    &present);
		if (rc == VG_OK && present)
			rc = bit_string_contents(&v, &k->pub, NULL);
	}
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK)
		memset(k, 0, sizeof *k);
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_pkcs8(uint8_t *out, size_t *outlen,
    const struct vg_der_algid *alg, const void *key, size_t keylen)
{
	size_t body, total, w;
	enum vg_err rc;
	int bad = 0;

	if (outlen == NULL || !algid_ok(alg) || (key == NULL && keylen != 0))
		return VG_ERR_ARG;
	body = sum(vg_der_put_uint32(NULL, 0), need(put_algid(NULL, alg), &bad),
	    &bad);
	body = sum(body, need(vg_der_put_octet_string(NULL, key, keylen),
	    &bad), &bad);
	total = wrap_len(VG_DER_SEQUENCE, body, &bad);
	if (!room(out, outlen, total, bad, &rc))
		return rc;
	w = vg_der_put_sequence(out, body);
	w += vg_der_put_uint32(out + w, 0);
	w += put_algid(out + w, alg);
	vg_der_put_octet_string(out + w, key, keylen);
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_ec_params(const void *in, size_t len, enum vg_der_curve *curve,
    struct vg_der *oid)
{
	struct vg_der c = vg_der_make(in, len), v;
	enum vg_err rc;
	int tag = vg_der_peek_tag(&c);

	*curve = VG_DER_CURVE_UNKNOWN;
	if (oid != NULL)
		*oid = vg_der_make(NULL, 0);
	if (tag == (int)VG_DER_SEQUENCE) {
		/* specifiedCurve: explicit domain parameters. */
		rc = vg_der_get_sequence(&c, &v);
		if (rc == VG_OK)
			rc = vg_der_at_end(&c) ? VG_ERR_ARG : VG_ERR_DECODE;
		return rc;
	}
	if (tag == (int)VG_DER_NULL) {
		/* implicitCurve: inherited from a CA, never for keys. */
		rc = vg_der_get_null(&c);
		if (rc == VG_OK)
			rc = vg_der_at_end(&c) ? VG_ERR_ARG : VG_ERR_DECODE;
		return rc;
	}
	rc = vg_der_get_oid(&c, &v);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK)
		return rc;
	if (vg_der_oid_equal(&v, &vg_oid_prime256v1))
		*curve = VG_DER_CURVE_P256;
	if (oid != NULL)
		*oid = v;
	return VG_OK;
}

/* The PrintableString alphabet [X.680 §41.4]. */
static int
printable(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || (c != 0 && strchr(" '()+,-./:=?", c));
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_p11_ec_params(const void *in, size_t len,
    enum vg_der_curve *curve)
{
	static const char *const p256_names[] = { "prime256v1", "secp256r1",
		"P-256" };
	struct vg_der c = vg_der_make(in, len), v;
	enum vg_err rc;
	size_t i;

	if (vg_der_peek_tag(&c) != (int)VG_DER_PRINTABLE_STRING)
		return vg_der_parse_ec_params(in, len, curve, NULL);
	*curve = VG_DER_CURVE_UNKNOWN;
	rc = vg_der_get_tlv(&c, VG_DER_PRINTABLE_STRING, &v);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	for (i = 0; rc == VG_OK && i < v.len; i++)
		if (!printable(v.p[i]))
			rc = VG_ERR_DECODE;
	for (i = 0; rc == VG_OK && i < sizeof(p256_names) /
	    sizeof(p256_names[0]); i++)
		if (v.len == strlen(p256_names[i]) &&
		    memcmp(v.p, p256_names[i], v.len) == 0)
			*curve = VG_DER_CURVE_P256;
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_ec_params(uint8_t *out, size_t *outlen,
    const struct vg_der *curve_oid)
{
	enum vg_err rc;
	size_t total;
	int bad = 0;

	if (outlen == NULL || curve_oid == NULL || curve_oid->len == 0 ||
	    !usable(curve_oid))
		return VG_ERR_ARG;
	total = need(vg_der_put_oid(NULL, curve_oid), &bad);
	if (!room(out, outlen, total, bad, &rc))
		return rc;
	vg_der_put_oid(out, curve_oid);
	return VG_OK;
}

/* Reads a SEQUENCE of n unsigned INTEGERs, after an optional version
 * (want_version >= 0: an INTEGER that must equal it), covering all of
 * in. */
static enum vg_err
parse_int_seq(const void *in, size_t len, long want_version,
    struct vg_der *const *f, size_t n)
{
	struct vg_der c = vg_der_make(in, len), s;
	uint32_t version;
	enum vg_err rc;
	size_t i;

	rc = vg_der_get_sequence(&c, &s);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK && want_version >= 0) {
		rc = vg_der_get_uint32(&s, &version);
		if (rc == VG_OK && version != (uint32_t)want_version)
			rc = VG_ERR_DECODE;
	}
	for (i = 0; rc == VG_OK && i < n; i++)
		rc = vg_der_get_integer(&s, f[i], 0);
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK)
		for (i = 0; i < n; i++)
			*f[i] = vg_der_make(NULL, 0);
	return rc;
}

/* Writes a SEQUENCE of an optional version and n INTEGERs from
 * magnitudes. */
static enum vg_err
build_int_seq(uint8_t *out, size_t *outlen, long version,
    const struct vg_der *const *f, size_t n)
{
	size_t body = 0, total, w, i;
	enum vg_err rc;
	int bad = 0;

	if (outlen == NULL)
		return VG_ERR_ARG;
	for (i = 0; i < n; i++)
		if (!usable(f[i]))
			return VG_ERR_ARG;
	if (version >= 0)
		body = vg_der_put_uint32(NULL, (uint32_t)version);
	for (i = 0; i < n; i++)
		body = sum(body, need(vg_der_put_integer(NULL, f[i]->p,
		    f[i]->len), &bad), &bad);
	total = wrap_len(VG_DER_SEQUENCE, body, &bad);
	if (!room(out, outlen, total, bad, &rc))
		return rc;
	w = vg_der_put_sequence(out, body);
	if (version >= 0)
		w += vg_der_put_uint32(out + w, (uint32_t)version);
	for (i = 0; i < n; i++)
		w += vg_der_put_integer(out + w, f[i]->p, f[i]->len);
	return VG_OK;
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_rsa_public(const void *in, size_t len, struct vg_der_rsa_pub *k)
{
	struct vg_der *const f[2] = { &k->n, &k->e };

	return parse_int_seq(in, len, -1, f, 2);
}

/* see crypto/der.h */
enum vg_err
vg_der_build_rsa_public(uint8_t *out, size_t *outlen,
    const struct vg_der_rsa_pub *k)
{
	const struct vg_der *f[2];

	if (k == NULL)
		return VG_ERR_ARG;
	f[0] = &k->n, f[1] = &k->e;
	return build_int_seq(out, outlen, -1, f, 2);
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_rsa_private(const void *in, size_t len,
    struct vg_der_rsa_priv *k)
{
	struct vg_der *const f[8] = {
		&k->n, &k->e, &k->d, &k->p, &k->q, &k->dp, &k->dq, &k->qinv,
	};

	return parse_int_seq(in, len, 0, f, 8);
}

/* see crypto/der.h */
enum vg_err
vg_der_build_rsa_private(uint8_t *out, size_t *outlen,
    const struct vg_der_rsa_priv *k)
{
	const struct vg_der *f[8];

	if (k == NULL)
		return VG_ERR_ARG;
	f[0] = &k->n, f[1] = &k->e, f[2] = &k->d, f[3] = &k->p;
	f[4] = &k->q, f[5] = &k->dp, f[6] = &k->dq, f[7] = &k->qinv;
	return build_int_seq(out, outlen, 0, f, 8);
}

/* see crypto/der.h */
enum vg_err
vg_der_parse_ec_private(const void *in, size_t len, struct vg_der_ec_priv *k)
{
	struct vg_der c = vg_der_make(in, len), s, v, inner;
	uint32_t version;
	unsigned tag;
	int present;
	enum vg_err rc;

	memset(k, 0, sizeof *k);
	rc = vg_der_get_sequence(&c, &s);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_uint32(&s, &version);
	if (rc == VG_OK && version != 1)
		rc = VG_ERR_DECODE;
	if (rc == VG_OK)
		rc = vg_der_get_octet_string(&s, &k->priv);
	if (rc == VG_OK)
		rc = vg_der_get_optional(&s, VG_DER_CONTEXT(0), &v, &present);
	if (rc == VG_OK && present) {
		rc = vg_der_get_any(&v, &tag, &inner, &k->params);
		if (rc == VG_OK && !vg_der_at_end(&v))
			rc = VG_ERR_DECODE;
	}
	if (rc == VG_OK)
		rc = vg_der_get_optional(&s, VG_DER_CONTEXT(1), &v, &present);
	if (rc == VG_OK && present) {
		rc = vg_der_get_bit_string(&v, &k->pub, NULL);
		if (rc == VG_OK && !vg_der_at_end(&v))
			rc = VG_ERR_DECODE;
	}
	if (rc == VG_OK && !vg_der_at_end(&s))
		rc = VG_ERR_DECODE;
	if (rc != VG_OK)
		memset(k, 0, sizeof *k);
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_ec_private(uint8_t *out, size_t *outlen,
    const struct vg_der_ec_priv *k)
{
	size_t body, bits = 0, total, w;
	enum vg_err rc;
	int bad = 0;

	if (outlen == NULL || k == NULL || !usable(&k->priv) ||
	    !one_element(&k->params, 1) || !usable(&k->pub))
		return VG_ERR_ARG;
	body = sum(vg_der_put_uint32(NULL, 1),
	    need(vg_der_put_octet_string(NULL, k->priv.p, k->priv.len), &bad),
	    &bad);
	if (k->params.len != 0)
		body = sum(body, wrap_len(VG_DER_CONTEXT(0), k->params.len,
		    &bad), &bad);
	if (k->pub.len != 0) {
		bits = need(vg_der_put_bit_string(NULL, k->pub.p, k->pub.len),
		    &bad);
		body = sum(body, wrap_len(VG_DER_CONTEXT(1), bits, &bad),
		    &bad);
	}
	total = wrap_len(VG_DER_SEQUENCE, body, &bad);
	if (!room(out, outlen, total, bad, &rc))
		return rc;
	w = vg_der_put_sequence(out, body);
	w += vg_der_put_uint32(out + w, 1);
	w += vg_der_put_octet_string(out + w, k->priv.p, k->priv.len);
	if (k->params.len != 0)
		w += vg_der_put_tlv(out + w, VG_DER_CONTEXT(0), k->params.p,
		    k->params.len);
	if (k->pub.len != 0) {
		w += vg_der_put_header(out + w, VG_DER_CONTEXT(1), bits);
		vg_der_put_bit_string(out + w, k->pub.p, k->pub.len);
	}
	return VG_OK;
}

/* ------------------------------------------------------ OIDs */

#define OID(name, ...) \
	static const uint8_t name##_octets[] = { __VA_ARGS__ }; \
	const struct vg_der vg_oid_##name = { name##_octets, \
	    sizeof name##_octets }

/* 1.2.840.113549.1.1.1, 1.2.840.10045.2.1, 1.2.840.10045.3.1.7 */
OID(rsa_encryption, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01);
OID(ec_public_key, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01);
OID(prime256v1, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07);

/* 2.16.840.1.101.3.4.3.x: sigAlgs, FIPS 204 */
#define NIST_SIG 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03
OID(ml_dsa_44, NIST_SIG, 0x11);
OID(ml_dsa_65, NIST_SIG, 0x12);
OID(ml_dsa_87, NIST_SIG, 0x13);

/* 2.16.840.1.101.3.4.4.x: kems, FIPS 203 */
#define NIST_KEM 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04
OID(ml_kem_512, NIST_KEM, 0x01);
OID(ml_kem_768, NIST_KEM, 0x02);
OID(ml_kem_1024, NIST_KEM, 0x03);

/* 1.3.14.3.2.26 and 2.16.840.1.101.3.4.2.x: hashAlgs */
OID(sha1, 0x2b, 0x0e, 0x03, 0x02, 0x1a);
#define NIST_HASH 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02
OID(sha256, NIST_HASH, 0x01);
OID(sha384, NIST_HASH, 0x02);
OID(sha512, NIST_HASH, 0x03);
OID(sha224, NIST_HASH, 0x04);
OID(sha512_224, NIST_HASH, 0x05);
OID(sha512_256, NIST_HASH, 0x06);
OID(sha3_224, NIST_HASH, 0x07);
OID(sha3_256, NIST_HASH, 0x08);
OID(sha3_384, NIST_HASH, 0x09);
OID(sha3_512, NIST_HASH, 0x0a);
OID(shake128, NIST_HASH, 0x0b);
OID(shake256, NIST_HASH, 0x0c);
