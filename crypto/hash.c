/*
 * The generic hash interface: one context for every vg_hash_alg. SHA-1 and
 * SHA-2 share one Merkle-Damgård engine (buffering, padding, length
 * encoding) parameterised by a row of the table below; SHA-3 runs on the
 * sponge of crypto/keccak.c. Compression goes through the kernel table.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/hash.h"

enum engine { MD32_SHA1, MD32_SHA256, MD64_SHA512, SPONGE };

static const struct hash_desc {
	uint8_t engine;
	uint8_t len;        /* digest bytes */
	uint8_t block;      /* block bytes (the rate for SHA-3) */
	const void *iv;     /* MD only: vg_sha*_iv */
} descs[VG_HASH_COUNT] = {
	[VG_HASH_SHA1] = { MD32_SHA1, 20, 64, vg_sha1_iv },
	[VG_HASH_SHA224] = { MD32_SHA256, 28, 64, vg_sha224_iv },
	[VG_HASH_SHA256] = { MD32_SHA256, 32, 64, vg_sha256_iv },
	[VG_HASH_SHA384] = { MD64_SHA512, 48, 128, vg_sha384_iv },
	[VG_HASH_SHA512] = { MD64_SHA512, 64, 128, vg_sha512_iv },
	[VG_HASH_SHA3_224] = { SPONGE, 28, 200 - 2 * 28, NULL },
	[VG_HASH_SHA3_256] = { SPONGE, 32, 200 - 2 * 32, NULL },
	[VG_HASH_SHA3_384] = { SPONGE, 48, 200 - 2 * 48, NULL },
	[VG_HASH_SHA3_512] = { SPONGE, 64, 200 - 2 * 64, NULL },
	[VG_HASH_SHA512_224] = { MD64_SHA512, 28, 128, vg_sha512_224_iv },
	[VG_HASH_SHA512_256] = { MD64_SHA512, 32, 128, vg_sha512_256_iv },
};

/* The row of alg, or NULL for an invalid alg. */
static const struct hash_desc *
desc(enum vg_hash_alg alg)
{
	return (unsigned)alg < VG_HASH_COUNT ? &descs[alg] : NULL;
}

/* see crypto/hash.h */
size_t
vg_hash_len(enum vg_hash_alg alg)
{
	const struct hash_desc *d = desc(alg);

	return d != NULL ? d->len : 0;
}

/* see crypto/hash.h */
size_t
vg_hash_block_len(enum vg_hash_alg alg)
{
	const struct hash_desc *d = desc(alg);

	return d != NULL ? d->block : 0;
}

/* Runs the compression function of d on nblocks blocks at in. */
static void
md_compress(const struct hash_desc *d, struct vg_hash_md *md,
    const uint8_t *in, size_t nblocks)
{
	const struct vg_kernels *k = vg_kernels();

	switch (d->engine) {
	case MD32_SHA1:
		k->sha1_blocks(md->st.w32, in, nblocks);
		break;
	case MD32_SHA256:
		k->sha256_blocks(md->st.w32, in, nblocks);
		break;
	default:
		k->sha512_blocks(md->st.w64, in, nblocks);
		break;
	}
}

/* Zeroes an MD context: state, count and buffer, in pieces of 64 bytes,
 * which the compiler stores with vector moves (one memset of the whole
 * context becomes a string store with a start-up cost of its own). */
static void
md_clear(struct vg_hash_md *md)
{
	memset(md->st.w64, 0, sizeof(md->st));
	md->count = 0;
	memset(md->buf, 0, 64);
	memset(md->buf + 64, 0, 64);
}

/* see crypto/hash.h */
void
vg_hash_init(struct vg_hash *h, enum vg_hash_alg alg)
{
	const struct hash_desc *d = desc(alg);

	assert(d != NULL);
	h->alg = alg;
	if (d == NULL) {
		memset(&h->u, 0, sizeof(h->u));
		return;
	}
	if (d->engine == SPONGE) {
		vg_sponge_init(&h->u.sp, d->block, 0x06);
		return;
	}
	md_clear(&h->u.md);
	if (d->engine == MD64_SHA512)
		memcpy(h->u.md.st.w64, d->iv, 8 * sizeof(uint64_t));
	else
		memcpy(h->u.md.st.w32, d->iv,
		    (d->engine == MD32_SHA1 ? 5 : 8) * sizeof(uint32_t));
}

/* see crypto/hash.h */
void
vg_hash_update(struct vg_hash *h, const void *data, size_t len)
{
	const struct hash_desc *d = desc(h->alg);
	struct vg_hash_md *md = &h->u.md;
	const uint8_t *p = data;
	size_t pos, nb;

	assert(data != NULL || len == 0);
	if (d == NULL || len == 0)
		return;
	if (d->engine == SPONGE) {
		vg_sponge_absorb(&h->u.sp, data, len);
		return;
	}
	pos = (size_t)(md->count & (d->block - 1));
	md->count += len;
	if (pos != 0) {
		size_t n = d->block - pos;

		if (n > len) {
			memcpy(md->buf + pos, p, len);
			return;
		}
		memcpy(md->buf + pos, p, n);
		md_compress(d, md, md->buf, 1);
		p += n;
		len -= n;
	}
	nb = len / d->block;
	if (nb != 0) {
		md_compress(d, md, p, nb);
		p += nb * d->block;
		len -= nb * d->block;
	}
	if (len != 0)
		memcpy(md->buf, p, len);
}

static void
store_be32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)(x >> 24);
	p[1] = (uint8_t)(x >> 16);
	p[2] = (uint8_t)(x >> 8);
	p[3] = (uint8_t)x;
}

static void
store_be64(uint8_t *p, uint64_t x)
{
	store_be32(p, (uint32_t)(x >> 32));
	store_be32(p + 4, (uint32_t)x);
}

/* Pads [FIPS 180-4 §5.1] and compresses the last block(s) of an MD hash,
 * then writes the digest: the state words big-endian, truncated (whole
 * words stored at once, then the bytes of a last partial word). */
static void
md_final(const struct hash_desc *d, struct vg_hash_md *md, uint8_t *out)
{
	size_t pos = (size_t)(md->count & (d->block - 1));
	size_t lenbytes = d->block / 8; /* 8 for 64-byte blocks, 16 for 128 */
	unsigned i;

	md->buf[pos++] = 0x80;
	if (pos > d->block - lenbytes) {
		memset(md->buf + pos, 0, d->block - pos);
		md_compress(d, md, md->buf, 1);
		pos = 0;
	}
	memset(md->buf + pos, 0, d->block - 8 - pos);
	if (lenbytes == 16) /* high half of the 128-bit length */
		store_be64(md->buf + d->block - 16, md->count >> 61);
	store_be64(md->buf + d->block - 8, md->count << 3);
	md_compress(d, md, md->buf, 1);

	if (d->engine == MD64_SHA512) {
		for (i = 0; i + 8 <= d->len; i += 8)
			store_be64(out + i, md->st.w64[i >> 3]);
		for (; i < d->len; i++)
			out[i] = (uint8_t)(md->st.w64[i >> 3] >>
			    (56 - 8 * (i & 7)));
	} else {
		for (i = 0; i + 4 <= d->len; i += 4)
			store_be32(out + i, md->st.w32[i >> 2]);
	}
}

/* see crypto/hash.h */
void
vg_hash_final(struct vg_hash *h, uint8_t *out)
{
	const struct hash_desc *d = desc(h->alg);

	assert(out != NULL);
	if (d != NULL) {
		if (d->engine == SPONGE)
			vg_sponge_squeeze(&h->u.sp, out, d->len);
		else
			md_final(d, &h->u.md, out);
	}
	vg_wipe(h, sizeof(*h));
}

/* see crypto/hash.h */
void
vg_hash(enum vg_hash_alg alg, const void *data, size_t len, uint8_t *out)
{
	struct vg_hash h;

	vg_hash_init(&h, alg);
	vg_hash_update(&h, data, len);
	vg_hash_final(&h, out);
}
