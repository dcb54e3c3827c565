/*
 * The P-256 kernels: the portable twins against known answers, each
 * MULX/ADX kernel (field multiplication and squaring, the order
 * multiplication, the three point formulas) and each AVX2 selection against
 * its twin on edge and random inputs (and the AVX-512 row selection), and
 * the kernel table against the features in use. A variant the CPU lacks
 * is skipped, saying why (the suite also runs under VG_CPU_FEATURES=none).
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
#include "crypto/p256_int.h"
#include "tests/xorshift.h"

static uint64_t rng_state = 0x7032353663ULL;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd4(uint64_t a[4])
{
	a[0] = rnd(), a[1] = rnd(), a[2] = rnd(), a[3] = rnd();
}

/* A random element below m. */
static void
rnd_below(uint64_t a[4], const uint64_t m[4])
{
	do
		rnd4(a);
	while (!vg_p256_lt4_mask(a, m));
}

#define NEDGE 14
/* Edge operands: 0, 1, 2, m - 2, m - 1, m, m + 1 (within 2^256),
 * 2^256 - 1, 2^255, 2^64 - 1, 2^192, 2^256 mod m, all-ones low halves. */
static void
edges(uint64_t e[NEDGE][4], const uint64_t m[4])
{
	static const uint64_t z[4] = { 0, 0, 0, 0 };
	uint64_t one[4] = { 1, 0, 0, 0 }, two[4] = { 2, 0, 0, 0 };
	int i = 0;

	vg_p256_copy4(e[i++], z);
	vg_p256_copy4(e[i++], one);
	vg_p256_copy4(e[i++], two);
	vg_p256_sub4(e[i++], m, two);
	vg_p256_sub4(e[i++], m, one);
	vg_p256_copy4(e[i++], m);
	vg_p256_add4(e[i++], m, one);
	memset(e[i++], 0xff, 32);
	memset(e[i], 0, 32);
	e[i++][3] = 1ULL << 63;
	memset(e[i], 0, 32);
	e[i++][0] = ~0ULL;
	memset(e[i], 0, 32);
	e[i++][3] = 1;
	vg_p256_sub4(e[i++], z, m);     /* 2^256 - m */
	memset(e[i], 0, 32);
	e[i][0] = e[i][1] = ~0ULL;      /* 2^128 - 1 */
	i++;
	memset(e[i], 0, 32);
	e[i][2] = e[i][3] = ~0ULL;      /* 2^256 - 2^128 */
	i++;
	assert_int_equal(i, NEDGE);
}

static void
test_c_twins_kat(void **state)
{
	static const uint64_t mul_gxgy[4] = {
		0x49131dd62dfa1c7dULL, 0x04b39b8a74bd829aULL,
		0x2c6c94e2b940cc5aULL, 0x64cfe5d68f68c3f4ULL,
	};
	static const uint64_t sqr_gx[4] = {
		0x0b265d0755686dc7ULL, 0x29cf115a4ce8a1bcULL,
		0x5e57eb53eb9b15e1ULL, 0xec775624ee15be17ULL,
	};
	static const uint64_t ord_gxgy[4] = {
		0x937a8749b8ffbf8bULL, 0x598c2462e72fcdd7ULL,
		0x139615519836f37cULL, 0x5a86a746aef305efULL,
	};
	uint64_t r[4], a[4], t[4], one[4] = { 1, 0, 0, 0 };
	int i;

	(void)state;
	vg_p256_mul_c(r, vg_p256_gx, vg_p256_gy);
	assert_memory_equal(r, mul_gxgy, 32);
	vg_p256_sqr_c(r, vg_p256_gx);
	assert_memory_equal(r, sqr_gx, 32);
	vg_p256_ord_mul_c(r, vg_p256_gx, vg_p256_gy);
	assert_memory_equal(r, ord_gxgy, 32);
	/* in and out of the Montgomery form; the form of 1 */
	for (i = 0; i < 1000; i++) {
		rnd_below(a, vg_p256_p);
		vg_p256_mul_c(t, a, vg_p256_rr);
		vg_p256_mul_c(r, t, one);
		assert_memory_equal(r, a, 32);
		vg_p256_mul_c(r, t, vg_p256_one);
		assert_memory_equal(r, t, 32);
		rnd_below(a, vg_p256_n);
		vg_p256_ord_mul_c(t, a, vg_p256_n_rr);
		vg_p256_ord_mul_c(r, t, one);
		assert_memory_equal(r, a, 32);
	}
}

typedef void mul_fn(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);

/* Every variant of a multiplication returns the same limbs for any
 * a, b < 2^256, also when r aliases a and/or b. */
static void
compare_mul(mul_fn *f, mul_fn *g, const uint64_t a[4], const uint64_t b[4])
{
	uint64_t r1[4], r2[4], x[4], y[4];

	f(r1, a, b);
	g(r2, a, b);
	assert_memory_equal(r1, r2, 32);
	vg_p256_copy4(x, a);
	f(x, x, b);
	assert_memory_equal(x, r1, 32);
	vg_p256_copy4(y, b);
	f(y, a, y);
	assert_memory_equal(y, r1, 32);
}

static int
have_adx(void)
{
	unsigned f = vg_cpu_detected();

	if ((f & (VG_CPU_BMI2 | VG_CPU_ADX)) == (VG_CPU_BMI2 | VG_CPU_ADX))
		return 1;
	printf("# skipped: this CPU lacks BMI2 and/or ADX (MULX, ADCX, "
	    "ADOX), so the adx kernels cannot run here\n");
	return 0;
}

#ifdef VG_HAVE_P256_X86_64_KERNELS
static void
sqr_as_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	(void)b;
	vg_p256_sqr_adx(r, a);
}

static void
sqr_as_mul_c(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	(void)b;
	vg_p256_sqr_c(r, a);
}

static void
test_adx_field_vs_c(void **state)
{
	uint64_t e[NEDGE][4], a[4], b[4];
	int i, j;

	(void)state;
	if (!have_adx()) {
		skip();
		return;
	}
	edges(e, vg_p256_p);
	for (i = 0; i < NEDGE; i++) {
		for (j = 0; j < NEDGE; j++)
			compare_mul(vg_p256_mul_adx, vg_p256_mul_c, e[i], e[j]);
		compare_mul(sqr_as_mul_adx, sqr_as_mul_c, e[i], e[i]);
	}
	edges(e, vg_p256_n);
	for (i = 0; i < NEDGE; i++)
		for (j = 0; j < NEDGE; j++)
			compare_mul(vg_p256_ord_mul_adx, vg_p256_ord_mul_c,
			    e[i], e[j]);
	for (i = 0; i < 200000; i++) {
		rnd4(a);
		rnd4(b);
		if (i & 1) {            /* operands in range, mostly */
			rnd_below(a, vg_p256_p);
			rnd_below(b, vg_p256_p);
		}
		compare_mul(vg_p256_mul_adx, vg_p256_mul_c, a, b);
		compare_mul(sqr_as_mul_adx, sqr_as_mul_c, a, a);
		compare_mul(vg_p256_ord_mul_adx, vg_p256_ord_mul_c, a, b);
		/* carries: a few limbs at extremes */
		a[i % 4] = i & 2 ? ~0ULL : 0;
		b[(i / 4) % 4] = i & 4 ? ~0ULL : 0;
		compare_mul(vg_p256_mul_adx, vg_p256_mul_c, a, b);
		compare_mul(sqr_as_mul_adx, sqr_as_mul_c, a, a);
		compare_mul(vg_p256_ord_mul_adx, vg_p256_ord_mul_c, a, b);
	}
}

static void
test_adx_sqr_n_vs_c(void **state)
{
	static const unsigned ns[] = { 1, 2, 3, 5, 31, 32, 128 };
	uint64_t e[NEDGE][4], a[4], r1[4], r2[4];
	size_t i, j;

	(void)state;
	if (!have_adx()) {
		skip();
		return;
	}
	for (j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
		edges(e, vg_p256_p);
		for (i = 0; i < NEDGE + 200; i++) {
			if (i < NEDGE)
				vg_p256_copy4(a, e[i]);
			else
				rnd4(a);
			vg_p256_sqr_n_adx(r1, a, ns[j]);
			vg_p256_sqr_n_c(r2, a, ns[j]);
			assert_memory_equal(r1, r2, 32);
			vg_p256_copy4(r2, a);
			vg_p256_sqr_n_adx(r2, r2, ns[j]);
			assert_memory_equal(r1, r2, 32);
		}
	}
	/* one squaring is the multiplication a * a */
	for (i = 0; i < 1000; i++) {
		rnd4(a);
		vg_p256_sqr_n_c(r1, a, 1);
		vg_p256_mul_c(r2, a, a);
		assert_memory_equal(r1, r2, 32);
	}
}

/* Random Jacobian point with coordinates < p (on the curve or not: the
 * formulas are functions of their inputs either way). */
static void
rnd_jac(struct vg_p256_jac *j)
{
	rnd_below(j->x, vg_p256_p);
	rnd_below(j->y, vg_p256_p);
	rnd_below(j->z, vg_p256_p);
}

static void
test_adx_points_vs_c(void **state)
{
	static const uint64_t z[4] = { 0, 0, 0, 0 };
	struct vg_p256_jac a, r1, r2, t;
	struct vg_p256_aff b;
	uint64_t e[VG_P256_W5_LIMBS];
	int i;

	(void)state;
	if (!have_adx()) {
		skip();
		return;
	}
	for (i = 0; i < 20000; i++) {
		rnd_jac(&a);
		rnd_jac(&t);
		if (i % 7 == 0)
			vg_p256_copy4(a.z, z);  /* O, and zero coordinates */
		if (i % 11 == 0)
			vg_p256_copy4(a.y, z);
		vg_p256_copy4(e, t.x);
		vg_p256_copy4(e + 4, t.y);
		vg_p256_copy4(e + 8, t.z);
		vg_p256_sqr_c(e + 12, t.z);
		vg_p256_mul_c(e + 16, e + 12, t.z);
		vg_p256_copy4(b.x, t.x);
		vg_p256_copy4(b.y, t.y);

		vg_p256_point_double_adx(&r1, &a);
		vg_p256_point_double_c(&r2, &a);
		assert_memory_equal(&r1, &r2, sizeof(r1));
		r2 = a;
		vg_p256_point_double_adx(&r2, &r2);     /* in place */
		assert_memory_equal(&r1, &r2, sizeof(r1));

		vg_p256_point_add_cached_adx(&r1, &a, e);
		vg_p256_point_add_cached_c(&r2, &a, e);
		assert_memory_equal(&r1, &r2, sizeof(r1));
		r2 = a;
		vg_p256_point_add_cached_adx(&r2, &r2, e);
		assert_memory_equal(&r1, &r2, sizeof(r1));

		vg_p256_point_add_affine_adx(&r1, &a, &b);
		vg_p256_point_add_affine_c(&r2, &a, &b);
		assert_memory_equal(&r1, &r2, sizeof(r1));
		r2 = a;
		vg_p256_point_add_affine_adx(&r2, &r2, &b);
		assert_memory_equal(&r1, &r2, sizeof(r1));
	}
}
#else
static void
test_adx_field_vs_c(void **state)
{
	(void)state;
	printf("# skipped: not an x86-64 build, there are no adx kernels\n");
	skip();
}

static void
test_adx_points_vs_c(void **state)
{
	test_adx_field_vs_c(state);
}

static void
test_adx_sqr_n_vs_c(void **state)
{
	test_adx_field_vs_c(state);
}
#endif

/* The selections against their definition (a row entry's y XORed with
 * flip: none, all ones, or a random word), and AVX2 and AVX-512 against
 * the twin. */
static void
test_select(void **state)
{
	static uint64_t w5[VG_P256_W5_ENTRIES][VG_P256_W5_LIMBS];
	static uint64_t w7[VG_P256_W7_ENTRIES][VG_P256_W7_LIMBS];
	static const uint32_t extra[] = { 0xffffffffu, 0x80000001u, 0x100u,
		0x10001u };
	uint64_t o1[VG_P256_W5_LIMBS], o2[VG_P256_W5_LIMBS], zero[20],
	    want[VG_P256_W7_LIMBS], flip;
	int avx2 = (vg_cpu_detected() & VG_CPU_AVX2) != 0;
	int avx512 = (vg_cpu_detected() & VG_CPU_AVX512F) != 0;
	uint32_t idx;
	size_t i, j;

	(void)state;
	if (!avx2)
		printf("# this CPU has no AVX2: only the portable selections "
		    "are checked\n");
	if (!avx512)
		printf("# this CPU has no AVX-512F: its row selection is not "
		    "checked\n");
	memset(zero, 0, sizeof(zero));
	for (i = 0; i < VG_P256_W5_ENTRIES; i++)
		for (j = 0; j < VG_P256_W5_LIMBS; j++)
			w5[i][j] = rnd();
	for (i = 0; i < VG_P256_W7_ENTRIES; i++)
		for (j = 0; j < VG_P256_W7_LIMBS; j++)
			w7[i][j] = rnd();
	for (idx = 0; idx < 70 + sizeof(extra) / sizeof(extra[0]); idx++) {
		uint32_t x = idx < 70 ? idx : extra[idx - 70];

		vg_p256_select_w5_c(o1, (const uint64_t (*)[20])w5, x);
		if (x >= 1 && x <= VG_P256_W5_ENTRIES)
			assert_memory_equal(o1, w5[x - 1], sizeof(o1));
		else
			assert_memory_equal(o1, zero, sizeof(o1));
		flip = idx % 3 == 0 ? 0 : idx % 3 == 1 ? ~(uint64_t)0 : rnd();
		if (x >= 1 && x <= VG_P256_W7_ENTRIES)
			memcpy(want, w7[x - 1], sizeof(want));
		else
			memset(want, 0, sizeof(want));
		for (j = 4; j < VG_P256_W7_LIMBS; j++)
			want[j] ^= flip;
		vg_p256_select_w7_c(o2, (const uint64_t (*)[8])w7, x, flip);
		assert_memory_equal(o2, want, 64);
#ifdef VG_HAVE_P256_X86_64_KERNELS
		if (avx2) {
			vg_p256_select_w5_avx2(o2, (const uint64_t (*)[20])w5,
			    x);
			assert_memory_equal(o1, o2, sizeof(o1));
			vg_p256_select_w7_avx2(o2, (const uint64_t (*)[8])w7,
			    x, flip);
			assert_memory_equal(o2, want, 64);
		}
		if (avx512) {
			memset(o2, 0xa5, sizeof(o2));
			vg_p256_select_w7_avx512(o2,
			    (const uint64_t (*)[8])w7, x, flip);
			assert_memory_equal(o2, want, 64);
		}
#endif
	}
}

/* The global table follows the features in use. */
static void
test_table_matches_features(void **state)
{
	const struct vg_p256_kernels *k = &vg_kernels()->p256;
	const char *env = getenv("VG_CPU_FEATURES");
	unsigned f = vg_cpu_features();
	struct vg_kernels t;

	(void)state;
#ifdef VG_HAVE_P256_X86_64_KERNELS
	if ((f & (VG_CPU_BMI2 | VG_CPU_ADX)) == (VG_CPU_BMI2 | VG_CPU_ADX)) {
		assert_string_equal(k->impl, "adx");
		assert_ptr_equal(k->mul, vg_p256_mul_adx);
		assert_ptr_equal(k->point_double, vg_p256_point_double_adx);
	} else
#endif
	{
		assert_string_equal(k->impl, "c");
		assert_ptr_equal(k->mul, vg_p256_mul_c);
		assert_ptr_equal(k->point_double, vg_p256_point_double_c);
	}
#ifdef VG_HAVE_P256_X86_64_KERNELS
	if ((f & VG_CPU_AVX2) && (f & VG_CPU_AVX512F)) {
		assert_string_equal(k->select_impl, "avx512");
		assert_ptr_equal(k->select_w5, vg_p256_select_w5_avx2);
		assert_ptr_equal(k->select_w7, vg_p256_select_w7_avx512);
	} else if (f & VG_CPU_AVX2) {
		assert_string_equal(k->select_impl, "avx2");
		assert_ptr_equal(k->select_w5, vg_p256_select_w5_avx2);
		assert_ptr_equal(k->select_w7, vg_p256_select_w7_avx2);
	} else
#endif
	{
		assert_string_equal(k->select_impl, "c");
		assert_ptr_equal(k->select_w5, vg_p256_select_w5_c);
	}
	vg_kernels_fill(&t, 0);
	assert_string_equal(t.p256.impl, "c");
	assert_string_equal(t.p256.select_impl, "c");
	assert_ptr_equal(t.p256.sqr, vg_p256_sqr_c);
	assert_ptr_equal(t.p256.ord_mul, vg_p256_ord_mul_c);
	assert_ptr_equal(t.p256.sqr_n, vg_p256_sqr_n_c);
	assert_ptr_equal(t.p256.point_add_cached, vg_p256_point_add_cached_c);
	assert_ptr_equal(t.p256.point_add_affine, vg_p256_point_add_affine_c);
	assert_ptr_equal(t.p256.select_w7, vg_p256_select_w7_c);
	printf("# VG_CPU_FEATURES=%s: p256=%s select=%s\n",
	    env != NULL ? env : "(unset)", k->impl, k->select_impl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c_twins_kat),
		cmocka_unit_test(test_adx_field_vs_c),
		cmocka_unit_test(test_adx_sqr_n_vs_c),
		cmocka_unit_test(test_adx_points_vs_c),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_table_matches_features),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
