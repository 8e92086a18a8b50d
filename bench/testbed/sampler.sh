#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/sampler.sh - per-second samples of one run, independent of ovc.
#
#   sampler.sh DIR MAX_SECONDS
#
# Writes DIR/sampler.csv: time, proxy_cpu (CPU used by the proxy's cgroup
# as a fraction of its quota), throttled_ms (time the quota held it back),
# rcvbuf_err (UDP receive-buffer drops in the proxy host), sipp_cpu (CPU
# of all SIPp processes, in cores) and sipp_cpu_max (the busiest SIPp:
# near 1.0 means the load generator, not the proxy, is the bottleneck).
# SIPp PIDs are the children of DIR/*.pid (their `timeout` wrappers).
# Stops after MAX_SECONDS or when DIR/sampler.stop appears.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 2 2 "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_int MAX_SECONDS "$2"
bench_args_checked
. "$(dirname "$0")/lib.sh"

dir=$1
max=$2
out="$dir/sampler.csv"
tck=$(getconf CLK_TCK)
read -r quota period < <(cg_quota "$BENCH_CG" 2>/dev/null || echo -1 100000)

cg_usage() { cg_usage_ns "$BENCH_CG" 2>/dev/null || echo 0; }
cg_throttled() { cg_throttled_ns "$BENCH_CG" 2>/dev/null || echo 0; }
rcvbuf_errors() {
	on_host proxy cat /proc/net/snmp 2>/dev/null | awk '
		$1 == "Udp:" && !h { for(i = 1; i <= NF; i++) if($i == "RcvbufErrors") c = i; h = 1; next }
		$1 == "Udp:" && h { print $c; exit }' || echo 0
}
# "pid ticks" of every SIPp under the run's timeout wrappers
sipp_ticks() {
	local f w c
	for f in "$dir"/*.pid; do
		[ -e "$f" ] || continue
		w=$(cat "$f" 2>/dev/null) || continue
		for c in $(cat "/proc/$w/task/$w/children" 2>/dev/null); do
			awk -v p="$c" '{ sub(/^.*\) /, ""); print p, $12 + $13 }' \
				"/proc/$c/stat" 2>/dev/null || true
		done
	done
}

echo "time,proxy_cpu,throttled_ms,rcvbuf_err,sipp_cpu,sipp_cpu_max" >"$out"
declare -A prev_ticks=()
t_prev=$(date +%s.%N)
u_prev=$(cg_usage)
th_prev=$(cg_throttled)
rb_prev=$(rcvbuf_errors)
while read -r p k; do prev_ticks[$p]=$k; done < <(sipp_ticks)
for ((i = 0; i < max; i++)); do
	# wake up on the next whole second (fractional part of date +%s.%N)
	sleep "0.$(printf '%09d' $((1000000000 - 10#$(date +%N))))" 2>/dev/null || sleep 1
	[ -e "$dir/sampler.stop" ] && break
	t=$(date +%s.%N)
	u=$(cg_usage)
	th=$(cg_throttled)
	rb=$(rcvbuf_errors)
	sum=0
	top=0
	declare -A cur_ticks=()
	while read -r p k; do
		cur_ticks[$p]=$k
		d=$((k - ${prev_ticks[$p]:-$k}))
		sum=$((sum + d))
		[ "$d" -gt "$top" ] && top=$d
	done < <(sipp_ticks)
	awk -v t="$t" -v tp="$t_prev" -v u="$u" -v up="$u_prev" -v q="$quota" \
		-v per="$period" -v th="$th" -v thp="$th_prev" -v rb="$rb" \
		-v rbp="$rb_prev" -v s="$sum" -v m="$top" -v tck="$tck" 'BEGIN {
		dt = t - tp
		cap = q > 0 ? q / per : 1
		printf "%.3f,%.3f,%.1f,%d,%.3f,%.3f\n", (t + tp) / 2,
			(u - up) / 1e9 / dt / cap, (th - thp) / 1e6, rb - rbp,
			s / tck / dt, m / tck / dt
	}' >>"$out"
	t_prev=$t
	u_prev=$u
	th_prev=$th
	rb_prev=$rb
	prev_ticks=()
	for p in "${!cur_ticks[@]}"; do prev_ticks[$p]=${cur_ticks[$p]}; done
	unset cur_ticks
done
