#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The in-core queue is bounded in bytes as well as in INVITEs: with a
# budget of 8 KiB (about ten INVITEs) and one worker slowed to 200 ms per
# INVITE, a burst of 40 INVITEs fills the budget long before the 800
# entries; the INVITEs over it are refused like a full queue (503,
# counted queue_full), the queue never holds more bytes than the budget,
# and every INVITE is accounted for.
. "$(dirname "$0")/lib.sh"

BUDGET=8192
BACKLOG_WAIT=0 queue_backlog "OVC_QUEUE_MAX_BYTES=$BUDGET"
maxb=0
maxlen=0
for _ in $(seq 1 20); do
	rpc ovc.stats >"$T_DIR/stats.txt"
	b=$(awk '$1 == "bytes:" { print $2; exit }' "$T_DIR/stats.txt")
	l=$(awk '$1 == "len:" { print $2; exit }' "$T_DIR/stats.txt")
	[ "${b:-0}" -gt "$maxb" ] && maxb=$b
	[ "${l:-0}" -gt "$maxlen" ] && maxlen=$l
	sleep 0.1
done
budget=$(awk '$1 == "max_bytes:" { print $2; exit }' "$T_DIR/stats.txt")
full=$(awk '$1 == "full:" { print $2; exit }' "$T_DIR/stats.txt")
wait "$BACKLOG_UAC"
uas_stop
r503=$(counts_col uac 3_503_Recv)
log "budget $budget bytes: at most $maxb bytes and $maxlen INVITEs queued;" \
	"queue_full $full, 503 at the UAC $r503"
check "the budget in force is the modparam" "$budget == $BUDGET"
check "the queue never held more than its byte budget" "$maxb <= $BUDGET"
check "the byte budget, not the 800 entries, bounded the queue" \
	"$maxlen > 0 && $maxlen < 20"
check "INVITEs over the budget were refused as a full queue" "$full > 0"
check "the UAC got those refusals" "$r503 >= $full"
rpc ovc.csv >"$T_DIR/ovc.csv"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
