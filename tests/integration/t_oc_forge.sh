#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Forged RFC 7339 feedback (issue 38, items 3, 4 and the send hook of 6).
# An edge (OVC_DST_ADMIT) relays to a core (an ovc proxy, hop mode) on
# HOP_PORT, which relays to the UAS. Before the core starts, a sender
# that saw none of the edge's requests:
#  1. sends the edge, from the core's address and port, a response whose
#     top Via says oc=100 for as long and with as large an oc-seq as the
#     grammar allows: taken, it would refuse every INVITE to the core
#     (and lock out the core's own values);
#  2. sends responses carrying oc from 300 other source ports: taken,
#     they would fill the edge's 256 next-hop entries for good;
#  3. sends the core a datagram whose top Via offers oc but that Kamailio
#     cannot parse (no request admitted): it must not turn on the core's
#     hook on what it sends.
# Then calls go through the edge: every one is set up (the forged value
# is not in force), the edge ignored every forged response
# (oc_unverified), holds at most the core's entry, and took the core's
# genuine feedback (its token verified), with the core's own oc-seq.
# Last, once no client offers oc and the edge's script stops calling
# ovc_dst_admit() (no calls), both proxies set oc out of use again
# (OVC_OC_IDLE_MS, 10 s; polled for at most 25 s).
. "$(dirname "$0")/lib.sh"

CALLS=${CALLS:-30}
RATE=${RATE:-10}
FLOOD=${FLOOD:-300}

HOP_PORT=$((T_BASE + 5))
SENDER_PORT=$((T_BASE + 6))
EDGE_CTL="unix:$T_DIR/edge.ctl"
CORE_CTL="unix:$T_DIR/core.ctl"
HOP="udp:127.0.0.1:$HOP_PORT"

erpc() { kamcmd -s "$EDGE_CTL" "$@"; }
ekey() { CTL=$EDGE_CTL stats_key "$1"; }
ckey() { CTL=$CORE_CTL stats_key "$1"; }
# dst_field FILE KEY: KEY of the entry for HOP in an ovc.dst answer
dst_field() {
	awk -v hop="$HOP" -v k="$2:" '
		$1 == "hop:" { on = ($2 == hop) } on && $1 == k { print $2; exit }' "$1"
}

# send.py MODE: the forging sender (python3, standard library only)
cat >"$T_DIR/send.py" <<'PY'
import socket, sys, time
mode, dst_port = sys.argv[1], int(sys.argv[2])
def resp(via_params, n):
    return ("SIP/2.0 200 OK\r\n"
            "Via: SIP/2.0/UDP 127.0.0.1:%d;branch=z9hG4bKforged%d;%s\r\n"
            "From: <sip:a@127.0.0.1>;tag=f%d\r\n"
            "To: <sip:b@127.0.0.1>;tag=t%d\r\n"
            "Call-ID: forged-%d@127.0.0.1\r\n"
            "CSeq: 1 INVITE\r\n"
            "Content-Length: 0\r\n\r\n"
            % (dst_port, n, via_params, n, n, n)).encode()
if mode == "lockout":
    # from the next hop's own address and port
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", int(sys.argv[3])))
    for i in range(3):
        s.sendto(resp('oc=100;oc-algo="loss";oc-validity=999999999999;'
                      'oc-seq=999999999999.99999', i), ("127.0.0.1", dst_port))
    s.close()
elif mode == "flood":
    socks = []
    for i in range(int(sys.argv[3])):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        s.sendto(resp('oc=100;oc-algo="loss";oc-validity=60000;'
                      'oc-seq=999999999999.99999', 1000 + i),
                 ("127.0.0.1", dst_port))
        time.sleep(0.001)
    for s in socks:
        s.close()
elif mode == "offer":
    # a request line and a Via offering oc, nothing else Kamailio needs
    # (no From, To, Call-ID, CSeq): it cannot be parsed, nor admitted
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", int(sys.argv[3])))
    s.sendto(("INVITE sip:x@127.0.0.1 SIP/2.0\r\n"
              "Via: SIP/2.0/UDP 127.0.0.1:%s;branch=z9hG4bKoffer;oc;"
              "oc-algo=\"loss\"\r\n\r\n" % sys.argv[3]).encode(),
             ("127.0.0.1", dst_port))
    s.close()
PY

# the edge, its next hop HOP_PORT (nothing there yet)
UAS_PORT=$HOP_PORT CTL=$EDGE_CTL kam_start -n edge OVC_DST_ADMIT
EDGE=$T_KPID

# --- 1., 2. forged responses
python3 "$T_DIR/send.py" lockout "$PROXY_PORT" "$HOP_PORT"
python3 "$T_DIR/send.py" flood "$PROXY_PORT" "$FLOOD"
# until the edge read them all: every one ignored, or the table full
# (at most 5 s)
for _ in $(seq 1 50); do
	hops0=$(ekey next_hops)
	unver0=$(ekey oc_unverified)
	[ "${unver0:-0}" -ge $((FLOOD + 3)) ] || [ "${hops0:-0}" -ge 256 ] && break
	sleep 0.1
done
erpc ovc.dst >"$T_DIR/dst0.txt"
log "after the forged responses: edge next_hops $hops0, oc_unverified" \
	"${unver0:-none}; entry for $HOP: reduction" \
	"$(dst_field "$T_DIR/dst0.txt" reduction) seq $(dst_field "$T_DIR/dst0.txt" seq)"
check "(a) no forged response made a next-hop entry (table not filled)" \
	"$hops0 == 0"
check "(a) every forged response was ignored as unverified" \
	"${unver0:-0} >= $((FLOOD + 3))"

# --- 3. the core, and a datagram offering oc that is no request
core_start() {
	PROXY_PORT=$HOP_PORT CTL=$CORE_CTL kam_start -n core
	CORE=$T_KPID
}
core_start
python3 "$T_DIR/send.py" offer "$HOP_PORT" "$SENDER_PORT"
# taken or not within a second (the receiver reads it at once)
for _ in $(seq 1 20); do
	[ "$(ckey oc_in_use)" = 1 ] && break
	sleep 0.05
done
in_use_offer=$(ckey oc_in_use)
log "core after one unparsable datagram offering oc: oc_in_use $in_use_offer"
check "(c) one datagram offering oc does not put oc in use" \
	"$in_use_offer == 0"

# --- calls through the edge to the core
uas_start uas
UAC_TIMEOUT=$((CALLS / RATE + 40)) uac_run uac "$RATE" "$CALLS" \
	-max_retrans 3 -recv_timeout 8000
erpc ovc.dst >"$T_DIR/dst1.txt"
ok200=$(counts_col uac 5_200_Recv)
r503=$(counts_col uac 3_503_Recv)
fb=$(dst_field "$T_DIR/dst1.txt" feedbacks)
seq=$(dst_field "$T_DIR/dst1.txt" seq)
refused=$(dst_field "$T_DIR/dst1.txt" refused)
hops1=$(ekey next_hops)
core_in_use=$(ckey oc_in_use)
log "calls: $CALLS, 200 $ok200, 503 $r503; edge ovc.dst $HOP: feedbacks" \
	"${fb:-none}, seq ${seq:-none}, refused ${refused:-none}; next_hops" \
	"$hops1; core oc_in_use $core_in_use"
check "(b) every call through the edge was set up (no forged value in force)" \
	"$ok200 == $CALLS && $r503 == 0"
check "(b) the core's genuine feedback was taken (token verified)" \
	"${fb:-0} >= $CALLS"
check "(b) with the core's own oc-seq, not the forged one" \
	"\"${seq:-none}\" != \"999999999999.99999\" && \"${seq:-none}\" != \"none\""
check "(b) the edge holds the core's entry only" "$hops1 == 1"
check "(c) the edge's admitted requests offering oc put oc in use at the core" \
	"$core_in_use == 1"
uas_stop

# --- oc out of use again once nobody offers it
for _ in $(seq 1 50); do
	[ "$(ckey oc_in_use)" = 0 ] && [ "$(ekey oc_in_use)" = 0 ] && break
	sleep 0.5
done
c_use=$(ckey oc_in_use)
e_use=$(ekey oc_in_use)
e_off=$(ekey offering)
log "idle: core oc_in_use $c_use, edge oc_in_use $e_use offering $e_off"
check "(c) oc out of use again once no client offers it (core)" "$c_use == 0"
check "(c) oc out of use again once the script stops offering (edge)" \
	"$e_use == 0 && $e_off == 0"
T_KPID=$CORE CTL=$CORE_CTL kam_stop
T_KPID=$EDGE CTL=$EDGE_CTL kam_stop
finish
