# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/scripts/test_*.sh: a scratch directory $F removed at
# exit, and the checks. Failures are counted in a file, since many checks
# run in subshells; t_done prints the verdict and returns non-zero on any.
T_NAME=$(basename "$0" .sh)
F=$(mktemp -d "/tmp/ovc-$T_NAME.XXXXXX")
trap 'rm -rf "$F"' EXIT
: >"$F/fails"
ok() { echo "$T_NAME: ok: $1"; }
no() {
	echo "$T_NAME: FAIL: $1"
	echo "$1" >>"$F/fails"
}
# is WHAT GOT WANT
is() { if [ "$2" = "$3" ]; then ok "$1"; else no "$1: got '$2', want '$3'"; fi; }
t_done() {
	local n
	n=$(wc -l <"$F/fails")
	if [ "$n" -gt 0 ]; then
		echo "$T_NAME: $n FAILED"
		return 1
	fi
	echo "$T_NAME: all passed"
}
