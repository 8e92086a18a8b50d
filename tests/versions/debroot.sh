#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debroot.sh SUITE [quick | all | build | t_NAME.sh... | exec CMD...]:
# builds and tests
# ovc against the Kamailio package of another Debian suite (trixie: 6.0,
# sid: 6.1) on this Debian machine, in a root (chroot) of that suite made
# with mmdebstrap. make check-k60 and check-k60-all run it for trixie,
# make check-k61 and check-k61-all for sid (with KAM_SRC, below).
#
#  1. The root: DEBROOT_DIR (default /var/cache/ovc/SUITE), made once with
#     mmdebstrap (installed from the host's suite when missing) and reused
#     while its stamp file is there; DEBROOT_FRESH=1 makes it anew.
#  2. This checkout's working tree (without build/, .deps, .git) is copied
#     to /ovc in the root, and there, as on a fresh machine of that suite,
#     scripts/setup/deps.sh installs the packages and the Kamailio source
#     headers (kept in /ovc/.deps from run to run), then `make all` builds
#     the library and the module against them (and the tools the
#     integration tests use) and checks the module's version and flags
#     strings against the server's (check-abi.sh: kamailio -V's version, the
#     flags of its own modules, kam-flags.sh). A tree already built
#     there, unchanged since, is not built again.
#  3. kamailio -c with the proxy configuration loads the module (the
#     server's load-time ABI check), and passes every configuration
#     example of the docs (scripts/docs/check-cfg-examples.sh, with the
#     blocks marked cfg-6.0 that the host's older Kamailio skips).
#  4. Integration tests, inside the root (chroot with /proc, /sys with the
#     host's cgroup hierarchies, /dev and a fresh /run mounted; unmounted
#     on any exit), under the machine-wide load lock taken here: quick
#     (default) runs t_bad_modparam (start-up, every modparam's setter)
#     and t_probe_variants (an overload test, about 20 s); all runs every
#     t_*.sh (t_ds64:
#     Kamailio 6.0's own RFC 7339 client, dispatcher's algorithm 64, in
#     front of an ovc core, among them); or the
#     named ones; build stops after step 3; exec runs CMD (a path in the
#     checkout, e.g. bench/campaigns/ds64.sh; the environment of the root
#     is empty: pass variables with env) in /ovc under the lock, and what
#     it writes under /ovc stays in the root until the next run.
# KAM_SRC: Kamailio's own source for the headers, where the archive lists
# the package's source but does not serve it (sid's 6.1.5-1): a git
# repository of Kamailio (a clone of github.com/kamailio/kamailio, bare or
# not; its tag of the package's release, else the newest tag of the same
# X.Y series, which the build then says), a release tarball or a source
# folder. Copied into the root's /ovc/.deps/src/ and given to deps.sh.
# Prints how long each step took; exits non-zero on any failure. Needs
# root. Logs of failed tests stay in the root's /tmp.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "debroot: ERROR: $*" >&2; exit 1; }
say() { echo "debroot: $*"; }

suite=${1:-}
[[ $suite =~ ^[a-z]+$ ]] ||
	die "usage: debroot.sh SUITE [quick | all | build | t_NAME.sh... | exec CMD...]"
shift
root=${DEBROOT_DIR:-/var/cache/ovc/$suite}
mirror=${DEBROOT_MIRROR:-http://deb.debian.org/debian}
stamp="$root/.ovc-root"
t0=$(date +%s)
step_t=$t0
took() {
	local now
	now=$(date +%s)
	say "$1 ($((now - step_t)) s)"
	step_t=$now
}

host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}" || true)
if [ "$host_suite" = "$suite" ]; then
	say "this machine runs $suite: its own Kamailio is the one (nothing to do)"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, chroot, mounts)"
mode=${1:-quick}
case "$mode" in
quick) tests=(t_bad_modparam.sh t_probe_variants.sh) ;;
all | build) tests=() ;;
exec)
	shift
	[ $# -gt 0 ] || die "exec: no command"
	cmd=("$@") tests=()
	;;
*) tests=("$@") mode=tests ;;
esac
for i in "${!tests[@]}"; do
	t=${tests[$i]##*/}
	[ -f "$top/tests/integration/$t" ] || die "no test tests/integration/$t"
	tests[$i]=tests/integration/$t
done

# one user of the root at a time (making it, or running in it)
mkdir -p "$(dirname "$root")"
exec 8>>"$root.lock"
flock -w 3600 8 || die "another run held $root.lock for 1 h"

# mounts: each bind is made a slave first, so that unmounting it never
# reaches the host's own /sys or /dev
mounts=()
umount_all() {
	local i m
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[$i]}
		umount -R "$m" 2>/dev/null || umount -R -l "$m" ||
			echo "debroot: could not unmount $m" >&2
	done
	mounts=()
}
# the mounts under the root, deepest first (a killed run's leftovers)
root_mounts() {
	awk -v r="$root/" 'index($5 "/", r) == 1 { print $5 }' \
		/proc/self/mountinfo | sort -r
}
mount_all() {
	local m
	for m in $(root_mounts); do umount -R -l "$m" 2>/dev/null || true; done
	mount -t proc proc "$root/proc" && mounts+=("$root/proc")
	mount --rbind /sys "$root/sys" && mounts+=("$root/sys")
	mount --make-rslave "$root/sys"
	mount --rbind /dev "$root/dev" && mounts+=("$root/dev")
	mount --make-rslave "$root/dev"
	mount -t tmpfs -o mode=755 tmpfs "$root/run" && mounts+=("$root/run")
}
trap umount_all EXIT
trap 'exit 130' INT TERM

# the copy has no .git: make deb's maintainer (pkg/mkdeb.sh) from here
debname=${DEBFULLNAME:-$(git -C "$top" log -1 --format=%an 2>/dev/null || true)}
debmail=${DEBEMAIL:-$(git -C "$top" log -1 --format=%ae 2>/dev/null || true)}
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb \
		DEBFULLNAME="$debname" DEBEMAIL="$debmail" \
		${T_KEEP:+T_KEEP=$T_KEEP} ${ksrc_in:+KAM_SRC=$ksrc_in} \
		${OVC_LOAD_SCALE:+OVC_LOAD_SCALE=$OVC_LOAD_SCALE} "$@"
}

# 1. the root
if [ "${DEBROOT_FRESH:-0}" = 1 ] && [ -d "$root" ]; then
	[ -z "$(root_mounts)" ] || die "$root still has mounts: $(root_mounts)"
	rm -rf "$root"
fi
if [ ! -f "$stamp" ]; then
	if ! command -v mmdebstrap >/dev/null; then
		say "installing mmdebstrap"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends mmdebstrap >/dev/null ||
			die "apt-get install mmdebstrap failed"
	fi
	rm -rf "$root.tmp" "$root"
	say "making a $suite root in $root (mmdebstrap)"
	# sid (unstable) has no -updates suite, and its Release is valid for
	# a week only (Valid-Until): a mirror that lags more is refused
	# unless the root's apt is told to ignore that (the signature is
	# still checked)
	srcs=("deb $mirror $suite main")
	aptopt=()
	if [ "$suite" = sid ]; then
		aptopt=(--aptopt='Acquire::Check-Valid-Until "false"')
	else
		srcs+=("deb $mirror $suite-updates main")
	fi
	mmdebstrap --quiet --variant=apt "${aptopt[@]}" "$suite" "$root.tmp" \
		"${srcs[@]}" || die "mmdebstrap $suite failed"
	mv "$root.tmp" "$root"
	date -u +%FT%TZ >"$stamp"
	took "root made"
else
	say "reusing the $suite root in $root (made $(cat "$stamp"))"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/ovc"

# 2. the checkout (its content's hash: built already?), then deps and the
# build inside
tree() {
	tar -C "$top" --exclude=./build --exclude=./.deps --exclude=./.git \
		--exclude=./modules/ovc/ovc.so --exclude=./bench/out \
		--exclude=./tests/out "$@" -cf - .
}
hash=$(tree --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner |
	sha256sum | cut -d' ' -f1)
built="$root/ovc/.built"
mount_all
in_root kamailio -V >/dev/null 2>&1 && [ -f "$built" ] &&
	[ "$(cat "$built")" = "$hash" ] && [ -f "$root/ovc/modules/ovc/ovc.so" ] &&
	fresh=0 || fresh=1
if [ "$fresh" = 1 ]; then
	find "$root/ovc" -mindepth 1 -maxdepth 1 ! -name .deps -exec rm -rf {} +
	tree | tar -C "$root/ovc" -xf -
	took "checkout copied to $root/ovc"
fi
# Kamailio's own source, when given (KAM_SRC): a tarball in the root
ksrc_in=""
if [ -n "${KAM_SRC:-}" ]; then
	kpkg=$(in_root bash -c 'dpkg-query -W -f="\${Version}" kamailio \
		2>/dev/null || { apt-get update -qq >/dev/null &&
		apt-cache policy kamailio | sed -n "s/^ *Candidate: //p"; }')
	kup=${kpkg%%-*}
	kup=${kup#*:}
	[[ $kup =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
		die "no kamailio package version in the $suite root ('$kpkg')"
	mkdir -p "$root/ovc/.deps/src"
	if git -C "$KAM_SRC" rev-parse --git-dir >/dev/null 2>&1; then
		# the package's release tag, else the newest of its series
		tag=$(git -C "$KAM_SRC" tag -l "$kup")
		if [ -z "$tag" ]; then
			tag=$(git -C "$KAM_SRC" tag -l "${kup%.*}.*" |
				grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V |
				awk -v z="${kup##*.}" '{ n = $0; sub(/.*\./, "", n) }
					n + 0 <= z + 0 { t = $0 } END { print t }')
			[ -n "$tag" ] ||
				die "KAM_SRC=$KAM_SRC has no tag of Kamailio ${kup%.*}"
			say "KAM_SRC has no tag $kup: its newest of ${kup%.*}, $tag"
		fi
		ksrc_tar=kamailio-$tag.tar
		[ -f "$root/ovc/.deps/src/$ksrc_tar" ] ||
			git -C "$KAM_SRC" archive --prefix="kamailio-$tag/" \
				-o "$root/ovc/.deps/src/$ksrc_tar" "$tag" src ||
			die "git archive $tag of KAM_SRC=$KAM_SRC failed"
	elif [ -d "$KAM_SRC/src/core" ]; then
		ksrc_tar=kamailio-$(basename "$(cd "$KAM_SRC" && pwd)").tar
		tar -C "$(dirname "$(cd "$KAM_SRC" && pwd)")" \
			-cf "$root/ovc/.deps/src/$ksrc_tar" \
			"$(basename "$(cd "$KAM_SRC" && pwd)")/src" ||
			die "copying KAM_SRC=$KAM_SRC failed"
	elif [ -f "$KAM_SRC" ]; then
		ksrc_tar=${KAM_SRC##*/}
		cp "$KAM_SRC" "$root/ovc/.deps/src/$ksrc_tar"
	else
		die "KAM_SRC=$KAM_SRC: not a git repository, source folder or tarball"
	fi
	ksrc_in=/ovc/.deps/src/$ksrc_tar
	took "Kamailio's source for $kpkg: $ksrc_tar (KAM_SRC)"
fi
# the quick run and the build need what building and the integration
# tests need (deps.sh test); every other run everything (deps.sh all)
case "$mode" in
quick | build) profile=test ;;
*) profile=all ;;
esac
in_root bash -c "cd /ovc && ./scripts/setup/deps.sh $profile" ||
	die "deps.sh $profile in the $suite root failed"
took "deps in the root"
kver=$(in_root kamailio -V | sed -n 's/^version: *\(.*[^ ]\) *$/\1/p')
if [ "$fresh" = 1 ]; then
	say "building against $kver"
	in_root bash -c 'cd /ovc &&
		make -j2 check-integration INTEGRATION_RUN=true 2>&1' \
		>"$root/tmp/debroot-build.log" || {
		tail -n 30 "$root/tmp/debroot-build.log"
		die "the build against $kver failed (log: $root/tmp/debroot-build.log)"
	}
	grep -E 'warning:|check-abi:' "$root/tmp/debroot-build.log" || true
	echo "$hash" >"$built"
	took "built"
else
	say "this tree was built against $kver already"
fi

# 3. the server loads it
in_root bash -c 'cd /ovc && kamailio -c -f configs/ovc-proxy.cfg \
	-A "OVC_SO=\"/ovc/modules/ovc/ovc.so\"" \
	-A "CTL_SOCK=\"unix:/tmp/debroot.ctl\"" \
	-A "LISTEN=udp:127.0.0.1:5060" -A "NEXT_HOP=\"sip:127.0.0.1:5070\"" 2>&1' \
	>"$root/tmp/debroot-load.log" || {
	tail -n 20 "$root/tmp/debroot-load.log"
	die "kamailio -c with ovc.so failed"
}
took "kamailio -c loads ovc.so into $kver"
# every configuration example of the docs, those marked cfg-6.0 too
in_root bash -c 'cd /ovc && scripts/docs/check-cfg-examples.sh 2>&1' \
	>"$root/tmp/debroot-cfg.log" || {
	cat "$root/tmp/debroot-cfg.log"
	die "kamailio $kver refuses configuration examples of the docs"
}
took "$(tail -n 1 "$root/tmp/debroot-cfg.log")"
if [ "$mode" = build ]; then
	say "$kver: built and loaded in $(($(date +%s) - t0)) s"
	exit 0
fi

# 4. the tests, under the host's load lock (the root's /tmp is not the
# host's: the lock is taken here and the tests told so)
. "$top/scripts/load/load-lock.sh"
took "load lock taken"
rc=0
if [ "$mode" = exec ]; then
	in_root env OVC_LOAD_LOCKED=1 bash -c 'cd /ovc && exec "$@"' \
		run "${cmd[@]}" || rc=$?
	took "${cmd[*]}"
else
	in_root env OVC_LOAD_LOCKED=1 \
		bash -c 'cd /ovc && exec ./tests/integration/run.sh "$@"' \
		run "${tests[@]}" || rc=$?
	took "integration tests"
fi
say "$kver: $mode $([ "$rc" = 0 ] && echo passed || echo FAILED)" \
	"in $(($(date +%s) - t0)) s"
exit "$rc"
