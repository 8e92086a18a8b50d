# SPDX-License-Identifier: GPL-2.0-or-later
# bench/testbed/profile.sh - load profiles of paper 001 §6.4, scaled to rho_M.
# Sourced, never run.
#
# profile_rates PROFILE PEAK_R DURATION WARMUP RHO_M
#   prints one total offered rate (calls/s, integer >= 1) per second:
#   WARMUP s at BENCH_WARM_R (default 0.3) of rho_M, then
#   constant  DURATION s at PEAK_R
#   instant   DURATION s at PEAK_R, then DURATION/3 s (>= 5) back at
#             0.5: the step and the recovery
#   gradual   ramp 0.5 -> PEAK_R over DURATION/3, hold DURATION/3,
#             ramp back to 0.5 over DURATION/3
# profile_window PROFILE DURATION WARMUP
#   prints "FROM TO" (seconds after the load start) of the window the
#   headline figures are computed over: the steady part of constant
#   (settling time skipped), the whole peak of instant, all of gradual.

profile_rates() {
	local prof=$1 peak=$2 dur=$3 warm=$4 rho=$5
	awk -v p="$prof" -v peak="$peak" -v d="$dur" -v w="$warm" -v rho="$rho" \
		-v wr="${BENCH_WARM_R:-0.3}" '
	function out(r) { v = int(r * rho + 0.5); if(v < 1) v = 1; print v }
	BEGIN {
		for(i = 0; i < w; i++) out(wr)
		if(p == "constant") {
			for(i = 0; i < d; i++) out(peak)
		} else if(p == "instant") {
			for(i = 0; i < d; i++) out(peak)
			rec = int(d / 3); if(rec < 5) rec = 5
			for(i = 0; i < rec; i++) out(0.5)
		} else if(p == "gradual") {
			third = int(d / 3); if(third < 1) third = 1
			for(i = 0; i < third; i++) out(0.5 + (peak - 0.5) * (i + 1) / third)
			for(i = 0; i < d - 2 * third; i++) out(peak)
			for(i = 0; i < third; i++) out(peak - (peak - 0.5) * (i + 1) / third)
		} else {
			exit 1
		}
	}'
}

profile_window() {
	local prof=$1 dur=$2 warm=$3 settle
	case "$prof" in
	constant)
		settle=$((dur / 4))
		[ "$settle" -gt 5 ] && settle=5
		echo "$((warm + settle)) $((warm + dur))"
		;;
	instant) echo "$warm $((warm + dur))" ;;
	gradual) echo "$warm $((warm + dur))" ;;
	*) return 1 ;;
	esac
}
