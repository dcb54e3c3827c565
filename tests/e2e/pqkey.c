/*
 * pqkey: ML-DSA and ML-KEM key files and checks for tests/e2e/util_pq.sh,
 * made with the project's crypto/ (OpenSSL 3.0 knows neither algorithm).
 *
 *   pqkey p8 SET SEED FORM OUT
 *       a PKCS#8 PrivateKeyInfo / OneAsymmetricKey of the key pair of
 *       SEED (hex: 32 bytes for ML-DSA, 64 for ML-KEM), as DER, or PEM
 *       when OUT ends in .pem. FORM is the privateKey CHOICE: seed,
 *       expanded or both; or a wrong file: mismatch (both, the expanded
 *       key of another seed), short-seed, short-expanded, bad-expanded
 *       (a byte of tr or H(ek) changed), params (NULL parameters),
 *       inner-trailing (a byte after the CHOICE), other-oid (the OID of
 *       the other family), unknown-oid; pub and bad-pub add the public
 *       key (version 1), the right one or a changed one.
 *   pqkey spki SET SEED OUT
 *       the public key as a PEM SubjectPublicKeyInfo, as
 *       vgtoken-util --export-pubkey writes it.
 *   pqkey use SET SEED TOKEN PIN LABEL
 *       through the PKCS#11 3.2 function list: the key pair labelled
 *       LABEL on token TOKEN is SEED's. ML-DSA: the private key signs and
 *       the seed's public key verifies; the public key verifies what the
 *       seed's private key signs. ML-KEM: what the public key
 *       encapsulates, the seed's dk decapsulates to the same secret; the
 *       private key decapsulates what the seed's ek encapsulates.
 *
 * SET is mldsa44, mldsa65, mldsa87, ml-kem-512, ml-kem-768 or
 * ml-kem-1024. Exit status 0, or 1 with a message on stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "cryptoki/pkcs11.h"
#include "tests/e2e/p11open.h"

static const struct set {
	const char *name;
	int kem, p;
	const struct vg_der *oid, *other_oid;
	CK_ULONG ckp;
	size_t seed, sk, pk;
} sets[] = {
	{ "mldsa44", 0, VG_MLDSA_44, &vg_oid_ml_dsa_44, &vg_oid_ml_kem_512,
	    CKP_ML_DSA_44, 32, VG_MLDSA_44_SK_LEN, VG_MLDSA_44_PK_LEN },
	{ "mldsa65", 0, VG_MLDSA_65, &vg_oid_ml_dsa_65, &vg_oid_ml_kem_768,
	    CKP_ML_DSA_65, 32, VG_MLDSA_65_SK_LEN, VG_MLDSA_65_PK_LEN },
	{ "mldsa87", 0, VG_MLDSA_87, &vg_oid_ml_dsa_87, &vg_oid_ml_kem_1024,
	    CKP_ML_DSA_87, 32, VG_MLDSA_87_SK_LEN, VG_MLDSA_87_PK_LEN },
	{ "ml-kem-512", 1, VG_MLKEM_512, &vg_oid_ml_kem_512,
	    &vg_oid_ml_dsa_44, CKP_ML_KEM_512, 64, VG_MLKEM_512_DK_LEN,
	    VG_MLKEM_512_EK_LEN },
	{ "ml-kem-768", 1, VG_MLKEM_768, &vg_oid_ml_kem_768,
	    &vg_oid_ml_dsa_65, CKP_ML_KEM_768, 64, VG_MLKEM_768_DK_LEN,
	    VG_MLKEM_768_EK_LEN },
	{ "ml-kem-1024", 1, VG_MLKEM_1024, &vg_oid_ml_kem_1024,
	    &vg_oid_ml_dsa_87, CKP_ML_KEM_1024, 64, VG_MLKEM_1024_DK_LEN,
	    VG_MLKEM_1024_EK_LEN },
};

/* 2.16.840.1.101.3.4.3.20: next to ML-DSA-87, assigned to none of the
 * token's algorithms. */
static const uint8_t unknown_oid_bytes[] = { 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x03, 0x14 };

static uint8_t seed[64], sk[VG_MLDSA_MAX_SK_LEN], pk[VG_MLDSA_MAX_PK_LEN];

static int
die(const char *what)
{
	fprintf(stderr, "pqkey: %s\n", what);
	return 1;
}

static int
hex_seed(const char *hex, size_t n)
{
	size_t i;
	unsigned v;

	if (strlen(hex) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		seed[i] = (uint8_t)v;
	}
	return 0;
}

/* The key pair of seed into sk and pk. */
static int
keygen(const struct set *s, const uint8_t *from)
{
	return (s->kem ? vg_mlkem_keygen_internal((enum vg_mlkem_param)s->p,
			     from, pk, sk)
		       : vg_mldsa_keygen_internal((enum vg_mldsa_param)s->p,
			     from, pk, sk)) == VG_OK ? 0 : -1;
}

static int
write_file(const char *path, const uint8_t *der, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (f == NULL)
		return -1;
	ok = fwrite(der, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* der as PEM with label into path. */
static int
write_pem(const char *path, const char *label, const uint8_t *der,
    size_t len)
{
	size_t pem_len = 0;
	char *pem;
	FILE *f;
	int ok;

	if (vg_pem_encode(NULL, &pem_len, label, der, len) != VG_OK ||
	    (pem = malloc(pem_len)) == NULL)
		return -1;
	if (vg_pem_encode(pem, &pem_len, label, der, len) != VG_OK ||
	    (f = fopen(path, "w")) == NULL) {
		free(pem);
		return -1;
	}
	ok = fwrite(pem, 1, pem_len, f) == pem_len;
	free(pem);
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int
cmd_p8(const struct set *s, const char *form, const char *out)
{
	static uint8_t key[16384], body[16384], der[16384], bits[4096];
	struct vg_der_mldsa_priv m;
	struct vg_der oid = *s->oid;
	uint8_t other[64];
	size_t klen = sizeof(key), blen = 0, n = strlen(out), dlen;
	int version = 0, with_pub = 0, params = 0;

	if (keygen(s, seed) != 0)
		return die("keygen failed");
	m.seed = vg_der_make(seed, s->seed);
	m.sk = vg_der_make(sk, s->sk);
	if (strcmp(form, "seed") == 0 || strcmp(form, "pub") == 0 ||
	    strcmp(form, "bad-pub") == 0 || strcmp(form, "params") == 0 ||
	    strcmp(form, "other-oid") == 0 ||
	    strcmp(form, "unknown-oid") == 0 ||
	    strcmp(form, "inner-trailing") == 0) {
		m.sk = vg_der_make(NULL, 0);
	} else if (strcmp(form, "expanded") == 0) {
		m.seed = vg_der_make(NULL, 0);
	} else if (strcmp(form, "both") == 0) {
		/* as is */
	} else if (strcmp(form, "mismatch") == 0) {
		memcpy(other, seed, s->seed);
		other[0] ^= 1;
		if (keygen(s, other) != 0)
			return die("keygen failed");
	} else if (strcmp(form, "short-seed") == 0) {
		m.seed.len--;
		m.sk = vg_der_make(NULL, 0);
	} else if (strcmp(form, "short-expanded") == 0) {
		m.seed = vg_der_make(NULL, 0);
		m.sk.len--;
	} else if (strcmp(form, "bad-expanded") == 0) {
		/* tr [FIPS 204 Alg. 24] or H(ek) [FIPS 203 Alg. 16] */
		m.seed = vg_der_make(NULL, 0);
		sk[s->kem ? s->sk - 50 : 70] ^= 1;
	} else {
		return die("unknown form");
	}
	if (vg_der_build_mldsa_private(key, &klen, &m) != VG_OK)
		return die("cannot build the private key");
	if (strcmp(form, "inner-trailing") == 0)
		key[klen++] = 0;
	if (strcmp(form, "other-oid") == 0)
		oid = *s->other_oid;
	if (strcmp(form, "unknown-oid") == 0)
		oid = vg_der_make(unknown_oid_bytes, sizeof(unknown_oid_bytes));
	params = strcmp(form, "params") == 0;
	with_pub = strcmp(form, "pub") == 0 || strcmp(form, "bad-pub") == 0;
	version = with_pub;
	/* OneAsymmetricKey [RFC 5958 §2]: version, privateKeyAlgorithm,
	 * privateKey, publicKey [1] IMPLICIT BIT STRING in version 1 */
	blen = vg_der_put_uint32(body, (uint32_t)version);
	dlen = vg_der_put_oid(NULL, &oid) + (params ? 2 : 0);
	blen += vg_der_put_sequence(body + blen, dlen);
	blen += vg_der_put_oid(body + blen, &oid);
	if (params)
		blen += vg_der_put_null(body + blen);
	blen += vg_der_put_octet_string(body + blen, key, klen);
	if (with_pub) {
		bits[0] = 0;
		memcpy(bits + 1, pk, s->pk);
		if (strcmp(form, "bad-pub") == 0)
			bits[1 + s->pk / 2] ^= 1;
		blen += vg_der_put_tlv(body + blen, 0x81, bits, s->pk + 1);
	}
	dlen = vg_der_put_sequence(der, blen);
	memcpy(der + dlen, body, blen);
	dlen += blen;
	vg_wipe(sk, sizeof(sk));
	vg_wipe(key, sizeof(key));
	if (n > 4 && strcmp(out + n - 4, ".pem") == 0
	    ? write_pem(out, "PRIVATE KEY", der, dlen) != 0
	    : write_file(out, der, dlen) != 0)
		return die("cannot write the file");
	return 0;
}

static int
cmd_spki(const struct set *s, const char *out)
{
	static uint8_t der[4096];
	struct vg_der_algid alg;
	size_t len = sizeof(der);

	if (keygen(s, seed) != 0)
		return die("keygen failed");
	alg.oid = *s->oid;
	alg.params = vg_der_make(NULL, 0);
	if (vg_der_build_spki(der, &len, &alg, pk, s->pk) != VG_OK ||
	    write_pem(out, "PUBLIC KEY", der, len) != 0)
		return die("cannot write the SPKI");
	return 0;
}

/* ------------------------------------------------------------ use */

static CK_FUNCTION_LIST_3_2 *f;
static CK_SESSION_HANDLE h;

static int
fail_rv(const char *what, CK_RV rv)
{
	fprintf(stderr, "pqkey: %s: 0x%lx\n", what, (unsigned long)rv);
	return 1;
}

static int
use_mldsa(const struct set *s, CK_OBJECT_HANDLE pub, CK_OBJECT_HANDLE priv)
{
	static uint8_t sig[VG_MLDSA_MAX_SIG_LEN];
	static const char msg[] = "signed by the imported key";
	static const uint8_t rnd[VG_MLDSA_RND_LEN];
	CK_MECHANISM m = { CKM_ML_DSA, NULL, 0 };
	CK_ULONG slen = sizeof(sig);
	enum vg_mldsa_param p = (enum vg_mldsa_param)s->p;
	CK_RV rv;

	rv = f->C_SignInit(h, &m, priv);
	if (rv == CKR_OK)
		rv = f->C_Sign(h, (CK_BYTE_PTR)msg, sizeof(msg), sig, &slen);
	if (rv != CKR_OK)
		return fail_rv("C_Sign with the imported key", rv);
	if (vg_mldsa_verify(p, pk, s->pk, msg, sizeof(msg), NULL, 0, sig,
	    slen) != VG_OK)
		return die("the seed's public key does not verify the token's "
		    "signature");
	sig[0] ^= 1;
	if (vg_mldsa_verify(p, pk, s->pk, msg, sizeof(msg), NULL, 0, sig,
	    slen) == VG_OK)
		return die("a changed signature verifies");
	if (vg_mldsa_sign(p, sk, s->sk, msg, sizeof(msg), NULL, 0, rnd, sig) !=
	    VG_OK)
		return die("vg_mldsa_sign failed");
	slen = (CK_ULONG)vg_mldsa_sig_len(p);
	rv = f->C_VerifyInit(h, &m, pub);
	if (rv == CKR_OK)
		rv = f->C_Verify(h, (CK_BYTE_PTR)msg, sizeof(msg), sig, slen);
	if (rv != CKR_OK)
		return fail_rv("C_Verify of the seed's signature with the "
		    "imported public key", rv);
	return 0;
}

static int
use_mlkem(const struct set *s, CK_OBJECT_HANDLE pub, CK_OBJECT_HANDLE priv)
{
	static uint8_t ct[VG_MLKEM_MAX_CT_LEN];
	static const CK_OBJECT_CLASS sec = CKO_SECRET_KEY;
	static const CK_KEY_TYPE gen = CKK_GENERIC_SECRET;
	static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	static const CK_ULONG len32 = 32;
	CK_ATTRIBUTE t[] = { { CKA_CLASS, (void *)&sec, sizeof(sec) },
		{ CKA_KEY_TYPE, (void *)&gen, sizeof(gen) },
		{ CKA_SENSITIVE, (void *)&no, 1 },
		{ CKA_EXTRACTABLE, (void *)&yes, 1 },
		{ CKA_VALUE_LEN, (void *)&len32, sizeof(len32) } };
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };
	enum vg_mlkem_param p = (enum vg_mlkem_param)s->p;
	uint8_t ss[VG_MLKEM_SS_LEN], mine[VG_MLKEM_SS_LEN], coins[32];
	CK_ATTRIBUTE v = { CKA_VALUE, ss, sizeof(ss) };
	CK_ULONG ctlen = sizeof(ct);
	CK_OBJECT_HANDLE k;
	CK_RV rv;

	rv = f->C_EncapsulateKey(h, &m, pub, t, 5, ct, &ctlen, &k);
	if (rv == CKR_OK)
		rv = f->C_GetAttributeValue(h, k, &v, 1);
	if (rv != CKR_OK || v.ulValueLen != 32)
		return fail_rv("C_EncapsulateKey with the imported key", rv);
	if (vg_mlkem_decaps(p, sk, s->sk, ct, ctlen, mine) != VG_OK ||
	    memcmp(mine, ss, 32) != 0)
		return die("the seed's dk does not decapsulate the token's "
		    "ciphertext to its secret");
	memset(coins, 0x5a, sizeof(coins));
	if (vg_mlkem_encaps_internal(p, pk, s->pk, coins, ct, mine) != VG_OK)
		return die("vg_mlkem_encaps_internal failed");
	ctlen = (CK_ULONG)vg_mlkem_ct_len(p);
	v.ulValueLen = sizeof(ss);
	rv = f->C_DecapsulateKey(h, &m, priv, t, 5, ct, ctlen, &k);
	if (rv == CKR_OK)
		rv = f->C_GetAttributeValue(h, k, &v, 1);
	if (rv != CKR_OK || v.ulValueLen != 32)
		return fail_rv("C_DecapsulateKey with the imported key", rv);
	if (memcmp(mine, ss, 32) != 0)
		return die("the imported key decapsulates to another secret");
	return 0;
}

static int
cmd_use(const struct set *s, const char *token, const char *pin,
    const char *label)
{
	CK_OBJECT_HANDLE pub, priv;
	int rc;

	if (keygen(s, seed) != 0)
		return die("keygen failed");
	if (e2e_open_user("pqkey", token, pin, &f, &h) != 0)
		return 1;
	pub = e2e_find(f, h, CKO_PUBLIC_KEY, label);
	priv = e2e_find(f, h, CKO_PRIVATE_KEY, label);
	if (pub == CK_INVALID_HANDLE || priv == CK_INVALID_HANDLE)
		rc = die("not one public and one private key with that label");
	else
		rc = s->kem ? use_mlkem(s, pub, priv) : use_mldsa(s, pub, priv);
	e2e_close(f, h);
	return rc;
}

int
main(int argc, char **argv)
{
	const struct set *s = NULL;
	size_t i;

	if (argc < 4)
		return die("usage: pqkey p8|spki|use SET SEED ...");
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (strcmp(argv[2], sets[i].name) == 0)
			s = &sets[i];
	if (s == NULL || hex_seed(argv[3], s->seed) != 0)
		return die("unknown set, or a seed of the wrong length");
	if (strcmp(argv[1], "p8") == 0 && argc == 6)
		return cmd_p8(s, argv[4], argv[5]);
	if (strcmp(argv[1], "spki") == 0 && argc == 5)
		return cmd_spki(s, argv[4]);
	if (strcmp(argv[1], "use") == 0 && argc == 7)
		return cmd_use(s, argv[4], argv[5], argv[6]);
	return die("usage: pqkey p8|spki|use SET SEED ...");
}
