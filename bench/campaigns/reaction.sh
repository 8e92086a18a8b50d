#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/reaction.sh [ARM...]: how fast ovc's defaults react (issue 15). The
# integration tests' CPU-capped proxy on loopback; a background UAC offers
# LOW x rho_M for PRE + STEP + POST seconds, a second UAC adds
# (HIGH - LOW) x rho_M during [PRE, PRE + STEP): an instant step from LOW
# to HIGH and back. Per second (t = seconds since the first UAC started):
# calls set up within 500 ms (both UACs), 503s received, and ovc's own
# invite_rejected and overload columns, in $OUT/ARM.csv. Summary row per
# arm in $OUT/summary.csv:
#   steady_timely  median timely calls/s over [PRE + 5, PRE + STEP)
#   settle_s       first second after the step from which timely stays
#                  >= 0.9 x steady_timely (for 3 s), minus PRE
#   last_reject_s  last second with an ovc rejection after the step back,
#                  minus (PRE + STEP) (negative: none after it)
# ARM: an ovc algorithm with the module's defaults (default: occ).
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
for a in "$@"; do
	[[ "$a" =~ ^[A-Za-z0-9_.:=-]+$ ]] || bench_bad "ARM: '$a' is not an arm"
done
bench_num CAP "${CAP:-350}"
bench_num LOW "${LOW:-0.5}"
bench_num HIGH "${HIGH:-5}"
bench_int PRE "${PRE:-10}"
bench_int STEP "${STEP:-15}"
bench_int POST "${POST:-10}"
bench_int QUOTA_US "${QUOTA_US:-20000}"
bench_args_checked
here=$(cd "$(dirname "$0")/../.." && pwd)
export T_KEEP=${T_KEEP:-0}
# shellcheck source=../tests/integration/lib.sh
. "$here/tests/integration/lib.sh"
set +e

CAP=${CAP:-350}
LOW=${LOW:-0.5}
HIGH=${HIGH:-5}
PRE=${PRE:-10}
STEP=${STEP:-15}
POST=${POST:-10}
QUOTA_US=${QUOTA_US:-20000}
OUT=${OUT:-$here/bench/results/reaction}
arms=("$@")
[ ${#arms[@]} -gt 0 ] || arms=(occ)
mkdir -p "$OUT"
[ -s "$OUT/summary.csv" ] || echo "arm,cap_cps,low,high,steady_timely,settle_s,last_reject_s,date" >"$OUT/summary.csv"
# summarize ARM.csv: "steady settle last" (see the header; portable awk)
summarize() {
	awk -F',' -v pre="$PRE" -v step="$STEP" '
		NR == 1 { next }
		{ tm[$1] = $2; rj[$1] = $3; if($1 > max) max = $1 }
		END {
			n = 0
			for(t = pre + 5; t < pre + step; t++) v[++n] = tm[t]
			for(i = 2; i <= n; i++)	# insertion sort
				for(j = i; j > 1 && v[j - 1] > v[j]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			med = v[int((n + 1) / 2)]
			settle = -1
			for(t = pre; t < pre + step - 2; t++)
				if(tm[t] >= 0.9 * med && tm[t + 1] >= 0.9 * med &&
						tm[t + 2] >= 0.9 * med) {
					settle = t - pre
					break
				}
			last = -1
			for(t = pre + step; t <= max; t++)
				if(rj[t] > 0)
					last = t
			if(last >= 0)
				last = last - pre - step
			printf "%.1f %d %d\n", med, settle, last
		}' "$1"
}

# plot_all: one picture: timely calls/s and ovc's rejections per second over
# time, every arm, with the step's edges
plot_all() {
	plots=""
	colors=('#cc0000' '#0066cc' '#009900' '#cc6600' '#884488')
	i=0
	for a in "${arms[@]}"; do
		[ -s "$OUT/$a.csv" ] || continue
		c=${colors[$((i % ${#colors[@]}))]}
		plots+="'$OUT/$a.csv' using 1:2 with lines lw 2 lc rgb '$c' title '$a: timely/s', "
		plots+="'$OUT/$a.csv' using 1:3 axes x1y2 with lines lw 1 dt 2 lc rgb '$c' title '$a: rejected/s (right)', "
		i=$((i + 1))
	done
	if [ -n "$plots" ] && command -v gnuplot >/dev/null; then
		gnuplot <<GP
set terminal pngcairo size 1000,500 font ",11"
set output "$OUT/reaction.png"
set datafile separator ","
set title "Step from ${LOW}x to ${HIGH}x rho_M (= $CAP calls/s) at t = $PRE s and back at t = $((PRE + STEP)) s, module defaults"
set xlabel "t, s"
set ylabel "calls set up within 500 ms, /s"
set y2label "INVITEs rejected by ovc, /s"
set ytics nomirror
set y2tics
set grid
set key outside right top
set rmargin 28
set arrow from $PRE, graph 0 to $PRE, graph 1 nohead dt 3
set arrow from $((PRE + STEP)), graph 0 to $((PRE + STEP)), graph 1 nohead dt 3
plot ${plots%, }
GP
		log "plot: $OUT/reaction.png"
	fi
}

# SUMMARY_ONLY=1: recompute summary.csv (and the plot) from the per-second
# files in OUT
if [ "${SUMMARY_ONLY:-0}" = 1 ]; then
	echo "arm,cap_cps,low,high,steady_timely,settle_s,last_reject_s,date" >"$OUT/summary.csv"
	for a in "${arms[@]}"; do
		read -r steady settle last <<<"$(summarize "$OUT/$a.csv")"
		echo "$a,$CAP,$LOW,$HIGH,$steady,$settle,$last,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
		log "$a: steady timely $steady/s, settled $settle s after the step up, last rejection $last s after the step down"
	done
	plot_all
	exit 0
fi
cg=$(cg_make "$QUOTA_US" 100000)
cp "$MOD" "$T_DIR/ovc.so"
MOD="$T_DIR/ovc.so"
UAC2_PORT=$((T_BASE + 3))

for a in "${arms[@]}"; do
	lo=$(awk "BEGIN { printf \"%d\", $LOW * $CAP + 0.5 }")
	hi=$(awk "BEGIN { printf \"%d\", ($HIGH - $LOW) * $CAP + 0.5 }")
	total=$((PRE + STEP + POST))
	kam_start -c "$cg" -n "$a" "OVC_ALGORITHM=\"$a\"" || continue
	uas_start "${a}_uas"
	t_start=$(date +%s)
	UAC_TIMEOUT=$((total + 3)) uac_run "${a}_low" "$lo" $((lo * total)) &
	low=$!
	sleep "$PRE"
	mkdir -p "$T_DIR/${a}_high"
	(cd "$T_DIR/${a}_high" && timeout $((STEP + 3)) sipp -sf "$SCN/uac.xml" \
		-i 127.0.0.1 -p "$UAC2_PORT" "127.0.0.1:$PROXY_PORT" -s ovc \
		-r "$hi" -m $((hi * STEP)) -d 0 -l 100000 -nostdin -trace_stat \
		-stf stat.csv -trace_counts -fd 1 >out.txt 2>&1) &
	high=$!
	T_PIDS+=("$high")
	wait "$high"
	wait "$low"
	sleep 2.2
	rpc ovc.csv >"$T_DIR/$a.ovc.csv"
	uas_stop
	kam_stop
	# per second: timely of both UACs (the second one shifted by PRE),
	# ovc's rejections and overload state (rows from the first full second)
	# (SIPP_COLS: SIPp 3.8's "(C)" columns are the older versions' ones)
	awk -F';' -v pre="$PRE" -v out="$T_DIR/$a.timely" "$SIPP_COLS"'
		FNR == 1 { file++; delete c
			for(i = 1; i <= NF; i++)
				if(col($i) ~ /^ResponseTimeRepartitionsetup_<(50|100|200|500)$/) c[i] = 1
			prev = 0; next }
		{ s = 0; for(i in c) s += $i; t = FNR - 2 + (file == 2 ? pre : 0)
			tim[t] += s - prev; prev = s; if(t > max) max = t }
		END { for(t = 0; t <= max; t++) print t, tim[t] + 0 > out }' \
		"$T_DIR/${a}_low/stat.csv" "$T_DIR/${a}_high/stat.csv"
	awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) col[$i] = i; next }
		{ print $1, $(col["invite_rejected"]), $(col["overload"]) }' \
		"$T_DIR/$a.ovc.csv" >"$T_DIR/$a.ovc"
	awk -v t0="$t_start" '
		FNR == NR { tm[$1] = $2; if($1 > max) max = $1; next }
		$1 >= t0 { rj[$1 - t0] = $2; ov[$1 - t0] = $3 }
		END { print "t,timely,ovc_rejected,overload"
			for(t = 0; t <= max; t++) printf "%d,%d,%d,%d\n", t, tm[t], rj[t], ov[t] }' \
		"$T_DIR/$a.timely" "$T_DIR/$a.ovc" >"$OUT/$a.csv"
	read -r steady settle last <<<"$(summarize "$OUT/$a.csv")"
	echo "$a,$CAP,$LOW,$HIGH,$steady,$settle,$last,$(date -u +%FT%TZ)" >>"$OUT/summary.csv"
	log "$a: steady timely $steady/s, settled ${settle} s after the step up, last rejection ${last} s after the step down"
	sleep 1
done
plot_all
"$here/bench/tools/results.sh" record "$OUT" \
	"how fast the defaults react to a step $LOW -> $HIGH -> $LOW x capacity" \
	"bench/campaigns/reaction.sh"
