#!/bin/bash
# ticks-run.sh OUT K R "label=spec ..." : per-process CPU ticks/switches over 10 s of one run per arm
out=$1; k=$2; r=$3; shift 3
for ((i=1;i<=k;i++)); do for spec in "$@"; do
  a=${spec%%=*}
  /work/main/bench/results/pi-switches/ctxt.sh $out/t-$a-$i.txt &
  OVC_LOAD_LOCKED=1 bench/sweep.sh -A "$spec" -r $r -d 20 -k 1 -o $out/$a-$i >/dev/null 2>&1
  wait
  python3 - $out/t-$a-$i.txt $out/$a-$i/$a-r$r-k1/summary.json $a <<'PY'
import sys,json
A={};B={}
for l in open(sys.argv[1]):
    p=l.split(); (A if p[0]=='A' else B)[p[1]]=list(map(int,p[2:]))
rows=[]
for pid in A:
    if pid in B:
        rows.append([b-x for b,x in zip(B[pid],A[pid])])
rows.sort(key=lambda d:-d[2])
s=json.load(open(sys.argv[2]))
print('%-6s timely %6.1f total ticks %d :: '%(sys.argv[3],s['timely_cps'],sum(d[2] for d in rows)) + ' '.join('%d(%d/%d)'%(d[2],d[0]//10,d[1]//10) for d in rows if d[2] or d[0]>20))
PY
done; done
