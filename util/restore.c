/*
 * vgtoken-util --restore FILE: the objects of a backup (util/backup.c)
 * made again on a token. The whole file is checked first (the GCM tag
 * under the key derived from the passphrase, then the structure of every
 * object), so a wrong passphrase or a changed byte creates nothing. Then
 * each object is made: data objects, certificates and public keys with
 * C_CreateObject, private and secret keys with C_UnwrapKey under the
 * session key derived from the passphrase. An object that is on the
 * token already (same class, key type, ID, label and application), or
 * that the token refuses, is skipped and named on stderr; the exit
 * status is then 1.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "token/token.h"
#include "util/util.h"

/* A decrypted and parsed backup. */
struct backup {
	char label[33], serial[17];
	uint64_t when;
	unsigned n;
	struct vg_bk_obj *objs;
};

static void
backup_free(struct backup *b)
{
	unsigned i;

	for (i = 0; b->objs != NULL && i < b->n; i++)
		vg_bk_obj_free(&b->objs[i]);
	free(b->objs);
	memset(b, 0, sizeof(*b));
}

/* Reads the whole file into *out (malloc'd). Returns its length, or 0
 * with a message. */
static size_t
read_file(const char *path, uint8_t **out)
{
	struct stat st;
	size_t n = 0;
	ssize_t r = 0;
	uint8_t *p = NULL;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		vg_util_err("cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > VG_BK_FILE_MAX) {
		vg_util_err("%s is not a vgtoken backup (%s)", path,
		    !S_ISREG(st.st_mode) ? "not a file" : "its size");
		goto out;
	}
	p = malloc((size_t)st.st_size);
	if (p == NULL) {
		vg_util_err("out of memory");
		goto out;
	}
	while (n < (size_t)st.st_size) {
		r = read(fd, p + n, (size_t)st.st_size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (n < (size_t)st.st_size) {
		vg_util_err("cannot read %s: %s", path,
		    r < 0 ? strerror(errno) : "it shrank");
		free(p);
		p = NULL;
		n = 0;
	}
out:
	if (fd >= 0)
		close(fd);
	*out = p;
	return n;
}

static int
get_text(struct vg_bk_rd *r, char *out, size_t cap)
{
	size_t len = (size_t)vg_bk_get_u(r, 2);
	const uint8_t *p = vg_bk_get(r, len);

	if (p == NULL || len >= cap)
		return -1;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

/* Parses a decrypted body of format version. Returns 0, or -1 with a
 * message that says where the body is malformed: the object (its
 * position, and its class, key type, CKA_ID and label as far as they
 * were read) and the attribute or template entry, never a value. */
static int
parse(const char *path, unsigned version, const uint8_t *body, size_t len,
    struct backup *b)
{
	struct vg_bk_fault f;
	struct vg_bk_rd r = { .p = body, .len = len, .version = version,
		.fault = &f };
	char at[256];
	uint64_t n = 0;

	memset(&f, 0, sizeof(f));
	memset(b, 0, sizeof(*b));
	if (get_text(&r, b->label, sizeof(b->label)) != 0 ||
	    get_text(&r, b->serial, sizeof(b->serial)) != 0) {
		snprintf(f.why, sizeof(f.why), "its token label or serial "
		    "number is cut short or too long");
		goto bad;
	}
	b->when = vg_bk_get_u(&r, 8);
	n = vg_bk_get_u(&r, 4);
	/* each object takes at least 16 bytes */
	if (r.bad || n > len / 16) {
		snprintf(f.why, sizeof(f.why), r.bad ? "its header is cut "
		    "short" : "it counts more objects than its size holds");
		goto bad;
	}
	b->objs = calloc(n != 0 ? (size_t)n : 1, sizeof(*b->objs));
	if (b->objs == NULL) {
		vg_util_err("out of memory");
		return -1;
	}
	for (b->n = 0; b->n < n; b->n++)
		if (vg_bk_obj_get(&r, &b->objs[b->n]) != 0)
			goto bad_obj;
	if (r.off != r.len) {
		snprintf(f.why, sizeof(f.why), "%zu byte%s after the last "
		    "object", r.len - r.off, r.len - r.off == 1 ? "" : "s");
		goto bad;
	}
	return 0;
bad_obj:
	vg_bk_fault_text(&f, at, sizeof(at));
	vg_util_err("%s: the backup decrypts but is malformed at object %u "
	    "of %llu%s%s%s, %s (made by another version?); nothing restored",
	    path, b->n + 1, (unsigned long long)n, f.obj[0] ? " (" : "",
	    f.obj, f.obj[0] ? ")" : "", at);
	backup_free(b);
	return -1;
bad:
	backup_free(b);
	vg_util_err("%s: the backup decrypts but is malformed: %s (made by "
	    "another version?); nothing restored", path, f.why);
	return -1;
}

/* Reads, checks, decrypts and parses path with o's passphrase; *k gets
 * the keys. Returns 0, or -1 with a message. */
static int
open_backup(struct vg_util_opts *o, struct vg_bk_keys *k, struct backup *b)
{
	uint8_t *file = NULL, *body = NULL;
	size_t len, body_len = 0;
	int rc = -1;

	len = read_file(o->file, &file);
	if (len == 0 || vg_bk_check_header(o->file, file, len) != 0 ||
	    vg_util_backup_passphrase(o, 0) != 0 ||
	    vg_bk_derive(&o->passphrase, file, k) != 0)
		goto out;
	body_len = len - VG_BK_HDR_LEN - VG_BK_TAG_LEN;
	body = malloc(body_len != 0 ? body_len : 1);
	if (body == NULL) {
		vg_util_err("out of memory");
		goto out;
	}
	if (vg_bk_unseal(k, file, len, body) != 0) {
		vg_util_err("%s: wrong passphrase, or the file was changed "
		    "(it fails its authentication check); nothing restored",
		    o->file);
		goto out;
	}
	rc = parse(o->file, file[8], body, body_len, b);
out:
	if (body != NULL) {
		vg_wipe(body, body_len);
		free(body);
	}
	free(file);
	return rc;
}

/* 1 if an object like ob (class, key or certificate type, ID, label,
 * application, object ID) is on the token already. */
static int
on_token(CK_SESSION_HANDLE s, const struct vg_bk_obj *ob)
{
	static const CK_ATTRIBUTE_TYPE keys[] = { CKA_CLASS, CKA_KEY_TYPE,
		CKA_CERTIFICATE_TYPE, CKA_ID, CKA_LABEL, CKA_APPLICATION,
		CKA_OBJECT_ID };
	static const CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE t[8];
	CK_OBJECT_HANDLE *found = NULL;
	CK_ULONG n = 0, count = 0;
	const CK_ATTRIBUTE *a;
	size_t i;

	t[n].type = CKA_TOKEN;
	t[n].pValue = (void *)&yes;
	t[n++].ulValueLen = 1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((a = vg_bk_find(ob, keys[i])) != NULL)
			t[n++] = *a;
	if (vg_util_find(s, t, n, &found, &count) != CKR_OK)
		count = 0;
	free(found);
	return count != 0;
}

/* Makes one object. Returns CKR_OK or why not. */
static CK_RV
make(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE w, const struct vg_bk_obj *ob)
{
	static const CK_BBOOL yes = CK_TRUE;
	CK_MECHANISM m = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };
	CK_ATTRIBUTE t[VG_BK_MAX_ATTRS + 1];
	CK_OBJECT_HANDLE h;

	memcpy(t, ob->a, ob->n * sizeof(t[0]));
	t[ob->n].type = CKA_TOKEN;
	t[ob->n].pValue = (void *)&yes;
	t[ob->n].ulValueLen = 1;
	if (ob->blob != NULL)
		return C_UnwrapKey(s, &m, w, ob->blob, ob->blob_len, t,
		    ob->n + 1, &h);
	return C_CreateObject(s, t, ob->n + 1, &h);
}

static int
restore_session(struct vg_util_opts *o, CK_SESSION_HANDLE s,
    const struct vg_bk_keys *k, const struct backup *b)
{
	CK_OBJECT_HANDLE w;
	unsigned i, done = 0;
	char what[256], when[32];
	time_t t = (time_t)b->when;
	struct tm tm;
	CK_RV rv;

	rv = vg_util_bk_session_key(s, k->wrap, &w);
	if (rv != CKR_OK)
		return vg_util_err_rv("cannot make the unwrapping key", rv);
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(when, sizeof(when), "?");
	printf("restoring the backup of token '%s' (serial %s, made %s) "
	    "into token '%s':\n", b->label, b->serial, when, o->token);
	for (i = 0; i < b->n; i++) {
		vg_bk_describe(&b->objs[i], what, sizeof(what));
		if (on_token(s, &b->objs[i])) {
			fprintf(stderr, "skipped: %s: the token has it "
			    "already\n", what);
			continue;
		}
		rv = make(s, w, &b->objs[i]);
		if (rv != CKR_OK) {
			fprintf(stderr, "skipped: %s: the token refused it "
			    "(%s)\n", what, vg_rv_name(rv));
			continue;
		}
		printf("  %s\n", what);
		done++;
	}
	C_DestroyObject(s, w);
	printf("%u of %u object(s) restored", done, b->n);
	if (done < b->n)
		printf(", %u skipped (see above)", b->n - done);
	printf("\n");
	return done == b->n ? VG_UTIL_OK : VG_UTIL_FAIL;
}

/* see util/util.h */
int
vg_util_restore(struct vg_util_opts *o)
{
	struct backup b;
	struct vg_bk_keys k;
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	int rc = VG_UTIL_FAIL;

	memset(&b, 0, sizeof(b));
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	/* the token and its PIN first, so that a mistyped name does not
	 * cost a key derivation */
	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) != 0 ||
	    open_backup(o, &k, &b) != 0)
		goto fini;
	if (vg_util_open(o->token, slot, 1, CKU_USER, &o->pin, &s) != 0)
		goto fini;
	rc = restore_session(o, s, &k, &b);
	C_Logout(s);
	C_CloseSession(s);
fini:
	vg_wipe(&k, sizeof(k));
	backup_free(&b);
	vg_util_p11_fini();
	return rc;
}
