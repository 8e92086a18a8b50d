#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/smoke.sh - the CI smoke campaign of the testbed (make check-bench).
#
# For each mode (netns, then loopback; BENCH_SMOKE_MODES to choose): bring
# the testbed up, run a few seconds of 2x overload (ovc's default
# algorithm if modules/ovc/ovc.so exists, else none), check that the
# merged CSV, summary.json and a valid PNG were produced, bring the
# testbed down and check that nothing is left. Refuses to run if a
# testbed is already up (it would take it down).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
for m in ${BENCH_SMOKE_MODES:-netns}; do
	bench_oneof BENCH_SMOKE_MODES "$m" netns loopback
done
bench_args_checked
here=$(dirname "$0")/..
. "$here/testbed/lib.sh"

modes=${BENCH_SMOKE_MODES:-netns loopback}
alg=none
[ -f "$BENCH_TOP/modules/ovc/ovc.so" ] && alg=${BENCH_SMOKE_ALG:-occ}
out="$BENCH_OUT/smoke"
fails=0

check() {
	local what=$1
	shift
	if "$@"; then
		echo "smoke:   ok   $what"
	else
		echo "smoke:   FAIL $what"
		fails=$((fails + 1))
	fi
}
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
rows_ge() { [ "$(($(wc -l <"$1") - 1))" -ge "$2" ]; }
json_ok() {
	local v
	v=$("$BENCH_BIN/ovc-jget" "$1" offered_cps goodput_cps) &&
		[[ "$v" != *-* ]] && awk -v a="${v% *}" 'BEGIN { exit !(a > 0) }'
}
testbed_ok() { "$here/testbed/testbed.sh" status >/dev/null; }
# cg_left: a directory of the proxy's cgroup is still there
cg_left() {
	local d
	[ -n "$BENCH_CG" ] || return 1
	for d in $(cg_dirs "$BENCH_CG"); do
		[ ! -d "$d" ] || return 0
	done
	return 1
}
nothing_left() {
	! ip netns list 2>/dev/null | grep -q "^${BENCH_PREFIX}-" &&
		! cg_left && [ ! -d "$BENCH_STATE" ]
}
no_process_left() {
	local p
	for p in $(cat "$1"/*.pid "$1"/kamailio.main 2>/dev/null); do
		kill -0 "$p" 2>/dev/null && return 1
	done
	return 0
}

bench_is_up && die "a testbed is up: smoke would take it down; run 'bench/testbed/testbed.sh down' first"
rm -rf "$out"
mkdir -p "$out"
for m in $modes; do
	echo "smoke: mode $m, algorithm $alg"
	if [ "$m" = loopback ]; then
		"$here/testbed/testbed.sh" up --loopback 2>>"$out/testbed.log"
	else
		"$here/testbed/testbed.sh" up 2>>"$out/testbed.log"
	fi
	check "testbed up ($m)" testbed_ok
	if "$here/runners/run.sh" -a "$alg" -p constant -r 2 -R "${BENCH_SMOKE_RHO:-150}" \
		-d 5 -w 1 -o "$out/$m" >"$out/$m.txt" 2>"$out/$m.log"; then
		check "run completed" true
	else
		check "run completed (see $out/$m.log)" false
	fi
	check "merged CSV has >= 5 rows" rows_ge "$out/$m/merged.csv" 5
	check "summary.json has offered and goodput" json_ok "$out/$m/summary.json"
	check "plot.png is a PNG" is_png "$out/$m/plot.png"
	"$here/testbed/testbed.sh" down 2>>"$out/testbed.log"
	check "testbed down, nothing left" nothing_left
	check "no process of the run left" no_process_left "$out/$m"
	cat "$out/$m.txt" 2>/dev/null | sed 's/^/smoke:   /'
done
if [ "$fails" -gt 0 ]; then
	echo "smoke: $fails check(s) FAILED (logs in $out)"
	exit 1
fi
echo "smoke: all checks passed"
