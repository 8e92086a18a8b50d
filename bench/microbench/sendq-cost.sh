#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# microbench/sendq-cost.sh [OUT]: what smart forwarding's read of a TCP
# send queue costs (bench/microbench/sendq_bench.c, as make bench-sendq
# runs it: one sock_diag lookup by four-tuple on a loopback connection),
# written to OUT/sendq.csv (default bench/results/sendq-cost): one row per
# case (empty, backed_up, no_conn), its columns queue, ns (per lookup,
# the best of sendq_bench's rounds), unacked and notsent (what the lookup
# read; -1: no such connection), siocoutq and siocoutqnsd (what the
# owner's ioctls read; empty for no_conn) and kernel; then OUT's MANIFEST
# (bench/tools/results.sh record). Holds the machine-wide load lock while
# it runs (about ten seconds of one core).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
bench_args_checked
. "$here/microbench/cost-run.sh"
cost_run sendq_bench sendq-cost "${1:-}"
awk -v kernel="$(uname -r)" '
	BEGIN { print "queue,ns,unacked,notsent,siocoutq,siocoutqnsd,kernel" }
	/^(empty queue|backed up):/ {
		q = /^empty/ ? "empty" : "backed_up"
		match($0, /[0-9]+ ns per lookup/); ns = substr($0, RSTART, RLENGTH)
		match($0, /unacked -?[0-9]+/); u = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /SIOCOUTQ [0-9]+/); o = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /not sent -?[0-9]+/); s = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /SIOCOUTQNSD [0-9]+/); d = substr($0, RSTART + 12, RLENGTH - 12)
		sub(/ ns per lookup/, "", ns)
		print q "," ns "," u "," s "," o "," d "," kernel
	}
	/^no such conn:/ {
		match($0, /[0-9]+ ns per lookup/); ns = substr($0, RSTART, RLENGTH)
		sub(/ ns per lookup/, "", ns)
		match($0, /result -?[0-9]+/); u = substr($0, RSTART + 7, RLENGTH - 7)
		print "no_conn," ns "," u ",,,," kernel
	}' "$raw" >"$out/sendq.csv"
[ "$(wc -l <"$out/sendq.csv")" -eq 4 ] ||
	{ echo "sendq-cost: sendq_bench printed no three figures" >&2; exit 1; }
"$here/tools/results.sh" record "$out" \
	"smart forwarding's send-queue read per lookup (sock_diag by four-tuple, loopback)" \
	"bench/microbench/sendq-cost.sh${1:+ $1}"
