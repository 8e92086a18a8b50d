#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_es_summary.sh - bench/sim/es-summary.sh on ES runs made up
# for the test: the first iteration, the means over the first and last N, the
# best J; a file with no iteration is an error.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
{
	echo "# ES of 003 §VI-A: made up"
	echo "# k,J,G,pi.kpc,pi.kic,pi.kpq,pi.kiq"
	echo "0,2.0,-1.0,12,12,20,130"
	echo "1,1.0,-1.2,10,10,18,120"
	echo "2,0.5,-1.4,8,8,16,110"
	echo "3,1.5,-1.6,6,6,14,100"
	echo "# best J 0.5 at ..."
} >"$F/run-a.txt"
out=$(ES_SUMMARY_LAST=2 "$top/bench/sim/es-summary.sh" "$F/run-a.txt")
row=$(sed -n 3p <<<"$out")
is "header names the window" "$(sed -n 1p <<<"$out" | grep -c 'means over the last 2')" 1
is "one row per file" "$(wc -l <<<"$out")" 3
is "row: name, iterations, iteration 0, first 2, last 2, best" "$row" \
	"| run-a.txt | 4 | 2.00, -1.00, 12.0, 12.0, 20.0, 130.0 | 1.50, -1.10, 11.0, 11.0, 19.0, 125.0 | 1.00, -1.50, 7.0, 7.0, 15.0, 105.0 | 0.50 (8.0, 8.0, 16.0, 110.0) |"
echo "# nothing" >"$F/empty.txt"
if "$top/bench/sim/es-summary.sh" "$F/empty.txt" >/dev/null 2>"$F/err"; then
	no "a run with no iteration is an error"
else
	is "a run with no iteration is an error, said" "$(grep -c 'no iterations' "$F/err")" 1
fi
t_done
