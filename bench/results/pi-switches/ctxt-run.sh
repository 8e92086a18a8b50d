#!/bin/bash
# /tmp/ctxt-run.sh OUTDIR K "label=spec ..." : one 8x run per arm, k rounds, with context-switch samples
out=$1; k=$2; shift 2
for ((i=1;i<=k;i++)); do for spec in "$@"; do
  a=${spec%%=*}
  "$(dirname "$0")"/ctxt.sh $out/ctxt-$a-$i.txt &
  OVC_LOAD_LOCKED=1 bench/sweep.sh -A "$spec" -r 8 -d 20 -k 1 -o $out/$a-$i >/dev/null 2>&1
  wait
  python3 - $out/ctxt-$a-$i.txt $out/$a-$i/$a-r8-k1/summary.json $a <<'PY'
import sys,json
A={};B={}
for l in open(sys.argv[1]):
    p=l.split(); (A if p[0]=='A' else B)[p[1]]=list(map(int,p[2:]))
tv=ti=tc=0; rx=None
for pid in A:
    if pid in B:
        d=[b-x for b,x in zip(B[pid],A[pid])]
        tv+=d[0];ti+=d[1];tc+=d[2]
        if rx is None or d[2]>rx[2]: rx=d
s=json.load(open(sys.argv[2]))
print('%-8s timely %6.1f  all: vol %5d/s invol %5d/s ticks %4d | busiest: vol %5d/s invol %5d/s ticks %4d'%(sys.argv[3],s['timely_cps'],tv/10,ti/10,tc,rx[0]/10,rx[1]/10,rx[2]))
PY
done; done
