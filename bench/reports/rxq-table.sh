#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/rxq-table.sh [RUNS_CSV]: the receive-queue campaign's runs.csv as a
# Markdown table (last run of each load and variant), with timely goodput
# also as a multiple of the plain proxy's at the same load.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
[ $# -eq 0 ] || [ -f "$1" ] || bench_bad "RUNS_CSV: no file '$1'"
bench_args_checked
runs=${1:-$(dirname "$0")/../results/rxq/runs.csv}
echo "| offered/s | variant | timely/s | × plain | completed/s | INVITE retrans | setup mean ms | setup p95 ms | 503 recv | age rejects | kernel drops |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk -F',' 'NR > 1 { k = $1 "," $2; row[k] = $0; if(!(k in seen)) { seen[k] = 1; order[n++] = k }
		if($2 == "plain") plain[$1] = $3 }
	END { for(i = 0; i < n; i++) { split(row[order[i]], f, ",")
			x = (f[1] in plain && plain[f[1]] > 0) ? sprintf("%.1f", f[3] / plain[f[1]]) : "-"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[1], f[2], f[3], x, f[4], f[5], f[6], f[7], f[8], f[9], f[10] } }' "$runs" |
	sort -s -t'|' -k2,2n
