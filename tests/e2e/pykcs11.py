"""PyKCS11 (a PKCS#11 2.x-era client) against vgtoken: the mechanism list,
key pairs made on the token, signatures and decryption checked with the
public keys read back, searches and attributes. Run by pykcs11.sh with
the module's path and a token label; prints one "ok N - ..." line per
check and exits 1 at the first failure."""
import sys

import PyKCS11
from PyKCS11 import LowLevel as L

MODULE, LABEL, PIN = sys.argv[1], sys.argv[2], sys.argv[3]
count = 0


def check(desc, cond):
    global count
    if not cond:
        print("FAIL: " + desc)
        sys.exit(1)
    count += 1
    print("ok %d - %s" % (count, desc))


lib = PyKCS11.PyKCS11Lib()
lib.load(MODULE)
slots = lib.getSlotList(tokenPresent=True)
slot = None
for s in slots:
    if lib.getTokenInfo(s).label.strip() == LABEL:
        slot = s
check("the token is listed", slot is not None)

mechs = lib.getMechanismList(slot)  # raised KeyError on 3.2-only numbers
check("getMechanismList names every mechanism", len(mechs) > 20)
check("CKM_ECDSA_SHA256 among them", "CKM_ECDSA_SHA256" in mechs)
check("ML-DSA as the vendor mechanism",
      any(m.startswith("CKM_VENDOR_DEFINED") for m in mechs))
info = lib.getMechanismInfo(slot, "CKM_RSA_PKCS_OAEP")
check("getMechanismInfo", info.flags & L.CKF_DECRYPT)

session = lib.openSession(slot, PyKCS11.CKF_SERIAL_SESSION | PyKCS11.CKF_RW_SESSION)
session.login(PIN)

# EC P-256 on the token
p256 = bytes.fromhex("06082a8648ce3d030107")
pub_t = [(L.CKA_CLASS, L.CKO_PUBLIC_KEY), (L.CKA_TOKEN, True),
         (L.CKA_EC_PARAMS, p256), (L.CKA_VERIFY, True),
         (L.CKA_LABEL, "py-ec"), (L.CKA_ID, (0x51,))]
priv_t = [(L.CKA_CLASS, L.CKO_PRIVATE_KEY), (L.CKA_TOKEN, True),
          (L.CKA_SIGN, True), (L.CKA_LABEL, "py-ec"), (L.CKA_ID, (0x51,))]
pub, priv = session.generateKeyPair(pub_t, priv_t,
                                    PyKCS11.Mechanism(L.CKM_EC_KEY_PAIR_GEN))
data = b"signed by PyKCS11"
sig = bytes(session.sign(priv, data, PyKCS11.Mechanism(L.CKM_ECDSA_SHA256)))
check("ECDSA-SHA256 signature of 64 bytes", len(sig) == 64)
check("it verifies", session.verify(pub, data, sig,
                                    PyKCS11.Mechanism(L.CKM_ECDSA_SHA256)))
check("another message does not",
      not session.verify(pub, data + b"!", sig,
                         PyKCS11.Mechanism(L.CKM_ECDSA_SHA256)))
point = bytes(session.getAttributeValue(pub, [L.CKA_EC_POINT])[0])
check("CKA_EC_POINT is an uncompressed point", len(point) == 67 and point[2] == 4)

# RSA 2048: OAEP decryption of what the public key encrypts
pub_t = [(L.CKA_CLASS, L.CKO_PUBLIC_KEY), (L.CKA_TOKEN, True),
         (L.CKA_MODULUS_BITS, 2048), (L.CKA_ENCRYPT, True),
         (L.CKA_VERIFY, True), (L.CKA_LABEL, "py-rsa")]
priv_t = [(L.CKA_CLASS, L.CKO_PRIVATE_KEY), (L.CKA_TOKEN, True),
          (L.CKA_DECRYPT, True), (L.CKA_SIGN, True), (L.CKA_LABEL, "py-rsa")]
rpub, rpriv = session.generateKeyPair(pub_t, priv_t)
oaep = PyKCS11.RSAOAEPMechanism(L.CKM_SHA256, L.CKG_MGF1_SHA256)
ct = session.encrypt(rpub, b"secret for OAEP", oaep)
check("OAEP ciphertext of 256 bytes", len(ct) == 256)
check("the token decrypts it",
      bytes(session.decrypt(rpriv, ct, oaep)) == b"secret for OAEP")
sig = session.sign(rpriv, data, PyKCS11.Mechanism(L.CKM_SHA256_RSA_PKCS))
check("SHA256-RSA-PKCS verifies", session.verify(rpub, data, sig,
                                  PyKCS11.Mechanism(L.CKM_SHA256_RSA_PKCS)))

# searches and attributes
found = session.findObjects([(L.CKA_LABEL, "py-ec")])
check("findObjects by label finds both halves", len(found) == 2)
found = session.findObjects([(L.CKA_CLASS, L.CKO_PRIVATE_KEY)])
check("two private keys", len(found) == 2)
kt, sens, extr = session.getAttributeValue(rpriv, [L.CKA_KEY_TYPE,
                                                   L.CKA_SENSITIVE,
                                                   L.CKA_EXTRACTABLE])
check("the RSA key is sensitive and not extractable",
      kt == L.CKK_RSA and sens and not extr)
session.destroyObject(priv)
check("destroyObject", len(session.findObjects([(L.CKA_LABEL, "py-ec")])) == 1)
session.logout()
session.closeSession()
