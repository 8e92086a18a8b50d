#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-readme.sh [OUT]: the module README, plain text, from its DocBook
# (modules/ovc/doc/ovc.xml and the ovc_admin.xml it includes), made as
# Kamailio makes a module's README: xsltproc with docbook-xsl's XHTML
# stylesheet (scripts/docs/docbook/readme.xsl, Kamailio's settings), then the
# page dumped as text. Kamailio dumps it with lynx; this uses w3m, which
# lays a table out in columns where lynx runs its cells together into
# one paragraph, and ovc's reference is mostly tables. 80 columns, UTF-8,
# ASCII frames, no user configuration read. OUT: default
# modules/ovc/README; "-" for standard output. make readme runs it, and
# make check-docs compares its output with the committed README.
# Needs xsltproc, docbook-xsl and w3m (scripts/setup/deps.sh installs them).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/modules/ovc/README}
die() { echo "gen-readme: $*" >&2; exit 1; }

for t in xsltproc w3m; do
	command -v "$t" >/dev/null ||
		die "$t is missing (make deps, or apt-get install xsltproc docbook-xsl w3m)"
done
[ -d /usr/share/xml/docbook/stylesheet/docbook-xsl ] ||
	die "docbook-xsl is missing (make deps, or apt-get install docbook-xsl)"

work=$(mktemp -d /tmp/ovc-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT
# the catalog resolves the stylesheet's docbook-xsl URI; nothing is
# fetched from the network, and the DTD is not read (--novalid)
xsltproc --nonet --novalid --xinclude -o "$work/ovc.html" \
	"$top/scripts/docs/docbook/readme.xsl" "$top/modules/ovc/doc/ovc.xml" ||
	die "xsltproc failed on modules/ovc/doc/ovc.xml"
# HOME and W3M_DIR: an empty directory, so that no user's w3m settings
# change the text
LC_ALL=C.UTF-8 HOME="$work" W3M_DIR="$work" w3m -dump -T text/html \
	-cols 80 -I UTF-8 -O UTF-8 -no-graph "$work/ovc.html" >"$work/README" ||
	die "w3m failed"
if [ "$out" = - ]; then
	cat "$work/README"
else
	mv "$work/README" "$out"
fi
