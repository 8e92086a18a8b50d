#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/tcp-conns.sh: what idle TCP connections cost the proxy
# (issue 41, item 4). The integration tests' proxy (configs/ovc-proxy.cfg,
# no CPU cap, no SIP traffic) with a TCP listener on loopback; for each
# count of CONNS (default "0 10000"), bench/tools/tcp-hold.py opens that
# many TCP connections to it and holds them idle; after SETTLE seconds
# (default 8: Kamailio's TCP readers hand idle connections back to its TCP
# main process after 5 s) the CPU of every Kamailio process (core.psx's
# PIDs, /proc/PID/schedstat: time on a CPU, ns) and of ovc's ticker alone
# is read over SECS seconds (default 20), in % of one core. Arms (ARMS,
# default "ovc"): ovc (the module, OVC_MOD or this checkout's, with its
# defaults) and plain (no ovc loaded: Kamailio's own cost of the
# connections); rounds interleave counts and arms (RUNS, default 3).
# LABEL (default the module's source id, scripts/build/module-id.sh of the
# checkout OVC_MOD's path is in) names the module in the rows, so that
# two builds (before and after a change) can share one runs.csv.
# Kamailio gets tcp_max_connections and open_files_limit for the largest
# count (the limit within the hard one it inherits). Rows in $OUT/runs.csv (default bench/results/tcp-conns); per
# label, arm and count: the median % of a core with its range, and the
# median's excess over count 0.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_nums CONNS "${CONNS:-0 10000}"
bench_int SECS "${SECS:-20}"
bench_int SETTLE "${SETTLE:-8}"
bench_int RUNS "${RUNS:-3}"
for a in ${ARMS:-ovc}; do bench_oneof ARMS "$a" ovc plain; done
[ "${SECS:-20}" -gt 0 ] || bench_bad "SECS: must be > 0"
for c in ${CONNS:-0 10000}; do
	[[ "$c" =~ ^[0-9]+$ ]] && [ "$c" -le 25000 ] ||
		bench_bad "CONNS: '$c' is not a whole number up to 25000"
done
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

CONNS=${CONNS:-0 10000}
SECS=${SECS:-20}
SETTLE=${SETTLE:-8}
RUNS=${RUNS:-3}
ARMS=${ARMS:-ovc}
OUT=${OUT:-$here/bench/results/tcp-conns}
if [ -z "${LABEL:-}" ]; then
	modtop=$(cd "$(dirname "$MOD")" && git rev-parse --show-toplevel 2>/dev/null)
	LABEL=$("$here/scripts/build/module-id.sh" "${modtop:-$here}")
fi
max=0
for c in $CONNS; do [ "$c" -le "$max" ] || max=$c; done
# Kamailio's open-file limit: room for every connection twice (its TCP
# main process and a reader), within the hard limit it inherits
files=$((2 * max + 4096))
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$files" -le "$hard" ] || files=$hard
TCP_PORT=$((T_BASE + 5))
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] ||
	echo "label,arm,conns,open,secs,cpu_pct,ticker_pct,date" >"$OUT/runs.csv"
cp "$MOD" "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"

# cpu_ns PID...: their time on a CPU so far, ns (schedstat's first field)
cpu_ns() {
	local p s=0 v
	for p in "$@"; do
		read -r v _ <"/proc/$p/schedstat" 2>/dev/null || continue
		s=$((s + v))
	done
	echo "$s"
}

# one ARM COUNT NAME: one run; appends its row
one() {
	local arm=$1 n=$2 name=$3 pids tick hold up c0 c1 t0 t1 open
	local -a defs=("TCP_LISTEN=tcp:127.0.0.1:$TCP_PORT"
		"TCP_MAX_CONNECTIONS=$((max + 1024))"
		"OPEN_FILES_LIMIT=$files")
	[ "$arm" = plain ] && defs+=(NO_OVC)
	kam_start -n "$name" "${defs[@]}" || return 1
	rm -f "$T_DIR/$name.up"
	python3 "$here/bench/tools/tcp-hold.py" --secs $((SETTLE + SECS + 120)) \
		--ready "$T_DIR/$name.up" 127.0.0.1 "$TCP_PORT" "$n" \
		>"$T_DIR/$name.hold" 2>&1 &
	hold=$!
	T_PIDS+=("$hold")
	for _ in $(seq 1 1200); do
		[ -s "$T_DIR/$name.up" ] && break
		kill -0 "$hold" 2>/dev/null || break
		sleep 0.1
	done
	read -r up open _ <"$T_DIR/$name.up" 2>/dev/null
	if [ "${up:-}" != up ]; then
		log "$name: the connections did not come up: $(cat "$T_DIR/$name.hold")"
		kill "$hold" 2>/dev/null
		kam_stop
		return 1
	fi
	sleep "$SETTLE"
	pids=$(rpc core.psx | awk '$1 == "PID:" { print $2 }')
	tick=$(rpc core.psx | awk '$1 == "PID:" { p = $2 }
		/DSC: ovc ticker/ { print p; exit }')
	# shellcheck disable=SC2086
	c0=$(cpu_ns $pids)
	t0=$(cpu_ns $tick)
	sleep "$SECS"
	# shellcheck disable=SC2086
	c1=$(cpu_ns $pids)
	t1=$(cpu_ns $tick)
	kill "$hold" 2>/dev/null
	wait "$hold" 2>/dev/null
	kam_stop
	awk -v l="$LABEL" -v a="$arm" -v n="$n" -v o="$open" -v s="$SECS" \
		-v c="$((c1 - c0))" -v t="$((t1 - t0))" -v d="$(date -u +%FT%TZ)" \
		'BEGIN { printf "%s,%s,%d,%d,%d,%.2f,%.2f,%s\n", l, a, n, o, s,
			c / s / 1e7, t / s / 1e7, d }' >>"$OUT/runs.csv"
	log "$name: $open connections open, Kamailio $(tail -1 "$OUT/runs.csv" |
		cut -d, -f6) % of a core, ticker $(tail -1 "$OUT/runs.csv" |
		cut -d, -f7) %"
}

for k in $(seq 1 "$RUNS"); do
	for a in $ARMS; do
		for n in $CONNS; do
			one "$a" "$n" "${a}_${n}_$k" || log "${a}_${n}_$k failed"
			sleep 1
		done
	done
done
# per label, arm and count: median and range; the excess over count 0
awk -F, -v lab="$LABEL" 'NR > 1 && $1 == lab {
		k = $2 SUBSEP $3; n[k]++; v[k, n[k]] = $6; w[k, n[k]] = $7 }
	function med(a, k, m,   i, j, x) {
		for(i = 2; i <= m; i++)
			for(j = i; j > 1 && a[k, j - 1] > a[k, j]; j--) {
				x = a[k, j]; a[k, j] = a[k, j - 1]; a[k, j - 1] = x
			}
		lo = a[k, 1]; hi = a[k, m]
		return m % 2 ? a[k, (m + 1) / 2] : (a[k, m / 2] + a[k, m / 2 + 1]) / 2
	}
	END {
		for(k in n) {
			mt = med(w, k, n[k]); tlo = lo; thi = hi
			mc = med(v, k, n[k])
			split(k, p, SUBSEP)
			cm[k] = mc
			line[k] = sprintf("%s %-5s %6d conns: Kamailio %5.2f %% [%.2f-%.2f]," \
				" ticker %5.2f %% [%.2f-%.2f] (%d runs)", lab, p[1], p[2], mc,
				lo, hi, mt, tlo, thi, n[k])
		}
		for(k in n) {
			split(k, p, SUBSEP)
			z = p[1] SUBSEP 0
			if(p[2] > 0 && (z in cm))
				line[k] = line[k] sprintf("; +%.2f %% over 0", cm[k] - cm[z])
			print line[k]
		}
	}' "$OUT/runs.csv" | sort -k2,2 -k3,3n
"$here/bench/tools/results.sh" record "$OUT" \
	"what idle TCP connections cost the proxy (CPU, % of a core)" \
	"bench/campaigns/tcp-conns.sh"
