/*
 * crypto/der_ecx.c: the names of the Curve25519 and Curve448 keys. Every
 * OID and curve name it knows, the malformed curve name pkcs11-tool 0.23
 * sends (and nothing near it), other curves, malformed input, and the
 * builder.
 */
#include "config.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "crypto/der.h"

static enum vg_der_ecx
which(const void *p, size_t len, enum vg_err want)
{
	enum vg_der_ecx w = (enum vg_der_ecx)99;

	assert_int_equal(vg_der_parse_ecx_params(p, len, &w), want);
	return w;
}

#define W(lit) which(lit, sizeof(lit) - 1, VG_OK)

static void
test_names(void **state)
{
	(void)state;
	/* RFC 8410 OIDs */
	assert_int_equal(W("\x06\x03\x2b\x65\x70"), VG_DER_ECX_ED25519);
	assert_int_equal(W("\x06\x03\x2b\x65\x6e"), VG_DER_ECX_X25519);
	assert_int_equal(W("\x06\x03\x2b\x65\x71"), VG_DER_ECX_ED448);
	assert_int_equal(W("\x06\x03\x2b\x65\x6f"), VG_DER_ECX_X448);
	/* GnuPG's and OpenSC 0.23's */
	assert_int_equal(W("\x06\x09\x2b\x06\x01\x04\x01\xda\x47\x0f\x01"),
	    VG_DER_ECX_ED25519);
	assert_int_equal(W("\x06\x08\x2b\x06\x01\x04\x89\x07\x0f\x01"),
	    VG_DER_ECX_ED25519);
	assert_int_equal(W("\x06\x0a\x2b\x06\x01\x04\x01\x97\x55\x01\x05\x01"),
	    VG_DER_ECX_X25519);
	assert_int_equal(W("\x06\x09\x2b\x06\x01\x04\x97\x55\x01\x05\x01"),
	    VG_DER_ECX_X25519);
	/* curve names */
	assert_int_equal(W("\x13\x0c" "edwards25519"), VG_DER_ECX_ED25519);
	assert_int_equal(W("\x13\x0a" "curve25519"), VG_DER_ECX_X25519);
	assert_int_equal(W("\x13\x07" "Ed25519"), VG_DER_ECX_ED25519);
	assert_int_equal(W("\x13\x06" "X25519"), VG_DER_ECX_X25519);
	assert_int_equal(W("\x13\x0a" "edwards448"), VG_DER_ECX_ED448);
	assert_int_equal(W("\x13\x08" "curve448"), VG_DER_ECX_X448);
	/* pkcs11-tool 0.23's "curve25519" with a length byte of 11 */
	assert_int_equal(W("\x13\x0b" "curve25519"), VG_DER_ECX_X25519);
	/* other curves and names: well formed, none of these */
	assert_int_equal(W("\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07"),
	    VG_DER_ECX_NONE);
	assert_int_equal(W("\x13\x0a" "prime256v1"), VG_DER_ECX_NONE);
	assert_int_equal(W("\x13\x0a" "Curve25519"), VG_DER_ECX_NONE);
	assert_int_equal(W("\x05\x00"), VG_DER_ECX_NONE);
	assert_int_equal(W("\x06\x03\x2b\x65\x72"), VG_DER_ECX_NONE);
}

static void
test_malformed(void **state)
{
	(void)state;
	/* near the pkcs11-tool form: not taken */
	assert_int_equal(which("\x13\x0b" "curve25519X", 13, VG_OK),
	    VG_DER_ECX_NONE);
	which("\x13\x0b" "curve25519", 12 - 1, VG_ERR_DECODE);
	which("\x13\x0c" "curve25519", 12, VG_ERR_DECODE);
	which("\x13\x0b" "curve2551", 11, VG_ERR_DECODE);
	assert_int_equal(which("\x13\x0b" "edwards2551", 13, VG_OK),
	    VG_DER_ECX_NONE);
	/* truncated, trailing bytes, empty */
	which("\x06\x03\x2b\x65", 4, VG_ERR_DECODE);
	which("\x06\x03\x2b\x65\x70\x00", 6, VG_ERR_DECODE);
	which("\x13\x0c" "edwards25519" "\x00", 15, VG_ERR_DECODE);
	which("", 0, VG_ERR_DECODE);
	which("\x30\x80", 2, VG_ERR_DECODE);
}

static void
test_build(void **state)
{
	uint8_t out[16];
	size_t len = sizeof(out);
	struct vg_der oid;

	(void)state;
	assert_int_equal(vg_der_build_ecx_params(out, &len, VG_DER_ECX_X25519),
	    VG_OK);
	assert_int_equal(len, 5);
	assert_memory_equal(out, "\x06\x03\x2b\x65\x6e", 5);
	len = sizeof(out);
	assert_int_equal(vg_der_build_ecx_params(out, &len, VG_DER_ECX_NONE),
	    VG_ERR_ARG);
	assert_null(vg_der_ecx_oid(VG_DER_ECX_NONE));
	assert_ptr_equal(vg_der_ecx_oid(VG_DER_ECX_ED25519), &vg_oid_ed25519);
	oid = vg_der_make("\x2b\x65\x70", 3);
	assert_int_equal(vg_der_ecx_of_oid(&oid), VG_DER_ECX_ED25519);
	oid = vg_der_make("\x2b\x65", 2);
	assert_int_equal(vg_der_ecx_of_oid(&oid), VG_DER_ECX_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
