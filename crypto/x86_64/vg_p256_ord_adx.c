/*
 * Montgomery arithmetic modulo the P-256 group order n with MULX, ADCX and
 * ADOX (BMI2 and ADX): the kernel vg_p256_ord_mul_adx, with the contract of
 * its portable twin (crypto/p256_kernels.h); selected by
 * vg_p256_kernels_fill when the CPU has both extensions.
 *
 * The 512-bit product as in crypto/x86_64/vg_p256_field_adx.c;
 * then four word-by-word reduction steps with m = w0 * (-n^-1 mod 2^64),
 * each adding m n on two carry chains, the high half, and one conditional
 * subtraction of n.
 * CT: straight-line code, no data-dependent branch or memory index.
 */
#include "config.h"

#include "crypto/p256_kernels.h"

#if defined(__x86_64__)

static const uint64_t ord_n[4] = {
	0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
	0xffffffffffffffffULL, 0xffffffff00000000ULL,
};
static const uint64_t ord_n0 = 0xccd1c8aaee00bc4fULL;

/* One reduction step on the window (w0, w1, w2, w3): m = w0 n0; the window
 * becomes (w1, w2, w3, w0) = (window + m n) / 2^64. */
#define ORD_REDC_STEP(w0, w1, w2, w3)                                 \
	"movq " w0 ", %%rdx\n\t"                                      \
	"imulq %[n0], %%rdx\n\t"                                      \
	"xorl %%eax, %%eax\n\t"                                       \
	"mulxq 0+%[n], %%rax, %%rbx\n\t"                              \
	"adcxq %%rax, " w0 "\n\t"                                     \
	"adoxq %%rbx, " w1 "\n\t"                                     \
	"mulxq 8+%[n], %%rax, %%rbx\n\t"                              \
	"adcxq %%rax, " w1 "\n\t"                                     \
	"adoxq %%rbx, " w2 "\n\t"                                     \
	"mulxq 16+%[n], %%rax, %%rbx\n\t"                             \
	"adcxq %%rax, " w2 "\n\t"                                     \
	"adoxq %%rbx, " w3 "\n\t"                                     \
	"mulxq 24+%[n], %%rax, " w0 "\n\t"                            \
	"adcxq %%rax, " w3 "\n\t"                                     \
	"movl $0, %%eax\n\t"                                          \
	"adoxq %%rax, " w0 "\n\t"                                     \
	"adcxq %%rax, " w0 "\n\t"

/* Row i of the product: t[i .. i+4] += a * b[i] (t[i+4] is new). */
#define MUL_ROW(off, ti, ti1, ti2, ti3, ti4)                          \
	"movq " off "(%[b]), %%rdx\n\t"                               \
	"xorl %%eax, %%eax\n\t"                                       \
	"mulxq 0(%[a]), %%rax, %%rbx\n\t"                             \
	"adcxq %%rax, " ti "\n\t"                                     \
	"adoxq %%rbx, " ti1 "\n\t"                                    \
	"mulxq 8(%[a]), %%rax, %%rbx\n\t"                             \
	"adcxq %%rax, " ti1 "\n\t"                                    \
	"adoxq %%rbx, " ti2 "\n\t"                                    \
	"mulxq 16(%[a]), %%rax, %%rbx\n\t"                            \
	"adcxq %%rax, " ti2 "\n\t"                                    \
	"adoxq %%rbx, " ti3 "\n\t"                                    \
	"mulxq 24(%[a]), %%rax, " ti4 "\n\t"                          \
	"adcxq %%rax, " ti3 "\n\t"                                    \
	"movl $0, %%eax\n\t"                                          \
	"adoxq %%rax, " ti4 "\n\t"                                    \
	"adcxq %%rax, " ti4 "\n\t"

/* The reduction of r8 .. r15 (low half r8 .. r11) modulo n, the final
 * subtraction and the store to r. */
#define ORD_REDC_STORE \
	ORD_REDC_STEP("%%r8", "%%r9", "%%r10", "%%r11") \
	ORD_REDC_STEP("%%r9", "%%r10", "%%r11", "%%r8") \
	ORD_REDC_STEP("%%r10", "%%r11", "%%r8", "%%r9") \
	ORD_REDC_STEP("%%r11", "%%r8", "%%r9", "%%r10") \
	"addq %%r12, %%r8\n\t" \
	"adcq %%r13, %%r9\n\t" \
	"adcq %%r14, %%r10\n\t" \
	"adcq %%r15, %%r11\n\t" \
	"movl $0, %%eax\n\t" \
	"adcq $0, %%rax\n\t" \
	"movq %%r8, %%r12\n\t" \
	"movq %%r9, %%r13\n\t" \
	"movq %%r10, %%r14\n\t" \
	"movq %%r11, %%r15\n\t" \
	"subq 0+%[n], %%r12\n\t" \
	"sbbq 8+%[n], %%r13\n\t" \
	"sbbq 16+%[n], %%r14\n\t" \
	"sbbq 24+%[n], %%r15\n\t" \
	"sbbq $0, %%rax\n\t" \
	"cmovncq %%r12, %%r8\n\t" \
	"cmovncq %%r13, %%r9\n\t" \
	"cmovncq %%r14, %%r10\n\t" \
	"cmovncq %%r15, %%r11\n\t" \
	"movq %%r8, 0(%[r])\n\t" \
	"movq %%r9, 8(%[r])\n\t" \
	"movq %%r10, 16(%[r])\n\t" \
	"movq %%r11, 24(%[r])\n\t"

/* see crypto/p256_kernels.h */
__attribute__((target("bmi2,adx"))) void
vg_p256_ord_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	const uint64_t *pa = a, *pb = b;

	__asm__ __volatile__(
	    /* row 0: t0 .. t4 = a * b[0] */
	    "movq 0(%[b]), %%rdx\n\t"
	    "mulxq 0(%[a]), %%r8, %%r9\n\t"
	    "mulxq 8(%[a]), %%rax, %%r10\n\t"
	    "addq %%rax, %%r9\n\t"
	    "mulxq 16(%[a]), %%rax, %%r11\n\t"
	    "adcq %%rax, %%r10\n\t"
	    "mulxq 24(%[a]), %%rax, %%r12\n\t"
	    "adcq %%rax, %%r11\n\t"
	    "adcq $0, %%r12\n\t"
	    MUL_ROW("8", "%%r9", "%%r10", "%%r11", "%%r12", "%%r13")
	    MUL_ROW("16", "%%r10", "%%r11", "%%r12", "%%r13", "%%r14")
	    MUL_ROW("24", "%%r11", "%%r12", "%%r13", "%%r14", "%%r15")
	    ORD_REDC_STORE
	    : [a] "+r"(pa), [b] "+r"(pb)
	    : [r] "r"(r), [n] "m"(ord_n), [n0] "m"(ord_n0)
	    : "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13",
	      "r14", "r15", "cc", "memory");
}

#endif
