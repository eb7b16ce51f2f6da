#!/bin/bash
# Korf's 100, two searches at a time, load included: pdb78 and pdb78+78mid without and with both databases
# (10 cells to gap 8, 9 cells to gap 6), two warm rounds in alternating order and one cold.
set -u
cd "${1:?usage: korf2.sh WORK}"
R=res33/korf2; mkdir -p $R
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
G="--gapdb w33/Gap8_10.gapdb --gapdb w33/Gap6_9cF02F.gapdb"
run() { # mode name args...
  local mode=$1 n=$2; shift 2
  if [ $mode = cold ]; then sync; echo 3 > /proc/sys/vm/drop_caches; else cat pdb/*.pdb w33/Gap8_10.gapdb w33/Gap6_9cF02F.gapdb > /dev/null; fi
  rm -rf $R/$mode-$n; $T ./gapset4 bench -q -j 2 -i "$OLDPWD"/data/korf100.txt --pdb pdb "$@" --out $R/$mode-$n > /dev/null 2> $R/$mode-$n.time
}
for r in 1 2; do
  if [ $r = 1 ]; then O="pdb gap mid midgap"; else O="midgap mid gap pdb"; fi
  for n in $O; do
    case $n in
      pdb) run warm pdb-$r -H pdb78 ;;
      gap) run warm gap-$r -H pdb78+gap8r $G ;;
      mid) run warm mid-$r -H pdb78+78mid+bpmx+fsm ;;
      midgap) run warm midgap-$r -H pdb78+78mid+gap8r+bpmx+fsm $G ;;
    esac
  done
done
run cold pdb-1 -H pdb78
run cold gap-1 -H pdb78+gap8r $G
run cold mid-1 -H pdb78+78mid+bpmx+fsm
run cold midgap-1 -H pdb78+78mid+gap8r+bpmx+fsm $G
echo done
