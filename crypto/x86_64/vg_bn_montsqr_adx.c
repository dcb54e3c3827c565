/*
 * Montgomery squaring with MULX, ADCX and ADOX (BMI2 + ADX): the contract
 * of vg_bn_montsqr_c (crypto/rsa_kernels.h), for n a multiple of 4,
 * 4 <= n <= 64: n(n - 1)/2 + n + n^2 word products where a multiplication
 * needs 2n^2.
 *
 * The square is the off-diagonal triangle a[i] a[j] (i < j), doubled, plus
 * the diagonal; it is then reduced two steps per pass. The triangle rows
 * go through vg_bn_mulrow_adx (t += x * y over 4-word blocks); each
 * reduction pass (vg_bn_redc2_adx) adds m * y0 and m * y1 2^64 in the same
 * 4-word blocks as vg_bn_montmul_adx, so t is read and written once per two
 * steps, y1 being known after the first product of the first block. In
 * every block the two carry chains are interleaved (ADOX joins each low
 * half with the previous high half, ADCX adds that in) and close at the
 * end of the block, so the loop control may clobber the flags.
 * The helpers are assembly at file scope (configure.ac has no assembler
 * rule); they keep the SysV callee-saved registers (tested) and have
 * .type/.size and CFI.
 * CT: straight-line except for loops on n; no data-dependent branch or
 * index; the stack buffer is wiped (by vg_bn_montsqr_adx; the
 * almost-Montgomery vg_bn_montsqr_amm_adx leaves that to the caller's
 * single VG_WIPE_STACK).
 */
#include "config.h"

#include <string.h>

#include <immintrin.h>

#include "crypto/ct.h"
#include "crypto/rsa_kernels.h"

#if defined(VG_HAVE_RSA_X86_64_KERNELS)

typedef unsigned __int128 u128;

/* t (2n words, zero on entry) = the triangle sum a[i] a[j] 2^(64(i+j))
 * over i < j. */
void vg_bn_sqrtri_adx(uint64_t *t, const uint64_t *a, size_t n);
/* Montgomery reduction of t (2n words), two steps per pass: y0 = t[0]
 * m0i, y1 = (t[1] after the first step) m0i, t += (m y0 + m y1 2^64),
 * t[0] and t[1] become 0, then the same at t + 2, ...; each pass's carry
 * enters the next at its column n. Returns the top word (column 2n). */
uint64_t vg_bn_redc_adx(uint64_t *t, const uint64_t *m, size_t n,
    uint64_t m0i);

/* r10..r13 += SRC[0..3] * rdx + CW, CW = the carry word out; CF = OF = 0
 * on entry and exit; rax, r8 scratch, rbp zero. */
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
	"adox %rbp, " CW "\n\t"                                         \
	"adcx %rbp, " CW "\n\t"

#define PROLOGUE(name)                                                  \
	".text\n"                                                       \
	".globl " name "\n"                                             \
	".hidden " name "\n"                                            \
	".type " name ", @function\n"                                   \
	".p2align 5\n" name ":\n\t"                                     \
	".cfi_startproc\n\t"                                            \
	"pushq %rbx\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %rbx, -16\n\t" \
	"pushq %rbp\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %rbp, -24\n\t" \
	"pushq %r12\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %r12, -32\n\t" \
	"pushq %r13\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %r13, -40\n\t" \
	"pushq %r14\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %r14, -48\n\t" \
	"pushq %r15\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %r15, -56\n\t" \
	"subq $32, %rsp\n\t.cfi_adjust_cfa_offset 32\n\t"               \
	"xorl %ebp, %ebp\n\t"

#define EPILOGUE(name)                                                  \
	"movq %rbp, 8(%rsp)\n\tmovq %rbp, 16(%rsp)\n\t"                 \
	"addq $32, %rsp\n\t.cfi_adjust_cfa_offset -32\n\t"              \
	"popq %r15\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r14\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r13\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r12\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %rbp\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %rbx\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"ret\n\t"                                                       \
	".cfi_endproc\n"                                                \
	".size " name ", .-" name "\n"

/* uint64_t vg_bn_mulrow_adx(t = rdi, x = rsi, len = rdx, y = rcx,
 * c = r8): rbx byte offset, r9 8 len, r14 the carry word. */
__asm__(PROLOGUE("vg_bn_mulrow_adx")
	"leaq (,%rdx,8), %r9\n\t"
	"movq %rcx, %rdx\n\t"
	"xorl %ebx, %ebx\n\t"
	"movq %r8, %r14\n"
	".Lvg_mr_loop:\n\t"
	"movq 0(%rdi,%rbx), %r10\n\t"
	"movq 8(%rdi,%rbx), %r11\n\t"
	"movq 16(%rdi,%rbx), %r12\n\t"
	"movq 24(%rdi,%rbx), %r13\n\t"
	"xorl %eax, %eax\n\t"
	ROW4("%rsi,%rbx", "%r14")
	"movq %r10, 0(%rdi,%rbx)\n\t"
	"movq %r11, 8(%rdi,%rbx)\n\t"
	"movq %r12, 16(%rdi,%rbx)\n\t"
	"movq %r13, 24(%rdi,%rbx)\n\t"
	"addq $32, %rbx\n\t"
	"cmpq %r9, %rbx\n\t"
	"jb .Lvg_mr_loop\n\t"
	"movq %r14, %rax\n\t"
	EPILOGUE("vg_bn_mulrow_adx"));

/* The first h = 3, 2, 1 products of a row: r10.. += SRC[0 .. h) * rdx,
 * the carry word (fresh) in r14. */
#define HEAD3(SRC)                                                      \
	"mulx 0(" SRC "), %rax, %r8\n\t"                                \
	"adcx %rax, %r10\n\t"                                           \
	"mulx 8(" SRC "), %rax, %r14\n\t"                               \
	"adox %r8, %rax\n\t"                                            \
	"adcx %rax, %r11\n\t"                                           \
	"mulx 16(" SRC "), %rax, %r8\n\t"                               \
	"adox %r14, %rax\n\t"                                           \
	"adcx %rax, %r12\n\t"                                           \
	"movq %r8, %r14\n\t"                                            \
	"adox %rbp, %r14\n\t"                                           \
	"adcx %rbp, %r14\n\t"
#define HEAD2(SRC)                                                      \
	"mulx 0(" SRC "), %rax, %r8\n\t"                                \
	"adcx %rax, %r10\n\t"                                           \
	"mulx 8(" SRC "), %rax, %r14\n\t"                               \
	"adox %r8, %rax\n\t"                                            \
	"adcx %rax, %r11\n\t"                                           \
	"adox %rbp, %r14\n\t"                                           \
	"adcx %rbp, %r14\n\t"
#define HEAD0(SRC)
#define HEAD1(SRC)                                                      \
	"mulx 0(" SRC "), %rax, %r14\n\t"                               \
	"adcx %rax, %r10\n\t"                                           \
	"adcx %rbp, %r14\n\t"

/*
 * One row of the triangle: rdx = a[i], r15 -> a[i + 1], rcx -> t[2i + 1],
 * the first H products by HEAD (loading and storing H words of t), the
 * rest in 4-word blocks, the carry word stored at t[i + n]. r9 = 8n,
 * r12 scratch for the end; rbx, r10..r14, rax, r8 scratch. Advances r15
 * and rcx to the next row. L: a label prefix.
 */
#define TRIROW(L, H, HEAD, LOADS, STORES)                               \
	"movq -8(%r15), %rdx\n\t"                                       \
	"xorl %eax, %eax\n\t"                                           \
	LOADS                                                           \
	HEAD("%r15")                                                    \
	STORES                                                          \
	"leaq " #H "*8(%r15), %rbx\n\t" /* x of the blocks */           \
	"leaq " #H "*8(%rcx), %rdi\n\t" /* t of the blocks */           \
	"leaq (%rsi,%r9), %rax\n\t"     /* the end of a */              \
	"movq %rax, 0(%rsp)\n\t"                                        \
	"cmpq %rax, %rbx\n\t"                                           \
	"jae " L "_done\n"                                              \
	L "_blk:\n\t"                                                   \
	"movq 0(%rdi), %r10\n\t"                                        \
	"movq 8(%rdi), %r11\n\t"                                        \
	"movq 16(%rdi), %r12\n\t"                                       \
	"movq 24(%rdi), %r13\n\t"                                       \
	"xorl %eax, %eax\n\t"                                           \
	ROW4("%rbx", "%r14")                                            \
	"movq %r10, 0(%rdi)\n\t"                                        \
	"movq %r11, 8(%rdi)\n\t"                                        \
	"movq %r12, 16(%rdi)\n\t"                                       \
	"movq %r13, 24(%rdi)\n\t"                                       \
	"leaq 32(%rbx), %rbx\n\t"                                       \
	"leaq 32(%rdi), %rdi\n\t"                                       \
	"cmpq 0(%rsp), %rbx\n\t"                                        \
	"jb " L "_blk\n"                                                \
	L "_done:\n\t"                                                  \
	"movq %r14, 0(%rdi)\n\t" /* t[i + n], still zero */             \
	"leaq 8(%r15), %r15\n\t"                                        \
	"leaq 16(%rcx), %rcx\n\t"

/* void vg_bn_sqrtri_adx(t = rdi, a = rsi, n = rdx): rows in groups of
 * four, whose first blocks are 3, 2, 1 and 0 words long (n is a multiple
 * of 4); r15 walks a, rcx walks t, 0(%rsp) holds the end of a. */
__asm__(PROLOGUE("vg_bn_sqrtri_adx")
	"leaq (,%rdx,8), %r9\n\t"
	"leaq 8(%rsi), %r15\n\t"   /* a[i + 1] for row 0 */
	"leaq 8(%rdi), %rcx\n"     /* t[1] */
	".Lvg_tri_group:\n\t"
	TRIROW(".Lvg_tri_r3", 3, HEAD3,
	    "movq 0(%rcx), %r10\n\tmovq 8(%rcx), %r11\n\tmovq 16(%rcx), %r12\n\t",
	    "movq %r10, 0(%rcx)\n\tmovq %r11, 8(%rcx)\n\tmovq %r12, 16(%rcx)\n\t")
	TRIROW(".Lvg_tri_r2", 2, HEAD2,
	    "movq 0(%rcx), %r10\n\tmovq 8(%rcx), %r11\n\t",
	    "movq %r10, 0(%rcx)\n\tmovq %r11, 8(%rcx)\n\t")
	TRIROW(".Lvg_tri_r1", 1, HEAD1,
	    "movq 0(%rcx), %r10\n\t",
	    "movq %r10, 0(%rcx)\n\t")
	/* head 0: the row starts with a block (or is empty) */
	"xorl %r14d, %r14d\n\t"
	TRIROW(".Lvg_tri_r0", 0, HEAD0, "", "")
	"leaq (%rsi,%r9), %rax\n\t"
	"cmpq %rax, %r15\n\t"
	"jb .Lvg_tri_group\n\t"
	EPILOGUE("vg_bn_sqrtri_adx"));

/*
 * uint64_t vg_bn_redc_adx(t = rdi, m = rsi, n = rdx, m0i = rcx): rdi walks
 * by two words per pass up to t + n; in a pass rbx is the byte offset, r9
 * 8n, rcx m - 8 (so that (rcx,rbx) reads m[j - 1 .. j + 2]), r14/r15 the
 * carry words of m y0 and m y1. Stack after the two extra slots: 8 the
 * stop, 16 m0i, 24 y0, 32 y1, 40 the previous pass's carry.
 */
__asm__(PROLOGUE("vg_bn_redc_adx")
	"leaq (,%rdx,8), %r9\n\t"
	"movq %rcx, 0(%rsp)\n\t"
	"movq %rbp, 24(%rsp)\n\t"
	"leaq -8(%rsi), %rcx\n\t"
	"leaq (%rdi,%r9), %rax\n\t"
	"pushq %rax\n\t.cfi_adjust_cfa_offset 8\n\t"
	"subq $8, %rsp\n\t.cfi_adjust_cfa_offset 8\n\t"
	/* now 16(%rsp) is m0i, 24 y0, 32 y1, 40 the carry, 8 the stop */
	".Lvg_rd_pass:\n\t"
	/* block 0: y0 from t[0], the first product, y1 from t[1], then
	 * m[0..2] * y1 into columns 1..3 */
	"movq 0(%rdi), %r10\n\t"
	"movq 8(%rdi), %r11\n\t"
	"movq 16(%rdi), %r12\n\t"
	"movq 24(%rdi), %r13\n\t"
	"movq %r10, %rdx\n\t"
	"imulq 16(%rsp), %rdx\n\t"
	"movq %rdx, 24(%rsp)\n\t"
	"xorl %r14d, %r14d\n\t"
	ROW4("%rsi", "%r14")
	"movq %r11, %rdx\n\t"
	"imulq 16(%rsp), %rdx\n\t"
	"movq %rdx, 32(%rsp)\n\t"
	"xorl %r15d, %r15d\n\t"
	"mulx 0(%rsi), %rax, %r8\n\t"
	"adcx %rax, %r11\n\t"
	"mulx 8(%rsi), %rax, %r15\n\t"
	"adox %r8, %rax\n\t"
	"adcx %rax, %r12\n\t"
	"mulx 16(%rsi), %rax, %r8\n\t"
	"adox %r15, %rax\n\t"
	"adcx %rax, %r13\n\t"
	"movq %r8, %r15\n\t"
	"adox %rbp, %r15\n\t"
	"adcx %rbp, %r15\n\t"
	"movq %rbp, 0(%rdi)\n\t"
	"movq %rbp, 8(%rdi)\n\t"
	"movq %r12, 16(%rdi)\n\t"
	"movq %r13, 24(%rdi)\n\t"
	"movl $32, %ebx\n\t"
	"cmpq %r9, %rbx\n\t"
	"jae .Lvg_r2_top\n"
	".Lvg_r2_loop:\n\t"
	"movq 0(%rdi,%rbx), %r10\n\t"
	"movq 8(%rdi,%rbx), %r11\n\t"
	"movq 16(%rdi,%rbx), %r12\n\t"
	"movq 24(%rdi,%rbx), %r13\n\t"
	"movq 24(%rsp), %rdx\n\t"
	"xorl %eax, %eax\n\t"
	ROW4("%rsi,%rbx", "%r14")
	"movq 32(%rsp), %rdx\n\t"
	ROW4("%rcx,%rbx", "%r15")
	"movq %r10, 0(%rdi,%rbx)\n\t"
	"movq %r11, 8(%rdi,%rbx)\n\t"
	"movq %r12, 16(%rdi,%rbx)\n\t"
	"movq %r13, 24(%rdi,%rbx)\n\t"
	"addq $32, %rbx\n\t"
	"cmpq %r9, %rbx\n\t"
	"jb .Lvg_r2_loop\n"
	/* column n: t[n] + both carry words + lo(m[n-1] y1); column n + 1:
	 * t[n + 1] + hi(m[n-1] y1) + the carry */
	".Lvg_r2_top:\n\t"
	"movq 32(%rsp), %rdx\n\t"
	"mulx -8(%rsi,%r9), %rax, %r8\n\t"
	"xorl %r10d, %r10d\n\t"
	"movq 0(%rdi,%r9), %r11\n\t"
	"addq %r14, %r11\n\t"
	"adcq $0, %r10\n\t"
	"addq %r15, %r11\n\t"
	"adcq $0, %r10\n\t"
	"addq %rax, %r11\n\t"
	"adcq $0, %r10\n\t"
	"addq 40(%rsp), %r11\n\t"
	"adcq $0, %r10\n\t"
	"xorl %eax, %eax\n\t"
	"movq 8(%rdi,%r9), %r12\n\t"
	"addq %r8, %r12\n\t"
	"adcq $0, %rax\n\t"
	"addq %r10, %r12\n\t"
	"adcq $0, %rax\n\t"
	"movq %r11, 0(%rdi,%r9)\n\t"
	"movq %r12, 8(%rdi,%r9)\n\t"
	"movq %rax, 40(%rsp)\n\t"
	"leaq 16(%rdi), %rdi\n\t"
	"cmpq 8(%rsp), %rdi\n\t"
	"jb .Lvg_rd_pass\n\t"
	"movq %rbp, 24(%rsp)\n\t"
	"movq %rbp, 32(%rsp)\n\t"
	"addq $16, %rsp\n\t.cfi_adjust_cfa_offset -16\n\t"
	EPILOGUE("vg_bn_redc_adx"));

/*
 * t[0 .. 2n) = 2 t + sum a[i]^2 2^(128 i): the doubling in the ADCX chain,
 * the squares in the ADOX chain, one pair of words per step; the loop
 * counts with LEA and JRCXZ, which leave both flags alone. Neither chain
 * carries out (the result is a^2 < R^2).
 */
static void
sqr_diag(uint64_t *t, const uint64_t *a, size_t n)
{
	uint64_t lo, hi, w0, w1;

	__asm__ volatile(
	    "xorl %k[lo], %k[lo]\n\t"
	    "1:\n\t"
	    "movq (%[a]), %%rdx\n\t"
	    "mulx %%rdx, %[lo], %[hi]\n\t"
	    "movq (%[t]), %[w0]\n\t"
	    "movq 8(%[t]), %[w1]\n\t"
	    "adcx %[w0], %[w0]\n\t"
	    "adcx %[w1], %[w1]\n\t"
	    "adox %[lo], %[w0]\n\t"
	    "adox %[hi], %[w1]\n\t"
	    "movq %[w0], (%[t])\n\t"
	    "movq %[w1], 8(%[t])\n\t"
	    "leaq 8(%[a]), %[a]\n\t"
	    "leaq 16(%[t]), %[t]\n\t"
	    "leaq -1(%[n]), %[n]\n\t"
	    "jrcxz 2f\n\t"
	    "jmp 1b\n"
	    "2:\n\t"
	    : [t] "+r" (t), [a] "+r" (a), [n] "+c" (n), [lo] "=&r" (lo),
	      [hi] "=&r" (hi), [w0] "=&r" (w0), [w1] "=&r" (w1)
	    :
	    : "rdx", "cc", "memory");
}

/* t (2n + 4 words) = a^2 (n words), reduced: returns the top word of
 * (a^2 + Y m) / R, whose low n words are t[n .. 2n). */
static uint64_t
sqr_redc(uint64_t *t, const uint64_t *a, const uint64_t *m, uint64_t m0i,
    size_t n)
{
	memset(t, 0, (2 * n + 4) * sizeof(uint64_t));
	vg_bn_sqrtri_adx(t, a, n);
	sqr_diag(t, a, n);
	/* reduction, two steps per pass; each pass's carry enters the next
	 * at its column n, the last one is the top word */
	return vg_bn_redc_adx(t, m, n, m0i);
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montsqr4x_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	/* 2n words, and room for the reduction's carries */
	uint64_t t[2 * 64 + 4], c, br;
	size_t tn = 2 * n + 4, i;

	t[2 * n] = sqr_redc(t, a, m, m0i, n);
	/* t[n .. 2n] < 2m: subtract m once when that does not borrow */
	br = 0;
	for (i = 0; i < n; i++) {
		u128 s = (u128)t[n + i] - m[i] - br;

		t[i] = (uint64_t)s; /* the low half is zero: reuse it */
		br = (uint64_t)(s >> 64) & 1;
	}
	c = 0 - (br & (t[2 * n] ^ 1)); /* keep t: a borrow and no top word */
	for (i = 0; i < n; i++)
		d[i] = t[i] ^ (c & (t[i] ^ t[n + i]));
	vg_wipe(t, tn * sizeof(uint64_t));
}

/* see crypto/rsa_kernels.h: t - m when the top word is 1, else t; no
 * wipe (the exponentiation wipes the stack once). */
void
vg_bn_montsqr_amm4x_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	uint64_t t[2 * 64 + 4], mask;
	unsigned char br = 0;
	size_t i;

	mask = 0 - sqr_redc(t, a, m, m0i, n);
	for (i = 0; i < n; i++) {
		unsigned long long v;

		br = _subborrow_u64(br, t[n + i], m[i] & mask, &v);
		d[i] = v;
	}
}
#endif
