#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/es-testbed.sh - one ES experiment on the real testbed, for
# `ovc-es-tune --testbed bench/sim/es-testbed.sh` (contract in
# bench/sim/escost.c): reads OVC_ES_R, OVC_ES_TF, OVC_ES_REP, OVC_ES_PARAMS,
# runs bench/runners/run.sh with a constant step to R (algorithm pi), and prints
#   riae=<x> ciae=<y> g=<z>
# from the run's merged.csv:
#   riae: time average of retrans / (offered_cps + retrans) (the share of
#         INVITE transmissions that are retransmissions, UAC side);
#   ciae: time average of |proxy_cpu - C_T| / (1 - C_T), per second;
#   g:    mean goodput_cps / rho_M.
# bench/runners/run.sh takes up to 8 -P parameters (configs/ovc-proxy.cfg's
# OVC_PARAM1..8), e.g. pi's four gains:
#   ovc-es-tune --testbed bench/sim/es-testbed.sh \
#       --names pi.kpc,pi.kic,pi.kpq,pi.kiq --init ... --iters 20 --tf 60
# The testbed must be up (bench/testbed/testbed.sh); first run: bench/RESULTS.md,
# "Extremum Seeking on the testbed".
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
[ -n "${OVC_ES_R:-}" ] || bench_bad "OVC_ES_R is not set"
bench_num OVC_ES_R "$OVC_ES_R"
[ -n "${OVC_ES_TF:-}" ] || bench_bad "OVC_ES_TF is not set"
bench_int OVC_ES_TF "$OVC_ES_TF"
[ -n "${OVC_ES_PARAMS:-}" ] || bench_bad "OVC_ES_PARAMS is not set"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
: "${OVC_ES_R:?}" "${OVC_ES_TF:?}" "${OVC_ES_PARAMS:?}"
ct=${OVC_ES_CT:-0.9}
rho=${OVC_ES_RHO_M:-}
dir=$(mktemp -d "${TMPDIR:-/tmp}/ovc-es.XXXXXX")
args=(-a pi -p constant -r "$OVC_ES_R" -d "$OVC_ES_TF" -w 0 -o "$dir")
[ -n "$rho" ] && args+=(-R "$rho")
n=0
for p in $OVC_ES_PARAMS; do
	args+=(-P "$p")
	n=$((n + 1))
done
if [ "$n" -gt 8 ]; then
	echo "es-testbed: bench/runners/run.sh takes at most 8 parameters" >&2
	exit 1
fi
"$here/runners/run.sh" "${args[@]}" >&2
[ -n "$rho" ] || rho=$(. "$here/out/calibration.env" && echo "$RHO_M")
awk -F, -v ct="$ct" -v rho="$rho" '
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["t"]) >= 0 {
		o = $(c["offered_cps"]); r = $(c["retrans"]);
		rr += (o + r > 0) ? r / (o + r) : 0;
		cpu = $(c["proxy_cpu"]);
		if(cpu != "") { d = cpu - ct; ci += (d < 0 ? -d : d) / (1 - ct); nc++ }
		g += $(c["goodput_cps"]); n++
	}
	END {
		if(!n) exit 1;
		printf "riae=%.5f ciae=%.5f g=%.5f\n", rr / n, nc ? ci / nc : 0,
			g / n / rho
	}' "$dir/merged.csv"
