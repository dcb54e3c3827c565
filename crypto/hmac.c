/*
 * HMAC [RFC 2104] over any hash of crypto/hash.h. The inner and outer
 * padded keys are absorbed once at init; after that a vg_hmac is two
 * running hashes, so a struct copy clones a keyed state.
 */
#include "config.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/hash.h"

/*
 * see crypto/hash.h
 * CT: the key is copied (or hashed) into a zero-padded block whose length
 * is the public block size, and XORed with the pads byte by byte: the
 * only branch is on keylen > block.
 */
void
vg_hmac_init(struct vg_hmac *m, enum vg_hash_alg alg, const void *key,
    size_t keylen)
{
	uint8_t kb[VG_HASH_MAX_BLOCK];
	size_t bl = vg_hash_block_len(alg), i;

	assert(key != NULL || keylen == 0);
	memset(kb, 0, sizeof(kb));
	if (keylen > bl)
		vg_hash(alg, key, keylen, kb);
	else if (keylen != 0)
		memcpy(kb, key, keylen);

	for (i = 0; i < bl; i++)
		kb[i] ^= 0x36;
	vg_hash_init(&m->inner, alg);
	vg_hash_update(&m->inner, kb, bl);
	for (i = 0; i < bl; i++)
		kb[i] ^= 0x36 ^ 0x5c;
	vg_hash_init(&m->outer, alg);
	vg_hash_update(&m->outer, kb, bl);
	vg_wipe(kb, sizeof(kb));
}

/* see crypto/hash.h */
void
vg_hmac_update(struct vg_hmac *m, const void *data, size_t len)
{
	vg_hash_update(&m->inner, data, len);
}

/* see crypto/hash.h */
void
vg_hmac_final(struct vg_hmac *m, uint8_t *out)
{
	uint8_t ih[VG_HASH_MAX_LEN];
	size_t hl = vg_hash_len(m->inner.alg);

	vg_hash_final(&m->inner, ih);
	vg_hash_update(&m->outer, ih, hl);
	vg_hash_final(&m->outer, out);
	vg_wipe(ih, sizeof(ih));
	vg_wipe(m, sizeof(*m));
}

/* see crypto/hash.h */
enum vg_err
vg_hmac_verify(struct vg_hmac *m, const void *tag, size_t taglen)
{
	uint8_t mac[VG_HASH_MAX_LEN];
	size_t hl = vg_hash_len(m->inner.alg);
	uint32_t ok;

	vg_hmac_final(m, mac);
	ok = taglen <= hl ? vg_ct_memeq(mac, tag, taglen) : 0;
	vg_wipe(mac, sizeof(mac));
	/* The verdict is what the caller acts on: public. */
	VG_CT_DECLASSIFY(&ok, sizeof(ok));
	return ok ? VG_OK : VG_ERR_AUTH;
}

/* see crypto/hash.h */
void
vg_hmac(enum vg_hash_alg alg, const void *key, size_t keylen,
    const void *data, size_t len, uint8_t *out)
{
	struct vg_hmac m;

	vg_hmac_init(&m, alg, key, keylen);
	vg_hmac_update(&m, data, len);
	vg_hmac_final(&m, out);
}
