/*
 * vgtoken-util: JSON strings for --json. Labels come from the token and
 * may hold any bytes: the output must stay valid JSON whatever they are.
 */
#include "config.h"

#include <stdio.h>

#include "util/util.h"

/* Length of the well-formed UTF-8 sequence at p (1 ... 4), or 0 when the
 * bytes there are not one (overlong forms, surrogates and code points
 * above U+10FFFF are not). */
static size_t
utf8_len(const uint8_t *p, size_t left)
{
	uint32_t cp;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* see util/util.h */
void
vg_util_json_str(const void *s, size_t len)
{
	const uint8_t *p = s;
	size_t i = 0, n;

	putchar('"');
	while (i < len) {
		n = utf8_len(p + i, len - i);
		if (p[i] == '"' || p[i] == '\\') {
			printf("\\%c", p[i]);
		} else if (p[i] < 0x20 || p[i] == 0x7f || n == 0) {
			/* A byte that is not UTF-8 stands for the code point
			 * of the same value (as Latin-1 reads it). */
			printf("\\u%04x", p[i]);
			n = 1;
		} else {
			fwrite(p + i, 1, n, stdout);
		}
		i += n;
	}
	putchar('"');
}
