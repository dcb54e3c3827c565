/*
 * X25519 (CKK_EC_MONTGOMERY) through the function list: CKM_ECDH1_DERIVE
 * with RFC 7748 §6.1's keys in both directions (peer raw and as an OCTET
 * STRING), CKD_NULL and the SHA-256 KDF against OpenSSL's digest, two
 * generated keys that agree, and the refusals (small-order peers, bad
 * lengths, KDFs, key types; nothing is created). Ed25519 and wrapping:
 * tests/p11/test_eddsa.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/p11/common.h"

static char dir[64];
static CK_SLOT_ID slot;
static CK_SESSION_HANDLE h;
static CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
static CK_OBJECT_CLASS c_priv = CKO_PRIVATE_KEY, c_sec = CKO_SECRET_KEY;
static CK_KEY_TYPE k_x = CKK_EC_MONTGOMERY, k_gen = CKK_GENERIC_SECRET;

/* CKA_EC_PARAMS forms */
static const uint8_t oid_ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };
static const uint8_t oid_x25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x6e };
static const uint8_t name_x25519[] = { 0x13, 0x0a, 'c', 'u', 'r', 'v', 'e',
	'2', '5', '5', '1', '9' };

static int
setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "x25519", &slot, &h);
}

static int
teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

static size_t
unhex(const char *s, uint8_t *out)
{
	size_t n = strlen(s) / 2, i;
	unsigned v;

	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

/* How many objects the session sees. */
static CK_ULONG
count_objects(void)
{
	CK_OBJECT_HANDLE o[256];
	CK_ULONG n = 0;

	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	assert_rv(p11->C_FindObjects(h, o, 256, &n), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return n;
}

static CK_RV
gen(CK_MECHANISM_TYPE mt, const void *params, size_t plen,
    CK_OBJECT_HANDLE *pub, CK_OBJECT_HANDLE *priv)
{
	CK_MECHANISM m = { mt, NULL, 0 };
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_VERIFY, &yes, 1 },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};

	return p11->C_GenerateKeyPair(h, &m, params ? pt : pt + 1,
	    params ? 2 : 1, kt, 3, pub, priv);
}

/* Imports a private key (value, params) and optionally a point. */
static CK_RV
import_priv(CK_KEY_TYPE *kt, const void *params, size_t plen,
    const uint8_t *value, size_t vlen, const uint8_t *pt, size_t ptlen,
    CK_OBJECT_HANDLE *o)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_priv, sizeof(c_priv) },
		{ CKA_KEY_TYPE, kt, sizeof(*kt) },
		{ CKA_EC_PARAMS, (void *)params, plen },
		{ CKA_VALUE, (void *)value, vlen },
		{ CKA_SIGN, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_EC_POINT, (void *)pt, ptlen },
	};

	return p11->C_CreateObject(h, t, pt != NULL ? 7 : 6, o);
}

/* The 32-byte public key of an object's CKA_EC_POINT (asserted to be
 * the DER OCTET STRING). */
static void
point_of(CK_OBJECT_HANDLE o, uint8_t pk[32])
{
	uint8_t buf[64];
	CK_ATTRIBUTE a = { CKA_EC_POINT, buf, sizeof(buf) };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	assert_int_equal(a.ulValueLen, 34);
	assert_int_equal(buf[0], 0x04);
	assert_int_equal(buf[1], 0x20);
	memcpy(pk, buf + 2, 32);
}

/* The derived secret of base key k with the peer's data, CKD_NULL or a
 * KDF, as a generic secret of len bytes read back. */
static CK_RV
derive(CK_OBJECT_HANDLE k, CK_MECHANISM_TYPE mt, CK_EC_KDF_TYPE kdf,
    const void *peer, size_t plen, uint8_t *out, CK_ULONG len)
{
	CK_ECDH1_DERIVE_PARAMS p = { kdf, 0, NULL, plen, (CK_BYTE_PTR)peer };
	CK_MECHANISM m = { mt, &p, sizeof(p) };
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
	};
	CK_ATTRIBUTE v = { CKA_VALUE, out, len };
	CK_OBJECT_HANDLE o;
	CK_RV rv;

	rv = p11->C_DeriveKey(h, &m, k, t, 5, &o);
	if (rv == CKR_OK) {
		assert_rv(p11->C_GetAttributeValue(h, o, &v, 1), CKR_OK);
		assert_int_equal(v.ulValueLen, len);
	}
	return rv;
}

/* RFC 7748 §6.1, both directions, raw and DER peers; the SHA-256 KDF
 * against OpenSSL's digest; two token keys agree; the refusals. */
static void
test_x25519(void **state)
{
	uint8_t a[32], apub[32], b[32], bpub[32], shared[32], z[32], der[34];
	uint8_t buf[64], want[32];
	CK_OBJECT_HANDLE ka, kb, pa, pb, qa, qb, edpub, edpriv;
	CK_ULONG before;
	unsigned int mdlen;
	EVP_MD_CTX *c;

	(void)state;
	unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
	    a);
	unhex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
	    apub);
	unhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
	    b);
	unhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
	    bpub);
	unhex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
	    shared);
	assert_rv(import_priv(&k_x, oid_x25519, sizeof(oid_x25519), a, 32,
	    NULL, 0, &ka), CKR_OK);
	assert_rv(import_priv(&k_x, name_x25519, sizeof(name_x25519), b, 32,
	    bpub, 32, &kb), CKR_OK);
	/* the public key computed for the private key without one */
	{
		uint8_t info[64];
		CK_ATTRIBUTE i = { CKA_PUBLIC_KEY_INFO, info, sizeof(info) };

		assert_rv(p11->C_GetAttributeValue(h, ka, &i, 1), CKR_OK);
		assert_int_equal(i.ulValueLen, 44);
		assert_memory_equal(info + 12, apub, 32);
	}
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, bpub, 32, z, 32),
	    CKR_OK);
	assert_memory_equal(z, shared, 32);
	der[0] = 0x04;
	der[1] = 0x20;
	memcpy(der + 2, apub, 32);
	assert_rv(derive(kb, CKM_ECDH1_DERIVE, CKD_NULL, der, 34, z, 32),
	    CKR_OK);
	assert_memory_equal(z, shared, 32);
	/* CKD_NULL: the leftmost bytes */
	assert_rv(derive(kb, CKM_ECDH1_DERIVE, CKD_NULL, der, 34, z, 16),
	    CKR_OK);
	assert_memory_equal(z, shared, 16);
	/* ANSI X9.63 with SHA-256: SHA-256(Z || 00000001) */
	memcpy(buf, shared, 32);
	memcpy(buf + 32, "\0\0\0\1", 4);
	c = EVP_MD_CTX_new();
	assert_int_equal(EVP_DigestInit_ex(c, EVP_sha256(), NULL), 1);
	assert_int_equal(EVP_DigestUpdate(c, buf, 36), 1);
	assert_int_equal(EVP_DigestFinal_ex(c, want, &mdlen), 1);
	EVP_MD_CTX_free(c);
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_SHA256_KDF, bpub, 32, z,
	    32), CKR_OK);
	assert_memory_equal(z, want, 32);
	/* two generated keys agree */
	assert_rv(gen(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x25519,
	    sizeof(oid_x25519), &pa, &qa), CKR_OK);
	assert_rv(gen(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, name_x25519,
	    sizeof(name_x25519), &pb, &qb), CKR_OK);
	{
		uint8_t ua[32], ub[32], za[32], zb[32];

		point_of(pa, ua);
		point_of(pb, ub);
		assert_rv(derive(qa, CKM_ECDH1_DERIVE, CKD_SHA512_KDF, ub, 32,
		    za, 32), CKR_OK);
		assert_rv(derive(qb, CKM_ECDH1_DERIVE, CKD_SHA512_KDF, ua, 32,
		    zb, 32), CKR_OK);
		assert_memory_equal(za, zb, 32);
	}
	/* refusals, nothing created */
	before = count_objects();
	{
		static const uint8_t zero[32];
		/* a point of order 8 [RFC 7748 §7 small-order list] */
		uint8_t low[32];

		unhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
		    low);
		assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, zero, 32, z,
		    32), CKR_MECHANISM_PARAM_INVALID);
		assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, low, 32, z,
		    32), CKR_MECHANISM_PARAM_INVALID);
	}
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, bpub, 31, z, 32),
	    CKR_MECHANISM_PARAM_INVALID);
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, der, 33, z, 32),
	    CKR_MECHANISM_PARAM_INVALID);
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, 0x77, bpub, 32, z, 32),
	    CKR_MECHANISM_PARAM_INVALID);
	assert_rv(derive(ka, CKM_ECDH1_DERIVE, CKD_NULL, bpub, 32, z, 33),
	    CKR_KEY_SIZE_RANGE);
	assert_rv(derive(ka, CKM_ECDH1_COFACTOR_DERIVE, CKD_NULL, bpub, 32, z,
	    32), CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(derive(pa, CKM_ECDH1_DERIVE, CKD_NULL, bpub, 32, z, 32),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_rv(gen(CKM_EC_EDWARDS_KEY_PAIR_GEN, oid_ed25519,
	    sizeof(oid_ed25519), &edpub, &edpriv), CKR_OK);
	before += 2;
	assert_rv(derive(edpriv, CKM_ECDH1_DERIVE, CKD_NULL, bpub, 32, z, 32),
	    CKR_KEY_TYPE_INCONSISTENT);
	assert_int_equal(count_objects(), before);
}

/* The base key's CKA_DERIVE_TEMPLATE binds X25519 derivation as it does
 * P-256's (test_access): a caller's template that contradicts it creates
 * nothing, one that leaves its attributes out gets its values. */
static void
test_derive_template(void **state)
{
	CK_MECHANISM m = { CKM_EC_MONTGOMERY_KEY_PAIR_GEN, NULL, 0 };
	CK_ATTRIBUTE dt[] = {
		{ CKA_SENSITIVE, &yes, 1 },
		{ CKA_EXTRACTABLE, &no, 1 },
	};
	CK_ATTRIBUTE pt[] = {
		{ CKA_EC_PARAMS, (void *)oid_x25519, sizeof(oid_x25519) },
	};
	CK_ATTRIBUTE kt[] = {
		{ CKA_DERIVE, &yes, 1 },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_DERIVE_TEMPLATE, dt, sizeof(dt) },
	};
	CK_ULONG len = 32;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &k_gen, sizeof(k_gen) },
		{ CKA_VALUE_LEN, &len, sizeof(len) },
	};
	uint8_t peer[32], z[32];
	CK_ATTRIBUTE v = { CKA_VALUE, z, sizeof(z) };
	CK_ATTRIBUTE sens = { CKA_SENSITIVE, &no, 1 };
	CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL, 32, peer };
	CK_MECHANISM dm = { CKM_ECDH1_DERIVE, &p, sizeof(p) };
	CK_OBJECT_HANDLE pub, base, ppub, ppriv, o;
	CK_BBOOL b = CK_FALSE;
	CK_ULONG before;

	(void)state;
	assert_rv(p11->C_GenerateKeyPair(h, &m, pt, 1, kt, 3, &pub, &base),
	    CKR_OK);
	assert_rv(gen(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, oid_x25519,
	    sizeof(oid_x25519), &ppub, &ppriv), CKR_OK);
	point_of(ppub, peer);
	before = count_objects();
	assert_rv(derive(base, CKM_ECDH1_DERIVE, CKD_NULL, peer, 32, z, 32),
	    CKR_TEMPLATE_INCONSISTENT);
	assert_int_equal(count_objects(), before);
	assert_rv(p11->C_DeriveKey(h, &dm, base, t, 3, &o), CKR_OK);
	sens.pValue = &b;
	assert_rv(p11->C_GetAttributeValue(h, o, &sens, 1), CKR_OK);
	assert_int_equal(b, CK_TRUE);
	assert_rv(p11->C_GetAttributeValue(h, o, &v, 1),
	    CKR_ATTRIBUTE_SENSITIVE);
	/* the peer's key has none: the caller's template alone */
	point_of(pub, peer);
	assert_rv(derive(ppriv, CKM_ECDH1_DERIVE, CKD_NULL, peer, 32, z, 32),
	    CKR_OK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x25519),
		cmocka_unit_test(test_derive_template),
	};

	return cmocka_run_group_tests_name("x25519", tests, setup, teardown);
}
