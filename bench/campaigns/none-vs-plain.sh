#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/none-vs-plain.sh: does loading ovc with `none` (the
# monitor mode) tip a proxy that the plain proxy carries (issue 41, item
# 5)? The integration tests' proxy in a cgroup capped at 20 ms / 100 ms on
# loopback, SIPp with retransmissions. First the plain proxy's capacity is
# probed (probe_capacity of tests/integration/lib.sh with no ovc loaded:
# the highest rate it sets up within PROBE_MS ms); CAP=N skips the probe.
# Then, at each multiple of it, plain (no ovc) and ovc with `none` run
# alternately (plain first in odd pairs, ovc first in even ones), SECS
# seconds each. Per run, in $OUT/runs.csv: calls/s set up within 500 ms
# (timely), calls/s completed (ACK at the UAS), the CPU the cgroup used
# per completed call (µs), SIPp's retransmissions, the proxy's CPU as a
# share of its quota. Printed: per multiple and arm the median with its
# range, and per pair ovc's timely calls/s over plain's.
#
#   PAIRS       MULT:N ... (default "1.0:2 1.1:5": 2 pairs at 1.0x, 5 at
#               1.1x of the capacity probed)
#   SECS        seconds per run (default 20)
#   CAP         the plain proxy's capacity, calls/s (default: probed)
#   PROBE_SECS  seconds per probe (default 8)
#   NONE_DEFS   extra defines of configs/ovc-proxy.cfg for the ovc arm,
#               e.g. "OVC_KSTAGE=0" (default none)
#   OVC_MOD     the ovc.so to load (default the tree's build)
#   OUT         results folder (default bench/results/none-vs-plain)
#
# The whole campaign holds the machine-wide load lock (about 8 min with
# the defaults).
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
PAIRS=${PAIRS:-"1.0:2 1.1:5"}
for p in $PAIRS; do
	[[ "$p" =~ ^[0-9]+(\.[0-9]+)?:[1-9][0-9]*$ ]] ||
		bench_bad "PAIRS: '$p' is not MULT:N"
done
bench_int SECS "${SECS:-20}"
bench_int PROBE_SECS "${PROBE_SECS:-8}"
[ -z "${CAP:-}" ] || bench_int CAP "$CAP"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

SECS=${SECS:-20}
PROBE_SECS=${PROBE_SECS:-8}
OUT=${OUT:-$here/bench/results/none-vs-plain}
read -ra NONE_DEFS <<<"${NONE_DEFS:-}"
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] || echo "date,arm,mult,rate,secs,pair,timely_cps,completed_cps,us_per_call,retrans,cpu_quota" >"$OUT/runs.csv"
QUOTA_US=20000
cg=$(cg_make "$QUOTA_US" 100000)
cp "$MOD" "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"
t_start=$(date +%s)

cap_arg=${CAP:+CAP=$CAP }
if [ -z "${CAP:-}" ]; then
	PROBE_PLAIN=1 probe_capacity "$cg" "$PROBE_SECS" ||
		{ log "no capacity found"; exit 1; }
	CAP=$PROBED_CAP
fi
log "plain proxy's capacity: $CAP calls/s"

# one ARM (plain | none) run at RATE calls/s; a row of runs.csv
one_run() {
	local arm=$1 mult=$2 rate=$3 pair=$4 name u0 u1 done_ timely re
	name="${arm}_${mult}_$pair"
	if [ "$arm" = plain ]; then
		kam_start -c "$cg" -n "$name" NO_OVC || return 1
	else
		kam_start -c "$cg" -n "$name" 'OVC_ALGORITHM="none"' \
			"${NONE_DEFS[@]}" || return 1
	fi
	uas_start "${name}_uas"
	u0=$(cg_usage_ns "$cg")
	UAC_TIMEOUT=$((SECS + 30)) uac_run "${name}_uac" "$rate" $((rate * SECS))
	sleep 1 # the last BYEs
	u1=$(cg_usage_ns "$cg")
	uas_stop
	kam_stop
	done_=$(counts_col "${name}_uas" 2_ACK_Recv)
	timely=$(timely_window "${name}_uac" 0 100000)
	re=$(stat_col "${name}_uac" 'Retransmissions(C)')
	awk -v d="$(date -u +%FT%TZ)" -v a="$arm" -v m="$mult" -v r="$rate" \
		-v s="$SECS" -v p="$pair" -v t="$timely" -v c="$done_" \
		-v u0="$u0" -v u1="$u1" -v re="$re" -v q="$QUOTA_US" 'BEGIN {
		us = c > 0 ? (u1 - u0) / 1000 / c : 0
		printf "%s,%s,%s,%d,%d,%d,%.1f,%.1f,%.1f,%d,%.3f\n", d, a, m, r, s,
			p, t / s, c / s, us, re, (u1 - u0) / 1e9 / (s + 1) / (q / 100000)
	}' >>"$OUT/runs.csv"
	log "$(tail -n1 "$OUT/runs.csv")"
	sleep 1
}

for p in $PAIRS; do
	mult=${p%%:*}
	n=${p##*:}
	rate=$(awk -v c="$CAP" -v m="$mult" 'BEGIN { printf "%d\n", c * m + 0.5 }')
	for k in $(seq 1 "$n"); do
		if [ $((k % 2)) -eq 1 ]; then
			one_run plain "$mult" "$rate" "$k"
			one_run none "$mult" "$rate" "$k"
		else
			one_run none "$mult" "$rate" "$k"
			one_run plain "$mult" "$rate" "$k"
		fi
	done
done
log "load lock held $(($(date +%s) - t_start)) s"

# this campaign's rows: per multiple and arm the median (range) of timely,
# completed, CPU per call, retransmissions; per pair none/plain timely
tail -n +2 "$OUT/runs.csv" | tail -n "$(awk -v p="$PAIRS" 'BEGIN {
	n = split(p, a, " "); for(i = 1; i <= n; i++) { split(a[i], b, ":")
		s += 2 * b[2] } print s }')" | awk -F, '
	function med(k, n,   i, j, x, v) {
		for(i = 1; i <= n; i++) v[i] = val[k, i]
		for(i = 2; i <= n; i++)
			for(j = i; j > 1 && v[j - 1] > v[j]; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		lo = v[1]; hi = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
	{ g = $3 " " $2; if(!(g in cnt)) order[++ng] = g; cnt[g]++
	  for(f = 7; f <= 10; f++) val[g SUBSEP f, cnt[g]] = $f
	  tm[$3, $6, $2] = $7; pairs[$3, $6] = 1 }
	END {
		split("timely/s completed/s us/call retrans", name, " ")
		for(i = 1; i <= ng; i++) {
			g = order[i]; line = sprintf("%-10s", g)
			for(f = 7; f <= 10; f++) {
				m = med(g SUBSEP f, cnt[g])
				line = line sprintf("  %s %.1f (%.1f-%.1f)", name[f - 6], m, lo, hi)
			}
			print line
		}
		for(k in pairs) { split(k, x, SUBSEP)
			if(tm[x[1], x[2], "plain"] > 0)
				printf "pair %s x%s: none/plain timely %.3f\n", x[2], x[1],
					tm[x[1], x[2], "none"] / tm[x[1], x[2], "plain"] }
	}' | sort
"$here/bench/tools/results.sh" record "$OUT" \
	"ovc with none against the plain proxy at 1.0x and 1.1x of the plain proxy's probed capacity (capacity $CAP calls/s)" \
	"${cap_arg}PAIRS=\"$PAIRS\" SECS=$SECS bench/campaigns/none-vs-plain.sh"
