#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# microbench/scan-cost.sh [OUT]: what the raw SIP scanner and the reply
# built from the raw request cost (bench/microbench/scan_bench.c, as make
# bench-scan runs it: SIPp-like INVITEs of 1 to 4 Via lines with an SDP
# body, the best of its rounds), written to OUT/scan.csv (default
# bench/results/scan-cost): one row per figure (scan_1via .. scan_4via,
# scan: the corpus' mean, scan_build: scan and ovc_sip_build_reply()),
# its columns what, ns (per message), mean_bytes (the corpus') and
# kernel; then OUT's MANIFEST (bench/tools/results.sh record). Holds the
# machine-wide load lock while it runs (about half a minute of one core).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
bench_args_checked
. "$here/microbench/cost-run.sh"
cost_run scan_bench scan-cost "${1:-}"
awk -v kernel="$(uname -r)" '
	/^corpus:/ { bytes = $(NF - 1); print "what,ns,mean_bytes,kernel"; next }
	/^scan, [0-9] Via:/ { sub(/:$/, "", $3); print "scan_" $2 "via," $4 "," bytes "," kernel }
	/^scan: / { print "scan," $2 "," bytes "," kernel }
	/^scan\+build: / { print "scan_build," $2 "," bytes "," kernel }' "$raw" |
	sed 's/^scan_\([0-9]\),via/scan_\1via/' >"$out/scan.csv"
[ "$(wc -l <"$out/scan.csv")" -eq 7 ] ||
	{ echo "scan-cost: scan_bench printed no six figures" >&2; exit 1; }
"$here/tools/results.sh" record "$out" \
	"the raw SIP scanner and the reply built from the raw request, per message" \
	"bench/microbench/scan-cost.sh${1:+ $1}"
