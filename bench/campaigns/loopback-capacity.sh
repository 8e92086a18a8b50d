#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/loopback-capacity.sh [RATE...]: capacity of the proxy the
# integration tests use (configs/ovc-proxy.cfg, no control, children=1, CPU
# capped at QUOTA_US/100000 us, default 20 %), on loopback. For each offered
# rate (calls/s, SECS seconds each) prints completed and timely calls/s; the
# capacity is the highest rate whose calls all complete with at least 95 % set
# up within 500 ms.
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
for r in "$@"; do bench_int RATE "$r"; done
bench_int QUOTA_US "${QUOTA_US:-20000}"
bench_int SECS "${SECS:-10}"
bench_args_checked
. "$(dirname "$0")/../../tests/integration/lib.sh"

QUOTA_US=${QUOTA_US:-20000}
SECS=${SECS:-10}
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(200 250 300 350 400 450 500)

cg=$(cg_make "$QUOTA_US" 100000)
cap=0
printf '%8s %10s %10s %8s\n' offered completed timely failed
for r in "${rates[@]}"; do
	plain_run "$cg" "k$r" "$r" "$SECS" || continue
	calls=$((r * SECS))
	printf '%8s %10.1f %10.1f %8s\n' "$r" \
		"$(awk "BEGIN { print $PLAIN_DONE / $SECS }")" \
		"$(awk "BEGIN { print $PLAIN_TIMELY / $SECS }")" "$PLAIN_FAILED"
	if awk "BEGIN { exit !($PLAIN_DONE == $calls && $PLAIN_FAILED == 0 && $PLAIN_TIMELY >= 0.95 * $calls) }"; then
		cap=$r
	fi
done
echo "capacity (all complete, >= 95 % within 500 ms): $cap calls/s"
finish
