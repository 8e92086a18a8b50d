#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A proxy stopped right after it starts (an operator's restart, a
# supervisor's retry) stops whole: no ovc process outlives Kamailio's
# main one. A queue worker that the shutdown's SIGTERM missed (signalled
# before it was in the process table, or before its own handler was in
# place) looped on its 1 s wait for ever. Kamailio's main process then
# waited for it, and killed with SIGKILL it left the worker holding the
# UDP socket, the kernel stage and the CPU quota's cgroup: on the
# testbed (2026-11-27) such a worker took the next runs' traffic.
# STOPS starts, each stopped as soon as RPC answers (the CPU quota
# slows the start-up, as on the testbed); a stop not over within 5 s
# (a process that missed the SIGTERM keeps the main one waiting: one stop
# in six in a make check of 2026-11-27) has its main process killed, and
# nothing may be left behind. The race is rare (one start in 25 on the
# testbed); the last check is not: the main process killed outright.
. "$(dirname "$0")/lib.sh"

STOPS=${STOPS:-6}

cg=$(cg_make 20000 100000)
left=0
slow=0
for i in $(seq 1 "$STOPS"); do
	kam_start -c "$cg" -n "quick$i" || { fail "start $i"; break; }
	pidf="$T_DIR/quick$i.pid"
	main=$T_KPID
	t0=$(date +%s%N)
	kill "$main" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 "$main" 2>/dev/null || break
		sleep 0.1
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	if kill -0 "$main" 2>/dev/null; then
		slow=$((slow + 1))
		log "stop $i: main process still there after ${ms} ms"
	fi
	kill -9 "$main" 2>/dev/null || true
	sleep 0.2
	n=$( (pgrep -f -- "-P $pidf " || true) | wc -l)
	if [ "$n" -gt 0 ]; then
		left=$((left + 1))
		log "stop $i: $n processes outlived the main one"
	fi
	T_KPID=""
	kam_leftovers "-P $pidf "
	rm -f "${CTL#unix:}"
done
log "$STOPS quick stops: $slow not over within 5 s, $left with leftovers"
check "no process outlived Kamailio's main one" "$left == 0"

# Kamailio's main process killed outright (SIGKILL: a supervisor's last
# resort, the OOM killer): ovc's processes (ticker, queue workers,
# reaper), told by the kernel that their parent died, stop within 3 s;
# before, the queue workers waited for INVITEs for ever. (Kamailio's own
# processes outlive it: not ovc's to change.)
kam_start -c "$cg" -n killed || fail "start for the kill"
# RPC answers before the main process has forked ovc's processes: wait
# (at most 5 s) until the ticker, the workers and the reaper are listed
for _ in $(seq 1 50); do
	workers=$(rpc core.psx | awk '/PID:/ { p = $2 } /DSC: ovc / { print p }' |
		tr '\n' ' ')
	[ "$(wc -w <<<"$workers")" -ge 6 ] && break
	sleep 0.1
done
log "ovc's processes: $workers"
check "the proxy runs ovc's ticker, queue workers and reaper" \
	"$(wc -w <<<"$workers") >= 6"
kill -9 "$T_KPID"
alive=$(wc -w <<<"$workers")
for _ in $(seq 1 30); do
	alive=0
	for p in $workers; do
		kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	done
	[ "$alive" -eq 0 ] && break
	sleep 0.1
done
check "every ovc process stopped after the main process was killed" \
	"$alive == 0"
T_KPID=""
kam_leftovers "-P $T_DIR/killed.pid "
finish
