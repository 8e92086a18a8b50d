#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/plots/plot-tcp.sh OUT DIR...: the SIP over TCP campaign
# (campaigns/tcp.sh; one or more of its output DIRs, their runs.csv
# merged, the last row of each (arm, r) counting) as paper 002's figures,
# one line per arm (default TCP, BM only, ICS+BM+SF), x the offered load
# in multiples of the RE's capacity RHO:
#   OUT/goodput.png   RE goodput / RHO (with min(offered, RHO)); below,
#                     the share of setups under 100 ms (002's PDD target)
#   OUT/retrans.png   200 OK retransmissions at the UAS per second of the
#                     window (log scale, 0 drawn at 0.1); below, the RE's
#                     live transactions (mean of 1-s samples)
#   OUT/setup.png     the setup delay's distribution (INVITE -> 200 of
#                     the calls set up in the window; 002 Fig. 9-11) at
#                     each offered load, one panel per load
# OUT/runs.csv gets the merged rows and OUT/setup-cdf.csv the
# distributions (arm, r, setup ms, cumulative share), computed from each
# run's uac*_rtt.csv when the DIRs hold the runs (DIR/runs/ARM-rR/), so
# that OUT alone re-plots: plot-tcp.sh OUT with no DIR.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 - "$@"
for a in "${@:2}"; do [ -d "$a" ] || bench_bad "DIR: no folder '$a'"; done
bench_args_checked
command -v gnuplot >/dev/null || { echo "gnuplot missing (make deps)" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: plot-tcp.sh OUT [DIR...]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a DIR of bench/results: its runs from the campaign's archive when packed
dirs=()
for d in "$@"; do
	case "$(realpath -m "$d")" in
	"$(cd "$(dirname "$0")/../.." && pwd)"/bench/results/*)
		d=$("$(dirname "$0")/../tools/results.sh" fetch "$d")
		;;
	esac
	dirs+=("$d")
done
set -- ${dirs[@]+"${dirs[@]}"}

if [ $# -gt 0 ]; then
	# merge: the first header, then every row; later rows of an (arm, r)
	# replace earlier ones
	awk -F',' 'FNR == 1 { if(!h++) print; next }
		{ k = $1 SUBSEP $2; if(!(k in row)) ord[++n] = k; row[k] = $0 }
		END { for(i = 1; i <= n; i++) print row[ord[i]] }' \
		$(for d in "$@"; do echo "$d/runs.csv"; done) >"$tmp/runs.csv"
	mv "$tmp/runs.csv" "$out/runs.csv"
	echo "arm,r,setup_ms,share" >"$tmp/cdf.csv"
	while IFS=, read -r arm r; do
		f=
		for d in "$@"; do
			[ -d "$d/runs/$arm-r$r" ] && f=$d/runs/$arm-r$r
		done
		[ -n "$f" ] || continue
		# setup times of the calls answered in [warm, warm + window]:
		# the campaign's -w and -d (default 5 and 20 s)
		cat "$f"/uac*_rtt.csv 2>/dev/null | awk -F';' -v a="${BENCH_TCP_WARMUP:-5}" -v b="${BENCH_TCP_WINDOW:-20}" '
			$1 !~ /^[0-9.]+$/ || $3 != "setup" { next }
			{ t = $1 / 1000; if(t >= a && t <= a + b) print $2 }' |
			sort -g | awk -v arm="$arm" -v r="$r" '
			{ v[++k] = $1 }
			END { for(i = 1; i <= k; i++)
				if(i == k || v[i + 1] != v[i])
					printf "%s,%s,%s,%.5f\n", arm, r, v[i], i / k }' >>"$tmp/cdf.csv"
	done < <(awk -F',' 'NR > 1 { print $1 "," $2 }' "$out/runs.csv")
	if [ "$(wc -l <"$tmp/cdf.csv")" -gt 1 ]; then
		mv "$tmp/cdf.csv" "$out/setup-cdf.csv"
	else
		rm -f "$out/setup-cdf.csv" # the runs are gone: no distribution
	fi
fi
[ -s "$out/runs.csv" ] || { echo "no runs in $out/runs.csv" >&2; exit 1; }

arms=$(awk -F',' 'NR > 1 && !s[$1]++ { print $1 }' "$out/runs.csv")
loads=$(awk -F',' 'NR > 1 && !s[$2]++ { print $2 }' "$out/runs.csv" | sort -g)
rho=$(awk -F',' 'NR > 1 { r = $4 } END { print r }' "$out/runs.csv")
# per arm: r g lt100 retrans/s live_mean, sorted by r
for a in $arms; do
	awk -F',' -v a="$a" -v d="${BENCH_TCP_WINDOW:-20}" 'NR > 1 && $1 == a {
		printf "%s %s %s %.3f %s\n", $2, $6, $8, $12 / d, $16 }' \
		"$out/runs.csv" | sort -g >"$tmp/$a.dat"
done
color() {
	case "$1" in
	default) echo '#cc0000' ;;
	bm) echo '#cc8800' ;;
	sfbm) echo '#0066cc' ;;
	*) echo '#888888' ;;
	esac
}
label() {
	case "$1" in
	default) echo 'default TCP' ;;
	bm) echo 'BM only' ;;
	sfbm) echo 'ICS+BM+SF' ;;
	*) echo "$1" ;;
	esac
}
# plots EXPR: one clause per arm
plots() {
	local s="" a
	for a in $arms; do
		s+="'$tmp/$a.dat' using 1:($1) with linespoints lw 2 pt 7 lc rgb '$(color "$a")' title '$(label "$a")', "
	done
	echo "${s%, }"
}
common="set grid; set logscale x 2; set xlabel 'offered load, multiples of RHO'; set key top left"
nl=$(wc -w <<<"$loads")
{
	echo "set terminal pngcairo size 640,900 font ',10'"
	echo "set output '$out/goodput.png'"
	echo "set multiplot layout 2,1 title 'SE -TCP-> RE, the RE capped (RHO $rho calls/s)' font ',11'"
	echo "$common; set title 'RE goodput'; set ylabel 'goodput / RHO'; set yrange [0:1.4]"
	echo "plot [0.8:12] (x < 1 ? x : 1) with lines lw 1 lc rgb '#000000' title 'min(offered, RHO)', 0.95 with lines dt 3 lc rgb '#000000' title 'target 0.95 at 10x', $(plots '$2')"
	echo "$common; set title 'setups under 100 ms'; set ylabel 'share of calls set up'; set yrange [0:1.05]; set key bottom left"
	echo "plot [0.8:12] 0.99 with lines dt 3 lc rgb '#000000' title 'target 0.99', $(plots '$3')"
	echo "unset multiplot"

	echo "set output '$out/retrans.png'"
	echo "set multiplot layout 2,1 title 'sessions at the RE: 200 OK retransmissions and live transactions' font ',11'"
	echo "$common; set title '200 OK retransmissions at the UAS (0 drawn at 0.1)'; set ylabel 'per second'; set logscale y; set yrange [0.05:*]"
	echo "plot [0.8:12] $(plots '$4 > 0 ? $4 : 0.1')"
	echo "unset logscale y; $common; set title 'transactions live at the RE (tm, incl. 5-s wait state)'; set ylabel 'mean'; set yrange [0:*]"
	echo "plot [0.8:12] $(plots '$5')"
	echo "unset multiplot"

	if [ -s "$out/setup-cdf.csv" ]; then
		echo "set terminal pngcairo size $((420 * nl)),460 font ',10'"
		echo "set output '$out/setup.png'"
		echo "set datafile separator ','"
		echo "set multiplot layout 1,$nl title 'setup delay (INVITE -> 200) of the calls set up in the window' font ',11'"
		for r in $loads; do
			s=""
			for a in $arms; do
				s+="'$out/setup-cdf.csv' using (stringcolumn(1) eq '$a' && \$2 == $r ? \$3 : NaN):4 with steps lw 2 lc rgb '$(color "$a")' title '$(label "$a")', "
			done
			echo "set grid; set logscale x 10; set xlabel 'ms'; set ylabel 'cumulative share'; set yrange [0:1.02]; set key below; set title '${r}x'"
			echo "set arrow 1 from 100, graph 0 to 100, graph 1 nohead dt 3 lc rgb '#000000'"
			echo "plot [1:10000] ${s%, }"
		done
		echo "unset multiplot"
	fi
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot-tcp: $out/goodput.png retrans.png$([ -s "$out/setup-cdf.csv" ] && echo " setup.png")"
