#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/soak.sh - does ovc hold for minutes, not seconds? (issue 17)
#
#   bench/soak.sh             # CAP=425 to give the capped proxy's
#                             # capacity (calls/s) instead of measuring it
#                             # (tests/integration/lib.sh, probe_capacity)
#
# 1. The integration proxy (cgroup 20 ms / 100 ms) with ovc's defaults at
#    MULT (3) x CAP for SOAK_S (600) s: Kamailio's shared memory in use
#    every 10 s (core.shmmem), ovc's per-second rows every 60 s (merged),
#    the process list at the start and the end. Pass: shm in use over the
#    last minute within 1 % of the first minute after WARM_S (120) s,
#    every per-second row balanced, the same processes, and the BYEs of
#    admitted calls answered (>= 99.9 %).
# 2. Every algorithm for PHASE_S (60) s at the same load: BYEs of
#    admitted calls answered (>= 99.9 %): in-dialog requests are never
#    refused, whatever the overload.
# Rows in $OUT (bench/results/soak): mem.csv, summary.csv; a line per
# check. Bounded: every SIPp run stops by its call count and a timeout.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/integration/lib.sh"
T_KEEP=1

MULT=${MULT:-3}
SOAK_S=${SOAK_S:-600}
WARM_S=${WARM_S:-120}
PHASE_S=${PHASE_S:-60}
ALGS=${ALGS:-"occ occupancy aro sired bbc pi rsoca"}
QUOTA_US=${QUOTA_US:-20000}
OUT=${OUT:-$here/bench/results/soak}
mkdir -p "$OUT"
cg=$(cg_make "$QUOTA_US" 100000)
if [ -z "${CAP:-}" ]; then
	probe_capacity "$cg" 12 || finish
	CAP=$PROBED_CAP
fi
rate=$(awk "BEGIN { printf \"%d\", $MULT * $CAP + 0.5 }")
log "capacity $CAP calls/s, offered $rate calls/s"
digest=$(sha256sum "$MOD" | cut -c1-12)
[ -s "$OUT/summary.csv" ] || echo "phase,algorithm,secs,offered_cps,bye_sent,bye_answered,bye_pct,shm_first_kb,shm_last_kb,shm_growth_pct,rows,unbalanced,procs_start,procs_end,ovc_digest,date" >"$OUT/summary.csv"

shm_used() { rpc core.shmmem | awk '$1 == "used:" { print $2; exit }'; }
procs() { rpc core.psx | awk '$1 == "PID:" { print $2 }' | sort -n | tr '\n' ' '; }

# bye_done NAME: "sent answered" BYEs at the UAC NAME
bye_done() { echo "$(counts_col "$1" 8_BYE_Sent) $(counts_col "$1" 9_200_Recv)"; }

# --- 1. the soak
kam_start -c "$cg" -n soak 'OVC_ALGORITHM="occ"' || { fail "no start"; finish; }
uas_start soak_uas
UAC_TIMEOUT=$((SOAK_S + 60)) uac_run soak_uac "$rate" $((rate * SOAK_S)) &
uac=$!
T_PIDS+=("$uac")
sleep 5
p0=$(procs)
echo "t_s,shm_used_bytes" >"$OUT/mem.csv"
t=0
: >"$T_DIR/rows.csv"
while kill -0 "$uac" 2>/dev/null && [ "$t" -lt $((SOAK_S + 60)) ]; do
	sleep 10
	t=$((t + 10))
	echo "$t,$(shm_used)" >>"$OUT/mem.csv"
	[ $((t % 60)) -eq 0 ] && rpc ovc.csv 120 >>"$T_DIR/rows.csv"
done
wait "$uac"
sleep 2.5
rpc ovc.csv 120 >>"$T_DIR/rows.csv"
p1=$(procs)
uas_stop
kam_stop
# one header, each second once
awk -F, 'NR == 1 || $1 == "time" { if(!h) { print; h = 1 } next }
	!seen[$1]++' "$T_DIR/rows.csv" >"$T_DIR/merged.csv"
bal=$(csv_check "$T_DIR/merged.csv" 2>/dev/null)
rows=$(sed -n 's/rows=\([0-9]*\).*/\1/p' <<<"$bal")
unb=$(sed -n 's/.*bad=\([0-9]*\).*/\1/p' <<<"$bal")
read -r first last <<<"$(awk -F, -v w="$WARM_S" -v e="$SOAK_S" 'NR > 1 {
	if($1 > w && $1 <= w + 60) { a += $2; na++ }
	if($1 > e - 60 && $1 <= e) { b += $2; nb++ } }
	END { printf "%.0f %.0f\n", na ? a / na / 1024 : 0, nb ? b / nb / 1024 : 0 }' "$OUT/mem.csv")"
growth=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.2f", a > 0 ? 100 * (b - a) / a : 0 }')
read -r bs ba <<<"$(bye_done soak_uac)"
pct=$(awk -v s="$bs" -v a="$ba" 'BEGIN { printf "%.3f", s > 0 ? 100 * a / s : 0 }')
log "soak $SOAK_S s at $rate/s: shm in use ${first} -> ${last} KiB ($growth %)," \
	"rows $rows unbalanced $unb, BYEs answered $ba of $bs ($pct %)"
echo "soak,occ,$SOAK_S,$rate,$bs,$ba,$pct,$first,$last,$growth,$rows,$unb,$(wc -w <<<"$p0"),$(wc -w <<<"$p1"),$digest,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
check "shm in use flat after warm-up (growth < 1 %)" "$growth < 1 && $growth > -50"
check "every per-second row balanced" "$rows > $SOAK_S - 30 && $unb == 0"
[ "$p0" = "$p1" ] && ok "the same Kamailio processes at the end" ||
	fail "processes changed: '$p0' -> '$p1'"
check "BYEs of admitted calls answered (>= 99.9 %)" "$pct >= 99.9"

# --- 2. every algorithm, in-dialog completion
for a in $ALGS; do
	sleep 2
	kam_start -c "$cg" -n "p_$a" "OVC_ALGORITHM=\"$a\"" || { fail "$a: no start"; continue; }
	uas_start "p_${a}_uas"
	UAC_TIMEOUT=$((PHASE_S + 40)) uac_run "p_${a}_uac" "$rate" $((rate * PHASE_S))
	sleep 1
	uas_stop
	kam_stop
	read -r bs ba <<<"$(bye_done "p_${a}_uac")"
	pct=$(awk -v s="$bs" -v a="$ba" 'BEGIN { printf "%.3f", s > 0 ? 100 * a / s : 0 }')
	log "$a at $rate/s: BYEs answered $ba of $bs ($pct %)"
	echo "dialogs,$a,$PHASE_S,$rate,$bs,$ba,$pct,,,,,,,,$digest,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
	check "$a: BYEs of admitted calls answered (>= 99.9 %)" "$pct >= 99.9"
done
log "rows in $OUT/summary.csv, logs in $T_DIR"
finish
