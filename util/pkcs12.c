/*
 * vgtoken-util: PKCS#12 (PFX) files [RFC 7292], in password integrity
 * and password privacy modes, as OpenSSL 3 writes them by default: a MAC
 * with HMAC-SHA-256 under the PKCS#12 key derivation (2048 iterations),
 * certificates in a PBES2/AES-256-CBC encrypted ContentInfo, and the key
 * in a PBES2 shrouded key bag. Also read: MACs with SHA-1 and the other
 * SHA-2 digests, PBMAC1 MACs [RFC 9579], files without a MAC, plain key
 * bags, nested SafeContents. Refused with a message naming the
 * algorithm: the legacy 3DES, RC2 and RC4 PBEs (OpenSSL's -legacy), and
 * the public-key modes.
 *
 * Structure [RFC 7292 §4]:
 *   PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo,
 *                      macData MacData OPTIONAL }
 *   authSafe: data, an OCTET STRING holding
 *   AuthenticatedSafe ::= SEQUENCE OF ContentInfo, each data (a
 *     SafeContents in an OCTET STRING) or encryptedData (an encrypted
 *     SafeContents)
 *   SafeContents ::= SEQUENCE OF SafeBag
 *   SafeBag ::= SEQUENCE { bagId OID, bagValue [0] EXPLICIT ANY,
 *                          bagAttributes SET OPTIONAL }
 *
 * Every decrypted buffer is wiped before it is freed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "token/token.h"
#include "util/util.h"

#define OID(...) { (const uint8_t[]){ __VA_ARGS__ }, \
	sizeof((const uint8_t[]){ __VA_ARGS__ }) }
#define PKCS7(n) OID(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, n)
#define BAG(n) OID(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, \
	0x01, n)

static const struct vg_der oid_data = PKCS7(1);
static const struct vg_der oid_signed_data = PKCS7(2);
static const struct vg_der oid_enveloped_data = PKCS7(3);
static const struct vg_der oid_encrypted_data = PKCS7(6);
static const struct vg_der oid_key_bag = BAG(1);
static const struct vg_der oid_shrouded_key_bag = BAG(2);
static const struct vg_der oid_cert_bag = BAG(3);
static const struct vg_der oid_safe_contents_bag = BAG(6);
/* x509Certificate 1.2.840.113549.1.9.22.1 */
static const struct vg_der oid_x509_cert = OID(0x2a, 0x86, 0x48, 0x86,
	0xf7, 0x0d, 0x01, 0x09, 0x16, 0x01);

/* SafeContents inside SafeContents, at most this deep. */
#define MAX_DEPTH 4

/* What one reading needs. */
struct p12 {
	const char *path;
	struct vg_util_opts *o;
	vg_util_bag_fn *fn;
	void *ctx;
	int mac_checked;               /* the MAC proved the passphrase */
	unsigned skipped;              /* bags of other kinds */
};

/* ------------------------------------------------------------- the MAC */

/* The code point of the well-formed UTF-8 sequence at p in *cp, and its
 * length (1 ... 4); 0 when the bytes there are not one. */
static size_t
utf8_next(const uint8_t *p, size_t left, uint32_t *cp)
{
	size_t n, i;

	n = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
	    : p[0] >= 0xe0 && p[0] <= 0xef ? 3
	    : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	if (n == 0 || n > left)
		return 0;
	*cp = n == 1 ? p[0] : p[0] & (0x7fu >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

/* The passphrase as a BMPString with its two-byte terminator [RFC 7292
 * App. B.1], for the PKCS#12 key derivation: UTF-16BE of the UTF-8
 * bytes, or, if they are not UTF-8, each byte as a code point (as OpenSSL
 * falls back to). out has room for 2 * len + 2 bytes; returns the
 * length. */
static size_t
bmp_password(const uint8_t *pw, size_t len, uint8_t *out)
{
	size_t i, k = 1, n = 0;
	uint32_t cp = 0;

	for (i = 0; i < len && k != 0; i += k) {
		k = utf8_next(pw + i, len - i, &cp);
		if (cp >= 0x10000) {
			/* a surrogate pair: 4 bytes out for 4 in */
			cp -= 0x10000;
			out[n++] = (uint8_t)(0xd8 | (cp >> 18));
			out[n++] = (uint8_t)(cp >> 10);
			cp = 0xdc00 | (cp & 0x3ff);
		}
		out[n++] = (uint8_t)(cp >> 8);
		out[n++] = (uint8_t)cp;
	}
	if (k == 0) {
		for (i = 0, n = 0; i < len; i++) {
			out[n++] = 0;
			out[n++] = pw[i];
		}
	}
	out[n++] = 0;
	out[n++] = 0;
	vg_wipe(&cp, sizeof(cp));
	return n;
}

/* The PKCS#12 key derivation [RFC 7292 App. B.2]: n bytes (at most 64)
 * for purpose id (3: the MAC key) from the BMPString pw. Returns 0, or
 * -1 when out of memory. CT: only the lengths and iterations. */
static int
p12_kdf(enum vg_hash_alg h, const uint8_t *pw, size_t pwlen,
    const uint8_t *salt, size_t saltlen, uint8_t id, uint32_t iter,
    uint8_t *out, size_t n)
{
	size_t u = vg_hash_len(h), v = vg_hash_block_len(h);
	size_t slen = saltlen == 0 ? 0 : v * ((saltlen + v - 1) / v);
	size_t plen = pwlen == 0 ? 0 : v * ((pwlen + v - 1) / v);
	size_t ilen = slen + plen, i, j, take;
	uint8_t d[128], a[VG_HASH_MAX_LEN], b[128], *ib;
	struct vg_hash ctx;
	uint32_t c, r;

	ib = malloc(ilen + 1);
	if (ib == NULL)
		n = 0;
	for (i = 0; ib != NULL && i < slen; i++)
		ib[i] = salt[i % saltlen];
	for (i = 0; ib != NULL && i < plen; i++)
		ib[slen + i] = pw[i % pwlen];
	memset(d, id, v);
	while (n > 0) {
		/* A = H^iter(D || I) */
		vg_hash_init(&ctx, h);
		vg_hash_update(&ctx, d, v);
		vg_hash_update(&ctx, ib, ilen);
		vg_hash_final(&ctx, a);
		for (r = 1; r < iter; r++)
			vg_hash(h, a, u, a);
		take = n < u ? n : u;
		memcpy(out, a, take);
		out += take;
		n -= take;
		if (n == 0)
			break;
		/* I_j = (I_j + B + 1) mod 2^(8v), B = A repeated */
		for (i = 0; i < v; i++)
			b[i] = a[i % u];
		for (j = 0; j < ilen; j += v) {
			c = 1;
			for (i = v; i-- > 0;) {
				c += (uint32_t)ib[j + i] + b[i];
				ib[j + i] = (uint8_t)c;
				c >>= 8;
			}
		}
	}
	if (ib != NULL)
		vg_wipe(ib, ilen + 1);
	free(ib);
	vg_wipe(a, sizeof(a));
	vg_wipe(b, sizeof(b));
	return ib != NULL ? 0 : -1;
}

/* The passphrase (asked for once, when first needed). */
static const struct vg_util_pin *
passphrase(struct p12 *x)
{
	return vg_util_passphrase(x->o, x->path) == 0 ? &x->o->passphrase
						       : NULL;
}

/* HMAC-hash of data under key, compared with the MAC in the file. */
static int
mac_matches(enum vg_hash_alg h, const uint8_t *key, size_t keylen,
    const struct vg_der *data, const struct vg_der *mac)
{
	struct vg_hmac m;

	if (mac->len != vg_hash_len(h))
		return 0;
	vg_hmac_init(&m, h, key, keylen);
	vg_hmac_update(&m, data->p, data->len);
	return vg_hmac_verify(&m, mac->p, mac->len) == VG_OK;
}

/* PBMAC1 [RFC 9579]: PBKDF2 of the UTF-8 passphrase, then HMAC with the
 * messageAuthScheme; the MacData salt and iterations are not used. */
static int
check_pbmac1(struct p12 *x, const struct vg_der *params,
    const struct vg_der *data, const struct vg_der *mac)
{
	struct vg_der cur = *params, seq;
	struct vg_der_algid kdf, scheme;
	struct vg_util_pbkdf2 k;
	const struct vg_util_pin *pw;
	uint8_t key[64];
	const char *name;
	int hash = 0, rc = -1;

	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_algid(&seq, &kdf) != VG_OK ||
	    vg_der_get_algid(&seq, &scheme) != VG_OK || !vg_der_at_end(&seq)) {
		vg_util_err("%s: malformed PBMAC1 parameters", x->path);
		goto out;
	}
	if (vg_util_alg(&kdf.oid, &name, &hash) != VG_UTIL_ALG_PBKDF2) {
		vg_util_err_alg(x->path, "the MAC is keyed", &kdf.oid, 1);
		goto out;
	}
	if (vg_util_alg(&scheme.oid, &name, &hash) != VG_UTIL_ALG_PRF) {
		vg_util_err_alg(x->path, "the MAC is computed", &scheme.oid, 1);
		goto out;
	}
	if (vg_util_pbkdf2_params(x->path, &kdf.params, &k) != 0)
		goto out;
	if (k.key_len == 0 || k.key_len > sizeof(key)) {
		vg_util_err("%s: PBMAC1 with a key length of %lu", x->path,
		    (unsigned long)k.key_len);
		goto out;
	}
	pw = passphrase(x);
	if (pw == NULL)
		goto out;
	vg_util_progress_start("checking the passphrase");
	if (vg_pbkdf2_hmac((enum vg_hash_alg)k.hash, pw->v, pw->len, k.salt.p,
	    k.salt.len, k.iterations, key, k.key_len) == VG_OK)
		rc = mac_matches((enum vg_hash_alg)hash, key, k.key_len, data,
		    mac) ? 0 : -2;
	vg_util_progress_stop();
out:
	vg_wipe(key, sizeof(key));
	return rc;
}

/* HMAC with the PKCS#12 key derivation [RFC 7292 §5]. OpenSSL tries an
 * empty passphrase both with and without the BMPString terminator: so
 * does this. */
static int
check_p12_mac(struct p12 *x, enum vg_hash_alg h, const struct vg_der *salt,
    uint32_t iter, const struct vg_der *data, const struct vg_der *mac)
{
	const struct vg_util_pin *pw = passphrase(x);
	uint8_t key[VG_HASH_MAX_LEN], *bmp = NULL;
	size_t bmp_len = 0, klen = vg_hash_len(h);
	int rc = -1, ok = 0;

	if (pw == NULL)
		goto out;
	bmp = vg_secmem_alloc(2 * VG_UTIL_PIN_MAX + 2);
	if (bmp == NULL) {
		vg_util_err("out of memory");
		goto out;
	}
	bmp_len = bmp_password((const uint8_t *)pw->v, pw->len, bmp);
	vg_util_progress_start("checking the passphrase");
	if (p12_kdf(h, bmp, bmp_len, salt->p, salt->len, 3, iter, key,
	    klen) == 0)
		ok = mac_matches(h, key, klen, data, mac);
	if (!ok && pw->len == 0 &&
	    p12_kdf(h, bmp, 0, salt->p, salt->len, 3, iter, key, klen) == 0)
		ok = mac_matches(h, key, klen, data, mac);
	vg_util_progress_stop();
	rc = ok ? 0 : -2;
out:
	vg_wipe(key, sizeof(key));
	vg_secmem_free(bmp, 2 * VG_UTIL_PIN_MAX + 2);
	return rc;
}

/* MacData ::= SEQUENCE { mac DigestInfo, macSalt OCTET STRING,
 * iterations INTEGER DEFAULT 1 }; DigestInfo ::= SEQUENCE {
 * digestAlgorithm AlgorithmIdentifier, digest OCTET STRING }. */
static int
check_mac(struct p12 *x, const struct vg_der *macdata,
    const struct vg_der *data)
{
	struct vg_der cur = *macdata, di, mac, salt;
	struct vg_der_algid alg;
	uint32_t iter = 1;
	const char *name;
	int hash = 0, kind, rc = -1;

	if (vg_der_get_sequence(&cur, &di) != VG_OK ||
	    vg_der_get_algid(&di, &alg) != VG_OK ||
	    vg_der_get_octet_string(&di, &mac) != VG_OK ||
	    !vg_der_at_end(&di) ||
	    vg_der_get_octet_string(&cur, &salt) != VG_OK ||
	    (vg_der_peek_tag(&cur) == VG_DER_INTEGER &&
	    vg_der_get_uint32(&cur, &iter) != VG_OK) ||
	    !vg_der_at_end(&cur) || iter == 0) {
		vg_util_err("%s: malformed PKCS#12 MAC", x->path);
		goto out;
	}
	kind = vg_util_alg(&alg.oid, &name, &hash);
	if (kind == VG_UTIL_ALG_DIGEST && iter <= 100000000u) {
		rc = check_p12_mac(x, (enum vg_hash_alg)hash, &salt, iter, data,
		    &mac);
	} else if (kind == VG_UTIL_ALG_PBMAC1) {
		rc = check_pbmac1(x, &alg.params, data, &mac);
	} else if (kind == VG_UTIL_ALG_DIGEST) {
		vg_util_err("%s: a MAC with %lu iterations: more than this "
		    "tool runs", x->path, (unsigned long)iter);
	} else {
		vg_util_err_alg(x->path, "the file's MAC is computed",
		    &alg.oid, 1);
	}
	if (rc == -2)
		vg_util_err("%s: wrong passphrase (the file's MAC does not "
		    "match)", x->path);
	x->mac_checked = rc == 0;
out:
	return rc == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ the bags */

static int read_safe_contents(struct p12 *x, const struct vg_der *sc,
    int depth);

/* "wrong passphrase" when no MAC proved it right, else "damaged". */
static void
err_decrypt(const struct p12 *x, const char *what)
{
	if (x->mac_checked)
		vg_util_err("%s: %s does not decrypt (a damaged file?)",
		    x->path, what);
	else
		vg_util_err("%s: wrong passphrase (%s does not decrypt)",
		    x->path, what);
}

/* EncryptedPrivateKeyInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET
 * STRING } [RFC 5958 §3], decrypted and handed on. */
static int
shrouded_key(struct p12 *x, const struct vg_der *v)
{
	struct vg_der cur = *v, seq, ct, check;
	struct vg_der_algid alg;
	struct vg_der_pkcs8 k;
	const struct vg_util_pin *pw;
	uint8_t *pt = NULL;
	size_t pt_len = 0;
	int rc = -1;

	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_algid(&seq, &alg) != VG_OK ||
	    vg_der_get_octet_string(&seq, &ct) != VG_OK ||
	    !vg_der_at_end(&seq)) {
		vg_util_err("%s: malformed shrouded key bag", x->path);
		goto out;
	}
	pw = passphrase(x);
	if (pw == NULL)
		goto out;
	rc = vg_util_pbe_decrypt(x->path, "the key is encrypted", 1, &alg,
	    ct.p, ct.len, pw, &pt, &pt_len);
	check = vg_der_make(pt, pt_len);
	if (rc == -2 || (rc == 0 && (vg_der_get_sequence(&check, &seq) !=
	    VG_OK || !vg_der_at_end(&check) ||
	    vg_der_parse_pkcs8(pt, pt_len, &k) != VG_OK))) {
		err_decrypt(x, "the key");
		rc = -1;
	}
	if (rc == 0)
		rc = x->fn(x->ctx, 1, pt, pt_len);
out:
	if (pt != NULL)
		vg_wipe(pt, pt_len);
	free(pt);
	return rc;
}

/* CertBag ::= SEQUENCE { certId OID, certValue [0] EXPLICIT OCTET
 * STRING } for x509Certificate. */
static int
cert_bag(struct p12 *x, const struct vg_der *v)
{
	struct vg_der cur = *v, seq, id, val, cert;
	int rc = -1;

	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_oid(&seq, &id) != VG_OK ||
	    vg_der_get_tlv(&seq, VG_DER_CONTEXT(0), &val) != VG_OK ||
	    !vg_der_at_end(&seq)) {
		vg_util_err("%s: malformed certificate bag", x->path);
	} else if (!vg_der_oid_equal(&id, &oid_x509_cert)) {
		x->skipped++; /* an SDSI certificate */
		rc = 0;
	} else if (vg_der_get_octet_string(&val, &cert) != VG_OK ||
	    !vg_der_at_end(&val)) {
		vg_util_err("%s: malformed certificate bag", x->path);
	} else {
		rc = x->fn(x->ctx, 0, cert.p, cert.len);
	}
	return rc;
}

/* One SafeBag. */
static int
safe_bag(struct p12 *x, struct vg_der *cur, int depth)
{
	struct vg_der seq, id, v, attrs;
	int rc = -1;

	if (vg_der_get_sequence(cur, &seq) != VG_OK ||
	    vg_der_get_oid(&seq, &id) != VG_OK ||
	    vg_der_get_tlv(&seq, VG_DER_CONTEXT(0), &v) != VG_OK ||
	    (vg_der_peek_tag(&seq) == VG_DER_SET &&
	    vg_der_get_tlv(&seq, VG_DER_SET, &attrs) != VG_OK) ||
	    !vg_der_at_end(&seq)) {
		vg_util_err("%s: malformed PKCS#12 bag", x->path);
	} else if (vg_der_oid_equal(&id, &oid_key_bag)) {
		rc = x->fn(x->ctx, 1, v.p, v.len);
	} else if (vg_der_oid_equal(&id, &oid_shrouded_key_bag)) {
		rc = shrouded_key(x, &v);
	} else if (vg_der_oid_equal(&id, &oid_cert_bag)) {
		rc = cert_bag(x, &v);
	} else if (vg_der_oid_equal(&id, &oid_safe_contents_bag)) {
		rc = read_safe_contents(x, &v, depth + 1);
	} else {
		x->skipped++; /* CRL and secret bags */
		rc = 0;
	}
	return rc;
}

/* SafeContents ::= SEQUENCE OF SafeBag (sc is the complete encoding). */
static int
read_safe_contents(struct p12 *x, const struct vg_der *sc, int depth)
{
	struct vg_der cur = *sc, bags;
	int rc = 0;

	if (depth > MAX_DEPTH || vg_der_get_sequence(&cur, &bags) != VG_OK ||
	    !vg_der_at_end(&cur)) {
		vg_util_err("%s: malformed PKCS#12 contents", x->path);
		rc = -1;
	}
	while (rc == 0 && !vg_der_at_end(&bags))
		rc = safe_bag(x, &bags, depth);
	return rc;
}

/* EncryptedData ::= SEQUENCE { version INTEGER, EncryptedContentInfo ::=
 * SEQUENCE { contentType OID, contentEncryptionAlgorithm
 * AlgorithmIdentifier, encryptedContent [0] IMPLICIT OCTET STRING } }
 * [RFC 5652 §8]. */
static int
encrypted_data(struct p12 *x, const struct vg_der *v)
{
	struct vg_der cur = *v, seq, eci, type, ct, check, inner;
	struct vg_der_algid alg;
	const struct vg_util_pin *pw;
	uint32_t version;
	uint8_t *pt = NULL;
	size_t pt_len = 0;
	int rc = -1;

	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_uint32(&seq, &version) != VG_OK ||
	    vg_der_get_sequence(&seq, &eci) != VG_OK ||
	    vg_der_get_oid(&eci, &type) != VG_OK ||
	    vg_der_get_algid(&eci, &alg) != VG_OK ||
	    vg_der_get_tlv(&eci, VG_DER_CONTEXT_PRIM(0), &ct) != VG_OK ||
	    !vg_der_at_end(&eci)) {
		vg_util_err("%s: malformed encrypted PKCS#12 contents "
		    "(or not DER)", x->path);
		goto out;
	}
	pw = passphrase(x);
	if (pw == NULL)
		goto out;
	rc = vg_util_pbe_decrypt(x->path, "the certificates are encrypted",
	    1, &alg, ct.p, ct.len, pw, &pt, &pt_len);
	check = vg_der_make(pt, pt_len);
	if (rc == -2 || (rc == 0 && (vg_der_get_sequence(&check, &inner) !=
	    VG_OK || !vg_der_at_end(&check)))) {
		err_decrypt(x, "the encrypted part");
		rc = -1;
	}
	if (rc == 0) {
		check = vg_der_make(pt, pt_len);
		rc = read_safe_contents(x, &check, 0);
	}
out:
	if (pt != NULL)
		vg_wipe(pt, pt_len);
	free(pt);
	return rc;
}

/* ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT }
 * [RFC 5652 §3]: *type and *content. */
static int
content_info(struct vg_der *cur, struct vg_der *type, struct vg_der *content)
{
	struct vg_der seq;

	return vg_der_get_sequence(cur, &seq) == VG_OK &&
	    vg_der_get_oid(&seq, type) == VG_OK &&
	    vg_der_get_tlv(&seq, VG_DER_CONTEXT(0), content) == VG_OK &&
	    vg_der_at_end(&seq) ? 0 : -1;
}

/* AuthenticatedSafe ::= SEQUENCE OF ContentInfo. */
static int
read_auth_safe(struct p12 *x, const struct vg_der *as)
{
	struct vg_der cur = *as, seq, type, content, sc;
	int rc = 0;

	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur)) {
		vg_util_err("%s: malformed PKCS#12 contents", x->path);
		rc = -1;
	}
	while (rc == 0 && !vg_der_at_end(&seq)) {
		if (content_info(&seq, &type, &content) != 0) {
			vg_util_err("%s: malformed PKCS#12 contents", x->path);
			rc = -1;
		} else if (vg_der_oid_equal(&type, &oid_data) &&
		    (vg_der_get_octet_string(&content, &sc) != VG_OK ||
		    !vg_der_at_end(&content))) {
			vg_util_err("%s: malformed PKCS#12 contents", x->path);
			rc = -1;
		} else if (vg_der_oid_equal(&type, &oid_data)) {
			rc = read_safe_contents(x, &sc, 0);
		} else if (vg_der_oid_equal(&type, &oid_encrypted_data)) {
			rc = encrypted_data(x, &content);
		} else if (vg_der_oid_equal(&type, &oid_enveloped_data)) {
			vg_util_err("%s: part of the file is encrypted to a "
			    "certificate (public-key privacy mode): not "
			    "supported", x->path);
			rc = -1;
		} else {
			x->skipped++;
		}
	}
	return rc;
}

/* see util/util.h */
int
vg_util_pkcs12_is(const uint8_t *der, size_t len)
{
	struct vg_der cur = vg_der_make(der, len), pfx, type, content;
	uint32_t version;

	return vg_der_get_sequence(&cur, &pfx) == VG_OK &&
	    vg_der_get_uint32(&pfx, &version) == VG_OK && version == 3 &&
	    content_info(&pfx, &type, &content) == 0;
}

/* see util/util.h */
int
vg_util_pkcs12_read(const char *path, const uint8_t *der, size_t len,
    struct vg_util_opts *o, vg_util_bag_fn *fn, void *ctx)
{
	struct p12 x = { path, o, fn, ctx, 0, 0 };
	struct vg_der cur = vg_der_make(der, len), pfx, type, content, as;
	struct vg_der macdata = { NULL, 0 };
	uint32_t version;
	int has_mac = 0, rc = -1;

	if (vg_der_get_sequence(&cur, &pfx) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_uint32(&pfx, &version) != VG_OK || version != 3 ||
	    content_info(&pfx, &type, &content) != 0 ||
	    vg_der_get_optional(&pfx, VG_DER_SEQUENCE, &macdata, &has_mac) !=
	    VG_OK || !vg_der_at_end(&pfx)) {
		vg_util_err("%s: malformed PKCS#12 file (or not DER)", path);
		goto out;
	}
	if (vg_der_oid_equal(&type, &oid_signed_data)) {
		vg_util_err("%s: the PKCS#12 file is signed (public-key "
		    "integrity mode): not supported", path);
		goto out;
	}
	if (!vg_der_oid_equal(&type, &oid_data) ||
	    vg_der_get_octet_string(&content, &as) != VG_OK ||
	    !vg_der_at_end(&content)) {
		vg_util_err("%s: malformed PKCS#12 file", path);
		goto out;
	}
	/* The MAC first: it tells a wrong passphrase from a damaged
	 * file before anything is decrypted. */
	if (has_mac && check_mac(&x, &macdata, &as) != 0)
		goto out;
	rc = read_auth_safe(&x, &as);
	if (rc == 0 && x.skipped != 0)
		printf("%s: %u PKCS#12 item(s) that are neither keys nor X.509 "
		    "certificates skipped\n", path, x.skipped);
out:
	return rc;
}
