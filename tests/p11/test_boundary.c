/*
 * Bad input at the boundary, table-driven: every entry point of the 3.2
 * function list called with one argument broken at a time (NULL
 * pointers, lengths at 0, 1, one below and one above what is needed,
 * CK_UNAVAILABLE_INFORMATION and 2^40, handles that name nothing, wrong
 * user types and mechanisms), each row of tests/p11/boundary_rows.h
 * naming the CK_RV the specification asks for.
 *
 * Besides the return value each call is checked for what it must leave
 * behind [PKCS#11 3.2 §5.2]: the needed length on CKR_BUFFER_TOO_SMALL
 * (and an untouched buffer), exact lengths on success, output buffers
 * sized exactly so that an overrun is caught by ASan, and the state of
 * the session's operation afterwards: alive after a length query or a
 * short buffer, ended by any other error of a single-part or final call.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/boundary.h"
#include "tests/p11/common.h"

#define HUGE_LEN ((CK_ULONG)1 << 40)

/* The rows. */
static const struct row rows[] = {
#define ROW(f, fx, a, h, want) { F_##f, FX_##fx, A_##a, H_##h, 0, want, __LINE__ },
#define ROWV(f, fx, a, v, want) { F_##f, FX_##fx, A_##a, H_VALUE, v, want, __LINE__ },
#include "tests/p11/boundary_rows.h"
#undef ROW
#undef ROWV
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* The numeric field an argument names, or NULL for pointers. */
static CK_ULONG *
num(struct call *c, enum arg a)
{
	switch (a) {
	case A_SLOT: return &c->slot;
	case A_SESSION: return &c->h;
	case A_OBJECT: return &c->obj;
	case A_OBJECT2: return &c->obj2;
	case A_MECHTYPE: return &c->mech.mechanism;
	case A_PARAMLEN: return &c->mech.ulParameterLen;
	case A_USER: return &c->user;
	case A_FLAGS: return &c->flags;
	case A_INLEN: return &c->inlen;
	case A_IN2LEN: return &c->in2len;
	case A_OUTLEN: return &c->outlen;
	case A_COUNT: return &c->count;
	case A_COUNT2: return &c->count2;
	case A_ATTRTYPE: return &c->attrs[0].type;
	case A_ATTRLEN: return &c->attrs[0].ulValueLen;
	case A_MPARAMLEN: return &c->paramlen;
	default: return NULL;
	}
}

/* Sets the pointer an argument names. */
static void
set_ptr(struct call *c, enum arg a, void *p)
{
	switch (a) {
	case A_MECH: c->pmech = p; break;
	case A_PARAM: c->mech.pParameter = p; break;
	case A_IN: c->in = p; break;
	case A_IN2: c->in2 = p; break;
	case A_OUT: c->out = p; break;
	case A_POUTLEN: c->poutlen = p; break;
	case A_TMPL: c->tmpl = p; break;
	case A_TMPL2: c->tmpl2 = p; break;
	case A_ATTRVAL: c->attrs[0].pValue = p; break;
	case A_PH: c->ph = p; break;
	case A_PH2: c->ph2 = p; break;
	case A_INFO: c->info = p; break;
	case A_RESERVED: c->reserved = c->initargs.pReserved = p; break;
	case A_MPARAM: c->param = p; break;
	case A_NAME: c->name = p; break;
	case A_VERSION: c->version = p; break;
	case A_PPIFACE: c->ppiface = p; break;
	case A_PPLIST: c->pplist = p; break;
	default: fail_msg("argument %d is not a pointer", (int)a);
	}
}

/* Breaks argument a of the call in way h (one of H_BAD's kinds). */
static void
apply(struct call *c, const struct row *r, enum how h)
{
	CK_ULONG *v = num(c, r->arg);

	if (h == H_NONE)
		return;
	if (h == H_NULL || h == H_BOGUS) {
		set_ptr(c, r->arg, h == H_NULL ? NULL
		    : r->arg == A_NAME ? (void *)"nope"
		    : r->arg == A_VERSION ? (void *)&bnd_bogus_version
		    : (void *)bnd_bogus);
		return;
	}
	assert_non_null(v);
	switch (h) {
	case H_ZERO: *v = 0; break;
	case H_ONE: *v = 1; break;
	case H_SHORT: *v -= 1; break;
	case H_LONG: *v += 1; break;
	case H_UNAVAIL: *v = CK_UNAVAILABLE_INFORMATION; break;
	case H_HUGE: *v = HUGE_LEN; break;
	case H_VALUE: *v = r->value; break;
	case H_DATAOBJ: *v = bnd_data_object; break;
	case H_PUBKEY: *v = bnd_fx[r->fx].pub; break;
	case H_PRIVKEY: *v = bnd_fx[r->fx].priv; break;
	case H_STALE:
		*v = r->arg == A_SESSION ? bnd_stale_session
		    : r->arg == A_SLOT ? p11_bad_slot() : bnd_stale_object;
		break;
	default: fail_msg("bad way %d", (int)h);
	}
}

static const char *const arg_names[] = {
	"-", "slot", "session", "object", "object2", "mechanism",
	"mechanism type", "mechanism parameter", "parameter length",
	"user type", "flags", "input", "input length", "second input",
	"second input length", "output", "output length",
	"output length pointer", "template", "count", "second template",
	"second count", "attribute type", "attribute value",
	"attribute length", "handle out", "second handle out", "info",
	"reserved", "message parameter", "message parameter length", "name",
	"version", "interface out", "function list out",
};
static const char *const how_names[] = {
	"correct", "NULL", "non-NULL", "0", "1", "needed - 1", "needed + 1",
	"CK_UNAVAILABLE_INFORMATION", "2^40", "stale", "bad", "a data object",
	"the public key", "the private key", "value",
};

static unsigned failures, calls;

#define ROW_FAIL(r, h, ...)                                                 \
	do {                                                                \
		print_error("boundary_rows.h:%d: %s, %s %s: ", (r)->line,   \
		    bnd_fns[(r)->fn].name, arg_names[(r)->arg],                 \
		    how_names[h]);                                          \
		print_error(__VA_ARGS__);                                   \
		print_error("\n");                                          \
		failures++;                                                 \
	} while (0)

/* What the call left in its output: lengths and buffers. */
static void
check_output(const struct row *r, enum how h, const struct call *c,
    CK_RV rv)
{
	CK_ULONG i;

	if (c->attr_out) {
		CK_ULONG got = c->attrs[0].ulValueLen;

		if ((rv == CKR_BUFFER_TOO_SMALL ||
		    rv == CKR_ATTRIBUTE_SENSITIVE ||
		    rv == CKR_ATTRIBUTE_TYPE_INVALID) &&
		    got != CK_UNAVAILABLE_INFORMATION)
			ROW_FAIL(r, h, "ulValueLen %lu, want "
			    "CK_UNAVAILABLE_INFORMATION", got);
		if (rv == CKR_OK && got != c->need)
			ROW_FAIL(r, h, "ulValueLen %lu, want %lu", got,
			    c->need);
	}
	if (c->need == CK_UNAVAILABLE_INFORMATION || c->poutlen == NULL ||
	    r->arg == A_POUTLEN || c->attr_out)
		return;
	if (rv == CKR_BUFFER_TOO_SMALL || (rv == CKR_OK && c->out != NULL)) {
		if (c->outlen != c->need)
			ROW_FAIL(r, h, "length %lu, want %lu", c->outlen,
			    c->need);
	} else if (rv == CKR_OK && c->outlen < c->need) {
		ROW_FAIL(r, h, "length %lu, want at least %lu", c->outlen,
		    c->need);
	}
	if (rv == CKR_BUFFER_TOO_SMALL && c->heap != NULL)
		for (i = 0; i < c->need; i++)
			if (c->heap[i] != BND_PATTERN) {
				ROW_FAIL(r, h, "the short buffer was written");
				break;
			}
}

/* Whether the session's operation is still there: the correct call,
 * made again, says. */
static void
check_operation(const struct row *r, enum how h, struct call *c, CK_RV rv,
    int out_null)
{
	const struct fninfo *fi = &bnd_fns[r->fn];
	int alive;
	CK_RV again, want;

	if (fi->stage == ST_NONE)
		return;
	if (fi->stage == ST_INIT) {
		/* A refused Init starts nothing. */
		alive = rv == CKR_OK;
		want = alive ? CKR_OPERATION_ACTIVE : CKR_OK;
	} else {
		alive = r->arg == A_SESSION || rv == CKR_BUFFER_TOO_SMALL ||
		    (rv == CKR_OK && fi->stage == ST_UPDATE) ||
		    (rv == CKR_OK && out_null && fi->stage != ST_VERIFY);
		want = alive ? CKR_OK : CKR_OPERATION_NOT_INITIALIZED;
	}
	if (r->arg == A_SESSION && fi->stage == ST_INIT)
		want = CKR_OK;
	again = fi->call(c);
	if (again != want)
		ROW_FAIL(r, h, "the correct call afterwards: %s, want %s "
		    "(the operation should %s)", p11_rv_name(again),
		    p11_rv_name(want), alive ? "go on" : "have ended");
}

static void
run_one(const struct row *r, enum how h)
{
	struct call c, base;
	CK_RV rv;
	int out_null;

	bnd_prep(r, &c);
	base = c;
	apply(&c, r, h);
	rv = bnd_fns[r->fn].call(&c);
	calls++;
	if (rv != r->want)
		ROW_FAIL(r, h, "%s, want %s", p11_rv_name(rv),
		    p11_rv_name(r->want));
	else
		check_output(r, h, &c, rv);
	if (r->fn == F_C_OpenSession && rv == CKR_OK)
		assert_rv(p11->C_CloseSession(c.hout), CKR_OK);
	/* The correct call again, on the same storage (the fields point
	 * into c). */
	out_null = c.out == NULL;
	c = base;
	check_operation(r, h, &c, rv, out_null);
	(void)p11->C_CloseSession(c.h);
	free(c.heap);
}

/* Every row, each way of breaking its argument. */
static void
test_table(void **state)
{
	static const enum how bad_handles[] = { H_ZERO, H_STALE, H_HUGE,
		H_UNAVAIL };
	size_t i, k;

	(void)state;
	bnd_setup_fixtures();
	for (i = 0; i < NROWS; i++) {
		if (rows[i].how != H_BAD) {
			run_one(&rows[i], rows[i].how);
			continue;
		}
		for (k = 0; k < 4; k++)
			if (!(rows[i].arg == A_SLOT && bad_handles[k] == H_ZERO))
				run_one(&rows[i], bad_handles[k]);
	}
	bnd_login_as(FX_NONE);
	print_message("%zu rows, %u calls, %u failures\n", NROWS, calls,
	    failures);
	assert_int_equal(failures, 0);
}

/* Every entry point of the 3.2 function list has rows. */
static void
test_every_function(void **state)
{
#define NAME_(name, params) #name,
	static const char *const all[] = {
		VG_CK_FUNCTIONS_2_40(NAME_) VG_CK_FUNCTIONS_3_0(NAME_)
		VG_CK_FUNCTIONS_3_2(NAME_)
	};
#undef NAME_
	size_t i, k, missing = 0, nfns = 0;

	(void)state;
	assert_int_equal(sizeof(all) / sizeof(all[0]), 104);
	assert_int_equal(F_COUNT, 104);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int found = 0;

		for (k = 0; k < NROWS && !found; k++)
			found = strcmp(bnd_fns[rows[k].fn].name, all[i]) == 0;
		if (!found) {
			print_error("no row for %s\n", all[i]);
			missing++;
		}
		nfns += found;
	}
	print_message("%zu of 104 functions have rows\n", nfns);
	assert_int_equal(missing, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_function),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, bnd_group_setup,
	    bnd_group_teardown);
}

