#!/bin/bash
# Paired and interleaved on a quiet machine, from the repository root:
#   docs/pdb-gap/two-projections/skip-paired/pair.sh WORK
# WORK holds gapset-noskip (built at 0ba7f2d, before a database is skipped
# above its levels), gapset4 (built at 0512d39, with the skip), pdb/ (the 7-8
# databases and the 78mid split) and w33/ (Gap8_10.gapdb, Gap6_9cF02F.gapdb).
# Results go to WORK/res33/pairskip and WORK/res33/pairone.
set -u
cd "${1:?usage: pair.sh WORK}"
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
G="--gapdb w33/Gap8_10.gapdb --gapdb w33/Gap6_9cF02F.gapdb"
run() { # bin set name jobs args...
  local b=$1 set=$2 n=$3 j=$4; shift 4
  cat pdb/*.pdb w33/Gap8_10.gapdb w33/Gap6_9cF02F.gapdb > /dev/null
  rm -rf $R/$set-$n; $T ./$b bench -q -j $j -i "$OLDPWD"/data/$set.txt "$@" --out $R/$set-$n > /dev/null 2> $R/$set-$n.time
}
order() { if [ $(($1 % 2)) = 1 ]; then echo gapset-noskip gapset4; else echo gapset4 gapset-noskip; fi; }
# both databases, h_G:8 with transposes: the 300 (one search at a time) and
# the 80-move set with pdb78+78mid (two at a time)
R=res33/pairskip; mkdir -p $R
for r in 1 2 3; do
  for b in $(order $r); do run $b random300 $b-$r 1 -H gap8r $G; done
  for b in $(order $r); do run $b hard80 $b-$r 2 -H pdb78+78mid+gap8r+bpmx+fsm --pdb pdb $G; done
done
# the 10-cell database alone (nothing to skip) and pdb78, the 300; then
# pdb78+gap6r+fsm on the 80-move set with the 9-cell database and with both
R=res33/pairone; mkdir -p $R
for r in 1 2 3; do
  for b in $(order $r); do run $b random300 $b-$r 1 -H gap8r --gapdb w33/Gap8_10.gapdb; done
  run gapset4 random300 pdb78-$r 1 -H pdb78 --pdb pdb
done
for r in 1 2; do
  run gapset4 hard80 g6nine-$r 2 -H pdb78+gap6r+fsm --pdb pdb --gapdb w33/Gap6_9cF02F.gapdb
  run gapset4 hard80 g6two-$r 2 -H pdb78+gap6r+fsm --pdb pdb $G
  run gapset4 hard80 pdb-$r 2 -H pdb78+fsm --pdb pdb
done
echo done
