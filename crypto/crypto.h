/*
 * crypto/: pure functions on bytes and keys. No PKCS#11 types, no global
 * state but the kernel table (crypto/cpu.h). Each family documents itself in
 * its own header; this is the one header the layers above include.
 */
#ifndef VG_CRYPTO_H
#define VG_CRYPTO_H

#include "crypto/err.h"
#include "crypto/ct.h"
#include "crypto/cpu.h"
#include "crypto/hash.h"
#include "crypto/aes.h"
#include "crypto/drbg.h"
#include "crypto/der.h"
#include "crypto/pem.h"
#include "crypto/p256.h"
#include "crypto/rsa.h"
#include "crypto/mldsa.h"
#include "crypto/mlkem.h"

#endif
