#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The headline's chain on fabricated data (no load, no root):
# bench/reports/headline-csv.sh turns a sweep's points and its calibration into
# the CSV (identity, calibration, one row per point, none before occ, who
# refused from the proxy's rows of each run's steady window: kernel stage
# 100 of 200 arrivals a second, age limit 40, late 10 or 20, the rest 10);
# bench/reports/headline-readme.sh writes README's block from it and --check
# passes on that block and fails on a figure edited by hand;
# scripts/docs/check-headline.sh passes the block as written, warns without
# failing when the CSV's module source is not the checkout's, and fails
# on an edited figure;
# scripts/docs/check-citations.py passes a citation whose figures are in the
# row it names (rounded half up, 1.085 as 1.09) and fails a wrong figure, a missing row, a missing file
# and a figure in a cited region that cites nothing (the region bounded
# by its markers where they sit inside a line); a link to a heading,
# a file or a folder passes, one to a missing heading or file fails; a
# bench/RESULTS.md's answers are one cited region (a copy without the
# marker fails, and so does an uncited figure added to an answer); a
# citation of a journal section passes with the figure as written there
# and fails with it rounded, with "%" for another unit or with no such
# section, and a load multiple (0.9×, 1.5–16×) and a § number are no
# figures; a reference-style citation ([0.90][r5], [r5]: FILE#L5) is checked as the
# link it stands for, and a reference definition to a missing file or
# heading fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"

mkdir -p "$F/raw/sweep"
cat >"$F/raw/calibration.env" <<'C'
# ovc testbed calibration, 2026-11-28T16:00:00Z, mode netns
# proxy CPU cap 20000 us / 100000 us
RHO_M=300
BETA_OVC=16.5
C
cat >"$F/raw/sweep/sweep-points.csv" <<'P'
algorithm,r_target,runs,g_med,g_min,g_max,g_timely_med,g_timely_min,g_timely_max,g_opt,g_opt_ovc,goodput_cps,timely_cps,rejected_cps,failed_cps,setup_p50_ms,setup_p95_ms,retrans_per_call,proxy_cpu,f,setup_mean_ms
occ,2,3,0.95,0.9,1,0.9412,0.9,0.9876,0.7,0.8,300,290,350,0,48,132,0,1,1,58.65
occ,16,3,0.9,0.9,0.95,0.9,0.88,0.9333,0,0,300,290,2800,0,136,152,1.5,1,0.9987,134.7
none,2,3,0.75,0.5,0.9,0.2349,0.1387,0.3501,0.7,0.8,250,70,0,40,1400,8000,3,1,-,2446
none,16,3,0.27,0.2,0.3,0.0343,0.0303,0.0433,0,0,90,10,0,230,3700,11490,4,1,-,4474
P
# two runs of occ at 16x with the proxy's rows: a header, rows inside and
# outside the steady window [100, 103), one second listed twice
orow() { echo "$1,occ,1,0.99,$2,$3,$4,$5,$6"; }
ohead="time,algorithm,f,cpu,invite_offered,invite_rejected,age_rejects,late_rejects,kstage_drops"
for k in 1 2; do
	d="$F/raw/sweep/occ-r16-k$k"
	mkdir -p "$d"
	echo '{ "window_from": 100, "window_to": 103 }' >"$d/summary.json"
	{
		echo "  \"$ohead\""
		orow 99 500 500 500 0 500
		orow 100 100 50 40 $((k * 10)) 100
		orow 101 100 50 40 $((k * 10)) 100
		orow 101 100 50 40 $((k * 10)) 100
		orow 102 100 50 40 $((k * 10)) 100
		orow 103 500 500 500 0 500
	} >"$d/ovc_raw.txt"
done
"$top/bench/reports/headline-csv.sh" "$F/raw" 2026-11-28T16:00:00Z \
	2026-11-28T16:25:00Z 20 >"$F/h.csv"
is "CSV rows" "$(wc -l <"$F/h.csv")" 5
is "none's 2x row" "$(sed -n 2p "$F/h.csv" | cut -d, -f6-)" \
	"0.20,300,16.5,20,none,2,3,0.23,0.14,0.35,0.75,2446,8000,3.00,0,-,-,-,-,-"
is "occ's 16x row" "$(sed -n 5p "$F/h.csv" | cut -d, -f10-)" \
	"occ,16,3,0.90,0.88,0.93,0.90,135,152,1.50,2800,1.00,50.0,20.0,7.5,5.0"
is "module id" "$(sed -n 2p "$F/h.csv" | cut -d, -f4)" \
	"$("$top/scripts/build/module-id.sh")"

printf '# x\n\n<!-- headline:begin -->\nold\n<!-- headline:end -->\n\ntail\n' \
	>"$F/R.md"
README="$F/R.md" "$top/bench/reports/headline-readme.sh" "$F/h.csv" 2>/dev/null
grep -q '^| 2× | 0.23 \[0.14–0.35\] (2.4 s) | \*\*0.94\*\* \[0.90–0.99\] (59 ms) |$' "$F/R.md" &&
	ok "the table's 2x row" || no "the table's 2x row: $(grep '2×' "$F/R.md")"
grep -qF '| 16× | 50.0 % | 20.0 % (7.5 %) | 5.0 % | 1.00 |' "$F/R.md" &&
	ok "who refused at 16x" || no "who refused at 16x: $(grep '16×' "$F/R.md")"
grep -q '^tail$' "$F/R.md" && ok "the text after the block kept" ||
	no "the text after the block lost"
if README="$F/R.md" "$top/bench/reports/headline-readme.sh" --check "$F/h.csv" \
	2>/dev/null; then ok "--check passes the block as written"; else
	no "--check fails the block as written"; fi
sed -i 's/0.90–0.99/0.91–0.99/' "$F/R.md"
if README="$F/R.md" "$top/bench/reports/headline-readme.sh" --check "$F/h.csv" \
	2>/dev/null; then no "--check passes a figure edited by hand"; else
	ok "--check fails a figure edited by hand"; fi

# check-headline.sh (make check-docs): the block as written passes, with
# a warning (not a failure) when the CSV's module source is not this
# checkout's; an edited figure fails
ch() { HEADLINE_CSV="$1" README="$F/R2.md" PAGES="$F/R2.md" \
	"$top/scripts/docs/check-headline.sh" >"$F/ch.out" 2>&1; }
touch "$F/headline.png"
sed 's/^\([^,]*,[^,]*,[^,]*,\)[^,]*,/\10000000000000000,/' "$F/h.csv" >"$F/old.csv"
for c in h old; do
	printf '<!-- headline:begin -->\n<!-- headline:end -->\n' >"$F/R2.md"
	README="$F/R2.md" "$top/bench/reports/headline-readme.sh" "$F/$c.csv" 2>/dev/null
	if ch "$F/$c.csv"; then ok "check-headline passes ($c)"; else
		no "check-headline fails ($c): $(cat "$F/ch.out")"; fi
done
grep -q 'WARNING.*0000000000000000' "$F/ch.out" &&
	ok "a headline of another module source warns" ||
	no "no warning for another module source: $(cat "$F/ch.out")"
sed -i 's/| \*\*0.94\*\*/| **0.95**/' "$F/R2.md"
if ch "$F/old.csv"; then no "check-headline passes an edited figure"; else
	ok "check-headline fails an edited figure"; fi

# bench/RESULTS.md's answers are one cited region: a copy passes as it
# is; without its markers, or with a figure added to an answer that cites
# nothing, it fails
mkdir -p "$F/bench"
cp -r "$top/bench/journal" "$top/bench/RESULTS.md" "$F/bench/"
ln -s "$top/bench/results" "$F/bench/results"
ln -s "$top/docs" "$F/docs"
cp "$top/README.md" "$F/README.md"
rch() { RESULTS="$F/bench/RESULTS.md" PAGES="$F/bench/RESULTS.md" \
	"$top/scripts/docs/check-headline.sh" >"$F/rch.out" 2>&1; }
if rch; then ok "RESULTS.md's answers as committed pass"; else
	no "RESULTS.md's answers fail: $(head -3 "$F/rch.out")"; fi
cp "$F/bench/RESULTS.md" "$F/R.orig"
sed -i '0,/^<!-- cited:begin -->$/{/^<!-- cited:begin -->$/d}' "$F/bench/RESULTS.md"
if rch; then no "passes RESULTS.md without the answers' marker"; else
	grep -q 'the answers are not one cited region' "$F/rch.out" &&
		ok "RESULTS.md without the answers' marker fails" ||
		no "no message for the missing marker: $(cat "$F/rch.out")"; fi
cp "$F/R.orig" "$F/bench/RESULTS.md"
sed -i '0,/^No\. At 0\.9× and 1×/s//No. At 0.9× and 1× (0.97 of the calls)/' "$F/bench/RESULTS.md"
if rch; then no "passes an uncited figure in an answer"; else
	grep -q 'figure "0.97" cites no row' "$F/rch.out" &&
		ok "an uncited figure in an answer fails" ||
		no "no message for the uncited figure: $(cat "$F/rch.out")"; fi

cite() { "$top/scripts/docs/check-citations.py" "$F/c.md" >"$F/c.out" 2>&1; }
mkdir -p "$F/res"
cp "$F/h.csv" "$F/res/h.csv"
printf '<!-- cited:begin -->\nat 16x [0.90 and 135 ms, f 1.00](res/h.csv#L5), 8× and `0.5` free\n<!-- cited:end -->\n0.77 outside\n' >"$F/c.md"
if cite; then ok "a resolving citation passes"; else
	no "a resolving citation fails: $(cat "$F/c.out")"; fi
printf '0.77 before <!-- cited:begin -->[0.90](res/h.csv#L5)\nand [0.88](res/h.csv#L5) <!-- cited:end --> 0.5 after\n' >"$F/c.md"
if cite; then ok "markers inside a paragraph bound the region"; else
	no "markers inside a paragraph: $(cat "$F/c.out")"; fi
printf 'x <!-- cited:begin -->[0.90](res/h.csv#L5) and 0.5\n<!-- cited:end -->\n' >"$F/c.md"
if cite; then no "passes an uncited figure after an inline marker"; else
	ok "fails an uncited figure after an inline marker"; fi
printf 'a,b\n1.085,0.565\n' >"$F/res/r.csv"
printf '[1.09 and 56.5 %%](res/r.csv#L2) [0.57](res/r.csv#L2)\n' >"$F/c.md"
if cite; then ok "a figure rounded half up passes"; else
	no "a figure rounded half up fails: $(cat "$F/c.out")"; fi
printf 'the share [23 %%](res/h.csv#L2)\n' >"$F/c.md"
if cite; then ok "a percentage of a fraction passes"; else
	no "a percentage of a fraction fails: $(cat "$F/c.out")"; fi
printf 'x [0.90 [0.88–0.93]](res/h.csv#L5) y\n' >"$F/c.md"
if cite; then ok "a citation with a bracketed range passes"; else
	no "a citation with a bracketed range fails: $(cat "$F/c.out")"; fi
for bad in '[0.91](res/h.csv#L5)' '[0.90 [0.88–0.94]](res/h.csv#L5)' \
	'[a [b [c]]](res/h.csv#L5)' '[0.90](res/h.csv#L9)' \
	'[0.90](res/none.csv#L2)' '<!-- cited:begin -->
0.90 uncited
<!-- cited:end -->'; do
	printf '%s\n' "$bad" >"$F/c.md"
	if cite; then no "passes: $bad"; else ok "fails: $(head -c 60 "$F/c.out")"; fi
done
printf '# A heading, with `code` (2026-11-28)\n\n[ok](c.md#a-heading-with-code-2026-11-28) [dir](res) [file](res/h.csv) [web](https://example.org/x)\n' >"$F/c.md"
if cite; then ok "links to a heading, a folder, a file pass"; else
	no "links to a heading, a folder, a file fail: $(cat "$F/c.out")"; fi
for bad in '[x](c.md#no-such-heading)' '[x](res/none.png)'; do
	printf '# A heading\n%s\n' "$bad" >"$F/c.md"
	if cite; then no "passes: $bad"; else ok "fails: $(head -c 60 "$F/c.out")"; fi
done
# a journal section's citation quotes the figure as written there
mkdir -p "$F/journal"
printf '# J\n\n## A run\n\nplain 0.151 of it, 20 ms\n\n## Next\n\n0.15, 20 %%\n' >"$F/journal/j.md"
printf '<!-- cited:begin -->\n[0.151 and 20 ms](journal/j.md#a-run), at 0.9× and 1.5–16× (§6.4)\n<!-- cited:end -->\n' >"$F/c.md"
if cite; then ok "a journal citation as written, a load multiple, a § pass"; else
	no "a journal citation as written fails: $(cat "$F/c.out")"; fi
for bad in '[0.15](journal/j.md#a-run)' '[20 %](journal/j.md#a-run)' \
	'[0.151](journal/j.md#no-run)'; do
	printf '%s\n' "$bad" >"$F/c.md"
	if cite; then no "passes: $bad"; else ok "fails: $(head -c 60 "$F/c.out")"; fi
done
# reference-style citations: [text][label], the label defined on a line
printf '# A heading\n<!-- cited:begin -->\nat 16x [0.90][r5] <!-- cited:end -->\n\n[r5]: res/h.csv#L5\n[h]: c.md#a-heading\n' >"$F/c.md"
if cite; then ok "a reference-style citation passes"; else
	no "a reference-style citation fails: $(cat "$F/c.out")"; fi
for bad in '[0.91][r5]' '[0.90][r9]'; do
	printf '<!-- cited:begin -->\n%s\n<!-- cited:end -->\n\n[r5]: res/h.csv#L5\n[r9]: res/h.csv#L9\n' "$bad" >"$F/c.md"
	if cite; then no "passes: $bad"; else ok "fails: $(head -c 60 "$F/c.out")"; fi
done
for bad in '[r]: res/none.csv#L2' '[r]: c.md#no-such-heading'; do
	printf '# A heading\n\n%s\n' "$bad" >"$F/c.md"
	if cite; then no "passes: $bad"; else ok "fails: $(head -c 60 "$F/c.out")"; fi
done
t_done
