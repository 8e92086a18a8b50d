#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Below capacity ovc (default algorithm occ) rejects nothing, every call
# completes, and every per-second row of ovc.csv balances.
. "$(dirname "$0")/lib.sh"

CALLS=1000
RATE=200

kam_start
uas_start uas
uac_run uac "$RATE" "$CALLS"
sleep 3 # let the last second close in ovc.csv
uas_stop

rej=$(counts_col uac 3_503_Recv)
ok200=$(counts_col uac 5_200_Recv)
acks=$(counts_col uas 2_ACK_Recv)
succ=$(stat_col uac 'SuccessfulCall(C)')
failed=$(stat_col uac 'FailedCall(C)')
log "uac: 200=$ok200 503=$rej successful=$succ failed=$failed; uas ACKs=$acks"
check "no 503 below capacity" "$rej == 0"
check "every call completed at the UAS" "$acks == $CALLS"
check "no failed call" "$failed == 0 && $succ == $CALLS"

offered=$(stats_class invite offered)
admitted=$(stats_class invite admitted)
rejected=$(stats_class invite rejected)
f=$(stats_val f)
log "ovc.stats invite offered=$offered admitted=$admitted rejected=$rejected f=$f"
check "ovc saw every INVITE" "$offered == $CALLS"
check "ovc admitted every INVITE" "$admitted == $CALLS && $rejected == 0"
check "f stayed 1" "$f == 1"
# no client offers oc (RFC 7339) and the script never calls ovc_dst_admit():
# the hook on what Kamailio sends, for which it copies every message, is
# not installed (network_mode hop, the default, is ready for it)
check "no oc in use: nothing sent is copied for ovc" \
	"$(stats_key oc_in_use) == 0 && $(stats_key hooked) == 1"

rpc ovc.csv >"$T_DIR/ovc.csv"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
check "csv counted every INVITE" "$(csv_sum "$T_DIR/ovc.csv" invite_offered) == $CALLS"
finish
