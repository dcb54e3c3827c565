/* The operations of the crypto and callgrind modes: see ccase.h. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "tests/bench/bench.h"
#include "tests/bench/ccase.h"

#define PW "correct horse battery staple"

/* ------------------------------------------------------------ common */

/* see ccase.h */
unsigned long
ccase_param(const struct ccase *c, int callgrind)
{
	if (callgrind && c->cg_param != 0)
		return c->cg_param;
	return c->param != 0 ? c->param : opt.pbkdf2_iter;
}

/* see ccase.h */
void
ccase_label(const struct ccase *c, unsigned long param, char *buf, size_t n)
{
	if (c->bytes && param >= 1024 && param % 1024 == 0)
		snprintf(buf, n, "%s %lu KiB", c->name, param / 1024);
	else if (c->bytes)
		snprintf(buf, n, "%s %lu B", c->name, param);
	else if (c->param == 0)
		snprintf(buf, n, "%s %lu it.", c->name, param);
	else
		snprintf(buf, n, "%s", c->name);
}

/* see ccase.h */
int
cstate_setup(struct cstate *s, const struct ccase *c, unsigned long param)
{
	size_t i, len = param < 64 ? 64 : param;

	memset(s, 0, sizeof(*s));
	s->c = c;
	s->param = param;
	s->in = malloc(len);
	s->out = malloc(len + 64);
	if (s->in == NULL || s->out == NULL)
		goto fail;
	/* Fixed, arbitrary inputs: the same on both sides. */
	for (i = 0; i < len; i++)
		s->in[i] = (uint8_t)(i * 131 + 7);
	for (i = 0; i < sizeof(s->key); i++)
		s->key[i] = (uint8_t)(0xa5 ^ i);
	for (i = 0; i < sizeof(s->iv); i++)
		s->iv[i] = (uint8_t)i;
	for (i = 0; i < sizeof(s->aad); i++)
		s->aad[i] = (uint8_t)(0x30 + i);
	for (i = 0; i < sizeof(s->salt); i++)
		s->salt[i] = (uint8_t)(0x5a + 3 * i);
	for (i = 0; i < sizeof(s->h); i++)
		s->h[i] = (uint8_t)(0x42 + 5 * i);
	for (i = 0; i < 25; i++)
		s->st[i] = 0x9e3779b97f4a7c15ULL * (i + 1);
	if (c->setup != NULL && c->setup(s) != 0)
		goto fail;
	return 0;
fail:
	free(s->in);
	free(s->out);
	s->in = s->out = NULL;
	return -1;
}

/* see ccase.h */
void
cstate_teardown(struct cstate *s)
{
	if (s->c != NULL && s->c->teardown != NULL)
		s->c->teardown(s);
	vg_aes_key_wipe(&s->ak);
	vg_aes_key_wipe(&s->kak[0]);
	vg_aes_key_wipe(&s->kak[1]);
	EVP_MD_CTX_free(s->mctx);
	EVP_MD_free(s->md);
	EVP_CIPHER_CTX_free(s->cctx);
	EVP_CIPHER_free(s->cipher);
	free(s->in);
	free(s->out);
	memset(s, 0, sizeof(*s));
}

/* see ccase.h */
void
impl_display(const char *impl, char *buf, size_t n)
{
	static const struct {
		const char *impl, *name;
	} names[] = {
		{ "c", "portable" }, { "shani", "SHA-NI" },
		{ "aesni", "AES-NI" }, { "pclmul", "PCLMUL" },
		{ "adx", "ADX" }, { "ifma", "IFMA" }, { "ifma256", "IFMA-256" },
		{ "avx2", "AVX2" },
		{ "vaes512", "VAES-512" }, { "vpclmul512", "VPCLMUL-512" },
		{ "vaes256", "VAES-256" }, { "vpclmul256", "VPCLMUL-256" },
	};
	size_t len = 0, i;
	const char *p;

	/* "c+c": portable throughout. */
	for (p = impl; *p == 'c' && (p[1] == '+' || p[1] == '\0'); p += 1 +
	    (p[1] == '+'))
		if (p[1] == '\0') {
			snprintf(buf, n, "portable");
			return;
		}
	buf[0] = '\0';
	while (*impl != '\0' && len + 1 < n) {
		size_t k = strcspn(impl, "+");
		const char *name = NULL;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].impl) == k &&
			    strncmp(names[i].impl, impl, k) == 0)
				name = names[i].name;
		if (name != NULL) {
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
			    len ? "+" : "", name);
		} else {
			len += (size_t)snprintf(buf + len, n - len, "%s",
			    len ? "+" : "");
			for (i = 0; i < k && len + 1 < n; i++)
				buf[len++] = (char)toupper((unsigned char)impl[i]);
			buf[len] = '\0';
		}
		impl += k;
		if (*impl == '+')
			impl++;
	}
}

/* ------------------------------------------------------ kernel names */

static void
impl_sha1(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->sha1_impl);
}

static void
impl_sha256(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->sha256_impl);
}

static void
impl_sha512(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->sha512_impl);
}

static void
impl_keccak(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->keccak_impl);
}

static void
impl_aes(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->aes_impl);
}

static void
impl_ghash(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->ghash_impl);
}

static void
impl_p256(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s+%s", k->p256.impl, k->p256.select_impl);
}

static void
impl_p256_mul(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->p256.impl);
}

static void
impl_p256_select(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->p256.select_impl);
}

/* GCM runs the mode kernel (aes_ctr32) and keyed GHASH. */
static void
impl_gcm(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s+%s", k->aes_modes_impl, k->ghash_update_impl);
}

/* CTR and CBC decryption: the mode kernels. */
void
bench_impl_aes_modes(const struct vg_kernels *k, char *buf, size_t n)
{
	snprintf(buf, n, "%s", k->aes_modes_impl);
}

/* ------------------------------------------------------------ hashes */

static int
md_setup(struct cstate *s, const char *name)
{
	s->md = EVP_MD_fetch(NULL, name, NULL);
	s->mctx = EVP_MD_CTX_new();
	return s->md != NULL && s->mctx != NULL ? 0 : -1;
}

static int
sha256_setup(struct cstate *s)
{
	return md_setup(s, "SHA2-256");
}

static int
sha3_256_setup(struct cstate *s)
{
	return md_setup(s, "SHA3-256");
}

static int
shake128_setup(struct cstate *s)
{
	return md_setup(s, "SHAKE-128");
}

static int
md_ossl(struct cstate *s)
{
	unsigned int len = 0;

	if (EVP_DigestInit_ex(s->mctx, s->md, NULL) != 1 ||
	    EVP_DigestUpdate(s->mctx, s->in, s->param) != 1 ||
	    EVP_DigestFinal_ex(s->mctx, s->out, &len) != 1)
		return -1;
	return 0;
}

static int
sha256_vg(struct cstate *s)
{
	vg_hash(VG_HASH_SHA256, s->in, s->param, s->out);
	return 0;
}

static int
sha3_256_vg(struct cstate *s)
{
	vg_hash(VG_HASH_SHA3_256, s->in, s->param, s->out);
	return 0;
}

/* SHAKE128: the whole input absorbed, 32 bytes squeezed. */
static int
shake128_vg(struct cstate *s)
{
	vg_shake128(s->out, 32, s->in, s->param);
	return 0;
}

static int
shake128_ossl(struct cstate *s)
{
	if (EVP_DigestInit_ex(s->mctx, s->md, NULL) != 1 ||
	    EVP_DigestUpdate(s->mctx, s->in, s->param) != 1 ||
	    EVP_DigestFinalXOF(s->mctx, s->out, 32) != 1)
		return -1;
	return 0;
}

/* ------------------------------------------------------- AES-256-GCM */

static int
gcm_setup(struct cstate *s)
{
	if (vg_aes_init(&s->ak, s->key, 32) != VG_OK)
		return -1;
	s->cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
	s->cctx = EVP_CIPHER_CTX_new();
	if (s->cipher == NULL || s->cctx == NULL ||
	    EVP_EncryptInit_ex(s->cctx, s->cipher, NULL, s->key, NULL) != 1)
		return -1;
	return 0;
}

/* One message: 12-byte IV, 16 bytes of associated data, a 16-byte tag. */
static int
gcm_vg(struct cstate *s)
{
	return vg_aes_gcm_encrypt(&s->ak, s->iv, 12, s->aad, 16, s->in,
	    s->param, s->out, s->tag, 16) == VG_OK ? 0 : -1;
}

static int
gcm_ossl(struct cstate *s)
{
	int len = 0, fin = 0;

	if (EVP_EncryptInit_ex(s->cctx, NULL, NULL, NULL, s->iv) != 1 ||
	    EVP_EncryptUpdate(s->cctx, NULL, &len, s->aad, 16) != 1 ||
	    EVP_EncryptUpdate(s->cctx, s->out, &len, s->in,
		(int)s->param) != 1 ||
	    EVP_EncryptFinal_ex(s->cctx, s->out + len, &fin) != 1 ||
	    EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_GCM_GET_TAG, 16,
		s->tag) != 1)
		return -1;
	return 0;
}

/* ------------------------------------------------ PBKDF2-HMAC-SHA-256 */

static int
pbkdf2_setup(struct cstate *s)
{
	s->md = EVP_MD_fetch(NULL, "SHA2-256", NULL);
	return s->md != NULL ? 0 : -1;
}

static int
pbkdf2_vg(struct cstate *s)
{
	return vg_pbkdf2_hmac(VG_HASH_SHA256, PW, strlen(PW), s->salt, 16,
	    (uint32_t)s->param, s->out, 32) == VG_OK ? 0 : -1;
}

static int
pbkdf2_ossl(struct cstate *s)
{
	return PKCS5_PBKDF2_HMAC(PW, (int)strlen(PW), s->salt, 16,
	    (int)s->param, s->md, 32, s->out) == 1 ? 0 : -1;
}

/* ------------------------------------------------------------- P-256 */

/* The same fixed key pair on both sides (so that instruction counts
 * repeat from run to run), and a second one as the ECDH peer. */
struct p256_state {
	EVP_PKEY *pkey, *peer;
	EVP_PKEY_CTX *gen, *sign, *verify, *derive;
	struct vg_p256_priv k;
	struct vg_p256_pub pub, peer_pub;
	struct vg_rng rng;
	uint8_t rnd[32], sig[VG_P256_SIG_LEN], der[VG_P256_SIG_DER_MAX];
	size_t derlen;
};

/* Key number i: d = SHA-256("vgtoken-bench P-256 key" || i), as vgtoken's
 * structs and as an OpenSSL key. */
static EVP_PKEY *
p256_fixed_key(unsigned i, struct vg_p256_priv *k, struct vg_p256_pub *pub)
{
	static const char tag[] = "vgtoken-bench P-256 key";
	uint8_t seed[sizeof(tag)], d[32], pt[VG_P256_POINT_LEN];
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *bn = NULL;

	memcpy(seed, tag, sizeof(tag) - 1);
	seed[sizeof(tag) - 1] = (uint8_t)i;
	vg_hash(VG_HASH_SHA256, seed, sizeof(seed), d);
	if (b == NULL || vg_p256_priv_decode(k, d, 32) != VG_OK ||
	    vg_p256_pub_from_priv(pub, k) != VG_OK)
		goto out;
	vg_p256_pub_encode(pt, pub);
	bn = BN_bin2bn(d, 32, NULL);
	if (bn == NULL ||
	    OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
		"P-256", 0) != 1 ||
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn) != 1 ||
	    OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pt,
		sizeof(pt)) != 1 ||
	    (params = OSSL_PARAM_BLD_to_param(b)) == NULL)
		goto out;
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_KEYPAIR, params) != 1)
		pkey = NULL;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_clear_free(bn);
	vg_wipe(d, sizeof(d));
	return pkey;
}

static int
p256_setup(struct cstate *s)
{
	struct p256_state *e = calloc(1, sizeof(*e));
	struct vg_p256_priv peer_k;
	size_t i;

	s->extra = e;
	if (e == NULL || vg_rng_init(&e->rng) != VG_OK)
		return -1;
	for (i = 0; i < sizeof(e->rnd); i++)
		e->rnd[i] = (uint8_t)(0x77 ^ i);
	e->gen = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (e->gen == NULL || EVP_PKEY_keygen_init(e->gen) != 1 ||
	    EVP_PKEY_CTX_set_group_name(e->gen, "P-256") != 1)
		return -1;
	e->pkey = p256_fixed_key(1, &e->k, &e->pub);
	e->peer = p256_fixed_key(2, &peer_k, &e->peer_pub);
	vg_p256_priv_wipe(&peer_k);
	if (e->pkey == NULL || e->peer == NULL)
		return -1;
	e->sign = EVP_PKEY_CTX_new(e->pkey, NULL);
	e->verify = EVP_PKEY_CTX_new(e->pkey, NULL);
	e->derive = EVP_PKEY_CTX_new(e->pkey, NULL);
	e->derlen = sizeof(e->der);
	/* The hash signed is s->key (32 bytes); both sides verify one
	 * signature (vgtoken's, also in DER for OpenSSL). */
	if (e->sign == NULL || e->verify == NULL || e->derive == NULL ||
	    EVP_PKEY_sign_init(e->sign) != 1 ||
	    EVP_PKEY_verify_init(e->verify) != 1 ||
	    EVP_PKEY_derive_init(e->derive) != 1 ||
	    EVP_PKEY_derive_set_peer(e->derive, e->peer) != 1 ||
	    vg_p256_ecdsa_sign(e->sig, &e->k, s->key, 32, VG_HASH_SHA256,
		e->rnd) != VG_OK ||
	    vg_p256_ecdsa_sig_to_der(e->der, &e->derlen, e->sig) != VG_OK ||
	    EVP_PKEY_verify(e->verify, e->der, e->derlen, s->key, 32) != 1)
		return -1;
	return 0;
}

static void
p256_teardown(struct cstate *s)
{
	struct p256_state *e = s->extra;

	if (e == NULL)
		return;
	EVP_PKEY_CTX_free(e->gen);
	EVP_PKEY_CTX_free(e->sign);
	EVP_PKEY_CTX_free(e->verify);
	EVP_PKEY_CTX_free(e->derive);
	EVP_PKEY_free(e->pkey);
	EVP_PKEY_free(e->peer);
	vg_p256_priv_wipe(&e->k);
	vg_rng_wipe(&e->rng);
	free(e);
	s->extra = NULL;
}

/* Key pair generation: a fresh scalar and [d]G. */
static int
p256_keygen_vg(struct cstate *s)
{
	struct p256_state *e = s->extra;
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	enum vg_err r;

	r = vg_p256_keygen_rng(&k, &pub, &e->rng);
	vg_p256_priv_wipe(&k);
	return r == VG_OK ? 0 : -1;
}

static int
p256_keygen_ossl(struct cstate *s)
{
	struct p256_state *e = s->extra;
	EVP_PKEY *pkey = NULL;
	int ok = EVP_PKEY_generate(e->gen, &pkey) == 1;

	EVP_PKEY_free(pkey);
	return ok ? 0 : -1;
}

/* ECDSA of a 32-byte hash; vgtoken hedged with 32 bytes of randomness
 * (as the token signs), OpenSSL with its own random nonce. */
static int
ecdsa_sign_vg(struct cstate *s)
{
	struct p256_state *e = s->extra;

	return vg_p256_ecdsa_sign(s->out, &e->k, s->key, 32, VG_HASH_SHA256,
	    e->rnd) == VG_OK ? 0 : -1;
}

static int
ecdsa_sign_ossl(struct cstate *s)
{
	struct p256_state *e = s->extra;
	size_t len = 80;

	return EVP_PKEY_sign(e->sign, s->out, &len, s->key, 32) == 1 ? 0 : -1;
}

static int
ecdsa_verify_vg(struct cstate *s)
{
	struct p256_state *e = s->extra;

	return vg_p256_ecdsa_verify(&e->pub, s->key, 32, e->sig) == VG_OK ?
	    0 : -1;
}

static int
ecdsa_verify_ossl(struct cstate *s)
{
	struct p256_state *e = s->extra;

	return EVP_PKEY_verify(e->verify, e->der, e->derlen, s->key, 32) == 1 ?
	    0 : -1;
}

/* ECDH: the variable-base multiplication and the x-coordinate. */
static int
ecdh_vg(struct cstate *s)
{
	struct p256_state *e = s->extra;

	return vg_p256_ecdh(s->out, &e->k, &e->peer_pub) == VG_OK ? 0 : -1;
}

static int
ecdh_ossl(struct cstate *s)
{
	struct p256_state *e = s->extra;
	size_t len = 64;

	return EVP_PKEY_derive(e->derive, s->out, &len) == 1 ? 0 : -1;
}

/* Kernel rows: 100 chained field multiplications; the 16 masked reads of
 * a window table. */
static int
p256_mul_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	int i;

	(void)side;
	for (i = 0; i < 100; i++)
		k->p256.mul(s->st, s->st, s->st + 4);
	return 0;
}

static int
p256_select_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	uint64_t out[VG_P256_W5_LIMBS];
	uint32_t i;

	(void)side;
	for (i = 1; i <= VG_P256_W5_ENTRIES; i++)
		k->p256.select_w5(out, (const uint64_t (*)[VG_P256_W5_LIMBS])
		    (const void *)s->in, i);
	s->out[0] = (uint8_t)out[0];
	return 0;
}

/* ------------------------------------------------- kernels, one table */

static int
sha1_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	uint32_t st[5];

	(void)side;
	memcpy(st, vg_sha1_iv, sizeof(st));
	k->sha1_blocks(st, s->in, s->param / 64);
	memcpy(s->out, st, sizeof(st));
	return 0;
}

static int
sha256_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	uint32_t st[8];

	(void)side;
	memcpy(st, vg_sha256_iv, sizeof(st));
	k->sha256_blocks(st, s->in, s->param / 64);
	memcpy(s->out, st, sizeof(st));
	return 0;
}

static int
sha512_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	uint64_t st[8];

	(void)side;
	memcpy(st, vg_sha512_iv, sizeof(st));
	k->sha512_blocks(st, s->in, s->param / 128);
	memcpy(s->out, st, sizeof(st));
	return 0;
}

/* 24 rounds of Keccak-f[1600] on one state: one permutation. */
static int
keccak_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	(void)side;
	k->keccakf1600(s->st);
	return 0;
}

/* An AES key schedule belongs to the table that made it. */
static int
aes_setup_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	return k->aes_setkey(&s->kak[side], s->key, 32) == 0 ? 0 : -1;
}

static int
aes_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	k->aes_encrypt(&s->kak[side], s->out, s->in, s->param / 16);
	return 0;
}

static int
ghash_k(struct cstate *s, const struct vg_kernels *k, int side)
{
	uint8_t y[16] = { 0 };

	(void)side;
	k->ghash(y, s->h, s->in, s->param / 16);
	memcpy(s->out, y, 16);
	return 0;
}

/* ------------------------------------------------------------ table */

#define KIB16 16384

const struct ccase crypto_cases[] = {
	/* name, kind, param, bytes, cg_param, cg_ops,
	 * setup, teardown, run_vg, run_ossl, setup_k, run_k, impl */
	{ "SHA-256", CC_PRIM, KIB16, 1, 0, 0, sha256_setup, NULL,
	    sha256_vg, md_ossl, NULL, NULL, impl_sha256 },
	{ "SHA-256", CC_PRIM, 64, 1, 0, 0, sha256_setup, NULL,
	    sha256_vg, md_ossl, NULL, NULL, impl_sha256 },
	{ "SHA3-256", CC_PRIM, KIB16, 1, 0, 0, sha3_256_setup, NULL,
	    sha3_256_vg, md_ossl, NULL, NULL, impl_keccak },
	{ "SHAKE128", CC_PRIM, KIB16, 1, 0, 0, shake128_setup, NULL,
	    shake128_vg, shake128_ossl, NULL, NULL, impl_keccak },
	{ "AES-256-GCM", CC_PRIM, KIB16, 1, 0, 0, gcm_setup, NULL,
	    gcm_vg, gcm_ossl, NULL, NULL, impl_gcm },
	{ "AES-256-GCM", CC_PRIM, 256, 1, 0, 0, gcm_setup, NULL,
	    gcm_vg, gcm_ossl, NULL, NULL, impl_gcm },
	{ "AES-256-GCM decrypt", CC_PRIM, KIB16, 1, 0, 0,
	    bench_gcm_dec_setup, NULL, bench_gcm_dec_vg, bench_gcm_dec_ossl,
	    NULL, NULL, impl_gcm },
	{ "AES-256-GCM decrypt", CC_PRIM, 256, 1, 0, 0, bench_gcm_dec_setup,
	    NULL, bench_gcm_dec_vg, bench_gcm_dec_ossl, NULL, NULL, impl_gcm },
	{ "AES-256-CTR", CC_PRIM, KIB16, 1, 0, 0, bench_ctr_setup, NULL,
	    bench_ctr_vg, bench_ctr_ossl, NULL, NULL, bench_impl_aes_modes },
	{ "AES-256-CBC decrypt", CC_PRIM, KIB16, 1, 0, 0, bench_cbc_dec_setup,
	    NULL, bench_cbc_dec_vg, bench_cbc_dec_ossl, NULL, NULL,
	    bench_impl_aes_modes },
	{ "AES-256-CMAC", CC_PRIM, 1024, 1, 0, 0, bench_cmac_setup,
	    bench_sym_teardown, bench_cmac_vg, bench_cmac_ossl, NULL, NULL,
	    impl_aes },
	{ "AES-256-KW of a 32-byte key", CC_PRIM, 32, 0, 0, 0, bench_kw_setup,
	    NULL, bench_kw_vg, bench_kw_ossl, NULL, NULL, impl_aes },
	{ "SHA-512/256", CC_PRIM, 1024, 1, 0, 0, bench_sha512_256_setup, NULL,
	    bench_sha512_256_vg, bench_sha512_256_ossl, NULL, NULL,
	    impl_sha512 },
	{ "PBKDF2-HMAC-SHA-256", CC_PRIM, 0, 0, 1000, 2, pbkdf2_setup, NULL,
	    pbkdf2_vg, pbkdf2_ossl, NULL, NULL, impl_sha256 },
	{ "P-256 key generation", CC_PRIM, 1, 0, 0, 0, p256_setup,
	    p256_teardown, p256_keygen_vg, p256_keygen_ossl, NULL, NULL,
	    impl_p256 },
	{ "ECDSA P-256 sign", CC_PRIM, 1, 0, 0, 0, p256_setup, p256_teardown,
	    ecdsa_sign_vg, ecdsa_sign_ossl, NULL, NULL, impl_p256 },
	{ "ECDSA P-256 verify", CC_PRIM, 1, 0, 0, 0, p256_setup, p256_teardown,
	    ecdsa_verify_vg, ecdsa_verify_ossl, NULL, NULL, impl_p256 },
	{ "ECDH P-256", CC_PRIM, 1, 0, 0, 0, p256_setup, p256_teardown,
	    ecdh_vg, ecdh_ossl, NULL, NULL, impl_p256 },
#define C25519_ROW(name, op, impl)                                         \
	{ name, CC_PRIM, 1, 0, 0, 0, bench_c25519_setup,                    \
	    bench_c25519_teardown, bench_##op##_vg, bench_##op##_ossl, NULL,   \
	    NULL, impl }
	C25519_ROW("X25519 derive", x25519, bench_impl_c25519),
	C25519_ROW("Ed25519 key generation", ed25519_keygen,
	    bench_impl_ed25519),
	C25519_ROW("Ed25519 sign (32 B)", ed25519_sign, bench_impl_ed25519),
	C25519_ROW("Ed25519 verify (32 B)", ed25519_verify,
	    bench_impl_ed25519),
#define RSA_ROW(name, bits, op)                                             \
	{ name, CC_PRIM, bits, 0, 0, 0, bench_rsa_setup, bench_rsa_teardown,   \
	    bench_rsa_##op##_vg, bench_rsa_##op##_ossl, NULL, NULL,            \
	    bench_impl_rsa }
	RSA_ROW("RSA-2048 private (CRT, blinded)", 2048, priv),
	RSA_ROW("RSA-3072 private (CRT, blinded)", 3072, priv),
	RSA_ROW("RSA-4096 private (CRT, blinded)", 4096, priv),
	RSA_ROW("RSA-2048 PKCS#1 sign SHA-256", 2048, sign),
	RSA_ROW("RSA-2048 PSS sign SHA-256", 2048, pss),
	RSA_ROW("RSA-2048 PKCS#1 verify SHA-256", 2048, verify),
	RSA_ROW("RSA-2048 OAEP decrypt SHA-256", 2048, oaep),
	RSA_ROW("RSA-3072 PKCS#1 sign SHA-256", 3072, sign),
	RSA_ROW("RSA-2048 key load + first PKCS#1 sign", 2048, cold),
	/* The prime search varies from key to key: few keys under callgrind,
	 * and many rounds for a median that means something. */
	{ "RSA-2048 key generation", CC_PRIM, 2048, 0, 0, 4, bench_rsa_setup,
	    bench_rsa_teardown, bench_rsa_keygen_vg, bench_rsa_keygen_ossl,
	    NULL, NULL, bench_impl_rsa },
#define MLDSA_ROW(name, set, run)                                           \
	{ name, CC_PRIM, set, 0, 0, 0, bench_mldsa_setup,                   \
	    bench_mldsa_teardown, run, NULL, NULL, NULL, bench_impl_mldsa }
	MLDSA_ROW("ML-DSA-44 keygen", 44, bench_mldsa_keygen_vg),
	MLDSA_ROW("ML-DSA-44 sign", 44, bench_mldsa_sign_vg),
	MLDSA_ROW("ML-DSA-44 verify", 44, bench_mldsa_verify_vg),
	MLDSA_ROW("ML-DSA-44 sign, hedged", 44, bench_mldsa_sign_hedged_vg),
	MLDSA_ROW("ML-DSA-44 sign, expanded key, hedged", 44,
	    bench_mldsa_sign_expanded_vg),
	MLDSA_ROW("ML-DSA-44 verify, expanded key", 44,
	    bench_mldsa_verify_expanded_vg),
	MLDSA_ROW("ML-DSA-65 keygen", 65, bench_mldsa_keygen_vg),
	MLDSA_ROW("ML-DSA-65 sign", 65, bench_mldsa_sign_vg),
	MLDSA_ROW("ML-DSA-65 verify", 65, bench_mldsa_verify_vg),
	MLDSA_ROW("ML-DSA-65 sign, hedged", 65, bench_mldsa_sign_hedged_vg),
	MLDSA_ROW("ML-DSA-65 sign, expanded key, hedged", 65,
	    bench_mldsa_sign_expanded_vg),
	MLDSA_ROW("ML-DSA-65 verify, expanded key", 65,
	    bench_mldsa_verify_expanded_vg),
	MLDSA_ROW("ML-DSA-87 keygen", 87, bench_mldsa_keygen_vg),
	MLDSA_ROW("ML-DSA-87 sign", 87, bench_mldsa_sign_vg),
	MLDSA_ROW("ML-DSA-87 verify", 87, bench_mldsa_verify_vg),
	MLDSA_ROW("ML-DSA-87 sign, hedged", 87, bench_mldsa_sign_hedged_vg),
	MLDSA_ROW("ML-DSA-87 sign, expanded key, hedged", 87,
	    bench_mldsa_sign_expanded_vg),
	MLDSA_ROW("ML-DSA-87 verify, expanded key", 87,
	    bench_mldsa_verify_expanded_vg),
#define MLKEM_ROW(name, set, run)                                           \
	{ name, CC_PRIM, set, 0, 0, 0, bench_mlkem_setup,                   \
	    bench_mlkem_teardown, run, NULL, NULL, NULL, bench_impl_mlkem }
	MLKEM_ROW("ML-KEM-512 keygen", 512, bench_mlkem_keygen_vg),
	MLKEM_ROW("ML-KEM-512 encaps", 512, bench_mlkem_encaps_vg),
	MLKEM_ROW("ML-KEM-512 decaps", 512, bench_mlkem_decaps_vg),
	MLKEM_ROW("ML-KEM-512 encaps, expanded key", 512,
	    bench_mlkem_encaps_expanded_vg),
	MLKEM_ROW("ML-KEM-512 decaps, expanded key", 512,
	    bench_mlkem_decaps_expanded_vg),
	MLKEM_ROW("ML-KEM-768 keygen", 768, bench_mlkem_keygen_vg),
	MLKEM_ROW("ML-KEM-768 encaps", 768, bench_mlkem_encaps_vg),
	MLKEM_ROW("ML-KEM-768 decaps", 768, bench_mlkem_decaps_vg),
	MLKEM_ROW("ML-KEM-768 encaps, expanded key", 768,
	    bench_mlkem_encaps_expanded_vg),
	MLKEM_ROW("ML-KEM-768 decaps, expanded key", 768,
	    bench_mlkem_decaps_expanded_vg),
	MLKEM_ROW("ML-KEM-1024 keygen", 1024, bench_mlkem_keygen_vg),
	MLKEM_ROW("ML-KEM-1024 encaps", 1024, bench_mlkem_encaps_vg),
	MLKEM_ROW("ML-KEM-1024 decaps", 1024, bench_mlkem_decaps_vg),
	MLKEM_ROW("ML-KEM-1024 encaps, expanded key", 1024,
	    bench_mlkem_encaps_expanded_vg),
	MLKEM_ROW("ML-KEM-1024 decaps, expanded key", 1024,
	    bench_mlkem_decaps_expanded_vg),

	/* Kernel rows: measured with --kernels all, one table per variant. */
	{ "SHA-1 compression", CC_KERNEL, KIB16, 1, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, sha1_k, impl_sha1 },
	{ "SHA-256 compression", CC_KERNEL, KIB16, 1, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, sha256_k, impl_sha256 },
	{ "SHA-512 compression", CC_KERNEL, KIB16, 1, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, sha512_k, impl_sha512 },
	{ "Keccak-f[1600]", CC_KERNEL, 1, 0, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, keccak_k, impl_keccak },
	{ "AES-256 blocks", CC_KERNEL, KIB16, 1, 0, 0, NULL, NULL,
	    NULL, NULL, aes_setup_k, aes_k, impl_aes },
	{ "GHASH", CC_KERNEL, KIB16, 1, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, ghash_k, impl_ghash },
	{ "P-256 field mul x100", CC_KERNEL, 1, 0, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, p256_mul_k, impl_p256_mul },
	{ "P-256 select_w5 x16", CC_KERNEL, 16 * 20 * 8, 0, 0, 0, NULL, NULL,
	    NULL, NULL, NULL, p256_select_k, impl_p256_select },
};
const size_t crypto_ncases = sizeof(crypto_cases) / sizeof(crypto_cases[0]);
