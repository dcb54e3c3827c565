#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/NAME).

Keys, a certificate and a signature are made by the openssl command line
tool; the inputs of the PKCS#11 targets are encoded in the formats their
decoders read (tests/fuzz/fuzz.h, p11.c and each fuzz_*.c). Run it from
the top of the source tree when a decoder changes, and commit the result:

    python3 tests/fuzz/mkseeds.py

The seeds differ from run to run (fresh keys); the tests only replay
whatever is committed. To add seeds without remaking the others, name
them (CORPUS/FILE); only those files are written:

    python3 tests/fuzz/mkseeds.py mech/wrap_kw_secret der/mldsa_pkcs8.der
"""
import base64
import os
import struct
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(TOP, "tests", "fuzz", "corpus")
# CORPUS/FILE names given on the command line: write only these.
ONLY = set(sys.argv[1:])

# PKCS#11 numbers used below (cryptoki/pkcs11.h).
CKO_DATA, CKO_CERTIFICATE, CKO_PUBLIC_KEY, CKO_PRIVATE_KEY, CKO_SECRET_KEY = 0, 1, 2, 3, 4
CKK_RSA, CKK_EC, CKK_GENERIC_SECRET, CKK_AES, CKK_ML_DSA = 0, 3, 0x10, 0x1F, 0x4A
CKA_CLASS, CKA_TOKEN, CKA_PRIVATE, CKA_LABEL, CKA_VALUE = 0, 1, 2, 3, 0x11
CKA_APPLICATION = 0x10
CKA_CERTIFICATE_TYPE, CKA_KEY_TYPE, CKA_ID, CKA_SENSITIVE = 0x80, 0x100, 0x102, 0x103
CKA_ENCRYPT, CKA_DECRYPT, CKA_SIGN, CKA_VERIFY, CKA_DERIVE = 0x104, 0x105, 0x108, 0x10A, 0x10C
CKA_MODULUS, CKA_MODULUS_BITS, CKA_PUBLIC_EXPONENT = 0x120, 0x121, 0x122
CKA_PRIVATE_EXPONENT, CKA_PRIME_1, CKA_PRIME_2 = 0x123, 0x124, 0x125
CKA_EXPONENT_1, CKA_EXPONENT_2, CKA_COEFFICIENT = 0x126, 0x127, 0x128
CKA_VALUE_LEN, CKA_EXTRACTABLE = 0x161, 0x162
CKA_EC_PARAMS, CKA_EC_POINT = 0x180, 0x181
CKA_PARAMETER_SET = 0x61D
CKA_SEED, CKA_ENCAPSULATE, CKA_DECAPSULATE = 0x637, 0x633, 0x634
CKA_START_DATE = 0x110
CKF_ARRAY = 0x40000000
CKA_DERIVE_TEMPLATE = CKF_ARRAY | 0x213
CKA_ALLOWED_MECHANISMS = CKF_ARRAY | 0x600
CKM_RSA_PKCS, CKM_RSA_X_509, CKM_RSA_PKCS_OAEP, CKM_RSA_PKCS_PSS = 1, 3, 9, 0xD
CKM_ML_DSA, CKM_HASH_ML_DSA = 0x1D, 0x1F
CKM_ML_KEM = 0x17
CKM_SHA256_RSA_PKCS_PSS = 0x43
CKM_SHA_1, CKM_SHA256, CKM_SHA256_HMAC = 0x220, 0x250, 0x251
CKM_ECDSA, CKM_ECDSA_SHA256, CKM_ECDH1_DERIVE = 0x1041, 0x1044, 0x1050
CKM_EDDSA = 0x1057
CKK_EC_EDWARDS, CKK_EC_MONTGOMERY = 0x40, 0x41
ED25519_OID, X25519_OID = bytes.fromhex("06032b6570"), bytes.fromhex("06032b656e")
CKM_AES_KEY_WRAP, CKM_AES_KEY_WRAP_KWP = 0x2109, 0x210B
CKM_AES_ECB, CKM_AES_CBC_PAD, CKM_AES_CTR, CKM_AES_GCM = 0x1081, 0x1085, 0x1086, 0x1087
CKM_AES_CMAC_GENERAL = 0x108B
CKM_AES_ECB_ENCRYPT_DATA, CKM_AES_CBC_ENCRYPT_DATA = 0x1104, 0x1105
CKM_HKDF_DERIVE, CKM_HKDF_DATA, CKM_SHA512_256 = 0x402A, 0x402B, 0x4C
CKF_HKDF_SALT_DATA, CKF_HKDF_SALT_KEY = 2, 4
CKG_MGF1_SHA1, CKG_MGF1_SHA256 = 1, 2
CKD_NULL, CKD_SHA256_KDF = 1, 6
CKZ_DATA_SPECIFIED = 1
CKU_SO, CKU_USER = 0, 1
P256_OID = bytes.fromhex("06082a8648ce3d030107")


# ------------------------------------------------------------ encoders

def u8(v):
    return bytes([v & 0xFF])


def u16(v):
    return struct.pack(">H", v)


def length(n):
    """vg_fz_len."""
    return u8(n) if n < 0xFF else b"\xff" + u16(n)


def ulong(v):
    """vg_fz_ulong."""
    if v < 0x100:
        return b"\x00" + u8(v)
    if v < 1 << 32:
        return b"\x03" + struct.pack(">I", v)
    return b"\x04" + struct.pack(">Q", v)


def host_ulong(v):
    return struct.pack("<Q", v)


def mech(v):
    """vg_fz_mech_type with an explicit value."""
    return b"\xf0" + ulong(v)


def raw(t, value):
    """A template entry of any bytes (form 0), explicit type."""
    return b"\x00" + b"\xf8" + ulong(t) + length(len(value)) + value


def null(t, n):
    """A template entry with pValue NULL and ulValueLen n."""
    return b"\x20" + b"\xf8" + ulong(t) + ulong(n)


def nested(t, entries):
    """An attribute-array entry (form 'well formed', kind VG_K_ATTRS)."""
    return b"\x40" + b"\xf8" + ulong(t) + template(entries)


def mechs(t, types):
    return b"\x40" + b"\xf8" + ulong(t) + u8(len(types)) + b"".join(mech(m) for m in types)


def template(entries):
    return u8(len(entries)) + b"".join(entries)


def boolean(t, v=True):
    return raw(t, b"\x01" if v else b"\x00")


def ul(t, v):
    return raw(t, host_ulong(v))


def data(b):
    return length(len(b)) + b


# ----------------------------------------------------------- DER bits

def der_items(b):
    """The elements of a DER SEQUENCE's contents: (tag, contents)."""
    out, i = [], 0
    while i < len(b):
        tag, n = b[i], b[i + 1]
        i += 2
        if n & 0x80:
            k = n & 0x7F
            n = int.from_bytes(b[i:i + k], "big")
            i += k
        out.append((tag, b[i:i + n]))
        i += n
    return out


def der_seq(b):
    return der_items(der_items(b)[0][1])


def mag(v):
    return v.lstrip(b"\x00") or b"\x00"


def openssl(*args):
    subprocess.run(["openssl"] + list(args), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def write(name, files):
    d = os.path.join(CORPUS, name)
    os.makedirs(d, exist_ok=True)
    if ONLY:
        files = {f: c for f, c in files.items() if name + "/" + f in ONLY}
    else:
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    for fname, content in files.items():
        with open(os.path.join(d, fname), "wb") as f:
            f.write(content)
    print("%s: %d files, %d bytes" % (name, len(files), sum(len(c) for c in files.values())))


def mldsa44_pkcs8():
    """A PrivateKeyInfo of ML-DSA-44 in the seed form of RFC 9881 §6
    (made by hand: the openssl tool here predates ML-DSA)."""
    inner = b"\x80\x20" + os.urandom(32)
    body = (b"\x02\x01\x00" + b"\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x03\x11" +
            b"\x04" + u8(len(inner)) + inner)
    return b"\x30" + u8(len(body)) + body


def mlkem512_pkcs8():
    """A PrivateKeyInfo of ML-KEM-512 in the seed form of the LAMPS
    draft (seed [0], d || z: 64 bytes), made by hand like the ML-DSA one."""
    inner = b"\x80\x40" + os.urandom(64)
    body = (b"\x02\x01\x00" + b"\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x04\x01" +
            b"\x04" + u8(len(inner)) + inner)
    return b"\x30" + u8(len(body)) + body


def store_bodies():
    """Object bodies and a token seal record as the database holds them
    (token/seal.c): values in host order (x86-64: CK_ULONG little-endian),
    an "encrypted" value of nonce, ciphertext and tag, and the record of
    fuzz_store.c's key."""
    import hashlib
    import hmac

    def body(items):
        out = b"VGB\x02" + struct.pack(">I", len(items))
        for t, enc, v in sorted(items):
            out += struct.pack(">QBI", t, enc, len(v)) + v
        return out
    le = lambda v: struct.pack("<Q", v)
    key = b"a seal key for the fuzz target.\x00"
    head = b"\x02" + struct.pack(">Q", 7)
    tag = hmac.new(key, b"vgtoken token seal v2\x00" + b"0123456789abcdef" +
                   struct.pack(">Q", 1) + head, hashlib.sha256).digest()
    return {
        "data.vgb": body([(CKA_CLASS, 0, le(CKO_DATA)), (CKA_TOKEN, 0, b"\x01"),
                          (CKA_PRIVATE, 0, b"\x00"), (CKA_LABEL, 0, b"label"),
                          (CKA_VALUE, 0, b"value")]),
        "secret.vgb": body([(CKA_CLASS, 1, os.urandom(36)), (CKA_KEY_TYPE, 1, os.urandom(36)),
                            (CKA_SENSITIVE, 0, b"\x01"),
                            (CKA_VALUE, 1, os.urandom(12 + 32 + 16))]),
        "token.seal": head + tag,
    }


def main():
    tmp = tempfile.mkdtemp()
    p = lambda f: os.path.join(tmp, f)
    rd = lambda f: open(p(f), "rb").read()
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", p("ec.pem"))
    openssl("ec", "-in", p("ec.pem"), "-outform", "DER", "-out", p("ec_priv.der"))
    openssl("pkcs8", "-topk8", "-nocrypt", "-in", p("ec.pem"), "-outform", "DER", "-out", p("ec_pkcs8.der"))
    openssl("ec", "-in", p("ec.pem"), "-pubout", "-outform", "DER", "-out", p("ec_spki.der"))
    openssl("ec", "-in", p("ec.pem"), "-pubout", "-conv_form", "compressed", "-outform", "DER", "-out", p("ec_spki_c.der"))
    openssl("ecparam", "-name", "prime256v1", "-outform", "DER", "-out", p("ec_params.der"))
    openssl("genrsa", "-out", p("rsa.pem"), "1024")
    openssl("rsa", "-in", p("rsa.pem"), "-outform", "DER", "-traditional", "-out", p("rsa_priv.der"))
    openssl("rsa", "-in", p("rsa.pem"), "-pubout", "-outform", "DER", "-out", p("rsa_spki.der"))
    openssl("rsa", "-in", p("rsa.pem"), "-RSAPublicKey_out", "-outform", "DER", "-out", p("rsa_pub.der"))
    openssl("pkcs8", "-topk8", "-nocrypt", "-in", p("rsa.pem"), "-outform", "DER", "-out", p("rsa_pkcs8.der"))
    openssl("req", "-x509", "-new", "-key", p("ec.pem"), "-subj", "/CN=vgtoken fuzz seed",
            "-days", "3650", "-outform", "DER", "-out", p("cert.der"))
    with open(p("msg"), "wb") as f:
        f.write(b"hello")
    openssl("dgst", "-sha256", "-sign", p("ec.pem"), "-out", p("sig.der"), p("msg"))
    openssl("genpkey", "-algorithm", "ed25519", "-outform", "DER", "-out", p("ed25519_pkcs8.der"))
    openssl("genpkey", "-algorithm", "x25519", "-outform", "DER", "-out", p("x25519_pkcs8.der"))

    ec_items = der_seq(rd("ec_priv.der"))
    ec_scalar = ec_items[1][1]
    ec_point = der_items(ec_items[3][1])[0][1][1:]          # BIT STRING minus unused byte
    ec_point_der = b"\x04" + u8(len(ec_point)) + ec_point
    ec_point_c = der_seq(rd("ec_spki_c.der"))[1][1][1:]
    rsa = [mag(v) for _, v in der_seq(rd("rsa_priv.der"))[1:9]]
    cert = rd("cert.der")

    # ------------------------------------------------------------ der
    write("der", {
        "ec_priv.der": rd("ec_priv.der"),
        "ec_pkcs8.der": rd("ec_pkcs8.der"),
        "ec_spki.der": rd("ec_spki.der"),
        "ec_params.der": rd("ec_params.der"),
        "rsa_priv.der": rd("rsa_priv.der"),
        "rsa_spki.der": rd("rsa_spki.der"),
        "rsa_pub.der": rd("rsa_pub.der"),
        "ecdsa_sig.der": rd("sig.der"),
        "ec_point.raw": ec_point,
        "ec_point_c.raw": ec_point_c,
        "ec_point.der": ec_point_der,
        "ec.pem": rd("ec.pem"),
        "mldsa_pkcs8.der": mldsa44_pkcs8(),
        "mlkem_pkcs8.der": mlkem512_pkcs8(),
        "ed25519_pkcs8.der": rd("ed25519_pkcs8.der"),
        "x25519_pkcs8.der": rd("x25519_pkcs8.der"),
        # CKA_EC_PARAMS of Ed25519 and X25519 keys: the OID, a curveName
        # and what pkcs11-tool 0.23 sends (crypto/der_ecx.c)
        "ed25519_params.der": ED25519_OID,
        "x25519_params_name.der": b"\x13\x0acurve25519",
        "x25519_params_opensc.der": b"\x13\x0bcurve25519",
        "rsa_pub.pem": b"-----BEGIN RSA PUBLIC KEY-----\n" +
        base64.encodebytes(rd("rsa_pub.der")) + b"-----END RSA PUBLIC KEY-----\n",
    })

    # ---------------------------------------------------------- store
    def stored(attrs):
        out = b"VGA\x01" + struct.pack(">I", len(attrs))
        for t, v in sorted(attrs):
            out += struct.pack(">QI", t, len(v)) + v
        return out
    be = lambda v: struct.pack(">Q", v)
    write("store", dict(store_bodies(), **{
        "cert.der": cert,
        "data.vga": stored([(CKA_CLASS, be(CKO_DATA)), (CKA_TOKEN, b"\x01"),
                            (CKA_PRIVATE, b"\x00"), (CKA_LABEL, b"label"),
                            (CKA_APPLICATION, b"app"), (CKA_VALUE, b"value")]),
        "ec_pub.vga": stored([(CKA_CLASS, be(CKO_PUBLIC_KEY)), (CKA_KEY_TYPE, be(CKK_EC)),
                              (CKA_TOKEN, b"\x01"), (CKA_ID, b"\x01\x02"),
                              (CKA_START_DATE, b"20260101"),
                              (CKA_EC_PARAMS, P256_OID), (CKA_EC_POINT, ec_point_der)]),
        "secret.vga": stored([(CKA_CLASS, be(CKO_SECRET_KEY)),
                              (CKA_KEY_TYPE, be(CKK_GENERIC_SECRET)),
                              (CKA_SENSITIVE, b"\x00"), (CKA_EXTRACTABLE, b"\x01"),
                              (CKA_VALUE, b"k" * 16), (CKA_VALUE_LEN, be(16)),
                              (CKA_ALLOWED_MECHANISMS, be(CKM_SHA256_HMAC)),
                              (CKA_DERIVE_TEMPLATE,
                               stored([(CKA_CLASS, be(CKO_SECRET_KEY)),
                                       (CKA_SENSITIVE, b"\x01")]))]),
    }))

    # ------------------------------------------------------- template
    common_priv = [boolean(CKA_TOKEN, False), boolean(CKA_SIGN), boolean(CKA_SENSITIVE, False)]
    write("template", {
        "create_data": u8(0) + template([ul(CKA_CLASS, CKO_DATA), boolean(CKA_TOKEN, True),
                                         raw(CKA_LABEL, b"x"), raw(CKA_VALUE, b"data")]),
        "create_cert": u8(0) + template([ul(CKA_CLASS, CKO_CERTIFICATE),
                                         ul(CKA_CERTIFICATE_TYPE, 0), raw(CKA_VALUE, cert)]),
        "create_ec_pub": u8(0) + template([ul(CKA_CLASS, CKO_PUBLIC_KEY), ul(CKA_KEY_TYPE, CKK_EC),
                                           raw(CKA_EC_PARAMS, P256_OID),
                                           raw(CKA_EC_POINT, ec_point_der)]),
        "create_ec_priv": u8(0) + template([ul(CKA_CLASS, CKO_PRIVATE_KEY), ul(CKA_KEY_TYPE, CKK_EC),
                                            raw(CKA_EC_PARAMS, P256_OID), raw(CKA_VALUE, ec_scalar),
                                            raw(CKA_EC_POINT, ec_point_der)] + common_priv),
        "create_rsa_priv": u8(0) + template(
            [ul(CKA_CLASS, CKO_PRIVATE_KEY), ul(CKA_KEY_TYPE, CKK_RSA)] +
            [raw(t, v) for t, v in zip([CKA_MODULUS, CKA_PUBLIC_EXPONENT, CKA_PRIVATE_EXPONENT,
                                        CKA_PRIME_1, CKA_PRIME_2, CKA_EXPONENT_1,
                                        CKA_EXPONENT_2, CKA_COEFFICIENT], rsa)] + common_priv),
        "create_rsa_pub": u8(0) + template([ul(CKA_CLASS, CKO_PUBLIC_KEY), ul(CKA_KEY_TYPE, CKK_RSA),
                                            raw(CKA_MODULUS, rsa[0]),
                                            raw(CKA_PUBLIC_EXPONENT, rsa[1])]),
        "create_secret": u8(0) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                           ul(CKA_KEY_TYPE, CKK_GENERIC_SECRET),
                                           raw(CKA_VALUE, b"s" * 32),
                                           mechs(CKA_ALLOWED_MECHANISMS, [CKM_SHA256_HMAC]),
                                           nested(CKA_DERIVE_TEMPLATE,
                                                  [ul(CKA_CLASS, CKO_SECRET_KEY),
                                                   boolean(CKA_SENSITIVE, True)]),
                                           null(CKA_LABEL, 5)]),
        "gen_secret": u8(1) + u8(0) + template([ul(CKA_VALUE_LEN, 32), boolean(CKA_SIGN)]),
        "gen_aes": u8(1) + u8(1) + template([ul(CKA_VALUE_LEN, 16), boolean(CKA_TOKEN, True)]),
        "pair_ec": u8(2) + u8(0) + template([raw(CKA_EC_PARAMS, P256_OID), boolean(CKA_VERIFY)]) +
        template([boolean(CKA_SIGN), boolean(CKA_TOKEN, True), raw(CKA_ID, b"\x42")]),
        "pair_mldsa": u8(2) + u8(1) + template([ul(CKA_PARAMETER_SET, 1)]) +
        template([boolean(CKA_SIGN), boolean(CKA_EXTRACTABLE, True)]),
        # generation mechanisms 4 and 5: Ed25519 and X25519 pairs
        "pair_ed25519": u8(2) + u8(4) + template([raw(CKA_EC_PARAMS, ED25519_OID), boolean(CKA_VERIFY)]) +
        template([boolean(CKA_SIGN), boolean(CKA_EXTRACTABLE, True)]),
        "pair_x25519": u8(2) + u8(5) + template([raw(CKA_EC_PARAMS, b"\x13\x0acurve25519")]) +
        template([boolean(CKA_DERIVE)]),
        "create_ed25519_pub": u8(0) + template([ul(CKA_CLASS, CKO_PUBLIC_KEY), ul(CKA_KEY_TYPE, CKK_EC_EDWARDS),
                                                raw(CKA_EC_PARAMS, ED25519_OID),
                                                raw(CKA_EC_POINT, bytes.fromhex(
                                                    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))]),
        "create_x25519_priv": u8(0) + template([ul(CKA_CLASS, CKO_PRIVATE_KEY), ul(CKA_KEY_TYPE, CKK_EC_MONTGOMERY),
                                                raw(CKA_EC_PARAMS, X25519_OID), raw(CKA_VALUE, b"\x77" * 32),
                                                boolean(CKA_DERIVE)]),
        # derive selector bit 8: the X25519 key
        "derive_x25519": u8(3) + u8(8) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                                   ul(CKA_KEY_TYPE, CKK_GENERIC_SECRET),
                                                   ul(CKA_VALUE_LEN, 32),
                                                   boolean(CKA_EXTRACTABLE, True),
                                                   boolean(CKA_SENSITIVE, False)]),
        "pair_mlkem": u8(2) + u8(0x80) + template([ul(CKA_PARAMETER_SET, 2), boolean(CKA_ENCAPSULATE)]) +
        template([boolean(CKA_DECAPSULATE), boolean(CKA_EXTRACTABLE, True), raw(CKA_SEED, b"\x11" * 64)]),
        "pair_mlkem_vendor": u8(2) + u8(0x81) + template([ul(CKA_PARAMETER_SET, 3)]) +
        template([boolean(CKA_TOKEN, True)]),
        "derive_ecdh": u8(3) + u8(0) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                                 ul(CKA_KEY_TYPE, CKK_GENERIC_SECRET),
                                                 ul(CKA_VALUE_LEN, 32),
                                                 boolean(CKA_EXTRACTABLE, True),
                                                 boolean(CKA_SENSITIVE, False)]),
        "derive_aes": u8(3) + u8(2) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                                ul(CKA_KEY_TYPE, CKK_AES)]),
    })

    # ----------------------------------------------------------- mech
    # op, mechanism, key (0 rsa priv, 1 rsa pub, 2 ec priv, 3 ec pub,
    # 4 ML-DSA priv, 5 ML-DSA pub, 6 HMAC, 7 AES), parameter, message,
    # then per operation: short-buffer flags, signature, derive template.
    NOPARAM = u8(0)
    def pss(h, mgf, slen):
        return u8(3) + mech(h) + ulong(mgf) + ulong(slen) + u8(0)
    def oaep(h, mgf, label):
        src = (u8(0) + data(label)) if label is not None else u8(2)
        return u8(4) + mech(h) + ulong(mgf) + ulong(CKZ_DATA_SPECIFIED if label is not None else 0) + src + u8(0)
    def ecdh(kdf, shared):
        sh = (u8(0) + data(shared)) if shared else u8(2)
        return u8(5) + ulong(kdf) + sh + u8(0) + u8(0)
    def ctx(hedge, c):
        return u8(6) + ulong(hedge) + u8(0) + data(c) + u8(0)
    def hctx(hedge, c, h):
        return u8(7) + ulong(hedge) + u8(0) + data(c) + mech(h) + u8(0)
    # AES parameters: a selector with bits 0x87 set, (selector >> 4) % 3
    # picks CK_GCM_PARAMS (0x97), CK_AES_CTR_PARAMS (0xa7) or
    # CK_MAC_GENERAL_PARAMS (0x87).
    def gcm(iv, aad, tagbits):
        return u8(0x97) + u8(0) + data(iv) + u8(0) + u8(0) + data(aad) + u8(tagbits) + u8(0)
    def ctr(bits, cb):
        return u8(0xA7) + u8(bits) + cb + u8(0)
    def macgen(n):
        return u8(0x87) + u8(0) + u8(n) + u8(0)
    def rawparam(b):
        return u8(2) + length(len(b)) + b
    # CK_EDDSA_PARAMS: selector 0x70
    def eddsa(ph, c):
        return u8(0x70) + u8(ph) + u8(0) + data(c) + u8(0)
    def x25519_peer(kdf, der):
        return u8(5) + ulong(kdf) + u8(2) + u8(0xF1 if der else 0xF0) + u8(0)
    # keys 0xe0..0xe3: Ed25519 priv, pub, X25519 priv, pub
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + b"\x11" * 32
    write("mech", {
        "sign_rsa_pkcs": u8(0) + mech(CKM_RSA_PKCS) + u8(0) + NOPARAM + data(digest_info) + u8(1),
        "sign_rsa_pss": u8(0) + mech(CKM_RSA_PKCS_PSS) + u8(0) + pss(CKM_SHA256, CKG_MGF1_SHA256, 32) +
        data(b"\x22" * 32) + u8(0),
        "sign_sha256_pss_multi": u8(8) + mech(CKM_SHA256_RSA_PKCS_PSS) + u8(0) +
        pss(CKM_SHA256, CKG_MGF1_SHA256, 20) + data(b"hello world") + u8(0),
        "encrypt_oaep_label": u8(2) + mech(CKM_RSA_PKCS_OAEP) + u8(1) +
        oaep(CKM_SHA256, CKG_MGF1_SHA256, b"label") + data(b"secret") + u8(0) + u8(1),
        "encrypt_oaep_sha1": u8(2) + mech(CKM_RSA_PKCS_OAEP) + u8(1) +
        oaep(CKM_SHA_1, CKG_MGF1_SHA1, None) + data(b"secret") + u8(0) + u8(0),
        "encrypt_x509": u8(2) + mech(CKM_RSA_X_509) + u8(1) + NOPARAM + data(b"\x00\x01abc") + u8(0) + u8(0),
        "decrypt_pkcs": u8(3) + mech(CKM_RSA_PKCS) + u8(0) + NOPARAM + data(b"\x5a" * 256) + u8(1),
        "sign_ecdsa": u8(0) + mech(CKM_ECDSA) + u8(2) + NOPARAM + data(b"\x33" * 32) + u8(0),
        "sign_ecdsa_sha256_multi": u8(8) + mech(CKM_ECDSA_SHA256) + u8(2) + NOPARAM +
        data(b"some message") + u8(1),
        "verify_ecdsa": u8(1) + mech(CKM_ECDSA) + u8(3) + NOPARAM + data(b"\x33" * 32) +
        data(b"\x01" * 64),
        "derive_ecdh_null": u8(4) + mech(CKM_ECDH1_DERIVE) + u8(2) + ecdh(CKD_NULL, None) +
        data(b"") + u8(0) + ulong(32) + u8(1),
        "derive_ecdh_sha256": u8(4) + mech(CKM_ECDH1_DERIVE) + u8(2) + ecdh(CKD_SHA256_KDF, b"shared") +
        data(b"") + u8(1) + ulong(16) + u8(1),
        # the secret-key derivations: parameter selector 0xf8 + (0 string
        # data, 1 AES-CBC data, 2 HKDF)
        "derive_aes_ecb_data": u8(4) + mech(CKM_AES_ECB_ENCRYPT_DATA) + u8(7) + u8(0xF8) +
        u8(0) + data(b"\x11" * 32) + data(b"") + u8(1) + ulong(16) + u8(1),
        "derive_aes_cbc_data": u8(4) + mech(CKM_AES_CBC_ENCRYPT_DATA) + u8(7) + u8(0xF9) +
        b"\x22" * 16 + u8(0) + data(b"\x33" * 48) + data(b"") + u8(0) + ulong(40) + u8(1),
        "derive_hkdf": u8(4) + mech(CKM_HKDF_DERIVE) + u8(6) + u8(0xFA) + u8(1) + u8(1) +
        mech(CKM_SHA256) + ulong(CKF_HKDF_SALT_DATA) + u8(0) + data(b"salt") + u8(0) + ulong(0) +
        u8(0) + data(b"info") + data(b"") + u8(0) + ulong(42) + u8(1),
        "derive_hkdf_salt_key": u8(4) + mech(CKM_HKDF_DERIVE) + u8(6) + u8(0xFA) + u8(1) + u8(0) +
        mech(CKM_SHA512_256) + ulong(CKF_HKDF_SALT_KEY) + u8(2) + u8(1) + u8(2) + data(b"") +
        u8(0) + ulong(32) + u8(0),
        "sign_mldsa_ctx": u8(0) + mech(CKM_ML_DSA) + u8(4) + ctx(0, b"context") + data(b"message") + u8(0),
        "sign_hash_mldsa": u8(0) + mech(CKM_HASH_ML_DSA) + u8(4) + hctx(2, b"", CKM_SHA256) +
        data(b"\x44" * 32) + u8(1),
        "verify_mldsa": u8(1) + mech(CKM_ML_DSA) + u8(5) + NOPARAM + data(b"message") + data(b"\x00" * 64),
        "sign_eddsa": u8(0) + mech(CKM_EDDSA) + u8(0xE0) + NOPARAM + data(b"message") + u8(0),
        "sign_eddsa_ctx": u8(0) + mech(CKM_EDDSA) + u8(0xE0) + eddsa(0, b"context") + data(b"message") + u8(1),
        "sign_eddsa_ph_multi": u8(8) + mech(CKM_EDDSA) + u8(0xE0) + eddsa(1, b"") + data(b"a longer message") +
        u8(0),
        "verify_eddsa": u8(1) + mech(CKM_EDDSA) + u8(0xE1) + eddsa(0, b"") + data(b"message") +
        data(b"\x00" * 64),
        "derive_x25519_null": u8(4) + mech(CKM_ECDH1_DERIVE) + u8(0xE2) + x25519_peer(CKD_NULL, False) +
        data(b"") + u8(0) + ulong(32) + u8(1),
        "derive_x25519_sha256": u8(4) + mech(CKM_ECDH1_DERIVE) + u8(0xE2) + x25519_peer(CKD_SHA256_KDF, True) +
        data(b"") + u8(1) + ulong(16) + u8(1),
        "sign_hmac": u8(0) + mech(CKM_SHA256_HMAC) + u8(6) + NOPARAM + data(b"data") + u8(0),
        "encrypt_aes_gcm": u8(2) + mech(CKM_AES_GCM) + u8(7) + gcm(b"twelve bytes", b"aad", 128) +
        data(b"a GCM plaintext") + u8(1) + u8(1),
        "encrypt_aes_ctr": u8(2) + mech(CKM_AES_CTR) + u8(7) + ctr(8, b"\x11" * 15 + b"\xfd") +
        data(b"x" * 40) + u8(0) + u8(1),
        "encrypt_aes_cbc_pad": u8(2) + mech(CKM_AES_CBC_PAD) + u8(7) + rawparam(b"\x22" * 16) +
        data(b"seventeen bytes!!") + u8(1) + u8(1),
        "decrypt_aes_gcm": u8(3) + mech(CKM_AES_GCM) + u8(7) + gcm(b"twelve bytes", b"", 96) +
        data(b"\x5a" * 40) + u8(0),
        "sign_aes_cmac_general": u8(0) + mech(CKM_AES_CMAC_GENERAL) + u8(7) + macgen(8) +
        data(b"message") + u8(0),
        # key wrapping (op 0x80): then what (0 raw unwrap, 1 the message
        # as a PKCS #8 key, 2 wrap a key, 3 wrap a secret key of the
        # message), a byte (key type, AES, bit to flip), then per case
        # the template, the key, the short-buffer flag, the byte to flip
        "wrap_kw_secret": u8(0x80) + mech(CKM_AES_KEY_WRAP) + u8(7) + NOPARAM +
        data(os.urandom(32)) + u8(3) + u8(1) + u8(1) + u16(5),
        "wrap_cbc_pad_secret": u8(0x80) + mech(CKM_AES_CBC_PAD) + u8(7) + rawparam(b"\x33" * 16) +
        data(os.urandom(20)) + u8(3) + u8(0) + u8(1) + u16(5),
        "wrap_ecb_secret": u8(0x80) + mech(CKM_AES_ECB) + u8(7) + NOPARAM +
        data(os.urandom(32)) + u8(3) + u8(1) + u8(0) + u16(5),
        "wrap_kwp_ec": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(b"") + u8(2) + u8(3) + u8(2) + u8(0) + u16(70),
        "wrap_kwp_mldsa": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(b"") + u8(2) + u8(6) + u8(4) + u8(1) + u16(20),
        "wrap_kwp_secret": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(b"seventeen bytes!!") + u8(3) + u8(0) + u8(0) + u16(9),
        "wrap_oaep_secret": u8(0x80) + mech(CKM_RSA_PKCS_OAEP) + u8(1) +
        oaep(CKM_SHA256, CKG_MGF1_SHA256, b"label") + data(os.urandom(16)) +
        u8(3) + u8(0) + u8(0) + u16(100),
        "unwrap_pkcs8_ec": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(rd("ec_pkcs8.der")) + u8(1) + u8(1) + u8(0),
        "unwrap_pkcs8_rsa": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(rd("rsa_pkcs8.der")) + u8(1) + u8(0) + u8(0),
        "unwrap_pkcs8_mldsa": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(mldsa44_pkcs8()) + u8(1) + u8(2) + u8(0),
        "unwrap_pkcs8_mlkem": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(mlkem512_pkcs8()) + u8(1) + u8(3) + u8(0),
        "unwrap_pkcs8_ed25519": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(rd("ed25519_pkcs8.der")) + u8(1) + u8(4) + u8(0),
        "unwrap_pkcs8_x25519": u8(0x80) + mech(CKM_AES_KEY_WRAP_KWP) + u8(7) + NOPARAM +
        data(rd("x25519_pkcs8.der")) + u8(1) + u8(5) + u8(0),
        "unwrap_raw": u8(0x80) + mech(CKM_AES_KEY_WRAP) + u8(7) + NOPARAM +
        data(os.urandom(40)) + u8(0) + u8(0) +
        template([ul(CKA_CLASS, CKO_SECRET_KEY), ul(CKA_KEY_TYPE, CKK_AES)]),
        # key encapsulation (op 0x40): the new key's type (bit 0: AES),
        # its length (bit 0: the ulong that follows, else 32), how many
        # template entries (2 + n % 4), which keys (bit 0: the picked
        # public key, bit 1: the picked private key, else the ML-KEM-512
        # pair; bit 2: CKM_ML_KEM), the short-buffer flag; the message
        # is then decapsulated as a ciphertext
        "kem_mlkem_512": u8(0x40) + mech(CKM_ML_KEM) + u8(0) + NOPARAM +
        data(os.urandom(768)) + u8(0) + u8(0) + u8(3) + u8(4) + u8(1),
        "kem_mlkem_aes16": u8(0x40) + mech(CKM_ML_KEM) + u8(0) + NOPARAM +
        data(os.urandom(100)) + u8(1) + u8(1) + ulong(16) + u8(3) + u8(4) +
        u8(0),
        "kem_wrong_keys": u8(0x40) + mech(CKM_ML_KEM) + u8(4) + NOPARAM +
        data(os.urandom(768)) + u8(0) + u8(0) + u8(0) + u8(3) + u8(0),
    })

    # ---------------------------------------------------------- calls
    # Init choice, then calls: op (mod 50) and its arguments.
    open_rw = u8(9) + u8(0) + u8(1) + u8(0)         # C_OpenSession R/W, token slot
    login_user = u8(13) + u8(CKU_USER) + u8(0) + u8(0)
    login_so = u8(13) + u8(CKU_SO) + u8(0) + u8(1)
    find_all = u8(21) + u8(0) + u8(0) + u8(22) + u8(8) + u8(0) + u8(23) + u8(0)
    getattr_label = u8(19) + u8(0) + u8(0) + template([null(CKA_LABEL, 0), null(CKA_CLASS, 0)])
    write("calls", {
        "sign": u8(0) + open_rw + login_user + find_all + getattr_label +
        u8(29) + u8(0) + mech(CKM_ECDSA) + u8(0) + u8(3) +
        u8(30) + u8(0) + data(b"\x55" * 32) + u8(0x40) + length(64) +
        u8(14) + u8(0) + u8(10) + u8(0),
        "pins": u8(1) + open_rw + login_so + u8(7) + u8(0) + u8(4) + data(b"new-user-pin") +
        u8(14) + u8(0) + u8(13) + u8(CKU_USER) + u8(0) + u8(2) +
        u8(13) + u8(CKU_USER) + u8(0) + u8(2) + login_user +
        u8(8) + u8(0) + u8(0) + u8(4) + data(b"changed-pin") + u8(14) + u8(0),
        "objects": u8(2) + open_rw + login_user +
        u8(15) + u8(0) + template([ul(CKA_CLASS, CKO_DATA), boolean(CKA_TOKEN, True),
                                   raw(CKA_LABEL, b"made")]) +
        u8(16) + u8(0) + u8(0) + template([boolean(CKA_TOKEN, False)]) +
        u8(20) + u8(0) + u8(0) + template([raw(CKA_LABEL, b"renamed")]) +
        u8(18) + u8(0) + u8(0) + u8(17) + u8(0) + u8(0) + u8(17) + u8(0) + u8(2),
        "digest": u8(3) + open_rw + u8(24) + u8(0) + mech(CKM_SHA256) + u8(0) + u8(0) +
        u8(25) + u8(0) + data(b"abc") + u8(0x40) + length(32) +
        u8(24) + u8(0) + mech(CKM_SHA256) + u8(0) + u8(0) + u8(26) + u8(0) + data(b"ab") +
        u8(28) + u8(0) + u8(0x00) + ulong(0) +
        u8(45) + u8(0) + length(16) + u8(44) + u8(0) + data(b"seed") + u8(12) + u8(0) + u8(1) +
        u8(0) + u8(1) + u8(1) + u8(0x40) + length(4) + u8(1) + u8(0) + u8(0) + u8(0) +
        u8(3) + u8(0) + u8(4) + u8(0x40) + length(8) + u8(0) + u8(5) + u8(0) + mech(CKM_ECDSA) +
        u8(49),
        "lifecycle": u8(4) + u8(48) + u8(3) + u8(48) + u8(1) + u8(48) + u8(0) +
        u8(6) + u8(0) + u8(1) + u8(1) + open_rw + u8(11) + u8(0) +
        u8(6) + u8(0x41) + u8(1) + u8(0) + open_rw + login_so + u8(10) + u8(0),
        "keys": u8(0) + open_rw + login_user +
        u8(42) + u8(0) + u8(1) + template([raw(CKA_EC_PARAMS, P256_OID)]) + template([]) +
        u8(43) + u8(0) + u8(0) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                           ul(CKA_KEY_TYPE, CKK_GENERIC_SECRET)]) +
        u8(41) + u8(0) + u8(0) + template([ul(CKA_VALUE_LEN, 32)]) +
        u8(27) + u8(0) + u8(4) + u8(29) + u8(0) + mech(CKM_SHA256_HMAC) + u8(0) + u8(4) +
        u8(31) + u8(0) + data(b"part") + u8(32) + u8(0) + u8(0x40) + length(32) +
        u8(46) + u8(0) + ulong(0xffffffff) + u8(47) + u8(0) + u8(0) + u8(0) + data(b"user"),
        # 250 C_EncapsulateKey, 251 C_DecapsulateKey: session, selector
        # (0: CKM_ML_KEM and the snapshot's ML-KEM key), template, then
        # the output buffer or the ciphertext
        "kem": u8(0) + open_rw + login_user +
        u8(250) + u8(0) + u8(0) + template([]) + u8(0x40) + length(768) +
        u8(250) + u8(0) + u8(0) + template([ul(CKA_CLASS, CKO_SECRET_KEY),
                                            ul(CKA_KEY_TYPE, CKK_AES)]) + u8(0x40) + length(700) +
        u8(251) + u8(0) + u8(0) + template([]) + data(os.urandom(768)) +
        u8(251) + u8(0) + u8(0) + template([]) + data(os.urandom(767)) +
        u8(251) + u8(0) + u8(2) + u8(1) + template([]) + data(os.urandom(768)),
    })


if __name__ == "__main__":
    sys.exit(main())
