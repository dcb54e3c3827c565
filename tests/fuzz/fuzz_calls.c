/*
 * Fuzz target "calls": random sequences of PKCS#11 calls through the
 * function list, with random handles, PINs, lengths and buffers, against
 * one module instance. Each input starts from the same token database (a
 * copy of a snapshot: a token with its PINs, token objects of several
 * classes) and does C_Initialize (arguments from the input), at most
 * VG_FZ_MAX_CALLS calls, and C_Finalize; so a sequence may log in with
 * the right or a wrong PIN (and lock the PIN), re-initialise the token,
 * finalise and initialise again, destroy objects, or leave operations
 * half done (C_EncapsulateKey and C_DecapsulateKey among the calls,
 * mostly with the snapshot's ML-KEM key). Handles are mostly ones the
 * sequence has seen (sessions it
 * opened, objects it made or found, the snapshot's objects), sometimes
 * any value. C_WaitForSlotEvent is called with CKF_DONT_BLOCK only.
 *
 * Oracles: every return value is a defined CK_RV; outputs never exceed
 * the room given; a successful length query followed by a buffer of that
 * length does not give CKR_BUFFER_TOO_SMALL for lists; the sanitizers
 * (use after free of sessions and objects, leaks across C_Finalize).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/p11.h"

#define VG_FZ_MAX_CALLS 48
#define NSESS 8
#define NOBJ 24

struct state {
	struct vg_fz_pool pool;
	struct vg_fz_in in;
	CK_SESSION_HANDLE sess[NSESS];
	size_t nsess, next_sess;
	CK_OBJECT_HANDLE obj[NOBJ];
	size_t nobj, next_obj;
};

static CK_SLOT_ID token_slot;
static struct vg_fz_keys keys;
static CK_OBJECT_HANDLE base_obj[NOBJ];
static size_t nbase;

/* ----------------------------------------- application mutexes */

static CK_RV
mutex_create(CK_VOID_PTR_PTR m)
{
	pthread_mutex_t *p = malloc(sizeof(*p));

	if (p == NULL)
		return CKR_HOST_MEMORY;
	pthread_mutex_init(p, NULL);
	*m = p;
	return CKR_OK;
}

static CK_RV
mutex_destroy(CK_VOID_PTR m)
{
	pthread_mutex_destroy(m);
	free(m);
	return CKR_OK;
}

static CK_RV
mutex_lock(CK_VOID_PTR m)
{
	return pthread_mutex_lock(m) == 0 ? CKR_OK : CKR_GENERAL_ERROR;
}

static CK_RV
mutex_unlock(CK_VOID_PTR m)
{
	return pthread_mutex_unlock(m) == 0 ? CKR_OK : CKR_GENERAL_ERROR;
}

/* ----------------------------------------------------- set-up */

/* see fuzz.h */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	CK_FUNCTION_LIST_3_2 *f;
	CK_OBJECT_CLASS data = CKO_DATA;
	CK_BBOOL yes = CK_TRUE;
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &data, sizeof(data) },
		{ CKA_TOKEN, &yes, 1 },
		{ CKA_LABEL, "seed", 4 },
		{ CKA_VALUE, "some data", 9 },
	};
	CK_SESSION_HANDLE s;
	CK_ULONG n;

	(void)argc;
	(void)argv;
	vg_fz_p11_setup();
	f = vg_fz_p11;
	vg_fz_need(f->C_Initialize(NULL), "C_Initialize");
	token_slot = vg_fz_p11_token();
	s = vg_fz_p11_user_session(token_slot);
	vg_fz_p11_keys(s, 0, 1, &keys);
	vg_fz_need(f->C_CreateObject(s, t, 4, &base_obj[0]), "data object");
	vg_fz_need(f->C_FindObjectsInit(s, NULL, 0), "C_FindObjectsInit");
	vg_fz_need(f->C_FindObjects(s, base_obj + 1, NOBJ - 1, &n),
	    "C_FindObjects");
	vg_fz_need(f->C_FindObjectsFinal(s), "C_FindObjectsFinal");
	nbase = 1 + n;
	vg_fz_need(f->C_Finalize(NULL), "C_Finalize");
	vg_fz_p11_snapshot();
	return 0;
}

/* ------------------------------------------------ arguments */

static CK_SESSION_HANDLE
sess_arg(struct state *st)
{
	uint8_t b = vg_fz_u8(&st->in);

	if (b >= 0xf0 || st->nsess == 0)
		return b >= 0xf8 ? vg_fz_ulong(&st->in) : CK_INVALID_HANDLE;
	return st->sess[b % st->nsess];
}

static void
sess_add(struct state *st, CK_SESSION_HANDLE h)
{
	st->sess[st->next_sess++ % NSESS] = h;
	if (st->nsess < NSESS)
		st->nsess++;
}

static CK_OBJECT_HANDLE
obj_arg(struct state *st)
{
	uint8_t b = vg_fz_u8(&st->in);

	if (b >= 0xf0)
		return vg_fz_ulong(&st->in);
	if (b & 1 || st->nobj == 0)
		return base_obj[(b >> 1) % nbase];
	return st->obj[(b >> 1) % st->nobj];
}

static void
obj_add(struct state *st, CK_OBJECT_HANDLE h)
{
	st->obj[st->next_obj++ % NOBJ] = h;
	if (st->nobj < NOBJ)
		st->nobj++;
}

static CK_SLOT_ID
slot_arg(struct state *st)
{
	uint8_t b = vg_fz_u8(&st->in);

	if (b < 0xc0)
		return token_slot + (b & 1); /* the token's, the free one */
	return vg_fz_ulong(&st->in);
}

/* A PIN: the user's, the SO's, a wrong one, NULL with a length, or
 * bytes. */
static void
pin_arg(struct state *st, CK_UTF8CHAR_PTR *pin, CK_ULONG *len)
{
	static const char *const pins[] = { VG_FZ_USER_PIN, VG_FZ_SO_PIN,
		"wrong-pin" };
	uint8_t b = vg_fz_u8(&st->in) % 5;
	size_t got;

	if (b < 3) {
		*len = strlen(pins[b]);
		*pin = vg_fz_dup(&st->pool, pins[b], *len);
	} else if (b == 3) {
		*pin = NULL;
		*len = vg_fz_ulong(&st->in);
	} else {
		*pin = vg_fz_take(&st->pool, &st->in, vg_fz_len(&st->in, 300),
		    &got);
		*len = got;
	}
}

/* An output buffer: NULL (length query) or room for n bytes; *lenp is
 * NULL now and then. */
struct outbuf {
	CK_BYTE_PTR p;
	CK_ULONG len, room;
	CK_ULONG_PTR lenp;
};

static void
out_arg(struct state *st, struct outbuf *o, size_t unit)
{
	uint8_t b = vg_fz_u8(&st->in);

	o->lenp = &o->len;
	o->p = NULL;
	o->len = 0;
	if (b < 0x40) {
		o->len = vg_fz_ulong(&st->in);
	} else if (b < 0xf8) {
		o->len = vg_fz_len(&st->in, 4096 / unit);
		o->p = vg_fz_alloc(&st->pool, o->len * unit);
	} else {
		o->lenp = NULL;
	}
	o->room = o->p != NULL ? o->len : 0;
}

static void
out_check(const struct outbuf *o, CK_RV rv, const char *fn)
{
	if (rv == CKR_OK && o->p != NULL && o->len > o->room)
		vg_fz_fail("%s: %lu written into room for %lu", fn,
		    (unsigned long)o->len, (unsigned long)o->room);
}

static void
mech_arg(struct state *st, CK_MECHANISM *m)
{
	size_t got;

	m->mechanism = vg_fz_mech_type(&st->in);
	m->pParameter = NULL;
	m->ulParameterLen = 0;
	if (vg_fz_u8(&st->in) >= 0xe0) {
		got = vg_fz_len(&st->in, 64);
		/* Never the size of a parameter structure with pointers. */
		if (got == 24 || got == 32 || got == 40)
			got++;
		m->pParameter = vg_fz_take(&st->pool, &st->in, got, &got);
		m->ulParameterLen = got;
		if (got == 24 || got == 32 || got == 40)
			m->ulParameterLen = 0;
	}
}

static CK_BYTE_PTR
data_arg(struct state *st, CK_ULONG *len)
{
	size_t got;
	CK_BYTE_PTR p;

	p = vg_fz_take(&st->pool, &st->in, vg_fz_len(&st->in, 1024), &got);
	*len = got;
	return p;
}

/* --------------------------------------------------------- calls */

static void
init_call(struct state *st)
{
	CK_C_INITIALIZE_ARGS a;
	uint8_t b = vg_fz_u8(&st->in) % 5;

	memset(&a, 0, sizeof(a));
	if (b == 1)
		a.flags = CKF_OS_LOCKING_OK;
	else if (b == 2)
		a.flags = CKF_OS_LOCKING_OK | CKF_LIBRARY_CANT_CREATE_OS_THREADS;
	if (b == 3) {
		a.CreateMutex = mutex_create;
		a.DestroyMutex = mutex_destroy;
		a.LockMutex = mutex_lock;
		a.UnlockMutex = mutex_unlock;
	}
	if (b == 4)
		a.pReserved = &a; /* must be refused */
	vg_fz_rv(vg_fz_p11->C_Initialize(b == 0 ? NULL : &a), "C_Initialize");
	st->nsess = 0;
}

#define RV(call, name) vg_fz_rv(f->call, name)

/*
 * C_EncapsulateKey (encaps) or C_DecapsulateKey: a selector byte picks
 * the mechanism (bit 0: any, else CKM_ML_KEM) and the key (bit 1: any
 * object, else the snapshot's ML-KEM-512 key of the right class); then
 * a template, and the output buffer or the ciphertext.
 */
static void
kem_call(struct state *st, int encaps)
{
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	CK_SESSION_HANDLE s = sess_arg(st);
	CK_OBJECT_HANDLE k, h = CK_INVALID_HANDLE;
	CK_MECHANISM m = { CKM_ML_KEM, NULL, 0 };
	uint8_t sel = vg_fz_u8(&st->in);
	CK_ATTRIBUTE *t;
	CK_BYTE_PTR d;
	struct outbuf o;
	CK_ULONG n, len;
	CK_RV rv;

	if (sel & 1)
		mech_arg(st, &m);
	k = sel & 2 ? obj_arg(st) : encaps ? keys.mlkem_pub : keys.mlkem_priv;
	n = vg_fz_template(&st->pool, &st->in, 6, 0, &t);
	if (encaps) {
		out_arg(st, &o, 1);
		rv = RV(C_EncapsulateKey(s, &m, k, t, n, o.p, o.lenp, &h),
		    "C_EncapsulateKey");
		out_check(&o, rv, "C_EncapsulateKey");
		if (rv == CKR_OK && o.p != NULL)
			obj_add(st, h);
		else if (h != CK_INVALID_HANDLE)
			vg_fz_fail("C_EncapsulateKey: a handle without a key");
	} else {
		d = data_arg(st, &len);
		rv = RV(C_DecapsulateKey(s, &m, k, t, n, d, len, &h),
		    "C_DecapsulateKey");
		if (rv == CKR_OK)
			obj_add(st, h);
		else if (h != CK_INVALID_HANDLE)
			vg_fz_fail("C_DecapsulateKey: a handle without a key");
	}
}

static void
one_call(struct state *st)
{
	CK_FUNCTION_LIST_3_2 *f = vg_fz_p11;
	CK_SESSION_HANDLE s = 0;
	CK_OBJECT_HANDLE h = CK_INVALID_HANDLE, h2 = CK_INVALID_HANDLE;
	CK_MECHANISM m;
	CK_ATTRIBUTE *t, *t2;
	CK_ULONG n, n2, len;
	CK_UTF8CHAR_PTR pin, pin2;
	CK_BYTE_PTR d;
	struct outbuf o;
	CK_RV rv;
	union {
		CK_INFO info;
		CK_SLOT_INFO slot;
		CK_TOKEN_INFO token;
		CK_MECHANISM_INFO mech;
		CK_SESSION_INFO sess;
	} info;
	uint8_t op = vg_fz_u8(&st->in);

	/* Key encapsulation came after the seeds, which use ops below 50:
	 * 250 and 251 (which were 0 and 1 again) are its calls. */
	if (op == 250 || op == 251) {
		kem_call(st, op == 250);
		return;
	}
	switch (op % 50) {
	case 0:
		RV(C_GetInfo(vg_fz_u8(&st->in) ? &info.info : NULL),
		    "C_GetInfo");
		break;
	case 1:
		out_arg(st, &o, sizeof(CK_SLOT_ID));
		rv = RV(C_GetSlotList(vg_fz_u8(&st->in) & 1,
		    (CK_SLOT_ID_PTR)o.p, o.lenp), "C_GetSlotList");
		out_check(&o, rv, "C_GetSlotList");
		break;
	case 2:
		RV(C_GetSlotInfo(slot_arg(st), &info.slot), "C_GetSlotInfo");
		break;
	case 3:
		RV(C_GetTokenInfo(slot_arg(st), &info.token),
		    "C_GetTokenInfo");
		break;
	case 4:
		out_arg(st, &o, sizeof(CK_MECHANISM_TYPE));
		rv = RV(C_GetMechanismList(slot_arg(st),
		    (CK_MECHANISM_TYPE_PTR)o.p, o.lenp), "C_GetMechanismList");
		out_check(&o, rv, "C_GetMechanismList");
		break;
	case 5: {
		CK_SLOT_ID sl = slot_arg(st);

		RV(C_GetMechanismInfo(sl, vg_fz_mech_type(&st->in),
		    &info.mech), "C_GetMechanismInfo");
		break;
	}
	case 6: {
		CK_UTF8CHAR label[32];

		memset(label, vg_fz_u8(&st->in), sizeof(label));
		pin_arg(st, &pin, &n);
		RV(C_InitToken(slot_arg(st), pin, n, label), "C_InitToken");
		break;
	}
	case 7:
		s = sess_arg(st);
		pin_arg(st, &pin, &n);
		RV(C_InitPIN(s, pin, n), "C_InitPIN");
		break;
	case 8:
		s = sess_arg(st);
		pin_arg(st, &pin, &n);
		pin_arg(st, &pin2, &n2);
		RV(C_SetPIN(s, pin, n, pin2, n2), "C_SetPIN");
		break;
	case 9: {
		CK_FLAGS fl = vg_fz_u8(&st->in) < 0xf0
		    ? CKF_SERIAL_SESSION | (vg_fz_u8(&st->in) & 1 ?
			CKF_RW_SESSION : 0)
		    : vg_fz_ulong(&st->in);

		rv = RV(C_OpenSession(slot_arg(st), fl, NULL, NULL, &s),
		    "C_OpenSession");
		if (rv == CKR_OK)
			sess_add(st, s);
		break;
	}
	case 10:
		RV(C_CloseSession(sess_arg(st)), "C_CloseSession");
		break;
	case 11:
		RV(C_CloseAllSessions(slot_arg(st)), "C_CloseAllSessions");
		break;
	case 12:
		s = sess_arg(st);
		RV(C_GetSessionInfo(s, vg_fz_u8(&st->in) ? &info.sess : NULL),
		    "C_GetSessionInfo");
		break;
	case 13: {
		CK_USER_TYPE u = vg_fz_u8(&st->in) % 4;

		s = sess_arg(st);
		pin_arg(st, &pin, &n);
		RV(C_Login(s, u == 3 ? vg_fz_ulong(&st->in) : u, pin, n),
		    "C_Login");
		break;
	}
	case 14:
		RV(C_Logout(sess_arg(st)), "C_Logout");
		break;
	case 15:
		s = sess_arg(st);
		n = vg_fz_template(&st->pool, &st->in, 10, 0, &t);
		rv = RV(C_CreateObject(s, t, n, &h), "C_CreateObject");
		if (rv == CKR_OK)
			obj_add(st, h);
		break;
	case 16:
		s = sess_arg(st);
		h = obj_arg(st);
		n = vg_fz_template(&st->pool, &st->in, 6, 0, &t);
		rv = RV(C_CopyObject(s, h, t, n, &h2), "C_CopyObject");
		if (rv == CKR_OK)
			obj_add(st, h2);
		break;
	case 17:
		s = sess_arg(st);
		RV(C_DestroyObject(s, obj_arg(st)), "C_DestroyObject");
		break;
	case 18:
		s = sess_arg(st);
		RV(C_GetObjectSize(s, obj_arg(st), &len), "C_GetObjectSize");
		break;
	case 19:
		s = sess_arg(st);
		h = obj_arg(st);
		n = vg_fz_template(&st->pool, &st->in, 10, 0, &t);
		RV(C_GetAttributeValue(s, h, t, n), "C_GetAttributeValue");
		break;
	case 20:
		s = sess_arg(st);
		h = obj_arg(st);
		n = vg_fz_template(&st->pool, &st->in, 6, 0, &t);
		RV(C_SetAttributeValue(s, h, t, n), "C_SetAttributeValue");
		break;
	case 21:
		s = sess_arg(st);
		n = vg_fz_template(&st->pool, &st->in, 4, 0, &t);
		RV(C_FindObjectsInit(s, t, n), "C_FindObjectsInit");
		break;
	case 22: {
		CK_OBJECT_HANDLE found[8];
		CK_ULONG i, max = vg_fz_u8(&st->in) % 9;

		s = sess_arg(st);
		rv = RV(C_FindObjects(s, found, max, &n), "C_FindObjects");
		if (rv == CKR_OK && n > max)
			vg_fz_fail("C_FindObjects: %lu handles for %lu",
			    (unsigned long)n, (unsigned long)max);
		for (i = 0; rv == CKR_OK && i < n; i++)
			obj_add(st, found[i]);
		break;
	}
	case 23:
		RV(C_FindObjectsFinal(sess_arg(st)), "C_FindObjectsFinal");
		break;
	case 24:
	case 29:
	case 33:
	case 37:
	case 39: {
		s = sess_arg(st);
		mech_arg(st, &m);
		h = obj_arg(st);
		if (op % 50 == 24)
			RV(C_DigestInit(s, &m), "C_DigestInit");
		else if (op % 50 == 29)
			RV(C_SignInit(s, &m, h), "C_SignInit");
		else if (op % 50 == 33)
			RV(C_VerifyInit(s, &m, h), "C_VerifyInit");
		else if (op % 50 == 37)
			RV(C_EncryptInit(s, &m, h), "C_EncryptInit");
		else
			RV(C_DecryptInit(s, &m, h), "C_DecryptInit");
		break;
	}
	case 25:
	case 30:
	case 38:
	case 40: {
		CK_C_Digest fn = op % 50 == 25 ? f->C_Digest
		    : op % 50 == 30 ? f->C_Sign
		    : op % 50 == 38 ? f->C_Encrypt : f->C_Decrypt;

		s = sess_arg(st);
		d = data_arg(st, &len);
		out_arg(st, &o, 1);
		rv = vg_fz_rv(fn(s, d, len, o.p, o.lenp), "C_Digest/Sign/...");
		out_check(&o, rv, "C_Digest/Sign/Encrypt/Decrypt");
		break;
	}
	case 26:
	case 31:
	case 35:
		s = sess_arg(st);
		d = data_arg(st, &len);
		if (op % 50 == 26)
			RV(C_DigestUpdate(s, d, len), "C_DigestUpdate");
		else if (op % 50 == 31)
			RV(C_SignUpdate(s, d, len), "C_SignUpdate");
		else
			RV(C_VerifyUpdate(s, d, len), "C_VerifyUpdate");
		break;
	case 27:
		s = sess_arg(st);
		RV(C_DigestKey(s, obj_arg(st)), "C_DigestKey");
		break;
	case 28:
	case 32:
		s = sess_arg(st);
		out_arg(st, &o, 1);
		rv = op % 50 == 28 ? RV(C_DigestFinal(s, o.p, o.lenp),
					 "C_DigestFinal")
				   : RV(C_SignFinal(s, o.p, o.lenp),
					 "C_SignFinal");
		out_check(&o, rv, "C_DigestFinal/C_SignFinal");
		break;
	case 34: {
		CK_BYTE_PTR sig;
		CK_ULONG siglen;

		s = sess_arg(st);
		d = data_arg(st, &len);
		sig = data_arg(st, &siglen);
		RV(C_Verify(s, d, len, sig, siglen), "C_Verify");
		break;
	}
	case 36:
		s = sess_arg(st);
		d = data_arg(st, &len);
		RV(C_VerifyFinal(s, d, len), "C_VerifyFinal");
		break;
	case 41:
		s = sess_arg(st);
		m = (CK_MECHANISM){ vg_fz_u8(&st->in) & 1 ? CKM_AES_KEY_GEN
		    : CKM_GENERIC_SECRET_KEY_GEN, NULL, 0 };
		n = vg_fz_template(&st->pool, &st->in, 6, 0, &t);
		rv = RV(C_GenerateKey(s, &m, t, n, &h), "C_GenerateKey");
		if (rv == CKR_OK)
			obj_add(st, h);
		break;
	case 42:
		s = sess_arg(st);
		m = (CK_MECHANISM){ vg_fz_u8(&st->in) & 1 ? CKM_EC_KEY_PAIR_GEN
		    : CKM_ML_DSA_KEY_PAIR_GEN, NULL, 0 };
		n = vg_fz_template(&st->pool, &st->in, 5, 0, &t);
		n2 = vg_fz_template(&st->pool, &st->in, 5, 0, &t2);
		rv = RV(C_GenerateKeyPair(s, &m, t, n, t2, n2, &h, &h2),
		    "C_GenerateKeyPair");
		if (rv == CKR_OK) {
			obj_add(st, h);
			obj_add(st, h2);
		}
		break;
	case 43: {
		CK_ECDH1_DERIVE_PARAMS p = { CKD_NULL, 0, NULL,
			sizeof(keys.ec_point), keys.ec_point };

		s = sess_arg(st);
		h = obj_arg(st);
		m = (CK_MECHANISM){ CKM_ECDH1_DERIVE, &p, sizeof(p) };
		n = vg_fz_template(&st->pool, &st->in, 6, 0, &t);
		rv = RV(C_DeriveKey(s, &m, h, t, n, &h2), "C_DeriveKey");
		if (rv == CKR_OK)
			obj_add(st, h2);
		break;
	}
	case 44:
		s = sess_arg(st);
		d = data_arg(st, &len);
		RV(C_SeedRandom(s, d, len), "C_SeedRandom");
		break;
	case 45:
		s = sess_arg(st);
		n = vg_fz_len(&st->in, 4096);
		d = vg_fz_alloc(&st->pool, n);
		RV(C_GenerateRandom(s, d, n), "C_GenerateRandom");
		break;
	case 46:
		s = sess_arg(st);
		RV(C_SessionCancel(s, vg_fz_ulong(&st->in)), "C_SessionCancel");
		break;
	case 47: {
		CK_USER_TYPE u = vg_fz_u8(&st->in) % 3;
		CK_ULONG ulen;
		CK_UTF8CHAR_PTR user;

		s = sess_arg(st);
		pin_arg(st, &pin, &n);
		user = data_arg(st, &ulen);
		RV(C_LoginUser(s, u, pin, n, user, ulen), "C_LoginUser");
		break;
	}
	case 48:
		if (vg_fz_u8(&st->in) & 1) {
			RV(C_Finalize(NULL), "C_Finalize");
			st->nsess = 0;
		} else {
			init_call(st);
		}
		break;
	default: {
		CK_SLOT_ID sl;

		RV(C_WaitForSlotEvent(CKF_DONT_BLOCK, &sl, NULL),
		    "C_WaitForSlotEvent");
		break;
	}
	}
}

/* see fuzz.h */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state st;
	int i;

	memset(&st, 0, sizeof(st));
	st.in.p = data;
	st.in.len = size;
	vg_fz_p11_restore();
	init_call(&st);
	for (i = 0; i < VG_FZ_MAX_CALLS && st.in.len > 0; i++)
		one_call(&st);
	vg_fz_rv(vg_fz_p11->C_Finalize(NULL), "C_Finalize");
	vg_fz_pool_free(&st.pool);
	return 0;
}
