#!/usr/bin/env bash
# 4x4 gap <= G, cells 8 and 10, packed: two binaries, interleaved; the
# key-set files compared. Usage: bench/pair-enumerate.sh OLD NEW DIR [GAP] [PAIRS]
set -euo pipefail
old=$1 new=$2 dir=$3 gap=${4:-2} pairs=${5:-2}
for i in $(seq "$pairs"); do for b in old new; do
  d=$dir/g$gap-$b; rm -rf "$d"; mkdir -p "$d"
  /usr/bin/time -f "$b %e s wall %U user %S sys %M KB maxrss" "${!b}" enumerate -q --gap "$gap" --cells 8,10 --packed \
    --memory 8192 --out-dir "$d" --format json > "$dir/g$gap-$b-$i.json"
done; done
for f in "$dir/g$gap-old"/*.keys; do cmp "$f" "$dir/g$gap-new/$(basename "$f")"; done && echo "files identical"
grep -o '"peak_disk_bytes":[0-9]*' "$dir"/g$gap-*-*.json
