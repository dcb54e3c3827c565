#!/usr/bin/env python3
"""Drives a headless Firefox for tests/e2e/firefox.sh through Marionette.

Firefox must run with --marionette and -remote-allow-system-access, its
profile with marionette.port = 0 (Firefox then writes the port it listens
on into PROFILE/MarionetteActivePort). Protocol: each message is a JSON
array preceded by its length in decimal and a colon; a command is
[0, id, name, parameters], its answer [1, id, error, result].

Usage: marionette.py PROFILE OUTDIR URL..., with the token PIN on
stdin. The script answers Firefox's own PIN prompt the way a user
would: a chrome observer of "common-dialog-loaded" fills in the password
field of the dialog and accepts it. It then loads each URL in turn (the
servers ask for a client certificate) and writes into OUTDIR:
  page-N   the source of the N-th page (from 1), as Firefox shows it
  prompts  the text of each password prompt that was answered
  certs    the user certificates Firefox lists (Certificate Manager's
           "Your Certificates"): one "token<TAB>subject" line each
"""
import json
import os
import socket
import sys
import time


class Marionette:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buf = b""
        self.next_id = 1
        hello = self._read()
        if hello.get("marionetteProtocol") != 3:
            raise RuntimeError("unexpected hello %r" % hello)

    def _read(self):
        while b":" not in self.buf:
            self._fill()
        size, _, rest = self.buf.partition(b":")
        size = int(size)
        self.buf = rest
        while len(self.buf) < size:
            self._fill()
        msg, self.buf = self.buf[:size], self.buf[size:]
        return json.loads(msg)

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise RuntimeError("Marionette closed the connection")
        self.buf += data

    def call(self, name, params=None):
        msg_id = self.next_id
        self.next_id += 1
        data = json.dumps([0, msg_id, name, params or {}]).encode()
        self.sock.sendall(b"%d:%s" % (len(data), data))
        while True:
            reply = self._read()
            if reply[0] == 1 and reply[1] == msg_id:
                break
        if reply[2]:
            raise RuntimeError("%s: %s" % (name, reply[2].get("message")))
        return reply[3]

    def script(self, source, args=None):
        result = self.call("WebDriver:ExecuteScript",
                           {"script": source, "args": args or []})
        return result.get("value")


# Chrome script: answers the token's password prompt with the PIN, as a
# user would type it, and keeps the prompt's text.
ANSWER_PROMPTS = """
const pin = arguments[0];
window.vgPrompts = [];
Services.obs.addObserver(function (win) {
	const doc = win.document;
	const box = doc.getElementById("password1Textbox");
	if (!box || box.closest("[hidden]")) {
		return;
	}
	window.vgPrompts.push(doc.getElementById("infoBody").textContent);
	box.value = pin;
	doc.getElementById("commonDialog").acceptDialog();
}, "common-dialog-loaded");
return true;
"""

# Chrome script: the certificates the Certificate Manager shows under
# "Your Certificates".
USER_CERTS = """
const db = Cc["@mozilla.org/security/x509certdb;1"]
	.getService(Ci.nsIX509CertDB);
return db.getCerts()
	.filter(c => c.certType == Ci.nsIX509Cert.USER_CERT)
	.map(c => c.tokenName + "\\t" + c.subjectName);
"""


def wait_port(profile, deadline):
    path = os.path.join(profile, "MarionetteActivePort")
    while time.time() < deadline:
        try:
            with open(path) as f:
                text = f.read().strip()
            if text:
                return int(text)
        except FileNotFoundError:
            pass
        time.sleep(0.2)
    raise RuntimeError("Firefox did not start Marionette")


def load(m, url):
    m.call("WebDriver:Navigate", {"url": url})
    # The PIN prompt opens a window of its own, and Navigate may return
    # before the page has loaded: wait for it.
    deadline = time.time() + 30
    while True:
        try:
            state = m.script("return [location.href, document.readyState];")
        except RuntimeError:
            # A script sent while the document is being replaced can
            # fail (a timeout, or NS_ERROR_OUT_OF_MEMORY from the
            # sandbox on a loaded machine): ask again until the deadline.
            if time.time() > deadline:
                raise
            state = None
        if state == [url, "complete"] or time.time() > deadline:
            break
        time.sleep(0.2)
    return m.call("WebDriver:GetPageSource").get("value") or ""


def main():
    profile, outdir = sys.argv[1:3]
    urls = sys.argv[3:]
    pin = sys.stdin.readline().rstrip("\n")
    port = wait_port(profile, time.time() + 60)
    m = Marionette(port)
    m.call("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {
        "acceptInsecureCerts": False}}})
    m.call("Marionette:SetContext", {"value": "chrome"})
    m.script(ANSWER_PROMPTS, [pin])
    m.call("Marionette:SetContext", {"value": "content"})
    for i, url in enumerate(urls, 1):
        page = load(m, url)
        with open(os.path.join(outdir, "page-%d" % i), "w") as f:
            f.write(page)
    m.call("Marionette:SetContext", {"value": "chrome"})
    prompts = m.script("return window.vgPrompts;") or []
    certs = m.script(USER_CERTS) or []
    with open(os.path.join(outdir, "prompts"), "w") as f:
        f.write("".join(p + "\n" for p in prompts))
    with open(os.path.join(outdir, "certs"), "w") as f:
        f.write("".join(c + "\n" for c in certs))
    try:
        m.call("Marionette:Quit", {"flags": ["eForceQuit"]})
    except (RuntimeError, OSError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
