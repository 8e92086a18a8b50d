#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Below capacity ovc's defaults refuse nothing: the CPU-capped proxy
# (cgroup quota 20 ms / 100 ms) offered 0.9x its capacity, every algorithm
# with only `algorithm` set: at most 1 % of the calls refused (503/500)
# and at least 97 % set up within 500 ms, and ovc's CSV shows no overload
# for more than two seconds (bench/RESULTS.md, "Defaults").
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-20000}
load_scale
# 0.9x the capped capacity (350 cps where the rates were set)
RATE=${RATE:-$(scaled 315)}
SECS=${SECS:-12}
ALGS=${ALGS:-"occ occupancy aro sired bbc pi rsoca"}

cg=$(cg_make "$QUOTA_US" 100000)
for a in $ALGS; do
	kam_start -c "$cg" -n "$a" "OVC_ALGORITHM=\"$a\"" || { fail "$a: no start"; continue; }
	uas_start "${a}_uas"
	UAC_TIMEOUT=$((SECS + 10)) uac_run "${a}_uac" "$RATE" $((RATE * SECS))
	sleep 2.5
	rpc ovc.csv >"$T_DIR/$a.csv"
	uas_stop
	kam_stop
	calls=$((RATE * SECS))
	refused=$(($(counts_col "${a}_uac" 3_503_Recv) + $(counts_col "${a}_uac" 4_500_Recv)))
	timely=$(timely_window "${a}_uac" 0 100000)
	ovl=$(csv_sum "$T_DIR/$a.csv" overload)
	log "$a at $RATE/s: refused $refused of $calls, timely $timely, overload rows $ovl"
	check "$a refuses at most 1 % below capacity" "$refused <= 0.01 * $calls"
	check "$a sets up at least 97 % within 500 ms below capacity" \
		"$timely >= 0.97 * $calls"
	check "$a shows overload in at most 2 s below capacity" "$ovl <= 2"
	if bal=$(csv_check "$T_DIR/$a.csv"); then ok "$a csv balance $bal"; else fail "$a csv balance $bal"; fi
	sleep 1
done
finish
