#!/bin/bash
# Walking distance as the base of the 4x4 residual sets (issue 52: which
# base pays), from the repository root:
#
#   docs/residual/4x4-wd/run.sh GAPSET WORK
#
# GAPSET is the binary, WORK a directory outside the checkout with pdb/
# holding the 7-8 databases (gapset pdb build --partition 7-8 --compact
# --out WORK/pdb). About an hour on 2 cores: R<=0 of walking distance
# (3.5e8 configurations, 3 min), R<=2 (about 5e9, 40 min, 12 GB of disk at
# the peak), the Manhattan gap sets (5 min), their gap databases (10
# cells: 3.6 GiB for one level, 7.3 GiB for two), then the searches. Each
# stage is skipped when its output is there, and the enumerations resume
# from their checkpoints: run the script again after a stop. Measure on a
# quiet machine (nothing else running).
set -eu
B=${1:?usage: docs/residual/4x4-wd/run.sh GAPSET WORK}
W=${2:?WORK missing}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cd "$W"
C=10,@0-3+5+12-15
enum() { # dir args...
  local d=$1; shift
  [ -s $d.json ] && return
  "$B" enumerate --cells $C --packed --checkpoint-every 5m --out-dir $d --format json "$@" > $d.json.part 2>> $d.log
  mv $d.json.part $d.json
}
# 1. the sets (one run a bound: a run writes only its own bound's files):
# R<=0 and R<=2 of walking distance, Gap<=0 and Gap<=2 of Manhattan's
enum wd0 --base wd --samples 0 --gap 0
enum wd2 --base wd --samples 0 --gap 2
enum g0 --gap 0
enum g2 --gap 2
# 2. gap databases: the residual levels alone, and both kinds in one entry
db() { # out keys...
  local out=$1; shift
  [ -s $out ] && return
  local a=(); for k in "$@"; do a+=(--keys "$k"); done
  "$B" gapdb -q "${a[@]}" --out $out
}
db wdres2-10.gapdb wd0/Res0_10.keys wd2/Res2_10.keys
db wdres2-9.gapdb wd0/Res0_9cF02F.keys wd2/Res2_9cF02F.keys
db gap2-10.gapdb g0/Gap0_10.keys g2/Gap2_10.keys
db gap2-9.gapdb g0/Gap0_9cF02F.keys g2/Gap2_9cF02F.keys
db both2-10.gapdb wd0/Res0_10.keys wd2/Res2_10.keys g0/Gap0_10.keys g2/Gap2_10.keys
# 3. Korf's 100, one search at a time, three rounds interleaved (the
# fastest of each kept); node counts are exact. At most about 16 GB of
# databases mapped at once (the machine has 24 GiB)
cat pdb/*.pdb > /dev/null
run() { # name heuristics gapdbs...
  local name=$1 hs=$2; shift 2
  local a=(); for g in "$@"; do a+=(--gapdb "$g"); done
  [ -s $name/results.csv ] ||
    "$B" bench -q -j 1 --repeat 3 -i "$repo/data/korf100.txt" --pdb pdb "${a[@]}" --baseline wd \
      -H "$hs" --out $name
}
run korf100-wd 'wd,res0r:10,res2r:10,res2r:9,res2r,max(res2r,gap2r)' wdres2-10.gapdb wdres2-9.gapdb gap2-10.gapdb gap2-9.gapdb
run korf100-two 'max(res2r:10,gap2r:10)' wdres2-10.gapdb gap2-10.gapdb
run korf100-both 'bothr:10' both2-10.gapdb
run korf100-pdb78 'pdb78,max(pdb78,res2r),pdb78+gap2r,max(pdb78,res2r,gap2r)' wdres2-10.gapdb wdres2-9.gapdb gap2-10.gapdb gap2-9.gapdb
for r in korf100-wd korf100-two korf100-both korf100-pdb78; do
  sed -e "s|$repo/||g" -e "s|(nodes.png)|($r.png)|" $r/summary.md > "$here/$r.md"
  cp $r/results.csv "$here/$r.csv"; cp $r/nodes.png "$here/$r.png"
done
for d in wd0 wd2; do cp $d.json "$here/$d.json"; done
echo done
