#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kam-flags.sh [KAMAILIO]: prints the compile-flags string a module must
# embed for the installed Kamailio server KAMAILIO (default: kamailio from
# PATH) to load it; with -v, also says on stderr where it came from.
#
# The server compares a module's string (SER_COMPILE_FLAGS of
# core/ver_defs.h, as the module was compiled) with SER_COMPILE_FLAGS as
# its own core/sr_module.c was compiled. kamailio -V prints the string as
# core/ver.c was compiled: the same in a build with Kamailio's Makefiles
# (Debian 12's 5.6, 13's 6.0), not in its CMake build (Debian sid's 6.1.5),
# where core files that include the memory managers' headers also define
# DBG_QM_MALLOC, DBG_F_MALLOC and DBG_TLSF_MALLOC (they follow
# DBG_SR_MEMORY there) and -V prints them while the modules lack them.
# So the string is read from a module of the server's own (tm.so, else
# sl.so, else another in its module directory, kamailio -I): the line of
# its strings that starts as -V's flags line does. Without such a module,
# -V's flags line.
set -euo pipefail
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
kam=${1:-kamailio}
die() { echo "kam-flags: ERROR: $*" >&2; exit 1; }
kv=$("$kam" -V 2>/dev/null) || die "$kam -V failed (kamailio installed?)"
vflags=$(sed -n 's/^flags: *//p' <<<"$kv" | sed 's/ *$//')
[ -n "$vflags" ] || die "no flags line in $kam -V"
first=${vflags%%,*}
modpath=$("$kam" -I 2>/dev/null |
	sed -n 's/^ *Default paths to modules: *//p' | cut -d: -f1 || true)
mods=()
if [ -n "$modpath" ] && [ -d "$modpath" ]; then
	for m in "$modpath/tm.so" "$modpath/sl.so" "$modpath"/*.so; do
		[ -f "$m" ] && [ "${m##*/}" != ovc.so ] && mods+=("$m")
	done
fi
for m in "${mods[@]}"; do
	# a comma-separated list of upper-case words, starting as -V's does
	f=$(strings -a "$m" | grep -m1 -xE \
		"$first(, [A-Z][A-Z0-9_-]*( [A-Z0-9_]+)?)+" || true)
	if [ -n "$f" ]; then
		if [ "$verbose" = 1 ] && [ "$f" != "$vflags" ]; then
			echo "kam-flags: the flags of ${m##*/} differ from" \
				"$kam -V's (only there:" \
				"$(comm -13 <(tr ',' '\n' <<<"$f" | tr -d ' ' |
					sort) <(tr ',' '\n' <<<"$vflags" |
					tr -d ' ' | sort) | tr '\n' ' ')):" \
				"taken from $m" >&2
		fi
		echo "$f"
		exit 0
	fi
done
[ "$verbose" = 0 ] ||
	echo "kam-flags: no module of $kam's own with a flags string: -V's" >&2
echo "$vflags"
