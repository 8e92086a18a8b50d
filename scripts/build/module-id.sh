#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# module-id.sh [TOP]: prints the id of the module's source as checked out
# in TOP (default this checkout): the first 16 hex digits of the sha256
# of `git ls-tree -r HEAD src include modules/ovc kstage` without the
# lines of the documentation (*.md, *.xml, and the module's README and
# doc/ made of them): the library's, the module's and the kernel stage's
# code and build files; the same id wherever those files are the same, across
# rebases and clones. "+dirty" appended when those files have changes
# not committed; "unknown" outside a git checkout. The headline records
# it (bench/reports/headline-csv.sh) and check-docs compares it
# (check-headline.sh).
set -euo pipefail
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	echo unknown
	exit 0
fi
code() { grep -vE '\.(md|xml)$|modules/ovc/README$|modules/ovc/doc/' || true; }
id=$(git -C "$top" ls-tree -r HEAD src include modules/ovc kstage | code |
	sha256sum | cut -c1-16)
if [ -n "$(git -C "$top" status --porcelain -- src include modules/ovc \
	kstage | code)" ]; then
	id="$id+dirty"
fi
echo "$id"
