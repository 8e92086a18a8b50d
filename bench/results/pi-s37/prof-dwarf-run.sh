#!/bin/bash
# bench/results/pi-s37/prof-dwarf-run.sh OUT LABEL SPEC: as prof-run.sh,
# with DWARF call graphs of every Kamailio process over seconds 14-18
# (OUT/LABEL.dw.data), to see who calls the allocator.
out=$1; a=$2; spec=$3; mkdir -p "$out"
(sleep 14; pids=$(pgrep -x kamailio | paste -sd,); perf record -p "$pids" --call-graph dwarf,16384 -F 499 -o "$out/$a.dw.data" -- sleep 4 >/dev/null 2>&1) &
OVC_LOAD_LOCKED=1 bench/sweep.sh -A "$a=$spec" -r 8 -d 20 -k 1 -o "$out/$a-dwrun" >/dev/null 2>&1
wait
