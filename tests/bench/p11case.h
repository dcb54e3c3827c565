/*
 * The cases of the p11 mode of vgtoken-bench (p11cases.c): one row each,
 * with set-up, run and tear-down function pointers over a per-thread state.
 * run() is one timed operation and returns its CK_RV; set-up prepares what
 * the operation consumes (outside the timed loop) and tear-down frees it.
 */
#ifndef VG_TESTS_BENCH_P11CASE_H
#define VG_TESTS_BENCH_P11CASE_H

#include "cryptoki/pkcs11.h"

/* Session keys a case needs, made once per module by p11keys_need(). */
enum p11need {
	NEED_NONE,
	NEED_RSA,     /* RSA-2048 pair */
	NEED_EC,      /* P-256 pair, and a second one as the ECDH peer */
	NEED_MLDSA44,
	NEED_MLDSA65,
	NEED_MLDSA87,
	NEED_HMAC,    /* a 32-byte generic secret (in priv[]) */
	NEED_AES,     /* an AES-256 key (in priv[] and pub[]) */
	NEED_ED25519, /* Ed25519 pair */
	NEED_MLKEM768,
	NEED_MLKEM512,
	NEED_MLKEM1024,
	NEED_COUNT
};

struct p11keys {
	int tried[NEED_COUNT];
	CK_RV rv[NEED_COUNT];
	CK_OBJECT_HANDLE pub[NEED_COUNT], priv[NEED_COUNT];
	CK_OBJECT_HANDLE peer_pub, peer_priv;
};

struct pcase;

/* The state of one thread running a case on one module. */
struct pthr {
	CK_FUNCTION_LIST *f;
	CK_FUNCTION_LIST_3_2 *f32; /* the module's 3.2 table, or NULL */
	CK_SESSION_HANDLE s;
	CK_SLOT_ID slot;
	const struct pcase *c;
	struct p11keys *k;
	CK_MECHANISM mech;
	union {
		CK_RSA_PKCS_PSS_PARAMS pss;
		CK_RSA_PKCS_OAEP_PARAMS oaep;
		CK_ECDH1_DERIVE_PARAMS ecdh;
		CK_GCM_PARAMS gcm;
	} p;
	CK_OBJECT_HANDLE key;
	unsigned char in[1024];
	CK_ULONG inlen;
	unsigned char aux[8192]; /* a signature or ciphertext from set-up */
	CK_ULONG auxlen;
	unsigned char point[160]; /* the ECDH peer's public point */
	unsigned char out[8192];
	unsigned char *buf;      /* larger input and output, from set-up
	                            (freed by tear-down) */
	CK_OBJECT_HANDLE objs[10]; /* objects set-up made for the thread
	                              (destroyed by tear-down) */
	int nobjs;
};

struct pcase {
	const char *name;
	enum p11need need;
	CK_ULONG param; /* mechanism or parameter set, as the case says */
	CK_RV (*setup)(struct pthr *t);
	CK_RV (*run)(struct pthr *t);
	void (*teardown)(struct pthr *t);
};

extern const struct pcase p11_cases[];
extern const size_t p11_ncases;

/* Makes the keys of need on session s once (later calls return the first
 * result). */
CK_RV p11keys_need(struct p11keys *k, CK_FUNCTION_LIST *f,
    CK_SESSION_HANDLE s, enum p11need need);

/* The label of the object the find case looks for (one of several data
 * objects the p11 mode creates on each token). */
#define P11_FIND_LABEL "vgtoken-bench find 5"

#endif
