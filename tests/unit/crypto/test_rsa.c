/*
 * Unit tests of crypto/rsa.h: a known answer (an OpenSSL-made RSA-2048 key
 * and its PKCS#1 v1.5 SHA-256 signature of "abc"), then cross-checks with
 * OpenSSL 3's libcrypto on random keys (512 ... 4096 bits, odd sizes and
 * unbalanced primes) and messages, under every kernel set this CPU has and
 * with and without exponent blinding: raw operations, PKCS#1 v1.5 and PSS
 * signatures both ways, PKCS#1 v1.5 and OAEP encryption both ways;
 * malformed paddings rejected. Keys, the fault check and key generation
 * are in test_rsa_keygen.c. VG_TEST_SEED=<n> replays the message choices.
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

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/der.h"
#include "crypto/rsa.h"
#include "tests/unit/crypto/rsa_ksets.h"
#include "tests/xorshift.h"

/* ------------------------------------------------------------ helpers */

static const char KAT_KEY[] =
    "308204a202010002820101008567869783c9f288e05451d3ab5061bca9ea6cef"
    "227d49f4a465abebe083b2cdb94888f990f2eaa9a53ab241ed1fe8809572d3f4"
    "d46996338ad66873cf99369857ee27c0f23bc588054c58f8dd2e948cfac7ce58"
    "3d7f384c974d8555c7f1bf27dbeee79d703803a9eb911b31ddcbb5c91823dec3"
    "c173a5a9111444349c6538dc788a7e1e7669d46fdb0a705637bb55e74b2a0d9e"
    "c5eabc5b206eb377ea6ada7936f90d87407d92d0edfbcdc9424b5ab5dd0339c2"
    "c18a9844df77c6886d505cc4eed857dc5c6f6db32ab0e4e757358fcf21c5726e"
    "8708f0860fea9bb84bd65d8bfb37823bba1cc12ed892c127a1548f6173b7b16e"
    "ff3ef7194fcb4bb5b6550ad102030100010282010004fa33748fbf6d90c1d123"
    "913c3447f7a8ddb376ca3f09a88ddb4baa6c20d765cffc553cca827f52e5dae6"
    "62f01cc5dc631d7adf08d5d61538a07e8130788027c4901a979b254d5dd4a4c6"
    "983f3ec944e7b4d72746141e453a17f38d34fdc611430ca4dd3db7d2e7f87f42"
    "b1b13534245505d7fe4e94426e74d1e05b315c3a44d4fb4adb81c21db09ad115"
    "fefafabac5a8d6ea4e035d9dae0ecd5e4d91dcb119a0dc220bca5ff4faf97d98"
    "17979ba133b2a46b37557730e589f7c03319054ee74ea2124d557456e52be445"
    "b602af0c676c722a8187312e43587f2a7bb64444a3be8b3ee69abf9606503574"
    "96226904bcafb4ef41bb95bc99896ed9eaca476ba902818100ba80040d258084"
    "75a545fbf34dd5438eef76520f3b04b93b468d22114ce9100d0fd44ce58d4dcb"
    "b96a8e83d3b3fca7e1f05bd69ee71ae57847a6047b18af2d7211f165a3387919"
    "8a56956d714f08c6980489fb37a64273bca3dafbb75aa2e5c505b29e001e2e85"
    "cb0217d3e36c35311cbb36c5a36a73a6695b665b9ba79cfabf02818100b71e37"
    "dbd0b874ec0b4b2cb9eaef24b057b4937855b5de63c4c03e377c3a7f57f8cf44"
    "b90616ed85a51efa9a157cb8ad69bb2b221b55875652ab6159cc30cad5fd4c06"
    "8334ca1c632a79dbfafeb9acdb3a8c4635112768812fd42e6c27afb56b95437e"
    "919f0d2ec0ddbfd10ab03fa962f3b783481f36ec16b8423f49e74a2e6f028180"
    "10938a48a4d9ac6c4c7950f08a2d7768bfedf353393aad40108040d3ead31843"
    "20f20cb7a67c90abf5459f7ff492735588a89105e4a2a65caf7999125bda4e1e"
    "c26b834e2399d7e44cd7d1376dffe8aee050674cc5f1481a2f322a875c7df810"
    "2ff67546ab68152a3b10651be4a541ad3d129c346f24c258c0eff31a7da65d3f"
    "0281805505adcfdd2857f9650101824d47be143694bc480a1bc867306a463902"
    "f03242495f0b3c914c41fa64816ebfee2c1b9f40d14ba4a9665bd143cf190355"
    "a06dfd4f7f6622b37708192f16a781f1958a61bbdc77989a1f5f116480b3113a"
    "9805b72ef5c8a59a60c78d7b285dca05ad795b5d679e87f51e4e1dfa6d9fef13"
    "79c8f70281806cae82699aecc9d2890ed3b4b7b2f7c934493670b22333ba7590"
    "9bce4dfcddb500aaefdea6472b93cc5a8653b9596693cd0bee2526bf97d851ff"
    "1b44bf46624b06523168edef26a38fe384027b9ad9adfeb8c41abc9a16e476fd"
    "339802bd61340682b1c9f5b3a2a2a056a7d8395046bbe81d557129484afb10fe"
    "64a2000b7359";

static const char KAT_SIG_ABC_SHA256[] =
    "504b3d54ca5b826b48db0800dac3d3b2b8550074ff64f75836228f7ad84d7f9a"
    "623ff563c43f9cca3a99453f11d63f108c6913255616edef40ea0a4d4932d583"
    "cae43614946bc0570fc8c3f74d4d28b402fb6913e22d8e7cd1c3ae352444eab9"
    "c7494901fc43059779ce13c3c05da741f9a1f1365fb62e5aa83973ace2b032b8"
    "4e73144d5cc1203c65faa149f893926ea3944770c52af313a595dbe3cf6bb38a"
    "22d66cb7bc370160a3ce6048e38e017fd02fb87beec231ce486f6bfbe124f921"
    "fdbe75549fd6bcb5730631dfb819f36ee3ae27cb57348df0a44c3b88b05b5a23"
    "3c1802e45e7c0bab9551e9600709c0d6efe337c04e791fd87a2d2e6ee9443a80";

static uint64_t rng_state;
static struct vg_rng g_rng;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

static size_t
unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = strlen(hex) / 2, i;

	assert_true(n <= cap);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static const EVP_MD *
md_of(enum vg_hash_alg a)
{
	switch (a) {
	case VG_HASH_SHA1:
		return EVP_sha1();
	case VG_HASH_SHA224:
		return EVP_sha224();
	case VG_HASH_SHA256:
		return EVP_sha256();
	case VG_HASH_SHA384:
		return EVP_sha384();
	case VG_HASH_SHA512:
		return EVP_sha512();
	case VG_HASH_SHA3_256:
		return EVP_sha3_256();
	case VG_HASH_SHA512_224:
		return EVP_sha512_224();
	case VG_HASH_SHA512_256:
		return EVP_sha512_256();
	default:
		fail();
		return NULL;
	}
}

/* PKCS#1 DER of an OpenSSL key (caller frees). */
static uint8_t *
der_of(EVP_PKEY *pk, size_t *len)
{
	uint8_t *der = NULL;
	int n = i2d_PrivateKey(pk, &der);

	assert_true(n > 0);
	*len = (size_t)n;
	return der;
}

/* Loads OpenSSL's key into k with the given kernels and flags. */
static void
load_from(struct vg_rsa_key *k, EVP_PKEY *pk,
    const struct vg_rsa_kernels *kern, unsigned flags)
{
	struct vg_der_rsa_priv c;
	size_t len;
	uint8_t *der = der_of(pk, &len);

	assert_int_equal(vg_der_parse_rsa_private(der, len, &c), VG_OK);
	assert_int_equal(vg_rsa_key_load(k, &c, kern, flags, &g_rng), VG_OK);
	OPENSSL_free(der);
}

/* An OpenSSL key from components given as big-endian bytes (via DER). */
static EVP_PKEY *
pkey_from(const struct vg_der_rsa_priv *c)
{
	uint8_t buf[4096];
	size_t len = sizeof(buf);
	const unsigned char *p = buf;
	EVP_PKEY *pk;

	assert_int_equal(vg_der_build_rsa_private(buf, &len, c), VG_OK);
	pk = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)len);
	assert_non_null(pk);
	return pk;
}

/* An OpenSSL key with primes of pbits and bits - pbits bits. */
static EVP_PKEY *
ossl_key(unsigned bits, unsigned pbits)
{
	EVP_PKEY *pk;
	BN_CTX *ctx;
	BIGNUM *p, *q, *n, *e, *d, *dp, *dq, *qi, *t, *l;
	struct vg_der_rsa_priv c;
	uint8_t buf[8][512];
	BIGNUM *v[8];
	int i, len[8];

	if (pbits == 0 || pbits * 2 == bits)
		return EVP_RSA_gen(bits);
	/* unbalanced primes: build the key by hand */
	ctx = BN_CTX_new();
	p = BN_new();
	q = BN_new();
	n = BN_new();
	e = BN_new();
	d = BN_new();
	dp = BN_new();
	dq = BN_new();
	qi = BN_new();
	t = BN_new();
	l = BN_new();
	BN_set_word(e, 65537);
	do {
		BN_generate_prime_ex(p, (int)pbits, 0, NULL, NULL, NULL);
		BN_generate_prime_ex(q, (int)(bits - pbits), 0, NULL, NULL,
		    NULL);
		BN_mul(n, p, q, ctx);
		BN_sub(dp, p, BN_value_one());
		BN_sub(dq, q, BN_value_one());
		BN_mul(t, dp, dq, ctx);
		BN_gcd(l, dp, dq, ctx);
		BN_div(l, NULL, t, l, ctx);
	} while (BN_num_bits(n) != (int)bits ||
	    BN_mod_inverse(d, e, l, ctx) == NULL);
	BN_mod(dp, d, dp, ctx);
	BN_mod(dq, d, dq, ctx);
	BN_mod_inverse(qi, q, p, ctx);
	v[0] = n, v[1] = e, v[2] = d, v[3] = p, v[4] = q, v[5] = dp,
	v[6] = dq, v[7] = qi;
	for (i = 0; i < 8; i++)
		len[i] = BN_bn2bin(v[i], buf[i]);
	c.n = vg_der_make(buf[0], (size_t)len[0]);
	c.e = vg_der_make(buf[1], (size_t)len[1]);
	c.d = vg_der_make(buf[2], (size_t)len[2]);
	c.p = vg_der_make(buf[3], (size_t)len[3]);
	c.q = vg_der_make(buf[4], (size_t)len[4]);
	c.dp = vg_der_make(buf[5], (size_t)len[5]);
	c.dq = vg_der_make(buf[6], (size_t)len[6]);
	c.qinv = vg_der_make(buf[7], (size_t)len[7]);
	pk = pkey_from(&c);
	for (i = 0; i < 8; i++)
		BN_free(v[i]);
	BN_free(t);
	BN_free(l);
	BN_CTX_free(ctx);
	return pk;
}

static EVP_PKEY_CTX *
pctx(EVP_PKEY *pk)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);

	assert_non_null(c);
	return c;
}

/* OpenSSL signs or decrypts raw (no padding). */
static void
ossl_raw_private(EVP_PKEY *pk, uint8_t *out, const uint8_t *in, size_t len)
{
	EVP_PKEY_CTX *c = pctx(pk);
	size_t olen = len;

	assert_int_equal(EVP_PKEY_decrypt_init(c), 1);
	assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING), 1);
	assert_int_equal(EVP_PKEY_decrypt(c, out, &olen, in, len), 1);
	assert_int_equal(olen, len);
	EVP_PKEY_CTX_free(c);
}

/* ---------------------------------------------------------- known answer */

static void
test_known_answer(void **state)
{
	static const uint8_t abc_sha256[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
		0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
		0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
		0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t nk = rsa_ksets_fill(ks), i, klen, slen;
	uint8_t key[2048], want[256], sig[256];
	struct vg_der_rsa_priv c;
	static struct vg_rsa_key k, k2;

	(void)state;
	klen = unhex(key, sizeof(key), KAT_KEY);
	slen = unhex(want, sizeof(want), KAT_SIG_ABC_SHA256);
	assert_int_equal(slen, 256);
	assert_int_equal(vg_der_parse_rsa_private(key, klen, &c), VG_OK);
	for (i = 0; i < nk; i++) {
		unsigned fl;

		for (fl = 0; fl < 2; fl++) {
			assert_int_equal(vg_rsa_key_load(&k, &c, &ks[i],
			    fl ? VG_RSA_EXP_BLIND : 0, &g_rng), VG_OK);
			assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256,
			    abc_sha256, 32, sig, 256, &g_rng), VG_OK);
			assert_memory_equal(sig, want, 256);
			assert_int_equal(vg_rsa_pkcs1_verify(vg_rsa_key_pub(&k),
			    VG_HASH_SHA256, abc_sha256, 32, sig, 256), VG_OK);
			sig[100] ^= 1;
			assert_int_equal(vg_rsa_pkcs1_verify(vg_rsa_key_pub(&k),
			    VG_HASH_SHA256, abc_sha256, 32, sig, 256),
			    VG_ERR_AUTH);
			/* a copy has a pair of its own and signs the same,
			 * and so does the original after it */
			assert_int_equal(vg_rsa_key_copy(&k2, &k, &g_rng),
			    VG_OK);
			/* with use52, r^e is raised per prime only */
			if (!k.use52)
				assert_memory_not_equal(k2.blind_a, k.blind_a,
				    sizeof(k.blind_a));
			assert_memory_not_equal(k2.blind_b, k.blind_b,
			    sizeof(k.blind_b));
			if (k.use52) {
				assert_memory_not_equal(k2.blind52_a,
				    k.blind52_a, sizeof(k.blind52_a));
				assert_memory_not_equal(k2.blind52_b,
				    k.blind52_b, sizeof(k.blind52_b));
			}
			assert_int_equal(vg_rsa_pkcs1_sign(&k2, VG_HASH_SHA256,
			    abc_sha256, 32, sig, 256, &g_rng), VG_OK);
			assert_memory_equal(sig, want, 256);
			assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256,
			    abc_sha256, 32, sig, 256, &g_rng), VG_OK);
			assert_memory_equal(sig, want, 256);
		}
		printf("# known answer: kernels %s (IFMA pair %s)\n",
		    ks[i].impl, k.use52 ? "on" : "off");
	}
	vg_rsa_key_wipe(&k);
	vg_rsa_key_wipe(&k2);
}

/* ------------------------------------------------------- cross-checks */

struct size_case {
	unsigned bits, pbits; /* pbits 0: balanced */
};

static const struct size_case sizes[] = {
	{ 512, 0 }, { 1024, 0 }, { 2048, 0 }, { 2056, 0 }, { 2048, 1000 },
	{ 2048, 700 }, { 3072, 0 }, { 4096, 0 },
};

/* Everything against one OpenSSL key, with kernels kern and flags. */
static void
cross_check_key(EVP_PKEY *pk, const struct vg_rsa_kernels *kern,
    unsigned flags)
{
	static const enum vg_hash_alg hs[] = {
		VG_HASH_SHA1, VG_HASH_SHA224, VG_HASH_SHA256, VG_HASH_SHA384,
		VG_HASH_SHA512, VG_HASH_SHA512_224, VG_HASH_SHA512_256,
	};
	static struct vg_rsa_key k;
	const struct vg_rsa_pub *pub;
	uint8_t in[512], a[512], b[512], h[64], msg[512];
	const size_t nh = sizeof(hs) / sizeof(hs[0]);
	size_t len, i, olen;

	load_from(&k, pk, kern, flags);
	pub = vg_rsa_key_pub(&k);
	len = pub->len;
	assert_int_equal((int)len, EVP_PKEY_get_size(pk));

	/* raw: ours and OpenSSL's private operations agree, and the
	 * public operation undoes them */
	for (i = 0; i < 3; i++) {
		rnd_bytes(in, len);
		in[0] &= 0x3f;
		if (i == 1)
			memset(in, 0, len);
		assert_int_equal(vg_rsa_private(&k, a, in, len, &g_rng), VG_OK);
		ossl_raw_private(pk, b, in, len);
		assert_memory_equal(a, b, len);
		assert_int_equal(vg_rsa_public(pub, b, a, len), VG_OK);
		assert_memory_equal(b, in, len);
	}
	/* the public operation's fixed points (e is odd): 1 and n - 1 */
	memset(in, 0, len);
	in[len - 1] = 1;
	assert_int_equal(vg_rsa_public(pub, b, in, len), VG_OK);
	assert_memory_equal(b, in, len);
	{
		BIGNUM *n = NULL;

		assert_int_equal(EVP_PKEY_get_bn_param(pk, "n", &n), 1);
		assert_int_equal(BN_bn2binpad(n, in, (int)len), (int)len);
		BN_free(n);
		in[len - 1] -= 1; /* n is odd */
		assert_int_equal(vg_rsa_public(pub, b, in, len), VG_OK);
		assert_memory_equal(b, in, len);
	}
	/* input not below n */
	memset(in, 0xff, len);
	assert_int_equal(vg_rsa_private(&k, a, in, len, &g_rng),
	    VG_ERR_DECODE);
	assert_int_equal(vg_rsa_public(pub, a, in, len), VG_ERR_DECODE);
	assert_int_equal(vg_rsa_private(&k, a, in, len - 1, &g_rng),
	    VG_ERR_LENGTH);

	for (i = 0; i < nh; i++) {
		size_t hl = vg_hash_len(hs[i]), sl;
		EVP_PKEY_CTX *c;

		/* big keys: SHA-256 and SHA-512 only (time) */
		if (len > 256 && hs[i] != VG_HASH_SHA256 &&
		    hs[i] != VG_HASH_SHA512)
			continue;
		rnd_bytes(h, hl);
		/* PKCS#1 v1.5: deterministic, so equal to OpenSSL's */
		if (len >= hl + 19 + 11) {
			assert_int_equal(vg_rsa_pkcs1_sign(&k, hs[i], h, hl, a,
			    len, &g_rng), VG_OK);
			c = pctx(pk);
			assert_int_equal(EVP_PKEY_sign_init(c), 1);
			EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
			EVP_PKEY_CTX_set_signature_md(c, md_of(hs[i]));
			olen = len;
			assert_int_equal(EVP_PKEY_sign(c, b, &olen, h, hl), 1);
			assert_memory_equal(a, b, len);
			EVP_PKEY_CTX_free(c);
			assert_int_equal(vg_rsa_pkcs1_verify(pub, hs[i], h, hl,
			    a, len), VG_OK);
		}
		/* PSS, salt 0, hLen and the largest, both directions */
		for (sl = 0; sl < 3; sl++) {
			size_t emlen = (pub->n.bits + 6) / 8, slen;
			enum vg_hash_alg mgf = hs[(i + sl) % nh];

			if (emlen < 2 * hl + 2)
				continue;
			slen = sl == 0 ? 0 : sl == 1 ? hl : emlen - hl - 2;
			assert_int_equal(vg_rsa_pss_sign(&k, hs[i], mgf, slen,
			    h, hl, a, len, &g_rng), VG_OK);
			c = pctx(pk);
			assert_int_equal(EVP_PKEY_verify_init(c), 1);
			EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING);
			EVP_PKEY_CTX_set_signature_md(c, md_of(hs[i]));
			EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(mgf));
			EVP_PKEY_CTX_set_rsa_pss_saltlen(c, (int)slen);
			assert_int_equal(EVP_PKEY_verify(c, a, len, h, hl), 1);
			EVP_PKEY_CTX_free(c);
			assert_int_equal(vg_rsa_pss_verify(pub, hs[i], mgf,
			    slen, h, hl, a, len), VG_OK);
			/* OpenSSL's signature verifies with us */
			c = pctx(pk);
			assert_int_equal(EVP_PKEY_sign_init(c), 1);
			EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING);
			EVP_PKEY_CTX_set_signature_md(c, md_of(hs[i]));
			EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(mgf));
			EVP_PKEY_CTX_set_rsa_pss_saltlen(c, (int)slen);
			olen = len;
			assert_int_equal(EVP_PKEY_sign(c, b, &olen, h, hl), 1);
			EVP_PKEY_CTX_free(c);
			assert_int_equal(vg_rsa_pss_verify(pub, hs[i], mgf,
			    slen, h, hl, b, len), VG_OK);
			/* wrong salt length or message */
			if (slen > 0)
				assert_int_equal(vg_rsa_pss_verify(pub, hs[i],
				    mgf, slen - 1, h, hl, b, len), VG_ERR_AUTH);
			h[0] ^= 1;
			assert_int_equal(vg_rsa_pss_verify(pub, hs[i], mgf,
			    slen, h, hl, b, len), VG_ERR_AUTH);
			h[0] ^= 1;
		}
		/* OAEP with a label, both directions */
		if (len >= 2 * hl + 2) {
			size_t mlen = rnd() % (len - 2 * hl - 1), llen = i * 7;
			uint8_t label[64];

			rnd_bytes(msg, mlen);
			rnd_bytes(label, sizeof(label));
			c = pctx(pk);
			assert_int_equal(EVP_PKEY_encrypt_init(c), 1);
			EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING);
			EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(hs[i]));
			EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(hs[nh - 1 - i]));
			if (llen > 0) {
				void *l = OPENSSL_memdup(label, llen);

				EVP_PKEY_CTX_set0_rsa_oaep_label(c, l,
				    (int)llen);
			}
			olen = len;
			assert_int_equal(EVP_PKEY_encrypt(c, a, &olen, msg,
			    mlen), 1);
			EVP_PKEY_CTX_free(c);
			assert_int_equal(vg_rsa_oaep_decrypt(&k, hs[i],
			    hs[nh - 1 - i], label, llen, a, len, b, len, &olen,
			    &g_rng), VG_OK);
			assert_int_equal(olen, mlen);
			assert_memory_equal(b, msg, mlen);
			/* a wrong label fails */
			label[0] ^= 1;
			assert_int_equal(vg_rsa_oaep_decrypt(&k, hs[i],
			    hs[nh - 1 - i], label, llen ? llen : 1, a, len, b, len,
			    &olen, &g_rng), VG_ERR_DECODE);
			label[0] ^= 1;
			/* ours decrypts with OpenSSL */
			assert_int_equal(vg_rsa_oaep_encrypt(pub, hs[i],
			    hs[nh - 1 - i], label, llen, msg, mlen, a, len, &g_rng),
			    VG_OK);
			c = pctx(pk);
			assert_int_equal(EVP_PKEY_decrypt_init(c), 1);
			EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_OAEP_PADDING);
			EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(hs[i]));
			EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(hs[nh - 1 - i]));
			if (llen > 0) {
				void *l = OPENSSL_memdup(label, llen);

				EVP_PKEY_CTX_set0_rsa_oaep_label(c, l,
				    (int)llen);
			}
			olen = len;
			assert_int_equal(EVP_PKEY_decrypt(c, b, &olen, a, len),
			    1);
			assert_int_equal(olen, mlen);
			assert_memory_equal(b, msg, mlen);
			EVP_PKEY_CTX_free(c);
		}
	}
	/* PKCS#1 v1.5 encryption, both directions */
	for (i = 0; i < 4; i++) {
		size_t mlen = i == 0 ? 0 : i == 1 ? len - 11 : rnd() % (len - 10);
		EVP_PKEY_CTX *c;

		rnd_bytes(msg, mlen);
		c = pctx(pk);
		assert_int_equal(EVP_PKEY_encrypt_init(c), 1);
		EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
		olen = len;
		assert_int_equal(EVP_PKEY_encrypt(c, a, &olen, msg, mlen), 1);
		EVP_PKEY_CTX_free(c);
		assert_int_equal(vg_rsa_pkcs1_decrypt(&k, a, len, b, len - 11,
		    &olen, &g_rng), VG_OK);
		assert_int_equal(olen, mlen);
		assert_memory_equal(b, msg, mlen);
		assert_int_equal(vg_rsa_pkcs1_encrypt(pub, msg, mlen, a, len,
		    &g_rng), VG_OK);
		c = pctx(pk);
		assert_int_equal(EVP_PKEY_decrypt_init(c), 1);
		EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING);
		olen = len;
		assert_int_equal(EVP_PKEY_decrypt(c, b, &olen, a, len), 1);
		assert_int_equal(olen, mlen);
		assert_memory_equal(b, msg, mlen);
		EVP_PKEY_CTX_free(c);
	}
	vg_rsa_key_wipe(&k);
}

static void
test_openssl_cross(void **state)
{
	struct vg_rsa_kernels ks[RSA_MAX_KSETS];
	size_t nk = rsa_ksets_fill(ks), i, j;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EVP_PKEY *pk = ossl_key(sizes[i].bits, sizes[i].pbits);

		assert_non_null(pk);
		for (j = 0; j < nk; j++)
			cross_check_key(pk, &ks[j], (unsigned)(i + j) % 2 ?
			    VG_RSA_EXP_BLIND : 0);
		EVP_PKEY_free(pk);
	}
}

/* ------------------------------------------------------ malformed input */

/* Encrypts em (len bytes) raw with the public key into ct. */
static void
raw_encrypt(const struct vg_rsa_pub *pub, uint8_t *ct, const uint8_t *em)
{
	assert_int_equal(vg_rsa_public(pub, ct, em, pub->len), VG_OK);
}

static void
test_malformed(void **state)
{
	static struct vg_rsa_key k;
	const struct vg_rsa_pub *pub;
	EVP_PKEY *pk = EVP_RSA_gen(2048);
	uint8_t em[256], ct[256], out[256], h[32];
	size_t olen, i, len = 256, hl = 32;

	(void)state;
	load_from(&k, pk, NULL, 0);
	pub = vg_rsa_key_pub(&k);

	/* PKCS#1 v1.5 decryption: each broken field fails alike */
	for (i = 0; i < 7; i++) {
		memset(em, 0x5a, len);
		em[0] = 0;
		em[1] = 2;
		em[len - 20] = 0;
		switch (i) {
		case 0: /* the reference: valid */
			break;
		case 1:
			em[0] = 1;
			break;
		case 2:
			em[1] = 1;
			break;
		case 3: /* no separator */
			em[len - 20] = 0x5a;
			break;
		case 4: /* PS of 7 bytes */
			em[len - 20] = 0x5a;
			em[9] = 0;
			break;
		case 5: /* PS of 8 bytes: valid */
			em[len - 20] = 0x5a;
			em[10] = 0;
			break;
		case 6: /* separator at the very end: empty message */
			em[len - 20] = 0x5a;
			em[len - 1] = 0;
			break;
		}
		raw_encrypt(pub, ct, em);
		memset(out, 0x77, sizeof(out));
		olen = 1234;
		if (i == 0 || i == 5 || i == 6) {
			assert_int_equal(vg_rsa_pkcs1_decrypt(&k, ct, len, out,
			    len, &olen, &g_rng), VG_OK);
			assert_int_equal(olen, i == 0 ? 19 : i == 5 ? len - 11 :
			    0);
		} else {
			assert_int_equal(vg_rsa_pkcs1_decrypt(&k, ct, len, out,
			    len, &olen, &g_rng), VG_ERR_DECODE);
			assert_int_equal(olen, 0);
			for (olen = 0; olen < len; olen++)
				assert_int_equal(out[olen], 0);
		}
	}
	/* ciphertext length and value */
	assert_int_equal(vg_rsa_pkcs1_decrypt(&k, ct, len - 1, out, len, &olen,
	    &g_rng), VG_ERR_DECODE);
	memset(ct, 0xff, len);
	assert_int_equal(vg_rsa_pkcs1_decrypt(&k, ct, len, out, len, &olen,
	    &g_rng), VG_ERR_DECODE);
	assert_int_equal(vg_rsa_pkcs1_decrypt(&k, ct, len, out, len - 12,
	    &olen, &g_rng), VG_ERR_LENGTH);

	/* OAEP: a valid encoding made with our encryptor, then broken by
	 * hand after undoing the masks */
	for (i = 0; i < 6; i++) {
		uint8_t db[256];
		size_t dblen = len - hl - 1;

		memset(em, 0, len);
		vg_hash(VG_HASH_SHA256, "L", 1, em + 1 + hl);
		em[len - 5] = 0x01;
		memcpy(em + len - 4, "msg!", 4);
		rnd_bytes(em + 1, hl); /* seed */
		switch (i) {
		case 1:
			em[0] = 1;
			break;
		case 2: /* lHash */
			em[1 + hl + 3] ^= 0x10;
			break;
		case 3: /* no 01 */
			em[len - 5] = 0x00;
			break;
		case 4: /* 02 instead of 01 */
			em[len - 5] = 0x02;
			break;
		case 5: /* a non-zero byte other than 01 in PS, 01 later */
			em[1 + 2 * hl + 4] = 0x80;
			break;
		}
		memcpy(db, em + 1 + hl, dblen);
		vg_rsa_mgf1_xor(VG_HASH_SHA256, em + 1 + hl, dblen, em + 1, hl);
		vg_rsa_mgf1_xor(VG_HASH_SHA256, em + 1, hl, em + 1 + hl, dblen);
		raw_encrypt(pub, ct, em);
		olen = 99;
		if (i == 0) {
			assert_int_equal(vg_rsa_oaep_decrypt(&k, VG_HASH_SHA256,
			    VG_HASH_SHA256, (const uint8_t *)"L", 1, ct, len, out,
			    len, &olen, &g_rng), VG_OK);
			assert_int_equal(olen, 4);
			assert_memory_equal(out, "msg!", 4);
		} else {
			assert_int_equal(vg_rsa_oaep_decrypt(&k, VG_HASH_SHA256,
			    VG_HASH_SHA256, (const uint8_t *)"L", 1, ct, len, out,
			    len, &olen, &g_rng), VG_ERR_DECODE);
			assert_int_equal(olen, 0);
		}
	}
	assert_int_equal(vg_rsa_oaep_decrypt(&k, VG_HASH_SHA512, VG_HASH_SHA1,
	    NULL, 0, ct, len, out, len - 2 * 64 - 3, &olen, &g_rng),
	    VG_ERR_LENGTH);

	/* PKCS#1 v1.5 signatures: another hash, a broken DigestInfo */
	rnd_bytes(h, hl);
	assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, h, hl, ct, len,
	    &g_rng), VG_OK);
	assert_int_equal(vg_rsa_pkcs1_verify(pub, VG_HASH_SHA256, h, hl, ct,
	    len), VG_OK);
	assert_int_equal(vg_rsa_pkcs1_verify(pub, VG_HASH_SHA3_256, h, hl, ct,
	    len), VG_ERR_AUTH);
	assert_int_equal(vg_rsa_pkcs1_verify(pub, VG_HASH_SHA256, h, hl, ct,
	    len - 1), VG_ERR_AUTH);
	assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_SHA256, h, hl - 1, ct,
	    len, &g_rng), VG_ERR_ARG);
	/* T too long for the modulus */
	assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_COUNT, em, len - 10,
	    ct, len, &g_rng), VG_ERR_LENGTH);
	assert_int_equal(vg_rsa_pkcs1_sign(&k, VG_HASH_COUNT, em, len - 11,
	    ct, len, &g_rng), VG_OK);
	assert_int_equal(vg_rsa_pkcs1_verify(pub, VG_HASH_COUNT, em, len - 11,
	    ct, len), VG_OK);
	/* PSS: a salt that does not fit */
	assert_int_equal(vg_rsa_pss_sign(&k, VG_HASH_SHA256, VG_HASH_SHA256,
	    len - hl - 1, h, hl, ct, len, &g_rng), VG_ERR_LENGTH);
	assert_int_equal(vg_rsa_pss_verify(pub, VG_HASH_SHA256, VG_HASH_SHA256,
	    len - hl - 1, h, hl, ct, len), VG_ERR_AUTH);
	vg_rsa_key_wipe(&k);
	EVP_PKEY_free(pk);
}

static int
setup(void **state)
{
	(void)state;
	return vg_rng_init(&g_rng) == VG_OK ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answer),
		cmocka_unit_test(test_openssl_cross),
		cmocka_unit_test(test_malformed),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x525341ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu, kernels in use: %s\n",
	    (unsigned long long)rng_state, vg_kernels()->rsa.impl);
	return cmocka_run_group_tests(tests, setup, NULL);
}
