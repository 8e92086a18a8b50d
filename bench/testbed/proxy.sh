#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/proxy.sh - start or stop the capped proxy on the testbed.
#
#   proxy.sh start DIR ALG [NAME=VALUE...]   start kamailio, wait until it
#                                            answers RPC; logs in DIR
#   proxy.sh stop DIR                        stop it (pidfile in DIR)
#
# ALG: none (ovc-proxy.cfg -A NO_OVC), ratelimit (ratelimit-proxy.cfg,
# FEEDBACK), taildrop (ratelimit-proxy.cfg, TAILDROP at
# BENCH_TAILDROP_CPS), reject (every INVITE rejected: beta calibration),
# or any ovc algorithm (ovc-proxy.cfg with modules/ovc/ovc.so,
# cpu_source=cgroup). NAME=VALUE pairs become ovc parameters
# (OVC_PARAM1..3); BENCH_RCVBUF_UDP=N sets the rcvbuf_udp modparam (UDP
# receive buffer, messages; unset: Kamailio's size). Kamailio runs inside
# the proxy host, in the CPU-capped cgroup, with every capability dropped
# but CAP_BPF and CAP_PERFMON (ovc's kernel stage loads its socket filter
# at start, as a production Kamailio can before it drops to its user). Its
# control socket is $BENCH_STATE/proxy.ctl.
#
# ALG ovc-NAME: ovc with algorithm NAME (ovc-none: ovc loaded, deciding
# nothing, e.g. for its modparams). BENCH_DEFINES="A=1 B" adds -A defines
# of ovc-proxy.cfg (no spaces inside a value), e.g. TCP_LISTEN=...
#
# Multi-hop topologies (testbed.sh up --edges N): BENCH_PROXY_HOST=edge1
# starts the proxy on that host instead (uncapped, control socket
# $BENCH_STATE/edge1.ctl), BENCH_NEXT_HOP=sip:10.77.0.10:5060 relays every
# out-of-dialog request to the next hop (ovc-proxy.cfg NEXT_HOP).
# BENCH_PROXY_DEFINES: more ovc-proxy.cfg defines, separated by blanks,
# each NAME or NAME=VALUE with the value's quotes kept (e.g.
# 'OVC_NETWORK_MODE="hop" OVC_DST_ADMIT'; values without blanks).
# BENCH_OVC_SO: the module to load (default modules/ovc/ovc.so; a
# campaign passes a copy so that a rebuild meanwhile does not change it).
# BENCH_PROXY_CHILDREN: the CHILDREN define for this proxy (default
# BENCH_CHILDREN, else 1).
# BENCH_PROXY_CPUS: a CPU list the proxy is pinned to (taskset -c), e.g. 1
# (an arm of a sweep: BENCH_PROXY_CPUS=1; default: not pinned).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
case "${1:-}" in
start)
	bench_nargs 3 - "$@"
	[[ "$3" =~ ^[a-z][a-z0-9_-]*$ ]] || bench_bad "ALG: '$3' is not an algorithm"
	for kv in "${@:4}"; do
		[[ "$kv" == ?*=* ]] || bench_bad "'$kv' is not NAME=VALUE"
	done
	;;
stop) bench_nargs 2 2 "$@" ;;
*) bench_bad "takes start DIR ALG [NAME=VALUE...] or stop DIR" ;;
esac
bench_args_checked
. "$(dirname "$0")/lib.sh"

BENCH_PROXY_HOST=${BENCH_PROXY_HOST:-proxy}
BENCH_PROXY_CTL="$BENCH_STATE/$BENCH_PROXY_HOST.ctl"
BENCH_OVC_SO=${BENCH_OVC_SO:-$BENCH_TOP/modules/ovc/ovc.so}

proxy_defines() {
	local alg=$1 i=1 kv
	shift
	echo "-A LISTEN=udp:$(bench_ip "$BENCH_PROXY_HOST"):$BENCH_SIP_PORT"
	[ -n "${BENCH_NEXT_HOP:-}" ] && echo "-A NEXT_HOP=\"$BENCH_NEXT_HOP\""
	for kv in ${BENCH_DEFINES:-}; do echo "-A $kv"; done
	echo "-A CTL_SOCK=\"unix:$BENCH_PROXY_CTL\""
	echo "-A CHILDREN=${BENCH_PROXY_CHILDREN:-${BENCH_CHILDREN:-1}}"
	for kv in ${BENCH_PROXY_DEFINES:-}; do
		echo "-A $kv"
	done
	case "$alg" in
	none) echo "-A NO_OVC" ;;
	ratelimit) echo "-A RL_PIPE=\"0:FEEDBACK:${BENCH_FEEDBACK_LOAD:-80}\"" ;;
	taildrop) echo "-A RL_PIPE=\"0:TAILDROP:${BENCH_TAILDROP_CPS:?}\"" ;;
	reject) echo "-A REJECT_ALL" ;;
	*)
		echo "-A OVC_SO=\"${BENCH_OVC_SO:-$BENCH_TOP/modules/ovc/ovc.so}\""
		echo "-A OVC_ALGORITHM=\"${alg#ovc-}\""
		[ -z "${BENCH_CPU_SOURCE:-}" ] ||
			echo "-A OVC_CPU_SOURCE=\"$BENCH_CPU_SOURCE\""
		[ -z "${BENCH_RCVBUF_UDP:-}" ] ||
			echo "-A OVC_RCVBUF_UDP=$BENCH_RCVBUF_UDP"
		for kv in "$@"; do
			echo "-A OVC_PARAM$i=\"$kv\""
			i=$((i + 1))
		done
		;;
	esac
}

proxy_cfg() {
	case "$1" in
	ratelimit | taildrop | reject) echo "$BENCH_TOP/configs/ratelimit-proxy.cfg" ;;
	*) echo "$BENCH_TOP/configs/ovc-proxy.cfg" ;;
	esac
}

cmd_start() {
	local dir=$1 alg=$2 cfg pid i
	local -a args
	shift 2
	bench_is_up || die "testbed is not up: bench/testbed/testbed.sh up"
	case "$alg" in
	none | ratelimit | taildrop | reject) ;;
	*)
		[ -f "$BENCH_OVC_SO" ] ||
			die "$BENCH_OVC_SO missing: run 'make' (or use ALG none)"
		;;
	esac
	mkdir -p "$dir/run"
	cfg=$(proxy_cfg "$alg")
	mapfile -t args < <(proxy_defines "$alg" "$@")
	# each "-A X" line becomes two words; the value keeps its quotes
	local -a kargs=()
	for i in "${args[@]}"; do
		kargs+=(-A "${i#-A }")
	done
	rm -f "$dir/kamailio.pid" "$BENCH_PROXY_CTL"
	echo "kamailio -f $cfg ${kargs[*]}" >"$dir/kamailio.cmd"
	# the core (host proxy) in the capped group: the shell moves itself
	# into each of its cgroup.procs, then becomes kamailio
	# the kernel stage loads its socket filter at start: CAP_BPF and
	# CAP_PERFMON (the verifier's checks for a privileged program) stay
	local -a cgf=() nocap=("$BENCH_BIN/ovc-caps" drop --keep bpf,perfmon --)
	local -a pin=()
	[ -n "${BENCH_PROXY_CPUS:-}" ] && pin=(taskset -c "$BENCH_PROXY_CPUS")
	if [ "$BENCH_PROXY_HOST" = proxy ] && [ -n "$BENCH_CG" ] &&
		[ -d "$BENCH_CG" ]; then
		mapfile -t cgf < <(cg_procs_files "$BENCH_CG")
	fi
	on_host "$BENCH_PROXY_HOST" sh -c '
		n=$1; shift
		while [ "$n" -gt 0 ]; do
			echo $$ >"$1" || exit 1; shift; n=$((n - 1))
		done
		exec "$@"' sh "${#cgf[@]}" "${cgf[@]}" \
		"${nocap[@]}" "${pin[@]}" \
		kamailio -f "$cfg" -DD -E -P "$dir/kamailio.pid" -Y "$dir/run" \
		-m "${BENCH_SHM_MB:-1024}" "${kargs[@]}" \
		>"$dir/kamailio.log" 2>&1 &
	pid=$!
	bench_track_pid "$pid" kamailio
	for ((i = 0; i < 100; i++)); do
		if [ -S "$BENCH_PROXY_CTL" ] &&
			kamcmd -s "unix:$BENCH_PROXY_CTL" core.version >/dev/null 2>&1; then
			break
		fi
		kill -0 "$pid" 2>/dev/null || {
			bench_untrack_pid "$pid"
			tail -5 "$dir/kamailio.log" >&2
			die "kamailio exited at start-up (log: $dir/kamailio.log)"
		}
		sleep 0.1
	done
	if [ "$i" -ge 100 ]; then
		# the launcher may be gone while kamailio, hung in its start-up,
		# lives on: left running it would fork later and take the next
		# runs' traffic (2026-11-27: two such proxies beside a sweep)
		[ -s "$dir/kamailio.pid" ] &&
			bench_stop_pid "$(cat "$dir/kamailio.pid")" 3
		bench_stop_pid "$pid" 3
		die "kamailio did not answer RPC within 10 s"
	fi
	# kamailio forks its main process even with -DD: the pidfile is the
	# truth, the launcher PID may be gone already
	[ -s "$dir/kamailio.pid" ] || die "no pidfile $dir/kamailio.pid"
	bench_untrack_pid "$pid"
	pid=$(cat "$dir/kamailio.pid")
	bench_track_pid "$pid" kamailio
	echo "$pid" >"$dir/kamailio.main"
	say "proxy up: $alg, pid $pid, $(bench_ip "$BENCH_PROXY_HOST"):$BENCH_SIP_PORT"
}

cmd_stop() {
	local dir=$1 pid
	[ -f "$dir/kamailio.main" ] || return 0
	pid=$(cat "$dir/kamailio.main")
	bench_stop_pid "$pid" 5
	rm -f "$dir/kamailio.main" "$BENCH_PROXY_CTL"
}

case "${1:-}" in
start)
	[ $# -ge 3 ] || die "usage: proxy.sh start DIR ALG [NAME=VALUE...]"
	shift
	cmd_start "$@"
	;;
stop)
	[ $# -eq 2 ] || die "usage: proxy.sh stop DIR"
	cmd_stop "$2"
	;;
*)
	echo "usage: $0 start DIR ALG [NAME=VALUE...] | stop DIR" >&2
	exit 2
	;;
esac
