/*
 * AES-CMAC [SP 800-38B], [RFC 4493]: subkeys by doubling E_K(0) in
 * GF(2^128) without a branch, CBC-MAC over all blocks but the last, which
 * is held back until final so that it gets K1 (complete) or padding and
 * K2 (partial or empty). CBC-MAC is serial; the table's aes_cbc_mac kernel
 * keeps the chaining value in a register.
 */
#include "config.h"

#include <string.h>

#include "crypto/aes.h"
#include "crypto/aes_int.h"
#include "crypto/ct.h"

/* out = in * x in GF(2^128) as SP 800-38B §6.1 writes it: a left shift of
 * the big-endian block, and R_128 = 0x87 folded in when the top bit was
 * set, under a mask. */
static void
dbl(uint8_t out[16], const uint8_t in[16])
{
	uint8_t top = (uint8_t)(0 - (in[0] >> 7));
	unsigned i;

	for (i = 0; i < 15; i++)
		out[i] = (uint8_t)((in[i] << 1) | (in[i + 1] >> 7));
	out[15] = (uint8_t)((in[15] << 1) ^ (top & 0x87));
}

/* x = E_K(x ^ block) for each of the nb blocks at in. */
static void
cbcmac(const struct vg_aes_key *k, uint8_t x[16], const uint8_t *in,
    size_t nb)
{
	if (nb > 0)
		vg_aes_kt(k)->aes_cbc_mac(k, x, in, nb);
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cmac_init(struct vg_aes_cmac *m, const struct vg_aes_key *k)
{
	uint8_t l[16] = { 0 };
	enum vg_err err = VG_OK;

	if (m == NULL || k == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	memset(m, 0, sizeof(*m));
	m->key = *k;
	vg_aes_kt(k)->aes_encrypt(&m->key, l, l, 1);
	dbl(m->k1, l);
	dbl(m->k2, m->k1);
	vg_wipe(l, sizeof(l));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cmac_update(struct vg_aes_cmac *m, const uint8_t *data, size_t len)
{
	size_t n, nb;
	enum vg_err err = VG_OK;

	if (m == NULL || (data == NULL && len > 0)) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (len == 0)
		goto out;
	/* Fill the held block; it is MACed only once more data follows. */
	n = 16 - (size_t)m->buflen;
	if (n > len)
		n = len;
	memcpy(m->buf + m->buflen, data, n);
	m->buflen = (uint8_t)(m->buflen + n);
	data += n;
	len -= n;
	if (len == 0)
		goto out;
	cbcmac(&m->key, m->x, m->buf, 1);
	/* Every block but the last (complete or not) goes through now. */
	nb = (len - 1) / 16;
	cbcmac(&m->key, m->x, data, nb);
	data += 16 * nb;
	len -= 16 * nb;
	memcpy(m->buf, data, len);
	m->buflen = (uint8_t)len;
out:
	return err;
}

/* The full MAC into t [SP 800-38B §6.2 steps 3-6]. */
static void
cmac_tag(struct vg_aes_cmac *m, uint8_t t[16])
{
	uint8_t last[16];

	if (m->buflen == 16) {
		vg_aes_xor(last, m->buf, m->k1, 16);
	} else {
		memset(last, 0, 16);
		memcpy(last, m->buf, m->buflen);
		last[m->buflen] = 0x80;
		vg_aes_xor(last, last, m->k2, 16);
	}
	memcpy(t, m->x, 16);
	cbcmac(&m->key, t, last, 1);
	vg_wipe(last, sizeof(last));
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cmac_final(struct vg_aes_cmac *m, uint8_t *mac, size_t maclen)
{
	uint8_t t[16];
	enum vg_err err = VG_OK;

	if (m == NULL || mac == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (maclen < 1 || maclen > VG_AES_CMAC_MAX) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	cmac_tag(m, t);
	memcpy(mac, t, maclen);
	vg_wipe(t, sizeof(t));
	vg_wipe(m, sizeof(*m));
out:
	return err;
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cmac_verify(struct vg_aes_cmac *m, const uint8_t *mac, size_t maclen)
{
	uint8_t t[16];
	uint32_t ok;
	enum vg_err err = VG_OK;

	if (m == NULL || mac == NULL) {
		err = VG_ERR_ARG;
		goto out;
	}
	if (maclen < 1 || maclen > VG_AES_CMAC_MAX) {
		err = VG_ERR_LENGTH;
		goto out;
	}
	cmac_tag(m, t);
	ok = vg_ct_memeq(t, mac, maclen);
	VG_CT_DECLASSIFY(&ok, sizeof(ok)); /* the verdict is public */
	if (!ok)
		err = VG_ERR_AUTH;
	vg_wipe(t, sizeof(t));
	vg_wipe(m, sizeof(*m));
out:
	return err;
}

/* see crypto/aes.h */
void
vg_aes_cmac_wipe(struct vg_aes_cmac *m)
{
	if (m != NULL)
		vg_wipe(m, sizeof(*m));
}

/* see crypto/aes.h */
enum vg_err
vg_aes_cmac(const struct vg_aes_key *k, const uint8_t *data, size_t len,
    uint8_t *mac, size_t maclen)
{
	struct vg_aes_cmac m;
	enum vg_err err;

	err = vg_aes_cmac_init(&m, k);
	if (err == VG_OK)
		err = vg_aes_cmac_update(&m, data, len);
	if (err == VG_OK)
		err = vg_aes_cmac_final(&m, mac, maclen);
	vg_wipe(&m, sizeof(m));
	return err;
}
