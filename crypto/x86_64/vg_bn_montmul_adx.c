/*
 * Montgomery multiplication with MULX, ADCX and ADOX (BMI2 + ADX): the
 * contract of vg_bn_montmul_c (crypto/rsa_kernels.h), for n a multiple of
 * 4, 4 <= n <= 64.
 *
 * CIOS, one pass per word b[i] of b: t = (t + a * b[i] + m * y) / 2^64
 * with y = (t[0] + a[0] b[i]) * m0i mod 2^64. Each pass walks t in
 * blocks of four words; in a block the products a[j] * b[i] and then
 * m[j] * y are added with two interleaved carry chains: ADOX joins each
 * low half with the previous high half, ADCX adds that into t. Both
 * chains close at the end of each block (the carry word of a block never
 * overflows: t_block + a_block * b[i] + carry < 2^320), so flags need not
 * survive the loop control. t (n + 1 words) lives on the stack and is
 * wiped; the result is t - m when t >= m, chosen with a mask. The
 * almost-Montgomery twin vg_bn_montmul_amm_adx has the same body (one
 * macro) and another tail: t - m only when t[n] = 1, and no wipe.
 *
 * Written as assembly at file scope (configure.ac has no assembler rule);
 * it keeps the SysV callee-saved registers (tested in
 * tests/kernels/test_rsa_kernels.c), has .type/.size and CFI, and the
 * compiler emits this object's non-executable stack note.
 * CT: straight-line except for loops on n; no data-dependent branch or
 * index.
 */
#include "config.h"

#include "crypto/rsa_kernels.h"

#if defined(VG_HAVE_RSA_X86_64_KERNELS)

/* One block of four words at byte offset IDX: r10..r13 += SRC[j..j+3] *
 * rdx + carry word CW (r14 or r15); CW gets the block's carry out. The
 * chains start with CF = OF = 0 and end with CF = OF = 0. */
#define ROW4(SRC, CW)                                                   \
	"mulx 0(" SRC "), %rax, %r8\n\t"                                \
	"adox " CW ", %rax\n\t"                                         \
	"adcx %rax, %r10\n\t"                                           \
	"mulx 8(" SRC "), %rax, " CW "\n\t"                             \
	"adox %r8, %rax\n\t"                                            \
	"adcx %rax, %r11\n\t"                                           \
	"mulx 16(" SRC "), %rax, %r8\n\t"                               \
	"adox " CW ", %rax\n\t"                                         \
	"adcx %rax, %r12\n\t"                                           \
	"mulx 24(" SRC "), %rax, " CW "\n\t"                            \
	"adox %r8, %rax\n\t"                                            \
	"adcx %rax, %r13\n\t"                                           \
	"adox %rdi, " CW "\n\t"                                         \
	"adcx %rdi, " CW "\n\t"

/*
 * Frame (rsp-relative, 64-byte aligned): 0 d, 8 m0i, 16 y, 24 end of b,
 * 32 current b pointer, 40 b[i], 64.. t[0..n].
 * Registers: rsi a, rcx m, r9 8n, rbx byte offset in the row, rdi zero,
 * r10..r13 the block, r14 carry word of a * b[i], r15 of m * y.
 */
#define MONTMUL_ADX(NAME, P, TAIL) \
	".text\n" \
	".globl " NAME "\n" \
	".hidden " NAME "\n" \
	".type " NAME ", @function\n" \
	".p2align 5\n" \
	"" NAME ":\n\t" \
	".cfi_startproc\n\t" \
	"pushq %rbp\n\t" \
	".cfi_def_cfa_offset 16\n\t" \
	".cfi_offset %rbp, -16\n\t" \
	"movq %rsp, %rbp\n\t" \
	".cfi_def_cfa_register %rbp\n\t" \
	"pushq %rbx\n\t" \
	"pushq %r12\n\t" \
	"pushq %r13\n\t" \
	"pushq %r14\n\t" \
	"pushq %r15\n\t" \
	".cfi_offset %rbx, -24\n\t" \
	".cfi_offset %r12, -32\n\t" \
	".cfi_offset %r13, -40\n\t" \
	".cfi_offset %r14, -48\n\t" \
	".cfi_offset %r15, -56\n\t" \
	"shlq $3, %r9\n\t" \
	"subq %r9, %rsp\n\t" \
	"subq $128, %rsp\n\t" \
	"andq $-64, %rsp\n\t" \
	"movq %rdi, 0(%rsp)\n\t" \
	"movq %r8, 8(%rsp)\n\t" \
	"leaq (%rdx,%r9), %rax\n\t" \
	"movq %rax, 24(%rsp)\n\t" \
	"movq %rdx, 32(%rsp)\n\t" \
	/* t = 0 (n + 1 words) */ \
	"xorl %eax, %eax\n\t" \
	"xorl %ebx, %ebx\n" \
	"1:\n\t" \
	"movq %rax, 64(%rsp,%rbx)\n\t" \
	"addq $8, %rbx\n\t" \
	"cmpq %r9, %rbx\n\t" \
	"jbe 1b\n\t" \
	"xorl %edi, %edi\n" \
 \
	"" P "_outer:\n\t" \
	"movq 32(%rsp), %rax\n\t" \
	"movq (%rax), %rdx\n\t" \
	"movq %rdx, 40(%rsp)\n\t" \
	/* block 0: a * b[i], then y, then m * y; column 0 becomes 0 */ \
	"movq 64(%rsp), %r10\n\t" \
	"movq 72(%rsp), %r11\n\t" \
	"movq 80(%rsp), %r12\n\t" \
	"movq 88(%rsp), %r13\n\t" \
	"xorl %r14d, %r14d\n\t" \
	ROW4("%rsi", "%r14") \
	"movq %r10, %rdx\n\t" \
	"imulq 8(%rsp), %rdx\n\t" \
	"movq %rdx, 16(%rsp)\n\t" \
	"xorl %r15d, %r15d\n\t" \
	ROW4("%rcx", "%r15") \
	"movq %r11, 64(%rsp)\n\t" \
	"movq %r12, 72(%rsp)\n\t" \
	"movq %r13, 80(%rsp)\n\t" \
	"movl $32, %ebx\n\t" \
	"cmpq %r9, %rbx\n\t" \
	"jae " P "_top\n" \
 \
	"" P "_inner:\n\t" \
	"movq 40(%rsp), %rdx\n\t" \
	"movq 64(%rsp,%rbx), %r10\n\t" \
	"movq 72(%rsp,%rbx), %r11\n\t" \
	"movq 80(%rsp,%rbx), %r12\n\t" \
	"movq 88(%rsp,%rbx), %r13\n\t" \
	"xorl %eax, %eax\n\t" \
	ROW4("%rsi,%rbx", "%r14") \
	"movq 16(%rsp), %rdx\n\t" \
	ROW4("%rcx,%rbx", "%r15") \
	"movq %r10, 56(%rsp,%rbx)\n\t" \
	"movq %r11, 64(%rsp,%rbx)\n\t" \
	"movq %r12, 72(%rsp,%rbx)\n\t" \
	"movq %r13, 80(%rsp,%rbx)\n\t" \
	"addq $32, %rbx\n\t" \
	"cmpq %r9, %rbx\n\t" \
	"jb " P "_inner\n" \
 \
	"" P "_top:\n\t" \
	/* t[n - 1], t[n] = t[n] + both carry words */ \
	"movq 64(%rsp,%r9), %rax\n\t" \
	"xorl %r8d, %r8d\n\t" \
	"addq %r14, %rax\n\t" \
	"adcq $0, %r8\n\t" \
	"addq %r15, %rax\n\t" \
	"adcq $0, %r8\n\t" \
	"movq %rax, 56(%rsp,%r9)\n\t" \
	"movq %r8, 64(%rsp,%r9)\n\t" \
	"movq 32(%rsp), %rax\n\t" \
	"addq $8, %rax\n\t" \
	"movq %rax, 32(%rsp)\n\t" \
	"cmpq 24(%rsp), %rax\n\t" \
	"jb " P "_outer\n\t" \
	TAIL \
	"leaq -40(%rbp), %rsp\n\t" \
	"popq %r15\n\t" \
	"popq %r14\n\t" \
	"popq %r13\n\t" \
	"popq %r12\n\t" \
	"popq %rbx\n\t" \
	"popq %rbp\n\t" \
	".cfi_def_cfa %rsp, 8\n\t" \
	"ret\n\t" \
	".cfi_endproc\n" \
	".size " NAME ", .-" NAME "\n"

#define FULL_TAIL \
	/* d = t - m, then d = t where that borrowed and t[n] = 0 */ \
	"movq 0(%rsp), %rdi\n\t" \
	"movq %r9, %r10\n\t" \
	"shrq $3, %r10\n\t" \
	"xorl %ebx, %ebx\n" \
	"2:\n\t" \
	"movq 64(%rsp,%rbx), %rax\n\t" \
	"sbbq (%rcx,%rbx), %rax\n\t" \
	"movq %rax, (%rdi,%rbx)\n\t" \
	"leaq 8(%rbx), %rbx\n\t" \
	"decq %r10\n\t" \
	"jnz 2b\n\t" \
	"sbbq %rax, %rax\n\t" \
	"movq 64(%rsp,%r9), %r8\n\t" \
	"negq %r8\n\t" \
	"notq %r8\n\t" \
	"andq %r8, %rax\n\t" \
	"xorl %ebx, %ebx\n" \
	"3:\n\t" \
	"movq 64(%rsp,%rbx), %r8\n\t" \
	"movq (%rdi,%rbx), %r10\n\t" \
	"xorq %r10, %r8\n\t" \
	"andq %rax, %r8\n\t" \
	"xorq %r8, %r10\n\t" \
	"movq %r10, (%rdi,%rbx)\n\t" \
	"movq $0, 64(%rsp,%rbx)\n\t" \
	"addq $8, %rbx\n\t" \
	"cmpq %r9, %rbx\n\t" \
	"jb 3b\n\t" \
	"movq $0, 64(%rsp,%r9)\n\t" \
	"movq $0, 16(%rsp)\n\t" \
	"movq $0, 40(%rsp)\n\t"

/* d = t - m when t[n] = 1, else t (t < R + m, so d < R): m[j] is
 * shifted left twice by 32 (t[n] = 0) or by 0, which keeps the borrow in
 * CF; nothing is wiped (vg_bn_mont_exp wipes the stack once). */
#define AMM_TAIL \
	"movq 0(%rsp), %rdi\n\t" \
	"movq 64(%rsp,%r9), %r11\n\t" \
	"xorq $1, %r11\n\t" \
	"shlq $5, %r11\n\t" \
	"movq %r9, %r10\n\t" \
	"shrq $3, %r10\n\t" \
	"xorl %ebx, %ebx\n" \
	"2:\n\t" \
	"movq (%rcx,%rbx), %r8\n\t" \
	"shlxq %r11, %r8, %r8\n\t" \
	"shlxq %r11, %r8, %r8\n\t" \
	"movq 64(%rsp,%rbx), %rax\n\t" \
	"sbbq %r8, %rax\n\t" \
	"movq %rax, (%rdi,%rbx)\n\t" \
	"leaq 8(%rbx), %rbx\n\t" \
	"decq %r10\n\t" \
	"jnz 2b\n\t"

__asm__(MONTMUL_ADX("vg_bn_montmul4x_adx", ".Lvg_mm", FULL_TAIL));
__asm__(MONTMUL_ADX("vg_bn_montmul_amm4x_adx", ".Lvg_ma", AMM_TAIL));

#endif
