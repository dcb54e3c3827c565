#!/bin/sh
# OpenSC's pkcs11-tool 0.23 encrypting and decrypting with AES keys on the
# token: a key made with --keygen and read back (extractable), and one of
# known value; --encrypt / --decrypt with AES-ECB, AES-CBC and AES-CBC-PAD
# and --iv, compared with what openssl enc makes with the same key and IV;
# a ciphertext with a bad padding refused; AES-CBC-PAD and AES-ECB as
# --wrap / --unwrap mechanisms. pkcs11-tool 0.23 has no AES-CTR or AES-GCM
# encryption (it says so) and signs only with private keys, so CMAC and
# those modes are left to tests/p11/test_aes*.c.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
need od "Debian package coreutils"
client pkcs11-tool opensc

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
PIN=1234
tok() {
	pkcs11-tool --module "$MODULE" --token-label aes --login --pin $PIN "$@" >"$WORK/out" 2>&1
}
hex() {
	od -An -tx1 "$1" | tr -d ' \n'
}
check "token 'aes'" "$top_builddir/vgtoken-util" --init-token --label aes --so-pin 87654321 --pin $PIN
for m in AES-ECB AES-CBC AES-CBC-PAD AES-CTR AES-GCM; do
	check "pkcs11-tool lists $m with encrypt and decrypt" sh -c \
		"pkcs11-tool --module '$MODULE' -M | grep -q '^  $m, keySize={16,32}, encrypt, decrypt'"
done
check "and AES-CMAC with sign and verify" sh -c \
	"pkcs11-tool --module '$MODULE' -M | grep -q '^  AES-CMAC, keySize={16,32}, sign, verify'"

check "--keygen --key-type AES:32" tok --keygen --key-type AES:32 --id 01 --label gen --extractable --usage-decrypt
check "a 32-byte AES key" grep -q "Secret Key Object; AES length 32" "$WORK/out"
check "--read-object its value" tok --read-object --type secrkey --id 01 -o "$WORK/k1"
check "32 bytes" test "$(wc -c <"$WORK/k1")" -eq 32
head -c 16 /dev/urandom >"$WORK/k2"
check "--write-object an AES-128 key" tok --write-object "$WORK/k2" --type secrkey --key-type AES:16 --id 02 --label k2 --usage-decrypt

head -c 16 /dev/urandom >"$WORK/iv"
IV=$(hex "$WORK/iv")
head -c 1000 /dev/urandom >"$WORK/msg"
head -c 992 "$WORK/msg" >"$WORK/msg16"

# m: mechanism; id and key file; openssl cipher; input; openssl's options
run_mode() {
	m=$1 id=$2 key=$3 cipher=$4 in=$5
	shift 5
	ivopt="--iv $IV"
	[ "$m" = AES-ECB ] && ivopt=""
	check "--encrypt -m $m with key $id" tok --encrypt -m "$m" --id "$id" $ivopt -i "$WORK/$in" -o "$WORK/ct"
	plain openssl enc "-$cipher" -K "$(hex "$WORK/$key")" "$@" -in "$WORK/$in" -out "$WORK/oct"
	check "$m: as openssl enc -$cipher makes it" cmp -s "$WORK/ct" "$WORK/oct"
	check "--decrypt -m $m openssl's ciphertext" tok --decrypt -m "$m" --id "$id" $ivopt -i "$WORK/oct" -o "$WORK/back"
	check "$m: the message back" cmp -s "$WORK/back" "$WORK/$in"
}
run_mode AES-CBC-PAD 01 k1 aes-256-cbc msg -iv "$IV"
run_mode AES-CBC-PAD 02 k2 aes-128-cbc msg16 -iv "$IV"
run_mode AES-CBC 01 k1 aes-256-cbc msg16 -iv "$IV" -nopad
run_mode AES-ECB 02 k2 aes-128-ecb msg16 -nopad

check "AES-CBC refuses 1000 bytes (not whole blocks)" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label aes --login --pin $PIN --encrypt -m AES-CBC --id 01 --iv $IV -i '$WORK/msg' -o '$WORK/x' >'$WORK/out' 2>&1"
check "CKR_DATA_LEN_RANGE" grep -q CKR_DATA_LEN_RANGE "$WORK/out"
# A last block whose padding is bad: 16 zero bytes, encrypted raw.
head -c 16 /dev/zero >"$WORK/zero"
plain openssl enc -aes-256-cbc -K "$(hex "$WORK/k1")" -iv "$IV" -nopad -in "$WORK/zero" -out "$WORK/badpad"
check "a bad padding does not decrypt" sh -c \
	"! pkcs11-tool --module '$MODULE' --token-label aes --login --pin $PIN --decrypt -m AES-CBC-PAD --id 01 --iv $IV -i '$WORK/badpad' -o '$WORK/x' >'$WORK/out' 2>&1"
check "CKR_ENCRYPTED_DATA_INVALID" grep -q CKR_ENCRYPTED_DATA_INVALID "$WORK/out"

# AES-CBC-PAD and AES-ECB wrap (key 01, extractable, wrapped by key 03).
head -c 32 /dev/urandom >"$WORK/kek"
check "--write-object a wrapping key" tok --write-object "$WORK/kek" --type secrkey --key-type AES:32 --id 03 --label kek
check "--wrap -m AES-CBC-PAD --iv" tok --wrap -m AES-CBC-PAD --iv "$IV" --id 03 --application-id 01 -o "$WORK/w"
plain openssl enc -aes-256-cbc -K "$(hex "$WORK/kek")" -iv "$IV" -in "$WORK/k1" -out "$WORK/ow"
check "48 bytes, as openssl enc -aes-256-cbc makes them" cmp -s "$WORK/w" "$WORK/ow"
check "--unwrap -m AES-CBC-PAD" tok --unwrap -m AES-CBC-PAD --iv "$IV" --id 03 -i "$WORK/ow" --key-type AES: --application-id 11 --extractable
check "--read-object it" tok --read-object --type secrkey --id 11 -o "$WORK/b"
check "the value is the one wrapped" cmp -s "$WORK/b" "$WORK/k1"
check "--wrap -m AES-ECB" tok --wrap -m AES-ECB --id 03 --application-id 01 -o "$WORK/we"
plain openssl enc -aes-256-ecb -nopad -K "$(hex "$WORK/kek")" -in "$WORK/k1" -out "$WORK/owe"
check "as openssl enc -aes-256-ecb makes it" cmp -s "$WORK/we" "$WORK/owe"
echo "$ok checks passed"
