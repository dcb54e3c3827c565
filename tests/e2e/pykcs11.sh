#!/bin/sh
# PyKCS11 (Debian's python3-pykcs11), a client built against PKCS#11 2.x
# headers: it names every mechanism in the list (it raised KeyError on
# the numbers only 3.2 defines before the module showed older interfaces
# the vendor twins), makes EC and RSA key pairs on the token, signs,
# verifies, decrypts, finds and reads attributes (tests/e2e/pykcs11.py).
. "$top_srcdir/tests/e2e/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || skip "Debian's python3 is not installed"
$PY -c 'import PyKCS11' 2>/dev/null || skip "PyKCS11 is not installed (Debian package python3-pykcs11)"
client PyKCS11 python3-pykcs11

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
check "token 'pykcs11'" "$top_builddir/vgtoken-util" --init-token --label pykcs11 --so-pin 87654321 --pin 1234
$PY "$top_srcdir/tests/e2e/pykcs11.py" "$MODULE" pykcs11 1234 || fail "PyKCS11 scenario"
echo "# PyKCS11: mechanism list, EC and RSA pairs, sign, verify, OAEP decrypt, find, attributes"
