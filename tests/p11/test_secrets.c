/*
 * Secrets stay secret: a token holding every kind of key the module
 * knows, imported with known values (RSA, EC, Ed25519 and X25519 keys
 * made by OpenSSL, a generic secret, ML-KEM keys by their seed and by
 * their dk) and generated on the token (RSA, EC, ML-DSA, Ed25519,
 * X25519, ML-KEM, AES and generic secrets, made extractable so that the
 * test can read their values), used for signing, decryption, key
 * agreement and key encapsulation (the shared secrets kept on the token
 * too), with PINs set, changed and mistyped. Then:
 *   - no file of the token's database (the SQLite file, its WAL and
 *     shared-memory files) holds any private or secret key value, or any
 *     PIN, in the clear;
 *   - the module's debug log, both to stderr (VG_LOG=debug) and through
 *     syslog (log_level = debug in vgtoken.conf, shown on stderr by
 *     openlog(LOG_PERROR)), holds none of them either, raw or in hex.
 * Each secret is looked for whole and by 16-byte pieces.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "tests/p11/common.h"

#define NEW_PIN "Pin-Secret-9274"
#define WRONG_PIN "Wrong-Guess-5531"

static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;

/* ------------------------------------------------ the secrets */

struct secret {
	char what[48];
	uint8_t v[2600];
	size_t len;
};
static struct secret secrets[48];
static size_t nsecrets;

static void
add_secret(const char *what, const void *v, size_t len)
{
	struct secret *s;

	assert_true(nsecrets < sizeof(secrets) / sizeof(secrets[0]));
	assert_true(len <= sizeof(secrets[0].v) && len >= 8);
	s = &secrets[nsecrets++];
	snprintf(s->what, sizeof(s->what), "%s", what);
	memcpy(s->v, v, len);
	s->len = len;
}

/* Reads attribute t of object o (which must be extractable) and keeps
 * it as a secret. */
static void
read_secret(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE t,
    const char *what)
{
	static uint8_t buf[2600];
	CK_ATTRIBUTE a = { t, buf, sizeof(buf) };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	add_secret(what, buf, a.ulValueLen);
}

/* Whether hay holds the secret (raw, or hex in either case when hex),
 * whole or any 16-byte piece of it. Names the first find in *where. */
static int
holds(const uint8_t *hay, size_t n, const struct secret *s, int hex)
{
	static const char *const digits[2] = { "0123456789abcdef",
		"0123456789ABCDEF" };
	char h[2 * 16 + 1];
	size_t off, k, i;
	int c;

	for (off = 0; off < s->len; off += 16) {
		k = s->len - off < 16 ? s->len - off : 16;
		if (k < 8)
			break;
		if (memmem(hay, n, s->v + off, k) != NULL)
			return 1;
		for (c = 0; hex && c < 2; c++) {
			for (i = 0; i < k; i++) {
				h[2 * i] = digits[c][s->v[off + i] >> 4];
				h[2 * i + 1] = digits[c][s->v[off + i] & 15];
			}
			if (memmem(hay, n, h, 2 * k) != NULL)
				return 1;
		}
	}
	return 0;
}

/* Fails for each secret found in hay. */
static void
assert_no_secret(const uint8_t *hay, size_t n, int hex, const char *where)
{
	size_t i, found = 0;

	for (i = 0; i < nsecrets; i++)
		if (holds(hay, n, &secrets[i], hex)) {
			print_error("%s holds %s in the clear\n", where,
			    secrets[i].what);
			found++;
		}
	assert_int_equal(found, 0);
}

/* Appends a file's bytes to *buf. */
static void
slurp(const char *path, uint8_t **buf, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t chunk[65536];
	size_t k;

	assert_non_null(f);
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		*buf = realloc(*buf, *n + k);
		assert_non_null(*buf);
		memcpy(*buf + *n, chunk, k);
		*n += k;
	}
	fclose(f);
}

/* ------------------------------------------------ keys from OpenSSL */

static size_t
bn_param(const EVP_PKEY *k, const char *name, uint8_t *out)
{
	BIGNUM *bn = NULL;
	int n;

	assert_int_equal(EVP_PKEY_get_bn_param(k, name, &bn), 1);
	n = BN_bn2bin(bn, out);
	BN_free(bn);
	return (size_t)n;
}

static void
import_rsa(CK_SESSION_HANDLE h)
{
	static const char *const names[8] = { OSSL_PKEY_PARAM_RSA_N,
		OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
		OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
		OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
		OSSL_PKEY_PARAM_RSA_COEFFICIENT1 };
	static const CK_ATTRIBUTE_TYPE types[8] = { CKA_MODULUS,
		CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	static uint8_t parts[8][512];
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = CKK_RSA;
	CK_ATTRIBUTE t[13] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
	};
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	CK_OBJECT_HANDLE o;
	char what[32];
	int i;

	assert_non_null(k);
	for (i = 0; i < 8; i++) {
		t[5 + i].type = types[i];
		t[5 + i].pValue = parts[i];
		t[5 + i].ulValueLen = bn_param(k, names[i], parts[i]);
		if (i >= 2) {
			snprintf(what, sizeof(what), "imported RSA %s",
			    names[i]);
			add_secret(what, parts[i], t[5 + i].ulValueLen);
		}
	}
	EVP_PKEY_free(k);
	assert_rv(p11->C_CreateObject(h, t, 13, &o), CKR_OK);
}

static const uint8_t p256_oid[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
	0x3d, 0x03, 0x01, 0x07 };

/* An EC key imported with CKA_PRIVATE false: its scalar is encrypted
 * all the same. */
static void
import_ec(CK_SESSION_HANDLE h)
{
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = CKK_EC;
	uint8_t d[32], raw[48];
	size_t n;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_VALUE, d, sizeof(d) },
	};
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	CK_OBJECT_HANDLE o;

	assert_non_null(k);
	n = bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, raw);
	memset(d, 0, sizeof(d));
	memcpy(d + 32 - n, raw, n);
	EVP_PKEY_free(k);
	add_secret("imported EC scalar", d, sizeof(d));
	assert_rv(p11->C_CreateObject(h, t, 7, &o), CKR_OK);
}

static void
import_secret(CK_SESSION_HANDLE h)
{
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	uint8_t v[32];
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_VALUE, v, sizeof(v) },
	};
	CK_OBJECT_HANDLE o;
	CK_MECHANISM m = { CKM_SHA256_HMAC, NULL, 0 };
	uint8_t mac[32];
	CK_ULONG len = sizeof(mac);

	assert_rv(p11->C_GenerateRandom(h, v, sizeof(v)), CKR_OK);
	add_secret("imported generic secret", v, sizeof(v));
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	assert_rv(p11->C_SignInit(h, &m, o), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"x", 1, mac, &len), CKR_OK);
}

/* ------------------------------------------------ keys made on the token */

/* Signs with key k under m; returns nothing, asserts success. */
static void
sign(CK_SESSION_HANDLE h, CK_MECHANISM_TYPE mech, CK_OBJECT_HANDLE k)
{
	CK_MECHANISM m = { mech, NULL, 0 };
	static uint8_t sig[4096];
	CK_ULONG len = sizeof(sig);

	assert_rv(p11->C_SignInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_Sign(h, (CK_BYTE_PTR)"data", 4, sig, &len), CKR_OK);
}

static void
generate_pairs(CK_SESSION_HANDLE h)
{
	CK_ULONG bits = 2048, set = CKP_ML_DSA_44;
	CK_ATTRIBUTE rsa_pt[] = {
		{ CKA_MODULUS_BITS, &bits, sizeof(bits) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_ENCRYPT, &yes, 1 },
	};
	CK_ATTRIBUTE ec_pt[] = {
		{ CKA_EC_PARAMS, (void *)p256_oid, sizeof(p256_oid) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE ml_pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_DECRYPT, &yes, 1 },
	};
	CK_MECHANISM rsa = { CKM_RSA_PKCS_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM ec = { CKM_EC_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM ml = { CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
	CK_MECHANISM pkcs = { CKM_RSA_PKCS, NULL, 0 };
	CK_OBJECT_HANDLE pub, priv;
	uint8_t ct[256], pt[256];
	CK_ULONG clen = sizeof(ct), plen = sizeof(pt);
	static struct secret sk;

	assert_rv(p11->C_GenerateKeyPair(h, &rsa, rsa_pt, 3, kt, 5, &pub,
	    &priv), CKR_OK);
	read_secret(h, priv, CKA_PRIVATE_EXPONENT, "generated RSA d");
	read_secret(h, priv, CKA_PRIME_1, "generated RSA p");
	read_secret(h, priv, CKA_PRIME_2, "generated RSA q");
	read_secret(h, priv, CKA_EXPONENT_1, "generated RSA dp");
	read_secret(h, priv, CKA_EXPONENT_2, "generated RSA dq");
	read_secret(h, priv, CKA_COEFFICIENT, "generated RSA qinv");
	sign(h, CKM_SHA256_RSA_PKCS, priv);
	assert_rv(p11->C_EncryptInit(h, &pkcs, pub), CKR_OK);
	assert_rv(p11->C_Encrypt(h, (CK_BYTE_PTR)"plain", 5, ct, &clen),
	    CKR_OK);
	assert_rv(p11->C_DecryptInit(h, &pkcs, priv), CKR_OK);
	assert_rv(p11->C_Decrypt(h, ct, clen, pt, &plen), CKR_OK);

	assert_rv(p11->C_GenerateKeyPair(h, &ec, ec_pt, 2, kt, 4, &pub,
	    &priv), CKR_OK);
	read_secret(h, priv, CKA_VALUE, "generated EC scalar");
	sign(h, CKM_ECDSA_SHA256, priv);

	assert_rv(p11->C_GenerateKeyPair(h, &ml, ml_pt, 2, kt, 4, &pub,
	    &priv), CKR_OK);
	read_secret(h, priv, CKA_SEED, "generated ML-DSA seed");
	read_secret(h, priv, CKA_VALUE, "generated ML-DSA private key");
	/* Its public parts (rho and tr, FIPS 204 Alg. 24) are no secret:
	 * keep K and s1 || s2 || t0 only. */
	sk = secrets[--nsecrets];
	add_secret("generated ML-DSA K", sk.v + 32, 32);
	add_secret("generated ML-DSA s1, s2, t0", sk.v + 128, sk.len - 128);
	sign(h, CKM_ML_DSA, priv);
}

static void
generate_secrets(CK_SESSION_HANDLE h)
{
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_SIGN, &yes, 1 },
	};
	CK_MECHANISM gen = { CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
	CK_MECHANISM aes = { CKM_AES_KEY_GEN, NULL, 0 };
	CK_MECHANISM sha = { CKM_SHA256, NULL, 0 };
	CK_OBJECT_HANDLE k;
	uint8_t d[32];
	CK_ULONG dlen = sizeof(d);

	assert_rv(p11->C_GenerateKey(h, &gen, t, 5, &k), CKR_OK);
	read_secret(h, k, CKA_VALUE, "generated generic secret");
	sign(h, CKM_SHA256_HMAC, k);
	assert_rv(p11->C_DigestInit(h, &sha), CKR_OK);
	assert_rv(p11->C_DigestKey(h, k), CKR_OK);
	assert_rv(p11->C_DigestFinal(h, d, &dlen), CKR_OK);
	assert_rv(p11->C_GenerateKey(h, &aes, t, 4, &k), CKR_OK);
	read_secret(h, k, CKA_VALUE, "generated AES key");
}

/* ------------------------------------------------ Curve25519 keys */

static const uint8_t ed25519_oid[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t x25519_oid[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };

/* An Ed25519 (ed) or X25519 private key made by OpenSSL, imported by its
 * 32-byte CKA_VALUE; its public key into pk. */
static CK_OBJECT_HANDLE
import_ecx(CK_SESSION_HANDLE h, int ed, uint8_t pk[32])
{
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = ed ? CKK_EC_EDWARDS : CKK_EC_MONTGOMERY;
	uint8_t v[32];
	size_t vlen = sizeof(v), pklen = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ ed ? CKA_SIGN : CKA_DERIVE, &yes, 1 },
		{ CKA_EC_PARAMS, (void *)(ed ? ed25519_oid : x25519_oid),
		    sizeof(ed25519_oid) },
		{ CKA_VALUE, v, sizeof(v) },
	};
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, ed ? "ED25519" : "X25519");
	CK_OBJECT_HANDLE o;

	assert_non_null(k);
	assert_int_equal(EVP_PKEY_get_raw_private_key(k, v, &vlen), 1);
	assert_int_equal(EVP_PKEY_get_raw_public_key(k, pk, &pklen), 1);
	assert_int_equal(vlen, 32);
	assert_int_equal(pklen, 32);
	EVP_PKEY_free(k);
	add_secret(ed ? "imported Ed25519 private key"
		      : "imported X25519 private key", v, sizeof(v));
	assert_rv(p11->C_CreateObject(h, t, 6, &o), CKR_OK);
	return o;
}

/* An Ed25519 (ed) or X25519 pair generated on the token; its public key
 * into pk. */
static CK_OBJECT_HANDLE
generate_ecx(CK_SESSION_HANDLE h, int ed, uint8_t pk[32])
{
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)(ed ? ed25519_oid : x25519_oid),
		    sizeof(ed25519_oid) },
		{ CKA_TOKEN, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_TOKEN, &yes, 1 },
		{ ed ? CKA_SIGN : CKA_DERIVE, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_MECHANISM m = { ed ? CKM_EC_EDWARDS_KEY_PAIR_GEN
			      : CKM_EC_MONTGOMERY_KEY_PAIR_GEN, NULL, 0 };
	uint8_t der[34];
	CK_ATTRIBUTE a = { CKA_EC_POINT, der, sizeof(der) };
	CK_OBJECT_HANDLE pub, priv;

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 4, &pub, &priv),
	    CKR_OK);
	read_secret(h, priv, CKA_VALUE, ed ? "generated Ed25519 private key"
					   : "generated X25519 private key");
	/* CKA_EC_POINT: the public key as a DER OCTET STRING */
	assert_rv(p11->C_GetAttributeValue(h, pub, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, sizeof(der));
	memcpy(pk, der + 2, 32);
	return priv;
}

/* X25519 with key k and the peer's public key pk, the shared secret
 * kept on the token (CKD_NULL) and read back. */
static void
derive_x25519(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE k, const uint8_t pk[32],
    const char *what)
{
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 32, (CK_BYTE_PTR)pk };
	CK_MECHANISM m = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_DeriveKey(h, &m, k, t, 6, &o), CKR_OK);
	read_secret(h, o, CKA_VALUE, what);
}

/* Ed25519 and X25519 keys, imported and generated; each signs or agrees
 * on a secret with the other X25519 key. */
static void
ecx_keys(CK_SESSION_HANDLE h)
{
	uint8_t xi_pk[32], xg_pk[32], pk[32];
	CK_OBJECT_HANDLE xi, xg;

	sign(h, CKM_EDDSA, import_ecx(h, 1, pk));
	sign(h, CKM_EDDSA, generate_ecx(h, 1, pk));
	xi = import_ecx(h, 0, xi_pk);
	xg = generate_ecx(h, 0, xg_pk);
	derive_x25519(h, xi, xg_pk, "X25519 shared secret");
	derive_x25519(h, xg, xi_pk, "X25519 shared secret (other side)");
	assert_memory_equal(secrets[nsecrets - 1].v, secrets[nsecrets - 2].v,
	    32);
}

/* ------------------------------------------------ ML-KEM keys */

/* Keeps the secret parts of an ML-KEM dk = dk_PKE || ek || H(ek) || z
 * [FIPS 203 Alg. 16] of len = 768k + 96 bytes: dk_PKE (384k bytes) and
 * z. The ek and its hash are public. */
static void
add_mlkem_dk(const char *what, const uint8_t *dk, size_t len)
{
	char name[48];

	snprintf(name, sizeof(name), "%s dk_PKE", what);
	add_secret(name, dk, (len - 96) / 2);
	snprintf(name, sizeof(name), "%s z", what);
	add_secret(name, dk + len - 32, 32);
}

/* Encapsulates to pub and decapsulates with priv, both shared secrets
 * kept on the token; the decapsulated one read back. */
static void
kem(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE pub, CK_OBJECT_HANDLE priv,
    const char *what)
{
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };
	CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	CK_KEY_TYPE kt = CKK_GENERIC_SECRET;
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	static uint8_t ct[1568];
	CK_ULONG clen = sizeof(ct);
	CK_OBJECT_HANDLE k1, k2;

	assert_rv(p11->C_EncapsulateKey(h, &m, pub, t, 6, ct, &clen, &k1),
	    CKR_OK);
	assert_rv(p11->C_DecapsulateKey(h, &m, priv, t, 6, ct, clen, &k2),
	    CKR_OK);
	read_secret(h, k2, CKA_VALUE, what);
}

/* An ML-KEM pair of set on the token (tok) or in the session, its
 * private key extractable. */
static void
generate_mlkem(CK_SESSION_HANDLE h, CK_ULONG set, CK_BBOOL *tok,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_ATTRIBUTE pt[] = {
		{ CKA_PARAMETER_SET, &set, sizeof(set) },
		{ CKA_TOKEN, tok, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_TOKEN, tok, 1 },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_MECHANISM m = { CKM_ML_KEM_KEY_PAIR_GEN, NULL, 0 };

	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 2, kt, 3, pub, priv),
	    CKR_OK);
}

/*
 * ML-KEM-768 generated on the token (its seed d || z and its dk read
 * back), ML-KEM-512 imported by a random seed (the token keeps the seed
 * only and expands it when the key is used), ML-KEM-768 imported by the
 * dk of a session key (which never reaches the database).
 */
static void
mlkem_keys(CK_SESSION_HANDLE h)
{
	static uint8_t seed[64], dk[2400];
	static struct secret sk;
	CK_OBJECT_CLASS cls = CKO_PRIVATE_KEY;
	CK_KEY_TYPE kt = CKK_ML_KEM;
	CK_ULONG s512 = CKP_ML_KEM_512, s768 = CKP_ML_KEM_768;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PARAMETER_SET, &s512, sizeof(s512) },
		{ CKA_SEED, seed, sizeof(seed) },
	};
	CK_ATTRIBUTE rd = { CKA_VALUE, dk, sizeof(dk) };
	CK_OBJECT_HANDLE pub, priv, o;

	generate_mlkem(h, s768, &yes, &pub, &priv);
	read_secret(h, priv, CKA_SEED, "generated ML-KEM seed");
	read_secret(h, priv, CKA_VALUE, "generated ML-KEM dk");
	sk = secrets[--nsecrets];
	add_mlkem_dk("generated ML-KEM", sk.v, sk.len);
	kem(h, pub, priv, "ML-KEM shared secret (generated key)");

	assert_rv(p11->C_GenerateRandom(h, seed, sizeof(seed)), CKR_OK);
	add_secret("imported ML-KEM seed", seed, sizeof(seed));
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);

	generate_mlkem(h, s768, &no, &pub, &priv);
	assert_rv(p11->C_GetAttributeValue(h, priv, &rd, 1), CKR_OK);
	assert_int_equal(rd.ulValueLen, sizeof(dk));
	add_mlkem_dk("imported ML-KEM", dk, sizeof(dk));
	t[3].pValue = &s768;
	t[4].type = CKA_VALUE;
	t[4].pValue = dk;
	t[4].ulValueLen = sizeof(dk);
	assert_rv(p11->C_CreateObject(h, t, 5, &o), CKR_OK);
	kem(h, pub, o, "ML-KEM shared secret (imported key)");
}

/* ------------------------------------------------ the scenario */

/* A public value the database must show: proof that the search sees
 * what is stored in the clear. */
static const struct secret canary = { "public canary",
	"canary: a public value, stored as is", 36 };

static void
public_data(CK_SESSION_HANDLE h)
{
	CK_OBJECT_CLASS cls = CKO_DATA;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &cls, sizeof(cls) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_PRIVATE, &no, 1 },
		{ CKA_VALUE, (void *)canary.v, canary.len },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
}

/*
 * A token with every kind of key, used; PINs set, changed, mistyped.
 * The module is finalised at the end; the database stays in dir.
 */
static void
scenario(char dir[64], const char *extra)
{
	CK_SESSION_HANDLE h;
	CK_SLOT_ID slot;

	nsecrets = 0;
	add_secret("SO PIN", P11_SO_PIN, strlen(P11_SO_PIN));
	add_secret("user PIN", P11_USER_PIN, strlen(P11_USER_PIN));
	add_secret("new user PIN", NEW_PIN, strlen(NEW_PIN));
	add_secret("mistyped PIN", WRONG_PIN, strlen(WRONG_PIN));
	assert_int_equal(p11_fresh_token(dir, extra, "secrets", &slot), 0);
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION | CKF_RW_SESSION,
	    NULL, NULL, &h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN)), CKR_OK);
	assert_rv(p11->C_SetPIN(h, (CK_UTF8CHAR_PTR)P11_USER_PIN,
	    strlen(P11_USER_PIN), (CK_UTF8CHAR_PTR)NEW_PIN, strlen(NEW_PIN)),
	    CKR_OK);
	public_data(h);
	import_rsa(h);
	import_ec(h);
	import_secret(h);
	generate_pairs(h);
	ecx_keys(h);
	mlkem_keys(h);
	generate_secrets(h);
	assert_rv(p11->C_Logout(h), CKR_OK);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)WRONG_PIN,
	    strlen(WRONG_PIN)), CKR_PIN_INCORRECT);
	assert_rv(p11->C_Login(h, CKU_USER, (CK_UTF8CHAR_PTR)NEW_PIN,
	    strlen(NEW_PIN)), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	assert_rv(p11->C_Finalize(NULL), CKR_OK);
}

/* Every file of the token's database, concatenated. */
static void
database_bytes(const char *dir, uint8_t **buf, size_t *n)
{
	char path[64 + 16 + 256];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/vgtoken", dir);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "vgtoken.db", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/vgtoken/%s", dir, e->d_name);
		slurp(path, buf, n);
	}
	closedir(d);
}

/* Runs the scenario with stderr sent to a file; returns what was
 * written there. */
static uint8_t *
logged_scenario(char dir[64], const char *extra, size_t *n)
{
	char path[] = "/tmp/vgtoken-log-XXXXXX";
	uint8_t *buf = NULL;
	int fd = mkstemp(path), saved;

	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0 && dup2(fd, STDERR_FILENO) >= 0);
	scenario(dir, extra);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	*n = 0;
	slurp(path, &buf, n);
	unlink(path);
	return buf;
}

/* The database, and the debug log to stderr. */
static void
test_database_and_stderr_log(void **state)
{
	uint8_t *db = NULL, *log;
	size_t ndb = 0, nlog;
	char dir[64];

	(void)state;
	setenv("VG_LOG", "debug", 1);
	log = logged_scenario(dir, "sqlite_synchronous = off\n", &nlog);
	unsetenv("VG_LOG");
	database_bytes(dir, &db, &ndb);
	print_message("%zu secrets; database %zu bytes, log %zu bytes\n",
	    nsecrets, ndb, nlog);
	assert_true(holds(db, ndb, &canary, 0));
	/* The log is there: the calls are traced. */
	assert_non_null(memmem(log, nlog, "C_Login -> CKR_PIN_INCORRECT", 28));
	assert_non_null(memmem(log, nlog, "C_CreateObject -> CKR_OK", 24));
	assert_no_secret(db, ndb, 0, "the database");
	assert_no_secret(log, nlog, 1, "the debug log (VG_LOG)");
	free(db);
	free(log);
	assert_int_equal(p11_fresh_cleanup(dir), 0);
}

/* The debug level set in vgtoken.conf logs through syslog; LOG_PERROR
 * shows the messages on stderr too. */
static void
test_syslog_log(void **state)
{
	uint8_t *log;
	size_t nlog;
	char dir[64];

	(void)state;
	unsetenv("VG_LOG");
	openlog("test_secrets", LOG_PERROR, LOG_USER);
	log = logged_scenario(dir, "sqlite_synchronous = off\n"
	    "log_level = debug\n", &nlog);
	closelog();
	assert_non_null(memmem(log, nlog, "C_Login -> CKR_PIN_INCORRECT", 28));
	assert_no_secret(log, nlog, 1, "the debug log (syslog)");
	free(log);
	assert_int_equal(p11_fresh_cleanup(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_database_and_stderr_log),
		cmocka_unit_test(test_syslog_log),
	};

	return cmocka_run_group_tests(tests, p11_group_load, NULL);
}
