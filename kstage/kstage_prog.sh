#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kstage_prog.sh DIR OUT.h - the kernel stage's program for Kamailio's own
# build of the module (src/modules/ovc of a Kamailio tree, see
# modules/ovc/Makefile and CMakeLists.txt): compiles DIR/ovc_kstage.bpf.c
# with $BPF_CLANG -target bpf and turns it with DIR/bpf_embed.c (built with
# $CC) into OUT.h, the header the loader compiles in. The maps' names and
# order come from DIR/kstage.env, which scripts/build/kam-tree.sh writes from
# kstage/bpf.mk (this repository's own build). The object and
# bpf_embed are made beside OUT.h (CMake's build directory). When
# OVC_KSTAGE=no, or clang cannot build BPF, OUT.h says why instead and the
# module is built without the stage (it logs that reason at start).
set -u

dir=$1
out=$2
work=$(dirname "$out")
: "${CC:=cc}" "${BPF_CLANG:=clang}" "${OVC_KSTAGE:=auto}"
. "$dir/kstage.env"

without() {
	echo "ovc: building WITHOUT the kernel stage: $1" >&2
	printf '#define OVC_KS_NO_PROG "built without the kernel stage (%s)"\n' \
		"$1" >"$out.tmp" && mv "$out.tmp" "$out"
	exit 0
}

obj=$work/ovc_kstage.bpf.o
err=$work/ovc_kstage.bpf.err
rm -f "$out.tmp" "$obj"
[ "$OVC_KSTAGE" = no ] && without "OVC_KSTAGE=no"
ma=$($CC -print-multiarch 2>/dev/null)
if ! $BPF_CLANG -target bpf -O2 -g -Wall -I"$dir/../lib/include" \
		${ma:+-I/usr/include/$ma} -c "$dir/ovc_kstage.bpf.c" \
		-o "$obj" 2>"$err"; then
	why=$(head -c 160 "$err" | head -n1 | tr -d '"\\')
	without "$BPF_CLANG -target bpf failed: $why"
fi
$CC -O2 -o "$work/bpf_embed" "$dir/bpf_embed.c" ||
	{ echo "ovc: cannot build $work/bpf_embed" >&2; exit 1; }
# shellcheck disable=SC2086 # the maps are a list of names
"$work/bpf_embed" "$obj" socket "$out.tmp" ovc_ks \
	$OVC_BPF_MAPS || exit 1
mv "$out.tmp" "$out"
echo "  BPF  $dir/ovc_kstage.bpf.c -> $out"
