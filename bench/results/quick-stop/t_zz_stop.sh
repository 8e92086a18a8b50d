#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Quick stops (bench/RESULTS.md, "Quick stops"): 25 rounds of occ and pi,
# each proxy stopped (SIGTERM) as soon as RPC answers; a main process still
# there after 3 s has its children listed with their signal masks and
# backtraces (gdb), then kam_stop. Copy into tests/integration/ and run
# with tests/integration/run.sh under scripts/with-load-lock.sh.
. "$(dirname "$0")/lib.sh"
cg=$(cg_make 20000 100000)
for i in $(seq 1 25); do for a in occ pi; do
  kam_start -c "$cg" -n "s$a$i" "OVC_ALGORITHM=\"$a\"" || fail start
  t1=$(date +%s.%N); kill "$T_KPID"
  for _ in $(seq 1 30); do kill -0 "$T_KPID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$T_KPID" 2>/dev/null; then
     log "$a $i: still alive after 3 s"; ps -o pid,ppid,stat,wchan:30,cmd --ppid "$T_KPID" -p "$T_KPID" | head -20
     for p in $(pgrep -P "$T_KPID") $T_KPID; do echo "$p: $(grep -E 'SigCgt|SigBlk|SigPnd|ShdPnd' /proc/$p/status | tr '\n' ' ')"; echo "  $(tr '\0' ' ' < /proc/$p/cmdline | cut -c1-60)"; done
     for p in $(pgrep -P "$T_KPID"); do gdb -p $p -batch -ex bt 2>/dev/null | grep -E '^#' | head -12; done
     grep -c . "$T_DIR/s$a$i.log"
  fi
  t2=$(date +%s.%N); kam_stop
  log "$a $i: stop $(echo "$t2 - $t1" | bc)"
done; done
finish
