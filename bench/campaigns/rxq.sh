#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/rxq.sh [R...]: the receive-queue campaign (issue 9) on the
# CPU-capped proxy of the integration tests (loopback, cgroup quota 20 ms /
# 100 ms, capacity rho_M ~350 calls/s, bench/RESULTS.md "Capacity of the
# capped proxy"). For each offered load R (calls/s; default 700 1400 2800 =
# 2x, 4x, 8x rho_M) and each variant (VARIANTS, default all below) one
# SECS-second run of the 503-aware SIPp UAC; the steady window is
# [WIN_FROM, SECS] s. Per run, one CSV row in $OUT/runs.csv:
#   timely_cps     calls/s set up within T1 (INVITE->200 < 500 ms)
#   completed_cps  calls/s completed at the UAS (ACK to the 200 received)
#   retrans        INVITE retransmissions sent by the UAC over the run
#   setup_mean_ms, setup_p95_ms  INVITE->200 of the calls that got a 200
#                  (SIPp -trace_rtt, window only)
#   rejected       503s received by the UAC; age_rejects, rx_drops from
#                  ovc.csv (0 for the plain proxy)
# Variants: a base, plain (no ovc loaded), none (ovc counting only) or occ
# (the best algorithm of the foundation campaign), plus any of
#   +age      rxq.max_age_ms=$AGE (age-aware rejection)
#   +guard    rxq.guard_ms=$GUARD (early-overload guard on f)
#   +rcvN     rcvbuf_udp=N messages (Kamailio's own size: 409 messages)
# e.g. occ+age+guard+rcv2000.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
for r in "$@"; do bench_int R "$r"; done
bench_int SECS "${SECS:-20}"
bench_int WIN_FROM "${WIN_FROM:-8}"
bench_int AGE "${AGE:-100}"
bench_int GUARD "${GUARD:-50}"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(700 1400 2800)
SECS=${SECS:-20}
WIN_FROM=${WIN_FROM:-8}
AGE=${AGE:-100}
GUARD=${GUARD:-50}
OUT=${OUT:-$here/bench/results/rxq}
VARIANTS=${VARIANTS:-"plain none none+rcv64 none+rcv2000 none+age none+age+rcv2000 occ occ+guard occ+age+guard occ+age+guard+rcv64 occ+age+guard+rcv2000"}
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] || echo "offered_cps,variant,timely_cps,completed_cps,retrans,setup_mean_ms,setup_p95_ms,rejected,age_rejects,rx_drops,date" >"$OUT/runs.csv"

cg=$(cg_make 20000 100000)

# defines VARIANT: kam_start defines of a variant, one per line
defines() {
	local v=$1 n=1
	case "$v" in
	plain) echo NO_OVC; return ;;
	none*) echo 'OVC_ALGORITHM="none"' ;;
	occ*) echo 'OVC_ALGORITHM="occ"' ;;
	esac
	case "$v" in *+rcv*) echo "OVC_RCVBUF_UDP=$(sed 's/.*+rcv\([0-9]*\).*/\1/' <<<"$v")" ;; esac
	case "$v" in *age*) echo "OVC_PARAM$n=\"rxq.max_age_ms=$AGE\""; n=$((n + 1)) ;; esac
	case "$v" in *guard*) echo "OVC_PARAM$n=\"rxq.guard_ms=$GUARD\"" ;; esac
}

for r in "${rates[@]}"; do
	for v in $VARIANTS; do
		name="r${r}_${v//+/_}"
		mapfile -t defs < <(defines "$v")
		kam_start -c "$cg" -n "$name" "${defs[@]}" || { log "$name: no start"; continue; }
		uas_start "${name}_uas"
		UAC_TIMEOUT=$((SECS + 2)) uac_run "${name}_uac" "$r" $((r * SECS)) \
			-trace_rtt -rtt_freq 50
		csv="$T_DIR/$name.ovc.csv"
		if [ "$v" != plain ]; then
			sleep 2.2
			rpc ovc.csv >"$csv" 2>/dev/null
		fi
		uas_stop
		kam_stop
		timely=$(timely_rate "${name}_uac" "$WIN_FROM" "$SECS")
		done_=$(completed_rate "${name}_uas" "$WIN_FROM" "$SECS")
		retr=$(counts_col "${name}_uac" 0_INVITE_Retrans)
		rej=$(counts_col "${name}_uac" 3_503_Recv)
		read -r smean sp95 <<<"$(setup_stats "${name}_uac")"
		ages=0
		drops=0
		if [ -s "$csv" ]; then
			ages=$(csv_sum "$csv" age_rejects)
			drops=$(csv_sum "$csv" rx_drops)
		fi
		row="$r,$v,$timely,$done_,$retr,$smean,$sp95,$rej,$ages,$drops,$(date -u +%FT%TZ)"
		echo "$row" >>"$OUT/runs.csv"
		log "$row"
		[ "${T_KEEP:-0}" = 1 ] || rm -rf "${T_DIR:?}/${name}"_ua[cs]
		sleep 1
	done
done
"$here/bench/tools/results.sh" record "$OUT" \
	"receive-queue features (age limit, guard, buffer) at overload" \
	"bench/campaigns/rxq.sh"
