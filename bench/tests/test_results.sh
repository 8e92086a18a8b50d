#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_results.sh - bench/tools/results.sh on a made-up
# results folder (no load, no root): pack moves the named files into the
# campaign's raw.tar.xz and out of the folder, writes the MANIFEST's raw
# line (sha256, file count, bytes), packs the same files into the same
# archive; fetch gives a folder where kept and packed files are whole and
# equal to what was packed, and the folder itself for a campaign without
# an archive; check passes, and fails on an archive changed behind the
# MANIFEST's back and on a folder without MANIFEST; record writes a
# MANIFEST (what, when, module, Kamailio, command) and packs the raw files
# it is given; and check passes on the repository's bench/results.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
r=$top/bench/tools/results.sh

mk() {
	mkdir -p "$1/c/runs/a" "$1/plain"
	echo "t,x" >"$1/c/runs.csv"
	printf 't,x\n1,2\n' >"$1/c/runs/a/merged.csv"
	printf 'git=abc\n' >"$1/c/runs/a/meta.env"
	echo "log" >"$1/c/k.log"
	printf 'campaign: c\nwhat: made up\n' >"$1/c/MANIFEST"
	printf 'campaign: plain\n' >"$1/plain/MANIFEST"
	echo "1,2" >"$1/plain/summary.csv"
}
mk "$F/res"
cp -a "$F/res/c" "$F/orig"
export BENCH_RESULTS=$F/res BENCH_RESULTS_CACHE=$F/cache
"$r" pack c "$F/res/c/runs/a/merged.csv" "$F/res/c/runs/a/meta.env" \
	"$F/res/c/k.log" 2>/dev/null
[ ! -e "$F/res/c/runs" ] && [ ! -e "$F/res/c/k.log" ] &&
	[ -f "$F/res/c/runs.csv" ] && ok "pack: packed files out, kept in" ||
	no "pack: the folder is not what it should be: $(cd "$F/res/c" && find .)"
is "pack: archive listing" "$("$r" list c | tr '\n' ' ')" \
	"k.log runs/a/merged.csv runs/a/meta.env "
line=$(grep '^raw: ' "$F/res/c/MANIFEST")
is "pack: MANIFEST raw line" "$line" \
	"raw: raw.tar.xz sha256 $(sha256sum "$F/res/c/raw.tar.xz" | cut -d' ' -f1) files 3 bytes 20"
grep -q '^what: made up$' "$F/res/c/MANIFEST" && ok "pack keeps the MANIFEST" ||
	no "pack lost the MANIFEST's lines"

# the same files pack into the same archive
mk "$F/res2"
BENCH_RESULTS=$F/res2 "$r" pack c "$F/res2/c/runs/a/merged.csv" \
	"$F/res2/c/runs/a/meta.env" "$F/res2/c/k.log" 2>/dev/null
cmp -s "$F/res/c/raw.tar.xz" "$F/res2/c/raw.tar.xz" &&
	ok "pack is deterministic" || no "the same files packed differently"

d=$("$r" fetch "$F/res/c" 2>/dev/null)
[ "$d" = "$F/cache/c" ] && diff -r -x MANIFEST "$F/orig" "$d" >/dev/null &&
	ok "fetch: the whole folder" || no "fetch: $d differs from the original"
is "fetch: a packed file" "$("$r" fetch "$F/res/c/runs/a/merged.csv" 2>/dev/null)" \
	"$F/cache/c/runs/a/merged.csv"
is "fetch: no archive, the path itself" "$("$r" fetch "$F/res/plain" 2>/dev/null)" \
	"$F/res/plain"
"$r" fetch "$F/res/c/nosuch" >/dev/null 2>&1 && no "fetch of a missing file" ||
	ok "fetch of a missing file fails"
"$r" fetch /etc >/dev/null 2>&1 && no "fetch outside bench/results" ||
	ok "fetch outside bench/results fails"

# record: the MANIFEST says what, when, module, Kamailio and command,
# keeps the raw line, and packs the raw files named
raw_before=$(grep '^raw: ' "$F/res/c/MANIFEST" || true)
mkdir -p "$F/res/c/runs/b"
echo "b" >"$F/res/c/runs/b/merged.csv"
"$r" record "$F/res/c" "a made-up campaign" "make bench-c" \
	"$F/res/c/runs/b/merged.csv" 2>/dev/null &&
	ok "record runs" || no "record failed"
m=$F/res/c/MANIFEST
grep -q '^what: a made-up campaign$' "$m" && grep -q '^command: make bench-c$' "$m" &&
	grep -qE '^when: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T' "$m" &&
	grep -qE '^module: source [0-9a-f]{16}|^module: source unknown' "$m" &&
	grep -q '^kamailio: ' "$m" && ok "record: what, when, module, kamailio, command" ||
	no "record: MANIFEST is $(cat "$m")"
[ ! -e "$F/res/c/runs/b/merged.csv" ] &&
	"$r" list c | grep -qx 'runs/b/merged.csv' &&
	ok "record packs the raw files named" || no "record did not pack runs/b"
[ "$(grep -c '^raw: ' "$m")" = 1 ] && [ "$(grep '^raw: ' "$m")" != "$raw_before" ] &&
	ok "record: one raw line, updated" || no "record: raw lines $(grep '^raw: ' "$m")"
"$r" check c 2>/dev/null && ok "check after record" || no "check fails after record"
mkdir -p "$F/elsewhere"
"$r" record "$F/elsewhere" "out of tree" "x" 2>/dev/null &&
	grep -q '^campaign: elsewhere$' "$F/elsewhere/MANIFEST" &&
	ok "record: a folder outside bench/results" || no "record outside bench/results"
"$r" record "$F/res/c/runs" "inside" "x" 2>/dev/null &&
	no "record accepts a folder inside a campaign" ||
	ok "record refuses a folder inside a campaign"
"$r" record "$F/res/c" "two" 2>/dev/null && no "record without COMMAND" ||
	ok "record needs WHAT and COMMAND"

"$r" check 2>/dev/null && ok "check" || no "check fails on a good folder"
echo x | xz >"$F/res/c/raw.tar.xz"
"$r" check c 2>"$F/err" && no "check passes a changed archive" ||
	grep -q "not the sha256" "$F/err" && ok "check: changed archive" ||
	no "check: $(cat "$F/err")"
rm "$F/res/plain/MANIFEST"
"$r" check plain 2>/dev/null && no "check passes a folder without MANIFEST" ||
	ok "check: folder without MANIFEST"

unset BENCH_RESULTS BENCH_RESULTS_CACHE
"$r" check && ok "bench/results: every MANIFEST and archive" ||
	no "bench/results fails results.sh check"
t_done
