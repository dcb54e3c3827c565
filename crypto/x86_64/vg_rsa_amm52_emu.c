/*
 * The AVX-512 IFMA kernels (vg_rsa_amm52_ifma.c) built a second time with
 * SIMDe (Debian libsimde-dev) for CPUs without IFMA: the functions
 * vg_rsa_amm52x2_emu and vg_rsa_modexp52x2_emu run the kernel's own logic
 * on portable code, so the tests compare it with the portable twins on
 * every machine. SIMDe has neither VPMADD52LUQ/HUQ nor VALIGNQ (256 and
 * 512 bits); they are defined here, the high product half with 26-bit
 * splits so that no 128-bit arithmetic is shared with the reference.
 *
 * Not part of the library: libvgrsa52emu.la (crypto/rsa.am), for the tests
 * that link it (test_rsa_amm52, tests/ct/ct_check). Where SIMDe is
 * missing, VG_RSA_HAVE_EMU is 0 and nothing is built.
 */
#include "config.h"

#include <stdint.h>

#if defined(__has_include)
#if __has_include(<simde/x86/avx512.h>)
#define VG_RSA_HAVE_EMU 1
#endif
#endif

#ifdef VG_RSA_HAVE_EMU
/* SIMDe's 256-bit types are passed by value between this file's own static
 * functions only; the ABI note about them does not apply */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
/* Under ASan, GCC takes more than ten minutes over this file at -O2 (the
 * SIMDe functions inlined into the unrolled kernel, then instrumented),
 * and one at -O1: the test build needs no more. */
#if defined(__SANITIZE_ADDRESS__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O1")
#endif
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#define VG_M52 0xfffffffffffffULL

/* a * b of two 52-bit values as (low 52 bits, high 52 bits), by 26-bit
 * halves: a = a1 2^26 + a0, b = b1 2^26 + b0. */
static void
mul52(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
	const uint64_t m26 = ((uint64_t)1 << 26) - 1;
	uint64_t a0 = a & m26, a1 = a >> 26, b0 = b & m26, b1 = b >> 26;
	uint64_t mid = a1 * b0 + a0 * b1;      /* < 2^53 */
	uint64_t low = a0 * b0 + ((mid & m26) << 26); /* < 2^53 */

	*lo = low & VG_M52;
	*hi = a1 * b1 + (mid >> 26) + (low >> 52);
}

static simde__m256i
madd52(simde__m256i acc, simde__m256i a, simde__m256i b, int high)
{
	uint64_t x[4], y[4], z[4], lo, hi;
	int i;

	simde_mm256_storeu_si256((simde__m256i *)(void *)x, acc);
	simde_mm256_storeu_si256((simde__m256i *)(void *)y, a);
	simde_mm256_storeu_si256((simde__m256i *)(void *)z, b);
	for (i = 0; i < 4; i++) {
		mul52(y[i] & VG_M52, z[i] & VG_M52, &lo, &hi);
		x[i] += high ? hi : lo;
	}
	return simde_mm256_loadu_si256((const simde__m256i *)(const void *)x);
}

static simde__m256i
vg_emu_madd52lo(simde__m256i acc, simde__m256i a, simde__m256i b)
{
	return madd52(acc, a, b, 0);
}

static simde__m256i
vg_emu_madd52hi(simde__m256i acc, simde__m256i a, simde__m256i b)
{
	return madd52(acc, a, b, 1);
}

/* VALIGNQ ymm: the four qwords from position imm of b:a (b low). */
static simde__m256i
vg_emu_alignr_epi64(simde__m256i a, simde__m256i b, int imm)
{
	uint64_t x[8], r[4];
	int i;

	simde_mm256_storeu_si256((simde__m256i *)(void *)x, b);
	simde_mm256_storeu_si256((simde__m256i *)(void *)(x + 4), a);
	for (i = 0; i < 4; i++)
		r[i] = i + (imm & 3) < 8 ? x[i + (imm & 3)] : 0;
	return simde_mm256_loadu_si256((const simde__m256i *)(const void *)r);
}

/* The 512-bit forms, as two 256-bit halves. */
static simde__m512i
madd52_512(simde__m512i acc, simde__m512i a, simde__m512i b, int high)
{
	return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(
	    madd52(simde_mm512_castsi512_si256(acc),
	    simde_mm512_castsi512_si256(a), simde_mm512_castsi512_si256(b),
	    high)), madd52(simde_mm512_extracti64x4_epi64(acc, 1),
	    simde_mm512_extracti64x4_epi64(a, 1),
	    simde_mm512_extracti64x4_epi64(b, 1), high), 1);
}

static simde__m512i
vg_emu_madd52lo512(simde__m512i acc, simde__m512i a, simde__m512i b)
{
	return madd52_512(acc, a, b, 0);
}

static simde__m512i
vg_emu_madd52hi512(simde__m512i acc, simde__m512i a, simde__m512i b)
{
	return madd52_512(acc, a, b, 1);
}

/* VALIGNQ zmm: the eight qwords from position imm of b:a (b low). */
static simde__m512i
vg_emu_alignr512_epi64(simde__m512i a, simde__m512i b, int imm)
{
	uint64_t x[16], r[8];
	int i;

	simde_mm512_storeu_si512((void *)x, b);
	simde_mm512_storeu_si512((void *)(x + 8), a);
	for (i = 0; i < 8; i++)
		r[i] = i + (imm & 7) < 16 ? x[i + (imm & 7)] : 0;
	return simde_mm512_loadu_si512((const void *)r);
}

#define _mm512_madd52lo_epu64 vg_emu_madd52lo512
#define _mm512_madd52hi_epu64 vg_emu_madd52hi512
#define _mm512_alignr_epi64 vg_emu_alignr512_epi64
#define _mm256_madd52lo_epu64 vg_emu_madd52lo
#define _mm256_madd52hi_epu64 vg_emu_madd52hi
#define _mm256_alignr_epi64 vg_emu_alignr_epi64

#define VG_RSA_IFMA_EMU 1
#include "crypto/x86_64/vg_rsa_amm52_ifma.c"
#endif

/* 1 if the emulated kernels were built. */
int vg_rsa_amm52_emu_available(void);

int
vg_rsa_amm52_emu_available(void)
{
#ifdef VG_RSA_HAVE_EMU
	return 1;
#else
	return 0;
#endif
}
