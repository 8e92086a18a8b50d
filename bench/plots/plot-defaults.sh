#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-defaults.sh DIR: the defaults campaign
# (bench/campaigns/defaults.sh) as pictures and a table. From DIR/runs.csv:
#   DIR/defaults.png  timely goodput (solid) and completed goodput
#                     (dashed) over rho_M versus offered load over rho_M,
#                     one colour per arm, with paper 003's bound g_opt(r)
#                     for C_T = 1 and beta (below);
#   DIR/defaults.md   one row per run, and the beta used.
# beta (003 Fig. 2) = CPU per forwarded call / CPU per refused call:
# BETA, default 23, what bench/campaigns/reject-cost.sh measured for ovc refusing
# at datagram arrival (bench/RESULTS.md, "What a rejection costs"). It
# cannot be taken from this campaign's own rows: the proxy forwards a call
# for less CPU when it is saturated (batched reads and timers) than at
# 0.9x, so the CPU left for the refusals comes out negative.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_num BETA "${BETA:-23}"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
runs="$dir/runs.csv"
[ -s "$runs" ] || { echo "plot-defaults: no $runs" >&2; exit 1; }
# the newest row of each (load, arm): a re-run replaces an earlier one
csv="$dir/latest.csv"
{
	head -1 "$runs"
	tail -n +2 "$runs" | awk -F, '{ k = $1 "," $3; row[k] = $0
			if(!(k in seen)) { seen[k] = 1; order[++n] = k } }
		END { for(i = 1; i <= n; i++) print row[order[i]] }'
} >"$csv"
bound="$here/build/bench/ovc-bound"
[ -x "$bound" ] || make -C "$here" -s bench-tools >/dev/null

# columns: mult,offered_cps,arm,cap_cps,timely_cps,completed_cps,g_timely,
# g_completed,refused_pct,retrans_per_call,setup_mean_ms,setup_p95_ms,cpu
beta=${BETA:-23}
rmax=$(awk -F, 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m * 1.05 }' "$csv")
if awk "BEGIN { exit !($beta > 1) }"; then
	"$bound" curve 1 "$beta" "$rmax" | tr ' ' ',' >"$dir/gopt.dat"
else
	echo "0,0" >"$dir/gopt.dat"
fi
colors=('#000000' '#999999' '#cc0000' '#0066cc' '#009900' '#cc6600' '#884488' '#008888' '#666600' '#cc00cc' '#3333ff')
plots="'$dir/gopt.dat' using 1:2 with lines lw 3 lc rgb '#bbbbbb' title 'g_{opt}(r), C_T = 1, {/Symbol b} = $beta', "
i=0
for a in $(tail -n +2 "$csv" | cut -d, -f3 | awk '!s[$0]++'); do
	c=${colors[$((i % ${#colors[@]}))]}
	awk -F, -v a="$a" '$3 == a' "$csv" | sort -t, -k1,1g >"$dir/arm-$a.dat"
	plots+="'$dir/arm-$a.dat' using 1:7 with linespoints lw 2 pt 7 lc rgb '$c' title '$a timely', "
	plots+="'$dir/arm-$a.dat' using 1:8 with linespoints lw 1 dt 2 pt 6 lc rgb '$c' notitle, "
	i=$((i + 1))
done
cap=$(awk -F, 'NR == 2 { print $4 }' "$csv")
gnuplot <<EOF
set terminal pngcairo size 1100,650 font ",11"
set output "$dir/defaults.png"
set datafile separator ","
set title "Module defaults: timely (solid) and completed (dashed) goodput, rho_M = $cap calls/s (proxy capped at 20 % of a core)"
set xlabel "offered load r = R / rho_M"
set ylabel "goodput / rho_M"
set logscale x 2
set xrange [0.4:$rmax]
set yrange [0:1.7]
set grid
set key outside right top
set rmargin 30
plot ${plots%, }
EOF
{
	echo "rho_M = $cap calls/s; g_opt for C_T = 1 and beta = $beta (bench/campaigns/reject-cost.sh)"
	echo
	echo "| r | arm | timely/s | completed/s | g timely | g completed | refused % | retrans/call | setup mean ms | setup p95 ms | CPU |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$csv" | sort -t, -k1,1g -s | awk -F, '{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$1, $3, $5, $6, $7, $8, $9, $10, $11, $12, $13 }'
} >"$dir/defaults.md"
echo "$dir/defaults.png $dir/defaults.md (beta $beta)"
