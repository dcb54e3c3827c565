/*
 * AES encryption and decryption through the function list [PKCS#11 3.2
 * §5.10, §5.11, §6.14]: CKM_AES_ECB, CKM_AES_CBC, CKM_AES_CBC_PAD,
 * CKM_AES_CTR and CKM_AES_GCM with 128, 192 and 256-bit keys against
 * OpenSSL's EVP ciphers, single-part and in parts of random lengths, both
 * ways; the output rules (length queries, short buffers that keep the
 * operation); the CTR counter width; GCM's tag lengths and its decryption
 * that releases nothing before the Final; CBC padding and length errors;
 * the parameters and keys refused, and multi-part misuse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static struct p11_rng rng;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS secret_class = CKO_SECRET_KEY;

static int
setup(void **state)
{
	(void)state;
	p11_rng_seed(&rng, 19);
	return p11_fresh_user_session(dir, "aes", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* ------------------------------------------------------------ helpers */

/* A session AES key (or kt) with value v; enc sets CKA_ENCRYPT and
 * CKA_DECRYPT. */
static CK_OBJECT_HANDLE
key_of(CK_KEY_TYPE kt, const uint8_t *v, size_t len, CK_BBOOL enc)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &secret_class, sizeof(secret_class) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE, (void *)v, len },
		{ CKA_ENCRYPT, &enc, 1 },
		{ CKA_DECRYPT, &enc, 1 },
		{ CKA_SENSITIVE, &no, 1 },
	};
	CK_OBJECT_HANDLE o;

	assert_rv(p11->C_CreateObject(h, t, 6, &o), CKR_OK);
	return o;
}

static CK_OBJECT_HANDLE
aes_key(size_t len, uint8_t *v)
{
	p11_rng_fill(&rng, v, len);
	return key_of(CKK_AES, v, len, CK_TRUE);
}

/* The OpenSSL cipher for a mechanism and key length. */
static const EVP_CIPHER *
ossl_cipher(CK_MECHANISM_TYPE m, size_t klen)
{
	char name[32];
	const char *mode = m == CKM_AES_ECB ? "ECB" : m == CKM_AES_CTR ? "CTR"
	    : m == CKM_AES_GCM ? "GCM" : "CBC";
	const EVP_CIPHER *c;

	snprintf(name, sizeof(name), "AES-%zu-%s", klen * 8, mode);
	c = EVP_get_cipherbyname(name);
	assert_non_null(c);
	return c;
}

/* OpenSSL's encryption of in (ciphertext, then the tag for GCM);
 * returns the length. */
static size_t
ossl_encrypt(CK_MECHANISM_TYPE m, const uint8_t *key, size_t klen,
    const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen,
    size_t taglen, const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, f = 0;

	assert_non_null(x);
	assert_int_equal(EVP_EncryptInit_ex(x, ossl_cipher(m, klen), NULL,
	    NULL, NULL), 1);
	if (m == CKM_AES_GCM)
		assert_int_equal(EVP_CIPHER_CTX_ctrl(x,
		    EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL), 1);
	assert_int_equal(EVP_EncryptInit_ex(x, NULL, NULL, key, iv), 1);
	EVP_CIPHER_CTX_set_padding(x, m == CKM_AES_CBC_PAD);
	if (aadlen != 0)
		assert_int_equal(EVP_EncryptUpdate(x, NULL, &n, aad,
		    (int)aadlen), 1);
	assert_int_equal(EVP_EncryptUpdate(x, out, &n, in, (int)len), 1);
	assert_int_equal(EVP_EncryptFinal_ex(x, out + n, &f), 1);
	n += f;
	if (m == CKM_AES_GCM) {
		assert_int_equal(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG,
		    (int)taglen, out + n), 1);
		n += (int)taglen;
	}
	EVP_CIPHER_CTX_free(x);
	return (size_t)n;
}

enum dirn { ENC, DEC };

/* Single-part: a length query, then the call; returns the length. */
static CK_ULONG
p11_single(enum dirn dir_, CK_MECHANISM *m, CK_OBJECT_HANDLE k,
    const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	CK_RV (*init)(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE) =
	    dir_ == ENC ? p11->C_EncryptInit : p11->C_DecryptInit;
	CK_RV (*call)(CK_SESSION_HANDLE, CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR,
	    CK_ULONG_PTR) = dir_ == ENC ? p11->C_Encrypt : p11->C_Decrypt;
	CK_ULONG n = 0, q;

	assert_rv(init(h, m, k), CKR_OK);
	assert_rv(call(h, (CK_BYTE_PTR)in, len, NULL, &n), CKR_OK);
	assert_true(n <= cap);
	q = n;
	n = cap;
	assert_rv(call(h, (CK_BYTE_PTR)in, len, out, &n), CKR_OK);
	assert_true(n <= q);
	return n;
}

/* Multi-part in parts of random lengths, each Update and the Final with
 * a length query first; returns the length. */
static CK_ULONG
p11_parts(enum dirn dir_, CK_MECHANISM *m, CK_OBJECT_HANDLE k,
    const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
	CK_RV (*init)(CK_SESSION_HANDLE, CK_MECHANISM_PTR, CK_OBJECT_HANDLE) =
	    dir_ == ENC ? p11->C_EncryptInit : p11->C_DecryptInit;
	CK_RV (*upd)(CK_SESSION_HANDLE, CK_BYTE_PTR, CK_ULONG, CK_BYTE_PTR,
	    CK_ULONG_PTR) = dir_ == ENC ? p11->C_EncryptUpdate
					 : p11->C_DecryptUpdate;
	CK_RV (*fin)(CK_SESSION_HANDLE, CK_BYTE_PTR, CK_ULONG_PTR) =
	    dir_ == ENC ? p11->C_EncryptFinal : p11->C_DecryptFinal;
	size_t pos = 0, done = 0, part;
	CK_ULONG n, q;

	assert_rv(init(h, m, k), CKR_OK);
	while (pos < len) {
		part = p11_rng_below(&rng, len - pos + 1);
		n = 0;
		assert_rv(upd(h, (CK_BYTE_PTR)in + pos, part, NULL, &n),
		    CKR_OK);
		assert_true(done + n <= cap);
		q = n;
		n = cap - done;
		assert_rv(upd(h, (CK_BYTE_PTR)in + pos, part, out + done, &n),
		    CKR_OK);
		assert_int_equal(n, q);
		done += n;
		pos += part;
	}
	n = 0;
	assert_rv(fin(h, NULL, &n), CKR_OK);
	assert_true(done + n <= cap);
	q = n;
	n = cap - done;
	assert_rv(fin(h, out + done, &n), CKR_OK);
	assert_true(n <= q);
	return done + n;
}

/* Asserts that no operation of the direction is active. */
static void
no_op(int enc)
{
	CK_ULONG n = 0;

	assert_rv(enc ? p11->C_EncryptFinal(h, NULL, &n)
		      : p11->C_DecryptFinal(h, NULL, &n),
	    CKR_OPERATION_NOT_INITIALIZED);
}

/* ------------------------------------------------------- known answers */

/* Every mode, key size and a spread of lengths against OpenSSL, single
 * and in parts, both ways. */
static void
test_modes_openssl(void **state)
{
	static const CK_MECHANISM_TYPE modes[] = { CKM_AES_ECB, CKM_AES_CBC,
		CKM_AES_CBC_PAD, CKM_AES_CTR, CKM_AES_GCM };
	static const size_t lens[] = { 0, 1, 15, 16, 17, 31, 32, 48, 100, 255,
		1024, 4099 };
	static const size_t klens[] = { 16, 24, 32 };
	static uint8_t pt[4200], want[4300], got[4300], back[4300];
	uint8_t kv[32], iv[16], aad[20];
	CK_AES_CTR_PARAMS ctr;
	CK_GCM_PARAMS gcm;
	CK_MECHANISM m;
	CK_OBJECT_HANDLE k;
	size_t mi, li, ki, wl, taglen;
	CK_ULONG n;

	(void)state;
	for (ki = 0; ki < 3; ki++) {
		k = aes_key(klens[ki], kv);
		for (mi = 0; mi < 5; mi++) {
			for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
				size_t len = lens[li];

				if ((modes[mi] == CKM_AES_ECB ||
				    modes[mi] == CKM_AES_CBC) && len % 16 != 0)
					continue;
				p11_rng_fill(&rng, pt, len);
				p11_rng_fill(&rng, iv, 16);
				p11_rng_fill(&rng, aad, sizeof(aad));
				taglen = 16 - 4 * (li % 3);
				m.mechanism = modes[mi];
				m.pParameter = NULL;
				m.ulParameterLen = 0;
				if (modes[mi] == CKM_AES_CBC ||
				    modes[mi] == CKM_AES_CBC_PAD) {
					m.pParameter = iv;
					m.ulParameterLen = 16;
				} else if (modes[mi] == CKM_AES_CTR) {
					/* far from wrapping: OpenSSL's
					 * 128-bit counter agrees */
					iv[8] = 0;
					ctr.ulCounterBits = 64;
					memcpy(ctr.cb, iv, 16);
					m.pParameter = &ctr;
					m.ulParameterLen = sizeof(ctr);
				} else if (modes[mi] == CKM_AES_GCM) {
					gcm.pIv = iv;
					gcm.ulIvLen = 12;
					gcm.ulIvBits = 96;
					gcm.pAAD = li % 2 ? aad : NULL;
					gcm.ulAADLen = li % 2 ? sizeof(aad) : 0;
					gcm.ulTagBits = taglen * 8;
					m.pParameter = &gcm;
					m.ulParameterLen = sizeof(gcm);
				}
				wl = ossl_encrypt(modes[mi], kv, klens[ki], iv,
				    12, aad, modes[mi] == CKM_AES_GCM && li % 2
				    ? sizeof(aad) : 0, taglen,
				    pt, len, want);
				n = p11_single(ENC, &m, k, pt, len, got,
				    sizeof(got));
				assert_int_equal(n, wl);
				assert_memory_equal(got, want, wl);
				n = p11_parts(ENC, &m, k, pt, len, got,
				    sizeof(got));
				assert_int_equal(n, wl);
				assert_memory_equal(got, want, wl);
				n = p11_single(DEC, &m, k, want, wl, back,
				    sizeof(back));
				assert_int_equal(n, len);
				assert_memory_equal(back, pt, len);
				memset(back, 0, sizeof(back));
				n = p11_parts(DEC, &m, k, want, wl, back,
				    sizeof(back));
				assert_int_equal(n, len);
				assert_memory_equal(back, pt, len);
			}
		}
	}
}

/* --------------------------------------------------- output rules */

static void
test_output_rules(void **state)
{
	uint8_t kv[32], iv[16], pt[40], ct[64], out[64];
	CK_MECHANISM m = { CKM_AES_CBC_PAD, iv, 16 };
	CK_OBJECT_HANDLE k;
	CK_ULONG n;

	(void)state;
	k = aes_key(32, kv);
	p11_rng_fill(&rng, iv, 16);
	p11_rng_fill(&rng, pt, sizeof(pt));
	/* the length of a single-part encryption is exact; a short buffer
	 * keeps the operation, for the retry */
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = 0;
	assert_rv(p11->C_Encrypt(h, pt, 40, NULL, &n), CKR_OK);
	assert_int_equal(n, 48);
	n = 47;
	assert_rv(p11->C_Encrypt(h, pt, 40, out, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 48);
	n = sizeof(ct);
	assert_rv(p11->C_Encrypt(h, pt, 40, ct, &n), CKR_OK);
	assert_int_equal(n, 48);
	no_op(1);
	/* decryption: an upper bound first, then the exact length */
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
	n = 0;
	assert_rv(p11->C_Decrypt(h, ct, 48, NULL, &n), CKR_OK);
	assert_true(n >= 40 && n <= 48);
	n = 39;
	assert_rv(p11->C_Decrypt(h, ct, 48, out, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 40);
	n = 40;
	assert_rv(p11->C_Decrypt(h, ct, 48, out, &n), CKR_OK);
	assert_int_equal(n, 40);
	assert_memory_equal(out, pt, 40);
	/* Update: the blocks that are ready; a short buffer keeps the
	 * operation and consumes nothing */
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = 0;
	assert_rv(p11->C_EncryptUpdate(h, pt, 20, NULL, &n), CKR_OK);
	assert_int_equal(n, 16);
	n = 15;
	assert_rv(p11->C_EncryptUpdate(h, pt, 20, out, &n),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 16);
	n = sizeof(out);
	assert_rv(p11->C_EncryptUpdate(h, pt, 20, out, &n), CKR_OK);
	assert_int_equal(n, 16);
	n = sizeof(out) - 16;
	assert_rv(p11->C_EncryptUpdate(h, pt + 20, 20, out + 16, &n), CKR_OK);
	assert_int_equal(n, 16);
	n = 15;
	assert_rv(p11->C_EncryptFinal(h, out + 32, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, 16);
	n = 16;
	assert_rv(p11->C_EncryptFinal(h, out + 32, &n), CKR_OK);
	assert_memory_equal(out, ct, 48);
	no_op(1);
	/* in place */
	memcpy(out, pt, 32);
	m.mechanism = CKM_AES_CBC;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = 32;
	assert_rv(p11->C_Encrypt(h, out, 32, out, &n), CKR_OK);
	assert_memory_equal(out, ct, 32);
}

/* Lengths the block modes refuse, and bad padding. */
static void
test_block_errors(void **state)
{
	uint8_t kv[32], iv[16], blk[48], out[64];
	CK_MECHANISM cbc = { CKM_AES_CBC, iv, 16 }, pad = { CKM_AES_CBC_PAD,
		iv, 16 }, ecb = { CKM_AES_ECB, NULL, 0 };
	CK_OBJECT_HANDLE k;
	CK_ULONG n;
	unsigned i;

	(void)state;
	k = aes_key(16, kv);
	p11_rng_fill(&rng, iv, 16);
	memset(blk, 7, sizeof(blk));
	assert_rv(p11->C_EncryptInit(h, &cbc, k), CKR_OK);
	n = sizeof(out);
	assert_rv(p11->C_Encrypt(h, blk, 17, out, &n), CKR_DATA_LEN_RANGE);
	no_op(1);
	assert_rv(p11->C_DecryptInit(h, &ecb, k), CKR_OK);
	n = sizeof(out);
	assert_rv(p11->C_Decrypt(h, blk, 15, out, &n),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	assert_rv(p11->C_DecryptInit(h, &pad, k), CKR_OK);
	n = sizeof(out);
	assert_rv(p11->C_Decrypt(h, blk, 0, out, &n),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	/* multi-part: the leftover is found at the Final */
	assert_rv(p11->C_EncryptInit(h, &ecb, k), CKR_OK);
	n = sizeof(out);
	assert_rv(p11->C_EncryptUpdate(h, blk, 20, out, &n), CKR_OK);
	assert_int_equal(n, 16);
	n = sizeof(out);
	assert_rv(p11->C_EncryptFinal(h, out, &n), CKR_DATA_LEN_RANGE);
	no_op(1);
	/* bad padding: the last plaintext byte 0, 17, or a padding byte
	 * that differs; each is CKR_ENCRYPTED_DATA_INVALID */
	for (i = 0; i < 4; i++) {
		uint8_t p[32], c[32];

		memset(p, 4, sizeof(p));
		if (i == 0)
			p[31] = 0;
		else if (i == 1)
			p[31] = 17;
		else if (i == 2)
			p[29] = 5;
		else
			p[31] = 33;
		assert_rv(p11->C_EncryptInit(h, &cbc, k), CKR_OK);
		n = sizeof(c);
		assert_rv(p11->C_Encrypt(h, p, 32, c, &n), CKR_OK);
		assert_rv(p11->C_DecryptInit(h, &pad, k), CKR_OK);
		n = sizeof(out);
		assert_rv(p11->C_Decrypt(h, c, 32, out, &n),
		    CKR_ENCRYPTED_DATA_INVALID);
		no_op(0);
		assert_rv(p11->C_DecryptInit(h, &pad, k), CKR_OK);
		n = sizeof(out);
		assert_rv(p11->C_DecryptUpdate(h, c, 32, out, &n), CKR_OK);
		assert_int_equal(n, 16);
		n = sizeof(out);
		assert_rv(p11->C_DecryptFinal(h, out, &n),
		    CKR_ENCRYPTED_DATA_INVALID);
		no_op(0);
	}
}

/* ------------------------------------------------------------- CTR */

static void
test_ctr_counter(void **state)
{
	uint8_t kv[16], pt[80], ct[80], want[80];
	CK_AES_CTR_PARAMS p;
	CK_MECHANISM m = { CKM_AES_CTR, &p, sizeof(p) };
	CK_OBJECT_HANDLE k;
	CK_ULONG n;

	(void)state;
	k = aes_key(16, kv);
	p11_rng_fill(&rng, pt, sizeof(pt));
	/* an 8-bit counter at 0xfd has three values left: three blocks
	 * (the last one partial) pass, and match the full-width counter
	 * of OpenSSL since nothing carries */
	p11_rng_fill(&rng, p.cb, 16);
	p.cb[15] = 0xfd;
	p.ulCounterBits = 8;
	ossl_encrypt(CKM_AES_CTR, kv, 16, p.cb, 16, NULL, 0, 0, pt, 40, want);
	assert_int_equal(p11_single(ENC, &m, k, pt, 40, ct, sizeof(ct)), 40);
	assert_memory_equal(ct, want, 40);
	assert_int_equal(p11_single(ENC, &m, k, pt, 48, ct, sizeof(ct)), 48);
	/* a fourth block would wrap the counter: refused, nothing out */
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = sizeof(ct);
	assert_rv(p11->C_Encrypt(h, pt, 49, ct, &n), CKR_DATA_LEN_RANGE);
	no_op(1);
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
	n = sizeof(ct);
	assert_rv(p11->C_Decrypt(h, pt, 64, ct, &n),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	/* across Update calls: the count carries */
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = sizeof(ct);
	assert_rv(p11->C_EncryptUpdate(h, pt, 20, ct, &n), CKR_OK);
	assert_int_equal(n, 20);
	n = sizeof(ct);
	assert_rv(p11->C_EncryptUpdate(h, pt + 20, 28, ct + 20, &n), CKR_OK);
	assert_memory_equal(ct, want, 40);
	n = sizeof(ct);
	assert_rv(p11->C_EncryptUpdate(h, pt, 1, ct, &n), CKR_DATA_LEN_RANGE);
	no_op(1);
	/* the full 128 bits, all ones: one block only */
	memset(p.cb, 0xff, 16);
	p.ulCounterBits = 128;
	assert_int_equal(p11_single(ENC, &m, k, pt, 16, ct, sizeof(ct)), 16);
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = sizeof(ct);
	assert_rv(p11->C_Encrypt(h, pt, 17, ct, &n), CKR_DATA_LEN_RANGE);
	/* widths outside 1..128 */
	p.ulCounterBits = 0;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.ulCounterBits = 129;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.ulCounterBits = 1;
	p.cb[15] = 0;
	assert_int_equal(p11_single(ENC, &m, k, pt, 32, ct, sizeof(ct)), 32);
	m.ulParameterLen = 16;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
}

/* ------------------------------------------------------------- GCM */

static void
test_gcm(void **state)
{
	static const CK_ULONG badtags[] = { 0, 8, 24, 31, 36, 100, 136, 256 };
	uint8_t kv[32], iv[1025], aad[33], pt[70], ct[100], out[100];
	CK_GCM_PARAMS p = { iv, 12, 96, aad, sizeof(aad), 128 };
	CK_MECHANISM m = { CKM_AES_GCM, &p, sizeof(p) };
	struct {
		CK_BYTE_PTR pIv;
		CK_ULONG ulIvLen;
		CK_BYTE_PTR pAAD;
		CK_ULONG ulAADLen;
		CK_ULONG ulTagBits;
	} old = { iv, 12, aad, sizeof(aad), 128 };
	CK_MECHANISM mold = { CKM_AES_GCM, &old, sizeof(old) };
	CK_OBJECT_HANDLE k;
	CK_ULONG n, t;
	size_t wl, i;

	(void)state;
	k = aes_key(32, kv);
	p11_rng_fill(&rng, iv, sizeof(iv));
	p11_rng_fill(&rng, aad, sizeof(aad));
	p11_rng_fill(&rng, pt, sizeof(pt));
	wl = ossl_encrypt(CKM_AES_GCM, kv, 32, iv, 12, aad, sizeof(aad), 16,
	    pt, sizeof(pt), ct);
	assert_int_equal(wl, 86);
	/* decryption in parts: no plaintext before the Final */
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
	for (i = 0; i < 86; i += 20) {
		n = sizeof(out);
		assert_rv(p11->C_DecryptUpdate(h, ct + i, i + 20 > 86 ? 6 : 20,
		    out, &n), CKR_OK);
		assert_int_equal(n, 0);
	}
	n = 0;
	assert_rv(p11->C_DecryptFinal(h, NULL, &n), CKR_OK);
	assert_int_equal(n, 70);
	n = 69;
	assert_rv(p11->C_DecryptFinal(h, out, &n), CKR_BUFFER_TOO_SMALL);
	n = 70;
	assert_rv(p11->C_DecryptFinal(h, out, &n), CKR_OK);
	assert_memory_equal(out, pt, 70);
	/* a changed tag, ciphertext or AAD: nothing, and the op ends */
	for (i = 0; i < 3; i++) {
		uint8_t *flip = i == 0 ? ct + 85 : i == 1 ? ct : aad;

		*flip ^= 1;
		assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
		memset(out, 0xa5, sizeof(out));
		n = sizeof(out);
		assert_rv(p11->C_Decrypt(h, ct, 86, out, &n),
		    CKR_ENCRYPTED_DATA_INVALID);
		assert_int_equal(out[0], 0xa5);
		no_op(0);
		assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
		n = sizeof(out);
		assert_rv(p11->C_DecryptUpdate(h, ct, 86, out, &n), CKR_OK);
		assert_int_equal(n, 0);
		n = sizeof(out);
		assert_rv(p11->C_DecryptFinal(h, out, &n),
		    CKR_ENCRYPTED_DATA_INVALID);
		assert_int_equal(out[0], 0xa5);
		no_op(0);
		*flip ^= 1;
	}
	/* shorter than the tag */
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
	n = sizeof(out);
	assert_rv(p11->C_Decrypt(h, ct, 15, out, &n),
	    CKR_ENCRYPTED_DATA_LEN_RANGE);
	/* every tag length of 4 to 16 bytes, every IV length that is
	 * sensible: OpenSSL's truncated tag */
	for (t = 32; t <= 128; t += 8) {
		p.ulTagBits = t;
		p.ulIvLen = t / 8 + (t == 96 ? 116 : 0);
		p.ulIvBits = p.ulIvLen * 8;
		wl = ossl_encrypt(CKM_AES_GCM, kv, 32, iv, p.ulIvLen, aad,
		    sizeof(aad), t / 8, pt, 33, ct);
		assert_int_equal(p11_single(ENC, &m, k, pt, 33, out,
		    sizeof(out)), wl);
		assert_memory_equal(out, ct, wl);
		assert_int_equal(p11_single(DEC, &m, k, ct, wl, out,
		    sizeof(out)), 33);
		assert_memory_equal(out, pt, 33);
	}
	p.ulIvLen = 12;
	p.ulIvBits = 96;
	p.ulTagBits = 128;
	/* the 2.40 layout, told by its size, and ulIvBits 0 */
	wl = ossl_encrypt(CKM_AES_GCM, kv, 32, iv, 12, aad, sizeof(aad), 16,
	    pt, 5, ct);
	assert_int_equal(p11_single(ENC, &mold, k, pt, 5, out, sizeof(out)),
	    wl);
	assert_memory_equal(out, ct, wl);
	p.ulIvBits = 0;
	assert_int_equal(p11_single(DEC, &m, k, ct, wl, out, sizeof(out)), 5);
	/* parameters refused */
	for (i = 0; i < sizeof(badtags) / sizeof(badtags[0]); i++) {
		p.ulTagBits = badtags[i];
		assert_rv(p11->C_EncryptInit(h, &m, k),
		    CKR_MECHANISM_PARAM_INVALID);
		assert_rv(p11->C_DecryptInit(h, &m, k),
		    CKR_MECHANISM_PARAM_INVALID);
	}
	p.ulTagBits = 128;
	p.ulIvLen = 0;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.ulIvLen = 1025;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.ulIvLen = 12;
	p.ulIvBits = 95;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.ulIvBits = 96;
	p.pIv = NULL;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.pIv = iv;
	p.pAAD = NULL;
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	p.pAAD = aad;
	m.ulParameterLen = sizeof(p) - 1;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = 0;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	no_op(1);
}

/* ----------------------------------------------------- refusals */

static void
test_refusals(void **state)
{
	uint8_t kv[32], iv[17], buf[64];
	CK_MECHANISM m = { CKM_AES_CBC, iv, 16 };
	CK_OBJECT_HANDLE k, gk, nk;
	CK_ULONG n;

	(void)state;
	k = aes_key(32, kv);
	memset(iv, 1, sizeof(iv));
	memset(buf, 2, sizeof(buf));
	gk = key_of(CKK_GENERIC_SECRET, kv, 32, CK_TRUE);
	nk = key_of(CKK_AES, kv, 32, CK_FALSE);
	assert_rv(p11->C_EncryptInit(h, &m, gk), CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(p11->C_EncryptInit(h, &m, nk),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	assert_rv(p11->C_DecryptInit(h, &m, nk),
	    CKR_KEY_FUNCTION_NOT_PERMITTED);
	/* IVs of the wrong length; no IV; a parameter for ECB */
	m.ulParameterLen = 15;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = 17;
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.ulParameterLen = 0;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	m.mechanism = CKM_AES_CBC_PAD;
	m.pParameter = NULL;
	m.ulParameterLen = 16;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_ARGUMENTS_BAD);
	m.mechanism = CKM_AES_ECB;
	m.pParameter = iv;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_PARAM_INVALID);
	/* AES ciphers do not sign, and CMAC does not encrypt */
	m.ulParameterLen = 0;
	assert_rv(p11->C_SignInit(h, &m, k), CKR_MECHANISM_INVALID);
	m.mechanism = CKM_AES_CMAC;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_MECHANISM_INVALID);
	no_op(1);

	/* multi-part misuse */
	m.mechanism = CKM_AES_ECB;
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OPERATION_ACTIVE);
	n = sizeof(buf);
	assert_rv(p11->C_EncryptUpdate(h, buf, 16, buf, &n), CKR_OK);
	n = sizeof(buf);
	assert_rv(p11->C_Encrypt(h, buf, 16, buf, &n), CKR_OPERATION_ACTIVE);
	no_op(1);
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = 0;
	assert_rv(p11->C_Encrypt(h, buf, 16, NULL, &n), CKR_OK);
	assert_rv(p11->C_EncryptUpdate(h, buf, 16, buf, &n),
	    CKR_OPERATION_ACTIVE);
	no_op(1);
	n = sizeof(buf);
	assert_rv(p11->C_EncryptUpdate(h, buf, 16, buf, &n),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DecryptUpdate(h, buf, 16, buf, &n),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	assert_rv(p11->C_EncryptUpdate(h, buf, 16, buf, NULL),
	    CKR_ARGUMENTS_BAD);
	no_op(1);
	assert_rv(p11->C_EncryptInit(h, &m, k), CKR_OK);
	n = sizeof(buf);
	assert_rv(p11->C_EncryptUpdate(h, NULL, 16, buf, &n),
	    CKR_ARGUMENTS_BAD);
	no_op(1);
	/* a decryption is not an encryption */
	assert_rv(p11->C_DecryptInit(h, &m, k), CKR_OK);
	n = sizeof(buf);
	assert_rv(p11->C_EncryptUpdate(h, buf, 16, buf, &n),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DecryptUpdate(h, buf, 16, buf, &n), CKR_OK);
	n = sizeof(buf);
	assert_rv(p11->C_DecryptFinal(h, buf, &n), CKR_OK);
	assert_int_equal(n, 0);
	/* a key too short or too long for AES is refused at creation */
	{
		CK_KEY_TYPE kt = CKK_AES;
		CK_ATTRIBUTE t[] = {
			{ CKA_CLASS, &secret_class, sizeof(secret_class) },
			{ CKA_KEY_TYPE, &kt, sizeof(kt) },
			{ CKA_VALUE, kv, 20 },
			{ CKA_ENCRYPT, &yes, 1 },
		};
		CK_OBJECT_HANDLE o;

		assert_true(p11->C_CreateObject(h, t, 4, &o) != CKR_OK);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_modes_openssl, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_output_rules, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_block_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ctr_counter, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_gcm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
