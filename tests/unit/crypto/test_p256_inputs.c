/*
 * Unit tests of crypto/p256.h on the inputs it must refuse or normalise:
 * public points (off the curve, coordinates >= p, infinity, wrong lengths
 * and prefixes, compressed points without a square root, the DER OCTET
 * STRING wrapping of CKA_EC_POINT), private scalars (0, n and above,
 * lengths), key generation by rejection sampling (and a failing source),
 * the DER ECDSA-Sig-Value, and signatures that must not verify.
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

#include "crypto/cpu.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"

static const char G_HEX[] =
    "046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
    "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
static const char P_HEX[] =
    "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
static const char N_HEX[] =
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";

static void
unhex_to(uint8_t *out, size_t len, const char *s)
{
	size_t i;

	assert_int_equal(strlen(s), 2 * len);
	for (i = 0; i < len; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* 32-byte big-endian a + b (mod 2^256); returns the carry. */
static int
add_be(uint8_t r[32], const uint8_t a[32], const uint8_t b[32])
{
	unsigned c = 0;
	int i;

	for (i = 31; i >= 0; i--) {
		c += (unsigned)a[i] + b[i];
		r[i] = (uint8_t)c;
		c >>= 8;
	}
	return (int)c;
}

static void
expect_bad_point(const uint8_t *in, size_t len)
{
	struct vg_p256_pub pub;

	assert_int_equal(vg_p256_pub_decode(&pub, in, len), VG_ERR_DECODE);
	assert_int_equal(vg_p256_pub_decode_ec_point(&pub, in, len),
	    VG_ERR_DECODE);
}

static void
test_invalid_points(void **state)
{
	static const size_t lens[] = { 0, 1, 32, 33, 34, 64, 66, 67 };
	struct vg_p256_pub pub, pub2;
	uint8_t g[65], t[70], p[32], enc[67], x[32], one[32];
	size_t i;
	unsigned v;

	(void)state;
	unhex_to(g, 65, G_HEX);
	unhex_to(p, 32, P_HEX);
	assert_int_equal(vg_p256_pub_decode(&pub, g, 65), VG_OK);
	vg_p256_pub_encode(t, &pub);
	assert_memory_equal(t, g, 65);

	/* off the curve: y + 1, x + 1 */
	memcpy(t, g, 65);
	t[64] ^= 1;
	expect_bad_point(t, 65);
	memcpy(t, g, 65);
	t[32] ^= 1;
	expect_bad_point(t, 65);
	/* coordinates p, p - 1 (off curve with y = G's), all-ones */
	memcpy(t, g, 65);
	memcpy(t + 1, p, 32);
	expect_bad_point(t, 65);
	memcpy(t, g, 65);
	memcpy(t + 33, p, 32);
	expect_bad_point(t, 65);
	memset(t + 1, 0xff, 64);
	expect_bad_point(t, 65);
	/* infinity: 00, and 65 zero bytes */
	memset(t, 0, 65);
	expect_bad_point(t, 1);
	expect_bad_point(t, 65);
	/* every other prefix, at both lengths */
	for (v = 0; v < 256; v++) {
		memcpy(t, g, 65);
		t[0] = (uint8_t)v;
		if (v != 4)
			expect_bad_point(t, 65);
		if (v != 2 && v != 3)
			expect_bad_point(t, 33);
	}
	/* G's bytes at wrong lengths */
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		memset(t, 0, sizeof(t));
		memcpy(t, g, lens[i] < 65 ? lens[i] : 65);
		if (lens[i] != 33)
			expect_bad_point(t, lens[i]);
	}

	/* a point with x < 2^256 - p, then the same point with x + p: a
	 * coordinate >= p must be refused even though it is the same x mod
	 * p */
	memset(x, 0, 32);
	memset(one, 0, 32);
	one[31] = 1;
	for (v = 0; v < 1000; v++) {
		t[0] = 2;
		memcpy(t + 1, x, 32);
		if (vg_p256_pub_decode(&pub, t, 33) == VG_OK)
			break;
		add_be(x, x, one);
	}
	assert_true(v < 1000);
	vg_p256_pub_encode(t, &pub);
	assert_int_equal(vg_p256_pub_decode(&pub2, t, 65), VG_OK);
	assert_int_equal(add_be(t + 1, t + 1, p), 0);
	expect_bad_point(t, 65);
	add_be(x, x, p);
	t[0] = 2;
	memcpy(t + 1, x, 32);
	expect_bad_point(t, 33);

	/* compressed G, both parities; an x without a square root */
	vg_p256_pub_encode_compressed(t, &pub);
	assert_int_equal(vg_p256_pub_decode(&pub2, t, 33), VG_OK);
	assert_memory_equal(&pub, &pub2, sizeof(pub));
	assert_int_equal(vg_p256_pub_decode(&pub, g, 65), VG_OK);
	vg_p256_pub_encode_compressed(t, &pub);
	assert_int_equal(t[0], 0x02 | (g[64] & 1));
	assert_int_equal(vg_p256_pub_decode(&pub2, t, 33), VG_OK);
	vg_p256_pub_encode(enc, &pub2);
	assert_memory_equal(enc, g, 65);
	t[0] ^= 1;                      /* -G */
	assert_int_equal(vg_p256_pub_decode(&pub2, t, 33), VG_OK);
	vg_p256_pub_encode(enc, &pub2);
	assert_memory_equal(enc, g, 33);
	assert_memory_not_equal(enc + 33, g + 33, 32);
	memset(x, 0, 32);
	for (v = 0; v < 1000; v++) {
		t[0] = 3;
		memcpy(t + 1, x, 32);
		if (vg_p256_pub_decode(&pub2, t, 33) != VG_OK)
			break;
		add_be(x, x, one);
	}
	assert_true(v < 1000);          /* half of all x have no root */

	/* the DER OCTET STRING wrapping (CKA_EC_POINT) */
	vg_p256_pub_encode_ec_point(enc, &pub);
	assert_int_equal(enc[0], 0x04);
	assert_int_equal(enc[1], 0x41);
	assert_memory_equal(enc + 2, g, 65);
	assert_int_equal(vg_p256_pub_decode_ec_point(&pub2, enc, 67), VG_OK);
	assert_memory_equal(&pub, &pub2, sizeof(pub));
	assert_int_equal(vg_p256_pub_decode_ec_point(&pub2, g, 65), VG_OK);
	assert_memory_equal(&pub, &pub2, sizeof(pub));
	assert_int_equal(vg_p256_pub_decode(&pub2, enc, 67), VG_ERR_DECODE);
	t[0] = 0x04;
	t[1] = 0x21;
	vg_p256_pub_encode_compressed(t + 2, &pub);
	assert_int_equal(vg_p256_pub_decode_ec_point(&pub2, t, 35), VG_OK);
	assert_memory_equal(&pub, &pub2, sizeof(pub));
	memcpy(t, enc, 67);
	t[67] = 0;                      /* trailing byte */
	expect_bad_point(t, 68);
	t[1] = 0x42;                    /* a 66-byte point inside */
	expect_bad_point(t, 68);
	t[0] = 0x04;                    /* BER long form of the length */
	t[1] = 0x81;
	t[2] = 0x41;
	memcpy(t + 3, g, 65);
	expect_bad_point(t, 68);
	memcpy(t, enc, 67);
	t[2] = 0x00;                    /* infinity inside */
	expect_bad_point(t, 67);
}

static void
test_invalid_scalars(void **state)
{
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	uint8_t b[40], out[64], n[32], h[32] = { 1 };

	(void)state;
	unhex_to(n, 32, N_HEX);
	memset(b, 0, sizeof(b));
	assert_int_equal(vg_p256_priv_decode(&k, b, 32), VG_ERR_ARG);
	assert_int_equal(vg_p256_priv_decode(&k, b, 1), VG_ERR_ARG);
	assert_int_equal(vg_p256_priv_decode(&k, b, 0), VG_ERR_LENGTH);
	assert_int_equal(vg_p256_priv_decode(&k, n, 32), VG_ERR_ARG);
	memcpy(b, n, 32);
	b[31]++;                        /* n + 1 */
	assert_int_equal(vg_p256_priv_decode(&k, b, 32), VG_ERR_ARG);
	memset(b, 0xff, 32);
	assert_int_equal(vg_p256_priv_decode(&k, b, 32), VG_ERR_ARG);
	memcpy(b, n, 32);
	b[31]--;                        /* n - 1 */
	assert_int_equal(vg_p256_priv_decode(&k, b, 32), VG_OK);
	vg_p256_priv_encode(out, &k);
	assert_memory_equal(out, b, 32);
	/* 33 bytes: a leading zero is fine, anything else is >= 2^256 */
	b[0] = 0;
	memcpy(b + 1, n, 32);
	b[32]--;
	assert_int_equal(vg_p256_priv_decode(&k, b, 33), VG_OK);
	b[0] = 1;
	assert_int_equal(vg_p256_priv_decode(&k, b, 33), VG_ERR_ARG);
	/* short forms */
	b[0] = 1;
	assert_int_equal(vg_p256_priv_decode(&k, b, 1), VG_OK);
	vg_p256_priv_encode(out, &k);
	assert_int_equal(out[31], 1);
	assert_int_equal(out[0] | out[30], 0);

	/* a struct that did not come from vg_p256_priv_decode */
	memset(&k, 0, sizeof(k));
	assert_int_equal(vg_p256_pub_from_priv(&pub, &k), VG_ERR_ARG);
	assert_int_equal(vg_p256_ecdsa_sign(out, &k, h, 32, VG_HASH_SHA256,
	    NULL), VG_ERR_ARG);
	vg_p256_from_be(k.d, n);
	assert_int_equal(vg_p256_pub_from_priv(&pub, &k), VG_ERR_ARG);
	assert_int_equal(vg_p256_check_pair(&k, &pub), VG_ERR_ARG);
	unhex_to(b, 1, "01");
	assert_int_equal(vg_p256_priv_decode(&k, b, 1), VG_OK);
	assert_int_equal(vg_p256_pub_from_priv(&pub, &k), VG_OK);
	assert_int_equal(vg_p256_ecdh(out, &k, &pub), VG_OK);
	vg_p256_from_be(k.d, n);
	assert_int_equal(vg_p256_ecdh(out, &k, &pub), VG_ERR_ARG);
	/* an unknown nonce hash */
	assert_int_equal(vg_p256_priv_decode(&k, b, 1), VG_OK);
	assert_int_equal(vg_p256_ecdsa_sign(out, &k, h, 32, VG_HASH_COUNT,
	    NULL), VG_ERR_ARG);
}

/* A random source that replays a script of 32-byte draws, then fails. */
struct script {
	const uint8_t (*draws)[32];
	size_t n, next;
};

static enum vg_err
scripted(void *ctx, uint8_t *out, size_t len)
{
	struct script *s = ctx;

	assert_int_equal(len, 32);
	if (s->next == s->n)
		return VG_ERR_RANDOM;
	memcpy(out, s->draws[s->next++], 32);
	return VG_OK;
}

static enum vg_err
always_n(void *ctx, uint8_t *out, size_t len)
{
	(void)ctx;
	unhex_to(out, len, N_HEX);
	return VG_OK;
}

static void
test_keygen(void **state)
{
	uint8_t draws[4][32], enc[65], enc2[65];
	struct script sc = { draws, 4, 0 };
	struct vg_p256_priv k;
	struct vg_p256_pub pub, pub2;
	struct vg_rng rng;
	int i;

	(void)state;
	unhex_to(draws[0], 32, N_HEX);          /* n: rejected */
	memset(draws[1], 0, 32);                /* 0: rejected */
	memset(draws[2], 0xff, 32);             /* 2^256 - 1: rejected */
	memset(draws[3], 0x5a, 32);             /* accepted */
	assert_int_equal(vg_p256_keygen(&k, &pub, scripted, &sc), VG_OK);
	assert_int_equal(sc.next, 4);
	vg_p256_priv_encode(enc, &k);
	assert_memory_equal(enc, draws[3], 32);
	assert_int_equal(vg_p256_pub_from_priv(&pub2, &k), VG_OK);
	assert_memory_equal(&pub, &pub2, sizeof(pub));
	assert_int_equal(vg_p256_check_pair(&k, &pub), VG_OK);

	/* the source fails: its error is passed on, the key wiped */
	sc.next = 3;
	sc.n = 3;
	assert_int_equal(vg_p256_keygen(&k, NULL, scripted, &sc),
	    VG_ERR_RANDOM);
	for (i = 0; i < 4; i++)
		assert_true(k.d[i] == 0);
	/* a source that never gives a valid scalar */
	assert_int_equal(vg_p256_keygen(&k, &pub, always_n, NULL),
	    VG_ERR_RANDOM);

	/* from the DRBG: distinct keys, consistent public keys */
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	assert_int_equal(vg_p256_keygen_rng(&k, &pub, &rng), VG_OK);
	vg_p256_pub_encode(enc, &pub);
	assert_int_equal(vg_p256_check_pair(&k, &pub), VG_OK);
	assert_int_equal(vg_p256_keygen_rng(&k, &pub2, &rng), VG_OK);
	vg_p256_pub_encode(enc2, &pub2);
	assert_memory_not_equal(enc, enc2, 65);
	assert_int_equal(vg_p256_pub_decode(&pub, enc2, 65), VG_OK);
	assert_int_equal(vg_p256_check_pair(&k, &pub), VG_OK);
	vg_rng_wipe(&rng);
	vg_p256_priv_wipe(&k);
}

static void
test_sig_der(void **state)
{
	static const struct {
		const char *der;
		int ok;
	} v[] = {
		{ "3006020101020101", 1 },
		{ "3006020100020100", 1 },              /* zeros pass through */
		{ "300602010102010100", 0 },            /* trailing byte */
		{ "3009020101020101020101", 0 },        /* three integers */
		{ "3003020101", 0 },                    /* one integer */
		{ "3006020180020101", 0 },              /* negative r */
		{ "300702020001020101", 0 },            /* non-minimal r */
		{ "30810602010102010101", 0 },          /* BER length */
		{ "3106020101020101", 0 },              /* SET */
		{ "", 0 },
		{ "3026022101" "0000000000000000000000000000000000000000000000"
		  "000000000000000000" "020101", 0 },   /* r >= 2^256 */
		{ "3026022100" "ffffffffffffffffffffffffffffffffffffffffffffff"
		  "ffffffffffffffffff" "020101", 1 },   /* r = 2^256 - 1 */
	};
	uint8_t der[80], sig[64], back[64];
	size_t i, len, dl;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		dl = strlen(v[i].der) / 2;
		unhex_to(der, dl, v[i].der);
		assert_int_equal(vg_p256_ecdsa_sig_from_der(sig, der, dl),
		    v[i].ok ? VG_OK : VG_ERR_DECODE);
		if (!v[i].ok)
			continue;
		len = sizeof(back);
		assert_int_equal(vg_p256_ecdsa_sig_to_der(back, &len, sig),
		    VG_OK);
		assert_int_equal(len, dl);
		assert_memory_equal(back, der, dl);
	}
	/* the longest form, and too little room */
	memset(sig, 0xff, 64);
	len = 0;
	assert_int_equal(vg_p256_ecdsa_sig_to_der(NULL, &len, sig), VG_OK);
	assert_int_equal(len, VG_P256_SIG_DER_MAX);
	len = VG_P256_SIG_DER_MAX - 1;
	assert_int_equal(vg_p256_ecdsa_sig_to_der(der, &len, sig),
	    VG_ERR_LENGTH);
	assert_int_equal(len, VG_P256_SIG_DER_MAX);
	len = sizeof(der);
	assert_int_equal(vg_p256_ecdsa_sig_to_der(der, &len, sig), VG_OK);
	assert_int_equal(vg_p256_ecdsa_sig_from_der(back, der, len), VG_OK);
	assert_memory_equal(back, sig, 64);
	/* leading zero bytes are dropped */
	memset(sig, 0, 64);
	sig[31] = 0x80;
	sig[63] = 0x01;
	len = sizeof(der);
	assert_int_equal(vg_p256_ecdsa_sig_to_der(der, &len, sig), VG_OK);
	assert_int_equal(len, 9);
	assert_int_equal(vg_p256_ecdsa_sig_from_der(back, der, len), VG_OK);
	assert_memory_equal(back, sig, 64);
}

static void
test_verify_rejects(void **state)
{
	struct vg_p256_priv k;
	struct vg_p256_pub pub;
	uint8_t d[32], h[32], sig[64], bad[64], n[32], t[32];
	int i;

	(void)state;
	memset(d, 0x11, 32);
	memset(h, 0x22, 32);
	unhex_to(n, 32, N_HEX);
	assert_int_equal(vg_p256_priv_decode(&k, d, 32), VG_OK);
	assert_int_equal(vg_p256_pub_from_priv(&pub, &k), VG_OK);
	assert_int_equal(vg_p256_ecdsa_sign(sig, &k, h, 32, VG_HASH_SHA256,
	    NULL), VG_OK);
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, sig), VG_OK);
	/* (r, n - s) is valid too */
	memcpy(bad, sig, 64);
	{
		unsigned bw = 0;

		for (i = 31; i >= 0; i--) {
			unsigned x = (unsigned)n[i] - sig[32 + i] - bw;

			bad[32 + i] = (uint8_t)x;
			bw = (x >> 8) & 1;
		}
	}
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad), VG_OK);
	/* r or s zero, n, n + r */
	memcpy(bad, sig, 64);
	memset(bad, 0, 32);
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad), VG_ERR_AUTH);
	memcpy(bad, sig, 64);
	memset(bad + 32, 0, 32);
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad), VG_ERR_AUTH);
	memcpy(bad, sig, 64);
	memcpy(bad, n, 32);
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad), VG_ERR_AUTH);
	memcpy(bad, sig, 64);
	memcpy(bad + 32, n, 32);
	assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad), VG_ERR_AUTH);
	memcpy(bad, sig, 64);
	if (add_be(t, sig, n) == 0) {
		memcpy(bad, t, 32);
		assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 32, bad),
		    VG_ERR_AUTH);
	}
	/* another hash length with the same leftmost 32 bytes verifies
	 * (truncation), a shorter one does not */
	{
		uint8_t h64[64];

		memcpy(h64, h, 32);
		memset(h64 + 32, 0x33, 32);
		assert_int_equal(vg_p256_ecdsa_verify(&pub, h64, 64, sig),
		    VG_OK);
		assert_int_equal(vg_p256_ecdsa_verify(&pub, h, 31, sig),
		    VG_ERR_AUTH);
	}
	vg_p256_priv_wipe(&k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_points),
		cmocka_unit_test(test_invalid_scalars),
		cmocka_unit_test(test_keygen),
		cmocka_unit_test(test_sig_der),
		cmocka_unit_test(test_verify_rejects),
	};

	printf("# kernels: %s/%s\n", vg_kernels()->p256.impl,
	    vg_kernels()->p256.select_impl);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
