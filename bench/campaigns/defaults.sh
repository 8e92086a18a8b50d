#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/defaults.sh: what an operator gets from `loadmodule` +
# `ovc_admit()` and nothing else (issue 15). The integration tests' proxy
# (configs/ovc-proxy.cfg: stateful, record-route, one UDP worker) in a
# cgroup capped at QUOTA_US per 100 ms on loopback; its capacity rho_M is
# calibrated in the same campaign (no control: the highest rate, going up
# CAL_RATES and past its end while they pass, whose calls, offered for SECS
# seconds, all complete with >= 97 % set up within 500 ms), unless CAP is
# given. Then, for every offered multiple
# of rho_M in MULTS and every arm in ARMS, one SECS-second run of the
# 503-aware SIPp UAC (-d 0,
# retransmissions at T1 = 500 ms doubling); figures over the steady window
# [WIN_FROM, SECS] s. Arms: `plain` (no ovc loaded), `taildrop`
# (Kamailio's ratelimit, TAILDROP at rho_M INVITEs/s), any ovc algorithm
# with the module's defaults (only `algorithm` set), and ALG+EXTRA arms
# from EXTRA_ARMS as NAME=DEFINE;DEFINE (tuned variants, labelled).
# One row per run in $OUT/runs.csv:
#   mult, offered_cps, arm, cap_cps, timely_cps (INVITE->200 < 500 ms),
#   completed_cps (ACKs to the 200 at the UAS), g_timely, g_completed (both
#   / rho_M), refused_pct (503/500 received / calls offered, whole run),
#   retrans_per_call (INVITE retransmissions / calls offered), setup_mean_ms,
#   setup_p95_ms (INVITE->200 of the calls answered 200 in the window),
#   cpu (cgroup CPU / quota over the window), age_rejects, overload_s
#   (seconds ovc.csv shows overload evident), sipp_cpu (cores).
# Every run is bounded (SIPp call count and timeout) and holds the machine
# -wide load lock.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_int SECS "${SECS:-20}"
bench_int WIN_FROM "${WIN_FROM:-8}"
bench_nums MULTS "${MULTS:-0.5}"
bench_int QUOTA_US "${QUOTA_US:-20000}"
[ -z "${CAP:-}" ] || bench_num CAP "$CAP"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

QUOTA_US=${QUOTA_US:-20000}
SECS=${SECS:-20}
WIN_FROM=${WIN_FROM:-8}
MULTS=${MULTS:-"0.5 0.9 1 1.5 2 4 8 16"}
ARMS=${ARMS:-"plain taildrop none occ occupancy aro sired bbc pi rsoca"}
CAL_RATES=${CAL_RATES:-"275 300 325 350 375 400 425"}
OUT=${OUT:-$here/bench/results/defaults}
RL_CFG="$here/configs/ratelimit-proxy.cfg"
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] || echo "mult,offered_cps,arm,cap_cps,timely_cps,completed_cps,g_timely,g_completed,refused_pct,retrans_per_call,setup_mean_ms,setup_p95_ms,cpu,age_rejects,overload_s,sipp_cpu,ovc_digest,date" >"$OUT/runs.csv"

cg=$(cg_make "$QUOTA_US" 100000)
usage() { cg_usage_ns "$cg"; }
# the module as it is now: a rebuild during the campaign does not change it
cp "$MOD" "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"
digest=$(sha256sum "$MOD" | cut -c1-12)

# cal_pass R: one calibration run of the plain proxy at R calls/s; true
# when every call completed, none failed and >= 97 % were set up within
# 500 ms. Runs as long as the campaign's: a rate slightly above capacity
# needs many seconds to fill the buffers and collapse.
cal_pass() {
	local r=$1 calls=$(($1 * SECS))
	plain_run "$cg" "cal$r" "$r" "$SECS" || return 1
	log "calibrate $r/s: completed $PLAIN_DONE timely $PLAIN_TIMELY failed $PLAIN_FAILED of $calls"
	echo "$r,$PLAIN_DONE,$PLAIN_TIMELY,$PLAIN_FAILED,$(date -u +%FT%TZ)" >>"$OUT/calibration.csv"
	awk "BEGIN { exit !($PLAIN_DONE == $calls && $PLAIN_FAILED == 0 && $PLAIN_TIMELY >= 0.97 * $calls) }"
}

# calibrate: rho_M of the plain proxy (sets CAP), the highest rate that
# passes (cal_pass) going up CAL_RATES; when the last of them passes too
# (a faster machine, another memory manager), on upwards by the list's
# last step until a rate fails, at most CAL_MORE rates more, so that the
# capacity is measured, never the top of a list taken for it.
calibrate() {
	local r prev=0 step=25 more=${CAL_MORE:-12}
	CAP=0
	for r in $CAL_RATES; do
		[ "$prev" -eq 0 ] || step=$((r - prev))
		prev=$r
		cal_pass "$r" || { log "rho_M = $CAP calls/s"; return; }
		CAP=$r
		sleep 1
	done
	[ "$step" -gt 0 ] || step=25
	r=$CAP
	while [ "$more" -gt 0 ]; do
		r=$((r + step))
		more=$((more - 1))
		cal_pass "$r" || break
		CAP=$r
		sleep 1
	done
	[ "$more" -gt 0 ] || log "every rate passed up to $CAP/s (CAL_MORE): rho_M is at least that"
	log "rho_M = $CAP calls/s"
}

# defines ARM: kam_start defines, one per line (empty line: none)
defines() {
	local a=$1 e
	for e in ${EXTRA_ARMS:-}; do
		[ "${e%%=*}" = "$a" ] || continue
		tr ';' '\n' <<<"${e#*=}"
		return
	done
	case "$a" in
	plain) echo NO_OVC ;;
	taildrop) echo "RL_PIPE=\"0:TAILDROP:$CAP\"" ;;
	*) echo "OVC_ALGORITHM=\"$a\"" ;;
	esac
}

# run_arm MULT ARM: one run at MULT x rho_M; appends its row. sipp_cpu is
# the CPU time of the running SIPps (UAC and UAS) by the end of the
# window over SECS, in cores.
run_arm() {
	local mult=$1 a=$2 r calls name u0 u1 csv win timely done_ rej retr
	local smean sp95 ages ovl cpu defs cfg_save uacpu
	r=$(awk "BEGIN { printf \"%d\", $mult * $CAP + 0.5 }")
	calls=$((r * SECS))
	name="x${mult}_${a}"
	mapfile -t defs < <(defines "$a")
	cfg_save=$CFG
	[ "$a" = taildrop ] && CFG=$RL_CFG
	kam_start -c "$cg" -n "$name" "${defs[@]}" || { CFG=$cfg_save; log "$name: no start"; return; }
	CFG=$cfg_save
	uas_start "${name}_uas"
	UAC_TIMEOUT=$((SECS + 3)) uac_run "${name}_uac" "$r" "$calls" \
		-trace_rtt -rtt_freq 50 &
	local uac=$!
	sleep "$WIN_FROM"
	u0=$(usage)
	sleep $((SECS - WIN_FROM))
	u1=$(usage)
	uacpu=$(ps -o cputime= -C sipp 2>/dev/null | awk -F: '{ s += $1 * 3600 + $2 * 60 + $3 } END { print s + 0 }')
	wait "$uac"
	csv="$T_DIR/$name.ovc.csv"
	if [ "$a" != plain ] && [ "$a" != taildrop ]; then
		sleep 2.2
		rpc ovc.csv >"$csv" 2>/dev/null
	fi
	uas_stop
	kam_stop
	win=$((SECS - WIN_FROM))
	timely=$(timely_rate "${name}_uac" "$WIN_FROM" "$SECS")
	done_=$(completed_rate "${name}_uas" "$WIN_FROM" "$SECS")
	rej=$(($(counts_col "${name}_uac" 3_503_Recv) + $(counts_col "${name}_uac" 4_500_Recv)))
	retr=$(counts_col "${name}_uac" 0_INVITE_Retrans)
	read -r smean sp95 <<<"$(setup_stats "${name}_uac")"
	cpu=$(awk "BEGIN { printf \"%.3f\", ($u1 - $u0) / 1e9 / $win / ($QUOTA_US / 100000) }")
	ages=0
	ovl=0
	if [ -s "$csv" ]; then
		ages=$(csv_sum "$csv" age_rejects)
		ovl=$(csv_sum "$csv" overload)
	fi
	row=$(awk -v m="$mult" -v r="$r" -v a="$a" -v cap="$CAP" -v t="$timely" \
		-v d="$done_" -v rej="$rej" -v calls="$calls" -v retr="$retr" \
		-v sm="$smean" -v sp="$sp95" -v cpu="$cpu" -v ages="$ages" \
		-v ovl="$ovl" -v uc="$uacpu" -v secs="$SECS" -v dg="$digest" -v now="$(date -u +%FT%TZ)" \
		'BEGIN { printf "%s,%d,%s,%d,%.1f,%.1f,%.3f,%.3f,%.2f,%.3f,%s,%s,%s,%d,%d,%.2f,%s,%s\n",
			m, r, a, cap, t, d, t / cap, d / cap, 100 * rej / calls,
			retr / calls, sm, sp, cpu, ages, ovl, uc / secs, dg, now }')
	echo "$row" >>"$OUT/runs.csv"
	log "$row"
	[ "${T_KEEP:-0}" = 1 ] || rm -rf "${T_DIR:?}/${name}"_ua[cs]
	sleep 1
}

if [ -n "${CAP:-}" ]; then
	log "rho_M = $CAP calls/s (given)"
else
	calibrate
fi
[ "$CAP" -gt 0 ] || { log "no capacity found"; exit 1; }
for m in $MULTS; do
	for a in $ARMS; do
		run_arm "$m" "$a"
	done
done
log "rows in $OUT/runs.csv"
"$here/bench/tools/results.sh" record "$OUT" \
	"what loadmodule + ovc_admit() gives: every arm at $MULTS x rho_M" \
	"bench/campaigns/defaults.sh (ARMS='$ARMS' MULTS='$MULTS' SECS=$SECS)"
