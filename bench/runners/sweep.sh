#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runners/sweep.sh - goodput versus normalized load, per algorithm.
#
#   sweep.sh [-A "ALG..."] [-r "R..."] [-d SECONDS] [-k RUNS] [-n] [-o DIR]
#
# RUNS constant-load runs per (r, algorithm) (default 1), every round
# over all loads and algorithms before the next, and the algorithms
# interleaved at each r, so that slow drifts of the machine hit all of
# them alike and the spread of a point spans the campaign. Default
# algorithms "none ratelimit occ", loads "0.5 1 1.5 2 3 4 6 8 10", 20 s
# per run (plus 3 s warm-up). `taildrop` is Kamailio's ratelimit with
# TAILDROP at rho_M (BENCH_TAILDROP_CPS, default the calibrated RHO_M).
# An arm LABEL=ALG:NAME=VALUE[:NAME=VALUE...] runs ALG with those ovc
# parameters and is named LABEL (e.g. occ95=occ:occ.target=0.95); a NAME
# starting with OVC_ is a define of configs/ovc-proxy.cfg instead (a
# modparam), one starting with BENCH_ a setting of bench/ for its runs
# (e.g. occ-rb0=occ:OVC_RCVBUF_UDP=0:BENCH_SHM_MB=512).
# The module is copied once into DIR/ovc.so and every run loads that copy
# (its digest is each run's meta ovc_so_md5): a rebuild during the sweep
# does not change what is measured. A run whose summary.json exists is
# kept (a sweep interrupted resumes). Writes DIR/sweep.csv (one row per
# run), DIR/sweep-points.csv and DIR/sweep.md (median, min, max per
# point) and DIR/sweep.png (median with min-max bars, against the bound
# g_opt(r) of paper 003 for the calibrated C_T and beta).
# BENCH_LOCK_PER_RUN=1: hold the machine-wide load lock for each run
# rather than for the whole sweep (other load runs may come in between;
# the testbed stays up).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
algs="none ratelimit occ"
loads="0.5 1 1.5 2 3 4 6 8 10"
dur=20
runs=1
nr=()
dir=
while getopts "A:r:d:k:no:" o; do
	case "$o" in
	A) algs=$OPTARG ;;
	r) loads=$OPTARG ;;
	d) dur=$OPTARG ;;
	k) runs=$OPTARG ;;
	n) nr=(-n) ;;
	o) dir=$OPTARG ;;
	*) bench_bad "bad option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bench_bad "unexpected argument '$1'"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -ge 1 && "$runs" -le 20 ]] ||
	bench_bad "-k takes 1..20 runs, not '$runs'"
bench_nums -r "$loads"
[[ "$dur" =~ ^[0-9]+$ && "$dur" -ge 3 && "$dur" -le 600 ]] ||
	bench_bad "-d takes 3..600 seconds, not '$dur'"
[ -n "${algs// /}" ] || bench_bad "-A: no arm"
bench_args_checked

here=$(dirname "$0")/..
lock_per_run=no
if [ "${BENCH_LOCK_PER_RUN:-0}" = 1 ] && [ -z "${OVC_LOAD_LOCKED:-}" ]; then
	lock_per_run=yes
	export OVC_LOAD_LOCKED=deferred # lib.sh does not lock
fi
. "$here/testbed/lib.sh"
dir=${dir:-$BENCH_OUT/sweep}

[ -f "$BENCH_OUT/calibration.env" ] ||
	die "no calibration: run bench/runners/calibrate.sh first"
export BENCH_TAILDROP_CPS=${BENCH_TAILDROP_CPS:-$(. "$BENCH_OUT/calibration.env" && echo "$RHO_M")}
mkdir -p "$dir"
if [ -f "$BENCH_TOP/modules/ovc/ovc.so" ] && [ ! -f "$dir/ovc.so" ]; then
	cp "$BENCH_TOP/modules/ovc/ovc.so" "$dir/ovc.so"
fi
[ -f "$dir/ovc.so" ] && export BENCH_OVC_SO="$dir/ovc.so"
# arm_args ARM: $a (the arm's name), aa (run.sh's -a, -L, -P), ad (its
# defines, BENCH_DEFINES) and ae (its BENCH_ settings, for env)
arm_args() {
	local spec p
	a=$1
	aa=(-a "$1")
	ad=${BENCH_DEFINES:-}
	ae=()
	[[ "$1" == *=* ]] || return 0
	a=${1%%=*} spec=${1#*=}
	[[ "$a" =~ ^[A-Za-z0-9_.-]+$ && "$spec" == *:* ]] ||
		die "arm $1: LABEL=ALG:NAME=VALUE[:NAME=VALUE...]"
	aa=(-a "${spec%%:*}" -L "$a")
	IFS=: read -ra p <<<"${spec#*:}"
	for spec in "${p[@]}"; do
		if [[ "$spec" == OVC_* ]]; then
			ad+=" $spec"
		elif [[ "$spec" == BENCH_*=* ]]; then
			ae+=("$spec")
		else
			aa+=(-P "$spec")
		fi
	done
}
total=$(($(wc -w <<<"$algs") * $(wc -w <<<"$loads") * runs))
n=0
for ((k = 1; k <= runs; k++)); do
	for r in $loads; do
		for arm in $algs; do
			n=$((n + 1))
			arm_args "$arm"
			run="$dir/$a-r$r-k$k"
			[ -s "$run/summary.json" ] && continue
			say "sweep $n/$total: $arm at r = $r (run $k of $runs)"
			lock=()
			[ "$lock_per_run" = yes ] && lock=(env -u OVC_LOAD_LOCKED)
			env BENCH_DEFINES="$ad" "${ae[@]}" "${lock[@]}" \
				"$here/runners/run.sh" "${aa[@]}" \
				-p constant -r "$r" \
				-d "$dur" -w 3 "${nr[@]}" -o "$run" >/dev/null 2>"$run.log" ||
				say "  run failed: $run.log"
		done
	done
done
"$here/reports/sweep-table.sh" "$dir"
"$here/plots/plot-sweep.sh" "$dir"
