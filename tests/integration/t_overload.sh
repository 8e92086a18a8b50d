#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kamailio capped by a cgroup CPU quota, SIPp offering ~3x its capacity:
# with ovc (occ) a measurable share is rejected with 503, f < 1, the CPU
# is held near the target, and more calls per second complete than with no
# control at all. Numbers are logged; the direction and a margin asserted.
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-20000}	# 0.2 CPU
PERIOD_US=100000
load_scale
# 3x the capped capacity (350 cps where the rates were set, bench/RESULTS.md)
RATE=${RATE:-$(scaled 1050)}
SECS=${SECS:-30}			# offered load duration
WIN_FROM=${WIN_FROM:-15}	# steady-state window [WIN_FROM, SECS]
DONE_MARGIN=${DONE_MARGIN:-1.0}	# completed calls/s: ovc > margin x none
TIMELY_MARGIN=${TIMELY_MARGIN:-1.5}	# timely calls/s: ovc > margin x none

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")

# phase NAME DEFINES...: one run; prints goodput (UAS ACKs/s in the window)
phase() {
	local name=$1
	shift
	kam_start -c "$cg" -n "$name" "$@"
	uas_start "${name}_uas"
	UAC_TIMEOUT=$((SECS + 3)) uac_run "${name}_uac" "$RATE" $((RATE * SECS)) &
	local uac=$!
	if [ "$name" = ovc ]; then
		sleep $((SECS - 2)) # a snapshot while the overload is on
		rpc ovc.stats >"$T_DIR/ovc.stats.txt"
	fi
	wait "$uac"
	if [ "$name" = ovc ]; then
		sleep 2.5 # the last seconds reach the history
		rpc ovc.csv >"$T_DIR/ovc.csv"
	fi
	uas_stop
	kam_stop
	sleep 1
}

phase none NO_OVC
phase ovc 'OVC_ALGORITHM="occ"' ${OVC_EXTRA:-}

win=$((SECS - WIN_FROM))
g_none=$(counts_window none_uas 2_ACK_Recv "$WIN_FROM" "$SECS")
g_ovc=$(counts_window ovc_uas 2_ACK_Recv "$WIN_FROM" "$SECS")
gp_none=$(awk "BEGIN { printf \"%.1f\", $g_none / $win }")
gp_ovc=$(awk "BEGIN { printf \"%.1f\", $g_ovc / $win }")
tm_none=$(awk "BEGIN { printf \"%.1f\", $(timely_window none_uac "$WIN_FROM" "$SECS") / $win }")
tm_ovc=$(awk "BEGIN { printf \"%.1f\", $(timely_window ovc_uac "$WIN_FROM" "$SECS") / $win }")
rej_ovc=$(counts_col ovc_uac 3_503_Recv)
sent_ovc=$(counts_col ovc_uac 0_INVITE_Sent)
retr_none=$(counts_col none_uac 0_INVITE_Retrans)
retr_ovc=$(counts_col ovc_uac 0_INVITE_Retrans)
f=$(awk '$1 == "f:" { print $2 }' "$T_DIR/ovc.stats.txt")
cpu=$(awk '$1 == "cpu_1s:" { print $2 }' "$T_DIR/ovc.stats.txt")
# mean cpu and f over the window's rows of ovc.csv
read -r cpu_mean f_mean <<<"$(awk -F, -v from="$WIN_FROM" '
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ t[NR] = $(c["cpu"]); ff[NR] = $(c["f"]); n = NR }
	END { for(i = 2 + from; i <= n - 2; i++) { s += t[i]; g += ff[i]; k++ }
		if(k) printf "%.3f %.3f\n", s / k, g / k; else print "0 1" }' "$T_DIR/ovc.csv")"

log "offered $RATE cps for ${SECS}s to a proxy capped at $QUOTA_US/$PERIOD_US us"
log "completed calls/s in [$WIN_FROM,$SECS]s: none=$gp_none ovc=$gp_ovc"
log "timely calls/s (INVITE->200 < 500 ms): none=$tm_none ovc=$tm_ovc"
log "INVITE retransmissions: none=$retr_none ovc=$retr_ovc"
log "ovc: 503 received $rej_ovc of $sent_ovc INVITEs; under load f=$f cpu_1s=$cpu;" \
	"window mean cpu=$cpu_mean f=$f_mean"
check "ovc rejects a measurable share with 503" "$rej_ovc > 0.2 * $sent_ovc"
check "ovc.stats shows f < 1" "$f < 1"
check "cpu near the 0.9 target (window mean)" "$cpu_mean >= 0.7 && $cpu_mean <= 1.05"
check "ovc completes more calls/s than no control" \
	"$gp_ovc > $DONE_MARGIN * $gp_none"
check "ovc sets up more calls in time than no control" \
	"$tm_ovc > $TIMELY_MARGIN * $tm_none"
check "ovc cuts the INVITE retransmissions" "$retr_ovc < 0.8 * $retr_none"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
