#!/bin/sh
# vgtoken-util --import --key-type, --backup and --restore end to end.
# Token A gets extractable RSA, EC and ML-DSA key pairs, an AES key and an
# HMAC key imported raw, a certificate, a data object, and two keys that
# are not extractable; it is backed up and restored into token B. Every
# object is compared through PyKCS11 (its attributes, and for keys the
# bytes C_WrapKey gives under one AES key both tokens share), RSA and EC
# signatures made on either token verify with the other's public keys,
# HMACs agree with openssl's; the skipped keys are named; the file is
# read by an independent implementation as doc/backup.md describes it; a
# wrong passphrase, a changed byte, a cut file, a malformed body sealed
# under the right key create nothing; the passphrase typed on a terminal
# works; a second restore skips what is there.
. "$top_srcdir/tests/e2e/lib.sh"
need openssl "Debian package openssl"
need pkcs11-tool "Debian package opensc"
need od "Debian package coreutils"
PY=/usr/bin/python3
[ -x $PY ] || skip "Debian's python3 is not installed"
$PY -c 'import PyKCS11' 2>/dev/null || skip "PyKCS11 is not installed (Debian package python3-pykcs11)"
$PY -c 'import cryptography.hazmat.primitives.keywrap' 2>/dev/null ||
	skip "python3's cryptography is not installed (Debian package python3-cryptography)"
client pkcs11-tool opensc
. "$top_srcdir/tests/e2e/util_lib.sh"
PIN=user-Secret-5521

check "token A" u --init-token --label A --so-pin so-Secret-1 --pin $PIN
check "token B" u --init-token --label B --so-pin so-Secret-1 --pin $PIN

# ------------------------------------------------- raw secret key import
head -c 32 /dev/urandom >"$WORK/kek"
head -c 32 /dev/urandom >"$WORK/aes"
head -c 40 /dev/urandom >"$WORK/hmac"
for t in A B; do
	check "--import --key-type aes: the shared wrapping key on $t" \
		u --import "$WORK/kek" --key-type aes --token $t --pin $PIN --id 99 --label kek
done
check "it is not extractable by default" grep -q "secret key into token 'B': id=99 label=\"kek\"\$" "$WORK/u.out"
check "--import --key-type aes --extractable, 32 bytes" \
	u --import "$WORK/aes" --key-type aes --token A --pin $PIN --id 04 --label aes --extractable
check "says AES-256, extractable" grep -q "imported AES-256 secret key into token 'A': id=04 label=\"aes\" (extractable)" "$WORK/u.out"
check "wrapped under the known key with AES-KWP" \
	p11 A --wrap -m 0x210b --id 99 --application-id 04 -o "$WORK/aes.w"
plain openssl enc -d -id-aes256-wrap-pad -K "$(hex "$WORK/kek")" -iv A65959A6 \
	-in "$WORK/aes.w" -out "$WORK/aes.back"
check "it is the file's 32 bytes" cmp -s "$WORK/aes" "$WORK/aes.back"
check "--import --key-type generic --extractable, 40 bytes" \
	u --import "$WORK/hmac" --key-type generic --token A --pin $PIN --id 05 --label hmac --extractable
check "a 40-byte file is refused as an AES key" fails --import "$WORK/hmac" --key-type aes --token A --pin $PIN
check "as not 16, 24 or 32 bytes" grep -q "has 40 bytes: an AES key has 16, 24 or 32" "$WORK/u.err"
printf '00112233445566778899aabbccddeeff' >"$WORK/hex"
check "a key written as 32 hex digits is refused as AES" fails --import "$WORK/hex" --key-type aes --token A --pin $PIN
check "as text, with the command that converts it" grep -q "holds text, not a raw key: convert hex with 'xxd -r -p'" "$WORK/u.err"
check "an unknown --key-type is a usage error" sh -c \
	"ASAN_OPTIONS=detect_leaks=0 '$UTIL' --import '$WORK/aes' --key-type des --token A --pin $PIN >/dev/null 2>&1; test \$? -eq 2"
check "the sensitive value cannot be read" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label A --login --pin $PIN --read-object --type secrkey --id 04 -o '$WORK/x' >/dev/null 2>&1"

# ---------------------------------------------------------- token A
check "--keygen rsa2048 --extractable" u --keygen rsa2048 --token A --pin $PIN --id 01 --label rsa --extractable
check "--keygen ec --extractable" u --keygen ec --token A --pin $PIN --id 02 --label ec --extractable
check "--keygen mldsa44 --extractable" u --keygen mldsa44 --token A --pin $PIN --id 03 --label mldsa --extractable
check "--keygen ec, not extractable" u --keygen ec --token A --pin $PIN --id 06 --label stuck
check "a self-signed certificate for the EC key" \
	u --export-pubkey --token A --id 02 -o "$WORK/ec.pub"
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/ca.key" 2>/dev/null
openssl req -new -x509 -key "$WORK/ca.key" -subj /CN=backup-test -days 30 \
	-out "$WORK/cert.pem" 2>/dev/null
check "--import the certificate" u --import "$WORK/cert.pem" --token A --pin $PIN --id 02 --label cert
printf 'a data object, kept by an application\n' >"$WORK/dataobj"
check "pkcs11-tool --write-object a data object" \
	p11 A --write-object "$WORK/dataobj" --type data --label note --application-label backup-app
before_a=$(count A)
check "token A has 13 objects" test "$before_a" -eq 13

# ---------------------------------------------------------------- backup
printf 'correct horse battery staple\n' >"$WORK/pass"
printf 'correct horse battery stapler\n' >"$WORK/wrong"
check "--backup" u --backup "$WORK/bk" --token A --pin $PIN --passphrase-file "$WORK/pass"
check "11 objects written, 2 skipped" grep -q "^11 object(s) backed up, 2 skipped" "$WORK/u.out"
check "the non-extractable EC key is named as skipped" \
	grep -q "^skipped: private-key ec id=06 label=\"stuck\": not extractable" "$WORK/u.err"
check "the non-extractable wrapping key too" \
	grep -q "^skipped: secret-key aes id=99 label=\"kek\": not extractable" "$WORK/u.err"
check "the file is readable by its owner only" sh -c "ls -l '$WORK/bk' | grep -q '^-rw-------'"
check "it starts with VGTOKBAK, format 2" test "$(head -c 12 "$WORK/bk" | hex /dev/stdin)" = 5647544f4b42414b02010101
check "and 600000 PBKDF2 iterations" test "$(head -c 16 "$WORK/bk" | tail -c 4 | hex /dev/stdin)" = 000927c0
check "labels and values are not in clear" sh -c \
	"! grep -q -e backup-app -e 'kept by an application' -e mldsa '$WORK/bk'"
check "a second --backup does not replace the file" fails --backup "$WORK/bk" --token A --pin $PIN --passphrase-file "$WORK/pass"
check "a passphrase on the command line is refused" sh -c \
	"ASAN_OPTIONS=detect_leaks=0 '$UTIL' --backup '$WORK/bk2' --token A --pin $PIN --passphrase secret >/dev/null 2>&1; test \$? -eq 2"
printf 'short\n' >"$WORK/short"
check "a passphrase under 8 characters is refused" fails --backup "$WORK/bk2" --token A --pin $PIN --passphrase-file "$WORK/short"
check "without a terminal and no passphrase file: fails" fails --backup "$WORK/bk2" --token A --pin $PIN
check "and nothing was written" test ! -e "$WORK/bk2"

# The passphrase typed on a terminal: twice for a backup (not echoed),
# once for a restore; two that differ write nothing.
cat >"$WORK/onterm.py" <<'EOF'
import os, pty, sys
answers = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    args = sys.argv[1].split()
    os.execv(args[0], args)
out = b""
for a in answers:
    while not out.rstrip().endswith(b"passphrase:"):
        d = os.read(fd, 1024)
        if not d:
            break
        out += d
    os.write(fd, a.encode() + b"\n")
    out += b"<answered>"
try:
    while True:
        d = os.read(fd, 1024)
        if not d:
            break
        out += d
except OSError:
    pass
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode())
sys.exit(os.WEXITSTATUS(st))
EOF
typed="typed-Pass phrase-9"
check "--backup asks for the passphrase twice on a terminal" \
	$PY "$WORK/onterm.py" "$UTIL --backup $WORK/bk.tty --token A --pin $PIN" "$typed" "$typed" >"$WORK/pty.out"
check "Backup passphrase:" grep -q "^Backup passphrase: <answered>" "$WORK/pty.out"
check "then Repeat the backup passphrase:" grep -q "^Repeat the backup passphrase: <answered>" "$WORK/pty.out"
check "neither echoed" sh -c "! grep -q 'Pass phrase' '$WORK/pty.out'"
check "and writes the backup" grep -q "^11 object(s) backed up, 2 skipped" "$WORK/pty.out"
check "--backup with two passphrases that differ fails" sh -c \
	"! $PY '$WORK/onterm.py' '$UTIL --backup $WORK/bk.no --token A --pin $PIN' '$typed' 'other-Pass phrase-9' >'$WORK/pty.out'"
check "saying so" grep -q "the two backup passphrases differ" "$WORK/pty.out"
check "and writes nothing" test ! -e "$WORK/bk.no"
check "--restore asks for it once" sh -c \
	"! $PY '$WORK/onterm.py' '$UTIL --restore $WORK/bk.tty --token A --pin $PIN' '$typed' >'$WORK/pty.out'"
check "opens the file with it (then finds every object on A already)" \
	grep -q "^0 of 11 object(s) restored, 11 skipped" "$WORK/pty.out"

# ------------------------------------------ bad restores create nothing
check "--restore with a wrong passphrase fails" fails --restore "$WORK/bk" --token B --pin $PIN --passphrase-file "$WORK/wrong"
check "saying so" grep -q "wrong passphrase, or the file was changed" "$WORK/u.err"
check "and token B has only its wrapping key" test "$(count B)" -eq 1
size=$(wc -c <"$WORK/bk")
for off in 20 100 $((size / 2)) $((size - 1)); do
	cp "$WORK/bk" "$WORK/bad"
	flip_byte "$WORK/bad" $off
	check "a bit flipped at byte $off: --restore fails" fails --restore "$WORK/bad" --token B --pin $PIN --passphrase-file "$WORK/pass"
	check "as a changed file" grep -q "the file was changed" "$WORK/u.err"
	check "and creates nothing" test "$(count B)" -eq 1
done
head -c $((size - 1)) "$WORK/bk" >"$WORK/cut"
check "a file cut short: --restore fails" fails --restore "$WORK/cut" --token B --pin $PIN --passphrase-file "$WORK/pass"
check "as truncated" grep -q "is truncated" "$WORK/u.err"
check "and creates nothing" test "$(count B)" -eq 1

# The format as doc/backup.md gives it, read by another implementation
# (Python's hashlib and cryptography): the header, PBKDF2 and HKDF, the
# body under AES-256-GCM, its objects, and the AES key unwrapped with the
# derived wrapping key is the file's. Then bodies that decrypt but are
# malformed, sealed again under the right key: each refused, nothing made.
cat >"$WORK/format.py" <<'EOF'
import hashlib, hmac, struct, sys
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap_with_padding
bk, pw, aes, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
f = open(bk, "rb").read()
pw = open(pw, "rb").read().split(b"\n")[0]
hdr = f[:64]
assert hdr[:8] == b"VGTOKBAK" and hdr[8:12] == bytes([2, 1, 1, 1])
it, = struct.unpack(">I", hdr[12:16])
salt, iv = hdr[16:48], hdr[48:60]
blen, = struct.unpack(">I", hdr[60:64])
assert it == 600000 and len(f) == 64 + blen + 16
master = hashlib.pbkdf2_hmac("sha256", pw, salt, it, 32)
expand = lambda info: hmac.new(master, info + b"\x01", "sha256").digest()
kfile = expand(b"vgtoken backup 1: file key")
kwrap = expand(b"vgtoken backup 1: wrapping key")
body = AESGCM(kfile).decrypt(iv, f[64:], hdr)
r = 0
def take(n):
    global r
    v = body[r:r + n]
    assert len(v) == n
    r += n
    return v
u = lambda n: int.from_bytes(take(n), "big")
label = take(u(2)); serial = take(u(2)); when = u(8); count = u(4)
assert label == b"A" and count == 11
found_aes = False
for i in range(count):
    wrapped, nattr = u(1), u(2)
    attrs = {}
    for j in range(nattr):
        t, kind, n = u(4), u(1), u(4)
        attrs[t] = take(n)
    if wrapped:
        key = aes_key_unwrap_with_padding(kwrap, take(u(4)))
        if attrs.get(0x102) == b"\x04":   # CKA_ID 04: the AES key
            found_aes = key == open(aes, "rb").read()
assert r == len(body) and found_aes
print("format ok: %d objects" % count)
def seal(name, b):
    iv2 = bytes(12)
    h = hdr[:48] + iv2 + struct.pack(">I", len(b))
    open(out + "." + name, "wb").write(h + AESGCM(kfile).encrypt(iv2, b, h))
first = 2 + len(label) + 2 + len(serial) + 8
seal("count", body[:first] + struct.pack(">I", 12) + body[first + 4:])
seal("trailing", body + b"\0")
seal("cut", body[:-1])
seal("empty", b"")
obj = first + 4   # the first object: u8 wrapped, u16 count, CKA_CLASS
seal("flag", body[:obj] + bytes([2]) + body[obj + 1:])
seal("noattrs", body[:obj + 1] + b"\0\0" + body[obj + 3:])
seal("kind", body[:obj + 7] + bytes([0]) + body[obj + 8:])
seal("len", body[:obj + 8] + b"\xff\xff\xff\xf0" + body[obj + 12:])
seal("type", body[:obj + 3] + b"\x7f\xff\xff\xff" + body[obj + 7:])
EOF
check "the file reads as doc/backup.md describes it" \
	$PY "$WORK/format.py" "$WORK/bk" "$WORK/pass" "$WORK/aes" "$WORK/forged"
# Where it is malformed, as the message names it (the object by its
# position, class, key type, CKA_ID and label; the attribute by its
# position and type).
where() {
	case $1 in
	count) echo 'malformed at object 12 of 12, cut short' ;;
	trailing) echo 'malformed: 1 byte after the last object' ;;
	cut) echo 'malformed at object 11 of 11 (data label="note"), attribute [0-9]* (0x11): cut short' ;;
	flag) echo 'malformed at object 1 of 11, a wrapped-value flag of 2' ;;
	type) echo 'malformed at object 1 of 11, attribute 1 (0x7fffffff): a type a backup does not keep' ;;
	esac
}
for f in count trailing cut empty flag noattrs kind len type; do
	check "a sealed but malformed body ($f): --restore fails" \
		fails --restore "$WORK/forged.$f" --token B --pin $PIN --passphrase-file "$WORK/pass"
	check "as malformed" grep -q "the backup decrypts but is malformed" "$WORK/u.err"
	at=$(where $f)
	[ -z "$at" ] || check "naming where: $at" grep -q "$at" "$WORK/u.err"
	check "and creates nothing" test "$(count B)" -eq 1
done

# --------------------------------------------------------------- restore
check "--restore into token B" u --restore "$WORK/bk" --token B --pin $PIN --passphrase-file "$WORK/pass"
check "11 of 11 restored" grep -q "^11 of 11 object(s) restored\$" "$WORK/u.out"
check "names the source token" grep -q "backup of token 'A' (serial" "$WORK/u.out"
check "token B has 12 objects" test "$(count B)" -eq 12

# Every object compared: the attributes PyKCS11 reads, and for private
# and secret keys the bytes of CKM_AES_KEY_WRAP_KWP under the shared
# key (deterministic: the same key gives the same bytes).
cat >"$WORK/dump.py" <<'EOF'
import sys
import PyKCS11
from PyKCS11 import LowLevel as L
lib = PyKCS11.PyKCS11Lib()
lib.load(sys.argv[1])
slot = [s for s in lib.getSlotList(tokenPresent=True)
        if lib.getTokenInfo(s).label.strip() == sys.argv[2]][0]
s = lib.openSession(slot, PyKCS11.CKF_SERIAL_SESSION)
s.login(sys.argv[3])
attrs = ["CKA_CLASS", "CKA_KEY_TYPE", "CKA_LABEL", "CKA_ID", "CKA_PRIVATE",
         "CKA_MODIFIABLE", "CKA_SENSITIVE", "CKA_EXTRACTABLE", "CKA_ENCRYPT",
         "CKA_DECRYPT", "CKA_SIGN", "CKA_VERIFY", "CKA_WRAP", "CKA_UNWRAP",
         "CKA_DERIVE", "CKA_SIGN_RECOVER", "CKA_VERIFY_RECOVER",
         "CKA_MODULUS", "CKA_PUBLIC_EXPONENT", "CKA_EC_PARAMS",
         "CKA_EC_POINT", "CKA_VALUE", "CKA_VALUE_LEN", "CKA_APPLICATION",
         "CKA_OBJECT_ID", "CKA_SUBJECT", "CKA_ISSUER", "CKA_SERIAL_NUMBER",
         "CKA_CERTIFICATE_TYPE", "CKA_START_DATE", "CKA_END_DATE",
         "CKA_PUBLIC_KEY_INFO", "CKA_MODULUS_BITS", "CKA_COPYABLE",
         "CKA_DESTROYABLE", "CKA_ALWAYS_AUTHENTICATE",
         "CKA_WRAP_WITH_TRUSTED", "CKA_TRUSTED", "CKA_CHECK_VALUE",
         "CKA_HASH_OF_SUBJECT_PUBLIC_KEY", "CKA_URL"]
kek = s.findObjects([(L.CKA_CLASS, L.CKO_SECRET_KEY), (L.CKA_ID, (0x99,))])[0]
rows = []
for o in s.findObjects([(L.CKA_TOKEN, True)]):
    fields = []
    for a in attrs:
        try:
            v = s.getAttributeValue(o, [PyKCS11.CKA[a]], allAsBinary=True)[0]
        except PyKCS11.PyKCS11Error:
            continue
        if v is None:
            continue
        fields.append("%s=%s" % (a, bytes(v).hex()))
    cls = s.getAttributeValue(o, [L.CKA_CLASS])[0]
    if cls in (L.CKO_PRIVATE_KEY, L.CKO_SECRET_KEY):
        try:
            w = s.wrapKey(kek, o, PyKCS11.Mechanism(0x210b, None))
            fields.append("wrapped=" + bytes(w).hex())
        except PyKCS11.PyKCS11Error as e:
            fields.append("wrapped=" + str(e).split()[0])
    rows.append(" ".join(fields))
for r in sorted(rows):
    print(r)
EOF
dump() {
	$PY "$WORK/dump.py" "$MODULE" "$1" $PIN >"$WORK/dump.$1"
}
check "PyKCS11 reads every object of A" dump A
check "and of B" dump B
check "13 objects on A" test "$(wc -l <"$WORK/dump.A")" -eq 13
check "the keys on A wrap, but the two that are not extractable" \
	test "$(grep -c 'wrapped=[0-9a-f]' "$WORK/dump.A")" -eq 5
# What B must have: A's objects but the non-extractable EC private key
# (A's kek and B's kek have the same value and attributes).
grep -v "CKA_ID=06 .*wrapped=CKR_KEY_UNEXTRACTABLE" "$WORK/dump.A" >"$WORK/want"
check "A without the skipped key: 12 objects" test "$(wc -l <"$WORK/want")" -eq 12
check "B has every object of A with the same attributes and key values" \
	cmp -s "$WORK/want" "$WORK/dump.B"

# Keys that work: B signs, A's public keys verify; HMACs agree.
head -c 3000 /dev/urandom >"$WORK/msg"
check "--export-pubkey of A's RSA key" u --export-pubkey --token A --id 01 -o "$WORK/rsa.pub"
check "B signs with the restored RSA key" \
	p11 B --sign -m SHA256-RSA-PKCS --id 01 -i "$WORK/msg" -o "$WORK/rsa.sig"
check "A's public key verifies it" \
	openssl dgst -sha256 -verify "$WORK/rsa.pub" -signature "$WORK/rsa.sig" "$WORK/msg"
check "B signs with the restored EC key" \
	p11 B --sign -m ECDSA-SHA256 --id 02 -i "$WORK/msg" -o "$WORK/ec.sig" --signature-format openssl
check "A's public key verifies it" \
	openssl dgst -sha256 -verify "$WORK/ec.pub" -signature "$WORK/ec.sig" "$WORK/msg"
for k in 01:rsa:SHA256-RSA-PKCS 02:ec:ECDSA-SHA256; do
	id=${k%%:*}
	rest=${k#*:}
	alg=${rest%%:*}
	check "A signs with its $alg key" \
		p11 A --sign -m ${rest#*:} --id $id -i "$WORK/msg" -o "$WORK/$alg.sig.a" --signature-format openssl
	check "B's restored public key, exported, verifies it" sh -c \
		"'$UTIL' --export-pubkey --token B --id $id -o '$WORK/$alg.pub.b' 2>/dev/null && openssl dgst -sha256 -verify '$WORK/$alg.pub.b' -signature '$WORK/$alg.sig.a' '$WORK/msg' >/dev/null"
done
check "B's HMAC-SHA256 with the restored generic secret" \
	p11 B --sign -m SHA256-HMAC --id 05 -i "$WORK/msg" -o "$WORK/mac.b"
openssl dgst -sha256 -mac HMAC -macopt "hexkey:$(hex "$WORK/hmac")" -binary \
	-out "$WORK/mac.o" "$WORK/msg"
check "is openssl's with the file's key" cmp -s "$WORK/mac.b" "$WORK/mac.o"
check "B's restored AES key wraps out as the imported bytes" \
	p11 B --wrap -m 0x210b --id 99 --application-id 04 -o "$WORK/aes.wb"
check "the same wrapped bytes as on A" cmp -s "$WORK/aes.w" "$WORK/aes.wb"
check "the certificate reads back from B" p11 B --read-object --type cert --id 02 -o "$WORK/cert.der"
openssl x509 -in "$WORK/cert.pem" -outform DER -out "$WORK/cert.want"
check "as imported" cmp -s "$WORK/cert.der" "$WORK/cert.want"
check "the data object reads back from B" p11 B --read-object --type data --label note -o "$WORK/dataobj.b"
check "as written" cmp -s "$WORK/dataobj" "$WORK/dataobj.b"
check "the ML-DSA public keys of A and B are the same" sh -c \
	"'$UTIL' --export-pubkey --token A --id 03 -o '$WORK/ml.a' && '$UTIL' --export-pubkey --token B --id 03 -o '$WORK/ml.b' && cmp -s '$WORK/ml.a' '$WORK/ml.b'"

# A second restore: every object is there already.
check "a second --restore fails (status 1)" fails --restore "$WORK/bk" --token B --pin $PIN --passphrase-file "$WORK/pass"
check "0 of 11 restored, 11 skipped" grep -q "^0 of 11 object(s) restored, 11 skipped" "$WORK/u.out"
check "each named as on the token already" \
	test "$(grep -c 'the token has it already' "$WORK/u.err")" -eq 11
check "token B still has 12 objects" test "$(count B)" -eq 12
echo "$ok checks passed"
