/*
 * GF(2^255 - 19) on 4 64-bit limbs with MULX, ADCX and ADOX (BMI2 and
 * ADX), and the X25519 ladder on it: the kernels vg_fe25519_mul64_adx,
 * vg_fe25519_sqr64_adx and vg_x25519_ladder_adx, with the contracts of
 * their portable twins (crypto/c25519_kernels.h). The field operations
 * are the inline ones of crypto/x86_64/vg_fe25519_adx.h (shared with the
 * Edwards kernels of vg_ed25519_adx.c), so that the ladder has no call
 * and no dispatch per operation. The ladder has its own loosely
 * reduced variants of them (below), which end in one carry pass each, a
 * multiply-add by 121666 and a selection by CMOV instead of the swap; it
 * ends with the portable safegcd inversion (vg_fe25519_invert64), which
 * needs no ADX.
 * CT: straight-line code, no data-dependent branch or memory index; the
 * ladder's selection is a CMOV on a flag.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>
#include <x86intrin.h>

#include "crypto/c25519_kernels.h"
#include "crypto/ct.h"

#if defined(__x86_64__)

#include "crypto/x86_64/vg_fe25519_adx.h"

/* see crypto/c25519_kernels.h */
void
vg_fe25519_mul64_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	vg_fe64_mul(r, a, b);
}

/* see crypto/c25519_kernels.h */
void
vg_fe25519_sqr64_adx(uint64_t r[4], const uint64_t a[4])
{
	vg_fe64_sqr(r, a);
}

/*
 * The ladder's own field operations, as inline-assembly text on one
 * state (struct ladder below) addressed from one register, %[l], with the
 * field elements at fixed offsets (given as string literals: "32" is the
 * element at 32(%[l])), so that no operation needs an address of its own
 * (the compiler otherwise keeps a pointer per element on the stack and
 * loads two or three before each operation). Their results are only
 * loosely reduced, to below 2^256 or, where a product or the a24
 * combination ends, below 2^255 + 2^24 ("loose"), which is what lets
 * each of them end in one carry pass; the bounds they need of their
 * inputs are given with each, and the ladder below meets them (every
 * subtrahend and every summand is a loose result). Inputs of the products
 * may be any value below 2^256.
 */

/* Limb i of the element at offset o. */
#define LIMB(o, i) o "+" #i "(%[l])"

/* Row i of the product a b (as MUL_ROW). */
#define LROW(a, b, i, ti, ti1, ti2, ti3, ti4) \
	"movq " LIMB(b, i) ", %%rdx\n\t" \
	"xorl %%eax, %%eax\n\t" \
	"mulxq " LIMB(a, 0) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, " ti "\n\t" \
	"adoxq %%rbx, " ti1 "\n\t" \
	"mulxq " LIMB(a, 8) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, " ti1 "\n\t" \
	"adoxq %%rbx, " ti2 "\n\t" \
	"mulxq " LIMB(a, 16) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, " ti2 "\n\t" \
	"adoxq %%rbx, " ti3 "\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, " ti4 "\n\t" \
	"adcxq %%rax, " ti3 "\n\t" \
	"movl $0, %%eax\n\t" \
	"adoxq %%rax, " ti4 "\n\t" \
	"adcxq %%rax, " ti4 "\n\t"

/* The 512-bit product a b into r8 .. r15 (as MUL_PROD). */
#define LPROD(a, b) \
	"movq " LIMB(b, 0) ", %%rdx\n\t" \
	"mulxq " LIMB(a, 0) ", %%r8, %%r9\n\t" \
	"mulxq " LIMB(a, 8) ", %%rax, %%r10\n\t" \
	"addq %%rax, %%r9\n\t" \
	"mulxq " LIMB(a, 16) ", %%rax, %%r11\n\t" \
	"adcq %%rax, %%r10\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, %%r12\n\t" \
	"adcq %%rax, %%r11\n\t" \
	"adcq $0, %%r12\n\t" \
	LROW(a, b, 8, "%%r9", "%%r10", "%%r11", "%%r12", "%%r13") \
	LROW(a, b, 16, "%%r10", "%%r11", "%%r12", "%%r13", "%%r14") \
	LROW(a, b, 24, "%%r11", "%%r12", "%%r13", "%%r14", "%%r15")

/* The 512-bit square of a into r8 .. r15 (as SQR_PROD). */
#define LSQRPROD(a) \
	"movq " LIMB(a, 0) ", %%rdx\n\t" \
	"mulxq " LIMB(a, 8) ", %%r9, %%r10\n\t" \
	"mulxq " LIMB(a, 16) ", %%rax, %%r11\n\t" \
	"addq %%rax, %%r10\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, %%r12\n\t" \
	"adcq %%rax, %%r11\n\t" \
	"adcq $0, %%r12\n\t" \
	"movq " LIMB(a, 8) ", %%rdx\n\t" \
	"xorl %%eax, %%eax\n\t" \
	"mulxq " LIMB(a, 16) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r11\n\t" \
	"adoxq %%rbx, %%r12\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, %%r13\n\t" \
	"adcxq %%rax, %%r12\n\t" \
	"movl $0, %%eax\n\t" \
	"adoxq %%rax, %%r13\n\t" \
	"adcxq %%rax, %%r13\n\t" \
	"movq " LIMB(a, 16) ", %%rdx\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, %%r14\n\t" \
	"addq %%rax, %%r13\n\t" \
	"adcq $0, %%r14\n\t" \
	"xorl %%r15d, %%r15d\n\t" \
	"movq " LIMB(a, 0) ", %%rdx\n\t" \
	"mulxq %%rdx, %%r8, %%rbx\n\t" \
	"adcxq %%r9, %%r9\n\t" \
	"adoxq %%rbx, %%r9\n\t" \
	"movq " LIMB(a, 8) ", %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r10, %%r10\n\t" \
	"adoxq %%rax, %%r10\n\t" \
	"adcxq %%r11, %%r11\n\t" \
	"adoxq %%rbx, %%r11\n\t" \
	"movq " LIMB(a, 16) ", %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r12, %%r12\n\t" \
	"adoxq %%rax, %%r12\n\t" \
	"adcxq %%r13, %%r13\n\t" \
	"adoxq %%rbx, %%r13\n\t" \
	"movq " LIMB(a, 24) ", %%rdx\n\t" \
	"mulxq %%rdx, %%rax, %%rbx\n\t" \
	"adcxq %%r14, %%r14\n\t" \
	"adoxq %%rax, %%r14\n\t" \
	"adcxq %%r15, %%r15\n\t" \
	"adoxq %%rbx, %%r15\n\t"

/* r8 .. r11 to the element at r. */
#define LSTORE(r) \
	"movq %%r8, " LIMB(r, 0) "\n\t" \
	"movq %%r9, " LIMB(r, 8) "\n\t" \
	"movq %%r10, " LIMB(r, 16) "\n\t" \
	"movq %%r11, " LIMB(r, 24) "\n\t"

/* r8 .. r11 + 38 (r12 .. r15) as in FOLD, but that sum (a carry word
 * c <= 38 above 256 bits) split at bit 255 instead: what lies above
 * bit 255 (at most 2c + 1) times 19 added to the low 255 bits, a sum
 * below 2^255 + 2^11 that cannot carry out. Stored to r. Bit 255 joins
 * the carry word by BTR (into CF) and ADC c, c: with SHLD, which takes
 * one instruction for it, the ladder took 1.04 times as long on AMD
 * Zen 4. */
#define LFOLD(r) \
	FOLD38 \
	"btrq $63, %%r11\n\t" \
	"adcq %%r12, %%r12\n\t" \
	"imulq $19, %%r12, %%r12\n\t" \
	"addq %%r12, %%r8\n\t" \
	"adcq %%rax, %%r9\n\t" \
	"adcq %%rax, %%r10\n\t" \
	"adcq %%rax, %%r11\n\t" \
	LSTORE(r)

/* r = a b, loose. */
#define LMUL(r, a, b) LPROD(a, b) LFOLD(r)

/* r = a^2, loose. */
#define LSQR(r, a) LSQRPROD(a) LFOLD(r)

/* r = a + b < 2^256 for loose a, b: a carry out of 2^256 leaves less
 * than 2^26, and 38 is added to that in the same pass. */
#define LADD(r, a, b) \
	"movq " LIMB(a, 0) ", %%r8\n\t" \
	"movq " LIMB(a, 8) ", %%r9\n\t" \
	"movq " LIMB(a, 16) ", %%r10\n\t" \
	"movq " LIMB(a, 24) ", %%r11\n\t" \
	"xorl %%ecx, %%ecx\n\t" \
	"addq " LIMB(b, 0) ", %%r8\n\t" \
	"adcq " LIMB(b, 8) ", %%r9\n\t" \
	"adcq " LIMB(b, 16) ", %%r10\n\t" \
	"adcq " LIMB(b, 24) ", %%r11\n\t" \
	"movl $38, %%eax\n\t" \
	"cmovncl %%ecx, %%eax\n\t" \
	"addq %%rax, %%r8\n\t" \
	"adcq %%rcx, %%r9\n\t" \
	"adcq %%rcx, %%r10\n\t" \
	"adcq %%rcx, %%r11\n\t" \
	LSTORE(r)

/* r = a - b < 2^256 for any a < 2^256 and loose b: on a borrow the
 * difference is at least 2^256 - b > 38 in the register, and 38 is
 * taken from it in the same pass. */
#define LSUB(r, a, b) \
	"movq " LIMB(a, 0) ", %%r8\n\t" \
	"movq " LIMB(a, 8) ", %%r9\n\t" \
	"movq " LIMB(a, 16) ", %%r10\n\t" \
	"movq " LIMB(a, 24) ", %%r11\n\t" \
	"xorl %%ecx, %%ecx\n\t" \
	"subq " LIMB(b, 0) ", %%r8\n\t" \
	"sbbq " LIMB(b, 8) ", %%r9\n\t" \
	"sbbq " LIMB(b, 16) ", %%r10\n\t" \
	"sbbq " LIMB(b, 24) ", %%r11\n\t" \
	"movl $38, %%eax\n\t" \
	"cmovncl %%ecx, %%eax\n\t" \
	"subq %%rax, %%r8\n\t" \
	"sbbq %%rcx, %%r9\n\t" \
	"sbbq %%rcx, %%r10\n\t" \
	"sbbq %%rcx, %%r11\n\t" \
	LSTORE(r)

/* r = 121666 a + b, loose, for any a < 2^256 and loose b: the 273-bit
 * sum split at bit 255 as in LFOLD (fewer than 2^19 above it, times
 * 19), one multiply-add where a24 = 121665 took a product and an
 * addition. */
#define LCMADD(r, a, b) \
	"movq " LIMB(b, 0) ", %%r8\n\t" \
	"movq " LIMB(b, 8) ", %%r9\n\t" \
	"movq " LIMB(b, 16) ", %%r10\n\t" \
	"movq " LIMB(b, 24) ", %%r11\n\t" \
	"movl $121666, %%edx\n\t" \
	"xorl %%ecx, %%ecx\n\t" \
	"mulxq " LIMB(a, 0) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r8\n\t" \
	"adoxq %%rbx, %%r9\n\t" \
	"mulxq " LIMB(a, 8) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r9\n\t" \
	"adoxq %%rbx, %%r10\n\t" \
	"mulxq " LIMB(a, 16) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r10\n\t" \
	"adoxq %%rbx, %%r11\n\t" \
	"mulxq " LIMB(a, 24) ", %%rax, %%rbx\n\t" \
	"adcxq %%rax, %%r11\n\t" \
	"adoxq %%rcx, %%rbx\n\t" \
	"adcxq %%rcx, %%rbx\n\t" \
	"btrq $63, %%r11\n\t" \
	"adcq %%rbx, %%rbx\n\t" \
	"imulq $19, %%rbx, %%rbx\n\t" \
	"addq %%rbx, %%r8\n\t" \
	"adcq %%rcx, %%r9\n\t" \
	"adcq %%rcx, %%r10\n\t" \
	"adcq %%rcx, %%r11\n\t" \
	LSTORE(r)

/* One limb of LMUX2: limb i of a if ZF is clear, else of c, into r. */
#define LMUXLIMB(r, a, c, i) \
	"movq " LIMB(c, i) ", %%rax\n\t" \
	"cmovnzq " LIMB(a, i) ", %%rax\n\t" \
	"movq %%rax, " LIMB(r, i) "\n\t"

/* (r, s) = sel ? (a, b) : (c, d) for sel 0 or 1, by CMOV on one TEST. */
#define LMUX2(r, s, a, b, c, d) \
	"testq %[sel], %[sel]\n\t" \
	LMUXLIMB(r, a, c, 0) LMUXLIMB(r, a, c, 8) \
	LMUXLIMB(r, a, c, 16) LMUXLIMB(r, a, c, 24) \
	LMUXLIMB(s, b, d, 0) LMUXLIMB(s, b, d, 8) \
	LMUXLIMB(s, b, d, 16) LMUXLIMB(s, b, d, 24)

/* The canonical encoding of a < 2^256. */
static void
store(uint8_t s[32], const uint64_t a[4])
{
	uint64_t t[4];
	int i;

	vg_fe25519_reduce64(t, a);
	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(t[i / 8] >> (8 * (i % 8)));
	vg_wipe(t, sizeof(t));
}

/* The ladder's state: N is the point the last step doubled, M the sum
 * (their difference is the input point, u = x1); where the standard
 * ladder swaps its two points under the bit, this one keeps them in
 * place and doubles N or M by the bit and the last bit (the sums and
 * differences of both are needed anyway), so one selection of two
 * field elements replaces two masked swaps of two. The offsets below
 * are those of the members (checked at compile time). */
struct ladder {
	uint64_t x1[4], xn[4], zn[4], xm[4], zm[4];
	uint64_t dn[4], sn[4], dm[4], sm[4], d[4], s[4], p[4], e[4];
	uint64_t dmsn[4], dnsm[4], dpro[4], spro[4];
};
#define X1 "0"
#define XN "32"
#define ZN "64"
#define XM "96"
#define ZM "128"
#define DN "160"
#define SN "192"
#define DM "224"
#define SM "256"
#define D "288"
#define S "320"
#define P "352"
#define E "384"
#define DMSN "416"
#define DNSM "448"
#define DPRO "480"
#define SPRO "512"
_Static_assert(offsetof(struct ladder, zn) == 64 &&
	offsetof(struct ladder, dn) == 160 &&
	offsetof(struct ladder, d) == 288 &&
	offsetof(struct ladder, spro) == 512, "struct ladder's offsets");

/* One operation of the ladder on the state at l. */
#define LOP(text) \
	__asm__(text : : [l] "r"(l) : CLOBBERS, "rcx")

/* The doubling of (xn, zn) into itself: d = (x - z)^2, s = (x + z)^2,
 * p = s - d = 4 x z, x = s d, z = p (d + 121666 p). */
static inline __attribute__((always_inline)) void
ldouble(struct ladder *l)
{
	LOP(LSUB(D, XN, ZN));
	LOP(LADD(S, XN, ZN));
	LOP(LSQR(D, D));
	LOP(LSQR(S, S));
	LOP(LSUB(P, S, D));
	LOP(LCMADD(E, P, D));
	LOP(LMUL(XN, S, D));
	LOP(LMUL(ZN, P, E));
}

/* One step for a bit of the scalar: sel = 1 if it differs from the last
 * bit (double M), else 0 (double N). */
static inline __attribute__((always_inline)) void
lstep(struct ladder *l, uint64_t sel)
{
	LOP(LSUB(DM, XM, ZM));
	LOP(LADD(SN, XN, ZN));
	LOP(LSUB(DN, XN, ZN));
	LOP(LADD(SM, XM, ZM));
	/* a product of the sum first, which waits for nothing but these */
	LOP(LMUL(DNSM, SM, DN));
	__asm__(LMUX2(D, S, DM, SM, DN, SN)
	    :
	    : [l] "r"(l), [sel] "r"(sel)
	    : "rax", "cc", "memory");
	LOP(LMUL(DMSN, SN, DM));
	LOP(LSQR(D, D));
	LOP(LSUB(DPRO, DMSN, DNSM));
	LOP(LADD(SPRO, DMSN, DNSM));
	LOP(LSQR(S, S));
	LOP(LSQR(DPRO, DPRO));
	LOP(LSUB(P, S, D));
	LOP(LSQR(XM, SPRO));
	LOP(LCMADD(E, P, D));
	LOP(LMUL(XN, S, D));
	LOP(LMUL(ZN, P, E));
	LOP(LMUL(ZM, DPRO, X1));
}

/* see crypto/c25519_kernels.h */
void
vg_x25519_ladder_adx(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32])
{
	struct ladder st, *l = &st;
	uint8_t e[32];
	uint64_t prev, bit;
	int t, i;

	memcpy(e, k, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	for (i = 0; i < 4; i++) {
		l->x1[i] = 0;
		for (t = 7; t >= 0; t--)
			l->x1[i] = (l->x1[i] << 8) | u[8 * i + t];
	}
	l->x1[3] &= 0x7fffffffffffffffULL;
	/* bit 254 is 1: M = (x1, 1), N = its double, the last bit 1 */
	memcpy(l->xm, l->x1, sizeof(l->xm));
	memset(l->zm, 0, sizeof(l->zm));
	l->zm[0] = 1;
	memcpy(l->xn, l->xm, sizeof(l->xn));
	memcpy(l->zn, l->zm, sizeof(l->zn));
	ldouble(l);
	prev = 1;
	/* bits 253 .. 3; the three low bits are 0: three doublings */
	for (t = 253; t >= 3; t--) {
		bit = (uint64_t)(e[t >> 3] >> (t & 7)) & 1;
		lstep(l, vg_ct_barrier64(bit ^ prev));
		prev = bit;
	}
	/* the result so far is M if the last bit was 1, else N */
	__asm__(LMUX2(XN, ZN, XM, ZM, XN, ZN)
	    :
	    : [l] "r"(l), [sel] "r"(vg_ct_barrier64(prev))
	    : "rax", "cc", "memory");
	ldouble(l);
	ldouble(l);
	ldouble(l);
	vg_fe25519_invert64(l->zn, l->zn);
	vg_fe64_mul(l->xn, l->xn, l->zn);
	store(out, l->xn);

	vg_wipe(e, sizeof(e));
	vg_wipe(l, sizeof(*l));
	vg_wipe(&prev, sizeof(prev));
}

#endif
