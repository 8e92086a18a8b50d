#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/build/kam-tree.sh --layout: src/modules/ovc of a Kamailio tree holds
# every source file of the module, the control library and the kernel
# stage, unchanged, where Kamailio's Makefile and CMake for ovc (the
# module's Makefile and CMakeLists.txt) take them from, and the kernel
# stage's maps in the order of kstage/bpf.mk (make check-tree
# builds it; this checks the copy without a Kamailio tree).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
m=$F/ovc
"$top/scripts/build/kam-tree.sh" --layout "$m" || no "--layout failed"

# same FILE COPY: the copy exists with FILE's content
same() {
	if cmp -s "$1" "$2"; then
		return 0
	fi
	no "${1#"$top"/} not copied to ${2#"$F"/}"
	return 1
}
n=0
bad=0
for f in "$top"/modules/ovc/*; do
	case "${f##*/}" in
	*.so | *.o) continue ;;
	esac
	if [ -d "$f" ]; then
		diff -r "$f" "$m/${f##*/}" >/dev/null ||
			{ no "${f#"$top"/}/ not copied"; bad=1; }
		continue
	fi
	same "$f" "$m/${f##*/}" || bad=1
	n=$((n + 1))
done
for f in "$top"/src/*; do
	same "$f" "$m/lib/${f##*/}" || bad=1
	n=$((n + 1))
done
for f in "$top"/include/ovc/*; do
	same "$f" "$m/lib/include/ovc/${f##*/}" || bad=1
	n=$((n + 1))
done
for f in "$top"/kstage/*; do
	case "${f##*/}" in
	bpf.mk) continue ;;
	esac
	same "$f" "$m/bpf/${f##*/}" || bad=1
	n=$((n + 1))
done
is "all $n files copied unchanged" "$bad" 0
# no other source in the copy than those
extra=$(cd "$m" && find . -type f ! -name kstage.env | sort | while read -r f; do
	case "$f" in
	./lib/include/ovc/*) g=$top/include/ovc/${f#./lib/include/ovc/} ;;
	./lib/*) g=$top/src/${f#./lib/} ;;
	./bpf/*) g=$top/kstage/${f#./bpf/} ;;
	*) g=$top/modules/ovc/${f#./} ;;
	esac
	[ -f "$g" ] || echo "$f"
done)
is "nothing in the copy that is not in the repository" "$extra" ""
# the docs where Kamailio's builds take them: its CMake adds a module of
# INCLUDE_MODULES only with doc/NAME.xml (6.1 skips the ones after one
# without) and installs its README; doc/Makefile is its modules-readme's
is "the copy has doc/ovc.xml, doc/ovc_admin.xml, doc/Makefile, README" \
	"$(cd "$m" && ls doc/ovc.xml doc/ovc_admin.xml doc/Makefile README 2>/dev/null | wc -l)" 4
# Kamailio's Makefile.modules compiles the top directory's *.c; the
# module's Makefile adds lib/*.c and the loader; CMake globs the same
is "the module's Makefile is Kamailio's module style" \
	"$(grep -cE '^(include \.\./\.\./Makefile\.defs|auto_gen=|NAME=ovc\.so|include \.\./\.\./Makefile\.modules)$' "$m/Makefile")" 4
is "the Makefile links lib/*.c and the loader" \
	"$(grep -c '^ovc_extra_src=$(wildcard lib/\*.c) bpf/ovc_kstage_bpf.c$' "$m/Makefile")" 1
is "CMake compiles *.c and lib/*.c and the loader" \
	"$(grep -cE 'GLOB MODULE_SOURCES "\*\.c" "lib/\*\.c"|bpf/ovc_kstage_bpf\.c' "$m/CMakeLists.txt")" 2
maps=$(make -s -C "$top" -f kstage/bpf.mk \
	--eval 'p: ; @echo $(BPF_MAPS)' p)
is "the maps as bpf.mk lists them" "$(cat "$m/bpf/kstage.env")" \
	"OVC_BPF_MAPS=\"$maps\""
t_done
