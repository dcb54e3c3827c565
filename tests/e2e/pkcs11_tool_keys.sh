#!/bin/sh
# OpenSC's pkcs11-tool with more key work: an RSA 3072 pair made on the
# token and used for hashing signatures, raw PKCS#1 signatures over a
# DigestInfo the caller built, and labelled OAEP decryption (SHA-1 and
# SHA-256); then what pkcs11-tool 0.23 sends when asked for an ML-DSA pair,
# which the module must refuse without making anything.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
client pkcs11-tool opensc

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
PIN=1234
tok() {
	pkcs11-tool --module "$MODULE" --token-label keys --login --pin $PIN "$@" >"$WORK/out" 2>&1
}
check "token 'keys'" "$top_builddir/vgtoken-util" --init-token --label keys --so-pin 87654321 --pin $PIN
printf 'message to sign\n' >"$WORK/msg"

check "--keypairgen rsa:3072" tok --keypairgen --key-type rsa:3072 --id 31 --label rsa3072
check "it says so" grep -q "Private Key Object; RSA" "$WORK/out"
check "vgtoken-util --export-pubkey" "$top_builddir/vgtoken-util" --export-pubkey --token keys --id 31 -o "$WORK/pub.pem"
openssl pkey -pubin -in "$WORK/pub.pem" -noout -text >"$WORK/pub.txt"
check "openssl reads a 3072-bit public key" grep -q "Public-Key: (3072 bit)" "$WORK/pub.txt"
check "with exponent 65537" grep -q "Exponent: 65537" "$WORK/pub.txt"
for h in sha256 sha384 sha512; do
	H=$(echo $h | tr a-z A-Z)
	check "--sign -m $H-RSA-PKCS" tok --sign -m $H-RSA-PKCS --id 31 -i "$WORK/msg" -o "$WORK/sig"
	check "the signature is 384 bytes" test "$(wc -c <"$WORK/sig")" -eq 384
	check "openssl verifies it" openssl dgst -$h -verify "$WORK/pub.pem" -signature "$WORK/sig" "$WORK/msg"
done
check "--sign -m SHA384-RSA-PKCS-PSS" tok --sign -m SHA384-RSA-PKCS-PSS --id 31 -i "$WORK/msg" -o "$WORK/sig"
check "openssl verifies it" openssl dgst -sha384 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:-1 -verify "$WORK/pub.pem" -signature "$WORK/sig" "$WORK/msg"

# Raw CKM_RSA_PKCS over a DigestInfo built here (what TLS stacks do):
# SEQUENCE { AlgorithmIdentifier sha256, OCTET STRING hash }.
openssl dgst -sha256 -binary "$WORK/msg" >"$WORK/hash"
{
	printf '\060\061\060\015\006\011\140\206\110\001\145\003\004\002\001\005\000\004\040'
	cat "$WORK/hash"
} >"$WORK/digestinfo"
check "the DigestInfo is 51 bytes" test "$(wc -c <"$WORK/digestinfo")" -eq 51
check "--sign -m RSA-PKCS over the DigestInfo" tok --sign -m RSA-PKCS --id 31 -i "$WORK/digestinfo" -o "$WORK/sig"
check "openssl pkeyutl verifies it as a SHA-256 signature" openssl pkeyutl -verify -pubin -inkey "$WORK/pub.pem" -pkeyopt digest:sha256 -in "$WORK/hash" -sigfile "$WORK/sig"
openssl pkeyutl -verifyrecover -pubin -inkey "$WORK/pub.pem" -in "$WORK/sig" -out "$WORK/recovered" 2>/dev/null
check "and recovers exactly the DigestInfo signed" cmp -s "$WORK/digestinfo" "$WORK/recovered"
check "it equals the SHA256-RSA-PKCS signature (PKCS#1 v1.5 is deterministic)" sh -c \
	"pkcs11-tool --module '$MODULE' --token-label keys --login --pin $PIN --sign -m SHA256-RSA-PKCS --id 31 -i '$WORK/msg' -o '$WORK/sig2' >/dev/null 2>&1 && cmp -s '$WORK/sig' '$WORK/sig2'"

# OAEP with a label. pkcs11-tool 0.23's --decrypt has no option for the
# label (it always sends source = 0, no label); its --test decrypts once
# with the label "ABC" and once without, with the --hash-algorithm given.
printf 'a secret message\n' >"$WORK/pt"
for pair in SHA-1:sha1:MGF1-SHA1 SHA256:sha256:MGF1-SHA256; do
	p11h=${pair%%:*}
	rest=${pair#*:}
	h=${rest%%:*}
	mgf=${rest#*:}
	tok --test --allow-sw --hash-algorithm $p11h || true
	check "--test --hash-algorithm $p11h finds no errors" grep -qx "No errors" "$WORK/out"
	check "it decrypted OAEP $p11h with a 3-byte label" grep -q "hashAlg=$p11h, mgf=$mgf, encoding parameter (Label) present, length 3" "$WORK/out"
	check "and without one" grep -q "hashAlg=$p11h, mgf=$mgf, encoding parameter (Label) not present" "$WORK/out"
	check "both decryptions came back right" test "$(grep -A1 'RSA-PKCS-OAEP: ' "$WORK/out" | grep -cx OK)" -eq 2
	# An OpenSSL ciphertext decrypts with --decrypt (no label); made with
	# a label, it must not.
	oaep="-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:$h -pkeyopt rsa_mgf1_md:$h"
	# shellcheck disable=SC2086
	openssl pkeyutl -encrypt -pubin -inkey "$WORK/pub.pem" $oaep -in "$WORK/pt" -out "$WORK/ct"
	rm -f "$WORK/pt2"
	check "--decrypt -m RSA-PKCS-OAEP ($p11h, no label)" tok --decrypt -m RSA-PKCS-OAEP --hash-algorithm $p11h --mgf $mgf --id 31 -i "$WORK/ct" -o "$WORK/pt2"
	check "the plaintext comes back" cmp -s "$WORK/pt" "$WORK/pt2"
	# shellcheck disable=SC2086
	openssl pkeyutl -encrypt -pubin -inkey "$WORK/pub.pem" $oaep -pkeyopt rsa_oaep_label:414243 \
		-in "$WORK/pt" -out "$WORK/ct"
	rm -f "$WORK/pt2"
	check "a ciphertext labelled 'ABC' ($p11h) does not decrypt without the label" sh -c \
		"! pkcs11-tool --module '$MODULE' --token-label keys --login --pin $PIN --decrypt -m RSA-PKCS-OAEP --hash-algorithm $p11h --mgf $mgf --id 31 -i '$WORK/ct' -o '$WORK/pt2' >'$WORK/out' 2>&1"
	check "and gives nothing back" sh -c "! grep -q secret '$WORK/pt2'"
done

# ML-DSA. pkcs11-tool 0.23 cannot make an ML-DSA pair: it passes the
# mechanism given with -m only together with --key-type, which knows RSA,
# EC and GOST only; without --key-type it asks for CKM_RSA_PKCS_KEY_PAIR_GEN
# whatever -m says. Nor can it sign or verify (its signature buffers are
# 512 bytes; ML-DSA-44 signatures are 2420). The module must refuse both
# requests it makes, and make nothing.
MLDSA_GEN=0x1c
VG_MLDSA_GEN=0xD6470020
tok --list-mechanisms
check "the module lists CKM_ML_DSA_KEY_PAIR_GEN" grep -qi "mechtype-0x1C, .*generate_key_pair" "$WORK/out"
check "and its vendor twin" grep -qi "mechtype-0xD6470020, .*generate_key_pair" "$WORK/out"
tok --keypairgen -m $MLDSA_GEN --id 40 --label mldsa || true
check "--keypairgen -m $MLDSA_GEN alone (an RSA request without a size) is CKR_TEMPLATE_INCOMPLETE" grep -q CKR_TEMPLATE_INCOMPLETE "$WORK/out"
for m in $MLDSA_GEN $VG_MLDSA_GEN; do
	for kt in rsa:2048 EC:prime256v1; do
		tok --keypairgen --key-type $kt -m $m --id 41 --label mldsa || true
		check "--keypairgen --key-type $kt -m $m (CKK_RSA/EC in the template) is CKR_TEMPLATE_INCONSISTENT" grep -q CKR_TEMPLATE_INCONSISTENT "$WORK/out"
	done
done
tok --list-objects
check "and nothing was made: only the RSA 3072 pair is there" test "$(grep -c "Key Object" "$WORK/out")" -eq 2
echo "$ok checks passed"
