#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mkdeb.sh: builds the Debian binary package kamailio-ovc-modules (make
# deb) for the installed Kamailio: the module built with Debian's
# hardening flags in build/deb/, staged by make install, stripped, checked
# against the server's ABI strings, with a strict dependency on the exact
# kamailio package it was built against. Prints the .deb's path last;
# runs lintian on it when lintian is installed (LINTIAN=0: never).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
pkg=kamailio-ovc-modules
out=build/deb
stage=$out/stage
make=${MAKE:-make}
die() { echo "mkdeb: ERROR: $*" >&2; exit 1; }

for t in dpkg-deb dpkg-shlibdeps dpkg-buildflags dpkg-architecture; do
	command -v "$t" >/dev/null ||
		die "$t missing (dpkg-dev): run 'make deps'"
done
kbin=$(command -v "${KAMAILIO:-kamailio}") ||
	die "kamailio not installed: run 'make deps'"
kbin=$(readlink -f "$kbin")
# the package that owns the server binary, and its exact version
kpkg=$(dpkg-query -S "$kbin" 2>/dev/null | head -n1 | cut -d: -f1) ||
	die "$kbin belongs to no Debian package: make install instead"
[ -n "$kpkg" ] || die "$kbin belongs to no Debian package: make install instead"
kver=$(dpkg-query -W -f='${Version}' "$kpkg")
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

# the package's version: the module's, a snapshot's commit when built from
# git (~: sorts before the release), Debian revision 1
over=$($make -s --no-print-directory print-version)
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	n=$(git -C "$top" rev-list --count HEAD)
	h=$(git -C "$top" rev-parse --short=7 HEAD)
	over="$over~git$n.$h"
fi
version="$over-1"

# file dates and the changelog's date: the commit's (reproducible)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null ||
		date +%s)
	export SOURCE_DATE_EPOCH
fi

# the module with Debian's build flags, apart from the tests' build
export DEB_BUILD_MAINT_OPTIONS=hardening=+all,-pie
cflags="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
ldflags=$(dpkg-buildflags --get LDFLAGS)
so=$out/ovc.so
$make -s --no-print-directory BUILD="$out" MOD="$so" \
	EXTRA_CFLAGS="$cflags" EXTRA_LDFLAGS="$ldflags" "$so"

rm -rf "$stage"
$make -s --no-print-directory install DESTDIR="$top/$stage" PREFIX=/usr \
	LIBDIR="lib/$multiarch" MODDIR="/usr/lib/$multiarch/kamailio/modules" \
	DOCDIR=/usr/share/doc/kamailio MOD="$so"
modso=$stage/usr/lib/$multiarch/kamailio/modules/ovc.so
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$modso"
./scripts/build/check-abi.sh "$modso" >/dev/null ||
	die "the stripped module does not match $kbin"
docdir=$stage/usr/share/doc/$pkg
install -d "$docdir"
install -m 0644 pkg/copyright "$docdir/copyright"
gzip -9n "$stage"/usr/share/doc/kamailio/modules/README.ovc*
# one changelog entry for this build
when=$(date -R -u -d "@$SOURCE_DATE_EPOCH")
# the maintainer: DEBFULLNAME and DEBEMAIL as for dch, else the author of
# the commit built (a clone has no git user of its own)
name=${DEBFULLNAME:-$(git -C "$top" log -1 --format=%an 2>/dev/null || true)}
mail=${DEBEMAIL:-$(git -C "$top" log -1 --format=%ae 2>/dev/null || true)}
[ -n "$name" ] && [ -n "$mail" ] ||
	die "no maintainer: set DEBFULLNAME and DEBEMAIL"
maint="$name <$mail>"
{
	echo "$pkg ($version) unstable; urgency=medium"
	echo
	echo "  * Built from the ovc repository for $kpkg $kver."
	echo
	echo " -- $maint  $when"
} | gzip -9n >"$docdir/changelog.Debian.gz"
chmod 0644 "$docdir/changelog.Debian.gz"

# not for Debian's archive: no ITP bug to close
ovr=$stage/usr/share/lintian/overrides
install -d "$ovr"
printf '%s\n' "# built by make deb, not uploaded to Debian: no ITP bug" \
	"$pkg: initial-upload-closes-no-bugs" >"$ovr/$pkg"

# shared library dependencies (libc, libm) as dh_shlibdeps finds them
sd=$(mktemp -d)
trap 'rm -rf "$sd"' EXIT
mkdir -p "$sd/debian"
printf 'Source: ovc\n\nPackage: %s\nArchitecture: any\n' "$pkg" \
	>"$sd/debian/control"
shlibs=$(cd "$sd" && dpkg-shlibdeps -O "$top/$modso" 2>/dev/null |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no dependencies for $modso"

install -d -m 0755 "$stage/DEBIAN"
size=$(du -k -s --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<EOF
Package: $pkg
Source: ovc
Version: $version
Architecture: $arch
Maintainer: $maint
Installed-Size: $size
Depends: $kpkg (= $kver), $shlibs
Section: net
Priority: optional
Description: SIP overload control module for Kamailio (ovc)
 ovc decides, for every request that reaches ovc_admit(), whether the
 proxy takes it or refuses it early, cheaply and statelessly, so that an
 overloaded proxy keeps completing calls near its capacity instead of
 collapsing under retransmissions. It implements the published local
 overload controllers (OCC, bang-bang, occupancy, ARO, SiRED, R-SOCA and a
 dual PI queue/CPU controller) behind one hook.
 .
 This package provides ovc.so for $kpkg $kver, with its
 documentation and example configurations.
EOF
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) \
	>"$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
deb=$out/${pkg}_${version}_$arch.deb
rm -f "$out"/"${pkg}"_*.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
if [ "${LINTIAN:-1}" != 0 ] && command -v lintian >/dev/null; then
	lintian --info --fail-on error,warning "$deb" >&2 ||
		die "lintian: $deb has errors or warnings (above)"
fi
echo "$deb"
