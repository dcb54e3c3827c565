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
check "--show-slots: locked" grep -qx "  user PIN: locked" "$WORK/u.out"
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

# (last: the SO PIN stays locked) The SO PIN has no PKCS#11 way out.
expect_fail "a wrong SO PIN" "SO login failed: wrong PIN" \
	--init-pin --token cli --so-pin wrong-so --new-pin "$PIN"
expect_fail "the last wrong SO PIN" "SO login failed: wrong PIN" \
	--init-pin --token cli --so-pin wrong-so --new-pin "$PIN"
expect_fail "a locked SO PIN says so" "SO login failed: the SO PIN is locked after too many wrong tries (CKR_PIN_LOCKED)" \
	--init-pin --token cli --so-pin "$SO_PIN" --new-pin "$PIN"
echo "$ok checks passed"
