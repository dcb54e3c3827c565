/*
 * Cases of tests/ct/ct_check.c kept in files of their own: each marks its
 * secrets (VG_CT_SECRET), runs a secret path and returns 0 when the
 * results are right.
 */
#ifndef VG_TESTS_CT_CT_CASES_H
#define VG_TESTS_CT_CT_CASES_H

/* tests/ct/ct_mlkem.c: ML-KEM-512/768/1024 key generation, encapsulation,
 * decapsulation of a valid ciphertext and of one that is rejected. */
int vg_ct_case_mlkem_keygen(void);
int vg_ct_case_mlkem_encaps(void);
int vg_ct_case_mlkem_decaps(void);
int vg_ct_case_mlkem_decaps_reject(void);
/* The expansion of a secret dk, then decapsulation of a valid and of a
 * rejected ciphertext with the expanded key. */
int vg_ct_case_mlkem_decaps_expanded(void);

#endif
