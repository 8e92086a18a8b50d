#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/docs/check-docs.sh on a copy of the module's docs: it passes on the
# repository as committed, and fails when the generated README no longer
# is what the DocBook makes, when a generated table is stale, when a
# modparam or an RPC has no section of its own, when a linkend names no
# id, and when the XML is not valid DocBook; --update (make docs) mends
# the tables and the README. The figures of the XML and of
# docs/algorithms.md: a citation of a results row that holds the figure
# passes (and the README shows the figure), one of a row that does not,
# or of a file that is not there, fails, and so does a figure in a cited
# region that cites nothing, in each of the two files; so do a journal
# section's citation (a link to bench/journal/PAGE.md#section): it passes
# when the section holds the figure and fails when it does not or when
# there is no such section; and a whole number with a unit (ns) in a
# cited region is a figure. Needs the doc tools (build/*_doc, xsltproc,
# docbook-xsl, docbook-xml, w3m, xmllint: make deps).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
t=$F/tree
mkdir -p "$t/scripts" "$t/modules/ovc" "$t/build" "$t/docs"
cp -r "$top/scripts/." "$t/scripts/"
cp -r "$top/modules/ovc/doc" "$top/modules/ovc/README" \
	"$top"/modules/ovc/*.def "$top/modules/ovc/ovc_rpc.c" "$t/modules/ovc/"
cp "$top"/build/params_doc "$top"/build/modparams_doc \
	"$top"/build/csv_doc "$top"/build/stats_doc "$t/build/" ||
	no "build/*_doc missing (make check-docs builds them)"
cp "$top/README.md" "$t/"
cp "$top/docs/algorithms.md" "$t/docs/"
# the results the docs cite, as they are
ln -s "$top/bench" "$t/bench"
xml=$t/modules/ovc/doc/ovc_admin.xml
cp "$xml" "$F/admin.xml"
cp "$t/modules/ovc/README" "$F/README"

# run: check-docs' exit status and its output in $F/out
run() {
	"$t/scripts/docs/check-docs.sh" "$@" >"$F/out" 2>&1
	echo $?
}
restore() {
	cp "$F/admin.xml" "$xml"
	cp "$F/README" "$t/modules/ovc/README"
}
said() { grep -c -- "$1" "$F/out"; }

is "the docs as committed pass" "$(run)" 0

# a word of the prose changed, the README not regenerated
sed -i '0,/admits everything and still counts/s//admits all and still counts/' "$xml"
is "an XML change the README lacks fails" "$(run)" 1
is "... and says the README differs" \
	"$(said 'modules/ovc/README differs from what')" 1
is "make docs regenerates the README" "$(run --update)" 0
is "... which then passes" "$(run)" 0
grep -q 'admits all and still counts' "$t/modules/ovc/README" ||
	no "the regenerated README lacks the new wording"
restore

# a generated table that no longer says what the code says
sed -i 's#<entry><literal>bbc.high</literal></entry><entry>number</entry><entry>800<#<entry><literal>bbc.high</literal></entry><entry>number</entry><entry>801<#' "$xml"
is "a stale registry table fails" "$(run)" 1
is "... and names it" "$(said 'the params table in .* is stale')" 1
is "make docs rewrites the table" "$(run --update)" 0
is "... which then passes" "$(run)" 0
is "... with the code's default" \
	"$(grep -c '<entry><literal>bbc.high</literal></entry><entry>number</entry><entry>800<' "$xml")" 1
restore

# a modparam and an RPC without their sections
sed -i 's#<section id="ovc.p.kstage_budget">#<section id="ovc.p.kstage_budgt">#' "$xml"
is "a modparam without its section fails" "$(run)" 1
is "... naming it" "$(said 'no <section id="ovc.p.kstage_budget">')" 1
restore
sed -i 's#<section id="ovc.rpc.dst">#<section id="ovc.rpc.dsts">#' "$xml"
is "an RPC without its section fails" "$(run)" 1
is "... naming it" "$(said 'no <section id="ovc.rpc.dst">')" 1
restore

# a link to no section, and an element DocBook does not have
sed -i '0,/linkend="ovc.p.fair_key"/s//linkend="ovc.p.fair_keys"/' "$xml"
is "a linkend to no id fails" "$(run)" 1
is "... naming it" "$(said 'linkend="ovc.p.fair_keys" names no id')" 1
restore
sed -i 's#<title>Admin Guide</title>#<title>Admin Guide</title><para><bogus/></para>#' "$xml"
is "invalid DocBook fails" "$(run)" 1
is "... saying so" "$(said 'is not valid DocBook 4.4')" 1
restore

# citations in the XML: a ulink to a results row, relative to the XML
alg=$t/docs/algorithms.md
cp "$alg" "$F/algorithms.md"
row=../../../bench/results/tlsf-s38/runs.csv
cite_xml() {
	sed -i "s|<title>Admin Guide</title>|<title>Admin Guide</title><para>\\n<!-- cited:begin -->\\nocc set up $1 of the capacity in time\\n<!-- cited:end -->\\n</para>|" "$xml"
}
cite_xml "<ulink url=\"$row#L3\">1.227</ulink>"
is "a figure cited in the XML passes" "$(run --update)" 0
is "... and the README shows it" \
	"$(grep -c 'occ set up 1.227 of the capacity in time' "$t/modules/ovc/README")" 1
is "... which then passes" "$(run)" 0
restore
cite_xml "<ulink url=\"$row#L2\">1.227</ulink>"
is "an XML citation of a row without the figure fails" "$(run)" 1
is "... naming it" "$(said '1.227 is not in that row')" 1
restore
cite_xml "<ulink url=\"../../../bench/results/no/runs.csv#L3\">1.227</ulink>"
is "an XML citation of no file fails" "$(run)" 1
is "... naming it" "$(said 'no file .*bench/results/no/runs.csv')" 1
restore
cite_xml "1.227"
is "an uncited figure in the XML's cited region fails" "$(run)" 1
is "... naming it" "$(said 'figure "1.227" cites no row')" 1
restore

# citations in docs/algorithms.md: Markdown links, as in README.md
mdrow=../bench/results/tlsf-s38/runs.csv
cite_md() {
	printf '\n<!-- cited:begin -->\nocc set up %s of the capacity in time\n<!-- cited:end -->\n' "$1" >>"$alg"
}
cite_md "[1.227]($mdrow#L3)"
is "a figure cited in docs/algorithms.md passes" "$(run)" 0
cp "$F/algorithms.md" "$alg"
cite_md "[1.227]($mdrow#L2)"
is "a Markdown citation of a row without the figure fails" "$(run)" 1
is "... naming it" "$(said '1.227 is not in that row')" 1
cp "$F/algorithms.md" "$alg"
cite_md "[1.227](../bench/results/no/runs.csv#L3)"
is "a Markdown citation of no file fails" "$(run)" 1
is "... naming it" "$(said 'no file .*bench/results/no/runs.csv')" 1
cp "$F/algorithms.md" "$alg"
cite_md "1.227"
is "an uncited figure in docs/algorithms.md's cited region fails" "$(run)" 1
is "... naming it" "$(said 'figure "1.227" cites no row')" 1
cp "$F/algorithms.md" "$alg"

# a figure only the journal records cites the journal's section; a unit
# (ns, µs, MB, calls/s) makes a whole number a figure too
sec=fair-share.md#fair-share-under-a-flood-issue-38
cite_md "[1603 ns](../bench/journal/$sec) for an INVITE"
is "a Markdown citation of a journal section holding the figure passes" "$(run)" 0
cp "$F/algorithms.md" "$alg"
cite_md "[1604 ns](../bench/journal/$sec) for an INVITE"
is "a journal section citation whose figure the section lacks fails" "$(run)" 1
is "... naming it" "$(said '1604 is not in that section')" 1
cp "$F/algorithms.md" "$alg"
cite_md "[1603 ns](../bench/journal/fair-share.md#no-such-section) for an INVITE"
is "a citation of a journal section that is not there fails" "$(run)" 1
is "... naming it" "$(said 'no-such-section): no such section')" 1
cp "$F/algorithms.md" "$alg"
cite_md "1603 ns for an INVITE"
is "an uncited whole number with a unit in a cited region fails" "$(run)" 1
is "... naming it" "$(said 'figure "1603 ns" cites no row')" 1
cp "$F/algorithms.md" "$alg"
cite_xml "<ulink url=\"../../../bench/journal/$sec\">1603 ns</ulink>"
is "an XML citation of a journal section passes" "$(run --update)" 0
is "... and the README shows it" \
	"$(grep -c 'occ set up 1603 ns of the capacity in time' "$t/modules/ovc/README")" 1
restore
cite_xml "<ulink url=\"../../../bench/journal/$sec\">1604 ns</ulink>"
is "an XML citation of a journal section without the figure fails" "$(run)" 1
is "... naming it" "$(said '1604 is not in that section')" 1
restore

is "restored, the copy passes again" "$(run)" 0
t_done
