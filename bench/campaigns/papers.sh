#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/papers.sh - the campaigns (`make bench` runs `papers.sh all`).
#
#   papers.sh calibrate    full calibration of rho_M and beta (~5-8 min)
#   papers.sh profiles     gradual, instant and constant overload (paper
#                            001 §6.4) to BENCH_PEAK_R (default 4) x rho_M,
#                            each algorithm and none, with and without UAC
#                            retransmissions (~45 s per run)
#   papers.sh sweep        goodput vs r for none, ratelimit (FEEDBACK),
#                            taildrop (ratelimit TAILDROP at rho_M) and each
#                            algorithm, BENCH_SWEEP_RUNS (default 3) runs
#                            per point, median and min-max against the
#                            g_opt bound (~22-27 s per run)
#   papers.sh es           Extremum Seeking of pi's four gains on the
#                            testbed (003 §VI) from BENCH_ES_INITS (two of
#                            Table I's theta(0)), BENCH_ES_ITERS (60)
#                            iterations of BENCH_ES_TF (20) s at r
#                            BENCH_ES_R (2), beside the simulator with the
#                            same calibration and its optimum over 003's
#                            four loads; plot and table (~23 s per
#                            iteration: ~46 min with the defaults)
#   papers.sh all          calibrate, sweep, profiles, then the report
#   papers.sh report       bench/out/campaign/REPORT.md from what exists
#   papers.sh smoke        the CI smoke campaign
#
# Algorithms: BENCH_ALGS (default: every ovc algorithm the module accepts
# among occ occupancy aro sired pi bbc rsoca, probed by starting the
# proxy). The testbed is brought up if needed and taken down after, if
# this script brought it up. Durations: all ~35 min with 1 algorithm,
# ~95 min with all 7 (bench/README.md).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
bench_oneof command "$1" all calibrate profiles sweep es report smoke
bench_num BENCH_PEAK_R "${BENCH_PEAK_R:-4}"
bench_int BENCH_PROFILE_S "${BENCH_PROFILE_S:-30}"
bench_int BENCH_SWEEP_S "${BENCH_SWEEP_S:-20}"
bench_nums BENCH_SWEEP_LOADS "${BENCH_SWEEP_LOADS:-0.5 1 2 4 8 16}"
bench_int BENCH_SWEEP_RUNS "${BENCH_SWEEP_RUNS:-3}"
bench_args_checked
here=$(dirname "$0")/..
. "$here/testbed/lib.sh"

out="$BENCH_OUT/campaign"
peak=${BENCH_PEAK_R:-4}
pdur=${BENCH_PROFILE_S:-30}
sdur=${BENCH_SWEEP_S:-20}
loads=${BENCH_SWEEP_LOADS:-0.5 1 2 4 8 16}
sruns=${BENCH_SWEEP_RUNS:-3}

# ovc algorithms the module accepts (a proxy start per candidate)
algs_available() {
	local a d
	if [ -n "${BENCH_ALGS:-}" ]; then
		echo "$BENCH_ALGS"
		return
	fi
	[ -f "$BENCH_TOP/modules/ovc/ovc.so" ] || return 0
	d=$(mktemp -d)
	for a in occ occupancy aro sired pi bbc rsoca; do
		if "$here/testbed/proxy.sh" start "$d/$a" "$a" >/dev/null 2>&1; then
			"$here/testbed/proxy.sh" stop "$d/$a"
			echo -n "$a "
		fi
	done
	rm -rf "$d"
	echo
}

cmd_calibrate() {
	mkdir -p "$out"
	"$here/runners/calibrate.sh" 2>&1 | tee "$out/calibration.txt"
}

cmd_profiles() {
	local a p x algs
	algs="none $(algs_available)"
	mkdir -p "$out/profiles"
	for x in yes no; do
		for p in gradual instant constant; do
			for a in $algs; do
				local o=(-a "$a" -p "$p" -r "$peak" -d "$pdur" -w 5)
				local tag="$a-$p"
				if [ "$x" = no ]; then
					o+=(-n)
					tag=$tag-nr
				fi
				say "profile $tag"
				"$here/runners/run.sh" "${o[@]}" -o "$out/profiles/$tag" \
					>/dev/null 2>"$out/profiles/$tag.log" ||
					say "  failed: $out/profiles/$tag.log"
			done
		done
		for p in gradual instant constant; do
			local dirs=()
			for a in $algs; do
				[ "$x" = yes ] && dirs+=("$out/profiles/$a-$p") ||
					dirs+=("$out/profiles/$a-$p-nr")
			done
			"$here/plots/plot-compare.sh" "$out/profiles/compare-$p$([ "$x" = no ] && echo -nr).png" \
				"${dirs[@]}" >/dev/null || true
		done
	done
}

cmd_sweep() {
	"$here/runners/sweep.sh" -A "none ratelimit taildrop $(algs_available)" \
		-r "$loads" -d "$sdur" -k "$sruns" -o "$out/sweep"
}

# ES on the testbed and on the simulator, for the calibration in force
cmd_es() {
	local d="$out/es" i rho beta plots=() sim
	local inits=${BENCH_ES_INITS:-12,12,20,130 1,1,20,130}
	local iters=${BENCH_ES_ITERS:-60} tf=${BENCH_ES_TF:-20}
	local r=${BENCH_ES_R:-2}
	local es=("--gamma" "0.8,0.7,0.2,0.02" "--amp" "0.25,1,2,5")
	local tune="$BENCH_TOP/build/sim/ovc-es-tune"
	make -C "$BENCH_TOP" -s sim
	[ -f "$BENCH_OUT/calibration.env" ] || cmd_calibrate
	rho=$(. "$BENCH_OUT/calibration.env" && echo "$RHO_M")
	beta=$(. "$BENCH_OUT/calibration.env" && echo "${BETA_OVC:-$BETA}")
	# the simulator runs the module's model on the testbed's CPU quota
	sim=(--quota "$(awk -v q="$BENCH_CPU_QUOTA_US" -v p="$BENCH_CPU_PERIOD_US" \
		'BEGIN { print (q > 0 && q < p) ? q / p : 0 }')"
		--quota-period "$((BENCH_CPU_PERIOD_US / 1000))")
	mkdir -p "$d"
	cp "$BENCH_OUT/calibration.env" "$d/"
	for i in $inits; do
		say "es: testbed from $i, $iters iterations of $tf s at r $r"
		OVC_ES_RHO_M=$rho "$tune" \
			--testbed "$here/sim/es-testbed.sh" --init "$i" \
			--iters "$iters" --loads "$r" --tf "$tf" --reps 1 "${es[@]}" \
			>"$d/testbed-$i.txt" 2>"$d/testbed-$i.log"
		"$tune" --alg pi --capacity "$rho" --beta "$beta" "${sim[@]}" \
			--reject-at arrival --init "$i" --iters "$iters" --loads "$r" \
			--tf "$tf" --reps 1 "${es[@]}" >"$d/sim-$i.txt"
		"$tune" --alg pi --capacity "$rho" --beta "$beta" "${sim[@]}" \
			--reject-at arrival --init "$i" --iters 150 --reps 2 \
			"${es[@]}" >"$d/sim-table1-$i.txt"
		plots+=("testbed $i=$d/testbed-$i.txt" "sim $i=$d/sim-$i.txt")
	done
	"$here/sim/plot-es-testbed.sh" "$d/es-testbed.png" "${plots[@]}"
	"$here/sim/es-summary.sh" "$d"/testbed-*.txt "$d"/sim-*.txt \
		>"$d/es.md"
	say "es: $d/es.md, $d/es-testbed.png"
}

cmd_report() {
	local f
	mkdir -p "$out"
	{
		echo "# ovc campaign report"
		echo
		echo "Generated $(date -u +%Y-%m-%dT%H:%M:%SZ) by \`bench/campaigns/papers.sh\` on $(nproc) cores,"
		echo "proxy capped at $BENCH_CPU_QUOTA_US us / $BENCH_CPU_PERIOD_US us (cgroup v$(cg_version 2>/dev/null || echo ?)), testbed mode $(bench_mode 2>/dev/null || echo netns)."
		echo
		echo "## Calibration"
		echo
		echo '```'
		cat "$BENCH_OUT/calibration.env" 2>/dev/null || echo "(none)"
		echo '```'
		if [ -f "$out/sweep/sweep.md" ]; then
			echo
			echo "## Sweep (constant load, ${sdur} s per point)"
			echo
			echo "![sweep](sweep/sweep.png)"
			echo
			cat "$out/sweep/sweep.md"
		fi
		if [ -d "$out/profiles" ]; then
			echo
			echo "## Profiles (peak ${peak} x rho_M, ${pdur} s)"
			echo
			"$here/reports/summary-line.sh" --header "$out"/profiles/*/summary.json |
				sed 's/^/    /'
			echo
			for f in "$out"/profiles/compare-*.png; do
				[ -e "$f" ] && echo "![${f##*/}](profiles/${f##*/})"
			done
		fi
	} >"$out/REPORT.md"
	echo "$out/REPORT.md"
}

with_testbed() {
	local brought_up=no rc=0
	make -C "$BENCH_TOP" -s bench-tools # stale tools rebuilt too
	if ! bench_is_up; then
		"$here/testbed/testbed.sh" up
		brought_up=yes
	fi
	"$@" || rc=$?
	[ "$brought_up" = yes ] && "$here/testbed/testbed.sh" down
	return $rc
}

all() {
	local t0
	t0=$(date +%s)
	cmd_calibrate
	cmd_sweep
	cmd_profiles
	cmd_report
	say "campaign done in $(($(date +%s) - t0)) s: $out/REPORT.md"
}

case "${1:-}" in
calibrate) with_testbed cmd_calibrate ;;
profiles) with_testbed cmd_profiles ;;
sweep) with_testbed cmd_sweep ;;
es) with_testbed cmd_es ;;
report) cmd_report ;;
all) with_testbed all ;;
smoke) "$here/tests/smoke.sh" ;;
*)
	echo "usage: $0 all|calibrate|profiles|sweep|es|report|smoke" >&2
	exit 2
	;;
esac
