#!/bin/sh
# vgtoken-util --import of ML-DSA and ML-KEM PKCS#8 files, every set
# (44, 65, 87; 512, 768, 1024). OpenSSL 3.0 knows neither algorithm, so
# tests/e2e/pqkey makes the files with the project's crypto/ from the
# seeds of Wycheproof's vectors (whose public keys the exported ones
# must be): the privateKey CHOICE as seed [0] (PEM), expandedKey and both
# (DER), and with the public key of version 1. Each import makes a
# private and a public key object; --export-pubkey gives the seed's
# SubjectPublicKeyInfo from the token it went into and from a second
# token; the default CKA_ID is the SHA-1 of the public key; and the
# imported keys sign / encapsulate and decapsulate through PKCS#11 with
# results the seed's own keys verify / decapsulate (pqkey use).
# --keygen takes ml-dsa-44/65/87 beside mldsa44/65/87. Then
# wrong files, each refused with its reason, status 1 and nothing
# written: seed and expanded key that disagree, seeds and expanded keys
# of the wrong length, a changed expanded key, algorithm parameters,
# bytes after the CHOICE or after the file's DER, the other family's
# OID, an unknown OID, a public key that is not the key's.
. "$top_srcdir/tests/e2e/lib.sh"
UTIL="$top_builddir/vgtoken-util"
PQ="$top_builddir/tests/e2e/pqkey"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
PIN=user-Secret-7731

u() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}
pq() {
	"$PQ" "$@" 2>"$WORK/pq.err"
}

# Known answers: the first seed and public key of Wycheproof's ML-DSA
# signing and ML-KEM key generation files.
V="$top_srcdir/tests/vectors/wycheproof"
first() { # FILE FIELD: the first value of FIELD in FILE
	grep -o -m1 "\"$2\": \"[0-9a-f]*\"" "$1" | cut -d'"' -f4
}
S32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
S64=${S32}f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f

check "--init-token pq" u --init-token --label pq --so-pin so-Secret-1 --pin $PIN
check "--init-token pq2" u --init-token --label pq2 --so-pin so-Secret-1 --pin $PIN
n=1

# set:name:public key length
for spec in mldsa44:ML-DSA-44:1312 mldsa65:ML-DSA-65:1952 \
	mldsa87:ML-DSA-87:2592 ml-kem-512:ML-KEM-512:800 \
	ml-kem-768:ML-KEM-768:1184 ml-kem-1024:ML-KEM-1024:1568; do
	t=${spec%%:*}
	rest=${spec#*:}
	name=${rest%%:*}
	pklen=${rest#*:}
	case $t in
	mldsa*)
		v=$V/mldsa_${t#mldsa}_sign_seed_test.json
		seed=$(first "$v" privateSeed)
		pkhex=$(first "$v" publicKey)
		;;
	*)
		v=$V/mlkem_${t#ml-kem-}_keygen_seed_test.json
		seed=$(first "$v" seed)
		pkhex=$(first "$v" ek)
		;;
	esac
	check "a seed and its public key from $(basename "$v")" \
		test "${#pkhex}" -eq $((2 * pklen))
	check "pqkey spki $t" pq spki $t $seed "$WORK/$t.spki.pem"
	sed '1d;$d' "$WORK/$t.spki.pem" | base64 -d >"$WORK/$t.spki.der"
	check "which holds the vector's public key" test \
		"$(tail -c "$pklen" "$WORK/$t.spki.der" | od -An -v -tx1 | tr -d ' \n')" = "$pkhex"
	id=$(tail -c "$pklen" "$WORK/$t.spki.der" | sha1sum | cut -d' ' -f1)

	# the seed arm, PEM, default ID; into both tokens
	check "pqkey p8 $t seed" pq p8 $t $seed seed "$WORK/$t-seed.pem"
	check "PEM PRIVATE KEY" grep -q "^-----BEGIN PRIVATE KEY-----\$" "$WORK/$t-seed.pem"
	for tok in pq pq2; do
		check "--import $t (seed) into $tok" \
			u --import "$WORK/$t-seed.pem" --token $tok --pin $PIN --label $t-seed
		check "says what it made, with the public key's SHA-1 as ID" \
			grep -q "^imported $name private key (from its seed) and its public key into token '$tok': id=$id label=\"$t-seed\"\$" "$WORK/u.out"
		check "--export-pubkey $t-seed from $tok" \
			u --export-pubkey --token $tok --label $t-seed -o "$WORK/$t-seed.$tok.pem"
		check "is the seed's public key" cmp "$WORK/$t-seed.$tok.pem" "$WORK/$t.spki.pem"
	done
	check "--import of the same key again is refused (ID in use)" \
		sh -c "! ASAN_OPTIONS=detect_leaks=0 '$UTIL' --import '$WORK/$t-seed.pem' --token pq --pin $PIN >/dev/null 2>'$WORK/err'"
	check "with the ID" grep -q "already" "$WORK/err"

	# expandedKey alone, both, and version 1 with the public key: DER,
	# with their own IDs
	for form in expanded both pub; do
		check "pqkey p8 $t $form" pq p8 $t $seed $form "$WORK/$t-$form.der"
		check "--import $t ($form)" \
			u --import "$WORK/$t-$form.der" --token pq --pin $PIN --label $t-$form --id $(printf %02x $n)
		if [ $form = expanded ]; then
			how="expanded only"
		else
			how="from its seed"
		fi
		check "says it is a $name key ($how)" \
			grep -q "^imported $name private key ($how) and its public key into token 'pq': id=$(printf %02x $n) label=\"$t-$form\"\$" "$WORK/u.out"
		check "--export-pubkey $t-$form" \
			u --export-pubkey --token pq --label $t-$form -o "$WORK/$t-$form.out.pem"
		check "is the seed's public key" cmp "$WORK/$t-$form.out.pem" "$WORK/$t.spki.pem"
		n=$((n + 1))
	done
	check "--list-objects" u --list-objects --token pq --pin $PIN
	check "lists the imported private key as $t" \
		grep -q "private-key *$(echo "$name" | tr A-Z a-z) *id=$id label=\"$t-seed\"" "$WORK/u.out"

	# the imported keys work, with the seed's keys on the other side
	for form in seed expanded; do
		check "the $t key imported by its $form signs / encapsulates for the seed's key" \
			pq use $t $seed pq $PIN $t-$form
	done
done

# --keygen takes the set names --list-objects shows as well.
for t in ml-dsa-44 ml-dsa-65 ml-dsa-87; do
	check "--keygen $t" u --keygen $t --token pq2 --pin $PIN --label gen-$t
	check "makes an $(echo $t | tr a-z A-Z) pair" \
		grep -q "^generated $(echo $t | tr a-z A-Z) key pair on token 'pq2'" "$WORK/u.out"
done

# Wrong files: refused with the reason, status 1, nothing on the token.
u --list-objects --token pq --pin $PIN
cp "$WORK/u.out" "$WORK/before"
refused() {
	# refused FILE MESSAGE
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		"$UTIL" --import "$1" --token pq --pin $PIN --id 7f \
		>"$WORK/r.out" 2>"$WORK/r.err" </dev/null
	rc=$?
	[ $rc -eq 1 ] || { echo "status $rc, not 1"; return 1; }
	grep -q "$2" "$WORK/r.err" || { cat "$WORK/r.err"; return 1; }
	u --list-objects --token pq --pin $PIN
	cmp -s "$WORK/u.out" "$WORK/before" || { echo "the token changed"; return 1; }
}
for spec in mldsa44:ML-DSA-44:32:2560 ml-kem-768:ML-KEM-768:64:2400; do
	t=${spec%%:*}
	rest=${spec#*:}
	name=${rest%%:*}
	rest=${rest#*:}
	slen=${rest%%:*}
	sklen=${rest#*:}
	case $t in mldsa*) seed=$S32 other=ML-KEM-512 ;;
		*) seed=$S64 other=ML-DSA-65 ;;
	esac
	for form in mismatch short-seed short-expanded bad-expanded params \
		inner-trailing other-oid unknown-oid bad-pub; do
		check "pqkey p8 $t $form" pq p8 $t $seed $form "$WORK/$t-$form.der"
	done
	check "$t: seed and expanded key that disagree" refused \
		"$WORK/$t-mismatch.der" "the $name seed and expanded key do not agree"
	check "$t: a seed of $((slen - 1)) bytes" refused \
		"$WORK/$t-short-seed.der" "the $name seed has $((slen - 1)) bytes, not $slen"
	check "$t: an expanded key of $((sklen - 1)) bytes" refused \
		"$WORK/$t-short-expanded.der" "the $name expanded key has $((sklen - 1)) bytes, not $sklen"
	case $t in
	mldsa*) why="is malformed or inconsistent" ;;
	*) why="fails the FIPS 203 hash check" ;;
	esac
	check "$t: a changed expanded key" refused \
		"$WORK/$t-bad-expanded.der" "the $name expanded key $why"
	check "$t: algorithm parameters" refused \
		"$WORK/$t-params.der" "the $name key has algorithm parameters"
	check "$t: a byte after the CHOICE" refused \
		"$WORK/$t-inner-trailing.der" "malformed $name private key"
	check "$t: the key under the other family's OID" refused \
		"$WORK/$t-other-oid.der" "the $other seed has $slen bytes, not"
	check "$t: an unknown OID" refused \
		"$WORK/$t-unknown-oid.der" "not RSA, EC, Ed25519, X25519, ML-DSA or ML-KEM"
	check "$t: a public key that is not the key's" refused \
		"$WORK/$t-bad-pub.der" "the public key is not the private key's"
	cp "$WORK/$t-expanded.der" "$WORK/$t-trailing.der"
	printf '\000' >>"$WORK/$t-trailing.der"
	check "$t: a byte after the DER" refused \
		"$WORK/$t-trailing.der" "1 byte(s) after the DER structure"
done
echo "$ok checks passed"
