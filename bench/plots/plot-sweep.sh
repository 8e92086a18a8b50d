#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-sweep.sh - DIR/sweep-points.csv -> DIR/sweep.png.
#
#   plot-sweep.sh DIR
#
# Two panels against the normalized offered load r: timely goodput
# (calls set up within 500 ms / rho_M, top) and goodput (completed calls
# / rho_M, bottom); per algorithm the median over the sweep's runs with
# bars from the smallest to the largest run. Both panels draw the bound
# g_opt(r) of paper 003 Prop. 1 for the calibrated C_T and the beta of
# each rejection path (ovc's refusal at arrival, BETA_OVC, when the
# calibration measured it; a 503 in the script, BETA) and the line g = r.
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
csv="$dir/sweep-points.csv"
[ -s "$csv" ] || die "plot-sweep: no $csv (run sweep-table.sh first)"
. "$BENCH_OUT/calibration.env"
rmax=$(awk -F, 'NR > 1 && $2 + 0 > m { m = $2 + 0 } END { print (m > 0 ? m * 1.05 : 10) }' "$csv")
bounds=""
"$BENCH_BIN/ovc-bound" curve "$CT" "$BETA" "$rmax" | tr " " "," >"$dir/gopt.dat"
bounds+="'$dir/gopt.dat' using 1:2 with lines lw 2 dt 2 lc rgb '#000000' title sprintf('g_{opt}, {/Symbol b} = %s (503 in the script)', '$BETA'), "
if [ -n "${BETA_OVC:-}" ]; then
	"$BENCH_BIN/ovc-bound" curve "$CT" "$BETA_OVC" "$rmax" | tr " " "," >"$dir/gopt-ovc.dat"
	bounds+="'$dir/gopt-ovc.dat' using 1:2 with lines lw 3 lc rgb '#000000' title sprintf('g_{opt}, {/Symbol b} = %s (ovc at arrival)', '$BETA_OVC'), "
fi
bounds+="x with lines dt 3 lc rgb '#888888' title 'g = r', "
colors=('#cc0000' '#0066cc' '#009900' '#cc6600' '#884488' '#008888'
	'#666600' '#cc00cc' '#555555' '#ff8800' '#0000ff')
timely=$bounds
done_=$bounds
i=0
for a in $(tail -n +2 "$csv" | cut -d, -f1 | awk '!s[$0]++'); do
	c=${colors[$((i % ${#colors[@]}))]}
	grep "^$a," "$csv" | sort -t, -k2,2g >"$dir/sweep-$a.dat"
	timely+="'$dir/sweep-$a.dat' using 2:7:8:9 with yerrorlines lw 2 pt 7 ps 0.7 lc rgb '$c' title '$a', "
	done_+="'$dir/sweep-$a.dat' using 2:4:5:6 with yerrorlines lw 2 pt 7 ps 0.7 lc rgb '$c' title '$a', "
	i=$((i + 1))
done
# loads spanning octaves (0.5 ... 16) on a log2 axis
xaxis="set xrange [0:$rmax]"
awk -v m="$rmax" 'BEGIN { exit !(m > 6) }' &&
	xaxis="set logscale x 2; set xrange [0.4:$rmax]; set samples 400"
runs=$(awk -F, 'NR > 1 { if(!m || $3 < m) m = $3; if($3 > x) x = $3 } END { print (m == x ? m : m "-" x) }' "$csv")
gnuplot <<GP
set terminal pngcairo size 1100,1200 font ",11"
set output "$dir/sweep.png"
set datafile separator ","
set datafile missing "-"
set multiplot layout 2,1 title "Goodput versus offered load: median of $runs runs, bars min to max (rho_M = $RHO_M calls/s, proxy capped at $((BENCH_CPU_QUOTA_US * 100 / BENCH_CPU_PERIOD_US)) % of a core)"
set grid
set key outside right top
set rmargin 40
$xaxis
set yrange [0:1.8]
set xlabel "normalized offered load r = R / rho_M"
set ylabel "timely goodput (set up < 500 ms) / rho_M"
plot ${timely%, }
set ylabel "goodput (completed calls) / rho_M"
plot ${done_%, }
unset multiplot
GP
echo "$dir/sweep.png"
