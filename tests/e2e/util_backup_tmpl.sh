#!/bin/sh
# vgtoken-util --backup and --restore keep the templates of keys
# (CKA_WRAP_TEMPLATE, CKA_UNWRAP_TEMPLATE, CKA_DERIVE_TEMPLATE; format
# version 2) and still read version-1 files. A version-1 file made before
# templates were kept (tests/fixtures/backup-v1.bak) restores with the
# keys' values. On token A, through PyKCS11, an AES key with a wrap and an
# unwrap template and an EC key pair with a derive template: the token
# enforces them on A, and after a backup and a restore into B it enforces
# them the same way on B. A key whose template holds an attribute a
# backup does not keep is skipped, not kept without it. Bodies with
# malformed templates, sealed under the right key, are refused and create
# nothing.
. "$top_srcdir/tests/e2e/lib.sh"
need openssl "Debian package openssl"
need pkcs11-tool "Debian package opensc"
need od "Debian package coreutils"
PY=/usr/bin/python3
[ -x $PY ] || skip "Debian's python3 is not installed"
$PY -c 'import PyKCS11' 2>/dev/null || skip "PyKCS11 is not installed (Debian package python3-pykcs11)"
$PY -c 'import cryptography.hazmat.primitives.ciphers.aead' 2>/dev/null ||
	skip "python3's cryptography is not installed (Debian package python3-cryptography)"
client pkcs11-tool opensc
. "$top_srcdir/tests/e2e/util_lib.sh"
PIN=user-Secret-5521

for t in A B C; do
	check "token $t" u --init-token --label $t --so-pin so-Secret-1 --pin $PIN
done

# ------------------------------------------------ a version-1 file
FIX="$top_srcdir/tests/fixtures/backup-v1.bak"
printf 'version one fixture\n' >"$WORK/pass1"
check "the fixture is a version-1 backup" test "$(head -c 12 "$FIX" | hex /dev/stdin)" = 5647544f4b42414b01010101
head -c 32 /dev/urandom >"$WORK/kek"
check "a wrapping key on C" u --import "$WORK/kek" --key-type aes --token C --pin $PIN --id 99 --label kek
check "--restore of the version-1 file" u --restore "$FIX" --token C --pin $PIN --passphrase-file "$WORK/pass1"
check "3 of 3 restored" grep -q "^3 of 3 object(s) restored\$" "$WORK/u.out"
check "from token v1src" grep -q "backup of token 'v1src' (serial 17a497de49a8ac18" "$WORK/u.out"
check "C has 4 objects" test "$(count C)" -eq 4
check "the restored AES key wraps out under the wrapping key" \
	p11 C --wrap -m 0x210b --id 99 --application-id 04 -o "$WORK/aes.w"
plain openssl enc -d -id-aes256-wrap-pad -K "$(hex "$WORK/kek")" -iv A65959A6 \
	-in "$WORK/aes.w" -out "$WORK/aes.back"
check "as the bytes 0 ... 31 it was imported with" \
	test "$(hex "$WORK/aes.back")" = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
printf 'a message' >"$WORK/msg"
check "the restored HMAC key signs" p11 C --sign -m SHA256-HMAC --id 05 -i "$WORK/msg" -o "$WORK/mac"
openssl dgst -sha256 -mac HMAC -binary -out "$WORK/mac.o" \
	-macopt hexkey:4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f "$WORK/msg"
check "as openssl with the imported bytes" cmp -s "$WORK/mac" "$WORK/mac.o"
check "the data object reads back" p11 C --read-object --type data --label note -o "$WORK/note"
check "as written" test "$(cat "$WORK/note")" = "a version-1 backup"

# ------------------------------------------- keys with templates
cat >"$WORK/tmpl.py" <<'EOF'
import os, sys
import PyKCS11
from PyKCS11 import LowLevel as L
# PyKCS11 1.5 builds nested lists for the wrap and unwrap templates only.
PyKCS11.Session.isAttributeList = lambda self, t: t in (
    L.CKA_WRAP_TEMPLATE, L.CKA_UNWRAP_TEMPLATE, L.CKA_DERIVE_TEMPLATE)
lib = PyKCS11.PyKCS11Lib()
lib.load(sys.argv[1])
slot = [s for s in lib.getSlotList(tokenPresent=True)
        if lib.getTokenInfo(s).label.strip() == sys.argv[2]][0]
s = lib.openSession(slot, PyKCS11.CKF_SERIAL_SESSION | PyKCS11.CKF_RW_SESSION)
s.login(sys.argv[3])
mode = sys.argv[4]
KWP = PyKCS11.Mechanism(0x210b, None)
P256 = bytes.fromhex("06082a8648ce3d030107")
SECRET = [(L.CKA_CLASS, L.CKO_SECRET_KEY), (L.CKA_TOKEN, False)]

def refused(what, rv, f, *a):
    try:
        f(*a)
    except PyKCS11.PyKCS11Error as e:
        assert e.value == rv, "%s: %s" % (what, e)
        print("ok - " + what)
        return
    raise AssertionError(what + ": done, not refused")

def one(t):
    found = s.findObjects(t)
    assert len(found) == 1, t
    return found[0]

def attr(o, a):
    return s.getAttributeValue(o, [a])[0]

if mode == "make":
    s.generateKey([(L.CKA_CLASS, L.CKO_SECRET_KEY), (L.CKA_KEY_TYPE, L.CKK_AES),
        (L.CKA_VALUE_LEN, 32), (L.CKA_TOKEN, True), (L.CKA_PRIVATE, True),
        (L.CKA_SENSITIVE, True), (L.CKA_EXTRACTABLE, True),
        (L.CKA_WRAP, True), (L.CKA_UNWRAP, True), (L.CKA_ENCRYPT, False),
        (L.CKA_DECRYPT, False), (L.CKA_ID, b"\x10"), (L.CKA_LABEL, "guard"),
        (L.CKA_WRAP_TEMPLATE, [(L.CKA_KEY_TYPE, L.CKK_GENERIC_SECRET),
                               (L.CKA_EXTRACTABLE, True)]),
        (L.CKA_UNWRAP_TEMPLATE, [(L.CKA_EXTRACTABLE, False),
                                 (L.CKA_LABEL, "unwrapped-under-guard")])])
    s.generateKeyPair([(L.CKA_CLASS, L.CKO_PUBLIC_KEY), (L.CKA_KEY_TYPE, L.CKK_EC),
        (L.CKA_TOKEN, True), (L.CKA_EC_PARAMS, P256), (L.CKA_ID, b"\x11"),
        (L.CKA_LABEL, "ecdh"), (L.CKA_VERIFY, False),
        (L.CKA_WRAP_TEMPLATE, [(L.CKA_KEY_TYPE, L.CKK_AES)])],
        [(L.CKA_CLASS, L.CKO_PRIVATE_KEY), (L.CKA_KEY_TYPE, L.CKK_EC),
         (L.CKA_TOKEN, True), (L.CKA_PRIVATE, True), (L.CKA_SENSITIVE, True),
         (L.CKA_EXTRACTABLE, True), (L.CKA_DERIVE, True), (L.CKA_SIGN, False),
         (L.CKA_ID, b"\x11"), (L.CKA_LABEL, "ecdh"),
         (L.CKA_DERIVE_TEMPLATE, [(L.CKA_EXTRACTABLE, False),
                                  (L.CKA_KEY_TYPE, L.CKK_GENERIC_SECRET)])],
        PyKCS11.Mechanism(L.CKM_EC_KEY_PAIR_GEN, None))
    # a template holding a key value: not kept by a backup
    s.generateKey([(L.CKA_CLASS, L.CKO_SECRET_KEY), (L.CKA_KEY_TYPE, L.CKK_AES),
        (L.CKA_VALUE_LEN, 16), (L.CKA_TOKEN, True), (L.CKA_EXTRACTABLE, True),
        (L.CKA_WRAP, True), (L.CKA_ID, b"\x12"), (L.CKA_LABEL, "odd"),
        (L.CKA_WRAP_TEMPLATE, [(L.CKA_VALUE, bytes(16))])])
    print("made")
    sys.exit(0)

# check: the templates of the guard key and the ECDH key hold
guard = one([(L.CKA_CLASS, L.CKO_SECRET_KEY), (L.CKA_ID, b"\x10")])
ecdh = one([(L.CKA_CLASS, L.CKO_PRIVATE_KEY), (L.CKA_ID, b"\x11")])
pub = one([(L.CKA_CLASS, L.CKO_PUBLIC_KEY), (L.CKA_ID, b"\x11")])
one([(L.CKA_CLASS, L.CKO_PUBLIC_KEY),
     (L.CKA_WRAP_TEMPLATE, [(L.CKA_KEY_TYPE, L.CKK_AES)])])
print("ok - the EC public key has its CKA_WRAP_TEMPLATE")
gen = s.createObject(SECRET + [(L.CKA_KEY_TYPE, L.CKK_GENERIC_SECRET),
    (L.CKA_VALUE, os.urandom(32)), (L.CKA_EXTRACTABLE, True)])
aes = s.createObject(SECRET + [(L.CKA_KEY_TYPE, L.CKK_AES),
    (L.CKA_VALUE, os.urandom(16)), (L.CKA_EXTRACTABLE, True)])
wrapped = bytes(s.wrapKey(guard, gen, KWP))
print("ok - the guard key wraps a generic secret (its wrap template)")
refused("the guard key does not wrap an AES key", L.CKR_KEY_HANDLE_INVALID,
        s.wrapKey, guard, aes, KWP)
GEN = SECRET + [(L.CKA_KEY_TYPE, L.CKK_GENERIC_SECRET)]
refused("unwrapping an extractable key under it is refused",
        L.CKR_TEMPLATE_INCONSISTENT, s.unwrapKey, guard, wrapped,
        GEN + [(L.CKA_EXTRACTABLE, True)], KWP)
k = s.unwrapKey(guard, wrapped, GEN, KWP)
assert attr(k, L.CKA_EXTRACTABLE) is False
assert attr(k, L.CKA_LABEL) == "unwrapped-under-guard"
print("ok - a key unwrapped under it has its unwrap template")
point = bytes(attr(pub, L.CKA_EC_POINT))[2:]
ecdh1 = PyKCS11.ECDH1_DERIVE_Mechanism(point)
DER = SECRET + [(L.CKA_VALUE_LEN, 32)]
refused("an AES key derived from the ECDH key is refused",
        L.CKR_TEMPLATE_INCONSISTENT, s.deriveKey, ecdh,
        DER + [(L.CKA_KEY_TYPE, L.CKK_AES)], ecdh1)
refused("an extractable derived key is refused",
        L.CKR_TEMPLATE_INCONSISTENT, s.deriveKey, ecdh,
        DER + [(L.CKA_KEY_TYPE, L.CKK_GENERIC_SECRET),
               (L.CKA_EXTRACTABLE, True)], ecdh1)
d = s.deriveKey(ecdh, DER, ecdh1)
assert attr(d, L.CKA_KEY_TYPE) == L.CKK_GENERIC_SECRET
assert attr(d, L.CKA_EXTRACTABLE) is False
print("ok - a key derived from it has its derive template")
EOF
tmpl() {
	$PY "$WORK/tmpl.py" "$MODULE" "$@" >"$WORK/tmpl.out" 2>&1
}
check "PyKCS11 makes the keys with templates on A" tmpl A $PIN make
check "A has 4 objects" test "$(count A)" -eq 4
check "the token enforces the templates on A" tmpl A $PIN check
check "every check ran" test "$(grep -c '^ok - ' "$WORK/tmpl.out")" -eq 8

printf 'correct horse battery staple\n' >"$WORK/pass"
check "--backup of A" u --backup "$WORK/bk" --token A --pin $PIN --passphrase-file "$WORK/pass"
check "3 objects written, 1 skipped" grep -q "^3 object(s) backed up, 1 skipped" "$WORK/u.out"
check "the key with a key value in its template is named as skipped" \
	grep -q '^skipped: secret-key aes id=12 label="odd": its template 0x40000211 holds attribute 0x11, which a backup does not keep there$' "$WORK/u.err"
check "the file is of format 2" test "$(head -c 12 "$WORK/bk" | hex /dev/stdin)" = 5647544f4b42414b02010101

# The templates as doc/backup.md gives them, read by Python
# (tests/e2e/backup_body.py); then bodies with malformed templates,
# sealed again under the right key.
cat >"$WORK/forge.py" <<'EOF'
import copy, struct, sys
from backup_body import Backup, be8, enc
bk = Backup(sys.argv[1], sys.argv[2])
out = sys.argv[3]
objs = bk.objs
WRAP_T, UNWRAP_T, DERIVE_T = 0x40000211, 0x40000212, 0x40000213
tmpl = []
for w, attrs, blob in objs:
    for t, k, v in attrs:
        if k == 4:
            tmpl.append((t, sorted((e[0], e[1], e[2]) for e in v)))
want = [(WRAP_T, [(0x100, 2, be8(0x10)), (0x162, 1, b"\x01")]),
        (WRAP_T, [(0x100, 2, be8(0x1f))]),
        (UNWRAP_T, [(0x3, 0, b"unwrapped-under-guard"), (0x162, 1, b"\x00")]),
        (DERIVE_T, [(0x100, 2, be8(0x10)), (0x162, 1, b"\x00")])]
assert sorted(tmpl) == sorted(want), tmpl
print("format ok: the three templates as made")

def seal(name, b, version=2):
    bk.seal(out + "." + name, b, version)

def guard_wrap(objs):
    for w, attrs, blob in objs:
        for a in attrs:
            if a[0] == WRAP_T and w:
                return attrs, a
def variant(name, change):
    o = copy.deepcopy(objs)
    attrs, a = guard_wrap(o)
    change(o, attrs, a)
    seal(name, bk.encode(o))
# 33 entries of distinct types a template may hold (the limit is 32)
MANY = ([[t, 1, b"\x01"] for t in (0x1, 0x2, 0x86, 0x103, 0x104, 0x105,
        0x106, 0x107, 0x108, 0x109, 0x10a, 0x10b, 0x10c, 0x162, 0x163,
        0x164, 0x165, 0x170, 0x171, 0x172, 0x202, 0x210)] +
        [[t, 2, be8(4)] for t in (0x0, 0x100, 0x161, 0x121, 0x166)] +
        [[t, 0, b""] for t in (0x3, 0x102, 0x101, 0x110, 0x111, 0x90)])
assert len(MANY) == 33 and len(set(e[0] for e in MANY)) == 33
variant("unknown", lambda o, at, a: a[2].append([0x7fffff00, 0, b"x"]))
variant("value", lambda o, at, a: a[2].append([0x11, 0, bytes(16)]))
variant("uniqueid", lambda o, at, a: a[2].append([0x4, 0, b"1"]))
variant("nested", lambda o, at, a: a[2].append(
    [UNWRAP_T, 4, [[0x104, 1, b"\x01"]]]))
variant("many", lambda o, at, a: a.__setitem__(2, MANY))
variant("max", lambda o, at, a: a.__setitem__(2, MANY[1:]))
variant("dup", lambda o, at, a: a[2].append(list(a[2][0])))
variant("boollen", lambda o, at, a: a[2].append([0x104, 1, b"\x01\x00"]))
variant("ulonglen", lambda o, at, a: a[2].append([0x161, 2, b"\0\0\0\x20"]))
variant("kind", lambda o, at, a: a[2].append([0x161, 0, be8(32)]))
variant("big", lambda o, at, a: a[2].append([0x3, 0, bytes(4097)]))
variant("zero", lambda o, at, a: a.__setitem__(2, b"\0\0"))
variant("cut", lambda o, at, a: a.__setitem__(2, enc(a[2])[:-1]))
variant("extra", lambda o, at, a: a.__setitem__(2, enc(a[2]) + b"\0"))
variant("count", lambda o, at, a: a.__setitem__(2,
    struct.pack(">H", len(a[2]) + 1) + enc(a[2])[2:]))
def on_public(o, at, a):
    for w, attrs, blob in o:
        if not w and [0x0, 2, be8(2)] in attrs:
            attrs.append([DERIVE_T, 4, [[0x162, 1, b"\x00"]]])
variant("class", on_public)
seal("v1", bk.body, 1)
EOF
check "the templates read as doc/backup.md describes them" \
	py_body "$WORK/forge.py" "$WORK/bk" "$WORK/pass" "$WORK/forged"
check "forged files made" test -s "$WORK/forged.many"
# The message names the object (CKA_ID in hex and label, never a value),
# the template and the entry at fault.
where() {
	case $1 in
	value) echo 'at object 1 of 3 (secret-key aes id=10 label="guard"), attribute [0-9]* (0x40000211), entry 3 (0x11): a type a template in a backup does not hold' ;;
	many) echo 'at object 1 of 3 (secret-key aes id=10 label="guard"), attribute [0-9]* (0x40000211): a template of 33 entries (1 to 32)' ;;
	dup) echo 'attribute [0-9]* (0x40000211), entry 3 (0x100): a type the template holds already' ;;
	class) echo 'at object 2 of 3 (public-key ec id=11 label="ecdh"), attribute [0-9]* (0x40000213): a type objects of this class do not have' ;;
	esac
}
for f in unknown value uniqueid nested many dup boollen ulonglen kind big zero cut extra count class v1; do
	check "a malformed template ($f): --restore fails" \
		fails --restore "$WORK/forged.$f" --token B --pin $PIN --passphrase-file "$WORK/pass"
	check "as malformed, on one line" sh -c \
		"grep -q 'the backup decrypts but is malformed' '$WORK/u.err' && test \$(wc -l <'$WORK/u.err') -eq 1"
	at=$(where $f)
	[ -z "$at" ] || check "naming where: $at" grep -q "$at" "$WORK/u.err"
	check "and creates nothing" test "$(count B)" -eq 0
done

check "32 entries, the most a template holds, restore (into C)" \
	u --restore "$WORK/forged.max" --token C --pin $PIN --passphrase-file "$WORK/pass"
check "3 of 3 restored" grep -q "^3 of 3 object(s) restored\$" "$WORK/u.out"

check "--restore into B" u --restore "$WORK/bk" --token B --pin $PIN --passphrase-file "$WORK/pass"
check "3 of 3 restored" grep -q "^3 of 3 object(s) restored\$" "$WORK/u.out"
check "B has 3 objects" test "$(count B)" -eq 3
check "the restored keys enforce their templates on B" tmpl B $PIN check
check "every check ran" test "$(grep -c '^ok - ' "$WORK/tmpl.out")" -eq 8
echo "$ok checks passed"
