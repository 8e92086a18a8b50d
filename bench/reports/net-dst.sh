#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/net-dst.sh - `kamcmd ovc.dst` polls (net-poll.sh's HOST.dst.txt:
# "@ EPOCH" lines, each followed by one answer) as CSV on stdout:
#   time,hop,reduction,validity_ms,seq,feedbacks,passed,refused,refused_1s
# one row per next hop per poll (a new entry starts at each "hop:" line;
# fields it lacks are empty). Polls that failed (no such RPC) give no row.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
[ -f "$1" ] || bench_bad "no file '$1'"
bench_args_checked
f=${1:?usage: net-dst.sh HOST.dst.txt}
awk '
	function emit() {
		if(hop != "")
			printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", t, hop, v["reduction"],
				v["validity_ms"], v["seq"], v["feedbacks"], v["passed"],
				v["refused"], v["refused_1s"]
		hop = ""
		delete v
	}
	BEGIN { print "time,hop,reduction,validity_ms,seq,feedbacks,passed,refused,refused_1s" }
	$1 == "@" { emit(); t = $2; next }
	match($0, /^[ \t]*[A-Za-z_0-9]+:[ \t]*/) {
		k = $0
		sub(/^[ \t]*/, "", k)
		sub(/:.*/, "", k)
		val = substr($0, RLENGTH + 1)
		gsub(/[ \t\r]+$/, "", val)
		if(k == "hop") { emit(); hop = val; next }
		v[k] = val
	}
	END { emit() }' "$f"
