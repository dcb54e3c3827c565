/* CPU feature mask parsing, the kernel table, constant-time helpers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"

static void
test_parse_mask(void **state)
{
	unsigned all = (1u << VG_CPU_FEATURE_COUNT) - 1, bad;

	(void)state;
	assert_int_equal(vg_cpu_parse_mask(NULL, &bad), all);
	assert_int_equal(bad, 0);
	assert_int_equal(vg_cpu_parse_mask("none", &bad), 0);
	assert_int_equal(vg_cpu_parse_mask("", &bad), 0);
	assert_int_equal(vg_cpu_parse_mask("all", &bad), all);
	assert_int_equal(vg_cpu_parse_mask("avx2,bmi2", &bad),
	    VG_CPU_AVX2 | VG_CPU_BMI2);
	assert_int_equal(bad, 0);
	assert_int_equal(vg_cpu_parse_mask(" adx , aesni,,shani ", &bad),
	    VG_CPU_ADX | VG_CPU_AESNI | VG_CPU_SHANI);
	assert_int_equal(vg_cpu_parse_mask("avx512ifma,avx512vl,avx512f", &bad),
	    VG_CPU_AVX512IFMA | VG_CPU_AVX512VL | VG_CPU_AVX512F);
	assert_int_equal(vg_cpu_parse_mask("avx2,sse9,avx", &bad),
	    VG_CPU_AVX2 | VG_CPU_AVX);
	assert_int_equal(bad, 1);
	/* Prefixes and longer names do not match. */
	assert_int_equal(vg_cpu_parse_mask("avx2x,av", &bad), 0);
	assert_int_equal(bad, 2);
}

static void
test_names(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < VG_CPU_FEATURE_COUNT; i++) {
		const char *n = vg_cpu_feature_name(i);

		assert_non_null(n);
		assert_int_equal(vg_cpu_parse_mask(n, NULL), 1u << i);
	}
	assert_null(vg_cpu_feature_name(VG_CPU_FEATURE_COUNT));
}

/* The global table follows VG_CPU_FEATURES and never picks a kernel the
 * CPU lacks. */
static void
test_table(void **state)
{
	const struct vg_kernels *k = vg_kernels();
	unsigned det = vg_cpu_detected();
	unsigned mask = vg_cpu_parse_mask(getenv("VG_CPU_FEATURES"), NULL);
	struct vg_kernels none;

	(void)state;
	assert_int_equal(vg_cpu_features(), det & mask);
	assert_int_equal(k->features, det & mask);
	assert_int_equal(strcmp(k->sha256_impl, "shani") == 0,
	    (k->features & VG_CPU_SHANI) != 0);
	assert_int_equal(strcmp(k->aes_impl, "aesni") == 0,
	    (k->features & VG_CPU_AESNI) != 0);
	assert_int_equal(strcmp(k->ghash_impl, "pclmul") == 0,
	    (k->features & VG_CPU_PCLMUL) != 0);

	vg_kernels_fill(&none, 0);
	assert_string_equal(none.sha1_impl, "c");
	assert_string_equal(none.sha256_impl, "c");
	assert_string_equal(none.sha512_impl, "c");
	assert_string_equal(none.keccak_impl, "c");
	assert_string_equal(none.aes_impl, "c");
	assert_string_equal(none.ghash_impl, "c");
	assert_ptr_equal(none.sha256_blocks, vg_sha256_blocks_c);
	assert_ptr_equal(none.aes_encrypt, vg_aes_encrypt_c);
}

static void
test_ct(void **state)
{
	static const uint64_t v[] = { 0, 1, 2, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, 0xffffffffffffffffULL, 12345 };
	size_t i, j;
	uint8_t a[33], b[33];

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_true(vg_ct_zero_mask64(v[i]) ==
		    (v[i] == 0 ? ~0ULL : 0));
		assert_true(vg_ct_nonzero64(v[i]) == (v[i] != 0));
		for (j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
			assert_true(vg_ct_eq_mask64(v[i], v[j]) ==
			    (v[i] == v[j] ? ~0ULL : 0));
			assert_true(vg_ct_lt_mask64(v[i], v[j]) ==
			    (v[i] < v[j] ? ~0ULL : 0));
			assert_true(vg_ct_select64(~0ULL, v[i], v[j]) == v[i]);
			assert_true(vg_ct_select64(0, v[i], v[j]) == v[j]);
			assert_true(vg_ct_eq_mask32((uint32_t)v[i],
			    (uint32_t)v[j]) ==
			    ((uint32_t)v[i] == (uint32_t)v[j] ? ~0u : 0));
		}
	}
	memset(a, 0x5a, sizeof(a));
	memset(b, 0x5a, sizeof(b));
	assert_true(vg_ct_memeq(a, b, sizeof(a)) == ~0u);
	assert_true(vg_ct_memeq(a, b, 0) == ~0u);
	b[32] ^= 0x80;
	assert_true(vg_ct_memeq(a, b, sizeof(a)) == 0);
	vg_ct_cmov(a, b, sizeof(a), 0);
	assert_int_equal(a[32], 0x5a);
	vg_ct_cmov(a, b, sizeof(a), ~0u);
	assert_memory_equal(a, b, sizeof(a));
}

static void
test_wipe(void **state)
{
	uint8_t buf[64];
	size_t i;

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	vg_wipe(buf + 1, 62);
	assert_int_equal(buf[0], 0xa5);
	for (i = 1; i < 63; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(buf[63], 0xa5);
	vg_wipe(NULL, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_mask),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_ct),
		cmocka_unit_test(test_wipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
