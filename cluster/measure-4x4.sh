#!/usr/bin/env bash
# measure-4x4.sh: the 4x4 gap <= 2 sets (8 and 10 cells, packed) made by
# `gapset enumerate` and by `gapset-cluster enumerate` (in-process Prism),
# back to back, each under /usr/bin/time -v, then the key-set files
# compared with cmp. Run it on a quiet machine (it takes minutes and all
# cores); docs/cluster.md says what to expect.
#
# Usage, from anywhere: cluster/measure-4x4.sh [OUT]   (default: ./measure-4x4)
# OUT receives bin/, single/ and cluster/ (the key-set files), *.json (the
# summaries) and *.time (progress and /usr/bin/time -v).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-measure-4x4}
mkdir -p "$out"
out=$(cd "$out" && pwd)
mkdir -p "$out/bin"

(cd "$root" && go build -o "$out/bin/gapset" ./cmd/gapset)
(cd "$root/cluster" && go build -o "$out/bin/gapset-cluster" ./cmd/gapset-cluster)

args=(enumerate --rows 4 --cols 4 --gap 2 --cells 8,10 --packed --format json)
uptime
/usr/bin/time -v "$out/bin/gapset" "${args[@]}" --out-dir "$out/single" \
	>"$out/single.json" 2>"$out/single.time"
uptime
/usr/bin/time -v "$out/bin/gapset-cluster" "${args[@]}" --out-dir "$out/cluster" \
	>"$out/cluster.json" 2>"$out/cluster.time"
uptime

for f in "$out"/single/*.keys; do
	cmp "$f" "$out/cluster/$(basename "$f")"
done
echo "identical key-set files: $(cd "$out/single" && ls *.keys | tr '\n' ' ')"
grep -H -E 'Elapsed \(wall|User time|System time|Maximum resident' "$out"/single.time "$out"/cluster.time
