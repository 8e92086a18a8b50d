#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/sim/layers.sh [DIR] - the simulator's files depend one way
# (bench/sim/world.h): each part includes and calls only the parts below
# it. Fails, naming the file and what it reaches, on any edge upwards or
# sideways. DIR: the simulator's sources (bench/sim).
set -euo pipefail
. "$(dirname "$0")/../../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 1 "$@"
dir=${1:-bench/sim}
[ -d "$dir" ] || bench_bad "no directory $dir"
bench_args_checked
rc=0

# file, the headers it may include, the calls it must not make
check() {
	f=$dir/$1
	if [ ! -f "$f" ]; then
		echo "layers: no $f" >&2
		rc=1
		return
	fi
	for h in $(sed -n 's/^#include "\([a-z_]*\.h\)".*/\1/p' "$f"); do
		case " $2 " in
		*" $h "*) ;;
		*) echo "layers: $1 includes $h" >&2; rc=1 ;;
		esac
	done
	if grep -nE "$3" "$f" >/dev/null; then
		grep -nE "$3" "$f" | sed "s|^|layers: $1:|" >&2
		rc=1
	fi
}

base="world.h evq.h profile.h source.h rng.h siptimer.h sim.h"
check server.c "$base server.h" 'sim_(sip|ctl|adm|ks)_|sim_drain|sim_new_call'
check ks.c "$base ks.h" 'sim_(sip|ctl|adm)_|sim_drain|sim_proc_'
check adm.c "$base adm.h ks.h" 'sim_(sip|ctl)_|sim_drain|sim_proc_'
check ctl.c "$base ctl.h ks.h server.h" 'sim_(sip|adm)_|sim_drain|sim_new_call'
check sip.c "$base sip.h adm.h ks.h server.h" 'sim_ctl_'
exit $rc
