#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plot-sweep.sh - DIR/sweep.csv -> DIR/sweep.png.
#
#   plot-sweep.sh DIR
#
# Normalized goodput g (completed calls / rho_M, solid) and timely goodput
# (INVITE->200 under 500 ms, dashed) versus normalized offered load r, one
# colour per algorithm, with the bound g_opt(r) (paper 003 Prop. 1) from
# the calibrated beta and C_T, and the line g = r.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$1
csv="$dir/sweep.csv"
[ -s "$csv" ] || die "plot-sweep: no $csv"
. "$BENCH_OUT/calibration.env"
rmax=$(awk -F, 'NR > 1 && $3 + 0 > m { m = $3 + 0 } END { print (m > 0 ? m * 1.05 : 10) }' "$csv")
"$BENCH_BIN/ovc-bound" curve "$CT" "$BETA" "$rmax" | tr " " "," >"$dir/gopt.dat"
colors=('#cc0000' '#0066cc' '#009900' '#cc6600' '#884488' '#008888' '#666600' '#cc00cc')
plots="'$dir/gopt.dat' using 1:2 with lines lw 3 lc rgb '#000000' title sprintf('g_{opt}(r), {/Symbol b} = %s, C_T = %s', '$BETA', '$CT'), x with lines dt 3 lc rgb '#888888' title 'g = r', "
i=0
for a in $(tail -n +2 "$csv" | cut -d, -f1 | awk '!s[$0]++'); do
	c=${colors[$((i % ${#colors[@]}))]}
	grep "^$a," "$csv" | sort -t, -k3,3g >"$dir/sweep-$a.dat"
	plots+="'$dir/sweep-$a.dat' using 3:4 with linespoints lw 2 pt 7 lc rgb '$c' title '$a: completed', "
	plots+="'$dir/sweep-$a.dat' using 3:5 with linespoints lw 1 dt 2 pt 6 lc rgb '$c' title '$a: timely (<500 ms)', "
	i=$((i + 1))
done
gnuplot <<EOF
set terminal pngcairo size 1000,650 font ",11"
set output "$dir/sweep.png"
set datafile separator ","
set title "Goodput versus offered load (rho_M = $RHO_M calls/s, proxy capped at $((BENCH_CPU_QUOTA_US * 100 / BENCH_CPU_PERIOD_US)) % of a core)"
set xlabel "normalized offered load r = R / rho_M"
set ylabel "normalized goodput g = goodput / rho_M"
set grid
set key outside right top
set rmargin 38
set xrange [0:$rmax]
set yrange [0:1.6]
plot ${plots%, }
EOF
echo "$dir/sweep.png"
