#!/bin/bash
# A base between walking distance and pdb78b: the blank-aware 6-6-3
# databases with the transpose's max (pdbbr:6-6-3), its R<=0 on the 4x4
# board and what its levels buy on Korf's 100 (issue 52: which base pays).
# From the repository root:
#
#   docs/residual/4x4-663b/run.sh GAPSET WORK
#
# WORK is a folder outside the checkout with pdb/ holding the 7-8
# databases (gapset pdb build --partition 7-8 --compact --out WORK/pdb).
# About 30 minutes on 2 cores: the 6-6-3 tables (2 s), R<=0 (6.6e9
# configurations, about 20 min of wall, 20 GB of disk at the peak), its
# gap databases, the searches. Each stage is skipped when its output is
# there; the enumeration resumes from its checkpoint.
set -eu
B=${1:?usage: docs/residual/4x4-663b/run.sh GAPSET WORK}
W=${2:?WORK missing}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cd "$W"
[ -s pdb663b/4x4-13-14-15-blank.pdb ] || "$B" pdb build -q --partition 6-6-3 --blank --out pdb663b
if [ ! -s b663r0.json ]; then
  "$B" enumerate --base pdbbr:6-6-3 --pdb pdb663b --gap 0 --cells 10,@0-3+5+12-15 --packed --samples 0 \
    --checkpoint-every 5m --out-dir b663r0 --format json > b663r0.json.part 2>> b663r0.log
  mv b663r0.json.part b663r0.json
fi
for k in b663r0/Res0_10 b663r0/Res0_9cF02F; do
  [ -s $k.gapdb ] || "$B" gapdb -q --keys $k.keys --out $k.gapdb
done
# Korf's 100, one search at a time, the fastest of three solves; the
# residual heuristics read their base's tables from --pdb, pdb78 from
# the pdb78 files linked beside them
mkdir -p pdb663b+78; for f in pdb663b/*.pdb pdb/*.pdb; do ln -sf ../$f pdb663b+78/; done
cat pdb663b+78/*.pdb > /dev/null
[ -s korf100-663b/results.csv ] ||
  "$B" bench -q -j 1 --repeat 3 -i "$repo/data/korf100.txt" --pdb pdb663b+78 \
    --gapdb b663r0/Res0_10.gapdb --gapdb b663r0/Res0_9cF02F.gapdb --baseline pdb78 \
    -H 'pdbbr:6-6-3,res0r:10,res0r,pdb78,max(pdb78,res0r)' --out korf100-663b
sed -e "s|$repo/||g" -e "s|(nodes.png)|(korf100-663b.png)|" korf100-663b/summary.md > "$here/korf100-663b.md"
cp korf100-663b/results.csv "$here/korf100-663b.csv"; cp korf100-663b/nodes.png "$here/korf100-663b.png"
cp b663r0.json "$here/b663r0.json"
echo done
