#!/bin/sh
# vgtoken-util for a newcomer (issue 21): PIN recovery with --init-pin and
# the hint a locked PIN gives, --set-pin with --pin, the progress spinner
# on a terminal only.
. "$top_srcdir/tests/e2e/lib.sh"
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\nuser_pin_retries = 3\nso_pin_retries = 2\n' >"$VGTOKEN_CONF"

SO_PIN=so-Secret-3318
PIN=user-Secret-7720

# u ARGS...: the tool must succeed; its stdout goes to $WORK/u.out.
u() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null ||
		fail "vgtoken-util $1 failed: $(cat "$WORK/u.err")"
}

# expect_fail DESCRIPTION PATTERN ARGS...: the tool fails with one line on
# stderr containing PATTERN (grep -F).
expect_fail() {
	desc=$1
	pat=$2
	shift 2
	if "$UTIL" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null; then
		fail "$desc: succeeded"
	fi
	[ "$(wc -l <"$WORK/err")" -eq 1 ] ||
		fail "$desc: stderr is not one line: $(cat "$WORK/err")"
	grep -qF -- "$pat" "$WORK/err" ||
		fail "$desc: unexpected message: $(cat "$WORK/err")"
	ok=$((ok + 1))
	echo "ok $ok - $desc"
}

u --init-token --label cli --so-pin "$SO_PIN" --pin "$PIN"

# ---------------------------------------------------------------- PINs
expect_fail "a wrong PIN" "wrong PIN" --list-objects --token cli --pin wrong-1
expect_fail "a wrong PIN again" "wrong PIN" --list-objects --token cli --pin wrong-2
u --show-slots
check "--show-slots: one try left" grep -qx "  user PIN: one try left" "$WORK/u.out"
check "... with the flag PKCS#11 reports" grep -q "USER_PIN_FINAL_TRY" "$WORK/u.out"
expect_fail "the third wrong PIN" "wrong PIN" --list-objects --token cli --pin wrong-3
expect_fail "a locked user PIN says how to get out" \
	"login failed: the user PIN is locked; the SO can set a new one with vgtoken-util --init-pin --token cli (CKR_PIN_LOCKED)" \
	--list-objects --token cli --pin "$PIN"
expect_fail "so does --set-pin" \
	"cannot change the user PIN: the user PIN is locked; the SO can set a new one with vgtoken-util --init-pin --token cli" \
	--set-pin --token cli --pin "$PIN" --new-pin "$PIN-2"
u --show-slots
check "--show-slots: locked, and the way out" grep -qx "  user PIN: locked (the SO can set a new one: --init-pin)" "$WORK/u.out"
expect_fail "--init-pin with a wrong SO PIN" "SO login failed: wrong PIN" \
	--init-pin --token cli --so-pin wrong-so --new-pin "$PIN-2"
expect_fail "--init-pin with a short PIN" "the new user PIN must have 4 to 255 characters" \
	--init-pin --token cli --so-pin "$SO_PIN" --new-pin 12
expect_fail "--init-pin needs --token" "--init-pin needs --token" \
	--init-pin --so-pin "$SO_PIN" --new-pin "$PIN-2"
expect_fail "--init-pin does not take --pin" "--init-pin does not take --pin" \
	--init-pin --token cli --pin "$PIN" --new-pin "$PIN-2"
u --init-pin --token cli --so-pin "$SO_PIN" --new-pin "$PIN-2"
check "--init-pin sets the user PIN and says it was locked" \
	grep -qx "user PIN of token 'cli' set by the SO; it is no longer locked" "$WORK/u.out"
u --show-slots
check "the user PIN is no longer locked" grep -qx "  user PIN: ok" "$WORK/u.out"
check "the new user PIN logs in" u --list-objects --token cli --pin "$PIN-2"
expect_fail "the old one does not" "wrong PIN" --list-objects --token cli --pin "$PIN"

# --set-pin takes --pin for the current PIN, as every other command.
u --set-pin --token cli --pin "$PIN-2" --new-pin "$PIN"
check "--set-pin --pin changes the user PIN" grep -qx "user PIN of token 'cli' changed" "$WORK/u.out"
u --set-pin --token cli --old-pin "$PIN" --new-pin "$PIN-3"
check "--old-pin is still taken" grep -qx "user PIN of token 'cli' changed" "$WORK/u.out"
u --set-pin --token cli --so --so-pin "$SO_PIN" --new-pin "$SO_PIN-2"
check "--set-pin --so takes --so-pin for the current SO PIN" grep -qx "SO PIN of token 'cli' changed" "$WORK/u.out"
u --set-pin --token cli --so --pin "$SO_PIN-2" --new-pin "$SO_PIN"
check "... and --pin" grep -qx "SO PIN of token 'cli' changed" "$WORK/u.out"
expect_fail "--set-pin takes --so-pin only with --so" "--set-pin takes --so-pin only with --so" \
	--set-pin --token cli --so-pin "$SO_PIN" --new-pin "$PIN"
UPIN="$PIN-3"

# ---------------------------------------------------------------- objects
u --keygen rsa2048 --token cli --pin "$UPIN" --label r --id 01
u --keygen ec --token cli --pin "$UPIN" --label e --id 02
u --keygen mldsa65 --token cli --pin "$UPIN" --label m --id 03
# A label that is not plain text: a quote, a backslash, a control
# character and a byte that is not UTF-8.
odd=$(printf 'q"b\\s\001\377')
u --keygen mldsa87 --token cli --pin "$UPIN" --label "$odd" --id 04
if command -v pkcs11-tool >/dev/null 2>&1; then
	pkcs11-tool --module "$MODULE" --token-label cli --login --pin "$UPIN" \
		--keygen --key-type AES:32 --label a --id 05 >"$WORK/p11.out" 2>&1 ||
		fail "pkcs11-tool --keygen AES: $(cat "$WORK/p11.out")"
	have_aes=1
else
	have_aes=0
fi
u --list-objects --token cli --pin "$UPIN"
cp "$WORK/u.out" "$WORK/list"
check "--list-objects shows RSA bits" grep -qx 'private-key rsa-2048   id=01 label="r" token private' "$WORK/list"
check "... for the public key too" grep -qx 'public-key  rsa-2048   id=01 label="r" token' "$WORK/list"
check "--list-objects shows the EC curve" grep -qx 'private-key ec-p256    id=02 label="e" token private' "$WORK/list"
check "--list-objects shows the ML-DSA parameter set" grep -qx 'private-key ml-dsa-65  id=03 label="m" token private' "$WORK/list"
check "... ML-DSA-87 too" grep -q '^public-key  ml-dsa-87  id=04 ' "$WORK/list"
if [ $have_aes = 1 ]; then
	check "--list-objects shows the AES key size" grep -q '^secret-key  aes-256    id=05 label="a" token' "$WORK/list"
fi

# --json: valid JSON (python3's json module reads it), the same objects.
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
u --list-objects --token cli --pin "$UPIN" --json
check "--list-objects --json is JSON with every object" $PY -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
objs = d["objects"]
assert d["token"] == "cli" and d["private_objects_shown"] is True, d
assert len(objs) == int(sys.argv[2]), len(objs)
by = {(o["class"], o["id"]): o for o in objs}
r = by[("private-key", "01")]
assert r["key_type"] == "rsa" and r["bits"] == 2048 and r["type"] == "rsa-2048", r
assert r["label"] == "r" and r["token"] is True and r["private"] is True, r
assert by[("public-key", "01")]["private"] is False
assert by[("private-key", "02")]["curve"] == "P-256"
assert by[("private-key", "03")]["parameter_set"] == "ML-DSA-65"
assert by[("public-key", "04")]["label"] == "q\"b\\s\x01\xff", by[("public-key", "04")]
if sys.argv[3] == "1":
    a = by[("secret-key", "05")]
    assert a["key_type"] == "aes" and a["bits"] == 256, a
' "$WORK/u.out" $((8 + have_aes)) $have_aes
u --list-objects --token cli --json
check "--list-objects --json without --pin: public objects only" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["private_objects_shown"] is False
assert all(not o["private"] for o in d["objects"]) and len(d["objects"]) == 4 + int(sys.argv[2]), d
' "$WORK/u.out" $have_aes
expect_fail "a wrong PIN, for the flags below" "wrong PIN" --list-objects --token cli --pin wrong-1
u --show-slots --json
check "--show-slots --json is JSON with the token and the free slot" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["slots"]
t = [x["token"] for x in s if x["token"] is not None]
assert len(s) == 2 and s[1]["token"] is None and len(t) == 1, d
t = t[0]
assert t["label"] == "cli" and len(t["serial"]) == 16, t
assert "TOKEN_INITIALIZED" in t["flags"] and "USER_PIN_COUNT_LOW" in t["flags"], t
assert t["user_pin"]["state"] == "wrong tries counted" and t["user_pin"]["count_low"] is True, t
assert t["user_pin"]["locked"] is False and t["so_pin"]["state"] == "ok", t
assert t["pin_min_length"] == 4 and t["pin_max_length"] == 255, t
' "$WORK/u.out"
expect_fail "--json is for listings" "--keygen does not take --json" --keygen ec --token cli --json

# --delete-object: one object, or several with --all; what it deleted.
expect_fail "--delete-object needs --id or --label" "--delete-object needs --id or --label" \
	--delete-object --token cli --pin "$UPIN"
expect_fail "--delete-object refuses two objects without --all" \
	"2 objects have ID 01 (private-key, public-key): narrow with --class, or give --all to delete them all" \
	--delete-object --token cli --pin "$UPIN" --id 01
expect_fail "--delete-object of an unknown ID" "no object with ID 99 on token 'cli'" \
	--delete-object --token cli --pin "$UPIN" --id 99
expect_fail "--delete-object with an unknown class" "--class: unknown class 'key' (private-key, public-key, certificate, secret-key, data)" \
	--delete-object --token cli --pin "$UPIN" --id 01 --class key
u --delete-object --token cli --pin "$UPIN" --id 01 --class public-key
check "--delete-object --class deletes the one object" grep -qx 'deleted public-key  rsa-2048   id=01 label="r" token' "$WORK/u.out"
check "... and counts it" grep -qx "1 object(s) deleted from token 'cli'" "$WORK/u.out"
u --delete-object --token cli --pin "$UPIN" --label e --all
check "--delete-object --all deletes both halves of a pair" test "$(grep -c '^deleted .*ec-p256 *id=02 label="e"' "$WORK/u.out")" -eq 2
u --delete-object --token cli --pin "$UPIN" --id 01 --class privkey
check "--class takes pkcs11-tool's names" grep -q '^deleted private-key rsa-2048' "$WORK/u.out"
u --list-objects --token cli --pin "$UPIN"
check "what was deleted is gone" sh -c "! grep -Eq 'id=0[12] ' '$WORK/u.out'"
check "the rest is still there" grep -q 'id=03 label="m"' "$WORK/u.out"

# --keygen refuses an ID a key on the token has, as --import does.
expect_fail "--keygen with an ID in use" \
	"the token has a private key with ID 03 already: delete it or give another --id" \
	--keygen ec --token cli --pin "$UPIN" --id 03
u --list-objects --token cli --pin "$UPIN"
check "... and makes nothing" test "$(grep -c 'id=03 ' "$WORK/u.out")" -eq 2
# Two public keys with one ID (made by pkcs11-tool, which does not check):
# --export-pubkey says what would single one out.
if command -v pkcs11-tool >/dev/null 2>&1; then
	for l in d1 d2; do
		pkcs11-tool --module "$MODULE" --token-label cli --login --pin "$UPIN" \
			--keypairgen --key-type EC:prime256v1 --id 07 --label $l >"$WORK/p11.out" 2>&1 ||
			fail "pkcs11-tool --keypairgen: $(cat "$WORK/p11.out")"
	done
	expect_fail "--export-pubkey --id matching two keys asks for --label" \
		"2 public keys have ID 07: give --label as well, or delete the extra ones with --delete-object" \
		--export-pubkey --token cli --id 07
	check "--export-pubkey --id --label picks one" u --export-pubkey --token cli --id 07 --label d2
	pkcs11-tool --module "$MODULE" --token-label cli --login --pin "$UPIN" \
		--keypairgen --key-type EC:prime256v1 --id 08 --label d2 >"$WORK/p11.out" 2>&1 ||
		fail "pkcs11-tool --keypairgen: $(cat "$WORK/p11.out")"
	expect_fail "--export-pubkey --label matching two keys asks for --id" \
		"2 public keys are labelled 'd2': give --id" --export-pubkey --token cli --label d2
fi

# ------------------------------------------------- PKCS#12 and PKCS#8
# Files as OpenSSL 3 writes them by default (PBES2, PBKDF2-HMAC-SHA-256,
# AES-256-CBC; PKCS#12 MAC HMAC-SHA-256), imported with the passphrase
# from a file; the keys then sign through pkcs11-tool and openssl
# verifies with the certificate.
if command -v openssl >/dev/null 2>&1 && command -v pkcs11-tool >/dev/null 2>&1; then
	cd "$WORK"
	printf 'pfx-Pass phrase-1\n' >pass
	echo wrong-passphrase >wrong
	head -c 2000 /dev/urandom >msg
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out p12rsa.key 2>/dev/null
	openssl req -x509 -new -key p12rsa.key -subj /CN=p12-rsa -days 30 -out p12rsa.crt 2>/dev/null
	openssl pkcs12 -export -inkey p12rsa.key -in p12rsa.crt -passout file:pass -out rsa.p12
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out p12ec.key
	openssl req -x509 -new -key p12ec.key -subj /CN=p12-ec -days 30 -out p12ec.crt 2>/dev/null
	openssl pkcs12 -export -inkey p12ec.key -in p12ec.crt -passout file:pass -out ec.p12
	openssl pkcs12 -in rsa.p12 -info -noout -passin file:pass >info 2>&1
	check "openssl wrote the PKCS#12 MAC with SHA-256" grep -q "^MAC: sha256, Iteration 2048" info
	check "... and encrypted with PBES2 and AES-256-CBC" grep -q "PBES2, PBKDF2, AES-256-CBC" info
	p11sign() {
		pkcs11-tool --module "$MODULE" --token-label cli --login --pin "$UPIN" \
			--sign --id "$1" -m "$2" -i msg -o "$3" ${4:-} >p11.out 2>&1 ||
			fail "pkcs11-tool --sign: $(cat p11.out)"
	}

	u --import rsa.p12 --token cli --pin "$UPIN" --passphrase-file pass --id 11 --label p12rsa
	check "PKCS#12 (RSA): the key is imported" grep -q "^imported RSA private key and its public key into token 'cli': id=11 label=\"p12rsa\"" "$WORK/u.out"
	check "... with its certificate" grep -q "^imported certificate into token 'cli': id=11 label=\"p12rsa\"" "$WORK/u.out"
	p11sign 11 SHA256-RSA-PKCS rsa.sig
	openssl x509 -in p12rsa.crt -pubkey -noout >p12rsa.pub
	check "... signs through pkcs11-tool, and openssl verifies" \
		openssl dgst -sha256 -verify p12rsa.pub -signature rsa.sig msg
	u --import ec.p12 --token cli --pin "$UPIN" --passphrase-file pass --id 12 --label p12ec
	check "PKCS#12 (EC): the key and its certificate are imported" \
		test "$(grep -c "^imported .*id=12 label=\"p12ec\"" "$WORK/u.out")" -eq 2
	p11sign 12 ECDSA-SHA256 ec.sig "--signature-format openssl"
	openssl x509 -in p12ec.crt -pubkey -noout >p12ec.pub
	check "... signs through pkcs11-tool, and openssl verifies" \
		openssl dgst -sha256 -verify p12ec.pub -signature ec.sig msg
	u --list-objects --token cli --pin "$UPIN"
	check "... the certificate is on the token" grep -q '^certificate x509 *id=12 label="p12ec"' "$WORK/u.out"

	# Encrypted PKCS#8, PEM and DER.
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out p8.key 2>/dev/null
	openssl pkcs8 -topk8 -in p8.key -passout file:pass -out p8enc.pem
	openssl pkcs8 -topk8 -in p12ec.key -passout file:pass -outform DER -out p8ec.der
	check "openssl wrote an ENCRYPTED PRIVATE KEY" grep -q "BEGIN ENCRYPTED PRIVATE KEY" p8enc.pem
	u --import p8enc.pem --token cli --pin "$UPIN" --passphrase-file pass --id 13
	check "encrypted PKCS#8 (PEM): imported" grep -q "^imported RSA private key .*id=13" "$WORK/u.out"
	p11sign 13 SHA256-RSA-PKCS p8.sig
	openssl pkey -in p8.key -pubout -out p8.pub
	check "... signs through pkcs11-tool, and openssl verifies" \
		openssl dgst -sha256 -verify p8.pub -signature p8.sig msg
	u --import p8ec.der --token cli --pin "$UPIN" --passphrase-file pass --id 14
	check "encrypted PKCS#8 (DER, EC): imported" grep -q "^imported EC P-256 private key .*id=14" "$WORK/u.out"

	# Other parameters OpenSSL offers: a SHA-512 MAC (the PKCS#12 key
	# derivation with 128-byte blocks), PBKDF2 with HMAC-SHA-1, AES-128.
	openssl pkcs12 -export -inkey p12ec.key -nocerts -macalg sha512 -passout file:pass -out sha512.p12 2>/dev/null
	u --import sha512.p12 --token cli --pin "$UPIN" --passphrase-file pass --id 17
	check "PKCS#12 with a SHA-512 MAC" grep -q "^imported EC P-256 private key .*id=17" "$WORK/u.out"
	openssl pkcs8 -topk8 -v2 aes-128-cbc -v2prf hmacWithSHA1 -in p12ec.key -passout file:pass -out aes128.pem
	u --import aes128.pem --token cli --pin "$UPIN" --passphrase-file pass --id 18
	check "PKCS#8 with AES-128-CBC and PBKDF2-HMAC-SHA-1" grep -q "^imported EC P-256 private key .*id=18" "$WORK/u.out"

	# Refusals.
	expect_fail "PKCS#12 with a wrong passphrase" "rsa.p12: wrong passphrase (the file's MAC does not match)" \
		--import rsa.p12 --token cli --pin "$UPIN" --passphrase-file wrong
	expect_fail "encrypted PKCS#8 with a wrong passphrase" "p8enc.pem: wrong passphrase (or a damaged file)" \
		--import p8enc.pem --token cli --pin "$UPIN" --passphrase-file wrong
	openssl pkcs12 -export -inkey p12rsa.key -in p12rsa.crt -passout file:pass \
		-keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1 -out legacy.p12
	expect_fail "a legacy (3DES) PKCS#12 is refused, with the way to convert it" \
		"legacy.p12: the certificates are encrypted with pbeWithSHAAnd3-KeyTripleDES-CBC, which this tool does not decrypt (a legacy PKCS#12 algorithm): re-export the file with AES, e.g. openssl pkcs12 -legacy -in legacy.p12 -nodes | openssl pkcs12 -export -out NEW.p12" \
		--import legacy.p12 --token cli --pin "$UPIN" --passphrase-file pass
	openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -in p8.key -passout file:pass -out p8v1.pem
	expect_fail "a PKCS#8 key under an old scheme is refused, named" \
		"p8v1.pem: the key is encrypted with pbeWithSHAAnd3-KeyTripleDES-CBC, which this tool does not decrypt: re-encrypt the key with AES" \
		--import p8v1.pem --token cli --pin "$UPIN" --passphrase-file pass
	expect_fail "the passphrase is never an argument" "the passphrase is never taken from the command line" \
		--import rsa.p12 --token cli --pin "$UPIN" --passphrase secret
	expect_fail "a missing passphrase file" "cannot read the passphrase file $WORK/none" \
		--import rsa.p12 --token cli --pin "$UPIN" --passphrase-file "$WORK/none"
	if command -v setsid >/dev/null 2>&1; then
		setsid -w "$UTIL" --import rsa.p12 --token cli --pin "$UPIN" </dev/null >out 2>err &&
			fail "PKCS#12 without a passphrase or terminal succeeded"
		check "without a terminal, the passphrase is asked for as --passphrase-file" \
			grep -qx "vgtoken-util: the passphrase of rsa.p12 is needed and there is no terminal to ask for it: give --passphrase-file" err
	fi
	expect_fail "--passphrase-file is for --import" "--keygen does not take --passphrase-file" \
		--keygen ec --token cli --pin "$UPIN" --passphrase-file pass

	# The passphrase typed at the prompt, not echoed.
	openssl pkcs12 -export -inkey p8.key -nocerts -passout file:pass -out prompt.p12 2>/dev/null
	UTIL="$UTIL" UPIN="$UPIN" python3 - >pty.out <<'PY' || fail "the passphrase prompt: $(cat pty.out)"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(os.environ["UTIL"], [os.environ["UTIL"], "--import", "prompt.p12",
             "--token", "cli", "--pin", os.environ["UPIN"], "--id", "15"])
out = b""
while b"Passphrase of prompt.p12: " not in out:
    out += os.read(fd, 1024)
os.write(fd, b"pfx-Pass phrase-1\n")
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
	check "the passphrase asked for on the terminal opens the file" grep -q "imported RSA private key .*id=15" pty.out
	check "... and is not echoed" sh -c "! grep -q 'Pass phrase' pty.out"

	# PBMAC1 [RFC 9579] (OpenSSL 3.4 writes it; Debian 12's 3.0 does
	# not): a MAC-less file from openssl given a PBMAC1 MAC by python.
	openssl pkcs12 -export -inkey p12ec.key -in p12ec.crt -passout file:pass -nomac -out nomac.p12
	python3 - nomac.p12 pbmac1.p12 "pfx-Pass phrase-1" <<'PY' || fail "building a PBMAC1 file"
import hashlib, hmac, sys
def tlv(b, i):
    t, l = b[i], b[i + 1]
    i += 2
    if l & 0x80:
        n = l & 0x7f
        l = int.from_bytes(b[i:i + n], "big")
        i += n
    return t, i, i + l   # tag, start of contents, end
def enc(t, c):
    n = len(c)
    if n < 128:
        h = bytes([n])
    else:
        nb = n.to_bytes((n.bit_length() + 7) // 8, "big")
        h = bytes([0x80 | len(nb)]) + nb
    return bytes([t]) + h + c
seq = lambda *a: enc(0x30, b"".join(a))
oid = lambda b: enc(0x06, bytes(b))
pfx = open(sys.argv[1], "rb").read()
_, s, e = tlv(pfx, 0)
_, vs, ve = tlv(pfx, s)            # version
auth = ve                          # authSafe ContentInfo
_, cs, ce = tlv(pfx, auth)
_, os_, oe = tlv(pfx, cs)          # contentType
_, xs, xe = tlv(pfx, oe)           # [0]
_, ds, de = tlv(pfx, xs)           # OCTET STRING
data = pfx[ds:de]
pw = sys.argv[3].encode()
salt = bytes(range(16))
key = hashlib.pbkdf2_hmac("sha256", pw, salt, 2048, 32)
mac = hmac.new(key, data, hashlib.sha256).digest()
PKCS5 = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05]
sha256_hmac = seq(oid([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x09]), b"\x05\x00")
pbkdf2 = seq(oid(PKCS5 + [12]), seq(enc(0x04, salt), enc(0x02, (2048).to_bytes(2, "big")),
                                    enc(0x02, b"\x20"), sha256_hmac))
alg = seq(oid(PKCS5 + [14]), seq(pbkdf2, sha256_hmac))
macdata = seq(seq(alg, enc(0x04, mac)), enc(0x04, b"NOT USED"), enc(0x02, b"\x01"))
open(sys.argv[2], "wb").write(seq(pfx[s:ve], pfx[auth:ce], macdata))
PY
	openssl asn1parse -inform DER -in nomac.p12 >/dev/null || fail "nomac.p12 unreadable"
	u --import pbmac1.p12 --token cli --pin "$UPIN" --passphrase-file pass --id 16
	check "a PBMAC1 PKCS#12 file is imported" grep -q "^imported EC P-256 private key .*id=16" "$WORK/u.out"
	expect_fail "... and its MAC checked" "pbmac1.p12: wrong passphrase (the file's MAC does not match)" \
		--import pbmac1.p12 --token cli --pin "$UPIN" --passphrase-file wrong
	cd - >/dev/null
fi

# ---------------------------------------------------------------- progress
# A long call shows a spinner on a terminal (stderr), and nothing when
# stderr is not one. 3,000,000 PBKDF2 iterations take well over the
# spinner's 250 ms.
printf 'pbkdf2_iterations = 3000000\n' >"$WORK/slow.conf"
if command -v python3 >/dev/null 2>&1; then
	VGTOKEN_CONF="$WORK/slow.conf" UTIL="$UTIL" python3 - >"$WORK/pty" <<'PY' ||
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(os.environ["UTIL"], [os.environ["UTIL"], "--init-token",
             "--label", "slow", "--so-pin", "slow-so-pin", "--pin", "slow-pin"])
out = b""
while True:
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    out += d
_, st = os.waitpid(pid, 0)
sys.stdout.write(repr(out))
sys.exit(os.WEXITSTATUS(st))
PY
		fail "--init-token on a terminal: $(cat "$WORK/pty")"
	check "a slow --init-token shows a spinner on a terminal" grep -q 'creating the token\.\.\. [|/\\-]' "$WORK/pty"
	check "... which it erases" grep -q "\\\\r *\\\\r" "$WORK/pty"
	check "... and the command finishes" grep -q "token 'slow' created" "$WORK/pty"
fi
VGTOKEN_CONF="$WORK/slow.conf" "$UTIL" --init-token --label slow2 --so-pin slow-so-pin --pin slow-pin >"$WORK/out" 2>"$WORK/err" ||
	fail "--init-token: $(cat "$WORK/err")"
check "no spinner when stderr is not a terminal" test ! -s "$WORK/err"

# (last: the SO PIN stays locked) The SO PIN has no PKCS#11 way out.
expect_fail "a wrong SO PIN" "SO login failed: wrong PIN" \
	--init-pin --token cli --so-pin wrong-so --new-pin "$PIN"
expect_fail "the last wrong SO PIN" "SO login failed: wrong PIN" \
	--init-pin --token cli --so-pin wrong-so --new-pin "$PIN"
expect_fail "a locked SO PIN says so" "SO login failed: the SO PIN is locked after too many wrong tries (CKR_PIN_LOCKED)" \
	--init-pin --token cli --so-pin "$SO_PIN" --new-pin "$PIN"
echo "$ok checks passed"
