/*
 * Symmetric rows of the crypto benchmark beyond GCM encryption (the table
 * is in ccases.c): AES-256-GCM decryption (tag checked, then decrypted),
 * AES-256-CTR and AES-256-CBC decryption of a buffer, AES-256 CMAC of a
 * message, AES-256 key wrap of a 32-byte key, SHA-512/256.
 * Keys are set up once on both sides, outside the timed loop; set-up also
 * checks once that both sides give the same output, so that a row never
 * compares two different computations.
 */
#include "config.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/ccase.h"

/* s->h serves as the 16-byte IV of CBC and the counter block of CTR. */

struct sym_state {
	EVP_MAC *mac;
	EVP_MAC_CTX *mctx;
};

static int
cipher_setup(struct cstate *s, const char *name, int enc, int wrap)
{
	if (vg_aes_init(&s->ak, s->key, 32) != VG_OK)
		return -1;
	s->cipher = EVP_CIPHER_fetch(NULL, name, NULL);
	s->cctx = EVP_CIPHER_CTX_new();
	if (s->cipher == NULL || s->cctx == NULL)
		return -1;
	if (wrap)
		EVP_CIPHER_CTX_set_flags(s->cctx,
		    EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	if (EVP_CipherInit_ex(s->cctx, s->cipher, NULL, s->key, NULL,
	    enc) != 1)
		return -1;
	EVP_CIPHER_CTX_set_padding(s->cctx, 0);
	return 0;
}

/* Runs both sides once and compares n bytes of output. */
static int
same_output(struct cstate *s, size_t n)
{
	uint8_t *a = malloc(n);
	int ok;

	if (a == NULL)
		return -1;
	ok = s->c->run_vg(s) == 0;
	memcpy(a, s->out, n);
	ok = ok && s->c->run_ossl(s) == 0 && memcmp(a, s->out, n) == 0;
	free(a);
	return ok ? 0 : -1;
}

/* -------------------------------------------------------- GCM decrypt */

/* see ccase.h: s->in is encrypted in place once (12-byte IV, 16 bytes of
 * associated data, tag in s->tag), then both sides decrypt it */
int
bench_gcm_dec_setup(struct cstate *s)
{
	if (vg_aes_init(&s->ak, s->key, 32) != VG_OK ||
	    vg_aes_gcm_encrypt(&s->ak, s->iv, 12, s->aad, 16, s->in,
	    s->param, s->in, s->tag, 16) != VG_OK)
		return -1;
	s->cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
	s->cctx = EVP_CIPHER_CTX_new();
	if (s->cipher == NULL || s->cctx == NULL ||
	    EVP_DecryptInit_ex(s->cctx, s->cipher, NULL, s->key, NULL) != 1)
		return -1;
	return same_output(s, s->param);
}

/* see ccase.h */
int
bench_gcm_dec_vg(struct cstate *s)
{
	return vg_aes_gcm_decrypt(&s->ak, s->iv, 12, s->aad, 16, s->in,
	    s->param, s->out, s->tag, 16) == VG_OK ? 0 : -1;
}

/* see ccase.h */
int
bench_gcm_dec_ossl(struct cstate *s)
{
	int len = 0, fin = 0;

	if (EVP_DecryptInit_ex(s->cctx, NULL, NULL, NULL, s->iv) != 1 ||
	    EVP_DecryptUpdate(s->cctx, NULL, &len, s->aad, 16) != 1 ||
	    EVP_DecryptUpdate(s->cctx, s->out, &len, s->in,
		(int)s->param) != 1 ||
	    EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_GCM_SET_TAG, 16,
		s->tag) != 1 ||
	    EVP_DecryptFinal_ex(s->cctx, s->out + len, &fin) != 1)
		return -1;
	return 0;
}

/* ---------------------------------------------------------------- CTR */

/* see ccase.h */
int
bench_ctr_setup(struct cstate *s)
{
	if (cipher_setup(s, "AES-256-CTR", 1, 0) != 0)
		return -1;
	return same_output(s, s->param);
}

/* see ccase.h: a 128-bit counter, as OpenSSL's */
int
bench_ctr_vg(struct cstate *s)
{
	return vg_aes_ctr(&s->ak, s->h, 128, s->in, s->param, s->out) ==
	    VG_OK ? 0 : -1;
}

/* see ccase.h */
int
bench_ctr_ossl(struct cstate *s)
{
	int len = 0;

	if (EVP_EncryptInit_ex(s->cctx, NULL, NULL, NULL, s->h) != 1 ||
	    EVP_EncryptUpdate(s->cctx, s->out, &len, s->in,
		(int)s->param) != 1)
		return -1;
	return 0;
}

/* ---------------------------------------------------------------- CBC */

/* see ccase.h */
int
bench_cbc_dec_setup(struct cstate *s)
{
	if (cipher_setup(s, "AES-256-CBC", 0, 0) != 0)
		return -1;
	return same_output(s, s->param);
}

/* see ccase.h */
int
bench_cbc_dec_vg(struct cstate *s)
{
	return vg_aes_cbc_decrypt(&s->ak, s->h, s->in, s->param, s->out) ==
	    VG_OK ? 0 : -1;
}

/* see ccase.h */
int
bench_cbc_dec_ossl(struct cstate *s)
{
	int len = 0;

	if (EVP_DecryptInit_ex(s->cctx, NULL, NULL, NULL, s->h) != 1 ||
	    EVP_DecryptUpdate(s->cctx, s->out, &len, s->in,
		(int)s->param) != 1)
		return -1;
	return 0;
}

/* --------------------------------------------------------------- CMAC */

/* see ccase.h */
int
bench_cmac_setup(struct cstate *s)
{
	struct sym_state *e = calloc(1, sizeof(*e));
	OSSL_PARAM p[2];

	s->extra = e;
	if (e == NULL || vg_aes_init(&s->ak, s->key, 32) != VG_OK)
		return -1;
	e->mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	e->mctx = e->mac != NULL ? EVP_MAC_CTX_new(e->mac) : NULL;
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
	    (char *)"AES-256-CBC", 0);
	p[1] = OSSL_PARAM_construct_end();
	if (e->mctx == NULL || EVP_MAC_init(e->mctx, s->key, 32, p) != 1)
		return -1;
	return same_output(s, 16);
}

/* see ccase.h */
void
bench_sym_teardown(struct cstate *s)
{
	struct sym_state *e = s->extra;

	if (e == NULL)
		return;
	EVP_MAC_CTX_free(e->mctx);
	EVP_MAC_free(e->mac);
	free(e);
	s->extra = NULL;
}

/* see ccase.h */
int
bench_cmac_vg(struct cstate *s)
{
	return vg_aes_cmac(&s->ak, s->in, s->param, s->out, 16) == VG_OK ?
	    0 : -1;
}

/* see ccase.h: the key stays, init restarts the MAC */
int
bench_cmac_ossl(struct cstate *s)
{
	struct sym_state *e = s->extra;
	size_t len = 0;

	if (EVP_MAC_init(e->mctx, NULL, 0, NULL) != 1 ||
	    EVP_MAC_update(e->mctx, s->in, s->param) != 1 ||
	    EVP_MAC_final(e->mctx, s->out, &len, 16) != 1)
		return -1;
	return 0;
}

/* ----------------------------------------------------------------- KW */

/* see ccase.h */
int
bench_kw_setup(struct cstate *s)
{
	if (cipher_setup(s, "AES-256-WRAP", 1, 1) != 0)
		return -1;
	return same_output(s, s->param + 8);
}

/* see ccase.h */
int
bench_kw_vg(struct cstate *s)
{
	return vg_aes_kw_wrap(&s->ak, s->in, s->param, s->out) == VG_OK ?
	    0 : -1;
}

/* see ccase.h: re-initialised without a key, so the schedule stays */
int
bench_kw_ossl(struct cstate *s)
{
	int len = 0;

	if (EVP_EncryptInit_ex(s->cctx, NULL, NULL, NULL, NULL) != 1 ||
	    EVP_EncryptUpdate(s->cctx, s->out, &len, s->in,
		(int)s->param) != 1 || len != (int)s->param + 8)
		return -1;
	return 0;
}

/* -------------------------------------------------------- SHA-512/256 */

/* see ccase.h */
int
bench_sha512_256_setup(struct cstate *s)
{
	s->md = EVP_MD_fetch(NULL, "SHA2-512/256", NULL);
	s->mctx = EVP_MD_CTX_new();
	if (s->md == NULL || s->mctx == NULL)
		return -1;
	return same_output(s, 32);
}

/* see ccase.h */
int
bench_sha512_256_vg(struct cstate *s)
{
	vg_hash(VG_HASH_SHA512_256, s->in, s->param, s->out);
	return 0;
}

/* see ccase.h */
int
bench_sha512_256_ossl(struct cstate *s)
{
	unsigned int len = 0;

	if (EVP_DigestInit_ex(s->mctx, s->md, NULL) != 1 ||
	    EVP_DigestUpdate(s->mctx, s->in, s->param) != 1 ||
	    EVP_DigestFinal_ex(s->mctx, s->out, &len) != 1)
		return -1;
	return 0;
}
