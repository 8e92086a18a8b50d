#!/bin/bash
# bench/results/pi-s37/prof-run.sh OUT LABEL SPEC: one 8x testbed run of
# the sweep arm LABEL=SPEC with a machine-wide perf profile of its seconds
# 14-22 (OUT/LABEL.perf.data). Hold the load lock; the testbed is up.
out=$1; a=$2; spec=$3; mkdir -p "$out"
(sleep 14; perf record -a -g -F 1999 -o "$out/$a.perf.data" -- sleep 8 >/dev/null 2>&1) &
OVC_LOAD_LOCKED=1 bench/sweep.sh -A "$a=$spec" -r 8 -d 20 -k 1 -o "$out/$a-run" >/dev/null 2>&1
wait
