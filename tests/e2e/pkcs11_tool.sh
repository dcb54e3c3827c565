#!/bin/sh
# OpenSC's pkcs11-tool against the built module: information, mechanisms,
# digests (compared with coreutils) and random bytes.
. "$top_srcdir/tests/e2e/lib.sh"
need pkcs11-tool "Debian package opensc"

p11() {
	pkcs11-tool --module "$MODULE" "$@"
}

p11 --show-info >"$WORK/info" 2>&1 || fail "pkcs11-tool --show-info: $(cat "$WORK/info")"
check "--show-info names the library" grep -q "vgtoken" "$WORK/info"
check "--show-info reports Cryptoki 3.2" grep -Eq "Cryptoki version *3\.2" "$WORK/info"

p11 --list-slots >"$WORK/slots" 2>&1 || fail "--list-slots failed"
check "--list-slots shows a slot" grep -q "Slot 0 (0x1)" "$WORK/slots"
check "--list-slots shows the slot description" grep -q "vgtoken slot 1" "$WORK/slots"
check "the token is not initialised yet" grep -qi "uninitialized" "$WORK/slots"

p11 --list-mechanisms >"$WORK/mechs" 2>&1 || fail "--list-mechanisms failed"
for m in SHA-1 SHA224 SHA256 SHA384 SHA512; do
	check "--list-mechanisms lists $m" grep -q "^ *$m, digest" "$WORK/mechs"
done
check "--list-mechanisms lists SHA3-256" grep -Eq "SHA3-256|0x000002b0" "$WORK/mechs"

head -c 100000 /dev/urandom >"$WORK/msg"
: >"$WORK/empty"
for pair in SHA-1:sha1sum SHA224:sha224sum SHA256:sha256sum \
	SHA384:sha384sum SHA512:sha512sum; do
	mech=${pair%%:*}
	tool=${pair#*:}
	for f in msg empty; do
		p11 --hash -m "$mech" -i "$WORK/$f" -o "$WORK/$f.$mech" \
			>/dev/null 2>&1 || fail "--hash -m $mech failed"
		want=$($tool <"$WORK/$f" | cut -d' ' -f1)
		got=$(od -An -tx1 -v "$WORK/$f.$mech" | tr -d ' \n')
		check "--hash -m $mech of $f matches $tool" test "$got" = "$want"
	done
done
# SHA3 by mechanism number, against OpenSSL when it is there.
if command -v openssl >/dev/null 2>&1; then
	p11 --hash -m 0x2b0 -i "$WORK/msg" -o "$WORK/msg.sha3" >/dev/null 2>&1 \
		|| fail "--hash -m 0x2b0 (SHA3-256) failed"
	want=$(openssl dgst -sha3-256 -r "$WORK/msg" | cut -d' ' -f1)
	got=$(od -An -tx1 -v "$WORK/msg.sha3" | tr -d ' \n')
	check "--hash SHA3-256 matches openssl" test "$got" = "$want"
fi

p11 --generate-random 64 -o "$WORK/rand" >/dev/null 2>&1 || fail "--generate-random failed"
check "--generate-random 64 gives 64 bytes" test "$(wc -c <"$WORK/rand")" -eq 64
p11 --generate-random 64 -o "$WORK/rand2" >/dev/null 2>&1 || fail "--generate-random failed"
check "two random draws differ" sh -c "! cmp -s '$WORK/rand' '$WORK/rand2'"
echo "$ok checks passed"
