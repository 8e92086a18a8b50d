#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A KEMI script that answers refusals itself (KSR.ovc.admit_flags("noreply"))
# gets every refusal from the first INVITE on (issue 38, item 6): the fast
# path decides at a datagram's arrival, before the script runs, and a KEMI
# script's flags are known only once it has run; it used to refuse with
# ovc's own 503 until some request had reached the script, and at f = 0
# none ever did. Here (app_jsdt, occ driven to f = 0 before any request,
# with the machine's CPU as its measure and a CPU burner) every INVITE
# gets the script's "503 Overloaded (script)", none ovc's reply.
. "$(dirname "$0")/lib.sh"

N=10
SENDER_PORT=$((T_BASE + 9))
CFG="$T_DIR/kemi.cfg"
cat >"$T_DIR/noreply.js" <<'EOF'
function ksr_request_route() {
	var rc = KSR.ovc.admit_flags("noreply");
	if (rc == -1) {
		KSR.sl.sl_send_reply(503, "Overloaded (script)");
		return;
	}
	if (rc == -2) {
		return;
	}
	KSR.sl.sl_send_reply(404, "Admitted (script)");
}
EOF
cat >"$CFG" <<EOF
#!KAMAILIO
debug=1
log_stderror=yes
children=1
auto_aliases=no
listen=LISTEN
disable_tcp=yes
dns=no
rev_dns=no
loadmodule "tm.so"
loadmodule "sl.so"
loadmodule "pv.so"
loadmodule "ctl.so"
loadmodule "kex.so"
loadmodule "app_jsdt.so"
loadmodule OVC_SO
modparam("ctl", "binrpc", CTL_SOCK)
modparam("app_jsdt", "load", "$T_DIR/noreply.js")
modparam("ovc", "algorithm", "occ")
modparam("ovc", "cpu_source", "system")
modparam("ovc", "param", "occ.target=0.01")
modparam("ovc", "param", "occ.f_min=0")
modparam("ovc", "param", "occ.phi_max=1")
modparam("ovc", "param", "occ.epoch_ms=100")
modparam("ovc", "param", "rxq.onset_ms=0")
cfgengine "jsdt"
EOF

kam_start || { fail "no start"; finish; }
# f to 0 before any request: the machine's CPU above occ's target 0.01
burn() { timeout 3 sh -c 'while :; do :; done' & T_PIDS+=("$!"); }
burn
burn
f_wait_below 0.001 30
f=$F
log "f=$f before the first request"
check "f driven to 0 (< 0.001) before any request" \
	"$(awk -v f="$f" 'BEGIN { print (f < 0.001) }') == 1"

python3 - "$PROXY_PORT" "$SENDER_PORT" "$N" >"$T_DIR/replies.txt" <<'EOF'
import socket, sys, time
proxy, me, n = (int(a) for a in sys.argv[1:4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", me))
s.settimeout(0.5)
for i in range(n):
    msg = ("INVITE sip:callee@127.0.0.1:%d SIP/2.0\r\n"
           "Via: SIP/2.0/UDP 127.0.0.1:%d;branch=z9hG4bKkemi%d\r\n"
           "From: <sip:caller@127.0.0.1>;tag=k%d\r\n"
           "To: <sip:callee@127.0.0.1>\r\n"
           "Call-ID: kemi-%d@127.0.0.1\r\n"
           "CSeq: 1 INVITE\r\n"
           "Contact: <sip:caller@127.0.0.1:%d>\r\n"
           "Max-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
           % (proxy, me, i, i, i, me))
    s.sendto(msg.encode(), ("127.0.0.1", proxy))
    line = "none"
    end = time.time() + 1
    while time.time() < end:
        try:
            d = s.recv(65535).decode(errors="replace")
        except socket.timeout:
            break
        first = d.split("\r\n", 1)[0]
        if first.startswith("SIP/2.0 1"):
            continue
        line = first
        break
    print(line)
EOF
script=$(grep -c '^SIP/2.0 503 Overloaded (script)$' "$T_DIR/replies.txt" || true)
log "replies: $(sort "$T_DIR/replies.txt" | uniq -c | tr '\n' ';')"
check "every INVITE refused by the script, from the first on" "$script == $N"
check "the first INVITE refused by the script" \
	"$(head -n1 "$T_DIR/replies.txt" | grep -c 'Overloaded (script)') == 1"
finish
