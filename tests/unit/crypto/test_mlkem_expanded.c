/*
 * ML-KEM keys in expanded form (crypto/mlkem.h): sizes; encapsulation and
 * decapsulation with an expanded key give byte-identical results to the
 * functions given the encoded key, under every kernel set, for valid
 * ciphertexts and for ones that trigger implicit rejection; expansion is
 * deterministic; bad keys (modulus check, hash check, lengths) are refused
 * at expansion with the form wiped; bad arguments and lengths.
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
#include "crypto/mlkem.h"
#include "tests/xorshift.h"

static const enum vg_mlkem_param sets[3] = {
	VG_MLKEM_512, VG_MLKEM_768, VG_MLKEM_1024,
};

static uint64_t rng_state = 0x6d6c6b656d2d7832ull;

/* Room for the largest forms, aligned as a key store's pages are. */
#define XMAX 16384
static uint8_t xbuf[XMAX] __attribute__((aligned(64)));
static uint8_t xbuf2[XMAX] __attribute__((aligned(64)));
static const uint8_t zeros[XMAX];

static struct vg_mlkem_expanded_ek *
as_ek(uint8_t *b)
{
	return (struct vg_mlkem_expanded_ek *)(void *)b;
}

static struct vg_mlkem_expanded_dk *
as_dk(uint8_t *b)
{
	return (struct vg_mlkem_expanded_dk *)(void *)b;
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

/* The sizes of the header of crypto/mlkem.h. */
static void
test_sizes(void **state)
{
	static const size_t want[3][2] = {
		{ 3168, 4256 }, { 6240, 7840 }, { 10336, 12448 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(vg_mlkem_expanded_ek_size(sets[i]),
		    want[i][0]);
		assert_int_equal(vg_mlkem_expanded_dk_size(sets[i]),
		    want[i][1]);
		assert_true(want[i][1] <= XMAX);
	}
	assert_int_equal(vg_mlkem_expanded_ek_size(VG_MLKEM_PARAM_COUNT), 0);
	assert_int_equal(vg_mlkem_expanded_dk_size((enum vg_mlkem_param)-1),
	    0);
}

/* Random keys under each kernel set: the expanded functions give the
 * same c and K as the encoded ones, for valid and altered ciphertexts. */
static void
same_results(const struct vg_mlkem_kernels *kk)
{
	unsigned i, r;

	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];
		size_t eklen = vg_mlkem_ek_len(p), dklen = vg_mlkem_dk_len(p);
		size_t ctlen = vg_mlkem_ct_len(p);

		for (r = 0; r < 6; r++) {
			uint8_t seed[VG_MLKEM_SEED_LEN], m[VG_MLKEM_M_LEN];
			uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
			uint8_t c[VG_MLKEM_MAX_CT_LEN], c2[VG_MLKEM_MAX_CT_LEN];
			uint8_t ss[32], ss2[32];
			size_t pos;

			rnd_bytes(seed, sizeof(seed));
			rnd_bytes(m, sizeof(m));
			assert_int_equal(vg_mlkem_keygen_internal_k(kk, p, seed,
			    ek, dk), VG_OK);
			assert_int_equal(vg_mlkem_expand_ek_k(kk, p, ek, eklen,
			    as_ek(xbuf), XMAX), VG_OK);
			assert_int_equal(vg_mlkem_expanded_ek_param(
			    as_ek(xbuf)), p);
			assert_int_equal(vg_mlkem_encaps_internal_k(kk, p, ek,
			    eklen, m, c, ss), VG_OK);
			memset(c2, 0xaa, sizeof(c2));
			assert_int_equal(vg_mlkem_encaps_internal_expanded_k(kk,
			    as_ek(xbuf), m, c2, ss2), VG_OK);
			assert_memory_equal(c, c2, ctlen);
			assert_memory_equal(ss, ss2, 32);

			assert_int_equal(vg_mlkem_expand_dk_k(kk, p, dk, dklen,
			    as_dk(xbuf), XMAX), VG_OK);
			assert_int_equal(vg_mlkem_expanded_dk_param(
			    as_dk(xbuf)), p);
			assert_int_equal(vg_mlkem_decaps_expanded_k(kk,
			    as_dk(xbuf), c, ctlen, ss2), VG_OK);
			assert_memory_equal(ss, ss2, 32);
			/* a changed ciphertext: the same rejection key */
			pos = (size_t)(vg_xorshift64s(&rng_state) % ctlen);
			c[pos] ^= (uint8_t)(1u << (r % 8));
			assert_int_equal(vg_mlkem_decaps_k(kk, p, dk, dklen, c,
			    ctlen, ss), VG_OK);
			assert_int_equal(vg_mlkem_decaps_expanded_k(kk,
			    as_dk(xbuf), c, ctlen, ss2), VG_OK);
			assert_memory_equal(ss, ss2, 32);
			/* the default table gives the same */
			assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf),
			    c, ctlen, ss2), VG_OK);
			assert_memory_equal(ss, ss2, 32);
		}
	}
}

static void
test_same_results(void **state)
{
	struct vg_kernels kn, kc;

	(void)state;
	vg_kernels_fill(&kn, vg_cpu_features());
	vg_kernels_fill(&kc, 0);
	same_results(&kn.mlkem);
	same_results(&kc.mlkem);
}

/* Expanding the same key twice gives the same bytes. */
static void
test_deterministic(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];
		uint8_t seed[VG_MLKEM_SEED_LEN], ek[VG_MLKEM_MAX_EK_LEN];
		uint8_t dk[VG_MLKEM_MAX_DK_LEN];

		rnd_bytes(seed, sizeof(seed));
		assert_int_equal(vg_mlkem_keygen_internal(p, seed, ek, dk),
		    VG_OK);
		memset(xbuf, 0x55, XMAX);
		memset(xbuf2, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_dk(p, dk, vg_mlkem_dk_len(p),
		    as_dk(xbuf), XMAX), VG_OK);
		assert_int_equal(vg_mlkem_expand_dk(p, dk, vg_mlkem_dk_len(p),
		    as_dk(xbuf2), vg_mlkem_expanded_dk_size(p)), VG_OK);
		assert_memory_equal(xbuf, xbuf2, vg_mlkem_expanded_dk_size(p));
		/* nothing written past the size */
		assert_int_equal(xbuf2[vg_mlkem_expanded_dk_size(p)], 0x55);
		memset(xbuf, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_ek(p, ek, vg_mlkem_ek_len(p),
		    as_ek(xbuf), vg_mlkem_expanded_ek_size(p)), VG_OK);
		assert_int_equal(xbuf[vg_mlkem_expanded_ek_size(p)], 0x55);
	}
}

/* The DRBG entry point: what it encapsulates decapsulates. */
static void
test_rng(void **state)
{
	struct vg_rng rng;
	unsigned i;

	(void)state;
	assert_int_equal(vg_rng_init(&rng), VG_OK);
	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];
		uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
		uint8_t c[VG_MLKEM_MAX_CT_LEN], c2[VG_MLKEM_MAX_CT_LEN];
		uint8_t ss[32], ss2[32], ss3[32];

		assert_int_equal(vg_mlkem_keygen(p, &rng, NULL, ek, dk), VG_OK);
		assert_int_equal(vg_mlkem_expand_ek(p, ek, vg_mlkem_ek_len(p),
		    as_ek(xbuf), XMAX), VG_OK);
		assert_int_equal(vg_mlkem_expand_dk(p, dk, vg_mlkem_dk_len(p),
		    as_dk(xbuf2), XMAX), VG_OK);
		assert_int_equal(vg_mlkem_encaps_expanded(as_ek(xbuf), &rng, c,
		    ss), VG_OK);
		assert_int_equal(vg_mlkem_encaps_expanded(as_ek(xbuf), &rng,
		    c2, ss2), VG_OK);
		assert_memory_not_equal(ss, ss2, 32);
		assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf2), c,
		    vg_mlkem_ct_len(p), ss3), VG_OK);
		assert_memory_equal(ss, ss3, 32);
		assert_int_equal(vg_mlkem_decaps(p, dk, vg_mlkem_dk_len(p), c2,
		    vg_mlkem_ct_len(p), ss3), VG_OK);
		assert_memory_equal(ss2, ss3, 32);
		assert_int_equal(vg_mlkem_encaps_expanded(as_ek(xbuf), NULL, c,
		    ss), VG_ERR_ARG);
		assert_memory_equal(ss, zeros, 32);
	}
	vg_rng_wipe(&rng);
}

/* Bad keys are refused at expansion, and the form is wiped. */
static void
test_bad_keys(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];
		size_t eklen = vg_mlkem_ek_len(p), dklen = vg_mlkem_dk_len(p);
		size_t off = dklen - 64 - eklen;
		uint8_t seed[VG_MLKEM_SEED_LEN], ek[VG_MLKEM_MAX_EK_LEN];
		uint8_t dk[VG_MLKEM_MAX_DK_LEN + 1];

		rnd_bytes(seed, sizeof(seed));
		assert_int_equal(vg_mlkem_keygen_internal(p, seed, ek, dk),
		    VG_OK);
		/* a coefficient of t-hat equal to q fails the modulus check */
		ek[0] = 0x01;
		ek[1] = (uint8_t)((ek[1] & 0xf0) | 0x0d);
		memset(xbuf, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_ek(p, ek, eklen, as_ek(xbuf),
		    XMAX), VG_ERR_DECODE);
		assert_memory_equal(xbuf, zeros, vg_mlkem_expanded_ek_size(p));
		assert_int_equal(vg_mlkem_check_ek(p, ek, eklen),
		    VG_ERR_DECODE);
		/* q - 1 passes */
		ek[0] = 0x00;
		assert_int_equal(vg_mlkem_expand_ek(p, ek, eklen, as_ek(xbuf),
		    XMAX), VG_OK);
		/* wrong lengths */
		memset(xbuf, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_ek(p, ek, eklen - 1,
		    as_ek(xbuf), XMAX), VG_ERR_DECODE);
		assert_memory_equal(xbuf, zeros, vg_mlkem_expanded_ek_size(p));
		memset(xbuf, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_dk(p, dk, dklen + 1,
		    as_dk(xbuf), XMAX), VG_ERR_DECODE);
		assert_memory_equal(xbuf, zeros, vg_mlkem_expanded_dk_size(p));
		/* a changed ek inside dk fails the hash check */
		dk[off + 5] ^= 0x10;
		memset(xbuf, 0x55, XMAX);
		assert_int_equal(vg_mlkem_expand_dk(p, dk, dklen, as_dk(xbuf),
		    XMAX), VG_ERR_DECODE);
		assert_memory_equal(xbuf, zeros, vg_mlkem_expanded_dk_size(p));
		dk[off + 5] ^= 0x10;
		/* and so does a changed H(ek) */
		dk[dklen - 33] ^= 0x01;
		assert_int_equal(vg_mlkem_expand_dk(p, dk, dklen, as_dk(xbuf),
		    XMAX), VG_ERR_DECODE);
		dk[dklen - 33] ^= 0x01;
		assert_int_equal(vg_mlkem_expand_dk(p, dk, dklen, as_dk(xbuf),
		    XMAX), VG_OK);
	}
}

/* Arguments: NULL pointers, unknown sets, small or misaligned buffers,
 * ciphertexts of the wrong length. */
static void
test_args(void **state)
{
	enum vg_mlkem_param p = VG_MLKEM_768;
	size_t ctlen = vg_mlkem_ct_len(p);
	uint8_t seed[VG_MLKEM_SEED_LEN] = { 1 }, m[32] = { 2 };
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	uint8_t c[VG_MLKEM_MAX_CT_LEN + 1], ss[32];
	struct vg_kernels kn;

	(void)state;
	vg_kernels_fill(&kn, vg_cpu_features());
	assert_int_equal(vg_mlkem_keygen_internal(p, seed, ek, dk), VG_OK);
	assert_int_equal(vg_mlkem_expand_ek(p, NULL, 1184, as_ek(xbuf), XMAX),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_ek(p, ek, 1184, NULL, XMAX),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_ek(VG_MLKEM_PARAM_COUNT, ek, 1184,
	    as_ek(xbuf), XMAX), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_ek(p, ek, 1184, as_ek(xbuf),
	    vg_mlkem_expanded_ek_size(p) - 1), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_ek(p, ek, 1184, as_ek(xbuf + 16),
	    XMAX - 16), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_ek_k(NULL, p, ek, 1184, as_ek(xbuf),
	    XMAX), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_dk(p, NULL, 2400, as_dk(xbuf), XMAX),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_dk(p, dk, 2400, as_dk(xbuf),
	    vg_mlkem_expanded_dk_size(p) - 1), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_dk(p, dk, 2400, as_dk(xbuf + 8),
	    XMAX - 8), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_expand_dk_k(NULL, p, dk, 2400, as_dk(xbuf),
	    XMAX), VG_ERR_ARG);

	assert_int_equal(vg_mlkem_expand_ek(p, ek, 1184, as_ek(xbuf), XMAX),
	    VG_OK);
	assert_int_equal(vg_mlkem_encaps_internal_expanded(NULL, m, c, ss),
	    VG_ERR_ARG);
	memset(ss, 0xaa, sizeof(ss));
	memset(c, 0xaa, sizeof(c));
	assert_int_equal(vg_mlkem_encaps_internal_expanded(as_ek(xbuf), NULL,
	    c, ss), VG_ERR_ARG);
	assert_memory_equal(ss, zeros, 32);
	assert_memory_equal(c, zeros, ctlen);
	assert_int_equal(vg_mlkem_encaps_internal_expanded(as_ek(xbuf), m,
	    NULL, ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps_internal_expanded_k(NULL, as_ek(xbuf),
	    m, c, ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_encaps_internal_expanded(as_ek(xbuf), m, c,
	    ss), VG_OK);

	assert_int_equal(vg_mlkem_expand_dk(p, dk, 2400, as_dk(xbuf2), XMAX),
	    VG_OK);
	memset(ss, 0xaa, sizeof(ss));
	assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf2), c, ctlen - 1,
	    ss), VG_ERR_LENGTH);
	assert_memory_equal(ss, zeros, 32);
	memset(ss, 0xaa, sizeof(ss));
	assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf2), c, ctlen + 1,
	    ss), VG_ERR_LENGTH);
	assert_memory_equal(ss, zeros, 32);
	assert_int_equal(vg_mlkem_decaps_expanded(NULL, c, ctlen, ss),
	    VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf2), NULL, ctlen,
	    ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps_expanded(as_dk(xbuf2), c, ctlen,
	    NULL), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps_expanded_k(NULL, as_dk(xbuf2), c,
	    ctlen, ss), VG_ERR_ARG);
	assert_int_equal(vg_mlkem_decaps_expanded_k(&kn.mlkem, as_dk(xbuf2), c,
	    ctlen, ss), VG_OK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_same_results),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
