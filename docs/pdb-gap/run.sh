#!/bin/bash
# The paired runs of pdb78 with gap sets in this folder (see README.md), run
# as one heavy job on 2026-11-23 15:49-15:53 UTC. From the repository root:
#
#   docs/pdb-gap/run.sh GAPSET KEYS PDB78 APPROX OUT
#
# GAPSET is the binary (go build -o ... ./cmd/gapset); KEYS a directory
# holding Gap0_8.keys and Gap2_8.keys (gapset enumerate); PDB78 the 7-8
# databases (gapset pdb build --partition 7-8); APPROX a directory holding
# Gap4_8a.keys, Gap6_8a.keys and Gap8_8a.keys (gapset approx, seeded with
# Gap0_8 and Gap2_8); OUT the directory the results go to.
set -x
B=${1:?usage: docs/pdb-gap/run.sh GAPSET KEYS PDB78 APPROX OUT}
K=${2:?KEYS missing}
P=${3:?PDB78 missing}
A=${4:?APPROX missing}
R=${5:?OUT missing}
cd "$(dirname "$0")/../.."
mkdir -p "$R"
# The hardest positions: the transposed goal (72 moves) and an 80-move position.
printf '1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0\n0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1\n' > "$R/hard.txt"
printf '1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0\n' > "$R/transposed.txt"
date
/usr/bin/time -v $B bench -q -i data/korf100.txt -j 1 --repeat 3 --baseline pdb78 \
  -H pdb78,pdb78+gap0r,pdb78+gap2,pdb78+gap2r,pdb78+gap2-gapfirst,pdb78+gap2r-gapfirst \
  --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys --out $R/korf100 > $R/korf100.log 2> $R/korf100.err
date
/usr/bin/time -v $B bench -q -i data/random300.txt -j 1 --repeat 3 --baseline pdb78 \
  -H pdb78,pdb78+gap2r,pdb78+gap2r-gapfirst \
  --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys --out $R/random300 > $R/random300.log 2> $R/random300.err
date
/usr/bin/time -v $B bench -q -i $R/hard.txt -j 1 --baseline pdb78 \
  -H pdb78,pdb78+gap2r-gapfirst \
  --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys --out $R/hard > $R/hard.log 2> $R/hard.err
date
/usr/bin/time -v $B bench -q -i data/korf100.txt -j 1 --repeat 3 --baseline pdb78 \
  -H pdb78,pdb78+gap2r-gapfirst,pdb78+gap4r-gapfirst,pdb78+gap6r-gapfirst,pdb78+gap8r-gapfirst,pdb78+gap4r \
  --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys --keys $A/Gap4_8a.keys --keys $A/Gap6_8a.keys --keys $A/Gap8_8a.keys \
  --out $R/korf100-approx > $R/korf100-approx.log 2> $R/korf100-approx.err
date
$B --cpuprofile $R/prof-pdb78.out solve -q -H pdb78 --pdb $P -f json -i $R/transposed.txt > $R/prof-pdb78.json
$B --cpuprofile $R/prof-combo.out solve -q -H pdb78+gap2r-gapfirst --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys -f json -i $R/transposed.txt > $R/prof-combo.json
date
echo finished
