#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/timely.sh [R...]: completed and timely calls/s (INVITE->200
# under 500 ms) on the capped proxy of the integration tests at each offered
# load R (calls/s; default 2x, 4x and 8x the measured 350 calls/s capacity),
# for no control, ovc rejecting in the script (fast_path 0) and ovc rejecting
# at datagram arrival (fast_path 1). Each row is one run of
# tests/integration/t_overload.sh (SECS seconds, steady window from WIN_FROM);
# prints a Markdown table.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
for r in "$@"; do bench_int R "$r"; done
bench_int SECS "${SECS:-20}"
bench_int WIN_FROM "${WIN_FROM:-10}"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(700 1400 2800)
export SECS=${SECS:-20} WIN_FROM=${WIN_FROM:-10}

echo "| offered/s | variant | completed/s none | completed/s ovc | timely/s none | timely/s ovc | INVITE retransmissions none / ovc |"
echo "|---|---|---|---|---|---|---|"
for r in "${rates[@]}"; do
	for fp in 1 0; do
		out=$(RATE=$r OVC_EXTRA="OVC_FAST_PATH=$fp" \
			"$here/tests/integration/t_overload.sh" 2>&1)
		done_=$(printf '%s\n' "$out" | sed -n 's/.*completed calls\/s in.*: none=\([0-9.]*\) ovc=\([0-9.]*\)/\1 \2/p')
		timely=$(printf '%s\n' "$out" | sed -n 's/.*timely calls\/s.*: none=\([0-9.]*\) ovc=\([0-9.]*\)/\1 \2/p')
		retr=$(printf '%s\n' "$out" | sed -n 's/.*INVITE retransmissions: none=\([0-9]*\) ovc=\([0-9]*\)/\1 \/ \2/p')
		v=$([ "$fp" = 1 ] && echo "ovc at arrival" || echo "ovc in script")
		read -r dn do_ <<<"$done_"
		read -r tn to <<<"$timely"
		echo "| $r | $v | $dn | $do_ | $tn | $to | $retr |"
	done
done
