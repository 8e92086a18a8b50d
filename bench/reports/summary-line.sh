#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/summary-line.sh - one line of headline figures from summary.json.
#
#   summary-line.sh [--header] SUMMARY.JSON...
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
[ "${1:-}" = --header ] && bench_nargs 2 - "$@" || bench_nargs 1 - "$@"
for a in "$@"; do
	[ "$a" = --header ] || [ -f "$a" ] || bench_bad "no file '$a'"
done
bench_args_checked
# draws from files, starts no load: no load lock
: "${OVC_LOAD_LOCKED:=no-load}"
. "$(dirname "$0")/../testbed/lib.sh"

keys=(meta.algorithm meta.profile meta.peak_r meta.retrans offered_cps
	goodput_cps timely_cps rejected_cps failed_cps setup_p50_ms setup_p95_ms
	retrans_per_call extra_mean.proxy_cpu f_mean extra_mean.sipp_cpu_max)
if [ "${1:-}" = --header ]; then
	shift
	printf '%-10s %-8s %5s %3s %8s %8s %8s %8s %7s %8s %8s %7s %6s %5s %6s\n' \
		alg profile r rtx offered goodput timely rejected failed \
		p50_ms p95_ms rtx/call cpu f sipp
fi
for f in "$@"; do
	# shellcheck disable=SC2046
	printf '%-10s %-8s %5s %3s %8s %8s %8s %8s %7s %8s %8s %7s %6s %5s %6s\n' \
		$("$BENCH_BIN/ovc-jget" "$f" "${keys[@]}")
done
