#!/bin/sh
# vgtoken-util --backup and --restore keep what ML-KEM keys may make:
# CKA_ENCAPSULATE_TEMPLATE of a public key, CKA_DECAPSULATE_TEMPLATE of a
# private key (format version 2), and CKA_ENCAPSULATE / CKA_DECAPSULATE.
# tests/e2e/kemtmpl makes on token A an ML-KEM-768 pair with both
# templates and one with both usage flags false, through the PKCS#11 3.2
# function list, and shows the token enforcing them: C_EncapsulateKey
# and C_DecapsulateKey give a new key the template's attributes and
# refuse a caller's template that conflicts, and make nothing then.
# After a backup of A and a restore into B, the same checks pass on B.
# A pair whose templates hold a key value is skipped at backup and named,
# not kept without its templates.
# Bodies with malformed encapsulate or decapsulate templates (or usage
# flags), sealed under the right key, are refused and create nothing.
. "$top_srcdir/tests/e2e/lib.sh"
need od "Debian package coreutils"
PY=/usr/bin/python3
[ -x $PY ] || skip "Debian's python3 is not installed"
$PY -c 'import cryptography.hazmat.primitives.ciphers.aead' 2>/dev/null ||
	skip "python3's cryptography is not installed (Debian package python3-cryptography)"
. "$top_srcdir/tests/e2e/util_lib.sh"
KT="$top_builddir/tests/e2e/kemtmpl"
PIN=user-Secret-6042
kt() {
	"$KT" "$@" >"$WORK/kt.out" 2>&1
}

for t in A B; do
	check "token $t" u --init-token --label $t --so-pin so-Secret-1 --pin $PIN
done

check "kemtmpl makes the ML-KEM pairs on A" kt make A $PIN
check "A has 6 objects" test "$(count A)" -eq 6
check "the token enforces the templates and flags on A" kt check A $PIN
check "every check ran" test "$(grep -c '^ok - ' "$WORK/kt.out")" -eq 9

printf 'correct horse battery staple\n' >"$WORK/pass"
check "--backup of A" u --backup "$WORK/bk" --token A --pin $PIN --passphrase-file "$WORK/pass"
check "4 objects written, 2 skipped" grep -q "^4 object(s) backed up, 2 skipped" "$WORK/u.out"
check "the public key with a key value in its template is named as skipped" \
	grep -q '^skipped: public-key ml-kem id=22 label="kem-odd": its template 0x4000062a holds attribute 0x11, which a backup does not keep there$' "$WORK/u.err"
check "and the private key" \
	grep -q '^skipped: private-key ml-kem id=22 label="kem-odd": its template 0x4000062b holds attribute 0x11, which a backup does not keep there$' "$WORK/u.err"
check "the private key is named as ML-KEM" grep -q '^  private-key ml-kem id=20 label="kem"$' "$WORK/u.out"
check "the file is of format 2" test "$(head -c 12 "$WORK/bk" | hex /dev/stdin)" = 5647544f4b42414b02010101

# The templates and flags as doc/backup.md gives them, read by Python
# (tests/e2e/backup_body.py); then bodies with malformed ones, sealed
# again under the right key.
cat >"$WORK/forge.py" <<'EOF'
import copy, sys
from backup_body import Backup, be8, enc
bk = Backup(sys.argv[1], sys.argv[2])
out = sys.argv[3]
objs = bk.objs
ENC_T, DEC_T, ENC, DEC = 0x4000062a, 0x4000062b, 0x633, 0x634

# which attribute of which object (class, label)
def key(o, cls, label):
    for w, attrs, blob in o:
        if [0x0, 2, be8(cls)] in attrs and [0x3, 0, label] in attrs:
            return attrs
    raise AssertionError((cls, label))
def get(attrs, t):
    found = [a for a in attrs if a[0] == t]
    return found[0] if found else None

AES = [0x100, 2, be8(0x1f)]
assert sorted(get(key(objs, 2, b"kem"), ENC_T)[2]) == \
    sorted([AES, [0x3, 0, b"encapsulated"]])
assert sorted(get(key(objs, 3, b"kem"), DEC_T)[2]) == \
    sorted([AES, [0x3, 0, b"decapsulated"]])
assert get(key(objs, 2, b"kem"), DEC_T) is None
assert get(key(objs, 3, b"kem"), ENC_T) is None
assert get(key(objs, 2, b"kem-off"), ENC) == [ENC, 1, b"\x00"]
assert get(key(objs, 3, b"kem-off"), DEC) == [DEC, 1, b"\x00"]
assert get(key(objs, 2, b"kem-off"), ENC_T) is None
print("format ok: the templates and flags as made")

def seal(name, b, version=2):
    bk.seal(out + "." + name, b, version)

def variant(name, change):
    o = copy.deepcopy(objs)
    change(key(o, 2, b"kem"), key(o, 3, b"kem"), key(o, 2, b"kem-off"))
    seal(name, bk.encode(o))
for n, t, cls in (("enc", ENC_T, 2), ("dec", DEC_T, 3)):
    pick = (lambda pub, priv, off, cls=cls: pub if cls == 2 else priv)
    tm = (lambda pub, priv, off, t=t, pick=pick: get(pick(pub, priv, off), t))
    variant(n + "-value", lambda *k, tm=tm: tm(*k)[2].append([0x11, 0, bytes(32)]))
    variant(n + "-seed", lambda *k, tm=tm: tm(*k)[2].append([0x637, 0, bytes(64)]))
    variant(n + "-nested", lambda *k, tm=tm: tm(*k)[2].append(
        [ENC_T, 4, [[0x104, 1, b"\x01"]]]))
    variant(n + "-dup", lambda *k, tm=tm: tm(*k)[2].append(list(tm(*k)[2][0])))
    variant(n + "-zero", lambda *k, tm=tm: tm(*k).__setitem__(2, b"\0\0"))
    variant(n + "-extra", lambda *k, tm=tm: tm(*k).__setitem__(2, enc(tm(*k)[2]) + b"\0"))
    variant(n + "-bool", lambda *k, tm=tm: tm(*k)[2].append([ENC, 1, b"\x01\x00"]))
    # on the other class of the pair: a public key has no decapsulate
    # template, a private key no encapsulate template
    other = (lambda pub, priv, off, cls=cls: priv if cls == 2 else pub)
    variant(n + "-class", lambda pub, priv, off, t=t, other=other:
        other(pub, priv, off).append([t, 4, [AES]]))
variant("flag-len", lambda pub, priv, off: get(off, ENC).__setitem__(2, b"\0\0"))
variant("flag-class", lambda pub, priv, off: off.append([DEC, 1, b"\x00"]))
seal("v1", bk.body, 1)
EOF
check "the templates read as doc/backup.md describes them" \
	py_body "$WORK/forge.py" "$WORK/bk" "$WORK/pass" "$WORK/forged"
check "forged files made" test -s "$WORK/forged.dec-class"
for f in enc-value enc-seed enc-nested enc-dup enc-zero enc-extra enc-bool enc-class \
	dec-value dec-seed dec-nested dec-dup dec-zero dec-extra dec-bool dec-class \
	flag-len flag-class v1; do
	check "malformed ($f): --restore fails" \
		fails --restore "$WORK/forged.$f" --token B --pin $PIN --passphrase-file "$WORK/pass"
	check "as malformed, on one line" sh -c \
		"grep -q 'the backup decrypts but is malformed' '$WORK/u.err' && test \$(wc -l <'$WORK/u.err') -eq 1"
	case $f in
	dec-value) at='at object 2 of 4 (private-key ml-kem id=20 label="kem"), attribute [0-9]* (0x4000062b), entry 3 (0x11): a type a template in a backup does not hold' ;;
	flag-len) at='at object 3 of 4 (public-key ml-kem id=21 label="kem-off"), attribute [0-9]* (0x633): a CK_BBOOL of 2 bytes' ;;
	*) at= ;;
	esac
	[ -z "$at" ] || check "naming where: $at" grep -q "$at" "$WORK/u.err"
	check "and creates nothing" test "$(count B)" -eq 0
done

check "--restore into B" u --restore "$WORK/bk" --token B --pin $PIN --passphrase-file "$WORK/pass"
check "4 of 4 restored" grep -q "^4 of 4 object(s) restored\$" "$WORK/u.out"
check "B has 4 objects" test "$(count B)" -eq 4
check "the restored keys enforce their templates and flags on B" kt check B $PIN
check "every check ran" test "$(grep -c '^ok - ' "$WORK/kt.out")" -eq 9
echo "$ok checks passed"
