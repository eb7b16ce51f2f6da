#!/bin/bash
# combo's benches, run as one heavy job
set -x
B=/tmp/combo-bin
K=/work/data/keys
P=/work/data/pdb/pdb78
R=/tmp/combo-r
cd /work/wt/combo
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
A=/work/data/gaps/approx8
/usr/bin/time -v $B bench -q -i data/korf100.txt -j 1 --repeat 3 --baseline pdb78 \
  -H pdb78,pdb78+gap2r-gapfirst,pdb78+gap4r-gapfirst,pdb78+gap6r-gapfirst,pdb78+gap8r-gapfirst,pdb78+gap4r \
  --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys --keys $A/Gap4_8a.keys --keys $A/Gap6_8a.keys --keys $A/Gap8_8a.keys \
  --out $R/korf100-approx > $R/korf100-approx.log 2> $R/korf100-approx.err
date
$B --cpuprofile $R/prof-pdb78.out solve -q -H pdb78 --pdb $P -f json -i $R/transposed.txt > $R/prof-pdb78.json
$B --cpuprofile $R/prof-combo.out solve -q -H pdb78+gap2r-gapfirst --pdb $P --keys $K/Gap0_8.keys --keys $K/Gap2_8.keys -f json -i $R/transposed.txt > $R/prof-combo.json
date
echo finished
