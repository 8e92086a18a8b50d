#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kamailio with ovc under valgrind's memcheck through a short overload
# (issue 17): every Kamailio process (the forked children are followed)
# logs to its own file; the overload makes ovc refuse on the fast path,
# count, sample and write its per-second rows. Pass: no memcheck error
# (invalid read or write, use of uninitialised values, bad free, overlap)
# with an ovc frame (ovc.so) in its stack. Errors in Kamailio's own code
# are reported by count and left to Kamailio. The proxy under memcheck,
# capped at half a CPU, is overloaded by a few hundred calls/s.
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-50000}
RATE=${RATE:-400}
SECS=${SECS:-10}

command -v valgrind >/dev/null || { fail "valgrind missing: run 'make deps'"; finish; }

KAM_WRAP="valgrind --tool=memcheck --error-limit=no --num-callers=24
	--log-file=$T_DIR/vg.%p" KAM_START_TENTHS=600 \
	kam_start -c "$(cg_make "$QUOTA_US" 100000)" -n vg 'OVC_ALGORITHM="occ"' || { fail "no start under valgrind"; finish; }
uas_start uas
UAC_TIMEOUT=$((SECS + 20)) uac_run uac "$RATE" $((RATE * SECS))
sleep 2.5
rpc ovc.stats >"$T_DIR/stats.txt" || fail "ovc.stats under valgrind"
rpc ovc.csv >"$T_DIR/csv.txt" || fail "ovc.csv under valgrind"
uas_stop
KAM_STOP_TENTHS=300 kam_stop # a clean stop: every process writes its summary

logs=$(ls "$T_DIR"/vg.* 2>/dev/null | wc -l)
refused=$(awk -F, 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "invite_rejected") c = i; next }
	c { s += $c } END { print s + 0 }' "$T_DIR/csv.txt")
# error blocks: a "==PID== <message>" line followed by its stack; one with
# a frame in ovc.so (or ovc's sources) is ovc's
read -r all ours < <(awk '
	/^==[0-9]+== [A-Z]/ && /Invalid|uninitialised|Mismatched|invalid free|overlap|Syscall param/ {
		flush(); inblk = 1; all++; next }
	inblk && /^==[0-9]+==    (at|by) / { if($0 ~ /ovc\.so|\/modules\/ovc\/|\/src\/[a-z_]+\.c/) mine = 1; next }
	inblk { flush() }
	function flush() { if(inblk && mine) ours++; inblk = 0; mine = 0 }
	END { flush(); print all + 0, ours + 0 }' "$T_DIR"/vg.*)
log "memcheck logs $logs, INVITEs refused $refused, errors: $all, with an ovc frame: $ours"
check "memcheck followed kamailio's processes (> 3 logs)" "$logs > 3"
check "the overload reached ovc's refusals" "$refused > 0"
check "no memcheck error in ovc" "$ours == 0"
if [ "$ours" -gt 0 ]; then
	grep -l "ovc\.so" "$T_DIR"/vg.* | head -3 | while read -r f; do
		grep -B2 -A14 -E "Invalid|uninitialised" "$f" | head -40
	done
fi
finish
