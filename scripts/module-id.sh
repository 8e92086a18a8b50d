#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# module-id.sh [TOP]: prints the id of the module's source as checked out
# in TOP (default this checkout): the first 16 hex digits of the sha256
# of `git ls-tree HEAD src include modules/ovc` (the library and the
# module; the same id wherever those trees are the same, across rebases
# and clones), with "+dirty" appended when those paths have changes not
# committed. "unknown" outside a git checkout. The headline records it
# (bench/headline-csv.sh) and check-docs compares it (check-headline.sh).
set -euo pipefail
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if ! git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
	echo unknown
	exit 0
fi
id=$(git -C "$top" ls-tree HEAD src include modules/ovc | sha256sum |
	cut -c1-16)
if [ -n "$(git -C "$top" status --porcelain -- src include modules/ovc \
	2>/dev/null)" ]; then
	id="$id+dirty"
fi
echo "$id"
