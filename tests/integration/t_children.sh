#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# With several SIP worker processes (KAM_CHILDREN, default 4; the other
# tests run children=1) the main algorithms keep what their children=1
# tests assert, on the proxy capped at 20 ms / 100 ms:
# - below capacity (t_defaults_below.sh), occ with the module's defaults
#   and sired with only `algorithm` set: at most 1 % of the calls refused,
#   at least 97 % set up within 500 ms, overload in at most 2 CSV rows.
#   The rate is BELOW_RATE (150 calls/s where the rates were set, scaled:
#   load_scale), not probed: about 0.4x the children=1 capacity there;
#   more workers cost more per call, but not 2x (the same cap carried
#   ~250 calls/s with 8 workers where it carried ~400 with one);
# - at ~3x capacity (RATE as t_overload.sh; more than 3x of a proxy with
#   4 workers), against no control with the same workers: occ with the
#   defaults rejects a measurable share with 503, shows the overload in
#   its CSV, completes at least 0.75x the calls/s (no control with 4
#   workers completed 227-476/s over six runs, occ 335-490; in the same
#   run occ/none went from 0.83 to 1.23, so 0.85 failed once when no
#   control collapsed late: the margin is below that spread; what no
#   control completes it mostly sets up late),
#   sets up more than 1.5x
#   the calls within 500 ms, its admitted calls in under 300 ms on
#   average, and cuts the INVITE retransmissions to under 0.2x
#   (t_overload.sh); sired rejects more than 5 % of the offered calls
#   (t_algorithms.sh, ovc's invite_rejected); its goodput is logged, not
#   asserted (no children=1 test asserts one for sired yet).
# Every CSV row balances. Shorter than its children=1 models (SECS 16,
# window from 8 s) to keep make check's time.
. "$(dirname "$0")/lib.sh"

n_children=${KAM_CHILDREN:-4}
QUOTA_US=${QUOTA_US:-20000}
PERIOD_US=100000
KAM_CHILDREN="" load_scale # measured, if not cached, with children=1
KAM_CHILDREN=$n_children
BELOW_RATE=${BELOW_RATE:-$(scaled 150)}
BELOW_SECS=${BELOW_SECS:-6}
RATE=${RATE:-$(scaled 1050)}
SECS=${SECS:-16}
WIN_FROM=${WIN_FROM:-8}

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")

# below NAME: BELOW_RATE for BELOW_SECS to the running proxy, a UAS of
# its own; ovc's CSV of the run in $T_DIR/NAME.csv, zeroed afterwards
below() {
	local n=$1
	uas_start "${n}_uas"
	UAC_TIMEOUT=$((BELOW_SECS + 10)) uac_run "$n" "$BELOW_RATE" \
		$((BELOW_RATE * BELOW_SECS))
	sleep 2.5 # the last seconds reach the history
	rpc ovc.csv >"$T_DIR/$n.csv"
	uas_stop
	rpc ovc.reset >/dev/null
	sleep 1.1 # the next load starts in a second after the reset's
}

# over NAME: RATE for SECS to the running proxy (UAS NAME_uas, UAC
# NAME_uac); ovc's CSV in $T_DIR/NAME.csv unless NAME is none
over() {
	local n=$1
	uas_start "${n}_uas"
	UAC_TIMEOUT=$((SECS + 3)) uac_run "${n}_uac" "$RATE" $((RATE * SECS)) \
		-trace_rtt -rtt_freq 50
	if [ "$n" != none ]; then
		sleep 2.5
		rpc ovc.csv >"$T_DIR/$n.csv"
	fi
	uas_stop
}

# check_below ALG: t_defaults_below's checks on run ALG_below
check_below() {
	local a=$1 calls refused timely ovl bal
	calls=$((BELOW_RATE * BELOW_SECS))
	refused=$(($(counts_col "${a}_below" 3_503_Recv) + $(counts_col "${a}_below" 4_500_Recv)))
	timely=$(timely_window "${a}_below" 0 100000)
	ovl=$(csv_sum "$T_DIR/${a}_below.csv" overload)
	log "$a, $KAM_CHILDREN children, at $BELOW_RATE/s: refused $refused of" \
		"$calls, timely $timely, overload rows $ovl"
	check "$a refuses at most 1 % below capacity" "$refused <= 0.01 * $calls"
	check "$a sets up at least 97 % within 500 ms below capacity" \
		"$timely >= 0.97 * $calls"
	check "$a shows overload in at most 2 s below capacity" "$ovl <= 2"
	if bal=$(csv_check "$T_DIR/${a}_below.csv"); then
		ok "$a csv balance below capacity $bal"
	else
		fail "$a csv balance below capacity $bal"
	fi
}

kam_start -c "$cg" -n none NO_OVC || { fail "no start (none)"; finish; }
log "kamailio runs $(pgrep -P "$T_KPID" | wc -l) child processes" \
	"(children=$KAM_CHILDREN)"
over none
kam_stop
sleep 1

kam_start -c "$cg" -n occ || { fail "no start (occ)"; finish; }
below occ_below
over occ
kam_stop
sleep 1

kam_start -c "$cg" -n sired 'OVC_ALGORITHM="sired"' ||
	{ fail "no start (sired)"; finish; }
below sired_below
over sired
kam_stop

check_below occ
check_below sired

gp_none=$(completed_rate none_uas "$WIN_FROM" "$SECS")
tm_none=$(timely_rate none_uac "$WIN_FROM" "$SECS")
retr_none=$(counts_col none_uac 0_INVITE_Retrans)
log "offered $RATE cps for ${SECS}s, $KAM_CHILDREN children, capped at" \
	"$QUOTA_US/$PERIOD_US us; window [$WIN_FROM,$SECS]s"
log "none: completed $gp_none/s, timely $tm_none/s, INVITE retransmissions $retr_none"
for a in occ sired; do
	gp=$(completed_rate "${a}_uas" "$WIN_FROM" "$SECS")
	tm=$(timely_rate "${a}_uac" "$WIN_FROM" "$SECS")
	read -r su su95 <<<"$(setup_stats "${a}_uac")"
	rej=$(counts_col "${a}_uac" 3_503_Recv)
	sent=$(counts_col "${a}_uac" 0_INVITE_Sent)
	retr=$(counts_col "${a}_uac" 0_INVITE_Retrans)
	ovl=$(csv_sum "$T_DIR/$a.csv" overload)
	rows=$(($(wc -l <"$T_DIR/$a.csv") - 1))
	log "$a: completed $gp/s, timely $tm/s, mean setup $su ms (p95 $su95)," \
		"503 $rej of $sent INVITEs, retransmissions $retr, overload in" \
		"$ovl of $rows rows"
	if [ "$a" = occ ]; then
		check "occ rejects a measurable share with 503" "$rej > 0.2 * $sent"
		check "occ's CSV shows the overload" "$ovl >= $SECS / 2"
		check "occ completes at least 0.75x the calls/s of no control" \
			"$gp >= 0.75 * $gp_none"
		check "occ sets up more than 1.5x the calls of no control in time" \
			"$tm > 1.5 * $tm_none"
		check "occ sets its admitted calls up in under 300 ms on average" \
			"$su > 0 && $su < 300"
		check "occ cuts the INVITE retransmissions to under 0.2x" \
			"$retr < 0.2 * $retr_none"
	else
		rj=$(csv_sum "$T_DIR/$a.csv" invite_rejected)
		check "$a rejects under overload" "$rj > 0.05 * $RATE * $SECS"
	fi
	if bal=$(csv_check "$T_DIR/$a.csv"); then ok "$a csv balance $bal"; else fail "$a csv balance $bal"; fi
done
finish
