#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# RPC surface: ovc.get/ovc.set accept good values and refuse bad ones
# without changing anything (a plain one answering what it accepts);
# algorithm/mode/dry_run/network_mode switch live, and ovc.get lists the
# plain modparams the reference's table says are settable live; ovc.csv
# honours N and refuses bad N; ovc.reset zeroes; the statistics group ovc
# mirrors ovc.stats.
. "$(dirname "$0")/lib.sh"

kam_start

get() { rpc ovc.get "$1" | awk -v k="$1" '$1 == k ":" { print $2 }'; }

# refused set: must fail and leave the value as it was
refuse() {
	local name=$1 val=$2 before after out
	before=$(get "$name")
	if out=$(rpc ovc.set "$name" "$val" 2>&1) && ! printf '%s' "$out" | grep -q error; then
		fail "ovc.set $name $val accepted: $out"
		return
	fi
	after=$(get "$name")
	if [ "$before" = "$after" ]; then
		ok "ovc.set $name $val refused ($(printf '%s' "$out" | head -1)); $name stays $after"
	else
		fail "ovc.set $name $val refused but $name changed $before -> $after"
	fi
}

accept() {
	local name=$1 val=$2 want=${3:-$2} got out
	out=$(rpc ovc.set "$name" "$val" 2>&1)
	got=$(get "$name")
	if printf '%s' "$out" | grep -q error; then
		fail "ovc.set $name $val refused: $out"
	elif awk "BEGIN { exit !(\"$got\" == \"$want\" || ($got + 0 == $want + 0 && \"$want\" ~ /^[0-9.]+$/)) }"; then
		ok "ovc.set $name $val -> $got"
	else
		fail "ovc.set $name $val: read back $got"
	fi
}

accept occ.target 0.8
accept occ.epoch_ms 500
refuse occ.target 3
refuse occ.target s:-0.5
refuse occ.target abc
refuse occ.epoch_ms 0
refuse bbc.low 900 # not below bbc.high (800)
accept bbc.high 1000
accept bbc.low 900
refuse bbc.high 850 # would put high below low
refuse algorithm fastest
refuse mode both
refuse dry_run 2
if out=$(rpc ovc.set no.such.param 1 2>&1) && printf '%s' "$out" | grep -q "404"; then
	ok "unknown parameter refused with 404"
else
	fail "unknown parameter: $out"
fi
# a modparam set at start only: refused as such (not "unknown"), nothing
# changes
before=$(rpc ovc.get 2>&1)
if out=$(rpc ovc.set queue_size 10 2>&1) &&
	printf '%s' "$out" | grep -q "400" &&
	printf '%s' "$out" | grep -q "queue_size is set at start only"; then
	ok "a start-only modparam refused with 400, saying so"
else
	fail "ovc.set of a start-only modparam: $out"
fi
check "the refused start-only modparam changed nothing" \
	"$([ "$before" = "$(rpc ovc.get 2>&1)" ] && echo 1 || echo 0) == 1"
if out=$(rpc ovc.get no.such.param 2>&1) && printf '%s' "$out" | grep -q "404"; then
	ok "ovc.get of an unknown parameter refused with 404"
else
	fail "ovc.get unknown parameter: $out"
fi
accept algorithm sired
accept algorithm none
# nothing to refuse: the ticker samples the receive queue calmly, and at
# rxq.sample_ms again once an algorithm controls
sleep 0.3
check "with none the receive queue is sampled every 100 ms" \
	"$(stats_key sample_ms) == 100"
accept algorithm occ
sleep 0.3
check "with occ every rxq.sample_ms (20 ms)" "$(stats_key sample_ms) == 20"
accept mode single
accept mode multi
accept dry_run 1
accept dry_run 0
accept network_mode local
accept network_mode hop
refuse network_mode hops
# a refused plain value answers what it accepts
refused_says() {
	local out
	out=$(rpc ovc.set "$1" "$2" 2>&1)
	if printf '%s' "$out" | grep -qF "400" && printf '%s' "$out" | grep -qF "$3"; then
		ok "ovc.set $1 $2 refused: $3"
	else
		fail "ovc.set $1 $2: want 400 and '$3', got: $out"
	fi
}
refused_says dry_run 2 "dry_run: '2' is not 0 or 1"
refused_says dry_run s:01 "dry_run: '01' is not 0 or 1"
refused_says mode both "mode: unknown 'both' (multi, single)"
refused_says network_mode hops "network_mode: unknown 'hops' (local, hop, e2e)"
refused_says algorithm fastest \
	"algorithm: unknown 'fastest' (none, bbc, occ, occupancy, aro, sired, rsoca, pi)"
# the plain names ovc.get lists are the modparams the reference's table
# says ovc.set changes at run time
doc_live=$(awk '/<!-- modparams:begin -->/ { on = 1 } /<!-- modparams:end -->/ { on = 0 }
	on && /also at run time/' "$TOP/modules/ovc/doc/ovc_admin.xml" |
	sed -E 's|^<row><entry><literal>([a-z_]+)</literal>.*|\1|' | sort | tr '\n' ' ')
get_plain=$(rpc ovc.get | grep -oE '^\s+[a-z_]+:' | tr -d ' \t:' | sort | tr '\n' ' ')
if [ -n "$doc_live" ] && [ "$doc_live" = "$get_plain" ]; then
	ok "ovc.get lists the plain modparams settable at run time: $get_plain"
else
	fail "ovc.get's plain names ($get_plain) differ from the run-time ones of the modparams table ($doc_live)"
fi

# every change is logged once at NOTICE with its old and new value, a
# refused one not at all
check "ovc.set logs a change with old and new value" \
	"$(grep -c 'ovc.set occ.target: 0.9 -> 0.8' "$T_DIR/kam.log") == 1"
check "ovc.set logs an algorithm switch" \
	"$(grep -c 'ovc.set algorithm: sired -> none' "$T_DIR/kam.log") == 1"
check "ovc.set logs a plain change with old and new value" \
	"$(grep -c 'ovc.set network_mode: hop -> local' "$T_DIR/kam.log") == 1 && $(grep -c 'ovc.set dry_run: 1 -> 0' "$T_DIR/kam.log") == 1"
check "a refused ovc.set is not logged as a change" \
	"$(grep -c 'ovc.set occ.target: .* -> 3' "$T_DIR/kam.log") == 0"

# every registry parameter is listed by ovc.get without a name
n_doc=$(awk '/<!-- params:begin -->/ { on = 1 } /<!-- params:end -->/ { on = 0 }
	on' "$TOP/modules/ovc/doc/ovc_admin.xml" |
	grep -c '^<row><entry><literal>[a-z]*\.[a-z0-9_]*</literal>')
n_get=$(rpc ovc.get | grep -cE '^\s+[a-z]+\.[a-z0-9_]+:')
check "ovc.get lists every registry parameter" "$n_get == $n_doc && $n_get > 40"

# some traffic, then csv, statistics and reset
uas_start uas
uac_run uac 100 300
sleep 3
uas_stop
rows=$(rpc ovc.csv 2 | wc -l)
check "ovc.csv 2 returns a header and 2 rows" "$rows == 3"
hdr=$(rpc ovc.csv 1 | head -1)
want="time,algorithm,f,cpu,queue_len,queue_delay_ms,mem_used,invite_offered,invite_admitted,invite_rejected,invite_dropped,invite_queued,invite_dequeued,indialog_offered,indialog_admitted,indialog_dropped,register_offered,register_admitted,register_rejected,other_offered,other_admitted,other_rejected"
case "$hdr" in
"$want"*) ok "ovc.csv header starts with the contract columns" ;;
*) fail "ovc.csv header: $hdr" ;;
esac
# the whole header and the keys of ovc.stats, as the module wrote them
# before the columns were declared in one list (tests/data)
if [ "$hdr" = "$(cat "$TOP/tests/data/ovc_csv_header.txt")" ]; then
	ok "ovc.csv header equals tests/data/ovc_csv_header.txt"
else
	fail "ovc.csv header differs from tests/data/ovc_csv_header.txt: $hdr"
fi
nf=$(rpc ovc.csv 2 | awk -F, '{ print NF }' | sort -u | tr '\n' ' ')
check "ovc.csv rows have the header's $(echo "$hdr" | awk -F, '{ print NF }') fields ($nf)" \
	"$(echo "$nf" | wc -w) == 1"
if keys=$(rpc ovc.stats | sed -E 's/:.*/:/' |
	diff - "$TOP/tests/data/ovc_stats_keys.txt"); then
	ok "ovc.stats keys equal tests/data/ovc_stats_keys.txt"
else
	fail "ovc.stats keys differ from tests/data/ovc_stats_keys.txt: $keys"
fi
for n in 0 s:-3 x 1x; do
	if out=$(rpc ovc.csv "$n" 2>&1) && printf '%s' "$out" | grep -q error; then
		ok "ovc.csv $n refused"
	else
		fail "ovc.csv $n accepted: $(printf '%s' "$out" | head -2)"
	fi
done
stat() { rpc stats.get_statistics ovc: | awk -F' = ' -v k="ovc:$1" '$1 == k { print $2 }'; }
st_off=$(stat invite_offered)
ovc_off=$(stats_class invite offered)
check "statistic ovc:invite_offered equals ovc.stats" "$st_off == $ovc_off && $ovc_off == 300"
st_adm=$(stat indialog_admitted)
check "statistic ovc:indialog_admitted counts ACK and BYE" "$st_adm == 600"
rpc ovc.reset
check "ovc.reset zeroes the counters" "$(stats_class invite offered) == 0"
check "ovc.reset is logged at NOTICE with what it zeroed" \
	"$(grep -c 'NOTICE: .*ovc.reset: counters and history zeroed (INVITEs offered 300 -> 0' "$T_DIR/kam.log") == 1"
check "ovc.reset empties the history" "$(rpc ovc.csv | wc -l) <= 3"

# ctl's reply limit (binrpc_max_body_size 2 KiB here, ~2 rows): ovc.csv
# answers the header and the newest rows that fit instead of failing
kam_stop
kam_start 'CTL_MAX_BODY_KB=2'
uas_start uas2
uac_run uac2 100 500
sleep 3
uas_stop
if out=$(rpc ovc.csv 2>&1) && ! printf '%s' "$out" | grep -q error; then
	lines=$(printf '%s\n' "$out" | wc -l)
	t_last=$(printf '%s\n' "$out" | tail -1 | cut -d, -f1)
	t_new=$(rpc ovc.csv 1 | tail -1 | cut -d, -f1)
	check "ovc.csv fits ctl's limit: header and a few rows" \
		"$lines >= 2 && $lines <= 4"
	# a row may be published between the two calls
	check "ovc.csv keeps the newest rows" "$t_last >= $t_new - 1"
else
	fail "ovc.csv under ctl's 2 KiB limit: $(printf '%s' "$out" | head -2)"
fi
grep -q "fit in ctl's binrpc_max_body_size" "$T_DIR"/*.log &&
	ok "the trimmed reply is logged" || fail "the trimmed reply is logged"
finish
