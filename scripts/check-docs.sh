#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-docs.sh [--update]: the module README must carry the tables of the
# plain modparams (ovc_modparams.def; between <!-- modparams:begin --> and
# <!-- modparams:end -->) and of the parameter registry (between
# <!-- params:begin --> and <!-- params:end -->) exactly as the code
# defines them, a section for every modparam, and must document every
# script function, pseudo-variable key, RPC and statistic that the module
# exports. --update rewrites the tables in place.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
readme="$top/modules/ovc/README.md"
gen="$top/build/params_doc"
tables="modparams params"

# table NAME: the generated table NAME
table() {
	if [ "$1" = modparams ]; then "$gen" modparams; else "$gen"; fi
}

if [ "${1:-}" = --update ]; then
	for t in $tables; do
		awk -v t="$(table "$t")" -v b="<!-- $t:begin -->" -v e="<!-- $t:end -->" '
			$0 == b { print; print t; skip = 1; next }
			$0 == e { skip = 0 }
			!skip { print }' "$readme" >"$readme.tmp"
		mv "$readme.tmp" "$readme"
	done
	echo "check-docs: tables refreshed in $readme"
	exit 0
fi

bad=0
for t in $tables; do
	if ! grep -qxF "<!-- $t:begin -->" "$readme" ||
		! grep -qxF "<!-- $t:end -->" "$readme"; then
		echo "check-docs: $readme lacks the markers of the $t table"
		bad=1
		continue
	fi
	have=$(awk -v b="<!-- $t:begin -->" -v e="<!-- $t:end -->" '
		$0 == b { on = 1; next }
		$0 == e { on = 0 } on' "$readme")
	want=$(table "$t")
	if [ "$have" != "$want" ]; then
		echo "check-docs: the $t table in $readme is stale (make docs)"
		diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -20
		bad=1
	fi
done
# every modparam of the table has a section of its own
for n in $("$gen" modparams | awk -F'`' 'NR > 2 { print $2 }'); do
	if ! grep -q "^### \`$n\`" "$readme"; then
		echo "check-docs: $readme has no section '### \`$n\`'"
		bad=1
	fi
done
src="$top/modules/ovc"
# functions from the export table, RPCs from ovc_rpc.c
names=" ovc_admit "
names+=$(grep -oE '\{"ovc\.[a-z]+"' "$src/ovc_rpc.c" | tr -d '{"' | tr '\n' ' ')
names+=" \$ovc(verdict) \$ovc(f) \$ovc(cpu) \$ovc(queue) KSR.ovc.admit KSR.ovc.admit_flags"
for c in invite indialog register other; do
	for v in offered admitted rejected dropped queued dequeued would_reject; do
		names+=" ${c}_${v}"
	done
done
names+=" replies_sent acks_absorbed fast_rejects fast_fallthrough rx_queue_bytes rx_queue_msgs"
names+=" rx_queue_wait_ms rx_drain_msgs_s tcp_rx_bytes rx_drops age_rejects guard_f rcvbuf_bytes"
for n in $names; do
	if ! grep -qF -- "$n" "$readme"; then
		echo "check-docs: $readme does not document '$n'"
		bad=1
	fi
done
[ "$bad" = 0 ] && echo "check-docs: $readme documents every export and parameter"
exit "$bad"
