#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIPp's stat.csv as the integration tests read it (tests/integration/
# lib.sh: timely_window, probe_late), in both the layouts SIPp writes:
# before 3.8 (Debian 12's 3.6.1, 13's 3.7.3) one cumulative column per
# repartition range, "ResponseTimeRepartitionsetup_<500"; 3.8 (Debian
# sid's 3.8.0) each twice, periodic "..._<500(P)" and cumulative
# "..._<500(C)". The same calls give the same counts in both.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
# shellcheck source=../integration/lib.sh
. "$top/tests/integration/lib.sh"
trap 'rm -rf "$F" "$T_DIR"' EXIT

ranges=("<50" "<100" "<200" "<500" "<1000" ">=1000")
# three rows of cumulative counts per range: 10 calls in the first
# second, all within 50 ms; 10 more in the second, 4 within 200 ms and 6
# taking 800 ms; 10 more in the third, all taking over a second
cum=("10 0 0 0 0 0" "10 0 4 0 6 0" "10 0 4 0 6 10")
# stat NAME LAYOUT: writes $T_DIR/NAME/stat.csv (old or 3.8)
stat() {
	local d=$T_DIR/$1 h="CurrentTime;ResponseTimeRepartitionsetup" r i
	local -a c p prev=(0 0 0 0 0 0)
	mkdir -p "$d"
	for r in "${ranges[@]}"; do
		if [ "$2" = old ]; then
			h+=";ResponseTimeRepartitionsetup_$r"
		else
			h+=";ResponseTimeRepartitionsetup_$r(P)"
		fi
	done
	if [ "$2" = 3.8 ]; then
		for r in "${ranges[@]}"; do
			h+=";ResponseTimeRepartitionsetup_$r(C)"
		done
	fi
	echo "$h;" >"$d/stat.csv"
	for row in "${cum[@]}"; do
		read -ra c <<<"$row"
		line="t;"
		if [ "$2" = old ]; then
			for i in "${!c[@]}"; do line+=";${c[$i]}"; done
		else
			for i in "${!c[@]}"; do
				p[$i]=$((c[i] - prev[i]))
				line+=";${p[$i]}"
			done
			for i in "${!c[@]}"; do line+=";${c[$i]}"; done
			prev=("${c[@]}")
		fi
		echo "$line;" >>"$d/stat.csv"
	done
}

for layout in old 3.8; do
	stat "uac_$layout" "$layout"
	is "$layout: calls set up within 500 ms over rows 0-3" \
		"$(timely_window "uac_$layout" 0 3)" 14
	is "$layout: calls set up within 500 ms in row 2" \
		"$(timely_window "uac_$layout" 1 2)" 4
	is "$layout: every call set up over rows 0-3" \
		"$(timely_window "uac_$layout" 0 3 all)" 30
	is "$layout: calls set up within 50 ms" \
		"$(timely_window "uac_$layout" 0 3 50)" 10
	PROBE_MS=200
	probe_late "uac_$layout" 10 30 && v=late || v="in time"
	is "$layout: late calls at 200 ms" "$PROBE_LATE" 16
	is "$layout: 16 of 30 calls late is a late probe" "$v" late
done
t_done
