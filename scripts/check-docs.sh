#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-docs.sh [--update]: the module README must carry the parameter
# registry table exactly as the library defines it (between the markers
# <!-- params:begin --> and <!-- params:end -->), the plain modparams
# exactly as modules/ovc/ovc_modparams.def lists them (between
# <!-- modparams:begin --> and <!-- modparams:end -->, and a section
# "### `name`" for each) and the per-second CSV columns exactly as
# modules/ovc/ovc_columns.def lists them (between <!-- csv:begin --> and
# <!-- csv:end -->), the statistics exactly as modules/ovc/ovc_stats.def
# lists them (between <!-- stats:begin --> and <!-- stats:end -->), and
# must document every script function, pseudo-variable key, RPC and
# statistic that the module exports; and every link to a section of the
# module README, README.md or docs/algorithms.md must name a heading.
# --update rewrites the tables in place.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
readme="$top/modules/ovc/README.md"
# each table: <!-- NAME:begin/end --> markers, made by build/NAME_doc
tables="params modparams csv stats"

if [ "${1:-}" = --update ]; then
	for mark in $tables; do
		table=$("$top/build/${mark}_doc")
		awk -v t="$table" -v b="<!-- $mark:begin -->" -v e="<!-- $mark:end -->" '
			index($0, b) { print; print t; skip = 1; next }
			index($0, e) { skip = 0 }
			!skip { print }' "$readme" >"$readme.tmp"
		mv "$readme.tmp" "$readme"
		echo "check-docs: $mark table refreshed in $readme"
	done
	exit 0
fi

bad=0
for mark in $tables; do
	table=$("$top/build/${mark}_doc")
	have=$(awk -v b="<!-- $mark:begin -->" -v e="<!-- $mark:end -->" '
		index($0, b) { on = 1; next }
		index($0, e) { on = 0 } on' "$readme")
	if [ "$have" != "$table" ]; then
		echo "check-docs: the $mark table in $readme is stale (make docs)"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$table") | head -20
		bad=1
	fi
done
# every modparam of the table has a section of its own
for n in $("$top/build/modparams_doc" | awk -F'`' 'NR > 2 { print $2 }'); do
	if ! grep -q "^### \`$n\`" "$readme"; then
		echo "check-docs: $readme has no section '### \`$n\`'"
		bad=1
	fi
done
src="$top/modules/ovc"
# functions from the export table, RPCs from ovc_rpc.c
names=" ovc_admit ovc_dst_admit "
names+=$(grep -oE '\{"ovc\.[a-z]+"' "$src/ovc_rpc.c" | tr -d '{"' | tr '\n' ' ')
names+=" \$ovc(verdict) \$ovc(f) \$ovc(cpu) \$ovc(queue) KSR.ovc.admit KSR.ovc.admit_flags KSR.ovc.dst_admit KSR.ovc.dst_admit_uri"
# every statistic the module registers, from its one list
names+=" "$(sed -n 's/^OVC_STAT(\([a-z0-9_]*\),.*/\1/p' "$src/ovc_stats.def" |
	tr '\n' ' ')
names+=" fast_fallthrough rx_queue_msgs rx_queue_wait_ms rx_drain_msgs_s"
names+=" tcp_rx_bytes rx_drops guard_f rcvbuf_bytes"
for n in $names; do
	if ! grep -qF -- "$n" "$readme"; then
		echo "check-docs: $readme does not document '$n'"
		bad=1
	fi
done
# every link to a section (#anchor, or FILE#anchor of another page) names
# a heading of its page, as GitHub derives the anchor from the heading
slugs() {
	awk '/^```/ { f = !f; next } !f && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
		sed -E 's/\[([^]]*)\]\([^)]*\)/\1/g' | LC_ALL=C tr 'A-Z' 'a-z' |
		LC_ALL=C sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}
for page in "$readme" "$top/README.md" "$top/docs/algorithms.md"; do
	links=$(grep -oE '\]\([^)#]*#[^)]+\)|^\[[^]]+\]: *[^ ]*#[^ ]+' "$page" |
		sed -E 's/^\]\(//; s/\)$//; s/^\[[^]]+\]: *//' | sort -u || true)
	for l in $links; do
		target=$(dirname "$page")/${l%%#*}
		[ -n "${l%%#*}" ] || target=$page
		if [ ! -f "$target" ] || ! slugs "$target" | grep -qxF -- "${l#*#}"; then
			echo "check-docs: ${page#"$top"/}: link $l names no heading"
			bad=1
		fi
	done
done
[ "$bad" = 0 ] && echo "check-docs: $readme documents every export and parameter"
exit "$bad"
