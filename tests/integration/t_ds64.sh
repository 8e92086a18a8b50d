#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kamailio's own RFC 7339 client in front of an ovc core (issue 42): an
# edge of stock Kamailio (no ovc; configs/ds64-edge.cfg: dispatcher's
# algorithm 64 fed by ds_oc_set_attrs() from the oc parameters of the
# core's responses) relays to a core with ovc (network_mode hop) capped by
# a cgroup CPU quota, which relays to the UAS. Needs Kamailio >= 6.0
# (ds_oc_set_attrs); on an older one it says so and passes without a
# measurement: make check-ds64 runs it in a Debian 13 root (Kamailio 6.0).
# The core's capacity is probed first (no control); the edge is offered
# MULT (default 8) times it for SECS s:
#  (a) the edge offered oc and took the core's feedback: the core wrote oc
#      into its responses (oc_sent), dispatcher.oclist shows a reduction
#      in force and an oc-seq that is the core's wall clock in whole
#      seconds (the script's integer conversion of ovc's oc-seq) and that
#      grew during the run (announcements keep being taken);
#  (b) over the second half the core received at most RX_MAX (1.4) times
#      its capacity of initial INVITEs, and the UAC set up at least
#      GOOD_MIN (0.9) times the capacity within 500 ms (timely goodput);
#  (c) the share of the edge's INVITEs the core received over the second
#      half follows what the core announced: within TOL (0.1) of 1 minus
#      the core's mean announced reduction;
#  (d) every call of the UAC ended (200, 503 or 500), the core's CSV
#      balanced.
# (before lib.sh, which takes the machine's load lock)
kmaj=$(kamailio -V 2>/dev/null | sed -n 's/^version: kamailio \([0-9]*\)\..*/\1/p')
if [ "${kmaj:-0}" -lt 6 ]; then
	echo "[t_ds64] SKIPPED: dispatcher's algorithm 64 needs Kamailio >= 6.0," \
		"this is $(kamailio -V 2>/dev/null | head -n1); make check-ds64 runs" \
		"this test in a Debian 13 root"
	exit 0
fi
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-5000} # 5 % of a core: 8x leaves the machine room
PERIOD_US=100000
SECS=${SECS:-20}
MULT=${MULT:-8}
# core's received INVITEs / capacity, 2nd half: the issue's target is
# 1.25 (bench/campaigns/ds64.sh: 1.21 at 8x); the test leaves room for
# the machine's noise (ovc's own edge took 1.27 in the same campaign)
RX_MAX=${RX_MAX:-1.4}
GOOD_MIN=${GOOD_MIN:-0.9} # timely set-ups / capacity, 2nd half
TOL=${TOL:-0.1}           # |received share - (1 - announced)|

CORE_PORT=$PROXY_PORT
EDGE_PORT=$((T_BASE + 5))
CORE_CTL="unix:$T_DIR/core.ctl"
EDGE_CTL="unix:$T_DIR/edge.ctl"
EDGE_CFG="$TOP/configs/ds64-edge.cfg"
CORE_URI="sip:127.0.0.1:$CORE_PORT"

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")
PROBE_START=$((300 * QUOTA_US / 20000)) probe_capacity "$cg" 4 5 || finish
CAP=$PROBED_CAP
RATE=$((MULT * CAP))
log "core capacity $CAP calls/s at $QUOTA_US/$PERIOD_US us; offering $RATE" \
	"($MULT x) to the dispatcher-64 edge ($(kamailio -V | head -n1))"

echo "1 $CORE_URI" >"$T_DIR/ds.list"
CTL=$CORE_CTL kam_start -c "$cg" -n core 'OVC_NETWORK_MODE="hop"'
CORE=$T_KPID
CFG=$EDGE_CFG PROXY_PORT=$EDGE_PORT CTL=$EDGE_CTL \
	kam_start -n edge "DS_LIST=\"$T_DIR/ds.list\""
EDGE=$T_KPID
erpc() { kamcmd -s "$EDGE_CTL" "$@"; }
crpc() { kamcmd -s "$CORE_CTL" "$@"; }
# the edge is stock Kamailio: no ovc RPC answers there (kamcmd exits 0
# on an unknown command too: its answer tells)
if erpc ovc.stats 2>&1 | grep -q 'algorithm'; then fail "the edge runs ovc"; fi
uas_start uas
# dispatcher.oclist once a second while the load runs (bounded)
(
	for _ in $(seq 1 $((SECS + 4))); do
		echo "@ $(date +%s)"
		erpc dispatcher.oclist 1 2>&1 || true
		sleep 1
	done
) >"$T_DIR/oclist.txt" 2>&1 &
poller=$!
T_PIDS+=("$poller")
PROXY_PORT=$EDGE_PORT UAC_TIMEOUT=$((SECS + 40)) uac_run uac "$RATE" \
	$((RATE * SECS)) -max_retrans 3 -recv_timeout 12000
wait "$poller" 2>/dev/null || true
sleep 2.5 # the last second reaches the core's history
uas_stop
crpc ovc.csv >"$T_DIR/core.csv"
T_KPID=$EDGE CTL=$EDGE_CTL kam_stop
T_KPID=$CORE CTL=$CORE_CTL kam_stop

# the core's rows: FIRST, its first second with an INVITE
col() {
	awk -F',' -v col="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
		c { print $1, $c }' "$1"
}
FIRST=$(col "$T_DIR/core.csv" invite_offered | awk '$2 > 0 { print $1; exit }')
FIRST=${FIRST:-0}
half=$((SECS / 2))
secs2=$((SECS - half))
# sum (or mean) of COLUMN over the core's seconds [FIRST+half, FIRST+SECS)
win() {
	col "$T_DIR/core.csv" "$1" | awk -v a="$((FIRST + half))" \
		-v b="$((FIRST + SECS))" -v m="${2:-sum}" '
		$1 >= a && $1 < b { s += $2; n++ }
		END { if(m == "mean") s = n ? s / n : 0; printf "%.3f\n", s }'
}
rx2=$(win invite_offered)
red2=$(win oc_reduction mean)
oc_sent=$(csv_sum "$T_DIR/core.csv" oc_sent)
# the edge's INVITEs over the same seconds: what the UAC sent in them
# (its stat rows are seconds from its start, the core's first INVITE
# came in its first second)
sent2=$(awk -F';' -v a="$half" -v b="$SECS" '
	NR == 1 { for(i = 1; i <= NF; i++) if($i == "OutgoingCall(C)") c = i; next }
	{ r = NR - 1; if(r == a) va = $c; if(r <= b) vb = $c }
	END { print vb - va }' "$T_DIR/uac/stat.csv")
timely2=$(timely_rate uac "$half" "$SECS")
share=$(awk -v r="$rx2" -v s="$sent2" 'BEGIN { printf "%.3f\n", s ? r / s : 0 }')
calls=$(counts_col uac 0_INVITE_Sent)
ok200=$(counts_col uac 5_200_Recv)
r503=$(counts_col uac 3_503_Recv)
r500=$(counts_col uac 4_500_Recv)
failed=$(stat_col uac 'FailedCall(C)')
# dispatcher.oclist: the core's entry's ocrate and ocseq at each poll
awk '$1 == "@" { t = $2 } /ocrate:/ { r = $2 } /ocseq:/ { print t, r, $2 }' \
	"$T_DIR/oclist.txt" >"$T_DIR/oc_polls.txt"
rate_max=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$T_DIR/oc_polls.txt")
seqs=$(awk '$3 > 0 { print $3 }' "$T_DIR/oc_polls.txt" | sort -un | wc -l)
# an ocseq in force is a wall-clock second of the run (poll time - 4 s
# at the earliest: the 2 s validity, the one-second sampling)
seq_ok=$(awk '$3 > 0 { n++; if($3 <= $1 && $3 >= $1 - 4) k++ }
	END { print (n > 0 && k == n) ? 1 : 0 }' "$T_DIR/oc_polls.txt")
log "edge offered $sent2 INVITEs over the 2nd half, the core received" \
	"$rx2 ($share; announced reduction $red2 % on average);" \
	"$(awk -v a="$rx2" -v s="$secs2" 'BEGIN { printf "%.1f", a / s }')/s" \
	"against capacity $CAP; set up within 500 ms: $timely2/s"
log "oc_sent $oc_sent (core); dispatcher.oclist: ocrate up to $rate_max," \
	"$seqs distinct ocseq, each a second of the run: $seq_ok"
log "UAC $calls INVITEs: 200 $ok200, 503 $r503, 500 $r500, failed $failed"
check "(a) the core answered the edge with oc" "$oc_sent > 0"
check "(a) dispatcher held a reduction from the core's feedback" \
	"$rate_max > 0"
check "(a) the edge took announcements all along (integer oc-seq: seconds of the run, $seqs distinct)" \
	"$seq_ok == 1 && $seqs >= $((SECS / 4))"
check "(b) the core received at most ${RX_MAX}x its capacity (2nd half)" \
	"$rx2 <= $RX_MAX * $CAP * $secs2"
check "(b) timely goodput at least ${GOOD_MIN}x the capacity (2nd half)" \
	"$timely2 >= $GOOD_MIN * $CAP"
check "(c) the core's share of the edge's INVITEs follows its announced reduction (within $TOL)" \
	"$share - (1 - $red2 / 100) <= $TOL && (1 - $red2 / 100) - $share <= $TOL"
# (SIPp counts a few calls twice among them: a 503 to a retransmission)
check "(d) every call of the UAC ended with a 200, 503 or 500" \
	"$ok200 + $r503 + $r500 + $failed >= $calls && $ok200 + $r503 + $r500 + $failed <= 1.001 * $calls && $failed <= 0.01 * $calls"
if bal=$(csv_check "$T_DIR/core.csv"); then ok "(d) core csv balance $bal"; else fail "(d) core csv balance $bal"; fi
finish
