#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stopping Kamailio with INVITEs still in the in-core queue (sired queues
# its INVITEs) loses none: the one worker (slowed to 200 ms per INVITE)
# leaves a backlog; on SIGTERM
# every queued INVITE is answered with the reject reply. Retransmissions
# of queued INVITEs are absorbed meanwhile, never queued twice.
. "$(dirname "$0")/lib.sh"

queue_backlog
rpc ovc.stats >"$T_DIR/stats.txt"
qlen=$(awk '$1 == "len:" { print $2; exit }' "$T_DIR/stats.txt")
absorbed=$(awk '$1 == "absorbed:" { print $2; exit }' "$T_DIR/stats.txt")
kam_stop
wait "$BACKLOG_UAC"
uas_stop
r503=$(counts_col uac 3_503_Recv)
ok200=$(counts_col uac 5_200_Recv)
answered=$(grep -oE "answered [0-9]+ (queued INVITEs at stop|INVITEs left in the queue)" \
	"$T_DIR/kam.log" | awk '{ s += $2 } END { print s + 0 }')
log "at stop: $qlen INVITEs queued ($absorbed retransmissions absorbed);" \
	"answered at stop $answered; UAC got 503=$r503 200=$ok200"
check "a backlog was queued when the proxy stopped" "$qlen >= 10"
check "retransmissions of queued INVITEs were absorbed" "$absorbed > 0"
check "every queued INVITE was answered at stop" "$answered >= $qlen"
check "the UAC got those answers" "$r503 >= $qlen"
finish
