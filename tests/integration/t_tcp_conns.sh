#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Idle TCP connections cost the proxy next to nothing (issue 41, item 4):
# the proxy with a TCP listener on loopback and its default algorithm
# (the receive queue sampled every 20 ms), no SIP traffic; the CPU of
# ovc's ticker (/proc/PID/schedstat) over SECS seconds with no connection,
# then with CONNS (5000) idle TCP connections held by
# bench/tools/tcp-hold.py. The ticker may use at most MAX_EXCESS (1.5) %
# of a core more with them. The code before dumped every connection of
# the host at each sample: 54 % of a core with none and 98 % with 5000 on
# the 2-core test machine (a connection hash of 262 144 buckets walked 100
# times a second); the listeners alone at each sample and the connections
# within a budget of 0.5 % of a core: 0.94 % and 1.18 % (bench/RESULTS.md,
# "SIP over TCP"). ovc.stats still reports the listener's accept backlog
# (none waiting). About 40 s.
. "$(dirname "$0")/lib.sh"

CONNS=${CONNS:-5000}
SECS=${SECS:-10}
MAX_EXCESS=${MAX_EXCESS:-1.5} # % of a core

TCP_PORT=$((T_BASE + 5))
files=$((2 * CONNS + 4096))
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$files" -le "$hard" ] || files=$hard
kam_start "TCP_LISTEN=tcp:127.0.0.1:$TCP_PORT" \
	"TCP_MAX_CONNECTIONS=$((CONNS + 1024))" "OPEN_FILES_LIMIT=$files" ||
	{ fail "kamailio did not start"; finish; }
tick=$(rpc core.psx | awk '$1 == "PID:" { p = $2 }
	/DSC: ovc ticker/ { print p; exit }')
[ -n "$tick" ] || { fail "no ovc ticker in core.psx"; finish; }

# ticker_pct: the ticker's CPU over SECS seconds, % of one core
ticker_pct() {
	local a b
	read -r a _ <"/proc/$tick/schedstat"
	sleep "$SECS"
	read -r b _ <"/proc/$tick/schedstat"
	awk -v d=$((b - a)) -v s="$SECS" 'BEGIN { printf "%.2f", d / s / 1e7 }'
}

sleep 1
idle=$(ticker_pct)
python3 "$TOP/bench/tools/tcp-hold.py" --secs $((SECS + 90)) \
	--ready "$T_DIR/hold.up" 127.0.0.1 "$TCP_PORT" "$CONNS" \
	>"$T_DIR/hold.log" 2>&1 &
hold=$!
T_PIDS+=("$hold")
for _ in $(seq 1 600); do
	[ -s "$T_DIR/hold.up" ] && break
	kill -0 "$hold" 2>/dev/null || break
	sleep 0.1
done
read -r up open _ <"$T_DIR/hold.up" 2>/dev/null || true
if [ "${up:-}" != up ] || [ "${open:-0}" -ne "$CONNS" ]; then
	fail "the $CONNS connections did not all come up: $(cat "$T_DIR/hold.log")"
	finish
fi
sleep 2 # past the connections' handshakes and first reads
held=$(ticker_pct)
rpc ovc.stats >"$T_DIR/stats"
open_now=$(ss -Htn state established "( sport = :$TCP_PORT )" | wc -l)
kill "$hold" 2>/dev/null || true
wait "$hold" 2>/dev/null || true
backlog=$(awk '$1 == "rxq:" { on = 1 } on && $1 == "tcp_backlog:" { print $2; exit }' \
	"$T_DIR/stats")
log "ticker: $idle % of a core with no connection, $held % with $CONNS" \
	"idle ones ($open_now open at the end); tcp_backlog ${backlog:-none}"
check "all $CONNS connections held through the measurement" \
	"$open_now == $CONNS"
check "$CONNS idle TCP connections cost the ticker <= $MAX_EXCESS % of a core" \
	"$held - $idle <= $MAX_EXCESS"
check "ovc.stats reports the listener's accept backlog (none waiting)" \
	"\"${backlog:-x}\" == \"0\""
finish
