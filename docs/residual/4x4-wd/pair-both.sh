#!/bin/bash
# Both levels in one entry (bothr:10) against the same levels in two files
# (max(res2r:10,gap2r:10)) on Korf's 100, one bench each, three rounds in
# alternating order; after run.sh, from the repository root:
#   docs/residual/4x4-wd/pair-both.sh GAPSET WORK
# Writes pair-both.tsv here: a row a run, the search CPU summed over the 100.
set -eu
B=${1:?usage: pair-both.sh GAPSET WORK}
W=${2:?WORK missing}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cd "$W"; mkdir -p pair
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then o="two both"; else o="both two"; fi
  for k in $o; do
    if [ $k = two ]; then a=(--gapdb wdres2-10.gapdb --gapdb gap2-10.gapdb); h='max(res2r:10,gap2r:10)'
    else a=(--gapdb both2-10.gapdb); h='bothr:10'; fi
    rm -rf pair/$k-$r
    "$B" bench -q -j 1 -i "$repo/data/korf100.txt" --pdb pdb "${a[@]}" -H "$h" --out pair/$k-$r > /dev/null
  done
done
{
  printf 'run\tnodes\tcpu_s\tns_a_node\n'
  # fields counted from the end: the heuristic column may hold commas
  for r in 1 2 3; do for k in two both; do
    awk -F, -v run=$k-$r 'NR>1 { nodes+=$(NF-7); cpu+=$(NF-4) } END { printf "%s\t%d\t%.3f\t%.0f\n", run, nodes, cpu, 1e9*cpu/nodes }' pair/$k-$r/results.csv
  done; done
} > "$here/pair-both.tsv"
cat "$here/pair-both.tsv"
