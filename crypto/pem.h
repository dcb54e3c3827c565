/*
 * Base64 [RFC 4648 §4] and PEM armour [RFC 7468], for importing keys and
 * certificates and exporting public keys.
 *
 * Base64. The encoder writes the standard alphabet with '=' padding and
 * no line breaks. The decoder is strict: the standard alphabet only (no
 * URL-safe characters), padding required (the number of alphabet
 * characters plus '=' is a multiple of four), '=' only at the end and at
 * most two of them, and the unused bits of the last group must be zero
 * (non-canonical encodings are rejected, [RFC 4648 §3.5]). Whitespace
 * (space, tab, CR, LF) is skipped anywhere, so a PEM body with its line
 * breaks decodes as it is.
 *
 * PEM. vg_pem_next finds the next block "-----BEGIN label-----" ...
 * "-----END label-----" in a text: text before the BEGIN line is
 * ignored (explanatory text, [RFC 7468 §5.2]), the END label must equal
 * the BEGIN label, and the lines between are the base64 body. RFC 1421
 * headers ("Proc-Type: 4,ENCRYPTED", "DEK-Info: ...") after the BEGIN line,
 * which legacy encrypted keys carry, are reported (has_headers) and
 * skipped up to the blank line that ends them. The text need not be
 * NUL-terminated; a NUL inside it is just another character.
 *
 * Memory: nothing is allocated; results point into the caller's input.
 * Decoded keys are the caller's to wipe. On a decoding error nothing is
 * left in out (whatever had been written is wiped).
 *
 * CT: decoding is meant for private keys. vg_base64_decode looks at each
 * character with masks (no table lookup, no branch on its value) except
 * for one branch that tells whitespace and '=' from alphabet characters,
 * so only the positions of whitespace and padding (the line layout, which
 * the lengths show anyway), the lengths, and whether the input is valid
 * are observable, not the values of the alphabet characters. vg_pem_next
 * branches on line breaks, on the characters of the BEGIN and END lines
 * and on whether a body line starts with '-' or contains ':' (both never
 * true of base64), which again shows the layout only. Each such verdict
 * is declassified (VG_CT_DECLASSIFY, crypto/ct.h) where it is branched
 * on, so both functions run clean under the valgrind check with the body
 * marked secret. The encoder works on public data (public keys) but is
 * branch-free and table-free as well.
 */
#ifndef VG_CRYPTO_PEM_H
#define VG_CRYPTO_PEM_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Characters needed to encode len bytes: 4 * ceil(len / 3) (no NUL).
 * Returns 0 when that does not fit a size_t. */
size_t vg_base64_encoded_len(size_t len);

/* Writes vg_base64_encoded_len(len) characters to out (no NUL). in may be
 * NULL when len is 0. out must not overlap in. */
void vg_base64_encode(char *out, const uint8_t *in, size_t len);

/*
 * Decodes inlen characters at in. *outlen is the room at out on entry and
 * the decoded length on return; with out NULL only the length is computed
 * (after the whole input has been checked). Returns VG_OK; VG_ERR_DECODE
 * for input that is not strict base64 as above (out is then wiped up to
 * the room given); VG_ERR_LENGTH if the room is too small (nothing
 * written). Empty input decodes to nothing. in may be NULL when inlen is
 * 0. out must not overlap in.
 */
enum vg_err vg_base64_decode(uint8_t *out, size_t *outlen, const char *in,
    size_t inlen);

/* One PEM block found by vg_pem_next; pointers into the caller's text. */
struct vg_pem {
	const char *label;     /* the label, without the dashes; not NUL-
	                        * terminated */
	size_t label_len;
	const char *body;      /* the base64 text (with its line breaks) */
	size_t body_len;
	int has_headers;       /* 1 if RFC 1421 headers were present */
};

/*
 * Finds the first PEM block at or after offset *pos of the text (len
 * bytes at in) and sets *pos past its END line. Returns VG_OK and *blk;
 * VG_ERR_ARG when there is no BEGIN line left (nothing more to read: not
 * an error for a caller looping over blocks); VG_ERR_DECODE for a block
 * that is not well formed (no END line, labels that differ, a label longer
 * than 80 characters or with characters outside printable ASCII, a header
 * section without its blank line). The body is not decoded: pass it to
 * vg_base64_decode.
 */
enum vg_err vg_pem_next(const char *in, size_t len, size_t *pos,
    struct vg_pem *blk);

/*
 * Writes one PEM block: "-----BEGIN label-----\n", the base64 of the len
 * bytes at der in lines of 64 characters, "-----END label-----\n" (no NUL).
 * *outlen is the room on entry and the length on return; out NULL only
 * computes it. Returns VG_OK; VG_ERR_LENGTH if the room is too small
 * (nothing written); VG_ERR_ARG for a label that is empty, longer than 80
 * characters or not printable ASCII, or an output that would not fit a
 * size_t.
 */
enum vg_err vg_pem_encode(char *out, size_t *outlen, const char *label,
    const uint8_t *der, size_t len);

#endif
