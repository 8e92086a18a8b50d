#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# srctree.sh SERIES [build | quick | t_NAME.sh...]: the module against a
# Kamailio release of series SERIES (e.g. 5.8) that no Debian suite ships,
# built from Kamailio's own source (make check-k58).
#
# KAM_SRC (required): Kamailio's source, a git repository (a clone of
# github.com/kamailio/kamailio, bare or not; its newest tag SERIES.N, made
# into build/ksrc/kamailio-VERSION_src.tar.gz) or a release tarball.
#  1. scripts/build/kam-tree.sh make (KTREE_SRC= that tarball): Kamailio's
#     Makefile builds the core, the modules configs/ovc-proxy.cfg loads and
#     ovc as src/modules/ovc, installs them in
#     build/ktree/inst-make-VERSION, and that kamailio -c loads ovc.so.
#  2. quick (default): t_bad_modparam and t_probe_variants (an overload
#     test) run against that kamailio and its ovc.so (PATH, OVC_MOD), under
#     the machine-wide load lock (tests/integration/run.sh); or the named
#     tests; build stops after step 1.
# Exits non-zero on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "srctree: ERROR: $*" >&2; exit 1; }
say() { echo "srctree: $*"; }
series=${1:-}
[[ $series =~ ^[0-9]+\.[0-9]+$ ]] ||
	die "usage: srctree.sh SERIES [build | quick | t_NAME.sh...]"
shift
mode=${1:-quick}
case "$mode" in
quick) tests=(t_bad_modparam.sh t_probe_variants.sh) ;;
build) tests=() ;;
*) tests=("$@") ;;
esac
for i in "${!tests[@]}"; do
	t=${tests[$i]##*/}
	[ -f "$top/tests/integration/$t" ] || die "no test tests/integration/$t"
	tests[$i]=tests/integration/$t
done
src=${KAM_SRC:-}
[ -n "$src" ] || die "KAM_SRC= Kamailio's git repository or a $series" \
	"release tarball (none given)"

if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	tag=$(git -C "$src" tag -l "$series.*" |
		grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n1)
	[ -n "$tag" ] || die "KAM_SRC=$src has no tag $series.N"
	mkdir -p "$top/build/ksrc"
	tarball=$top/build/ksrc/kamailio-${tag}_src.tar.gz
	if [ ! -f "$tarball" ]; then
		git -C "$src" archive --prefix="kamailio-$tag/" -o "$tarball.tmp.tar.gz" \
			"$tag" || die "git archive $tag of $src failed"
		mv "$tarball.tmp.tar.gz" "$tarball"
	fi
	say "Kamailio $tag from $src"
elif [ -f "$src" ]; then
	tarball=$src
else
	die "KAM_SRC=$src: not a git repository or a tarball"
fi

KTREE_SRC=$tarball "$top/scripts/build/kam-tree.sh" make
[ "${#tests[@]}" -gt 0 ] || exit 0
kv=$(basename "$tarball")
kv=${kv#kamailio-}
kv=${kv%%_src.tar.*}
kv=${kv%%.tar.*}
inst=$top/build/ktree/inst-make-$kv
mod=$(find "$inst" -name ovc.so -path '*/kamailio/modules/*' | head -n1)
[ -x "$inst/sbin/kamailio" ] && [ -n "$mod" ] ||
	die "no kamailio or ovc.so under $inst"
# the tools the integration tests use, built as for the host
make -s -C "$top" --no-print-directory check-integration INTEGRATION_RUN=true \
	>/dev/null || die "building the tests' tools failed"
say "tests against $("$inst/sbin/kamailio" -v 2>/dev/null | head -n1)"
PATH=$inst/sbin:$PATH OVC_MOD=$mod "$top/tests/integration/run.sh" \
	"${tests[@]}"
