/*
 * Keccak-f[1600] [FIPS 202 §3], the sponge [FIPS 202 §4] and SHAKE128/256
 * [FIPS 202 §6.2]. SHA3-224/256/384/512 run on the same sponge from
 * crypto/hash.c. The permutation is always called through the kernel table
 * (vg_kernels()->keccakf1600), so a faster kernel replaces it everywhere.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"

/* Round constants [FIPS 202 §3.2.5]. */
static const uint64_t RC[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define ROL64(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/*
 * see crypto/cpu.h
 * Lane (x, y) is st[x + 5 * y]. The temporaries hold state-derived values
 * (ML-DSA seeds pass through here) and are wiped on return.
 */
void
vg_keccakf1600_c(uint64_t st[25])
{
	struct {
		uint64_t b[25], c[5], d[5];
	} t;
	uint64_t *a = st, *b = t.b, *c = t.c, *d = t.d;
	unsigned r;

	for (r = 0; r < 24; r++) {
		/* theta: column parities */
		c[0] = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
		c[1] = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
		c[2] = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
		c[3] = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
		c[4] = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
		d[0] = c[4] ^ ROL64(c[1], 1);
		d[1] = c[0] ^ ROL64(c[2], 1);
		d[2] = c[1] ^ ROL64(c[3], 1);
		d[3] = c[2] ^ ROL64(c[4], 1);
		d[4] = c[3] ^ ROL64(c[0], 1);

		/* theta applied, then rho and pi: B[y, 2x + 3y] =
		 * ROT(A[x, y] ^ D[x], r[x, y]) */
		b[0] = a[0] ^ d[0];
		b[1] = ROL64(a[6] ^ d[1], 44);
		b[2] = ROL64(a[12] ^ d[2], 43);
		b[3] = ROL64(a[18] ^ d[3], 21);
		b[4] = ROL64(a[24] ^ d[4], 14);
		b[5] = ROL64(a[3] ^ d[3], 28);
		b[6] = ROL64(a[9] ^ d[4], 20);
		b[7] = ROL64(a[10] ^ d[0], 3);
		b[8] = ROL64(a[16] ^ d[1], 45);
		b[9] = ROL64(a[22] ^ d[2], 61);
		b[10] = ROL64(a[1] ^ d[1], 1);
		b[11] = ROL64(a[7] ^ d[2], 6);
		b[12] = ROL64(a[13] ^ d[3], 25);
		b[13] = ROL64(a[19] ^ d[4], 8);
		b[14] = ROL64(a[20] ^ d[0], 18);
		b[15] = ROL64(a[4] ^ d[4], 27);
		b[16] = ROL64(a[5] ^ d[0], 36);
		b[17] = ROL64(a[11] ^ d[1], 10);
		b[18] = ROL64(a[17] ^ d[2], 15);
		b[19] = ROL64(a[23] ^ d[3], 56);
		b[20] = ROL64(a[2] ^ d[2], 62);
		b[21] = ROL64(a[8] ^ d[3], 55);
		b[22] = ROL64(a[14] ^ d[4], 39);
		b[23] = ROL64(a[15] ^ d[0], 41);
		b[24] = ROL64(a[21] ^ d[1], 2);

		/* chi, then iota */
		a[0] = b[0] ^ (~b[1] & b[2]);
		a[1] = b[1] ^ (~b[2] & b[3]);
		a[2] = b[2] ^ (~b[3] & b[4]);
		a[3] = b[3] ^ (~b[4] & b[0]);
		a[4] = b[4] ^ (~b[0] & b[1]);
		a[5] = b[5] ^ (~b[6] & b[7]);
		a[6] = b[6] ^ (~b[7] & b[8]);
		a[7] = b[7] ^ (~b[8] & b[9]);
		a[8] = b[8] ^ (~b[9] & b[5]);
		a[9] = b[9] ^ (~b[5] & b[6]);
		a[10] = b[10] ^ (~b[11] & b[12]);
		a[11] = b[11] ^ (~b[12] & b[13]);
		a[12] = b[12] ^ (~b[13] & b[14]);
		a[13] = b[13] ^ (~b[14] & b[10]);
		a[14] = b[14] ^ (~b[10] & b[11]);
		a[15] = b[15] ^ (~b[16] & b[17]);
		a[16] = b[16] ^ (~b[17] & b[18]);
		a[17] = b[17] ^ (~b[18] & b[19]);
		a[18] = b[18] ^ (~b[19] & b[15]);
		a[19] = b[19] ^ (~b[15] & b[16]);
		a[20] = b[20] ^ (~b[21] & b[22]);
		a[21] = b[21] ^ (~b[22] & b[23]);
		a[22] = b[22] ^ (~b[23] & b[24]);
		a[23] = b[23] ^ (~b[24] & b[20]);
		a[24] = b[24] ^ (~b[20] & b[21]);
		a[0] ^= RC[r];
	}
	vg_wipe(&t, sizeof(t));
}

/* see crypto/hash.h */
void
vg_keccakf1600(uint64_t st[25])
{
	vg_kernels()->keccakf1600(st);
}

static inline uint64_t
load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | ((uint64_t)p[1] << 8) |
	    ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
	    ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
	    ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

static inline void
store_le64(uint8_t *p, uint64_t v)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* XORs n bytes into the state at byte position pos (pos + n <= 200). */
static void
xor_bytes(uint64_t a[25], unsigned pos, const uint8_t *p, size_t n)
{
	for (; n > 0 && (pos & 7) != 0; n--, pos++)
		a[pos >> 3] ^= (uint64_t)*p++ << (8 * (pos & 7));
	for (; n >= 8; n -= 8, pos += 8, p += 8)
		a[pos >> 3] ^= load_le64(p);
	for (; n > 0; n--, pos++)
		a[pos >> 3] ^= (uint64_t)*p++ << (8 * (pos & 7));
}

/* Reads n bytes of the state from byte position pos (pos + n <= 200). */
static void
read_bytes(const uint64_t a[25], unsigned pos, uint8_t *p, size_t n)
{
	for (; n > 0 && (pos & 7) != 0; n--, pos++)
		*p++ = (uint8_t)(a[pos >> 3] >> (8 * (pos & 7)));
	for (; n >= 8; n -= 8, pos += 8, p += 8)
		store_le64(p, a[pos >> 3]);
	for (; n > 0; n--, pos++)
		*p++ = (uint8_t)(a[pos >> 3] >> (8 * (pos & 7)));
}

/* see crypto/hash.h */
void
vg_sponge_init(struct vg_sponge *s, unsigned rate, uint8_t dsbyte)
{
	assert(rate > 0 && rate <= 168 && rate % 8 == 0);
	memset(s, 0, sizeof(*s));
	s->rate = rate;
	s->dsbyte = dsbyte;
}

/* see crypto/hash.h */
void
vg_sponge_absorb(struct vg_sponge *s, const void *data, size_t len)
{
	void (*f)(uint64_t *);
	const uint8_t *p = data;

	assert(!s->squeezing);
	assert(data != NULL || len == 0);
	if (s->squeezing || len == 0)
		return;
	f = vg_kernels()->keccakf1600;
	while (len > 0) {
		size_t n = s->rate - s->pos;

		if (n > len)
			n = len;
		xor_bytes(s->a, s->pos, p, n);
		p += n;
		len -= n;
		s->pos += (uint32_t)n;
		if (s->pos == s->rate) {
			f(s->a);
			s->pos = 0;
		}
	}
}

/* see crypto/hash.h */
void
vg_sponge_finalize(struct vg_sponge *s)
{
	if (s->squeezing)
		return;
	/* pad10*1 after the domain bits [FIPS 202 §5.1, §6] */
	s->a[s->pos >> 3] ^= (uint64_t)s->dsbyte << (8 * (s->pos & 7));
	s->a[(s->rate - 1) >> 3] ^= (uint64_t)0x80 << 56;
	s->squeezing = 1;
	s->pos = s->rate; /* the permutation runs on the first squeeze */
}

/* see crypto/hash.h */
void
vg_sponge_squeeze(struct vg_sponge *s, uint8_t *out, size_t len)
{
	void (*f)(uint64_t *);

	assert(out != NULL || len == 0);
	if (!s->squeezing)
		vg_sponge_finalize(s);
	if (len == 0)
		return;
	f = vg_kernels()->keccakf1600;
	while (len > 0) {
		size_t n;

		if (s->pos == s->rate) {
			f(s->a);
			s->pos = 0;
		}
		n = s->rate - s->pos;
		if (n > len)
			n = len;
		read_bytes(s->a, s->pos, out, n);
		out += n;
		len -= n;
		s->pos += (uint32_t)n;
	}
}

/* see crypto/hash.h */
void
vg_shake128_init(struct vg_shake *x)
{
	vg_sponge_init(&x->sp, 168, 0x1f);
}

/* see crypto/hash.h */
void
vg_shake256_init(struct vg_shake *x)
{
	vg_sponge_init(&x->sp, 136, 0x1f);
}

/* see crypto/hash.h */
void
vg_shake_absorb(struct vg_shake *x, const void *data, size_t len)
{
	vg_sponge_absorb(&x->sp, data, len);
}

/* see crypto/hash.h */
void
vg_shake_finalize(struct vg_shake *x)
{
	vg_sponge_finalize(&x->sp);
}

/* see crypto/hash.h */
void
vg_shake_squeeze(struct vg_shake *x, uint8_t *out, size_t len)
{
	vg_sponge_squeeze(&x->sp, out, len);
}

/* see crypto/hash.h */
void
vg_shake_wipe(struct vg_shake *x)
{
	vg_wipe(x, sizeof(*x));
}

/* see crypto/hash.h */
void
vg_shake128(uint8_t *out, size_t outlen, const void *in, size_t inlen)
{
	struct vg_shake x;

	vg_shake128_init(&x);
	vg_shake_absorb(&x, in, inlen);
	vg_shake_squeeze(&x, out, outlen);
	vg_shake_wipe(&x);
}

/* see crypto/hash.h */
void
vg_shake256(uint8_t *out, size_t outlen, const void *in, size_t inlen)
{
	struct vg_shake x;

	vg_shake256_init(&x);
	vg_shake_absorb(&x, in, inlen);
	vg_shake_squeeze(&x, out, outlen);
	vg_shake_wipe(&x);
}
