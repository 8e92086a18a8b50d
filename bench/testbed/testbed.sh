#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/testbed.sh - the ovc testbed: hosts as network namespaces.
#
#   testbed.sh up [--loopback] [--edges N]   create it
#   testbed.sh down                          remove exactly what up created
#   testbed.sh status                        show it; exit 1 if not healthy
#
# Hosts: proxy (core), edge1..N (optional extra proxies), uac1, uac2,
# uas1, uas2. Each is a namespace with one veth end (eth0, 10.77.0.X/24);
# the other ends sit on bridge br0 inside namespace ovcb-net, so the root
# namespace gets no interface. The proxy's CPU is capped by a cgroup
# quota (BENCH_CPU_QUOTA_US / BENCH_CPU_PERIOD_US; scripts/load/cgroup.sh: v1,
# or v2 under the cgroup of the shell that runs `up`; its handle in
# $BENCH_STATE/cgroup). --loopback: no namespaces, hosts are 127.77.0.X
# on lo (the cgroup is still used).
# Everything created is recorded in $BENCH_STATE as it is created; down
# removes only recorded items, so it works after a crash and never
# touches anything else.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
case "${1:-}" in
up)
	a=("${@:2}")
	while [ ${#a[@]} -gt 0 ]; do
		case "${a[0]}" in
		--loopback) a=("${a[@]:1}") ;;
		--edges)
			[[ "${a[1]:-}" =~ ^[0-3]$ ]] ||
				bench_bad "--edges takes 0..3, not '${a[1]:-}'"
			a=("${a[@]:2}")
			;;
		*) bench_bad "up: unknown argument '${a[0]}'" ;;
		esac
	done
	;;
down | status) bench_nargs 1 1 "$@" ;;
*) bench_bad "takes up [--loopback] [--edges N], down or status" ;;
esac
bench_args_checked
. "$(dirname "$0")/lib.sh"

record() { echo "$*" >>"$BENCH_STATE/created"; }

# up_cgroup: the proxy's capped group BENCH_CG_NAME; its directories are
# recorded before they are made (down skips those that never came).
up_cgroup() {
	local h d
	cg_detect || die "cannot cap the proxy's CPU (above)"
	h=$(cg_path "$BENCH_CG_NAME")
	for d in $(cg_dirs "$h"); do
		[ ! -e "$d" ] ||
			die "$d exists and was not created by this testbed; not touching it"
	done
	for d in $(cg_dirs "$h"); do
		record "cgroup $d"
	done
	BENCH_CG=$(cg_create "$BENCH_CG_NAME" "$BENCH_CPU_QUOTA_US" \
		"$BENCH_CPU_PERIOD_US") || die "cannot create the proxy's cgroup $h"
	echo "$BENCH_CG" >"$BENCH_STATE/cgroup"
	cg_usage_ns "$BENCH_CG" >/dev/null 2>&1 ||
		say "no CPU accounting for $BENCH_CG (v1 without cpuacct)"
}

up_netns_host() {
	local h=$1 ns ip
	ns=$(bench_ns "$h")
	ip=$(bench_ip "$h")
	ip netns add "$ns" || die "cannot create namespace $ns"
	record "netns $ns"
	ip -n "$ns" link set lo up
	ip -n "$(bench_ns net)" link add "v-$h" type veth peer name eth0 \
		netns "$ns"
	ip -n "$(bench_ns net)" link set "v-$h" master br0 up
	ip -n "$ns" addr add "$ip/24" dev eth0
	ip -n "$ns" link set eth0 up
	echo "$h" >>"$BENCH_STATE/hosts"
}

cmd_up() {
	local mode=netns edges=0 h
	while [ $# -gt 0 ]; do
		case "$1" in
		--loopback) mode=loopback ;;
		--edges)
			edges=$2
			shift
			;;
		*) die "up: unknown option $1" ;;
		esac
		shift
	done
	[[ "$edges" =~ ^[0-3]$ ]] || die "--edges takes 0..3"
	bench_require_root_caps
	if bench_is_up; then
		say "testbed already up ($(bench_mode)); 'down' first to change it"
		return 0
	fi
	if [ -s "$BENCH_STATE/created" ]; then
		die "leftovers of an earlier testbed in $BENCH_STATE: run 'down' first"
	fi
	if [ "$mode" = netns ]; then
		if ! ip netns add "${BENCH_PREFIX}-probe" 2>/dev/null; then
			say "network namespaces unavailable: falling back to loopback"
			mode=loopback
		else
			ip netns del "${BENCH_PREFIX}-probe"
		fi
	fi
	if [ "$mode" = netns ]; then
		for h in net proxy uac1 uac2 uas1 uas2 edge1 edge2 edge3; do
			if ip netns list | grep -qw "$(bench_ns "$h")"; then
				die "namespace $(bench_ns "$h") exists and was not" \
					"created by this testbed; not touching it"
			fi
		done
	fi
	mkdir -p "$BENCH_STATE"
	: >"$BENCH_STATE/created"
	: >"$BENCH_STATE/hosts"
	echo "$mode" >"$BENCH_STATE/mode"

	if [ "$mode" = netns ]; then
		ip netns add "$(bench_ns net)"
		record "netns $(bench_ns net)"
		ip -n "$(bench_ns net)" link set lo up
		ip -n "$(bench_ns net)" link add br0 type bridge
		ip -n "$(bench_ns net)" link set br0 up
		for h in proxy uac1 uac2 uas1 uas2; do
			up_netns_host "$h"
		done
		for ((h = 1; h <= edges; h++)); do
			up_netns_host "edge$h"
		done
	else
		for h in proxy uac1 uac2 uas1 uas2; do
			echo "$h" >>"$BENCH_STATE/hosts"
		done
		for ((h = 1; h <= edges; h++)); do
			echo "edge$h" >>"$BENCH_STATE/hosts"
		done
	fi

	up_cgroup
	touch "$BENCH_STATE/up"
	say "testbed up ($mode): $(tr '\n' ' ' <"$BENCH_STATE/hosts")"
	say "proxy CPU cap $BENCH_CPU_QUOTA_US us / $BENCH_CPU_PERIOD_US us" \
		"(cgroup v$(cg_version) $BENCH_CG)"
}

cmd_down() {
	local f pid name kind what
	[ -d "$BENCH_STATE" ] || {
		say "testbed not up: nothing to do"
		return 0
	}
	# Processes first (only PIDs we recorded, only if still the same
	# program), so that namespaces and cgroups become empty.
	if [ -d "$BENCH_STATE/pids" ]; then
		for f in "$BENCH_STATE"/pids/*; do
			[ -e "$f" ] || continue
			pid=${f##*/}
			name=$(head -n1 "$f")
			if [ -r "/proc/$pid/cmdline" ] &&
				tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$name"; then
				say "stopping leftover $pid ($name)"
				bench_stop_pid "$pid" 3
			fi
			rm -f "$f"
		done
	fi
	if [ -f "$BENCH_STATE/created" ]; then
		tac "$BENCH_STATE/created" | while read -r kind what; do
			case "$kind" in
			netns) ip netns del "$what" 2>/dev/null || true ;;
			cgroup)
				if [ -d "$what" ]; then
					rmdir "$what" 2>/dev/null ||
						say "cannot remove $what (processes left?)"
				fi
				;;
			esac
		done
	fi
	rm -rf "$BENCH_STATE"
	say "testbed down"
}

cmd_status() {
	local ok=0 h ns q p
	if ! bench_is_up; then
		echo "testbed: down"
		[ -d "$BENCH_STATE" ] && echo "  (leftover state in $BENCH_STATE: run down)"
		return 1
	fi
	echo "testbed: up, mode $(bench_mode)"
	while read -r h; do
		if [ "$(bench_mode)" = netns ]; then
			ns=$(bench_ns "$h")
			if ip -n "$ns" -br addr show eth0 2>/dev/null |
				grep -q "$(bench_ip "$h")/"; then
				echo "  $h: $ns $(bench_ip "$h")"
			else
				echo "  $h: $ns MISSING"
				ok=1
			fi
		else
			echo "  $h: $(bench_ip "$h") (loopback)"
		fi
	done <"$BENCH_STATE/hosts"
	if [ -n "$BENCH_CG" ] && [ -d "$BENCH_CG" ] &&
		read -r q p < <(cg_quota "$BENCH_CG"); then
		echo "  proxy cpu cap: $q us / $p us (cgroup v$(cg_version));" \
			"tasks: $(wc -l <"$BENCH_CG/cgroup.procs")"
	else
		echo "  proxy cpu cap: MISSING"
		ok=1
	fi
	if [ -d "$BENCH_STATE/pids" ]; then
		for f in "$BENCH_STATE"/pids/*; do
			[ -e "$f" ] || continue
			echo "  running: ${f##*/} $(cut -c1-60 "$f")"
		done
	fi
	return $ok
}

case "${1:-}" in
up)
	shift
	cmd_up "$@"
	;;
down) cmd_down ;;
status) cmd_status ;;
*)
	echo "usage: $0 up [--loopback] [--edges N] | down | status" >&2
	exit 2
	;;
esac
