#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ovc as an operator installs it. make install into a DESTDIR puts every
# file in its place (PREFIX moves them) and make uninstall removes them
# all; make deb builds a lintian-clean package that depends on exactly the
# installed kamailio, apt installs it on this machine and removes it again.
# Each time Kamailio starts from the installed example configuration with
# loadmodule "ovc.so" (the plain name, found in the module path) and
# answers ovc.stats. The module's defines follow the server's flags and
# version; the systemd drop-in example passes systemd-analyze.
# A machine that already has ovc.so in Kamailio's module directory keeps
# it: the package part is then skipped.
. "$(dirname "$0")/lib.sh"

pkg=kamailio-ovc-modules
moddir=$(kamailio -I | sed -n 's/^ *Default paths to modules: *//p' |
	cut -d: -f1)
docdir=/usr/share/doc/kamailio
[ -n "$moddir" ] || { fail "kamailio -I shows no module path"; finish; }
MOD=ovc.so # kam_start's loadmodule: by name, from the module path
pkg_installed=0

pkg_cleanup() {
	kam_stop
	if [ "$pkg_installed" = 1 ]; then
		apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$pkg" \
			>"$T_DIR/purge-exit.log" 2>&1 ||
			echo "[$T_NAME] FAIL: could not remove $pkg"
	fi
	cleanup
}
trap pkg_cleanup EXIT

# runs CFG (the installed example) with ovc.so by name; checks ovc.stats
run_installed() {
	local what=$1 out
	if ! kam_start; then
		fail "$what: kamailio did not start with loadmodule \"ovc.so\""
		return 0
	fi
	if out=$(rpc ovc.stats 2>&1) && grep -q 'algorithm' <<<"$out"; then
		ok "$what: kamailio runs ovc.so loaded by name (ovc.stats)"
	else
		fail "$what: ovc.stats did not answer: $(head -3 <<<"$out")"
	fi
	kam_stop
}

# --- make install / uninstall into a DESTDIR
root=$T_DIR/root
make -s -C "$TOP" --no-print-directory install DESTDIR="$root" \
	>"$T_DIR/install.log" 2>&1 || {
	fail "make install failed"
	cat "$T_DIR/install.log"
}
for f in "$moddir/ovc.so" "$docdir/modules/README.ovc" \
	"$docdir/examples/ovc/ovc-proxy.cfg" \
	"$docdir/examples/ovc/kamailio-ovc-cpuquota.conf" \
	"$docdir/examples/ovc/kamailio-ovc-kstage.conf"; do
	if [ -f "$root$f" ]; then
		ok "make install: $f"
	else
		fail "make install: $f missing"
	fi
done
CFG=$root$docdir/examples/ovc/ovc-proxy.cfg
KAM_OPTS="-L $root$moddir:$moddir" run_installed "DESTDIR"
make -s -C "$TOP" --no-print-directory uninstall DESTDIR="$root" \
	>>"$T_DIR/install.log" 2>&1 || fail "make uninstall failed"
left=$(find "$root" -type f | wc -l)
check "make uninstall leaves no file" "$left == 0"
make -s -C "$TOP" --no-print-directory install DESTDIR="$root" \
	PREFIX=/opt/ovc >>"$T_DIR/install.log" 2>&1
if [ -f "$root/opt/ovc/${moddir#/usr/}/ovc.so" ]; then
	ok "make install PREFIX=/opt/ovc: /opt/ovc/${moddir#/usr/}/ovc.so"
else
	fail "make install PREFIX=/opt/ovc: no module under /opt/ovc"
	find "$root" -name ovc.so
fi

# --- the defines follow the server (scripts/build/kam-defs.sh): a server built
# without SCTP and with busy waiting gets a module without them; a tree of
# another version than the server's is refused
ksrc=$TOP/.deps/kamailio/src
# (its notes on stderr, e.g. the flags taken from a module, left out)
mine=$("$TOP/scripts/build/kam-defs.sh" "$ksrc" 2>"$T_DIR/kam-defs.err") ||
	fail "kam-defs.sh: $(cat "$T_DIR/kam-defs.err")"
if [ "$mine" = "$(cat "$TOP/build/kam-defs" 2>/dev/null)" ]; then
	ok "the module was built with the defines derived from kamailio -V"
else
	fail "build/kam-defs differs from what kam-defs.sh derives now"
fi
mkdir -p "$T_DIR/fake" "$T_DIR/fake/lib/kamailio/modules"
# a server built otherwise, whose modules (none in its module directory)
# do not say otherwise: its FAST_LOCK flag (Debian's 6.1.5 prints none)
# replaced by FAST_LOCK-BUSY_WAIT
printf '#!/bin/sh\nkamailio "$@" | sed "%s; %s"\n' \
	'/^flags:/{s/, USE_SCTP//; s/, FAST_LOCK[A-Z_-]*//; s/ *$/, FAST_LOCK-BUSY_WAIT/}' \
	"s|\\(paths to modules:\\).*|\\1 $T_DIR/fake/lib/kamailio/modules|" \
	>"$T_DIR/fake/kam-other-flags"
# a server whose kamailio -V prints flags its own modules lack, and checks
# modules against theirs (Debian's 6.1.5, a CMake build: the memory
# managers' debug flags follow DBG_SR_MEMORY in the core only)
dbg=', DBG_QM_MALLOC, DBG_F_MALLOC, DBG_TLSF_MALLOC'
printf '#!/bin/sh\nkamailio "$@" | sed "/^flags:/s/DBG_SR_MEMORY/&%s/"\n' \
	"$dbg" >"$T_DIR/fake/kam-core-flags"
# the installed server's version, dots escaped for sed
kver=$(kamailio -V | sed -n 's/^version: [^ ]* \([0-9.]*\) .*/\1/p')
printf '#!/bin/sh\nkamailio "$@" | sed "s/ %s / 9.9.9 /"\n' \
	"${kver//./\\\\.}" >"$T_DIR/fake/kam-other-version"
chmod +x "$T_DIR/fake/"*
other=" $("$TOP/scripts/build/kam-defs.sh" "$ksrc" \
	"$T_DIR/fake/kam-other-flags") "
if [[ $other != *" -DUSE_SCTP "* && $other == *" -DBUSY_WAIT "* &&
	$other != *" -DADAPTIVE_WAIT "* && $other == *" -DUSE_TCP "* ]]; then
	ok "a server without USE_SCTP, with FAST_LOCK-BUSY_WAIT: defines follow"
else
	fail "defines do not follow the server's flags: $other"
fi
core=" $("$TOP/scripts/build/kam-defs.sh" "$ksrc" "$T_DIR/fake/kam-core-flags" \
	2>/dev/null) "
want=$("$TOP/scripts/build/kam-flags.sh")
got=$("$TOP/scripts/build/kam-flags.sh" "$T_DIR/fake/kam-core-flags")
if [[ $core != *" -DDBG_QM_MALLOC "* && $core != *" -DDBG_F_MALLOC "* &&
	$core == *" -DDBG_SR_MEMORY "* && $got == "$want" &&
	$got != *DBG_QM_MALLOC* ]]; then
	ok "a server printing flags its modules lack: defines follow its modules"
else
	fail "defines follow kamailio -V, not the server's modules: $core"
fi
if out=$("$TOP/scripts/build/kam-defs.sh" "$ksrc" \
	"$T_DIR/fake/kam-other-version" 2>&1); then
	fail "the installed version's headers accepted for a 9.9.9 server"
elif grep -q "the server .* is 9.9.9" <<<"$out"; then
	ok "headers of another version than the server's are refused"
else
	fail "kam-defs.sh failed for another reason: $out"
fi

# --- the systemd drop-ins: the Debian unit with each must verify cleanly
unit=/lib/systemd/system/kamailio.service
# dropin_verify FILE LINE: the unit with drop-in FILE verifies and holds
# LINE
dropin_verify() {
	local f=$1 line=$2 out
	{
		cat "$unit"
		grep -v '^#' "$TOP/configs/$f"
	} >"$T_DIR/kamailio-ovc.service"
	out=$(systemd-analyze verify "$T_DIR/kamailio-ovc.service" 2>&1 || true)
	if grep -q "kamailio-ovc.service" <<<"$out"; then
		fail "the drop-in $f does not verify: $out"
	elif ! grep -qxF "$line" "$T_DIR/kamailio-ovc.service"; then
		fail "the drop-in $f sets no $line"
	else
		ok "the drop-in $f ($line) verifies with kamailio.service"
	fi
}
if command -v systemd-analyze >/dev/null && [ -f "$unit" ]; then
	dropin_verify kamailio-ovc-cpuquota.conf 'CPUQuota=20%'
	dropin_verify kamailio-ovc-kstage.conf \
		'AmbientCapabilities=CAP_BPF CAP_PERFMON'
else
	log "no systemd-analyze or $unit: drop-ins not verified"
fi

# --- make deb, apt install, remove
if dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii' ||
	[ -e "$moddir/ovc.so" ]; then
	log "$moddir/ovc.so or $pkg already here: package part skipped"
	finish
fi
command -v lintian >/dev/null || fail "lintian missing (make deps)"
if ! deb=$(make -s -C "$TOP" --no-print-directory deb 2>"$T_DIR/deb.log" |
	tail -n1) || [ ! -f "$TOP/$deb" ]; then
	fail "make deb failed"
	tail -20 "$T_DIR/deb.log"
	finish
fi
ok "make deb: $deb, lintian clean"
deb=$TOP/$deb
kver=$(dpkg-query -W -f='${Version}' kamailio)
dep=$(dpkg-deb -f "$deb" Depends)
if grep -qF "kamailio (= $kver)" <<<"$dep"; then
	ok "the package depends on exactly kamailio $kver ($dep)"
else
	fail "the package does not depend on kamailio (= $kver): $dep"
fi
pkg_installed=1
if apt-get install -y -qq -o DPkg::Lock::Timeout=300 "$deb" \
	>"$T_DIR/apt.log" 2>&1; then
	ok "apt-get install $(basename "$deb")"
else
	fail "apt-get install $deb failed"
	tail -5 "$T_DIR/apt.log"
fi
if dpkg -L "$pkg" 2>/dev/null | grep -qx "$moddir/ovc.so"; then
	ok "$pkg installs $moddir/ovc.so"
else
	fail "$pkg does not install $moddir/ovc.so"
fi
CFG=$docdir/examples/ovc/ovc-proxy.cfg
KAM_OPTS="" run_installed "package"
if apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "$pkg" \
	>"$T_DIR/purge.log" 2>&1; then
	pkg_installed=0
	ok "apt-get purge $pkg"
else
	fail "apt-get purge $pkg failed"
	tail -5 "$T_DIR/purge.log"
fi
if [ -e "$moddir/ovc.so" ] || [ -e "$docdir/examples/ovc" ]; then
	fail "files left after the purge"
else
	ok "the purge leaves no ovc file"
fi
finish
