#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/plot.sh - regenerates the simulator figures of bench/RESULTS.md
# into bench/sim/results/ (CSV + gnuplot PNG). Needs `make sim` first.
#
#   bench/sim/plot.sh [fig7|sweep|es|all]     (default all)
#
# fig7   000 Fig. 7: no control collapses and does not recover (time series)
# sweep  goodput vs load for every algorithm libovc has, beta 36 and 4
# es     ES tuning of the PI gains from 003 Table I's initial conditions
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
sim=$top/build/sim/ovc-sim
tune=$top/build/sim/ovc-es-tune
out=$top/bench/sim/results
algs=${SIM_ALGS:-none,bbc,occ,occupancy,aro,sired,rsoca,pi}
mkdir -p "$out"
[ -x "$sim" ] || { echo "plot.sh: run 'make sim' first" >&2; exit 1; }

fig7() {
	"$sim" --load steps:0=0.9,100=1.3,200=0.9,300=0.3 --duration 400 \
		--csv "$out/fig7.csv" >/dev/null
	gnuplot <<-GP
	set terminal pngcairo size 900,600 noenhanced
	set output "$out/fig7.png"
	set datafile separator ","
	set multiplot layout 2,1 title "no control, load steps 0.9 -> 1.3 -> 0.9 -> 0.3 (000 Fig. 7)"
	set ylabel "calls/s / rho_M"
	set key top right
	plot "$out/fig7.csv" using 1:23 with lines title "offered r", \
	     "" using 1:(\$24/160) with lines title "goodput g"
	set ylabel "fraction"
	set yrange [0:1.05]
	set xlabel "time (s)"
	plot "$out/fig7.csv" using 1:4 with lines title "cpu", \
	     "" using 1:30 with lines title "retransmission ratio"
	unset multiplot
	GP
}

sweep_one() { # beta file
	"$sim" --sweep "$algs" --loads 0.25:4:0.25 --beta "$1" \
		--metrics "$out/$2-metrics.csv" >"$out/$2.csv"
	gnuplot <<-GP
	set terminal pngcairo size 900,600 noenhanced
	set output "$out/$2.png"
	set datafile separator ","
	set datafile missing "nan"
	set title "normalised goodput vs offered load, beta $1, UDP (ovc-sim)"
	set xlabel "r = offered / rho_M"
	set ylabel "g = goodput / rho_M"
	set key outside right
	set yrange [0:1.05]
	n = system("head -2 $out/$2.csv | tail -1 | tr ',' '\n' | wc -l")
	plot for [i=2:n] "$out/$2.csv" using 1:i every ::0 with linespoints \
		title columnheader(i)
	GP
}

sweep() {
	sweep_one 36 sweep-beta36
	sweep_one 4 sweep-beta4
}

es() {
	local runs=("12,12,20,130" "2,2,20,130" "0.5,0.5,4,4" "1,1,20,130")
	local i=1
	for init in "${runs[@]}"; do
		"$tune" --init "$init" --iters "${ES_ITERS:-60}" --tf "${ES_TF:-60}" \
			>"$out/es-run$i.csv"
		i=$((i + 1))
	done
	gnuplot <<-GP
	set terminal pngcairo size 900,700 noenhanced
	set output "$out/es.png"
	set datafile separator ","
	set multiplot layout 2,1 title "Extremum Seeking of the PI gains (003 Sec. VI) on ovc-sim"
	set ylabel "J"
	plot for [i=1:4] sprintf("$out/es-run%d.csv", i) using 1:2 with lines title sprintf("run %d", i)
	set ylabel "K_pc"
	set xlabel "iteration"
	plot for [i=1:4] sprintf("$out/es-run%d.csv", i) using 1:4 with lines title sprintf("run %d", i)
	unset multiplot
	GP
}

case "${1:-all}" in
fig7) fig7 ;;
sweep) sweep ;;
es) es ;;
all) fig7; sweep; es ;;
*) echo "usage: $0 [fig7|sweep|es|all]" >&2; exit 2 ;;
esac
