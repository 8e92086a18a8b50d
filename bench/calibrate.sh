#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/calibrate.sh - measure the capped proxy: rho_M and beta.
#
#   calibrate.sh [--quick]
#
# 1. Forwarding cost: no control, BENCH_CAL_R cps (default 100) -> CPU
#    per call c_f (cgroup cpuacct); capacity estimate rho = R / CPU share.
# 2. Rejection cost: every INVITE answered by a stateless 503 at the top
#    of the route (ratelimit-proxy.cfg -A REJECT_ALL) at 2 R -> c_r;
#    beta = c_f / c_r (paper 003 Fig. 2).
# 3. Capacity rho_M: the highest of 1.1, 1.0, 0.9, 0.8 x rho (quick: 1.0,
#    0.9, 0.8) that a run without control completes with no failed call,
#    goodput >= 97 % of offered and p95 setup under T1 (500 ms).
# Writes $BENCH_OUT/calibration.env (RHO_M, BETA, CT, CPU costs); the
# runs stay in $BENCH_OUT/calibration/. The testbed must be up.
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

quick=no
[ "${1:-}" = --quick ] && quick=yes
cal="$BENCH_OUT/calibration"
rm -rf "$cal"
mkdir -p "$cal"
R=${BENCH_CAL_R:-100}
dur=8
[ "$quick" = yes ] && dur=6
jget() { "$BENCH_BIN/ovc-jget" "$@"; }
quota=$(awk -v q="$BENCH_CPU_QUOTA_US" -v p="$BENCH_CPU_PERIOD_US" \
	'BEGIN { print q / p }')

# CPU seconds per call at rate r from a run's summary (cpu is a fraction
# of the quota)
per_call() {
	awk -v u="$1" -v q="$quota" -v r="$2" 'BEGIN { printf "%.9f", u * q / r }'
}

say "calibration 1/3: forwarding cost at $R cps"
"$here/run.sh" -a none -p constant -r 1 -R "$R" -d "$dur" -w 2 \
	-o "$cal/forward" >/dev/null
read -r uf offf < <(jget "$cal/forward/summary.json" extra_mean.proxy_cpu \
	offered_cps)
cf=$(per_call "$uf" "$offf")
rho_est=$(awk -v r="$offf" -v u="$uf" 'BEGIN { printf "%d", r / u }')

say "calibration 2/3: rejection cost at $((2 * R)) cps"
"$here/run.sh" -a reject -p constant -r 1 -R "$((2 * R))" -d "$dur" -w 2 \
	-o "$cal/reject" >/dev/null
read -r ur offr < <(jget "$cal/reject/summary.json" extra_mean.proxy_cpu \
	offered_cps)
cr=$(per_call "$ur" "$offr")
beta=$("$BENCH_BIN/ovc-bound" beta "$cf" "$cr" || echo nan)

say "calibration 3/3: capacity around $rho_est cps"
factors="1.1 1.0 0.9 0.8"
[ "$quick" = yes ] && factors="1.0 0.9 0.8"
rho_m=
for k in $factors; do
	r=$(awk -v a="$rho_est" -v k="$k" 'BEGIN { printf "%d", a * k }')
	"$here/run.sh" -a none -p constant -r 1 -R "$r" -d "$dur" -w 2 \
		-o "$cal/cap-$r" >/dev/null
	read -r off good failed p95 < <(jget "$cal/cap-$r/summary.json" \
		offered_cps goodput_cps calls_failed setup_p95_ms)
	ok=$(awk -v o="$off" -v g="$good" -v f="$failed" -v p="$p95" \
		'BEGIN { print (f == 0 && g >= 0.97 * o && p != "-" && p < 500) ? 1 : 0 }')
	say "  $r cps: offered $off, completed $good, failed $failed, p95 $p95 ms -> $([ "$ok" = 1 ] && echo ok || echo overloaded)"
	if [ "$ok" = 1 ]; then
		rho_m=$r
		break
	fi
done
[ -n "$rho_m" ] || {
	rho_m=$(awk -v a="$rho_est" 'BEGIN { printf "%d", a * 0.7 }')
	say "  no clean rate found: rho_M set to 0.7 x estimate = $rho_m"
}

cat >"$BENCH_OUT/calibration.env" <<EOF
# ovc testbed calibration, $(date -u +%Y-%m-%dT%H:%M:%SZ), mode $(bench_mode)
# proxy CPU cap $BENCH_CPU_QUOTA_US us / $BENCH_CPU_PERIOD_US us
RHO_M=$rho_m
RHO_CPU_ESTIMATE=$rho_est
BETA=$beta
CT=${BENCH_CT:-0.9}
CPU_PER_CALL_US=$(awk -v c="$cf" 'BEGIN { printf "%.1f", c * 1e6 }')
CPU_PER_REJECT_US=$(awk -v c="$cr" 'BEGIN { printf "%.1f", c * 1e6 }')
EOF
cat "$BENCH_OUT/calibration.env"
