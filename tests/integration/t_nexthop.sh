#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two real proxies on loopback (issue 18, RFC 7339): an edge (uncapped,
# OVC_DST_ADMIT) relays to a core capped by a cgroup CPU quota, which
# relays to the UAS. The core's capacity is probed first (no control).
#  1. hop: the edge is offered ~4x the core's capacity for SECS s. The
#     core answers with oc in the edge's Via (the edge's ovc.dst shows
#     feedbacks and a reduction under overload, the CSVs oc_sent at the
#     core, oc_received at the edge); the edge refuses (dst_refused) and
#     over the second half the core receives at most 1.5x its capacity of
#     initial INVITEs while the UAS still completes at least half of it
#     (over-throttling is as wrong as none); every request accounted
#     for: both CSVs balanced, the edge's per-second dst counters add up to
#     its ovc.dst totals, every call of the UAC ended (200 or 503), and
#     its 503s are the edge's refusals plus what the core refused.
#  2. local: the core in network_mode local, the edge as before, ~4x: the
#     core refuses for itself and the edge hears no feedback (no oc in
#     the core's responses: ovc.dst without feedbacks, nothing refused).
#     Hop by hop against this local control, over each run's second half:
#     the core receives less than half the INVITEs/s (the edge refuses for
#     it) and the UAS completes at least HOP_MIN (0.8) x as many calls/s.
#  3. direct: a UAC whose Via has no oc straight to the core (hop mode,
#     overloaded at ~2x): no response it gets carries an oc parameter
#     (SIPp -trace_msg), while the core does reject.
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-10000} # 0.1 CPU: ~4x stays within SIPp's reach
PERIOD_US=100000
SECS=${SECS:-15}    # offered load of phase 1
# as long as phase 1: the two second halves compared in (c) are equally
# long (with 8 s, 4 s of local control against 7.5 s of hop by hop, one
# run in three fell to 0.87: 99.9 against 114.2 calls/s)
LOCAL_SECS=${LOCAL_SECS:-$SECS}
DIRECT_SECS=${DIRECT_SECS:-5}
MULT=${MULT:-4}
RX_MAX=${RX_MAX:-1.5}      # core's received INVITEs / capacity, 2nd half
GOOD_MIN=${GOOD_MIN:-0.5}  # UAS completed calls / capacity, 2nd half
HOP_MIN=${HOP_MIN:-0.8}    # hop's completed calls / local control's

CORE_PORT=$PROXY_PORT
EDGE_PORT=$((T_BASE + 5))
DIRECT_PORT=$((T_BASE + 6))
CORE_CTL="unix:$T_DIR/core.ctl"
EDGE_CTL="unix:$T_DIR/edge.ctl"
HOP="udp:127.0.0.1:$CORE_PORT"

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")
# the first probe about 0.75-0.85 of what a tenth of a core handled in
# three full checks (149-178 calls/s at load scale 0.861, 173-207 before
# scaling): two or three steps up instead of five (it began at 120, below
# 0.6 of the capacity)
PROBE_START=$((300 * QUOTA_US / 20000)) probe_capacity "$cg" 4 5 || finish
CAP=$PROBED_CAP
RATE=$((MULT * CAP))
log "core capacity $CAP calls/s at $QUOTA_US/$PERIOD_US us; offering $RATE"

# core NAME MODE / edge NAME MODE: start one proxy (PIDs in CORE/EDGE)
core() {
	CTL=$CORE_CTL kam_start -c "$cg" -n "$1" "OVC_NETWORK_MODE=\"$2\""
	CORE=$T_KPID
}
edge() {
	PROXY_PORT=$EDGE_PORT UAS_PORT=$CORE_PORT CTL=$EDGE_CTL \
		kam_start -n "$1" "OVC_NETWORK_MODE=\"$2\"" OVC_DST_ADMIT
	EDGE=$T_KPID
}
stop_all() {
	T_KPID=$EDGE CTL=$EDGE_CTL kam_stop
	T_KPID=$CORE CTL=$CORE_CTL kam_stop
}
erpc() { kamcmd -s "$EDGE_CTL" "$@"; }
crpc() { kamcmd -s "$CORE_CTL" "$@"; }
# dst_field FILE KEY: KEY of the entry for HOP in an ovc.dst answer
dst_field() {
	awk -v hop="$HOP" -v k="$2:" '
		$1 == "hop:" { on = ($2 == hop) } on && $1 == k { print $2; exit }' "$1"
}
# window FILE COLUMN FROM TO: sum of COLUMN over the rows of seconds
# [FROM, TO) after the first row where the edge saw an INVITE (FIRST)
window() {
	awk -F',' -v col="$2" -v a="$((FIRST + $3))" -v b="$((FIRST + $4))" '
		NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
		c && $1 >= a && $1 < b { s += $c } END { print s + 0 }' "$1"
}

# --- 1. hop by hop
core core1 hop
edge edge1 hop
uas_start uas1
# ovc.dst once a second while the load runs (bounded)
(
	for _ in $(seq 1 $((SECS + 4))); do
		echo "@ $(date +%s)"
		erpc ovc.dst 2>&1 || true
		sleep 1
	done
) >"$T_DIR/dst_polls.txt" 2>&1 &
poller=$!
T_PIDS+=("$poller")
PROXY_PORT=$EDGE_PORT UAC_TIMEOUT=$((SECS + 40)) uac_run uac1 "$RATE" \
	$((RATE * SECS)) -max_retrans 3 -recv_timeout 12000
wait "$poller" 2>/dev/null || true
sleep 2.5 # the last second reaches both histories
uas_stop
erpc ovc.csv >"$T_DIR/edge1.csv"
crpc ovc.csv >"$T_DIR/core1.csv"
erpc ovc.dst >"$T_DIR/dst1.txt"
stop_all

FIRST=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "invite_offered") c = i; next }
	$c > 0 { print $1; exit }' "$T_DIR/edge1.csv")
FIRST=${FIRST:-0}
half=$((SECS / 2))
feedbacks=$(dst_field "$T_DIR/dst1.txt" feedbacks)
passed=$(dst_field "$T_DIR/dst1.txt" passed)
refused=$(dst_field "$T_DIR/dst1.txt" refused)
red_max=$(awk -v hop="$HOP" '$1 == "hop:" { on = ($2 == hop) }
	on && $1 == "reduction:" && $2 > m { m = $2 } END { print m + 0 }' \
	"$T_DIR/dst_polls.txt")
oc_sent=$(csv_sum "$T_DIR/core1.csv" oc_sent)
oc_recv=$(csv_sum "$T_DIR/edge1.csv" oc_received)
d_ref=$(csv_sum "$T_DIR/edge1.csv" dst_refused)
d_pas=$(csv_sum "$T_DIR/edge1.csv" dst_passed)
rx2=$(window "$T_DIR/core1.csv" invite_offered "$half" "$SECS")
ref2=$(window "$T_DIR/edge1.csv" dst_refused "$half" "$SECS")
pas2=$(window "$T_DIR/edge1.csv" dst_passed "$half" "$SECS")
secs2=$((SECS - half))
good2=$(completed_rate uas1 "$half" "$SECS")
calls=$(counts_col uac1 0_INVITE_Sent)
ok200=$(counts_col uac1 5_200_Recv)
r503=$(counts_col uac1 3_503_Recv)
# the edge's tm relays the core's 503 as a 500 (RFC 3261 16.7, 6)
r500=$(counts_col uac1 4_500_Recv)
failed=$(stat_col uac1 'FailedCall(C)')
e_rej=$(csv_sum "$T_DIR/edge1.csv" invite_rejected)
c_rej=$(csv_sum "$T_DIR/core1.csv" invite_rejected)
log "hop: ovc.dst $HOP: feedbacks $feedbacks, passed $passed, refused" \
	"$refused, largest reduction seen $red_max %; oc_sent $oc_sent (core)," \
	"oc_received $oc_recv (edge)"
log "hop: 2nd half: core received $(awk -v a="$rx2" -v s="$secs2" 'BEGIN { printf "%.1f", a / s }')" \
	"INVITEs/s (capacity $CAP), edge refused $ref2 passed $pas2," \
	"UAS completed $good2 calls/s"
log "hop: UAC $calls INVITEs: 200 $ok200, 503 $r503, 500 $r500, failed" \
	"$failed; refusals: edge dst $d_ref + edge ovc $e_rej, core $c_rej"
check "(a) the core answered with oc: the edge took feedback" \
	"$feedbacks > 0 && $oc_recv > 0 && $oc_sent > 0"
check "(a) a reduction was in force at the edge under overload" "$red_max > 0"
check "(b) the edge refused INVITEs for the core" "$d_ref > 0 && $refused > 0"
check "(b) the core received at most ${RX_MAX}x its capacity (2nd half)" \
	"$rx2 <= $RX_MAX * $CAP * $secs2"
check "(b) the UAS completed at least ${GOOD_MIN}x the capacity (2nd half)" \
	"$good2 >= $GOOD_MIN * $CAP"
if bal=$(csv_check "$T_DIR/edge1.csv"); then ok "(e) edge csv balance $bal"; else fail "(e) edge csv balance $bal"; fi
if bal=$(csv_check "$T_DIR/core1.csv"); then ok "(e) core csv balance $bal"; else fail "(e) core csv balance $bal"; fi
# ovc.dst counts from the hop's first feedback on: the INVITEs sent before
# its first response passed without an entry (a handful)
check "(e) the edge's per-second dst counters add up to ovc.dst" \
	"$d_ref == $refused && $d_pas >= $passed && $d_pas - $passed <= 20"
check "(e) every call of the UAC ended with a 200, 503 or 500" \
	"$ok200 + $r503 + $r500 + $failed == $calls && $failed <= 0.01 * $calls"
# a 503 comes from the edge (its refusal or its own ovc), a 500 is the
# core's 503 relayed: at least the edge's, at most the edge's plus every
# core reject (the core also answers retransmissions the edge absorbs)
check "(e) the UAC's 503s and 500s are the edge's refusals plus the core's" \
	"$r503 >= $d_ref + $e_rej && $r503 + $r500 <= $d_ref + $e_rej + $c_rej"
check "(e) what the edge let through reached the core" \
	"$(csv_sum "$T_DIR/core1.csv" invite_offered) >= $d_pas"

# --- 2. the core in network_mode local: no feedback
core core2 local
edge edge2 hop
uas_start uas2
PROXY_PORT=$EDGE_PORT UAC_TIMEOUT=$((LOCAL_SECS + 40)) uac_run uac2 "$RATE" \
	$((RATE * LOCAL_SECS)) -max_retrans 3 -recv_timeout 12000
sleep 2.5
uas_stop
erpc ovc.dst >"$T_DIR/dst2.txt"
erpc ovc.csv >"$T_DIR/edge2.csv"
crpc ovc.csv >"$T_DIR/core2.csv"
stop_all
fb2=$(dst_field "$T_DIR/dst2.txt" feedbacks)
ref2=$(dst_field "$T_DIR/dst2.txt" refused)
c_rej2=$(csv_sum "$T_DIR/core2.csv" invite_rejected)
log "local: ovc.dst feedbacks ${fb2:-none}, refused ${ref2:-none};" \
	"core oc_sent $(csv_sum "$T_DIR/core2.csv" oc_sent), rejected $c_rej2;" \
	"edge oc_received $(csv_sum "$T_DIR/edge2.csv" oc_received)"
check "(c) the core in local mode refused for itself" "$c_rej2 > 0"
check "(c) the edge heard no feedback from a local core" \
	"${fb2:-0} == 0 && ${ref2:-0} == 0 && $(csv_sum "$T_DIR/edge2.csv" oc_received) == 0"
check "(c) the local core wrote no oc" "$(csv_sum "$T_DIR/core2.csv" oc_sent) == 0"
# hop by hop against local control, each over its run's second half
hop_first=$FIRST
FIRST=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "invite_offered") c = i; next }
	$c > 0 { print $1; exit }' "$T_DIR/edge2.csv")
FIRST=${FIRST:-0}
lhalf=$((LOCAL_SECS / 2))
rx_loc=$(window "$T_DIR/core2.csv" invite_offered "$lhalf" "$LOCAL_SECS")
good_loc=$(completed_rate uas2 "$lhalf" "$LOCAL_SECS")
FIRST=$hop_first
rx_hop_s=$(awk -v a="$rx2" -v s="$secs2" 'BEGIN { printf "%.1f", a / s }')
rx_loc_s=$(awk -v a="$rx_loc" -v s="$((LOCAL_SECS - lhalf))" \
	'BEGIN { printf "%.1f", a / s }')
log "hop against local (2nd halves): core received $rx_hop_s against" \
	"$rx_loc_s INVITEs/s, UAS completed $good2 against $good_loc calls/s"
# (2026-11-28: 116.6 against 431.0; an edge that ignores the core's oc
# passes it as many as local control: 430.8 against 433.2)
check "(c) hop by hop spared the core at least half the INVITEs local control had it refuse" \
	"$rx_hop_s < 0.5 * $rx_loc_s"
# 0.8, not the network campaign's targets: over equal halves hop by hop
# completed 0.90 of local control's calls in one run (113.2 against 125.5
# calls/s, 2026-11-28) and less than 0.9 in three runs of four of
# another build's the same evening (the core's CPU in hop mode, issue 41
# item 2), so a bar at 0.9 fails about one run in two; this check is
# against over-throttling (an edge that cuts the core to half),
# bench/campaigns/network.sh measures the rest
check "(c) hop by hop completed at least ${HOP_MIN}x local control's calls/s" \
	"$good2 >= $HOP_MIN * $good_loc"
if bal=$(csv_check "$T_DIR/core2.csv"); then ok "(e) core csv balance $bal"; else fail "(e) core csv balance $bal"; fi

# --- 3. a client without oc straight to the hop-mode core
core core3 hop
uas_start uas3
mkdir -p "$T_DIR/direct"
DRATE=$((2 * CAP))
(cd "$T_DIR/direct" && timeout $((DIRECT_SECS + 30)) sipp -sf "$SCN/uac.xml" \
	-i 127.0.0.1 -p "$DIRECT_PORT" "127.0.0.1:$CORE_PORT" -s ovc \
	-r "$DRATE" -m $((DRATE * DIRECT_SECS)) -d 0 -l 100000 -nostdin \
	-max_retrans 3 -recv_timeout 12000 -trace_msg -message_file msg.log \
	-trace_counts >out.txt 2>&1) || true
sleep 2.5
uas_stop
crpc ovc.csv >"$T_DIR/core3.csv"
T_KPID=$CORE CTL=$CORE_CTL kam_stop
msgs="$T_DIR/direct/msg.log"
resp=$(grep -c '^SIP/2.0 [0-9]' "$msgs" || true)
r503d=$(grep -c '^SIP/2.0 503' "$msgs" || true)
via_oc='^(via|v)[[:space:]]*:.*;[[:space:]]*oc([-=;,[:space:]]|$)'
with_oc=$(grep -ciE "$via_oc" "$msgs" || true)
# the pattern itself finds oc where it is (a Via of the RFC's example)
probe_oc=$(printf 'Via: SIP/2.0/UDP 192.0.2.5:5060;branch=z9hG4bK.1;oc=20;oc-algo="loss"\r\nv: SIP/2.0/UDP a;oc\r\nVia: SIP/2.0/UDP b;ocx=1\r\n' |
	grep -ciE "$via_oc" || true)
log "direct: $resp responses traced ($r503d 503), Via lines with oc:" \
	"$with_oc; core oc_sent $(csv_sum "$T_DIR/core3.csv" oc_sent)," \
	"reduction announced up to $(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "oc_reduction") c = i; next }
		$c > m { m = $c } END { print m + 0 }' "$T_DIR/core3.csv") %"
check "(d) the overloaded core rejected and answered the direct UAC" \
	"$resp > $DRATE && $r503d > 0"
check "(d) the Via pattern finds oc (2 of 3 sample lines)" "$probe_oc == 2"
check "(d) no response to a client without oc carried oc" "$with_oc == 0"
check "(d) the core wrote oc into no response" \
	"$(csv_sum "$T_DIR/core3.csv" oc_sent) == 0"
finish
