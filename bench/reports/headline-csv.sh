#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/headline-csv.sh - the headline's CSV from a run of headline.sh.
#
#   headline-csv.sh RAW FROM TO SECS
#
# RAW: headline.sh's run directory (calibration.env, sweep/sweep-points.csv,
# sweep/ovc.so: the module the sweep loaded); FROM, TO: when the load lock
# was taken and released (UTC); SECS: seconds per run. One row per point
# (arm, offered load), each with the measurement's identity: the module's
# sha256 (first 16 hex digits), the commit and the id of the module's
# source (scripts/build/module-id.sh) of this checkout, the proxy's CPU quota,
# the calibrated capacity rho_M and ovc's beta. Per point: runs, timely
# goodput / rho_M (calls set up within 500 ms) median, smallest and
# largest run, completed calls / rho_M (median), the medians of the runs'
# mean and p95 setup (ms), INVITE retransmissions per call, 503s/s, the
# mean acceptance fraction f of the papers' controller, and who refused:
# the shares (%) of the initial INVITEs reaching the host that the kernel
# stage dropped, the age limit refused (late: of them, calls the stage had
# dropped before) and the rest refused (f, the guard, the fair share);
# "-" without ovc. Writes RAW/who-refused.txt (one line per run) on the
# way.
# CSV on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/bench/tools/args.sh"
bench_help_if "$0" "$@"
[ $# -eq 4 ] || bench_bad "takes RAW FROM TO SECS"
raw=$1 from=$2 to=$3 secs=$4
[ -d "$raw" ] || bench_bad "RAW: no folder '$raw'"
bench_int SECS "$secs"
bench_args_checked
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
tree=$("$top/scripts/build/module-id.sh" "$top")
jget=${BENCH_BIN:-$top/build/bench}/ovc-jget

# who_refused RUN: "kstage age late other" for one run with ovc: the
# shares (%) of the initial INVITEs that reached the host in the run's
# steady window (those ovc saw, invite_offered, plus those the kernel
# stage dropped unseen) that the kernel stage dropped, the age limit
# refused (late: of them, retransmissions of calls the stage had dropped)
# and the rest refused (the controller's f, the guard, the fair share);
# from the proxy's per-second rows (ovc_raw.txt, kamcmd ovc.csv, a second
# read twice counted once). Nothing when the run has no rows.
who_refused() {
	local run=$1 w0 w1
	[ -s "$run/ovc_raw.txt" ] && [ -x "$jget" ] || return 0
	read -r w0 w1 < <("$jget" "$run/summary.json" window_from window_to) ||
		return 0
	awk -F, -v w0="$w0" -v w1="$w1" '
	function col(n) { return n in c ? $c[n] + 0 : 0 }
	{ gsub(/^[ \t"]+|[ \t"\r]+$/, "") }
	/^time,/ { for(i = 1; i <= NF; i++) c[$i] = i; next }
	!("time" in c) || $1 !~ /^[0-9]+$/ || $1 < w0 || $1 >= w1 { next }
	{
		t = $1
		off[t] = col("invite_offered"); ks[t] = col("kstage_drops")
		age[t] = col("age_rejects"); late[t] = col("late_rejects")
		rej[t] = col("invite_rejected") + col("invite_dropped")
	}
	END {
		for(t in off) {
			a += off[t] + ks[t]; k += ks[t]; g += age[t]; l += late[t]
			o += rej[t] - age[t]
		}
		if(a > 0)
			printf "%.1f %.1f %.1f %.1f\n", 100 * k / a, 100 * g / a,
				100 * l / a, 100 * (o > 0 ? o : 0) / a
	}' "$run/ovc_raw.txt"
}
# per (arm, load): the median over the runs of each share
for run in "$raw"/sweep/*-r*-k*/; do
	run=${run%/}
	b=${run##*/}
	[[ "$b" =~ ^(.+)-r([0-9.]+)-k[0-9]+$ ]] || continue
	s=$(who_refused "$run")
	[ -n "$s" ] && echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $s"
done >"$raw/who-refused.txt"

echo "from,to,commit,module_id,ovc_so_sha256,cpu_quota,rho_m,beta_ovc,secs,arm,offered,runs,timely_med,timely_min,timely_max,completed_med,setup_mean_ms,setup_p95_ms,retrans_per_call,rejected_cps,f_med,kstage_pct,age_pct,late_pct,other_pct"
awk -v OFS=, -v id="$from,$to,$commit,$tree,$sha,$quota,$rho,${beta:--},$secs" '
function med(a, n,   i, j, t) {
	for(i = 2; i <= n; i++)
		for(j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function f2(v) { return v == "-" ? v : sprintf("%.2f", v) }
function f0(v) { return v == "-" ? v : sprintf("%.0f", v) }
FILENAME != pts { k = $1 SUBSEP $2; n[k]++; for(i = 3; i <= 6; i++) v[k, i, n[k]] = $i; next }
FNR == 1 { FS = ","; $0 = $0; for(i = 1; i <= NF; i++) c[$i] = i; next }
{
	k = $c["algorithm"] SUBSEP $c["r_target"]
	who = ",-,-,-,-"
	if(k in n) {
		who = ""
		for(i = 3; i <= 6; i++) {
			for(j = 1; j <= n[k]; j++) a[j] = v[k, i, j]
			who = who "," sprintf("%.1f", med(a, n[k]))
			delete a
		}
	}
	print id, $c["algorithm"], $c["r_target"], $c["runs"],
		f2($c["g_timely_med"]), f2($c["g_timely_min"]),
		f2($c["g_timely_max"]), f2($c["g_med"]),
		f0($c["setup_mean_ms"]), f0($c["setup_p95_ms"]),
		f2($c["retrans_per_call"]), f0($c["rejected_cps"]), f2($c["f"]) who
}' "$raw/who-refused.txt" pts="$pts" FS=, "$pts" | sort -t, -k10,10 -k11,11g
