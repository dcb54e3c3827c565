#!/bin/sh
# The demo run by `make demo`: the token on the embedded default database
# (no configuration file; data under $XDG_DATA_HOME/vgtoken), seen and used
# through OpenSC's pkcs11-tool: a token with PINs, an EC P-256 key pair
# generated on it, a signature made with it and checked by OpenSSL.
set -eu
MODULE=$1
LABEL="vgtoken demo"
SO_PIN=demo-so-pin
PIN=demo-pin
p11() {
	echo "\$ pkcs11-tool --module libvgtoken.so $*"
	pkcs11-tool --module "$MODULE" "$@"
	echo
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'hello from vgtoken\n' >"$tmp/msg"

p11 --show-info
if ! pkcs11-tool --module "$MODULE" -L 2>/dev/null | grep -q "token label *: $LABEL"; then
	slot=$(pkcs11-tool --module "$MODULE" -L | sed -n 's/^Slot [0-9]* (0x\([0-9a-f]*\)).*/\1/p' | tail -1)
	p11 --init-token --slot "0x$slot" --label "$LABEL" --so-pin $SO_PIN
	p11 --token-label "$LABEL" --init-pin --login --login-type so --so-pin $SO_PIN --new-pin $PIN
fi
p11 --list-slots
p11 --token-label "$LABEL" --list-mechanisms
p11 --token-label "$LABEL" --login --pin $PIN --keypairgen --key-type EC:prime256v1 --label "demo key" --id d0
p11 --token-label "$LABEL" --login --pin $PIN --sign -m ECDSA-SHA256 --id d0 -i "$tmp/msg" -o "$tmp/sig" --signature-format openssl
p11 --token-label "$LABEL" --read-object --type pubkey --id d0 -o "$tmp/pub.der"
echo "\$ openssl dgst -sha256 -verify pub.pem -signature sig msg"
openssl pkey -pubin -inform der -in "$tmp/pub.der" -out "$tmp/pub.pem"
openssl dgst -sha256 -verify "$tmp/pub.pem" -signature "$tmp/sig" "$tmp/msg"
echo
p11 --token-label "$LABEL" --login --pin $PIN --delete-object --type privkey --id d0
p11 --token-label "$LABEL" --login --pin $PIN --delete-object --type pubkey --id d0
p11 --hash -m SHA256 -i "$tmp/msg" -o "$tmp/digest"
echo "digest:    $(od -An -tx1 -v "$tmp/digest" | tr -d ' \n')"
echo "sha256sum: $(sha256sum <"$tmp/msg" | cut -d' ' -f1)"
echo
p11 --generate-random 16 -o "$tmp/rand"
echo "random: $(od -An -tx1 -v "$tmp/rand" | tr -d ' \n')"
