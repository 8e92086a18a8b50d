#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-compare.sh - several runs of the same profile on one picture.
#
#   plot-compare.sh OUT.png RUN_DIR[=LABEL]...
#
# Each run is named by LABEL, else by the algorithm in its summary.json.
# Top: completed calls/s (solid) and timely calls/s (INVITE->200 under
# 500 ms, dashed) of each run over time, with the offered load and rho_M.
# Bottom: p95 setup delay of each run (log scale).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 2 - "$@"
for a in "${@:2}"; do
	[ -d "${a%%=*}" ] || bench_bad "RUN_DIR: no folder '${a%%=*}'"
done
bench_args_checked
# draws from files, starts no load: no load lock
: "${OVC_LOAD_LOCKED:=no-load}"
. "$(dirname "$0")/../testbed/lib.sh"

out=$1
shift
[ $# -ge 1 ] || die "usage: plot-compare.sh OUT.png RUN_DIR[=LABEL]..."
colors=('#cc0000' '#009900' '#0066cc' '#cc6600' '#884488' '#008888')
top=""
bot=""
i=0
for arg in "$@"; do
	d=${arg%%=*}
	lab=
	[ "$d" = "$arg" ] || lab=${arg#*=}
	read -r alg rho off good timely < <("$BENCH_BIN/ovc-jget" \
		"$d/summary.json" meta.algorithm rho_m offered_cps goodput_cps \
		timely_cps)
	alg=${lab:-$alg}
	c=${colors[$((i % ${#colors[@]}))]}
	csv="$d/merged.csv"
	[ -z "$top" ] && top="'$csv' using \"t\":\"offered_cps\" with lines lw 1 lc rgb '#000000' title 'offered ($alg run)', $rho with lines dt 2 lc rgb '#0000cc' title 'rho_M', "
	top+="'$csv' using \"t\":\"goodput_cps\" with lines lw 3 lc rgb '$c' title '$alg: completed (mean $good/s)', "
	top+="'$csv' using \"t\":\"timely_cps\" with lines lw 2 dt 2 lc rgb '$c' title '$alg: timely (mean $timely/s)', "
	bot+="'$csv' using \"t\":(column(\"setup_p95_ms\") > 0 ? column(\"setup_p95_ms\") : 1) with lines lw 2 lc rgb '$c' title '$alg p95', "
	i=$((i + 1))
done
gnuplot <<EOF
set terminal pngcairo size 1000,800 font ",10"
set output "$out"
set datafile separator ","
set datafile missing ""
set multiplot layout 2,1 title "same load, different control" font ",12"
set grid
set key outside right top
set lmargin 10
set rmargin 36
set xlabel "time (s)"
set ylabel "calls/s"
set yrange [0:*]
plot ${top%, }
set ylabel "p95 INVITE->200 (ms)"
set logscale y
set yrange [1:100000]
plot ${bot%, }, 500 with lines dt 2 lc rgb '#888888' title 'T1 = 500 ms'
unset multiplot
EOF
echo "$out"
