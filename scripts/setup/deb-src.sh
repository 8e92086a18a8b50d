# SPDX-License-Identifier: GPL-2.0-or-later
# deb-src.sh (sourced): the deb-src stanza of Debian's archive that the
# project adds where it needs Kamailio's source package (scripts/setup/
# deps.sh for the host, scripts/build/kam-tree.sh for its own apt).

# deb_src_stanza SUITE...: prints a deb822 stanza of deb-src for SUITEs,
# component main, signed by Debian's archive key.
deb_src_stanza() {
	cat <<EOS
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $*
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
}
