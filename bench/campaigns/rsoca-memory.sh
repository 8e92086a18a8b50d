#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/rsoca-memory.sh - R-SOCA memory attack (004 §IV-C, Fig. 15-18) on
# the CPU-capped loopback proxy of tests/integration: INVITEs to a UAS that
# never answers at 1x and 2x E_I, with rsoca.reap on and off.
#
#   bench/campaigns/rsoca-memory.sh [OUT_DIR]     (default bench/results/rsoca-memory)
#   bench/campaigns/rsoca-memory.sh --report [OUT_DIR]   (summary and plot again from
#                                        the runs' files, no load)
#
# Scaling (stated in bench/RESULTS.md): E_I = 150 calls/s (2x E_I = 300/s
# stays below the capped proxy's ~350 calls/s), S = 8500 bytes (004),
# T_I = 5 s and B = 2 (004: 10 s and 2; halved so that a run fits 60 s),
# tm fr_timer 32 s (RFC 3261 Timer B: an unanswered INVITE lives 32 s +
# tm's 5 s wait). Memory in use = live transactions x S (rsoca.mem_source
# 1): M_min = S E_I T_I = 6.375 MB, M_max = B M_min = 12.75 MB (eq. 8-9).
# The CPU ramp is moved out of the way (rsoca.cmin 0.95, cmax 0.99) so the
# memory control is measured alone. Each run: DUR s of attack, per-second
# ovc.csv kept. Writes OUT_DIR/<tag>.csv (ovc.csv), <tag>.stats.txt,
# <tag>.uac.txt (SIPp counts), summary.md and memory.png.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
[ "${1:-}" = --report ] && bench_nargs 1 2 "$@" || bench_nargs 0 1 "$@"
case "${1:-}" in --report) ;; -*) bench_bad "unknown option '$1'" ;; esac
bench_int EI "${EI:-150}"
bench_int DUR "${DUR:-50}"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
report_only=0
if [ "${1:-}" = --report ]; then
	report_only=1
	shift
fi
out=${1:-$top/bench/results/rsoca-memory}
mkdir -p "$out"
out=$(cd "$out" && pwd)

EI=${EI:-150}
DUR=${DUR:-50}
S=8500
TI_MS=5000
B=2
QUOTA_US=20000
PERIOD_US=100000

# run TAG RATE REAP
run() {
	local tag=$1 rate=$2 reap=$3
	log "run $tag: $rate calls/s for $DUR s, rsoca.reap=$reap"
	kam_start -c "$cg" -n "$tag" 'OVC_ALGORITHM="rsoca"' 'TM_FR_TIMER=32000' \
		'OVC_PARAM1="rsoca.mem_source=1"' "OVC_PARAM2=\"rsoca.s=$S\"" \
		"OVC_PARAM3=\"rsoca.ei=$EI\"" "OVC_PARAM4=\"rsoca.reap=$reap\""
	rpc ovc.set rsoca.reap_ti_ms "$TI_MS" >/dev/null
	rpc ovc.set rsoca.reap_b "$B" >/dev/null
	# the ramp's rejects answer 503: every 500 at the UAC is a reaped one
	rpc ovc.set rsoca.reject_code 503 >/dev/null
	rpc ovc.set rsoca.cmax 0.99 >/dev/null
	rpc ovc.set rsoca.cmin 0.95 >/dev/null
	sleep 2
	rpc ovc.reset >/dev/null
	uas_start "${tag}_uas" "$SCN/uas-silent.xml"
	date +%s >"$out/$tag.start"
	UAC_TIMEOUT=$((DUR + 1)) uac_run "${tag}_uac" "$rate" $((rate * DUR)) \
		-recv_timeout 60000
	sleep 2.5
	rpc ovc.csv >"$out/$tag.csv"
	rpc ovc.stats >"$out/$tag.stats.txt"
	cp "$T_DIR/${tag}_uac"/*_counts.csv "$out/$tag.uac_counts.csv" 2>/dev/null || true
	uas_stop
	local kpid=$T_KPID rc=0
	kill "$kpid"
	wait "$kpid" 2>/dev/null || rc=$?
	T_KPID=""
	[ "$rc" = 0 ] || fail "$tag: kamailio exit status $rc at shutdown"
	cp "$T_DIR/$tag.log" "$out/$tag.kamailio.log"
}

if [ "$report_only" = 0 ]; then
	# the integration helpers: capped kamailio, SIPp, load lock, cleanup
	. "$top/tests/integration/lib.sh"
	T_KEEP=1 # keep kamailio's logs
	cg=$(cg_make "$QUOTA_US" "$PERIOD_US")
	printf '%q ' "$0" "$@" >"$out/command"
	echo >>"$out/command"
	run r1-reap "$EI" 1
	run r1-noreap "$EI" 0
	run r2-reap $((2 * EI)) 1
	run r2-noreap $((2 * EI)) 0
fi

# the runs' files: in $out, or, for --report on a folder of bench/results
# whose runs are packed, in its campaign's raw.tar.xz (fetched into the
# cache, where the per-run plot data go too); the table and the plot in
# $out
in=$out
if [ "$report_only" = 1 ]; then
	case "$out" in
	"$top"/bench/results/*) in=$("$top/bench/tools/results.sh" fetch "$out") ;;
	esac
fi

# summary: steady window = seconds 20..DUR-1 of each run (after the first
# over-age transactions, T_I B = 10 s, plus 10 s)
{
	echo "| run | offered calls/s | admitted INVITEs/s (steady) | memory in use MB: mean / min / max (steady) | M_min / M_max MB | above M_max (s) | ended INVITE transactions/s (steady) | 503 (R-SOCA reject) | 500 (ended) at the UAC |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for tag in r1-reap r1-noreap r2-reap r2-noreap; do
		f=$in/$tag.csv
		t0=$(cat "$in/$tag.start")
		rate=$EI
		[[ $tag == r2* ]] && rate=$((2 * EI))
		c503=$(awk -F';' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "3_503_Recv") c = i; next }
			c { v = $c } END { print v + 0 }' "$in/$tag.uac_counts.csv" 2>/dev/null || echo 0)
		c500=$(awk -F';' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "4_500_Recv") c = i; next }
			c { v = $c } END { print v + 0 }' "$in/$tag.uac_counts.csv" 2>/dev/null || echo 0)
		awk -F',' -v t0="$t0" -v dur="$DUR" -v tag="$tag" -v rate="$rate" \
			-v c503="$c503" -v c500="$c500" '
			NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
			{ t = $(c["time"]) - t0
			  m = $(c["mem_in_use"]) / 1e6; lo = $(c["mem_min"]) / 1e6
			  hi = $(c["mem_max"]) / 1e6
			  if(t >= 0 && t < dur && m > hi) over++
			  if(t >= 20 && t < dur) { n++; adm += $(c["invite_admitted"])
				end += $(c["reaped_invite"]); sm += m
				if(n == 1 || m < mn) mn = m; if(m > mx) mx = m } }
			END { printf "| %s | %d | %.1f | %.2f / %.2f / %.2f | %.2f / %.2f | %d | %.1f | %d | %d |\n",
				tag, rate, adm / n, sm / n, mn, mx, lo, hi, over, end / n, c503, c500 }' "$f"
	done
} >"$out/summary.md"
cat "$out/summary.md"

# plot: memory in use over time per run, M_min/M_max lines
plots=""
colors=('#cc0000' '#cc8888' '#0066cc' '#88aadd')
i=0
for tag in r1-reap r1-noreap r2-reap r2-noreap; do
	t0=$(cat "$in/$tag.start")
	awk -F',' -v t0="$t0" 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i
			print "t,mem_mb,mmin_mb,mmax_mb,admitted,ended"; next }
		{ printf "%d,%.3f,%.3f,%.3f,%d,%d\n", $(c["time"]) - t0,
			$(c["mem_in_use"]) / 1e6, $(c["mem_min"]) / 1e6,
			$(c["mem_max"]) / 1e6, $(c["invite_admitted"]),
			$(c["reaped_invite"]) }' "$in/$tag.csv" >"$in/$tag.plot.csv"
	plots+="'$in/$tag.plot.csv' using 1:2 with lines lw 2 lc rgb '${colors[$i]}' title '$tag', "
	i=$((i + 1))
done
gnuplot <<EOF
set terminal pngcairo size 1000,800 font ",10"
set output "$out/memory.png"
set datafile separator ","
set multiplot layout 2,1 title "R-SOCA memory attack: silent UAS, E_{I} = $EI calls/s, S = $S B, T_{I} B = $((TI_MS * B / 1000)) s" font ",12"
set grid
set key outside right top
set lmargin 10
set xrange [0:$((DUR + 5))]
set ylabel "memory in use (MB)"
plot $plots '$in/r1-reap.plot.csv' using 1:3 with lines dt 2 lw 2 lc rgb '#000000' title 'M_{min}', '$in/r1-reap.plot.csv' using 1:4 with lines dt 3 lw 2 lc rgb '#000000' title 'M_{max}'
set xlabel "time since attack start (s)"
set ylabel "INVITEs admitted/s"
plot '$in/r1-reap.plot.csv' using 1:5 with lines lw 2 lc rgb '#cc0000' title 'r1-reap', '$in/r1-noreap.plot.csv' using 1:5 with lines lw 2 lc rgb '#cc8888' title 'r1-noreap', '$in/r2-reap.plot.csv' using 1:5 with lines lw 2 lc rgb '#0066cc' title 'r2-reap', '$in/r2-noreap.plot.csv' using 1:5 with lines lw 2 lc rgb '#88aadd' title 'r2-noreap'
unset multiplot
EOF
echo "rsoca-memory: results in $out"
if [ "$report_only" = 0 ]; then
	raw=()
	[ "$out" != "$top/bench/results/rsoca-memory" ] ||
		mapfile -t raw < <(find "$out" -maxdepth 1 -type f -name 'r[12]-*')
	"$top/bench/tools/results.sh" record "$out" \
		"R-SOCA's memory attack, reaping on and off" \
		"bench/campaigns/rsoca-memory.sh" "${raw[@]}"
	finish
fi
