#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_capest_csv.sh - bench/reports/capest-csv.sh on runs
# made up for the test: a header line, then per run its folder's name,
# capacity_cps from ovc_stats.txt, RHO_M and their ratio; a run without
# capacity_cps fails, and so do a missing ovc_stats.txt and a RHO_M that
# is not above 0; bench/results/capest-by-load/capacity_cps.csv has the
# header the script writes.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
s=$top/bench/reports/capest-csv.sh
# run NAME CAPACITY: ovc_stats.txt as kamcmd ovc.stats prints it
run() {
	mkdir -p "$F/$1"
	printf '{\n\trxq:\n\t\toverload: 0\n\t\tcapacity_cps: %s\n\t\tsample_ms: 20\n\t}\n}\n' \
		"$2" >"$F/$1/ovc_stats.txt"
}
run occ-r0.3-k1 180.592000
run occ-r2-k1 315.878000
out=$("$s" 318 "$F/occ-r0.3-k1" "$F/occ-r2-k1")
is "header and rows" "$out" "run,capacity_cps,rho_m,of_rho_m
occ-r0.3-k1,180.592000,318,0.5679
occ-r2-k1,315.878000,318,0.9933"
printf 'rxq:\n\t\toverload: 0\n' >"$F/occ-r2-k1/ovc_stats.txt"
"$s" 318 "$F/occ-r0.3-k1" "$F/occ-r2-k1" >/dev/null 2>&1
is "a run without capacity_cps fails" "$?" 1
mkdir -p "$F/empty"
"$s" 318 "$F/empty" >/dev/null 2>&1
is "a run without ovc_stats.txt is refused" "$?" 2
"$s" 0 "$F/occ-r0.3-k1" >/dev/null 2>&1
is "RHO_M 0 is refused" "$?" 2
is "the committed rows have the script's header" \
	"$(head -1 "$top/bench/results/capest-by-load/capacity_cps.csv")" \
	"$(printf '' | "$s" 318 "$F/occ-r0.3-k1" | head -1)"
t_done
