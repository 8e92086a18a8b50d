#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Observability end to end (issue 20, items 4 and 5): Kamailio runs the
# example configs/ovc-prom.cfg (xhttp_prom, jsonrpcs) capped by a cgroup
# CPU quota, SIPp offers ~3x its capacity for a few seconds, and /metrics
# is scraped over HTTP before, during and after. Every metric the Grafana
# dashboard (configs/grafana-ovc.json) uses is exported; the gauges move
# (cpu > 0, overload 1 and f below 1 during the overload, INVITEs
# rejected); the counters equal ovc.stats; ovc.stats over JSON-RPC has
# integer booleans and sizes; the overload's onset and end are logged
# once each at NOTICE with their evidence, never per request.
. "$(dirname "$0")/lib.sh"

CFG="$TOP/configs/ovc-prom.cfg"
DASH=${DASH:-"$TOP/configs/grafana-ovc.json"}
HTTP_PORT=$((T_BASE + 3))
URL="http://127.0.0.1:$HTTP_PORT"
QUOTA_US=${QUOTA_US:-20000} # 0.2 CPU, as t_overload
PERIOD_US=100000
SECS=${SECS:-12}            # offered load duration
load_scale
RATE=${RATE:-$(scaled 1050)} # ~3x the capped capacity (t_overload)

command -v curl >/dev/null && command -v jq >/dev/null ||
	{ fail "curl and jq are needed (make deps)"; finish; }

# scrape FILE: /metrics into FILE (bounded: 5 s, 3 tries)
scrape() {
	local i
	for i in 1 2 3; do
		curl -sf --max-time 5 "$URL/metrics" >"$1" && return 0
		sleep 0.5
	done
	return 1
}
# metric FILE NAME: the value of kamailio_ovc_NAME in a scrape (empty if
# absent)
metric() {
	awk -v k="kamailio_ovc_$2" '$1 == k { print $2; exit }' "$1"
}
# jrpc METHOD [PARAMS-JSON]: a JSON-RPC call over HTTP, its reply
jrpc() {
	curl -sf --max-time 5 -d "{\"jsonrpc\":\"2.0\",\"method\":\"$1\",\"params\":${2:-[]},\"id\":1}" \
		"$URL/RPC"
}

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")
kam_start -c "$cg" "HTTP_LISTEN=tcp:127.0.0.1:$HTTP_PORT" CHILDREN=1 ||
	{ fail "kamailio does not start with configs/ovc-prom.cfg"; finish; }

# every metric the dashboard's queries use (expressions and variables)
used=$(jq -r '.. | objects | (.expr?, .definition?, .query?) | strings' \
	"$DASH" | grep -o 'kamailio_[a-z0-9_]*' | sort -u)
n_used=$(echo "$used" | grep -c . || true)
# (a precondition of the checks below, not one of them: with no metric
# found in the dashboard's queries they would pass on nothing)
[ "$n_used" -gt 0 ] || fail "no kamailio_ metric found in $DASH's queries"
log "the dashboard's queries use $n_used metrics"

scrape "$T_DIR/m0.txt" || fail "GET /metrics before the load"
missing=""
for m in $used; do
	awk -v k="$m" '$1 == k { f = 1 } END { exit !f }' "$T_DIR/m0.txt" ||
		missing+=" $m"
done
if [ -z "$missing" ]; then
	ok "/metrics exports all $n_used metrics the dashboard uses"
else
	fail "/metrics lacks what the dashboard uses:$missing"
fi
check "before the load: f 1000000 ppm, no overload" \
	"$(metric "$T_DIR/m0.txt" f_ppm) == 1000000 && $(metric "$T_DIR/m0.txt" overload) == 0"

# the overload, scraped once a second while it lasts
uas_start uas
UAC_TIMEOUT=$((SECS + 10)) uac_run uac "$RATE" $((RATE * SECS)) &
uac=$!
T_PIDS+=("$uac")
sleep 2
for i in $(seq 1 $((SECS - 2))); do
	scrape "$T_DIR/m$i.txt" || { log "scrape $i failed"; rm -f "$T_DIR/m$i.txt"; }
	sleep 1
done
wait "$uac" || true
sleep 3 # the overload ends (2 T1 without evidence), the last BYEs
uas_stop
scrape "$T_DIR/mend.txt" || fail "GET /metrics after the load"

# maxima and minima of the gauges over the scrapes during the overload
during() { # during NAME max|min
	for f in "$T_DIR"/m[1-9]*.txt; do metric "$f" "$1"; done |
		awk -v op="$2" 'NF { v = $1 + 0; if(n++ == 0 || (op == "max" ? v > r : v < r)) r = v }
			END { print r + 0 }'
}
# every metric the dashboard plots has a number in every scrape under load
# (every one that answered)
unread=""
for m in $used; do
	for f in "$T_DIR"/m[1-9]*.txt; do
		awk -v k="$m" '$1 == k && $2 ~ /^-?[0-9.e+]+$/ { f = 1 }
			END { exit !f }' "$f" || { unread+=" $m"; break; }
	done
done
check "every metric the dashboard uses read a number in every scrape under load${unread:+ (not:$unread)}" \
	"\"$unread\" == \"\""
cpu_max=$(during cpu_ppm max)
ovl_max=$(during overload max)
f_min=$(during f_effective_ppm min)
rxw_max=$(during rx_queue_wait_us max)
offered=$(metric "$T_DIR/mend.txt" invite_offered)
rejected=$(metric "$T_DIR/mend.txt" invite_rejected)
log "offered $RATE cps for ${SECS}s to a proxy capped at $QUOTA_US/$PERIOD_US us"
log "during: cpu_ppm max $cpu_max, overload max $ovl_max, f_effective_ppm" \
	"min $f_min, rx_queue_wait_us max $rxw_max; after: invite_offered" \
	"$offered, invite_rejected $rejected"
check "cpu_ppm > 0 during the overload" "$cpu_max > 0"
check "overload 1 during the overload" "$ovl_max == 1"
check "f_effective_ppm below 1000000 during the overload" "$f_min < 1000000"
check "invite_rejected > 0 (a measurable share of invite_offered)" \
	"$rejected > 0.05 * $offered && $offered > 0"
check "overload back to 0 after the load" "$(metric "$T_DIR/mend.txt" overload) == 0"
check "shared memory in use > 0 bytes" "$(metric "$T_DIR/mend.txt" mem_used_bytes) > 0"
check "the statistic invite_offered equals ovc.stats" \
	"$offered == $(stats_class invite offered)"

# ovc.stats over JSON-RPC: booleans and counts are integers
jrpc ovc.stats >"$T_DIR/stats.json" || fail "ovc.stats over /RPC"
if jq -e '.result | (.dry_run | type == "number")
		and (.queue_len | floor == .)
		and (.rsoca.in_force | type == "number")
		and (.rsoca_mem.tm | type == "number")
		and (.rsoca_mem.mem_in_use | floor == .)
		and ([.. | strings | select(. == "yes" or . == "no")] | length == 0)' \
	"$T_DIR/stats.json" >/dev/null; then
	ok "ovc.stats (JSON-RPC): 0/1 booleans, integer sizes, no yes/no"
else
	fail "ovc.stats (JSON-RPC): $(head -c 600 "$T_DIR/stats.json")"
fi

# onset and end logged once each, with the evidence; never per request
onsets=$(metric "$T_DIR/mend.txt" overload_onsets)
n_on=$(grep -c 'NOTICE: ovc .*overload onset #' "$T_DIR/kam.log" || true)
n_end=$(grep -c 'NOTICE: ovc .*overload ended after ' "$T_DIR/kam.log" || true)
grep 'overload onset #\|overload ended after' "$T_DIR/kam.log" | head -4 |
	sed 's/^/    /'
check "one onset line per overload_onsets ($n_on, $onsets) and one end each" \
	"$n_on == $onsets && $n_on >= 1 && $n_end == $n_on"
check "the onset line shows the wait, CPU and f" \
	"$(grep -cE 'overload onset #1: least wait .* ms .*cpu [0-9.]+, f [0-9.]+' "$T_DIR/kam.log") == 1"
check "no line per request: onsets few beside $offered INVITEs" "$n_on <= 5"

# a change through JSON-RPC is logged with its old and new value
jrpc ovc.set '["occ.target", 0.85]' >/dev/null || fail "ovc.set over /RPC"
check "ovc.set over JSON-RPC logged at NOTICE (old -> new)" \
	"$(grep -c 'NOTICE: ovc .*ovc.set occ.target: 0.9 -> 0.85' "$T_DIR/kam.log") == 1"
kam_stop
finish
