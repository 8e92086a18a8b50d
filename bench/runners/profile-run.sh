#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runners/profile-run.sh TREE TAG ARM MULT: one defaults-campaign run of ARM
# at MULT x CAP with TREE's module (TREE/bench/campaigns/defaults.sh, or
# bench/defaults-campaign.sh in a tree from before the bench's folders; the
# environment passes through: CAP, QUOTA_US, KAM_OPTS, OUT, ...), sampled
# machine-wide by perf (`perf record -a -g -F 1999`) over seconds
# PERF_FROM..PERF_FROM+PERF_SECS (default 14..22, the steady window) into
# $OUT/TAG.perf.data; then prints the run's row, Kamailio's share of all
# samples, its top symbols and the share of ovc's ticker process (the one
# whose samples hold ovc_ticker_run or ovc_sleep_until). Shares are of
# both cores' samples: a 20 % quota of one core is 10 % of them.
# Bounded: the campaign run is, and perf records for PERF_SECS. Hold the
# machine-wide load lock (scripts/load/with-load-lock.sh) around it. Needs perf
# (linux-perf, installed by `make deps`).
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
[ $# -eq 4 ] || bench_bad "takes TREE TAG ARM MULT"
tree=$1 tag=$2 arm=$3 mult=$4
# the campaign's place in TREE (before the bench's folders: bench/)
camp=$tree/bench/campaigns/defaults.sh
[ -x "$camp" ] || camp=$tree/bench/defaults-campaign.sh
[ -x "$camp" ] || bench_bad "TREE: no $tree/bench/campaigns/defaults.sh"
[[ "$tag" =~ ^[A-Za-z0-9_.-]+$ ]] || bench_bad "TAG: '$tag' is not a name"
bench_num MULT "$mult"
bench_args_checked
from=${PERF_FROM:-14} secs=${PERF_SECS:-8}
export OUT=${OUT:-$PWD/bench/results/profile}
command -v perf >/dev/null || { echo "perf not found: make deps" >&2; exit 1; }
mkdir -p "$OUT"
data="$OUT/$tag.perf.data"

(sleep "$from"; perf record -a -g -F 1999 -o "$data" -- sleep "$secs" \
	>/dev/null 2>&1) &
perf_pid=$!
ARMS=$arm MULTS=$mult "$camp" >"$OUT/$tag.log" 2>&1
wait "$perf_pid"

report() { perf report -i "$data" --no-children -g none --stdio "$@" 2>/dev/null; }
echo "$tag: $(tail -n1 "$OUT/runs.csv")"
echo "$tag: kamailio $(report --sort comm | awk '$2 == "kamailio" { print $1 }') of all samples"
# (head and awk stop reading early: perf's SIGPIPE is no failure here)
report --comm kamailio --sort dso,sym | grep -E '^ +[0-9]' | head -n 8 || true
ticker=$(report --comm kamailio --sort pid,sym |
	awk '/ovc_ticker_run|ovc_sleep_until/ { print $2; exit }' || true)
if [ -n "$ticker" ]; then
	echo "$tag: ticker ($ticker) $(report --comm kamailio --sort pid |
		awk -v p="$ticker" '$2 == p { print $1 }') of all samples"
fi
