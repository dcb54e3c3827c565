/*
 * The Curve25519 kernels (crypto/c25519_kernels.h) against their portable
 * twins: the 4x64-bit multiplication and squaring on edge values (0, 1,
 * p - 1, p, p + 1, 2^255 - 1, 2^255, 2^256 - 1, ...) and random ones,
 * limb for limb, and the result against an independent reduction; the
 * X25519 ladder on random scalars and on edge u-coordinates (0, 1, p,
 * p + 1, 2^255 - 1, top bit set). The callee-saved registers survive each
 * x86-64 kernel. Without BMI2 and ADX only the twins' properties run.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "crypto/c25519.h"
#include "crypto/c25519_int.h"
#include "crypto/c25519_kernels.h"
#include "crypto/cpu.h"
#include "tests/xorshift.h"
#if defined(__x86_64__)
#include "tests/kernels/call_checked.h"
#endif

static const uint64_t edges[][4] = {
	{ 0, 0, 0, 0 },
	{ 1, 0, 0, 0 },
	{ 2, 0, 0, 0 },
	{ 38, 0, 0, 0 },
	{ 0xffffffffffffffecULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0xffffffffffffffedULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0xffffffffffffffeeULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ ~0ULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL },
	{ 0, 0, 0, 0x8000000000000000ULL },
	{ ~0ULL, ~0ULL, ~0ULL, ~0ULL },
	{ 0xffffffffffffffdaULL, ~0ULL, ~0ULL, ~0ULL },
	{ 0, 0, 0, 1 },
	{ ~0ULL, 0, ~0ULL, 0 },
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

/* The canonical bytes of a 4x64 element, through the radix-2^51 code (an
 * independent reduction). */
static void
canon(uint8_t s[32], const uint64_t a[4])
{
	uint8_t b[32];
	vg_fe25519 f, two255;
	int i;

	for (i = 0; i < 32; i++)
		b[i] = (uint8_t)(a[i / 8] >> (8 * (i % 8)));
	vg_fe25519_frombytes(f, b); /* drops bit 255: add 19 back */
	vg_fe25519_0(two255);
	two255[0] = 19 * (a[3] >> 63);
	vg_fe25519_add(f, f, two255);
	vg_fe25519_tobytes(s, f);
}

static void
check_pair(const uint64_t a[4], const uint64_t b[4],
    const struct vg_c25519_kernels *k)
{
	uint64_t r1[4], r2[4], r3[4];
	uint8_t s1[32], s2[32], sa[32], sb[32];
	vg_fe25519 fa, fb;

	vg_fe25519_mul64_c(r1, a, b);
	/* the twin agrees with the radix-2^51 product */
	canon(sa, a);
	canon(sb, b);
	vg_fe25519_frombytes(fa, sa);
	vg_fe25519_frombytes(fb, sb);
	vg_fe25519_mul(fa, fa, fb);
	vg_fe25519_tobytes(s1, fa);
	canon(s2, r1);
	assert_memory_equal(s1, s2, 32);
	k->mul64(r2, a, b);
	assert_memory_equal(r1, r2, sizeof(r1));
	vg_fe25519_sqr64_c(r1, a);
	k->sqr64(r3, a);
	assert_memory_equal(r1, r3, sizeof(r1));
	vg_fe25519_mul64_c(r2, a, a);
	assert_memory_equal(r1, r2, sizeof(r1));
}

static void
run_field(const struct vg_c25519_kernels *k)
{
	uint64_t a[4], b[4], s = 0x0123456789abcdefULL;
	size_t i, j;
	int n;

	for (i = 0; i < NEDGES; i++)
		for (j = 0; j < NEDGES; j++)
			check_pair(edges[i], edges[j], k);
	for (n = 0; n < 5000; n++) {
		vg_xorshift_bytes(&s, (uint8_t *)a, sizeof(a));
		vg_xorshift_bytes(&s, (uint8_t *)b, sizeof(b));
		if (n % 7 == 0)
			a[3] |= 0xffffffff00000000ULL;
		check_pair(a, b, k);
		/* aliasing */
		memcpy(b, a, sizeof(a));
		{
			uint64_t r[4], t[4];

			vg_fe25519_mul64_c(r, a, a);
			memcpy(t, a, sizeof(t));
			k->mul64(t, t, t);
			assert_memory_equal(r, t, sizeof(r));
			memcpy(t, a, sizeof(t));
			k->sqr64(t, t);
			assert_memory_equal(r, t, sizeof(r));
		}
	}
}

static void
run_ladder(const struct vg_c25519_kernels *k)
{
	static const char *const us[] = {
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"0900000000000000000000000000000000000000000000000000000000000000",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		"0000000000000000000000000000000000000000000000000000000000000080",
	};
	uint8_t kk[32], u[32], o1[32], o2[32];
	uint64_t s = 0xfedcba9876543210ULL;
	size_t i;
	int n;

	for (i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		unsigned v;
		size_t j;

		for (j = 0; j < 32; j++) {
			assert_int_equal(sscanf(us[i] + 2 * j, "%2x", &v), 1);
			u[j] = (uint8_t)v;
		}
		for (n = 0; n < 4; n++) {
			vg_xorshift_bytes(&s, kk, 32);
			vg_x25519_ladder_c(o1, kk, u);
			k->x25519(o2, kk, u);
			assert_memory_equal(o1, o2, 32);
		}
	}
	for (n = 0; n < 100; n++) {
		vg_xorshift_bytes(&s, kk, 32);
		vg_xorshift_bytes(&s, u, 32);
		vg_x25519_ladder_c(o1, kk, u);
		k->x25519(o2, kk, u);
		assert_memory_equal(o1, o2, 32);
	}
}

static void
test_twins(void **state)
{
	struct vg_c25519_kernels k;

	(void)state;
	vg_c25519_kernels_fill(&k, 0);
	assert_string_equal(k.impl, "c");
	run_field(&k);
	run_ladder(&k);
}

static void
test_adx(void **state)
{
#ifdef VG_HAVE_C25519_X86_64_KERNELS
	struct vg_c25519_kernels k;
	unsigned need = VG_CPU_BMI2 | VG_CPU_ADX;
	uint64_t a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, r[4];
	uint8_t kk[32] = { 1 }, u[32] = { 9 }, o[32];
	struct call_frame f;

	(void)state;
	if ((vg_cpu_detected() & need) != need) {
		printf("# no BMI2+ADX: the twins only\n");
		return;
	}
	vg_c25519_kernels_fill(&k, need);
	assert_string_equal(k.impl, "adx");
	run_field(&k);
	run_ladder(&k);

	memset(&f, 0, sizeof(f));
	f.fn = (void *)vg_fe25519_mul64_adx;
	f.arg[0] = (uint64_t)(uintptr_t)r;
	f.arg[1] = (uint64_t)(uintptr_t)a;
	f.arg[2] = (uint64_t)(uintptr_t)b;
	call_checked_frame(&f);
	f.fn = (void *)vg_fe25519_sqr64_adx;
	call_checked_frame(&f);
	f.fn = (void *)vg_x25519_ladder_adx;
	f.arg[0] = (uint64_t)(uintptr_t)o;
	f.arg[1] = (uint64_t)(uintptr_t)kk;
	f.arg[2] = (uint64_t)(uintptr_t)u;
	call_checked_frame(&f);
#else
	(void)state;
	printf("# not x86-64: the twins only\n");
#endif
}

/* The global table: vg_x25519 runs the kernel vgtoken-util --cpu names. */
static void
test_table(void **state)
{
	const struct vg_kernels *g = vg_kernels();
	struct vg_c25519_kernels c;
	uint8_t kk[32] = { 7 }, u[32] = { 9 }, o1[32], o2[32];

	(void)state;
	vg_c25519_kernels_fill(&c, 0);
	assert_int_equal(vg_x25519(o1, kk, u), VG_OK);
	assert_int_equal(vg_x25519_k(&c, o2, kk, u), VG_OK);
	assert_memory_equal(o1, o2, 32);
	assert_int_equal(vg_x25519_k(NULL, o2, kk, u), VG_ERR_ARG);
	printf("# x25519 kernels in use: %s\n", g->c25519.impl);
	if ((vg_cpu_features() & (VG_CPU_BMI2 | VG_CPU_ADX)) !=
	    (VG_CPU_BMI2 | VG_CPU_ADX))
		assert_string_equal(g->c25519.impl, "c");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twins),
		cmocka_unit_test(test_adx),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
