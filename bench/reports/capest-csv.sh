#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/capest-csv.sh - what ovc learned as the capacity in each
# run of a sweep, as CSV on stdout: the header line
# run,capacity_cps,rho_m,of_rho_m, then one row per RUNDIR (in the order
# given): the folder's name, capacity_cps from its ovc_stats.txt
# (kamcmd ovc.stats at the run's end, bench/runners/run.sh), the
# calibrated capacity RHO_M (calls/s) and capacity_cps over it, rounded
# to four decimals. A run whose ovc_stats.txt has no capacity_cps is
# refused (exit 1). Reads files only, starts no load.
#
#   capest-csv.sh RHO_M RUNDIR...
#   e.g. capest-csv.sh 318 bench/out/s34/capest/occ-r* >capacity_cps.csv
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 2 - "$@"
bench_num RHO_M "$1"
awk -v m="$1" 'BEGIN { exit !(m > 0) }' || bench_bad "RHO_M: '$1' is not above 0"
rho=$1
shift
for d in "$@"; do
	[ -f "$d/ovc_stats.txt" ] || bench_bad "no file '$d/ovc_stats.txt'"
done
bench_args_checked

echo "run,capacity_cps,rho_m,of_rho_m"
for d in "$@"; do
	c=$(awk '$1 == "capacity_cps:" { print $2; exit }' "$d/ovc_stats.txt")
	if [ -z "$c" ]; then
		echo "capest-csv.sh: $d/ovc_stats.txt has no capacity_cps" >&2
		exit 1
	fi
	awk -v r="$(basename "$d")" -v c="$c" -v m="$rho" \
		'BEGIN { printf "%s,%s,%s,%.4f\n", r, c, m, c / m }'
done
