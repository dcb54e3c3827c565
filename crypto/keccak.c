/*
 * Keccak-f[1600] [FIPS 202 §3], the sponge [FIPS 202 §4] and SHAKE128/256
 * [FIPS 202 §6.2]. SHA3-224/256/384/512 run on the same sponge from
 * crypto/hash.c. The permutation is always called through the kernel table
 * (vg_kernels()->keccakf1600), so a faster kernel replaces it everywhere.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"
#include "crypto/keccak_f1600.h"

/*
 * see crypto/cpu.h
 * The body is in crypto/keccak_f1600.h, shared with the BMI2 kernel.
 */
void
vg_keccakf1600_c(uint64_t st[25])
{
	vg_keccak_f1600_body(st);
}

/* see crypto/hash.h */
void
vg_keccakf1600(uint64_t st[25])
{
	vg_kernels()->keccakf1600(st);
}

/* XORs n bytes into the state at byte position pos (pos + n <= 200). */
static void
xor_bytes(uint64_t a[25], unsigned pos, const uint8_t *p, size_t n)
{
	for (; n > 0 && (pos & 7) != 0; n--, pos++)
		a[pos >> 3] ^= (uint64_t)*p++ << (8 * (pos & 7));
	for (; n >= 8; n -= 8, pos += 8, p += 8)
		a[pos >> 3] ^= vg_load_le64(p);
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
		vg_store_le64(p, a[pos >> 3]);
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
