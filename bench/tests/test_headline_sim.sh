#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_headline_sim.sh - bench/sim/headline-sim.sh on a
# headline CSV made up for the test (two rows): the header line, a row per
# headline row with the simulator's timely goodput and the row's own
# timely_med, a MANIFEST; a CSV without rows fails; and
# bench/results/sim-headline/sim.csv is what the script makes of its own
# rows' inputs today (the simulator is deterministic: when its model
# changes, bench/sim/headline-sim.sh writes the rows again and the docs
# citing them are checked against the new ones).
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
s=$top/bench/sim/headline-sim.sh
export BENCH_RESULTS=$F/res
mkdir -p "$F/res"
printf 'arm,offered,rho_m,beta_ovc,cpu_quota,timely_med\nnone,2,253,38.122,0.20,0.15\nocc,2,253,38.122,0.20,0.98\n' >"$F/h.csv"
"$s" "$F/h.csv" "$F/res/x" >/dev/null 2>&1
is "runs" "$?" 0
is "header" "$(head -1 "$F/res/x/sim.csv")" \
	"arm,offered,rho_m,beta_ovc,cpu_quota,timely_sim,g_sim,setup_mean_ms_sim,timely_testbed"
is "a row per headline row" "$(cut -d, -f1,2,9 "$F/res/x/sim.csv" | tail -n +2 | tr '\n' ' ')" \
	"none,2,0.15 occ,2,0.98 "
awk -F, 'NR == 3 { exit !($6 > 0.7 && $6 <= 1.1) }' "$F/res/x/sim.csv" &&
	ok "occ at 2x sets up most calls in time" ||
	no "occ at 2x: $(sed -n 3p "$F/res/x/sim.csv")"
grep -q '^campaign: x$' "$F/res/x/MANIFEST" && ok "MANIFEST written" ||
	no "no MANIFEST: $(ls "$F/res/x")"
head -1 "$F/h.csv" >"$F/empty.csv"
"$s" "$F/empty.csv" "$F/res/y" >/dev/null 2>&1
is "a headline without rows fails" "$?" 1
# the committed rows' own inputs (a later make headline leaves them valid)
sed '1s/timely_testbed$/timely_med/' "$top/bench/results/sim-headline/sim.csv" >"$F/in.csv"
"$s" "$F/in.csv" "$F/res/now" >/dev/null 2>&1
if cmp -s "$F/res/now/sim.csv" "$top/bench/results/sim-headline/sim.csv"; then
	ok "bench/results/sim-headline/sim.csv is what the simulator gives today"
else
	no "bench/results/sim-headline/sim.csv is stale (bench/sim/headline-sim.sh writes it again): $(diff "$top/bench/results/sim-headline/sim.csv" "$F/res/now/sim.csv" | head -5)"
fi
t_done
