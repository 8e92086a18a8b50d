#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/headline-readme.sh - the README's headline from the headline CSV.
#
#   headline-readme.sh [--check | --plot] [CSV]
#
# Writes the block between <!-- headline:begin --> and <!-- headline:end
# --> of README.md from CSV (default bench/results/headline/headline.csv,
# made by `make headline`): a line saying when, with which module and
# which calibration it was measured, the table (per offered load, no
# control and ovc's defaults: timely goodput / rho_M, median [smallest-
# largest run], and the median of the runs' mean setup), who refused
# (when the CSV has it: the shares of the kernel stage, the age limit and
# the rest, and occ's f) and the plot.
# --plot: also draws the plot (headline.png beside CSV, gnuplot).
# --check: changes nothing; exits 1 when README.md's block is not what
# CSV gives (a figure edited by hand, or a CSV measured again without
# regenerating the README).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/bench/tools/args.sh"
bench_help_if "$0" "$@"
mode=write
case "${1:-}" in
--check | --plot)
	mode=${1#--}
	shift
	;;
-*) bench_bad "unknown option '$1'" ;;
esac
bench_nargs 0 1 "$@"
bench_args_checked
csv=${1:-$top/bench/results/headline/headline.csv}
readme=${README:-$top/README.md}
[ -s "$csv" ] || { echo "headline-readme: no $csv (make headline)" >&2; exit 1; }
rel=${csv#"$top"/}
png="${csv%/*}/headline.png"
prel=${png#"$top"/}

# block: the generated Markdown, from the CSV alone
block() {
	awk -F, -v csv="$rel" -v png="$prel" '
	function cell(k, bold,   v) {
		if(!(k in med)) return "-"
		v = med[k]
		if(bold) v = "**" v "**"
		return v " [" lo[k] "–" hi[k] "] (" ms(setup[k]) ")"
	}
	function ms(v) {
		if(v == "-") return "-"
		return v >= 1000 ? sprintf("%.1f s", v / 1000) : v " ms"
	}
	NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
	{
		from = $c["from"]; to = $c["to"]; commit = $c["commit"]
		id = $c["module_id"]; sha = $c["ovc_so_sha256"]
		quota = $c["cpu_quota"]; rho = $c["rho_m"]; secs = $c["secs"]
		runs = $c["runs"]
		k = $c["arm"] SUBSEP $c["offered"]
		med[k] = $c["timely_med"]; lo[k] = $c["timely_min"]
		hi[k] = $c["timely_max"]; setup[k] = $c["setup_mean_ms"]
		if($c["arm"] == "occ" && "kstage_pct" in c && $c["kstage_pct"] != "-") {
			o = $c["offered"]; nwho++
			f[o] = $c["f_med"]; ks[o] = $c["kstage_pct"]
			age[o] = $c["age_pct"]; late[o] = $c["late_pct"]
			oth[o] = $c["other_pct"]
		}
		if(!($c["offered"] in seen)) {
			seen[$c["offered"]] = 1; load[++n] = $c["offered"]
		}
	}
	END {
		printf "Measured %s %s–%s UTC by `make headline` ", \
			substr(from, 1, 10), substr(from, 12, 5), substr(to, 12, 5)
		printf "(module sha256 `%s`, commit `%s`, source id `%s`): ", \
			sha, commit, id
		printf "the proxy capped at %d %% of a core on the namespace testbed, ", \
			quota * 100
		printf "its capacity calibrated in the same run (ρ_M = %s calls/s), ", rho
		printf "%s runs of %s s per point. Timely = calls set up within ", runs, secs
		printf "500 ms / ρ_M, median [smallest–largest run]; in brackets, "
		printf "the mean setup of the calls set up ([%s](%s)).\n\n", csv, csv
		print "| offered | no control | ovc defaults |"
		print "|---|---|---|"
		for(i = 1; i <= n; i++)
			printf "| %s× | %s | %s |\n", load[i], \
				cell("none" SUBSEP load[i], 0), cell("occ" SUBSEP load[i], 1)
		if(nwho) {
			printf "\nWho refused, with the defaults of ovc: of the initial INVITEs that "
			printf "reached the proxy (with those the kernel stage dropped), the share "
			printf "each rule refused (the median of the runs), and the acceptance "
			printf "fraction f of occ (the mean of each run, median of the runs). Where f "
			printf "is 1 the controller from the papers refused nothing: the front-end "
			printf "rules below did.\n\n"
			print "| offered | kernel stage | age limit (of it, late calls) | guard, f, fair share | f of occ |"
			print "|---|---|---|---|---|"
			for(i = 1; i <= n; i++)
				if(load[i] in ks)
					printf "| %s× | %s %% | %s %% (%s %%) | %s %% | %s |\n", \
						load[i], ks[load[i]], age[load[i]], late[load[i]], \
						oth[load[i]], f[load[i]]
		}
		printf "\n![timely goodput against offered load, no control and ovc defaults: median, bars from the smallest to the largest run](%s)\n", png
	}' "$csv"
}

# plot: headline.png, both arms against the offered load
plot() {
	local d
	d=$(mktemp -d)
	awk -F, -v d="$d" 'NR == 1 { for(i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["offered"], $c["timely_med"], $c["timely_min"],
			$c["timely_max"] >(d "/" $c["arm"] ".dat") }' "$csv"
	gnuplot <<-GP
		set terminal pngcairo size 800,480 font ',11'
		set output '$png.tmp'
		set logscale x 2
		set xrange [0.8:20]
		set yrange [0:1.3]
		set xlabel 'offered load / {/Symbol r}_M'
		set ylabel 'calls set up within 500 ms / {/Symbol r}_M'
		set key bottom left
		set grid
		plot '$d/occ.dat' using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#0066cc' title 'ovc defaults', \
		     '$d/none.dat' using 1:2:3:4 with yerrorlines lw 2 pt 5 lc rgb '#cc0000' title 'no control'
	GP
	mv "$png.tmp" "$png"
	rm -rf "$d"
	echo "headline-readme: $png drawn" >&2
}

new=$(block)
have=$(awk '/<!-- headline:begin/ { on = 1; next } /<!-- headline:end/ { on = 0 } on' "$readme")
if [ "$mode" = check ]; then
	grep -q '<!-- headline:begin' "$readme" ||
		{ echo "check-docs: $readme has no <!-- headline:begin --> block" >&2; exit 1; }
	if [ "$have" != "$new" ]; then
		echo "check-docs: README.md's headline is not what $rel says (bench/reports/headline-readme.sh rewrites it):" >&2
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$new") | head -20 >&2
		exit 1
	fi
	exit 0
fi
[ "$mode" = plot ] && plot
grep -q '<!-- headline:begin' "$readme" ||
	{ echo "headline-readme: $readme has no <!-- headline:begin --> block" >&2; exit 1; }
awk -v t="$new" '/<!-- headline:begin/ { print; print t; skip = 1; next }
	/<!-- headline:end/ { skip = 0 } !skip' "$readme" >"$readme.tmp"
mv "$readme.tmp" "$readme"
echo "headline-readme: $readme's headline rewritten from $rel" >&2
