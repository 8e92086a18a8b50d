#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/ds64.sh - Kamailio's own RFC 7339 client against ovc's
# (issue 42): an edge relays to a core with ovc capped by a cgroup CPU
# quota (BENCH_QUOTA_US per 100 ms, default 5000: 5 % of a core, so that
# SIPp reaches 16x), which relays to a UAS, on loopback (the integration
# tests' set-up, tests/integration/lib.sh), at MULTS times the core's
# probed capacity, for each of three edges:
#   ds64   stock Kamailio >= 6.0 (configs/ds64-edge.cfg, no ovc):
#          dispatcher's algorithm 64 fed by ds_oc_set_attrs() from the
#          core's oc (network_mode hop)
#   ovc    ovc's own edge (configs/ovc-proxy.cfg with OVC_DST_ADMIT,
#          network_mode hop): ovc_dst_admit() applies the core's oc
#   local  the ds64 edge in front of a core in network_mode local: no
#          feedback, the core refuses everything itself
# Each run: DUR s at MULT x capacity; measured over its second half: the
# core's received initial INVITEs (ovc.csv invite_offered), the calls set
# up within 500 ms at the UAC (timely goodput) and completed at the UAS
# (goodput), per second and over the capacity, and the core's mean
# announced reduction. One row per run in OUT/runs.csv; figures by
# bench/plot-ds64.sh.
#
#   ds64.sh            on a Kamailio >= 6.0: the runs
#   ds64.sh root       from a host with an older Kamailio: the
#                               runs in the Debian 13 root of
#                               tests/versions/debroot.sh (DEBROOT_DIR),
#                               results copied back to OUT, then the plot
#
# Environment: MULTS (default "2 4 8 12 16"), DUR (default 20), EDGES
# (default "ds64 ovc local"), BENCH_QUOTA_US, OUT (default
# bench/results/ds64), EDGE_CHILDREN (the edges' UDP workers, default 2:
# one would be the edge's limit at 16x). Durations: the probe ~1 min, a
# run ~DUR + 10 s (15 runs at DUR=20: ~8 min). Every measurement holds
# the machine-wide load lock (lib.sh).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || bench_oneof where "$1" root
bench_nums MULTS "${MULTS:-2}"
bench_int DUR "${DUR:-20}"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
OUT=${OUT:-$top/bench/results/ds64}

if [ "${1:-}" = root ]; then
	root=${DEBROOT_DIR:-/var/cache/ovc/trixie}
	"$top/tests/versions/debroot.sh" trixie exec \
		env MULTS="${MULTS:-2 4 8 12 16}" DUR="${DUR:-20}" \
		EDGES="${EDGES:-ds64 ovc local}" \
		BENCH_QUOTA_US="${BENCH_QUOTA_US:-5000}" \
		EDGE_CHILDREN="${EDGE_CHILDREN:-2}" OUT=/ovc/bench/results/ds64 \
		GIT="$(cd "$top" && git rev-parse --short HEAD)" \
		bench/campaigns/ds64.sh
	mkdir -p "$OUT"
	cp -r "$root/ovc/bench/results/ds64/." "$OUT/"
	"$here/plots/plot-ds64.sh" "$OUT"
	raw=()
	[ "$OUT" != "$top/bench/results/ds64" ] || [ ! -d "$OUT/runs" ] ||
		mapfile -t raw < <(find "$OUT/runs" -type f)
	RESULTS_KAMAILIO=$(chroot "$root" kamailio -v 2>/dev/null |
		sed -n 's/^version: //p' | head -1) \
		"$top/bench/tools/results.sh" record "$OUT" \
		"Kamailio's dispatcher-64 edge against ovc's edge and local control" \
		"bench/campaigns/ds64.sh root (EDGES='${EDGES:-ds64 ovc local}' MULTS='${MULTS:-2 4 8 12 16}')" \
		"${raw[@]}"
	exit 0
fi

MULTS=${MULTS:-2 4 8 12 16}
DUR=${DUR:-20}
EDGES=${EDGES:-ds64 ovc local}
QUOTA_US=${BENCH_QUOTA_US:-5000}
EDGE_CHILDREN=${EDGE_CHILDREN:-2}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# the integration tests' helpers (kamailio, SIPp, cgroups, the probe)
. "$top/tests/integration/lib.sh"
kmaj=$(kamailio -V 2>/dev/null | sed -n 's/^version: kamailio \([0-9]*\)\..*/\1/p')
[ "${kmaj:-0}" -ge 6 ] ||
	{ echo "ds64-campaign: needs Kamailio >= 6.0 (try: $0 root)" >&2; exit 1; }
kver=$(kamailio -V | sed -n 's/^version: kamailio \([^ ]*\).*/\1/p')

CORE_PORT=$PROXY_PORT
EDGE_PORT=$((T_BASE + 5))
CORE_CTL="unix:$T_DIR/core.ctl"
EDGE_CTL="unix:$T_DIR/edge.ctl"
echo "1 sip:127.0.0.1:$CORE_PORT" >"$T_DIR/ds.list"

cg=$(cg_make "$QUOTA_US" 100000)
PROBE_START=$((300 * QUOTA_US / 20000)) probe_capacity "$cg" 4 5 ||
	{ echo "ds64-campaign: no capacity found" >&2; exit 1; }
CAP=$PROBED_CAP
log "core capacity $CAP calls/s at $QUOTA_US/100000 us (Kamailio $kver)"

runs=$OUT/runs.csv
[ -s "$runs" ] || echo "time,kamailio,git,edge,mult,cap,rate,dur,core_rx_r,timely_r,good_r,announced,edge_503,core_rej,calls,ok200,failed" >"$runs"
# the checkout's commit (the root's copy has no .git: root mode passes it)
git=${GIT:-$(cd "$top" && git rev-parse --short HEAD 2>/dev/null || echo -)}

# run EDGE MULT: one run; appends its row
run() {
	local edge=$1 m=$2 rate=$(($2 * CAP)) tag="$1-$2x" mode=hop half first
	[ "$edge" != local ] || mode=local
	CTL=$CORE_CTL kam_start -c "$cg" -n "core-$tag" \
		"OVC_NETWORK_MODE=\"$mode\""
	local core=$T_KPID
	if [ "$edge" = ovc ]; then
		PROXY_PORT=$EDGE_PORT UAS_PORT=$CORE_PORT CTL=$EDGE_CTL \
			KAM_CHILDREN=$EDGE_CHILDREN kam_start -n "edge-$tag" \
			'OVC_NETWORK_MODE="hop"' OVC_DST_ADMIT
	else
		CFG="$TOP/configs/ds64-edge.cfg" PROXY_PORT=$EDGE_PORT \
			CTL=$EDGE_CTL KAM_CHILDREN=$EDGE_CHILDREN \
			kam_start -n "edge-$tag" "DS_LIST=\"$T_DIR/ds.list\""
	fi
	local edgep=$T_KPID
	uas_start "uas-$tag"
	PROXY_PORT=$EDGE_PORT UAC_TIMEOUT=$((DUR + 40)) uac_run "uac-$tag" \
		"$rate" $((rate * DUR)) -max_retrans 3 -recv_timeout 12000
	sleep 2.5
	uas_stop
	kamcmd -s "$CORE_CTL" ovc.csv >"$T_DIR/core-$tag.csv"
	T_KPID=$edgep CTL=$EDGE_CTL kam_stop
	T_KPID=$core CTL=$CORE_CTL kam_stop
	local csv=$T_DIR/core-$tag.csv
	first=$(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "invite_offered") c = i; next }
		$c > 0 { print $1; exit }' "$csv")
	half=$((DUR / 2))
	# core's COLUMN over its seconds [first+half, first+DUR): sum, mean
	win() {
		awk -F',' -v col="$1" -v a="$((first + half))" \
			-v b="$((first + DUR))" -v m="$2" '
			NR == 1 { for(i = 1; i <= NF; i++) if($i == col) c = i; next }
			c && $1 >= a && $1 < b { s += $c; n++ }
			END { if(m == "mean") s = n ? s / n : 0; printf "%.3f\n", s }' "$csv"
	}
	local rx ann rej timely good calls ok200 failed e503
	rx=$(win invite_offered sum)
	ann=$(win oc_reduction mean)
	rej=$(csv_sum "$csv" invite_rejected)
	timely=$(timely_rate "uac-$tag" "$half" "$DUR")
	good=$(completed_rate "uas-$tag" "$half" "$DUR")
	calls=$(counts_col "uac-$tag" 0_INVITE_Sent)
	ok200=$(counts_col "uac-$tag" 5_200_Recv)
	failed=$(stat_col "uac-$tag" 'FailedCall(C)')
	e503=$(counts_col "uac-$tag" 3_503_Recv)
	local row
	row=$(awk -v rx="$rx" -v t="$timely" -v g="$good" -v cap="$CAP" \
		-v s="$((DUR - half))" 'BEGIN { printf "%.3f,%.3f,%.3f",
			rx / s / cap, t / cap, g / cap }')
	echo "$(date -u +%FT%TZ),$kver,$git,$edge,$m,$CAP,$rate,$DUR,$row,$ann,$e503,$rej,$calls,$ok200,$failed" >>"$runs"
	log "$tag: core rx/cap, timely/cap, good/cap = $row; announced $ann %"
	mkdir -p "$OUT/runs/$tag"
	cp "$csv" "$OUT/runs/$tag/core.csv"
	cp "$T_DIR/uac-$tag/stat.csv" "$OUT/runs/$tag/uac-stat.csv"
}

for m in $MULTS; do
	for e in $EDGES; do
		run "$e" "$m"
	done
done
log "runs in $runs"
if [ -z "${GIT:-}" ]; then # root mode records on the host
	raw=()
	[ "$OUT" != "$top/bench/results/ds64" ] ||
		mapfile -t raw < <(find "$OUT/runs" -type f)
	"$top/bench/tools/results.sh" record "$OUT" \
		"Kamailio's dispatcher-64 edge against ovc's edge and local control" \
		"bench/campaigns/ds64.sh (EDGES='$EDGES' MULTS='$MULTS')" "${raw[@]}"
fi
finish
