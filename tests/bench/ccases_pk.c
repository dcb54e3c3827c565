/*
 * RSA and ML-DSA rows of the crypto benchmark (the table is in ccases.c).
 * RSA: the same OpenSSL-made key on both sides, loaded once; the private
 * operation with CRT and blinding on both sides (vgtoken's vg_rsa_private,
 * OpenSSL's EVP_PKEY_decrypt without padding). ML-DSA has no OpenSSL peer
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
	struct vg_rsa_key key;
	EVP_PKEY *pkey;
	EVP_PKEY_CTX *dec;
	uint8_t in[512], out[512];
	size_t len;
};

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
	e->dec = EVP_PKEY_CTX_new(e->pkey, NULL);
	if (e->dec == NULL || EVP_PKEY_decrypt_init(e->dec) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(e->dec, RSA_NO_PADDING) != 1)
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
	EVP_PKEY_free(e->pkey);
	vg_rsa_key_wipe(&e->key);
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
void
bench_impl_rsa(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->rsa.impl, n - 1);
	buf[n - 1] = '\0';
}

struct mldsa_state {
	enum vg_mldsa_param set;
	uint8_t xi[32], rnd[32];
	uint8_t pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t sig[VG_MLDSA_MAX_SIG_LEN];
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
	return 0;
}

/* see tests/bench/ccase.h */
void
bench_mldsa_teardown(struct cstate *s)
{
	if (s->extra != NULL) {
		memset(s->extra, 0, sizeof(struct mldsa_state));
		free(s->extra);
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

/* see tests/bench/ccase.h */
int
bench_mldsa_sign_vg(struct cstate *s)
{
	struct mldsa_state *e = s->extra;

	return vg_mldsa_sign(e->set, e->sk, vg_mldsa_sk_len(e->set), s->key,
	    32, NULL, 0, e->rnd, e->sig) == VG_OK ? 0 : -1;
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
