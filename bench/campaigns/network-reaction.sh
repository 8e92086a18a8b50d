#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/network-reaction.sh - how fast the edges follow the core's
# feedback (issue 18's target: within 2 s). For each topology in TOPOS
# (default "tandem fanin"), one net-run.sh in MODE (default hop): PRE s
# (default 10) at LOW x rho_M (0.5), an instant step to HIGH x rho_M (4)
# for STEP s (20), then back to 0.5 (net-run's instant profile); the
# edges' ovc.dst polled every POLL_MS (100).
#
# From the polls, per POLL_MS slot after the step (the rate change's own
# time stamp, rates.log), summed over the edges: INVITEs the edges
# refused for the core and let through (ovc.dst refused, passed: their
# increase since the previous poll), the refusal fraction
# refused / (refused + passed), and the largest reduction in force. The
# core's needed reduction is 1 - rho_M / offered (offered: the UACs' mean
# rate over the step); the results, per topology:
#   first_s    first slot whose refusal fraction reaches 0.9 x needed
#   settled_s  first slot from which the 1-s moving refusal fraction
#              stays >= 0.9 x needed for the rest of the step (minus 1 s
#              for the one not yet full at its start)
#   match_s    first slot from which the 1-s moving refusal fraction
#              stays within 0.1 of the needed reduction for the rest of
#              the step (minus 1 s): "matches" it, neither short of it
#              nor refusing what the core could take
#   steady     the mean refusal fraction over the step's second half
# in $OUT/reaction/TOPO.csv (per slot), TOPO-1s.csv (per second, from the
# edges' ovc.csv: dst_refused, dst_passed, dst_reduction_max, oc_received;
# the core's invite_offered and oc_reduction) and summary.csv (appended).
# rho_M: RHO_M, else $RAW/calibration.env (network.sh
# calibrate). Holds the load lock; testbed as network.sh.
# ANALYSE_ONLY=1: no runs, the summary again from the folders in
# $RAW/reaction/ (summary.csv rewritten).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
for t in ${TOPOS:-tandem}; do bench_oneof TOPOS "$t" tandem fanin chain; done
bench_oneof MODE "${MODE:-hop}" local hop e2e none
bench_num LOW "${LOW:-0.5}"
bench_num HIGH "${HIGH:-4}"
bench_int PRE "${PRE:-10}"
bench_int STEP "${STEP:-20}"
bench_int POLL_MS "${POLL_MS:-100}"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
export BENCH_CPU_QUOTA_US=${BENCH_CPU_QUOTA_US:-5000}
# analysing only starts no load: no load lock
[ "${ANALYSE_ONLY:-0}" = 1 ] && export OVC_LOAD_LOCKED=analysis
. "$here/testbed/lib.sh"

TOPOS=${TOPOS:-tandem fanin}
MODE=${MODE:-hop}
LOW=${LOW:-0.5}
HIGH=${HIGH:-4}
PRE=${PRE:-10}
STEP=${STEP:-20}
POLL_MS=${POLL_MS:-100}
OUT=${OUT:-$BENCH_TOP/bench/results/network}
RAW=${RAW:-$BENCH_OUT/network}
export BENCH_OUT=$RAW
mkdir -p "$OUT/reaction" "$RAW"

if [ -n "${RHO_M:-}" ]; then
	rho=$RHO_M
else
	[ -f "$RAW/calibration.env" ] ||
		die "no $RAW/calibration.env: network.sh calibrate (or RHO_M)"
	rho=$(. "$RAW/calibration.env" && echo "$RHO_M")
fi

brought_up=no
if [ "${ANALYSE_ONLY:-0}" = 1 ]; then
	:
elif bench_is_up; then
	q=$(cg_quota "$BENCH_CG" 2>/dev/null | cut -d' ' -f1) || q=-
	grep -qx edge2 "$BENCH_STATE/hosts" && [ "$q" = "$BENCH_CPU_QUOTA_US" ] ||
		die "a testbed is up without edge2 or with quota $q us: down first"
else
	"$here/testbed/testbed.sh" up --edges 2
	brought_up=yes
fi
trap '[ "$brought_up" = yes ] && "$here/testbed/testbed.sh" down' EXIT
make -C "$BENCH_TOP" -s bench-tools # stale tools rebuilt too
if [ -z "${BENCH_OVC_SO:-}" ] && [ "${ANALYSE_ONLY:-0}" != 1 ]; then
	cp "$BENCH_TOP/modules/ovc/ovc.so" "$RAW/ovc-reaction.so"
	export BENCH_OVC_SO=$RAW/ovc-reaction.so
fi

sum="$OUT/reaction/summary.csv"
[ "${ANALYSE_ONLY:-0}" = 1 ] && rm -f "$sum"
[ -s "$sum" ] || echo "topo,mode,rho_m,low,high,offered_cps,needed,threshold,first_s,settled_s,match_s,steady,core_rx_r_steady,git,ovc_so_md5,date" >"$sum"

# per_second DIR TSTEP: per second (t: seconds since the step's second)
# the core's received INVITEs and announced reduction, the edges' dst
# counters summed, their refusal fraction and the largest reduction
per_second() {
	local d=$1 a=$2 f
	for f in "$d"/core/ovc_raw.txt "$d"/edge*/ovc_raw.txt; do
		[ -s "$f" ] || continue
		awk -F',' -v w="$(basename "$(dirname "$f")")" '
			$1 == "time" { delete c; for(i = 1; i <= NF; i++) c[$i] = i; next }
			function g(n) { return (n in c) ? $(c[n]) : "" }
			$1 ~ /^[0-9]+$/ { print w, $1, g("invite_offered"), g("oc_reduction"),
				g("dst_refused"), g("dst_passed"), g("dst_reduction_max"),
				g("oc_received") }' "$f"
	done | awk -v a="$a" '
		{ k = $1 " " $2; if(k in seen) next; seen[k] = 1
		  t = $2 - int(a)
		  if($1 == "core") { rx[t] = $3; ored[t] = $4 }
		  else { ref[t] += $5; pas[t] += $6; if($7 + 0 > dm[t]) dm[t] = $7 + 0
			orc[t] += $8 }
		  if(t < lo) lo = t; if(t > hi) hi = t }
		END {
			print "t_s,core_rx,core_oc_reduction,edge_refused,edge_passed,refusal_fraction,dst_reduction_max,oc_received"
			for(t = lo; t <= hi; t++) {
				n = ref[t] + pas[t]
				printf "%d,%s,%s,%d,%d,%.3f,%s,%d\n", t, rx[t] + 0, (ored[t] == "" ? "-" : ored[t]),
					ref[t], pas[t], (n > 0 ? ref[t] / n : 0), dm[t] + 0, orc[t] + 0
			}
		}'
}

# analyse DIR TOPO: the per-slot series and the summary row
analyse() {
	local d=$1 t=$2 tstep tend off git md5 e
	tstep=$(awk -v h="$HIGH" -v r="$rho" '
		$2 == int(h * r + 0.5) { print $1; exit }' "$d/rates.log")
	[ -n "$tstep" ] || die "no step to $HIGH x in $d/rates.log"
	tend=$(awk -v a="$tstep" '$1 > a { print $1; exit }' "$d/rates.log")
	[ -n "$tend" ] || tend=$(awk -v a="$tstep" -v s="$STEP" 'BEGIN { print a + s }')
	# offered over the step: the UACs' rate in merged.csv
	off=$(awk -F',' -v a="$tstep" -v b="$tend" '
		NR == 1 { for(i = 1; i <= NF; i++) if($i == "offered_cps") c = i; next }
		$1 >= int(a) + 1 && $1 < int(b) { s += $c; n++ }
		END { printf "%.1f", n ? s / n : 0 }' \
		"$d/merged.csv")
	for e in $(awk -F'=' '$1 == "edges" { print $2 }' "$d/meta.env"); do
		"$here/reports/net-dst.sh" "$d/$e.dst.txt" | awk -F',' -v e="$e" \
			'NR > 1 { print e "," $0 }'
	done | awk -F',' -v a="$tstep" -v b="$tend" -v ms="$POLL_MS" \
		-v off="$off" -v rho="$rho" -v pre="$PRE" '
		# e,time,hop,reduction,validity_ms,seq,feedbacks,passed,refused,..
		{
			k = $1 "|" $3
			if(k in lp) {
				s = int(($2 - a) * 1000 / ms + (($2 < a) ? -1 : 0))
				dp[s] += $8 - lp[k]; dr[s] += $9 - lr[k]
				if($4 + 0 > red[s]) red[s] = $4 + 0
				seen[s] = 1
				if(s < lo) lo = s; if(s > hi) hi = s
			}
			lp[k] = $8; lr[k] = $9
		}
		END {
			need = off > 0 ? 1 - rho / off : 0
			if(need < 0) need = 0
			thr = 0.9 * need
			w = int(1000 / ms)
			last = int((b - a) * 1000 / ms) - 1
			print "slot_s,passed,refused,fraction,frac_1s,reduction_max,needed" > "/dev/stderr"
			first = -1; settled = -1
			for(s = -int(pre * 1000 / ms); s <= hi; s++) {
				p = dp[s] + 0; r = dr[s] + 0
				fr = (p + r) > 0 ? r / (p + r) : 0
				sp = 0; sr = 0
				for(j = s - w + 1; j <= s; j++) { sp += dp[j]; sr += dr[j] }
				f1 = (sp + sr) > 0 ? sr / (sp + sr) : 0
				mov[s] = f1
				printf "%.1f,%d,%d,%.3f,%.3f,%d,%.3f\n", s * ms / 1000, p, r, fr,
					f1, red[s], need > "/dev/stderr"
				if(s >= 0 && s <= last && first < 0 && fr >= thr && (p + r) > 0)
					first = s
			}
			match_ = -1
			for(s = 0; s <= last; s++) {
				ok = 1
				for(j = s; j <= last; j++) if(mov[j] < thr) { ok = 0; break }
				if(ok) { settled = s; break }
			}
			for(s = 0; s <= last; s++) {
				ok = 1
				for(j = s; j <= last; j++)
					if(mov[j] < need - 0.1 || mov[j] > need + 0.1) { ok = 0; break }
				if(ok) { match_ = s; break }
			}
			hp = 0; hr = 0
			for(s = int((last + 1) / 2); s <= last; s++) { hp += dp[s]; hr += dr[s] }
			fs = "-"
			if(first >= 0) fs = sprintf("%.1f", first * ms / 1000)
			ss = "-"
			if(settled >= 0) {
				x = settled * ms / 1000 - 1
				ss = sprintf("%.1f", (x > 0 ? x : 0))
			}
			ms_ = "-"
			if(match_ >= 0) {
				x = match_ * ms / 1000 - 1
				ms_ = sprintf("%.1f", (x > 0 ? x : 0))
			}
			printf "%.1f %.3f %.3f %s %s %s %.3f\n", off, need, thr, fs, ss,
				ms_, ((hp + hr) > 0 ? hr / (hp + hr) : 0)
		}' 2>"$OUT/reaction/$t.csv" >"$d/reaction.txt"
	# per second, from the edges' and the core's ovc.csv
	per_second "$d" "$tstep" >"$OUT/reaction/$t-1s.csv" || true
	read -r off need thr first settled match steady <"$d/reaction.txt"
	local crx
	# t_s is relative to the step's second: its second half, whole seconds
	crx=$(awk -F',' -v d="$(awk -v a="$tstep" -v b="$tend" \
		'BEGIN { print int(b) - int(a) }')" -v r="$rho" '
		NR == 1 { next }
		$1 >= int(d / 2) && $1 < d { s += $2; n++ }
		END { printf "%.3f", n ? s / n / r : 0 }' "$OUT/reaction/$t-1s.csv" 2>/dev/null || echo -)
	git=$(awk -F'=' '$1 == "git" { print $2 }' "$d/meta.env")
	md5=$(awk -F'=' '$1 == "ovc_so_md5" { print $2 }' "$d/meta.env")
	echo "$t,$MODE,$rho,$LOW,$HIGH,$off,$need,$thr,$first,$settled,$match,$steady,$crx,$git,$md5,$(date -u +%FT%TZ)" >>"$sum"
	say "$t: offered $off/s over the step, needed reduction $need;" \
		"refusals reach 0.9 x needed after $first s (settled $settled s)," \
		"match it within 0.1 from $match s, steady refusal fraction" \
		"$steady, core receives $crx x rho_M (2nd half)"
}

for t in $TOPOS; do
	d="$RAW/reaction/$t-$MODE"
	if [ "${ANALYSE_ONLY:-0}" = 1 ]; then
		analyse "$d" "$t"
		continue
	fi
	say "reaction $t ($MODE): $LOW -> $HIGH x $rho cps"
	BENCH_WARM_R=$LOW "$here/runners/net-run.sh" -t "$t" -m "$MODE" -p instant \
		-r "$HIGH" -w "$PRE" -d "$STEP" -R "$rho" -i "$POLL_MS" -o "$d" \
		>"$RAW/reaction-$t.log" 2>&1 || {
		tail -n3 "$RAW/reaction-$t.log" >&2
		die "run failed: $RAW/reaction-$t.log"
	}
	analyse "$d" "$t"
	"$here/reports/net-keep.sh" "$d" "$OUT/reaction/$t-run"
done
raw=()
[ "$OUT" != "$BENCH_TOP/bench/results/network" ] ||
	mapfile -t raw < <(find "$OUT/reaction" -path '*-run/*' -type f)
"$BENCH_TOP/bench/tools/results.sh" record "$OUT" \
	"how fast the edges follow the core's RFC 7339 feedback ($MODE, $LOW -> $HIGH x rho_M)" \
	"bench/campaigns/network-reaction.sh" "${raw[@]}"
