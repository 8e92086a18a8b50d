#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every integration test (tests/integration/t_*.sh, or those named on
# the command line): real kamailio and real SIPp on loopback. Each test
# starts and stops its own processes. Prints one line per test and a
# closing "N passed, N failed" line; exits non-zero on any failure.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "integration tests need root (cgroups)"; exit 1; }
. "$here/../../scripts/load-lock.sh"
command -v kamailio >/dev/null && command -v sipp >/dev/null ||
	{ echo "kamailio/sipp missing: run 'make deps'"; exit 1; }

if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=("$here"/t_*.sh)
fi
passed=0
failed=0
failed_names=()
outs=$(mktemp -d /tmp/ovc-run.XXXXXX)
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	start=$(date +%s)
	if bash "$t" 2>&1 | tee "$outs/$name.out"; then
		passed=$((passed + 1))
		echo "== $name: PASS ($(($(date +%s) - start)) s)"
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
[ "$failed" -eq 0 ] || echo "failed: ${failed_names[*]}"
echo "integration: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
