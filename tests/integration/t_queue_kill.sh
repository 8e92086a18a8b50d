#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A child that dies under load stops Kamailio, and the stop loses no
# queued INVITE: sired queues its INVITEs, its one worker (slowed to 200 ms
# per INVITE) leaves a backlog, then a UDP receiver is killed (SIGKILL, as
# a crash would). Kamailio stops within 5 s and every INVITE still queued
# is answered. (Whether the killed receiver held the queue's lock at that
# instant is left to chance, a few instructions per INVITE: the bounded
# wait for a lock a dead process held, 1 s, is not forced here.)
. "$(dirname "$0")/lib.sh"

queue_backlog
qlen=$(stats_key len)
# a UDP receiver, from Kamailio's own process list
recv=$(rpc core.psx | awk '$1 == "PID:" { pid = $2 }
	$1 == "DSC:" && $2 == "udp" && $3 == "receiver" { print pid; exit }')
[ -n "$recv" ] || { fail "no UDP receiver in core.psx"; finish; }
log "queued: $qlen; killing UDP receiver $recv"
t0=$(date +%s%N)
kill -9 "$recv"
for _ in $(seq 1 100); do
	kill -0 "$T_KPID" 2>/dev/null || break
	sleep 0.1
done
t1=$(date +%s%N)
stopped=$(kill -0 "$T_KPID" 2>/dev/null && echo 0 || echo 1)
ms=$(((t1 - t0) / 1000000))
wait "$BACKLOG_UAC"
uas_stop
r503=$(counts_col uac 3_503_Recv)
answered=$(grep -oE "answered [0-9]+ (queued INVITEs at stop|INVITEs left in the queue)" \
	"$T_DIR/kam.log" | awk '{ s += $2 } END { print s + 0 }')
log "kamailio stopped: $stopped after $ms ms; answered at stop $answered;" \
	"UAC got 503=$r503"
check "a backlog was queued when the receiver died" "$qlen >= 10"
check "Kamailio stopped within 5 s of the crash" "$stopped == 1 && $ms <= 5000"
check "every queued INVITE was answered at stop" "$answered >= $qlen"
check "the UAC got those answers" "$r503 >= $qlen"
T_KPID=""
finish
