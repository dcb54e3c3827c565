/*
 * Unit tests of crypto/c25519.h: the known answers of RFC 7748 (§5.2, with
 * the 1 and 1 000 iteration values, and the §6.1 exchange) and RFC 8032
 * (§7.1 Ed25519, §7.2 Ed25519ctx, §7.3 Ed25519ph), key generation, the
 * fixed-base multiplication against the variable-time one, the X25519
 * public key (Ed25519 comb) against the ladder, the scalar arithmetic
 * modulo L against a bit-by-bit reference, and the inputs
 * that must be refused (low-order X25519 peers, public keys that are not
 * points or not canonical, S >= L, wrong lengths, contexts, NULL).
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

#include "crypto/c25519.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "tests/xorshift.h"

static size_t
unhex(uint8_t *out, size_t max, const char *s)
{
	size_t i, n = strlen(s) / 2;

	assert_int_equal(strlen(s) % 2, 0);
	assert_true(n <= max);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static void
assert_hex(const uint8_t *got, const char *want)
{
	uint8_t w[64];
	size_t n = unhex(w, sizeof(w), want);

	assert_memory_equal(got, w, n);
}

/* ------------------------------------------------------------ X25519 */

struct x_kat {
	const char *k, *u, *out;
};

/* RFC 7748 §5.2; the second u has its top bit set (ignored). */
static const struct x_kat x_kats[] = {
	{ "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
	  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
	  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
	{ "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
	  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
	  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
};

static void
test_x25519_kat(void **state)
{
	uint8_t k[32], u[32], out[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(x_kats) / sizeof(x_kats[0]); i++) {
		unhex(k, 32, x_kats[i].k);
		unhex(u, 32, x_kats[i].u);
		assert_int_equal(vg_x25519(out, k, u), VG_OK);
		assert_hex(out, x_kats[i].out);
	}
}

/* RFC 7748 §5.2: k = u = 9, then (k, u) = (X25519(k, u), k). */
static void
test_x25519_iterated(void **state)
{
	uint8_t k[32] = { 9 }, u[32] = { 9 }, r[32];
	int i;

	(void)state;
	for (i = 1; i <= 1000; i++) {
		assert_int_equal(vg_x25519(r, k, u), VG_OK);
		memcpy(u, k, 32);
		memcpy(k, r, 32);
		if (i == 1)
			assert_hex(k, "422c8e7a6227d7bca1350b3e2bb7279f"
			    "7897b87bb6854b783c60e80311ae3079");
	}
	assert_hex(k, "684cf59ba83309552800ef566f2f4d3c"
	    "1c3887c49360e3875f2eb94d99532c51");
}

/* RFC 7748 §6.1. */
static void
test_x25519_dh(void **state)
{
	uint8_t a[32], b[32], pa[32], pb[32], s1[32], s2[32];

	(void)state;
	unhex(a, 32, "77076d0a7318a57d3c16c17251b26645"
	    "df4c2f87ebc0992ab177fba51db92c2a");
	unhex(b, 32, "5dab087e624a8a4b79e17f8b83800ee6"
	    "6f3bb1292618b6fd1c2f8b27ff88e0eb");
	assert_int_equal(vg_x25519_public(pa, a), VG_OK);
	assert_hex(pa, "8520f0098930a754748b7ddcb43ef75a"
	    "0dbf3a0d26381af4eba4a98eaa9b4e6a");
	assert_int_equal(vg_x25519_public(pb, b), VG_OK);
	assert_hex(pb, "de9edb7d7b7dc1b4d35b61c2ece43537"
	    "3f8343c85b78674dadfc7e146f882b4f");
	assert_int_equal(vg_x25519(s1, a, pb), VG_OK);
	assert_int_equal(vg_x25519(s2, b, pa), VG_OK);
	assert_memory_equal(s1, s2, 32);
	assert_hex(s1, "4a5d9d5ba4ce2de1728e3bf480350f25"
	    "e07e21c947d19e3376f09b3c1e161742");
}

static void
test_x25519_keygen(void **state)
{
	struct vg_rng rng, bad;
	uint8_t sk[32], pk[32], pk2[32], sk2[32], pk3[32], s1[32], s2[32];

	(void)state;
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	assert_int_equal(vg_x25519_keygen(&rng, sk, pk), VG_OK);
	assert_int_equal(vg_x25519_public(pk2, sk), VG_OK);
	assert_memory_equal(pk, pk2, 32);
	assert_int_equal(vg_x25519_keygen(&rng, sk2, pk3), VG_OK);
	assert_memory_not_equal(sk, sk2, 32);
	assert_int_equal(vg_x25519(s1, sk, pk3), VG_OK);
	assert_int_equal(vg_x25519(s2, sk2, pk), VG_OK);
	assert_memory_equal(s1, s2, 32);
	memset(&bad, 0, sizeof(bad)); /* not seeded: the DRBG fails */
	memset(sk2, 0xa5, 32);
	assert_int_equal(vg_x25519_keygen(&bad, sk2, pk3), VG_ERR_RANDOM);
	assert_int_equal(sk2[0], 0xa5);
	assert_int_equal(vg_x25519_keygen(NULL, sk2, pk3), VG_ERR_ARG);
	assert_int_equal(vg_x25519_keygen(&rng, NULL, pk3), VG_ERR_ARG);
	assert_int_equal(vg_x25519_keygen(&rng, sk2, NULL), VG_ERR_ARG);
	vg_rng_wipe(&rng);
}

/* The public key through the Ed25519 comb agrees with the ladder on
 * u = 9: random scalars, and those whose clamped value is the smallest
 * and largest (every digit of the comb at its extremes). */
static void
test_x25519_public_ladder(void **state)
{
	static const uint8_t nine[32] = { 9 };
	uint8_t k[32], pk[32], want[32];
	uint64_t x = 0x243f6a8885a308d3ULL;
	int i;

	(void)state;
	for (i = 0; i < 256; i++) {
		vg_xorshift_bytes(&x, k, 32);
		if (i == 0)
			memset(k, 0, 32);
		if (i == 1)
			memset(k, 0xff, 32);
		if (i == 2)
			memset(k, 0x88, 32);
		if (i == 3)
			memset(k, 0x77, 32);
		assert_int_equal(vg_x25519_public(pk, k), VG_OK);
		vg_x25519_ladder_c(want, k, nine);
		assert_memory_equal(pk, want, 32);
	}
}

/* Peers whose result is all zero: the points of order 1, 2, 4 and 8
 * ([RFC 7748 §6.1] allows the check), and non-canonical encodings of 0
 * and 1 (p and p + 1). */
static const char *const x_low_order[] = {
	"0000000000000000000000000000000000000000000000000000000000000000",
	"0100000000000000000000000000000000000000000000000000000000000000",
	"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
	"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
};

static void
test_x25519_bad(void **state)
{
	uint8_t k[32], u[32], out[32];
	size_t i;

	(void)state;
	unhex(k, 32, x_kats[0].k);
	for (i = 0; i < sizeof(x_low_order) / sizeof(x_low_order[0]); i++) {
		unhex(u, 32, x_low_order[i]);
		memset(out, 0xa5, 32);
		assert_int_equal(vg_x25519(out, k, u), VG_ERR_DECODE);
		assert_true(out[0] == 0 && memcmp(out, out + 1, 31) == 0);
	}
	assert_int_equal(vg_x25519(NULL, k, u), VG_ERR_ARG);
	assert_int_equal(vg_x25519(out, NULL, u), VG_ERR_ARG);
	assert_int_equal(vg_x25519(out, k, NULL), VG_ERR_ARG);
	assert_int_equal(vg_x25519_public(NULL, k), VG_ERR_ARG);
	assert_int_equal(vg_x25519_public(out, NULL), VG_ERR_ARG);
}

/* ------------------------------------------------------------ Ed25519 */

struct ed_kat {
	enum vg_ed25519_variant v;
	const char *seed, *pk, *msg, *ctx, *sig;
};

static const char msg1023[] =
    "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98"
    "fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
    "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
    "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
    "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe"
    "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
    "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef"
    "efd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
    "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
    "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
    "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24"
    "554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
    "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc"
    "2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
    "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
    "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
    "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429e"
    "c96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
    "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c"
    "42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
    "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
    "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
    "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649"
    "de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
    "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3"
    "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
    "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
    "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
    "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1"
    "369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
    "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c"
    "0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0";

/* RFC 8032 §7.1 (TEST 1, 2, 3, 1024, SHA(abc)), §7.2 (foo, bar, foo2,
 * foo3) and §7.3 (abc). A message of NULL stands for msg1023. */
static const struct ed_kat ed_kats[] = {
	{ VG_ED25519_PURE,
	  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "", "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	  "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ VG_ED25519_PURE,
	  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72", "",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
	  "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ VG_ED25519_PURE,
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82", "",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
	  "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
	{ VG_ED25519_PURE,
	  "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
	  "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
	  NULL, "",
	  "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350"
	  "aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03" },
	{ VG_ED25519_PURE,
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	  "",
	  "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
	  "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704" },
	{ VG_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "f726936d19c800494e3fdaff20b276a8", "666f6f",
	  "55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a"
	  "8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d" },
	{ VG_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "f726936d19c800494e3fdaff20b276a8", "626172",
	  "fc60d5872fc46b3aa69f8b5b4351d5808f92bcc044606db097abab6dbcb1aee3"
	  "216c48e8b3b66431b5b186d1d28f8ee15a5ca2df6668346291c2043d4eb3e90d" },
	{ VG_ED25519_CTX,
	  "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
	  "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
	  "508e9e6882b979fea900f62adceaca35", "666f6f",
	  "8b70c1cc8310e1de20ac53ce28ae6e7207f33c3295e03bb5c0732a1d20dc6490"
	  "8922a8b052cf99b7c4fe107a5abb5b2c4085ae75890d02df26269d8945f84b0b" },
	{ VG_ED25519_CTX,
	  "ab9c2853ce297ddab85c993b3ae14bcad39b2c682beabc27d6d4eb20711d6560",
	  "0f1d1274943b91415889152e893d80e93275a1fc0b65fd71b4b0dda10ad7d772",
	  "f726936d19c800494e3fdaff20b276a8", "666f6f",
	  "21655b5f1aa965996b3f97b3c849eafba922a0a62992f73b3d1b73106a84ad85"
	  "e9b86a7b6005ea868337ff2d20a7f5fbd4cd10b0be49a68da2b2e0dc0ad8960f" },
	{ VG_ED25519_PH,
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "616263", "",
	  "98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae41"
	  "31f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406" },
};

static void
test_ed25519_kat(void **state)
{
	static uint8_t msg[1024];
	uint8_t seed[32], pk[32], pk2[32], ctx[8], sig[64], sig2[64];
	size_t i, mlen, clen;

	(void)state;
	for (i = 0; i < sizeof(ed_kats) / sizeof(ed_kats[0]); i++) {
		const struct ed_kat *t = &ed_kats[i];

		unhex(seed, 32, t->seed);
		unhex(pk, 32, t->pk);
		mlen = unhex(msg, sizeof(msg), t->msg ? t->msg : msg1023);
		clen = unhex(ctx, sizeof(ctx), t->ctx);
		unhex(sig, 64, t->sig);
		assert_int_equal(vg_ed25519_public(pk2, seed), VG_OK);
		assert_memory_equal(pk2, pk, 32);
		assert_int_equal(vg_ed25519_check_public(pk), VG_OK);
		assert_int_equal(vg_ed25519_sign(t->v, seed, pk, msg, mlen, ctx,
		    clen, sig2), VG_OK);
		assert_memory_equal(sig2, sig, 64);
		assert_int_equal(vg_ed25519_verify(t->v, pk, msg, mlen, ctx,
		    clen, sig, 64), VG_OK);
		/* a flipped bit in the signature, the message or the context,
		 * or another variant, fails */
		sig2[i % 64] ^= 0x10;
		assert_int_equal(vg_ed25519_verify(t->v, pk, msg, mlen, ctx,
		    clen, sig2, 64), VG_ERR_AUTH);
		if (mlen > 0) {
			msg[mlen - 1] ^= 1;
			assert_int_equal(vg_ed25519_verify(t->v, pk, msg, mlen,
			    ctx, clen, sig, 64), VG_ERR_AUTH);
			msg[mlen - 1] ^= 1;
		}
		if (clen > 0) {
			ctx[0] ^= 1;
			assert_int_equal(vg_ed25519_verify(t->v, pk, msg, mlen,
			    ctx, clen, sig, 64), VG_ERR_AUTH);
			ctx[0] ^= 1;
		}
		if (t->v != VG_ED25519_PURE)
			assert_int_equal(vg_ed25519_verify(t->v == VG_ED25519_PH
			    ? VG_ED25519_CTX : VG_ED25519_PH, pk, msg, mlen,
			    "foo", 3, sig, 64), VG_ERR_AUTH);
	}
}

/* VG_ED25519_PH_DIGEST takes PH(M) = SHA-512(M): RFC 8032 §7.3 through
 * it gives the vector's signature; a digest of another length is
 * VG_ERR_ARG, and a wrong digest does not verify. */
static void
test_ed25519_ph_digest(void **state)
{
	const struct ed_kat *t = &ed_kats[sizeof(ed_kats) / sizeof(ed_kats[0])
	    - 1];
	uint8_t seed[32], pk[32], sig[64], sig2[64], ph[64];

	(void)state;
	assert_int_equal(t->v, VG_ED25519_PH);
	unhex(seed, 32, t->seed);
	unhex(pk, 32, t->pk);
	unhex(sig, 64, t->sig);
	vg_hash(VG_HASH_SHA512, "abc", 3, ph);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PH_DIGEST, seed, pk, ph,
	    64, NULL, 0, sig2), VG_OK);
	assert_memory_equal(sig2, sig, 64);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PH_DIGEST, pk, ph, 64,
	    NULL, 0, sig, 64), VG_OK);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PH_DIGEST, seed, pk, ph,
	    63, NULL, 0, sig2), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PH_DIGEST, pk, ph, 65,
	    NULL, 0, sig, 64), VG_ERR_ARG);
	ph[63] ^= 1;
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PH_DIGEST, pk, ph, 64,
	    NULL, 0, sig, 64), VG_ERR_AUTH);
}

static void
test_ed25519_keygen(void **state)
{
	struct vg_rng rng, bad;
	uint8_t seed[32], pk[32], pk2[32], sig[64];

	(void)state;
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	assert_int_equal(vg_ed25519_keygen(&rng, seed, pk), VG_OK);
	assert_int_equal(vg_ed25519_public(pk2, seed), VG_OK);
	assert_memory_equal(pk, pk2, 32);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, pk, "hi", 2,
	    NULL, 0, sig), VG_OK);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, "hi", 2, NULL,
	    0, sig, 64), VG_OK);
	memset(&bad, 0, sizeof(bad));
	memset(seed, 0xa5, 32);
	assert_int_equal(vg_ed25519_keygen(&bad, seed, pk), VG_ERR_RANDOM);
	assert_int_equal(seed[0], 0xa5);
	assert_int_equal(vg_ed25519_keygen(NULL, seed, pk), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_keygen(&rng, NULL, pk), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_keygen(&rng, seed, NULL), VG_ERR_ARG);
	vg_rng_wipe(&rng);
}

/* The comb's recoding against the digit-by-digit carries it replaces
 * (digit plus carry, carry out when that reaches 8), and sum e[i] 16^i
 * = a rebuilt from the digits, on edge scalars (0, all 0xff below and
 * above 2^255, every nibble 7, 8 or 15) and random ones. */
static void
test_sc25519_recode16(void **state)
{
	int8_t e[64], r[64];
	uint8_t a[32], b[32];
	uint64_t x = 0x0123456789abcdefULL;
	int i, n, c, v;

	(void)state;
	for (n = 0; n < 512; n++) {
		vg_xorshift_bytes(&x, a, 32);
		if (n < 6)
			memset(a, (const int[]){ 0, 0xff, 0x77, 0x88, 0xff,
			    0xf8 }[n], 32);
		if (n != 4 && n != 5)
			a[31] &= 0x7f;
		vg_sc25519_recode16(e, a);
		c = 0;
		for (i = 0; i < 64; i++) {
			v = ((a[i / 2] >> (4 * (i % 2))) & 15) + c;
			c = i < 63 && v >= 8;
			r[i] = (int8_t)(v - 16 * c);
		}
		assert_memory_equal(e, r, 64);
		/* a from the digits, from the top: b = 16 b + e[i] */
		memset(b, 0, 32);
		for (i = 63; i >= 0; i--) {
			c = e[i];
			assert_true(c >= -8 && c <= (n == 4 || n == 5 ? 16 : 8));
			for (v = 0; v < 32; v++) {
				c += b[v] << 4;
				b[v] = (uint8_t)c;
				c >>= 8;
			}
		}
		assert_memory_equal(a, b, 32);
	}
}

/* The ADX comb's radix-32 recoding: digits in range (e[51] 0 or 1) and
 * sum e[i] 32^i = a rebuilt from them, on the edge and random scalars
 * below 2^255 of the radix-16 test, 2^253 - 1 and 2^254; e[51] = 0
 * below 2^253 (the short comb of signing) and 1 from 2^254 up (clamped
 * scalars). */
static void
test_sc25519_recode32(void **state)
{
	int8_t e[VG_ED25519_DIGITS32];
	uint8_t a[32], b[33];
	uint64_t x = 0x0123456789abcdefULL;
	int i, n, c, v;

	(void)state;
	for (n = 0; n < 512; n++) {
		vg_xorshift_bytes(&x, a, 32);
		if (n < 6)
			memset(a, (const int[]){ 0, 0xff, 0x77, 0x88, 0x84,
			    0x21 }[n], 32);
		a[31] &= 0x7f;
		if (n == 6) {
			memset(a, 0xff, 32);
			a[31] = 0x1f;
		}
		if (n == 7) {
			memset(a, 0, 32);
			a[31] = 0x40;
		}
		vg_sc25519_recode32(e, a);
		if (a[31] < 0x20)
			assert_int_equal(e[VG_ED25519_DIGITS32 - 1], 0);
		if (a[31] >= 0x40)
			assert_int_equal(e[VG_ED25519_DIGITS32 - 1], 1);
		memset(b, 0, sizeof(b));
		for (i = VG_ED25519_DIGITS32 - 1; i >= 0; i--) {
			c = e[i];
			if (i == VG_ED25519_DIGITS32 - 1)
				assert_true(c == 0 || c == 1);
			else
				assert_true(c >= -16 && c <= 15);
			for (v = 0; v < 33; v++) {
				c += b[v] << 5;
				b[v] = (uint8_t)c;
				c >>= 8;
			}
		}
		assert_memory_equal(a, b, 32);
		assert_int_equal(b[32], 0);
	}
}

/* The constant-time comb against the variable-time double multiplication
 * ([a] B = [0] A + [a] B) on random and edge scalars. */
static void
test_ed25519_base_mult(void **state)
{
	struct vg_ge25519 p, q;
	uint8_t a[32], zero[32] = { 0 }, e1[32], e2[32];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int i;

	(void)state;
	for (i = 0; i < 64; i++) {
		vg_xorshift_bytes(&x, a, 32);
		if (i == 0)
			memset(a, 0, 32);
		if (i == 1)
			memset(a, 0xff, 32);
		if (i == 2)
			memset(a, 0x88, 32); /* every digit 8: the top entry */
		a[31] &= 0x7f;
		vg_ge25519_scalarmult_base(&p, a);
		vg_ge25519_double_scalarmult_vartime(&q, zero,
		    &vg_ed25519_base, a);
		vg_ge25519_tobytes(e1, &p);
		vg_ge25519_tobytes(e2, &q);
		assert_memory_equal(e1, e2, 32);
	}
}

static void
test_ed25519_bad(void **state)
{
	const struct ed_kat *t = &ed_kats[0];
	uint8_t seed[32], pk[32], sig[64], bad[64], big[300];
	static const char *const not_points[] = {
		/* y = 2: (y^2 - 1) / (d y^2 + 1) is not a square */
		"0200000000000000000000000000000000000000000000000000000000000000",
		/* y = p (non-canonical 0) */
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		/* y = p + 1 (non-canonical 1) */
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		/* y = 1, x = 0 with the sign bit set */
		"0100000000000000000000000000000000000000000000000000000000000080",
	};
	size_t i;

	(void)state;
	unhex(seed, 32, t->seed);
	unhex(pk, 32, t->pk);
	unhex(sig, 64, t->sig);
	memset(big, 0, sizeof(big));

	for (i = 0; i < sizeof(not_points) / sizeof(not_points[0]); i++) {
		uint8_t np[32];

		unhex(np, 32, not_points[i]);
		assert_int_equal(vg_ed25519_check_public(np), VG_ERR_DECODE);
		assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, np, NULL, 0,
		    NULL, 0, sig, 64), VG_ERR_DECODE);
		/* signing trusts pk (crypto/c25519.h): not checked there */
	}
	assert_int_equal(vg_ed25519_check_public(NULL), VG_ERR_DECODE);

	/* S + L and S = L: refused (malleability) */
	memcpy(bad, sig, 64);
	unhex(bad + 32, 32, "4c8c7872aa064e049dbb3013fbf29380"
	    "d25bf5f0595bbe24655141438e7a101b");
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, NULL,
	    0, bad, 64), VG_ERR_AUTH);
	unhex(bad + 32, 32, "edd3f55c1a631258d69cf7a2def9de14"
	    "00000000000000000000000000000010");
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, NULL,
	    0, bad, 64), VG_ERR_AUTH);

	/* lengths */
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, NULL,
	    0, sig, 63), VG_ERR_LENGTH);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, NULL,
	    0, sig, 65), VG_ERR_LENGTH);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, NULL,
	    0, sig, 0), VG_ERR_LENGTH);

	/* contexts: none for pure, non-empty for ctx, at most 255 */
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, pk, NULL, 0,
	    "a", 1, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_CTX, seed, pk, NULL, 0,
	    NULL, 0, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PH, seed, pk, NULL, 0,
	    big, 256, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PH, seed, pk, NULL, 0,
	    big, 255, bad), VG_OK);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PH, pk, NULL, 0, big, 255,
	    bad, 64), VG_OK);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0, "a", 1,
	    sig, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_CTX, pk, NULL, 0, NULL, 0,
	    sig, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_CTX, pk, NULL, 0, big,
	    256, sig, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify((enum vg_ed25519_variant)7, pk,
	    NULL, 0, NULL, 0, sig, 64), VG_ERR_ARG);

	/* NULL */
	assert_int_equal(vg_ed25519_public(NULL, seed), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_public(pk, NULL), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, NULL, pk, NULL, 0,
	    NULL, 0, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, NULL, NULL, 0,
	    NULL, 0, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, pk, NULL, 0,
	    NULL, 0, NULL), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, pk, NULL, 1,
	    NULL, 0, bad), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, NULL, NULL, 0,
	    NULL, 0, sig, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 1,
	    NULL, 0, sig, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0,
	    NULL, 0, NULL, 64), VG_ERR_ARG);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_CTX, pk, NULL, 0,
	    NULL, 3, sig, 64), VG_ERR_ARG);

	/* pk is trusted (crypto/c25519.h): a foreign one gives a signature
	 * that verifies under neither key */
	unhex(pk, 32, ed_kats[1].pk);
	assert_int_equal(vg_ed25519_sign(VG_ED25519_PURE, seed, pk, NULL, 0,
	    NULL, 0, bad), VG_OK);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0,
	    NULL, 0, bad, 64), VG_ERR_AUTH);
	vg_ed25519_public(pk, seed);
	assert_int_equal(vg_ed25519_verify(VG_ED25519_PURE, pk, NULL, 0,
	    NULL, 0, bad, 64), VG_ERR_AUTH);
}

/* ------------------------------------------------ scalars modulo L */

/* L, little-endian */
static const uint8_t SC_L[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
	0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0x10,
};

/* out = in mod L for an n-byte little-endian in, one bit at a time from
 * the top: acc = 2 acc + bit, minus L when it reaches L (acc < 2^254). */
static void
ref_mod_l(uint8_t out[32], const uint8_t *in, size_t n)
{
	uint8_t acc[32] = { 0 };
	size_t bit;
	int i;

	for (bit = 8 * n; bit-- > 0;) {
		unsigned c = (in[bit / 8] >> (bit % 8)) & 1, ge = 1, b = 0;

		for (i = 0; i < 32; i++) {
			unsigned v = ((unsigned)acc[i] << 1) | c;

			acc[i] = (uint8_t)v;
			c = v >> 8;
		}
		for (i = 31; i >= 0; i--)
			if (acc[i] != SC_L[i]) {
				ge = acc[i] > SC_L[i];
				break;
			}
		if (!ge)
			continue;
		for (i = 0; i < 32; i++) {
			int d = acc[i] - SC_L[i] - (int)b;

			acc[i] = (uint8_t)d;
			b = d < 0;
		}
	}
	memcpy(out, acc, 32);
}

/* s = (r + (h mod L) a) mod L by the reference: the 96-byte product
 * h a plus r, reduced. */
static void
ref_muladd64(uint8_t s[32], const uint8_t r[32], const uint8_t h[64],
    const uint8_t a[32])
{
	uint8_t p[97] = { 0 };
	unsigned c;
	int i, j;

	for (i = 0; i < 64; i++) {
		c = 0;
		for (j = 0; j < 32; j++) {
			unsigned v = p[i + j] + (unsigned)h[i] * a[j] + c;

			p[i + j] = (uint8_t)v;
			c = v >> 8;
		}
		for (j = i + 32; c != 0; j++) {
			unsigned v = p[j] + c;

			p[j] = (uint8_t)v;
			c = v >> 8;
		}
	}
	c = 0;
	for (i = 0; i < 97; i++) {
		unsigned v = p[i] + (i < 32 ? r[i] : 0) + c;

		p[i] = (uint8_t)v;
		c = v >> 8;
	}
	ref_mod_l(s, p, sizeof(p));
}

/* vg_sc25519_reduce64 and vg_sc25519_muladd64 against the reference on
 * edge values (0, 1, L - 1, L, L + 1, 2^252, 2^256 - 1, L 2^256, 2^512 -
 * 1, and r = L - 1 with the largest h and a) and random ones. */
static void
test_sc25519_ops(void **state)
{
	uint8_t edge[10][64], h[64], a[32], r[32], got[32], want[32];
	uint64_t rs = 0x4c4c4c4cULL;
	size_t i, j, n;

	(void)state;
	memset(edge, 0, sizeof(edge));
	edge[1][0] = 1;                         /* 1 */
	memcpy(edge[2], SC_L, 32);
	edge[2][0] -= 1;                        /* L - 1 */
	memcpy(edge[3], SC_L, 32);              /* L */
	memcpy(edge[4], SC_L, 32);
	edge[4][0] += 1;                        /* L + 1 */
	edge[5][31] = 0x10;                     /* 2^252 */
	memset(edge[6], 0xff, 32);              /* 2^256 - 1 */
	memcpy(edge[7] + 32, SC_L, 32);         /* L 2^256 */
	memset(edge[8], 0xff, 64);              /* 2^512 - 1 */
	memset(edge[9], 0xff, 64);
	edge[9][63] = 0x7f;                     /* 2^511 - 1 */
	n = sizeof(edge) / sizeof(edge[0]);
	for (i = 0; i < n; i++) {
		vg_sc25519_reduce64(got, edge[i]);
		ref_mod_l(want, edge[i], 64);
		assert_memory_equal(got, want, 32);
		for (j = 0; j < n; j++) {
			/* r < L: the reduced edge value; a < 2^256: its low
			 * half */
			ref_mod_l(r, edge[j], 64);
			memcpy(a, edge[(i + j) % n], 32);
			vg_sc25519_muladd64(got, r, edge[i], a);
			ref_muladd64(want, r, edge[i], a);
			assert_memory_equal(got, want, 32);
		}
	}
	/* the results are canonical: L - 1 stays, L becomes 0 */
	vg_sc25519_reduce64(got, edge[2]);
	assert_memory_equal(got, edge[2], 32);
	vg_sc25519_reduce64(got, edge[3]);
	assert_memory_equal(got, edge[0], 32);

	for (i = 0; i < 2000; i++) {
		for (j = 0; j < 64; j++)
			h[j] = (uint8_t)(vg_xorshift64s(&rs) >> 56);
		for (j = 0; j < 32; j++) {
			a[j] = (uint8_t)(vg_xorshift64s(&rs) >> 56);
			r[j] = (uint8_t)(vg_xorshift64s(&rs) >> 56);
		}
		if (i % 2 == 0) { /* a clamped secret scalar, as signing has */
			a[0] &= 248;
			a[31] = (uint8_t)((a[31] & 127) | 64);
		}
		r[31] &= 0x0f; /* below 2^252 < L */
		vg_sc25519_reduce64(got, h);
		ref_mod_l(want, h, 64);
		assert_memory_equal(got, want, 32);
		vg_sc25519_muladd64(got, r, h, a);
		ref_muladd64(want, r, h, a);
		assert_memory_equal(got, want, 32);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x25519_kat),
		cmocka_unit_test(test_x25519_iterated),
		cmocka_unit_test(test_x25519_dh),
		cmocka_unit_test(test_x25519_keygen),
		cmocka_unit_test(test_x25519_public_ladder),
		cmocka_unit_test(test_x25519_bad),
		cmocka_unit_test(test_ed25519_ph_digest),
		cmocka_unit_test(test_ed25519_kat),
		cmocka_unit_test(test_ed25519_keygen),
		cmocka_unit_test(test_ed25519_base_mult),
		cmocka_unit_test(test_ed25519_bad),
		cmocka_unit_test(test_sc25519_ops),
		cmocka_unit_test(test_sc25519_recode16),
		cmocka_unit_test(test_sc25519_recode32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
