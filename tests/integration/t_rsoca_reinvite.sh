#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# R-SOCA's rejects (004 §III-A/B): re-INVITEs beyond D_en are rejected with
# a stateless 500 carrying Retry-After T_retry (never dropped), INVITEs
# beyond the burst budget get the same 500 while emergency INVITEs
# (Request-URI user "sos", in the emergency list) are all admitted;
# rsoca.reject_code 503 switches the status, and a code other than 500/503
# is refused by ovc.set.
. "$(dirname "$0")/lib.sh"

SECS=${SECS:-8}
RATE=${RATE:-60}		# INVITEs/s, 6x E_I
SOS=${SOS:-10}			# emergency INVITEs/s
REINV=${REINV:-100}		# re-INVITEs/s for dialogs that do not exist

kam_start 'OVC_ALGORITHM="rsoca"' 'OVC_PARAM1="rsoca.ei=10"' \
	'OVC_PARAM2="rsoca.cmax=0.95"' 'OVC_EMERGENCY="sos"'
rpc ovc.set rsoca.cmin 0.9 >/dev/null # the CPU ramp stays out of the way
uas_start uas

mkdir -p "$T_DIR/reinv"
(cd "$T_DIR/reinv" && exec timeout $((SECS + 10)) sipp -sf "$SCN/reinvite-flood.xml" \
	-i 127.0.0.1 -p $((UAC_PORT + 5)) "127.0.0.1:$PROXY_PORT" -s victim \
	-r "$REINV" -m $((REINV * SECS)) -nr -l 100000 -nostdin -trace_stat \
	-stf stat.csv -trace_counts -fd 1 >out.txt 2>&1) &
reinv=$!
T_PIDS+=("$reinv")
mkdir -p "$T_DIR/sos"
(cd "$T_DIR/sos" && exec timeout $((SECS + 10)) sipp -sf "$SCN/uac.xml" \
	-i 127.0.0.1 -p $((UAC_PORT + 6)) "127.0.0.1:$PROXY_PORT" -s sos \
	-r "$SOS" -m $((SOS * SECS)) -d 0 -l 100000 -nostdin -trace_counts \
	-fd 1 >out.txt 2>&1) &
sos=$!
T_PIDS+=("$sos")
UAC_TIMEOUT=$((SECS + 10)) uac_run normal "$RATE" $((RATE * SECS))
wait "$reinv" "$sos" || true
rpc ovc.stats >"$T_DIR/stats.txt"

sv() { awk -v b="$1" -v k="$2" '$1 == b ":" { on = 1; next } on && $1 == "}" { on = 0 }
	on && $1 == k ":" { print $2; exit }' "$T_DIR/stats.txt"; }
top() { awk -v k="$1" '$1 == k ":" { print $2; exit }' "$T_DIR/stats.txt"; }
re_sent=$(counts_col reinv 0_INVITE_Sent)
re_500=$(counts_col reinv 3_500_Recv)
re_404=$(counts_col reinv 2_404_Recv)
re_bad=$(($(stat_col reinv 'FailedRegexpDoesntMatch(C)') + $(stat_col reinv 'FailedRegexpHdrNotFound(C)')))
re_rej=$(sv reinvite rejected)
re_drop=$(sv reinvite dropped)
n_sent=$(counts_col normal 0_INVITE_Sent)
n_500=$(counts_col normal 4_500_Recv)
n_ok=$(counts_col normal 5_200_Recv)
s_sent=$(counts_col sos 0_INVITE_Sent)
s_500=$(counts_col sos 4_500_Recv)
s_ok=$(counts_col sos 5_200_Recv)
burst=$(top burst_rejects)
emerg=$(top emergency_passes)
log "re-INVITE: sent $re_sent, 500 $re_500 (Retry-After missing/wrong: $re_bad)," \
	"404 $re_404; ovc rejected $re_rej dropped $re_drop"
log "INVITE: sent $n_sent, 500 $n_500, 200 $n_ok; sos: sent $s_sent, 500 $s_500," \
	"200 $s_ok; burst rejects $burst, emergency passes $emerg"
check "re-INVITE excess rejected with 500" "$re_500 > 0.3 * $re_sent"
check "every 500 carries Retry-After: 5" "$re_bad == 0"
check "re-INVITEs are rejected, never dropped" "$re_drop == 0 && $re_rej == $re_500"
check "the rest of the re-INVITEs reach the script (404)" "$re_404 + $re_500 >= 0.98 * $re_sent"
check "INVITEs beyond the burst budget rejected with 500" "$n_500 > 0.5 * $n_sent"
check "emergency INVITEs all admitted while others are rejected" \
	"$s_sent == $SOS * $SECS && $s_ok == $s_sent && $s_500 == 0"
check "emergency passes counted" "$emerg > 0 && $emerg <= $s_sent"

# 503 selectable; other codes refused and nothing changes
bad=$(rpc ovc.set rsoca.reject_code 501 2>&1 || true)
code=$(rpc ovc.get rsoca.reject_code | awk '$1 == "rsoca.reject_code:" { print $2 }')
check "ovc.set rsoca.reject_code 501 refused" "\"$code\" == \"500\""
echo "$bad" | grep -qi "500 or 503" && ok "refusal names the accepted codes" ||
	fail "refusal text: $bad"
rpc ovc.set rsoca.reject_code 503 >/dev/null
sleep 0.5
UAC_TIMEOUT=10 uac_run r503 "$RATE" $((RATE * 3))
n503=$(counts_col r503 3_503_Recv)
n500b=$(counts_col r503 4_500_Recv)
check "rsoca.reject_code 503 answers 503" "$n503 > 0 && $n500b == 0"
sleep 2.5
rpc ovc.csv >"$T_DIR/ovc.csv"
rcsv=$(csv_sum "$T_DIR/ovc.csv" dlg_reinvite_rejected)
check "csv counts re-INVITE rejects" "$rcsv == $re_rej"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
