#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# loopback-capacity.sh [RATE...]: capacity of the proxy the integration
# tests use (configs/ovc-proxy.cfg, no control, children=1, CPU capped at
# QUOTA_US/100000 us, default 20 %), on loopback. For each offered rate
# (calls/s, SECS seconds each) prints completed and timely calls/s; the
# capacity is the highest rate whose calls all complete with at least 95 %
# set up within 500 ms.
. "$(dirname "$0")/../tests/integration/lib.sh"

QUOTA_US=${QUOTA_US:-20000}
SECS=${SECS:-10}
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(200 250 300 350 400 450 500)

cg=$(cg_make "$QUOTA_US" 100000)
cap=0
printf '%8s %10s %10s %8s\n' offered completed timely failed
for r in "${rates[@]}"; do
	kam_start -c "$cg" -n "k$r" NO_OVC
	uas_start "uas$r"
	UAC_TIMEOUT=$((SECS + 40)) uac_run "uac$r" "$r" $((r * SECS))
	uas_stop
	kam_stop
	calls=$((r * SECS))
	done_=$(counts_col "uas$r" 2_ACK_Recv)
	timely=$(timely_window "uac$r" 0 100000)
	failed=$(stat_col "uac$r" 'FailedCall(C)')
	printf '%8s %10.1f %10.1f %8s\n' "$r" \
		"$(awk "BEGIN { print $done_ / $SECS }")" \
		"$(awk "BEGIN { print $timely / $SECS }")" "$failed"
	if awk "BEGIN { exit !($done_ == $calls && $failed == 0 && $timely >= 0.95 * $calls) }"; then
		cap=$r
	fi
done
echo "capacity (all complete, >= 95 % within 500 ms): $cap calls/s"
finish
