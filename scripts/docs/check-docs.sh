#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-docs.sh [--update]: the module's reference, the DocBook admin
# guide modules/ovc/doc/ovc_admin.xml (Kamailio's layout: doc/ovc.xml
# includes it), must carry, between the markers <!-- NAME:begin --> and
# <!-- NAME:end -->, the parameter registry table exactly as the library
# defines it (params), the plain modparams exactly as
# modules/ovc/ovc_modparams.def lists them (modparams, and a section
# id="ovc.p.NAME" for each), the per-second CSV columns exactly as
# include/ovc/columns.def lists them (csv) and the statistics exactly
# as modules/ovc/ovc_stats.def lists them (stats): each table is what
# build/NAME_doc prints, turned into DocBook by scripts/docs/doc-table.awk. It
# must document every script function, pseudo-variable key, RPC (with a
# section id="ovc.rpc.NAME") and statistic that the module exports; its
# links must name ids it has; the committed plain-text README
# (modules/ovc/README) must be what scripts/docs/gen-readme.sh makes of the
# XML; no file may point at the former modules/ovc/README.md; and every
# link to a section of README.md or docs/algorithms.md must name a
# heading. Every figure the XML and docs/algorithms.md quote between
# <!-- cited:begin --> and <!-- cited:end --> cites a row of a results
# file or the journal entry that records it, and every citation resolves
# (scripts/docs/check-citations.py: a ulink to
# ../../../bench/results/...csv#Lnn or ../../../bench/journal/PAGE.md#section
# in the XML, a Markdown link in docs/algorithms.md). --update rewrites the tables in place and regenerates the
# README (make docs).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
xml="$top/modules/ovc/doc/ovc_admin.xml"
readme="$top/modules/ovc/README"
# each table: <!-- NAME:begin/end --> markers, made by build/NAME_doc
tables="params modparams csv stats"

table() {
	"$top/build/${1}_doc" | awk -f "$top/scripts/docs/doc-table.awk"
}

if [ "${1:-}" = --update ]; then
	for mark in $tables; do
		t=$(table "$mark")
		awk -v t="$t" -v b="<!-- $mark:begin -->" -v e="<!-- $mark:end -->" '
			index($0, b) { print; print t; skip = 1; next }
			index($0, e) { skip = 0 }
			!skip { print }' "$xml" >"$xml.tmp"
		mv "$xml.tmp" "$xml"
		echo "check-docs: $mark table refreshed in ${xml#"$top"/}"
	done
	"$top/scripts/docs/gen-readme.sh" "$readme"
	echo "check-docs: ${readme#"$top"/} generated from modules/ovc/doc/ovc.xml"
	exit 0
fi

bad=0
for mark in $tables; do
	t=$(table "$mark")
	have=$(awk -v b="<!-- $mark:begin -->" -v e="<!-- $mark:end -->" '
		index($0, b) { on = 1; next }
		index($0, e) { on = 0 } on' "$xml")
	if [ "$have" != "$t" ]; then
		echo "check-docs: the $mark table in ${xml#"$top"/} is stale (make docs)"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$t") | head -20
		bad=1
	fi
done
# every modparam of the table has a section of its own
for n in $("$top/build/modparams_doc" | awk -F'`' 'NR > 2 { print $2 }'); do
	if ! grep -qF "<section id=\"ovc.p.$n\">" "$xml"; then
		echo "check-docs: ${xml#"$top"/} has no <section id=\"ovc.p.$n\">"
		bad=1
	fi
done
src="$top/modules/ovc"
# functions from the export table, RPCs from ovc_rpc.c
rpcs=$(grep -oE '\{"ovc\.[a-z]+"' "$src/ovc_rpc.c" | tr -d '{"' | tr '\n' ' ')
for r in $rpcs; do
	if ! grep -qF "<section id=\"ovc.rpc.${r#ovc.}\">" "$xml"; then
		echo "check-docs: ${xml#"$top"/} has no <section id=\"ovc.rpc.${r#ovc.}\"> for $r"
		bad=1
	fi
done
names=" ovc_admit ovc_dst_admit $rpcs"
names+=" \$ovc(verdict) \$ovc(f) \$ovc(cpu) \$ovc(queue) KSR.ovc.admit KSR.ovc.admit_flags KSR.ovc.dst_admit KSR.ovc.dst_admit_uri"
# every statistic the module registers, from its one list
names+=" "$(sed -n 's/^OVC_STAT(\([a-z0-9_]*\),.*/\1/p' "$src/ovc_stats.def" |
	tr '\n' ' ')
names+=" fast_fallthrough rx_queue_msgs rx_queue_wait_ms rx_drain_msgs_s"
names+=" tcp_rx_bytes rx_drops guard_f rcvbuf_bytes"
for n in $names; do
	if ! grep -qF -- "$n" "$xml"; then
		echo "check-docs: ${xml#"$top"/} does not document '$n'"
		bad=1
	fi
done
# every linkend names an id of the guide
ids=$(grep -oE ' id="[^"]+"' "$xml" | sed 's/^ id="//; s/"$//' | sort -u)
for l in $(grep -oE 'linkend="[^"]+"' "$xml" | sed 's/^linkend="//; s/"$//' | sort -u); do
	if ! grep -qxF -- "$l" <<<"$ids"; then
		echo "check-docs: ${xml#"$top"/}: linkend=\"$l\" names no id"
		bad=1
	fi
done
# the book validates against DocBook 4.4's DTD, as Kamailio's doc check
# (xmllint --xinclude --postvalid) runs it, from the system's catalog
# (docbook-xml; nothing fetched); the one error every Kamailio module's
# book has, the DTD's missing xmlns:xi on <book>, is not counted
if ! command -v xmllint >/dev/null; then
	echo "check-docs: xmllint is missing (make deps, or apt-get install libxml2-utils docbook-xml)"
	bad=1
else
	v=$(cd "$top/modules/ovc/doc" &&
		xmllint --nonet --xinclude --postvalid --noout ovc.xml 2>&1 |
		grep -vE 'No declaration for attribute xmlns:xi of element book|^Document ovc.xml does not validate' || true)
	if [ -n "$v" ]; then
		echo "check-docs: modules/ovc/doc/ovc.xml is not valid DocBook 4.4:"
		echo "$v" | head -10 | sed 's/^/    /'
		bad=1
	fi
fi
# the figures the module's docs quote cite the results rows they come from
if ! "$top/scripts/docs/check-citations.py" "$xml" \
	"$top/docs/algorithms.md"; then
	echo "check-docs: a figure of ${xml#"$top"/} or docs/algorithms.md cites no results row, or a citation does not resolve"
	bad=1
fi
# the README is what the XML makes
fresh=$(mktemp /tmp/ovc-readme-check.XXXXXX)
trap 'rm -f "$fresh"' EXIT
if ! "$top/scripts/docs/gen-readme.sh" "$fresh"; then
	echo "check-docs: cannot generate the README from the XML (see above)"
	bad=1
elif ! cmp -s "$fresh" "$readme"; then
	echo "check-docs: ${readme#"$top"/} differs from what modules/ovc/doc/ovc.xml makes (make readme)"
	diff "$readme" "$fresh" | head -20
	bad=1
fi
# the module README is generated, plain text: nothing points at the
# Markdown file it replaced
old=$(cd "$top" && git ls-files 2>/dev/null | grep -vE '^bench/results/|^scripts/docs/check-docs\.sh$' |
	xargs -r grep -lF 'modules/ovc/README.md' 2>/dev/null || true)
if [ -n "$old" ]; then
	echo "check-docs: these name modules/ovc/README.md, now modules/ovc/README (doc/ovc_admin.xml):"
	printf '    %s\n' $old
	bad=1
fi
# every link to a section (#anchor, or FILE#anchor of another page) names
# a heading of its page, as GitHub derives the anchor from the heading
slugs() {
	awk '/^```/ { f = !f; next } !f && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
		sed -E 's/\[([^]]*)\]\([^)]*\)/\1/g' | LC_ALL=C tr 'A-Z' 'a-z' |
		LC_ALL=C sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}
for page in "$top/README.md" "$top/docs/algorithms.md"; do
	links=$(grep -oE '\]\([^)#]*#[^)]+\)|^\[[^]]+\]: *[^ ]*#[^ ]+' "$page" |
		sed -E 's/^\]\(//; s/\)$//; s/^\[[^]]+\]: *//' | sort -u || true)
	for l in $links; do
		# a citation of a results row: scripts/docs/check-citations.py
		case $l in *.csv#L[0-9]*) continue ;; esac
		target=$(dirname "$page")/${l%%#*}
		[ -n "${l%%#*}" ] || target=$page
		if [ ! -f "$target" ] || ! slugs "$target" | grep -qxF -- "${l#*#}"; then
			echo "check-docs: ${page#"$top"/}: link $l names no heading"
			bad=1
		fi
	done
done
[ "$bad" = 0 ] && echo "check-docs: ${xml#"$top"/} documents every export and parameter; ${readme#"$top"/} is generated from it"
exit "$bad"
