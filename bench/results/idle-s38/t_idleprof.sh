#!/usr/bin/env bash
# bench/results/idle-s38/t_idleprof.sh: one idle proxy (algorithm ALG,
# default pi; KAM_OPTS as for the tests), its busiest child after 4 s
# (the ticker), then perf record over 5 s (OUT/perf-ALG.data), perf stat
# over 3 s (task-clock, context switches) and, when strace is installed
# (not by make deps: apt install strace), strace -c over 3 s of its
# system calls (OUT/strace-ALG.txt). Hold the load lock.
. "$(dirname "$0")/../../../tests/integration/lib.sh"
set +e
out=${OUT:-/tmp}
cg=$(cg_make 10000 100000)
alg=${ALG:-pi}
kam_start -c "$cg" -n "k$alg" "OVC_ALGORITHM=\"$alg\"" || exit 1
sleep 3
best=
bt=0
for p in $(pgrep -P "$(cat "$T_DIR/k$alg.pid")"); do
	echo "$p $(awk '{print $14+$15}' "/proc/$p/stat")" >>"$T_DIR/t0"
done
sleep 4
while read -r p a; do
	d=$(($(awk '{print $14+$15}' "/proc/$p/stat") - a))
	if [ "$d" -gt "$bt" ]; then bt=$d; best=$p; fi
done <"$T_DIR/t0"
echo "busiest $best ticks $bt"
rpc core.psx | grep -A2 "$best" | head -3
perf record -F 4999 -g -p "$best" -o "$out/perf-$alg.data" -- sleep 5 >/dev/null 2>&1
perf stat -e task-clock,context-switches -p "$best" -- sleep 3 2>&1 |
	grep -E "task-clock|context"
if command -v strace >/dev/null; then
	timeout 3 strace -c -f -p "$best" -o "$out/strace-$alg.txt" >/dev/null 2>&1
	cat "$out/strace-$alg.txt"
fi
kam_stop
finish
