#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-network.sh [DIR]: the network campaign (campaigns/network.sh,
# DIR default bench/results/network) as paper 000's Fig. 12-14, one panel
# per topology, one line per mode (local, hop, e2e; none if run), x the
# offered load in multiples of the core's rho_M (log 2):
#   goodput.png     goodput at the UAS / rho_M (solid) and timely goodput
#                   (INVITE->200 < 500 ms, dashed), with the bound
#                   min(offered, rho_M) (000 Fig. 14); below, goodput over
#                   the window's last third (g_late)
#   rejections.png  where calls are refused: per second / rho_M at the core
#                   (its ovc_admit, solid) and at the edges (ovc_dst_admit
#                   and their own ovc_admit, dashed); below, the edges'
#                   share of all refusals, %
#   core.png        the core's received initial INVITEs / rho_M (the
#                   issue's target 1.2 dotted; dashed: the window's last
#                   third) and its CPU / quota
#   delay.png       mean setup delay of the calls set up, ms (000 Fig. 12)
#   reaction.png    when DIR/reaction/ exists (network-reaction.sh): the
#                   edges' refusal fraction (1-s moving) after the step,
#                   with 0.9 x the needed reduction, and the largest
#                   next-hop reduction in force
# The last row of each (topology, mode, multiple) in runs.csv counts.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || [ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/results/network}
runs=$dir/runs.csv
command -v gnuplot >/dev/null || { echo "gnuplot missing (make deps)" >&2; exit 1; }
[ -s "$runs" ] || { echo "no runs in $runs" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# per (topo, mode): r g g_timely core_rx_r core_cpu core_rej/rho
# edge_rej/rho edge_pct setup_mean, sorted by r; columns found by name
awk -F',' -v tmp="$tmp" '
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $(c["topo"]) SUBSEP $(c["mode"]) SUBSEP $(c["mult"]); last[k] = $0 }
	function n(x) { return x == "-" || x == "" ? "nan" : x }
	END {
		for(k in last) {
			split(last[k], v, ",")
			rho = v[c["rho_m"]]
			er = (v[c["edge_rejected_cps"]] == "-" ? 0 : v[c["edge_rejected_cps"]]) + \
				(v[c["edge_refused_cps"]] == "-" ? 0 : v[c["edge_refused_cps"]])
			f = tmp "/" v[c["topo"]] "-" v[c["mode"]] ".dat"
			printf "%s %s %s %s %s %s %.4f %s %s %s %s %s\n", v[c["mult"]], v[c["r"]],
				v[c["g"]], v[c["g_timely"]], n(v[c["core_rx_r"]]),
				n(v[c["core_cpu"]]),
				er / rho, n(v[c["core_rejected_cps"]]) == "nan" ? "nan" : \
				sprintf("%.4f", v[c["core_rejected_cps"]] / rho),
				n(v[c["reject_at_edge_pct"]]), n(v[c["setup_mean_ms"]]),
				("g_late" in c ? n(v[c["g_late"]]) : "nan"),
				("core_rx_r_late" in c ? n(v[c["core_rx_r_late"]]) : "nan") >> f
		}
	}' "$runs"
for f in "$tmp"/*.dat; do sort -g -k1,1 "$f" -o "$f"; done
topos=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "topo") c = i; next }
	!s[$c]++ { print $c }' "$runs")
modes=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "mode") c = i; next }
	!s[$c]++ { print $c }' "$runs")
rho=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "rho_m") c = i; next }
	{ r = $c } END { print r }' "$runs")
ntopo=$(wc -w <<<"$topos")
color() {
	case "$1" in
	local) echo '#cc0000' ;;
	hop) echo '#0066cc' ;;
	e2e) echo '#009900' ;;
	*) echo '#888888' ;;
	esac
}
# plots COLUMN_EXPR DASH TOPO [TITLE_SUFFIX]: one plot clause per mode
plots() {
	local expr=$1 dt=$2 t=$3 sfx=${4:-} m f s=""
	for m in $modes; do
		f="$tmp/$t-$m.dat"
		[ -s "$f" ] || continue
		s+="'$f' using 2:($expr) with linespoints lw 2 dt $dt pt 7 lc rgb '$(color "$m")' title '$m$sfx', "
	done
	echo "${s%, }"
}
common="set grid; set logscale x 2; set xlabel 'offered load, multiples of rho_M'; set key top left"

{
	echo "set terminal pngcairo size $((560 * ntopo)),900 font ',10'"
	echo "set output '$dir/goodput.png'"
	echo "set multiplot layout 2,$ntopo title 'goodput at the UAS (core capped, rho_M $rho calls/s); solid: completed, dashed: set up < 500 ms' font ',11'"
	for t in $topos; do
		echo "$common; set title '$t: steady window'; set ylabel 'goodput / rho_M'; set yrange [0:1.3]"
		echo "plot [0.8:20] (x < 1 ? x : 1) with lines lw 1 lc rgb '#000000' title 'min(offered, rho_M)', $(plots '$3' 1 "$t"), $(plots '$4' 2 "$t" ' timely')"
	done
	for t in $topos; do
		echo "$common; set title '$t: last third of the window (completed)'; set ylabel 'goodput / rho_M'; set yrange [0:1.3]"
		echo "plot [0.8:20] (x < 1 ? x : 1) with lines lw 1 lc rgb '#000000' title 'min(offered, rho_M)', $(plots '$11' 1 "$t")"
	done
	echo "unset multiplot"

	echo "set output '$dir/rejections.png'"
	echo "set terminal pngcairo size $((560 * ntopo)),900 font ',10'"
	echo "set multiplot layout 2,$ntopo title 'where calls are refused; solid: at the core, dashed: at the edges' font ',11'"
	for t in $topos; do
		echo "$common; set title '$t'; set ylabel 'refusals per second / rho_M'; set autoscale y"
		echo "plot [0.8:20] $(plots '$8' 1 "$t"), $(plots '$7' 2 "$t" ' (edges)')"
	done
	for t in $topos; do
		echo "$common; set title '$t: edges share of all refusals'; set ylabel '%'; set yrange [0:105]"
		echo "plot [0.8:20] $(plots '$9' 1 "$t")"
	done
	echo "unset multiplot"

	echo "set output '$dir/core.png'"
	echo "set multiplot layout 2,$ntopo title 'the core: initial INVITEs received and CPU' font ',11'"
	for t in $topos; do
		echo "$common; set title '$t'; set ylabel 'INVITEs received / rho_M'; set autoscale y; set yrange [0:*]"
		echo "plot [0.8:20] 1.2 with lines dt 3 lc rgb '#000000' title 'target 1.2', $(plots '$5' 1 "$t"), $(plots '$12' 2 "$t" ' (last third)')"
	done
	for t in $topos; do
		echo "$common; set title '$t'; set ylabel 'core CPU / quota'; set yrange [0:1.1]"
		echo "plot [0.8:20] $(plots '$6' 1 "$t")"
	done
	echo "unset multiplot"

	echo "set output '$dir/delay.png'"
	echo "set terminal pngcairo size $((560 * ntopo)),520 font ',10'"
	echo "set multiplot layout 1,$ntopo title 'mean setup delay (INVITE -> 200) of the calls set up' font ',11'"
	for t in $topos; do
		echo "$common; set title '$t'; set ylabel 'ms'; set logscale y; set autoscale y"
		echo "plot [0.8:20] $(plots '$10' 1 "$t")"
		echo "unset logscale y"
	done
	echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot-network: $dir/goodput.png rejections.png core.png delay.png"

if [ -d "$dir/reaction" ] && ls "$dir"/reaction/*-1s.csv >/dev/null 2>&1; then
	rt=""
	for f in "$dir"/reaction/*.csv; do
		case "$f" in *-1s.csv | */summary.csv) continue ;; esac
		rt+=" $(basename "$f" .csv)"
	done
	n=$(wc -w <<<"$rt")
	[ "$n" -gt 0 ] || exit 0
	{
		echo "set terminal pngcairo size $((560 * n)),520 font ',10'"
		echo "set output '$dir/reaction.png'"
		echo "set datafile separator ','"
		echo "set multiplot layout 1,$n title 'step to the overload: the edges refusal fraction (1-s moving) and the reduction in force' font ',11'"
		for t in $rt; do
			f="$dir/reaction/$t.csv"
			echo "set grid; set title '$t'; set xlabel 's after the step'; set ylabel 'fraction'; set yrange [0:1]; set key bottom right"
			echo "plot [-3:*] '$f' using 1:5 with lines lw 2 lc rgb '#0066cc' title 'refused / offered at the edges', '$f' using 1:(\$6 / 100) with lines lw 1 lc rgb '#cc6600' title 'largest reduction in force', '$f' using 1:(0.9 * \$7) with lines dt 2 lc rgb '#000000' title '0.9 x needed', '$f' using 1:7 with lines dt 3 lc rgb '#000000' title 'needed: 1 - rho_M / offered'"
		done
		echo "unset multiplot"
	} >"$tmp/reaction.gp"
	gnuplot "$tmp/reaction.gp"
	echo "plot-network: $dir/reaction.png"
fi
