#!/bin/sh
# Firefox ESR, headless, with its keys on the token: a fresh profile
# whose NSS database has the module loaded (as the Security Devices
# dialog does it), RSA and EC P-256 keys made on the token by certutil
# and their CA-issued certificates written beside them (the RSA one by
# vgtoken-util, the EC one the NSS way, certutil -A -h -t u,u,u), the
# servers' CA trusted by a trust object on the token (certutil -A -h
# -t C,,) rather than in the profile, and TLS client authentication
# against two OpenSSL servers that each require a client certificate
# from their own CA. Firefox asks for the token PIN in its
# own prompt, which the test answers as a user would (through
# Marionette, tests/e2e/marionette.py), picks each certificate by
# itself, and signs on the token.
#
# Firefox runs in a network namespace that has only the loopback
# interface, with every network service it has turned off as well: it
# cannot reach any other address.
if [ -z "${VG_NETNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
    command -v ip >/dev/null 2>&1 && unshare -n true 2>/dev/null; then
	# shellcheck disable=SC2016
	VG_NETNS=1 exec unshare -n sh -c 'ip link set lo up && exec sh "$0"' "$0"
fi
. "$top_srcdir/tests/e2e/lib.sh"
need firefox-esr "Debian package firefox-esr"
need certutil "Debian package libnss3-tools"
need modutil "Debian package libnss3-tools"
need openssl "Debian package openssl"
need python3 "Debian package python3"
need sqlite3 "Debian package sqlite3"
[ -n "${VG_NETNS:-}" ] ||
	skip "Firefox only runs here in a network namespace of its own (unshare -n, as root, with ip from iproute2)"
# An ASan-built module needs the ASan runtime preloaded into its client,
# and Debian's Firefox (not built with ASan) dies of SIGSEGV at start-up
# with it, before printing anything.
[ -z "$asan_rt" ] ||
	skip "Firefox crashes at start-up with the ASan runtime preloaded, which the ASan-built module needs"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
SO_PIN=so-Secret-8812
PIN=user-Secret-4471
TOKEN=firefox
PROFILE="$WORK/profile"
DB="sql:$PROFILE"
printf '%s\n' "$PIN" >"$WORK/pin"
head -c 64 /dev/urandom >"$WORK/noise"
ff=$(readlink -f "$(command -v firefox-esr)")
nss=$(grep -ao 'Version: NSS [0-9.]*' "$(dirname "$ff")/libnss3.so" 2>/dev/null | sed 's/Version: //')
echo "client: $(firefox-esr --version 2>/dev/null) with ${nss:-its own NSS}"
echo "server: $(openssl version)"

check "only the loopback interface is up" test "$(ip -o link show up | grep -vc ': lo:')" -eq 0
check "vgtoken-util --init-token" sh -c "'$top_builddir/vgtoken-util' --init-token --label $TOKEN --so-pin $SO_PIN --pin $PIN >'$WORK/out' 2>&1"

# Two certificate authorities, as a company would have them: ca1 issues
# the server's certificate and the RSA user's, ca2 the EC user's.
ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$WORK/$1.key" -out "$WORK/$1.crt" -subj "/CN=vgtoken test $1" \
		-days 2 -addext basicConstraints=critical,CA:TRUE \
		-addext keyUsage=critical,keyCertSign >/dev/null 2>&1
}
# issue CA CSR OUT EXTENSIONS
issue() {
	printf '%s\n' "$4" >"$WORK/ext"
	openssl x509 -req -in "$2" -CA "$WORK/$1.crt" -CAkey "$WORK/$1.key" \
		-out "$3" -days 2 -extfile "$WORK/ext" >/dev/null 2>&1
}
ca ca1
ca ca2
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$WORK/server.key" -out "$WORK/server.csr" -subj /CN=127.0.0.1 \
	>/dev/null 2>&1
issue ca1 "$WORK/server.csr" "$WORK/server.crt" "subjectAltName=IP:127.0.0.1
extendedKeyUsage=serverAuth"

# The profile: a new NSS database with the module in it, the key pairs
# made on the token with certutil -R, and the certificates the CAs
# issue for them written onto the token beside their keys. Trust flags
# that certutil -A -h writes go to the token as well (a CKO_NSS_TRUST
# object); a token that refused them would leave them, with a copy of
# the certificate, in the profile's own database, where Firefox finds
# no key beside the copy and sends no certificate.
check "a new profile database with the module" nss_db "$PROFILE"
check "certutil -A -h: the server's CA is trusted on the token" sh -c "certutil -A -d '$DB' -h $TOKEN -f '$WORK/pin' -n 'test ca1' -t C,, -a -i '$WORK/ca1.crt' >'$WORK/out' 2>&1"
for k in rsa ec; do
	case $k in
	rsa) keyargs="-k rsa -g 2048" ca=ca1 ;;
	ec) keyargs="-k ec -q nistp256" ca=ca2 ;;
	esac
	# shellcheck disable=SC2086
	check "certutil -R: an $k key on the token" sh -c "certutil -R -d '$DB' -h $TOKEN -f '$WORK/pin' -z '$WORK/noise' $keyargs -s 'CN=vgtoken $k user,O=vgtoken test' -o '$WORK/$k.csr' -a >'$WORK/out' 2>&1"
	issue "$ca" "$WORK/$k.csr" "$WORK/$k.crt" "keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"
	case $k in
	rsa) check "vgtoken-util --import: its certificate" sh -c "'$top_builddir/vgtoken-util' --import '$WORK/$k.crt' --token $TOKEN --pin $PIN --label '$k user' >'$WORK/out' 2>&1" ;;
	ec) check "certutil -A -h -t u,u,u: its certificate" sh -c "certutil -A -d '$DB' -h $TOKEN -f '$WORK/pin' -n '$k user' -t u,u,u -a -i '$WORK/$k.crt' >'$WORK/out' 2>&1" ;;
	esac
done
certutil -K -d "$DB" -h $TOKEN -f "$WORK/pin" >"$WORK/keys" 2>&1
check "certutil -K pairs the RSA key with its certificate" grep -q "rsa .* $TOKEN:rsa user\$" "$WORK/keys"
check "and the EC key" grep -q "ec .* $TOKEN:ec user\$" "$WORK/keys"
certutil -K -d "$DB" -f "$WORK/pin" >"$WORK/out" 2>&1 || true
check "the profile's own database has no key" grep -q "no keys found" "$WORK/out"
certutil -L -d "$DB" >"$WORK/out" 2>&1
check "nor a copy of a user certificate" sh -c "! grep -q user '$WORK/out'"
check "nor any certificate or trust record" test "$(sqlite3 "$PROFILE/cert9.db" 'SELECT count(*) FROM nssPublic')" -eq 0
check "the CA's trust is on the token" sh -c "certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:test ca1  *C,,'"

cat >"$PROFILE/user.js" <<'EOF'
user_pref("marionette.port", 0);
user_pref("security.default_personal_cert", "Select Automatically");
user_pref("security.osclientcerts.autoload", false);
user_pref("security.enterprise_roots.enabled", false);
user_pref("security.OCSP.enabled", 0);
user_pref("security.remote_settings.crlite_filters.enabled", false);
user_pref("security.remote_settings.intermediates.enabled", false);
user_pref("network.dns.disabled", true);
user_pref("network.proxy.type", 0);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("network.trr.mode", 5);
user_pref("network.dns.disablePrefetch", true);
user_pref("network.prefetch-next", false);
user_pref("network.predictor.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.page", 0);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.newtabpage.enabled", false);
user_pref("browser.safebrowsing.malware.enabled", false);
user_pref("browser.safebrowsing.phishing.enabled", false);
user_pref("browser.safebrowsing.downloads.enabled", false);
user_pref("browser.safebrowsing.blockedURIs.enabled", false);
user_pref("browser.region.network.url", "");
user_pref("geo.provider.network.url", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("toolkit.telemetry.unified", false);
user_pref("app.update.auto", false);
user_pref("app.update.checkInstallTime", false);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("extensions.getAddons.cache.enabled", false);
user_pref("extensions.systemAddon.update.enabled", false);
user_pref("services.settings.server", "http://127.0.0.1:9/");
user_pref("media.gmp-manager.url", "http://127.0.0.1:9/");
EOF

# The servers: each requires a client certificate from its CA.
port_listens() {
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		grep -q ":$(printf %04X "$1") [0:]*:0000 0A"
}
# Whatever is still running when the test ends is stopped.
servers=""
firefox=""
stop_all() {
	# shellcheck disable=SC2086
	kill $firefox $servers 2>/dev/null || true
	for pid in $firefox $servers; do
		wait "$pid" 2>/dev/null || true
	done
	firefox=
	servers=
}
trap 'stop_all; rm -rf "$WORK"' EXIT
for s in 1:ca1 2:ca2; do
	port=$((8442 + ${s%%:*}))
	openssl s_server -accept 127.0.0.1:$port -cert "$WORK/server.crt" \
		-key "$WORK/server.key" -CAfile "$WORK/${s#*:}.crt" -Verify 1 \
		-verify_return_error -www >"$WORK/s_server-${s%%:*}.log" 2>&1 &
	servers="$servers $!"
	i=0
	while [ $i -lt 100 ] && ! port_listens $port; do
		sleep 0.1
		i=$((i + 1))
	done
	port_listens $port || fail "s_server did not start: $(cat "$WORK/s_server-${s%%:*}.log")"
done

mkdir "$WORK/ff"
MOZ_DISABLE_NONLOCAL_CONNECTIONS=1 MOZ_CRASHREPORTER_DISABLE=1 \
	firefox-esr --headless --no-remote --marionette -remote-allow-system-access \
	--profile "$PROFILE" about:blank >"$WORK/firefox.log" 2>&1 &
firefox=$!
check "Firefox loads both pages through Marionette" sh -c "timeout 60 python3 '$top_srcdir/tests/e2e/marionette.py' '$PROFILE' '$WORK/ff' https://127.0.0.1:8443/ https://127.0.0.1:8444/ <'$WORK/pin' >'$WORK/out' 2>&1 || { cat '$WORK/out'; tail -20 '$WORK/firefox.log'; exit 1; }"
i=0
while [ $i -lt 100 ] && kill -0 $firefox 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
stop_all

check "Firefox asked for the token's PIN once" test "$(grep -c . "$WORK/ff/prompts")" -eq 1
check "naming the token" grep -q "($TOKEN)" "$WORK/ff/prompts"
check "\"Your Certificates\" lists the RSA certificate on the token" grep -q "^$TOKEN	CN=vgtoken rsa user,O=vgtoken test\$" "$WORK/ff/certs"
check "and the EC one" grep -q "^$TOKEN	CN=vgtoken ec user,O=vgtoken test\$" "$WORK/ff/certs"
for s in 1:rsa 2:ec; do
	n=${s%%:*}
	k=${s#*:}
	check "server $n verified the $k client certificate" grep -q "^depth=0 O = vgtoken test, CN = vgtoken $k user" "$WORK/s_server-$n.log"
	check "and served its page" grep -q "Subject: O *= *vgtoken test, CN *= *vgtoken $k user" "$WORK/ff/page-$n"
	check "over TLS 1.3" grep -q "Protocol *: *TLSv1.3" "$WORK/ff/page-$n"
done
check "the RSA key signed with RSA-PSS" grep -q "Peer signature type: RSA-PSS" "$WORK/ff/page-1"
check "the EC key with ECDSA" grep -q "Peer signature type: ECDSA" "$WORK/ff/page-2"
echo "$ok checks passed"
