#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/campaigns/tcp.sh - SIP over TCP, paper 002's topology on the
# testbed: SIPp UAC (uac1) -UDP-> SE (edge1, uncapped) -TCP-> RE (proxy,
# CPU-capped) -UDP-> SIPp UAS (uas1). Three arms at each load:
#   default  plain TCP: the RE's kernel buffers, no smart forwarding;
#   bm       buffer minimisation only: the RE's TCP listener at
#            rcvbuf_tcp=BENCH_TCP_RCVBUF messages (default 4: at 10x it
#            met 002's targets in each of five runs, 8 left 1-2 % of the
#            setups over 100 ms, 2 once let 594 200 OKs be retransmitted;
#            bench/RESULTS.md, issue 19, 2026-11-27);
#   sfbm     ICS+BM+SF: bm plus smart forwarding at the SE
#            (tcp_sendq_max=0, ovc_dst_admit() before relaying).
# BENCH_TCP_MSS: the RE's mss_tcp in bm and sfbm (default -1: derived
# from the buffer; 0: none, the SE's segments as the kernel cuts them).
# Neither proxy runs a local controller (ovc algorithm none).
# BENCH_TCP_SES=2: two SEs (edge1, edge2) share the RE, uac1 -> edge1 and
# uac2 -> edge2 each offering half the load (002 §7.3's fairness); the
# per-SE goodput (calls each UAC set up in the window, per s) goes into
# runs.csv's last columns (se1_goodput, se2_goodput; 0 with one SE).
#
#   tcp.sh [-d SECONDS] [-w WARMUP_S] [-r "1 2.5 5 10"]
#                   [-A "default bm sfbm"] [-R RHO] [-o DIR]
#
# RHO, the RE's capacity over TCP (calls/s), is probed first unless -R:
# the default arm at rising rates, the highest that sets up >= 99.5 % of
# its calls within 500 ms. Per run, over the window after the warm-up:
# RE goodput (ACKs at the UAS per s, and / RHO), calls set up within 100
# ms and 500 ms (share of completed), mean and p95 setup, 200 OK
# retransmissions at the UAS, 503s (SE refusals), SF refusals, INVITE
# retransmissions by the UAC, and the RE's live transactions (mean, max
# of 1 s samples). Results: DIR/runs.csv, DIR/tcp.md. Holds the load lock
# (bench/testbed/lib.sh); brings the testbed up with --edges 1 if it is down and
# takes it down again.
set -euo pipefail
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
dur=20
warm=5
loads="1 2.5 5 10"
arms="default bm sfbm"
rho=
out=
while getopts "d:w:r:A:R:o:" o; do
	case "$o" in
	d) dur=$OPTARG ;;
	w) warm=$OPTARG ;;
	r) loads=$OPTARG ;;
	A) arms=$OPTARG ;;
	R) rho=$OPTARG ;;
	o) out=$OPTARG ;;
	*) bench_bad "bad option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bench_bad "unexpected argument '$1'"
bench_int -d "$dur"
bench_int -w "$warm"
bench_nums -r "$loads"
for a in $arms; do bench_oneof -A "$a" default bm sfbm; done
[ -z "$rho" ] || bench_num -R "$rho"
[[ "${BENCH_TCP_SES:-1}" =~ ^[12]$ ]] || bench_bad "BENCH_TCP_SES takes 1 or 2"
bench_args_checked
here=$(dirname "$0")/..
. "$here/testbed/lib.sh"
. "$here/testbed/load.sh"
out=${out:-$BENCH_OUT/tcp}
mkdir -p "$out"
out=$(cd "$out" && pwd)

ses=${BENCH_TCP_SES:-1}
[[ "$ses" =~ ^[12]$ ]] || die "BENCH_TCP_SES takes 1 or 2"
brought_up=0
if ! bench_is_up; then
	"$here/testbed/testbed.sh" up --edges "$ses"
	brought_up=1
fi
grep -qx "edge$ses" "$BENCH_STATE/hosts" ||
	die "the testbed is up without edge$ses: 'testbed.sh down' first"
RE_IP=$(bench_ip proxy)
SE_IP=$(bench_ip edge1)
RE_CTL="unix:$BENCH_STATE/proxy.ctl"
SE_CTL="unix:$BENCH_STATE/edge1.ctl"

run_dir=
cleanup() {
	local h
	if [ -n "$run_dir" ]; then
		for h in uac1 uac2 uas1; do sipp_stop "$h" "$run_dir" 1 || true; done
		BENCH_PROXY_HOST=edge1 "$here/testbed/proxy.sh" stop "$run_dir/se" || true
		[ "$ses" = 1 ] ||
			BENCH_PROXY_HOST=edge2 "$here/testbed/proxy.sh" stop "$run_dir/se2" || true
		"$here/testbed/proxy.sh" stop "$run_dir/re" || true
	fi
	[ -z "${sampler:-}" ] || kill "$sampler" 2>/dev/null || true
	[ "$brought_up" = 0 ] || "$here/testbed/testbed.sh" down
}
trap cleanup EXIT

# start_pair ARM DIR: the RE and the SE of arm ARM.
start_pair() {
	local arm=$1 dir=$2 re_defs="TCP_LISTEN=tcp:$RE_IP:$BENCH_SIP_PORT"
	local se_defs="TCP_LISTEN=tcp:$SE_IP:$BENCH_SIP_PORT OVC_DST_ADMIT"
	se_defs="$se_defs OVC_NETWORK_MODE=\"local\""
	case "$arm" in
	default) se_defs="$se_defs OVC_TCP_SENDQ_MAX=-1" ;;
	bm)
		re_defs="$re_defs OVC_RCVBUF_TCP=${BENCH_TCP_RCVBUF:-4}"
		re_defs="$re_defs OVC_MSS_TCP=${BENCH_TCP_MSS:--1}"
		se_defs="$se_defs OVC_TCP_SENDQ_MAX=-1"
		;;
	sfbm)
		re_defs="$re_defs OVC_RCVBUF_TCP=${BENCH_TCP_RCVBUF:-4}"
		re_defs="$re_defs OVC_MSS_TCP=${BENCH_TCP_MSS:--1}"
		se_defs="$se_defs OVC_TCP_SENDQ_MAX=0"
		;;
	*) die "unknown arm $arm" ;;
	esac
	BENCH_DEFINES="$re_defs" "$here/testbed/proxy.sh" start "$dir/re" ovc-none \
		>/dev/null
	BENCH_PROXY_HOST=edge1 BENCH_DEFINES="$se_defs" \
		BENCH_NEXT_HOP="sip:$RE_IP:$BENCH_SIP_PORT;transport=tcp" \
		"$here/testbed/proxy.sh" start "$dir/se" ovc-none >/dev/null
	[ "$ses" = 1 ] && return 0
	se_defs=${se_defs/tcp:$SE_IP:/tcp:$(bench_ip edge2):}
	BENCH_PROXY_HOST=edge2 BENCH_DEFINES="$se_defs" \
		BENCH_NEXT_HOP="sip:$RE_IP:$BENCH_SIP_PORT;transport=tcp" \
		"$here/testbed/proxy.sh" start "$dir/se2" ovc-none >/dev/null
}

# answered FILE: setup times (ms) of the calls answered within the window
answered() {
	awk -F';' -v a="$warm" -v b="$((warm + dur))" '
		$1 !~ /^[0-9.]+$/ || $3 != "setup" { next }
		{ t = $1 / 1000; if(t >= a && t <= b) print $2 }' "$1" 2>/dev/null
}

# col FILE REGEX: last value of the first column matching REGEX (SIPp
# ';' CSV), 0 when none.
col() {
	[ -f "$1" ] || { echo 0; return; }
	awk -F';' -v re="$2" 'NR == 1 { for(i = 1; i <= NF; i++) if($i ~ re) { c = i; break }; next }
		c { v = $c } END { print v + 0 }' "$1"
}
# window FILE REGEX FROM TO: increase of a cumulative column between rows
window() {
	[ -f "$1" ] || { echo 0; return; }
	awk -F';' -v re="$2" -v a="$3" -v b="$4" '
		NR == 1 { for(i = 1; i <= NF; i++) if($i ~ re) { c = i; break }; next }
		{ r = NR - 1; if(r <= a) va = $c; if(r <= b) vb = $c }
		END { print vb - va + 0 }' "$1"
}

# one ARM R RHO: one run; appends a row to runs.csv, prints a summary.
one() {
	local arm=$1 r=$2 rho_=$3 rate n life tag uas_counts
	rate=$(awk -v r="$r" -v p="$rho_" 'BEGIN { printf "%d\n", r * p + 0.5 }')
	tag=$arm-r$r
	run_dir=$out/runs/$tag
	rm -rf "$run_dir"
	mkdir -p "$run_dir"
	n=$((warm + dur))
	life=$((n + 15))
	start_pair "$arm" "$run_dir"
	uas_start uas1 "$run_dir" "$((life + 5))"
	sleep 0.5
	: >"$run_dir/re_live.txt"
	(while :; do
		kamcmd -s "$RE_CTL" tm.stats 2>/dev/null |
			awk '$1 == "current:" { print $2; exit }' >>"$run_dir/re_live.txt"
		sleep 1
	done) &
	sampler=$!
	local rate1=$rate
	[ "$ses" = 1 ] || rate1=$((rate / 2))
	sipp_start uac1 "$run_dir" "$life" "$SE_IP:$BENCH_SIP_PORT" \
		-sf "$BENCH_SCEN/uac-bench.xml" -bind_local \
		-key uas "$(bench_ip uas1):$BENCH_SIP_PORT" -r "$rate1" -rp 1000 \
		-d 0 -l 200000 -m $((rate1 * n))
	[ "$ses" = 1 ] ||
		sipp_start uac2 "$run_dir" "$life" "$(bench_ip edge2):$BENCH_SIP_PORT" \
			-sf "$BENCH_SCEN/uac-bench.xml" -bind_local \
			-key uas "$(bench_ip uas1):$BENCH_SIP_PORT" \
			-r "$((rate - rate1))" -rp 1000 -d 0 -l 200000 \
			-m $(((rate - rate1) * n))
	# the SE's end of its connection to the RE, mid-window (window, MSS,
	# bytes unsent, what limited it)
	sleep $((warm + dur / 2))
	on_host edge1 ss -tinm state established "dst $RE_IP:$BENCH_SIP_PORT" \
		>"$run_dir/ss_se.txt" 2>&1 || true
	sleep $((n - warm - dur / 2))
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	sampler=
	sleep 4 # the last calls of the window complete (or not)
	kamcmd -s "$SE_CTL" ovc.csv >"$run_dir/se_ovc.csv" 2>/dev/null || true
	[ "$ses" = 1 ] || kamcmd -s "unix:$BENCH_STATE/edge2.ctl" ovc.csv \
		>"$run_dir/se2_ovc.csv" 2>/dev/null || true
	sipp_stop uac1 "$run_dir" 2
	[ "$ses" = 1 ] || sipp_stop uac2 "$run_dir" 2
	sipp_stop uas1 "$run_dir" 1
	BENCH_PROXY_HOST=edge1 "$here/testbed/proxy.sh" stop "$run_dir/se"
	[ "$ses" = 1 ] || BENCH_PROXY_HOST=edge2 "$here/testbed/proxy.sh" stop "$run_dir/se2"
	"$here/testbed/proxy.sh" stop "$run_dir/re"
	uas_counts=$(ls "$run_dir"/uas1/*_counts.csv 2>/dev/null | head -n1 || true)
	uac_counts=$(ls "$run_dir"/uac1/*_counts.csv 2>/dev/null | head -n1 || true)
	# stat rows are 1 s apart: the window is rows warm..n
	local acks retr200 inv_retr rej sq g timely100 timely500 done setup
	local se1=0 se2=0 uac2_counts f
	acks=$(window "$uas_counts" '_ACK_Recv$' "$warm" "$n")
	retr200=$(col "$uas_counts" '_200_Retrans$')
	inv_retr=$(col "$uac_counts" '_INVITE_Retrans$')
	rej=$(col "$uac_counts" '_503_Recv$')
	sq=0
	for f in "$run_dir"/se_ovc.csv "$run_dir"/se2_ovc.csv; do
		[ -f "$f" ] || continue
		sq=$((sq + $(awk -F',' 'NR == 1 { for(i = 1; i <= NF; i++) if($i == "dst_sendq_refused") c = i; next }
			c { s += $c } END { print s + 0 }' "$f")))
	done
	if [ "$ses" = 2 ]; then
		uac2_counts=$(ls "$run_dir"/uac2/*_counts.csv 2>/dev/null | head -n1 || true)
		inv_retr=$((inv_retr + $(col "$uac2_counts" '_INVITE_Retrans$')))
		rej=$((rej + $(col "$uac2_counts" '_503_Recv$')))
		se1=$(answered "$run_dir/uac1_rtt.csv" | awk -v d="$dur" 'END { printf "%.1f", NR / d }')
		se2=$(answered "$run_dir/uac2_rtt.csv" | awk -v d="$dur" 'END { printf "%.1f", NR / d }')
	fi
	# setup times (rtd "setup") of calls answered within the window
	setup=$(for f in "$run_dir"/uac1_rtt.csv "$run_dir"/uac2_rtt.csv; do
		[ ! -f "$f" ] || answered "$f"; done | sort -g | awk '
		{ v[++k] = $1; s += $1; if($1 < 100) f1++; if($1 < 500) f5++ }
		END { if(!k) { print "0 0 0 0 0"; exit }
			p = int(0.95 * k + 0.5); if(p < 1) p = 1
			printf "%d %.4f %.4f %.1f %.1f\n", k, f1 / k, f5 / k, s / k, v[p] }')
	read -r done timely100 timely500 smean sp95 <<<"$setup"
	g=$(awk -v a="$acks" -v d="$dur" -v p="$rho_" 'BEGIN { printf "%.1f %.3f", a / d, a / d / p }')
	read -r live_mean live_max < <(awk '{ s += $1; if($1 > m) m = $1; k++ }
		END { printf "%.1f %d\n", k ? s / k : 0, m }' "$run_dir/re_live.txt")
	echo "$arm,$r,$rate,$rho_,${g% *},${g#* },$done,$timely100,$timely500,$smean,$sp95,$retr200,$inv_retr,$rej,$sq,$live_mean,$live_max,$se1,$se2" \
		>>"$out/runs.csv"
	say "$tag: $rate/s offered, RE goodput ${g% *}/s (${g#* } rho)," \
		"setup <100 ms $timely100, p95 $sp95 ms, 200 retrans $retr200," \
		"503 $rej (SF $sq), RE live tx mean $live_mean max $live_max" \
		"$([ "$ses" = 1 ] || echo ", per SE $se1 / $se2 /s")"
	run_dir=
}

# probe: the RE's capacity over TCP (default arm)
probe() {
	local p rate ok best=0 d
	for p in ${BENCH_TCP_PROBES:-150 200 250 300 350 400}; do
		d=$out/probe/p$p
		rm -rf "$d"
		mkdir -p "$d"
		run_dir=$d
		start_pair default "$d"
		uas_start uas1 "$d" 30
		sleep 0.5
		sipp_start uac1 "$d" 25 "$SE_IP:$BENCH_SIP_PORT" \
			-sf "$BENCH_SCEN/uac-bench.xml" -bind_local \
			-key uas "$(bench_ip uas1):$BENCH_SIP_PORT" -r "$p" -rp 1000 \
			-d 0 -l 200000 -m $((p * 10))
		sleep 12
		sipp_stop uac1 "$d" 2
		sipp_stop uas1 "$d" 1
		BENCH_PROXY_HOST=edge1 "$here/testbed/proxy.sh" stop "$d/se"
		"$here/testbed/proxy.sh" stop "$d/re"
		run_dir=
		ok=$(awk -F';' -v n=$((p * 10)) '$1 ~ /^[0-9.]+$/ && $3 == "setup" && $2 < 500 { k++ }
			END { print (k >= 0.995 * n) ? 1 : 0 }' "$d/uac1_rtt.csv" 2>/dev/null || echo 0)
		say "probe $p/s: $([ "$ok" = 1 ] && echo "clean" || echo "over capacity")"
		[ "$ok" = 1 ] || break
		best=$p
	done
	[ "$best" -gt 0 ] || die "the RE did not carry the lowest probe cleanly"
	rho=$best
}

[ -n "$rho" ] || probe
say "RE capacity over TCP: $rho calls/s"
echo "arm,r,offered,rho,re_goodput,g,setups,setup_lt100,setup_lt500,setup_mean_ms,setup_p95_ms,uas_200_retrans,uac_invite_retrans,uac_503,se_sf_refused,re_live_mean,re_live_max,se1_goodput,se2_goodput" \
	>"$out/runs.csv"
for r in $loads; do
	for a in $arms; do
		one "$a" "$r" "$rho"
	done
done
{
	echo "| arm | r | offered/s | RE goodput/s | g | setup < 100 ms | p95 ms | 200 OK retrans | 503 (SF) | RE live tx mean/max | per SE /s |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F',' 'NR > 1 { printf "| %s | %s | %s | %s | %s | %.1f %% | %s | %s | %s (%s) | %s / %s | %s |\n",
		$1, $2, $3, $5, $6, 100 * $8, $11, $12, $14, $15, $16, $17,
		($18 + $19 > 0) ? $18 " / " $19 : "-" }' "$out/runs.csv"
} >"$out/tcp.md"
cat "$out/tcp.md"
