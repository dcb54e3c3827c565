/*
 * The names of Curve25519 and Curve448 keys in DER: the OIDs of RFC 8410
 * and the forms of CKA_EC_PARAMS that PKCS#11 3.0 clients send for
 * CKK_EC_EDWARDS and CKK_EC_MONTGOMERY keys [PKCS#11 3.2 §6.3.5, §6.3.7].
 */
#include "config.h"

#include <string.h>

#include "crypto/der.h"

#define OID(name, ...) \
	static const uint8_t name##_octets[] = { __VA_ARGS__ }; \
	const struct vg_der vg_oid_##name = { name##_octets, \
	    sizeof name##_octets }

/* 1.3.101.110 .. 113 [RFC 8410 §3] */
OID(x25519, 0x2b, 0x65, 0x6e);
OID(x448, 0x2b, 0x65, 0x6f);
OID(ed25519, 0x2b, 0x65, 0x70);
OID(ed448, 0x2b, 0x65, 0x71);

/* Older names: GnuPG's 1.3.6.1.4.1.11591.15.1 (Ed25519) and
 * 1.3.6.1.4.1.3029.1.5.1 (Curve25519), and the misspelt forms of the two
 * (1.3.6.1.4.1159.15.1, 1.3.6.1.4.3029.1.5.1) that OpenSC 0.22 and 0.23
 * send from pkcs11-tool --keypairgen --key-type EC:edwards25519. */
static const uint8_t gnu_ed25519[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0xda,
	0x47, 0x0f, 0x01 };
static const uint8_t opensc_ed25519[] = { 0x2b, 0x06, 0x01, 0x04, 0x89,
	0x07, 0x0f, 0x01 };
static const uint8_t gnu_x25519[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x97,
	0x55, 0x01, 0x05, 0x01 };
static const uint8_t opensc_x25519[] = { 0x2b, 0x06, 0x01, 0x04, 0x97,
	0x55, 0x01, 0x05, 0x01 };

static const struct {
	const uint8_t *oid;
	size_t len;
	enum vg_der_ecx which;
} oids[] = {
	{ x25519_octets, sizeof(x25519_octets), VG_DER_ECX_X25519 },
	{ x448_octets, sizeof(x448_octets), VG_DER_ECX_X448 },
	{ ed25519_octets, sizeof(ed25519_octets), VG_DER_ECX_ED25519 },
	{ ed448_octets, sizeof(ed448_octets), VG_DER_ECX_ED448 },
	{ gnu_ed25519, sizeof(gnu_ed25519), VG_DER_ECX_ED25519 },
	{ opensc_ed25519, sizeof(opensc_ed25519), VG_DER_ECX_ED25519 },
	{ gnu_x25519, sizeof(gnu_x25519), VG_DER_ECX_X25519 },
	{ opensc_x25519, sizeof(opensc_x25519), VG_DER_ECX_X25519 },
};

/* The curveName forms [PKCS#11 3.2 §6.3.5]: RFC 7748 and RFC 8032 name
 * the curves, clients also use the algorithm names. */
static const struct {
	const char *name;
	enum vg_der_ecx which;
} names[] = {
	{ "edwards25519", VG_DER_ECX_ED25519 },
	{ "Ed25519", VG_DER_ECX_ED25519 },
	{ "curve25519", VG_DER_ECX_X25519 },
	{ "X25519", VG_DER_ECX_X25519 },
	{ "edwards448", VG_DER_ECX_ED448 },
	{ "Ed448", VG_DER_ECX_ED448 },
	{ "curve448", VG_DER_ECX_X448 },
	{ "X448", VG_DER_ECX_X448 },
};

/* see crypto/der.h */
enum vg_der_ecx
vg_der_ecx_of_oid(const struct vg_der *oid)
{
	size_t i;

	for (i = 0; i < sizeof(oids) / sizeof(oids[0]); i++)
		if (oid->len == oids[i].len &&
		    memcmp(oid->p, oids[i].oid, oids[i].len) == 0)
			return oids[i].which;
	return VG_DER_ECX_NONE;
}

/* see crypto/der.h */
const struct vg_der *
vg_der_ecx_oid(enum vg_der_ecx which)
{
	switch (which) {
	case VG_DER_ECX_ED25519:
		return &vg_oid_ed25519;
	case VG_DER_ECX_X25519:
		return &vg_oid_x25519;
	case VG_DER_ECX_ED448:
		return &vg_oid_ed448;
	case VG_DER_ECX_X448:
		return &vg_oid_x448;
	default:
		return NULL;
	}
}

/* What pkcs11-tool 0.23 sends for --key-type EC:curve25519: the
 * PrintableString "curve25519" with a length byte one too large (11 for
 * 10 bytes). Not DER; taken as exactly these bytes and nothing near them,
 * so that the one client that sends it can make X25519 keys. */
static const uint8_t opensc_curve25519[] = { 0x13, 0x0b, 'c', 'u', 'r',
	'v', 'e', '2', '5', '5', '1', '9' };

/* see crypto/der.h */
enum vg_err
vg_der_parse_ecx_params(const void *in, size_t len, enum vg_der_ecx *which)
{
	struct vg_der c = vg_der_make(in, len), v, whole;
	unsigned tag;
	enum vg_err rc;
	size_t i;

	*which = VG_DER_ECX_NONE;
	if (len == sizeof(opensc_curve25519) &&
	    memcmp(in, opensc_curve25519, len) == 0) {
		*which = VG_DER_ECX_X25519;
		return VG_OK;
	}
	if (vg_der_peek_tag(&c) == (int)VG_DER_OID) {
		rc = vg_der_get_oid(&c, &v);
		if (rc == VG_OK && !vg_der_at_end(&c))
			rc = VG_ERR_DECODE;
		if (rc == VG_OK)
			*which = vg_der_ecx_of_oid(&v);
		return rc;
	}
	if (vg_der_peek_tag(&c) != (int)VG_DER_PRINTABLE_STRING)
		return vg_der_get_any(&c, &tag, &v, &whole) == VG_OK &&
		    vg_der_at_end(&c) ? VG_OK : VG_ERR_DECODE;
	rc = vg_der_get_tlv(&c, VG_DER_PRINTABLE_STRING, &v);
	if (rc == VG_OK && !vg_der_at_end(&c))
		rc = VG_ERR_DECODE;
	for (i = 0; rc == VG_OK && i < sizeof(names) / sizeof(names[0]); i++)
		if (v.len == strlen(names[i].name) &&
		    memcmp(v.p, names[i].name, v.len) == 0)
			*which = names[i].which;
	return rc;
}

/* see crypto/der.h */
enum vg_err
vg_der_build_ecx_params(uint8_t *out, size_t *outlen, enum vg_der_ecx which)
{
	const struct vg_der *oid = vg_der_ecx_oid(which);

	if (oid == NULL)
		return VG_ERR_ARG;
	return vg_der_build_ec_params(out, outlen, oid);
}
