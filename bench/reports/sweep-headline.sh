#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/sweep-headline.sh - a sweep's headline table (README, RESULTS).
#
#   sweep-headline.sh DIR [ARM...]
#
# One row per load of DIR/sweep-points.csv (sweep-table.sh), one column
# per ARM (default: none taildrop occ): the median timely goodput / rho_M
# with the smallest and largest run ("0.91 [0.88-0.93]") and the median
# p50 setup of the calls set up. Markdown on stdout.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 - "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_args_checked
dir=${1:?usage: sweep-headline.sh DIR [ARM...]}
shift
csv="$dir/sweep-points.csv"
[ -s "$csv" ] || { echo "sweep-headline: no $csv" >&2; exit 1; }
arms=("$@")
[ ${#arms[@]} -gt 0 ] || arms=(none taildrop occ)
awk -F, -v arms="${arms[*]}" '
function fmt(v) { return v == "-" ? "-" : sprintf("%.2f", v) }
function ms(v) {
	if(v == "-") return "-"
	return v >= 1000 ? sprintf("%.1f s", v / 1000) : sprintf("%d ms", v)
}
NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
{
	k = $c["algorithm"] SUBSEP $c["r_target"]
	if(!($c["r_target"] in seen)) { seen[$c["r_target"]] = 1; rs[++nr] = $c["r_target"] }
	cell[k] = fmt($c["g_timely_med"]) " [" fmt($c["g_timely_min"]) "-" \
		fmt($c["g_timely_max"]) "] (" ms($c["setup_p50_ms"]) ")"
	runs[k] = $c["runs"]
}
END {
	na = split(arms, a, " ")
	for(i = 2; i <= nr; i++) # loads in ascending order
		for(j = i; j > 1 && rs[j - 1] + 0 > rs[j] + 0; j--) {
			t = rs[j]; rs[j] = rs[j - 1]; rs[j - 1] = t
		}
	h = "| offered |"; u = "|---|"
	for(j = 1; j <= na; j++) { h = h " " a[j] " |"; u = u "---|" }
	print h; print u
	for(i = 1; i <= nr; i++) {
		l = "| " rs[i] "x |"
		for(j = 1; j <= na; j++) {
			k = a[j] SUBSEP rs[i]
			l = l " " (k in cell ? cell[k] : "-") " |"
		}
		print l
	}
}' "$csv"
