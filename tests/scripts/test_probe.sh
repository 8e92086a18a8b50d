#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The capacity probe's search (tests/integration/lib.sh, probe_capacity)
# on a made-up proxy: kamailio, SIPp and the clock replaced by functions,
# a probe passing or failing as a script of verdicts says. Going up one
# pass per rate takes the next step; only the rate it settles on is run
# again (PROBE_CONFIRM + 1 passes in a row); a failed confirmation falls
# back to the rate passed before it, and with none left the probe goes
# down; no rate passing fails the test that probes.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
# shellcheck source=../integration/lib.sh
. "$top/tests/integration/lib.sh"
trap 'rm -rf "$F" "$T_DIR"' EXIT

load_scale() { LOAD_SCALE=1; }
kam_start() { :; }
kam_stop() { :; }
uas_start() { :; }
uas_stop() { :; }
sleep() { :; }
probe_run() { return 0; }
# the next verdict of $VERDICTS (p: passes, f: late), or over capacity
# (rate above $CAP) when the script is spent; each rate tried is logged
probe_late() {
	RATES+=("$2")
	PROBE_LATE=0 PROBE_WHY=fake PROBE_AT=1
	local v=${VERDICTS:0:1}
	VERDICTS=${VERDICTS:1}
	[ -n "$v" ] || { [ "$2" -gt "$CAP" ] && v=f || v=p; }
	[ "$v" = f ]
}
# search START CAP VERDICTS [CONFIRM]: runs probe_capacity, prints the
# capacity found (or "none") and the rates tried
search() {
	RATES=()
	CAP=$2 VERDICTS=$3
	if PROBE_START=$1 PROBE_CONFIRM=${4:-1} probe_capacity cg 4 5 \
		>/dev/null; then
		echo "$PROBED_CAP: ${RATES[*]}"
	else
		echo "none: ${RATES[*]}"
	fi
}

is "up from below: one pass a step, the last passed rate confirmed" \
	"$(search 103 160 '')" "155: 103 118 135 155 178 155"
is "down from above: the first rate that passes twice" \
	"$(search 350 300 '')" "296: 350 322 296 296"
is "a confirmation that fails falls back to the rate passed before it" \
	"$(search 103 160 ppppff)" "135: 103 118 135 155 178 155 135"
is "no rate passed on the way up holds: down from the lowest" \
	"$(search 103 100 pff)" "94: 103 118 103 94 94"
is "PROBE_CONFIRM 0: the last passed rate, not run again" \
	"$(search 103 160 '' 0)" "155: 103 118 135 155 178"
is "at most TRIES steps up, the last one confirmed" \
	"$(search 100 100000 '')" "197: 100 114 131 150 172 197 197"
is "no rate passes: no capacity" \
	"$(search 350 0 '')" "none: 350 322 296 272 250"
t_done
