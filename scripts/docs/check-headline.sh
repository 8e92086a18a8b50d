#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-headline.sh: the README's figures against the results they come
# from (make check-docs). Fails when the headline block of README.md is
# not what bench/results/headline/headline.csv gives
# (bench/reports/headline-readme.sh --check), or when a citation of a results
# row in README.md, bench/RESULTS.md or bench/journal/ does not resolve
# (nor a link to a file or a section of one), or a figure
# between <!-- cited:begin --> and <!-- cited:end --> cites no row
# (scripts/docs/check-citations.py), or when bench/RESULTS.md's answers
# are not one such region. Warns, without failing, when the
# headline was measured with another module source than this checkout's
# (scripts/build/module-id.sh): `make headline` measures it again.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# HEADLINE_CSV, README, PAGES, RESULTS: other files (tests/scripts/test_headline.sh)
csv=${HEADLINE_CSV:-$top/bench/results/headline/headline.csv}
export README=${README:-$top/README.md}
bad=0
"$top/bench/reports/headline-readme.sh" --check "$csv" || bad=1
# shellcheck disable=SC2086
"$top/scripts/docs/check-citations.py" \
	${PAGES:-"$README" "$top/bench/RESULTS.md" \
	"$top"/bench/journal/*.md} || bad=1
# RESULTS.md's answers are one cited region: every figure between "## The
# answers" and "## The journal" cites what records it
results=${RESULTS:-$top/bench/RESULTS.md}
if ! awk '/^## The answers$/ { a = NR } /^<!-- cited:begin -->$/ && a && !b { b = NR }
	/^### / && a && !h { h = NR } /^<!-- cited:end -->$/ && b { e = NR }
	/^## The journal$/ { j = NR }
	END { exit !(a && b && h && b < h && e && j && e < j) }' "$results"; then
	echo "check-docs: ${results#"$top"/}: the answers are not one cited region" \
		"(<!-- cited:begin --> after \"## The answers\", before its first" \
		"question; <!-- cited:end --> before \"## The journal\")"
	bad=1
fi
if [ -s "$csv" ]; then
	read -r from commit id sha < <(awk -F, 'NR == 1 {
		for(i = 1; i <= NF; i++) c[$i] = i; next }
		NR == 2 { print $c["from"], $c["commit"], $c["module_id"],
			$c["ovc_so_sha256"] }' "$csv")
	now=$("$top/scripts/build/module-id.sh" "$top")
	if [ "$now" != "$id" ]; then
		echo "check-docs: WARNING: the README's headline is stale: measured" \
			"$from with module source $id (commit $commit, ovc.so" \
			"sha256 $sha); this checkout's source is $now." \
			"'make headline' measures it again (about 21 min)."
	fi
fi
exit $bad
