#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ovc.set reads its value as text whatever RPC type carries it and parses
# it with the registry's own parser (issue 17, item 11: values were read
# as doubles, so over binrpc "0.5junk" became 0.5 and over JSON-RPC any
# string became 0: "abc" set rsoca.tretry to 0, "0.5" was refused as 0).
# Over binrpc (kamcmd: an int, a double or a string) and over JSON-RPC
# (jsonrpcs' FIFO: a number or a string) good values take effect exactly,
# junk ("abc", "0.5junk", empty) is refused with 400 and changes nothing;
# the value in force is read back (ovc.get, over JSON-RPC to six decimals
# and over binrpc where its three decimals hold it) after every request;
# every change is logged once at NOTICE with its name, old and new value.
# JSON arrays, objects, true, false and null are refused (issue 38: they
# were stored as 0), and a tiny double (1e-320) is decided by the range,
# not refused as an overflow.
. "$(dirname "$0")/lib.sh"

JFIFO="$T_DIR/jsonrpc.fifo"
kam_start "JSONRPC_FIFO=\"$JFIFO\"" "JSONRPC_REPLY_DIR=\"$T_DIR/\"" ||
	{ fail "no start"; finish; }
for _ in $(seq 1 50); do
	[ -p "$JFIFO" ] && break
	sleep 0.1
done
[ -p "$JFIFO" ] || { fail "jsonrpcs made no FIFO at $JFIFO"; finish; }

# jrpc METHOD PARAMS: one JSON-RPC request (PARAMS: a JSON array) through
# jsonrpcs' FIFO; prints the reply (its reply FIFO's name: no dot, or
# jsonrpcs refuses it). Bounded: 5 s to write, 5 s to read.
jrpc() {
	local name="reply_$RANDOM$RANDOM" req
	req="{\"jsonrpc\": \"2.0\", \"method\": \"$1\", \"params\": $2,"
	req="$req \"reply_name\": \"$name\", \"id\": 1}"
	mkfifo "$T_DIR/$name"
	timeout 5 sh -c 'printf "%s\n" "$1" >"$2"' sh "$req" "$JFIFO" || true
	timeout 5 cat "$T_DIR/$name" || true
	rm -f "$T_DIR/$name"
}

# the value in force, over each transport
jget() { jrpc ovc.get "[\"$1\"]" | jq -r --arg k "$1" '.result[$k]'; }
bget() { rpc ovc.get "$1" | awk -v k="$1" '$1 == k ":" { print $2 }'; }

CHANGES=0
# in_force NAME WANT WHAT: NAME reads WANT over JSON-RPC and, when WANT
# has at most three decimals (binrpc's doubles), over binrpc too
in_force() {
	local name=$1 want=$2 what=$3 j b=""
	j=$(jget "$name")
	if awk -v w="$want" 'BEGIN { m = w * 1000 - int(w * 1000 + 0.5)
		exit !(m < 1e-6 && m > -1e-6) }'; then
		b=$(bget "$name")
	fi
	if awk -v j="$j" -v b="$b" -v w="$want" 'BEGIN {
		d = j - w; if(d < 0) d = -d
		e = b - w; if(e < 0) e = -e
		exit !(j != "" && d <= 1e-9 * (w < 0 ? -w : w) + 1e-12 &&
			(b == "" || e <= 0.0015)) }'; then
		ok "$what: $name in force $j${b:+ (binrpc $b)}"
	else
		fail "$what: $name in force '$j'${b:+ (binrpc '$b')}, want $want"
	fi
}

# b_set NAME VALUE WANT: kamcmd ovc.set accepted, WANT in force
b_set() {
	local out
	out=$(rpc ovc.set "$1" "$2" 2>&1) || true
	if printf '%s' "$out" | grep -q error; then
		fail "binrpc ovc.set $1 $2 refused: $out"
	fi
	CHANGES=$((CHANGES + 1))
	in_force "$1" "$3" "binrpc ovc.set $1 $2"
}

# b_refuse NAME VALUE: kamcmd ovc.set refused with 400, NAME unchanged
b_refuse() {
	local before out
	before=$(jget "$1")
	out=$(rpc ovc.set "$1" "$2" 2>&1) || true
	if printf '%s' "$out" | grep -q "error: 400"; then
		ok "binrpc ovc.set $1 '$2' refused: $out"
	else
		fail "binrpc ovc.set $1 '$2' not refused with 400: $out"
	fi
	in_force "$1" "$before" "after binrpc ovc.set $1 '$2'"
}

# j_set NAME JSON WANT: JSON-RPC ovc.set with the value JSON accepted
j_set() {
	local out
	out=$(jrpc ovc.set "[\"$1\", $2]")
	if [ "$(printf '%s' "$out" | jq -r '.error.code // empty')" != "" ]; then
		fail "JSON-RPC ovc.set $1 $2 refused: $(printf '%s' "$out" | jq -c .error)"
	fi
	CHANGES=$((CHANGES + 1))
	in_force "$1" "$3" "JSON-RPC ovc.set $1 $2"
}

# j_refuse NAME JSON: JSON-RPC ovc.set refused with 400, NAME unchanged
j_refuse() {
	local before out code
	before=$(jget "$1")
	out=$(jrpc ovc.set "[\"$1\", $2]")
	code=$(printf '%s' "$out" | jq -r '.error.code // empty')
	if [ "$code" = 400 ]; then
		ok "JSON-RPC ovc.set $1 $2 refused: $(printf '%s' "$out" | jq -r .error.message)"
	else
		fail "JSON-RPC ovc.set $1 $2 not refused with 400: $(printf '%s' "$out" | jq -c .)"
	fi
	in_force "$1" "$before" "after JSON-RPC ovc.set $1 $2"
}

in_force occ.f_min 0.02 "the default"
# binrpc: kamcmd sends 0.25 as a double, 7 as an int, s:... as a string
b_set occ.f_min 0.25 0.25
b_set rsoca.tretry 7 7
b_set occ.f_min s:0.0009 0.0009
b_set occ.target s:0.85 0.85
b_refuse occ.f_min 0.5junk
b_refuse occ.f_min abc
b_refuse occ.f_min s:
b_refuse rsoca.tretry 1.5
b_refuse rsoca.tretry s:7x
b_refuse occ.target 3
b_set dry_run 1 1
b_set dry_run 0 0

# JSON-RPC: numbers and strings
j_set occ.target '"0.5"' 0.5
j_set occ.f_min 0.0009 0.0009
j_set occ.f_min 0.125 0.125
j_set occ.f_min '"0.0007"' 0.0007
j_set rsoca.tretry '"9"' 9
j_set rsoca.tretry 11 11
j_refuse rsoca.tretry '"abc"'
j_refuse rsoca.tretry '""'
j_refuse rsoca.tretry 2.5
j_refuse occ.f_min '"0.5junk"'
j_refuse occ.f_min '"abc"'
j_refuse occ.f_min '""'
j_refuse occ.target 3
j_refuse occ.target '"3"'
# JSON values that are not numbers nor strings (issue 38: arrays and
# objects were read as 0, which occ.f_min accepts; null and false as 0,
# true as 1)
j_refuse occ.f_min '[0.5]'
j_refuse occ.f_min '[]'
j_refuse occ.f_min '{"v": 0.5}'
j_refuse occ.f_min '{}'
j_refuse occ.f_min null
j_refuse occ.f_min false
j_refuse occ.f_min true
j_set dry_run 1 1
j_set dry_run '"0"' 0
# a tiny double is no overflow: occ.f_min's range [0, 0.99] holds it
j_set occ.f_min 1e-320 1e-320
j_set occ.f_min 0.25 0.25
j_set occ.f_min '"1e-320"' 1e-320
b_set occ.f_min s:0.25 0.25
b_set occ.f_min s:1e-320 1e-320
j_refuse occ.target '"1e-320"'
out=$(jrpc ovc.set '["mode", "single"]')
[ "$(jrpc ovc.get '["mode"]' | jq -r '.result.mode')" = single ] &&
	ok "JSON-RPC ovc.set mode \"single\"" || fail "JSON-RPC mode: $out"
jrpc ovc.set '["mode", "multi"]' >/dev/null
CHANGES=$((CHANGES + 2))

# every change logged once, with its name, old and new value; nothing
# for a refused one
sleep 0.5
log_has() {
	check "logged at NOTICE: '$1'" \
		"$(grep -F "NOTICE" "$T_DIR/kam.log" | grep -cF "$1") == 1"
}
log_has "ovc.set occ.f_min: 0.02 -> 0.25"
log_has "ovc.set occ.f_min: 0.25 -> 0.0009"
log_has "ovc.set occ.target: 0.9 -> 0.85"
log_has "ovc.set occ.target: 0.85 -> 0.5"
log_has "ovc.set rsoca.tretry: 5 -> 7"
log_has "ovc.set rsoca.tretry: 7 -> 9"
log_has "ovc.set rsoca.tretry: 9 -> 11"
log_has "ovc.set occ.f_min: 0.125 -> 0.0007"
# 1e-320 in force, not 0 (ovc.get prints it as 0)
check "occ.f_min set to 1e-320 three times (NOTICE)" \
	"$(grep -F NOTICE "$T_DIR/kam.log" | grep -c 'occ.f_min: .* -> 9\.9998[0-9]*e-321$') == 3"
check "one NOTICE per change, none for the refused ($CHANGES changes)" \
	"$(grep -F NOTICE "$T_DIR/kam.log" | grep -c 'ovc.set [a-z_.]*: .* -> ') == $CHANGES"
finish
