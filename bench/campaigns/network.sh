#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/network.sh - networks of servers (issue 18, paper 000
# §VII, Fig. 12-14): local, hop-by-hop and end-to-end overload control
# on 000's tandem and fan-in topologies and on a chain of two proxies in
# front of the core (net-run.sh), at multiples of the core's calibrated
# capacity rho_M.
#
#   network.sh calibrate   the core alone (calibrate.sh) at
#                                   BENCH_CPU_QUOTA_US (default 5000: 5 %
#                                   of a core, so that SIPp can offer 16x)
#   network.sh runs        for each TOPOS x MODES x MULTS one
#                                   constant-load run of DUR s (after WARM
#                                   s at 0.3 x rho_M); one row per run in
#                                   $OUT/runs.csv
#   network.sh plot        bench/plots/plot-network.sh $OUT
#   network.sh all         calibrate, runs, plot
#
# Environment: TOPOS (default "tandem fanin"; "chain" adds edge1 -> edge2
# -> core, where hop and e2e differ), MODES ("local hop e2e";
# "none" adds the uncontrolled baseline), MULTS ("1 2 4 8 16"), DUR (30),
# WARM (5), RHO_M (skip the calibration and use this rho_M, calls/s),
# OUT (bench/results/network), RAW (bench/out/network: the full run
# folders; the small per-second files of each run are copied to
# $OUT/runs/TAG/). The module (BENCH_OVC_SO, default modules/ovc/ovc.so)
# is copied once at the start (a rebuild
# meanwhile does not change the runs); every row names its git hash and
# the copy's md5. Durations: calibrate ~3 min; a run ~DUR + 12 s (30
# runs at DUR=30: ~22 min).
#
# Every measurement holds the machine-wide load lock (lib.sh takes it for
# this script's whole life) and runs alone; every SIPp is bounded by its
# -timeout and an outer timeout. The testbed (up --edges 2) is brought up
# when needed and taken down at the end if this script brought it up.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
bench_oneof command "$1" calibrate runs plot all
bench_nums MULTS "${MULTS:-1}"
bench_int DUR "${DUR:-30}"
bench_int WARM "${WARM:-5}"
[ -z "${RHO_M:-}" ] || bench_num RHO_M "$RHO_M"
for t in ${TOPOS:-tandem}; do bench_oneof TOPOS "$t" tandem fanin chain; done
for m in ${MODES:-hop}; do bench_oneof MODES "$m" local hop e2e none; done
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_CPU_QUOTA_US=${BENCH_CPU_QUOTA_US:-5000}
. "$here/testbed/lib.sh"

TOPOS=${TOPOS:-tandem fanin}
MODES=${MODES:-local hop e2e}
MULTS=${MULTS:-1 2 4 8 16}
DUR=${DUR:-30}
WARM=${WARM:-5}
OUT=${OUT:-$BENCH_TOP/bench/results/network}
RAW=${RAW:-$BENCH_OUT/network}
export BENCH_OUT=$RAW
mkdir -p "$OUT" "$RAW"
OUT=$(cd "$OUT" && pwd)

# the testbed with two edges and this quota; ours to take down if we
# brought it up
brought_up=no
testbed_up() {
	local q
	if bench_is_up; then
		q=$(cg_quota "$BENCH_CG" 2>/dev/null | cut -d' ' -f1) || q=-
		grep -qx edge2 "$BENCH_STATE/hosts" && [ "$q" = "$BENCH_CPU_QUOTA_US" ] ||
			die "a testbed is up without edge2 or with quota $q us" \
				"(want $BENCH_CPU_QUOTA_US): bench/testbed/testbed.sh down first"
		return 0
	fi
	"$here/testbed/testbed.sh" up --edges 2
	brought_up=yes
}
testbed_down() {
	[ "$brought_up" = yes ] && "$here/testbed/testbed.sh" down
	return 0
}

tools() {
	[ -x "$BENCH_BIN/ovc-merge" ] && [ -x "$BENCH_BIN/ovc-jget" ] ||
		make -C "$BENCH_TOP" -s bench-tools
}

# the module as it is now (or BENCH_OVC_SO's), for every run of this
# campaign
module_copy() {
	local so=${BENCH_OVC_SO:-$BENCH_TOP/modules/ovc/ovc.so}
	[ -f "$so" ] || die "$so missing: run make"
	cp "$so" "$RAW/ovc.so"
	export BENCH_OVC_SO=$RAW/ovc.so
	git -C "$BENCH_TOP" rev-parse --short HEAD >"$RAW/ovc.git" 2>/dev/null ||
		echo - >"$RAW/ovc.git"
}

cmd_calibrate() {
	[ -n "${RHO_M:-}" ] && {
		say "RHO_M=$RHO_M given: no calibration"
		return 0
	}
	"$here/runners/calibrate.sh" 2>&1 | tee "$RAW/calibration.txt"
	cp "$RAW/calibration.env" "$OUT/calibration.env"
}

rho_m() {
	if [ -n "${RHO_M:-}" ]; then
		echo "$RHO_M"
	else
		[ -f "$RAW/calibration.env" ] ||
			die "no $RAW/calibration.env: run calibrate (or set RHO_M)"
		(. "$RAW/calibration.env" && echo "$RHO_M")
	fi
}

cmd_runs() {
	local rho t m x tag n=0 total
	rho=$(rho_m)
	total=$(($(wc -w <<<"$TOPOS") * $(wc -w <<<"$MODES") * $(wc -w <<<"$MULTS")))
	[ -s "$OUT/runs.csv" ] || "$here/reports/net-summary.sh" --columns >"$OUT/runs.csv"
	[ "$(head -n1 "$OUT/runs.csv")" = "$("$here/reports/net-summary.sh" --columns)" ] ||
		die "$OUT/runs.csv has other columns than net-summary.sh now:" \
			"use another OUT"
	say "network campaign: rho_M $rho cps, $total runs of ${DUR} s"
	for t in $TOPOS; do
		for m in $MODES; do
			for x in $MULTS; do
				n=$((n + 1))
				tag=$t-$m-r$x
				say "run $n/$total: $tag"
				if "$here/runners/net-run.sh" -t "$t" -m "$m" -r "$x" -R "$rho" \
					-d "$DUR" -w "$WARM" -o "$RAW/runs/$tag" \
					>"$RAW/$tag.log" 2>&1; then
					tail -n1 "$RAW/runs/$tag/summary.csv" >>"$OUT/runs.csv"
					"$here/reports/net-keep.sh" "$RAW/runs/$tag" "$OUT/runs/$tag"
					tail -n1 "$RAW/$tag.log" >&2
				else
					say "  failed: $RAW/$tag.log"
					tail -n3 "$RAW/$tag.log" >&2
				fi
			done
		done
	done
}

cmd_plot() { "$here/plots/plot-network.sh" "$OUT"; }

# record: OUT's MANIFEST, and the runs' kept files (net-keep.sh) into its
# archive when OUT is the repository's folder
record() {
	local raw=()
	[ "$OUT" != "$BENCH_TOP/bench/results/network" ] || [ ! -d "$OUT/runs" ] ||
		mapfile -t raw < <(find "$OUT/runs" -type f)
	"$BENCH_TOP/bench/tools/results.sh" record "$OUT" \
		"networks of servers: local, hop, e2e on $TOPOS at $MULTS x rho_M" \
		"bench/campaigns/network.sh $1 (TOPOS='$TOPOS' MODES='$MODES' MULTS='$MULTS')" \
		"${raw[@]}"
}

main() {
	local t0
	t0=$(date +%s)
	case "$1" in
	calibrate)
		tools
		testbed_up
		cmd_calibrate
		;;
	runs)
		tools
		module_copy
		testbed_up
		cmd_runs
		record runs
		;;
	plot) cmd_plot ;;
	all)
		tools
		module_copy
		testbed_up
		cmd_calibrate
		cmd_runs
		cmd_plot || say "plot failed"
		record all
		;;
	*)
		echo "usage: $0 calibrate|runs|plot|all" >&2
		exit 2
		;;
	esac
	say "network-campaign $1 done in $(($(date +%s) - t0)) s"
}
trap testbed_down EXIT
main "${1:-}"
