# SPDX-License-Identifier: GPL-2.0-or-later
# bench/microbench/cost-run.sh - sourced by the NAME-cost.sh scripts,
# after they set here (bench/) and top (the checkout) and checked their
# arguments: cost_run BENCH CAMPAIGN [OUT] builds build/bench/BENCH, runs
# it once under the machine-wide load lock, shows its output on stderr,
# and sets out (OUT, default bench/results/CAMPAIGN, made) and raw (a file
# with the output, removed on exit) for the script's table.
cost_run() {
	out=${3:-$top/bench/results/$2}
	make -C "$top" --no-print-directory "build/bench/$1" >&2
	mkdir -p "$out"
	raw=$(mktemp)
	trap 'rm -f "$raw"' EXIT
	"$top/scripts/load/with-load-lock.sh" "$top/build/bench/$1" >"$raw"
	cat "$raw" >&2
}
