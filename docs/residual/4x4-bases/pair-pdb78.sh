#!/bin/bash
# pdb78's search CPU before and after the blank-aware change, more rounds
# than run.sh gives it, three binaries in rotating order (pair3.txt; the
# first pass, pair2.txt, had two binaries and eight rounds):
#   docs/residual/4x4-bases/pair-pdb78.sh WORK
# WORK as run.sh's, with gapset-b: a variant that skips the blank-aware
# bookkeeping in Move and Undo unless the tables are blank-aware (not kept:
# no faster). A line a run: set, binary, the search CPU seconds summed.
set -u
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "${1:?usage: pair-pdb78.sh WORK}"
for set in random300 korf100; do
  for r in 1 2 3 4 5 6; do
    case $((r % 3)) in
      0) L="gapset-old gapset-new gapset-b" ;;
      1) L="gapset-new gapset-b gapset-old" ;;
      2) L="gapset-b gapset-old gapset-new" ;;
    esac
    for b in $L; do
      rm -rf pair-out; ./$b bench -q -j 1 -i "$repo"/data/$set.txt --pdb pdb -H pdb78 --out pair-out > /dev/null 2>&1
      awk -F, -v b=$b -v s=$set 'NR>1 { c += $8 } END { print s, b, c }' pair-out/results.csv
    done
  done
done
