#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/soak.sh - does ovc hold for minutes, not seconds? (issue 17)
#
#   bench/campaigns/soak.sh             # CAP=425 to give the capped proxy's
#                             # capacity (calls/s) instead of measuring it
#                             # (tests/integration/lib.sh, probe_capacity)
#
# 1. The integration proxy (cgroup 20 ms / 100 ms) with ovc's defaults:
#    a warm-up of WARM_S (120) s, then MULT (3) x CAP for SOAK_S (600) s
#    without a pause. Kamailio's shared memory in use (core.shmmem) once
#    the warm-up's transactions are gone (tm.stats current 0) and again
#    once the soak's are: growth < 1 %. Under load, every 10 s (mem.csv;
#    in-flight transactions make it swing by tens of %, so it is shown,
#    not judged). ovc's per-second rows of the whole run (merged): every
#    one balanced; the same Kamailio processes from start to end; the
#    BYEs of admitted calls answered (>= 99.9 %).
# 2. Every algorithm for PHASE_S (60) s at the same load: BYEs of
#    admitted calls answered (>= 99.9 %): in-dialog requests are never
#    refused, whatever the overload.
# Rows in $OUT (bench/results/soak): mem.csv, summary.csv; a line per
# check. Bounded: every SIPp run stops by its call count and a timeout.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_num MULT "${MULT:-3}"
bench_int SOAK_S "${SOAK_S:-600}"
bench_int WARM_S "${WARM_S:-120}"
bench_int PHASE_S "${PHASE_S:-60}"
bench_int QUOTA_US "${QUOTA_US:-20000}"
[ -z "${CAP:-}" ] || bench_num CAP "$CAP"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
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
[ -s "$OUT/summary.csv" ] || echo "phase,algorithm,secs,offered_cps,bye_sent,bye_answered,bye_pct,shm_idle_warm_kb,shm_idle_end_kb,shm_growth_pct,shm_load_first_kb,shm_load_last_kb,rows,unbalanced,procs_start,procs_end,ovc_digest,date" >"$OUT/summary.csv"

shm_used() { rpc core.shmmem | awk '$1 == "used:" { print $2; exit }'; }
procs() { rpc core.psx | awk '$1 == "PID:" { print $2 }' | sort -n | tr '\n' ' '; }
tm_current() { rpc tm.stats | awk '$1 == "current:" { print $2; exit }'; }

# shm_idle: shared memory in use once no transaction is left (at most
# 90 s of waiting), the least of three readings 1 s apart
shm_idle() {
	local i
	for i in $(seq 1 90); do
		[ "$(tm_current)" = 0 ] && break
		sleep 1
	done
	[ "$(tm_current)" = 0 ] || log "transactions left: $(tm_current)"
	for i in 1 2 3; do
		shm_used
		sleep 1
	done | sort -n | head -1
}

# bye_done NAME...: "sent answered" BYEs at the UACs NAME...
bye_done() {
	local n s=0 a=0
	for n in "$@"; do
		s=$((s + $(counts_col "$n" 8_BYE_Sent)))
		a=$((a + $(counts_col "$n" 9_200_Recv)))
	done
	echo "$s $a"
}
# pct A S: 100 A / S with three decimals
pct() { awk -v a="$1" -v s="$2" 'BEGIN { printf "%.3f", (s > 0 ? 100 * a / s : 0) }'; }

# --- 1. the soak
UAS_TIMEOUT=$((WARM_S + SOAK_S + 400))
kam_start -c "$cg" -n soak 'OVC_ALGORITHM="occ"' || { fail "no start"; finish; }
uas_start soak_uas
sleep 2
p0=$(procs)
log "warm-up: $WARM_S s at $rate/s"
UAC_TIMEOUT=$((WARM_S + 60)) uac_run soak_warm "$rate" $((rate * WARM_S))
idle0=$(shm_idle)
: >"$T_DIR/rows.csv"
rpc ovc.csv 300 >>"$T_DIR/rows.csv"
log "soak: $SOAK_S s at $rate/s (shm in use at rest $idle0 bytes)"
UAC_TIMEOUT=$((SOAK_S + 60)) uac_run soak_uac "$rate" $((rate * SOAK_S)) &
uac=$!
T_PIDS+=("$uac")
echo "t_s,shm_used_bytes" >"$OUT/mem.csv"
t=0
while [ "$t" -lt $((SOAK_S + 60)) ]; do
	sleep 10
	kill -0 "$uac" 2>/dev/null || break
	t=$((t + 10))
	echo "$t,$(shm_used)" >>"$OUT/mem.csv"
	[ $((t % 60)) -eq 0 ] && rpc ovc.csv 120 >>"$T_DIR/rows.csv"
done
wait "$uac"
idle1=$(shm_idle)
rpc ovc.csv 300 >>"$T_DIR/rows.csv"
p1=$(procs)
uas_stop
kam_stop
# one header, each second once
awk -F, 'NR == 1 || $1 == "time" { if(!h) { print; h = 1 } next }
	!seen[$1]++' "$T_DIR/rows.csv" >"$T_DIR/merged.csv"
bal=$(csv_check "$T_DIR/merged.csv" 2>/dev/null)
rows=$(sed -n 's/rows=\([0-9]*\).*/\1/p' <<<"$bal")
unb=$(sed -n 's/.*bad=\([0-9]*\).*/\1/p' <<<"$bal")
# under load (shown only): the soak's first and last full minute
read -r lfirst llast <<<"$(awk -F, -v e="$t" 'NR > 1 {
	if($1 <= 60) { a += $2; na++ }
	if($1 > e - 60) { b += $2; nb++ } }
	END { printf "%.0f %.0f\n", (na ? a / na / 1024 : 0), (nb ? b / nb / 1024 : 0) }' "$OUT/mem.csv")"
growth=$(awk -v a="$idle0" -v b="$idle1" 'BEGIN { printf "%.3f", (a > 0 ? 100 * (b - a) / a : 0) }')
read -r bs ba <<<"$(bye_done soak_warm soak_uac)"
bp=$(pct "$ba" "$bs")
log "soak $SOAK_S s at $rate/s: shm in use at rest ${idle0} -> ${idle1} B" \
	"($growth %), under load ${lfirst} -> ${llast} KiB; rows $rows" \
	"unbalanced $unb; BYEs answered $ba of $bs ($bp %)"
echo "soak,occ,$SOAK_S,$rate,$bs,$ba,$bp,$((${idle0:-0} / 1024)),$((${idle1:-0} / 1024)),$growth,$lfirst,$llast,$rows,$unb,$(wc -w <<<"$p0"),$(wc -w <<<"$p1"),$digest,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
check "shm in use at rest flat after the warm-up (growth < 1 %)" \
	"$idle0 > 0 && $growth < 1"
check "every per-second row balanced" \
	"$rows >= $WARM_S + $SOAK_S && $unb == 0"
[ -n "$p0" ] && [ "$p0" = "$p1" ] &&
	ok "the same Kamailio processes at the end ($(wc -w <<<"$p0"))" ||
	fail "processes changed: '$p0' -> '$p1'"
check "BYEs of admitted calls answered (>= 99.9 %)" "$bs > 0 && $bp >= 99.9"

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
	bp=$(pct "$ba" "$bs")
	log "$a at $rate/s: BYEs answered $ba of $bs ($bp %)"
	echo "dialogs,$a,$PHASE_S,$rate,$bs,$ba,$bp,,,,,,,,,,$digest,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
	check "$a: BYEs of admitted calls answered (>= 99.9 %)" \
		"$bs > 0 && $bp >= 99.9"
done
log "rows in $OUT/summary.csv, logs in $T_DIR"
"$here/bench/tools/results.sh" record "$OUT" \
	"minutes of overload: shm flat, rows balanced, BYEs answered" \
	"bench/campaigns/soak.sh"
finish
