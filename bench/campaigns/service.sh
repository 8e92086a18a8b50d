#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/service.sh: Debian's kamailio.service against root
# (issue 42, item 3: under the service's settings at 8x, timely goodput
# >= 0.9x the same proxy run as root with 1 GB). The setting of
# tests/integration/t_service.sh, run often enough to tell its spread: the
# integration tests' proxy in a cgroup capped at 20 ms / 100 ms on
# loopback, ovc's defaults with kstage_budget 5, offered 8x its capacity
# (scaled 2800 calls/s) for SECS s, SIPp with retransmissions. Three arms,
# rotated run by run so that drift hits each alike:
#   root     root, -m 1024 (the tests' proxy)
#   root64   root, -m 64 -M 8 (the service's memory alone)
#   service  User=kamailio, -m 64 -M 8, the drop-in's capabilities
#            (configs/kamailio-ovc-kstage.conf, through setpriv)
# Per run, in $OUT/runs.csv: timely calls/s (INVITE->200 < 500 ms) and
# completed calls/s over [WIN_FROM, SECS] s, the kernel stage's drops,
# the shared memory's peak, how long the memory guard capped (ms) and the
# lines of the proxy's log that report a failed allocation. Printed: per arm the median and range, and
# the ratio of the arms' means to root's.
#
#   RUNS      runs per arm (default 3)
#   SECS      seconds per run (default 20); WIN_FROM (default 8)
#   ARMS      arms in rotation order (default "root service root64")
#   DEFS      extra defines of configs/ovc-proxy.cfg for every arm, e.g.
#             'OVC_PARAM1="mem.high=0.9"' (default none)
#   OVC_MOD   the ovc.so to load (default the tree's build)
#   OUT       results folder (default bench/results/service)
#
# The whole campaign holds the machine-wide load lock (about 35 s per
# run: ~5.5 min with the defaults).
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_int RUNS "${RUNS:-3}"
bench_int SECS "${SECS:-20}"
bench_int WIN_FROM "${WIN_FROM:-8}"
ARMS=${ARMS:-"root service root64"}
for a in $ARMS; do
	case $a in root | root64 | service) ;;
	*) bench_bad "ARMS: '$a' is not root, root64 or service" ;;
	esac
done
read -ra DEFS <<<"${DEFS:-}"
SVC_USER=kamailio
id "$SVC_USER" >/dev/null 2>&1 || bench_bad "no user $SVC_USER (make deps)"
command -v setpriv >/dev/null || bench_bad "no setpriv"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

RUNS=${RUNS:-3}
SECS=${SECS:-20}
WIN_FROM=${WIN_FROM:-8}
OUT=${OUT:-$here/bench/results/service}
mkdir -p "$OUT"
[ -s "$OUT/runs.csv" ] || echo "date,arm,run,rate,secs,timely_cps,completed_cps,kstage_dropped,shm_max_used,shm_total,guard_capped_ms,mem_errors" >"$OUT/runs.csv"
cg=$(cg_make 20000 100000)
cp "$MOD" "$T_DIR/ovc.so"
chmod 0755 "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"
chgrp "$SVC_USER" "$T_DIR"
chmod 0770 "$T_DIR"
load_scale
RATE=$(scaled 2800)
svc_wrap "$SVC_USER" "$here/configs/kamailio-ovc-kstage.conf" ||
	{ echo "service.sh: the drop-in names no capabilities" >&2; exit 1; }
t_start=$(date +%s)



# one_run ARM N: one flood; a row of runs.csv
one_run() {
	local arm=$1 n=$2 name="$1_$2" drops shm capped errs
	case $arm in
	root) kam_start -c "$cg" -n "$name" 'OVC_KSTAGE_BUDGET=5' "${DEFS[@]}" || return 1 ;;
	root64) KAM_SHM_MB=64 KAM_PKG_MB=8 kam_start -c "$cg" -n "$name" \
		'OVC_KSTAGE_BUDGET=5' "${DEFS[@]}" || return 1 ;;
	service) KAM_WRAP=$SVC_WRAP KAM_SHM_MB=64 KAM_PKG_MB=8 \
		kam_start -c "$cg" -n "$name" 'OVC_KSTAGE_BUDGET=5' "${DEFS[@]}" || return 1 ;;
	esac
	uas_start "${name}_uas"
	UAC_TIMEOUT=$((SECS + 3)) uac_run "${name}_uac" "$RATE" $((RATE * SECS))
	sleep 1
	drops=$(stats_class kstage dropped)
	capped=$(stats_class mem_guard capped_ms)
	shm=$(rpc core.shmmem | awk '$1 == "max_used:" { u = $2 }
		$1 == "total:" { t = $2 } END { print u + 0 "," t + 0 }')
	uas_stop
	kam_stop
	errs=$(grep -ciE "$OVC_MEM_ERR" "$T_DIR/$name.log" || true)
	awk -v d="$(date -u +%FT%TZ)" -v a="$arm" -v n="$n" -v r="$RATE" \
		-v s="$SECS" -v t="$(timely_rate "${name}_uac" "$WIN_FROM" "$SECS")" \
		-v c="$(completed_rate "${name}_uas" "$WIN_FROM" "$SECS")" \
		-v k="${drops:-0}" -v m="$shm" -v g="${capped:-0}" -v e="${errs:-0}" 'BEGIN {
		printf "%s,%s,%d,%d,%d,%.1f,%.1f,%d,%s,%d,%d\n", d, a, n, r, s, t, c, k, m, g, e
	}' >>"$OUT/runs.csv"
	log "$(tail -n1 "$OUT/runs.csv")"
	sleep 1
}

narms=$(wc -w <<<"$ARMS")
for k in $(seq 1 "$RUNS"); do
	# rotate the order run by run: each arm first, middle and last alike
	read -ra order <<<"$ARMS"
	for j in $(seq 0 $((narms - 1))); do
		one_run "${order[$(((j + k - 1) % narms))]}" "$k"
	done
done
log "load lock held $(($(date +%s) - t_start)) s"

# this campaign's rows: per arm the median (range) of timely and
# completed calls/s, and its mean timely over root's
tail -n $((RUNS * narms)) "$OUT/runs.csv" | awk -F, '
	{ n[$2]++; t[$2, n[$2]] = $6; c[$2, n[$2]] = $7; st[$2] += $6 }
	function med(a, k, m,   i, j, x, v) {
		for(i = 1; i <= m; i++) v[i] = a[k, i]
		for(i = 2; i <= m; i++)
			for(j = i; j > 1 && v[j - 1] > v[j]; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		lo = v[1]; hi = v[m]
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
	END {
		for(a in n) {
			mt = med(t, a, n[a]); tl = lo; th = hi
			mc = med(c, a, n[a])
			printf "%-8s timely/s %.1f (%.1f-%.1f) completed/s %.1f (%.1f-%.1f)", \
				a, mt, tl, th, mc, lo, hi
			if(st["root"] > 0)
				printf "  mean timely / root %.2f", st[a] / n[a] / (st["root"] / n["root"])
			printf "\n"
		}
	}' | sort
"$here/bench/tools/results.sh" record "$OUT" \
	"Debian's service (User=kamailio, -m 64 -M 8, the drop-in's capabilities) against the arms $ARMS (root: 1 GB; root64: root with -m 64 -M 8), 8x ($RATE calls/s) at 20 % of a core, $RUNS runs per arm, Kamailio $(kamailio -V | sed -n 's/^version: kamailio \([0-9.]*\).*/\1/p')${DEFS[*]:+, ${DEFS[*]}}" \
	"RUNS=$RUNS SECS=$SECS${DEFS[*]:+ DEFS='${DEFS[*]}'} bench/campaigns/service.sh"
