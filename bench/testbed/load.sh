# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/load.sh - SIPp load generators and receivers on the testbed.
# Sourced (after lib.sh), never run. Every SIPp is bounded: -timeout
# (SIPp's own global limit) and an outer `timeout`, and its PID is
# tracked so that `down` can stop it after a crash.

BENCH_SCEN="$BENCH_TOP/scenarios"

# control port of each SIPp (distinct, so loopback mode works too)
sipp_ctl_port() {
	case "$1" in
	uac1) echo 8881 ;;
	uac2) echo 8882 ;;
	uas1) echo 8891 ;;
	uas2) echo 8892 ;;
	flood) echo 8883 ;;
	*) echo 8899 ;;
	esac
}

# sipp_start NAME DIR LIFETIME_S ARGS... : SIPp NAME (a host: uac1, uas2,
# ...; or "flood", which runs on uac2's host, port 5062), cwd DIR/NAME
# (where it writes its rtt file), stats in DIR/NAME_stat.csv, output in
# DIR/NAME.log. Prints nothing; the PID goes to DIR/NAME.pid.
sipp_start() {
	local n=$1 dir=$2 life=$3 h=$1 port=$BENCH_SIP_PORT pid
	local -a pfx=()
	shift 3
	if [ "$n" = flood ]; then
		h=uac2
		port=$((BENCH_SIP_PORT + 2))
	fi
	mkdir -p "$dir/$n"
	if [ "$(bench_mode)" = netns ]; then
		pfx=(nsenter --net="/run/netns/$(bench_ns "$h")" --)
	fi
	(
		cd "$dir/$n"
		exec timeout -k 3 "$((life + 10))" \
			"${pfx[@]}" "$BENCH_BIN/ovc-caps" drop -- \
			sipp "$@" -i "$(bench_ip "$h")" -p "$port" \
			-cp "$(sipp_ctl_port "$n")" -nostdin -timeout "${life}s" \
			-trace_stat -fd 1 -stf "$dir/${n}_stat.csv" \
			-trace_rtt -rtt_freq 1 -trace_err -error_file "$dir/${n}_err.log" \
			-trace_counts
	) >"$dir/$n.log" 2>&1 &
	pid=$!
	bench_track_pid "$pid" timeout
	echo "$pid" >"$dir/$n.pid"
}

# uas_start HOST DIR LIFETIME_S [SCENARIO]
uas_start() {
	local h=$1 dir=$2 life=$3 scen=${4:-uas.xml}
	sipp_start "$h" "$dir" "$life" -sf "$BENCH_SCEN/$scen" -bind_local
}

# uac_start HOST DIR LIFETIME_S UAS_HOST RATE RETRANS(yes|no) [HOLD_MS]
# The UAC sends to the proxy host BENCH_UAC_PROXY (default proxy, the
# core; edge1.. in multi-hop topologies).
uac_start() {
	local h=$1 dir=$2 life=$3 uas=$4 rate=$5 retrans=$6 hold=${7:-0}
	local -a extra=()
	local scen=uac-bench.xml
	if [ "$retrans" = no ]; then
		scen=uac-nr.xml
		extra=(-nr)
	fi
	sipp_start "$h" "$dir" "$life" \
		"$(bench_ip "${BENCH_UAC_PROXY:-proxy}"):$BENCH_SIP_PORT" \
		-sf "$BENCH_SCEN/$scen" -bind_local \
		-key uas "$(bench_ip "$uas"):$BENCH_SIP_PORT" \
		-r "$rate" -rp 1000 -d "$hold" -l 200000 "${extra[@]}"
}

# flood_start DIR LIFETIME_S RATE: BYE flood (paper 004) from uac2's host,
# in-dialog-looking BYEs to the proxy, no retransmissions
flood_start() {
	local dir=$1 life=$2 rate=$3
	sipp_start flood "$dir" "$life" "$(bench_ip proxy):$BENCH_SIP_PORT" \
		-sf "$BENCH_SCEN/bye-flood.xml" -bind_local -nr \
		-key uas "$(bench_ip uas2):$BENCH_SIP_PORT" -r "$rate" -rp 1000 \
		-l 200000
}

# send a command to a SIPp's control socket (inside its host)
sipp_cmd() {
	local n=$1 h=$1
	shift
	[ "$n" = flood ] && h=uac2
	on_host "$h" bash -c 'echo "$1" >"/dev/udp/127.0.0.1/$2"' sh "$*" \
		"$(sipp_ctl_port "$n")" 2>/dev/null || true
}

sipp_rate() { sipp_cmd "$1" "cset rate $2"; }

# stop a SIPp: quit (finish calls), then TERM after WAIT s, by PID
sipp_stop() {
	local h=$1 dir=$2 wait_s=${3:-3} pid i
	[ -f "$dir/$h.pid" ] || return 0
	pid=$(cat "$dir/$h.pid")
	sipp_cmd "$h" q
	for ((i = 0; i < wait_s * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	bench_stop_pid "$pid" 3
	rm -f "$dir/$h.pid"
	# SIPp names its rtt file after the scenario and its PID
	local f
	for f in "$dir/$h"/*_rtt.csv; do
		[ -e "$f" ] && mv "$f" "$dir/${h}_rtt.csv"
	done
	rmdir "$dir/$h" 2>/dev/null || true
	return 0
}

# uas_register HOST DIR: the UAS host registers through the proxy before
# taking calls (paper 001 §4.3). ovc-proxy.cfg has no location service:
# the REGISTER is relayed (Request-URI) to a registrar stub on the same
# host, port 5070; the proxy still sees it as class "register". Returns
# 0 once the 200 came back (bounded: 8 s).
uas_register() {
	local h=$1 dir=$2 ip rc=0
	local -a pfx=()
	ip=$(bench_ip "$h")
	if [ "$(bench_mode)" = netns ]; then
		pfx=(nsenter --net="/run/netns/$(bench_ns "$h")" --)
	fi
	mkdir -p "$dir/reg_$h"
	(
		cd "$dir/reg_$h"
		timeout -k 2 10 "${pfx[@]}" "$BENCH_BIN/ovc-caps" drop -- \
			sipp -sf "$BENCH_SCEN/registrar.xml" -i "$ip" -p 5070 -bind_local \
			-m 1 -timeout 8s -nostdin -cp "$(($(sipp_ctl_port "$h") + 100))" \
			>/dev/null 2>&1 &
		sleep 0.3
		timeout -k 2 10 "${pfx[@]}" "$BENCH_BIN/ovc-caps" drop -- \
			sipp "$(bench_ip proxy):$BENCH_SIP_PORT" \
			-sf "$BENCH_SCEN/register.xml" -i "$ip" -p 5071 -bind_local \
			-key registrar "$ip:5070" -key contact "$ip:$BENCH_SIP_PORT" \
			-m 1 -timeout 8s -nostdin -cp "$(($(sipp_ctl_port "$h") + 200))"
		rc=$?
		wait
		exit $rc
	) >"$dir/reg_$h.log" 2>&1 || rc=$?
	rm -rf "$dir/reg_$h"
	return $rc
}
