#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what ovc needs on Debian 12 (bookworm) or 13 (trixie), the suite
# /etc/os-release names: packages and the Kamailio source headers matching
# the installed kamailio binary (bookworm: 5.6, trixie: 6.0). Idempotent:
# a second run changes nothing and says so. Fails loudly with the reason.
#
#   scripts/deps.sh [build | test | all]
#
# build: only what building the module needs (a production host: make,
#        make install; the list a source package would name as its
#        Build-Depends); test: that and what the integration tests need
#        to run (SIPp, Kamailio's extra modules, iproute2); all (default,
#        make deps): that and the unit, fuzz, sanitizer, valgrind, bench,
#        documentation and packaging tools.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.deps"

die() { echo "deps: ERROR: $*" >&2; exit 1; }
say() { echo "deps: $*"; }

# the suite this machine runs (OS_RELEASE: another os-release file)
osr=${OS_RELEASE:-/etc/os-release}
suite=$(. "$osr" 2>/dev/null && echo "${VERSION_CODENAME:-}") ||
	die "cannot read $osr"
case "$suite" in
bookworm) clang_ver=14 ;;
trixie) clang_ver=19 ;;
*) die "ovc supports Debian bookworm and trixie; $osr names '${suite:-no suite}'" ;;
esac

profile=${1:-all}
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
		cat >"$srcl" <<EOS
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
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
			die "apt-get source kamailio=$kver failed"
		fi
		say "apt-get source kamailio=$kver reported errors; its" \
			"${orig##*/} matches the .dsc's SHA-256: used"
	fi
	[ -n "$orig" ] || die "no orig tarball for kamailio $upver in $dl"
	rm -rf "$hdrs.tmp"
	mkdir -p "$hdrs.tmp"
	tar -xf "$orig" -C "$hdrs.tmp" --strip-components=1 \
		--wildcards --no-anchored \
		"kamailio-$upver/src/core/*.h" \
		"kamailio-$upver/src/modules/tm/*.h" \
		"kamailio-$upver/src/modules/sl/*.h" \
		"kamailio-$upver/src/modules/kex/*.h" \
		"kamailio-$upver/src/modules/ratelimit/*.h" \
		"kamailio-$upver/src/lib/srdb1/*.h" \
		"kamailio-$upver/src/Makefile.defs" ||
		die "extracting headers from $orig failed"
	[ -f "$hdrs.tmp/src/core/sr_module.h" ] ||
		die "src/core/sr_module.h missing after extraction"
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
