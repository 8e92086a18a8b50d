#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A caller who gives up while its INVITE waits in the in-core queue (RFC
# 3261 9.2): its CANCEL is answered 200 at once, the INVITE is answered
# 487 Request Terminated when it leaves the queue and never reaches the
# UAS, and the ACK to the 487 is absorbed. sired queues its INVITEs; one
# worker slowed to 200 ms per INVITE keeps a backlog, so an INVITE (sent
# with its CANCEL 1 ms behind it) still waits when the CANCEL comes,
# unless it found the worker idle: a CANCELled INVITE leaves the queue at
# once with its 487, so the worker idles, and the next INVITE (about one
# in 200 ms) goes straight on to the UAS, where tm handles its CANCEL.
# Every INVITE crosses the queue (queue_bypass 0), overload or not.
. "$(dirname "$0")/lib.sh"

CALLS=20

kam_start 'OVC_ALGORITHM="sired"' 'OVC_QUEUE_WORKERS=1' \
	'OVC_QUEUE_MAX_WAIT=0' 'OVC_QUEUE_BYPASS=0' 'SLOW_INVITE_US=200000'
uas_start uas
mkdir -p "$T_DIR/uac"
(cd "$T_DIR/uac" && timeout 60 sipp -sf "$SCN/uac-cancel.xml" -i 127.0.0.1 \
	-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r 20 -m "$CALLS" \
	-l 100000 -max_retrans 3 -recv_timeout 8000 -nostdin -trace_stat \
	-stf stat.csv -trace_counts -trace_err -trace_msg -fd 1 \
	>out.txt 2>&1) || true
sleep 1
uas_stop

# the 200 and the 487 answer two transactions and may come in either
# order (a worker can send the 487 before the receiver that took the
# CANCEL sends its 200); the scenario takes both, each at its own index
ok_cancel=$(($(counts_col uac 4_200_Recv) + $(counts_col uac 9_200_Recv)))
r487=$(($(counts_col uac 3_487_Recv) + $(counts_col uac 5_487_Recv)))
uas_inv=$(counts_col uas 0_INVITE_Recv)
rpc ovc.stats >"$T_DIR/stats.txt"
cancelled=$(awk '$1 == "cancelled:" { print $2; exit }' "$T_DIR/stats.txt")
acks=$(stats_key acks_absorbed)
off=$(stats_class invite offered)
deq=$(stats_class invite dequeued)
queued=$(stats_class invite queued)
log "UAC: 200=$ok_cancel 487=$r487; UAS got $uas_inv INVITEs;" \
	"ovc: cancelled=$cancelled queued=$queued dequeued=$deq acks_absorbed=$acks"
check "INVITEs waited in the queue and CANCELs found them" \
	"$cancelled >= $CALLS / 2"
check "each CANCELled INVITE was answered 487" "$r487 == $cancelled"
check "and never reached the UAS; every other one did" \
	"$uas_inv == $CALLS - $r487"
# a call whose INVITE reached the UAS first gets the INVITE's 200 here:
# its CANCEL met no transaction yet (the slowed worker) and was dropped by
# the script, and its retransmission finds the call answered
check "every call got a 200: its CANCEL's (ovc's or tm's) or its INVITE's" \
	"$ok_cancel == $CALLS"
check "every ACK to a 487 absorbed by ovc" "$acks >= $r487"
check "every queued INVITE left the queue" "$deq == $queued"
sleep 1.1 # the last second closes
rpc ovc.csv >"$T_DIR/ovc.csv"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
