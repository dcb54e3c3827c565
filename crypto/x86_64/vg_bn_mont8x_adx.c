/*
 * Montgomery multiplication and squaring with MULX, ADCX and ADOX for n a
 * multiple of 8 (the CRT halves of RSA-2048, 3072 and 4096 and their
 * moduli): the product or square is formed in full (2n words), then
 * reduced, both in tiles of 8 x 8 word products whose running sum stays
 * in eight registers.
 *
 * A tile adds x[0..7] * y[k] for k = 0 .. 7 to a window of eight
 * accumulators r8..r15 (columns c .. c + 7 of the sum). A row is eight
 * MULX: the low halves go in by ADCX (CF chain), the high halves by ADOX
 * (OF chain) one column up; the lowest column is then final and goes to
 * memory, and the window shifts by one register (MULX writes each high
 * half into the register of the next column, which the ADOX then adds),
 * the top column taking both chains' carries. The eight rows run as a
 * loop over one row's code: on this kind of core a short loop body goes
 * at about 1.5 cycles per word product where the tile unrolled (over 1 KB
 * of code) takes 1.7. Between tiles the window moves on by eight columns
 * and the eight words already in memory there are added in (one ADC
 * chain whose carry is kept in a stack slot as 0 or -1 for the next
 * tile). Every ADCX and ADOX depends on the one before through its flag,
 * so a row cannot start before the last one has closed its chains: the
 * ports that run ADCX, ADOX (and part of MULX) bound the speed.
 *
 * A pass walks one 8-word multiplier block (copied into the frame) over
 * the whole other operand: the product a b has n / 8 passes over a (one
 * per block of b); the square has passes whose first tile is the
 * triangle of its own block (products a[i] a[j], i < j; unrolled, its
 * rows being 7 .. 0 products long) followed by the full tiles above it,
 * then the doubling and the diagonal (sqrdiag below); the first pass of
 * either writes t without reading it, later passes add only a carry into
 * columns nobody wrote yet. The reduction has n / 8 passes, each of which
 * first works out its eight Montgomery digits y = t[i] m0i in a tile over
 * m[0..7] (the column becomes zero) and keeps them in the frame for the
 * tiles over m[8..n). Each pass of the reduction ends with the next eight
 * words of t and the previous pass's carry added in; the last carry is
 * the top word of (t + Y m) / R.
 *
 * The functions are assembly at file scope (configure.ac has no assembler
 * rule): they keep the SysV callee-saved registers (tested in
 * tests/kernels/test_bn_adx.c), have .type/.size and CFI, and leave
 * nothing secret in their frames (the multipliers and digits are zeroed).
 * The Montgomery kernels built on them (vg_bn_montmul_adx and the rest,
 * below) dispatch on n: a multiple of 8 here, else the 4-word kernels.
 * CT: straight-line except for loops on n; no data-dependent branch or
 * index.
 */
#include "config.h"

#include "crypto/ct.h"
#include "crypto/rsa_kernels.h"

#if defined(VG_HAVE_RSA_X86_64_KERNELS)

/*
 * Registers in every function: r8..r15 the window (r8 the lowest
 * column), rax and rbx scratch, rdx the multiplier, rsi the 8-word block
 * of the other operand, rdi t at the tile's first column, rcx the row
 * index (-8 .. -1) in a tile, rbp zero. The eight multipliers of a pass
 * are kept in the frame at 64(%rsp).
 */
#define MULT "64"

/* One product x[J] * rdx (x at rsi) in a row: the high half into HI, the
 * register of the next column, which adds that column's old value NXT
 * (OF chain); the low half into LO (CF chain). */
#define LROW(J, LO, HI, NXT)                                            \
	"mulx " #J "*8(%rsi), %rax, " HI "\n\t"                         \
	"adcx %rax, " LO "\n\t"                                         \
	"adox " NXT ", " HI "\n\t"

/* A row: r8..r15 (columns c .. c + 7) += x[0..7] * rdx; column c ends in
 * rbx, r8..r15 become columns c + 1 .. c + 8, the top one taking both
 * chains' carries (no overflow: the row's sum fits), CF = OF = 0 after. */
#define ROW                                                             \
	"movq %r8, %rbx\n\t"                                            \
	LROW(0, "%rbx", "%r8", "%r9")                                   \
	LROW(1, "%r8", "%r9", "%r10")                                   \
	LROW(2, "%r9", "%r10", "%r11")                                  \
	LROW(3, "%r10", "%r11", "%r12")                                 \
	LROW(4, "%r11", "%r12", "%r13")                                 \
	LROW(5, "%r12", "%r13", "%r14")                                 \
	LROW(6, "%r13", "%r14", "%r15")                                 \
	"mulx 56(%rsi), %rax, %r15\n\t"                                 \
	"adcx %rax, %r14\n\t"                                           \
	"adox %rbp, %r15\n\t"                                           \
	"adcx %rbp, %r15\n\t"

/* A full tile, eight rows in a loop (a short loop body runs faster than
 * the tile unrolled): the multipliers from the frame, the finished
 * columns to t[0..7]. INC leaves CF alone and clears OF. L: a numeric
 * label. */
#define TILE(L)                                                         \
	"movq $-8, %rcx\n"                                              \
	L ":\n\t"                                                       \
	"movq " MULT "+64(%rsp,%rcx,8), %rdx\n\t"                       \
	ROW                                                             \
	"movq %rbx, 64(%rdi,%rcx,8)\n\t"                                \
	"incq %rcx\n\t"                                                 \
	"jnz " L "b\n\t"

/* The multipliers of a pass: eight words at PTR to the frame. */
#define LOADMULT(PTR)                                                   \
	"movq 0(" PTR "), %rax\n\tmovq %rax, " MULT "(%rsp)\n\t"        \
	"movq 8(" PTR "), %rax\n\tmovq %rax, " MULT "+8(%rsp)\n\t"      \
	"movq 16(" PTR "), %rax\n\tmovq %rax, " MULT "+16(%rsp)\n\t"    \
	"movq 24(" PTR "), %rax\n\tmovq %rax, " MULT "+24(%rsp)\n\t"    \
	"movq 32(" PTR "), %rax\n\tmovq %rax, " MULT "+32(%rsp)\n\t"    \
	"movq 40(" PTR "), %rax\n\tmovq %rax, " MULT "+40(%rsp)\n\t"    \
	"movq 48(" PTR "), %rax\n\tmovq %rax, " MULT "+48(%rsp)\n\t"    \
	"movq 56(" PTR "), %rax\n\tmovq %rax, " MULT "+56(%rsp)\n\t"

/* The window += t[0..7] + the carry in slot CS (0 or -1), the carry out
 * back to CS; CF = OF = 0 after. */
#define BLKADD(CS)                                                      \
	"movq " CS ", %rax\n\t"                                         \
	"negq %rax\n\t"                                                 \
	"adcq 0(%rdi), %r8\n\t"                                         \
	"adcq 8(%rdi), %r9\n\t"                                         \
	"adcq 16(%rdi), %r10\n\t"                                       \
	"adcq 24(%rdi), %r11\n\t"                                       \
	"adcq 32(%rdi), %r12\n\t"                                       \
	"adcq 40(%rdi), %r13\n\t"                                       \
	"adcq 48(%rdi), %r14\n\t"                                       \
	"adcq 56(%rdi), %r15\n\t"                                       \
	"sbbq %rax, %rax\n\t"                                           \
	"movq %rax, " CS "\n\t"                                         \
	"xorl %eax, %eax\n\t"

/* The window += the carry in slot CS (0 or -1), for columns that hold
 * nothing yet; the sum fits. */
#define CARRYIN(CS)                                                     \
	"movq " CS ", %rax\n\t"                                         \
	"negq %rax\n\t"                                                 \
	"adcq %rbp, %r8\n\t"                                            \
	"adcq %rbp, %r9\n\t"                                            \
	"adcq %rbp, %r10\n\t"                                           \
	"adcq %rbp, %r11\n\t"                                           \
	"adcq %rbp, %r12\n\t"                                           \
	"adcq %rbp, %r13\n\t"                                           \
	"adcq %rbp, %r14\n\t"                                           \
	"adcq %rbp, %r15\n\t"

#define ZERO8                                                           \
	"xorl %r8d, %r8d\n\txorl %r9d, %r9d\n\t"                        \
	"xorl %r10d, %r10d\n\txorl %r11d, %r11d\n\t"                    \
	"xorl %r12d, %r12d\n\txorl %r13d, %r13d\n\t"                    \
	"xorl %r14d, %r14d\n\txorl %r15d, %r15d\n\t"

#define STORE8                                                          \
	"movq %r8, 0(%rdi)\n\t"                                         \
	"movq %r9, 8(%rdi)\n\t"                                         \
	"movq %r10, 16(%rdi)\n\t"                                       \
	"movq %r11, 24(%rdi)\n\t"                                       \
	"movq %r12, 32(%rdi)\n\t"                                       \
	"movq %r13, 40(%rdi)\n\t"                                       \
	"movq %r14, 48(%rdi)\n\t"                                       \
	"movq %r15, 56(%rdi)\n\t"

#define LOAD8                                                           \
	"movq 0(%rdi), %r8\n\t"                                         \
	"movq 8(%rdi), %r9\n\t"                                         \
	"movq 16(%rdi), %r10\n\t"                                       \
	"movq 24(%rdi), %r11\n\t"                                       \
	"movq 32(%rdi), %r12\n\t"                                       \
	"movq 40(%rdi), %r13\n\t"                                       \
	"movq 48(%rdi), %r14\n\t"                                       \
	"movq 56(%rdi), %r15\n\t"

/* Frame: six pushes, then LOCALS bytes of slots at rsp (the multipliers
 * at 64 .. 127, which are zeroed at the end). */
#define LOCALS "128"
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
	"subq $" LOCALS ", %rsp\n\t.cfi_adjust_cfa_offset " LOCALS "\n\t" \
	"xorl %ebp, %ebp\n\t"

#define EPILOGUE(name)                                                  \
	"movq %rbp, 64(%rsp)\n\tmovq %rbp, 72(%rsp)\n\t"                \
	"movq %rbp, 80(%rsp)\n\tmovq %rbp, 88(%rsp)\n\t"                \
	"movq %rbp, 96(%rsp)\n\tmovq %rbp, 104(%rsp)\n\t"               \
	"movq %rbp, 112(%rsp)\n\tmovq %rbp, 120(%rsp)\n\t"              \
	"addq $" LOCALS ", %rsp\n\t.cfi_adjust_cfa_offset -" LOCALS "\n\t" \
	"popq %r15\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r14\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r13\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %r12\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %rbp\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"popq %rbx\n\t.cfi_adjust_cfa_offset -8\n\t"                    \
	"ret\n\t"                                                       \
	".cfi_endproc\n"                                                \
	".size " name ", .-" name "\n"

/*
 * void vg_bn_mul8x_adx(t = rdi, a = rsi, b = rdx, n = rcx): t (2n words)
 * = a b. Slots: 0 the tile carry, 8 the end of a, 16 the end of b, 24 the
 * pass's t, 32 a, 40 the pass's block of b.
 */
__asm__(PROLOGUE("vg_bn_mul8x_adx")
	"shlq $3, %rcx\n\t"
	"leaq (%rsi,%rcx), %rax\n\t"
	"movq %rax, 8(%rsp)\n\t"
	"leaq (%rdx,%rcx), %rax\n\t"
	"movq %rax, 16(%rsp)\n\t"
	"movq %rsi, 32(%rsp)\n\t"
	"movq %rdi, 24(%rsp)\n\t"
	"movq %rdx, 40(%rsp)\n\t"
	LOADMULT("%rdx")
	/* the first pass: nothing in t yet */
	ZERO8
	"1:\n\t"
	"xorl %eax, %eax\n\t"
	TILE("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jb 1b\n\t"
	STORE8
	"jmp 5f\n"
	"3:\n\t"
	"movq 24(%rsp), %rdi\n\t"
	"movq 32(%rsp), %rsi\n\t"
	"movq %rbp, 0(%rsp)\n\t"
	LOADMULT("%rdx")
	ZERO8
	"4:\n\t"
	BLKADD("0(%rsp)")
	TILE("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jb 4b\n\t"
	/* the window's columns are fresh: only the carry comes in */
	CARRYIN("0(%rsp)")
	STORE8
	"5:\n\t"
	"addq $64, 24(%rsp)\n\t"
	"movq 40(%rsp), %rdx\n\t"
	"leaq 64(%rdx), %rdx\n\t"
	"movq %rdx, 40(%rsp)\n\t"
	"cmpq 16(%rsp), %rdx\n\t"
	"jb 3b\n\t"
	EPILOGUE("vg_bn_mul8x_adx"));

/*
 * The triangle tile, unrolled (its rows are 7, 6, ..., 0 products long):
 * row K multiplies x[K] (from the frame) by x[K + 1 .. 7], with the
 * window registers renamed by one per row (X below) and back after eight.
 */
#define X0 "%r8"
#define X1 "%r9"
#define X2 "%r10"
#define X3 "%r11"
#define X4 "%r12"
#define X5 "%r13"
#define X6 "%r14"
#define X7 "%r15"

/* x[J] * rdx: the low half into A (CF chain), the high half into B. */
#define P(J, A, B)                                                      \
	"mulx " #J "*8(%rsi), %rax, %rbx\n\t"                           \
	"adcx %rax, " A "\n\t"                                          \
	"adox %rbx, " B "\n\t"

/* The end of row K: the lowest column R0 to t[K], x[7] * rdx with its
 * high half as the new top word in R0, both chains closed there. */
#define E(K, R0, R7)                                                    \
	"movq " R0 ", " #K "*8(%rdi)\n\t"                               \
	"mulx 56(%rsi), %rax, " R0 "\n\t"                               \
	"adcx %rax, " R7 "\n\t"                                         \
	"adox %rbp, " R0 "\n\t"                                         \
	"adcx %rbp, " R0 "\n\t"

#define TRI_LD(K) "movq " MULT "+" #K "*8(%rsp), %rdx\n\t"
#define TRI0 TRI_LD(0)                                                  \
	P(1, X1, X2) P(2, X2, X3) P(3, X3, X4) P(4, X4, X5)             \
	P(5, X5, X6) P(6, X6, X7) E(0, X0, X7)
#define TRI1 TRI_LD(1)                                                  \
	P(2, X3, X4) P(3, X4, X5) P(4, X5, X6) P(5, X6, X7)             \
	P(6, X7, X0) E(1, X1, X0)
#define TRI2 TRI_LD(2)                                                  \
	P(3, X5, X6) P(4, X6, X7) P(5, X7, X0) P(6, X0, X1)             \
	E(2, X2, X1)
#define TRI3 TRI_LD(3)                                                  \
	P(4, X7, X0) P(5, X0, X1) P(6, X1, X2) E(3, X3, X2)
#define TRI4 TRI_LD(4)                                                  \
	P(5, X1, X2) P(6, X2, X3) E(4, X4, X3)
#define TRI5 TRI_LD(5)                                                  \
	P(6, X3, X4) E(5, X5, X4)
#define TRI6 TRI_LD(6) E(6, X6, X5)
#define TRI7                                                            \
	"movq " X7 ", 56(%rdi)\n\t"                                     \
	"movq %rbp, " X7 "\n\t"
#define TRIANGLE TRI0 TRI1 TRI2 TRI3 TRI4 TRI5 TRI6 TRI7

/*
 * void vg_bn_sqrtri8x_adx(t = rdi, a = rsi, n = rdx): t (2n words) = the
 * sum of a[i] a[j] 2^(64(i + j)) over i < j. Slots: 0 the tile carry, 8
 * the end of a, 24 the pass's t, 40 the pass's block of a.
 */
__asm__(PROLOGUE("vg_bn_sqrtri8x_adx")
	"shlq $3, %rdx\n\t"
	"leaq (%rsi,%rdx), %rax\n\t"
	"movq %rax, 8(%rsp)\n\t"
	"movq %rdi, 24(%rsp)\n\t"
	"movq %rsi, 40(%rsp)\n\t"
	LOADMULT("%rsi")
	/* the first pass: nothing in t yet (its row 0 stores t[0] = 0) */
	ZERO8
	TRIANGLE
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jae 6f\n"
	"1:\n\t"
	"xorl %eax, %eax\n\t"
	TILE("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jb 1b\n"
	"6:\n\t"
	STORE8
	"jmp 5f\n"
	"3:\n\t"
	"movq 24(%rsp), %rdi\n\t"
	"movq %rbp, 0(%rsp)\n\t"
	LOADMULT("%rsi")
	LOAD8
	"xorl %eax, %eax\n\t"
	TRIANGLE
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jae 7f\n"
	"4:\n\t"
	BLKADD("0(%rsp)")
	TILE("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jb 4b\n"
	"7:\n\t"
	/* fresh columns: only the carry comes in */
	CARRYIN("0(%rsp)")
	STORE8
	"5:\n\t"
	"addq $128, 24(%rsp)\n\t"
	"movq 40(%rsp), %rsi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"movq %rsi, 40(%rsp)\n\t"
	"cmpq 8(%rsp), %rsi\n\t"
	"jb 3b\n\t"
	EPILOGUE("vg_bn_sqrtri8x_adx"));

/* The first tile of a reduction pass, looped: y = r8 m0i (kept among the
 * multipliers), then the row over m[0..7]; column c becomes zero and is
 * dropped. IMUL sets CF and OF, so both are cleared after it. */
#define TILEY(L)                                                        \
	"movq $-8, %rcx\n"                                              \
	L ":\n\t"                                                       \
	"movq %r8, %rdx\n\t"                                            \
	"imulq 0(%rsp), %rdx\n\t"                                       \
	"xorl %eax, %eax\n\t"                                           \
	"movq %rdx, " MULT "+64(%rsp,%rcx,8)\n\t"                       \
	ROW                                                             \
	"incq %rcx\n\t"                                                 \
	"jnz " L "b\n\t"

/*
 * uint64_t vg_bn_redc8x_adx(t = rdi, m = rsi, n = rdx, m0i = rcx): t (2n
 * words) += Y m with t[0 .. n) becoming zero (those words are left as they
 * were); returns the top word (0 or 1) of (t + Y m) / R, whose low words
 * are t[n .. 2n). Slots: 0 m0i, 8 the tile carry, 16 the end of m, 24 the
 * end of the passes, 32 the pass carry, 40 m, 48 the pass's t, 64 .. 120
 * the digits.
 */
__asm__(PROLOGUE("vg_bn_redc8x_adx")
	"movq %rcx, 0(%rsp)\n\t"
	"leaq (%rsi,%rdx,8), %rax\n\t"
	"movq %rax, 16(%rsp)\n\t"
	"leaq (%rdi,%rdx,8), %rax\n\t"
	"movq %rax, 24(%rsp)\n\t"
	"movq %rsi, 40(%rsp)\n\t"
	"movq %rbp, 32(%rsp)\n"
	"1:\n\t"
	"movq %rdi, 48(%rsp)\n\t"
	"movq 40(%rsp), %rsi\n\t"
	"movq %rbp, 8(%rsp)\n\t"
	LOAD8
	TILEY("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 16(%rsp), %rsi\n\t"
	"jae 4f\n"
	"3:\n\t"
	BLKADD("8(%rsp)")
	TILE("2")
	"leaq 64(%rdi), %rdi\n\t"
	"leaq 64(%rsi), %rsi\n\t"
	"cmpq 16(%rsp), %rsi\n\t"
	"jb 3b\n"
	"4:\n\t"
	/* t's next eight words and the two carries (their sum fits) */
	BLKADD("8(%rsp)")
	"movq 32(%rsp), %rbx\n\t"
	"addq %rbx, %r8\n\t"
	"adcq $0, %r9\n\t"
	"adcq $0, %r10\n\t"
	"adcq $0, %r11\n\t"
	"adcq $0, %r12\n\t"
	"adcq $0, %r13\n\t"
	"adcq $0, %r14\n\t"
	"adcq $0, %r15\n\t"
	"sbbq %rbx, %rbx\n\t"
	"orq 8(%rsp), %rbx\n\t"
	"negq %rbx\n\t"
	"movq %rbx, 32(%rsp)\n\t"
	STORE8
	"movq 48(%rsp), %rdi\n\t"
	"leaq 64(%rdi), %rdi\n\t"
	"cmpq 24(%rsp), %rdi\n\t"
	"jb 1b\n\t"
	"movq 32(%rsp), %rax\n\t"
	EPILOGUE("vg_bn_redc8x_adx"));

/*
 * t[0 .. 2n) = 2 t + sum a[i]^2 2^(128 i) (n a multiple of 4): the
 * doubling in the ADCX chain, the squares in the ADOX chain, four words of
 * a per step; the loop counts with LEA and JRCXZ, which leave both flags
 * alone. Neither chain carries out (the result is a^2 < R^2).
 */
#define DIAG(J)                                                         \
	"movq " #J "*8(%[a]), %%rdx\n\t"                               \
	"mulx %%rdx, %[lo], %[hi]\n\t"                                  \
	"movq " #J "*16(%[t]), %[w0]\n\t"                              \
	"movq " #J "*16+8(%[t]), %[w1]\n\t"                            \
	"adcx %[w0], %[w0]\n\t"                                         \
	"adcx %[w1], %[w1]\n\t"                                         \
	"adox %[lo], %[w0]\n\t"                                         \
	"adox %[hi], %[w1]\n\t"                                         \
	"movq %[w0], " #J "*16(%[t])\n\t"                              \
	"movq %[w1], " #J "*16+8(%[t])\n\t"

static void
sqrdiag(uint64_t *t, const uint64_t *a, size_t n)
{
	uint64_t lo, hi, w0, w1;

	n /= 4;
	__asm__ volatile(
	    "xorl %k[lo], %k[lo]\n\t"
	    "1:\n\t"
	    DIAG(0) DIAG(1) DIAG(2) DIAG(3)
	    "leaq 32(%[a]), %[a]\n\t"
	    "leaq 64(%[t]), %[t]\n\t"
	    "leaq -1(%[n]), %[n]\n\t"
	    "jrcxz 2f\n\t"
	    "jmp 1b\n"
	    "2:\n\t"
	    : [t] "+r" (t), [a] "+r" (a), [n] "+c" (n), [lo] "=&r" (lo),
	      [hi] "=&r" (hi), [w0] "=&r" (w0), [w1] "=&r" (w1)
	    :
	    : "rdx", "cc", "memory");
}

/*
 * uint64_t vg_bn_csub_adx(d = rdi, t = rsi, m = rdx, mask = rcx, n = r8):
 * d = t - (m & mask) for n a multiple of 4, four words per step with the
 * borrow kept in rbx as 0 or -1 while AND clobbers the flags; returns the
 * borrow out (0 or 1). d may equal t.
 */
__asm__(".text\n"
	".globl vg_bn_csub_adx\n"
	".hidden vg_bn_csub_adx\n"
	".type vg_bn_csub_adx, @function\n"
	".p2align 5\n"
	"vg_bn_csub_adx:\n\t"
	".cfi_startproc\n\t"
	"pushq %rbx\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_offset %rbx, -16\n\t"
	"xorl %ebx, %ebx\n\t"
	"shrq $2, %r8\n"
	"1:\n\t"
	"movq 0(%rdx), %rax\n\t"
	"movq 8(%rdx), %r9\n\t"
	"movq 16(%rdx), %r10\n\t"
	"movq 24(%rdx), %r11\n\t"
	"andq %rcx, %rax\n\t"
	"andq %rcx, %r9\n\t"
	"andq %rcx, %r10\n\t"
	"andq %rcx, %r11\n\t"
	"negq %rbx\n\t"
	"movq 0(%rsi), %rbx\n\t"
	"sbbq %rax, %rbx\n\t"
	"movq %rbx, 0(%rdi)\n\t"
	"movq 8(%rsi), %rbx\n\t"
	"sbbq %r9, %rbx\n\t"
	"movq %rbx, 8(%rdi)\n\t"
	"movq 16(%rsi), %rbx\n\t"
	"sbbq %r10, %rbx\n\t"
	"movq %rbx, 16(%rdi)\n\t"
	"movq 24(%rsi), %rbx\n\t"
	"sbbq %r11, %rbx\n\t"
	"movq %rbx, 24(%rdi)\n\t"
	"sbbq %rbx, %rbx\n\t"
	"leaq 32(%rdx), %rdx\n\t"
	"leaq 32(%rsi), %rsi\n\t"
	"leaq 32(%rdi), %rdi\n\t"
	"decq %r8\n\t"
	"jnz 1b\n\t"
	"movq %rbx, %rax\n\t"
	"negq %rax\n\t"
	"popq %rbx\n\t.cfi_adjust_cfa_offset -8\n\t"
	"ret\n\t"
	".cfi_endproc\n"
	".size vg_bn_csub_adx, .-vg_bn_csub_adx\n");

/* d = t - m when t + top R >= m, else t (t + top R < 2m); u is wiped. */
static void
final_sub(uint64_t *d, const uint64_t *t, uint64_t top, const uint64_t *m,
    size_t n)
{
	uint64_t u[64], keep;
	size_t i;

	/* keep t: the subtraction borrowed and there is no top word */
	keep = 0 - (vg_bn_csub_adx(u, t, m, ~(uint64_t)0, n) & (top ^ 1));
	for (i = 0; i < n; i++)
		d[i] = u[i] ^ (keep & (u[i] ^ t[i]));
	vg_wipe(u, n * sizeof(uint64_t));
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montmul_adx(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n)
{
	uint64_t t[2 * 64 + 1], top;

	if (n % 8 != 0) {
		vg_bn_montmul4x_adx(d, a, b, m, m0i, n);
	} else {
		vg_bn_mul8x_adx(t, a, b, n);
		top = vg_bn_redc8x_adx(t, m, n, m0i);
		final_sub(d, t + n, top, m, n);
		vg_wipe(t, (2 * n + 1) * sizeof(uint64_t));
	}
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montmul_amm_adx(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, uint64_t m0i, size_t n)
{
	uint64_t t[2 * 64 + 1], top;

	if (n % 8 != 0) {
		vg_bn_montmul_amm4x_adx(d, a, b, m, m0i, n);
	} else {
		vg_bn_mul8x_adx(t, a, b, n);
		top = vg_bn_redc8x_adx(t, m, n, m0i);
		vg_bn_csub_adx(d, t + n, m, 0 - top, n);
	}
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montsqr_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	uint64_t t[2 * 64 + 1], top;

	if (n % 8 != 0) {
		vg_bn_montsqr4x_adx(d, a, m, m0i, n);
	} else {
		vg_bn_sqrtri8x_adx(t, a, n);
		sqrdiag(t, a, n);
		top = vg_bn_redc8x_adx(t, m, n, m0i);
		final_sub(d, t + n, top, m, n);
		vg_wipe(t, (2 * n + 1) * sizeof(uint64_t));
	}
}

/* see crypto/rsa_kernels.h */
void
vg_bn_montsqr_amm_adx(uint64_t *d, const uint64_t *a, const uint64_t *m,
    uint64_t m0i, size_t n)
{
	uint64_t t[2 * 64 + 1], top;

	if (n % 8 != 0) {
		vg_bn_montsqr_amm4x_adx(d, a, m, m0i, n);
	} else {
		vg_bn_sqrtri8x_adx(t, a, n);
		sqrdiag(t, a, n);
		top = vg_bn_redc8x_adx(t, m, n, m0i);
		vg_bn_csub_adx(d, t + n, m, 0 - top, n);
	}
}
#endif
