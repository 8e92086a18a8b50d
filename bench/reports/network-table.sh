#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/network-table.sh [RUNS_CSV]: the network campaign's runs.csv
# (default bench/results/network/runs.csv) as Markdown tables, one per
# topology: per mode and offered multiple, goodput and timely goodput /
# rho_M (whole window and its last third), the core's received INVITEs /
# rho_M, where the refusals happened (per second at the edges and at the
# core), the core's CPU and its estimated share on rejections, mean setup
# delay and INVITE retransmissions per call; for the chain (edge1 ->
# edge2 -> core) a second table with the refusals per proxy. The last row
# of each (topology, mode, multiple) counts.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || [ -f "$1" ] || bench_bad "RUNS_CSV: no file '$1'"
bench_args_checked
runs=${1:-$(cd "$(dirname "$0")/.." && pwd)/results/network/runs.csv}
[ -s "$runs" ] || { echo "no runs in $runs" >&2; exit 1; }
awk -F',' '
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $(c["topo"]) SUBSEP $(c["mode"]) SUBSEP $(c["mult"]); if(!(k in last)) ord[++n] = k; last[k] = $0 }
	function v(name) { return (name in c) ? f[c[name]] : "-" }
	END {
		split("tandem fanin chain", topos, " ")
		split("none local hop e2e", modes, " ")
		for(ti = 1; ti <= 3; ti++) {
			t = topos[ti]; hdr = 0
			for(mi = 1; mi <= 4; mi++) for(x = 1; x <= 64; x *= 2) {
				k = t SUBSEP modes[mi] SUBSEP x
				if(!(k in last)) continue
				if(!hdr) {
					printf "\n**%s**\n\n", t
					print "| mode | r | g | g timely | g late | core rx / rho_M | core rx late | refused at edges /s | rejected at core /s | edges % | core CPU | core CPU on rejects % | setup mean ms | retrans/call |"
					print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
					hdr = 1
				}
				split(last[k], f, ",")
				er = (v("edge_refused_cps") == "-" ? 0 : v("edge_refused_cps")) + (v("edge_rejected_cps") == "-" ? 0 : v("edge_rejected_cps"))
				printf "| %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n",
					modes[mi], v("r"), v("g"), v("g_timely"), v("g_late"), v("core_rx_r"),
					v("core_rx_r_late"), er, v("core_rejected_cps"), v("reject_at_edge_pct"),
					v("core_cpu"), v("core_reject_cpu_pct"), v("setup_mean_ms"), v("retrans_per_call")
			}
		}
		# the chain: who refused, per proxy (refused for the next hop +
		# rejected by its own ovc_admit, per second)
		hdr = 0
		for(mi = 1; mi <= 4; mi++) for(x = 1; x <= 64; x *= 2) {
			k = "chain" SUBSEP modes[mi] SUBSEP x
			if(!(k in last)) continue
			if(!hdr) {
				printf "\n**chain, per proxy**\n\n"
				print "| mode | r | g | g late | edge1 rx /s | edge1 refused /s | edge1 reduction in force % | edge2 rx /s | edge2 refused /s | edge2 reduction in force % | core rx /s | core rejected /s |"
				print "|---|---|---|---|---|---|---|---|---|---|---|---|"
				hdr = 1
			}
			split(last[k], f, ",")
			printf "| %s | %s | %s | %s | %s | %.1f | %s | %s | %.1f | %s | %s | %s |\n",
				modes[mi], v("r"), v("g"), v("g_late"), v("edge1_rx_cps"),
				v("edge1_refused_cps") + v("edge1_rejected_cps"), v("edge1_dst_red"),
				v("edge2_rx_cps"), v("edge2_refused_cps") + v("edge2_rejected_cps"),
				v("edge2_dst_red"), v("core_rx_cps"), v("core_rejected_cps")
		}
	}' "$runs"
