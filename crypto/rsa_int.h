/*
 * Internal declarations shared by crypto/rsa*.c (not part of the crypto/
 * API; crypto/rsa.h is).
 */
#ifndef VG_CRYPTO_RSA_INT_H
#define VG_CRYPTO_RSA_INT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/ct.h"
#include "crypto/rsa.h"

/* d (nl limbs of 52 bits, then zeros up to VG_RSA52_PAD(nl)) from x
 * (n words; bits from 52 nl up are dropped), and back (x gets the low 64n
 * bits of the nl limbs of a). CT: only n and nl. */
void vg_rsa52_from64(uint64_t *d, size_t nl, const uint64_t *x, size_t n);
void vg_rsa52_to64(uint64_t *x, size_t n, const uint64_t *a, size_t nl);

/* d = x mod m, fully reduced, in w 64-bit words, for x (nl limbs) below
 * 2m (an AMM's output), m of w words. CT: only the sizes. */
void vg_rsa52_canon(uint64_t *d, const uint64_t *x, size_t nl,
    const uint64_t *m, size_t w);

/* vg_rsa_keygen with the kernels kern (NULL: the process-wide table). */
enum vg_err vg_rsa_keygen_kern(struct vg_rsa_key_bytes *out, unsigned bits,
    uint64_t e, struct vg_rng *rng, const struct vg_rsa_kernels *kern);

/* vg_rsa_keygen_kern with at most limit candidates drawn per prime in a
 * run of the prime search (vg_rsa_keygen_kern: 5 (bits / 2), FIPS 186-5
 * B.3.3), and three runs: VG_ERR_RANDOM (out wiped) when the third
 * reaches the limit. For the tests. */
enum vg_err vg_rsa_keygen_limit(struct vg_rsa_key_bytes *out, unsigned bits,
    uint64_t e, struct vg_rng *rng, const struct vg_rsa_kernels *kern,
    unsigned long limit);

/* Key generation's Miller-Rabin, for the tests: rounds rounds on the
 * candidates c0 and c1 (hw words each, odd, top bit set, in two lanes, on
 * kern's pair where it has one for their size); ok[i] all-ones where
 * candidate i passed them all. Returns VG_OK, VG_ERR_ARG when a candidate
 * has 2^17 | c - 1, or the generator's error. */
enum vg_err vg_rsa_mr_pair(const uint64_t *c0, const uint64_t *c1, size_t hw,
    unsigned rounds, struct vg_rng *rng, const struct vg_rsa_kernels *kern,
    uint64_t ok[2]);

/* All-ones if an odd prime below 2^11 divides x (n words, 1 <= n <=
 * VG_RSA_MAX_BITS / 128), else 0: key generation's trial division
 * (crypto/rsa_keygen.c). CT: only n. */
uint64_t vg_rsa_small_factor(const uint64_t *x, size_t n);

/* kern's IFMA pair (all three entries) serves numbers of w 64-bit words
 * (16, 24 or 32, where the kernel table chose it). */
int vg_rsa52_serves(const struct vg_rsa_kernels *kern, size_t w);

/* The IFMA path can run the halves of k (both primes of the same word
 * count w, 16, 24 or 32, which kern's IFMA pair serves) with kernels
 * kern. */
int vg_rsa52_eligible(const struct vg_rsa_key *k,
    const struct vg_rsa_kernels *kern);

/* Derives k->c52 from the primes' 64-bit contexts. */
void vg_rsa52_setup(struct vg_rsa_key *k);

/* Into each half's AMM domain: x[i] = c R' mod p, q (below 2p, 2q) for
 * c of cn words, cn <= the halves' kw. CT: only cn and the sizes. */
void vg_rsa52_in(const struct vg_rsa_key *k,
    uint64_t x[2][VG_RSA52_MAX_LIMBS], const uint64_t *c, size_t cn);

/*
 * Both halves on the IFMA path: mp = c^ep mod p and mq = c^eq mod q,
 * plain and fully reduced (k->p.mont.w words each), for c below n
 * (k->pub.n.w words), the base blinded and unblinded per prime with
 * k->blind52_a and k->blind52_b (not refreshed here), which needs ep =
 * dp mod p - 1 and eq = dq mod q - 1; cr = c R' mod p, q (vg_rsa52_in)
 * for the fault check. ep, eq: the exponents, ebits wide; mp and mq may
 * alias them. CT: only ebits.
 */
void vg_rsa52_halves(const struct vg_rsa_key *k, uint64_t *mp, uint64_t *mq,
    uint64_t cr[2][VG_RSA52_MAX_LIMBS], const uint64_t *c,
    const uint64_t *ep, const uint64_t *eq, unsigned ebits);

/*
 * Garner recombination [RFC 8017 5.1.2 step 2.b]: m = mq + q ((mp - mq)
 * qinv mod p), below n (k->pub.n.w words), from mp < p and mq < q (their
 * contexts' word counts). m must not overlap the inputs.
 * CT: only the word counts.
 */
void vg_rsa_crt_combine(const struct vg_rsa_key *k, uint64_t *m,
    const uint64_t *mp, const uint64_t *mq);

/* Hash algorithms accepted by the RSA paddings: SHA-1, SHA-2, SHA-3. */
int vg_rsa_hash_ok(enum vg_hash_alg alg);

/*
 * Writes buf[off .. len) to out[0 ..) followed by zeros, outcap bytes in
 * all (outcap <= len), for a secret off <= len: buf is shifted by off with
 * log2(len) masked passes over all of it. CT: only len and outcap.
 */
void vg_rsa_ct_extract(uint8_t *out, size_t outcap, const uint8_t *buf,
    size_t len, size_t off);

#endif
