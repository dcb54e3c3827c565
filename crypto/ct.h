/*
 * Constant-time helpers. Every function here runs in time independent of
 * the values of its arguments (only lengths may be observable) and contains
 * no branch or memory index on them. Masks are all-ones (true) or zero.
 */
#ifndef VG_CRYPTO_CT_H
#define VG_CRYPTO_CT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Constant-time checking. Secret-path tests run under valgrind memcheck
 * with the secrets marked undefined (VG_CT_SECRET), so that a branch or a
 * memory index on a secret is reported. Where a function branches on a
 * value that is public by design (a tag check's verdict, a length that
 * becomes the output length), it declassifies that value first. Both are
 * valgrind client requests: a few instructions that do nothing outside
 * valgrind.
 */
#if defined(HAVE_VALGRIND_MEMCHECK_H)
#include <valgrind/memcheck.h>
#define VG_CT_SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define VG_CT_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define VG_CT_SECRET(p, n) ((void)(p), (void)(n))
#define VG_CT_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

/* Clears n bytes at p with stores the compiler cannot remove. The only way
 * to clear secrets (memset before free is a bug). p may be NULL if n is 0. */
void vg_wipe(void *p, size_t n);

/*
 * Clears n bytes of stack below the caller's frame: where the functions the
 * caller has called and returned from left their locals and spills. For code
 * whose inner calls keep secret temporaries on the stack without wiping them
 * each time (the bignum, P-256 and RSA IFMA kernels): one clearing after the
 * operation's last call instead of a wipe in every call. Call it through
 * VG_WIPE_STACK: the empty statement after the call keeps it from becoming a
 * tail call, which would lay the buffer over the caller's own frame instead
 * of the frames below it. Static, so that every user (the freestanding IFMA
 * build too) needs only vg_wipe; not inline, so that it has a frame of its
 * own.
 */
static __attribute__((noinline, unused)) void
vg_wipe_stack(size_t n)
{
	unsigned char buf[n];

	vg_wipe(buf, n);
}

#define VG_WIPE_STACK(n)                                                  \
	do {                                                              \
		vg_wipe_stack(n);                                         \
		__asm__ volatile("" : : : "memory");                      \
	} while (0)

/* Optimisation barrier: hides a value's origin from the compiler so it cannot
 * turn mask arithmetic back into a branch. */
static inline uint64_t
vg_ct_barrier64(uint64_t x)
{
	__asm__("" : "+r"(x));
	return x;
}

static inline uint32_t
vg_ct_barrier32(uint32_t x)
{
	__asm__("" : "+r"(x));
	return x;
}

/* 1 if x != 0 else 0. */
static inline uint64_t
vg_ct_nonzero64(uint64_t x)
{
	return vg_ct_barrier64((x | (0 - x)) >> 63);
}

/* All-ones if x == 0 else 0. */
static inline uint64_t
vg_ct_zero_mask64(uint64_t x)
{
	return vg_ct_nonzero64(x) - 1;
}

/* All-ones if a == b else 0. */
static inline uint64_t
vg_ct_eq_mask64(uint64_t a, uint64_t b)
{
	return vg_ct_zero_mask64(a ^ b);
}

/* All-ones if a < b (unsigned) else 0. */
static inline uint64_t
vg_ct_lt_mask64(uint64_t a, uint64_t b)
{
	uint64_t borrow = (a ^ ((a ^ b) | ((a - b) ^ a))) >> 63;
	return 0 - vg_ct_barrier64(borrow);
}

static inline uint32_t
vg_ct_zero_mask32(uint32_t x)
{
	return vg_ct_barrier32(((x | (0 - x)) >> 31)) - 1;
}

static inline uint32_t
vg_ct_eq_mask32(uint32_t a, uint32_t b)
{
	return vg_ct_zero_mask32(a ^ b);
}

/* mask ? a : b, for a mask of all-ones or zero. */
static inline uint64_t
vg_ct_select64(uint64_t mask, uint64_t a, uint64_t b)
{
	return b ^ (mask & (a ^ b));
}

static inline uint32_t
vg_ct_select32(uint32_t mask, uint32_t a, uint32_t b)
{
	return b ^ (mask & (a ^ b));
}

/*
 * Returns all-ones (as uint32_t) if the n bytes at a and b are equal, else 0.
 * CT: only n is observable.
 */
static inline uint32_t
vg_ct_memeq(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint32_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= (uint32_t)(x[i] ^ y[i]);
	return vg_ct_zero_mask32(d);
}

/* dst = mask ? src : dst, bytewise. CT: only n is observable. */
static inline void
vg_ct_cmov(void *dst, const void *src, size_t n, uint32_t mask)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	uint8_t m = (uint8_t)mask;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] ^= m & (d[i] ^ s[i]);
}

#endif
