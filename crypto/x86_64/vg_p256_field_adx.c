/*
 * P-256 field arithmetic modulo p = 2^256 - 2^224 + 2^192 + 2^96 - 1 with
 * MULX, ADCX and ADOX (BMI2 and ADX), and the point formulas on it: the
 * kernels vg_p256_mul_adx, vg_p256_sqr_adx, vg_p256_sqr_n_adx,
 * vg_p256_point_double_adx,
 * vg_p256_point_add_cached_adx and vg_p256_point_add_affine_adx, with the
 * contracts of their portable twins (crypto/p256_kernels.h). They share
 * one file because the point formulas inline the multiplication, squaring,
 * addition and subtraction below (no call, no dispatch per operation).
 *
 * Multiplication: the 512-bit product row by row, each row on two carry
 * chains (ADCX for the low halves, ADOX for the high halves). Squaring:
 * the six cross products once, doubled on the ADCX chain while the squares
 * are added on the ADOX chain. Reduction: four steps on the low 256 bits;
 * with m the lowest limb, -p^-1 = 1 (mod 2^64), so m itself is the
 * Montgomery factor, and m p = m 2^256 - m 2^224 + m 2^192 + m 2^96 - m:
 * adding it clears the lowest limb and adds m 2^96 and m (2^64 - 2^32 +
 * 1) 2^192, with no multiplication: m 2^32 as m << 32 and m >> 32 (two
 * copies, which the renamer absorbs, and two shifts; shorter on the path
 * from m to the next step's m than a MULX by 2^32 or a RORX whose halves
 * are then split), and m (2^64 - 2^32 + 1) = m 2^64 + m - m 2^32 by one
 * SUB and SBB of it, single-cycle instructions where MULX takes two
 * micro-ops and three to four cycles on AMD Zen 4. The reduced low half
 * plus the high half is below 2^256 + p; one conditional subtraction
 * (CMOV) ends.
 * CT: straight-line code, no data-dependent branch or memory index.
 */
#include "config.h"

#include "crypto/p256_int.h"

#if defined(__x86_64__)

static const uint64_t p3_const = 0xffffffff00000001ULL;
static const uint64_t p1_const = 0x00000000ffffffffULL;

#define CLOBBERS "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", \
	"r13", "r14", "r15", "cc", "memory"

/* One reduction step on the window (w0, w1, w2, w3): m = w0; the window
 * becomes (w1, w2, w3, w0) = (window + m p) / 2^64. rbx:rax = m 2^32,
 * then w0:rdx = m 2^64 + m - rbx:rax = m (2^64 - 2^32 + 1), which is
 * below 2^128, so the SBB cannot borrow out. */
#define REDC_STEP(w0, w1, w2, w3)                                     \
	"movq " w0 ", %%rax\n\t"                                      \
	"shlq $32, %%rax\n\t"                                         \
	"movq " w0 ", %%rbx\n\t"                                      \
	"shrq $32, %%rbx\n\t"                                         \
	"movq " w0 ", %%rdx\n\t"                                      \
	"subq %%rax, %%rdx\n\t"                                       \
	"sbbq %%rbx, " w0 "\n\t"                                      \
	"addq %%rax, " w1 "\n\t"                                      \
	"adcq %%rbx, " w2 "\n\t"                                      \
	"adcq %%rdx, " w3 "\n\t"                                      \
	"adcq $0, " w0 "\n\t"

/* Row i of the product: t[i .. i+4] += a * b[i] (t[i+4] is new). */
#include "crypto/x86_64/vg_mul4x64_adx.h"

/* Montgomery reduction of r8 .. r15 and the final subtraction: the fully
 * reduced result in r8 .. r11. */
#define REDC \
	REDC_STEP("%%r8", "%%r9", "%%r10", "%%r11") \
	REDC_STEP("%%r9", "%%r10", "%%r11", "%%r8") \
	REDC_STEP("%%r10", "%%r11", "%%r8", "%%r9") \
	REDC_STEP("%%r11", "%%r8", "%%r9", "%%r10") \
	"addq %%r12, %%r8\n\t" \
	"adcq %%r13, %%r9\n\t" \
	"adcq %%r14, %%r10\n\t" \
	"adcq %%r15, %%r11\n\t" \
	"sbbq %%rax, %%rax\n\t" \
	SUBP_IF_GE

/* (c 2^256 + r8 .. r11) < 2p, with rax = -c (0 or all ones: SBB of
 * itself after the addition, one instruction): subtract p unless that
 * borrows, which with rax all ones it cannot. */
#define SUBP_IF_GE \
	"movq %%r8, %%r12\n\t" \
	"movq %%r9, %%r13\n\t" \
	"movq %%r10, %%r14\n\t" \
	"movq %%r11, %%r15\n\t" \
	"subq $-1, %%r12\n\t" \
	"sbbq %[p1], %%r13\n\t" \
	"sbbq $0, %%r14\n\t" \
	"sbbq %[p3], %%r15\n\t" \
	"sbbq $0, %%rax\n\t" \
	"cmovncq %%r12, %%r8\n\t" \
	"cmovncq %%r13, %%r9\n\t" \
	"cmovncq %%r14, %%r10\n\t" \
	"cmovncq %%r15, %%r11\n\t"

/* r8 .. r11 = 3 (r8 .. r11) mod p (< p in and out), in registers: 2x,
 * reduced by subtracting p and adding it back under the borrow mask, then
 * plus x (kept in r12 .. r15) and the usual final subtraction. */
#define TRIPLE \
	"movq %%r8, %%r12\n\t" \
	"movq %%r9, %%r13\n\t" \
	"movq %%r10, %%r14\n\t" \
	"movq %%r11, %%r15\n\t" \
	"xorl %%eax, %%eax\n\t" \
	"addq %%r8, %%r8\n\t" \
	"adcq %%r9, %%r9\n\t" \
	"adcq %%r10, %%r10\n\t" \
	"adcq %%r11, %%r11\n\t" \
	"adcq $0, %%rax\n\t" \
	"subq $-1, %%r8\n\t" \
	"sbbq %[p1], %%r9\n\t" \
	"sbbq $0, %%r10\n\t" \
	"sbbq %[p3], %%r11\n\t" \
	"sbbq $0, %%rax\n\t" \
	"movl %%eax, %%ebx\n\t" \
	"movq %%rax, %%rdx\n\t" \
	"andq %[p3], %%rdx\n\t" \
	"addq %%rax, %%r8\n\t" \
	"adcq %%rbx, %%r9\n\t" \
	"adcq $0, %%r10\n\t" \
	"adcq %%rdx, %%r11\n\t" \
	"addq %%r12, %%r8\n\t" \
	"adcq %%r13, %%r9\n\t" \
	"adcq %%r14, %%r10\n\t" \
	"adcq %%r15, %%r11\n\t" \
	"sbbq %%rax, %%rax\n\t" \
	SUBP_IF_GE

/* r8 .. r11 = x[0 .. 3] and back, for an operand named x. */
#define LOAD(x) \
	"movq 0(%[" x "]), %%r8\n\t" \
	"movq 8(%[" x "]), %%r9\n\t" \
	"movq 16(%[" x "]), %%r10\n\t" \
	"movq 24(%[" x "]), %%r11\n\t"
#define STORE(x) \
	"movq %%r8, 0(%[" x "])\n\t" \
	"movq %%r9, 8(%[" x "])\n\t" \
	"movq %%r10, 16(%[" x "])\n\t" \
	"movq %%r11, 24(%[" x "])\n\t"

/* r8 .. r11 += x mod p (both < p). */
#define ADDM(x) \
	"addq 0(%[" x "]), %%r8\n\t" \
	"adcq 8(%[" x "]), %%r9\n\t" \
	"adcq 16(%[" x "]), %%r10\n\t" \
	"adcq 24(%[" x "]), %%r11\n\t" \
	"sbbq %%rax, %%rax\n\t" \
	SUBP_IF_GE

/* r8 .. r11 -= x mod p (both < p): add p back under the borrow mask (0 or
 * all ones; its limb 2^32 - 1 of p is the mask's low half, zero-extended
 * by one MOVL, here and in TRIPLE and HALF). */
#define SUBM(x) \
	"subq 0(%[" x "]), %%r8\n\t" \
	"sbbq 8(%[" x "]), %%r9\n\t" \
	"sbbq 16(%[" x "]), %%r10\n\t" \
	"sbbq 24(%[" x "]), %%r11\n\t" \
	"sbbq %%rax, %%rax\n\t" \
	"movl %%eax, %%r13d\n\t" \
	"movq %%rax, %%r15\n\t" \
	"andq %[p3], %%r15\n\t" \
	"addq %%rax, %%r8\n\t" \
	"adcq %%r13, %%r9\n\t" \
	"adcq $0, %%r10\n\t" \
	"adcq %%r15, %%r11\n\t"

/* r8 .. r11 /= 2 mod p: (x + (x odd ? p : 0)) / 2 on 257 bits, the
 * 257th bit in the carry flag and shifted in by RCR through the four limbs
 * (one micro-op each on AMD Zen 4, where SHRD takes several). */
#define HALF \
	"movq %%r8, %%rax\n\t" \
	"andq $1, %%rax\n\t" \
	"negq %%rax\n\t" \
	"movl %%eax, %%r13d\n\t" \
	"movq %%rax, %%r15\n\t" \
	"andq %[p3], %%r15\n\t" \
	"addq %%rax, %%r8\n\t" \
	"adcq %%r13, %%r9\n\t" \
	"adcq $0, %%r10\n\t" \
	"adcq %%r15, %%r11\n\t" \
	"rcrq $1, %%r11\n\t" \
	"rcrq $1, %%r10\n\t" \
	"rcrq $1, %%r9\n\t" \
	"rcrq $1, %%r8\n\t"

#define FE_ASM(body, ...) \
	__asm__ __volatile__(body : : __VA_ARGS__, [p3] "m"(p3_const), \
	    [p1] "m"(p1_const) \
	    : CLOBBERS)

/*
 * The operations the formulas use, each one asm block (at most three
 * pointers, so that a frame-pointer build still has the registers):
 *   fmul r = a b, fsqr r = a^2, fmul3 r = 3 a b (tripled in registers),
 *   fsqr_half r = a^2 / 2,
 *   fsqr_sub r = a^2 - b, fsqr_sub2 r = a^2 - 2b, fmul_from r = a b - r,
 *   fadd r = a + b, fadd2 r = a + 2b, fsub r = a - b (all mod p).
 */
static inline __attribute__((always_inline)) void
fmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(MUL_PROD REDC STORE("r"), [r] "r"(r), [a] "r"(a), [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fsqr(uint64_t r[4], const uint64_t a[4])
{
	FE_ASM(SQR_PROD REDC STORE("r"), [r] "r"(r), [a] "r"(a));
}

static inline __attribute__((always_inline)) void
fmul3(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(MUL_PROD REDC TRIPLE STORE("r"),
	    [r] "r"(r), [a] "r"(a), [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fsqr_half(uint64_t r[4], const uint64_t a[4])
{
	FE_ASM(SQR_PROD REDC HALF STORE("r"), [r] "r"(r), [a] "r"(a));
}

static inline __attribute__((always_inline)) void
fsqr_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(SQR_PROD REDC SUBM("b") STORE("r"), [r] "r"(r), [a] "r"(a),
	    [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fsqr_sub2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(SQR_PROD REDC SUBM("b") SUBM("b") STORE("r"), [r] "r"(r),
	    [a] "r"(a), [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fmul_from(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(MUL_PROD REDC SUBM("r") STORE("r"), [r] "r"(r), [a] "r"(a),
	    [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fadd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(LOAD("a") ADDM("b") STORE("r"), [r] "r"(r), [a] "r"(a),
	    [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fadd2(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(LOAD("a") ADDM("b") ADDM("b") STORE("r"), [r] "r"(r),
	    [a] "r"(a), [b] "r"(b));
}

static inline __attribute__((always_inline)) void
fsub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	FE_ASM(LOAD("a") SUBM("b") STORE("r"), [r] "r"(r), [a] "r"(a),
	    [b] "r"(b));
}

/* see crypto/p256_kernels.h */
__attribute__((target("bmi2,adx"))) void
vg_p256_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	fmul(r, a, b);
}

/* see crypto/p256_kernels.h */
__attribute__((target("bmi2,adx"))) void
vg_p256_sqr_adx(uint64_t r[4], const uint64_t a[4])
{
	fsqr(r, a);
}

/* see crypto/p256_kernels.h */
__attribute__((target("bmi2,adx"))) void
vg_p256_sqr_n_adx(uint64_t r[4], const uint64_t a[4], unsigned n)
{
	fsqr(r, a);
	while (--n > 0)
		fsqr(r, r);
}

/*
 * see crypto/p256_kernels.h
 * The formulas of vg_p256_point_double_c, with fused steps: Z3 = Z (2Y),
 * M = 3 (X + Z^2)(X - Z^2) in one block, 8Y^4 straight into r->y, X3 =
 * M^2 - 2S and Y3 = M (S - X3) - 8Y^4 each in one block. The blocks are
 * ordered for the out-of-order core, which sees about two of them at a
 * time: the chain Z^2 -> M -> X3 -> Y3 first, each block followed by one
 * it does not wait for, and Z3 (needed by no one here) late, where it
 * fills the wait for S. In a run of doublings this takes 4-6% less time
 * than the order of the portable twin on an AMD Zen 4 (medians of 31
 * alternating rounds). a->y is last read before r->y is written, a->z
 * before r->z, a->x before r->x.
 */
__attribute__((target("bmi2,adx"))) void
vg_p256_point_double_adx(struct vg_p256_jac *r, const struct vg_p256_jac *a)
{
	uint64_t s[4], s4[4], zz[4], m[4], d[4], S[4];

	fsqr(zz, a->z);
	fadd(s, a->y, a->y);            /* 2Y */
	fadd(m, a->x, zz);
	fsqr(s4, s);                    /* 4Y^2 */
	fsub(d, a->x, zz);
	fmul3(m, m, d);                 /* M = 3 (X^2 - Z^4) */
	fmul(S, s4, a->x);              /* S = 4XY^2 */
	fmul(r->z, a->z, s);            /* Z3 = 2YZ */
	fsqr_sub2(r->x, m, S);          /* X3 = M^2 - 2S */
	fsqr_half(r->y, s4);            /* 8Y^4 */
	fsub(S, S, r->x);
	fmul_from(r->y, S, m);          /* Y3 = M (S - X3) - 8Y^4 */
}

/*
 * see crypto/p256_kernels.h
 * The formulas of vg_p256_point_add_cached_c; H = U2 - U1, R = S2 - S1,
 * X3 = R^2 - (H^3 + 2V) and Y3 = R (V - X3) - S1 H^3 with the subtraction
 * fused into the multiplication (U2 and S2 are never stored), and the
 * blocks ordered as in vg_p256_point_double_adx: the chain H -> H^2 ->
 * H^3 -> X3 -> Y3 early, independent blocks between its links (2-3% less
 * time than the twin's order on an AMD Zen 4, medians of 31 alternating
 * rounds). a->x, a->y and a->z are last read before r->x, r->y and r->z
 * are written.
 */
__attribute__((target("bmi2,adx"))) void
vg_p256_point_add_cached_adx(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const uint64_t t[20])
{
	uint64_t z1z1[4], u1[4], u2[4], s1[4], s2[4], h[4], rr[4], hh[4],
	    hhh[4], v[4];

	fsqr(z1z1, a->z);
	fmul(u1, a->x, t + 12);
	fmul(s2, a->z, z1z1);
	vg_p256_copy4(h, u1);
	fmul_from(h, t, z1z1);          /* H = U2 - U1 */
	fmul(s1, a->y, t + 16);
	fsqr(hh, h);
	vg_p256_copy4(rr, s1);
	fmul_from(rr, s2, t + 4);       /* R = S2 - S1 */
	fmul(hhh, h, hh);
	fmul(v, u1, hh);
	fmul(r->z, a->z, t + 8);        /* last read of a->z */
	fadd2(u2, hhh, v);              /* H^3 + 2V */
	fsqr_sub(r->x, rr, u2);
	fmul(r->z, r->z, h);            /* Z3 = Z1 Z2 H */
	fmul(r->y, s1, hhh);
	fsub(v, v, r->x);
	fmul_from(r->y, v, rr);
}

/*
 * see crypto/p256_kernels.h
 * The formulas of vg_p256_point_add_affine_c (those above with Z2 = 1),
 * fused and ordered the same way (3-4% less time than the twin's order).
 * a->x, a->y and a->z are last read before r->x, r->y and r->z are
 * written.
 */
__attribute__((target("bmi2,adx"))) void
vg_p256_point_add_affine_adx(struct vg_p256_jac *r,
    const struct vg_p256_jac *a, const struct vg_p256_aff *b)
{
	uint64_t z1z1[4], u2[4], s2[4], h[4], rr[4], hh[4], hhh[4], v[4];

	fsqr(z1z1, a->z);
	vg_p256_copy4(h, a->x);
	fmul_from(h, b->x, z1z1);       /* H = U2 - X1 */
	fmul(s2, a->z, z1z1);
	fsqr(hh, h);
	vg_p256_copy4(rr, a->y);
	fmul_from(rr, s2, b->y);        /* R = S2 - Y1 */
	fmul(hhh, h, hh);
	fmul(v, a->x, hh);
	fadd2(u2, hhh, v);              /* H^3 + 2V */
	fmul(r->z, a->z, h);            /* Z3 = Z1 H */
	fsqr_sub(r->x, rr, u2);
	fmul(r->y, a->y, hhh);          /* Y1 H^3 */
	fsub(v, v, r->x);
	fmul_from(r->y, v, rr);
}

#endif
