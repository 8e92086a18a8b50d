#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every integration test (tests/integration/t_*.sh, or those named on
# the command line): real kamailio and real SIPp on loopback. Each test
# starts and stops its own processes. Prints one line per test (PASS, FAIL,
# or SKIP: a test exits 77 when this host cannot run what it tests, see
# lib.sh's skip) and a closing "N passed, N failed, N skipped" line, the
# skipped ones named with their reason; exits non-zero on any failure.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "integration tests need root (cgroups)"; exit 1; }
. "$here/../../scripts/load/load-lock.sh"
command -v kamailio >/dev/null && command -v sipp >/dev/null ||
	{ echo "kamailio/sipp missing: run 'make deps'"; exit 1; }

if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=("$here"/t_*.sh)
fi
passed=0
failed=0
skipped=0
failed_names=()
skipped_why=()
outs=$(mktemp -d /tmp/ovc-run.XXXXXX)
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	start=$(date +%s)
	rc=0
	bash "$t" 2>&1 | tee "$outs/$name.out" || rc=$?
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "== $name: PASS ($(($(date +%s) - start)) s)"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		skipped_why+=("$name: $(grep -m1 -o 'SKIP: .*' "$outs/$name.out" |
			cut -c7-)")
		echo "== $name: SKIP ($(($(date +%s) - start)) s)"
	else
		failed=$((failed + 1))
		failed_names+=("$name")
		echo "== $name: FAIL ($(($(date +%s) - start)) s)"
	fi
done
# what failed, again at the end (CI shows the tail): each failed test's
# measurements and failed checks, without its passed checks
for name in "${failed_names[@]:-}"; do
	[ -n "$name" ] || continue
	echo "--- $name (its log lines and failed checks):"
	grep -v "^\[$name\] ok: " "$outs/$name.out" | tail -n 25
done
rm -rf "$outs"
for w in "${skipped_why[@]:-}"; do
	[ -z "$w" ] || echo "skipped: $w"
done
[ "$failed" -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "integration: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
