#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# R-SOCA's burst protection (004 §III-C): with E_I = 20/s and B_en = 1.5 at
# most floor(B_en E_I T) = 30 initial INVITEs are taken per 1 s interval,
# whatever the CPU says; 100 INVITEs/s get the rest rejected with 500 +
# Retry-After, counted as burst rejects. With E_I = 0 (no engineered load,
# no budget) the same offered load is admitted in full: the budget, not the
# CPU, made the rejects.
. "$(dirname "$0")/lib.sh"

RATE=${RATE:-100}
SECS=${SECS:-10}

kam_start 'OVC_ALGORITHM="rsoca"' 'OVC_PARAM1="rsoca.ei=20"' \
	'OVC_PARAM2="rsoca.ben=1.5"' 'OVC_PARAM3="rsoca.cmax=0.95"'
rpc ovc.set rsoca.cmin 0.9 >/dev/null # the CPU ramp stays out of the way
uas_start uas
sleep 1
off0=$(stats_class invite offered)
UAC_TIMEOUT=$((SECS + 10)) uac_run burst "$RATE" $((RATE * SECS))
rpc ovc.stats >"$T_DIR/stats.txt"
top() { awk -v k="$1" '$1 == k ":" { print $2; exit }' "$T_DIR/stats.txt"; }
sv() { awk -v b="$1" -v k="$2" '$1 == b ":" { on = 1; next } on && $1 == "}" { on = 0 }
	on && $1 == k ":" { print $2; exit }' "$T_DIR/stats.txt"; }
sent=$(counts_col burst 0_INVITE_Sent)
r500=$(counts_col burst 4_500_Recv)
ok200=$(counts_col burst 5_200_Recv)
burst=$(top burst_rejects)
limit=$(top burst_limit_invite)
adm=$(sv invite admitted)
qd=$(sv invite queued)
rej=$(sv invite rejected)
# intervals the run spanned: the budget allows limit per interval (+1 for
# an interval cut by the start or the end)
max_ok=$(awk "BEGIN { print $limit * ($SECS + 2) }")
min_ok=$(awk "BEGIN { print $limit * ($SECS - 2) }")
log "sent $sent: 200 $ok200, 500 $r500; ovc: burst limit $limit/interval," \
	"burst rejects $burst, invite rejected $rej"
check "burst limit is floor(1.5 x 20 x 1 s)" "$limit == 30"
check "calls admitted within the budget" "$ok200 <= $max_ok && $ok200 >= $min_ok"
check "the excess is rejected with 500" "$r500 >= $sent - $max_ok && $r500 + $ok200 == $sent"
check "every reject is a burst reject" "$burst == $rej && $rej == $r500"

rpc ovc.set rsoca.ei 0 >/dev/null
sleep 1.5 # the next interval carries no budget
UAC_TIMEOUT=10 uac_run free "$RATE" $((RATE * 3))
f500=$(counts_col free 4_500_Recv)
f200=$(counts_col free 5_200_Recv)
log "rsoca.ei=0: 200 $f200, 500 $f500"
check "without an engineered load there is no budget" "$f500 == 0 && $f200 == $RATE * 3"
sleep 2.5
rpc ovc.csv >"$T_DIR/ovc.csv"
bcsv=$(csv_sum "$T_DIR/ovc.csv" burst_rejects)
check "csv counts burst rejects" "$bcsv == $burst"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
