/*
 * Unit tests of crypto/hash.h: known answers from the standards (FIPS
 * 180-4 and FIPS 202 examples, RFC 4231, RFC 2202, RFC 6070, RFC 5869),
 * then a cross-check against OpenSSL's libcrypto on random inputs.
 * Random inputs come from a seeded generator; VG_TEST_SEED=<n> replays a
 * run (the seed is printed).
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

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "crypto/cpu.h"
#include "crypto/hash.h"
#include "tests/xorshift.h"

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

/* Uniform-enough integer in [0, n]. */
static size_t
rnd_upto(size_t n)
{
	return (size_t)(rnd() % ((uint64_t)n + 1));
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

/* Decodes a hex string into a malloc'ed buffer; *len gets its length. */
static uint8_t *
unhex(const char *s, size_t *len)
{
	size_t n = strlen(s) / 2, i;
	uint8_t *p = malloc(n + 1);

	assert_non_null(p);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		p[i] = (uint8_t)v;
	}
	*len = n;
	return p;
}

static void
assert_hex(const uint8_t *got, size_t len, const char *want)
{
	size_t n;
	uint8_t *w = unhex(want, &n);

	assert_int_equal(len, n);
	assert_memory_equal(got, w, n);
	free(w);
}

static uint8_t *
filled(uint8_t byte, size_t n)
{
	uint8_t *p = malloc(n + 1);

	assert_non_null(p);
	memset(p, byte, n);
	return p;
}

static const EVP_MD *
evp_md(enum vg_hash_alg alg)
{
	switch (alg) {
	case VG_HASH_SHA1: return EVP_sha1();
	case VG_HASH_SHA224: return EVP_sha224();
	case VG_HASH_SHA256: return EVP_sha256();
	case VG_HASH_SHA384: return EVP_sha384();
	case VG_HASH_SHA512: return EVP_sha512();
	case VG_HASH_SHA3_224: return EVP_sha3_224();
	case VG_HASH_SHA3_256: return EVP_sha3_256();
	case VG_HASH_SHA3_384: return EVP_sha3_384();
	case VG_HASH_SHA3_512: return EVP_sha3_512();
	case VG_HASH_SHA512_224: return EVP_sha512_224();
	case VG_HASH_SHA512_256: return EVP_sha512_256();
	default: return NULL;
	}
}

static int
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= b[i];
	return acc == 0;
}

/* ------------------------------------------------- digest known answers */

static const char M448[] =
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char M896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

/* Digests of "", "abc", M448, M896 and one million 'a' [FIPS 180-4 and
 * FIPS 202 examples, NIST CSRC; SHA-512/t: the NIST examples where there
 * are some, the rest from OpenSSL]. One row per vg_hash_alg, in enum
 * order. */
static const struct {
	enum vg_hash_alg alg;
	const char *md[5];
} digest_kats[] = {
	{ VG_HASH_SHA1, {
	    "da39a3ee5e6b4b0d3255bfef95601890afd80709",
	    "a9993e364706816aba3e25717850c26c9cd0d89d",
	    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
	    "a49b2446a02c645bf419f995b67091253a04a259",
	    "34aa973cd4c4daa4f61eeb2bdbad27316534016f" } },
	{ VG_HASH_SHA224, {
	    "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
	    "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
	    "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
	    "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
	    "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67" } },
	{ VG_HASH_SHA256, {
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" } },
	{ VG_HASH_SHA384, {
	    "38b060a751ac96384cd9327eb1b1e36a21fdb71114be0743"
	    "4c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
	    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
	    "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
	    "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05ab"
	    "fe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
	    "09330c33f71147e83d192fc782cd1b4753111b173b3b05d2"
	    "2fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
	    "9d0e1809716474cb086e834e310a4a1ced149e9c00f24852"
	    "7972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985" } },
	{ VG_HASH_SHA512, {
	    "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
	    "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
	    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	    "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
	    "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
	    "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	    "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
	    "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
	    "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" } },
	{ VG_HASH_SHA3_224, {
	    "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
	    "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
	    "8a24108b154ada21c9fd5574494479ba5c7e7ab76ef264ead0fcce33",
	    "543e6868e1666c1a643630df77367ae5a62a85070a51c14cbf665cbc",
	    "d69335b93325192e516a912e6d19a15cb51c6ed5c15243e7a7fd653c" } },
	{ VG_HASH_SHA3_256, {
	    "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
	    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
	    "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376",
	    "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18",
	    "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1" } },
	{ VG_HASH_SHA3_384, {
	    "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61"
	    "995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
	    "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c25"
	    "96da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
	    "991c665755eb3a4b6bbdfb75c78a492e8c56a22c5c4d7e42"
	    "9bfdbc32b9d4ad5aa04a1f076e62fea19eef51acd0657c22",
	    "79407d3b5916b59c3e30b09822974791c313fb9ecc849e40"
	    "6f23592d04f625dc8c709b98b43b3852b337216179aa7fc7",
	    "eee9e24d78c1855337983451df97c8ad9eedf256c6334f8e"
	    "948d252d5e0e76847aa0774ddb90a842190d2c558b4b8340" } },
	{ VG_HASH_SHA3_512, {
	    "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
	    "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
	    "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
	    "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
	    "04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636d"
	    "ee691fbe0c985302ba1b0d8dc78c086346b533b49c030d99a27daf1139d6e75e",
	    "afebb2ef542e6579c50cad06d2e578f9f8dd6881d7dc824d26360feebf18a4fa"
	    "73e3261122948efcfd492e74e82e2189ed0fb440d187f382270cb455f21dd185",
	    "3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859"
	    "ed311d0a9d5141ce9cc5c66ee689b266a8aa18ace8282a0e0db596c90b0a7b87" } },
	{ VG_HASH_SHA512_224, {
	    "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4",
	    "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
	    "e5302d6d54bb242275d1e7622d68df6eb02dedd13f564c13dbda2174",
	    "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9",
	    "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287" } },
	{ VG_HASH_SHA512_256, {
	    "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
	    "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
	    "bde8e1f9f19bb9fd3406c90ec6bc47bd36d8ada9f11880dbc8a22a7078b6a461",
	    "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a",
	    "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21" } },
};

static void
test_lengths(void **state)
{
	static const size_t len[] = { 20, 28, 32, 48, 64, 28, 32, 48, 64,
		28, 32 };
	static const size_t blk[] = { 64, 64, 64, 128, 128, 144, 136, 104, 72,
		128, 128 };
	unsigned a;

	(void)state;
	for (a = 0; a < VG_HASH_COUNT; a++) {
		assert_int_equal(vg_hash_len(a), len[a]);
		assert_int_equal(vg_hash_block_len(a), blk[a]);
		assert_true(vg_hash_len(a) <= VG_HASH_MAX_LEN);
		assert_true(vg_hash_block_len(a) <= VG_HASH_MAX_BLOCK);
	}
	assert_int_equal(vg_hash_len(VG_HASH_COUNT), 0);
	assert_int_equal(vg_hash_block_len(VG_HASH_COUNT), 0);
	assert_int_equal(vg_hash_len((enum vg_hash_alg)-1), 0);
}

static void
test_digest_kat(void **state)
{
	const char *msgs[4] = { "", "abc", M448, M896 };
	uint8_t out[VG_HASH_MAX_LEN], *million = filled('a', 1000000);
	struct vg_hash h;
	size_t i, m, n;

	(void)state;
	assert_int_equal(sizeof(digest_kats) / sizeof(digest_kats[0]),
	    VG_HASH_COUNT);
	for (i = 0; i < VG_HASH_COUNT; i++) {
		enum vg_hash_alg alg = digest_kats[i].alg;
		size_t hl = vg_hash_len(alg);

		for (m = 0; m < 4; m++) {
			memset(out, 0xee, sizeof(out));
			vg_hash(alg, msgs[m], strlen(msgs[m]), out);
			assert_hex(out, hl, digest_kats[i].md[m]);
		}
		/* one million 'a': one shot, then in uneven pieces */
		vg_hash(alg, million, 1000000, out);
		assert_hex(out, hl, digest_kats[i].md[4]);
		vg_hash_init(&h, alg);
		for (n = 0; n < 1000000; n += 997)
			vg_hash_update(&h, million + n,
			    1000000 - n < 997 ? 1000000 - n : 997);
		vg_hash_final(&h, out);
		assert_hex(out, hl, digest_kats[i].md[4]);
	}
	free(million);
}

/* The SHA-512/t initial values of crypto/sha512.c are those of the
 * generation function [FIPS 180-4 §5.3.6]: SHA-512 of the string
 * "SHA-512/t", started from the SHA-512 initial values XOR a5a5...a5. */
static void
test_sha512t_iv(void **state)
{
	static const struct {
		const char *name;
		const uint64_t *iv;
	} rows[] = {
		{ "SHA-512/224", vg_sha512_224_iv },
		{ "SHA-512/256", vg_sha512_256_iv },
	};
	unsigned r, i;

	(void)state;
	for (r = 0; r < 2; r++) {
		uint8_t block[128] = { 0 };
		size_t n = strlen(rows[r].name);
		uint64_t st[8];

		for (i = 0; i < 8; i++)
			st[i] = vg_sha512_iv[i] ^ 0xa5a5a5a5a5a5a5a5ULL;
		memcpy(block, rows[r].name, n);
		block[n] = 0x80;
		block[127] = (uint8_t)(8 * n); /* 88 bits, one block */
		vg_sha512_blocks_c(st, block, 1);
		for (i = 0; i < 8; i++)
			assert_true(st[i] == rows[r].iv[i]);
	}
}

/* A struct copy clones a running hash; final wipes the context; NULL with
 * length 0 is accepted. */
static void
test_clone_and_wipe(void **state)
{
	uint8_t a[VG_HASH_MAX_LEN], b[VG_HASH_MAX_LEN];
	struct vg_hash h, g;
	unsigned alg;

	(void)state;
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		size_t hl = vg_hash_len(alg);

		vg_hash_init(&h, alg);
		vg_hash_update(&h, "a", 1);
		vg_hash_update(&h, NULL, 0);
		g = h; /* clone after "a" */
		vg_hash_update(&h, "bc", 2);
		vg_hash_update(&g, "bc", 2);
		vg_hash_final(&h, a);
		vg_hash_final(&g, b);
		assert_hex(a, hl, digest_kats[alg].md[1]);
		assert_hex(b, hl, digest_kats[alg].md[1]);
		assert_true(all_zero(&h, sizeof(h)));
		assert_true(all_zero(&g, sizeof(g)));
	}
}

/* ---------------------------------------------------- SHAKE known answers */

/* SHAKE128 and SHAKE256 of the empty message, 4096 bits of output (the
 * length of the FIPS 202 example files). */
static const char SHAKE128_EMPTY_512[] =
	"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
	"3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e2"
	"35b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2"
	"badfd6dfaac359a5efbb7bcc4b59d538df9a04302e10c8bc1cbf1a0b3a5120ea"
	"17cda7cfad765f5623474d368ccca8af0007cd9f5e4c849f167a580b14aabdef"
	"aee7eef47cb0fca9767be1fda69419dfb927e9df07348b196691abaeb580b32d"
	"ef58538b8d23f87732ea63b02b4fa0f4873360e2841928cd60dd4cee8cc0d4c9"
	"22a96188d032675c8ac850933c7aff1533b94c834adbb69c6115bad4692d8619"
	"f90b0cdf8a7b9c264029ac185b70b83f2801f2f4b3f70c593ea3aeeb613a7f1b"
	"1de33fd75081f592305f2e4526edc09631b10958f464d889f31ba010250fda7f"
	"1368ec2967fc84ef2ae9aff268e0b1700affc6820b523a3d917135f2dff2ee06"
	"bfe72b3124721d4a26c04e53a75e30e73a7a9c4a95d91c55d495e9f51dd0b5e9"
	"d83c6d5e8ce803aa62b8d654db53d09b8dcff273cdfeb573fad8bcd45578bec2"
	"e770d01efde86e721a3f7c6cce275dabe6e2143f1af18da7efddc4c7b70b5e34"
	"5db93cc936bea323491ccb38a388f546a9ff00dd4e1300b9b2153d2041d205b4"
	"43e41b45a653f2a5c4492c1add544512dda2529833462b71a41a45be97290b6f";
static const char SHAKE256_EMPTY_512[] =
	"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
	"d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
	"141e96616fb13957692cc7edd0b45ae3dc07223c8e92937bef84bc0eab862853"
	"349ec75546f58fb7c2775c38462c5010d846c185c15111e595522a6bcd16cf86"
	"f3d122109e3b1fdd943b6aec468a2d621a7c06c6a957c62b54dafc3be87567d6"
	"77231395f6147293b68ceab7a9e0c58d864e8efde4e1b9a46cbe854713672f5c"
	"aaae314ed9083dab4b099f8e300f01b8650f1f4b1d8fcf3f3cb53fb8e9eb2ea2"
	"03bdc970f50ae55428a91f7f53ac266b28419c3778a15fd248d339ede785fb7f"
	"5a1aaa96d313eacc890936c173cdcd0fab882c45755feb3aed96d477ff96390b"
	"f9a66d1368b208e21f7c10d04a3dbd4e360633e5db4b602601c14cea737db3dc"
	"f722632cc77851cbdde2aaf0a33a07b373445df490cc8fc1e4160ff118378f11"
	"f0477de055a81a9eda57a4a2cfb0c83929d310912f729ec6cfa36c6ac6a75837"
	"143045d791cc85eff5b21932f23861bcf23a52b5da67eaf7baae0f5fb1369db7"
	"8f3ac45f8c4ac5671d85735cdddb09d2b1e34a1fc066ff4a162cb263d6541274"
	"ae2fcc865f618abe27c124cd8b074ccd516301b91875824d09958f341ef274bd"
	"ab0bae316339894304e35877b0c28a9b1fd166c796b9cc258a064a8f57e27f2a";

static void
test_shake_kat(void **state)
{
	static const size_t pieces[] = { 1, 7, 8, 160, 9, 168, 136, 23 };
	uint8_t out[512];
	struct vg_shake x;
	size_t n, p;
	int which;

	(void)state;
	for (which = 0; which < 2; which++) {
		const char *want = which ? SHAKE256_EMPTY_512 :
		    SHAKE128_EMPTY_512;

		memset(out, 0, sizeof(out));
		if (which)
			vg_shake256(out, sizeof(out), NULL, 0);
		else
			vg_shake128(out, sizeof(out), NULL, 0);
		assert_hex(out, sizeof(out), want);

		/* the same stream squeezed in pieces, explicit finalize */
		memset(out, 0, sizeof(out));
		if (which)
			vg_shake256_init(&x);
		else
			vg_shake128_init(&x);
		vg_shake_absorb(&x, NULL, 0);
		vg_shake_finalize(&x);
		for (n = 0, p = 0; n < sizeof(out); p++) {
			size_t k = pieces[p % 8];

			if (k > sizeof(out) - n)
				k = sizeof(out) - n;
			vg_shake_squeeze(&x, out + n, k);
			n += k;
		}
		vg_shake_wipe(&x);
		assert_true(all_zero(&x, sizeof(x)));
		assert_hex(out, sizeof(out), want);
	}
}

/* ---------------------------------------------------- HMAC known answers */

static const char RFC4231_T7[] =
    "This is a test using a larger than block-size key and a larger than "
    "block-size data. The key needs to be hashed before being used by the "
    "HMAC algorithm.";

/* [RFC 4231 §4.2-4.8]; test case 5 is truncated to 128 bits. */
static const struct {
	uint8_t keybyte;      /* 0: key 01 02 ... 19 */
	size_t keylen;
	const char *data;     /* NULL: datalen bytes of databyte */
	uint8_t databyte;
	size_t datalen;
	const char *mac[4];   /* SHA-224, SHA-256, SHA-384, SHA-512 */
} rfc4231[] = {
	{ 0x0b, 20, "Hi There", 0, 8, {
	    "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
	    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
	    "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec6"
	    "82aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
	    "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
	    "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854" } },
	{ 'J', 4, "what do ya want for nothing?", 0, 28, {
	    "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
	    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
	    "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47"
	    "e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
	    "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
	    "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737" } },
	{ 0xaa, 20, NULL, 0xdd, 50, {
	    "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
	    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
	    "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9feb"
	    "e83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
	    "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
	    "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb" } },
	{ 0, 25, NULL, 0xcd, 50, {
	    "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
	    "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
	    "3e8a69b7783c25851933ab6290af6ca77a9981480850009c"
	    "c5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
	    "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
	    "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd" } },
	{ 0x0c, 20, "Test With Truncation", 0, 20, {
	    "0e2aea68a90c8d37c988bcdb9fca6fa8",
	    "a3b6167473100ee06e0c796c2955552b",
	    "3abf34c3503b2a23a46efc619baef897",
	    "415fad6271580a531d4179bc891d87a6" } },
	{ 0xaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
	    0, 54, {
	    "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
	    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
	    "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f"
	    "3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
	    "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
	    "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598" } },
	{ 0xaa, 131, RFC4231_T7, 0, sizeof(RFC4231_T7) - 1, {
	    "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
	    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
	    "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9a"
	    "dccebb82461e99c5a678cc31e799176d3860e6110c46523e",
	    "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
	    "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58" } },
};

/* [RFC 2202 §3]: HMAC-SHA-1; case 5 is compared in full (the RFC also
 * lists the 96-bit truncation). */
static const struct {
	uint8_t keybyte;
	size_t keylen;
	const char *data;
	uint8_t databyte;
	size_t datalen;
	const char *mac;
} rfc2202[] = {
	{ 0x0b, 20, "Hi There", 0, 8,
	    "b617318655057264e28bc0b6fb378c8ef146be00" },
	{ 'J', 4, "what do ya want for nothing?", 0, 28,
	    "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79" },
	{ 0xaa, 20, NULL, 0xdd, 50,
	    "125d7342b9ac11cd91a39af48aa17b4f63f175d3" },
	{ 0, 25, NULL, 0xcd, 50,
	    "4c9007f4026250c6bc8414f9bf50c86c2d7235da" },
	{ 0x0c, 20, "Test With Truncation", 0, 20,
	    "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04" },
	{ 0xaa, 80, "Test Using Larger Than Block-Size Key - Hash Key First",
	    0, 54, "aa4ae5e15272d00e95705637ce8a3b55ed402112" },
	{ 0xaa, 80, "Test Using Larger Than Block-Size Key and Larger Than "
	    "One Block-Size Data", 0, 73,
	    "e8e99d0f45237d786d6bbaa7965c7808bbff1a91" },
};

static void
make_key_data(uint8_t *key, uint8_t keybyte, size_t keylen, uint8_t *data,
    const char *text, uint8_t databyte, size_t datalen)
{
	size_t i;

	for (i = 0; i < keylen; i++)
		key[i] = keybyte == 'J' ? (uint8_t)"Jefe"[i] :
		    keybyte == 0 ? (uint8_t)(i + 1) : keybyte;
	if (text != NULL) {
		assert_int_equal(strlen(text), datalen);
		memcpy(data, text, datalen);
	} else {
		memset(data, databyte, datalen);
	}
}

static void
test_hmac_kat(void **state)
{
	static const enum vg_hash_alg algs[4] = { VG_HASH_SHA224,
		VG_HASH_SHA256, VG_HASH_SHA384, VG_HASH_SHA512 };
	uint8_t key[131], data[200], out[VG_HASH_MAX_LEN];
	struct vg_hmac m;
	size_t i, a, j;

	(void)state;
	for (i = 0; i < sizeof(rfc4231) / sizeof(rfc4231[0]); i++) {
		make_key_data(key, rfc4231[i].keybyte, rfc4231[i].keylen, data,
		    rfc4231[i].data, rfc4231[i].databyte, rfc4231[i].datalen);
		for (a = 0; a < 4; a++) {
			size_t want = strlen(rfc4231[i].mac[a]) / 2;

			vg_hmac(algs[a], key, rfc4231[i].keylen, data,
			    rfc4231[i].datalen, out);
			assert_hex(out, want, rfc4231[i].mac[a]);
			/* incremental, byte by byte */
			vg_hmac_init(&m, algs[a], key, rfc4231[i].keylen);
			for (j = 0; j < rfc4231[i].datalen; j++)
				vg_hmac_update(&m, data + j, 1);
			vg_hmac_final(&m, out);
			assert_true(all_zero(&m, sizeof(m)));
			assert_hex(out, want, rfc4231[i].mac[a]);
		}
	}
	for (i = 0; i < sizeof(rfc2202) / sizeof(rfc2202[0]); i++) {
		make_key_data(key, rfc2202[i].keybyte, rfc2202[i].keylen, data,
		    rfc2202[i].data, rfc2202[i].databyte, rfc2202[i].datalen);
		vg_hmac(VG_HASH_SHA1, key, rfc2202[i].keylen, data,
		    rfc2202[i].datalen, out);
		assert_hex(out, 20, rfc2202[i].mac);
	}
}

/* --------------------------------------------------- KDF known answers */

static void
test_pbkdf2_kat(void **state)
{
	/* [RFC 6070 §2] without the 16,777,216-iteration case, then
	 * PBKDF2-HMAC-SHA-256 with the same inputs (widely published, e.g.
	 * in the scrypt and Go x/crypto tests). */
	static const struct {
		enum vg_hash_alg alg;
		const char *pw, *salt;
		size_t pwlen, saltlen;
		uint32_t c;
		const char *dk;
	} v[] = {
		{ VG_HASH_SHA1, "password", "salt", 8, 4, 1,
		    "0c60c80f961f0e71f3a9b524af6012062fe037a6" },
		{ VG_HASH_SHA1, "password", "salt", 8, 4, 2,
		    "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957" },
		{ VG_HASH_SHA1, "password", "salt", 8, 4, 4096,
		    "4b007901b765489abead49d926f721d065a429c1" },
		{ VG_HASH_SHA1, "passwordPASSWORDpassword",
		    "saltSALTsaltSALTsaltSALTsaltSALTsalt", 24, 36, 4096,
		    "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038" },
		{ VG_HASH_SHA1, "pass\0word", "sa\0lt", 9, 5, 4096,
		    "56fa6aa75548099dcc37d7f03425e0c3" },
		{ VG_HASH_SHA256, "password", "salt", 8, 4, 1,
		    "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b" },
		{ VG_HASH_SHA256, "password", "salt", 8, 4, 2,
		    "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43" },
		{ VG_HASH_SHA256, "password", "salt", 8, 4, 4096,
		    "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a" },
	};
	uint8_t out[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = strlen(v[i].dk) / 2;

		memset(out, 0, sizeof(out));
		assert_int_equal(vg_pbkdf2_hmac(v[i].alg, v[i].pw, v[i].pwlen,
		    v[i].salt, v[i].saltlen, v[i].c, out, n), VG_OK);
		assert_hex(out, n, v[i].dk);
	}
}

/* [RFC 5869 appendix A]: test cases 1-3 (SHA-256) and 4-7 (SHA-1). */
static const struct {
	enum vg_hash_alg alg;
	const char *ikm, *salt, *info; /* hex; salt NULL: not provided */
	size_t len;
	const char *prk, *okm;
} rfc5869[] = {
	{ VG_HASH_SHA256, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
	    "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
	    "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
	    "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
	    "34007208d5b887185865" },
	{ VG_HASH_SHA256, NULL, NULL, NULL, 82, /* 80-byte ramps, below */
	    "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
	    "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
	    "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
	    "cc30c58179ec3e87c14c01d5c1f3434f1d87" },
	{ VG_HASH_SHA256, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "",
	    "", 42,
	    "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
	    "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
	    "9d201395faa4b61a96c8" },
	{ VG_HASH_SHA1, "0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
	    "f0f1f2f3f4f5f6f7f8f9", 42,
	    "9b6c18c432a7bf8f0e71c8eb88f4b30baa2ba243",
	    "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2"
	    "c22e422478d305f3f896" },
	{ VG_HASH_SHA1, NULL, NULL, NULL, 82,
	    "8adae09a2a307059478d309b26c4115a224cfaf6",
	    "0bd770a74d1160f7c9f12cd5912a06ebff6adcae899d92191fe4305673ba2ffe"
	    "8fa3f1a4e5ad79f3f334b3b202b2173c486ea37ce3d397ed034c7f9dfeb15c5e"
	    "927336d0441f4c4300e2cff0d0900b52d3b4" },
	{ VG_HASH_SHA1, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "",
	    42, "da8c8a73c7fa77288ec6f5e7c297786aa0d32d01",
	    "0ac1af7002b3d761d1e55298da9d0506b9ae52057220a306e07b6b87e8df21d0"
	    "ea00033de03984d34918" },
	{ VG_HASH_SHA1, "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", NULL,
	    "", 42, "2adccada18779e7c2077ad2eb19d3f3e731385dd",
	    "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5"
	    "673a081d70cce7acfc48" },
};

static void
test_hkdf_kat(void **state)
{
	uint8_t ramp[3][80], prk[VG_HASH_MAX_LEN], okm[82];
	size_t i, j;

	(void)state;
	for (j = 0; j < 80; j++) {
		ramp[0][j] = (uint8_t)j;          /* IKM 00..4f */
		ramp[1][j] = (uint8_t)(0x60 + j); /* salt 60..af */
		ramp[2][j] = (uint8_t)(0xb0 + j); /* info b0..ff */
	}
	for (i = 0; i < sizeof(rfc5869) / sizeof(rfc5869[0]); i++) {
		enum vg_hash_alg alg = rfc5869[i].alg;
		size_t hl = vg_hash_len(alg), ikmlen, saltlen = 0, infolen;
		uint8_t *ikm, *salt = NULL, *info;
		int ramps = rfc5869[i].ikm == NULL;

		if (ramps) {
			ikm = ramp[0], salt = ramp[1], info = ramp[2];
			ikmlen = saltlen = infolen = 80;
		} else {
			ikm = unhex(rfc5869[i].ikm, &ikmlen);
			info = unhex(rfc5869[i].info, &infolen);
			if (rfc5869[i].salt != NULL)
				salt = unhex(rfc5869[i].salt, &saltlen);
		}
		vg_hkdf_extract(alg, salt, saltlen, ikm, ikmlen, prk);
		assert_hex(prk, hl, rfc5869[i].prk);
		memset(okm, 0, sizeof(okm));
		assert_int_equal(vg_hkdf_expand(alg, prk, hl, info, infolen,
		    okm, rfc5869[i].len), VG_OK);
		assert_hex(okm, rfc5869[i].len, rfc5869[i].okm);
		memset(okm, 0, sizeof(okm));
		assert_int_equal(vg_hkdf(alg, salt, saltlen, ikm, ikmlen, info,
		    infolen, okm, rfc5869[i].len), VG_OK);
		assert_hex(okm, rfc5869[i].len, rfc5869[i].okm);
		if (!ramps) {
			free(ikm);
			free(info);
			free(salt);
		}
	}
}

static void
test_kdf_errors(void **state)
{
	uint8_t out[255 * 20 + 1], prk[20] = { 1 };
	size_t i;

	(void)state;
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(vg_pbkdf2_hmac(VG_HASH_SHA256, "pw", 2, "salt", 4,
	    0, out, 32), VG_ERR_ARG);
	assert_int_equal(vg_pbkdf2_hmac(VG_HASH_COUNT, "pw", 2, "salt", 4,
	    1, out, 32), VG_ERR_ARG);
	assert_int_equal(vg_hkdf_expand(VG_HASH_COUNT, prk, 20, NULL, 0, out,
	    1), VG_ERR_ARG);
	assert_int_equal(vg_hkdf(VG_HASH_COUNT, NULL, 0, prk, 20, NULL, 0, out,
	    1), VG_ERR_ARG);
	assert_int_equal(vg_hkdf_expand(VG_HASH_SHA1, prk, 20, NULL, 0, out,
	    255 * 20 + 1), VG_ERR_LENGTH);
	assert_int_equal(vg_hkdf(VG_HASH_SHA1, NULL, 0, prk, 20, NULL, 0, out,
	    255 * 20 + 1), VG_ERR_LENGTH);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0x5a); /* nothing written */
	/* the limits themselves are fine, and outlen 0 writes nothing */
	assert_int_equal(vg_hkdf_expand(VG_HASH_SHA1, prk, 20, NULL, 0, out,
	    255 * 20), VG_OK);
	assert_int_equal(out[255 * 20], 0x5a);
	assert_int_equal(vg_hkdf_expand(VG_HASH_SHA1, prk, 20, NULL, 0, NULL,
	    0), VG_OK);
	assert_int_equal(vg_pbkdf2_hmac(VG_HASH_SHA1, NULL, 0, NULL, 0, 1,
	    NULL, 0), VG_OK);
}

/* ------------------------------------------------ OpenSSL cross-checks */

/* Feeds len bytes to h in 1 to 5 pieces split at random points. */
static void
update_split(struct vg_hash *h, struct vg_hmac *m, struct vg_shake *x,
    const uint8_t *p, size_t len)
{
	size_t pieces = 1 + rnd_upto(4), k;

	while (len > 0) {
		k = --pieces == 0 ? len : rnd_upto(len);
		if (h != NULL)
			vg_hash_update(h, p, k);
		if (m != NULL)
			vg_hmac_update(m, p, k);
		if (x != NULL)
			vg_shake_absorb(x, p, k);
		p += k;
		len -= k;
	}
}

static void
test_openssl_digest(void **state)
{
	uint8_t in[1000], a[VG_HASH_MAX_LEN], b[VG_HASH_MAX_LEN];
	uint8_t c[VG_HASH_MAX_LEN];
	unsigned alg, outl;
	size_t len;

	(void)state;
	rnd_bytes(in, sizeof(in));
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		size_t hl = vg_hash_len(alg);

		for (len = 0; len <= sizeof(in); len++) {
			struct vg_hash h, g;
			size_t cut = rnd_upto(len);

			assert_int_equal(EVP_Digest(in, len, b, &outl,
			    evp_md(alg), NULL), 1);
			assert_int_equal(outl, hl);
			vg_hash(alg, in, len, a);
			assert_memory_equal(a, b, hl);
			vg_hash_init(&h, alg);
			update_split(&h, NULL, NULL, in, cut);
			g = h;
			update_split(&h, NULL, NULL, in + cut, len - cut);
			update_split(&g, NULL, NULL, in + cut, len - cut);
			vg_hash_final(&h, a);
			vg_hash_final(&g, c);
			assert_memory_equal(a, b, hl);
			assert_memory_equal(c, b, hl);
		}
	}
}

static void
test_openssl_shake(void **state)
{
	uint8_t in[1000], a[700], b[700];
	size_t len;
	int which;

	(void)state;
	rnd_bytes(in, sizeof(in));
	for (which = 0; which < 2; which++) {
		const EVP_MD *md = which ? EVP_shake256() : EVP_shake128();

		for (len = 0; len <= sizeof(in); len += 1 + rnd_upto(6)) {
			size_t outlen = rnd_upto(sizeof(a)), n, k;
			EVP_MD_CTX *ctx = EVP_MD_CTX_new();
			struct vg_shake x;

			assert_non_null(ctx);
			assert_int_equal(EVP_DigestInit_ex(ctx, md, NULL), 1);
			assert_int_equal(EVP_DigestUpdate(ctx, in, len), 1);
			assert_int_equal(EVP_DigestFinalXOF(ctx, b, outlen), 1);
			EVP_MD_CTX_free(ctx);

			if (which)
				vg_shake256(a, outlen, in, len);
			else
				vg_shake128(a, outlen, in, len);
			assert_memory_equal(a, b, outlen);

			if (which)
				vg_shake256_init(&x);
			else
				vg_shake128_init(&x);
			update_split(NULL, NULL, &x, in, len);
			if (rnd() & 1) /* squeeze also finalizes */
				vg_shake_finalize(&x);
			memset(a, 0, sizeof(a));
			for (n = 0; n < outlen; n += k) {
				k = rnd_upto(outlen - n);
				vg_shake_squeeze(&x, a + n, k);
			}
			vg_shake_wipe(&x);
			assert_memory_equal(a, b, outlen);
		}
	}
}

static void
test_openssl_hmac(void **state)
{
	uint8_t key[300], in[1000], a[VG_HASH_MAX_LEN], b[VG_HASH_MAX_LEN];
	unsigned alg, outl, i;

	(void)state;
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		size_t hl = vg_hash_len(alg), bl = vg_hash_block_len(alg);

		for (i = 0; i < 300; i++) {
			/* key lengths around the block size and up to 300 */
			size_t keylen = i < 8 ? bl - 4 + i : rnd_upto(sizeof(key));
			size_t len = rnd_upto(sizeof(in));
			struct vg_hmac m;

			rnd_bytes(key, keylen);
			rnd_bytes(in, len);
			assert_non_null(HMAC(evp_md(alg), key, (int)keylen, in,
			    len, b, &outl));
			assert_int_equal(outl, hl);
			vg_hmac(alg, key, keylen, in, len, a);
			assert_memory_equal(a, b, hl);
			vg_hmac_init(&m, alg, key, keylen);
			update_split(NULL, &m, NULL, in, len);
			vg_hmac_final(&m, a);
			assert_memory_equal(a, b, hl);
		}
	}
}

static void
test_openssl_pbkdf2(void **state)
{
	uint8_t pw[200], salt[200], a[300], b[300];
	unsigned alg, i;

	(void)state;
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		for (i = 0; i < 12; i++) {
			size_t pwlen = rnd_upto(sizeof(pw));
			size_t saltlen = rnd_upto(sizeof(salt));
			size_t outlen = 1 + rnd_upto(sizeof(a) - 1);
			uint32_t iter = 1 + (uint32_t)rnd_upto(40);

			rnd_bytes(pw, pwlen);
			rnd_bytes(salt, saltlen);
			assert_int_equal(PKCS5_PBKDF2_HMAC((const char *)pw,
			    (int)pwlen, salt, (int)saltlen, (int)iter,
			    evp_md(alg), (int)outlen, b), 1);
			assert_int_equal(vg_pbkdf2_hmac(alg, pw, pwlen, salt,
			    saltlen, iter, a, outlen), VG_OK);
			assert_memory_equal(a, b, outlen);
		}
	}
}

/* OpenSSL HKDF through EVP_PKEY_derive; mode is one of
 * EVP_PKEY_HKDEF_MODE_*. */
static void
openssl_hkdf(int mode, const EVP_MD *md, const uint8_t *salt,
    size_t saltlen, const uint8_t *key, size_t keylen, const uint8_t *info,
    size_t infolen, uint8_t *out, size_t outlen)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);

	assert_non_null(pc);
	assert_int_equal(EVP_PKEY_derive_init(pc), 1);
	assert_int_equal(EVP_PKEY_CTX_hkdf_mode(pc, mode), 1);
	assert_int_equal(EVP_PKEY_CTX_set_hkdf_md(pc, md), 1);
	if (saltlen > 0)
		assert_int_equal(EVP_PKEY_CTX_set1_hkdf_salt(pc, salt,
		    (int)saltlen), 1);
	assert_int_equal(EVP_PKEY_CTX_set1_hkdf_key(pc, key, (int)keylen), 1);
	if (infolen > 0)
		assert_int_equal(EVP_PKEY_CTX_add1_hkdf_info(pc, info,
		    (int)infolen), 1);
	assert_int_equal(EVP_PKEY_derive(pc, out, &outlen), 1);
	EVP_PKEY_CTX_free(pc);
}

static void
test_openssl_hkdf(void **state)
{
	uint8_t ikm[200], salt[200], info[200], a[600], b[600];
	uint8_t prk[VG_HASH_MAX_LEN];
	unsigned alg, i;

	(void)state;
	for (alg = 0; alg < VG_HASH_COUNT; alg++) {
		size_t hl = vg_hash_len(alg);

		for (i = 0; i < 20; i++) {
			size_t ikmlen = 1 + rnd_upto(sizeof(ikm) - 1);
			size_t saltlen = rnd_upto(sizeof(salt));
			size_t infolen = rnd_upto(sizeof(info));
			size_t outlen = 1 + rnd_upto(sizeof(a) - 1);

			rnd_bytes(ikm, ikmlen);
			rnd_bytes(salt, saltlen);
			rnd_bytes(info, infolen);
			openssl_hkdf(EVP_PKEY_HKDEF_MODE_EXTRACT_AND_EXPAND,
			    evp_md(alg), salt, saltlen, ikm, ikmlen, info,
			    infolen, b, outlen);
			assert_int_equal(vg_hkdf(alg, salt, saltlen, ikm,
			    ikmlen, info, infolen, a, outlen), VG_OK);
			assert_memory_equal(a, b, outlen);

			openssl_hkdf(EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY,
			    evp_md(alg), salt, saltlen, ikm, ikmlen, NULL, 0,
			    b, hl);
			vg_hkdf_extract(alg, salt, saltlen, ikm, ikmlen, prk);
			assert_memory_equal(prk, b, hl);

			/* expand-only with a PRK of arbitrary length */
			openssl_hkdf(EVP_PKEY_HKDEF_MODE_EXPAND_ONLY,
			    evp_md(alg), NULL, 0, ikm, ikmlen, info, infolen,
			    b, outlen);
			assert_int_equal(vg_hkdf_expand(alg, ikm, ikmlen, info,
			    infolen, a, outlen), VG_OK);
			assert_memory_equal(a, b, outlen);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_digest_kat),
		cmocka_unit_test(test_sha512t_iv),
		cmocka_unit_test(test_clone_and_wipe),
		cmocka_unit_test(test_shake_kat),
		cmocka_unit_test(test_hmac_kat),
		cmocka_unit_test(test_pbkdf2_kat),
		cmocka_unit_test(test_hkdf_kat),
		cmocka_unit_test(test_kdf_errors),
		cmocka_unit_test(test_openssl_digest),
		cmocka_unit_test(test_openssl_shake),
		cmocka_unit_test(test_openssl_hmac),
		cmocka_unit_test(test_openssl_pbkdf2),
		cmocka_unit_test(test_openssl_hkdf),
	};
	const char *s = getenv("VG_TEST_SEED");

	rng_state = s != NULL ? strtoull(s, NULL, 0) : 0x76676b65796861ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
