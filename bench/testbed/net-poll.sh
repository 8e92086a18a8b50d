#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/net-poll.sh - the edge proxies of a network run, sampled.
#
#   net-poll.sh DIR MAX_SECONDS INTERVAL_MS HOST...
#
# Every INTERVAL_MS (>= 50): `kamcmd ovc.dst` of each HOST (edge1, ...,
# through $BENCH_STATE/HOST.ctl), appended to DIR/HOST.dst.txt, each
# answer after a line "@ EPOCH" (seconds, 3 decimals). Every second: the
# CPU of each HOST's Kamailio (its main process, DIR/HOST/kamailio.main,
# and that process's children), in cores, to DIR/edges_cpu.csv
# ("time,HOST_cpu,..."; the edges run uncapped, outside any cgroup).
# Bounded: stops after MAX_SECONDS or when DIR/sampler.stop appears.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 4 - "$@"
[ -d "$1" ] || bench_bad "DIR: no folder '$1'"
bench_int MAX_SECONDS "$2"
[[ "$3" =~ ^[0-9]+$ && "$3" -ge 50 ]] ||
	bench_bad "INTERVAL_MS takes 50 or more, not '$3'"
bench_args_checked
. "$(dirname "$0")/lib.sh"

dir=$1
max=$2
ivl=$3
shift 3
hosts=("$@")
[[ "$ivl" =~ ^[0-9]+$ && "$ivl" -ge 50 ]] || die "net-poll: interval >= 50 ms"
[[ "$max" =~ ^[0-9]+$ && "$max" -le 3600 ]] || die "net-poll: max <= 3600 s"
tck=$(getconf CLK_TCK)

# CPU ticks (user + system) of HOST's kamailio and its children
kam_ticks() {
	local main c s=0 t
	main=$(cat "$dir/$1/kamailio.main" 2>/dev/null) || {
		echo 0
		return
	}
	for c in "$main" $(cat /proc/"$main"/task/*/children 2>/dev/null); do
		t=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' \
			"/proc/$c/stat" 2>/dev/null) || continue
		s=$((s + t))
	done
	echo "$s"
}

hdr=time
for h in "${hosts[@]}"; do hdr="$hdr,${h}_cpu"; done
echo "$hdr" >"$dir/edges_cpu.csv"
declare -A prev=()
for h in "${hosts[@]}"; do prev[$h]=$(kam_ticks "$h"); done
t_prev=$(date +%s.%N)
t0=$(date +%s%N)
n=$((max * 1000 / ivl))
next_cpu=$(($(date +%s) + 1))
for ((i = 1; i <= n; i++)); do
	# sleep to slot i after the start
	d=$((t0 + i * ivl * 1000000 - $(date +%s%N)))
	[ "$d" -gt 0 ] && sleep "$(awk -v d="$d" 'BEGIN { printf "%.3f", d / 1e9 }')"
	[ -e "$dir/sampler.stop" ] && break
	for h in "${hosts[@]}"; do
		{
			echo "@ $(date +%s.%3N)"
			timeout 2 kamcmd -s "unix:$BENCH_STATE/$h.ctl" ovc.dst 2>&1 || true
		} >>"$dir/$h.dst.txt"
	done
	if [ "$(date +%s)" -ge "$next_cpu" ]; then
		next_cpu=$(($(date +%s) + 1))
		t=$(date +%s.%N)
		row=""
		for h in "${hosts[@]}"; do
			k=$(kam_ticks "$h")
			row="$row,$(awk -v a="${prev[$h]}" -v b="$k" -v t="$t" \
				-v tp="$t_prev" -v c="$tck" \
				'BEGIN { printf "%.3f", (b - a) / c / (t - tp) }')"
			prev[$h]=$k
		done
		awk -v t="$t" -v tp="$t_prev" 'BEGIN { printf "%.3f", (t + tp) / 2 }' \
			>>"$dir/edges_cpu.csv"
		echo "$row" >>"$dir/edges_cpu.csv"
		t_prev=$t
	fi
done
