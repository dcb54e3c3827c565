/*
 * Kernel sub-table for RSA (Montgomery arithmetic): part of struct
 * vg_kernels (crypto/cpu.h), filled once by vg_rsa_kernels_fill() from the
 * features in use, IFMA > ADX > portable.
 *
 * Two families of kernels:
 *
 * 1. Montgomery multiply and square on 64-bit words (crypto/bn.h's
 *    contexts): m odd, n words (1 <= n <= 64 for the C twins; the ADX
 *    kernels need n % 4 == 0 and 4 <= n <= 64, which every context has),
 *    R = 2^(64n), m0i = -m^-1 mod 2^64. montmul: d = a * b / R mod m for
 *    a < R and b < m; montsqr: d = a^2 / R mod m for a < m; d < m, fully
 *    reduced, and d may alias the inputs.
 *    The almost-Montgomery variants (montmul_amm, montsqr_amm: the same
 *    types) serve the exponentiation's loop: a, b < R (any), and with
 *    t = (a * b + Y * m) / R, Y = -a * b * m^-1 mod R (t < R + m), d is
 *    t - m when t >= R and t otherwise, so d < R, congruent to a * b / R,
 *    and identical in every implementation; they wipe no stack (the
 *    caller wipes once, VG_WIPE_STACK in vg_bn_mont_exp).
 *
 * 2. The two CRT halves of RSA-2048, 3072 and 4096 at once in radix 2^52
 *    (AVX-512 IFMA on 256-bit registers [issue 5, item 4]): a half of
 *    1024, 1536 or 2048 bits (w = 16, 24, 32 64-bit words) is nl = 20,
 *    30 or 40 limbs of 52 bits in 64-bit words, R' = 2^(52 nl) (2^1040,
 *    2^1560, 2^2080), moduli odd below 2^(64 w), so 4m < R' with room to
 *    spare. An array of a number holds VG_RSA52_PAD(nl) limbs (whole
 *    256-bit registers), those from nl up zero in every input and output.
 *    The almost Montgomery multiply (AMM) returns (a * b + Y * m) / R'
 *    where Y is the unique value below R' that makes the division exact,
 *    in normalised limbs; for a, b < 2m (or a < R' and b < m) the result
 *    is below a * b / R' + m < 2m (4m < R'), so outputs feed the next AMM
 *    unreduced. "x2" functions run two independent problems of the same
 *    nl (index 0 and 1, arrays [2][VG_RSA52_MAX_LIMBS]) at once so that
 *    each hides the other's latency. Which half sizes run on IFMA is the
 *    kernel table's choice (amm52_words): only those where it was
 *    measured faster than the ADX kernel. These kernels leave no limb of
 *    their numbers on the stack: each entry point clears the frames of
 *    its callees before it returns.
 *
 * CT for every kernel: only n or nl (and for the exponentiation ebits)
 * may be observable; no branch or memory index depends on the values.
 */
#ifndef VG_CRYPTO_RSA_KERNELS_H
#define VG_CRYPTO_RSA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef void vg_bn_montmul_fn(uint64_t *d, const uint64_t *a,
    const uint64_t *b, const uint64_t *m, uint64_t m0i, size_t n);
typedef void vg_bn_montsqr_fn(uint64_t *d, const uint64_t *a,
    const uint64_t *m, uint64_t m0i, size_t n);

/*
 * Limb counts of the radix-2^52 halves: VG_RSA52_LIMBS(w) for a half of w
 * 64-bit words (16, 24, 32; 0 for any other size), the largest count, the
 * limbs an array holds for nl (whole 256-bit registers), and the largest
 * exponent width (in bits) the dual exponentiation accepts: 2048 plus 64
 * bits of exponent blinding, rounded up to whole 64-bit words and more.
 */
#define VG_RSA52_LIMBS(w)                                                 \
	((w) == 16 ? 20 : (w) == 24 ? 30 : (w) == 32 ? 40 : 0)
#define VG_RSA52_MAX_LIMBS 40
#define VG_RSA52_PAD(nl) (((nl) + 3) & ~(size_t)3)
#define VG_RSA52_MAX_EBITS 2176
/* The bit of a half size (w 64-bit words) in amm52_words. */
#define VG_RSA52_WORDS_BIT(w) (1u << ((w) / 8))

/*
 * d[k] = AMM(a[k], b[k]) mod m[k] for k = 0, 1, nl limbs (20, 30 or 40
 * for the IFMA kernel; 1 ... VG_RSA52_MAX_LIMBS for the C twin);
 * k0[k] = -m[k]^-1 mod 2^64 (only its low 52 bits matter). d may alias a
 * or b.
 */
typedef void vg_rsa_amm52x2_fn(uint64_t d[2][VG_RSA52_MAX_LIMBS],
    const uint64_t a[2][VG_RSA52_MAX_LIMBS],
    const uint64_t b[2][VG_RSA52_MAX_LIMBS],
    const uint64_t m[2][VG_RSA52_MAX_LIMBS], const uint64_t k0[2],
    size_t nl);

/*
 * Dual exponentiation in the AMM domain: d[k] = base[k]^e[k] (times R',
 * below 2m[k]) with fixed 5-bit windows and a full masked table read;
 * base[k] and one[k] (R' mod m[k]) are below 2m[k], e[k] has ebits bits
 * (ebits <= VG_RSA52_MAX_EBITS, the same public width for both) in
 * ceil(ebits / 64) words; nl as for the AMM. Every intermediate value is
 * wiped.
 */
typedef void vg_rsa_modexp52x2_fn(uint64_t d[2][VG_RSA52_MAX_LIMBS],
    const uint64_t base[2][VG_RSA52_MAX_LIMBS],
    const uint64_t one[2][VG_RSA52_MAX_LIMBS], const uint64_t *const e[2],
    unsigned ebits, const uint64_t m[2][VG_RSA52_MAX_LIMBS],
    const uint64_t k0[2], size_t nl);

/*
 * d[k] = a[k]^e in the AMM domain (a[k] below 2m[k]; d[k] below 2m[k])
 * by left-to-right square-and-multiply over the ebits >= 1 bits of e
 * (ceil(ebits / 64) words), the same e for both halves; nl as for the
 * AMM; one call instead of one AMM call per step, squarings by the
 * dedicated squaring where the kernel has one. e is public: the time and
 * the sequence of steps depend on it, not on a. d may alias a.
 */
typedef void vg_rsa_powpub52x2_fn(uint64_t d[2][VG_RSA52_MAX_LIMBS],
    const uint64_t a[2][VG_RSA52_MAX_LIMBS], const uint64_t *e,
    unsigned ebits, const uint64_t m[2][VG_RSA52_MAX_LIMBS],
    const uint64_t k0[2], size_t nl);

struct vg_rsa_kernels {
	const char *impl; /* "c", "adx", "ifma" or "ifma256" */
	vg_bn_montmul_fn *montmul;
	vg_bn_montsqr_fn *montsqr;
	vg_bn_montmul_fn *montmul_amm;
	vg_bn_montsqr_fn *montsqr_amm;
	/* NULL unless the IFMA kernel was chosen. */
	vg_rsa_amm52x2_fn *amm52x2;
	vg_rsa_modexp52x2_fn *modexp52x2;
	vg_rsa_powpub52x2_fn *powpub52x2;
	/* The half sizes the IFMA pair serves: VG_RSA52_WORDS_BIT(w) for
	 * each w (64-bit words) where it beats the 64-bit kernels; 0 when
	 * it is not chosen. */
	unsigned amm52_words;
};

/* Fills *k for the given VG_CPU_* feature set: IFMA (AVX512IFMA and
 * AVX512VL) adds the radix-2^52 pair; ADX (BMI2 and ADX) gives the 64-bit
 * kernels; otherwise the C twins. impl names the best one in use. */
void vg_rsa_kernels_fill(struct vg_rsa_kernels *k, unsigned features);

/* Portable twins (crypto/bn_mont.c, crypto/rsa_amm52.c). */
void vg_bn_montmul_c(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montsqr_c(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n);
void vg_bn_montmul_amm_c(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montsqr_amm_c(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n);
vg_rsa_amm52x2_fn vg_rsa_amm52x2_c;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_c;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_c;

/*
 * x86-64 kernels (crypto/x86_64/vg_rsa_*.c), called only when selected.
 * They belong in crypto/x86_64/kernels.h; they are declared here until
 * that header gains them.
 */
#if defined(__x86_64__)
#define VG_HAVE_RSA_X86_64_KERNELS 1
/* MULX/ADCX/ADOX (BMI2 + ADX). */
void vg_bn_montmul_adx(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montsqr_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n);
void vg_bn_montmul_amm_adx(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montsqr_amm_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n);
/* Their parts (crypto/x86_64/vg_bn_mont*_adx.c): the 4-word kernels (n a
 * multiple of 4) and, for n a multiple of 8, the 8 x 8 tile product t =
 * a b, triangle t = sum a[i] a[j] 2^(64(i+j)) over i < j (t: 2n words)
 * and reduction of t in place (returns the top word). */
void vg_bn_montmul4x_adx(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montmul_amm4x_adx(uint64_t *d, const uint64_t *a,
    const uint64_t *b, const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_montsqr4x_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n);
void vg_bn_montsqr_amm4x_adx(uint64_t *d, const uint64_t *a,
    const uint64_t *m, uint64_t m0i, size_t n);
void vg_bn_mul8x_adx(uint64_t *t, const uint64_t *a, const uint64_t *b,
    size_t n);
void vg_bn_sqrtri8x_adx(uint64_t *t, const uint64_t *a, size_t n);
uint64_t vg_bn_redc8x_adx(uint64_t *t, const uint64_t *m, size_t n,
    uint64_t m0i);
/* vg_bn_table_select (crypto/bn.h) with AVX2, n a multiple of 4. */
void vg_bn_table_select_avx2(uint64_t *d, const uint64_t *table,
    size_t count, size_t n, uint64_t idx);
/* d = t - (m & mask), n a multiple of 4; returns the borrow (0 or 1). */
uint64_t vg_bn_csub_adx(uint64_t *d, const uint64_t *t, const uint64_t *m,
    uint64_t mask, size_t n);
/* AVX-512 IFMA + AVX-512 VL + AVX-512 F: 512-bit registers for 30 and 40
 * limbs and for every size's square product. */
vg_rsa_amm52x2_fn vg_rsa_amm52x2_ifma;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_ifma;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_ifma;
/* The same on 256-bit registers only (AVX-512 IFMA + VL). */
vg_rsa_amm52x2_fn vg_rsa_amm52x2_ifma256;
vg_rsa_modexp52x2_fn vg_rsa_modexp52x2_ifma256;
vg_rsa_powpub52x2_fn vg_rsa_powpub52x2_ifma256;
#endif

#endif
