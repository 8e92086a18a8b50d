#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed SIP never crashes the proxy: every RFC 4475 torture message
# (as stored and with lone LF turned into CRLF), truncated copies and
# binary junk are sent over UDP to kamailio with ovc's fast path on and a
# controller refusing everything; the server stays up, the scanner's
# fall-throughs are counted, and a normal call still gets its answer.
. "$(dirname "$0")/lib.sh"

RFC=${RFC4475_DIR:-$TOP/tests/data/rfc4475}
[ -d "$RFC" ] || { log "no RFC 4475 corpus at $RFC"; fail "corpus missing"; finish; }

kam_start 'OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0"' \
	'OVC_PARAM3="occ.epoch_ms=100"' 'OVC_PARAM4="occ.phi_max=1"' \
	'OVC_PARAM5="rxq.onset_ms=0"'
uas_start uas
uac_run warm 150 300 # f falls to ~0

send() { cat "$1" >"/dev/udp/127.0.0.1/$PROXY_PORT" 2>/dev/null || true; }
n=0
for f in "$RFC"/*.dat; do
	send "$f"
	sed 's/\r*$/\r/' "$f" >"$T_DIR/crlf.dat"
	send "$T_DIR/crlf.dat"
	head -c $(($(wc -c <"$f") / 2)) "$f" >"$T_DIR/half.dat"
	send "$T_DIR/half.dat"
	n=$((n + 3))
done
for i in $(seq 1 20); do
	head -c $((i * 97)) /dev/urandom >"$T_DIR/junk.bin"
	send "$T_DIR/junk.bin"
	n=$((n + 1))
done
log "sent $n malformed or unusual datagrams"
sleep 1
if kill -0 "$T_KPID" 2>/dev/null && [ "$(pgrep -c -P "$T_KPID")" -ge 5 ]; then
	ok "kamailio and its workers are alive"
else
	fail "kamailio died"
	tail -20 "$T_DIR/kam.log"
fi
falls=$(rpc ovc.stats | awk '$1 ~ /^fallthrough_/ { s += $2 } END { print s + 0 }')
check "the fast path left what it does not understand to the normal path" "$falls > 50"
uac_run after 50 50
answered=$(($(counts_col after 3_503_Recv) + $(counts_col after 5_200_Recv)))
check "normal calls still get their answer" "$answered == 50"
grep -qiE "segfault|signal 11|core dump" "$T_DIR/kam.log" &&
	fail "a crash is logged" || ok "no crash logged"
finish
