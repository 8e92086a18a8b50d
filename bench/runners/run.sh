#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runners/run.sh - one run: capped proxy, two UAS, two UAC, one profile.
#
#   run.sh -a ALG [-p constant|instant|gradual] [-r PEAK_R] [-d SECONDS]
#          [-w WARMUP_S] [-R RHO_M] [-n] [-o DIR] [-P name=value]...
#          [-U UAS_SCENARIO] [-F BYE_FLOOD_CPS] [-L LABEL]
#
#   -a  none | ratelimit | taildrop | reject | an ovc algorithm (occ, ...)
#   -r  peak load as a multiple of rho_M (default 3)
#   -R  rho_M in calls/s (default: bench/out/calibration.env, else 400)
#   -n  UACs without retransmissions (-nr, paper 001 §6.7)
#   -P  ovc parameter for this run (up to 8)
#   -L  the arm's name in summary.json's meta.algorithm (default ALG), for
#       an algorithm run with -P parameters beside its defaults
#   -o  run directory (default bench/out/runs/<time>-<alg>-<profile>-r<r>)
#   -U  UAS scenario file in scenarios/ (default uas.xml; uas-180.xml,
#       uas-silent.xml: a receiver that never answers)
#   -F  add a BYE flood (scenarios/bye-flood.xml) of this many BYE/s from
#       uac2's host during the whole load (R-SOCA's in-dialog DoS case)
#
# Leaves in DIR: every SIPp stat/rtt file, kamailio.log, ovc_raw.txt
# (kamcmd ovc.csv), sampler.csv, merged.csv, summary.json, plot.png; and
# prints a one-line summary. The testbed must be up.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
alg=
prof=constant
peak=3
dur=20
warm=5
rho=
retrans=yes
dir=
params=()
uas_scen=uas.xml
flood=0
label=
argv=("$@")
while getopts "a:p:r:d:w:R:no:P:U:F:L:" o; do
	case "$o" in
	a) alg=$OPTARG ;;
	p) prof=$OPTARG ;;
	r) peak=$OPTARG ;;
	d) dur=$OPTARG ;;
	w) warm=$OPTARG ;;
	R) rho=$OPTARG ;;
	n) retrans=no ;;
	o) dir=$OPTARG ;;
	P) params+=("$OPTARG") ;;
	U) uas_scen=$OPTARG ;;
	F) flood=$OPTARG ;;
	L) label=$OPTARG ;;
	*) bench_bad "bad option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bench_bad "unexpected argument '$1'"
[ -n "$alg" ] || bench_bad "-a ALG is required"
[[ "$alg" =~ ^[a-z][a-z0-9_-]*$ ]] || bench_bad "-a: '$alg' is not an algorithm"
bench_oneof -p "$prof" constant instant gradual
bench_num -r "$peak"
[[ "$dur" =~ ^[0-9]+$ && "$dur" -ge 3 && "$dur" -le 600 ]] ||
	bench_bad "-d takes 3..600 seconds, not '$dur'"
[[ "$warm" =~ ^[0-9]+$ && "$warm" -le 60 ]] ||
	bench_bad "-w takes 0..60 seconds, not '$warm'"
[ -z "$rho" ] || bench_num -R "$rho"
bench_num -F "$flood"
[ ${#params[@]} -le 8 ] || bench_bad "-P: at most 8 parameters"
for kv in ${params[@]+"${params[@]}"}; do
	[[ "$kv" == ?*=* ]] || bench_bad "-P: '$kv' is not NAME=VALUE"
done
bench_args_checked

here=$(dirname "$0")/..
. "$here/testbed/lib.sh"
. "$here/testbed/load.sh"
. "$here/testbed/profile.sh"

bench_is_up || die "testbed is not up: bench/testbed/testbed.sh up"
if [ -z "$rho" ]; then
	rho=400
	if [ -f "$BENCH_OUT/calibration.env" ]; then
		rho=$(. "$BENCH_OUT/calibration.env" && echo "$RHO_M")
	fi
fi
mapfile -t rates < <(profile_rates "$prof" "$peak" "$dur" "$warm" "$rho") ||
	die "unknown profile '$prof'"
read -r wfrom wto < <(profile_window "$prof" "$dur" "$warm")
n=${#rates[@]}
tag=$alg-$prof-r$peak
[ "$retrans" = no ] && tag=$tag-nr
[ "$flood" != 0 ] && tag=$tag-flood$flood
[ -f "$BENCH_TOP/scenarios/$uas_scen" ] || die "no scenarios/$uas_scen"
dir=${dir:-$BENCH_OUT/runs/$(date +%Y%m%d-%H%M%S)-$tag}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
printf '%q ' "$0" ${argv[@]+"${argv[@]}"} >"$dir/command"
echo >>"$dir/command"

t_run=$(date +%s.%N)
phase() {
	awk -v a="$t_run" -v b="$(date +%s.%N)" -v m="$*" \
		'BEGIN { printf "%6.1f s  %s\n", b - a, m }' >>"$dir/phases.log"
}

cleanup() {
	local h
	phase cleanup
	touch "$dir/sampler.stop"
	local -a w=()
	for h in uac1 uac2 flood uas1 uas2; do
		sipp_stop "$h" "$dir" 0 &
		w+=($!)
	done
	wait "${w[@]}"
	phase "sipp stopped"
	"$here/testbed/proxy.sh" stop "$dir"
	phase "proxy stopped"
	[ -n "${sampler_pid:-}" ] && bench_stop_pid "$sampler_pid" 3
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

git_rev=$(git -C "$BENCH_TOP" rev-parse --short HEAD 2>/dev/null || echo -)
# the module the proxy loads (a campaign's pinned copy, BENCH_OVC_SO)
so_md5=$(md5sum "${BENCH_OVC_SO:-$BENCH_TOP/modules/ovc/ovc.so}" 2>/dev/null |
	cut -c1-12 || echo -)
[ -n "$so_md5" ] || so_md5=-
say "run $tag: rho_M $rho cps, $n s, window [$wfrom, $wto) s, out $dir"
"$here/testbed/proxy.sh" start "$dir" "$alg" "${params[@]}"
ctl="unix:$BENCH_STATE/proxy.ctl"
ovc_rpc=no
if kamcmd -s "$ctl" ovc.csv 1 >/dev/null 2>&1; then
	ovc_rpc=yes
	kamcmd -s "$ctl" ovc.reset >/dev/null 2>&1 || true
fi

phase "proxy up"
# BENCH_FLOOD_TAIL_S: the flood (and the UACs' and UASs' lifetimes)
# outlast the load by that many seconds, so that BYEs sent at its end meet
# the flood for all their retransmissions (set BENCH_DRAIN_S as long)
tail_s=${BENCH_FLOOD_TAIL_S:-0}
uas_start uas1 "$dir" "$((n + 20 + tail_s))" "$uas_scen"
uas_start uas2 "$dir" "$((n + 20 + tail_s))" "$uas_scen"
sleep 0.5
if [ "${BENCH_REGISTER:-1}" = 1 ]; then
	uas_register uas1 "$dir" &
	r1=$!
	uas_register uas2 "$dir" &
	r2=$!
	wait "$r1" && wait "$r2" || say "registration failed (see $dir/reg_*.log)"
fi

phase registered
half() { echo $(((${1} + 1) / 2)) $((${1} / 2 > 0 ? ${1} / 2 : 1)); }
read -r ra rb < <(half "${rates[0]}")
t_start=$(date +%s)
uac_start uac1 "$dir" "$((n + 6 + tail_s))" uas1 "$ra" "$retrans"
uac_start uac2 "$dir" "$((n + 6 + tail_s))" uas2 "$rb" "$retrans"
[ "$flood" != 0 ] && flood_start "$dir" "$((n + tail_s))" "$flood"
"$here/testbed/sampler.sh" "$dir" "$((n + 10))" &
sampler_pid=$!
bench_track_pid "$sampler_pid" sampler.sh

prev=${rates[0]}
for ((i = 1; i < n; i++)); do
	# sleep to the second boundary i after the start
	now=$(date +%s.%N)
	sleep "$(awk -v a="$t_start" -v i="$i" -v b="$now" \
		'BEGIN { d = a + i - b; print (d > 0 ? d : 0) }')"
	if [ "${rates[$i]}" != "$prev" ]; then
		read -r ra rb < <(half "${rates[$i]}")
		sipp_rate uac1 "$ra"
		sipp_rate uac2 "$rb"
		prev=${rates[$i]}
	fi
	if [ "$ovc_rpc" = yes ] && [ $((i % 20)) = 0 ]; then
		timeout 3 kamcmd -s "$ctl" ovc.csv 30 >>"$dir/ovc_raw.txt" 2>&1 || true
	fi
done
sleep 1
t_end=$(date +%s)
phase "load done"
# stop new calls; let calls in progress finish (bounded)
drain=${BENCH_DRAIN_S:-4}
sipp_stop uac1 "$dir" "$drain" &
s1=$!
sipp_stop uac2 "$dir" "$drain" &
s2=$!
wait "$s1" "$s2"
phase drained
if [ "$ovc_rpc" = yes ]; then
	timeout 3 kamcmd -s "$ctl" ovc.csv "$((n + 20))" >>"$dir/ovc_raw.txt" 2>&1 || true
	timeout 3 kamcmd -s "$ctl" ovc.stats >"$dir/ovc_stats.txt" 2>&1 || true
fi
cleanup
trap - EXIT

bench_merge "$dir" "$dir/ovc_raw.txt" "${label:-$alg}" "$retrans" \
	--meta "uas_scenario=$uas_scen" --meta "bye_flood_cps=$flood"
phase merged
# the load generators must not be the bottleneck: SIPp is single-threaded
read -r tgt off smax < <("$BENCH_BIN/ovc-jget" "$dir/summary.json" \
	target_cps offered_cps extra_mean.sipp_cpu_max)
awk -v t="$tgt" -v o="$off" -v m="$smax" 'BEGIN {
	exit !((t > 0 && o < 0.95 * t) || (m != "-" && m > 0.8)) }' &&
	say "WARNING: load generators may be the bottleneck (target $tgt," \
		"offered $off calls/s, busiest SIPp at $smax of a core)"
"$here/plots/plot.sh" "$dir" >/dev/null 2>>"$dir/plot.log" ||
	say "plot failed: $dir/plot.log"
"$here/reports/summary-line.sh" "$dir/summary.json"
