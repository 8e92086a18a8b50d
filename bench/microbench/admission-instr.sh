#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# admission-instr.sh [BENCH...]: instructions per call of the fast path's
# admission (bench/microbench/admission_bench.c, INVITE + ACK + BYE + the
# receive-timestamp ioctl's user-space part), counted by valgrind's
# cachegrind: a figure other processes on the machine do not move, where
# the benchmark's nanoseconds move by 30 % on a busy machine. Each BENCH
# is "BINARY ARM" (ARM on, off or cut; default: build/bench/admission_bench
# with each arm). The count per call is the difference of a run of 8192
# and one of 4096 calls per round (7 rounds), so that set-up cancels.
set -euo pipefail
case "${1:-}" in
-h | --help)
	sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
command -v valgrind >/dev/null || { echo "admission-instr: needs valgrind (make deps)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 0 ]; then
	b="$top/build/bench/admission_bench"
	[ -x "$b" ] || { echo "admission-instr: $b missing: make $b" >&2; exit 1; }
	set -- "$b on" "$b off" "$b cut"
fi
ir() {
	valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$@" 2>&1 |
		awk '/I *refs:/ { gsub(",", "", $4); print $4 }'
}
echo "binary arm instructions_per_call"
for arg in "$@"; do
	read -r bin arm <<<"$arg"
	[ -x "$bin" ] || { echo "admission-instr: $bin is not executable" >&2; exit 1; }
	case "$arm" in on | off | cut) ;; *) echo "admission-instr: arm '$arm' is not on, off or cut" >&2; exit 1 ;; esac
	a=$(ir "$bin" 4096 "$arm")
	c=$(ir "$bin" 8192 "$arm")
	echo "$bin $arm $(((c - a) / (7 * 4096)))"
done
