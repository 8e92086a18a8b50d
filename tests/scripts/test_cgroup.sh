#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/load/cgroup.sh on fake trees (plain directories, a fake mountinfo and
# /proc/self/cgroup; no root, nothing of the machine's touched): which
# version it picks, where a group goes, what it writes and reads on v1 and
# on v2, the leaf a v2 shell moved to, the sweep, the message when neither
# is usable. The kernel's own answers (the no-internal-processes refusal,
# a quota enforced) need a real hierarchy: the integration tests use v2 on
# a machine that offers it (bench/RESULTS.md, "cgroup v2").
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# mnt ID FSTYPE ROOT MOUNTPOINT SUPEROPTS: one mountinfo line
mnt() { echo "$1 31 0:$1 $3 $4 rw,relatime - $2 $2 rw,$5"; }

# a v2 process: PIDs 101 102 in S=/user.slice/s.scope
v2=$F/v2
mkdir -p "$v2/user.slice/s.scope"
echo "cpuset cpu io memory pids" >"$v2/cgroup.controllers"
echo "memory pids" >"$v2/cgroup.subtree_control"
echo "memory pids" >"$v2/user.slice/cgroup.controllers"
: >"$v2/user.slice/cgroup.subtree_control"
echo "memory pids" >"$v2/user.slice/s.scope/cgroup.controllers"
: >"$v2/user.slice/s.scope/cgroup.subtree_control"
printf '101\n102\n' >"$v2/user.slice/s.scope/cgroup.procs"
mnt 41 cgroup2 / "$v2" "" >"$F/mi.v2"
echo "0::/user.slice/s.scope" >"$F/self.v2"

(
	export CG_PROC_MOUNTINFO=$F/mi.v2 CG_PROC_CGROUP=$F/self.v2
	. "$here/../../scripts/load/cgroup.sh"
	cg_detect
	is "v2 picked" "$CG_VER" 2
	is "v2 group under the shell's own cgroup" "$(cg_path g)" \
		"$v2/user.slice/s.scope/g"
	h=$(cg_create ovc-t-1 20000 100000)
	is "v2 handle" "$h" "$v2/user.slice/s.scope/ovc-t-1"
	is "v2 cpu.max" "$(cat "$h/cpu.max")" "20000 100000"
	is "v2 +cpu in the ancestors and the shell's group" \
		"$(cat "$v2/cgroup.subtree_control" "$v2/user.slice/cgroup.subtree_control" \
			"$v2/user.slice/s.scope/cgroup.subtree_control" | tr '\n' ' ')" \
		"+cpu +cpu +cpu "
	is "v2 quota" "$(cg_quota "$h")" "20000 100000"
	echo "max 100000" >"$h/cpu.max"
	is "v2 no quota" "$(cg_quota "$h")" "-1 100000"
	printf 'usage_usec 1234567\nuser_usec 1000000\nnr_throttled 3\nthrottled_usec 4321\n' \
		>"$h/cpu.stat"
	is "v2 usage in ns" "$(cg_usage_ns "$h")" 1234567000
	is "v2 throttled in ns" "$(cg_throttled_ns "$h")" 4321000
	is "v2 one directory" "$(cg_dirs "$h" | wc -l)" 1
	cg_attach "$h" 4242
	is "v2 attach" "$(cat "$h/cgroup.procs")" 4242
	is "v2 procs files" "$(cg_procs_files "$h")" "$h/cgroup.procs"
	# the sweep: an empty group of a dead creator goes; a live one's, a
	# non-empty one's, the leaf and other names stay
	dead=999999
	while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
	b=$v2/user.slice/s.scope
	mkdir "$b/ovc-a-$dead" "$b/ovc-b-$$" "$b/ovc-c-$dead" "$b/ovc-shell" "$b/other-$dead"
	echo 77 >"$b/ovc-c-$dead/cgroup.procs"
	cg_sweep
	is "sweep" "$(cd "$b" && ls -d ovc-* other-* | LC_ALL=C sort | tr '\n' ' ')" \
		"other-$dead ovc-b-$$ ovc-c-$dead ovc-shell ovc-t-1 "
	rmdir "$b/ovc-b-$$"
	cg_remove "$b/ovc-b-$$" 0 && ok "remove of a group already gone"
	mkdir "$b/ovc-d-1"
	cg_remove "$b/ovc-d-1" 0 && [ ! -d "$b/ovc-d-1" ] && ok "remove" || no "remove"
	cg_create ovc-t-1 1 1 2>/dev/null && no "create over an existing group" ||
		ok "create refuses an existing group"
) || no "v2 block"

# a shell already moved to the leaf, a cgroup2 mount whose root is not /
(
	echo "0::/user.slice/s.scope/ovc-shell" >"$F/self.leaf"
	export CG_PROC_MOUNTINFO=$F/mi.v2 CG_PROC_CGROUP=$F/self.leaf
	. "$here/../../scripts/load/cgroup.sh"
	is "a shell in the leaf uses the leaf's parent" "$(cg_path g)" \
		"$v2/user.slice/s.scope/g"
	unset CG_VER
	mnt 41 cgroup2 /user.slice "$v2/user.slice" "" >"$F/mi.sub"
	echo "0::/user.slice/s.scope" >"$F/self.sub"
	echo "cpu" >"$v2/user.slice/cgroup.controllers"
	CG_PROC_MOUNTINFO=$F/mi.sub CG_PROC_CGROUP=$F/self.sub
	is "a mount of a subtree" "$(cg_path g)" "$v2/user.slice/s.scope/g"
) || no "leaf block"

# v1: cpu and cpuacct apart (and a cgroup2 beside them, as on a hybrid
# machine), then co-mounted
for layout in apart together; do
	(
		v1=$F/v1-$layout
		if [ "$layout" = apart ]; then
			cpu=$v1/cpu acct=$v1/cpuacct
			{ mnt 32 cgroup / "$cpu" cpu; mnt 33 cgroup / "$acct" cpuacct; } >"$F/mi.v1"
		else
			cpu=$v1/cpu,cpuacct acct=$cpu
			mnt 32 cgroup / "$cpu" cpu,cpuacct >"$F/mi.v1"
		fi
		mnt 41 cgroup2 / "$v2" "" >>"$F/mi.v1"
		mkdir -p "$cpu" "$acct"
		printf '2:cpuacct:/\n1:cpu:/\n0::/user.slice/s.scope\n' >"$F/self.v1"
		export CG_PROC_MOUNTINFO=$F/mi.v1 CG_PROC_CGROUP=$F/self.v1
		. "$here/../../scripts/load/cgroup.sh"
		cg_detect
		is "v1 picked ($layout)" "$CG_VER" 1
		h=$(cg_create ovc-t-2 20000 100000)
		is "v1 handle at the cpu root ($layout)" "$h" "$cpu/ovc-t-2"
		is "v1 cfs files ($layout)" \
			"$(cat "$h/cpu.cfs_quota_us") $(cat "$h/cpu.cfs_period_us")" "20000 100000"
		is "v1 quota ($layout)" "$(cg_quota "$h")" "20000 100000"
		echo 987654321 >"$acct/ovc-t-2/cpuacct.usage"
		is "v1 usage from cpuacct ($layout)" "$(cg_usage_ns "$h")" 987654321
		printf 'nr_periods 10\nnr_throttled 2\nthrottled_time 5555\n' >"$h/cpu.stat"
		is "v1 throttled ($layout)" "$(cg_throttled_ns "$h")" 5555
		if [ "$layout" = apart ]; then
			is "v1 procs files (apart)" "$(cg_procs_files "$h" | tr '\n' ' ')" \
				"$cpu/ovc-t-2/cgroup.procs $acct/ovc-t-2/cgroup.procs "
		else
			is "v1 procs files (together)" "$(cg_procs_files "$h")" \
				"$cpu/ovc-t-2/cgroup.procs"
		fi
	) || no "v1 $layout block"
done

# neither: v2 without cpu (this hybrid machine's unified tree), no v1 cpu
(
	n=$F/none
	mkdir -p "$n"
	echo hugetlb >"$n/cgroup.controllers"
	mnt 41 cgroup2 / "$n" "" >"$F/mi.none"
	export CG_PROC_MOUNTINFO=$F/mi.none CG_PROC_CGROUP=$F/self.v2
	. "$here/../../scripts/load/cgroup.sh"
	if msg=$(cg_detect 2>&1); then
		no "neither version usable: detected v$CG_VER"
	else
		case "$msg" in
		*"no usable cgroup CPU controller"*"offers: hugetlb"*) ok "neither version: $msg" ;;
		*) no "neither version: message '$msg'" ;;
		esac
	fi
	cg_create ovc-t-3 1 1 2>/dev/null && no "create without a controller" ||
		ok "create fails without a controller"
) || no "none block"

t_done
