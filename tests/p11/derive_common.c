/* Helpers of the C_DeriveKey tests (see derive_common.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/p11/common.h"
#include "tests/p11/derive_common.h"

char dir[64];
CK_SLOT_ID slot;
CK_SESSION_HANDLE h;
CK_BBOOL yes = CK_TRUE, no = CK_FALSE;
CK_OBJECT_CLASS c_sec = CKO_SECRET_KEY, c_data = CKO_DATA;
CK_KEY_TYPE k_aes = CKK_AES, k_gen = CKK_GENERIC_SECRET;

/* see derive_common.h */
int
derive_setup(void **state)
{
	(void)state;
	return p11_fresh_user_session(dir, "derive", &slot, &h);
}

int
derive_teardown(void **state)
{
	(void)state;
	return p11_fresh_cleanup(dir);
}

/* see derive_common.h */
void
pattern(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 29 + i * 7 + 3);
}

/* see derive_common.h */
CK_OBJECT_HANDLE
secret(CK_KEY_TYPE kt, const uint8_t *v, size_t len, CK_BBOOL can_derive)
{
	CK_ATTRIBUTE t[] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_KEY_TYPE, &kt, sizeof(kt) },
		{ CKA_VALUE, (void *)v, len },
		{ CKA_DERIVE, &can_derive, 1 },
	};
	CK_OBJECT_HANDLE o = 0;

	assert_rv(p11->C_CreateObject(h, t, 4, &o), CKR_OK);
	return o;
}

/* see derive_common.h */
CK_RV
derive(CK_MECHANISM_TYPE mech, void *param, CK_ULONG plen,
    CK_OBJECT_HANDLE base, CK_KEY_TYPE kt, CK_ULONG len,
    CK_OBJECT_HANDLE *out)
{
	CK_MECHANISM m = { mech, param, plen };
	CK_ULONG l = len;
	CK_ATTRIBUTE t[6] = {
		{ CKA_CLASS, &c_sec, sizeof(c_sec) },
		{ CKA_SENSITIVE, &no, 1 },
		{ CKA_EXTRACTABLE, &yes, 1 },
		{ CKA_DERIVE, &yes, 1 },
	};
	CK_ULONG n = 4;

	if (mech == CKM_HKDF_DATA) {
		t[0].pValue = &c_data;
		n = 1;
	} else if (kt != 0) {
		t[n].type = CKA_KEY_TYPE;
		t[n].pValue = &kt;
		t[n++].ulValueLen = sizeof(kt);
	}
	if (len != 0) {
		t[n].type = CKA_VALUE_LEN;
		t[n].pValue = &l;
		t[n++].ulValueLen = sizeof(l);
	}
	*out = 0;
	return p11->C_DeriveKey(h, &m, base, t, n, out);
}

/* see derive_common.h */
size_t
value(CK_OBJECT_HANDLE o, uint8_t *buf, size_t cap)
{
	CK_ATTRIBUTE a = { CKA_VALUE, buf, cap };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	return a.ulValueLen;
}

/* see derive_common.h */
CK_BBOOL
get_bool(CK_OBJECT_HANDLE o, CK_ATTRIBUTE_TYPE type)
{
	CK_BBOOL b = 2;
	CK_ATTRIBUTE a = { type, &b, 1 };

	assert_rv(p11->C_GetAttributeValue(h, o, &a, 1), CKR_OK);
	return b;
}

/* see derive_common.h */
CK_ULONG
count_objects(void)
{
	CK_OBJECT_HANDLE out[256];
	CK_ULONG count = 0;

	assert_rv(p11->C_FindObjectsInit(h, NULL, 0), CKR_OK);
	assert_rv(p11->C_FindObjects(h, out, 256, &count), CKR_OK);
	assert_rv(p11->C_FindObjectsFinal(h), CKR_OK);
	return count;
}
