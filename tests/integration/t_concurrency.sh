#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Several SIP worker processes share one acceptor: with f held at 0.5
# (occ pinned at its f_min by phi_max 1) and 4 workers deciding in parallel, exactly
# half of the INVITEs (+-1) are admitted, and the counters of every
# process add up: ovc's admitted = INVITEs at the UAS, ovc's rejected =
# 503s at the UAC, offered = admitted + rejected.
. "$(dirname "$0")/lib.sh"

CALLS=3000
RATE=500

# phi_max 1: f can only fall, so it stays at f_min even when idle
kam_start CHILDREN=4 'OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0.5"' \
	'OVC_PARAM3="occ.phi_max=1"' 'OVC_PARAM4="rxq.onset_ms=0"'
workers=$(pgrep -P "$T_KPID" | wc -l)
log "kamailio runs $workers child processes"
uas_start uas
uac_run warm 200 400 # f settles at its floor, 0.5
f=$(stats_val f)
check "f pinned at 0.5" "$f == 0.5"
rpc ovc.reset
sleep 1.1 # the load starts in a second after the reset's
uac_run uac "$RATE" "$CALLS"
sleep 3
uas_stop

off=$(stats_class invite offered)
adm=$(stats_class invite admitted)
rej=$(stats_class invite rejected)
r503=$(counts_col uac 3_503_Recv)
ok200=$(counts_col uac 5_200_Recv)
log "offered=$off admitted=$adm rejected=$rej; UAC: 503=$r503 200=$ok200"
check "every INVITE counted once" "$off == $CALLS"
check "the shared acceptor is exact at f=0.5" \
	"$adm >= $CALLS / 2 - 1 && $adm <= $CALLS / 2 + 1"
check "offered = admitted + rejected" "$off == $adm + $rej"
check "UAC saw every rejection and every admission" "$r503 == $rej && $ok200 == $adm"
rpc ovc.csv >"$T_DIR/ovc.csv"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
check "csv adds up to the totals" \
	"$(csv_sum "$T_DIR/ovc.csv" invite_admitted) == $adm && $(csv_sum "$T_DIR/ovc.csv" invite_rejected) == $rej"
finish
