#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/kstage-split.sh - where the proxy's CPU goes in a sweep's runs
# (issue 21): forwarding (the admitted work), answering (503s on the fast
# path) and dropping (the kernel stage's filter), as shares of the CPU
# capacity ovc measures (the quota), per offered load.
#
#   kstage-split.sh [-n DROP_NS] [-o OUT_PNG] DIR...
#
# For every run directory DIR/*/ (bench/runners/sweep.sh's ALG-rR-kK), over its
# measurement window (merged.csv's seconds t in [8, 23)): forwarding =
# mean(cpu - cpu_reject), answering = mean(cpu_reject) (ovc's own
# per-second CSV, ovc_raw.txt), dropping = mean(kstage_drops) x DROP_NS
# (the filter's time per dropped INVITE, bench/microbench/kstage_bench.c;
# default 350) / capacity (CPU_QUOTA_US / CPU_PERIOD_US of the
# calibration, cpu-seconds per second); idle = the rest. Prints a
# markdown table of the medians per (algorithm, r) over the runs, and
# with -o draws them as stacked bars. The filter runs in the receiving
# softirq, mostly on the sender's time, so "dropping" is what it would
# cost the proxy if all of it were charged there.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
a=("$@")
while [ ${#a[@]} -gt 0 ]; do
	case "${a[0]}" in
	-n) bench_num DROP_NS "${a[1]:-}"; a=("${a[@]:2}") ;;
	-o) [ -n "${a[1]:-}" ] || bench_bad "-o takes OUT_PNG"; a=("${a[@]:2}") ;;
	-*) bench_bad "unknown option '${a[0]}'" ;;
	*) [ -d "${a[0]}" ] || bench_bad "DIR: no folder '${a[0]}'"; a=("${a[@]:1}") ;;
	esac
done
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
drop_ns=350
out=
while getopts n:o: o; do
	case $o in
	n) drop_ns=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-n DROP_NS] [-o OUT_PNG] DIR..." >&2; exit 2; }

# run_split RUN_DIR: "alg r forwarding answering dropping drops_per_s"
run_split() {
	local d=$1 cal cap name alg r
	name=$(basename "$d")
	[[ "$name" =~ ^(.+)-r([0-9.]+)-k[0-9]+$ ]] || return 0
	alg=${BASH_REMATCH[1]}
	r=${BASH_REMATCH[2]}
	[ -s "$d/merged.csv" ] && [ -s "$d/ovc_raw.txt" ] || return 0
	# the sweep's calibration (results/ keeps it beside the runs), else
	# the testbed's (BENCH_OUT), else a 20 % quota
	cal=$(dirname "$d")/calibration.env
	[ -s "$cal" ] || cal=${BENCH_OUT:-$here/out}/calibration.env
	cap=$(awk -F'[ /]+' '/^# proxy CPU cap/ { print $5 / $7 }' "$cal" \
		2>/dev/null || true)
	[ -n "$cap" ] || cap=0.2
	awk -F, -v alg="$alg" -v r="$r" -v ns="$drop_ns" -v cap="$cap" '
		FNR == 1 { for(i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
		FILENAME ~ /merged.csv$/ {
			t = $col[FILENAME, "t"]
			if(t >= 8 && t < 23) want[$col[FILENAME, "time"]] = 1
			next
		}
		($col[FILENAME, "time"] in want) {
			c = $col[FILENAME, "cpu"]; j = $col[FILENAME, "cpu_reject"]
			k = $col[FILENAME, "kstage_drops"]
			fw += c - j; an += j; dr += k; n++
		}
		END {
			if(n == 0) exit
			printf "%s %s %.4f %.4f %.4f %.0f\n", alg, r, fw / n, an / n,
				dr / n * ns * 1e-9 / cap, dr / n
		}' "$d/merged.csv" "$d/ovc_raw.txt"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$@"; do
	for d in "$dir"/*/; do
		run_split "${d%/}"
	done
done >"$tmp/runs.txt"
[ -s "$tmp/runs.txt" ] || { echo "no runs with ovc_raw.txt in $*" >&2; exit 1; }
# medians per (alg, r)
sort -k1,1 -k2,2g "$tmp/runs.txt" | awk '
	function med(a, n,   i, j, t) {
		for(i = 2; i <= n; i++) for(j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function flush() {
		if(n == 0) return
		printf "%s %s %d %.4f %.4f %.4f %.0f\n", key1, key2, n, med(f, n),
			med(a, n), med(d, n), med(k, n)
	}
	$1 != key1 || $2 != key2 { flush(); n = 0; key1 = $1; key2 = $2 }
	{ n++; f[n] = $3; a[n] = $4; d[n] = $5; k[n] = $6 }
	END { flush() }' >"$tmp/points.txt"
echo "| algorithm | r | runs | forwarding | answering (503) | dropping (kernel) | idle | kernel drops/s |"
echo "|---|---|---|---|---|---|---|---|"
awk '{ idle = 1 - $4 - $5 - $6; if(idle < 0) idle = 0
	printf "| %s | %s× | %d | %.2f | %.2f | %.4f | %.2f | %d |\n",
		$1, $2, $3, $4, $5, $6, idle, $7 }' "$tmp/points.txt"
[ -n "$out" ] || exit 0
command -v gnuplot >/dev/null || { echo "gnuplot missing (make deps)" >&2; exit 1; }
awk '{ idle = 1 - $4 - $5 - $6; if(idle < 0) idle = 0
	print $1 "\\n" $2 "x", $4, $5, $6, idle }' "$tmp/points.txt" >"$tmp/bars.txt"
gnuplot <<GP
set terminal pngcairo size 900,500 font ",10"
set output "$out"
set title "Where the proxy's CPU goes (share of its quota; dropping: ${drop_ns} ns per kernel drop)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:1.15]
set bmargin 5
set ylabel "share of CPU capacity"
set key outside right
plot "$tmp/bars.txt" using 2:xtic(1) title "forwarding" lc rgb "#0066cc", \
	'' using 3 title "answering (503)" lc rgb "#cc6600", \
	'' using 4 title "dropping (kernel)" lc rgb "#cc0000", \
	'' using 5 title "idle" lc rgb "#dddddd"
GP
echo "kstage-split: $out"
