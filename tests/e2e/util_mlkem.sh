#!/bin/sh
# ML-KEM key pairs through vgtoken-util end to end: --keygen ml-kem-512,
# -768 and -1024 on a token, --list-objects with the parameter set and
# the default CKA_ID (SHA-1 of the encapsulation key), --export-pubkey as
# a PEM SubjectPublicKeyInfo with the FIPS 203 OID and a BIT STRING of the
# set's encapsulation key size (OpenSSL 3.0 has no ML-KEM: the structure
# is checked with openssl asn1parse). Encapsulation itself is
# tests/p11/test_mlkem.c's (no client of Debian 12 calls
# C_EncapsulateKey).
. "$top_srcdir/tests/e2e/lib.sh"
need openssl "Debian package openssl"
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
PIN=user-Secret-7730

u() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}

check "--init-token" u --init-token --label kem --so-pin so-Secret-1 --pin $PIN
for t in ml-kem-512 ml-kem-768 ml-kem-1024; do
	check "--keygen $t" u --keygen $t --token kem --pin $PIN --label k-$t
	check "--keygen $t says what it made" \
		grep -q "generated ML-KEM-${t#ml-kem-} key pair on token 'kem': id=[0-9a-f]\{40\} label=\"k-$t\"" "$WORK/u.out"
	check "--export-pubkey of the $t key" \
		u --export-pubkey --token kem --label k-$t -o "$WORK/$t.pem"
	check "is a PEM public key" grep -q "^-----BEGIN PUBLIC KEY-----\$" "$WORK/$t.pem"
done
check "--list-objects" u --list-objects --token kem --pin $PIN
cp "$WORK/u.out" "$WORK/list"

# SubjectPublicKeyInfo: id-alg-ml-kem-* with no parameters, and the ek
# (800, 1184, 1568 bytes) in a BIT STRING with no unused bits; the
# default ID of the pair is the SHA-1 of that ek.
for spec in ml-kem-512:1:800 ml-kem-768:2:1184 ml-kem-1024:3:1568; do
	t=${spec%%:*}
	rest=${spec#*:}
	oid=2.16.840.1.101.3.4.4.${rest%%:*}
	ek=${rest#*:}
	openssl asn1parse -in "$WORK/$t.pem" >"$WORK/$t.asn1"
	check "the $t key has OID $oid" grep -q "OBJECT *:$oid\$" "$WORK/$t.asn1"
	check "and a $((ek + 1))-byte BIT STRING" \
		grep -q "l= *$((ek + 1)) prim: BIT STRING" "$WORK/$t.asn1"
	check "and no algorithm parameters" sh -c "! grep -q 'NULL' '$WORK/$t.asn1'"
	openssl base64 -d -in "$WORK/$t.pem" >"$WORK/$t.der"
	tail -c "$ek" "$WORK/$t.der" >"$WORK/$t.ek"
	check "the DER is the SPKI of the $ek-byte key" \
		test "$(wc -c <"$WORK/$t.der")" -eq $((ek + 22))
	id=$(openssl dgst -sha1 -r "$WORK/$t.ek" | cut -d' ' -f1)
	check "--list-objects shows the private key as $t with the ek's SHA-1 as ID" \
		grep -q "private-key $t *id=$id label=\"k-$t\"" "$WORK/list"
	check "and the public key" \
		grep -q "public-key *$t *id=$id label=\"k-$t\"" "$WORK/list"
done

check "an unknown ML-KEM set is a usage error (status 2)" sh -c \
	"ASAN_OPTIONS=detect_leaks=0 '$UTIL' --keygen ml-kem-256 --token kem --pin $PIN >/dev/null 2>'$WORK/err'; test \$? -eq 2"
check "which names the ML-KEM types" grep -q "ml-kem-768" "$WORK/err"

# --backup wraps an extractable ML-KEM private key as PKCS #8 (the seed
# arm of the LAMPS draft) and --restore unwraps it into another token:
# the same CKA_ID, and the same public key exported from both.
check "--keygen ml-kem-768 --extractable" \
	u --keygen ml-kem-768 --token kem --pin $PIN --label bk-kem --extractable
bk_id=$(sed -n 's/.*id=\([0-9a-f]*\).*/\1/p' "$WORK/u.out")
printf 'a-Long-passphrase-1\n' >"$WORK/pass"
check "--backup" u --backup "$WORK/bk" --token kem --pin $PIN --passphrase-file "$WORK/pass"
check "the extractable ML-KEM private key is not skipped" \
	sh -c "! grep -q 'bk-kem' '$WORK/u.err'"
check "the others are, as not extractable" \
	grep -q "^skipped: private-key .*label=\"k-ml-kem-768\": not extractable" "$WORK/u.err"
check "token 'kem2'" u --init-token --label kem2 --so-pin so-Secret-1 --pin $PIN
check "--restore into kem2" u --restore "$WORK/bk" --token kem2 --pin $PIN --passphrase-file "$WORK/pass"
check "the ML-KEM private key is restored" \
	grep -q "private-key .*id=$bk_id" "$WORK/u.out"
check "--export-pubkey from kem" \
	u --export-pubkey --token kem --label bk-kem -o "$WORK/bk1.pem"
check "--export-pubkey from kem2" \
	u --export-pubkey --token kem2 --label bk-kem -o "$WORK/bk2.pem"
check "the same public key" cmp "$WORK/bk1.pem" "$WORK/bk2.pem"
echo "$ok checks passed"
