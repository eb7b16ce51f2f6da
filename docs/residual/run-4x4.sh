#!/bin/bash
# R<=0 of the 4x4 board relative to pdb78b, and what its levels buy
# (issue 52, items 5 and 6). From the repository root:
#
#   docs/residual/run-4x4.sh GAPSET WORK
#
# GAPSET is the binary, WORK a directory outside the checkout with pdb/
# holding the 7-8 databases of both kinds (gapset pdb build --partition 7-8
# --compact --out WORK/pdb; the same with --blank; 7-8-mid for the
# fewest-node configuration). Long: R<=0 is estimated at 7.6e10
# configurations, 39.4 GiB of peak disk, 10.4 GiB of memory, about 10.6 h
# of CPU (the enumeration says so before it starts). Every stage resumes:
# run the script again after a stop (the enumeration from its checkpoint,
# a finished stage is not made again). One stage at a time, at nice 19;
# pause it (kill -STOP) while measuring anything else.
set -eu
B=${1:?usage: docs/residual/run-4x4.sh GAPSET WORK}
W=${2:?WORK missing}
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$W"
# 1. the enumeration, resumable
if [ ! -s res0.json ]; then
  nice -n 19 ionice -c 3 "$B" enumerate --base pdb78b --pdb pdb --gap 0 --cells 10,@0-3+5+12-15 \
    --packed --rank-runs --tables --memory 4096 --samples 20000 --checkpoint-every 10m \
    --out-dir res0 --format json > res0.json.part 2>> res0.log
  mv res0.json.part res0.json
fi
# 2. a gap database of each projection's level
for k in res0/Res0_*.keys; do
  db=$(basename "$k" .keys).gapdb
  [ -s "$db" ] || nice -n 19 "$B" gapdb --keys "$k" --out "$db"
done
# 3. the bound: pdb78b + 2 x level (res0r: the transpose asked too), each
# projection alone and both, beside pdb78 and pdb78b, on Korf's 100 (one
# search at a time) and the 80-move set (two at a time)
G=(); for db in Res0_*.gapdb; do G+=(--gapdb "$db"); done
for set in korf100 hard80; do
  j=1; [ $set = hard80 ] && j=2
  [ -s $set-res0/results.csv ] ||
    "$B" bench -q -j $j --repeat 3 -i "$repo/data/$set.txt" --pdb pdb "${G[@]}" --baseline pdb78 \
      -H pdb78,pdb78b,res0r:10,res0r:9,res0r --out $set-res0
done
