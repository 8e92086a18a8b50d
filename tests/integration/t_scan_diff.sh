#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ovc's SIP scanner against Kamailio's own parser (issue 17): every message
# of the RFC 4475 torture set, the fuzz seeds and tests/data/scan-diff (the
# messages of a fuzz corpus the scanner accepted, kept so that the test is
# the same on every machine; SCAN_DIFF_FUZZ=1 adds the corpus make
# check-fuzz has grown here, to look for new differences) that the scanner
# accepts is sent to a
# Kamailio without ovc that logs what its parser reads. For each one,
# Kamailio must route it and read the same method (its id, $rmid: the
# class Kamailio acts on, whatever the spelling: "invite" is an INVITE to
# it), Call-ID, CSeq number, top Via branch and To tag (in-dialog or
# not): what the fast path decides on is what Kamailio would have seen. Messages are sent in order, each followed by
# an OPTIONS marker, to one UDP worker; the log lines between two markers
# belong to the message between them.
# Kamailio 6.1 and later parse the From body as they read the headers (as
# they always did To's; Kamailio commit 7ddba9d07a, "core: parser - rework
# parsing From body on getting headers"), so their core drops a request
# whose From body does not parse before any route runs ("bad header field
# [From: ..." and then "required headers not found in request" or "core
# parsing of SIP message failed"); 5.6 and 6.0 parse From only when asked
# and route it. Such a message is not the scanner's to explain: against
# 6.1+ it counts as refused by the core when Kamailio logged exactly that
# for it, and the scanner's reading is compared on every message that
# version routes (6.1.5: 22 of the 688 the scanner accepts refused so,
# all fuzz finds of tests/data/scan-diff). Against 5.x and 6.0, and for
# any other reason, a message not routed is a mismatch.
. "$(dirname "$0")/lib.sh"

SCAN="$TOP/build/scan_fields"
CORPUS=${CORPUS:-"$TOP/tests/data/rfc4475 $TOP/tests/fuzz/seeds $TOP/tests/data/scan-diff"}
[ "${SCAN_DIFF_FUZZ:-0}" = 1 ] && CORPUS="$CORPUS $TOP/build/fuzz/corpus-sipscan"
CFG="$TOP/tests/integration/scan-diff.cfg"

[ -x "$SCAN" ] || { fail "$SCAN missing: make build/scan_fields"; finish; }

files=()
for d in $CORPUS; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 60000 ] && files+=("$f")
	done
done
"$SCAN" "${files[@]}" | awk -F'\t' '$2 == "OK"' >"$T_DIR/scanner.tsv"
n=$(wc -l <"$T_DIR/scanner.tsv")
log "${#files[@]} messages, the scanner accepts $n"

kam_start -n diff || { fail "no start"; finish; }
marker() {
	printf 'OPTIONS sip:marker@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKovcdiff%s\r\nFrom: <sip:m@127.0.0.1>;tag=m\r\nTo: <sip:m@127.0.0.1>\r\nCall-ID: ovcdiff-marker-%s\r\nCSeq: 1 OPTIONS\r\nMax-Forwards: 70\r\nContent-Length: 0\r\n\r\n' "$1" "$1"
}
k=0
while IFS=$'\t' read -r f _; do
	k=$((k + 1))
	cat "$f" >"/dev/udp/127.0.0.1/$PROXY_PORT"
	# one write, one datagram (printf may write a line at a time)
	marker "$k" >"$T_DIR/marker"
	cat "$T_DIR/marker" >"/dev/udp/127.0.0.1/$PROXY_PORT"
	[ $((k % 50)) -eq 0 ] && sleep 0.05 # the socket buffer keeps up
done <"$T_DIR/scanner.tsv"
for _ in $(seq 1 100); do
	grep -q "ovcdiff-marker-$k~" "$T_DIR/diff.log" && break
	sleep 0.1
done
kam_stop

# Kamailio's reading of message k: the ovcdiff line before marker k, its
# fields trimmed (Kamailio keeps a Call-ID's trailing tabs, the scanner
# does not), the CSeq number as a number, an empty field as <null>
# (a message the core refused for its From body, logged before marker k,
# is "from" when Kamailio is 6.1 or later)
kver=$(kamailio -V 2>/dev/null | sed -n 's/^version: kamailio \([0-9]*\.[0-9]*\).*/\1/p')
from_core=$(awk -v v="${kver:-0}" 'BEGIN { split(v, a, ".")
	print (a[1] > 6 || (a[1] == 6 && a[2] >= 1)) ? 1 : 0 }')
log "Kamailio ${kver:-?}: a request with a From body it cannot parse is" \
	"$([ "$from_core" = 1 ] && echo "dropped by its core (not compared)" ||
		echo "routed (compared)")"
LC_ALL=C awk -F'\t' -v from_core="$from_core" '
	function trim(x) { gsub(/^[ \t]+|[ \t]+$/, "", x); return x == "" ? "<null>" : x }
	FNR == NR { want[++n] = $0; next }
	/bad header field \[([Ff][Rr][Oo][Mm]|[Ff])[ \t]*:/ { badfrom = 1 }
	/required headers not found in request|core parsing of SIP message failed/ {
		refused = 1 }
	{ i = index($0, "ovcdiff~#~"); if(!i) next
	  nf = split(substr($0, i + 10), a, "~#~")
	  for(j = 1; j <= nf; j++) a[j] = trim(a[j])
	  if(a[2] ~ /^ovcdiff-marker-[0-9]+$/) { m = substr(a[2], 16) + 0
		  if(cur == "" && badfrom && refused && from_core) core[m] = 1
		  got[m] = cur; cur = ""; badfrom = 0; refused = 0; next }
	  if(a[3] ~ /^[0-9]+$/) a[3] = a[3] + 0
	  # the methods past PUBLISH (KDMQ, GET, ..., OTHER) are "other"
	  if(a[1] !~ /^[0-9]+$/ || a[1] + 0 > 8192 || a[1] + 0 == 0) a[1] = "other"
	  line = a[1] "\t" a[2] "\t" a[3] "\t" a[4] "\t" a[5]
	  cur = cur == "" ? line : cur " + " line }
	END {
		bad = 0; nc = 0
		for(k = 1; k <= n; k++) {
			split(want[k], w, "\t")
			ws = w[3] "\t" w[4] "\t" w[5] "\t" w[6] "\t" w[7]
			if(k in core) { nc++; continue }
			if(got[k] != ws) {
				bad++
				if(bad <= 10) printf "MISMATCH %s\n  scanner:  %s\n  kamailio: %s\n", w[1], ws, (got[k] == "" ? "(not routed)" : got[k])
			}
		}
		printf "compared %d, mismatches %d, refused by the core for the From body %d\n", n - nc, bad, nc
	}' "$T_DIR/scanner.tsv" "$T_DIR/diff.log" >"$T_DIR/diff.txt"
cat "$T_DIR/diff.txt" | head -40
read -r cmp bad < <(awk '/^compared/ { print $2 + 0, $4 + 0 }' "$T_DIR/diff.txt")
check "the scanner accepted messages to compare (> 20)" "$cmp > 20"
check "Kamailio reads what the scanner read in every one" "$bad == 0"
finish
