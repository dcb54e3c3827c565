/*
 * The AES modes of crypto/aes.h beyond GCM and key wrap: ECB, CBC, PKCS#7
 * padding, CTR with every counter width, CMAC, and the streaming contexts
 * (CBC/ECB, CTR, CMAC, GCM encryption). Known answers from SP 800-38A and
 * RFC 4493, then OpenSSL's libcrypto as the oracle on random inputs, and
 * streaming against one-shot on random splits of the input. Each random
 * test runs with the process-wide kernels and with the portable twins
 * (keys set up by vg_aes_init_k). VG_TEST_SEED=<n> replays a run.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "crypto/aes.h"
#include "crypto/cpu.h"
#include "tests/xorshift.h"

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state;
static struct vg_kernels portable;
static const struct vg_kernels *ksets[2];

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static size_t
rnd_below(size_t n)
{
	return (size_t)(rnd() % n);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

static size_t
unhex(uint8_t *out, const char *hex)
{
	size_t n = strlen(hex) / 2, i;

	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static int
setup(void **state)
{
	const char *s = getenv("VG_TEST_SEED");

	(void)state;
	rng_state = s != NULL ? strtoull(s, NULL, 10) : 20261204u;
	if (rng_state == 0)
		rng_state = 1;
	print_message("seed %llu\n", (unsigned long long)rng_state);
	vg_kernels_fill(&portable, 0);
	ksets[0] = vg_kernels();
	ksets[1] = &portable;
	return 0;
}

static const EVP_CIPHER *
ossl_cipher(size_t kl, const char *mode)
{
	char name[32];
	EVP_CIPHER *c;

	snprintf(name, sizeof(name), "AES-%zu-%s", 8 * kl, mode);
	c = EVP_CIPHER_fetch(NULL, name, NULL);
	assert_non_null(c);
	return c;
}

/* OpenSSL encrypts or decrypts in one update and a final. */
static size_t
ossl_crypt(size_t kl, const char *mode, int pad, int enc, const uint8_t *key,
    const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER *ciph = (EVP_CIPHER *)ossl_cipher(kl, mode);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int a = 0, b = 0;

	assert_non_null(c);
	assert_int_equal(EVP_CipherInit_ex(c, ciph, NULL, key, iv, enc), 1);
	EVP_CIPHER_CTX_set_padding(c, pad);
	assert_int_equal(EVP_CipherUpdate(c, out, &a, in, (int)len), 1);
	assert_int_equal(EVP_CipherFinal_ex(c, out + a, &b), 1);
	EVP_CIPHER_CTX_free(c);
	EVP_CIPHER_free(ciph);
	return (size_t)(a + b);
}

/* Splits len into 1..5 random pieces: cut[0] = 0 < ... < cut[n] = len;
 * returns n. Pieces may be empty. */
static size_t
split(size_t len, size_t cut[6])
{
	size_t n = 1 + rnd_below(5), i, j;

	cut[0] = 0;
	cut[n] = len;
	for (i = 1; i < n; i++)
		cut[i] = rnd_below(len + 1);
	for (i = 1; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (cut[j] < cut[i]) {
				size_t t = cut[i];

				cut[i] = cut[j];
				cut[j] = t;
			}
	return n;
}

static const char PT[] =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
static const char *const KEYS[3] = {
	"2b7e151628aed2a6abf7158809cf4f3c",
	"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};

/* ------------------------------------------------- known answers */

/* SP 800-38A F.2 (CBC) and F.5 (CTR, a 128-bit counter from
 * f0f1...feff), all three key sizes, one shot and in place. */
static void
test_sp800_38a(void **state)
{
	static const char *const cbc[3] = {
		"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
		"73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
		"4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
		"571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
		"f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
		"39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
	};
	static const char *const ctr[3] = {
		"874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
		"5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
		"1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
		"1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
		"601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
		"2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
	};
	uint8_t key[32], pt[64], exp[64], out[64], iv[16], cb[16];
	struct vg_aes_key k;
	size_t s, kl, t;

	(void)state;
	unhex(pt, PT);
	unhex(iv, "000102030405060708090a0b0c0d0e0f");
	unhex(cb, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
	for (t = 0; t < 2; t++)
		for (s = 0; s < 3; s++) {
			kl = unhex(key, KEYS[s]);
			assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl),
			    VG_OK);
			unhex(exp, cbc[s]);
			assert_int_equal(vg_aes_cbc_encrypt(&k, iv, pt, 64, out),
			    VG_OK);
			assert_memory_equal(out, exp, 64);
			assert_int_equal(vg_aes_cbc_decrypt(&k, iv, out, 64, out),
			    VG_OK);
			assert_memory_equal(out, pt, 64);
			unhex(exp, ctr[s]);
			memcpy(out, pt, 64);
			assert_int_equal(vg_aes_ctr(&k, cb, 128, out, 64, out),
			    VG_OK);
			assert_memory_equal(out, exp, 64);
			vg_aes_key_wipe(&k);
		}
}

/* RFC 4493 §4: AES-128 CMAC of 0, 16, 40 and 64 bytes, each truncation,
 * and the verification of right and wrong MACs. */
static void
test_rfc4493(void **state)
{
	static const struct {
		size_t len;
		const char *mac;
	} ex[4] = {
		{ 0, "bb1d6929e95937287fa37d129b756746" },
		{ 16, "070a16b46b4d4144f79bdd9dd04a287c" },
		{ 40, "dfa66747de9ae63030ca32611497c827" },
		{ 64, "51f0bebf7e3b9d92fc49741779363cfe" },
	};
	uint8_t key[16], msg[64], exp[16], mac[16];
	struct vg_aes_cmac m;
	struct vg_aes_key k;
	size_t i, t, tl;

	(void)state;
	unhex(key, KEYS[0]);
	unhex(msg, PT);
	for (t = 0; t < 2; t++) {
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, 16), VG_OK);
		for (i = 0; i < 4; i++) {
			unhex(exp, ex[i].mac);
			for (tl = 1; tl <= 16; tl++) {
				memset(mac, 0xee, sizeof(mac));
				assert_int_equal(vg_aes_cmac(&k, msg, ex[i].len,
				    mac, tl), VG_OK);
				assert_memory_equal(mac, exp, tl);
				if (tl < 16)
					assert_int_equal(mac[tl], 0xee);
				assert_int_equal(vg_aes_cmac_init(&m, &k),
				    VG_OK);
				assert_int_equal(vg_aes_cmac_update(&m, msg,
				    ex[i].len), VG_OK);
				assert_int_equal(vg_aes_cmac_verify(&m, exp, tl),
				    VG_OK);
				mac[tl - 1] ^= 0x80;
				assert_int_equal(vg_aes_cmac_init(&m, &k),
				    VG_OK);
				assert_int_equal(vg_aes_cmac_update(&m, msg,
				    ex[i].len), VG_OK);
				assert_int_equal(vg_aes_cmac_verify(&m, mac, tl),
				    VG_ERR_AUTH);
			}
		}
		vg_aes_key_wipe(&k);
	}
}

/* --------------------------------------------------------- errors */

static void
test_errors(void **state)
{
	uint8_t key[16] = { 0 }, buf[64] = { 0 }, iv[16] = { 0 };
	struct vg_aes_key k;
	struct vg_aes_cbc c;
	struct vg_aes_ctr r;
	struct vg_aes_cmac m;
	struct vg_aes_gcm g;
	size_t n;

	(void)state;
	assert_int_equal(vg_aes_init(&k, key, 16), VG_OK);
	assert_int_equal(vg_aes_ecb_encrypt(&k, buf, 17, buf), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_ecb_decrypt(NULL, buf, 16, buf), VG_ERR_ARG);
	assert_int_equal(vg_aes_cbc_encrypt(&k, NULL, buf, 16, buf),
	    VG_ERR_ARG);
	assert_int_equal(vg_aes_cbc_decrypt(&k, iv, buf, 15, buf),
	    VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cbc_encrypt(&k, iv, NULL, 0, NULL), VG_OK);
	assert_int_equal(vg_aes_cbc_init(&c, &k, iv, 4), VG_ERR_ARG);
	assert_int_equal(vg_aes_ecb_init(&c, NULL, 0), VG_ERR_ARG);
	assert_int_equal(vg_aes_ctr(&k, iv, 0, buf, 16, buf), VG_ERR_ARG);
	assert_int_equal(vg_aes_ctr(&k, iv, 129, buf, 16, buf), VG_ERR_ARG);
	assert_int_equal(vg_aes_ctr_init(&r, &k, NULL, 32), VG_ERR_ARG);
	assert_int_equal(vg_aes_cmac(&k, buf, 16, buf, 0), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cmac(&k, buf, 16, buf, 17), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cmac_init(&m, &k), VG_OK);
	assert_int_equal(vg_aes_cmac_update(&m, NULL, 1), VG_ERR_ARG);
	assert_int_equal(vg_aes_cmac_verify(&m, buf, 17), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cmac_final(&m, buf, 0), VG_ERR_LENGTH);
	vg_aes_cmac_wipe(&m);
	assert_int_equal(vg_aes_gcm_encrypt_init(&g, &k, iv, 0, NULL, 0),
	    VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_encrypt_init(&g, &k, NULL, 12, NULL, 0),
	    VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_encrypt_init(&g, &k, iv, 12, NULL, 0),
	    VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt_final(&g, buf, 3), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_encrypt_final(&g, buf, 17),
	    VG_ERR_LENGTH);
	/* the total length limit, across updates */
	g.len = VG_AES_GCM_MAX_LEN - 5;
	assert_int_equal(vg_aes_gcm_encrypt_update(&g, buf, 6, buf),
	    VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_encrypt_update(&g, buf, 5, buf), VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt_update(&g, buf, 1, buf),
	    VG_ERR_LENGTH);
	vg_aes_gcm_wipe(&g);
	/* padding */
	assert_int_equal(vg_aes_pkcs7_pad(buf, 16, 31, &n), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_pkcs7_pad(buf, 16, 32, &n), VG_OK);
	assert_int_equal(n, 32);
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 0, &n), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 17, &n), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_pkcs7_unpad(NULL, 16, &n), VG_ERR_ARG);
	/* finals that cannot end: partial block without padding,
	 * decryption with padding of a non-multiple */
	assert_int_equal(vg_aes_cbc_init(&c, &k, iv, 0), VG_OK);
	assert_int_equal(vg_aes_cbc_update(&c, buf, 5, buf, &n), VG_OK);
	assert_int_equal(n, 0);
	assert_int_equal(vg_aes_cbc_final(&c, buf, &n), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cbc_init(&c, &k, iv,
	    VG_AES_DECRYPT | VG_AES_PAD), VG_OK);
	assert_int_equal(vg_aes_cbc_final_len(&c), 15);
	assert_int_equal(vg_aes_cbc_final(&c, buf, &n), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_cbc_init(&c, &k, iv,
	    VG_AES_DECRYPT | VG_AES_PAD), VG_OK);
	assert_int_equal(vg_aes_cbc_update(&c, buf, 20, buf, &n), VG_OK);
	assert_int_equal(n, 16); /* not the last block: 4 bytes follow */
	assert_int_equal(vg_aes_cbc_final(&c, buf, &n), VG_ERR_LENGTH);
	vg_aes_key_wipe(&k);
}

/* ------------------------------------------------------------ PKCS#7 */

static void
test_pkcs7(void **state)
{
	uint8_t buf[48];
	size_t len, n, i, m;

	(void)state;
	for (len = 0; len <= 32; len++) {
		rnd_bytes(buf, sizeof(buf));
		assert_int_equal(vg_aes_pkcs7_pad(buf, len, sizeof(buf), &n),
		    VG_OK);
		assert_int_equal(n, (len / 16 + 1) * 16);
		for (i = len; i < n; i++)
			assert_int_equal(buf[i], n - len);
		assert_int_equal(vg_aes_pkcs7_unpad(buf, n, &m), VG_OK);
		assert_int_equal(m, len);
		/* any byte of the padding changed: one error */
		for (i = len; i < n; i++) {
			uint8_t save = buf[i];

			buf[i] ^= (uint8_t)(1 + rnd_below(255));
			m = 99;
			assert_int_equal(vg_aes_pkcs7_unpad(buf, n, &m),
			    VG_ERR_DECODE);
			assert_int_equal(m, 0);
			buf[i] = save;
		}
	}
	/* last byte 0, 17 and 255; 16 is valid only with 16 sixteens */
	memset(buf, 0x10, 32);
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 32, &m), VG_OK);
	assert_int_equal(m, 16);
	buf[31] = 0;
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 32, &m), VG_ERR_DECODE);
	memset(buf, 17, 32);
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 32, &m), VG_ERR_DECODE);
	memset(buf, 0xff, 32);
	assert_int_equal(vg_aes_pkcs7_unpad(buf, 32, &m), VG_ERR_DECODE);
}

/* ---------------------------------------------- ECB and CBC vs OpenSSL */

/* One-shot and streaming (random splits, in place or not) against
 * OpenSSL, every key size, both kernel sets, with and without padding. */
static void
test_ecb_cbc(void **state)
{
	static uint8_t in[1200], a[1232], b[1232], d[1232];
	uint8_t key[32], iv[16];
	size_t it, cases = 0;

	(void)state;
	for (it = 0; it < 600; it++) {
		size_t kl = 16 + 8 * rnd_below(3), t = it % 2;
		int cbc = (int)rnd_below(2), pad = (int)rnd_below(2);
		size_t len = rnd_below(pad ? 1100 : 70) * (pad ? 1 : 16);
		size_t cut[6], np, i, n, tot, ol;
		int inplace = (int)rnd_below(2);
		struct vg_aes_key k;
		struct vg_aes_cbc c;
		const char *mode = cbc ? "CBC" : "ECB";

		if (it < 40)
			len = it * (pad ? 1 : 16);
		rnd_bytes(key, kl);
		rnd_bytes(iv, 16);
		rnd_bytes(in, len);
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl), VG_OK);
		ol = ossl_crypt(kl, mode, pad, 1, key, cbc ? iv : NULL, in,
		    len, b);
		assert_int_equal(ol, pad ? (len / 16 + 1) * 16 : len);
		if (!pad) {
			/* one-shot, in place */
			memcpy(a, in, len);
			assert_int_equal(cbc ?
			    vg_aes_cbc_encrypt(&k, iv, a, len, a) :
			    vg_aes_ecb_encrypt(&k, a, len, a), VG_OK);
			assert_memory_equal(a, b, len);
			assert_int_equal(cbc ?
			    vg_aes_cbc_decrypt(&k, iv, a, len, a) :
			    vg_aes_ecb_decrypt(&k, a, len, a), VG_OK);
			assert_memory_equal(a, in, len);
		}
		/* streaming encryption: input copied to a so that in place
		 * means out == the piece's own input */
		assert_int_equal(cbc ? vg_aes_cbc_init(&c, &k, iv,
		    pad ? VG_AES_PAD : 0) : vg_aes_ecb_init(&c, &k,
		    pad ? VG_AES_PAD : 0), VG_OK);
		np = split(len, cut);
		tot = 0;
		for (i = 0; i < np; i++) {
			size_t pl = cut[i + 1] - cut[i];
			size_t want = vg_aes_cbc_update_len(&c, pl);
			uint8_t *src = (uint8_t *)in + cut[i];

			if (inplace) {
				memcpy(d + tot, in + cut[i], pl);
				src = d + tot;
			}
			assert_int_equal(vg_aes_cbc_update(&c, src, pl,
			    d + tot, &n), VG_OK);
			assert_int_equal(n, want);
			tot += n;
		}
		assert_true(vg_aes_cbc_final_len(&c) == (pad ? 16u : 0u));
		assert_int_equal(vg_aes_cbc_final(&c, d + tot, &n), VG_OK);
		tot += n;
		assert_int_equal(tot, ol);
		assert_memory_equal(d, b, ol);
		/* streaming decryption of OpenSSL's ciphertext */
		assert_int_equal(cbc ? vg_aes_cbc_init(&c, &k, iv,
		    VG_AES_DECRYPT | (pad ? VG_AES_PAD : 0)) :
		    vg_aes_ecb_init(&c, &k,
		    VG_AES_DECRYPT | (pad ? VG_AES_PAD : 0)), VG_OK);
		np = split(ol, cut);
		tot = 0;
		memcpy(a, b, ol);
		for (i = 0; i < np; i++) {
			size_t pl = cut[i + 1] - cut[i];
			size_t want = vg_aes_cbc_update_len(&c, pl);
			uint8_t *src = a + cut[i];

			if (inplace) {
				memmove(d + tot, a + cut[i], pl);
				src = d + tot;
			}
			assert_int_equal(vg_aes_cbc_update(&c, src, pl,
			    d + tot, &n), VG_OK);
			assert_int_equal(n, want);
			tot += n;
		}
		assert_int_equal(vg_aes_cbc_final(&c, d + tot, &n), VG_OK);
		tot += n;
		assert_int_equal(tot, len);
		assert_memory_equal(d, in, len);
		vg_aes_key_wipe(&k);
		cases++;
	}
	print_message("ecb/cbc: %zu cases agree with OpenSSL\n", cases);
}

/* A bad padding through the streaming decryption: VG_ERR_DECODE, nothing
 * written by final, the context wiped. */
static void
test_cbc_bad_padding(void **state)
{
	uint8_t key[16], iv[16], pt[48], ct[48], out[48];
	struct vg_aes_key k;
	struct vg_aes_cbc c;
	size_t n, last, t;
	enum vg_err e;

	(void)state;
	rnd_bytes(key, 16);
	rnd_bytes(iv, 16);
	for (t = 0; t < 2; t++)
		for (last = 0; last < 256; last++) {
			rnd_bytes(pt, 48);
			pt[47] = (uint8_t)last;
			assert_int_equal(vg_aes_init_k(&k, ksets[t], key, 16),
			    VG_OK);
			assert_int_equal(vg_aes_cbc_encrypt(&k, iv, pt, 48, ct),
			    VG_OK);
			assert_int_equal(vg_aes_cbc_init(&c, &k, iv,
			    VG_AES_DECRYPT | VG_AES_PAD), VG_OK);
			assert_int_equal(vg_aes_cbc_update(&c, ct, 48, out, &n),
			    VG_OK);
			assert_int_equal(n, 32);
			memset(out + 32, 0xee, 16);
			e = vg_aes_cbc_final(&c, out + 32, &n);
			/* the 47 bytes before are random: 2..16 are
			 * valid only by a chance below 2^-8 */
			if (last == 1 || (e == VG_OK && last >= 2 &&
			    last <= 16)) {
				assert_int_equal(e, VG_OK);
				assert_int_equal(n, 16 - last);
				assert_memory_equal(out, pt, 48 - last);
			} else {
				assert_int_equal(e, VG_ERR_DECODE);
				assert_int_equal(n, 0);
				assert_int_equal(out[32], 0xee);
				assert_int_equal(c.buflen, 0);
			}
			vg_aes_key_wipe(&k);
		}
}

/* ---------------------------------------------------------------- CTR */

/* The counter value of the bits-wide counter in cb, as (hi, lo). */
static void
set_counter(uint8_t cb[16], unsigned bits, uint64_t hi, uint64_t lo)
{
	unsigned i;

	for (i = 0; i < 128 && i < bits; i++) {
		unsigned bit = i < 64 ? (unsigned)((lo >> i) & 1) :
		    (unsigned)((hi >> (i - 64)) & 1);
		uint8_t m = (uint8_t)(1u << (i % 8));

		cb[15 - i / 8] = (uint8_t)((cb[15 - i / 8] & ~m) |
		    (bit ? m : 0));
	}
}

/*
 * For widths 1..128 and a counter m values from its end: exactly m blocks
 * are accepted, and equal OpenSSL's CTR (a 128-bit counter, which gives
 * the same blocks when the low bits do not wrap); a byte more is refused
 * with nothing written. The same across random multi-part splits. Then
 * the counter blocks themselves (the key stream decrypted with ECB): the
 * bits above the counter never change, and the counter counts.
 */
static void
test_ctr_widths(void **state)
{
	static uint8_t in[40 * 16 + 1], a[40 * 16 + 1], b[40 * 16 + 1];
	uint8_t key[32], cb[16], blk[16];
	unsigned bits;
	size_t cases = 0;

	(void)state;
	for (bits = 1; bits <= 128; bits++) {
		size_t rep;

		for (rep = 0; rep < 6; rep++) {
			size_t kl = 16 + 8 * rnd_below(3), t = rep % 2;
			uint64_t maxm = bits < 6 ? ((uint64_t)1 << bits) : 40;
			size_t m = 1 + (size_t)(rnd() % maxm), len, i, np;
			size_t cut[6], n;
			struct vg_aes_key k;
			struct vg_aes_ctr c;
			uint64_t hi = ~(uint64_t)0, lo = ~(uint64_t)0;

			rnd_bytes(key, kl);
			rnd_bytes(cb, 16);
			/* counter = 2^bits - m */
			lo -= (uint64_t)m - 1;
			set_counter(cb, bits, hi, lo);
			len = 16 * (m - 1) + 1 + rnd_below(16);
			rnd_bytes(in, sizeof(in));
			assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl),
			    VG_OK);
			assert_int_equal(ossl_crypt(kl, "CTR", 0, 1, key, cb,
			    in, len, b), len);
			assert_int_equal(vg_aes_ctr(&k, cb, bits, in, len, a),
			    VG_OK);
			assert_memory_equal(a, b, len);
			/* one block more than the counter allows */
			memset(a, 0xee, sizeof(a));
			assert_int_equal(vg_aes_ctr(&k, cb, bits, in,
			    16 * m + 1, a), VG_ERR_LENGTH);
			assert_int_equal(a[0], 0xee);
			assert_int_equal(vg_aes_ctr(&k, cb, bits, in, 16 * m,
			    a), VG_OK);
			/* multi-part up to len, then the rest of the
			 * partial block, then one byte too many */
			assert_int_equal(vg_aes_ctr_init(&c, &k, cb, bits),
			    VG_OK);
			np = split(len, cut);
			for (i = 0; i < np; i++)
				assert_int_equal(vg_aes_ctr_update(&c,
				    in + cut[i], cut[i + 1] - cut[i],
				    a + cut[i]), VG_OK);
			assert_memory_equal(a, b, len);
			n = 16 * m - len;
			assert_int_equal(vg_aes_ctr_update(&c, in + len, n + 1,
			    a + len), VG_ERR_LENGTH);
			assert_int_equal(vg_aes_ctr_update(&c, in + len, n,
			    a + len), VG_OK);
			assert_int_equal(vg_aes_ctr_update(&c, in, 1, a),
			    VG_ERR_LENGTH);
			assert_int_equal(vg_aes_ctr_update(&c, in, 0, a),
			    VG_OK);
			vg_aes_ctr_wipe(&c);
			/* the counter blocks: zeros in, ECB-decrypted out */
			memset(in, 0, 16 * m);
			assert_int_equal(vg_aes_ctr(&k, cb, bits, in, 16 * m,
			    a), VG_OK);
			assert_int_equal(vg_aes_ecb_decrypt(&k, a, 16 * m, a),
			    VG_OK);
			memcpy(blk, cb, 16);
			for (i = 0; i < m; i++) {
				assert_memory_equal(a + 16 * i, blk, 16);
				lo++;
				set_counter(blk, bits, hi, lo);
			}
			vg_aes_key_wipe(&k);
			cases++;
		}
	}
	print_message("ctr: %zu width cases\n", cases);
}

/* Carries inside the counter: across a byte (12 bits from 0x0ff), across
 * the two halves (65 bits from 2^64 - 2), and a 128-bit counter at its
 * last values; a counter far from its end takes any length. */
static void
test_ctr_carries(void **state)
{
	static const struct {
		unsigned bits;
		uint64_t hi, lo;
		size_t blocks; /* left */
	} rows[] = {
		{ 12, 0, 0x0f0, 0xf10 },
		{ 16, 0, 0xfffe, 2 },
		{ 64, 0, 0xfffffffffffffffdULL, 3 },
		{ 65, 0, 0xfffffffffffffffeULL, (size_t)1 << 40 },
		{ 65, 1, 0xfffffffffffffffeULL, 2 },
		{ 128, ~(uint64_t)0, ~(uint64_t)0, 1 },
		{ 128, ~(uint64_t)0, ~(uint64_t)0 - 6, 7 },
	};
	static uint8_t in[64 * 16], a[64 * 16], b[64 * 16];
	uint8_t key[16], cb[16];
	struct vg_aes_key k;
	size_t r, t, len;

	(void)state;
	rnd_bytes(key, 16);
	rnd_bytes(in, sizeof(in));
	for (t = 0; t < 2; t++) {
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, 16), VG_OK);
		for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
			memset(cb, 0x5a, 16);
			set_counter(cb, rows[r].bits, rows[r].hi, rows[r].lo);
			len = rows[r].blocks < 64 ? 16 * rows[r].blocks :
			    sizeof(in);
			assert_int_equal(ossl_crypt(16, "CTR", 0, 1, key, cb,
			    in, len, b), len);
			assert_int_equal(vg_aes_ctr(&k, cb, rows[r].bits, in,
			    len, a), VG_OK);
			assert_memory_equal(a, b, len);
			if (rows[r].blocks < 64)
				assert_int_equal(vg_aes_ctr(&k, cb,
				    rows[r].bits, in, len + 1, a),
				    VG_ERR_LENGTH);
		}
		/* 128 bits from 0, and 64 bits from 0: nothing to refuse */
		memset(cb, 0, 16);
		assert_int_equal(vg_aes_ctr(&k, cb, 128, in, sizeof(in), a),
		    VG_OK);
		assert_int_equal(vg_aes_ctr(&k, cb, 64, in, sizeof(in), a),
		    VG_OK);
		vg_aes_key_wipe(&k);
	}
}

/* --------------------------------------------------------------- CMAC */

static void
ossl_cmac(size_t kl, const uint8_t *key, const uint8_t *in, size_t len,
    uint8_t mac[16])
{
	EVP_MAC *mac_alg = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *c;
	OSSL_PARAM p[2];
	char name[16];
	size_t ol = 0;

	assert_non_null(mac_alg);
	c = EVP_MAC_CTX_new(mac_alg);
	assert_non_null(c);
	snprintf(name, sizeof(name), "AES-%zu-CBC", 8 * kl);
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, name,
	    0);
	p[1] = OSSL_PARAM_construct_end();
	assert_int_equal(EVP_MAC_init(c, key, kl, p), 1);
	assert_int_equal(EVP_MAC_update(c, in, len), 1);
	assert_int_equal(EVP_MAC_final(c, mac, &ol, 16), 1);
	assert_int_equal(ol, 16);
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac_alg);
}

/* One-shot and streaming (random splits) against OpenSSL; verification
 * of the right MAC and of one with a bit flipped, truncated or not. */
static void
test_cmac(void **state)
{
	static uint8_t in[700];
	uint8_t key[32], a[16], b[16];
	size_t it;

	(void)state;
	for (it = 0; it < 500; it++) {
		size_t kl = 16 + 8 * rnd_below(3), t = it % 2;
		size_t len = it < 70 ? it : rnd_below(sizeof(in) + 1);
		size_t tl = 1 + rnd_below(16), cut[6], np, i;
		struct vg_aes_key k;
		struct vg_aes_cmac m, m2;

		rnd_bytes(key, kl);
		rnd_bytes(in, len);
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl), VG_OK);
		ossl_cmac(kl, key, in, len, b);
		assert_int_equal(vg_aes_cmac(&k, in, len, a, 16), VG_OK);
		assert_memory_equal(a, b, 16);
		assert_int_equal(vg_aes_cmac_init(&m, &k), VG_OK);
		np = split(len, cut);
		for (i = 0; i < np; i++)
			assert_int_equal(vg_aes_cmac_update(&m, in + cut[i],
			    cut[i + 1] - cut[i]), VG_OK);
		m2 = m; /* a struct copy clones the MAC */
		assert_int_equal(vg_aes_cmac_final(&m, a, tl), VG_OK);
		assert_memory_equal(a, b, tl);
		assert_int_equal(vg_aes_cmac_verify(&m2, b, tl), VG_OK);
		b[rnd_below(tl)] ^= (uint8_t)(1u << rnd_below(8));
		assert_int_equal(vg_aes_cmac_init(&m, &k), VG_OK);
		assert_int_equal(vg_aes_cmac_update(&m, in, len), VG_OK);
		assert_int_equal(vg_aes_cmac_verify(&m, b, tl), VG_ERR_AUTH);
		vg_aes_key_wipe(&k);
	}
}

/* ------------------------------------------------------ GCM streaming */

/* Streaming encryption on random splits (in place or not) equals the
 * one-shot (itself checked against OpenSSL in test_aes), for every tag
 * length, and the one-shot decryption takes it. */
static void
test_gcm_stream(void **state)
{
	static uint8_t in[2100], a[2100], d[2100];
	uint8_t key[32], iv[40], aad[80], ta[16], tb[16];
	size_t it;

	(void)state;
	for (it = 0; it < 400; it++) {
		size_t kl = 16 + 8 * rnd_below(3), t = it % 2;
		size_t len = it < 50 ? it : rnd_below(sizeof(in) + 1);
		size_t ivlen = rnd_below(2) ? 12 : 1 + rnd_below(sizeof(iv));
		size_t aadlen = rnd_below(sizeof(aad) + 1);
		size_t tl = VG_AES_GCM_MIN_TAG + rnd_below(13), cut[6], np, i;
		int inplace = (int)rnd_below(2);
		struct vg_aes_key k;
		struct vg_aes_gcm g;

		rnd_bytes(key, kl);
		rnd_bytes(iv, ivlen);
		rnd_bytes(aad, aadlen);
		rnd_bytes(in, len);
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl), VG_OK);
		assert_int_equal(vg_aes_gcm_encrypt(&k, iv, ivlen, aad, aadlen,
		    in, len, a, ta, tl), VG_OK);
		assert_int_equal(vg_aes_gcm_encrypt_init(&g, &k, iv, ivlen,
		    aad, aadlen), VG_OK);
		vg_aes_key_wipe(&k); /* the context has its own copy */
		np = split(len, cut);
		if (inplace)
			memcpy(d, in, len);
		for (i = 0; i < np; i++)
			assert_int_equal(vg_aes_gcm_encrypt_update(&g,
			    (inplace ? d : in) + cut[i], cut[i + 1] - cut[i],
			    d + cut[i]), VG_OK);
		assert_int_equal(vg_aes_gcm_encrypt_final(&g, tb, tl), VG_OK);
		assert_memory_equal(d, a, len);
		assert_memory_equal(tb, ta, tl);
		assert_int_equal(vg_aes_init_k(&k, ksets[t], key, kl), VG_OK);
		assert_int_equal(vg_aes_gcm_decrypt(&k, iv, ivlen, aad, aadlen,
		    d, len, d, tb, tl), VG_OK);
		assert_memory_equal(d, in, len);
		vg_aes_key_wipe(&k);
	}
}

/* A key set up with another kernel table runs every mode with it: the
 * portable key and the process-wide one agree. */
static void
test_key_kernels(void **state)
{
	uint8_t key[32], in[300], a[320], b[320], iv[16], ta[16], tb[16];
	struct vg_aes_key kg, kp;

	(void)state;
	rnd_bytes(key, 32);
	rnd_bytes(in, sizeof(in));
	rnd_bytes(iv, 16);
	assert_int_equal(vg_aes_init(&kg, key, 32), VG_OK);
	assert_int_equal(vg_aes_init_k(&kp, &portable, key, 32), VG_OK);
	assert_true(kg.kt == vg_kernels());
	assert_true(kp.kt == &portable);
	assert_int_equal(vg_aes_cbc_encrypt(&kg, iv, in, 288, a), VG_OK);
	assert_int_equal(vg_aes_cbc_encrypt(&kp, iv, in, 288, b), VG_OK);
	assert_memory_equal(a, b, 288);
	assert_int_equal(vg_aes_ctr(&kg, iv, 32, in, 300, a), VG_OK);
	assert_int_equal(vg_aes_ctr(&kp, iv, 32, in, 300, b), VG_OK);
	assert_memory_equal(a, b, 300);
	assert_int_equal(vg_aes_gcm_encrypt(&kg, iv, 12, NULL, 0, in, 300, a,
	    ta, 16), VG_OK);
	assert_int_equal(vg_aes_gcm_encrypt(&kp, iv, 12, NULL, 0, in, 300, b,
	    tb, 16), VG_OK);
	assert_memory_equal(a, b, 300);
	assert_memory_equal(ta, tb, 16);
	assert_int_equal(vg_aes_kw_wrap(&kg, in, 32, a), VG_OK);
	assert_int_equal(vg_aes_kw_wrap(&kp, in, 32, b), VG_OK);
	assert_memory_equal(a, b, 40);
	vg_aes_key_wipe(&kg);
	vg_aes_key_wipe(&kp);
	assert_null(kp.kt);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sp800_38a),
		cmocka_unit_test(test_rfc4493),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pkcs7),
		cmocka_unit_test(test_ecb_cbc),
		cmocka_unit_test(test_cbc_bad_padding),
		cmocka_unit_test(test_ctr_widths),
		cmocka_unit_test(test_ctr_carries),
		cmocka_unit_test(test_cmac),
		cmocka_unit_test(test_gcm_stream),
		cmocka_unit_test(test_key_kernels),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
