#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Modes: with a controller refusing everything, mode multi leaves
# out-of-dialog OPTIONS alone (only initial INVITEs are controlled), mode
# single (switched live with ovc.set) refuses them too; the counters land
# in class "other".
. "$(dirname "$0")/lib.sh"

N=200
kam_start 'OVC_PARAM1="occ.target=0.01"' 'OVC_PARAM2="occ.f_min=0"' \
	'OVC_PARAM3="occ.epoch_ms=100"' 'OVC_PARAM4="occ.phi_max=1"' \
	'OVC_PARAM5="rxq.onset_ms=0"'
uas_start uas
uac_run warm 150 300 # f falls to ~0
uas_stop
uas_start uasopt "$SCN/uas-options.xml"

opts() {
	mkdir -p "$T_DIR/$1"
	(cd "$T_DIR/$1" && timeout 60 sipp -sf "$SCN/options.xml" -i 127.0.0.1 \
		-p "$UAC_PORT" "127.0.0.1:$PROXY_PORT" -s ovc -r 100 -m "$N" \
		-nostdin -trace_stat -stf stat.csv -trace_counts -fd 1 \
		>out.txt 2>&1) || true
}

opts multi
m200=$(counts_col multi 2_200_Recv)
m503=$(counts_col multi 1_503_Recv)
orej=$(stats_class other rejected)
log "multi: OPTIONS answered 200=$m200 503=$m503; ovc other rejected=$orej"
check "multi: out-of-dialog OPTIONS pass" "$m200 == $N && $m503 == 0 && $orej == 0"

rpc ovc.set mode single >/dev/null
opts single
s200=$(counts_col single 2_200_Recv)
s503=$(counts_col single 1_503_Recv)
orej=$(stats_class other rejected)
ooff=$(stats_class other offered)
log "single: OPTIONS answered 200=$s200 503=$s503; ovc other offered=$ooff rejected=$orej"
check "single: OPTIONS are refused too (f ~ 0)" "$s503 >= $N - 3 && $s503 + $s200 == $N"
check "single: counted in class other" "$orej == $s503 && $ooff == 2 * $N"
finish
