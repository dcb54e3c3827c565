/*
 * Fuzz target "der": the parsers of untrusted encodings in crypto/ that
 * key import, C_CreateObject, C_DeriveKey and C_UnwrapKey reach: the DER
 * reader and its key structures (SubjectPublicKeyInfo, PKCS #8,
 * ECParameters, the Curve25519/448 forms of CKA_EC_PARAMS, PKCS #1 RSA
 * keys, ECPrivateKey, ML-DSA-PrivateKey), ECDSA signatures in DER, SEC1
 * points, base64 and PEM. Every input goes through every parser, and a
 * PKCS #8 key's contents through the parser of its algorithm.
 *
 * Oracles besides the sanitizers: the reader's contract (an element lies
 * within its input, a failed read leaves the cursor unchanged) and
 * round trips: DER is canonical, so whatever a strict parser accepts its
 * builder must give back byte for byte (or, where the builder drops
 * optional parts, give a structure that parses to the same fields), and
 * what the PEM and base64 decoders accept must survive encoding again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "tests/fuzz/fuzz.h"

static void
same(const void *a, size_t alen, const void *b, size_t blen, const char *what)
{
	if (alen != blen || (alen != 0 && memcmp(a, b, alen) != 0))
		vg_fz_fail("%s: round trip differs (%zu vs %zu bytes)", what,
		    alen, blen);
}

static void
same_der(const struct vg_der *a, const struct vg_der *b, const char *what)
{
	same(a->p, a->len, b->p, b->len, what);
}

/* The element read from *before must lie inside it, contents inside the
 * whole encoding, and the cursor must have moved past exactly it. */
static void
check_read(const struct vg_der *before, const struct vg_der *after,
    const struct vg_der *contents, const struct vg_der *whole)
{
	if (whole->p != before->p || whole->len > before->len ||
	    after->p != before->p + whole->len ||
	    after->len != before->len - whole->len)
		vg_fz_fail("get_any: cursor and element disagree");
	if (contents->len > whole->len ||
	    (contents->len != 0 && (contents->p < whole->p ||
	    contents->p + contents->len != whole->p + whole->len)))
		vg_fz_fail("get_any: contents outside the element");
}

static void
unchanged(const struct vg_der *before, const struct vg_der *after,
    const char *what)
{
	if (before->p != after->p || before->len != after->len)
		vg_fz_fail("%s: failed read moved the cursor", what);
}

/* Each typed getter on one element; on failure the cursor stays. */
static void
typed_getters(const struct vg_der *whole)
{
	struct vg_der c, out;
	unsigned unused;
	uint32_t v;
	int present;

#define TRY(call, name)                                                     \
	do {                                                                \
		c = *whole;                                                 \
		if ((call) != VG_OK)                                        \
			unchanged(whole, &c, name);                         \
	} while (0)
	TRY(vg_der_get_integer(&c, &out, 0), "get_integer");
	TRY(vg_der_get_integer(&c, &out, VG_DER_INT_SIGNED), "get_integer");
	TRY(vg_der_get_uint32(&c, &v), "get_uint32");
	TRY(vg_der_get_octet_string(&c, &out), "get_octet_string");
	TRY(vg_der_get_bit_string(&c, &out, NULL), "get_bit_string");
	TRY(vg_der_get_bit_string(&c, &out, &unused), "get_bit_string");
	TRY(vg_der_get_oid(&c, &out), "get_oid");
	TRY(vg_der_get_null(&c), "get_null");
	TRY(vg_der_get_sequence(&c, &out), "get_sequence");
	TRY(vg_der_get_optional(&c, VG_DER_CONTEXT(0), &out, &present),
	    "get_optional");
#undef TRY
}

/* Reads every element at every level (nested up to depth 8). */
static void
walk(struct vg_der cur, int depth)
{
	while (!vg_der_at_end(&cur)) {
		struct vg_der before = cur, contents, whole;
		unsigned tag;

		if (vg_der_get_any(&cur, &tag, &contents, &whole) != VG_OK) {
			unchanged(&before, &cur, "get_any");
			break;
		}
		if ((int)tag != vg_der_peek_tag(&before))
			vg_fz_fail("peek_tag and get_any disagree");
		check_read(&before, &cur, &contents, &whole);
		typed_getters(&whole);
		if ((tag & 0x20u) != 0 && depth < 8)
			walk(contents, depth + 1);
	}
}

/* Builds with a size query first, then into an exact-size buffer. */
#define BUILD(pool, fn, args, outp, outlenp)                                 \
	do {                                                                \
		*(outlenp) = 0;                                             \
		if (fn(NULL, outlenp, args) != VG_OK)                       \
			vg_fz_fail(#fn ": size query failed");              \
		*(outp) = vg_fz_alloc(pool, *(outlenp));                    \
		if (*(outp) != NULL && fn(*(outp), outlenp, args) != VG_OK) \
			vg_fz_fail(#fn " failed");                          \
	} while (0)

static void
spki(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	struct vg_der_algid alg, alg2;
	struct vg_der key, key2;
	uint8_t *out;
	size_t len;

	if (vg_der_parse_spki(d, n, &alg, &key) != VG_OK)
		return;
	len = 0;
	if (vg_der_build_spki(NULL, &len, &alg, key.p, key.len) != VG_OK)
		vg_fz_fail("build_spki: size query failed");
	out = vg_fz_alloc(pool, len);
	if (out == NULL ||
	    vg_der_build_spki(out, &len, &alg, key.p, key.len) != VG_OK)
		return;
	same(d, n, out, len, "spki");
	if (vg_der_parse_spki(out, len, &alg2, &key2) != VG_OK)
		vg_fz_fail("spki: built one does not parse");
	same_der(&alg.oid, &alg2.oid, "spki oid");
}

/* ML-DSA-PrivateKey: each arm written back byte for byte. */
static void
mldsa_private(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	struct vg_der_mldsa_priv k, k2;
	uint8_t *out;
	size_t len = 0;

	if (vg_der_parse_mldsa_private(d, n, &k) != VG_OK)
		return;
	if ((k.seed.len != 0 && (k.seed.p < d || k.seed.p + k.seed.len >
	    d + n)) || (k.sk.len != 0 && (k.sk.p < d || k.sk.p + k.sk.len >
	    d + n)))
		vg_fz_fail("mldsa_private: a part outside the input");
	if (k.seed.len == 0 && k.sk.len == 0)
		return; /* empty arms: nothing the builder writes */
	if (vg_der_build_mldsa_private(NULL, &len, &k) != VG_OK)
		vg_fz_fail("build_mldsa_private: size query failed");
	out = vg_fz_alloc(pool, len);
	if (out == NULL || vg_der_build_mldsa_private(out, &len, &k) != VG_OK)
		return;
	if (vg_der_parse_mldsa_private(out, len, &k2) != VG_OK)
		vg_fz_fail("mldsa_private: built one does not parse");
	/* an arm with an empty part reads as the other arm */
	if (!(d[0] == 0x30 && (k.seed.len == 0 || k.sk.len == 0)))
		same(d, n, out, len, "mldsa_private");
	same_der(&k.seed, &k2.seed, "mldsa_private seed");
	same_der(&k.sk, &k2.sk, "mldsa_private key");
}

/* The Curve25519/448 names: a curve found gives its RFC 8410 OID, which
 * names it again (byte for byte when the input was that OID); an OID
 * names the curve that vg_der_ecx_of_oid and the X.509 parser see in
 * it, and nothing that names P-256 is taken for one of these. */
static void
ecx_params(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	enum vg_der_ecx which, again;
	enum vg_der_curve curve;
	struct vg_der oid;
	uint8_t *out;
	size_t len = 0;

	if (vg_der_parse_ecx_params(d, n, &which) != VG_OK)
		return;
	if (vg_der_parse_ec_params(d, n, &curve, &oid) == VG_OK &&
	    (vg_der_ecx_of_oid(&oid) != which ||
	    (curve == VG_DER_CURVE_P256 && which != VG_DER_ECX_NONE)))
		vg_fz_fail("ecx_params: the OID and the curve disagree");
	if (vg_der_parse_p11_ec_params(d, n, &curve) == VG_OK &&
	    curve == VG_DER_CURVE_P256 && which != VG_DER_ECX_NONE)
		vg_fz_fail("ecx_params: P-256 taken for curve %d", (int)which);
	if (which == VG_DER_ECX_NONE) {
		if (vg_der_build_ecx_params(NULL, &len, which) != VG_ERR_ARG)
			vg_fz_fail("build_ecx_params: no curve built");
		return;
	}
	BUILD(pool, vg_der_build_ecx_params, which, &out, &len);
	if (out == NULL)
		return;
	if (vg_der_parse_ecx_params(out, len, &again) != VG_OK ||
	    again != which)
		vg_fz_fail("ecx_params: built one names another curve");
	if (vg_der_parse_ec_params(d, n, &curve, &oid) == VG_OK &&
	    vg_der_oid_equal(&oid, vg_der_ecx_oid(which)))
		same(d, n, out, len, "ecx_params");
}

/* A PKCS #8 key of one of the curves' OIDs (vg_der_ecx_of_oid): that
 * OID as CKA_EC_PARAMS names the same curve. */
static void
ecx_private(const struct vg_der_pkcs8 *k)
{
	enum vg_der_ecx which = vg_der_ecx_of_oid(&k->alg.oid), again;
	uint8_t params[2 + 16];

	/* the OIDs of vg_der_ecx_of_oid are all short */
	if (k->alg.oid.len > sizeof(params) - 2)
		vg_fz_fail("ecx_private: an OID of %zu bytes names curve %d",
		    k->alg.oid.len, (int)which);
	params[0] = VG_DER_OID;
	params[1] = (uint8_t)k->alg.oid.len;
	memcpy(params + 2, k->alg.oid.p, k->alg.oid.len);
	if (vg_der_parse_ecx_params(params, 2 + k->alg.oid.len, &again) !=
	    VG_OK || again != which)
		vg_fz_fail("ecx_private: the OID names two curves");
}

static void
pkcs8(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	struct vg_der_pkcs8 k, k2;
	uint8_t *out;
	size_t len = 0;

	if (vg_der_parse_pkcs8(d, n, &k) != VG_OK)
		return;
	if (k.version > 1)
		vg_fz_fail("pkcs8: version %u accepted", (unsigned)k.version);
	if (vg_der_build_pkcs8(NULL, &len, &k.alg, k.key.p, k.key.len) !=
	    VG_OK)
		vg_fz_fail("build_pkcs8: size query failed");
	out = vg_fz_alloc(pool, len);
	if (out == NULL || vg_der_build_pkcs8(out, &len, &k.alg, k.key.p,
	    k.key.len) != VG_OK)
		return;
	if (vg_der_parse_pkcs8(out, len, &k2) != VG_OK)
		vg_fz_fail("pkcs8: built one does not parse");
	same_der(&k.alg.oid, &k2.alg.oid, "pkcs8 oid");
	same_der(&k.alg.params, &k2.alg.params, "pkcs8 params");
	same_der(&k.key, &k2.key, "pkcs8 key");
	/* Version 0 without attributes is exactly what the builder writes. */
	if (k.version == 0 && len == n)
		same(d, n, out, len, "pkcs8");
	if (vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_dsa_44) ||
	    vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_dsa_65) ||
	    vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_dsa_87) ||
	    vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_kem_512) ||
	    vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_kem_768) ||
	    vg_der_oid_equal(&k.alg.oid, &vg_oid_ml_kem_1024))
		mldsa_private(pool, k.key.p, k.key.len);
	if (vg_der_ecx_of_oid(&k.alg.oid) != VG_DER_ECX_NONE)
		ecx_private(&k);
}

static void
ec_params(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	enum vg_der_curve curve;
	struct vg_der oid;
	uint8_t *out;
	size_t len;

	/* the PKCS#11 form agrees with the X.509 one wherever that parses */
	if (vg_der_parse_p11_ec_params(d, n, &curve) == VG_OK &&
	    curve == VG_DER_CURVE_P256 && d[0] != VG_DER_PRINTABLE_STRING &&
	    (vg_der_parse_ec_params(d, n, &curve, &oid) != VG_OK ||
	    curve != VG_DER_CURVE_P256))
		vg_fz_fail("ec_params: the PKCS#11 and X.509 forms disagree");
	if (vg_der_parse_ec_params(d, n, &curve, &oid) != VG_OK)
		return;
	BUILD(pool, vg_der_build_ec_params, &oid, &out, &len);
	if (out != NULL)
		same(d, n, out, len, "ec_params");
}

static void
rsa_keys(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	struct vg_der_rsa_pub pub;
	struct vg_der_rsa_priv priv;
	uint8_t *out;
	size_t len;

	if (vg_der_parse_rsa_public(d, n, &pub) == VG_OK) {
		struct vg_rsa_pub *k = malloc(sizeof(*k));

		BUILD(pool, vg_der_build_rsa_public, &pub, &out, &len);
		if (out != NULL)
			same(d, n, out, len, "rsa_public");
		if (k != NULL && vg_rsa_pub_load(k, pub.n.p, pub.n.len,
		    pub.e.p, pub.e.len) == VG_OK)
			vg_rsa_pub_wipe(k);
		free(k);
	}
	if (vg_der_parse_rsa_private(d, n, &priv) == VG_OK) {
		BUILD(pool, vg_der_build_rsa_private, &priv, &out, &len);
		if (out != NULL)
			same(d, n, out, len, "rsa_private");
	}
}

static void
ec_private(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	struct vg_der_ec_priv k, k2;
	uint8_t *out;
	size_t len;

	if (vg_der_parse_ec_private(d, n, &k) != VG_OK)
		return;
	BUILD(pool, vg_der_build_ec_private, &k, &out, &len);
	if (out == NULL)
		return;
	if (vg_der_parse_ec_private(out, len, &k2) != VG_OK)
		vg_fz_fail("ec_private: built one does not parse");
	same_der(&k.priv, &k2.priv, "ec_private key");
	same_der(&k.params, &k2.params, "ec_private params");
	same_der(&k.pub, &k2.pub, "ec_private point");
}

static void
ecdsa_sig(const uint8_t *d, size_t n)
{
	uint8_t sig[VG_P256_SIG_LEN], der[VG_P256_SIG_DER_MAX];
	size_t len = sizeof(der);

	if (vg_p256_ecdsa_sig_from_der(sig, d, n) != VG_OK)
		return;
	if (vg_p256_ecdsa_sig_to_der(der, &len, sig) != VG_OK)
		vg_fz_fail("ecdsa_sig_to_der failed");
	same(d, n, der, len, "ecdsa signature");
}

static void
points(const uint8_t *d, size_t n)
{
	uint8_t out[VG_P256_POINT_LEN], c[VG_P256_POINT_COMPRESSED_LEN];
	uint8_t w[VG_P256_EC_POINT_LEN];
	struct vg_p256_pub pub;

	if (vg_p256_pub_decode(&pub, d, n) == VG_OK) {
		vg_p256_pub_encode(out, &pub);
		vg_p256_pub_encode_compressed(c, &pub);
		if (n == sizeof(out))
			same(d, n, out, sizeof(out), "p256 point");
		else
			same(d, n, c, sizeof(c), "p256 compressed point");
	}
	if (vg_p256_pub_decode_ec_point(&pub, d, n) == VG_OK) {
		vg_p256_pub_encode_ec_point(w, &pub);
		if (n == sizeof(w))
			same(d, n, w, sizeof(w), "p256 EC_POINT");
	}
}

static void
base64(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	size_t len = 0, len2, elen;
	uint8_t *out, *out2;
	char *enc;

	if (vg_base64_decode(NULL, &len, (const char *)d, n) != VG_OK)
		return;
	out = vg_fz_alloc(pool, len);
	if (out == NULL)
		return;
	if (vg_base64_decode(out, &len, (const char *)d, n) != VG_OK)
		vg_fz_fail("base64: size query and decoding disagree");
	elen = vg_base64_encoded_len(len);
	enc = vg_fz_alloc(pool, elen);
	out2 = vg_fz_alloc(pool, len);
	if (enc == NULL || out2 == NULL)
		return;
	vg_base64_encode(enc, out, len);
	len2 = len;
	if (vg_base64_decode(out2, &len2, enc, elen) != VG_OK)
		vg_fz_fail("base64: own encoding does not decode");
	same(out, len, out2, len2, "base64");
}

static void
pem(struct vg_fz_pool *pool, const uint8_t *d, size_t n)
{
	size_t pos = 0, blocks = 0;
	struct vg_pem b;

	while (blocks++ < 16 && vg_pem_next((const char *)d, n, &pos, &b) ==
	    VG_OK) {
		size_t len = 0, elen = 0, pos2 = 0, len2;
		uint8_t *der, *der2;
		char *label, *enc;
		struct vg_pem b2;

		if (pos > n || b.label < (const char *)d ||
		    b.label + b.label_len > (const char *)d + n ||
		    b.body + b.body_len > (const char *)d + n)
			vg_fz_fail("pem: block outside the text");
		if (vg_base64_decode(NULL, &len, b.body, b.body_len) != VG_OK)
			continue;
		der = vg_fz_alloc(pool, len);
		label = vg_fz_alloc(pool, b.label_len + 1);
		if (der == NULL || label == NULL)
			return;
		if (vg_base64_decode(der, &len, b.body, b.body_len) != VG_OK)
			vg_fz_fail("pem: size query and decoding disagree");
		memcpy(label, b.label, b.label_len);
		label[b.label_len] = '\0';
		/* A label with a NUL cannot be written again. */
		if (strlen(label) != b.label_len ||
		    vg_pem_encode(NULL, &elen, label, der, len) != VG_OK)
			continue;
		enc = vg_fz_alloc(pool, elen);
		if (enc == NULL)
			return;
		if (vg_pem_encode(enc, &elen, label, der, len) != VG_OK)
			vg_fz_fail("pem_encode failed after its size query");
		if (vg_pem_next(enc, elen, &pos2, &b2) != VG_OK ||
		    b2.has_headers)
			vg_fz_fail("pem: own block does not parse");
		same(b.label, b.label_len, b2.label, b2.label_len, "pem label");
		len2 = len;
		der2 = vg_fz_alloc(pool, len);
		if (der2 == NULL ||
		    vg_base64_decode(der2, &len2, b2.body, b2.body_len) != VG_OK)
			vg_fz_fail("pem: own body does not decode");
		same(der, len, der2, len2, "pem body");
		/* What key import does next. */
		spki(pool, der, len);
		pkcs8(pool, der, len);
		rsa_keys(pool, der, len);
		ec_private(pool, der, len);
	}
}

/* see fuzz.h */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* see fuzz.h */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_fz_pool pool = { 0 };

	walk(vg_der_make(data, size), 0);
	spki(&pool, data, size);
	pkcs8(&pool, data, size);
	mldsa_private(&pool, data, size);
	ec_params(&pool, data, size);
	ecx_params(&pool, data, size);
	rsa_keys(&pool, data, size);
	ec_private(&pool, data, size);
	ecdsa_sig(data, size);
	points(data, size);
	base64(&pool, data, size);
	pem(&pool, data, size);
	vg_fz_pool_free(&pool);
	return 0;
}
