#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Forged in-dialog requests (issue 38, item 5). A To-tag and a Route to
# the proxy make an INVITE in-dialog: ovc never refuses one, and a proxy
# whose script relays whatever loose_route() accepts would set up a full
# INVITE transaction to any address, past overload control. With f driven
# to 0 (occ with target 0.01, f_min 0, phi_max 1 and a load of fresh
# INVITEs to a second UAS), forged in-dialog INVITEs (Route to the proxy
# without its signature, with a guessed one, or a top Route to the victim)
# get 403 from configs/ovc-proxy.cfg and nothing reaches the victim, while
# dialogs set up before keep working: their re-INVITE, its ACK and the BYE
# (SIPp, uac-reinvite.xml through the Record-Route the proxy signed) are
# relayed and answered 200.
. "$(dirname "$0")/lib.sh"

LOAD_UAS_PORT=$((T_BASE + 5))
VICTIM_PORT=$((T_BASE + 8))
FORGER_PORT=$((T_BASE + 9))
CALLS=20
NFORGED=30

kam_start 'OVC_ALGORITHM="occ"' 'TM_RETR_T1=500' \
	"NEXT_HOP_ALT=\"sip:127.0.0.1:$LOAD_UAS_PORT\"" || { fail "no start"; finish; }
uas_start uas "$SCN/uas-reinvite.xml"
# the load's own UAS (calls to user "alt" go there)
mkdir -p "$T_DIR/loaduas"
(cd "$T_DIR/loaduas" && exec timeout 120 sipp -sf "$SCN/uas.xml" -i 127.0.0.1 \
	-p "$LOAD_UAS_PORT" -nostdin -trace_counts -fd 1 >out.txt 2>&1) &
T_PIDS+=("$!")

# dialogs, set up at f = 1, held 6 s before their re-INVITE
mkdir -p "$T_DIR/dlg"
(cd "$T_DIR/dlg" && exec timeout 60 sipp -sf "$SCN/uac-reinvite.xml" -i 127.0.0.1 \
	-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r "$CALLS" -m "$CALLS" \
	-d 6000 -nostdin -trace_counts -fd 1 >out.txt 2>&1) &
DLG_PID=$!
T_PIDS+=("$DLG_PID")
sleep 2

# f to 0: occ refuses everything under a light load of fresh INVITEs (no
# onset wait: the controller acts at once)
rpc ovc.set occ.phi_max 1 >/dev/null
rpc ovc.set occ.f_min 0 >/dev/null
rpc ovc.set occ.epoch_ms 100 >/dev/null
rpc ovc.set occ.target 0.01 >/dev/null
rpc ovc.set rxq.onset_ms 0 >/dev/null
mkdir -p "$T_DIR/load"
(cd "$T_DIR/load" && exec timeout 60 sipp -sf "$SCN/uac.xml" -i 127.0.0.1 \
	-p "$((T_BASE + 3))" "127.0.0.1:$PROXY_PORT" -s alt -r 150 -m 1500 -d 0 \
	-nostdin -trace_counts -fd 1 >out.txt 2>&1) &
T_PIDS+=("$!")
# (within 6 s: one run on a loaded machine took f to 0.004 in 3 s; below
# 0.01 the proxy refuses 99 % of the initial INVITEs, which is what the
# forged in-dialog ones must not get around)
f_wait_below 0.001 60
f=$F
log "f=$f before the forged requests"
check "f driven towards 0 (< 0.01)" "$(awk -v f="$f" 'BEGIN { print (f < 0.01) }') == 1"

# the forger: in-dialog INVITEs (a To-tag, a Route) for dialogs that do not
# exist, the Request-URI at the victim; the replies it gets and every
# datagram the victim gets, over 3 s
python3 - "$PROXY_PORT" "$VICTIM_PORT" "$FORGER_PORT" "$NFORGED" \
	>"$T_DIR/forger.txt" <<'EOF'
import socket, sys, time
proxy, victim, me, n = (int(a) for a in sys.argv[1:5])
v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
v.bind(("127.0.0.1", victim))
v.setblocking(False)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", me))
s.setblocking(False)
routes = ["<sip:127.0.0.1:%d;lr>" % proxy,
          "<sip:127.0.0.1:%d;lr;ovcdlg=0123456789abcdef0123456789abcdef>" % proxy,
          "<sip:127.0.0.1:%d;lr>" % victim]
for i in range(n):
    msg = ("INVITE sip:victim@127.0.0.1:%d SIP/2.0\r\n"
           "Via: SIP/2.0/UDP 127.0.0.1:%d;branch=z9hG4bKforged%d\r\n"
           "Route: %s\r\n"
           "From: <sip:attacker@127.0.0.1>;tag=f%d\r\n"
           "To: <sip:victim@127.0.0.1>;tag=nodialog%d\r\n"
           "Call-ID: forged-%d@127.0.0.1\r\n"
           "CSeq: 1 INVITE\r\n"
           "Contact: <sip:attacker@127.0.0.1:%d>\r\n"
           "Max-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
           % (victim, me, i, routes[i % len(routes)], i, i, i, me))
    s.sendto(msg.encode(), ("127.0.0.1", proxy))
    time.sleep(0.01)
codes, got = {}, 0
end = time.time() + 3
while time.time() < end:
    try:
        d = s.recv(65535).decode(errors="replace")
        c = d.split(" ", 2)[1] if d.startswith("SIP/2.0 ") else "req"
        codes[c] = codes.get(c, 0) + 1
    except BlockingIOError:
        pass
    try:
        v.recv(65535)
        got += 1
    except BlockingIOError:
        pass
    time.sleep(0.002)
print("victim", got)
for c in sorted(codes):
    print("code", c, codes[c])
EOF
victim=$(awk '$1 == "victim" { print $2 }' "$T_DIR/forger.txt")
r403=$(awk '$1 == "code" && $2 == 403 { print $3 }' "$T_DIR/forger.txt")
log "forged in-dialog INVITEs: $NFORGED sent; victim got ${victim:-?} datagrams;" \
	"replies: $(awk '$1 == "code" { printf "%s x%s ", $2, $3 }' "$T_DIR/forger.txt")"
check "no forged in-dialog INVITE relayed to the victim" "${victim:-1} == 0"
check "every forged in-dialog INVITE answered 403" "${r403:-0} == $NFORGED"

# the real dialogs' re-INVITEs and BYEs, sent meanwhile at f = 0
wait "$DLG_PID" || true
ok200=$(counts_col dlg 5_200_Recv)
re200=$(counts_col dlg 10_200_Recv)
bye200=$(counts_col dlg 13_200_Recv)
r503=$(counts_col load 3_503_Recv)
log "dialogs: setup 200=$ok200 re-INVITE 200=$re200 BYE 200=$bye200 of $CALLS;" \
	"load: 503=$r503"
check "every dialog set up" "$ok200 == $CALLS"
check "every re-INVITE of a real dialog answered 200 at f=0" "$re200 == $CALLS"
check "every BYE of a real dialog answered 200 at f=0" "$bye200 == $CALLS"
check "the load was refused (f=0)" "$r503 > 100"
finish
