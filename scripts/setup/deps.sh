#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what ovc needs on Debian 12 (bookworm) or 13 (trixie), the suite
# /etc/os-release names: packages and the Kamailio source headers matching
# the installed kamailio binary (bookworm: 5.6, trixie: 6.0). Idempotent:
# a second run changes nothing and says so. Fails loudly with the reason.
#
#   scripts/setup/deps.sh [build | test | all]
#
# build: only what building the module needs (a production host: make,
#        make install; the list a source package would name as its
#        Build-Depends); test: that and what the integration tests need
#        to run (SIPp, Kamailio's extra modules, iproute2); all (default,
#        make deps): that and the unit, fuzz, sanitizer, valgrind, bench,
#        documentation and packaging tools.
#
# The headers come from the package's source (apt-get source). Where the
# archive does not serve it (sid's 6.1.5-1), KAM_SRC= a Kamailio release
# tarball of the same X.Y series gives them; when its release is another
# than the package's, the headers say so (.deps/kamailio-VERSION/.series)
# and scripts/build/kam-defs.sh accepts them for the server.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=deb-src.sh
. "$top/scripts/setup/deb-src.sh"
cache="$top/.deps"

die() { echo "deps: ERROR: $*" >&2; exit 1; }
say() { echo "deps: $*"; }

# the suite this machine runs (OS_RELEASE: another os-release file)
osr=${OS_RELEASE:-/etc/os-release}
suite=$(. "$osr" 2>/dev/null && echo "${VERSION_CODENAME:-}") ||
	die "cannot read $osr"
# unstable names the next release (forky) as testing does; its
# PRETTY_NAME ends in /sid
case "$(. "$osr" 2>/dev/null && echo "${PRETTY_NAME:-}")" in
*/sid) suite=sid ;;
esac
case "$suite" in
bookworm) clang_ver=14 ;;
trixie) clang_ver=19 ;;
# unstable (Kamailio 6.1, tests/versions/debroot.sh sid): its default
# clang, asked when the sanitizer runtime is to be installed
sid) clang_ver="" ;;
*) die "ovc supports Debian bookworm and trixie (and sid for Kamailio" \
	"6.1); $osr names '${suite:-no suite}'" ;;
esac

profile=${1:-all}
if [ -z "$clang_ver" ] && [ "$profile" = all ]; then
	clang_ver=$(apt-cache depends clang 2>/dev/null |
		sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n1)
	[ -n "$clang_ver" ] || die "cannot tell $suite's default clang version"
fi
# building the module: the server (its -V and -I give the defines and the
# module path), a C compiler, clang for the kernel stage's socket filter,
# the kernel's headers, and xz for the Kamailio source headers
build_pkgs=(kamailio pkg-config gcc make binutils xz-utils clang
	linux-libc-dev)
# running the integration tests
test_pkgs=(kamailio-extra-modules kamailio-utils-modules sip-tester
	iproute2 procps python3)
# unit tests, fuzzing and sanitizers, valgrind, the bench and its plots,
# the Debian package; the module README made from its DocBook and checked
# (make readme, make check-docs: xsltproc with docbook-xsl, w3m, and
# xmllint with docbook-xml for the DTD)
all_pkgs=(check libcap-dev libjansson-dev gnuplot-nox dpkg-dev
	"libclang-rt-$clang_ver-dev" valgrind lintian curl jq linux-perf
	xsltproc docbook-xsl docbook-xml w3m libxml2-utils)
case "$profile" in
build) pkgs=("${build_pkgs[@]}") ;;
test) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
all) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}" "${all_pkgs[@]}") ;;
*) die "usage: deps.sh [build | test | all] (got '$profile')" ;;
esac
# clang also builds the kernel stage's socket filter (clang -target bpf,
# linux/bpf.h from linux-libc-dev); no libbpf or bpftool: the module
# loads it through bpf() itself. libclang-rt-N-dev: the sanitizer and
# fuzzer runtimes of the suite's default clang (bookworm 14, trixie 19)

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install); got uid $(id -u)"
command -v apt-get >/dev/null || die "apt-get not found: ovc supports Debian bookworm and trixie"

changed=0
updated=0
apt_update() {
	if [ "$updated" = 0 ]; then
		say "apt-get update"
		apt-get update -qq || die "apt-get update failed"
		updated=1
	fi
}

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing+=("$p") ;;
	esac
done
if [ "${#missing[@]}" -gt 0 ]; then
	apt_update
	say "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
	changed=1
fi

kver=$(dpkg-query -W -f='${Version}' kamailio) ||
	die "kamailio is not installed"
upver=${kver%%-*}
upver=${upver#*:}
hdrs="$cache/kamailio-$upver"
stamp="$hdrs/.complete"
if [ ! -f "$stamp" ]; then
	srcl=/etc/apt/sources.list.d/ovc-deb-src.sources
	if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ &&
		! grep -qs '^deb-src' /etc/apt/sources.list; then
		say "adding deb-src entry $srcl"
		suites=$suite
		[ "$suite" = sid ] || suites+=" $suite-updates"
		deb_src_stanza $suites >"$srcl"
		updated=0
	fi
	apt_update
	dl=$(mktemp -d)
	chmod 755 "$dl"
	trap 'rm -rf "$dl"' EXIT
	say "downloading kamailio=$kver source"
	# trixie's source lists an upstream signature (orig.tar.gz.asc) the
	# archive may not serve: apt-get then fails after fetching the rest.
	# The tarball is used all the same once its SHA-256 is the one the
	# .dsc names (the .dsc itself checked by apt against the signed
	# Sources index).
	(cd "$dl" && apt-get source -qq --download-only "kamailio=$kver") \
		>"$dl/apt.log" 2>&1 || srcrc=$?
	orig=$(ls "$dl"/kamailio_"$upver".orig.tar.* 2>/dev/null |
		grep -v '\.asc$' | head -n1 || true)
	series=""
	if [ -n "${srcrc:-}" ] && [ -z "$orig" ] && [ -n "${KAM_SRC:-}" ]; then
		# the archive lists the source but does not serve it (sid's
		# 6.1.5-1): Kamailio's own source of that X.Y series, a release
		# tarball whose top folder holds src/ (tests/versions/debroot.sh
		# makes one from Kamailio's git: the package's tag, else the
		# newest of its series)
		[ -f "$KAM_SRC" ] || die "KAM_SRC=$KAM_SRC is not a file"
		# (head ends tar early: its SIGPIPE is no failure here)
		top_dir=$(tar -tf "$KAM_SRC" | head -n1 || true)
		top_dir=${top_dir%%/*}
		sver=$(tar -xOf "$KAM_SRC" "$top_dir/src/Makefile.defs" |
			awk '$2 == "=" && $1 == "VERSION" { v = $3 }
				$2 == "=" && $1 == "PATCHLEVEL" { p = $3 }
				$2 == "=" && $1 == "SUBLEVEL" { s = $3 }
				END { print v "." p "." s }')
		[ "${sver%.*}" = "${upver%.*}" ] ||
			die "KAM_SRC=$KAM_SRC is Kamailio $sver, not of kamailio $upver's series"
		say "no source of kamailio=$kver in the archive" \
			"(apt-get source failed): the headers of Kamailio $sver" \
			"from KAM_SRC=$KAM_SRC"
		ln -sfn "$(cd "$(dirname "$KAM_SRC")" && pwd)/${KAM_SRC##*/}" \
			"$dl/kamailio_$upver.orig.tar"
		orig=$dl/kamailio_$upver.orig.tar
		unset srcrc
		[ "$sver" = "$upver" ] ||
			series="Kamailio $sver from ${KAM_SRC##*/} (KAM_SRC)"
		[ -z "$series" ] || series+=" for the package kamailio $kver,"
		[ -z "$series" ] || series+=" whose source the archive did not serve"
	fi
	if [ -n "${srcrc:-}" ]; then
		dsc=$(ls "$dl"/kamailio_*.dsc 2>/dev/null | head -n1 || true)
		want=""
		[ -z "$dsc" ] || [ -z "$orig" ] || want=$(awk -v f="${orig##*/}" '
			/^Checksums-Sha256:/ { s = 1; next }
			/^[^ ]/ { s = 0 }
			s && $3 == f { print $1 }' "$dsc")
		if [ -z "$want" ] ||
			[ "$(sha256sum <"$orig" | cut -d' ' -f1)" != "$want" ]; then
			cat "$dl/apt.log" >&2
			die "apt-get source kamailio=$kver failed" \
				"(KAM_SRC= a Kamailio ${upver%.*} release tarball" \
				"gives the headers where the archive does not)"
		fi
		say "apt-get source kamailio=$kver reported errors; its" \
			"${orig##*/} matches the .dsc's SHA-256: used"
	fi
	[ -n "$orig" ] || die "no orig tarball for kamailio $upver in $dl"
	rm -rf "$hdrs.tmp"
	mkdir -p "$hdrs.tmp"
	tar -xf "$orig" -C "$hdrs.tmp" --strip-components=1 \
		--wildcards --no-anchored \
		"*/src/core/*.h" \
		"*/src/modules/tm/*.h" \
		"*/src/modules/sl/*.h" \
		"*/src/modules/kex/*.h" \
		"*/src/modules/ratelimit/*.h" \
		"*/src/lib/srdb1/*.h" \
		"*/src/Makefile.defs" ||
		die "extracting headers from $orig failed"
	[ -f "$hdrs.tmp/src/core/sr_module.h" ] ||
		die "src/core/sr_module.h missing after extraction"
	# headers of another release of the series: said in .series, which
	# scripts/build/kam-defs.sh requires to accept them for this server
	[ -z "$series" ] || echo "$series" >"$hdrs.tmp/.series"
	rm -rf "$hdrs"
	mv "$hdrs.tmp" "$hdrs"
	touch "$stamp"
	say "kamailio $upver headers in $hdrs ($(find "$hdrs" -name '*.h' | wc -l) files)"
	changed=1
fi
ln -sfn "kamailio-$upver" "$cache/kamailio"

if [ "$changed" = 0 ]; then
	say "nothing to do: the $profile packages and kamailio $upver headers present"
fi
