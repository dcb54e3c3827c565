/*
 * Base64 and PEM armour (see crypto/pem.h). Characters are mapped to and
 * from their 6-bit values with range masks, never with a table, so that
 * decoding a private key shows nothing of its bytes through the cache.
 */
#include "config.h"

#include <string.h>

#include "crypto/ct.h"
#include "crypto/pem.h"

#define PEM_BEGIN "-----BEGIN "
#define PEM_END "-----END "
#define PEM_DASHES "-----"
#define PEM_LABEL_MAX 80
#define PEM_LINE 64

/* All-ones if lo <= c <= hi, else 0 (c, lo, hi below 2^31). */
static uint32_t
range_mask(uint32_t c, uint32_t lo, uint32_t hi)
{
	uint32_t bit = ((lo - 1 - c) & (c - hi - 1)) >> 31;

	return 0 - vg_ct_barrier32(bit);
}

/* All-ones if a > b, else 0 (a, b below 2^31). */
static uint32_t
gt_mask(uint32_t a, uint32_t b)
{
	return 0 - vg_ct_barrier32((b - a) >> 31);
}

/* The character for a 6-bit value v. Branch-free, no table. */
static char
b64_char(uint32_t v)
{
	uint32_t c = v + 'A';

	c += gt_mask(v, 25) & 6u;              /* 26..51 -> 'a'..'z' */
	c -= gt_mask(v, 51) & 75u;             /* 52..61 -> '0'..'9' */
	c -= gt_mask(v, 61) & 15u;             /* 62 -> '+' */
	c += gt_mask(v, 62) & 3u;              /* 63 -> '/' */
	return (char)c;
}

/* The 6-bit value of an alphabet character c; *bad gets all-ones ORed in
 * when c is not one. Branch-free, no table. */
static uint32_t
b64_value(uint32_t c, uint32_t *bad)
{
	uint32_t up = range_mask(c, 'A', 'Z');
	uint32_t lo = range_mask(c, 'a', 'z');
	uint32_t dig = range_mask(c, '0', '9');
	uint32_t plus = vg_ct_eq_mask32(c, '+');
	uint32_t slash = vg_ct_eq_mask32(c, '/');
	uint32_t v;

	v = (up & (c - 'A')) | (lo & (c - 'a' + 26)) |
	    (dig & (c - '0' + 52)) | (plus & 62u) | (slash & 63u);
	*bad |= ~(up | lo | dig | plus | slash);
	return v & 63u;
}

/* A verdict about characters that may be secret, made public: the
 * callers branch on it, and nothing else about the characters leaves
 * (declassified for the valgrind check of crypto/ct.h). */
static int
reveal(uint32_t mask)
{
	int r = (int)(mask & 1u);

	VG_CT_DECLASSIFY(&r, sizeof(r));
	return r;
}

static int
is_char(uint8_t c, char want)
{
	return reveal(vg_ct_eq_mask32(c, (uint8_t)want));
}

static uint32_t
ws_mask(uint32_t c)
{
	return vg_ct_eq_mask32(c, ' ') | vg_ct_eq_mask32(c, '\t') |
	    vg_ct_eq_mask32(c, '\r') | vg_ct_eq_mask32(c, '\n');
}

/* Whitespace or '=': the characters whose positions are public. */
static int
b64_special(uint32_t c)
{
	return reveal(ws_mask(c) | vg_ct_eq_mask32(c, '='));
}

/* see crypto/pem.h */
size_t
vg_base64_encoded_len(size_t len)
{
	size_t groups = len / 3 + (len % 3 != 0);

	if (groups > (size_t)-1 / 4)
		return 0;
	return groups * 4;
}

/* see crypto/pem.h */
void
vg_base64_encode(char *out, const uint8_t *in, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i + 3 <= len; i += 3) {
		uint32_t w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
		    in[i + 2];

		out[o++] = b64_char(w >> 18);
		out[o++] = b64_char((w >> 12) & 63u);
		out[o++] = b64_char((w >> 6) & 63u);
		out[o++] = b64_char(w & 63u);
	}
	if (len - i == 1) {
		uint32_t w = (uint32_t)in[i] << 16;

		out[o++] = b64_char(w >> 18);
		out[o++] = b64_char((w >> 12) & 63u);
		out[o++] = '=';
		out[o++] = '=';
	} else if (len - i == 2) {
		uint32_t w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;

		out[o++] = b64_char(w >> 18);
		out[o++] = b64_char((w >> 12) & 63u);
		out[o++] = b64_char((w >> 6) & 63u);
		out[o++] = '=';
	}
}

/*
 * The layout pass: counts alphabet characters (*na) and padding, checks
 * that '=' comes only at the end, at most twice, and that the groups are
 * complete. Branches only on whether a character is special.
 */
static enum vg_err
b64_layout(const char *in, size_t inlen, size_t *na)
{
	size_t i, n = 0, pads = 0;

	for (i = 0; i < inlen; i++) {
		uint8_t c = (uint8_t)in[i];

		if (!b64_special(c)) {
			if (pads != 0)
				return VG_ERR_DECODE; /* data after '=' */
			n++;
		} else if (is_char(c, '=')) {
			pads++;
		}
	}
	if (pads > 2 || (n % 4 + pads) % 4 != 0)
		return VG_ERR_DECODE;
	*na = n;
	return VG_OK;
}

/* see crypto/pem.h */
enum vg_err
vg_base64_decode(uint8_t *out, size_t *outlen, const char *in, size_t inlen)
{
	uint32_t acc = 0, bad = 0;
	size_t i, na = 0, need, o = 0;
	unsigned nb = 0;
	enum vg_err e;

	e = b64_layout(in, inlen, &na);
	if (e != VG_OK)
		goto fail;
	need = na / 4 * 3 + na % 4 * 3 / 4;
	if (out != NULL && *outlen < need) {
		*outlen = need;
		return VG_ERR_LENGTH;
	}
	for (i = 0; i < inlen; i++) {
		uint32_t c = (uint8_t)in[i];

		if (b64_special(c))
			continue;
		acc = acc << 6 | b64_value(c, &bad);
		nb += 6;
		if (nb >= 8) {
			nb -= 8;
			if (out != NULL)
				out[o] = (uint8_t)(acc >> nb);
			o++;
		}
	}
	/* The unused low bits of the last group must be zero. */
	bad |= 0 - vg_ct_barrier32((acc & ((1u << nb) - 1)) != 0);
	acc = 0;
	if (reveal(bad)) {
		e = VG_ERR_DECODE;
		goto fail;
	}
	*outlen = need;
	return VG_OK;
fail:
	if (out != NULL)
		vg_wipe(out, *outlen);
	return e;
}

/* ---------------------------------------------------------------- PEM */

/* The line at [start, len): *end is where its content ends (before CR,
 * spaces and tabs at its end), *next where the next line starts. */
static void
line_at(const char *in, size_t len, size_t start, size_t *end, size_t *next)
{
	size_t i = start;

	while (i < len && !is_char((uint8_t)in[i], '\n'))
		i++;
	*next = i < len ? i + 1 : len;
	while (i > start && reveal(ws_mask((uint8_t)in[i - 1])))
		i--;
	*end = i;
}

static int
has_prefix(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(p, prefix, k) == 0;
}

/* Is [p, p + n) a framing line "<prefix>label-----"? Sets the label. */
static int
frame_line(const char *p, size_t n, const char *prefix, const char **label,
    size_t *label_len)
{
	size_t k = strlen(prefix), d = strlen(PEM_DASHES);

	if (!has_prefix(p, n, prefix) || n < k + d ||
	    memcmp(p + n - d, PEM_DASHES, d) != 0)
		return 0;
	*label = p + k;
	*label_len = n - k - d;
	return 1;
}

static int
label_ok(const char *label, size_t n)
{
	size_t i;

	if (n == 0 || n > PEM_LABEL_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)label[i] < 0x20 ||
		    (unsigned char)label[i] > 0x7e)
			return 0;
	return 1;
}

/* Does the line hold a ':' (an RFC 1421 header)? Branches only on the
 * verdict per character. */
static int
line_has_colon(const char *p, size_t n)
{
	uint32_t m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m |= vg_ct_eq_mask32((uint8_t)p[i], ':');
	return reveal(m);
}

/* see crypto/pem.h */
enum vg_err
vg_pem_next(const char *in, size_t len, size_t *pos, struct vg_pem *blk)
{
	size_t i = *pos, end, next, body;
	const char *label = NULL, *elabel;
	size_t label_len = 0, elabel_len;
	int found = 0;

	memset(blk, 0, sizeof(*blk));
	/* Explanatory text before the BEGIN line is skipped. */
	while (i < len && !found) {
		line_at(in, len, i, &end, &next);
		found = frame_line(in + i, end - i, PEM_BEGIN, &label,
		    &label_len);
		i = next;
	}
	if (!found)
		return VG_ERR_ARG;
	if (!label_ok(label, label_len))
		return VG_ERR_DECODE;
	/* RFC 1421 headers: "Name: value" lines up to a blank line. */
	if (i < len) {
		line_at(in, len, i, &end, &next);
		if (line_has_colon(in + i, end - i)) {
			int blank = 0;

			blk->has_headers = 1;
			while (i < len && !blank) {
				line_at(in, len, i, &end, &next);
				if (is_char((uint8_t)in[i], '-'))
					return VG_ERR_DECODE;
				blank = end == i;
				i = next;
			}
			if (!blank)
				return VG_ERR_DECODE;
		}
	}
	body = i;
	while (i < len) {
		line_at(in, len, i, &end, &next);
		if (is_char((uint8_t)in[i], '-')) {
			if (!frame_line(in + i, end - i, PEM_END, &elabel,
			    &elabel_len) || elabel_len != label_len ||
			    memcmp(elabel, label, label_len) != 0)
				return VG_ERR_DECODE;
			blk->label = label;
			blk->label_len = label_len;
			blk->body = in + body;
			blk->body_len = i - body;
			*pos = next;
			return VG_OK;
		}
		i = next;
	}
	return VG_ERR_DECODE; /* no END line */
}

/* see crypto/pem.h */
enum vg_err
vg_pem_encode(char *out, size_t *outlen, const char *label,
    const uint8_t *der, size_t len)
{
	size_t llen = strlen(label), b64 = vg_base64_encoded_len(len);
	size_t lines, need, o = 0, i;

	if (!label_ok(label, llen) || (b64 == 0 && len != 0))
		return VG_ERR_ARG;
	lines = b64 / PEM_LINE + (b64 % PEM_LINE != 0);
	need = strlen(PEM_BEGIN) + llen + strlen(PEM_DASHES) + 1 +
	    strlen(PEM_END) + llen + strlen(PEM_DASHES) + 1;
	if (b64 + lines < b64 || need + b64 + lines < need)
		return VG_ERR_ARG;
	need += b64 + lines;
	if (out == NULL) {
		*outlen = need;
		return VG_OK;
	}
	if (*outlen < need) {
		*outlen = need;
		return VG_ERR_LENGTH;
	}
	memcpy(out + o, PEM_BEGIN, strlen(PEM_BEGIN));
	o += strlen(PEM_BEGIN);
	memcpy(out + o, label, llen);
	o += llen;
	memcpy(out + o, PEM_DASHES "\n", 6);
	o += 6;
	for (i = 0; i < len; i += PEM_LINE / 4 * 3) {
		size_t chunk = len - i < PEM_LINE / 4 * 3 ? len - i
		    : PEM_LINE / 4 * 3;

		vg_base64_encode(out + o, der + i, chunk);
		o += vg_base64_encoded_len(chunk);
		out[o++] = '\n';
	}
	memcpy(out + o, PEM_END, strlen(PEM_END));
	o += strlen(PEM_END);
	memcpy(out + o, label, llen);
	o += llen;
	memcpy(out + o, PEM_DASHES "\n", 6);
	o += 6;
	*outlen = o;
	return VG_OK;
}
