#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-rxq.sh [RUNS_CSV [OUT_PNG]]: the receive-queue campaign
# (bench/campaigns/rxq.sh) on one picture. Top: timely goodput (calls/s set
# up within 500 ms) per variant against the offered load; middle: completed
# calls/s; bottom: mean setup delay of the calls that got a 200 (log).
# The last run of each (load, variant) pair counts.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 2 "$@"
[ $# -eq 0 ] || [ -f "$1" ] || bench_bad "RUNS_CSV: no file '$1'"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-$here/results/rxq/runs.csv}
out=${2:-$here/results/rxq/rxq.png}
command -v gnuplot >/dev/null || { echo "gnuplot missing (make deps)" >&2; exit 1; }
[ -s "$runs" ] || { echo "no runs in $runs" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# last row per (offered, variant), one data file per variant
awk -F',' 'NR > 1 { k = $1 "," $2; row[k] = $0; if(!(k in seen)) { seen[k] = 1; order[n++] = k } }
	END { for(i = 0; i < n; i++) print row[order[i]] }' "$runs" | sort -s -t, -k1,1n >"$tmp/last.csv"
variants=$(cut -d, -f2 "$tmp/last.csv" | awk '!s[$0]++')
plots_t=""
plots_c=""
plots_d=""
i=0
colors=('#000000' '#888888' '#0066cc' '#cc6600' '#cc0000' '#884488' '#009900'
	'#008888' '#bbbb00' '#ff66cc' '#663300' '#00cc66')
for v in $variants; do
	f="$tmp/v$i.csv"
	awk -F',' -v v="$v" '$2 == v' "$tmp/last.csv" >"$f"
	c=${colors[$((i % ${#colors[@]}))]}
	# dashed: no controller (plain, none...), solid: occ...
	case "$v" in occ*) st="dt 1 pt 7" ;; *) st="dt 2 pt 6" ;; esac
	plots_t+="'$f' using 1:3 with linespoints lw 2 $st lc rgb '$c' title '$v', "
	plots_c+="'$f' using 1:4 with linespoints lw 2 $st lc rgb '$c' title '$v', "
	plots_d+="'$f' using 1:(\$6 > 0 ? \$6 : 1/0) with linespoints lw 2 $st lc rgb '$c' title '$v', "
	i=$((i + 1))
done
gnuplot <<EOF
set terminal pngcairo size 1000,1100 font ",10"
set output "$out"
set datafile separator ","
set multiplot layout 3,1 title "receive queue: capped proxy (rho_M 350 calls/s), 2x/4x/8x" font ",12"
set grid
set key outside right top
set lmargin 10
set xlabel "offered calls/s"
set xtics (700, 1400, 2800)
set logscale x 2
set ylabel "timely calls/s (setup < 500 ms)"
plot ${plots_t%, }
set ylabel "completed calls/s"
plot ${plots_c%, }
set logscale y
set ylabel "mean setup delay, ms"
plot ${plots_d%, }
unset multiplot
EOF
echo "plot-rxq: $out"
