#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tools/results.sh - the raw per-run files of bench/results, kept
# out of the tree in one archive per campaign folder.
#
#   results.sh fetch PATH         prints where PATH (a file or folder under
#                                 bench/results, kept or archived) can be
#                                 read: PATH itself when its campaign has
#                                 no archive, else the same path in the
#                                 cache, where the campaign's folder is
#                                 whole (its kept files and its
#                                 raw.tar.xz extracted; made again when
#                                 the archive changes)
#   results.sh pack CAMPAIGN FILE...   moves FILEs (paths under
#                                 bench/results/CAMPAIGN) into the
#                                 campaign's raw.tar.xz (added to what it
#                                 holds) and updates the MANIFEST's raw line
#   results.sh check [CAMPAIGN...]     every campaign folder has a MANIFEST
#                                 and every archive the sha256 and file
#                                 count its MANIFEST gives; exit 1 if not
#   results.sh list CAMPAIGN      the files of the campaign's archive
#   results.sh record DIR WHAT COMMAND [RAW...]
#                                 what a campaign calls when it has
#                                 written its results into DIR: DIR's
#                                 MANIFEST says WHAT, when (now, UTC), the
#                                 module (the id of its source,
#                                 scripts/build/module-id.sh, and the sha256 of
#                                 the ovc.so built from it), the Kamailio
#                                 that ran it and COMMAND; RAW files (its
#                                 per-run files, under DIR) then go into
#                                 the archive as pack does. DIR outside
#                                 bench/results (a campaign's OUT set
#                                 elsewhere) gets its MANIFEST, and RAW
#                                 stays where it is.
#
# A campaign is a folder bench/results/CAMPAIGN. Its MANIFEST says what was
# measured, when, with which module and command, and, when it has raw
# files, "raw: raw.tar.xz sha256 HEX files N bytes B" (B unpacked). The
# archive is a tar sorted by name, owner 0, mtime 2026-01-01, xz -9: the
# same files make the same archive. Cache: BENCH_RESULTS_CACHE, default
# bench/out/results-cache (not in git); BENCH_RESULTS replaces
# bench/results (the tests). No load, no root.
set -euo pipefail
. "$(dirname "$0")/args.sh"
bench_help_if "$0" "$@"
case "${1:-}" in
fetch) bench_nargs 2 2 "$@" ;;
pack) bench_nargs 3 - "$@" ;;
check) ;;
list) bench_nargs 2 2 "$@" ;;
record) bench_nargs 4 - "$@" ;;
*) bench_bad "takes fetch PATH, pack CAMPAIGN FILE..., check, list CAMPAIGN or record DIR WHAT COMMAND [RAW...]" ;;
esac
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
res=${BENCH_RESULTS:-$top/bench/results}
cache=${BENCH_RESULTS_CACHE:-$top/bench/out/results-cache}

die() {
	echo "results: $*" >&2
	exit 1
}
sha() { sha256sum "$1" | cut -d' ' -f1; }

# campaign_of PATH: CAMPAIGN and the path below its folder ("" for the
# folder itself), for a PATH under bench/results (absolute or relative)
campaign_of() {
	local p=$1 d
	case "$p" in
	/*) ;;
	*) p=$PWD/$p ;;
	esac
	# normalise . and .. without requiring the path to exist
	p=$(realpath -m "$p")
	d=$(realpath -m "$res")
	case "$p" in
	"$d"/*) p=${p#"$d"/} ;;
	*) die "$1 is not under bench/results" ;;
	esac
	echo "${p%%/*}"
	case "$p" in
	*/*) echo "${p#*/}" ;;
	*) echo "" ;;
	esac
}

cmd_fetch() {
	local c sub dir arc want have
	{
		read -r c
		read -r sub || sub=
	} < <(campaign_of "$1")
	dir=$res/$c
	[ -d "$dir" ] || die "no campaign folder bench/results/$c"
	arc=$dir/raw.tar.xz
	if [ ! -f "$arc" ]; then
		[ -e "$dir/$sub" ] || die "no $1 (and no raw.tar.xz in $c)"
		echo "$dir${sub:+/$sub}"
		return
	fi
	want=$(sha "$arc")
	have=$(cat "$cache/$c.sha256" 2>/dev/null || true)
	if [ "$want" != "$have" ] || [ ! -d "$cache/$c" ]; then
		rm -rf "$cache/$c" "$cache/$c.sha256"
		mkdir -p "$cache/$c"
		(cd "$dir" && tar -cf - --exclude=./raw.tar.xz .) |
			tar -xf - -C "$cache/$c"
		xz -dc "$arc" | tar -xf - -C "$cache/$c"
		echo "$want" >"$cache/$c.sha256"
		echo "results: bench/results/$c/raw.tar.xz extracted into $cache/$c" >&2
	fi
	[ -e "$cache/$c/$sub" ] || die "no $1 in bench/results/$c or its archive"
	echo "$cache/$c${sub:+/$sub}"
}

# manifest_raw CAMPAIGN: the MANIFEST's raw line for the archive
manifest_raw() {
	local dir=$res/$1 n b
	n=$(xz -dc "$dir/raw.tar.xz" | tar -tf - | grep -vc '/$' || true)
	b=$(xz -dc "$dir/raw.tar.xz" | tar -tvf - |
		awk '$1 !~ /^d/ { s += $3 } END { print s + 0 }')
	echo "raw: raw.tar.xz sha256 $(sha "$dir/raw.tar.xz") files $n bytes $b"
}

cmd_pack() {
	local c=$1 dir tmp f rel
	shift
	dir=$res/$c
	[ -d "$dir" ] || die "no campaign folder bench/results/$c"
	tmp=$(mktemp -d)
	mkdir "$tmp/raw"
	[ ! -f "$dir/raw.tar.xz" ] || xz -dc "$dir/raw.tar.xz" | tar -xf - -C "$tmp/raw"
	for f in "$@"; do
		rel=$(campaign_of "$f" | sed -n 2p)
		[ "$(campaign_of "$f" | sed -n 1p)" = "$c" ] && [ -f "$dir/$rel" ] ||
			die "$f is not a file of bench/results/$c"
		case "$rel" in
		MANIFEST | raw.tar.xz) die "$f is not a raw file" ;;
		esac
		mkdir -p "$tmp/raw/$(dirname "$rel")"
		cp -p "$dir/$rel" "$tmp/raw/$rel"
	done
	(cd "$tmp/raw" && find . -type f -printf '%P\n' | LC_ALL=C sort) >"$tmp/list"
	tar -cf - -C "$tmp/raw" --sort=name --mtime='2026-01-01 00:00Z' \
		--owner=0 --group=0 --numeric-owner --mode='u+rw,go+r' \
		-T "$tmp/list" | xz -9 -T1 >"$tmp/raw.tar.xz"
	mv "$tmp/raw.tar.xz" "$dir/raw.tar.xz"
	for f in "$@"; do
		rel=$(campaign_of "$f" | sed -n 2p)
		rm -f "$dir/$rel"
		# folders left empty go too
		rmdir -p --ignore-fail-on-non-empty "$(dirname "$dir/$rel")" 2>/dev/null || true
	done
	touch "$dir/MANIFEST"
	grep -v '^raw: ' "$dir/MANIFEST" >"$tmp/m" || true
	manifest_raw "$c" >>"$tmp/m"
	cat "$tmp/m" >"$dir/MANIFEST"
	rm -rf "$tmp"
	echo "results: $# files into bench/results/$c/raw.tar.xz" >&2
}

cmd_check() {
	local c bad=0 line want n
	[ $# -gt 0 ] || set -- $(cd "$res" && ls -d -- */ | tr -d /)
	for c in "$@"; do
		[ -d "$res/$c" ] || { echo "results: no folder $c" >&2; bad=1; continue; }
		if [ ! -f "$res/$c/MANIFEST" ]; then
			echo "results: $c has no MANIFEST" >&2
			bad=1
			continue
		fi
		line=$(grep '^raw: ' "$res/$c/MANIFEST" || true)
		if [ -z "$line" ] && [ ! -f "$res/$c/raw.tar.xz" ]; then
			continue
		fi
		if [ -z "$line" ] || [ ! -f "$res/$c/raw.tar.xz" ]; then
			echo "results: $c: MANIFEST and raw.tar.xz disagree" >&2
			bad=1
			continue
		fi
		want=$(awk '{ print $4 }' <<<"$line")
		n=$(awk '{ print $6 }' <<<"$line")
		if [ "$(sha "$res/$c/raw.tar.xz")" != "$want" ]; then
			echo "results: $c: raw.tar.xz is not the sha256 its MANIFEST gives" >&2
			bad=1
		elif [ "$(xz -dc "$res/$c/raw.tar.xz" | tar -tf - | grep -vc '/$')" != "$n" ]; then
			echo "results: $c: raw.tar.xz does not hold $n files" >&2
			bad=1
		fi
	done
	return $bad
}

# module_line: the MANIFEST's module line for this checkout's module
module_line() {
	local id so=$top/modules/ovc/ovc.so
	id=$("$top/scripts/build/module-id.sh" "$top")
	if [ -f "$so" ]; then
		echo "module: source $id; ovc.so sha256 $(sha "$so" | cut -c1-16)"
	else
		echo "module: source $id; no ovc.so built"
	fi
}

# kamailio_line: the Kamailio that ran the campaign: RESULTS_KAMAILIO
# (its version line, for a campaign run in another root), else the
# host's (or the binary KAMAILIO names)
kamailio_line() {
	local v=${RESULTS_KAMAILIO:-}
	[ -n "$v" ] || v=$("${KAMAILIO:-kamailio}" -v 2>/dev/null |
		sed -n 's/^version: //p' | head -1 || true)
	echo "kamailio: ${v:-not found}"
}

# cmd_record DIR WHAT COMMAND [RAW...]
cmd_record() {
	local dir=$1 what=$2 command=$3 c="" rel tmp
	shift 3
	[ -d "$dir" ] || die "no folder $dir"
	case "$(realpath -m "$dir")/" in
	"$(realpath -m "$res")"/*/) c=$(campaign_of "$dir" | sed -n 1p)
		rel=$(campaign_of "$dir" | sed -n 2p)
		[ -z "$rel" ] || die "$dir is inside campaign $c, not a campaign folder" ;;
	esac
	tmp=$(mktemp)
	{
		echo "# ${c:+bench/results/}${c:-$dir}: what, when, module, command; the raw per-run"
		echo "# files, if any, in raw.tar.xz (bench/tools/results.sh fetch; bench/README.md)."
		echo "campaign: ${c:-$(basename "$dir")}"
		echo "what: $what"
		echo "when: $(date -u +%FT%TZ)"
		module_line
		kamailio_line
		echo "command: $command"
		grep '^raw: ' "$dir/MANIFEST" 2>/dev/null || true
	} >"$tmp"
	cat "$tmp" >"$dir/MANIFEST"
	rm -f "$tmp"
	if [ $# -gt 0 ] && [ -n "$c" ]; then
		cmd_pack "$c" "$@"
	fi
	echo "results: $dir/MANIFEST written" >&2
}

case "$1" in
fetch) cmd_fetch "$2" ;;
record)
	shift
	cmd_record "$@"
	;;
pack)
	shift
	cmd_pack "$@"
	;;
check)
	shift
	cmd_check "$@"
	;;
list) xz -dc "$res/$2/raw.tar.xz" | tar -tf - | grep -v '/$' ;;
esac
