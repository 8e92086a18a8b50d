#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The in-core INVITE queue under ~3x overload of a CPU-capped Kamailio, for
# the queue-based algorithms bbc, sired and pi: the queue is used and stays
# bounded, pi drains it at its rate and holds the queueing delay near its
# target, no INVITE reaches the UAS twice (tm's own retransmissions to the
# UAS are switched off, so any repeat there is ovc's), every INVITE the UAC
# sent ends as a call, a 503 or a counted timeout, and every per-second
# row balances (offered = admitted + rejected + dropped + queued -
# dequeued); pi's target wait stays within the queue's expiry (ovc.stats
# queue.target_wait_ms), and the log says so once when pi.tq is bounded.
# Figures are logged; bench/RESULTS.md keeps them.
. "$(dirname "$0")/lib.sh"

PERIOD_US=100000
load_scale
# 0.2 CPU: capacity ~350 cps (bench/RESULTS.md); less where the Kamailio
# under test does much more there (capped_quota: 6.x)
[ -n "${QUOTA_US:-}" ] || { capped_quota 20000; QUOTA_US=$CAP_QUOTA; }
RATE=${RATE:-$(scaled 1050)} # 3x
SECS=${SECS:-10}			# offered load duration (15 until 2026-11-26)
ALGS=${ALGS:-bbc sired pi}

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")

# run ALG DEFINES...: one overload run with the queue; leaves ALG.csv,
# ALG.stats.txt, ALG_uac/ and ALG_uas/ in $T_DIR.
run() {
	local alg=$1
	shift
	kam_start -c "$cg" -n "$alg" "OVC_ALGORITHM=\"$alg\"" \
		'OVC_QUEUE_SIZE=800' 'OVC_QUEUE_MAX_WAIT=400' 'TM_RETR_T1=20000' \
		'OVC_EMERGENCY="sos"' "$@"
	uas_start "${alg}_uas"
	# at most 3 retransmissions (an unanswered INVITE times out after
	# 7.5 s) and 12 s at most for any awaited answer: the UAC finishes by
	# itself with every call accounted
	UAC_TIMEOUT=$((SECS + 40)) uac_run "${alg}_uac" "$RATE" $((RATE * SECS)) \
		-max_retrans 3 -recv_timeout 12000 &
	local uac=$! sos=
	if [ "$alg" = pi ]; then
		# emergency calls (sip:sos@, in the emergency list) among the
		# overload: pi refuses at dequeue, but never these (40 at 8/s:
		# from 3 s to 8 s, within the overload)
		sleep 3
		mkdir -p "$T_DIR/sos"
		(cd "$T_DIR/sos" && exec timeout $((SECS + 30)) sipp -sf "$SCN/uac.xml" \
			-i 127.0.0.1 -p $((UAC_PORT + 6)) "127.0.0.1:$PROXY_PORT" -s sos \
			-r 8 -m 40 -d 0 -l 1000 -nostdin -trace_counts -fd 1 \
			-max_retrans 3 -recv_timeout 12000 >out.txt 2>&1) &
		sos=$!
		T_PIDS+=("$sos")
	fi
	sleep $((SECS - 3))
	rpc ovc.stats >"$T_DIR/$alg.stats.txt"
	wait "$uac"
	[ -z "$sos" ] || wait "$sos" || true
	sleep 2.5
	rpc ovc.csv >"$T_DIR/$alg.csv"
	uas_stop
	kam_stop
	sleep 1
}

# col_max FILE COLUMN / col_mean FILE COLUMN FROM: over the rows of a CSV
col_max() {
	awk -F, -v n="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == n) c = i; next }
		$c > m { m = $c } END { print m + 0 }' "$1"
}
# mean queueing delay, ms, weighted by INVITEs dequeued, over the steady
# state: from the 5th row (the controllers' start-up transient: pi begins
# at u = 0) to the last loaded row
delay_mean() {
	awk -F, 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
		{ d[NR] = $(c["invite_dequeued"]); q[NR] = $(c["queue_delay_ms"])
			if($(c["invite_offered"]) > 0) last = NR }
		END { for(i = 6; i < last; i++) { s += d[i] * q[i]; n += d[i] }
			printf "%.1f\n", n ? s / n : 0 }' "$1"
}

for alg in $ALGS; do
	case $alg in
	pi) run pi "OVC_PARAM1=\"pi.rho_m=$(scaled 350)\"" ;;
	*) run "$alg" ;;
	esac
	sent=$(counts_col "${alg}_uac" 0_INVITE_Sent)
	ok200=$(counts_col "${alg}_uac" 5_200_Recv)
	r503=$(counts_col "${alg}_uac" 3_503_Recv)
	r500=$(counts_col "${alg}_uac" 4_500_Recv)
	tmo=0 # timeouts waiting for the INVITE's answers (messages 0..5)
	for m in 0_INVITE 1_100 2_180 3_503 4_500 5_200; do
		tmo=$((tmo + $(counts_col "${alg}_uac" "${m}_Timeout")))
	done
	# calls SIPp aborted on an answer it did not expect where it came
	# (seen: 2 of 15165, a 180 reordered behind its call's other answers;
	# and, where the load scale clamps at 1.6 (1680 INVITEs/s offered),
	# 43-84 of 25200 with the code before and after the admission
	# sequence's redesign: tm's 408 to INVITEs whose 200 came later than
	# fr_timer, the UAS's SIPp itself saturated); an abort may follow a
	# counted 503, hence a range below
	unexp=0
	for m in 1_100 2_180 3_503 4_500 5_200; do
		unexp=$((unexp + $(counts_col "${alg}_uac" "${m}_Unexp")))
	done
	uas_inv=$(counts_col "${alg}_uas" 0_INVITE_Recv)
	uas_rep=$(counts_col "${alg}_uas" 0_INVITE_Retrans)
	uas_ack=$(counts_col "${alg}_uas" 2_ACK_Recv)
	qmax=$(col_max "$T_DIR/$alg.csv" queue_len)
	dmax=$(col_max "$T_DIR/$alg.csv" queue_delay_max_ms)
	dmean=$(delay_mean "$T_DIR/$alg.csv")
	queued=$(csv_sum "$T_DIR/$alg.csv" invite_queued)
	deq=$(csv_sum "$T_DIR/$alg.csv" invite_dequeued)
	full=$(csv_sum "$T_DIR/$alg.csv" queue_full)
	expired=$(csv_sum "$T_DIR/$alg.csv" queue_expired)
	absorbed=$(csv_sum "$T_DIR/$alg.csv" queue_absorbed)
	log "$alg: UAC sent $sent INVITEs: 200=$ok200 503=$r503 500=$r500" \
		"timeout=$tmo unexpected=$unexp; UAS got $uas_inv INVITEs (repeats $uas_rep)," \
		"completed $uas_ack; calls/s completed $(awk "BEGIN { printf \"%.1f\", $uas_ack / $SECS }")"
	log "$alg: queue: queued=$queued dequeued=$deq full=$full" \
		"expired=$expired absorbed=$absorbed; len max=$qmax;" \
		"delay steady mean=${dmean} ms, max=${dmax} ms"
	check "$alg: the queue was used" "$queued > 0 && $deq > 0"
	check "$alg: every queued INVITE left the queue" "$deq == $queued"
	check "$alg: queue length bounded by queue_size" "$qmax <= 800"
	check "$alg: no INVITE reached the UAS twice" "$uas_rep == 0"
	check "$alg: every INVITE ended as a call, a 503, a timeout or an abort" \
		"$sent >= $ok200 + $r503 + $r500 + $tmo && $sent <= $ok200 + $r503 + $r500 + $tmo + $unexp"
	check "$alg: SIPp aborted almost no call (< 0.5 %)" \
		"$unexp * 200 < $sent"
	check "$alg: every call answered 200 reached the UAS" \
		"$uas_inv >= $ok200"
	if bal=$(csv_check "$T_DIR/$alg.csv"); then
		ok "$alg: csv balance $bal"
	else
		fail "$alg: csv balance $bal"
	fi
	if [ "$alg" = pi ]; then
		# 003: T_q = 50 ms; the drain follows u, so the wait tracks it.
		# Measured (steady mean, this test at 3x, 10 s): 59.1-64.5 ms in
		# 5 runs here on 2026-11-28 (63.6, 63.6 with Kamailio 5.6; 64.5,
		# 61.3, 59.1 with 6.0), 55.8 and 56.0 ms on a machine at load
		# scale 1.58 (bench/results/s30/pi); 50.1-50.5 ms in 5 longer runs
		# at 8x (bench/RESULTS.md, "pi in the in-core queue"); pi released
		# every ~2 s held 190-406 ms. Later the same day, with eight
		# people's builds and tests sharing the machine, 66.2-78 ms in
		# seven runs, the code before and after a change alternated under
		# one lock at 72.0/69.4 and 66.4/66.2 ms: the machine's load moves
		# the wait by 15 ms. The band, -20 %/+80 % of the target, keeps
		# that spread with 12 ms to spare; the same queue without a delay
		# target wanders wider (bbc 59.7-88.3 ms, sired 38.1-73.0 ms in
		# two of those runs), and pi aiming at twice the target (a module
		# broken so) held 114-117 ms, which the band still refuses.
		check "pi: mean queueing delay near the 50 ms target" \
			"$dmean >= 40 && $dmean <= 90"
		grep -q "reject_at_dequeue: 1" "$T_DIR/pi.stats.txt" &&
			ok "pi: rejects at dequeue" || fail "pi: rejects at dequeue"
		s_sent=$(counts_col sos 0_INVITE_Sent)
		s_503=$(counts_col sos 3_503_Recv)
		s_ok=$(counts_col sos 5_200_Recv)
		passes=$(awk '$1 == "emergency_passes:" { print $2; exit }' \
			"$T_DIR/pi.stats.txt")
		log "pi: emergency calls sent $s_sent, 200 $s_ok, 503 $s_503;" \
			"emergency passes by the stats snapshot ${passes:-?}"
		check "pi: no emergency call rejected" "$s_sent == 40 && $s_503 == 0"
		check "pi: every emergency call set up" "$s_ok == 40"
	fi
done

# pi's target wait stays within the queue's expiry: the T_q in force is
# pi.tq, at most half of max_wait_ms (pi.tq 0.2 s against an expiry of
# 180 ms set up 6 calls/s in time at 8x; bench/RESULTS.md, "pi's target
# wait and the queue's expiry"). No load: pi steps every 10 ms.
kam_start -c "$cg" -n pi_tq 'OVC_ALGORITHM="pi"' 'OVC_QUEUE_MAX_WAIT=400' ||
	{ fail "no start (pi_tq)"; finish; }
# target_after WANT [PARAM VALUE]: queue.target_wait_ms once PARAM is set
# and the ticker has applied it: read until it is WANT, for at most 3 s
# (the last reading then, which the checks below refuse)
target_after() {
	local want=$1 v i
	shift
	[ $# -eq 0 ] || rpc ovc.set "$1" "$2" >/dev/null
	for i in $(seq 30); do
		v=$(stats_val target_wait_ms)
		[ "$v" != "$want" ] || break
		sleep 0.1
	done
	echo "$v"
}
t_def=$(target_after 50)
t_long=$(target_after 200 pi.tq 0.5)
# the notice comes from the ticker's queue part once it applies the
# bounded target, which ovc.stats may show a tick before: wait for it (at
# most 3 s) before pi.tq changes again (a make check saw no notice when
# 0.1 followed at once)
bound_line="pi: queueing target 200 ms in force: pi.tq 500 ms"
for _ in $(seq 30); do
	grep -q "$bound_line" "$T_DIR/pi_tq.log" && break
	sleep 0.1
done
t_mid=$(target_after 100 pi.tq 0.1)
t_occ=$(target_after 0 algorithm occ)
log "target_wait_ms: default $t_def, pi.tq 0.5: $t_long, 0.1: $t_mid," \
	"occ: $t_occ (max_wait_ms $(stats_val max_wait_ms))"
check "pi: target wait 50 ms by default" "$t_def == 50"
check "pi: pi.tq 0.5 s held to half the 400 ms expiry" "$t_long == 200"
check "pi: pi.tq 0.1 s within it, as set" "$t_mid == 100"
check "occ keeps no wait in the queue" "$t_occ == 0"
bound_logs=$(grep -c "$bound_line" "$T_DIR/pi_tq.log" || true)
check "pi: the bounded pi.tq said once in the log" "$bound_logs == 1"
kam_stop
finish
