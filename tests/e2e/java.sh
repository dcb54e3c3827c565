#!/bin/sh
# Java 17's SunPKCS11 provider on the token: keytool -list shows the
# token's RSA and EC keys with their certificates (made by openssl through
# libp11 and imported with vgtoken-util under the key's CKA_ID); one
# program (java/TokenCheck.java) generates keys on the token and checks
# signatures, RSA decryption, ECDH, HMAC and AES against the JDK's own
# providers; jarsigner signs a jar with each key and verifies it.
. "$top_srcdir/tests/e2e/lib.sh"
need java "Debian package openjdk-17-jdk-headless"
need javac "Debian package openjdk-17-jdk-headless"
need keytool "Debian package openjdk-17-jdk-headless"
need jarsigner "Debian package openjdk-17-jdk-headless"
need openssl "Debian package openssl"
need python3 "Debian package python3"
ENGINE=$(openssl version -e | sed -n 's/^ENGINESDIR: "\(.*\)"$/\1/p')/pkcs11.so
[ -f "$ENGINE" ] || skip "libp11's engine $ENGINE not found (Debian package libengine-pkcs11-openssl)"
jv=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p')
[ "${jv:-0}" -ge 17 ] || skip "SunPKCS11 configured from a file needs Java 17 or later (found ${jv:-none})"
client "java $(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p')" openjdk-17-jre-headless
# An ASan-built module needs the ASan runtime preloaded into its client;
# see whether the JVM starts with it at all.
if [ -n "$asan_rt" ] && ! java -version >"$WORK/asan.out" 2>&1; then
	skip "Java's JVM does not start with the ASan runtime preloaded, which the ASan-built module needs"
fi
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
PIN=user-Secret-7712
TOKEN=java

u() {
	"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}
check "token '$TOKEN'" u --init-token --label $TOKEN --so-pin so-Secret-1 --pin $PIN
for k in rsa ec; do
	t=$k
	[ $k = rsa ] && t=rsa2048
	check "a $t key pair made on the token" u --keygen $t --token $TOKEN --pin $PIN --label $k
	id=$(sed -n 's/.* id=\([0-9a-f]*\) .*/\1/p' "$WORK/u.out")
	check "its CKA_ID ($k)" test -n "$id"
	eval "${k}_id=$id"
	check "its public key ($k) exported" u --export-pubkey --token $TOKEN --label $k -o "$WORK/$k.pub"
done

# Self-signed certificates made with the token keys (libp11's engine), then
# stored on the token under the key's ID and label, which is how
# SunPKCS11's key store pairs them.
cat >"$WORK/openssl.cnf" <<EOF
openssl_conf = openssl_init

[openssl_init]
engines = engine_section

[engine_section]
pkcs11 = pkcs11_section

[pkcs11_section]
engine_id = pkcs11
dynamic_path = $ENGINE
MODULE_PATH = $MODULE
init = 0
EOF
for k in rsa ec; do
	check "openssl req -x509 with the $k key" env OPENSSL_CONF="$WORK/openssl.cnf" openssl req -new -x509 \
		-engine pkcs11 -keyform engine -key "pkcs11:token=$TOKEN;object=$k;type=private;pin-value=$PIN" \
		-subj "/CN=vgtoken java $k" -days 2 -out "$WORK/$k.crt"
	eval "id=\$${k}_id"
	check "the $k certificate imported with the key's CKA_ID" u --import "$WORK/$k.crt" --token $TOKEN --pin $PIN --id "$id" --label $k
done

# The provider's configuration. ECDH needs CKA_DERIVE on the EC keys the
# provider generates (the token follows PKCS#11's default, false), and
# the secret it derives readable by the provider.
cat >"$WORK/pkcs11.cfg" <<EOF
name = vgtoken
library = $MODULE
slotListIndex = 0
attributes(generate, CKO_PRIVATE_KEY, CKK_EC) = {
  CKA_SIGN = true
  CKA_DERIVE = true
}
attributes(*, CKO_SECRET_KEY, CKK_GENERIC_SECRET) = {
  CKA_SENSITIVE = false
  CKA_EXTRACTABLE = true
}
EOF
P11="-storetype PKCS11 -providerClass sun.security.pkcs11.SunPKCS11 -providerArg $WORK/pkcs11.cfg"

# shellcheck disable=SC2086
check "keytool -list reads the token" sh -c "keytool -list -keystore NONE $P11 -storepass '$PIN' >'$WORK/list' 2>&1"
check "keytool -list: two entries" grep -q "contains 2 entries" "$WORK/list"
for k in rsa ec; do
	check "keytool -list shows the $k key with its certificate" grep -q "^$k, PrivateKeyEntry" "$WORK/list"
	fp=$(openssl x509 -in "$WORK/$k.crt" -noout -fingerprint -sha256 | sed 's/.*=//')
	check "keytool -list shows the $k certificate's fingerprint" grep -q "$fp" "$WORK/list"
done
# The slot named by its ID rather than its index.
sed 's/^slotListIndex = 0$/slot = 1/' "$WORK/pkcs11.cfg" >"$WORK/slot.cfg"
check "keytool -list with 'slot = 1'" sh -c "keytool -list -keystore NONE -storetype PKCS11 -providerClass sun.security.pkcs11.SunPKCS11 \
	-providerArg '$WORK/slot.cfg' -storepass '$PIN' >'$WORK/list-slot' 2>&1"
check "shows the same two entries" grep -q "contains 2 entries" "$WORK/list-slot"
# shellcheck disable=SC2086
check "keytool -list with a wrong PIN fails" sh -c "! keytool -list -keystore NONE $P11 -storepass wrong-0000 >'$WORK/list-bad' 2>&1"
check "keytool -list says the key store did not load" grep -q "load failed" "$WORK/list-bad"
u --show-slots
check "the token counted the wrong PIN" grep -qx "  user PIN: wrong tries counted" "$WORK/u.out"

# The program, compiled into the work directory. It reaches the JDK's
# OAEP decoder (sun.security.rsa), which the module system hides.
X="--add-exports=java.base/sun.security.rsa=ALL-UNNAMED"
# javac warns that the class is internal: its output is shown on failure.
check "javac compiles TokenCheck" sh -c "javac '$X' -d '$WORK/classes' '$top_srcdir/tests/e2e/java/TokenCheck.java' \
	>'$WORK/javac.out' 2>&1 || { cat '$WORK/javac.out'; false; }"
rc=0
java "$X" -cp "$WORK/classes" TokenCheck "$WORK/pkcs11.cfg" "$PIN" >"$WORK/check.out" 2>&1 || rc=$?
sed 's/^/  TokenCheck: /' "$WORK/check.out"
check "TokenCheck: no check failed" test $rc -eq 0
java_ok=$(grep -c "^ok " "$WORK/check.out" || true)
check "TokenCheck ran its checks" test "$java_ok" -ge 25

# jarsigner: a jar signed with each token key, and verified.
python3 - "$WORK/app.jar" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nCreated-By: vgtoken test\r\n\r\n")
    z.writestr("hello.txt", "signed on a soft token\n")
EOF
for k in rsa ec; do
	cp "$WORK/app.jar" "$WORK/$k.jar"
	# shellcheck disable=SC2086
	check "jarsigner signs with the $k key" sh -c "jarsigner -keystore NONE $P11 -storepass '$PIN' '$WORK/$k.jar' $k >'$WORK/sign-$k.out' 2>&1"
	check "jarsigner -verify accepts the $k signature" sh -c "jarsigner -verify -verbose -certs '$WORK/$k.jar' >'$WORK/verify-$k.out' 2>&1"
	check "jar verified ($k)" grep -q "^jar verified" "$WORK/verify-$k.out"
	check "the signer is the $k certificate" grep -q "CN=vgtoken java $k" "$WORK/verify-$k.out"
	# The signature block, checked once more by openssl.
	upper=$(echo $k | tr '[:lower:]' '[:upper:]')
	python3 - "$WORK/$k.jar" "$WORK/$k" "$upper" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for ext in ("SF", sys.argv[3]):
        with open(sys.argv[2] + "." + ext.lower() + "-block", "wb") as f:
            f.write(z.read("META-INF/" + sys.argv[3] + "." + ext))
EOF
	check "openssl verifies the $k signature block" openssl cms -verify -binary -inform DER \
		-in "$WORK/$k.$k-block" -content "$WORK/$k.sf-block" -CAfile "$WORK/$k.crt" -purpose any -out /dev/null
	openssl cms -cmsout -print -inform DER -in "$WORK/$k.$k-block" >"$WORK/$k.cms.txt"
	check "with SHA-256 as the digest ($k)" grep -q "algorithm: sha256 " "$WORK/$k.cms.txt"
done
# A changed entry no longer verifies.
python3 - "$WORK/rsa.jar" "$WORK/bad.jar" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as zi, zipfile.ZipFile(sys.argv[2], "w") as zo:
    for i in zi.infolist():
        data = zi.read(i.filename)
        if i.filename == "hello.txt":
            data = b"changed after signing\n"
        zo.writestr(i, data)
EOF
check "jarsigner -verify refuses a changed jar" sh -c "! jarsigner -verify '$WORK/bad.jar' >'$WORK/verify-bad.out' 2>&1"
check "for the changed entry's digest" grep -q "digest error for hello.txt" "$WORK/verify-bad.out"
echo "$ok checks passed (and TokenCheck's $java_ok)"
