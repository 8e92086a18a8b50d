#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sim/plot-es-testbed.sh - ES of pi's gains, testbed against
# simulator, over the iterations.
#
#   plot-es-testbed.sh OUT.png LABEL=FILE...
#
# Each FILE is ovc-es-tune's output (k,J,G,theta... per line, '#'
# comments); a LABEL starting with "sim" is drawn dashed. Top: the cost J;
# below: Kpc and Kic, then Kpq and Kiq / 10.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 2 - "$@"
for a in "${@:2}"; do
	[[ "$a" == ?*=* ]] || bench_bad "'$a' is not LABEL=FILE"
	[ -f "${a#*=}" ] || bench_bad "no file '${a#*=}'"
done
bench_args_checked
out=${1:?usage: plot-es-testbed.sh OUT.png LABEL=FILE...}
shift
colors=('#cc0000' '#0066cc' '#009900' '#cc6600' '#884488' '#008888')
pj="" pc="" pq=""
i=0
for lf in "$@"; do
	l=${lf%%=*} f=${lf#*=}
	[ -s "$f" ] || { echo "plot-es-testbed: no $f" >&2; exit 1; }
	c=${colors[$((i % ${#colors[@]}))]}
	dt=1
	[[ "$l" == sim* ]] && dt=2
	s="'$f' using 1:%s with lines lw 2 dt $dt lc rgb '$c'"
	pj+="$(printf "$s" 2) title '$l', "
	pc+="$(printf "$s" 4) title '$l: Kpc', $(printf "$s" 5 | sed 's/lw 2/lw 1/') title '$l: Kic', "
	pq+="$(printf "$s" 6) title '$l: Kpq', $(printf "$s" '($7/10)' | sed 's/lw 2/lw 1/') title '$l: Kiq/10', "
	i=$((i + 1))
done
gnuplot <<GP
set terminal pngcairo size 1000,1100 font ",10" noenhanced
set output "$out"
set datafile separator ","
set datafile commentschars "#"
set key outside right top
set rmargin 30
set grid
set xlabel "ES iteration"
set multiplot layout 3,1 title "Extremum Seeking of pi's gains: testbed (solid) and simulator (dashed)"
set ylabel "J = RIAE + 2 CIAE"
plot ${pj%, }
set ylabel "Kpc, Kic"
plot ${pc%, }
set ylabel "Kpq, Kiq / 10"
plot ${pq%, }
unset multiplot
GP
echo "$out"
