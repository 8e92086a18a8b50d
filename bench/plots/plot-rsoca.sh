#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-rsoca.sh - R-SOCA campaign runs on one picture (004 Fig. 3-14).
#
#   plot-rsoca.sh OUT.png C_MIN C_MAX RUN_DIR...
#
# Top: offered calls/s (the first run's), completed calls/s (solid) and
# rejected calls/s (dashed) of each run. Bottom: the proxy's CPU (share of
# its cgroup quota) of each run, with C_min and C_max.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 4 - "$@"
bench_num C_MIN "$2"
bench_num C_MAX "$3"
for a in "${@:4}"; do [ -d "$a" ] || bench_bad "RUN_DIR: no folder '$a'"; done
bench_args_checked
out=$1 cmin=$2 cmax=$3
shift 3
[ $# -ge 1 ] || { echo "usage: plot-rsoca.sh OUT.png C_MIN C_MAX RUN_DIR..." >&2; exit 2; }
colors=('#cc0000' '#009900' '#0066cc' '#cc6600' '#884488' '#008888')
top="" bot="" i=0
for d in "$@"; do
	name=$(basename "$d")
	c=${colors[$((i % ${#colors[@]}))]}
	csv="$d/merged.csv"
	[ -z "$top" ] && top="'$csv' using \"t\":\"offered_cps\" with lines lw 1 lc rgb '#000000' title 'offered', "
	top+="'$csv' using \"t\":\"goodput_cps\" with lines lw 3 lc rgb '$c' title '$name completed', "
	top+="'$csv' using \"t\":\"rejected_cps\" with lines lw 1 dt 2 lc rgb '$c' title '$name rejected', "
	bot+="'$csv' using \"t\":\"proxy_cpu\" with lines lw 2 lc rgb '$c' title '$name', "
	i=$((i + 1))
done
gnuplot <<EOF
set terminal pngcairo noenhanced size 1000,800 font ",10"
set output "$out"
set datafile separator ","
set datafile missing ""
set multiplot layout 2,1 title "R-SOCA campaign: $(basename "$out" .png)" font ",12"
set grid
set key outside right top
set lmargin 10
set rmargin 34
set xlabel "time (s)"
set ylabel "calls/s"
set yrange [0:*]
plot ${top%, }
set ylabel "proxy CPU (share of quota)"
set yrange [0:1.1]
plot ${bot%, }, $cmin with lines dt 2 lc rgb '#888888' title 'C_min', $cmax with lines dt 4 lc rgb '#444444' title 'C_max'
unset multiplot
EOF
echo "$out"
