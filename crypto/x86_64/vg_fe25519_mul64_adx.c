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
 * The ladder's own field operations. Their results are only loosely
 * reduced, to below 2^256 or, where a product or the a24 combination
 * ends, below 2^255 + 2^24 ("loose"), which is what lets each of them
 * end in one carry pass; the bounds they need of their inputs are given
 * with each, and the ladder below meets them (every subtrahend and
 * every summand is a loose result). Inputs of the products may be any
 * value below 2^256.
 */

/* r8 .. r11 + 38 (r12 .. r15) as in FOLD, but that sum (a carry word
 * c <= 38 above 256 bits) split at bit 255 instead: what lies above
 * bit 255 (at most 2c + 1) times 19 added to the low 255 bits, a sum
 * below 2^255 + 2^11 that cannot carry out. Stored to r. */
#define FOLD_LOOSE \
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
	"adcxq %%rax, %%r12\n\t" \
	"shldq $1, %%r11, %%r12\n\t" \
	"btrq $63, %%r11\n\t" \
	"imulq $19, %%r12, %%r12\n\t" \
	"addq %%r12, %%r8\n\t" \
	"adcq %%rax, %%r9\n\t" \
	"adcq %%rax, %%r10\n\t" \
	"adcq %%rax, %%r11\n\t" \
	"movq %%r8, 0(%[r])\n\t" \
	"movq %%r9, 8(%[r])\n\t" \
	"movq %%r10, 16(%[r])\n\t" \
	"movq %%r11, 24(%[r])\n\t"

/* r = a b, loose. */
static inline __attribute__((always_inline)) void
lmul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__(MUL_PROD FOLD_LOOSE
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS);
}

/* r = a^2, loose. */
static inline __attribute__((always_inline)) void
lsqr(uint64_t r[4], const uint64_t a[4])
{
	__asm__(SQR_PROD FOLD_LOOSE
	    :
	    : [r] "r"(r), [a] "r"(a)
	    : CLOBBERS);
}

/* r = a + b < 2^256 for loose a, b: a carry out of 2^256 leaves less
 * than 2^12, and 38 is added to that in the same pass. */
static inline __attribute__((always_inline)) void
ladd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__("movq 0(%[a]), %%r8\n\t"
		"movq 8(%[a]), %%r9\n\t"
		"movq 16(%[a]), %%r10\n\t"
		"movq 24(%[a]), %%r11\n\t"
		"xorl %%ecx, %%ecx\n\t"
		"addq 0(%[b]), %%r8\n\t"
		"adcq 8(%[b]), %%r9\n\t"
		"adcq 16(%[b]), %%r10\n\t"
		"adcq 24(%[b]), %%r11\n\t"
		"movl $38, %%eax\n\t"
		"cmovncl %%ecx, %%eax\n\t"
		"addq %%rax, %%r8\n\t"
		"adcq %%rcx, %%r9\n\t"
		"adcq %%rcx, %%r10\n\t"
		"adcq %%rcx, %%r11\n\t"
		"movq %%r8, 0(%[r])\n\t"
		"movq %%r9, 8(%[r])\n\t"
		"movq %%r10, 16(%[r])\n\t"
		"movq %%r11, 24(%[r])\n\t"
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

/* r = a - b < 2^256 for any a < 2^256 and loose b: on a borrow the
 * difference is at least 2^256 - b > 38 in the register, and 38 is
 * taken from it in the same pass. */
static inline __attribute__((always_inline)) void
lsub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__("movq 0(%[a]), %%r8\n\t"
		"movq 8(%[a]), %%r9\n\t"
		"movq 16(%[a]), %%r10\n\t"
		"movq 24(%[a]), %%r11\n\t"
		"xorl %%ecx, %%ecx\n\t"
		"subq 0(%[b]), %%r8\n\t"
		"sbbq 8(%[b]), %%r9\n\t"
		"sbbq 16(%[b]), %%r10\n\t"
		"sbbq 24(%[b]), %%r11\n\t"
		"movl $38, %%eax\n\t"
		"cmovncl %%ecx, %%eax\n\t"
		"subq %%rax, %%r8\n\t"
		"sbbq %%rcx, %%r9\n\t"
		"sbbq %%rcx, %%r10\n\t"
		"sbbq %%rcx, %%r11\n\t"
		"movq %%r8, 0(%[r])\n\t"
		"movq %%r9, 8(%[r])\n\t"
		"movq %%r10, 16(%[r])\n\t"
		"movq %%r11, 24(%[r])\n\t"
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD);
}

/* r = 121666 a + b, loose, for any a < 2^256 and loose b: the 273-bit
 * sum split at bit 255 as in FOLD_LOOSE (19 times fewer than 2^19 bits
 * above it), one multiply-add where a24 = 121665 took a product and an
 * addition. */
static inline __attribute__((always_inline)) void
cmadd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
	__asm__("movq 0(%[b]), %%r8\n\t"
		"movq 8(%[b]), %%r9\n\t"
		"movq 16(%[b]), %%r10\n\t"
		"movq 24(%[b]), %%r11\n\t"
		"movl $121666, %%edx\n\t"
		"xorl %%ecx, %%ecx\n\t"
		"mulxq 0(%[a]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r8\n\t"
		"adoxq %%rbx, %%r9\n\t"
		"mulxq 8(%[a]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r9\n\t"
		"adoxq %%rbx, %%r10\n\t"
		"mulxq 16(%[a]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r10\n\t"
		"adoxq %%rbx, %%r11\n\t"
		"mulxq 24(%[a]), %%rax, %%rbx\n\t"
		"adcxq %%rax, %%r11\n\t"
		"adoxq %%rcx, %%rbx\n\t"
		"adcxq %%rcx, %%rbx\n\t"
		"shldq $1, %%r11, %%rbx\n\t"
		"btrq $63, %%r11\n\t"
		"imulq $19, %%rbx, %%rbx\n\t"
		"addq %%rbx, %%r8\n\t"
		"adcq %%rcx, %%r9\n\t"
		"adcq %%rcx, %%r10\n\t"
		"adcq %%rcx, %%r11\n\t"
		"movq %%r8, 0(%[r])\n\t"
		"movq %%r9, 8(%[r])\n\t"
		"movq %%r10, 16(%[r])\n\t"
		"movq %%r11, 24(%[r])\n\t"
	    :
	    : [r] "r"(r), [a] "r"(a), [b] "r"(b)
	    : CLOBBERS_ADD, "rbx", "rdx");
}

/* One limb of mux2: off(%[p]) if sel, else off(%[q]), into off(%[r]). */
#define MUX_LIMB(off, r, p, q) \
	"movq " off "(%[" q "]), %%rax\n\t" \
	"cmovnzq " off "(%[" p "]), %%rax\n\t" \
	"movq %%rax, " off "(%[" r "])\n\t"

/* (r, s) = sel ? (a, b) : (c, d) for sel 0 or 1, by CMOV on one TEST. */
static inline __attribute__((always_inline)) void
mux2(uint64_t r[4], uint64_t s[4], const uint64_t a[4], const uint64_t b[4],
    const uint64_t c[4], const uint64_t d[4], uint64_t sel)
{
	__asm__("testq %[sel], %[sel]\n\t"
		MUX_LIMB("0", "r", "a", "c") MUX_LIMB("8", "r", "a", "c")
		MUX_LIMB("16", "r", "a", "c") MUX_LIMB("24", "r", "a", "c")
		MUX_LIMB("0", "s", "b", "d") MUX_LIMB("8", "s", "b", "d")
		MUX_LIMB("16", "s", "b", "d") MUX_LIMB("24", "s", "b", "d")
	    :
	    : [r] "r"(r), [s] "r"(s), [a] "r"(a), [b] "r"(b), [c] "r"(c),
	    [d] "r"(d), [sel] "r"(sel)
	    : "rax", "cc", "memory");
}

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
 * field elements replaces two masked swaps of two. */
struct ladder {
	uint64_t x1[4], xn[4], zn[4], xm[4], zm[4];
	uint64_t dn[4], sn[4], dm[4], sm[4], d[4], s[4], p[4], e[4];
	uint64_t dmsn[4], dnsm[4], dpro[4], spro[4];
};

/* The doubling of (xn, zn) into itself: d = (x - z)^2, s = (x + z)^2,
 * p = s - d = 4 x z, x = s d, z = p (d + 121666 p). */
static inline __attribute__((always_inline)) void
ldouble(struct ladder *l)
{
	lsub(l->d, l->xn, l->zn);
	ladd(l->s, l->xn, l->zn);
	lsqr(l->d, l->d);
	lsqr(l->s, l->s);
	lsub(l->p, l->s, l->d);
	cmadd(l->e, l->p, l->d);
	lmul(l->xn, l->s, l->d);
	lmul(l->zn, l->p, l->e);
}

/* see crypto/c25519_kernels.h */
void
vg_x25519_ladder_adx(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32])
{
	struct ladder l;
	uint8_t e[32];
	uint64_t prev = 0, bit;
	int t, i;

	memcpy(e, k, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	for (i = 0; i < 4; i++) {
		l.x1[i] = 0;
		for (t = 7; t >= 0; t--)
			l.x1[i] = (l.x1[i] << 8) | u[8 * i + t];
	}
	l.x1[3] &= 0x7fffffffffffffffULL;
	/* N = (1, 0), the identity; M = (x1, 1) */
	memset(l.xn, 0, sizeof(l.xn));
	l.xn[0] = 1;
	memset(l.zn, 0, sizeof(l.zn));
	memcpy(l.xm, l.x1, sizeof(l.xm));
	memset(l.zm, 0, sizeof(l.zm));
	l.zm[0] = 1;
	/* bits 254 .. 3; the three low bits are 0: three doublings */
	for (t = 254; t >= 3; t--) {
		bit = (uint64_t)(e[t >> 3] >> (t & 7)) & 1;
		lsub(l.dm, l.xm, l.zm);
		ladd(l.sn, l.xn, l.zn);
		lsub(l.dn, l.xn, l.zn);
		ladd(l.sm, l.xm, l.zm);
		/* double M if the bit differs from the last one, else N */
		mux2(l.d, l.s, l.dm, l.sm, l.dn, l.sn,
		    vg_ct_barrier64(bit ^ prev));
		prev = bit;
		lmul(l.dnsm, l.sm, l.dn);
		lmul(l.dmsn, l.sn, l.dm);
		lsqr(l.d, l.d);
		lsub(l.dpro, l.dmsn, l.dnsm);
		ladd(l.spro, l.dmsn, l.dnsm);
		lsqr(l.s, l.s);
		lsqr(l.dpro, l.dpro);
		lsub(l.p, l.s, l.d);
		lsqr(l.xm, l.spro);
		cmadd(l.e, l.p, l.d);
		lmul(l.xn, l.s, l.d);
		lmul(l.zn, l.p, l.e);
		lmul(l.zm, l.dpro, l.x1);
	}
	/* the result so far is M if the last bit was 1, else N */
	mux2(l.xn, l.zn, l.xm, l.zm, l.xn, l.zn, vg_ct_barrier64(prev));
	ldouble(&l);
	ldouble(&l);
	ldouble(&l);
	vg_fe25519_invert64(l.zn, l.zn);
	vg_fe64_mul(l.xn, l.xn, l.zn);
	store(out, l.xn);

	vg_wipe(e, sizeof(e));
	vg_wipe(&l, sizeof(l));
	vg_wipe(&prev, sizeof(prev));
}

#endif
