#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# microbench/admission-instr.sh [BENCH...]: instructions per call of the
# fast path's admission (bench/microbench/admission_bench.c, INVITE + ACK +
# BYE + the receive-timestamp ioctl's user-space part), counted by
# valgrind's cachegrind: a figure other processes on the machine do not
# move, where the benchmark's nanoseconds move by 30 % on a busy machine.
# Each BENCH is "BINARY ARM" (ARM on, off or cut; default:
# build/bench/admission_bench with each arm). The count per call is the
# difference of a run of 8192 and one of 4096 calls per round (7 rounds),
# so that set-up cancels.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
for arg in "$@"; do
	read -r bin arm <<<"$arg"
	[ -n "${arm:-}" ] || bench_bad "'$arg' is not \"BINARY ARM\""
	bench_oneof ARM "$arm" on off cut
done
bench_args_checked
command -v valgrind >/dev/null || bench_bad "needs valgrind (make deps)"
if [ $# -eq 0 ]; then
	b="$top/build/bench/admission_bench"
	[ -x "$b" ] || bench_bad "$b missing: make build/bench/admission_bench"
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
	[ -x "$bin" ] || bench_bad "$bin is not executable"
	a=$(ir "$bin" 4096 "$arm")
	c=$(ir "$bin" 8192 "$arm")
	echo "$bin $arm $(((c - a) / (7 * 4096)))"
done
