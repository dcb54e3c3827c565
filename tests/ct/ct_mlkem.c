/*
 * ML-KEM cases of tests/ct/ct_check.c: key generation from a secret seed,
 * encapsulation with a secret m, and decapsulation with a secret dk of a
 * valid ciphertext and of one that triggers implicit rejection, for each
 * parameter set, with the encoded dk and with the dk expanded (the
 * expansion itself under the secret marking). Public by FIPS 203: rho, ek, H(ek), c, and which
 * candidates SampleNTT rejected; the library declassifies only those (and
 * the verdict of the dk hash check, an error on a malformed key).
 */
#include "config.h"

#include <string.h>

#include "crypto/ct.h"
#include "crypto/mlkem.h"
#include "tests/ct/ct_cases.h"

static const enum vg_mlkem_param sets[3] = {
	VG_MLKEM_512, VG_MLKEM_768, VG_MLKEM_1024,
};

static uint8_t seed[VG_MLKEM_SEED_LEN], m[VG_MLKEM_M_LEN];
static uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
static uint8_t c[VG_MLKEM_MAX_CT_LEN], ss[32], ss2[32];

static void
fill(uint8_t *p, size_t n, unsigned mul)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * mul + 3);
}

/* A key pair and a ciphertext, made with public inputs. */
static int
setup(enum vg_mlkem_param p)
{
	fill(seed, sizeof(seed), 7);
	fill(m, sizeof(m), 11);
	if (vg_mlkem_keygen_internal(p, seed, ek, dk) != VG_OK ||
	    vg_mlkem_encaps_internal(p, ek, vg_mlkem_ek_len(p), m, c, ss) !=
	    VG_OK)
		return 1;
	return 0;
}

/* see tests/ct/ct_cases.h */
int
vg_ct_case_mlkem_keygen(void)
{
	unsigned i;
	int bad = 0;

	for (i = 0; i < 3; i++) {
		fill(seed, sizeof(seed), 5 + i);
		VG_CT_SECRET(seed, sizeof(seed));
		bad |= vg_mlkem_keygen_internal(sets[i], seed, ek, dk) != VG_OK;
		VG_CT_DECLASSIFY(ek, sizeof(ek));
		VG_CT_DECLASSIFY(dk, sizeof(dk));
	}
	return bad;
}

/* see tests/ct/ct_cases.h */
int
vg_ct_case_mlkem_encaps(void)
{
	unsigned i;
	int bad = 0;

	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];

		bad |= setup(p);
		VG_CT_SECRET(m, sizeof(m));
		bad |= vg_mlkem_encaps_internal(p, ek, vg_mlkem_ek_len(p), m, c,
		    ss2) != VG_OK;
		VG_CT_DECLASSIFY(c, sizeof(c));
		VG_CT_DECLASSIFY(ss2, sizeof(ss2));
		bad |= memcmp(ss, ss2, 32) != 0;
	}
	return bad;
}

/* dk_PKE and z secret; the embedded ek and H(ek) are public. */
static void
mark_dk(enum vg_mlkem_param p)
{
	size_t dklen = vg_mlkem_dk_len(p);

	VG_CT_SECRET(dk, dklen - 64 - vg_mlkem_ek_len(p));
	VG_CT_SECRET(dk + dklen - 32, 32);
}

/* see tests/ct/ct_cases.h */
int
vg_ct_case_mlkem_decaps(void)
{
	unsigned i;
	int bad = 0;

	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];

		bad |= setup(p);
		mark_dk(p);
		bad |= vg_mlkem_decaps(p, dk, vg_mlkem_dk_len(p), c,
		    vg_mlkem_ct_len(p), ss2) != VG_OK;
		VG_CT_DECLASSIFY(ss2, sizeof(ss2));
		bad |= memcmp(ss, ss2, 32) != 0;
	}
	return bad;
}

/* see tests/ct/ct_cases.h */
int
vg_ct_case_mlkem_decaps_reject(void)
{
	unsigned i;
	int bad = 0;

	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];

		bad |= setup(p);
		c[i + 17] ^= 0x04;
		mark_dk(p);
		bad |= vg_mlkem_decaps(p, dk, vg_mlkem_dk_len(p), c,
		    vg_mlkem_ct_len(p), ss2) != VG_OK;
		VG_CT_DECLASSIFY(ss2, sizeof(ss2));
		bad |= memcmp(ss, ss2, 32) == 0;
	}
	return bad;
}

/* Room for the largest expanded dk, aligned as a key store's pages are. */
static uint8_t xd[16384] __attribute__((aligned(64)));

/* see tests/ct/ct_cases.h */
int
vg_ct_case_mlkem_decaps_expanded(void)
{
	struct vg_mlkem_expanded_dk *d = (struct vg_mlkem_expanded_dk *)xd;
	unsigned i, r;
	int bad = 0;

	for (i = 0; i < 3; i++) {
		enum vg_mlkem_param p = sets[i];

		bad |= setup(p);
		mark_dk(p);
		bad |= vg_mlkem_expand_dk(p, dk, vg_mlkem_dk_len(p), d,
		    sizeof(xd)) != VG_OK;
		for (r = 0; r < 2; r++) {
			/* r = 1: a changed c, the implicit rejection key */
			c[i + 17] ^= (uint8_t)(r << 2);
			bad |= vg_mlkem_decaps_expanded(d, c,
			    vg_mlkem_ct_len(p), ss2) != VG_OK;
			VG_CT_DECLASSIFY(ss2, sizeof(ss2));
			bad |= (memcmp(ss, ss2, 32) == 0) != (r == 0);
		}
		vg_wipe(xd, sizeof(xd));
	}
	return bad;
}
