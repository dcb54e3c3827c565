/*
 * Constant-time big numbers for RSA: fixed-size arrays of 64-bit words,
 * least significant word first, of a public length n (1 ... VG_BN_MAX_WORDS
 * words). Used by crypto/rsa*.c only; nothing here allocates memory.
 *
 * Montgomery arithmetic [HAC 14.36] runs through a struct vg_bn_mont: an
 * odd modulus m of w words (w a multiple of 4 so that every kernel accepts
 * it, m's top words may be zero), R = 2^(64w), and the constants derived
 * once from m. The multiply and square kernels come from the RSA kernel
 * table (crypto/rsa_kernels.h) chosen when the context is set up.
 *
 * Preconditions are asserted in debug builds: n within bounds, pointers
 * non-NULL, moduli odd. Outputs may alias inputs where a function says so.
 *
 * Constant time: unless a function says otherwise, only the word counts,
 * bit lengths and exponent widths passed as arguments (all public) may be
 * observable; no branch or memory index depends on a word's value. The
 * _public functions are variable time in the arguments they name. Values
 * that a CT line lets become public (a bit length, a check's outcome) are
 * declassified with VG_CT_DECLASSIFY (crypto/ct.h) where they are branched
 * on, so the secret paths run clean under the valgrind check.
 */
#ifndef VG_CRYPTO_BN_H
#define VG_CRYPTO_BN_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/ct.h"
#include "crypto/rsa_kernels.h"

/* 4096 bits: the largest RSA modulus. */
#define VG_BN_MAX_WORDS 64

/* Words of a Montgomery context for a modulus of the given bit length: the
 * word count rounded up to a multiple of 4 (what the ADX kernel takes). */
#define VG_BN_MONT_WORDS(bits) ((((bits) + 255u) / 256u) * 4u)

/* ------------------------------------------------------------ plain words */

/* x (n words) from len big-endian bytes. Returns all-ones if the value fits
 * in n words (bytes beyond 8n at the front are zero), else 0 and x holds
 * the low 8n bytes. CT: only n and len. */
uint64_t vg_bn_from_bytes(uint64_t *x, size_t n, const uint8_t *in,
    size_t len);

/* out (len big-endian bytes) from x (n words), truncated to the low len
 * bytes or zero-extended. CT: only n and len. */
void vg_bn_to_bytes(uint8_t *out, size_t len, const uint64_t *x, size_t n);

/* Bit length of the len-byte big-endian number in (0 for zero). CT:
 * only len; the result is as secret as the number's size. */
unsigned vg_bn_bytes_bitlen(const uint8_t *in, size_t len);

/* Bit length of x (0 for zero). CT: only n. */
unsigned vg_bn_bitlen(const uint64_t *x, size_t n);

void vg_bn_zero(uint64_t *x, size_t n);
void vg_bn_copy(uint64_t *d, const uint64_t *s, size_t n);

/* d = mask ? s : d, mask all-ones or zero. */
void vg_bn_cmov(uint64_t *d, const uint64_t *s, size_t n, uint64_t mask);

/* d = a + b, returns the carry (0 or 1). d may alias a or b. */
uint64_t vg_bn_add(uint64_t *d, const uint64_t *a, const uint64_t *b,
    size_t n);

/* d = a - b, returns the borrow (0 or 1). d may alias a or b. */
uint64_t vg_bn_sub(uint64_t *d, const uint64_t *a, const uint64_t *b,
    size_t n);

/* Adds (subtracts) b to a in place only where mask is all-ones; returns
 * the carry (borrow) masked. */
uint64_t vg_bn_cadd(uint64_t *a, const uint64_t *b, size_t n, uint64_t mask);
uint64_t vg_bn_csub(uint64_t *a, const uint64_t *b, size_t n, uint64_t mask);

/* All-ones if a < b, if a == b, if x == 0; else 0. */
uint64_t vg_bn_lt_mask(const uint64_t *a, const uint64_t *b, size_t n);
uint64_t vg_bn_eq_mask(const uint64_t *a, const uint64_t *b, size_t n);
uint64_t vg_bn_zero_mask(const uint64_t *x, size_t n);

/* x >>= 1 with hi shifted into the top bit; returns the bit shifted out. */
uint64_t vg_bn_shr1(uint64_t *x, size_t n, uint64_t hi);

/* d (an + bn words) = a * b; d must not overlap a or b. */
void vg_bn_mul(uint64_t *d, const uint64_t *a, size_t an, const uint64_t *b,
    size_t bn);

/* a += b * y (b and a n words); returns the carry word. */
uint64_t vg_bn_muladd_word(uint64_t *a, const uint64_t *b, uint64_t y,
    size_t n);

/* d = (a + b) mod m, d = (a - b) mod m, for a, b < m. d may alias. */
void vg_bn_mod_add(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n);
void vg_bn_mod_sub(uint64_t *d, const uint64_t *a, const uint64_t *b,
    const uint64_t *m, size_t n);

/*
 * Long division by words: q = a / m (an <= 2 VG_BN_MAX_WORDS + 2 words;
 * q may be NULL) and r = a mod m (mn words), for m != 0 whose top bit
 * lies in word mn - 1 or below (any m). r and q may overlap a but not m.
 * CT: only an and mn (m is normalised by a shift of secret length, each
 * quotient word estimated without a division instruction and corrected
 * by masks: an steps of O(mn) work).
 */
void vg_bn_divmod(uint64_t *q, uint64_t *r, const uint64_t *a, size_t an,
    const uint64_t *m, size_t mn);

/*
 * vg_bn_divmod for an m whose length is public (a modulus of known bit
 * length: the caller promises that m[mn - 1] is not zero; the result is
 * wrong otherwise) and an >= mn: an - mn + 1 quotient words, where
 * vg_bn_divmod computes an (q's words above an - mn are set to zero).
 * CT: only an and mn.
 */
void vg_bn_divmod_pub(uint64_t *q, uint64_t *r, const uint64_t *a,
    size_t an, const uint64_t *m, size_t mn);

/* a mod m for a single-word m > 0 (vg_bn_divmod by one word; n as its
 * an). CT: only n. */
uint64_t vg_bn_mod_word(const uint64_t *a, size_t n, uint64_t m);

/*
 * Modular inverse for an odd modulus m > 1 (n words) by Bernstein and
 * Yang's safegcd (vg_modinv62_n), a fixed number of divsteps for the
 * width: d = a^-1 mod m for 0 <= a < m. Returns all-ones if gcd(a, m) =
 * 1, else 0 (d is then meaningless). d may alias a. CT: only n.
 */
uint64_t vg_bn_mod_inv(uint64_t *d, const uint64_t *a, const uint64_t *m,
    size_t n);

/* g = gcd(a, b) for a, b > 0 (n words each; either may be even). CT: only
 * n (fixed 64n shift steps and 2 * 64n subtraction steps). */
void vg_bn_gcd(uint64_t *g, const uint64_t *a, const uint64_t *b, size_t n);

/* ------------------------------------------------------------ Montgomery */

struct vg_bn_mont {
	uint64_t m[VG_BN_MAX_WORDS];   /* the modulus */
	uint64_t rr[VG_BN_MAX_WORDS];  /* R^2 mod m */
	uint64_t one[VG_BN_MAX_WORDS]; /* R mod m: 1 in Montgomery form */
	uint64_t m0i;                  /* -m^-1 mod 2^64 */
	unsigned w;                    /* words (a multiple of 4) */
	unsigned bits;                 /* bit length of m */
	vg_bn_montmul_fn *mul;         /* kernels (crypto/rsa_kernels.h) */
	vg_bn_montsqr_fn *sqr;
	vg_bn_montmul_fn *amul;        /* almost-Montgomery, for the loop */
	vg_bn_montsqr_fn *asqr;
	const char *impl;
};

/*
 * Sets up c for the odd modulus m (mn words, bit length 3 ... 64 *
 * VG_BN_MAX_WORDS) with the kernels of k (NULL: the process-wide table).
 * c->w = VG_BN_MONT_WORDS(bits). R mod m and R^2 mod m are remainders of
 * vg_bn_divmod_pub (m's length is public). Returns 0, or -1
 * if m is even or its length is out of range (c is then zeroed).
 * CT: only mn and the bit length of m.
 */
int vg_bn_mont_init(struct vg_bn_mont *c, const uint64_t *m, size_t mn,
    const struct vg_rsa_kernels *k);

/* Wipes c. */
void vg_bn_mont_wipe(struct vg_bn_mont *c);

/* d = a * b / R mod m for a < R and b < m (w words); d < m. Through the
 * kernel. d may alias a or b. */
void vg_bn_mont_mul(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a,
    const uint64_t *b);

/* d = a * R mod m (into the domain) for a < R; d = a / R mod m (out). */
void vg_bn_mont_to(const struct vg_bn_mont *c, uint64_t *d, const uint64_t *a);
void vg_bn_mont_from(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *a);

/*
 * d = 2^e mod m (w words), e public. Fast path (item 3 of issue 5): when
 * m's top word is non-zero, peel off 64w at a time, e = D + j * 64w with
 * D / 64 < w - 1, so that 2^D < m is a single word, and apply
 * Y := MontMul(R^2, Y) j times (one multiplication per 64w bits; j = 1 in
 * the case). Otherwise the square-and-double loop below.
 * CT: only e, w and the bit length of m.
 */
void vg_bn_mont_pow2(const struct vg_bn_mont *c, uint64_t *d, unsigned e);

/* The fallback: 2^e mod m by squarings and
 * doublings in the Montgomery domain (about log2(e) squarings), or by
 * plain doublings when e < 64w. Exposed for the tests. */
void vg_bn_mont_pow2_loop(const struct vg_bn_mont *c, uint64_t *d,
    unsigned e);

/*
 * Partial Montgomery reduction of a value of xn words (xn <= kw = K * w,
 * 1 <= K <= 4): x is zero-extended to K * w words and (K - 1) * w word
 * reductions give d = x * R^-(K-1) mod m, reduced below R (not always
 * below m). CT: only xn, kw and w.
 */
void vg_bn_mont_reduce(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *x, size_t xn, size_t kw);

/* Into the domain from any value of up to kw words: vg_bn_mont_reduce,
 * then one multiplication by g = 2^(64w(K+1)) mod m (vg_bn_mont_pow2):
 * d = x * R mod m, d < m. CT: only xn, kw and w. */
void vg_bn_mont_import(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *x, size_t xn, const uint64_t *g, size_t kw);

/* Fixed window width of the exponentiation. */
#define VG_BN_WINDOW 5

/*
 * d = a^e in the Montgomery domain (a, d < m in Montgomery form; d may
 * alias a). e has ebits bits (public width; e's value is secret; words
 * beyond ebits are ignored) in ceil(ebits / 64) words. Fixed 5-bit windows
 * from the top: 5 squarings and one multiplication per window, the
 * multiplier read from a 32-entry table in full under a mask (the table,
 * 32 * w words, lives on the stack and is wiped). Inside the loop the
 * almost-Montgomery kernels keep values below R; one full multiplication
 * by R mod m reduces at the end, and the stack is wiped once.
 * CT: only w and ebits.
 */
void vg_bn_mont_exp(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *a, const uint64_t *e, unsigned ebits);

/* The stack below its frame that vg_bn_mont_exp clears at the end
 * (VG_WIPE_STACK, crypto/ct.h), where the almost-Montgomery kernels leave
 * their scratch (they do not wipe it per call). */
#define VG_BN_STACK_WIPE_LEN 8192

/* The same for a public exponent e (ebits bits): left-to-right square
 * and multiply. Variable time in e only. */
void vg_bn_mont_exp_public(const struct vg_bn_mont *c, uint64_t *d,
    const uint64_t *a, const uint64_t *e, unsigned ebits);

/* Reads entry idx (secret) of a table of count entries of n words each,
 * touching every entry. CT: only count and n. With AVX2 in use and n a
 * multiple of 4 it runs vg_bn_table_select_avx2 (crypto/rsa_kernels.h),
 * else the portable twin vg_bn_table_select_c (SSE2 on x86-64). */
void vg_bn_table_select(uint64_t *d, const uint64_t *table, size_t count,
    size_t n, uint64_t idx);
void vg_bn_table_select_c(uint64_t *d, const uint64_t *table, size_t count,
    size_t n, uint64_t idx);

#endif
