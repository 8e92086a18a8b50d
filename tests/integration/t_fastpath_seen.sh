#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the fast path consumes is still seen (issue 17, item 12): with a
# controller forced to refuse every INVITE (as t_reject_paths) and sipdump
# loaded, the refused INVITEs (shown to the SREV_NET_DATA_RECV modules as
# receive_msg() would) and ovc's 503s (sent through the core's msg_send())
# are in sipdump's files; the 503 carries the core's server_header
# ("Server: ovc-proxy" in the test cfg), not a header of ovc's own.
. "$(dirname "$0")/lib.sh"

FORCE=('OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0"'
	'OVC_PARAM3="occ.epoch_ms=100"' 'OVC_PARAM4="occ.phi_max=1"'
	'OVC_PARAM5="rxq.onset_ms=0"')
RATE=100
CALLS=300

mkdir -p "$T_DIR/dump"
kam_start "${FORCE[@]}" "SIPDUMP_DIR=\"$T_DIR/dump\"" ||
	{ fail "no start with sipdump"; finish; }
uas_start uas
uac_run warm "$RATE" 200 # drives f to 0
uac_run uac "$RATE" "$CALLS" -trace_msg
sleep 1
uas_stop
fast=$(rpc ovc.stats | awk '$1 == "rejects:" { print $2 }')
kam_stop

r503=$(counts_col uac 3_503_Recv)
dumped_503=$(cat "$T_DIR"/dump/* 2>/dev/null | grep -c '^SIP/2.0 503 ' || true)
dumped_inv=$(cat "$T_DIR"/dump/* 2>/dev/null | grep -c '^INVITE sip:' || true)
msgs=$(ls "$T_DIR"/uac/*_messages.log 2>/dev/null | head -n1 || true)
srv=$(awk '/^SIP\/2.0 503 / { in503 = 1; next } in503 && /^Server:/ { print; exit }
	/^$/ { in503 = 0 }' "${msgs:-/dev/null}" | tr -d '\r')
log "fast-path rejects $fast, 503 at the UAC $r503; sipdump: 503 $dumped_503," \
	"INVITE $dumped_inv; the 503's $srv"
check "the fast path answered most INVITEs" "$fast > 0.9 * $CALLS"
check "sipdump saw every 503 the fast path sent" "$dumped_503 >= $fast"
check "sipdump saw the INVITEs the fast path refused" \
	"$dumped_inv >= $fast + 0"
if [ "$srv" = "Server: ovc-proxy" ]; then
	ok "the 503 carries the core's server_header"
else
	fail "the 503 carries the core's server_header (got '$srv')"
fi
finish
