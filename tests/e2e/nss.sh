#!/bin/sh
# NSS's own tools against the token: the module added to a new NSS
# database with modutil, keys and self-signed certificates made on the
# token by certutil (RSA and EC P-256) and paired with their keys by
# CKA_ID, and TLS on 127.0.0.1: selfserv serving with its keys on the
# token (RSA PKCS#1, RSA-PSS, ECDSA; TLS 1.2 and 1.3), and tstclnt
# authenticating to a server that requires a client certificate with
# its key on the token.
#
# selfserv listens on every address: where it can (as root), the script
# runs in a network namespace of its own that has only the loopback
# interface.
if [ -z "${VG_NETNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
    command -v ip >/dev/null 2>&1 && unshare -n true 2>/dev/null; then
	# shellcheck disable=SC2016
	VG_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi
. "$top_srcdir/tests/e2e/lib.sh"
need certutil "Debian package libnss3-tools"
need modutil "Debian package libnss3-tools"
need selfserv "Debian package libnss3-tools"
need tstclnt "Debian package libnss3-tools"
need pkcs11-tool "Debian package opensc"
need openssl "Debian package openssl"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
SO=87654321
PIN=1234
DB="sql:$WORK/db"
mkdir "$WORK/db" "$WORK/cdb"
printf '%s\n' "$PIN" >"$WORK/pin"
printf '9999\n' >"$WORK/badpin"
head -c 64 /dev/urandom >"$WORK/noise"
printf 'GET / HTTP/1.0\r\n\r\n' >"$WORK/request"

# A fresh token, as pkcs11-tool makes one.
p11() {
	pkcs11-tool --module "$MODULE" "$@" >"$WORK/out" 2>&1
}
check "pkcs11-tool --init-token" p11 --init-token --slot 1 --label nss --so-pin $SO
check "pkcs11-tool --init-pin" p11 --token-label nss --init-pin --login --login-type so --so-pin $SO --new-pin $PIN

# The module in a new NSS database, as Firefox's "Load" device dialog
# does it.
check "certutil -N (a new database)" certutil -N -d "$DB" --empty-password
check "modutil -add" sh -c "modutil -add vgtoken -libfile '$MODULE' -dbdir '$DB' -force >'$WORK/out' 2>&1"
modutil -list -dbdir "$DB" >"$WORK/list" 2>&1
echo "client: NSS $(grep -o 'NSS%20Internal%20Crypto%20Services;library-version=[0-9.]*' "$WORK/list" | sed 's/.*=//') (certutil, modutil, pk12util, selfserv, tstclnt)"
echo "server: $(openssl version)"
check "modutil -list shows the module" grep -q "^ *[0-9]*\. vgtoken$" "$WORK/list"
check "with its library" grep -q "library name: $MODULE" "$WORK/list"
check "and the token" grep -q "token: nss$" "$WORK/list"
check "with a pkcs11: URI naming it" grep -q "uri: pkcs11:token=nss;manufacturer=vgtoken;" "$WORK/list"

# certutil: keys and certificates on the token.
cu() {
	certutil -d "$DB" -h nss -f "$WORK/pin" "$@" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out"; return 1; }
}
cu -K || true
check "certutil -K: an empty token has no keys" grep -q "no keys found" "$WORK/out"
check "certutil -S: RSA 2048 key and certificate on the token" cu -S -z "$WORK/noise" -n rsa-srv -m 1 -s "CN=127.0.0.1,O=vgtoken rsa" -x -t CTu,, -k rsa -g 2048 -v 2 -8 127.0.0.1
check "certutil -S: EC P-256 key and certificate on the token" cu -S -z "$WORK/noise" -n ec-srv -m 2 -s "CN=127.0.0.1,O=vgtoken ec" -x -t CTu,, -k ec -q nistp256 -v 2 -8 127.0.0.1
check "certutil -S: an RSA key for a client certificate" cu -S -z "$WORK/noise" -n rsa-cli -m 3 -s "CN=vgtoken rsa client" -x -t u,, -k rsa -g 2048 -v 2
check "certutil -S: an EC key for a client certificate" cu -S -z "$WORK/noise" -n ec-cli -m 4 -s "CN=vgtoken ec client" -x -t u,, -k ec -q nistp256 -v 2
check "certutil -K lists the keys after login" cu -K
for n in rsa-srv ec-srv rsa-cli ec-cli; do
	check "certutil -K names the $n key after its certificate" grep -q "nss:$n\$" "$WORK/out"
done
cp "$WORK/out" "$WORK/keys"
check "certutil -L lists the certificates" cu -L
check "as the user's (trust u)" grep -q "^nss:rsa-srv  *CTu,u,u" "$WORK/out"
# certutil -K prints each key's CKA_ID; the certificate with that label
# has the same one.
pkcs11-tool --module "$MODULE" --token-label nss -O --type cert >"$WORK/certs" 2>&1
for n in rsa-srv ec-cli; do
	id=$(sed -n "s/.* \([0-9a-f]\{40\}\)  *nss:$n\$/\1/p" "$WORK/keys")
	check "the $n certificate has its key's CKA_ID" sh -c \
		"grep -A4 'label: *$n\$' '$WORK/certs' | grep -q 'ID: *$id\$'"
done
check "a wrong PIN is refused" sh -c "! certutil -d '$DB' -h nss -f '$WORK/badpin' -K >'$WORK/out' 2>&1"
check "as SEC_ERROR_BAD_PASSWORD" grep -q SEC_ERROR_BAD_PASSWORD "$WORK/out"
# The private keys stay on the token.
p11 --token-label nss --login --pin $PIN -O --type privkey
check "the keys are made sensitive and never extractable" test \
	"$(grep -c 'Access: *sensitive, always sensitive, never extractable, local' "$WORK/out")" -eq 4
certutil -d "$DB" -K -h "NSS Certificate DB" -f "$WORK/pin" >"$WORK/out" 2>&1 || true
check "NSS's own key database holds none" grep -q "no keys found" "$WORK/out"
printf 'export\n' >"$WORK/p12pin"
check "pk12util cannot export a key" sh -c "! pk12util -o '$WORK/k.p12' -n nss:rsa-srv -d '$DB' -k '$WORK/pin' -w '$WORK/p12pin' >'$WORK/out' 2>&1"

# TLS on 127.0.0.1. start_server LOG COMMAND...: starts a server that
# listens on $port, trying other ports while the one picked is taken;
# its PID in $server.
port_listens() {
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		grep -q ":$(printf %04X "$1") [0:]*:0000 0A"
}
start_server() {
	log=$1
	shift
	tries=0
	while [ $tries -lt 10 ]; do
		tries=$((tries + 1))
		port=$(($(od -An -N2 -tu2 /dev/urandom) % 20000 + 30000))
		port_listens $port && continue
		# shellcheck disable=SC2046
		"$@" $(echo "$SERVER_PORT_ARGS" | sed "s/PORT/$port/g") >"$log" 2>&1 &
		server=$!
		i=0
		while [ $i -lt 200 ] && kill -0 $server 2>/dev/null; do
			port_listens $port && return 0
			sleep 0.1
			i=$((i + 1))
		done
		stop_server
	done
	fail "no server started: $(cat "$log")"
}
# client ARGS...: tstclnt to the server started last, the request on
# its standard input; what it printed in $WORK/tst.
client() {
	timeout 20 tstclnt -h 127.0.0.1 -p "$port" "$@" <"$WORK/request" \
		>"$WORK/tst" 2>&1 || { cat "$WORK/tst"; return 1; }
}
stop_server() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
	fi
	server=
}
server=
trap 'stop_server; rm -rf "$WORK"' EXIT

# The client's database trusts the two server certificates.
CDB="sql:$WORK/cdb"
certutil -N -d "$CDB" --empty-password
for n in rsa-srv ec-srv; do
	certutil -L -d "$DB" -h nss -f "$WORK/pin" -n "nss:$n" -a >"$WORK/$n.pem"
	certutil -A -d "$CDB" -n "$n" -t P,, -a -i "$WORK/$n.pem"
done

# selfserv with its key on the token, once for each key (with both at
# once, selfserv 3.87 offers no TLS 1.2 RSA suite, on NSS's own database
# too); tstclnt asks for each signature scheme in turn. The module's
# trace shows what the server asked of it.
SERVER_PORT_ARGS="-p PORT"
for k in rsa ec; do
	start_server "$WORK/selfserv-$k.log" env VG_LOG=debug selfserv \
		-d "$DB" -f "$WORK/pin" -n nss:$k-srv -v
	case $k in
	rsa) schemes="tls1.3:rsa_pss_rsae_sha256 tls1.2:rsa_pkcs1_sha256" ;;
	ec) schemes="tls1.3:ecdsa_secp256r1_sha256 tls1.2:ecdsa_secp256r1_sha256" ;;
	esac
	for t in $schemes; do
		v=${t%%:*}
		s=${t#*:}
		check "tstclnt $v $s: handshake" client -d "$CDB" -V "$v:$v" -J "$s" -v
		check "with the server signing $s" grep -q "Signature Scheme: $s" "$WORK/tst"
		check "and the request served" grep -q "^HTTP/1.0 200 OK" "$WORK/tst"
	done
	stop_server
done
cat "$WORK/selfserv-rsa.log" "$WORK/selfserv-ec.log" >"$WORK/selfserv.log"
check "selfserv copied its keys (C_CopyObject)" grep -q "C_CopyObject -> CKR_OK" "$WORK/selfserv.log"
check "and signed on the token" grep -q "C_Sign -> CKR_OK" "$WORK/selfserv.log"
check "and nothing it asked failed" sh -c "! grep -E 'C_(CopyObject|Sign[A-Za-z]*) -> CKR_[A-Z]' '$WORK/selfserv.log' | grep -v CKR_OK"
check "selfserv reports the TLS 1.3 handshakes" grep -q "Server Auth: 2048-bit TLS 1.3" "$WORK/selfserv-rsa.log"
check "and the ECDSA ones" grep -q "Server Auth: 256-bit ECDSA" "$WORK/selfserv-ec.log"

# Client authentication: OpenSSL's s_server requires a client
# certificate and trusts the two client certificates; tstclnt signs
# with the key on the token.
certutil -L -d "$DB" -h nss -f "$WORK/pin" -n nss:rsa-cli -a >"$WORK/clients.pem"
certutil -L -d "$DB" -h nss -f "$WORK/pin" -n nss:ec-cli -a >>"$WORK/clients.pem"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$WORK/s.key" -out "$WORK/s.crt" -subj /CN=127.0.0.1 -days 2 \
	-addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
certutil -A -d "$DB" -n s_server -t P,, -i "$WORK/s.crt" -a
SERVER_PORT_ARGS="-accept 127.0.0.1:PORT"
for t in tls1.3:rsa tls1.2:rsa tls1.3:ec tls1.2:ec; do
	v=${t%%:*}
	k=${t#*:}
	start_server "$WORK/s_server.log" openssl s_server -cert "$WORK/s.crt" \
		-key "$WORK/s.key" -CAfile "$WORK/clients.pem" -Verify 1 \
		-verify_return_error -www
	check "tstclnt $v with the $k client key on the token" client -d "$DB" -W "$WORK/pin" -n "nss:$k-cli" -V "$v:$v"
	check "the page is served" grep -q "^HTTP/1.0 200 ok" "$WORK/tst"
	check "s_server verified the $k client certificate" grep -q "depth=0 CN = vgtoken $k client" "$WORK/s_server.log"
	check "and shows it on the page" grep -q "Subject: CN *= *vgtoken $k client" "$WORK/tst"
	stop_server
done
echo "$ok checks passed"
