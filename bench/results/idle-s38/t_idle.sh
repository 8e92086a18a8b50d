#!/usr/bin/env bash
# idle cost: cgroup CPU over 10 s of a proxy with no traffic, per algorithm
. "$(dirname "$0")/../../../tests/integration/lib.sh"
set +e
cg=$(cg_make 10000 100000)
for alg in ${ALGS:-occ pi occ pi}; do
	if [ "$alg" = plain ]; then kam_start -c "$cg" -n "k$alg" NO_OVC; else kam_start -c "$cg" -n "k$alg" "OVC_ALGORITHM=\"$alg\""; fi || { echo start failed; continue; }
	sleep 3
	a=$(cg_usage_ns "$cg"); sleep 10; b=$(cg_usage_ns "$cg")
	echo "$alg idle cpu ms/s: $(( (b - a) / 10000000 ))"
	rpc core.psx | paste - - - - - - | awk '{print $2, $NF, $(NF-1), $(NF-2)}' >$T_DIR/psx
	for p in $(pgrep -P "$(cat $T_DIR/k$alg.pid)") $(cat $T_DIR/k$alg.pid); do
		echo "  $p $(awk '{print $14+$15}' /proc/$p/stat) $(grep "^$p " $T_DIR/psx | cut -d' ' -f2-)"
	done | sort -k2 -n | tail -6
	kam_stop
done
finish
