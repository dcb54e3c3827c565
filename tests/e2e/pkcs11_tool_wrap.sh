#!/bin/sh
# OpenSC's pkcs11-tool 0.23 wrapping and unwrapping AES keys on the token:
# keys of known value written with --write-object, wrapped with
# AES-KEY-WRAP (RFC 3394) and, by number, CKM_AES_KEY_WRAP_KWP (RFC 5649),
# compared with what openssl enc makes of the same values; unwrapped
# again on the token and read back; a changed byte refused without a new
# object; CKM_AES_KEY_WRAP_PAD (0x210a), which the specification does not
# make RFC 5649, not offered.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
need od "Debian package coreutils"
client pkcs11-tool opensc

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
PIN=1234
tok() {
	pkcs11-tool --module "$MODULE" --token-label wrap --login --pin $PIN "$@" >"$WORK/out" 2>&1
}
hex() {
	od -An -tx1 "$1" | tr -d ' \n'
}
secret_keys() {
	pkcs11-tool --module "$MODULE" --token-label wrap --login --pin $PIN -O 2>/dev/null |
		grep -c "Secret Key Object" || true
}
check "token 'wrap'" "$top_builddir/vgtoken-util" --init-token --label wrap --so-pin 87654321 --pin $PIN
check "pkcs11-tool lists AES-KEY-WRAP with wrap and unwrap" sh -c \
	"pkcs11-tool --module '$MODULE' -M | grep -q 'AES-KEY-WRAP, keySize={16,32}, wrap, unwrap'"

head -c 32 /dev/urandom >"$WORK/kek"
head -c 16 /dev/urandom >"$WORK/k16"
head -c 24 /dev/urandom >"$WORK/k24"
check "--write-object an AES-256 wrapping key" tok --write-object "$WORK/kek" --type secrkey --key-type AES:32 --id 10 --label kek
check "--write-object an extractable AES-128 key" tok --write-object "$WORK/k16" --type secrkey --key-type AES:16 --id 11 --label k16 --extractable
check "--write-object an extractable AES-192 key" tok --write-object "$WORK/k24" --type secrkey --key-type AES:24 --id 12 --label k24 --extractable

check "--wrap -m AES-KEY-WRAP" tok --wrap -m AES-KEY-WRAP --id 10 --application-id 11 -o "$WORK/w16"
check "it says so" grep -q "Key wrapped" "$WORK/out"
openssl enc -id-aes256-wrap -K "$(hex "$WORK/kek")" -iv A6A6A6A6A6A6A6A6 -in "$WORK/k16" -out "$WORK/o16"
check "24 bytes, as openssl -id-aes256-wrap makes them" cmp -s "$WORK/w16" "$WORK/o16"
check "--wrap -m 0x210b (CKM_AES_KEY_WRAP_KWP)" tok --wrap -m 0x210b --id 10 --application-id 12 -o "$WORK/w24"
openssl enc -id-aes256-wrap-pad -K "$(hex "$WORK/kek")" -iv A65959A6 -in "$WORK/k24" -out "$WORK/o24"
check "as openssl -id-aes256-wrap-pad makes them" cmp -s "$WORK/w24" "$WORK/o24"
check "--wrap -m 0x210a (CKM_AES_KEY_WRAP_PAD) is refused" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label wrap --login --pin $PIN --wrap -m 0x210a --id 10 --application-id 12 -o '$WORK/w' >'$WORK/out' 2>&1"
check "as a mechanism the token does not have" grep -q CKR_MECHANISM_INVALID "$WORK/out"
check "the wrapping key's value cannot be wrapped (not extractable)" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label wrap --login --pin $PIN --wrap -m AES-KEY-WRAP --id 11 --application-id 10 -o '$WORK/w' >'$WORK/out' 2>&1"
check "CKR_KEY_UNEXTRACTABLE" grep -q CKR_KEY_UNEXTRACTABLE "$WORK/out"

# Unwrapped on the token (openssl's bytes), and read back.
check "--unwrap -m AES-KEY-WRAP openssl's wrapped key" tok --unwrap -m AES-KEY-WRAP --id 10 -i "$WORK/o16" --key-type AES: --application-id 21 --application-label back16 --extractable
check "an AES key of 16 bytes" grep -q "Secret Key Object; AES length 16" "$WORK/out"
check "--read-object it" tok --read-object --type secrkey --id 21 -o "$WORK/b16"
check "the value is the one wrapped" cmp -s "$WORK/k16" "$WORK/b16"
check "--unwrap -m 0x210b" tok --unwrap -m 0x210b --id 10 -i "$WORK/o24" --key-type AES: --application-id 22 --application-label back24 --extractable
check "--read-object it" tok --read-object --type secrkey --id 22 -o "$WORK/b24"
check "the value is the one wrapped" cmp -s "$WORK/k24" "$WORK/b24"
check "an unwrapped key that is not extractable (pkcs11-tool's default)" tok --unwrap -m AES-KEY-WRAP --id 10 -i "$WORK/o16" --key-type AES: --application-id 23
check "cannot be read" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label wrap --login --pin $PIN --read-object --type secrkey --id 23 -o '$WORK/b' >/dev/null 2>&1"

# A changed byte: refused, and nothing made.
before=$(secret_keys)
check "the six secret keys are listed" test "$before" -eq 6
cp "$WORK/o24" "$WORK/bad"
flip_byte "$WORK/bad" 9
check "a wrapped key with a changed byte does not unwrap" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label wrap --login --pin $PIN --unwrap -m 0x210b --id 10 -i '$WORK/bad' --key-type AES: --application-id 24 >'$WORK/out' 2>&1"
check "CKR_WRAPPED_KEY_INVALID" grep -q CKR_WRAPPED_KEY_INVALID "$WORK/out"
check "and no key was made" test "$(secret_keys)" -eq "$before"
head -c 20 "$WORK/o24" >"$WORK/short"
check "a wrapped key cut short: CKR_WRAPPED_KEY_LEN_RANGE" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label wrap --login --pin $PIN --unwrap -m AES-KEY-WRAP --id 10 -i '$WORK/short' --key-type AES: >'$WORK/out' 2>&1 && grep -q CKR_WRAPPED_KEY_LEN_RANGE '$WORK/out'"
echo "$ok checks passed"
