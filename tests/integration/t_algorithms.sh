#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every algorithm on one CPU-capped kamailio, switched live through RPC
# (ovc.set algorithm): below capacity it rejects nothing; under ~3x
# overload (4 s, the receive-queue path: no in-core queue) the proxy
# running it controls the overload: it rejects, at least 90 % of the calls
# it sets up are set up in time (INVITE -> 200 within 500 ms), and those
# number at least 1.5x none's under the same overload (the mean of a
# none run first and last); none never rejects
# and sets up less than half its calls in time (the overload is real).
# Measured 2026-11-28 in three runs: 98.7-100 % in time for every
# controller, 2.2-7.8x none's (rsoca the fewest: 657-794 against none's
# 174-333), none 12-19 % in time; with the front end off (rxq.guard_ms 0,
# rxq.max_age_ms 0), a module whose aro never moves f set up 18 % in
# time, 1.38x none's. This is the proxy's control, front end and
# controller together: in these 4 s most rejections are the front end's
# (the receive-queue guard's cap on f and the age limit: ovc.csv guard_f,
# age_rejects), and the controller's own f (ovc.stats f, polled, logged)
# often stays at 1 (f min 1 for occ, bbc, sired and pi in two runs,
# occupancy 0.82 then 1, aro 0.94 then 0.96, rsoca 0): a check on it
# would fail at random. Below capacity the ticker steps each no more often
# than it samples the receive queue; the per-second history keeps
# balancing across the switches and names the algorithm in force. Between
# algorithms a bounded wait (6 s at most) for the overload to end replaces
# a fixed 4 s.
. "$(dirname "$0")/lib.sh"

# none first and last: each controller is held to the mean of both (one
# none run set up 174-534 calls in time in this 4 s overload; a make
# check failed rsoca at 743 against 1.5 x 497 once)
ALGS=${ALGS:-"none occ occupancy aro bbc sired rsoca pi none"}
load_scale
OVER_RATE=${OVER_RATE:-$(scaled 1200)}
# 4 s of overload (8 until 2026-11-26): in two runs every controller
# rejected 74-88 % of the INVITEs offered, the check asks for more than 5 %
OVER_SECS=${OVER_SECS:-4}

cg=$(cg_make 20000 100000)
# the receive-queue path of every controller (t_queue.sh runs the in-core
# queue): with the queue, the CPU-threshold controllers (occupancy 0.95)
# see a CPU that dips below 1 between bursts and react more slowly than
# this short overload allows (noted in bench/RESULTS.md)
kam_start -c "$cg" 'OVC_QUEUE_SIZE=0'
uas_start uas
# the acceptance-rate term of ARO, fed with ovc's own admissions, rejects
# alpha_target's complement even when idle (docs/algorithms.md): the test
# runs ARO on its occupancy term
rpc ovc.set aro.alpha_target 1 >/dev/null
# R-SOCA's thresholds bracket the CPU the engineered load needs (004 §IV:
# C_min = the engineered traffic's CPU); here the low load takes < 30 %
rpc ovc.set rsoca.cmax 0.8 >/dev/null
rpc ovc.set rsoca.cmin 0.5 >/dev/null

# calm_wait: until the previous overload has ended (ovc.stats overload 0)
# and f is back at 1 (the new controller starts there), polled every 0.2 s
# for at most 6 s; leaves the seconds waited in CALM_S
calm_wait() {
	local i st
	for i in $(seq 1 30); do
		sleep 0.2
		st=$(rpc ovc.stats | awk '$1 == "overload:" && o == "" { o = $2 }
			$1 == "f:" && f == "" { f = $2 } END { print o + 0, f }')
		awk -v st="$st" 'BEGIN { split(st, a, " ")
			exit !(a[1] == 0 && a[2] >= 0.9999) }' && break
	done
	CALM_S=$(awk -v i="$i" 'BEGIN { printf "%.1f", i * 0.2 }')
}
# f_poll FILE: ovc.stats f every 0.2 s into FILE until killed
f_poll() {
	while :; do
		rpc ovc.stats | awk '$1 == "f:" { print $2; exit }'
		sleep 0.2
	done >"$1" 2>/dev/null
}

sample_ms=$(rpc ovc.get rxq.sample_ms | awk '$1 == "rxq.sample_ms:" { print $2 }')
none_sum=0
none_n=0
declare -A ctl_timely=()
for a in $ALGS; do
	if ! out=$(rpc ovc.set algorithm "$a" 2>&1) || printf '%s' "$out" | grep -q error; then
		fail "ovc.set algorithm $a: $out"
		continue
	fi
	calm_wait # the previous overload drains; the new controller starts at f=1
	rej0=$(stats_class invite rejected)
	off0=$(stats_class invite offered)
	ep0=$(stats_val epochs)
	t0=$(date +%s%N)
	uac_run "${a}_low" 50 150
	ep_s=$(awk -v e="$(($(stats_val epochs) - ep0))" -v t="$(($(date +%s%N) - t0))" \
		'BEGIN { printf "%.1f", e * 1e9 / t }')
	low_rej=$(($(stats_class invite rejected) - rej0))
	low_off=$(($(stats_class invite offered) - off0))
	f_poll "$T_DIR/${a}_f.txt" &
	poller=$!
	T_PIDS+=("$poller")
	UAC_TIMEOUT=$((OVER_SECS + 2)) uac_run "${a}_over" "$OVER_RATE" \
		$((OVER_RATE * OVER_SECS))
	kill "$poller" 2>/dev/null || true
	wait "$poller" 2>/dev/null || true
	f_min=$(sort -g "$T_DIR/${a}_f.txt" | head -n1)
	over_rej=$(($(stats_class invite rejected) - rej0 - low_rej))
	r503=$(counts_col "${a}_over" 3_503_Recv)
	# calls set up within 500 ms, and in all, over the whole run
	timely=$(timely_window "${a}_over" 0 100000)
	setup=$(timely_window "${a}_over" 0 100000 all)
	alg_now=$(rpc ovc.get algorithm | awk '$1 == "algorithm:" { print $2 }')
	log "$a: after ${CALM_S} s calm: below capacity offered=$low_off" \
		"rejected=$low_rej; overload rejected=$over_rej (503 at the UAC:" \
		"$r503), f min ${f_min:-none}; calls set up $setup, within 500 ms" \
		"$timely"
	check "$a is in force" "\"$alg_now\" == \"$a\""
	check "$a rejects nothing below capacity" "$low_off == 150 && $low_rej == 0"
	# a calm proxy's ticker steps the controller with the receive-queue
	# samples, not on an epoch shorter than them (pi's, bbc's 10 ms)
	check "$a steps at most with the samples while calm ($ep_s/s)" \
		"$ep_s <= 1.3 * 1000 / $sample_ms"
	if [ "$a" = none ]; then
		check "none never rejects" "$over_rej == 0"
		check "the overload is real: none set up less than half its calls in time" \
			"$timely < 0.5 * $setup"
		none_sum=$((none_sum + timely))
		none_n=$((none_n + 1))
	else
		check "$a rejects under overload" "$over_rej > 0.05 * $OVER_RATE * $OVER_SECS"
		check "$a set up at least 90 % of its calls within 500 ms" \
			"$setup > 0 && $timely >= 0.9 * $setup"
		ctl_timely[$a]=$timely
	fi
done
if [ "$none_n" -gt 0 ]; then
	none_mean=$(awk -v s="$none_sum" -v n="$none_n" 'BEGIN { printf "%.1f", s / n }')
	log "none set up $none_mean calls within 500 ms (mean of $none_n runs)"
	for a in "${!ctl_timely[@]}"; do
		check "$a set up at least 1.5x none's calls within 500 ms" \
			"${ctl_timely[$a]} >= 1.5 * $none_mean"
	done
fi
sleep 2.5
rpc ovc.csv >"$T_DIR/ovc.csv"
if bal=$(csv_check "$T_DIR/ovc.csv"); then ok "csv balance across switches $bal"; else fail "csv balance $bal"; fi
n_algs=$(awk -F, 'NR > 1 { a[$2] = 1 } END { print length(a) }' "$T_DIR/ovc.csv")
check "csv rows name every algorithm run" \
	"$n_algs == $(printf '%s\n' $ALGS | sort -u | wc -l)"
finish
