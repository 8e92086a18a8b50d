#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Below capacity ovc's defaults refuse nothing: the CPU-capped proxy
# (cgroup quota 20 ms / 100 ms) offered 0.9x its capacity, every algorithm
# with only `algorithm` set: at most 1 % of the calls refused (503/500)
# and at least 97 % set up within 500 ms, and ovc's CSV shows no overload
# for more than two seconds (bench/RESULTS.md, "Defaults").
#
# The capacity is measured here, not assumed: the same proxy deciding
# nothing (`none`) is offered a probe rate for 12 s (PROBE_SECS; each arm
# runs 8, SECS: the probe's rate held longer than the arms need it);
# while it is late at that rate (lib.sh, probe_late: more than 2 % of the
# calls set up in 200 ms or more, PROBE_MS, under the backlog at which ovc
# starts an overload, or late calls in 3 seconds in a row) the probe is
# over capacity and the next one is 8 % lower (at most PROBES, 9: down to
# 0.51x the first); a rate counts as handled when it passes twice in a row
# (lib.sh, PROBE_CONFIRM). The test rate is 0.9x the first probe it
# handled, so at most 0.9x the capacity. An arm that fails is run once
# more only when the same proxy deciding nothing, offered the test rate
# right after it, is late too (plain_late). (The per-call CPU that load_scale
# measures at a low rate overstates how much faster a fast machine is near
# its capacity: on 2026-11-26 the same machine carried 468/s in one hour
# and not 395/s the next, with the build of either day.)
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-20000}
SECS=${SECS:-8}
ALGS=${ALGS:-"occ occupancy aro sired bbc pi rsoca"}
PROBE_SECS=${PROBE_SECS:-12}
PROBES=${PROBES:-9}

# run_arm ALG RATE SECS [DEFINE...]: kamailio (ovc, ALG) in $cg offered
# RATE calls/s for SECS; its CSV in $T_DIR/ALG.csv, SIPp in ALG_uac.
run_arm() {
	local a=$1 rate=$2 secs=$3
	shift 3
	kam_start -c "$cg" -n "$a" "OVC_ALGORITHM=\"${a%%_*}\"" "$@" ||
		{ fail "$a: no start"; return 1; }
	uas_start "${a}_uas"
	UAC_TIMEOUT=$((secs + 10)) uac_run "${a}_uac" "$rate" $((rate * secs))
	sleep 2.5
	rpc ovc.csv >"$T_DIR/$a.csv"
	uas_stop
	kam_stop
}

cg=$(cg_make "$QUOTA_US" 100000)
if [ -z "${RATE:-}" ]; then
	probe_capacity "$cg" "$PROBE_SECS" "$PROBES" || finish
	RATE=$(awk -v p="$PROBED_CAP" 'BEGIN { printf "%d\n", 0.9 * p }')
fi
# verdict ALG: the arm's figures (calls, refused, timely, ovl); returns 0
# when all three targets hold
verdict() {
	local a=$1
	calls=$((RATE * SECS))
	refused=$(($(counts_col "${a}_uac" 3_503_Recv) + $(counts_col "${a}_uac" 4_500_Recv)))
	timely=$(timely_window "${a}_uac" 0 100000)
	ovl=$(csv_sum "$T_DIR/$a.csv" overload)
	awk -v r="$refused" -v t="$timely" -v o="$ovl" -v c="$calls" \
		'BEGIN { exit !(r <= 0.01 * c && t >= 0.97 * c && o <= 2) }'
}

# plain_late NAME: the same proxy deciding nothing (none), offered RATE
# for SECS right after a failed arm, is late too (probe_late): the rate
# is not below the capacity of the machine as it is now (its speed drifts
# by 10 % within an hour; on 2026-11-27 every arm ran its quota full at
# 270/s, 0.9x of the 301/s probed minutes before, and sired's receive
# queue waited 442 ms). Returns 1 when it is on time (or did not start):
# the arm's failure stands.
plain_late() {
	local rc=0
	plain_on_time "$cg" "$1" "$RATE" "$SECS" || rc=$?
	[ "$rc" -ne 2 ] || return 1
	log "reference: no control at $RATE/s set $PROBE_LATE of" \
		"$((RATE * SECS)) up late ($PROBE_WHY)"
	[ "$rc" -eq 1 ]
}

log "test rate $RATE calls/s"
for a in $ALGS; do
	run_arm "$a" "$RATE" "$SECS" || continue
	if ! verdict "$a" && plain_late "${a}_ref"; then
		# the arm runs once more; a second failure stands
		log "$a at $RATE/s: refused $refused of $calls, timely $timely," \
			"overload rows $ovl, where no control was late too: once more"
		for f in "${a}_uac" "${a}_uas" "$a.csv" "$a.log"; do
			[ ! -e "$T_DIR/$f" ] || mv "$T_DIR/$f" "$T_DIR/$f.first"
		done
		run_arm "$a" "$RATE" "$SECS" || continue
		verdict "$a" || true
	fi
	log "$a at $RATE/s: refused $refused of $calls, timely $timely, overload rows $ovl"
	check "$a refuses at most 1 % below capacity" "$refused <= 0.01 * $calls"
	check "$a sets up at least 97 % within 500 ms below capacity" \
		"$timely >= 0.97 * $calls"
	check "$a shows overload in at most 2 s below capacity" "$ovl <= 2"
	if bal=$(csv_check "$T_DIR/$a.csv"); then ok "$a csv balance $bal"; else fail "$a csv balance $bal"; fi
	sleep 1
done
finish
