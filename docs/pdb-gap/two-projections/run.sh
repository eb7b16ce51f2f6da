#!/usr/bin/env bash
# Two projections exact to gap 6, approximated to gap 8, as two gap
# databases, and the measurements of this folder (README.md). From the
# repository root, on a machine otherwise quiet:
#
#   docs/pdb-gap/two-projections/run.sh GAPSET PDB78 WORK OUT [STAGE]
#
# GAPSET: the binary (go build -o gapset ./cmd/gapset); PDB78: a directory
# with the 7-8 databases and the 78mid split (gapset pdb build --partition
# 7-8 and --partition 7-8-mid); WORK: a directory with about 60 GB free for
# the run's checkpoint, the keys and the databases; OUT: where the results
# go. STAGE: all (default) or one of enumerate, approx9, gapdb9, gapdb9-6,
# approx10, gapdb10, load, r300, korf, hard80. A stage whose output exists is skipped;
# the enumeration resumes from its checkpoint when run again (the
# approximations cannot be resumed). Dropping the page cache (cold loads)
# needs root; without it the cold rows are warm.
#
#   enumerate  the gap <= 0, 2, 4 and 6 sets, each projected onto the last 10
#              cells and onto the 9 cells @0-3+5+12-15 (rows 0 and 3 and cell
#              5): the gap <= 6 run about 2 h 45 min on 2 cores, 12 GB of
#              memory, 40 GiB of disk at the peak; the three others about 20 min
#   approx9    Gap8_9cF02Fa, the gap-8 level on the 9 cells approximated
#              from the exact levels
#   gapdb9     Gap8_9cF02F.gapdb (1.6 GB)
#   gapdb9-6   Gap6_9cF02F.gapdb: the same cells to gap 6 only (their
#              approximated gap-8 level holds 96.7% of the patterns, so its
#              questions cost reads and rarely cut); about 90 s
#   approx10   Gap8_10a: about 40 min, 11 GB of memory
#   gapdb10    Gap8_10.gapdb (10.9 GB)
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
C=@0-3+5+12-15 # the second projection; X its name in the files
X=9cF02F
D10=$W/Gap8_10.gapdb
D9=$W/Gap8_$X.gapdb
D96=$W/Gap6_$X.gapdb
ONE="--gapdb $D10"
TWO="--gapdb $D10 --gapdb $D96"
TWO8="--gapdb $D10 --gapdb $D9"
BOARD="1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
T="/usr/bin/time -f %e_s_wall_%U_user_%S_sys_%M_KB"
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "page cache not dropped (needs root)" >&2; }
stage() { [ "$S" = all ] || [ "$S" = "$1" ]; }
log() { echo "$(date -u +%FT%TZ) $*" | tee -a "$R/events.log" >&2; }
levels() { # the --keys flags of one projection's levels: levels NAME
  echo --keys "$K/Gap0_$1.keys" --keys "$K/Gap2_$1.keys" --keys "$K/Gap4_$1.keys" --keys "$K/Gap6_$1.keys" --keys "$K/Gap8_$1a.keys"
}
exact() { # the --exact flags of approx: exact NAME
  echo --exact "$K/Gap0_$1.keys" --exact "$K/Gap2_$1.keys" --exact "$K/Gap4_$1.keys" --exact "$K/Gap6_$1.keys"
}

# One run a level: a run writes the projections of the gap <= G set only.
if stage enumerate; then
  for g in 0 2 4 6; do
    [ -e "$K/Gap${g}_10.keys" ] && [ -e "$K/Gap${g}_$X.keys" ] && continue
    log enumerate gap $g
    $T "$B" enumerate --gap $g --cells "10,$C" --packed --memory 8192 --format json --out-dir "$K" > "$R/enumerate-g$g.json" 2> "$R/enumerate-g$g.err"
  done
fi
if stage approx9 && [ ! -e "$K/Gap8_${X}a.keys" ]; then
  log approx9
  $T "$B" approx -q --cells "$C" --max-gap 8 --packed $(exact $X) --out-dir "$K" 2> "$R/approx9.err"
fi
if stage gapdb9 && [ ! -e "$D9" ]; then
  log gapdb9
  $T "$B" gapdb --out "$D9" $(levels $X) > "$R/gapdb9.out" 2>&1
fi
if stage gapdb9-6 && [ ! -e "$D96" ]; then
  log gapdb9-6
  $T "$B" gapdb --out "$D96" --keys "$K/Gap0_$X.keys" --keys "$K/Gap2_$X.keys" --keys "$K/Gap4_$X.keys" --keys "$K/Gap6_$X.keys" > "$R/gapdb9-6.out" 2>&1
fi
if stage approx10 && [ ! -e "$K/Gap8_10a.keys" ]; then
  log approx10
  $T "$B" approx -q --cells 10 --max-gap 8 --packed $(exact 10) --out-dir "$K" 2> "$R/approx10.err"
fi
if stage gapdb10 && [ ! -e "$D10" ]; then
  log gapdb10
  $T "$B" gapdb --out "$D10" $(levels 10) > "$R/gapdb10.out" 2>&1
fi
# Ready: a one-move board solved, both databases opened and checked whole
# (CRC-32C of every chunk) included; twice cold, three times warm.
if stage load; then
  log load
  : > "$R/load.txt"
  for mode in cold cold warm warm warm; do
    if [ $mode = cold ]; then drop; else cat "$D10" "$D96" > /dev/null; fi
    echo -n "$mode " >> "$R/load.txt"
    $T "$B" solve -q -H gap8r $TWO "$BOARD" 2>> "$R/load.txt" > /dev/null
  done
  $T "$B" verify "$D10" "$D9" "$D96" > "$R/verify.out" 2>&1
fi
# The 300: h_G:8 with transposes on the 10-cell database, on it with the
# 9-cell one to gap 6 and to gap 8, on the 9-cell one alone, and pdb78, two
# rounds interleaved.
if stage r300; then
  log r300
  cat "$D10" "$D9" "$D96" > /dev/null
  for r in 1 2; do
    for n in one two two8 nine pdb; do
      case $n in
        one) A="-H gap8r $ONE" ;;
        two) A="-H gap8r $TWO" ;;
        two8) A="-H gap8r $TWO8" ;;
        nine) A="-H gap8r --gapdb $D9" ;;
        pdb) A="-H pdb78 --pdb $P" ;;
      esac
      rm -rf "$R/r300-$n-$r"
      $T "$B" bench -q -j 1 -i "$M/random300.txt" $A --out "$R/r300-$n-$r" > /dev/null 2> "$R/r300-$n-$r.time"
    done
  done
fi
# Korf's 100, three interleaved rounds: pdb78 with one and with both
# databases, and the fewest-node configuration with and without both.
if stage korf; then
  log korf
  cat "$D10" "$D96" > /dev/null
  for n in one two; do
    G=$ONE; [ $n = two ] && G=$TWO
    rm -rf "$R/korf100-$n"
    $T "$B" bench -q -i "$M/korf100.txt" -j 1 --repeat 3 --baseline pdb78 -H pdb78,pdb78+gap8r \
      --pdb "$P" $G --out "$R/korf100-$n" > /dev/null 2> "$R/korf100-$n.time"
  done
  rm -rf "$R/korf100-78mid"
  $T "$B" bench -q -i "$M/korf100.txt" -j 1 --repeat 3 --baseline 'pdb78+78mid+bpmx+fsm' \
    -H 'pdb78+78mid+bpmx+fsm,pdb78+78mid+gap8r+bpmx+fsm' --pdb "$P" $TWO --out "$R/korf100-78mid" > /dev/null 2> "$R/korf100-78mid.time"
fi
# The seventeen 80-move positions: the fewest-node configuration without
# gap sets, with both databases (h_G:8), and with the 9-cell one to gap 6
# alone (h_G:6); pdb78 with move pruning without and with both databases;
# two searches at a time, load included, warm and cold.
if stage hard80; then
  log hard80
  for mode in warm cold; do
    for n in 78mid 78mid-gap8r 78mid-gap6r-nine pdb78 pdb78-gap8r; do
      h='pdb78+78mid+gap8r+bpmx+fsm'
      case $n in
        78mid) h='pdb78+78mid+bpmx+fsm'; G="" ;;
        78mid-gap8r) G=$TWO ;;
        78mid-gap6r-nine) h='pdb78+78mid+gap6r+bpmx+fsm'; G="--gapdb $D96" ;;
        pdb78) h='pdb78+fsm'; G="" ;;
        pdb78-gap8r) h='pdb78+gap8r+fsm'; G=$TWO ;;
      esac
      if [ $mode = cold ]; then drop; else cat "$D10" "$D96" "$P"/*.pdb > /dev/null; fi
      rm -rf "$R/hard80-$mode-$n"
      $T "$B" bench -q -j 2 -i "$M/hard80.txt" -H "$h" --pdb "$P" $G --out "$R/hard80-$mode-$n" > /dev/null 2> "$R/hard80-$mode-$n.time"
    done
  done
fi
log finished
