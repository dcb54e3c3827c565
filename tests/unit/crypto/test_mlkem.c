/*
 * ML-KEM [FIPS 203] through crypto/mlkem.h: round trips under every
 * kernel set and through the DRBG entry points, implicit rejection (a
 * changed ciphertext gives J(z || c), computed here with SHAKE256), the
 * input checks of §7.2 and §7.3 (lengths, the modulus check of ek, the
 * hash check of dk) with the right errors and wiped outputs, and NULL
 * or unknown arguments.
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
#include "crypto/mlkem.h"
#include "tests/xorshift.h"

static const enum vg_mlkem_param sets[3] = {
	VG_MLKEM_512, VG_MLKEM_768, VG_MLKEM_1024,
};

static uint64_t rng_state = 0x6d6c6b656d2d7431ull;

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

static const uint8_t zeros[VG_MLKEM_MAX_CT_LEN];

/* A key pair from a random seed. */
struct kp {
	enum vg_mlkem_param p;
	size_t eklen, dklen, ctlen;
	uint8_t seed[VG_MLKEM_SEED_LEN];
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
};

static void
make_kp(struct kp *k, enum vg_mlkem_param p)
{
	k->p = p;
	k->eklen = vg_mlkem_ek_len(p);
	k->dklen = vg_mlkem_dk_len(p);
	k->ctlen = vg_mlkem_ct_len(p);
	rnd_bytes(k->seed, sizeof(k->seed));
	assert_int_equal(vg_mlkem_keygen_internal(p, k->seed, k->ek, k->dk),
	    VG_OK);
}

static void
test_lengths(void **state)
{
	static const size_t want[3][3] = {
		{ 800, 1632, 768 }, { 1184, 2400, 1088 }, { 1568, 3168, 1568 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(vg_mlkem_ek_len(sets[i]), want[i][0]);
		assert_int_equal(vg_mlkem_dk_len(sets[i]), want[i][1]);
		assert_int_equal(vg_mlkem_ct_len(sets[i]), want[i][2]);
	}
	assert_int_equal(vg_mlkem_ek_len(VG_MLKEM_PARAM_COUNT), 0);
	assert_int_equal(vg_mlkem_dk_len(VG_MLKEM_PARAM_COUNT), 0);
	assert_int_equal(vg_mlkem_ct_len((enum vg_mlkem_param)-1), 0);
}

/* Encaps and decaps agree, under the global table and the portable
 * twins, and both tables give the same keys and ciphertexts. */
static void
test_roundtrip(void **state)
{
	struct vg_kernels kc;
	unsigned i, r;

	(void)state;
	vg_kernels_fill(&kc, 0);
	for (i = 0; i < 3; i++) {
		for (r = 0; r < 8; r++) {
			struct kp k;
			uint8_t ek2[VG_MLKEM_MAX_EK_LEN], dk2[VG_MLKEM_MAX_DK_LEN];
			uint8_t m[VG_MLKEM_M_LEN], c[VG_MLKEM_MAX_CT_LEN];
			uint8_t c2[VG_MLKEM_MAX_CT_LEN], ss[32], ss2[32], ss3[32];

			make_kp(&k, sets[i]);
			assert_int_equal(vg_mlkem_keygen_internal_k(&kc.mlkem,
			    k.p, k.seed, ek2, dk2), VG_OK);
			assert_memory_equal(ek2, k.ek, k.eklen);
			assert_memory_equal(dk2, k.dk, k.dklen);
			assert_int_equal(vg_mlkem_check_ek(k.p, k.ek, k.eklen),
			    VG_OK);
			assert_int_equal(vg_mlkem_check_dk(k.p, k.dk, k.dklen),
			    VG_OK);
			/* dk = dk_PKE || ek || H(ek) || z */
			assert_memory_equal(k.dk + 384 * (k.eklen / 384), k.ek,
			    k.eklen);
			assert_memory_equal(k.dk + k.dklen - 32, k.seed + 32, 32);

			rnd_bytes(m, sizeof(m));
			assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek,
			    k.eklen, m, c, ss), VG_OK);
			assert_int_equal(vg_mlkem_encaps_internal_k(&kc.mlkem,
			    k.p, k.ek, k.eklen, m, c2, ss2), VG_OK);
			assert_memory_equal(c, c2, k.ctlen);
			assert_memory_equal(ss, ss2, 32);
			assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c,
			    k.ctlen, ss3), VG_OK);
			assert_memory_equal(ss, ss3, 32);
			assert_int_equal(vg_mlkem_decaps_k(&kc.mlkem, k.p, k.dk,
			    k.dklen, c, k.ctlen, ss3), VG_OK);
			assert_memory_equal(ss, ss3, 32);
			/* another m, another secret */
			m[0] ^= 1;
			assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek,
			    k.eklen, m, c2, ss2), VG_OK);
			assert_memory_not_equal(ss, ss2, 32);
		}
	}
}

/* The DRBG entry points: seed_out gives the same key pair again, and
 * two encapsulations differ but decapsulate. */
static void
test_rng(void **state)
{
	struct vg_rng rng;
	unsigned i;

	(void)state;
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];
		uint8_t seed[VG_MLKEM_SEED_LEN], ek[VG_MLKEM_MAX_EK_LEN];
		uint8_t dk[VG_MLKEM_MAX_DK_LEN], ek2[VG_MLKEM_MAX_EK_LEN];
		uint8_t dk2[VG_MLKEM_MAX_DK_LEN], c[VG_MLKEM_MAX_CT_LEN];
		uint8_t c2[VG_MLKEM_MAX_CT_LEN], ss[32], ss2[32], ss3[32];

		assert_int_equal(vg_mlkem_keygen(p, &rng, seed, ek, dk), VG_OK);
		assert_int_equal(vg_mlkem_keygen_internal(p, seed, ek2, dk2),
		    VG_OK);
		assert_memory_equal(ek, ek2, vg_mlkem_ek_len(p));
		assert_memory_equal(dk, dk2, vg_mlkem_dk_len(p));
		assert_int_equal(vg_mlkem_keygen(p, &rng, NULL, ek2, dk2),
		    VG_OK);
		assert_memory_not_equal(ek, ek2, vg_mlkem_ek_len(p));

		assert_int_equal(vg_mlkem_encaps(p, &rng, ek,
		    vg_mlkem_ek_len(p), c, ss), VG_OK);
		assert_int_equal(vg_mlkem_encaps(p, &rng, ek,
		    vg_mlkem_ek_len(p), c2, ss2), VG_OK);
		assert_memory_not_equal(c, c2, vg_mlkem_ct_len(p));
		assert_memory_not_equal(ss, ss2, 32);
		assert_int_equal(vg_mlkem_decaps(p, dk, vg_mlkem_dk_len(p), c,
		    vg_mlkem_ct_len(p), ss3), VG_OK);
		assert_memory_equal(ss, ss3, 32);
		assert_int_equal(vg_mlkem_decaps(p, dk, vg_mlkem_dk_len(p), c2,
		    vg_mlkem_ct_len(p), ss3), VG_OK);
		assert_memory_equal(ss2, ss3, 32);
	}
	vg_rng_wipe(&rng);
}

/* A flipped bit anywhere in c: the implicit rejection key J(z || c). */
static void
test_implicit_rejection(void **state)
{
	struct vg_kernels kc;
	unsigned i, r;

	(void)state;
	vg_kernels_fill(&kc, 0);
	for (i = 0; i < 3; i++) {
		struct kp k;
		uint8_t m[32], c[VG_MLKEM_MAX_CT_LEN], ss[32], ss2[32];
		uint8_t j[32];
		struct vg_shake x;

		make_kp(&k, sets[i]);
		rnd_bytes(m, sizeof(m));
		assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen,
		    m, c, ss), VG_OK);
		for (r = 0; r < 16; r++) {
			/* first and last bit, then random ones */
			size_t bit = r == 0 ? 0 : r == 1 ? 8 * k.ctlen - 1 :
			    (size_t)(vg_xorshift64s(&rng_state) % (8 * k.ctlen));

			c[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			vg_shake256_init(&x);
			vg_shake_absorb(&x, k.dk + k.dklen - 32, 32);
			vg_shake_absorb(&x, c, k.ctlen);
			vg_shake_finalize(&x);
			vg_shake_squeeze(&x, j, sizeof(j));
			vg_shake_wipe(&x);
			assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c,
			    k.ctlen, ss2), VG_OK);
			assert_memory_equal(ss2, j, 32);
			assert_memory_not_equal(ss2, ss, 32);
			memset(ss2, 0, sizeof(ss2));
			assert_int_equal(vg_mlkem_decaps_k(&kc.mlkem, k.p, k.dk,
			    k.dklen, c, k.ctlen, ss2), VG_OK);
			assert_memory_equal(ss2, j, 32);
			c[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		/* restored: the real key again */
		assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c,
		    k.ctlen, ss2), VG_OK);
		assert_memory_equal(ss2, ss, 32);
	}
}

/* Wrong lengths of ek, dk and c: the right error, outputs wiped. */
static void
test_bad_lengths(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct kp k;
		uint8_t m[32] = { 1 }, c[VG_MLKEM_MAX_CT_LEN + 1], ss[32];
		static uint8_t big[VG_MLKEM_MAX_DK_LEN + 1];
		int d;

		make_kp(&k, sets[i]);
		assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen,
		    m, c, ss), VG_OK);
		for (d = -1; d <= 1; d += 2) {
			memcpy(big, k.ek, k.eklen);
			assert_int_equal(vg_mlkem_check_ek(k.p, big,
			    k.eklen + d), VG_ERR_DECODE);
			memset(ss, 0xaa, sizeof(ss));
			assert_int_equal(vg_mlkem_encaps_internal(k.p, big,
			    k.eklen + d, m, c, ss), VG_ERR_DECODE);
			assert_memory_equal(ss, zeros, 32);
			memcpy(big, k.dk, k.dklen);
			assert_int_equal(vg_mlkem_check_dk(k.p, big,
			    k.dklen + d), VG_ERR_DECODE);
			memset(ss, 0xaa, sizeof(ss));
			assert_int_equal(vg_mlkem_decaps(k.p, big, k.dklen + d,
			    c, k.ctlen, ss), VG_ERR_DECODE);
			assert_memory_equal(ss, zeros, 32);
			memset(ss, 0xaa, sizeof(ss));
			assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c,
			    k.ctlen + d, ss), VG_ERR_LENGTH);
			assert_memory_equal(ss, zeros, 32);
		}
		/* another set's lengths are wrong lengths too */
		assert_int_equal(vg_mlkem_check_ek(sets[(i + 1) % 3], k.ek,
		    k.eklen), VG_ERR_DECODE);
		assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c,
		    vg_mlkem_ct_len(sets[(i + 1) % 3]), ss), VG_ERR_LENGTH);
	}
}

/* Sets the 12-bit coefficient idx of the encoded t-hat in ek to v. */
static void
set_coeff(uint8_t *ek, size_t idx, unsigned v)
{
	uint8_t *b = ek + 3 * (idx / 2);

	if (idx % 2 == 0) {
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)((b[1] & 0xf0) | (v >> 8));
	} else {
		b[1] = (uint8_t)((b[1] & 0x0f) | ((v & 0x0f) << 4));
		b[2] = (uint8_t)(v >> 4);
	}
}

/* The modulus check [FIPS 203 §7.2]: a coefficient q or above fails, q - 1
 * passes; the rho part is not checked. */
static void
test_modulus_check(void **state)
{
	static const unsigned bad[] = { 3329, 3330, 4095 };
	unsigned i, b;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct kp k;
		uint8_t m[32] = { 2 }, c[VG_MLKEM_MAX_CT_LEN], ss[32];
		size_t ncoef;

		make_kp(&k, sets[i]);
		ncoef = (k.eklen - 32) * 2 / 3;
		for (b = 0; b < 3; b++) {
			size_t idx = b == 0 ? 0 : b == 1 ? ncoef - 1 :
			    (size_t)(vg_xorshift64s(&rng_state) % ncoef);
			uint8_t ek[VG_MLKEM_MAX_EK_LEN];

			memcpy(ek, k.ek, k.eklen);
			set_coeff(ek, idx, bad[b]);
			assert_int_equal(vg_mlkem_check_ek(k.p, ek, k.eklen),
			    VG_ERR_DECODE);
			memset(ss, 0xaa, sizeof(ss));
			memset(c, 0xaa, sizeof(c));
			assert_int_equal(vg_mlkem_encaps_internal(k.p, ek,
			    k.eklen, m, c, ss), VG_ERR_DECODE);
			assert_memory_equal(ss, zeros, 32);
			assert_memory_equal(c, zeros, k.ctlen);
			set_coeff(ek, idx, 3328);
			assert_int_equal(vg_mlkem_check_ek(k.p, ek, k.eklen),
			    VG_OK);
			assert_int_equal(vg_mlkem_encaps_internal(k.p, ek,
			    k.eklen, m, c, ss), VG_OK);
		}
		k.ek[k.eklen - 1] = 0xff; /* rho: any bytes */
		assert_int_equal(vg_mlkem_check_ek(k.p, k.ek, k.eklen), VG_OK);
	}
}

/* The hash check [FIPS 203 §7.3]: a changed ek inside dk, or a changed
 * H(ek), fails; a changed z does not (it only changes the rejection
 * key). */
static void
test_dk_hash_check(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct kp k;
		uint8_t m[32] = { 3 }, c[VG_MLKEM_MAX_CT_LEN], ss[32], ss2[32];
		size_t ekoff, hoff;

		make_kp(&k, sets[i]);
		ekoff = k.dklen - 64 - k.eklen;
		hoff = k.dklen - 64;
		assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen,
		    m, c, ss), VG_OK);
		k.dk[ekoff + 5] ^= 0x10;
		assert_int_equal(vg_mlkem_check_dk(k.p, k.dk, k.dklen),
		    VG_ERR_DECODE);
		memset(ss2, 0xaa, sizeof(ss2));
		assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c, k.ctlen,
		    ss2), VG_ERR_DECODE);
		assert_memory_equal(ss2, zeros, 32);
		k.dk[ekoff + 5] ^= 0x10;
		k.dk[hoff + 31] ^= 0x01;
		assert_int_equal(vg_mlkem_check_dk(k.p, k.dk, k.dklen),
		    VG_ERR_DECODE);
		assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c, k.ctlen,
		    ss2), VG_ERR_DECODE);
		k.dk[hoff + 31] ^= 0x01;
		k.dk[k.dklen - 1] ^= 0x80;
		assert_int_equal(vg_mlkem_check_dk(k.p, k.dk, k.dklen), VG_OK);
		assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c, k.ctlen,
		    ss2), VG_OK);
		assert_memory_equal(ss, ss2, 32);
	}
}

static void
test_null(void **state)
{
	struct kp k;
	struct vg_rng rng;
	uint8_t m[32] = { 4 }, c[VG_MLKEM_MAX_CT_LEN], ss[32];
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	const enum vg_mlkem_param bad = VG_MLKEM_PARAM_COUNT;

	(void)state;
	make_kp(&k, VG_MLKEM_768);
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	assert_int_equal(vg_mlkem_keygen_internal(bad, k.seed, ek, dk),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen_internal(k.p, NULL, ek, dk),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen_internal(k.p, k.seed, NULL, dk),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen_internal(k.p, k.seed, ek, NULL),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen_internal_k(NULL, k.p, k.seed, ek,
	    dk), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen(k.p, NULL, NULL, ek, dk), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen(bad, &rng, NULL, ek, dk), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_keygen(k.p, &rng, NULL, NULL, dk),
	    VG_ERR_ARG);

	assert_int_equal(vg_mlkem_check_ek(bad, k.ek, k.eklen), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_check_ek(k.p, NULL, k.eklen), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_check_dk(bad, k.dk, k.dklen), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_check_dk(k.p, NULL, k.dklen), VG_ERR_ARG);

	assert_int_equal(vg_mlkem_encaps_internal(bad, k.ek, k.eklen, m, c,
	    ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps_internal(k.p, NULL, k.eklen, m, c,
	    ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen, NULL, c,
	    ss), VG_ERR_ARG);
	memset(ss, 0xaa, sizeof(ss));
	assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen, m, NULL,
	    ss), VG_ERR_ARG);
	assert_memory_equal(ss, zeros, 32);
	assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen, m, c,
	    NULL), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps_internal_k(NULL, k.p, k.ek, k.eklen,
	    m, c, ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps(k.p, NULL, k.ek, k.eklen, c, ss),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps(bad, &rng, k.ek, k.eklen, c, ss),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps(k.p, &rng, NULL, k.eklen, c, ss),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps(k.p, &rng, k.ek, k.eklen, c, NULL),
	    VG_ERR_ARG);

	assert_int_equal(vg_mlkem_encaps_internal(k.p, k.ek, k.eklen, m, c,
	    ss), VG_OK);
	assert_int_equal(vg_mlkem_decaps(bad, k.dk, k.dklen, c, k.ctlen, ss),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps(k.p, NULL, k.dklen, c, k.ctlen, ss),
	    VG_ERR_ARG);
	memset(ss, 0xaa, sizeof(ss));
	assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, NULL, k.ctlen,
	    ss), VG_ERR_ARG);
	assert_memory_equal(ss, zeros, 32);
	assert_int_equal(vg_mlkem_decaps(k.p, k.dk, k.dklen, c, k.ctlen,
	    NULL), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps_k(NULL, k.p, k.dk, k.dklen, c,
	    k.ctlen, ss), VG_ERR_ARG);
	vg_rng_wipe(&rng);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_implicit_rejection),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_modulus_check),
		cmocka_unit_test(test_dk_hash_check),
		cmocka_unit_test(test_null),
	};

	printf("# kernels: %s\n", vg_kernels()->mlkem.impl);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
