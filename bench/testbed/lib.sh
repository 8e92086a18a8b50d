# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/lib.sh - shared settings and helpers of the ovc testbed scripts.
# Sourced, never run. Everything the testbed creates is named here, so
# that `down` can remove exactly that and nothing else.

BENCH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH_DIR="$BENCH_TOP/bench"
. "$BENCH_TOP/scripts/load/load-lock.sh"
. "$BENCH_TOP/scripts/load/cgroup.sh"
BENCH_BIN=${BENCH_BIN:-$BENCH_TOP/build/bench}
BENCH_OUT=${BENCH_OUT:-$BENCH_TOP/bench/out}
# Runtime state (what we created, PIDs we started). On tmpfs: it goes
# away with a reboot, exactly like the namespaces it describes.
BENCH_STATE=${BENCH_STATE:-/run/ovc-bench}
BENCH_PREFIX=ovcb
BENCH_CG_NAME=${BENCH_PREFIX}-proxy
# The proxy's cgroup, a scripts/load/cgroup.sh handle (cg_usage_ns "$BENCH_CG"
# ...): as `testbed.sh up` recorded it, else where `up` would create it
# (v1: /sys/fs/cgroup/cpu/ovcb-proxy; v2: under this shell's cgroup), ""
# when neither cgroup version offers the cpu controller.
if [ -s "$BENCH_STATE/cgroup" ]; then
	BENCH_CG=$(cat "$BENCH_STATE/cgroup")
else
	BENCH_CG=$(cg_path "$BENCH_CG_NAME" 2>/dev/null) || BENCH_CG=""
fi
# Proxy CPU quota (cgroup v1 cfs_quota_us/cfs_period_us, v2 cpu.max):
# quota/period of one core.
BENCH_CPU_PERIOD_US=${BENCH_CPU_PERIOD_US:-100000}
BENCH_CPU_QUOTA_US=${BENCH_CPU_QUOTA_US:-20000}
BENCH_SIP_PORT=5060
BENCH_CTL_PORT=8888

# 10.77.0.0/24 exists only inside the testbed namespaces (netns mode);
# 127.77.0.0/24 is plain loopback (loopback mode, no namespaces).
bench_mode() {
	if [ -f "$BENCH_STATE/mode" ]; then
		cat "$BENCH_STATE/mode"
	else
		echo "${BENCH_MODE:-netns}"
	fi
}

# Host name -> last octet. Hosts: proxy (core), edge1..edge3, uac1..uac2,
# uas1..uas2.
bench_octet() {
	case "$1" in
	proxy) echo 10 ;;
	edge1) echo 11 ;;
	edge2) echo 12 ;;
	edge3) echo 13 ;;
	uac1) echo 21 ;;
	uac2) echo 22 ;;
	uas1) echo 31 ;;
	uas2) echo 32 ;;
	*) die "unknown host '$1'" ;;
	esac
}

bench_ip() {
	local o
	o=$(bench_octet "$1")
	if [ "$(bench_mode)" = loopback ]; then
		echo "127.77.0.$o"
	else
		echo "10.77.0.$o"
	fi
}

bench_ns() { echo "${BENCH_PREFIX}-$1"; }

# Run a command "on" a host: inside its network namespace, or directly
# in loopback mode. nsenter switches only the network namespace (`ip
# netns exec` also remounts /sys, which hides the cgroup tree from the
# proxy's cgroup CPU sampler). nsenter execs the command, so $! of a
# backgrounded `on_host` is the command's own PID.
on_host() {
	local h=$1
	shift
	if [ "$(bench_mode)" = loopback ]; then
		"$@"
	else
		nsenter --net="/run/netns/$(bench_ns "$h")" -- "$@"
	fi
}

# Same, with every capability dropped first (libcap, bench/tools/caps.c).
on_host_nocap() {
	local h=$1
	shift
	on_host "$h" "$BENCH_BIN/ovc-caps" drop -- "$@"
}

die() {
	echo "bench: ERROR: $*" >&2
	exit 1
}
say() { echo "bench: $*" >&2; }

# Record a PID we started with the program it runs (NAME, e.g. kamailio,
# timeout), so `down` can stop it after a crash without ever touching a
# process it did not start: it checks that /proc/PID/cmdline still
# names NAME (the PID may have been reused).
bench_track_pid() {
	local pid=$1 name=${2:-}
	[ -n "$name" ] || name=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
		cut -d' ' -f1) || return 0
	mkdir -p "$BENCH_STATE/pids"
	echo "$name" >"$BENCH_STATE/pids/$pid"
}

bench_untrack_pid() { rm -f "$BENCH_STATE/pids/$1"; }

# Stop one PID we started: TERM, wait up to $2 s (default 5), then KILL.
bench_stop_pid() {
	local pid=$1 wait_s=${2:-5} i
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < wait_s * 10; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
	fi
	bench_untrack_pid "$pid"
	return 0
}

bench_require_root_caps() {
	[ -x "$BENCH_BIN/ovc-caps" ] ||
		die "$BENCH_BIN/ovc-caps missing: run 'make bench-tools' first"
	"$BENCH_BIN/ovc-caps" check net_admin sys_admin ||
		die "the testbed needs CAP_NET_ADMIN (namespaces, veth, bridge)" \
			"and CAP_SYS_ADMIN (cgroups): run as root"
}

bench_is_up() { [ -f "$BENCH_STATE/up" ]; }

# bench_merge DIR OVC_RAW ALG RETRANS [ARG...]: merges one run's SIPp
# statistics (DIR/uac{1,2}_*, DIR/uas{1,2}_*), ovc's raw CSV OVC_RAW and
# DIR/sampler.csv into DIR/merged.csv and DIR/summary.json (ovc-merge),
# figures over [t_start + wfrom, t_start + wto], with the metas every run
# records; ARGs add the run's own (--meta k=v, --extra FILE). Reads the
# caller's t_start, t_end, wfrom, wto, drain, rho, prof, peak, dur, warm,
# git_rev and so_md5. Dies when the merge fails.
bench_merge() {
	local dir=$1 raw=$2 alg=$3 retrans=$4
	shift 4
	"$BENCH_BIN/ovc-merge" -o "$dir/merged.csv" -j "$dir/summary.json" \
		--t0 "$t_start" --from "$((t_start + wfrom))" \
		--to "$((t_start + wto))" --csv-from "$((t_start - 1))" \
		--csv-to "$((t_end + drain + 1))" --rho-m "$rho" \
		--meta "algorithm=$alg" --meta "profile=$prof" \
		--meta "peak_r=$peak" --meta "retrans=$retrans" \
		--meta "duration_s=$dur" --meta "warmup_s=$warm" \
		--meta "start=$t_start" --meta "end=$t_end" \
		--meta "mode=$(bench_mode)" --meta "git=$git_rev" \
		--meta "ovc_so_md5=$so_md5" \
		--meta "cpu_quota=$BENCH_CPU_QUOTA_US/$BENCH_CPU_PERIOD_US" \
		--uac "$dir/uac1_stat.csv,$dir/uac1_rtt.csv" \
		--uac "$dir/uac2_stat.csv,$dir/uac2_rtt.csv" \
		--uas "$dir/uas1_stat.csv,$dir/uas1_rtt.csv" \
		--uas "$dir/uas2_stat.csv,$dir/uas2_rtt.csv" \
		--ovc "$raw" --extra "$dir/sampler.csv" "$@" 2>>"$dir/merge.log" ||
		die "merge failed: $dir/merge.log"
}
