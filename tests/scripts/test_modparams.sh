#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plain modparams have one home: each line of
# modules/ovc/ovc_modparams.def is a field of ovc_mp that its consumer
# reads (ovc_mp.<name>, in a module file other than ovc_modparams.c; the
# registry's param through ovc_mp_params()), and a line with a check has
# its ovc_mp_check_<name>() defined in exactly one module file, one set
# at run time its ovc_mp_live_<name>, while ovc.set and ovc.get name no
# modparam of their own. Adding a modparam then takes its line and its
# consumer, no global, no RPC code of its own.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"

src=$top/modules/ovc
def=$src/ovc_modparams.def
# the module's C files but the table's own
files=()
for f in "$src"/*.c; do
	[ "$(basename "$f")" = ovc_modparams.c ] || files+=("$f")
done

names=$(grep -oE '^OVC_MP_(INT|ENUM|STR)\([a-z_]+' "$def" | cut -d'(' -f2)
[ "$(echo "$names" | wc -l)" -ge 25 ] && ok "$(echo "$names" | wc -l) modparams in the .def" ||
	no "fewer modparams than expected in the .def: $names"
for n in $names; do
	if [ "$n" = param ]; then
		grep -q 'ovc_mp_params()' "${files[@]}" &&
			ok "param: read through ovc_mp_params()" ||
			no "param: nobody reads ovc_mp_params()"
		continue
	fi
	users=$(grep -lE "ovc_mp\.$n\b" "${files[@]}" | xargs -r -n1 basename | tr '\n' ' ')
	[ -n "$users" ] && ok "$n: read as ovc_mp.$n ($users)" ||
		no "$n: no module file reads ovc_mp.$n"
done
# the lines with a check: its function, defined once
# (the column ends its line: "..., check," then the doc)
checked=$(awk 'match($0, /^OVC_MP_[A-Z]+\([a-z_]+/) {
		n = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", n) }
	/, check,$/ { print n }' "$def")
[ -n "$checked" ] && ok "modparams with a check: $(echo $checked)" ||
	no "no modparam with a check found in the .def"
for n in $checked; do
	c=$(grep -lE "^int ovc_mp_check_$n\(" "$src"/*.c | wc -l)
	is "$n: ovc_mp_check_$n() defined once" "$c" 1
done
# the lines set at run time: their hooks, defined once; ovc.set and
# ovc.get take them from the table, naming none of them
live=$(awk 'match($0, /^OVC_MP_[A-Z]+\([a-z_]+/) {
		n = substr($0, RSTART, RLENGTH); sub(/.*\(/, "", n) }
	/, live, (none|check),$/ { print n }' "$def")
for n in algorithm mode dry_run network_mode; do
	case " $(echo $live) " in
	*" $n "*) ok "$n: settable at run time" ;;
	*) no "$n: not settable at run time (column set)" ;;
	esac
done
for n in $live; do
	c=$(grep -lE "^const struct ovc_mp_live ovc_mp_live_$n = " "$src"/*.c | wc -l)
	is "$n: ovc_mp_live_$n defined once" "$c" 1
done
for n in $names; do
	if grep -qF "\"$n\"" "$src/ovc_rpc_param.c"; then
		no "ovc_rpc_param.c names modparam \"$n\""
	fi
done
ok "ovc_rpc_param.c names no modparam"
t_done
