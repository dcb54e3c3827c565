#!/bin/sh
# OpenSSL through libp11's pkcs11 engine, with keys made on the token:
# self-signed certificates (`openssl req -x509`), `pkeyutl` signatures and
# decryption, and `s_server` doing TLS handshakes (TLS 1.3 with RSA-PSS and
# ECDSA, TLS 1.2 with RSA PKCS#1) with its key on the token, against
# `s_client` on 127.0.0.1.
. "$top_srcdir/tests/e2e/lib.sh"
need openssl "Debian package openssl"
need pkcs11-tool "Debian package opensc"
ENGINE=$(openssl version -e | sed -n 's/^ENGINESDIR: "\(.*\)"$/\1/p')/pkcs11.so
[ -f "$ENGINE" ] || skip "libp11's engine $ENGINE not found (Debian package libengine-pkcs11-openssl)"
client "openssl $(openssl version | cut -d' ' -f2) with $ENGINE" libengine-pkcs11-openssl

printf 'pbkdf2_iterations = 1000\n' >"$WORK/vgtoken.conf"
export VGTOKEN_CONF="$WORK/vgtoken.conf"
PIN=1234
tok() {
	pkcs11-tool --module "$MODULE" --token-label ossl --login --pin $PIN "$@" >"$WORK/out" 2>&1
}
check "token 'ossl'" "$top_builddir/vgtoken-util" --init-token --label ossl --so-pin 87654321 --pin $PIN
check "an RSA 2048 key pair made on the token" tok --keypairgen --key-type rsa:2048 --id 01 --label rsa
check "an EC P-256 key pair made on the token" tok --keypairgen --key-type EC:prime256v1 --id 02 --label ec
for k in rsa ec; do
	check "its public key ($k) exported" "$top_builddir/vgtoken-util" --export-pubkey --token ossl --label $k -o "$WORK/$k.pub"
done

# The engine is configured in an openssl.cnf of the scenario's own; the
# commands that check the results run without it.
cat >"$WORK/openssl.cnf" <<EOF
openssl_conf = openssl_init

[openssl_init]
engines = engine_section

[engine_section]
pkcs11 = pkcs11_section

[pkcs11_section]
engine_id = pkcs11
dynamic_path = $ENGINE
MODULE_PATH = $MODULE
init = 0
EOF
eng() {
	OPENSSL_CONF="$WORK/openssl.cnf" openssl "$@"
}
RSA="pkcs11:token=ossl;object=rsa;type=private"
EC="pkcs11:token=ossl;object=ec;type=private"

# Certificates: the PIN once with -passin, once in the URI.
check "openssl req -x509 with the RSA key (PIN by -passin)" eng req -new -x509 -engine pkcs11 -keyform engine \
	-key "$RSA" -passin pass:$PIN -subj /CN=localhost -days 2 -out "$WORK/rsa.crt"
check "openssl req -x509 with the EC key (PIN in the URI)" eng req -new -x509 -engine pkcs11 -keyform engine \
	-key "$EC;pin-value=$PIN" -subj /CN=localhost -days 2 -out "$WORK/ec.crt"
for k in rsa ec; do
	openssl x509 -in "$WORK/$k.crt" -noout -pubkey >"$WORK/$k.crt.pub"
	check "the $k certificate holds the token's public key" cmp -s "$WORK/$k.pub" "$WORK/$k.crt.pub"
	check "openssl verify accepts the self-signed $k certificate" openssl verify -CAfile "$WORK/$k.crt" "$WORK/$k.crt"
done
openssl x509 -in "$WORK/ec.crt" -noout -text >"$WORK/out"
check "the EC certificate is signed with ECDSA" grep -q "Signature Algorithm: ecdsa-with-SHA256" "$WORK/out"

# pkeyutl: signatures on a hash, and decryption.
printf 'message to sign\n' >"$WORK/msg"
openssl dgst -sha256 -binary "$WORK/msg" >"$WORK/hash"
pk() {
	eng pkeyutl -engine pkcs11 -keyform engine "$@" 2>"$WORK/err"
}
check "pkeyutl -sign (RSA PKCS#1, SHA-256)" pk -sign -inkey "$RSA;pin-value=$PIN" -pkeyopt digest:sha256 -in "$WORK/hash" -out "$WORK/sig"
check "verified with the public key" openssl pkeyutl -verify -pubin -inkey "$WORK/rsa.pub" -pkeyopt digest:sha256 -in "$WORK/hash" -sigfile "$WORK/sig"
check "pkeyutl -sign (RSA-PSS, SHA-256)" pk -sign -inkey "$RSA;pin-value=$PIN" -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:32 -in "$WORK/hash" -out "$WORK/sig"
check "verified with the public key" openssl pkeyutl -verify -pubin -inkey "$WORK/rsa.pub" -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:32 -in "$WORK/hash" -sigfile "$WORK/sig"
check "pkeyutl -sign (ECDSA)" pk -sign -inkey "$EC;pin-value=$PIN" -in "$WORK/hash" -out "$WORK/sig"
check "verified with the public key" openssl pkeyutl -verify -pubin -inkey "$WORK/ec.pub" -in "$WORK/hash" -sigfile "$WORK/sig"
check "pkeyutl -sign with the key named by its CKA_ID (id=%02)" pk -sign -inkey "pkcs11:token=ossl;id=%02;type=private;pin-value=$PIN" -in "$WORK/hash" -out "$WORK/sig"
check "verified with the EC public key" openssl pkeyutl -verify -pubin -inkey "$WORK/ec.pub" -in "$WORK/hash" -sigfile "$WORK/sig"
printf 'a secret message\n' >"$WORK/pt"
openssl pkeyutl -encrypt -pubin -inkey "$WORK/rsa.pub" -in "$WORK/pt" -out "$WORK/ct"
check "pkeyutl -decrypt (RSA PKCS#1)" pk -decrypt -inkey "$RSA;pin-value=$PIN" -in "$WORK/ct" -out "$WORK/pt2"
check "the plaintext comes back" cmp -s "$WORK/pt" "$WORK/pt2"
for h in sha1 sha256; do
	oaep="-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:$h -pkeyopt rsa_mgf1_md:$h"
	# shellcheck disable=SC2086
	openssl pkeyutl -encrypt -pubin -inkey "$WORK/rsa.pub" $oaep -in "$WORK/pt" -out "$WORK/ct"
	rm -f "$WORK/pt2"
	# shellcheck disable=SC2086
	check "pkeyutl -decrypt (RSA OAEP, $h)" pk -decrypt -inkey "$RSA;pin-value=$PIN" $oaep -in "$WORK/ct" -out "$WORK/pt2"
	check "the plaintext comes back" cmp -s "$WORK/pt" "$WORK/pt2"
done
check "a wrong PIN is refused" sh -c "! OPENSSL_CONF='$WORK/openssl.cnf' openssl pkeyutl -engine pkcs11 -keyform engine -sign -inkey '$EC;pin-value=9999' -in '$WORK/hash' -out '$WORK/sig' >'$WORK/out' 2>&1"
check "as CKR_PIN_INCORRECT" grep -q "PIN incorrect" "$WORK/out"

# TLS: s_server with its key on the token, s_client on 127.0.0.1. The
# server reverses each line it receives (-rev), so a message makes the
# round trip. tls NAME KEY CERT SIGTYPE SERVER-OPTIONS...
tls() {
	name=$1
	key=$2
	cert=$3
	sigtype=$4
	shift 4
	n=$((n + 1))
	# Not through eng(): $! must be the server itself, to stop it by PID.
	OPENSSL_CONF="$WORK/openssl.cnf" openssl s_server -engine pkcs11 -keyform engine \
		-key "$key;pin-value=$PIN" -cert "$cert" -accept 127.0.0.1:0 -naccept 1 -rev "$@" \
		>"$WORK/server$n.out" 2>"$WORK/server$n.err" </dev/null &
	server=$!
	i=0
	port=""
	while [ -z "$port" ] && [ $i -lt 300 ]; do
		kill -0 $server 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
		port=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$WORK/server$n.out")
	done
	check "$name: s_server listens on 127.0.0.1" test -n "$port"
	# The client's input is a FIFO held open until the answer is in.
	rm -f "$WORK/in"
	mkfifo "$WORK/in"
	openssl s_client -connect "127.0.0.1:$port" -CAfile "$cert" -verify_return_error \
		-verify_hostname localhost <"$WORK/in" >"$WORK/client.out" 2>&1 &
	cl=$!
	exec 3>"$WORK/in"
	echo "hello over tls" >&3
	i=0
	while ! grep -q "slt revo olleh" "$WORK/client.out" && [ $i -lt 300 ]; do
		kill -0 $cl 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
		# A line written while the handshake was still running has
		# been seen to go unanswered on a loaded machine: say it again.
		if [ $((i % 50)) -eq 0 ]; then
			echo "hello over tls" >&3
		fi
	done
	exec 3>&-
	rc=0
	wait $cl || rc=$?
	check "$name: s_client ends well" test $rc -eq 0
	check "$name: the server's certificate verifies" grep -q "Verify return code: 0 (ok)" "$WORK/client.out"
	check "$name: the server signed with $sigtype" grep -q "^Peer signature type: $sigtype\$" "$WORK/client.out"
	check "$name: the message goes there and back" grep -q "slt revo olleh" "$WORK/client.out"
	# With -naccept 1 the server ends by itself; stop it if it does not.
	i=0
	while kill -0 $server 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill $server 2>/dev/null || true
	wait $server || true
	server=""
}
n=0
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$WORK"' EXIT
tls "TLS 1.3, RSA" "$RSA" "$WORK/rsa.crt" RSA-PSS
grep -q "TLSv1.3" "$WORK/client.out" || fail "TLS 1.3 was not negotiated"
tls "TLS 1.2, RSA PKCS#1" "$RSA" "$WORK/rsa.crt" RSA -tls1_2 -sigalgs RSA+SHA256
grep -q "Protocol *: TLSv1.2" "$WORK/client.out" || fail "TLS 1.2 was not negotiated"
tls "TLS 1.3, ECDSA" "$EC" "$WORK/ec.crt" ECDSA
trap 'rm -rf "$WORK"' EXIT
echo "$ok checks passed"
