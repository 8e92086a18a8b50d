#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Verify that a built module embeds exactly the version string of the
# installed kamailio binary (KAMAILIO, default kamailio) and the
# compile-flags string it checks modules against (scripts/build/kam-flags.sh);
# kamailio refuses (and exits) at load time otherwise. Prints both strings
# on a mismatch.
set -euo pipefail
so=${1:?usage: check-abi.sh module.so}
kam=${KAMAILIO:-kamailio}
kv=$("$kam" -V 2>/dev/null) || { echo "check-abi: $kam -V failed (run make deps)" >&2; exit 1; }
want_ver=$(printf '%s\n' "$kv" | sed -n 's/^version: \(.*[^ ]\) *$/\1/p')
# the flags its own modules carry (scripts/build/kam-flags.sh), which -V does
# not always print
want_flags=$("$(dirname "$0")/kam-flags.sh" "$kam")
strs=$(strings -a "$so")
ok=1
# Here-strings, not pipes: with pipefail, grep -q exiting at the first match
# makes the writer die of SIGPIPE once the module's strings exceed a pipe
# buffer, and the pipeline would report a mismatch that is not there.
if ! grep -qxF "$want_ver" <<<"$strs"; then
	echo "check-abi: version mismatch in $so" >&2
	echo "  kamailio -V : $want_ver" >&2
	echo "  module has  : $(grep -m1 '^kamailio [0-9]' <<<"$strs" || echo '(none)')" >&2
	ok=0
fi
if ! grep -qxF "$want_flags" <<<"$strs"; then
	echo "check-abi: compile flags mismatch in $so" >&2
	echo "  kamailio    : $want_flags" >&2
	echo "  module has  : $(grep -m1 '^USE_' <<<"$strs" || echo '(none)')" >&2
	ok=0
fi
[ "$ok" = 1 ] || exit 1
echo "check-abi: $so matches $want_ver"
