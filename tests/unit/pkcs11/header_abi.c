/*
 * tests/unit/pkcs11/header_abi.c - ABI checks for cryptoki/pkcs11.h.
 *
 * cryptoki/pkcs11.h is vgtoken's own PKCS #11 header; a wrong constant, a
 * misplaced structure member or a function-table slot out of order would
 * be an ABI break that nothing else catches.  This test compares it with
 * an independent header (p11-kit's, measured in header_abi_ref.c) entry by
 * entry, pins the 3.0/3.2 additions p11-kit does not know to the values in
 * the specification, and checks the layout of the three function tables.
 *
 * Every mismatch is printed with its name and both values; any mismatch
 * fails the test (non-zero exit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cryptoki/pkcs11.h"

/* The lists of what is compared, shared with header_abi_ref.c. */
#define VG_ABI_LISTS_ONLY 1
#include "header_abi_ref.c"

/* Measured from p11-kit's header by header_abi_ref.c. */
extern const struct vg_abi_entry vg_abi_ref_layout[];
extern const size_t vg_abi_ref_layout_count;
extern const struct vg_abi_entry vg_abi_ref_function_list[];
extern const size_t vg_abi_ref_function_list_count;
extern const struct vg_abi_entry vg_abi_ref_constants[];
extern const size_t vg_abi_ref_constants_count;

/* ---------------------------------------------------------------------- */
/* Compile-time checks of a few key facts.                                 */
/* ---------------------------------------------------------------------- */

/* _Static_assert where the language has it (C11), a negative array size
 * otherwise, so that the test also builds as C99. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define VG_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#else
#define VG_SA_CAT_(a, b) a##b
#define VG_SA_LINE_(cond, line)                                               \
        typedef char VG_SA_CAT_(vg_static_assert_, line)[(cond) ? 1 : -1]
#define VG_STATIC_ASSERT(cond, msg) VG_SA_LINE_(cond, __LINE__)
#endif

VG_STATIC_ASSERT(sizeof(CK_BYTE) == 1, "CK_BYTE is one byte");
VG_STATIC_ASSERT(sizeof(CK_BBOOL) == 1, "CK_BBOOL is one byte");
VG_STATIC_ASSERT(sizeof(CK_ULONG) == sizeof(unsigned long),
                 "CK_ULONG is unsigned long");
VG_STATIC_ASSERT(sizeof(CK_VERSION) == 2, "CK_VERSION is two bytes");
VG_STATIC_ASSERT(sizeof(CK_DATE) == 8, "CK_DATE is eight bytes");
VG_STATIC_ASSERT(offsetof(CK_FUNCTION_LIST, version) == 0,
                 "a function table starts with its version");
VG_STATIC_ASSERT(offsetof(CK_FUNCTION_LIST_3_2, C_Initialize) ==
                         offsetof(CK_FUNCTION_LIST, C_Initialize),
                 "3.2 table extends the 2.40 table");
VG_STATIC_ASSERT(CKA_WRAP_TEMPLATE == (CKF_ARRAY_ATTRIBUTE | 0x211UL),
                 "array attributes carry CKF_ARRAY_ATTRIBUTE");
#if defined(__x86_64__) && defined(__LP64__)
VG_STATIC_ASSERT(sizeof(CK_ULONG) == 8, "LP64");
VG_STATIC_ASSERT(sizeof(CK_ATTRIBUTE) == 24, "CK_ATTRIBUTE");
VG_STATIC_ASSERT(sizeof(CK_MECHANISM) == 24, "CK_MECHANISM");
VG_STATIC_ASSERT(sizeof(CK_INFO) == 88, "CK_INFO");
VG_STATIC_ASSERT(sizeof(CK_SLOT_INFO) == 112, "CK_SLOT_INFO");
VG_STATIC_ASSERT(sizeof(CK_TOKEN_INFO) == 208, "CK_TOKEN_INFO");
VG_STATIC_ASSERT(sizeof(CK_GCM_PARAMS) == 48, "CK_GCM_PARAMS");
VG_STATIC_ASSERT(sizeof(CK_INTERFACE) == 24, "CK_INTERFACE");
VG_STATIC_ASSERT(sizeof(CK_FUNCTION_LIST) == 8 + 68 * 8, "2.40 table");
VG_STATIC_ASSERT(sizeof(CK_FUNCTION_LIST_3_0) == 8 + 92 * 8, "3.0 table");
VG_STATIC_ASSERT(sizeof(CK_FUNCTION_LIST_3_2) == 8 + 104 * 8, "3.2 table");
#endif

/* ---------------------------------------------------------------------- */
/* The same tables as header_abi_ref.c, measured from our header.          */
/* ---------------------------------------------------------------------- */

#define VG_ABI_SIZE_(type) {"sizeof(" #type ")", (unsigned long)sizeof(type)},
#define VG_ABI_OFFSET_(type, member)                                          \
        {"offsetof(" #type ", " #member ")",                                  \
         (unsigned long)offsetof(type, member)},
#define VG_ABI_FL_(member)                                                    \
        {"offsetof(CK_FUNCTION_LIST, " #member ")",                           \
         (unsigned long)offsetof(CK_FUNCTION_LIST, member)},
#define VG_ABI_VALUE_(name) {#name, (unsigned long)(name)},

static const struct vg_abi_entry our_layout[] = {
        VG_ABI_STRUCTS(VG_ABI_SIZE_, VG_ABI_OFFSET_)
};
static const struct vg_abi_entry our_function_list[] = {
        VG_ABI_FUNCTION_LIST_2_40(VG_ABI_FL_)
};
static const struct vg_abi_entry our_constants[] = {
        VG_ABI_CONSTANTS(VG_ABI_VALUE_)
};

#define VG_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Values on which p11-kit's header disagrees with the specification.
 * p11-kit up to at least 0.24 has 0x1c0..0x1c4 for these five return
 * values; PKCS #11 2.40 (and every later version, and NSS) assigns
 * 0x1b5..0x1b9.  When p11-kit differs from us on one of these names we
 * require our value to be the specification's instead.
 */
static const struct vg_abi_entry p11kit_errata[] = {
        {"CKR_EXCEEDED_MAX_ITERATIONS", 0x1b5UL},
        {"CKR_FIPS_SELF_TEST_FAILED", 0x1b6UL},
        {"CKR_LIBRARY_LOAD_FAILED", 0x1b7UL},
        {"CKR_PIN_TOO_WEAK", 0x1b8UL},
        {"CKR_PUBLIC_KEY_INVALID", 0x1b9UL},
};

static const struct vg_abi_entry *
find_erratum(const char *name)
{
        size_t i;

        for (i = 0; i < VG_COUNT(p11kit_errata); i++)
                if (strcmp(p11kit_errata[i].name, name) == 0)
                        return &p11kit_errata[i];
        return NULL;
}

/* Compares two tables built from the same list; returns the mismatches. */
static unsigned
compare_tables(const char *what, const struct vg_abi_entry *ref,
               size_t ref_count, const struct vg_abi_entry *ours,
               size_t our_count)
{
        unsigned bad = 0;
        size_t i;

        if (ref_count != our_count) {
                print_error("%s: %zu reference entries, %zu of ours\n", what,
                            ref_count, our_count);
                return 1;
        }
        for (i = 0; i < ref_count; i++) {
                const struct vg_abi_entry *e;

                if (strcmp(ref[i].name, ours[i].name) != 0) {
                        print_error("%s: entry %zu is %s in the reference, "
                                    "%s here\n",
                                    what, i, ref[i].name, ours[i].name);
                        bad++;
                        continue;
                }
                if (ref[i].value == ours[i].value)
                        continue;
                e = find_erratum(ours[i].name);
                if (e != NULL && ours[i].value == e->value) {
                        print_message("note: %s is 0x%lx in p11-kit but 0x%lx "
                                      "in the specification (known p11-kit "
                                      "error)\n",
                                      e->name, ref[i].value, e->value);
                        continue;
                }
                print_error("%s: %s is 0x%lx in p11-kit, 0x%lx in "
                            "cryptoki/pkcs11.h\n",
                            what, ours[i].name, ref[i].value, ours[i].value);
                bad++;
        }
        return bad;
}

/* ---------------------------------------------------------------------- */
/* Tests against p11-kit.                                                  */
/* ---------------------------------------------------------------------- */

static void
test_struct_layouts(void **state)
{
        (void)state;
        assert_int_equal(compare_tables("layout", vg_abi_ref_layout,
                                        vg_abi_ref_layout_count, our_layout,
                                        VG_COUNT(our_layout)),
                         0);
}

static void
test_function_list_2_40(void **state)
{
        (void)state;
        assert_int_equal(compare_tables("CK_FUNCTION_LIST",
                                        vg_abi_ref_function_list,
                                        vg_abi_ref_function_list_count,
                                        our_function_list,
                                        VG_COUNT(our_function_list)),
                         0);
}

static void
test_constants(void **state)
{
        (void)state;
        /* a sanity floor, so an emptied list cannot pass vacuously */
        assert_true(vg_abi_ref_constants_count > 600);
        assert_int_equal(compare_tables("constant", vg_abi_ref_constants,
                                        vg_abi_ref_constants_count,
                                        our_constants, VG_COUNT(our_constants)),
                         0);
}

/* ---------------------------------------------------------------------- */
/* Values p11-kit does not define, pinned to the specification.            */
/* ---------------------------------------------------------------------- */

struct vg_abi_pin {
        const char   *name;
        unsigned long ours;
        unsigned long spec;
};
#define PIN(name, value) {#name, (unsigned long)(name), value##UL}

static const struct vg_abi_pin pinned[] = {
        PIN(CRYPTOKI_VERSION_MAJOR, 3),
        PIN(CRYPTOKI_VERSION_MINOR, 2),
        /* object classes, profiles, key types */
        PIN(CKO_PROFILE, 0x9), PIN(CKO_VALIDATION, 0xa), PIN(CKO_TRUST, 0xb),
        PIN(CKP_BASELINE_PROVIDER, 0x1), PIN(CKP_HKDF_TLS_TOKEN, 0x6),
        PIN(CKK_CHACHA20, 0x33), PIN(CKK_AES_XTS, 0x35),
        PIN(CKK_SHA3_256_HMAC, 0x37), PIN(CKK_EC_EDWARDS, 0x40),
        PIN(CKK_EC_MONTGOMERY, 0x41), PIN(CKK_HKDF, 0x42),
        PIN(CKK_HSS, 0x46), PIN(CKK_XMSS, 0x47), PIN(CKK_ML_KEM, 0x49),
        PIN(CKK_ML_DSA, 0x4a), PIN(CKK_SLH_DSA, 0x4b),
        PIN(CKK_ECDSA, 0x3),
        /* attributes */
        PIN(CKA_UNIQUE_ID, 0x4), PIN(CKA_DERIVE_TEMPLATE, 0x40000213),
        PIN(CKA_PROFILE_ID, 0x601), PIN(CKA_HSS_KEYS_REMAINING, 0x61c),
        PIN(CKA_PARAMETER_SET, 0x61d), PIN(CKA_VALIDATION_PROFILE, 0x629),
        PIN(CKA_ENCAPSULATE_TEMPLATE, 0x4000062a),
        PIN(CKA_DECAPSULATE_TEMPLATE, 0x4000062b),
        PIN(CKA_TRUST_SERVER_AUTH, 0x62c), PIN(CKA_ENCAPSULATE, 0x633),
        PIN(CKA_DECAPSULATE, 0x634), PIN(CKA_PUBLIC_CRC64_VALUE, 0x636),
        PIN(CKA_SEED, 0x637), PIN(CKA_ECDSA_PARAMS, 0x180),
        /* mechanisms: 3.0 */
        PIN(CKM_SHA3_256, 0x2b0), PIN(CKM_SHA3_224, 0x2b5),
        PIN(CKM_SHA3_384, 0x2c0), PIN(CKM_SHA3_512, 0x2d0),
        PIN(CKM_SHA3_256_RSA_PKCS_PSS, 0x63), PIN(CKM_ECDSA_SHA3_256, 0x1048),
        PIN(CKM_EC_EDWARDS_KEY_PAIR_GEN, 0x1055),
        PIN(CKM_EC_MONTGOMERY_KEY_PAIR_GEN, 0x1056), PIN(CKM_EDDSA, 0x1057),
        PIN(CKM_SP800_108_COUNTER_KDF, 0x3ac),
        PIN(CKM_SP800_108_FEEDBACK_KDF, 0x3ad),
        PIN(CKM_AES_KEY_WRAP_KWP, 0x210b), PIN(CKM_CHACHA20_POLY1305, 0x4021),
        PIN(CKM_HKDF_DERIVE, 0x402a), PIN(CKM_HKDF_DATA, 0x402b),
        PIN(CKM_HKDF_KEY_GEN, 0x402c), PIN(CKM_IKE2_PRF_PLUS_DERIVE, 0x402e),
        PIN(CKM_ECDSA_KEY_PAIR_GEN, 0x1040),
        /* mechanisms: 3.2 post-quantum */
        PIN(CKM_ML_KEM_KEY_PAIR_GEN, 0xf), PIN(CKM_ML_KEM, 0x17),
        PIN(CKM_ML_DSA_KEY_PAIR_GEN, 0x1c), PIN(CKM_ML_DSA, 0x1d),
        PIN(CKM_HASH_ML_DSA, 0x1f), PIN(CKM_HASH_ML_DSA_SHA224, 0x23),
        PIN(CKM_HASH_ML_DSA_SHA256, 0x24), PIN(CKM_HASH_ML_DSA_SHA384, 0x25),
        PIN(CKM_HASH_ML_DSA_SHA512, 0x26),
        PIN(CKM_HASH_ML_DSA_SHA3_224, 0x27),
        PIN(CKM_HASH_ML_DSA_SHA3_256, 0x28),
        PIN(CKM_HASH_ML_DSA_SHA3_384, 0x29),
        PIN(CKM_HASH_ML_DSA_SHA3_512, 0x2a),
        PIN(CKM_HASH_ML_DSA_SHAKE128, 0x2b),
        PIN(CKM_HASH_ML_DSA_SHAKE256, 0x2c),
        PIN(CKM_SLH_DSA_KEY_PAIR_GEN, 0x2d), PIN(CKM_SLH_DSA, 0x2e),
        PIN(CKM_HASH_SLH_DSA, 0x34), PIN(CKM_HASH_SLH_DSA_SHA224, 0x36),
        PIN(CKM_HASH_SLH_DSA_SHAKE256, 0x3f),
        PIN(CKM_TLS12_EXTENDED_MASTER_KEY_DERIVE, 0x56),
        PIN(CKM_XMSS, 0x4036), PIN(CKM_PUB_KEY_FROM_PRIV_KEY, 0x403a),
        /* parameter sets and hedging */
        PIN(CKP_ML_DSA_44, 1), PIN(CKP_ML_DSA_65, 2), PIN(CKP_ML_DSA_87, 3),
        PIN(CKP_ML_KEM_512, 1), PIN(CKP_ML_KEM_768, 2),
        PIN(CKP_ML_KEM_1024, 3), PIN(CKP_SLH_DSA_SHA2_128S, 1),
        PIN(CKP_SLH_DSA_SHAKE_256F, 0xc),
        PIN(CKH_HEDGE_PREFERRED, 0), PIN(CKH_HEDGE_REQUIRED, 1),
        PIN(CKH_DETERMINISTIC_REQUIRED, 2),
        /* flags */
        PIN(CKF_ERROR_STATE, 0x01000000),
        PIN(CKF_SEED_RANDOM_REQUIRED, 0x02000000),
        PIN(CKF_ASYNC_SESSION_SUPPORTED, 0x04000000),
        PIN(CKF_ASYNC_SESSION, 0x8), PIN(CKF_MESSAGE_ENCRYPT, 0x2),
        PIN(CKF_MULTI_MESSAGE, 0x20), PIN(CKF_FIND_OBJECTS, 0x40),
        PIN(CKF_EC_F_2M, 0x00200000), PIN(CKF_EC_OID, 0x00800000),
        PIN(CKF_EC_CURVENAME, 0x04000000),
        PIN(CKF_ENCAPSULATE, 0x10000000), PIN(CKF_DECAPSULATE, 0x20000000),
        PIN(CKF_INTERFACE_FORK_SAFE, 0x1), PIN(CKF_END_OF_MESSAGE, 0x1),
        PIN(CKF_HKDF_SALT_NULL, 0x1), PIN(CKF_HKDF_SALT_DATA, 0x2),
        PIN(CKF_HKDF_SALT_KEY, 0x4),
        /* return values */
        PIN(CKR_AEAD_DECRYPT_FAILED, 0x42),
        PIN(CKR_TOKEN_RESOURCE_EXCEEDED, 0x201),
        PIN(CKR_OPERATION_CANCEL_FAILED, 0x202), PIN(CKR_KEY_EXHAUSTED, 0x203),
        PIN(CKR_PENDING, 0x204), PIN(CKR_SESSION_ASYNC_NOT_SUPPORTED, 0x205),
        PIN(CKR_SEED_RANDOM_REQUIRED, 0x206),
        PIN(CKR_OPERATION_NOT_VALIDATED, 0x207),
        PIN(CKR_TOKEN_NOT_INITIALIZED, 0x208),
        PIN(CKR_PARAMETER_SET_NOT_SUPPORTED, 0x209),
        PIN(CKR_EXCEEDED_MAX_ITERATIONS, 0x1b5),
        PIN(CKR_PUBLIC_KEY_INVALID, 0x1b9),
        /* MGFs and KDFs */
        PIN(CKG_MGF1_SHA3_224, 0x6), PIN(CKG_MGF1_SHA3_512, 0x9),
        PIN(CKD_SHA3_224_KDF, 0xa), PIN(CKD_SHA3_512_KDF, 0xd),
        PIN(CKD_SHA1_KDF_SP800, 0xe), PIN(CKD_BLAKE2B_512_KDF, 0x1a),
        PIN(CKG_GENERATE_COUNTER_XOR, 0x4),
        /* 3.2 validation, trust and session-validation values */
        PIN(CKS_LAST_VALIDATION_OK, 0x1), PIN(CKV_TYPE_HYBRID, 0x4),
        PIN(CKV_AUTHORITY_TYPE_COMMON_CRITERIA, 0x2),
        PIN(CKT_TRUST_MUST_VERIFY_TRUST, 0x4),
        PIN(CK_SP800_108_KEY_HANDLE, 0x5),
        /* markers */
        PIN(CK_INVALID_HANDLE, 0), PIN(CK_EFFECTIVELY_INFINITE, 0),
        PIN(CKM_VENDOR_DEFINED, 0x80000000),
        PIN(CKP_VENDOR_DEFINED, 0x80000000),
};

static void
test_pinned_3x_constants(void **state)
{
        unsigned bad = 0;
        size_t i;

        (void)state;
        for (i = 0; i < VG_COUNT(pinned); i++) {
                if (pinned[i].ours == pinned[i].spec)
                        continue;
                print_error("constant: %s is 0x%lx, the specification says "
                            "0x%lx\n",
                            pinned[i].name, pinned[i].ours, pinned[i].spec);
                bad++;
        }
        assert_int_equal(bad, 0);
        assert_true(CK_UNAVAILABLE_INFORMATION == (CK_ULONG)-1);
}

/* ---------------------------------------------------------------------- */
/* The 3.0 and 3.2 function tables.                                        */
/* ---------------------------------------------------------------------- */

/* The entries 3.0 appends to the 2.40 table, in specification order. */
#define VG_ABI_ADDED_3_0(F)                                                   \
        F(C_GetInterfaceList) F(C_GetInterface) F(C_LoginUser)                \
        F(C_SessionCancel) F(C_MessageEncryptInit) F(C_EncryptMessage)        \
        F(C_EncryptMessageBegin) F(C_EncryptMessageNext)                      \
        F(C_MessageEncryptFinal) F(C_MessageDecryptInit) F(C_DecryptMessage)  \
        F(C_DecryptMessageBegin) F(C_DecryptMessageNext)                      \
        F(C_MessageDecryptFinal) F(C_MessageSignInit) F(C_SignMessage)        \
        F(C_SignMessageBegin) F(C_SignMessageNext) F(C_MessageSignFinal)      \
        F(C_MessageVerifyInit) F(C_VerifyMessage) F(C_VerifyMessageBegin)     \
        F(C_VerifyMessageNext) F(C_MessageVerifyFinal)

/* The entries 3.2 appends to the 3.0 table, in published-header order. */
#define VG_ABI_ADDED_3_2(F)                                                   \
        F(C_EncapsulateKey) F(C_DecapsulateKey) F(C_VerifySignatureInit)      \
        F(C_VerifySignature) F(C_VerifySignatureUpdate)                       \
        F(C_VerifySignatureFinal) F(C_GetSessionValidationFlags)              \
        F(C_AsyncComplete) F(C_AsyncGetID) F(C_AsyncJoin)                     \
        F(C_WrapKeyAuthenticated) F(C_UnwrapKeyAuthenticated)

#define VG_ABI_FL30_(member)                                                  \
        {#member, (unsigned long)offsetof(CK_FUNCTION_LIST_3_0, member)},
#define VG_ABI_FL32_(member)                                                  \
        {#member, (unsigned long)offsetof(CK_FUNCTION_LIST_3_2, member)},

static const struct vg_abi_entry table_3_0[] = {
        VG_ABI_FUNCTION_LIST_2_40(VG_ABI_FL30_) VG_ABI_ADDED_3_0(VG_ABI_FL30_)
};
static const struct vg_abi_entry table_3_2[] = {
        VG_ABI_FUNCTION_LIST_2_40(VG_ABI_FL32_) VG_ABI_ADDED_3_0(VG_ABI_FL32_)
        VG_ABI_ADDED_3_2(VG_ABI_FL32_)
};

/*
 * Entry 0 of each list is "version"; entry i > 0 must be the i-th pointer,
 * packed right after it, and the table must end with the last entry.
 */
static unsigned
check_table(const char *what, const struct vg_abi_entry *t, size_t n,
            size_t table_size)
{
        const unsigned long first = t[1].value;
        const unsigned long step = sizeof(CK_C_Initialize);
        unsigned bad = 0;
        size_t i;

        if (t[0].value != 0) {
                print_error("%s: version at offset %lu\n", what, t[0].value);
                bad++;
        }
        if (first != offsetof(CK_FUNCTION_LIST, C_Initialize)) {
                print_error("%s: C_Initialize at %lu, 2.40 table has %lu\n",
                            what, first,
                            (unsigned long)offsetof(CK_FUNCTION_LIST,
                                                    C_Initialize));
                bad++;
        }
        for (i = 1; i < n; i++) {
                const unsigned long want = first + (i - 1) * step;

                if (t[i].value != want) {
                        print_error("%s: %s at offset %lu, expected %lu "
                                    "(slot %zu)\n",
                                    what, t[i].name, t[i].value, want, i - 1);
                        bad++;
                }
        }
        if (table_size != first + (n - 1) * step) {
                print_error("%s: size %zu, expected %lu\n", what, table_size,
                            first + (n - 1) * step);
                bad++;
        }
        return bad;
}

static void
test_function_list_3_x(void **state)
{
        (void)state;
        assert_int_equal(VG_COUNT(table_3_0), 1 + 68 + 24);
        assert_int_equal(VG_COUNT(table_3_2), 1 + 68 + 24 + 12);
        assert_int_equal(check_table("CK_FUNCTION_LIST", our_function_list,
                                     VG_COUNT(our_function_list),
                                     sizeof(CK_FUNCTION_LIST)),
                         0);
        assert_int_equal(check_table("CK_FUNCTION_LIST_3_0", table_3_0,
                                     VG_COUNT(table_3_0),
                                     sizeof(CK_FUNCTION_LIST_3_0)),
                         0);
        assert_int_equal(check_table("CK_FUNCTION_LIST_3_2", table_3_2,
                                     VG_COUNT(table_3_2),
                                     sizeof(CK_FUNCTION_LIST_3_2)),
                         0);
}

/* ---------------------------------------------------------------------- */
/* Layouts of structures p11-kit lacks (LP64 values from the 3.2 header).  */
/* ---------------------------------------------------------------------- */

#define LAY(type, member, off)                                                \
        {#type "." #member, (unsigned long)offsetof(type, member), off##UL}
#define SIZE(type, size)                                                      \
        {"sizeof " #type, (unsigned long)sizeof(type), size##UL}

static void
test_3x_struct_layouts(void **state)
{
#if defined(__x86_64__) && defined(__LP64__)
        static const struct vg_abi_pin lay[] = {
                SIZE(CK_INTERFACE, 24), LAY(CK_INTERFACE, pInterfaceName, 0),
                LAY(CK_INTERFACE, pFunctionList, 8),
                LAY(CK_INTERFACE, flags, 16),
                SIZE(CK_SIGN_ADDITIONAL_CONTEXT, 24),
                LAY(CK_SIGN_ADDITIONAL_CONTEXT, hedgeVariant, 0),
                LAY(CK_SIGN_ADDITIONAL_CONTEXT, pContext, 8),
                LAY(CK_SIGN_ADDITIONAL_CONTEXT, ulContextLen, 16),
                SIZE(CK_HASH_SIGN_ADDITIONAL_CONTEXT, 32),
                LAY(CK_HASH_SIGN_ADDITIONAL_CONTEXT, hedgeVariant, 0),
                LAY(CK_HASH_SIGN_ADDITIONAL_CONTEXT, pContext, 8),
                LAY(CK_HASH_SIGN_ADDITIONAL_CONTEXT, ulContextLen, 16),
                LAY(CK_HASH_SIGN_ADDITIONAL_CONTEXT, hash, 24),
                SIZE(CK_ASYNC_DATA, 40), LAY(CK_ASYNC_DATA, pValue, 8),
                LAY(CK_ASYNC_DATA, hAdditionalObject, 32),
                SIZE(CK_CCM_PARAMS, 48), LAY(CK_CCM_PARAMS, ulDataLen, 0),
                LAY(CK_CCM_PARAMS, pNonce, 8), LAY(CK_CCM_PARAMS, ulMACLen, 40),
                SIZE(CK_GCM_MESSAGE_PARAMS, 48),
                LAY(CK_GCM_MESSAGE_PARAMS, ivGenerator, 24),
                LAY(CK_GCM_MESSAGE_PARAMS, pTag, 32),
                SIZE(CK_CCM_MESSAGE_PARAMS, 56),
                LAY(CK_CCM_MESSAGE_PARAMS, nonceGenerator, 32),
                SIZE(CK_HKDF_PARAMS, 64), LAY(CK_HKDF_PARAMS, bExpand, 1),
                LAY(CK_HKDF_PARAMS, prfHashMechanism, 8),
                LAY(CK_HKDF_PARAMS, hSaltKey, 40),
                LAY(CK_HKDF_PARAMS, ulInfoLen, 56),
                SIZE(CK_PKCS5_PBKD2_PARAMS2, 72),
                LAY(CK_PKCS5_PBKD2_PARAMS2, ulPasswordLen, 64),
                SIZE(CK_ECDH2_DERIVE_PARAMS, 72),
                LAY(CK_ECDH2_DERIVE_PARAMS, hPrivateData, 48),
                LAY(CK_ECDH2_DERIVE_PARAMS, pPublicData2, 64),
                SIZE(CK_ECMQV_DERIVE_PARAMS, 80),
                SIZE(CK_EDDSA_PARAMS, 24),
                LAY(CK_EDDSA_PARAMS, pContextData, 16),
                SIZE(CK_RSA_AES_KEY_WRAP_PARAMS, 16),
                SIZE(CK_ECDH_AES_KEY_WRAP_PARAMS, 32),
                SIZE(CK_SP800_108_KDF_PARAMS, 40),
                SIZE(CK_SP800_108_FEEDBACK_KDF_PARAMS, 56),
                LAY(CK_SP800_108_FEEDBACK_KDF_PARAMS, pIV, 32),
                SIZE(CK_SP800_108_DKM_LENGTH_FORMAT, 24),
                SIZE(CK_CHACHA20_PARAMS, 32),
                SIZE(CK_SALSA20_CHACHA20_POLY1305_PARAMS, 32),
                SIZE(CK_TLS12_MASTER_KEY_DERIVE_PARAMS, 48),
                SIZE(CK_TLS12_KEY_MAT_PARAMS, 80),
                LAY(CK_TLS_KDF_PARAMS, pContextData, 56),
                SIZE(CK_GCM_WRAP_PARAMS, 56), SIZE(CK_CCM_WRAP_PARAMS, 64),
                SIZE(CK_IKE1_PRF_DERIVE_PARAMS, 72),
                LAY(CK_IKE1_PRF_DERIVE_PARAMS, keyNumber, 64),
        };
        unsigned bad = 0;
        size_t i;

        (void)state;
        for (i = 0; i < VG_COUNT(lay); i++) {
                if (lay[i].ours == lay[i].spec)
                        continue;
                print_error("layout: %s is %lu, expected %lu\n", lay[i].name,
                            lay[i].ours, lay[i].spec);
                bad++;
        }
        assert_int_equal(bad, 0);
#else
        (void)state;
        skip();
#endif
}

int
main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_struct_layouts),
                cmocka_unit_test(test_function_list_2_40),
                cmocka_unit_test(test_constants),
                cmocka_unit_test(test_pinned_3x_constants),
                cmocka_unit_test(test_function_list_3_x),
                cmocka_unit_test(test_3x_struct_layouts),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
