/*
 * Message digesting [PKCS#11 3.2 §5.12]: every digest mechanism against
 * OpenSSL, the output length conventions [§5.2], and the operation rules.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"

#define MAXLEN 2000
#define MAXDIGEST 64

static struct p11_rng rng;
static CK_SESSION_HANDLE sess;

static const CK_BYTE abc_sha256[32] = {
	0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
	0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
	0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
};

static int
setup(void **state)
{
	CK_RV rv;

	if (p11_group_init(state) != 0)
		return -1;
	p11_rng_seed(&rng, 0);
	rv = p11->C_OpenSession(p11_slot(), CKF_SERIAL_SESSION, NULL, NULL,
	    &sess);
	return rv == CKR_OK ? 0 : -1;
}

/* Each test starts with no operation active in sess. */
static int
end_op(void **state)
{
	(void)state;
	return p11->C_SessionCancel(sess, CKF_DIGEST) == CKR_OK ? 0 : -1;
}

static void
init(CK_SESSION_HANDLE h, CK_MECHANISM_TYPE m)
{
	CK_MECHANISM mech = { m, NULL, 0 };

	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
}

/* Asserts that no digest is active in h (and leaves none active). */
static void
assert_no_op(CK_SESSION_HANDLE h)
{
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"x", 1),
	    CKR_OPERATION_NOT_INITIALIZED);
}

/* Asserts that a SHA-256 digest is active in h with "ab" hashed so far:
 * completes it with "c" and checks the result. */
static void
assert_abc_active(CK_SESSION_HANDLE h)
{
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);

	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"c", 1), CKR_OK);
	assert_rv(p11->C_DigestFinal(h, out, &len), CKR_OK);
	assert_int_equal(len, 32);
	assert_memory_equal(out, abc_sha256, 32);
}

static void
expect(const struct p11_digest *d, const CK_BYTE *data, size_t len,
    CK_BYTE *out)
{
	assert_int_equal(p11_evp_digest(d, data, len, out), 0);
}

/* ------------------------------------------------------------ tests */

static void
test_kat_abc(void **state)
{
	CK_BYTE out[64];
	CK_ULONG len = sizeof(out);

	(void)state;
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
	    CKR_OK);
	assert_int_equal(len, 32);
	assert_memory_equal(out, abc_sha256, 32);
	/* The operation ended with the successful C_Digest. */
	assert_no_op(sess);
	len = sizeof(out);
	assert_rv(p11->C_DigestFinal(sess, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
}

static void
test_oneshot_vs_openssl(void **state)
{
	static CK_BYTE data[MAXLEN];
	CK_BYTE got[MAXDIGEST + 8], want[MAXDIGEST];
	size_t k, n;

	(void)state;
	for (k = 0; k < p11_ndigests; k++) {
		const struct p11_digest *d = &p11_digests[k];

		for (n = 0; n <= MAXLEN; n++) {
			CK_ULONG len = sizeof(got);

			p11_rng_fill(&rng, data, n);
			expect(d, data, n, want);
			init(sess, d->mech);
			assert_rv(p11->C_Digest(sess, n ? data : NULL, n, got,
				      &len),
			    CKR_OK);
			assert_int_equal(len, d->len);
			if (memcmp(got, want, d->len) != 0)
				fail_msg("%s one-shot differs at length %zu",
				    d->name, n);
		}
	}
}

static void
test_multipart_vs_openssl(void **state)
{
	static CK_BYTE data[MAXLEN];
	CK_BYTE got[MAXDIGEST], want[MAXDIGEST];
	size_t k, n;

	(void)state;
	for (k = 0; k < p11_ndigests; k++) {
		const struct p11_digest *d = &p11_digests[k];

		for (n = 0; n <= MAXLEN; n++) {
			CK_ULONG len = d->len; /* exactly the size */
			size_t off = 0;

			p11_rng_fill(&rng, data, n);
			expect(d, data, n, want);
			init(sess, d->mech);
			/* Random split points; now and then an empty part,
			 * and sometimes large parts. */
			while (off < n) {
				size_t part, r = p11_rng_below(&rng, 8);

				if (r == 0)
					part = 0;
				else if (r < 6)
					part = 1 + p11_rng_below(&rng, 200);
				else
					part = p11_rng_below(&rng, n - off + 1);
				if (part > n - off)
					part = n - off;
				assert_rv(p11->C_DigestUpdate(sess,
					      part ? data + off : NULL, part),
				    CKR_OK);
				off += part;
			}
			assert_rv(p11->C_DigestFinal(sess, got, &len), CKR_OK);
			assert_int_equal(len, d->len);
			if (memcmp(got, want, d->len) != 0)
				fail_msg("%s multi-part differs at length %zu",
				    d->name, n);
		}
	}
}

static void
test_size_query(void **state)
{
	CK_BYTE out[MAXDIGEST], want[MAXDIGEST];
	size_t k;

	(void)state;
	for (k = 0; k < p11_ndigests; k++) {
		const struct p11_digest *d = &p11_digests[k];
		CK_ULONG len = 0;

		expect(d, (const CK_BYTE *)"abc", 3, want);

		/* C_Digest: the query leaves the operation active. */
		init(sess, d->mech);
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, NULL, &len),
		    CKR_OK);
		assert_int_equal(len, d->len);
		len = 12345;
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, NULL, &len),
		    CKR_OK);
		assert_int_equal(len, d->len);
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
		    CKR_OK);
		assert_int_equal(len, d->len);
		assert_memory_equal(out, want, d->len);
		assert_no_op(sess);

		/* C_DigestFinal likewise. */
		init(sess, d->mech);
		assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"ab", 2),
		    CKR_OK);
		len = 0;
		assert_rv(p11->C_DigestFinal(sess, NULL, &len), CKR_OK);
		assert_int_equal(len, d->len);
		assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"c", 1),
		    CKR_OK);
		assert_rv(p11->C_DigestFinal(sess, out, &len), CKR_OK);
		assert_int_equal(len, d->len);
		assert_memory_equal(out, want, d->len);
		assert_no_op(sess);
	}
}

static void
test_short_buffer(void **state)
{
	CK_BYTE out[MAXDIGEST + 1], want[MAXDIGEST];
	size_t k;

	(void)state;
	for (k = 0; k < p11_ndigests; k++) {
		const struct p11_digest *d = &p11_digests[k];
		CK_ULONG len;

		expect(d, (const CK_BYTE *)"abc", 3, want);

		init(sess, d->mech);
		len = d->len - 1;
		memset(out, 0x5a, sizeof(out));
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
		    CKR_BUFFER_TOO_SMALL);
		assert_int_equal(len, d->len);
		len = 0;
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
		    CKR_BUFFER_TOO_SMALL);
		assert_int_equal(len, d->len);
		/* Still active: the same call with room succeeds, and the
		 * refused calls did not hash their input. */
		len = sizeof(out);
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
		    CKR_OK);
		assert_int_equal(len, d->len);
		assert_memory_equal(out, want, d->len);
		assert_no_op(sess);

		init(sess, d->mech);
		assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"abc", 3),
		    CKR_OK);
		len = d->len - 1;
		assert_rv(p11->C_DigestFinal(sess, out, &len),
		    CKR_BUFFER_TOO_SMALL);
		assert_int_equal(len, d->len);
		len = d->len;
		assert_rv(p11->C_DigestFinal(sess, out, &len), CKR_OK);
		assert_int_equal(len, d->len);
		assert_memory_equal(out, want, d->len);
		assert_no_op(sess);
	}
}

static void
test_null_length_pointer(void **state)
{
	CK_BYTE out[32];

	(void)state;
	/* An error other than CKR_BUFFER_TOO_SMALL ends the operation. */
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_no_op(sess);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, NULL, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_no_op(sess);

	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"abc", 3), CKR_OK);
	assert_rv(p11->C_DigestFinal(sess, out, NULL), CKR_ARGUMENTS_BAD);
	assert_no_op(sess);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestFinal(sess, NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_no_op(sess);
}

static void
test_not_initialized(void **state)
{
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);

	(void)state;
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"abc", 3),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DigestFinal(sess, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DigestKey(sess, 1), CKR_OPERATION_NOT_INITIALIZED);
}

static void
test_init_twice(void **state)
{
	CK_MECHANISM sha256 = { CKM_SHA256, NULL, 0 };
	CK_MECHANISM sha1 = { CKM_SHA_1, NULL, 0 };

	(void)state;
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_DigestInit(sess, &sha256), CKR_OPERATION_ACTIVE);
	assert_rv(p11->C_DigestInit(sess, &sha1), CKR_OPERATION_ACTIVE);
	/* The refused init left the first operation alone. */
	assert_abc_active(sess);
}

static void
test_mechanism_param(void **state)
{
	CK_BYTE param[4] = { 1, 2, 3, 4 };
	size_t k;

	(void)state;
	for (k = 0; k < p11_ndigests; k++) {
		CK_MECHANISM m = { p11_digests[k].mech, param, sizeof(param) };

		assert_rv(p11->C_DigestInit(sess, &m),
		    CKR_MECHANISM_PARAM_INVALID);
		assert_no_op(sess);
	}
}

static void
test_mechanism_invalid(void **state)
{
	static const CK_MECHANISM_TYPE bad[] = {
		CKM_RSA_PKCS, CKM_SHA256_RSA_PKCS, CKM_SHA256_HMAC, CKM_MD5,
		CKM_VENDOR_DEFINED | 0x4242, 0x7ffffffeUL,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CK_MECHANISM m = { bad[i], NULL, 0 };

		assert_rv(p11->C_DigestInit(sess, &m), CKR_MECHANISM_INVALID);
		assert_no_op(sess);
	}
	assert_rv(p11->C_DigestInit(sess, NULL), CKR_ARGUMENTS_BAD);
	assert_no_op(sess);
	/* A refused init does not disturb an active operation either. */
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_DigestInit(sess, NULL), CKR_ARGUMENTS_BAD);
	assert_abc_active(sess);
}

static void
test_digest_after_update(void **state)
{
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);

	(void)state;
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"c", 1, out, &len),
	    CKR_OPERATION_ACTIVE);
	/* ... and ends the operation [PKCS#11 3.2 §5.12]. */
	assert_no_op(sess);
}

/* The converse: once C_Digest has asked for the length, the operation is a
 * single-part one; C_DigestUpdate, C_DigestKey or C_DigestFinal cannot take
 * it over, answer CKR_OPERATION_ACTIVE and end it, as C_Digest does after
 * an Update (found by google's pkcs11test, DigestFinalIntersperse). */
static void
test_parts_after_length_query(void **state)
{
	CK_BYTE out[32];
	CK_ULONG len;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		init(sess, CKM_SHA256);
		len = 0;
		assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, NULL,
		    &len), CKR_OK);
		assert_int_equal(len, 32);
		if (i == 0) {
			len = sizeof(out);
			assert_rv(p11->C_DigestFinal(sess, out, &len),
			    CKR_OPERATION_ACTIVE);
		} else if (i == 1) {
			assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"d",
			    1), CKR_OPERATION_ACTIVE);
		} else {
			/* A short buffer begins it the same way. */
			len = 31;
			assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3,
			    out, &len), CKR_BUFFER_TOO_SMALL);
			len = sizeof(out);
			assert_rv(p11->C_DigestFinal(sess, out, &len),
			    CKR_OPERATION_ACTIVE);
		}
		assert_no_op(sess);
	}
	/* The single-part call itself goes on after its length query. */
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, NULL, &len),
	    CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_Digest(sess, (CK_BYTE_PTR)"abc", 3, out, &len),
	    CKR_OK);
	assert_int_equal(out[0], 0xba); /* SHA-256("abc") */
	assert_no_op(sess);
	/* A length query of C_DigestFinal keeps the multi-part one. */
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"abc", 3), CKR_OK);
	assert_rv(p11->C_DigestFinal(sess, NULL, &len), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DigestFinal(sess, out, &len), CKR_OK);
	assert_int_equal(out[0], 0xba);
}

static void
test_null_data(void **state)
{
	CK_BYTE out[32], want[32];
	CK_ULONG len = sizeof(out);

	(void)state;
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, NULL, 3, out, &len), CKR_ARGUMENTS_BAD);
	assert_no_op(sess);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, NULL, 1), CKR_ARGUMENTS_BAD);
	assert_no_op(sess);

	/* NULL with length 0 is the empty message. */
	assert_int_equal(p11_evp_digest(&p11_digests[2], "", 0, want), 0);
	assert_int_equal(p11_digests[2].mech, CKM_SHA256);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_Digest(sess, NULL, 0, out, &len), CKR_OK);
	assert_memory_equal(out, want, 32);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, NULL, 0), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DigestFinal(sess, out, &len), CKR_OK);
	assert_memory_equal(out, want, 32);
}

static void
test_digest_key(void **state)
{
	(void)state;
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestKey(sess, 0x12345678UL), CKR_KEY_HANDLE_INVALID);
	/* An error in C_DigestKey ends the operation. */
	assert_no_op(sess);
	init(sess, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(sess, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_DigestKey(sess, CK_INVALID_HANDLE),
	    CKR_KEY_HANDLE_INVALID);
	assert_no_op(sess);
}

static void
test_invalid_session(void **state)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE bad[P11_NBAD_SESSIONS], h;
	CK_BYTE out[32];
	CK_ULONG len;
	int i;

	(void)state;
	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++) {
		len = sizeof(out);
		assert_rv(p11->C_DigestInit(bad[i], &mech),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_Digest(bad[i], (CK_BYTE_PTR)"abc", 3, out,
			      &len),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_DigestUpdate(bad[i], (CK_BYTE_PTR)"abc", 3),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_DigestKey(bad[i], 1),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_DigestFinal(bad[i], out, &len),
		    CKR_SESSION_HANDLE_INVALID);
	}
	/* A session closed with a digest in progress. */
	h = p11_open(0);
	init(h, CKM_SHA256);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"ab", 2), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	len = sizeof(out);
	assert_rv(p11->C_DigestFinal(h, out, &len), CKR_SESSION_HANDLE_INVALID);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"c", 1),
	    CKR_SESSION_HANDLE_INVALID);
}

static void
test_two_sessions(void **state)
{
	static CK_BYTE data[3000];
	CK_SESSION_HANDLE a = p11_open(0), b = p11_open(CKF_RW_SESSION);
	const struct p11_digest *da = &p11_digests[2]; /* SHA-256 */
	const struct p11_digest *db = &p11_digests[8]; /* SHA3-512 */
	CK_BYTE wa[MAXDIGEST], wb[MAXDIGEST], got[MAXDIGEST];
	CK_ULONG len;
	size_t off;

	(void)state;
	assert_int_equal(da->mech, CKM_SHA256);
	assert_int_equal(db->mech, CKM_SHA3_512);
	p11_rng_fill(&rng, data, sizeof(data));
	expect(da, data, sizeof(data), wa);
	/* b hashes the data backwards in 100-byte blocks. */
	{
		static CK_BYTE rev[3000];

		for (off = 0; off < sizeof(data); off += 100)
			memcpy(rev + off, data + sizeof(data) - off - 100, 100);
		expect(db, rev, sizeof(rev), wb);
	}

	init(a, da->mech);
	init(b, db->mech);
	for (off = 0; off < sizeof(data); off += 100) {
		assert_rv(p11->C_DigestUpdate(a, data + off, 100), CKR_OK);
		assert_rv(p11->C_DigestUpdate(b,
			      data + sizeof(data) - off - 100, 100),
		    CKR_OK);
		if (off == 1500) {
			/* A third session starts, finishes and closes in
			 * between without disturbing the others. */
			CK_SESSION_HANDLE c = p11_open(0);

			init(c, CKM_SHA256);
			len = sizeof(got);
			assert_rv(p11->C_Digest(c, (CK_BYTE_PTR)"abc", 3, got,
				      &len),
			    CKR_OK);
			assert_memory_equal(got, abc_sha256, 32);
			init(c, CKM_SHA_1);
			assert_rv(p11->C_CloseSession(c), CKR_OK);
		}
	}
	len = sizeof(got);
	assert_rv(p11->C_DigestFinal(b, got, &len), CKR_OK);
	assert_int_equal(len, db->len);
	assert_memory_equal(got, wb, db->len);
	/* a is still going after b finished. */
	assert_rv(p11->C_DigestUpdate(a, NULL, 0), CKR_OK);
	len = sizeof(got);
	assert_rv(p11->C_DigestFinal(a, got, &len), CKR_OK);
	assert_int_equal(len, da->len);
	assert_memory_equal(got, wa, da->len);
	assert_rv(p11->C_CloseSession(a), CKR_OK);
	assert_rv(p11->C_CloseSession(b), CKR_OK);
}

#define T(f) cmocka_unit_test_setup(f, end_op)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_kat_abc),
		T(test_oneshot_vs_openssl),
		T(test_multipart_vs_openssl),
		T(test_size_query),
		T(test_short_buffer),
		T(test_null_length_pointer),
		T(test_not_initialized),
		T(test_init_twice),
		T(test_mechanism_param),
		T(test_mechanism_invalid),
		T(test_digest_after_update),
		T(test_parts_after_length_query),
		T(test_null_data),
		T(test_digest_key),
		T(test_invalid_session),
		T(test_two_sessions),
	};

	return cmocka_run_group_tests_name("p11 digest", tests, setup,
	    p11_group_fini);
}
