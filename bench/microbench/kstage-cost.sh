#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# microbench/kstage-cost.sh [OUT]: what the kernel stage's filter costs
# per datagram as the kernel times it (bench/microbench/kstage_bench.c, as
# make bench-kstage runs it), written to OUT/kstage.csv (default
# bench/results/kstage-cost): one row per kind of datagram, its columns
# datagram (kstage_bench's words, commas as semicolons), ns (the median
# of its rounds), instructions (the program's), invite_bytes and kernel;
# then OUT's MANIFEST (bench/tools/results.sh record). Holds the
# machine-wide load lock while it runs (a few seconds of one core). Needs
# root, or CAP_BPF and CAP_PERFMON, as kstage_bench does.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
bench_args_checked
. "$here/microbench/cost-run.sh"
cost_run kstage_bench kstage-cost "${1:-}"
awk -v kernel="$(uname -r)" '
	NR == 1 {
		insns = $2; bytes = $5
		print "datagram,ns,instructions,invite_bytes,kernel"
		next
	}
	$NF == "ns" {
		ns = $(NF - 1)
		sub(/^ +/, ""); sub(/ +[0-9.]+ ns$/, "")
		gsub(/,/, ";")
		print $0 "," ns "," insns "," bytes "," kernel
	}' "$raw" >"$out/kstage.csv"
[ "$(wc -l <"$out/kstage.csv")" -eq 6 ] ||
	{ echo "kstage-cost: kstage_bench printed no five figures" >&2; exit 1; }
"$here/tools/results.sh" record "$out" \
	"the kernel stage's filter per datagram, as the kernel times it (BPF_PROG_TEST_RUN)" \
	"bench/microbench/kstage-cost.sh${1:+ $1}"
