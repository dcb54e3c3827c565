/*
 * The Curve25519 kernels (crypto/c25519_kernels.h) against their portable
 * twins: the 4x64-bit multiplication and squaring on edge values (0, 1,
 * p - 1, p, p + 1, 2^255 - 1, 2^255, 2^256 - 1, ...) and random ones,
 * limb for limb, and the result against an independent reduction; the
 * X25519 ladder on random scalars and on edge u-coordinates (0, 1, p,
 * p + 1, 2^255 - 1, top bit set); the Ed25519 comb (with both selections)
 * and double multiplication, and the comb's short form for scalars
 * below 2^253; the 64-bit fixed-base table against
 * multiples of B from the portable comb. The callee-saved registers survive each x86-64 kernel.
 * Without BMI2 and ADX only the twins' properties run.
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

/* The canonical bytes of X Y and Z T, equal for a consistent extended
 * point (x = X/Z, y = Y/Z, xy = T/Z). */
static void
assert_extended(const struct vg_ge25519 *p)
{
	uint8_t s1[32], s2[32];
	vg_fe25519 f;

	vg_fe25519_mul(f, p->X, p->Y);
	vg_fe25519_tobytes(s1, f);
	vg_fe25519_mul(f, p->Z, p->T);
	vg_fe25519_tobytes(s2, f);
	assert_memory_equal(s1, s2, 32);
}

/* Tight limbs: each below 2^51 + 2^15. */
static void
assert_tight(const struct vg_ge25519 *p)
{
	const uint64_t *f[4] = { p->X, p->Y, p->Z, p->T };
	int i, l;

	for (i = 0; i < 4; i++)
		for (l = 0; l < 5; l++)
			assert_true(f[i][l] < (1ULL << 51) + (1ULL << 15));
}

/*
 * The Ed25519 comb against its twin (the same point: the same encoding,
 * and X Y = Z T, since the ADX comb takes another path to it) on
 * edge scalars (0, 1, 8, L - 1, L, 2^255 - 1, digits all 8 or all -8) and
 * random ones below 2^255; the double multiplication against its twin
 * (the same encoding) with random scalars and points, the identity and a
 * point of order 2 for A, and zero scalars.
 */
static void
run_ed25519(const struct vg_c25519_kernels *k)
{
	static const uint8_t ell[32] = {
		0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
		0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	};
	uint8_t a[32], b[32], e1[32], e2[32];
	struct vg_ge25519 p1, p2, A;
	uint64_t s = 0x5eed5eed5eed5eedULL;
	int n, i;

	for (n = 0; n < 264; n++) {
		memset(a, 0, sizeof(a));
		switch (n) {
		case 0:
			break;
		case 1:
			a[0] = 1;
			break;
		case 2:
			a[0] = 8;
			break;
		case 3:
		case 4:
			memcpy(a, ell, 32);
			a[0] = (uint8_t)(a[0] - (n == 3));
			break;
		case 5:
			memset(a, 0xff, 32);
			a[31] = 0x7f;
			break;
		case 6:
			memset(a, 0x88, 32); /* every digit -8 after carries */
			a[31] = 0x08;
			break;
		case 7:
			memset(a, 0x77, 32);
			a[31] = 0x07;
			break;
		default:
			vg_xorshift_bytes(&s, a, 32);
			a[31] &= 0x7f;
		}
		vg_ge25519_scalarmult_base_c(&p1, a);
		k->ed25519_base(&p2, a);
		assert_tight(&p2);
		assert_extended(&p2);
		vg_ge25519_tobytes(e1, &p1);
		vg_ge25519_tobytes(e2, &p2);
		assert_memory_equal(e1, e2, 32);
		/* the encoding and the X25519 u from the kernel's own
		 * inversion (u = 0 for the identity, as the twin's) */
		memset(e2, 0xa5, 32);
		k->ed25519_base_bytes(e2, a, 0);
		assert_memory_equal(e1, e2, 32);
		vg_ge25519_scalarmult_base_bytes_c(e1, a, VG_GE25519_BASE_U);
		memset(e2, 0xa5, 32);
		k->ed25519_base_bytes(e2, a, VG_GE25519_BASE_U);
		assert_memory_equal(e1, e2, 32);
	}

	for (n = 0; n < 100; n++) {
		vg_xorshift_bytes(&s, a, 32);
		vg_xorshift_bytes(&s, b, 32);
		vg_xorshift_bytes(&s, e1, 32);
		a[31] &= 0x1f;
		b[31] &= 0x1f;
		e1[31] &= 0x7f;
		if (n == 1)
			memset(a, 0, 32);
		if (n == 2)
			memset(b, 0, 32);
		if (n == 3) {
			memset(a, 0, 32);
			memset(b, 0, 32);
		}
		vg_ge25519_scalarmult_base_c(&A, e1);
		if (n == 4)
			vg_ge25519_identity(&A);
		if (n == 5) {
			/* (0, -1): order 2 */
			memset(e1, 0xff, 32);
			e1[0] = 0xec;
			e1[31] = 0x7f;
			assert_int_equal(vg_ge25519_frombytes(&A, e1), 0);
		}
		vg_ge25519_double_scalarmult_vartime_c(&p1, a, &A, b);
		k->ed25519_double(&p2, a, &A, b);
		assert_tight(&p2);
		vg_ge25519_tobytes(e1, &p1);
		vg_ge25519_tobytes(e2, &p2);
		assert_memory_equal(e1, e2, 32);
	}
	/* the encoding checks the point, not its representation: [a] B
	 * from both multiplications */
	for (i = 0; i < 8; i++) {
		vg_xorshift_bytes(&s, a, 32);
		a[31] &= 0x0f;
		memset(b, 0, 32);
		k->ed25519_base(&p1, a);
		vg_ge25519_identity(&A);
		k->ed25519_double(&p2, b, &A, a);
		vg_ge25519_tobytes(e1, &p1);
		vg_ge25519_tobytes(e2, &p2);
		assert_memory_equal(e1, e2, 32);
	}
}

/* Sets the 5-bit field i (bits 5i .. 5i + 4) of a to v. */
static void
set_field(uint8_t a[32], int i, unsigned v)
{
	int b, bit;

	for (b = 0; b < 5; b++) {
		bit = 5 * i + b;
		a[bit / 8] &= (uint8_t)~(1u << (bit % 8));
		a[bit / 8] |= (uint8_t)(((v >> b) & 1) << (bit % 8));
	}
}

/*
 * The short form (VG_GE25519_BASE_SHORT, a < 2^253) of ed25519_base_bytes
 * against the full form of the twin, for the encoding and the u: 0, 1,
 * L - 1, 2^253 - 1, scalars whose radix-32 digits all carry or none do
 * (fields 16 or 15 under a top field of 7, the largest below 2^253),
 * runs of 16 at the top over random low fields, and random scalars below
 * L and below 2^253. Above 2^253 a top digit of 1 is dropped by the ADX
 * comb (so it does take the short path), not by the twin.
 */
static void
run_ed25519_short(const struct vg_c25519_kernels *k)
{
	static const uint8_t lm1[32] = {
		0xec, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
		0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
	};
	uint8_t a[32], h[64], e1[32], e2[32];
	uint64_t s = 0x0bad5eed0bad5eedULL;
	int n, i;

	for (n = 0; n < 200; n++) {
		memset(a, 0, sizeof(a));
		vg_xorshift_bytes(&s, h, sizeof(h));
		if (n == 1) {
			a[0] = 1;
		} else if (n == 2) {
			memcpy(a, lm1, 32);
		} else if (n == 3) {
			memset(a, 0xff, 32);
		} else if (n < 8) {
			/* every field 16, 15, or the two alternating */
			for (i = 0; i < 50; i++)
				set_field(a, i, n == 4 ? 16 : n == 5 ? 15 :
				    n == 6 ? 15 + (i & 1) : 16 - (i & 1));
			set_field(a, 50, 7);
		} else if (n < 40) {
			/* fields 50 - m .. 49 are 16, m = 1 .. 16 */
			memcpy(a, h, 32);
			for (i = 50 - (n - 8) / 2 - 1; i < 50; i++)
				set_field(a, i, 16);
			set_field(a, 50, n % 2 ? 7 : h[0] & 7u);
		} else if (n < 120) {
			vg_sc25519_reduce64(a, h);
		} else {
			memcpy(a, h, 32);
		}
		a[31] &= 0x1f; /* below 2^253 */
		vg_ge25519_scalarmult_base_bytes_c(e1, a, 0);
		memset(e2, 0xa5, 32);
		k->ed25519_base_bytes(e2, a, VG_GE25519_BASE_SHORT);
		assert_memory_equal(e1, e2, 32);
		vg_ge25519_scalarmult_base_bytes_c(e1, a, VG_GE25519_BASE_U);
		memset(e2, 0xa5, 32);
		k->ed25519_base_bytes(e2, a,
		    VG_GE25519_BASE_SHORT | VG_GE25519_BASE_U);
		assert_memory_equal(e1, e2, 32);
	}
	memset(a, 0xff, 32);
	a[31] = 0x7f; /* top digit 1 */
	k->ed25519_base_bytes(e1, a, 0);
	k->ed25519_base_bytes(e2, a, VG_GE25519_BASE_SHORT);
	if (strcmp(k->ed25519_impl, "c") == 0)
		assert_memory_equal(e1, e2, 32);
	else
		assert_memory_not_equal(e1, e2, 32);
}

static void
test_twins(void **state)
{
	struct vg_c25519_kernels k;

	(void)state;
	vg_c25519_kernels_fill(&k, 0);
	assert_string_equal(k.impl, "c");
	assert_string_equal(k.ed25519_impl, "c");
	run_field(&k);
	run_ladder(&k);
	run_ed25519(&k);
	run_ed25519_short(&k);
}

static void
test_adx(void **state)
{
#ifdef VG_HAVE_C25519_X86_64_KERNELS
	struct vg_c25519_kernels k;
	unsigned need = VG_CPU_BMI2 | VG_CPU_ADX;
	uint64_t a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, r[4];
	uint8_t kk[32] = { 1 }, u[32] = { 9 }, o[32];
	struct vg_ge25519 P;
	struct call_frame f;

	(void)state;
	if ((vg_cpu_detected() & need) != need) {
		printf("# no BMI2+ADX: the twins only\n");
		return;
	}
	vg_c25519_kernels_fill(&k, need);
	assert_string_equal(k.impl, "adx");
	assert_string_equal(k.ed25519_impl, "adx");
	run_field(&k);
	run_ladder(&k);
	run_ed25519(&k);
	run_ed25519_short(&k);
	if (vg_cpu_detected() & VG_CPU_AVX2) {
		vg_c25519_kernels_fill(&k, need | VG_CPU_AVX2);
		assert_string_equal(k.ed25519_impl, "adx+avx2");
		run_ed25519(&k);
		run_ed25519_short(&k);
	} else {
		printf("# no AVX2: the comb's AVX2 selection is not run\n");
	}

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
	f.fn = (void *)vg_ge25519_scalarmult_base_adx;
	f.arg[0] = (uint64_t)(uintptr_t)&P;
	f.arg[1] = (uint64_t)(uintptr_t)kk;
	call_checked_frame(&f);
	f.fn = (void *)vg_ge25519_scalarmult_base_bytes_adx;
	f.arg[0] = (uint64_t)(uintptr_t)o;
	f.arg[1] = (uint64_t)(uintptr_t)kk;
	f.arg[2] = 1;
	call_checked_frame(&f);
	f.fn = (void *)vg_ge25519_double_scalarmult_vartime_adx;
	f.arg[0] = (uint64_t)(uintptr_t)&P;
	f.arg[1] = (uint64_t)(uintptr_t)kk;
	f.arg[0] = (uint64_t)(uintptr_t)&P;
	f.arg[1] = (uint64_t)(uintptr_t)kk;
	f.arg[2] = (uint64_t)(uintptr_t)&vg_ed25519_base;
	f.arg[3] = (uint64_t)(uintptr_t)u;
	call_checked_frame(&f);
	if (vg_cpu_detected() & VG_CPU_AVX2) {
		f.fn = (void *)vg_ge25519_scalarmult_base_adx_avx2;
		f.arg[0] = (uint64_t)(uintptr_t)&P;
		f.arg[1] = (uint64_t)(uintptr_t)kk;
		call_checked_frame(&f);
		f.fn = (void *)vg_ge25519_scalarmult_base_bytes_adx_avx2;
		f.arg[0] = (uint64_t)(uintptr_t)o;
		f.arg[2] = 0;
		call_checked_frame(&f);
	}
#else
	(void)state;
	printf("# not x86-64: the twins only\n");
#endif
}

/* The AVX2 selection of the comb against the portable one: every row of
 * the table, every |digit| 0 .. 16 (0: the identity), and 17, out of range,
 * which selects nothing (all zero), with and without the swap of a
 * negative digit. */
static void
test_select(void **state)
{
#ifdef VG_HAVE_C25519_X86_64_KERNELS
	uint64_t t1[12], t2[12];
	const uint64_t *e;
	uint64_t b, neg;
	int row;

	(void)state;
	if (!(vg_cpu_detected() & VG_CPU_AVX2)) {
		printf("# no AVX2: the portable selection only\n");
		return;
	}
	for (row = 0; row < VG_ED25519_TABLE64_ROWS; row++) {
		for (b = 0; b <= 17; b++)
			for (neg = 0; neg <= 1; neg++) {
				vg_ed25519_select64_c(t1,
				    vg_ed25519_base_table64[row], b, neg);
				memset(t2, 0xa5, sizeof(t2));
				vg_ed25519_select64_avx2(t2,
				    vg_ed25519_base_table64[row], b, neg);
				assert_memory_equal(t1, t2, sizeof(t1));
				if (b < 1 || b > 16)
					continue;
				/* the entry, Y + X and Y - X swapped for neg */
				e = vg_ed25519_base_table64[row][b - 1];
				assert_memory_equal(t1, e + 4 * neg, 32);
				assert_memory_equal(t1 + 4, e + 4 - 4 * neg, 32);
				assert_memory_equal(t1 + 8, e + 8, 32);
			}
	}
	assert_int_equal(t1[0] | t1[4] | t1[8], 0); /* b = 17: nothing */
	vg_ed25519_select64_c(t1, vg_ed25519_base_table64[0], 0, 1);
	assert_true(t1[0] == 1 && t1[4] == 1 && t1[1] == 0 && t1[8] == 0);
#else
	(void)state;
	printf("# not x86-64: no AVX2 selection\n");
#endif
}

/* Entry j of row i of the 64-bit table is [j] 32^i B: the affine
 * (y + x, y - x, 2dxy) of the portable comb's [j 32^i mod L] B; the
 * entries j <= 8 of rows 0, 8, 16, ... are also those of rows 0, 5,
 * 10, ... of the radix-2^51 table (32^(8m) = 256^(5m)). */
static void
test_table64(void **state)
{
	struct vg_ge25519 p;
	vg_fe25519 zi, x, y, f[3];
	uint8_t w[64], a[32], s1[32], s2[32];
	int row, j, k, l, bit;

	(void)state;
	for (row = 0; row < VG_ED25519_TABLE64_ROWS; row++)
		for (j = 1; j <= VG_ED25519_TABLE64_COLS; j++) {
			/* j 2^(5 row) as 64 bytes, reduced modulo L */
			memset(w, 0, sizeof(w));
			bit = 5 * row;
			w[bit / 8] = (uint8_t)(j << (bit % 8));
			w[bit / 8 + 1] = (uint8_t)(j >> (8 - bit % 8));
			vg_sc25519_reduce64(a, w);
			vg_ge25519_scalarmult_base_c(&p, a);
			vg_fe25519_invert(zi, p.Z);
			vg_fe25519_mul(x, p.X, zi);
			vg_fe25519_mul(y, p.Y, zi);
			vg_fe25519_add(f[0], y, x);
			vg_fe25519_sub(f[1], y, x);
			vg_fe25519_mul(f[2], x, y);
			vg_fe25519_mul(f[2], f[2], vg_fe25519_d2);
			for (k = 0; k < 3; k++) {
				vg_fe25519_tobytes(s1, f[k]);
				for (l = 0; l < 32; l++)
					s2[l] = (uint8_t)(vg_ed25519_base_table64
					    [row][j - 1][4 * k + l / 8] >>
					    (8 * (l % 8)));
				assert_memory_equal(s1, s2, 32);
				if (row % 8 != 0 || j > VG_ED25519_TABLE_COLS)
					continue;
				vg_fe25519_tobytes(s2, k == 0 ?
				    vg_ed25519_base_table[5 * row / 8][j - 1].YpX :
				    k == 1 ?
				    vg_ed25519_base_table[5 * row / 8][j - 1].YmX :
				    vg_ed25519_base_table[5 * row / 8][j - 1].T2d);
				assert_memory_equal(s1, s2, 32);
			}
		}
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
	printf("# x25519 kernels in use: %s, ed25519: %s\n", g->c25519.impl,
	    g->c25519.ed25519_impl);
	if ((vg_cpu_features() & (VG_CPU_BMI2 | VG_CPU_ADX)) !=
	    (VG_CPU_BMI2 | VG_CPU_ADX)) {
		assert_string_equal(g->c25519.impl, "c");
		assert_string_equal(g->c25519.ed25519_impl, "c");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twins),
		cmocka_unit_test(test_adx),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_table64),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
