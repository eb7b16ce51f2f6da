#!/bin/bash
# paired, interleaved: the fewest-node configuration alone, with the 9-cell database to gap 8, and to gap 6 only;
# the 80-move set, two searches at a time, warm; approx10 paused meanwhile
set -u
cd "${1:?usage: pair.sh WORK (the gapset binary gapset4, pdb/ and w33/ inside)}"
R=res33/pair9${MODE:+-$MODE}; mkdir -p $R
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
PIDS=$(pgrep -f "gapset4 approx")
kill -STOP $PIDS 2>/dev/null
[ "${MODE:-warm}" = warm ] && cat pdb/*.pdb w33/Gap8_9cF02F.gapdb w33/Gap6_9cF02F.gapdb > /dev/null
for r in ${ROUNDS:-1 2 3}; do
  for n in ${ORDER:-78mid g8 g6}; do
    case $n in
      78mid) A="-H pdb78+78mid+bpmx+fsm";;
      g8) A="-H pdb78+78mid+gap8r+bpmx+fsm --gapdb w33/Gap8_9cF02F.gapdb";;
      g6) A="-H pdb78+78mid+gap6r+bpmx+fsm --gapdb w33/Gap6_9cF02F.gapdb";;
    esac
    [ "${MODE:-warm}" = cold ] && { sync; echo 3 > /proc/sys/vm/drop_caches; }
    rm -rf $R/$n-$r; $T ./gapset4 bench -q -j 2 -i "$OLDPWD"/data/hard80.txt --pdb pdb $A --out $R/$n-$r > /dev/null 2> $R/$n-$r.time
  done
done
kill -CONT $PIDS 2>/dev/null
echo done
