/*
 * vgtoken-util --import FILE --key-type aes|generic: a raw secret key,
 * the file's bytes as they are (an AES key of 16, 24 or 32 bytes, or a
 * generic secret of 1 to 512 bytes, e.g. an HMAC key), becomes a token
 * secret key object: private, sensitive, and extractable only with
 * --extractable. The key never appears on the command line; the file is
 * read into locked memory, which is wiped after the object is made.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "token/token.h"
#include "util/util.h"

/* Longest generic secret read: far above any HMAC block size. */
#define SECRET_MAX 512

/* Reads the whole of path (at most SECRET_MAX bytes) into buf. Returns
 * the length, or 0 with a message (unreadable, empty, too long). */
static size_t
read_secret(const char *path, uint8_t *buf)
{
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		vg_util_err("cannot read %s: %s", path, strerror(errno));
		return 0;
	}
	for (;;) {
		r = read(fd, buf + n, SECRET_MAX + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n > SECRET_MAX)
			break;
	}
	if (r < 0)
		vg_util_err("cannot read %s: %s", path, strerror(errno));
	else if (n == 0)
		vg_util_err("%s is empty", path);
	else if (n > SECRET_MAX)
		vg_util_err("%s is longer than %d bytes: not a raw key",
		    path, SECRET_MAX);
	close(fd);
	if (r < 0 || n > SECRET_MAX) {
		vg_wipe(buf, SECRET_MAX + 1);
		n = 0;
	}
	return n;
}

/*
 * All-ones if every byte of p is printable ASCII or a line end: the key
 * was most likely written as text (hex, base64, a word) where the raw
 * bytes were meant, and a random AES key of 16 bytes or more looks like
 * that with a chance under 2^-22.
 * CT: only n and the answer are observable.
 */
static uint64_t
text_mask(const uint8_t *p, size_t n)
{
	uint64_t all = ~(uint64_t)0, b;
	size_t i;

	for (i = 0; i < n; i++) {
		b = p[i];
		all &= vg_ct_lt_mask64(b - 0x20, 0x5f) |
		    vg_ct_eq_mask64(b, '\n') | vg_ct_eq_mask64(b, '\r');
	}
	return all;
}

/* Makes the object on the token. Returns VG_UTIL_OK or VG_UTIL_FAIL. */
static int
create_secret(struct vg_util_opts *o, CK_KEY_TYPE kt, const uint8_t *key,
    size_t len, const uint8_t *id, size_t id_len)
{
	static const CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	const CK_BBOOL *aes = kt == CKK_AES ? &yes : &no;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, (void *)&cls, sizeof(cls) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_TOKEN, (void *)&yes, 1 },
		{ CKA_PRIVATE, (void *)&yes, 1 },
		{ CKA_SENSITIVE, (void *)&yes, 1 },
		{ CKA_EXTRACTABLE, (void *)(o->extractable ? &yes : &no), 1 },
		{ CKA_ENCRYPT, (void *)aes, 1 },
		{ CKA_DECRYPT, (void *)aes, 1 },
		{ CKA_WRAP, (void *)aes, 1 },
		{ CKA_UNWRAP, (void *)aes, 1 },
		{ CKA_SIGN, (void *)&yes, 1 },
		{ CKA_VERIFY, (void *)&yes, 1 },
		{ CKA_DERIVE, (void *)(kt == CKK_AES ? &no : &yes), 1 },
		{ CKA_VALUE, (void *)key, len },
		{ CKA_ID, (void *)id, id_len },
		{ CKA_LABEL, (void *)o->label,
		    o->label != NULL ? strlen(o->label) : 0 },
	};
	CK_ULONG n = sizeof(t) / sizeof(t[0]) - (o->label == NULL);
	CK_OBJECT_HANDLE obj;
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	CK_RV rv;
	char hex[2 * VG_UTIL_ID_MAX + 1];
	int rc = VG_UTIL_FAIL;

	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) != 0 ||
	    vg_util_open(o->token, slot, 1, CKU_USER, &o->pin, &s) != 0)
		return VG_UTIL_FAIL;
	if (id_len == 0) {
		/* No public part to name the key by: a random ID. */
		rv = C_GenerateRandom(s, (CK_BYTE_PTR)id, 16);
		if (rv != CKR_OK) {
			vg_util_err_rv("cannot make an ID", rv);
			goto out;
		}
		t[14].ulValueLen = id_len = 16;
	} else if (!vg_util_id_free(s, cls, id, id_len, "secret key")) {
		goto out;
	}
	rv = C_CreateObject(s, t, n, &obj);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot create the secret key", rv);
		goto out;
	}
	vg_util_hex(hex, id, id_len);
	printf("imported %s-%zu secret key into token '%s': id=%s%s%s%s%s\n",
	    kt == CKK_AES ? "AES" : "generic", len * 8,
	    o->token, hex, o->label != NULL ? " label=\"" : "",
	    o->label != NULL ? o->label : "", o->label != NULL ? "\"" : "",
	    o->extractable ? " (extractable)" : "");
	rc = VG_UTIL_OK;
out:
	C_Logout(s);
	C_CloseSession(s);
	return rc;
}

/* see util/util.h */
int
vg_util_import_secret(struct vg_util_opts *o)
{
	uint8_t id[VG_UTIL_ID_MAX], *key;
	size_t id_len = 0, len;
	CK_KEY_TYPE kt;
	int rc = VG_UTIL_FAIL;

	if (strcmp(o->keytype, "aes") == 0) {
		kt = CKK_AES;
	} else if (strcmp(o->keytype, "generic") == 0) {
		kt = CKK_GENERIC_SECRET;
	} else {
		vg_util_err("--key-type: '%s' is not aes or generic",
		    o->keytype);
		return VG_UTIL_USAGE;
	}
	if (o->passphrase_file != NULL) {
		vg_util_err("--passphrase-file is for encrypted key files; a "
		    "raw key file is not encrypted");
		return VG_UTIL_USAGE;
	}
	if (o->id_hex != NULL) {
		id_len = vg_util_parse_id(o->id_hex, id, sizeof(id));
		if (id_len == 0)
			return VG_UTIL_USAGE;
	}
	key = vg_secmem_alloc(SECRET_MAX + 1);
	if (key == NULL) {
		vg_util_err("out of memory");
		return VG_UTIL_FAIL;
	}
	len = read_secret(o->file, key);
	if (len == 0)
		goto out;
	if (kt == CKK_AES && len != 16 && len != 24 && len != 32) {
		vg_util_err("%s has %zu bytes: an AES key has 16, 24 or 32 "
		    "(the raw key, not hex or base64)", o->file, len);
		goto out;
	}
	if (kt == CKK_AES && text_mask(key, len) != 0) {
		vg_util_err("%s holds text, not a raw key: convert hex with "
		    "'xxd -r -p', base64 with 'base64 -d'", o->file);
		goto out;
	}
	if (vg_util_p11_init() != 0)
		goto out;
	rc = create_secret(o, kt, key, len, id, id_len);
	vg_util_p11_fini();
out:
	vg_secmem_free(key, SECRET_MAX + 1);
	return rc;
}
