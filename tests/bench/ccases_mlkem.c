/*
 * ML-KEM rows of the crypto benchmark (the table is in ccases.c):
 * KeyGen_internal from a fixed seed, Encaps_internal with a fixed m and
 * Decaps of its ciphertext, for ML-KEM-512/768/1024, with the encoded keys
 * and with the keys expanded once in set-up (crypto/mlkem.h, as the
 * PKCS#11 layer's key cache keeps them). OpenSSL 3.0 has no
 * ML-KEM, so these rows time vgtoken alone (its kernels against its
 * portable path with --kernels).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/mlkem.h"
#include "tests/bench/ccase.h"

struct mlkem_state {
	enum vg_mlkem_param set;
	uint8_t seed[VG_MLKEM_SEED_LEN], m[VG_MLKEM_M_LEN];
	uint8_t ek[VG_MLKEM_MAX_EK_LEN], dk[VG_MLKEM_MAX_DK_LEN];
	uint8_t c[VG_MLKEM_MAX_CT_LEN], ss[VG_MLKEM_SS_LEN];
	struct vg_mlkem_expanded_ek *xe; /* the expanded forms */
	struct vg_mlkem_expanded_dk *xd;
};

/* see tests/bench/ccase.h; param is 512, 768 or 1024 */
int
bench_mlkem_setup(struct cstate *s)
{
	struct mlkem_state *e = calloc(1, sizeof(*e));
	size_t i;

	s->extra = e;
	if (e == NULL)
		return -1;
	e->set = s->c->param == 512 ? VG_MLKEM_512
	    : s->c->param == 768 ? VG_MLKEM_768 : VG_MLKEM_1024;
	for (i = 0; i < sizeof(e->seed); i++)
		e->seed[i] = (uint8_t)i;
	for (i = 0; i < sizeof(e->m); i++)
		e->m[i] = (uint8_t)(0xa5 ^ i);
	if (vg_mlkem_keygen_internal(e->set, e->seed, e->ek, e->dk) != VG_OK ||
	    vg_mlkem_encaps_internal(e->set, e->ek, vg_mlkem_ek_len(e->set),
	    e->m, e->c, e->ss) != VG_OK)
		return -1;
	if (posix_memalign((void **)&e->xe, 64,
	    vg_mlkem_expanded_ek_size(e->set)) != 0 ||
	    posix_memalign((void **)&e->xd, 64,
	    vg_mlkem_expanded_dk_size(e->set)) != 0 ||
	    vg_mlkem_expand_ek(e->set, e->ek, vg_mlkem_ek_len(e->set), e->xe,
	    vg_mlkem_expanded_ek_size(e->set)) != VG_OK ||
	    vg_mlkem_expand_dk(e->set, e->dk, vg_mlkem_dk_len(e->set), e->xd,
	    vg_mlkem_expanded_dk_size(e->set)) != VG_OK)
		return -1;
	return 0;
}

/* see tests/bench/ccase.h */
void
bench_mlkem_teardown(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	if (e != NULL) {
		free(e->xe);
		free(e->xd);
		memset(e, 0, sizeof(*e));
		free(e);
	}
	s->extra = NULL;
}

/* see tests/bench/ccase.h */
int
bench_mlkem_keygen_vg(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	return vg_mlkem_keygen_internal(e->set, e->seed, e->ek, e->dk) ==
	    VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mlkem_encaps_vg(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	return vg_mlkem_encaps_internal(e->set, e->ek, vg_mlkem_ek_len(e->set),
	    e->m, e->c, e->ss) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mlkem_decaps_vg(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	return vg_mlkem_decaps(e->set, e->dk, vg_mlkem_dk_len(e->set), e->c,
	    vg_mlkem_ct_len(e->set), e->ss) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mlkem_encaps_expanded_vg(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	return vg_mlkem_encaps_internal_expanded(e->xe, e->m, e->c, e->ss) ==
	    VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
int
bench_mlkem_decaps_expanded_vg(struct cstate *s)
{
	struct mlkem_state *e = s->extra;

	return vg_mlkem_decaps_expanded(e->xd, e->c, vg_mlkem_ct_len(e->set),
	    e->ss) == VG_OK ? 0 : -1;
}

/* see tests/bench/ccase.h */
void
bench_impl_mlkem(const struct vg_kernels *k, char *buf, size_t n)
{
	strncpy(buf, k->mlkem.impl, n - 1);
	buf[n - 1] = '\0';
}
