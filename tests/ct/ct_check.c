/*
 * Constant-time checks, run under valgrind memcheck by tests/ct/ct.sh.
 *
 * Each case marks its secret inputs undefined (VG_CT_SECRET) and runs a
 * secret path; memcheck then reports any conditional jump or memory
 * address that depends on a secret, and the run fails. Values that are
 * public by design (a tag check's verdict) are declassified inside the
 * library where it branches on them. Two cases are deliberately leaky and
 * must be reported: they prove the harness can fail.
 *
 * Usage: ct_check CASE (ct_check --list prints the cases).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bn.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/cpu.h"
#include "crypto/crypto.h"
#include "crypto/p256_int.h"
#include "crypto/rsa_int.h"
#include "crypto/rsa_kernels.h"
#include "token/object.h"
#include "token/token.h"
#include "tests/ct/ct_cases.h"

/* Inputs: fixed, not random, so runs are repeatable. */
static uint8_t key[32], data[160], iv[16], out[200], out2[200], tag[16];

static void
fill(void)
{
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + 5);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(i + 100);
}

/* Keeps the compiler from dropping work whose result is unused. */
static void
sink(const void *p, size_t n)
{
	__asm__ __volatile__("" : : "r"(p), "r"(n) : "memory");
}

/* ------------------------------------------------- deliberately leaky */

static __attribute__((noinline)) int
leaky_branch(const uint8_t *s)
{
	return s[0] == 0x42 ? 1 : 2;
}

static int
case_leaky_branch(void)
{
	VG_CT_SECRET(key, sizeof(key));
	return leaky_branch(key) == 3;
}

static int
case_leaky_index(void)
{
	static volatile uint8_t table[256];
	volatile uint8_t v;

	VG_CT_SECRET(key, sizeof(key));
	v = table[key[3]];
	(void)v;
	return 0;
}

/* ------------------------------------------------- primitives */

static int
case_ct_helpers(void)
{
	uint32_t m;
	uint64_t x;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	m = vg_ct_memeq(key, data, sizeof(key));
	vg_ct_cmov(out, data, 64, m);
	x = vg_ct_select64(vg_ct_eq_mask64(key[0], data[0]), 1, 2);
	x ^= vg_ct_lt_mask64(key[1], data[1]);
	sink(out, 64);
	sink(&x, sizeof(x));
	return 0;
}

static int
case_hashes(void)
{
	uint8_t d[VG_HASH_MAX_LEN];
	int alg;

	VG_CT_SECRET(data, sizeof(data));
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		vg_hash((enum vg_hash_alg)alg, data, sizeof(data), d);
		sink(d, sizeof(d));
	}
	vg_shake128(out, 100, data, sizeof(data));
	vg_shake256(out, 100, data, sizeof(data));
	sink(out, 100);
	return 0;
}

static int
case_hmac_kdf(void)
{
	uint8_t d[VG_HASH_MAX_LEN];

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	vg_hmac(VG_HASH_SHA256, key, sizeof(key), data, sizeof(data), d);
	vg_hmac(VG_HASH_SHA512, data, 150, data, 20, d); /* long key */
	if (vg_pbkdf2_hmac(VG_HASH_SHA256, key, 8, data, 16, 50, out,
	    40) != VG_OK)
		return 1;
	if (vg_hkdf(VG_HASH_SHA256, data, 16, key, sizeof(key), "info", 4,
	    out, 80) != VG_OK)
		return 1;
	sink(out, 80);
	sink(d, sizeof(d));
	return 0;
}

/* AES through whatever kernel the table chose (run once with
 * VG_CPU_FEATURES=none for the portable one). */
static int
case_aes(void)
{
	struct vg_aes_key k;
	size_t len;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	for (len = 16; len <= 32; len += 8) {
		if (vg_aes_init(&k, key, len) != VG_OK)
			return 1;
		vg_kernels()->aes_encrypt(&k, out, data, 9);
		vg_kernels()->aes_decrypt(&k, out2, out, 9);
		vg_aes_key_wipe(&k);
	}
	sink(out2, 144);
	return 0;
}

static int
case_gcm(void)
{
	struct vg_aes_key k;
	enum vg_err e;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	if (vg_aes_init(&k, key, 32) != VG_OK)
		return 1;
	/* A 12-byte IV and another length (J0 then comes from GHASH). */
	if (vg_aes_gcm_encrypt(&k, iv, 12, iv, 16, data, 100, out, tag,
	    16) != VG_OK ||
	    vg_aes_gcm_encrypt(&k, iv, 16, NULL, 0, data, 33, out2, tag,
	    16) != VG_OK)
		return 1;
	if (vg_aes_gcm_encrypt(&k, iv, 12, iv, 16, data, 100, out, tag,
	    16) != VG_OK)
		return 1;
	/* The tag comparison: right and wrong tags, secret plaintext. */
	e = vg_aes_gcm_decrypt(&k, iv, 12, iv, 16, out, 100, out2, tag, 16);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	tag[3] ^= 1;
	e = vg_aes_gcm_decrypt(&k, iv, 12, iv, 16, out, 100, out2, tag, 16);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_ERR_AUTH)
		return 1;
	/* Streaming encryption in uneven pieces, with a hashed J0 (a
	 * secret counter) and partial blocks carried between calls. */
	{
		struct vg_aes_gcm g;

		if (vg_aes_gcm_encrypt_init(&g, &k, iv, 16, iv, 5) != VG_OK ||
		    vg_aes_gcm_encrypt_update(&g, data, 7, out) != VG_OK ||
		    vg_aes_gcm_encrypt_update(&g, data + 7, 60, out + 7) !=
		    VG_OK ||
		    vg_aes_gcm_encrypt_update(&g, data + 67, 33, out + 67) !=
		    VG_OK ||
		    vg_aes_gcm_encrypt_final(&g, tag, 13) != VG_OK)
			return 1;
		sink(out, 100);
		sink(tag, 13);
	}
	vg_aes_key_wipe(&k);
	return 0;
}

/*
 * CBC with PKCS#7 padding: encryption one-shot and streaming, then the
 * padding check on secret plaintext, good and bad (a last byte of 0, of
 * 17, and a wrong byte inside the padding), through vg_aes_pkcs7_unpad
 * and the streaming decryption. Only the verdict and, when it is good,
 * the message length may be observed.
 */
static int
case_cbc_pad(void)
{
	static const uint8_t lasts[4][2] = {
		{ 3, 3 }, { 0, 0 }, { 17, 17 }, { 3, 4 } /* byte 14 wrong */
	};
	struct vg_aes_key k;
	struct vg_aes_cbc c;
	uint8_t pt[4][48], ct[48];
	size_t n, m, i;
	enum vg_err e;
	int bad = 0;

	for (i = 0; i < 4; i++) {
		memcpy(pt[i], data, 48);
		pt[i][45] = 3;
		pt[i][46] = lasts[i][1];
		pt[i][47] = lasts[i][0];
	}
	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	VG_CT_SECRET(pt, sizeof(pt));
	if (vg_aes_init(&k, key, 16) != VG_OK)
		return 1;
	/* padding encryption, streaming, secret message */
	if (vg_aes_cbc_init(&c, &k, iv, VG_AES_PAD) != VG_OK ||
	    vg_aes_cbc_update(&c, data, 21, out, &n) != VG_OK ||
	    vg_aes_cbc_update(&c, data + 21, 30, out + n, &m) != VG_OK ||
	    vg_aes_cbc_final(&c, out + n + m, &m) != VG_OK)
		return 1;
	sink(out, 64);
	for (i = 0; i < 4; i++) {
		enum vg_err want = i == 0 ? VG_OK : VG_ERR_DECODE;

		/* one-shot: the plaintext block itself */
		e = vg_aes_pkcs7_unpad(pt[i], 48, &n);
		VG_CT_DECLASSIFY(&e, sizeof(e));
		bad |= e != want;
		/* streaming decryption of its encryption */
		if (vg_aes_cbc_encrypt(&k, iv, pt[i], 48, ct) != VG_OK ||
		    vg_aes_cbc_init(&c, &k, iv, VG_AES_DECRYPT | VG_AES_PAD) !=
		    VG_OK ||
		    vg_aes_cbc_update(&c, ct, 20, out2, &n) != VG_OK ||
		    vg_aes_cbc_update(&c, ct + 20, 28, out2 + n, &m) != VG_OK)
			return 1;
		e = vg_aes_cbc_final(&c, out2 + n + m, &m);
		VG_CT_DECLASSIFY(&e, sizeof(e));
		bad |= e != want;
		sink(out2, 48);
	}
	vg_aes_key_wipe(&k);
	return bad;
}

/* CTR with a secret key and message (the counter block is public), one
 * shot and in pieces that split blocks. */
static int
case_ctr(void)
{
	struct vg_aes_key k;
	struct vg_aes_ctr c;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	if (vg_aes_init(&k, key, 24) != VG_OK ||
	    vg_aes_ctr(&k, iv, 32, data, 150, out) != VG_OK ||
	    vg_aes_ctr_init(&c, &k, iv, 9) != VG_OK ||
	    vg_aes_ctr_update(&c, data, 5, out2) != VG_OK ||
	    vg_aes_ctr_update(&c, data + 5, 100, out2 + 5) != VG_OK)
		return 1;
	vg_aes_ctr_wipe(&c);
	vg_aes_key_wipe(&k);
	sink(out, 150);
	sink(out2, 105);
	return 0;
}

/* CMAC with a secret key and message, and its verification against the
 * right MAC and a wrong one (truncated and full): only the verdicts may
 * be observed. */
static int
case_cmac(void)
{
	struct vg_aes_key k;
	struct vg_aes_cmac m;
	uint8_t mac[16];
	enum vg_err ok, bad1, bad2;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	if (vg_aes_init(&k, key, 32) != VG_OK ||
	    vg_aes_cmac(&k, data, 77, mac, 16) != VG_OK)
		return 1;
	if (vg_aes_cmac_init(&m, &k) != VG_OK ||
	    vg_aes_cmac_update(&m, data, 30) != VG_OK ||
	    vg_aes_cmac_update(&m, data + 30, 47) != VG_OK)
		return 1;
	ok = vg_aes_cmac_verify(&m, mac, 16);
	mac[2] ^= 0x40;
	if (vg_aes_cmac_init(&m, &k) != VG_OK ||
	    vg_aes_cmac_update(&m, data, 77) != VG_OK)
		return 1;
	bad1 = vg_aes_cmac_verify(&m, mac, 8);
	if (vg_aes_cmac_init(&m, &k) != VG_OK ||
	    vg_aes_cmac_update(&m, data, 77) != VG_OK)
		return 1;
	bad2 = vg_aes_cmac_verify(&m, mac, 16);
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	VG_CT_DECLASSIFY(&bad1, sizeof(bad1));
	VG_CT_DECLASSIFY(&bad2, sizeof(bad2));
	vg_aes_key_wipe(&k);
	return ok != VG_OK || bad1 != VG_ERR_AUTH || bad2 != VG_ERR_AUTH;
}

static int
case_ghash(void)
{
	uint8_t y[16] = { 0 }, h[16];

	memcpy(h, key, 16);
	VG_CT_SECRET(h, sizeof(h));
	VG_CT_SECRET(data, sizeof(data));
	vg_kernels()->ghash(y, h, data, 7);
	vg_ghash_c(y, h, data, 5);
	sink(y, sizeof(y));
	return 0;
}

static int
case_keywrap(void)
{
	struct vg_aes_key k;
	size_t n, m;
	enum vg_err e, bad;

	VG_CT_SECRET(key, sizeof(key));
	VG_CT_SECRET(data, sizeof(data));
	if (vg_aes_init(&k, key, 32) != VG_OK ||
	    vg_aes_kw_wrap(&k, data, 32, out) != VG_OK)
		return 1;
	e = vg_aes_kw_unwrap(&k, out, 40, out2);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	/* KW with a wrong integrity check value */
	out[9] ^= 1;
	e = vg_aes_kw_unwrap(&k, out, 40, out2);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_ERR_AUTH)
		return 1;
	if (vg_aes_kwp_wrap(&k, data, 21, out, &n) != VG_OK)
		return 1;
	e = vg_aes_kwp_unwrap(&k, out, n, out2, &m);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	out[5] ^= 1;
	bad = vg_aes_kwp_unwrap(&k, out, n, out2, &m);
	VG_CT_DECLASSIFY(&bad, sizeof(bad));
	vg_aes_key_wipe(&k);
	return e != VG_OK || bad != VG_ERR_AUTH;
}

/*
 * The PIN check of token/pin.c: a key from the PIN by PBKDF2, then the
 * master key's wrap opened with AES-GCM; only the verdict is public.
 */
static int
case_pin(void)
{
	static const char right[] = "correct horse", wrong[] = "correct hose!";
	uint8_t kek[32], pin[16], wrap[12 + 32 + 16];
	struct vg_aes_key k;
	enum vg_err e;
	int round;

	for (round = 0; round < 2; round++) {
		memcpy(pin, round == 0 ? right : wrong, 13);
		VG_CT_SECRET(pin, 13);
		VG_CT_SECRET(key, sizeof(key));
		if (vg_pbkdf2_hmac(VG_HASH_SHA256, pin, 13, iv, 16, 100, kek,
		    32) != VG_OK || vg_aes_init(&k, kek, 32) != VG_OK)
			return 1;
		if (round == 0 && vg_aes_gcm_encrypt(&k, iv, 12, NULL, 0, key,
		    32, wrap + 12, wrap + 44, 16) != VG_OK)
			return 1;
		e = vg_aes_gcm_decrypt(&k, iv, 12, NULL, 0, wrap + 12, 32,
		    out, wrap + 44, 16);
		VG_CT_DECLASSIFY(&e, sizeof(e));
		if (e != (round == 0 ? VG_OK : VG_ERR_AUTH))
			return 1;
		vg_aes_key_wipe(&k);
	}
	return 0;
}

/*
 * The seals of token/seal.c: an object's seal under a key derived from a
 * master key, checked against its own tag and a changed one, and a
 * token's seal record likewise. The master key, the seal key and the
 * computed tags are secret; only the verdicts are public.
 */
static int
case_seal(void)
{
	static const char serial[16] = "0123456789abcdef";
	uint8_t skey[VG_SEAL_KEY_LEN], stag[VG_SEAL_TAG_LEN];
	uint8_t rec[VG_TOKEN_SEAL_LEN];
	struct vg_seal_row r;
	int64_t mark = 0;
	int good, bad, tgood, tbad;

	memset(&r, 0, sizeof(r));
	r.token_id = 1;
	r.id = 7;
	r.cls = 4;
	r.has_kt = 1;
	r.kt = 0x1f;
	r.private_obj = 1;
	r.label_idx = data;
	r.label_len = 16;
	r.id_null = 1;
	r.body = data + 16;
	r.body_len = 120;
	VG_CT_SECRET(key, sizeof(key));
	if (vg_seal_key_derive(key, skey) != CKR_OK)
		return 1;
	vg_seal_object(skey, serial, &r, stag);
	good = vg_seal_object_check(skey, serial, &r, stag, sizeof(stag));
	stag[5] ^= 1;
	bad = vg_seal_object_check(skey, serial, &r, stag, sizeof(stag));
	vg_seal_token(skey, serial, 1, 42, rec);
	tgood = vg_seal_token_check(skey, serial, 1, rec, sizeof(rec), &mark);
	rec[20] ^= 1;
	tbad = vg_seal_token_check(skey, serial, 1, rec, sizeof(rec), &mark);
	vg_wipe(skey, sizeof(skey));
	return !(good && !bad && tgood && mark == 42 && !tbad);
}

static int
case_drbg(void)
{
	struct vg_drbg d;

	VG_CT_SECRET(data, sizeof(data));
	if (vg_drbg_instantiate(&d, data, 48, NULL, 0, "ct", 2) != VG_OK ||
	    vg_drbg_generate(&d, out, 100, NULL, 0) != VG_OK ||
	    vg_drbg_reseed(&d, data + 50, 32, key, 8) != VG_OK ||
	    vg_drbg_generate(&d, out, 77, data, 10) != VG_OK)
		return 1;
	vg_drbg_wipe(&d);
	sink(out, 100);
	return 0;
}

/* Base64 and PEM decoding of a private key: only the layout (line
 * breaks, padding, framing lines) may steer branches, never the values
 * of the base64 characters. The body is marked secret, the framing lines
 * are public. */
static int
case_pem(void)
{
	static char pem[512];
	size_t n = sizeof(pem), m = sizeof(out), pos = 0;
	struct vg_pem b;
	char *body, *end;

	if (vg_pem_encode(pem, &n, "PRIVATE KEY", data, sizeof(data)) !=
	    VG_OK)
		return 1;
	body = strchr(pem, '\n') + 1;
	end = strstr(body, "-----END");
	VG_CT_SECRET(body, (size_t)(end - body));
	if (vg_pem_next(pem, n, &pos, &b) != VG_OK || b.has_headers ||
	    vg_base64_decode(out, &m, b.body, b.body_len) != VG_OK ||
	    m != sizeof(data))
		return 1;
	sink(out, m);
	return 0;
}

/* Random bytes for P-256 key generation, secret as soon as drawn. */
static enum vg_err
secret_bytes(void *ctx, uint8_t *buf, size_t len)
{
	size_t *next = ctx, i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(*next * 29 + i * 7 + 3);
	(*next)++;
	VG_CT_SECRET(buf, len);
	return VG_OK;
}

/* P-256: key generation (fixed-base comb), ECDH (the window method) and
 * ECDSA signing; the library declassifies only its validity verdicts,
 * the harness the public results. */
static int
case_p256(void)
{
	struct vg_p256_priv a, b;
	struct vg_p256_pub pa, pb;
	uint8_t shared[32], sig[64], pt[65];
	size_t next = 1;
	enum vg_err e;

	if (vg_p256_keygen(&a, &pa, secret_bytes, &next) != VG_OK ||
	    vg_p256_keygen(&b, &pb, secret_bytes, &next) != VG_OK)
		return 1;
	vg_p256_pub_encode(pt, &pa);
	VG_CT_DECLASSIFY(pt, sizeof(pt)); /* public keys are public */
	VG_CT_DECLASSIFY(&pa, sizeof(pa));
	VG_CT_DECLASSIFY(&pb, sizeof(pb));
	e = vg_p256_ecdh(shared, &a, &pb);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	sink(shared, sizeof(shared));
	VG_CT_SECRET(data, 32); /* the nonce input: hedge bytes */
	e = vg_p256_ecdsa_sign(sig, &b, iv, 16, VG_HASH_SHA256, data);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	if (e != VG_OK || vg_p256_ecdsa_verify(&pb, iv, 16, sig) != VG_OK)
		return 1;
	/* A private key decoded from secret bytes. */
	VG_CT_SECRET(key, sizeof(key));
	e = vg_p256_priv_decode(&a, key, sizeof(key));
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e == VG_OK && vg_p256_ecdh(shared, &a, &pb) != VG_OK)
		return 1;
	vg_p256_priv_wipe(&a);
	vg_p256_priv_wipe(&b);
	return 0;
}

/* ML-DSA-44 key generation from a secret seed and signing with a secret
 * key and hedge; the library declassifies only what FIPS 204 lets be
 * public (rejections, the challenge, rho, the signature). */
static int
case_mldsa(void)
{
	static uint8_t pk[VG_MLDSA_44_PK_LEN], sk[VG_MLDSA_44_SK_LEN],
	    sig[VG_MLDSA_44_SIG_LEN];
	enum vg_err e;

	VG_CT_SECRET(key, 32);
	if (vg_mldsa_keygen_internal(VG_MLDSA_44, key, pk, sk) != VG_OK)
		return 1;
	VG_CT_DECLASSIFY(pk, sizeof(pk));
	VG_CT_SECRET(sk, sizeof(sk));
	VG_CT_SECRET(iv, 16);
	memcpy(data, iv, 16);
	memcpy(data + 16, iv, 16);
	e = vg_mldsa_sign(VG_MLDSA_44, sk, sizeof(sk), "msg", 3, "ctx", 3,
	    data, sig);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	return e != VG_OK || vg_mldsa_verify(VG_MLDSA_44, pk, sizeof(pk), "msg",
	    3, "ctx", 3, sig, sizeof(sig)) != VG_OK;
}

/* ML-DSA-44 from an expanded key: the expansion of a secret encoded key
 * (rho is declassified by the library: A-hat is public) and pure and
 * HashML-DSA signing from it with a secret hedge; only the rejection
 * decisions, the challenges and the signature may be declassified. */
static int
case_mldsa_expanded(void)
{
	static uint8_t pk[VG_MLDSA_44_PK_LEN], sk[VG_MLDSA_44_SK_LEN],
	    sig[VG_MLDSA_44_SIG_LEN], sig2[VG_MLDSA_44_SIG_LEN];
	static uint8_t eb[30 * 1024] __attribute__((aligned(32)));
	static uint8_t pb[21 * 1024] __attribute__((aligned(32)));
	struct vg_mldsa_expanded *x = (struct vg_mldsa_expanded *)eb;
	struct vg_mldsa_expanded_pk *xp = (struct vg_mldsa_expanded_pk *)pb;
	enum vg_err e, e2;

	if (vg_mldsa_keygen_internal(VG_MLDSA_44, key, pk, sk) != VG_OK ||
	    vg_mldsa_expanded_size(VG_MLDSA_44) > sizeof(eb) ||
	    vg_mldsa_expanded_pk_size(VG_MLDSA_44) > sizeof(pb) ||
	    vg_mldsa_expand_pk(VG_MLDSA_44, pk, sizeof(pk), xp, sizeof(pb)) !=
	    VG_OK)
		return 1;
	VG_CT_SECRET(sk, sizeof(sk));
	e = vg_mldsa_expand_sk(VG_MLDSA_44, sk, sizeof(sk), x, sizeof(eb));
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	VG_CT_SECRET(iv, 16);
	memcpy(data, iv, 16);
	memcpy(data + 16, iv, 16);
	e = vg_mldsa_sign_expanded(x, "msg", 3, "ctx", 3, data, sig);
	e2 = vg_mldsa_sign_hash_expanded(x, VG_MLDSA_PH_SHA256, data + 32, 32,
	    NULL, 0, data, sig2);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(&e2, sizeof(e2));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	VG_CT_DECLASSIFY(sig2, sizeof(sig2));
	vg_wipe(eb, sizeof(eb));
	return e != VG_OK || e2 != VG_OK ||
	    vg_mldsa_verify_expanded(xp, "msg", 3, "ctx", 3, sig,
	    sizeof(sig)) != VG_OK ||
	    vg_mldsa_verify_hash_expanded(xp, VG_MLDSA_PH_SHA256, data + 32,
	    32, NULL, 0, sig2, sizeof(sig2)) != VG_OK;
}

/* X25519 with a secret scalar (public key and shared secret), Ed25519
 * public key and signing (pure and ctx) from a secret seed; only the
 * "all zero" verdict of X25519 and the public outputs are declassified.
 * (Signing trusts the public key it is given: no key-pair check.) */
static int
case_c25519(void)
{
	static uint8_t xpk[32], peer[32], ss[32], epk[32], sig[64];
	enum vg_err e, e2, e3;

	memcpy(peer, data, 32);
	VG_CT_SECRET(key, 32);
	e = vg_x25519_public(xpk, key);
	e2 = vg_x25519(ss, key, peer);
	VG_CT_DECLASSIFY(xpk, sizeof(xpk));
	VG_CT_DECLASSIFY(&e2, sizeof(e2));
	if (e != VG_OK || e2 != VG_OK)
		return 1;
	VG_CT_SECRET(key, 32);
	e = vg_ed25519_public(epk, key);
	VG_CT_DECLASSIFY(epk, sizeof(epk));
	e2 = vg_ed25519_sign(VG_ED25519_PURE, key, epk, "msg", 3, NULL, 0,
	    sig);
	VG_CT_DECLASSIFY(&e2, sizeof(e2));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	if (e != VG_OK || e2 != VG_OK || vg_ed25519_verify(VG_ED25519_PURE,
	    epk, "msg", 3, NULL, 0, sig, sizeof(sig)) != VG_OK)
		return 1;
	e3 = vg_ed25519_sign(VG_ED25519_CTX, key, epk, "msg", 3, "ctx", 3,
	    sig);
	VG_CT_DECLASSIFY(&e3, sizeof(e3));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	return e3 != VG_OK || vg_ed25519_verify(VG_ED25519_CTX, epk, "msg", 3,
	    "ctx", 3, sig, sizeof(sig)) != VG_OK;
}

/* RSA-2048: a key loaded from secret parts, the private operation, a
 * PKCS#1 v1.5 signature, and OAEP and PKCS#1 v1.5 decryption of good and
 * bad ciphertexts;
 * the padding verdicts are the only things declassified. */
static int
case_rsa(void)
{
	static struct vg_rsa_key_bytes kb;
	static struct vg_rsa_key k;
	static uint8_t ct[256], sig[256], pt[256];
	struct vg_der_rsa_priv v;
	struct vg_rng rng;
	size_t n = 0;
	enum vg_err e;

	if (vg_rng_init(&rng) != VG_OK ||
	    vg_rsa_keygen(&kb, 2048, 65537, &rng) != VG_OK)
		return 1;
	vg_rsa_key_bytes_view(&kb, &v);
	VG_CT_SECRET(kb.d, sizeof(kb.d));
	VG_CT_SECRET(kb.p, sizeof(kb.p));
	VG_CT_SECRET(kb.q, sizeof(kb.q));
	VG_CT_SECRET(kb.dp, sizeof(kb.dp));
	VG_CT_SECRET(kb.dq, sizeof(kb.dq));
	VG_CT_SECRET(kb.qinv, sizeof(kb.qinv));
	e = vg_rsa_key_load(&k, &v, NULL, 0, &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	e = vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, key, 32, sig, sizeof(sig),
	    &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	if (e != VG_OK)
		return 1;
	VG_CT_SECRET(data, 32);
	if (vg_rsa_oaep_encrypt(vg_rsa_key_pub(&k), VG_HASH_SHA256,
	    VG_HASH_SHA256, NULL, 0, data, 32, ct, sizeof(ct), &rng) != VG_OK)
		return 1;
	VG_CT_DECLASSIFY(ct, sizeof(ct)); /* ciphertexts are public */
	e = vg_rsa_oaep_decrypt(&k, VG_HASH_SHA256, VG_HASH_SHA256, NULL, 0,
	    ct, sizeof(ct), pt, sizeof(pt), &n, &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	ct[100] ^= 1;
	e = vg_rsa_oaep_decrypt(&k, VG_HASH_SHA256, VG_HASH_SHA256, NULL, 0,
	    ct, sizeof(ct), pt, sizeof(pt), &n, &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e == VG_OK)
		return 1;
	/* PKCS#1 v1.5 decryption: a good and a bad ciphertext */
	if (vg_rsa_pkcs1_encrypt(vg_rsa_key_pub(&k), data, 32, ct, sizeof(ct),
	    &rng) != VG_OK)
		return 1;
	VG_CT_DECLASSIFY(ct, sizeof(ct));
	e = vg_rsa_pkcs1_decrypt(&k, ct, sizeof(ct), pt, sizeof(pt), &n, &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(&n, sizeof(n));
	if (e != VG_OK || n != 32)
		return 1;
	ct[100] ^= 1;
	e = vg_rsa_pkcs1_decrypt(&k, ct, sizeof(ct), pt, sizeof(pt), &n, &rng);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	vg_rsa_key_wipe(&k);
	vg_rng_wipe(&rng);
	return e == VG_OK;
}

/* Whether the host CPU has BMI2 and ADX, read from /proc/cpuinfo:
 * valgrind hides ADX from CPUID (so the kernel table never picks it
 * under valgrind) but executes MULX, ADCX and ADOX. */
static int
host_has_adx(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "flags", 5) == 0)
			found = strstr(line, " adx") != NULL &&
			    strstr(line, " bmi2") != NULL ? 1 : -1;
	fclose(f);
	return found == 1;
}

/* P-256 on the MULX/ADX field and point kernels, chosen explicitly (as
 * for RSA above: valgrind hides ADX, so case_p256 runs the portable
 * ones): the public key of a secret scalar (fixed-base comb, inversion),
 * ECDH (window method) and ECDSA signing. */
static int
case_p256_adx(void)
{
	struct vg_p256_kernels k;
	struct vg_p256_priv a;
	struct vg_p256_pub pa, pb;
	uint8_t shared[32], sig[64], peer[32];
	enum vg_err e;
	size_t i;

	if (!host_has_adx()) {
		printf("skipped: the host CPU has no ADX\n");
		return 0;
	}
	vg_p256_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX2);
	for (i = 0; i < sizeof(peer); i++)
		peer[i] = (uint8_t)(i * 11 + 9);
	/* the peer: public */
	if (vg_p256_priv_decode(&a, peer, sizeof(peer)) != VG_OK ||
	    vg_p256_pub_from_priv_k(&k, &pb, &a) != VG_OK)
		return 1;
	VG_CT_SECRET(key, sizeof(key));
	e = vg_p256_priv_decode(&a, key, sizeof(key));
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	e = vg_p256_pub_from_priv_k(&k, &pa, &a);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(&pa, sizeof(pa)); /* public keys are public */
	if (e != VG_OK)
		return 1;
	e = vg_p256_ecdh_k(&k, shared, &a, &pb);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	if (e != VG_OK)
		return 1;
	sink(shared, sizeof(shared));
	VG_CT_SECRET(data, 32); /* the nonce input: hedge bytes */
	e = vg_p256_ecdsa_sign_k(&k, sig, &a, iv, 16, VG_HASH_SHA256, data);
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	if (e != VG_OK || vg_p256_ecdsa_verify_k(&k, &pa, iv, 16, sig) !=
	    VG_OK)
		return 1;
	VG_CT_DECLASSIFY(key, sizeof(key));
	VG_CT_DECLASSIFY(data, 32);
	vg_p256_priv_wipe(&a);
	return 0;
}

/* [a] B by the comb of k for a secret a (the top bit cleared, as the
 * comb requires) into pk, encoded, both from the point and by the
 * kernel's own encoding (then pk[32 ..] is its X25519 u), and in
 * pk[96 ..] the short form's encoding for a secret below 2^253 (a
 * signing nonce); the outputs are declassified. */
static void
ed25519_base_k(const struct vg_c25519_kernels *k, uint8_t pk[128])
{
	static uint8_t a[32], r[32];
	struct vg_ge25519 p;

	memcpy(a, key, 32);
	a[31] &= 0x7f;
	memcpy(r, a, 32);
	r[31] &= 0x1f;
	VG_CT_SECRET(a, 32);
	VG_CT_SECRET(r, 32);
	k->ed25519_base(&p, a);
	vg_ge25519_tobytes(pk, &p);
	k->ed25519_base_bytes(pk + 32, a, 0);
	k->ed25519_base_bytes(pk + 64, a, VG_GE25519_BASE_U);
	k->ed25519_base_bytes(pk + 96, r, VG_GE25519_BASE_SHORT);
	VG_CT_DECLASSIFY(pk, 128);
	vg_wipe(&p, sizeof(p));
}

/* X25519 on the MULX/ADX ladder and the Ed25519 comb on the MULX/ADX
 * point formulas (with the portable and the AVX2 selection), chosen
 * explicitly (valgrind hides ADX, so case_c25519 runs the portable
 * ones): the public key and a shared secret of a secret scalar, and the
 * fixed-base multiple of a secret scalar, as in Ed25519 key generation
 * and signing, with the encodings and X25519 u of the comb kernels and
 * the short form of signing. */
static int
case_c25519_adx(void)
{
	static const uint8_t base[32] = { 9 };
	static uint8_t xpk[32], peer[32], ss[32], epk[128], epk2[128],
	    epk3[128];
	struct vg_c25519_kernels k, kc;
	enum vg_err e, e2;

	if (!host_has_adx()) {
		printf("skipped: the host CPU has no ADX\n");
		return 0;
	}
	vg_c25519_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX);
	memcpy(peer, data, 32);
	VG_CT_SECRET(key, 32);
	e = vg_x25519_k(&k, xpk, key, base);
	e2 = vg_x25519_k(&k, ss, key, peer);
	VG_CT_DECLASSIFY(xpk, sizeof(xpk));
	VG_CT_DECLASSIFY(ss, sizeof(ss));
	VG_CT_DECLASSIFY(&e, sizeof(e));
	VG_CT_DECLASSIFY(&e2, sizeof(e2));
	if (e != VG_OK || e2 != VG_OK || strcmp(k.impl, "adx") != 0 ||
	    strcmp(k.ed25519_impl, "adx") != 0)
		return 1;
	ed25519_base_k(&k, epk);
	vg_c25519_kernels_fill(&k, VG_CPU_BMI2 | VG_CPU_ADX | VG_CPU_AVX2);
	ed25519_base_k(&k, epk2);
	vg_c25519_kernels_fill(&kc, 0);
	ed25519_base_k(&kc, epk3);
	VG_CT_DECLASSIFY(key, sizeof(key));
	return strcmp(k.ed25519_impl, "adx+avx2") != 0 ||
	    memcmp(epk, epk3, 128) != 0 || memcmp(epk2, epk3, 128) != 0 ||
	    memcmp(epk3, epk3 + 32, 32) != 0;
}

/* The ADX Montgomery kernels, chosen explicitly: a secret base to a
 * secret exponent modulo 1024-, 1536- and 2048-bit moduli through
 * vg_bn_mont_exp (almost-Montgomery loop, final reduction), and the
 * fully reducing square on a secret value. */
static int
case_rsa_adx(void)
{
	static uint64_t m[32], base[32], e[32], d[32];
	static const size_t sizes[] = { 16, 24, 32 };
	struct vg_rsa_kernels kern;
	struct vg_bn_mont c;
	size_t i, j;

	if (!host_has_adx()) {
		printf("skipped: the host CPU has no ADX\n");
		return 0;
	}
#ifdef VG_HAVE_RSA_X86_64_KERNELS
	vg_rsa_kernels_fill(&kern, VG_CPU_BMI2 | VG_CPU_ADX);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];

		for (j = 0; j < n; j++) {
			m[j] = 0x9e3779b97f4a7c15ULL * (j + 1) ^ (j << 7);
			base[j] = 0x6a09e667f3bcc909ULL * (j + 3) >> 1;
			e[j] = 0xbb67ae8584caa73bULL * (j + 5);
		}
		m[0] |= 1;
		m[n - 1] |= (uint64_t)1 << 63;
		if (vg_bn_mont_init(&c, m, n, &kern) != 0)
			return 1;
		VG_CT_SECRET(base, n * sizeof(uint64_t));
		VG_CT_SECRET(e, n * sizeof(uint64_t));
		vg_bn_mont_to(&c, d, base);
		vg_bn_mont_exp(&c, d, d, e, (unsigned)(64 * n));
		c.sqr(d, d, c.m, c.m0i, n);
		VG_CT_DECLASSIFY(d, n * sizeof(uint64_t));
		sink(d, n * sizeof(uint64_t));
		VG_CT_DECLASSIFY(base, n * sizeof(uint64_t));
		VG_CT_DECLASSIFY(e, n * sizeof(uint64_t));
		vg_bn_mont_wipe(&c);
	}
	return 0;
#else
	(void)kern; (void)c; (void)i; (void)j; (void)sizes;
	return 0;
#endif
}

/* The SIMDe build of the IFMA kernel source (vg_rsa_amm52_emu.c): valgrind
 * cannot run IFMA, so the kernel's logic is checked through it. */
int vg_rsa_amm52_emu_available(void);
vg_rsa_amm52x2_fn vg_rsa_amm52x2_emu;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_emu;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_emu;
vg_rsa_amm52x2_fn vg_rsa_amm52x2_emu256;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_emu256;

/*
 * The radix-2^52 (IFMA) path: an RSA-2048 key whose halves run on the
 * IFMA kernel's source built with SIMDe (the private operation's set-up,
 * conversions and final reduction around it), then the AMM pair and the
 * dual exponentiation, emulated (both variants, 512-bit and 256-bit
 * registers) and portable, for halves of 20, 30 and 40
 * limbs (RSA-2048, 3072, 4096) on a secret base and secret exponents.
 */
static int
case_rsa_amm52(void)
{
	static const size_t sizes[] = { 20, 30, 40 };
	static struct vg_rsa_key_bytes kb;
	static struct vg_rsa_key k;
	static uint64_t m[2][VG_RSA52_MAX_LIMBS], x[2][VG_RSA52_MAX_LIMBS];
	static uint64_t d[2][VG_RSA52_MAX_LIMBS], e[2][4];
	static uint8_t sig[256];
	const uint64_t *ep[2] = { e[0], e[1] };
	struct vg_rsa_kernels kern;
	struct vg_der_rsa_priv v;
	struct vg_rng rng;
	uint64_t k0[2];
	size_t i, j, h;
	enum vg_err err;
	int bad = 0, w;

	if (!vg_rsa_amm52_emu_available()) {
		printf("skipped: built without SIMDe\n");
		return 0;
	}
	/* the kernels are chosen here: a VG_CPU_FEATURES mask changes nothing */
	if (getenv("VG_CPU_FEATURES") != NULL &&
	    strcmp(getenv("VG_CPU_FEATURES"), "none") == 0) {
		printf("skipped: the same run as with the native mask\n");
		return 0;
	}
	vg_rsa_kernels_fill(&kern, 0);
	kern.amm52x2 = vg_rsa_amm52x2_emu;
	kern.modexp52x2 = vg_rsa_modexp52x2_emu;
	kern.powpub52x2 = vg_rsa_powpub52x2_emu;
	kern.amm52_words = VG_RSA52_WORDS_BIT(16);
	if (vg_rng_init(&rng) != VG_OK ||
	    vg_rsa_keygen(&kb, 2048, 65537, &rng) != VG_OK)
		return 1;
	vg_rsa_key_bytes_view(&kb, &v);
	VG_CT_SECRET(kb.d, sizeof(kb.d));
	VG_CT_SECRET(kb.p, sizeof(kb.p));
	VG_CT_SECRET(kb.q, sizeof(kb.q));
	VG_CT_SECRET(kb.dp, sizeof(kb.dp));
	VG_CT_SECRET(kb.dq, sizeof(kb.dq));
	VG_CT_SECRET(kb.qinv, sizeof(kb.qinv));
	err = vg_rsa_key_load(&k, &v, &kern, VG_RSA_EXP_BLIND, &rng);
	VG_CT_DECLASSIFY(&err, sizeof(err));
	if (err != VG_OK || !k.use52)
		return 1;
	err = vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, key, 32, sig, sizeof(sig),
	    &rng);
	VG_CT_DECLASSIFY(&err, sizeof(err));
	VG_CT_DECLASSIFY(sig, sizeof(sig));
	bad |= err != VG_OK || vg_rsa_pkcs1_verify(vg_rsa_key_pub(&k),
	    VG_HASH_SHA256, key, 32, sig, sizeof(sig)) != VG_OK;
	vg_rsa_key_wipe(&k);
	vg_rng_wipe(&rng);

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t nl = sizes[i];

		memset(m, 0, sizeof(m));
		memset(x, 0, sizeof(x));
		for (h = 0; h < 2; h++) {
			for (j = 0; j < nl; j++) {
				m[h][j] = (0x9e3779b97f4a7c15ULL * (j + 1 + h) ^
				    (j << 9)) & 0xfffffffffffffULL;
				x[h][j] = (0x6a09e667f3bcc909ULL * (j + 3 + h) >>
				    13) & 0xfffffffffffffULL;
			}
			m[h][0] |= 1;
			m[h][nl - 1] >>= 20; /* 4m < R' */
			x[h][nl - 1] >>= 21; /* x < m */
			k0[h] = 0x3c6ef372fe94f82bULL * (h + 1); /* any */
			for (j = 0; j < 4; j++)
				e[h][j] = 0xbb67ae8584caa73bULL * (j + 5 + h);
		}
		VG_CT_SECRET(x, sizeof(x));
		VG_CT_SECRET(e, sizeof(e));
		/* both variants: 512-bit registers, and 256-bit ("ifma256") */
		for (w = 0; w < 2; w++) {
			(w ? vg_rsa_amm52x2_emu256 : vg_rsa_amm52x2_emu)(d,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])m, k0, nl);
			sink(d, sizeof(d));
			(w ? vg_rsa_modexp52x2_emu256 :
			    vg_rsa_modexp52x2_emu)(d,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x, ep, 256,
			    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])m, k0, nl);
			sink(d, sizeof(d));
		}
		vg_rsa_modexp52x2_c(d, (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])x, ep, 256,
		    (const uint64_t(*)[VG_RSA52_MAX_LIMBS])m, k0, nl);
		VG_CT_DECLASSIFY(d, sizeof(d));
		VG_CT_DECLASSIFY(x, sizeof(x));
		VG_CT_DECLASSIFY(e, sizeof(e));
	}
	return bad;
}

/* RSA key generation with the generator's state marked secret: every
 * candidate, base, prime and exponent made from its output is secret, and
 * only what the code declassifies (each discarded candidate's verdicts,
 * bit lengths) may steer a branch or an index. A key of 1024 bits on the
 * 64-bit kernels (the lanes take turns), and two rounds on two secret
 * 1024-bit candidates on the IFMA pair's portable twins (the lanes on the
 * pair, as for RSA-2048). */
static int
case_rsa_keygen(void)
{
	static struct vg_rsa_key_bytes kb;
	struct vg_rsa_kernels c52;
	uint64_t c[2][16], ok[2];
	struct vg_rng rng;
	enum vg_err e1, e2;

	vg_rsa_kernels_fill(&c52, 0);
	c52.amm52x2 = vg_rsa_amm52x2_c;
	c52.modexp52x2 = vg_rsa_modexp52x2_c;
	c52.powpub52x2 = vg_rsa_powpub52x2_c;
	c52.amm52_words = VG_RSA52_WORDS_BIT(16);
	if (vg_rng_init(&rng) != VG_OK)
		return 1;
	VG_CT_SECRET(rng.d.K, sizeof(rng.d.K));
	VG_CT_SECRET(rng.d.V, sizeof(rng.d.V));
	e1 = vg_rsa_keygen(&kb, 1024, 65537, &rng);
	VG_CT_DECLASSIFY(&e1, sizeof(e1));
	VG_CT_DECLASSIFY(&kb, sizeof(kb));
	e2 = vg_rng_generate(&rng, c, sizeof(c));
	/* odd, top bit set, 2^17 does not divide c - 1 (s stays secret) */
	c[0][0] |= 1 | (uint64_t)1 << 16;
	c[1][0] |= 1 | (uint64_t)1 << 16;
	c[0][15] |= (uint64_t)1 << 63;
	c[1][15] |= (uint64_t)1 << 63;
	if (e2 == VG_OK)
		e2 = vg_rsa_mr_pair(c[0], c[1], 16, 2, &rng, &c52, ok);
	VG_CT_DECLASSIFY(&e2, sizeof(e2));
	VG_CT_DECLASSIFY(ok, sizeof(ok));
	vg_wipe(&kb, sizeof(kb));
	vg_wipe(c, sizeof(c));
	vg_rng_wipe(&rng);
	return e1 != VG_OK || e2 != VG_OK;
}

/* RSA CRT recovery from a secret d (keys imported as n, e, d): only the
 * outcome and the sizes are declassified inside. */
static int
case_rsa_recover(void)
{
	static struct vg_rsa_key_bytes kb, rec;
	struct vg_der n, e, d;
	struct vg_rng rng;
	enum vg_err err;
	int bad;

	if (vg_rng_init(&rng) != VG_OK ||
	    vg_rsa_keygen(&kb, 1024, 65537, &rng) != VG_OK)
		return 1;
	n = vg_der_make(kb.n, kb.nlen);
	e = vg_der_make(kb.e, kb.elen);
	d = vg_der_make(kb.d, kb.nlen);
	VG_CT_SECRET(kb.d, sizeof(kb.d));
	err = vg_rsa_recover_crt(&rec, &n, &e, &d);
	VG_CT_DECLASSIFY(&err, sizeof(err));
	VG_CT_DECLASSIFY(&rec, sizeof(rec));
	VG_CT_DECLASSIFY(kb.d, sizeof(kb.d));
	bad = err != VG_OK || rec.plen != kb.plen ||
	    memcmp(rec.p, kb.p, kb.plen) != 0 ||
	    memcmp(rec.qinv, kb.qinv, kb.plen) != 0;
	vg_wipe(&kb, sizeof(kb));
	vg_wipe(&rec, sizeof(rec));
	vg_rng_wipe(&rng);
	return bad;
}

/* ---------------------------------------------- key wrapping above crypto/ */

/* An object of class cls and key type kt with the attributes given. */
static struct vg_object *
key_object(CK_OBJECT_CLASS cls, CK_KEY_TYPE kt)
{
	struct vg_object *o = vg_object_new();

	if (o != NULL && (vg_object_set_attr(o, CKA_CLASS, &cls,
	    sizeof(cls)) != CKR_OK || vg_object_set_attr(o, CKA_KEY_TYPE, &kt,
	    sizeof(kt)) != CKR_OK)) {
		vg_object_free(o);
		o = NULL;
	}
	return o;
}

/*
 * Marks the key octets of a PrivateKeyInfo secret, leaving its structure
 * public: each element's tag and length, the algorithm identifier, the
 * first two octets of each INTEGER (they say whether it is minimal, which
 * its length shows), and an EC public point. Walks the DER by hand.
 */
static void
mark_key_octets(uint8_t *der, size_t len)
{
	struct vg_der c = vg_der_make(der, len), seq, v, inner, pk;
	unsigned t;

	if (vg_der_get_sequence(&c, &seq) != VG_OK ||
	    vg_der_get_any(&seq, &t, &v, NULL) != VG_OK ||
	    vg_der_get_any(&seq, &t, &v, NULL) != VG_OK ||
	    vg_der_get_octet_string(&seq, &pk) != VG_OK)
		return;
	c = pk;
	if (vg_der_peek_tag(&c) == (int)VG_DER_SEQUENCE &&
	    vg_der_get_sequence(&c, &inner) == VG_OK) {
		while (vg_der_get_any(&inner, &t, &v, NULL) == VG_OK) {
			if (t == VG_DER_INTEGER && v.len > 2)
				VG_CT_SECRET(v.p + 2, v.len - 2);
			else if (t == VG_DER_OCTET_STRING)
				VG_CT_SECRET(v.p, v.len);
		}
		return;
	}
	/* ML-DSA's seed [0] or expanded key */
	if (vg_der_get_any(&c, &t, &v, NULL) == VG_OK)
		VG_CT_SECRET(v.p, v.len);
}

/*
 * The private keys of C_WrapKey and C_UnwrapKey in PKCS #8
 * (token/pkcs8.c): RSA, EC and ML-DSA keys (seed and expanded forms)
 * written from secret attributes and read back from a PrivateKeyInfo
 * whose key octets are secret. Only the structure, the lengths and
 * whether an EC scalar is in range may steer a branch.
 */
static int
case_pkcs8(void)
{
	static uint8_t parts[8][64], sk[2560];
	static const CK_ATTRIBUTE_TYPE rsa_types[8] = { CKA_MODULUS,
		CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT, CKA_PRIME_1,
		CKA_PRIME_2, CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT };
	static const CK_KEY_TYPE kts[4] = { CKK_RSA, CKK_EC, CKK_ML_DSA,
		CKK_ML_DSA };
	static const uint8_t p256_oid[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
		0x3d, 0x03, 0x01, 0x07 };
	CK_ULONG set = CKP_ML_DSA_44;
	struct vg_object *o, *back;
	uint8_t *der;
	size_t len, i, j;
	int bad = 0;
	CK_RV rv;

	for (i = 0; i < 8; i++)
		for (j = 0; j < 64; j++)
			parts[i][j] = (uint8_t)(0x40 + i * 7 + j * 13);
	for (j = 0; j < sizeof(sk); j++)
		sk[j] = (uint8_t)(j * 29 + 3);
	for (i = 0; i < 4 && !bad; i++) {
		o = key_object(CKO_PRIVATE_KEY, kts[i]);
		back = key_object(CKO_PRIVATE_KEY, kts[i]);
		if (o == NULL || back == NULL)
			return 1;
		rv = CKR_OK;
		if (i == 0) {
			/* values need not be a real key to be encoded */
			for (j = 0; j < 8 && rv == CKR_OK; j++)
				rv = vg_object_set_attr(o, rsa_types[j],
				    parts[j], 64);
		} else if (i == 1) {
			rv = vg_object_set_attr(o, CKA_EC_PARAMS, p256_oid,
			    sizeof(p256_oid));
			if (rv == CKR_OK)
				rv = vg_object_set_attr(o, CKA_VALUE, key, 32);
		} else {
			rv = vg_object_set_attr(o, CKA_PARAMETER_SET, &set,
			    sizeof(set));
			if (rv == CKR_OK)
				rv = i == 2 ? vg_object_set_attr(o, CKA_SEED,
				    key, 32) : vg_object_set_attr(o, CKA_VALUE,
				    sk, sizeof(sk));
		}
		if (rv != CKR_OK)
			return 1;
		/* the values, secret from here on (the first byte of each
		 * RSA part is public: the encoding's length shows it) */
		for (j = 0; j < o->n; j++)
			if (vg_attr_is_secret(CKO_PRIVATE_KEY, kts[i],
			    o->attrs[j].type) ||
			    o->attrs[j].type == CKA_MODULUS)
				VG_CT_SECRET((uint8_t *)o->attrs[j].value +
				    (i == 0), o->attrs[j].len - (i == 0));
		rv = vg_key_to_pkcs8(o, &der, &len);
		if (rv != CKR_OK)
			return 1;
		VG_CT_DECLASSIFY(der, len);
		mark_key_octets(der, len);
		rv = vg_key_from_pkcs8(back, der, len);
		bad = rv != CKR_OK;
		vg_secmem_free(der, len);
		vg_object_free(o);
		vg_object_free(back);
	}
	return bad;
}

static const struct {
	const char *name;
	int (*run)(void);
} cases[] = {
	{ "leaky-branch", case_leaky_branch },
	{ "leaky-index", case_leaky_index },
	{ "ct-helpers", case_ct_helpers },
	{ "hashes", case_hashes },
	{ "hmac-kdf", case_hmac_kdf },
	{ "aes", case_aes },
	{ "gcm", case_gcm },
	{ "cbc-pad", case_cbc_pad },
	{ "ctr", case_ctr },
	{ "cmac", case_cmac },
	{ "ghash", case_ghash },
	{ "keywrap", case_keywrap },
	{ "pin", case_pin },
	{ "seal", case_seal },
	{ "drbg", case_drbg },
	{ "pem", case_pem },
	{ "p256", case_p256 },
	{ "p256-adx", case_p256_adx },
	{ "mldsa", case_mldsa },
	{ "c25519", case_c25519 },
	{ "c25519-adx", case_c25519_adx },
	{ "mldsa-expanded", case_mldsa_expanded },
	{ "mlkem-keygen", vg_ct_case_mlkem_keygen },
	{ "mlkem-encaps", vg_ct_case_mlkem_encaps },
	{ "mlkem-decaps", vg_ct_case_mlkem_decaps },
	{ "mlkem-decaps-reject", vg_ct_case_mlkem_decaps_reject },
	{ "mlkem-decaps-expanded", vg_ct_case_mlkem_decaps_expanded },
	{ "rsa", case_rsa },
	{ "rsa-recover", case_rsa_recover },
	{ "rsa-keygen", case_rsa_keygen },
	{ "rsa-adx", case_rsa_adx },
	{ "rsa-amm52", case_rsa_amm52 },
	{ "pkcs8", case_pkcs8 },
};

int
main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ct_check CASE | --list\n");
		return 2;
	}
	fill();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			return cases[i].run();
	fprintf(stderr, "ct_check: unknown case %s\n", argv[1]);
	return 2;
}
