#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/reject-cost.sh: CPU cost per call of forwarding and of the
# ways to reject an INVITE, on loopback, no CPU cap, children=1 (paper 003
# Fig. 2: beta = cost(forward) / cost(reject)). For each variant SIPp offers
# RATE calls/s for SECS seconds; the CPU of all kamailio processes (schedstat)
# is read over the steady part [2, SECS-1] s and divided by the calls offered
# in it. A rejected call's cost includes absorbing its ACK.
#   forward      configs/ovc-proxy.cfg without ovc: stateful relay
#   sl-script    configs/ratelimit-proxy.cfg REJECT_ALL: sl 503 in script
#   ovc-script   ovc refusing everything, fast_path 0 (own reply in script)
#   ovc-fast     ovc refusing everything, fast_path 1 (at datagram arrival)
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_int RATE "${RATE:-800}"
bench_int SECS "${SECS:-8}"
bench_args_checked
. "$(dirname "$0")/../../tests/integration/lib.sh"

RATE=${RATE:-800}
SECS=${SECS:-8}
FORCE=('OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0"'
	'OVC_PARAM3="occ.epoch_ms=100"' 'OVC_PARAM4="occ.phi_max=1"'
	'OVC_PARAM5="rxq.onset_ms=0"')

busy_ns() {
	local p s=0 v
	for p in "$T_KPID" $(pgrep -P "$T_KPID"); do
		read -r v _ <"/proc/$p/schedstat" && s=$((s + v))
	done
	echo "$s"
}

# measure NAME: offered load with CPU sampled over the steady window
measure() {
	local name=$1 b0 b1
	uas_start "${name}_uas"
	[ "$name" = forward ] || uac_run "${name}_warm" 200 400 # f falls to ~0
	UAC_TIMEOUT=$((SECS + 5)) uac_run "${name}" "$RATE" $((RATE * SECS)) &
	local u=$!
	sleep 2
	b0=$(busy_ns)
	sleep $((SECS - 3))
	b1=$(busy_ns)
	wait "$u"
	uas_stop
	kam_stop
	awk -v n="$name" -v b="$((b1 - b0))" -v c="$((RATE * (SECS - 3)))" \
		'BEGIN { printf "%-11s %8.1f us CPU per call\n", n, b / c / 1000 }' |
		tee -a "$T_DIR/costs.txt"
}

kam_start -n forward NO_OVC
measure forward
CFG_SAVE=$CFG
CFG="$TOP/configs/ratelimit-proxy.cfg"
kam_start -n sl REJECT_ALL
measure sl-script
CFG=$CFG_SAVE
kam_start -n ovcs "${FORCE[@]}" OVC_FAST_PATH=0
measure ovc-script
kam_start -n ovcf "${FORCE[@]}" OVC_FAST_PATH=1
measure ovc-fast
awk 'NR == 1 { f = $2 } NR > 1 { printf "beta(%s) = %.1f\n", $1, f / $2 }' \
	"$T_DIR/costs.txt"
finish
