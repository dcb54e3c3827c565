/*
 * Base64 and PEM: the RFC 4648 §10 vectors, every byte value as a
 * character against a plain reference decoder, strictness (padding,
 * non-canonical bits, characters outside the alphabet), sizes and room,
 * PEM framing (explanatory text, headers, several blocks, CRLF, malformed
 * frames) and round trips of random data through both.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/pem.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* A copy in a buffer of exactly n bytes, so that ASan sees any read past
 * the end (the functions take lengths, not NUL-terminated strings). */
static char *
exact(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);

	assert_non_null(p);
	if (n != 0)
		memcpy(p, s, n);
	return p;
}

/* Decodes s (a C string) into out; returns the result, *n the length. */
static enum vg_err
dec(const char *s, uint8_t *out, size_t room, size_t *n)
{
	size_t len = strlen(s);
	char *in = exact(s, len);
	enum vg_err e;

	*n = room;
	e = vg_base64_decode(out, n, in, len);
	free(in);
	return e;
}

static void
expect_bad(const char *s)
{
	uint8_t out[64];
	size_t n, i;

	memset(out, 0xa5, sizeof(out));
	if (dec(s, out, sizeof(out), &n) != VG_ERR_DECODE)
		fail_msg("accepted \"%s\"", s);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0); /* wiped */
	n = 0;
	assert_int_equal(vg_base64_decode(NULL, &n, s, strlen(s)),
	    VG_ERR_DECODE);
}

/* ------------------------------------------------------------ base64 */

static void
test_rfc4648_vectors(void **state)
{
	static const struct {
		const char *plain, *b64;
	} v[] = {
		{ "", "" },
		{ "f", "Zg==" },
		{ "fo", "Zm8=" },
		{ "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t pl = strlen(v[i].plain), bl = strlen(v[i].b64);
		char enc[16];
		uint8_t out[16];

		assert_int_equal(vg_base64_encoded_len(pl), bl);
		memset(enc, 0, sizeof(enc));
		vg_base64_encode(enc, (const uint8_t *)v[i].plain, pl);
		assert_string_equal(enc, v[i].b64);
		assert_int_equal(dec(v[i].b64, out, sizeof(out), &n), VG_OK);
		assert_int_equal(n, pl);
		assert_memory_equal(out, v[i].plain, pl);
		/* The size alone. */
		n = 0;
		assert_int_equal(vg_base64_decode(NULL, &n, v[i].b64, bl),
		    VG_OK);
		assert_int_equal(n, pl);
	}
	assert_int_equal(vg_base64_decode(NULL, &n, NULL, 0), VG_OK);
	assert_int_equal(n, 0);
}

/* Every byte value in the third position of a group, against a decoder
 * that uses the alphabet string. */
static void
test_every_character(void **state)
{
	unsigned c;

	(void)state;
	for (c = 0; c < 256; c++) {
		const char *at = c != 0 ? strchr(alphabet, (int)c) : NULL;
		char in[4] = { 'Q', 'U', (char)c, 'A' };
		uint8_t out[3];
		size_t n = sizeof(out);
		enum vg_err e = vg_base64_decode(out, &n, in, 4);

		if (at != NULL) {
			uint32_t v = 16u << 18 | 20u << 12 |
			    (uint32_t)(at - alphabet) << 6;

			assert_int_equal(e, VG_OK);
			assert_int_equal(n, 3);
			assert_int_equal(out[0], v >> 16);
			assert_int_equal(out[1], (v >> 8) & 0xff);
			assert_int_equal(out[2], v & 0xff);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			/* Skipped: "QUA" is an incomplete group. */
			assert_int_equal(e, VG_ERR_DECODE);
		} else {
			assert_int_equal(e, VG_ERR_DECODE);
		}
	}
	/* Every 6-bit value encodes to its alphabet character. */
	for (c = 0; c < 64; c++) {
		uint8_t b[3] = { (uint8_t)(c << 2), 0, 0 };
		char enc[4];

		vg_base64_encode(enc, b, 3);
		assert_int_equal(enc[0], alphabet[c]);
		b[0] = 0;
		b[2] = (uint8_t)c;
		vg_base64_encode(enc, b, 3);
		assert_int_equal(enc[3], alphabet[c]);
	}
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"Z", "Zg", "Zg=", "Zg===", "Z===", "Zm9v=", "Zm9v==",
		"Zm8==", "====", "=", "Zm=9", "Zg==Zg==", "Zg==A",
		"Zh==",      /* unused bits not zero */
		"Zm9=",      /* ditto: 'm9' leaves 0b01 */
		"Zm-v", "Zm_v", "Zm9v\x80", "Zm.v", "Zm9v!",
		"Zm9vYg=", "Zm9vYmE", "Zm9vY", "QUJD\fRA==",
	};
	uint8_t out[8];
	size_t i, n = sizeof(out);

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(bad[i]);
	/* A NUL inside the data (the length is what counts). */
	assert_int_equal(vg_base64_decode(out, &n, "Zm\0v", 4),
	    VG_ERR_DECODE);
}

static void
test_whitespace(void **state)
{
	static const char *const ok[] = {
		"Zm9vYmFy", "Zm9v\nYmFy", "Zm9v\r\nYmFy\r\n", " Zm 9v\tYm Fy ",
		"\n\nZm9vYmFy\n", "Z\nm\n9\nv\nY\nm\nF\ny",
	};
	size_t i, n;
	uint8_t out[8];

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(dec(ok[i], out, sizeof(out), &n), VG_OK);
		assert_int_equal(n, 6);
		assert_memory_equal(out, "foobar", 6);
	}
	/* Padding followed by whitespace, and whitespace inside it. */
	assert_int_equal(dec("Zg=\n=\n", out, sizeof(out), &n), VG_OK);
	assert_int_equal(n, 1);
	assert_int_equal(out[0], 'f');
	/* Only whitespace: nothing. */
	assert_int_equal(dec(" \r\n\t", out, sizeof(out), &n), VG_OK);
	assert_int_equal(n, 0);
}

static void
test_room(void **state)
{
	uint8_t out[6];
	size_t n;

	(void)state;
	n = 5;
	memset(out, 0x11, sizeof(out));
	assert_int_equal(vg_base64_decode(out, &n, "Zm9vYmFy", 8),
	    VG_ERR_LENGTH);
	assert_int_equal(n, 6);
	assert_int_equal(out[0], 0x11); /* nothing written */
	n = 6;
	assert_int_equal(vg_base64_decode(out, &n, "Zm9vYmFy", 8), VG_OK);
	n = 0;
	assert_int_equal(vg_base64_decode(out, &n, "", 0), VG_OK);
	assert_int_equal(n, 0);
	assert_int_equal(vg_base64_encoded_len(0), 0);
	assert_int_equal(vg_base64_encoded_len(1), 4);
	assert_int_equal(vg_base64_encoded_len(3), 4);
	assert_int_equal(vg_base64_encoded_len(4), 8);
	assert_int_equal(vg_base64_encoded_len((size_t)-1), 0);
}

static void
test_round_trip(void **state)
{
	uint8_t in[300], out[300];
	char enc[400];
	size_t len, n, i;
	int round;

	(void)state;
	srand(4648);
	for (round = 0; round < 2000; round++) {
		len = (size_t)rand() % sizeof(in);
		for (i = 0; i < len; i++)
			in[i] = (uint8_t)rand();
		vg_base64_encode(enc, in, len);
		n = sizeof(out);
		assert_int_equal(vg_base64_decode(out, &n, enc,
		    vg_base64_encoded_len(len)), VG_OK);
		assert_int_equal(n, len);
		assert_memory_equal(out, in, len);
	}
}

/* ---------------------------------------------------------------- PEM */

static int
label_is(const struct vg_pem *b, const char *label)
{
	return b->label_len == strlen(label) &&
	    memcmp(b->label, label, b->label_len) == 0;
}

static void
test_pem_find(void **state)
{
	static const char text[] =
	    "Bag Attributes\n"
	    "    localKeyID: 01 02\n"
	    "subject=CN = x\n"
	    "-----BEGIN CERTIFICATE-----\r\n"
	    "Zm9v\r\n"
	    "YmFy\r\n"
	    "-----END CERTIFICATE-----\r\n"
	    "\n"
	    "-----BEGIN EC PARAMETERS-----\n"
	    "BggqhkjOPQMBBw==\n"
	    "-----END EC PARAMETERS-----   \n"
	    "-----BEGIN RSA PRIVATE KEY-----\n"
	    "Proc-Type: 4,ENCRYPTED\n"
	    "DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n"
	    "\n"
	    "Zg==\n"
	    "-----END RSA PRIVATE KEY-----";
	size_t len = sizeof(text) - 1, pos = 0, n;
	char *in = exact(text, len);
	struct vg_pem b;
	uint8_t out[16];

	(void)state;
	assert_int_equal(vg_pem_next(in, len, &pos, &b), VG_OK);
	assert_true(label_is(&b, "CERTIFICATE"));
	assert_int_equal(b.has_headers, 0);
	n = sizeof(out);
	assert_int_equal(vg_base64_decode(out, &n, b.body, b.body_len), VG_OK);
	assert_int_equal(n, 6);
	assert_memory_equal(out, "foobar", 6);

	assert_int_equal(vg_pem_next(in, len, &pos, &b), VG_OK);
	assert_true(label_is(&b, "EC PARAMETERS"));
	n = sizeof(out);
	assert_int_equal(vg_base64_decode(out, &n, b.body, b.body_len), VG_OK);
	assert_int_equal(n, 10);
	assert_int_equal(out[0], 0x06);

	assert_int_equal(vg_pem_next(in, len, &pos, &b), VG_OK);
	assert_true(label_is(&b, "RSA PRIVATE KEY"));
	assert_int_equal(b.has_headers, 1);
	n = sizeof(out);
	assert_int_equal(vg_base64_decode(out, &n, b.body, b.body_len), VG_OK);
	assert_int_equal(n, 1);
	assert_int_equal(out[0], 'f');
	assert_int_equal(pos, len);

	assert_int_equal(vg_pem_next(in, len, &pos, &b), VG_ERR_ARG);
	free(in);
	pos = 0;
	assert_int_equal(vg_pem_next("", 0, &pos, &b), VG_ERR_ARG);
	pos = 0;
	assert_int_equal(vg_pem_next("no armour here\n", 15, &pos, &b),
	    VG_ERR_ARG);
}

static void
test_pem_malformed(void **state)
{
	static const char *const bad[] = {
		/* no END */
		"-----BEGIN X-----\nZm9v\n",
		/* labels differ */
		"-----BEGIN X-----\nZm9v\n-----END Y-----\n",
		"-----BEGIN X-----\nZm9v\n-----END XX-----\n",
		/* a broken END line */
		"-----BEGIN X-----\nZm9v\n-----END X----\n",
		"-----BEGIN X-----\nZm9v\n-----ENDX-----\n",
		/* empty label, control characters */
		"-----BEGIN -----\nZm9v\n-----END -----\n",
		"-----BEGIN A\x01-----\nZm9v\n-----END A\x01-----\n",
		/* headers without the blank line */
		"-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\nZm9v\n"
		"-----END X-----\n",
		/* a label of 81 characters */
		"-----BEGIN AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-----\nZm9v\n-----END AAAAAA"
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAAA-----\n",
	};
	size_t i, pos;
	struct vg_pem b;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *in = exact(bad[i], strlen(bad[i]));

		pos = 0;
		if (vg_pem_next(in, strlen(bad[i]), &pos, &b) !=
		    VG_ERR_DECODE)
			fail_msg("accepted case %zu", i);
		free(in);
	}
	/* A frame line that is not BEGIN is explanatory text. */
	pos = 0;
	assert_int_equal(vg_pem_next("-----END X-----\n", 16, &pos, &b),
	    VG_ERR_ARG);
}

static void
test_pem_encode(void **state)
{
	uint8_t der[200], back[200];
	char *out;
	size_t len, n, pos, i, line;
	struct vg_pem b;

	(void)state;
	for (i = 0; i < sizeof(der); i++)
		der[i] = (uint8_t)(i * 7 + 3);
	for (len = 0; len <= sizeof(der); len += 1 + len / 3) {
		assert_int_equal(vg_pem_encode(NULL, &n, "PUBLIC KEY", der,
		    len), VG_OK);
		out = malloc(n);
		assert_non_null(out);
		/* Too little room: nothing written. */
		if (n > 0) {
			size_t small = n - 1;

			memset(out, 'x', n);
			assert_int_equal(vg_pem_encode(out, &small,
			    "PUBLIC KEY", der, len), VG_ERR_LENGTH);
			assert_int_equal(small, n);
			assert_int_equal(out[0], 'x');
		}
		assert_int_equal(vg_pem_encode(out, &n, "PUBLIC KEY", der,
		    len), VG_OK);
		assert_true(n > 0 && out[n - 1] == '\n');
		assert_memory_equal(out, "-----BEGIN PUBLIC KEY-----\n", 27);
		/* Lines of 64 characters, the last one shorter or equal. */
		for (i = 27, line = 0; i < n; i++) {
			if (out[i] == '\n') {
				assert_true(line <= 64);
				line = 0;
			} else {
				line++;
			}
		}
		pos = 0;
		assert_int_equal(vg_pem_next(out, n, &pos, &b), VG_OK);
		assert_int_equal(pos, n);
		assert_true(label_is(&b, "PUBLIC KEY"));
		i = sizeof(back);
		assert_int_equal(vg_base64_decode(back, &i, b.body,
		    b.body_len), VG_OK);
		assert_int_equal(i, len);
		assert_memory_equal(back, der, len);
		free(out);
	}
	/* 48 bytes make exactly one full line. */
	{
		static const char want[] = "-----BEGIN A-----\n"
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
		    "-----END A-----\n";
		uint8_t zeros[48] = { 0 };
		char buf[sizeof(want)];

		n = sizeof(buf);
		assert_int_equal(vg_pem_encode(buf, &n, "A", zeros, 48), VG_OK);
		assert_int_equal(n, sizeof(want) - 1);
		assert_memory_equal(buf, want, n);
	}
	assert_int_equal(vg_pem_encode(NULL, &n, "", der, 1), VG_ERR_ARG);
	assert_int_equal(vg_pem_encode(NULL, &n, "A\nB", der, 1), VG_ERR_ARG);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4648_vectors),
		cmocka_unit_test(test_every_character),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_whitespace),
		cmocka_unit_test(test_room),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_pem_find),
		cmocka_unit_test(test_pem_malformed),
		cmocka_unit_test(test_pem_encode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
