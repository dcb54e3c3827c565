# The body of a vgtoken-util backup as doc/backup.md gives it, read and
# written again by the scripts that forge malformed bodies
# (util_backup_tmpl.sh, util_backup_kem.sh). They import it with
# PYTHONPATH set to this directory.
#
#   bk = Backup(path, passphrase_file)
#       the file decrypted (PBKDF2 and HKDF as the format says): bk.hdr,
#       bk.kfile, bk.body; bk.objs, the objects as [wrapped, attrs, blob],
#       attrs a list of [type, kind, value] where a template's value
#       (kind 4) is its own list of entries. Asserts that the body parses
#       to its end and that bk.encode(bk.objs) gives it back.
#   bk.encode(objs)
#       a body with bk's label, serial and time and these objects.
#   bk.seal(path, body, version=2)
#       writes a file whose body is sealed under bk's file key.
#   enc(entries)
#       an attribute list as the body holds it (u16 count, then each
#       entry), templates encoded in place.
import hashlib, hmac, struct
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

TEMPLATE = 4


def be8(v):
    return v.to_bytes(8, "big")


class Rd:
    def __init__(self, b):
        self.b, self.r = b, 0

    def take(self, n):
        v = self.b[self.r:self.r + n]
        assert len(v) == n
        self.r += n
        return v

    def u(self, n):
        return int.from_bytes(self.take(n), "big")


def entries(rd, inner):
    out = []
    for j in range(rd.u(2)):
        t, k, n = rd.u(4), rd.u(1), rd.u(4)
        v = rd.take(n)
        if k == TEMPLATE:
            assert not inner
            sub = Rd(v)
            v = entries(sub, True)
            assert sub.r == len(sub.b) and 1 <= len(v) <= 32
        out.append([t, k, v])
    return out


def enc(es):
    b = struct.pack(">H", len(es))
    for t, k, v in es:
        if k == TEMPLATE and isinstance(v, list):
            v = enc(v)
        b += struct.pack(">IBI", t, k, len(v)) + v
    return b


class Backup:
    def __init__(self, path, passphrase_file):
        f = open(path, "rb").read()
        pw = open(passphrase_file, "rb").read().split(b"\n")[0]
        self.hdr = f[:64]
        it, = struct.unpack(">I", self.hdr[12:16])
        master = hashlib.pbkdf2_hmac("sha256", pw, self.hdr[16:48], it, 32)
        self.kfile = hmac.new(master, b"vgtoken backup 1: file key\x01",
                              "sha256").digest()
        self.body = AESGCM(self.kfile).decrypt(self.hdr[48:60], f[64:],
                                               self.hdr)
        rd = Rd(self.body)
        label = rd.take(rd.u(2))
        serial = rd.take(rd.u(2))
        rd.take(8)
        # where the object count starts: what encode() keeps before it
        self.first = 2 + len(label) + 2 + len(serial) + 8
        self.objs = []
        for i in range(rd.u(4)):
            w = rd.u(1)
            attrs = entries(rd, False)
            self.objs.append([w, attrs, rd.take(rd.u(4)) if w else None])
        assert rd.r == len(self.body)
        assert self.encode(self.objs) == self.body

    def encode(self, objs):
        b = self.body[:self.first] + struct.pack(">I", len(objs))
        for w, attrs, blob in objs:
            b += bytes([w]) + enc(attrs)
            if w:
                b += struct.pack(">I", len(blob)) + blob
        return b

    def seal(self, path, b, version=2):
        iv = bytes(12)
        h = (self.hdr[:8] + bytes([version]) + self.hdr[9:48] + iv +
             struct.pack(">I", len(b)))
        open(path, "wb").write(h + AESGCM(self.kfile).encrypt(iv, b, h))
