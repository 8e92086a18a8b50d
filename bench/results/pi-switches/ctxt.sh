#!/bin/bash
# samples voluntary/nonvoluntary context switches and CPU ticks of every kamailio process at two times
out=$1; sleep 12
for p in $(pgrep -x kamailio); do echo "A $p $(grep -h ctxt /proc/$p/status | awk '{printf "%s ", $2}') $(awk '{print $14+$15}' /proc/$p/stat)"; done > $out
sleep 10
for p in $(pgrep -x kamailio); do echo "B $p $(grep -h ctxt /proc/$p/status | awk '{printf "%s ", $2}') $(awk '{print $14+$15}' /proc/$p/stat)"; done >> $out
