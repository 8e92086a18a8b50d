#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# microbench/admission-cost.sh [OUT]: what ovc's fast path costs per call
# below capacity (bench/microbench/admission_bench.c, as make
# bench-admission runs it: the raw scan and the admission sequence with
# occ at f = 1 and the fair share on, the best of its rounds, plus the
# receive-timestamp ioctl of each initial INVITE), written to
# OUT/admission.csv (default bench/results/admission-cost): one row per
# figure (invite, ack, bye: per request; stamp_ioctl: per initial
# INVITE; call: INVITE + ACK + BYE + ioctl), its columns what, ns, bytes
# (the request's; empty for the others) and kernel; then OUT's MANIFEST
# (bench/tools/results.sh record). Holds the machine-wide load lock while
# it runs (about half a minute of one core).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
bench_args_checked
. "$here/microbench/cost-run.sh"
cost_run admission_bench admission-cost "${1:-}"
awk -v kernel="$(uname -r)" '
	BEGIN { print "what,ns,bytes,kernel" }
	/^  (INVITE|ACK|BYE) / { b = $3; gsub(/[()]/, "", b)
		print tolower($1) "," $2 "," b "," kernel }
	/^receive-timestamp ioctl/ { print "stamp_ioctl," $NF ",," kernel }
	/^per call / { print "call," $NF ",," kernel }' "$raw" >"$out/admission.csv"
[ "$(wc -l <"$out/admission.csv")" -eq 6 ] ||
	{ echo "admission-cost: admission_bench printed no five figures" >&2; exit 1; }
"$here/tools/results.sh" record "$out" \
	"ovc's fast path per call below capacity: scan, admission sequence (occ, f = 1, fair share on), receive-timestamp ioctl" \
	"bench/microbench/admission-cost.sh${1:+ $1}"
