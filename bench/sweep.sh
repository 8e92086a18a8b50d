#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sweep.sh - goodput versus normalized load, per algorithm.
#
#   sweep.sh [-A "ALG..."] [-r "R..."] [-d SECONDS] [-n] [-o DIR]
#
# One constant-load run per (r, algorithm), algorithms interleaved at each
# r so that slow drifts of the machine hit all of them alike. Default
# algorithms "none ratelimit occ", loads "0.5 1 1.5 2 3 4 6 8 10", 20 s
# per run (plus 3 s warm-up). Writes DIR/sweep.csv (one row per run),
# DIR/sweep.md (a table) and DIR/sweep.png (g and timely g versus r, with
# the bound g_opt(r) of paper 003 from the calibrated beta and C_T).
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

algs="none ratelimit occ"
loads="0.5 1 1.5 2 3 4 6 8 10"
dur=20
nr=()
dir="$BENCH_OUT/sweep"
while getopts "A:r:d:no:" o; do
	case "$o" in
	A) algs=$OPTARG ;;
	r) loads=$OPTARG ;;
	d) dur=$OPTARG ;;
	n) nr=(-n) ;;
	o) dir=$OPTARG ;;
	*) die "usage: sweep.sh [-A ALGS] [-r LOADS] [-d S] [-n] [-o DIR]" ;;
	esac
done
[ -f "$BENCH_OUT/calibration.env" ] ||
	die "no calibration: run bench/calibrate.sh first"
mkdir -p "$dir"
total=$(($(wc -w <<<"$algs") * $(wc -w <<<"$loads")))
k=0
for r in $loads; do
	for a in $algs; do
		k=$((k + 1))
		say "sweep $k/$total: $a at r = $r"
		"$here/run.sh" -a "$a" -p constant -r "$r" -d "$dur" -w 3 \
			"${nr[@]}" -o "$dir/$a-r$r" >/dev/null 2>"$dir/$a-r$r.log" ||
			say "  run failed: $dir/$a-r$r.log"
	done
done
"$here/sweep-table.sh" "$dir"
"$here/plot-sweep.sh" "$dir"
