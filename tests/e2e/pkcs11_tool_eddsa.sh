#!/bin/sh
# Ed25519 and X25519 with real clients, on loopback only (no network):
# pkcs11-tool 0.23 makes an Ed25519 pair (--key-type EC:edwards25519) and
# signs with -m EDDSA, OpenSSL verifies with the public key vgtoken-util
# exports (PEM SubjectPublicKeyInfo); pkcs11-tool makes an X25519 pair and
# OpenSSL agrees with it on a shared secret computed on the token side by
# C_DeriveKey through pkcs11-tool where that version can; GnuTLS certtool
# self-signs a certificate with the token's Ed25519 key and p11tool signs
# with it, and p11tool generates one where its version can (GnuTLS 3.8.2
# and later; how earlier ones fail is asserted); vgtoken-util
# generates, exports, imports (PKCS #8 PEM from OpenSSL), lists, backs up
# and restores both types. A step a client version lacks is printed as
# such and the rest is still asserted.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"
client pkcs11-tool opensc
client openssl openssl

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
PIN=1234
UTIL="$top_builddir/vgtoken-util"
tok() {
	pkcs11-tool --module "$MODULE" --token-label edx --login --pin $PIN "$@" >"$WORK/out" 2>&1
}
u() {
	"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}
check "token 'edx'" u --init-token --label edx --so-pin 87654321 --pin $PIN
head -c 2000 /dev/urandom >"$WORK/msg"

# ------------------------------------------------ pkcs11-tool, Ed25519
check "--keypairgen --key-type EC:edwards25519" \
	tok --keypairgen --key-type EC:edwards25519 --id 51 --label ed
check "it says EC_EDWARDS" grep -q "Private Key Object; EC_EDWARDS" "$WORK/out"
check "CKA_EC_POINT is a 34-byte OCTET STRING" \
	grep -q "EC_POINT: *0420[0-9a-f]\{64\}\$" "$WORK/out"
check "--sign -m EDDSA" tok --sign -m EDDSA --id 51 -i "$WORK/msg" -o "$WORK/sig"
check "the signature is 64 bytes" test "$(wc -c <"$WORK/sig")" -eq 64
check "--sign again gives the same signature (Ed25519 is deterministic)" \
	sh -c "pkcs11-tool --module '$MODULE' --token-label edx --login --pin $PIN --sign -m EDDSA --id 51 -i '$WORK/msg' -o '$WORK/sig2' >/dev/null 2>&1 && cmp -s '$WORK/sig' '$WORK/sig2'"
check "vgtoken-util --export-pubkey" u --export-pubkey --token edx --id 51 -o "$WORK/ed.pem"
check "openssl reads an ED25519 key" \
	sh -c "openssl pkey -pubin -in '$WORK/ed.pem' -noout -text | grep -q 'ED25519 Public-Key'"
check "openssl pkeyutl -verify -rawin accepts the signature" \
	openssl pkeyutl -verify -pubin -inkey "$WORK/ed.pem" -rawin -in "$WORK/msg" -sigfile "$WORK/sig"
printf 'X' >"$WORK/msg2"
cat "$WORK/msg" >>"$WORK/msg2"
check "and refuses it for another message" \
	sh -c "! openssl pkeyutl -verify -pubin -inkey '$WORK/ed.pem' -rawin -in '$WORK/msg2' -sigfile '$WORK/sig' >/dev/null 2>&1"

# ------------------------------------------------ pkcs11-tool, X25519
check "--keypairgen --key-type EC:curve25519" \
	tok --keypairgen --key-type EC:curve25519 --id 52 --label x
check "it says EC_MONTGOMERY" grep -q "Private Key Object; EC_MONTGOMERY" "$WORK/out"
check "vgtoken-util --export-pubkey of the X25519 key" \
	u --export-pubkey --token edx --id 52 -o "$WORK/x.pem"
openssl genpkey -algorithm X25519 -out "$WORK/peer.pem"
openssl pkey -in "$WORK/peer.pem" -pubout -outform DER -out "$WORK/peer.der"
check "openssl derives with the exported X25519 key" \
	openssl pkeyutl -derive -inkey "$WORK/peer.pem" -peerkey "$WORK/x.pem" -out "$WORK/z.openssl"
if tok --derive -m ECDH1-DERIVE --id 52 -i "$WORK/peer.der" -o "$WORK/z.token"; then
	check "the token's ECDH1-DERIVE secret is OpenSSL's" \
		cmp "$WORK/z.openssl" "$WORK/z.token"
else
	echo "note: this pkcs11-tool cannot derive with an X25519 peer key" \
		"($(tail -1 "$WORK/out")); the token side is asserted by" \
		"tests/p11/test_x25519"
fi

# ------------------------------------------------ GnuTLS
if command -v certtool >/dev/null 2>&1 && command -v p11tool >/dev/null 2>&1; then
	client certtool gnutls-bin
	export GNUTLS_PIN=$PIN
	p11v=$(p11tool --version | head -1 | awk '{ print $2 }')
	gt() {
		p11tool --provider "$MODULE" --login "$@" >"$WORK/gt.out" 2>&1
	}
	# GnuTLS pairs Ed25519 with SHA-512; its default SHA-256 finds no
	# signature algorithm.
	check "p11tool --test-sign with the token's Ed25519 key" \
		gt --test-sign --hash sha512 "pkcs11:token=edx;id=%51;type=private"
	check "it signs EdDSA-Ed25519" grep -q "Signing using EdDSA-Ed25519... ok" "$WORK/gt.out"
	check "and verifies with the token's public key" \
		grep -q "Verifying against public key in the token... ok" "$WORK/gt.out"
	# Up to 3.8.1 GnuTLS asks C_GenerateKeyPair for CKM_EDDSA, which
	# PKCS #11 defines for signing and verifying only [PKCS#11 3.2 §6.3];
	# 3.8.2 asks for CKM_EC_EDWARDS_KEY_PAIR_GEN with the same templates
	# (CKA_EC_PARAMS as the RFC 8410 OID).
	if [ "$(printf '3.8.2\n%s\n' "$p11v" | sort -V | head -1)" = 3.8.2 ]; then
		check "p11tool $p11v --generate-privkey ed25519" \
			gt --generate-privkey ed25519 --label gt --outfile "$WORK/gt.pub" "pkcs11:token=edx"
		check "it is listed as an Ed25519 key" sh -c \
			"p11tool --provider '$MODULE' --login --list-privkeys 'pkcs11:token=edx;object=gt' 2>&1 | grep -q 'EdDSA (Ed25519)'"
		check "p11tool --test-sign with it" \
			gt --test-sign --hash sha512 "pkcs11:token=edx;object=gt;type=private"
		check "it verifies with the token's public key" \
			grep -q "Verifying against public key in the token... ok" "$WORK/gt.out"
	else
		check "p11tool $p11v --generate-privkey ed25519 fails" sh -c \
			"! VG_LOG=debug p11tool --provider '$MODULE' --login --generate-privkey ed25519 --label gt --outfile '$WORK/gt.pub' 'pkcs11:token=edx' >'$WORK/gt.out' 2>&1"
		check "the module refused the mechanism (CKR_MECHANISM_INVALID)" \
			grep -q "C_GenerateKeyPair -> CKR_MECHANISM_INVALID" "$WORK/gt.out"
		check "which p11tool reports as an unsupported feature" \
			grep -q "PKCS #11 unsupported feature" "$WORK/gt.out"
		spy=$(dpkg -L opensc-pkcs11 2>/dev/null | grep '/pkcs11-spy\.so$' | head -1) || spy=""
		if [ -n "$spy" ]; then
			PKCS11SPY="$MODULE" PKCS11SPY_OUTPUT="$WORK/spy.log" \
				p11tool --provider "$spy" --login --generate-privkey ed25519 \
				--label gt --outfile "$WORK/gt.pub" "pkcs11:token=edx" >/dev/null 2>&1 || true
			check "the mechanism it asked for is CKM_EDDSA (pkcs11-spy)" sh -c \
				"awk '/C_GenerateKeyPair/ { g = 1 } g && /pMechanism->type/ { print \$NF; exit }' '$WORK/spy.log' | grep -qx CKM_EDDSA"
		fi
		check "and nothing was left behind" \
			sh -c "! p11tool --provider '$MODULE' --login --list-all 'pkcs11:token=edx;object=gt' 2>&1 | grep -q URL"
		echo "note: p11tool $p11v cannot generate an Ed25519 key on a" \
			"PKCS #11 token: GnuTLS before 3.8.2 asks C_GenerateKeyPair for" \
			"CKM_EDDSA, a signing mechanism, not CKM_EC_EDWARDS_KEY_PAIR_GEN;" \
			"GnuTLS 3.8.2 or later generates the key (pkcs11-tool's is used here)"
	fi
	printf 'cn = "vgtoken ed25519"\nexpiration_days = 30\nsigning_key\n' >"$WORK/tmpl"
	check "certtool self-signs with the token's Ed25519 key" \
		certtool --provider "$MODULE" --generate-self-signed \
		--load-privkey "pkcs11:token=edx;id=%51;type=private" \
		--template "$WORK/tmpl" --outfile "$WORK/cert.pem"
	check "an ED25519 signature" \
		sh -c "openssl x509 -in '$WORK/cert.pem' -noout -text | grep -q 'Signature Algorithm: ED25519'"
	check "over the token's key" sh -c \
		"openssl x509 -in '$WORK/cert.pem' -noout -pubkey | cmp -s - '$WORK/ed.pem'"
	check "openssl verifies the certificate" \
		openssl verify -CAfile "$WORK/cert.pem" "$WORK/cert.pem"
	unset GNUTLS_PIN
else
	echo "note: GnuTLS tools not installed (Debian package gnutls-bin):" \
		"certtool step not run"
fi

# ------------------------------------------------ vgtoken-util
check "--keygen ed25519" u --keygen ed25519 --token edx --pin $PIN --label kg-ed
check "--keygen x25519" u --keygen x25519 --token edx --pin $PIN --label kg-x
check "--export-pubkey of the generated Ed25519 key" \
	u --export-pubkey --token edx --label kg-ed -o "$WORK/kg-ed.pem"
check "openssl reads it" \
	sh -c "openssl pkey -pubin -in '$WORK/kg-ed.pem' -noout -text | grep -q 'ED25519 Public-Key'"
check "--export-pubkey of the generated X25519 key" \
	u --export-pubkey --token edx --label kg-x -o "$WORK/kg-x.pem"
check "openssl reads it" \
	sh -c "openssl pkey -pubin -in '$WORK/kg-x.pem' -noout -text | grep -q 'X25519 Public-Key'"
openssl genpkey -algorithm ED25519 -out "$WORK/imp.pem"
openssl pkey -in "$WORK/imp.pem" -pubout -out "$WORK/imp.pub"
check "--import of an OpenSSL Ed25519 PKCS#8 PEM" \
	u --import "$WORK/imp.pem" --token edx --pin $PIN --label imp-ed
check "it says Ed25519" grep -q "imported Ed25519 private key" "$WORK/u.out"
imp_id=$(sed -n 's/.*id=\([0-9a-f]*\).*/\1/p' "$WORK/u.out")
check "--export-pubkey gives OpenSSL's public key back" \
	sh -c "'$UTIL' --export-pubkey --token edx --label imp-ed | cmp -s - '$WORK/imp.pub'"
check "pkcs11-tool signs with the imported key" \
	tok --sign -m EDDSA --id "$imp_id" -i "$WORK/msg" -o "$WORK/imp.sig"
openssl pkeyutl -sign -inkey "$WORK/imp.pem" -rawin -in "$WORK/msg" -out "$WORK/imp.sig.openssl"
check "the same signature as OpenSSL's with the same key" \
	cmp "$WORK/imp.sig" "$WORK/imp.sig.openssl"
openssl genpkey -algorithm X25519 -out "$WORK/impx.pem"
check "--import of an OpenSSL X25519 PKCS#8 PEM" \
	u --import "$WORK/impx.pem" --token edx --pin $PIN --label imp-x
check "--list-objects shows the types" u --list-objects --token edx --pin $PIN
check "ed25519 keys" grep -q "private-key *ed25519.*label=\"imp-ed\"" "$WORK/u.out"
check "x25519 keys" grep -q "private-key *x25519.*label=\"imp-x\"" "$WORK/u.out"
check "a public ed25519 key" grep -q "public-key *ed25519.*label=\"kg-ed\"" "$WORK/u.out"
openssl genpkey -algorithm ED448 -out "$WORK/ed448.pem"
check "an Ed448 key is refused" \
	sh -c "! '$UTIL' --import '$WORK/ed448.pem' --token edx --pin $PIN --label no448 >/dev/null 2>&1"

# A backup of an extractable Ed25519 pair restored into another token
# signs as the original does (Ed25519 signatures are deterministic).
check "--keygen ed25519 --extractable" \
	u --keygen ed25519 --token edx --pin $PIN --label bk-ed --extractable
bk_id=$(sed -n 's/.*id=\([0-9a-f]*\).*/\1/p' "$WORK/u.out")
printf 'a-Long-passphrase-1\n' >"$WORK/pass"
check "token 'edx2'" u --init-token --label edx2 --so-pin 87654321 --pin $PIN
check "--backup" u --backup "$WORK/bk" --token edx --pin $PIN --passphrase-file "$WORK/pass"
check "--restore into edx2" u --restore "$WORK/bk" --token edx2 --pin $PIN --passphrase-file "$WORK/pass"
check "the Ed25519 private key is restored" grep -q "private-key ed25519 id=$bk_id" "$WORK/u.out"
check "it signs on edx" tok --sign -m EDDSA --id "$bk_id" -i "$WORK/msg" -o "$WORK/bk1.sig"
check "and on edx2" sh -c "pkcs11-tool --module '$MODULE' --token-label edx2 --login --pin $PIN --sign -m EDDSA --id '$bk_id' -i '$WORK/msg' -o '$WORK/bk2.sig' >/dev/null 2>&1"
check "the same signature" cmp "$WORK/bk1.sig" "$WORK/bk2.sig"
echo "PASS: $ok checks"
