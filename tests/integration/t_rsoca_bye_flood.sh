#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# R-SOCA's in-dialog DoS protection (004 §III-B) against a short BYE flood:
# legitimate calls (20 cps, E_I = 20/s) run through the proxy while an
# attacker sends ~15x as many BYEs for dialogs that do not exist, without
# retransmitting. BYEs beyond D_en = max(E_I T, I) B_en are dropped with
# (D - D_en)/D capped at p_pass^(1/n); the legitimate UAC retransmits its
# BYE (8 transmissions with T2 = 2 s, n = 8, p_pass = 0.05), so its calls
# still terminate, while most flood BYEs are dropped without a reply. I is
# counted from tm's 2xx replies; every per-second row balances.
. "$(dirname "$0")/lib.sh"

CPS=${CPS:-20}
CALLS=${CALLS:-200}
FLOOD=${FLOOD:-300}		# flood BYEs/s (15x E_I)
FLOOD_SECS=${FLOOD_SECS:-32}	# upper bound; stopped when the UAC is done

kam_start 'OVC_ALGORITHM="rsoca"' 'OVC_PARAM1="rsoca.ei=20"' \
	'OVC_PARAM2="rsoca.ppass=0.05"' 'OVC_PARAM3="rsoca.nretx=8"' \
	'OVC_PARAM4="rsoca.cmax=0.95"'
rpc ovc.set rsoca.cmin 0.9 >/dev/null # the CPU ramp stays out of the way
uas_start uas

mkdir -p "$T_DIR/flood"
(cd "$T_DIR/flood" && exec timeout $((FLOOD_SECS + 5)) sipp -sf "$SCN/bye-flood.xml" \
	-i 127.0.0.1 -p $((UAC_PORT + 5)) "127.0.0.1:$PROXY_PORT" -s victim \
	-key uas "127.0.0.1:$UAS_PORT" -r "$FLOOD" -m $((FLOOD * FLOOD_SECS)) \
	-nr -l 100000 -nostdin -trace_counts -fd 1 >out.txt 2>&1) &
flood=$!
T_PIDS+=("$flood")
sleep 2 # the first interval measures the flood: p_drop in force
UAC_TIMEOUT=40 uac_run legit "$CPS" "$CALLS" -T2 2000
kill "$flood" 2>/dev/null || true
wait "$flood" 2>/dev/null || true
sleep 2.5 # the flood's last datagrams read, their second closed
rpc ovc.stats >"$T_DIR/stats.txt"
rpc ovc.csv >"$T_DIR/ovc.csv"

# the UAC's counts: the first 200 received answers the INVITE, the second
# the BYE
f=$(ls "$T_DIR/legit"/*_counts.csv | head -n1)
read -r ok200 bye200 <<<"$(awk -F';' 'NR == 1 { for(i = 1; i <= NF; i++)
		if($i ~ /_200_Recv$/) c[++n] = i; next }
	{ a = $(c[1]); b = $(c[2]) } END { print a + 0, b + 0 }' "$f")"
bye_retr=$(awk -F';' 'NR == 1 { for(i = 1; i <= NF; i++) if($i ~ /_BYE_Retrans$/) c = i; next }
	{ v = $c } END { print v + 0 }' "$f")
fsent=$(counts_col flood 0_BYE_Sent)
sv() { awk -v b="$1" -v k="$2" '$1 == b ":" { on = 1; next } on && $1 == "}" { on = 0 }
	on && $1 == k ":" { print $2; exit }' "$T_DIR/stats.txt"; }
bye_arr=$(sv bye arrived)
bye_drop=$(sv bye dropped)
i_tot=$(awk '$1 == "invite_ok:" { print $2; exit }' "$T_DIR/stats.txt")
dcsv=$(csv_sum "$T_DIR/ovc.csv" dlg_bye_dropped)
icsv=$(csv_sum "$T_DIR/ovc.csv" indialog_dropped)
pct=$(awk "BEGIN { printf \"%.1f\", $ok200 ? 100 * $bye200 / $ok200 : 0 }")
log "legit: $ok200 calls set up, $bye200 terminated ($pct %), $bye_retr BYE retransmissions"
log "flood: $fsent BYEs sent; proxy: BYE arrived $bye_arr dropped $bye_drop" \
	"(csv $dcsv), I counted $i_tot"
check "legit calls set up" "$ok200 >= 0.95 * $CALLS"
check "legit BYEs terminate their calls (>= 85 %)" "$bye200 >= 0.85 * $ok200"
check "legit BYEs were dropped too, then passed on retransmission" "$bye_retr > 0"
check "flood BYEs dropped (> 55 % of those sent)" "$bye_drop > 0.55 * $fsent"
check "drops capped at p_pass^(1/n) = 0.688 of the arrivals" "$bye_drop <= 0.70 * $bye_arr"
check "csv counts the drops per type and per class" "$dcsv == $bye_drop && $icsv >= $dcsv"
check "I measured from the 2xx replies" "$i_tot >= 0.95 * $ok200 && $i_tot <= $ok200 + 5"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi
finish
