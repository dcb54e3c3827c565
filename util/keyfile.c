/*
 * vgtoken-util: reading key and certificate files. A file is PEM (one or
 * more blocks) or DER (one structure); it may hold one private key (RSA
 * or EC P-256, PKCS#8 or the traditional RSAPrivateKey / ECPrivateKey;
 * Ed25519, X25519, ML-DSA or ML-KEM, PKCS#8) and one X.509 certificate.
 * An encrypted PKCS#8 key (PEM "ENCRYPTED PRIVATE KEY", or DER) and a
 * PKCS#12 file are decrypted with the passphrase (util/pbe.c,
 * util/pkcs12.c); from PKCS#12, the key and the certificate that goes
 * with it are taken. Traditional OpenSSL
 * encryption (PEM with Proc-Type) is refused with the command that
 * converts it. File contents, decoded keys and scalars are wiped after
 * use.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/c25519.h"
#include "crypto/crypto.h"
#include "crypto/pem.h"
#include "util/util.h"

/* The P-256 arithmetic arrives in crypto/ separately: with it the tool
 * computes a missing public point and checks a given one. */
#if defined(__has_include)
#if __has_include("crypto/p256.h")
#include "crypto/p256.h"
#define VG_UTIL_HAVE_P256 1
#endif
#endif

#define MAX_FILE (1u << 20)

/* What a PEM label or the DER structure says the contents are. */
enum kind_hint { HINT_ANY, HINT_PKCS8, HINT_RSA, HINT_EC, HINT_CERT,
	HINT_ENCRYPTED };

/* Reads the whole file into a malloc'd buffer (wipe it after use). */
static int
read_file(const char *path, uint8_t **buf, size_t *len)
{
	uint8_t *b = NULL, *nb;
	size_t n = 0, cap = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		vg_util_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			/* Grow by copying, so no copy of a key is left in
			 * freed memory. */
			if (cap >= MAX_FILE) {
				err = EFBIG;
				break;
			}
			nb = malloc(cap * 2 + 4096);
			if (nb == NULL) {
				err = ENOMEM;
				break;
			}
			if (b != NULL) {
				memcpy(nb, b, n);
				vg_wipe(b, cap);
			}
			free(b);
			b = nb;
			cap = cap * 2 + 4096;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err == 0 && n == 0) {
		vg_util_err("%s is empty", path);
		err = -1;
	} else if (err == EFBIG) {
		vg_util_err("%s is larger than 1 MiB: not a key or a "
		    "certificate", path);
	} else if (err != 0) {
		vg_util_err("cannot read %s: %s", path, strerror(err));
	}
	if (err != 0) {
		if (b != NULL)
			vg_wipe(b, cap);
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* see util/util.h */
void
vg_util_item_free(struct vg_util_item *it)
{
	if (it->der != NULL)
		vg_wipe(it->der, it->der_len);
	free(it->der);
	if (it->lat_sk != NULL)
		vg_wipe(it->lat_sk, it->lat_sk_len);
	free(it->lat_sk);
	free(it->lat_pk);
	vg_wipe(it, sizeof(*it));
}

/* see util/util.h */
int
vg_util_cert_spki(const uint8_t *der, size_t len, const uint8_t **spki,
    size_t *spki_len)
{
	struct vg_der cur = vg_der_make(der, len), cert, tbs, v, whole;
	struct vg_der_algid alg;
	struct vg_der key;
	unsigned tag;
	int present, i;

	/* Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm,
	 * signatureValue } [RFC 5280 §4.1]; TBSCertificate ::= SEQUENCE {
	 * [0] version OPTIONAL, serialNumber, signature, issuer, validity,
	 * subject, subjectPublicKeyInfo, ... } */
	if (vg_der_get_sequence(&cur, &cert) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_sequence(&cert, &tbs) != VG_OK ||
	    vg_der_get_algid(&cert, &alg) != VG_OK ||
	    vg_der_get_bit_string(&cert, &v, NULL) != VG_OK ||
	    !vg_der_at_end(&cert) ||
	    vg_der_get_optional(&tbs, VG_DER_CONTEXT(0), &v, &present) !=
	    VG_OK ||
	    vg_der_get_integer(&tbs, &v, VG_DER_INT_SIGNED) != VG_OK)
		return -1;
	for (i = 0; i < 4; i++) /* signature, issuer, validity, subject */
		if (vg_der_get_any(&tbs, &tag, &v, NULL) != VG_OK ||
		    tag != VG_DER_SEQUENCE)
			return -1;
	if (vg_der_get_any(&tbs, &tag, &v, &whole) != VG_OK ||
	    tag != VG_DER_SEQUENCE ||
	    vg_der_parse_spki(whole.p, whole.len, &alg, &key) != VG_OK)
		return -1;
	*spki = whole.p;
	*spki_len = whole.len;
	return 0;
}

/* The default CKA_ID of a certificate: as for its key. */
static int
cert_item(const char *path, struct vg_util_item *it)
{
	struct vg_der_algid alg;
	struct vg_der key;
	struct vg_der_rsa_pub rsa;
	const uint8_t *spki;
	size_t spki_len;

	if (vg_util_cert_spki(it->der, it->der_len, &spki, &spki_len) != 0 ||
	    vg_der_parse_spki(spki, spki_len, &alg, &key) != VG_OK) {
		vg_util_err("%s: not an X.509 certificate", path);
		return -1;
	}
	it->kind = VG_UTIL_CERT;
	if (vg_der_oid_equal(&alg.oid, &vg_oid_rsa_encryption) &&
	    vg_der_parse_rsa_public(key.p, key.len, &rsa) == VG_OK)
		vg_hash(VG_HASH_SHA1, rsa.n.p, rsa.n.len, it->id);
	else
		vg_hash(VG_HASH_SHA1, key.p, key.len, it->id);
	return 0;
}

static int
rsa_item(const char *path, const struct vg_der *in, struct vg_util_item *it)
{
	struct vg_der_rsa_priv k;
	const struct vg_der *f[8] = { &k.n, &k.e, &k.d, &k.p, &k.q, &k.dp,
		&k.dq, &k.qinv };
	size_t bits, i;

	if (vg_der_parse_rsa_private(in->p, in->len, &k) != VG_OK) {
		vg_util_err("%s: malformed RSA private key", path);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		it->rsa[i] = f[i]->p;
		it->rsa_len[i] = f[i]->len;
	}
	bits = k.n.len * 8;
	for (i = 0x80; i != 0 && k.n.len > 0 && !(k.n.p[0] & i); i >>= 1)
		bits--;
	if (bits < 1024 || bits > 4096) {
		vg_util_err("%s: an RSA key of %zu bits; the token takes 1024 "
		    "to 4096", path, bits);
		return -1;
	}
	it->kind = VG_UTIL_RSA_KEY;
	vg_hash(VG_HASH_SHA1, k.n.p, k.n.len, it->id);
	return 0;
}

/* The public point: given (checked), or computed from the scalar. */
static int
ec_point(const char *path, const struct vg_der *pub, struct vg_util_item *it)
{
#ifdef VG_UTIL_HAVE_P256
	struct vg_p256_priv d;
	struct vg_p256_pub q;
	enum vg_err e;

	if (vg_p256_priv_decode(&d, it->ec_d, sizeof(it->ec_d)) != VG_OK) {
		vg_util_err("%s: the EC private value is out of range", path);
		return -1;
	}
	if (pub->len != 0) {
		e = vg_p256_pub_decode(&q, pub->p, pub->len);
		if (e == VG_OK)
			e = vg_p256_check_pair(&d, &q);
	} else {
		e = vg_p256_pub_from_priv(&q, &d);
	}
	vg_p256_priv_wipe(&d);
	if (e != VG_OK) {
		vg_util_err("%s: the EC public point does not match the "
		    "private key", path);
		return -1;
	}
	vg_p256_pub_encode(it->ec_point, &q);
	return 0;
#else
	if (pub->len == 65 && pub->p[0] == 0x04) {
		memcpy(it->ec_point, pub->p, 65);
		return 0;
	}
	vg_util_err(pub->len == 0
	    ? "%s: the EC key has no public point, and this build cannot "
	      "compute it: export the key with its public point"
	    : "%s: the EC public point is compressed or malformed", path);
	return -1;
#endif
}

/* ECPrivateKey, with the parameters and public key PKCS#8 may carry
 * outside it (either may be empty). */
static int
ec_item(const char *path, const struct vg_der *in,
    const struct vg_der *outer_params, const struct vg_der *outer_pub,
    struct vg_util_item *it)
{
	struct vg_der_ec_priv k;
	const struct vg_der *params, *pub;
	enum vg_der_curve curve;

	if (vg_der_parse_ec_private(in->p, in->len, &k) != VG_OK) {
		vg_util_err("%s: malformed EC private key", path);
		return -1;
	}
	params = outer_params->len != 0 ? outer_params : &k.params;
	pub = k.pub.len != 0 ? &k.pub : outer_pub;
	if (params->len == 0) {
		vg_util_err("%s: the EC key does not name its curve", path);
		return -1;
	}
	if ((k.params.len != 0 && (k.params.len != params->len ||
	    memcmp(k.params.p, params->p, params->len) != 0)) ||
	    vg_der_parse_ec_params(params->p, params->len, &curve, NULL) !=
	    VG_OK || curve != VG_DER_CURVE_P256) {
		vg_util_err("%s: only EC keys on P-256 (prime256v1) can be "
		    "imported", path);
		return -1;
	}
	if (k.priv.len == 0 || k.priv.len > sizeof(it->ec_d)) {
		vg_util_err("%s: the EC private value has %zu bytes, not 32",
		    path, k.priv.len);
		return -1;
	}
	memset(it->ec_d, 0, sizeof(it->ec_d));
	memcpy(it->ec_d + sizeof(it->ec_d) - k.priv.len, k.priv.p,
	    k.priv.len);
	if (ec_point(path, pub, it) != 0)
		return -1;
	it->kind = VG_UTIL_EC_KEY;
	vg_hash(VG_HASH_SHA1, it->ec_point, sizeof(it->ec_point), it->id);
	return 0;
}

/* An Ed25519 or X25519 key [RFC 8410 §7]: no parameters, the
 * CurvePrivateKey (an OCTET STRING of 32 bytes), the public key computed
 * (and compared with one the OneAsymmetricKey carries). */
static int
ecx_item(const char *path, const struct vg_der_pkcs8 *k, enum vg_der_ecx w,
    struct vg_util_item *it)
{
	struct vg_der cur = vg_der_make(k->key.p, k->key.len), str;
	enum vg_err e;

	if (w != VG_DER_ECX_ED25519 && w != VG_DER_ECX_X25519) {
		vg_util_err("%s: Ed448 and X448 keys are not supported", path);
		return -1;
	}
	if (k->alg.params.len != 0 ||
	    vg_der_get_octet_string(&cur, &str) != VG_OK ||
	    !vg_der_at_end(&cur) || str.len != sizeof(it->ec_d) ||
	    (k->pub.len != 0 && k->pub.len != VG_X25519_LEN)) {
		vg_util_err("%s: malformed %s private key", path,
		    w == VG_DER_ECX_ED25519 ? "Ed25519" : "X25519");
		return -1;
	}
	memcpy(it->ec_d, str.p, sizeof(it->ec_d));
	e = w == VG_DER_ECX_ED25519 ? vg_ed25519_public(it->ec_point, it->ec_d)
				    : vg_x25519_public(it->ec_point, it->ec_d);
	if (e != VG_OK || (k->pub.len != 0 &&
	    memcmp(k->pub.p, it->ec_point, VG_X25519_LEN) != 0)) {
		vg_util_err("%s: the public key is not the private key's",
		    path);
		return -1;
	}
	it->kind = w == VG_DER_ECX_ED25519 ? VG_UTIL_ED25519_KEY
					   : VG_UTIL_X25519_KEY;
	vg_hash(VG_HASH_SHA1, it->ec_point, VG_X25519_LEN, it->id);
	return 0;
}

/* The ML-DSA and ML-KEM parameter sets [FIPS 204 Table 2, FIPS 203
 * Table 3]: OID, name, CKA_PARAMETER_SET, the crypto layer's set, and
 * the lengths of the seed, the expanded key and the public key. */
static const struct lattice {
	const struct vg_der *oid;
	const char *name;
	int kem;
	CK_ULONG ckp;
	int set;
	size_t seed_len, sk_len, pk_len;
} lattices[] = {
	{ &vg_oid_ml_dsa_44, "ML-DSA-44", 0, CKP_ML_DSA_44, VG_MLDSA_44,
	    VG_MLDSA_SEED_LEN, VG_MLDSA_44_SK_LEN, VG_MLDSA_44_PK_LEN },
	{ &vg_oid_ml_dsa_65, "ML-DSA-65", 0, CKP_ML_DSA_65, VG_MLDSA_65,
	    VG_MLDSA_SEED_LEN, VG_MLDSA_65_SK_LEN, VG_MLDSA_65_PK_LEN },
	{ &vg_oid_ml_dsa_87, "ML-DSA-87", 0, CKP_ML_DSA_87, VG_MLDSA_87,
	    VG_MLDSA_SEED_LEN, VG_MLDSA_87_SK_LEN, VG_MLDSA_87_PK_LEN },
	{ &vg_oid_ml_kem_512, "ML-KEM-512", 1, CKP_ML_KEM_512, VG_MLKEM_512,
	    VG_MLKEM_SEED_LEN, VG_MLKEM_512_DK_LEN, VG_MLKEM_512_EK_LEN },
	{ &vg_oid_ml_kem_768, "ML-KEM-768", 1, CKP_ML_KEM_768, VG_MLKEM_768,
	    VG_MLKEM_SEED_LEN, VG_MLKEM_768_DK_LEN, VG_MLKEM_768_EK_LEN },
	{ &vg_oid_ml_kem_1024, "ML-KEM-1024", 1, CKP_ML_KEM_1024,
	    VG_MLKEM_1024, VG_MLKEM_SEED_LEN, VG_MLKEM_1024_DK_LEN,
	    VG_MLKEM_1024_EK_LEN },
};
#define NLATTICES (sizeof(lattices) / sizeof(lattices[0]))

/* The expanded key and public key of the seed in it (lat_sk, lat_pk
 * allocated). */
static int
lattice_from_seed(const struct lattice *l, struct vg_util_item *it)
{
	enum vg_err e;

	e = l->kem ? vg_mlkem_keygen_internal((enum vg_mlkem_param)l->set,
			 it->lat_seed, it->lat_pk, it->lat_sk)
		   : vg_mldsa_keygen_internal((enum vg_mldsa_param)l->set,
			 it->lat_seed, it->lat_pk, it->lat_sk);
	return e == VG_OK ? 0 : -1;
}

/*
 * An ML-DSA key [RFC 9881 §6] or an ML-KEM key [draft-ietf-lamps-kyber-
 * certificates §6]: no parameters, and the CHOICE of the seed, the
 * expanded key, or both (crypto/der_mldsa.c reads it). The expanded and
 * public keys come from the seed when there is one, and then an expanded
 * key given beside it must be the seed's; an expanded key alone must
 * pass the checks of FIPS 204 (t0 and tr recomputed) or FIPS 203 §7.3
 * (the hash of ek), and gives the public key. A public key the
 * OneAsymmetricKey carries must be that one.
 */
static int
lattice_item(const char *path, const struct vg_der_pkcs8 *k,
    const struct lattice *l, struct vg_util_item *it)
{
	struct vg_der_mldsa_priv m;
	enum vg_err e;

	it->lat_name = l->name;
	if (k->alg.params.len != 0) {
		vg_util_err("%s: the %s key has algorithm parameters, which "
		    "its OID forbids", path, l->name);
		return -1;
	}
	if (vg_der_parse_mldsa_private(k->key.p, k->key.len, &m) != VG_OK) {
		vg_util_err("%s: malformed %s private key (neither a seed [0], "
		    "an expandedKey OCTET STRING nor a SEQUENCE of both)",
		    path, l->name);
		return -1;
	}
	if (m.seed.len != 0 && m.seed.len != l->seed_len) {
		vg_util_err("%s: the %s seed has %zu bytes, not %zu", path,
		    l->name, m.seed.len, l->seed_len);
		return -1;
	}
	if (m.sk.len != 0 && m.sk.len != l->sk_len) {
		vg_util_err("%s: the %s expanded key has %zu bytes, not %zu",
		    path, l->name, m.sk.len, l->sk_len);
		return -1;
	}
	it->lat_sk = malloc(l->sk_len);
	it->lat_pk = malloc(l->pk_len);
	if (it->lat_sk == NULL || it->lat_pk == NULL) {
		vg_util_err("out of memory");
		return -1;
	}
	it->lat_sk_len = l->sk_len;
	it->lat_pk_len = l->pk_len;
	if (m.seed.len != 0) {
		memcpy(it->lat_seed, m.seed.p, m.seed.len);
		it->lat_seed_len = m.seed.len;
		if (lattice_from_seed(l, it) != 0) {
			vg_util_err("%s: cannot expand the %s seed", path,
			    l->name);
			return -1;
		}
		if (m.sk.len != 0 &&
		    !vg_ct_memeq(it->lat_sk, m.sk.p, m.sk.len)) {
			vg_util_err("%s: the %s seed and expanded key do not "
			    "agree: the expanded key is not the seed's", path,
			    l->name);
			return -1;
		}
	} else {
		memcpy(it->lat_sk, m.sk.p, m.sk.len);
		if (l->kem) {
			/* dk = dk_PKE || ek || H(ek) || z [FIPS 203 Alg. 16] */
			e = vg_mlkem_check_dk((enum vg_mlkem_param)l->set,
			    it->lat_sk, it->lat_sk_len);
			if (e == VG_OK)
				memcpy(it->lat_pk, it->lat_sk + l->sk_len -
				    l->pk_len - 64, l->pk_len);
		} else {
			e = vg_mldsa_sk_to_pk((enum vg_mldsa_param)l->set,
			    it->lat_sk, it->lat_sk_len, it->lat_pk);
		}
		if (e != VG_OK) {
			vg_util_err(l->kem ? "%s: the %s expanded key fails the "
			    "FIPS 203 hash check (H(ek) does not match)"
			    : "%s: the %s expanded key is malformed or "
			      "inconsistent (FIPS 204 checks)", path, l->name);
			return -1;
		}
	}
	if (k->pub.len != 0 && (k->pub.len != it->lat_pk_len ||
	    memcmp(k->pub.p, it->lat_pk, it->lat_pk_len) != 0)) {
		vg_util_err("%s: the public key is not the private key's",
		    path);
		return -1;
	}
	it->lat_set = l->ckp;
	it->kind = l->kem ? VG_UTIL_MLKEM_KEY : VG_UTIL_MLDSA_KEY;
	vg_hash(VG_HASH_SHA1, it->lat_pk, it->lat_pk_len, it->id);
	return 0;
}

static int
pkcs8_item(const char *path, const struct vg_der_pkcs8 *k,
    struct vg_util_item *it)
{
	enum vg_der_ecx w = vg_der_ecx_of_oid(&k->alg.oid);
	size_t i;

	if (vg_der_oid_equal(&k->alg.oid, &vg_oid_rsa_encryption))
		return rsa_item(path, &k->key, it);
	if (vg_der_oid_equal(&k->alg.oid, &vg_oid_ec_public_key))
		return ec_item(path, &k->key, &k->alg.params, &k->pub, it);
	if (w != VG_DER_ECX_NONE)
		return ecx_item(path, k, w, it);
	for (i = 0; i < NLATTICES; i++)
		if (vg_der_oid_equal(&k->alg.oid, lattices[i].oid))
			return lattice_item(path, k, &lattices[i], it);
	vg_util_err("%s: the key is not RSA, EC, Ed25519, X25519, ML-DSA or "
	    "ML-KEM: not supported", path);
	return -1;
}

/* EncryptedPrivateKeyInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET
 * STRING } [RFC 5958 §3]: 1 and the parts, else 0. */
static int
encrypted_pkcs8(const uint8_t *der, size_t len, struct vg_der_algid *alg,
    struct vg_der *ct)
{
	struct vg_der cur = vg_der_make(der, len), seq;

	return vg_der_get_sequence(&cur, &seq) == VG_OK &&
	    vg_der_at_end(&cur) && vg_der_get_algid(&seq, alg) == VG_OK &&
	    vg_der_get_octet_string(&seq, ct) == VG_OK && vg_der_at_end(&seq);
}

static int parse_der(const char *path, struct vg_util_opts *o,
    enum kind_hint hint, struct vg_util_item *it);

/* Decrypts the EncryptedPrivateKeyInfo in it->der, which the PrivateKeyInfo
 * inside then replaces, and reads that. */
static int
decrypt_pkcs8(const char *path, struct vg_util_opts *o,
    struct vg_util_item *it)
{
	struct vg_der_algid alg;
	struct vg_der_pkcs8 k;
	struct vg_der ct;
	uint8_t *pt = NULL;
	size_t pt_len = 0;
	int rc = -1;

	if (!encrypted_pkcs8(it->der, it->der_len, &alg, &ct)) {
		vg_util_err("%s: malformed encrypted PKCS#8 key", path);
		goto out;
	}
	if (vg_util_passphrase(o, path) != 0)
		goto out;
	rc = vg_util_pbe_decrypt(path, "the key is encrypted", 0, &alg, ct.p,
	    ct.len, &o->passphrase, &pt, &pt_len);
	if (rc == 0 && vg_der_parse_pkcs8(pt, pt_len, &k) != VG_OK)
		rc = -2;
	if (rc == -2) {
		/* No MAC here: bad padding or a bad structure after
		 * decryption is how a wrong passphrase shows. */
		vg_util_err("%s: wrong passphrase (or a damaged file): the key "
		    "does not decrypt", path);
		rc = -1;
		goto out;
	}
	if (rc != 0)
		goto out;
	vg_wipe(it->der, it->der_len);
	free(it->der);
	it->der = pt;
	it->der_len = pt_len;
	pt = NULL;
	rc = parse_der(path, o, HINT_PKCS8, it);
out:
	if (pt != NULL)
		vg_wipe(pt, pt_len);
	free(pt);
	return rc;
}

/* Parses it->der according to the hint (HINT_ANY: whatever it is). */
static int
parse_der(const char *path, struct vg_util_opts *o, enum kind_hint hint,
    struct vg_util_item *it)
{
	struct vg_der_algid enc_alg;
	struct vg_der enc;
	struct vg_der all = vg_der_make(it->der, it->der_len), one;
	static const struct vg_der none = { NULL, 0 };
	unsigned tag;
	struct vg_der_pkcs8 p8;
	struct vg_der_rsa_priv rsa;
	struct vg_der_ec_priv ec;
	const uint8_t *spki;
	size_t spki_len;

	if ((hint == HINT_ANY || hint == HINT_PKCS8) &&
	    vg_der_parse_pkcs8(it->der, it->der_len, &p8) == VG_OK)
		return pkcs8_item(path, &p8, it);
	if ((hint == HINT_ANY || hint == HINT_RSA) &&
	    (hint == HINT_RSA || vg_der_parse_rsa_private(it->der,
	    it->der_len, &rsa) == VG_OK))
		return rsa_item(path, &all, it);
	if ((hint == HINT_ANY || hint == HINT_EC) &&
	    (hint == HINT_EC || vg_der_parse_ec_private(it->der, it->der_len,
	    &ec) == VG_OK))
		return ec_item(path, &all, &none, &none, it);
	if (hint == HINT_CERT || (hint == HINT_ANY &&
	    vg_util_cert_spki(it->der, it->der_len, &spki, &spki_len) == 0))
		return cert_item(path, it);
	if ((hint == HINT_ANY || hint == HINT_ENCRYPTED) &&
	    encrypted_pkcs8(it->der, it->der_len, &enc_alg, &enc))
		return decrypt_pkcs8(path, o, it);
	if (hint == HINT_ANY && vg_der_get_any(&all, &tag, &one, NULL) ==
	    VG_OK && !vg_der_at_end(&all)) {
		/* One structure, then more: a file cut and pasted together,
		 * or padding. */
		vg_util_err("%s: %zu byte(s) after the DER structure", path,
		    all.len);
		return -1;
	}
	vg_util_err(hint == HINT_PKCS8 ? "%s: malformed PKCS#8 private key"
	    : hint == HINT_ENCRYPTED ? "%s: malformed encrypted PKCS#8 key"
	    : "%s: not a private key, certificate or PKCS#12 file (PEM, "
	      "DER or PFX)", path);
	return -1;
}

/* The meaning of a PEM label; -1 for one that is skipped, -2 unknown. */
static int
label_hint(const struct vg_pem *b)
{
	static const struct {
		const char *label;
		int hint;
	} labels[] = {
		{ "PRIVATE KEY", HINT_PKCS8 },
		{ "RSA PRIVATE KEY", HINT_RSA },
		{ "EC PRIVATE KEY", HINT_EC },
		{ "CERTIFICATE", HINT_CERT },
		{ "ENCRYPTED PRIVATE KEY", HINT_ENCRYPTED },
		/* openssl ecparam -genkey writes this before the key */
		{ "EC PARAMETERS", -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (b->label_len == strlen(labels[i].label) &&
		    memcmp(b->label, labels[i].label, b->label_len) == 0)
			return labels[i].hint;
	return -2;
}

/* Decodes one PEM block into a new item. */
static int
pem_item(const char *path, struct vg_util_opts *o, const struct vg_pem *b,
    enum kind_hint hint, struct vg_util_item *it)
{
	size_t n = 0;

	if (b->has_headers) {
		/* OpenSSL's own scheme (an MD5-based key derivation):
		 * converting to PKCS#8 is one command. */
		vg_util_err("%s: the key is encrypted (PEM with Proc-Type), "
		    "the traditional OpenSSL way: convert it to encrypted "
		    "PKCS#8 (openssl pkcs8 -topk8 -in %s -out NEW.pem) and "
		    "import that", path, path);
		return -1;
	}
	if (vg_base64_decode(NULL, &n, b->body, b->body_len) != VG_OK ||
	    n == 0) {
		vg_util_err("%s: bad base64 in the PEM block '%.*s'", path,
		    (int)b->label_len, b->label);
		return -1;
	}
	it->der = malloc(n);
	if (it->der == NULL) {
		vg_util_err("out of memory");
		return -1;
	}
	it->der_len = n;
	if (vg_base64_decode(it->der, &n, b->body, b->body_len) != VG_OK)
		return -1;
	return parse_der(path, o, hint, it);
}

static int
is_pem(const uint8_t *buf, size_t len)
{
	size_t pos = 0;
	struct vg_pem b;

	return vg_pem_next((const char *)buf, len, &pos, &b) != VG_ERR_ARG;
}

/* Adds the next item, at most one key and one certificate. */
static int
add_checked(const char *path, struct vg_util_item items[2], int n)
{
	int cert = items[n].kind == VG_UTIL_CERT;

	if (n == 1 && (items[0].kind == VG_UTIL_CERT) == cert) {
		vg_util_err("%s holds more than one %s: import them one by "
		    "one", path, cert ? "certificate" : "private key");
		return -1;
	}
	return n + 1;
}

static int
read_pem(const char *path, struct vg_util_opts *o, const uint8_t *buf,
    size_t len, struct vg_util_item items[2])
{
	const char *text = (const char *)buf;
	size_t pos = 0;
	struct vg_pem b;
	enum vg_err e;
	int n = 0, hint;

	while ((e = vg_pem_next(text, len, &pos, &b)) == VG_OK) {
		hint = label_hint(&b);
		if (hint == -1)
			continue;
		if (hint == -2) {
			vg_util_err("%s: PEM block '%.*s' is not a private key "
			    "or certificate", path, (int)b.label_len, b.label);
			return -1;
		}
		if (n == 2) {
			vg_util_err("%s holds more than a key and a "
			    "certificate", path);
			return -1;
		}
		if (pem_item(path, o, &b, (enum kind_hint)hint, &items[n]) !=
		    0)
			return -1;
		n = add_checked(path, items, n);
		if (n < 0)
			return -1;
	}
	if (e != VG_ERR_ARG) {
		vg_util_err("%s: malformed PEM", path);
		return -1;
	}
	if (n == 0)
		vg_util_err("%s: no private key or certificate in it", path);
	return n == 0 ? -1 : n;
}

/* ------------------------------------------------------------ PKCS#12 */

#define P12_MAX_CERTS 16

/* What a PKCS#12 file gave. */
struct p12_items {
	const char *path;
	struct vg_util_opts *o;
	struct vg_util_item key;
	int have_key;
	struct vg_util_item certs[P12_MAX_CERTS];
	int ncerts;
};

/* Takes one key or certificate from the PKCS#12 reader. */
static int
p12_bag(void *ctx, int is_key, const uint8_t *der, size_t len)
{
	struct p12_items *c = ctx;
	struct vg_util_item *it = is_key ? &c->key : &c->certs[c->ncerts];
	int rc = -1;

	if (is_key && c->have_key) {
		vg_util_err("%s holds more than one private key: this tool "
		    "imports one", c->path);
	} else if (!is_key && c->ncerts == P12_MAX_CERTS) {
		vg_util_err("%s holds more than %d certificates", c->path,
		    P12_MAX_CERTS);
	} else if ((it->der = malloc(len)) == NULL) {
		vg_util_err("out of memory");
	} else {
		memcpy(it->der, der, len);
		it->der_len = len;
		if (is_key)
			c->have_key = 1;
		else
			c->ncerts++;
		rc = parse_der(c->path, c->o, is_key ? HINT_PKCS8 : HINT_CERT,
		    it);
	}
	return rc;
}

/* The key and the certificate whose public key is the key's (the same
 * default ID); the other certificates, a CA chain, are left out and
 * counted. A file with no key gives its one certificate. */
static int
read_pkcs12(const char *path, struct vg_util_opts *o, const uint8_t *buf,
    size_t len, struct vg_util_item items[2])
{
	struct p12_items c;
	int n = -1, i, mine = -1, others = 0;

	memset(&c, 0, sizeof(c));
	c.path = path;
	c.o = o;
	if (vg_util_pkcs12_read(path, buf, len, o, p12_bag, &c) != 0)
		goto out;
	for (i = 0; i < c.ncerts && c.have_key; i++)
		if (mine < 0 && memcmp(c.certs[i].id, c.key.id,
		    VG_UTIL_ID_LEN) == 0)
			mine = i;
	if (!c.have_key && c.ncerts == 1)
		mine = 0;
	if (!c.have_key && c.ncerts > 1) {
		vg_util_err("%s holds %d certificates and no key: import them "
		    "one by one (openssl pkcs12 -in %s -nokeys)", path,
		    c.ncerts, path);
		goto out;
	}
	if (!c.have_key && c.ncerts == 0) {
		vg_util_err("%s: no private key or certificate in it", path);
		goto out;
	}
	n = 0;
	if (c.have_key) {
		items[n++] = c.key;
		memset(&c.key, 0, sizeof(c.key));
	}
	if (mine >= 0) {
		items[n++] = c.certs[mine];
		memset(&c.certs[mine], 0, sizeof(c.certs[mine]));
	}
	others = c.ncerts - (mine >= 0);
	if (others > 0)
		printf("%s: %d other certificate(s) (a CA chain?) not "
		    "imported\n", path, others);
out:
	vg_util_item_free(&c.key);
	for (i = 0; i < c.ncerts; i++)
		vg_util_item_free(&c.certs[i]);
	return n;
}

/* see util/util.h */
int
vg_util_read_items(const char *path, struct vg_util_opts *o,
    struct vg_util_item items[2])
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int n = -1;

	memset(items, 0, 2 * sizeof(*items));
	if (read_file(path, &buf, &len) != 0)
		return -1;
	if (is_pem(buf, len)) {
		n = read_pem(path, o, buf, len, items);
	} else if (vg_util_pkcs12_is(buf, len)) {
		n = read_pkcs12(path, o, buf, len, items);
	} else {
		/* DER: the file is the structure. */
		items[0].der = malloc(len);
		if (items[0].der == NULL) {
			vg_util_err("out of memory");
		} else {
			memcpy(items[0].der, buf, len);
			items[0].der_len = len;
			n = parse_der(path, o, HINT_ANY, &items[0]) == 0 ? 1
									 : -1;
		}
	}
	vg_wipe(buf, len);
	free(buf);
	if (n < 0) {
		vg_util_item_free(&items[0]);
		vg_util_item_free(&items[1]);
	}
	return n;
}
