#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/reports/net-keep.sh SRC DST: the small per-second files of a network run
# (net-run.sh folder SRC) for the repository, into DST (replaced):
# meta.env, merged.csv, summary.json, summary.csv, every proxy's ovc.csv
# (core.ovc.csv, edgeN.ovc.csv: one header, one row per second), the
# edges' ovc.dst polls as CSV (edgeN.dst.csv, net-dst.sh) and their CPU
# (edges_cpu.csv). No SIPp files, logs or machine paths.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 2 2 "$@"
[ -d "$1" ] || bench_bad "SRC: no folder '$1'"
bench_args_checked
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:?usage: net-keep.sh SRC DST}
dst=${2:?usage: net-keep.sh SRC DST}
[ -f "$src/meta.env" ] || { echo "net-keep: $src is not a net-run folder" >&2; exit 1; }
rm -rf "$dst"
mkdir -p "$dst"
for f in meta.env merged.csv summary.json summary.csv edges_cpu.csv rates.log; do
	[ -s "$src/$f" ] && cp "$src/$f" "$dst/"
done
for h in core edge1 edge2; do
	[ -s "$src/$h/ovc_raw.txt" ] || continue
	awk -F',' '$1 == "time" && !h++ { print; next }
		$1 ~ /^[0-9]+$/ { r[$1] = $0 }
		END { n = 0; for(t in r) k[++n] = t
			for(i = 2; i <= n; i++) for(j = i; j > 1 && k[j - 1] > k[j]; j--) {
				x = k[j]; k[j] = k[j - 1]; k[j - 1] = x }
			for(i = 1; i <= n; i++) print r[k[i]] }' \
		"$src/$h/ovc_raw.txt" >"$dst/$h.ovc.csv"
done
for h in edge1 edge2; do
	if [ -s "$src/$h.dst.txt" ]; then
		"$here/reports/net-dst.sh" "$src/$h.dst.txt" >"$dst/$h.dst.csv"
	fi
done
exit 0
