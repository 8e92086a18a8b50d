#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/plot.sh - regenerates the simulator figures of bench/RESULTS.md
# into bench/sim/results/ (CSV + gnuplot PNG), on the papers' model
# (--model paper, bench/sim/README.md). Needs `make sim` first.
#
#   bench/sim/plot.sh [fig7|sweep|pi|es|all]     (default all)
#
# fig7   000 Fig. 7: no control collapses and does not recover (time series)
# sweep  goodput vs load: 000's server (capacity 160, beta 36, BBC on the
#        message buffer: 000 Fig. 11) and the testbed's calibration
#        (bench/out/calibration.env: rho_M 193, beta 4.679; every algorithm
#        libovc has, queue-based ones on the in-core queue: 003 Fig. 11)
# pi     PI with alpha at arrival (DESIGN.md) vs at dequeue (003)
# es     ES tuning of the PI gains from 003 Table I's initial conditions on
#        the testbed's calibration, alpha at arrival (es-arrival-*) and at
#        dequeue (es-dequeue-*)
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || bench_oneof figure "$1" fig7 sweep pi es all
bench_args_checked
# ES constants scaled to this model's J (see bench/RESULTS.md, Simulator)
ES_OPTS_arrival=${ES_OPTS_arrival:---gamma 0.8,0.7,0.2,0.02 --amp 0.25,1,2,5}
ES_OPTS_dequeue=${ES_OPTS_dequeue:---gamma 1}
top=$(cd "$(dirname "$0")/../.." && pwd)
sim=$top/build/sim/ovc-sim
tune=$top/build/sim/ovc-es-tune
out=$top/bench/sim/results
algs=${SIM_ALGS:-none,bbc,occ,occupancy,aro,sired,rsoca,pi}
tb=(--capacity "${SIM_RHO_M:-193}" --beta "${SIM_BETA:-4.679}")
mkdir -p "$out"
[ -x "$sim" ] || { echo "plot.sh: run 'make sim' first" >&2; exit 1; }

fig7() {
	"$sim" --model paper --load steps:0=0.9,100=1.3,200=0.9,300=0.3 \
		--duration 400 \
		--csv "$out/fig7.csv" >/dev/null
	gnuplot <<-GP
	set terminal pngcairo size 900,600 noenhanced
	set output "$out/fig7.png"
	set datafile separator ","
	set multiplot layout 2,1 \
		title "no control, load 0.9 -> 1.3 -> 0.9 -> 0.3 (000 Fig. 7)"
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

sweep_one() { # file title algs ovc-sim-options...
	local f=$1 title=$2 a=$3
	shift 3
	"$sim" --model paper --sweep "$a" --loads 0.25:4:0.25 "$@" \
		--metrics "$out/$f-metrics.csv" >"$out/$f.csv"
	gnuplot <<-GP
	set terminal pngcairo size 900,600 noenhanced
	set output "$out/$f.png"
	set datafile separator ","
	set datafile missing "nan"
	set title "$title"
	set xlabel "r = offered / rho_M"
	set ylabel "g = goodput / rho_M"
	set key outside right
	set yrange [0:1.05]
	n = system("head -2 $out/$f.csv | tail -1 | tr ',' '\n' | wc -l")
	plot for [i=2:n] "$out/$f.csv" using 1:i every ::0 with linespoints \
		title columnheader(i)
	GP
}

sweep() {
	local t1="000's server: rho_M 160, beta 36"
	local t2="testbed calibration: rho_M ${tb[1]}, beta ${tb[3]}"
	sweep_one sweep-000 "$t1, BBC on the message buffer (cf. 000 Fig. 11)" \
		none,bbc,occ --incore 0
	sweep_one sweep-testbed "$t2, in-core queue (cf. 003 Fig. 11)" \
		"$algs" "${tb[@]}"
}

pi() {
	local at
	for at in arrival dequeue; do
		"$sim" --model paper --sweep pi --loads 0.25:4:0.25 "${tb[@]}" \
			--reject-at "$at" \
			--metrics "$out/pi-$at-metrics.csv" >"$out/pi-$at.csv"
	done
	gnuplot <<-GP
	set terminal pngcairo size 900,700 noenhanced
	set output "$out/pi-placement.png"
	set datafile separator ","
	set multiplot layout 2,1 \
		title "PI (003 gains), testbed calibration: alpha at arrival vs at dequeue"
	set key top right
	set ylabel "g"
	plot "$out/pi-arrival.csv" using 1:2 every ::0 with lines title "g_opt", \
	     "$out/pi-arrival-metrics.csv" using 2:3 with linespoints title "arrival", \
	     "$out/pi-dequeue-metrics.csv" using 2:3 with linespoints title "dequeue"
	set ylabel "setup delay (ms)"
	set xlabel "r"
	plot "$out/pi-arrival-metrics.csv" using 2:7 with linespoints title "arrival", \
	     "$out/pi-dequeue-metrics.csv" using 2:7 with linespoints title "dequeue"
	unset multiplot
	GP
}

es() {
	local runs=("12,12,20,130" "2,2,20,130" "0.5,0.5,4,4" "1,1,20,130"
		"17,12,16.5,124")
	local i=1 at=${1:-arrival} opts
	opts=ES_OPTS_$at
	for init in "${runs[@]}"; do
		[ -n "${ES_PLOT_ONLY:-}" ] && break
		# shellcheck disable=SC2086
		"$tune" --model paper "${tb[@]}" --reject-at "$at" --init "$init" \
			--iters "${ES_ITERS:-150}" --reps 2 ${!opts} \
			>"$out/es-$at-run$i.csv"
		i=$((i + 1))
	done
	gnuplot <<-GP
	set terminal pngcairo size 900,700 noenhanced
	set output "$out/es-$at.png"
	set datafile separator ","
	set multiplot layout 2,1 \
		title "ES of the PI gains (003 Sec. VI) on ovc-sim, alpha at $at"
	f(i) = sprintf("$out/es-$at-run%d.csv", i)
	set ylabel "J"
	plot for [i=1:5] f(i) using 1:2 with lines title sprintf("run %d", i)
	set ylabel "K_pc"
	set xlabel "iteration"
	plot for [i=1:5] f(i) using 1:4 with lines title sprintf("run %d", i)
	unset multiplot
	GP
}

case "${1:-all}" in
fig7) fig7 ;;
sweep) sweep ;;
pi) pi ;;
es) es arrival; es dequeue ;;
all) fig7; sweep; pi; es arrival; es dequeue ;;
*) echo "usage: $0 [fig7|sweep|pi|es|all]" >&2; exit 2 ;;
esac
