#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-headline.sh: the README's figures against the results they come
# from (make check-docs). Fails when the headline block of README.md is
# not what bench/results/headline/headline.csv gives
# (bench/reports/headline-readme.sh --check), or when a citation of a results
# row in README.md, bench/RESULTS.md or bench/journal/ does not resolve
# (nor a link to a file or a section of one), or a figure
# between <!-- cited:begin --> and <!-- cited:end --> cites no row
# (scripts/docs/check-citations.py). Warns, without failing, when the
# headline was measured with another module source than this checkout's
# (scripts/build/module-id.sh): `make headline` measures it again.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# HEADLINE_CSV, README, PAGES: other files (tests/scripts/test_headline.sh)
csv=${HEADLINE_CSV:-$top/bench/results/headline/headline.csv}
export README=${README:-$top/README.md}
bad=0
"$top/bench/reports/headline-readme.sh" --check "$csv" || bad=1
# shellcheck disable=SC2086
"$top/scripts/docs/check-citations.py" \
	${PAGES:-"$README" "$top/bench/RESULTS.md" \
	"$top"/bench/journal/*.md} || bad=1
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
