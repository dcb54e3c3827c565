/*
 * Slot and token management [PKCS#11 3.2 §5.5]: the slot list, slot and
 * token information, mechanisms, and C_WaitForSlotEvent.
 */
#include "config.h"

#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/p11/common.h"

/* ------------------------------------------------------------ slot list */

static void
test_slot_list(void **state)
{
	CK_SLOT_ID all[16], present[16];
	CK_ULONG n, nall, npresent, i;

	(void)state;
	assert_rv(p11->C_GetSlotList(CK_TRUE, NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetSlotList(CK_FALSE, all, NULL), CKR_ARGUMENTS_BAD);

	/* Size queries. */
	nall = 0;
	assert_rv(p11->C_GetSlotList(CK_FALSE, NULL, &nall), CKR_OK);
	assert_true(nall >= 1 && nall <= 16);
	npresent = 999;
	assert_rv(p11->C_GetSlotList(CK_TRUE, NULL, &npresent), CKR_OK);
	assert_true(npresent >= 1 && npresent <= nall);

	/* Full lists. */
	n = 16;
	assert_rv(p11->C_GetSlotList(CK_FALSE, all, &n), CKR_OK);
	assert_int_equal(n, nall);
	n = 16;
	assert_rv(p11->C_GetSlotList(CK_TRUE, present, &n), CKR_OK);
	assert_int_equal(n, npresent);
	/* Every present slot is a slot, and says a token is present. */
	for (i = 0; i < npresent; i++) {
		CK_SLOT_INFO si;
		CK_ULONG j;

		for (j = 0; j < nall; j++)
			if (all[j] == present[i])
				break;
		assert_true(j < nall);
		assert_rv(p11->C_GetSlotInfo(present[i], &si), CKR_OK);
		assert_true(si.flags & CKF_TOKEN_PRESENT);
	}

	/* Exact size fits; short buffers report the count. */
	n = nall;
	assert_rv(p11->C_GetSlotList(CK_FALSE, all, &n), CKR_OK);
	assert_int_equal(n, nall);
	n = 0;
	assert_rv(p11->C_GetSlotList(CK_FALSE, all, &n), CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, nall);
	n = 0;
	assert_rv(p11->C_GetSlotList(CK_TRUE, present, &n),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, npresent);
}

/* ------------------------------------------------------------ slot info */

static void
test_slot_info(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_SLOT_INFO si;
	char text[65];

	(void)state;
	assert_rv(p11->C_GetSlotInfo(slot, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetSlotInfo(p11_bad_slot(), &si), CKR_SLOT_ID_INVALID);

	memset(&si, 0, sizeof(si));
	assert_rv(p11->C_GetSlotInfo(slot, &si), CKR_OK);
	assert_text_field(si.slotDescription);
	assert_text_field(si.manufacturerID);
	assert_true(p11_text_ok(si.manufacturerID, sizeof(si.manufacturerID),
	    text, sizeof(text)));
	assert_string_equal(text, "vgtoken");
	assert_true(p11_text_ok(si.slotDescription,
	    sizeof(si.slotDescription), text, sizeof(text)));
	assert_true(strlen(text) > 0);
	assert_true(si.flags & CKF_TOKEN_PRESENT);
	/* A soft token is no hardware slot. */
	assert_false(si.flags & CKF_HW_SLOT);
}

/* ------------------------------------------------------------ token info */

static void
test_token_info(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_TOKEN_INFO ti;
	char text[33];

	(void)state;
	assert_rv(p11->C_GetTokenInfo(slot, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetTokenInfo(p11_bad_slot(), &ti), CKR_SLOT_ID_INVALID);

	memset(&ti, 0, sizeof(ti));
	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	assert_text_field(ti.label);
	assert_text_field(ti.manufacturerID);
	assert_text_field(ti.model);
	assert_text_field(ti.serialNumber);
	assert_true(p11_text_ok(ti.manufacturerID, sizeof(ti.manufacturerID),
	    text, sizeof(text)));
	assert_string_equal(text, "vgtoken");
	assert_true(p11_text_ok(ti.model, sizeof(ti.model), text,
	    sizeof(text)));
	assert_true(strlen(text) > 0);
	/* utcTime is a 16-character field too; without a clock it is
	 * blank, not NUL-filled. */
	assert_null(memchr(ti.utcTime, '\0', sizeof(ti.utcTime)));

	assert_true(ti.flags & CKF_RNG);
	/* The token is not initialised in this version. */
	assert_false(ti.flags & CKF_TOKEN_INITIALIZED);
	assert_false(ti.flags & CKF_USER_PIN_INITIALIZED);
	assert_true(ti.ulMinPinLen <= ti.ulMaxPinLen);
	assert_int_equal(ti.ulSessionCount, 0);
	assert_int_equal(ti.ulRwSessionCount, 0);
	assert_true(ti.ulMaxSessionCount == CK_EFFECTIVELY_INFINITE ||
	    ti.ulMaxSessionCount >= 1);
	assert_true(ti.ulMaxRwSessionCount == CK_EFFECTIVELY_INFINITE ||
	    ti.ulMaxRwSessionCount >= 1);
}

/* Session counts of the token in slot. */
static void
counts(CK_SLOT_ID slot, CK_ULONG *total, CK_ULONG *rw)
{
	CK_TOKEN_INFO ti;

	assert_rv(p11->C_GetTokenInfo(slot, &ti), CKR_OK);
	*total = ti.ulSessionCount;
	*rw = ti.ulRwSessionCount;
}

static void
test_token_session_counts(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_SESSION_HANDLE ro1, ro2, rw1, rw2;
	CK_ULONG total, rw;

	(void)state;
	counts(slot, &total, &rw);
	assert_int_equal(total, 0);
	assert_int_equal(rw, 0);

	ro1 = p11_open(0);
	counts(slot, &total, &rw);
	assert_int_equal(total, 1);
	assert_int_equal(rw, 0);

	rw1 = p11_open(CKF_RW_SESSION);
	counts(slot, &total, &rw);
	assert_int_equal(total, 2);
	assert_int_equal(rw, 1);

	ro2 = p11_open(0);
	rw2 = p11_open(CKF_RW_SESSION);
	counts(slot, &total, &rw);
	assert_int_equal(total, 4);
	assert_int_equal(rw, 2);

	assert_rv(p11->C_CloseSession(rw1), CKR_OK);
	counts(slot, &total, &rw);
	assert_int_equal(total, 3);
	assert_int_equal(rw, 1);

	assert_rv(p11->C_CloseSession(ro1), CKR_OK);
	counts(slot, &total, &rw);
	assert_int_equal(total, 2);
	assert_int_equal(rw, 1);

	/* A failed close changes nothing. */
	assert_rv(p11->C_CloseSession(ro1), CKR_SESSION_HANDLE_INVALID);
	counts(slot, &total, &rw);
	assert_int_equal(total, 2);
	assert_int_equal(rw, 1);

	assert_rv(p11->C_CloseAllSessions(slot), CKR_OK);
	counts(slot, &total, &rw);
	assert_int_equal(total, 0);
	assert_int_equal(rw, 0);
	(void)ro2;
	(void)rw2;
}

/* ------------------------------------------------------------ mechanisms */

static void
test_mechanism_list(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_MECHANISM_TYPE list[256];
	CK_ULONG n, count, i, k;

	(void)state;
	assert_rv(p11->C_GetMechanismList(slot, NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetMechanismList(slot, list, NULL), CKR_ARGUMENTS_BAD);
	n = 256;
	assert_rv(p11->C_GetMechanismList(p11_bad_slot(), list, &n),
	    CKR_SLOT_ID_INVALID);
	n = 0;
	assert_rv(p11->C_GetMechanismList(p11_bad_slot(), NULL, &n),
	    CKR_SLOT_ID_INVALID);

	count = 0;
	assert_rv(p11->C_GetMechanismList(slot, NULL, &count), CKR_OK);
	assert_true(count >= p11_ndigests && count <= 256);

	n = count - 1;
	assert_rv(p11->C_GetMechanismList(slot, list, &n),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, count);
	n = 0;
	assert_rv(p11->C_GetMechanismList(slot, list, &n),
	    CKR_BUFFER_TOO_SMALL);
	assert_int_equal(n, count);

	n = count;
	assert_rv(p11->C_GetMechanismList(slot, list, &n), CKR_OK);
	assert_int_equal(n, count);

	/* Every listed mechanism has information and is listed once. */
	for (i = 0; i < count; i++) {
		CK_MECHANISM_INFO mi;
		CK_ULONG j;

		memset(&mi, 0xa5, sizeof(mi));
		assert_rv(p11->C_GetMechanismInfo(slot, list[i], &mi), CKR_OK);
		assert_true(mi.flags != 0);
		assert_true(mi.ulMinKeySize <= mi.ulMaxKeySize);
		for (j = i + 1; j < count; j++)
			if (list[i] == list[j])
				fail_msg("mechanism 0x%lx listed twice",
				    (unsigned long)list[i]);
	}
	/* Every digest of the token is listed, with CKF_DIGEST. */
	for (k = 0; k < p11_ndigests; k++) {
		CK_MECHANISM_INFO mi;

		for (i = 0; i < count; i++)
			if (list[i] == p11_digests[k].mech)
				break;
		if (i == count)
			fail_msg("%s is not listed", p11_digests[k].name);
		assert_rv(p11->C_GetMechanismInfo(slot, p11_digests[k].mech,
			      &mi),
		    CKR_OK);
		assert_true(mi.flags & CKF_DIGEST);
	}
}

static void
test_mechanism_info(void **state)
{
	CK_SLOT_ID slot = p11_slot();
	CK_MECHANISM_INFO mi;

	(void)state;
	memset(&mi, 0, sizeof(mi));
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_SHA256, &mi), CKR_OK);
	assert_true(mi.flags & CKF_DIGEST);
	assert_false(mi.flags & (CKF_SIGN | CKF_ENCRYPT));

	assert_rv(p11->C_GetMechanismInfo(slot, CKM_SHA256, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_GetMechanismInfo(p11_bad_slot(), CKM_SHA256, &mi),
	    CKR_SLOT_ID_INVALID);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_VENDOR_DEFINED | 0x7777,
		      &mi),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11->C_GetMechanismInfo(slot, 0x7fff1234UL, &mi),
	    CKR_MECHANISM_INVALID);
	assert_rv(p11->C_GetMechanismInfo(slot, CKM_MD5, &mi),
	    CKR_MECHANISM_INVALID);
}

/* ------------------------------------------------------------ events */

static void
test_wait_for_slot_event(void **state)
{
	CK_SLOT_ID slot = 0x5a5a;
	int dummy;

	(void)state;
	assert_rv(p11->C_WaitForSlotEvent(CKF_DONT_BLOCK, &slot, NULL),
	    CKR_NO_EVENT);
	assert_rv(p11->C_WaitForSlotEvent(CKF_DONT_BLOCK, NULL, NULL),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_WaitForSlotEvent(CKF_DONT_BLOCK, &slot, &dummy),
	    CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_WaitForSlotEvent(0, NULL, NULL), CKR_ARGUMENTS_BAD);
	assert_rv(p11->C_WaitForSlotEvent(0, &slot, &dummy),
	    CKR_ARGUMENTS_BAD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_list),
		cmocka_unit_test(test_slot_info),
		cmocka_unit_test(test_token_info),
		cmocka_unit_test(test_token_session_counts),
		cmocka_unit_test(test_mechanism_list),
		cmocka_unit_test(test_mechanism_info),
		cmocka_unit_test(test_wait_for_slot_event),
	};

	return cmocka_run_group_tests_name("p11 slot", tests, p11_group_init,
	    p11_group_fini);
}
