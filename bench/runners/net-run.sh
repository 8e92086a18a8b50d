#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runners/net-run.sh - one run on a network of SIP servers (paper 000 §VII,
# Fig. 13-14): edge proxies in front of the CPU-capped core.
#
#   net-run.sh -t tandem|fanin|chain -m local|hop|e2e|none -r R [-p PROFILE]
#              [-d SECONDS] [-w WARMUP_S] [-R RHO_M] [-a ALG] [-o DIR]
#              [-i POLL_MS]
#
# Topologies (testbed.sh up --edges 2; every proxy configs/ovc-proxy.cfg
# with ovc, algorithm ALG, default occ, the module's default):
#   tandem  uac1, uac2 -> edge1 -> core -> uas1, uas2
#           (000's tandem; both UACs send to the one edge, half the rate
#           each, so that no SIPp has to generate 16 x rho_M alone)
#   fanin   uac1 -> edge1, uac2 -> edge2; both edges -> core -> uas1, uas2
#   chain   uac1, uac2 -> edge1 -> edge2 -> core -> uas1, uas2 (two
#           proxies in front of the core, where hop and e2e differ: in
#           hop edge2 throttles for the core and edge1 learns only
#           edge2's own reduction; in e2e edge2 passes what edge1 sends
#           and announces the larger of its own and the core's, so
#           edge1 refuses for the whole path)
# The core ("proxy" host) runs in the capped cgroup (BENCH_CPU_QUOTA_US)
# and relays on the Request-URI to the UAS; the edges run uncapped with
# BENCH_EDGE_CHILDREN workers (default 2) and relay every initial request
# to the core (NEXT_HOP; in chain edge1 relays to edge2).
# Modes (the module's network_mode, issue 18):
#   local  OVC_NETWORK_MODE="local" everywhere, edges without
#          OVC_DST_ADMIT: no oc; the core refuses for itself
#   hop    OVC_NETWORK_MODE="hop" everywhere, edges with OVC_DST_ADMIT
#   e2e    OVC_NETWORK_MODE="e2e" everywhere, edges with OVC_DST_ADMIT
#   none   no ovc at all (NO_OVC): the uncontrolled baseline
# PROFILE: constant (default) or instant (profile.sh; BENCH_WARM_R sets
# the load before the step). -i: how often the edges' ovc.dst is polled
# (default 1000 ms; the reaction measurement uses 100).
#
# Leaves in DIR: core/, edge1/, edge2/ (each kamailio.log, ovc_raw.txt:
# its `kamcmd ovc.csv`, ovc_stats.txt), EDGE.dst.txt (ovc.dst polls),
# edges_cpu.csv, the SIPp stat/rtt files, sampler.csv (core CPU),
# merged.csv + summary.json (ovc-merge, with the core's ovc.csv), phases.log,
# meta.env (what the run was). Summarize with net-summary.sh. The testbed
# must be up.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
topo=
mode=
prof=constant
peak=
dur=30
warm=5
rho=
alg=occ
dir=
poll=1000
argv=("$@")
while getopts "t:m:r:p:d:w:R:a:o:i:" o; do
	case "$o" in
	t) topo=$OPTARG ;;
	m) mode=$OPTARG ;;
	r) peak=$OPTARG ;;
	p) prof=$OPTARG ;;
	d) dur=$OPTARG ;;
	w) warm=$OPTARG ;;
	R) rho=$OPTARG ;;
	a) alg=$OPTARG ;;
	o) dir=$OPTARG ;;
	i) poll=$OPTARG ;;
	*) bench_bad "bad option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bench_bad "unexpected argument '$1'"
case "$topo" in
tandem) edges=(edge1) ;;
fanin | chain) edges=(edge1 edge2) ;;
*) bench_bad "-t takes tandem, fanin or chain, not '$topo'" ;;
esac
case "$mode" in
local | hop | e2e | none) ;;
*) bench_bad "-m takes local, hop, e2e or none, not '$mode'" ;;
esac
[ -n "$peak" ] || bench_bad "-r R is required"
bench_num -r "$peak"
bench_oneof -p "$prof" constant instant gradual
[[ "$dur" =~ ^[0-9]+$ && "$dur" -ge 3 && "$dur" -le 600 ]] ||
	bench_bad "-d takes 3..600 seconds, not '$dur'"
[[ "$warm" =~ ^[0-9]+$ && "$warm" -le 60 ]] ||
	bench_bad "-w takes 0..60 seconds, not '$warm'"
[ -z "$rho" ] || bench_num -R "$rho"
[[ "$alg" =~ ^[a-z][a-z0-9_-]*$ ]] || bench_bad "-a: '$alg' is not an algorithm"
[[ "$poll" =~ ^[0-9]+$ && "$poll" -ge 50 ]] ||
	bench_bad "-i takes 50 ms or more, not '$poll'"
bench_args_checked

here=$(dirname "$0")/..
. "$here/testbed/lib.sh"
. "$here/testbed/load.sh"
. "$here/testbed/profile.sh"

bench_is_up || die "testbed is not up: bench/testbed/testbed.sh up --edges 2"
for h in "${edges[@]}"; do
	grep -qx "$h" "$BENCH_STATE/hosts" ||
		die "no host $h: testbed.sh down, then up --edges 2"
done
if [ -z "$rho" ]; then
	[ -f "$BENCH_OUT/calibration.env" ] ||
		die "no -R and no $BENCH_OUT/calibration.env: calibrate first"
	rho=$(. "$BENCH_OUT/calibration.env" && echo "$RHO_M")
fi
mapfile -t rates < <(profile_rates "$prof" "$peak" "$dur" "$warm" "$rho") ||
	die "unknown profile '$prof'"
read -r wfrom wto < <(profile_window "$prof" "$dur" "$warm")
n=${#rates[@]}
tag=$topo-$mode-$prof-r$peak
dir=${dir:-$BENCH_OUT/net-runs/$(date +%Y%m%d-%H%M%S)-$tag}
# a folder of an earlier run is replaced; anything else is refused
if [ -e "$dir/command" ] && [ -e "$dir/phases.log" ]; then
	rm -rf "$dir"
elif [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	die "$dir is not empty and not a run's folder"
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
printf '%q ' "$0" ${argv[@]+"${argv[@]}"} >"$dir/command"
echo >>"$dir/command"

t_run=$(date +%s.%N)
phase() {
	awk -v a="$t_run" -v b="$(date +%s.%N)" -v m="$*" \
		'BEGIN { printf "%6.1f s  %s\n", b - a, m }' >>"$dir/phases.log"
}

# the defines of one proxy: core or edge, in this run's mode
defines() {
	case "$mode" in
	local) echo 'OVC_NETWORK_MODE="local"' ;;
	hop | e2e)
		echo -n "OVC_NETWORK_MODE=\"$mode\""
		[ "$1" = edge ] && echo -n ' OVC_DST_ADMIT'
		echo
		;;
	none) echo ;;
	esac
}
palg=$alg
[ "$mode" = none ] && palg=none
so=${BENCH_OVC_SO:-$BENCH_TOP/modules/ovc/ovc.so}

# next_of EDGE: where EDGE relays initial requests (chain: edge1 to edge2)
next_of() {
	if [ "$topo" = chain ] && [ "$1" = edge1 ]; then
		bench_ip edge2
	else
		bench_ip proxy
	fi
}

# proxy_up HOST: the core (proxy) or an edge, logs in DIR/core or DIR/HOST
proxy_up() {
	local h=$1 d role=edge
	d="$dir/$h"
	if [ "$h" = proxy ]; then
		d="$dir/core"
		role=core
	fi
	if [ "$role" = core ]; then
		BENCH_PROXY_HOST=proxy BENCH_NEXT_HOP='' \
			BENCH_PROXY_DEFINES="$(defines core)" BENCH_OVC_SO="$so" \
			"$here/testbed/proxy.sh" start "$d" "$palg"
	else
		BENCH_PROXY_HOST=$h \
			BENCH_NEXT_HOP="sip:$(next_of "$h"):$BENCH_SIP_PORT" \
			BENCH_PROXY_CHILDREN=${BENCH_EDGE_CHILDREN:-2} \
			BENCH_PROXY_DEFINES="$(defines edge)" BENCH_OVC_SO="$so" \
			"$here/testbed/proxy.sh" start "$d" "$palg"
	fi
}
proxy_ctl() { echo "unix:$BENCH_STATE/$1.ctl"; }
proxy_dir() { [ "$1" = proxy ] && echo "$dir/core" || echo "$dir/$1"; }
all_proxies=(proxy "${edges[@]}")

# dump_csv ROWS: every proxy's ovc.csv history appended to its ovc_raw.txt
dump_csv() {
	local h
	[ "$mode" = none ] && return 0
	for h in "${all_proxies[@]}"; do
		timeout 3 kamcmd -s "$(proxy_ctl "$h")" ovc.csv "$1" \
			>>"$(proxy_dir "$h")/ovc_raw.txt" 2>&1 || true
	done
}

cleanup() {
	local h
	phase cleanup
	touch "$dir/sampler.stop"
	local -a w=()
	for h in uac1 uac2 uas1 uas2; do
		sipp_stop "$h" "$dir" 0 &
		w+=($!)
	done
	wait "${w[@]}"
	phase "sipp stopped"
	for h in "${all_proxies[@]}"; do
		BENCH_PROXY_HOST=$h "$here/testbed/proxy.sh" stop "$(proxy_dir "$h")"
	done
	phase "proxies stopped"
	[ -n "${sampler_pid:-}" ] && bench_stop_pid "$sampler_pid" 3
	[ -n "${poll_pid:-}" ] && bench_stop_pid "$poll_pid" 3
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

git_rev=$(git -C "$BENCH_TOP" rev-parse --short HEAD 2>/dev/null || echo -)
so_md5=$(md5sum "$so" 2>/dev/null | cut -c1-12 || echo -)
[ -n "$so_md5" ] || so_md5=-
say "net run $tag: rho_M $rho cps, $n s, window [$wfrom, $wto) s, out $dir"
for h in "${all_proxies[@]}"; do
	proxy_up "$h"
	if [ "$mode" != none ]; then
		kamcmd -s "$(proxy_ctl "$h")" ovc.reset >/dev/null 2>&1 || true
	fi
done
phase "proxies up"
uas_start uas1 "$dir" "$((n + 20))" uas.xml
uas_start uas2 "$dir" "$((n + 20))" uas.xml
sleep 0.5
phase "uas up"

# tandem, chain: both UACs to edge1; fanin: uac1 -> edge1, uac2 -> edge2
entry1=edge1
entry2=edge1
[ "$topo" = fanin ] && entry2=edge2
half() { echo $(((${1} + 1) / 2)) $((${1} / 2 > 0 ? ${1} / 2 : 1)); }
read -r ra rb < <(half "${rates[0]}")
t_start=$(date +%s)
echo "$(date +%s.%3N) ${rates[0]}" >"$dir/rates.log"
BENCH_UAC_PROXY=$entry1 uac_start uac1 "$dir" "$((n + 6))" uas1 "$ra" yes
BENCH_UAC_PROXY=$entry2 uac_start uac2 "$dir" "$((n + 6))" uas2 "$rb" yes
"$here/testbed/sampler.sh" "$dir" "$((n + 10))" &
sampler_pid=$!
bench_track_pid "$sampler_pid" sampler.sh
"$here/testbed/net-poll.sh" "$dir" "$((n + 10))" "$poll" "${edges[@]}" &
poll_pid=$!
bench_track_pid "$poll_pid" net-poll.sh
{
	echo "topo=$topo"
	echo "mode=$mode"
	echo "profile=$prof"
	echo "peak_r=$peak"
	echo "rho_m=$rho"
	echo "duration_s=$dur"
	echo "warmup_s=$warm"
	echo "t_start=$t_start"
	echo "win_from=$((t_start + wfrom))"
	echo "win_to=$((t_start + wto))"
	echo "alg=$palg"
	echo "git=$git_rev"
	echo "ovc_so_md5=$so_md5"
	echo "cpu_quota=$BENCH_CPU_QUOTA_US/$BENCH_CPU_PERIOD_US"
	echo "edges=${edges[*]}"
	echo "edge1_next=$(next_of edge1)"
	echo "edge_children=${BENCH_EDGE_CHILDREN:-2}"
	echo "testbed=$(bench_mode)"
	echo "rates=${rates[*]}"
	# the core's CPU per refusal (calibrate.sh), for the share of its CPU
	# spent refusing: ovc's own refusal at datagram arrival, which is how
	# the core refuses (the script's 503, CPU_PER_REJECT_US, costs about
	# twice as much; only when the calibration did not measure ovc's)
	if [ -f "$BENCH_OUT/calibration.env" ]; then
		echo "cpu_per_reject_us=$(. "$BENCH_OUT/calibration.env" &&
			echo "${CPU_PER_REJECT_OVC_US:-${CPU_PER_REJECT_US:-}}")"
	fi
} >"$dir/meta.env"

prev=${rates[0]}
for ((i = 1; i < n; i++)); do
	now=$(date +%s.%N)
	sleep "$(awk -v a="$t_start" -v i="$i" -v b="$now" \
		'BEGIN { d = a + i - b; print (d > 0 ? d : 0) }')"
	if [ "${rates[$i]}" != "$prev" ]; then
		read -r ra rb < <(half "${rates[$i]}")
		sipp_rate uac1 "$ra"
		sipp_rate uac2 "$rb"
		echo "$(date +%s.%3N) ${rates[$i]}" >>"$dir/rates.log"
		prev=${rates[$i]}
	fi
	if [ $((i % 20)) = 0 ]; then
		dump_csv 30
	fi
done
sleep 1
t_end=$(date +%s)
phase "load done"
drain=${BENCH_DRAIN_S:-4}
sipp_stop uac1 "$dir" "$drain" &
s1=$!
sipp_stop uac2 "$dir" "$drain" &
s2=$!
wait "$s1" "$s2"
phase drained
sleep 1.2 # the last second reaches every proxy's history
dump_csv "$((n + 20))"
if [ "$mode" != none ]; then
	for h in "${all_proxies[@]}"; do
		timeout 3 kamcmd -s "$(proxy_ctl "$h")" ovc.stats \
			>"$(proxy_dir "$h")/ovc_stats.txt" 2>&1 || true
		timeout 3 kamcmd -s "$(proxy_ctl "$h")" ovc.dst \
			>"$(proxy_dir "$h")/ovc_dst.txt" 2>&1 || true
	done
fi
cleanup
trap - EXIT
echo "t_end=$t_end" >>"$dir/meta.env"

bench_merge "$dir" "$dir/core/ovc_raw.txt" "$palg" yes \
	--meta "topology=$topo" --meta "network_mode=$mode" \
	--extra "$dir/edges_cpu.csv"
phase merged
read -r tgt off smax < <("$BENCH_BIN/ovc-jget" "$dir/summary.json" \
	target_cps offered_cps extra_mean.sipp_cpu_max)
# a run whose generators or proxies were stopped under it (testbed down
# from elsewhere) measured nothing: no row for it
awk -v o="$off" 'BEGIN { exit !(o == "-" || o <= 0) }' &&
	die "no load measured (offered $off calls/s): see $dir/phases.log"
awk -v t="$tgt" -v o="$off" -v m="$smax" 'BEGIN {
	exit !((t > 0 && o < 0.95 * t) || (m != "-" && m > 0.8)) }' &&
	say "WARNING: load generators may be the bottleneck (target $tgt," \
		"offered $off calls/s, busiest SIPp at $smax of a core)"
"$here/reports/net-summary.sh" "$dir" >"$dir/summary.csv"
"$here/reports/net-summary.sh" --brief "$dir" >&2
