#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_sweep_table.sh - bench/reports/sweep-table.sh,
# sweep-headline.sh and plot-sweep.sh on fabricated runs (no load, no root):
# one row per run with its repeat number and module digest, per point the
# number of runs and the median, min and max of g and g_timely (odd and even
# counts), g_opt for both betas, a point whose figure is missing ("-") in some
# runs, the headline table and the plot.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"

cat >"$F/calibration.env" <<'C'
RHO_M=300
BETA=5.5
BETA_OVC=17
CT=0.9
C
# run DIR ALG R G G_TIMELY F [MEAN]: a summary.json as ovc-merge writes it
# (without MEAN as before it recorded the mean setup)
run() {
	local mean=
	[ -n "${7:-}" ] && mean="\"setup_mean_ms\": $7,"
	mkdir -p "$F/sw/$1"
	cat >"$F/sw/$1/summary.json" <<J
{ $mean "g": $4, "g_timely": $5, "r": $3, "offered_cps": $(awk -v r="$3" 'BEGIN { print r * 300 }'),
  "goodput_cps": 100, "timely_cps": 90, "rejected_cps": 10, "failed_cps": 0,
  "setup_p50_ms": 40, "setup_p95_ms": 80, "retrans_per_call": 0.1,
  "f_mean": $6, "extra_mean": { "proxy_cpu": 0.99, "sipp_cpu_max": 0.2 },
  "meta": { "algorithm": "$2", "peak_r": $3, "ovc_so_md5": "abc123" } }
J
}
run occ-r4-k1 occ 4 1.10 1.00 0.3 120
run occ-r4-k2 occ 4 0.90 0.80 0.3 100
run occ-r4-k3 occ 4 1.30 1.20 0.3 160
run none-r4-k1 none 4 0.40 0.10 '"-"'
run none-r4-k2 none 4 0.60 0.30 '"-"'
run occ-r0.5-k1 occ 0.5 0.50 0.50 1
BENCH_OUT=$F "$top/bench/reports/sweep-table.sh" "$F/sw" >/dev/null
col() { # col FILE ALG R NAME: the field NAME of row ALG,R
	awk -F, -v a="$2" -v r="$3" -v n="$4" '
		NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == a && $2 == r { print $c[n]; exit }' "$1"
}
is "one row per run" "$(tail -n +2 "$F/sw/sweep.csv" | wc -l)" 6
is "repeat number kept" "$(awk -F, '$1 == "occ" && $2 == 4 { printf "%s", $19 }' "$F/sw/sweep.csv")" 123
is "module digest kept" "$(col "$F/sw/sweep.csv" occ 4 ovc_so_md5)" abc123
P=$F/sw/sweep-points.csv
is "occ at 4: three runs" "$(col "$P" occ 4 runs)" 3
is "occ at 4: median g" "$(col "$P" occ 4 g_med)" 1.1
is "occ at 4: min g" "$(col "$P" occ 4 g_min)" 0.9
is "occ at 4: max g" "$(col "$P" occ 4 g_max)" 1.3
is "occ at 4: median timely" "$(col "$P" occ 4 g_timely_med)" 1
is "none at 4: even count, median the mean" "$(col "$P" none 4 g_med)" 0.5
is "none at 4: timely min" "$(col "$P" none 4 g_timely_min)" 0.1
is "none at 4: f missing in every run" "$(col "$P" none 4 f)" -
is "occ at 0.5: one run" "$(col "$P" occ 0.5 runs)" 1
is "occ at 4: median of the mean setups" "$(col "$P" occ 4 setup_mean_ms)" 120
is "none at 4: no mean setup recorded" "$(col "$P" none 4 setup_mean_ms)" -
want=$("$top/build/bench/ovc-bound" at 0.9 17 4)
got=$(col "$F/sw/sweep.csv" occ 4 g_opt_ovc)
is "g_opt for ovc's beta" "$got" "$want"
grep -q '| occ | 4 | 3 | 1.10 \[0.90, 1.30\] | 1.00 \[0.80, 1.20\]' "$F/sw/sweep.md" &&
	ok "table: median [min, max]" || no "table: median [min, max]"
h=$("$top/bench/reports/sweep-headline.sh" "$F/sw" occ none)
grep -q '^| 0.5x | 0.50 \[0.50-0.50\] (40 ms) | - |$' <<<"$h" &&
	ok "headline: a load an arm lacks" || no "headline: a load an arm lacks: $h"
grep -q '^| 4x | 1.00 \[0.80-1.20\] (40 ms) | 0.20 \[0.10-0.30\] (40 ms) |$' <<<"$h" &&
	ok "headline: median [min-max] (p50)" || no "headline: median [min-max] (p50): $h"
is "headline: loads ascending" "$(grep -o '^| [0-9.]*x' <<<"$h" | tr -d '| ' | tr '\n' ' ')" "0.5x 4x "
if command -v gnuplot >/dev/null; then
	BENCH_OUT=$F "$top/bench/plots/plot-sweep.sh" "$F/sw" >/dev/null 2>&1 &&
		[ -s "$F/sw/sweep.png" ] && ok "plot drawn" || no "plot drawn"
fi
t_done
