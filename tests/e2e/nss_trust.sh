#!/bin/sh
# NSS trust on the token: certutil -A -h TOKEN stores a certificate and
# its trust flags (a CKO_NSS_TRUST object) on the token rather than in
# the profile's own database; certutil -M changes the flags in place,
# later processes see them, certutil -V builds on them, and certutil -D
# removes the certificate with its trust. A client certificate imported
# this way (-t u,u,u) sits beside its key on the token; nothing reaches
# the profile's own database. With Firefox's newer NSS the same holds for
# the PKCS#11 3.2 trust objects it writes.
. "$top_srcdir/tests/e2e/lib.sh"
need certutil "Debian package libnss3-tools"
need modutil "Debian package libnss3-tools"
need openssl "Debian package openssl"
need vfychain "Debian package libnss3-tools"
need sqlite3 "Debian package sqlite3"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
UTIL="$top_builddir/vgtoken-util"
TOKEN=trust
PIN=user-Secret-3390
DB="sql:$WORK/db"
printf '%s\n' "$PIN" >"$WORK/pin"
head -c 64 /dev/urandom >"$WORK/noise"
client certutil libnss3-tools

check "vgtoken-util --init-token" sh -c "'$UTIL' --init-token --label $TOKEN --so-pin so-Secret-5521 --pin $PIN >'$WORK/out' 2>&1"
check "a new NSS database with the module" nss_db "$WORK/db"

# cu ARGS...: certutil on the token; its output in $WORK/out.
cu() {
	certutil -d "$DB" -h $TOKEN -f "$WORK/pin" "$@" >"$WORK/out" 2>&1 ||
		{ cat "$WORK/out"; return 1; }
}
# The profile's own database: certificates (nssPublic) and trust.
profile_rows() {
	sqlite3 "$WORK/db/cert9.db" "SELECT count(*) FROM nssPublic"
}
# Trust objects on the token (vgtoken-util lists them as "other").
trust_objects() {
	"$UTIL" --list-objects --token $TOKEN 2>/dev/null | grep -c '^other ' || true
}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$WORK/ca.key" -out "$WORK/ca.crt" -subj "/CN=vgtoken trust CA" \
	-days 2 -addext basicConstraints=critical,CA:TRUE \
	-addext keyUsage=critical,keyCertSign >/dev/null 2>&1
check "the profile's database starts empty" test "$(profile_rows)" -eq 0

check "certutil -A -h: the CA certificate with trust CT,C,C" cu -A -n ca -t CT,C,C -a -i "$WORK/ca.crt"
check "certutil -L -h lists it with its trust" sh -c "certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:ca  *CT,C,C\$'"
check "one trust object is on the token" test "$(trust_objects)" -eq 1
check "the profile's database holds no copy" test "$(profile_rows)" -eq 0
certutil -L -d "$DB" >"$WORK/out" 2>&1
check "and certutil -L without -h (the profile) lists no copy" sh -c "! grep -q '^ca ' '$WORK/out'"

# A client key made on the token, its certificate issued by the CA and
# imported the NSS way.
check "certutil -R: a key on the token" cu -R -z "$WORK/noise" -k ec -q nistp256 -s "CN=vgtoken trust user" -o "$WORK/user.csr" -a
printf 'keyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n' >"$WORK/ext"
openssl x509 -req -in "$WORK/user.csr" -CA "$WORK/ca.crt" -CAkey "$WORK/ca.key" \
	-out "$WORK/user.crt" -days 2 -extfile "$WORK/ext" >/dev/null 2>&1
check "certutil -A -h: the client certificate with trust u,u,u" cu -A -n user -t u,u,u -a -i "$WORK/user.crt"
check "certutil -L -h shows u,u,u" sh -c "certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:user  *u,u,u\$'"
check "certutil -K -h pairs the key with the certificate" sh -c "certutil -K -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q ' $TOKEN:user\$'"
# NSS derives u from the key beside the certificate: no trust object.
check "u needs no trust object of its own" test "$(trust_objects)" -eq 1
check "the profile's database still holds nothing" test "$(profile_rows)" -eq 0

# The trust is used: the client certificate's chain verifies for SSL
# client use through the CA's trust on the token.
openssl x509 -in "$WORK/user.crt" -outform der -out "$WORK/user.der"
vfy() {
	vfychain -d "$DB" -W "$WORK/pin" -u 0 "$WORK/user.der" >"$WORK/out" 2>&1
}
check "vfychain: the client certificate's chain is good (CA trusted on the token)" vfy
check "as vfychain says" grep -q "Chain is good" "$WORK/out"

# certutil -M: the flags change in place, in a new process each time.
check "certutil -M: the CA's trust becomes C,C,C" cu -M -n $TOKEN:ca -t C,C,C
check "the next process sees C,C,C" sh -c "certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:ca  *C,C,C\$'"
check "still one trust object for the CA" test "$(trust_objects)" -eq 1
check "certutil -M: the CA is no longer trusted (p,p,p)" cu -M -n $TOKEN:ca -t p,p,p
check "the next process sees p,p,p" sh -c "certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:ca  *p,p,p\$'"
not_vfy() {
	! vfy
}
check "vfychain now finds the chain bad" not_vfy
check "as its issuer is not trusted" grep -q "ERROR -8172" "$WORK/out"
check "certutil -M: CT,C,C again" cu -M -n $TOKEN:ca -t CT,C,C
check "vfychain finds the chain good again" vfy
check "no trust went to the profile's database" test "$(profile_rows)" -eq 0

# certutil -D -h: the certificate goes with its trust.
check "certutil -D -h: the CA certificate" cu -D -n $TOKEN:ca
check "certutil -L -h no longer lists it" sh -c "! certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:ca '"
check "its trust object is gone" test "$(trust_objects)" -eq 0
check "certutil -D -h: the client certificate" cu -D -n $TOKEN:user
check "certutil -L -h lists no certificate" sh -c "! certutil -L -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q '^$TOKEN:'"
check "the key stays on the token" sh -c "certutil -K -d '$DB' -h $TOKEN -f '$WORK/pin' | grep -q 'ec '"

# Newer NSS (Firefox ESR ships its own) writes the PKCS#11 3.2 form,
# CKO_TRUST, to a token that reports version 3.2. Debian's certutil
# runs on Firefox's copy of the libraries when there is one.
ff=$(readlink -f "$(command -v firefox-esr 2>/dev/null)" 2>/dev/null || true)
ffnss=${ff:+$(dirname "$ff")}
if [ -n "$ffnss" ] && [ -r "$ffnss/libnss3.so" ] && [ -r "$ffnss/libsoftokn3.so" ]; then
	echo "client: certutil on $(grep -ao 'Version: NSS [0-9.]*' "$ffnss/libnss3.so" | sed 's/Version: //') from firefox-esr"
	ffcu() {
		LD_LIBRARY_PATH="$ffnss" certutil -d "$DB" -h $TOKEN -f "$WORK/pin" "$@" \
			>"$WORK/out" 2>&1 || { cat "$WORK/out"; return 1; }
	}
	check "Firefox's NSS: certutil -A -h with CT,C,C" ffcu -A -n ca -t CT,C,C -a -i "$WORK/ca.crt"
	check "one (3.2) trust object is on the token" test "$(trust_objects)" -eq 1
	# ffl PATTERN: certutil -L -h lists a line that matches.
	ffl() {
		ffcu -L && grep -q "$1" "$WORK/out"
	}
	check "it lists the trust" ffl "^$TOKEN:ca  *CT,C,C\$"
	check "certutil -M -h: C,, in place" ffcu -M -n $TOKEN:ca -t C,,
	check "the next process sees C,," ffl "^$TOKEN:ca  *C,, *\$"
	check "still one trust object" test "$(trust_objects)" -eq 1
	check "nothing went to the profile's database" test "$(profile_rows)" -eq 0
	check "certutil -D -h removes the certificate and its trust" ffcu -D -n $TOKEN:ca
	check "no trust object is left" test "$(trust_objects)" -eq 0
else
	echo "# no firefox-esr with its own NSS: the CKO_TRUST part is left out"
fi
echo "$ok checks passed"
