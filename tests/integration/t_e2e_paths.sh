#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end behind two paths (issue 18, RFC 7339): an edge proxy in
# network_mode e2e with two next hops, one a server asking for a 60 %
# loss reduction (a SIPp UAS that writes oc=60 into the proxy's Via:
# scenarios/uas-oc.xml), the other a plain UAS that sends no feedback.
# Callers offer oc (their Via), so the edge throttles none of their calls
# and tells them what the paths beyond it ask for:
#  1. every call to the 60 % hop: the edge announces 60;
#  2. a quarter of the calls to the 60 % hop, three quarters to the other:
#     the edge announces 60 x 1/4 = 15 (each next hop weighed by its share
#     of the calls; the largest of them, 60, would have the callers refuse
#     calls the second path can take);
# every call of both phases set up (no refusal at the edge, whose callers
# offer oc), and the fake server's value is what the edge's ovc.dst shows;
#  3. an overloaded path: behind a new edge a real ovc core (hop), capped
#     at 0.05 CPU and offered about 4x what it can take: the core refuses
#     and announces a reduction (its CSV's oc_reduction), and the edge
#     passes it on to its callers (the median oc of their 200s after the
#     first second is above 0 and at most the core's largest), refusing
#     none of their calls itself.
. "$(dirname "$0")/lib.sh"

SECS1=${SECS1:-4}
SECS2=${SECS2:-6}
RATE=${RATE:-40} # calls/s in phase 2, both callers together
SECS3=${SECS3:-5}
CORE_QUOTA_US=${CORE_QUOTA_US:-5000} # phase 3's core: 0.05 CPU

OC_PORT=$((T_BASE + 5))  # the server asking for 60 %
UAC2_PORT=$((T_BASE + 6)) # the second caller

# uac NAME SERVICE PORT RATE CALLS: a caller whose Via offers oc, its
# messages traced (NAME/msg.log), in the background (PID in UAC_PID)
sed 's/;branch=\[branch\]$/;branch=[branch];oc/' "$SCN/uac.xml" \
	>"$T_DIR/uac-oc.xml"
grep -q ';branch=\[branch\];oc$' "$T_DIR/uac-oc.xml" ||
	{ fail "uac-oc.xml: no Via to offer oc in"; finish; }
uac() {
	mkdir -p "$T_DIR/$1"
	(cd "$T_DIR/$1" && exec timeout 60 sipp -sf "$T_DIR/uac-oc.xml" \
		-i 127.0.0.1 -p "$3" "127.0.0.1:$PROXY_PORT" -s "$2" -r "$4" \
		-m "$5" -d 0 -l 100000 -nostdin -max_retrans 3 \
		-recv_timeout 12000 -trace_msg -message_file msg.log \
		-trace_stat -stf stat.csv -fd 1 >out.txt 2>&1) &
	UAC_PID=$!
	T_PIDS+=("$UAC_PID")
}
# oc values of the 200s to INVITEs a caller received, in order (its
# message log: the Via of each "SIP/2.0 200" whose CSeq is an INVITE)
oc_values() {
	awk '
		/^-----/ { resp = 0; next } # the next message of the log
		/^SIP\/2\.0 / { resp = ($2 == "200"); via = ""; next }
		resp && /^([Vv][Ii][Aa]|v)[ \t]*:/ && via == "" { via = $0 }
		resp && /^CSeq:.*INVITE/ {
			if(match(via, /;[ \t]*oc=[0-9]+/)) {
				v = substr(via, RSTART, RLENGTH); sub(/.*=/, "", v); print v
			}
			resp = 0
		}' "$1"
}
# median of the values after the first SKIP ones
median_after() {
	tail -n +$(($1 + 1)) | sort -n | awk '{ v[NR] = $1 }
		END { print NR ? v[int((NR + 1) / 2)] : -1 }'
}
# calls of caller NAME: successful, failed
uac_calls() {
	echo "$(stat_col "$1" 'SuccessfulCall(C)') $(stat_col "$1" 'FailedCall(C)')"
}

# the 60 % server and the plain one; the edge routes user "alt" to the
# plain one, everything else to the 60 % one
mkdir -p "$T_DIR/ocsrv"
(cd "$T_DIR/ocsrv" && exec timeout 120 sipp -sf "$SCN/uas-oc.xml" \
	-i 127.0.0.1 -p "$OC_PORT" -nostdin -trace_counts >out.txt 2>&1) &
T_PIDS+=("$!")
uas_start uas
UAS_PORT=$OC_PORT KAM_CHILDREN=2 kam_start -n edge 'OVC_NETWORK_MODE="e2e"' \
	OVC_DST_ADMIT "NEXT_HOP_ALT=\"sip:127.0.0.1:$UAS_PORT\"" ||
	{ fail "the edge did not start"; finish; }

# --- 1. every call to the 60 % hop
uac uac1 core "$UAC_PORT" 20 $((20 * SECS1))
wait "$UAC_PID" || true
sleep 1.2 # a second closes: the edge's routed counts
rpc ovc.dst >"$T_DIR/dst.txt" || true
log "ovc.dst: $(tr -s ' \n' ' ' <"$T_DIR/dst.txt")"
v1=$(oc_values "$T_DIR/uac1/msg.log" | median_after 20)
read -r s1 f1 < <(uac_calls uac1)
log "phase 1: $s1 calls set up, $f1 failed; median oc after the first" \
	"second $v1 (of $(oc_values "$T_DIR/uac1/msg.log" | wc -l) 200s)"
check "(1) the edge heard the server's 60 %" \
	"$(grep -c 'reduction: 60' "$T_DIR/dst.txt" || true) == 1"
check "(1) all calls to the 60 % hop: the edge announces 60" "$v1 == 60"
check "(1) every call set up (callers that offer oc are not throttled)" \
	"$s1 == $((20 * SECS1)) && $f1 == 0"

# --- 2. a quarter to the 60 % hop, three quarters to the other
uac uac1b core "$UAC_PORT" $((RATE / 4)) $((RATE / 4 * SECS2))
p1=$UAC_PID
uac uac2 alt "$UAC2_PORT" $((RATE * 3 / 4)) $((RATE * 3 / 4 * SECS2))
p2=$UAC_PID
sleep 3.5 # two whole seconds of the mix closed
rpc ovc.stats >"$T_DIR/stats2.txt" || true
wait "$p1" "$p2" || true
path=$(awk '$1 == "path_reduction:" { print $2; exit }' "$T_DIR/stats2.txt")
# past the first two seconds (the share of the second before, all to the
# 60 % hop, still in force for a second)
skip=$((RATE * 3 / 4 * 2))
v2=$(oc_values "$T_DIR/uac2/msg.log" | median_after "$skip")
v2b=$(oc_values "$T_DIR/uac1b/msg.log" | median_after $((RATE / 4 * 2)))
read -r s2 f2 < <(uac_calls uac2)
read -r s1b f1b < <(uac_calls uac1b)
log "phase 2: calls set up $s1b (60 % hop) + $s2 (other), failed" \
	"$f1b + $f2; ovc.stats path_reduction ${path:-none}; median oc after" \
	"two seconds $v2b / $v2"
check "(2) the edge's path reduction (ovc.stats) is 60 x 1/4" \
	"${path:-0} >= 12 && ${path:-0} <= 18"
check "(2) a quarter of the calls to the 60 % hop: the edge announces 15" \
	"$v2 >= 12 && $v2 <= 18 && $v2b >= 12 && $v2b <= 18"
check "(2) every call set up" \
	"$s2 == $((RATE * 3 / 4 * SECS2)) && $s1b == $((RATE / 4 * SECS2)) && $f2 + $f1b == 0"

# --- 3. an overloaded path: a capped ovc core behind a new edge
kam_stop
uas_stop
load_scale
# about 4x the core's capacity (a call costs LOAD_COST us of CPU here)
RATE3=$(awk -v q="$CORE_QUOTA_US" -v c="${LOAD_COST:-$OVC_REF_US_PER_CALL}" \
	'BEGIN { r = 4 * q / 100000 / (c / 1e6); printf "%d\n", r < 400 ? r : 400 }')
CORE_PORT=$((T_BASE + 8))
CORE_CTL="unix:$T_DIR/core.ctl"
cg=$(cg_make "$CORE_QUOTA_US" 100000)
uas_start uas3
PROXY_PORT=$CORE_PORT CTL=$CORE_CTL kam_start -c "$cg" -n core \
	'OVC_NETWORK_MODE="hop"' || { fail "the core did not start"; finish; }
CORE=$T_KPID
UAS_PORT=$CORE_PORT KAM_CHILDREN=2 kam_start -n edge3 'OVC_NETWORK_MODE="e2e"' \
	OVC_DST_ADMIT || { fail "the edge did not start"; finish; }
uac uac3 core "$UAC_PORT" "$RATE3" $((RATE3 * SECS3))
wait "$UAC_PID" || true
sleep 2.5 # the last seconds reach both histories
rpc ovc.csv >"$T_DIR/edge3.csv" || true
kamcmd -s "$CORE_CTL" ovc.csv >"$T_DIR/core3.csv" || true
kam_stop
T_KPID=$CORE CTL=$CORE_CTL kam_stop
uas_stop
n3=$(oc_values "$T_DIR/uac3/msg.log" | wc -l)
v3=$(oc_values "$T_DIR/uac3/msg.log" | median_after $((n3 / SECS3)))
red3=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "oc_reduction") c = i; next }
	$c > m { m = $c } END { print m + 0 }' "$T_DIR/core3.csv")
c_rej3=$(csv_sum "$T_DIR/core3.csv" invite_rejected)
e_ref3=$(($(csv_sum "$T_DIR/edge3.csv" dst_refused) + $(csv_sum "$T_DIR/edge3.csv" invite_rejected)))
read -r s3 f3 < <(uac_calls uac3)
log "phase 3: $RATE3 calls/s for $SECS3 s to a core capped at" \
	"$CORE_QUOTA_US/100000 us: $s3 set up, $f3 failed; core rejected" \
	"$c_rej3, announced up to $red3 %; the edge refused $e_ref3 and" \
	"announced a median $v3 % after the first second (of $n3 200s)"
check "(3) the core behind the edge was overloaded: it refused and announced a reduction" \
	"$c_rej3 > 0 && $red3 > 0"
check "(3) the edge passed the overloaded path's reduction on to its callers" \
	"$v3 > 0 && $v3 <= $red3"
check "(3) the edge refused none of its callers' calls (they offer oc)" \
	"$e_ref3 == 0"
finish
