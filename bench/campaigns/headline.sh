#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/headline.sh - measure the README's headline with the module as
# built, write bench/results/headline/headline.csv and regenerate the
# README's headline table and plot from it (`make headline`).
#
#   headline.sh [--help]
#
# Holding the machine-wide load lock from start to end: the namespace
# testbed up (the proxy capped at BENCH_CPU_QUOTA_US, default 20 % of a
# core), its capacity rho_M calibrated (bench/runners/calibrate.sh), then
# bench/runners/sweep.sh with no control (`none`: ovc not loaded) against ovc's
# defaults (`occ`: the config sets `algorithm` only) at HEADLINE_LOADS
# times rho_M, HEADLINE_RUNS rounds of HEADLINE_SECS seconds per run,
# and the testbed down again if this script brought it up. About 25
# minutes with the defaults once the lock is held. Then
# bench/reports/headline-csv.sh writes the CSV (the module's sha256, the commit
# and the id of its source tree, the calibration, one row per point) and
# bench/reports/headline-readme.sh the README's table and the plot.
# Settings (environment): HEADLINE_LOADS (default "1 2 4 8 16"),
# HEADLINE_RUNS (3), HEADLINE_SECS (20), HEADLINE_RAW (the runs,
# default bench/out/headline), HEADLINE_CSV (default
# bench/results/headline/headline.csv).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/bench/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
loads=${HEADLINE_LOADS:-1 2 4 8 16}
runs=${HEADLINE_RUNS:-3}
secs=${HEADLINE_SECS:-20}
raw=${HEADLINE_RAW:-$top/bench/out/headline}
csv=${HEADLINE_CSV:-$top/bench/results/headline/headline.csv}
for l in $loads; do
	[[ "$l" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
		{ echo "headline: HEADLINE_LOADS: '$l' is not a number" >&2; exit 2; }
done
[[ "$runs" =~ ^[1-9][0-9]?$ ]] ||
	{ echo "headline: HEADLINE_RUNS takes 1..20" >&2; exit 2; }
[[ "$secs" =~ ^[1-9][0-9]*$ ]] ||
	{ echo "headline: HEADLINE_SECS takes whole seconds" >&2; exit 2; }
bench_args_checked
[ -f "$top/modules/ovc/ovc.so" ] ||
	{ echo "headline: no modules/ovc/ovc.so: run make first" >&2; exit 1; }
[ "$(id -u)" = 0 ] ||
	{ echo "headline: the testbed needs root" >&2; exit 1; }

. "$top/scripts/load/load-lock.sh"
export BENCH_OUT="$raw"
rm -rf "$raw"
mkdir -p "$raw"
started=$(date -u +%FT%TZ)
echo "headline: load lock held, $started; runs in $raw" >&2
mine=no
if ! "$top/bench/testbed/testbed.sh" status >/dev/null 2>&1; then
	"$top/bench/testbed/testbed.sh" up
	mine=yes
fi
down() { [ "$mine" = no ] || "$top/bench/testbed/testbed.sh" down || true; }
trap down EXIT
"$top/bench/runners/calibrate.sh" >"$raw/calibrate.log" 2>&1 ||
	{ cat "$raw/calibrate.log" >&2; exit 1; }
grep '^RHO_M=' "$raw/calibration.env" >&2
"$top/bench/runners/sweep.sh" -A "none occ" -r "$loads" -d "$secs" -k "$runs" \
	-o "$raw/sweep"
down
trap - EXIT
finished=$(date -u +%FT%TZ)
mkdir -p "$(dirname "$csv")"
"$top/bench/reports/headline-csv.sh" "$raw" "$started" "$finished" "$secs" \
	>"$csv.tmp"
mv "$csv.tmp" "$csv"
echo "headline: $csv written, $started to $finished" >&2
"$top/bench/reports/headline-readme.sh" --plot "$csv"
"$top/bench/tools/results.sh" record "$(dirname "$csv")" \
	"the README's headline: no control against the defaults at $loads x rho_M, $runs runs of $secs s per point" \
	"make headline (bench/campaigns/headline.sh)"
