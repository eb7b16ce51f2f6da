#!/bin/bash
# The bases of the 4x4 residual sets, paired and interleaved on a quiet
# machine (issue 52, item 6, the part without residual levels), from the
# repository root:
#   docs/residual/4x4-bases/run.sh WORK
# WORK holds gapset-new (this commit's binary), gapset-old (built at
# e63ef8b, before the blank-aware databases touched package pdb) and pdb/:
#   gapset pdb build --partition 7-8 --compact --out WORK/pdb
#   gapset pdb build --partition 7-8-mid --compact --out WORK/pdb
#   gapset pdb build --partition 7-8 --blank --out WORK/pdb
# Each run is one bench of one heuristic (results.csv kept as NAME.csv, its
# /usr/bin/time line as NAME.time.txt), three rounds in alternating order;
# runs.tsv sums them, a row a run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cd "${1:?usage: run.sh WORK}"
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
O=out-4x4-bases; mkdir -p $O
run() { # name bin set jobs args...
  local name=$1 b=$2 set=$3 j=$4; shift 4
  cat pdb/*.pdb > /dev/null # warm: the load is the page cache's, not the disk's
  rm -rf $O/$name; $T ./$b bench -q -j $j -i "$repo"/data/$set.txt --pdb pdb "$@" --out $O/$name > /dev/null 2> $O/$name.time.txt
  cp $O/$name/results.csv $O/$name.csv
}
order() { if [ $(($1 % 2)) = 1 ]; then echo "$2 $3"; else echo "$3 $2"; fi; }
for r in 1 2 3; do
  # pdb78's lookup before and after the blank-aware change, one search at a time
  for b in $(order $r gapset-old gapset-new); do
    run korf100-pdb78-${b#gapset-}-$r $b korf100 1 -H pdb78
    run r300-pdb78-${b#gapset-}-$r $b random300 1 -H pdb78
  done
  # the blank-aware database against pdb78, alone and with duplicate pruning
  for h in $(order $r pdb78 pdb78b); do
    run korf100-$h-$r gapset-new korf100 1 -H $h
    run korf100-$h+fsm-$r gapset-new korf100 1 -H $h+fsm
    run r300-$h-$r gapset-new random300 1 -H $h
  done
  run korf100-pdb78+78mid+bpmx+fsm-$r gapset-new korf100 1 -H pdb78+78mid+bpmx+fsm
  # the 80-move positions, two searches at a time
  for h in $(order $r pdb78+fsm pdb78b+fsm); do
    run hard80-$h-$r gapset-new hard80 2 -H $h
  done
  run hard80-pdb78+78mid+bpmx+fsm-$r gapset-new hard80 2 -H pdb78+78mid+bpmx+fsm
done
{
  printf 'run\theuristic\tinstances\tnodes\tcpu_s\tns_a_node\twall_s\tuser_s\tmax_rss_kb\n'
  for f in $O/*.csv; do
    n=$(basename $f .csv)
    awk -F, -v run=$n -v t="$(cat $O/$n.time.txt | tail -1)" 'NR>1 { h=$2; k++; nodes+=$5; cpu+=$8 }
      END { split(t, a, "_"); printf "%s\t%s\t%d\t%d\t%.3f\t%.0f\t%s\t%s\t%s\n", run, h, k, nodes, cpu, 1e9*cpu/nodes, a[1], a[4], a[8] }' $f
  done
} > $O/runs.tsv
cp $O/*.csv $O/*.time.txt $O/runs.tsv "$here"/
echo done
