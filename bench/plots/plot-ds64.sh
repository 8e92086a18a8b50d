#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-ds64.sh [DIR]: the dispatcher-64 campaign (campaigns/ds64.sh,
# DIR default bench/results/ds64) as DIR/ds64.png, x the offered load in
# multiples of the core's capacity (log 2), one line per edge (ds64, ovc,
# local):
#   top     the core's received initial INVITEs / capacity (the issue's
#           target 1.25 dotted)
#   bottom  timely goodput (INVITE->200 < 500 ms) / capacity (solid; the
#           target 0.9 dotted) and goodput at the UAS / capacity (dashed)
# Also DIR/summary.csv: the last row of each (edge, mult) of runs.csv.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || [ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/results/ds64}
runs=$dir/runs.csv
command -v gnuplot >/dev/null || { echo "gnuplot missing (make deps)" >&2; exit 1; }
[ -s "$runs" ] || { echo "no runs in $runs" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the last row of each (edge, mult), sorted by edge then mult
awk -F',' 'NR == 1 { print; for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $(c["edge"]) "," $(c["mult"]); last[k] = $0 }
	END { for(k in last) print last[k] | "sort -t, -k4,4 -k5,5n" }' \
	"$runs" >"$dir/summary.csv"
edges=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "edge") c = i; next }
	{ print $c }' "$dir/summary.csv" | awk '!s[$0]++')
for e in $edges; do
	awk -F',' -v e="$e" 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["edge"]) == e { print $(c["mult"]), $(c["core_rx_r"]),
			$(c["timely_r"]), $(c["good_r"]) }' "$dir/summary.csv" \
		>"$tmp/$e.dat"
done
{
	echo "set terminal pngcairo size 720,820 font ',10'"
	echo "set output '$dir/ds64.png'"
	echo "set multiplot layout 2,1"
	echo "set logscale x 2; set grid; set key top left"
	echo "set xlabel 'offered load / core capacity'"
	echo "set ylabel 'core received / capacity'"
	echo "set title 'Initial INVITEs the core receives (edge in front of an ovc core)'"
	printf "plot 1.25 dt 3 lc 'black' title 'target 1.25'"
	n=0
	for e in $edges; do
		n=$((n + 1))
		printf ", '%s' using 1:2 with linespoints lw 2 lc %d title '%s'" \
			"$tmp/$e.dat" "$n" "$e"
	done
	echo
	echo "set key bottom left"
	echo "set ylabel 'goodput / capacity'"
	echo "set yrange [0:1.5]"
	echo "set title 'Timely goodput (solid, INVITE->200 < 500 ms) and goodput (dashed)'"
	printf "plot 0.9 dt 3 lc 'black' title 'target 0.9'"
	n=0
	for e in $edges; do
		n=$((n + 1))
		printf ", '%s' using 1:3 with linespoints lw 2 lc %d title '%s timely'" \
			"$tmp/$e.dat" "$n" "$e"
		printf ", '%s' using 1:4 with lines dt 2 lc %d notitle" "$tmp/$e.dat" "$n"
	done
	echo
	echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot-ds64: $dir/ds64.png, $dir/summary.csv"
