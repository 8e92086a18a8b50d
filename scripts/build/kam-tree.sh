#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kam-tree.sh - builds ovc as src/modules/ovc of a Kamailio source tree with
# Kamailio's own build, and checks that the result loads (make check-tree):
#
#   scripts/build/kam-tree.sh [make|cmake|both]        (default: both)
#   scripts/build/kam-tree.sh --layout DIR   (only step 2, into DIR: the test)
#
# 1. The tree: KTREE_SRC (a Kamailio source directory or release tarball)
#    when given, else Kamailio's source package from Debian's archive: the
#    newest kamailio KTREE_SERIES.x (default 6.1) of KTREE_SUITE (default
#    sid for 6.1, trixie for 6.0), found with apt-get source through an
#    apt configuration of its own (the host's apt sources are not touched)
#    and cached in .deps/kamailio-tree/. When that series cannot be had
#    and KTREE_SERIES was not set, it says so and takes 6.0 from trixie.
#    Only the orig tarball is downloaded, checked against the SHA256 that
#    the signed Sources index lists. Extracted once into
#    build/ktree/kamailio-VERSION/.
# 2. The copy: src/modules/ovc is generated from this repository, its one
#    source of truth: modules/ovc/*.c *.h *.def, Makefile, CMakeLists.txt,
#    README and doc/ (the DocBook the README is generated from);
#    the control library src/ and include/ovc/ in lib/ and lib/include/ovc/;
#    the kernel stage kstage/ (its program, loader and embed tool) in
#    bpf/, with bpf/kstage.env (the maps, from kstage/bpf.mk). The kernel
#    stage is optional there: OVC_KSTAGE=no builds without it; by default
#    it is built when clang -target bpf works.
# 3. make: Kamailio's Makefile (make cfg with prefix
#    build/ktree/inst-make-VERSION, then the core and, with modules=, ovc
#    and the modules configs/ovc-proxy.cfg loads, then make install).
#    cmake: Kamailio's CMake (INCLUDE_MODULES=ovc tm sl, no default group;
#    the core, tm, sl and ovc built in build/ktree/cmake-VERSION).
#    Before the builds, Kamailio's own doc build (doc/docbook: make README,
#    make check) is run on the module's doc/ovc.xml.
# 4. The check, for each build: ovc.so embeds the version of the tree's
#    kamailio, and that kamailio -c loads the module (configs/ovc-proxy.cfg
#    for make, a proxy of tm, sl and ovc_admit() for cmake; Kamailio
#    refuses a module built for another version or with other flags),
#    and once more with a module built without the kernel stage.
# Afterwards, build/ktree/inst-make-VERSION/sbin/kamailio with OVC_MOD= the
# built ovc.so runs the integration tests against that Kamailio:
#   i=$PWD/build/ktree/inst-make-6.1.4
#   PATH=$i/sbin:$PATH OVC_MOD=$i/lib64/kamailio/modules/ovc.so \
#     ./tests/integration/run.sh tests/integration/t_overload.sh
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../setup/deb-src.sh
. "$top/scripts/setup/deb-src.sh"
what=${1:-both}
case "$what" in
make | cmake | both) ;;
--layout) [ $# = 2 ] || { echo "usage: $0 --layout DIR" >&2; exit 2; } ;;
*) echo "usage: $0 [make|cmake|both] | --layout DIR" >&2; exit 2 ;;
esac
cache="$top/.deps/kamailio-tree"
work="$top/build/ktree"
jobs=${KTREE_JOBS:-$(nproc)}
# the modules configs/ovc-proxy.cfg loads (sipdump only on request)
kmods="tm tmx sl rr pv maxfwd siputils cfgutils textops ctl jsonrpcs kex"
kmods="$kmods corex xlog"

die() { echo "kam-tree: ERROR: $*" >&2; exit 1; }
say() { echo "kam-tree: $*"; }
t0=$(date +%s)

# --- 2. the copy (step 1 below) -----------------------------------------

# layout DEST: src/modules/ovc generated from this repository
layout() {
	local m=$1
	rm -rf "$m"
	mkdir -p "$m/lib/include/ovc" "$m/bpf"
	cp "$top"/modules/ovc/*.c "$top"/modules/ovc/*.h \
		"$top"/modules/ovc/*.def "$top/modules/ovc/Makefile" \
		"$top/modules/ovc/CMakeLists.txt" "$top/modules/ovc/README" "$m/"
	# the docs as every module of the tree has them: doc/ovc.xml (which
	# Kamailio 6.1's CMake looks for), doc/ovc_admin.xml, doc/Makefile
	# (make modules-readme), and the README generated from them
	cp -r "$top/modules/ovc/doc" "$m/"
	cp "$top"/src/*.c "$top"/src/*.h "$m/lib/"
	cp "$top"/include/ovc/* "$m/lib/include/ovc/"
	cp "$top"/kstage/*.c "$top"/kstage/*.h "$top/kstage/kstage_prog.sh" \
		"$m/bpf/"
	printf 'OVC_BPF_MAPS="%s"\n' "$(make -s -C "$top" \
		-f kstage/bpf.mk \
		--eval 'ovc-bpf-maps: ; @echo $(BPF_MAPS)' ovc-bpf-maps)" \
		>"$m/bpf/kstage.env"
}
if [ "$what" = --layout ]; then
	[ ! -e "$2" ] || die "--layout $2: exists"
	layout "$2"
	exit 0
fi

# what Kamailio's build needs beyond what make deps installs
need=()
for p in bison flex cmake xsltproc lynx; do
	command -v "$p" >/dev/null || need+=("$p")
done
# Kamailio's doc build: xsltproc with docbook-xsl and docbook-xml from the
# system's catalog, lynx for the text
for p in docbook-xsl docbook-xml; do
	dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' ||
		need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "missing ${need[*]} (apt-get install ${need[*]})"
	say "installing ${need[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${need[@]}" >/dev/null ||
		die "apt-get install ${need[*]} failed"
fi

# --- 1. the tree ------------------------------------------------------

# apt with its own sources, lists and cache under $cache/apt: deb-src of
# one suite of Debian's archive
apt_own() {
	local d="$cache/apt"
	"$@" -o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts="$d/sources.list.d" \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts="$d/preferences.d" \
		-o APT::Sandbox::User=root -o Debug::NoLocking=1
}

# debian_source SERIES SUITE: the orig tarball of the newest kamailio
# SERIES.x of SUITE, downloaded into $cache (once); prints its path
debian_source() {
	local series=$1 suite=$2 d="$cache/apt" v up orig
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" \
		"$d/sources.list.d" "$d/preferences.d"
	: >"$d/sources.list"
	deb_src_stanza "$suite" >"$d/sources.list.d/kamailio-src.sources"
	apt_own apt-get -qq update >&2 ||
		{ say "apt-get update of $suite's sources failed" >&2; return 1; }
	v=$(apt_own apt-cache showsrc kamailio 2>/dev/null |
		sed -n 's/^Version: //p' | grep -E "^([0-9]+:)?${series//./\\.}\." |
		sort -V | tail -n1)
	[ -n "$v" ] ||
		{ say "no kamailio $series.x source in $suite" >&2; return 1; }
	up=${v%%-*}
	up=${up#*:}
	orig=$(ls "$cache"/kamailio_"$up".orig.tar.* 2>/dev/null | head -n1 || true)
	if [ -z "$orig" ]; then
		# only the orig tarball, checked against the SHA256 of the signed
		# Sources index (apt-get source --print-uris)
		local line url file sum
		line=$(cd "$cache" && apt_own apt-get -qq source --print-uris \
			"kamailio=$v" 2>/dev/null | grep -E "\.orig\.tar\.[a-z0-9]+' " |
			head -n1)
		[ -n "$line" ] ||
			{ say "no orig tarball listed for kamailio=$v ($suite)" >&2; return 1; }
		read -r url file _ sum <<<"$line"
		url=${url//\'/}
		sum=${sum#SHA256:}
		say "downloading $file (kamailio=$v, $suite)" >&2
		curl -fsSL --retry 2 -o "$cache/$file.part" "$url" ||
			{ say "download of $url failed" >&2; rm -f "$cache/$file.part"; return 1; }
		echo "$sum  $cache/$file.part" | sha256sum -c --quiet - >&2 ||
			{ say "$file: SHA256 differs from $suite's index" >&2; rm -f "$cache/$file.part"; return 1; }
		mv "$cache/$file.part" "$cache/$file"
		orig=$cache/$file
	fi
	echo "$orig"
}

mkdir -p "$cache" "$work"
if [ -n "${KTREE_SRC:-}" ]; then
	src=$KTREE_SRC
	[ -e "$src" ] || die "KTREE_SRC=$src does not exist"
	say "tree from KTREE_SRC=$src"
else
	series=${KTREE_SERIES:-6.1}
	case "$series" in
	6.0) suite=${KTREE_SUITE:-trixie} ;;
	*) suite=${KTREE_SUITE:-sid} ;;
	esac
	if ! src=$(debian_source "$series" "$suite"); then
		[ -z "${KTREE_SERIES:-}" ] ||
			die "kamailio $series source not to be had from $suite"
		say "WARNING: kamailio $series source not to be had from" \
			"Debian's $suite: building against 6.0 from trixie" \
			"instead (KTREE_SRC= a $series tree builds against $series)"
		src=$(debian_source 6.0 trixie) ||
			die "kamailio 6.0 source not to be had from trixie either"
	fi
fi
if [ -d "$src" ]; then
	[ -f "$src/src/Makefile.defs" ] ||
		die "$src is not a Kamailio source tree (no src/Makefile.defs)"
	mk=$src/src/Makefile.defs
	kv=$(awk '/^VERSION *=/{a=$3} /^PATCHLEVEL *=/{b=$3}
		/^SUBLEVEL *=/{c=$3} END{print a "." b "." c}' "$mk")
	tree="$work/kamailio-$kv"
	if [ ! -f "$tree/.complete" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		say "copying $src to $tree"
		(cd "$src" && tar -c --exclude=.git --exclude=./build .) |
			tar -x -C "$tree"
		touch "$tree/.complete"
	fi
else
	kv=$(basename "$src")
	kv=${kv#kamailio_}
	kv=${kv#kamailio-}
	kv=${kv%%.orig.tar.*}
	kv=${kv%%_src.tar.*}
	kv=${kv%%.tar.*}
	tree="$work/kamailio-$kv"
	if [ ! -f "$tree/.complete" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		say "extracting $src into $tree"
		tar -xf "$src" -C "$tree" --strip-components=1
		touch "$tree/.complete"
	fi
fi
[ -f "$tree/src/Makefile.modules" ] || die "$tree has no src/Makefile.modules"
say "Kamailio $kv tree: $tree"

mdir="$tree/src/modules/ovc"
layout "$mdir"
say "laid out $mdir ($(find "$mdir" -name '*.c' | wc -l) C files)"

# Kamailio's own doc build takes the module's DocBook: its
# doc/docbook/Makefile.module makes the README (xsltproc --xinclude with
# its readme.xsl, then lynx), and its check (xmllint --postvalid) finds
# no error but the one every module's book has (xmlns:xi on <book>). The
# README it writes is put back to the repository's afterwards.
doc_log="$work/doc.log"
make -C "$mdir/doc" README >"$doc_log" 2>&1 ||
	die "Kamailio's doc build (make -C src/modules/ovc/doc README) failed: $(tail -n5 "$doc_log")"
grep -q '^ovc Module' "$mdir/README" && grep -q 'ovc_admit' "$mdir/README" ||
	die "Kamailio's doc build made a README without the module's title or ovc_admit: $doc_log"
lines=$(wc -l <"$mdir/README")
(make -C "$mdir/doc" check >>"$doc_log" 2>&1 || true)
verr=$(grep -E 'validity error|parser error' "$doc_log" |
	grep -v 'No declaration for attribute xmlns:xi of element book' || true)
[ -z "$verr" ] ||
	die "Kamailio's doc check (xmllint --postvalid) refuses doc/ovc.xml: $(echo "$verr" | head -n3)"
cp "$top/modules/ovc/README" "$mdir/README"
rm -f "$mdir/doc/ovc.d"
say "ok: Kamailio's doc build makes the README ($lines lines) from doc/ovc.xml and its check accepts it"

# --- 3. and 4. builds and checks -----------------------------------------

# check_load KAMAILIO MODSO MPATH WHAT: the module's version string is the
# tree's, and kamailio -c loads ovc-proxy.cfg with it
check_load() {
	local kam=$1 so=$2 mpath=$3 name=$4 cfg=${5:-$top/configs/ovc-proxy.cfg}
	local out ver kver
	# the version the server was built as (Kamailio 6.0.1's CMake calls
	# itself 6.0.0-rc0) is the one the module must embed
	kver=$("$kam" -v | sed -n 's/^version: \(kamailio [^ ]* ([^)]*)\).*/\1/p')
	ver=$(strings -a "$so" | grep -m1 '^kamailio [0-9]' || true)
	[ -n "$kver" ] && [ "$ver" = "$kver" ] ||
		die "$name: $so embeds '$ver', $kam is '$kver'"
	out=$("$kam" -c -f "$cfg" -L "$mpath" \
		-A "OVC_SO=\"$so\"" -A "CTL_SOCK=\"unix:$work/ctl\"" 2>&1) ||
		die "$name: $kam -c with $so failed: $(echo "$out" | tail -n5)"
	[[ "$out" == *"config file ok"* ]] ||
		die "$name: $kam -c did not say 'config file ok': $(echo "$out" | tail -n3)"
	say "ok: $name: $kam ($kver) loads $so (kamailio -c" \
		"$(basename "$cfg"): config file ok)"
}

build_make() {
	local inst="$work/inst-make-$kv" q="${KTREE_VERBOSE:+Q=0}"
	local mods="modules/ovc" m
	for m in $kmods; do mods="$mods modules/$m"; done
	say "make: Kamailio's Makefile (cfg, core, modules=ovc + $kmods)"
	rm -rf "$inst"
	# configured once (a new make cfg rebuilds the whole core)
	if [ ! -f "$tree/src/config.mak" ] ||
		[ "$(cat "$tree/.ovc-cfg" 2>/dev/null)" != "$inst/" ]; then
		make -C "$tree/src" -s cfg prefix="$inst/" \
			>"$work/make-cfg.log" 2>&1 ||
			die "make cfg failed: $(tail -n5 "$work/make-cfg.log")"
		echo "$inst/" >"$tree/.ovc-cfg"
	fi
	make -C "$tree/src" -j"$jobs" $q all modules="$mods" \
		>"$work/make.log" 2>&1 ||
		die "make failed: $(grep -m5 -E 'error|Error' "$work/make.log")"
	make -C "$tree/src" -j"$jobs" $q install modules="$mods" \
		>"$work/make-install.log" 2>&1 ||
		die "make install failed: $(tail -n5 "$work/make-install.log")"
	local so="$mdir/ovc.so" mp
	[ -f "$so" ] || die "make: no $so"
	mp=$(find "$inst" -type d -path '*/lib*/kamailio/modules' | head -n1)
	[ -f "$mp/ovc.so" ] || die "make install: no ovc.so under $inst"
	if grep -q OVC_KS_NO_PROG "$mdir/bpf/ovc_kstage_prog.h"; then
		say "make: built WITHOUT the kernel stage: $(cut -d'"' -f2 \
			"$mdir/bpf/ovc_kstage_prog.h")"
	else
		say "make: kernel stage built in (clang -target bpf)"
	fi
	check_load "$inst/sbin/kamailio" "$mp/ovc.so" "$mp" make
	# and without the kernel stage
	rm -f "$mdir/bpf/ovc_kstage_prog.h" "$mdir/bpf/ovc_kstage_bpf.o" "$so"
	make -C "$tree/src" $q modules modules=modules/ovc OVC_KSTAGE=no \
		>"$work/make-nokstage.log" 2>&1 ||
		die "make OVC_KSTAGE=no failed: $(grep -m5 -E 'error|Error' "$work/make-nokstage.log")"
	grep -q 'OVC_KSTAGE=no' "$mdir/bpf/ovc_kstage_prog.h" ||
		die "make OVC_KSTAGE=no: the kernel stage was built in"
	check_load "$inst/sbin/kamailio" "$so" "$mp" "make OVC_KSTAGE=no"
}

# a proxy that loads tm, sl and ovc and calls ovc_admit()
small_cfg() {
	cat <<'EOF'
#!KAMAILIO
listen=udp:127.0.0.1:5060
loadmodule "tm.so"
loadmodule "sl.so"
loadmodule "ovc.so"
request_route {
	if(!ovc_admit()) {
		exit;
	}
	t_relay();
}
EOF
}

build_cmake() {
	local b="$work/cmake-$kv" so mp
	# the core, ovc, tm and sl only, ovc first: Kamailio 6.1's CMake stops
	# adding a list's modules at the first one without doc/NAME.xml, so
	# tm and sl are built only if ovc's doc/ovc.xml is there
	say "cmake: Kamailio's CMake (INCLUDE_MODULES=ovc tm sl)"
	cmake -S "$tree" -B "$b" -DMODULE_GROUP_NAME="" \
		-DINCLUDE_MODULES="ovc tm sl" -DOVC_KSTAGE=auto \
		>"$work/cmake-cfg.log" 2>&1 ||
		die "cmake configure failed: $(grep -m5 -iE 'error' "$work/cmake-cfg.log")"
	cmake --build "$b" -j"$jobs" --target kamailio tm sl ovc \
		>"$work/cmake.log" 2>&1 ||
		die "cmake build failed: $(grep -m5 -E 'error|Error' "$work/cmake.log")"
	mp="$b/src/modules"
	so="$mp/ovc/ovc.so"
	[ -f "$so" ] || die "cmake: no $so"
	if grep -q OVC_KS_NO_PROG "$mp/ovc/ovc_kstage_prog.h"; then
		say "cmake: built WITHOUT the kernel stage"
	else
		say "cmake: kernel stage built in (clang -target bpf)"
	fi
	small_cfg >"$work/small.cfg"
	check_load "$b/src/kamailio" "$so" "$mp" cmake "$work/small.cfg"
	# and without the kernel stage
	cmake -S "$tree" -B "$b" -DOVC_KSTAGE=no >>"$work/cmake-cfg.log" 2>&1 &&
		cmake --build "$b" --target ovc >"$work/cmake-nokstage.log" 2>&1 ||
		die "cmake -DOVC_KSTAGE=no failed: $(grep -m5 -E 'error|Error' "$work/cmake-nokstage.log")"
	grep -q 'OVC_KSTAGE=no' "$mp/ovc/ovc_kstage_prog.h" ||
		die "cmake -DOVC_KSTAGE=no: the kernel stage was built in"
	check_load "$b/src/kamailio" "$so" "$mp" "cmake -DOVC_KSTAGE=no" \
		"$work/small.cfg"
}

case "$what" in
make) build_make ;;
cmake) build_cmake ;;
both)
	build_make
	build_cmake
	;;
esac
say "done in $(($(date +%s) - t0)) s: ovc builds in Kamailio $kv's tree ($what)"
