/*
 * DER reader, writer and key structures: rules of the reader on hand-made
 * encodings, writer encodings, round trips against OpenSSL 3 (keys made
 * with libcrypto, parsed by us and compared with BN_bn2bin; built by us and
 * read back by d2i_*), malformed input of every kind, and a fixed-seed
 * random loop through every parser.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "crypto/der.h"

/* ------------------------------------------------------------ helpers */

/* Hex to bytes; spaces are skipped. */
static size_t
unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;
	int hi = -1, v;

	for (; *hex != '\0'; hex++) {
		if (*hex == ' ')
			continue;
		v = *hex <= '9' ? *hex - '0' : (*hex | 0x20) - 'a' + 10;
		if (hi < 0) {
			hi = v;
		} else {
			assert_true(n < cap);
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	assert_true(hi < 0);
	return n;
}

/* A copy in a buffer of exactly n bytes, so that ASan or valgrind sees any
 * read past the end. */
static uint8_t *
exact(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	assert_non_null(q);
	if (n != 0)
		memcpy(q, p, n);
	return q;
}

static struct vg_der
cur_hex(uint8_t *buf, size_t cap, const char *hex)
{
	return vg_der_make(buf, unhex(buf, cap, hex));
}

/* x lies within [p, p + n). */
static void
check_within(const struct vg_der *x, const uint8_t *p, size_t n)
{
	if (x->len == 0)
		return;
	assert_true(x->p >= p && x->p <= p + n);
	assert_true(x->len <= (size_t)(p + n - x->p));
}

/* Magnitude m equals the BIGNUM (BN_bn2bin: minimal, empty for 0). */
static void
assert_mag_bn(const struct vg_der *m, const BIGNUM *bn)
{
	uint8_t buf[1024];
	int n = BN_bn2bin(bn, buf);

	assert_true(n > 0);
	assert_int_equal(m->len, (size_t)n);
	assert_memory_equal(m->p, buf, (size_t)n);
}

static BIGNUM *
get_bn(const EVP_PKEY *pk, const char *name)
{
	BIGNUM *bn = NULL;

	assert_int_equal(EVP_PKEY_get_bn_param(pk, name, &bn), 1);
	return bn;
}

/* The output of an i2d function, in a buffer we own. */
#define I2D(fn, obj, outp, lenp) do { \
	unsigned char *i2d_tmp_ = NULL; \
	int i2d_n_ = fn(obj, &i2d_tmp_); \
	assert_true(i2d_n_ > 0); \
	*(lenp) = (size_t)i2d_n_; \
	*(outp) = exact(i2d_tmp_, (size_t)i2d_n_); \
	OPENSSL_free(i2d_tmp_); \
} while (0)

static int
i2d_pkcs8_of(EVP_PKEY *pk, unsigned char **out)
{
	PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(pk);
	int n;

	assert_non_null(p8);
	n = i2d_PKCS8_PRIV_KEY_INFO(p8, out);
	PKCS8_PRIV_KEY_INFO_free(p8);
	return n;
}

static EVP_PKEY *
d2i_pkcs8_of(const uint8_t *p, size_t n)
{
	const unsigned char *q = p;
	PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &q, (long)n);
	EVP_PKEY *pk;

	assert_non_null(p8);
	assert_ptr_equal(q, p + n);
	pk = EVP_PKCS82PKEY(p8);
	PKCS8_PRIV_KEY_INFO_free(p8);
	assert_non_null(pk);
	return pk;
}

static EVP_PKEY *
d2i_pubkey_of(const uint8_t *p, size_t n)
{
	const unsigned char *q = p;
	EVP_PKEY *pk = d2i_PUBKEY(NULL, &q, (long)n);

	assert_non_null(pk);
	assert_ptr_equal(q, p + n);
	return pk;
}

/*
 * Runs every parser on p[0..n) and, for each success, checks that every
 * returned cursor lies inside the input. Returns the number of parsers that
 * accepted the input.
 */
static int
parse_all(const uint8_t *p, size_t n)
{
	struct vg_der_algid alg;
	struct vg_der key, oid, c, v, w;
	struct vg_der_pkcs8 p8;
	struct vg_der_rsa_pub rpub;
	struct vg_der_rsa_priv rpriv;
	struct vg_der_ec_priv ec;
	struct vg_der_mldsa_priv ml;
	enum vg_der_curve curve;
	unsigned tag, u;
	uint32_t x;
	int ok = 0, depth;

	if (vg_der_parse_mldsa_private(p, n, &ml) == VG_OK) {
		check_within(&ml.seed, p, n);
		check_within(&ml.sk, p, n);
		ok++;
	}

	if (vg_der_parse_spki(p, n, &alg, &key) == VG_OK) {
		check_within(&alg.oid, p, n);
		check_within(&alg.params, p, n);
		check_within(&key, p, n);
		ok++;
	}
	if (vg_der_parse_pkcs8(p, n, &p8) == VG_OK) {
		assert_true(p8.version <= 1);
		check_within(&p8.alg.oid, p, n);
		check_within(&p8.alg.params, p, n);
		check_within(&p8.key, p, n);
		check_within(&p8.pub, p, n);
		ok++;
	}
	if (vg_der_parse_rsa_public(p, n, &rpub) == VG_OK) {
		check_within(&rpub.n, p, n);
		check_within(&rpub.e, p, n);
		ok++;
	}
	if (vg_der_parse_rsa_private(p, n, &rpriv) == VG_OK) {
		check_within(&rpriv.n, p, n);
		check_within(&rpriv.qinv, p, n);
		ok++;
	}
	if (vg_der_parse_ec_private(p, n, &ec) == VG_OK) {
		check_within(&ec.priv, p, n);
		check_within(&ec.params, p, n);
		check_within(&ec.pub, p, n);
		ok++;
	}
	if (vg_der_parse_ec_params(p, n, &curve, &oid) == VG_OK) {
		check_within(&oid, p, n);
		ok++;
	}
	/* The primitives, walking the first levels of nesting. */
	c = vg_der_make(p, n);
	for (depth = 0; depth < 64 && !vg_der_at_end(&c); depth++) {
		struct vg_der t = c;

		(void)vg_der_get_integer(&t, &v, VG_DER_INT_SIGNED);
		t = c;
		(void)vg_der_get_uint32(&t, &x);
		t = c;
		if (vg_der_get_bit_string(&t, &v, &u) == VG_OK)
			assert_true(u <= 7);
		t = c;
		(void)vg_der_get_oid(&t, &v);
		t = c;
		(void)vg_der_get_null(&t);
		t = c;
		if (vg_der_get_algid(&t, &alg) == VG_OK)
			check_within(&alg.params, p, n);
		if (vg_der_get_any(&c, &tag, &v, &w) != VG_OK)
			break;
		check_within(&v, p, n);
		check_within(&w, p, n);
		if (tag & 0x20) /* constructed: go inside */
			c = v;
	}
	return ok;
}

/* ------------------------------------------------------------ reader */

struct hexcase {
	const char *hex;
	enum vg_err rc;
	size_t clen; /* contents length when rc == VG_OK */
};

static void
test_header_rules(void **state)
{
	static const struct hexcase cases[] = {
		{ "0400", VG_OK, 0 },
		{ "0401aa", VG_OK, 1 },
		{ "04 7f", VG_ERR_DECODE, 0 },          /* past the end */
		{ "04", VG_ERR_DECODE, 0 },
		{ "", VG_ERR_DECODE, 0 },
		{ "0480 0000", VG_ERR_DECODE, 0 },       /* indefinite */
		{ "0481", VG_ERR_DECODE, 0 },            /* truncated length */
		{ "0481 05 0102030405", VG_ERR_DECODE, 0 }, /* long form < 128 */
		{ "0481 7f", VG_ERR_DECODE, 0 },
		{ "0482 0080", VG_ERR_DECODE, 0 },       /* leading zero */
		{ "0482 0005 0102030405", VG_ERR_DECODE, 0 },
		{ "0484 ffffffff", VG_ERR_DECODE, 0 },   /* overflow / past end */
		{ "0484 fffffff0 00", VG_ERR_DECODE, 0 },
		{ "0484 00000001 aa", VG_ERR_DECODE, 0 },
		{ "0485 0100000000", VG_ERR_DECODE, 0 }, /* 5 length octets */
		{ "0488 ffffffffffffffff", VG_ERR_DECODE, 0 },
		{ "04ff", VG_ERR_DECODE, 0 },            /* reserved */
		{ "1f04 00", VG_ERR_DECODE, 0 },         /* high tag number */
		{ "3f81 0000", VG_ERR_DECODE, 0 },
		{ "0000", VG_ERR_DECODE, 0 },            /* end-of-contents */
		{ "0300", VG_ERR_DECODE, 0 },            /* wrong tag */
		{ "2400", VG_ERR_DECODE, 0 },            /* constructed form */
	};
	uint8_t buf[600];
	struct vg_der c, v, saved;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *q;

		n = unhex(buf, sizeof buf, cases[i].hex);
		q = exact(buf, n);
		c = vg_der_make(q, n);
		saved = c;
		if (vg_der_get_tlv(&c, VG_DER_OCTET_STRING, &v) !=
		    cases[i].rc)
			fail_msg("case %zu: %s", i, cases[i].hex);
		if (cases[i].rc == VG_OK) {
			assert_int_equal(v.len, cases[i].clen);
			assert_true(vg_der_at_end(&c));
		} else {
			assert_memory_equal(&c, &saved, sizeof c);
		}
		free(q);
	}

	/* Long forms at their lower limits. */
	memset(buf, 0x11, sizeof buf);
	buf[0] = 0x04, buf[1] = 0x81, buf[2] = 0x80;
	c = vg_der_make(buf, 3 + 0x80);
	assert_int_equal(vg_der_get_octet_string(&c, &v), VG_OK);
	assert_int_equal(v.len, 0x80);
	assert_ptr_equal(v.p, buf + 3);
	buf[1] = 0x82, buf[2] = 0x01, buf[3] = 0x00;
	c = vg_der_make(buf, 4 + 0x100);
	assert_int_equal(vg_der_get_octet_string(&c, &v), VG_OK);
	assert_int_equal(v.len, 0x100);
	c = vg_der_make(buf, 4 + 0xff); /* one byte short */
	assert_int_equal(vg_der_get_octet_string(&c, &v), VG_ERR_DECODE);

	/* get_any, peek, at_end, NULL input. */
	c = cur_hex(buf, sizeof buf, "a1 03 020101 05 00");
	assert_int_equal(vg_der_peek_tag(&c), 0xa1);
	{
		unsigned tag;
		struct vg_der whole;

		assert_int_equal(vg_der_get_any(&c, &tag, &v, &whole), VG_OK);
		assert_int_equal(tag, 0xa1);
		assert_int_equal(v.len, 3);
		assert_int_equal(whole.len, 5);
		assert_ptr_equal(whole.p, buf);
	}
	assert_int_equal(vg_der_get_null(&c), VG_OK);
	assert_true(vg_der_at_end(&c));
	assert_int_equal(vg_der_peek_tag(&c), -1);
	c = vg_der_make(NULL, 10);
	assert_true(vg_der_at_end(&c));
	assert_int_equal(vg_der_get_sequence(&c, &v), VG_ERR_DECODE);
}

static void
test_integer(void **state)
{
	static const struct {
		const char *hex;
		enum vg_err rc, rc_signed;
		const char *mag;
	} cases[] = {
		{ "020100", VG_OK, VG_OK, "00" },
		{ "02017f", VG_OK, VG_OK, "7f" },
		{ "02020080", VG_OK, VG_OK, "80" },
		{ "020200ff", VG_OK, VG_OK, "ff" },
		{ "0203010000", VG_OK, VG_OK, "010000" },
		{ "0202007f", VG_ERR_DECODE, VG_ERR_DECODE, NULL }, /* leading 0 */
		{ "0202 0000", VG_ERR_DECODE, VG_ERR_DECODE, NULL },
		{ "0203 0000ff", VG_ERR_DECODE, VG_ERR_DECODE, NULL },
		{ "0200", VG_ERR_DECODE, VG_ERR_DECODE, NULL },     /* empty */
		{ "0201ff", VG_ERR_DECODE, VG_OK, "ff" },           /* -1 */
		{ "020180", VG_ERR_DECODE, VG_OK, "80" },           /* -128 */
		{ "0202ff7f", VG_ERR_DECODE, VG_OK, "ff7f" },       /* -129 */
		{ "0202ff80", VG_ERR_DECODE, VG_ERR_DECODE, NULL }, /* not minimal */
		{ "0201", VG_ERR_DECODE, VG_ERR_DECODE, NULL },
		{ "0401 01", VG_ERR_DECODE, VG_ERR_DECODE, NULL },  /* wrong tag */
	};
	uint8_t buf[64], want[64];
	struct vg_der c, m;
	size_t i, wl;
	uint32_t x;
	int s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (s = 0; s < 2; s++) {
			enum vg_err want_rc = s ? cases[i].rc_signed :
			    cases[i].rc;

			c = cur_hex(buf, sizeof buf, cases[i].hex);
			if (vg_der_get_integer(&c, &m, s ? VG_DER_INT_SIGNED :
			    0) != want_rc)
				fail_msg("case %zu (%s), signed %d",
				    i, cases[i].hex, s);
			if (want_rc != VG_OK)
				continue;
			wl = unhex(want, sizeof want, cases[i].mag);
			assert_int_equal(m.len, wl);
			assert_memory_equal(m.p, want, wl);
			assert_true(vg_der_at_end(&c));
		}
	}

	c = cur_hex(buf, sizeof buf, "020500ffffffff");
	assert_int_equal(vg_der_get_uint32(&c, &x), VG_OK);
	assert_int_equal(x, 0xffffffffu);
	c = cur_hex(buf, sizeof buf, "02050100000000");
	assert_int_equal(vg_der_get_uint32(&c, &x), VG_ERR_DECODE);
	assert_int_equal(c.len, 7);
	c = cur_hex(buf, sizeof buf, "0201ff");
	assert_int_equal(vg_der_get_uint32(&c, &x), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "020100");
	assert_int_equal(vg_der_get_uint32(&c, &x), VG_OK);
	assert_int_equal(x, 0);
}

static void
test_bit_string(void **state)
{
	uint8_t buf[64];
	struct vg_der c, b;
	unsigned u;

	(void)state;
	c = cur_hex(buf, sizeof buf, "030100");
	assert_int_equal(vg_der_get_bit_string(&c, &b, NULL), VG_OK);
	assert_int_equal(b.len, 0);
	c = cur_hex(buf, sizeof buf, "0302 00 a5");
	assert_int_equal(vg_der_get_bit_string(&c, &b, NULL), VG_OK);
	assert_int_equal(b.len, 1);
	assert_int_equal(b.p[0], 0xa5);
	/* Unused bits: refused where keys need whole bytes, exposed
	 * otherwise, and they must be zero. */
	c = cur_hex(buf, sizeof buf, "0302 01 a4");
	assert_int_equal(vg_der_get_bit_string(&c, &b, NULL), VG_ERR_DECODE);
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_OK);
	assert_int_equal(u, 1);
	assert_int_equal(b.len, 1);
	c = cur_hex(buf, sizeof buf, "0302 07 80");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_OK);
	assert_int_equal(u, 7);
	c = cur_hex(buf, sizeof buf, "0302 07 c0");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0302 01 a5");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0302 08 00");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0301 01");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0300");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0402 00 a5");
	assert_int_equal(vg_der_get_bit_string(&c, &b, &u), VG_ERR_DECODE);
}

static void
test_oid_null_optional(void **state)
{
	static const struct {
		const struct vg_der *oid;
		const char *txt;
	} oids[] = {
		{ &vg_oid_rsa_encryption, "1.2.840.113549.1.1.1" },
		{ &vg_oid_ec_public_key, "1.2.840.10045.2.1" },
		{ &vg_oid_prime256v1, "1.2.840.10045.3.1.7" },
		{ &vg_oid_ml_dsa_44, "2.16.840.1.101.3.4.3.17" },
		{ &vg_oid_ml_dsa_65, "2.16.840.1.101.3.4.3.18" },
		{ &vg_oid_ml_dsa_87, "2.16.840.1.101.3.4.3.19" },
		{ &vg_oid_sha1, "1.3.14.3.2.26" },
		{ &vg_oid_sha224, "2.16.840.1.101.3.4.2.4" },
		{ &vg_oid_sha256, "2.16.840.1.101.3.4.2.1" },
		{ &vg_oid_sha384, "2.16.840.1.101.3.4.2.2" },
		{ &vg_oid_sha512, "2.16.840.1.101.3.4.2.3" },
		{ &vg_oid_sha512_224, "2.16.840.1.101.3.4.2.5" },
		{ &vg_oid_sha512_256, "2.16.840.1.101.3.4.2.6" },
		{ &vg_oid_sha3_224, "2.16.840.1.101.3.4.2.7" },
		{ &vg_oid_sha3_256, "2.16.840.1.101.3.4.2.8" },
		{ &vg_oid_sha3_384, "2.16.840.1.101.3.4.2.9" },
		{ &vg_oid_sha3_512, "2.16.840.1.101.3.4.2.10" },
		{ &vg_oid_shake128, "2.16.840.1.101.3.4.2.11" },
		{ &vg_oid_shake256, "2.16.840.1.101.3.4.2.12" },
	};
	uint8_t buf[64], enc[64];
	struct vg_der c, v, o;
	size_t i, n;
	int present;

	(void)state;
	/* Our constants against OpenSSL's OID encoder, through our writer
	 * and reader. */
	for (i = 0; i < sizeof oids / sizeof oids[0]; i++) {
		ASN1_OBJECT *obj = OBJ_txt2obj(oids[i].txt, 1);
		unsigned char *der = NULL;
		int dl;

		assert_non_null(obj);
		dl = i2d_ASN1_OBJECT(obj, &der);
		n = vg_der_put_oid(enc, oids[i].oid);
		if ((size_t)dl != n || memcmp(der, enc, n) != 0)
			fail_msg("OID %s", oids[i].txt);
		c = vg_der_make(enc, n);
		assert_int_equal(vg_der_get_oid(&c, &o), VG_OK);
		assert_true(vg_der_oid_equal(&o, oids[i].oid));
		assert_true(i == 0 ||
		    !vg_der_oid_equal(&o, oids[i - 1].oid));
		OPENSSL_free(der);
		ASN1_OBJECT_free(obj);
	}

	c = cur_hex(buf, sizeof buf, "0601 2a");
	assert_int_equal(vg_der_get_oid(&c, &o), VG_OK);
	c = cur_hex(buf, sizeof buf, "0600");
	assert_int_equal(vg_der_get_oid(&c, &o), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0602 2a86"); /* incomplete */
	assert_int_equal(vg_der_get_oid(&c, &o), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0603 2a8001"); /* leading 0x80 */
	assert_int_equal(vg_der_get_oid(&c, &o), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0602 8001");
	assert_int_equal(vg_der_get_oid(&c, &o), VG_ERR_DECODE);
	c = cur_hex(buf, sizeof buf, "0603 2a8100"); /* 0x81 0x00 is fine */
	assert_int_equal(vg_der_get_oid(&c, &o), VG_OK);

	c = cur_hex(buf, sizeof buf, "0500");
	assert_int_equal(vg_der_get_null(&c), VG_OK);
	c = cur_hex(buf, sizeof buf, "050100");
	assert_int_equal(vg_der_get_null(&c), VG_ERR_DECODE);
	assert_int_equal(c.len, 3);
	c = cur_hex(buf, sizeof buf, "0501");
	assert_int_equal(vg_der_get_null(&c), VG_ERR_DECODE);

	/* EXPLICIT [0] present, [1] absent, then the end. */
	c = cur_hex(buf, sizeof buf, "a003 020101 0400");
	assert_int_equal(vg_der_get_optional(&c, VG_DER_CONTEXT(0), &v,
	    &present), VG_OK);
	assert_int_equal(present, 1);
	assert_int_equal(v.len, 3);
	assert_int_equal(vg_der_get_optional(&c, VG_DER_CONTEXT(1), &v,
	    &present), VG_OK);
	assert_int_equal(present, 0);
	assert_int_equal(v.len, 0);
	assert_int_equal(vg_der_get_octet_string(&c, &v), VG_OK);
	assert_int_equal(vg_der_get_optional(&c, VG_DER_CONTEXT(0), &v,
	    &present), VG_OK);
	assert_int_equal(present, 0);
	c = cur_hex(buf, sizeof buf, "a005 020101");
	assert_int_equal(vg_der_get_optional(&c, VG_DER_CONTEXT(0), &v,
	    &present), VG_ERR_DECODE);
	assert_int_equal(c.len, 5);
}

/* ------------------------------------------------------------ writer */

static void
check_put(size_t n, const uint8_t *got, const char *hex)
{
	uint8_t want[64];
	size_t wl = unhex(want, sizeof want, hex);

	if (n != wl || memcmp(got, want, wl) != 0)
		fail_msg("want %s", hex);
}

static void
test_writer(void **state)
{
	static const struct {
		size_t len;
		const char *hex;
	} hdrs[] = {
		{ 0, "3000" }, { 0x7f, "307f" }, { 0x80, "308180" },
		{ 0xff, "3081ff" }, { 0x100, "30820100" },
		{ 0xffff, "3082ffff" }, { 0x10000, "3083010000" },
		{ 0xffffff, "3083ffffff" }, { 0x1000000, "308401000000" },
		{ VG_DER_MAX_LEN, "30847fffffff" },
	};
	static const struct {
		const char *mag, *hex;
	} ints[] = {
		{ "", "020100" }, { "00", "020100" }, { "0000", "020100" },
		{ "0001", "020101" }, { "7f", "02017f" }, { "80", "02020080" },
		{ "000080", "02020080" }, { "0100", "02020100" },
		{ "ffff", "020300ffff" },
	};
	uint8_t buf[64], mag[64], out[64];
	size_t i, n, ml;
	struct vg_der c, m;

	(void)state;
	for (i = 0; i < sizeof hdrs / sizeof hdrs[0]; i++) {
		n = vg_der_put_sequence(NULL, hdrs[i].len);
		memset(out, 0xee, sizeof out);
		assert_int_equal(vg_der_put_sequence(out, hdrs[i].len), n);
		check_put(n, out, hdrs[i].hex);
		assert_int_equal(out[n], 0xee);
	}
	assert_int_equal(vg_der_put_sequence(NULL, VG_DER_MAX_LEN + 1), 0);
	assert_int_equal(vg_der_put_bit_string(NULL, buf, VG_DER_MAX_LEN), 0);
	assert_int_equal(vg_der_put_integer(NULL, (const uint8_t *)"\x80",
	    1), 4);

	for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		ml = unhex(mag, sizeof mag, ints[i].mag);
		n = vg_der_put_integer(NULL, mag, ml);
		assert_int_equal(vg_der_put_integer(out, mag, ml), n);
		check_put(n, out, ints[i].hex);
		/* In place: the magnitude already in the output buffer. */
		memcpy(out, mag, ml);
		assert_int_equal(vg_der_put_integer(out, out, ml), n);
		check_put(n, out, ints[i].hex);
	}
	check_put(vg_der_put_uint32(out, 0), out, "020100");
	check_put(vg_der_put_uint32(out, 1), out, "020101");
	check_put(vg_der_put_uint32(out, 128), out, "02020080");
	check_put(vg_der_put_uint32(out, 0xffffffff), out, "020500ffffffff");
	check_put(vg_der_put_null(out), out, "0500");
	check_put(vg_der_put_octet_string(out, "\x01\x02", 2), out,
	    "04020102");
	check_put(vg_der_put_octet_string(out, NULL, 0), out, "0400");
	check_put(vg_der_put_bit_string(out, "\xa5", 1), out, "030200a5");
	check_put(vg_der_put_bit_string(out, NULL, 0), out, "030100");
	check_put(vg_der_put_tlv(out, VG_DER_CONTEXT(1), "\x05\x00", 2), out,
	    "a1020500");
	check_put(vg_der_put_oid(out, &vg_oid_prime256v1), out,
	    "06082a8648ce3d030107");

	/* Round trips of random magnitudes, with leading zeros. */
	srand(1);
	for (i = 0; i < 2000; i++) {
		size_t j, lead = (size_t)rand() % 3, s;

		ml = (size_t)rand() % 40;
		for (j = 0; j < ml; j++)
			mag[j] = j < lead ? 0 : (uint8_t)rand();
		n = vg_der_put_integer(out, mag, ml);
		c = vg_der_make(out, n);
		assert_int_equal(vg_der_get_integer(&c, &m, 0), VG_OK);
		assert_true(vg_der_at_end(&c));
		for (s = 0; s < ml && mag[s] == 0; s++)
			;
		if (s == ml) {
			assert_int_equal(m.len, 1);
			assert_int_equal(m.p[0], 0);
		} else {
			assert_int_equal(m.len, ml - s);
			assert_memory_equal(m.p, mag + s, ml - s);
		}
	}
}

/* ------------------------------------------------------ OpenSSL keys */

/* Parses OpenSSL's RSA encodings and compares with the key's numbers;
 * builds them with ours and reads them back with OpenSSL. */
static void
check_rsa_key(EVP_PKEY *pk)
{
	static const char *const names[8] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E,
		OSSL_PKEY_PARAM_RSA_D, OSSL_PKEY_PARAM_RSA_FACTOR1,
		OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1,
		OSSL_PKEY_PARAM_RSA_EXPONENT2,
		OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
	};
	uint8_t *spki, *priv, *p8, *mine, *inner;
	size_t spki_len, priv_len, p8_len, n, need, inner_len;
	struct vg_der_algid alg;
	struct vg_der key, cp;
	struct vg_der_rsa_pub pub;
	struct vg_der_rsa_priv rk;
	struct vg_der_pkcs8 k8;
	const struct vg_der *fields[8];
	BIGNUM *bn;
	EVP_PKEY *back;
	size_t i;

	I2D(i2d_PUBKEY, pk, &spki, &spki_len);
	I2D(i2d_PrivateKey, pk, &priv, &priv_len);
	I2D(i2d_pkcs8_of, pk, &p8, &p8_len);

	/* SubjectPublicKeyInfo. */
	assert_int_equal(vg_der_parse_spki(spki, spki_len, &alg, &key), VG_OK);
	assert_true(vg_der_oid_equal(&alg.oid, &vg_oid_rsa_encryption));
	cp = alg.params;
	assert_int_equal(vg_der_get_null(&cp), VG_OK);
	assert_true(vg_der_at_end(&cp));
	assert_int_equal(vg_der_parse_rsa_public(key.p, key.len, &pub), VG_OK);
	bn = get_bn(pk, OSSL_PKEY_PARAM_RSA_N);
	assert_mag_bn(&pub.n, bn);
	BN_free(bn);
	bn = get_bn(pk, OSSL_PKEY_PARAM_RSA_E);
	assert_mag_bn(&pub.e, bn);
	BN_free(bn);

	/* RSAPrivateKey (i2d_PrivateKey writes PKCS #1 for RSA). */
	assert_int_equal(vg_der_parse_rsa_private(priv, priv_len, &rk), VG_OK);
	fields[0] = &rk.n, fields[1] = &rk.e, fields[2] = &rk.d;
	fields[3] = &rk.p, fields[4] = &rk.q, fields[5] = &rk.dp;
	fields[6] = &rk.dq, fields[7] = &rk.qinv;
	for (i = 0; i < 8; i++) {
		bn = get_bn(pk, names[i]);
		assert_mag_bn(fields[i], bn);
		BN_free(bn);
	}

	/* PKCS #8 around it. */
	assert_int_equal(vg_der_parse_pkcs8(p8, p8_len, &k8), VG_OK);
	assert_int_equal(k8.version, 0);
	assert_true(vg_der_oid_equal(&k8.alg.oid, &vg_oid_rsa_encryption));
	assert_int_equal(k8.alg.params.len, 2);
	assert_int_equal(k8.key.len, priv_len);
	assert_memory_equal(k8.key.p, priv, priv_len);
	assert_int_equal(k8.pub.len, 0);

	/* Build each with ours: byte-equal to OpenSSL, and read back. */
	need = 0;
	assert_int_equal(vg_der_build_rsa_public(NULL, &need, &pub), VG_OK);
	inner = malloc(need);
	inner_len = need;
	assert_int_equal(vg_der_build_rsa_public(inner, &inner_len, &pub),
	    VG_OK);
	assert_int_equal(inner_len, need);
	need = 0;
	assert_int_equal(vg_der_build_spki(NULL, &need, &alg, inner,
	    inner_len), VG_OK);
	assert_int_equal(need, spki_len);
	mine = malloc(need);
	n = need;
	assert_int_equal(vg_der_build_spki(mine, &n, &alg, inner, inner_len),
	    VG_OK);
	assert_memory_equal(mine, spki, spki_len);
	back = d2i_pubkey_of(mine, n);
	assert_int_equal(EVP_PKEY_eq(back, pk), 1);
	EVP_PKEY_free(back);
	free(mine);
	free(inner);

	need = 0;
	assert_int_equal(vg_der_build_rsa_private(NULL, &need, &rk), VG_OK);
	assert_int_equal(need, priv_len);
	inner = malloc(need);
	inner_len = need;
	assert_int_equal(vg_der_build_rsa_private(inner, &inner_len, &rk),
	    VG_OK);
	assert_memory_equal(inner, priv, priv_len);
	need = 0;
	assert_int_equal(vg_der_build_pkcs8(NULL, &need, &k8.alg, inner,
	    inner_len), VG_OK);
	assert_int_equal(need, p8_len);
	mine = malloc(need);
	n = need;
	assert_int_equal(vg_der_build_pkcs8(mine, &n, &k8.alg, inner,
	    inner_len), VG_OK);
	assert_memory_equal(mine, p8, p8_len);
	back = d2i_pkcs8_of(mine, n);
	assert_int_equal(EVP_PKEY_eq(back, pk), 1);
	bn = get_bn(back, OSSL_PKEY_PARAM_RSA_D);
	assert_mag_bn(&rk.d, bn);
	BN_free(bn);
	EVP_PKEY_free(back);
	free(mine);
	free(inner);

	/* Every parser on every prefix, and with trailing bytes. */
	for (i = 0; i < 3; i++) {
		const uint8_t *e = i == 0 ? spki : i == 1 ? priv : p8;
		size_t el = i == 0 ? spki_len : i == 1 ? priv_len : p8_len;
		uint8_t *q;

		for (n = 0; n < el; n++) {
			q = exact(e, n);
			assert_int_equal(parse_all(q, n), 0);
			free(q);
		}
		q = malloc(el + 2);
		memcpy(q, e, el);
		q[el] = 0x05, q[el + 1] = 0x00;
		assert_int_equal(parse_all(q, el + 1), 0);
		assert_int_equal(parse_all(q, el + 2), 0);
		assert_int_equal(parse_all(q, el), 1);
		free(q);
	}
	free(spki);
	free(priv);
	free(p8);
}

static void
test_rsa_openssl(void **state)
{
	static const unsigned bits[] = { 2048, 1024, 1024, 1536 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		EVP_PKEY *pk = EVP_RSA_gen(bits[i]);

		assert_non_null(pk);
		check_rsa_key(pk);
		EVP_PKEY_free(pk);
	}
}

static void
check_ec_key(EVP_PKEY *pk)
{
	uint8_t *spki, *priv, *p8, *mine, *inner, point[65], scalar[32];
	size_t spki_len, priv_len, p8_len, n, need, plen, inner_len;
	struct vg_der_algid alg;
	struct vg_der key, oid;
	struct vg_der_ec_priv ek, ek8;
	struct vg_der_pkcs8 k8;
	enum vg_der_curve curve;
	BIGNUM *bn;
	EVP_PKEY *back;
	size_t i;

	I2D(i2d_PUBKEY, pk, &spki, &spki_len);
	I2D(i2d_PrivateKey, pk, &priv, &priv_len);
	I2D(i2d_pkcs8_of, pk, &p8, &p8_len);
	assert_int_equal(EVP_PKEY_get_octet_string_param(pk,
	    OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &plen), 1);
	assert_int_equal(plen, 65);
	bn = get_bn(pk, OSSL_PKEY_PARAM_PRIV_KEY);
	assert_int_equal(BN_bn2binpad(bn, scalar, 32), 32);
	BN_free(bn);

	/* SPKI: id-ecPublicKey, namedCurve prime256v1, the point. */
	assert_int_equal(vg_der_parse_spki(spki, spki_len, &alg, &key), VG_OK);
	assert_true(vg_der_oid_equal(&alg.oid, &vg_oid_ec_public_key));
	assert_int_equal(vg_der_parse_ec_params(alg.params.p, alg.params.len,
	    &curve, &oid), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_P256);
	assert_true(vg_der_oid_equal(&oid, &vg_oid_prime256v1));
	assert_int_equal(key.len, 65);
	assert_memory_equal(key.p, point, 65);

	/* ECPrivateKey with [0] parameters and [1] public key. */
	assert_int_equal(vg_der_parse_ec_private(priv, priv_len, &ek), VG_OK);
	assert_int_equal(ek.priv.len, 32);
	assert_memory_equal(ek.priv.p, scalar, 32);
	assert_int_equal(ek.params.len, alg.params.len);
	assert_memory_equal(ek.params.p, alg.params.p, alg.params.len);
	assert_int_equal(ek.pub.len, 65);
	assert_memory_equal(ek.pub.p, point, 65);

	/* PKCS #8: parameters in the AlgorithmIdentifier. */
	assert_int_equal(vg_der_parse_pkcs8(p8, p8_len, &k8), VG_OK);
	assert_int_equal(k8.version, 0);
	assert_true(vg_der_oid_equal(&k8.alg.oid, &vg_oid_ec_public_key));
	assert_int_equal(vg_der_parse_ec_params(k8.alg.params.p,
	    k8.alg.params.len, &curve, NULL), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_P256);
	assert_int_equal(vg_der_parse_ec_private(k8.key.p, k8.key.len, &ek8),
	    VG_OK);
	assert_memory_equal(ek8.priv.p, scalar, 32);

	/* Build with ours. */
	need = 0;
	assert_int_equal(vg_der_build_spki(NULL, &need, &alg, point, 65),
	    VG_OK);
	assert_int_equal(need, spki_len);
	mine = malloc(need);
	n = need;
	assert_int_equal(vg_der_build_spki(mine, &n, &alg, point, 65), VG_OK);
	assert_memory_equal(mine, spki, spki_len);
	back = d2i_pubkey_of(mine, n);
	assert_int_equal(EVP_PKEY_eq(back, pk), 1);
	EVP_PKEY_free(back);
	free(mine);

	need = 0;
	assert_int_equal(vg_der_build_ec_private(NULL, &need, &ek), VG_OK);
	assert_int_equal(need, priv_len);
	mine = malloc(need);
	n = need;
	assert_int_equal(vg_der_build_ec_private(mine, &n, &ek), VG_OK);
	assert_memory_equal(mine, priv, priv_len);
	free(mine);

	/* PKCS #8 of our ECPrivateKey without [0] (as OpenSSL does). */
	ek8.params.p = NULL, ek8.params.len = 0;
	need = 0;
	assert_int_equal(vg_der_build_ec_private(NULL, &need, &ek8), VG_OK);
	inner = malloc(need);
	inner_len = need;
	assert_int_equal(vg_der_build_ec_private(inner, &inner_len, &ek8),
	    VG_OK);
	assert_int_equal(inner_len, k8.key.len);
	assert_memory_equal(inner, k8.key.p, inner_len);
	need = 0;
	assert_int_equal(vg_der_build_pkcs8(NULL, &need, &k8.alg, inner,
	    inner_len), VG_OK);
	mine = malloc(need);
	n = need;
	assert_int_equal(vg_der_build_pkcs8(mine, &n, &k8.alg, inner,
	    inner_len), VG_OK);
	assert_int_equal(n, p8_len);
	assert_memory_equal(mine, p8, p8_len);
	back = d2i_pkcs8_of(mine, n);
	assert_int_equal(EVP_PKEY_eq(back, pk), 1);
	EVP_PKEY_free(back);
	free(mine);
	free(inner);

	for (i = 0; i < 3; i++) {
		const uint8_t *e = i == 0 ? spki : i == 1 ? priv : p8;
		size_t el = i == 0 ? spki_len : i == 1 ? priv_len : p8_len;
		uint8_t *q;

		for (n = 0; n < el; n++) {
			q = exact(e, n);
			assert_int_equal(parse_all(q, n), 0);
			free(q);
		}
		q = malloc(el + 1);
		memcpy(q, e, el);
		q[el] = 0x00;
		assert_int_equal(parse_all(q, el + 1), 0);
		free(q);
	}
	free(spki);
	free(priv);
	free(p8);
}

static void
test_ec_openssl(void **state)
{
	EVP_PKEY *pk;
	uint8_t *spki, *priv;
	size_t spki_len, priv_len;
	struct vg_der_algid alg;
	struct vg_der key;
	struct vg_der_ec_priv ek;
	enum vg_der_curve curve;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		pk = EVP_EC_gen("P-256");
		assert_non_null(pk);
		check_ec_key(pk);
		EVP_PKEY_free(pk);
	}

	/* The same key with explicit curve parameters: well-formed, refused
	 * with VG_ERR_ARG rather than VG_ERR_DECODE. */
	pk = EVP_EC_gen("P-256");
	assert_non_null(pk);
	assert_int_equal(EVP_PKEY_set_utf8_string_param(pk,
	    OSSL_PKEY_PARAM_EC_ENCODING, OSSL_PKEY_EC_ENCODING_EXPLICIT), 1);
	I2D(i2d_PUBKEY, pk, &spki, &spki_len);
	I2D(i2d_PrivateKey, pk, &priv, &priv_len);
	assert_int_equal(vg_der_parse_spki(spki, spki_len, &alg, &key), VG_OK);
	assert_int_equal(alg.params.p[0], VG_DER_SEQUENCE);
	assert_int_equal(vg_der_parse_ec_params(alg.params.p, alg.params.len,
	    &curve, NULL), VG_ERR_ARG);
	assert_int_equal(vg_der_parse_ec_private(priv, priv_len, &ek), VG_OK);
	assert_int_equal(vg_der_parse_ec_params(ek.params.p, ek.params.len,
	    &curve, NULL), VG_ERR_ARG);
	free(spki);
	free(priv);
	EVP_PKEY_free(pk);
}

/* ------------------------------------------------ hand-made structures */

static enum vg_err
parse_hex(const char *what, const char *hex)
{
	uint8_t buf[256], *q;
	size_t n = unhex(buf, sizeof buf, hex);
	struct vg_der_algid alg;
	struct vg_der key, oid;
	struct vg_der_pkcs8 p8;
	struct vg_der_rsa_pub rpub;
	struct vg_der_rsa_priv rpriv;
	struct vg_der_ec_priv ec;
	enum vg_der_curve curve;
	enum vg_err rc;

	q = exact(buf, n);
	if (strcmp(what, "spki") == 0)
		rc = vg_der_parse_spki(q, n, &alg, &key);
	else if (strcmp(what, "pkcs8") == 0)
		rc = vg_der_parse_pkcs8(q, n, &p8);
	else if (strcmp(what, "rsapub") == 0)
		rc = vg_der_parse_rsa_public(q, n, &rpub);
	else if (strcmp(what, "rsapriv") == 0)
		rc = vg_der_parse_rsa_private(q, n, &rpriv);
	else if (strcmp(what, "ecpriv") == 0)
		rc = vg_der_parse_ec_private(q, n, &ec);
	else if (strcmp(what, "p11params") == 0)
		rc = vg_der_parse_p11_ec_params(q, n, &curve);
	else
		rc = vg_der_parse_ec_params(q, n, &curve, &oid);
	free(q);
	return rc;
}

static void
test_malformed_structures(void **state)
{
	static const struct {
		const char *what, *hex;
		enum vg_err rc;
	} cases[] = {
		/* SPKI: algid { 1.2.840.113549.1.1.1, NULL }, key bits. */
		{ "spki", "3011 300d 06092a864886f70d010101 0500 0300", VG_ERR_DECODE },
		{ "spki", "3012 300d 06092a864886f70d010101 0500 030100", VG_OK },
		{ "spki", "3010 300b 06092a864886f70d010101 030100", VG_OK },
		{ "spki", "3012 300d 06092a864886f70d010101 0500 040100", VG_ERR_DECODE },
		{ "spki", "3013 300d 06092a864886f70d010101 0500 03020100", VG_ERR_DECODE },
		{ "spki", "3014 300f 06092a864886f70d010101 0500 0500 030100", VG_ERR_DECODE },
		{ "spki", "3015 300d 06092a864886f70d010101 0500 030100 020100", VG_ERR_DECODE },
		{ "spki", "3012 300d 06092a864886f70d010101 0500 030100 00", VG_ERR_DECODE },
		{ "spki", "3080 300d 06092a864886f70d010101 0500 030100 0000", VG_ERR_DECODE },
		{ "spki", "308112 300d 06092a864886f70d010101 0500 030100", VG_ERR_DECODE },
		{ "spki", "3005 3000 030100", VG_ERR_DECODE },  /* no OID */
		{ "spki", "3008 3003 020100 030100", VG_ERR_DECODE },
		/* PKCS #8: version, algid, key, [0] attributes, [1] pub. */
		{ "pkcs8", "3014 020100 300d 06092a864886f70d010101 0500 0400", VG_OK },
		{ "pkcs8", "3014 020101 300d 06092a864886f70d010101 0500 0400", VG_OK },
		{ "pkcs8", "3014 020102 300d 06092a864886f70d010101 0500 0400", VG_ERR_DECODE },
		{ "pkcs8", "3014 0201ff 300d 06092a864886f70d010101 0500 0400", VG_ERR_DECODE },
		{ "pkcs8", "3015 02020000 300d 06092a864886f70d010101 0500 0400", VG_ERR_DECODE },
		{ "pkcs8", "3018 020100 300d 06092a864886f70d010101 0500 0400 a0023100", VG_OK },
		{ "pkcs8", "3019 020101 300d 06092a864886f70d010101 0500 0400 8103000102", VG_OK },
		{ "pkcs8", "301d 020101 300d 06092a864886f70d010101 0500 0400 a0023100 8103000102", VG_OK },
		{ "pkcs8", "301d 020101 300d 06092a864886f70d010101 0500 0400 8103000102 a0023100", VG_ERR_DECODE },
		{ "pkcs8", "3019 020100 300d 06092a864886f70d010101 0500 0400 8103000102", VG_ERR_DECODE },
		{ "pkcs8", "3019 020101 300d 06092a864886f70d010101 0500 0400 8103010102", VG_ERR_DECODE },
		{ "pkcs8", "3014 020100 300d 06092a864886f70d010101 0500 0300", VG_ERR_DECODE },
		{ "pkcs8", "3012 020100 300d 06092a864886f70d010101 0500", VG_ERR_DECODE },
		/* RSAPublicKey { n, e }. */
		{ "rsapub", "3007 020200c1 020103", VG_OK },
		{ "rsapub", "3007 020280c1 020103", VG_ERR_DECODE },  /* n < 0 */
		{ "rsapub", "3008 020200c1 02020003", VG_ERR_DECODE },
		{ "rsapub", "3003 020103", VG_ERR_DECODE },
		{ "rsapub", "300a 020200c1 020103 020101", VG_ERR_DECODE },
		{ "rsapub", "3107 020200c1 020103", VG_ERR_DECODE },
		/* RSAPrivateKey { 0, n, e, d, p, q, dp, dq, qinv }. */
		{ "rsapriv", "301b 020100 020137 020103 020117 020105 02010b 020101 020103 020102", VG_OK },
		{ "rsapriv", "301b 020101 020137 020103 020117 020105 02010b 020101 020103 020102", VG_ERR_DECODE },
		{ "rsapriv", "3018 020100 020137 020103 020117 020105 02010b 020101 020103", VG_ERR_DECODE },
		{ "rsapriv", "301e 020100 020137 020103 020117 020105 02010b 020101 020103 020102 020101", VG_ERR_DECODE },
		{ "rsapriv", "301b 020100 020137 020103 0201f7 020105 02010b 020101 020103 020102", VG_ERR_DECODE },
		{ "rsapriv", "301c 020100 020137 020103 02020017 020105 02010b 020101 020103 020102", VG_ERR_DECODE },
		/* ECPrivateKey { 1, priv, [0] params, [1] pub }. */
		{ "ecpriv", "3008 020101 0403010203", VG_OK },
		{ "ecpriv", "3008 020100 0403010203", VG_ERR_DECODE },
		{ "ecpriv", "3014 020101 0403010203 a00a 06082a8648ce3d030107", VG_OK },
		{ "ecpriv", "300f 020101 0403010203 a105 0303000405", VG_OK },
		{ "ecpriv", "301b 020101 0403010203 a00a 06082a8648ce3d030107 a105 0303000405", VG_OK },
		{ "ecpriv", "301b 020101 0403010203 a105 0303000405 a00a 06082a8648ce3d030107", VG_ERR_DECODE },
		{ "ecpriv", "3016 020101 0403010203 a00c 06082a8648ce3d030107 0500", VG_ERR_DECODE },
		{ "ecpriv", "300f 020101 0403010203 a105 0303010405", VG_ERR_DECODE },
		{ "ecpriv", "3011 020101 0403010203 a107 0303000405 0500", VG_ERR_DECODE },
		{ "ecpriv", "300e 020101 0403010203 a000 a100 0500", VG_ERR_DECODE },
		{ "ecpriv", "300a 020101 0403010203 a000", VG_ERR_DECODE },
		/* ECParameters. */
		{ "ecparams", "06082a8648ce3d030107", VG_OK },
		{ "ecparams", "06052b81040022", VG_OK },              /* P-384 */
		{ "ecparams", "0500", VG_ERR_ARG },                    /* implicit */
		{ "ecparams", "3003 020101", VG_ERR_ARG },             /* explicit */
		{ "ecparams", "3003 0201", VG_ERR_DECODE },
		{ "ecparams", "3003 020101 00", VG_ERR_DECODE },
		{ "ecparams", "06082a8648ce3d030107 0500", VG_ERR_DECODE },
		{ "ecparams", "06082a8648ce3d0301", VG_ERR_DECODE },
		{ "ecparams", "0400", VG_ERR_DECODE },
		{ "ecparams", "", VG_ERR_DECODE },
		{ "ecparams", "130a 7072696d6532353676 31", VG_ERR_DECODE },
		/* CKA_EC_PARAMS: the same, and the curveName PrintableString. */
		{ "p11params", "06082a8648ce3d030107", VG_OK },
		{ "p11params", "3003 020101", VG_ERR_ARG },
		{ "p11params", "130a 7072696d6532353676 31", VG_OK },
		{ "p11params", "1309 7365637032353672 31", VG_OK },
		{ "p11params", "1305 502d323536", VG_OK },
		{ "p11params", "1300", VG_OK },                       /* no name */
		{ "p11params", "130a 7072696d6532353676 31 00", VG_ERR_DECODE },
		{ "p11params", "130a 7072696d655f353676 31", VG_ERR_DECODE }, /* _ */
		{ "p11params", "130b 7072696d6532353676 31", VG_ERR_DECODE },
		{ "p11params", "0c0a 7072696d6532353676 31", VG_ERR_DECODE }, /* UTF8 */
	};
	uint8_t buf[64];
	struct vg_der oid;
	enum vg_der_curve curve;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (parse_hex(cases[i].what, cases[i].hex) != cases[i].rc)
			fail_msg("case %zu: %s %s", i, cases[i].what,
			    cases[i].hex);

	n = unhex(buf, sizeof buf, "06052b81040022");
	assert_int_equal(vg_der_parse_ec_params(buf, n, &curve, &oid), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_UNKNOWN);
	assert_int_equal(oid.len, 5);
	/* The curve each CKA_EC_PARAMS form names. */
	n = unhex(buf, sizeof buf, "130a7072696d6532353676 31");
	assert_int_equal(vg_der_parse_p11_ec_params(buf, n, &curve), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_P256);
	n = unhex(buf, sizeof buf, "1305502d323536");
	assert_int_equal(vg_der_parse_p11_ec_params(buf, n, &curve), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_P256);
	n = unhex(buf, sizeof buf, "1309736563703338347231"); /* secp384r1 */
	assert_int_equal(vg_der_parse_p11_ec_params(buf, n, &curve), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_UNKNOWN);
	n = unhex(buf, sizeof buf, "1305702d323536"); /* names are exact */
	assert_int_equal(vg_der_parse_p11_ec_params(buf, n, &curve), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_UNKNOWN);
	n = unhex(buf, sizeof buf, "06082a8648ce3d030107");
	assert_int_equal(vg_der_parse_p11_ec_params(buf, n, &curve), VG_OK);
	assert_int_equal(curve, VG_DER_CURVE_P256);
}

static void
test_builder_errors(void **state)
{
	uint8_t out[64], key[4] = { 1, 2, 3, 4 };
	uint8_t bad_params[2] = { 0x05, 0x01 };
	struct vg_der_algid alg = { vg_oid_rsa_encryption, { NULL, 0 } };
	struct vg_der_ec_priv ek;
	struct vg_der_rsa_pub rp;
	size_t n, need;

	(void)state;
	need = 0;
	assert_int_equal(vg_der_build_spki(NULL, &need, &alg, key, 4), VG_OK);
	assert_int_equal(need, 2 + 13 + 7);
	/* Short by one: VG_ERR_LENGTH, the size reported, nothing written. */
	memset(out, 0xee, sizeof out);
	n = need - 1;
	assert_int_equal(vg_der_build_spki(out, &n, &alg, key, 4),
	    VG_ERR_LENGTH);
	assert_int_equal(n, need);
	assert_int_equal(out[0], 0xee);
	n = need;
	assert_int_equal(vg_der_build_spki(out, &n, &alg, key, 4), VG_OK);
	assert_int_equal(n, need);
	assert_int_equal(parse_all(out, n), 1);

	assert_int_equal(vg_der_build_spki(out, NULL, &alg, key, 4),
	    VG_ERR_ARG);
	assert_int_equal(vg_der_build_spki(out, &n, NULL, key, 4),
	    VG_ERR_ARG);
	n = sizeof out;
	assert_int_equal(vg_der_build_spki(out, &n, &alg, NULL, 4),
	    VG_ERR_ARG);
	alg.params = vg_der_make(bad_params, 2);
	assert_int_equal(vg_der_build_spki(out, &n, &alg, key, 4),
	    VG_ERR_ARG);
	assert_int_equal(vg_der_build_pkcs8(out, &n, &alg, key, 4),
	    VG_ERR_ARG);
	alg.oid.len = 0;
	alg.params.len = 0;
	assert_int_equal(vg_der_build_spki(out, &n, &alg, key, 4),
	    VG_ERR_ARG);
#if SIZE_MAX > 0xffffffffu
	alg.oid = vg_oid_rsa_encryption;
	n = sizeof out;
	assert_int_equal(vg_der_build_spki(out, &n, &alg, key,
	    VG_DER_MAX_LEN), VG_ERR_ARG);
#endif

	n = 3;
	assert_int_equal(vg_der_build_ec_params(out, &n, &vg_oid_prime256v1),
	    VG_ERR_LENGTH);
	assert_int_equal(n, 10);
	assert_int_equal(vg_der_build_ec_params(out, &n, &vg_oid_prime256v1),
	    VG_OK);
	assert_int_equal(parse_all(out, n), 1);

	memset(&ek, 0, sizeof ek);
	ek.priv = vg_der_make(key, 4);
	n = sizeof out;
	assert_int_equal(vg_der_build_ec_private(out, &n, &ek), VG_OK);
	check_put(n, out, "3009 020101 040401020304");
	ek.params = vg_der_make(bad_params, 2);
	assert_int_equal(vg_der_build_ec_private(out, &n, &ek), VG_ERR_ARG);

	rp.e = vg_der_make(key, 1);
	rp.n.p = NULL, rp.n.len = 3;
	n = sizeof out;
	assert_int_equal(vg_der_build_rsa_public(out, &n, &rp), VG_ERR_ARG);
	assert_int_equal(vg_der_build_rsa_public(out, &n, NULL), VG_ERR_ARG);
	assert_int_equal(vg_der_build_rsa_private(out, &n, NULL), VG_ERR_ARG);
	rp.n = vg_der_make(key, 0); /* zero */
	assert_int_equal(vg_der_build_rsa_public(out, &n, &rp), VG_OK);
	check_put(n, out, "3006 020100 020101");
}

/* ------------------------------------------------------------ random */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t
xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 32);
}

/* 100000 inputs, fixed seed: random bytes biased toward DER-looking
 * headers, and mutations of a real key encoding. No crash, no read
 * outside the buffer (run under ASan or valgrind), every output cursor
 * inside the input. */
static void
test_random(void **state)
{
	static const uint8_t alphabet[] = {
		0x30, 0x02, 0x03, 0x04, 0x05, 0x06, 0xa0, 0xa1, 0x81, 0x00,
		0x01, 0x80, 0x82, 0x84, 0xff, 0x7f, 0x2a, 0x31,
	};
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	uint8_t *seedenc[3], buf[512], *q;
	size_t seedlen[3], i, n, j, accepted = 0;

	(void)state;
	assert_non_null(pk);
	I2D(i2d_PUBKEY, pk, &seedenc[0], &seedlen[0]);
	I2D(i2d_PrivateKey, pk, &seedenc[1], &seedlen[1]);
	I2D(i2d_pkcs8_of, pk, &seedenc[2], &seedlen[2]);
	EVP_PKEY_free(pk);

	for (i = 0; i < 100000; i++) {
		if (i % 2 == 0) {
			n = xorshift() % 80;
			for (j = 0; j < n; j++)
				buf[j] = (xorshift() & 3) ? alphabet[xorshift() %
				    sizeof alphabet] : (uint8_t)xorshift();
		} else {
			size_t k = xorshift() % 3, flips = 1 + xorshift() % 4;

			n = seedlen[k];
			memcpy(buf, seedenc[k], n);
			for (j = 0; j < flips; j++) {
				size_t at = xorshift() % n;

				if (xorshift() & 1)
					buf[at] ^= (uint8_t)(1u << (xorshift() % 8));
				else
					buf[at] = alphabet[xorshift() %
					    sizeof alphabet];
			}
			if ((xorshift() & 7) == 0)
				n = xorshift() % (n + 1);
		}
		q = exact(buf, n);
		accepted += (size_t)parse_all(q, n);
		free(q);
	}
	/* Some mutations keep a valid structure (a flipped bit in a key). */
	assert_true(accepted > 0);
	for (i = 0; i < 3; i++)
		free(seedenc[i]);
}

/*
 * ML-DSA-PrivateKey [RFC 9881 §6]: each arm of the CHOICE read by its
 * tag and written back byte for byte, and the ways it can be malformed.
 */
static void
test_mldsa_private(void **state)
{
	static const struct {
		const char *hex;
		size_t seed, sk;         /* lengths; SIZE_MAX: refused */
	} cases[] = {
		{ "80 02 aabb", 2, 0 },                  /* seed [0] */
		{ "04 03 010203", 0, 3 },                /* expandedKey */
		{ "30 07 04 01 aa 04 02 0102", 1, 2 },   /* both */
		{ "a0 02 aabb", SIZE_MAX, 0 },           /* [0] constructed */
		{ "81 02 aabb", SIZE_MAX, 0 },           /* [1] */
		{ "30 03 04 01 aa", SIZE_MAX, 0 },       /* both, no key */
		{ "30 09 04 01 aa 04 02 0102 05 00", SIZE_MAX, 0 },
		{ "80 02 aabb 00", SIZE_MAX, 0 },        /* trailing byte */
		{ "80 03 aabb", SIZE_MAX, 0 },           /* truncated */
		{ "30 07 80 01 aa 04 02 0102", SIZE_MAX, 0 }, /* tagged seed */
		{ "", SIZE_MAX, 0 },
	};
	struct vg_der_mldsa_priv k, k2;
	uint8_t buf[64], out[64], *q;
	size_t i, n, len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = unhex(buf, sizeof buf, cases[i].hex);
		q = exact(buf, n);
		if (cases[i].seed == SIZE_MAX) {
			if (vg_der_parse_mldsa_private(q, n, &k) != VG_ERR_DECODE)
				fail_msg("case %zu: %s accepted", i,
				    cases[i].hex);
			assert_int_equal(k.seed.len + k.sk.len, 0);
			free(q);
			continue;
		}
		assert_int_equal(vg_der_parse_mldsa_private(q, n, &k), VG_OK);
		assert_int_equal(k.seed.len, cases[i].seed);
		assert_int_equal(k.sk.len, cases[i].sk);
		check_within(&k.seed, q, n);
		check_within(&k.sk, q, n);
		/* written back the same */
		len = 0;
		assert_int_equal(vg_der_build_mldsa_private(NULL, &len, &k),
		    VG_OK);
		assert_int_equal(len, n);
		len = n - 1;
		assert_int_equal(vg_der_build_mldsa_private(out, &len, &k),
		    VG_ERR_LENGTH);
		assert_int_equal(len, n);
		len = sizeof out;
		assert_int_equal(vg_der_build_mldsa_private(out, &len, &k),
		    VG_OK);
		assert_int_equal(len, n);
		assert_memory_equal(out, q, n);
		assert_int_equal(vg_der_parse_mldsa_private(out, len, &k2),
		    VG_OK);
		free(q);
	}
	/* a key of FIPS 204's largest size has a long-form length */
	{
		static uint8_t seed[32], sk[4896], big[5000];

		memset(sk, 0x5a, sizeof sk);
		k.seed = vg_der_make(seed, sizeof seed);
		k.sk = vg_der_make(sk, sizeof sk);
		len = sizeof big;
		assert_int_equal(vg_der_build_mldsa_private(big, &len, &k),
		    VG_OK);
		assert_int_equal(len, 4 + 34 + 4 + sizeof sk);
		assert_int_equal(big[0], 0x30);
		assert_int_equal(vg_der_parse_mldsa_private(big, len, &k2),
		    VG_OK);
		assert_int_equal(k2.sk.len, sizeof sk);
		assert_int_equal(k2.seed.len, sizeof seed);
	}
	/* nothing to write */
	memset(&k, 0, sizeof k);
	len = sizeof out;
	assert_int_equal(vg_der_build_mldsa_private(out, &len, &k),
	    VG_ERR_ARG);
	k.seed.len = 3;
	assert_int_equal(vg_der_build_mldsa_private(out, &len, &k),
	    VG_ERR_ARG);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_rules),
		cmocka_unit_test(test_integer),
		cmocka_unit_test(test_bit_string),
		cmocka_unit_test(test_oid_null_optional),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_rsa_openssl),
		cmocka_unit_test(test_ec_openssl),
		cmocka_unit_test(test_malformed_structures),
		cmocka_unit_test(test_builder_errors),
		cmocka_unit_test(test_mldsa_private),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("der", tests, NULL, NULL);
}
