#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/kstage-check.sh (not in make check while it fails): the kernel
# stage (issue 21), off by default. Kamailio capped by a cgroup quota, the
# socket filter attached to its UDP socket. Below capacity the stage
# drops nothing (share 0); an INVITE flood far past capacity, with a small
# 503 budget (kstage_budget=5) so that the two cores can drive the proxy
# past it, makes the kernel drop initial INVITEs, while every call the
# proxy admitted completes: its retransmissions, ACK and BYE pass.
# Skips, saying why, only when the kernel refuses the program.
# Status (2026-11-26, first run): attach, nothing dropped below capacity
# and kernel drops under the flood pass; the BYE check fails: 9518 calls
# answered 200 and no BYE answered 200 (not yet investigated: the filter
# passes requests with a To-tag by construction, so look at the UAC's
# scenario and at what the proxy does with the BYEs).
. "$(dirname "$0")/../tests/integration/lib.sh"

QUOTA_US=${QUOTA_US:-20000} # 0.2 CPU
PERIOD_US=100000
load_scale
LOW=${LOW:-$(scaled 100)}	# calls/s, well below the capped capacity
HIGH=${HIGH:-$(scaled 3500)} # about 10x
SECS=${SECS:-20}

# ks_key KEY: KEY's value in the "kstage" block of a fresh ovc.stats.
ks_key() {
	rpc ovc.stats | awk -v k="$1:" '$1 == "kstage:" { in_ks = 1 }
		in_ks && $1 == k { print $2; exit }'
}

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")
kam_start -c "$cg" 'OVC_KSTAGE=1' 'OVC_KSTAGE_BUDGET=5'
if [ "$(ks_key state)" != attached ]; then
	why=$(grep -o "kernel stage not attached.*" "$T_DIR/kam.log" | head -n1)
	kam_stop
	case "$why" in
	*"Operation not permitted"* | *"not permitted"* | *"Function not implemented"* | *"Invalid argument"* | *"verifier"*)
		log "SKIP: the kernel refuses the stage: $why"
		finish
		;;
	esac
	fail "the stage did not attach: ${why:-no log line}"
	finish
fi
ok "attached to $(ks_key sockets) UDP socket(s)"
uas_start uas

# below capacity: nothing dropped, nothing scanned
uac_run low "$LOW" $((LOW * 5))
sleep 1
check "below capacity: no kernel drop" "$(ks_key dropped) == 0"
check "below capacity: share 0" "$(ks_key share | cut -d. -f1) == 0 && $(ks_key initial) == 0"
low_ok=$(counts_col low 5_200_Recv)
check "below capacity: every call completed ($low_ok)" \
	"$(stat_col low 'FailedCall(C)') == 0"

# the flood
UAC_TIMEOUT=$((SECS + 40)) uac_run high "$HIGH" $((HIGH * SECS)) \
	-max_retrans 3 -recv_timeout 8000
sleep 2
rpc ovc.stats >"$T_DIR/stats.txt"
uas_stop
kdrop=$(ks_key dropped)
spared=$(ks_key spared)
pushes=$(ks_key pushes)
inv=$(ks_key invites)
sent=$(counts_col high 0_INVITE_Sent)
ok200=$(counts_col high 5_200_Recv)
bye200=$(counts_col high 8_200_Recv)
log "flood: INVITEs sent=$sent seen by the filter=$inv kernel dropped=$kdrop" \
	"spared=$spared pushes=$pushes; 200 to INVITE=$ok200, to BYE=$bye200"
check "the kernel dropped initial INVITEs" "$kdrop > 0"
check "admitted calls were remembered" "$pushes > 0"
check "every call answered 200 got its BYE answered (in-dialog passes)" \
	"$ok200 > 0 && $bye200 == $ok200"
finish
