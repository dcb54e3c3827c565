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
