/*
 * GF(2^255 - 19) on 4 64-bit limbs with MULX, ADCX and ADOX (BMI2 and
 * ADX), and the X25519 ladder on it: the kernels vg_fe25519_mul64_adx,
 * vg_fe25519_sqr64_adx and vg_x25519_ladder_adx, with the contracts of
 * their portable twins (crypto/c25519_kernels.h). The field operations
 * are the inline ones of crypto/x86_64/vg_fe25519_adx.h (shared with the
 * Edwards kernels of vg_ed25519_adx.c), so that the ladder has no call
 * and no dispatch per operation; the product by a24 = 121665 and the
 * masked swap of the ladder are inline assembly here. The ladder ends
 * with the portable safegcd inversion (vg_fe25519_invert64), which needs
 * no ADX.
 * CT: straight-line code, no data-dependent branch or memory index; the
 * ladder's swap is a mask.
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

typedef unsigned __int128 u128;

/* r = a * 121665 (mod p): the 320-bit product, its top word times 38
 * added back, and 38 more on a carry out of 2^256. */
static inline __attribute__((always_inline)) void
mul_a24(uint64_t r[4], const uint64_t a[4])
{
	__asm__("movl $121665, %%edx\n\t"
		"mulxq 0(%[a]), %%r8, %%rcx\n\t"
		"mulxq 8(%[a]), %%r9, %%rax\n\t"
		"addq %%rcx, %%r9\n\t"
		"mulxq 16(%[a]), %%r10, %%rcx\n\t"
		"adcq %%rax, %%r10\n\t"
		"mulxq 24(%[a]), %%r11, %%rax\n\t"
		"adcq %%rcx, %%r11\n\t"
		"adcq $0, %%rax\n\t"
		"imulq $38, %%rax, %%rax\n\t"
		"xorl %%ecx, %%ecx\n\t"
		"addq %%rax, %%r8\n\t"
		"adcq %%rcx, %%r9\n\t"
		"adcq %%rcx, %%r10\n\t"
		"adcq %%rcx, %%r11\n\t"
		"movl $38, %%eax\n\t"
		"cmovncl %%ecx, %%eax\n\t"
		"addq %%rax, %%r8\n\t"
		"movq %%r8, 0(%[r])\n\t"
		"movq %%r9, 8(%[r])\n\t"
		"movq %%r10, 16(%[r])\n\t"
		"movq %%r11, 24(%[r])\n\t"
	    :
	    : [r] "r"(r), [a] "r"(a)
	    : CLOBBERS_ADD, "rdx");
}

/* One limb of cswap2: swaps off(%[p]) and off(%[q]) under the mask. */
#define CSWAP_LIMB(off, p, q) \
	"movq " off "(%[" p "]), %%rax\n\t" \
	"movq " off "(%[" q "]), %%rcx\n\t" \
	"movq %%rax, %%rdx\n\t" \
	"xorq %%rcx, %%rdx\n\t" \
	"andq %[m], %%rdx\n\t" \
	"xorq %%rdx, %%rax\n\t" \
	"xorq %%rdx, %%rcx\n\t" \
	"movq %%rax, " off "(%[" p "])\n\t" \
	"movq %%rcx, " off "(%[" q "])\n\t"

/* Swaps x2 with x3 and z2 with z3 if bit = 1 (bit is 0 or 1), under a
 * mask; in asm because the compiler's loop for it cost a tenth of the
 * ladder. */
static inline __attribute__((always_inline)) void
cswap2(uint64_t x2[4], uint64_t x3[4], uint64_t z2[4], uint64_t z3[4],
    uint64_t bit)
{
	uint64_t m = 0 - vg_ct_barrier64(bit);

	__asm__(CSWAP_LIMB("0", "x2", "x3") CSWAP_LIMB("8", "x2", "x3")
		CSWAP_LIMB("16", "x2", "x3") CSWAP_LIMB("24", "x2", "x3")
		CSWAP_LIMB("0", "z2", "z3") CSWAP_LIMB("8", "z2", "z3")
		CSWAP_LIMB("16", "z2", "z3") CSWAP_LIMB("24", "z2", "z3")
	    :
	    : [x2] "r"(x2), [x3] "r"(x3), [z2] "r"(z2), [z3] "r"(z3),
	    [m] "r"(m)
	    : "rax", "rcx", "rdx", "cc", "memory");
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

/* see crypto/c25519_kernels.h */
void
vg_x25519_ladder_adx(uint8_t out[32], const uint8_t k[32],
    const uint8_t u[32])
{
	uint8_t e[32];
	uint64_t x1[4], x2[4], z2[4], x3[4], z3[4];
	uint64_t a[4], aa[4], b[4], bb[4], c[4], d[4], da[4], cb[4], ee[4];
	uint64_t swap = 0, bit;
	int t, i;

	memcpy(e, k, 32);
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	for (i = 0; i < 4; i++) {
		x1[i] = 0;
		for (t = 7; t >= 0; t--)
			x1[i] = (x1[i] << 8) | u[8 * i + t];
	}
	x1[3] &= 0x7fffffffffffffffULL;
	memset(x2, 0, sizeof(x2));
	x2[0] = 1;
	memset(z2, 0, sizeof(z2));
	memcpy(x3, x1, sizeof(x3));
	memset(z3, 0, sizeof(z3));
	z3[0] = 1;
	for (t = 254; t >= 0; t--) {
		bit = (uint64_t)(e[t >> 3] >> (t & 7)) & 1;
		swap ^= bit;
		cswap2(x2, x3, z2, z3, swap);
		swap = bit;

		/* Independent operations side by side, so that the CPU
		 * overlaps them: each product alone is bound by the latency
		 * of its carry chains, not by the multiplier. */
		vg_fe64_add(a, x2, z2);
		vg_fe64_sub(b, x2, z2);
		vg_fe64_add(c, x3, z3);
		vg_fe64_sub(d, x3, z3);
		vg_fe64_sqr(aa, a);
		vg_fe64_sqr(bb, b);
		vg_fe64_mul(da, d, a);
		vg_fe64_mul(cb, c, b);
		vg_fe64_sub(ee, aa, bb);
		mul_a24(z2, ee);
		vg_fe64_add(z2, z2, aa);
		vg_fe64_add(x3, da, cb);
		vg_fe64_sub(z3, da, cb);
		vg_fe64_mul(x2, aa, bb);
		vg_fe64_mul(z2, z2, ee);
		vg_fe64_sqr(x3, x3);
		vg_fe64_sqr(z3, z3);
		vg_fe64_mul(z3, z3, x1);
	}
	cswap2(x2, x3, z2, z3, swap);
	vg_fe25519_invert64(z2, z2);
	vg_fe64_mul(x2, x2, z2);
	store(out, x2);

	vg_wipe(e, sizeof(e));
	vg_wipe(x1, sizeof(x1));
	vg_wipe(x2, sizeof(x2));
	vg_wipe(z2, sizeof(z2));
	vg_wipe(x3, sizeof(x3));
	vg_wipe(z3, sizeof(z3));
	vg_wipe(a, sizeof(a));
	vg_wipe(aa, sizeof(aa));
	vg_wipe(b, sizeof(b));
	vg_wipe(bb, sizeof(bb));
	vg_wipe(c, sizeof(c));
	vg_wipe(d, sizeof(d));
	vg_wipe(da, sizeof(da));
	vg_wipe(cb, sizeof(cb));
	vg_wipe(ee, sizeof(ee));
	vg_wipe(&swap, sizeof(swap));
}

#endif
