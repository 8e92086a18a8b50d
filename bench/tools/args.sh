# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tools/args.sh - --help and argument checks shared by the bench
# scripts. Sourced, never run; touches nothing but stdout and stderr, so
# that a script can check its arguments before it sources bench/testbed/
# lib.sh or starts anything.
#
#   bench_help FILE           FILE's header comment (from the line after
#                             the SPDX line to the first line that is not
#                             a comment), without the leading "# "
#   bench_help_if FILE ARG... prints bench_help FILE and exits 0 when an ARG
#                             is --help or the first ARG is -h
#   bench_bad MSG             "SCRIPT: MSG (see SCRIPT --help)" on stderr,
#                             exit 2
#   bench_num NAME VALUE      refuses VALUE unless a number >= 0 (12, 0.5)
#   bench_int NAME VALUE      refuses VALUE unless an integer >= 0
#   bench_nums NAME LIST      bench_num for every word of LIST (at least one)
#   bench_oneof NAME VALUE WORD...  refuses VALUE unless one of the WORDs
#   bench_nargs MIN MAX ARG...  refuses fewer than MIN or more than MAX
#                             arguments (MAX - for no limit)
#   bench_args_checked        marks the end of the checks (below)

bench_help() {
	awk 'NR == 1 && /^#!/ { next }
		/^# SPDX/ { next }
		/^#/ { sub(/^# ?/, ""); print; next }
		{ exit }' "$1"
}

bench_help_if() {
	local f=$1 a
	shift
	[ "${1:-}" = -h ] && { bench_help "$f"; exit 0; }
	for a in "$@"; do
		[ "$a" = --help ] && { bench_help "$f"; exit 0; }
	done
	return 0
}

bench_bad() {
	local s=${0##*/}
	echo "$s: $* (see $s --help)" >&2
	exit 2
}

bench_num() {
	[[ "$2" =~ ^[0-9]+(\.[0-9]+)?$|^\.[0-9]+$ ]] ||
		bench_bad "$1: '$2' is not a number"
}

bench_int() {
	[[ "$2" =~ ^[0-9]+$ ]] || bench_bad "$1: '$2' is not a whole number"
}

bench_nums() {
	local w n=0
	for w in $2; do
		bench_num "$1" "$w"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || bench_bad "$1: empty list"
}

bench_oneof() {
	local name=$1 v=$2 w
	shift 2
	for w in "$@"; do
		[ "$v" = "$w" ] && return 0
	done
	bench_bad "$name: '$v' is not one of: $*"
}

bench_nargs() {
	local min=$1 max=$2
	shift 2
	[ $# -ge "$min" ] || bench_bad "missing arguments"
	[ "$max" = - ] || [ $# -le "$max" ] || bench_bad "too many arguments: $*"
}

# bench_args_checked: the script's arguments are checked and nothing has
# been touched yet; with BENCH_CHECK_ARGS=1 in the environment it stops
# here (exit 0), so that bench/tests/test_args.sh can try arguments
# without load.
bench_args_checked() {
	[ "${BENCH_CHECK_ARGS:-0}" != 1 ] || exit 0
}
