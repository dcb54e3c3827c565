/*
 * vgtoken-util --backup FILE: every token object of a token that can
 * leave it, in one file sealed under a passphrase (util/bkfile.c,
 * doc/backup.md). Data objects, certificates and public keys are
 * written with their attributes; private and secret keys with their
 * attributes and their value as C_WrapKey gives it under
 * CKM_AES_KEY_WRAP_KWP with a session key made from the passphrase, so a
 * key leaves the token only wrapped. Keys that are not extractable (or
 * that the token will not wrap, CKA_WRAP_WITH_TRUSTED) are skipped and
 * named on stderr; the backup of the others goes on. Keys keep their
 * templates (CKA_WRAP_TEMPLATE ...); one whose template a backup cannot
 * hold is skipped too, rather than kept without its restriction.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "token/token.h"
#include "util/util.h"

/* see util/util.h */
CK_RV
vg_util_bk_session_key(CK_SESSION_HANDLE s, const uint8_t key[32],
    CK_OBJECT_HANDLE *h)
{
	static const CK_OBJECT_CLASS cls = CKO_SECRET_KEY;
	static const CK_KEY_TYPE kt = CKK_AES;
	static const CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, (void *)&cls, sizeof(cls) },
		{ CKA_KEY_TYPE, (void *)&kt, sizeof(kt) },
		{ CKA_TOKEN, (void *)&no, 1 },
		{ CKA_PRIVATE, (void *)&yes, 1 },
		{ CKA_SENSITIVE, (void *)&yes, 1 },
		{ CKA_EXTRACTABLE, (void *)&no, 1 },
		{ CKA_ENCRYPT, (void *)&no, 1 },
		{ CKA_DECRYPT, (void *)&no, 1 },
		{ CKA_SIGN, (void *)&no, 1 },
		{ CKA_VERIFY, (void *)&no, 1 },
		{ CKA_WRAP, (void *)&yes, 1 },
		{ CKA_UNWRAP, (void *)&yes, 1 },
		{ CKA_VALUE, (void *)key, 32 },
	};

	return C_CreateObject(s, t, sizeof(t) / sizeof(t[0]), h);
}

/* Reads the template attribute type of obj into a (type, a CK_ATTRIBUTE
 * array whose values are malloc'd; nothing, a->pValue NULL, when it is
 * empty, the default). One a backup cannot keep (more than
 * VG_BK_TMPL_MAX entries, a type not marked VG_BK_TMPL, a value longer
 * than VG_BK_TMPL_VALUE_MAX or of the wrong length) leaves the reason in
 * why and a empty. Returns CKR_OK or C_GetAttributeValue's error. */
static CK_RV
read_tmpl(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE obj, CK_ATTRIBUTE_TYPE type,
    CK_ATTRIBUTE *a, char *why, size_t cap)
{
	const struct vg_bk_attr_def *d;
	CK_ATTRIBUTE *t;
	CK_ULONG n, i;
	CK_RV rv;

	memset(a, 0, sizeof(*a));
	a->type = type;
	rv = vg_util_get_attrs(s, obj, a, 1);
	if (rv != CKR_OK || a->ulValueLen == 0)
		goto out;
	n = a->ulValueLen / sizeof(*t);
	if (n > VG_BK_TMPL_MAX) {
		snprintf(why, cap, "its template 0x%lx has %lu entries, more "
		    "than a backup keeps (%d)", (unsigned long)type,
		    (unsigned long)n, VG_BK_TMPL_MAX);
		goto out;
	}
	t = calloc(n, sizeof(*t));
	if (t == NULL) {
		rv = CKR_HOST_MEMORY;
		goto out;
	}
	a->pValue = t;
	rv = vg_util_get_attrs(s, obj, a, 1); /* the types and lengths */
	for (i = 0; i < n && rv == CKR_OK; i++) {
		d = vg_bk_attr_def(t[i].type);
		if (d == NULL || !(d->classes & VG_BK_TMPL) ||
		    t[i].ulValueLen > VG_BK_TMPL_VALUE_MAX ||
		    (d->kind == VG_BK_BOOL && t[i].ulValueLen != 1) ||
		    (d->kind == VG_BK_ULONG &&
			t[i].ulValueLen != sizeof(CK_ULONG)) ||
		    (d->kind == VG_BK_MECHS &&
			t[i].ulValueLen % sizeof(CK_ULONG) != 0)) {
			snprintf(why, cap, "its template 0x%lx holds "
			    "attribute 0x%lx, which a backup does not keep "
			    "there", (unsigned long)type,
			    (unsigned long)t[i].type);
			goto out;
		}
		t[i].pValue = malloc(t[i].ulValueLen + 1);
		if (t[i].pValue == NULL)
			rv = CKR_HOST_MEMORY;
	}
	if (rv == CKR_OK)
		rv = vg_util_get_attrs(s, obj, a, 1);
	if (rv == CKR_OK)
		return CKR_OK;
out:
	if (a->pValue != NULL) {
		t = a->pValue;
		for (i = 0; i < a->ulValueLen / sizeof(*t); i++)
			if (t[i].pValue != NULL) {
				vg_wipe(t[i].pValue, t[i].ulValueLen);
				free(t[i].pValue);
			}
		free(a->pValue);
	}
	memset(a, 0, sizeof(*a));
	return rv;
}

/* Reads the attributes of obj (class bit) that a backup keeps into o.
 * An attribute the object does not have is left out; CKA_TRUSTED only
 * when true (only the SO may set it, and false is the default); a
 * template only when it is not empty. A template the backup cannot keep
 * leaves the reason in why (the key is then skipped). */
static CK_RV
read_attrs(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE obj, unsigned bit,
    struct vg_bk_obj *o, char *why, size_t cap)
{
	const struct vg_bk_attr_def *d;
	uint8_t *v;
	CK_ULONG len;
	CK_RV rv = CKR_OK;
	size_t i;

	for (i = 0; i < vg_bk_nattrs && rv == CKR_OK && why[0] == '\0';
	    i++) {
		d = &vg_bk_attrs[i];
		if (!(d->classes & bit) || o->n == VG_BK_MAX_ATTRS)
			continue;
		if (d->kind == VG_BK_ATTRS) {
			rv = read_tmpl(s, obj, d->type, &o->a[o->n], why,
			    cap);
			if (rv == CKR_ATTRIBUTE_TYPE_INVALID)
				rv = CKR_OK;
			else if (rv == CKR_OK && o->a[o->n].pValue != NULL)
				o->n++;
			continue;
		}
		rv = vg_util_get_attr(s, obj, d->type, &v, &len);
		if (rv == CKR_ATTRIBUTE_TYPE_INVALID ||
		    rv == CKR_ATTRIBUTE_SENSITIVE) {
			rv = CKR_OK;
			continue;
		}
		if (rv != CKR_OK)
			break;
		if ((d->kind == VG_BK_BOOL && len != 1) ||
		    (d->kind == VG_BK_ULONG && len != sizeof(CK_ULONG)) ||
		    (d->kind == VG_BK_MECHS && len % sizeof(CK_ULONG) != 0) ||
		    (d->type == CKA_TRUSTED && v[0] == CK_FALSE)) {
			free(v);
			continue;
		}
		o->a[o->n].type = d->type;
		o->a[o->n].pValue = v;
		o->a[o->n].ulValueLen = len;
		o->n++;
	}
	return rv;
}

/* C_WrapKey of key under w into o->blob. */
static CK_RV
wrap(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE key,
    struct vg_bk_obj *o)
{
	CK_MECHANISM m = { CKM_AES_KEY_WRAP_KWP, NULL, 0 };
	CK_ULONG len = 0;
	CK_RV rv;

	rv = C_WrapKey(s, &m, w, key, NULL, &len);
	if (rv != CKR_OK)
		return rv;
	if (len == 0 || len > VG_BK_WRAPPED_MAX)
		return CKR_KEY_SIZE_RANGE;
	o->blob = malloc(len);
	if (o->blob == NULL)
		return CKR_HOST_MEMORY;
	rv = C_WrapKey(s, &m, w, key, o->blob, &len);
	o->blob_len = len;
	return rv;
}

/* What backing up obj gives: 1 added to the body, 0 skipped (message
 * printed), -1 failed (message printed). */
static int
back_up_one(CK_SESSION_HANDLE s, CK_OBJECT_HANDLE w, CK_OBJECT_HANDLE obj,
    struct vg_bk_buf *body)
{
	struct vg_bk_obj o;
	const CK_ATTRIBUTE *a;
	CK_OBJECT_CLASS cls;
	CK_ATTRIBUTE ca = { CKA_CLASS, &cls, sizeof(cls) };
	char what[256], why[160] = "";
	unsigned bit;
	int rc = -1;
	CK_RV rv;

	memset(&o, 0, sizeof(o));
	rv = vg_util_get_attrs(s, obj, &ca, 1);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot read an object's class", rv);
		return -1;
	}
	bit = vg_bk_class_bit(cls);
	if (bit == 0) {
		fprintf(stderr, "skipped: an object of class 0x%lx: not a "
		    "class a backup keeps\n", (unsigned long)cls);
		return 0;
	}
	rv = read_attrs(s, obj, bit, &o, why, sizeof(why));
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot read an object's attributes", rv);
		goto out;
	}
	vg_bk_describe(&o, what, sizeof(what));
	if (why[0] != '\0') {
		/* keeping the key without it would drop a restriction */
		fprintf(stderr, "skipped: %s: %s\n", what, why);
		rc = 0;
		goto out;
	}
	if (bit & (VG_BK_PRIV | VG_BK_SECRET)) {
		a = vg_bk_find(&o, CKA_EXTRACTABLE);
		if (a == NULL || *(CK_BBOOL *)a->pValue != CK_TRUE) {
			fprintf(stderr, "skipped: %s: not extractable (it "
			    "cannot leave the token)\n", what);
			rc = 0;
			goto out;
		}
		rv = wrap(s, w, obj, &o);
		if (rv != CKR_OK) {
			fprintf(stderr, "skipped: %s: the token does not "
			    "wrap it (%s)\n", what, vg_rv_name(rv));
			rc = 0;
			goto out;
		}
	}
	vg_bk_obj_put(body, &o);
	printf("  %s\n", what);
	rc = 1;
out:
	vg_bk_obj_free(&o);
	return rc;
}

/* The body: the source token's label and serial, the time, the number
 * of objects, and the objects. Returns 0 or -1 (message printed). */
static int
make_body(CK_SESSION_HANDLE s, CK_SLOT_ID slot, CK_OBJECT_HANDLE w,
    struct vg_bk_buf *body, unsigned *done, unsigned *skipped)
{
	static const CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE tok = { CKA_TOKEN, (void *)&yes, 1 };
	CK_OBJECT_HANDLE *objs = NULL;
	CK_TOKEN_INFO ti;
	CK_ULONG n = 0, i;
	size_t count_at;
	CK_RV rv;
	int r = 0;

	rv = C_GetTokenInfo(slot, &ti);
	if (rv == CKR_OK)
		rv = vg_util_find(s, &tok, 1, &objs, &n);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot list the token's objects", rv);
		return -1;
	}
	vg_bk_put_u(body, vg_util_trimmed(ti.label, sizeof(ti.label)), 2);
	vg_bk_put(body, ti.label, vg_util_trimmed(ti.label,
	    sizeof(ti.label)));
	vg_bk_put_u(body, vg_util_trimmed(ti.serialNumber,
	    sizeof(ti.serialNumber)), 2);
	vg_bk_put(body, ti.serialNumber, vg_util_trimmed(ti.serialNumber,
	    sizeof(ti.serialNumber)));
	vg_bk_put_u(body, (uint64_t)time(NULL), 8);
	count_at = body->len;
	vg_bk_put_u(body, 0, 4);
	for (i = 0; i < n && r >= 0; i++) {
		r = back_up_one(s, w, objs[i], body);
		if (r > 0)
			(*done)++;
		else if (r == 0)
			(*skipped)++;
	}
	free(objs);
	if (r < 0)
		return -1;
	if (body->oom) {
		vg_util_err("out of memory");
		return -1;
	}
	body->p[count_at] = (uint8_t)(*done >> 24);
	body->p[count_at + 1] = (uint8_t)(*done >> 16);
	body->p[count_at + 2] = (uint8_t)(*done >> 8);
	body->p[count_at + 3] = (uint8_t)*done;
	return 0;
}

/* Writes len bytes to a new file path (mode 0600; an existing file is
 * not replaced). Returns 0 or -1 (message printed, nothing left). */
static int
write_new(const char *path, const uint8_t *p, size_t len)
{
	size_t off = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		vg_util_err("cannot create %s: %s%s", path, strerror(errno),
		    errno == EEXIST ? " (a backup never replaces a file)"
				    : "");
		return -1;
	}
	while (off < len) {
		r = write(fd, p + off, len - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		off += (size_t)r;
	}
	if (off < len || fsync(fd) != 0 || close(fd) != 0) {
		vg_util_err("cannot write %s: %s", path, strerror(errno));
		if (off < len)
			close(fd);
		unlink(path);
		return -1;
	}
	return 0;
}

static int
backup_session(struct vg_util_opts *o, CK_SESSION_HANDLE s, CK_SLOT_ID slot)
{
	struct vg_bk_buf file = { .len = 0 };
	struct vg_bk_keys k;
	uint8_t rnd[44], hdr[VG_BK_HDR_LEN];
	CK_OBJECT_HANDLE w = CK_INVALID_HANDLE;
	unsigned done = 0, skipped = 0;
	size_t body_len;
	CK_RV rv;
	int rc = VG_UTIL_FAIL;

	/* salt (32) and IV (12), fresh for every file */
	rv = C_GenerateRandom(s, rnd, sizeof(rnd));
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot make the salt", rv);
		return VG_UTIL_FAIL;
	}
	vg_bk_header(hdr, VG_BK_ITERATIONS, rnd, rnd + 32, 0);
	if (vg_bk_derive(&o->passphrase, hdr, &k) != 0)
		goto out;
	rv = vg_util_bk_session_key(s, k.wrap, &w);
	if (rv != CKR_OK) {
		vg_util_err_rv("cannot make the wrapping key", rv);
		goto out;
	}
	printf("backing up token '%s' into %s:\n", o->token, o->file);
	vg_bk_put(&file, hdr, sizeof(hdr));
	if (make_body(s, slot, w, &file, &done, &skipped) != 0)
		goto out;
	body_len = file.len - VG_BK_HDR_LEN;
	if (body_len > VG_BK_FILE_MAX - VG_BK_HDR_LEN - VG_BK_TAG_LEN) {
		vg_util_err("the token's objects take more than %u MiB: too "
		    "large for one backup", VG_BK_FILE_MAX >> 20);
		goto out;
	}
	vg_bk_put(&file, hdr, VG_BK_TAG_LEN); /* room for the tag */
	if (file.oom) {
		vg_util_err("out of memory");
		goto out;
	}
	vg_bk_header(file.p, VG_BK_ITERATIONS, rnd, rnd + 32, body_len);
	if (vg_bk_seal(&k, file.p, body_len) != 0) {
		vg_util_err("cannot encrypt the backup");
		goto out;
	}
	if (write_new(o->file, file.p, file.len) != 0)
		goto out;
	printf("%u object(s) backed up", done);
	if (skipped != 0)
		printf(", %u skipped (see above)", skipped);
	printf("\n");
	rc = VG_UTIL_OK;
out:
	if (w != CK_INVALID_HANDLE)
		C_DestroyObject(s, w);
	vg_wipe(&k, sizeof(k));
	vg_bk_buf_free(&file);
	return rc;
}

/* see util/util.h */
int
vg_util_backup(struct vg_util_opts *o)
{
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	int rc = VG_UTIL_FAIL;

	if (access(o->file, F_OK) == 0) {
		vg_util_err("%s exists: a backup never replaces a file",
		    o->file);
		return VG_UTIL_FAIL;
	}
	if (vg_util_p11_init() != 0)
		return VG_UTIL_FAIL;
	if (vg_util_find_token(o->token, &slot) != 0 ||
	    vg_util_pin_need(&o->pin, "user PIN", "--pin", 0) != 0 ||
	    vg_util_backup_passphrase(o, 1) != 0)
		goto fini;
	if (o->passphrase.len < 8) {
		vg_util_err("the backup passphrase has fewer than 8 "
		    "characters");
		goto fini;
	}
	if (vg_util_open(o->token, slot, 0, CKU_USER, &o->pin, &s) != 0)
		goto fini;
	rc = backup_session(o, s, slot);
	C_Logout(s);
	C_CloseSession(s);
fini:
	vg_util_p11_fini();
	return rc;
}
