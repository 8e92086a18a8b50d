#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot.sh - the picture of one run: DIR/merged.csv -> DIR/plot.png.
#
#   plot.sh DIR
#
# Three panels over time: calls/s (target, offered, completed = goodput,
# timely = INVITE->200 under 500 ms, rejected, failed) with rho_M; setup
# delay p50/p95 (log scale) with T1; CPU (of the quota, measured by the
# bench and by ovc) and ovc's acceptance fraction f. gnuplot, pngcairo.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_args_checked
# draws from files, starts no load: no load lock
: "${OVC_LOAD_LOCKED:=no-load}"
. "$(dirname "$0")/../testbed/lib.sh"

dir=$1
csv="$dir/merged.csv"
[ -s "$csv" ] || die "plot: no $csv"
read -r alg prof peak retrans rho good timely off < <("$BENCH_BIN/ovc-jget" \
	"$dir/summary.json" meta.algorithm meta.profile meta.peak_r meta.retrans \
	rho_m goodput_cps timely_cps offered_cps)
header=$(head -n1 "$csv")
read -r tmin tmax < <(awk -F, 'NR == 2 { a = $2 } NR > 1 { b = $2 } END { print a, b }' "$csv")
has() { [[ ",$header," == *",$1,"* ]]; }

cpu_plot="NaN notitle"
has proxy_cpu && cpu_plot="'$csv' using \"t\":\"proxy_cpu\" with lines lw 2 lc rgb '#444444' title 'CPU of quota (cgroup)'"
ovc_plot=""
fcol=$(tr ',' '\n' <<<"$header" | grep -nx f | cut -d: -f1 || true)
if [ -n "$fcol" ] && grep -q '[0-9]' < <(cut -d, -f"$fcol" "$csv" | tail -n +2); then
	ovc_plot=", '$csv' using \"t\":\"cpu\" with lines lw 1 dt 2 lc rgb '#aa0000' title 'cpu (ovc)', '$csv' using \"t\":\"f\" with lines lw 2 lc rgb '#0066cc' title 'f (ovc)'"
fi

gnuplot <<EOF
set terminal pngcairo size 1000,1100 font ",10"
set output "$dir/plot.png"
set datafile separator ","
set datafile missing ""
set multiplot layout 3,1 title "$alg, $prof to ${peak}x rho_M ($rho cps), retransmissions $retrans: offered $off, completed $good, timely $timely calls/s" font ",12"
set grid
set key outside right top
set xrange [$tmin:$tmax]
set lmargin 10
set rmargin 30
set xlabel "time (s)"
set ylabel "calls/s"
set yrange [0:*]
plot "$csv" using "t":"target_cps" with lines dt 3 lw 1 lc rgb '#888888' title 'target', \
     "$csv" using "t":"offered_cps" with lines lw 1 lc rgb '#000000' title 'offered', \
     "$csv" using "t":"goodput_cps" with lines lw 3 lc rgb '#009900' title 'completed (goodput)', \
     "$csv" using "t":"timely_cps" with lines lw 2 lc rgb '#66cc66' title 'timely (<500 ms)', \
     "$csv" using "t":"rejected_cps" with lines lw 1 lc rgb '#cc6600' title 'rejected (503)', \
     "$csv" using "t":"failed_cps" with lines lw 1 lc rgb '#cc0000' title 'failed', \
     $rho with lines dt 2 lc rgb '#0000cc' title 'rho_M'
set ylabel "setup delay (ms)"
set logscale y
set yrange [1:100000]
plot "$csv" using "t":(column("setup_p50_ms") > 0 ? column("setup_p50_ms") : 1) with lines lw 2 lc rgb '#0066cc' title 'p50 INVITE->200', \
     "$csv" using "t":(column("setup_p95_ms") > 0 ? column("setup_p95_ms") : 1) with lines lw 1 lc rgb '#cc0000' title 'p95 INVITE->200', \
     500 with lines dt 2 lc rgb '#888888' title 'T1 = 500 ms'
unset logscale y
set ylabel "fraction"
set yrange [0:1.25]
plot $cpu_plot $ovc_plot
unset multiplot
EOF
echo "$dir/plot.png"
