/*
 * GF(2^255 - 19) on 4 64-bit limbs with MULX, ADCX and ADOX (BMI2 and
 * ADX), as inline functions for the Curve25519 kernels that build on
 * them (crypto/x86_64/vg_fe25519_mul64_adx.c: the field kernels and the
 * X25519 ladder; vg_ed25519_adx.c: the Edwards point formulas): inlining
 * them leaves no call and no dispatch per field operation.
 *
 * Every operand is any value below 2^256 standing for itself modulo
 * p = 2^255 - 19, and so is every result (not necessarily below p); r may
 * alias the inputs. The results are those of the portable twins
 * vg_fe25519_mul64_c and vg_fe25519_sqr64_c (crypto/c25519_kernels.h)
 * limb for limb.
 *
 * Multiplication: the 512-bit product row by row, each row on two carry
 * chains (ADCX for the low halves, ADOX for the high halves). Squaring:
 * the six cross products once, doubled on the ADCX chain while the squares
 * are added on the ADOX chain (the product code of vg_p256_field_adx.c).
 * Reduction: 2^256 = 38 (mod p), so lo + 38 hi on the two chains again,
 * then the carry word times 38, then 38 once more under a mask if that
 * carried out.
 * Addition and subtraction are inline assembly too: the compiler's code
 * for them (carry intrinsics, two carry passes) cost an eighth of the
 * ladder's time.
 * CT: straight-line code, no data-dependent branch or memory index.
 */
#ifndef VG_CRYPTO_X86_64_VG_FE25519_ADX_H
#define VG_CRYPTO_X86_64_VG_FE25519_ADX_H

#include <stdint.h>

#if defined(__x86_64__)

/* Eleven registers are clobbered and three hold pointers; memory is
 * named by a "memory" clobber rather than by memory operands, which would
 * need address registers the compiler does not have left in unoptimised
 * and sanitizer builds ("impossible constraints"). */
#define CLOBBERS "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", \
	"r13", "r14", "r15", "cc", "memory"

/* Row i of the product: t[i .. i+4] += a * b[i] (t[i+4] is new). */
#include "crypto/x86_64/vg_mul4x64_adx.h"

/* r8 .. r11 += 38 (r12 .. r15) on the two carry chains, the carry word
 * left in r12 and rax zero (FOLD here, LFOLD in the ladder). */
#define FOLD38 \
	"movl $38, %%edx\n\t" \
	"xorl %%eax, %%eax\n\t" \
	"mulxq %%r12, %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r8\n\t" \
	"adoxq %%rbx, %%r9\n\t" \
	"mulxq %%r13, %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r9\n\t" \
	"adoxq %%rbx, %%r10\n\t" \
	"mulxq %%r14, %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r10\n\t" \
	"adoxq %%rbx, %%r11\n\t" \
	"mulxq %%r15, %%rax, %%r12\n\t" \
	"adcxq %%rax, %%r11\n\t" \
	"movl $0, %%eax\n\t" \
	"adoxq %%rax, %%r12\n\t" \
	"adcxq %%rax, %%r12\n\t"

/* r8 .. r11 + 38 (r12 .. r15), the carry word times 38, and 38 more
 * under a mask on the last carry; stored to r. */
#define FOLD \
	FOLD38 \
	"imulq $38, %%r12, %%r12\n\t" \
	"addq %%r12, %%r8\n\t" \
	"adcq $0, %%r9\n\t" \
	"adcq $0, %%r10\n\t" \
	"adcq $0, %%r11\n\t" \
	"sbbq %%rax, %%rax\n\t" \
	"andq $38, %%rax\n\t" \
	"addq %%rax, %%r8\n\t" \
	"movq %%r8, 0(%[r])\n\t" \
	"movq %%r9, 8(%[r])\n\t" \
	"movq %%r10, 16(%[r])\n\t" \
	"movq %%r11, 24(%[r])\n\t"

static inline __attribute__((always_inline)) void
vg_fe64_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(MUL_PROD FOLD
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS);
}

static inline __attribute__((always_inline)) void
vg_fe64_sqr(uint64_t r[4], const uint64_t a[4])
{
	__asm__(SQR_PROD FOLD
	    :
	    : [r] "r"(r), [a] "r"(a)
	    : CLOBBERS);
}

/* The registers add, sub and mul_small clobber (besides their pointers). */
#define CLOBBERS_ADD "rax", "rcx", "r8", "r9", "r10", "r11", "cc", "memory"

/* Instructions of the additions and subtractions, for the operands
 * [a] and [b] and the result [r]: one pass of a + b (a - b) into r8-r11,
 * its carry (borrow) out of 2^256 folded back in as 38 (rcx = 0, rax
 * clobbered), and the store of r8-r11. */
#define FE64_ADD_PASS                                                     \
	"movq 0(%[a]), %%r8\n\t"                                          \
	"movq 8(%[a]), %%r9\n\t"                                          \
	"movq 16(%[a]), %%r10\n\t"                                        \
	"movq 24(%[a]), %%r11\n\t"                                        \
	"xorl %%ecx, %%ecx\n\t"                                           \
	"addq 0(%[b]), %%r8\n\t"                                          \
	"adcq 8(%[b]), %%r9\n\t"                                          \
	"adcq 16(%[b]), %%r10\n\t"                                        \
	"adcq 24(%[b]), %%r11\n\t"                                        \
	"movl $38, %%eax\n\t"                                             \
	"cmovncl %%ecx, %%eax\n\t"                                        \
	"addq %%rax, %%r8\n\t"                                            \
	"adcq %%rcx, %%r9\n\t"                                            \
	"adcq %%rcx, %%r10\n\t"                                           \
	"adcq %%rcx, %%r11\n\t"
#define FE64_SUB_PASS                                                     \
	"movq 0(%[a]), %%r8\n\t"                                          \
	"movq 8(%[a]), %%r9\n\t"                                          \
	"movq 16(%[a]), %%r10\n\t"                                        \
	"movq 24(%[a]), %%r11\n\t"                                        \
	"xorl %%ecx, %%ecx\n\t"                                           \
	"subq 0(%[b]), %%r8\n\t"                                          \
	"sbbq 8(%[b]), %%r9\n\t"                                          \
	"sbbq 16(%[b]), %%r10\n\t"                                        \
	"sbbq 24(%[b]), %%r11\n\t"                                        \
	"movl $38, %%eax\n\t"                                             \
	"cmovncl %%ecx, %%eax\n\t"                                        \
	"subq %%rax, %%r8\n\t"                                            \
	"sbbq %%rcx, %%r9\n\t"                                            \
	"sbbq %%rcx, %%r10\n\t"                                           \
	"sbbq %%rcx, %%r11\n\t"
#define FE64_STORE                                                        \
	"movq %%r8, 0(%[r])\n\t"                                          \
	"movq %%r9, 8(%[r])\n\t"                                          \
	"movq %%r10, 16(%[r])\n\t"                                        \
	"movq %%r11, 24(%[r])\n\t"

/* r = a + b (mod p), r < 2^256: a carry out of 2^256 is worth 38, and a
 * second carry (only when the low limb is small) 38 more. */
static inline __attribute__((always_inline)) void
vg_fe64_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(FE64_ADD_PASS
		"movl $38, %%eax\n\t"
		"cmovncl %%ecx, %%eax\n\t"
		"addq %%rax, %%r8\n\t"
		FE64_STORE
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

/* r = a - b (mod p): a borrow out of 2^256 costs 38, and a second borrow
 * (only when the low limb is large) 38 more. */
static inline __attribute__((always_inline)) void
vg_fe64_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(FE64_SUB_PASS
		"movl $38, %%eax\n\t"
		"cmovncl %%ecx, %%eax\n\t"
		"subq %%rax, %%r8\n\t"
		FE64_STORE
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

#endif

#endif
