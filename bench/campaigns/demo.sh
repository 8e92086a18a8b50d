#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/demo.sh - `make demo`: the story of ovc in under three minutes.
#
# Brings the testbed up (unless it already is), calibrates the capped
# proxy (short), offers a constant 3x overload first without control
# (none), then with ovc and its defaults (nothing set; BENCH_DEMO_ALG
# picks another algorithm), then with the same algorithm and the
# receive-queue features switched off (no age limit, no guard, no onset
# test, Kamailio's buffer: the papers' controller alone, to show why they
# are on by default), prints the comparison
# (completed calls/s and timely calls/s, i.e. INVITE->200 under 500 ms)
# and where the plots are, and takes the testbed down again if it brought
# it up.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_num BENCH_DEMO_R "${BENCH_DEMO_R:-3}"
bench_int BENCH_DEMO_S "${BENCH_DEMO_S:-20}"
bench_args_checked
here=$(dirname "$0")/..
. "$here/testbed/lib.sh"

alg=${BENCH_DEMO_ALG:-occ} # the module's default algorithm
r=${BENCH_DEMO_R:-3}
dur=${BENCH_DEMO_S:-20}
# the demo keeps its own calibration: it must not replace the campaign's
export BENCH_OUT="$BENCH_OUT/demo"
out=$BENCH_OUT

make -C "$BENCH_TOP" -s bench-tools # stale tools rebuilt too
[ -f "$BENCH_TOP/modules/ovc/ovc.so" ] ||
	die "modules/ovc/ovc.so missing: run 'make' first"
brought_up=no
if ! bench_is_up; then
	"$here/testbed/testbed.sh" up
	brought_up=yes
fi
finish() {
	[ "$brought_up" = yes ] && "$here/testbed/testbed.sh" down
	return 0
}
trap finish EXIT

t0=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
say "demo 1/4: calibrating the capped proxy (about a minute)"
"$here/runners/calibrate.sh" --quick >"$out/calibration.txt" 2>&1 ||
	die "calibration failed: $out/calibration.txt"
. "$BENCH_OUT/calibration.env"
say "  rho_M = $RHO_M calls/s, beta = $BETA"
say "demo 2/4: ${r}x rho_M ($(awk -v a="$RHO_M" -v r="$r" 'BEGIN { print a * r }') calls/s) for $dur s, no control"
"$here/runners/run.sh" -a none -p constant -r "$r" -d "$dur" -w 3 -o "$out/none" \
	>"$out/none.txt" 2>"$out/none.log" || die "run failed: $out/none.log"
say "demo 3/4: the same load with ovc, defaults ($alg)"
"$here/runners/run.sh" -a "$alg" -p constant -r "$r" -d "$dur" -w 3 -o "$out/$alg" \
	>"$out/$alg.txt" 2>"$out/$alg.log" || die "run failed: $out/$alg.log"
rec=$alg-norxq
say "demo 4/4: the same load with ovc ($alg) and its receive-queue features off"
BENCH_RCVBUF_UDP=0 "$here/runners/run.sh" -a "$alg" -p constant -r "$r" -d "$dur" \
	-w 3 -P rxq.max_age_ms=0 -P rxq.guard_ms=0 -P rxq.onset_ms=0 \
	-o "$out/$rec" >"$out/$rec.txt" 2>"$out/$rec.log" ||
	die "run failed: $out/$rec.log"
"$here/plots/plot-compare.sh" "$out/compare.png" "$out/none" "$out/$alg=$alg-defaults" \
	"$out/$rec=$rec" >/dev/null

read -r gn tn on < <("$BENCH_BIN/ovc-jget" "$out/none/summary.json" \
	goodput_cps timely_cps offered_cps)
read -r go to oo < <("$BENCH_BIN/ovc-jget" "$out/$alg/summary.json" \
	goodput_cps timely_cps offered_cps)
read -r gr tr or < <("$BENCH_BIN/ovc-jget" "$out/$rec/summary.json" \
	goodput_cps timely_cps offered_cps)
{
	echo
	echo "ovc demo: proxy capped at $((BENCH_CPU_QUOTA_US * 100 / BENCH_CPU_PERIOD_US)) % of a core, rho_M = $RHO_M calls/s, constant ${r}x overload"
	echo
	printf '  %-10s %14s %20s %26s\n' control "offered/s" "completed calls/s" "timely calls/s (<500 ms)"
	printf '  %-10s %14s %20s %26s\n' none "$on" "$gn" "$tn"
	printf '  %-10s %14s %20s %26s\n' "$alg" "$oo" "$go" "$to"
	printf '  %-10s %14s %20s %26s\n' "$rec" "$or" "$gr" "$tr"
	echo
	echo "  $alg = ovc with its defaults; $rec = $alg with rxq.max_age_ms=0, rxq.guard_ms=0,"
	echo "  rxq.onset_ms=0, rcvbuf_udp 0 (the controller of the paper alone)"
	awk -v gn="$gn" -v tn="$tn" -v go="$go" -v to="$to" -v gr="$gr" \
		-v tr="$tr" -v a="$alg" -v b="$rec" 'BEGIN {
		printf "  with %s: %.2fx the completed calls, %.2fx the timely calls of no control\n",
			a, (gn > 0 ? go / gn : 0), (tn > 0 ? to / tn : 0)
		printf "  with %s: %.2fx the completed calls, %.2fx the timely calls of no control\n",
			b, (gn > 0 ? gr / gn : 0), (tn > 0 ? tr / tn : 0) }'
	echo
	"$here/reports/summary-line.sh" --header "$out/none/summary.json" \
		"$out/$alg/summary.json" "$out/$rec/summary.json" | sed 's/^/  /'
	echo
	echo "  plots:   $out/compare.png"
	echo "           $out/none/plot.png"
	echo "           $out/$alg/plot.png"
	echo "           $out/$rec/plot.png"
	echo "  data:    $out/*/merged.csv, $out/*/summary.json"
	echo "  elapsed: $(($(date +%s) - t0)) s"
} | tee "$out/comparison.txt"
