/*
 * vgtoken-util: password-based decryption, for encrypted PKCS#8 keys
 * (EncryptedPrivateKeyInfo [RFC 5958 §3]) and the encrypted parts of
 * PKCS#12 files [RFC 7292 §4.1, §4.2.2].
 *
 * PBES2 [RFC 8018 §6.2] with PBKDF2 [RFC 8018 §5.2] (HMAC-SHA-1, -224,
 * -256, -384 or -512) and AES-128/192/256-CBC: what OpenSSL 3 writes by
 * default for both formats. Older schemes (PBES1, PKCS#12's own
 * 3DES/RC2/RC4 PBEs, PBES2 with DES, 3DES or RC2, scrypt) are refused with
 * their name and a way to convert the file.
 *
 * The passphrase enters PBKDF2 as the bytes typed (UTF-8), as OpenSSL
 * does for PBES2 in both formats. Keys and plaintexts are wiped.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "util/util.h"

/* A file's PBKDF2 iteration count is the file's choice; beyond this the
 * tool would appear hung. */
#define MAX_ITERATIONS 100000000u

#define OID(...) { (const uint8_t[]){ __VA_ARGS__ }, \
	sizeof((const uint8_t[]){ __VA_ARGS__ }) }

/* The algorithms the tool names, known or refused. */
static const struct {
	struct vg_der oid;
	const char *name;
	int kind;                      /* one of the enum below */
	int param;                     /* hash, or AES key length */
} algs[] = {
#define PKCS5(n) OID(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, n)
#define PKCS12PBE(n) OID(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01, n)
#define RSADSI_ALG(a, b) OID(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, a, b)
#define NIST_AES(n) OID(0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, n)
	{ PKCS5(13), "PBES2", VG_UTIL_ALG_PBES2, 0 },
	{ PKCS5(12), "PBKDF2", VG_UTIL_ALG_PBKDF2, 0 },
	{ PKCS5(14), "PBMAC1", VG_UTIL_ALG_PBMAC1, 0 },
	{ RSADSI_ALG(0x02, 0x07), "hmacWithSHA1", VG_UTIL_ALG_PRF,
	    VG_HASH_SHA1 },
	{ RSADSI_ALG(0x02, 0x08), "hmacWithSHA224", VG_UTIL_ALG_PRF,
	    VG_HASH_SHA224 },
	{ RSADSI_ALG(0x02, 0x09), "hmacWithSHA256", VG_UTIL_ALG_PRF,
	    VG_HASH_SHA256 },
	{ RSADSI_ALG(0x02, 0x0a), "hmacWithSHA384", VG_UTIL_ALG_PRF,
	    VG_HASH_SHA384 },
	{ RSADSI_ALG(0x02, 0x0b), "hmacWithSHA512", VG_UTIL_ALG_PRF,
	    VG_HASH_SHA512 },
	{ NIST_AES(0x02), "AES-128-CBC", VG_UTIL_ALG_CIPHER, 16 },
	{ NIST_AES(0x16), "AES-192-CBC", VG_UTIL_ALG_CIPHER, 24 },
	{ NIST_AES(0x2a), "AES-256-CBC", VG_UTIL_ALG_CIPHER, 32 },
	/* refused */
	{ PKCS5(1), "pbeWithMD2AndDES-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS5(3), "pbeWithMD5AndDES-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS5(4), "pbeWithMD2AndRC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS5(6), "pbeWithMD5AndRC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS5(10), "pbeWithSHA1AndDES-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS5(11), "pbeWithSHA1AndRC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS12PBE(1), "pbeWithSHAAnd128BitRC4", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS12PBE(2), "pbeWithSHAAnd40BitRC4", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS12PBE(3), "pbeWithSHAAnd3-KeyTripleDES-CBC", VG_UTIL_ALG_LEGACY,
	    0 },
	{ PKCS12PBE(4), "pbeWithSHAAnd2-KeyTripleDES-CBC", VG_UTIL_ALG_LEGACY,
	    0 },
	{ PKCS12PBE(5), "pbeWithSHAAnd128BitRC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ PKCS12PBE(6), "pbeWithSHAAnd40BitRC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ RSADSI_ALG(0x03, 0x07), "DES-EDE3-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ RSADSI_ALG(0x03, 0x02), "RC2-CBC", VG_UTIL_ALG_LEGACY, 0 },
	{ OID(0x2b, 0x0e, 0x03, 0x02, 0x07), "DES-CBC", VG_UTIL_ALG_LEGACY,
	    0 },
	{ OID(0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b), "scrypt",
	    VG_UTIL_ALG_LEGACY, 0 },
#undef PKCS5
#undef PKCS12PBE
#undef RSADSI_ALG
#undef NIST_AES
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

/* The digests a PKCS#12 MAC may use, from crypto/der.h's OIDs. */
static const struct {
	const struct vg_der *oid;
	const char *name;
	enum vg_hash_alg hash;
} digests[] = {
	{ &vg_oid_sha1, "SHA-1", VG_HASH_SHA1 },
	{ &vg_oid_sha224, "SHA-224", VG_HASH_SHA224 },
	{ &vg_oid_sha256, "SHA-256", VG_HASH_SHA256 },
	{ &vg_oid_sha384, "SHA-384", VG_HASH_SHA384 },
	{ &vg_oid_sha512, "SHA-512", VG_HASH_SHA512 },
};

/* see util/util.h */
void
vg_util_oid_text(const struct vg_der *oid, char *out, size_t len)
{
	unsigned long v = 0;
	size_t i, used = 0;
	int first = 1;

	out[0] = '\0';
	for (i = 0; i < oid->len && used < len; i++) {
		v = v << 7 | (oid->p[i] & 0x7f);
		if (oid->p[i] & 0x80)
			continue;
		if (first)
			snprintf(out, len, "%lu.%lu", v < 80 ? v / 40 : 2,
			    v < 80 ? v % 40 : v - 80);
		else
			snprintf(out + used, len - used, ".%lu", v);
		used = strlen(out);
		first = 0;
		v = 0;
	}
}

/* see util/util.h */
int
vg_util_alg(const struct vg_der *oid, const char **name, int *param)
{
	size_t i;
	int kind = VG_UTIL_ALG_NONE;

	for (i = 0; i < NALGS && kind == VG_UTIL_ALG_NONE; i++) {
		if (vg_der_oid_equal(oid, &algs[i].oid)) {
			kind = algs[i].kind;
			*name = algs[i].name;
			*param = algs[i].param;
		}
	}
	for (i = 0; i < sizeof(digests) / sizeof(digests[0]) &&
	    kind == VG_UTIL_ALG_NONE; i++) {
		if (vg_der_oid_equal(oid, digests[i].oid)) {
			kind = VG_UTIL_ALG_DIGEST;
			*name = digests[i].name;
			*param = (int)digests[i].hash;
		}
	}
	return kind;
}

/* see util/util.h */
void
vg_util_err_alg(const char *path, const char *what,
    const struct vg_der *oid, int p12)
{
	char dotted[96];
	const char *name = NULL;
	int param;

	if (vg_util_alg(oid, &name, &param) == VG_UTIL_ALG_NONE) {
		vg_util_oid_text(oid, dotted, sizeof(dotted));
		name = dotted;
	}
	if (p12)
		vg_util_err("%s: %s with %s, which this tool does not decrypt "
		    "(a legacy PKCS#12 algorithm): re-export the file with "
		    "AES, e.g. openssl pkcs12 -legacy -in %s -nodes | openssl "
		    "pkcs12 -export -out NEW.p12", path, what, name, path);
	else
		vg_util_err("%s: %s with %s, which this tool does not decrypt: "
		    "re-encrypt the key with AES, e.g. openssl pkcs8 -topk8 "
		    "-v2 aes-256-cbc -in %s -out NEW.pem", path, what, name,
		    path);
}

/* see util/util.h */
int
vg_util_pbkdf2_params(const char *path, const struct vg_der *params,
    struct vg_util_pbkdf2 *k)
{
	struct vg_der cur = *params, seq;
	struct vg_der_algid prf;
	const char *name;
	int present = 0, kind = VG_UTIL_ALG_PRF, rc = -1;

	/* PBKDF2-params ::= SEQUENCE { salt OCTET STRING (the
	 * otherSource choice is reserved), iterationCount INTEGER,
	 * keyLength INTEGER OPTIONAL, prf AlgorithmIdentifier DEFAULT
	 * hmacWithSHA1 } [RFC 8018 A.2] */
	k->hash = VG_HASH_SHA1;
	k->key_len = 0;
	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_octet_string(&seq, &k->salt) != VG_OK ||
	    vg_der_get_uint32(&seq, &k->iterations) != VG_OK)
		goto bad;
	if (vg_der_peek_tag(&seq) == VG_DER_INTEGER &&
	    vg_der_get_uint32(&seq, &k->key_len) != VG_OK)
		goto bad;
	if (vg_der_peek_tag(&seq) == VG_DER_SEQUENCE) {
		if (vg_der_get_algid(&seq, &prf) != VG_OK)
			goto bad;
		present = 1;
	}
	if (!vg_der_at_end(&seq) || k->iterations == 0)
		goto bad;
	if (present) {
		kind = vg_util_alg(&prf.oid, &name, &k->hash);
		if (kind != VG_UTIL_ALG_PRF) {
			vg_util_err_alg(path, "PBKDF2 is used", &prf.oid, 0);
			goto out;
		}
	}
	if (k->iterations > MAX_ITERATIONS) {
		vg_util_err("%s: PBKDF2 with %lu iterations: more than this "
		    "tool runs (%u)", path, (unsigned long)k->iterations,
		    MAX_ITERATIONS);
		goto out;
	}
	rc = 0;
	goto out;
bad:
	vg_util_err("%s: malformed PBKDF2 parameters", path);
out:
	return rc;
}

/* AES-CBC decryption [SP 800-38A §6.2] of len bytes (a multiple of 16,
 * at least 16) into pt. A small helper for this tool's file formats
 * until crypto/ has its own CBC mode. CT: only len is observable. */
static void
cbc_decrypt(const struct vg_aes_key *k, const uint8_t iv[VG_AES_BLOCK],
    const uint8_t *ct, size_t len, uint8_t *pt)
{
	size_t i;

	vg_kernels()->aes_decrypt(k, pt, ct, len / VG_AES_BLOCK);
	for (i = 0; i < len; i++)
		pt[i] ^= i < VG_AES_BLOCK ? iv[i] : ct[i - VG_AES_BLOCK];
}

/* The length of the PKCS#7 padding at the end of the last block, or 0
 * when it is malformed. CT: the check runs over the whole block without
 * branches on the data; the result is public (it says whether the
 * passphrase was right). */
static size_t
unpad(const uint8_t *pt, size_t len)
{
	const uint8_t *last = pt + len - VG_AES_BLOCK;
	uint64_t pad = pt[len - 1], bad, i;

	/* bad unless 1 <= pad <= 16 */
	bad = ~vg_ct_lt_mask64(pad - 1, VG_AES_BLOCK);
	for (i = 0; i < VG_AES_BLOCK; i++) {
		/* byte i is padding when 16 - 1 - i < pad */
		uint64_t in_pad = vg_ct_lt_mask64(VG_AES_BLOCK - 1 - i, pad);

		bad |= in_pad & ~vg_ct_eq_mask64(last[i], pad);
	}
	return bad != 0 ? 0 : (size_t)pad;
}

/* see util/util.h */
int
vg_util_pbe_decrypt(const char *path, const char *what, int p12,
    const struct vg_der_algid *alg, const uint8_t *ct, size_t ct_len,
    const struct vg_util_pin *pw, uint8_t **pt, size_t *pt_len)
{
	struct vg_der cur = alg->params, seq, iv;
	struct vg_der_algid kdf, enc;
	struct vg_util_pbkdf2 k;
	struct vg_aes_key aes;
	uint8_t key[32], *out = NULL;
	const char *name;
	int kind, klen = 0, rc = -1;
	size_t pad;

	*pt = NULL;
	*pt_len = 0;
	kind = vg_util_alg(&alg->oid, &name, &klen);
	if (kind != VG_UTIL_ALG_PBES2) {
		vg_util_err_alg(path, what, &alg->oid, p12);
		goto out;
	}
	/* PBES2-params ::= SEQUENCE { keyDerivationFunc, encryptionScheme }
	 * [RFC 8018 A.4] */
	if (vg_der_get_sequence(&cur, &seq) != VG_OK || !vg_der_at_end(&cur) ||
	    vg_der_get_algid(&seq, &kdf) != VG_OK ||
	    vg_der_get_algid(&seq, &enc) != VG_OK || !vg_der_at_end(&seq)) {
		vg_util_err("%s: malformed PBES2 parameters", path);
		goto out;
	}
	if (vg_util_alg(&kdf.oid, &name, &klen) != VG_UTIL_ALG_PBKDF2) {
		vg_util_err_alg(path, what, &kdf.oid, p12);
		goto out;
	}
	if (vg_util_alg(&enc.oid, &name, &klen) != VG_UTIL_ALG_CIPHER) {
		vg_util_err_alg(path, what, &enc.oid, p12);
		goto out;
	}
	if (vg_util_pbkdf2_params(path, &kdf.params, &k) != 0)
		goto out;
	cur = enc.params;
	if (vg_der_get_octet_string(&cur, &iv) != VG_OK ||
	    !vg_der_at_end(&cur) || iv.len != VG_AES_BLOCK ||
	    (k.key_len != 0 && k.key_len != (uint32_t)klen)) {
		vg_util_err("%s: malformed %s parameters", path, name);
		goto out;
	}
	if (ct_len == 0 || ct_len % VG_AES_BLOCK != 0) {
		vg_util_err("%s: the encrypted data is not whole AES blocks",
		    path);
		goto out;
	}
	out = malloc(ct_len);
	if (out == NULL) {
		vg_util_err("out of memory");
		goto out;
	}
	vg_util_progress_start("deriving the key from the passphrase");
	if (vg_pbkdf2_hmac((enum vg_hash_alg)k.hash, pw->v, pw->len, k.salt.p,
	    k.salt.len, k.iterations, key, (size_t)klen) != VG_OK ||
	    vg_aes_init(&aes, key, (size_t)klen) != VG_OK) {
		vg_util_progress_stop();
		vg_util_err("%s: the key derivation failed", path);
		goto out;
	}
	vg_util_progress_stop();
	cbc_decrypt(&aes, iv.p, ct, ct_len, out);
	vg_aes_key_wipe(&aes);
	pad = unpad(out, ct_len);
	if (pad == 0) {
		rc = -2; /* a wrong passphrase, most likely */
		goto out;
	}
	*pt = out;
	*pt_len = ct_len - pad;
	out = NULL;
	rc = 0;
out:
	vg_wipe(key, sizeof(key));
	if (out != NULL) {
		vg_wipe(out, ct_len);
		free(out);
	}
	return rc;
}
