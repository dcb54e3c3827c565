/*
 * Unit tests of crypto/p256.h without outside help: known answers (RFC 6979
 * A.2.5, NIST CAVP KAS ECC CDH, verification where r + n < p), the
 * inversions modulo p and n against Fermat, the window
 * method and the fixed-base comb against a plain double-and-add reference
 * (2,000 small scalars, the edge scalars of the no-exceptional-addition
 * arguments in crypto/p256_point.c and p256_base.c, random scalars), the
 * double multiplication of verification and its table of odd multiples
 * of G against the same reference, point
 * and ECDH / ECDSA round trips. Every check runs on the portable kernels
 * and on those this CPU selects, and the public key's computation leaves
 * no coordinate of its secret point on the stack. Input validation is tested in
 * test_p256_inputs.c, the OpenSSL cross-checks in test_p256_openssl.c.
 * Random inputs come from a seeded generator; VG_TEST_SEED=<n> replays.
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

#include "crypto/cpu.h"
#include "crypto/drbg.h"
#include "crypto/hash.h"
#include "crypto/p256.h"
#include "crypto/p256_int.h"
#include "tests/stack_residue.h"
#include "tests/xorshift.h"

/* ------------------------------------------------------------ helpers */

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

static void
unhex_to(uint8_t *out, size_t len, const char *s)
{
	size_t i;

	assert_int_equal(strlen(s), 2 * len);
	for (i = 0; i < len; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* The kernel sets: the portable twins, then what this CPU selects. */
static struct vg_kernels kset[2];

static void
init_ksets(void)
{
	vg_kernels_fill(&kset[0], 0);
	kset[1] = *vg_kernels();
}

#define NKSETS 2
#define KP(i) (&kset[(i)].p256)

/* Affine encoding (04 || x || y) of a Jacobian point, or 00 for O. */
static void
jac_encode(const struct vg_p256_kernels *k, uint8_t out[65],
    const struct vg_p256_jac *r)
{
	struct vg_p256_aff a;

	memset(out, 0, 65);
	if (!vg_p256_point_to_affine(k, &a, r))
		return;
	out[0] = 4;
	vg_p256_fe_to_bytes(k, out + 1, a.x);
	vg_p256_fe_to_bytes(k, out + 33, a.y);
}

static void
generator(struct vg_p256_aff *g)
{
	vg_p256_copy4(g->x, vg_p256_gx);
	vg_p256_copy4(g->y, vg_p256_gy);
}

/* Reference [d]P: left-to-right double-and-add with complete additions. */
static void
ref_mul(const struct vg_p256_kernels *k, struct vg_p256_jac *r,
    const struct vg_p256_aff *p, const uint64_t d[4])
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 255; i >= 0; i--) {
		if (!vg_p256_is_zero4_mask(r->z))
			vg_p256_point_double(k, r, r);
		if ((d[i / 64] >> (i % 64)) & 1)
			vg_p256_point_add_affine_vartime(k, r, r, p);
	}
}

/* A random point: [random]G. */
static void
random_point(const struct vg_p256_kernels *k, struct vg_p256_aff *p)
{
	struct vg_p256_aff g;
	struct vg_p256_jac r;
	uint64_t d[4];

	generator(&g);
	do {
		d[0] = rnd(), d[1] = rnd(), d[2] = rnd(), d[3] = rnd();
	} while (!vg_p256_ord_valid_mask(d));
	vg_p256_point_mul(k, &r, &g, d);
	assert_true(vg_p256_point_to_affine(k, p, &r));
}

/* Checks window method and (for P = G) the comb against the reference. */
static void
check_scalar(const struct vg_p256_kernels *k, const struct vg_p256_aff *p,
    int is_g, const uint64_t d[4])
{
	struct vg_p256_jac r, want;
	uint8_t a[65], b[65];

	ref_mul(k, &want, p, d);
	jac_encode(k, b, &want);
	assert_int_equal(b[0], 4);
	vg_p256_point_mul(k, &r, p, d);
	jac_encode(k, a, &r);
	if (memcmp(a, b, 65) != 0) {
		printf("# window method differs for d = %016llx%016llx"
		    "%016llx%016llx\n", (unsigned long long)d[3],
		    (unsigned long long)d[2], (unsigned long long)d[1],
		    (unsigned long long)d[0]);
		fail();
	}
	if (is_g) {
		vg_p256_base_mul(k, &r, d);
		jac_encode(k, a, &r);
		if (memcmp(a, b, 65) != 0) {
			printf("# comb differs for d = %016llx%016llx%016llx"
			    "%016llx\n", (unsigned long long)d[3],
			    (unsigned long long)d[2], (unsigned long long)d[1],
			    (unsigned long long)d[0]);
			fail();
		}
	}
}

/* ------------------------------------------------------- known answers */

static const char RFC_X[] =
    "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721";
static const char RFC_PUB[] =
    "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
    "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299";

/* RFC 6979 A.2.5: (message, hash, r || s). */
static const struct {
	const char *msg;
	enum vg_hash_alg alg;
	const char *sig;
} rfc6979[] = {
	{ "sample", VG_HASH_SHA1,
	    "61340c88c3aaebeb4f6d667f672ca9759a6ccaa9fa8811313039ee4a35471d32"
	    "6d7f147dac089441bb2e2fe8f7a3fa264b9c475098fdcf6e00d7c996e1b8b7eb" },
	{ "sample", VG_HASH_SHA224,
	    "53b2fff5d1752b2c689df257c04c40a587fababb3f6fc2702f1343af7ca9aa3f"
	    "b9afb64fdc03dc1a131c7d2386d11e349f070aa432a4acc918bea988bf75c74c" },
	{ "sample", VG_HASH_SHA256,
	    "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
	    "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8" },
	{ "sample", VG_HASH_SHA384,
	    "0eafea039b20e9b42309fb1d89e213057cbf973dc0cfc8f129edddc800ef7719"
	    "4861f0491e6998b9455193e34e7b0d284ddd7149a74b95b9261f13abde940954" },
	{ "sample", VG_HASH_SHA512,
	    "8496a60b5e9b47c825488827e0495b0e3fa109ec4568fd3f8d1097678eb97f00"
	    "2362ab1adbe2b8adf9cb9edab740ea6049c028114f2460f96554f61fae3302fe" },
	{ "test", VG_HASH_SHA1,
	    "0cbcc86fd6abd1d99e703e1ec50069ee5c0b4ba4b9ac60e409e8ec5910d81a89"
	    "01b9d7b73dfaa60d5651ec4591a0136f87653e0fd780c3b1bc872ffdeae479b1" },
	{ "test", VG_HASH_SHA224,
	    "c37edb6f0ae79d47c3c27e962fa269bb4f441770357e114ee511f662ec34a692"
	    "c820053a05791e521fcaad6042d40aea1d6b1a540138558f47d0719800e18f2d" },
	{ "test", VG_HASH_SHA256,
	    "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367"
	    "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083" },
	{ "test", VG_HASH_SHA384,
	    "83910e8b48bb0c74244ebdf7f07a1c5413d61472bd941ef3920e623fbccebeb6"
	    "8ddbec54cf8cd5874883841d712142a56a8d0f218f5003cb0296b6b509619f2c" },
	{ "test", VG_HASH_SHA512,
	    "461d93f31b6540894788fd206c07cfa0cc35f46fa3c91816fff1040ad1581a04"
	    "39af9f15de0db8d97e72719c74820d304ce5226e32dedae67519e840d1194e55" },
};

static void
test_rfc6979(void **state)
{
	struct vg_p256_priv key;
	struct vg_p256_pub pub;
	uint8_t x[32], want_pub[65], enc[65], sig[64], want[64], h[64], rb[32];
	size_t i, s;

	(void)state;
	unhex_to(x, 32, RFC_X);
	unhex_to(want_pub, 65, RFC_PUB);
	assert_int_equal(vg_p256_priv_decode(&key, x, 32), VG_OK);
	for (s = 0; s < NKSETS; s++) {
		assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &pub, &key),
		    VG_OK);
		vg_p256_pub_encode(enc, &pub);
		assert_memory_equal(enc, want_pub, 65);
		for (i = 0; i < sizeof(rfc6979) / sizeof(rfc6979[0]); i++) {
			size_t hl = vg_hash_len(rfc6979[i].alg);

			vg_hash(rfc6979[i].alg, rfc6979[i].msg,
			    strlen(rfc6979[i].msg), h);
			unhex_to(want, 64, rfc6979[i].sig);
			assert_int_equal(vg_p256_ecdsa_sign_k(KP(s), sig, &key,
			    h, hl, rfc6979[i].alg, NULL), VG_OK);
			assert_memory_equal(sig, want, 64);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pub, h,
			    hl, sig), VG_OK);
			/* hedged: another valid signature */
			rnd_bytes(rb, sizeof(rb));
			assert_int_equal(vg_p256_ecdsa_sign_k(KP(s), sig, &key,
			    h, hl, rfc6979[i].alg, rb), VG_OK);
			assert_memory_not_equal(sig, want, 64);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pub, h,
			    hl, sig), VG_OK);
			h[0] ^= 1;
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pub, h,
			    hl, sig), VG_ERR_AUTH);
		}
	}
	vg_p256_priv_wipe(&key);
}

/* NIST CAVP KAS ECC CDH primitive, P-256, COUNT = 0: dIUT gives QIUT, and
 * with QCAVS the shared ZIUT. */
static void
test_cavp_ecdh(void **state)
{
	static const char d_hex[] =
	    "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534";
	static const char qiut[] =
	    "04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230"
	    "28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141";
	static const char qcavs[] =
	    "04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287"
	    "db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac";
	static const char ziut[] =
	    "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b";
	struct vg_p256_priv key;
	struct vg_p256_pub pub, peer;
	uint8_t d[32], q[65], enc[65], z[32], out[32];
	size_t s;

	(void)state;
	unhex_to(d, 32, d_hex);
	unhex_to(q, 65, qiut);
	unhex_to(z, 32, ziut);
	assert_int_equal(vg_p256_priv_decode(&key, d, 32), VG_OK);
	for (s = 0; s < NKSETS; s++) {
		assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &pub, &key),
		    VG_OK);
		vg_p256_pub_encode(enc, &pub);
		assert_memory_equal(enc, q, 65);
		unhex_to(q, 65, qcavs);
		assert_int_equal(vg_p256_pub_decode_k(KP(s), &peer, q, 65),
		    VG_OK);
		assert_int_equal(vg_p256_ecdh_k(KP(s), out, &key, &peer),
		    VG_OK);
		assert_memory_equal(out, z, 32);
		unhex_to(q, 65, qiut);
	}
	vg_p256_priv_wipe(&key);
}

/*
 * Verification where x(R) = r + n (r + n < p): public vectors of
 * libtorsion/bcrypto ("Maxwell's trick"), over SHA-256(""). The third is
 * valid only through the r + n comparison.
 */
static void
test_verify_r_plus_n(void **state)
{
	static const struct {
		const char *pub, *sig;
		int ok;
	} v[] = {
		{ "041548fc88953e06cd34d4b300804c5322cb48c24aaaa4d07a541b0f0ccf"
		  "eedeb0ae4991b90519ea405588bdf699f5e6d0c6b2d5217a5c16e837106"
		  "2737aa1dae1", "3006020106020104", 1 },
		{ "04ad8f60e4ec1ebdb6a260b559cb55b1e9d2c5ddd43a41a2d11b0741ef25"
		  "67d84e166737664104ebbc337af3d861d3524cfbc761c12edae974a0759"
		  "750c8324f9a", "3006020106020104", 1 },
		{ "0445bd879143a64af5746e2e82aa65fd2ea07bba4e35594095a981b59984"
		  "dacb219d59697387ac721b1f1eccf4b11f43ddc39e8367147abab308414"
		  "2ed3ea170e4",
		  "301502104319055358e8617b0c46353d039cdaae020104", 1 },
		{ "040feb5df4cc78b35ec9c180cc0de5842f75f088b48456978ffa98e716d9"
		  "4883e1e6500b2a1f6c1d9d493428d7ae7d9a8a560fff30a3d14aa160be0"
		  "c5e7edcd887",
		  "301502104319055358e8617b0c46353d039cdaae020104", 0 },
	};
	struct vg_p256_pub pub;
	uint8_t q[65], der[32], sig[64], h[32];
	size_t i, s, dl;

	(void)state;
	vg_hash(VG_HASH_SHA256, "", 0, h);
	for (s = 0; s < NKSETS; s++)
		for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			unhex_to(q, 65, v[i].pub);
			dl = strlen(v[i].sig) / 2;
			unhex_to(der, dl, v[i].sig);
			assert_int_equal(vg_p256_pub_decode_k(KP(s), &pub, q,
			    65), VG_OK);
			assert_int_equal(vg_p256_ecdsa_sig_from_der(sig, der,
			    dl), VG_OK);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pub, h,
			    32, sig), v[i].ok ? VG_OK : VG_ERR_AUTH);
		}
}

/* ------------------------------------------------------------ inversion */

/* a^e by square-and-multiply (the exponent is public), Montgomery form;
 * mul is the field or the order multiplication. */
static void
ref_pow(void (*mul)(uint64_t *, const uint64_t *, const uint64_t *),
    const uint64_t one[4], uint64_t r[4], const uint64_t a[4],
    const uint64_t e[4])
{
	uint64_t t[4];
	int i;

	vg_p256_copy4(t, one);
	for (i = 255; i >= 0; i--) {
		mul(t, t, t);
		if ((e[i / 64] >> (i % 64)) & 1)
			mul(t, t, a);
	}
	vg_p256_copy4(r, t);
}

/* safegcd against Fermat (x^(m-2)) and x x^-1 = 1, modulo p and n, on
 * random and edge inputs. */
static void
test_inversion(void **state)
{
	uint64_t a[4], r[4], want[4], e[4], t[4], two[4] = { 2, 0, 0, 0 };
	size_t s, i, j;

	(void)state;
	for (s = 0; s < NKSETS; s++) {
		const struct vg_p256_kernels *k = KP(s);

		for (j = 0; j < 2; j++) {
			const uint64_t *m = j == 0 ? vg_p256_p : vg_p256_n;
			const uint64_t *one = j == 0 ? vg_p256_one :
			    vg_p256_n_one;
			void (*mul)(uint64_t *, const uint64_t *,
			    const uint64_t *) = j == 0 ? k->mul : k->ord_mul;

			vg_p256_sub4(e, m, two);
			for (i = 0; i < 300; i++) {
				if (i < 4) {
					uint64_t x[4] = { i, 0, 0, 0 };

					vg_p256_sub4(a, i < 2 ? x : m,
					    i < 2 ? (uint64_t[4]){ 0 } :
					    (uint64_t[4]){ i - 1, 0, 0, 0 });
				} else if (i == 4) {
					vg_p256_copy4(a, one);
				} else {
					do {
						a[0] = rnd(), a[1] = rnd();
						a[2] = rnd(), a[3] = rnd();
					} while (!vg_p256_lt4_mask(a, m));
					if (i % 3 == 0)
						a[i % 4] = 0;
					if (i % 5 == 0)
						a[3] >>= (i % 64);
				}
				if (j == 0)
					vg_p256_fe_inv(k, r, a);
				else
					vg_p256_ord_inv(k, r, a);
				ref_pow(mul, one, want, a, e);
				assert_memory_equal(r, want, 32);
				if (j == 1) {
					vg_p256_ord_inv_vartime(k, t, a);
					assert_memory_equal(t, want, 32);
				}
				mul(t, r, a);
				if (vg_p256_is_zero4_mask(a))
					assert_true(vg_p256_is_zero4_mask(r));
				else
					assert_memory_equal(t, one, 32);
			}
		}
	}
}

/* The paired inversion (ECDSA signing: Z modulo p and k modulo n side by
 * side) against the two single ones, on random inputs, 0, 1 and m - 1 to
 * m - 3, the two inputs' kinds mixed so that the chains differ. */
static void
test_inversion_pair(void **state)
{
	uint64_t a[4], b[4], ra[4], rb[4], wa[4], wb[4];
	size_t s, i;

	(void)state;
	for (s = 0; s < NKSETS; s++) {
		const struct vg_p256_kernels *k = KP(s);

		for (i = 0; i < 400; i++) {
			a[0] = rnd(), a[1] = rnd(), a[2] = rnd(), a[3] = rnd();
			b[0] = rnd(), b[1] = rnd(), b[2] = rnd(), b[3] = rnd();
			a[3] >>= i % 3 == 0 ? i % 64 : 1;
			b[3] >>= i % 5 == 0 ? i % 64 : 1;
			if (i % 7 < 3)
				vg_p256_sub4(a, vg_p256_p,
				    (const uint64_t[4]){ i % 7 + 1, 0, 0, 0 });
			if (i % 11 < 3)
				vg_p256_sub4(b, vg_p256_n,
				    (const uint64_t[4]){ i % 11 + 1, 0, 0, 0 });
			if (i % 13 == 0)
				memset(a, 0, sizeof(a));
			if (i % 17 == 0)
				memcpy(b, vg_p256_n_one, sizeof(b));
			vg_p256_fe_ord_inv(k, ra, a, rb, b);
			vg_p256_fe_inv(k, wa, a);
			vg_p256_ord_inv(k, wb, b);
			assert_memory_equal(ra, wa, 32);
			assert_memory_equal(rb, wb, 32);
			/* outputs may overwrite the inputs */
			vg_p256_fe_ord_inv(k, a, a, b, b);
			assert_memory_equal(a, wa, 32);
			assert_memory_equal(b, wb, 32);
		}
	}
}

/* The variable-time inversion modulo n (verification) against the
 * constant-time one on many random inputs, inputs with long runs of zero
 * or one bits, and n - 1, n - 2. */
static void
test_inversion_vartime(void **state)
{
	const struct vg_p256_kernels *k = KP(0);
	uint64_t a[4], r1[4], r2[4], t[4];
	size_t i;

	(void)state;
	for (i = 0; i < 3000; i++) {
		a[0] = rnd(), a[1] = rnd(), a[2] = rnd(), a[3] = rnd();
		if (i % 4 == 1)
			a[i % 3] = 0;
		if (i % 4 == 2)
			a[(i / 4) % 3] = ~(uint64_t)0;
		if (i % 7 == 3)
			a[3] >>= (i % 64);
		if (i % 11 == 5)
			a[0] &= ~(((uint64_t)1 << (i % 60)) - 1);
		if (!vg_p256_lt4_mask(a, vg_p256_n))
			a[3] >>= 1;
		if (i < 2)
			vg_p256_sub4(a, vg_p256_n,
			    (const uint64_t[4]){ i + 1, 0, 0, 0 });
		if (i == 2)
			vg_p256_copy4(a, (const uint64_t[4]){ 1, 0, 0, 0 });
		vg_p256_ord_inv(k, r1, a);
		vg_p256_ord_inv_vartime(k, r2, a);
		assert_memory_equal(r1, r2, 32);
		k->ord_mul(t, r2, a);
		assert_memory_equal(t, vg_p256_n_one, 32);
	}
}

/* ------------------------------------------- multiplication vs reference */

/* [d]P for d = 1 ... 2000, for G and a random P, incrementally. */
static void
test_small_scalars(void **state)
{
	struct vg_p256_aff p[2];
	struct vg_p256_jac acc, r;
	uint8_t a[65], b[65];
	uint64_t d[4] = { 0, 0, 0, 0 };
	size_t s, w;

	(void)state;
	for (s = 0; s < NKSETS; s++) {
		const struct vg_p256_kernels *k = KP(s);

		generator(&p[0]);
		random_point(k, &p[1]);
		for (w = 0; w < 2; w++) {
			memset(&acc, 0, sizeof(acc));
			for (d[0] = 1; d[0] <= 2000; d[0]++) {
				vg_p256_point_add_affine_vartime(k, &acc, &acc,
				    &p[w]);
				jac_encode(k, b, &acc);
				vg_p256_point_mul(k, &r, &p[w], d);
				jac_encode(k, a, &r);
				assert_memory_equal(a, b, 65);
				if (w == 0) {
					vg_p256_base_mul(k, &r, d);
					jac_encode(k, a, &r);
					assert_memory_equal(a, b, 65);
				}
			}
		}
	}
}

/* n - x for a small x. */
static void
n_minus(uint64_t d[4], uint64_t x)
{
	uint64_t t[4] = { x, 0, 0, 0 };

	vg_p256_sub4(d, vg_p256_n, t);
}

/* Edge scalars: see the arguments in crypto/p256_point.c (digits in base
 * 32, d = n - 2a, n = 17 mod 32) and crypto/p256_base.c (odd 7-bit digits:
 * runs of digits 127 or -127, even scalars through n - d, the top digit
 * 15); the 7-bit Booth digits 64 and -64 of the comb before it stay. */
static size_t
edge_scalars(uint64_t (*out)[4], size_t max)
{
	static const uint64_t small[] = {
		1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65,
		127, 128, 129, 1023, 1024, 1025,
	};
	size_t n = 0, i;
	uint64_t t[4];
	int j;

#define PUT(v)                                                          \
	do {                                                            \
		assert_true(n < max);                                   \
		if (vg_p256_ord_valid_mask(v))                          \
			vg_p256_copy4(out[n++], (v));                   \
	} while (0)

	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		uint64_t v[4] = { small[i], 0, 0, 0 };

		PUT(v);
	}
	for (i = 1; i <= 40; i++) {             /* n-1 ... n-40 */
		n_minus(t, i);
		PUT(t);
	}
	for (j = 0; j < 256; j++) {             /* 2^j, 2^j - 1, n - 2^j */
		uint64_t v[4] = { 0, 0, 0, 0 }, one[4] = { 1, 0, 0, 0 };

		v[j / 64] = 1ULL << (j % 64);
		PUT(v);
		vg_p256_sub4(t, v, one);
		PUT(t);
		vg_p256_sub4(t, vg_p256_n, v);
		PUT(t);
	}
	for (j = 1; j <= 51; j++) {
		uint64_t a[4] = { 0, 0, 0, 0 }, b[4] = { 0, 0, 0, 0 };
		int l;

		/* low j base-32 digits all 15: 15 (32^j - 1) / 31 */
		for (l = 0; l < 5 * j; l++)
			if (l % 5 != 4)
				a[l / 64] |= 1ULL << (l % 64);
		PUT(a);
		/* low j digits all -16: 32^j - 16 (32^j - 1) / 31 */
		for (l = 0; l < 5 * j; l++)
			if (l % 5 == 4)
				b[l / 64] |= 1ULL << (l % 64);
		memset(t, 0, sizeof(t));
		t[(5 * j) / 64] = 1ULL << ((5 * j) % 64);
		vg_p256_sub4(t, t, b);
		PUT(t);
	}
	for (j = 0; j < 37; j++) {              /* Booth digits 64, -64 */
		uint64_t v[4] = { 0, 0, 0, 0 }, w[4] = { 0, 0, 0, 0 };
		int l;

		for (l = 7 * j; l < 7 * j + 6 && l < 256; l++)
			v[l / 64] |= 1ULL << (l % 64);  /* 63 2^(7j) */
		PUT(v);
		for (l = 7 * j; l < 7 * j + 7 && l < 256; l++)
			w[l / 64] |= 1ULL << (l % 64);  /* 127 2^(7j) */
		PUT(w);
	}
	for (j = 1; j <= 36; j++) {             /* odd digits 127, -127 */
		uint64_t v[4] = { 0, 0, 0, 0 }, one[4] = { 1, 0, 0, 0 };

		/* 2^(7j+1) - 1: digits 127 below j; n minus it, even
		 * scalars 2^(7j+1) - 2 and n minus those */
		v[(7 * j + 1) / 64] = 1ULL << ((7 * j + 1) % 64);
		vg_p256_sub4(v, v, one);
		PUT(v);
		vg_p256_sub4(t, vg_p256_n, v);
		PUT(t);
		vg_p256_sub4(v, v, one);
		PUT(v);
		vg_p256_sub4(t, vg_p256_n, v);
		PUT(t);
	}
	/* top base-32 digit -16 and Booth top digit 16 */
	{
		uint64_t v[4] = { 0, 0, 0, 0x7fffffffffffffffULL };

		PUT(v);
		v[3] = 0xf800000000000000ULL;
		PUT(v);
		v[3] = 0xffffffff00000000ULL;
		PUT(v);
	}
#undef PUT
	return n;
}

static void
test_edge_scalars(void **state)
{
	static uint64_t d[1200][4];
	struct vg_p256_aff g, p;
	size_t n, i, s;

	(void)state;
	n = edge_scalars(d, 1200);
	printf("# %zu edge scalars\n", n);
	for (s = 0; s < NKSETS; s++) {
		static const uint64_t zero[4] = { 0, 0, 0, 0 };
		struct vg_p256_jac o;

		/* d = 0 breaks the precondition; the comb still says O */
		memset(&o, 0x5a, sizeof(o));
		vg_p256_base_mul(KP(s), &o, zero);
		assert_true(vg_p256_is_zero4_mask(o.z) != 0);
		generator(&g);
		random_point(KP(s), &p);
		for (i = 0; i < n; i++) {
			check_scalar(KP(s), &g, 1, d[i]);
			check_scalar(KP(s), &p, 0, d[i]);
		}
	}
}

static void
test_random_scalars(void **state)
{
	struct vg_p256_aff g, p;
	uint64_t d[4];
	size_t i, s;

	(void)state;
	for (s = 0; s < NKSETS; s++) {
		generator(&g);
		for (i = 0; i < 200; i++) {
			random_point(KP(s), &p);
			do {
				d[0] = rnd(), d[1] = rnd(), d[2] = rnd();
				d[3] = rnd();
			} while (!vg_p256_ord_valid_mask(d));
			check_scalar(KP(s), &g, 1, d);
			check_scalar(KP(s), &p, 0, d);
		}
	}
}

/* The odd multiples of G for verification: entry i is [2i + 1]G. */
static void
test_base_odd_table(void **state)
{
	struct vg_p256_aff g, a;
	struct vg_p256_jac want;
	uint64_t d[4] = { 0, 0, 0, 0 };
	int i;

	(void)state;
	generator(&g);
	for (i = 0; i < VG_P256_G_ODD_ENTRIES; i++) {
		d[0] = (uint64_t)(2 * i + 1);
		ref_mul(KP(0), &want, &g, d);
		assert_true(vg_p256_point_to_affine(KP(0), &a, &want));
		assert_memory_equal(a.x, vg_p256_base_odd[i], 32);
		assert_memory_equal(a.y, vg_p256_base_odd[i] + 4, 32);
	}
}

/* The plain width-w NAF: one bit per step, subtracting the signed residue
 * of u mod 2^w whenever u is odd, on a 320-bit copy. */
static int
ref_wnaf(int16_t naf[VG_P256_WNAF_LEN], const uint64_t u[4], int w)
{
	uint64_t kk[5] = { u[0], u[1], u[2], u[3], 0 };
	int i = 0, j;

	memset(naf, 0x55, VG_P256_WNAF_LEN * sizeof(naf[0]));
	while ((kk[0] | kk[1] | kk[2] | kk[3] | kk[4]) != 0) {
		int64_t dgt = 0;

		assert_true(i < VG_P256_WNAF_LEN);
		if (kk[0] & 1) {
			dgt = (int64_t)(kk[0] & (((uint64_t)1 << w) - 1));
			if (dgt >= (int64_t)1 << (w - 1))
				dgt -= (int64_t)1 << w;
			/* u - dgt: a subtraction or an addition with carry */
			if (dgt > 0) {
				kk[0] -= (uint64_t)dgt;
			} else {
				uint64_t c = (uint64_t)-dgt;

				for (j = 0; j < 5 && c != 0; j++) {
					kk[j] += c;
					c = kk[j] < c;
				}
			}
		}
		naf[i++] = (int16_t)dgt;
		for (j = 0; j < 4; j++)
			kk[j] = (kk[j] >> 1) | (kk[j + 1] << 63);
		kk[4] >>= 1;
	}
	for (j = i; j < VG_P256_WNAF_LEN; j++)
		naf[j] = 0;
	return i;
}

static void
check_wnaf(const uint64_t u[4], int w)
{
	int16_t got[VG_P256_WNAF_LEN], want[VG_P256_WNAF_LEN];
	int n, m, i, zeros = w;

	memset(got, 0x55, sizeof(got));
	n = vg_p256_wnaf_vartime(got, u, w);
	m = ref_wnaf(want, u, w);
	if (n != m || memcmp(got, want, sizeof(got)) != 0) {
		printf("# wnaf differs for w = %d, u = "
		    "%016llx%016llx%016llx%016llx\n", w,
		    (unsigned long long)u[3], (unsigned long long)u[2],
		    (unsigned long long)u[1], (unsigned long long)u[0]);
		fail();
	}
	/* the digits' own properties, whatever the reference says */
	assert_true(n == 0 || got[n - 1] != 0);
	for (i = 0; i < VG_P256_WNAF_LEN; i++) {
		if (got[i] == 0) {
			zeros++;
			continue;
		}
		assert_true(got[i] & 1);
		assert_true(got[i] < (1 << (w - 1)));
		assert_true(got[i] > -(1 << (w - 1)));
		assert_true(zeros >= w - 1);
		zeros = 0;
	}
}

/* The variable-time width-w NAF against the plain recoding: random
 * scalars of every length, zero, one, 2^255, n - 1, all ones, runs of
 * ones and zeros that cross the words, every w from 2 to 15. */
static void
test_wnaf(void **state)
{
	static const uint64_t nm1[4] = { 0xf3b9cac2fc632550ULL,
	    0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
	    0xffffffff00000000ULL };
	uint64_t u[4];
	int w, i, j;

	(void)state;
	for (w = 2; w <= 15; w++) {
		memset(u, 0, sizeof(u));
		check_wnaf(u, w);
		u[0] = 1;
		check_wnaf(u, w);
		u[0] = 0, u[3] = 1ULL << 63;
		check_wnaf(u, w);
		check_wnaf(nm1, w);
		memset(u, 0xff, sizeof(u));
		check_wnaf(u, w);
		for (i = 0; i < 256; i++) {
			/* ones from bit i up; a single bit i; ones below i */
			for (j = 0; j < 4; j++) {
				u[j] = i >= 64 * (j + 1) ? 0 : ~0ULL <<
				    (i > 64 * j ? i - 64 * j : 0);
			}
			check_wnaf(u, w);
			memset(u, 0, sizeof(u));
			u[i / 64] = 1ULL << (i % 64);
			check_wnaf(u, w);
			/* 2^i - 1: the single bit minus one, borrowing */
			for (j = 0; j < 4 && u[j]-- == 0; j++)
				;
			check_wnaf(u, w);
		}
		for (i = 0; i < 400; i++) {
			for (j = 0; j < 4; j++)
				u[j] = rnd();
			/* every length, and sparse and dense words */
			u[i % 4] &= i % 3 == 0 ? rnd() : ~0ULL;
			u[3] >>= i % 64;
			if (i % 5 == 0)
				u[1] = 0;
			if (i % 7 == 0)
				u[2] = ~0ULL;
			check_wnaf(u, w);
		}
	}
}

/* [u1]G + [u2]Q by vg_p256_mul2_vartime against the reference. */
static void
check_mul2(const struct vg_p256_kernels *k, const uint64_t u1[4],
    const uint64_t u2[4], const struct vg_p256_aff *q)
{
	struct vg_p256_aff g;
	struct vg_p256_jac a, b, r;
	uint8_t x[65], y[65];

	generator(&g);
	ref_mul(k, &a, &g, u1);
	ref_mul(k, &b, q, u2);
	if (vg_p256_is_zero4_mask(a.z))
		r = b;
	else
		vg_p256_point_add_vartime(k, &r, &a, &b);
	jac_encode(k, y, &r);
	vg_p256_mul2_vartime(k, &r, u1, u2, q);
	jac_encode(k, x, &r);
	if (memcmp(x, y, 65) != 0) {
		printf("# mul2 differs for u1 = %016llx%016llx%016llx%016llx,"
		    " u2 = %016llx%016llx%016llx%016llx\n",
		    (unsigned long long)u1[3], (unsigned long long)u1[2],
		    (unsigned long long)u1[1], (unsigned long long)u1[0],
		    (unsigned long long)u2[3], (unsigned long long)u2[2],
		    (unsigned long long)u2[1], (unsigned long long)u2[0]);
		fail();
	}
}

/* The double multiplication of verification: random scalars, zero ones,
 * Q = G with sums that meet (u1 = u2: a doubling inside the additions;
 * u1 + u2 = n: O), the largest scalars and long runs of ones. */
static void
test_mul2(void **state)
{
	static const uint64_t nm1[4] = { 0xf3b9cac2fc632550ULL,
	    0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
	    0xffffffff00000000ULL };
	struct vg_p256_aff g, p;
	uint64_t u1[4], u2[4], zero[4] = { 0, 0, 0, 0 };
	size_t i, j, s;

	(void)state;
	generator(&g);
	for (s = 0; s < NKSETS; s++) {
		check_mul2(KP(s), nm1, nm1, &g);
		for (i = 0; i < 40; i++) {
			random_point(KP(s), &p);
			for (j = 0; j < 4; j++)
				u1[j] = rnd(), u2[j] = rnd();
			u1[3] &= 0x7fffffffffffffffULL;
			u2[3] &= 0x7fffffffffffffffULL;
			if (i % 8 == 1)
				u1[0] = u1[1] = u1[2] = ~0ULL;
			if (i % 8 == 2)
				u2[0] = u2[1] = u2[2] = ~0ULL;
			check_mul2(KP(s), u1, u2, &p);
			check_mul2(KP(s), zero, u2, &p);
			check_mul2(KP(s), u1, zero, &p);
			check_mul2(KP(s), u1, u1, &g);
			/* u2 = n - u1: the result is O */
			{
				vg_p256_u128 c = 2;

				for (j = 0; j < 4; j++) {
					c += (vg_p256_u128)nm1[j] + ~u1[j];
					u2[j] = (uint64_t)c;
					c >>= 64;
				}
			}
			check_mul2(KP(s), u1, u2, &g);
			u1[0] = i + 1, u1[1] = u1[2] = u1[3] = 0;
			check_mul2(KP(s), u1, u1, &g);
			check_mul2(KP(s), u1, nm1, &p);
		}
	}
}

/* ECDH is symmetric and equals x([ab]G); ECDSA round trips. */
static void
test_roundtrips(void **state)
{
	struct vg_p256_priv a, b;
	struct vg_p256_pub pa, pb;
	uint8_t sa[32], sb[32], h[64], sig[64], ab[32];
	size_t i, s, hl;

	(void)state;
	for (s = 0; s < NKSETS; s++)
		for (i = 0; i < 50; i++) {
			do
				rnd_bytes(ab, 32);
			while (vg_p256_priv_decode(&a, ab, 32) != VG_OK);
			do
				rnd_bytes(ab, 32);
			while (vg_p256_priv_decode(&b, ab, 32) != VG_OK);
			assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &pa, &a),
			    VG_OK);
			assert_int_equal(vg_p256_pub_from_priv_k(KP(s), &pb, &b),
			    VG_OK);
			assert_int_equal(vg_p256_check_pair(&a, &pa), VG_OK);
			assert_int_equal(vg_p256_check_pair(&a, &pb),
			    VG_ERR_ARG);
			assert_int_equal(vg_p256_ecdh_k(KP(s), sa, &a, &pb),
			    VG_OK);
			assert_int_equal(vg_p256_ecdh_k(KP(s), sb, &b, &pa),
			    VG_OK);
			assert_memory_equal(sa, sb, 32);
			hl = (size_t)(rnd() % 65);
			rnd_bytes(h, hl);
			assert_int_equal(vg_p256_ecdsa_sign_k(KP(s), sig, &a, h,
			    hl, VG_HASH_SHA256, i & 1 ? ab : NULL), VG_OK);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pa, h,
			    hl, sig), VG_OK);
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pb, h,
			    hl, sig), VG_ERR_AUTH);
			sig[i % 64] ^= (uint8_t)(1u << (i % 8));
			assert_int_equal(vg_p256_ecdsa_verify_k(KP(s), &pa, h,
			    hl, sig), VG_ERR_AUTH);
		}
	vg_p256_priv_wipe(&a);
	vg_p256_priv_wipe(&b);
}

/* [d]G's Jacobian coordinates depend on d beyond the public key, and so do
 * Z's inverse and its square and cube that make the affine point: none is
 * on the stack once vg_p256_pub_from_priv_k returns (the field kernels and
 * the inversion leave their temporaries for the operation's one
 * clearing). The values come from the same functions the operation
 * calls. */
static void
test_pub_stack(void **state)
{
	struct vg_p256_priv a;
	struct vg_p256_pub pa;
	struct vg_p256_jac r;
	uint64_t v[6][4];
	uint8_t ab[32];
	size_t i, s;

	(void)state;
	for (s = 0; s < NKSETS; s++)
		for (i = 0; i < 4; i++) {
			const struct vg_p256_kernels *k = KP(s);

			do
				rnd_bytes(ab, 32);
			while (vg_p256_priv_decode(&a, ab, 32) != VG_OK);
			vg_p256_base_mul(k, &r, a.d);
			vg_p256_copy4(v[0], r.x);
			vg_p256_copy4(v[1], r.y);
			vg_p256_copy4(v[2], r.z);
			vg_p256_fe_inv(k, v[3], r.z);
			k->sqr(v[4], v[3]);
			k->mul(v[5], v[3], v[4]);
			vg_residue_fill();
			assert_int_equal(vg_p256_pub_from_priv_k(k, &pa, &a),
			    VG_OK);
			assert_false(vg_residue_find(v[0], 6, 4, 4));
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc6979),
		cmocka_unit_test(test_cavp_ecdh),
		cmocka_unit_test(test_verify_r_plus_n),
		cmocka_unit_test(test_inversion),
		cmocka_unit_test(test_inversion_pair),
		cmocka_unit_test(test_inversion_vartime),
		cmocka_unit_test(test_small_scalars),
		cmocka_unit_test(test_edge_scalars),
		cmocka_unit_test(test_random_scalars),
		cmocka_unit_test(test_base_odd_table),
		cmocka_unit_test(test_wnaf),
		cmocka_unit_test(test_mul2),
		cmocka_unit_test(test_roundtrips),
		cmocka_unit_test(test_pub_stack),
	};
	const char *seed = getenv("VG_TEST_SEED");

	rng_state = seed != NULL ? strtoull(seed, NULL, 0) :
	    0x7032353621ULL;
	if (rng_state == 0)
		rng_state = 1;
	printf("# VG_TEST_SEED=%llu\n", (unsigned long long)rng_state);
	init_ksets();
	printf("# kernels: %s/%s and %s/%s\n", KP(0)->impl,
	    KP(0)->select_impl, KP(1)->impl, KP(1)->select_impl);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
