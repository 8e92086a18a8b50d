#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A bad modparam value stops kamailio at start-up with a message naming
# the parameter and the accepted range; a good one passes kamailio -c.
. "$(dirname "$0")/lib.sh"

# cfg_with LINE: the proxy cfg with LINE added after ovc's modparams.
cfg_with() {
	sed "/^modparam(\"rr\", \"enable_full_lr\"/a $1" "$CFG" >"$T_DIR/t.cfg"
}

# expect_bad LINE PATTERN: kamailio started with LINE must stop at once
# (at the modparam, or in ovc's mod_init for the constraints between
# parameters, which kamailio -c does not run) and print PATTERN. Bounded:
# a kamailio that would start is stopped after 10 s (and fails the test).
tried=" "
expect_bad() {
	local line=$1 pat=$2 out rc
	[[ $line =~ ^modparam\(\"ovc\",\ \"([a-z_]+)\" ]] &&
		tried+="${BASH_REMATCH[1]} "
	cfg_with "$line"
	set +e
	out=$(timeout 10 kamailio -f "$T_DIR/t.cfg" -DD -E -Y "$T_DIR" \
		-P "$T_DIR/bad.pid" -A "OVC_SO=\"$MOD\"" \
		-A "CTL_SOCK=\"$CTL\"" -A "LISTEN=udp:127.0.0.1:$PROXY_PORT" 2>&1)
	rc=$?
	set -e
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s\n' "$out" | grep -qE "$pat" &&
		! printf '%s\n' "$out" | grep -q "config file ok"; then
		ok "refused: $line -> $(printf '%s\n' "$out" | grep -m1 -oE "$pat")"
	else
		fail "not refused as expected: $line (rc=$rc)"
		printf '%s\n' "$out" | tail -5
	fi
}

cfg_with 'modparam("ovc", "reject_code", 500)'
if kamailio -c -f "$T_DIR/t.cfg" -A "OVC_SO=\"$MOD\"" -A "CTL_SOCK=\"$CTL\"" \
	-A "LISTEN=udp:127.0.0.1:$PROXY_PORT" >"$T_DIR/good.log" 2>&1; then
	ok "a valid configuration passes kamailio -c"
else
	fail "a valid configuration is refused"
	tail -5 "$T_DIR/good.log"
fi

# parameters bound to each other are checked once all are read: either
# order of rsoca.cmin=0.5 (above the default cmax) and rsoca.cmax=0.8 passes
for order in 'rsoca.cmin=0.5 rsoca.cmax=0.8' 'rsoca.cmax=0.8 rsoca.cmin=0.5'; do
	set -- $order
	cfg_with "modparam(\"ovc\", \"param\", \"$1\")\nmodparam(\"ovc\", \"param\", \"$2\")"
	if kamailio -c -f "$T_DIR/t.cfg" -A "OVC_SO=\"$MOD\"" -A "CTL_SOCK=\"$CTL\"" \
		-A "LISTEN=udp:127.0.0.1:$PROXY_PORT" >"$T_DIR/order.log" 2>&1; then
		ok "modparams $1 then $2 pass kamailio -c"
	else
		fail "modparams $1 then $2 refused"
		tail -3 "$T_DIR/order.log"
	fi
done
expect_bad 'modparam("ovc", "param", "rsoca.cmax=0.1")' \
	'"param": rsoca.cmin \(0.2\) must be less than rsoca.cmax \(0.1\)'

# the proxy cfg is ready for every algorithm
for a in none bbc occ occupancy aro sired rsoca pi; do
	if kamailio -c -f "$CFG" -A "OVC_SO=\"$MOD\"" -A "CTL_SOCK=\"$CTL\"" \
		-A "LISTEN=udp:127.0.0.1:$PROXY_PORT" -A "OVC_ALGORITHM=\"$a\"" \
		>"$T_DIR/alg-$a.log" 2>&1; then
		ok "configs/ovc-proxy.cfg with algorithm $a passes kamailio -c"
	else
		fail "configs/ovc-proxy.cfg with algorithm $a refused"
		tail -3 "$T_DIR/alg-$a.log"
	fi
done

expect_bad 'modparam("ovc", "param", "occ.target=1.7")' \
	'"param": occ.target: 1.7 is outside \[0.01, 1\]'
expect_bad 'modparam("ovc", "param", "occ.target=abc")' '"param": occ.target'
expect_bad 'modparam("ovc", "param", "nosuch.knob=1")' '"param": .*nosuch.knob'
expect_bad 'modparam("ovc", "param", "rsoca.mem_source=3")' \
	'"param": rsoca.mem_source: 3 is outside \[0, 2\]'
expect_bad 'modparam("ovc", "param", "rsoca.reap_b=1.5")' \
	'"param": rsoca.ben \(1.7\) must be less than rsoca.reap_b \(1.5\)'
expect_bad 'modparam("ovc", "algorithm", "fastest")' \
	'"algorithm": unknown .fastest.'
expect_bad 'modparam("ovc", "mode", "both")' \
	'"mode": unknown .both. \(one of multi, single\)'
expect_bad 'modparam("ovc", "cpu_capacity", "-2")' '"cpu_capacity": .-2.'
expect_bad 'modparam("ovc", "reject_code", 99)' \
	'"reject_code": 99 is out of range \[400, 699\]'
expect_bad 'modparam("ovc", "retry_after", -1)' '"retry_after": -1 is out of range'
expect_bad 'modparam("ovc", "dry_run", 2)' '"dry_run": 2 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "stats_history", 1)' '"stats_history": 1 is out of range'
expect_bad 'modparam("ovc", "stats_history", 3601)' \
	'"stats_history": 3601 is out of range \[10, 3600\]'
expect_bad 'modparam("ovc", "queue_size", -1)' \
	'"queue_size": -1 is out of range \[0, 1048576\]'
expect_bad 'modparam("ovc", "queue_workers", 65)' \
	'"queue_workers": 65 is out of range \[0, 64\]'
expect_bad 'modparam("ovc", "queue_bypass", 2)' \
	'"queue_bypass": 2 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "queue_max_wait", 60001)' \
	'"queue_max_wait": 60001 is out of range \[-1, 60000\]'
expect_bad 'modparam("ovc", "queue_max_bytes", -1)' \
	'"queue_max_bytes": -1 is out of range \[0, 2147483647\]'
expect_bad 'modparam("ovc", "rcvbuf_udp", -2)' \
	'"rcvbuf_udp": -2 is out of range \[-1, 100000\]'
expect_bad 'modparam("ovc", "rcvbuf_tcp", 100001)' \
	'"rcvbuf_tcp": 100001 is out of range \[0, 100000\]'
expect_bad 'modparam("ovc", "param", "rxq.max_age_ms=-5")' \
	'"param": rxq.max_age_ms: -5 is outside \[-1, 60000\]'
expect_bad 'modparam("ovc", "param", "rxq.sample_ms=0")' \
	'"param": rxq.sample_ms: 0 is outside \[1, 1000\]'
expect_bad 'modparam("ovc", "param", "rxq.guard_f_min=1.5")' \
	'"param": rxq.guard_f_min: 1.5 is outside \[0, 1\]'
expect_bad 'modparam("ovc", "emergency", "sos,,911")' \
	'"emergency": emergency: empty entry'
expect_bad 'modparam("ovc", "emergency", "s os")' '"emergency": .*space'
expect_bad 'modparam("ovc", "emergency_priority", 2)' \
	'"emergency_priority": 2 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "param", "rsoca.reject_code=501")' \
	'"param": rsoca.reject_code: 501 is not 500 or 503'
expect_bad 'modparam("ovc", "param", "rsoca.tretry=-1")' \
	'"param": rsoca.tretry: -1 is outside \[0, 86400\]'
expect_bad 'modparam("ovc", "cpu_capacity", "4097")' \
	'"cpu_capacity": .4097. is not "auto" or a number of CPUs in \(0, 4096\]'
expect_bad 'modparam("ovc", "cpu_source", "gpu")' \
	'"cpu_source": unknown .gpu. \(one of procs, system, cgroup, auto\)'
expect_bad 'modparam("ovc", "algorithm", "OCC")' \
	'"algorithm": unknown .OCC. \(one of none, bbc, occ, occupancy, aro, sired, rsoca, pi\)'
expect_bad 'modparam("ovc", "reject_code", 700)' \
	'"reject_code": 700 is out of range \[400, 699\]'
expect_bad 'modparam("ovc", "reject_reason", "")' \
	'"reject_reason": length must be 1..128'
expect_bad 'modparam("ovc", "reject_reason", "Busy\\r\\nX-Injected: 1")' \
	'"reject_reason": no CR/LF allowed'
expect_bad 'modparam("ovc", "retry_after", 86401)' \
	'"retry_after": 86401 is out of range \[0, 86400\]'
expect_bad 'modparam("ovc", "fast_path", 2)' \
	'"fast_path": 2 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "queue_workers", -1)' \
	'"queue_workers": -1 is out of range \[0, 64\]'
expect_bad 'modparam("ovc", "queue_max_wait", -2)' \
	'"queue_max_wait": -2 is out of range \[-1, 60000\]'
expect_bad 'modparam("ovc", "rcvbuf_udp", 100001)' \
	'"rcvbuf_udp": 100001 is out of range \[-1, 100000\]'
expect_bad 'modparam("ovc", "rcvbuf_tcp", -1)' \
	'"rcvbuf_tcp": -1 is out of range \[0, 100000\]'
expect_bad 'modparam("ovc", "emergency_priority", -1)' \
	'"emergency_priority": -1 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "network_mode", "hops")' \
	'"network_mode": unknown .hops. \(one of local, hop, e2e\)'
expect_bad 'modparam("ovc", "kstage", 2)' '"kstage": 2 is out of range \[0, 1\]'
expect_bad 'modparam("ovc", "fair_key", "sources")' \
	'"fair_key": .sources. is not "source", "off" or a pseudo-variable format'
expect_bad 'modparam("ovc", "kstage_budget", 0)' \
	'"kstage_budget": 0 is out of range \[1, 100\]'
expect_bad 'modparam("ovc", "tcp_sendq_max", -2)' \
	'"tcp_sendq_max": -2 is out of range \[-1, 2147483647\]'
expect_bad 'modparam("ovc", "mss_tcp", -2)' \
	'"mss_tcp": -2 is out of range \[-1, 32767\]'
expect_bad 'modparam("ovc", "mss_tcp", 32768)' \
	'"mss_tcp": 32768 is out of range \[-1, 32767\]'

# every modparam of the module's table had at least one bad value
for n in $(grep -oE '^OVC_MP_(INT|ENUM|STR)\([a-z_]+' \
	"$TOP/modules/ovc/ovc_modparams.def" | cut -d'(' -f2); do
	case "$tried" in
	*" $n "*) ;;
	*) fail "modparam $n: no bad value tried" ;;
	esac
done
ok "every modparam of ovc_modparams.def had a bad value tried"

# transactions as R-SOCA's memory source need tm: without it (a cfg that
# loads no tm) the server must not start
cat >"$T_DIR/notm.cfg" <<EOF
debug=1
log_stderror=yes
listen=udp:127.0.0.1:$PROXY_PORT
loadmodule "sl.so"
loadmodule "ctl.so"
loadmodule "$MOD"
modparam("ctl", "binrpc", "$CTL")
modparam("ovc", "algorithm", "rsoca")
modparam("ovc", "param", "rsoca.mem_source=1")
request_route { drop; }
EOF
set +e
out=$(timeout 20 kamailio -f "$T_DIR/notm.cfg" -DD -E -P "$T_DIR/notm.pid" \
	-Y "$T_DIR" 2>&1)
rc=$?
set -e
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && printf '%s\n' "$out" |
	grep -q 'rsoca.mem_source=1 (transactions) needs the tm module'; then
	ok "rsoca.mem_source=1 without tm stops kamailio at start (rc=$rc)"
else
	fail "rsoca.mem_source=1 without tm not refused (rc=$rc)"
	printf '%s\n' "$out" | tail -3
fi
rm -f "$T_DIR/ctl"

# a bad flag to ovc_admit() is refused when the script is fixed up, which
# kamailio -c does not do: start the server for real, it must exit
sed 's/^\tovc_admit();/\tovc_admit("loud");/' "$CFG" >"$T_DIR/t.cfg"
set +e
out=$(timeout 20 kamailio -f "$T_DIR/t.cfg" -DD -E -P "$T_DIR/flag.pid" \
	-Y "$T_DIR" -A "OVC_SO=\"$MOD\"" -A "CTL_SOCK=\"$CTL\"" \
	-A "LISTEN=udp:127.0.0.1:$PROXY_PORT" 2>&1)
rc=$?
set -e
if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
	printf '%s\n' "$out" | grep -q 'ovc_admit("loud"): unknown flag'; then
	ok "ovc_admit(\"loud\") stops kamailio at start (rc=$rc)"
else
	fail "ovc_admit(\"loud\") not refused (rc=$rc)"
fi
finish
