#!/bin/sh
# OpenSSH with its keys on the token: RSA-2048 and P-256 key pairs made by
# vgtoken-util; `ssh-keygen -D` lists both as the public keys the token
# exports; `ssh -I` logs in with each to an sshd the test starts on
# 127.0.0.1 (PIN through SSH_ASKPASS, no terminal); `ssh-agent` with
# `ssh-add -s` holds them, `ssh-add -l` lists them, ssh logs in through
# the agent, and after `ssh-add -e` it no longer can.
. "$top_srcdir/tests/e2e/lib.sh"
need ssh "Debian package openssh-client"
need ssh-keygen "Debian package openssh-client"
need ssh-agent "Debian package openssh-client"
need ssh-add "Debian package openssh-client"
need setsid "Debian package util-linux"
need python3 "Debian package python3"
# sshd re-executes itself for each connection, so it must be started by
# its absolute path.
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || skip "$SSHD is not installed (Debian package openssh-server)"
client "OpenSSH $(ssh -V 2>&1 | cut -d, -f1)" openssh-client
UTIL="$top_builddir/vgtoken-util"

export VGTOKEN_CONF="$WORK/vgtoken.conf"
printf 'pbkdf2_iterations = 1000\n' >"$VGTOKEN_CONF"
PIN=user-Secret-6230
TOKEN=ssh
# The module by its real path: ssh-agent's allow-list is matched against
# the path after symbolic links are resolved.
MOD=$(realpath "$MODULE")

u() {
	"$UTIL" "$@" >"$WORK/u.out" 2>"$WORK/u.err" </dev/null
}
check "token '$TOKEN'" u --init-token --label $TOKEN --so-pin so-Secret-1 --pin $PIN
check "an RSA-2048 key pair made on the token" u --keygen rsa2048 --token $TOKEN --pin $PIN --label rsa
check "an EC P-256 key pair made on the token" u --keygen ec --token $TOKEN --pin $PIN --label ec
for k in rsa ec; do
	check "its public key ($k) exported" u --export-pubkey --token $TOKEN --label $k -o "$WORK/$k.pem"
	plain ssh-keygen -i -m PKCS8 -f "$WORK/$k.pem" >"$WORK/$k.ssh"
	check "the $k key in OpenSSH form" test -s "$WORK/$k.ssh"
done
check "the RSA key is ssh-rsa" grep -q "^ssh-rsa " "$WORK/rsa.ssh"
check "the EC key is ecdsa-sha2-nistp256" grep -q "^ecdsa-sha2-nistp256 " "$WORK/ec.ssh"

# ssh-keygen -D prints each key as "TYPE BASE64 LABEL"; the first two
# fields are the key.
check "ssh-keygen -D reads the token" sh -c "ssh-keygen -D '$MOD' </dev/null >'$WORK/keys' 2>'$WORK/keys.err'"
for k in rsa ec; do
	key=$(cut -d' ' -f1,2 "$WORK/$k.ssh")
	check "ssh-keygen -D lists the $k key" grep -q "^$key\\( \\|\$\\)" "$WORK/keys"
done
check "ssh-keygen -D lists nothing else" test "$(grep -c . "$WORK/keys")" -eq 2

# The server: an unprivileged configuration of its own on 127.0.0.1. Run
# as root, sshd still wants its privilege separation directory.
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
	mkdir -p /run/sshd
	chmod 0755 /run/sshd
fi
plain ssh-keygen -q -t ed25519 -N '' -C host -f "$WORK/host_key"
user=$(id -un)
start_sshd() {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$WORK/sshd_config" <<EOF
ListenAddress 127.0.0.1:$port
HostKey $WORK/host_key
PidFile $WORK/sshd.pid
AuthorizedKeysFile $WORK/authorized_keys
AllowUsers $user
UsePAM no
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel VERBOSE
EOF
	# sshd never loads the module: no sanitizer runtime for it. env
	# executes sshd in place, so $! is sshd's PID.
	env -u LD_PRELOAD "$SSHD" -D -e -f "$WORK/sshd_config" >"$WORK/sshd.log" 2>&1 </dev/null &
	sshd=$!
	i=0
	while [ $i -lt 100 ]; do
		grep -q "Server listening on 127.0.0.1 port $port" "$WORK/sshd.log" && return 0
		kill -0 $sshd 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
sshd=""
trap 'kill $sshd $agent 2>/dev/null || true; rm -rf "$WORK"' EXIT
agent=""
tries=0
until start_sshd; do
	wait $sshd 2>/dev/null || true
	sshd=""
	tries=$((tries + 1))
	# Another program may have taken the port between the probe and
	# sshd's bind: try another. Anything else is a reason to stop.
	grep -q "Address already in use" "$WORK/sshd.log" && [ $tries -lt 5 ] && continue
	fail "sshd does not start: $(cat "$WORK/sshd.log")"
done
ok=$((ok + 1))
echo "ok $ok - sshd listens on 127.0.0.1 port $port"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$WORK/host_key.pub")" >"$WORK/known_hosts"

# The PIN comes from SSH_ASKPASS, asked for even without a display; the
# clients have no terminal (setsid) and no standard input.
cat >"$WORK/askpass" <<EOF
#!/bin/sh
echo "\$*" >>"$WORK/askpass.log"
echo '$PIN'
EOF
chmod 0755 "$WORK/askpass"
export SSH_ASKPASS="$WORK/askpass"
export SSH_ASKPASS_REQUIRE=force
unset SSH_AUTH_SOCK DISPLAY

# ssh_login OUT OPTIONS...: ssh to 127.0.0.1, which runs `echo logged-in`.
ssh_login() {
	out=$1
	shift
	setsid -w ssh -F /dev/null -p "$port" -l "$user" \
		-o UserKnownHostsFile="$WORK/known_hosts" -o StrictHostKeyChecking=yes \
		-o PreferredAuthentications=publickey -o PasswordAuthentication=no \
		-o KbdInteractiveAuthentication=no -o ConnectTimeout=20 \
		"$@" 127.0.0.1 echo logged-in >"$WORK/$out" 2>&1 </dev/null ||
		{ cat "$WORK/$out"; tail -5 "$WORK/sshd.log"; return 1; }
}

# ssh -I with each key alone in authorized_keys. Under IdentitiesOnly,
# ssh offers a token key only when an IdentityFile holds its public key.
for k in rsa ec; do
	cp "$WORK/$k.ssh" "$WORK/authorized_keys"
	: >"$WORK/askpass.log"
	check "ssh -I logs in with the $k key" ssh_login login-$k -o IdentitiesOnly=yes \
		-o IdentityFile="$WORK/$k.ssh" -I "$MOD"
	check "the command ran on the server ($k)" grep -qx logged-in "$WORK/login-$k"
	check "the PIN was asked through SSH_ASKPASS ($k)" grep -q "PIN for .$TOKEN." "$WORK/askpass.log"
	check "sshd accepted the $k key" grep -q "Accepted publickey for $user from 127.0.0.1 .*$(cut -d' ' -f1 "$WORK/$k.ssh" | sed 's/ecdsa-sha2-nistp256/ECDSA/; s/ssh-rsa/RSA/')" "$WORK/sshd.log"
done
cp "$WORK/rsa.ssh" "$WORK/authorized_keys"
check "IdentitiesOnly with the EC key's IdentityFile does not offer the RSA key" sh -c "! setsid -w ssh -F /dev/null -p $port -l '$user' \
	-o UserKnownHostsFile='$WORK/known_hosts' -o StrictHostKeyChecking=yes -o PreferredAuthentications=publickey \
	-o IdentitiesOnly=yes -o IdentityFile='$WORK/ec.ssh' -I '$MOD' 127.0.0.1 echo logged-in >'$WORK/login-only' 2>&1 </dev/null"
check "and the command did not run" sh -c "! grep -qx logged-in '$WORK/login-only'"
check "without IdentitiesOnly, PKCS11Provider offers every token key" ssh_login login-opt -o PKCS11Provider="$MOD"
check "the command ran on the server (PKCS11Provider)" grep -qx logged-in "$WORK/login-opt"

# A wrong PIN: no login.
cat >"$WORK/askpass-bad" <<EOF
#!/bin/sh
echo 'wrong-pin-0000'
EOF
chmod 0755 "$WORK/askpass-bad"
check "a wrong PIN: no login" sh -c "! SSH_ASKPASS='$WORK/askpass-bad' setsid -w ssh -F /dev/null -p $port -l '$user' \
	-o UserKnownHostsFile='$WORK/known_hosts' -o StrictHostKeyChecking=yes -o PreferredAuthentications=publickey \
	-I '$MOD' 127.0.0.1 echo logged-in >'$WORK/login-bad' 2>&1 </dev/null"
check "and the command did not run" sh -c "! grep -qx logged-in '$WORK/login-bad'"
check "because the token refused the PIN" grep -q "PIN incorrect" "$WORK/login-bad"
# BatchMode forbids the PIN prompt, so the token key cannot sign.
check "ssh -I with BatchMode=yes cannot log in" sh -c "! setsid -w ssh -F /dev/null -p $port -l '$user' \
	-o UserKnownHostsFile='$WORK/known_hosts' -o StrictHostKeyChecking=yes -o BatchMode=yes \
	-I '$MOD' 127.0.0.1 echo logged-in >'$WORK/login-batch' 2>&1 </dev/null"
check "because ssh may not ask for the PIN" grep -q "pin required" "$WORK/login-batch"
# Undo the failed login: the user PIN counter starts again at zero.
check "the right PIN logs in again" ssh_login login-again -I "$MOD"

# ssh-agent: its allow-list must name the module, which is not under
# /usr/lib.
cat "$WORK/rsa.ssh" "$WORK/ec.ssh" >"$WORK/authorized_keys"
export SSH_AUTH_SOCK="$WORK/agent.sock"
# ssh-agent is set-group-ID, so the dynamic loader drops LD_PRELOAD and
# the ssh-pkcs11-helper it starts could not load an ASan-built module:
# the agent is then given a helper that puts the preload back.
if [ -n "$asan_rt" ]; then
	cat >"$WORK/pkcs11-helper" <<EOF
#!/bin/sh
LD_PRELOAD="$LD_PRELOAD" ASAN_OPTIONS="$ASAN_OPTIONS" exec /usr/lib/openssh/ssh-pkcs11-helper "\$@"
EOF
	chmod 0755 "$WORK/pkcs11-helper"
	export SSH_PKCS11_HELPER="$WORK/pkcs11-helper"
fi
ssh-agent -D -a "$SSH_AUTH_SOCK" -P "$MOD" >"$WORK/agent.log" 2>&1 </dev/null &
agent=$!
i=0
while [ ! -S "$SSH_AUTH_SOCK" ] && [ $i -lt 100 ]; do
	kill -0 $agent 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
check "ssh-agent listens" test -S "$SSH_AUTH_SOCK"
: >"$WORK/askpass.log"
check "ssh-add -s adds the token's keys" sh -c "setsid -w ssh-add -s '$MOD' >'$WORK/add.out' 2>&1 </dev/null"
check "ssh-add -s asked for the PIN through SSH_ASKPASS" grep -q "PKCS#11" "$WORK/askpass.log"
ssh-add -L >"$WORK/agent-keys" 2>&1 || true
for k in rsa ec; do
	key=$(cut -d' ' -f1,2 "$WORK/$k.ssh")
	check "ssh-add -L shows the $k key" grep -q "^$key " "$WORK/agent-keys"
done
ssh-add -l >"$WORK/agent-list" 2>&1 || true
check "ssh-add -l lists the RSA key" grep -q "^2048 SHA256:.* (RSA)\$" "$WORK/agent-list"
check "ssh-add -l lists the EC key" grep -q "^256 SHA256:.* (ECDSA)\$" "$WORK/agent-list"
check "ssh logs in through the agent" ssh_login login-agent -o BatchMode=yes
check "the command ran on the server (agent)" grep -qx logged-in "$WORK/login-agent"
for k in rsa ec; do
	cp "$WORK/$k.ssh" "$WORK/authorized_keys"
	check "through the agent with the $k key alone" ssh_login login-agent-$k -o BatchMode=yes
done
cat "$WORK/rsa.ssh" "$WORK/ec.ssh" >"$WORK/authorized_keys"
check "ssh-add -e removes the token's keys" sh -c "ssh-add -e '$MOD' >'$WORK/remove.out' 2>&1 </dev/null"
check "ssh-add -l then lists none" sh -c "! ssh-add -l >'$WORK/agent-list' 2>&1"
check "ssh through the agent then fails" sh -c "! setsid -w ssh -F /dev/null -p $port -l '$user' \
	-o UserKnownHostsFile='$WORK/known_hosts' -o StrictHostKeyChecking=yes -o BatchMode=yes \
	127.0.0.1 echo logged-in >'$WORK/login-none' 2>&1 </dev/null"
check "with a refusal from the server" grep -q "Permission denied (publickey)" "$WORK/login-none"
check "no PIN in sshd's log" sh -c "! grep -q '$PIN' '$WORK/sshd.log'"

kill $agent $sshd 2>/dev/null || true
wait $agent $sshd 2>/dev/null || true
trap 'rm -rf "$WORK"' EXIT
echo "$ok checks passed"
