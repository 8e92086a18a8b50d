#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A retransmitted INVITE gets its original's answer, not a new decision.
# f is held at 0.5, where the deterministic acceptor alternates admit and
# refuse: without ovc's decision memory every INVITE sent twice would get
# one of each (a 503 racing a 200). With it, a call's two copies are both
# admitted or both rejected: ovc counts exactly twice as many admissions
# and rejections as the UAC sees admitted and rejected calls, and no call
# fails.
# The copy's 503 is the original's byte for byte (sl answers a repeat as
# it answered the first). SIPp 3.8 (Debian sid) takes a message equal to
# one it answered as that one's retransmission (it sends its ACK again and
# books a Retrans on the first 503) wherever the scenario is, so the copy
# never reached its own <recv 503>: the calls hung until the run's
# timeout, and copy 503 read 0 though ovc rejected both copies (rejected =
# 2 x 503). 3.6 and 3.7 matched it to the scenario's step. -nr (no SIPp
# retransmissions, hence no such memory) makes every SIPp read the copy's
# 503 at its own step; the scenario's copy is the only repeat sent.
. "$(dirname "$0")/lib.sh"

CALLS=400

kam_start 'OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0.5"' \
	'OVC_PARAM3="occ.phi_max=1"' 'OVC_PARAM4="rxq.onset_ms=0"'
uas_start uas
uac_run warm 200 400 # f falls to its floor, 0.5
rpc ovc.reset
sleep 1.1
mkdir -p "$T_DIR/uac"
(cd "$T_DIR/uac" && timeout 120 sipp -sf "$SCN/uac-retrans.xml" -i 127.0.0.1 \
	-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r 100 -m "$CALLS" \
	-d 0 -l 100000 -nr -nostdin -trace_stat -stf stat.csv -trace_counts -fd 1 \
	>out.txt 2>&1) || true
sleep 3
uas_stop

r503=$(counts_col uac 2_503_Recv)  # calls whose first INVITE got 503
ok200=$(counts_col uac 5_200_Recv) # calls admitted
copy503=$(counts_col uac 12_503_Recv)
failed=$(stat_col uac 'FailedCall(C)')
off=$(stats_class invite offered)
adm=$(stats_class invite admitted)
rej=$(stats_class invite rejected)
log "calls: 503=$r503 (copy 503=$copy503) 200=$ok200 failed=$failed;" \
	"ovc: offered=$off admitted=$adm rejected=$rej"
check "both copies of every INVITE reached ovc" "$off >= 2 * $CALLS"
check "every call answered, none failed on an unexpected answer" \
	"$r503 + $ok200 == $CALLS && $failed == 0"
check "f 0.5 refused about half of the calls" "$r503 > 0.4 * $CALLS && $r503 < 0.6 * $CALLS"
check "a rejected INVITE's copy was rejected too" \
	"$copy503 == $r503 && $rej == 2 * $r503"
# an admitted INVITE's copy answered 503 would fail its call (a 503 after
# the 100): failed == 0 above covers it; nothing may have been dropped
check "no INVITE dropped" "$(stats_class invite dropped) == 0"
finish
