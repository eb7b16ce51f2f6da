#!/usr/bin/env bash
# The gap databases of the last 10 and 8 cells from nothing, and the
# measurements of this folder (README.md). From the repository root, on a
# machine otherwise quiet:
#
#   docs/pdb-gap/gapdb10/run.sh GAPSET PDB78 WORK OUT [STAGE]
#
# GAPSET: the binary (go build -o gapset ./cmd/gapset); PDB78: a directory
# with the 7-8 databases and the 78mid split (gapset pdb build --partition
# 7-8 and --partition 7-8-mid); WORK: a directory with about 45 GB free for the
# keys and the databases; OUT: where the results go. STAGE: all (default),
# enumerate, approx8, gapdb, load, r300, korf, hard80, or approx10 (not in
# all: the gap-8 level on 10 cells, about 40 min and 11 GB; the measurements
# then read Gap8_10.gapdb instead of Gap6_10.gapdb). A stage whose output
# exists is skipped; the enumeration resumes from its checkpoint when run
# again. Dropping the page cache (cold loads) needs root; without it the
# cold rows are warm.
#
#   enumerate  the gap <= 0, 2, 4 and 6 sets projected onto the last 8 and 10
#              cells: the gap <= 6 run about 3 h on 2 cores, peak disk about
#              37 GiB, 13 GiB of memory; the three others about 20 min
#   approx8    Gap8_8a, the gap-8 level on 8 cells approximated from the exact
#              levels: a few minutes
#   gapdb      Gap6_10.gapdb (the exact levels on 10 cells, 10.9 GB, 3 bits a
#              pattern) and Gap8_8.gapdb (8 cells to gap 8, 195 MB)
set -eu
B=$(realpath "${1:?usage: run.sh GAPSET PDB78 WORK OUT [STAGE]}")
P=$(realpath "${2:?PDB78 missing}")
W=${3:?WORK missing}
R=${4:?OUT missing}
S=${5:-all}
mkdir -p "$W/keys" "$R"
W=$(realpath "$W"); R=$(realpath "$R")
M=$(realpath data)
K=$W/keys
D8=$W/Gap8_8.gapdb
D10=$W/Gap6_10.gapdb
[ -e "$W/Gap8_10.gapdb" ] && D10=$W/Gap8_10.gapdb
G="--gapdb $D10 --gapdb $D8"
ONE="1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "page cache not dropped (needs root)" >&2; }
stage() { [ "$S" = all ] || [ "$S" = "$1" ]; }
log() { echo "$(date -u +%FT%TZ) $*" | tee -a "$R/events.log" >&2; }

# One run a level: a run writes the projections of the gap <= G set only.
if stage enumerate; then
  for g in 0 2 4 6; do
    [ -e "$K/Gap${g}_10.keys" ] && [ -e "$K/Gap${g}_8.keys" ] && continue
    log enumerate gap $g
    $T "$B" enumerate --gap $g --cells 8,10 --packed --memory 8192 --format json --out-dir "$K" > "$R/enumerate-g$g.json" 2> "$R/enumerate-g$g.err"
  done
fi
if stage approx8 && [ ! -e "$K/Gap8_8a.keys" ]; then
  log approx8
  $T "$B" approx -q --cells 8 --max-gap 8 --packed --exact "$K/Gap0_8.keys" --exact "$K/Gap2_8.keys" \
    --exact "$K/Gap4_8.keys" --exact "$K/Gap6_8.keys" --out-dir "$K" 2> "$R/approx8.err"
fi
if stage gapdb; then
  if [ ! -e "$W/Gap6_10.gapdb" ]; then
    log gapdb 10
    $T "$B" gapdb --out "$W/Gap6_10.gapdb" --keys "$K/Gap0_10.keys" --keys "$K/Gap2_10.keys" --keys "$K/Gap4_10.keys" \
      --keys "$K/Gap6_10.keys" > "$R/gapdb10.out" 2>&1
  fi
  if [ ! -e "$D8" ]; then
    log gapdb 8
    $T "$B" gapdb --out "$D8" --keys "$K/Gap0_8.keys" --keys "$K/Gap2_8.keys" --keys "$K/Gap4_8.keys" \
      --keys "$K/Gap6_8.keys" --keys "$K/Gap8_8a.keys" > "$R/gapdb8.out" 2>&1
  fi
fi
if [ "$S" = approx10 ]; then
  [ -e "$K/Gap8_10a.keys" ] || { log approx10; $T "$B" approx -q --cells 10 --max-gap 8 --packed --exact "$K/Gap0_10.keys" \
    --exact "$K/Gap2_10.keys" --exact "$K/Gap4_10.keys" --exact "$K/Gap6_10.keys" --out-dir "$K" 2> "$R/approx10.err"; }
  [ -e "$W/Gap8_10.gapdb" ] || { log gapdb 10 gap 8; $T "$B" gapdb --out "$W/Gap8_10.gapdb" --keys "$K/Gap0_10.keys" --keys "$K/Gap2_10.keys" \
    --keys "$K/Gap4_10.keys" --keys "$K/Gap6_10.keys" --keys "$K/Gap8_10a.keys" > "$R/gapdb10-gap8.out" 2>&1; }
fi
# Ready: a one-move board solved, the databases opened and checked whole
# (CRC-32C of every chunk) included; twice cold, three times warm.
if stage load; then
  log load
  : > "$R/load.txt"
  for mode in cold cold warm warm warm; do
    if [ $mode = cold ]; then drop; else cat "$D10" "$D8" > /dev/null; fi
    echo -n "$mode " >> "$R/load.txt"
    $T "$B" solve -q -H gap8r $G "$ONE" 2>> "$R/load.txt" > /dev/null
  done
  $T "$B" verify "$D10" "$D8" > "$R/verify.out" 2>&1
fi
# The 300: h_G:6 and h_G:8 with transposes from the databases against
# pdb78, two rounds interleaved.
if stage r300; then
  log r300
  cat "$D10" "$D8" > /dev/null
  for r in 1 2; do
    rm -rf "$R/r300-gap-$r" "$R/r300-pdb-$r"
    $T "$B" bench -q -j 1 -i "$M/random300.txt" -H gap6r:10,gap8r $G --out "$R/r300-gap-$r" > /dev/null 2> "$R/r300-gap-$r.time"
    $T "$B" bench -q -j 1 -i "$M/random300.txt" -H pdb78 --pdb "$P" --out "$R/r300-pdb-$r" > /dev/null 2> "$R/r300-pdb-$r.time"
  done
fi
# Korf's 100: pdb78 against pdb78 with the databases, three rounds.
if stage korf; then
  log korf
  cat "$D10" "$D8" > /dev/null
  rm -rf "$R/korf100"
  $T "$B" bench -q -i "$M/korf100.txt" -j 1 --repeat 3 --baseline pdb78 -H pdb78,pdb78+gap8r \
    --pdb "$P" $G --out "$R/korf100" > /dev/null 2> "$R/korf100.time"
fi
# The seventeen 80-move positions: the fewest-node configuration with and
# without the databases, two searches at a time, load included, warm and cold.
if stage hard80; then
  log hard80
  for mode in warm cold; do
    for h in 'pdb78+78mid+bpmx+fsm' 'pdb78+78mid+gap8r+bpmx+fsm'; do
      n=78mid; X=""
      case "$h" in *gap*) n=78mid-gap8r; X=$G;; esac
      if [ $mode = cold ]; then drop; else cat "$D10" "$D8" "$P"/*.pdb > /dev/null; fi
      rm -rf "$R/hard80-$mode-$n"
      $T "$B" bench -q -j 2 -i "$M/hard80.txt" -H "$h" --pdb "$P" $X --out "$R/hard80-$mode-$n" > /dev/null 2> "$R/hard80-$mode-$n.time"
    done
  done
fi
log finished
