#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's receive queue (issue 9), on the CPU-capped proxy at ~4x its
# capacity with no control (algorithm none), three short runs:
#  open:  rx_queue rises (hundreds of INVITEs) and the estimated wait with
#         it; ovc.stats shows the rxq block;
#  bound: rcvbuf_udp=16 messages: the queue never holds more than the
#         bound, the kernel drops the excess (socket drops in the CSV and
#         UdpRcvbufErrors in /proc/net/snmp rise);
#  age:   rxq.max_age_ms=100: INVITEs that waited longer are answered 503
#         at once, counted as age_rejects (kernel receive timestamps);
#         with algorithm none nothing else refuses a call: every call the
#         UAC saw answered 503 is an age reject, and the other rejects are
#         retransmissions (of age-rejected INVITEs);
#  calm:  the same limit at ~0.3x capacity: not one age reject (below
#         capacity a wait is a burst, not a loss);
# and, without load, the TCP listener's queues by sock_diag: with
# Kamailio's TCP main process stopped, connections wait to be accepted
# (tcp_backlog) with their bytes unread (tcp_rx_bytes); rcvbuf_tcp=4
# messages gives the listener a 5120-byte SO_RCVBUF.
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-20000} # 0.2 CPU: ~350 calls/s (bench/RESULTS.md)
RATE=${RATE:-1400}          # 4x
CALM_RATE=${CALM_RATE:-100} # ~0.3x
SECS=${SECS:-8}
BOUND=16                    # messages

cg=$(cg_make "$QUOTA_US" 100000)

snmp_rcvbuf_errors() {
	awk '$1 == "Udp:" && !h { for(i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Udp:" && h { print $(c["RcvbufErrors"]); exit }' /proc/net/snmp
}

# run NAME DEFINES...: one run at RUN_RATE (default RATE, the overload);
# ovc.stats near its end, then ovc.csv into $T_DIR/NAME.*
run() {
	local name=$1 rate=${RUN_RATE:-$RATE}
	shift
	kam_start -c "$cg" -n "$name" 'OVC_ALGORITHM="none"' "$@"
	uas_start "${name}_uas"
	UAC_TIMEOUT=$((SECS + 2)) uac_run "${name}_uac" "$rate" $((rate * SECS)) &
	local uac=$!
	sleep $((SECS - 1))
	rpc ovc.stats >"$T_DIR/$name.stats"
	wait "$uac"
	sleep 2.2 # the last seconds reach the history
	rpc ovc.csv >"$T_DIR/$name.csv"
	uas_stop
	kam_stop
}

# col_max FILE COLUMN / col_sum FILE COLUMN over the CSV dump
col_max() {
	awk -F',' -v n="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == n) c = i; next }
		c && $c + 0 > m { m = $c + 0 } END { print m + 0 }' "$1"
}
# rxq_val FILE KEY: a number from the rxq block of an ovc.stats dump
rxq_val() {
	awk -v k="$2" '$1 == "rxq:" { on = 1; next } on && $1 == "}" { on = 0 }
		on && $1 == k ":" { print $2; exit }' "$1"
}

run open
q_open=$(col_max "$T_DIR/open.csv" rx_queue_bytes)
w_open=$(col_max "$T_DIR/open.csv" rx_queue_wait_ms)
log "open: rx_queue max $q_open bytes ($((q_open / 1280)) messages), wait max $w_open ms;" \
	"rcvbuf $(col_max "$T_DIR/open.csv" rcvbuf_bytes) bytes"
check "rx_queue rises under overload with no control (> 200 messages)" \
	"$q_open > 200 * 1280"
check "the estimated wait rises with it (> 100 ms)" "$w_open > 100"
check "ovc.stats has the rxq block" \
	"$(rxq_val "$T_DIR/open.stats" drain_msgs_s) > 0"
if bal=$(csv_check "$T_DIR/open.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi

e0=$(snmp_rcvbuf_errors)
run bound "OVC_RCVBUF_UDP=$BOUND"
e1=$(snmp_rcvbuf_errors)
rb=$(col_max "$T_DIR/bound.csv" rcvbuf_bytes)
q_bound=$(col_max "$T_DIR/bound.csv" rx_queue_bytes)
drops=$(csv_sum "$T_DIR/bound.csv" rx_drops)
log "bound $BOUND messages: SO_RCVBUF $rb bytes, rx_queue max $q_bound bytes," \
	"socket drops $drops, UdpRcvbufErrors +$((e1 - e0))"
check "the effective buffer is the bound (16 x 1280 bytes)" "$rb == $BOUND * 1280"
check "rx_queue stays within the bound (+1 datagram)" "$q_bound <= $rb + 1280"
check "the kernel drops the excess (socket drops column)" "$drops > 0"
check "the drops show in /proc/net/snmp UdpRcvbufErrors" "$e1 - $e0 >= $drops"

run age 'OVC_PARAM1="rxq.max_age_ms=100"'
ages=$(csv_sum "$T_DIR/age.csv" age_rejects)
rej=$(csv_sum "$T_DIR/age.csv" invite_rejected)
by_ts=$(rxq_val "$T_DIR/age.stats" age_by_timestamp)
r503=$(counts_col age_uac 3_503_Recv)
retr=$(counts_col age_uac 0_INVITE_Retrans)
log "age 100 ms: age_rejects $ages of $rej rejected INVITEs; checks by" \
	"timestamp $by_ts, by estimate $(rxq_val "$T_DIR/age.stats" age_by_estimate);" \
	"calls answered 503 at the UAC $r503; INVITE retransmissions $retr"
check "INVITEs that waited > 100 ms are rejected and counted" "$ages > 0"
check "the UAC gets the 503s" "$r503 > 0"
# a call is age-rejected once (its retransmissions then meet the reject
# memory), so a call refused for any other reason shows as a 503 beyond
# age_rejects
check "with algorithm none every call answered 503 is an age reject" \
	"$r503 <= $ages"
check "the other rejects are retransmissions (no more than the UAC sent)" \
	"$rej - $ages <= $retr"
check "the age comes from kernel receive timestamps" "$by_ts > 0"
if bal=$(csv_check "$T_DIR/age.csv"); then ok "csv balance $bal"; else fail "csv balance $bal"; fi

RUN_RATE=$CALM_RATE run calm 'OVC_PARAM1="rxq.max_age_ms=100"'
c_ages=$(csv_sum "$T_DIR/calm.csv" age_rejects)
c_rej=$(csv_sum "$T_DIR/calm.csv" invite_rejected)
c_off=$(csv_sum "$T_DIR/calm.csv" invite_offered)
log "calm, $CALM_RATE calls/s, age 100 ms: age_rejects $c_ages, rejected" \
	"$c_rej of $c_off offered INVITEs"
check "below capacity the age limit rejects nothing" \
	"$c_off > 0 && $c_ages == 0 && $c_rej == 0"

TCP_PORT=$((T_BASE + 5))
kam_start -n tcp "TCP_LISTEN=tcp:127.0.0.1:$TCP_PORT" OVC_RCVBUF_TCP=4
# the control socket answers once the module processes are forked; the tcp
# main process comes after them, so look for it until it is there
tmain=
for _ in $(seq 1 50); do
	tmain=$(rpc core.psx | awk '$1 == "PID:" { p = $2 }
		/DSC: tcp main process/ { print p; exit }')
	[ -n "$tmain" ] && break
	sleep 0.1
done
if [ -n "$tmain" ] && kill -STOP "$tmain"; then
	# three connections with 700 bytes each, held open until told to go
	# (bash's /dev/tcp: no interpreter beyond what the tests already need)
	(
		for fd in 3 4 5; do
			eval "exec $fd<>/dev/tcp/127.0.0.1/$TCP_PORT" || exit 1
			printf '%0700d' 0 >&"$fd" || exit 1
		done
		: >"$T_DIR/tcp.up"
		for _ in $(seq 1 100); do
			[ -e "$T_DIR/tcp.done" ] && break
			sleep 0.05
		done
	) &
	holder=$!
	for _ in $(seq 1 50); do
		[ -e "$T_DIR/tcp.up" ] && break
		sleep 0.1
	done
	# the backlog at the next samples (rxq.sample_ms 20); the connections'
	# bytes at the next read of the connections (every 100 ms while
	# connections wait, within its CPU budget: a second at most here)
	for _ in $(seq 1 30); do
		sleep 0.1
		rpc ovc.stats >"$T_DIR/tcp.stats"
		[ "$(rxq_val "$T_DIR/tcp.stats" tcp_rx_bytes)" = 2100 ] && break
	done
	touch "$T_DIR/tcp.done"
	wait "$holder"
	kill -CONT "$tmain"
else
	fail "no tcp main process found"
fi
kam_stop
tv() { rxq_val "$T_DIR/tcp.stats" "$1"; }
log "tcp: backlog $(tv tcp_backlog) connections, unread $(tv tcp_rx_bytes)" \
	"bytes, SO_RCVBUF $(tv rcvbuf_tcp_bytes), /proc reads $(tv proc_reads)"
check "sock_diag sees the 3 connections waiting for accept" \
	"$(tv tcp_backlog) + 0 == 3"
check "and their 3 x 700 unread bytes" "$(tv tcp_rx_bytes) + 0 == 2100"
check "rcvbuf_tcp=4 sets the listener's buffer (4 x 1280)" \
	"$(tv rcvbuf_tcp_bytes) + 0 == 5120"
check "no /proc fallback was needed" "$(tv proc_reads) + 0 == 0"
finish
