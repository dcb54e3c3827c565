#!/bin/sh
# The demo run by `make demo`: what pkcs11-tool sees of the token.
set -eu
MODULE=$1
p11() {
	echo "\$ pkcs11-tool --module libvgtoken.so $*"
	pkcs11-tool --module "$MODULE" "$@"
	echo
}
msg=$(mktemp)
trap 'rm -f "$msg" "$msg.out"' EXIT
printf 'hello from vgtoken\n' >"$msg"

p11 --show-info
p11 --list-slots
p11 --list-mechanisms
p11 --hash -m SHA256 -i "$msg" -o "$msg.out"
echo "digest:    $(od -An -tx1 -v "$msg.out" | tr -d ' \n')"
echo "sha256sum: $(sha256sum <"$msg" | cut -d' ' -f1)"
echo
p11 --generate-random 16 -o "$msg.out"
echo "random: $(od -An -tx1 -v "$msg.out" | tr -d ' \n')"
