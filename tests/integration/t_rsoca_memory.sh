#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# R-SOCA memory control (004 §III-D): INVITEs through the proxy to a UAS
# that never answers, more of them than M_max holds: without control tm
# would keep every one for its fr_timer (30 s here, longer than the
# attack), 1500 live transactions against an M_max of 1250. Memory in use =
# live transactions x S; above M_min the reaper ends INVITE transactions
# older than T_I B with a 500 to the UAC (counted in ovc.stats and the
# CSV), so that memory in use, as ovc measures it and as tm counts its
# transactions (tm.stats, polled), stays below M_max (with the reaper:
# R x (T_I B + tm's 5 s wait after the final answer) = 150 x 6 s, 900
# and some); afterwards Kamailio is up and OPTIONS pass again.
. "$(dirname "$0")/lib.sh"

R=150  # calls/s
DUR=10 # s
N=$((R * DUR))
S=1000            # bytes per transaction (rsoca.s)
MMIN=$((300 * S)) # M_min: 300 live transactions
MMAX=$((1250 * S)) # M_max: 1250 live transactions, below N's 1500

kam_start 'OVC_ALGORITHM="rsoca"' 'TM_FR_TIMER=30000' 'RR_SECRET="memtest"' \
	'OVC_PARAM1="rsoca.mem_source=1"' \
	"OVC_PARAM2=\"rsoca.s=$S\"" "OVC_PARAM3=\"rsoca.mmin_bytes=$MMIN\"" \
	"OVC_PARAM4=\"rsoca.mmax_bytes=$MMAX\""
# T_I B = 0.5 s x 2: an INVITE unanswered for 1 s is over age
rpc ovc.set rsoca.reap_ti_ms 500 >/dev/null
rpc ovc.set rsoca.reap_b 2 >/dev/null
# the ramp's rejects answer 503, so every 500 at the UAC is a reaped one
rpc ovc.set rsoca.reject_code 503 >/dev/null
rpc ovc.stats >"$T_DIR/stats0.txt"
grep -q 'tm: 1' "$T_DIR/stats0.txt" || fail "tm bound (ovc.stats rsoca_mem.tm)"
check "the attack offers more than M_max holds ($N transactions)" \
	"$N * $S > 1.15 * $MMAX"

uas_start silent "$SCN/uas-silent.xml"
# tm's own count of its transactions, every 0.2 s while the attack runs
(while :; do rpc tm.stats | awk '$1 == "current:" { print $2 }'; sleep 0.2
	done) >"$T_DIR/tm_current.txt" 2>/dev/null &
poller=$!
T_PIDS+=("$poller")
start=$(date +%s)
UAC_TIMEOUT=40 uac_run atk "$R" "$N"
log "attack run took $(($(date +%s) - start)) s"
kill "$poller" 2>/dev/null || true
uas_stop
tm_max=$(sort -n "$T_DIR/tm_current.txt" | tail -n1)
sleep 2
rpc ovc.csv >"$T_DIR/ovc.csv"
rpc ovc.stats >"$T_DIR/stats1.txt"

r500=$(counts_col atk 4_500_Recv)
r503=$(counts_col atk 3_503_Recv)
ended=$(awk '$1 == "ended:" { e = 1; next } e && $1 == "invite:" { print $2; exit }' \
	"$T_DIR/stats1.txt")
csv_ended=$(csv_sum "$T_DIR/ovc.csv" reaped_invite)
max_use=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ v = $(c["mem_in_use"]) + 0; if(v > m) m = v } END { print m + 0 }' "$T_DIR/ovc.csv")
max_live=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ v = $(c["live_transactions"]) + 0; if(v > m) m = v } END { print m + 0 }' "$T_DIR/ovc.csv")
mmin_csv=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ v = $(c["mem_min"]) } END { print v + 0 }' "$T_DIR/ovc.csv")
log "UAC: 500=$r500 503=$r503 of $N; ended invite (stats)=$ended (csv)=$csv_ended"
log "memory in use max=$max_use bytes (live max=$max_live; tm.stats current" \
	"max ${tm_max:-none} of $(wc -l <"$T_DIR/tm_current.txt") polls)," \
	"M_min=$MMIN M_max=$MMAX"
check "over-age INVITEs ended with 500 at the UAC" "$r500 >= 100"
# each ended INVITE is answered 500 by the reaper and nothing else answers
# 500 here (the ramp answers 503, tm's fr_timer 408): one for one
check "ended counter up, matches the 500s" "$ended > 0 && $ended == $r500"
# the run ended (the UAC has all its 500s) 2 s before the dump: every
# second that ended one is closed and in the history
check "per-second CSV counts the ended ones" "$csv_ended == $ended"
check "memory in use reached M_min" "$max_use >= $MMIN"
check "memory in use stayed below M_max" "$max_use < $MMAX"
check "tm's transactions stayed below M_max / S" \
	"${tm_max:-0} > 0 && ${tm_max:-0} * $S < $MMAX"
check "CSV shows M_min in force" "$mmin_csv == $MMIN"
csv_check "$T_DIR/ovc.csv" >/dev/null || fail "ovc.csv rows balance"

# in-dialog transactions to a next hop that never answers: ended without
# any reply after T_O B = 1 s x 2, within the UAC's 7 s wait and long
# before tm's fr_timer (30 s: its 408 cannot come in that wait, so any
# answer the UAC gets, of any code, would be ovc's)
rpc ovc.set rsoca.mmin_bytes $((50 * S)) >/dev/null
rpc ovc.set rsoca.reap_to_ms 1000 >/dev/null
# (BYEs of dialogs the proxy signed: the config refuses any other
# in-dialog request with a Route)
ND=300
mkdir -p "$T_DIR/dlg"
{
	echo SEQUENTIAL
	for i in $(seq 1 "$ND"); do
		cid="silent-$i-$$@127.0.0.1"
		echo "$cid;$(printf 'memtest:%s' "$cid" | md5sum | cut -d' ' -f1)"
	done
} >"$T_DIR/dlg/dialogs.csv"
(cd "$T_DIR/dlg" && timeout 40 sipp -sf "$SCN/indialog-silent.xml" -i 127.0.0.1 \
	-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -key uas "127.0.0.1:$((T_BASE + 7))" \
	-inf dialogs.csv \
	-r 100 -m "$ND" -nr -nostdin -trace_counts -fd 1 >out.txt 2>&1) || true
rpc ovc.stats >"$T_DIR/stats2.txt"
d_end=$(awk '$1 == "ended:" { e = 1; next } e && $1 == "indialog:" { print $2; exit }' \
	"$T_DIR/stats2.txt")
d_off=$(stats_class indialog offered)
d408=$(counts_col dlg 1_408_Recv)
d404=$(counts_col dlg 4_404_Recv)
d5xx=$(($(counts_col dlg 2_500_Recv) + $(counts_col dlg 3_503_Recv)))
log "in-dialog: offered=$d_off ended=$d_end; UAC 408=$d408 404=$d404 5xx=$d5xx of $ND"
check "over-age in-dialog transactions ended" "$d_end >= $ND * 0.8"
check "ended in-dialog transactions got no reply (no 408, 404, 500, 503)" \
	"$d408 + $d404 + $d5xx == 0"

# afterwards: up, memory drains, OPTIONS pass (class other is controlled
# by R-SOCA too: wait for P to fall)
kill -0 "$T_KPID" 2>/dev/null && ok "kamailio up" || fail "kamailio died"
uas_start uasopt "$SCN/uas-options.xml"
o200=0
for try in 1 2 3 4 5 6 7 8; do
	sleep 1.5
	mkdir -p "$T_DIR/opt$try"
	(cd "$T_DIR/opt$try" && timeout 20 sipp -sf "$SCN/options.xml" -i 127.0.0.1 \
		-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r 50 -m 20 \
		-nostdin -trace_counts -fd 1 >out.txt 2>&1) || true
	o200=$(counts_col "opt$try" 2_200_Recv)
	[ "$o200" -eq 20 ] && break
done
live_end=$(rpc ovc.stats | awk '$1 == "live:" { l = 1; next } l && $1 == "invite:" { print $2; exit }')
log "OPTIONS answered 200: $o200 of 20 (try $try); live INVITE transactions now $live_end"
check "OPTIONS answered after the attack" "$o200 == 20"

# shutdown with live transactions: tm frees them after ovc's destroy
uas_stop
kpid=$T_KPID
kill "$kpid"
rc=0
wait "$kpid" 2>/dev/null || rc=$?
T_KPID=""
check "kamailio stopped cleanly (exit status $rc)" "$rc == 0"
finish
