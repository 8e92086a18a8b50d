#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sweep-table.sh - collect a sweep's summaries: DIR/sweep.csv, .md.
#
#   sweep-table.sh DIR
#
# One row per run directory DIR/*/summary.json, sorted by algorithm then
# load: measured r = offered / rho_M, g = completed / rho_M, g_timely
# (INVITE->200 under 500 ms) / rho_M, and g_opt(r) of paper 003 from the
# calibrated C_T and beta.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$1
. "$BENCH_OUT/calibration.env"
keys=(meta.algorithm meta.peak_r r g g_timely offered_cps goodput_cps
	timely_cps rejected_cps failed_cps setup_p50_ms setup_p95_ms
	retrans_per_call extra_mean.proxy_cpu f_mean extra_mean.sipp_cpu_max)
{
	echo "algorithm,r_target,r,g,g_timely,g_opt,offered_cps,goodput_cps,timely_cps,rejected_cps,failed_cps,setup_p50_ms,setup_p95_ms,retrans_per_call,proxy_cpu,f,sipp_cpu_max"
	for f in "$dir"/*/summary.json; do
		[ -e "$f" ] || continue
		set -- $("$BENCH_BIN/ovc-jget" "$f" "${keys[@]}")
		gopt=$("$BENCH_BIN/ovc-bound" at "$CT" "$BETA" "$3" 2>/dev/null || echo -)
		echo "$1,$2,$3,$4,$5,$gopt,${6},${7},${8},${9},${10},${11},${12},${13},${14},${15},${16}"
	done | sort -t, -k1,1 -k2,2g
} >"$dir/sweep.csv"
{
	echo "rho_M = $RHO_M calls/s, beta = $BETA, C_T = $CT (g_opt: paper 003 Prop. 1)"
	echo
	echo "| algorithm | r target | r | g | g timely | g_opt(r) | completed/s | timely/s | rejected/s | failed/s | p50 ms | p95 ms | retrans/call | proxy CPU | f |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$dir/sweep.csv" | awk -F, '{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $12, $13, $14, $15, $16 }'
} >"$dir/sweep.md"
echo "$dir/sweep.csv"
