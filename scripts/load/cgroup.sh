# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/load/cgroup.sh - CPU-capped cgroups on cgroup v1 or v2, the one
# implementation the integration tests (tests/integration/lib.sh) and the
# testbed (bench/testbed/lib.sh) use. Sourced, never run; needs root.
#
# A group is known by its handle, the group's directory in the hierarchy
# that carries the cpu controller:
#   v1  the cpu controller mounted as a cgroup v1 hierarchy (e.g.
#       /sys/fs/cgroup/cpu): the group is NAME at that hierarchy's root,
#       plus NAME at the root of the cpuacct hierarchy when that is a
#       separate mount (usage from cpuacct.usage, quota in
#       cpu.cfs_quota_us / cpu.cfs_period_us). v1 wins when both exist.
#   v2  a cgroup2 mount whose root's cgroup.controllers lists cpu: the group
#       is NAME under the cgroup of the shell that sources this
#       (/proc/self/cgroup "0::PATH"), quota in cpu.max, usage from
#       cpu.stat usage_usec.
#
#   cg_detect                   sets CG_VER (1 or 2) and the roots; prints
#                               why to stderr and returns 1 when neither
#                               is usable (reads only, changes nothing)
#   cg_version                  prints 1 or 2
#   cg_path NAME                the handle NAME would have (creates nothing)
#   cg_create NAME QUOTA PERIOD creates the group capped at QUOTA us of CPU
#                               per PERIOD us (QUOTA -1: no cap); prints
#                               its handle; fails if NAME exists
#   cg_dirs HANDLE              every directory of the group, one a line
#   cg_procs_files HANDLE       its cgroup.procs files: a process moves
#                               itself in by writing its PID to each
#   cg_attach HANDLE PID        moves PID (and its later children) in
#   cg_usage_ns HANDLE          CPU time used by the group so far, ns
#   cg_throttled_ns HANDLE      time the quota held the group back, ns
#   cg_quota HANDLE             "QUOTA PERIOD" in us (QUOTA -1: none)
#   cg_remove HANDLE [TENTHS]   removes it once its processes have gone,
#                               waiting up to TENTHS tenths of a second
#                               (default 50); returns 1 if it stays
#   cg_sweep                    removes every empty group named
#                               ovc-*-PID whose creator PID is dead (a
#                               killed run's leftovers)
#
# For tests of this file only: CG_PROC_MOUNTINFO and CG_PROC_CGROUP
# replace /proc/self/mountinfo and /proc/self/cgroup (a fake tree,
# tests/scripts/test_cgroup.sh); CG_V2_CONTROLLER (default cpu) names the
# controller the v2 path enables: another one (hugetlb) selects v2 even
# where v1 has cpu and runs the v2 path on the real kernel without a quota
# (cpu.max is not written), on a machine whose cpu is bound to v1.

CG_PROC_MOUNTINFO=${CG_PROC_MOUNTINFO:-/proc/self/mountinfo}
CG_PROC_CGROUP=${CG_PROC_CGROUP:-/proc/self/cgroup}
CG_V2_CONTROLLER=${CG_V2_CONTROLLER:-cpu}
# v2: the leaf the processes of our own cgroup move to (see _cg_v2_enable)
CG_V2_LEAF=ovc-shell

cg_err() { echo "cgroup: $*" >&2; }

# _cg_mounts: "FSTYPE ROOT MOUNTPOINT SUPEROPTIONS" per cgroup mount.
_cg_mounts() {
	awk '{ for(i = 7; i <= NF && $i != "-"; i++) ;
		if($(i + 1) == "cgroup" || $(i + 1) == "cgroup2")
			print $(i + 1), $4, $5, $(i + 3) }' "$CG_PROC_MOUNTINFO"
}

cg_detect() {
	[ -n "${CG_VER:-}" ] && return 0
	local t r m o own rel
	CG_V1_CPU="" CG_V1_ACCT="" CG_V2_MNT="" CG_V2_ROOT="" CG_V2_BASE=""
	while read -r t r m o; do
		if [ "$t" = cgroup ]; then
			case ",$o," in *,cpu,*) [ -n "$CG_V1_CPU" ] || CG_V1_CPU=$m ;; esac
			case ",$o," in *,cpuacct,*) [ -n "$CG_V1_ACCT" ] || CG_V1_ACCT=$m ;; esac
		elif [ -z "$CG_V2_MNT" ]; then
			CG_V2_MNT=$m
			CG_V2_ROOT=$r
		fi
	done < <(_cg_mounts)
	if [ -n "$CG_V1_CPU" ] && [ -d "$CG_V1_CPU" ] &&
		[ "$CG_V2_CONTROLLER" = cpu ]; then
		CG_VER=1
		return 0
	fi
	if [ -n "$CG_V2_MNT" ] && grep -qw "$CG_V2_CONTROLLER" \
		"$CG_V2_MNT/cgroup.controllers" 2>/dev/null; then
		own=$(awk '/^0::/ { print substr($0, 4); exit }' "$CG_PROC_CGROUP")
		[ -n "$own" ] || {
			cg_err "no cgroup v2 entry (0::) in $CG_PROC_CGROUP"
			return 1
		}
		rel=$own
		[ "$CG_V2_ROOT" = / ] || rel=${own#"$CG_V2_ROOT"}
		rel=${rel%/}
		# a shell already moved to the leaf keeps using its parent
		[ "${rel##*/}" = "$CG_V2_LEAF" ] && rel=${rel%/*}
		CG_V2_BASE=$CG_V2_MNT$rel
		CG_VER=2
		return 0
	fi
	rel=""
	[ -z "$CG_V2_MNT" ] ||
		rel=" ($CG_V2_MNT offers: $(cat "$CG_V2_MNT/cgroup.controllers" 2>/dev/null))"
	cg_err "no usable cgroup CPU controller: no cgroup v1 hierarchy with" \
		"the cpu controller, and no cgroup2 mount whose cgroup.controllers" \
		"lists cpu$rel. On v1 mount one (mount -t cgroup -o cpu cgroup" \
		"/sys/fs/cgroup/cpu); on v2 the cpu controller must not be bound" \
		"to a v1 hierarchy."
	return 1
}

cg_version() { cg_detect && echo "$CG_VER"; }

cg_path() {
	cg_detect || return 1
	if [ "$CG_VER" = 1 ]; then
		echo "$CG_V1_CPU/$1"
	else
		echo "$CG_V2_BASE/$1"
	fi
}

# _cg_v2_enable: makes the cpu controller available to the children of
# CG_V2_BASE, the shell's own cgroup S.
# - S's cgroup.controllers must list cpu: +cpu goes into the
#   subtree_control of each ancestor that lacks it, from the mount down
#   (refused above a delegated subtree we may not write: then the error
#   names the group).
# - Then +cpu into S's own subtree_control. v2's no-internal-processes
#   rule refuses that while S holds processes (the root of the hierarchy
#   is exempt: S = / enables at once). The groups are still created under
#   S, not beside it: S is the subtree delegated to this shell (a systemd
#   unit with Delegate=yes, a container's cgroup namespace), often the
#   only place it may write, and inside a container S's parent is not
#   even visible. So every process of S (this shell, the session that
#   started it) moves into the leaf S/ovc-shell first, as systemd asks of
#   delegated subtrees; the leaf has no limit of its own, the processes
#   stay under S's limits, and they stay there afterwards (nothing of
#   ours, never removed by cg_sweep). The processes are moved, never
#   signalled.
_cg_v2_enable() {
	local base=$CG_V2_BASE c=$CG_V2_CONTROLLER dir part try p
	local -a parts pids
	grep -qw "$c" "$base/cgroup.subtree_control" 2>/dev/null && return 0
	if ! grep -qw "$c" "$base/cgroup.controllers" 2>/dev/null; then
		dir=$CG_V2_MNT
		IFS=/ read -r -a parts <<<"${base#"$CG_V2_MNT"}"
		for part in "${parts[@]}"; do
			[ -n "$part" ] || continue
			if ! grep -qw "$c" "$dir/cgroup.subtree_control" &&
				! echo "+$c" >"$dir/cgroup.subtree_control" 2>/dev/null; then
				cg_err "cgroup v2: cannot enable the $c controller in" \
					"$dir/cgroup.subtree_control (not delegated to" \
					"this shell's group $base, or $dir holds processes)"
				return 1
			fi
			dir=$dir/$part
		done
	fi
	echo "+$c" >"$base/cgroup.subtree_control" 2>/dev/null && return 0
	[ -n "$(cat "$base/cgroup.procs")" ] || {
		cg_err "cgroup v2: cannot enable $c in $base/cgroup.subtree_control"
		return 1
	}
	mkdir -p "$base/$CG_V2_LEAF"
	for try in 1 2 3 4 5; do
		mapfile -t pids <"$base/cgroup.procs"
		for p in "${pids[@]}"; do
			echo "$p" >"$base/$CG_V2_LEAF/cgroup.procs" 2>/dev/null || true
		done
		echo "+$c" >"$base/cgroup.subtree_control" 2>/dev/null && return 0
		sleep 0.1
	done
	cg_err "cgroup v2: $c stays refused in $base/cgroup.subtree_control" \
		"after moving its processes to $base/$CG_V2_LEAF"
	return 1
}

cg_dirs() {
	cg_detect || return 1
	echo "$1"
	if [ "$CG_VER" = 1 ] && [ -n "$CG_V1_ACCT" ] &&
		[ "$CG_V1_ACCT" != "$CG_V1_CPU" ]; then
		echo "$CG_V1_ACCT/${1#"$CG_V1_CPU"/}"
	fi
}

cg_create() {
	local name=$1 quota=$2 period=$3 h d
	local -a dirs
	cg_detect || return 1
	h=$(cg_path "$name")
	mapfile -t dirs < <(cg_dirs "$h")
	for d in "${dirs[@]}"; do
		[ ! -e "$d" ] || { cg_err "$d exists"; return 1; }
	done
	if [ "$CG_VER" = 2 ]; then
		_cg_v2_enable || return 1
	fi
	for d in "${dirs[@]}"; do
		mkdir "$d" || { cg_remove "$h" 0; return 1; }
	done
	if [ "$CG_VER" = 1 ]; then
		echo "$period" >"$h/cpu.cfs_period_us" &&
			echo "$quota" >"$h/cpu.cfs_quota_us"
	elif [ "$CG_V2_CONTROLLER" = cpu ]; then
		[ "$quota" -ge 0 ] || quota=max
		echo "$quota $period" >"$h/cpu.max"
	else
		cg_err "test mode (CG_V2_CONTROLLER=$CG_V2_CONTROLLER): $h has no quota"
	fi || { cg_remove "$h" 0; return 1; }
	echo "$h"
}

cg_procs_files() {
	local d
	cg_dirs "$1" | while read -r d; do echo "$d/cgroup.procs"; done
}

cg_attach() {
	local f
	for f in $(cg_procs_files "$1"); do
		echo "$2" >"$f" || return 1
	done
}

cg_usage_ns() {
	local v
	cg_detect || return 1
	if [ "$CG_VER" = 1 ]; then
		[ -n "$CG_V1_ACCT" ] || { cg_err "no cpuacct controller"; return 1; }
		cat "$(cg_dirs "$1" | tail -n1)/cpuacct.usage"
	else
		v=$(awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat") &&
			[ -n "$v" ] && echo $((v * 1000))
	fi
}

cg_throttled_ns() {
	local v
	cg_detect || return 1
	if [ "$CG_VER" = 1 ]; then
		v=$(awk '$1 == "throttled_time" { print $2 }' "$1/cpu.stat")
		echo "${v:-0}"
	else
		v=$(awk '$1 == "throttled_usec" { print $2 }' "$1/cpu.stat")
		echo $((${v:-0} * 1000))
	fi
}

cg_quota() {
	local q p
	cg_detect || return 1
	if [ "$CG_VER" = 1 ]; then
		q=$(cat "$1/cpu.cfs_quota_us") && p=$(cat "$1/cpu.cfs_period_us") ||
			return 1
	else
		read -r q p <"$1/cpu.max" || return 1
		[ "$q" != max ] || q=-1
	fi
	echo "$q $p"
}

cg_remove() {
	local h=$1 tenths=${2:-50} d i left=0
	local -a dirs
	mapfile -t dirs < <(cg_dirs "$h")
	for d in "${dirs[@]}"; do
		for ((i = 0; ; i++)); do
			[ -d "$d" ] || break
			rmdir "$d" 2>/dev/null && break
			[ "$i" -lt "$tenths" ] || { left=1; break; }
			sleep 0.1
		done
	done
	return $left
}

cg_sweep() {
	local root d n pid
	cg_detect 2>/dev/null || return 0
	if [ "$CG_VER" = 1 ]; then
		set -- "$CG_V1_CPU" ${CG_V1_ACCT:+"$CG_V1_ACCT"}
	else
		set -- "$CG_V2_BASE"
	fi
	for root in "$@"; do
		for d in "$root"/ovc-*-*/; do
			[ -d "$d" ] || continue
			d=${d%/}
			n=${d##*/}
			pid=${n##*-}
			[[ "$pid" =~ ^[0-9]+$ ]] || continue
			kill -0 "$pid" 2>/dev/null && continue
			# (cgroup files have no size: -s cannot tell)
			[ -z "$(cat "$d/cgroup.procs" 2>/dev/null)" ] || continue
			rmdir "$d" 2>/dev/null || true
		done
	done
	return 0
}
