#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Loaded with `none` (the monitor mode), ovc costs the proxy as near
# nothing as it can (issue 41, item 5): near its capacity every bit of CPU
# the monitor takes can tip the proxy into a backlog the plain proxy does
# not have. Two things that only serve a controller must not run:
#  - the UDP listeners' receive buffers stay as Kamailio set them
#    (SO_RCVBUF as `ss` shows it: the same as the plain proxy's), where
#    rcvbuf_udp auto used to set them again, rounded, without an age
#    limit to size them for;
#  - ovc's own processes (ticker, reaper, queue workers) wake at most
#    NONE_WAKES_MAX times a second in all (voluntary context switches over
#    a run at RATE calls/s), where the reaper woke every 100 ms for a
#    memory control that only rsoca has (25 a second in all before: ticker
#    11, reaper 10, four queue workers 1 each).
# And every call completes in both arms. The CPU of ovc's processes per
# second is logged. About 30 s.
. "$(dirname "$0")/lib.sh"

RATE=${RATE:-150}
SECS=6
NONE_WAKES_MAX=${NONE_WAKES_MAX:-20}
cg=$(cg_make 20000 100000)

# rcvbuf: the SO_RCVBUF of the proxy's UDP listener (ss's skmem rb), bytes
rcvbuf() {
	ss -uamn "sport = :$PROXY_PORT" | awk '
		match($0, /rb[0-9]+/) { print substr($0, RSTART + 2, RLENGTH - 2); exit }'
}

# ovc's processes: PIDs of core.psx entries whose description starts "ovc "
ovc_pids() {
	rpc core.psx | awk '$1 == "PID:" { p = $2 } /DSC: ovc / { print p }'
}

# vcsw PID...: their voluntary context switches in all
vcsw() {
	local p s=0 v
	for p in "$@"; do
		v=$(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' \
			"/proc/$p/status" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo "$s"
}

# run_ns PID...: their CPU time in all (schedstat), ns
run_ns() {
	local p s=0 v
	for p in "$@"; do
		v=$(awk '{ print $1 }' "/proc/$p/schedstat" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo "$s"
}

kam_start -c "$cg" -n plain NO_OVC
rb_plain=$(rcvbuf)
uas_start plain_uas
UAC_TIMEOUT=$((SECS + 20)) uac_run plain_uac "$RATE" $((RATE * SECS))
uas_stop
kam_stop
acks_plain=$(counts_col plain_uas 2_ACK_Recv)

kam_start -c "$cg" -n none 'OVC_ALGORITHM="none"'
mapfile -t pids < <(ovc_pids)
uas_start none_uas
sleep 0.5 # the ticker's first sample is done: what follows is steady
rb_none=$(rcvbuf)
w0=$(vcsw "${pids[@]}")
c0=$(run_ns "${pids[@]}")
t0=$(date +%s%N)
UAC_TIMEOUT=$((SECS + 20)) uac_run none_uac "$RATE" $((RATE * SECS))
w1=$(vcsw "${pids[@]}")
c1=$(run_ns "${pids[@]}")
t1=$(date +%s%N)
uas_stop
kam_stop
acks_none=$(counts_col none_uas 2_ACK_Recv)

wakes=$(awk -v w="$((w1 - w0))" -v t="$((t1 - t0))" \
	'BEGIN { printf "%.1f", w * 1e9 / t }')
cpu_ms=$(awk -v c="$((c1 - c0))" -v t="$((t1 - t0))" \
	'BEGIN { printf "%.2f", c * 1e3 / t }')
log "receive buffer: plain $rb_plain bytes, none $rb_none bytes;" \
	"ovc's ${#pids[@]} processes woke $wakes times/s and used $cpu_ms ms" \
	"of CPU per s at $RATE calls/s; ACKs plain $acks_plain, none $acks_none" \
	"of $((RATE * SECS))"
check "ovc's processes found in core.psx" "${#pids[@]} >= 2"
check "every call completed (plain)" "$acks_plain == $((RATE * SECS))"
check "every call completed (none)" "$acks_none == $((RATE * SECS))"
check "with none the receive buffer is Kamailio's, as without ovc" \
	"${rb_plain:-0} > 0 && ${rb_none:-0} == ${rb_plain:-0}"
check "with none ovc's processes wake at most $NONE_WAKES_MAX times/s" \
	"$wakes <= $NONE_WAKES_MAX"
finish
