#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_kstage_split.sh - bench/reports/kstage-split.sh on sweep
# runs made up for the test: the window of merged.csv selects ovc's rows by
# time; forwarding = cpu - cpu_reject, answering = cpu_reject, dropping =
# drops x ns / the calibration's quota; medians over the runs of a point; a
# directory without runs is an error.
set -uo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
d=$F/sweep
mkdir -p "$d"
printf '# ovc testbed calibration\n# proxy CPU cap 10000 us / 100000 us\n' \
	>"$d/calibration.env"
# run RUN CPU REJ DROPS: seconds 0-29, the window [8, 23) with these
# values, the others with values that would change the means
run() {
	local r=$d/$1 t
	mkdir -p "$r"
	{
		echo "time,t,goodput_cps"
		for t in $(seq 0 29); do echo "$((1000 + t)),$t,1"; done
	} >"$r/merged.csv"
	{
		echo "time,algorithm,cpu,cpu_reject,kstage_drops"
		for t in $(seq 0 29); do
			if [ "$t" -ge 8 ] && [ "$t" -lt 23 ]; then
				echo "$((1000 + t)),occ,$2,$3,$4"
			else
				echo "$((1000 + t)),occ,0.1,0.9,99999"
			fi
		done
	} >"$r/ovc_raw.txt"
}
run occ-r16-k1 1.0 0.2 10000
run occ-r16-k2 0.9 0.3 30000
run occ-r16-k3 0.95 0.1 20000
run occ-r4-k1 0.9 0.1 0
out=$(BENCH_OUT=$F "$top/bench/reports/kstage-split.sh" -n 500 "$d")
is "a row per point, sorted by r" "$(grep -c '^| occ |' <<<"$out")" 2
is "r = 4: one run, no drop" "$(grep '| 4× |' <<<"$out")" \
	"| occ | 4× | 1 | 0.80 | 0.10 | 0.0000 | 0.10 | 0 |"
# forwarding medians of (0.8, 0.6, 0.85) = 0.8, answering of (0.2, 0.3,
# 0.1) = 0.2, dropping of 10000, 30000, 20000 x 500 ns / 0.1 = 0.1
is "r = 16: medians of three runs" "$(grep '| 16× |' <<<"$out")" \
	"| occ | 16× | 3 | 0.80 | 0.20 | 0.1000 | 0.00 | 20000 |"
mkdir -p "$F/none"
if BENCH_OUT=$F "$top/bench/reports/kstage-split.sh" "$F/none" >/dev/null 2>"$F/err"; then
	no "a directory without runs is an error"
else
	is "a directory without runs is an error, said" "$(grep -c 'no runs' "$F/err")" 1
fi
t_done
