/*
 * Unit tests of crypto/mldsa.h: round trips for ML-DSA-44/65/87, context
 * strings of 0..255 bytes (256 rejected), HashML-DSA with each pre-hash
 * (digests cross-checked with OpenSSL, M' built by hand), external mu
 * equal to the internal one, deterministic against hedged signing,
 * tampered signatures, keys and messages rejected, and the decoding
 * checks (lengths, out-of-range s1/s2, inconsistent keys, malformed
 * hints, norm violations). Known answers are in tests/kat/.
 * VG_TEST_SEED=<n> replays a run (the seed is printed).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "crypto/mldsa.h"
#include "tests/xorshift.h"

static const enum vg_mldsa_param sets[3] = {
	VG_MLDSA_44, VG_MLDSA_65, VG_MLDSA_87,
};

/* omega, and the offset of the hints in a signature */
static const unsigned omegas[3] = { 80, 55, 75 };
static const unsigned ks[3] = { 4, 6, 8 };

static uint64_t rng_state;

static uint64_t
rnd(void)
{
	return vg_xorshift64s(&rng_state);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	vg_xorshift_bytes(&rng_state, p, n);
}

struct kp {
	enum vg_mldsa_param p;
	size_t pklen, sklen, siglen;
	uint8_t xi[32];
	uint8_t pk[VG_MLDSA_MAX_PK_LEN + 1];
	uint8_t sk[VG_MLDSA_MAX_SK_LEN + 1];
};

static void
make_key(struct kp *k, unsigned set)
{
	k->p = sets[set];
	k->pklen = vg_mldsa_pk_len(k->p);
	k->sklen = vg_mldsa_sk_len(k->p);
	k->siglen = vg_mldsa_sig_len(k->p);
	rnd_bytes(k->xi, sizeof(k->xi));
	assert_int_equal(vg_mldsa_keygen_internal(k->p, k->xi, k->pk, k->sk),
	    VG_OK);
}

static const uint8_t zero_rnd[VG_MLDSA_RND_LEN];

/* ------------------------------------------------------------ basics */

static void
test_sizes(void **state)
{
	(void)state;
	assert_int_equal(vg_mldsa_pk_len(VG_MLDSA_44), 1312);
	assert_int_equal(vg_mldsa_sk_len(VG_MLDSA_44), 2560);
	assert_int_equal(vg_mldsa_sig_len(VG_MLDSA_44), 2420);
	assert_int_equal(vg_mldsa_pk_len(VG_MLDSA_65), 1952);
	assert_int_equal(vg_mldsa_sk_len(VG_MLDSA_65), 4032);
	assert_int_equal(vg_mldsa_sig_len(VG_MLDSA_65), 3309);
	assert_int_equal(vg_mldsa_pk_len(VG_MLDSA_87), 2592);
	assert_int_equal(vg_mldsa_sk_len(VG_MLDSA_87), 4896);
	assert_int_equal(vg_mldsa_sig_len(VG_MLDSA_87), 4627);
	assert_int_equal(vg_mldsa_pk_len(VG_MLDSA_PARAM_COUNT), 0);
	assert_int_equal(vg_mldsa_sig_len((enum vg_mldsa_param)-1), 0);
}

/* Sign and verify messages of several lengths; the key pair is a
 * function of xi; sk_to_pk gives the public key back. */
static void
test_roundtrip(void **state)
{
	static const size_t lens[] = { 0, 1, 33, 136, 1000 };
	uint8_t msg[1000], sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t pk2[VG_MLDSA_MAX_PK_LEN], sk2[VG_MLDSA_MAX_SK_LEN];
	struct kp k;
	unsigned s, i;

	(void)state;
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		assert_int_equal(vg_mldsa_keygen_internal(k.p, k.xi, pk2, sk2),
		    VG_OK);
		assert_memory_equal(pk2, k.pk, k.pklen);
		assert_memory_equal(sk2, k.sk, k.sklen);
		memset(pk2, 0, sizeof(pk2));
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, k.sk, k.sklen, pk2),
		    VG_OK);
		assert_memory_equal(pk2, k.pk, k.pklen);
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint8_t r[32];

			rnd_bytes(msg, lens[i]);
			rnd_bytes(r, sizeof(r));
			assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
			    lens[i], NULL, 0, r, sig), VG_OK);
			assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen, msg,
			    lens[i], NULL, 0, sig, k.siglen), VG_OK);
			if (lens[i] > 0) {
				msg[lens[i] / 2] ^= 0x01;
				assert_int_equal(vg_mldsa_verify(k.p, k.pk,
				    k.pklen, msg, lens[i], NULL, 0, sig,
				    k.siglen), VG_ERR_AUTH);
			}
		}
	}
}

/* KeyGen from the DRBG returns the seed it used. */
static void
test_keygen_rng(void **state)
{
	uint8_t xi[32], pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t pk2[VG_MLDSA_MAX_PK_LEN], sk2[VG_MLDSA_MAX_SK_LEN];
	struct vg_rng r;

	(void)state;
	assert_int_equal(vg_rng_init(&r), VG_OK);
	assert_int_equal(vg_mldsa_keygen(VG_MLDSA_65, &r, xi, pk, sk), VG_OK);
	assert_int_equal(vg_mldsa_keygen_internal(VG_MLDSA_65, xi, pk2, sk2),
	    VG_OK);
	assert_memory_equal(pk, pk2, VG_MLDSA_65_PK_LEN);
	assert_memory_equal(sk, sk2, VG_MLDSA_65_SK_LEN);
	assert_int_equal(vg_mldsa_keygen(VG_MLDSA_44, &r, NULL, pk, sk), VG_OK);
	assert_int_equal(vg_mldsa_keygen(VG_MLDSA_PARAM_COUNT, &r, xi, pk, sk),
	    VG_ERR_ARG);
	assert_int_equal(vg_mldsa_keygen(VG_MLDSA_44, NULL, xi, pk, sk),
	    VG_ERR_ARG);
	vg_rng_wipe(&r);
}

/* Contexts of every length 0..255 sign and verify; the context is bound
 * (another context fails); 256 bytes is refused everywhere. */
static void
test_contexts(void **state)
{
	uint8_t ctx[257], ctx2[256], msg[16], sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t tr[64];
	struct vg_mldsa_mu m;
	struct kp k;
	size_t n;
	unsigned s;

	(void)state;
	rnd_bytes(ctx, sizeof(ctx));
	rnd_bytes(msg, sizeof(msg));
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		for (n = 0; n <= 255; n += s == 0 ? 1 : 17) {
			assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
			    sizeof(msg), ctx, n, zero_rnd, sig), VG_OK);
			assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen,
			    msg, sizeof(msg), ctx, n, sig, k.siglen), VG_OK);
			memcpy(ctx2, ctx, n);
			if (n > 0) {
				ctx2[n - 1] ^= 0x80;
				assert_int_equal(vg_mldsa_verify(k.p, k.pk,
				    k.pklen, msg, sizeof(msg), ctx2, n, sig,
				    k.siglen), VG_ERR_AUTH);
			}
			/* a prefix of the context is another context */
			if (n > 0)
				assert_int_equal(vg_mldsa_verify(k.p, k.pk,
				    k.pklen, msg, sizeof(msg), ctx, n - 1, sig,
				    k.siglen), VG_ERR_AUTH);
		}
		memset(sig, 0xa5, sizeof(sig));
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), ctx, 256, zero_rnd, sig), VG_ERR_ARG);
		/* no signature is left behind */
		for (n = 0; n < k.siglen; n++)
			assert_int_equal(sig[n], 0);
		assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen, msg,
		    sizeof(msg), ctx, 256, sig, k.siglen), VG_ERR_ARG);
		assert_int_equal(vg_mldsa_sign_hash(k.p, k.sk, k.sklen,
		    VG_MLDSA_PH_SHA256, msg, 32, ctx, 256, zero_rnd, sig),
		    VG_ERR_ARG);
		assert_int_equal(vg_mldsa_tr_from_pk(k.p, k.pk, k.pklen, tr),
		    VG_OK);
		assert_int_equal(vg_mldsa_mu_init(&m, tr, ctx, 256), VG_ERR_ARG);
		assert_int_equal(vg_mldsa_mu_init(&m, tr, NULL, 1), VG_ERR_ARG);
	}
}

/* ------------------------------------------------------------ HashML-DSA */

static const EVP_MD *
evp_of(enum vg_mldsa_ph ph)
{
	switch (ph) {
	case VG_MLDSA_PH_SHA224: return EVP_sha224();
	case VG_MLDSA_PH_SHA256: return EVP_sha256();
	case VG_MLDSA_PH_SHA384: return EVP_sha384();
	case VG_MLDSA_PH_SHA512: return EVP_sha512();
	case VG_MLDSA_PH_SHA3_224: return EVP_sha3_224();
	case VG_MLDSA_PH_SHA3_256: return EVP_sha3_256();
	case VG_MLDSA_PH_SHA3_384: return EVP_sha3_384();
	case VG_MLDSA_PH_SHA3_512: return EVP_sha3_512();
	case VG_MLDSA_PH_SHA512_224: return EVP_sha512_224();
	case VG_MLDSA_PH_SHA512_256: return EVP_sha512_256();
	case VG_MLDSA_PH_SHAKE128: return EVP_shake128();
	case VG_MLDSA_PH_SHAKE256: return EVP_shake256();
	default: return NULL;
	}
}

/* The pre-hash against OpenSSL (streamed in two parts), the OIDs, sign
 * and verify with each pre-hash, and mu built by hand from M' = 1 ||
 * ctxlen || ctx || OID || PH(M). Pure and pre-hash signatures do not
 * verify as each other, nor across pre-hashes. */
static void
test_hash_mldsa(void **state)
{
	static const uint8_t oid_last[VG_MLDSA_PH_COUNT] = {
		4, 1, 2, 3, 7, 8, 9, 10, 5, 6, 11, 12,
	};
	static const size_t lens[VG_MLDSA_PH_COUNT] = {
		28, 32, 48, 64, 28, 32, 48, 64, 28, 32, 32, 64,
	};
	/* 2.16.840.1.101.3.4.2 (NIST hash algorithms), DER [FIPS 204 §5.4] */
	static const uint8_t oid_head[10] = {
		0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
	};
	uint8_t msg[200], ctx[20], dig[64], ref[64], sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t sig2[VG_MLDSA_MAX_SIG_LEN], mu[64], tr[64];
	uint8_t mp[64 + 2 + sizeof(ctx) + VG_MLDSA_OID_LEN + 64];
	struct vg_mldsa_prehash c;
	struct kp k;
	unsigned s, ph;

	(void)state;
	rnd_bytes(msg, sizeof(msg));
	rnd_bytes(ctx, sizeof(ctx));
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		assert_int_equal(vg_mldsa_tr_from_pk(k.p, k.pk, k.pklen, tr),
		    VG_OK);
		assert_memory_equal(tr, k.sk + 64, 64);
		for (ph = 0; ph < VG_MLDSA_PH_COUNT; ph++) {
			EVP_MD_CTX *e = EVP_MD_CTX_new();
			const uint8_t *oid = vg_mldsa_ph_oid(ph);
			size_t dl = vg_mldsa_ph_len(ph), n;
			unsigned int ol;

			assert_int_equal(dl, lens[ph]);
			assert_non_null(oid);
			assert_memory_equal(oid, oid_head, sizeof(oid_head));
			assert_int_equal(oid[10], oid_last[ph]);
			/* PH(M), streamed */
			assert_int_equal(vg_mldsa_prehash_init(&c, ph), VG_OK);
			vg_mldsa_prehash_update(&c, msg, 77);
			vg_mldsa_prehash_update(&c, msg + 77, sizeof(msg) - 77);
			vg_mldsa_prehash_final(&c, dig);
			assert_non_null(e);
			assert_int_equal(EVP_DigestInit_ex(e, evp_of(ph), NULL),
			    1);
			EVP_DigestUpdate(e, msg, sizeof(msg));
			if (ph >= VG_MLDSA_PH_SHAKE128)
				assert_int_equal(EVP_DigestFinalXOF(e, ref, dl),
				    1);
			else
				assert_int_equal(EVP_DigestFinal_ex(e, ref, &ol),
				    1);
			EVP_MD_CTX_free(e);
			assert_memory_equal(dig, ref, dl);
			/* sign / verify */
			assert_int_equal(vg_mldsa_sign_hash(k.p, k.sk, k.sklen,
			    ph, dig, dl, ctx, sizeof(ctx), zero_rnd, sig), VG_OK);
			assert_int_equal(vg_mldsa_verify_hash(k.p, k.pk, k.pklen,
			    ph, dig, dl, ctx, sizeof(ctx), sig, k.siglen), VG_OK);
			/* = Sign_internal on mu = H(tr || M') */
			n = 0;
			memcpy(mp, tr, 64);
			n += 64;
			mp[n++] = 1;
			mp[n++] = sizeof(ctx);
			memcpy(mp + n, ctx, sizeof(ctx));
			n += sizeof(ctx);
			memcpy(mp + n, oid, VG_MLDSA_OID_LEN);
			n += VG_MLDSA_OID_LEN;
			memcpy(mp + n, dig, dl);
			n += dl;
			vg_shake256(mu, 64, mp, n);
			assert_int_equal(vg_mldsa_sign_mu(k.p, k.sk, k.sklen, mu,
			    zero_rnd, sig2), VG_OK);
			assert_memory_equal(sig, sig2, k.siglen);
			/* domain separation */
			assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen, dig,
			    dl, ctx, sizeof(ctx), sig, k.siglen), VG_ERR_AUTH);
			assert_int_equal(vg_mldsa_verify_hash(k.p, k.pk, k.pklen,
			    (ph + 1) % VG_MLDSA_PH_COUNT, dig,
			    vg_mldsa_ph_len((ph + 1) % VG_MLDSA_PH_COUNT), ctx,
			    sizeof(ctx), sig, k.siglen), VG_ERR_AUTH);
			/* a digest of the wrong length */
			assert_int_equal(vg_mldsa_sign_hash(k.p, k.sk, k.sklen,
			    ph, dig, dl - 1, ctx, sizeof(ctx), zero_rnd, sig2),
			    VG_ERR_LENGTH);
			assert_int_equal(vg_mldsa_verify_hash(k.p, k.pk, k.pklen,
			    ph, dig, dl + 1, ctx, sizeof(ctx), sig, k.siglen),
			    VG_ERR_LENGTH);
		}
		assert_int_equal(vg_mldsa_prehash_init(&c, VG_MLDSA_PH_COUNT),
		    VG_ERR_ARG);
		assert_int_equal(vg_mldsa_sign_hash(k.p, k.sk, k.sklen,
		    VG_MLDSA_PH_COUNT, dig, 32, NULL, 0, zero_rnd, sig),
		    VG_ERR_ARG);
		assert_null(vg_mldsa_ph_oid(VG_MLDSA_PH_COUNT));
		assert_int_equal(vg_mldsa_ph_len(VG_MLDSA_PH_COUNT), 0);
	}
}

/* ------------------------------------------------------------ mu, rnd */

/* mu streamed in pieces equals the one-shot API's, for signing and
 * verification; M' for pure ML-DSA is 0 || ctxlen || ctx || M. */
static void
test_external_mu(void **state)
{
	uint8_t msg[300], ctx[7], sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t sig2[VG_MLDSA_MAX_SIG_LEN], mu[64], mu2[64], tr[64];
	uint8_t mp[64 + 2 + sizeof(ctx) + sizeof(msg)];
	struct vg_mldsa_mu m, m2;
	struct kp k;
	unsigned s;

	(void)state;
	rnd_bytes(msg, sizeof(msg));
	rnd_bytes(ctx, sizeof(ctx));
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		assert_int_equal(vg_mldsa_tr_from_pk(k.p, k.pk, k.pklen, tr),
		    VG_OK);
		assert_int_equal(vg_mldsa_mu_init(&m, tr, ctx, sizeof(ctx)),
		    VG_OK);
		vg_mldsa_mu_update(&m, msg, 1);
		m2 = m; /* a copy clones the running mu */
		vg_mldsa_mu_update(&m, msg + 1, 200);
		vg_mldsa_mu_update(&m, msg + 201, sizeof(msg) - 201);
		vg_mldsa_mu_final(&m, mu);
		vg_mldsa_mu_update(&m2, msg + 1, sizeof(msg) - 1);
		vg_mldsa_mu_final(&m2, mu2);
		assert_memory_equal(mu, mu2, 64);
		memcpy(mp, tr, 64);
		mp[64] = 0;
		mp[65] = sizeof(ctx);
		memcpy(mp + 66, ctx, sizeof(ctx));
		memcpy(mp + 66 + sizeof(ctx), msg, sizeof(msg));
		vg_shake256(mu2, 64, mp, sizeof(mp));
		assert_memory_equal(mu, mu2, 64);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), ctx, sizeof(ctx), zero_rnd, sig), VG_OK);
		assert_int_equal(vg_mldsa_sign_mu(k.p, k.sk, k.sklen, mu,
		    zero_rnd, sig2), VG_OK);
		assert_memory_equal(sig, sig2, k.siglen);
		assert_int_equal(vg_mldsa_verify_mu(k.p, k.pk, k.pklen, mu, sig,
		    k.siglen), VG_OK);
		mu[63] ^= 1;
		assert_int_equal(vg_mldsa_verify_mu(k.p, k.pk, k.pklen, mu, sig,
		    k.siglen), VG_ERR_AUTH);
	}
}

/* rnd = 0 is deterministic; other rnd values give other signatures,
 * which verify all the same. */
static void
test_deterministic_hedged(void **state)
{
	uint8_t msg[32], r1[32], r2[32];
	uint8_t s1[VG_MLDSA_MAX_SIG_LEN], s2[VG_MLDSA_MAX_SIG_LEN];
	uint8_t s3[VG_MLDSA_MAX_SIG_LEN];
	struct kp k;
	unsigned s;

	(void)state;
	rnd_bytes(msg, sizeof(msg));
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		rnd_bytes(r1, sizeof(r1));
		memcpy(r2, r1, sizeof(r2));
		r2[31] ^= 1;
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, zero_rnd, s1), VG_OK);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, zero_rnd, s2), VG_OK);
		assert_memory_equal(s1, s2, k.siglen);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, r1, s2), VG_OK);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, r2, s3), VG_OK);
		assert_memory_not_equal(s1, s2, k.siglen);
		assert_memory_not_equal(s2, s3, k.siglen);
		assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen, msg,
		    sizeof(msg), NULL, 0, s2, k.siglen), VG_OK);
		assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen, msg,
		    sizeof(msg), NULL, 0, s3, k.siglen), VG_OK);
	}
}

/* ------------------------------------------------------------ rejection */

static enum vg_err
verify_sig(const struct kp *k, const uint8_t *msg, size_t mlen,
    const uint8_t *sig, size_t siglen)
{
	return vg_mldsa_verify(k->p, k->pk, k->pklen, msg, mlen, NULL, 0, sig,
	    siglen);
}

/* Any flipped bit of c~, z, a hint index or count, and of the public
 * key, makes verification fail; so do truncated and padded signatures
 * and keys, and a key of another parameter set. */
static void
test_tampering(void **state)
{
	uint8_t msg[40], sig[VG_MLDSA_MAX_SIG_LEN + 1];
	uint8_t bad[VG_MLDSA_MAX_SIG_LEN + 1];
	struct kp k, other;
	unsigned s, i;

	(void)state;
	rnd_bytes(msg, sizeof(msg));
	for (s = 0; s < 3; s++) {
		make_key(&k, s);
		make_key(&other, (s + 1) % 3);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, zero_rnd, sig), VG_OK);
		for (i = 0; i < 200; i++) {
			size_t pos = i < 20 ? i : (size_t)(rnd() % k.siglen);

			memcpy(bad, sig, k.siglen);
			bad[pos] ^= (uint8_t)(1u << (rnd() % 8));
			assert_int_not_equal(verify_sig(&k, msg, sizeof(msg),
			    bad, k.siglen), VG_OK);
		}
		/* lengths */
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), sig,
		    k.siglen - 1), VG_ERR_LENGTH);
		sig[k.siglen] = 0;
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), sig,
		    k.siglen + 1), VG_ERR_LENGTH);
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), sig, 0),
		    VG_ERR_LENGTH);
		assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen - 1, msg,
		    sizeof(msg), NULL, 0, sig, k.siglen), VG_ERR_DECODE);
		assert_int_equal(vg_mldsa_verify(k.p, k.pk, k.pklen + 1, msg,
		    sizeof(msg), NULL, 0, sig, k.siglen), VG_ERR_DECODE);
		/* the public key */
		for (i = 0; i < 20; i++) {
			size_t pos = (size_t)(rnd() % k.pklen);

			k.pk[pos] ^= 0x10;
			assert_int_not_equal(verify_sig(&k, msg, sizeof(msg),
			    sig, k.siglen), VG_OK);
			k.pk[pos] ^= 0x10;
		}
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), sig,
		    k.siglen), VG_OK);
		/* another parameter set's key */
		assert_int_equal(vg_mldsa_sign(k.p, other.sk, other.sklen, msg,
		    sizeof(msg), NULL, 0, zero_rnd, bad), VG_ERR_DECODE);
		assert_int_equal(vg_mldsa_verify(k.p, other.pk, other.pklen,
		    msg, sizeof(msg), NULL, 0, sig, k.siglen), VG_ERR_DECODE);
		/* private key lengths */
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen - 1, msg,
		    sizeof(msg), NULL, 0, zero_rnd, bad), VG_ERR_DECODE);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen + 1, msg,
		    sizeof(msg), NULL, 0, zero_rnd, bad), VG_ERR_DECODE);
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, k.sk, k.sklen - 1,
		    NULL), VG_ERR_DECODE);
		assert_int_equal(vg_mldsa_tr_from_pk(k.p, k.pk, k.pklen + 1,
		    bad), VG_ERR_DECODE);
	}
}

/* skDecode: an s1 or s2 field above 2 eta is refused by Sign and by
 * sk_to_pk; an sk whose t0 or tr does not match is refused by
 * sk_to_pk. */
static void
test_sk_decoding(void **state)
{
	static const unsigned eta[3] = { 2, 4, 2 }, ls[3] = { 4, 5, 7 };
	uint8_t sk[VG_MLDSA_MAX_SK_LEN], sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t msg[8] = { 0 };
	struct kp k;
	unsigned s, which;

	(void)state;
	for (s = 0; s < 3; s++) {
		size_t ebytes = eta[s] == 2 ? 96 : 128;
		size_t t0off = 128 + (ls[s] + ks[s]) * ebytes;

		make_key(&k, s);
		for (which = 0; which < 2; which++) {
			/* first coefficient of s1[0], or last of s2[k-1] */
			size_t off = which == 0 ? 128 : t0off - 1;

			memcpy(sk, k.sk, k.sklen);
			if (eta[s] == 2) {
				/* 3-bit field 7 = 2 - 7 = -5 */
				if (which == 0)
					sk[off] |= 0x07;
				else
					sk[off] |= 0xe0;
			} else {
				/* nibble 9 = 4 - 9 = -5 */
				if (which == 0)
					sk[off] = (uint8_t)((sk[off] & 0xf0) | 9);
				else
					sk[off] = (uint8_t)((sk[off] & 0x0f) | 0x90);
			}
			memset(sig, 0x5a, sizeof(sig));
			assert_int_equal(vg_mldsa_sign(k.p, sk, k.sklen, msg,
			    sizeof(msg), NULL, 0, zero_rnd, sig), VG_ERR_DECODE);
			assert_int_equal(sig[0] | sig[k.siglen - 1], 0);
			assert_int_equal(vg_mldsa_sk_to_pk(k.p, sk, k.sklen,
			    NULL), VG_ERR_DECODE);
		}
		/* t0 changed: decodes, but does not match A s1 + s2 */
		memcpy(sk, k.sk, k.sklen);
		sk[t0off + 100] ^= 0x01;
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, sk, k.sklen, NULL),
		    VG_ERR_DECODE);
		/* tr changed */
		memcpy(sk, k.sk, k.sklen);
		sk[64] ^= 0x01;
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, sk, k.sklen, NULL),
		    VG_ERR_DECODE);
		/* rho changed: another A, another t */
		memcpy(sk, k.sk, k.sklen);
		sk[0] ^= 0x01;
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, sk, k.sklen, NULL),
		    VG_ERR_DECODE);
		/* K is not checked (it only seeds the mask) */
		memcpy(sk, k.sk, k.sklen);
		sk[32] ^= 0x01;
		assert_int_equal(vg_mldsa_sk_to_pk(k.p, sk, k.sklen, NULL),
		    VG_OK);
	}
}

/* HintBitUnpack's checks [FIPS 204 Alg. 21] and the bound on z. */
static void
test_sig_decoding(void **state)
{
	static const unsigned ctl[3] = { 32, 48, 64 }, zb[3] = { 576, 640, 640 };
	static const unsigned ls[3] = { 4, 5, 7 };
	uint8_t msg[8] = { 1 }, sig[VG_MLDSA_MAX_SIG_LEN];
	uint8_t bad[VG_MLDSA_MAX_SIG_LEN];
	struct kp k;
	unsigned s;

	(void)state;
	for (s = 0; s < 3; s++) {
		size_t hoff = ctl[s] + (size_t)ls[s] * zb[s];
		unsigned om = omegas[s], kk = ks[s], n, i;
		uint8_t *y;

		make_key(&k, s);
		assert_int_equal(vg_mldsa_sign(k.p, k.sk, k.sklen, msg,
		    sizeof(msg), NULL, 0, zero_rnd, sig), VG_OK);
		y = sig + hoff;
		n = y[om + kk - 1];
		assert_true(n <= om);
		/* the padding after the last index is zero */
		for (i = n; i < om; i++)
			assert_int_equal(y[i], 0);
		/* non-zero padding */
		if (n < om) {
			memcpy(bad, sig, k.siglen);
			bad[hoff + om - 1] = 1;
			assert_int_equal(verify_sig(&k, msg, sizeof(msg), bad,
			    k.siglen), VG_ERR_AUTH);
		}
		/* a count above omega */
		memcpy(bad, sig, k.siglen);
		bad[hoff + om + kk - 1] = (uint8_t)(om + 1);
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), bad,
		    k.siglen), VG_ERR_AUTH);
		/* counts decreasing */
		memcpy(bad, sig, k.siglen);
		bad[hoff + om] = (uint8_t)(bad[hoff + om + 1] + 1);
		if (bad[hoff + om] <= om)
			assert_int_equal(verify_sig(&k, msg, sizeof(msg), bad,
			    k.siglen), VG_ERR_AUTH);
		/* indices not strictly increasing within a polynomial */
		for (i = 0; i < kk; i++) {
			unsigned first = i == 0 ? 0 : y[om + i - 1];
			unsigned end = y[om + i];

			if (end - first >= 2) {
				memcpy(bad, sig, k.siglen);
				bad[hoff + first + 1] = bad[hoff + first];
				assert_int_equal(verify_sig(&k, msg, sizeof(msg),
				    bad, k.siglen), VG_ERR_AUTH);
				break;
			}
		}
		/* z at the bound gamma1 - beta (first coefficient: the
		 * encoded gamma1 - z of 0 is z = gamma1, beyond it) */
		memcpy(bad, sig, k.siglen);
		bad[ctl[s]] = 0;
		bad[ctl[s] + 1] = 0;
		bad[ctl[s] + 2] &= s == 0 ? 0xfc : 0xf0;
		assert_int_equal(verify_sig(&k, msg, sizeof(msg), bad, k.siglen),
		    VG_ERR_AUTH);
	}
}

/* Unknown parameter sets and NULL arguments are refused. */
static void
test_bad_arguments(void **state)
{
	uint8_t xi[32] = { 0 }, pk[VG_MLDSA_MAX_PK_LEN], sk[VG_MLDSA_MAX_SK_LEN];
	uint8_t sig[VG_MLDSA_MAX_SIG_LEN], mu[64] = { 0 };

	(void)state;
	assert_int_equal(vg_mldsa_keygen_internal(VG_MLDSA_PARAM_COUNT, xi, pk,
	    sk), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_keygen_internal(VG_MLDSA_44, NULL, pk, sk),
	    VG_ERR_ARG);
	assert_int_equal(vg_mldsa_sign(VG_MLDSA_PARAM_COUNT, sk, 2560, NULL, 0,
	    NULL, 0, zero_rnd, sig), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_sign(VG_MLDSA_44, NULL, 2560, NULL, 0, NULL,
	    0, zero_rnd, sig), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_verify(VG_MLDSA_PARAM_COUNT, pk, 1312, NULL,
	    0, NULL, 0, sig, 2420), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_verify(VG_MLDSA_44, pk, 1312, NULL, 5, NULL,
	    0, sig, 2420), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_sign_mu(VG_MLDSA_44, sk, 2560, NULL,
	    zero_rnd, sig), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_verify_mu(VG_MLDSA_87, pk, 2592, mu, NULL,
	    4627), VG_ERR_ARG);
	assert_int_equal(vg_mldsa_sk_to_pk(VG_MLDSA_PARAM_COUNT, sk, 2560, pk),
	    VG_ERR_ARG);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_keygen_rng),
		cmocka_unit_test(test_contexts),
		cmocka_unit_test(test_hash_mldsa),
		cmocka_unit_test(test_external_mu),
		cmocka_unit_test(test_deterministic_hedged),
		cmocka_unit_test(test_tampering),
		cmocka_unit_test(test_sk_decoding),
		cmocka_unit_test(test_sig_decoding),
		cmocka_unit_test(test_bad_arguments),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) : 0x4d4c2d445341ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
