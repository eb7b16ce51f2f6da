#!/usr/bin/env bash
# Korf's 100 with pdb78+fsm on compact 7-8 databases: two binaries,
# interleaved, warm page cache; the new binary's record of checked files
# is filled by one run first. Usage: bench/pair-korf.sh OLD NEW PDBDIR [PAIRS]
set -euo pipefail
old=$1 new=$2 pdb=$3 pairs=${4:-7}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(mktemp -d)}
"$new" solve -q -H pdb78+fsm --pdb "$pdb" -i data/korf100.txt -f csv > /dev/null
for i in $(seq "$pairs"); do for b in old new; do
  /usr/bin/time -f "$b %e s wall %U user %S sys" "${!b}" solve -q -H pdb78+fsm --pdb "$pdb" -i data/korf100.txt -f csv > "/tmp/korf-$b.csv"
done; done
# Lengths must agree; with two threads a last iteration's nodes depend on
# which thread reaches the goal first (see solve --help).
cut -d, -f1-3 /tmp/korf-old.csv | cmp - <(cut -d, -f1-3 /tmp/korf-new.csv) && echo "lengths identical"
