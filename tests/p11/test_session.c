/*
 * Session management [PKCS#11 3.2 §5.6]: opening and closing sessions,
 * session information, C_SessionCancel and the operation state.
 */
#include "config.h"

#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"

static void
test_open_args(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_SESSION_HANDLE h = 0x1234;
	CK_TOKEN_INFO ti;

	(void)state;
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, NULL, NULL,
		      NULL),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_OpenSession(slot, 0, NULL, NULL, &h),
	    CKR_SESSION_PARALLEL_NOT_SUPPORTED);
	assert_rv(p11->C_OpenSession(slot, CKF_RW_SESSION, NULL, NULL, &h),
	    CKR_SESSION_PARALLEL_NOT_SUPPORTED);
	assert_rv(p11->C_OpenSession(p11_bad_slot(), CKF_SERIAL_SESSION, NULL,
		      NULL, &h),
	    CKR_SLOT_ID_INVALID);
	/* None of these opened anything. */
	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	assert_int_equal(ti.ulSessionCount, 0);
}

static void
test_session_info(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_SESSION_HANDLE ro, rw, bad[P11_NBAD_SESSIONS];
	CK_SESSION_INFO si;
	int dummy, i;

	(void)state;
	/* pApplication and Notify are accepted (and never called). */
	assert_rv(p11->C_OpenSession(slot, CKF_SERIAL_SESSION, &dummy, NULL,
		      &ro),
	    CKR_OK);
	rw = p11_open(CKF_RW_SESSION);
	assert_true(ro != rw);
	assert_true(ro != CK_INVALID_HANDLE && rw != CK_INVALID_HANDLE);

	memset(&si, 0xa5, sizeof(si));
	assert_rv(p11->C_GetSessionInfo(ro, &si), CKR_OK);
	assert_int_equal(si.slotID, slot);
	assert_int_equal(si.state, CKS_RO_PUBLIC_SESSION);
	assert_int_equal(si.flags, CKF_SERIAL_SESSION);
	assert_int_equal(si.ulDeviceError, 0);

	memset(&si, 0xa5, sizeof(si));
	assert_rv(p11->C_GetSessionInfo(rw, &si), CKR_OK);
	assert_int_equal(si.slotID, slot);
	assert_int_equal(si.state, CKS_RW_PUBLIC_SESSION);
	assert_int_equal(si.flags, CKF_SERIAL_SESSION | CKF_RW_SESSION);
	assert_int_equal(si.ulDeviceError, 0);

	assert_rv(p11->C_GetSessionInfo(ro, NULL), CKR_ARGUMENTS_BAD);
	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++)
		assert_rv(p11->C_GetSessionInfo(bad[i], &si),
		    CKR_SESSION_HANDLE_INVALID);

	assert_rv(p11->C_CloseSession(ro), CKR_OK);
	assert_rv(p11->C_CloseSession(rw), CKR_OK);
}

static void
test_close_twice(void **state)
{
	CK_SESSION_HANDLE h = p11_open(0), other = p11_open(0);
	CK_SESSION_INFO si;

	(void)state;
	assert_rv(p11->C_CloseSession(h), CKR_OK);
	assert_rv(p11->C_CloseSession(h), CKR_SESSION_HANDLE_INVALID);
	assert_rv(p11->C_GetSessionInfo(h, &si), CKR_SESSION_HANDLE_INVALID);
	assert_rv(p11->C_CloseSession(CK_INVALID_HANDLE),
	    CKR_SESSION_HANDLE_INVALID);
	/* The other session is unaffected. */
	assert_rv(p11->C_GetSessionInfo(other, &si), CKR_OK);
	assert_rv(p11->C_CloseSession(other), CKR_OK);
}

#define NHANDLES 300

static void
test_handles_not_reused(void **state)
{
	static CK_SESSION_HANDLE seen[NHANDLES];
	CK_SESSION_HANDLE keep = p11_open(0);
	size_t i, j;

	(void)state;
	/* Open and close, alternating with sessions kept open for a while,
	 * so freed slots in the table could be reused. */
	for (i = 0; i < NHANDLES; i++) {
		seen[i] = p11_open(i % 3 == 0 ? CKF_RW_SESSION : 0);
		assert_true(seen[i] != CK_INVALID_HANDLE);
		assert_true(seen[i] != keep);
		if (i % 2 == 1) {
			assert_rv(p11->C_CloseSession(seen[i - 1]), CKR_OK);
			assert_rv(p11->C_CloseSession(seen[i]), CKR_OK);
		}
	}
	for (i = 0; i < NHANDLES; i++)
		for (j = i + 1; j < NHANDLES; j++)
			if (seen[i] == seen[j])
				fail_msg("handle %lu given out twice",
				    (unsigned long)seen[i]);
	assert_rv(p11->C_CloseSession(keep), CKR_OK);
}

static void
test_close_all(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_SESSION_HANDLE h[6], after;
	CK_SESSION_INFO si;
	CK_TOKEN_INFO ti;
	size_t i;

	(void)state;
	assert_rv(p11->C_CloseAllSessions(p11_bad_slot()), CKR_SLOT_ID_INVALID);
	/* With no sessions open it is not an error. */
	assert_rv(p11->C_CloseAllSessions(slot), CKR_OK);

	for (i = 0; i < 6; i++)
		h[i] = p11_open(i & 1 ? CKF_RW_SESSION : 0);
	assert_rv(p11->C_CloseSession(h[2]), CKR_OK);
	assert_rv(p11->C_CloseAllSessions(p11_bad_slot()), CKR_SLOT_ID_INVALID);
	/* An invalid slot closed nothing. */
	assert_rv(p11->C_GetSessionInfo(h[0], &si), CKR_OK);

	assert_rv(p11->C_CloseAllSessions(slot), CKR_OK);
	for (i = 0; i < 6; i++) {
		assert_rv(p11->C_GetSessionInfo(h[i], &si),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_CloseSession(h[i]),
		    CKR_SESSION_HANDLE_INVALID);
	}
	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	assert_int_equal(ti.ulSessionCount, 0);
	assert_int_equal(ti.ulRwSessionCount, 0);

	/* New sessions work, with new handles. */
	after = p11_open(0);
	for (i = 0; i < 6; i++)
		assert_true(after != h[i]);
	assert_rv(p11->C_GetSessionInfo(after, &si), CKR_OK);
	assert_rv(p11->C_CloseSession(after), CKR_OK);
}

static void
test_session_cancel(void **state)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = p11_open(0), bad[P11_NBAD_SESSIONS];
	CK_BYTE out[32];
	CK_ULONG len = sizeof(out);
	int i;

	(void)state;
	/* Nothing active: cancelling is harmless. */
	assert_rv(p11->C_SessionCancel(h, CKF_DIGEST), CKR_OK);

	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"abc", 3), CKR_OK);
	/* Cancelling another kind of operation leaves the digest active. */
	assert_rv(p11->C_SessionCancel(h, CKF_ENCRYPT | CKF_SIGN), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"abc", 3), CKR_OK);

	assert_rv(p11->C_SessionCancel(h, CKF_DIGEST), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"abc", 3),
	    CKR_OPERATION_NOT_INITIALIZED);
	assert_rv(p11->C_DigestFinal(h, out, &len),
	    CKR_OPERATION_NOT_INITIALIZED);
	/* A new digest can start. */
	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	assert_rv(p11->C_SessionCancel(h, CKF_DIGEST | CKF_SIGN), CKR_OK);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"abc", 3),
	    CKR_OPERATION_NOT_INITIALIZED);

	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++)
		assert_rv(p11->C_SessionCancel(bad[i], CKF_DIGEST),
		    CKR_SESSION_HANDLE_INVALID);
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

static void
test_operation_state(void **state)
{
	CK_MECHANISM mech = { CKM_SHA256, NULL, 0 };
	CK_SESSION_HANDLE h = p11_open(0), bad[P11_NBAD_SESSIONS];
	CK_BYTE buf[512];
	CK_ULONG len = sizeof(buf);
	int i;

	(void)state;
	assert_rv(p11->C_GetOperationState(h, NULL, &len),
	    CKR_FUNCTION_NOT_SUPPORTED);
	assert_rv(p11->C_GetOperationState(h, buf, &len),
	    CKR_FUNCTION_NOT_SUPPORTED);
	memset(buf, 0, sizeof(buf));
	assert_rv(p11->C_SetOperationState(h, buf, sizeof(buf), 0, 0),
	    CKR_FUNCTION_NOT_SUPPORTED);

	/* Also with a digest active, and the digest survives. */
	assert_rv(p11->C_DigestInit(h, &mech), CKR_OK);
	len = sizeof(buf);
	assert_rv(p11->C_GetOperationState(h, buf, &len),
	    CKR_FUNCTION_NOT_SUPPORTED);
	assert_rv(p11->C_DigestUpdate(h, (CK_BYTE_PTR)"abc", 3), CKR_OK);

	p11_bad_sessions(bad);
	for (i = 0; i < P11_NBAD_SESSIONS; i++) {
		len = sizeof(buf);
		assert_rv(p11->C_GetOperationState(bad[i], buf, &len),
		    CKR_SESSION_HANDLE_INVALID);
		assert_rv(p11->C_SetOperationState(bad[i], buf, sizeof(buf), 0,
			      0),
		    CKR_SESSION_HANDLE_INVALID);
	}
	assert_rv(p11->C_CloseSession(h), CKR_OK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_args),
		cmocka_unit_test(test_session_info),
		cmocka_unit_test(test_close_twice),
		cmocka_unit_test(test_handles_not_reused),
		cmocka_unit_test(test_close_all),
		cmocka_unit_test(test_session_cancel),
		cmocka_unit_test(test_operation_state),
	};

	return cmocka_run_group_tests_name("p11 session", tests,
	    p11_group_init, p11_group_fini);
}
