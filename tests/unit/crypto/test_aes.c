/*
 * AES, GCM, KW and KWP through the public API (crypto/aes.h): published
 * known answers, error paths, then cross-checks against OpenSSL's libcrypto
 * on random inputs. The kernels are whatever vg_kernels() picked; the suite
 * also runs with VG_CPU_FEATURES=none for the portable ones. VG_TEST_SEED
 * (a decimal number) changes the random inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "crypto/aes.h"
#include "crypto/cpu.h"

/* ------------------------------------------------------------ helpers */

static size_t
unhex(uint8_t *out, size_t max, const char *hex)
{
	size_t n = strlen(hex) / 2, i;

	assert_int_equal(strlen(hex) % 2, 0);
	assert_true(n <= max);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static int
all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

static uint64_t rng_state;

static uint64_t
rng64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void
rng_bytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng64();
}

static size_t
rng_below(size_t n)
{
	return (size_t)(rng64() % n);
}

static int
setup_rng(void **state)
{
	const char *s = getenv("VG_TEST_SEED");

	(void)state;
	rng_state = s != NULL ? strtoull(s, NULL, 10) : 20240611u;
	return 0;
}

static const size_t key_sizes[3] = { 16, 24, 32 };

/* ---------------------------------------------------- block cipher KATs */

/* FIPS 197 Appendix C: key 000102..., plaintext 00112233...ff. */
static void
test_fips197(void **state)
{
	static const char *const ct[3] = {
		"69c4e0d86a7b0430d8cdb78070b4c55a",
		"dda97ca4864cdfe06eaf70a0ec0d7191",
		"8ea2b7ca516745bfeafc49904b496089",
	};
	const struct vg_kernels *kt = vg_kernels();
	struct vg_aes_key k;
	uint8_t key[32], pt[16], exp[16], out[16];
	unsigned i, s;

	(void)state;
	print_message("aes kernel: %s, ghash kernel: %s\n", kt->aes_impl,
	    kt->ghash_impl);
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < 16; i++)
		pt[i] = (uint8_t)(i * 0x11);
	for (s = 0; s < 3; s++) {
		assert_int_equal(vg_aes_init(&k, key, key_sizes[s]), VG_OK);
		assert_int_equal(k.rounds, 10 + 2 * s);
		unhex(exp, 16, ct[s]);
		kt->aes_encrypt(&k, out, pt, 1);
		assert_memory_equal(out, exp, 16);
		kt->aes_decrypt(&k, out, exp, 1);
		assert_memory_equal(out, pt, 16);
		/* In place. */
		memcpy(out, pt, 16);
		kt->aes_encrypt(&k, out, out, 1);
		assert_memory_equal(out, exp, 16);
		vg_aes_key_wipe(&k);
	}
}

/* SP 800-38A F.1: ECB-AES128/192/256, four blocks in one call. */
static void
test_sp800_38a_ecb(void **state)
{
	static const char *const keys[3] = {
		"2b7e151628aed2a6abf7158809cf4f3c",
		"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		("603deb1015ca71be2b73aef0857d7781"
		 "1f352c073b6108d72d9810a30914dff4"),
	};
	static const char *const pt =
	    "6bc1bee22e409f96e93d7e117393172a"
	    "ae2d8a571e03ac9c9eb76fac45af8e51"
	    "30c81c46a35ce411e5fbc1191a0a52ef"
	    "f69f2445df4f9b17ad2b417be66c3710";
	static const char *const ct[3] = {
		"3ad77bb40d7a3660a89ecaf32466ef97"
		"f5d3d58503b9699de785895a96fdbaaf"
		"43b1cd7f598ece23881b00e3ed030688"
		"7b0c785e27e8ad3f8223207104725dd4",
		"bd334f1d6e45f25ff712a214571fa5cc"
		"974104846d0ad3ad7734ecb3ecee4eef"
		"ef7afd2270e2e60adce0ba2face6444e"
		"9a4b41ba738d6c72fb16691603c18e0e",
		"f3eed1bdb5d2a03c064b5a7e3db181f8"
		"591ccb10d410ed26dc5ba74a31362870"
		"b6ed21b99ca6f4f9f153e7b1beafed1d"
		"23304b7a39f9f3ff067d8d8f9e24ecc7",
	};
	const struct vg_kernels *kt = vg_kernels();
	struct vg_aes_key k;
	uint8_t key[32], p[64], c[64], out[64];
	unsigned s, nb;

	(void)state;
	unhex(p, sizeof(p), pt);
	for (s = 0; s < 3; s++) {
		size_t kl = unhex(key, sizeof(key), keys[s]);

		assert_int_equal(vg_aes_init(&k, key, kl), VG_OK);
		unhex(c, sizeof(c), ct[s]);
		for (nb = 1; nb <= 4; nb++) {
			memset(out, 0xa5, sizeof(out));
			kt->aes_encrypt(&k, out, p, nb);
			assert_memory_equal(out, c, 16 * nb);
			if (nb < 4)
				assert_int_equal(out[16 * nb], 0xa5);
			kt->aes_decrypt(&k, out, c, nb);
			assert_memory_equal(out, p, 16 * nb);
		}
		vg_aes_key_wipe(&k);
	}
}

static void
test_init_errors(void **state)
{
	struct vg_aes_key k;
	uint8_t key[33] = { 0 };
	size_t len;

	(void)state;
	for (len = 0; len <= 33; len++) {
		enum vg_err want = (len == 16 || len == 24 || len == 32) ?
		    VG_OK : VG_ERR_LENGTH;

		assert_int_equal(vg_aes_init(&k, key, len), want);
	}
	assert_int_equal(vg_aes_init(NULL, key, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_init(&k, NULL, 16), VG_ERR_ARG);
	/* Wipe clears the whole struct. */
	memset(key, 0x5c, sizeof(key));
	assert_int_equal(vg_aes_init(&k, key, 32), VG_OK);
	vg_aes_key_wipe(&k);
	assert_true(all_zero((const uint8_t *)&k, sizeof(k)));
	vg_aes_key_wipe(NULL);
}

/* -------------------------------------------------------------- GCM KATs */

struct gcm_kat {
	const char *key, *iv, *aad, *pt, *ct, *tag;
};

#define GCM_P60 "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d" \
	"8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_P64 GCM_P60 "1aafd255"
#define GCM_A20 "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define GCM_IV60 "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2" \
	"a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
#define GCM_K "feffe9928665731c6d6a8f9467308308"
#define Z16 "00000000000000000000000000000000"
#define Z12 "000000000000000000000000"

/* McGrew and Viega, "The Galois/Counter Mode of Operation", test cases 1-18
 * (AES-128: 1-6, AES-192: 7-12, AES-256: 13-18), and one AAD-only vector
 * from NIST CAVP gcmEncryptExtIV128 (Count 0, PTlen 0, AADlen 128). */
static const struct gcm_kat gcm_kats[] = {
	{ Z16, Z12, "", "", "", "58e2fccefa7e3061367f1d57a4e7455a" },
	{ Z16, Z12, "", Z16, "0388dace60b6a392f328c2b971b2fe78",
	    "ab6e47d42cec13bdf53a67b21257bddf" },
	{ GCM_K, "cafebabefacedbaddecaf888", "", GCM_P64,
	    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	    "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
	    "4d5c2af327cd64a62cf35abd2ba6fab4" },
	{ GCM_K, "cafebabefacedbaddecaf888", GCM_A20, GCM_P60,
	    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	    "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
	    "5bc94fbc3221a5db94fae95ae7121a47" },
	{ GCM_K, "cafebabefacedbad", GCM_A20, GCM_P60,
	    "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
	    "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
	    "3612d2e79e3b0785561be14aaca2fccb" },
	{ GCM_K, GCM_IV60, GCM_A20, GCM_P60,
	    "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
	    "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
	    "619cc5aefffe0bfa462af43c1699d050" },
	{ Z16 "0000000000000000", Z12, "", "", "",
	    "cd33b28ac773f74ba00ed1f312572435" },
	{ Z16 "0000000000000000", Z12, "", Z16,
	    "98e7247c07f0fe411c267e4384b0f600",
	    "2ff58d80033927ab8ef4d4587514f0fb" },
	{ GCM_K "feffe9928665731c", "cafebabefacedbaddecaf888", "", GCM_P64,
	    "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
	    "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
	    "9924a7c8587336bfb118024db8674a14" },
	{ GCM_K "feffe9928665731c", "cafebabefacedbaddecaf888", GCM_A20,
	    GCM_P60,
	    "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
	    "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
	    "2519498e80f1478f37ba55bd6d27618c" },
	{ GCM_K "feffe9928665731c", "cafebabefacedbad", GCM_A20, GCM_P60,
	    "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
	    "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
	    "65dcc57fcf623a24094fcca40d3533f8" },
	{ GCM_K "feffe9928665731c", GCM_IV60, GCM_A20, GCM_P60,
	    "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
	    "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
	    "dcf566ff291c25bbb8568fc3d376a6d9" },
	{ Z16 Z16, Z12, "", "", "", "530f8afbc74536b9a963b4f1c4cb738b" },
	{ Z16 Z16, Z12, "", Z16, "cea7403d4d606b6e074ec5d3baf39d18",
	    "d0d1c8a799996bf0265b98b5d48ab919" },
	{ GCM_K GCM_K, "cafebabefacedbaddecaf888", "", GCM_P64,
	    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	    "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
	    "b094dac5d93471bdec1a502270e3cc6c" },
	{ GCM_K GCM_K, "cafebabefacedbaddecaf888", GCM_A20, GCM_P60,
	    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	    "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	    "76fc6ece0f4e1768cddf8853bb2d551b" },
	{ GCM_K GCM_K, "cafebabefacedbad", GCM_A20, GCM_P60,
	    "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
	    "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
	    "3a337dbf46a792c45e454913fe2ea8f2" },
	{ GCM_K GCM_K, GCM_IV60, GCM_A20, GCM_P60,
	    "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
	    "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
	    "a44a8266ee1c8eb0c8b5d4cf5ae9f19a" },
	{ "77be63708971c4e240d1cb79e8d77feb", "e0e00f19fed7ba0136a797f3",
	    "7a43ec1d9c0a5a78a0b16533a6213cab", "", "",
	    "209fcc8d3675ed938e9c7166709dd946" },
};

struct gcm_buf {
	uint8_t key[32], iv[64], aad[64], pt[64], ct[64], tag[16];
	size_t klen, ivlen, aadlen, len;
};

static void
gcm_load(struct gcm_buf *b, const struct gcm_kat *v)
{
	size_t n;

	b->klen = unhex(b->key, sizeof(b->key), v->key);
	b->ivlen = unhex(b->iv, sizeof(b->iv), v->iv);
	b->aadlen = unhex(b->aad, sizeof(b->aad), v->aad);
	b->len = unhex(b->pt, sizeof(b->pt), v->pt);
	n = unhex(b->ct, sizeof(b->ct), v->ct);
	assert_int_equal(n, b->len);
	assert_int_equal(unhex(b->tag, sizeof(b->tag), v->tag), 16);
}

static void
test_gcm_kats(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(gcm_kats) / sizeof(gcm_kats[0]); i++) {
		struct gcm_buf b;
		struct vg_aes_key k;
		uint8_t out[64], tag[16];

		gcm_load(&b, &gcm_kats[i]);
		assert_int_equal(vg_aes_init(&k, b.key, b.klen), VG_OK);
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.pt, b.len, out, tag, 16), VG_OK);
		if (b.len > 0)
			assert_memory_equal(out, b.ct, b.len);
		assert_memory_equal(tag, b.tag, 16);
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.ct, b.len, out, b.tag, 16), VG_OK);
		if (b.len > 0)
			assert_memory_equal(out, b.pt, b.len);
		/* In place, both ways. */
		memcpy(out, b.pt, b.len);
		assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, out, b.len, out, tag, 16), VG_OK);
		if (b.len > 0)
			assert_memory_equal(out, b.ct, b.len);
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, out, b.len, out, tag, 16), VG_OK);
		if (b.len > 0)
			assert_memory_equal(out, b.pt, b.len);
		/* NULL data with zero lengths. */
		if (b.len == 0 && b.aadlen == 0) {
			assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen,
			    NULL, 0, NULL, 0, NULL, tag, 16), VG_OK);
			assert_memory_equal(tag, b.tag, 16);
			assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen,
			    NULL, 0, NULL, 0, NULL, b.tag, 16), VG_OK);
		}
		vg_aes_key_wipe(&k);
	}
}

/* Any change to tag, ciphertext, AAD or IV fails with VG_ERR_AUTH and
 * leaves out zeroed, in place too. */
static void
test_gcm_auth_failure(void **state)
{
	const struct gcm_kat *v = &gcm_kats[5]; /* 60-byte IV, AAD, 60 bytes */
	struct gcm_buf b;
	struct vg_aes_key k;
	uint8_t out[64], buf[64];
	size_t i;

	(void)state;
	gcm_load(&b, v);
	assert_int_equal(vg_aes_init(&k, b.key, b.klen), VG_OK);
	for (i = 0; i < 16 + b.len + b.aadlen + b.ivlen; i++) {
		uint8_t *p;
		uint8_t bit = (uint8_t)(1u << (i % 8));

		if (i < 16)
			p = b.tag + i;
		else if (i < 16 + b.len)
			p = b.ct + (i - 16);
		else if (i < 16 + b.len + b.aadlen)
			p = b.aad + (i - 16 - b.len);
		else
			p = b.iv + (i - 16 - b.len - b.aadlen);
		*p ^= bit;
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.ct, b.len, out, b.tag, 16), VG_ERR_AUTH);
		assert_true(all_zero(out, b.len));
		assert_int_equal(out[b.len], 0xa5);
		memcpy(buf, b.ct, b.len);
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, buf, b.len, buf, b.tag, 16), VG_ERR_AUTH);
		assert_true(all_zero(buf, b.len));
		*p ^= bit;
	}
	/* Restored: succeeds again. */
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad, b.aadlen,
	    b.ct, b.len, out, b.tag, 16), VG_OK);
	assert_memory_equal(out, b.pt, b.len);
	/* A shorter IV prefix or a longer AAD is another message. */
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen - 1, b.aad,
	    b.aadlen, b.ct, b.len, out, b.tag, 16), VG_ERR_AUTH);
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
	    b.aadlen - 1, b.ct, b.len, out, b.tag, 16), VG_ERR_AUTH);
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
	    b.aadlen, b.ct, b.len - 1, out, b.tag, 16), VG_ERR_AUTH);
	vg_aes_key_wipe(&k);
}

/* Tags of 4..16 bytes are prefixes of the full tag; other lengths and
 * other bad arguments are refused before anything is written. */
static void
test_gcm_tags_and_errors(void **state)
{
	struct gcm_buf b;
	struct vg_aes_key k;
	uint8_t out[64], tag[17];
	size_t tl;

	(void)state;
	gcm_load(&b, &gcm_kats[3]);
	assert_int_equal(vg_aes_init(&k, b.key, b.klen), VG_OK);
	for (tl = VG_AES_GCM_MIN_TAG; tl <= VG_AES_GCM_MAX_TAG; tl++) {
		memset(tag, 0xa5, sizeof(tag));
		assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.pt, b.len, out, tag, tl), VG_OK);
		assert_memory_equal(tag, b.tag, tl);
		assert_int_equal(tag[tl], 0xa5);
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.ct, b.len, out, b.tag, tl), VG_OK);
		assert_memory_equal(out, b.pt, b.len);
		/* The last byte of a truncated tag is checked. */
		memcpy(tag, b.tag, tl);
		tag[tl - 1] ^= 0x80;
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.ct, b.len, out, tag, tl), VG_ERR_AUTH);
		assert_true(all_zero(out, b.len));
	}
	memset(out, 0xa5, sizeof(out));
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad, b.aadlen,
	    b.pt, b.len, out, tag, 3), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad, b.aadlen,
	    b.pt, b.len, out, tag, 17), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, 0, b.aad, b.aadlen,
	    b.pt, b.len, out, tag, 16), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad, b.aadlen,
	    b.ct, b.len, out, b.tag, 3), VG_ERR_LENGTH);
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, 0, b.aad, b.aadlen,
	    b.ct, b.len, out, b.tag, 16), VG_ERR_LENGTH);
	if (sizeof(size_t) > 4) {
		assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
		    b.aadlen, b.pt, (size_t)VG_AES_GCM_MAX_LEN + 1, out, tag,
		    16), VG_ERR_LENGTH);
		assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv,
		    (size_t)((uint64_t)1 << 61), b.aad, b.aadlen, b.ct, b.len,
		    out, b.tag, 16), VG_ERR_LENGTH);
	}
	assert_true(out[0] == 0xa5 && out[b.len - 1] == 0xa5);
	assert_int_equal(vg_aes_gcm_encrypt(NULL, b.iv, b.ivlen, b.aad,
	    b.aadlen, b.pt, b.len, out, tag, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_encrypt(&k, NULL, b.ivlen, b.aad,
	    b.aadlen, b.pt, b.len, out, tag, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, NULL,
	    b.aadlen, b.pt, b.len, out, tag, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
	    b.aadlen, b.pt, b.len, NULL, tag, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_encrypt(&k, b.iv, b.ivlen, b.aad,
	    b.aadlen, b.pt, b.len, out, NULL, 16), VG_ERR_ARG);
	assert_int_equal(vg_aes_gcm_decrypt(&k, b.iv, b.ivlen, b.aad,
	    b.aadlen, NULL, b.len, out, b.tag, 16), VG_ERR_ARG);
	vg_aes_key_wipe(&k);
}

/* ------------------------------------------------------- key wrap KATs */

struct wrap_kat {
	const char *kek, *pt, *ct;
};

/* RFC 3394 §4.1-4.6. */
static const struct wrap_kat kw_kats[] = {
	{ "000102030405060708090a0b0c0d0e0f",
	    "00112233445566778899aabbccddeeff",
	    "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	    "00112233445566778899aabbccddeeff",
	    "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	    "00112233445566778899aabbccddeeff",
	    "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7" },
	{ "000102030405060708090a0b0c0d0e0f1011121314151617",
	    "00112233445566778899aabbccddeeff0001020304050607",
	    "031d33264e15d33268f24ec260743edc"
	    "e1c6c7ddee725a936ba814915c6762d2" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	    "00112233445566778899aabbccddeeff0001020304050607",
	    "a8f9bc1612c68b3ff6e6f4fbe30e71e4"
	    "769c8b80a32cb8958cd5d17d6b254da1" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	    "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
	    "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43b"
	    "fb988b9b7a02dd21" },
};

/* RFC 5649 §6. */
static const struct wrap_kat kwp_kats[] = {
	{ "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
	    "c37b7e6492584340bed12207808941155068f738",
	    "138bdeaa9b8fa7fc61f97742e72248ee"
	    "5ae6ae5360d1ae6a5f54f373fa543b6a" },
	{ "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
	    "466f7250617369", "afbeb0f07dfbf5419200f2ccb50bb24f" },
};

static void
test_kw_rfc3394(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kw_kats) / sizeof(kw_kats[0]); i++) {
		struct vg_aes_key k;
		uint8_t kek[32], pt[32], ct[40], out[48];
		size_t kl, pl, cl;

		kl = unhex(kek, sizeof(kek), kw_kats[i].kek);
		pl = unhex(pt, sizeof(pt), kw_kats[i].pt);
		cl = unhex(ct, sizeof(ct), kw_kats[i].ct);
		assert_int_equal(cl, pl + 8);
		assert_int_equal(vg_aes_init(&k, kek, kl), VG_OK);
		assert_int_equal(vg_aes_kw_wrap(&k, pt, pl, out), VG_OK);
		assert_memory_equal(out, ct, cl);
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_kw_unwrap(&k, ct, cl, out), VG_OK);
		assert_memory_equal(out, pt, pl);
		assert_int_equal(out[pl], 0xa5);
		/* In place. */
		memcpy(out, pt, pl);
		assert_int_equal(vg_aes_kw_wrap(&k, out, pl, out), VG_OK);
		assert_memory_equal(out, ct, cl);
		assert_int_equal(vg_aes_kw_unwrap(&k, out, cl, out), VG_OK);
		assert_memory_equal(out, pt, pl);
		vg_aes_key_wipe(&k);
	}
}

static void
test_kwp_rfc5649(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kwp_kats) / sizeof(kwp_kats[0]); i++) {
		struct vg_aes_key k;
		uint8_t kek[32], pt[32], ct[40], out[48];
		size_t kl, pl, cl, ol;

		kl = unhex(kek, sizeof(kek), kwp_kats[i].kek);
		pl = unhex(pt, sizeof(pt), kwp_kats[i].pt);
		cl = unhex(ct, sizeof(ct), kwp_kats[i].ct);
		assert_int_equal(vg_aes_init(&k, kek, kl), VG_OK);
		ol = 0;
		assert_int_equal(vg_aes_kwp_wrap(&k, pt, pl, out, &ol), VG_OK);
		assert_int_equal(ol, cl);
		assert_memory_equal(out, ct, cl);
		memset(out, 0xa5, sizeof(out));
		assert_int_equal(vg_aes_kwp_unwrap(&k, ct, cl, out, &ol),
		    VG_OK);
		assert_int_equal(ol, pl);
		assert_memory_equal(out, pt, pl);
		memcpy(out, pt, pl);
		assert_int_equal(vg_aes_kwp_wrap(&k, out, pl, out, &ol), VG_OK);
		assert_memory_equal(out, ct, cl);
		assert_int_equal(vg_aes_kwp_unwrap(&k, out, cl, out, &ol),
		    VG_OK);
		assert_memory_equal(out, pt, pl);
		vg_aes_key_wipe(&k);
	}
}

/* Every single-bit change of a wrapped key is caught, and out is zeroed. */
static void
test_unwrap_corrupt(void **state)
{
	struct vg_aes_key k;
	uint8_t kek[32], ct[40], out[48];
	size_t kl, cl, ol, i, v;

	(void)state;
	for (v = 0; v < 2; v++) {
		const struct wrap_kat *w = v == 0 ? &kw_kats[5] : &kwp_kats[0];

		kl = unhex(kek, sizeof(kek), w->kek);
		cl = unhex(ct, sizeof(ct), w->ct);
		assert_int_equal(vg_aes_init(&k, kek, kl), VG_OK);
		for (i = 0; i < 8 * cl; i++) {
			enum vg_err err;

			ct[i / 8] ^= (uint8_t)(1u << (i % 8));
			memset(out, 0xa5, sizeof(out));
			ol = 99;
			if (v == 0) {
				err = vg_aes_kw_unwrap(&k, ct, cl, out);
			} else {
				err = vg_aes_kwp_unwrap(&k, ct, cl, out, &ol);
				assert_int_equal(ol, 0);
			}
			assert_int_equal(err, VG_ERR_AUTH);
			assert_true(all_zero(out, cl - 8));
			assert_int_equal(out[cl - 8], 0xa5);
			ct[i / 8] ^= (uint8_t)(1u << (i % 8));
		}
		/* The wrong key. */
		kek[0] ^= 1;
		assert_int_equal(vg_aes_init(&k, kek, kl), VG_OK);
		if (v == 0)
			assert_int_equal(vg_aes_kw_unwrap(&k, ct, cl, out),
			    VG_ERR_AUTH);
		else
			assert_int_equal(vg_aes_kwp_unwrap(&k, ct, cl, out,
			    &ol), VG_ERR_AUTH);
		vg_aes_key_wipe(&k);
	}
}

/*
 * W of RFC 3394 with an arbitrary initial value, written independently
 * from the library's, to build KWP ciphertexts with a bad AIV, length
 * indicator or padding. One semiblock is a single AES block.
 */
static void
test_wrap_iv(const struct vg_aes_key *k, const uint8_t a0[8],
    const uint8_t *p, size_t n, uint8_t *c)
{
	const struct vg_kernels *kt = vg_kernels();
	uint8_t a[8], b[16];
	size_t i, j, t;

	memcpy(a, a0, 8);
	memcpy(c + 8, p, 8 * n);
	if (n == 1) {
		memcpy(b, a, 8);
		memcpy(b + 8, p, 8);
		kt->aes_encrypt(k, c, b, 1);
		return;
	}
	for (j = 0; j <= 5; j++) {
		for (i = 1; i <= n; i++) {
			memcpy(b, a, 8);
			memcpy(b + 8, c + 8 * i, 8);
			kt->aes_encrypt(k, b, b, 1);
			t = n * j + i;
			memcpy(a, b, 8);
			a[7] ^= (uint8_t)t;
			a[6] ^= (uint8_t)(t >> 8);
			memcpy(c + 8 * i, b + 8, 8);
		}
	}
	memcpy(c, a, 8);
}

static void
test_kwp_bad_format(void **state)
{
	static const struct {
		uint32_t prefix, mli;
		size_t n;
		int pad_byte; /* index of a non-zero byte, or -1 */
		enum vg_err want;
	} cases[] = {
		{ 0xa65959a6u, 5, 1, -1, VG_OK },
		{ 0xa65959a6u, 8, 1, -1, VG_OK },
		{ 0xa65959a6u, 0, 1, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 9, 1, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 5, 1, 5, VG_ERR_AUTH },
		{ 0xa65959a6u, 5, 1, 7, VG_ERR_AUTH },
		{ 0xa65959a6u, 5, 1, 4, VG_OK },
		{ 0xa65959a7u, 5, 1, -1, VG_ERR_AUTH },
		{ 0xa6a6a6a6u, 8, 1, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 17, 3, -1, VG_OK },
		{ 0xa65959a6u, 24, 3, -1, VG_OK },
		{ 0xa65959a6u, 16, 3, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 25, 3, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 9, 3, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 0xffffffffu, 3, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 20, 3, 20, VG_ERR_AUTH },
		{ 0xa65959a6u, 20, 3, 23, VG_ERR_AUTH },
		{ 0xa65959a6u, 20, 3, 19, VG_OK },
		{ 0x00000000u, 20, 3, -1, VG_ERR_AUTH },
		{ 0xa65959a6u, 33, 5, 39, VG_ERR_AUTH },
		{ 0xa65959a6u, 33, 5, 32, VG_OK },
	};
	struct vg_aes_key k;
	uint8_t key[24], p[40], c[48], out[40];
	size_t i, ol;

	(void)state;
	rng_bytes(key, sizeof(key));
	assert_int_equal(vg_aes_init(&k, key, sizeof(key)), VG_OK);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t a[8];
		size_t n = cases[i].n, j;

		for (j = 0; j < 8 * n; j++)
			if (j >= cases[i].mli)
				p[j] = 0;
			else
				p[j] = (uint8_t)(0x11 + j);
		if (cases[i].pad_byte >= 0)
			p[cases[i].pad_byte] |= 0x40;
		a[0] = (uint8_t)(cases[i].prefix >> 24);
		a[1] = (uint8_t)(cases[i].prefix >> 16);
		a[2] = (uint8_t)(cases[i].prefix >> 8);
		a[3] = (uint8_t)cases[i].prefix;
		a[4] = (uint8_t)(cases[i].mli >> 24);
		a[5] = (uint8_t)(cases[i].mli >> 16);
		a[6] = (uint8_t)(cases[i].mli >> 8);
		a[7] = (uint8_t)cases[i].mli;
		test_wrap_iv(&k, a, p, n, c);
		memset(out, 0xa5, sizeof(out));
		ol = 99;
		assert_int_equal(vg_aes_kwp_unwrap(&k, c, 8 * n + 8, out, &ol),
		    cases[i].want);
		if (cases[i].want == VG_OK) {
			assert_int_equal(ol, cases[i].mli);
			assert_memory_equal(out, p, ol);
		} else {
			assert_int_equal(ol, 0);
			assert_true(all_zero(out, 8 * n));
		}
		/* Cross-check the crafting: a valid case is what wrap gives. */
		if (cases[i].want == VG_OK && cases[i].pad_byte < 0) {
			uint8_t c2[48];

			assert_int_equal(vg_aes_kwp_wrap(&k, p, cases[i].mli,
			    c2, &ol), VG_OK);
			assert_int_equal(ol, 8 * n + 8);
			assert_memory_equal(c2, c, ol);
		}
	}
	vg_aes_key_wipe(&k);
}

static void
test_wrap_errors(void **state)
{
	struct vg_aes_key k;
	uint8_t key[16] = { 0 }, buf[64] = { 0 }, out[72];
	size_t len, ol;

	(void)state;
	assert_int_equal(vg_aes_init(&k, key, 16), VG_OK);
	for (len = 0; len <= 40; len++) {
		enum vg_err w = (len % 8 == 0 && len >= 16) ? VG_OK :
		    VG_ERR_LENGTH;

		assert_int_equal(vg_aes_kw_wrap(&k, buf, len, out), w);
		if (len % 8 != 0 || len < 24)
			assert_int_equal(vg_aes_kw_unwrap(&k, buf, len, out),
			    VG_ERR_LENGTH);
		else
			assert_int_equal(vg_aes_kw_unwrap(&k, buf, len, out),
			    VG_ERR_AUTH);
		assert_int_equal(vg_aes_kwp_wrap(&k, buf, len, out, &ol),
		    len == 0 ? VG_ERR_LENGTH : VG_OK);
		if (len % 8 != 0 || len < 16)
			assert_int_equal(vg_aes_kwp_unwrap(&k, buf, len, out,
			    &ol), VG_ERR_LENGTH);
	}
	if (sizeof(size_t) > 4) {
		assert_int_equal(vg_aes_kwp_wrap(&k, buf,
		    (size_t)VG_AES_KWP_MAX_LEN + 1, out, &ol), VG_ERR_LENGTH);
		assert_int_equal(vg_aes_kwp_unwrap(&k, buf,
		    (size_t)VG_AES_KWP_MAX_LEN + 17, out, &ol),
		    VG_ERR_LENGTH);
	}
	assert_int_equal(vg_aes_kw_wrap(NULL, buf, 16, out), VG_ERR_ARG);
	assert_int_equal(vg_aes_kw_wrap(&k, NULL, 16, out), VG_ERR_ARG);
	assert_int_equal(vg_aes_kw_unwrap(&k, buf, 24, NULL), VG_ERR_ARG);
	assert_int_equal(vg_aes_kwp_wrap(&k, buf, 5, out, NULL), VG_ERR_ARG);
	assert_int_equal(vg_aes_kwp_unwrap(&k, buf, 16, out, NULL),
	    VG_ERR_ARG);
	vg_aes_key_wipe(&k);
}

/* --------------------------------------------- cross-checks with OpenSSL */

static const EVP_CIPHER *
ossl_cipher(size_t klen, int mode)
{
	switch (mode) {
	case 0:
		return klen == 16 ? EVP_aes_128_ecb() :
		    klen == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
	case 1:
		return klen == 16 ? EVP_aes_128_gcm() :
		    klen == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
	case 2:
		return klen == 16 ? EVP_aes_128_wrap() :
		    klen == 24 ? EVP_aes_192_wrap() : EVP_aes_256_wrap();
	default:
		return klen == 16 ? EVP_aes_128_wrap_pad() :
		    klen == 24 ? EVP_aes_192_wrap_pad() :
		    EVP_aes_256_wrap_pad();
	}
}

static void
test_openssl_ecb(void **state)
{
	uint8_t key[32], in[40 * 16], a[40 * 16], b[40 * 16];
	unsigned s, it;

	(void)state;
	for (s = 0; s < 3; s++) {
		for (it = 0; it < 60; it++) {
			size_t kl = key_sizes[s], nb = rng_below(41);
			struct vg_aes_key k;
			EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
			int ol = 0;

			rng_bytes(key, kl);
			rng_bytes(in, 16 * nb);
			assert_int_equal(vg_aes_init(&k, key, kl), VG_OK);
			vg_kernels()->aes_encrypt(&k, a, in, nb);
			assert_non_null(c);
			assert_int_equal(EVP_EncryptInit_ex(c,
			    ossl_cipher(kl, 0), NULL, key, NULL), 1);
			EVP_CIPHER_CTX_set_padding(c, 0);
			assert_int_equal(EVP_EncryptUpdate(c, b, &ol, in,
			    (int)(16 * nb)), 1);
			assert_int_equal((size_t)ol, 16 * nb);
			if (nb > 0)
				assert_memory_equal(a, b, 16 * nb);
			vg_kernels()->aes_decrypt(&k, a, b, nb);
			if (nb > 0)
				assert_memory_equal(a, in, 16 * nb);
			EVP_CIPHER_CTX_free(c);
			vg_aes_key_wipe(&k);
		}
	}
}

static void
ossl_gcm_encrypt(size_t kl, const uint8_t *key, const uint8_t *iv,
    size_t ivlen, const uint8_t *aad, size_t aadlen, const uint8_t *in,
    size_t len, uint8_t *out, uint8_t tag[16])
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	uint8_t dummy[16];
	int ol = 0;

	assert_non_null(c);
	assert_int_equal(EVP_EncryptInit_ex(c, ossl_cipher(kl, 1), NULL, NULL,
	    NULL), 1);
	assert_int_equal(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN,
	    (int)ivlen, NULL), 1);
	assert_int_equal(EVP_EncryptInit_ex(c, NULL, NULL, key, iv), 1);
	if (aadlen > 0)
		assert_int_equal(EVP_EncryptUpdate(c, NULL, &ol, aad,
		    (int)aadlen), 1);
	if (len > 0) {
		assert_int_equal(EVP_EncryptUpdate(c, out, &ol, in, (int)len),
		    1);
		assert_int_equal((size_t)ol, len);
	}
	assert_int_equal(EVP_EncryptFinal_ex(c, dummy, &ol), 1);
	assert_int_equal(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag),
	    1);
	EVP_CIPHER_CTX_free(c);
}

static void
test_openssl_gcm(void **state)
{
	static const size_t big[] = { 511, 512, 513, 1000, 4096 + 13 };
	static uint8_t in[4200], a[4200], b[4200];
	uint8_t key[32], iv[80], aad[300], ta[16], tb[16];
	size_t len, s, cases = 0;

	(void)state;
	for (s = 0; s < 3; s++) {
		for (len = 0; len <= 300 + sizeof(big) / sizeof(big[0]);
		    len++) {
			size_t kl = key_sizes[s], n, ivlen, aadlen, tl;
			struct vg_aes_key k;

			n = len <= 300 ? len : big[len - 301];
			/* Half the IVs are 12 bytes (the fast path). */
			ivlen = rng_below(2) ? 12 : 1 + rng_below(sizeof(iv));
			aadlen = rng_below(4) == 0 ? 0 : rng_below(301);
			tl = VG_AES_GCM_MIN_TAG + rng_below(13);
			rng_bytes(key, kl);
			rng_bytes(iv, ivlen);
			rng_bytes(aad, aadlen);
			rng_bytes(in, n);
			assert_int_equal(vg_aes_init(&k, key, kl), VG_OK);
			assert_int_equal(vg_aes_gcm_encrypt(&k, iv, ivlen, aad,
			    aadlen, in, n, a, ta, 16), VG_OK);
			ossl_gcm_encrypt(kl, key, iv, ivlen, aad, aadlen, in,
			    n, b, tb);
			if (n > 0)
				assert_memory_equal(a, b, n);
			assert_memory_equal(ta, tb, 16);
			assert_int_equal(vg_aes_gcm_decrypt(&k, iv, ivlen, aad,
			    aadlen, b, n, a, tb, tl), VG_OK);
			if (n > 0)
				assert_memory_equal(a, in, n);
			tb[rng_below(tl)] ^= (uint8_t)(1u << rng_below(8));
			assert_int_equal(vg_aes_gcm_decrypt(&k, iv, ivlen, aad,
			    aadlen, b, n, a, tb, tl), VG_ERR_AUTH);
			assert_true(all_zero(a, n));
			vg_aes_key_wipe(&k);
			cases++;
		}
	}
	print_message("gcm: %zu cases agree with OpenSSL\n", cases);
}

static void
ossl_wrap(size_t kl, const uint8_t *key, int pad, int enc, const uint8_t *in,
    size_t len, uint8_t *out, int *outlen)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	assert_non_null(c);
	EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	assert_int_equal(EVP_CipherInit_ex(c, ossl_cipher(kl, pad ? 3 : 2),
	    NULL, key, NULL, enc), 1);
	*outlen = -1;
	assert_int_equal(EVP_CipherUpdate(c, out, outlen, in, (int)len), 1);
	EVP_CIPHER_CTX_free(c);
}

static void
test_openssl_wrap(void **state)
{
	uint8_t key[32], in[320], a[336], b[336];
	size_t s, len, ol;
	int obl;

	(void)state;
	for (s = 0; s < 3; s++) {
		size_t kl = key_sizes[s];
		struct vg_aes_key k;

		for (len = 1; len <= 300; len++) {
			rng_bytes(key, kl);
			rng_bytes(in, len);
			assert_int_equal(vg_aes_init(&k, key, kl), VG_OK);
			/* KWP, any length. */
			assert_int_equal(vg_aes_kwp_wrap(&k, in, len, a, &ol),
			    VG_OK);
			assert_int_equal(ol, ((len + 7) & ~(size_t)7) + 8);
			ossl_wrap(kl, key, 1, 1, in, len, b, &obl);
			assert_int_equal(obl, (int)ol);
			assert_memory_equal(a, b, ol);
			assert_int_equal(vg_aes_kwp_unwrap(&k, b, ol, a, &ol),
			    VG_OK);
			assert_int_equal(ol, len);
			assert_memory_equal(a, in, len);
			/* KW, multiples of 8 from 16. */
			if (len % 8 == 0 && len >= 16) {
				assert_int_equal(vg_aes_kw_wrap(&k, in, len, a),
				    VG_OK);
				ossl_wrap(kl, key, 0, 1, in, len, b, &obl);
				assert_int_equal(obl, (int)(len + 8));
				assert_memory_equal(a, b, len + 8);
				assert_int_equal(vg_aes_kw_unwrap(&k, b,
				    len + 8, a), VG_OK);
				assert_memory_equal(a, in, len);
				/* And OpenSSL unwraps ours. */
				assert_int_equal(vg_aes_kw_wrap(&k, in, len, a),
				    VG_OK);
				ossl_wrap(kl, key, 0, 0, a, len + 8, b, &obl);
				assert_int_equal(obl, (int)len);
				assert_memory_equal(b, in, len);
			}
			vg_aes_key_wipe(&k);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips197),
		cmocka_unit_test(test_sp800_38a_ecb),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_gcm_kats),
		cmocka_unit_test(test_gcm_auth_failure),
		cmocka_unit_test(test_gcm_tags_and_errors),
		cmocka_unit_test(test_kw_rfc3394),
		cmocka_unit_test(test_kwp_rfc5649),
		cmocka_unit_test(test_unwrap_corrupt),
		cmocka_unit_test(test_kwp_bad_format),
		cmocka_unit_test(test_wrap_errors),
		cmocka_unit_test(test_openssl_ecb),
		cmocka_unit_test(test_openssl_gcm),
		cmocka_unit_test(test_openssl_wrap),
	};

	return cmocka_run_group_tests(tests, setup_rng, NULL);
}
