# SPDX-License-Identifier: GPL-2.0-or-later
# ovc integration test helpers: start/stop real kamailio and SIPp on
# loopback, optionally inside a CPU-capped cgroup, read their results.
# Every process a test starts is recorded and killed by PID on exit; every
# load run is bounded by a call count and a timeout.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$TOP/scripts/load/load-lock.sh"
. "$TOP/scripts/load/cgroup.sh"
# the module under test (OVC_MOD: another build, for A/B runs)
MOD="${OVC_MOD:-$TOP/modules/ovc/ovc.so}"
CFG="$TOP/configs/ovc-proxy.cfg"
SCN="$TOP/scenarios"
T_NAME=$(basename "$0" .sh)
T_DIR=$(mktemp -d "/tmp/ovc-${T_NAME}.XXXXXX")
# ports unique per test run so parallel runs do not collide
T_BASE=$((20000 + ($$ % 1500) * 20))
PROXY_PORT=$((T_BASE + 0))
UAS_PORT=$((T_BASE + 1))
UAC_PORT=$((T_BASE + 2))
CTL="unix:$T_DIR/ctl"
T_PIDS=()
T_KPID=""
T_FAILS=0

log() { echo "[$T_NAME] $*"; }
fail() {
	echo "[$T_NAME] FAIL: $*"
	T_FAILS=$((T_FAILS + 1))
}
T_OKS=0
ok() {
	echo "[$T_NAME] ok: $*"
	T_OKS=$((T_OKS + 1))
}

# check NAME COND-EXPR MESSAGE: records a failure when the awk expression
# (with the numbers substituted) is false.
check() {
	local what=$1 expr=$2
	if awk "BEGIN { exit !($expr) }"; then
		ok "$what ($expr)"
	else
		fail "$what ($expr)"
	fi
}

# kam_leftovers TAG: kills the kamailio processes whose command line holds
# TAG (a path inside this test's T_DIR, so only this test's) and that
# outlived their main process (orphans keep running after a SIGKILL of
# the main one); logs how many.
kam_leftovers() {
	local left
	left=$(pgrep -f -- "$1" 2>/dev/null | tr '\n' ' ' || true)
	[ -n "${left// /}" ] || return 0
	log "$(wc -w <<<"$left") kamailio processes of $1 outlived their main one: killed"
	# shellcheck disable=SC2086
	kill -9 $left 2>/dev/null || true
	# gone before the caller goes on (a large process takes a moment to
	# exit; the test's cleanup would find and count it again)
	for _ in $(seq 1 20); do
		pgrep -f -- "$1" >/dev/null 2>&1 || break
		sleep 0.1
	done
}

cleanup() {
	local p
	for p in "${T_PIDS[@]:-}"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null || true
	done
	for p in "${T_PIDS[@]:-}"; do
		[ -n "$p" ] || continue
		for _ in $(seq 1 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null || true
	done
	kam_leftovers "-Y $T_DIR"
	# a group can only go once the last of its processes has exited
	if [ -f "$T_DIR/cgroups" ]; then
		while read -r p; do
			cg_remove "$p" 50 || log "cgroup $p left (processes in it)"
		done <"$T_DIR/cgroups"
	fi
	if [ "${T_KEEP:-0}" = 1 ] || [ "$T_FAILS" -gt 0 ]; then
		log "logs kept in $T_DIR"
	else
		rm -rf "$T_DIR"
	fi
}
trap cleanup EXIT

# skip REASON: this host cannot run what the test tests (not a pass): logs
# "SKIP: REASON" and exits 77, which run.sh reports as SKIP and names in
# its summary. A test calls it only where its subject is known not to run
# here (e.g. kstage_expected is false), never to hide a failure.
skip() {
	if [ "$T_FAILS" -gt 0 ]; then
		log "FAILED ($T_FAILS) before the skip: $*"
		exit 1
	fi
	log "SKIP: $*"
	exit 77
}

# kstage_expected: whether this host is known to run the kernel stage, so
# that the kernel refusing it is a failure, not a skip: OVC_KSTAGE_EXPECT=1
# or 0 says so (CI sets it); without it, yes when the kernel is 5.3 or
# later (bounded loops), has the bpf() system call (its sysctl
# kernel.unprivileged_bpf_disabled exists) and this shell has CAP_BPF or
# CAP_SYS_ADMIN (root outside a container that drops them). The rule of
# tests/unit/test_kstage_prog.c.
kstage_expected() {
	local maj min eff
	if [ -n "${OVC_KSTAGE_EXPECT:-}" ]; then
		[ "$OVC_KSTAGE_EXPECT" != 0 ]
		return
	fi
	IFS=. read -r maj min _ < <(uname -r)
	min=${min%%[!0-9]*}
	[ "${maj:-0}" -gt 5 ] || { [ "${maj:-0}" -eq 5 ] && [ "${min:-0}" -ge 3 ]; } ||
		return 1
	[ -e /proc/sys/kernel/unprivileged_bpf_disabled ] || return 1
	eff=$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)
	(((0x${eff:-0} >> 39 & 1) || (0x${eff:-0} >> 21 & 1)))
}

# finish: print the verdict line and exit with the test's status.
finish() {
	if [ "$T_FAILS" -gt 0 ]; then
		log "FAILED ($T_FAILS)"
		exit 1
	fi
	if [ "$T_OKS" -eq 0 ]; then
		# a test that checked nothing (its proxy never started, a probe
		# gave up without a verdict) has not passed
		log "FAILED: no check ran"
		exit 1
	fi
	log "PASSED"
	exit 0
}

# cg_make QUOTA_US PERIOD_US: creates a CPU-capped cgroup ovc-TEST-PID
# (scripts/load/cgroup.sh: v1 cpu+cpuacct, or v2 under this shell's own group)
# and prints its handle for kam_start -c, cg_usage_ns. It is recorded in
# $T_DIR/cgroups (cg_make runs in $(...): a variable would not survive)
# and removed on exit; first, the empty groups of runs that died without
# their exit trap (SIGKILL) go (cg_sweep).
cg_make() {
	local q=$1 p=$2 name="ovc-${T_NAME}-$$" h
	cg_sweep
	h=$(cg_path "$name") || return 1
	# ours by name (this PID): an empty one is a dead run's whose PID we got
	if [ -d "$h" ]; then cg_remove "$h" 0 || true; fi
	h=$(cg_create "$name" "$q" "$p") || return 1
	echo "$h" >>"$T_DIR/cgroups"
	echo "$h"
}

# kam_start [-c CGROUP] [-n NAME] DEFINE...: starts kamailio with the proxy
# cfg and the given -A defines, plus CHILDREN=$KAM_CHILDREN (SIP worker
# processes) when that is set (not with a CHILDREN define: t_concurrency),
# inside cgroup CGROUP (a cg_make handle); waits for its control socket
# (for KAM_START_TENTHS tenths of a second, default 100). KAM_WRAP: a command
# kamailio runs under (valgrind ..., setpriv ...). KAM_SHM_MB: its shared
# memory, MB (-m; default 1024), KAM_PKG_MB: its private memory per
# process, MB (-M; default Kamailio's). It listens on PROXY_PORT, relays to
# UAS_PORT and answers RPC on CTL, as they are when it is called (a test
# with two proxies sets them for each call; kam_stop stops the one in
# T_KPID and removes CTL's socket).
kam_start() {
	local cg="" name=kam
	while [ $# -gt 0 ]; do
		case "$1" in
		-c) cg=$2; shift 2 ;;
		-n) name=$2; shift 2 ;;
		*) break ;;
		esac
	done
	# shellcheck disable=SC2206
	local args=(-f "$CFG" -DD -E -P "$T_DIR/$name.pid" -Y "$T_DIR"
		-m "${KAM_SHM_MB:-1024}" ${KAM_PKG_MB:+-M "$KAM_PKG_MB"} ${KAM_OPTS:-}
		-A "OVC_SO=\"$MOD\"" -A "CTL_SOCK=\"$CTL\""
		-A "LISTEN=udp:127.0.0.1:$PROXY_PORT"
		-A "NEXT_HOP=\"sip:127.0.0.1:$UAS_PORT\"")
	local d ctlf=${CTL#unix:}
	[ -z "${KAM_CHILDREN:-}" ] || args+=(-A "CHILDREN=$KAM_CHILDREN")
	for d in "$@"; do args+=(-A "$d"); done
	rm -f "$ctlf" "$T_DIR/$name.pid"
	# shellcheck disable=SC2206
	local run=(${KAM_WRAP:-} kamailio)
	if [ -n "$cg" ]; then
		# the shell moves itself in (every cgroup.procs of the group),
		# then becomes kamailio: all its processes start inside
		local -a cgf
		mapfile -t cgf < <(cg_procs_files "$cg")
		sh -c 'n=$1; shift
			while [ "$n" -gt 0 ]; do
				echo $$ >"$1" || exit 1; shift; n=$((n - 1))
			done
			exec "$@"' kamailio "${#cgf[@]}" "${cgf[@]}" "${run[@]}" "${args[@]}" \
			>"$T_DIR/$name.log" 2>&1 &
	else
		"${run[@]}" "${args[@]}" >"$T_DIR/$name.log" 2>&1 &
	fi
	T_PIDS+=("$!")
	# up once the control socket answers: its process is a child, so the
	# main process has forked its workers by then (mod_init may take a
	# while, e.g. to load the kernel stage's filter)
	for _ in $(seq 1 "${KAM_START_TENTHS:-100}"); do
		if [ -S "$ctlf" ] && [ -s "$T_DIR/$name.pid" ] &&
			kamcmd -s "$CTL" core.version >/dev/null 2>&1; then
			T_KPID=$(cat "$T_DIR/$name.pid")
			T_KTAG="-P $T_DIR/$name.pid "
			T_PIDS+=("$T_KPID")
			return 0
		fi
		sleep 0.1
	done
	log "kamailio did not start; log:"
	tail -20 "$T_DIR/$name.log"
	return 1
}

# kam_stop: stops the kamailio started last (by its PID file), waiting
# KAM_STOP_TENTHS tenths of a second (default 100) before SIGKILL, then
# kills what of it outlived the main process (kam_leftovers).
kam_stop() {
	[ -n "$T_KPID" ] || return 0
	kill "$T_KPID" 2>/dev/null || true
	for _ in $(seq 1 "${KAM_STOP_TENTHS:-100}"); do
		kill -0 "$T_KPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$T_KPID" 2>/dev/null || true
	T_KPID=""
	[ -z "${T_KTAG:-}" ] || kam_leftovers "$T_KTAG"
	T_KTAG=""
	rm -f "${CTL#unix:}"
}

rpc() { kamcmd -s "$CTL" "$@"; }

# uas_start NAME [SCENARIO]: a SIPp UAS on UAS_PORT writing per-second
# stats and message counts into $T_DIR/NAME/. Bounded: exits after
# UAS_TIMEOUT seconds (600).
uas_start() {
	local name=$1 scen=${2:-$SCN/uas.xml}
	mkdir -p "$T_DIR/$name"
	(cd "$T_DIR/$name" && exec timeout "${UAS_TIMEOUT:-600}" sipp \
		-sf "$scen" -i 127.0.0.1 -p "$UAS_PORT" -nostdin -trace_stat \
		-stf stat.csv -trace_counts -fd 1 >out.txt 2>&1) &
	T_UAS_PID=$!
	T_PIDS+=("$T_UAS_PID")
	sleep 0.3
}

# uas_stop: stops the UAS started last (timeout passes SIGTERM to SIPp).
uas_stop() {
	[ -n "${T_UAS_PID:-}" ] || return 0
	kill "$T_UAS_PID" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 "$T_UAS_PID" 2>/dev/null || break
		sleep 0.1
	done
	T_UAS_PID=""
}

# uac_run NAME RATE CALLS [extra sipp args]: runs the 503-aware UAC to the
# proxy in the foreground until CALLS calls are done (bounded: 300 s);
# results in $T_DIR/NAME/.
uac_run() {
	local name=$1 rate=$2 calls=$3
	shift 3
	mkdir -p "$T_DIR/$name"
	(cd "$T_DIR/$name" &&
		uac_exec "$rate" "$calls" "${UAC_TIMEOUT:-300}" "$@") || true
}

# uac_exec RATE CALLS TIMEOUT [SIPP_ARG...]: becomes uac_run's UAC in the
# current directory (timeout, then SIPp: stat.csv, counts, out.txt), so
# that the caller's subshell is the process to signal.
uac_exec() {
	local rate=$1 calls=$2 tmo=$3
	shift 3
	exec timeout "$tmo" sipp -sf "$SCN/uac.xml" -i 127.0.0.1 \
		-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r "$rate" \
		-m "$calls" -d 0 -l 100000 -nostdin -trace_stat -stf stat.csv \
		-trace_counts -fd 1 "$@" >out.txt 2>&1
}

# queue_backlog [DEFINE...]: kamailio with sired's in-core queue drained by
# one worker slowed to 200 ms per INVITE (plus DEFINEs; every INVITE
# crosses the queue, queue_bypass 0, overload or not), a UAS, and a UAC
# offering 40 INVITEs in 1 s in the background (its PID in BACKLOG_UAC;
# every awaited answer times out after 6 s at most, so it ends by itself
# once the proxy is gone). Returns once the backlog has built (after
# BACKLOG_WAIT s, default 3).
queue_backlog() {
	kam_start 'OVC_ALGORITHM="sired"' 'OVC_QUEUE_WORKERS=1' \
		'OVC_QUEUE_MAX_WAIT=0' 'OVC_QUEUE_BYPASS=0' \
		'SLOW_INVITE_US=200000' "$@"
	uas_start uas
	UAC_TIMEOUT=40 uac_run uac 40 40 -max_retrans 2 -recv_timeout 6000 &
	BACKLOG_UAC=$!
	sleep "${BACKLOG_WAIT:-3}"
}

# stats_key KEY: the first value of KEY in a fresh ovc.stats.
stats_key() {
	rpc ovc.stats | awk -v k="$1:" '$1 == k { print $2; exit }'
}

# f_wait_below LIMIT TENTHS: polls the controller's f (ovc.stats) every
# tenth of a second until it is below LIMIT, for at most TENTHS polls;
# leaves the last value read in F.
f_wait_below() {
	local _
	F=1
	for _ in $(seq 1 "$2"); do
		sleep 0.1
		F=$(stats_key f)
		awk -v f="$F" -v l="$1" 'BEGIN { exit !(f < l) }' && break
	done
}

# counts_col NAME COLUMN: last cumulative value of a SIPp counts column
# (e.g. 3_503_Recv) of run NAME; 0 when absent.
counts_col() {
	local f
	f=$(ls "$T_DIR/$1"/*_counts.csv 2>/dev/null | head -n1 || true)
	[ -n "$f" ] || { echo 0; return; }
	awk -F';' -v col="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
		c { v = $c } END { print v + 0 }' "$f"
}

# counts_window NAME COLUMN FROM TO: increase of a cumulative counts column
# between rows FROM and TO (1 row per second; row 1 is t=0).
counts_window() {
	local f
	f=$(ls "$T_DIR/$1"/*_counts.csv 2>/dev/null | head -n1 || true)
	[ -n "$f" ] || { echo 0; return; }
	awk -F';' -v col="$2" -v a="$3" -v b="$4" '
		NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
		{ r = NR - 1; if(r == a) va = $c; if(r <= b) vb = $c }
		END { print vb - va }' "$f"
}

# stat_col NAME COLUMN: last value of a SIPp stat CSV column of run NAME.
stat_col() {
	awk -F';' -v col="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
		c { v = $c } END { print v + 0 }' "$T_DIR/$1/stat.csv"
}

# csv_check FILE: verifies the per-second balance of every ovc.csv row:
# offered = admitted + rejected + dropped + queued - dequeued (per class).
# Prints "rows=N bad=M" and returns non-zero when a row is off.
csv_check() {
	awk -F',' '
		NR == 1 { for(i = 1; i <= NF; i++) col[$i] = i; next }
		function v(n) { return (n in col) ? $(col[n]) + 0 : 0 }
		{
			rows++
			split("invite indialog register other", cls, " ")
			for(k = 1; k <= 4; k++) {
				c = cls[k]
				lhs = v(c "_offered")
				rhs = v(c "_admitted") + v(c "_rejected") + v(c "_dropped") \
					+ v(c "_queued") - v(c "_dequeued")
				if(lhs != rhs) { bad++; print "unbalanced " c ": " $0 > "/dev/stderr" }
			}
		}
		END { printf "rows=%d bad=%d\n", rows, bad; exit bad > 0 || rows == 0 }' "$1"
}

# csv_sum FILE COLUMN: sum of a column over all rows of an ovc.csv dump.
csv_sum() {
	awk -F',' -v name="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i == name) c = i; next }
		c { s += $c } END { print s + 0 }' "$1"
}

# csv_closed [RPC_FN]: waits (at most 5 s) until every second up to now
# is in ovc.csv's history (RPC_FN, default rpc: the function that asks
# the instance). A row covers a second of the monotonic clock, its time
# that second's start in unix seconds (rounded), and is closed a second
# after it ends: once a row two seconds after now's is there, every
# earlier one is. Returns 1 if none came.
csv_closed() {
	local fn=${1:-rpc} t0 last i
	t0=$(date +%s)
	for i in $(seq 50); do
		last=$("$fn" ovc.csv 2 2>/dev/null |
			awk -F',' 'NR > 1 && $1 ~ /^[0-9]+$/ { t = $1 } END { print t + 0 }')
		[ "$last" -gt $((t0 + 1)) ] && return 0
		sleep 0.1
	done
	return 1
}

# An allocation that failed, in Kamailio's or a module's words (grep -E).
OVC_MEM_ERR='(no more|not enough|could not allocate|out of|no) [a-z ]*memory|memory allocation fail|fragment not found'

# svc_wrap USER DROPIN: sets SVC_CAPS to the drop-in's
# AmbientCapabilities= as setpriv takes them (+bpf,+perfmon) and SVC_WRAP
# to the setpriv command that runs Kamailio as USER with them (Debian's
# kamailio.service without systemd). Returns 1 when the drop-in names none.
svc_wrap() {
	SVC_CAPS=$(awk -F= '$1 == "AmbientCapabilities" { print $2 }' "$2" |
		tr ' ' '\n' |
		awk 'NF { sub(/^CAP_/, ""); printf "%s+%s", s, tolower($0); s = "," }')
	[ -n "$SVC_CAPS" ] || return 1
	SVC_WRAP="setpriv --reuid=$1 --regid=$1 --init-groups"
	SVC_WRAP+=" --inh-caps=$SVC_CAPS --ambient-caps=$SVC_CAPS"
}

# stats_val KEY: a top-level number from ovc.stats (e.g. f, cpu).
stats_val() {
	rpc ovc.stats | awk -v k="$1" '$1 == k ":" { print $2; exit }'
}

# stats_class BLOCK KEY: KEY in one block of ovc.stats: a class's
# counters (invite, ...) or a part's block (kstage, mem_guard, ...).
stats_class() {
	rpc ovc.stats | awk -v c="$1" -v k="$2" '
		$1 == c ":" { in_c = 1; next }
		in_c && $1 == "}" { in_c = 0 }
		in_c && $1 == k ":" { print $2; exit }'
}

# SIPP_COLS: an awk function, col(NAME), for SIPp's stat.csv header:
# NAME as SIPp before 3.8 writes it (cumulative counts), "" for a column
# to leave out. SIPp 3.8 (Debian sid's) writes each repartition column
# twice, periodic "NAME(P)" and cumulative "NAME(C)": the (C) one is
# the old NAME.
SIPP_COLS='function col(n) { if(n ~ /\(P\)$/) return ""
	sub(/\(C\)$/, "", n); return n }'

# timely_window NAME FROM TO [MS]: calls set up within MS ms (default
# 500; 50, 100, 200 or 500: SIPp's repartition of the INVITE -> 200 rtd
# "setup"; "all": every call set up, however late) between stat rows
# FROM and TO.
timely_window() {
	awk -F';' -v a="$2" -v b="$3" -v ms="${4:-500}" "$SIPP_COLS"'
		NR == 1 { for(i = 1; i <= NF; i++) { n = col($i)
				if(n ~ /^ResponseTimeRepartitionsetup_/ && (ms == "all" ||
					(n ~ /_<[0-9]+$/ &&
					substr(n, index(n, "<") + 1) + 0 <= ms + 0))) c[i] = 1 }
			next }
		{ r = NR - 1; s = 0; for(i in c) s += $i
			if(r == a) va = s; if(r <= b) vb = s }
		END { print vb - va }' "$T_DIR/$1/stat.csv"
}

# timely_rate NAME FROM TO / completed_rate NAME FROM TO: calls/s set up
# within 500 ms at the UAC NAME, or completed (ACK to the 200) at the UAS
# NAME, between stat rows FROM and TO (one decimal).
timely_rate() {
	awk -v n="$(timely_window "$1" "$2" "$3")" -v d="$(($3 - $2))" \
		'BEGIN { printf "%.1f\n", n / d }'
}
completed_rate() {
	awk -v n="$(counts_window "$1" 2_ACK_Recv "$2" "$3")" -v d="$(($3 - $2))" \
		'BEGIN { printf "%.1f\n", n / d }'
}

# setup_stats NAME: mean and p95 INVITE->200 (ms) of the calls whose 200
# came within [WIN_FROM, SECS] s, from SIPp's rtt trace (uac_run with
# -trace_rtt; rows: ms since SIPp started;rtt ms;rtd); "0 0" if none.
setup_stats() {
	local f
	f=$(ls "$T_DIR/$1"/*_rtt.csv 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo "0 0"; return; }
	awk -F';' -v a="$WIN_FROM" -v b="$SECS" '
		NR == 1 || $1 !~ /^[0-9.]+$/ { next }
		{ t = $1 / 1000; if(t >= a && t <= b) print $2 }' "$f" |
		sort -g | awk '{ v[++n] = $1; s += $1 }
		END { if(!n) { print "0 0"; exit }
			k = int(0.95 * n + 0.5); if(k < 1) k = 1
			printf "%.1f %.1f\n", s / n, v[k] }'
}

# CPU per call (µs) of the capped proxy at 150 calls/s on the machine the
# overload tests' rates were set on (measured by load_cost_us there:
# 823-883 µs on the project's 2-core machine, 2026-11-23).
OVC_REF_US_PER_CALL=${OVC_REF_US_PER_CALL:-850}

# load_cost_us: sets LOAD_COST to the CPU per forwarded call, µs, of the
# test proxy (ovc, occ) in a cgroup capped at 20 ms / 100 ms at 150
# calls/s for 4 s (well below capacity), read from the cgroup's CPU
# usage (cg_usage_ns). Starts and stops its own kamailio and SIPp.
load_cost_us() {
	local cg u0 u1 n=600
	cg=$(cg_make 20000 100000)
	LOAD_COST=0
	kam_start -c "$cg" -n cost 'OVC_ALGORITHM="occ"' || return 1
	uas_start cost_uas
	u0=$(cg_usage_ns "$cg")
	UAC_TIMEOUT=20 uac_run cost_uac 150 "$n"
	sleep 1 # the last BYEs
	u1=$(cg_usage_ns "$cg")
	uas_stop
	kam_stop
	LOAD_COST=$(awk -v a="$u0" -v b="$u1" -v n="$n" \
		'BEGIN { printf "%.0f\n", (b - a) / 1000 / n }')
}

# load_cache_key: what a cached load measurement holds for: this boot and
# the module under test (its digest): a module whose CPU per call changed
# measures again (a cache from an older build once set rates 9 % off).
load_cache_key() {
	local d
	d=$(sha256sum "$MOD" 2>/dev/null | cut -c1-12)
	echo "$(cat /proc/sys/kernel/random/boot_id).${d:-nomod}"
}

# load_scale: sets LOAD_SCALE to how many times faster this machine
# forwards a call than the one the overload tests' rates were set on (the
# ratio of load_cost_us), clamped to [0.6, 1.6], so that "3x capacity"
# stays 3x on a faster or slower machine. Measured once per boot and
# module build (cached in /tmp, load_cache_key); OVC_LOAD_SCALE overrides
# (1: the rates as written).
load_scale() {
	local cache
	if [ -n "${OVC_LOAD_SCALE:-}" ]; then
		LOAD_SCALE=$OVC_LOAD_SCALE
		return
	fi
	cache="/tmp/ovc-load-scale.$(load_cache_key)"
	if [ ! -s "$cache" ]; then
		if ! load_cost_us || [ "${LOAD_COST:-0}" -le 0 ]; then
			fail "load scale: the CPU per call was not measured"
			LOAD_SCALE=1
			return 1
		fi
		awk -v r="$OVC_REF_US_PER_CALL" -v c="$LOAD_COST" 'BEGIN {
			s = c > 0 ? r / c : 1; if(s < 0.6) s = 0.6; if(s > 1.6) s = 1.6
			printf "%.3f %s\n", s, c }' >"$cache"
	fi
	read -r LOAD_SCALE LOAD_COST <"$cache"
	log "load scale $LOAD_SCALE (CPU per call $LOAD_COST us here," \
		"$OVC_REF_US_PER_CALL us where the rates were set)"
}

# The INVITEs/s the capped proxy (20 ms / 100 ms, occ) admits under
# overload where the overload tests' rates were set (0.2 CPU: capacity
# ~350 calls/s, bench/RESULTS.md), at load scale 1.
OVC_REF_CAP=${OVC_REF_CAP:-350}

# load_capacity: sets LOAD_CAP to the INVITEs/s the proxy in a cgroup
# capped at 20 ms / 100 ms, ovc deciding with occ (no in-core queue),
# admits while it is offered scaled(1200) calls/s (about 3x): ovc's
# admissions counted from the 2nd to the 4th second of a 5 s run. The CPU
# per call at 150 calls/s (load_scale) does not tell it across Kamailio
# versions: 835 us on 6.0.1 as 850 on 5.6.3, yet under overload 6.0.1
# admits 550-690 INVITEs/s at that cap where 5.6.3 admits ~240 (t_kstage,
# 2026-11-28). Measured once per Kamailio version, boot and module
# build (cached in /tmp, load_cache_key); OVC_LOAD_CAP overrides.
load_capacity() {
	local cache kv cg rate uac a0 a1 t0 t1
	if [ -n "${OVC_LOAD_CAP:-}" ]; then
		LOAD_CAP=$OVC_LOAD_CAP
		return
	fi
	kv=$(kamailio -V 2>/dev/null |
		sed -n 's/^version: kamailio \([0-9.]*\).*/\1/p')
	cache="/tmp/ovc-load-cap.${kv:-unknown}.$(load_cache_key)"
	if [ ! -s "$cache" ]; then
		load_scale
		rate=$(scaled 1200)
		cg=$(cg_make 20000 100000)
		kam_start -c "$cg" -n cap 'OVC_ALGORITHM="occ"' 'OVC_QUEUE_SIZE=0'
		uas_start cap_uas
		UAC_TIMEOUT=30 uac_run cap_uac "$rate" $((rate * 5)) &
		uac=$!
		T_PIDS+=("$uac")
		sleep 2
		a0=$(stats_class invite admitted)
		t0=$(date +%s%N)
		sleep 2
		a1=$(stats_class invite admitted)
		t1=$(date +%s%N)
		wait "$uac" || true
		uas_stop
		kam_stop
		awk -v a="$((a1 - a0))" -v t="$((t1 - t0))" \
			'BEGIN { printf "%.0f\n", a * 1e9 / t }' >"$cache"
	fi
	read -r LOAD_CAP <"$cache"
}

# capped_quota Q: sets CAP_QUOTA to the CPU quota (us per 100 ms) that
# gives the capped proxy the capacity the tests' rates expect at quota Q
# (OVC_REF_CAP x LOAD_SCALE at 20 ms): Q itself unless the capacity
# measured at 20 ms (load_capacity) is more than 1.4 times that, then Q
# divided by the ratio. The tests drive the proxy with SIPp's UAC and UAS,
# uncapped on the same two cores: 6.0.1's capacity at 20 % of a core took
# t_queue's past what they keep up with (calls aborted on tm's late 408s;
# it passes at 10.4 ms on 6.0.1, 13.0 ms on 6.1.5), where a lower quota
# keeps the load its rates were set for. Not (yet) for t_kstage (6.0.1
# passes at 10.4 ms, but 6.1.5 at 13.0 ms saw a second overload onset
# within the flood, which its check refuses) nor t_algorithms (its 4 s
# overload at the lower quota set up fewer of the controllers' calls in
# time, 86-89 %, and no control's more). Logs what it chose.
capped_quota() {
	local want
	load_scale
	load_capacity
	want=$(awk -v r="$OVC_REF_CAP" -v s="$LOAD_SCALE" 'BEGIN { printf "%.0f\n", r * s }')
	CAP_QUOTA=$(awk -v q="$1" -v c="$LOAD_CAP" -v w="$want" 'BEGIN {
		r = w > 0 ? c / w : 1; printf "%d\n", (r > 1.4 ? q / r + 0.5 : q) }')
	log "capacity at 20 ms / 100 ms: $LOAD_CAP INVITEs/s admitted ($want" \
		"where the rates were set): quota $1 us -> $CAP_QUOTA us"
}

# PROBE_MS: the setup time (ms; 50, 100, 200 or 500) within which a
# probe must set up its calls. 200, under the T1/2 = 250 ms wait at which
# ovc starts an overload: a probe counting 500 ms passed rates at which
# the plain proxy kept a 300-400 ms backlog for seconds (a rate slightly
# over capacity builds its backlog slowly), and at 0.9x of such a rate
# ovc rightly saw overload (t_defaults_below, 2026-11-26: probes of 363
# and 332 calls/s on the same machine within two hours).
PROBE_MS=${PROBE_MS:-200}

# plain_run CG NAME RATE SECS: Kamailio without ovc (kamailio NAME) in
# cgroup CG offered RATE calls/s for SECS by uac_run (UAC NAME_uac, UAS
# NAME_uas); sets PLAIN_DONE (calls whose ACK reached the UAS),
# PLAIN_TIMELY (set up within 500 ms) and PLAIN_FAILED (SIPp's failed
# calls). Returns 1 when kamailio did not start.
plain_run() {
	local cg=$1 name=$2 rate=$3 secs=$4
	kam_start -c "$cg" -n "$name" NO_OVC || return 1
	uas_start "${name}_uas"
	UAC_TIMEOUT=$((secs + 30)) uac_run "${name}_uac" "$rate" $((rate * secs))
	uas_stop
	kam_stop
	PLAIN_DONE=$(counts_col "${name}_uas" 2_ACK_Recv)
	PLAIN_TIMELY=$(timely_window "${name}_uac" 0 100000)
	PLAIN_FAILED=$(stat_col "${name}_uac" 'FailedCall(C)')
}

# plain_on_time CG NAME RATE SECS: the proxy in cgroup CG deciding nothing
# (`none`, kamailio NAME; with PROBE_PLAIN=1 no ovc loaded at all) offered
# RATE calls/s for SECS (probe_run, its UAC in NAME_uac); PROBE_LATE,
# PROBE_WHY and PROBE_AT say how it went. Returns 0 when it set its calls
# up in time (not probe_late), 1 when it was late, 2 when kamailio did
# not start.
plain_on_time() {
	local cg=$1 name=$2 rate=$3 secs=$4 calls=$(($3 * $4)) rc=1
	local def='OVC_ALGORITHM="none"'
	[ "${PROBE_PLAIN:-0}" != 1 ] || def=NO_OVC
	kam_start -c "$cg" -n "$name" "$def" || return 2
	uas_start "${name}_uas"
	if probe_run "${name}_uac" "$rate" "$calls" $((secs + 10)) &&
		! probe_late "${name}_uac" "$rate" "$calls"; then
		rc=0
	fi
	uas_stop
	kam_stop
	sleep 1
	return "$rc"
}

# probe_capacity CG SECS [TRIES]: sets PROBED_CAP to the capacity of the
# proxy in cgroup CG as measured, not assumed: ovc deciding nothing
# (`none`) is offered a probe rate for SECS; while the plain proxy is late
# at that rate (probe_late) the probe is over capacity and the next one is
# 8 % lower (at most TRIES, default 5); a probe that is already late stops
# there (probe_run). The capacity found passes PROBE_CONFIRM + 1 times in
# a row (default 2: the machine's speed drifts, and one lucky run at the
# edge made t_defaults_below test "0.9x" of a rate the proxy could not hold
# minutes later). When the first rate passes, the capacity may be far
# above it (load_scale misjudges a machine's speed near its capacity: a
# t_nexthop core probed at 103/s took 166/s): the probe then goes up by
# 15 % after each pass (at most TRIES steps, to 2x at 5) until a rate
# fails, and the last rate that passed, run again until it has passed
# PROBE_CONFIRM + 1 times, is the capacity; when it fails that, the rate
# passed before it on the way up is run again, and so on, and with none
# left the probe goes down. The rates passed on the way up are run once
# (a make check spent 10 runs where 6 do). The first
# probe is PROBE_START (default 350, for a 20 ms / 100 ms quota) calls/s
# scaled (load_scale). Returns 1 when no probe passed.
probe_capacity() {
	local cg=$1 secs=$2 tries=${3:-5} n=0 probe calls name rc
	local need=$((${PROBE_CONFIRM:-1} + 1)) passed=0 runs=0 up=0
	local rising=1
	local -a upward=() # the rates passed on the way up, lowest first
	load_scale
	probe=$(scaled "${PROBE_START:-350}")
	while [ "$n" -lt "$tries" ]; do
		runs=$((runs + 1))
		name="probe_$runs"
		calls=$((probe * secs))
		rc=0
		plain_on_time "$cg" "$name" "$probe" "$secs" || rc=$?
		if [ "$rc" -eq 2 ]; then
			fail "probe: kamailio did not start"
			return 1
		fi
		if [ "$rc" -eq 0 ]; then
			log "probe: no control at $probe/s set up all but" \
				"$PROBE_LATE of $calls within $PROBE_MS ms ($PROBE_WHY)"
			passed=$((passed + 1))
		else
			log "probe: no control at $probe/s set $PROBE_LATE of" \
				"$calls up late ($PROBE_WHY) after $PROBE_AT s:" \
				"over capacity"
			passed=0
		fi
		if [ "$rising" -eq 1 ]; then
			if [ "$passed" -gt 0 ] && [ "$up" -lt "$tries" ]; then
				upward+=("$probe") # going up: one pass takes the next step
				up=$((up + 1))
				passed=0
				probe=$(awk -v p="$probe" 'BEGIN { printf "%d\n", 1.15 * p }')
				continue
			fi
			rising=0 # confirm this rate (at the step limit) or the last passed
		fi
		if [ "$rising" -eq 0 ] && [ "$passed" -eq 0 ] &&
			[ "${#upward[@]}" -gt 0 ]; then
			probe=${upward[-1]} # it passed once: run it again
			unset 'upward[-1]'
			passed=1
		fi
		if [ "$passed" -ge "$need" ]; then
			PROBED_CAP=$probe
			return 0
		fi
		if [ "$passed" -eq 0 ]; then
			n=$((n + 1))
			probe=$(awk -v p="$probe" 'BEGIN { printf "%d\n", 0.92 * p }')
		fi
	done
	fail "no control set up its calls within $PROBE_MS ms at every probe" \
		"down to $probe/s"
	return 1
}

# probe_late NAME RATE CALLS: whether the plain proxy of probe run NAME
# (offered RATE calls/s, CALLS in all) is late, i.e. over capacity: more
# than PROBE_LATE_PCT (default 2) % of CALLS set up in PROBE_MS or more, or
# calls set up late in PROBE_LATE_RUN (default 3) consecutive seconds, more
# than 1 % of RATE in each. A rate over capacity keeps a backlog that only
# grows, so its late calls fill every second from the moment it passes
# PROBE_MS; a stall of the machine (a CI host's neighbours, the hypervisor)
# makes the calls of a second or two late and passes: counting any 0.5 %
# of late calls as overload made a CI run find no rate down to 258/s
# where this machine handles 306-468/s. Sets PROBE_LATE (late calls) and
# PROBE_WHY (the longest late run of seconds); returns 0 when late.
probe_late() {
	local out
	out=$(awk -F';' -v ms="$PROBE_MS" -v rate="$2" -v calls="$3" \
		-v pct="${PROBE_LATE_PCT:-2}" -v need="${PROBE_LATE_RUN:-3}" \
		"$SIPP_COLS"'
		NR == 1 { for(i = 1; i <= NF; i++) { n = col($i)
				if(n ~ /^ResponseTimeRepartitionsetup_/) {
					all[i] = 1
					if(n ~ /_<[0-9]+$/ &&
						substr(n, index(n, "<") + 1) + 0 <= ms + 0)
						in_time[i] = 1
				} }
			next }
		{ late = 0; for(i in all) if(!(i in in_time)) late += $i
			if(late - prev > 0.01 * rate) { run++; if(run > best) best = run }
			else run = 0
			prev = late }
		END { printf "%d %d %d\n", late, best,
				(late > pct / 100 * calls || best >= need) }' \
		"$T_DIR/$1/stat.csv")
	set -- $out
	PROBE_LATE=$1
	PROBE_WHY="late in at most $2 s in a row"
	[ "$3" -eq 1 ]
}

# probe_run NAME RATE CALLS TIMEOUT: uac_run's UAC (results in
# $T_DIR/NAME/) in the background, its stats read every half second; it is
# stopped as soon as the proxy is late (probe_late): no remainder of the
# run can then pass, so the verdict is the one the whole run would give (a
# probe well over capacity fails within a few seconds instead of running
# its length). Returns 1 when stopped, with PROBE_LATE, PROBE_WHY and
# PROBE_AT (seconds into the run) set.
probe_run() {
	local name=$1 rate=$2 calls=$3 tmo=$4 pid t0
	mkdir -p "$T_DIR/$name"
	(cd "$T_DIR/$name" && uac_exec "$rate" "$calls" "$tmo") &
	pid=$!
	T_PIDS+=("$pid")
	t0=$(date +%s)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.5
		[ -s "$T_DIR/$name/stat.csv" ] || continue
		if probe_late "$name" "$rate" "$calls"; then
			kill "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			PROBE_AT=$(($(date +%s) - t0))
			return 1
		fi
	done
	wait "$pid" 2>/dev/null || true
	PROBE_AT=$(($(date +%s) - t0))
	return 0
}

# scaled R: R calls/s times LOAD_SCALE (load_scale first), rounded.
scaled() {
	awk -v r="$1" -v s="${LOAD_SCALE:-1}" 'BEGIN { printf "%d\n", r * s + 0.5 }'
}
