#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/tests/test_args.sh - the bench's one door and its scripts'
# arguments, without root and without load: every script under bench/
# meant to be run is executable and answers --help with its header; the
# sourced ones are not executable; every campaign script is listed by
# bench/ovc-bench, every entry of ovc-bench names a script that exists,
# every path a script names through its own place exists;
# bad arguments are refused (exit 2, "see NAME --help") and good ones
# accepted. The arguments are tried with BENCH_CHECK_ARGS=1, which stops
# each script once its checks are done (bench/tools/args.sh): a check
# that went missing makes the case fail instead of starting a run.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/scripts/lib.sh"
cd "$top"

sourced="bench/testbed/lib.sh bench/testbed/load.sh bench/testbed/profile.sh
bench/tools/args.sh bench/microbench/cost-run.sh"
for f in $(git ls-files 'bench/*.sh' 'bench/ovc-bench' | grep -v '^bench/results/'); do
	if [[ " $(echo $sourced) " == *" $f "* ]]; then
		[ ! -x "$f" ] && ok "$f sourced, not executable" ||
			no "$f is sourced but executable"
		continue
	fi
	[ -x "$f" ] || { no "$f not executable"; continue; }
	h=$("./$f" --help 2>&1) && [[ "$h" == "$f"* || "$h" == "${f#bench/}"* ]] &&
		ok "$f --help" || no "$f --help: ${h:0:60}"
	grep -q 'bench_args_checked' "$f" || [ "$f" = bench/ovc-bench ] ||
		no "$f does not mark the end of its checks"
done

# every script or file a script names through its own place ("$here/X",
# "$top/X", "$BENCH_TOP/X", "$(dirname "$0")/X") exists: here is bench/
# or the top (whichever holds X), top the top; run-time folders (out/)
# and what the build makes (paths git ignores) aside
for f in $(git ls-files 'bench/*.sh' 'bench/ovc-bench' | grep -v '^bench/results/'); do
	[ "$f" != bench/tests/test_args.sh ] || continue
	while read -r t; do
		rest=${t#*/}
		# what the build makes (build/, ovc.so: ignored by git) is not
		# there in a fresh clone before make has run
		{ git check-ignore -q -- "$rest" || git check-ignore -q -- "bench/$rest"; } && continue
		case "$t" in
		*'/out/'* | *'/out') continue ;;
		'$here/'*) [ -e "bench/$rest" ] || [ -e "$rest" ] ;;
		'$(dirname "$0")/'*) [ -e "$(dirname "$f")/${t#*\)/}" ] ;;
		*) [ -e "$rest" ] ;;
		esac || no "$f names $t, which does not exist"
	done < <(grep -o -E '\$(here|top|BENCH_TOP)/[A-Za-z0-9_./-]+|\$\(dirname "\$0"\)/[A-Za-z0-9_./-]+' "$f" | sort -u)
done
ok "every path a script names through its place exists"

# ovc-bench: every campaign script listed, every entry's script there
list=$(bench/ovc-bench --list)
for f in bench/campaigns/*.sh; do
	grep -q "campaigns/${f##*/}" bench/ovc-bench && ok "ovc-bench lists $f" ||
		no "ovc-bench does not list $f"
done
for n in $list; do
	h=$(bench/ovc-bench "$n" --help 2>&1) && [ -n "$h" ] &&
		ok "ovc-bench $n --help" || no "ovc-bench $n --help"
done
h=$(bench/ovc-bench --help)
for n in $list; do
	grep -q "^  $n " <<<"$h" || no "ovc-bench --help does not list $n"
done
ok "ovc-bench --help lists every entry"
[ -n "$(bench/ovc-bench --results)" ] && ok "ovc-bench --results" ||
	no "ovc-bench --results is empty"
BENCH_CHECK_ARGS=1 bench/ovc-bench all >/dev/null 2>"$F/err" &&
	ok "ovc-bench all: every campaign accepts its arguments" ||
	no "ovc-bench all under BENCH_CHECK_ARGS: $(tail -n3 "$F/err")"
if bench/ovc-bench nosuch >/dev/null 2>"$F/err"; then
	no "ovc-bench nosuch accepted"
else
	grep -q "no campaign or tool 'nosuch'" "$F/err" && ok "ovc-bench nosuch" ||
		no "ovc-bench nosuch: $(cat "$F/err")"
fi

# refuse SCRIPT ARG...: exit 2 and the pointer to --help, nothing run
refuse() {
	local f=$1 rc=0
	shift
	BENCH_CHECK_ARGS=1 "./$f" "$@" >/dev/null 2>"$F/err" || rc=$?
	if [ $rc -eq 2 ] && grep -q "see ${f##*/} --help" "$F/err"; then
		ok "$f $* refused"
	else
		no "$f $* (exit $rc): $(head -c 200 "$F/err")"
	fi
}
# accept SCRIPT ARG...: the checks pass
accept() {
	local f=$1 rc=0
	shift
	BENCH_CHECK_ARGS=1 "./$f" "$@" >/dev/null 2>"$F/err" || rc=$?
	[ $rc -eq 0 ] && ok "$f $* accepted" ||
		no "$f $* (exit $rc): $(head -c 200 "$F/err")"
}
mkdir -p "$F/d"
refuse bench/runners/run.sh -r abc
refuse bench/runners/run.sh -a occ -r abc
refuse bench/runners/run.sh -a occ -p steep
refuse bench/runners/run.sh -a occ -d 1
refuse bench/runners/run.sh -a occ -P novalue
refuse bench/runners/run.sh -a occ extra
accept bench/runners/run.sh -a occ -p instant -r 2.5 -d 20 -R 300 -P occ.target=0.9
refuse bench/runners/net-run.sh -t ring -m hop -r 2
refuse bench/runners/net-run.sh -t tandem -m hop -r x
accept bench/runners/net-run.sh -t fanin -m e2e -r 4 -R 70
refuse bench/runners/sweep.sh -r "1 two"
refuse bench/runners/sweep.sh -k 0
accept bench/runners/sweep.sh -A "none occ" -r "1 2" -k 3
refuse bench/runners/calibrate.sh --fast
accept bench/runners/calibrate.sh --quick
refuse bench/runners/profile-run.sh . t occ x
refuse bench/testbed/testbed.sh up --edges 9
refuse bench/testbed/testbed.sh sideways
accept bench/testbed/testbed.sh up --loopback --edges 2
refuse bench/testbed/proxy.sh start "$F/d" 'o c c'
refuse bench/testbed/sampler.sh "$F/d" soon
refuse bench/campaigns/papers.sh everything
accept bench/campaigns/papers.sh sweep
BENCH_SWEEP_LOADS="1 x" refuse bench/campaigns/papers.sh sweep
refuse bench/campaigns/network.sh runz
TOPOS=ring refuse bench/campaigns/network.sh runs
accept bench/campaigns/network.sh all
refuse bench/campaigns/rsoca.sh flashy
refuse bench/campaigns/rsoca-memory.sh --reprt
refuse bench/campaigns/rxq.sh 700 lots
accept bench/campaigns/none-vs-plain.sh
refuse bench/campaigns/none-vs-plain.sh 1.1
PAIRS="1.1" refuse bench/campaigns/none-vs-plain.sh
PAIRS="1.1:0" refuse bench/campaigns/none-vs-plain.sh
CAP=4x0 refuse bench/campaigns/none-vs-plain.sh
accept bench/campaigns/rxq.sh 700 1400
refuse bench/campaigns/tcp.sh -A nosuch
refuse bench/campaigns/tcp.sh -r "1 x"
accept bench/campaigns/tcp.sh -R 250 -r "2.5 10" -A sfbm -o "$F/d"
CONNS="0 lots" refuse bench/campaigns/tcp-conns.sh
CONNS=90000 refuse bench/campaigns/tcp-conns.sh
ARMS="ovc sideways" refuse bench/campaigns/tcp-conns.sh
SECS=0 refuse bench/campaigns/tcp-conns.sh
refuse bench/campaigns/tcp-conns.sh extra
CONNS="0 5000" ARMS="ovc plain" RUNS=1 accept bench/campaigns/tcp-conns.sh
refuse bench/campaigns/ds64.sh chroot
MULTS=abc refuse bench/campaigns/defaults.sh
refuse bench/campaigns/soak.sh now
refuse bench/campaigns/timely.sh 2x
refuse bench/campaigns/loopback-capacity.sh fast
refuse bench/plots/plot-sweep.sh "$F/none"
refuse bench/reports/sweep-headline.sh "$F/none"
refuse bench/reports/kstage-split.sh -n x "$F/d"
refuse bench/sim/plot.sh fig8
refuse bench/tools/results.sh unpack
refuse bench/tools/results.sh fetch
accept bench/tools/results.sh fetch bench/results/network
t_done
