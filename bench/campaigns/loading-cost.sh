#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/loading-cost.sh: what loading ovc costs a proxy below capacity
# (issue 15). The integration tests' proxy in a cgroup capped at 20 ms /
# 100 ms on loopback, RATE calls/s (default 200, about 0.6 of its
# capacity) for SECS seconds; the CPU the cgroup used over the run
# (cg_usage_ns: v1 cpuacct.usage or v2 cpu.stat; every process of
# Kamailio, ovc's ticker and workers included) per call, in
# microseconds. Arms (ARMS, default "plain none occ"), interleaved over
# RUNS rounds so that slow drifts of the machine hit all alike: plain
# (no ovc loaded), and ovc with its defaults under an algorithm; an arm
# ALG:NAME=VALUE[:NAME=VALUE...] adds defines of configs/ovc-proxy.cfg
# (e.g. none:OVC_KSTAGE=0, the kernel stage off). Rows in $OUT/runs.csv; per arm, the median
# and its ratio to plain's median are printed.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_int RATE "${RATE:-200}"
bench_int SECS "${SECS:-15}"
bench_int RUNS "${RUNS:-3}"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

RATE=${RATE:-200}
SECS=${SECS:-15}
RUNS=${RUNS:-3}
ARMS=${ARMS:-"plain none occ"}
OUT=${OUT:-$here/bench/results/loading-cost}
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] || echo "arm,rate,calls,completed,us_per_call,date" >"$OUT/runs.csv"
cg=$(cg_make 20000 100000)
cp "$MOD" "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"
usage() { cg_usage_ns "$cg"; }

for k in $(seq 1 "$RUNS"); do
	for a in $ARMS; do
		name="$(echo "$a" | tr ':=' '__')_$k"
		IFS=: read -ra defs <<<"$a"
		if [ "$a" = plain ]; then
			kam_start -c "$cg" -n "$name" NO_OVC || continue
		else
			kam_start -c "$cg" -n "$name" "OVC_ALGORITHM=\"${defs[0]}\"" \
				"${defs[@]:1}" || continue
		fi
		uas_start "${name}_uas"
		sleep 1
		u0=$(usage)
		UAC_TIMEOUT=$((SECS + 20)) uac_run "${name}_uac" "$RATE" $((RATE * SECS))
		sleep 1 # the last BYEs
		u1=$(usage)
		uas_stop
		kam_stop
		done_=$(counts_col "${name}_uas" 2_ACK_Recv)
		us=$(awk "BEGIN { printf \"%.1f\", ($u1 - $u0) / 1000 / ($RATE * $SECS) }")
		echo "$a,$RATE,$((RATE * SECS)),$done_,$us,$(date -u +%FT%TZ)" >>"$OUT/runs.csv"
		log "$a run $k: $us us of CPU per call ($done_ of $((RATE * SECS)) completed)"
		sleep 1
	done
done
# per arm: the median and its ratio to plain's (portable awk: no asort)
awk -F, 'NR > 1 { n[$1]++; v[$1, n[$1]] = $5 }
	END {
		for(a in n) {
			for(i = 2; i <= n[a]; i++)	# insertion sort
				for(j = i; j > 1 && v[a, j - 1] > v[a, j]; j--) {
					x = v[a, j]; v[a, j] = v[a, j - 1]; v[a, j - 1] = x
				}
			k = n[a]
			med[a] = k % 2 ? v[a, (k + 1) / 2] \
						   : (v[a, k / 2] + v[a, k / 2 + 1]) / 2
		}
		for(a in med)
			printf "%-16s median %7.1f us/call  x plain %.3f\n", a, med[a],
				("plain" in med && med["plain"] > 0) ? med[a] / med["plain"] : 0
	}' "$OUT/runs.csv" | sort
"$here/bench/tools/results.sh" record "$OUT" \
	"what loading ovc costs a proxy below capacity (CPU per call)" \
	"bench/campaigns/loading-cost.sh"
