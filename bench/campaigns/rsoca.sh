#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/rsoca.sh - R-SOCA's campaigns of paper 004 §IV on the
# testbed, scaled to the capped proxy: the engineered load E_I is a fifth of
# the measured capacity rho_M (out/calibration.env), loads are multiples of
# E_I (run.sh -R E_I), C_min/C_max 0.3/0.6 of the CPU quota.
#
#   rsoca.sh flash     linear flash crowd 0.5 -> 5 E_I and back
#                               (004 Fig. 3-6): rsoca, bbc (503 on a queue
#                               threshold), none; ~50 s per run
#   rsoca.sh heavy     constant 10 E_I (004 Fig. 7-8): rsoca, none
#   rsoca.sh byeflood  BYE flood at 12 E_I, not retransmitted, with
#                               INVITEs at 1 and 2 E_I (004 Tab. I-III):
#                               rsoca at p_pass 0.03 and 0.1, none, and a
#                               503-only control (rsoca without DoS drop,
#                               503 above C_max); ~50 s per run
#   rsoca.sh bigflood  the same attack at 48 E_I, INVITEs at 1 E_I:
#                               rsoca (p_pass 0.03), none, 503-only
#   rsoca.sh report    tables (report.md) and plots from what exists
#   rsoca.sh all       flash, heavy, byeflood, report
#
# Each run is one bench/runners/run.sh (which takes the machine-wide load lock for
# its own duration). Existing runs are kept unless RS_FORCE=1. Knobs: RS_EI,
# RS_CMIN, RS_CMAX, RS_DUR (hold/ramp length, default 30 s flash, 20 s
# others), RS_ONLY (a space-separated list of run tags).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 1 "$@"
bench_oneof command "$1" flash heavy byeflood bigflood report all
[ -z "${RS_EI:-}" ] || bench_int RS_EI "$RS_EI"
bench_num RS_CMIN "${RS_CMIN:-0.3}"
bench_num RS_CMAX "${RS_CMAX:-0.6}"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
BENCH_OUT=${BENCH_OUT:-$top/bench/out}
out=$BENCH_OUT/rsoca
cal=$BENCH_OUT/calibration.env
[ -f "$cal" ] || { echo "no $cal: run bench/runners/calibrate.sh first" >&2; exit 1; }
RHO=$(. "$cal" && echo "$RHO_M")
EI=${RS_EI:-$(awk -v r="$RHO" 'BEGIN { printf "%d", 0.2 * r + 0.5 }')}
CMIN=${RS_CMIN:-0.3}
CMAX=${RS_CMAX:-0.6}
FLOOD=$((12 * EI))
mkdir -p "$out"
say() { echo "rsoca-campaign: $*" >&2; }

# R-SOCA with E_I, its thresholds and n = 8 (SIPp sends a non-INVITE 8
# times: 7 retransmissions by default)
rs() { echo rsoca.ei="$EI" rsoca.cmin="$CMIN" rsoca.cmax="$CMAX" rsoca.nretx=8 "$@"; }
# 503-only control (004 Tab. III): no DoS drop (p_pass 0: cap 0), no burst
# budget (E_I 0), reject everything new with 503 once the CPU is above
# C_max (a 0.01-wide ramp)
ctl503() {
	echo rsoca.ppass=0 rsoca.ei=0 rsoca.cmax="$CMAX" \
		rsoca.cmin="$(awk -v c="$CMAX" 'BEGIN { print c - 0.01 }')" \
		rsoca.reject_code=503
}

# run TAG ALG "PARAMS" RUN.SH-ARGS...
run() {
	local tag=$1 alg=$2 params=$3 p
	shift 3
	local -a pa=()
	if [ -n "${RS_ONLY:-}" ] && [[ " $RS_ONLY " != *" $tag "* ]]; then
		return 0
	fi
	if [ -f "$out/$tag/summary.json" ] && [ "${RS_FORCE:-0}" != 1 ]; then
		say "$tag: kept"
		return 0
	fi
	for p in $params; do pa+=(-P "$p"); done
	"$top/bench/testbed/testbed.sh" status 2>/dev/null | grep -q 'testbed: up' ||
		"$top/bench/testbed/testbed.sh" up >&2
	rm -rf "${out:?}/$tag"
	say "$tag: run.sh -a $alg ${pa[*]} -R $EI $*"
	"$top/bench/runners/run.sh" -a "$alg" "${pa[@]}" -R "$EI" -o "$out/$tag" "$@" \
		>"$out/$tag.log" 2>&1 || say "$tag failed: $out/$tag.log"
}

cmd_flash() {
	local d=${RS_DUR:-30}
	run flash-rsoca rsoca "$(rs)" -p gradual -r 5 -d "$d" -w 3
	run flash-bbc bbc "" -p gradual -r 5 -d "$d" -w 3
	run flash-none none "" -p gradual -r 5 -d "$d" -w 3
}

# The same attack at 48 E_I (3408 BYEs/s): at 12 E_I the capped proxy
# answers the flood's BYEs (404, stateless) within C_max, so it is no
# overload here; 48 E_I is.
cmd_bigflood() {
	local d=${RS_DUR:-15}
	export BENCH_DRAIN_S=24 BENCH_FLOOD_TAIL_S=24
	run bigbye1-rsoca003 rsoca "$(rs rsoca.ppass=0.03)" \
		-p constant -r 1 -d "$d" -w 3 -F $((48 * EI))
	run bigbye1-none none "" -p constant -r 1 -d "$d" -w 3 -F $((48 * EI))
	run bigbye1-ctl503 rsoca "$(ctl503)" \
		-p constant -r 1 -d "$d" -w 3 -F $((48 * EI))
	unset BENCH_DRAIN_S BENCH_FLOOD_TAIL_S
}

cmd_heavy() {
	local d=${RS_DUR:-20}
	run heavy-rsoca rsoca "$(rs)" -p constant -r 10 -d "$d" -w 3
	run heavy-none none "" -p constant -r 10 -d "$d" -w 3
}

# The flood goes on for 24 s after the calls stop, and the UACs wait as
# long for their last BYEs: a BYE's 8 transmissions span 19.5 s (T1 0.5 s,
# T2 4 s), so every BYE meets the flood for all of them.
cmd_byeflood() {
	local d=${RS_DUR:-15} r
	export BENCH_DRAIN_S=24 BENCH_FLOOD_TAIL_S=24
	for r in 1 2; do
		run "bye$r-rsoca003" rsoca "$(rs rsoca.ppass=0.03)" \
			-p constant -r "$r" -d "$d" -w 3 -F "$FLOOD"
		run "bye$r-rsoca01" rsoca "$(rs rsoca.ppass=0.1)" \
			-p constant -r "$r" -d "$d" -w 3 -F "$FLOOD"
		run "bye$r-none" none "" \
			-p constant -r "$r" -d "$d" -w 3 -F "$FLOOD"
		run "bye$r-ctl503" rsoca "$(ctl503)" \
			-p constant -r "$r" -d "$d" -w 3 -F "$FLOOD"
	done
	unset BENCH_DRAIN_S BENCH_FLOOD_TAIL_S
}

# counts DIR: INVITEs sent, calls set up (first 200 at the UACs),
# terminations (second 200: to the BYE), 500 and 503 received, summed
# over both UACs
counts() {
	cat "$1"/uac1/*_counts.csv "$1"/uac2/*_counts.csv 2>/dev/null | awk -F';' '
		/^CurrentTime/ { n = 0; s = 0; delete c; for(i = 1; i <= NF; i++) {
				if($i ~ /_200_Recv$/) c[++n] = i
				if($i ~ /_INVITE_Sent$/ && !s) s = i
				if($i ~ /_500_Recv$/) f5 = i
				if($i ~ /_503_Recv$/) f3 = i }
			if(NR > 1) { S += ls; A += la; B += lb; R5 += l5; R3 += l3 }
			next }
		{ ls = $s; la = $(c[1]); lb = $(c[2]); l5 = $f5; l3 = $f3 }
		END { S += ls; A += la; B += lb; R5 += l5; R3 += l3
			print S + 0, A + 0, B + 0, R5 + 0, R3 + 0 }'
}

# window DIR: mean proxy CPU (of the quota) and completed calls/s over the
# run's steady window, max proxy CPU
window() {
	local from to
	read -r from to < <("$top/build/bench/ovc-jget" "$1/summary.json" \
		window_from window_to 2>/dev/null || echo "0 0")
	awk -F, -v a="$from" -v b="$to" '
		NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
		{ t = $(c["time"]); if(t < a || t >= b) next
			n++; cpu += $(c["proxy_cpu"]); g += $(c["goodput_cps"])
			o += $(c["offered_cps"]); if($(c["proxy_cpu"]) > m) m = $(c["proxy_cpu"]) }
		END { if(n) printf "%.2f %.2f %.1f %.1f\n", cpu / n, m, g / n, o / n
			else print "- - - -" }' "$1/merged.csv"
}

# dropped BYEs (ovc's counter) of a run, or -
bye_dropped() {
	awk '$1 == "bye:" { on = 1; next } on && $1 == "}" { on = 0 }
		on && $1 == "dropped:" { print $2; f = 1; exit } END { if(!f) print "-" }' \
		"$1/ovc_stats.txt" 2>/dev/null || echo -
}

cmd_report() {
	local f=$out/report.md tag d s a b r5 r3 cpu cmx g o tl p95
	{
		echo "E_I = $EI calls/s (rho_M $RHO), C_min/C_max $CMIN/$CMAX, BYE flood $FLOOD/s"
		echo
		echo "| run | INVITEs sent | calls set up | terminated | % terminated | 500 | 503 | BYEs dropped | CPU mean | CPU max | completed/s | offered/s | timely/s | setup p95 ms |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for d in "$out"/*/; do
			tag=$(basename "$d")
			[ -f "$d/summary.json" ] || continue
			read -r s a b r5 r3 < <(counts "$d")
			read -r cpu cmx g o < <(window "$d")
			read -r tl p95 < <("$top/build/bench/ovc-jget" "$d/summary.json" \
				timely_cps setup_p95_ms 2>/dev/null || echo "- -")
			echo "| $tag | $s | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { if(a) printf "%.1f", 100 * b / a; else print "-" }') | $r5 | $r3 | $(bye_dropped "$d") | $cpu | $cmx | $g | $o | $tl | $p95 |"
		done
	} >"$f"
	cat "$f"
	for tag in flash heavy bye1 bye2 bigbye1; do
		local -a ds=()
		for d in "$out/$tag"-*/; do
			[ -f "$d/merged.csv" ] && ds+=("$d")
		done
		[ ${#ds[@]} -gt 0 ] || continue
		"$here/plots/plot-rsoca.sh" "$out/$tag.png" "$CMIN" "$CMAX" "${ds[@]}" ||
			say "plot $tag failed"
	done
}

case "${1:-}" in
flash) cmd_flash ;;
heavy) cmd_heavy ;;
byeflood) cmd_byeflood ;;
bigflood) cmd_bigflood ;;
report) cmd_report ;;
all)
	cmd_flash
	cmd_heavy
	cmd_byeflood
	cmd_bigflood
	cmd_report
	;;
*)
	echo "usage: rsoca.sh flash|heavy|byeflood|bigflood|report|all" >&2
	exit 2
	;;
esac
