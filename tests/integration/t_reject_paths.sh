#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The ways a refusal can go, with a controller forced to refuse everything
# (occ with target 0.01, f_min 0 and phi_max 1 under a light load):
#  1. default: every INVITE gets ovc's stateless 503, the UAC ACKs it, the
#     ACK is absorbed by ovc (the cfg relays stray ACKs: none reaches the
#     UAS), nothing reaches the UAS, every request is accounted for;
#  2. dry run: nothing is refused, every call completes, the would-be
#     rejections are counted and $ovc(verdict) says would_reject;
#  3. noreply: ovc_admit("noreply") returns -1 and the script answers.
. "$(dirname "$0")/lib.sh"

# phi_max 1: f only falls (geometrically, to ~1e-20 within the warm-up)
FORCE=('OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0"'
	'OVC_PARAM3="occ.epoch_ms=100"' 'OVC_PARAM4="occ.phi_max=1"'
	'OVC_PARAM5="rxq.onset_ms=0"')
CALLS=600
RATE=150

# --- 1. default reject path
kam_start -n k1 "${FORCE[@]}" RELAY_STRAY_ACK
uas_start uas1
uac_run warm1 "$RATE" 300 # drives f to 0 (calls before that complete)
rpc ovc.reset
sleep 1.1 # the load starts in a second after the reset's (csv rows)
uac_run uac1 "$RATE" "$CALLS"
sleep 3
uas_stop
r503=$(counts_col uac1 3_503_Recv)
acks=$(counts_col uac1 11_ACK_Sent)
ok200=$(counts_col uac1 5_200_Recv)
absorbed=$(rpc ovc.stats | awk '$1 == "acks_absorbed:" { print $2 }')
rej=$(stats_class invite rejected)
off=$(stats_class invite offered)
ind_drop=$(stats_class indialog dropped)
log "503=$r503 ACKs sent=$acks 200=$ok200; ovc: offered=$off rejected=$rej acks_absorbed=$absorbed"
# f stops falling once the CPU spent on admitted calls (the refusals' CPU
# is left out, measured on one datagram in 8) is below occ's target 0.01:
# it settles near 0.001-0.01, so the shared acceptor lets a few of the
# INVITEs through (seen 3-7 of 600)
check "every INVITE answered, all but at most 2 % with 503" \
	"$r503 + $ok200 == $CALLS && $r503 * 50 >= $CALLS * 49"
check "ovc counted every INVITE and every 503" "$off == $CALLS && $rej == $r503"
check "every ACK to a 503 absorbed by ovc" "$absorbed == $acks && $ind_drop == $acks && $acks == $r503"
uas_msgs=$(stat_col uas1 'OutOfCallMsgs(C)')
in_uas=$(stat_col uas1 'IncomingCall(C)')
log "UAS: incoming calls (warm-up included)=$in_uas out-of-call messages=$uas_msgs"
check "no ACK to a 503 reached the UAS" "$uas_msgs == 0"
sleep 2.5 # the last second reaches the history
rpc ovc.csv >"$T_DIR/k1.csv"
if bal=$(csv_check "$T_DIR/k1.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
fast=$(rpc ovc.stats | awk '$1 == "rejects:" { print $2 }')
check "the fast path answered the rejects at arrival" "$fast == $rej"
check "csv per-second fast_rejects and acks_absorbed add up" \
	"$(csv_sum "$T_DIR/k1.csv" fast_rejects) == $rej && $(csv_sum "$T_DIR/k1.csv" acks_absorbed) == $absorbed"
kam_stop

# --- 2. dry run
kam_start -n k2 "${FORCE[@]}" OVC_LOG_VERDICT
rpc ovc.set dry_run 1 >/dev/null
uas_start uas2
uac_run warm2 "$RATE" 300
rpc ovc.reset
uac_run uac2 "$RATE" "$CALLS"
sleep 3
uas_stop
f=$(stats_val f)
would=$(stats_class invite would_reject)
adm=$(stats_class invite admitted)
r503=$(counts_col uac2 3_503_Recv)
done2=$(counts_col uac2 9_200_Recv) # 200 to the BYE: call completed
verdicts=$(grep -c 'ovc-verdict INVITE would_reject' "$T_DIR/k2.log" || true)
log "dry run: f=$f admitted=$adm would_reject=$would 503=$r503 completed=$done2 verdict-lines=$verdicts"
check "dry run rejects nothing" "$r503 == 0 && $done2 == $CALLS"
check "dry run counts what it would reject" "$would > 0.9 * $CALLS && $adm == $CALLS"
check "\$ovc(verdict) shows would_reject to the script" "$verdicts > 0.9 * $CALLS"
kam_stop

# --- 3. noreply: the script answers
kam_start -n k3 "${FORCE[@]}" OVC_NOREPLY OVC_LOG_VERDICT
uas_start uas3
uac_run warm3 "$RATE" 300
rpc ovc.reset
uac_run uac3 "$RATE" "$CALLS"
sleep 3
uas_stop
r503=$(counts_col uac3 3_503_Recv)
rej=$(stats_class invite rejected)
lines=$(grep -c 'ovc-verdict INVITE rejected' "$T_DIR/k3.log" || true)
log "noreply: 503 (from the script)=$r503 ovc rejected=$rej verdict lines=$lines"
# as in 1., f settles where a few INVITEs still pass
check "noreply: the script answered every refused INVITE (all but 2 %)" \
	"$r503 == $rej && $rej * 50 >= $CALLS * 49"
check "noreply: \$ovc(verdict) is rejected in the script" "$lines >= $rej"
finish
