#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/net-summary.sh - the figures of one network run (net-run.sh).
#
#   net-summary.sh [--header|--brief] DIR
#   net-summary.sh --columns                 the header line alone
#
# Prints one CSV row (--header: the header line first; --brief: one
# line for a human instead). Rates are per second over the run's steady
# window (meta.env win_from .. win_to):
#   offered_cps, goodput_cps (ACKs at the UAS), timely_cps (INVITE->200
#     < 500 ms at the UACs), r, g, g_timely (/ rho_m), bound_g
#     (min(r, 1): 000's bound for a perfect network)
#   core_rx_cps     initial INVITEs the core received (its ovc.csv
#                   invite_offered: retransmissions included); core_rx_r
#                   the same / rho_m
#   core_admitted_cps, core_rejected_cps (rejected + dropped by the core's
#                   ovc_admit)
#   edge_rejected_cps  INVITEs the edges' own ovc_admit rejected/dropped
#   edge_refused_cps   INVITEs the edges refused for the next hop
#                   (dst_refused), edge_passed_cps (dst_passed)
#   uac_503_cps     503/500 received by the UACs
#   reject_at_edge_pct  edges' share of all refusals/rejections
#   core_cpu        the core's cgroup CPU / quota (sampler); 
#   core_reject_cpu_pct  estimated share of the core's quota spent on
#                   its rejections (core_rejected_cps x calibrated CPU per
#                   refusal by ovc at datagram arrival, CPU_PER_REJECT_OVC_US;
#                   runs before 2026-11-27 08:50 UTC used the script's
#                   stateless 503, about twice that)
#   edge_cpu        the edges' Kamailio CPU, cores (sum)
#   retrans_per_call  INVITE retransmissions at the UACs / calls offered
#   setup_mean_ms, setup_p95_ms  INVITE->200 of the calls set up in the
#                   window (UAC rtt files)
#   oc_sent_cps, oc_reduction (core: responses carrying its oc, mean
#                   announced reduction %), oc_received_cps,
#                   dst_reduction_max (edges: feedback values taken,
#                   mean of the largest next-hop reduction in force, %)
#   core_rcvbuf_drops  the core host's UDP receive-buffer drops /s
#   g_late, g_timely_late, core_rx_r_late  goodput, timely goodput and
#                   the core's received INVITEs / rho_m over the window's
#                   last third only (the steady state, once a slow
#                   feedback loop has settled)
#   per proxy, for the chain (edge1 -> edge2 -> core) and any topology
#   with edges: edgeN_rx_cps (initial INVITEs edgeN received),
#   edgeN_refused_cps (refused for its next hop, dst_refused),
#   edgeN_rejected_cps (its own ovc_admit), edgeN_dst_red (mean
#   largest next-hop reduction in force at edgeN, %)
# Columns a module does not have yet are "-".
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
case "${1:-}" in
--columns) bench_nargs 1 1 "$@" ;;
--header | --brief) bench_nargs 2 2 "$@" ;;
-*) bench_bad "unknown option '$1'" ;;
*) bench_nargs 1 1 "$@" ;;
esac
# a run kept in bench/results may be in its campaign's raw.tar.xz
[ "${1:-}" = --columns ] || [ -d "${!#}" ] || [[ "${!#}" == *bench/results/* ]] ||
	bench_bad "DIR: no folder '${!#}'"
bench_args_checked
# analysis only: no load, so no load lock (lib.sh would take it)
BENCH_TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_BIN=${BENCH_BIN:-$BENCH_TOP/build/bench}

out=row
case "${1:-}" in
--columns) out=columns ;;
--header)
	out=header
	shift
	;;
--brief)
	out=brief
	shift
	;;
esac
dir=${1:?usage: net-summary.sh [--header|--brief] DIR | --columns}
# a run under bench/results: from its campaign's archive when packed
case "$(realpath -m "$dir")" in
"$BENCH_TOP"/bench/results/*)
	dir=$("$BENCH_TOP/bench/tools/results.sh" fetch "$dir")
	;;
esac

HEADER="topo,mode,profile,mult,rho_m,offered_cps,r,goodput_cps,g,timely_cps,g_timely,bound_g,core_rx_cps,core_rx_r,core_admitted_cps,core_rejected_cps,edge_rejected_cps,edge_refused_cps,edge_passed_cps,uac_503_cps,reject_at_edge_pct,core_cpu,core_reject_cpu_pct,edge_cpu,retrans_per_call,setup_mean_ms,setup_p95_ms,oc_sent_cps,oc_reduction,oc_received_cps,dst_reduction_max,core_rcvbuf_drops,sipp_cpu_max,failed_cps,g_late,g_timely_late,core_rx_r_late,edge1_rx_cps,edge1_refused_cps,edge1_rejected_cps,edge1_dst_red,edge2_rx_cps,edge2_refused_cps,edge2_rejected_cps,edge2_dst_red,git,ovc_so_md5,date,run"

# meta.env values (KEY=VALUE lines, no shell evaluation)
meta() { awk -F'=' -v k="$1" '$1 == k { sub(/^[^=]*=/, ""); v = $0 } END { print v }' "$dir/meta.env"; }

# ovcmean FILE COL...: per-second mean of each COL of a proxy's ovc.csv
# dumps (repeated dumps: the last row of each second) over [from, to);
# "-" for a column the file does not have
ovcmean() {
	local f=$1
	shift
	if [ ! -s "$f" ]; then
		for _ in "$@"; do echo -n "- "; done
		echo
		return
	fi
	awk -F',' -v from="$from" -v to="$to" -v cols="$*" '
		$1 == "time" { for(i = 1; i <= NF; i++) c[$i] = i; next }
		$1 ~ /^[0-9]+$/ && $1 >= from && $1 < to { row[$1] = $0 }
		END {
			n = split(cols, want, " ")
			for(k = 1; k <= n; k++) {
				if(!(want[k] in c)) { printf "- "; continue }
				s = 0
				for(t in row) { split(row[t], v, ","); s += v[c[want[k]]] }
				printf "%.2f ", s / (to - from)
			}
			print ""
		}' "$f"
}

# add A B: sums of two ovcmean values ("-" stays "-" only when both are)
add() { awk -v a="$1" -v b="$2" 'BEGIN {
	if(a == "-" && b == "-") print "-"; else printf "%.2f\n", (a == "-" ? 0 : a) + (b == "-" ? 0 : b) }'; }

# setup times of the calls whose 200 came in [from, to): "mean p95"
setup_stats() {
	local u f s
	for u in uac1 uac2; do
		f="$dir/${u}_rtt.csv"
		s="$dir/${u}_stat.csv"
		[ -s "$f" ] && [ -s "$s" ] || continue
		start=$(awk -F';' 'NR == 2 { split($1, a, "\t"); print a[3]; exit }' "$s")
		awk -F';' -v st="$start" -v a="$from" -v b="$to" '
			$3 == "setup" { t = st + $1 / 1000; if(t >= a && t < b) print $2 }' "$f"
	done | sort -g | awk '{ v[++n] = $1; s += $1 }
		END { if(!n) { print "- -"; exit }
			k = int(0.95 * n + 0.5); if(k < 1) k = 1
			printf "%.1f %.1f\n", s / n, v[k] }'
}

if [ "$out" = columns ]; then
	echo "$HEADER"
	exit 0
fi
if [ "$out" = header ]; then
	echo "$HEADER"
fi
from=$(meta win_from)
to=$(meta win_to)
rho=$(meta rho_m)
jg() { "$BENCH_BIN/ovc-jget" "$dir/summary.json" "$@"; }
read -r off good timely rej failed rpc scpu ccpu ecpu1 ecpu2 < <(jg \
	offered_cps goodput_cps timely_cps rejected_cps failed_cps \
	retrans_per_call extra_mean.sipp_cpu_max extra_mean.proxy_cpu \
	extra_mean.edge1_cpu extra_mean.edge2_cpu)
read -r crx cadm crej cdrop osent ored < <(ovcmean "$dir/core/ovc_raw.txt" \
	invite_offered invite_admitted invite_rejected invite_dropped oc_sent \
	oc_reduction)
erej=-
eref=-
epas=-
orecv=-
dmax=-
declare -A per=()
for e in edge1 edge2; do per[$e]="- - - -"; done
for e in $(meta edges); do
	read -r r1 d1 f1 p1 o1 m1 x1 < <(ovcmean "$dir/$e/ovc_raw.txt" \
		invite_rejected invite_dropped dst_refused dst_passed oc_received \
		dst_reduction_max invite_offered)
	per[$e]="$x1 $f1 $(add "$r1" "$d1") $m1"
	erej=$(add "$erej" "$(add "$r1" "$d1")")
	eref=$(add "$eref" "$f1")
	epas=$(add "$epas" "$p1")
	orecv=$(add "$orecv" "$o1")
	# the largest next-hop reduction: the mean over the edges
	dmax=$(add "$dmax" "$m1")
done
ne=$(meta edges | wc -w)
[ "$dmax" = - ] || dmax=$(awk -v a="$dmax" -v n="$ne" 'BEGIN { printf "%.2f", a / n }')
crej=$(add "$crej" "$cdrop")
read -r smean sp95 < <(setup_stats)
rb=$(awk -F',' -v a="$from" -v b="$to" '
	NR == 1 { for(i = 1; i <= NF; i++) if($i == "rcvbuf_err") c = i; next }
	c && $1 >= a && $1 < b { s += $c; n++ } END { printf "%.1f", n ? s / n : 0 }' \
	"$dir/sampler.csv" 2>/dev/null || echo -)
ecpu=$(add "$ecpu1" "$ecpu2")
# the window's last third: goodput and timely from merged.csv, the
# core's received INVITEs from its ovc.csv
lfrom=$(awk -v a="$from" -v b="$to" 'BEGIN { printf "%d", b - (b - a) / 3 }')
read -r glate gtlate < <(awk -F',' -v a="$lfrom" -v b="$to" -v r="$rho" '
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	$1 >= a && $1 < b { g += $(c["goodput_cps"]); t += $(c["timely_cps"]); n++ }
	END { if(n) printf "%.3f %.3f\n", g / n / r, t / n / r; else print "- -" }' \
	"$dir/merged.csv")
read -r rxlate < <(from=$lfrom ovcmean "$dir/core/ovc_raw.txt" invite_offered)
[ "$rxlate" = - ] || rxlate=$(awk -v a="$rxlate" -v r="$rho" 'BEGIN { printf "%.3f", a / r }')
cpr=$(meta cpu_per_reject_us)
quota=$(meta cpu_quota)
row=$(awk -v off="$off" -v good="$good" -v tm="$timely" -v rho="$rho" \
	-v crx="$crx" -v cadm="$cadm" -v crej="$crej" -v erej="$erej" \
	-v eref="$eref" -v epas="$epas" -v rej="$rej" -v ccpu="$ccpu" \
	-v cpr="$cpr" -v quota="$quota" -v ecpu="$ecpu" -v rpc="$rpc" \
	-v smean="$smean" -v sp95="$sp95" -v osent="$osent" -v ored="$ored" \
	-v orecv="$orecv" -v dmax="$dmax" -v rb="$rb" -v scpu="$scpu" \
	-v failed="$failed" 'function z(x) { return x == "-" ? 0 : x }
	function f(x, p) { return x == "-" || x == "" ? "-" : sprintf("%." p "f", x) }
	BEGIN {
		split(quota, q, "/"); share = q[2] > 0 ? q[1] / q[2] : 1
		r = off / rho
		b = r < 1 ? r : 1
		all = z(erej) + z(eref) + z(crej)
		edge_pct = all > 0 ? 100 * (z(erej) + z(eref)) / all : 0
		rcpu = (cpr != "" && crej != "-") ? 100 * crej * cpr / 1e6 / share : "-"
		printf "%s,%.3f,%s,%.3f,%s,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
			f(off, 1), r, f(good, 1), good / rho, f(tm, 1), tm / rho, b,
			f(crx, 1), (crx == "-" ? "-" : sprintf("%.3f", crx / rho)),
			f(cadm, 1), f(crej, 1), f(erej, 1), f(eref, 1), f(epas, 1),
			f(rej, 1), f(edge_pct, 1), f(ccpu, 3), f(rcpu, 1), f(ecpu, 3),
			f(rpc, 3), f(smean, 1), f(sp95, 1), f(osent, 1), f(ored, 1),
			f(orecv, 1), f(dmax, 1), f(rb, 1), f(scpu, 3), f(failed, 1), ""
	}')
row=${row%,}
perc=$(echo "${per[edge1]} ${per[edge2]}" | tr ' ' ',')
line="$(meta topo),$(meta mode),$(meta profile),$(meta peak_r),$rho,$row,$glate,$gtlate,$rxlate,$perc,$(meta git),$(meta ovc_so_md5),$(date -u -d "@$(meta t_start)" +%FT%TZ),$(basename "$dir")"
if [ "$out" = brief ]; then
	echo "$HEADER"$'\n'"$line" | awk -F',' '
		NR == 1 { for(i = 1; i <= NF; i++) h[i] = $i; next }
		{ printf "%s %s r=%s: goodput %s/s (g %s, timely %s), core rx %s/s, rejected edge %s + refused %s / core %s, core cpu %s, setup %s ms, retrans/call %s\n",
			$1, $2, $7, $8, $9, $10, $13, $17, $18, $16, $22, $26, $25
		  if($1 == "chain")
			printf "  chain: edge1 rx %s refused %s rejected %s (dst %s %%), edge2 rx %s refused %s rejected %s (dst %s %%)\n",
				$38, $39, $40, $41, $42, $43, $44, $45 }'
else
	echo "$line"
fi
