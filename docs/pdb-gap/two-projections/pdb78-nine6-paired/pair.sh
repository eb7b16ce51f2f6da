#!/bin/bash
# paired, interleaved, approx10 paused: pdb78 with and without the 9-cell database to gap 6,
# the 80-move set (two searches at a time) and Korf's 100 (two at a time), load included, warm and cold
set -u
cd "${1:?usage: pair.sh WORK (the gapset binary gapset4, pdb/ and w33/ inside)}"
R=res33/pair9b; mkdir -p $R
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
PIDS=$(pgrep -f "gapset4 approx")
kill -STOP $PIDS 2>/dev/null
D=w33/Gap6_9cF02F.gapdb
run() { # mode set name args...
  local mode=$1 set=$2 n=$3; shift 3
  if [ $mode = cold ]; then sync; echo 3 > /proc/sys/vm/drop_caches; else cat pdb/pdb78*.pdb $D > /dev/null 2>&1; cat pdb/*.pdb > /dev/null; fi
  rm -rf $R/$set-$mode-$n; $T ./gapset4 bench -q -j 2 -i "$OLDPWD"/data/$set.txt --pdb pdb "$@" --out $R/$set-$mode-$n > /dev/null 2> $R/$set-$mode-$n.time
}
for r in 1 2; do
  run warm hard80 pdb-$r -H pdb78+fsm
  run warm hard80 gap-$r -H pdb78+gap6r+fsm --gapdb $D
done
run cold hard80 gap-1 -H pdb78+gap6r+fsm --gapdb $D
run cold hard80 pdb-1 -H pdb78+fsm
for r in 1 2 3; do
  run warm korf100 pdb-$r -H pdb78
  run warm korf100 gap-$r -H pdb78+gap6r --gapdb $D
  run warm korf100 mid-$r -H pdb78+78mid+bpmx+fsm
  run warm korf100 midgap-$r -H pdb78+78mid+gap6r+bpmx+fsm --gapdb $D
done
for r in 1 2; do
  run cold korf100 pdb-$r -H pdb78
  run cold korf100 gap-$r -H pdb78+gap6r --gapdb $D
done
kill -CONT $PIDS 2>/dev/null
echo done
