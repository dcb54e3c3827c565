#!/bin/sh
# vgtoken-util token commands end to end: create, show, list, change PINs,
# import openssl-made keys (RSA-2048 PKCS#8 and traditional, EC P-256
# traditional, PKCS#8 and DER) and a certificate, export public keys, and
# delete tokens; the result seen through pkcs11-tool, and every error
# case as one line on stderr with a non-zero status.
. "$top_srcdir/tests/e2e/lib.sh"
need openssl "Debian package openssl"
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"

SO_PIN=so-Secret-8812
USER_PIN=user-Secret-4471
NEW_PIN=new-Secret-9034

# The tool keeps its own leak checking under ASan (lib.sh turns it off
# for clients).
run_util() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" "$UTIL" "$@"
}

# u ARGS...: runs the tool, which must succeed; its output goes to stdout.
# Everything it prints is also kept, to look for PINs at the end.
u() {
	if ! run_util "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null; then
		fail "vgtoken-util $1 failed: $(cat "$WORK/u.err")"
	fi
	cat "$WORK/u.out" >>"$WORK/all-stdout"
	cat "$WORK/u.err" >>"$WORK/all-stderr"
	cat "$WORK/u.out"
}

# expect_fail DESCRIPTION PATTERN ARGS...: the tool fails, printing one
# line on stderr that contains PATTERN, and nothing on stdout.
expect_fail() {
	desc=$1
	pat=$2
	shift 2
	if run_util "$@" >"$WORK/out" 2>"$WORK/err" </dev/null; then
		fail "$desc: succeeded"
	fi
	cat "$WORK/err" >>"$WORK/all-stderr"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] ||
		fail "$desc: stderr is not one line: $(cat "$WORK/err")"
	grep -q -- "$pat" "$WORK/err" ||
		fail "$desc: unexpected message: $(cat "$WORK/err")"
	grep -q '^vgtoken-util: ' "$WORK/err" ||
		fail "$desc: message without the program name"
	[ ! -s "$WORK/out" ] || fail "$desc: output on stdout"
	ok=$((ok + 1))
	echo "ok $ok - $desc"
}

# Runs the tool with no controlling terminal (so it cannot prompt).
no_tty() {
	setsid -w "$UTIL" "$@" </dev/null
}

# sha1 of stdin, as lowercase hex.
sha1() {
	sha1sum | cut -d' ' -f1
}

# ---------------------------------------------------------------- tokens
u --show-slots >"$WORK/slots"
check "a fresh installation has one free slot" \
	grep -qx "slot 1: no token (--init-token creates one here)" "$WORK/slots"

u --init-token --label alpha --so-pin "$SO_PIN" --pin "$USER_PIN" >"$WORK/init"
check "--init-token creates the token" grep -q "^token 'alpha' created in slot 1, serial [0-9a-f]\{16\}\$" "$WORK/init"
u --show-slots >"$WORK/slots"
check "--show-slots shows the label" grep -qx "slot 1: token 'alpha'" "$WORK/slots"
check "--show-slots shows the serial" grep -q "^  serial:   [0-9a-f]\{16\}\$" "$WORK/slots"
check "--show-slots shows the flags" grep -q "^  flags:.* USER_PIN_INITIALIZED TOKEN_INITIALIZED" "$WORK/slots"
check "--show-slots shows the PIN counters" grep -qx "  user PIN: ok" "$WORK/slots"
check "--show-slots shows the next free slot" grep -qx "slot 2: no token (--init-token creates one here)" "$WORK/slots"

expect_fail "--init-token without --label" "needs --label" --init-token --so-pin "$SO_PIN" --pin "$USER_PIN"
expect_fail "--init-token with a label that exists" "exists already" --init-token --label alpha --so-pin "$SO_PIN" --pin "$USER_PIN"
expect_fail "--init-token with a 33-byte label" "1 to 32 bytes" --init-token --label 123456789012345678901234567890123 --so-pin "$SO_PIN" --pin "$USER_PIN"
expect_fail "--init-token with a short user PIN" "must have 4 to 255" --init-token --label beta --so-pin "$SO_PIN" --pin 123
expect_fail "--init-token does not take --token" "does not take --token" --init-token --label beta --token alpha
expect_fail "--init-token with an empty --so-pin" "SO PIN must have" --init-token --label beta --so-pin "" --pin "$USER_PIN"
expect_fail "an unknown option" "unknown or incomplete option '--frobnicate'" --show-slots --frobnicate
expect_fail "two commands" "give one command" --show-slots --list-objects --token alpha
if command -v setsid >/dev/null 2>&1; then
	if no_tty --init-token --label beta >"$WORK/out" 2>"$WORK/err"; then
		fail "--init-token without PINs or terminal succeeded"
	fi
	check "--init-token without PINs or terminal asks for --so-pin" \
		grep -qx "vgtoken-util: the SO PIN is needed and there is no terminal to ask for it: give --so-pin" "$WORK/err"
	if no_tty --init-token --label beta --so-pin "$SO_PIN" >"$WORK/out" 2>"$WORK/err"; then
		fail "--init-token without a user PIN or terminal succeeded"
	fi
	check "... and for --pin" grep -q "give --pin\$" "$WORK/err"
fi
u --show-slots >"$WORK/slots"
check "failed --init-token created nothing" sh -c "! grep -q beta '$WORK/slots'"

if command -v pkcs11-tool >/dev/null 2>&1; then
	pkcs11-tool --module "$MODULE" --list-token-slots >"$WORK/p11slots" 2>&1
	check "pkcs11-tool sees the token" grep -q "token label *: alpha" "$WORK/p11slots"
fi

# ---------------------------------------------------------------- keys
cd "$WORK"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa8.pem 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa2.pem 2>/dev/null
openssl rsa -in rsa2.pem -traditional -out rsatrad.pem 2>/dev/null
openssl ecparam -name prime256v1 -genkey -out ectrad.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec8.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -outform DER -out ecder.der
openssl req -x509 -new -key rsa8.pem -subj /CN=vgtoken-test -days 30 -out cert.pem 2>/dev/null
check "openssl wrote a traditional RSA key" grep -q "BEGIN RSA PRIVATE KEY" rsatrad.pem
check "openssl wrote a traditional EC key" grep -q "BEGIN EC PRIVATE KEY" ectrad.pem
check "openssl wrote PKCS#8 keys" grep -q "BEGIN PRIVATE KEY" ec8.pem

# The SubjectPublicKeyInfo of each key, and the expected CKA_ID: SHA-1
# of the modulus (RSA-2048 with e = 65537: 256 bytes at offset 33 of the
# SPKI) or of the point (the last 65 bytes of a P-256 SPKI).
for k in rsa8 rsatrad ectrad ec8; do
	openssl pkey -in $k.pem -pubout -outform DER -out $k.spki
done
openssl pkey -inform DER -in ecder.der -pubout -outform DER -out ecder.spki
for k in rsa8 rsatrad; do
	check "$k SPKI has the expected layout" test "$(wc -c <$k.spki)" -eq 294
	eval "id_$k=$(tail -c +34 $k.spki | head -c 256 | sha1)"
done
for k in ectrad ec8 ecder; do
	check "$k SPKI has the expected layout" test "$(wc -c <$k.spki)" -eq 91
	eval "id_$k=$(tail -c 65 $k.spki | sha1)"
done

u --import rsa8.pem --token alpha --pin "$USER_PIN" --label rsa8 >"$WORK/imp"
check "import RSA PKCS#8" grep -q "^imported RSA private key and its public key into token 'alpha': id=$id_rsa8 label=\"rsa8\"\$" "$WORK/imp"
u --import rsatrad.pem --token alpha --pin "$USER_PIN" --label rsatrad >"$WORK/imp"
check "import RSA traditional" grep -q "id=$id_rsatrad label=\"rsatrad\"" "$WORK/imp"
u --import ectrad.pem --token alpha --pin "$USER_PIN" --label ectrad >"$WORK/imp"
check "import EC traditional (after its EC PARAMETERS block)" grep -q "^imported EC P-256 private key and its public key into token 'alpha': id=$id_ectrad" "$WORK/imp"
u --import ec8.pem --token alpha --pin "$USER_PIN" --label ec8 >"$WORK/imp"
check "import EC PKCS#8" grep -q "id=$id_ec8 label=\"ec8\"" "$WORK/imp"
u --import ecder.der --token alpha --pin "$USER_PIN" --label ecder --id 0a:0B:1c >"$WORK/imp"
check "import EC PKCS#8 DER with --id" grep -q "id=0a0b1c label=\"ecder\"" "$WORK/imp"
u --import cert.pem --token alpha --pin "$USER_PIN" --label cert >"$WORK/imp"
check "import a certificate: its ID is its key's" grep -q "^imported certificate into token 'alpha': id=$id_rsa8 label=\"cert\"\$" "$WORK/imp"

# A key and its certificate in one file pair up; two certificates in one
# file are refused.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa3.pem 2>/dev/null
openssl req -x509 -new -key rsa3.pem -subj /CN=vgtoken-both -days 30 -out cert3.pem 2>/dev/null
openssl pkey -in rsa3.pem -pubout -outform DER -out rsa3.spki
id_rsa3=$(tail -c +34 rsa3.spki | head -c 256 | sha1)
cat rsa3.pem cert3.pem >both.pem
cat cert.pem cert3.pem >twocerts.pem
expect_fail "import two certificates at once" "more than one certificate" --import twocerts.pem --token alpha --pin "$USER_PIN"
u --import both.pem --token alpha --pin "$USER_PIN" --label both >"$WORK/imp"
check "import a key and its certificate from one file: the key" grep -q "^imported RSA private key and its public key into token 'alpha': id=$id_rsa3 label=\"both\"\$" "$WORK/imp"
check "... and the certificate, with the same ID" grep -q "^imported certificate into token 'alpha': id=$id_rsa3 label=\"both\"\$" "$WORK/imp"

u --list-objects --token alpha --pin "$USER_PIN" >"$WORK/objs"
check "--list-objects --pin lists 14 objects" grep -qx "14 object(s)" "$WORK/objs"
check "--list-objects shows a private RSA key and its size" grep -qx "private-key rsa-2048   id=$id_rsa8 label=\"rsa8\" token private" "$WORK/objs"
check "--list-objects shows its public key" grep -qx "public-key  rsa-2048   id=$id_rsa8 label=\"rsa8\" token" "$WORK/objs"
check "--list-objects shows the EC key and its curve" grep -qx "private-key ec-p256    id=$id_ec8 label=\"ec8\" token private" "$WORK/objs"
check "--list-objects shows the certificate" grep -qx "certificate x509       id=$id_rsa8 label=\"cert\" token" "$WORK/objs"
u --list-objects --token alpha >"$WORK/objs"
check "--list-objects without --pin hides private keys" grep -qx "8 object(s); private objects are shown with --pin" "$WORK/objs"
serial=$(u --show-slots | sed -n 's/^  serial:   //p' | head -n 1)
u --list-objects --token "$serial" >"$WORK/objs2"
check "a token is also found by its serial number" cmp -s "$WORK/objs" "$WORK/objs2"
check "... and shows no private key" sh -c "! grep -q private-key '$WORK/objs'"

if command -v pkcs11-tool >/dev/null 2>&1; then
	pkcs11-tool --module "$MODULE" --list-objects --login --pin "$USER_PIN" \
		>"$WORK/p11objs" 2>&1 || fail "pkcs11-tool --list-objects: $(cat "$WORK/p11objs")"
	# One line per object: class|label|ID.
	awk '/Object;/ { cls = $1 " " $2 } /label:/ { l = $2 }
	     /ID:/ { print cls "|" l "|" $2 }' "$WORK/p11objs" >"$WORK/p11ids"
	for k in rsa8 rsatrad ectrad ec8; do
		eval "id=\$id_$k"
		check "pkcs11-tool: private key $k has ID $id" grep -qx "Private Key|$k|$id" "$WORK/p11ids"
		check "pkcs11-tool: public key $k has ID $id" grep -qx "Public Key|$k|$id" "$WORK/p11ids"
	done
	check "pkcs11-tool: DER key with --id" grep -qx "Private Key|ecder|0a0b1c" "$WORK/p11ids"
	check "pkcs11-tool: the certificate pairs with its key" grep -qx "Certificate Object;|cert|$id_rsa8" "$WORK/p11ids"
	check "pkcs11-tool: the token filled the certificate subject" grep -q "subject: *DN: CN=vgtoken-test" "$WORK/p11objs"
	check "pkcs11-tool: the RSA private key is sensitive" grep -q "Access: *sensitive" "$WORK/p11objs"
fi

# ---------------------------------------------------------------- export
for k in rsa8 rsatrad ectrad ec8; do
	eval "id=\$id_$k"
	u --export-pubkey --token alpha --id "$id" -o "$k.out.pem" >/dev/null
	openssl pkey -pubin -in "$k.out.pem" -outform DER -out "$k.out.der"
	check "--export-pubkey --id: $k equals openssl pkey -pubout" cmp -s "$k.spki" "$k.out.der"
	u --export-pubkey --token alpha --label "$k" >"$k.stdout.pem"
	check "--export-pubkey --label to stdout: $k" cmp -s "$k.out.pem" "$k.stdout.pem"
done
u --export-pubkey --token alpha --id 0a0b1c | openssl pkey -pubin -outform DER -out ecder.out.der
check "--export-pubkey of the DER-imported key" cmp -s ecder.spki ecder.out.der
u --export-pubkey --token alpha --label cert | openssl pkey -pubin -outform DER -out cert.out.der
check "--export-pubkey of a certificate's key" cmp -s rsa8.spki cert.out.der
check "--export-pubkey writes PEM" grep -qx -- "-----BEGIN PUBLIC KEY-----" rsa8.out.pem

expect_fail "--export-pubkey needs --id or --label" "needs --id or --label" --export-pubkey --token alpha
expect_fail "--export-pubkey of an unknown ID" "no public key or certificate with that ID" --export-pubkey --token alpha --id 99
expect_fail "--export-pubkey with a bad --id" "not hex bytes" --export-pubkey --token alpha --id xyz
expect_fail "--export-pubkey to an unwritable file" "cannot write" --export-pubkey --token alpha --id "$id_rsa8" -o "$WORK/no/such/dir/x.pem"

# ---------------------------------------------------------------- import errors
openssl pkcs8 -topk8 -in rsa8.pem -passout pass:secret -out enc8.pem
openssl pkcs8 -topk8 -in rsa8.pem -passout pass:secret -outform DER -out enc8.der
openssl rsa -in rsa2.pem -traditional -aes128 -passout pass:secret -out enctrad.pem 2>/dev/null
openssl pkey -in rsa8.pem -pubout -out pub.pem
echo "not a key" >garbage.pem
printf -- '-----BEGIN PRIVATE KEY-----\nMIIB!!!!\n-----END PRIVATE KEY-----\n' >badb64.pem
printf -- '-----BEGIN PRIVATE KEY-----\nMIIB\n' >noend.pem
openssl pkey -in rsa8.pem -outform DER | head -c 600 >trunc.der
cat rsa8.pem ec8.pem >twokeys.pem

echo not-the-secret >wrongpass
expect_fail "import encrypted PKCS#8 PEM with a wrong passphrase" "wrong passphrase" --import enc8.pem --token alpha --pin "$USER_PIN" --passphrase-file wrongpass
expect_fail "import encrypted PKCS#8 DER with a wrong passphrase" "wrong passphrase" --import enc8.der --token alpha --pin "$USER_PIN" --passphrase-file wrongpass
expect_fail "import encrypted traditional PEM: the command that converts it" "encrypted (PEM with Proc-Type), the traditional OpenSSL way: convert it to encrypted PKCS#8 (openssl pkcs8 -topk8 -in enctrad.pem -out NEW.pem)" --import enctrad.pem --token alpha --pin "$USER_PIN"
expect_fail "import a public key" "PEM block 'PUBLIC KEY' is not a private key or certificate" --import pub.pem --token alpha --pin "$USER_PIN"
expect_fail "import garbage" "not a private key, certificate or PKCS#12 file" --import garbage.pem --token alpha --pin "$USER_PIN"
expect_fail "import bad base64" "bad base64" --import badb64.pem --token alpha --pin "$USER_PIN"
expect_fail "import PEM without END" "malformed PEM" --import noend.pem --token alpha --pin "$USER_PIN"
expect_fail "import truncated DER" "not a private key, certificate or PKCS#12 file" --import trunc.der --token alpha --pin "$USER_PIN"
expect_fail "import an empty file" "is empty" --import /dev/null --token alpha --pin "$USER_PIN"
expect_fail "import a missing file" "cannot read $WORK/none.pem: No such file" --import "$WORK/none.pem" --token alpha --pin "$USER_PIN"
expect_fail "import two keys at once" "more than one private key" --import twokeys.pem --token alpha --pin "$USER_PIN"
expect_fail "import into an unknown token" "no token labelled 'nosuch'" --import rsa2.pem --token nosuch --pin "$USER_PIN"
expect_fail "import without --token" "needs --token" --import rsa2.pem --pin "$USER_PIN"
expect_fail "import without a file" "incomplete option '--import'" --import
expect_fail "import with a bad --id" "not hex bytes" --import rsa2.pem --token alpha --pin "$USER_PIN" --id 0g
expect_fail "import the same key twice" "has a private key with ID $id_rsa8 already" --import rsa8.pem --token alpha --pin "$USER_PIN"
if command -v setsid >/dev/null 2>&1; then
	if no_tty --import rsa2.pem --token alpha >"$WORK/out" 2>"$WORK/err"; then
		fail "import without a PIN or terminal succeeded"
	fi
	check "import without a PIN or terminal asks for --pin" grep -q "give --pin\$" "$WORK/err"
fi
expect_fail "import with a wrong PIN" "login failed: wrong PIN (CKR_PIN_INCORRECT)" --import rsa2.pem --token alpha --pin wrong-pin
u --show-slots >"$WORK/slots"
check "a wrong PIN is counted" grep -qx "  user PIN: wrong tries counted" "$WORK/slots"
u --list-objects --token alpha --pin "$USER_PIN" >"$WORK/objs"
check "failed imports left nothing behind" grep -qx "14 object(s)" "$WORK/objs"
u --show-slots >"$WORK/slots"
check "a right PIN resets the counter" grep -qx "  user PIN: ok" "$WORK/slots"

# An EC key without its public point: computed where the P-256 code is
# built in, else a clear refusal.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec3.pem
openssl pkey -in ec3.pem -pubout -outform DER -out ec3.spki
openssl ec -in ec3.pem -no_public -out ecnopub.pem 2>/dev/null
if run_util --import ecnopub.pem --token alpha --pin "$USER_PIN" \
	--label ecnopub >"$WORK/imp" 2>"$WORK/err"; then
	check "EC key without a point: the ID is that of the point" \
		grep -q "id=$(tail -c 65 ec3.spki | sha1)" "$WORK/imp"
	u --export-pubkey --token alpha --label ecnopub | openssl pkey -pubin -outform DER -out ecnopub.der
	check "EC key without a point: the point is computed" cmp -s ec3.spki ecnopub.der
	u --list-objects --token alpha --pin "$USER_PIN" >"$WORK/objs"
	check "... and its objects added" grep -qx "16 object(s)" "$WORK/objs"
else
	check "EC key without a point: refused clearly" grep -q "has no public point" "$WORK/err"
fi
# A compressed public point: expanded likewise, or refused.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec4.pem
openssl pkey -in ec4.pem -pubout -outform DER -out ec4.spki
openssl ec -in ec4.pem -conv_form compressed -out eccomp.pem 2>/dev/null
if run_util --import eccomp.pem --token alpha --pin "$USER_PIN" \
	--label eccomp >"$WORK/imp" 2>"$WORK/err"; then
	u --export-pubkey --token alpha --label eccomp | openssl pkey -pubin -outform DER -out eccomp.der
	check "EC key with a compressed point: exported uncompressed" cmp -s ec4.spki eccomp.der
else
	check "EC key with a compressed point: refused clearly" grep -q "compressed or malformed" "$WORK/err"
fi

# ---------------------------------------------------------------- PINs
u --set-pin --token alpha --pin "$USER_PIN" --new-pin "$NEW_PIN" >"$WORK/setpin"
check "--set-pin changes the user PIN" grep -qx "user PIN of token 'alpha' changed" "$WORK/setpin"
u --list-objects --token alpha --pin "$NEW_PIN" >/dev/null
check "the new user PIN logs in" true
expect_fail "the old user PIN no longer does" "wrong PIN" --list-objects --token alpha --pin "$USER_PIN"
expect_fail "--set-pin with a wrong old PIN" "cannot change the user PIN: wrong PIN" --set-pin --token alpha --old-pin "$USER_PIN" --new-pin "$USER_PIN"
expect_fail "--set-pin with a short new PIN" "CKR_PIN_LEN_RANGE" --set-pin --token alpha --old-pin "$NEW_PIN" --new-pin 12
expect_fail "--set-pin on an unknown token" "no token labelled" --set-pin --token nosuch --old-pin "$NEW_PIN" --new-pin "$USER_PIN"
expect_fail "--set-pin takes the current PIN once" "give the current PIN once (--pin, or its alias --old-pin)" --set-pin --token alpha --pin "$NEW_PIN" --old-pin "$NEW_PIN" --new-pin "$USER_PIN"
u --set-pin --token alpha --so --old-pin "$SO_PIN" --new-pin "$SO_PIN-2" >"$WORK/setpin"
check "--set-pin --so changes the SO PIN" grep -qx "SO PIN of token 'alpha' changed" "$WORK/setpin"
expect_fail "the old SO PIN no longer works" "SO login failed: wrong PIN" --set-pin --token alpha --so --old-pin "$SO_PIN" --new-pin "$SO_PIN"
if command -v setsid >/dev/null 2>&1; then
	if no_tty --set-pin --token alpha --old-pin "$NEW_PIN" >"$WORK/out" 2>"$WORK/err"; then
		fail "--set-pin without a new PIN or terminal succeeded"
	fi
	check "--set-pin without a new PIN or terminal asks for --new-pin" grep -q "give --new-pin\$" "$WORK/err"
fi

# PINs asked for on a terminal (a pseudo-terminal driven by Python) are
# not echoed.
if command -v python3 >/dev/null 2>&1; then
	UTIL="$UTIL" python3 - >"$WORK/pty" <<'PY' || fail "prompting on a terminal: $(cat "$WORK/pty")"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(os.environ["UTIL"], [os.environ["UTIL"], "--init-token",
                                  "--label", "prompted"])
out = b""
def answer(prompt, text):
    global out
    while prompt not in out:
        out += os.read(fd, 1024)
    os.write(fd, text + b"\n")
answer(b"SO PIN: ", b"pty-so-pin-0001")
answer(b"Repeat the SO PIN: ", b"pty-so-pin-0001")
answer(b"User PIN: ", b"pty-user-pin-01")
answer(b"Repeat the user PIN: ", b"pty-user-pin-01")
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
PY
	check "--init-token asks for both PINs on the terminal" grep -q "token 'prompted' created" "$WORK/pty"
	check "PINs typed at the prompt are not echoed" sh -c "! grep -q pty- '$WORK/pty'"
	u --list-objects --token prompted --pin pty-user-pin-01 >/dev/null
	check "the prompted user PIN logs in" true
fi

# ---------------------------------------------------------------- delete
expect_fail "--delete-token with a wrong SO PIN" "SO login failed: wrong PIN" --delete-token --token alpha --so-pin "$SO_PIN"
u --show-slots >"$WORK/slots"
check "a failed delete keeps the token" grep -qx "slot 1: token 'alpha'" "$WORK/slots"
check "the wrong SO PIN is counted" grep -qx "  SO PIN:   wrong tries counted" "$WORK/slots"
expect_fail "--delete-token of an unknown token" "no token labelled 'nosuch'" --delete-token --token nosuch --so-pin "$SO_PIN"
expect_fail "--delete-token without --token" "needs --token" --delete-token --so-pin "$SO_PIN"
u --delete-token --token alpha --so-pin "$SO_PIN-2" >"$WORK/del"
check "--delete-token deletes" grep -qx "token 'alpha' deleted" "$WORK/del"
u --show-slots >"$WORK/slots"
check "the deleted token is gone" sh -c "! grep -q alpha '$WORK/slots'"
expect_fail "a deleted token cannot be used" "no token labelled 'alpha'" --list-objects --token alpha
if command -v pkcs11-tool >/dev/null 2>&1; then
	pkcs11-tool --module "$MODULE" --list-token-slots >"$WORK/p11slots" 2>&1
	check "pkcs11-tool no longer sees the deleted token" sh -c "! grep -q 'token label *: alpha\$' '$WORK/p11slots'"
fi
if command -v sqlite3 >/dev/null 2>&1; then
	check "its objects left the database" test "$(sqlite3 "$XDG_DATA_HOME/vgtoken/vgtoken.db" 'SELECT count(*) FROM objects')" -eq 0
fi
# A new token gets a new slot ID, never the deleted one's.
u --init-token --label alpha --so-pin "$SO_PIN" --pin "$USER_PIN" >"$WORK/init"
check "a re-created token gets a new slot" sh -c "! grep -q 'in slot 1,' '$WORK/init'"
u --list-objects --token alpha --pin "$USER_PIN" >"$WORK/objs"
check "... and starts empty" grep -qx "0 object(s)" "$WORK/objs"

# A database that cannot be opened is named.
printf 'data_dir = /dev/null/vgtoken\n' >"$WORK/broken.conf"
VGTOKEN_CONF="$WORK/broken.conf"
expect_fail "an unusable data directory" "cannot open the token database in /dev/null/vgtoken" --show-slots
VGTOKEN_CONF="$WORK/vgtoken.conf"

# ---------------------------------------------------------------- secrecy
# With debug logging on stderr, no PIN appears anywhere.
VG_LOG=debug "$UTIL" --list-objects --token alpha --pin "$USER_PIN" >>"$WORK/all-stdout" 2>>"$WORK/all-stderr"
VG_LOG=debug "$UTIL" --list-objects --token alpha --pin wrong-Secret-77 >>"$WORK/all-stdout" 2>>"$WORK/all-stderr" || true
check "debug logging was on" grep -q "C_Login" "$WORK/all-stderr"
for p in "$SO_PIN" "$USER_PIN" "$NEW_PIN" wrong-Secret-77 pty-so-pin pty-user-pin; do
	check "no output shows the PIN $p" sh -c "! grep -qF -- '$p' '$WORK/all-stdout' '$WORK/all-stderr'"
done
echo "$ok checks passed"
