#!/bin/bash
# The 3x4 table of README.md: |R<=k| of the residual sets relative to the
# blank-aware additive databases of 1-6 / 7-11, beside the gap sets
# |Gap<=k|, whole and projected onto the last 8 and 6 cells, k = 0..8.
# From the repository root:
#
#   docs/residual/run.sh GAPSET OUT
#
# GAPSET is the binary (go build -o ... ./cmd/gapset), OUT a directory for
# the blank-aware tables, the key-set files and the run summaries (outside
# the checkout). Writes counts-3x4.tsv beside this script (the table
# TestResidual3x4CountsMatchBFS checks against a full BFS) and prints it.
# One run at a time, at nice 19; a run whose summary exists is not made
# again (the script resumes).
set -eu
B=${1:?usage: docs/residual/run.sh GAPSET OUT}
O=${2:?OUT missing}
BASE='pdbb:1-6/7-11'
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
[ -s "$O/pdb/3x4-1-2-3-4-5-6-blank.pdb" ] ||
  nice -n 19 "$B" pdb build -q --blank --partition 1-6/7-11 --rows 3 --cols 4 --out "$O/pdb"
for k in 0 2 4 6 8; do
  for set in gap res; do
    [ -s "$O/$set$k.json" ] && continue # done before: the script resumes
    extra=()
    [ $set = res ] && extra=(--base "$BASE" --pdb "$O/pdb")
    /usr/bin/time -v nice -n 19 "$B" enumerate --rows 3 --cols 4 --gap $k --cells 12,8,6 --packed -q \
      "${extra[@]}" --out-dir "$O/$set$k" --format json > "$O/$set$k.json" 2> "$O/$set$k.err"
  done
done
{
  echo "# The 3x4 board (goal 1..11, the blank last), 239,500,800 configurations: the residual"
  echo "# sets R<=k = {s : optimum(s) - h(s) <= k}, h the blank-aware additive databases of"
  echo "# tiles 1-6 and 7-11 (--base $BASE), beside the gap sets Gap<=k (h Manhattan distance):"
  echo "# configurations (cells 12) and the patterns of their projections onto the last 8 and"
  echo "# 6 cells. Made by docs/residual/run.sh; checked against a full BFS by"
  echo "# TestResidual3x4CountsMatchBFS (heuristic, GAPSET_SLOW=1)."
  printf 'set\tk\tcells\tcount\n'
  for set in gap res; do
    for k in 0 2 4 6 8; do
      jq -r --arg set $set --arg k $k '.outputs[] | [$set, $k, .cells, .count] | @tsv' "$O/$set$k.json"
    done
  done
} > "$here/counts-3x4.tsv"
cat "$here/counts-3x4.tsv"
