#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# headers.sh SERIES: compiles the module against the headers of a
# Kamailio release of series SERIES (e.g. 5.8) that no server here runs:
# compile only, nothing loaded (make check-k58-build).
#
# KAM_SRC (required): Kamailio's source, a git repository (a clone of
# github.com/kamailio/kamailio, bare or not; its newest tag SERIES.N), a
# release tarball or a source folder. Its src/ is extracted once into
# build/kheaders/kamailio-VERSION/. The defines are the tree's own
# (scripts/build/kam-defs.sh --tree: its Makefile.defs for a default install);
# every modules/ovc/*.c is compiled with them (-Werror: a warning fails)
# and linked with the library and the kernel stage's loader into
# build/kheaders/VERSION/ovc.so, which must embed "kamailio VERSION".
# Prints the release and the time taken; exits non-zero on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "headers: ERROR: $*" >&2; exit 1; }
say() { echo "headers: $*"; }
series=${1:-}
[[ $series =~ ^[0-9]+\.[0-9]+$ ]] || die "usage: headers.sh SERIES (e.g. 5.8)"
src=${KAM_SRC:-}
[ -n "$src" ] || die "KAM_SRC= Kamailio's git repository, a release" \
	"tarball or a source folder of $series (none given)"
t0=$(date +%s)
work=$top/build/kheaders
mkdir -p "$work"

# 1. the tree
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	tag=$(git -C "$src" tag -l "$series.*" |
		grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n1)
	[ -n "$tag" ] || die "KAM_SRC=$src has no tag $series.N"
	tree=$work/kamailio-$tag
	if [ ! -f "$tree/.complete" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		git -C "$src" archive "$tag" src | tar -C "$tree" -xf - ||
			die "git archive $tag of $src failed"
		touch "$tree/.complete"
	fi
	from="tag $tag of $src"
elif [ -d "$src/src/core" ]; then
	tree=$(cd "$src" && pwd)
	from=$tree
elif [ -f "$src" ]; then
	tree=$work/$(basename "$src" | sed 's/\.tar.*//; s/\.tgz$//')
	if [ ! -f "$tree/.complete" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		tar -C "$tree" --strip-components=1 -xf "$src" \
			--wildcards --no-anchored '*/src/*' ||
			die "extracting $src failed"
		touch "$tree/.complete"
	fi
	from=$src
else
	die "KAM_SRC=$src: not a git repository, source folder or tarball"
fi
ksrc=$tree/src
[ -f "$ksrc/core/sr_module.h" ] || die "no src/core/sr_module.h in $tree"
ver=$(awk '$2 == "=" && $1 == "VERSION" { v = $3 }
	$2 == "=" && $1 == "PATCHLEVEL" { p = $3 }
	$2 == "=" && $1 == "SUBLEVEL" { s = $3 }
	END { print v "." p "." s }' "$ksrc/Makefile.defs")
[ "${ver%.*}" = "$series" ] || die "$from is Kamailio $ver, not $series"
say "Kamailio $ver from $from"

# 2. the library and the kernel stage's loader (Kamailio-free), as the
# host builds them
make -s -C "$top" --no-print-directory lib build/mod/ovc_kstage_bpf.o ||
	die "building the library failed"

# 3. the module's files against the tree
defs=$("$top/scripts/build/kam-defs.sh" "$ksrc" --tree) ||
	die "kam-defs.sh --tree failed"
eval "dflags=($defs)"
out=$work/$ver
rm -rf "$out"
mkdir -p "$out"
objs=()
for c in "$top"/modules/ovc/*.c; do
	o=$out/$(basename "$c" .c).o
	gcc -std=gnu11 -O2 -g -fPIC -DPIC -pthread -m64 -Wall -Werror \
		-Wno-unused-parameter -I"$top/include" -I"$ksrc" "${dflags[@]}" \
		-I"$top/kstage" -c "$c" -o "$o" ||
		die "${c#"$top"/} does not compile against Kamailio $ver"
	objs+=("$o")
done
gcc -shared -pthread -o "$out/ovc.so" "${objs[@]}" \
	"$top/build/mod/ovc_kstage_bpf.o" "$top/build/libovc.a" -lm ||
	die "linking against Kamailio $ver failed"
grep -qxF "kamailio $ver (x86_64/linux)" <(strings -a "$out/ovc.so") ||
	die "$out/ovc.so does not embed kamailio $ver"
say "Kamailio $ver: ${#objs[@]} files compiled without a warning," \
	"$out/ovc.so linked ($(($(date +%s) - t0)) s)"
