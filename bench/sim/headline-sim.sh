#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/headline-sim.sh [HEADLINE_CSV [OUT]]: the module's model in
# the simulator (build/sim/ovc-sim, --model module, seed 1, 30 s of which
# 10 s warm-up, as bench/tests/sim/test_module.c runs it) at each row of
# the headline's CSV (default bench/results/headline/headline.csv): its
# arm, offered load, rho_m, beta_ovc and cpu_quota. Writes OUT/sim.csv
# (default bench/results/sim-headline): the header line
# arm,offered,rho_m,beta_ovc,cpu_quota,timely_sim,g_sim,setup_mean_ms_sim,timely_testbed,
# one row per headline row (timely_testbed: the row's timely_med), then
# OUT's MANIFEST (bench/tools/results.sh record). Deterministic and
# offline (a fraction of a second of one core per row): no load lock.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 2 "$@"
csv=${1:-$top/bench/results/headline/headline.csv}
out=${2:-$top/bench/results/sim-headline}
[ -f "$csv" ] || bench_bad "no file '$csv'"
bench_args_checked
sim=$top/build/sim/ovc-sim
[ -x "$sim" ] || make -C "$top" --no-print-directory build/sim/ovc-sim >&2
mkdir -p "$out"
rows=$(awk -F, 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["arm"], $c["offered"], $c["rho_m"], $c["beta_ovc"],
		($c["cpu_quota"] == "" ? 0 : $c["cpu_quota"]), $c["timely_med"] }' "$csv")
[ -n "$rows" ] || { echo "headline-sim: $csv has no rows" >&2; exit 1; }
{
	echo "arm,offered,rho_m,beta_ovc,cpu_quota,timely_sim,g_sim,setup_mean_ms_sim,timely_testbed"
	while read -r arm r rho beta quota tb; do
		"$sim" --model module --alg "$arm" --capacity "$rho" --beta "$beta" \
			--quota "$quota" --duration 30 --warmup 10 --seed 1 \
			--load "constant:$r" |
			awk -v a="$arm" -v r="$r" -v m="$rho" -v b="$beta" -v q="$quota" \
				-v tb="$tb" '{ for(i = 1; i < NF; i++) v[$i] = $(i + 1) }
				END { if(v["timely"] == "") exit 1
					printf "%s,%s,%s,%s,%s,%.4f,%.4f,%.1f,%s\n", a, r, m, b, q,
						v["timely"], v["g"], v["setup_ms"], tb }' ||
			{ echo "headline-sim: ovc-sim printed no result for $arm at ${r}x" >&2; exit 1; }
	done <<<"$rows"
} >"$out/sim.csv"
"$here/tools/results.sh" record "$out" \
	"the module's model in the simulator at the headline's rows (capacity, beta, CPU quota, offered load), against the testbed's timely goodput" \
	"bench/sim/headline-sim.sh${1:+ $1}${2:+ $2}"
