#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/headline-csv.sh - the headline's CSV from a run of headline.sh.
#
#   headline-csv.sh RAW FROM TO SECS
#
# RAW: headline.sh's run directory (calibration.env, sweep/sweep-points.csv,
# sweep/ovc.so: the module the sweep loaded); FROM, TO: when the load lock
# was taken and released (UTC); SECS: seconds per run. One row per point
# (arm, offered load), each with the measurement's identity: the module's
# sha256 (first 16 hex digits), the commit and the id of the module's
# source (scripts/module-id.sh) of this checkout, the proxy's CPU quota,
# the calibrated capacity rho_M and ovc's beta. Per point: runs, timely
# goodput / rho_M (calls set up within 500 ms) median, smallest and
# largest run, completed calls / rho_M (median), the medians of the runs'
# mean and p95 setup (ms), INVITE retransmissions per call, 503s/s and
# the mean acceptance fraction f of the papers' controller ("-" without ovc).
# CSV on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 4 ] || { echo "usage: headline-csv.sh RAW FROM TO SECS" >&2; exit 2; }
raw=$1 from=$2 to=$3 secs=$4
pts="$raw/sweep/sweep-points.csv"
[ -s "$pts" ] || { echo "headline-csv: no $pts" >&2; exit 1; }
[ -s "$raw/calibration.env" ] ||
	{ echo "headline-csv: no $raw/calibration.env" >&2; exit 1; }
rho=$(sed -n 's/^RHO_M=//p' "$raw/calibration.env")
beta=$(sed -n 's/^BETA_OVC=//p' "$raw/calibration.env")
quota=$(sed -n 's|^# proxy CPU cap \([0-9]*\) us / \([0-9]*\) us|\1 \2|p' \
	"$raw/calibration.env" | awk '{ printf "%.2f", $1 / $2 }')
sha=-
[ -f "$raw/sweep/ovc.so" ] && sha=$(sha256sum "$raw/sweep/ovc.so" | cut -c1-16)
commit=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || echo -)
tree=$("$top/scripts/module-id.sh" "$top")
echo "from,to,commit,module_id,ovc_so_sha256,cpu_quota,rho_m,beta_ovc,secs,arm,offered,runs,timely_med,timely_min,timely_max,completed_med,setup_mean_ms,setup_p95_ms,retrans_per_call,rejected_cps,f_med"
awk -F, -v OFS=, -v id="$from,$to,$commit,$tree,$sha,$quota,$rho,${beta:--},$secs" '
NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
function f2(v) { return v == "-" ? v : sprintf("%.2f", v) }
function f0(v) { return v == "-" ? v : sprintf("%.0f", v) }
{
	print id, $c["algorithm"], $c["r_target"], $c["runs"],
		f2($c["g_timely_med"]), f2($c["g_timely_min"]),
		f2($c["g_timely_max"]), f2($c["g_med"]),
		f0($c["setup_mean_ms"]), f0($c["setup_p95_ms"]),
		f2($c["retrans_per_call"]), f0($c["rejected_cps"]), f2($c["f"])
}' "$pts" | sort -t, -k10,10 -k11,11g
