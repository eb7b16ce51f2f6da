#!/usr/bin/env bash
# compare.sh: gapset's Manhattan loop against the C reference (md.c), on the
# same instances, interleaved in one run (C, Go, Go, C, ...). Checks that
# both expand exactly the same nodes per instance and prints each round's
# nodes/s and the ratio of the medians (Go / C). Run it on a quiet machine
# (on the shared one: under flock /tmp/gapset-heavy.lock).
#
#   bench/ref/compare.sh [ROUNDS] [KORF_ID ...]    (default: 5 rounds, Korf 1 8 97)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
shift || true
ids=${*:-1 8 97}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O3 -march=native -o "$tmp/md-ref" bench/ref/md.c
go build -o "$tmp/gapset" ./cmd/gapset
grep -E "^($(echo "$ids" | tr ' ' '|')) " data/korf100.txt >"$tmp/inst.txt"

runc() { "$tmp/md-ref" <"$tmp/inst.txt" >"$tmp/c.$1"; }
rungo() {
	"$tmp/gapset" solve -q --threads 1 -H md -f json -i "$tmp/inst.txt" |
		sed -E 's/.*"id":"([^"]*)".*"length":([0-9]+).*"nodes":([0-9]+).*"seconds":([0-9.e-]+).*/\1 \2 \3 \4/' >"$tmp/go.$1"
}
rate() { awk '{n += $3; s += $4} END {printf "%.1f", n / s / 1e6}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "instances: Korf $ids; $rounds rounds; $(gcc --version | head -1); $(go version)"
for r in $(seq "$rounds"); do
	if ((r % 2)); then runc "$r"; rungo "$r"; else rungo "$r"; runc "$r"; fi
	if ! diff <(cut -d' ' -f1-3 "$tmp/c.$r") <(cut -d' ' -f1-3 "$tmp/go.$r") >/dev/null; then
		echo "node counts differ:" >&2
		paste "$tmp/c.$r" "$tmp/go.$r" >&2
		exit 1
	fi
	c=$(rate "$tmp/c.$r")
	g=$(rate "$tmp/go.$r")
	echo "round $r: C $c M nodes/s, Go $g M nodes/s, Go/C $(awk -v g="$g" -v c="$c" 'BEGIN {printf "%.3f", g / c}')"
	echo "$c" >>"$tmp/c.rates"
	echo "$g" >>"$tmp/go.rates"
done
nodes=$(awk '{n += $3} END {print n}' "$tmp/c.1")
c=$(median <"$tmp/c.rates")
g=$(median <"$tmp/go.rates")
echo "nodes per round: $nodes (identical in C and Go)"
echo "median: C $c M nodes/s, Go $g M nodes/s; Go/C = $(awk -v g="$g" -v c="$c" 'BEGIN {printf "%.3f", g / c}')"
