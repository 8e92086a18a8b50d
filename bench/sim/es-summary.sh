#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/es-summary.sh - a markdown table of ES runs (ovc-es-tune's
# output: k,J,G,theta... per line, '#' comments): for each FILE, J, G and
# the four gains at iteration 0, their means over the first and the last
# ES_SUMMARY_LAST (10) iterations, and the run's best J with its gains.
#
#   es-summary.sh FILE...
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 1 - "$@"
bench_int ES_SUMMARY_LAST "${ES_SUMMARY_LAST:-10}"
bench_args_checked
[ $# -gt 0 ] || { echo "usage: es-summary.sh FILE..." >&2; exit 2; }
last=${ES_SUMMARY_LAST:-10}
echo "| run | iterations | J, G, Kpc, Kic, Kpq, Kiq at 0 | means over the first $last | means over the last $last | best J (at Kpc, Kic, Kpq, Kiq) |"
echo "|---|---|---|---|---|---|"
for f in "$@"; do
	awk -F, -v last="$last" -v name="${f##*/}" '
		/^#/ || NF < 7 { next }
		{ n++; for(i = 2; i <= 7; i++) v[n, i] = $i }
		function mean(a, b,   i, k, s) {
			s = ""
			for(i = 2; i <= 7; i++) {
				m = 0
				for(k = a; k <= b; k++) m += v[k, i]
				s = s (i > 2 ? ", " : "") sprintf(i <= 3 ? "%.2f" : "%.1f", m / (b - a + 1))
			}
			return s
		}
		END {
			if(n == 0) { print "es-summary: no iterations in " name > "/dev/stderr"; exit 1 }
			w = n < last ? n : last
			b = 1
			for(k = 2; k <= n; k++) if(v[k, 2] < v[b, 2]) b = k
			printf "| %s | %d | %s | %s | %s | %.2f (%.1f, %.1f, %.1f, %.1f) |\n",
				name, n, mean(1, 1), mean(1, w), mean(n - w + 1, n),
				v[b, 2], v[b, 4], v[b, 5], v[b, 6], v[b, 7]
		}' "$f"
done
