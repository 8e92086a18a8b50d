#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/sweep-table.sh - collect a sweep's summaries: DIR/sweep.csv,
# DIR/sweep-points.csv, DIR/sweep.md.
#
#   sweep-table.sh DIR
#
# sweep.csv: one row per run directory DIR/*/summary.json, sorted by
# algorithm then load: measured r = offered / rho_M, g = completed /
# rho_M, g_timely (INVITE->200 under 500 ms) / rho_M, the bound g_opt(r)
# of paper 003 for the calibrated C_T and each rejection path's beta
# (BETA: a 503 in the script; BETA_OVC: ovc's refusal at arrival, when
# the calibration measured it), the run (k of a sweep's repeats) and the
# module's digest. sweep-points.csv and sweep.md: per (algorithm, target
# r) the number of runs and the median, min and max of g and g_timely,
# the medians of the other figures.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_args_checked
# draws from files, starts no load: no load lock
: "${OVC_LOAD_LOCKED:=no-load}"
. "$(dirname "$0")/../testbed/lib.sh"

dir=$1
. "$BENCH_OUT/calibration.env"
beta_ovc=${BETA_OVC:-}
keys=(meta.algorithm meta.peak_r r g g_timely offered_cps goodput_cps
	timely_cps rejected_cps failed_cps setup_p50_ms setup_p95_ms
	retrans_per_call extra_mean.proxy_cpu f_mean extra_mean.sipp_cpu_max
	meta.ovc_so_md5 setup_mean_ms)
bound() {
	[ -n "$2" ] && "$BENCH_BIN/ovc-bound" at "$CT" "$2" "$1" 2>/dev/null ||
		echo -
}
{
	echo "algorithm,r_target,r,g,g_timely,g_opt,g_opt_ovc,offered_cps,goodput_cps,timely_cps,rejected_cps,failed_cps,setup_p50_ms,setup_p95_ms,retrans_per_call,proxy_cpu,f,sipp_cpu_max,run,ovc_so_md5,setup_mean_ms"
	for f in "$dir"/*/summary.json; do
		[ -e "$f" ] || continue
		run=$(basename "$(dirname "$f")")
		k=1
		[[ "$run" =~ -k([0-9]+)$ ]] && k=${BASH_REMATCH[1]}
		set -- $("$BENCH_BIN/ovc-jget" "$f" "${keys[@]}")
		echo "$1,$2,$3,$4,$5,$(bound "$3" "$BETA"),$(bound "$3" "$beta_ovc"),${6},${7},${8},${9},${10},${11},${12},${13},${14},${15},${16},$k,${17},${18}"
	done | sort -t, -k1,1 -k2,2g -k19,19n
} >"$dir/sweep.csv"
# per point: n, then median/min/max of g (4) and g_timely (5), medians of
# g_opt (6, 7), completed/s, timely/s, rejected/s, failed/s, p50, p95,
# retrans/call, CPU, f (9..17) and the mean setup (21; "-" in runs
# summarised before summary.json had it)
awk -F, -v OFS=, '
function med(a, n,   i, j, t) {
	for(i = 2; i <= n; i++)
		for(j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function num(v) { return v == "-" || v == "" ? "" : v + 0 }
NR == 1 { next }
{
	key = $1 SUBSEP $2
	if(!(key in cnt)) { order[++npts] = key; alg[key] = $1; rt[key] = $2 }
	k = ++cnt[key]
	for(c = 4; c <= 21; c++) if(c != 8 && c < 18 || c == 21) v[key, c, k] = num($c)
}
END {
	print "algorithm,r_target,runs,g_med,g_min,g_max,g_timely_med,g_timely_min,g_timely_max,g_opt,g_opt_ovc,goodput_cps,timely_cps,rejected_cps,failed_cps,setup_p50_ms,setup_p95_ms,retrans_per_call,proxy_cpu,f,setup_mean_ms"
	for(p = 1; p <= npts; p++) {
		key = order[p]; n = cnt[key]; line = alg[key] OFS rt[key] OFS n
		for(c = 4; c <= 21; c++) {
			if(c == 8 || c > 17 && c < 21) continue
			m = 0
			for(k = 1; k <= n; k++) if(v[key, c, k] != "") a[++m] = v[key, c, k]
			if(m == 0) { line = line OFS "-"; if(c <= 5) line = line OFS "-" OFS "-"; continue }
			mn = a[1]; mx = a[1]
			for(k = 2; k <= m; k++) { if(a[k] < mn) mn = a[k]; if(a[k] > mx) mx = a[k] }
			line = line OFS sprintf("%.4g", med(a, m))
			if(c <= 5) line = line OFS sprintf("%.4g", mn) OFS sprintf("%.4g", mx)
			delete a
		}
		print line
	}
}' "$dir/sweep.csv" >"$dir/sweep-points.csv"
{
	b="beta = $BETA (a 503 in the script)"
	[ -z "$beta_ovc" ] || b="$b, $beta_ovc (refused by ovc at arrival)"
	echo "rho_M = $RHO_M calls/s, C_T = $CT; $b; g_opt: paper 003 Prop. 1"
	echo
	echo "| algorithm | r | runs | g median [min, max] | g timely median [min, max] | g_opt(r) script / ovc | completed/s | timely/s | rejected/s | failed/s | p50 ms | p95 ms | mean ms | retrans/call | proxy CPU | f |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$dir/sweep-points.csv" | awk -F, '{
		for(c = 4; c <= 11; c++) if($c != "-") $c = sprintf("%.2f", $c)
		printf "| %s | %s | %s | %s [%s, %s] | %s [%s, %s] | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
			$15, $16, $17, $21, $18, $19, $20 }'
} >"$dir/sweep.md"
echo "$dir/sweep.csv"
