/*
 * RSA and ML-DSA rows of the crypto benchmark (the table is in ccases.c).
 * RSA: the same OpenSSL-made key on both sides, loaded once; the private
 * operation with CRT and blinding on both sides (vgtoken's vg_rsa_private,
 * OpenSSL's EVP_PKEY_decrypt without padding), and the padded operations
 * with SHA-256 as a token is asked for them: PKCS#1 v1.5 and PSS (32-byte
 * salt) signatures of a given hash, PKCS#1 v1.5 verification and OAEP
 * decryption of one ciphertext. Every OpenSSL context is set up once, with
 * its padding and digests, outside the timed loop, except in the cold-key
 * row: the key's PKCS#1 DER parsed and loaded (vgtoken's checks and first
 * blinding pair; OpenSSL's d2i_PrivateKey, a new context, and its blinding
 * made at the first use), then one PKCS#1 v1.5 signature, as a process
 * that signs once does. ML-DSA has no OpenSSL peer
 * in Debian 12: its rows compare vgtoken's kernels with its portable path.
 */
#include "config.h"

#include <openssl/core_names.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/ccase.h"

struct rsa_state {
	struct vg_rng rng;
	struct vg_rsa_key key, cold;
	EVP_PKEY *pkey;
	uint8_t *der;           /* the key as PKCS#1 RSAPrivateKey DER */
	size_t derlen;
	EVP_PKEY_CTX *dec, *sign, *pss, *verify, *oaep, *gen;
	struct vg_rsa_key_bytes made;
	uint8_t in[512], out[512];
	uint8_t hash[32], sig[512], ct[512];
	size_t len;
};

/* An OpenSSL context of pkey for one RSA padding with SHA-256. */
static EVP_PKEY_CTX *
rsa_ctx_ossl(EVP_PKEY *pkey, int (*init)(EVP_PKEY_CTX *), int pad)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pkey, NULL);
	int ok = c != NULL && init(c) == 1 &&
	    EVP_PKEY_CTX_set_rsa_padding(c, pad) == 1;

	if (ok && pad == RSA_PKCS1_OAEP_PADDING)
		ok = EVP_PKEY_CTX_set_rsa_oaep_md(c, EVP_sha256()) == 1 &&
		    EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()) == 1;
	else if (ok && pad != RSA_NO_PADDING)
		ok = EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) == 1;
	if (ok && pad == RSA_PKCS1_PSS_PADDING)
		ok = EVP_PKEY_CTX_set_rsa_pss_saltlen(c, 32) == 1;
	if (!ok) {
		EVP_PKEY_CTX_free(c);
		c = NULL;
	}
	return c;
}

/* see tests/bench/ccase.h */
int
bench_rsa_setup(struct cstate *s)
{
	static const char *const names[] = { "n", "e", "d", "rsa-factor1",
		"rsa-factor2", "rsa-exponent1", "rsa-exponent2",
		"rsa-coefficient1" };
	struct rsa_state *e = calloc(1, sizeof(*e));
	uint8_t buf[8][512];
	struct vg_der parts[8];
	struct vg_der_rsa_priv in;
	size_t i;
	int derlen;

	s->extra = e;
	if (e == NULL || vg_rng_init(&e->rng) != VG_OK)
		return -1;
	e->pkey = EVP_RSA_gen((unsigned)s->c->param);
	if (e->pkey == NULL)
		return -1;
	for (i = 0; i < 8; i++) {
		BIGNUM *bn = NULL;

		if (EVP_PKEY_get_bn_param(e->pkey, names[i], &bn) != 1)
			return -1;
		parts[i].p = buf[i];
		parts[i].len = (size_t)BN_bn2bin(bn, buf[i]);
		BN_free(bn);
	}
	in.n = parts[0];
	in.e = parts[1];
	in.d = parts[2];
	in.p = parts[3];
	in.q = parts[4];
	in.dp = parts[5];
	in.dq = parts[6];
	in.qinv = parts[7];
	if (vg_rsa_key_load(&e->key, &in, NULL, 0, &e->rng) != VG_OK)
		return -1;
	e->len = parts[0].len;
	/* An input below n: the top byte cleared. */
	for (i = 0; i < e->len; i++)
		e->in[i] = (uint8_t)(i * 37 + 11);
	e->in[0] = 0;
	for (i = 0; i < sizeof(e->hash); i++)
		e->hash[i] = (uint8_t)(i * 13 + 5);
	e->dec = rsa_ctx_ossl(e->pkey, EVP_PKEY_decrypt_init, RSA_NO_PADDING);
	e->sign = rsa_ctx_ossl(e->pkey, EVP_PKEY_sign_init, RSA_PKCS1_PADDING);
	e->pss = rsa_ctx_ossl(e->pkey, EVP_PKEY_sign_init,
	    RSA_PKCS1_PSS_PADDING);
	e->verify = rsa_ctx_ossl(e->pkey, EVP_PKEY_verify_init,
	    RSA_PKCS1_PADDING);
	e->oaep = rsa_ctx_ossl(e->pkey, EVP_PKEY_decrypt_init,
	    RSA_PKCS1_OAEP_PADDING);
	e->gen = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
	derlen = i2d_PrivateKey(e->pkey, &e->der);
	if (derlen <= 0)
		return -1;
	e->derlen = (size_t)derlen;
	if (e->dec == NULL || e->sign == NULL || e->pss == NULL ||
	    e->verify == NULL || e->oaep == NULL || e->gen == NULL ||
	    EVP_PKEY_keygen_init(e->gen) != 1 ||
	    EVP_PKEY_CTX_set_rsa_keygen_bits(e->gen,
	    (int)s->c->param) != 1)
		return -1;
	/* The signature to verify and the ciphertext to decrypt, made by
	 * vgtoken and checked by OpenSSL below as a first run would. */
	if (vg_rsa_pkcs1_sign(&e->key, VG_HASH_SHA256, e->hash,
	    sizeof(e->hash), e->sig, e->len, &e->rng) != VG_OK ||
	    vg_rsa_oaep_encrypt(vg_rsa_key_pub(&e->key), VG_HASH_SHA256,
	    VG_HASH_SHA256, NULL, 0, e->hash, sizeof(e->hash), e->ct, e->len,
	    &e->rng) != VG_OK ||
	    bench_rsa_verify_ossl(s) != 0 || bench_rsa_oaep_ossl(s) != 0)
		return -1;
	return 0;
}

/* see tests/bench/ccase.h */
void
bench_rsa_teardown(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	if (e == NULL)
		return;
	EVP_PKEY_CTX_free(e->dec);
	EVP_PKEY_CTX_free(e->sign);
	EVP_PKEY_CTX_free(e->pss);
	EVP_PKEY_CTX_free(e->verify);
	EVP_PKEY_CTX_free(e->oaep);
	EVP_PKEY_CTX_free(e->gen);
	EVP_PKEY_free(e->pkey);
	OPENSSL_free(e->der);
	vg_rsa_key_wipe(&e->key);
	vg_rsa_key_wipe(&e->cold);
	vg_wipe(&e->made, sizeof(e->made));
	vg_rng_wipe(&e->rng);
	free(e);
	s->extra = NULL;
}

/* see tests/bench/ccase.h */
int
bench_rsa_priv_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return vg_rsa_private(&e->key, e->out, e->in, e->len, &e->rng) ==
	    VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_priv_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	size_t len = sizeof(e->out);

	return EVP_PKEY_decrypt(e->dec, e->out, &len, e->in, e->len) == 1
	    ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_sign_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return vg_rsa_pkcs1_sign(&e->key, VG_HASH_SHA256, e->hash,
	    sizeof(e->hash), e->out, e->len, &e->rng) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_sign_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	size_t len = sizeof(e->out);

	return EVP_PKEY_sign(e->sign, e->out, &len, e->hash,
	    sizeof(e->hash)) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_pss_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return vg_rsa_pss_sign(&e->key, VG_HASH_SHA256, VG_HASH_SHA256, 32,
	    e->hash, sizeof(e->hash), e->out, e->len, &e->rng) == VG_OK
	    ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_pss_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	size_t len = sizeof(e->out);

	return EVP_PKEY_sign(e->pss, e->out, &len, e->hash,
	    sizeof(e->hash)) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_verify_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return vg_rsa_pkcs1_verify(vg_rsa_key_pub(&e->key), VG_HASH_SHA256,
	    e->hash, sizeof(e->hash), e->sig, e->len) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_verify_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return EVP_PKEY_verify(e->verify, e->sig, e->len, e->hash,
	    sizeof(e->hash)) == 1 ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_oaep_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	size_t len = 0;

	return vg_rsa_oaep_decrypt(&e->key, VG_HASH_SHA256, VG_HASH_SHA256,
	    NULL, 0, e->ct, e->len, e->out, sizeof(e->out), &len, &e->rng) ==
	    VG_OK && len == sizeof(e->hash) ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_oaep_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	size_t len = sizeof(e->out);

	return EVP_PKEY_decrypt(e->oaep, e->out, &len, e->ct, e->len) == 1 &&
	    len == sizeof(e->hash) ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_keygen_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;

	return vg_rsa_keygen(&e->made, (unsigned)s->c->param, 65537,
	    &e->rng) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_keygen_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	EVP_PKEY *k = NULL;
	int rc = EVP_PKEY_keygen(e->gen, &k) == 1 ? 0 : -1;

	EVP_PKEY_free(k);
	return rc;
}

/* see tests/bench/ccase.h */
int
bench_rsa_cold_vg(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	struct vg_der_rsa_priv in;

	if (vg_der_parse_rsa_private(e->der, e->derlen, &in) != VG_OK ||
	    vg_rsa_key_load(&e->cold, &in, NULL, 0, &e->rng) != VG_OK)
		return -1;
	return vg_rsa_pkcs1_sign(&e->cold, VG_HASH_SHA256, e->hash,
	    sizeof(e->hash), e->out, e->len, &e->rng) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_rsa_cold_ossl(struct cstate *s)
{
	struct rsa_state *e = s->extra;
	const unsigned char *p = e->der;
	EVP_PKEY *k = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)e->derlen);
	EVP_PKEY_CTX *c = k != NULL ? rsa_ctx_ossl(k, EVP_PKEY_sign_init,
	    RSA_PKCS1_PADDING) : NULL;
	size_t len = sizeof(e->out);
	int rc = c != NULL && EVP_PKEY_sign(c, e->out, &len, e->hash,
	    sizeof(e->hash)) == 1 ? 0 : -1;

	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(k);
	return rc;
}

/* see tests/bench/ccase.h */
void
bench_impl_rsa(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->rsa.impl, n - 1);
	buf[n - 1] = '\0';
}

struct mldsa_state {
	enum vg_mldsa_param set;
	uint8_t xi[32], rnd[32], zero[32], msg[32];
	uint64_t n;             /* the hedged rows' counter, in rnd */
	uint64_t m;             /* the deterministic row's counter, in msg */
	uint8_t pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t sig[VG_MLDSA_MAX_SIG_LEN];
	struct vg_mldsa_expanded *x;       /* the expanded forms */
	struct vg_mldsa_expanded_pk *xp;
};

/* see tests/bench/ccase.h; param is 44, 65 or 87 */
int
bench_mldsa_setup(struct cstate *s)
{
	struct mldsa_state *e = calloc(1, sizeof(*e));
	size_t i;

	s->extra = e;
	if (e == NULL)
		return -1;
	e->set = s->c->param == 44 ? VG_MLDSA_44
	    : s->c->param == 65 ? VG_MLDSA_65 : VG_MLDSA_87;
	for (i = 0; i < 32; i++) {
		e->xi[i] = (uint8_t)i;
		e->rnd[i] = (uint8_t)(0x5a ^ i);
	}
	if (vg_mldsa_keygen_internal(e->set, e->xi, e->pk, e->sk) != VG_OK ||
	    vg_mldsa_sign(e->set, e->sk, vg_mldsa_sk_len(e->set), s->key, 32,
	    NULL, 0, e->rnd, e->sig) != VG_OK)
		return -1;
	if (posix_memalign((void **)&e->x, 32,
	    vg_mldsa_expanded_size(e->set)) != 0 ||
	    posix_memalign((void **)&e->xp, 32,
	    vg_mldsa_expanded_pk_size(e->set)) != 0 ||
	    vg_mldsa_expand_sk(e->set, e->sk, vg_mldsa_sk_len(e->set), e->x,
	    vg_mldsa_expanded_size(e->set)) != VG_OK ||
	    vg_mldsa_expand_pk(e->set, e->pk, vg_mldsa_pk_len(e->set), e->xp,
	    vg_mldsa_expanded_pk_size(e->set)) != VG_OK)
		return -1;
	return 0;
}

/* see tests/bench/ccase.h */
void
bench_mldsa_teardown(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	if (e != NULL) {
		if (e->x != NULL)
			memset(e->x, 0, vg_mldsa_expanded_size(e->set));
		free(e->x);
		free(e->xp);
		memset(e, 0, sizeof(*e));
		free(e);
	}
	s->extra = NULL;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_keygen_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_keygen_internal(e->set, e->xi, e->pk, e->sk) ==
	    VG_OK ? 0 : -1;
}

/* Deterministic signing (rnd all zero) of a fresh message per signature
 * (a counter over the bench key): the number of rejected attempts depends
 * on the message, so one fixed message would time that message's count
 * only (from one attempt to several times the mean), not the average the
 * hedged rows and other implementations' benchmarks report. */
static const uint8_t *
next_msg(struct mldsa_state *e, const uint8_t key[32])
{
	e->m++;
	memcpy(e->msg, key, sizeof(e->msg));
	memcpy(e->msg, &e->m, sizeof(e->m));
	return e->msg;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_sign_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_sign(e->set, e->sk, vg_mldsa_sk_len(e->set),
	    next_msg(e, s->key), 32, NULL, 0, e->zero, e->sig) == VG_OK ? 0 : -1;
}

/* A fresh rnd per signature (a counter), as hedged C_Sign has: the
 * number of rejected attempts then averages out as it does there. */
static const uint8_t *
next_rnd(struct mldsa_state *e)
{
	e->n++;
	memcpy(e->rnd, &e->n, sizeof(e->n));
	return e->rnd;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_sign_hedged_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_sign(e->set, e->sk, vg_mldsa_sk_len(e->set), s->key,
	    32, NULL, 0, next_rnd(e), e->sig) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_sign_expanded_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_sign_expanded(e->x, s->key, 32, NULL, 0, next_rnd(e),
	    e->sig) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_verify_expanded_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_verify_expanded(e->xp, s->key, 32, NULL, 0, e->sig,
	    vg_mldsa_sig_len(e->set)) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mldsa_verify_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_verify(e->set, e->pk, vg_mldsa_pk_len(e->set), s->key,
	    32, NULL, 0, e->sig, vg_mldsa_sig_len(e->set)) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
void
bench_impl_mldsa(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->mldsa.impl, n - 1);
	buf[n - 1] = '\0';
}
